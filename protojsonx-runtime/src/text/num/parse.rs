//! The general path of number reading: exact, for every form JSON allows.

use super::{Int, NumError};

/// Returns the index of the first byte at or after `i` in `b` that is not an
/// ASCII digit (or `b.len()`).
fn skip_digits(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// Length of the JSON number (RFC 8259 grammar:
/// `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`) at the start of `b`,
/// or 0 if `b` does not start with one.
///
/// Stops at the first byte that cannot continue the number, so `"01"` scans
/// as 1 byte, `"1."` as 1, `"1e"` as 1, and `"-"`, `"+1"`, `".5"` as 0. The
/// tokenizer uses this to delimit numbers; the parsers below use it to
/// validate that their whole input is exactly one number.
pub(crate) fn scan_number(b: &[u8]) -> usize {
    let mut i = usize::from(b.first() == Some(&b'-'));
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = skip_digits(b, i + 1),
        _ => return 0,
    }
    if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i = skip_digits(b, i + 2);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if b.get(j).is_some_and(u8::is_ascii_digit) {
            i = skip_digits(b, j + 1);
        }
    }
    i
}

/// Returns `Err(Invalid)` unless `b` is exactly one complete JSON number.
fn check_complete(b: &[u8]) -> Result<(), NumError> {
    if !b.is_empty() && scan_number(b) == b.len() {
        Ok(())
    } else {
        Err(NumError::Invalid)
    }
}

/// Appends decimal `digits` (all ASCII digits) to `acc`, failing with
/// `OutOfRange` if the result does not fit in a `u64`.
fn accumulate<'a>(mut acc: u64, digits: impl IntoIterator<Item = &'a u8>) -> Result<u64, NumError> {
    for &d in digits {
        acc = acc
            .checked_mul(10)
            .and_then(|a| a.checked_add(u64::from(d.wrapping_sub(b'0'))))
            .ok_or(NumError::OutOfRange)?;
    }
    Ok(acc)
}

/// Converts a length to `i64` for exponent arithmetic (saturating; slice
/// lengths always fit in practice).
fn len_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Parses the digits of an exponent (after `e`/`E`, with optional sign),
/// saturating instead of overflowing: any exponent too large to represent is
/// far beyond every integer and float range anyway.
fn parse_exponent(e: &[u8]) -> i64 {
    let (negative, digits) = match e.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, e),
    };
    let magnitude = digits.iter().fold(0i64, |acc, &d| {
        acc.saturating_mul(10)
            .saturating_add(i64::from(d.wrapping_sub(b'0')))
    });
    if negative { -magnitude } else { magnitude }
}

/// Splits `b` (a validated JSON number) into its sign and the unsigned rest.
fn split_sign(b: &[u8]) -> (bool, &[u8]) {
    match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, b),
    }
}

/// A validated unsigned JSON number split into its parts; its value is
/// `int.frac × 10^exponent`.
struct Parts<'a> {
    /// Integer digits (never empty).
    int: &'a [u8],
    /// Fraction digits (empty if there is no `.`).
    frac: &'a [u8],
    /// Explicit exponent, saturated to the `i64` range.
    exponent: i64,
}

/// Where the significant digits of a [`Parts`] mantissa are: the value is
/// `mantissa[skip..skip + len] × 10^scale`, with the first and last of
/// those digits non-zero.
struct Significant {
    /// Number of leading zero digits in the mantissa.
    skip: usize,
    /// Number of significant digits (at least 1).
    len: usize,
    /// Power of ten to scale the significant digits by (saturating).
    scale: i64,
}

impl<'a> Parts<'a> {
    /// Splits the validated unsigned number `number`, whose integer digits
    /// are the first `int_len` bytes.
    fn split(number: &'a [u8], int_len: usize) -> Self {
        let (int, rest) = number.split_at(int_len.min(number.len()));
        let (frac, exp) = match rest.split_first() {
            Some((b'.', after)) => after.split_at(skip_digits(after, 0)),
            _ => (&[][..], rest),
        };
        // `exp` is empty or `e`/`E` followed by the exponent.
        let exponent = exp.split_first().map_or(0, |(_, e)| parse_exponent(e));
        Parts {
            int,
            frac,
            exponent,
        }
    }

