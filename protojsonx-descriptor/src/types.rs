//! The messages of protoc's current `google/protobuf/descriptor.proto`
//! (checked in under `types/proto/`), as prost-build makes them. Their
//! documentation is that file's.
#![allow(missing_docs, clippy::all)]

include!("types/google.protobuf.rs");

/// The messages of `google/protobuf/compiler/plugin.proto`: what protoc and
/// buf send a plugin and what it answers.
pub mod compiler {
    include!("types/google.protobuf.compiler.rs");
}
