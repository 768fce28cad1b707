//! `google.protobuf.Struct`, `Value`, `ListValue` and `NullValue`: arbitrary JSON.
//!
//! A `Struct` is a JSON object, a `ListValue` a JSON array, and a `Value`
//! any JSON value: `null`, a number (an `f64`), a string, a bool, an object
//! or an array. Reading recurses through `Decoder::read_map` and
//! `Decoder::read_list`, which take from the nesting budget, so deeply nested
//! input ends in a depth error, not a stack overflow. Writing fails for a
//! `Value` with no kind set and for a NaN or infinite number, which JSON
//! cannot express.

use prost_types::value::Kind;
use prost_types::{ListValue, NullValue, Struct, Value};

use crate::de::{Decoder, JsonType};
use crate::error::{Error, ErrorKind};
use crate::ser::Encoder;
use crate::{JsonEnum, ProtoJson};

/// `NullValue` is written as `null`; read from `null`, `"NULL_VALUE"` or `0`.
impl JsonEnum for NullValue {
    const NAME: &'static str = "google.protobuf.NullValue";
    const IS_NULL_VALUE: bool = true;

    fn name_of(v: i32) -> Option<&'static str> {
        (v == 0).then_some("NULL_VALUE")
    }

    fn value_of(name: &[u8]) -> Option<i32> {
        (name == b"NULL_VALUE").then_some(0)
    }
}

/// A JSON object of `Value`s, keys written in sorted order.
impl ProtoJson for Struct {
    const SPECIAL_JSON: bool = true;

    fn write_json(&self, e: &mut Encoder<'_>) {
        e.map(&self.fields, |e, v| v.write_json(e));
    }

    fn read_json(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
        d.read_map(&mut self.fields)
    }
}

/// A JSON array of `Value`s.
impl ProtoJson for ListValue {
    const SPECIAL_JSON: bool = true;

    fn write_json(&self, e: &mut Encoder<'_>) {
        e.list(&self.values, |e, v| v.write_json(e));
    }

    fn read_json(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
        d.read_message_list(&mut self.values)
    }
}

/// Any JSON value, `null` included.
impl ProtoJson for Value {
    const SPECIAL_JSON: bool = true;

    fn write_json(&self, e: &mut Encoder<'_>) {
        match &self.kind {
            Some(Kind::NullValue(_)) => e.null(),
            Some(Kind::NumberValue(v)) => write_number(e, *v),
            Some(Kind::StringValue(s)) => e.string(s),
            Some(Kind::BoolValue(b)) => e.bool(*b),
            Some(Kind::StructValue(s)) => s.write_json(e),
            Some(Kind::ListValue(l)) => l.write_json(e),
            None => write_no_kind(e),
        }
    }

    /// Reads any JSON value, `null` included, replacing the kind held before.
    fn read_json(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
        let kind = match d.json_type()? {
            JsonType::Null => {
                // Consumes `null`, or fails on a malformed literal.
                d.skip_value()?;
                Kind::NullValue(0)
            }
            JsonType::Bool => Kind::BoolValue(d.read_bool()?),
            JsonType::Number => Kind::NumberValue(d.read_f64()?),
            JsonType::String => {
                if let Some(Kind::StringValue(s)) = &mut self.kind {
                    return d.read_string_into(s);
                }
                Kind::StringValue(d.read_string()?)
            }
            // Replacing, a struct or list held before is read into again.
            JsonType::Object => match &mut self.kind {
                Some(Kind::StructValue(s)) if d.replaces() => return d.read_message(s),
                _ => Kind::StructValue(d.new_message()?),
            },
            JsonType::Array => match &mut self.kind {
                Some(Kind::ListValue(l)) if d.replaces() => return d.read_message(l),
                _ => Kind::ListValue(d.new_message()?),
            },
        };
        self.kind = Some(kind);
        Ok(())
    }
}

/// Writes the number a `Value` holds. JSON numbers are finite: NaN or an
/// infinity is an encoding error, written as `null`. The dynamic
/// transcoder writes binary `Value`s through this too.
pub fn write_number(e: &mut Encoder<'_>, v: f64) {
    if v.is_finite() {
        e.f64(v);
    } else {
        let message = format!("google.protobuf.Value cannot hold {v}: JSON numbers are finite");
        unwritable(e, message);
    }
}

/// Writes a `Value` with no kind set: an encoding error, written as `null`.
pub fn write_no_kind(e: &mut Encoder<'_>) {
    unwritable(e, "google.protobuf.Value has no kind set".to_string());
}

