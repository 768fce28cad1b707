//! A strict RFC 8259 pull tokenizer over a byte slice.
//!
//! The reader knows JSON and nothing about protobuf: it hands out object keys,
//! strings (borrowed from the input when they hold no escapes), number texts and
//! literals, and reports errors with the byte offset where they happen. Nesting
//! depth is tracked by the [`Decoder`](crate::de::Decoder) above it.

use std::borrow::Cow;

use crate::error::{Error, ErrorKind};
use crate::text::{num, scan};

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

/// Pretty-printed JSON's indentation as far as read: the length of the
/// last line break with its indentation, and the step by which a nested
/// object or array deepens it. The next line is predicted from them: as
/// long as the last after a value, a step longer after an opening brace or
/// bracket, a step shorter before a closing one. The scan of the
/// whitespace then only confirms where the next token is, and what reads
/// that token need not wait for the scan (only for the branch that checks
/// it to be predicted): a position loaded from the input would chain the
/// reading of every line to the scan of the one before. The benchmark
/// cases `large/indented` and `otlp/indented` guard it.
#[derive(Clone, Copy, Debug)]
struct Indent {
    line: usize,
    step: usize,
}

impl Indent {
    /// Before any line: a line break without indentation, and the step of
    /// most encoders (protojsonx's `indent(2)`, Python's `MessageToJson`).
    const START: Indent = Indent { line: 1, step: 2 };

    /// The lengths predicted for the next line: before a key or element,
    /// and before the closing brace or bracket. After a value, the same as
    /// the last and a step shorter; after the opening brace or bracket, a
    /// step longer and the same.
    #[inline(always)]
    fn predict(&self, after_value: bool) -> (usize, usize) {
        match after_value {
            true => (self.line, self.line.wrapping_sub(self.step)),
            false => (self.line.wrapping_add(self.step), self.line),
        }
    }

    /// Learns a line of `len` bytes that was not predicted, and the step
    /// of nesting from it if it follows an opening brace or bracket
    /// (`opened`) and begins a key or element.
    #[inline(always)]
    fn learn(&mut self, len: usize, opened: bool) {
        if opened {
            self.step = len.wrapping_sub(self.line);
        }
        self.line = len;
    }
}

/// A line break that [`Reader::pretty_next`] found, after what, and where.
#[derive(Clone, Copy)]
struct Line {
    /// Where the comma before it is, or would be.
    pos: usize,
    /// Whether a comma came before it.
    comma: bool,
    /// Whether a comma was due: the line follows a value, not the opening
    /// brace or bracket.
    after_value: bool,
}

impl Line {
    /// The offset of the line break.
    #[inline(always)]
    fn at(self) -> usize {
        self.pos + usize::from(self.comma)
    }

    /// The outcome of [`Reader::pretty_next`] where the line in `window`
    /// (after the comma, if any), whose line break and spaces run for
    /// `run` bytes, is as long as `indent` predicts (see [`Indent`]). The
    /// offset is computed from the prediction, which `run` only confirms
    /// (as at least as long, the token after it as no space): a test that
    /// they are equal would let the optimizer take `run` for the prediction.
    #[inline(always)]
    fn predicted<const OBJECT: bool>(
        self,
        run: usize,
        window: &[u8; 34],
        indent: &mut Indent,
    ) -> Option<usize> {
        let (open, close) = indent.predict(self.after_value);
        let token = |len: usize| window[usize::from(self.comma) + len];
        // Offsets from what the caller knows (where a comma is due), not
        // from what was loaded (whether one is there): no wait for a load.
        if self.comma == self.after_value && run >= open && starts::<OBJECT>(token(open)) {
            indent.line = open;
            Some((self.pos + usize::from(self.after_value) + open) << 1 | 1)
        } else if !self.comma && run >= close && token(close) == closes::<OBJECT>() {
            indent.line = close;
            Some((self.pos + close + 1) << 1)
        } else {
            None
        }
    }

    /// The end of [`Reader::pretty_next`] where the line was not the one
    /// predicted: what `b`, the token at `next` after the indentation,
    /// means. The line's length is learned.
    #[inline(always)]
    fn token<const OBJECT: bool>(self, b: u8, next: usize, indent: &mut Indent) -> usize {
        if self.comma == self.after_value && starts::<OBJECT>(b) {
            indent.learn(next - self.at(), !self.after_value);
            next << 1 | 1
        } else if b == closes::<OBJECT>() && !self.comma {
            indent.learn(next - self.at(), false);
            (next + 1) << 1
        } else {
            0
        }
    }
}

/// Whether a member (`OBJECT`: its key) or element can start with `b`.
#[inline(always)]
fn starts<const OBJECT: bool>(b: u8) -> bool {
    if OBJECT { b == b'"' } else { starts_element(b) }
}

