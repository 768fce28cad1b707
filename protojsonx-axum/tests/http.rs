//! Requests through a router: in-process (`oneshot`), and over loopback TCP
//! with hyper's HTTP/1 client.

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Extension, Request};
use axum::http::{StatusCode, header};
use axum::routing::post;
use http_body_util::BodyExt;
use prost_types::value::Kind;
use prost_types::{Api, Duration, Struct, Value};
use protojsonx_axum::{ProtoJsonBody, ProtoJsonConfig, ProtoJsonResponse};
use protojsonx_runtime::{DecodeOptions, EncodeOptions};
use serde_json::json;
use tower::ServiceExt;

/// Adds `"seen": true` to a JSON object.
async fn stamp(
    ProtoJsonBody(mut object): ProtoJsonBody<Struct>,
) -> (StatusCode, ProtoJsonBody<Struct>) {
    let seen = Value {
        kind: Some(Kind::BoolValue(true)),
    };
    object.fields.insert("seen".into(), seen);
    (StatusCode::CREATED, ProtoJsonBody(object))
}

/// Echoes an `Api` with the router's encode options.
async fn api(
    config: ProtoJsonConfig,
    ProtoJsonBody(api): ProtoJsonBody<Api>,
) -> ProtoJsonResponse<Api> {
    config.respond(api)
}

/// Says whether there was a body.
async fn optional(body: Option<ProtoJsonBody<Duration>>) -> String {
    body.map_or("none".into(), |d| format!("{}s", d.seconds))
}

fn app() -> Router {
    Router::new()
        .route("/stamp", post(stamp))
        .route("/api", post(api))
        .route("/optional", post(optional))
        .route("/small", post(stamp).layer(DefaultBodyLimit::max(16)))
        .route("/unlimited", post(stamp).layer(DefaultBodyLimit::disable()))
}

/// A POST of `body` to `uri` with the content type given, if any.
fn post_json(uri: &str, content_type: Option<&str>, body: impl Into<Body>) -> Request {
    let mut request = Request::post(uri);
    if let Some(content_type) = content_type {
        request = request.header(header::CONTENT_TYPE, content_type);
    }
    request.body(body.into()).unwrap()
}

/// Status, content type and body of `app`'s answer to `request`.
async fn send(app: Router, request: Request) -> (StatusCode, String, Vec<u8>) {
    let response = app.oneshot(request).await.unwrap();
    let status = response.status();
    let content_type = response.headers().get(header::CONTENT_TYPE);
    let content_type = content_type.map_or("", |v| v.to_str().unwrap()).to_owned();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, content_type, body.to_vec())
}

/// Status and JSON body of `app`'s answer, which must say `application/json`.
async fn send_json(app: Router, request: Request) -> (StatusCode, serde_json::Value) {
    let (status, content_type, body) = send(app, request).await;
    assert_eq!(content_type, "application/json");
    (status, serde_json::from_slice(&body).unwrap())
}

const JSON: Option<&str> = Some("application/json");

