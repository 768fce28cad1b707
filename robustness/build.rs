//! Parses the conformance test protos (their editions copies and edition
//! 2023's own included), the project's test protos and the benchmark
//! schemas (`event.v1`, `bench.v1`, `bench.otlp.v1`) once, generates their
//! prost structs and ProtoJSON code into OUT_DIR, and writes two
//! `FileDescriptorSet`s (binary) for the tests:
//!
//! - `descriptors.bin`: what the code is generated from, editions files
//!   lowered to proto2 and proto3 (what prost-reflect and the dynamic
//!   transcoder read);
//! - `protoc.bin`: protoc's own set, editions files as they are, for the
//!   differential tests (Python builds its message classes from it, so that
//!   Python protobuf reads the editions files by their own features, not
//!   by our lowering of them).
//!
//! protox cannot read editions files, so the builder parses everything with
//! protoc: the one `PROTOC` names, or the `vendored-protoc` feature's.

use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use prost::Message;
use prost_types::FileDescriptorSet;
use protoc_gen_rust_protojsonx::Builder;

const INCLUDES: [&str; 4] = [
    "../conformance/proto",
    "../tests/proto",
    "../examples/proto",
    "../benches/proto",
];

const PROTOS: [&str; 13] = [
    "../conformance/proto/google/protobuf/test_messages_proto3.proto",
    "../conformance/proto/google/protobuf/test_messages_proto2.proto",
    "../conformance/proto/google/protobuf/test_messages_proto3_editions.proto",
    "../conformance/proto/google/protobuf/test_messages_proto2_editions.proto",
    "../conformance/proto/google/protobuf/test_messages_edition2023.proto",
    "../tests/proto/protojsonx/test/scalars.proto",
    "../tests/proto/protojsonx/test/well_known.proto",
    "../tests/proto/protojsonx/other/other.proto",
    "../tests/proto/protojsonx/names/names.proto",
    "../tests/proto/protojsonx/legacy/legacy.proto",
    "../examples/proto/event/v1/event.proto",
    "../benches/proto/bench/v1/order.proto",
    "../benches/proto/bench/otlp/v1/trace.proto",
];

/// The package generated with BTreeMap, Bytes and boxing, as in `tests/build.rs`.
const VARIANTS: &str = "protojsonx/variants/variants.proto";

fn main() -> io::Result<()> {
    let variants = format!("../tests/proto/{VARIANTS}");
    let mut protos = PROTOS.to_vec();
    protos.push(&variants);
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let set = parse(&protos)?;
    std::fs::write(out_dir.join("descriptors.bin"), set.encode_to_vec())?;
    protoc_set(&protos, &out_dir.join("protoc.bin"))?;
    let (variants, rest): (Vec<String>, Vec<String>) = set
        .file
        .iter()
        .map(|f| f.name().to_owned())
        .filter(|name| !name.starts_with("google/protobuf/") || name.contains("test_messages"))
        .partition(|name| name == VARIANTS);
    Builder::new().compile_fds(set.clone(), &rest)?;
    Builder::new()
        .configure(|c| {
            c.btree_map(".")
                .bytes(".")
                .boxed(".protojsonx.variants.Variants.boxed");
        })
        .compile_fds(set, &variants)
}

/// All protos and their imports, parsed and lowered as `Builder` does it.
fn parse(protos: &[&str]) -> io::Result<FileDescriptorSet> {
    let mut builder = Builder::new();
    for dir in INCLUDES {
        builder.include(dir);
    }
    Ok(builder.file_descriptor_set(protos)?.0)
}

/// Writes protoc's descriptor set of `protos` and their imports to `out`,
/// with the protoc the builder uses.
fn protoc_set(protos: &[&str], out: &Path) -> io::Result<()> {
    let protoc = match std::env::var_os("PROTOC") {
        Some(protoc) => PathBuf::from(protoc),
        None => protoc_bin_vendored::protoc_bin_path().map_err(io::Error::other)?,
    };
    let mut command = Command::new(&protoc);
    command
        .arg("--include_imports")
        .arg(format!("--descriptor_set_out={}", out.display()));
    for dir in INCLUDES {
        command.arg(format!("--proto_path={dir}"));
    }
    let output = command.args(protos).output()?;
    if !output.status.success() {
        return Err(io::Error::other(format!(
            "{} failed: {}",
            protoc.display(),
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    Ok(())
}
