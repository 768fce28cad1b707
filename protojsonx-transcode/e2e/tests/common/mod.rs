//! The tests' shop service (proto/shop/v1/shop.proto): a tonic
//! server that answers from its requests alone, and an HTTP client.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::pin::Pin;

use futures_util::Stream;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use tonic::{Request, Response, Status};

pub mod shop {
    pub mod v1 {
        include!(concat!(env!("OUT_DIR"), "/shop.v1.rs"));
        include!(concat!(env!("OUT_DIR"), "/shop.v1.protojsonx.rs"));
    }
}

use shop::v1::shop_server::{Shop, ShopServer};
use shop::v1::*;

/// The descriptor set of shop.proto with its imports.
pub const DESCRIPTORS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/shop.binpb"));

/// Answers every method from its request: what a test sends is what it
/// gets back, so it sees what the router made of the HTTP request.
#[derive(Debug, Default, Clone)]
pub struct Server;

type Items = Pin<Box<dyn Stream<Item = Result<Item, Status>> + Send>>;

#[tonic::async_trait]
impl Shop for Server {
    async fn get_item(&self, request: Request<GetItemRequest>) -> Result<Response<Item>, Status> {
        let name = request.into_inner().name;
        if name.ends_with("/missing") {
            return Err(Status::not_found(format!("{name} does not exist")));
        }
        Ok(Response::new(Item {
            title: format!("title of {name}"),
            name,
            stock: 9_007_199_254_740_993,
            tags: vec!["a".into(), "b".into()],
            kind: Kind::Book as i32,
            ..Default::default()
        }))
    }

    async fn list_items(
        &self,
        request: Request<ListItemsRequest>,
    ) -> Result<Response<ListItemsResponse>, Status> {
        let mut response = Response::new(ListItemsResponse {
            request: Some(request.get_ref().clone()),
        });
        if let Some(value) = request.metadata().get("x-trace") {
            response.metadata_mut().insert("x-trace", value.clone());
        }
        Ok(response)
    }

    async fn create_item(
        &self,
        request: Request<CreateItemRequest>,
    ) -> Result<Response<Item>, Status> {
        let request = request.into_inner();
        let mut item = request.item.unwrap_or_default();
        item.name = format!("{}/items/{}", request.parent, request.request_id);
        Ok(Response::new(item))
    }

    async fn update_item(
        &self,
        request: Request<UpdateItemRequest>,
    ) -> Result<Response<Item>, Status> {
        let request = request.into_inner();
        let mut item = request.item.unwrap_or_default();
        if let Some(mask) = request.update_mask {
            item.tags.extend(mask.paths);
        }
        Ok(Response::new(item))
    }

    async fn archive_item(
        &self,
        request: Request<ArchiveItemRequest>,
    ) -> Result<Response<Item>, Status> {
        let request = request.into_inner();
        Ok(Response::new(Item {
            name: request.name,
            title: request.reason,
            archived: true,
            ..Default::default()
        }))
    }

    async fn delete_item(&self, _: Request<GetItemRequest>) -> Result<Response<()>, Status> {
        Ok(Response::new(()))
    }

    async fn item_name(&self, request: Request<GetItemRequest>) -> Result<Response<Item>, Status> {
        self.get_item(request).await
    }

    async fn item_tags(&self, request: Request<GetItemRequest>) -> Result<Response<Item>, Status> {
        self.get_item(request).await
    }

    async fn count_items(
        &self,
        request: Request<GetItemRequest>,
    ) -> Result<Response<Item>, Status> {
        let mut item = self.get_item(request).await?.into_inner();
        item.tags.clear();
        Ok(Response::new(item))
    }

    type WatchItemsStream = Items;

    async fn watch_items(
        &self,
        request: Request<WatchItemsRequest>,
    ) -> Result<Response<Items>, Status> {
        let request = request.into_inner();
        if request.count < 0 {
            return Err(Status::invalid_argument("count is negative"));
        }
        let parent = request.parent.clone();
        let mut items: Vec<Result<Item, Status>> = (0..request.count)
            .map(|i| {
                Ok(Item {
                    name: format!("{parent}/items/{i}"),
                    stock: i64::from(i),
                    ..Default::default()
                })
            })
            .collect();
        if request.fail_code != 0 {
            items.push(Err(Status::new(
                request.fail_code.into(),
                "the watch failed",
            )));
        }
        Ok(Response::new(Box::pin(futures_util::stream::iter(items))))
    }

