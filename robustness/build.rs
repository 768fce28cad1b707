//! Parses the conformance test protos, the project's test protos and the
//! benchmark schemas (`event.v1`, `bench.v1`, `bench.otlp.v1`) once,
//! generates their prost structs and ProtoJSON code into OUT_DIR, and writes
//! the parsed `FileDescriptorSet` to `OUT_DIR/descriptors.bin` for the
//! differential tests (Python builds its message classes from it).

use std::io;
use std::path::PathBuf;

use prost::Message;
use prost_types::FileDescriptorSet;
use protoc_gen_rust_protojsonx::Builder;

const INCLUDES: [&str; 4] = [
    "../conformance/proto",
    "../tests/proto",
    "../examples/proto",
    "../benches/proto",
];

const PROTOS: [&str; 10] = [
    "../conformance/proto/google/protobuf/test_messages_proto3.proto",
    "../conformance/proto/google/protobuf/test_messages_proto2.proto",
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
    let set = parse()?;
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    std::fs::write(out_dir.join("descriptors.bin"), set.encode_to_vec())?;
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

/// All protos and their imports, parsed as `Builder` parses them (no protoc).
fn parse() -> io::Result<FileDescriptorSet> {
    let mut protos = PROTOS.to_vec();
    let variants = format!("../tests/proto/{VARIANTS}");
    protos.push(&variants);
    let mut builder = Builder::new();
    for dir in INCLUDES {
        builder.include(dir);
    }
    Ok(builder.file_descriptor_set(&protos)?.0)
}
