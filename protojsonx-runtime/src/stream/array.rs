//! A JSON array of messages, read and written one element at a time.

use std::io::{self, BufRead};
use std::iter::FusedIterator;
use std::marker::PhantomData;

use super::{DEFAULT_MAX_SIZE, Position, StreamError, with_chunk};
use crate::read::is_whitespace;
use crate::{DecodeOptions, EncodeOptions, Error, ErrorKind, ProtoJson};

/// Reads a JSON array of messages (`[{...}, {...}]`) from an [`io::BufRead`]
/// one element at a time, without holding the whole array: an iterator over
/// the elements, each decoded with the reader's [`DecodeOptions`].
///
/// Each element's extent is found by following strings, escapes and
/// nesting as the input arrives; the element is then decoded on its own,
/// and its errors are placed in the whole stream. Whitespace is allowed
/// anywhere between tokens. The input must be exactly one array: anything
/// but whitespace before `[` or after `]`, a missing `,`, a trailing comma,
/// an element longer than [`max_item_size`](Self::max_item_size), and input
/// that ends before `]` (even empty input) are errors. To check what follows
/// `]`, the reader reads to the end of the input. Reading stops at the first
/// error: the iterator yields it, then `None`. See the [module docs](super) on memory.
///
/// ```
/// use protojsonx_runtime::{ErrorKind, stream::ArrayReader};
/// use prost_types::Struct;
///
/// let input = r#"[ {"a": "],[{\""},
///   {"b": [1, {"c": null}]} ,{"d": }]"#;
/// let mut items = ArrayReader::<_, Struct>::new(input.as_bytes());
/// assert_eq!(items.next().unwrap()?.fields["a"], "],[{\"".to_string().into());
/// assert!(items.next().unwrap()?.fields.contains_key("b"));
/// let err = items.next().unwrap().unwrap_err();
/// assert_eq!((err.index(), err.line(), err.column()), (2, 2, 34));
/// assert_eq!(err.kind(), ErrorKind::InvalidValue);
/// assert!(items.next().is_none());
/// # Ok::<(), protojsonx_runtime::stream::StreamError>(())
/// ```
pub struct ArrayReader<R, M> {
    reader: R,
    opts: DecodeOptions,
    max_item_size: usize,
    /// The current element, when it spans more than one of `reader`'s buffers.
    buf: Vec<u8>,
    /// The position of the next byte `reader` gives.
    at: Position,
    state: State,
    index: usize,
    message: PhantomData<fn() -> M>,
}

/// Where [`ArrayReader`] is in the array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the `[`.
    Start,
    /// After the `[`: an element or `]` comes next.
    First,
    /// After an element: `,` or `]` comes next.
    AfterItem,
    /// After the `]` and the whitespace after it, or after an error.
    Ended,
}

/// What one buffer of input gave [`ArrayReader::read_item`].
enum ItemStep<M> {
    /// The element ended in this buffer; this is its decoding.
    Done(Result<M, Error>),
    /// The element goes on in the next buffer.
    More,
    /// The element is longer than the size limit.
    TooLarge,
    /// The input has ended.
    End,
}

impl<R: BufRead, M: ProtoJson> ArrayReader<R, M> {
    /// Reads the elements of the array in `reader` with the default [`DecodeOptions`].
    pub fn new(reader: R) -> Self {
        Self::with_options(reader, DecodeOptions::new())
    }

    /// Reads the elements of the array in `reader`, decoding each with `opts`.
    pub fn with_options(reader: R, opts: DecodeOptions) -> Self {
        ArrayReader {
            reader,
            opts,
            max_item_size: DEFAULT_MAX_SIZE,
            buf: Vec::new(),
            at: Position::START,
            state: State::Start,
            index: 0,
            message: PhantomData,
        }
    }

    /// The longest element accepted, in bytes (default [`DEFAULT_MAX_SIZE`]);
    /// a longer one is an [`ErrorKind::SizeLimit`] error. This bounds the
    /// memory the reader takes for one item.
    pub fn max_item_size(mut self, bytes: usize) -> Self {
        self.max_item_size = bytes;
        self
    }

