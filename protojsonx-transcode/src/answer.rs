//! HTTP responses: a method's JSON answer, a server stream framed as the
//! client's `Accept` asks, and errors as `google.rpc.Status` bodies.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use axum::body::Body;
use bytes::Bytes;
use futures_util::{Stream, StreamExt, stream};
use http::header::{ALLOW, CONTENT_TYPE, HeaderValue};
use http::{HeaderMap, Response, StatusCode};
use protojsonx_runtime::EncodeOptions;
use tonic::Code;
use tonic::metadata::MetadataMap;

use crate::status::{http_status, rpc_status};
use crate::types::rpc;

/// Writes a `google.rpc.Status` as JSON with the router's encode options:
/// through the runtime's registry for generated routes, through the
/// descriptor pool for the gateway (each resolves the `Any` details it knows).
pub type StatusJson = Arc<dyn Fn(&rpc::Status, &EncodeOptions) -> Vec<u8> + Send + Sync>;

/// Writes a status with the generated `google.rpc.Status`, its details'
/// `Any`s through the encode options' registry (the global one unless they
/// name another); a status whose details do not resolve is written without
/// them rather than not at all.
pub fn generated_status_json(status: &rpc::Status, options: &EncodeOptions) -> Vec<u8> {
    options
        .to_vec(status)
        .unwrap_or_else(|_| status_without_details(status, options))
}

/// `status` written without its details, when they cannot be written.
pub(crate) fn status_without_details(status: &rpc::Status, options: &EncodeOptions) -> Vec<u8> {
    let bare = rpc::Status {
        details: Vec::new(),
        ..status.clone()
    };
    options
        .to_vec(&bare)
        .expect("a status without details has only a number and a string")
}

/// How a server stream's messages are framed in the response body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// `application/x-ndjson`: one message per line. The default.
    Ndjson,
    /// `application/json`: one JSON array of the messages.
    Array,
    /// `text/event-stream`: one server-sent event per message.
    Sse,
}

impl Framing {
    /// The framing the request's `Accept` header asks for: the first of
    /// `text/event-stream`, `application/json` and `application/x-ndjson` it
    /// names, NDJSON when it names none of them.
    pub fn of(headers: &HeaderMap) -> Framing {
        let accept = headers
            .get_all(http::header::ACCEPT)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','));
        for media in accept {
            let media = media.split(';').next().unwrap_or("").trim();
            if media.eq_ignore_ascii_case("text/event-stream") {
                return Framing::Sse;
            }
            if media.eq_ignore_ascii_case("application/json") {
                return Framing::Array;
            }
            if media.eq_ignore_ascii_case("application/x-ndjson") {
                return Framing::Ndjson;
            }
        }
        Framing::Ndjson
    }

    fn content_type(self) -> &'static str {
        match self {
            Framing::Ndjson => "application/x-ndjson",
            Framing::Array => "application/json",
            Framing::Sse => "text/event-stream",
        }
    }
}

/// A `200 OK` with `json` as its body.
pub(crate) fn message(json: Vec<u8>, metadata: &MetadataMap) -> Response<Body> {
    let mut response = json_response(StatusCode::OK, json);
    forward_metadata(metadata, response.headers_mut());
    response
}

/// A server stream's response. The stream's first item is awaited before
/// the status line is written, so that a stream that fails at once answers
/// with its status's HTTP status; later failures end the body with an error
/// item (`{"error":{...}}`, or an `error` event).
pub(crate) async fn stream(
    mut items: stream::BoxStream<'static, Result<Vec<u8>, tonic::Status>>,
    metadata: &MetadataMap,
    framing: Framing,
    status_json: StatusJson,
    options: EncodeOptions,
) -> Response<Body> {
    let first = match items.next().await {
        Some(Err(status)) => return error(&status, &status_json, &options),
        first => first,
    };
    let body = Framed {
        first: Some(first),
        items,
        frames: Frames {
            framing,
            count: 0,
            status_json,
            options,
        },
        done: false,
    };
    let mut response = Response::new(Body::from_stream(body));
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static(framing.content_type()),
    );
    forward_metadata(metadata, response.headers_mut());
    response
}

