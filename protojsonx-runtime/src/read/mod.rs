//! A strict RFC 8259 pull tokenizer over a byte slice.
//!
//! The reader knows JSON and nothing about protobuf: it hands out object keys,
//! strings (borrowed from the input when they hold no escapes), number texts and
//! literals, and reports errors with the byte offset where they happen. Nesting
//! depth is tracked by the [`Decoder`](crate::de::Decoder) above it.
//!
//! Three tiers, each in its own file, over one cursor ([`Reader`]):
//!
//! - this file, the general path: any JSON, any whitespace, every error;
//! - [`fast`]: values and keys as encoders write them (compact, plain ASCII
//!   strings, numbers in their everyday form), read in line or in one step
//!   from a window of the input, each `None` or `false` for anything else,
//!   with nothing consumed, so that the general path takes over;
//! - [`pretty`]: pretty-printed input's line breaks and indentation, predicted
//!   from the lines before, in front of the general path's whitespace.
//!
//! The fast and pretty paths must read exactly what the general path reads:
//! the tests here, the property test `general_paths_agree` (the robustness
//! crate) and the decode fuzz targets hold them to it.

use std::borrow::Cow;

use crate::error::{Error, ErrorKind};
use crate::text::{num, scan};

mod fast;
mod pretty;

use pretty::Indent;

/// The JSON value that starts at the current position, by its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Peek {
    Object,
    Array,
    String,
    Number,
    True,
    False,
    Null,
    /// A byte that cannot start a JSON value.
    Invalid(u8),
    /// The input has ended.
    End,
}

impl Peek {
    /// How the value is named in "expected X, found Y" messages.
    pub(crate) fn describe(self) -> String {
        match self {
            Peek::Object => "object".into(),
            Peek::Array => "array".into(),
            Peek::String => "string".into(),
            Peek::Number => "number".into(),
            Peek::True | Peek::False => "boolean".into(),
            Peek::Null => "null".into(),
            Peek::Invalid(b) => format!("invalid character {}", describe_byte(b)),
            Peek::End => "end of input".into(),
        }
    }
}

/// Whether `b` is JSON whitespace.
#[inline(always)]
pub(crate) fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

/// Whether an array element can start with `b` where one is due: anything
/// but whitespace, `,` and `]` (what follows is the value reader's to check).
#[inline(always)]
fn starts_element(b: u8) -> bool {
    !is_whitespace(b) && !matches!(b, b']' | b',')
}

/// Quotes a byte for an error message: printable ASCII as `'x'`, anything else in hex.
pub(crate) fn describe_byte(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

/// The tokenizer: the input and the position of the next unread byte.
/// Cloning it gives an independent cursor, to look ahead.
#[derive(Clone)]
pub(crate) struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
    /// Pretty-printed input's indentation, to predict the next line's.
    indent: Indent,
}

impl<'a> Reader<'a> {
    /// Starts reading at the beginning of `input`.
    pub(crate) fn new(input: &'a [u8]) -> Self {
        Reader {
            input,
            pos: 0,
            indent: Indent::START,
        }
    }

    /// Builds an error located at byte `offset`.
    #[cold]
    pub(crate) fn error_at(&self, offset: usize, kind: ErrorKind, message: String) -> Error {
        Error::new(kind, message, self.input, offset)
    }

    /// Builds an error located at the current position.
    #[cold]
    pub(crate) fn error(&self, kind: ErrorKind, message: String) -> Error {
        self.error_at(self.pos, kind, message)
    }

    /// A syntax error at the current position: "expected X, found Y".
    #[cold]
    fn unexpected(&mut self, expected: &str) -> Error {
        let found = self.peek();
        let kind = if found == Peek::End {
            ErrorKind::Eof
        } else {
            ErrorKind::Syntax
        };
        self.error(
            kind,
            format!("expected {expected}, found {}", found.describe()),
        )
    }

    /// The current byte offset.
    pub(crate) fn offset(&self) -> usize {
        self.pos
    }

