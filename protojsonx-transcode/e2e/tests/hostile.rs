//! Hostile requests: each answered at once with the error it deserves (its
//! exact HTTP status, `google.rpc.Status` code and message), never a panic,
//! a hang, a stack overflow or memory in proportion to what the client
//! chose to send. Most are served both by the shop's generated routes and
//! by the gateway in front of the same service over loopback, since the two
//! decode requests with different code.

mod common;

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::body::Body;
use bytes::Bytes;
use futures_util::StreamExt;
use futures_util::future::{BoxFuture, pending};
use http::{HeaderName, HeaderValue, Request, StatusCode};
use protojsonx_transcode::answer::generated_status_json;
use protojsonx_transcode::method::{Answer, Call, CallError, Method, Streaming};
use protojsonx_transcode::router::{Options, Router, RouterBuilder};
use protojsonx_transcode::rule::{Binding, Body as BodyRule};
use protojsonx_transcode::schema::{Schema, SchemaMessage};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use common::*;

/// The longest any of these requests may take to be answered: far more
/// than any needs, so that a hang fails the test instead of stalling it.
const PATIENCE: Duration = Duration::from_secs(20);

/// Both ways of serving the shop, with the same options, by name.
async fn both(options: Options) -> [(&'static str, Router); 2] {
    [
        ("generated", generated(options.clone())),
        ("gateway", gateway(options).await),
    ]
}

/// Options that let through URIs of any length, to reach the checks after
/// that limit.
fn long_uris() -> Options {
    Options::new().max_uri(usize::MAX)
}

/// One answer as a test sees it.
#[derive(Debug)]
struct Answered {
    status: StatusCode,
    headers: http::HeaderMap,
    body: Bytes,
}

impl Answered {
    /// The body as text.
    fn text(&self) -> &str {
        std::str::from_utf8(&self.body).expect("answers are UTF-8")
    }

    /// The `google.rpc.Status` of an error answer: its code and message,
    /// after checking it is a JSON object of just those.
    fn error(&self) -> (i64, String) {
        assert_eq!(self.headers["content-type"], "application/json", "{self:?}");
        let status: serde_json::Value = serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("the error is not JSON ({e}): {self:?}"));
        let object = status.as_object().expect("the error is a JSON object");
        assert!(
            object.keys().all(|k| k == "code" || k == "message"),
            "{status}"
        );
        (
            status["code"].as_i64().expect("a code"),
            status["message"].as_str().expect("a message").to_owned(),
        )
    }

    /// Asserts the answer is the error `http` with `code` and `message`.
    #[track_caller]
    fn assert_error(&self, http: u16, code: i64, message: &str) {
        assert_eq!(self.status.as_u16(), http, "{}", shorten(self.text()));
        let (got_code, got_message) = self.error();
        assert_eq!(got_code, code, "{got_message}");
        assert!(
            got_message == message,
            "the message is\n  {}\nnot\n  {}",
            shorten(&got_message),
            shorten(message)
        );
    }
}

/// `text`, cut for an assertion's message.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(300) {
        Some((at, _)) => format!("{}... ({} bytes)", &text[..at], text.len()),
        None => text.to_owned(),
    }
}

/// A request; header values are bytes, which need not be text.
fn request(method: &str, uri: &str, headers: &[(&str, &[u8])], body: Body) -> Request<Body> {
    let mut request = Request::builder().method(method).uri(uri);
    for &(name, value) in headers {
        request = request.header(
            HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_bytes(value).unwrap(),
        );
    }
    request.body(body).unwrap()
}

/// Serves `request` with `router`, answer and body within [`PATIENCE`].
async fn serve(router: &Router, request: Request<Body>) -> Answered {
    within(async {
        let response = router.serve(request).await;
        let (parts, body) = response.into_parts();
        Answered {
            status: parts.status,
            headers: parts.headers,
            body: axum::body::to_bytes(body, usize::MAX).await.unwrap(),
        }
    })
    .await
}

/// `future`'s output, if it comes within [`PATIENCE`].
async fn within<F: Future>(future: F) -> F::Output {
    tokio::time::timeout(PATIENCE, future)
        .await
        .expect("answered in time")
}

/// A JSON body.
fn json(text: impl Into<Bytes>) -> Body {
    Body::from(text.into())
}

const JSON: (&str, &[u8]) = ("content-type", b"application/json");