/// A server stream's body: each item framed as it comes, then the
/// framing's end; nothing after a failure, and the items are never polled
/// after their end (streams may panic then).
struct Framed {
    /// The first item, awaited before the response began (`None` for a
    /// stream without items), until it is written.
    first: Option<Option<Result<Vec<u8>, tonic::Status>>>,
    items: stream::BoxStream<'static, Result<Vec<u8>, tonic::Status>>,
    frames: Frames,
    /// Whether the end, or a failure, was written.
    done: bool,
}

impl Stream for Framed {
    type Item = Result<Bytes, Infallible>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        let item = match this.first.take() {
            Some(first) => first,
            None => ready!(this.items.poll_next_unpin(cx)),
        };
        this.done = matches!(item, None | Some(Err(_)));
        Poll::Ready(Some(Ok(this.frames.frame(item))))
    }
}

/// The framing of one stream as it is written.
struct Frames {
    framing: Framing,
    count: usize,
    status_json: StatusJson,
    options: EncodeOptions,
}

impl Frames {
    /// The bytes of one item: a message, a failure (which ends the stream),
    /// or the end (`None`). A message's JSON is framed in place, not copied.
    fn frame(&mut self, item: Option<Result<Vec<u8>, tonic::Status>>) -> Bytes {
        match item {
            Some(Ok(json)) => Bytes::from(self.message(json)),
            Some(Err(status)) => {
                let status = (self.status_json)(&rpc_status(&status), &self.options);
                let mut out = match self.framing {
                    Framing::Sse => [b"event: error\ndata: ".as_slice(), &status, b"\n\n"].concat(),
                    _ => self.message([b"{\"error\":".as_slice(), &status, b"}"].concat()),
                };
                self.end(&mut out);
                Bytes::from(out)
            }
            None => {
                let mut out = Vec::new();
                self.end(&mut out);
                Bytes::from(out)
            }
        }
    }

    /// `json` framed as one message of the stream.
    fn message(&mut self, mut json: Vec<u8>) -> Vec<u8> {
        match self.framing {
            Framing::Ndjson => json.push(b'\n'),
            Framing::Array => json.insert(0, if self.count == 0 { b'[' } else { b',' }),
            Framing::Sse => {
                json.splice(0..0, *b"data: ");
                json.extend_from_slice(b"\n\n");
            }
        }
        self.count += 1;
        json
    }

    fn end(&mut self, out: &mut Vec<u8>) {
        if self.framing == Framing::Array {
            out.extend_from_slice(if self.count == 0 { b"[]" } else { b"]" });
        }
    }
}

/// The answer to a failed call: the status's HTTP status and its
/// `google.rpc.Status` as JSON.
pub(crate) fn error(
    status: &tonic::Status,
    status_json: &StatusJson,
    options: &EncodeOptions,
) -> Response<Body> {
    let mut response = json_response(
        http_status(status.code()),
        status_json(&rpc_status(status), options),
    );
    forward_metadata(status.metadata(), response.headers_mut());
    response
}

/// An error the router makes itself, with an HTTP status of its own where
/// the code's would say less (405, 413, 414, 415).
pub(crate) fn refusal(
    http: StatusCode,
    code: Code,
    message: String,
    status_json: &StatusJson,
    options: &EncodeOptions,
) -> Response<Body> {
    let status = rpc::Status {
        code: code as i32,
        message,
        details: Vec::new(),
    };
    json_response(http, status_json(&status, options))
}

/// A `405 Method Not Allowed` naming the methods the path has.
pub(crate) fn method_not_allowed(
    method: &str,
    path: &str,
    allowed: &[&str],
    status_json: &StatusJson,
    options: &EncodeOptions,
) -> Response<Body> {
    let message = format!(
        "{path} does not accept {method}; it accepts {}",
        allowed.join(", ")
    );
    let mut response = refusal(
        StatusCode::METHOD_NOT_ALLOWED,
        Code::Unimplemented,
        message,
        status_json,
        options,
    );
    if let Ok(value) = HeaderValue::from_str(&allowed.join(", ")) {
        response.headers_mut().insert(ALLOW, value);
    }
    response
}