#[tokio::test]
async fn a_message_goes_in_and_out_as_protojson() {
    let request = post_json("/stamp", JSON, r#"{"a": [1, "x"]}"#);
    let (status, content_type, body) = send(app(), request).await;
    assert_eq!(
        (status, content_type.as_str()),
        (StatusCode::CREATED, "application/json")
    );
    assert_eq!(body, br#"{"a":[1,"x"],"seen":true}"#);
}

#[tokio::test]
async fn json_content_types_with_parameters_and_suffixes_are_accepted() {
    for content_type in [
        "application/json; charset=utf-8",
        "application/merge-patch+json",
    ] {
        let request = post_json("/stamp", Some(content_type), "{}");
        let (status, _) = send_json(app(), request).await;
        assert_eq!(status, StatusCode::CREATED, "{content_type}");
    }
}

#[tokio::test]
async fn other_content_types_are_415_with_a_json_error() {
    for content_type in [Some("text/plain"), Some("application/x-protobuf"), None] {
        let (status, body) = send_json(app(), post_json("/stamp", content_type, "{}")).await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        let error = json!({"error": "expected a request with `Content-Type: application/json`"});
        assert_eq!(body, error);
    }
}

#[tokio::test]
async fn a_bad_body_is_a_400_naming_the_field_line_and_column() {
    let body = "{\"name\": \"a\",\n \"methods\": [{\"requestStreaming\": \"yes\"}]}";
    let (status, error) = send_json(app(), post_json("/api", JSON, body)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let expected = json!({
        "error": "expected bool, found string at `methods[0].requestStreaming` (line 2, column 35)",
        "message": "expected bool, found string",
        "field": "methods[0].requestStreaming",
        "line": 2,
        "column": 35,
    });
    assert_eq!(error, expected);
}

#[tokio::test]
async fn unknown_fields_and_bad_json_are_400s() {
    let (status, error) = send_json(app(), post_json("/api", JSON, r#"{"nam": "a"}"#)).await;
    assert_eq!(
        (status, &error["field"]),
        (StatusCode::BAD_REQUEST, &json!("nam"))
    );
    let (status, error) = send_json(app(), post_json("/api", JSON, "[1]")).await;
    assert_eq!(
        (status, &error["field"]),
        (StatusCode::BAD_REQUEST, &json!(""))
    );
    assert_eq!((&error["line"], &error["column"]), (&json!(1), &json!(1)));
}

#[tokio::test]
async fn the_configured_options_decode_and_encode() {
    let config = ProtoJsonConfig::new()
        .with_decode_options(DecodeOptions::new().ignore_unknown_fields(true))
        .with_encode_options(EncodeOptions::new().use_proto_names(true));
    let app = app().layer(Extension(config));
    let body = r#"{"name": "a", "sourceContext": {"fileName": "f"}, "unknown": 1}"#;
    let (status, _, answer) = send(app, post_json("/api", JSON, body)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        answer,
        br#"{"name":"a","source_context":{"file_name":"f"}}"#
    );
}

#[tokio::test]
async fn a_body_past_axums_default_limit_is_a_413() {
    let big = format!(r#"{{"a": "{}"}}"#, "x".repeat(2 << 20));
    let (status, error) = send_json(app(), post_json("/stamp", JSON, big.clone())).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let error = error["error"].as_str().unwrap();
    assert!(error.contains("length limit exceeded"), "{error}");
    // DefaultBodyLimit::disable() lifts it, as for axum's own extractors.
    let (status, _, _) = send(app(), post_json("/unlimited", JSON, big)).await;
    assert_eq!(status, StatusCode::CREATED);
}

#[tokio::test]
async fn a_route_limit_set_with_default_body_limit_applies() {
    let sixteen = r#"{"a": "1234567"}"#;
    assert_eq!(sixteen.len(), 16);
    let (status, _, _) = send(app(), post_json("/small", JSON, sixteen)).await;
    assert_eq!(status, StatusCode::CREATED);
    let seventeen = r#"{"a": "12345678"}"#;
    let (status, _) = send_json(app(), post_json("/small", JSON, seventeen)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn an_optional_body_is_none_without_a_content_type() {
    let (_, _, body) = send(app(), post_json("/optional", None, "")).await;
    assert_eq!(body, b"none");
    let (_, _, body) = send(app(), post_json("/optional", JSON, r#""5s""#)).await;
    assert_eq!(body, b"5s");
    let (status, _) = send_json(app(), post_json("/optional", Some("text/plain"), "")).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

/// One HTTP/1.1 request to `addr` with hyper's client: status, content type, body.
async fn http1(addr: std::net::SocketAddr, body: &'static str) -> (StatusCode, String, Vec<u8>) {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let io = hyper_util::rt::TokioIo::new(stream);
    let (mut sender, connection) = hyper::client::conn::http1::handshake(io).await.unwrap();
    tokio::spawn(connection);
    let request = hyper::Request::post("/api")
        .header(header::HOST, addr.to_string())
        .header(header::CONTENT_TYPE, "application/json; charset=utf-8")
        .body(http_body_util::Full::new(bytes::Bytes::from_static(
            body.as_bytes(),
        )))
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    let status = response.status();
    let content_type = response.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_owned();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, content_type, body.to_vec())
}

#[tokio::test]
async fn a_real_http_client_over_tcp_gets_protojson_and_errors() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app()).await.unwrap() });
    let good = r#"{"name": "a", "version": "v1"}"#;
    let answer = http1(addr, good).await;
    let expected = (
        StatusCode::OK,
        "application/json".into(),
        br#"{"name":"a","version":"v1"}"#.to_vec(),
    );
    assert_eq!(answer, expected);
    let (status, _, body) = http1(addr, r#"{"version": 1}"#).await;
    let error: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        (status, &error["field"]),
        (StatusCode::BAD_REQUEST, &json!("version"))
    );
}
