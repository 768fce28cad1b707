//! Fills `OUT_DIR/gen`, which `src/lib.rs` includes, with one directory per
//! way of generating code:
//!
//! - `example/`, `multi/`, `paired/`, `editions/`: the output of `buf
//!   generate` when `PROTOJSONX_BUF_GEN` names it (`.ci/ecosystem.sh` sets
//!   it), otherwise the same files made here: by the build.rs front end, and
//!   for `paired/` by prost-build (structs) beside the `json_only` JSON code;
//! - `pbjson/`: prost-build structs over `pbjson-types` plus pbjson-build's
//!   serde code, always made here, for the migration comparison.
//!
//! Descriptors come from protox, but for the editions module (`editions/`,
//! `edition = "2023"` and `"2024"`), which protox cannot read: the builder
//! reads it with protoc, `PROTOC` or the `vendored-protoc` feature's.

use std::path::{Path, PathBuf};

use prost::Message;
use protoc_gen_rust_protojsonx::Builder;

/// The protos of the multi-package module, relative to `proto/`.
const MULTI: [&str; 2] = ["acme/common/v1/money.proto", "acme/shop/v1/order.proto"];

/// The protos of the editions module, relative to `editions/`.
const EDITIONS: [&str; 2] = ["acme/ledger/v1/ledger.proto", "acme/audit/v1/audit.proto"];

/// The directories of `OUT_DIR/gen` that buf fills when it runs.
const BUF_OUTPUTS: [&str; 4] = ["example", "multi", "paired", "editions"];

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn main() -> Result<()> {
    let gen_dir = PathBuf::from(std::env::var("OUT_DIR")?).join("gen");
    for sub in BUF_OUTPUTS.iter().chain(&["pbjson"]) {
        std::fs::create_dir_all(gen_dir.join(sub))?;
    }
    println!("cargo:rerun-if-env-changed=PROTOJSONX_BUF_GEN");
    let source = match std::env::var_os("PROTOJSONX_BUF_GEN") {
        Some(dir) => {
            copy_buf_output(Path::new(&dir), &gen_dir)?;
            "buf"
        }
        None => {
            generate_here(&gen_dir)?;
            "build.rs"
        }
    };
    generate_pbjson(&gen_dir.join("pbjson"))?;
    println!("cargo:rustc-env=PROTOJSONX_GEN={}", gen_dir.display());
    println!("cargo:rustc-env=PROTOJSONX_GEN_SOURCE={source}");
    Ok(())
}

fn proto_paths() -> Vec<String> {
    MULTI.iter().map(|p| format!("proto/{p}")).collect()
}

/// Copies the `.rs` files buf wrote under `buf_dir/{example,multi,paired,editions}`.
fn copy_buf_output(buf_dir: &Path, gen_dir: &Path) -> Result<()> {
    for sub in BUF_OUTPUTS {
        for entry in std::fs::read_dir(buf_dir.join(sub))? {
            let path = entry?.path();
            println!("cargo:rerun-if-changed={}", path.display());
            std::fs::copy(
                &path,
                gen_dir.join(sub).join(path.file_name().unwrap_or_default()),
            )?;
        }
    }
    Ok(())
}

/// Makes what buf would, without buf.
fn generate_here(gen_dir: &Path) -> Result<()> {
    Builder::new()
        .include("../examples/proto")
        .out_dir(gen_dir.join("example"))
        .compile(&["../examples/proto/event/v1/event.proto"])?;
    Builder::new()
        .include("proto")
        .out_dir(gen_dir.join("multi"))
        .include_file("mod.rs")
        .configure(|c| {
            c.serde();
        })
        .compile(&proto_paths())?;
    let paired = gen_dir.join("paired");
    prost_build::Config::new()
        .out_dir(&paired)
        .compile_fds(descriptors()?)?;
    Builder::new()
        .include("proto")
        .out_dir(&paired)
        .include_file("mod.rs")
        .configure(|c| {
            c.json_only();
        })
        .compile(&proto_paths())?;
    let editions: Vec<String> = EDITIONS.iter().map(|p| format!("editions/{p}")).collect();
    Builder::new()
        .include("editions")
        .out_dir(gen_dir.join("editions"))
        .include_file("mod.rs")
        .compile(&editions)?;
    Ok(())
}

/// Structs whose well-known types are pbjson-types', with pbjson's serde code.
fn generate_pbjson(dir: &Path) -> Result<()> {
    let set = descriptors()?;
    prost_build::Config::new()
        .out_dir(dir)
        .compile_well_known_types()
        .extern_path(".google.protobuf", "::pbjson_types")
        .compile_fds(set.clone())?;
    pbjson_build::Builder::new()
        .register_descriptors(&set.encode_to_vec())?
        .out_dir(dir)
        .build(&[".acme"])?;
    Ok(())
}

/// The multi-package protos and their imports, parsed as `Builder` parses them.
fn descriptors() -> Result<prost_types::FileDescriptorSet> {
    let (set, _) = Builder::new()
        .include("proto")
        .file_descriptor_set(&proto_paths())?;
    Ok(set)
}