    /// Gives back the underlying reader, positioned after what was read.
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// Decodes the next element into `msg`, replacing what it held and
    /// reusing its memory (see [`DecodeOptions::decode_into`]): a stream of
    /// messages of one shape read this way allocates nothing once `msg` has
    /// grown. `Ok(true)` when an element was read, `Ok(false)` after the `]`
    /// (and after an error, which ends the stream as for the iterator).
    ///
    /// ```
    /// use protojsonx_runtime::stream::ArrayReader;
    /// use prost_types::Duration;
    ///
    /// let mut reader = ArrayReader::new(r#"["1s", "2.5s"]"#.as_bytes());
    /// let (mut d, mut seconds) = (Duration::default(), Vec::new());
    /// while reader.read_into(&mut d)? {
    ///     seconds.push(d.seconds);
    /// }
    /// assert_eq!(seconds, [1, 2]);
    /// # Ok::<(), protojsonx_runtime::stream::StreamError>(())
    /// ```
    pub fn read_into(&mut self, msg: &mut M) -> Result<bool, StreamError> {
        let opts = self.opts;
        self.advance(&mut |json: &[u8]| opts.decode_into(msg, json))
            .map(|read| read.is_some())
    }

    /// The next element, decoded by `decode`, counted; `None` after the `]`
    /// and after an error, which ends the stream.
    fn advance<T>(
        &mut self,
        decode: &mut impl FnMut(&[u8]) -> Result<T, Error>,
    ) -> Result<Option<T>, StreamError> {
        let result = self.step(decode);
        match &result {
            Ok(Some(_)) => self.index += 1,
            _ => self.state = State::Ended,
        }
        result
    }

    /// Reads up to the next element and decodes it with `decode`; `None`
    /// after the `]`.
    fn step<T>(
        &mut self,
        decode: &mut impl FnMut(&[u8]) -> Result<T, Error>,
    ) -> Result<Option<T>, StreamError> {
        match self.state {
            State::Ended => Ok(None),
            State::Start => match self.skip_whitespace()? {
                Some(b'[') => {
                    self.take_byte();
                    self.state = State::First;
                    self.step(decode)
                }
                found => Err(self.unexpected("`[`", found)),
            },
            State::First => match self.skip_whitespace()? {
                Some(b']') => self.end(),
                Some(_) => self.item(decode),
                None => Err(self.unexpected("a value or `]`", None)),
            },
            State::AfterItem => match self.skip_whitespace()? {
                Some(b',') => {
                    self.take_byte();
                    match self.skip_whitespace()? {
                        found @ (Some(b']') | None) => Err(self.unexpected("a value", found)),
                        Some(_) => self.item(decode),
                    }
                }
                Some(b']') => self.end(),
                found => Err(self.unexpected("`,` or `]`", found)),
            },
        }
    }

    /// Reads the element that starts at the next byte.
    fn item<T>(
        &mut self,
        decode: &mut impl FnMut(&[u8]) -> Result<T, Error>,
    ) -> Result<Option<T>, StreamError> {
        let item = self.read_item(decode)?;
        self.state = State::AfterItem;
        Ok(Some(item))
    }

    /// Consumes the `]`, and checks that only whitespace follows it.
    fn end<T>(&mut self) -> Result<Option<T>, StreamError> {
        self.take_byte();
        self.state = State::Ended;
        match self.skip_whitespace()? {
            None => Ok(None),
            Some(b) => {
                let message = format!(
                    "unexpected data after the array: {}",
                    crate::read::describe_byte(b)
                );
                Err(StreamError::stream(
                    self.index,
                    self.at,
                    ErrorKind::Syntax,
                    message,
                ))
            }
        }
    }

    /// The error "expected `what`, found `found`" at the next byte.
    #[cold]
    fn unexpected(&self, what: &str, found: Option<u8>) -> StreamError {
        StreamError::unexpected(self.index, self.at, what, found)
    }

    /// Consumes the byte [`skip_whitespace`](Self::skip_whitespace) returned:
    /// `[`, `,` or `]`.
    fn take_byte(&mut self) {
        self.reader.consume(1);
        self.at.offset += 1;
        self.at.column += 1;
    }

