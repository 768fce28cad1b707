//! Newline-delimited JSON (NDJSON, JSON Lines): one message per line.

use std::io::{self, BufRead};
use std::iter::FusedIterator;
use std::marker::PhantomData;

use super::{DEFAULT_MAX_SIZE, Position, StreamError, with_chunk};
use crate::{DecodeOptions, EncodeOptions, Error, ProtoJson};

/// Reads newline-delimited JSON: an iterator over the messages of an
/// [`io::BufRead`], one per line, each decoded with the reader's [`DecodeOptions`].
///
/// Lines end with `\n`; a `\r` before it (CRLF) and spaces or tabs around
/// the JSON are whitespace and allowed. Blank and whitespace-only lines are
/// skipped; the last line needs no `\n`. A message written over several
/// lines is an error, as is a line longer than
/// [`max_item_size`](Self::max_item_size): reading stops at the first error
/// (the iterator yields it, then `None`). See the [module docs](super) on memory.
///
/// ```
/// use protojsonx_runtime::stream::NdjsonReader;
/// use prost_types::Timestamp;
///
/// let input = "\"1970-01-01T00:00:01Z\"\r\n\r\n  \"1970-01-01T00:00:02Z\"";
/// let seconds: Vec<i64> = NdjsonReader::<_, Timestamp>::new(input.as_bytes())
///     .map(|item| item.map(|ts| ts.seconds))
///     .collect::<Result<_, _>>()?;
/// assert_eq!(seconds, [1, 2]);
/// # Ok::<(), protojsonx_runtime::stream::StreamError>(())
/// ```
pub struct NdjsonReader<R, M> {
    reader: R,
    opts: DecodeOptions,
    max_item_size: usize,
    /// The current line, when it spans more than one of `reader`'s buffers.
    buf: Vec<u8>,
    /// Where the next line starts.
    next: Position,
    index: usize,
    done: bool,
    message: PhantomData<fn() -> M>,
}

/// What one buffer of input gave [`NdjsonReader::read_line`].
enum LineStep<T> {
    /// A whole line, of this many bytes (without the `\n`), and what was made of it.
    Line(T, usize),
    /// The line goes on in the next buffer.
    More,
    /// The line is longer than the size limit.
    TooLong,
    /// The input has ended.
    End,
}

impl<R: BufRead, M: ProtoJson> NdjsonReader<R, M> {
    /// Reads messages from `reader` with the default [`DecodeOptions`].
    pub fn new(reader: R) -> Self {
        Self::with_options(reader, DecodeOptions::new())
    }

    /// Reads messages from `reader`, decoding each with `opts`.
    pub fn with_options(reader: R, opts: DecodeOptions) -> Self {
        NdjsonReader {
            reader,
            opts,
            max_item_size: DEFAULT_MAX_SIZE,
            buf: Vec::new(),
            next: Position::START,
            index: 0,
            done: false,
            message: PhantomData,
        }
    }

    /// The longest line accepted, in bytes without the `\n` (default
    /// [`DEFAULT_MAX_SIZE`]); a longer one is an
    /// [`ErrorKind::SizeLimit`](crate::ErrorKind::SizeLimit) error. This
    /// bounds the memory the reader takes for one item.
    pub fn max_item_size(mut self, bytes: usize) -> Self {
        self.max_item_size = bytes;
        self
    }

    /// Gives back the underlying reader, positioned after what was read.
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// Decodes the next message into `msg`, replacing what it held and
    /// reusing its memory (see [`DecodeOptions::decode_into`]): a stream of
    /// messages of one shape read this way allocates nothing once `msg` has
    /// grown. `Ok(true)` when a message was read, `Ok(false)` at the end of
    /// the input (and after an error, which ends the stream as for the iterator).
    ///
    /// ```
    /// use protojsonx_runtime::stream::NdjsonReader;
    /// use prost_types::Timestamp;
    ///
    /// let mut reader = NdjsonReader::new("\"1970-01-01T00:00:01Z\"\n\"1970-01-01T00:00:02Z\"".as_bytes());
    /// let (mut ts, mut seconds) = (Timestamp::default(), Vec::new());
    /// while reader.read_into(&mut ts)? {
    ///     seconds.push(ts.seconds);
    /// }
    /// assert_eq!(seconds, [1, 2]);
    /// # Ok::<(), protojsonx_runtime::stream::StreamError>(())
    /// ```
    pub fn read_into(&mut self, msg: &mut M) -> Result<bool, StreamError> {
        let opts = self.opts;
        self.advance(|line| opts.decode_into(msg, line))
            .map(|read| read.is_some())
    }

