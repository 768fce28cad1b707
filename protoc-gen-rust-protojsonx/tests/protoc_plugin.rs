//! End to end under a real `protoc` (from protoc-bin-vendored): the plugin
//! binary generates code for the test protos, the code compiles in a fresh
//! crate, JSON-only output equals what the build.rs front end writes, and bad
//! parameters fail with a one-line error.

use std::path::{Path, PathBuf};
use std::process::Command;

use protoc_gen_rust_protojsonx::Builder;

const PROTOS: &[&str] = &[
    "protojsonx/test/scalars.proto",
    "protojsonx/test/well_known.proto",
    "protojsonx/other/other.proto",
    "protojsonx/names/names.proto",
    "protojsonx/legacy/legacy.proto",
];

/// An `edition = "2023"` file, which protox cannot read: the build.rs side
/// reads it with the vendored protoc.
const EDITIONS: &str = "protojsonx/editions/editions.proto";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs protoc with the plugin; returns its exit status and stderr.
fn protoc(out: &Path, parameter: &str) -> (bool, String) {
    let protoc = protoc_bin_vendored::protoc_bin_path().unwrap();
    let include = protoc_bin_vendored::include_path().unwrap();
    let plugin = env!("CARGO_BIN_EXE_protoc-gen-rust-protojsonx");
    let output = Command::new(protoc)
        .arg(format!("--plugin=protoc-gen-rust-protojsonx={plugin}"))
        .arg(format!("--rust-protojsonx_out={}", out.display()))
        .arg(format!("--rust-protojsonx_opt={parameter}"))
        .arg(format!(
            "--proto_path={}",
            workspace().join("tests/proto").display()
        ))
        .arg(format!("--proto_path={}", include.display()))
        .args(PROTOS)
        .arg(EDITIONS)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn read_dir(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&path).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn protoc_output_compiles() {
    let out = scratch("protoc-out");
    let (ok, stderr) = protoc(&out, "");
    assert!(ok, "protoc failed: {stderr}");
    let names: Vec<String> = read_dir(&out).into_iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        [
            "protojsonx.editions.rs",
            "protojsonx.legacy.rs",
            "protojsonx.names.rs",
            "protojsonx.other.rs",
            "protojsonx.test.rs"
        ]
    );

    let krate = scratch("protoc-crate");
    let ws = workspace();
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"protoc-output\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n[workspace]\n\n\
             [dependencies]\nprost = \"0.14\"\nprost-types = \"0.14\"\nprotojsonx-runtime = {{ path = \"{}\" }}\n",
            ws.join("protojsonx-runtime").display()
        ),
    )
    .unwrap();
    std::fs::create_dir_all(krate.join("src")).unwrap();
    let include = |name: &str| format!("include!(\"{}\");", out.join(name).display());
    let lib = format!(
        "#![deny(warnings)]\npub mod protojsonx {{\n pub mod test {{ {} }}\n pub mod other {{ {} }}\n pub mod names {{ {} }}\n pub mod legacy {{ {} }}\n pub mod editions {{ {} }}\n}}\n",
        include("protojsonx.test.rs"),
        include("protojsonx.other.rs"),
        include("protojsonx.names.rs"),
        include("protojsonx.legacy.rs"),
        include("protojsonx.editions.rs"),
    );
    std::fs::write(krate.join("src/lib.rs"), lib).unwrap();
    std::fs::copy(ws.join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    let status = Command::new(env!("CARGO"))
        .arg("check")
        .arg("--quiet")
        .current_dir(&krate)
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("protoc-crate-target"),
        )
        .status()
        .unwrap();
    assert!(
        status.success(),
        "the code protoc generated does not compile"
    );
}

#[test]
fn protoc_and_build_rs_generate_the_same_json_code() {
    let from_protoc = scratch("protoc-json-only");
    let (ok, stderr) = protoc(&from_protoc, "json_only");
    assert!(ok, "protoc failed: {stderr}");
    let from_builder = scratch("builder-json-only");
    let root = workspace().join("tests/proto");
    let inputs: Vec<PathBuf> = PROTOS.iter().map(|p| root.join(p)).collect();
    Builder::new()
        .include(&root)
        .out_dir(&from_builder)
        .configure(|c| {
            c.json_only();
        })
        .compile(&inputs)
        .unwrap();
    Builder::new()
        .include(&root)
        .protoc(protoc_bin_vendored::protoc_bin_path().unwrap())
        .out_dir(&from_builder)
        .configure(|c| {
            c.json_only();
        })
        .compile(&[root.join(EDITIONS)])
        .unwrap();
    assert_eq!(read_dir(&from_protoc), read_dir(&from_builder));
}

#[test]
fn bad_parameters_fail_with_a_one_line_error() {
    let out = scratch("protoc-bad-param");
    let (ok, stderr) = protoc(&out, "colour=blue");
    assert!(!ok);
    assert!(stderr.contains("unknown parameter `colour`"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}

/// Under protoc, `http_routes` sees the methods' `google.api.http` rules
/// (the plugin reads them from the encoded request: decoding drops custom
/// options) and writes the same routes as the build.rs front end.
#[test]
fn http_routes_under_protoc_equal_the_builders() {
    let protoc = protoc_bin_vendored::protoc_bin_path().unwrap();
    let include = protoc_bin_vendored::include_path().unwrap();
    let plugin = env!("CARGO_BIN_EXE_protoc-gen-rust-protojsonx");
    let shop = workspace().join("protojsonx-transcode/e2e/proto");
    let annotations = workspace().join("protojsonx-transcode/proto");
    let out = scratch("plugin-http-routes");
    let status = Command::new(protoc)
        .arg(format!("--plugin=protoc-gen-rust-protojsonx={plugin}"))
        .arg(format!("--rust-protojsonx_out={}", out.display()))
        .arg("--rust-protojsonx_opt=json_only,http_routes")
        .arg(format!("--proto_path={}", shop.display()))
        .arg(format!("--proto_path={}", annotations.display()))
        .arg(format!("--proto_path={}", include.display()))
        .arg("shop/v1/shop.proto")
        .status()
        .unwrap();
    assert!(status.success());
    let built = scratch("builder-http-routes");
    Builder::new()
        .include(&shop)
        .include(&annotations)
        .out_dir(&built)
        .configure(|c| {
            c.json_only().http_routes();
        })
        .compile(&[shop.join("shop/v1/shop.proto")])
        .unwrap();
    let plugin_code = std::fs::read_to_string(out.join("shop.v1.protojsonx.rs")).unwrap();
    assert!(plugin_code.contains("pub fn shop_routes<S: shop_server::Shop>("));
    assert_eq!(
        plugin_code,
        std::fs::read_to_string(built.join("shop.v1.protojsonx.rs")).unwrap()
    );
}
