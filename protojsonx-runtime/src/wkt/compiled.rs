//! Well-known types that a user compiled into their own crate (prost-build's
//! `compile_well_known_types`): generated code delegates their JSON to the
//! runtime's implementation for the `prost_types` (or primitive) type with the
//! same wire format, converting through the binary encoding. That costs an
//! encode and a decode per value, which keeps one implementation of each
//! special JSON form; the common setup, prost-types, pays nothing.

use prost::Message;

use crate::ProtoJson;
use crate::de::Decoder;
use crate::error::{Error, ErrorKind};
use crate::ser::Encoder;

/// Writes `msg` as the JSON of `P`, the runtime type with the same wire format.
pub fn write_as<P: ProtoJson + Message, M: Message>(msg: &M, e: &mut Encoder<'_>) {
    match P::decode(msg.encode_to_vec().as_slice()) {
        Ok(twin) => twin.write_json(e),
        Err(err) => e.fail(Error::encode(
            ErrorKind::Encode,
            format!("cannot convert a compiled well-known type: {err}"),
        )),
    }
}

/// Reads the JSON of `P` and merges it into `msg`, which has the same wire
/// format (or replaces what `msg` held, when the decoder replaces).
pub fn read_as<P: ProtoJson + Message, M: Message>(
    msg: &mut M,
    d: &mut Decoder<'_>,
) -> Result<(), Error> {
    let mut twin = P::default();
    twin.read_json(d)?;
    if d.replaces() {
        msg.clear();
    }
    msg.merge(twin.encode_to_vec().as_slice()).map_err(|err| {
        Error::encode(
            ErrorKind::InvalidValue,
            format!("cannot convert a compiled well-known type: {err}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{DecodeOptions, EncodeOptions};

    /// A user-compiled `google.protobuf.Timestamp`, as prost-build generates it.
    #[derive(Clone, PartialEq, prost::Message)]
    struct Timestamp {
        #[prost(int64, tag = "1")]
        seconds: i64,
        #[prost(int32, tag = "2")]
        nanos: i32,
    }

    impl ProtoJson for Timestamp {
        const SPECIAL_JSON: bool = true;

        fn write_json(&self, e: &mut Encoder<'_>) {
            write_as::<prost_types::Timestamp, _>(self, e);
        }

        fn read_json(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
            read_as::<prost_types::Timestamp, _>(self, d)
        }
    }

    #[test]
    fn compiled_types_use_the_special_form() {
        let ts = Timestamp {
            seconds: 1,
            nanos: 500_000_000,
        };
        let json = EncodeOptions::new().to_string(&ts).unwrap();
        assert_eq!(json, r#""1970-01-01T00:00:01.500Z""#);
        let back: Timestamp = DecodeOptions::new().from_str(&json).unwrap();
        assert_eq!(back, ts);
    }

    #[test]
    fn range_errors_come_through() {
        let ts = Timestamp {
            seconds: i64::MAX,
            nanos: 0,
        };
        assert_eq!(
            EncodeOptions::new().to_string(&ts).unwrap_err().kind(),
            ErrorKind::Encode
        );
        let err = DecodeOptions::new().from_str::<Timestamp>(r#""10000-01-01T00:00:00Z""#);
        assert!(err.is_err());
    }
}
