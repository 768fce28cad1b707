//! Generates code for the real-world slice (`../slice.txt`) one of three
//! ways, chosen by the crate's features, from the same descriptors (parsed
//! once by protojsonx's `Builder`, no protoc) and for the same files: every
//! file of the slice and every file it imports outside `google/protobuf/`.
//!
//! - no feature: prost-build's structs alone;
//! - `protojsonx`: `Builder::compile_fds`, the same structs and their JSON code;
//! - `pbjson`: prost-build's structs over `pbjson-types` and pbjson-build's
//!   serde code, each package's `.serde.rs` included after its structs.
//!
//! All three write the module tree `mod.rs` that `src/lib.rs` includes. With
//! the feature `use-all`, each package file also gets a public function
//! `uses()` that encodes and decodes every message type of its package
//! through `crate::round_trip` (see [`add_uses`]).

use std::error::Error;
use std::path::{Path, PathBuf};

use prost::Message;
use prost_types::FileDescriptorSet;

#[path = "../slice.rs"]
mod slice;

fn main() -> Result<(), Box<dyn Error>> {
    let (includes, files) = slice::slice(Path::new(".."))?;
    let mut builder = protoc_gen_rust_protojsonx::Builder::new();
    for dir in &includes {
        builder.include(dir);
    }
    let (set, _) = builder.file_descriptor_set(&files)?;
    let names: Vec<String> = set
        .file
        .iter()
        .map(|f| f.name().to_string())
        .filter(|name| !name.starts_with("google/protobuf/"))
        .collect();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("OUT_DIR is not set")?);
    if std::env::var_os("CARGO_FEATURE_PROTOJSONX").is_some() {
        builder
            .out_dir(&out)
            .include_file("mod.rs")
            .compile_fds(set, &names)?;
    } else if std::env::var_os("CARGO_FEATURE_PBJSON").is_some() {
        pbjson(set, &names, &out)?;
    } else {
        prost_build::Config::new()
            .out_dir(&out)
            .include_file("mod.rs")
            .compile_fds(set)?;
    }
    if std::env::var_os("CARGO_FEATURE_USE_ALL").is_some() {
        add_uses(&out)?;
    }
    Ok(())
}

/// Appends `pub fn uses()` to every package file of `out`, calling
/// `crate::round_trip::<T>()` for each message type `T` with JSON code: the
/// types are read off the generated impls (`impl ... for T {`), whose paths
/// are relative to the package module either way.
fn add_uses(out: &Path) -> Result<(), Box<dyn Error>> {
    let marker = if std::env::var_os("CARGO_FEATURE_PBJSON").is_some() {
        "impl serde::Serialize for "
    } else {
        "impl ::protojsonx_runtime::ProtoJson for "
    };
    for entry in std::fs::read_dir(out)? {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name == "mod.rs" || name.ends_with(".serde.rs") || !name.ends_with(".rs") {
            continue;
        }
        let mut code = std::fs::read_to_string(&path)?;
        let serde = out.join(serde_file(name));
        let impls = if serde.exists() {
            std::fs::read_to_string(serde)?
        } else {
            code.clone()
        };
        let calls: String = impls
            .lines()
            .filter_map(|line| line.strip_prefix(marker)?.strip_suffix(" {"))
            .map(|ty| format!("    crate::round_trip::<{ty}>();\n"))
            .collect();
        code.push_str(&format!("/// Encodes and decodes every message type of this package.\npub fn uses() {{\n{calls}}}\n"));
        std::fs::write(&path, code)?;
    }
    Ok(())
}

/// prost-build over pbjson-types, then pbjson-build's serde code for every
/// package of `names`, included at the end of the package's struct file.
fn pbjson(set: FileDescriptorSet, names: &[String], out: &Path) -> Result<(), Box<dyn Error>> {
    let mut packages: Vec<String> = set
        .file
        .iter()
        .filter(|f| names.iter().any(|n| n == f.name()))
        .map(|f| format!(".{}", f.package()))
        .collect();
    packages.sort();
    packages.dedup();
    let bytes = set.encode_to_vec();
    prost_build::Config::new()
        .out_dir(out)
        .compile_well_known_types()
        .extern_path(".google.protobuf", "::pbjson_types")
        .include_file("mod.rs")
        .compile_fds(set)?;
    pbjson_build::Builder::new()
        .register_descriptors(&bytes)?
        .extern_path(".google.protobuf", "::pbjson_types")
        .out_dir(out)
        .build(&packages)?;
    for package in &packages {
        let module = prost_build::Module::from_protobuf_package_name(&package[1..]);
        let structs = module.to_file_name_or("_");
        let serde = serde_file(&structs);
        if out.join(&serde).exists() {
            let mut code = std::fs::read_to_string(out.join(&structs))?;
            code.push_str(&format!("include!(\"{serde}\");\n"));
            std::fs::write(out.join(&structs), code)?;
        }
    }
    Ok(())
}

/// The name of pbjson-build's file beside a package's struct file:
/// `google.api.rs` -> `google.api.serde.rs`.
fn serde_file(structs: &str) -> String {
    format!("{}.serde.rs", structs.trim_end_matches(".rs"))
}