    #[inline]
    fn skip_whitespace(&mut self) {
        while let Some(&b) = self.input.get(self.pos) {
            if !is_whitespace(b) {
                break;
            }
            self.pos += 1;
        }
    }

    /// Skips whitespace and classifies the value that starts next.
    #[inline]
    pub(crate) fn peek(&mut self) -> Peek {
        self.skip_whitespace();
        match self.input.get(self.pos) {
            None => Peek::End,
            Some(b'{') => Peek::Object,
            Some(b'[') => Peek::Array,
            Some(b'"') => Peek::String,
            Some(b'-' | b'0'..=b'9') => Peek::Number,
            Some(b't') => Peek::True,
            Some(b'f') => Peek::False,
            Some(b'n') => Peek::Null,
            Some(&b) => Peek::Invalid(b),
        }
    }

    /// Consumes `byte` (after whitespace) if it is next; reports whether it was.
    #[inline]
    fn eat(&mut self, byte: u8) -> bool {
        self.skip_whitespace();
        self.eat_here(byte)
    }

    /// Consumes `byte` if it is the very next byte, whitespace not skipped:
    /// the fast path of compact JSON, with the general path as fallback.
    #[inline]
    pub(crate) fn eat_here(&mut self, byte: u8) -> bool {
        if self.input.get(self.pos) == Some(&byte) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Consumes the `{` that opens an object.
    #[inline]
    pub(crate) fn begin_object(&mut self) -> Result<(), Error> {
        if self.eat(b'{') {
            Ok(())
        } else {
            Err(self.unexpected("object"))
        }
    }

    /// Reads the next key of an object and its `:`; `None` after the closing `}`.
    /// `first` is the caller's per-object state: true until the first member was read.
    #[inline]
    pub(crate) fn next_key(&mut self, first: &mut bool) -> Result<Option<Cow<'a, str>>, Error> {
        if !self.next_member(first)? {
            return Ok(None);
        }
        self.key().map(Some)
    }

    /// Moves to the next member of an object: past the `,` that separates it
    /// from the previous one, to the first byte of its key. False after the
    /// closing `}`. `first` is as for [`next_key`](Self::next_key).
    #[inline]
    pub(crate) fn next_member(&mut self, first: &mut bool) -> Result<bool, Error> {
        // Compact JSON: `,"` between members, `"` first, `}` at the end.
        // Every path gives the new position as a value, stored once below:
        // the key match that follows reads it from a register, not back
        // from memory.
        let (more, pos) = match self.input.get(self.pos) {
            Some(b',') if !*first && self.input.get(self.pos + 1) == Some(&b'"') => {
                (true, self.pos + 1)
            }
            Some(b'"') if *first => {
                *first = false;
                (true, self.pos)
            }
            Some(b'}') => (false, self.pos + 1),
            _ => self.next_member_slow(first)?,
        };
        self.pos = pos;
        Ok(more)
    }

    /// [`next_member`](Self::next_member) with any whitespace, and its
    /// errors; `first` as there, by value (the caller clears its own after
    /// a member), so that no caller keeps it in memory for this call.
    #[cold]
    #[inline(never)]
    fn next_member_general(&mut self, first: bool) -> Result<bool, Error> {
        if self.eat(b'}') {
            return Ok(false);
        }
        if !first {
            if !self.eat(b',') {
                return Err(self.unexpected("',' or '}'"));
            }
            self.skip_whitespace();
            if self.input.get(self.pos) == Some(&b'}') {
                return Err(self.trailing_comma());
            }
        }
        self.skip_whitespace();
        Ok(true)
    }

