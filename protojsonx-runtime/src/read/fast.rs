//! The reader's fast paths: values and keys as encoders write them, read in
//! line or in one step from a window of the input. Each returns `None` (or
//! `false`) with nothing consumed for any other form, and the general path
//! ([`super`]) reads it.

use std::borrow::Cow;

use super::Reader;
use crate::error::Error;
use crate::text::{num, scan};

impl<'a> Reader<'a> {
    /// Moves past one space, if one is next: the space of pretty output's
    /// `": "`, before a value whose fast path does not skip whitespace.
    /// A branch, which compact JSON (no space) predicts past instead of
    /// waiting for the byte to be loaded (the optimizer keeps it one: the
    /// position it moves is stored in its body), and which pretty input
    /// predicts taken. Not a call: an out-of-line step takes the position
    /// through memory, a store and a load back on the path every value's
    /// reading waits on (guarded by `large/indented` and `otlp/indented`).
    #[inline(always)]
    pub(crate) fn skip_space(&mut self) {
        self.eat_here(b' ');
    }

    /// Consumes `true` or `false` if the input continues with it right
    /// here, whitespace not skipped; `None` (nothing consumed) otherwise.
    #[inline]
    pub(crate) fn eat_bool(&mut self) -> Option<bool> {
        if self.eat_bytes(b"true") {
            Some(true)
        } else if self.eat_bytes(b"false") {
            Some(false)
        } else {
            None
        }
    }

    /// [`next_member`](Self::next_member), then [`head`](Self::head) of the
    /// key it moved to: `None` past the closing `}`. `FIRST` is whether no
    /// member was read yet, a constant where generated code inlines this.
    /// The loop of every generated `read_json` runs it once per key. The
    /// compact forms are tested in line: `,"` after a value (or `"` first)
    /// with the eight bytes of the head in the input, whose test of length
    /// covers the quote's, and the `}` that ends the object; the rest
    /// (whitespace, the input's last bytes, errors) goes straight to
    /// [`next_member_slow`](Self::next_member_slow). One step, not
    /// `next_member` then `head`: the compact test already loads the head
    /// (guarded by `order` and the `decode_into` cases).
    #[inline(always)]
    pub(crate) fn member_head<const FIRST: bool>(&mut self) -> Result<Option<u64>, Error> {
        let pos = self.pos;
        let rest = || self.input.get(pos..);
        match self.input.get(pos) {
            Some(b',') if !FIRST => match rest().and_then(<[u8]>::first_chunk::<9>) {
                Some([_, head @ ..]) if head[0] == b'"' => {
                    self.pos = pos + 1;
                    return Ok(Some(u64::from_le_bytes(*head)));
                }
                _ => {}
            },
            Some(b'"') if FIRST => {
                if let Some(head) = rest().and_then(<[u8]>::first_chunk::<8>) {
                    return Ok(Some(u64::from_le_bytes(*head)));
                }
            }
            Some(b'}') => {
                self.pos = pos + 1;
                return Ok(None);
            }
            _ => {}
        }
        let (more, pos) = self.next_member_slow(&mut { FIRST })?;
        self.pos = pos;
        Ok(more.then(|| self.head()))
    }

    /// The eight bytes at the cursor as a little-endian word, zeros for
    /// those past the end of the input: a key's first bytes, compared with
    /// each field's in turn (see [`scan::key_head`]).
    #[inline(always)]
    pub(crate) fn head(&self) -> u64 {
        // Sliced from the cursor first: one bounds check less than
        // `get(pos..pos + 8)`, whose end could overflow.
        match self
            .input
            .get(self.pos..)
            .and_then(<[u8]>::first_chunk::<8>)
        {
            Some(bytes) => u64::from_le_bytes(*bytes),
            None => scan::key_head(&self.input[self.pos..]).0,
        }
    }

    /// At a member written compactly with exactly `key` (quotes and colon
    /// included) and a plain ASCII string (no escapes): the string, and the
    /// member's length. How the `@type` of a `google.protobuf.Any` is found
    /// without tokenizing.
    pub(crate) fn plain_string_member(&self, key: &[u8]) -> Option<(&'a str, usize)> {
        let input: &'a [u8] = self.input;
        if !input[self.pos..].starts_with(key) {
            return None;
        }
        let value = self.pos + key.len();
        if input.get(value) != Some(&b'"') {
            return None;
        }
        let text = scan::plain_ascii_prefix(input, value + 1);
        let end = value + 1 + text.len();
        (input.get(end) == Some(&b'"')).then_some((text, end + 1 - self.pos))
    }

    /// Reads a value of a fixed shape (a timestamp, a duration) in one step:
    /// `read` gets the next `N` bytes of input at the cursor (zeros past the
    /// input's end) and returns the value and the length of its text, or
    /// `None`, and then nothing is consumed: the general path takes the
    /// value over (and reports any error). Whitespace is not skipped.
    #[inline(always)]
    pub(crate) fn short_value<const N: usize, T>(
        &mut self,
        read: impl FnOnce(&[u8; N]) -> Option<(T, usize)>,
    ) -> Option<T> {
        let rest = self.input.get(self.pos..).unwrap_or_default();
        let mut padded = [0; N];
        let window = match rest.first_chunk::<N>() {
            Some(window) => window,
            None => {
                padded[..rest.len()].copy_from_slice(rest);
                &padded
            }
        };
        let (value, len) = read(window)?;
        self.pos += len;
        Some(value)
    }

    /// Moves past `n` bytes the caller has matched.
    #[inline(always)]
    pub(crate) fn advance(&mut self, n: usize) {
        self.pos += n;
    }

