//! Short texts written straight into the output, a word at a time.
//!
//! Appending a text of run-time length costs a call to `memcpy`, which for
//! the few bytes of a number or a short string costs as much as producing
//! them. [`append`] instead grows the output by a fixed 32 bytes (stores of
//! known size), lets a [`ShortText`] write the text there in words, and
//! cuts the output back to the text's end. Nothing is staged on the stack:
//! reading a staged text back in wide loads would stall on the narrow
//! stores that built it.
//! [`digits`](crate::digits) builds numbers this way, [`escape`](crate::escape)
//! short strings.

use crate::scan;

/// Capacity of a [`ShortText`]: a quoted, signed 20-digit integer (23
/// bytes), written eight digits at a time (so up to 26), fits, and so does
/// a quoted string of [`ShortText::MAX_STR`] bytes.
const CAPACITY: usize = 32;

/// Appends the text `build` writes (at most [`CAPACITY`] bytes) to `out`.
#[inline(always)]
pub(crate) fn append(out: &mut Vec<u8>, build: impl FnOnce(&mut ShortText<'_>)) {
    let start = out.len();
    out.extend_from_slice(&[0; CAPACITY]);
    let room = out.last_chunk_mut::<CAPACITY>().expect("just appended");
    let mut text = ShortText { buf: room, len: 0 };
    build(&mut text);
    let end = start + text.len;
    out.truncate(end);
}

/// Up to [`CAPACITY`] bytes of text, written left to right into the room
/// [`append`] made.
pub(crate) struct ShortText<'a> {
    buf: &'a mut [u8; CAPACITY],
    len: usize,
}

impl ShortText<'_> {
    /// The longest string [`ShortText::bytes`] takes.
    pub(crate) const MAX_STR: usize = 16;

    /// Appends one byte.
    #[inline(always)]
    pub(crate) fn byte(&mut self, b: u8) -> &mut Self {
        self.buf[self.len] = b;
        self.len += 1;
        self
    }

    /// Appends `b` if `cond` (a sign, say), without a branch.
    #[inline(always)]
    pub(crate) fn byte_if(&mut self, b: u8, cond: bool) -> &mut Self {
        self.buf[self.len] = b;
        self.len += usize::from(cond);
        self
    }

    /// Appends the first `kept` (at most eight) little-endian bytes of `w`.
    #[inline(always)]
    pub(crate) fn word(&mut self, w: u64, kept: usize) -> &mut Self {
        self.buf[self.len..self.len + 8].copy_from_slice(&w.to_le_bytes());
        self.len += kept.min(8);
        self
    }

    /// Appends `bytes`, at most [`Self::MAX_STR`] of them, as two
    /// overlapping words (or half-words, or single bytes): constant-size
    /// moves whatever the length.
    #[inline(always)]
    pub(crate) fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        let (at, n) = (self.len, bytes.len());
        debug_assert!(n <= Self::MAX_STR);
        if n >= 8 {
            self.buf[at..at + 8].copy_from_slice(&scan::word(bytes, 0).to_le_bytes());
            let last = at + n - 8;
            self.buf[last..last + 8].copy_from_slice(&scan::word(bytes, n - 8).to_le_bytes());
        } else if n >= 4 {
            self.buf[at..at + 4].copy_from_slice(&scan::half(bytes, 0).to_le_bytes());
            let last = at + n - 4;
            self.buf[last..last + 4].copy_from_slice(&scan::half(bytes, n - 4).to_le_bytes());
        } else {
            for (i, &b) in bytes.iter().enumerate() {
                self.buf[at + i] = b;
            }
        }
        self.len = at + n;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn appended(build: impl FnOnce(&mut ShortText<'_>)) -> Vec<u8> {
        let mut out = b"<".to_vec();
        append(&mut out, build);
        out
    }

    #[test]
    fn strings_of_every_length_are_copied_exactly() {
        let source: Vec<u8> = (b'a'..=b'z').collect();
        for n in 0..=ShortText::MAX_STR {
            let got = appended(|text| {
                text.byte(b'"').bytes(&source[..n]).byte(b'"');
            });
            let want = [b"<\"", &source[..n], b"\""].concat();
            assert_eq!(got, want, "length {n}");
        }
    }

    #[test]
    fn conditional_bytes_and_words() {
        let got = appended(|text| {
            text.byte_if(b'-', false)
                .byte(b'1')
                .byte_if(b'-', true)
                .word(u64::from_le_bytes(*b".250abcd"), 3);
        });
        assert_eq!(got, b"<1-.25");
    }
}
