//! Integers and everyday doubles as text, written in words straight into the output.
//!
//! Integers and everyday doubles (`95.5`, `0.25`, `1999.99`) are the
//! numbers payloads hold most. Formatting them into a buffer of the text's
//! exact length and appending that costs a call to `memcpy` per number,
//! about as much as the formatting. Here they are written in words straight
//! into the output (see [`crate::text::short`]).
//!
//! [`thousandths`] is the fast path of double and float output: a value
//! that is a whole number of thousandths is written from that integer,
//! skipping the general shortest-digits search (`zmij`), whose output it
//! matches exactly (see its proof and the tests).

use crate::text::short::{self, ShortText, Sink};
use crate::text::word::{ZEROS, digit_values};

impl ShortText<'_> {
    /// Appends the decimal digits of `v` (no leading zeros).
    #[inline(always)]
    pub(crate) fn decimal(&mut self, v: u64) -> &mut Self {
        const E8: u64 = 100_000_000;
        if v < 100 {
            // Ages, counts, prices: one or two digits, no SWAR needed.
            let (tens, ones) = (v as u8 / 10, v as u8 % 10);
            let two = u64::from(b'0' + tens) | u64::from(b'0' + ones) << 8;
            let short = usize::from(tens == 0);
            self.word(two >> (8 * short), 2 - short)
        } else if v < E8 {
            self.leading_digits(v as u32)
        } else if v < E8 * E8 {
            self.leading_digits((v / E8) as u32)
                .all_digits((v % E8) as u32)
        } else {
            self.leading_digits((v / (E8 * E8)) as u32)
                .all_digits((v / E8 % E8) as u32)
                .all_digits((v % E8) as u32)
        }
    }

    /// Appends `v` (below 10^8) without leading zeros.
    #[inline(always)]
    fn leading_digits(&mut self, v: u32) -> &mut Self {
        let digits = digit_values(v);
        // Leading zero digits are the low zero bytes; `0` keeps one digit.
        let zeros = (digits.trailing_zeros() / 8).min(7);
        self.word((digits >> (8 * zeros)) + ZEROS, 8 - zeros as usize)
    }

    /// Appends `v` as exactly `width` digits (at most eight), zeros first:
    /// the fields of a date and time. `v` must be below 10^width.
    #[inline(always)]
    pub(crate) fn padded(&mut self, v: u32, width: usize) -> &mut Self {
        debug_assert!(width <= 8 && u64::from(v) < 10u64.pow(width as u32));
        // The eight digits' last `width`, moved to the low bytes.
        let digits = digit_values(v) + ZEROS;
        self.word(digits >> (8 * (8 - width)), width)
    }

    /// Appends the fraction of a second for `nanos` (below 10^9) with 0, 3,
    /// 6 or 9 digits, the fewest that are exact, as ProtoJSON prescribes
    /// for `Timestamp` and `Duration`: nothing for 0, else `.` and the digits.
    #[inline(always)]
    pub(crate) fn fraction(&mut self, nanos: u32) -> &mut Self {
        debug_assert!(nanos < 1_000_000_000);
        if nanos == 0 {
            self
        } else if nanos % 1_000_000 == 0 {
            self.byte(b'.').padded(nanos / 1_000_000, 3)
        } else if nanos % 1_000 == 0 {
            self.byte(b'.').padded(nanos / 1_000, 6)
        } else {
            // Nine digits: the first alone, then eight.
            let first = (nanos / 100_000_000) as u8;
            self.byte(b'.')
                .byte(b'0' + first)
                .padded(nanos % 100_000_000, 8)
        }
    }

    /// Appends `v` (below 10^8) as exactly eight digits.
    #[inline(always)]
    fn all_digits(&mut self, v: u32) -> &mut Self {
        self.word(digit_values(v) + ZEROS, 8)
    }
}

/// Appends a signed integer as a JSON number.
#[inline]
pub(crate) fn write_i64<S: Sink>(out: &mut S, v: i64) {
    short::append(out, |text| {
        text.byte_if(b'-', v < 0).decimal(v.unsigned_abs());
    });
}

/// Appends an unsigned integer as a JSON number.
#[inline]
pub(crate) fn write_u64<S: Sink>(out: &mut S, v: u64) {
    short::append(out, |text| {
        text.decimal(v);
    });
}

/// Appends a signed integer as a JSON string (`"-12"`): 64-bit integers and
/// map keys.
#[inline]
pub(crate) fn write_quoted_i64<S: Sink>(out: &mut S, v: i64) {
    short::append(out, |text| {
        text.byte(b'"')
            .byte_if(b'-', v < 0)
            .decimal(v.unsigned_abs())
            .byte(b'"');
    });
}

/// Appends an unsigned integer as a JSON string (`"12"`).
#[inline]
pub(crate) fn write_quoted_u64<S: Sink>(out: &mut S, v: u64) {
    short::append(out, |text| {
        text.byte(b'"').decimal(v).byte(b'"');
    });
}

