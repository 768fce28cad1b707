//! The module tree file ([`Config::include_file`](crate::Config::include_file)):
//! one file that nests a `pub mod` per package segment, includes every
//! package's generated files where they belong, and registers every
//! package's messages for `google.protobuf.Any` with one call,
//! `register_all_protojsonx_types()` (not `register_protojsonx_types`, the
//! name a package without a name already defines at the root), or into a
//! registry of the caller's with `register_all_protojsonx_types_in`.

use std::collections::BTreeMap;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{ident, rt};
use crate::ident::to_snake;

/// What the tree holds for one package.
pub struct PackageFiles {
    /// The protobuf package, like `google.type` (empty for none).
    pub package: String,
    /// The generated files of the package, included in this order.
    pub files: Vec<String>,
    /// Whether the package has a `register_protojsonx_types()` (it has messages).
    pub registers: bool,
}

/// A module of the tree: the package it stands for, the files included in
/// it and its child modules.
#[derive(Default)]
struct Module {
    package: String,
    files: Vec<String>,
    children: BTreeMap<String, Module>,
}

/// The formatted module tree for `packages`. Included files are named
/// relative to the tree file, which is written beside them.
pub fn file(packages: &[PackageFiles]) -> String {
    let mut root = Module::default();
    for package in packages {
        let module =
            package
                .package
                .split('.')
                .filter(|s| !s.is_empty())
                .fold(&mut root, |m, segment| {
                    let package = match m.package.as_str() {
                        "" => segment.to_string(),
                        parent => format!("{parent}.{segment}"),
                    };
                    let child = m.children.entry(to_snake(segment)).or_default();
                    child.package = package;
                    child
                });
        module.files.extend(package.files.iter().cloned());
    }
    let modules = module(&root, true);
    let calls = packages.iter().filter(|p| p.registers).map(|p| {
        let path = p
            .package
            .split('.')
            .filter(|s| !s.is_empty())
            .map(|s| ident(&to_snake(s)));
        quote!(#(#path::)* register_protojsonx_types_in(registry);)
    });
    let registry = rt::type_registry();
    let register_with = rt::register_with();
    let tokens = quote! {
        #modules

        /// Adds the messages of every package in this tree to `registry`, so
        /// that `google.protobuf.Any` values holding them can be written and
        /// read as ProtoJSON with the options that name it.
        #[inline]
        pub fn register_all_protojsonx_types_in(registry: &mut #registry) {
            #(#calls)*
        }

        /// Registers the messages of every package in this tree with
        /// protojsonx's global type registry, so that `google.protobuf.Any`
        /// values holding them can be written and read as ProtoJSON. Call it
        /// once at startup; calling it again is harmless.
        #[inline]
        pub fn register_all_protojsonx_types() {
            #register_with(register_all_protojsonx_types_in);
        }
    };
    // No contract check: the tree calls only the runtime's public API, and
    // every file it includes checks the contract.
    super::formatted(tokens, "")
}

/// The `include!`s of `m` and its children as nested `pub mod`s. Top-level
/// modules allow the clippy lints that prost's part of the code trips on
/// real schemas: markdown of the .proto comments, which becomes doc comments
/// verbatim, and oneof enums with one large variant (`unknown_lints` for
/// toolchains older than a lint).
fn module(m: &Module, top: bool) -> TokenStream {
    let includes = m.files.iter().map(|f| {
        let name = Literal::string(f);
        quote!(include!(#name);)
    });
    let children = m.children.iter().map(|(name, child)| {
        let name = ident(name);
        let body = module(child, false);
        let doc = format!(" Package `{}`.", child.package);
        let allow = top.then(|| {
            quote! {
                #[allow(
                    unknown_lints,
                    clippy::doc_lazy_continuation,
                    clippy::doc_overindented_list_items,
                    clippy::large_enum_variant
                )]
            }
        });
        quote! {
            #[doc = #doc]
            #allow
            pub mod #name {
                #body
            }
        }
    });
    quote! {
        #(#includes)*
        #(#children)*
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(name: &str, files: &[&str], registers: bool) -> PackageFiles {
        PackageFiles {
            package: name.into(),
            files: files.iter().map(|f| f.to_string()).collect(),
            registers,
        }
    }

    #[test]
    fn packages_nest_and_register() {
        let tree = file(&[
            package("", &["_.rs"], true),
            package("google.type", &["google.type.rs"], true),
            package(
                "google.api",
                &["google.api.rs", "google.api.protojsonx.rs"],
                false,
            ),
            package("google", &["google.rs"], true),
        ]);
        let expected = r#"include!("_.rs");
/// Package `google`.
#[allow(
    unknown_lints,
    clippy::doc_lazy_continuation,
    clippy::doc_overindented_list_items,
    clippy::large_enum_variant
)]
pub mod google {
    include!("google.rs");
    /// Package `google.api`.
    pub mod api {
        include!("google.api.rs");
        include!("google.api.protojsonx.rs");
    }
    /// Package `google.type`.
    pub mod r#type {
        include!("google.type.rs");
    }
}
"#;
        assert!(tree.contains(expected), "{tree}");
        assert!(
            tree.contains(
                "pub fn register_all_protojsonx_types_in(\n    registry: &mut ::protojsonx_runtime::TypeRegistry,\n) {\n    register_protojsonx_types_in(registry);\n    google::r#type::register_protojsonx_types_in(registry);\n    google::register_protojsonx_types_in(registry);\n}"
            ),
            "{tree}"
        );
    }
}
