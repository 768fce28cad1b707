//! What generated routes call: not a public API. Every item here is named
//! by code the generator writes, so changing any of them means changing the
//! generator with it (both are released together).

use std::borrow::Cow;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;

use futures_util::future::{BoxFuture, ready};
use futures_util::{Stream, StreamExt};
use protojsonx_runtime::{EncodeOptions, ProtoJson};

use crate::answer::generated_status_json;
use crate::method::{Answer, Call, CallError, Method, Streaming, unwritable};
use crate::router::{Options, Router, RouterBuilder};
use crate::rule::{Binding, Body};
use crate::schema::{Cardinality, EnumDefault, FieldKind, Schema, SchemaField, SchemaMessage};

/// A message of a generated schema table.
pub const fn message(full_name: &'static str, fields: &'static [SchemaField]) -> SchemaMessage {
    SchemaMessage {
        full_name: Cow::Borrowed(full_name),
        fields: Cow::Borrowed(fields),
    }
}

/// A field of a generated schema table.
pub const fn field(
    name: &'static str,
    json_name: &'static str,
    kind: FieldKind,
    cardinality: Cardinality,
) -> SchemaField {
    SchemaField {
        name: Cow::Borrowed(name),
        json_name: Cow::Borrowed(json_name),
        kind,
        cardinality,
    }
}

/// The kind of an enum field whose default value is `name` = `number`.
pub const fn enumeration(name: &'static str, number: i32) -> FieldKind {
    FieldKind::Enum {
        default: Some(EnumDefault {
            name: Cow::Borrowed(name),
            number,
        }),
    }
}

/// One binding of a rule: `body` and `response_body` as the rule spells
/// them (`""` for none).
pub fn binding(method: &str, path: &str, body: &str, response_body: &str) -> Binding {
    Binding {
        method: method.to_owned(),
        path: path.to_owned(),
        body: match body {
            "" => Body::None,
            "*" => Body::Whole,
            field => Body::Field(field.to_owned()),
        },
        response_body: Some(response_body.to_owned()).filter(|f| !f.is_empty()),
    }
}

/// The routes of one service as generated code adds them.
pub struct Routes {
    builder: RouterBuilder,
}

impl Routes {
    /// Routes of the messages in `schema`, served with `options`.
    pub fn new(schema: &'static [SchemaMessage], options: Options) -> Routes {
        let mut builder = RouterBuilder::new(Schema::new(schema), Arc::new(generated_status_json));
        builder.options(options);
        Routes { builder }
    }

