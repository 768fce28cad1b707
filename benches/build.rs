//! Generates every implementation's code from the same three schemas:
//! `event.v1` (the Go protojsonx payloads, from `examples/proto`), `bench.v1`
//! (the richer schema in `proto/`) and `bench.otlp.v1` (OTLP's trace export
//! request, in `proto/`).
//!
//! - protojsonx: prost structs + ProtoJSON impls for `bench.v1` and
//!   `bench.otlp.v1` in `OUT_DIR`
//!   (the `event.v1` ones come from the protojsonx-example crate);
//! - pbjson: its own prost-build structs and pbjson-build serde impls for both
//!   packages in `OUT_DIR/pbjson` (pbjson's impls must sit next to its structs);
//! - prost-reflect: the encoded `FileDescriptorSet` in `OUT_DIR/descriptors.bin`.
//!
//! `.proto` files are parsed by protojsonx's `Builder` (in Rust, by
//! protox); no `protoc` is needed.

use std::io;
use std::path::{Path, PathBuf};

const INCLUDES: [&str; 2] = ["../examples/proto", "proto"];
/// The benchmark's own schemas, compiled by protojsonx here.
const BENCH_PROTOS: [&str; 2] = [
    "proto/bench/v1/order.proto",
    "proto/bench/otlp/v1/trace.proto",
];
const PROTOS: [&str; 3] = [
    "../examples/proto/event/v1/event.proto",
    BENCH_PROTOS[0],
    BENCH_PROTOS[1],
];

fn main() -> io::Result<()> {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set by cargo"));
    protoc_gen_rust_protojsonx::Builder::new()
        .include("proto")
        .compile(&BENCH_PROTOS)?;
    let descriptors = descriptor_set()?;
    std::fs::write(out.join("descriptors.bin"), &descriptors)?;
    pbjson(&descriptors, &out.join("pbjson"))
}

/// The encoded `FileDescriptorSet` of the three schemas and everything they import.
fn descriptor_set() -> io::Result<Vec<u8>> {
    use prost::Message;
    let mut builder = protoc_gen_rust_protojsonx::Builder::new();
    for dir in INCLUDES {
        builder.include(dir);
    }
    let (set, _) = builder.file_descriptor_set(&PROTOS)?;
    Ok(set.encode_to_vec())
}

/// prost-build structs and pbjson-build serde impls, with the well-known types
/// taken from pbjson-types as pbjson requires.
fn pbjson(descriptors: &[u8], dir: &Path) -> io::Result<()> {
    use prost::Message;
    std::fs::create_dir_all(dir)?;
    let mut set = prost_types::FileDescriptorSet::decode(descriptors)?;
    set.file
        .retain(|f| !f.package().starts_with("google.protobuf"));
    prost_build::Config::new()
        .out_dir(dir)
        .compile_well_known_types()
        .extern_path(".google.protobuf", "::pbjson_types")
        .compile_fds(set)?;
    pbjson_build::Builder::new()
        .out_dir(dir)
        .register_descriptors(descriptors)?
        .build(&[".event.v1", ".bench.v1", ".bench.otlp.v1"])
}
