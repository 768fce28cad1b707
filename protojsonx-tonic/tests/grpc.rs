//! The test service of build.rs, generated with `codec_path`, served and
//! called over loopback TCP: generated clients and servers, and raw gRPC
//! frames (a bytes codec) to see and forge what goes over the wire.

use std::future::{Ready, ready};
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Buf, BufMut, Bytes};
use http::uri::PathAndQuery;
use protojsonx_runtime::{DecodeOptions, EncodeOptions};
use protojsonx_tonic::{CodecOptions, JsonContentTypeLayer, ProtoJsonCodec};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_stream::wrappers::TcpListenerStream;
use tokio_stream::{Stream, StreamExt};
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::service::Routes;
use tonic::transport::{Channel, Endpoint, Server};
use tonic::{Code, Request, Response, Status, Streaming};
use tower_layer::Layer;

/// Package `greet.v1`: structs, client and server with `ProtoJsonCodec`.
pub mod greet {
    /// Version 1.
    pub mod v1 {
        include!(concat!(env!("OUT_DIR"), "/greet.v1.rs"));
        include!(concat!(env!("OUT_DIR"), "/greet.v1.protojsonx.rs"));
    }
}

/// The same service with [`CustomCodec`], over the same message types.
pub mod custom {
    include!(concat!(env!("OUT_DIR"), "/custom/greet.v1.rs"));
}

use greet::v1::greeter_client::GreeterClient;
use greet::v1::greeter_server::{Greeter, GreeterServer};
use greet::v1::{GreetRequest, Greeting, Person, Tone};

/// Options unlike the defaults in every direction.
pub struct Custom;

impl CodecOptions for Custom {
    fn encode_options() -> EncodeOptions {
        EncodeOptions::new()
            .use_proto_names(true)
            .enums_as_ints(true)
            .emit_unpopulated(true)
    }

    fn decode_options() -> DecodeOptions {
        DecodeOptions::new().ignore_unknown_fields(true)
    }
}

/// The pattern the crate documents, named by build.rs as `crate::CustomCodec`.
pub type CustomCodec<T, U> = ProtoJsonCodec<T, U, Custom>;

/// Greets; one implementation behind both generated servers.
struct Service;

type Greetings = Pin<Box<dyn Stream<Item = Result<Greeting, Status>> + Send>>;

fn greeting(request: &GreetRequest, count: i64) -> Greeting {
    let person = request.person.clone().unwrap_or_default();
    let tone = if person.verified {
        Tone::Warm
    } else {
        Tone::Unspecified
    };
    Greeting {
        text: format!("Hello, {}!", person.name),
        count,
        tone: tone as i32,
    }
}

#[tonic::async_trait]
impl Greeter for Service {
    async fn greet(&self, request: Request<GreetRequest>) -> Result<Response<Greeting>, Status> {
        Ok(Response::new(greeting(request.get_ref(), 0)))
    }

    type GreetEachStream = Greetings;

    async fn greet_each(
        &self,
        request: Request<GreetRequest>,
    ) -> Result<Response<Greetings>, Status> {
        let request = request.into_inner();
        let all: Vec<_> = (1..=i64::from(request.times))
            .map(|count| Ok(greeting(&request, count)))
            .collect();
        Ok(Response::new(Box::pin(tokio_stream::iter(all))))
    }

    type ChatStream = Greetings;

    async fn chat(
        &self,
        request: Request<Streaming<GreetRequest>>,
    ) -> Result<Response<Greetings>, Status> {
        let mut count = 0;
        let replies = request.into_inner().map(move |request| {
            count += 1;
            Ok(greeting(&request?, count))
        });
        Ok(Response::new(Box::pin(replies)))
    }
}

#[tonic::async_trait]
impl custom::greeter_server::Greeter for Service {
    async fn greet(&self, request: Request<GreetRequest>) -> Result<Response<Greeting>, Status> {
        Greeter::greet(self, request).await
    }

    type GreetEachStream = Greetings;

    async fn greet_each(
        &self,
        request: Request<GreetRequest>,
    ) -> Result<Response<Greetings>, Status> {
        Greeter::greet_each(self, request).await
    }

    type ChatStream = Greetings;

    async fn chat(
        &self,
        request: Request<Streaming<GreetRequest>>,
    ) -> Result<Response<Greetings>, Status> {
        Greeter::chat(self, request).await
    }
}

/// A loopback listener on a free port, and its address.
async fn listen() -> (TcpListenerStream, SocketAddr) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    (TcpListenerStream::new(listener), addr)
}

/// Serves `routes` on a free loopback port for the rest of the test.
async fn serve(routes: Routes) -> SocketAddr {
    let (incoming, addr) = listen().await;
    let server = Server::builder().add_routes(routes);
    tokio::spawn(server.serve_with_incoming(incoming));
    addr
}