/// A URI one byte longer than the limit, in the path or in the query,
/// is refused before anything else is done with it.
#[tokio::test]
async fn a_uri_over_the_limit_is_414() {
    for (name, router) in both(Options::new()).await {
        let path = format!("/v1/shelves/1/items/{}", "a".repeat(8192 - 20 + 1));
        let query = format!("/v1/shelves/1/items?tags={}", "a".repeat(8192 - 25 + 1));
        for uri in [path, query] {
            let answered = serve(&router, request("GET", &uri, &[], Body::empty())).await;
            answered.assert_error(414, 3, "the URI is 8193 bytes long; the limit is 8192");
        }
        let at_limit = format!("/v1/shelves/1/items/{}", "a".repeat(8192 - 20));
        let answered = serve(&router, request("GET", &at_limit, &[], Body::empty())).await;
        assert_eq!(answered.status, StatusCode::OK, "{name}");
    }
}

/// A body stream that counts the bytes read from it and never ends.
fn endless_body(read: Arc<AtomicUsize>) -> Body {
    let chunk = Bytes::from_static(&[b' '; 1000]);
    Body::from_stream(futures_util::stream::repeat_with(move || {
        read.fetch_add(chunk.len(), Ordering::Relaxed);
        Ok::<_, Infallible>(chunk.clone())
    }))
}

/// A body longer than `Options::max_body` is refused with 413 once the
/// limit is passed: an endless body is read no further than one chunk
/// past it, and a body the binding does not take is not read at all.
#[tokio::test]
async fn a_body_over_the_limit_is_413_and_read_no_further() {
    let router = generated(Options::new().max_body(10_000));
    let read = Arc::new(AtomicUsize::new(0));
    let body = endless_body(read.clone());
    let post = request("POST", "/v1/shelves/7/items", &[JSON], body);
    let answered = serve(&router, post).await;
    answered.assert_error(413, 8, "the body is larger than 10000 bytes");
    let read = read.load(Ordering::Relaxed);
    assert!((10_000..=11_000).contains(&read), "{read} bytes read");

    let ignored = Arc::new(AtomicUsize::new(0));
    let get = request(
        "GET",
        "/v1/shelves/7/items/9",
        &[JSON],
        endless_body(ignored.clone()),
    );
    assert_eq!(serve(&router, get).await.status, StatusCode::OK);
    assert_eq!(ignored.load(Ordering::Relaxed), 0);

    // The same limit on a body that ends: one byte under it is read.
    let under = format!("{{\"title\":\"{}\"}}", "t".repeat(10_000 - 13));
    let answered = serve(
        &router,
        request("POST", "/v1/shelves/7/items", &[JSON], json(under)),
    )
    .await;
    assert_eq!(
        answered.status,
        StatusCode::OK,
        "{}",
        shorten(answered.text())
    );
    let over = format!("{{\"title\":\"{}\"}}", "t".repeat(10_000 - 12 + 1));
    let answered = serve(
        &router,
        request("POST", "/v1/shelves/7/items", &[JSON], json(over)),
    )
    .await;
    answered.assert_error(413, 8, "the body is larger than 10000 bytes");
}

/// Sends `request` as it is over a new connection to `addr` and reads the
/// whole answer, for requests an `http::Request` cannot hold.
async fn raw(addr: std::net::SocketAddr, request: &[u8]) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    within(async {
        stream.write_all(request).await.unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.unwrap();
        String::from_utf8_lossy(&answer).into_owned()
    })
    .await
}

/// The status line of a raw answer.
fn status_line(answer: &str) -> &str {
    answer.lines().next().unwrap_or_default()
}

