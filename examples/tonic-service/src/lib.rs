//! A tonic gRPC service whose messages also go out as ProtoJSON.
//!
//! One axum router serves three ways into one service implementation:
//!
//! - gRPC with protobuf binary messages, tonic's usual codec;
//! - gRPC with ProtoJSON messages (`protojsonx_tonic::ProtoJsonCodec`) on
//!   the same method paths, for requests labelled `application/grpc+json`
//!   (grpc-go clients calling with `grpc.CallContentSubtype("json")`), its
//!   answers labelled the same way;
//! - an HTTP/JSON transcoding of the method (`GET /v1/items/{sku}` and
//!   `POST /json/inventory.v1.Inventory/GetItem`) through
//!   `protojsonx_axum::ProtoJsonBody`, with errors as a `google.rpc.Status`-shaped body.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use protojsonx_axum::{ProtoJsonBody, ProtoJsonRejection};
use protojsonx_tonic::JsonContentTypeLayer;
use serde_json::json;
use tonic::{Code, Status};
use tower::ServiceExt;

/// Package `inventory.v1`: tonic-prost-build's structs and server, and
/// protojsonx's `json_only` code beside them.
pub mod inventory {
    /// Version 1 of the inventory API.
    pub mod v1 {
        include!(concat!(env!("OUT_DIR"), "/inventory.v1.rs"));
        include!(concat!(env!("OUT_DIR"), "/inventory.v1.protojsonx.rs"));
    }
}

/// The same gRPC server generated with protojsonx-tonic's codec: ProtoJSON
/// messages, the types of [`inventory::v1`].
pub mod grpc_json {
    include!(concat!(env!("OUT_DIR"), "/json/inventory.v1.rs"));
}

use inventory::v1::inventory_server::{Inventory, InventoryServer};
use inventory::v1::{GetItemRequest, Item};

/// The service implementation: a fixed stock list.
#[derive(Debug)]
pub struct InventoryService {
    items: BTreeMap<String, Item>,
}

impl Default for InventoryService {
    fn default() -> Self {
        let item = Item {
            sku: "sku-1".into(),
            stock: 42,
            updated_at: Some(prost_types::Timestamp {
                seconds: 1_700_000_000,
                nanos: 0,
            }),
        };
        Self {
            items: [(item.sku.clone(), item)].into(),
        }
    }
}

#[tonic::async_trait]
impl Inventory for InventoryService {
    async fn get_item(
        &self,
        request: tonic::Request<GetItemRequest>,
    ) -> Result<tonic::Response<Item>, Status> {
        let sku = request.into_inner().sku;
        if sku.is_empty() {
            return Err(Status::invalid_argument("`sku` is required"));
        }
        self.items
            .get(&sku)
            .cloned()
            .map(tonic::Response::new)
            .ok_or_else(|| Status::not_found(format!("no item `{sku}`")))
    }
}

/// The ProtoJSON gRPC server runs the same implementation.
#[tonic::async_trait]
impl grpc_json::inventory_server::Inventory for InventoryService {
    async fn get_item(
        &self,
        request: tonic::Request<GetItemRequest>,
    ) -> Result<tonic::Response<Item>, Status> {
        Inventory::get_item(self, request).await
    }
}

/// gRPC (binary and ProtoJSON) and its HTTP/JSON transcoding, over one
/// service instance.
pub fn app() -> Router {
    let service = Arc::new(InventoryService::default());
    let json_grpc = grpc_json::inventory_server::InventoryServer::from_arc(service.clone());
    let json_grpc = tonic::service::Routes::new(json_grpc)
        .into_axum_router()
        .layer(JsonContentTypeLayer::new());
    let grpc = tonic::service::Routes::new(InventoryServer::from_arc(service.clone()))
        .into_axum_router()
        .layer(middleware::from_fn_with_state(
            json_grpc,
            by_content_subtype,
        ));
    let json = Router::new()
        .route("/v1/items/{sku}", get(get_item_by_path))
        .route("/json/inventory.v1.Inventory/GetItem", post(get_item_json))
        .with_state(service);
    grpc.merge(json)
}