async fn default_server() -> SocketAddr {
    serve(Routes::new(GreeterServer::new(Service))).await
}

async fn channel(addr: SocketAddr) -> Channel {
    let endpoint = Endpoint::from_shared(format!("http://{addr}")).unwrap();
    endpoint.connect().await.unwrap()
}

fn request(name: &str, verified: bool, times: u32) -> GreetRequest {
    GreetRequest {
        person: Some(Person {
            name: name.into(),
            verified,
        }),
        times,
    }
}

#[tokio::test]
async fn a_unary_call_round_trips() {
    let mut client = GreeterClient::new(channel(default_server().await).await);
    let reply = client.greet(request("Ada", true, 0)).await.unwrap();
    let expected = Greeting {
        text: "Hello, Ada!".into(),
        count: 0,
        tone: Tone::Warm as i32,
    };
    assert_eq!(reply.into_inner(), expected);
}

#[tokio::test]
async fn a_server_stream_sends_every_message() {
    let mut client = GreeterClient::new(channel(default_server().await).await);
    let stream = client.greet_each(request("Bo", false, 3)).await.unwrap();
    let replies: Vec<Greeting> = stream.into_inner().map(Result::unwrap).collect().await;
    let counts: Vec<i64> = replies.iter().map(|g| g.count).collect();
    assert_eq!(counts, [1, 2, 3]);
    assert!(replies.iter().all(|g| g.text == "Hello, Bo!"));
}

#[tokio::test]
async fn a_bidirectional_stream_answers_each_request() {
    let mut client = GreeterClient::new(channel(default_server().await).await);
    let requests = tokio_stream::iter(["Cy", "Di", "Ed"].map(|name| request(name, true, 0)));
    let replies = client.chat(requests).await.unwrap().into_inner();
    let texts: Vec<String> = replies.map(|g| g.unwrap().text).collect().await;
    assert_eq!(texts, ["Hello, Cy!", "Hello, Di!", "Hello, Ed!"]);
}

/// Sends and receives gRPC messages as they are: the bytes in the frame.
#[derive(Debug, Clone, Copy, Default)]
struct RawCodec;

impl Codec for RawCodec {
    type Encode = Bytes;
    type Decode = Bytes;
    type Encoder = RawCodec;
    type Decoder = RawCodec;

    fn encoder(&mut self) -> RawCodec {
        RawCodec
    }

    fn decoder(&mut self) -> RawCodec {
        RawCodec
    }
}

impl Encoder for RawCodec {
    type Item = Bytes;
    type Error = Status;

    fn encode(&mut self, item: Bytes, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put_slice(&item);
        Ok(())
    }
}

impl Decoder for RawCodec {
    type Item = Bytes;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Bytes>, Status> {
        Ok(Some(src.copy_to_bytes(src.remaining())))
    }
}

const GREET: &str = "/greet.v1.Greeter/Greet";

/// One unary call with `json` as the request frame's bytes, as they are.
async fn raw_call(channel: Channel, json: &'static str) -> Result<Response<Bytes>, Status> {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.unwrap();
    let message = Bytes::from_static(json.as_bytes());
    let path = PathAndQuery::from_static(GREET);
    grpc.unary(Request::new(message), path, RawCodec).await
}