/// A URI of 100,000 segments is longer than any `http::Uri` can be, so
/// the HTTP server refuses it with 414 before any router sees it; the
/// longest paths a router can be given, 30,000 segments, are matched in
/// one pass once the router's own limit is lifted: a `**` variable takes
/// all of them, and a path no template matches is a 404.
#[tokio::test]
async fn a_path_of_100000_segments_is_refused_and_30000_are_matched() {
    let addr = http_server(generated(long_uris()).into_axum()).await;
    let path = format!("/v1/items/{}", vec!["s"; 100_000].join("/"));
    let sent = format!("GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
    let answer = raw(addr, sent.as_bytes()).await;
    assert_eq!(
        status_line(&answer),
        "HTTP/1.1 414 URI Too Long",
        "{answer}"
    );

    let segments = vec!["s"; 30_000].join("/");
    let rest = format!("/v1/items/{segments}");
    let nowhere = format!("/v1/shelves/{segments}");
    for (_, router) in both(Options::new()).await {
        let answered = serve(&router, request("GET", &rest, &[], Body::empty())).await;
        let message = format!("the URI is {} bytes long; the limit is 8192", rest.len());
        answered.assert_error(414, 3, &message);
    }
    for (name, router) in both(long_uris()).await {
        let started = Instant::now();
        let answered = serve(&router, request("GET", &rest, &[], Body::empty())).await;
        assert_eq!(answered.status, StatusCode::OK, "{name}");
        let item: serde_json::Value = serde_json::from_slice(&answered.body).unwrap();
        assert_eq!(item["name"].as_str(), Some(segments.as_str()), "{name}");

        let answered = serve(&router, request("GET", &nowhere, &[], Body::empty())).await;
        let message = format!("no method is bound to GET {nowhere}");
        answered.assert_error(404, 5, &message);
        assert!(started.elapsed() < PATIENCE / 4, "{name}");
    }
}

/// Ten thousand query parameters are refused after the first 1024, with a
/// message saying so; 1024 are served.
#[tokio::test]
async fn ten_thousand_query_parameters_are_refused() {
    for (name, router) in both(long_uris()).await {
        let uri = format!("/v1/shelves/1/items?{}", vec!["tags"; 10_000].join("&"));
        let started = Instant::now();
        let answered = serve(&router, request("GET", &uri, &[], Body::empty())).await;
        answered.assert_error(400, 3, "more than 1024 query parameters");
        assert!(started.elapsed() < PATIENCE / 4, "{name}");

        let uri = format!("/v1/shelves/1/items?{}", vec!["tags=t"; 1024].join("&"));
        let answered = serve(&router, request("GET", &uri, &[], Body::empty())).await;
        assert_eq!(answered.status, StatusCode::OK, "{name}");
        let listed: serde_json::Value = serde_json::from_slice(&answered.body).unwrap();
        let tags = listed["request"]["tags"].as_array().unwrap();
        assert_eq!(tags.len(), 1024, "{name}");
    }
}

/// A query parameter named by 100,000 dots cannot reach a router (the
/// HTTP server refuses the URI); one of 60,000 dots is refused for its
/// depth, the message repeating only the start of the name.
#[tokio::test]
async fn a_query_name_of_100000_dots_is_refused() {
    let addr = http_server(generated(long_uris()).into_axum()).await;
    let uri = format!("/v1/shelves/1/items?{}=x", ".".repeat(100_000));
    let sent = format!("GET {uri} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
    let answer = raw(addr, sent.as_bytes()).await;
    assert_eq!(
        status_line(&answer),
        "HTTP/1.1 414 URI Too Long",
        "{answer}"
    );

    let uri = format!("/v1/shelves/1/items?{}=x", ".".repeat(60_000));
    let message = format!(
        "query parameter `{}...` has more than 64 segments",
        ".".repeat(100)
    );
    for (_, router) in both(long_uris()).await {
        let answered = serve(&router, request("GET", &uri, &[], Body::empty())).await;
        answered.assert_error(400, 3, &message);
    }
}

/// JSON nested 100,000 deep is refused without overflowing the stack: at
/// once where the message has no such field or type, and by the
/// decoders' depth limit where the nesting is read (unknown fields skipped,
/// with unknown fields ignored), as the body, as a field's value and
/// inside an unknown member.
#[tokio::test]
async fn a_body_nested_100000_deep_is_400() {
    let deep = |open: &str, close: &str| {
        let mut text = open.repeat(100_000);
        text.push_str(&close.repeat(100_000));
        text
    };
    let arrays = deep("[", "]");
    let objects = deep("{\"a\":", "}");
    let in_unknown = |deep: &str| format!("{{\"reason\":\"r\",\"extra\":{deep}}}");
    let field = "/v1/shelves/7/items";
    let whole = "/v1/fail";
    let archive = "/v1/shelves/7/items/9:archive";
    let strict = [
        (
            field,
            arrays.clone(),
            "expected object, found array at `item` (line 1, column 1)",
        ),
        (
            whole,
            arrays.clone(),
            "expected object, found array (line 1, column 1)",
        ),
        (
            archive,
            in_unknown(&arrays),
            "unknown field at `extra` (line 1, column 23)",
        ),
        (
            field,
            objects.clone(),
            "unknown field at `item.a` (line 1, column 6)",
        ),
        (
            whole,
            objects.clone(),
            "unknown field at `a` (line 1, column 6)",
        ),
        (
            archive,
            in_unknown(&objects),
            "unknown field at `extra` (line 1, column 23)",
        ),
    ];
    let lenient = [
        (
            field,
            arrays.clone(),
            "expected object, found array at `item` (line 1, column 1)",
        ),
        (
            whole,
            arrays.clone(),
            "expected object, found array (line 1, column 1)",
        ),
        (
            archive,
            in_unknown(&arrays),
            "nesting too deep at `extra` (line 1, column 122)",
        ),
        (
            field,
            objects.clone(),
            "nesting too deep at `item.a` (line 1, column 496)",
        ),
        (
            whole,
            objects.clone(),
            "nesting too deep at `a` (line 1, column 501)",
        ),
        (
            archive,
            in_unknown(&objects),
            "nesting too deep at `extra` (line 1, column 518)",
        ),
    ];
    let ignoring = Options::new()
        .decode_options(protojsonx_runtime::DecodeOptions::new().ignore_unknown_fields(true));
    for (options, cases) in [(Options::new(), strict), (ignoring, lenient)] {
        for (name, router) in both(options).await {
            for (path, body, message) in &cases {
                let post = request("POST", path, &[JSON], json(body.clone()));
                let answered = serve(&router, post).await;
                let message = format!("invalid request body: {message}");
                assert_eq!(answered.status, StatusCode::BAD_REQUEST, "{name} {path}");
                answered.assert_error(400, 3, &message);
            }
        }
    }
}

/// Escapes that decode to bytes that are not UTF-8 in a path variable (of
/// one segment, of several, of a `**`) and invalid UTF-8 in the body
/// (in a string, in a key, as the whole body) are refused.
#[tokio::test]
async fn invalid_utf8_in_the_path_or_the_body_is_400() {
    for (_, router) in both(Options::new()).await {
        for uri in [
            "/v1/shelves/%FF/items/2",
            "/v1/shelves/1/items/%C3",
            "/v1/items/a/%FF/b",
        ] {
            let answered = serve(&router, request("GET", uri, &[], Body::empty())).await;
            answered.assert_error(400, 3, "path variable `name` is not UTF-8 once decoded");
        }
        for (body, message) in [
            (
                &b"{\"title\":\"\xff\"}"[..],
                "invalid UTF-8 in string at `item.title` (line 1, column 11)",
            ),
            (
                b"{\"ti\xfftle\":\"x\"}",
                "invalid UTF-8 in string at `item` (line 1, column 5)",
            ),
            (
                b"\xff",
                "expected object, found invalid character byte 0xff at `item` (line 1, column 1)",
            ),
        ] {
            let post = request("POST", "/v1/shelves/7/items", &[JSON], json(body.to_vec()));
            let answered = serve(&router, post).await;
            answered.assert_error(400, 3, &format!("invalid request body: {message}"));
        }
    }
}

/// Escapes in the query that decode to bytes that are not UTF-8, in a
/// value or a name, are refused as they are in a path variable, not
/// replaced; an escaped U+FFFD is kept.
#[tokio::test]
async fn invalid_utf8_in_the_query_is_400() {
    for (name, router) in both(Options::new()).await {
        for (uri, message) in [
            (
                "/v1/shelves/1/items?tags=%FF",
                "query parameter `tags` is not UTF-8 once decoded",
            ),
            (
                "/v1/shelves/1/items?tags=a&tags=%E2%82",
                "query parameter `tags` is not UTF-8 once decoded",
            ),
            (
                "/v1/shelves/1/items?%FF=x",
                "query parameter `%FF` is not UTF-8 once decoded",
            ),
        ] {
            let answered = serve(&router, request("GET", uri, &[], Body::empty())).await;
            answered.assert_error(400, 3, message);
        }
        let uri = "/v1/shelves/1/items?tags=%EF%BF%BD";
        let answered = serve(&router, request("GET", uri, &[], Body::empty())).await;
        assert_eq!(answered.status, StatusCode::OK, "{name}");
        let expected = "{\"request\":{\"parent\":\"shelves/1\",\"tags\":[\"\u{fffd}\"]}}";
        assert_eq!(answered.text(), expected, "{name}");
    }
}

/// A method that answers `{}` after `delay`, or never; streaming, it
/// answers at once with a stream of `sent` messages `{}` that then stalls.
struct Slow {
    delay: Option<Duration>,
    streaming: Option<usize>,
}

impl Slow {
    const NEVER: Slow = Slow {
        delay: None,
        streaming: None,
    };
}

impl Method for Slow {
    fn streaming(&self) -> Streaming {
        match self.streaming {
            Some(_) => Streaming::Server,
            None => Streaming::Unary,
        }
    }

    fn call(&self, _: Call) -> BoxFuture<'static, Result<Answer, CallError>> {
        let metadata = tonic::metadata::MetadataMap::new();
        if let Some(sent) = self.streaming {
            let items = futures_util::stream::iter(vec![Ok(b"{}".to_vec()); sent])
                .chain(futures_util::stream::pending())
                .boxed();
            return Box::pin(async move { Ok(Answer::Stream { items, metadata }) });
        }
        let delay = self.delay;
        Box::pin(async move {
            match delay {
                Some(delay) => tokio::time::sleep(delay).await,
                None => pending::<()>().await,
            }
            let json = b"{}".to_vec();
            Ok(Answer::Message { json, metadata })
        })
    }
}

/// A server-streaming method whose stream sends `0` messages `{}` and
/// ends, built with `unfold`, which panics when polled after its end.
struct Ends(usize);

impl Method for Ends {
    fn streaming(&self) -> Streaming {
        Streaming::Server
    }

    fn call(&self, _: Call) -> BoxFuture<'static, Result<Answer, CallError>> {
        let items = futures_util::stream::unfold(self.0, |left| async move {
            let left = left.checked_sub(1)?;
            Some((Ok(b"{}".to_vec()), left))
        });
        let items = items.boxed();
        let metadata = tonic::metadata::MetadataMap::new();
        Box::pin(async move { Ok(Answer::Stream { items, metadata }) })
    }
}

