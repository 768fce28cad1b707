//! The codec, its encoder and decoder, and the options they take.

use std::fmt;
use std::marker::PhantomData;

use bytes::{Buf, BufMut};
use protojsonx_runtime::{DecodeOptions, EncodeOptions, Error, ProtoJson};
use tonic::Status;
use tonic::codec::{BufferSettings, Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};

/// The options a [`ProtoJsonCodec`] encodes and decodes with, chosen by type
/// because tonic's generated code makes codecs with `Default::default()`.
///
/// Every method has a default (the spec's default output and parser, tonic's
/// buffer settings), so an implementation names only what it changes. They
/// are called once per call (per stream), not per message.
///
/// ```
/// use protojsonx_runtime::{DecodeOptions, EncodeOptions};
/// use protojsonx_tonic::{CodecOptions, ProtoJsonCodec};
///
/// /// Proto field names out, unknown fields in tolerated.
/// pub struct Lenient;
///
/// impl CodecOptions for Lenient {
///     fn encode_options() -> EncodeOptions {
///         EncodeOptions::new().use_proto_names(true)
///     }
///     fn decode_options() -> DecodeOptions {
///         DecodeOptions::new().ignore_unknown_fields(true)
///     }
/// }
///
/// /// The codec to name in tonic-prost-build: `.codec_path("crate::LenientCodec")`.
/// pub type LenientCodec<T, U> = ProtoJsonCodec<T, U, Lenient>;
///
/// // What the generated code does:
/// let _codec: LenientCodec<prost_types::Duration, prost_types::Timestamp> = LenientCodec::default();
/// ```
///
/// Options known only at run time (read from configuration at start-up) can
/// come from a `static` the functions read, such as a `std::sync::OnceLock`.
pub trait CodecOptions: 'static {
    /// How messages are written. Default: [`EncodeOptions::new`].
    fn encode_options() -> EncodeOptions {
        EncodeOptions::new()
    }

    /// How messages are read. Default: [`DecodeOptions::new`].
    fn decode_options() -> DecodeOptions {
        DecodeOptions::new()
    }

    /// How tonic sizes its buffers for the call. Default: tonic's.
    fn buffer_settings() -> BufferSettings {
        BufferSettings::default()
    }
}

/// The spec's default options: lowerCamelCase names, default values left
/// out, enums by name; unknown fields are errors; tonic's buffer sizes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DefaultOptions;

impl CodecOptions for DefaultOptions {}

/// A [`tonic::codec::Codec`] that sends and receives messages as ProtoJSON
/// (the protobuf JSON mapping) instead of the protobuf binary format.
///
/// `T` is the message sent, `U` the message received, `O` the
/// [`CodecOptions`]. Name it in tonic-prost-build with
/// `.codec_path("protojsonx_tonic::ProtoJsonCodec")`, or a type alias of
/// your own to choose other options (see [`CodecOptions`]).
pub struct ProtoJsonCodec<T, U, O = DefaultOptions> {
    _types: PhantomData<Types<T, U, O>>,
}

/// The codec's type parameters, held by no value: the codec is `Send`,
/// `Sync` and `Copy` whatever they are.
type Types<T, U, O> = fn() -> (T, U, O);

impl<T, U> ProtoJsonCodec<T, U, DefaultOptions> {
    /// A codec with the default options.
    ///
    /// Generated code calls `ProtoJsonCodec::default()` and leaves `T` and
    /// `U` to inference, which never falls back to a type parameter's
    /// default: this inherent function pins `O` to [`DefaultOptions`], as
    /// `HashMap::new` pins its hasher. Through an alias that fixes `O`
    /// (`type MyCodec<T, U> = ProtoJsonCodec<T, U, MyOptions>`),
    /// `MyCodec::default()` is the [`Default`] impl.
    #[allow(clippy::should_implement_trait)] // Default is implemented too; this one infers `O`.
    pub fn default() -> Self {
        Self::new()
    }
}

impl<T, U, O> ProtoJsonCodec<T, U, O> {
    /// A codec with the options of `O`.
    pub const fn new() -> Self {
        ProtoJsonCodec {
            _types: PhantomData,
        }
    }
}

impl<T, U, O> Default for ProtoJsonCodec<T, U, O> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, U, O> Clone for ProtoJsonCodec<T, U, O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, U, O> Copy for ProtoJsonCodec<T, U, O> {}

impl<T, U, O> fmt::Debug for ProtoJsonCodec<T, U, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProtoJsonCodec")
            .field("options", &std::any::type_name::<O>())
            .finish()
    }
}

impl<T, U, O> Codec for ProtoJsonCodec<T, U, O>
where
    T: ProtoJson + Send + 'static,
    U: ProtoJson + Send + 'static,
    O: CodecOptions,
{
    type Encode = T;
    type Decode = U;
    type Encoder = ProtoJsonEncoder<T>;
    type Decoder = ProtoJsonDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        ProtoJsonEncoder::new(O::encode_options(), O::buffer_settings())
    }

    fn decoder(&mut self) -> Self::Decoder {
        ProtoJsonDecoder::new(O::decode_options(), O::buffer_settings())
    }
}

