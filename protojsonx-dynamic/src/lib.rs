//! ProtoJSON for schemas known only at run time: a table-driven transcoder
//! between binary protobuf and ProtoJSON.
//!
//! Gateways, proxies, mock servers, CLI tools and schema-registry pipelines
//! load their schemas at run time and cannot generate code. For them a
//! [`Pool`] holds the schema (a `FileDescriptorSet`) and compiles, once per
//! message type and on first use, a table of its fields: numbers, wire
//! types, pre-quoted JSON and proto names, kinds, enum names and the
//! indexes of nested types. A [`MessageType`] then transcodes directly
//! between the two encodings, never building a message tree:
//!
//! ```
//! use prost::Message;
//! use prost_types::field_descriptor_proto::{Label, Type};
//! use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet};
//! use protojsonx_dynamic::{DecodeOptions, EncodeOptions, Pool};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // A schema known at run time (usually read from a file `protoc -o` wrote):
//! // package demo; message Point { int32 x = 1; string label_text = 2; }
//! let field = |name: &str, number, kind: Type| FieldDescriptorProto {
//!     name: Some(name.into()),
//!     number: Some(number),
//!     label: Some(Label::Optional as i32),
//!     r#type: Some(kind as i32),
//!     ..Default::default()
//! };
//! let file = FileDescriptorProto {
//!     name: Some("demo.proto".into()),
//!     package: Some("demo".into()),
//!     syntax: Some("proto3".into()),
//!     message_type: vec![DescriptorProto {
//!         name: Some("Point".into()),
//!         field: vec![field("x", 1, Type::Int32), field("label_text", 2, Type::String)],
//!         ..Default::default()
//!     }],
//!     ..Default::default()
//! };
//! let pool = Pool::decode(&FileDescriptorSet { file: vec![file] }.encode_to_vec())?;
//! let point = pool.message("demo.Point").expect("in the pool");
//!
//! let binary = point.json_to_binary(br#"{"x": 5, "label_text": "a"}"#, &DecodeOptions::new())?;
//! assert_eq!(binary, [0x08, 5, 0x12, 1, b'a']);
//! let json = point.binary_to_json(&binary, &EncodeOptions::new())?;
//! assert_eq!(json, br#"{"x":5,"labelText":"a"}"#);
//!
//! let err = point.json_to_binary(br#"{"x": "five"}"#, &DecodeOptions::new()).unwrap_err();
//! assert_eq!(err.to_string(), "invalid value for int32: invalid number at `x` (line 1, column 7)");
//! # Ok(())
//! # }
//! ```
//!
//! The runtime's options, errors (field path, line and column) and limits
//! apply unchanged, and the JSON is the generated code's byte for byte.
//! The well-known types keep their special forms, an `Any` resolves its
//! type through the pool, proto2 extensions are read and written as
//! `"[full.name]"` keys, and unknown binary fields are dropped, as
//! ProtoJSON says.

mod check;
mod from_json;
mod table;
mod to_json;
mod wire;
mod wkt;

use std::fmt;
use std::sync::Arc;

use prost::Message;
use prost_reflect::DescriptorPool;

pub use protojsonx_runtime::{DecodeOptions, EncodeOptions, Error, ErrorKind};

use table::Schema;

/// A schema loaded at run time: every message and enum of a set of
/// `.proto` files, with their transcoding tables compiled on first use.
/// Cheap to clone (the tables are shared).
#[derive(Clone)]
pub struct Pool {
    inner: Arc<Inner>,
}

struct Inner {
    descriptors: DescriptorPool,
    schema: Schema,
}

impl Pool {
    /// A pool of the files in `file_descriptor_set`, a serialized
    /// `google.protobuf.FileDescriptorSet` (as `protoc --include_imports -o`
    /// and `buf build -o` write it). Every file a file imports must be in it.
    /// Editions files (2023 and 2024) are read as their features say: see
    /// [`protojsonx_descriptor::lower`].
    pub fn decode(file_descriptor_set: &[u8]) -> Result<Pool, PoolError> {
        let lowered = protojsonx_descriptor::lower_encoded(file_descriptor_set)
            .map_err(PoolError::editions)?;
        check::names(&lowered).map_err(|why| PoolError(PoolErrorKind::Unnamed(why)))?;
        let descriptors = DescriptorPool::decode(lowered.as_slice()).map_err(|e| {
            match check::editions_enum_not_starting_at_zero(file_descriptor_set, &lowered) {
                Some(why) => PoolError(PoolErrorKind::Unreadable(why)),
                None => PoolError::new(e),
            }
        })?;
        Ok(Self::of(descriptors))
    }

