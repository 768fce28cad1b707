//! Options for encoding and decoding, and the entry points that take them.

use std::io;

use crate::ProtoJson;
use crate::de::Decoder;
use crate::error::Error;
use crate::ser::Encoder;
use crate::size_hint::SizeHint;

/// How messages are written as ProtoJSON. The default is the spec's default output.
///
/// ```
/// use protojsonx_runtime::EncodeOptions;
/// use prost_types::Duration;
///
/// # fn main() -> Result<(), protojsonx_runtime::Error> {
/// let opts = EncodeOptions::new().use_proto_names(true).enums_as_ints(true);
/// let mut buf = Vec::new();
/// for seconds in [1, 2] {
///     buf.clear(); // one buffer, reused: no allocation once it has grown
///     opts.encode_into(&Duration { seconds, nanos: 0 }, &mut buf)?;
/// }
/// assert_eq!(buf, br#""2s""#);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EncodeOptions {
    pub(crate) use_proto_names: bool,
    pub(crate) emit_unpopulated: bool,
    pub(crate) enums_as_ints: bool,
}

impl EncodeOptions {
    /// The spec's defaults: lowerCamelCase JSON names, fields at their default
    /// value left out, enums by name.
    pub const fn new() -> Self {
        EncodeOptions {
            use_proto_names: false,
            emit_unpopulated: false,
            enums_as_ints: false,
        }
    }

    /// Writes keys as the field names in the .proto file (`user_id`) instead
    /// of their JSON names (`userId`).
    pub const fn use_proto_names(mut self, yes: bool) -> Self {
        self.use_proto_names = yes;
        self
    }

    /// Writes the fields that have no presence even when they hold their
    /// default value: proto3 scalars and enums without `optional`, repeated
    /// fields (`[]`) and maps (`{}`). Fields with presence (messages, oneof
    /// members, `optional` and proto2 fields) are written only when set.
    /// This is protobuf's `always_print_fields_with_no_presence`; unlike Go's
    /// `EmitUnpopulated` it does not write `null` for unset messages.
    pub const fn emit_unpopulated(mut self, yes: bool) -> Self {
        self.emit_unpopulated = yes;
        self
    }

    /// Writes enum values as numbers instead of names.
    pub const fn enums_as_ints(mut self, yes: bool) -> Self {
        self.enums_as_ints = yes;
        self
    }

    /// Appends the JSON of `msg` to `buf`. Reusing one buffer across calls
    /// (clearing it in between) makes encoding allocation-free once the buffer has grown.
    ///
    /// On error `buf` is restored to its length before the call.
    pub fn encode_into<M: ProtoJson>(&self, msg: &M, buf: &mut Vec<u8>) -> Result<(), Error> {
        let start = buf.len();
        let mut encoder = Encoder::new(buf, *self);
        msg.write_json(&mut encoder);
        let result = encoder.finish();
        if result.is_err() {
            buf.truncate(start);
        }
        result
    }

    /// Encodes `msg` into a new byte vector, allocated once.
    ///
    /// The capacity comes from the size of the last JSON of the same message
    /// type (see `SizeHint`), so in steady use the vector is allocated once
    /// and never copied; an outsized guess is given back before returning.
    pub fn to_vec<M: ProtoJson>(&self, msg: &M) -> Result<Vec<u8>, Error> {
        let hint = M::size_hint();
        let capacity = hint.capacity();
        let mut buf = Vec::with_capacity(capacity);
        self.encode_into(msg, &mut buf)?;
        hint.record(buf.len(), capacity);
        if SizeHint::too_roomy(buf.len(), buf.capacity()) {
            buf.shrink_to_fit();
        }
        Ok(buf)
    }

    /// Encodes `msg` into a new string.
    pub fn to_string<M: ProtoJson>(&self, msg: &M) -> Result<String, Error> {
        let bytes = self.to_vec(msg)?;
        Ok(String::from_utf8(bytes).expect("the encoder writes only UTF-8"))
    }