/// Writes messages of type `T` as ProtoJSON into gRPC frames.
///
/// Made by [`ProtoJsonCodec`] once per call; build one directly for a codec
/// of your own with options chosen at run time. Each message is encoded into
/// a buffer the encoder keeps (allocated once at the first message's size,
/// then reused for the rest of a stream) and copied into tonic's frame.
pub struct ProtoJsonEncoder<T> {
    options: EncodeOptions,
    buffer_settings: BufferSettings,
    json: Vec<u8>,
    _message: PhantomData<fn(T)>,
}

impl<T> ProtoJsonEncoder<T> {
    /// An encoder writing with `options`, asking tonic for `buffer_settings`.
    pub fn new(options: EncodeOptions, buffer_settings: BufferSettings) -> Self {
        ProtoJsonEncoder {
            options,
            buffer_settings,
            json: Vec::new(),
            _message: PhantomData,
        }
    }
}

impl<T: ProtoJson> ProtoJsonEncoder<T> {
    /// Appends the JSON of `item` to `dst`; an encoding error is `INTERNAL`.
    fn encode_to(&mut self, item: &T, dst: &mut impl BufMut) -> Result<(), Status> {
        if self.json.capacity() == 0 {
            // First message: one allocation, sized by the runtime's hint.
            self.json = self.options.to_vec(item).map_err(encode_status)?;
        } else {
            self.json.clear();
            self.options
                .encode_into(item, &mut self.json)
                .map_err(encode_status)?;
        }
        dst.put_slice(&self.json);
        Ok(())
    }
}

impl<T: ProtoJson> Encoder for ProtoJsonEncoder<T> {
    type Item = T;
    type Error = Status;

    fn encode(&mut self, item: T, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        self.encode_to(&item, dst)
    }

    fn buffer_settings(&self) -> BufferSettings {
        self.buffer_settings
    }
}

impl<T> fmt::Debug for ProtoJsonEncoder<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProtoJsonEncoder")
            .field("options", &self.options)
            .field("buffer_settings", &self.buffer_settings)
            .finish_non_exhaustive()
    }
}

/// Reads messages of type `U` from the ProtoJSON in gRPC frames.
///
/// Made by [`ProtoJsonCodec`] once per call; build one directly for a codec
/// of your own. A frame held in one piece (tonic's case) is parsed where it
/// lies; a frame in pieces is first gathered into a buffer the decoder keeps.
pub struct ProtoJsonDecoder<U> {
    options: DecodeOptions,
    buffer_settings: BufferSettings,
    pieces: Vec<u8>,
    _message: PhantomData<fn() -> U>,
}

impl<U> ProtoJsonDecoder<U> {
    /// A decoder reading with `options`, asking tonic for `buffer_settings`.
    pub fn new(options: DecodeOptions, buffer_settings: BufferSettings) -> Self {
        ProtoJsonDecoder {
            options,
            buffer_settings,
            pieces: Vec::new(),
            _message: PhantomData,
        }
    }
}

impl<U: ProtoJson> ProtoJsonDecoder<U> {
    /// Reads all of `src` as one message; a decoding error is `INVALID_ARGUMENT`.
    fn decode_from(&mut self, src: &mut impl Buf) -> Result<U, Status> {
        let options = &self.options;
        with_contiguous(src, &mut self.pieces, |json| options.from_slice(json))
            .map_err(decode_status)
    }
}

impl<U: ProtoJson> Decoder for ProtoJsonDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        self.decode_from(src).map(Some)
    }

    fn buffer_settings(&self) -> BufferSettings {
        self.buffer_settings
    }
}

impl<U> fmt::Debug for ProtoJsonDecoder<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProtoJsonDecoder")
            .field("options", &self.options)
            .field("buffer_settings", &self.buffer_settings)
            .finish_non_exhaustive()
    }
}

/// Calls `read` with all the bytes left in `src` as one slice, and consumes
/// them: the chunk itself when it holds them all, else a copy gathered in
/// `pieces`.
fn with_contiguous<B: Buf, R>(
    src: &mut B,
    pieces: &mut Vec<u8>,
    read: impl FnOnce(&[u8]) -> R,
) -> R {
    let len = src.remaining();
    if src.chunk().len() == len {
        let result = read(src.chunk());
        src.advance(len);
        return result;
    }
    pieces.clear();
    pieces.reserve(len);
    pieces.put(src);
    read(pieces)
}

/// A message that does not decode: the client sent something wrong. The
/// runtime's message names the field path, line and column.
#[cold]
fn decode_status(error: Error) -> Status {
    Status::invalid_argument(format!("invalid ProtoJSON message: {error}"))
}

