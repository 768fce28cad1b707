//! Generates fast, conformant ProtoJSON code for the message types prost generates.
//!
//! The architecture, front to back:
//!
//! - **Front ends** read descriptors: the protoc/buf plugin ([`execute`], the
//!   `protoc-gen-rust-protojsonx` binary) and the build.rs [`Builder`], which
//!   parses `.proto` files in Rust with protox (no `protoc` needed). Both fill
//!   one [`Config`].
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
// `ident` and `model` are internals, public only for this crate's own tests:
// hidden from the docs and not covered by semver.
#[doc(hidden)]
pub mod ident;
#[doc(hidden)]
pub mod model;
mod parse;
mod plugin;
mod routes;

use prost_build::Module;
use prost_types::FileDescriptorProto;

pub use builder::Builder;
#[doc(hidden)]
pub use config::CURRENT_DESCRIPTOR_TYPES;
pub use config::Config;
pub use plugin::{execute, execute_encoded};

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
///
/// ```
/// use prost_types::field_descriptor_proto::{Label, Type};
/// use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};
/// use protoc_gen_rust_protojsonx::{Config, generate};
///
/// let file = FileDescriptorProto {
///     name: Some("shop/v1/item.proto".into()),
///     package: Some("shop.v1".into()),
///     syntax: Some("proto3".into()),
///     message_type: vec![DescriptorProto {
///         name: Some("Item".into()),
///         field: vec![FieldDescriptorProto {
///             name: Some("unit_price".into()),
///             json_name: Some("unitPrice".into()),
///             number: Some(1),
///             label: Some(Label::Optional as i32),
///             r#type: Some(Type::Int64 as i32),
///             ..Default::default()
///         }],
///         ..Default::default()
///     }],
///     ..Default::default()
/// };
/// let files = generate(&Config::new(), &[file], &["shop/v1/item.proto".into()]).unwrap();
/// assert_eq!(files[0].name, "shop.v1.rs");
/// assert!(files[0].content.contains("pub struct Item"));
/// assert!(files[0].content.contains("impl ::protojsonx_runtime::ProtoJson for Item"));
/// assert!(files[0].content.contains(r#"b"\"unitPrice\":""#));
/// ```
/// With [`Config::compile_well_known_types`], the `google.protobuf` files
/// among the imports are generated too, as prost-build does.
pub fn generate(
    config: &Config,
    files: &[FileDescriptorProto],
    to_generate: &[String],
) -> Result<Vec<GeneratedFile>, String> {
    generate_with_rules(config, files, to_generate, &routes::HttpRules::new())
}

