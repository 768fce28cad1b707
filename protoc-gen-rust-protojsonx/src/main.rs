//! `protoc-gen-rust-protojsonx`: the protoc/buf plugin. Reads a
//! `CodeGeneratorRequest` on stdin, writes a `CodeGeneratorResponse` on stdout.

use std::io::{Read, Write};
use std::process::ExitCode;

use prost::Message;

fn main() -> ExitCode {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("protoc-gen-rust-protojsonx: cannot read the request: {e}");
        return ExitCode::FAILURE;
    }
    let response = match protoc_gen_rust_protojsonx::execute_encoded(&input) {
        Ok(response) => response,
        Err(e) => {
            eprintln!(
                "protoc-gen-rust-protojsonx: stdin is not a CodeGeneratorRequest (run me from protoc or buf): {e}"
            );
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = std::io::stdout().write_all(&response.encode_to_vec()) {
        eprintln!("protoc-gen-rust-protojsonx: cannot write the response: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