    /// A pool of the files in `set`. prost-types describes no editions
    /// files (it drops their `edition` and `features`): read those with
    /// [`decode`](Self::decode), or lower them first with
    /// [`protojsonx_descriptor::lower`].
    pub fn from_file_descriptor_set(
        set: prost_types::FileDescriptorSet,
    ) -> Result<Pool, PoolError> {
        // prost-reflect reads its own copy of the descriptor types: the
        // set goes over as bytes.
        Self::decode(&set.encode_to_vec())
    }

    /// A pool of the files in a prost-reflect pool.
    pub fn from_descriptor_pool(descriptors: DescriptorPool) -> Pool {
        Self::of(descriptors)
    }

    fn of(descriptors: DescriptorPool) -> Pool {
        let schema = Schema::new(&descriptors);
        Pool {
            inner: Arc::new(Inner {
                descriptors,
                schema,
            }),
        }
    }

    /// The message type named `full_name` (like `"my.pkg.Msg"`, no leading dot).
    pub fn message(&self, full_name: &str) -> Option<MessageType> {
        let index = self.inner.schema.message_index(full_name)?;
        Some(MessageType {
            pool: self.clone(),
            index,
        })
    }

    /// Compiles the table of every message type now (they are otherwise
    /// compiled on first use), for a server that would rather pay at start
    /// than on its first requests. Returns how many there are.
    pub fn compile_all(&self) -> usize {
        let count = self.inner.descriptors.all_messages().len();
        for index in 0..count {
            self.inner.schema.table(index as u32);
        }
        count
    }

    /// The full names of the message types in the pool.
    pub fn message_names(&self) -> impl Iterator<Item = String> + '_ {
        self.inner
            .descriptors
            .all_messages()
            .map(|m| m.full_name().to_string())
    }

    /// The resolved descriptors the pool was made from.
    pub fn descriptors(&self) -> &DescriptorPool {
        &self.inner.descriptors
    }
}

impl fmt::Debug for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pool")
            .field("messages", &self.inner.descriptors.all_messages().len())
            .finish_non_exhaustive()
    }
}

/// A message type of a [`Pool`]: transcodes its binary encoding to
/// ProtoJSON and back.
#[derive(Clone)]
pub struct MessageType {
    pool: Pool,
    index: u32,
}

impl MessageType {
    /// The message's full protobuf name.
    pub fn full_name(&self) -> &str {
        &self.pool.inner.schema.table(self.index).full_name
    }

    /// The ProtoJSON of the binary message `binary`.
    pub fn binary_to_json(&self, binary: &[u8], opts: &EncodeOptions) -> Result<Vec<u8>, Error> {
        // JSON is about twice its binary, plus its keys; the encoder's word
        // writers want a few bytes to spare. One allocation for most messages.
        let mut out = Vec::with_capacity(binary.len() * 2 + 64);
        self.binary_to_json_into(binary, opts, &mut out)?;
        Ok(out)
    }

    /// Appends the ProtoJSON of `binary` to `out`; reuse `out` to transcode
    /// without allocating. On error `out` keeps its old length.
    pub fn binary_to_json_into(
        &self,
        binary: &[u8],
        opts: &EncodeOptions,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        to_json::transcode(&self.pool.inner.schema, self.index, binary, opts, out)
    }

    /// The binary encoding of the ProtoJSON message `json`.
    pub fn json_to_binary(&self, json: &[u8], opts: &DecodeOptions) -> Result<Vec<u8>, Error> {
        // Binary is smaller than its JSON (about half to three quarters of
        // compact JSON): one allocation.
        let mut out = Vec::with_capacity(json.len());
        self.json_to_binary_into(json, opts, &mut out)?;
        Ok(out)
    }

    /// Appends the binary encoding of `json` to `out`; reuse `out` to
    /// transcode without allocating. On error `out` keeps its old length.
    pub fn json_to_binary_into(
        &self,
        json: &[u8],
        opts: &DecodeOptions,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        from_json::transcode(&self.pool.inner.schema, self.index, json, opts, out)
    }
}

impl fmt::Debug for MessageType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("MessageType")
            .field(&self.full_name())
            .finish()
    }
}

/// The descriptors given to a [`Pool`] are not a valid, complete schema.
#[derive(Debug)]
pub struct PoolError(PoolErrorKind);

#[derive(Debug)]
enum PoolErrorKind {
    Descriptors(prost_reflect::DescriptorError),
    Editions(protojsonx_descriptor::Error),
    /// Valid descriptors that prost-reflect cannot read once lowered.
    Unreadable(String),
    /// An element without a name, or an enum without values.
    Unnamed(String),
}