/// A router of two bindings, `GET /v1/wait` and `POST /v1/wait` with
/// `body: "*"`, served by `method`.
fn router_of(method: impl Method) -> Router {
    router_with(method, Options::new())
}

/// [`router_of`] with `options`.
fn router_with(method: impl Method, options: Options) -> Router {
    let empty = SchemaMessage {
        full_name: "test.Empty".into(),
        fields: Vec::new().into(),
    };
    let mut builder = RouterBuilder::new(Schema::new(vec![empty]), Arc::new(generated_status_json));
    builder.options(options);
    let method: Arc<dyn Method> = Arc::new(method);
    for (verb, body) in [("GET", BodyRule::None), ("POST", BodyRule::Whole)] {
        let binding = Binding {
            method: verb.into(),
            path: "/v1/wait".into(),
            body,
            response_body: None,
        };
        let name = "/test.Slow/Wait";
        builder
            .route(name, &binding, "test.Empty", "test.Empty", method.clone())
            .unwrap();
    }
    builder.build()
}

/// What the router says when the deadline passes.
const EXPIRED: &str = "/test.Slow/Wait gave no answer within its deadline";

/// A `grpc-timeout` that passes before a unary method answers is a 504
/// with `DEADLINE_EXCEEDED`.
#[tokio::test]
async fn a_grpc_timeout_that_expires_is_504() {
    let router = router_of(Slow::NEVER);
    let started = Instant::now();
    let get = request(
        "GET",
        "/v1/wait",
        &[("grpc-timeout", b"20m")],
        Body::empty(),
    );
    serve(&router, get).await.assert_error(504, 4, EXPIRED);
    assert!(started.elapsed() >= Duration::from_millis(20));
}

