//! The gateway: HTTP/JSON in front of any gRPC server, from the server's
//! descriptors alone. Each method with a `google.api.http` rule is served by
//! transcoding with `protojsonx-dynamic` (JSON to binary and back) and
//! forwarding the binary request over HTTP/2. It keeps no state between
//! requests, so any number of copies can run behind a load balancer.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use bytes::{Buf, BufMut};
use futures_util::future::BoxFuture;
use futures_util::{StreamExt, TryStreamExt};
use prost::Message;
use prost_reflect::{Kind, MessageDescriptor, MethodDescriptor};
use protojsonx_dynamic::{MessageType, Pool};
use protojsonx_runtime::EncodeOptions;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::transport::Channel;

use crate::answer::StatusJson;
use crate::method::{Answer, Call, CallError, Method, Streaming, unwritable};
use crate::router::{Options, Router, RouterBuilder};
use crate::rule;
use crate::schema::{Cardinality, EnumDefault, FieldKind, Schema, SchemaField, SchemaMessage};
use crate::types::{api, rpc};

/// Why a gateway cannot serve a descriptor set.
#[derive(Debug)]
pub struct GatewayError {
    message: String,
}

impl std::fmt::Display for GatewayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for GatewayError {}

/// A router that serves every method of `pool` with a `google.api.http`
/// rule by forwarding it to the gRPC server behind `channel`. The pool must
/// hold `google/api/annotations.proto` (a descriptor set written with its
/// imports does), or no method has a rule.
pub fn router(pool: &Pool, channel: Channel, options: Options) -> Result<Router, GatewayError> {
    let methods = rules(pool)?;
    let roots = methods
        .iter()
        .flat_map(|(method, _)| [method.input(), method.output()]);
    let schema = schema(roots);
    let mut builder = RouterBuilder::new(schema, status_json(pool)?);
    builder.options(options);
    for (method, rule) in &methods {
        let name = format!("/{}/{}", method.parent_service().full_name(), method.name());
        let fail = |why: String| GatewayError {
            message: format!("{name}: {why}"),
        };
        let forward = Arc::new(Forward {
            path: name
                .parse()
                .map_err(|_| fail("not a valid gRPC path".into()))?,
            request: message_type(pool, &method.input()).map_err(fail)?,
            response: message_type(pool, &method.output()).map_err(fail)?,
            streaming: streaming(method),
            channel: channel.clone(),
        });
        for binding in rule::bindings(rule).map_err(|e| fail(e.to_string()))? {
            builder
                .route(
                    &name,
                    &binding,
                    method.input().full_name(),
                    method.output().full_name(),
                    forward.clone(),
                )
                .map_err(|e| GatewayError {
                    message: e.to_string(),
                })?;
        }
    }
    Ok(builder.build())
}

/// The bindings [`router`] serves for `pool`, each with its method's gRPC
/// path (`/shop.v1.Shop/GetItem`): to tell what a gateway serves.
pub fn bindings(pool: &Pool) -> Result<Vec<(String, rule::Binding)>, GatewayError> {
    let mut out = Vec::new();
    for (method, rule) in rules(pool)? {
        let name = format!("/{}/{}", method.parent_service().full_name(), method.name());
        let bindings = rule::bindings(&rule).map_err(|e| GatewayError {
            message: format!("{name}: {e}"),
        })?;
        out.extend(bindings.into_iter().map(|binding| (name.clone(), binding)));
    }
    Ok(out)
}

/// Every method of `pool` with a `google.api.http` rule, and its rule.
fn rules(pool: &Pool) -> Result<Vec<(MethodDescriptor, api::HttpRule)>, GatewayError> {
    let descriptors = pool.descriptors();
    let http = descriptors
        .get_extension_by_name("google.api.http")
        .ok_or_else(|| GatewayError {
            message: "the descriptors do not define google.api.http: \
                      include google/api/annotations.proto (write the set with its imports)"
                .into(),
        })?;
    let methods: Vec<(MethodDescriptor, api::HttpRule)> = descriptors
        .services()
        .flat_map(|service| service.methods().collect::<Vec<_>>())
        .filter_map(|method| {
            let options = method.options();
            if !options.has_extension(&http) {
                return None;
            }
            let value = options.get_extension(&http);
            let rule = value.as_message()?.encode_to_vec();
            Some((
                method,
                api::HttpRule::decode(rule.as_slice()).unwrap_or_default(),
            ))
        })
        .collect();
    if methods.is_empty() {
        return Err(GatewayError {
            message: "no method of the descriptors has a google.api.http rule".into(),
        });
    }
    Ok(methods)
}

