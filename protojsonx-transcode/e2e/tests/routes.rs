//! The generated routes of the shop service, calling the tonic service in
//! process, over loopback sockets with a real HTTP client: every request
//! of the shared corpus answered byte for byte as the gateway answers it
//! in front of the same service (the one golden file both tests read).

mod common;

use common::*;

#[tokio::test]
async fn the_generated_routes_answer_the_corpus_as_the_gateway_does() {
    let router = generated(protojsonx_transcode::router::Options::new());
    let addr = http_server(router.into_axum()).await;
    golden("exchanges.txt", &run_corpus(addr).await);
}
