//! Compiles the test service (tests/proto/shop/v1/shop.proto) for `cargo
//! test` only: the `__test-service` feature, turned on by this crate's
//! dev-dependency on itself, so users of the library build no protos and
//! need none of the generators. Writes the structs, the tonic server and
//! client (binary protobuf: the gateway's upstream), their ProtoJSON with
//! the generated HTTP routes, and the descriptor set with its imports (what
//! the gateway is given).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    #[cfg(feature = "__test-service")]
    test_service()?;
    Ok(())
}

#[cfg(feature = "__test-service")]
fn test_service() -> Result<(), Box<dyn std::error::Error>> {
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR")?);
    let (fds, _) = protoc_gen_rust_protojsonx::Builder::new()
        .include("tests/proto")
        .include("proto")
        .file_descriptor_set(&["tests/proto/shop/v1/shop.proto"])?;
    // protox's own encoding keeps the methods' google.api.http options,
    // which prost-types' MethodOptions would drop.
    let set = protox::Compiler::new(["tests/proto", "proto"])?
        .include_imports(true)
        .open_file("shop/v1/shop.proto")?
        .encode_file_descriptor_set();
    std::fs::write(out_dir.join("shop.binpb"), set)?;
    tonic_prost_build::configure()
        .extern_path(".google.api", "::protojsonx_transcode::types::api")
        .compile_fds(fds.clone())?;
    protoc_gen_rust_protojsonx::Builder::new()
        .include("tests/proto")
        .include("proto")
        .configure(|c| {
            c.json_only()
                .http_routes()
                .extern_path(".google.api", "::protojsonx_transcode::types::api");
        })
        .compile(&["tests/proto/shop/v1/shop.proto"])?;
    Ok(())
}
