//! Streams of messages, read one at a time from an [`io::BufRead`] and
//! written one at a time to an [`io::Write`], in the two framings HTTP APIs use:
//!
//! - newline-delimited JSON (NDJSON, JSON Lines), one message per line, as
//!   gRPC-JSON transcoders stream responses: [`NdjsonReader`], [`NdjsonWriter`];
//! - a JSON array of messages (`[{...}, {...}]`), as a server-streaming REST
//!   response arrives: [`ArrayReader`], [`ArrayWriter`].
//!
//! ```
//! use protojsonx_runtime::stream::{ArrayReader, ArrayWriter, NdjsonReader, NdjsonWriter};
//! use prost_types::Duration;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut lines = NdjsonWriter::new(Vec::new());
//! let mut array = ArrayWriter::new(Vec::new());
//! for seconds in [1, 2] {
//!     lines.write(&Duration { seconds, nanos: 0 })?;
//!     array.write(&Duration { seconds, nanos: 0 })?;
//! }
//! let (lines, array) = (lines.finish()?, array.finish()?);
//! assert_eq!(lines, b"\"1s\"\n\"2s\"\n");
//! assert_eq!(array, br#"["1s","2s"]"#);
//!
//! let from_lines: Vec<Duration> = NdjsonReader::new(&lines[..]).collect::<Result<_, _>>()?;
//! let from_array: Vec<Duration> = ArrayReader::new(&array[..]).collect::<Result<_, _>>()?;
//! assert_eq!(from_lines, from_array);
//! # Ok(())
//! # }
//! ```
//!
//! **Memory.** The decoder works on a complete value, so each item is held
//! in memory once while it is decoded: an item that lies inside the
//! `BufRead`'s buffer is decoded where it lies, one that crosses the
//! buffer's end is gathered into a buffer the reader reuses. An item larger
//! than the reader's `max_item_size` ([`DEFAULT_MAX_SIZE`] unless set) is an
//! [`ErrorKind::SizeLimit`] error, found before more than that is buffered.
//!
//! **Errors.** A reader yields `Err(`[`StreamError`]`)` for a bad item, bad
//! framing, an item over the size limit, truncated input or an I/O error,
//! with the item's index and the line, column and byte offset in the whole
//! stream; then it yields `None`: reading stops at the first error. Writers
//! return the [`Error`] of [`EncodeOptions::encode_into`] or of the write.

mod array;
mod ndjson;
pub(crate) mod single;

use std::fmt;
use std::io::{self, BufRead};

use crate::error::{Error, ErrorKind};
use crate::{EncodeOptions, ProtoJson};

pub use array::{ArrayReader, ArrayWriter};
pub use ndjson::{NdjsonReader, NdjsonWriter};

/// The default limit on the JSON of one message read from a stream or an
/// `io::Read`: 64 MiB. It is the total-bytes limit protobuf's C++ parser long
/// applied to one binary message, and 16 times gRPC's default message size
/// (4 MiB), room for JSON being two to four times larger than binary; yet a
/// runaway item (a missing newline or `]`, an endless string) cannot take
/// more memory than that.
pub const DEFAULT_MAX_SIZE: usize = 64 << 20;

/// A place in a stream: byte offset, and 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Position {
    offset: u64,
    line: u64,
    column: u64,
}

impl Position {
    /// The start of a stream.
    const START: Position = Position {
        offset: 0,
        line: 1,
        column: 1,
    };

    /// Moves past `bytes`, read from here.
    fn advance(&mut self, bytes: &[u8]) {
        self.offset += bytes.len() as u64;
        match memchr::memrchr(b'\n', bytes) {
            Some(last) => {
                self.line += bytes.iter().filter(|&&b| b == b'\n').count() as u64;
                self.column = 1 + chars(&bytes[last + 1..]);
            }
            None => self.column += chars(bytes),
        }
    }