    /// Reads the string at offset `at` (again), leaving this reader where it is.
    pub(crate) fn string_at(&self, at: usize) -> Result<Cow<'a, str>, Error> {
        Reader {
            pos: at,
            ..self.clone()
        }
        .string()
    }

    /// Reads an object key and the `:` after it, at the start of a member.
    pub(crate) fn key(&mut self) -> Result<Cow<'a, str>, Error> {
        if self.peek() != Peek::String {
            return Err(self.unexpected("string key"));
        }
        let key = self.string()?;
        if !self.eat(b':') {
            return Err(self.unexpected("':'"));
        }
        Ok(key)
    }

    #[cold]
    fn trailing_comma(&self) -> Error {
        self.error(ErrorKind::Syntax, "trailing comma".into())
    }

    /// Consumes the `[` that opens an array.
    #[inline]
    pub(crate) fn begin_array(&mut self) -> Result<(), Error> {
        if self.eat(b'[') {
            Ok(())
        } else {
            Err(self.unexpected("array"))
        }
    }

    /// Moves to the next element of an array: true if one follows, false after the closing `]`.
    #[inline]
    pub(crate) fn next_element(&mut self, first: &mut bool) -> Result<bool, Error> {
        // Compact JSON: `,` then a value between elements, `]` at the end.
        let value_at = |at: usize| self.input.get(at).is_some_and(|&b| starts_element(b));
        match self.input.get(self.pos) {
            Some(b',') if !*first && value_at(self.pos + 1) => {
                self.pos += 1;
                return Ok(true);
            }
            Some(b']') => {
                self.pos += 1;
                *first = false;
                return Ok(false);
            }
            _ if *first && value_at(self.pos) => {
                *first = false;
                return Ok(true);
            }
            _ => {}
        }
        self.next_element_slow(first)
    }

    /// [`next_element`](Self::next_element) with any whitespace, and its errors.
    #[cold]
    #[inline(never)]
    fn next_element_general(&mut self, first: &mut bool) -> Result<bool, Error> {
        let was_first = *first;
        *first = false;
        if self.eat(b']') {
            return Ok(false);
        }
        if !was_first && !self.eat(b',') {
            return Err(self.unexpected("',' or ']'"));
        }
        if !was_first && self.peek() == Peek::Invalid(b']') {
            return Err(self.trailing_comma());
        }
        Ok(true)
    }

    /// Reads a string value, unescaped and UTF-8 validated; borrowed when it has no escapes.
    /// The common case, plain ASCII up to the closing quote, is inlined.
    #[inline(always)]
    pub(crate) fn string(&mut self) -> Result<Cow<'a, str>, Error> {
        self.skip_whitespace();
        match self.plain_string() {
            Some(plain) => Ok(Cow::Borrowed(plain)),
            None => self.string_slow(),
        }
    }

    /// [`string`](Self::string) for the rest: not a string, non-ASCII
    /// (validated), escapes (decoded), or malformed. Reads any string at
    /// the current position (after whitespace), plain ones included.
    #[inline(never)]
    pub(crate) fn string_slow(&mut self) -> Result<Cow<'a, str>, Error> {
        if self.input.get(self.pos) != Some(&b'"') {
            return Err(self.unexpected("string"));
        }
        let start = self.pos + 1;
        let end = start + scan::plain_len(&self.input[start..]);
        if self.input.get(end) == Some(&b'"') {
            let text = self.utf8(start, end)?;
            self.pos = end + 1;
            return Ok(Cow::Borrowed(text));
        }
        let mut out = String::with_capacity(end - start + 16);
        self.string_with_escapes(start, end, &mut out)?;
        Ok(Cow::Owned(out))
    }

    /// [`string`](Self::string), appending the text to `out` (escapes
    /// decoded straight into it) instead of returning it: a `String`, or
    /// the `Vec<u8>` of a transcoder's output.
    pub(crate) fn string_into(&mut self, out: &mut impl Text) -> Result<(), Error> {
        if self.input.get(self.pos) != Some(&b'"') {
            return Err(self.unexpected("string"));
        }
        if let Some(plain) = self.plain_string() {
            out.push_str(plain);
            return Ok(());
        }
        let start = self.pos + 1;
        let end = start + scan::plain_len(&self.input[start..]);
        self.string_with_escapes(start, end, out)
    }

    /// Validates `input[start..end]` as UTF-8.
    fn utf8(&self, start: usize, end: usize) -> Result<&'a str, Error> {
        let input: &'a [u8] = self.input;
        std::str::from_utf8(&input[start..end]).map_err(|e| {
            self.error_at(
                start + e.valid_up_to(),
                ErrorKind::Syntax,
                "invalid UTF-8 in string".into(),
            )
        })
    }

    /// The slow path of [`string`](Self::string): the body holds escapes (or
    /// is malformed), and is appended to `out`. `start` is the first byte of
    /// the body, `i` the first byte the fast scan stopped at.
    fn string_with_escapes(
        &mut self,
        start: usize,
        mut i: usize,
        out: &mut impl Text,
    ) -> Result<(), Error> {
        self.push_run(start, i, out)?;
        loop {
            let run = i;
            i += scan::plain_len(&self.input[i..]);
            self.push_run(run, i, out)?;
            match self.input.get(i) {
                Some(b'"') => {
                    self.pos = i + 1;
                    return Ok(());
                }
                Some(b'\\') => i = self.escape(i, out)?,
                Some(&b) => {
                    let message = format!("control character {} in string", describe_byte(b));
                    return Err(self.error_at(i, ErrorKind::Syntax, message));
                }
                None => {
                    return Err(self.error_at(i, ErrorKind::Eof, "unterminated string".into()));
                }
            }
        }
    }

    /// Appends `input[start..end]`, a run between escapes, validated as
    /// UTF-8; nothing for an empty run (escapes in a row, an escape last),
    /// whose validation would cost a call for nothing.
    #[inline]
    fn push_run(&self, start: usize, end: usize, out: &mut impl Text) -> Result<(), Error> {
        if start < end {
            out.push_str(self.utf8(start, end)?);
        }
        Ok(())
    }

    /// Decodes the escape sequence at `input[i]` (a backslash) into `out`; returns the offset after it.
    fn escape(&self, i: usize, out: &mut impl Text) -> Result<usize, Error> {
        let c = match self.input.get(i + 1) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => return self.unicode_escape(i, out),
            Some(_) => return Err(self.error_at(i, ErrorKind::Syntax, "invalid escape".into())),
            None => return Err(self.error_at(i, ErrorKind::Eof, "unterminated string".into())),
        };
        out.push(c);
        Ok(i + 2)
    }

    /// Decodes `\uXXXX` at `input[i]`, joining a surrogate pair; lone surrogates are errors.
    fn unicode_escape(&self, i: usize, out: &mut impl Text) -> Result<usize, Error> {
        let hi = self.hex4(i + 2)?;
        let (code, next) = match hi {
            0xD800..=0xDBFF => {
                let lo = match self.input.get(i + 6..i + 8) {
                    Some(b"\\u") => self.hex4(i + 8)?,
                    _ => return Err(self.lone_surrogate(i)),
                };
                if !(0xDC00..=0xDFFF).contains(&lo) {
                    return Err(self.lone_surrogate(i));
                }
                (0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00), i + 12)
            }
            0xDC00..=0xDFFF => return Err(self.lone_surrogate(i)),
            _ => (hi, i + 6),
        };
        // Every value built above is a Unicode scalar value.
        out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
        Ok(next)
    }

    #[cold]
    fn lone_surrogate(&self, i: usize) -> Error {
        self.error_at(i, ErrorKind::Syntax, "lone surrogate in \\u escape".into())
    }

    /// Reads four hex digits at `input[at..]`.
    fn hex4(&self, at: usize) -> Result<u32, Error> {
        let digits = self
            .input
            .get(at..at + 4)
            .ok_or_else(|| self.error_at(at, ErrorKind::Eof, "unterminated \\u escape".into()))?;
        let mut value = 0;
        for (k, &d) in digits.iter().enumerate() {
            let v = (d as char).to_digit(16).ok_or_else(|| {
                self.error_at(
                    at + k,
                    ErrorKind::Syntax,
                    "invalid hex digit in \\u escape".into(),
                )
            })?;
            value = value * 16 + v;
        }
        Ok(value)
    }

    /// Reads a number token and returns its text (strict JSON number grammar).
    pub(crate) fn number(&mut self) -> Result<&'a str, Error> {
        self.skip_whitespace();
        let input: &'a [u8] = self.input;
        let len = num::scan_number(&input[self.pos..]);
        if len == 0 {
            return Err(self.unexpected("number"));
        }
        let start = self.pos;
        self.pos += len;
        let next = input.get(self.pos).copied();
        if let Some(b) = next.filter(|b| b.is_ascii_alphanumeric() || b".+-".contains(b)) {
            let message = format!("invalid number: unexpected {}", describe_byte(b));
            return Err(self.error_at(self.pos, ErrorKind::Syntax, message));
        }
        // The scanned bytes are ASCII, so this never fails.
        Ok(std::str::from_utf8(&input[start..self.pos]).unwrap_or_default())
    }

    /// Reads `true` or `false`.
    #[inline]
    pub(crate) fn boolean(&mut self) -> Result<bool, Error> {
        match self.peek() {
            Peek::True => self.literal(b"true").map(|()| true),
            Peek::False => self.literal(b"false").map(|()| false),
            _ => Err(self.unexpected("boolean")),
        }
    }

    /// Consumes `null` if it is the next value; reports whether it was.
    #[inline]
    pub(crate) fn null(&mut self) -> bool {
        // Most values start right here, or after the one space of pretty
        // output's `": "`, and are not `null`: a byte or two tells.
        match self.input.get(self.pos) {
            Some(b'n') => self.eat_bytes(b"null"),
            Some(b' ') => match self.input.get(self.pos + 1) {
                Some(b'n') => {
                    self.pos += 1;
                    self.eat_bytes(b"null")
                }
                Some(&b) if b <= b' ' => self.null_after_whitespace(),
                _ => {
                    self.pos += 1;
                    false
                }
            },
            Some(&b) if b < b' ' => self.null_after_whitespace(),
            _ => false,
        }
    }

    /// [`null`](Self::null) where whitespace other than one space comes first.
    fn null_after_whitespace(&mut self) -> bool {
        self.skip_whitespace();
        self.eat_bytes(b"null")
    }

    /// Consumes the literal `word`, which the caller has peeked the first byte of.
    #[inline]
    fn literal(&mut self, word: &'static [u8]) -> Result<(), Error> {
        if self.eat_bytes(word) {
            Ok(())
        } else {
            let kind = if word.starts_with(&self.input[self.pos..]) {
                ErrorKind::Eof
            } else {
                ErrorKind::Syntax
            };
            Err(self.error(kind, "invalid literal".into()))
        }
    }

    /// Skips one complete value of any kind. `depth_left` bounds the nesting.
    pub(crate) fn skip_value(&mut self, depth_left: u32) -> Result<(), Error> {
        match self.peek() {
            Peek::Object => {
                let depth_left = self.nest(depth_left)?;
                self.begin_object()?;
                let mut first = true;
                while self.next_key(&mut first)?.is_some() {
                    self.skip_value(depth_left)?;
                }
                Ok(())
            }
            Peek::Array => {
                let depth_left = self.nest(depth_left)?;
                self.begin_array()?;
                let mut first = true;
                while self.next_element(&mut first)? {
                    self.skip_value(depth_left)?;
                }
                Ok(())
            }
            Peek::String => self.string().map(drop),
            Peek::Number => self.number().map(drop),
            Peek::True | Peek::False => self.boolean().map(drop),
            Peek::Null => self.literal(b"null"),
            Peek::Invalid(_) | Peek::End => Err(self.unexpected("value")),
        }
    }

    /// One more level of nesting, or a depth error when none is left.
    fn nest(&self, depth_left: u32) -> Result<u32, Error> {
        depth_left.checked_sub(1).ok_or_else(|| self.depth_error())
    }

    /// The error for nesting past the configured limit.
    #[cold]
    pub(crate) fn depth_error(&self) -> Error {
        self.error(ErrorKind::DepthLimit, "nesting too deep".into())
    }

    /// Checks that only whitespace follows the value just read: in line
    /// when the value ends the input (most inputs), else out of line.
    #[inline]
    pub(crate) fn finish(&mut self) -> Result<(), Error> {
        if self.pos >= self.input.len() {
            return Ok(());
        }
        self.finish_after_gap()
    }

    /// [`finish`](Self::finish) where bytes follow the value.
    #[inline(never)]
    fn finish_after_gap(&mut self) -> Result<(), Error> {
        match self.peek() {
            Peek::End => Ok(()),
            _ => Err(self.error(ErrorKind::Syntax, "unexpected data after the value".into())),
        }
    }
}

