//! The checked-in descriptor types are what prost-build makes of the
//! checked-in `descriptor.proto`, `api.proto`, `type.proto`,
//! `source_context.proto` and `plugin.proto` (protoc's current ones).
//! `PROTOJSONX_BLESS=1 cargo test -p protojsonx-descriptor --test generated`
//! rewrites them after the `.proto` files were updated on purpose.

use std::path::Path;

#[test]
fn checked_in_types_are_prost_builds_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/types");
    let out = tempdir();
    prost_build::Config::new()
        .protoc_executable(protoc_bin_vendored::protoc_bin_path().unwrap())
        .compile_well_known_types()
        // `Any` keeps its special JSON form: prost-types' own.
        .extern_path(".google.protobuf.Any", "::prost_types::Any")
        .disable_comments(["."])
        .out_dir(&out)
        .compile_protos(
            &protojsonx_descriptor::types::PROTO_FILES,
            &[root.join("proto")],
        )
        .unwrap();
    let bless = std::env::var_os("PROTOJSONX_BLESS").is_some();
    for name in ["google.protobuf.rs", "google.protobuf.compiler.rs"] {
        let made = std::fs::read_to_string(out.join(name)).unwrap();
        let path = root.join(name);
        if bless {
            std::fs::write(&path, &made).unwrap();
        } else {
            let kept = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                kept == made,
                "{} is not prost-build's output for the checked-in .proto files: \
                 rerun with PROTOJSONX_BLESS=1 if they changed on purpose",
                path.display()
            );
        }
    }
}

/// A fresh directory under the target's temporary directory.
fn tempdir() -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("descriptor-types");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
