//! The settings every front end shares: the plugin's parameters and the
//! build.rs [`Builder`](crate::Builder)'s methods both fill one [`Config`].
//!
//! Most settings mirror prost-build's, because they change the Rust types the
//! JSON code must fit; they are applied to prost-build when the structs are
//! generated too, so both halves always agree.

use std::fmt;
use std::sync::Arc;

use crate::ident;

/// Generation settings shared by the protoc plugin and the build.rs builder.
///
/// ```
/// use protoc_gen_rust_protojsonx::{Builder, Config};
///
/// let mut config = Config::new();
/// config.btree_map(".").bytes(".my.pkg").serde();
/// // In build.rs, the same settings through the builder:
/// Builder::new().include("proto").configure(|c| {
///     c.btree_map(".").serde();
/// });
/// ```
#[derive(Debug, Clone, Default)]
pub struct Config {
    pub(crate) extern_paths: Vec<(String, String)>,
    pub(crate) btree_map: Vec<String>,
    pub(crate) bytes: Vec<String>,
    pub(crate) boxed: Vec<String>,
    pub(crate) compile_well_known_types: bool,
    pub(crate) retain_enum_prefix: bool,
    pub(crate) enable_type_names: bool,
    pub(crate) json_only: bool,
    pub(crate) serde: bool,
    pub(crate) http_routes: bool,
    pub(crate) include_file: Option<String>,
    pub(crate) prost_changes: ProstChanges,
}

/// The top-level messages and enums of `descriptor.proto`, `api.proto`,
/// `type.proto` and `source_context.proto` that
/// [`Config::current_descriptor_types`] takes from protojsonx-descriptor
/// (the test `descriptor_types` checks the list against those files).
#[doc(hidden)]
pub const CURRENT_DESCRIPTOR_TYPES: [&str; 35] = [
    "FileDescriptorSet",
    "FileDescriptorProto",
    "DescriptorProto",
    "ExtensionRangeOptions",
    "FieldDescriptorProto",
    "OneofDescriptorProto",
    "EnumDescriptorProto",
    "EnumValueDescriptorProto",
    "ServiceDescriptorProto",
    "MethodDescriptorProto",
    "FileOptions",
    "MessageOptions",
    "FieldOptions",
    "OneofOptions",
    "EnumOptions",
    "EnumValueOptions",
    "ServiceOptions",
    "MethodOptions",
    "UninterpretedOption",
    "FeatureSet",
    "FeatureSetDefaults",
    "SourceCodeInfo",
    "GeneratedCodeInfo",
    "Edition",
    "SymbolVisibility",
    "Api",
    "Method",
    "Mixin",
    "Type",
    "Field",
    "Enum",
    "EnumValue",
    "Option",
    "Syntax",
    "SourceContext",
];

/// Changes to prost-build's own `Config` from build.rs
/// ([`Builder::prost_config`](crate::Builder::prost_config)), made in order
/// after the shared settings, for the structs only.
#[derive(Clone, Default)]
pub(crate) struct ProstChanges(Vec<Arc<ProstChange>>);

/// One change to prost-build's `Config`.
type ProstChange = dyn Fn(&mut prost_build::Config) + Send + Sync;

impl ProstChanges {
    /// Adds `change`, to be made after those added before.
    pub(crate) fn push(
        &mut self,
        change: impl Fn(&mut prost_build::Config) + Send + Sync + 'static,
    ) {
        self.0.push(Arc::new(change));
    }
}

/// Closures have no `Debug`: says how many there are.
impl fmt::Debug for ProstChanges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ProstChanges({} closures)", self.0.len())
    }
}

impl Config {
    /// Default settings: prost-build's defaults, and the prost structs are
    /// generated together with their JSON code.
    pub fn new() -> Self {
        Self::default()
    }

    /// Maps protobuf types under `proto_path` (like `.my.pkg`) to Rust types
    /// that exist already under `rust_path` (like `::my_crate::pkg`), as
    /// prost-build's `extern_path`. No code is generated for them: they must
    /// implement `ProtoJson` themselves.
    pub fn extern_path(
        &mut self,
        proto_path: impl Into<String>,
        rust_path: impl Into<String>,
    ) -> &mut Self {
        self.extern_paths
            .push((proto_path.into(), rust_path.into()));
        self
    }

    /// Map fields matching `path` become `BTreeMap`s (prost-build's `btree_map`; `.` for all).
    pub fn btree_map(&mut self, path: impl Into<String>) -> &mut Self {
        self.btree_map.push(path.into());
        self
    }

    /// Bytes fields matching `path` become `bytes::Bytes` (prost-build's `bytes`; `.` for all).
    pub fn bytes(&mut self, path: impl Into<String>) -> &mut Self {
        self.bytes.push(path.into());
        self
    }