    /// Encodes `msg` and writes it to `writer` with one `write_all`.
    ///
    /// The JSON is built in a per-thread buffer that is reused from call to
    /// call (one over 1 MiB is freed after use), so steady use allocates
    /// nothing; nothing is written if encoding fails. For many messages to
    /// one writer, see [`NdjsonWriter`](crate::stream::NdjsonWriter) and
    /// [`ArrayWriter`](crate::stream::ArrayWriter).
    pub fn to_writer<W: io::Write, M: ProtoJson>(&self, writer: W, msg: &M) -> Result<(), Error> {
        crate::stream::single::write_message(self, writer, msg)
    }
}

/// How ProtoJSON is read into messages. The default is the spec's default parser.
///
/// ```
/// use protojsonx_runtime::{DecodeOptions, ErrorKind};
/// use prost_types::Value;
///
/// let opts = DecodeOptions::new().max_depth(2);
/// assert!(opts.from_str::<Value>("[[1]]").is_ok());
/// let err = opts.from_str::<Value>("[[[1]]]").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::DepthLimit);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeOptions {
    pub(crate) ignore_unknown_fields: bool,
    pub(crate) max_depth: u32,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl DecodeOptions {
    /// The spec's defaults: unknown fields are errors; nesting is limited to 100 levels.
    pub const fn new() -> Self {
        DecodeOptions {
            ignore_unknown_fields: false,
            max_depth: 100,
        }
    }

    /// Skips object keys that name no field, and enum names the enum does not
    /// have (the field is then left unset), instead of failing.
    pub const fn ignore_unknown_fields(mut self, yes: bool) -> Self {
        self.ignore_unknown_fields = yes;
        self
    }

    /// The deepest nesting of objects and arrays accepted (default 100).
    /// Decoding recurses once per level, so this also bounds stack use.
    pub const fn max_depth(mut self, depth: u32) -> Self {
        self.max_depth = depth;
        self
    }

    /// Decodes a message from `json`.
    pub fn from_slice<M: ProtoJson>(&self, json: &[u8]) -> Result<M, Error> {
        let mut msg = M::default();
        self.merge(&mut msg, json)?;
        Ok(msg)
    }

    /// Decodes a message from `json`.
    pub fn from_str<M: ProtoJson>(&self, json: &str) -> Result<M, Error> {
        self.from_slice(json.as_bytes())
    }

    /// Merges the fields in `json` into `msg`: set fields overwrite, repeated
    /// fields append, maps insert.
    pub fn merge<M: ProtoJson>(&self, msg: &mut M, json: &[u8]) -> Result<(), Error> {
        let mut decoder = Decoder::new(json, *self);
        msg.read_json(&mut decoder)?;
        decoder.finish()
    }

    /// Decodes a message from `reader`, reading it to its end. The decoder
    /// needs the whole JSON in memory: at most
    /// [`DEFAULT_MAX_SIZE`](crate::stream::DEFAULT_MAX_SIZE) (64 MiB) is read,
    /// and a larger input is an [`ErrorKind::SizeLimit`](crate::ErrorKind::SizeLimit) error; choose the
    /// limit with [`from_reader_limited`](Self::from_reader_limited). The
    /// bytes are read into a per-thread buffer reused from call to call.
    pub fn from_reader<R: io::Read, M: ProtoJson>(&self, reader: R) -> Result<M, Error> {
        self.from_reader_limited(reader, crate::stream::DEFAULT_MAX_SIZE)
    }

    /// Decodes a message from `reader`, reading at most `max_size` bytes: a
    /// larger input is an [`ErrorKind::SizeLimit`](crate::ErrorKind::SizeLimit) error, found after
    /// `max_size + 1` bytes are read; a read error is an [`ErrorKind::Io`](crate::ErrorKind::Io) error.
    ///
    /// ```
    /// use protojsonx_runtime::{DecodeOptions, ErrorKind};
    /// use prost_types::Duration;
    ///
    /// let opts = DecodeOptions::new();
    /// let d: Duration = opts.from_reader_limited(&b"\"90s\""[..], 5)?;
    /// assert_eq!(d.seconds, 90);
    /// let err = opts.from_reader_limited::<_, Duration>(&b"\"90s\" "[..], 5).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (ErrorKind::SizeLimit, 5));
    /// # Ok::<(), protojsonx_runtime::Error>(())
    /// ```
    pub fn from_reader_limited<R: io::Read, M: ProtoJson>(
        &self,
        reader: R,
        max_size: usize,
    ) -> Result<M, Error> {
        crate::stream::single::read_message(self, reader, max_size)
    }
}