    /// Skips whitespace; returns the next byte, not consumed, or `None` at
    /// the end of the input.
    fn skip_whitespace(&mut self) -> Result<Option<u8>, StreamError> {
        loop {
            let at = &mut self.at;
            let step = with_chunk(&mut self.reader, |chunk| {
                let blank = chunk.iter().position(|&b| !is_whitespace(b));
                let blank = blank.unwrap_or(chunk.len());
                at.advance(&chunk[..blank]);
                let next = match chunk.get(blank) {
                    Some(&b) => Some(Some(b)),
                    None if chunk.is_empty() => Some(None),
                    None => None,
                };
                (blank, next)
            });
            match step {
                Ok(Some(next)) => return Ok(next),
                Ok(None) => {}
                Err(e) => return Err(StreamError::io(self.index, self.at, e)),
            }
        }
    }

    /// Finds the extent of the element that starts at the next byte and
    /// decodes it. An element inside the reader's buffer is decoded where it
    /// lies; one that crosses the buffer's end is gathered in `buf`.
    fn read_item<T>(
        &mut self,
        decode: &mut impl FnMut(&[u8]) -> Result<T, Error>,
    ) -> Result<T, StreamError> {
        let start = self.at;
        let mut extent = Extent::default();
        self.buf.clear();
        loop {
            let (buf, at, max) = (&mut self.buf, &mut self.at, self.max_item_size);
            let step = with_chunk(&mut self.reader, |chunk| {
                let (used, step) = item_step(chunk, buf, &mut extent, max, &mut *decode);
                at.advance(&chunk[..used]);
                (used, step)
            });
            let step = step.map_err(|e| StreamError::io(self.index, self.at, e))?;
            let decoded = match step {
                ItemStep::Done(decoded) => decoded,
                ItemStep::More => continue,
                ItemStep::TooLarge => {
                    return Err(StreamError::too_large(self.index, start, max));
                }
                // The input ends, and so does the element: a number is
                // whole, anything else is cut short and the decoder says where.
                ItemStep::End => decode(&self.buf),
            };
            return decoded.map_err(|e| StreamError::decode(self.index, start, e));
        }
    }
}

/// Looks for the end of the current element in `chunk`, the reader's
/// buffer, and decodes the element with `decode` if it ends there; `buf`
/// holds the part of the element in earlier buffers. Returns how many bytes
/// of `chunk` to consume, and what was found.
fn item_step<T>(
    chunk: &[u8],
    buf: &mut Vec<u8>,
    extent: &mut Extent,
    max: usize,
    decode: impl FnOnce(&[u8]) -> Result<T, Error>,
) -> (usize, ItemStep<T>) {
    if chunk.is_empty() {
        return (0, ItemStep::End);
    }
    let end = extent.end_in(chunk);
    if buf.len() + end.unwrap_or(chunk.len()) > max {
        return (0, ItemStep::TooLarge);
    }
    match end {
        Some(end) if buf.is_empty() => (end, ItemStep::Done(decode(&chunk[..end]))),
        Some(end) => {
            buf.extend_from_slice(&chunk[..end]);
            (end, ItemStep::Done(decode(buf)))
        }
        None => {
            buf.extend_from_slice(chunk);
            (chunk.len(), ItemStep::More)
        }
    }
}

/// Finds where a JSON value ends, chunk by chunk, without parsing it: it
/// follows strings, escapes and the nesting of objects and arrays only (the
/// decoder checks the value). A number or literal at the top ends at
/// whitespace, `,` or `]`, or at the end of the input.
#[derive(Debug, Default)]
struct Extent {
    started: bool,
    /// Objects and arrays open.
    depth: usize,
    in_string: bool,
    /// The chunk before ended with a `\` inside a string.
    escaped: bool,
    /// The value is a number or literal (or an invalid token).
    scalar: bool,
}

