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

/// The variable that names the proto root, instead of `../.cache/realworld/protos`.
const PROTOS_VAR: &str = "PROTOJSONX_REALWORLD_PROTOS";

/// The runtime's copy of the google.protobuf files prost-types 0.14 follows.
const RUNTIME_PROTOS: &str = "../protojsonx-runtime/src/wkt/plain/proto";

/// The include roots under the proto root.
const ROOTS: [&str; 2] = ["googleapis", "opentelemetry"];

/// Runs the build, printing a failure as one plain line.
fn main() {
    if let Err(e) = build() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

/// Generates the code and writes the descriptors for the driver.
fn build() -> Result<(), Box<dyn Error>> {
    let includes = include_roots()?;
    let files = slice_files(Path::new("slice.txt"), &includes)?;
    let mut builder = protoc_gen_rust_protojsonx::Builder::new();
    for dir in &includes {
        builder.include(dir);
    }
    builder.include_file("mod.rs").compile(&files)?;
    let (set, names) = builder.file_descriptor_set(&files)?;
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("OUT_DIR is not set")?);
    fs::write(out.join("descriptors.bin"), set.encode_to_vec())?;
    fs::write(out.join("files.txt"), names.join("\n") + "\n")?;
    fs::write(
        out.join("runtime-types.bin"),
        runtime_types()?.encode_to_vec(),
    )?;
    println!("cargo:rerun-if-changed=slice.txt");
    println!("cargo:rerun-if-changed={RUNTIME_PROTOS}");
    println!("cargo:rerun-if-env-changed={PROTOS_VAR}");
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

/// The include directories, or an error telling to run fetch.sh.
fn include_roots() -> Result<Vec<PathBuf>, Box<dyn Error>> {
    let root = std::env::var_os(PROTOS_VAR)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../.cache/realworld/protos"));
    let dirs: Vec<PathBuf> = ROOTS.iter().map(|r| root.join(r)).collect();
    if let Some(missing) = dirs.iter().find(|d| !d.is_dir()) {
        return Err(format!(
            "{} is missing: run realworld/fetch.sh first (or set {PROTOS_VAR} to a directory \
             holding googleapis/ and opentelemetry/)",
            missing.display()
        )
        .into());
    }
    Ok(dirs)
}

/// The slice's `.proto` files as paths under the include roots: each line of
/// `slice` names a directory (every `*.proto` directly in it) or a file,
/// relative to one of the roots; `#` starts a comment.
fn slice_files(slice: &Path, includes: &[PathBuf]) -> Result<Vec<PathBuf>, Box<dyn Error>> {
    let mut files = Vec::new();
    for line in fs::read_to_string(slice)?.lines() {
        let entry = line.split('#').next().unwrap_or("").trim();
        if entry.is_empty() {
            continue;
        }
        let path = includes
            .iter()
            .map(|dir| dir.join(entry))
            .find(|p| p.exists())
            .ok_or_else(|| format!("slice entry `{entry}` is under no include root"))?;
        if path.is_dir() {
            files.extend(protos_in(&path)?);
        } else {
            files.push(path);
        }
    }
    Ok(files)
}

/// The `*.proto` files directly in `dir`, sorted.
fn protos_in(dir: &Path) -> Result<Vec<PathBuf>, Box<dyn Error>> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "proto") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}
