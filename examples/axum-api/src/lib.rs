//! An axum JSON API whose bodies are ProtoJSON.
//!
//! [`protojsonx_axum::ProtoJsonBody`] is the extractor and the response: it
//! decodes request bodies with protojsonx (a bad body is a `400` whose JSON
//! names the field, line and column; a body that is not JSON a `415`; one
//! past the limit a `413`) and encodes responses as ProtoJSON. `POST
//! /events/serde` shows the other way in: with the generator's `serde`
//! option, plain `axum::Json<T>` speaks ProtoJSON too.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use protojsonx_axum::ProtoJsonBody;
use serde_json::json;

/// Package `event.v1` of the quickstart protos, with serde impls.
pub mod event {
    /// Version 1 of the event schema.
    pub mod v1 {
        include!(concat!(env!("OUT_DIR"), "/event.v1.rs"));
    }
}

use event::v1::MediumEvent;

/// The largest request body accepted, through axum's `DefaultBodyLimit`
/// (which `ProtoJsonBody` honours, as `Json` does).
pub const BODY_LIMIT: usize = 64 * 1024;

/// A JSON error body `{"error": message}`.
fn error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

/// The events stored so far, by id.
type Store = Arc<Mutex<BTreeMap<String, MediumEvent>>>;

/// The API: `POST /events` stores an event (ProtoJSON in and out), `GET
/// /events/{id}` returns one, `POST /events/serde` echoes an event through
/// `axum::Json`.
pub fn app() -> Router {
    Router::new()
        .route("/events", post(create))
        .route("/events/{id}", get(fetch))
        .route("/events/serde", post(echo_serde))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(Store::default())
}

/// Stores the event, giving it an id when it has none.
async fn create(
    State(store): State<Store>,
    ProtoJsonBody(mut event): ProtoJsonBody<MediumEvent>,
) -> Response {
    if event.event_type.is_empty() {
        return error(StatusCode::BAD_REQUEST, "`eventType` is required");
    }
    let mut store = store.lock().unwrap_or_else(|e| e.into_inner());
    if event.id.is_empty() {
        event.id = format!("evt_{}", store.len() + 1);
    }
    store.insert(event.id.clone(), event.clone());
    (StatusCode::CREATED, ProtoJsonBody(event)).into_response()
}

/// The stored event, or 404.
async fn fetch(State(store): State<Store>, Path(id): Path<String>) -> Response {
    let store = store.lock().unwrap_or_else(|e| e.into_inner());
    match store.get(&id) {
        Some(event) => ProtoJsonBody(event.clone()).into_response(),
        None => error(StatusCode::NOT_FOUND, &format!("no event `{id}`")),
    }
}

/// The serde way: `axum::Json` with the generated `serde` impls.
async fn echo_serde(axum::Json(event): axum::Json<MediumEvent>) -> axum::Json<MediumEvent> {
    axum::Json(event)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::extract::Request;
    use axum::http::header;
    use http_body_util::BodyExt;
    use serde_json::Value;
    use tower::ServiceExt;

    /// Sends one request to `app` in-process and returns status and JSON body.
    async fn send(app: &Router, method: &str, uri: &str, body: &str) -> (StatusCode, Value) {
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn events_go_in_and_out_as_protojson() {
        let app = app();
        let body = r#"{"event_type":"login","timestamp":1700000000000,"actor":{"verified":true},"tags":["web"]}"#;
        let (status, created) = send(&app, "POST", "/events", body).await;
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(
            created,
            json!({"id": "evt_1", "timestamp": "1700000000000", "eventType": "login",
                   "actor": {"verified": true}, "tags": ["web"]})
        );
        let (status, fetched) = send(&app, "GET", "/events/evt_1", "").await;
        assert_eq!((status, fetched), (StatusCode::OK, created));
    }

    #[tokio::test]
    async fn a_bad_field_is_a_400_naming_it() {
        let body = "{\"eventType\": \"login\",\n \"actor\": {\"verified\": \"yes\"}}";
        let (status, err) = send(&app(), "POST", "/events", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(err["field"], "actor.verified");
        assert_eq!(
            (err["line"].as_u64(), err["column"].as_u64()),
            (Some(2), Some(24))
        );
        assert!(
            err["error"].as_str().unwrap().contains("expected bool"),
            "{err}"
        );
    }

    #[tokio::test]
    async fn unknown_fields_and_bad_json_are_400s() {
        let (status, err) = send(&app(), "POST", "/events", r#"{"eventTyp":"x"}"#).await;
        assert_eq!(
            (status, err["field"].as_str()),
            (StatusCode::BAD_REQUEST, Some("eventTyp"))
        );
        let (status, err) = send(&app(), "POST", "/events", r#"{"eventType":"#).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(err["field"], "eventType");
    }

    #[tokio::test]
    async fn other_errors_are_json_too() {
        let (status, err) = send(&app(), "GET", "/events/nope", "").await;
        assert_eq!(
            (status, err["error"].as_str()),
            (StatusCode::NOT_FOUND, Some("no event `nope`"))
        );
        let (status, err) = send(&app(), "POST", "/events", r#"{"id":"x"}"#).await;
        assert_eq!(
            (status, err["error"].as_str()),
            (StatusCode::BAD_REQUEST, Some("`eventType` is required"))
        );
        let request = Request::post("/events").body(Body::from("{}")).unwrap();
        let response = app().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    }

    #[tokio::test]
    async fn a_body_past_the_limit_is_a_413() {
        let tags = vec!["t"; BODY_LIMIT / 4];
        let body = json!({"eventType": "login", "tags": tags}).to_string();
        assert!(body.len() > BODY_LIMIT);
        let (status, err) = send(&app(), "POST", "/events", &body).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        assert!(
            err["error"].as_str().unwrap().contains("length limit"),
            "{err}"
        );
    }

    #[tokio::test]
    async fn axum_json_speaks_protojson_with_the_serde_option() {
        let body = r#"{"id":"e","timestamp":"-3","event_type":"x","metadata":{"attempts":2}}"#;
        let (status, echoed) = send(&app(), "POST", "/events/serde", body).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            echoed,
            json!({"id": "e", "timestamp": "-3", "eventType": "x", "metadata": {"attempts": "2"}})
        );
    }
}