#[cold]
fn unwritable(e: &mut Encoder<'_>, message: String) {
    e.fail(Error::encode(ErrorKind::Encode, message));
    e.null();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::DecodeOptions;

    fn number(v: f64) -> Value {
        Value {
            kind: Some(Kind::NumberValue(v)),
        }
    }

    fn string(s: &str) -> Value {
        Value {
            kind: Some(Kind::StringValue(s.into())),
        }
    }

    fn null() -> Value {
        Value {
            kind: Some(Kind::NullValue(0)),
        }
    }

    #[test]
    fn every_kind_round_trips() {
        let json = r#"{"a":null,"b":1.5,"c":"x","d":true,"e":{"f":[1,"2",null,[],{}]},"g":[]}"#;
        let v: Value = crate::from_str(json).unwrap();
        let Some(Kind::StructValue(s)) = &v.kind else {
            panic!("expected a struct: {v:?}");
        };
        assert_eq!(s.fields["a"], null());
        assert_eq!(s.fields["b"], number(1.5));
        assert_eq!(s.fields["c"], string("x"));
        assert_eq!(crate::to_string(&v).unwrap(), json);
        let s2: Struct = crate::from_str(json).unwrap();
        assert_eq!(&s2, s);
        assert_eq!(crate::to_string(&s2).unwrap(), json);
        let l: ListValue = crate::from_str(r#"[null, -0, 1e300, "NaN"]"#).unwrap();
        assert_eq!(
            l.values,
            [null(), number(-0.0), number(1e300), string("NaN")]
        );
        assert_eq!(crate::to_string(&l).unwrap(), r#"[null,-0,1e+300,"NaN"]"#);
    }

    #[test]
    fn struct_keys_are_sorted_and_unique() {
        let s: Struct = crate::from_str(r#"{"b": 1, "a": 2}"#).unwrap();
        assert_eq!(crate::to_string(&s).unwrap(), r#"{"a":2,"b":1}"#);
        let err = crate::from_str::<Struct>(r#"{"a": 1, "a": 2}"#).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DuplicateField);
    }

    #[test]
    fn encoding_non_finite_numbers_and_missing_kinds_fails() {
        for (v, message) in [
            (
                number(f64::NAN),
                "google.protobuf.Value cannot hold NaN: JSON numbers are finite",
            ),
            (
                number(f64::INFINITY),
                "google.protobuf.Value cannot hold inf: JSON numbers are finite",
            ),
            (Value::default(), "google.protobuf.Value has no kind set"),
        ] {
            let err = crate::to_string(&v).unwrap_err();
            assert_eq!((err.kind(), err.message()), (ErrorKind::Encode, message));
            let list = ListValue {
                values: vec![null(), v],
            };
            assert_eq!(crate::to_string(&list).unwrap_err().message(), message);
        }
    }

    #[test]
    fn rejects_invalid_json_and_out_of_range_numbers() {
        let err = crate::from_str::<Value>("1e400").unwrap_err();
        assert_eq!(
            err.message(),
            "invalid value for double: number out of range"
        );
        assert_eq!(
            crate::from_str::<Value>("nul").unwrap_err().kind(),
            ErrorKind::Eof
        );
        assert_eq!(
            crate::from_str::<Value>("nulx").unwrap_err().kind(),
            ErrorKind::Syntax
        );
        assert_eq!(
            crate::from_str::<Value>("").unwrap_err().kind(),
            ErrorKind::Eof
        );
        let err = crate::from_str::<Value>("[1, x]").unwrap_err();
        assert_eq!(
            err.message(),
            "expected a JSON value, found invalid character 'x'"
        );
        assert_eq!(err.path_string(), "[1]");
        let err = crate::from_str::<Struct>("[]").unwrap_err();
        assert_eq!(err.message(), "expected object, found array");
        let err = crate::from_str::<ListValue>("null").unwrap_err();
        assert_eq!(err.message(), "expected array, found null");
    }

    #[test]
    fn null_value_enum_names() {
        assert_eq!(NullValue::name_of(0), Some("NULL_VALUE"));
        assert_eq!(NullValue::name_of(1), None);
        assert_eq!(NullValue::value_of(b"NULL_VALUE"), Some(0));
        assert_eq!(NullValue::value_of(b"null"), None);
    }

    #[test]
    fn very_deep_nesting_is_a_depth_error() {
        let depth = 100_000;
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let json = open.repeat(depth) + &close.repeat(depth);
            let err = crate::from_str::<Value>(&json).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::DepthLimit);
        }
    }

    #[test]
    fn nesting_up_to_the_limit_works_on_a_small_stack() {
        let nested = |depth: usize| "[".repeat(depth) + &"]".repeat(depth);
        let mixed = "{\"a\":[".repeat(50) + &"]}".repeat(50);
        let result = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let v: Value = crate::from_str(&nested(100)).unwrap();
                assert_eq!(crate::to_string(&v).unwrap(), nested(100));
                let v: Value = crate::from_str(&mixed).unwrap();
                assert_eq!(crate::to_string(&v).unwrap(), mixed.replace(' ', ""));
                let err = crate::from_str::<Value>(&nested(101)).unwrap_err();
                assert_eq!(err.kind(), ErrorKind::DepthLimit);
                let opts = DecodeOptions::new().max_depth(3);
                assert!(opts.from_str::<Value>(&nested(3)).is_ok());
                assert!(opts.from_str::<Value>(&nested(4)).is_err());
            })
            .unwrap()
            .join();
        assert!(result.is_ok());
    }
}
