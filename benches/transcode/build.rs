//! Compiles the benchmark's service (`proto/bench/transcode/v1/catalog.proto`):
//! tonic-prost-build writes the structs, the gRPC client and server;
//! protojsonx their ProtoJSON and `catalog_routes` (`http_routes`); and the
//! descriptor set with its imports is written for the gateway. protox parses
//! the files: no `protoc` is needed.

const PROTO: &str = "proto/bench/transcode/v1/catalog.proto";
const GOOGLE: &str = "../../protojsonx-transcode/proto";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR")?);
    let mut protojsonx = protoc_gen_rust_protojsonx::Builder::new();
    protojsonx.include("proto").include(GOOGLE).configure(|c| {
        c.json_only()
            .http_routes()
            .extern_path(".google.api", "::protojsonx_transcode::types::api");
    });
    let (fds, _) = protojsonx.file_descriptor_set(&[PROTO])?;
    tonic_prost_build::configure()
        .extern_path(".google.api", "::protojsonx_transcode::types::api")
        .compile_fds(fds)?;
    protojsonx.compile(&[PROTO])?;
    // protox's own encoding keeps the methods' options, which the gateway reads.
    let set = protox::Compiler::new(["proto", GOOGLE])?
        .include_imports(true)
        .open_file("bench/transcode/v1/catalog.proto")?
        .encode_file_descriptor_set();
    std::fs::write(out_dir.join("catalog.binpb"), set)?;
    println!("cargo:rerun-if-changed=proto");
    Ok(())
}