impl Extent {
    /// The end (exclusive) of the value in `chunk`, the next non-empty chunk
    /// of the input, or `None` if the value goes on after it.
    fn end_in(&mut self, chunk: &[u8]) -> Option<usize> {
        let mut i = 0;
        if !self.started {
            self.started = true;
            match chunk[0] {
                b'"' => self.in_string = true,
                b'{' | b'[' => self.depth = 1,
                _ => self.scalar = true,
            }
            i = 1;
        } else if self.escaped {
            self.escaped = false;
            i = 1;
        }
        while i < chunk.len() {
            if self.in_string {
                let special = memchr::memchr2(b'"', b'\\', &chunk[i..])?;
                i += special + 1;
                if chunk[i - 1] == b'\\' {
                    i += 1;
                    if i > chunk.len() {
                        self.escaped = true;
                        return None;
                    }
                    continue;
                }
                self.in_string = false;
                if self.depth == 0 {
                    return Some(i);
                }
            } else if self.scalar {
                let end = chunk[i..]
                    .iter()
                    .position(|&b| is_whitespace(b) || b == b',' || b == b']')?;
                return Some(i + end);
            } else {
                let b = chunk[i];
                i += 1;
                match b {
                    b'"' => self.in_string = true,
                    b'{' | b'[' => self.depth += 1,
                    b'}' | b']' => {
                        self.depth -= 1;
                        if self.depth == 0 {
                            return Some(i);
                        }
                    }
                    _ => {}
                }
            }
        }
        None
    }
}

impl<R: BufRead, M: ProtoJson> Iterator for ArrayReader<R, M> {
    type Item = Result<M, StreamError>;

    /// The next element, or the error that ends the stream; `None` after
    /// the `]` or after an error.
    fn next(&mut self) -> Option<Self::Item> {
        let opts = self.opts;
        self.advance(&mut |json: &[u8]| opts.from_slice::<M>(json))
            .transpose()
    }
}

impl<R: BufRead, M: ProtoJson> FusedIterator for ArrayReader<R, M> {}

/// Writes a JSON array of messages one element at a time: `[` before the
/// first, `,` between them and `]` on [`finish`](Self::finish) (`[]` if no
/// message was written), each encoded with the writer's [`EncodeOptions`].
///
/// Each [`write`](Self::write) encodes into a buffer the writer reuses and
/// hands the element to the underlying writer with one `write_all`; wrap an
/// unbuffered writer in an [`io::BufWriter`] to batch many small messages.
/// The array is closed only by `finish`: dropping the writer leaves it open.
///
/// ```
/// use protojsonx_runtime::stream::ArrayWriter;
/// use prost_types::Duration;
///
/// let mut out = ArrayWriter::new(Vec::new());
/// for seconds in 1..=3 {
///     out.write(&Duration { seconds, nanos: 0 })?;
/// }
/// assert_eq!(out.finish()?, br#"["1s","2s","3s"]"#);
/// assert_eq!(ArrayWriter::new(Vec::new()).finish()?, b"[]");
/// # Ok::<(), protojsonx_runtime::Error>(())
/// ```
pub struct ArrayWriter<W> {
    writer: W,
    opts: EncodeOptions,
    buf: Vec<u8>,
    /// Whether an element was written: the array is open.
    open: bool,
}

impl<W: io::Write> ArrayWriter<W> {
    /// Writes an array to `writer` with the default [`EncodeOptions`].
    pub fn new(writer: W) -> Self {
        Self::with_options(writer, EncodeOptions::new())
    }

    /// Writes an array to `writer`, encoding each message with `opts`.
    pub fn with_options(writer: W, opts: EncodeOptions) -> Self {
        ArrayWriter {
            writer,
            opts,
            buf: Vec::new(),
            open: false,
        }
    }

    /// Appends `msg` as the next element. If encoding fails nothing is
    /// written, and the array stays valid; an I/O error may leave a partial element.
    pub fn write<M: ProtoJson>(&mut self, msg: &M) -> Result<(), Error> {
        let prefix: &[u8] = if self.open { b"," } else { b"[" };
        super::write_framed(
            &mut self.writer,
            &mut self.buf,
            &self.opts,
            prefix,
            msg,
            b"",
        )?;
        self.open = true;
        Ok(())
    }

    /// Flushes the underlying writer.
    pub fn flush(&mut self) -> Result<(), Error> {
        super::flush(&mut self.writer)
    }

