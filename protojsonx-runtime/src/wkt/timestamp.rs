//! `google.protobuf.Timestamp`: an RFC 3339 string, like `"1972-01-01T10:00:20.021Z"`.
//!
//! Output is always UTC (`Z`) with 0, 3, 6 or 9 fractional digits. Input
//! takes `Z` or a numeric offset (`+05:30`, `-08:00`) and 0 to 9 fractional
//! digits; everything else about the form is strict (upper-case `T` and `Z`,
//! four-digit year, two-digit fields, a colon in the offset). The valid range
//! is 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z, on both sides.
//! The calendar arithmetic is the proleptic Gregorian calendar, done here.

use prost_types::Timestamp;

use super::{
    NANOS_PER_SECOND, SHORT, parse_digits, parse_fraction, read_seconds_and_nanos, short_end,
};
use crate::ProtoJson;
use crate::de::Decoder;
use crate::error::{Error, ErrorKind};
use crate::ser::Encoder;
use crate::text::word;

/// 0001-01-01T00:00:00Z in seconds since the Unix epoch.
const MIN_SECONDS: i64 = -62_135_596_800;
/// 9999-12-31T23:59:59Z in seconds since the Unix epoch.
const MAX_SECONDS: i64 = 253_402_300_799;
/// Seconds in a day (UTC has no leap seconds in protobuf's model).
const SECONDS_PER_DAY: i64 = 86_400;

/// Days since 1970-01-01 of the civil date `year-month-day` (year 0 to
/// 9999, the years ProtoJSON's four digits write; month 1..=12, day
/// 1..=31): Howard Hinnant's `days_from_civil`, with the years counted from
/// 400 BC so that every quotient is of non-negative numbers, unsigned
/// divisions by constants rather than `div_euclid`'s.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    // Every value made unsigned here is non-negative.
    let unsigned = |n: i64| n.unsigned_abs();
    let year = unsigned(year + 400 - i64::from(month <= 2));
    let (era, year_of_era) = (year / 400, year % 400);
    let month_from_march = unsigned(if month > 2 { month - 3 } else { month + 9 });
    let day_of_year = (153 * month_from_march + 2) / 5 + unsigned(day - 1);
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    (era * 146_097 + day_of_era) as i64 - 719_468 - 146_097
}

/// The civil date `(year, month, day)` of `days` since 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Whether `year` is a leap year in the Gregorian calendar.
fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// The number of days in `month` (1..=12) of `year`.
fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Checks that `seconds` and `nanos` are a timestamp ProtoJSON can express;
/// the nanos as unsigned on success.
fn check(seconds: i64, nanos: i32) -> Result<u32, String> {
    let nanos_ok = u32::try_from(nanos).ok().filter(|&n| n < NANOS_PER_SECOND);
    match nanos_ok {
        Some(n) if (MIN_SECONDS..=MAX_SECONDS).contains(&seconds) => Ok(n),
        _ => Err(format!(
            "google.protobuf.Timestamp out of range: seconds {seconds}, nanos {nanos} \
             (valid: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z)"
        )),
    }
}

/// An RFC 3339 string in UTC; out-of-range values fail on both sides.
impl ProtoJson for Timestamp {
    const SPECIAL_JSON: bool = true;

    fn write_json(&self, e: &mut Encoder<'_>) {
        let nanos = match check(self.seconds, self.nanos) {
            Ok(nanos) => nanos,
            Err(message) => {
                e.fail(Error::encode(ErrorKind::Encode, message));
                return e.null();
            }
        };
        let days = self.seconds.div_euclid(SECONDS_PER_DAY);
        let second_of_day = self.seconds.rem_euclid(SECONDS_PER_DAY);
        let (year, month, day) = civil_from_days(days);
        // In range, every field is non-negative and fits its width.
        let field = |v: i64| u32::try_from(v).unwrap_or_default();
        let (hour, minute, second) = (
            second_of_day / 3600,
            second_of_day / 60 % 60,
            second_of_day % 60,
        );
        // `"9999-12-31T23:59:59.999999999Z"`, the longest, is 32 bytes.
        e.short(|text| {
            text.byte(b'"')
                .padded(field(year), 4)
                .byte(b'-')
                .padded(field(month), 2)
                .byte(b'-')
                .padded(field(day), 2)
                .byte(b'T')
                .padded(field(hour), 2)
                .byte(b':')
                .padded(field(minute), 2)
                .byte(b':')
                .padded(field(second), 2)
                .fraction(nanos)
                .byte(b'Z')
                .byte(b'"');
        });
    }

