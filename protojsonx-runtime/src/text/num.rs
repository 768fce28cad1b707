//! Numbers as ProtoJSON writes and reads them.
//!
//! Reading: [`scan_number`] finds the extent of a JSON number (RFC 8259 §6);
//! [`parse_int`] converts a number's text to an exact integer, accepting the
//! exponent and fraction forms ProtoJSON allows when the value is integral;
//! [`parse_f64`] / [`parse_f32`] round correctly to the target type.
//!
//! Writing: [`write_f64`] / [`write_f32`] produce the shortest text that
//! round-trips, in JSON number grammar: whole numbers of thousandths through
//! [`digits::thousandths`], all others via `zmij`.

use core::fmt;

use crate::text::digits;
use crate::text::short::Sink;
use crate::text::word::{self, ZEROS, digit_lanes, digit_word, digits_value};

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

/// Why a number was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumError {
    /// The number is valid but not an integer where an integer is required.
    NotAnInteger,
    /// The number is valid but outside the target type's range.
    OutOfRange,
    /// The text is not exactly one JSON number.
    Invalid,
}

impl fmt::Display for NumError {
    /// Formats the error for inclusion in a decode error message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumError::NotAnInteger => "number has a fractional part",
            NumError::OutOfRange => "number out of range",
            NumError::Invalid => "invalid number",
        })
    }
}

/// The integer types ProtoJSON fields use (`int32`/`sint32`/`sfixed32`,
/// `int64`/..., `uint32`/`fixed32`, `uint64`/`fixed64`). Implemented for
/// `i32`, `i64`, `u32` and `u64`, so [`parse_int`] can share one parser and
/// only the final range check depends on the type.
pub(crate) trait Int: Copy {
    /// Returns the value with sign `negative` and absolute value `magnitude`
    /// as `Self`, or `None` if it does not fit. `-0` is `0` for every type.
    fn from_sign_magnitude(negative: bool, magnitude: u64) -> Option<Self>;
}

/// Implements [`Int`] for the signed types: the magnitude's limit is one
/// more for negative values, whose two's complement is then the value's
/// (`2^31` negated is `i32::MIN`).
macro_rules! impl_signed {
    ($($t:ty => $unsigned:ty),*) => {$(
        impl Int for $t {
            /// Checks the magnitude against the sign's limit, then negates
            /// in the unsigned type.
            #[inline]
            fn from_sign_magnitude(negative: bool, magnitude: u64) -> Option<Self> {
                let limit = <$t>::MAX as u64 + u64::from(negative);
                (magnitude <= limit).then(|| {
                    let m = magnitude as $unsigned;
                    (if negative { m.wrapping_neg() } else { m }) as $t
                })
            }
        }
    )*};
}
impl_signed!(i32 => u32, i64 => u64);

/// Implements [`Int`] for the unsigned types, whose only negative value
/// is `-0`.
macro_rules! impl_unsigned {
    ($($t:ty),*) => {$(
        impl Int for $t {
            /// Checks the magnitude against the type's maximum.
            #[inline]
            fn from_sign_magnitude(negative: bool, magnitude: u64) -> Option<Self> {
                let fits = magnitude <= <$t>::MAX as u64 && (!negative || magnitude == 0);
                fits.then_some(magnitude as $t)
            }
        }
    )*};
}
impl_unsigned!(u32, u64);

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

/// A JSON number in its everyday form, `-?(0|[1-9][0-9]*)(\.[0-9]+)?`
/// with at most 19 digits and no exponent, read in one pass: the fast path
/// of float decoding (integers have [`plain_integer`]). Its value is
/// `digits × 10^-scale`, negated if `negative`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plain {
    /// Length of the number's text.
    pub len: usize,
    pub negative: bool,
    /// All digits, integer then fraction, as one integer (exact: at most 19).
    pub digits: u64,
    /// Number of fraction digits.
    pub scale: u32,
}