fn json_response(status: StatusCode, json: Vec<u8>) -> Response<Body> {
    let mut response = Response::new(Body::from(json));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// Headers of the gRPC exchange's own HTTP/2 response, which tonic hands
/// over as metadata but are not the method's.
const HTTP_ONLY: [&str; 4] = ["content-type", "date", "server", "content-length"];

/// Response metadata as `grpc-metadata-<key>` headers, as grpc-gateway
/// writes them (binary `-bin` entries and gRPC's own are left out).
fn forward_metadata(metadata: &MetadataMap, headers: &mut HeaderMap) {
    for entry in metadata.iter() {
        if let tonic::metadata::KeyAndValueRef::Ascii(key, value) = entry {
            let key = key.as_str();
            if key.starts_with("grpc-") || HTTP_ONLY.contains(&key) {
                continue;
            }
            let name = format!("grpc-metadata-{key}");
            if let (Ok(name), Ok(value)) = (
                http::HeaderName::from_bytes(name.as_bytes()),
                HeaderValue::from_bytes(value.as_encoded_bytes()),
            ) {
                headers.append(name, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(value: &str) -> Framing {
        let mut headers = HeaderMap::new();
        headers.insert(http::header::ACCEPT, HeaderValue::from_str(value).unwrap());
        Framing::of(&headers)
    }

    #[test]
    fn accept_chooses_the_framing() {
        assert_eq!(Framing::of(&HeaderMap::new()), Framing::Ndjson);
        assert_eq!(accept("*/*"), Framing::Ndjson);
        assert_eq!(accept("text/event-stream"), Framing::Sse);
        assert_eq!(accept("application/json; charset=utf-8"), Framing::Array);
        assert_eq!(
            accept("text/html, Application/X-NDJSON;q=0.9"),
            Framing::Ndjson
        );
        assert_eq!(accept("text/plain, application/json"), Framing::Array);
    }

    fn status_json() -> StatusJson {
        Arc::new(generated_status_json)
    }

    async fn body_of(
        framing: Framing,
        items: Vec<Result<Vec<u8>, tonic::Status>>,
    ) -> (StatusCode, String) {
        let response = stream(
            stream::iter(items).boxed(),
            &MetadataMap::new(),
            framing,
            status_json(),
            EncodeOptions::new(),
        )
        .await;
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, String::from_utf8(bytes.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn streams_are_framed_and_end_with_their_error() {
        let ok = |s: &str| Ok(s.as_bytes().to_vec());
        let failed = || Err(tonic::Status::aborted("gone"));
        let items = || vec![ok("{\"a\":1}"), ok("{}"), failed()];
        let error = r#"{"code":10,"message":"gone"}"#;
        assert_eq!(
            body_of(Framing::Ndjson, items()).await.1,
            format!("{{\"a\":1}}\n{{}}\n{{\"error\":{error}}}\n")
        );
        assert_eq!(
            body_of(Framing::Array, items()).await.1,
            format!("[{{\"a\":1}},{{}},{{\"error\":{error}}}]")
        );
        assert_eq!(
            body_of(Framing::Sse, items()).await.1,
            format!("data: {{\"a\":1}}\n\ndata: {{}}\n\nevent: error\ndata: {error}\n\n")
        );
        assert_eq!(body_of(Framing::Array, vec![]).await.1, "[]");
        assert_eq!(body_of(Framing::Array, vec![ok("1")]).await.1, "[1]");
        assert_eq!(body_of(Framing::Ndjson, vec![]).await.1, "");
        // A stream that fails before its first message answers with the status.
        let (status, body) = body_of(Framing::Ndjson, vec![failed(), ok("{}")]).await;
        assert_eq!((status, body.as_str()), (StatusCode::CONFLICT, error));
    }
}
