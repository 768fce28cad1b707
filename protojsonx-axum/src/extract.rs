//! `ProtoJsonBody<T>` as an extractor: content type, body limit, decoding.

use axum::body::Bytes;
use axum::extract::{FromRequest, OptionalFromRequest, Request};
use axum::http::{HeaderMap, header};
use protojsonx_runtime::{DecodeOptions, ProtoJson};

use crate::{ProtoJsonBody, ProtoJsonConfig, ProtoJsonRejection};

/// Reads the body as ProtoJSON of `T`, with the decode options of the
/// request's [`ProtoJsonConfig`]. Refuses a `Content-Type` that is not JSON
/// (415), a body past axum's `DefaultBodyLimit` (413) and a body that does
/// not decode (400): see [`ProtoJsonRejection`].
impl<T, S> FromRequest<S> for ProtoJsonBody<T>
where
    T: ProtoJson,
    S: Send + Sync,
{
    type Rejection = ProtoJsonRejection;

    async fn from_request(req: Request, _: &S) -> Result<Self, ProtoJsonRejection> {
        if !is_json(req.headers()) {
            return Err(ProtoJsonRejection::UnsupportedMediaType);
        }
        let (body, options) = read(req).await?;
        Self::from_bytes(&body, &options)
    }
}

/// `Option<ProtoJsonBody<T>>`: `None` for a request without `Content-Type` (no
/// body), else as `ProtoJsonBody<T>`.
impl<T, S> OptionalFromRequest<S> for ProtoJsonBody<T>
where
    T: ProtoJson,
    S: Send + Sync,
{
    type Rejection = ProtoJsonRejection;

    async fn from_request(req: Request, state: &S) -> Result<Option<Self>, ProtoJsonRejection> {
        if !req.headers().contains_key(header::CONTENT_TYPE) {
            return Ok(None);
        }
        <Self as FromRequest<S>>::from_request(req, state)
            .await
            .map(Some)
    }
}

impl<T: ProtoJson> ProtoJsonBody<T> {
    /// Decodes a body already read, for handlers that take the bytes
    /// themselves.
    ///
    /// ```
    /// use protojsonx_axum::ProtoJsonBody;
    /// use protojsonx_runtime::DecodeOptions;
    /// use prost_types::Duration;
    ///
    /// let ProtoJsonBody(d) = ProtoJsonBody::<Duration>::from_bytes(br#""1.5s""#, &DecodeOptions::new()).unwrap();
    /// assert_eq!((d.seconds, d.nanos), (1, 500_000_000));
    /// let err = ProtoJsonBody::<Duration>::from_bytes(b"1.5", &DecodeOptions::new()).unwrap_err();
    /// assert_eq!(err.status(), axum::http::StatusCode::BAD_REQUEST);
    /// ```
    pub fn from_bytes(bytes: &[u8], options: &DecodeOptions) -> Result<Self, ProtoJsonRejection> {
        Ok(ProtoJsonBody(options.from_slice(bytes)?))
    }
}

/// The body (within axum's `DefaultBodyLimit`) and the decode options of the
/// request. Not generic, so compiled once for all message types.
async fn read(req: Request) -> Result<(Bytes, DecodeOptions), ProtoJsonRejection> {
    let options = *ProtoJsonConfig::of(req.extensions()).decode_options();
    let body = Bytes::from_request(req, &()).await?;
    Ok((body, options))
}

/// Whether the `Content-Type` is `application/json` or `application/*+json`
/// (parameters such as `charset` allowed), the test of axum's `Json`.
fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return false;
    };
    let Ok(mime) = value.to_str().unwrap_or("").parse::<mime::Mime>() else {
        return false;
    };
    mime.type_() == mime::APPLICATION
        && (mime.subtype() == mime::JSON || mime.suffix() == Some(mime::JSON))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(content_type: &str) -> bool {
        let mut headers = HeaderMap::new();
        headers.insert(header::CONTENT_TYPE, content_type.parse().unwrap());
        is_json(&headers)
    }

    #[test]
    fn json_content_types_are_recognised() {
        assert!(json("application/json"));
        assert!(json("application/json; charset=utf-8"));
        assert!(json("Application/JSON;charset=UTF-8"));
        assert!(json("application/problem+json"));
        assert!(json("application/vnd.api+json; ext=bulk"));
    }

    #[test]
    fn other_content_types_are_not() {
        for other in [
            "text/json",
            "application/jsonx",
            "application/x-protobuf",
            "json",
            "",
        ] {
            assert!(!json(other), "{other}");
        }
        assert!(!is_json(&HeaderMap::new()));
    }
}
