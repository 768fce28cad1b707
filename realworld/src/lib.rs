//! The real-world slice (`slice.txt`: googleapis and OpenTelemetry) compiled
//! by protojsonx's build.rs `Builder`: prost structs with their ProtoJSON
//! code, nested by package through the generated module tree, and the
//! descriptors the driver hands to the Python side.

// The generated tree: `google::pubsub::v1::PubsubMessage`,
// `opentelemetry::proto::trace::v1::Span`, ..., and
// `register_all_protojsonx_types()`.
include!(concat!(env!("OUT_DIR"), "/mod.rs"));

/// The encoded `FileDescriptorSet` of the slice and everything it imports,
/// as `Builder::file_descriptor_set` made it.
pub const DESCRIPTORS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/descriptors.bin"));

/// The slice's own files, as the descriptors name them, one a line.
pub const FILES: &str = include_str!(concat!(env!("OUT_DIR"), "/files.txt"));

/// The encoded `FileDescriptorSet` of the google.protobuf files as the
/// runtime's prost-types impls have them (protobuf 3.19's schema).
pub const RUNTIME_TYPES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/runtime-types.bin"));