    /// The next item, decoded by `decode`, counted; `None` at the end and
    /// after an error, which ends the stream.
    fn advance<T>(
        &mut self,
        decode: impl FnMut(&[u8]) -> Result<T, Error>,
    ) -> Result<Option<T>, StreamError> {
        if self.done {
            return Ok(None);
        }
        let result = self.read_item(decode);
        match &result {
            Ok(Some(_)) => self.index += 1,
            _ => self.done = true,
        }
        result
    }

    /// Decodes the next message with `decode`; `None` at the end of the input.
    fn read_item<T>(
        &mut self,
        mut decode: impl FnMut(&[u8]) -> Result<T, Error>,
    ) -> Result<Option<T>, StreamError> {
        loop {
            let start = self.next;
            let line = self.read_line(|line| {
                let blank = line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r'));
                (!blank).then(|| decode(line))
            })?;
            match line {
                None => return Ok(None),
                Some(None) => {}
                Some(Some(Ok(item))) => return Ok(Some(item)),
                Some(Some(Err(e))) => return Err(StreamError::decode(self.index, start, e)),
            }
        }
    }

    /// Reads the next line and returns what `f` makes of it (the line
    /// without its `\n`); `None` at the end of the input. A line inside the
    /// reader's buffer is given to `f` where it lies.
    fn read_line<T>(&mut self, mut f: impl FnMut(&[u8]) -> T) -> Result<Option<T>, StreamError> {
        self.buf.clear();
        loop {
            let (buf, max) = (&mut self.buf, self.max_item_size);
            let step = with_chunk(&mut self.reader, |chunk| line_step(chunk, buf, max, &mut f));
            let step = match step {
                Ok(step) => step,
                Err(e) => {
                    let mut at = self.next;
                    at.advance(&self.buf);
                    return Err(StreamError::io(self.index, at, e));
                }
            };
            match step {
                LineStep::More => {}
                LineStep::Line(made, len) => {
                    self.next.offset += len as u64 + 1;
                    self.next.line += 1;
                    return Ok(Some(made));
                }
                LineStep::TooLong => {
                    return Err(StreamError::too_large(self.index, self.next, max));
                }
                LineStep::End if self.buf.is_empty() => return Ok(None),
                LineStep::End => {
                    self.next.advance(&self.buf);
                    return Ok(Some(f(&self.buf)));
                }
            }
        }
    }
}

/// Looks for the end of the current line in `chunk`, the reader's buffer;
/// `buf` holds the part of the line in earlier buffers. Returns how many
/// bytes of `chunk` to consume, and what was found.
fn line_step<T>(
    chunk: &[u8],
    buf: &mut Vec<u8>,
    max: usize,
    f: impl FnOnce(&[u8]) -> T,
) -> (usize, LineStep<T>) {
    if chunk.is_empty() {
        return (0, LineStep::End);
    }
    let newline = memchr::memchr(b'\n', chunk);
    if buf.len() + newline.unwrap_or(chunk.len()) > max {
        return (0, LineStep::TooLong);
    }
    match newline {
        Some(end) if buf.is_empty() => (end + 1, LineStep::Line(f(&chunk[..end]), end)),
        Some(end) => {
            buf.extend_from_slice(&chunk[..end]);
            (end + 1, LineStep::Line(f(buf), buf.len()))
        }
        None => {
            buf.extend_from_slice(chunk);
            (chunk.len(), LineStep::More)
        }
    }
}

impl<R: BufRead, M: ProtoJson> Iterator for NdjsonReader<R, M> {
    type Item = Result<M, StreamError>;

    /// The next message, or the error that ends the stream; `None` after
    /// the last line or after an error.
    fn next(&mut self) -> Option<Self::Item> {
        let opts = self.opts;
        self.advance(|line| opts.from_slice::<M>(line)).transpose()
    }
}

impl<R: BufRead, M: ProtoJson> FusedIterator for NdjsonReader<R, M> {}

/// Writes newline-delimited JSON: each message as one line of compact JSON
/// followed by `\n`, encoded with the writer's [`EncodeOptions`].
///
/// Each [`write`](Self::write) encodes into a buffer the writer reuses and
/// hands the line to the underlying writer with one `write_all`, so a line
/// is sent as soon as it is written; wrap an unbuffered writer (a file, a
/// socket) in an [`io::BufWriter`] to batch many small messages.
///
/// ```
/// use protojsonx_runtime::{EncodeOptions, stream::NdjsonWriter};
/// use prost_types::Method;
///
/// let mut out = NdjsonWriter::with_options(Vec::new(), EncodeOptions::new().use_proto_names(true));
/// out.write(&Method { name: "Get".into(), request_type_url: "t/a".into(), ..Default::default() })?;
/// out.write(&Method::default())?;
/// assert_eq!(out.finish()?, b"{\"name\":\"Get\",\"request_type_url\":\"t/a\"}\n{}\n");
/// # Ok::<(), protojsonx_runtime::Error>(())
/// ```
pub struct NdjsonWriter<W> {
    writer: W,
    opts: EncodeOptions,
    buf: Vec<u8>,
}

