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
use crate::ser::Encoder;

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

/// Writes `v` in decimal, left-padded with zeros to at least `width` digits
/// (at most 20). The text is ASCII digits, so it needs no JSON escaping.
fn write_padded(e: &mut Encoder<'_>, v: u64, width: usize) {
    let mut digits = [b'0'; 20];
    let mut start = digits.len();
    let mut rest = v;
    for slot in digits.iter_mut().rev() {
        // `rest % 10` is below 10, so the cast is exact.
        *slot = b'0' + (rest % 10) as u8;
        rest /= 10;
        start -= 1;
        if rest == 0 {
            break;
        }
    }
    let start = start.min(digits.len().saturating_sub(width));
    e.raw(digits.get(start..).unwrap_or_default());
}

/// Writes the fraction of a second for `nanos` (below 10^9) with 0, 3, 6 or
/// 9 digits, the fewest that are exact, as ProtoJSON prescribes for
/// `Timestamp` and `Duration`: nothing for 0, else `.` and the digits.
fn write_fraction(e: &mut Encoder<'_>, nanos: u32) {
    if nanos == 0 {
        return;
    }
    e.raw(b".");
    if nanos % 1_000_000 == 0 {
        write_padded(e, u64::from(nanos / 1_000_000), 3);
    } else if nanos % 1_000 == 0 {
        write_padded(e, u64::from(nanos / 1_000), 6);
    } else {
        write_padded(e, u64::from(nanos), 9);
    }
}

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
    use crate::options::EncodeOptions;

    fn written(f: impl FnOnce(&mut Encoder<'_>)) -> String {
        let mut out = Vec::new();
        f(&mut Encoder::new(&mut out, EncodeOptions::new()));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn padded_numbers() {
        assert_eq!(written(|e| write_padded(e, 7, 4)), "0007");
        assert_eq!(written(|e| write_padded(e, 12345, 2)), "12345");
        assert_eq!(written(|e| write_padded(e, 0, 0)), "0");
        assert_eq!(
            written(|e| write_padded(e, u64::MAX, 25)),
            u64::MAX.to_string()
        );
    }

    #[test]
    fn fractions_use_0_3_6_or_9_digits() {
        assert_eq!(written(|e| write_fraction(e, 0)), "");
        assert_eq!(written(|e| write_fraction(e, 500_000_000)), ".500");
        assert_eq!(written(|e| write_fraction(e, 10_000)), ".000010");
        assert_eq!(written(|e| write_fraction(e, 1)), ".000000001");
        assert_eq!(written(|e| write_fraction(e, 999_999_999)), ".999999999");
    }

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
