//! Drift guard for `ident`: every Rust name the model makes must name an item
//! in the code prost-build generates for the same protos. prost-build's naming
//! rules are private, so ours are a copy; this test fails when they part ways
//! (a new keyword, a heck upgrade, a new collision rule), before any user's
//! build does.

use std::collections::HashMap;
use std::path::Path;

use protoc_gen_rust_protojsonx::model::{self, Shape};
use protoc_gen_rust_protojsonx::{Builder, Config};

/// Named items in prost's output: paths of structs and enums, each with its
/// field or variant names.
fn items(file: &syn::File) -> HashMap<String, Vec<String>> {
    fn walk(items: &[syn::Item], prefix: &str, out: &mut HashMap<String, Vec<String>>) {
        for item in items {
            let path = |ident: &syn::Ident| {
                let name = ident.to_string();
                if prefix.is_empty() {
                    name
                } else {
                    format!("{prefix}::{name}")
                }
            };
            match item {
                syn::Item::Struct(s) => {
                    let fields = s
                        .fields
                        .iter()
                        .filter_map(|f| f.ident.as_ref().map(|i| i.to_string()))
                        .collect();
                    out.insert(path(&s.ident), fields);
                }
                syn::Item::Enum(e) => {
                    out.insert(
                        path(&e.ident),
                        e.variants.iter().map(|v| v.ident.to_string()).collect(),
                    );
                }
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        walk(inner, &path(&m.ident), out);
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = HashMap::new();
    walk(&file.items, "", &mut out);
    out
}

#[test]
fn model_names_match_prost_build_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/proto");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("prost-names");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let protos = [
        "protojsonx/names/names.proto",
        "protojsonx/test/scalars.proto",
        "protojsonx/legacy/legacy.proto",
    ];
    let inputs: Vec<_> = protos.iter().map(|p| root.join(p)).collect();
    Builder::new()
        .include(&root)
        .out_dir(&out)
        .compile(&inputs)
        .unwrap();

    let (mut set, names) = Builder::new()
        .include(&root)
        .file_descriptor_set(&inputs)
        .unwrap();
    // The imports (google/protobuf/*.proto) are prost-types', not generated.
    set.file.retain(|f| names.iter().any(|n| n == f.name()));
    let mut checked = 0;
    for package in model::packages(&set.file, &Config::new()) {
        let source = std::fs::read_to_string(out.join(format!("{}.rs", package.name))).unwrap();
        let items = items(&syn::parse_file(&source).unwrap());
        let lookup = |path: &str| {
            items
                .get(path)
                .unwrap_or_else(|| panic!("{}: prost generated no `{path}`", package.name))
        };
        for message in &package.messages {
            let fields = lookup(&message.rust_path);
            for field in &message.fields {
                let (container, name) = match &field.shape {
                    Shape::OneofMember { oneof, .. } => {
                        (lookup(&message.oneofs[*oneof].rust_enum), &field.rust_name)
                    }
                    _ => (fields, &field.rust_name),
                };
                assert!(
                    container.contains(name),
                    "{}: no `{name}` in {container:?}",
                    message.full_name
                );
                checked += 1;
            }
            for oneof in &message.oneofs {
                assert!(
                    fields.contains(&oneof.rust_name),
                    "{}: no oneof field `{}`",
                    message.full_name,
                    oneof.rust_name
                );
            }
        }
        for e in &package.enums {
            lookup(&e.rust_path);
        }
    }
    assert!(checked > 100, "only {checked} names checked");
}