fn message_type(pool: &Pool, message: &MessageDescriptor) -> Result<MessageType, String> {
    pool.message(message.full_name())
        .ok_or_else(|| format!("the pool has no message {}", message.full_name()))
}

fn streaming(method: &MethodDescriptor) -> Streaming {
    match (method.is_client_streaming(), method.is_server_streaming()) {
        (false, false) => Streaming::Unary,
        (false, true) => Streaming::Server,
        (true, false) => Streaming::Client,
        (true, true) => Streaming::Bidi,
    }
}

/// `google/api/annotations.proto` and `google/api/http.proto`, by import
/// name and text: what `.proto` files with `google.api.http` rules import,
/// for a tool that compiles them where the include path lacks them.
pub const GOOGLE_API_FILES: [(&str, &str); 2] = [
    (
        "google/api/annotations.proto",
        include_str!("../proto/google/api/annotations.proto"),
    ),
    (
        "google/api/http.proto",
        include_str!("../proto/google/api/http.proto"),
    ),
];

/// The descriptors of `google/rpc/status.proto` and `google/protobuf/any.proto`.
const STATUS_DESCRIPTORS: &[u8] = include_bytes!("../proto/status.binpb");

/// Statuses written through `google.rpc.Status` in the pool, so that the
/// details' `Any`s resolve to the upstream's types (the status's files are
/// added to a copy of the pool that lacks them).
fn status_json(pool: &Pool) -> Result<StatusJson, GatewayError> {
    let status_type = match pool.message("google.rpc.Status") {
        Some(found) => found,
        None => with_status(pool)?
            .message("google.rpc.Status")
            .expect("status.binpb defines google.rpc.Status"),
    };
    Ok(Arc::new(
        move |status: &rpc::Status, options: &EncodeOptions| {
            status_type
                .binary_to_json(&status.encode_to_vec(), options)
                .unwrap_or_else(|_| crate::answer::status_without_details(status, options))
        },
    ))
}

/// `pool` with the files of [`STATUS_DESCRIPTORS`] it does not have.
fn with_status(pool: &Pool) -> Result<Pool, GatewayError> {
    let mut descriptors = pool.descriptors().clone();
    let set = prost_types::FileDescriptorSet::decode(STATUS_DESCRIPTORS)
        .expect("status.binpb is a descriptor set");
    let missing: Vec<_> = set
        .file
        .into_iter()
        .filter(|file| descriptors.get_file_by_name(file.name()).is_none())
        .collect();
    descriptors
        .add_file_descriptor_protos(missing)
        .map_err(|e| GatewayError {
            message: format!("adding google/rpc/status.proto to the descriptors: {e}"),
        })?;
    Ok(Pool::from_descriptor_pool(descriptors))
}

/// One method of the upstream server.
struct Forward {
    path: http::uri::PathAndQuery,
    request: MessageType,
    response: MessageType,
    streaming: Streaming,
    channel: Channel,
}

impl Method for Forward {
    fn streaming(&self) -> Streaming {
        self.streaming
    }

    fn call(&self, call: Call) -> BoxFuture<'static, Result<Answer, CallError>> {
        let binary = self.request_binary(&call);
        let path = self.path.clone();
        let response = self.response.clone();
        let streaming = self.streaming;
        let mut grpc = tonic::client::Grpc::new(self.channel.clone());
        Box::pin(async move {
            let mut request = tonic::Request::new(binary?);
            *request.metadata_mut() = call.metadata;
            if let Some(timeout) = call.timeout {
                request.set_timeout(timeout);
            }
            grpc.ready()
                .await
                .map_err(|e| tonic::Status::unavailable(format!("the upstream server: {e}")))?;
            let encode = call.encode;
            if streaming == Streaming::Server {
                let answer = grpc.server_streaming(request, path, RawCodec).await?;
                let (metadata, items, _) = answer.into_parts();
                let items = items
                    .map_err(|status| status)
                    .and_then(move |binary| {
                        let json = response.binary_to_json(&binary, &encode).map_err(|e| {
                            tonic::Status::internal(format!("the upstream's answer: {e}"))
                        });
                        async move { json }
                    })
                    .boxed();
                return Ok(Answer::Stream { items, metadata });
            }
            let answer = grpc.unary(request, path, RawCodec).await?;
            let (metadata, binary, _) = answer.into_parts();
            let json = response
                .binary_to_json(&binary, &encode)
                .map_err(unwritable)?;
            Ok(Answer::Message { json, metadata })
        })
    }
}

