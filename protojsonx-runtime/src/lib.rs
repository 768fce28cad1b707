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
//! ```ignore
//! use protojsonx_runtime::ProtoJson;
//!
//! let json: String = event.to_json();                  // {"id":"e1","actor":{...}}
//! let back = Event::from_json(&json)?;                   // Result<Event, Error>
//! let bytes = protojsonx_runtime::to_vec(&event);        // serde_json-style functions
//! let event: Event = protojsonx_runtime::from_slice(&bytes)?;
//! ```
//!
//! [protojsonx]: https://github.com/protojsonx/protojsonx-rs
//! [`Builder`]: https://docs.rs/protoc-gen-rust-protojsonx

mod base64;
mod de;
mod error;
mod escape;
mod map;
mod num;
mod options;
mod read;
mod scan;
mod ser;
mod wkt;

use std::io;

pub use error::{Error, ErrorKind, PathSegment};
pub use options::{DecodeOptions, EncodeOptions};
pub use wkt::register;

/// The contract between generated code and this crate. Not a public API:
/// it changes with the generator, which is released in lockstep.
#[doc(hidden)]
pub mod __private {
    pub use crate::JsonEnum;
    pub use crate::de::Decoder;
    pub use crate::map::{JsonMap, MapKey};
    pub use crate::ser::Encoder;
    pub use crate::wkt::compiled::{read_as, write_as};
    pub use prost_types;
}

/// A message that can be written as and read from ProtoJSON.
///
/// Implemented by generated code for every message, and by this crate for the
/// well-known types. Bring it into scope to call the methods on your messages:
///
/// ```ignore
/// use protojsonx_runtime::ProtoJson;
/// let json = msg.to_json();
/// let msg = MyMessage::from_json(json)?;
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

    /// Reads one JSON value, merging it into `self`. Called by generated code.
    #[doc(hidden)]
    fn read_json(&mut self, d: &mut __private::Decoder<'_>) -> Result<(), Error>;

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

    /// Merges the fields in `json` into `self`.
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

/// Encodes `msg` and writes it to `writer`, with the default options.
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

/// Decodes a message from a ProtoJSON string with the default options.
pub fn from_str<M: ProtoJson>(json: &str) -> Result<M, Error> {
    DecodeOptions::new().from_str(json)
}
