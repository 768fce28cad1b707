//! The tests [`scan`](super::scan) runs on sixteen bytes at a time, and on
//! a word: which bytes end a plain string run (`"`, `\`, a control
//! character and, for ASCII-only runs, any byte from 0x80 up), and which
//! bytes equal a pattern's (indentation).
//!
//! On x86_64 a block is one SSE2 register (SSE2 is part of every x86_64
//! CPU: no detection at run time). Elsewhere (aarch64, wasm, ...), and on
//! x86_64 built with `--cfg protojsonx_portable`, a block is two words
//! tested with the [`word`](super::word) primitives. CI runs the runtime's
//! tests both ways, so the portable half, which no x86_64 build compiles
//! otherwise, stays correct. Masks have a bit per byte, lowest first; SSE2
//! flags every byte on its own, the portable [`flags`] only the first (what
//! a scan needs, with no multiplication in its loop), and
//! [`exact_flags`] every byte, for the one test whose earlier bytes must not
//! count.

pub(crate) use imp::{exact_flags, flags, same, words_flagged};

use super::word::{HIGHS, ONES, splat};

/// Non-zero iff some byte of `w` ends a plain run (see the module doc);
/// the lowest flag is exact, flags above it may be false. The word scan of
/// strings shorter than a block, and the portable block test.
///
/// A lane below 0x80 sets its high bit when 0x20 is subtracted if it is a
/// control character, and when 1 is subtracted from it `^ '"'` or `^ '\\'`
/// if it is that byte; lanes from 0x80 up are masked out by `!w` (a lane of
/// `w ^ c`, `c` below 0x80, has the same high bit as in `w`). A lane that
/// borrows may flag the lane above it too: only the lowest flag is exact.
#[inline(always)]
pub(crate) fn word_flags(w: u64, ascii: bool) -> u64 {
    let borrows = w.wrapping_sub(splat(0x20))
        | (w ^ splat(b'"')).wrapping_sub(ONES)
        | (w ^ splat(b'\\')).wrapping_sub(ONES);
    // A lane from 0x80 up is flagged with `ascii` (`| w`), never without (`& !w`).
    let lanes = if ascii { borrows | w } else { borrows & !w };
    lanes & HIGHS
}

/// SSE2: one register per block.
#[cfg(all(target_arch = "x86_64", not(protojsonx_portable)))]
mod imp {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set_epi64x, _mm_set1_epi8,
    };

    /// One bit per byte of `block`, lowest first: set where it ends a
    /// plain run (with `ascii`, also from 0x80 up).
    #[inline(always)]
    pub(crate) fn flags(block: &[u8; 16], ascii: bool) -> u32 {
        // SAFETY: SSE2 is part of x86_64, and the load reads the 16 bytes of `block`.
        let v = unsafe { _mm_loadu_si128(block.as_ptr().cast()) };
        register_flags(v, ascii)
    }

    /// [`flags`], which SSE2 makes exact at every byte.
    #[inline(always)]
    pub(crate) fn exact_flags(block: &[u8; 16], ascii: bool) -> u32 {
        flags(block, ascii)
    }

    /// Whether some byte of the block `lo` then `hi` (little-endian words)
    /// ends a plain run: short strings' two overlapping words tested in one
    /// go, put together in a register.
    #[inline(always)]
    pub(crate) fn words_flagged(lo: u64, hi: u64, ascii: bool) -> bool {
        // SAFETY: SSE2 is part of x86_64; no memory is touched.
        let v = unsafe { _mm_set_epi64x(hi as i64, lo as i64) };
        register_flags(v, ascii) != 0
    }

    /// One bit per byte of `chunk`, lowest first: set where it equals the
    /// byte of `pattern` at the same place; the upper sixteen bits clear.
    #[inline(always)]
    pub(crate) fn same(chunk: &[u8; 16], pattern: &[u8; 16]) -> u32 {
        // SAFETY: SSE2 is part of x86_64; the loads read the 16 bytes of
        // `chunk` and of `pattern`.
        let same = unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            let want = _mm_loadu_si128(pattern.as_ptr().cast());
            _mm_movemask_epi8(_mm_cmpeq_epi8(v, want))
        };
        same as u32
    }

    /// [`flags`] of the bytes in `v`.
    #[inline(always)]
    fn register_flags(v: __m128i, ascii: bool) -> u32 {
        // SAFETY: SSE2 is part of x86_64; no memory is touched.
        unsafe {
            let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
            let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
            // Below 0x20: unchanged by an unsigned minimum with 0x1f.
            let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
            let special = _mm_or_si128(_mm_or_si128(quote, backslash), control);
            let high = if ascii { _mm_movemask_epi8(v) } else { 0 };
            (_mm_movemask_epi8(special) | high) as u32
        }
    }
}

/// Portable: two words per block.
#[cfg(not(all(target_arch = "x86_64", not(protojsonx_portable))))]
mod imp {
    use crate::text::word::{HIGHS, LOW7, load, splat, zero_lanes};

