//! The transcoding benchmark's service and its servers, over one service
//! implementation ([`Service`]):
//!
//! - [`routes`]: the generated `catalog_routes` (`http_routes`), calling the
//!   tonic service trait in process;
//! - [`handwritten`]: one axum handler per route, written as a user would
//!   without transcoding: path and query taken apart by hand, bodies by
//!   `protojsonx_axum::ProtoJsonBody`, streams framed as NDJSON by hand;
//! - [`gateway`]: the gateway, forwarding binary protobuf to a tonic server;
//! - [`grpc`]: that tonic server, also called directly by the load loop.
//!
//! [`CASES`] are the requests every way answers alike (`tests/same_answers.rs`
//! checks that they do, byte for byte).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, put};
use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use protojsonx_axum::ProtoJsonBody;
use protojsonx_runtime::ProtoJson;
use tonic::{Code, Request, Status};

/// The benchmark's messages, tonic's client and server, their ProtoJSON and
/// `catalog_routes`.
#[allow(missing_docs)]
pub mod catalog {
    include!(concat!(env!("OUT_DIR"), "/bench.transcode.v1.rs"));
    include!(concat!(
        env!("OUT_DIR"),
        "/bench.transcode.v1.protojsonx.rs"
    ));
}

use catalog::catalog_server::{Catalog, CatalogServer};
use catalog::{GetItemRequest, Item, Kind, ListItemsRequest, Page, PutPageRequest, View};

/// The descriptor set of catalog.proto with its imports: what the gateway reads.
pub const DESCRIPTORS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/catalog.binpb"));

/// Calls of the service's methods in this process: the requests a server
/// answered (a stream counts once).
pub static CALLS: AtomicU64 = AtomicU64::new(0);

/// Items in the large case's page: about 30 KB of JSON.
pub const PAGE_ITEMS: usize = 240;

/// Items in the streaming case.
pub const STREAM_ITEMS: i32 = 100;

/// One item of about 100 bytes of JSON.
pub fn item(name: String) -> Item {
    Item {
        name,
        title: "Solaris".into(),
        stock: 1200,
        price: 12.5,
        available: true,
        tags: vec!["fiction".into()],
        kind: Kind::Book as i32,
    }
}

/// The large case's page: [`PAGE_ITEMS`] items.
pub fn page() -> Page {
    Page {
        name: String::new(),
        items: (0..PAGE_ITEMS)
            .map(|i| item(format!("shelves/{}/items/{i}", i % 7 + 1)))
            .collect(),
        next_page_token: "pages/2".into(),
    }
}

/// One benchmark case: an HTTP request and the gRPC call it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// `GetItem`: a path, a query parameter, a ~100 B answer.
    UnarySmall,
    /// `PutPage`: a ~30 KB body, answered as it came.
    UnaryLarge,
    /// `ListItems`: [`STREAM_ITEMS`] items as NDJSON (gRPC: a server stream).
    Stream,
}

/// Every case, in the order they are run and reported.
pub const CASES: [Case; 3] = [Case::UnarySmall, Case::UnaryLarge, Case::Stream];

impl Case {
    /// The case's name in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Case::UnarySmall => "unary-small",
            Case::UnaryLarge => "unary-large",
            Case::Stream => "stream",
        }
    }

    /// The HTTP method.
    pub fn method(self) -> http::Method {
        match self {
            Case::UnaryLarge => http::Method::PUT,
            _ => http::Method::GET,
        }
    }

    /// The path and query.
    pub fn path(self) -> &'static str {
        match self {
            Case::UnarySmall => "/v1/shelves/1/items/42?view=VIEW_FULL",
            Case::UnaryLarge => "/v1/pages/1",
            Case::Stream => "/v1/shelves/1/items?count=100",
        }
    }

    /// The JSON body (empty for none).
    pub fn body(self) -> Vec<u8> {
        match self {
            Case::UnaryLarge => page().to_json_vec().expect("the page encodes"),
            _ => Vec::new(),
        }
    }

    /// The small case's gRPC request.
    pub fn get_item() -> GetItemRequest {
        GetItemRequest {
            name: "shelves/1/items/42".into(),
            view: View::Full as i32,
        }
    }

    /// The large case's gRPC request.
    pub fn put_page() -> PutPageRequest {
        PutPageRequest {
            name: "pages/1".into(),
            page: Some(page()),
        }
    }

    /// The streaming case's gRPC request.
    pub fn list_items() -> ListItemsRequest {
        ListItemsRequest {
            parent: "shelves/1".into(),
            count: STREAM_ITEMS,
        }
    }
}