    /// Message fields matching `path` are boxed (prost-build's `boxed`).
    pub fn boxed(&mut self, path: impl Into<String>) -> &mut Self {
        self.boxed.push(path.into());
        self
    }

    /// Generates the `google.protobuf` types too instead of using `prost-types`.
    pub fn compile_well_known_types(&mut self) -> &mut Self {
        self.compile_well_known_types = true;
        self
    }

    /// Fields of the `google.protobuf` descriptor, api and type messages
    /// (`DescriptorProto`, `Api`, `Type`, ...) use protojsonx-descriptor's
    /// types, which hold every field of the current schema, instead of
    /// prost-types' (protobuf 3.19's, which drop `edition`, `features`,
    /// `visibility` and other newer fields). For schemas that embed them,
    /// like `google.api.Service` or BigQuery's `ProtoSchema`; the crate
    /// using the code needs protojsonx-descriptor as a dependency.
    pub fn current_descriptor_types(&mut self) -> &mut Self {
        for name in CURRENT_DESCRIPTOR_TYPES {
            self.extern_path(
                format!(".google.protobuf.{name}"),
                format!("::protojsonx_descriptor::types::{name}"),
            );
        }
        self.extern_path(
            ".google.protobuf.compiler",
            "::protojsonx_descriptor::types::compiler",
        )
    }

    /// Keeps the enum name prefix on enum variants (prost-build's `retain_enum_prefix`).
    pub fn retain_enum_prefix(&mut self) -> &mut Self {
        self.retain_enum_prefix = true;
        self
    }

    /// Implements `prost::Name` for messages (prost-build's `enable_type_names`).
    pub fn enable_type_names(&mut self) -> &mut Self {
        self.enable_type_names = true;
        self
    }

    /// Generates only the JSON code, for use beside structs that another tool
    /// (protoc-gen-prost, prost-build) generates with the same settings.
    pub fn json_only(&mut self) -> &mut Self {
        self.json_only = true;
        self
    }

    /// Also implements `serde::Serialize` and `serde::Deserialize` on every
    /// message, following ProtoJSON (through `protojsonx_runtime::serde`), so
    /// `serde_json`, `axum::Json` and other serde users get ProtoJSON. Needs
    /// protojsonx-runtime's `serde` cargo feature.
    pub fn serde(&mut self) -> &mut Self {
        self.serde = true;
        self
    }

    /// Also writes, for every service with `google.api.http` rules, a
    /// function that serves them over HTTP/JSON by calling tonic's server
    /// trait in process: `shop_routes(service, options)` for a service
    /// `Shop`, a `protojsonx_transcode::router::Router`. The code names
    /// tonic's trait as `shop_server::Shop` from the package's module: use
    /// it with [`json_only`](Self::json_only) beside tonic-prost-build's
    /// output. The rules are read from the encoded descriptors (prost
    /// structs drop custom options): [`Builder::compile`](crate::Builder::compile)
    /// and the plugin have them; [`generate`](crate::generate) does not.
    /// Needs the `protojsonx-transcode` crate.
    pub fn http_routes(&mut self) -> &mut Self {
        self.http_routes = true;
        self
    }

    /// Also writes `name` (like `mod.rs`), a module tree for all generated
    /// packages, as prost-build's `include_file`: nested `pub mod`s by
    /// package, each `include!`ing its package's files (named relative to
    /// the tree, which is written beside them), and
    /// `register_all_protojsonx_types()` registering every package's messages
    /// for `google.protobuf.Any`. With [`json_only`](Self::json_only), each
    /// package includes the struct file (`<package>.rs`) too.
    pub fn include_file(&mut self, name: impl Into<String>) -> &mut Self {
        self.include_file = Some(name.into());
        self
    }

    /// A prost-build configuration with the same settings, for the structs,
    /// then the build script's own changes to it.
    pub(crate) fn prost_config(&self) -> prost_build::Config {
        let mut config = prost_build::Config::new();
        for (proto, rust) in &self.extern_paths {
            config.extern_path(proto, rust);
        }
        config.btree_map(&self.btree_map).bytes(&self.bytes);
        for path in &self.boxed {
            config.boxed(path);
        }
        if self.compile_well_known_types {
            config.compile_well_known_types();
        }
        if self.retain_enum_prefix {
            config.retain_enum_prefix();
        }
        if self.enable_type_names {
            config.enable_type_names();
        }
        for change in &self.prost_changes.0 {
            change(&mut config);
        }
        config
    }

