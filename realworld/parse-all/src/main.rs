//! Every `.proto` file under a tree (googleapis: `realworld/fetch.sh` puts it
//! in `.cache/realworld/protos/googleapis`) through protojsonx's `Builder`,
//! no protoc: each file parsed on its own (so every failure is listed), then
//! code generated for all of them at once, with the module tree. The files
//! under `google/protobuf/` are skipped: they are protobuf's own (its test
//! protos among them), and `Builder` takes the well-known ones from protox's
//! bundled copy anyway.
//!
//! ```text
//! protojsonx-realworld-parse-all ROOT OUT_DIR
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use protoc_gen_rust_protojsonx::Builder;

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [root, out] = args.as_slice() else {
        eprintln!("usage: protojsonx-realworld-parse-all ROOT OUT_DIR");
        return ExitCode::FAILURE;
    };
    let files = protos_under(root);
    let start = Instant::now();
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let parsed = Builder::new().include(root).file_descriptor_set(&[f]);
            parsed.err().map(|e| format!("{}: {e}", f.display()))
        })
        .collect();
    println!(
        "parse-all: {} of {} files parse ({:.1} s, each on its own)",
        files.len() - failures.len(),
        files.len(),
        start.elapsed().as_secs_f64()
    );
    for failure in &failures {
        println!("parse-all: FAILED {failure}");
    }
    let start = Instant::now();
    let _ = std::fs::remove_dir_all(out);
    let generated = std::fs::create_dir_all(out).and_then(|()| {
        Builder::new()
            .include(root)
            .out_dir(out)
            .include_file("mod.rs")
            .compile(&files)
    });
    match generated {
        Ok(()) => println!(
            "parse-all: generated {} package files for all of them ({:.1} s)",
            std::fs::read_dir(out).map_or(0, |d| d.count()) - 1,
            start.elapsed().as_secs_f64()
        ),
        Err(ref e) => println!("parse-all: generation FAILED: {e}"),
    }
    if failures.is_empty() && generated.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The `.proto` files under `root`, sorted, without those of `google/protobuf/`.
fn protos_under(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "proto") {
                files.push(path);
            }
        }
    }
    files.retain(|f| !f.starts_with(root.join("google/protobuf")));
    files.sort();
    files
}
