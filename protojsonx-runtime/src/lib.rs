//! Runtime for [protojsonx]: fast, conformant ProtoJSON for the message types
//! prost generates.
//!
//! The generator `protoc-gen-rust-protojsonx` (or its build.rs [`Builder`]) emits,
//! for every message and enum, an implementation of [`ProtoJson`] specialised
//! to that type: keys are pre-escaped byte strings, fields are matched by
//! generated code, values are written and parsed directly. This crate holds
//! what that code calls: the JSON writer and reader, numbers, strings, base64,
//! options and errors.
//!
//! Generated messages and the `prost_types` well-known types implement
//! [`ProtoJson`]; bring it into scope for the methods, or use the
//! serde_json-style functions:
//!
//! ```
//! use protojsonx_runtime::ProtoJson;
//! use prost_types::{Duration, Timestamp};
//!
//! # fn main() -> Result<(), protojsonx_runtime::Error> {
//! let ts = Timestamp { seconds: 1_700_000_000, nanos: 500_000_000 };
//! let json: String = ts.to_json()?;
//! assert_eq!(json, r#""2023-11-14T22:13:20.500Z""#);
//! assert_eq!(Timestamp::from_json(&json)?, ts);
//!
//! let bytes = protojsonx_runtime::to_vec(&Duration { seconds: 90, nanos: 0 })?;
//! assert_eq!(bytes, br#""90s""#);
//! let d: Duration = protojsonx_runtime::from_slice(&bytes)?;
//! assert_eq!(d.seconds, 90);
//!
//! // Errors say what was wrong and where.
//! let err = Duration::from_json(r#""90 s""#).unwrap_err();
//! assert_eq!((err.kind(), err.line(), err.column()), (protojsonx_runtime::ErrorKind::InvalidValue, 1, 1));
//! # Ok(())
//! # }
//! ```
//!
//! [`from_reader`] and [`to_writer`] read and write one message through
//! `std::io`; the [`stream`] module reads and writes streams of messages
//! (newline-delimited JSON and JSON arrays) one message at a time.
//!
//! With the `serde` cargo feature, the `protojsonx_runtime::serde` module gives
//! ProtoJSON-following `Serialize`/`Deserialize` impls to serde users.
//!
//! [protojsonx]: https://github.com/protojsonx/protojsonx-rs
//! [`Builder`]: https://docs.rs/protoc-gen-rust-protojsonx

// Generated code names the runtime `::protojsonx_runtime`, in this crate too
// (`wkt::plain`, the generator's code for the plain prost-types messages).
extern crate self as protojsonx_runtime;

mod contract;
mod de;
mod error;
mod hint;
mod map;
mod options;
mod read;
mod reset;
mod ser;
#[cfg(feature = "serde")]
pub mod serde;
mod size_hint;
pub mod stream;
#[cfg(test)]
mod test_rng;
mod text;
mod wkt;

use std::io;

pub use error::{Error, ErrorKind, PathSegment};
pub use options::{DecodeOptions, EncodeOptions};
pub use stream::single::from_reader;
pub use wkt::{TypeRegistry, register, register_with};

/// The contract between generated code and this crate: everything that the
/// code written by `protoc-gen-rust-protojsonx` calls, besides the public
/// [`ProtoJson`] trait, [`TypeRegistry`] and [`register_with`]. Not a
/// public API.
///
/// The contract has a number, [`CONTRACT`](__private::CONTRACT), and every
/// generated file checks it at compile time with
/// [`check_contract`](__private::check_contract), so that code from one
/// release of the generator and the runtime of another fail to build with a
/// message that says to regenerate the code or upgrade the runtime. The
/// generator and the runtime are released together: changing any item here
/// that generated code names or calls (the methods of these types included)
/// means bumping `CONTRACT`, and the number the generator writes with it.
#[doc(hidden)]
pub mod __private {
    pub use crate::contract::{CONTRACT, check_contract};

    // Named by generated code.
    pub use crate::JsonEnum;
    pub use crate::de::{Decoder, Fields};
    pub use crate::reset::reset_unless;
    pub use crate::ser::Encoder;
    pub use crate::size_hint::SizeHint;
    pub use crate::wkt::compiled::{read_as, write_as};
    pub use prost_types;

