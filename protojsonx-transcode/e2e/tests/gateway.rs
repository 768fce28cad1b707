//! The gateway in front of a tonic gRPC server, over loopback sockets with
//! a real HTTP client: every request of the shared corpus, answered as the
//! golden file says.

mod common;

use common::*;
use protojsonx_transcode::router::Options;

#[tokio::test]
async fn the_gateway_answers_the_corpus() {
    let addr = http_server(gateway(Options::new()).await.into_axum()).await;
    golden("exchanges.txt", &run_corpus(addr).await);
}

#[tokio::test]
async fn an_unreachable_upstream_is_unavailable() {
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let upstream = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let addr = http_server(gateway_to(upstream, Options::new()).into_axum()).await;
    let exchange = send(addr, "GET", "/v1/shelves/1/items/2", &[], "").await;
    assert_eq!(exchange.status, 503, "{exchange:?}");
    assert!(
        exchange.body.starts_with(r#"{"code":14,"message":""#),
        "{exchange:?}"
    );
}
