//! `google.protobuf.Duration`: a string of seconds with the suffix `s`, like `"-1.5s"`.
//!
//! Output has 0, 3, 6 or 9 fractional digits. Input is strict: an optional
//! `-`, the integer seconds (no leading zeros), optionally `.` and 1 to 9
//! digits, then `s`; no `+`, exponents or spaces. Seconds are within
//! ±315,576,000,000 (10,000 years) and nanos have the sign of the seconds.

use prost_types::Duration;

use super::{
    NANOS_PER_SECOND, SHORT, parse_digits, parse_fraction, read_seconds_and_nanos, short_end,
};
use crate::ProtoJson;
use crate::de::Decoder;
use crate::error::{Error, ErrorKind};
use crate::ser::Encoder;
use crate::text::num;

/// The largest magnitude of `Duration.seconds`: 10,000 years.
const MAX_SECONDS: i64 = 315_576_000_000;

/// Checks that `seconds` and `nanos` are a duration ProtoJSON can express:
/// both in range and of the same sign (zero goes with either).
fn check(seconds: i64, nanos: i32) -> Result<(), String> {
    if !(-MAX_SECONDS..=MAX_SECONDS).contains(&seconds) || nanos.unsigned_abs() >= NANOS_PER_SECOND
    {
        return Err(format!(
            "google.protobuf.Duration out of range: seconds {seconds}, nanos {nanos} \
             (valid: -315576000000.999999999s to 315576000000.999999999s)"
        ));
    }
    if (seconds > 0 && nanos < 0) || (seconds < 0 && nanos > 0) {
        return Err(format!(
            "google.protobuf.Duration has seconds and nanos of different signs: \
             seconds {seconds}, nanos {nanos}"
        ));
    }
    Ok(())
}

/// Seconds with the suffix `s`; out-of-range values fail on both sides.
impl ProtoJson for Duration {
    const SPECIAL_JSON: bool = true;

    fn write_json(&self, e: &mut Encoder<'_>) {
        if let Err(message) = check(self.seconds, self.nanos) {
            e.fail(Error::encode(ErrorKind::Encode, message));
            return e.null();
        }
        let negative = self.seconds < 0 || self.nanos < 0;
        // `"-315576000000.999999999s"`, the longest, is 26 bytes.
        e.short(|text| {
            text.byte(b'"')
                .byte_if(b'-', negative)
                .decimal(self.seconds.unsigned_abs())
                .fraction(self.nanos.unsigned_abs())
                .byte(b's')
                .byte(b'"');
        });
    }

    fn read_json(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
        let (seconds, nanos) = read_seconds_and_nanos(d, "google.protobuf.Duration", short, parse)?;
        self.seconds = seconds;
        self.nanos = nanos;
        Ok(())
    }
}

/// Why a duration string was rejected, for the error message.
const BAD_FORM: &str = "expected seconds with the suffix 's', like \"1.5s\" or \"-0.001s\"";

/// Parses a duration string into seconds and nanos of the same sign.
fn parse(s: &[u8]) -> Result<(i64, i32), &'static str> {
    let body = s.strip_suffix(b"s").ok_or(BAD_FORM)?;
    let (negative, body) = match body.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, body),
    };
    let (whole, fraction) = match body.iter().position(|&b| b == b'.') {
        Some(dot) => (
            body.get(..dot).unwrap_or_default(),
            Some(body.get(dot + 1..).unwrap_or_default()),
        ),
        None => (body, None),
    };
    if whole.len() > 1 && whole.first() == Some(&b'0') {
        return Err(BAD_FORM);
    }
    if !whole.iter().all(u8::is_ascii_digit) {
        return Err(BAD_FORM);
    }
    // Digits only, so `None` here means too many of them for an i64.
    let seconds = match parse_digits(whole) {
        Some(seconds) if seconds <= MAX_SECONDS => seconds,
        Some(_) => return Err(OUT_OF_RANGE),
        None if whole.is_empty() => return Err(BAD_FORM),
        None => return Err(OUT_OF_RANGE),
    };
    let nanos = match fraction {
        None => 0,
        Some(digits) if digits.len() > 9 && digits.iter().all(u8::is_ascii_digit) => {
            return Err("more than 9 fractional digits");
        }
        Some(digits) => parse_fraction(digits).ok_or(BAD_FORM)?,
    };
    Ok(if negative {
        (-seconds, -nanos)
    } else {
        (seconds, nanos)
    })
}

