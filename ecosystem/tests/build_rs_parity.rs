//! The build.rs front end makes the same code whether protox reads the
//! .proto files (no `protoc` anywhere) or `protoc` does (`PROTOC` set).
//!
//! Both carry the .proto comments as doc comments: protoc's source info in
//! one case, protox's in the other.

use std::path::{Path, PathBuf};

use protoc_gen_rust_protojsonx::Builder;

/// Each proto set with its include directory and settings.
fn cases() -> Vec<(&'static str, &'static str, Vec<&'static str>, bool)> {
    vec![
        (
            "example",
            "../examples/proto",
            vec!["event/v1/event.proto"],
            false,
        ),
        (
            "multi",
            "proto",
            vec!["acme/common/v1/money.proto", "acme/shop/v1/order.proto"],
            true,
        ),
        (
            "tests",
            "../tests/proto",
            vec![
                "protojsonx/test/scalars.proto",
                "protojsonx/test/well_known.proto",
                "protojsonx/names/names.proto",
                "protojsonx/legacy/legacy.proto",
            ],
            false,
        ),
    ]
}

fn generate(out: &Path) {
    for (name, include, protos, serde) in cases() {
        let dir = out.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let protos: Vec<String> = protos.iter().map(|p| format!("{include}/{p}")).collect();
        Builder::new()
            .include(include)
            .out_dir(&dir)
            .configure(|c| {
                if serde {
                    c.serde();
                }
            })
            .compile(&protos)
            .unwrap();
    }
}

fn files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files(&path));
        } else {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path.strip_prefix(dir).unwrap().to_path_buf(), text));
        }
    }
    out.sort();
    out
}

/// The only test in this binary, so setting `PROTOC` races with nothing.
#[test]
fn protoc_and_protox_generate_identical_code() {
    let tmp = std::env::temp_dir().join(format!("protojsonx-parity-{}", std::process::id()));
    let (pure, protoc) = (tmp.join("pure"), tmp.join("protoc"));
    generate(&pure);
    let bin = protoc_bin_vendored::protoc_bin_path().unwrap();
    // SAFETY: no other thread of this test binary reads or writes the environment.
    unsafe { std::env::set_var("PROTOC", tmp.join("no-such-protoc")) };
    let missing = Builder::new()
        .include("proto")
        .out_dir(&tmp)
        .compile(&["proto/acme/common/v1/money.proto"]);
    assert!(missing.is_err(), "PROTOC is honoured");
    unsafe { std::env::set_var("PROTOC", &bin) };
    generate(&protoc);
    unsafe { std::env::remove_var("PROTOC") };
    let (a, b) = (files(&pure), files(&protoc));
    assert!(a.len() >= 6, "{a:?}");
    for ((name_a, text_a), (name_b, text_b)) in a.iter().zip(&b) {
        assert_eq!(name_a, name_b);
        assert!(
            text_a == text_b,
            "{} differs between protox and protoc",
            name_a.display()
        );
    }
    assert_eq!(a.len(), b.len());
    let text = |name: &str| &a.iter().find(|(n, _)| n == Path::new(name)).expect(name).1;
    for doc in [
        "/// A flat object of four scalars.\n#[derive(",
        "    /// Unique id of the object.\n    #[prost(string, tag = \"1\")]",
        "    /// Where to reach them.\n",
    ] {
        assert!(text("event.v1.rs").contains(doc), "{doc}");
    }
    assert!(text("acme.shop.v1.rs").contains("        /// Shipped to an address.\n"));
    std::fs::remove_dir_all(&tmp).unwrap();
}
