//! Compiles the test service (proto/shop/v1/shop.proto; googleapis' HTTP
//! annotations from protojsonx-transcode's proto/): the structs, the tonic
//! server and client (binary protobuf: the gateway's upstream), their
//! ProtoJSON with the generated HTTP routes, and the descriptor set with
//! its imports (what the gateway is given).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR")?);
    let (fds, _) = protoc_gen_rust_protojsonx::Builder::new()
        .include("proto")
        .include("../proto")
        .file_descriptor_set(&["proto/shop/v1/shop.proto"])?;
    // protox's own encoding keeps the methods' google.api.http options,
    // which prost-types' MethodOptions would drop.
    let set = protox::Compiler::new(["proto", "../proto"])?
        .include_imports(true)
        .open_file("shop/v1/shop.proto")?
        .encode_file_descriptor_set();
    std::fs::write(out_dir.join("shop.binpb"), set)?;
    tonic_prost_build::configure()
        .extern_path(".google.api", "::protojsonx_transcode::types::api")
        .compile_fds(fds.clone())?;
    protoc_gen_rust_protojsonx::Builder::new()
        .include("proto")
        .include("../proto")
        .configure(|c| {
            c.json_only()
                .http_routes()
                .extern_path(".google.api", "::protojsonx_transcode::types::api");
        })
        .compile(&["proto/shop/v1/shop.proto"])?;
    Ok(())
}
