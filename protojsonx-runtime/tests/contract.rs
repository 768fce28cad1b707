//! Generated code and a runtime of different contracts fail to compile with
//! one message that says what to do. This test checks a small crate whose
//! code claims contracts 0 (older than the runtime) and 999 (newer) with
//! `cargo check`, and reads the compiler's errors. Only the messages are
//! compared: the text around them differs between Rust releases.

use std::path::Path;
use std::process::{Command, Output};

/// The crate's code: what a generated file starts with, for both contracts.
const GENERATED: &str = "\
const _: () = ::protojsonx_runtime::__private::check_contract(0);
const _: () = ::protojsonx_runtime::__private::check_contract(999);
";

#[test]
fn a_mismatched_contract_fails_to_compile_saying_what_to_do() {
    let output = cargo_check(GENERATED);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert_eq!(stderr.matches("error[E0080]").count(), 2, "{stderr}");
    let older = concat!(
        "this code was generated for an older protojsonx-runtime than ",
        env!("CARGO_PKG_VERSION"),
        ": regenerate it with protoc-gen-rust-protojsonx ",
        env!("CARGO_PKG_VERSION"),
    );
    assert!(stderr.contains(older), "{stderr}");
    let newer = concat!(
        "this code was generated for a newer protojsonx-runtime than ",
        env!("CARGO_PKG_VERSION"),
        ": upgrade protojsonx-runtime",
    );
    assert!(stderr.contains(newer), "{stderr}");
}

/// Runs `cargo check` on a library crate of `code` that depends on this
/// runtime, in a directory of its own with the workspace's lock file (so it
/// needs no network and builds the same dependency versions).
fn cargo_check(code: &str) -> Output {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("contract-mismatch");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let runtime = env!("CARGO_MANIFEST_DIR");
    let manifest = format!(
        "[package]\nname = \"contract-mismatch\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n[dependencies]\nprotojsonx-runtime = {{ path = {runtime:?} }}\n\n\
         [workspace]\n"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("src/lib.rs"), code).unwrap();
    let lock = Path::new(runtime).join("../Cargo.lock");
    std::fs::copy(lock, dir.join("Cargo.lock")).unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(["check", "--quiet", "--offline"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .unwrap()
}
