//! tonic-prost-build writes the structs and the gRPC server
//! (`inventory.v1.rs`), protojsonx only their ProtoJSON code
//! (`inventory.v1.protojsonx.rs`, `json_only`). Both get the same
//! descriptors, parsed by protobuf-parse: no `protoc` needed.

use prost::Message;

const PROTO: &str = "proto/inventory/v1/inventory.proto";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let parsed = protobuf_parse::Parser::new()
        .pure()
        .include("proto")
        .input(PROTO)
        .parse_and_typecheck()?;
    let mut set = protobuf::descriptor::FileDescriptorSet::new();
    set.file = parsed.file_descriptors;
    let fds = prost_types::FileDescriptorSet::decode(
        protobuf::Message::write_to_bytes(&set)?.as_slice(),
    )?;
    println!("cargo:rerun-if-changed={PROTO}");
    tonic_prost_build::configure()
        .build_client(false)
        .compile_fds(fds.clone())?;
    protoc_gen_rust_protojsonx::Builder::new()
        .configure(|c| {
            c.json_only();
        })
        .compile_fds(fds, &["inventory/v1/inventory.proto".to_string()])?;
    Ok(())
}
