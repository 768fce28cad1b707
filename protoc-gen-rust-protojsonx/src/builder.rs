//! The build.rs front end: `.proto` files in, prost structs plus JSON code out
//! in `OUT_DIR`, with no `protoc` needed.
//!
//! ```no_run
//! // build.rs
//! fn main() -> std::io::Result<()> {
//!     protoc_gen_rust_protojsonx::Builder::new()
//!         .include("proto")
//!         .compile(&["proto/shop/v1/order.proto"])
//! }
//! ```
//!
//! ```ignore
//! // src/lib.rs
//! pub mod shop {
//!     include!(concat!(env!("OUT_DIR"), "/shop.v1.rs"));
//! }
//! ```

use std::io;
use std::path::{Path, PathBuf};

use prost_types::{FileDescriptorProto, FileDescriptorSet};

use crate::config::Config;
use crate::routes::HttpRules;

/// Compiles `.proto` files from build.rs into `<package>.rs` files in `OUT_DIR`.
///
/// The files are parsed in Rust by [protox](https://docs.rs/protox), with the
/// `google/protobuf/*.proto` files taken from its bundled copy first; when the
/// `PROTOC` environment variable (or [`protoc`](Self::protoc)) names a
/// `protoc` binary, that is used instead. Both make the same code.
///
/// Editions files (`edition = "2023";`, `"2024"`), which protox cannot read
/// yet, are read by that protoc, or by the one the `vendored-protoc` feature
/// carries, and lowered to the proto2 and proto3 descriptors prost-build
/// reads ([`protojsonx_descriptor::lower`]).
#[derive(Debug, Clone, Default)]
pub struct Builder {
    config: Config,
    includes: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    protoc: Option<PathBuf>,
}

impl Builder {
    /// A builder with the default [`Config`] and no include paths.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a directory that imports are resolved against. The `.proto` files
    /// given to [`compile`](Self::compile) must be under one of them.
    pub fn include(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.includes.push(dir.as_ref().to_path_buf());
        self
    }

    /// Reads the `.proto` files with the `protoc` binary at `path` (27 or
    /// newer for editions files) instead of protox, as setting the `PROTOC`
    /// environment variable does; this setting wins over the variable.
    pub fn protoc(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.protoc = Some(path.as_ref().to_path_buf());
        self
    }

    /// Writes to `dir` instead of `OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Also writes `name` (like `"mod.rs"`) beside the package files: the
    /// module tree of every package, to `include!` once instead of one
    /// `include!` per package (see [`Config::include_file`]).
    ///
    /// ```ignore
    /// // src/lib.rs, after `.include_file("mod.rs")` in build.rs
    /// include!(concat!(env!("OUT_DIR"), "/mod.rs"));
    /// // google::api::HttpRule, google::r#type::Date, ...
    /// register_all_protojsonx_types();
    /// ```
    pub fn include_file(&mut self, name: impl Into<String>) -> &mut Self {
        self.config.include_file(name);
        self
    }

    /// Changes the generation settings, shared with the protoc plugin.
    pub fn configure(&mut self, change: impl FnOnce(&mut Config)) -> &mut Self {
        change(&mut self.config);
        self
    }