/// Where a number's text goes on from `start`, which holds an optional
/// byte (a sign, a quote) if `present`: past it then. `usual` is whether
/// the everyday form has it (no sign; quotes for 64-bit integers). A
/// branch, the unusual arm kept rare (`cold_path`) so that LLVM keeps it,
/// not an addition of the comparison's result: with the branch predicted,
/// the positions read next do not wait for the byte to be loaded and
/// compared. The chain of positions through a document bounds how fast it
/// decodes: every step whose length is computed from the bytes read (a
/// sign, a quote, a digit count) adds that computation's latency to it,
/// where a predicted branch adds nothing (`small` and its `decode_into`
/// guard this, and [`digit_run`]'s constant moves).
#[inline(always)]
pub(crate) fn past_optional(start: usize, present: bool, usual: bool) -> usize {
    if present == usual {
        start + usize::from(usual)
    } else {
        crate::hint::cold_path();
        start + usize::from(present)
    }
}

/// Reads the [`Plain`] number that starts at `b[start..]`, or `None` if
/// none does (another form, too many digits, or not a number); the general
/// path then reads or rejects it. What follows the number is the caller's
/// to check, an exponent too (`Reader::plain_number` takes only a
/// delimiter or a quote after it).
#[inline(always)]
pub(crate) fn plain_number(b: &[u8], start: usize) -> Option<Plain> {
    let negative = b.get(start) == Some(&b'-');
    let first = past_optional(start, negative, false);
    let mut i = first;
    let mut digits = 0u64;
    let mut push = |i: &mut usize| digit_run(b, i, &mut digits);
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => push(&mut i),
        _ => return None,
    }
    let int_end = i;
    let mut scale = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        push(&mut i);
        scale = i - int_end - 1;
        if scale == 0 {
            return None;
        }
    }
    let count = i - first - usize::from(scale > 0);
    if count > 19 {
        return None;
    }
    Some(Plain {
        len: i - start,
        negative,
        digits,
        scale: scale as u32,
    })
}

