//! Generates the prost structs and their ProtoJSON impls for the conformance
//! protocol and the test messages (vendored in `proto/`, see `proto/README.md`).
//! Writes `conformance.rs`, `protobuf_test_messages.proto3.rs` and
//! `protobuf_test_messages.proto2.rs` into OUT_DIR.

fn main() {
    println!("cargo:rerun-if-changed=proto");
    protoc_gen_rust_protojsonx::Builder::new()
        .include("proto")
        .compile(&[
            "proto/conformance/conformance.proto",
            "proto/google/protobuf/test_messages_proto3.proto",
            "proto/google/protobuf/test_messages_proto2.proto",
        ])
        .expect("generate conformance types");
}