    fn read_json(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
        let (seconds, nanos) =
            read_seconds_and_nanos(d, "google.protobuf.Timestamp", short, parse)?;
        self.seconds = seconds;
        self.nanos = nanos;
        Ok(())
    }
}

/// Why a timestamp string was rejected, for the error message.
const BAD_FORM: &str = "expected an RFC 3339 date-time like \"1972-01-01T10:00:20.021Z\"";

/// Parses an RFC 3339 date-time into seconds since the epoch and nanos,
/// or says why it cannot.
fn parse(s: &[u8]) -> Result<(i64, i32), &'static str> {
    // YYYY-MM-DDTHH:MM:SS, then the fraction and the offset.
    let (date_time, rest) = s.split_at_checked(19).ok_or(BAD_FORM)?;
    let separators_ok = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')]
        .iter()
        .all(|&(i, c)| date_time.get(i) == Some(&c));
    if !separators_ok {
        return Err(BAD_FORM);
    }
    let number = |from: usize, to: usize| date_time.get(from..to).and_then(parse_digits);
    let fields = [
        number(0, 4),
        number(5, 7),
        number(8, 10),
        number(11, 13),
        number(14, 16),
        number(17, 19),
    ];
    let [
        Some(year),
        Some(month),
        Some(day),
        Some(hour),
        Some(minute),
        Some(second),
    ] = fields
    else {
        return Err(BAD_FORM);
    };
    let local = civil_seconds(year, month, day, hour, minute, second)
        .ok_or("no such date or time of day")?;

    let (nanos, zone) = match rest.split_first() {
        Some((b'.', after)) => {
            let digits = after.iter().take_while(|b| b.is_ascii_digit()).count();
            let (fraction, zone) = after.split_at(digits);
            if digits > 9 {
                return Err("more than 9 fractional digits");
            }
            (parse_fraction(fraction).ok_or(BAD_FORM)?, zone)
        }
        _ => (0, rest),
    };
    let offset_seconds = parse_offset(zone)?;

    let seconds = local - offset_seconds;
    if !(MIN_SECONDS..=MAX_SECONDS).contains(&seconds) {
        return Err("out of range (0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z)");
    }
    Ok((seconds, nanos))
}

/// Seconds since the epoch of a date and time of day in UTC, if there is
/// such a date and time (month 1 to 12, a day the month has, hour up to 23,
/// minute and second up to 59).
fn civil_seconds(
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    minute: i64,
    second: i64,
) -> Option<i64> {
    let valid = (1..=12).contains(&month)
        && (1..=days_in_month(year, month)).contains(&day)
        && hour <= 23
        && minute <= 59
        && second <= 59;
    valid.then(|| {
        days_from_civil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second
    })
}

/// [`parse`] of the form encoders write, in place in the input: after one
/// space or none, `"YYYY-MM-DDTHH:MM:SS`, optionally a point and 1 to 9
/// digits, then `Z"` (see [`super::ShortSecondsAndNanos`]). Anything else,
/// valid or not, is `None`, for [`parse`]. The date and time's twenty bytes
/// are checked three words at a time, against their shape.
fn short(window: &[u8; SHORT]) -> Option<((i64, i32), usize)> {
    let quote = usize::from(window[0] == b' ');
    let date = word::shaped_digits(word::load(window, quote), b"\"0000-00")?;
    let day = word::shaped_digits(word::load(window, quote + 8), b"-00T00:0")?;
    let time = word::shaped_digits(word::load(window, quote + 12), b"00:00:00")?;
    let seconds = civil_seconds(
        lanes(date, 1, 4),
        lanes(date, 6, 2),
        lanes(day, 1, 2),
        lanes(time, 0, 2),
        lanes(time, 3, 2),
        lanes(time, 6, 2),
    )
    .filter(|seconds| (MIN_SECONDS..=MAX_SECONDS).contains(seconds))?;
    let (nanos, len) = short_end(window, quote + 20, b'Z')?;
    Some(((seconds, nanos), len))
}

