//! Word-at-a-time primitives (SWAR: SIMD within a register): eight bytes of
//! text loaded little-endian into a `u64` and classified, compared or
//! converted at once, with no branch per byte.
//!
//! Every fast path of the runtime that looks at several bytes of text in
//! one step is built on these: the string and whitespace scans
//! ([`scan`](super::scan), [`block`](super::block)'s portable half), the
//! integers and timestamps read in one step ([`num`](super::num)), and the
//! digits written as words ([`digits`](super::digits)). Bytes are lanes: a
//! test sets the high bit (`0x80`) of each lane it flags, and arithmetic is
//! arranged so that no carry or borrow crosses from one lane into the next
//! (the string test built on them, `block::word_flags`, lets a borrow reach
//! only lanes above a true hit, and says so). They are portable
//! Rust, used on every target; the tests below check each against a byte
//! loop over every byte value at every lane.

/// `0x01` in every byte of a word: times a byte, that byte in every lane.
pub(crate) const ONES: u64 = u64::from_le_bytes([0x01; 8]);
/// `0x80` in every byte of a word: each lane's high bit.
pub(crate) const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
/// `'0'` in every byte of a word: the text of eight digits is their values
/// plus this, their values the text minus it.
pub(crate) const ZEROS: u64 = u64::from_le_bytes([b'0'; 8]);
/// Each lane's low seven bits.
pub(crate) const LOW7: u64 = !HIGHS;

