//! Protobuf descriptors of the current schema, and Protobuf Editions for
//! the tools that only read proto2 and proto3.
//!
//! prost-types carries an old `descriptor.proto`: decoding a descriptor set
//! or a plugin request with it drops `edition` and every `features` option,
//! exactly what an editions file (`edition = "2023";`) means. And
//! prost-build and prost-reflect read only `syntax = "proto2"` and
//! `"proto3"`. This crate bridges both:
//!
//! - [`types`]: the messages of protoc's current `descriptor.proto` and
//!   `compiler/plugin.proto`, as prost structs.
//! - [`features`]: what each element of a file means under its edition.
//! - [`lower()`]: editions files as proto2 or proto3 descriptors (prost-types)
//!   whose Rust types and binary encoding are the same, for prost-build and
//!   prost-reflect.
//!
//! ```
//! use protojsonx_descriptor::types::{Edition, FileDescriptorProto, FileDescriptorSet};
//!
//! // As protoc describes `edition = "2023"; message M { int32 a = 1; }`.
//! let file = FileDescriptorProto {
//!     name: Some("m.proto".into()),
//!     syntax: Some("editions".into()),
//!     edition: Some(Edition::Edition2023 as i32),
//!     ..Default::default()
//! };
//! let lowered = protojsonx_descriptor::lower(FileDescriptorSet { file: vec![file] }).unwrap();
//! // Edition 2023 fields have explicit presence, as proto2's do.
//! assert_eq!(lowered.file[0].syntax(), "proto2");
//! ```

use std::fmt;

pub mod features;
mod lower;
pub mod options;
pub mod types;

pub use lower::{lower, lower_encoded, lower_file};

/// A file whose features cannot be resolved or lowered: an unsupported
/// edition or syntax, or features protoc would refuse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    file: String,
    message: String,
}

impl Error {
    fn new(file: &str, message: impl Into<String>) -> Error {
        Error {
            file: file.to_string(),
            message: message.into(),
        }
    }

    /// The name of the file at fault, as its descriptor spells it.
    pub fn file(&self) -> &str {
        &self.file
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for Error {}

/// The README's example, compiled as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