/// A message that cannot be written as ProtoJSON (a timestamp out of range,
/// an `Any` of an unknown type): a fault on the sending side.
#[cold]
fn encode_status(error: Error) -> Status {
    Status::internal(format!("cannot encode the message as ProtoJSON: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::{Bytes, BytesMut};
    use prost_types::{Duration, Struct, Timestamp};
    use tonic::Code;

    fn encoder<T>(options: EncodeOptions) -> ProtoJsonEncoder<T> {
        ProtoJsonEncoder::new(options, BufferSettings::default())
    }

    fn decoder<U>(options: DecodeOptions) -> ProtoJsonDecoder<U> {
        ProtoJsonDecoder::new(options, BufferSettings::default())
    }

    #[test]
    fn messages_of_a_stream_are_appended_as_json() {
        let mut enc = encoder::<Duration>(EncodeOptions::new());
        let mut frame = BytesMut::new();
        enc.encode_to(
            &Duration {
                seconds: 1_000,
                nanos: 0,
            },
            &mut frame,
        )
        .unwrap();
        enc.encode_to(
            &Duration {
                seconds: 2,
                nanos: 0,
            },
            &mut frame,
        )
        .unwrap();
        assert_eq!(&frame[..], br#""1000s""2s""#);
    }

    #[test]
    fn encode_options_are_applied() {
        let mut enc = encoder::<Struct>(EncodeOptions::new());
        let mut frame = Vec::new();
        let value: Struct = protojsonx_runtime::from_str(r#"{"a": 1}"#).unwrap();
        enc.encode_to(&value, &mut frame).unwrap();
        assert_eq!(frame, br#"{"a":1}"#);
    }

    #[test]
    fn an_unencodable_message_is_internal() {
        let mut enc = encoder::<Timestamp>(EncodeOptions::new());
        let mut frame = Vec::new();
        let far = Timestamp {
            seconds: i64::MAX,
            nanos: 0,
        };
        let status = enc.encode_to(&far, &mut frame).unwrap_err();
        assert_eq!(status.code(), Code::Internal);
        assert!(status.message().starts_with("cannot encode"), "{status:?}");
        assert!(frame.is_empty());
    }

    #[test]
    fn a_frame_in_one_piece_is_read_and_consumed() {
        let mut src = Bytes::from_static(br#""1.5s""#);
        let d: Duration = decoder(DecodeOptions::new()).decode_from(&mut src).unwrap();
        assert_eq!((d.seconds, d.nanos, src.len()), (1, 500_000_000, 0));
    }

    #[test]
    fn a_frame_in_pieces_is_gathered_before_reading() {
        let mut dec = decoder::<Struct>(DecodeOptions::new());
        let mut src = Buf::chain(&br#"{"a": [tr"#[..], &br#"ue], "b": null}"#[..]);
        let value = dec.decode_from(&mut src).unwrap();
        assert_eq!(
            protojsonx_runtime::to_string(&value).unwrap(),
            r#"{"a":[true],"b":null}"#
        );
        assert!(!src.has_remaining());
        // The gathering buffer is reused by the next frame of the stream.
        let mut src = Buf::chain(&b"{}"[..], &b""[..]);
        assert_eq!(dec.decode_from(&mut src).unwrap(), Struct::default());
        let mut src = Buf::chain(&b"{"[..], &b"}"[..]);
        assert_eq!(dec.decode_from(&mut src).unwrap(), Struct::default());
    }

    #[test]
    fn a_bad_message_is_invalid_argument_with_path_line_and_column() {
        let mut dec = decoder::<prost_types::Api>(DecodeOptions::new());
        let mut src = Bytes::from_static(b"{\"methods\": [\n {\"requestStreaming\": \"yes\"}]}");
        let status = dec.decode_from(&mut src).unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
        let message = status.message();
        assert!(
            message.starts_with("invalid ProtoJSON message: "),
            "{message}"
        );
        assert!(
            message.contains("at `methods[0].requestStreaming`"),
            "{message}"
        );
        assert!(message.ends_with("(line 2, column 23)"), "{message}");
    }

    #[test]
    fn the_codec_takes_its_options_from_the_type() {
        struct ProtoNames;
        impl CodecOptions for ProtoNames {
            fn encode_options() -> EncodeOptions {
                EncodeOptions::new().use_proto_names(true)
            }
            fn decode_options() -> DecodeOptions {
                DecodeOptions::new().max_depth(7)
            }
            fn buffer_settings() -> BufferSettings {
                BufferSettings::new(100, 200)
            }
        }
        let mut codec = ProtoJsonCodec::<Duration, Duration, ProtoNames>::default();
        let (enc, dec) = (codec.encoder(), codec.decoder());
        assert_eq!(enc.options, EncodeOptions::new().use_proto_names(true));
        assert_eq!(dec.options, DecodeOptions::new().max_depth(7));
        let settings = format!("{:?}", Encoder::buffer_settings(&enc));
        assert_eq!(settings, format!("{:?}", BufferSettings::new(100, 200)));
        let mut default = ProtoJsonCodec::<Duration, Duration>::default();
        assert_eq!(default.encoder().options, EncodeOptions::new());
        assert_eq!(default.decoder().options, DecodeOptions::new());
    }
}
