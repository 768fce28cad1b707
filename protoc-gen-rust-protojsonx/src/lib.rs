//! Generates fast, conformant ProtoJSON code for the message types prost generates.
//!
//! The architecture, front to back:
//!
//! - **Front ends** read descriptors: the protoc/buf plugin ([`execute`], the
//!   `protoc-gen-rust-protojsonx` binary) and the build.rs [`Builder`], which
//!   parses `.proto` files in Rust (no `protoc` needed). Both fill one [`Config`].
//! - [`model`] resolves descriptors into what JSON needs: fields with their
//!   names, shapes and kinds, and every Rust name made by [`ident`], by
//!   prost-build's rules.
//! - `emit` turns the model into formatted Rust: a `ProtoJson` impl per message
//!   and a `JsonEnum` impl per enum, calling the `protojsonx-runtime` crate.
//! - prost-build, run on the same descriptors with the same settings, writes the
//!   structs, unless the JSON code alone is wanted ([`Config::json_only`]).

mod builder;
mod config;
mod emit;
pub mod ident;
pub mod model;
mod plugin;

use prost_build::Module;
use prost_types::FileDescriptorProto;

pub use builder::Builder;
pub use config::Config;
pub use plugin::execute;

/// One generated Rust source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// The file name: `<package>.rs` like prost-build's (`_.rs` for no
    /// package), or `<package>.protojsonx.rs` for JSON code alone.
    pub name: String,
    /// Formatted Rust source.
    pub content: String,
}

/// Generates code for the files named in `to_generate`. `files` holds their
/// descriptors and those of everything they import (as protoc hands them to
/// plugins), which prost-build needs to see whole. Output is one file per
/// protobuf package of the files to generate, sorted by name; like
/// prost-build, a package's file covers every file of that package in `files`.
/// With [`Config::compile_well_known_types`], the `google.protobuf` files
/// among the imports are generated too, as prost-build does.
pub fn generate(
    config: &Config,
    files: &[FileDescriptorProto],
    to_generate: &[String],
) -> Result<Vec<GeneratedFile>, String> {
    let wanted = |f: &FileDescriptorProto| {
        to_generate.iter().any(|name| name == f.name())
            || (config.compile_well_known_types && f.package() == "google.protobuf")
    };
    let packages: Vec<&str> = files
        .iter()
        .filter(|f| wanted(f))
        .map(|f| f.package())
        .collect();
    let selected: Vec<FileDescriptorProto> = files
        .iter()
        .filter(|f| packages.contains(&f.package()))
        .cloned()
        .collect();
    let json_code: Vec<(Module, String)> = model::packages(&selected, config)
        .iter()
        .map(|package| {
            (
                Module::from_protobuf_package_name(&package.name),
                emit::package(package),
            )
        })
        .collect();
    let mut out = Vec::new();
    if config.json_only {
        for (module, content) in json_code {
            let name = format!(
                "{}.protojsonx.rs",
                module.to_file_name_or("_").trim_end_matches(".rs")
            );
            out.push(GeneratedFile { name, content });
        }
    } else {
        let requests = files
            .iter()
            .map(|f| (Module::from_protobuf_package_name(f.package()), f.clone()))
            .collect();
        let structs = config
            .prost_config()
            .generate(requests)
            .map_err(|e| format!("prost-build failed: {e}"))?;
        for (module, mut content) in structs {
            if !packages
                .iter()
                .any(|p| Module::from_protobuf_package_name(p) == module)
            {
                continue;
            }
            if let Some((_, json)) = json_code.iter().find(|(m, _)| *m == module) {
                content.push('\n');
                content.push_str(json);
            }
            out.push(GeneratedFile {
                name: module.to_file_name_or("_"),
                content,
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}
