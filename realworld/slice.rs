//! The real-world slice as paths: the include roots the protos were fetched
//! into and the `.proto` files `slice.txt` names. Shared by the build
//! scripts of `protojsonx-realworld` and of `compare/` (`#[path]` module).

use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};

/// The variable that names the proto root, instead of `.cache/realworld/protos`.
pub const PROTOS_VAR: &str = "PROTOJSONX_REALWORLD_PROTOS";

/// The include roots under the proto root.
const ROOTS: [&str; 2] = ["googleapis", "opentelemetry"];

/// The include roots and the slice's files, for the `realworld/` directory
/// at `realworld` (relative to the build script's working directory).
pub fn slice(realworld: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>), Box<dyn Error>> {
    println!(
        "cargo:rerun-if-changed={}",
        realworld.join("slice.txt").display()
    );
    println!("cargo:rerun-if-env-changed={PROTOS_VAR}");
    let root = std::env::var_os(PROTOS_VAR)
        .map(PathBuf::from)
        .unwrap_or_else(|| realworld.join("../.cache/realworld/protos"));
    slice_under(realworld, &root)
}

/// [`slice`] with the protos under `root` (holding `googleapis/` and
/// `opentelemetry/`, like the editions copies of realworld/editions.sh),
/// printing nothing.
pub fn slice_under(
    realworld: &Path,
    root: &Path,
) -> Result<(Vec<PathBuf>, Vec<PathBuf>), Box<dyn Error>> {
    let includes = include_roots(root)?;
    let files = slice_files(&realworld.join("slice.txt"), &includes)?;
    Ok((includes, files))
}

/// The include directories under `root`, or an error telling to run fetch.sh.
fn include_roots(root: &Path) -> Result<Vec<PathBuf>, Box<dyn Error>> {
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