/// The eight bytes of `b` from `at`, as a little-endian word.
#[inline(always)]
pub(crate) fn load(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// The four bytes of `b` from `at`, as a little-endian half-word.
#[inline(always)]
pub(crate) fn load_half(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

/// `byte` in every lane.
#[inline(always)]
pub(crate) const fn splat(byte: u8) -> u64 {
    ONES * byte as u64
}

/// The high bit of exactly the lanes of `x` that are zero: no borrow
/// between lanes, unlike a subtraction's (`x - ONES`, whose borrow out of a
/// zero lane can flag the lanes above it), so every flag is exact. For
/// tests whose flags above the first true one matter: the last match, or
/// lanes before a start that is not a lane's.
#[inline(always)]
pub(crate) fn zero_lanes(x: u64) -> u64 {
    !((x & LOW7).wrapping_add(LOW7) | x | LOW7)
}

/// The lanes of `word` minus `'0'`, each digit's value in its lane, and how
/// many digits the word begins with (0 to 8): every lane classified at
/// once, no branch per digit.
#[inline(always)]
pub(crate) fn digit_lanes(word: u64) -> (u64, usize) {
    let x = word.wrapping_sub(ZEROS);
    // The high bit of each lane that is not a digit (below '0' wraps).
    let not_digit = (x.wrapping_add(splat(0x76)) | x) & HIGHS;
    (x, (not_digit.trailing_zeros() / 8) as usize)
}

/// The value of the eight decimal digits whose values (0..=9) are the
/// lanes of `x`, the most significant in the lowest lane (as the text is
/// loaded little-endian): pairs, then fours, then all eight combined in
/// parallel lanes, three multiplications in all.
#[inline(always)]
pub(crate) fn digits_value(x: u64) -> u64 {
    let x = (x.wrapping_mul(10) + (x >> 8)) & 0x00ff_00ff_00ff_00ff;
    let x = (x.wrapping_mul(100) + (x >> 16)) & 0x0000_ffff_0000_ffff;
    (x.wrapping_mul(10_000) + (x >> 32)) & 0xffff_ffff
}

/// The value of the digits `word` (eight bytes of text) begins with, and
/// how many there are; `None` if it begins with none.
#[inline(always)]
pub(crate) fn digit_word(word: u64) -> Option<(u64, usize)> {
    let (x, count) = digit_lanes(word);
    (count > 0).then(|| (digits_value(x << (64 - 8 * count as u32)), count))
}

/// The digits of `word` (eight bytes of text) if it has the form `shape`,
/// where `'0'` stands for any digit and every other byte for itself: each
/// digit's value in its lane, the other lanes zero (`"-00T00:0"` is the
/// middle of a timestamp). With `shape` known at compile time, a few
/// operations for the eight bytes at once.
#[inline(always)]
pub(crate) fn shaped_digits(word: u64, shape: &[u8; 8]) -> Option<u64> {
    let lanes = shape
        .iter()
        .rev()
        .fold(0u64, |m, &b| (m << 8) | (u64::from(b == b'0') * 0xff));
    let shape = u64::from_le_bytes(*shape);
    // The other bytes made digits, so that all eight must be digits.
    let digits = (word & lanes) | (ZEROS & !lanes);
    let fits = word & !lanes == shape & !lanes && digit_lanes(digits).1 == 8;
    fits.then(|| digits - ZEROS)
}

/// The eight decimal digits of `v` (below 10^8, leading zeros included) as
/// lane values 0..=9, the most significant in the lowest lane, so that the
/// word plus [`ZEROS`] is their text. Two halves of four digits, each split
/// into two pairs, each into two digits; the multiplications by reciprocals
/// are exact for the lane values involved and never carry across lanes.
#[inline(always)]
pub(crate) fn digit_values(v: u32) -> u64 {
    debug_assert!(v < 100_000_000);
    // Lanes of 32 bits, values below 10^4: the high half first.
    let x = u64::from(v / 10_000) | u64::from(v % 10_000) << 32;
    // x / 100 per lane: 10486 / 2^20 is exact below 43_699.
    let hundreds = ((x * 10_486) >> 20) & 0x0000_007f_0000_007f;
    // Lanes of 16 bits, values below 100.
    let x = hundreds | (x - hundreds * 100) << 16;
    // x / 10 per lane: 103 / 2^10 is exact below 179.
    let tens = ((x * 103) >> 10) & 0x000f_000f_000f_000f;
    tens | (x - tens * 10) << 8
}

/// Calls `check` with every array of `N` bytes that holds one byte `b`
/// among bytes `fill`: every byte value at every place against every
/// filler, the shapes in which a carry or borrow between lanes would show.
/// The tests of the word and block primitives run on it.
#[cfg(test)]
pub(crate) fn every_odd_byte<const N: usize>(mut check: impl FnMut([u8; N])) {
    for fill in 0..=255u8 {
        for at in 0..N {
            for b in 0..=255u8 {
                let mut bytes = [fill; N];
                bytes[at] = b;
                check(bytes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`every_odd_byte`] for words: the bytes and their word.
    fn one_odd_lane(mut check: impl FnMut([u8; 8], u64)) {
        every_odd_byte(|bytes| check(bytes, u64::from_le_bytes(bytes)));
    }

    #[test]
    fn zero_lanes_flags_exactly_the_zero_lanes() {
        one_odd_lane(|bytes, w| {
            let want = bytes
                .iter()
                .rev()
                .fold(0u64, |m, &b| (m << 8) | if b == 0 { 0x80 } else { 0 });
            assert_eq!(zero_lanes(w), want, "{bytes:?}");
        });
    }

    #[test]
    fn digit_lanes_count_the_leading_digits() {
        one_odd_lane(|bytes, w| {
            let count = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            let (x, n) = digit_lanes(w);
            assert_eq!(n, count, "{bytes:?}");
            let values = x.to_le_bytes();
            assert!(
                (0..count).all(|i| values[i] == bytes[i] - b'0'),
                "{bytes:?}"
            );
            let value = bytes[..count]
                .iter()
                .fold(0, |v, &d| v * 10 + u64::from(d - b'0'));
            assert_eq!(digit_word(w), (count > 0).then_some((value, count)));
        });
    }

    /// Every value below 10^8 to its lanes and back: the two four-digit
    /// halves are computed independently, so the whole range is the test.
    #[test]
    fn digit_values_and_digits_value_agree_on_every_eight_digit_value() {
        for v in 0..100_000_000u32 {
            let lanes = digit_values(v);
            assert_eq!(digits_value(lanes), u64::from(v), "{v}");
            if v % 9_973 == 0 {
                let text = format!("{v:08}");
                assert_eq!((lanes + ZEROS).to_le_bytes(), text.as_bytes(), "{v}");
            }
        }
    }

    /// A word of the shape with every byte value at every lane in turn.
    #[test]
    fn shaped_digits_accepts_exactly_its_shape() {
        let shape = b"-00T00:0";
        for base in [*b"-19T08:7", *b"-00T00:0", *b"-99T99:9"] {
            for at in 0..8 {
                for b in 0..=255u8 {
                    let mut bytes = base;
                    bytes[at] = b;
                    let fits = bytes.iter().zip(shape).all(|(&b, &s)| match s {
                        b'0' => b.is_ascii_digit(),
                        _ => b == s,
                    });
                    let want = fits.then(|| {
                        bytes.iter().zip(shape).rev().fold(0u64, |m, (&b, &s)| {
                            (m << 8) | u64::from(if s == b'0' { b - b'0' } else { 0 })
                        })
                    });
                    let got = shaped_digits(u64::from_le_bytes(bytes), shape);
                    assert_eq!(got, want, "{bytes:?}");
                }
            }
        }
    }

    #[test]
    fn loads_are_little_endian() {
        let b = *b"0123456789";
        assert_eq!(load(&b, 2), u64::from_le_bytes(*b"23456789"));
        assert_eq!(load_half(&b, 1), u32::from_le_bytes(*b"1234"));
    }
}