    // Reached through the methods generated code calls: their arguments,
    // results and the bounds of their type parameters.
    pub use crate::de::{ScalarField, Seen};
    pub use crate::map::{JsonKey, JsonMap, MapKey, MapValue};
    pub use crate::reset::{Bytes, EnumField, Reset};
    pub use crate::ser::{Mark, Object, ObjectWriter};
}

/// What the dynamic transcoder (`protojsonx-dynamic`) uses of this crate's
/// internals: entry points, the reader and writer, errors and the `Any`
/// machinery. Not a public API, and not covered by `__private::CONTRACT`:
/// no generated code calls it, and `protojsonx-dynamic` is released together
/// with this crate.
#[doc(hidden)]
pub mod __dynamic {
    pub use crate::de::{Decoder, JsonType, OwnedFieldKeys, decode_with};
    pub use crate::map::MapKey;
    pub use crate::ser::{Encoder, encode_with};
    pub use crate::wkt::any::{
        Probe, probe as probe_any, read_value_member, type_name as any_type_name,
    };
    pub use crate::wkt::registry::{Entry as WellKnown, well_known};
    pub use crate::wkt::value::{
        write_no_kind as write_value_no_kind, write_number as write_value_number,
    };

    /// An error in binary protobuf input at byte `offset`.
    #[cold]
    pub fn binary_error(message: String, offset: usize) -> crate::Error {
        crate::Error::binary(message, offset)
    }

    /// An encoding error: a value ProtoJSON cannot express.
    #[cold]
    pub fn encode_error(message: String) -> crate::Error {
        crate::Error::encode(crate::ErrorKind::Encode, message)
    }
}

/// A message that can be written as and read from ProtoJSON.
///
/// Implemented by generated code for every message, and by this crate for the
/// well-known types. Bring it into scope to call the methods on your messages:
///
/// ```
/// use protojsonx_runtime::{EncodeOptions, ProtoJson};
/// use prost_types::{Struct, Value, value::Kind};
///
/// # fn main() -> Result<(), protojsonx_runtime::Error> {
/// let mut object = Struct::from_json(r#"{"b": [1, "x"], "a": null}"#)?;
/// assert_eq!(object.to_json()?, r#"{"a":null,"b":[1,"x"]}"#);
/// object.merge_json(r#"{"c": true}"#)?;
/// assert_eq!(object.fields["c"], Value { kind: Some(Kind::BoolValue(true)) });
/// let with_options = object.to_json_with(&EncodeOptions::new().use_proto_names(true))?;
/// assert!(with_options.ends_with(r#""c":true}"#));
/// # Ok(())
/// # }
/// ```
pub trait ProtoJson: Default {
    /// True for the well-known types whose JSON is not an object of their
    /// fields (`Timestamp`, `Duration`, wrappers, `Struct`, `Any`, ...): packed
    /// in an `Any`, their JSON goes under a `"value"` key next to `"@type"`
    /// instead of being inlined. Generated messages keep the default.
    #[doc(hidden)]
    const SPECIAL_JSON: bool = false;

