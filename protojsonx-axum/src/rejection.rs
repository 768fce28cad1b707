//! Why a ProtoJSON request body was refused, and the answer that says so.

use std::fmt;

use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Why [`ProtoJsonBody`](crate::ProtoJsonBody) refused a request. As a response it
/// is a status and a JSON body `{"error": "..."}`; a body that does not
/// decode also gets the bare message, the field path, line and column:
///
/// ```json
/// {"error": "expected bool, found string at `actor.verified` (line 2, column 24)",
///  "message": "expected bool, found string", "field": "actor.verified", "line": 2, "column": 24}
/// ```
///
/// `field` is empty when the error is not inside a field (a syntax error
/// before the first key, say). Handlers that want another shape take
/// `Result<ProtoJsonBody<T>, ProtoJsonRejection>` and build their own answer
/// from the accessors.
#[derive(Debug)]
#[non_exhaustive]
pub enum ProtoJsonRejection {
    /// `415 Unsupported Media Type`: the `Content-Type` is missing or not
    /// JSON (`application/json`, `application/*+json`, with any parameters).
    UnsupportedMediaType,
    /// The body could not be read: `413 Payload Too Large` past the body
    /// limit (axum's [`DefaultBodyLimit`](axum::extract::DefaultBodyLimit)),
    /// else `400 Bad Request`.
    Body(BytesRejection),
    /// `400 Bad Request`: the body is not ProtoJSON of the message.
    Decode(protojsonx_runtime::Error),
}

impl ProtoJsonRejection {
    /// The HTTP status of the answer.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Body(rejection) => rejection.status(),
            Self::Decode(_) => StatusCode::BAD_REQUEST,
        }
    }

    /// The text of the answer's `error`, the same as `Display`.
    pub fn body_text(&self) -> String {
        self.to_string()
    }

    /// The decoding error, with its field path, line and column, when the
    /// body was read but is not ProtoJSON of the message.
    pub fn decode_error(&self) -> Option<&protojsonx_runtime::Error> {
        match self {
            Self::Decode(error) => Some(error),
            _ => None,
        }
    }

    /// The answer's JSON body.
    fn body(&self) -> serde_json::Value {
        let Some(error) = self.decode_error() else {
            return json!({ "error": self.body_text() });
        };
        json!({
            "error": error.to_string(),
            "message": error.message(),
            "field": error.path_string(),
            "line": error.line(),
            "column": error.column(),
        })
    }
}

impl fmt::Display for ProtoJsonRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnsupportedMediaType => {
                f.write_str("expected a request with `Content-Type: application/json`")
            }
            Self::Body(rejection) => f.write_str(&rejection.body_text()),
            Self::Decode(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ProtoJsonRejection {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::UnsupportedMediaType => None,
            Self::Body(rejection) => Some(rejection),
            Self::Decode(error) => Some(error),
        }
    }
}

impl IntoResponse for ProtoJsonRejection {
    fn into_response(self) -> Response {
        crate::response::json_error(self.status(), &self.body())
    }
}

impl From<protojsonx_runtime::Error> for ProtoJsonRejection {
    fn from(error: protojsonx_runtime::Error) -> Self {
        Self::Decode(error)
    }
}

impl From<BytesRejection> for ProtoJsonRejection {
    fn from(rejection: BytesRejection) -> Self {
        Self::Body(rejection)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    fn decode_error() -> ProtoJsonRejection {
        let json = "{\"methods\": [\n {\"requestStreaming\": \"yes\"}]}";
        protojsonx_runtime::from_str::<prost_types::Api>(json)
            .unwrap_err()
            .into()
    }

    #[test]
    fn a_decode_error_answers_400_with_message_field_line_and_column() {
        let rejection = decode_error();
        assert_eq!(rejection.status(), StatusCode::BAD_REQUEST);
        assert!(rejection.source().is_some());
        let expected = json!({
            "error": "expected bool, found string at `methods[0].requestStreaming` (line 2, column 23)",
            "message": "expected bool, found string",
            "field": "methods[0].requestStreaming",
            "line": 2,
            "column": 23,
        });
        assert_eq!(rejection.body(), expected);
        assert_eq!(rejection.body_text(), expected["error"]);
    }

    #[test]
    fn a_wrong_content_type_answers_415() {
        let rejection = ProtoJsonRejection::UnsupportedMediaType;
        assert_eq!(rejection.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert!(rejection.decode_error().is_none());
        assert_eq!(
            rejection.body(),
            json!({"error": "expected a request with `Content-Type: application/json`"})
        );
    }
}
