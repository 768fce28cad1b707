//! The build.rs front end's parsing (protox, no protoc) against protoc: the
//! same comments in every position, real trees with a current
//! `descriptor.proto`, and errors that name the file, line and column.

use std::path::{Path, PathBuf};

use prost::Message;
use prost_types::{FileDescriptorProto, FileDescriptorSet};
use protoc_gen_rust_protojsonx::Builder;

fn comments_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/comments")
}

/// protoc's descriptor of `tests/comments/<name>`, with source info.
fn protoc_descriptor(name: &str) -> FileDescriptorProto {
    let out = std::env::temp_dir().join(format!(
        "protojsonx-parsers-{}-{name}.pb",
        std::process::id()
    ));
    let status = std::process::Command::new(protoc_bin_vendored::protoc_bin_path().unwrap())
        .arg("-I")
        .arg(comments_dir())
        .arg("-I")
        .arg(protoc_bin_vendored::include_path().unwrap())
        .arg("--include_source_info")
        .arg(format!("--descriptor_set_out={}", out.display()))
        .arg(comments_dir().join(name))
        .status()
        .unwrap();
    assert!(status.success());
    let set = FileDescriptorSet::decode(&*std::fs::read(&out).unwrap()).unwrap();
    std::fs::remove_file(&out).unwrap();
    set.file.into_iter().next().unwrap()
}

