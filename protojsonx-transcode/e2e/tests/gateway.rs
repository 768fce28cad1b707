//! The gateway in front of a tonic gRPC server, over loopback sockets with
//! a real HTTP client: every request of the shared corpus, answered as the
//! golden file says.

mod common;

use common::*;

async fn gateway() -> std::net::SocketAddr {
    let upstream = grpc_server().await;
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{upstream}"))
        .unwrap()
        .connect_lazy();
    let pool = protojsonx_transcode::gateway::pool(DESCRIPTORS).unwrap();
    let router = protojsonx_transcode::gateway::router(
        &pool,
        channel,
        protojsonx_transcode::router::Options::new(),
    )
    .unwrap();
    http_server(router.into_axum()).await
}

#[tokio::test]
async fn the_gateway_answers_the_corpus() {
    let addr = gateway().await;
    golden("exchanges.txt", &run_corpus(addr).await);
}

#[tokio::test]
async fn an_unreachable_upstream_is_unavailable() {
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let channel = tonic::transport::Endpoint::from_shared(format!("http://127.0.0.1:{port}"))
        .unwrap()
        .connect_lazy();
    let pool = protojsonx_transcode::gateway::pool(DESCRIPTORS).unwrap();
    let router = protojsonx_transcode::gateway::router(
        &pool,
        channel,
        protojsonx_transcode::router::Options::new(),
    )
    .unwrap();
    let addr = http_server(router.into_axum()).await;
    let exchange = send(addr, "GET", "/v1/shelves/1/items/2", &[], "").await;
    assert_eq!(exchange.status, 503, "{exchange:?}");
    assert!(
        exchange.body.starts_with(r#"{"code":14,"message":""#),
        "{exchange:?}"
    );
}
