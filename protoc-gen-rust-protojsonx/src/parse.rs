//! How the build.rs front end turns `.proto` files into descriptors: in Rust
//! by [protox], or by the `protoc` that the `PROTOC` environment variable
//! names. Both give descriptors with source info, so both make the same code,
//! doc comments included.
//!
//! protox resolves the `google/protobuf/*.proto` files from its bundled copy
//! before the include directories: prost maps those types to prost-types
//! anyway, and trees that vendor a newer `descriptor.proto` (googleapis,
//! buf exports) would otherwise stop at syntax protox does not read yet.
//!
//! protox cannot read editions files (`edition = "2023";`): when it meets
//! one, protoc reads them all, the one `PROTOC` names or the one the
//! `vendored-protoc` feature carries. Every set is lowered
//! ([`protojsonx_descriptor::lower`]) to the proto2 and proto3 descriptors
//! prost-build reads.

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::routes::{HTTP_EXTENSION, HttpRules};
use miette::Diagnostic;
use prost::Message;
use prost_types::FileDescriptorSet;
use protox::file::{ChainFileResolver, FileResolver, GoogleFileResolver, IncludeFileResolver};

/// What parsing gives the generator.
pub(crate) struct Parsed {
    /// The descriptors of the files and of everything they import.
    pub set: FileDescriptorSet,
    /// The names of the files parsed, as the descriptors spell them
    /// (relative to their include directory).
    pub names: Vec<String>,
    /// The methods' `google.api.http` rules, which `set` cannot carry.
    pub rules: HttpRules,
}

/// The descriptors of `protos` and of everything they import: read by
/// `protoc` if given, else by protox.
pub(crate) fn descriptors(
    protoc: Option<&Path>,
    includes: &[PathBuf],
    protos: &[&Path],
) -> io::Result<Parsed> {
    match protoc {
        Some(protoc) => with_protoc(protoc, includes, protos),
        None => with_protox(includes, protos),
    }
}

/// The protoc that reads editions files when `PROTOC` is not set: the one
/// the `vendored-protoc` feature carries.
#[cfg(feature = "vendored-protoc")]
fn editions_protoc(_file: &str) -> io::Result<PathBuf> {
    protoc_bin_vendored::protoc_bin_path().map_err(io::Error::other)
}

/// Without the `vendored-protoc` feature, an editions file needs `PROTOC`.
#[cfg(not(feature = "vendored-protoc"))]
fn editions_protoc(file: &str) -> io::Result<PathBuf> {
    Err(io::Error::other(format!(
        "`{file}` uses protobuf editions (`edition = ...`), which protox, the parser used \
         when PROTOC is not set, cannot read yet (andrewhickman/protox#31): set PROTOC to \
         protoc 27 or newer, or enable the `vendored-protoc` feature of \
         protoc-gen-rust-protojsonx"
    )))
}

fn with_protox(includes: &[PathBuf], protos: &[&Path]) -> io::Result<Parsed> {
    let mut resolver = ChainFileResolver::new();
    resolver.add(GoogleFileResolver::new());
    for dir in includes {
        resolver.add(IncludeFileResolver::new(dir.clone()));
    }
    let compiler = match open(resolver, protos, true) {
        Ok(compiler) => compiler,
        Err(e) => match editions_file(&e, includes) {
            Some(file) => return with_protoc(&editions_protoc(file)?, includes, protos),
            None => return Err(io::Error::other(diagnostic(&e))),
        },
    };
    let names = compiler
        .files()
        .filter(|f| !f.is_import())
        .map(|f| f.name().to_string())
        .collect();
    Ok(Parsed {
        rules: http_rules(&compiler.encode_file_descriptor_set())?,
        set: compiler.file_descriptor_set(),
        names,
    })
}

/// The descriptors of `files` (and their imports), every one of them read
/// from `root`: unlike [`descriptors`], the bundled Google files are not
/// preferred, for compiling a particular version of them.
pub(crate) fn only_under(root: &Path, files: &[&str]) -> Result<FileDescriptorSet, String> {
    let mut resolver = ChainFileResolver::new();
    resolver.add(IncludeFileResolver::new(root.to_path_buf()));
    resolver.add(GoogleFileResolver::new());
    let compiler = open(resolver, files, false).map_err(|e| diagnostic(&e))?;
    Ok(compiler.file_descriptor_set())
}

/// A protox compiler holding `files` and their imports as `resolver` finds
/// them, with source info if asked.
fn open(
    resolver: impl FileResolver + 'static,
    files: &[impl AsRef<Path>],
    source_info: bool,
) -> Result<protox::Compiler, protox::Error> {
    let mut compiler = protox::Compiler::with_file_resolver(resolver);
    compiler
        .include_imports(true)
        .include_source_info(source_info);
    compiler.open_files(files)?;
    Ok(compiler)
}