impl PoolError {
    fn new(e: prost_reflect::DescriptorError) -> Self {
        PoolError(PoolErrorKind::Descriptors(e))
    }

    fn editions(e: protojsonx_descriptor::Error) -> Self {
        PoolError(PoolErrorKind::Editions(e))
    }
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            PoolErrorKind::Descriptors(e) => write!(f, "invalid descriptors: {e}"),
            PoolErrorKind::Editions(e) => write!(f, "invalid descriptors: {e}"),
            PoolErrorKind::Unreadable(why) => write!(f, "unsupported descriptors: {why}"),
            PoolErrorKind::Unnamed(why) => write!(f, "invalid descriptors: {why}"),
        }
    }
}

impl std::error::Error for PoolError {}

/// The error for an `Any` of a type the pool does not have.
#[cold]
fn unknown_type(name: &str, type_url: &str) -> String {
    format!(
        "unknown message type {name:?} in google.protobuf.Any (type URL {type_url:?}): \
         it is not in the descriptor pool"
    )
}

/// The README's examples, run as doctests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[cfg(test)]
mod tests {
    use super::*;
    use protojsonx_descriptor::types::feature_set::{EnumType, FieldPresence};
    use protojsonx_descriptor::types::field_descriptor_proto::{Label, Type};
    use protojsonx_descriptor::types::{
        DescriptorProto, Edition, EnumDescriptorProto, EnumOptions, EnumValueDescriptorProto,
        FeatureSet, FieldDescriptorProto, FieldOptions, FileDescriptorProto, FileDescriptorSet,
    };

    /// `edition = "2023"; package p; message M { int32 a = 1 [presence];
    /// Kind k = 2; enum Kind { option features.enum_type = CLOSED; KIND_A = 1; } }`
    fn editions_file(presence: FieldPresence) -> Vec<u8> {
        let kind = EnumDescriptorProto {
            name: Some("Kind".into()),
            value: vec![EnumValueDescriptorProto {
                name: Some("KIND_A".into()),
                number: Some(1),
                options: None,
            }],
            options: Some(EnumOptions {
                features: Some(FeatureSet {
                    enum_type: Some(EnumType::Closed as i32),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..Default::default()
        };
        let field = |name: &str, number, t: Type| FieldDescriptorProto {
            name: Some(name.into()),
            number: Some(number),
            label: Some(Label::Optional as i32),
            r#type: Some(t as i32),
            ..Default::default()
        };
        let a = FieldDescriptorProto {
            options: Some(FieldOptions {
                features: Some(FeatureSet {
                    field_presence: Some(presence as i32),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..field("a", 1, Type::Int32)
        };
        let k = FieldDescriptorProto {
            type_name: Some(".p.M.Kind".into()),
            ..field("k", 2, Type::Enum)
        };
        let file = FileDescriptorProto {
            name: Some("p.proto".into()),
            package: Some("p".into()),
            syntax: Some("editions".into()),
            edition: Some(Edition::Edition2023 as i32),
            message_type: vec![DescriptorProto {
                name: Some("M".into()),
                field: vec![a, k],
                enum_type: vec![kind],
                ..Default::default()
            }],
            ..Default::default()
        };
        FileDescriptorSet { file: vec![file] }.encode_to_vec()
    }

    #[test]
    fn a_closed_enum_not_starting_at_zero_beside_implicit_fields_is_explained() {
        let err = Pool::decode(&editions_file(FieldPresence::Implicit)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unsupported descriptors: `p.proto`: enum `p.M.Kind` starts at 1, not 0: a file \
             with implicit-presence fields is read as proto3, whose enums start at 0 (the code \
             generator reads it as it is); declare a 0 value first, or move the enum to a file \
             without implicit-presence fields"
        );
        // Without implicit fields the file is read as proto2, which has such enums.
        let pool = Pool::decode(&editions_file(FieldPresence::Explicit)).unwrap();
        assert!(pool.message("p.M").is_some());
    }

    #[test]
    fn other_refusals_keep_prost_reflects_words() {
        // The same enum in a proto3 file of its own: not lowering's doing.
        let mut set =
            FileDescriptorSet::decode(&editions_file(FieldPresence::Implicit)[..]).unwrap();
        set.file[0].syntax = Some("proto3".into());
        set.file[0].edition = None;
        set.file[0].message_type[0].field[0].options = None;
        let err = Pool::decode(&set.encode_to_vec()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid descriptors: the first value for proto3 enums must be 0"
        );
    }
}