/// The `grpc-timeout` bounds a server stream too: one whose first message
/// does not come in time is a 504 with `DEADLINE_EXCEEDED`, and one that
/// stalls later ends with that status as its last item.
#[tokio::test]
async fn a_grpc_timeout_ends_a_stalled_stream() {
    let timeout = ("grpc-timeout", &b"20m"[..]);
    let router = router_of(Slow {
        delay: None,
        streaming: Some(0),
    });
    let get = request("GET", "/v1/wait", &[timeout], Body::empty());
    serve(&router, get).await.assert_error(504, 4, EXPIRED);

    let router = router_of(Slow {
        delay: None,
        streaming: Some(2),
    });
    let accept = ("accept", &b"application/json"[..]);
    let get = request("GET", "/v1/wait", &[timeout, accept], Body::empty());
    let answered = serve(&router, get).await;
    assert_eq!(answered.status, StatusCode::OK);
    let expected = format!("[{{}},{{}},{{\"error\":{{\"code\":4,\"message\":\"{EXPIRED}\"}}}}]");
    assert_eq!(answered.text(), expected);
}

/// A server stream is not polled after it ends, even when it ends before
/// its first message, with or without a `grpc-timeout`: each is answered
/// with the messages it sent.
#[tokio::test]
async fn a_stream_is_not_polled_after_its_end() {
    for (sent, answer) in [(0, "[]"), (2, "[{},{}]")] {
        let router = router_of(Ends(sent));
        for headers in [&[][..], &[("grpc-timeout", &b"10S"[..])]] {
            let mut headers = headers.to_vec();
            headers.push(("accept", b"application/json"));
            let get = request("GET", "/v1/wait", &headers, Body::empty());
            let answered = serve(&router, get).await;
            assert_eq!(answered.status, StatusCode::OK);
            assert_eq!(answered.text(), answer);
        }
    }
}

