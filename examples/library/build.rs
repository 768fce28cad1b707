//! googleapis' library example (`proto/google/example/library/v1/library.proto`):
//! tonic-prost-build writes the structs, the gRPC client and server;
//! protojsonx writes their ProtoJSON and, from the methods' `google.api.http`
//! rules, `library_service_routes` (`http_routes`); and the descriptor set
//! with its imports is written for the gateway. protox parses the files: no
//! `protoc` is needed.

const PROTO: &str = "proto/google/example/library/v1/library.proto";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR")?);
    let mut protojsonx = protoc_gen_rust_protojsonx::Builder::new();
    // googleapis' HTTP annotations, as protojsonx-transcode carries them.
    let annotations = "../../protojsonx-transcode/proto";
    protojsonx
        .include("proto")
        .include(annotations)
        .configure(|c| {
            c.json_only()
                .http_routes()
                // No message of the library names a google.api type: tonic
                // writes none of them.
                .extern_path(".google.api", "::protojsonx_transcode::types::api");
        });
    let (fds, _) = protojsonx.file_descriptor_set(&[PROTO])?;
    tonic_prost_build::configure()
        .extern_path(".google.api", "::protojsonx_transcode::types::api")
        .compile_fds(fds)?;
    protojsonx.compile(&[PROTO])?;
    // protox's own encoding keeps the methods' options, which the gateway reads.
    let set = protox::Compiler::new(["proto", annotations])?
        .include_imports(true)
        .open_file("google/example/library/v1/library.proto")?
        .encode_file_descriptor_set();
    std::fs::write(out_dir.join("library.binpb"), set)?;
    Ok(())
}