/// [`parse`] of the form encoders write, in place in the input: after one
/// space or none, `"`, an optional `-`, the seconds, optionally a point and
/// 1 to 9 digits, then `s"` (see [`super::ShortSecondsAndNanos`]). Anything
/// else, valid or not, is `None`, for [`parse`].
fn short(window: &[u8; SHORT]) -> Option<((i64, i32), usize)> {
    let quote = usize::from(window[0] == b' ');
    if window[quote] != b'"' {
        return None;
    }
    let negative = window[quote + 1] == b'-';
    let first = quote + 1 + usize::from(negative);
    let (seconds, count) = num::short_digits(window, first)?;
    let seconds = i64::try_from(seconds).ok().filter(|&s| s <= MAX_SECONDS)?;
    let (nanos, len) = short_end(window, first + count, b's')?;
    let value = if negative {
        (-seconds, -nanos)
    } else {
        (seconds, nanos)
    };
    Some((value, len))
}

/// The reason given for seconds beyond ±315,576,000,000.
const OUT_OF_RANGE: &str = "out of range (-315576000000.999999999s to 315576000000.999999999s)";

#[cfg(test)]
mod tests {
    use super::*;

    fn dur(seconds: i64, nanos: i32) -> Duration {
        Duration { seconds, nanos }
    }

    fn encode(d: Duration) -> Result<String, Error> {
        crate::to_string(&d)
    }

    fn decode(json: &str) -> Result<Duration, Error> {
        crate::from_str(json)
    }

    #[test]
    fn encodes_with_0_3_6_or_9_digits() {
        for (d, json) in [
            (dur(0, 0), "0s"),
            (dur(1, 0), "1s"),
            (dur(1, 500_000_000), "1.500s"),
            (dur(-1, -500_000_000), "-1.500s"),
            (dur(0, -1_000), "-0.000001s"),
            (dur(0, 10), "0.000000010s"),
            (dur(1, 10_000), "1.000010s"),
            (dur(MAX_SECONDS, 999_999_999), "315576000000.999999999s"),
            (dur(-MAX_SECONDS, -999_999_999), "-315576000000.999999999s"),
        ] {
            assert_eq!(encode(d).unwrap(), format!("\"{json}\""));
        }
    }