    /// The underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.writer
    }

    /// Gives back the underlying writer, leaving the array open (no `]`).
    pub fn into_inner(self) -> W {
        self.writer
    }

    /// Closes the array (`]`, or `[]` if it is empty), flushes the
    /// underlying writer and gives it back.
    pub fn finish(mut self) -> Result<W, Error> {
        let end: &[u8] = if self.open { b"]" } else { b"[]" };
        super::write_all(&mut self.writer, end)?;
        self.flush()?;
        Ok(self.writer)
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufReader, Read};

    use prost_types::{Api, Duration, ListValue, Struct, Timestamp, Value, value::Kind};

    use super::*;
    use crate::stream::tests::{Broken, FailingWriter};

    fn read<M: ProtoJson>(input: &str) -> Vec<Result<M, StreamError>> {
        ArrayReader::new(input.as_bytes()).collect()
    }

    /// The elements of `input` as the JSON the encoder writes for them.
    fn values(input: &str) -> Vec<String> {
        read::<Value>(input)
            .into_iter()
            .map(|v| crate::to_string(&v.unwrap()).unwrap())
            .collect()
    }

    /// The error `input` ends with, after the elements before it.
    fn error(input: &str) -> StreamError {
        let mut items = read::<Value>(input);
        let last = items.pop().expect("an error item").unwrap_err();
        assert!(items.iter().all(Result::is_ok), "{input}");
        last
    }

    /// Kind, index, line, column and offset.
    fn place(err: &StreamError) -> (ErrorKind, usize, u64, u64, u64) {
        (
            err.kind(),
            err.index(),
            err.line(),
            err.column(),
            err.offset(),
        )
    }

    /// The extents `Extent` finds in `input` (`None`: it goes on) when it
    /// is given the input in chunks of `size` bytes.
    fn extent(input: &[u8], size: usize) -> Option<usize> {
        let mut extent = Extent::default();
        let mut done = 0;
        for chunk in input.chunks(size) {
            if let Some(end) = extent.end_in(chunk) {
                return Some(done + end);
            }
            done += chunk.len();
        }
        None
    }

    #[test]
    fn extents_follow_strings_escapes_and_nesting_in_any_chunks() {
        for (input, end) in [
            (r#"{"a":"}],\"{[\\"}, 2"#, Some(17)),
            (r#""x\"]\\",1"#, Some(8)),
            (r#"[[],{"]":[{}]},"\\\""]]"#, Some(22)),
            (r#"12.5e3]"#, Some(6)),
            ("true ,", Some(4)),
            ("null\n", Some(4)),
            ("-1", None),
            (r#"{"a":"#, None),
            (r#""\""#, None),
            (r#"{"a\\":[}"#, None),
        ] {
            for size in 1..=input.len() {
                assert_eq!(
                    extent(input.as_bytes(), size),
                    end,
                    "{input} in chunks of {size}"
                );
            }
        }
    }

    #[test]
    fn empty_arrays_and_whitespace_anywhere() {
        assert!(values("[]").is_empty());
        assert!(values(" \r\n[ \t\n ] \n").is_empty());
        assert_eq!(
            values("\n[\n  1 ,\r\n  \"a\"\n,{ \"b\" : [ true , null ] } , [ ]\n]\n"),
            ["1", "\"a\"", "{\"b\":[true,null]}", "[]"]
        );
    }

    #[test]
    fn strings_with_brackets_commas_and_escapes_inside_elements() {
        let input = r#"[{"a":"],[{}\"\\","b\n":"\n,\u005d"},["]","[",","],"\"]\\"]"#;
        assert_eq!(
            values(input),
            [
                r#"{"a":"],[{}\"\\","b\n":"\n,]"}"#,
                r#"["]","[",","]"#,
                r#""\"]\\""#
            ]
        );
    }

    #[test]
    fn elements_may_be_any_json_the_message_reads() {
        let stamps: Vec<i64> =
            read::<Timestamp>(r#"["1970-01-01T00:00:01Z","1970-01-01T00:01:00Z"]"#)
                .into_iter()
                .map(|ts| ts.unwrap().seconds)
                .collect();
        assert_eq!(stamps, [1, 60]);
        let deep = format!("[{}1{}]", "[".repeat(50), "]".repeat(50));
        assert_eq!(values(&deep).len(), 1);
        let lists = read::<ListValue>("[[1,[2]],[]]");
        assert_eq!(lists[0].as_ref().unwrap().values.len(), 2);
        assert_eq!(lists[1].as_ref().unwrap(), &ListValue::default());
    }

    #[test]
    fn framing_errors_name_the_place() {
        use ErrorKind::{Eof, Syntax};
        for (input, expected, message) in [
            ("", (Eof, 0, 1, 1, 0), "expected `[`, found end of input"),
            ("  \n {}", (Syntax, 0, 2, 2, 4), "expected `[`, found '{'"),
            (
                "[",
                (Eof, 0, 1, 2, 1),
                "expected a value or `]`, found end of input",
            ),
            ("[1,]", (Syntax, 1, 1, 4, 3), "expected a value, found ']'"),
            (
                "[1,\n",
                (Eof, 1, 2, 1, 4),
                "expected a value, found end of input",
            ),
            (
                "[1 2]",
                (Syntax, 1, 1, 4, 3),
                "expected `,` or `]`, found '2'",
            ),
            (
                "[{},{}",
                (Eof, 2, 1, 7, 6),
                "expected `,` or `]`, found end of input",
            ),
            (
                "[1] x",
                (Syntax, 1, 1, 5, 4),
                "unexpected data after the array: 'x'",
            ),
            (
                "[]]",
                (Syntax, 0, 1, 3, 2),
                "unexpected data after the array: ']'",
            ),
            (
                "[1]\n[2]",
                (Syntax, 1, 2, 1, 4),
                "unexpected data after the array: '['",
            ),
        ] {
            let err = error(input);
            assert_eq!(place(&err), expected, "{input:?}");
            let at = format!(" (line {}, column {})", expected.2, expected.3);
            assert_eq!(
                err.to_string(),
                format!("item {}: {message}{at}", expected.1),
                "{input:?}"
            );
            assert!(err.decode_error().is_none() && err.io_error().is_none());
        }
    }

    #[test]
    fn bad_elements_are_placed_in_the_whole_stream() {
        let input =
            "[\n  {\"name\": \"a\"},\n  {\"name\": \"b\",\n   \"methods\": [{\"name\": 7}]}\n]";
        let mut items = ArrayReader::<_, Api>::new(input.as_bytes());
        assert_eq!(items.next().unwrap().unwrap().name, "a");
        let err = items.next().unwrap().unwrap_err();
        let bad = input.find('7').unwrap() as u64;
        assert_eq!(place(&err), (ErrorKind::InvalidValue, 1, 4, 25, bad));
        let decode = err.decode_error().unwrap();
        assert_eq!(
            (
                decode.path_string().as_str(),
                decode.line(),
                decode.column()
            ),
            ("methods[0].name", 2, 25)
        );
        assert_eq!(
            err.to_string(),
            "item 1: expected string, found number at `methods[0].name` (line 4, column 25)"
        );
        assert!(items.next().is_none());
    }

    #[test]
    fn truncated_elements_are_reported_by_the_decoder_with_their_path() {
        let err = error("[{}, {\"a\": [1, {\"b\": ");
        assert_eq!(place(&err), (ErrorKind::Eof, 1, 1, 22, 21));
        assert_eq!(
            err.decode_error().unwrap().path_string(),
            r#"["a"][1]["b"]"#
        );
        let err = error("[\"abc");
        assert_eq!(place(&err), (ErrorKind::Eof, 0, 1, 6, 5));
        // A number at the end of the input is whole; the `]` is missing.
        assert_eq!(place(&error("[1, 23")), (ErrorKind::Eof, 2, 1, 7, 6));
        assert_eq!(values("[1, 23]"), ["1", "23"]);
    }

    #[test]
    fn decode_errors_inside_the_extent_are_found_even_when_nesting_is_unbalanced() {
        // `}` closes the `[`: the extent runs on, but the decoder stops at the `}`.
        let err = error("[{\"a\": [}, {}]");
        assert_eq!(place(&err), (ErrorKind::InvalidValue, 0, 1, 9, 8));
        let err = error("[{\"a\": [}, {}");
        assert_eq!(place(&err), (ErrorKind::InvalidValue, 0, 1, 9, 8));
    }

    #[test]
    fn elements_over_the_size_limit_are_errors_before_they_are_buffered() {
        let input = "[\"ab\", \"abc\", \"x\"]";
        for capacity in [1, 3, 64] {
            let reader = BufReader::with_capacity(capacity, input.as_bytes());
            let items: Vec<_> = ArrayReader::<_, Value>::new(reader)
                .max_item_size(4)
                .collect();
            assert_eq!(items.len(), 2, "capacity {capacity}");
            let err = items[1].as_ref().unwrap_err();
            assert_eq!(place(err), (ErrorKind::SizeLimit, 1, 1, 8, 7));
            assert_eq!(
                err.to_string(),
                "item 1: item is larger than the limit of 4 bytes (line 1, column 8)"
            );
        }
        assert_eq!(
            ArrayReader::<_, Value>::new(input.as_bytes())
                .max_item_size(5)
                .count(),
            3
        );
    }

    #[test]
    fn io_errors_end_the_stream() {
        for input in ["[1, {\"a", "[1, ", "[1, 2"] {
            let reader = BufReader::new(input.as_bytes().chain(Broken));
            let items: Vec<_> = ArrayReader::<_, Value>::new(reader).collect();
            assert_eq!(items.len(), 2, "{input}");
            let err = items[1].as_ref().unwrap_err();
            let end = input.len() as u64;
            assert_eq!(
                place(err),
                (ErrorKind::Io, items.len() - 1, 1, end + 1, end),
                "{input}"
            );
            assert_eq!(err.io_error().unwrap().kind(), io::ErrorKind::BrokenPipe);
        }
    }

    #[test]
    fn decode_options_apply_to_every_element() {
        let input = r#"[{"name":"a","x":1},{"y":2}]"#;
        let strict = read::<Api>(input);
        assert_eq!(
            strict[0].as_ref().unwrap_err().kind(),
            ErrorKind::UnknownField
        );
        let lenient = DecodeOptions::new().ignore_unknown_fields(true);
        let names: Vec<String> = ArrayReader::<_, Api>::with_options(input.as_bytes(), lenient)
            .map(|api| api.unwrap().name)
            .collect();
        assert_eq!(names, ["a", ""]);
        let shallow = DecodeOptions::new().max_depth(1);
        let items: Vec<_> =
            ArrayReader::<_, Value>::with_options("[[1], [[2]]]".as_bytes(), shallow).collect();
        assert_eq!(items[1].as_ref().unwrap_err().kind(), ErrorKind::DepthLimit);
    }

    #[test]
    fn the_writer_brackets_and_separates_and_skips_messages_that_fail_to_encode() {
        let mut out = ArrayWriter::new(Vec::new());
        let bad = Duration {
            seconds: 1,
            nanos: -1,
        };
        assert_eq!(out.write(&bad).unwrap_err().kind(), ErrorKind::Encode);
        assert_eq!(out.get_ref(), b"");
        out.write(&Struct::default()).unwrap();
        assert!(out.write(&bad).is_err());
        out.write(&Value {
            kind: Some(Kind::BoolValue(true)),
        })
        .unwrap();
        assert_eq!(out.get_ref(), b"[{},true");
        assert_eq!(out.finish().unwrap(), b"[{},true]");
        let options = EncodeOptions::new().use_proto_names(true);
        let mut out = ArrayWriter::with_options(Vec::new(), options);
        out.write(&prost_types::Method {
            request_type_url: "t".into(),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(out.into_inner(), br#"[{"request_type_url":"t"}"#);
    }

    #[test]
    fn finish_flushes_and_write_errors_are_io_errors() {
        let mut out = ArrayWriter::new(io::BufWriter::new(Vec::new()));
        out.write(&Duration::default()).unwrap();
        assert_eq!(out.get_ref().get_ref(), b"");
        assert_eq!(out.finish().unwrap().get_ref(), br#"["0s"]"#);
        let err = ArrayWriter::new(FailingWriter).finish().unwrap_err();
        assert_eq!(
            (err.kind(), err.message()),
            (ErrorKind::Io, "cannot write the JSON: broken")
        );
        let mut failing = ArrayWriter::new(FailingWriter);
        assert_eq!(
            failing.write(&Duration::default()).unwrap_err().kind(),
            ErrorKind::Io
        );
        assert_eq!(
            failing.flush().unwrap_err().message(),
            "cannot flush the output: broken"
        );
    }
}