/// Hands gRPC requests labelled `application/grpc+json` to the ProtoJSON
/// server; the others go on to tonic's binary one. (tonic itself ignores a
/// request's content type: the codec is fixed by the generated code.)
async fn by_content_subtype(
    State(json_grpc): State<Router>,
    request: Request,
    next: Next,
) -> Response {
    if is_grpc_json(request.headers()) {
        return json_grpc.oneshot(request).await.into_response();
    }
    next.run(request).await
}

fn is_grpc_json(headers: &HeaderMap) -> bool {
    let content_type = headers.get(header::CONTENT_TYPE);
    content_type.is_some_and(|v| v.as_bytes().starts_with(b"application/grpc+json"))
}

/// `GET /v1/items/{sku}`: the path parameter is the request's `sku`.
async fn get_item_by_path(
    State(service): State<Arc<InventoryService>>,
    Path(sku): Path<String>,
) -> Response {
    reply(
        service
            .get_item(tonic::Request::new(GetItemRequest { sku }))
            .await,
    )
}

/// `POST /json/inventory.v1.Inventory/GetItem`: the body is the request in
/// ProtoJSON; a refused body is answered as an `INVALID_ARGUMENT` status.
async fn get_item_json(
    State(service): State<Arc<InventoryService>>,
    body: Result<ProtoJsonBody<GetItemRequest>, ProtoJsonRejection>,
) -> Response {
    match body {
        Ok(ProtoJsonBody(request)) => reply(service.get_item(tonic::Request::new(request)).await),
        Err(rejection) => {
            let status = Status::invalid_argument(rejection.body_text());
            (rejection.status(), status_body(&status)).into_response()
        }
    }
}

/// The method's result as ProtoJSON: the message, or the status as an error.
fn reply<M: protojsonx_runtime::ProtoJson>(result: Result<tonic::Response<M>, Status>) -> Response {
    match result {
        Ok(response) => ProtoJsonBody(response.into_inner()).into_response(),
        Err(status) => status_response(&status),
    }
}