    /// Writes `self` as one JSON value. Called by generated code.
    #[doc(hidden)]
    fn write_json(&self, e: &mut __private::Encoder<'_>);

    /// Reads one JSON value, merging it into `self`, or replacing what
    /// `self` held when the decoder [replaces](__private::Decoder::replaces)
    /// (`decode_into`, and the message a `google.protobuf.Any` is read
    /// into, which is reused). Called by generated code.
    #[doc(hidden)]
    fn read_json(&mut self, d: &mut __private::Decoder<'_>) -> Result<(), Error>;

    /// Where `to_vec` keeps the size of this type's JSON, to allocate its
    /// output once. Generated messages have one each; the default is shared.
    #[doc(hidden)]
    fn size_hint() -> &'static __private::SizeHint {
        static SHARED: __private::SizeHint = __private::SizeHint::new();
        &SHARED
    }

    /// The ProtoJSON of `self` with the default options.
    fn to_json(&self) -> Result<String, Error> {
        EncodeOptions::new().to_string(self)
    }

    /// The ProtoJSON of `self` as bytes, with the default options.
    fn to_json_vec(&self) -> Result<Vec<u8>, Error> {
        EncodeOptions::new().to_vec(self)
    }

    /// The ProtoJSON of `self` with the given options.
    fn to_json_with(&self, opts: &EncodeOptions) -> Result<String, Error> {
        opts.to_string(self)
    }

    /// Decodes a message from ProtoJSON (`&str`, `&[u8]`, `String`, `Vec<u8>`...).
    fn from_json(json: impl AsRef<[u8]>) -> Result<Self, Error> {
        DecodeOptions::new().from_slice(json.as_ref())
    }

    /// Decodes a message from ProtoJSON with the given options.
    fn from_json_with(json: impl AsRef<[u8]>, opts: &DecodeOptions) -> Result<Self, Error> {
        opts.from_slice(json.as_ref())
    }

    /// Merges the fields in `json` into `self` (see [`DecodeOptions::merge`]).
    fn merge_json(&mut self, json: impl AsRef<[u8]>) -> Result<(), Error> {
        DecodeOptions::new().merge(self, json.as_ref())
    }
}

/// Boxed messages (prost boxes recursive fields) are written and read as the message.
impl<M: ProtoJson> ProtoJson for Box<M> {
    const SPECIAL_JSON: bool = M::SPECIAL_JSON;

    fn write_json(&self, e: &mut __private::Encoder<'_>) {
        (**self).write_json(e);
    }

    fn size_hint() -> &'static __private::SizeHint {
        M::size_hint()
    }

    fn read_json(&mut self, d: &mut __private::Decoder<'_>) -> Result<(), Error> {
        (**self).read_json(d)
    }
}

/// A protobuf enum's JSON names. Implemented by generated code on prost's enum types.
#[doc(hidden)]
pub trait JsonEnum {
    /// The enum's full protobuf name, for error messages.
    const NAME: &'static str;
    /// True only for `google.protobuf.NullValue`, which is written as JSON `null`.
    const IS_NULL_VALUE: bool = false;
    /// The name of value `v` (the first name, for aliases), or `None` for an unknown value.
    fn name_of(v: i32) -> Option<&'static str>;
    /// The value of the enum value named `name`.
    fn value_of(name: &[u8]) -> Option<i32>;
}

/// Encodes `msg` as ProtoJSON bytes with the default options.
pub fn to_vec<M: ProtoJson>(msg: &M) -> Result<Vec<u8>, Error> {
    EncodeOptions::new().to_vec(msg)
}

/// Encodes `msg` as a ProtoJSON string with the default options.
pub fn to_string<M: ProtoJson>(msg: &M) -> Result<String, Error> {
    EncodeOptions::new().to_string(msg)
}

/// Encodes `msg` and writes it to `writer`, with the default options, through
/// a reused per-thread buffer (see [`EncodeOptions::to_writer`]).
pub fn to_writer<W: io::Write, M: ProtoJson>(writer: W, msg: &M) -> Result<(), Error> {
    EncodeOptions::new().to_writer(writer, msg)
}

/// Appends the ProtoJSON of `msg` to `buf`, with the default options; reuse
/// `buf` across calls to encode without allocating.
pub fn encode_into<M: ProtoJson>(msg: &M, buf: &mut Vec<u8>) -> Result<(), Error> {
    EncodeOptions::new().encode_into(msg, buf)
}

/// Decodes a message from ProtoJSON bytes with the default options.
pub fn from_slice<M: ProtoJson>(json: &[u8]) -> Result<M, Error> {
    DecodeOptions::new().from_slice(json)
}

/// Decodes `json` into `msg` with the default options, replacing what it
/// held and reusing its memory (see [`DecodeOptions::decode_into`]): the
/// mirror of [`encode_into`].
pub fn decode_into<M: ProtoJson>(msg: &mut M, json: &[u8]) -> Result<(), Error> {
    DecodeOptions::new().decode_into(msg, json)
}

/// Decodes a message from a ProtoJSON string with the default options.
pub fn from_str<M: ProtoJson>(json: &str) -> Result<M, Error> {
    DecodeOptions::new().from_str(json)
}

/// The README's examples, run as doctests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
