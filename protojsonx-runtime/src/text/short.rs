//! Short texts written straight into the output, a word at a time.
//!
//! Appending a text of run-time length costs a call to `memcpy`, which for
//! the few bytes of a number or a short string costs as much as producing
//! them. [`append`] instead reserves a fixed 32 bytes, lets a [`ShortText`]
//! write the text into that spare capacity in words (stores of known size),
//! and then extends the output's length over what was written. Nothing is
//! staged on the stack: reading a staged text back in wide loads would stall
//! on the narrow stores that built it.
//! [`digits`](crate::text::digits) builds numbers this way, [`escape`](crate::text::escape)
//! short strings, [`base64`](crate::text::base64) decoded bytes.

use std::alloc::{self, Layout};
use std::mem::MaybeUninit;

use crate::text::word;

/// Capacity of a [`ShortText`]: a quoted, signed 20-digit integer (23
/// bytes), written eight digits at a time (so up to 26), fits, and so does
/// a quoted string of [`ShortText::MAX_STR`] bytes.
pub(crate) const CAPACITY: usize = 32;

/// Where texts are appended: the output vector itself, or a writer that
/// holds the output's length in a local (the encoder's
/// [`ObjectWriter`](crate::ser::ObjectWriter)) so that consecutive writes
/// do not pass it through memory.
pub(crate) trait Sink {
    /// At least [`CAPACITY`] bytes of room after the output's end.
    fn room(&mut self) -> &mut [MaybeUninit<u8>; CAPACITY];

    /// Extends the output over `n` more bytes.
    ///
    /// # Safety
    /// The `n` bytes after the end are initialized, within the room last
    /// returned by [`room`](Self::room) (so `n <= CAPACITY`).
    unsafe fn advance(&mut self, n: usize);

    /// Runs `f` on the output as a vector of its current length: the out-of-line
    /// paths (long strings, escapes, exponents), which append as they like.
    fn vec<R>(&mut self, f: impl FnOnce(&mut Vec<u8>) -> R) -> R;
}

impl Sink for Vec<u8> {
    #[inline(always)]
    fn room(&mut self) -> &mut [MaybeUninit<u8>; CAPACITY] {
        self.reserve(CAPACITY);
        self.spare_capacity_mut()
            .first_chunk_mut::<CAPACITY>()
            .expect("reserved")
    }

    #[inline(always)]
    unsafe fn advance(&mut self, n: usize) {
        // SAFETY: the caller initialized `n` bytes of the spare capacity.
        unsafe { self.set_len(self.len() + n) };
    }

    #[inline(always)]
    fn vec<R>(&mut self, f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
        f(self)
    }
}

