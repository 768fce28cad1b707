//! The descriptor set a gateway serves, with the methods' options and
//! their extensions (`google.api.http`) kept: the bytes of `--descriptor-set`
//! as given, or `--proto` files compiled by protox (by protoc for editions
//! files), with `google/api/*.proto` built in for include directories
//! that lack them.

use std::path::{Path, PathBuf};
use std::process::Command;

use protox::file::{
    ChainFileResolver, File, FileResolver, GoogleFileResolver, IncludeFileResolver,
};

use crate::args::Schema;
use crate::failure::Failure;
use crate::schema::default_includes;

/// The `google/api` files a `google.api.http` rule needs, by import name.
const GOOGLE_API: [(&str, &str); 2] = protojsonx_transcode::gateway::GOOGLE_API_FILES;

/// The serialized `FileDescriptorSet` of `schema`, options kept.
pub fn load(schema: &Schema) -> Result<Vec<u8>, Failure> {
    match schema {
        Schema::DescriptorSet(path) => std::fs::read(path)
            .map_err(|e| Failure::Error(format!("cannot read `{}`: {e}", path.display()))),
        Schema::Protos { files, includes } => compile(files, &default_includes(files, includes)),
    }
}

/// `files` and their imports compiled by protox, or by protoc when one of
/// them is an editions file.
fn compile(files: &[PathBuf], includes: &[PathBuf]) -> Result<Vec<u8>, Failure> {
    for file in files {
        std::fs::metadata(file)
            .map_err(|e| Failure::Error(format!("cannot read `{}`: {e}", file.display())))?;
    }
    let mut resolver = ChainFileResolver::new();
    resolver.add(GoogleFileResolver::new());
    for dir in includes {
        resolver.add(IncludeFileResolver::new(dir.clone()));
    }
    resolver.add(BuiltInGoogleApi);
    let mut compiler = protox::Compiler::with_file_resolver(resolver);
    compiler.include_imports(true);
    match compiler.open_files(files) {
        Ok(_) => Ok(compiler.encode_file_descriptor_set()),
        Err(e) if is_editions_error(&e, includes) => with_protoc(files, includes),
        Err(e) => Err(Failure::Error(match e.file() {
            Some(file) if !e.to_string().contains(file) => format!("{file}: {e}"),
            _ => e.to_string(),
        })),
    }
}

/// Serves [`GOOGLE_API`]'s files, last in the chain: the user's copies win.
struct BuiltInGoogleApi;

impl FileResolver for BuiltInGoogleApi {
    fn open_file(&self, name: &str) -> Result<File, protox::Error> {
        match GOOGLE_API.iter().find(|(known, _)| *known == name) {
            Some((_, source)) => File::from_source(name, source),
            None => Err(protox::Error::file_not_found(name)),
        }
    }
}

/// Whether protox stopped at an editions file, which it cannot read yet
/// (it reads `edition` where it expects `syntax`).
fn is_editions_error(error: &protox::Error, includes: &[PathBuf]) -> bool {
    let Some(name) = error.file() else {
        return false;
    };
    let candidates = includes.iter().map(|dir| dir.join(name));
    candidates
        .chain([PathBuf::from(name)])
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .any(|text| declares_edition(&text))
}

/// Whether a .proto file's text declares an edition (`edition = "2023";`).
fn declares_edition(text: &str) -> bool {
    text.lines()
        .map(str::trim_start)
        .any(|line| line.starts_with("edition") && line[7..].trim_start().starts_with('='))
}

/// `files` compiled by protoc (`$PROTOC`, else the vendored one) with
/// `--include_imports`, [`GOOGLE_API`]'s files in a scratch directory last
/// on the include path.
fn with_protoc(files: &[PathBuf], includes: &[PathBuf]) -> Result<Vec<u8>, Failure> {
    let scratch = Scratch::new()?;
    let protoc = match std::env::var_os("PROTOC") {
        Some(path) => PathBuf::from(path),
        None => protoc_bin_vendored::protoc_bin_path()
            .map_err(|e| Failure::Error(format!("no protoc for editions files: {e}")))?,
    };
    let out = scratch.0.join("set.binpb");
    let mut command = Command::new(&protoc);
    command
        .arg("--include_imports")
        .arg(format!("--descriptor_set_out={}", out.display()));
    for dir in includes.iter().chain([&scratch.0.join("include")]) {
        command.arg(format!("--proto_path={}", dir.display()));
    }
    if let Ok(dir) = protoc_bin_vendored::include_path() {
        command.arg(format!("--proto_path={}", dir.display()));
    }
    let output = command
        .args(files)
        .output()
        .map_err(|e| Failure::Error(format!("cannot run `{}`: {e}", protoc.display())))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(Failure::Error(format!(
            "protoc failed: {}",
            stderr.trim_end()
        )));
    }
    std::fs::read(&out).map_err(|e| Failure::Error(format!("protoc wrote no descriptors: {e}")))
}

/// A scratch directory holding `include/` with [`GOOGLE_API`]'s files,
/// removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Self, Failure> {
        let dir = std::env::temp_dir().join(format!("protojsonx-gateway-{}", std::process::id()));
        let scratch = Scratch(dir);
        for (name, source) in GOOGLE_API {
            let path = scratch.0.join("include").join(name);
            write(&path, source)?;
        }
        Ok(scratch)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes `text` at `path`, making its directories.
fn write(path: &Path, text: &str) -> Result<(), Failure> {
    let fail =
        |e: std::io::Error| Failure::Error(format!("cannot write `{}`: {e}", path.display()));
    std::fs::create_dir_all(path.parent().unwrap_or(Path::new("."))).map_err(fail)?;
    std::fs::write(path, text).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editions_are_recognised_by_their_declaration() {
        assert!(declares_edition("// x\nedition = \"2023\";\n"));
        assert!(!declares_edition(
            "syntax = \"proto3\";\nmessage edition {}"
        ));
    }

    #[test]
    fn the_built_in_google_api_files_are_served_by_name() {
        assert!(BuiltInGoogleApi.open_file("google/api/http.proto").is_ok());
        assert!(
            BuiltInGoogleApi
                .open_file("google/api/client.proto")
                .is_err()
        );
    }
}