/// A float type [`thousandths`] can write: `f64` or `f32`.
pub(crate) trait Float: Copy {
    /// Magnitudes from here up take the general path. Below it the type's
    /// spacing is under 0.001, so at most one multiple of 0.001 rounds to a
    /// given value; and `LIMIT × 1000` is below 2^52 (2^23 for `f32`), so
    /// every whole number of thousandths in range is exact, and rounding
    /// by adding 2^52 (2^23) works.
    const LIMIT: Self;
    /// `|self| × 1000` rounded to a whole number, if that number divided by
    /// 1000 gives `self` back (in the type's own rounding) and `|self|` is
    /// below `LIMIT`.
    fn whole_thousandths(self) -> Option<u64>;
    /// Whether the sign bit is set (true for `-0.0`).
    fn negative(self) -> bool;
}

macro_rules! float {
    ($ty:ty, $limit:expr, $mantissa_bits:expr) => {
        impl Float for $ty {
            const LIMIT: $ty = $limit;
            #[inline(always)]
            fn whole_thousandths(self) -> Option<u64> {
                // Adding 2^mantissa_bits rounds a value below it to a whole
                // number, held in the low bits of the sum's representation.
                const ROUNDER: $ty = (1u64 << $mantissa_bits) as $ty;
                let abs = self.abs();
                // Also false for NaN.
                let in_range = abs < Self::LIMIT;
                if !in_range {
                    return None;
                }
                let scaled = abs * 1000.0;
                let rounded = scaled + ROUNDER;
                let whole = rounded - ROUNDER;
                let n = u64::from(rounded.to_bits() - ROUNDER.to_bits());
                (whole == scaled && whole / 1000.0 == abs).then_some(n)
            }
            #[inline(always)]
            fn negative(self) -> bool {
                self.is_sign_negative()
            }
        }
    };
}
// f64: spacing below 2^32 is 2^-21; 2^32 × 1000 < 2^52.
float!(f64, 4_294_967_296.0, 52);
// f32: spacing below 2^13 is 2^-11; 2^13 × 1000 < 2^23.
float!(f32, 8_192.0, 23);

