//! Block- and word-at-a-time scanning of JSON string bodies and whitespace.
//!
//! Most strings in real payloads are short runs of plain ASCII. Looking at
//! sixteen bytes per step ([`block`]) or eight ([`word`]: short strings)
//! for the few bytes that end a plain run (`"`, `\`, control characters
//! and, when reading, non-ASCII) makes scanning several times faster than a
//! byte loop, and knowing that a run is ASCII makes UTF-8 validation
//! unnecessary. `unsafe` is used to turn a prefix proven ASCII into `&str`
//! without a second pass.

use crate::text::block::{self, word_flags};
use crate::text::word::{load as word, load_half as half, splat, zero_lanes};

/// The index of the last `byte` in `bytes`, a word at a time from the
/// end: for short inputs (an `Any`'s type URL, whose message name follows
/// its last `/`), where `memrchr`'s setup costs more than the search.
pub(crate) fn last_index_of(bytes: &[u8], byte: u8) -> Option<usize> {
    let mut end = bytes.len();
    while end >= 8 {
        // Exact flags: the last match is the highest.
        let zero = zero_lanes(word(bytes, end - 8) ^ splat(byte));
        if zero != 0 {
            return Some(end - 1 - zero.leading_zeros() as usize / 8);
        }
        end -= 8;
    }
    bytes[..end].iter().rposition(|&b| b == byte)
}

/// Length of the prefix of `bytes` that a JSON string can hold unescaped:
/// no `"`, no `\`, no control character (non-ASCII bytes are fine).
#[inline]
pub(crate) fn plain_len(bytes: &[u8]) -> usize {
    run_len(bytes, false)
}

/// [`plain_len`] that also stops at the first byte from 0x80 up: the runs
/// an ASCII-only encoder copies as they stand.
#[inline]
pub(crate) fn plain_ascii_len(bytes: &[u8]) -> usize {
    run_len(bytes, true)
}

/// Whether `bytes`, at most 16 of them, need no escaping in a JSON string:
/// the check behind short strings, as two overlapping words (or halves, or
/// the bytes padded with spaces) that the copy after it loads again.
#[inline(always)]
pub(crate) fn short_is_plain(bytes: &[u8]) -> bool {
    short_is_unflagged(bytes, false)
}

/// [`short_is_plain`] that also requires ASCII: the check behind short
/// strings when the output must be ASCII only.
#[inline(always)]
pub(crate) fn short_is_plain_ascii(bytes: &[u8]) -> bool {
    short_is_unflagged(bytes, true)
}

/// Whether no byte of `bytes` (at most 16) ends a plain run (see
/// [`run_len`]): two overlapping words tested as one block, or two
/// overlapping halves as one word, or below four bytes all of them in one.
#[inline(always)]
fn short_is_unflagged(bytes: &[u8], ascii: bool) -> bool {
    let n = bytes.len();
    debug_assert!(n <= 16);
    if n >= 8 {
        !block::words_flagged(word(bytes, 0), word(bytes, n - 8), ascii)
    } else if n >= 4 {
        let w = u64::from(half(bytes, 0)) | u64::from(half(bytes, n - 4)) << 32;
        !block::words_flagged(w, w, ascii)
    } else if let Some((&last, _)) = bytes.split_last() {
        // One to three bytes: the first, middle and last (every byte, some
        // twice) in a word of spaces.
        let (first, middle) = (bytes[0], bytes[n / 2]);
        let w = u64::from_le_bytes([first, middle, last, b' ', b' ', b' ', b' ', b' ']);
        !block::words_flagged(w, w, ascii)
    } else {
        true
    }
}