    /// Changes prost-build's own [`prost_build::Config`] before it generates
    /// the structs, for what only the structs need: attributes
    /// (`type_attribute`, `message_attribute`, `enum_attribute`,
    /// `field_attribute`), `skip_debug`, `disable_comments`,
    /// `type_name_domain`, ... Calls add up, made in order after the shared
    /// settings of [`configure`](Self::configure).
    ///
    /// Settings that change the Rust types (`btree_map`, `bytes`, `boxed`,
    /// `extern_path`, `compile_well_known_types`, `retain_enum_prefix`,
    /// `enable_type_names`) belong in [`configure`](Self::configure): only
    /// there do they reach the JSON code too, which would not fit the
    /// structs otherwise. The builder writes the files itself, so prost-build's
    /// file settings (`out_dir`, `include_file`, `file_descriptor_set_path`)
    /// have no effect: use [`out_dir`](Self::out_dir) and
    /// [`include_file`](Self::include_file). With
    /// [`Config::json_only`] no structs are generated and nothing here is used.
    ///
    /// ```
    /// # fn main() -> std::io::Result<()> {
    /// # let dir = std::env::temp_dir().join(format!("protojsonx-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(dir.join("shop/v1"))?;
    /// # std::fs::write(dir.join("shop/v1/item.proto"), "syntax = \"proto3\"; package shop.v1; message Item { string sku = 1; }")?;
    /// protoc_gen_rust_protojsonx::Builder::new()
    ///     .include(&dir)
    ///     .out_dir(&dir)
    ///     .prost_config(|c| {
    ///         c.type_attribute(".shop.v1.Item", "#[derive(PartialOrd)]");
    ///     })
    ///     .compile(&[dir.join("shop/v1/item.proto")])?;
    /// let code = std::fs::read_to_string(dir.join("shop.v1.rs"))?;
    /// assert!(code.contains("#[derive(PartialOrd)]\n#[derive(Clone, PartialEq"));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn prost_config(
        &mut self,
        change: impl Fn(&mut prost_build::Config) + Send + Sync + 'static,
    ) -> &mut Self {
        self.config.prost_changes.push(change);
        self
    }

    /// prost-build's [`prost_build::Config`] with this builder's settings for
    /// the structs: the shared settings of [`configure`](Self::configure)
    /// that change the Rust types, then the changes of
    /// [`prost_config`](Self::prost_config). For generators that run
    /// prost-build themselves, such as tonic-prost-build's
    /// `compile_fds_with_config` and `compile_with_config`: give them this
    /// `Config` for the structs, and write the JSON code beside them with the
    /// same builder and [`Config::json_only`], so that both halves are made
    /// with the same settings.
    ///
    /// The JSON code cannot travel inside the returned `Config`: prost-build's
    /// one hook for adding code to its files, the service generator, is the
    /// one tonic-prost-build replaces with its own.
    ///
    /// ```ignore
    /// // build.rs
    /// let mut json = protoc_gen_rust_protojsonx::Builder::new();
    /// json.include("proto").configure(|c| {
    ///     c.btree_map(".");
    /// });
    /// let (fds, to_generate) = json.file_descriptor_set(&["proto/shop/v1/shop.proto"])?;
    /// tonic_prost_build::configure()
    ///     .compile_fds_with_config(fds.clone(), json.prost_build_config())?;
    /// json.configure(|c| {
    ///     c.json_only();
    /// })
    /// .compile_fds(fds, &to_generate)?;
    /// // src/lib.rs: include! both `shop.v1.rs` and `shop.v1.protojsonx.rs`
    /// // in the package's module.
    /// ```
    pub fn prost_build_config(&self) -> prost_build::Config {
        self.config.prost_config()
    }

    /// Parses `protos` (and what they import) and generates code for them.
    pub fn compile(&self, protos: &[impl AsRef<Path>]) -> io::Result<()> {
        let parsed = self.parse(protos)?;
        self.write(&parsed.set.file, &parsed.names, &parsed.rules)
    }

    /// Parses `protos` the way [`compile`](Self::compile) does, for build
    /// scripts that feed the same descriptors to other generators as well
    /// (tonic-prost-build, pbjson-build, ...): the descriptors of `protos` and
    /// of everything they import, with their comments, and the names of
    /// `protos` as the descriptors spell them, ready for
    /// [`compile_fds`](Self::compile_fds). From a build script, prints
    /// `cargo:rerun-if-changed` for every proto given and every include
    /// directory; elsewhere (a program reading schemas at run time, like the
    /// `protojsonx` command line) it prints nothing, leaving standard output
    /// to the program.
    pub fn file_descriptor_set(
        &self,
        protos: &[impl AsRef<Path>],
    ) -> io::Result<(FileDescriptorSet, Vec<String>)> {
        let parsed = self.parse(protos)?;
        Ok((parsed.set, parsed.names))
    }

    fn parse(&self, protos: &[impl AsRef<Path>]) -> io::Result<crate::parse::Parsed> {
        let paths: Vec<&Path> = protos.iter().map(AsRef::as_ref).collect();
        let protoc = self
            .protoc
            .clone()
            .or_else(|| std::env::var_os("PROTOC").map(PathBuf::from));
        let parsed = crate::parse::descriptors(protoc.as_deref(), &self.includes, &paths)?;
        if in_build_script() {
            self.print_rerun_if_changed(&paths);
        }
        Ok(parsed)
    }

    fn print_rerun_if_changed(&self, paths: &[&Path]) {
        for proto in paths {
            println!("cargo:rerun-if-changed={}", proto.display());
        }
        for dir in &self.includes {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
    }

    /// Generates code for the files named in `to_generate`, out of an already
    /// compiled descriptor set holding them and their imports (for example
    /// from `protoc --include_imports --descriptor_set_out`).
    pub fn compile_fds(&self, set: FileDescriptorSet, to_generate: &[String]) -> io::Result<()> {
        self.write(&set.file, to_generate, &HttpRules::new())
    }

    fn write(
        &self,
        files: &[FileDescriptorProto],
        to_generate: &[String],
        rules: &HttpRules,
    ) -> io::Result<()> {
        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    io::Error::other("OUT_DIR is not set: call from build.rs or set out_dir")
                })?,
        };
        let generated = crate::generate_with_rules(&self.config, files, to_generate, rules)
            .map_err(io::Error::other)?;
        for file in generated {
            std::fs::write(out_dir.join(&file.name), file.content)?;
        }
        Ok(())
    }
}

/// Whether this process is a Cargo build script, the one reader of `cargo:`
/// lines on standard output: Cargo gives build scripts `OUT_DIR` and `TARGET`
/// (programs it runs or tests get no `TARGET`).
fn in_build_script() -> bool {
    std::env::var_os("OUT_DIR").is_some() && std::env::var_os("TARGET").is_some()
}