    /// The Rust path of a protobuf type that is not generated here (an extern
    /// path, or a well-known type from prost-types), as prost-build resolves it.
    pub(crate) fn resolve_extern(&self, type_name: &str) -> Option<String> {
        let well_known = (!self.compile_well_known_types)
            .then(|| (".google.protobuf".to_string(), "::prost_types".to_string()));
        let paths = self.extern_paths.iter().cloned().chain(well_known);
        let (prefix, rust) = paths
            .filter(|(proto, _)| {
                type_name == proto
                    || (type_name.starts_with(proto.as_str())
                        && type_name.as_bytes().get(proto.len()) == Some(&b'.'))
            })
            .max_by_key(|(proto, _)| proto.len())?;
        if type_name == prefix {
            return Some(rust);
        }
        let mut rest: Vec<&str> = type_name[prefix.len() + 1..].split('.').collect();
        let ty = ident::to_upper_camel(rest.pop().unwrap_or_default());
        let modules = rust
            .split("::")
            .enumerate()
            .map(|(i, s)| {
                if i == 0 && (s == "crate" || s.is_empty()) {
                    s.to_string()
                } else {
                    ident::to_snake(s)
                }
            })
            .chain(rest.into_iter().map(ident::to_snake));
        Some(
            modules
                .chain(std::iter::once(ty))
                .collect::<Vec<_>>()
                .join("::"),
        )
    }

    /// Applies one `key=value` (or bare `key`) plugin parameter.
    pub(crate) fn apply_parameter(&mut self, param: &str) -> Result<(), String> {
        let (key, value) = match param.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim())),
            None => (param.trim(), None),
        };
        let need = || value.ok_or_else(|| format!("parameter `{key}` needs a value: `{key}=...`"));
        match key {
            "extern_path" => {
                let v = need()?;
                let (proto, rust) = v.split_once('=').ok_or_else(|| {
                    format!("parameter `extern_path` takes `.proto.path=::rust::path`, got `{v}`")
                })?;
                self.extern_path(proto, rust);
            }
            "btree_map" => drop(self.btree_map(need()?)),
            "bytes" => drop(self.bytes(need()?)),
            "boxed" => drop(self.boxed(need()?)),
            "compile_well_known_types" => drop(self.compile_well_known_types()),
            "current_descriptor_types" => drop(self.current_descriptor_types()),
            "retain_enum_prefix" => drop(self.retain_enum_prefix()),
            "enable_type_names" => drop(self.enable_type_names()),
            "json_only" => drop(self.json_only()),
            "serde" => drop(self.serde()),
            "http_routes" => drop(self.http_routes()),
            "include_file" => drop(self.include_file(need()?)),
            "" => {}
            _ => {
                return Err(format!(
                    "unknown parameter `{key}`; known: extern_path, btree_map, bytes, boxed, \
                     compile_well_known_types, current_descriptor_types, retain_enum_prefix, \
                     enable_type_names, json_only, serde, http_routes, include_file"
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_known_types_resolve_to_prost_types() {
        let config = Config::new();
        assert_eq!(
            config
                .resolve_extern(".google.protobuf.NullValue")
                .as_deref(),
            Some("::prost_types::NullValue")
        );
        assert_eq!(
            config
                .resolve_extern(".google.protobuf.compiler.Version")
                .as_deref(),
            Some("::prost_types::compiler::Version")
        );
        assert_eq!(config.resolve_extern(".google.protobufx.A"), None);
        assert_eq!(config.resolve_extern(".my.A"), None);
    }

    #[test]
    fn the_longest_extern_path_wins() {
        let mut config = Config::new();
        config
            .extern_path(".a", "::x")
            .extern_path(".a.b", "crate::y");
        assert_eq!(
            config.resolve_extern(".a.b.Outer.Inner_enum").as_deref(),
            Some("crate::y::outer::InnerEnum")
        );
        assert_eq!(
            config.resolve_extern(".a.c.M").as_deref(),
            Some("::x::c::M")
        );
    }

    #[test]
    fn compiled_well_known_types_are_not_extern() {
        let mut config = Config::new();
        config.compile_well_known_types();
        assert_eq!(config.resolve_extern(".google.protobuf.Timestamp"), None);
    }

    #[test]
    fn parameters_are_parsed_and_unknown_ones_rejected() {
        let mut config = Config::new();
        config.apply_parameter("extern_path=.a=::b").unwrap();
        config.apply_parameter("btree_map=.").unwrap();
        config.apply_parameter("json_only").unwrap();
        config.apply_parameter("include_file=mod.rs").unwrap();
        assert_eq!(config.extern_paths, [(".a".to_string(), "::b".to_string())]);
        assert!(config.json_only);
        assert_eq!(config.include_file.as_deref(), Some("mod.rs"));
        let err = config.apply_parameter("frobnicate=1").unwrap_err();
        assert!(err.starts_with("unknown parameter `frobnicate`"), "{err}");
        assert!(config.apply_parameter("bytes").is_err());
    }
}