/// The prefix of `input[start..]` that is plain ASCII string content, as
/// a `&str`: no `"`, no `\`, no control character and no byte from 0x80
/// up. Such a prefix is valid UTF-8 by construction, so it needs no
/// validation pass.
///
/// A run that ends within sixteen bytes (most strings) is found in line,
/// by one block test (see [`block_flags_from`]); longer runs, and inputs
/// shorter than a block, take the call.
#[inline(always)]
pub(crate) fn plain_ascii_prefix(input: &[u8], start: usize) -> &str {
    let bytes = &input[start..];
    let len = match block_flags_from(input, start, true) {
        Some(hits) if hits != 0 => hits.trailing_zeros() as usize,
        // Tested again from the start: starting after the first block
        // slows `order` and `small` more than it speeds `otlp`.
        _ => ascii_run_len(bytes),
    };
    let prefix = &bytes[..len];
    debug_assert!(prefix.is_ascii());
    // SAFETY: the block test (here) and `run_len` stop before the first
    // byte from 0x80 up. In a 16-byte block the lowest flag is that byte or
    // an earlier one ending the run: every flag below the first true one
    // would be an error, and the tests err only above one (the last block
    // overlaps tested bytes; the input's last block, shifted, is tested
    // exactly, so no byte before `start` flags one after it). Below 16
    // bytes, in `prefix_len`,
    // every byte is tested in some word (the tail word overlaps tested bytes; an
    // input of four to seven bytes is tested as two overlapping halves of
    // one word, a shorter one byte by byte in words of spaces), `w & HIGHS`
    // flags each such byte exactly at its position, and the lowest flag
    // (mapped back to its byte) is the stop. So every byte of `prefix` is
    // ASCII, and ASCII is valid UTF-8. The tests below compare the length
    // with a byte-by-byte reference for every byte value at every position.
    unsafe { std::str::from_utf8_unchecked(prefix) }
}

/// The flags ([`block::flags`]) of the sixteen bytes of `input` from
/// `start`, lowest first. Where fewer are left, those of the input's last
/// sixteen bytes shifted down to start at `start` (so a string near the
/// end of a small input is found in line too, by the exact test). `None`
/// in an input shorter than a block.
#[inline(always)]
fn block_flags_from(input: &[u8], start: usize, ascii: bool) -> Option<u32> {
    match input.get(start..).and_then(<[u8]>::first_chunk::<16>) {
        Some(block) => Some(block::flags(block, ascii)),
        None => {
            let last = input.last_chunk::<16>()?;
            // Exact flags: those of bytes before `start` must not reach it.
            Some(block::exact_flags(last, ascii) >> (start - (input.len() - 16)))
        }
    }
}

/// [`run_len`] of ASCII, out of line: [`plain_ascii_prefix`]'s long path.
#[inline(never)]
fn ascii_run_len(bytes: &[u8]) -> usize {
    run_len(bytes, true)
}

/// Length of the run of spaces that starts `bytes`, counted sixteen bytes
/// at a time: the rest of the indentation of a line of pretty-printed JSON
/// nested more than fifteen levels deep. `None` when the run reaches the
/// last sixteen bytes, which are left to the caller's general path: no
/// byte loop here.
#[inline(always)]
pub(crate) fn spaces_len(bytes: &[u8]) -> Option<usize> {
    first_flag_in_blocks(bytes, non_spaces).ok()
}

/// Where the line break and indentation that start `bytes` end: the
/// offset of the first byte after them (1 + the number of spaces), found
/// in two compares without a loop. 0 when `bytes` does not start with a
/// line break; 32 when all of it is the line break and spaces, and the run
/// may go on ([`spaces_len`] continues it after the 32 bytes tested).
#[inline(always)]
pub(crate) fn line_indent_end(bytes: &[u8; 32]) -> usize {
    let (start, rest) = bytes.split_at(16);
    let line_start = block::same(start.try_into().expect("16 bytes"), &LINE_START)
        | block::same(rest.try_into().expect("16 bytes"), &SPACES) << 16;
    // The first byte that differs; 32 when both blocks are a line start.
    line_start.trailing_ones() as usize
}

/// The scan of whole 16-byte blocks behind [`spaces_len`] and [`run_len`]:
/// `Ok` with the index of the first byte `flags` marks (one bit per byte of
/// a block, lowest first, none before the first true hit), or `Err` with
/// the length scanned, where fewer than 16 bytes are left.
#[inline(always)]
fn first_flag_in_blocks(bytes: &[u8], flags: impl Fn(&[u8; 16]) -> u32) -> Result<usize, usize> {
    let mut i = 0;
    while let Some(block) = bytes.get(i..i + 16) {
        let hits = flags(block.try_into().expect("16 bytes"));
        if hits != 0 {
            return Ok(i + hits.trailing_zeros() as usize);
        }
        i += 16;
    }
    Err(i)
}

/// Sixteen spaces: a block of indentation.
const SPACES: [u8; 16] = [b' '; 16];

/// A line break and fifteen spaces: the start of an indented line.
const LINE_START: [u8; 16] = *b"\n               ";