/// Reads the run of decimal digits at `b[*i..]` into `digits` (wrapping:
/// the caller rejects runs too long to be exact), moving `i` past it.
/// Eight bytes are classified at once, so finding the run's end costs no
/// branch per digit: SWAR, with the byte loop for the last seven bytes.
/// Runs of one or two digits skip the multiply chain.
#[inline(always)]
fn digit_run(b: &[u8], i: &mut usize, digits: &mut u64) {
    while let Some(chunk) = b.get(*i..*i + 8) {
        let (x, n) = digit_lanes(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        if n <= 2 {
            // No digit, or one or two (most numbers' last run: "30", the
            // "5" of "95.5"): their values straight from the low bytes,
            // without the multiply chain below. Digits borrow nothing, so
            // the low `n` bytes of `x` are exact. Each arm moves `i` by a
            // constant, not by `n`: see `past_optional`.
            let (first, second) = (x & 0xff, x >> 8 & 0xff);
            match n {
                0 => {}
                1 => {
                    *digits = digits.wrapping_mul(10).wrapping_add(first);
                    *i += 1;
                }
                _ => {
                    *digits = digits.wrapping_mul(100).wrapping_add(first * 10 + second);
                    *i += 2;
                }
            }
            return;
        }
        // The n digits into the top bytes, zeros (leading digits) below.
        let v = digits_value(x << (64 - 8 * n as u32));
        *digits = digits.wrapping_mul(POW10_U64[n]).wrapping_add(v);
        *i += n;
        if n < 8 {
            return;
        }
    }
    while let Some(&d @ b'0'..=b'9') = b.get(*i) {
        *digits = digits.wrapping_mul(10).wrapping_add(u64::from(d - b'0'));
        *i += 1;
    }
}

/// Powers of ten up to eight digits' worth.
pub(crate) const POW10_U64: [u64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// The value of twenty decimal digits, if it fits in a `u64`: text no
/// greater than `u64::MAX`'s, read in three independent parts (four
/// digits, then two runs of eight in SWAR lanes) rather than by a chain of
/// nineteen dependent multiplications, a long wait: random
/// 64-bit values (hashes, `fixed64` IDs) have twenty digits nearly half
/// the time.
#[cold]
fn twenty_digits(digits: &[u8]) -> Option<u64> {
    let digits: &[u8; 20] = digits.try_into().ok()?;
    if digits > b"18446744073709551615" {
        return None;
    }
    let eight = |at: usize| {
        let word = u64::from_le_bytes(digits[at..at + 8].try_into().expect("8 bytes"));
        digits_value(word - ZEROS)
    };
    let head = digits[..4]
        .iter()
        .fold(0, |v, &d| v * 10 + u64::from(d - b'0'));
    // No overflow: each partial sum is at most the value, at most u64::MAX.
    Some(head * 10_u64.pow(16) + eight(4) * 100_000_000 + eight(12))
}

/// Powers of ten exact in an `f64`.
const POW10_F64: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Powers of ten exact in an `f32`.
const POW10_F32: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// The `f64` nearest to `p`, when one division gets it exactly right:
/// digits and power of ten both exact in an `f64`, so the correctly rounded
/// quotient is the correctly rounded value (Clinger's fast path).
#[inline]
fn plain_f64(p: &Plain) -> Option<f64> {
    let pow = *POW10_F64.get(p.scale as usize)?;
    if p.digits > 1 << 53 {
        return None;
    }
    let v = p.digits as f64 / pow;
    Some(if p.negative { -v } else { v })
}

/// The `f32` nearest to `p`, as [`plain_f64`] but in `f32` arithmetic
/// (rounding once, directly to `f32`).
#[inline]
fn plain_f32(p: &Plain) -> Option<f32> {
    let pow = *POW10_F32.get(p.scale as usize)?;
    if p.digits > 1 << 24 {
        return None;
    }
    let v = p.digits as f32 / pow;
    Some(if p.negative { -v } else { v })
}

/// The types of number fields, read by the plain fast path
/// ([`Reader::plain_number`](crate::read::Reader::plain_number)): a trait,
/// not a function passed in, so that each field's copy is inlined by force.
pub(crate) trait PlainNumber: Sized {
    /// Whether ProtoJSON writes numbers of this type in quotes, as it does
    /// 64-bit integers: the form the fast path expects, the other taking a
    /// branch kept rare (see [`past_optional`]).
    const QUOTED: bool;

    /// The value of the number in its everyday form at `b[start..]`, if it
    /// is one and fits, and the length of its text; what follows is the
    /// caller's to check.
    fn plain_at(b: &[u8], start: usize) -> Option<(Self, usize)>;

    /// The value of a short number at the start of `window` (the next
    /// 32 bytes of the input, or 16 near its end) and the length of its text, delimiter
    /// checked, if it has the shortest everyday form: see
    /// [`short_integer`]. `None` (the default, and for floats) leaves the
    /// number to [`plain_at`](Self::plain_at).
    #[inline(always)]
    fn short_at<const N: usize>(window: &[u8; N]) -> Option<(Self, usize)> {
        let _ = window;
        None
    }
}

/// Implements [`PlainNumber`] for the integer types.
macro_rules! plain_integers {
    ($($t:ty => $quoted:expr),*) => {$(
        impl PlainNumber for $t {
            const QUOTED: bool = $quoted;

            #[inline(always)]
            fn plain_at(b: &[u8], start: usize) -> Option<(Self, usize)> {
                plain_integer(b, start)
            }

            #[inline(always)]
            fn short_at<const N: usize>(window: &[u8; N]) -> Option<(Self, usize)> {
                short_integer::<Self, $quoted, N>(window)
            }
        }
    )*};
}
plain_integers!(i32 => false, u32 => false, i64 => true, u64 => true);

impl PlainNumber for f64 {
    const QUOTED: bool = false;

    #[inline(always)]
    fn plain_at(b: &[u8], start: usize) -> Option<(Self, usize)> {
        plain_float(b, start, plain_f64)
    }
}

impl PlainNumber for f32 {
    const QUOTED: bool = false;

    #[inline(always)]
    fn plain_at(b: &[u8], start: usize) -> Option<(Self, usize)> {
        plain_float(b, start, plain_f32)
    }
}

/// The [`Plain`] number at `b[start..]` converted by `convert`
/// ([`plain_f64`], [`plain_f32`]), and the length of its text.
#[inline(always)]
fn plain_float<F>(
    b: &[u8],
    start: usize,
    convert: impl FnOnce(&Plain) -> Option<F>,
) -> Option<(F, usize)> {
    let p = plain_number(b, start)?;
    Some((convert(&p)?, p.len))
}

/// The integer at `b[start..]` in its everyday form, `-?(0|[1-9][0-9]*)`
/// with at most twenty digits, if it fits in `T`, and the length of its
/// text: the fast path of integer fields and map keys, with no fraction
/// or exponent to look for (`30.0` and `3e1`, integers too in ProtoJSON,
/// stop at the point or the `e`, which the caller finds is no delimiter:
/// the general path reads them). What follows is the caller's to check.
#[inline(always)]
pub(crate) fn plain_integer<T: Int>(b: &[u8], start: usize) -> Option<(T, usize)> {
    let negative = b.get(start) == Some(&b'-');
    let first = past_optional(start, negative, false);
    let (mut end, mut digits) = (first, 0u64);
    digit_run(b, &mut end, &mut digits);
    let count = end - first;
    if count == 0 || (count > 1 && b[first] == b'0') {
        return None;
    }
    if count > 19 {
        // Twenty digits: a uint64 in its top range (u64::MAX has twenty
        // digits), read again without overflow.
        digits = (count == 20)
            .then(|| twenty_digits(&b[first..end]))
            .flatten()?;
    }
    Some((T::from_sign_magnitude(negative, digits)?, end - start))
}

/// The integer at the start of `window` if it is written the way encoders
/// write most integers: after one space or none (pretty output's `": "`),
/// in quotes exactly when `QUOTED` (64-bit types), `-?(0|[1-9][0-9]{0,19})`,
/// then the closing quote or (unquoted) a delimiter; with the length of its
/// text up to the delimiter. Anything else (other whitespace, the other
/// form, more digits, a fraction or exponent, a value out of range) is
/// `None`, for [`plain_integer`] and the general path. One bounds check for
/// the whole number, a word load for each eight digits and no loop:
/// [`plain_integer`] checks each byte it reads on its own.
#[inline(always)]
pub(crate) fn short_integer<T: Int, const QUOTED: bool, const N: usize>(
    window: &[u8; N],
) -> Option<(T, usize)> {
    let space = usize::from(window[0] == b' ');
    let opening = word::load(window, space);
    if (opening as u8 == b'"') != QUOTED {
        return None;
    }
    let quote = space + usize::from(QUOTED);
    let negative = window[quote] == b'-';
    let first = past_optional(quote, negative, false);
    let (digits, count) = short_digits(window, first)?;
    let end = first + count;
    let after = window[end];
    let len = if QUOTED {
        (after == b'"').then_some(end + 1)?
    } else {
        ends_number(after).then_some(end)?
    };
    Some((T::from_sign_magnitude(negative, digits)?, len))
}

/// The value of the digits at `first` in `window` (a space, a quote and a
/// sign may come before them: `first` is at most 3), `0|[1-9][0-9]{0,19}`,
/// and how many there are; `None` for no digit, a leading zero, more than
/// twenty digits or a value past `u64::MAX`. In a window of 16 bytes, up to
/// eight: whether a digit follows them is the caller's to check, with the
/// byte that must end the number. A word load for each eight digits and no
/// loop.
#[inline(always)]
pub(crate) fn short_digits<const N: usize>(window: &[u8; N], first: usize) -> Option<(u64, usize)> {
    // Every offset read below is in the window (the widest: 3 bytes of
    // space, quote and sign, then 16 digits and a word of 8).
    const { assert!(N == 16 || N >= 32) };
    let head = word::load(window, first);
    let (mut digits, mut count) = digit_word(head)?;
    if count > 1 && head as u8 == b'0' {
        // A leading zero: only "0" itself is plain.
        return None;
    }
    // Up to twenty digits (`u64::MAX` has twenty), eight at a time, the
    // value checked for overflow: a word more after each full one. In a
    // window of 16 bytes, up to eight (its last word may begin past a
    // space, quote and sign).
    for (full, limit) in [(8, 8), (16, 4)] {
        if N < 32 || count != full {
            break;
        }
        let (more, n) = digit_word(word::load(window, first + count)).unwrap_or((0, 0));
        if n > limit {
            return None;
        }
        digits = digits.checked_mul(POW10_U64[n])?.checked_add(more)?;
        count += n;
    }
    Some((digits, count))
}

/// Whether `b` may follow an unquoted number: what ends a JSON value in an
/// object or array, or whitespace. Anything else after the digits (a point,
/// an exponent, a letter) is for the general path.
#[inline(always)]
pub(crate) fn ends_number(b: u8) -> bool {
    matches!(b, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t')
}

/// Appends zmij's shortest round-trip text for `v` minus a trailing `".0"`,
/// so integral values print as JSON integers (`"1"`, `"-0"`). zmij's output
/// is otherwise already JSON number grammar (`"0.1"`, `"1e+300"`,
/// `"1.5e-7"`), the same as Go's and JavaScript's for exponents. Out of line:
/// the general path behind the inlined fast one.
#[inline(never)]
fn push_shortest<F: zmij::Float>(out: &mut Vec<u8>, v: F) {
    let mut buf = zmij::Buffer::new();
    let s = buf.format_finite(v);
    out.extend_from_slice(s.strip_suffix(".0").unwrap_or(s).as_bytes());
}

/// Appends the shortest text that round-trips to `v` as a JSON number.
/// `v` must be finite (callers write NaN and ±Infinity as strings); for a
/// non-finite `v` the output is unspecified but nothing panics.
#[inline]
pub(crate) fn write_f64<S: Sink>(out: &mut S, v: f64) {
    if !digits::thousandths(out, v) {
        out.vec(|out| push_shortest(out, v));
    }
}

/// Appends the shortest text that round-trips to `v` as an `f32` (so
/// `0.1f32` is `"0.1"`), as a JSON number. `v` must be finite, as for
/// [`write_f64`].
#[inline]
pub(crate) fn write_f32<S: Sink>(out: &mut S, v: f32) {
    if !digits::thousandths(out, v) {
        out.vec(|out| push_shortest(out, v));
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

    /// Formats with `write_f64` into a fresh string.
    fn w64(v: f64) -> String {
        let mut out = Vec::new();
        write_f64(&mut out, v);
        String::from_utf8(out).expect("ASCII")
    }

    /// Formats with `write_f32` into a fresh string.
    fn w32(v: f32) -> String {
        let mut out = Vec::new();
        write_f32(&mut out, v);
        String::from_utf8(out).expect("ASCII")
    }

    #[test]
    fn write_specific() {
        assert_eq!(w64(1.0), "1");
        assert_eq!(w64(0.0), "0");
        assert_eq!(w64(-0.0), "-0");
        assert_eq!(w64(-1.5), "-1.5");
        assert_eq!(w64(0.1), "0.1");
        assert_eq!(w64(1e300), "1e+300");
        assert_eq!(w64(1.5e-7), "1.5e-7");
        assert_eq!(w64(1e16), "1e+16");
        assert_eq!(w64(123456.0), "123456");
        assert_eq!(w64(f64::MAX), "1.7976931348623157e+308");
        assert_eq!(w64(f64::from_bits(1)), "5e-324");
        assert_eq!(w32(1.0), "1");
        assert_eq!(w32(0.1), "0.1");
        assert_eq!(w32(-0.0), "-0");
        assert_eq!(w32(-1.5), "-1.5");
        assert_eq!(w32(f32::MAX), "3.4028235e+38");
        assert_eq!(w32(f32::from_bits(1)), "1e-45");
        let mut out = b"[".to_vec();
        write_f64(&mut out, 2.0);
        write_f32(&mut out, 2.5);
        assert_eq!(out, b"[22.5");
    }

    /// Asserts `text` is a complete JSON number.
    fn assert_json_number(text: &str) {
        assert_eq!(scan_number(text.as_bytes()), text.len(), "{text:?}");
        assert!(!text.is_empty());
    }

    #[test]
    fn write_round_trip_random_bits() {
        let mut rng = Rng(0xdead_beef_cafe_f00d);
        let mut specials64 = vec![
            0.0,
            -0.0,
            1.0,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            f64::EPSILON,
        ];
        specials64.extend([
            f64::from_bits(1),
            9007199254740993.0,
            1e21,
            1e22,
            1e-7,
            123e-20,
        ]);
        let randoms64 = (0..200_000).map(|_| f64::from_bits(rng.next()));
        for v in specials64.into_iter().chain(randoms64) {
            if !v.is_finite() {
                continue;
            }
            let text = w64(v);
            assert_json_number(&text);
            assert_eq!(
                parse_f64(&text).map(f64::to_bits),
                Ok(v.to_bits()),
                "{text}"
            );
        }
        let mut specials32 = vec![0.0, -0.0, 1.0, f32::MAX, f32::MIN, f32::MIN_POSITIVE];
        specials32.extend([f32::from_bits(1), 16777217.0, 1e10, 1e-7]);
        let randoms32 = (0..200_000).map(|_| f32::from_bits(rng.next() as u32));
        for v in specials32.into_iter().chain(randoms32) {
            if !v.is_finite() {
                continue;
            }
            let text = w32(v);
            assert_json_number(&text);
            assert_eq!(
                parse_f32(&text).map(f32::to_bits),
                Ok(v.to_bits()),
                "{text}"
            );
        }
    }

    #[test]
    fn write_integral_values_are_json_integers() {
        // Integral values parse back as integers, so int64 fields written as
        // floats by other encoders interoperate.
        for v in [1.0, -1.0, 100.0, 1e15, 9007199254740992.0] {
            let text = w64(v);
            assert!(!text.contains('.'), "{text}");
            assert_eq!(parse_int::<i64>(&text), Ok(v as i64));
        }
        assert_eq!(parse_int::<i64>(&w64(1e16)), Ok(10_000_000_000_000_000));
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

    #[test]
    fn error_messages() {
        assert_eq!(NotAnInteger.to_string(), "number has a fractional part");
        assert_eq!(OutOfRange.to_string(), "number out of range");
        assert_eq!(Invalid.to_string(), "invalid number");
    }

    /// Twenty digits near `u64::MAX` (both sides, every carry of its last
    /// five digits) and at random in every leading digit's range, against
    /// the standard library's reading.
    #[test]
    fn twenty_digits_agree_with_std() {
        let check = |text: &str| {
            assert_eq!(
                twenty_digits(text.as_bytes()),
                text.parse::<u64>().ok(),
                "{text}"
            );
        };
        let max = u128::from(u64::MAX);
        for v in max - 200_000..=max + 200_000 {
            check(&v.to_string());
        }
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..200_000 {
            let lead = rng.next() % 10;
            let rest: String = (0..19)
                .map(|_| char::from(b'0' + (rng.next() % 10) as u8))
                .collect();
            check(&format!("{lead}{rest}"));
        }
        for text in [
            "00000000000000000000",
            "09999999999999999999",
            "99999999999999999999",
        ] {
            check(text);
        }
    }

    /// The eight-byte digit scan against the byte loop: runs of 0 to 24
    /// digits, every byte after them (and the end of input), at every
    /// offset from the input's end, so that each run length meets each
    /// split between whole words and the last bytes.
    #[test]
    fn digit_run_agrees_with_the_byte_loop() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for len in 0..=24 {
            let run: Vec<u8> = (0..len).map(|_| b'0' + (rng.next() % 10) as u8).collect();
            for after in (0..=255u8).map(Some).chain([None]) {
                for (tail, lead) in (0..10).flat_map(|t| [0, 1, 5, 9, 12].map(|l| (t, l))) {
                    // Digits before the run, which it must not read.
                    let mut b = vec![b'7'; lead];
                    b.push(b'-');
                    b.extend(&run);
                    b.extend(after);
                    b.extend(std::iter::repeat_n(b'x', tail));
                    let (mut i, mut digits) = (lead + 1, 0u64);
                    digit_run(&b, &mut i, &mut digits);
                    let (mut want_i, mut want) = (lead + 1, 0u64);
                    while let Some(&d @ b'0'..=b'9') = b.get(want_i) {
                        want = want.wrapping_mul(10).wrapping_add(u64::from(d - b'0'));
                        want_i += 1;
                    }
                    assert_eq!(
                        (i, digits),
                        (want_i, want),
                        "{:?}",
                        String::from_utf8_lossy(&b)
                    );
                }
            }
        }
    }

    /// [`Reader::plain_number`](crate::read::Reader::plain_number) without
    /// [`short_integer`]: the value and the length of its text.
    fn without_short<T: PlainNumber>(b: &[u8]) -> Option<(T, usize)> {
        let pos = b.iter().take_while(|b| b" \n\r\t".contains(b)).count();
        let quoted = b.get(pos) == Some(&b'"');
        let start = past_optional(pos, quoted, T::QUOTED);
        let (value, len) = T::plain_at(b, start)?;
        let (end, next) = (start + len, b.get(start + len));
        let delimiter = |b: &u8| b",}] \n\r\t".contains(b);
        match quoted {
            true => (next == Some(&b'"')).then_some((value, end + 1)),
            false => next.is_none_or(delimiter).then_some((value, end)),
        }
    }

    /// `short_integer` reads what the path without it reads, in windows of
    /// 16 and 32 bytes, or nothing: every integer type, quoted or not,
    /// signed, with leading zeros, runs of 0 to 22 digits and limits of
    /// every type, each followed by every kind of byte. It must also read
    /// the everyday forms that fit in its window, or it would be dead code.
    fn short_agrees<T: PlainNumber + PartialEq + fmt::Debug>() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut runs: Vec<String> = ["0", "00", "01", "007", "2147483647", "2147483648"]
            .into_iter()
            .chain(["4294967295", "4294967296", "9223372036854775807"])
            .chain(["9223372036854775808", "18446744073709551615"])
            .map(String::from)
            .collect();
        for len in 1..=22 {
            for _ in 0..6 {
                let first = char::from(b'1' + (rng.next() % 9) as u8);
                let rest = (1..len).map(|_| char::from(b'0' + (rng.next() % 10) as u8));
                runs.push(std::iter::once(first).chain(rest).collect());
            }
        }
        let (mut read, mut everyday) = (0, 0);
        let spellings = spellings();
        for run in &runs {
            for &(space, sign, quote, after) in &spellings {
                let text = format!("{space}{quote}{sign}{run}{quote}{after}");
                let mut bytes = text.clone().into_bytes();
                bytes.resize(bytes.len().max(32), b'x');
                let want = without_short::<T>(&bytes);
                for short in [
                    T::short_at::<16>(bytes.first_chunk().expect("16 bytes")),
                    T::short_at::<32>(bytes.first_chunk().expect("32 bytes")),
                ] {
                    if short.is_some() {
                        assert_eq!(short, want, "{text:?}");
                        read += 1;
                    }
                }
                let usual = quote.is_empty() != T::QUOTED && matches!(space, "" | " ");
                if want.is_some() && usual && !run.starts_with('0') && run.len() <= 8 {
                    everyday += 1;
                    assert!(
                        T::short_at::<16>(bytes.first_chunk().expect("16")).is_some(),
                        "{text:?}"
                    );
                }
            }
        }
        assert!(read > 0 && everyday > 0, "{read} {everyday}");
    }

    /// The spellings `short_agrees` puts around a run of digits: space
    /// before, sign, quotes, and the byte after.
    fn spellings() -> Vec<(&'static str, &'static str, &'static str, &'static str)> {
        let mut all = Vec::new();
        for space in ["", " ", "  ", "\n"] {
            for sign in ["", "-", "+"] {
                for quote in ["", "\""] {
                    for after in [
                        ",", "}", "]", " ", "\n", "\t", "x", ".5", "e1", "5", "\"", "",
                    ] {
                        all.push((space, sign, quote, after));
                    }
                }
            }
        }
        all
    }

    #[test]
    fn short_integers_read_as_without_them() {
        short_agrees::<i32>();
        short_agrees::<u32>();
        short_agrees::<i64>();
        short_agrees::<u64>();
    }

    #[test]
    fn plain_number_table() {
        let plain = |text: &str| plain_number(text.as_bytes(), 0);
        let p = |len, negative, digits, scale| Plain {
            len,
            negative,
            digits,
            scale,
        };
        assert_eq!(plain("0"), Some(p(1, false, 0, 0)));
        assert_eq!(plain("-0"), Some(p(2, true, 0, 0)));
        assert_eq!(plain("95.5,"), Some(p(4, false, 955, 1)));
        assert_eq!(plain("-0.25}"), Some(p(5, true, 25, 2)));
        // Stops where the grammar does; the caller checks what follows.
        assert_eq!(plain("01"), Some(p(1, false, 0, 0)));
        assert_eq!(plain("1x"), Some(p(1, false, 1, 0)));
        assert_eq!(plain("1e5"), Some(p(1, false, 1, 0)));
        assert_eq!(plain("1.5E-3"), Some(p(3, false, 15, 1)));
        assert_eq!(
            plain("9999999999999999999"),
            Some(p(19, false, 9_999_999_999_999_999_999, 0))
        );
        // Everything else is the general path's.
        for text in [
            "",
            "-",
            "+1",
            ".5",
            "1.",
            "1.e5",
            "123456789012345678901",
            "18446744073709551615",
            "-10000000000000000000",
            "18446744073709551616",
            "99999999999999999999",
            "1234567890123456789.0",
            "0.0000000000000000001",
            "a",
        ] {
            assert_eq!(plain(text), None, "{text}");
        }
    }

    #[test]
    fn plain_integer_table() {
        fn int<T: Int>(text: &str) -> Option<(T, usize)> {
            plain_integer(text.as_bytes(), 0)
        }
        assert_eq!(int::<i32>("0"), Some((0, 1)));
        assert_eq!(int::<u32>("-0"), Some((0, 2)));
        assert_eq!(int::<i32>("30,"), Some((30, 2)));
        assert_eq!(int::<i32>("-2147483648"), Some((i32::MIN, 11)));
        assert_eq!(int::<i32>("2147483648"), None);
        assert_eq!(int::<u32>("4294967295"), Some((u32::MAX, 10)));
        assert_eq!(int::<u32>("-1"), None);
        assert_eq!(int::<i64>("-9223372036854775808"), Some((i64::MIN, 20)));
        assert_eq!(int::<i64>("9223372036854775808"), None);
        assert_eq!(int::<u64>("18446744073709551615\""), Some((u64::MAX, 20)));
        // Stops at a point or exponent, which the caller sends to the general path.
        assert_eq!(int::<i32>("1.5"), Some((1, 1)));
        assert_eq!(int::<i32>("3e1"), Some((3, 1)));
        for text in ["", "-", "+1", "01", "-00", "a", "18446744073709551616"] {
            assert_eq!(int::<u64>(text), None, "{text}");
        }
        assert_eq!(int::<u64>("123456789012345678901"), None);
    }

    #[test]
    fn plain_fast_paths_agree_with_the_general_parsers() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        for _ in 0..200_000 {
            let r = rng.next();
            let int_digits = match r % 16 {
                12..=14 => 19 + (r >> 32) as usize % 3,
                k => 1 + k as usize,
            };
            let frac_digits = ((r >> 8) % 12) as usize;
            let mut text = String::new();
            if r & (1 << 20) != 0 {
                text.push('-');
            }
            let mut d = rng.next();
            for k in 0..int_digits {
                if k % 16 == 15 {
                    d = rng.next();
                }
                let digit = if k == 0 && int_digits > 1 {
                    1 + d % 9
                } else {
                    d % 10
                };
                text.push(char::from(b'0' + digit as u8));
                d /= 10;
            }
            if frac_digits > 0 {
                text.push('.');
                let mut d = rng.next();
                for _ in 0..frac_digits {
                    text.push(char::from(b'0' + (d % 10) as u8));
                    d /= 10;
                }
            }
            // Integers: the fast path reads exactly the whole numbers that
            // fit (with a fraction it stops at the point).
            fn integer<T: Int>(text: &str) -> Option<T> {
                plain_integer(text.as_bytes(), 0)
                    .filter(|&(_, len)| len == text.len())
                    .map(|(v, _)| v)
            }
            let whole = frac_digits == 0;
            assert_eq!(
                integer::<i64>(&text),
                parse_int::<i64>(&text).ok().filter(|_| whole),
                "{text}"
            );
            assert_eq!(
                integer::<u32>(&text),
                parse_int::<u32>(&text).ok().filter(|_| whole),
                "{text}"
            );
            assert_eq!(
                integer::<u64>(&text),
                parse_int::<u64>(&text).ok().filter(|_| whole),
                "{text}"
            );
            // Floats: up to nineteen digits in all.
            let Some(p) = plain_number(text.as_bytes(), 0) else {
                assert!(int_digits + frac_digits > 19, "{text}");
                continue;
            };
            assert_eq!(p.len, text.len(), "{text}");
            if let Some(v) = plain_f64(&p) {
                assert_eq!(v.to_bits(), parse_f64(&text).unwrap().to_bits(), "{text}");
            }
            if let Some(v) = plain_f32(&p) {
                assert_eq!(v.to_bits(), parse_f32(&text).unwrap().to_bits(), "{text}");
            }
        }
    }
}
