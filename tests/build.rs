//! Generates structs and JSON code for the test protos, the way a user's
//! build.rs would: most packages with default settings, `variants` with
//! BTreeMap, Bytes and boxing switched on, `compiled` with the well-known
//! types compiled into the crate (written as google.protobuf.rs), and
//! `editions` (an `edition = "2023"` file) through the vendored protoc, and
//! `current` with protojsonx-descriptor's descriptor types.
//!
//! `variants` is generated a second time into `split/` the way a build
//! script that runs prost-build itself (tonic-prost-build) does: the structs
//! by prost-build from [`Builder::prost_build_config`], with a type attribute
//! added through [`Builder::prost_config`], and the JSON code beside them
//! (`json_only`).

use protoc_gen_rust_protojsonx::{Builder, Config};

const VARIANTS: &str = "proto/protojsonx/variants/variants.proto";

fn main() -> std::io::Result<()> {
    Builder::new().include("proto").compile(&[
        "proto/protojsonx/test/scalars.proto",
        "proto/protojsonx/test/well_known.proto",
        "proto/protojsonx/other/other.proto",
        "proto/protojsonx/names/names.proto",
        "proto/protojsonx/legacy/legacy.proto",
    ])?;
    Builder::new()
        .include("proto")
        .configure(variants)
        .compile(&[VARIANTS])?;
    split_variants()?;
    Builder::new()
        .include("proto")
        .configure(|c| {
            c.compile_well_known_types();
        })
        .compile(&["proto/protojsonx/compiled/compiled.proto"])?;
    // Read by the protoc of the `vendored-protoc` feature.
    Builder::new()
        .include("proto")
        .compile(&["proto/protojsonx/editions/editions.proto"])?;
    Builder::new()
        .include("proto")
        .configure(|c| {
            c.current_descriptor_types();
        })
        .compile(&["proto/protojsonx/current/current.proto"])
}

/// The settings of package `variants`, which change its Rust types.
fn variants(c: &mut Config) {
    c.btree_map(".")
        .bytes(".")
        .boxed(".protojsonx.variants.Variants.boxed");
}

/// `variants` into `OUT_DIR/split`: structs by prost-build, JSON code by protojsonx.
fn split_variants() -> std::io::Result<()> {
    let dir = std::path::PathBuf::from(std::env::var_os("OUT_DIR").unwrap()).join("split");
    std::fs::create_dir_all(&dir)?;
    let mut builder = Builder::new();
    builder
        .include("proto")
        .out_dir(&dir)
        .configure(variants)
        .prost_config(|c| {
            c.type_attribute(".protojsonx.variants.Variants", "#[derive(PartialOrd)]");
        });
    let (fds, to_generate) = builder.file_descriptor_set(&[VARIANTS])?;
    builder
        .prost_build_config()
        .out_dir(&dir)
        .compile_fds(fds.clone())?;
    builder
        .configure(|c| {
            c.json_only();
        })
        .compile_fds(fds, &to_generate)
}
