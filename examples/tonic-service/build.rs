//! tonic-prost-build writes the structs and the gRPC server
//! (`inventory.v1.rs`, protobuf binary), and the same server again with
//! protojsonx-tonic's ProtoJSON codec (`json/inventory.v1.rs`: `codec_path`,
//! the messages are the first file's through `extern_path`); protojsonx
//! writes their ProtoJSON code (`inventory.v1.protojsonx.rs`, `json_only`).
//! All get the same descriptors, parsed by protojsonx's Builder (no
//! `protoc` needed), and tonic-prost-build makes the structs with the
//! builder's prost-build settings (`prost_build_config`), which the JSON
//! code is made with too.

const PROTO: &str = "proto/inventory/v1/inventory.proto";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut protojsonx = protoc_gen_rust_protojsonx::Builder::new();
    protojsonx.include("proto");
    let (fds, to_generate) = protojsonx.file_descriptor_set(&[PROTO])?;
    // The structs with protojsonx's settings (none here beyond the defaults;
    // `configure` would set them for both the structs and the JSON code).
    tonic_prost_build::configure()
        .build_client(false)
        .compile_fds_with_config(fds.clone(), protojsonx.prost_build_config())?;
    let json = std::path::PathBuf::from(std::env::var("OUT_DIR")?).join("json");
    std::fs::create_dir_all(&json)?;
    tonic_prost_build::configure()
        .build_client(false)
        .out_dir(json)
        .extern_path(".inventory.v1", "crate::inventory::v1")
        .codec_path("protojsonx_tonic::ProtoJsonCodec")
        .compile_fds(fds.clone())?;
    protojsonx
        .configure(|c| {
            c.json_only();
        })
        .compile_fds(fds, &to_generate)?;
    Ok(())
}
