//! The library served both ways over loopback, with a real HTTP client: the
//! generated routes (in process, beside tonic's gRPC routes on one port) and
//! the gateway in front of a tonic gRPC server answer one sequence of
//! requests identically, every rule of library.proto exercised.

use std::net::SocketAddr;

use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use protojsonx_library_example::library::library_service_client::LibraryServiceClient;
use protojsonx_library_example::library::library_service_routes;
use protojsonx_library_example::library::library_service_server::LibraryServiceServer;
use protojsonx_library_example::library::{GetShelfRequest, Shelf};
use protojsonx_library_example::{DESCRIPTORS, Library};
use protojsonx_transcode::{gateway, router::Options};

/// Method, path and query, JSON body ("" for none).
const REQUESTS: &[(&str, &str, &str)] = &[
    ("POST", "/v1/shelves", r#"{"theme": "Sci-fi"}"#),
    ("POST", "/v1/shelves", r#"{"theme": "Poetry"}"#),
    ("GET", "/v1/shelves/1", ""),
    ("GET", "/v1/shelves?pageSize=1", ""),
    ("GET", "/v1/shelves?pageSize=1&pageToken=shelves%2F1", ""),
    (
        "POST",
        "/v1/shelves/1/books",
        r#"{"title": "Dune", "author": "Herbert"}"#,
    ),
    (
        "POST",
        "/v1/shelves/1/books",
        r#"{"title": "Solaris", "author": "Lem"}"#,
    ),
    (
        "POST",
        "/v1/shelves/2/books",
        r#"{"title": "Odes", "author": "Keats"}"#,
    ),
    ("GET", "/v1/shelves/1/books", ""),
    ("GET", "/v1/shelves/1/books/3", ""),
    (
        "PATCH",
        "/v1/shelves/1/books/3?updateMask=read,title",
        r#"{"title": "Dune Messiah", "read": true}"#,
    ),
    (
        "PATCH",
        "/v1/shelves/1/books/3?updateMask=isbn",
        r#"{"title": "x"}"#,
    ),
    (
        "POST",
        "/v1/shelves/1/books/4:move",
        r#"{"otherShelfName": "shelves/2"}"#,
    ),
    (
        "POST",
        "/v1/shelves/2:merge",
        r#"{"otherShelf": "shelves/1"}"#,
    ),
    ("GET", "/v1/shelves/2/books", ""),
    ("DELETE", "/v1/shelves/2/books/5", ""),
    ("DELETE", "/v1/shelves/2/books/5", ""),
    ("GET", "/v1/shelves/1", ""),
    ("GET", "/v1/shelves/1/books?pageSize=x", ""),
    ("POST", "/v1/shelves", r#"{"theme": 1}"#),
    ("PUT", "/v1/shelves/2", ""),
    ("GET", "/v2/shelves", ""),
    ("DELETE", "/v1/shelves/2", ""),
    ("GET", "/v1/shelves", ""),
];

async fn serve(app: axum::Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

/// A library over gRPC and HTTP/JSON (the generated routes) on one port.
async fn both_ways() -> SocketAddr {
    let library = Library::default();
    let grpc =
        tonic::service::Routes::new(LibraryServiceServer::new(library.clone())).into_axum_router();
    serve(grpc.fallback_service(library_service_routes(library, Options::new()))).await
}

/// The gateway in front of a library served over gRPC only.
async fn gateway_in_front() -> SocketAddr {
    let grpc = tonic::service::Routes::new(LibraryServiceServer::new(Library::default()))
        .into_axum_router();
    let upstream = serve(grpc).await;
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{upstream}"))
        .unwrap()
        .connect_lazy();
    let router = gateway::router(
        &gateway::pool(DESCRIPTORS).unwrap(),
        channel,
        Options::new(),
    )
    .unwrap();
    serve(router.into_axum()).await
}

/// Every request's exchange, one per line: request, status, body.
async fn transcript(addr: SocketAddr) -> Vec<String> {
    let client = Client::builder(TokioExecutor::new()).build_http::<Full<bytes::Bytes>>();
    let mut out = Vec::new();
    for (method, path, body) in REQUESTS {
        let mut request = http::Request::builder()
            .method(*method)
            .uri(format!("http://{addr}{path}"));
        if !body.is_empty() {
            request = request.header("content-type", "application/json");
        }
        let request = request.body(Full::new(bytes::Bytes::from(*body))).unwrap();
        let response = client.request(request).await.unwrap();
        let status = response.status().as_u16();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        out.push(format!(
            "{method} {path} -> {status} {}",
            String::from_utf8_lossy(&body)
        ));
    }
    out
}

#[tokio::test]
async fn generated_routes_and_the_gateway_answer_alike() {
    let generated = transcript(both_ways().await).await;
    let gateway = transcript(gateway_in_front().await).await;
    assert_eq!(generated, gateway);
    let expect = [
        r#"POST /v1/shelves -> 200 {"name":"shelves/1","theme":"Sci-fi"}"#,
        r#"GET /v1/shelves?pageSize=1 -> 200 {"shelves":[{"name":"shelves/1","theme":"Sci-fi"}],"nextPageToken":"shelves/1"}"#,
        r#"PATCH /v1/shelves/1/books/3?updateMask=read,title -> 200 {"name":"shelves/1/books/3","author":"Herbert","title":"Dune Messiah","read":true}"#,
        r#"PATCH /v1/shelves/1/books/3?updateMask=isbn -> 400 {"code":3,"message":"cannot update `isbn`"}"#,
        r#"DELETE /v1/shelves/2/books/5 -> 200 {}"#,
        r#"DELETE /v1/shelves/2/books/5 -> 404 {"code":5,"message":"shelves/2/books/5 does not exist"}"#,
        r#"GET /v1/shelves/1/books?pageSize=x -> 400 {"code":3,"message":"invalid query parameter `pageSize`: invalid value for int32: invalid number"}"#,
        r#"POST /v1/shelves -> 400 {"code":3,"message":"invalid request body: expected string, found number at `shelf.theme` (line 1, column 11)"}"#,
        r#"GET /v2/shelves -> 404 {"code":5,"message":"no method is bound to GET /v2/shelves"}"#,
    ];
    for line in expect {
        assert!(
            generated.iter().any(|l| l == line),
            "{line}\nnot in\n{}",
            generated.join("\n")
        );
    }
}

/// gRPC and HTTP/JSON on one port serve one library.
#[tokio::test]
async fn grpc_sees_what_http_made() {
    let addr = both_ways().await;
    let shelves = transcript(addr).await;
    assert!(shelves[0].ends_with(r#"{"name":"shelves/1","theme":"Sci-fi"}"#));
    let mut client = LibraryServiceClient::connect(format!("http://{addr}"))
        .await
        .unwrap();
    let shelf = client
        .get_shelf(GetShelfRequest {
            name: "shelves/2".into(),
        })
        .await;
    // The transcript deleted shelves/2 and merged shelves/1 into it: none is left.
    assert_eq!(shelf.unwrap_err().code(), tonic::Code::NotFound);
    let made = client
        .create_shelf(protojsonx_library_example::library::CreateShelfRequest {
            shelf: Some(Shelf {
                theme: "History".into(),
                ..Default::default()
            }),
        })
        .await
        .unwrap()
        .into_inner();
    let exchange = http_get(addr, &format!("/v1/{}", made.name)).await;
    assert_eq!(
        exchange,
        format!(r#"{{"name":"{}","theme":"History"}}"#, made.name)
    );
}

async fn http_get(addr: SocketAddr, path: &str) -> String {
    let client = Client::builder(TokioExecutor::new()).build_http::<Full<bytes::Bytes>>();
    let response = client
        .get(format!("http://{addr}{path}").parse().unwrap())
        .await
        .unwrap();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8(body.to_vec()).unwrap()
}
