//! Generates the prost structs and their ProtoJSON impls for the conformance
//! protocol and the test messages (vendored in `proto/`, see `proto/README.md`).
//! Writes `conformance.rs` and one file per test message package into
//! OUT_DIR (proto2, proto3, and their editions copies), and the descriptors
//! of the test messages (`test_messages.fds`) for the dynamic testee. The
//! editions files are read by the protoc of the `vendored-protoc` feature.

const TEST_MESSAGES: [&str; 5] = [
    "proto/google/protobuf/test_messages_proto3.proto",
    "proto/google/protobuf/test_messages_proto2.proto",
    "proto/google/protobuf/test_messages_proto3_editions.proto",
    "proto/google/protobuf/test_messages_proto2_editions.proto",
    "proto/google/protobuf/test_messages_edition2023.proto",
];

fn main() {
    println!("cargo:rerun-if-changed=proto");
    let mut builder = protoc_gen_rust_protojsonx::Builder::new();
    builder.include("proto");
    builder
        .compile(&[&["proto/conformance/conformance.proto"][..], &TEST_MESSAGES].concat())
        .expect("generate conformance types");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set"));
    let fds = out.join("test_messages.fds");
    // protoc's own descriptors, editions files as they are: the dynamic
    // testee's Pool reads them as users' `protoc -o` sets.
    let status = std::process::Command::new(
        protoc_bin_vendored::protoc_bin_path().expect("the vendored protoc"),
    )
    .args(["--proto_path=proto", "--include_imports"])
    .arg(format!("--descriptor_set_out={}", fds.display()))
    .args(TEST_MESSAGES)
    .status()
    .expect("run protoc");
    assert!(status.success(), "protoc failed on the test messages");
}