/// Writes `v` if it is a whole number of thousandths below `F::LIMIT`, as
/// the shortest text that round-trips (`95.5`, `-0.125`, `3`, `-0`), and
/// reports whether it did.
///
/// Why the text is the shortest: `n / 1000` rounds to `v` (checked by the
/// division), and it is the only multiple of 0.001 that does (the spacing
/// is under 0.001). A shorter text would have fewer significant digits at a
/// magnitude within one spacing of `v`'s, so its last digit would sit at or
/// above the thousandths: another multiple of 0.001 rounding to `v`, so
/// this one. With trailing zeros dropped this is the digit string the
/// shortest round-trip algorithms produce, and in this range `zmij` writes
/// it in plain decimal form (it uses exponents below 1e-5 and from 1e16).
#[inline]
pub(crate) fn thousandths<F: Float, S: Sink>(out: &mut S, v: F) -> bool {
    let Some(n) = v.whole_thousandths() else {
        return false;
    };
    short::append(out, |text| {
        text.byte_if(b'-', v.negative()).decimal(n / 1000);
        let fraction = (n % 1000) as u32;
        if fraction != 0 {
            // `.ddd` up to its last non-zero digit. Exact below 1000:
            // 41 / 4096 divides by 100, 103 / 1024 by 10.
            let hundreds = (fraction * 41) >> 12;
            let rest = fraction - hundreds * 100;
            let tens = (rest * 103) >> 10;
            let ones = rest - tens * 10;
            let kept = match (tens, ones) {
                (0, 0) => 2,
                (_, 0) => 3,
                _ => 4,
            };
            let digits = u64::from(hundreds) << 8 | u64::from(tens) << 16 | u64::from(ones) << 24;
            text.word(u64::from(b'.') | (digits + (ZEROS & 0xffff_ff00)), kept);
        }
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn text(f: impl FnOnce(&mut Vec<u8>)) -> String {
        let mut out = b"prefix:".to_vec();
        f(&mut out);
        let text = String::from_utf8(out).unwrap();
        text.strip_prefix("prefix:").unwrap().to_owned()
    }

    /// Every power of ten and its neighbours, the extremes, and random values.
    fn interesting_u64(rng: &mut Rng) -> Vec<u64> {
        let mut values = vec![0, 1, u64::MAX, u64::MAX - 1, i64::MAX as u64];
        let mut p = 1u64;
        while let Some(next) = p.checked_mul(10) {
            values.extend([p - 1, p, p + 1, next - 1]);
            p = next;
        }
        values.extend((0..100_000).map(|_| rng.next() >> (rng.next() % 64)));
        values
    }

    #[test]
    fn integers_match_std() {
        let mut rng = Rng(7);
        for v in (0..100_000).chain(interesting_u64(&mut rng)) {
            let expected = v.to_string();
            assert_eq!(text(|o| write_u64(o, v)), expected);
            assert_eq!(text(|o| write_quoted_u64(o, v)), format!("\"{expected}\""));
            let s = v as i64;
            let expected = s.to_string();
            assert_eq!(text(|o| write_i64(o, s)), expected);
            assert_eq!(text(|o| write_quoted_i64(o, s)), format!("\"{expected}\""));
        }
        assert_eq!(
            text(|o| write_quoted_i64(o, i64::MIN)),
            "\"-9223372036854775808\""
        );
    }

    /// What the general path writes: zmij's text minus a trailing `.0`.
    fn general<F: zmij::Float>(v: F) -> String {
        let s = zmij::Buffer::new().format_finite(v).to_owned();
        s.strip_suffix(".0").map(str::to_owned).unwrap_or(s)
    }

    /// Checks the fast path against the general one for `v`; returns
    /// whether the fast path took it.
    fn agrees<F: Float + zmij::Float + std::fmt::Debug>(v: F) -> bool {
        let mut out = Vec::new();
        let taken = thousandths(&mut out, v);
        if taken {
            assert_eq!(String::from_utf8(out).unwrap(), general(v), "{v:?}");
        }
        taken
    }

    #[test]
    fn doubles_match_the_general_path() {
        let mut rng = Rng(11);
        let mut taken = 0;
        for i in 0..300_000u64 {
            let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
            // Whole thousandths (most taken), their neighbours (never
            // taken: they need 17 digits), and arbitrary bit patterns.
            let n = (rng.next() >> (rng.next() % 64)) as f64;
            let v = sign * n / 1000.0;
            taken += usize::from(agrees(v));
            agrees(f64::from_bits(v.to_bits() + 1));
            agrees(f64::from_bits(rng.next()));
        }
        assert!(taken > 150_000, "the fast path took only {taken}");
        for v in [
            0.0,
            -0.0,
            0.001,
            0.1,
            0.5,
            95.5,
            1999.99,
            4294967295.999,
            4294967296.0,
        ] {
            agrees(v);
        }
        assert!(!agrees(4294967296.0), "the limit is excluded");
        assert!(!agrees(f64::NAN) && !agrees(f64::INFINITY));
        assert_eq!(text(|o| assert!(thousandths(o, -0.0))), "-0");
        assert_eq!(text(|o| assert!(thousandths(o, 95.5))), "95.5");
        assert_eq!(text(|o| assert!(thousandths(o, 0.05))), "0.05");
    }

    #[test]
    fn floats_match_the_general_path() {
        let mut rng = Rng(13);
        let mut taken = 0;
        for i in 0..300_000u64 {
            let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
            let n = (rng.next() % 10_000_000) as f32;
            let v = sign * n / 1000.0;
            taken += usize::from(agrees(v));
            agrees(f32::from_bits(v.to_bits() + 1));
            agrees(f32::from_bits(rng.next() as u32));
        }
        assert!(taken > 150_000, "the fast path took only {taken}");
        // f32s from 0 to 16 (both signs), evenly spread over the bit patterns.
        for bits in (0..16.0f32.to_bits()).step_by(4099) {
            agrees(f32::from_bits(bits));
            agrees(-f32::from_bits(bits));
        }
        assert_eq!(text(|o| assert!(thousandths(o, 0.1f32))), "0.1");
    }

    #[test]
    fn padded_keeps_every_width_zeros_first() {
        let mut rng = Rng(0x7157_aa11);
        for width in 1..=8u32 {
            let limit = 10u32.pow(width);
            let values: Vec<u32> = if width <= 5 {
                (0..limit).collect()
            } else {
                let random = (0..50_000).map(|_| (rng.next() % u64::from(limit)) as u32);
                [0, 1, 9, 10, limit / 10, limit - 1]
                    .into_iter()
                    .chain(random)
                    .collect()
            };
            for v in values {
                let got = text(|out| {
                    short::append(out, |t| {
                        t.padded(v, width as usize);
                    })
                });
                assert_eq!(got, format!("{v:0w$}", w = width as usize));
            }
        }
    }

    #[test]
    fn fractions_have_0_3_6_or_9_digits() {
        let mut rng = Rng(0xf4ac_7100);
        let reference = |nanos: u32| match nanos {
            0 => String::new(),
            n if n % 1_000_000 == 0 => format!(".{:03}", n / 1_000_000),
            n if n % 1_000 == 0 => format!(".{:06}", n / 1_000),
            n => format!(".{n:09}"),
        };
        let edges = [
            0,
            1,
            999,
            1_000,
            999_000,
            1_000_000,
            100_000_000,
            999_999_999,
        ];
        let random = (0..100_000u32).map(|i| {
            let n = (rng.next() % 1_000_000_000) as u32;
            // A third each with 3, 6 and 9 digits.
            [n - n % 1_000_000, n - n % 1_000, n][i as usize % 3]
        });
        for nanos in edges.into_iter().chain(random) {
            let got = text(|out| {
                short::append(out, |t| {
                    t.fraction(nanos);
                })
            });
            assert_eq!(got, reference(nanos), "{nanos}");
        }
    }
}