    /// All mantissa digits, integer then fraction, without the point.
    fn mantissa(&self) -> core::iter::Chain<core::slice::Iter<'a, u8>, core::slice::Iter<'a, u8>> {
        self.int.iter().chain(self.frac)
    }

    /// Locates the significant digits, or `None` if the value is zero. Linear
    /// in the number of digits and independent of the exponent's value.
    fn significant(&self) -> Option<Significant> {
        let total = self.int.len() + self.frac.len();
        let skip = self.mantissa().take_while(|&&d| d == b'0').count();
        if skip == total {
            return None;
        }
        let trailing = self.mantissa().rev().take_while(|&&d| d == b'0').count();
        Some(Significant {
            skip,
            len: total - skip - trailing,
            scale: self
                .exponent
                .saturating_sub(len_i64(self.frac.len()))
                .saturating_add(len_i64(trailing)),
        })
    }
}

/// Exact absolute value of a validated unsigned JSON number with a fraction
/// and/or exponent; `int_len` is the length of its integer digits.
///
/// Works on the significant digits and their scale, so the work is linear in
/// the text and independent of the exponent's value.
fn exact_magnitude(number: &[u8], int_len: usize) -> Result<u64, NumError> {
    let parts = Parts::split(number, int_len);
    let Some(sig) = parts.significant() else {
        return Ok(0);
    };
    if sig.scale < 0 {
        // The last significant digit is non-zero and after the point.
        return Err(NumError::NotAnInteger);
    }
    // u64::MAX has 20 digits; anything longer is out of range for every type.
    if len_i64(sig.len).saturating_add(sig.scale) > 20 {
        return Err(NumError::OutOfRange);
    }
    let mut acc = accumulate(0, parts.mantissa().skip(sig.skip).take(sig.len))?;
    for _ in 0..sig.scale {
        acc = acc.checked_mul(10).ok_or(NumError::OutOfRange)?;
    }
    Ok(acc)
}

/// Parses `text`, which must be exactly one complete JSON number (else
/// `Invalid`), as an exact integer of type `T`.
///
/// Exponent and fraction forms are accepted when the value is an exact
/// integer (`"1e2"`, `"100.000"`, `"1.5e1"`, `"-0"`), as ProtoJSON requires;
/// a non-zero fractional part is `NotAnInteger`, a value beyond `T` is
/// `OutOfRange`. Runs in time linear in `text.len()` regardless of the
/// exponent, without allocating. Plain digit strings (the common case) take a
/// fast path with direct checked accumulation.
pub(crate) fn parse_int<T: Int>(text: &str) -> Result<T, NumError> {
    let b = text.as_bytes();
    check_complete(b)?;
    let (negative, number) = split_sign(b);
    let int_len = skip_digits(number, 0);
    let magnitude = if int_len == number.len() {
        accumulate(0, number)?
    } else {
        exact_magnitude(number, int_len)?
    };
    T::from_sign_magnitude(negative, magnitude).ok_or(NumError::OutOfRange)
}

/// Explicit exponents at least this large (in magnitude) are handled by
/// [`canonical_float`] before `str::parse`, which saturates exponents at
/// about 65536 and so misreads inputs whose huge digit count cancels a huge
/// exponent (e.g. `"1" + 100000 zeros + "e-100000"`, which it reads as
/// infinity).
const LARGE_EXPONENT: u64 = 10_000;

