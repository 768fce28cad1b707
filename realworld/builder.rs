//! How the real-world slice is generated: `Builder` with the slice's include
//! roots and the module tree `mod.rs`. Shared (`#[path]` module) by the
//! crate's build script, which generates the original slice into `OUT_DIR`,
//! and by `realworld-editions`, which generates the slice's editions copies
//! with the same settings to compare their code with the original's.

use std::path::PathBuf;

use protoc_gen_rust_protojsonx::Builder;

/// The builder of the slice's code, with `includes` as include directories.
pub fn new(includes: &[PathBuf]) -> Builder {
    let mut builder = Builder::new();
    for dir in includes {
        builder.include(dir);
    }
    builder.include_file("mod.rs");
    builder
}