/// Appends the text `build` writes (at most [`CAPACITY`] bytes) to `out`.
#[inline(always)]
pub(crate) fn append<S: Sink>(out: &mut S, build: impl FnOnce(&mut ShortText<'_>)) {
    let mut text = ShortText {
        buf: out.room(),
        len: 0,
    };
    build(&mut text);
    let written = text.len;
    debug_assert!(written <= CAPACITY);
    // SAFETY: `written <= CAPACITY` fits the room, and its first `written`
    // bytes are initialized: every `ShortText` method writes bytes from
    // `len` on before it moves `len`, never past what it wrote (`word`
    // writes 8 and keeps at most 8; `spaces` writes 24 and keeps at most
    // 24; `bytes` covers all `n` with its two overlapping words or halves,
    // or byte by byte).
    unsafe { out.advance(written) };
}

/// Replaces the contents of `out` with `bytes`, keeping its memory (or, if
/// it has none, allocating exactly `bytes.len()`). Up to
/// [`ShortText::MAX_STR`] bytes are copied as two overlapping words (or
/// half-words, or single bytes), not by a call to `memcpy`: the strings of
/// most fields are that short, and for them the call costs more than the
/// copy.
#[inline(always)]
pub(crate) fn replace(out: &mut Vec<u8>, bytes: &[u8]) {
    let n = bytes.len();
    if out.capacity() == 0 {
        *out = exact(n);
    } else {
        out.clear();
        out.reserve(n);
    }
    let (from, to) = (bytes.as_ptr(), out.as_mut_ptr());
    // SAFETY: `out` has room for `n` bytes from its start (made above) and
    // does not overlap `bytes`; every store below is within `to[..n]` and
    // every load within `bytes[..n]`, and together the stores cover all `n`
    // bytes, so `out[..n]` is initialized when its length is set.
    unsafe {
        if n > ShortText::MAX_STR {
            std::ptr::copy_nonoverlapping(from, to, n);
        } else if n >= 8 {
            to.cast::<u64>().write_unaligned(word::load(bytes, 0));
            to.add(n - 8)
                .cast::<u64>()
                .write_unaligned(word::load(bytes, n - 8));
        } else if n >= 4 {
            to.cast::<u32>().write_unaligned(word::load_half(bytes, 0));
            to.add(n - 4)
                .cast::<u32>()
                .write_unaligned(word::load_half(bytes, n - 4));
        } else {
            for i in 0..n {
                to.add(i).write(*from.add(i));
            }
        }
        out.set_len(n);
    }
}

/// An empty vector with room for exactly `n` bytes, allocated in line:
/// `Vec::with_capacity` can make a call for its checks, which a length
/// already held by a slice always passes.
#[inline(always)]
fn exact(n: usize) -> Vec<u8> {
    if n == 0 {
        return Vec::new();
    }
    // SAFETY: `n`, a slice's length, is at most `isize::MAX`; alignment 1.
    let layout = unsafe { Layout::from_size_align_unchecked(n, 1) };
    // SAFETY: the layout's size is not zero.
    let ptr = unsafe { alloc::alloc(layout) };
    if ptr.is_null() {
        alloc::handle_alloc_error(layout);
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout
    // of `n` bytes; the vector is empty.
    unsafe { Vec::from_raw_parts(ptr, 0, n) }
}

/// Up to [`CAPACITY`] bytes of text, written left to right into the room
/// [`append`] made.
pub(crate) struct ShortText<'a> {
    /// The output's spare capacity; `buf[..len]` is initialized.
    buf: &'a mut [MaybeUninit<u8>; CAPACITY],
    len: usize,
}

impl ShortText<'_> {
    /// The longest string [`ShortText::bytes`] takes.
    pub(crate) const MAX_STR: usize = 16;

    /// Appends one byte.
    #[inline(always)]
    pub(crate) fn byte(&mut self, b: u8) -> &mut Self {
        self.buf[self.len].write(b);
        self.len += 1;
        self
    }

    /// Appends `b` if `cond` (a sign, say), without a branch.
    #[inline(always)]
    pub(crate) fn byte_if(&mut self, b: u8, cond: bool) -> &mut Self {
        self.buf[self.len].write(b);
        self.len += usize::from(cond);
        self
    }

    /// Appends the first `kept` (at most eight) little-endian bytes of `w`.
    #[inline(always)]
    pub(crate) fn word(&mut self, w: u64, kept: usize) -> &mut Self {
        self.put(self.len, w.to_le_bytes());
        self.len += kept.min(8);
        self
    }

    /// The most spaces [`Self::spaces`] appends.
    pub(crate) const MAX_SPACES: usize = 24;

    /// Appends `n` spaces, at most [`Self::MAX_SPACES`]: three words of
    /// spaces are stored, whatever `n`, and `n` of them kept.
    #[inline(always)]
    pub(crate) fn spaces(&mut self, n: usize) -> &mut Self {
        debug_assert!(n <= Self::MAX_SPACES);
        let at = self.len;
        for word in 0..Self::MAX_SPACES / 8 {
            self.put(at + 8 * word, [b' '; 8]);
        }
        self.len = at + n.min(Self::MAX_SPACES);
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
            self.put(at, word::load(bytes, 0).to_le_bytes());
            self.put(at + n - 8, word::load(bytes, n - 8).to_le_bytes());
        } else if n >= 4 {
            self.put(at, word::load_half(bytes, 0).to_le_bytes());
            self.put(at + n - 4, word::load_half(bytes, n - 4).to_le_bytes());
        } else {
            for (i, &b) in bytes.iter().enumerate() {
                self.buf[at + i].write(b);
            }
        }
        self.len = at + n;
        self
    }

    /// Writes `bytes` at `at` (a store of known size), leaving `len` as is.
    #[inline(always)]
    fn put<const N: usize>(&mut self, at: usize, bytes: [u8; N]) {
        self.buf[at..at + N].copy_from_slice(&bytes.map(MaybeUninit::new));
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

    #[test]
    fn spaces_of_every_count() {
        for n in 0..=ShortText::MAX_SPACES {
            let got = appended(|text| {
                text.byte(b'\n').spaces(n).byte(b'x');
            });
            assert_eq!(
                got,
                [b"<\n", &vec![b' '; n][..], b"x"].concat(),
                "{n} spaces"
            );
        }
    }

    #[test]
    fn replace_copies_every_length_into_any_memory() {
        let source: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
        for n in 0..=source.len() {
            let bytes = &source[..n];
            let mut fresh = Vec::new();
            replace(&mut fresh, bytes);
            assert_eq!(fresh, bytes, "length {n}, fresh");
            assert_eq!(fresh.capacity(), n, "length {n}: exact when fresh");
            for held in [1, n / 2, n + 7, 64] {
                let mut out = vec![b'#'; held];
                let capacity = out.capacity();
                replace(&mut out, bytes);
                assert_eq!(out, bytes, "length {n} over {held} bytes");
                if n <= capacity {
                    assert_eq!(out.capacity(), capacity, "length {n}: memory kept");
                }
            }
        }
    }
}