    async fn fail(&self, request: Request<FailRequest>) -> Result<Response<Item>, Status> {
        let request = request.into_inner();
        let detail = prost_types::Any {
            type_url: "type.googleapis.com/shop.v1.Item".into(),
            value: prost::Message::encode_to_vec(&Item {
                name: "detail".into(),
                ..Default::default()
            }),
        };
        let status = protojsonx_transcode::types::rpc::Status {
            code: request.code,
            message: request.message.clone(),
            details: vec![detail],
        };
        Err(Status::with_details(
            request.code.into(),
            request.message,
            prost::Message::encode_to_vec(&status).into(),
        ))
    }

    async fn upload_items(
        &self,
        _: Request<tonic::Streaming<Item>>,
    ) -> Result<Response<Item>, Status> {
        Err(Status::unimplemented("not over HTTP"))
    }
}

/// Serves the shop over gRPC on a loopback port of its own.
pub async fn grpc_server() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let incoming = tokio_stream::wrappers::TcpListenerStream::new(listener);
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(ShopServer::new(Server))
            .serve_with_incoming(incoming),
    );
    addr
}

/// The shop's generated routes, calling the test service in process.
pub fn generated(
    options: protojsonx_transcode::router::Options,
) -> protojsonx_transcode::router::Router {
    shop::v1::register_protojsonx_types();
    shop::v1::shop_routes(Server, options)
}

/// The gateway in front of the gRPC server at `upstream`.
pub fn gateway_to(
    upstream: SocketAddr,
    options: protojsonx_transcode::router::Options,
) -> protojsonx_transcode::router::Router {
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{upstream}"))
        .unwrap()
        .connect_lazy();
    let pool = protojsonx_transcode::gateway::pool(DESCRIPTORS).unwrap();
    protojsonx_transcode::gateway::router(&pool, channel, options).unwrap()
}

/// The gateway in front of the test service, served over gRPC on loopback.
pub async fn gateway(
    options: protojsonx_transcode::router::Options,
) -> protojsonx_transcode::router::Router {
    gateway_to(grpc_server().await, options)
}

/// Serves `router` over HTTP/1.1 on a loopback port of its own.
pub async fn http_server(router: axum::Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    addr
}

/// One HTTP exchange as a test sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    pub status: u16,
    pub content_type: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// Sends one request with a real HTTP client.
