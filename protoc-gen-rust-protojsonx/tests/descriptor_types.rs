//! protojsonx-descriptor's ProtoJSON code for its current descriptor, api
//! and type messages (`protojsonx-descriptor/src/types/*.protojsonx.rs`) is
//! this generator's output for the `.proto` files it is made from. This
//! test regenerates it and fails when the checked-in copy differs; bless a
//! change on purpose with
//!
//! ```text
//! PROTOJSONX_BLESS=1 cargo test -p protoc-gen-rust-protojsonx --test descriptor_types
//! ```

mod support;

use std::path::Path;

use protoc_gen_rust_protojsonx::Builder;

#[test]
fn protojsonx_descriptor_carries_fresh_json_code() {
    let types = Path::new(env!("CARGO_MANIFEST_DIR")).join("../protojsonx-descriptor/src/types");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("descriptor-types-json");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let root = types.join("proto");
    let protos: Vec<_> = protojsonx_descriptor::types::PROTO_FILES
        .iter()
        .map(|f| root.join(f))
        .collect();
    // protox cannot read the current descriptor.proto: protoc reads them.
    Builder::new()
        .include(&root)
        .protoc(protoc_bin_vendored::protoc_bin_path().unwrap())
        .out_dir(&out)
        .configure(|c| {
            c.json_only()
                .compile_well_known_types()
                .extern_path(".google.protobuf.Any", "::prost_types::Any");
        })
        .compile(&protos)
        .unwrap();
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "google.protobuf.compiler.protojsonx.rs",
            "google.protobuf.protojsonx.rs"
        ]
    );
    for name in &names {
        let made = std::fs::read(out.join(name)).unwrap();
        support::fresh_or_blessed(&types.join(name), &made);
    }
}

/// `Config::current_descriptor_types` maps every top-level message and enum
/// of the four files, no more.
#[test]
fn current_descriptor_types_names_every_type_of_the_files() {
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../protojsonx-descriptor/src/types/proto");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("descriptor-type-names.binpb");
    let files = [
        "google/protobuf/descriptor.proto",
        "google/protobuf/api.proto",
        "google/protobuf/type.proto",
        "google/protobuf/source_context.proto",
    ];
    let status = std::process::Command::new(protoc_bin_vendored::protoc_bin_path().unwrap())
        .arg(format!("--proto_path={}", root.display()))
        .arg(format!("--descriptor_set_out={}", out.display()))
        .args(files)
        .status()
        .unwrap();
    assert!(status.success());
    let set: prost_types::FileDescriptorSet =
        prost::Message::decode(std::fs::read(&out).unwrap().as_slice()).unwrap();
    let mut names: Vec<&str> = set
        .file
        .iter()
        .flat_map(|f| {
            f.message_type
                .iter()
                .map(|m| m.name())
                .chain(f.enum_type.iter().map(|e| e.name()))
        })
        .collect();
    let mut listed = protoc_gen_rust_protojsonx::CURRENT_DESCRIPTOR_TYPES.to_vec();
    names.sort_unstable();
    listed.sort_unstable();
    assert_eq!(names, listed);
}
