//! protojsonx-transcode's checked-in `google.api` and `google.rpc` types
//! (`protojsonx-transcode/src/types/*.rs`) are this generator's output (prost structs and their
//! ProtoJSON) for the checked-in `.proto` files under `proto/`. This test
//! regenerates them and fails when a checked-in copy differs; bless a
//! change on purpose with
//!
//! ```text
//! PROTOJSONX_BLESS=1 cargo test -p protoc-gen-rust-protojsonx --test transcode_types
//! ```

mod support;

use std::path::Path;

use protoc_gen_rust_protojsonx::Builder;

#[test]
fn checked_in_types_are_the_generators_output() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../protojsonx-transcode");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("transcode-types");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let root = crate_dir.join("proto");
    let protos = [
        "google/api/http.proto",
        "google/rpc/code.proto",
        "google/rpc/status.proto",
        "google/rpc/error_details.proto",
    ]
    .map(|file| root.join(file));
    Builder::new()
        .include(&root)
        .out_dir(&out)
        // googleapis' comments hold examples in other languages, which
        // rustdoc would run as Rust doctests.
        .prost_config(|c| {
            c.disable_comments(["."]);
        })
        .compile(&protos)
        .unwrap();
    let types = crate_dir.join("src/types");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in &names {
        let made = std::fs::read(out.join(name)).unwrap();
        support::fresh_or_blessed(&types.join(name), &made);
    }
    assert!(!names.is_empty());
}

/// `proto/status.binpb`, the descriptors of `google/rpc/status.proto` and
/// its import `google/protobuf/any.proto` that the gateway adds to pools
/// without them, is protox's encoding of the checked-in file.
#[test]
fn checked_in_status_descriptors_are_fresh() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../protojsonx-transcode");
    let made = protox::Compiler::new([crate_dir.join("proto")])
        .unwrap()
        .include_imports(true)
        .open_file("google/rpc/status.proto")
        .unwrap()
        .encode_file_descriptor_set();
    support::fresh_or_blessed(&crate_dir.join("proto/status.binpb"), &made);
}
