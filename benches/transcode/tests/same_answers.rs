//! The benchmark compares like with like: the generated routes, the
//! hand-written handlers and the gateway answer every case with the same
//! bytes, and tonic's gRPC answer is the same message. Nothing here is timed.

use bytes::Bytes;
use futures_util::StreamExt;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use protojsonx_bench_transcode::catalog::catalog_client::CatalogClient;
use protojsonx_bench_transcode::catalog::{Item, Page};
use protojsonx_bench_transcode::{CASES, Case, STREAM_ITEMS, Service, bind, serve_http};
use protojsonx_runtime::ProtoJson;

async fn start(app: axum::Router) -> String {
    let (listener, addr) = bind().await.unwrap();
    tokio::spawn(serve_http(listener, app));
    format!("http://{addr}")
}

async fn answer(base: &str, method: http::Method, path: &str, body: Vec<u8>) -> (u16, Bytes) {
    let client = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let mut request = http::Request::builder()
        .method(method)
        .uri(format!("{base}{path}"));
    if !body.is_empty() {
        request = request.header("content-type", "application/json");
    }
    let response = client
        .request(request.body(Full::new(Bytes::from(body))).unwrap())
        .await
        .unwrap();
    let status = response.status().as_u16();
    (
        status,
        response.into_body().collect().await.unwrap().to_bytes(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_way_answers_alike() {
    let (listener, upstream) = bind().await.unwrap();
    tokio::spawn(protojsonx_bench_transcode::grpc(
        listener,
        Service::default(),
    ));
    let upstream = format!("http://{upstream}");
    let bases = [
        start(protojsonx_bench_transcode::routes(Service::default())).await,
        start(protojsonx_bench_transcode::handwritten(Service::default())).await,
        start(protojsonx_bench_transcode::gateway(&upstream).unwrap()).await,
    ];
    let mut grpc = CatalogClient::connect(upstream).await.unwrap();
    for case in CASES {
        let mut answers = Vec::new();
        for base in &bases {
            answers.push(answer(base, case.method(), case.path(), case.body()).await);
        }
        for other in &answers[1..] {
            assert_eq!(other, &answers[0], "{}", case.name());
        }
        let (status, json) = &answers[0];
        assert_eq!(*status, 200, "{}", case.name());
        match case {
            Case::UnarySmall => {
                let item = grpc.get_item(Case::get_item()).await.unwrap().into_inner();
                assert_eq!(Item::from_json(json).unwrap(), item);
                assert!((80..160).contains(&json.len()), "{} B", json.len());
            }
            Case::UnaryLarge => {
                let page = grpc.put_page(Case::put_page()).await.unwrap().into_inner();
                assert_eq!(Page::from_json(json).unwrap(), page);
                assert!((25_000..35_000).contains(&json.len()), "{} B", json.len());
            }
            Case::Stream => {
                let items: Vec<Item> = grpc
                    .list_items(Case::list_items())
                    .await
                    .unwrap()
                    .into_inner()
                    .map(Result::unwrap)
                    .collect()
                    .await;
                let lines: Vec<Item> = json
                    .split(|&b| b == b'\n')
                    .filter(|l| !l.is_empty())
                    .map(|l| Item::from_json(l).unwrap())
                    .collect();
                assert_eq!(lines.len(), STREAM_ITEMS as usize);
                assert_eq!(lines, items);
            }
        }
    }
    // A bad query parameter is refused alike (the bodies' forms differ).
    for path in [
        "/v1/shelves/1/items/42?view=NOPE",
        "/v1/shelves/1/items?count=x",
    ] {
        for base in &bases {
            let (status, _) = answer(base, http::Method::GET, path, Vec::new()).await;
            assert_eq!(status, 400, "{base}{path}");
        }
    }
}
