//! The wrapper types (`google.protobuf.Int32Value`, ...) and `google.protobuf.Empty`.
//!
//! prost-build maps each wrapper to the Rust type it wraps (`Int32Value` is
//! `i32`, `BytesValue` is `Vec<u8>`, ...) and `Empty` to `()`, so a field of
//! type `google.protobuf.Int64Value` is an `Option<i64>` on which generated
//! code calls the message methods. A wrapper's JSON is the JSON of its
//! scalar, with the scalar's rules (an `Int64Value` is written as a string,
//! read from a number or a string, and so on); `Empty` is `{}`.

use crate::ProtoJson;
use crate::de::Decoder;
use crate::error::Error;
use crate::ser::Encoder;

/// Implements [`ProtoJson`] for a wrapped scalar type with the encoder and
/// decoder methods of that scalar.
macro_rules! wrapper {
    ($($ty:ty => $wkt:literal, $write:ident, $read:ident;)*) => {$(
        #[doc = concat!("`google.protobuf.", $wkt, "`: the JSON of the wrapped scalar.")]
        impl ProtoJson for $ty {
            const SPECIAL_JSON: bool = true;

            fn write_json(&self, e: &mut Encoder<'_>) {
                e.$write(*self);
            }

            fn read_json(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
                *self = d.$read()?;
                Ok(())
            }
        }
    )*};
}

wrapper! {
    bool => "BoolValue", bool, read_bool;
    i32 => "Int32Value", i32, read_i32;
    i64 => "Int64Value", i64, read_i64;
    u32 => "UInt32Value", u32, read_u32;
    u64 => "UInt64Value", u64, read_u64;
    f32 => "FloatValue", f32, read_f32;
    f64 => "DoubleValue", f64, read_f64;
}

/// `google.protobuf.StringValue`: a JSON string.
impl ProtoJson for String {
    const SPECIAL_JSON: bool = true;

    fn write_json(&self, e: &mut Encoder<'_>) {
        e.string(self);
    }

    fn read_json(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
        d.read_string_into(self)
    }
}

/// `google.protobuf.BytesValue`: a base64 string.
impl ProtoJson for Vec<u8> {
    const SPECIAL_JSON: bool = true;

    fn write_json(&self, e: &mut Encoder<'_>) {
        e.bytes(self);
    }

    fn read_json(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
        d.read_bytes_into(self)
    }
}

/// `google.protobuf.Empty`: `{}`. Keys in the input are unknown fields
/// (errors, or skipped when unknown fields are ignored). In an `Any` it goes
/// under `"value"` like the other well-known types, as Go's protojson does.
impl ProtoJson for () {
    const SPECIAL_JSON: bool = true;

    fn write_json(&self, e: &mut Encoder<'_>) {
        let object = e.begin_object();
        e.end_object(object);
    }

    fn read_json(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
        d.read_object(|d, key| d.unknown_field(key))
    }
}

#[cfg(test)]
mod tests {
    use crate::error::ErrorKind;
    use crate::options::DecodeOptions;

    #[test]
    fn wrappers_write_their_scalar() {
        assert_eq!(crate::to_string(&true).unwrap(), "true");
        assert_eq!(crate::to_string(&-5i32).unwrap(), "-5");
        assert_eq!(
            crate::to_string(&i64::MIN).unwrap(),
            "\"-9223372036854775808\""
        );
        assert_eq!(crate::to_string(&7u32).unwrap(), "7");
        assert_eq!(
            crate::to_string(&u64::MAX).unwrap(),
            "\"18446744073709551615\""
        );
        assert_eq!(crate::to_string(&0.1f32).unwrap(), "0.1");
        assert_eq!(crate::to_string(&f64::NAN).unwrap(), "\"NaN\"");
        assert_eq!(crate::to_string(&"a\"b".to_string()).unwrap(), "\"a\\\"b\"");
        assert_eq!(crate::to_string(&vec![0xffu8, 0]).unwrap(), "\"/wA=\"");
        assert_eq!(crate::to_string(&()).unwrap(), "{}");
    }

    #[test]
    fn wrappers_read_their_scalar() {
        assert!(crate::from_str::<bool>("true").unwrap());
        assert_eq!(crate::from_str::<i32>("\"-5\"").unwrap(), -5);
        assert_eq!(crate::from_str::<i64>("1e3").unwrap(), 1000);
        assert_eq!(crate::from_str::<u32>("7").unwrap(), 7);
        assert_eq!(
            crate::from_str::<u64>("\"18446744073709551615\"").unwrap(),
            u64::MAX
        );
        assert_eq!(
            crate::from_str::<f32>("\"-Infinity\"").unwrap(),
            f32::NEG_INFINITY
        );
        assert_eq!(crate::from_str::<f64>("1.5").unwrap(), 1.5);
        assert_eq!(crate::from_str::<String>("\"\\u00e9\"").unwrap(), "é");
        assert_eq!(crate::from_str::<Vec<u8>>("\"_wA\"").unwrap(), [0xff, 0]);
        crate::from_str::<()>(" { } ").unwrap();
    }

    #[test]
    fn wrappers_reject_other_json() {
        let err = crate::from_str::<i32>("2147483648").unwrap_err();
        assert_eq!(
            err.message(),
            "invalid value for int32: number out of range"
        );
        let err = crate::from_str::<bool>("null").unwrap_err();
        assert_eq!(err.message(), "expected bool, found null");
        let err = crate::from_str::<String>("{}").unwrap_err();
        assert_eq!(err.message(), "expected string, found object");
        let err = crate::from_str::<()>("[]").unwrap_err();
        assert_eq!(err.message(), "expected object, found array");
    }

    #[test]
    fn empty_fields_follow_the_unknown_field_option() {
        let err = crate::from_str::<()>(r#"{"a": 1}"#).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnknownField);
        DecodeOptions::new()
            .ignore_unknown_fields(true)
            .from_str::<()>(r#"{"a": [1, {"b": 2}]}"#)
            .unwrap();
    }
}
