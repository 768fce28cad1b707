//! Compiles `proto/library/v1/book.proto`, an `edition = "2023"` file, into
//! prost structs and their ProtoJSON code in OUT_DIR.

fn main() -> std::io::Result<()> {
    protoc_gen_rust_protojsonx::Builder::new()
        .include("proto")
        .compile(&["proto/library/v1/book.proto"])
}
