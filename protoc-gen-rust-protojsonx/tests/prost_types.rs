//! The runtime's ProtoJSON code for the plain prost-types messages
//! (`protojsonx-runtime/src/wkt/plain/`) is this generator's output for the
//! `.proto` files beside it (what prost-types holds), read as the current
//! schema says (protojsonx-descriptor's copy). This test regenerates it and fails when the
//! checked-in copy differs; bless a change on purpose with
//!
//! ```text
//! PROTOJSONX_BLESS=1 cargo test -p protoc-gen-rust-protojsonx --test prost_types
//! ```

mod support;

use std::path::Path;

#[test]
fn the_runtime_carries_fresh_prost_types_code() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../protojsonx-runtime/src/wkt/plain");
    let files =
        protoc_gen_rust_protojsonx::prost_types_json(&dir.join("proto"), &current()).unwrap();
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "google.protobuf.protojsonx.rs",
            "google.protobuf.compiler.protojsonx.rs"
        ]
    );
    for file in &files {
        support::fresh_or_blessed(&dir.join(&file.name), file.content.as_bytes());
    }
}

/// The current schema: protoc's own files (which protojsonx-descriptor
/// follows), as protoc reads them.
fn current() -> Vec<prost_types::FileDescriptorProto> {
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../protojsonx-descriptor/src/types/proto");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("current-google.binpb");
    let status = std::process::Command::new(protoc_bin_vendored::protoc_bin_path().unwrap())
        .arg(format!("--proto_path={}", root.display()))
        .arg(format!("--descriptor_set_out={}", out.display()))
        .args([
            "google/protobuf/descriptor.proto",
            "google/protobuf/type.proto",
            "google/protobuf/api.proto",
            "google/protobuf/source_context.proto",
            "google/protobuf/compiler/plugin.proto",
            "google/protobuf/any.proto",
        ])
        .status()
        .unwrap();
    assert!(status.success());
    let bytes = std::fs::read(&out).unwrap();
    let set: prost_types::FileDescriptorSet = prost::Message::decode(bytes.as_slice()).unwrap();
    set.file
}
