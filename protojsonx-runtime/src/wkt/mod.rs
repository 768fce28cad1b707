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
use crate::text::{num, word};

/// Parses the text of a `Timestamp` or `Duration` into seconds and nanos,
/// or says why it is invalid.
type ParseSecondsAndNanos = fn(&[u8]) -> Result<(i64, i32), &'static str>;

/// Reads a `Timestamp` or `Duration` in the form encoders write, in one
/// step from the next [`SHORT`] bytes of input (after one space or none,
/// the quotes included): its seconds and nanos and the length of its text,
/// or `None` for the general path.
type ShortSecondsAndNanos = fn(&[u8; SHORT]) -> Option<((i64, i32), usize)>;

/// The window a [`ShortSecondsAndNanos`] reads: room for the longest
/// timestamp (`"9999-12-31T23:59:59.999999999Z"`, 32 bytes) or duration
/// (27) after a space, with the word loads that look past their digits,
/// whatever they hold: no offset read can be outside it.
const SHORT: usize = 40;

/// Reads the string form of a `Timestamp` or `Duration` (named `type_name`
/// in errors) into seconds and nanos: with `short` if it has the form
/// encoders write, else as a string parsed with `parse`.
#[inline(always)]
fn read_seconds_and_nanos(
    d: &mut Decoder<'_>,
    type_name: &str,
    short: ShortSecondsAndNanos,
    parse: ParseSecondsAndNanos,
) -> Result<(i64, i32), Error> {
    match d.read_short(short) {
        Some(value) => Ok(value),
        None => read_string_seconds_and_nanos(d, type_name, parse),
    }
}

/// [`read_seconds_and_nanos`] of any string: other whitespace, escapes,
/// other forms, errors.
#[inline(never)]
fn read_string_seconds_and_nanos(
    d: &mut Decoder<'_>,
    type_name: &str,
    parse: ParseSecondsAndNanos,
) -> Result<(i64, i32), Error> {
    let start = d.offset();
    let text = d.read_str()?;
    parse(text.as_bytes())
        .map_err(|reason| d.invalid_at(start, format!("invalid value for {type_name}: {reason}")))
}

/// The end of a short `Timestamp` or `Duration` at `at` in `window`:
/// optionally a point and 1 to 9 fractional digits, then `suffix` (`Z`,
/// `s`) and the closing quote. The nanos and the offset past the quote;
/// `None` for anything else.
#[inline(always)]
fn short_end(window: &[u8; SHORT], at: usize, suffix: u8) -> Option<(i32, usize)> {
    let (nanos, end) = match window[at] {
        b'.' => short_fraction(window, at + 1)?,
        _ => (0, at),
    };
    (window[end] == suffix && window[end + 1] == b'"').then_some((nanos, end + 2))
}

/// The nanos of the fractional digits at `at` in `window` (1 to 9 of them:
/// `"5"` is 500,000,000) and where they end, for the short forms of
/// `Timestamp` and `Duration`; `None` if no digit is there. A tenth digit is
/// left for the caller to refuse (it is not the suffix the caller expects).
#[inline(always)]
fn short_fraction(window: &[u8; SHORT], at: usize) -> Option<(i32, usize)> {
    let (mut value, mut count) = word::digit_word(word::load(window, at))?;
    let ninth = window[at + 8].wrapping_sub(b'0');
    if count == 8 && ninth <= 9 {
        (value, count) = (value * 10 + u64::from(ninth), 9);
    }
    let nanos = i32::try_from(value * num::POW10_U64[9 - count]).ok()?;
    Some((nanos, at + count))
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

/// Checks a [`ShortSecondsAndNanos`] against its type's `parse` on `text`
/// (a string's contents): in windows where the string comes after a space
/// or none and before the input's end (zeros) or other bytes, `short`
/// gives `parse`'s value and the length of the string (space and quotes
/// included) or `None`, and a value whenever `encoded` (the text has the
/// form encoders write).
#[cfg(test)]
fn check_short(
    short: ShortSecondsAndNanos,
    parse: ParseSecondsAndNanos,
    text: &[u8],
    encoded: bool,
) {
    let shown = String::from_utf8_lossy(text);
    for space in [&b""[..], b" "] {
        for after in [
            &b""[..],
            b",",
            b"}",
            b"\"\"\"",
            b"0123456789012345678",
            b"Zs\"Zs\"",
        ] {
            let input = [space, b"\"", text, b"\"", after].concat();
            let mut window = [0; SHORT];
            let len = input.len().min(SHORT);
            window[..len].copy_from_slice(&input[..len]);
            let read = short(&window);
            let length = space.len() + text.len() + 2;
            match read {
                Some((value, len)) => {
                    assert_eq!(Ok(value), parse(text), "{shown:?} after {space:?}");
                    assert_eq!(len, length, "{shown:?} after {space:?}");
                }
                None => assert!(!encoded, "{shown:?} after {space:?} is left to parse"),
            }
        }
    }
}

/// Runs `check` on `base` with each of its bytes replaced by every byte
/// value in turn, and on each of its proper prefixes: the texts near a
/// valid one that a parser must tell from it.
#[cfg(test)]
fn each_byte_and_cut(base: &[u8], mut check: impl FnMut(&[u8])) {
    let mut text = base.to_vec();
    for at in 0..base.len() {
        for byte in 0..=255u8 {
            text[at] = byte;
            check(&text);
        }
        text[at] = base[at];
    }
    for cut in 0..base.len() {
        check(&base[..cut]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_fractions_read_one_to_nine_digits() {
        let mut window = [b'x'; SHORT];
        for count in 0..=12 {
            let digits: Vec<u8> = (0..count).map(|i| b"987654321012"[i]).collect();
            window[3..3 + count].copy_from_slice(&digits);
            let expected = (1..=9)
                .contains(&count)
                .then(|| (parse_fraction(&digits).expect("1 to 9 digits"), 3 + count));
            // Ten digits or more: nine read, and the tenth is no suffix.
            let expected = expected.or((count > 9).then_some((987_654_321, 12)));
            assert_eq!(short_fraction(&window, 3), expected, "{count} digits");
            window[3..3 + count].fill(b'x');
        }
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
