//! Floating-point numbers written as the shortest text that round-trips.

use crate::text::digits;
use crate::text::short::Sink;

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
    use crate::text::num::{parse_f32, parse_f64, parse_int, scan_number};

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
}
