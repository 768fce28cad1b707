//! Compiles the real-world slice (`slice.txt`) through protojsonx's build.rs
//! `Builder`, with no protoc: prost structs and their ProtoJSON code, the
//! module tree `mod.rs`, and for the driver the descriptor set
//! (`descriptors.bin`) and the names of the slice's files (`files.txt`).
//!
//! It also writes `runtime-types.bin`: the google.protobuf files the runtime's
//! prost-types impls were generated from (its own copy, protobuf 3.19's), for
//! roundtrip.py to tell apart the fields prost-types lacks.
//!
//! The protos come from `realworld/fetch.sh`; `PROTOJSONX_REALWORLD_PROTOS`
//! names another directory holding the same `googleapis/` and `opentelemetry/`.

use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};

use prost::Message;

#[path = "builder.rs"]
mod builder;
#[path = "slice.rs"]
mod slice;

/// The runtime's copy of the google.protobuf files prost-types 0.14 follows.
const RUNTIME_PROTOS: &str = "../protojsonx-runtime/src/wkt/plain/proto";

/// Runs the build, printing a failure as one plain line.
fn main() {
    if let Err(e) = build() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

/// Generates the code and writes the descriptors for the driver.
fn build() -> Result<(), Box<dyn Error>> {
    let (includes, files) = slice::slice(Path::new("."))?;
    let builder = builder::new(&includes);
    let (set, names) = builder.file_descriptor_set(&files)?;
    builder.compile_fds(set.clone(), &names)?;
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("OUT_DIR is not set")?);
    fs::write(out.join("descriptors.bin"), set.encode_to_vec())?;
    fs::write(out.join("files.txt"), names.join("\n") + "\n")?;
    fs::write(
        out.join("runtime-types.bin"),
        runtime_types()?.encode_to_vec(),
    )?;
    println!("cargo:rerun-if-changed={RUNTIME_PROTOS}");
    Ok(())
}

/// The descriptors of the runtime's copy of the google.protobuf files, read
/// from it alone (not from protox's bundled, newer copy).
fn runtime_types() -> Result<prost_types::FileDescriptorSet, Box<dyn Error>> {
    let files = [
        "descriptor.proto",
        "type.proto",
        "api.proto",
        "source_context.proto",
    ];
    let set = protox::Compiler::new([RUNTIME_PROTOS])?
        .include_imports(true)
        .open_files(files.map(|f| format!("google/protobuf/{f}")))?
        .file_descriptor_set();
    Ok(set)
}
