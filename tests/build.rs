//! Generates structs and JSON code for the test protos, the way a user's
//! build.rs would: most packages with default settings, `variants` with
//! BTreeMap, Bytes and boxing switched on, `compiled` with the well-known
//! types compiled into the crate (written as google.protobuf.rs).

use protoc_gen_rust_protojsonx::Builder;

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
        .configure(|c| {
            c.btree_map(".")
                .bytes(".")
                .boxed(".protojsonx.variants.Variants.boxed");
        })
        .compile(&["proto/protojsonx/variants/variants.proto"])?;
    Builder::new()
        .include("proto")
        .configure(|c| {
            c.compile_well_known_types();
        })
        .compile(&["proto/protojsonx/compiled/compiled.proto"])
}
