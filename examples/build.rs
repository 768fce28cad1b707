//! Generates the prost structs and their ProtoJSON code for `proto/` into
//! OUT_DIR. No `protoc` is needed: the .proto files are parsed in Rust.

fn main() -> std::io::Result<()> {
    protoc_gen_rust_protojsonx::Builder::new()
        .include("proto")
        .compile(&["proto/event/v1/event.proto"])
}