/// Rewrites a validated number with a large explicit exponent as an
/// equivalent text `str::parse` reads correctly: `±0.DDDe{k}` with the
/// significant digits and a small `k`, or a stand-in that certainly
/// overflows (`±1e400`) or underflows (`±0`) both `f32` and `f64`. Only
/// reached for unusual inputs, so the allocation is acceptable.
fn canonical_float(negative: bool, parts: &Parts<'_>) -> String {
    let sign = if negative { "-" } else { "" };
    let Some(sig) = parts.significant() else {
        return format!("{sign}0");
    };
    // The value is 0.DDD × 10^k with 0.1 <= 0.DDD < 1.
    let k = sig.scale.saturating_add(len_i64(sig.len));
    if k > 400 {
        return format!("{sign}1e400");
    }
    if k < -400 {
        return format!("{sign}0");
    }
    let mut out = String::with_capacity(sig.len + 16);
    out.push_str(sign);
    out.push_str("0.");
    out.extend(
        parts
            .mantissa()
            .skip(sig.skip)
            .take(sig.len)
            .map(|&d| char::from(d)),
    );
    out.push('e');
    out.push_str(&k.to_string());
    out
}

/// Parses a complete JSON number as the nearest `F` (`f32` or `f64`), which
/// may be infinite; the callers reject infinities.
fn parse_float<F: core::str::FromStr>(text: &str) -> Result<F, NumError> {
    let b = text.as_bytes();
    check_complete(b)?;
    let (negative, number) = split_sign(b);
    let parts = Parts::split(number, skip_digits(number, 0));
    // `str::parse` is correctly rounded, rounds directly to `F`, and accepts
    // every JSON number (the validation above rejects its other forms).
    let parsed = if parts.exponent.unsigned_abs() < LARGE_EXPONENT {
        text.parse()
    } else {
        canonical_float(negative, &parts).parse()
    };
    parsed.map_err(|_| NumError::Invalid)
}

/// Parses `text` (exactly one complete JSON number, else `Invalid`) as the
/// nearest `f64`. A finite number too large for `f64` (e.g. `"1e400"`) is
/// `OutOfRange`; values that underflow round to zero or a subnormal.
pub(crate) fn parse_f64(text: &str) -> Result<f64, NumError> {
    let v: f64 = parse_float(text)?;
    if v.is_infinite() {
        Err(NumError::OutOfRange)
    } else {
        Ok(v)
    }
}