/// A gRPC status as HTTP: the status code grpc-gateway maps it to, and a
/// `google.rpc.Status`-shaped body.
fn status_response(status: &Status) -> Response {
    let http = match status.code() {
        Code::InvalidArgument => StatusCode::BAD_REQUEST,
        Code::NotFound => StatusCode::NOT_FOUND,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    (http, status_body(status)).into_response()
}

/// `{"code": 5, "message": "..."}`.
fn status_body(status: &Status) -> axum::Json<serde_json::Value> {
    axum::Json(json!({"code": status.code() as i32, "message": status.message()}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::{Body, Bytes};
    use axum::http::Request as HttpRequest;
    use http_body_util::BodyExt;
    use prost::Message;
    use protojsonx_runtime::ProtoJson as _;
    use serde_json::Value;

    async fn json_call(request: HttpRequest<Body>) -> (StatusCode, Value) {
        let response = app().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    fn post_json(body: &'static str) -> HttpRequest<Body> {
        HttpRequest::post("/json/inventory.v1.Inventory/GetItem")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body))
            .unwrap()
    }

    #[tokio::test]
    async fn the_message_goes_out_as_protojson() {
        let expected = json!({"sku": "sku-1", "stock": "42", "updatedAt": "2023-11-14T22:13:20Z"});
        let get = HttpRequest::get("/v1/items/sku-1")
            .body(Body::empty())
            .unwrap();
        assert_eq!(json_call(get).await, (StatusCode::OK, expected.clone()));
        let post = post_json(r#"{"sku":"sku-1"}"#);
        assert_eq!(json_call(post).await, (StatusCode::OK, expected));
    }

    #[tokio::test]
    async fn statuses_become_http_errors() {
        let get = HttpRequest::get("/v1/items/nope")
            .body(Body::empty())
            .unwrap();
        assert_eq!(
            json_call(get).await,
            (
                StatusCode::NOT_FOUND,
                json!({"code": 5, "message": "no item `nope`"})
            )
        );
        let (status, body) = json_call(post_json(r#"{"sku":7}"#)).await;
        assert_eq!(
            (status, body["code"].as_i64()),
            (StatusCode::BAD_REQUEST, Some(3))
        );
        let message = body["message"].as_str().unwrap();
        assert!(message.contains("at `sku` (line 1, column 8)"), "{body}");
        let text = HttpRequest::post("/json/inventory.v1.Inventory/GetItem")
            .body(Body::from(r#"{"sku":"sku-1"}"#))
            .unwrap();
        let (status, body) = json_call(text).await;
        assert_eq!(
            (status, body["code"].as_i64()),
            (StatusCode::UNSUPPORTED_MEDIA_TYPE, Some(3))
        );
    }

    /// A gRPC request of one length-prefixed frame holding `message`.
    fn grpc_request(content_type: &'static str, message: &[u8]) -> HttpRequest<Body> {
        let mut frame = vec![0];
        frame.extend_from_slice(&(message.len() as u32).to_be_bytes());
        frame.extend_from_slice(message);
        HttpRequest::post("/inventory.v1.Inventory/GetItem")
            .header(header::CONTENT_TYPE, content_type)
            .header("te", "trailers")
            .body(Body::from(frame))
            .unwrap()
    }

    /// The answer's content type, its status (from the trailers, or the
    /// headers of a trailers-only answer) and the message of its frame.
    async fn grpc_call(request: HttpRequest<Body>) -> (String, Status, Bytes) {
        let response = app().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let headers = response.headers().clone();
        let content_type = headers[header::CONTENT_TYPE].to_str().unwrap().to_owned();
        let collected = response.into_body().collect().await.unwrap();
        let fields = collected.trailers().unwrap_or(&headers);
        let status = Status::from_header_map(fields).unwrap();
        let bytes = collected.to_bytes();
        (content_type, status, bytes.slice(bytes.len().min(5)..))
    }

    /// The same router answers real gRPC (a framed protobuf request, in-process).
    #[tokio::test]
    async fn grpc_answers_with_the_same_item() {
        let message = GetItemRequest {
            sku: "sku-1".into(),
        }
        .encode_to_vec();
        let (content_type, status, message) =
            grpc_call(grpc_request("application/grpc", &message)).await;
        assert_eq!(content_type, "application/grpc");
        assert_eq!(status.code(), Code::Ok);
        let item = Item::decode(message).unwrap();
        assert_eq!(
            item.to_json().unwrap(),
            r#"{"sku":"sku-1","stock":"42","updatedAt":"2023-11-14T22:13:20Z"}"#
        );
    }

    /// `application/grpc+json` reaches the ProtoJSON codec: JSON frames both ways.
    #[tokio::test]
    async fn grpc_json_clients_get_protojson_frames() {
        let request = grpc_request("application/grpc+json", br#"{"sku": "sku-1"}"#);
        let (content_type, status, message) = grpc_call(request).await;
        assert_eq!(content_type, "application/grpc+json");
        assert_eq!(status.code(), Code::Ok);
        let expected = r#"{"sku":"sku-1","stock":"42","updatedAt":"2023-11-14T22:13:20Z"}"#;
        assert_eq!(message, expected.as_bytes());
        let bad = grpc_request("application/grpc+json", br#"{"sku": 1}"#);
        let (_, status, _) = grpc_call(bad).await;
        assert_eq!(status.code(), Code::InvalidArgument);
        let message = status.message();
        assert!(
            message.ends_with("at `sku` (line 1, column 9)"),
            "{message}"
        );
    }
}
