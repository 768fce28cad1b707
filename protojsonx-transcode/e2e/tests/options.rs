//! A router's options apply alike both ways: the whole corpus answered by
//! the generated routes and by the gateway with proto names, enum numbers,
//! default values written, unknown fields and query parameters ignored,
//! and a header forwarded as metadata, gives the same exchanges, which
//! show each option at work.

mod common;

use common::*;
use protojsonx_runtime::{DecodeOptions, EncodeOptions};
use protojsonx_transcode::query::UnknownParameters;
use protojsonx_transcode::router::Options;

fn options() -> Options {
    Options::new()
        .encode_options(
            EncodeOptions::new()
                .use_proto_names(true)
                .enums_as_ints(true)
                .emit_default_values(true),
        )
        .decode_options(DecodeOptions::new().ignore_unknown_fields(true))
        .unknown_parameters(UnknownParameters::Ignore)
        .forward_headers([http::header::HeaderName::from_static("x-trace")])
}

#[tokio::test]
async fn options_apply_alike_both_ways() {
    let generated = run_corpus(http_server(generated(options()).into_axum()).await).await;
    let through_gateway = run_corpus(http_server(gateway(options()).await.into_axum()).await).await;
    assert_eq!(generated, through_gateway);
    for expected in [
        // Proto names, enum numbers, defaults written.
        r#"{"name":"shelves/1/items/2","title":"title of shelves/1/items/2","stock":"9007199254740993","tags":["a","b"],"kind":1,"archived":false}"#,
        // An unknown query parameter ignored; `parent` bound by the path.
        r#"{"request":{"parent":"shelves/1","page_size":0,"tags":[],"kind":0,"token":"","after_id":"0","ratio":0,"deep":false,"kinds":[]}}"#,
        // An unknown body field ignored.
        r#"{"name":"shelves/7/items/9","title":"old","stock":"0","tags":[],"kind":0,"archived":true}"#,
    ] {
        assert!(
            generated.contains(expected),
            "{expected}\nnot in\n{generated}"
        );
    }
}

/// Pretty-printed answers: a `response_body` member is indented as a
/// top-level value, and a left-out enum member is its default as the
/// encoder writes enums, alike both ways.
#[tokio::test]
async fn response_bodies_follow_the_encode_options() {
    let options =
        || Options::new().encode_options(EncodeOptions::new().indent(2).enums_as_ints(true));
    for router in [generated(options()), gateway(options()).await] {
        let addr = http_server(router.into_axum()).await;
        let exchange = send(addr, "GET", "/v1/shelves/1/items/2:tags", &[], "").await;
        assert_eq!(exchange.body, "[\n  \"a\",\n  \"b\"\n]");
        let exchange = send(addr, "COUNT", "/v1/shelves/1/items/2", &[], "").await;
        assert_eq!(exchange.body, "[]");
        let exchange = send(addr, "GET", "/v1/shelves/1/items/2:name", &[], "").await;
        assert_eq!(exchange.body, "\"shelves/1/items/2\"");
    }
}
