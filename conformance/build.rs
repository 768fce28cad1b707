//! Generates the prost structs and their ProtoJSON impls for the conformance
//! protocol and the test messages (vendored in `proto/`, see `proto/README.md`).
//! Writes `conformance.rs`, `protobuf_test_messages.proto3.rs` and
//! `protobuf_test_messages.proto2.rs` into OUT_DIR, and the descriptors of
//! the test messages (`test_messages.fds`) for the dynamic testee.

use prost::Message;

const TEST_MESSAGES: [&str; 2] = [
    "proto/google/protobuf/test_messages_proto3.proto",
    "proto/google/protobuf/test_messages_proto2.proto",
];

fn main() {
    println!("cargo:rerun-if-changed=proto");
    let mut builder = protoc_gen_rust_protojsonx::Builder::new();
    builder.include("proto");
    builder
        .compile(&[&["proto/conformance/conformance.proto"][..], &TEST_MESSAGES].concat())
        .expect("generate conformance types");
    let (set, _) = builder
        .file_descriptor_set(&TEST_MESSAGES)
        .expect("parse the test messages");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set"));
    std::fs::write(out.join("test_messages.fds"), set.encode_to_vec())
        .expect("write the test messages' descriptors");
}