/// The code `Builder` writes for `tests/comments/<name>`: parsed by protox,
/// or (`protoc_set`) from protoc's descriptors, as with `PROTOC` set.
fn generated(name: &str, protoc_set: Option<FileDescriptorSet>) -> Vec<(String, String)> {
    let tag = if protoc_set.is_some() {
        "protoc"
    } else {
        "protox"
    };
    let out = std::env::temp_dir().join(format!("protojsonx-{tag}-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let mut builder = Builder::new();
    builder.include(comments_dir()).out_dir(&out);
    match protoc_set {
        Some(set) => builder.compile_fds(set, &[name.to_string()]),
        None => builder.compile(&[comments_dir().join(name)]),
    }
    .unwrap();
    let mut files: Vec<(String, String)> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    files.sort();
    std::fs::remove_dir_all(&out).unwrap();
    files
}

/// Checks that protox and protoc make the same code, doc comments included,
/// returning how many doc comment lines it has.
fn check_same_code(name: &str) -> usize {
    let protoc = FileDescriptorSet {
        file: vec![protoc_descriptor(name)],
    };
    let (ours, theirs) = (generated(name, None), generated(name, Some(protoc)));
    assert_eq!(
        ours, theirs,
        "{name}: protox and protoc make different code"
    );
    ours.iter()
        .map(|(_, code)| code.matches("/// ").count())
        .sum()
}

#[test]
fn comments_match_protoc_in_every_position() {
    // The file comments nearly every element: the comparison is not vacuous.
    let documented = check_same_code("every_position.proto");
    assert!(documented > 20, "only {documented} doc comment lines");
}

/// CRLF line ends and proto3 `optional`.
#[test]
fn comments_match_protoc_with_crlf_and_proto3_optional() {
    assert!(check_same_code("proto3_crlf.proto") >= 3);
}

/// A tree that vendors a current `descriptor.proto` (extension ranges with
/// `declaration` options, which protox cannot read yet) compiles: the Google
/// files come from protox's bundled copy first.
#[test]
fn a_tree_with_a_current_descriptor_proto_compiles() {
    let vendored = protoc_bin_vendored::include_path().unwrap();
    let descriptor = std::fs::read_to_string(vendored.join("google/protobuf/descriptor.proto"));
    assert!(
        descriptor.unwrap().contains("declaration"),
        "a current descriptor.proto"
    );
    let out = std::env::temp_dir().join(format!("protojsonx-current-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    Builder::new()
        .include(comments_dir())
        .include(&vendored)
        .out_dir(&out)
        .compile(&[comments_dir().join("custom_options.proto")])
        .unwrap();
    let code = std::fs::read_to_string(out.join("comments.options.rs")).unwrap();
    assert!(code.contains("impl ::protojsonx_runtime::ProtoJson for Annotated"));
    std::fs::remove_dir_all(&out).unwrap();
}

/// Without `PROTOC` or the `vendored-protoc` feature, an editions file
/// (which protox cannot read) gets one line saying what to do.
#[cfg(not(feature = "vendored-protoc"))]
#[test]
fn an_editions_file_without_a_protoc_says_how_to_get_one() {
    if std::env::var_os("PROTOC").is_some() {
        return; // protoc reads it: nothing to say
    }
    let err = Builder::new()
        .include(comments_dir())
        .out_dir(std::env::temp_dir())
        .compile(&[comments_dir().join("editions.proto")])
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "`editions.proto` uses protobuf editions (`edition = ...`), which protox, the parser \
         used when PROTOC is not set, cannot read yet (andrewhickman/protox#31): set PROTOC \
         to protoc 27 or newer, or enable the `vendored-protoc` feature of \
         protoc-gen-rust-protojsonx"
    );
}

/// protoc's descriptors of an editions file, lowered as the `PROTOC` path
/// lowers them, make prost structs whose presence is the edition's.
#[test]
fn an_editions_file_compiles_from_protocs_descriptors() {
    let out = std::env::temp_dir().join(format!("protojsonx-ed-{}", std::process::id()));
    let fds = out.with_extension("pb");
    let status = std::process::Command::new(protoc_bin_vendored::protoc_bin_path().unwrap())
        .arg("-I")
        .arg(comments_dir())
        .arg("--include_imports")
        .arg(format!("--descriptor_set_out={}", fds.display()))
        .arg(comments_dir().join("editions.proto"))
        .status()
        .unwrap();
    assert!(status.success());
    let bytes = std::fs::read(&fds).unwrap();
    std::fs::remove_file(&fds).unwrap();
    let lowered = protojsonx_descriptor::lower_encoded(&bytes).unwrap();
    let set = FileDescriptorSet::decode(lowered.as_slice()).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    Builder::new()
        .out_dir(&out)
        .compile_fds(set, &["editions.proto".into()])
        .unwrap();
    let code = std::fs::read_to_string(out.join("comments.ed.rs")).unwrap();
    std::fs::remove_dir_all(&out).unwrap();
    // Edition 2023 fields have explicit presence: `Option`s.
    assert!(
        code.contains("pub s: ::core::option::Option<i32>,"),
        "{code}"
    );
    assert!(code.contains("impl ::protojsonx_runtime::ProtoJson for Carrier"));
}

/// Descriptors of an editions file that went through prost-types have
/// lost their edition and features: `generate` says so.
#[test]
fn unlowered_editions_descriptors_are_refused_by_the_generator() {
    let file = FileDescriptorProto {
        name: Some("ed.proto".into()),
        syntax: Some("editions".into()),
        ..Default::default()
    };
    let config = protoc_gen_rust_protojsonx::Config::new();
    let err = protoc_gen_rust_protojsonx::generate(&config, &[file], &["ed.proto".into()]);
    assert!(
        err.unwrap_err()
            .starts_with("`ed.proto` is an editions file, which prost-types descriptors")
    );
}

/// The error `Builder` gives for one file `name` holding `text`, written
/// into a directory of its own.
fn compile_error(tag: &str, name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("protojsonx-{tag}-{}", std::process::id()));
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    let err = Builder::new()
        .include(&dir)
        .out_dir(&dir)
        .compile(&[path])
        .unwrap_err()
        .to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    err
}

#[test]
fn syntax_errors_name_the_file_line_and_column_and_show_the_line() {
    let text = "syntax = \"proto3\";\n\nmessage Broken {\n  int32 x = ;\n}\n";
    let err = compile_error("syntax", "bad/broken.proto", text);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("bad/broken.proto:4:13: "), "{err}");
    assert_eq!(
        lines[1..],
        ["4 |   int32 x = ;", "  |             ^"],
        "{err}"
    );
}

#[test]
fn unknown_types_are_reported_where_they_are_used() {
    let text = "syntax = \"proto3\";\nmessage M {\n  Missing m = 1;\n}\n";
    let err = compile_error("types", "types.proto", text);
    assert!(err.starts_with("types.proto:3:3: "), "{err}");
    assert!(err.contains("Missing"), "{err}");
    assert!(err.contains("\n3 |   Missing m = 1;\n"), "{err}");
}