/// The service: answers from a kept item and from its requests, the same
/// work whichever way it is called.
#[derive(Debug, Clone)]
pub struct Service {
    item: Arc<Item>,
}

impl Default for Service {
    fn default() -> Self {
        Service {
            item: Arc::new(item(String::new())),
        }
    }
}

type Items = Pin<Box<dyn Stream<Item = Result<Item, Status>> + Send>>;

#[tonic::async_trait]
impl Catalog for Service {
    async fn get_item(
        &self,
        request: Request<GetItemRequest>,
    ) -> Result<tonic::Response<Item>, Status> {
        CALLS.fetch_add(1, Relaxed);
        let request = request.into_inner();
        let mut item = Item {
            name: request.name,
            ..(*self.item).clone()
        };
        if request.view == View::Basic as i32 {
            item = Item {
                name: item.name,
                title: item.title,
                ..Default::default()
            };
        }
        Ok(tonic::Response::new(item))
    }

    async fn put_page(
        &self,
        request: Request<PutPageRequest>,
    ) -> Result<tonic::Response<Page>, Status> {
        CALLS.fetch_add(1, Relaxed);
        let request = request.into_inner();
        let mut page = request.page.unwrap_or_default();
        page.name = request.name;
        Ok(tonic::Response::new(page))
    }

    type ListItemsStream = Items;

    async fn list_items(
        &self,
        request: Request<ListItemsRequest>,
    ) -> Result<tonic::Response<Items>, Status> {
        CALLS.fetch_add(1, Relaxed);
        let request = request.into_inner();
        if request.count < 0 {
            return Err(Status::invalid_argument("count is negative"));
        }
        let item = self.item.clone();
        let parent = request.parent;
        let items = (0..request.count).map(move |i| {
            Ok(Item {
                name: format!("{parent}/items/{i}"),
                ..(*item).clone()
            })
        });
        Ok(tonic::Response::new(Box::pin(futures_util::stream::iter(
            items,
        ))))
    }
}

/// The generated routes over `service`.
pub fn routes(service: Service) -> axum::Router {
    catalog::catalog_routes(service, protojsonx_transcode::router::Options::new()).into_axum()
}

/// The gateway in front of the gRPC server at `upstream` (`http://host:port`).
pub fn gateway(upstream: &str) -> Result<axum::Router, Box<dyn std::error::Error>> {
    let channel = tonic::transport::Endpoint::from_shared(upstream.to_owned())?.connect_lazy();
    let pool = protojsonx_transcode::gateway::pool(DESCRIPTORS)?;
    let router = protojsonx_transcode::gateway::router(
        &pool,
        channel,
        protojsonx_transcode::router::Options::new(),
    )?;
    Ok(router.into_axum())
}

/// Serves `app` (HTTP/1.1) on `listener` until the process ends, with
/// `TCP_NODELAY` on every connection as a production server sets it (without
/// it, a stream's small writes wait for the client's delayed ACKs).
pub async fn serve_http(
    listener: tokio::net::TcpListener,
    app: axum::Router,
) -> std::io::Result<()> {
    use axum::serve::ListenerExt;
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app).await
}

/// Serves `service` over gRPC (tonic's server) on `listener`, with
/// `TCP_NODELAY` as tonic's own `serve` sets it.
pub async fn grpc(
    listener: tokio::net::TcpListener,
    service: Service,
) -> Result<(), tonic::transport::Error> {
    tonic::transport::Server::builder()
        .add_service(CatalogServer::new(service))
        .serve_with_incoming(
            tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true)),
        )
        .await
}

/// Binds a loopback port of the system's choosing.
pub async fn bind() -> std::io::Result<(tokio::net::TcpListener, SocketAddr)> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    Ok((listener, addr))
}

