//! Compiles the test service (proto/greet/v1/greet.proto) for `cargo test`
//! only: the `__test-service` feature, turned on by this crate's
//! dev-dependency on itself, so users of the library build no protos and
//! need none of the generators.
//!
//! Two generations of one service: `greet.v1.rs` (structs, client, server)
//! with the default `protojsonx_tonic::ProtoJsonCodec`, and
//! `custom/greet.v1.rs` (client and server only, the messages are the first
//! ones through `extern_path`) with the test's options alias
//! `crate::CustomCodec`. protojsonx writes the JSON code (`json_only`).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    #[cfg(feature = "__test-service")]
    test_service()?;
    Ok(())
}

#[cfg(feature = "__test-service")]
fn test_service() -> Result<(), Box<dyn std::error::Error>> {
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR")?);
    let (fds, to_generate) = protoc_gen_rust_protojsonx::Builder::new()
        .include("proto")
        .file_descriptor_set(&["proto/greet/v1/greet.proto"])?;
    tonic_prost_build::configure()
        .codec_path("protojsonx_tonic::ProtoJsonCodec")
        .compile_fds(fds.clone())?;
    let custom = out_dir.join("custom");
    std::fs::create_dir_all(&custom)?;
    tonic_prost_build::configure()
        .out_dir(custom)
        .extern_path(".greet.v1", "crate::greet::v1")
        .codec_path("crate::CustomCodec")
        .compile_fds(fds.clone())?;
    protoc_gen_rust_protojsonx::Builder::new()
        .configure(|c| {
            c.json_only();
        })
        .compile_fds(fds, &to_generate)?;
    Ok(())
}