/// Parses `text` (exactly one complete JSON number, else `Invalid`) as the
/// nearest `f32`, rounding directly from decimal (not via `f64`, which could
/// round twice). A number that rounds to infinity as `f32` (e.g.
/// `"3.4028236e38"`) is `OutOfRange`.
pub(crate) fn parse_f32(text: &str) -> Result<f32, NumError> {
    let v: f32 = parse_float(text)?;
    if v.is_infinite() {
        Err(NumError::OutOfRange)
    } else {
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    use NumError::{Invalid, NotAnInteger, OutOfRange};

    #[test]
    fn scan_number_table() {
        let cases: &[(&str, usize)] = &[
            ("0", 1),
            ("-0", 2),
            ("1", 1),
            ("123", 3),
            ("-123", 4),
            ("1.5", 3),
            ("-0.25", 5),
            ("1e5", 3),
            ("1E5", 3),
            ("1e+5", 4),
            ("1e-5", 4),
            ("1.25e-10", 8),
            ("0.0e0", 5),
            ("123,", 3),
            ("1]", 1),
            ("1 ", 1),
            ("01", 1),
            ("00", 1),
            ("-01", 2),
            ("1.", 1),
            ("1.e5", 1),
            ("1e", 1),
            ("1e+", 1),
            ("1e-", 1),
            ("1.5e", 3),
            ("1.5.5", 3),
            ("1e5e5", 3),
            ("1e5.5", 3),
            ("0x10", 1),
            ("-", 0),
            ("--1", 0),
            ("+1", 0),
            (".5", 0),
            ("", 0),
            ("e5", 0),
            ("-a", 0),
            (" 1", 0),
            ("Infinity", 0),
            ("NaN", 0),
        ];
        for &(text, len) in cases {
            assert_eq!(scan_number(text.as_bytes()), len, "{text:?}");
        }
    }

    #[test]
    fn parse_int_limits() {
        assert_eq!(parse_int::<i32>("2147483647"), Ok(i32::MAX));
        assert_eq!(parse_int::<i32>("-2147483648"), Ok(i32::MIN));
        assert_eq!(parse_int::<i32>("2147483648"), Err(OutOfRange));
        assert_eq!(parse_int::<i32>("-2147483649"), Err(OutOfRange));
        assert_eq!(parse_int::<i32>("2147483646"), Ok(i32::MAX - 1));
        assert_eq!(parse_int::<i64>("9223372036854775807"), Ok(i64::MAX));
        assert_eq!(parse_int::<i64>("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(parse_int::<i64>("9223372036854775808"), Err(OutOfRange));
        assert_eq!(parse_int::<i64>("-9223372036854775809"), Err(OutOfRange));
        assert_eq!(parse_int::<u32>("4294967295"), Ok(u32::MAX));
        assert_eq!(parse_int::<u32>("4294967296"), Err(OutOfRange));
        assert_eq!(parse_int::<u32>("-1"), Err(OutOfRange));
        assert_eq!(parse_int::<u32>("0"), Ok(0));
        assert_eq!(parse_int::<u64>("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_int::<u64>("18446744073709551616"), Err(OutOfRange));
        assert_eq!(parse_int::<u64>("99999999999999999999"), Err(OutOfRange));
        assert_eq!(parse_int::<u64>("-1"), Err(OutOfRange));
        assert_eq!(parse_int::<u64>("-18446744073709551615"), Err(OutOfRange));
        // Same limits in exponent / fraction forms.
        assert_eq!(parse_int::<i32>("2.147483647e9"), Ok(i32::MAX));
        assert_eq!(parse_int::<i32>("2.147483648e9"), Err(OutOfRange));
        assert_eq!(parse_int::<i32>("-2.147483648e9"), Ok(i32::MIN));
        assert_eq!(parse_int::<i64>("-9.223372036854775808e18"), Ok(i64::MIN));
        assert_eq!(parse_int::<i64>("9.223372036854775808e18"), Err(OutOfRange));
        assert_eq!(parse_int::<u64>("1.8446744073709551615e19"), Ok(u64::MAX));
        assert_eq!(
            parse_int::<u64>("1.8446744073709551616e19"),
            Err(OutOfRange)
        );
        assert_eq!(parse_int::<u64>("18446744073709551615.000"), Ok(u64::MAX));
        assert_eq!(parse_int::<u64>("1e19"), Ok(10_000_000_000_000_000_000));
        assert_eq!(parse_int::<u64>("1e20"), Err(OutOfRange));
        assert_eq!(parse_int::<u64>("0.1e20"), Ok(10_000_000_000_000_000_000));
        assert_eq!(parse_int::<u64>("2e19"), Err(OutOfRange));
        assert_eq!(parse_int::<u32>("4.294967295e9"), Ok(u32::MAX));
        assert_eq!(parse_int::<u32>("4.294967296e9"), Err(OutOfRange));
    }

    #[test]
    fn parse_int_forms() {
        assert_eq!(parse_int::<i32>("0"), Ok(0));
        assert_eq!(parse_int::<i32>("-0"), Ok(0));
        assert_eq!(parse_int::<u32>("-0"), Ok(0));
        assert_eq!(parse_int::<u64>("-0.0e5"), Ok(0));
        assert_eq!(parse_int::<i32>("1e2"), Ok(100));
        assert_eq!(parse_int::<i32>("1E2"), Ok(100));
        assert_eq!(parse_int::<i32>("1e+2"), Ok(100));
        assert_eq!(parse_int::<i32>("100.000"), Ok(100));
        assert_eq!(parse_int::<i32>("1.5e1"), Ok(15));
        assert_eq!(parse_int::<i32>("0.1e1"), Ok(1));
        assert_eq!(parse_int::<i32>("-1.5e1"), Ok(-15));
        assert_eq!(parse_int::<i32>("1000e-3"), Ok(1));
        assert_eq!(parse_int::<i32>("0.00100e3"), Ok(1));
        assert_eq!(parse_int::<i32>("1.0"), Ok(1));
        assert_eq!(parse_int::<i32>("123"), Ok(123));
        assert_eq!(parse_int::<i32>("-123"), Ok(-123));
        assert_eq!(
            parse_int::<i64>("100000000000000000000e-10"),
            Ok(10_000_000_000)
        );
        assert_eq!(parse_int::<i32>("1.5"), Err(NotAnInteger));
        assert_eq!(parse_int::<i32>("1e-1"), Err(NotAnInteger));
        assert_eq!(parse_int::<i32>("0.5"), Err(NotAnInteger));
        assert_eq!(parse_int::<i32>("-0.5"), Err(NotAnInteger));
        assert_eq!(parse_int::<i32>("1.05e1"), Err(NotAnInteger));
        assert_eq!(parse_int::<i32>("1001e-3"), Err(NotAnInteger));
    }

    #[test]
    fn parse_int_invalid() {
        for text in [
            "", "-", "01", "-01", "00", "+1", "1.", ".5", " 1", "1 ", "1e", "1e+", "0x1", "1_000",
            "Infinity", "NaN", "\"1\"", "1.e1", "--1", "١",
        ] {
            assert_eq!(parse_int::<i32>(text), Err(Invalid), "{text:?}");
            assert_eq!(parse_int::<u64>(text), Err(Invalid), "{text:?}");
        }
    }

    #[test]
    fn parse_int_huge_exponents() {
        assert_eq!(parse_int::<i32>("1e999999999"), Err(OutOfRange));
        assert_eq!(parse_int::<u64>("-1e999999999"), Err(OutOfRange));
        assert_eq!(parse_int::<i32>("0e999999999"), Ok(0));
        assert_eq!(parse_int::<i32>("0e-999999999"), Ok(0));
        assert_eq!(parse_int::<i32>("1e-999999999"), Err(NotAnInteger));
        assert_eq!(
            parse_int::<i64>("1e99999999999999999999999999999999999999"),
            Err(OutOfRange)
        );
        assert_eq!(
            parse_int::<i64>("1e-99999999999999999999999999999999999999"),
            Err(NotAnInteger)
        );
        let long_exponent = format!("1e{}", "9".repeat(100_000));
        assert_eq!(parse_int::<i64>(&long_exponent), Err(OutOfRange));
        let long_zero_exponent = format!("5e{}1", "0".repeat(100_000));
        assert_eq!(parse_int::<i64>(&long_zero_exponent), Ok(50));
    }

    #[test]
    fn parse_int_long_numbers() {
        // Plain digits: the fast path stops at the first overflow.
        let long = format!("1{}", "0".repeat(100_000));
        assert_eq!(parse_int::<u64>(&long), Err(OutOfRange));
        // Many digits cancelled by the exponent.
        let cancelled = format!("1{}e-100000", "0".repeat(100_000));
        assert_eq!(parse_int::<u64>(&cancelled), Ok(1));
        let cancelled_frac = format!("1.{}e100000", "0".repeat(100_000));
        assert_eq!(parse_int::<i32>(&cancelled_frac), Err(OutOfRange));
        let small = format!("0.{}1e100001", "0".repeat(100_000));
        assert_eq!(parse_int::<i32>(&small), Ok(1));
        let fraction = format!("0.{}1", "0".repeat(100_000));
        assert_eq!(parse_int::<i32>(&fraction), Err(NotAnInteger));
        let many = format!("{}e-200000", "7".repeat(200_000));
        assert_eq!(parse_int::<i32>(&many), Err(NotAnInteger));
        let zeros = format!("0.{}", "0".repeat(1_000_000));
        assert_eq!(parse_int::<i32>(&zeros), Ok(0));
    }

    #[test]
    fn parse_float_limits() {
        assert_eq!(parse_f32("3.4028235e+38"), Ok(f32::MAX));
        assert_eq!(parse_f32("-3.4028235e38"), Ok(f32::MIN));
        assert_eq!(parse_f32("3.40282356e38"), Ok(f32::MAX));
        assert_eq!(parse_f32("3.4028236e38"), Err(OutOfRange));
        assert_eq!(parse_f32("-3.4028236e38"), Err(OutOfRange));
        assert_eq!(parse_f32("1e39"), Err(OutOfRange));
        assert_eq!(parse_f32("1e-46"), Ok(0.0));
        assert_eq!(parse_f32("1e-45"), Ok(f32::from_bits(1)));
        assert_eq!(parse_f32("1.4e-45"), Ok(f32::from_bits(1)));
        assert_eq!(parse_f32("1.17549435e-38"), Ok(f32::MIN_POSITIVE));
        assert_eq!(parse_f32("0.1"), Ok(0.1));
        // Double rounding check: this decimal lies just above the midpoint of
        // two f32 values, but rounds to that midpoint as an f64.
        assert_eq!(
            parse_f32("1.00000005960464477550"),
            Ok(f32::from_bits(0x3f80_0001))
        );

        assert_eq!(parse_f64("1.7976931348623157e+308"), Ok(f64::MAX));
        assert_eq!(parse_f64("-1.7976931348623157e308"), Ok(f64::MIN));
        assert_eq!(parse_f64("1.7976931348623159e308"), Err(OutOfRange));
        assert_eq!(parse_f64("1e400"), Err(OutOfRange));
        assert_eq!(parse_f64("-1e400"), Err(OutOfRange));
        assert_eq!(parse_f64("1e999999999"), Err(OutOfRange));
        assert_eq!(parse_f64("5e-324"), Ok(f64::from_bits(1)));
        assert_eq!(parse_f64("2e-324"), Ok(0.0));
        assert_eq!(parse_f64("1e-400"), Ok(0.0));
        assert_eq!(parse_f64("1e-999999999"), Ok(0.0));
        assert_eq!(parse_f64("0e999999999"), Ok(0.0));
        assert_eq!(parse_f64("2.2250738585072014e-308"), Ok(f64::MIN_POSITIVE));
        assert_eq!(parse_f64("-0").map(f64::to_bits), Ok((-0.0f64).to_bits()));
        assert_eq!(parse_f64("0.1"), Ok(0.1));
        assert_eq!(parse_f64("123"), Ok(123.0));
        assert_eq!(parse_f64("1.5e1"), Ok(15.0));
    }

    #[test]
    fn parse_float_invalid() {
        for text in [
            "", "-", "inf", "-inf", "infinity", "Infinity", "NaN", "nan", "+1", ".5", "1.", "01",
            " 1", "1 ", "1e", "0x1p3", "1_0", "1f",
        ] {
            assert_eq!(parse_f64(text), Err(Invalid), "{text:?}");
            assert_eq!(parse_f32(text), Err(Invalid), "{text:?}");
        }
    }

    #[test]
    fn parse_float_long_inputs() {
        let long = format!("1{}", "0".repeat(100_000));
        assert_eq!(parse_f64(&long), Err(OutOfRange));
        assert_eq!(parse_f32(&long), Err(OutOfRange));
        let long_frac = format!("0.{}1", "0".repeat(1_000_000));
        assert_eq!(parse_f64(&long_frac), Ok(0.0));
        let long_digits = format!("1.{}", "3".repeat(1_000_000));
        assert_eq!(parse_f64(&long_digits), Ok(1.3333333333333333));
        assert_eq!(parse_f32(&long_digits), Ok(1.333_333_4));
        let long_exponent = format!("1e{}", "9".repeat(100_000));
        assert_eq!(parse_f64(&long_exponent), Err(OutOfRange));
        let long_zero_exponent = format!("15e-{}1", "0".repeat(100_000));
        assert_eq!(parse_f64(&long_zero_exponent), Ok(1.5));
        let cancelled = format!("1{}e-1000000", "0".repeat(1_000_000));
        assert_eq!(parse_f64(&cancelled), Ok(1.0));
        assert_eq!(parse_f32(&cancelled), Ok(1.0));
        let cancelled = format!("-1{}e-1000002", "0".repeat(1_000_000));
        assert_eq!(parse_f64(&cancelled), Ok(-0.01));
        let cancelled = format!("0.{}15e100001", "0".repeat(100_000));
        assert_eq!(parse_f64(&cancelled), Ok(1.5));
        assert_eq!(parse_f32(&cancelled), Ok(1.5));
        let cancelled = format!("0.{}17976931348623157e100309", "0".repeat(100_000));
        assert_eq!(parse_f64(&cancelled), Ok(f64::MAX));
        let cancelled = format!("0.{}17976931348623159e100309", "0".repeat(100_000));
        assert_eq!(parse_f64(&cancelled), Err(OutOfRange));
        let cancelled = format!("0.{}5e-99999", "0".repeat(100_000));
        assert_eq!(parse_f64(&cancelled), Ok(0.0));
        // Below the rewrite threshold, str::parse is used directly.
        let moderate = format!("0.{}1e9000", "0".repeat(9_000));
        assert_eq!(parse_f64(&moderate), Ok(0.1));
        // Correct rounding is kept when the digits are rewritten: the
        // f32 midpoint 1 + 2^-24, just above and just below, behind a large
        // cancelled exponent.
        let mid = "1000000059604644775390625"; // 1 + 2^-24, exactly
        let above = format!("{mid}{}1e-20025", "0".repeat(20_000));
        assert_eq!(parse_f32(&above), Ok(f32::from_bits(0x3f80_0001)));
        let below = format!("{}4{}e-20024", &mid[..24], "9".repeat(20_000));
        assert_eq!(parse_f32(&below), Ok(1.0));
        let exact = format!("{mid}{}e-20024", "0".repeat(20_000));
        assert_eq!(parse_f32(&exact), Ok(1.0));
        assert_eq!(parse_f64(&exact), Ok(1.0000000596046448));
        assert_eq!(
            parse_f64("-0e99999").map(f64::to_bits),
            Ok((-0.0f64).to_bits())
        );
        assert_eq!(
            parse_f64("-1e-99999").map(f64::to_bits),
            Ok((-0.0f64).to_bits())
        );
        assert_eq!(parse_f64("1e99999"), Err(OutOfRange));
        assert_eq!(parse_f32("-1e99999"), Err(OutOfRange));
        assert_eq!(parse_f64("1.5e10000"), Err(OutOfRange));
        assert_eq!(parse_f64("1.5e-10000"), Ok(0.0));
    }

    #[test]
    fn random_text_is_consistent() {
        // Random short strings over the number alphabet: nothing panics,
        // validation agrees with scan_number, and the parsers agree with each
        // other and with str::parse.
        const ALPHABET: &[u8] = b"0123456789.eE+-0001";
        let mut rng = Rng(0x0123_4567_89ab_cdef);
        for _ in 0..200_000 {
            let len = (rng.next() % 12) as usize;
            let text: String = (0..len)
                .map(|_| char::from(ALPHABET[(rng.next() % ALPHABET.len() as u64) as usize]))
                .collect();
            let complete = !text.is_empty() && scan_number(text.as_bytes()) == text.len();
            let f = parse_f64(&text);
            let i = parse_int::<i64>(&text);
            let u = parse_int::<u64>(&text);
            assert_eq!(parse_f32(&text).is_err_and(|e| e == Invalid), !complete);
            if !complete {
                assert_eq!(
                    (f, i, u),
                    (Err(Invalid), Err(Invalid), Err(Invalid)),
                    "{text}"
                );
                continue;
            }
            match text.parse::<f64>() {
                Ok(v) if v.is_finite() => assert_eq!(f, Ok(v), "{text}"),
                _ => assert_eq!(f, Err(OutOfRange), "{text}"),
            }
            if let Ok(v) = i {
                assert_eq!(f, Ok(v as f64), "{text}");
            }
            if let Ok(v) = u {
                assert_eq!(f, Ok(v as f64), "{text}");
                assert!(i == Ok(v as i64) || i == Err(OutOfRange), "{text}");
            }
            if f.is_ok_and(|v| v.fract() != 0.0) {
                assert_eq!(i, Err(NotAnInteger), "{text}");
            }
        }
    }
}