/// Where [`Reader::string_into`] appends a string's text: a `String`, or
/// the bytes of a transcoder's output, which then hold its UTF-8.
pub(crate) trait Text {
    /// Appends `s`.
    fn push_str(&mut self, s: &str);
    /// Appends `c`.
    fn push(&mut self, c: char);
}

impl Text for String {
    #[inline]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }

    #[inline]
    fn push(&mut self, c: char) {
        String::push(self, c);
    }
}

impl Text for Vec<u8> {
    #[inline]
    fn push_str(&mut self, s: &str) {
        self.extend_from_slice(s.as_bytes());
    }

    #[inline]
    fn push(&mut self, c: char) {
        self.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(json: &str) -> Result<String, Error> {
        Reader::new(json.as_bytes()).string().map(Cow::into_owned)
    }

    fn skip(json: &str) -> Result<(), Error> {
        let mut r = Reader::new(json.as_bytes());
        r.skip_value(100)?;
        r.finish()
    }

    #[test]
    fn plain_strings_are_borrowed() {
        let mut r = Reader::new(br#""hello""#);
        assert!(matches!(r.string().unwrap(), Cow::Borrowed("hello")));
    }

    #[test]
    fn every_escape_is_decoded() {
        let json = r#""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20ac \ud83d\ude00""#;
        assert_eq!(
            string(json).unwrap(),
            "\" \\ / \u{8} \u{c} \n \r \t A é € 😀"
        );
    }

    #[test]
    fn bad_strings_are_rejected_with_their_offset() {
        for (json, offset, message) in [
            ("\"a\\ud800\"", 2, "lone surrogate in \\u escape"),
            ("\"a\\udc00\"", 2, "lone surrogate in \\u escape"),
            ("\"\\ud800\\u0041\"", 1, "lone surrogate in \\u escape"),
            ("\"\\x\"", 1, "invalid escape"),
            ("\"\\u12g4\"", 5, "invalid hex digit in \\u escape"),
            ("\"a\nb\"", 2, "control character byte 0x0a in string"),
            ("\"abc", 4, "unterminated string"),
            ("\"ab\\", 3, "unterminated string"),
        ] {
            let err = string(json).unwrap_err();
            assert_eq!((err.offset(), err.message()), (offset, message), "{json:?}");
        }
    }

    #[test]
    fn invalid_utf8_is_rejected() {
        let err = Reader::new(b"\"ab\xff\"").string().unwrap_err();
        assert_eq!(
            (err.offset(), err.message()),
            (3, "invalid UTF-8 in string")
        );
        let err = Reader::new(b"\"\\n\xc3\"").string().unwrap_err();
        assert_eq!(err.offset(), 3);
    }

    #[test]
    fn skip_accepts_valid_json() {
        for json in [
            "{}",
            "[]",
            " { \"a\" : [1, -2.5e3, true, false, null, \"x\"], \"b\": {\"c\": {}} } ",
            "0",
            "-0.0e+1",
        ] {
            skip(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        }
    }

    #[test]
    fn skip_rejects_invalid_json() {
        for json in [
            "{,}",
            "[,]",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{a:1}",
            "[1 2]",
            "01",
            "1.",
            ".5",
            "+1",
            "NaN",
            "tru",
            "nul",
            "[",
            "{",
            "{\"a\":",
            "1 2",
            "[1]]",
            "'a'",
            "// c\n1",
            "\"a\"x",
            "1x",
            "-",
            "1e",
            "[1,,2]",
        ] {
            assert!(skip(json).is_err(), "{json} was accepted");
        }
    }

    #[test]
    fn skip_is_depth_limited() {
        let deep = "[".repeat(101) + &"]".repeat(101);
        assert_eq!(skip(&deep).unwrap_err().kind(), ErrorKind::DepthLimit);
        let ok = "[".repeat(100) + &"]".repeat(100);
        skip(&ok).unwrap();
    }

    #[test]
    fn keys_and_elements_are_iterated() {
        let mut r = Reader::new(br#"{"a": [1, 2], "b\u0021": null}"#);
        r.begin_object().unwrap();
        let mut first = true;
        assert_eq!(r.next_key(&mut first).unwrap().as_deref(), Some("a"));
        r.begin_array().unwrap();
        let mut first_el = true;
        let mut numbers = Vec::new();
        while r.next_element(&mut first_el).unwrap() {
            numbers.push(r.number().unwrap());
        }
        assert_eq!(numbers, ["1", "2"]);
        assert_eq!(r.next_key(&mut first).unwrap().as_deref(), Some("b!"));
        assert!(r.null());
        assert_eq!(r.next_key(&mut first).unwrap(), None);
        r.finish().unwrap();
    }

    /// The inline path of `map_key` reads what `key` reads, where it ends.
    #[test]
    fn map_keys_are_read_as_keys() {
        for json in [
            r#""k":1"#,
            r#""k" :1"#,
            r#" "k":1"#,
            r#""\u006b":1"#,
            r#""ü":1"#,
            r#""":1"#,
            r#""k"1"#,
            r#""k""#,
            r#""k"#,
            r#"k:1"#,
            "\"k\u{1}\":1",
        ] {
            let (mut inline, mut general) =
                (Reader::new(json.as_bytes()), Reader::new(json.as_bytes()));
            let read = |r: &mut Reader<'_>, key: Result<Cow<'_, str>, Error>| {
                (
                    key.map(Cow::into_owned).map_err(|e| e.to_string()),
                    r.offset(),
                )
            };
            let a = inline.map_key();
            let b = general.key();
            assert_eq!(read(&mut inline, a), read(&mut general, b), "{json}");
        }
    }

    /// `null` is found, and the reader left where the general path (skip
    /// whitespace, then match `null`) leaves it, after any gap.
    #[test]
    fn null_after_any_gap() {
        let gaps = ["", " ", "  ", "\t", "\n", " \n", " \t ", "\r\n  ", "\n\n "];
        for gap in gaps {
            for next in ["null", "null,", "nul", "nx", "1", "\"s\"", "n", ""] {
                let json = format!("{gap}{next}");
                let mut fast = Reader::new(json.as_bytes());
                let mut general = Reader::new(json.as_bytes());
                general.skip_whitespace();
                let expected = general.eat_bytes(b"null");
                assert_eq!(fast.null(), expected, "{json:?}");
                if expected {
                    assert_eq!(fast.pos, general.pos, "{json:?}");
                } else {
                    // Not null: whitespace may or may not be skipped yet.
                    fast.skip_whitespace();
                    assert_eq!(fast.pos, general.pos, "{json:?}");
                }
            }
        }
    }

    #[test]
    fn eof_is_reported_as_eof() {
        for json in ["{", "[1", "{\"a\":", "tr", "\"ab"] {
            assert_eq!(skip(json).unwrap_err().kind(), ErrorKind::Eof, "{json}");
        }
    }
}