/// [`generate`], with the methods' encoded `google.api.http` rules that the
/// descriptors (prost structs) could not carry, for [`Config::http_routes`].
fn generate_with_rules(
    config: &Config,
    files: &[FileDescriptorProto],
    to_generate: &[String],
    rules: &routes::HttpRules,
) -> Result<Vec<GeneratedFile>, String> {
    let wanted = |f: &FileDescriptorProto| {
        to_generate.iter().any(|name| name == f.name())
            || (config.compile_well_known_types && f.package() == "google.protobuf")
    };
    if let Some(file) = files.iter().find(|f| f.syntax() == "editions") {
        return Err(editions_unlowered(file.name()));
    }
    let mut packages: Vec<&str> = files
        .iter()
        .filter(|f| wanted(f))
        .map(|f| f.package())
        .collect();
    packages.sort_unstable();
    packages.dedup();
    let selected: Vec<FileDescriptorProto> = files
        .iter()
        .filter(|f| packages.contains(&f.package()))
        .cloned()
        .collect();
    let models = model::packages(&selected, config);
    let mut json_code: Vec<(Module, String)> = models
        .iter()
        .map(|package| {
            (
                Module::from_protobuf_package_name(&package.name),
                emit::package(package) + &serde_code(config, package),
            )
        })
        .collect();
    if config.http_routes {
        add_routes(&mut json_code, files, to_generate, rules)?;
    }
    let mut out = if config.json_only {
        json_code
            .into_iter()
            .map(|(module, content)| GeneratedFile {
                name: json_file_name(&module),
                content,
            })
            .collect()
    } else {
        with_structs(config, files, &packages, json_code)?
    };
    if let Some(name) = &config.include_file {
        let tree = tree_packages(config, &packages, &models);
        out.push(GeneratedFile {
            name: name.clone(),
            content: emit::tree::file(&tree),
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// The error for an editions file given as prost-types descriptors, which
/// lack its `edition` and `features`.
#[cold]
fn editions_unlowered(file: &str) -> String {
    format!(
        "`{file}` is an editions file, which prost-types descriptors cannot describe: \
         decode its descriptors with `protojsonx_descriptor::types` and lower them with \
         `protojsonx_descriptor::lower` first"
    )
}

/// The name of a package's file of JSON code alone: `<package>.protojsonx.rs`.
fn json_file_name(module: &Module) -> String {
    format!(
        "{}.protojsonx.rs",
        module.to_file_name_or("_").trim_end_matches(".rs")
    )
}

/// prost-build's struct files of `packages`, each with the package's JSON
/// code appended. prost-build sees all of `files`, to resolve every type.
fn with_structs(
    config: &Config,
    files: &[FileDescriptorProto],
    packages: &[&str],
    json_code: Vec<(Module, String)>,
) -> Result<Vec<GeneratedFile>, String> {
    let requests = files
        .iter()
        .map(|f| (Module::from_protobuf_package_name(f.package()), f.clone()))
        .collect();
    let structs = config
        .prost_config()
        .generate(requests)
        .map_err(|e| format!("prost-build failed: {e}"))?;
    let mut out = Vec::new();
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
    Ok(out)
}

/// What the module tree includes for each generated package: its struct file
/// (with the JSON code in it, or beside it in a `json_only` file).
fn tree_packages(
    config: &Config,
    packages: &[&str],
    models: &[model::Package],
) -> Vec<emit::tree::PackageFiles> {
    packages
        .iter()
        .map(|&package| {
            let module = Module::from_protobuf_package_name(package);
            let model = models.iter().find(|m| m.name == package);
            let mut files = vec![module.to_file_name_or("_")];
            if config.json_only && model.is_some() {
                files.push(json_file_name(&module));
            }
            emit::tree::PackageFiles {
                package: package.to_string(),
                files,
                registers: model.is_some_and(|m| !m.messages.is_empty()),
            }
        })
        .collect()
}

/// The JSON code `protojsonx-runtime` carries for the prost-types messages and
/// enums that have no special JSON form (descriptor.proto, type.proto,
/// api.proto, source_context.proto, compiler/plugin.proto): plain ProtoJSON
/// objects. The types with a special form (`Any`, `Timestamp`, `Struct`,
/// `NullValue`, ...) are left out: the runtime writes those by hand.
///
/// The JSON follows the current schema (`current`: the descriptors of
/// protoc's own files, as protoc reads them), restricted to what the prost-types structs hold: those
/// were made from the `.proto` files under `known_root` (protobuf 3.19's).
/// Messages and enums prost-types lacks are left out; fields it lacks
/// ([`model::Shape::Absent`], such as `edition`, `features` and
/// `visibility`) are accepted when reading and never written; enum value
/// names are the current ones. Not a public API: the runtime's checked-in
/// copy is kept fresh by this crate's test `prost_types`.
#[doc(hidden)]
pub fn prost_types_json(
    known_root: &std::path::Path,
    current: &[FileDescriptorProto],
) -> Result<Vec<GeneratedFile>, String> {
    const FILES: [&str; 5] = [
        "google/protobuf/descriptor.proto",
        "google/protobuf/type.proto",
        "google/protobuf/api.proto",
        "google/protobuf/source_context.proto",
        "google/protobuf/compiler/plugin.proto",
    ];
    let mut config = Config::new();
    config.json_only().compile_well_known_types();
    let known = model::packages(&parse::only_under(known_root, &FILES)?.file, &config);
    let mut packages = model::packages(current, &config);
    for package in &mut packages {
        package.messages.retain_mut(|m| {
            let known_fields = known
                .iter()
                .flat_map(|p| &p.messages)
                .find(|k| k.full_name == m.full_name)
                .map(|k| {
                    k.fields
                        .iter()
                        .map(|f| f.proto_name.clone())
                        .collect::<Vec<_>>()
                });
            m.restrict_to(known_fields.as_deref().unwrap_or_default());
            known_fields.is_some() && emit::rt::well_known_twin(&m.full_name).is_none()
        });
        package.enums.retain(|e| {
            e.full_name != "google.protobuf.NullValue"
                && known
                    .iter()
                    .flat_map(|p| &p.enums)
                    .any(|k| k.full_name == e.full_name)
        });
    }
    Ok(packages
        .iter()
        .map(|package| GeneratedFile {
            name: json_file_name(&Module::from_protobuf_package_name(&package.name)),
            content: emit::package(package),
        })
        .collect())
}

/// The serde impls of a package's messages when [`Config::serde`] is on.
/// Appends the routes of each package's services with HTTP rules to its
/// JSON code.
fn add_routes(
    json_code: &mut Vec<(Module, String)>,
    files: &[FileDescriptorProto],
    to_generate: &[String],
    rules: &routes::HttpRules,
) -> Result<(), String> {
    for (package, services) in routes::services(files, to_generate, rules)? {
        let module = Module::from_protobuf_package_name(&package);
        let code = emit::routes::package(&services);
        match json_code.iter_mut().find(|(m, _)| *m == module) {
            Some((_, json)) => {
                json.push('\n');
                json.push_str(&code);
            }
            None => json_code.push((module, code)),
        }
    }
    Ok(())
}

fn serde_code(config: &Config, package: &model::Package) -> String {
    if config.serde {
        emit::serde::package(package)
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many times `file` checks the runtime contract.
    fn checks(file: &GeneratedFile) -> usize {
        file.content
            .matches("::protojsonx_runtime::__private::check_contract(")
            .count()
    }

    #[test]
    fn every_package_file_checks_the_contract_once_and_the_tree_not() {
        let file = FileDescriptorProto {
            name: Some("shop/v1/item.proto".into()),
            package: Some("shop.v1".into()),
            syntax: Some("proto3".into()),
            message_type: vec![
                prost_types::DescriptorProto {
                    name: Some("Item".into()),
                    ..Default::default()
                },
                prost_types::DescriptorProto {
                    name: Some("Basket".into()),
                    ..Default::default()
                },
            ],
            ..Default::default()
        };
        for json_only in [false, true] {
            let mut config = Config::new();
            config.include_file("mod.rs");
            if json_only {
                config.json_only();
            }
            let files = generate(
                &config,
                std::slice::from_ref(&file),
                &["shop/v1/item.proto".into()],
            )
            .unwrap();
            let counts: Vec<(&str, usize)> =
                files.iter().map(|f| (f.name.as_str(), checks(f))).collect();
            let package = if json_only {
                "shop.v1.protojsonx.rs"
            } else {
                "shop.v1.rs"
            };
            assert_eq!(counts, [("mod.rs", 0), (package, 1)]);
        }
    }
}
