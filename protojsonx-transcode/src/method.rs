//! What a router asks of a method, whether generated code calls a tonic
//! service in process or the gateway forwards to a gRPC server: make the
//! request from JSON documents, call, and answer with JSON.

use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;
use protojsonx_runtime::{DecodeOptions, EncodeOptions, Error};
use tonic::metadata::MetadataMap;

/// How a method streams, as its `.proto` declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Streaming {
    /// One request, one response.
    Unary,
    /// One request, a stream of responses.
    Server,
    /// A stream of requests, one response.
    Client,
    /// Streams both ways.
    Bidi,
}

/// One call of a method over HTTP, as the router made it.
pub struct Call {
    /// The JSON documents the request message is made of, merged in order:
    /// the body (when the binding has one), then the path variables and
    /// query parameters.
    pub documents: Vec<Vec<u8>>,
    /// The deadline the client gave (`grpc-timeout`): the router stops
    /// waiting for the answer then, and the gateway passes it upstream.
    pub timeout: Option<std::time::Duration>,
    /// The request's metadata: the headers the router forwards.
    pub metadata: MetadataMap,
    /// The HTTP request's extensions (what layers before the router added).
    pub extensions: http::Extensions,
    /// The options the documents are decoded with.
    pub decode: DecodeOptions,
    /// The options answers are encoded with.
    pub encode: EncodeOptions,
}

/// A method's answer, as JSON.
pub enum Answer {
    /// A unary answer: the response message's JSON and the response metadata.
    Message {
        /// The response's ProtoJSON.
        json: Vec<u8>,
        /// The metadata the method answered with.
        metadata: MetadataMap,
    },
    /// A server stream: each response's JSON, until the stream ends or fails.
    Stream {
        /// The responses.
        items: BoxStream<'static, Result<Vec<u8>, tonic::Status>>,
        /// The metadata the method answered with.
        metadata: MetadataMap,
    },
}

/// Why a call gave no answer.
#[derive(Debug)]
pub enum CallError {
    /// Document `document` of [`Call::documents`] does not decode as the
    /// request message.
    Decode {
        /// Which document.
        document: usize,
        /// The decoder's error.
        error: Error,
    },
    /// The method answered with a status, or could not be reached.
    Status(tonic::Status),
}

impl From<tonic::Status> for CallError {
    fn from(status: tonic::Status) -> Self {
        CallError::Status(status)
    }
}

/// A method a router serves: made by generated routes for a tonic service
/// and by the gateway for an upstream server's methods.
pub trait Method: Send + Sync + 'static {
    /// How the method streams.
    fn streaming(&self) -> Streaming;

    /// Makes the request from `call`'s documents, calls the method and
    /// writes its answer.
    fn call(&self, call: Call) -> BoxFuture<'static, Result<Answer, CallError>>;
}

/// The status of an answer that cannot be written as ProtoJSON (a
/// `Timestamp` out of range, an `Any` of an unknown type).
pub fn unwritable(error: Error) -> tonic::Status {
    tonic::Status::internal(format!("the answer cannot be written as JSON: {error}"))
}