fn with_protoc(protoc: &Path, includes: &[PathBuf], protos: &[&Path]) -> io::Result<Parsed> {
    let out = std::env::temp_dir().join(format!(
        "protojsonx-{}-{:?}.fds",
        std::process::id(),
        std::thread::current().id()
    ));
    let mut command = Command::new(protoc);
    command
        .arg("--include_imports")
        .arg("--include_source_info")
        .arg(format!("--descriptor_set_out={}", out.display()));
    for dir in includes {
        command.arg(format!("--proto_path={}", dir.display()));
    }
    command.args(protos);
    let output = command
        .output()
        .map_err(|e| io::Error::other(format!("cannot run protoc `{}`: {e}", protoc.display())))?;
    if !output.status.success() {
        return Err(io::Error::other(format!(
            "protoc failed: {}",
            String::from_utf8_lossy(&output.stderr).trim_end()
        )));
    }
    let bytes = std::fs::read(&out);
    let _ = std::fs::remove_file(&out);
    let bytes = bytes?;
    let lowered = protojsonx_descriptor::lower_encoded(&bytes).map_err(io::Error::other)?;
    let set = FileDescriptorSet::decode(lowered.as_slice())?;
    let names = protos
        .iter()
        .map(|p| name_under(includes, p))
        .collect::<io::Result<_>>()?;
    Ok(Parsed {
        set,
        names,
        rules: http_rules(&bytes)?,
    })
}

/// The methods' `google.api.http` rules in an encoded descriptor set.
fn http_rules(set: &[u8]) -> io::Result<HttpRules> {
    protojsonx_descriptor::options::method_extensions(set, HTTP_EXTENSION).map_err(io::Error::other)
}

/// The name protoc gives `proto`: its path under the first include directory
/// holding it, with `/` separators.
fn name_under(includes: &[PathBuf], proto: &Path) -> io::Result<String> {
    includes
        .iter()
        .find_map(|dir| proto.strip_prefix(dir).ok())
        .map(|rest| {
            rest.components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/")
        })
        .ok_or_else(|| {
            io::Error::other(format!(
                "`{}` is not under any include directory",
                proto.display()
            ))
        })
}

/// A protox error as one readable diagnostic: `file:line:column: message`,
/// then the offending line with a caret under the column. Errors without a
/// location are their message alone (after the file, if known).
fn diagnostic(error: &protox::Error) -> String {
    let message = error.to_string();
    let label = error.labels().and_then(|mut labels| labels.next());
    let everything = miette::SourceSpan::from((0, 0));
    let source = error
        .source_code()
        .and_then(|source| source.read_span(&everything, 0, usize::MAX / 2).ok());
    let (Some(label), Some(source)) = (label, source) else {
        return match error.file() {
            Some(file) => format!("{file}: {message}"),
            None => message,
        };
    };
    let text = String::from_utf8_lossy(source.data());
    let file = source.name().or(error.file()).unwrap_or("<input>");
    let (line, column, line_text) = locate(&text, label.offset());
    let mut out = format!("{file}:{line}:{column}: {message}");
    if let Some(what) = label.label() {
        let _ = write!(out, " ({what})");
    }
    let gutter = line.to_string();
    let _ = write!(
        out,
        "\n{gutter} | {line_text}\n{:w$} | {:c$}^",
        "",
        "",
        w = gutter.len(),
        c = column - 1
    );
    out
}

/// The 1-based line and column (in characters) of byte `offset` in `text`,
/// and the text of that line.
fn locate(text: &str, offset: usize) -> (usize, usize, &str) {
    let offset = offset.min(text.len());
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = text[..start].matches('\n').count() + 1;
    let column = text[start..offset].chars().count() + 1;
    (line, column, text[start..end].trim_end_matches('\r'))
}

/// The editions file protox stopped at, if that is why it failed: it reads
/// `edition` where it expects `syntax`.
fn editions_file<'e>(error: &'e protox::Error, includes: &[PathBuf]) -> Option<&'e str> {
    let name = error.file()?;
    let text = includes
        .iter()
        .find_map(|dir| std::fs::read_to_string(dir.join(name)).ok())?;
    declares_edition(&text).then_some(name)
}

/// Whether a .proto file's text declares an edition (`edition = "2023";`).
fn declares_edition(text: &str) -> bool {
    text.lines()
        .map(str::trim_start)
        .any(|line| line.starts_with("edition") && line[7..].trim_start().starts_with('='))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editions_are_recognised_by_their_declaration() {
        assert!(declares_edition("// x\nedition = \"2023\";\n"));
        assert!(declares_edition("  edition=\"2024\";"));
        assert!(!declares_edition(
            "syntax = \"proto3\";\nmessage edition {}"
        ));
        assert!(!declares_edition("message M { string editions = 1; }"));
    }

    #[test]
    fn offsets_become_lines_and_columns() {
        let text = "a\r\nbé c\nd";
        assert_eq!(locate(text, 0), (1, 1, "a"));
        assert_eq!(locate(text, 7), (2, 4, "bé c"));
        assert_eq!(locate(text, 9), (3, 1, "d"));
        assert_eq!(locate(text, 99), (3, 2, "d"));
    }

    #[test]
    fn names_are_relative_to_their_include_directory() {
        let includes = [PathBuf::from("proto"), PathBuf::from("vendor")];
        assert_eq!(
            name_under(&includes, Path::new("vendor/a/b.proto")).unwrap(),
            "a/b.proto"
        );
        assert!(name_under(&includes, Path::new("elsewhere/c.proto")).is_err());
    }
}