/// The router's timeout is the deadline of a call without `grpc-timeout`,
/// and the most a client's may be; a shorter `grpc-timeout` still applies.
#[tokio::test]
async fn the_router_timeout_bounds_every_call() {
    let short = Options::new().timeout(Duration::from_millis(20));
    let long = Options::new().timeout(Duration::from_secs(60));
    for (options, headers) in [
        (short.clone(), &[][..]),
        (short, &[("grpc-timeout", &b"50S"[..])][..]),
        (long, &[("grpc-timeout", &b"20m"[..])][..]),
    ] {
        let router = router_with(Slow::NEVER, options);
        let started = Instant::now();
        let get = request("GET", "/v1/wait", headers, Body::empty());
        serve(&router, get).await.assert_error(504, 4, EXPIRED);
        assert!(started.elapsed() >= Duration::from_millis(20));
    }
}

/// A body that has not arrived by the request's deadline is a 408.
#[tokio::test]
async fn a_body_that_does_not_arrive_in_time_is_408() {
    let router = router_with(
        Slow::NEVER,
        Options::new().timeout(Duration::from_millis(20)),
    );
    let never = futures_util::stream::pending::<Result<Bytes, Infallible>>();
    let json = ("content-type", &b"application/json"[..]);
    let post = request("POST", "/v1/wait", &[json], Body::from_stream(never));
    let message = "the request body did not arrive within the request's deadline";
    serve(&router, post).await.assert_error(408, 4, message);
}

/// A method is told the time left of the request's deadline (the gateway
/// passes it upstream as its `grpc-timeout`), none without one.
#[tokio::test]
async fn a_call_is_told_the_time_left() {
    struct Told(Arc<std::sync::Mutex<Vec<Option<Duration>>>>);
    impl Method for Told {
        fn streaming(&self) -> Streaming {
            Streaming::Unary
        }
        fn call(&self, call: Call) -> BoxFuture<'static, Result<Answer, CallError>> {
            self.0.lock().unwrap().push(call.timeout);
            let metadata = tonic::metadata::MetadataMap::new();
            Box::pin(async move {
                Ok(Answer::Message {
                    json: b"{}".to_vec(),
                    metadata,
                })
            })
        }
    }
    let told = Arc::new(std::sync::Mutex::new(Vec::new()));
    let limit = Duration::from_secs(60);
    for options in [Options::new(), Options::new().timeout(limit)] {
        let router = router_with(Told(told.clone()), options);
        let answered = serve(&router, request("GET", "/v1/wait", &[], Body::empty())).await;
        assert_eq!(answered.status, StatusCode::OK);
    }
    let told = told.lock().unwrap();
    assert_eq!(told[0], None);
    let left = told[1].expect("a deadline");
    assert!(left <= limit && left > limit - PATIENCE, "{left:?}");
}