    /// Serves the bindings of a unary method by calling `call`.
    pub fn unary<Req, Resp, F, Fut>(
        &mut self,
        name: &str,
        types: [&str; 2],
        bindings: &[Binding],
        call: F,
    ) where
        Req: ProtoJson + Send + 'static,
        Resp: ProtoJson + Send + 'static,
        F: Fn(tonic::Request<Req>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<tonic::Response<Resp>, tonic::Status>> + Send + 'static,
    {
        let method = Unary {
            call,
            types: PhantomData,
        };
        self.add(name, types, bindings, Arc::new(method));
    }

    /// Serves the bindings of a server-streaming method by calling `call`.
    pub fn server_streaming<Req, Resp, St, F, Fut>(
        &mut self,
        name: &str,
        types: [&str; 2],
        bindings: &[Binding],
        call: F,
    ) where
        Req: ProtoJson + Send + 'static,
        Resp: ProtoJson + Send + 'static,
        St: Stream<Item = Result<Resp, tonic::Status>> + Send + 'static,
        F: Fn(tonic::Request<Req>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<tonic::Response<St>, tonic::Status>> + Send + 'static,
    {
        let method = ServerStreaming {
            call,
            types: PhantomData,
        };
        self.add(name, types, bindings, Arc::new(method));
    }

    /// The bindings of a method that streams requests, which HTTP/JSON does
    /// not serve: the router answers them with `501 Not Implemented`.
    pub fn request_streaming(&mut self, name: &str, types: [&str; 2], bindings: &[Binding]) {
        self.add(name, types, bindings, Arc::new(RequestStreaming));
    }

    fn add(
        &mut self,
        name: &str,
        [request, response]: [&str; 2],
        bindings: &[Binding],
        method: Arc<dyn Method>,
    ) {
        for binding in bindings {
            if let Err(e) = self
                .builder
                .route(name, binding, request, response, method.clone())
            {
                panic!("generated routes: {e}");
            }
        }
    }

    /// The router.
    pub fn build(self) -> Router {
        self.builder.build()
    }
}

/// The request of `call`: its documents merged into `Req`'s default, with
/// the call's metadata and extensions.
fn request<Req: ProtoJson>(call: Call) -> Result<tonic::Request<Req>, CallError> {
    let mut message = Req::default();
    for (document, json) in call.documents.iter().enumerate() {
        call.decode
            .merge(&mut message, json)
            .map_err(|error| CallError::Decode { document, error })?;
    }
    Ok(tonic::Request::from_parts(
        call.metadata,
        call.extensions,
        message,
    ))
}

/// Calls `method` with the request `call`'s documents make, then `answer`
/// with its response and the encode options: the part every in-process
/// method shares.
fn call_with<Req, R, Fut>(
    call: Call,
    method: &impl Fn(tonic::Request<Req>) -> Fut,
    answer: impl FnOnce(tonic::Response<R>, EncodeOptions) -> Result<Answer, CallError> + Send + 'static,
) -> BoxFuture<'static, Result<Answer, CallError>>
where
    Req: ProtoJson,
    Fut: Future<Output = Result<tonic::Response<R>, tonic::Status>> + Send + 'static,
{
    let encode = call.encode;
    let called = match request(call) {
        Ok(request) => method(request),
        Err(error) => return Box::pin(ready(Err(error))),
    };
    Box::pin(async move { answer(called.await?, encode) })
}

struct Unary<F, Req, Resp> {
    call: F,
    types: PhantomData<fn(Req) -> Resp>,
}

impl<Req, Resp, F, Fut> Method for Unary<F, Req, Resp>
where
    Req: ProtoJson + Send + 'static,
    Resp: ProtoJson + Send + 'static,
    F: Fn(tonic::Request<Req>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<tonic::Response<Resp>, tonic::Status>> + Send + 'static,
{
    fn streaming(&self) -> Streaming {
        Streaming::Unary
    }

    fn call(&self, call: Call) -> BoxFuture<'static, Result<Answer, CallError>> {
        call_with(call, &self.call, |response, encode| {
            let (metadata, message, _) = response.into_parts();
            let json = encode.to_vec(&message).map_err(unwritable)?;
            Ok(Answer::Message { json, metadata })
        })
    }
}

struct ServerStreaming<F, Req, Resp> {
    call: F,
    types: PhantomData<fn(Req) -> Resp>,
}

impl<Req, Resp, St, F, Fut> Method for ServerStreaming<F, Req, Resp>
where
    Req: ProtoJson + Send + 'static,
    Resp: ProtoJson + Send + 'static,
    St: Stream<Item = Result<Resp, tonic::Status>> + Send + 'static,
    F: Fn(tonic::Request<Req>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<tonic::Response<St>, tonic::Status>> + Send + 'static,
{
    fn streaming(&self) -> Streaming {
        Streaming::Server
    }

    fn call(&self, call: Call) -> BoxFuture<'static, Result<Answer, CallError>> {
        call_with(call, &self.call, |response, encode| {
            let (metadata, items, _) = response.into_parts();
            let items = items
                .map(move |item| {
                    item.and_then(|message| encode.to_vec(&message).map_err(unwritable))
                })
                .boxed();
            Ok(Answer::Stream { items, metadata })
        })
    }
}

/// A method that streams requests: the router refuses its bindings before
/// any call, so `call` only answers for completeness.
struct RequestStreaming;

impl Method for RequestStreaming {
    fn streaming(&self) -> Streaming {
        Streaming::Client
    }

    fn call(&self, _: Call) -> BoxFuture<'static, Result<Answer, CallError>> {
        Box::pin(ready(Err(CallError::Status(tonic::Status::unimplemented(
            "HTTP/JSON does not serve methods that stream requests",
        )))))
    }
}