#[tokio::test]
async fn the_server_reads_and_writes_protojson() {
    let channel = channel(default_server().await).await;
    let json = r#"{"person": {"name": "Ada", "verified": true}}"#;
    let reply = raw_call(channel, json).await.unwrap();
    let body = reply.into_inner();
    assert_eq!(body, &br#"{"text":"Hello, Ada!","tone":"TONE_WARM"}"#[..]);
}

#[tokio::test]
async fn a_bad_message_is_invalid_argument_naming_the_field() {
    let channel = channel(default_server().await).await;
    let json = r#"{"person": {"name": "Ada", "verified": "yes"}}"#;
    let status = raw_call(channel, json).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert_eq!(
        status.message(),
        "invalid ProtoJSON message: expected bool, found string at `person.verified` (line 1, column 40)"
    );
}

#[tokio::test]
async fn a_bad_message_in_a_stream_ends_it_with_invalid_argument() {
    let mut grpc = tonic::client::Grpc::new(channel(default_server().await).await);
    grpc.ready().await.unwrap();
    let frames = [r#"{"person": {"name": "Ada"}}"#, r#"{"times": -1}"#];
    let requests = tokio_stream::iter(frames.map(|f| Bytes::from_static(f.as_bytes())));
    let path = PathAndQuery::from_static("/greet.v1.Greeter/Chat");
    let response = grpc.streaming(Request::new(requests), path, RawCodec).await;
    let mut replies = response.unwrap().into_inner();
    let first = replies.next().await.unwrap().unwrap();
    assert_eq!(first, &br#"{"text":"Hello, Ada!","count":"1"}"#[..]);
    let status = replies.next().await.unwrap().unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("at `times`"), "{status:?}");
}

/// What a capture server saw: the request's content type and message bytes.
type Seen = (Option<String>, Bytes);

/// Records each request and answers with fixed bytes.
#[derive(Clone)]
struct Capture {
    seen: mpsc::UnboundedSender<Seen>,
    reply: &'static str,
}

impl tower_service::Service<Request<Bytes>> for Capture {
    type Response = Response<Bytes>;
    type Error = Status;
    type Future = Ready<Result<Response<Bytes>, Status>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Status>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Bytes>) -> Self::Future {
        let content_type = request.metadata().get("content-type");
        let content_type = content_type.map(|v| v.to_str().unwrap().to_owned());
        self.seen
            .send((content_type, request.into_inner()))
            .unwrap();
        ready(Ok(Response::new(Bytes::from_static(self.reply.as_bytes()))))
    }
}

/// A raw server for `Greet` that answers `reply` and reports what it received.
async fn capture_server(reply: &'static str) -> (SocketAddr, mpsc::UnboundedReceiver<Seen>) {
    let (seen, received) = mpsc::unbounded_channel();
    let capture = Capture { seen, reply };
    let handler = move |request: axum::extract::Request| {
        let capture = capture.clone();
        async move {
            tonic::server::Grpc::new(RawCodec)
                .unary(capture, request)
                .await
        }
    };
    let router = axum::Router::new().route(GREET, axum::routing::post(handler));
    (serve(Routes::from(router)).await, received)
}

#[tokio::test]
async fn the_client_writes_and_reads_protojson() {
    let reply = r#"{"text": "Hi", "count": 7, "tone": "TONE_WARM"}"#;
    let (addr, mut seen) = capture_server(reply).await;
    let mut client = GreeterClient::new(channel(addr).await);
    let answer = client.greet(request("Ada", false, 2)).await.unwrap();
    let (content_type, body) = seen.recv().await.unwrap();
    assert_eq!(body, &br#"{"person":{"name":"Ada"},"times":2}"#[..]);
    assert_eq!(content_type.as_deref(), Some("application/grpc"));
    let expected = Greeting {
        text: "Hi".into(),
        count: 7,
        tone: Tone::Warm as i32,
    };
    assert_eq!(answer.into_inner(), expected);
}

#[tokio::test]
async fn options_chosen_by_alias_reach_the_generated_code() {
    let routes = Routes::new(custom::greeter_server::GreeterServer::new(Service));
    let channel = channel(serve(routes).await).await;
    // Decoding ignores unknown fields; encoding uses proto names, enum
    // numbers and writes fields at their default.
    let json = r#"{"person": {"name": "Ada", "verified": true}, "extra": 1}"#;
    let reply = raw_call(channel.clone(), json).await.unwrap();
    let body = reply.into_inner();
    assert_eq!(body, &br#"{"text":"Hello, Ada!","count":"0","tone":1}"#[..]);
    let mut client = custom::greeter_client::GreeterClient::new(channel);
    let replies = client.greet_each(request("Bo", true, 2)).await.unwrap();
    let counts: Vec<i64> = replies
        .into_inner()
        .map(|g| g.unwrap().count)
        .collect()
        .await;
    assert_eq!(counts, [1, 2]);
}

#[tokio::test]
async fn the_layer_labels_requests_grpc_json() {
    let (addr, mut seen) = capture_server(r#"{}"#).await;
    let channel = JsonContentTypeLayer::new().layer(channel(addr).await);
    let mut client = GreeterClient::new(channel);
    client.greet(request("Ada", false, 0)).await.unwrap();
    let (content_type, _) = seen.recv().await.unwrap();
    assert_eq!(content_type.as_deref(), Some("application/grpc+json"));
}

#[tokio::test]
async fn the_layer_labels_responses_grpc_json() {
    let (incoming, addr) = listen().await;
    let server = Server::builder()
        .layer(JsonContentTypeLayer::new())
        .add_service(GreeterServer::new(Service));
    tokio::spawn(server.serve_with_incoming(incoming));
    let reply = raw_call(channel(addr).await, "{}").await.unwrap();
    let content_type = reply.metadata().get("content-type").unwrap();
    assert_eq!(content_type, "application/grpc+json");
    assert_eq!(reply.into_inner(), &br#"{"text":"Hello, !"}"#[..]);
}