    /// Consumes `bytes` if the input continues with exactly them, whitespace
    /// not skipped: a literal (`true`, `null`), or a complete key as the
    /// encoder writes it, quotes and colon included (`"userId":`), the fast
    /// path of speculative key matching; any other spelling of a key
    /// (escapes, whitespace before the colon) is read by [`key`](Self::key).
    #[inline]
    pub(crate) fn eat_bytes(&mut self, bytes: &[u8]) -> bool {
        let matched = scan::starts_with(&self.input[self.pos..], bytes);
        self.eat_if(matched, bytes.len())
    }

    /// [`eat_bytes`](Self::eat_bytes) for a key of more than eight bytes
    /// whose first eight the caller matched with [`head`](Self::head).
    #[inline(always)]
    pub(crate) fn eat_key_rest(&mut self, key: &[u8]) -> bool {
        let matched = scan::rest_matches(&self.input[self.pos..], key);
        self.eat_if(matched, key.len())
    }

    /// Moves past the `len` bytes just compared if they `matched`; reports whether they did.
    #[inline(always)]
    fn eat_if(&mut self, matched: bool, len: usize) -> bool {
        if matched {
            self.pos += len;
        }
        matched
    }

    /// Consumes the first of `keys` (JSON spellings only) the input
    /// continues with, as [`eat_bytes`](Self::eat_bytes); its index and bytes.
    #[inline]
    pub(crate) fn eat_any_key<'k, K: AsRef<[u8]>>(
        &mut self,
        keys: &'k [(K, K)],
    ) -> Option<(usize, &'k [u8])> {
        keys.iter().enumerate().find_map(|(index, (json, _))| {
            let json = json.as_ref();
            self.eat_bytes(json).then_some((index, json))
        })
    }

    /// [`key`](Self::key) with a plain ASCII key right at the cursor, colon
    /// next, taken inline: the keys of maps, which no speculative match reads.
    #[inline]
    pub(crate) fn map_key(&mut self) -> Result<Cow<'a, str>, Error> {
        let at = self.pos;
        if let Some(plain) = self.plain_string() {
            if self.eat_here(b':') {
                return Ok(Cow::Borrowed(plain));
            }
            self.pos = at;
        }
        self.key()
    }

    /// The fast path of [`string`](Self::string), with no whitespace before
    /// it: a string of plain ASCII (no escapes) right at the current
    /// position, consumed; `None` (nothing consumed) for anything else.
    #[inline(always)]
    pub(crate) fn plain_string(&mut self) -> Option<&'a str> {
        let input: &'a [u8] = self.input;
        if input.get(self.pos) != Some(&b'"') {
            return None;
        }
        let start = self.pos + 1;
        let ascii = scan::plain_ascii_prefix(input, start);
        let end = start + ascii.len();
        if input.get(end) != Some(&b'"') {
            return None;
        }
        self.pos = end + 1;
        Some(ascii)
    }

    /// The fast path of number reading: if the value at the current
    /// position (after whitespace), bare or in quotes, is a number in its
    /// everyday form that fits in `T` ([`num::PlainNumber`]), consumes it
    /// and returns its value. Otherwise nothing is consumed and the general
    /// path takes over (and reports any error). Integers are first tried in
    /// one step from a window of the input (`short_at`).
    ///
    /// Inlined by force into every number field: LLVM otherwise keeps one
    /// shared copy out of line, and each field pays the call (`medium`,
    /// `large` and `order` guard it).
    #[inline(always)]
    pub(crate) fn plain_number<T: num::PlainNumber>(&mut self) -> Option<T> {
        // Most numbers have 32 bytes of input after them; those near the
        // end of the input (Small's, the last fields of any message) 16.
        let rest = self.input.get(self.pos..).unwrap_or_default();
        let short = match rest.first_chunk::<32>() {
            Some(window) => T::short_at(window),
            None => rest.first_chunk::<16>().and_then(T::short_at),
        };
        if let Some((value, len)) = short {
            self.pos += len;
            return Some(value);
        }
        self.skip_whitespace();
        let quoted = self.input.get(self.pos) == Some(&b'"');
        let start = num::past_optional(self.pos, quoted, T::QUOTED);
        let (value, len) = T::plain_at(self.input, start)?;
        let end = start + len;
        let next = self.input.get(end);
        let end = if quoted {
            (next == Some(&b'"')).then_some(end + 1)?
        } else {
            // A number ends at a delimiter; anything else is for the general path.
            next.is_none_or(|&b| num::ends_number(b)).then_some(end)?
        };
        self.pos = end;
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `member_head` moves where `next_member` does and returns the head
    /// that `head` reads there, or the same error, for every member form
    /// cut at every length (the input's last bytes take the slow path).
    #[test]
    fn member_head_is_next_member_then_head() {
        let forms = [
            ",\"key\":1}",
            ",\"a\":1}",
            ",\"longer_key\":true}",
            "\"k\":2}",
            "}",
            ",}",
            ", \"k\":1}",
            ",\n  \"k\": 1\n}",
            " }",
            "\n}",
            ",,",
            ",x",
            "x",
            "\"\"",
            ",\"",
        ];
        for form in forms {
            for len in 0..=form.len() {
                let json = &form.as_bytes()[..len];
                let expected = |first: bool| {
                    let mut r = Reader::new(json);
                    let result = r
                        .next_member(&mut { first })
                        .map(|more| more.then(|| r.head()));
                    (result.map_err(|e| e.to_string()), r.offset())
                };
                let mut r = Reader::new(json);
                let first = r.member_head::<true>().map_err(|e| e.to_string());
                assert_eq!((first, r.offset()), expected(true), "first {json:?}");
                let mut r = Reader::new(json);
                let after = r.member_head::<false>().map_err(|e| e.to_string());
                assert_eq!(
                    (after, r.offset()),
                    expected(false),
                    "after a value {json:?}"
                );
            }
        }
    }
}