    /// Where `err`, from decoding the item that starts here, is in the stream.
    fn of(self, err: &Error) -> Position {
        let lines_down = err.line().saturating_sub(1) as u64;
        let column = if lines_down == 0 {
            self.column + err.column().saturating_sub(1) as u64
        } else {
            err.column() as u64
        };
        Position {
            offset: self.offset + err.offset() as u64,
            line: self.line + lines_down,
            column,
        }
    }
}

/// The number of UTF-8 characters in `bytes`: the bytes that are not continuation bytes.
fn chars(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count() as u64
}

/// Calls `step` with the bytes `reader` has buffered (reading more if it has
/// none; empty at the end of the input) and consumes as many as `step`
/// says. Reads interrupted by a signal are retried.
fn with_chunk<R: BufRead, T>(
    reader: &mut R,
    step: impl FnOnce(&[u8]) -> (usize, T),
) -> io::Result<T> {
    loop {
        match reader.fill_buf() {
            Ok(chunk) => {
                let (used, result) = step(chunk);
                reader.consume(used);
                return Ok(result);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Encodes `msg` into `buf` (emptied first) between `prefix` and `suffix`,
/// then writes it to `writer` with one `write_all`. Nothing is written if
/// encoding fails.
fn write_framed<W: io::Write, M: ProtoJson>(
    writer: &mut W,
    buf: &mut Vec<u8>,
    opts: &EncodeOptions,
    prefix: &[u8],
    msg: &M,
    suffix: &[u8],
) -> Result<(), Error> {
    buf.clear();
    buf.extend_from_slice(prefix);
    opts.encode_into(msg, buf)?;
    buf.extend_from_slice(suffix);
    write_all(writer, buf)
}

/// `writer.write_all(bytes)`, with an I/O error as an [`ErrorKind::Io`] error.
fn write_all<W: io::Write>(writer: &mut W, bytes: &[u8]) -> Result<(), Error> {
    writer
        .write_all(bytes)
        .map_err(|e| Error::encode(ErrorKind::Io, format!("cannot write the JSON: {e}")))
}

/// `writer.flush()`, with an I/O error as an [`ErrorKind::Io`] error.
fn flush<W: io::Write>(writer: &mut W) -> Result<(), Error> {
    writer
        .flush()
        .map_err(|e| Error::encode(ErrorKind::Io, format!("cannot flush the output: {e}")))
}

/// An error reading a stream of messages: which item, where in the stream,
/// and the cause (a decoding [`Error`], an [`io::Error`], or bad framing).
///
/// `Display` gives the index and the position in the whole stream, for
/// example ``item 3: expected bool, found string at `methods[0].requestStreaming` (line 4, column 37)``.
///
/// ```
/// use protojsonx_runtime::{ErrorKind, stream::NdjsonReader};
/// use prost_types::Api;
///
/// let input = "{\"name\": \"a\"}\n\n{\"methods\": [{\"requestStreaming\": \"yes\"}]}\n";
/// let mut items = NdjsonReader::<_, Api>::new(input.as_bytes());
/// assert!(items.next().unwrap().is_ok());
/// let err = items.next().unwrap().unwrap_err();
/// assert_eq!((err.index(), err.line(), err.column()), (1, 3, 35));
/// assert_eq!(err.kind(), ErrorKind::InvalidValue);
/// assert_eq!(err.decode_error().unwrap().path_string(), "methods[0].requestStreaming");
/// assert_eq!(
///     err.to_string(),
///     "item 1: expected bool, found string at `methods[0].requestStreaming` (line 3, column 35)"
/// );
/// assert!(items.next().is_none()); // reading stops at the first error
/// ```
pub struct StreamError {
    inner: Box<Inner>,
}

struct Inner {
    index: usize,
    at: Position,
    cause: Cause,
}

enum Cause {
    Decode(Error),
    Io(io::Error),
    /// The stream itself is malformed: its framing, its end, an item's size.
    Stream(ErrorKind, String),
}

impl StreamError {
    #[cold]
    fn new(index: usize, at: Position, cause: Cause) -> Self {
        StreamError {
            inner: Box::new(Inner { index, at, cause }),
        }
    }

    /// Item `index`, which starts at `start`, failed to decode with `err`.
    #[cold]
    fn decode(index: usize, start: Position, err: Error) -> Self {
        StreamError::new(index, start.of(&err), Cause::Decode(err))
    }

    /// Reading failed at `at`.
    #[cold]
    fn io(index: usize, at: Position, err: io::Error) -> Self {
        StreamError::new(index, at, Cause::Io(err))
    }

    /// The stream is malformed at `at`.
    #[cold]
    fn stream(index: usize, at: Position, kind: ErrorKind, message: String) -> Self {
        StreamError::new(index, at, Cause::Stream(kind, message))
    }

    /// Item `index`, which starts at `start`, is longer than `max` bytes.
    #[cold]
    fn too_large(index: usize, start: Position, max: usize) -> Self {
        let message = format!("item is larger than the limit of {max} bytes");
        StreamError::stream(index, start, ErrorKind::SizeLimit, message)
    }

    /// The error "expected `what`, found `found`" (`None`: the end of the input) at `at`.
    #[cold]
    fn unexpected(index: usize, at: Position, what: &str, found: Option<u8>) -> Self {
        let (kind, found) = match found {
            Some(b) => (ErrorKind::Syntax, crate::read::describe_byte(b)),
            None => (ErrorKind::Eof, "end of input".into()),
        };
        let message = format!("expected {what}, found {found}");
        StreamError::stream(index, at, kind, message)
    }

    /// The 0-based index of the item being read: the number of items the
    /// reader yielded before the error. Blank NDJSON lines are not items.
    pub fn index(&self) -> usize {
        self.inner.index
    }

    /// The byte offset of the error in the whole stream. For a decoding
    /// error, that of the offending value; for an item over the size limit,
    /// the start of the item.
    pub fn offset(&self) -> u64 {
        self.inner.at.offset
    }

    /// The 1-based line of [`offset`](Self::offset) in the whole stream.
    pub fn line(&self) -> u64 {
        self.inner.at.line
    }

    /// The 1-based column (in characters) of [`offset`](Self::offset).
    pub fn column(&self) -> u64 {
        self.inner.at.column
    }

    /// The category of the error: the decoding error's kind, [`ErrorKind::Io`],
    /// [`ErrorKind::SizeLimit`], or [`ErrorKind::Syntax`] / [`ErrorKind::Eof`]
    /// for bad framing and truncated input.
    pub fn kind(&self) -> ErrorKind {
        match &self.inner.cause {
            Cause::Decode(err) => err.kind(),
            Cause::Io(_) => ErrorKind::Io,
            Cause::Stream(kind, _) => *kind,
        }
    }

    /// The error from decoding the item, with its field path; its line,
    /// column and offset are within the item.
    pub fn decode_error(&self) -> Option<&Error> {
        match &self.inner.cause {
            Cause::Decode(err) => Some(err),
            _ => None,
        }
    }

    /// The error from reading the stream.
    pub fn io_error(&self) -> Option<&io::Error> {
        match &self.inner.cause {
            Cause::Io(err) => Some(err),
            _ => None,
        }
    }
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "item {}: ", self.inner.index)?;
        match &self.inner.cause {
            Cause::Decode(err) => {
                f.write_str(err.message())?;
                let path = err.path_string();
                if !path.is_empty() {
                    write!(f, " at `{path}`")?;
                }
            }
            Cause::Io(err) => write!(f, "cannot read the stream: {err}")?,
            Cause::Stream(_, message) => f.write_str(message)?,
        }
        let at = self.inner.at;
        write!(f, " (line {}, column {})", at.line, at.column)
    }
}

impl fmt::Debug for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamError")
            .field("index", &self.inner.index)
            .field("offset", &self.inner.at.offset)
            .field("line", &self.inner.at.line)
            .field("column", &self.inner.at.column)
            .field("message", &self.to_string())
            .finish()
    }
}

impl std::error::Error for StreamError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.inner.cause {
            Cause::Decode(err) => Some(err),
            Cause::Io(err) => Some(err),
            Cause::Stream(..) => None,
        }
    }
}

#[cfg(test)]
mod tests;
