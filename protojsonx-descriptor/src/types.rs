//! The messages of protoc's current `google/protobuf/descriptor.proto`,
//! `api.proto`, `type.proto` and `source_context.proto` (checked in under
//! `types/proto/`), as prost-build makes them, with their ProtoJSON. Their
//! documentation is those files'. Unlike prost-types' copies (protobuf
//! 3.19's), they hold every field of the current schema: `edition`,
//! `features`, `visibility`, ...
#![allow(missing_docs, clippy::all)]

include!("types/google.protobuf.rs");
include!("types/google.protobuf.protojsonx.rs");

/// The messages of `google/protobuf/compiler/plugin.proto`: what protoc and
/// buf send a plugin and what it answers.
pub mod compiler {
    include!("types/google.protobuf.compiler.rs");
    include!("types/google.protobuf.compiler.protojsonx.rs");
}

/// The `.proto` files the types are made from, under `types/proto/`.
pub const PROTO_FILES: [&str; 5] = [
    "google/protobuf/descriptor.proto",
    "google/protobuf/api.proto",
    "google/protobuf/type.proto",
    "google/protobuf/source_context.proto",
    "google/protobuf/compiler/plugin.proto",
];
