//! gRPC with ProtoJSON messages for [tonic]: a [`Codec`](tonic::codec::Codec)
//! that frames each message as the protobuf JSON mapping (encoded and decoded
//! by [protojsonx]) instead of the protobuf binary format.
//!
//! # Use
//!
//! Generate the service with tonic-prost-build, naming this codec, and the
//! messages' JSON code with protojsonx's `Builder` (`json_only`: the structs
//! are prost's, made by tonic-prost-build). Both read the same descriptors,
//! parsed without `protoc`:
//!
//! ```ignore
//! // build.rs ([build-dependencies] tonic-prost-build, protoc-gen-rust-protojsonx)
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let (fds, files) = protoc_gen_rust_protojsonx::Builder::new()
//!         .include("proto")
//!         .file_descriptor_set(&["proto/greet/v1/greet.proto"])?;
//!     tonic_prost_build::configure()
//!         .codec_path("protojsonx_tonic::ProtoJsonCodec")
//!         .compile_fds(fds.clone())?;
//!     protoc_gen_rust_protojsonx::Builder::new()
//!         .configure(|c| {
//!             c.json_only();
//!         })
//!         .compile_fds(fds, &files)?;
//!     Ok(())
//! }
//!
//! // src/lib.rs
//! pub mod greet {
//!     include!(concat!(env!("OUT_DIR"), "/greet.v1.rs"));
//!     include!(concat!(env!("OUT_DIR"), "/greet.v1.protojsonx.rs"));
//! }
//! ```
//!
//! The generated clients and servers are used as always; only the bytes in
//! the frames change. (This crate's own tests compile such a service in its
//! build.rs and call it over TCP.)
//!
//! # Options
//!
//! Generated code makes the codec with `ProtoJsonCodec::default()`, so the
//! options are chosen by type: implement [`CodecOptions`] and name an alias
//! in `codec_path`:
//!
//! ```
//! use protojsonx_runtime::EncodeOptions;
//! use protojsonx_tonic::{CodecOptions, ProtoJsonCodec};
//!
//! pub struct WithDefaults;
//!
//! impl CodecOptions for WithDefaults {
//!     fn encode_options() -> EncodeOptions {
//!         EncodeOptions::new().emit_unpopulated(true)
//!     }
//! }
//!
//! // tonic_prost_build::configure().codec_path("crate::JsonCodec")
//! pub type JsonCodec<T, U> = ProtoJsonCodec<T, U, WithDefaults>;
//! ```
//!
//! # Errors
//!
//! A message that does not decode is answered with `INVALID_ARGUMENT`, whose
//! message names the field path, line and column: for
//! `{"person": {"name": "Ada", "verified": "yes"}}` it is
//! ``invalid ProtoJSON message: expected bool, found string at `person.verified` (line 1, column 40)``.
//! (On a client, a response that does not decode gives the same status.) A
//! message that cannot be written as ProtoJSON, such as a `Timestamp` out of
//! range, is `INTERNAL`.
//!
//! # Content type: tonic says `application/grpc`
//!
//! gRPC names the message format in the content subtype:
//! `application/grpc+proto`, `application/grpc+json`; a bare
//! `application/grpc` means protobuf binary. tonic sends
//! `content-type: application/grpc` on every request and response, whatever
//! the codec: in tonic 0.14 the value is the constant `GRPC_CONTENT_TYPE`
//! (`tonic/src/metadata/mod.rs`), inserted by the client on each request
//! (`tonic/src/client/grpc.rs`), by the server on each response
//! (`tonic/src/server/grpc.rs`) and on error answers (`tonic/src/status.rs`),
//! and `content-type` is a reserved header that `MetadataMap` does not let
//! through (`tonic/src/metadata/map.rs`). tonic does not read the request's
//! content type either: a tonic server decodes with the codec its generated
//! code names.
//!
//! Between tonic peers that is harmless: both sides use this codec. With
//! peers that pick the codec from the content subtype, it matters. grpc-go
//! does (`Server.getCodec` in `server.go`): unless the server is built with
//! `grpc.ForceServerCodec`, a bare `application/grpc` selects its `proto`
//! codec, so a grpc-go server reads our JSON as binary protobuf and fails the
//! call (`INTERNAL`, "error unmarshalling request"). The other way round
//! works: a grpc-go client calling with `grpc.CallContentSubtype("json")` (a
//! codec named `json` registered with `encoding.RegisterCodec`) sends
//! `application/grpc+json`, which a tonic server with this codec answers; the
//! client accepts the answer's `application/grpc` and decodes it with the
//! call's codec.
//!
//! What to do for grpc-go servers, or any peer that routes on the subtype:
//!
//! - wrap the client's channel in [`JsonContentTypeLayer`], which relabels
//!   `application/grpc` as `application/grpc+json` (and, on a server,
//!   relabels the responses: `Server::builder().layer(JsonContentTypeLayer::new())`),
//!   and register a ProtoJSON codec named `json` in the grpc-go program;
//! - or build the grpc-go server with `grpc.ForceServerCodec` and a JSON
//!   codec, when all its clients speak JSON.
//!
//! To serve binary and JSON clients on the same method paths, generate the
//! service twice (the JSON one into another `out_dir`, with `extern_path`
//! pointing at the first one's messages) and route on the request's content
//! type; the `examples/tonic-service` crate of the repository does this.
//!
//! # Cost
//!
//! Each message is encoded into a buffer the encoder keeps for the call
//! (sized once from the runtime's per-type hint, reused by every message of
//! a stream) and copied once into tonic's frame buffer: the runtime writes
//! into a `Vec<u8>`, and tonic's `EncodeBuf` cannot lend one. Decoding reads
//! the frame in place.
//!
//! [tonic]: https://docs.rs/tonic
//! [protojsonx]: https://github.com/protojsonx/protojsonx-rs

mod codec;
mod content_type;

pub use codec::{CodecOptions, DefaultOptions, ProtoJsonCodec, ProtoJsonDecoder, ProtoJsonEncoder};
pub use content_type::{GRPC_JSON, JsonContentType, JsonContentTypeLayer, ResponseFuture};
