//! The well-known types (`google.protobuf.*`) and their special ProtoJSON forms.
//!
//! prost-build maps the well-known types to `prost_types` (`Timestamp`,
//! `Duration`, `FieldMask`, `Struct`, `Value`, `ListValue`, `Any`,
//! `NullValue`) and the wrappers to plain Rust types (`Int32Value` is `i32`,
//! `Empty` is `()`, ...). Generated code calls `Encoder::message` and
//! `Decoder::read_message` on all of them as on any message, so this module
//! implements [`ProtoJson`](crate::ProtoJson) for each, one file per concern:
//!
//! - [`timestamp`]: RFC 3339 strings, with the civil calendar arithmetic;
//! - [`duration`]: `"1.5s"` strings;
//! - [`field_mask`]: comma-separated lowerCamelCase paths;
//! - [`value`]: `Struct`, `Value`, `ListValue` and `NullValue`: any JSON;
//! - [`wrappers`]: the nine wrappers as their scalar, and `Empty` as `{}`;
//! - [`compiled`]: the same forms for well-known types compiled into the
//!   user's crate;
//! - [`any`] and [`registry`]: `Any` with its `@type`, and the global
//!   registry that maps type URLs to the Rust types of packed messages;
//! - [`plain`]: every other prost-types message (descriptors, `Type`, `Api`,
//!   the plugin protocol), plain objects, in generated code.

pub(crate) mod any;
pub(crate) mod compiled;
mod duration;
mod field_mask;
mod plain;
pub(crate) mod registry;
mod timestamp;
pub(crate) mod value;
mod wrappers;

pub use registry::{TypeRegistry, register, register_with};

use crate::de::Decoder;
use crate::error::Error;

/// Parses the text of a `Timestamp` or `Duration` into seconds and nanos,
/// or says why it is invalid.
type ParseSecondsAndNanos = fn(&[u8]) -> Result<(i64, i32), &'static str>;

/// Reads the string form of a `Timestamp` or `Duration` (named `type_name`
/// in errors) and parses it into seconds and nanos with `parse`.
fn read_seconds_and_nanos(
    d: &mut Decoder<'_>,
    type_name: &str,
    parse: ParseSecondsAndNanos,
) -> Result<(i64, i32), Error> {
    let start = d.offset();
    let text = d.read_str()?;
    parse(text.as_bytes())
        .map_err(|reason| d.invalid_at(start, format!("invalid value for {type_name}: {reason}")))
}

/// Nanoseconds per second: the bound of `nanos` in `Timestamp` and `Duration`.
const NANOS_PER_SECOND: u32 = 1_000_000_000;

/// Parses the digits after a decimal point as nanoseconds: 1 to 9 ASCII
/// digits (`"5"` is 500 000 000), else `None`.
fn parse_fraction(digits: &[u8]) -> Option<i32> {
    if digits.is_empty() || digits.len() > 9 {
        return None;
    }
    let mut nanos: i32 = 0;
    for i in 0..9 {
        let digit = match digits.get(i) {
            Some(&d @ b'0'..=b'9') => i32::from(d - b'0'),
            Some(_) => return None,
            None => 0,
        };
        nanos = nanos * 10 + digit;
    }
    Some(nanos)
}

/// Parses a run of ASCII digits as a non-negative integer; `None` if
/// `digits` is empty, holds anything else, or exceeds `i64`.
fn parse_digits(digits: &[u8]) -> Option<i64> {
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0i64, |acc, &d| {
        if !d.is_ascii_digit() {
            return None;
        }
        acc.checked_mul(10)?.checked_add(i64::from(d - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_parse_as_nanos() {
        assert_eq!(parse_fraction(b"5"), Some(500_000_000));
        assert_eq!(parse_fraction(b"000000001"), Some(1));
        assert_eq!(parse_fraction(b"123456789"), Some(123_456_789));
        assert_eq!(parse_fraction(b""), None);
        assert_eq!(parse_fraction(b"1234567890"), None);
        assert_eq!(parse_fraction(b"1a"), None);
    }

    #[test]
    fn digits_parse_without_overflow() {
        assert_eq!(parse_digits(b"0042"), Some(42));
        assert_eq!(parse_digits(b""), None);
        assert_eq!(parse_digits(b"-1"), None);
        assert_eq!(parse_digits(b"99999999999999999999"), None);
    }
}