pub async fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Exchange {
    let client = Client::builder(TokioExecutor::new()).build_http::<Full<bytes::Bytes>>();
    let mut request = http::Request::builder()
        .method(method)
        .uri(format!("http://{addr}{path}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request
        .body(Full::new(bytes::Bytes::from(body.to_owned())))
        .unwrap();
    let response = client.request(request).await.unwrap();
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let headers = response
        .headers()
        .iter()
        .filter(|(name, _)| name.as_str().starts_with("grpc-metadata-") || *name == "allow")
        .map(|(name, value)| (name.to_string(), value.to_str().unwrap().to_owned()))
        .collect();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    Exchange {
        status,
        content_type,
        headers,
        body: String::from_utf8(body.to_vec()).unwrap(),
    }
}

/// A request of the corpus: method, path and query, headers, body.
pub type Sent = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
);

/// The requests both ways of serving the shop must answer alike: every
/// kind of rule, query parameter and error.
pub const CORPUS: &[Sent] = &[
    // Path variables: one segment each, many segments, escapes.
    ("GET", "/v1/shelves/1/items/2", &[], ""),
    ("GET", "/v1/shelves/a%2Fb/items/%E2%9C%93", &[], ""),
    ("GET", "/v1/items/x/y%2Fz/w", &[], ""),
    ("GET", "/v1/shelves/1/items/missing", &[], ""),
    // Query parameters of every JSON form.
    (
        "GET",
        "/v1/shelves/1/items?pageSize=10&tags=a&tags=b+c&kind=GAME&since=2024-01-02T03:04:05Z\
         &max_age=1.5s&readMask=title,stock&minPrice=2.5&inStock=true&token=_-8&afterId=18446744073709551615\
         &ratio=NaN&deep=false&filter.text=x&filter.and.text=y&kinds=1&kinds=BOOK",
        &[("grpc-metadata-x-trace", "t1")],
        "",
    ),
    ("GET", "/v1/shelves/1/items?page_size=abc", &[], ""),
    ("GET", "/v1/shelves/1/items?pagesize=1", &[], ""),
    ("GET", "/v1/shelves/1/items?kind=PLANT", &[], ""),
    ("GET", "/v1/shelves/1/items?filter=x", &[], ""),
    ("GET", "/v1/shelves/1/items?deep=yes", &[], ""),
    (
        "GET",
        "/v1/shelves/1/items?page_size=1&page_size=2",
        &[],
        "",
    ),
    ("GET", "/v1/shelves/1/items?parent=other", &[], ""),
    // Bodies: a field, the whole request, errors.
    (
        "POST",
        "/v1/shelves/7/items?requestId=r1",
        &[("content-type", "application/json")],
        r#"{"title": "Dune", "stock": "3", "kind": "BOOK"}"#,
    ),
    (
        "POST",
        "/v1/shelves/7/items",
        &[("content-type", "application/json")],
        "{\"title\": \"Dune\",\n \"stock\": true}",
    ),
    (
        "POST",
        "/v1/shelves/7/items",
        &[("content-type", "text/plain")],
        r#"{"title": "Dune"}"#,
    ),
    (
        "PATCH",
        "/v1/shelves/7/items/9?updateMask=title,tags",
        &[("content-type", "application/json; charset=utf-8")],
        r#"{"title": "New", "name": "ignored"}"#,
    ),
    (
        "POST",
        "/v1/shelves/7/items/9:archive",
        &[("content-type", "application/json")],
        r#"{"reason": "old"}"#,
    ),
    (
        "POST",
        "/v1/shelves/7/items/9:archive?reason=x",
        &[("content-type", "application/json")],
        r#"{"reason": "old"}"#,
    ),
    (
        "POST",
        "/v1/shelves/7/items/9:archive",
        &[("content-type", "application/json")],
        r#"{"reason": "old", "extra": 1}"#,
    ),
    ("DELETE", "/v1/shelves/7/items/9", &[], ""),
    // response_body, custom methods.
    ("GET", "/v1/shelves/7/items/9:name", &[], ""),
    ("COUNT", "/v1/shelves/7/items/9", &[], ""),
    // Server streaming in each framing, with and without a failure.
    ("GET", "/v1/shelves/3/items:watch?count=2", &[], ""),
    (
        "GET",
        "/v1/shelves/3/items:watch?count=2",
        &[("accept", "application/json")],
        "",
    ),
    (
        "GET",
        "/v1/shelves/3/items:watch?count=0",
        &[("accept", "application/json")],
        "",
    ),
    (
        "GET",
        "/v1/shelves/3/items:watch?count=2&failCode=10",
        &[("accept", "text/event-stream")],
        "",
    ),
    (
        "GET",
        "/v1/shelves/3/items:watch?count=1&failCode=10",
        &[],
        "",
    ),
    ("GET", "/v1/shelves/3/items:watch?count=-1", &[], ""),
    // Statuses with details, routing errors.
    (
        "POST",
        "/v1/fail",
        &[("content-type", "application/json")],
        r#"{"code": 9, "message": "the shelf is locked"}"#,
    ),
    ("GET", "/v1/nowhere", &[], ""),
    ("PUT", "/v1/shelves/1/items/2", &[], ""),
    (
        "POST",
        "/v1/items:upload",
        &[("content-type", "application/json")],
        "{}",
    ),
];

/// The corpus's exchanges with the router at `addr`, written out one after
/// another for a golden file.
pub async fn run_corpus(addr: SocketAddr) -> String {
    let mut out = String::new();
    for (method, path, headers, body) in CORPUS {
        let exchange = send(addr, method, path, headers, body).await;
        out.push_str(&format!("> {method} {path}\n"));
        for (name, value) in *headers {
            out.push_str(&format!("> {name}: {value}\n"));
        }
        if !body.is_empty() {
            out.push_str(&format!("> {body}\n"));
        }
        out.push_str(&format!(
            "< {} {}\n",
            exchange.status, exchange.content_type
        ));
        for (name, value) in &exchange.headers {
            out.push_str(&format!("< {name}: {value}\n"));
        }
        out.push_str(&format!(
            "< {}\n\n",
            exchange.body.trim_end_matches('\n').replace('\n', "\n< ")
        ));
    }
    out
}

/// Compares `made` with the golden file `name` under tests/golden/, or
/// writes it there with PROTOJSONX_BLESS=1.
pub fn golden(name: &str, made: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("PROTOJSONX_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, made).unwrap();
        return;
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        kept == made,
        "{} differs from what the router answered; review and bless with PROTOJSONX_BLESS=1:\n{made}",
        path.display()
    );
}