/// The byte that closes an object (`OBJECT`) or array.
#[inline(always)]
fn closes<const OBJECT: bool>() -> u8 {
    if OBJECT { b'}' } else { b']' }
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

    #[inline]
    fn skip_whitespace(&mut self) {
        while let Some(&b) = self.input.get(self.pos) {
            if !is_whitespace(b) {
                break;
            }
            self.pos += 1;
        }
    }

    /// In pretty-printed JSON, where the next member (`OBJECT`) or element
    /// starts: after a comma at `pos` when `after_value` (one is then due),
    /// a line break and an indentation of spaces, then a key (or value) or
    /// the closing brace (bracket), which no comma may precede. Packed as
    /// `next << 1 | more`: `next` is the offset of the key (value), or the
    /// offset past the closing brace (`more` false), computed from the
    /// `indent` predicted where that held (see [`Indent`]). 0 for anything
    /// else (other whitespace, errors, fewer than 34 bytes left, as on the
    /// input's last lines), which the general path reads.
    ///
    /// Inlined into [`pretty_member`](Self::pretty_member), the leaf
    /// function the member path calls, and into the element path's glue.
    #[inline(always)]
    fn pretty_next<const OBJECT: bool>(
        input: &[u8],
        pos: usize,
        after_value: bool,
        indent: &mut Indent,
    ) -> usize {
        // The comma, the 32 bytes of line break and indentation tested and
        // the byte after them, bounds checked once: no offset computed
        // below can leave the window.
        let Some(window) = input.get(pos..).and_then(<[u8]>::first_chunk::<34>) else {
            return 0;
        };
        let comma = after_value & (window[0] == b',');
        let at = usize::from(comma);
        let lines = window[at..at + 32].try_into().expect("32 bytes");
        let run = scan::line_indent_end(lines);
        let line = Line {
            pos,
            comma,
            after_value,
        };
        if let Some(packed) = line.predicted::<OBJECT>(run, window, indent) {
            return packed;
        }
        match run {
            0 => 0,
            32 => Self::pretty_next_deep::<OBJECT>(input, pos, comma, after_value, indent),
            end => line.token::<OBJECT>(window[at + end], line.at() + end, indent),
        }
    }

    /// [`pretty_next`](Self::pretty_next) for members after a value
    /// (`AFTER_VALUE`) or the first: a leaf function that takes and returns
    /// integers in registers, so that the call
    /// [`next_member_slow`](Self::next_member_slow) inlines into every
    /// field of generated code stays small.
    #[inline(never)]
    fn pretty_member<const AFTER_VALUE: bool>(
        input: &[u8],
        pos: usize,
        indent: &mut Indent,
    ) -> usize {
        Self::pretty_next::<true>(input, pos, AFTER_VALUE, indent)
    }

    /// [`pretty_next`](Self::pretty_next) where the indentation of `line`
    /// is longer than its first 32 bytes tested: the rest counted in
    /// blocks, out of the common path's way (a tail call: the line comes
    /// as its three fields, in registers, where a `Line` would be passed
    /// through the stack).
    #[cold]
    #[inline(never)]
    fn pretty_next_deep<const OBJECT: bool>(
        input: &[u8],
        pos: usize,
        comma: bool,
        after_value: bool,
        indent: &mut Indent,
    ) -> usize {
        let line = Line {
            pos,
            comma,
            after_value,
        };
        let Some(rest) = scan::spaces_len(&input[line.at() + 32..]) else {
            return 0;
        };
        let next = line.at() + 32 + rest;
        match input.get(next) {
            Some(&b) => line.token::<OBJECT>(b, next, indent),
            None => 0,
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

    /// [`next_member`](Self::next_member) with whitespace, and its errors:
    /// pretty-printed JSON read by [`pretty_member`](Self::pretty_member), any
    /// other by [`next_member_general`](Self::next_member_general). Inlined
    /// into every field of generated code: the call it makes there passes
    /// and returns integers in registers (and the indentation's address),
    /// to the version for a member after a value or for the first, which
    /// the field's place in generated code decides at compile time.
    #[inline(always)]
    fn next_member_slow(&mut self, first: &mut bool) -> Result<(bool, usize), Error> {
        let (input, pos, indent) = (self.input, self.pos, &mut self.indent);
        let packed = match *first {
            true => Self::pretty_member::<false>(input, pos, indent),
            false => Self::pretty_member::<true>(input, pos, indent),
        };
        let (more, pos) = match packed {
            0 => (self.next_member_general(*first)?, self.pos),
            packed => (packed & 1 != 0, packed >> 1),
        };
        // Past a member's start, the object's first member has been read.
        *first &= !more;
        Ok((more, pos))
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

    /// Reads the string at offset `at` (again), leaving this reader where it is.
    pub(crate) fn string_at(&self, at: usize) -> Result<Cow<'a, str>, Error> {
        Reader {
            pos: at,
            ..self.clone()
        }
        .string()
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

    /// [`next_element`](Self::next_element) with whitespace, and its errors,
    /// as [`next_member_slow`](Self::next_member_slow) for members.
    #[inline(never)]
    fn next_element_slow(&mut self, first: &mut bool) -> Result<bool, Error> {
        let (input, pos, indent) = (self.input, self.pos, &mut self.indent);
        // One version each, as `pretty_member`'s: the line predicted after
        // a value (after a comma) or after the opening bracket.
        let packed = match *first {
            true => Self::pretty_next::<false>(input, pos, false, indent),
            false => Self::pretty_next::<false>(input, pos, true, indent),
        };
        match packed {
            0 => self.next_element_general(first),
            packed => {
                *first = false;
                self.pos = packed >> 1;
                Ok(packed & 1 != 0)
            }
        }
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

    /// The pretty-printed paths of the member and element loops read what
    /// the general paths read, where they end, on every line break and
    /// indentation around a key, a value and the closing bracket, whatever
    /// line [`Indent`] predicts: the one there (after a value, after the
    /// opening, and before the closing bracket), or others.
    #[test]
    fn line_breaks_are_read_as_whitespace() {
        let (mut shallow, mut deep) = (0, 0);
        let mut gaps = vec![String::new(), " ".into(), "\t".into(), "\r\n ".into()];
        for spaces in [0, 1, 2, 15, 16, 17, 30, 31, 32, 33, 40, 64] {
            gaps.push(format!("\n{}", " ".repeat(spaces)));
            gaps.push(format!("\n{}\t", " ".repeat(spaces)));
            gaps.push(format!("\n{}\n", " ".repeat(spaces)));
        }
        for gap in &gaps {
            for comma in ["", ","] {
                for next in ["\"k\":1", "}", "]", "1", "{", "x", ""] {
                    // Unpadded, and padded past the 32 bytes the pretty path tests.
                    for pad in ["", &" ".repeat(40)] {
                        let json = format!("{comma}{gap}{next}{pad}");
                        let states = [false, true]
                            .into_iter()
                            .flat_map(|first| indents(gap).into_iter().map(move |i| (first, i)));
                        for (first, indent) in states {
                            let run = |slow: bool, member: bool| {
                                let mut r = Reader::new(json.as_bytes());
                                r.indent = indent;
                                let mut f = first;
                                let result = match (member, slow) {
                                    (true, true) => {
                                        r.next_member_slow(&mut f).map(|(more, pos)| {
                                            r.pos = pos;
                                            more
                                        })
                                    }
                                    (true, false) => r.next_member_general(f).inspect(|&more| {
                                        f &= !more;
                                    }),
                                    (false, true) => r.next_element_slow(&mut f),
                                    (false, false) => r.next_element_general(&mut f),
                                };
                                (result.map_err(|e| e.to_string()), r.offset(), f)
                            };
                            for member in [true, false] {
                                assert_eq!(
                                    run(true, member),
                                    run(false, member),
                                    "{json:?} {first} {indent:?}"
                                );
                            }
                            let pretty =
                                Reader::pretty_next::<true>(json.as_bytes(), 0, !first, &mut {
                                    indent
                                });
                            // 31 spaces or more continue in `pretty_next_deep`.
                            let indent = gap.bytes().skip(1).take_while(|&b| b == b' ').count();
                            deep += usize::from(pretty != 0 && indent >= 31);
                            shallow += usize::from(pretty != 0 && indent < 31);
                        }
                    }
                }
            }
        }
        // Both the pretty path and its deep continuation were taken.
        assert!(shallow > 0 && deep > 0, "{shallow} {deep}");
    }

    /// Predictions of the line of `gap` for [`line_breaks_are_read_as_whitespace`]:
    /// right for each kind of line (`step` 0 predicts every kind right,
    /// the others one each), and wrong, one shorter or longer, or none.
    fn indents(gap: &str) -> Vec<Indent> {
        let len = gap.len();
        let mut indents = vec![Indent::START];
        for line in [len, len.wrapping_sub(1), len + 1] {
            let deeper = line.wrapping_add(2);
            for (line, step) in [(line, 0), (line, 2), (deeper, 2), (line.wrapping_sub(2), 2)] {
                indents.push(Indent { line, step });
            }
        }
        indents.push(Indent {
            line: usize::MAX,
            step: usize::MAX,
        });
        indents
    }

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

    #[test]
    fn eof_is_reported_as_eof() {
        for json in ["{", "[1", "{\"a\":", "tr", "\"ab"] {
            assert_eq!(skip(json).unwrap_err().kind(), ErrorKind::Eof, "{json}");
        }
    }
}