    /// One bit per byte of `block`, lowest first, set at its first byte
    /// that ends a plain run (with `ascii`, also from 0x80 up), and at none
    /// before it: the cheaper word tests, whose lowest flag is exact, and no
    /// multiplication unless a byte is flagged.
    #[inline(always)]
    pub(crate) fn flags(block: &[u8; 16], ascii: bool) -> u32 {
        let (first, second) = (load(block, 0), load(block, 8));
        match (
            super::word_flags(first, ascii),
            super::word_flags(second, ascii),
        ) {
            (0, 0) => 0,
            (0, high) => 1 << (8 + high.trailing_zeros() / 8),
            (low, _) => 1 << (low.trailing_zeros() / 8),
        }
    }

    /// One bit per byte of `block`, lowest first: set where it ends a
    /// plain run (with `ascii`, also from 0x80 up), exactly.
    #[inline(always)]
    pub(crate) fn exact_flags(block: &[u8; 16], ascii: bool) -> u32 {
        let lanes = |w| lane_mask(exact_word_flags(w, ascii));
        lanes(load(block, 0)) | lanes(load(block, 8)) << 8
    }

    /// Whether some byte of the block `lo` then `hi` (little-endian words)
    /// ends a plain run: short strings' two overlapping words.
    #[inline(always)]
    pub(crate) fn words_flagged(lo: u64, hi: u64, ascii: bool) -> bool {
        super::word_flags(lo, ascii) | super::word_flags(hi, ascii) != 0
    }

    /// One bit per byte of `chunk`, lowest first: set where it equals the
    /// byte of `pattern` at the same place; the upper sixteen bits clear.
    #[inline(always)]
    pub(crate) fn same(chunk: &[u8; 16], pattern: &[u8; 16]) -> u32 {
        let lanes = |at| lane_mask(zero_lanes(load(chunk, at) ^ load(pattern, at)));
        lanes(0) | lanes(8) << 8
    }

    /// The high bit of exactly the bytes of `w` that end a plain run: the
    /// exact tests (`zero_lanes`), so that a flag before a scan's start
    /// cannot raise one after it.
    #[inline(always)]
    fn exact_word_flags(w: u64, ascii: bool) -> u64 {
        let quote = zero_lanes(w ^ splat(b'"'));
        let backslash = zero_lanes(w ^ splat(b'\\'));
        // Below 0x20: none of the top three bits set.
        let control = zero_lanes(w & splat(0xe0));
        quote | backslash | control | if ascii { w & HIGHS } else { 0 }
    }

    /// One bit per lane of `flags` (a word whose lanes are each `0x80` or
    /// `0x00`), lowest lane first: SSE2's `movemask` in a multiplication. The
    /// lanes' bits, moved to the bottom of each lane, are gathered into the top
    /// byte by shifted copies that never collide, so nothing carries into it.
    #[inline(always)]
    fn lane_mask(flags: u64) -> u32 {
        debug_assert_eq!(flags & LOW7, 0);
        ((flags >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn lane_mask_gathers_every_combination_of_high_bits() {
            for mask in 0..=255u32 {
                let flags = (0..8)
                    .filter(|i| mask >> i & 1 == 1)
                    .fold(0u64, |w, i| w | 0x80 << (8 * i));
                assert_eq!(lane_mask(flags), mask, "{flags:#x}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::word::{every_odd_byte, load};

    /// Whether `b` ends a plain run.
    fn ends_run(b: u8, ascii: bool) -> bool {
        b == b'"' || b == b'\\' || b < 0x20 || (ascii && b >= 0x80)
    }

    /// Every byte value at every lane of a word of every filler byte: the
    /// lowest flag is the first byte that ends a plain run.
    #[test]
    fn word_flags_flags_the_first_byte_exactly() {
        every_odd_byte(|bytes: [u8; 8]| {
            for ascii in [false, true] {
                let want = bytes.iter().position(|&b| ends_run(b, ascii)).unwrap_or(8);
                let flags = word_flags(u64::from_le_bytes(bytes), ascii);
                assert_eq!(flags.trailing_zeros() as usize / 8, want, "{bytes:?}");
                assert_eq!(flags & !HIGHS, 0, "{bytes:?}");
            }
        });
    }

    /// Every byte value at every place of a block of every filler byte,
    /// against a byte loop: `exact_flags` and `same` are exact at every
    /// byte, `flags` at the first.
    #[test]
    fn flags_and_same_agree_with_the_byte_loop() {
        let pattern: [u8; 16] = *b"\n  \"x\\\x01\x80 abcdefg";
        every_odd_byte(|block: [u8; 16]| {
            for ascii in [false, true] {
                let want = (0..16)
                    .filter(|&i| ends_run(block[i], ascii))
                    .fold(0u32, |m, i| m | 1 << i);
                assert_eq!(exact_flags(&block, ascii), want, "{block:?} {ascii}");
                let first = flags(&block, ascii);
                assert_eq!(first.trailing_zeros(), want.trailing_zeros(), "{block:?}");
                let (lo, hi) = (load(&block, 0), load(&block, 8));
                assert_eq!(words_flagged(lo, hi, ascii), want != 0, "{block:?}");
            }
            let want = (0..16)
                .filter(|&i| block[i] == pattern[i])
                .fold(0u32, |m, i| m | 1 << i);
            assert_eq!(same(&block, &pattern), want, "{block:?}");
        });
    }
}
