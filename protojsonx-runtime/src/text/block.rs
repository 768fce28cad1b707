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
//! otherwise, stays correct. Both flag every byte on its own (a bit per
//! byte, lowest first), so the scans built on them are the same code.

pub(crate) use imp::{flags, same, words_flagged};

use super::word::{HIGHS, any_below, any_equal};

/// Non-zero iff some byte of `w` ends a plain run (see the module doc);
/// the lowest flag is exact, flags above it may be false. The word scan of
/// strings shorter than a block.
#[inline(always)]
pub(crate) fn word_flags(w: u64, ascii: bool) -> u64 {
    let special = any_equal(w, b'"') | any_equal(w, b'\\') | any_below(w, 0x20);
    special | if ascii { w & HIGHS } else { 0 }
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

    /// One bit per byte of `block`, lowest first: set where it ends a
    /// plain run (with `ascii`, also from 0x80 up).
    #[inline(always)]
    pub(crate) fn flags(block: &[u8; 16], ascii: bool) -> u32 {
        let lanes = |w| lane_mask(exact_flags(w, ascii));
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
    fn exact_flags(w: u64, ascii: bool) -> u64 {
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
    use crate::text::word::load;

    /// Whether `b` ends a plain run.
    fn ends_run(b: u8, ascii: bool) -> bool {
        b == b'"' || b == b'\\' || b < 0x20 || (ascii && b >= 0x80)
    }

    /// Every byte value at every place of a block of every filler byte,
    /// against a byte loop: the flags are exact at every byte.
    #[test]
    fn flags_and_same_are_exact_at_every_byte() {
        let pattern: [u8; 16] = *b"\n  \"x\\\x01\x80 abcdefg";
        for fill in 0..=255u8 {
            for at in 0..16 {
                for b in 0..=255u8 {
                    let mut block = [fill; 16];
                    block[at] = b;
                    for ascii in [false, true] {
                        let want = (0..16)
                            .filter(|&i| ends_run(block[i], ascii))
                            .fold(0u32, |m, i| m | 1 << i);
                        assert_eq!(flags(&block, ascii), want, "{block:?} {ascii}");
                        let (lo, hi) = (load(&block, 0), load(&block, 8));
                        assert_eq!(words_flagged(lo, hi, ascii), want != 0, "{block:?}");
                    }
                    let want = (0..16)
                        .filter(|&i| block[i] == pattern[i])
                        .fold(0u32, |m, i| m | 1 << i);
                    assert_eq!(same(&block, &pattern), want, "{block:?}");
                }
            }
        }
    }
}