/// One bit per byte of `chunk`, lowest first: set where it is not a space.
#[inline(always)]
fn non_spaces(chunk: &[u8; 16]) -> u32 {
    differs(chunk, &SPACES)
}

/// One bit per byte of `chunk`, lowest first: set where it differs from
/// the byte of `pattern` at the same place.
#[inline(always)]
fn differs(chunk: &[u8; 16], pattern: &[u8; 16]) -> u32 {
    !block::same(chunk, pattern) & 0xffff
}

/// The first eight bytes of `key` as a little-endian word (zeros past its
/// end) and the mask of those that are its own: with a key's bytes known
/// at compile time, two constants. Compared with [`Reader::head`], the
/// word at the cursor, one such pair tells whether a key of up to eight
/// bytes is next.
///
/// [`Reader::head`]: crate::read::Reader::head
#[inline(always)]
pub(crate) fn key_head(key: &[u8]) -> (u64, u64) {
    let n = key.len().min(8);
    let mut w = [0u8; 8];
    w[..n].copy_from_slice(&key[..n]);
    let mask = u64::MAX.checked_shr(64 - 8 * n as u32).unwrap_or(0);
    (u64::from_le_bytes(w), mask)
}

/// Whether `hay` starts with `key`, compared a word at a time: the
/// speculative match of an object key, where `key` is a short literal
/// (`"id":`, at least four bytes in practice) and a call to `memcmp` would
/// cost more than the comparison.
#[inline(always)]
pub(crate) fn starts_with(hay: &[u8], key: &[u8]) -> bool {
    let n = key.len();
    if hay.len() < n {
        return false;
    }
    if n >= 8 {
        words_match_from(hay, key, 0)
    } else if n >= 4 {
        half(hay, 0) == half(key, 0) && half(hay, n - 4) == half(key, n - 4)
    } else {
        hay[..n] == *key
    }
}

/// [`starts_with`] for a key of more than eight bytes whose first eight
/// are known to match already (by the [`key_head`] word): only the rest is
/// compared, in one overlapping word up to sixteen bytes.
#[inline(always)]
pub(crate) fn rest_matches(hay: &[u8], key: &[u8]) -> bool {
    debug_assert!(key.len() > 8);
    hay.len() >= key.len() && words_match_from(hay, key, 8)
}

/// Whether `hay` (no shorter than `key`, which has eight bytes or more)
/// holds `key`'s bytes from `i` on: whole words, then the last eight bytes,
/// overlapping what matched.
#[inline(always)]
fn words_match_from(hay: &[u8], key: &[u8], mut i: usize) -> bool {
    let n = key.len();
    while i + 8 < n {
        if word(hay, i) != word(key, i) {
            return false;
        }
        i += 8;
    }
    word(hay, n - 8) == word(key, n - 8)
}

/// Length of the plain run that starts `bytes`: before the first `"`, `\`
/// or control character, or with `ascii` byte from 0x80 up. Sixteen bytes
/// at a time ([`block::flags`]) while they fit, the last sixteen overlapping
/// bytes already tested; inputs shorter than that go through the word scan.
#[inline(always)]
fn run_len(bytes: &[u8], ascii: bool) -> usize {
    let len = bytes.len();
    if len < 16 {
        return prefix_len(bytes, ascii);
    }
    match first_flag_in_blocks(bytes, |block| block::flags(block, ascii)) {
        Ok(at) => return at,
        Err(scanned) if scanned == len => return len,
        Err(_) => {}
    }
    // The bytes scanned are plain, so the lowest flag of the last block
    // (which overlaps them) is exact.
    match block::flags(bytes[len - 16..].try_into().expect("16 bytes"), ascii) {
        0 => len,
        hits => len - 16 + hits.trailing_zeros() as usize,
    }
}

