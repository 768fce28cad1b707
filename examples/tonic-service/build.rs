//! tonic-prost-build writes the structs and the gRPC server
//! (`inventory.v1.rs`), protojsonx only their ProtoJSON code
//! (`inventory.v1.protojsonx.rs`, `json_only`). Both get the same
//! descriptors, parsed by protojsonx's Builder: no `protoc` needed.

const PROTO: &str = "proto/inventory/v1/inventory.proto";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (fds, to_generate) = protoc_gen_rust_protojsonx::Builder::new()
        .include("proto")
        .file_descriptor_set(&[PROTO])?;
    tonic_prost_build::configure()
        .build_client(false)
        .compile_fds(fds.clone())?;
    protoc_gen_rust_protojsonx::Builder::new()
        .configure(|c| {
            c.json_only();
        })
        .compile_fds(fds, &to_generate)?;
    Ok(())
}