/// `grpc-timeout` values that are not digits and a unit (at most eight
/// digits) are ignored: the call waits for its answer. A huge valid one
/// waits too, and a short one expires, so the header is read.
#[tokio::test]
async fn malformed_grpc_timeouts_are_ignored() {
    let router = router_of(Slow {
        delay: Some(Duration::from_millis(30)),
        streaming: None,
    });
    let wait = |timeout: &[u8]| {
        request(
            "GET",
            "/v1/wait",
            &[("grpc-timeout", timeout)],
            Body::empty(),
        )
    };
    for malformed in [
        &b""[..],
        b"m",
        b"1",
        b"abc",
        b"1s",
        b"1ms",
        b"1.5S",
        b"-1S",
        b"+1S",
        b" 1S",
        b"1 S",
        b"123456789n",
        b"1\xffS",
        b"\xe2\x82\xac",
        b"99999999H",
    ] {
        let answered = serve(&router, wait(malformed)).await;
        let shown = String::from_utf8_lossy(malformed);
        assert_eq!(answered.status, StatusCode::OK, "{shown:?}");
        assert_eq!(answered.text(), "{}", "{shown:?}");
    }
    serve(&router, wait(b"1m"))
        .await
        .assert_error(504, 4, EXPIRED);
}

/// `grpc-metadata-*` headers that cannot be gRPC metadata (no key, a
/// binary `-bin` key, a value that is not printable ASCII) are not
/// forwarded, and the request is served; a valid one is.
#[tokio::test]
async fn invalid_grpc_metadata_is_not_forwarded() {
    for (name, router) in both(Options::new()).await {
        for (header, value, echoed) in [
            ("grpc-metadata-x-trace", &b"t 1"[..], Some("t 1")),
            ("grpc-metadata-", b"v", None),
            ("grpc-metadata-x-trace-bin", b"AAAA", None),
            ("grpc-metadata-x-trace", b"caf\xc3\xa9", None),
            ("grpc-metadata-x-trace", b"\xff", None),
            ("grpc-metadata-x-trace", b"a\tb", None),
        ] {
            let get = request(
                "GET",
                "/v1/shelves/1/items",
                &[(header, value)],
                Body::empty(),
            );
            let answered = serve(&router, get).await;
            let shown = format!("{name}: {header}: {}", String::from_utf8_lossy(value));
            assert_eq!(answered.status, StatusCode::OK, "{shown}");
            assert_eq!(
                answered.text(),
                r#"{"request":{"parent":"shelves/1"}}"#,
                "{shown}"
            );
            let trace = answered.headers.get("grpc-metadata-x-trace");
            assert_eq!(trace.map(|v| v.to_str().unwrap()), echoed, "{shown}");
        }
    }
}

/// Method names: a binding whose method is not an RFC 9110 token is
/// refused when routes are built; a request whose method is not one is
/// refused by the HTTP server (400) before any router sees it; one that
/// is a token but has no binding on the path is a 405 naming those that do.
#[tokio::test]
async fn a_method_that_is_not_a_token_is_refused() {
    let binding = Binding {
        method: "GE T".into(),
        path: "/v1/wait".into(),
        body: BodyRule::None,
        response_body: None,
    };
    let schema = Schema::new(vec![SchemaMessage {
        full_name: "test.Empty".into(),
        fields: Vec::new().into(),
    }]);
    let mut builder = RouterBuilder::new(schema, Arc::new(generated_status_json));
    let refused = builder
        .route(
            "/test.Slow/Wait",
            &binding,
            "test.Empty",
            "test.Empty",
            Arc::new(Slow::NEVER),
        )
        .err()
        .expect("refused");
    assert_eq!(
        refused.to_string(),
        "/test.Slow/Wait: `GE T /v1/wait`: `GE T` is not an HTTP method name (a token such as GET or LIST, or `*`)"
    );

    let addr = http_server(generated(Options::new()).into_axum()).await;
    for method in ["GE T", "GE(T", "G\u{1}ET", "GÉT"] {
        let sent = format!(
            "{method} /v1/shelves/1/items/2 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"
        );
        let answer = raw(addr, sent.as_bytes()).await;
        assert_eq!(
            status_line(&answer),
            "HTTP/1.1 400 Bad Request",
            "{method}: {answer}"
        );
    }

    let router = generated(Options::new());
    for method in ["BREW", "get", "GET!"] {
        let answered = serve(
            &router,
            request(method, "/v1/shelves/1/items/2", &[], Body::empty()),
        )
        .await;
        let message = format!(
            "/v1/shelves/1/items/2 does not accept {method}; it accepts COUNT, DELETE, GET, PATCH"
        );
        answered.assert_error(405, 12, &message);
        assert_eq!(answered.headers["allow"], "COUNT, DELETE, GET, PATCH");
    }
}
