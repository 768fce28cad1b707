//! The runtime's ProtoJSON code for the plain prost-types messages
//! (`protojsonx-runtime/src/wkt/plain/`) is this generator's output for the
//! `.proto` files beside it. This test regenerates it and fails when the
//! checked-in copy differs; bless a change on purpose with
//!
//! ```text
//! PROTOJSONX_BLESS=1 cargo test -p protoc-gen-rust-protojsonx --test prost_types
//! ```

use std::path::Path;

#[test]
fn the_runtime_carries_fresh_prost_types_code() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../protojsonx-runtime/src/wkt/plain");
    let files = protoc_gen_rust_protojsonx::prost_types_json(&dir.join("proto")).unwrap();
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "google.protobuf.protojsonx.rs",
            "google.protobuf.compiler.protojsonx.rs"
        ]
    );
    for file in &files {
        let path = dir.join(&file.name);
        if std::env::var_os("PROTOJSONX_BLESS").is_some() {
            std::fs::write(&path, &file.content).unwrap();
            continue;
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            checked_in == file.content,
            "{} is stale; review and bless with PROTOJSONX_BLESS=1",
            path.display()
        );
    }
}