impl Forward {
    /// The request in binary: each document transcoded, concatenated (which
    /// merges them, as protobuf's binary format defines).
    fn request_binary(&self, call: &Call) -> Result<Vec<u8>, CallError> {
        let mut binary = Vec::new();
        for (document, json) in call.documents.iter().enumerate() {
            self.request
                .json_to_binary_into(json, &call.decode, &mut binary)
                .map_err(|error| CallError::Decode { document, error })?;
        }
        Ok(binary)
    }
}

/// A tonic codec of messages already in binary.
#[derive(Debug, Clone, Copy, Default)]
struct RawCodec;

impl Codec for RawCodec {
    type Encode = Vec<u8>;
    type Decode = Vec<u8>;
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
    type Item = Vec<u8>;
    type Error = tonic::Status;

    fn encode(&mut self, item: Vec<u8>, dst: &mut EncodeBuf<'_>) -> Result<(), tonic::Status> {
        dst.put_slice(&item);
        Ok(())
    }
}

impl Decoder for RawCodec {
    type Item = Vec<u8>;
    type Error = tonic::Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Vec<u8>>, tonic::Status> {
        let mut item = vec![0; src.remaining()];
        src.copy_to_slice(&mut item);
        Ok(Some(item))
    }
}

/// The schema of every message reachable from `roots`.
fn schema(roots: impl Iterator<Item = MessageDescriptor>) -> Schema {
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut order: Vec<MessageDescriptor> = Vec::new();
    let mut queue: VecDeque<MessageDescriptor> = roots.collect();
    while let Some(message) = queue.pop_front() {
        if index.contains_key(message.full_name()) {
            continue;
        }
        index.insert(message.full_name().to_owned(), order.len());
        for field in message.fields() {
            if let Kind::Message(nested) = field.kind() {
                queue.push_back(nested);
            }
        }
        order.push(message);
    }
    let messages: Vec<SchemaMessage> = order
        .iter()
        .map(|message| SchemaMessage {
            full_name: message.full_name().to_owned().into(),
            fields: message
                .fields()
                .map(|field| SchemaField {
                    name: field.name().to_owned().into(),
                    json_name: field.json_name().to_owned().into(),
                    kind: field_kind(&field.kind(), &index),
                    cardinality: if field.is_map() {
                        Cardinality::Map
                    } else if field.is_list() {
                        Cardinality::Repeated
                    } else {
                        Cardinality::Singular
                    },
                })
                .collect::<Vec<_>>()
                .into(),
        })
        .collect();
    Schema::new(messages)
}

fn field_kind(kind: &Kind, index: &HashMap<String, usize>) -> FieldKind {
    match kind {
        Kind::Bool => FieldKind::Bool,
        Kind::Int64 | Kind::Uint64 | Kind::Sint64 | Kind::Fixed64 | Kind::Sfixed64 => {
            FieldKind::Int64
        }
        Kind::String | Kind::Bytes => FieldKind::Text,
        Kind::Enum(e) if e.full_name() == "google.protobuf.NullValue" => {
            FieldKind::Enum { default: None }
        }
        Kind::Enum(e) => FieldKind::Enum {
            default: Some(EnumDefault {
                name: e.default_value().name().to_owned().into(),
                number: e.default_value().number(),
            }),
        },
        Kind::Message(m) => match crate::schema::well_known(m.full_name()) {
            Some(kind) => kind,
            None => FieldKind::Message(index[m.full_name()]),
        },
        _ => FieldKind::Number,
    }
}

/// The pool of a descriptor set, for [`router`]: its files, lowered as
/// `protojsonx-dynamic` reads them.
pub fn pool(file_descriptor_set: &[u8]) -> Result<Pool, GatewayError> {
    Pool::decode(file_descriptor_set).map_err(|e| GatewayError {
        message: e.to_string(),
    })
}
