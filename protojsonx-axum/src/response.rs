//! Messages as ProtoJSON responses.

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use protojsonx_runtime::{EncodeOptions, ProtoJson};
use serde_json::json;

use crate::ProtoJsonBody;

const APPLICATION_JSON: HeaderValue = HeaderValue::from_static("application/json");

/// A message answered as ProtoJSON with the encode options given, rather
/// than [`ProtoJsonBody`]'s defaults: `200 OK`, `content-type: application/json`.
///
/// Made by [`ProtoJsonBody::with_options`], [`ProtoJsonConfig::respond`]
/// (the options configured for the router) or [`ProtoJsonResponse::new`].
/// Like any response it combines with a status: `(StatusCode::CREATED, response)`.
///
/// [`ProtoJsonConfig::respond`]: crate::ProtoJsonConfig::respond
#[derive(Debug, Clone)]
#[must_use]
pub struct ProtoJsonResponse<T> {
    message: T,
    options: EncodeOptions,
}

impl<T> ProtoJsonResponse<T> {
    /// `message`, to be written with `options`.
    pub fn new(message: T, options: EncodeOptions) -> Self {
        ProtoJsonResponse { message, options }
    }

    /// The message.
    pub fn message(&self) -> &T {
        &self.message
    }

    /// The options it will be written with.
    pub fn options(&self) -> &EncodeOptions {
        &self.options
    }
}

impl<T: ProtoJson> IntoResponse for ProtoJsonResponse<T> {
    fn into_response(self) -> Response {
        encode(&self.message, &self.options)
    }
}

/// Answers with the message written with the default [`EncodeOptions`]
/// (lowerCamelCase names, default values left out, enums by name); see
/// [`ProtoJsonBody::with_options`] for others.
impl<T: ProtoJson> IntoResponse for ProtoJsonBody<T> {
    fn into_response(self) -> Response {
        encode(&self.0, &EncodeOptions::new())
    }
}

/// `200` with the JSON of `message`; `500` with a JSON error when the
/// message cannot be written as ProtoJSON (a timestamp out of range, an
/// `Any` of an unknown type).
fn encode<T: ProtoJson>(message: &T, options: &EncodeOptions) -> Response {
    match options.to_vec(message) {
        Ok(json) => json_response(StatusCode::OK, json),
        Err(error) => encode_failed(&error),
    }
}

#[cold]
fn encode_failed(error: &protojsonx_runtime::Error) -> Response {
    let message = format!("cannot encode the response as ProtoJSON: {error}");
    json_error(
        StatusCode::INTERNAL_SERVER_ERROR,
        &json!({ "error": message }),
    )
}

/// `status` with `body` as JSON.
pub(crate) fn json_error(status: StatusCode, body: &serde_json::Value) -> Response {
    json_response(status, body.to_string().into_bytes())
}

fn json_response(status: StatusCode, json: Vec<u8>) -> Response {
    let mut response = Response::new(Body::from(json));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, APPLICATION_JSON);
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;
    use prost_types::{Duration, Timestamp};

    async fn parts(response: Response) -> (StatusCode, String, String) {
        let status = response.status();
        let content_type = response.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .to_owned();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        (
            status,
            content_type,
            String::from_utf8(body.to_vec()).unwrap(),
        )
    }

    #[tokio::test]
    async fn a_message_is_written_as_protojson() {
        let response = ProtoJsonBody(Duration {
            seconds: 3,
            nanos: 0,
        })
        .into_response();
        let expected = (StatusCode::OK, "application/json".into(), r#""3s""#.into());
        assert_eq!(parts(response).await, expected);
    }

    #[tokio::test]
    async fn explicit_options_are_used() {
        let json = r#"{"name": "a", "sourceContext": {"fileName": "f"}}"#;
        let api: prost_types::Api = protojsonx_runtime::from_str(json).unwrap();
        let options = EncodeOptions::new().use_proto_names(true);
        let response = ProtoJsonResponse::new(api, options).into_response();
        let (_, _, body) = parts(response).await;
        assert_eq!(body, r#"{"name":"a","source_context":{"file_name":"f"}}"#);
    }

    #[tokio::test]
    async fn an_unencodable_message_is_a_500_with_a_json_error() {
        let far = Timestamp {
            seconds: i64::MAX,
            nanos: 0,
        };
        let (status, content_type, body) = parts(ProtoJsonBody(far).into_response()).await;
        assert_eq!(
            (status, content_type.as_str()),
            (StatusCode::INTERNAL_SERVER_ERROR, "application/json")
        );
        let body: serde_json::Value = serde_json::from_str(&body).unwrap();
        let error = body["error"].as_str().unwrap();
        assert!(
            error.starts_with("cannot encode the response as ProtoJSON: "),
            "{error}"
        );
    }
}