/// The number the `count` digits from lane `from` of `digits` (values in
/// lanes, as [`word::shaped_digits`] gives them) make.
#[inline(always)]
fn lanes(digits: u64, from: u32, count: u32) -> i64 {
    (from..from + count).fold(0, |n, lane| n * 10 + ((digits >> (8 * lane)) & 0xff) as i64)
}

/// Parses the time zone: `Z`, or `+HH:MM` / `-HH:MM`; returns its offset
/// east of UTC in seconds.
fn parse_offset(zone: &[u8]) -> Result<i64, &'static str> {
    let sign = match zone {
        b"Z" => return Ok(0),
        [b'+', _, _, b':', _, _] => 1,
        [b'-', _, _, b':', _, _] => -1,
        _ => return Err("expected a time zone: 'Z' or an offset like \"+01:00\""),
    };
    let hours = zone.get(1..3).and_then(parse_digits).ok_or(BAD_FORM)?;
    let minutes = zone.get(4..6).and_then(parse_digits).ok_or(BAD_FORM)?;
    if hours > 23 || minutes > 59 {
        return Err("no such time zone offset");
    }
    Ok(sign * (hours * 3600 + minutes * 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(seconds: i64, nanos: i32) -> Timestamp {
        Timestamp { seconds, nanos }
    }

    fn encode(t: Timestamp) -> Result<String, Error> {
        crate::to_string(&t)
    }

    fn decode(json: &str) -> Result<Timestamp, Error> {
        crate::from_str(json)
    }

    /// Whether `text` is a timestamp as encoders write it (UTC, 0 to 9
    /// fractional digits), valid or not.
    fn encoded(text: &[u8]) -> bool {
        let Some((date_time, zone)) = text.split_at_checked(19) else {
            return false;
        };
        let shape = date_time
            .iter()
            .zip(b"0000-00-00T00:00:00")
            .all(|(&b, &s)| {
                if s == b'0' {
                    b.is_ascii_digit()
                } else {
                    b == s
                }
            });
        let zone = match zone {
            [b'Z'] => true,
            [b'.', digits @ .., b'Z'] => {
                (1..=9).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit)
            }
            _ => false,
        };
        shape && zone
    }

    /// `short` against `parse` (see `super::check_short`); every valid
    /// timestamp in the encoders' form is read by `short`.
    fn agree(text: &[u8]) {
        let encoded = encoded(text) && parse(text).is_ok();
        super::super::check_short(short, parse, text, encoded);
    }

    /// The short form reads what `parse` reads, to the nanosecond, and
    /// leaves the rest to it: every day of the first and last years and
    /// some between (leap years, the epoch, the day before and after each
    /// month) at times and fractions of every length; every byte value at
    /// every place of a timestamp of each length of fraction; and the
    /// limits of the range.
    #[test]
    fn the_short_form_agrees_with_parse() {
        let fractions = [
            "",
            ".0",
            ".5",
            ".12",
            ".123",
            ".000001",
            ".1234567",
            ".99999999",
            ".999999999",
            ".1234567890",
            ".",
        ];
        for year in [
            1, 2, 4, 100, 1600, 1900, 1969, 1970, 1972, 2000, 2024, 2100, 9999,
        ] {
            for month in 0..=13 {
                for day in 0..=32 {
                    for (time, fraction) in [
                        ("00:00:00", 0),
                        ("23:59:59", 8),
                        ("12:34:56", 4),
                        ("24:00:00", 0),
                        ("23:60:00", 1),
                        ("23:59:60", 2),
                    ] {
                        let fraction = fractions[(day + month) % fractions.len()].to_string()
                            + fractions[fraction];
                        let text = format!("{year:04}-{month:02}-{day:02}T{time}{fraction}Z");
                        agree(text.as_bytes());
                    }
                }
            }
        }
        for fraction in fractions {
            let base = format!("2024-02-29T07:06:40{fraction}Z");
            super::super::each_byte_and_cut(base.as_bytes(), agree);
            agree(format!("{base}Z").as_bytes());
            agree(base.replace('Z', "+01:00").as_bytes());
        }
        for text in ["0000-12-31T23:59:59.999999999Z", "10000-01-01T00:00:00Z"] {
            agree(text.as_bytes());
        }
        assert!(encoded(b"9999-12-31T23:59:59.999999999Z"));
        agree(b"9999-12-31T23:59:59.999999999Z");
    }

    #[test]
    fn civil_conversions_round_trip_every_day_in_range() {
        let first = days_from_civil(1, 1, 1);
        let last = days_from_civil(9999, 12, 31);
        assert_eq!(first * SECONDS_PER_DAY, MIN_SECONDS);
        assert_eq!(last * SECONDS_PER_DAY + SECONDS_PER_DAY - 1, MAX_SECONDS);
        let mut expected = (1, 1, 1);
        for days in first..=last {
            assert_eq!(civil_from_days(days), expected, "day {days}");
            assert_eq!(days_from_civil(expected.0, expected.1, expected.2), days);
            let (y, m, d) = expected;
            expected = if d < days_in_month(y, m) {
                (y, m, d + 1)
            } else if m < 12 {
                (y, m + 1, 1)
            } else {
                (y + 1, 1, 1)
            };
        }
    }

    #[test]
    fn leap_years() {
        assert!(is_leap(2000) && is_leap(2024) && is_leap(4));
        assert!(!is_leap(1900) && !is_leap(2023) && !is_leap(1));
        assert_eq!(
            decode("\"2000-02-29T00:00:00Z\"").unwrap(),
            ts(951_782_400, 0)
        );
        assert!(decode("\"1900-02-29T00:00:00Z\"").is_err());
        assert!(decode("\"2023-02-29T00:00:00Z\"").is_err());
        assert_eq!(
            encode(ts(951_782_400, 0)).unwrap(),
            "\"2000-02-29T00:00:00Z\""
        );
    }

    #[test]
    fn encodes_utc_with_0_3_6_or_9_digits() {
        for (t, json) in [
            (ts(0, 0), "1970-01-01T00:00:00Z"),
            (ts(0, 10_000_000), "1970-01-01T00:00:00.010Z"),
            (ts(0, 10_000), "1970-01-01T00:00:00.000010Z"),
            (ts(0, 10), "1970-01-01T00:00:00.000000010Z"),
            (ts(-1, 999_999_999), "1969-12-31T23:59:59.999999999Z"),
            (ts(729_302_400, 0), "1993-02-10T00:00:00Z"),
            (ts(MIN_SECONDS, 0), "0001-01-01T00:00:00Z"),
            (
                ts(MAX_SECONDS, 999_999_999),
                "9999-12-31T23:59:59.999999999Z",
            ),
        ] {
            assert_eq!(encode(t).unwrap(), format!("\"{json}\""));
        }
    }

    #[test]
    fn encoding_out_of_range_fails() {
        for t in [
            ts(MIN_SECONDS - 1, 0),
            ts(MAX_SECONDS + 1, 0),
            ts(0, -1),
            ts(0, 1_000_000_000),
            ts(i64::MIN, i32::MIN),
        ] {
            let err = encode(t).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Encode);
            assert!(
                err.message()
                    .starts_with("google.protobuf.Timestamp out of range")
            );
        }
    }

    #[test]
    fn decodes_offsets_and_fractions() {
        for (json, seconds, nanos) in [
            ("1970-01-01T00:00:00Z", 0, 0),
            ("1970-01-01T00:00:00.000000000Z", 0, 0),
            ("1970-01-01T00:00:10.5Z", 10, 500_000_000),
            ("1969-12-31T23:59:49.500Z", -11, 500_000_000),
            ("1970-01-01T08:00:01+08:00", 1, 0),
            ("1969-12-31T16:00:01-08:00", 1, 0),
            ("1970-01-01T05:30:00.123456789+05:30", 0, 123_456_789),
            ("0001-01-01T00:00:00Z", MIN_SECONDS, 0),
            ("9999-12-31T23:59:59.999999999Z", MAX_SECONDS, 999_999_999),
            ("0001-01-01T00:59:00+00:59", MIN_SECONDS, 0),
            ("9999-12-31T22:59:59-01:00", MAX_SECONDS, 0),
        ] {
            assert_eq!(
                decode(&format!("\"{json}\"")).unwrap(),
                ts(seconds, nanos),
                "{json}"
            );
        }
    }

    #[test]
    fn rejects_bad_forms_and_ranges() {
        for (json, reason) in [
            ("0000-01-01T00:00:00Z", "out of range"),
            ("0000-12-31T23:59:59Z", "out of range"),
            ("10000-01-01T00:00:00Z", "expected an RFC 3339"),
            ("0001-01-01T00:00:00+00:01", "out of range"),
            ("9999-12-31T23:59:59-00:01", "out of range"),
            ("0001-01-01T00:00:00", "expected a time zone"),
            ("0001-01-01 00:00:00Z", "expected an RFC 3339"),
            ("0001-01-01T00:00:00z", "expected a time zone"),
            ("0001-01-01t00:00:00Z", "expected an RFC 3339"),
            ("1970-01-01T08:00:01+0800", "expected a time zone"),
            ("1970-01-01T00:00:00.Z", "expected an RFC 3339"),
            (
                "1970-01-01T00:00:00.1234567890Z",
                "more than 9 fractional digits",
            ),
            ("1970-13-01T00:00:00Z", "no such date"),
            ("1970-01-32T00:00:00Z", "no such date"),
            ("1970-01-01T24:00:00Z", "no such date"),
            ("1970-01-01T23:60:00Z", "no such date"),
            ("1970-01-01T23:59:60Z", "no such date"),
            ("1970-01-01T00:00:00+24:00", "no such time zone offset"),
            ("1970-1-01T00:00:00Z", "expected an RFC 3339"),
            ("+970-01-01T00:00:00Z", "expected an RFC 3339"),
            ("", "expected an RFC 3339"),
            ("1970-01-01T00:00:00Zjunk", "expected a time zone"),
        ] {
            let err = decode(&format!("\"{json}\"")).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidValue, "{json}");
            assert!(
                err.message().starts_with(&format!(
                    "invalid value for google.protobuf.Timestamp: {reason}"
                )),
                "{json}: {}",
                err.message()
            );
            assert_eq!(err.offset(), 0);
        }
        let err = decode("12").unwrap_err();
        assert_eq!(err.message(), "expected string, found number");
    }

    #[test]
    fn round_trips_at_the_limits() {
        for t in [
            ts(MIN_SECONDS, 0),
            ts(MAX_SECONDS, 999_999_999),
            ts(-1, 1),
            ts(1, 1_000),
        ] {
            assert_eq!(decode(&encode(t).unwrap()).unwrap(), t);
        }
    }

    #[test]
    fn encodes_as_the_calendar_says_across_the_range() {
        let mut rng = crate::test_rng::Rng(0x7135_7a4b);
        let span = (MAX_SECONDS - MIN_SECONDS + 1) as u64;
        for i in 0..100_000 {
            let seconds = MIN_SECONDS + (rng.next() % span) as i64;
            let n = (rng.next() % 1_000_000_000) as i32;
            let nanos = [0, n - n % 1_000_000, n - n % 1_000, n][i % 4];
            let (year, month, day) = civil_from_days(seconds.div_euclid(SECONDS_PER_DAY));
            let second = seconds.rem_euclid(SECONDS_PER_DAY);
            let fraction = match nanos {
                0 => String::new(),
                n if n % 1_000_000 == 0 => format!(".{:03}", n / 1_000_000),
                n if n % 1_000 == 0 => format!(".{:06}", n / 1_000),
                n => format!(".{n:09}"),
            };
            let want = format!(
                "\"{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}{fraction}Z\"",
                second / 3600,
                second / 60 % 60,
                second % 60
            );
            assert_eq!(encode(ts(seconds, nanos)).unwrap(), want);
        }
    }
}
