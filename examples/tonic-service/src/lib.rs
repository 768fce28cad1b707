//! A tonic gRPC service whose messages also go out as ProtoJSON.
//!
//! One axum router serves both: the gRPC service that tonic generated, and
//! an HTTP/JSON transcoding of the same method (`GET /v1/items/{sku}` and
//! `POST /json/inventory.v1.Inventory/GetItem`) that calls the service
//! implementation and writes its messages, and its errors as a
//! `google.rpc.Status`-shaped body, in ProtoJSON.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use protojsonx_runtime::ProtoJson;
use serde_json::json;
use tonic::{Code, Request, Status};

/// Package `inventory.v1`: tonic-prost-build's structs and server, and
/// protojsonx's `json_only` code beside them.
pub mod inventory {
    /// Version 1 of the inventory API.
    pub mod v1 {
        include!(concat!(env!("OUT_DIR"), "/inventory.v1.rs"));
        include!(concat!(env!("OUT_DIR"), "/inventory.v1.protojsonx.rs"));
    }
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
        request: Request<GetItemRequest>,
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

/// gRPC and its HTTP/JSON transcoding, over one service instance.
pub fn app() -> Router {
    let service = Arc::new(InventoryService::default());
    let grpc = tonic::service::Routes::new(InventoryServer::from_arc(service.clone()));
    let json = Router::new()
        .route("/v1/items/{sku}", get(get_item_by_path))
        .route("/json/inventory.v1.Inventory/GetItem", post(get_item_json))
        .with_state(service);
    grpc.into_axum_router().merge(json)
}

/// `GET /v1/items/{sku}`: the path parameter is the request's `sku`.
async fn get_item_by_path(
    State(service): State<Arc<InventoryService>>,
    Path(sku): Path<String>,
) -> Response {
    reply(service.get_item(Request::new(GetItemRequest { sku })).await)
}

/// `POST /json/inventory.v1.Inventory/GetItem`: the body is the request in ProtoJSON.
async fn get_item_json(State(service): State<Arc<InventoryService>>, body: Bytes) -> Response {
    match GetItemRequest::from_json(&body) {
        Ok(request) => reply(service.get_item(Request::new(request)).await),
        Err(e) => status_response(&Status::invalid_argument(e.to_string())),
    }
}

/// The method's result as ProtoJSON: the message, or the status as an error.
fn reply<M: ProtoJson>(result: Result<tonic::Response<M>, Status>) -> Response {
    let message = match result {
        Ok(response) => response.into_inner(),
        Err(status) => return status_response(&status),
    };
    match message.to_json_vec() {
        Ok(json) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Err(e) => status_response(&Status::internal(e.to_string())),
    }
}

/// A gRPC status as HTTP: the status code grpc-gateway maps it to, and a
/// `google.rpc.Status`-shaped body `{"code": 5, "message": "..."}`.
fn status_response(status: &Status) -> Response {
    let http = match status.code() {
        Code::InvalidArgument => StatusCode::BAD_REQUEST,
        Code::NotFound => StatusCode::NOT_FOUND,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    let body = json!({"code": status.code() as i32, "message": status.message()});
    (http, axum::Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request as HttpRequest;
    use http_body_util::BodyExt;
    use prost::Message;
    use serde_json::Value;
    use tower::ServiceExt;

    async fn json_call(request: HttpRequest<Body>) -> (StatusCode, Value) {
        let response = app().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn the_message_goes_out_as_protojson() {
        let expected = json!({"sku": "sku-1", "stock": "42", "updatedAt": "2023-11-14T22:13:20Z"});
        let get = HttpRequest::get("/v1/items/sku-1")
            .body(Body::empty())
            .unwrap();
        assert_eq!(json_call(get).await, (StatusCode::OK, expected.clone()));
        let post = HttpRequest::post("/json/inventory.v1.Inventory/GetItem")
            .body(Body::from(r#"{"sku":"sku-1"}"#))
            .unwrap();
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
        let post = HttpRequest::post("/json/inventory.v1.Inventory/GetItem")
            .body(Body::from(r#"{"sku":7}"#))
            .unwrap();
        let (status, body) = json_call(post).await;
        assert_eq!(
            (status, body["code"].as_i64()),
            (StatusCode::BAD_REQUEST, Some(3))
        );
        assert!(
            body["message"].as_str().unwrap().contains("`sku`"),
            "{body}"
        );
    }

    /// The same router answers real gRPC (a framed protobuf request, in-process).
    #[tokio::test]
    async fn grpc_answers_with_the_same_item() {
        let message = GetItemRequest {
            sku: "sku-1".into(),
        }
        .encode_to_vec();
        let mut frame = vec![0];
        frame.extend_from_slice(&(message.len() as u32).to_be_bytes());
        frame.extend_from_slice(&message);
        let request = HttpRequest::post("/inventory.v1.Inventory/GetItem")
            .header(header::CONTENT_TYPE, "application/grpc")
            .header("te", "trailers")
            .body(Body::from(frame))
            .unwrap();
        let response = app().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let collected = response.into_body().collect().await.unwrap();
        let grpc_status = collected
            .trailers()
            .and_then(|t| t.get("grpc-status"))
            .cloned();
        assert_eq!(grpc_status.as_ref().map(|v| v.as_bytes()), Some(&b"0"[..]));
        let bytes = collected.to_bytes();
        let item = Item::decode(&bytes[5..]).unwrap();
        assert_eq!(
            item.to_json().unwrap(),
            r#"{"sku":"sku-1","stock":"42","updatedAt":"2023-11-14T22:13:20Z"}"#
        );
    }
}