    #[test]
    fn encoding_out_of_range_fails() {
        for (d, start) in [
            (
                dur(MAX_SECONDS + 1, 0),
                "google.protobuf.Duration out of range",
            ),
            (
                dur(-MAX_SECONDS - 1, 0),
                "google.protobuf.Duration out of range",
            ),
            (
                dur(0, 1_000_000_000),
                "google.protobuf.Duration out of range",
            ),
            (dur(0, i32::MIN), "google.protobuf.Duration out of range"),
            (
                dur(1, -1),
                "google.protobuf.Duration has seconds and nanos of different signs",
            ),
            (
                dur(-1, 1),
                "google.protobuf.Duration has seconds and nanos of different signs",
            ),
        ] {
            let err = encode(d).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Encode);
            assert!(err.message().starts_with(start), "{}", err.message());
        }
    }

    #[test]
    fn decodes_valid_forms() {
        for (json, seconds, nanos) in [
            ("1s", 1, 0),
            ("0s", 0, 0),
            ("-0s", 0, 0),
            ("-5s", -5, 0),
            ("-0.5s", 0, -500_000_000),
            ("1.5s", 1, 500_000_000),
            ("-1.5s", -1, -500_000_000),
            ("0.000000001s", 0, 1),
            ("1.000000000s", 1, 0),
            ("1.010000000s", 1, 10_000_000),
            ("315576000000.999999999s", MAX_SECONDS, 999_999_999),
            ("-315576000000.999999999s", -MAX_SECONDS, -999_999_999),
        ] {
            assert_eq!(
                decode(&format!("\"{json}\"")).unwrap(),
                dur(seconds, nanos),
                "{json}"
            );
        }
    }

    #[test]
    fn rejects_bad_forms_and_ranges() {
        for (json, reason) in [
            ("1", "expected seconds"),
            ("s", "expected seconds"),
            ("-s", "expected seconds"),
            ("", "expected seconds"),
            ("+1s", "expected seconds"),
            ("1e3s", "expected seconds"),
            (" 1s", "expected seconds"),
            ("1 s", "expected seconds"),
            ("1.s", "expected seconds"),
            (".5s", "expected seconds"),
            ("01s", "expected seconds"),
            ("--1s", "expected seconds"),
            ("1.5.5s", "expected seconds"),
            ("1S", "expected seconds"),
            ("1.0000000001s", "more than 9 fractional digits"),
            ("315576000001s", "out of range"),
            ("-315576000001.000000000s", "out of range"),
            ("99999999999999999999999s", "out of range"),
        ] {
            let err = decode(&format!("\"{json}\"")).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidValue, "{json}");
            assert!(
                err.message().starts_with(&format!(
                    "invalid value for google.protobuf.Duration: {reason}"
                )),
                "{json}: {}",
                err.message()
            );
        }
        assert_eq!(
            decode("1").unwrap_err().message(),
            "expected string, found number"
        );
    }

    /// Whether `text` is a duration as encoders write it (no leading zero,
    /// 0 to 9 fractional digits), valid or not.
    fn encoded(text: &[u8]) -> bool {
        let text = text.strip_prefix(b"-").unwrap_or(text);
        let Some(body) = text.strip_suffix(b"s") else {
            return false;
        };
        let (whole, fraction) = match body.iter().position(|&b| b == b'.') {
            Some(point) => (&body[..point], Some(&body[point + 1..])),
            None => (body, None),
        };
        let digits = |d: &[u8]| !d.is_empty() && d.iter().all(u8::is_ascii_digit);
        digits(whole)
            && (whole.len() == 1 || whole[0] != b'0')
            && fraction.is_none_or(|f| digits(f) && f.len() <= 9)
    }

    /// `short` reads what `parse` reads and leaves the rest to it: seconds
    /// of every length around the limit, with and without sign, fractions of
    /// every length; every byte value at every place of a few; every cut.
    #[test]
    fn the_short_form_agrees_with_parse() {
        let agree = |text: &[u8]| {
            let encoded = encoded(text) && parse(text).is_ok();
            super::super::check_short(short, parse, text, encoded);
        };
        let fractions = [
            "",
            ".",
            ".0",
            ".5",
            ".123",
            ".000001",
            ".12345678",
            ".999999999",
        ];
        let more = [".1234567890", ".0000000000000", "e3", ".5e1", " "];
        let seconds = [
            "0",
            "00",
            "01",
            "1",
            "9",
            "10",
            "3600",
            "12345678",
            "123456789",
            "100000000",
            "315576000000",
            "315576000001",
            "999999999999",
            "1000000000000",
            "18446744073709551616",
            "123456789012345678901",
        ];
        for whole in seconds {
            for sign in ["", "-", "+", "--"] {
                for fraction in fractions.iter().chain(&more) {
                    agree(format!("{sign}{whole}{fraction}s").as_bytes());
                    agree(format!("{sign}{whole}{fraction}").as_bytes());
                }
            }
        }
        for base in ["3600.5s", "-315576000000.999999999s", "0.000000001s", "7s"] {
            super::super::each_byte_and_cut(base.as_bytes(), agree);
        }
    }

    #[test]
    fn round_trips() {
        for d in [dur(0, -1), dur(-7, -10_000_000), dur(3, 999_999_999)] {
            assert_eq!(decode(&encode(d).unwrap()).unwrap(), d);
        }
    }
}