impl<W: io::Write> NdjsonWriter<W> {
    /// Writes messages to `writer` with the default [`EncodeOptions`].
    pub fn new(writer: W) -> Self {
        Self::with_options(writer, EncodeOptions::new())
    }

    /// Writes messages to `writer`, encoding each with `opts`.
    pub fn with_options(writer: W, opts: EncodeOptions) -> Self {
        NdjsonWriter {
            writer,
            opts,
            buf: Vec::new(),
        }
    }

    /// Appends `msg` and a `\n`. If encoding fails nothing is written, and
    /// the stream stays valid; an I/O error may leave a partial line.
    pub fn write<M: ProtoJson>(&mut self, msg: &M) -> Result<(), Error> {
        super::write_framed(&mut self.writer, &mut self.buf, &self.opts, b"", msg, b"\n")
    }

    /// Flushes the underlying writer.
    pub fn flush(&mut self) -> Result<(), Error> {
        super::flush(&mut self.writer)
    }

    /// The underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.writer
    }

    /// Gives back the underlying writer without flushing it.
    pub fn into_inner(self) -> W {
        self.writer
    }

    /// Flushes the underlying writer and gives it back: the end of the stream.
    pub fn finish(mut self) -> Result<W, Error> {
        self.flush()?;
        Ok(self.writer)
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufReader, Read};

    use prost_types::{Api, Duration, Method, Value, value::Kind};

    use super::*;
    use crate::ErrorKind;
    use crate::stream::tests::{Broken, FailingWriter};

    fn read<M: ProtoJson>(input: &str) -> Vec<Result<M, StreamError>> {
        NdjsonReader::new(input.as_bytes()).collect()
    }

    fn seconds(input: &str) -> Vec<i64> {
        read::<Duration>(input)
            .into_iter()
            .map(|d| d.unwrap().seconds)
            .collect()
    }

    #[test]
    fn blank_lines_crlf_and_a_missing_last_newline_are_accepted() {
        assert_eq!(seconds("\"1s\"\n\"2s\"\n"), [1, 2]);
        assert_eq!(
            seconds("\"1s\"\r\n\r\n \t \n\n  \"2s\"  \r\n\"3s\""),
            [1, 2, 3]
        );
        assert_eq!(seconds(""), [0; 0]);
        assert_eq!(seconds("\n \r\n\t\n"), [0; 0]);
    }

    #[test]
    fn a_bad_item_has_its_index_and_stream_position_then_the_stream_ends() {
        let input = "{}\n\n{\"name\":\"x\"}\r\n{\"name\": \"y\", \"methods\": [{}, {\"responseStreaming\": 1}]}\n{}\n";
        let mut items = NdjsonReader::<_, Api>::new(input.as_bytes());
        assert_eq!(items.next().unwrap().unwrap(), Api::default());
        assert_eq!(items.next().unwrap().unwrap().name, "x");
        let err = items.next().unwrap().unwrap_err();
        let line_start = input.find("{\"name\": \"y\"").unwrap();
        let bad = line_start + input[line_start..].find("1}").unwrap();
        assert_eq!(err.index(), 2);
        assert_eq!(
            (err.line(), err.column(), err.offset()),
            (4, 1 + (bad - line_start) as u64, bad as u64)
        );
        assert_eq!(err.kind(), ErrorKind::InvalidValue);
        let decode = err.decode_error().unwrap();
        assert_eq!(decode.path_string(), "methods[1].responseStreaming");
        assert_eq!((decode.line(), decode.offset()), (1, bad - line_start));
        assert_eq!(
            err.to_string(),
            "item 2: expected bool, found number at `methods[1].responseStreaming` (line 4, column 53)"
        );
        assert!(items.next().is_none());
        assert!(items.next().is_none());
    }

    #[test]
    fn a_message_over_several_lines_is_an_error() {
        let items = read::<Api>("{\"name\":\n\"x\"}\n");
        assert_eq!(items.len(), 1);
        let err = items[0].as_ref().unwrap_err();
        assert_eq!(
            (err.kind(), err.index(), err.line(), err.column()),
            (ErrorKind::Eof, 0, 1, 9)
        );
    }

    #[test]
    fn decode_options_apply_to_every_line() {
        let input = "{\"name\":\"a\",\"extra\":1}\n{\"extra\":2}\n";
        let strict = read::<Api>(input);
        assert_eq!(
            strict[0].as_ref().unwrap_err().kind(),
            ErrorKind::UnknownField
        );
        let lenient = DecodeOptions::new().ignore_unknown_fields(true);
        let names: Vec<String> = NdjsonReader::<_, Api>::with_options(input.as_bytes(), lenient)
            .map(|api| api.unwrap().name)
            .collect();
        assert_eq!(names, ["a", ""]);
    }

    #[test]
    fn lines_over_the_size_limit_are_errors_before_they_are_buffered() {
        let input = "\"1s\"\n\"10s\"\n\"2s\"\n";
        // 4 bytes fit; "10s" with quotes is 5. The reader's buffer is smaller
        // than the line, so the limit is found while gathering it.
        for capacity in [1, 2, 64] {
            let reader = BufReader::with_capacity(capacity, input.as_bytes());
            let items: Vec<_> = NdjsonReader::<_, Duration>::new(reader)
                .max_item_size(4)
                .collect();
            assert_eq!(items.len(), 2, "capacity {capacity}");
            assert_eq!(items[0].as_ref().unwrap().seconds, 1);
            let err = items[1].as_ref().unwrap_err();
            assert_eq!(
                (
                    err.kind(),
                    err.index(),
                    err.line(),
                    err.column(),
                    err.offset()
                ),
                (ErrorKind::SizeLimit, 1, 2, 1, 5)
            );
            assert_eq!(
                err.to_string(),
                "item 1: item is larger than the limit of 4 bytes (line 2, column 1)"
            );
        }
        assert_eq!(
            NdjsonReader::<_, Duration>::new(input.as_bytes())
                .max_item_size(5)
                .count(),
            3
        );
    }

    #[test]
    fn io_errors_end_the_stream() {
        let reader = BufReader::new("\"1s\"\n\"2".as_bytes().chain(Broken));
        let items: Vec<_> = NdjsonReader::<_, Duration>::new(reader).collect();
        assert_eq!(items.len(), 2);
        let err = items[1].as_ref().unwrap_err();
        assert_eq!(
            (
                err.kind(),
                err.index(),
                err.line(),
                err.column(),
                err.offset()
            ),
            (ErrorKind::Io, 1, 2, 3, 7)
        );
        assert_eq!(err.io_error().unwrap().kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(
            err.to_string(),
            "item 1: cannot read the stream: broken (line 2, column 3)"
        );
    }

    #[test]
    fn invalid_utf8_is_reported_by_the_decoder() {
        let input = b"\"ok\"\n\"a\xffb\"\n";
        let items: Vec<Result<Value, _>> = NdjsonReader::new(&input[..]).collect();
        assert_eq!(
            items[0].as_ref().unwrap().kind,
            Some(Kind::StringValue("ok".into()))
        );
        let err = items[1].as_ref().unwrap_err();
        assert_eq!(
            (err.kind(), err.line(), err.offset()),
            (ErrorKind::Syntax, 2, 7)
        );
    }

    #[test]
    fn the_writer_appends_lines_and_skips_messages_that_fail_to_encode() {
        let mut out = NdjsonWriter::new(Vec::new());
        out.write(&Duration {
            seconds: 1,
            nanos: 0,
        })
        .unwrap();
        let bad = Duration {
            seconds: 1,
            nanos: -1,
        };
        assert_eq!(out.write(&bad).unwrap_err().kind(), ErrorKind::Encode);
        out.write(&Method {
            name: "m".into(),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(out.get_ref(), b"\"1s\"\n{\"name\":\"m\"}\n");
        assert_eq!(out.into_inner(), b"\"1s\"\n{\"name\":\"m\"}\n");
    }

    #[test]
    fn finish_flushes_and_write_errors_are_io_errors() {
        let out = NdjsonWriter::new(io::BufWriter::new(Vec::new()));
        let mut out = out;
        out.write(&Duration::default()).unwrap();
        assert_eq!(out.get_ref().get_ref(), b"");
        assert_eq!(out.finish().unwrap().get_ref(), b"\"0s\"\n");
        let mut failing = NdjsonWriter::new(FailingWriter);
        let err = failing.write(&Duration::default()).unwrap_err();
        assert_eq!(
            (err.kind(), err.message()),
            (ErrorKind::Io, "cannot write the JSON: broken")
        );
        assert_eq!(
            failing.flush().unwrap_err().message(),
            "cannot flush the output: broken"
        );
    }
}