/// The hand-written handlers: each route's path and query taken apart by
/// hand, the body by `ProtoJsonBody`, the service trait called, its answer
/// written by `ProtoJsonBody` (or, for the stream, as NDJSON by hand).
pub fn handwritten(service: Service) -> axum::Router {
    axum::Router::new()
        .route("/v1/shelves/{shelf}/items/{item}", get(get_item))
        .route("/v1/pages/{page}", put(put_page))
        .route("/v1/shelves/{shelf}/items", get(list_items))
        .with_state(service)
}

async fn get_item(
    State(service): State<Service>,
    Path((shelf, item)): Path<(String, String)>,
    RawQuery(query): RawQuery,
) -> Response {
    let mut request = GetItemRequest {
        name: format!("shelves/{shelf}/items/{item}"),
        view: 0,
    };
    for (key, value) in form_urlencoded::parse(query.as_deref().unwrap_or("").as_bytes()) {
        match &*key {
            "view" => match View::from_str_name(&value) {
                Some(view) => request.view = view as i32,
                None => return bad_request(&format!("unknown view `{value}`")),
            },
            _ => return bad_request(&format!("unknown parameter `{key}`")),
        }
    }
    match service.get_item(Request::new(request)).await {
        Ok(answer) => ProtoJsonBody(answer.into_inner()).into_response(),
        Err(status) => status_response(&status),
    }
}

async fn put_page(
    State(service): State<Service>,
    Path(page): Path<String>,
    ProtoJsonBody(body): ProtoJsonBody<Page>,
) -> Response {
    let request = PutPageRequest {
        name: format!("pages/{page}"),
        page: Some(body),
    };
    match service.put_page(Request::new(request)).await {
        Ok(answer) => ProtoJsonBody(answer.into_inner()).into_response(),
        Err(status) => status_response(&status),
    }
}

async fn list_items(
    State(service): State<Service>,
    Path(shelf): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let mut request = ListItemsRequest {
        parent: format!("shelves/{shelf}"),
        count: 0,
    };
    for (key, value) in form_urlencoded::parse(query.as_deref().unwrap_or("").as_bytes()) {
        match &*key {
            "count" => match value.parse() {
                Ok(count) => request.count = count,
                Err(_) => return bad_request(&format!("count `{value}` is not a number")),
            },
            _ => return bad_request(&format!("unknown parameter `{key}`")),
        }
    }
    let items = match service.list_items(Request::new(request)).await {
        Ok(answer) => answer.into_inner(),
        Err(status) => return status_response(&status),
    };
    // One line per item; a failure is the last line, as `{"error": status}`.
    let lines = items.map(|item| {
        let line = match item {
            Ok(item) => item.to_json_vec().map_err(|e| e.to_string()),
            Err(status) => Err(status.message().to_owned()),
        };
        let mut line = line.unwrap_or_else(|message| {
            format!("{{\"error\":{}}}", status_json(Code::Internal, &message)).into_bytes()
        });
        line.push(b'\n');
        Ok::<_, Infallible>(Bytes::from(line))
    });
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(lines),
    )
        .into_response()
}

fn bad_request(message: &str) -> Response {
    status_response(&Status::invalid_argument(message))
}

/// A status as `google.rpc.Status` JSON, with the HTTP status of
/// `google/rpc/code.proto`.
fn status_response(status: &Status) -> Response {
    let http = match status.code() {
        Code::Ok => StatusCode::OK,
        Code::InvalidArgument | Code::FailedPrecondition | Code::OutOfRange => {
            StatusCode::BAD_REQUEST
        }
        Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        Code::PermissionDenied => StatusCode::FORBIDDEN,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::AlreadyExists | Code::Aborted => StatusCode::CONFLICT,
        Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        Code::Cancelled => StatusCode::from_u16(499).unwrap_or(StatusCode::BAD_REQUEST),
        Code::Unimplemented => StatusCode::NOT_IMPLEMENTED,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    (
        http,
        [(header::CONTENT_TYPE, "application/json")],
        status_json(status.code(), status.message()),
    )
        .into_response()
}

fn status_json(code: Code, message: &str) -> String {
    let message = serde_json::to_string(message).unwrap_or_else(|_| "\"\"".into());
    format!("{{\"code\":{},\"message\":{message}}}", code as i32)
}