/// The word scan, for inputs shorter than a block ([`run_len`]):
/// whole words while they fit, where the lowest flagged byte of the first
/// flagged word is exact (the bit tricks only err above a true hit). The tail is one more word: the last eight
/// bytes, overlapping bytes already known to be plain (which raise no flag);
/// inputs shorter than a word are tested as two overlapping halves, or a
/// byte at a time below four bytes.
#[inline(always)]
fn prefix_len(bytes: &[u8], ascii: bool) -> usize {
    let flags = |w| word_flags(w, ascii);
    let len = bytes.len();
    let mut i = 0;
    while i + 8 <= len {
        let hits = flags(word(bytes, i));
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    if i == len {
        return len;
    }
    if len >= 8 {
        return match flags(word(bytes, len - 8)) {
            0 => len,
            hits => len - 8 + (hits.trailing_zeros() / 8) as usize,
        };
    }
    if len >= 4 {
        // Four to seven bytes: the first four and the last four (which may
        // overlap them) side by side in one word. A flag in the low half is
        // exact; the high half counts only if the low half had none.
        let low_high = u64::from(half(bytes, 0)) | u64::from(half(bytes, len - 4)) << 32;
        return match flags(low_high) {
            0 => len,
            hits => match (hits.trailing_zeros() / 8) as usize {
                low @ 0..4 => low,
                high => len + high - 8,
            },
        };
    }
    // Fewer than four bytes: each one alone in a word of spaces.
    let spaces = u64::from_le_bytes([b' '; 8]) & !0xff;
    bytes
        .iter()
        .position(|&b| flags(spaces | u64::from(b)) != 0)
        .unwrap_or(len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// Whether `b` ends a plain run when writing, byte by byte.
    fn is_special(b: u8) -> bool {
        b == b'"' || b == b'\\' || b < 0x20
    }

    fn slow_plain_len(bytes: &[u8]) -> usize {
        bytes
            .iter()
            .position(|&b| is_special(b))
            .unwrap_or(bytes.len())
    }

    fn slow_plain_ascii_len(bytes: &[u8]) -> usize {
        bytes
            .iter()
            .position(|&b| is_special(b) || b >= 0x80)
            .unwrap_or(bytes.len())
    }

    /// `plain_ascii_prefix` from each of `starts` (those within `bytes`)
    /// against a byte loop.
    fn check_ascii_prefix(bytes: &[u8], starts: &[usize]) {
        for &start in starts.iter().filter(|&&s| s <= bytes.len()) {
            let rest = &bytes[start..];
            let want = slow_plain_ascii_len(rest);
            let prefix = plain_ascii_prefix(bytes, start);
            assert_eq!(prefix.as_bytes(), &rest[..want], "{bytes:?} from {start}");
            assert!(prefix.is_ascii());
        }
    }

    #[test]
    fn every_byte_at_every_position_of_a_word() {
        for len in 0..52 {
            for pos in 0..len {
                for b in 0..=255u8 {
                    let mut bytes = vec![b'a'; len];
                    bytes[pos] = b;
                    assert_eq!(plain_len(&bytes), slow_plain_len(&bytes), "{bytes:?}");
                    let ascii_len = slow_plain_ascii_len(&bytes);
                    assert_eq!(plain_ascii_len(&bytes), ascii_len, "{bytes:?}");
                    if len <= 16 {
                        assert_eq!(short_is_plain(&bytes), !is_special(b), "{bytes:?}");
                        let ascii = !is_special(b) && b < 0x80;
                        assert_eq!(short_is_plain_ascii(&bytes), ascii, "{bytes:?}");
                    }
                    // From the start, at the byte, and just after it (a
                    // flag before the start must not count).
                    check_ascii_prefix(&bytes, &[0, pos, pos + 1]);
                }
            }
        }
    }

    /// Every filler byte around one or two of the byte sought, at every
    /// position of inputs up to five words long: a filler of the sought
    /// byte `^ 1` is what a borrowing zero test would flag wrongly.
    #[test]
    fn last_index_of_agrees_with_rposition() {
        for len in 0..40 {
            for fill in 0..=255u8 {
                for pos in 0..len {
                    for second in [None, Some(0), Some(pos / 2), Some(len - 1)] {
                        let mut bytes = vec![fill; len];
                        bytes[pos] = b'/';
                        if let Some(at) = second {
                            bytes[at] = b'/';
                        }
                        let want = bytes.iter().rposition(|&b| b == b'/');
                        assert_eq!(last_index_of(&bytes, b'/'), want, "{bytes:?}");
                    }
                }
                let bytes = vec![fill; len];
                let want = bytes.iter().rposition(|&b| b == b'/');
                assert_eq!(last_index_of(&bytes, b'/'), want, "{bytes:?}");
            }
        }
    }

    #[test]
    fn random_inputs_agree_with_the_byte_loop() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let state = rng.next();
            let len = (state % 40) as usize;
            // Mostly plain bytes, with a few of every kind mixed in.
            let bytes: Vec<u8> = (0..len)
                .map(|k| {
                    let r = state.rotate_left(k as u32 * 5) as u8;
                    if r % 7 == 0 { r } else { b'a' + r % 26 }
                })
                .collect();
            assert_eq!(plain_len(&bytes), slow_plain_len(&bytes), "{bytes:?}");
            assert_eq!(
                plain_ascii_len(&bytes),
                slow_plain_ascii_len(&bytes),
                "{bytes:?}"
            );
            check_ascii_prefix(&bytes, &[0, len / 2, len.saturating_sub(3)]);
        }
    }

    #[test]
    fn spaces_len_agrees_with_the_byte_loop() {
        for len in 0..40 {
            for pos in 0..=len {
                for b in 0..=255u8 {
                    let mut bytes = vec![b' '; len];
                    if pos < len {
                        bytes[pos] = b;
                    }
                    let want = bytes.iter().position(|&b| b != b' ').unwrap_or(len);
                    // Counted when a whole block ends after the run.
                    let counted = want / 16 * 16 + 16 <= len;
                    assert_eq!(spaces_len(&bytes), counted.then_some(want), "{bytes:?}");
                }
            }
        }
    }

    #[test]
    fn line_indent_end_agrees_with_the_byte_loop() {
        for pos in 0..32 {
            for b in 0..=255u8 {
                let mut bytes = [b' '; 32];
                bytes[0] = b'\n';
                bytes[pos] = b;
                let want = match bytes[0] {
                    b'\n' => bytes
                        .iter()
                        .skip(1)
                        .position(|&b| b != b' ')
                        .map_or(32, |run| run + 1),
                    _ => 0,
                };
                assert_eq!(line_indent_end(&bytes), want, "{bytes:?}");
            }
        }
    }

    #[test]
    fn starts_with_agrees_with_the_slice_method() {
        let hay = b"\"eventType\":\"login\",\"a\":1";
        for len in 0..hay.len() {
            let key = &hay[..len];
            assert!(starts_with(hay, key), "{key:?}");
            for pos in 0..len {
                for b in [0u8, b'x', b'"', 0xff] {
                    let mut other = key.to_vec();
                    other[pos] ^= b | 1;
                    assert_eq!(
                        starts_with(hay, &other),
                        hay.starts_with(&other),
                        "{other:?}"
                    );
                }
            }
            // A key longer than what is left never matches.
            assert!(!starts_with(&hay[..len], &hay[..len + 1]));
        }
    }

    /// Given inputs whose first eight bytes are the key's, `rest_matches`
    /// tells the keys they start with from those they do not, for keys of
    /// nine to forty bytes and a difference in any byte after the eighth.
    #[test]
    fn rest_matches_agrees_with_the_slice_method_past_the_head() {
        let text = b"\"aVeryLongFieldNameIndeed_withMore\":12,";
        for len in 9..=text.len() - 3 {
            let key = &text[..len];
            assert!(rest_matches(text, key), "{key:?}");
            assert!(!rest_matches(&text[..len - 1], key), "input too short");
            for pos in 8..len {
                let mut input = text.to_vec();
                input[pos] ^= 0x20;
                assert_eq!(
                    rest_matches(&input, key),
                    input.starts_with(key),
                    "key {key:?} differs at {pos}"
                );
            }
        }
    }

    /// The word of a key's first bytes, masked, tells whether the input at
    /// the cursor starts with them: for keys of every length up to twelve
    /// bytes, against inputs that match, differ in any one byte, or end
    /// early (the cursor's word is then zero-padded, as `Reader::head` has it).
    #[test]
    fn key_head_matches_exactly_the_inputs_that_start_with_the_key() {
        let text = b"\"customerId\":";
        for len in 0..=12 {
            let key = &text[..len];
            let (word, mask) = key_head(key);
            let n = len.min(8);
            for input_len in 0..=text.len() {
                for pos in 0..=input_len {
                    let mut input = text[..input_len].to_vec();
                    if let Some(b) = input.get_mut(pos) {
                        *b ^= 0x20;
                    }
                    let head = key_head(&input).0;
                    assert_eq!(
                        head & mask == word,
                        input.starts_with(&key[..n]),
                        "key {key:?} input {input:?}"
                    );
                }
            }
        }
    }
}
