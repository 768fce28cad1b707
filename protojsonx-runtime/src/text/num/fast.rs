//! Numbers in their everyday form, read in one pass or one step: the fast
//! paths of number fields, each `None` for anything else, which the general
//! path ([`parse`](super::parse)) then reads or rejects.

use super::Int;
use crate::text::word::{self, ZEROS, digit_lanes, digit_word, digits_value};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use crate::text::num::{parse_f32, parse_f64, parse_int};
    use core::fmt;

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
