//! Generates the transcode target's service: the shop test service of
//! protojsonx-transcode's end-to-end tests
//! (protojsonx-transcode/e2e/proto/shop/v1/shop.proto), as that
//! crate's own build script does for its tests (prost structs and tonic's
//! server trait, then their ProtoJSON with the generated HTTP routes). The
//! crate's generated code lives in its OUT_DIR, which this crate cannot
//! read, so it is generated again here.

use std::error::Error;

const INCLUDES: [&str; 2] = [
    "../protojsonx-transcode/e2e/proto",
    "../protojsonx-transcode/proto",
];
const SHOP: &str = "../protojsonx-transcode/e2e/proto/shop/v1/shop.proto";

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo:rerun-if-changed={SHOP}");
    let mut builder = protoc_gen_rust_protojsonx::Builder::new();
    for dir in INCLUDES {
        builder.include(dir);
    }
    let (set, _) = builder.file_descriptor_set(&[SHOP])?;
    tonic_prost_build::configure()
        .build_client(false)
        .extern_path(".google.api", "::protojsonx_transcode::types::api")
        .compile_fds(set)?;
    builder
        .configure(|c| {
            c.json_only()
                .http_routes()
                .extern_path(".google.api", "::protojsonx_transcode::types::api");
        })
        .compile(&[SHOP])?;
    Ok(())
}
