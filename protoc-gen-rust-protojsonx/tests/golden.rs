//! Golden files: the JSON code generated for the test protos in `tests/proto`
//! (at the workspace root) is compared with the files checked in under
//! `tests/golden/`. A change to the generated code shows up as a diff here and
//! must be blessed on purpose:
//!
//! ```text
//! PROTOJSONX_BLESS=1 cargo test -p protoc-gen-rust-protojsonx --test golden
//! ```

use std::path::{Path, PathBuf};

use protoc_gen_rust_protojsonx::Builder;

const PROTOS: &[&str] = &[
    "protojsonx/test/scalars.proto",
    "protojsonx/test/well_known.proto",
    "protojsonx/other/other.proto",
    "protojsonx/names/names.proto",
    "protojsonx/legacy/legacy.proto",
    "protojsonx/variants/variants.proto",
];

fn generate_into(dir: &Path) {
    let proto_root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/proto");
    let inputs: Vec<PathBuf> = PROTOS.iter().map(|p| proto_root.join(p)).collect();
    Builder::new()
        .include(&proto_root)
        .out_dir(dir)
        .configure(|c| {
            c.json_only();
        })
        .compile(&inputs)
        .expect("generation succeeds");
    // protox cannot read editions: protoc reads this one.
    Builder::new()
        .include(&proto_root)
        .protoc(protoc_bin_vendored::protoc_bin_path().unwrap())
        .out_dir(dir)
        .configure(|c| {
            c.json_only();
        })
        .compile(&[proto_root.join("protojsonx/editions/editions.proto")])
        .expect("generation succeeds");
}

fn files_in(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("readable dir")
        .map(|entry| {
            let path = entry.expect("dir entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).expect("readable file"))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn generated_code_matches_the_golden_files() {
    let out = std::env::temp_dir().join(format!("protojsonx-golden-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    generate_into(&out);
    let golden_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let generated = files_in(&out);
    std::fs::remove_dir_all(&out).unwrap();
    if std::env::var_os("PROTOJSONX_BLESS").is_some() {
        for (name, _) in files_in(&golden_dir) {
            std::fs::remove_file(golden_dir.join(name)).unwrap();
        }
        for (name, content) in &generated {
            std::fs::write(golden_dir.join(name), content).unwrap();
        }
        return;
    }
    let golden = files_in(&golden_dir);
    let names =
        |files: &[(String, String)]| files.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(&generated),
        names(&golden),
        "generated file set differs; bless with PROTOJSONX_BLESS=1"
    );
    for ((name, got), (_, want)) in generated.iter().zip(&golden) {
        assert!(
            got == want,
            "{name} differs from tests/golden/{name}; review the diff and bless with PROTOJSONX_BLESS=1"
        );
    }
}
