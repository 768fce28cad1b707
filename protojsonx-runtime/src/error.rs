//! The one error type decoding returns.
//!
//! Errors are rare, so everything about them is paid for on the error path:
//! the value is boxed (a `Result<T, Error>` stays one word wider than `T`),
//! it is built in `#[cold]` functions, line and column are computed from the
//! byte offset only when an error is created, and the field path is collected
//! while the error travels up through the generated code.

use std::fmt;

/// A ProtoJSON decoding error: what went wrong, which field, and where in the input.
///
/// `Display` gives a sentence a person can act on, for example
/// ``invalid value for int32: number has a fractional part at `events[3].actor.age` (line 1, column 45)``.
pub struct Error {
    inner: Box<Inner>,
}

struct Inner {
    kind: ErrorKind,
    message: String,
    offset: usize,
    line: usize,
    column: usize,
    /// Innermost segment first: segments are pushed as the error travels outwards.
    path: Vec<PathSegment>,
}

/// The category of a decoding error, for programs that react to errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not valid JSON (RFC 8259), or has data after the value.
    Syntax,
    /// The input ended in the middle of a value.
    Eof,
    /// Valid JSON, but the value does not fit the field: wrong JSON type,
    /// out of range, bad base64, unknown enum name, ...
    InvalidValue,
    /// An object key names no field of the message, and unknown fields are not ignored.
    UnknownField,
    /// A field appears twice in one object, a map key twice in one map, or
    /// two members of one oneof are set.
    DuplicateField,
    /// An object of a proto2 message leaves out one of its `required`
    /// fields (see `DecodeOptions::allow_partial`).
    MissingField,
    /// Objects and arrays are nested deeper than `DecodeOptions::max_depth`.
    DepthLimit,
    /// Encoding failed: a message holds a value ProtoJSON cannot express (a
    /// timestamp out of range, an `Any` of an unregistered type, ...).
    Encode,
    /// Reading the JSON from an `io::Read` or writing it to an `io::Write` failed.
    Io,
    /// The input is larger than its limit: the `max_size` of
    /// `DecodeOptions::from_reader_limited`, or a stream's maximum item size.
    SizeLimit,
    /// Binary protobuf input is malformed (a truncated field, a bad
    /// varint or wire type, a string that is not UTF-8): from the dynamic
    /// transcoder, `protojsonx-dynamic`. The offset is in the binary input.
    Binary,
}

/// One step of the path from the top-level message to the value in error.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PathSegment {
    /// A field, by the key that appeared in the input.
    Field(String),
    /// An element of a repeated field.
    Index(usize),
    /// A value of a map field, by its key as it appeared in the input.
    Key(String),
}

impl Error {
    /// Builds an error at `offset` in `input`; line and column are derived here.
    #[cold]
    #[inline(never)]
    pub(crate) fn new(kind: ErrorKind, message: String, input: &[u8], offset: usize) -> Self {
        let offset = offset.min(input.len());
        let before = &input[..offset];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = 1 + String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count();
        Error {
            inner: Box::new(Inner {
                kind,
                message,
                offset,
                line,
                column,
                path: Vec::new(),
            }),
        }
    }

    /// An encoding error, or an I/O error while writing; it has no input location.
    #[cold]
    pub(crate) fn encode(kind: ErrorKind, message: String) -> Self {
        Error {
            inner: Box::new(Inner {
                kind,
                message,
                offset: 0,
                line: 0,
                column: 0,
                path: Vec::new(),
            }),
        }
    }

    /// An error in binary protobuf input at byte `offset` (line and
    /// column are 0: binary has none).
    #[cold]
    pub(crate) fn binary(message: String, offset: usize) -> Self {
        let mut error = Self::encode(ErrorKind::Binary, message);
        error.inner.offset = offset;
        error
    }

    /// The category of the error.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// What went wrong, without the location.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// Byte offset into the input where the offending value or token starts.
    pub fn offset(&self) -> usize {
        self.inner.offset
    }

    /// 1-based line of [`offset`](Self::offset); 0 for encoding errors.
    pub fn line(&self) -> usize {
        self.inner.line
    }

    /// 1-based column (in characters) of [`offset`](Self::offset); 0 for encoding errors.
    pub fn column(&self) -> usize {
        self.inner.column
    }

    /// The segments from the top-level message down to the value in error.
    pub fn path(&self) -> impl Iterator<Item = &PathSegment> {
        self.inner.path.iter().rev()
    }

    /// The path as text, like `events[3].actor.age` or `labels["env"]`; empty at the top level.
    pub fn path_string(&self) -> String {
        let mut out = String::new();
        for segment in self.path() {
            match segment {
                PathSegment::Field(name) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(name);
                }
                PathSegment::Index(i) => {
                    out.push('[');
                    out.push_str(&i.to_string());
                    out.push(']');
                }
                PathSegment::Key(key) => {
                    out.push('[');
                    out.push_str(&format!("{key:?}"));
                    out.push(']');
                }
            }
        }
        out
    }

    /// Records that the error happened inside the field named `key`.
    #[cold]
    #[doc(hidden)]
    pub fn in_field(mut self, key: &[u8]) -> Self {
        let name = String::from_utf8_lossy(key).into_owned();
        self.inner.path.push(PathSegment::Field(name));
        self
    }

    /// Records that the error happened inside element `index` of a repeated field.
    #[cold]
    #[doc(hidden)]
    pub fn in_index(mut self, index: usize) -> Self {
        self.inner.path.push(PathSegment::Index(index));
        self
    }

    /// Records that the error happened inside the map value under `key`.
    #[cold]
    #[doc(hidden)]
    pub fn in_key(mut self, key: &str) -> Self {
        self.inner.path.push(PathSegment::Key(key.to_owned()));
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.inner.message)?;
        let path = self.path_string();
        if !path.is_empty() {
            write!(f, " at `{path}`")?;
        }
        if self.inner.kind == ErrorKind::Binary {
            return write!(f, " (byte {})", self.inner.offset);
        }
        if self.inner.line == 0 {
            return Ok(());
        }
        write!(
            f,
            " (line {}, column {})",
            self.inner.line, self.inner.column
        )
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.inner.kind)
            .field("message", &self.inner.message)
            .field("path", &self.path_string())
            .field("offset", &self.inner.offset)
            .field("line", &self.inner.line)
            .field("column", &self.inner.column)
            .finish()
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_derived_from_the_offset() {
        let input = b"{\n  \"a\": 1,\n  \"b\": x\n}";
        let offset = input.iter().position(|&b| b == b'x').unwrap();
        let err = Error::new(
            ErrorKind::Syntax,
            "invalid character 'x'".into(),
            input,
            offset,
        );
        assert_eq!((err.line(), err.column(), err.offset()), (3, 8, offset));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let input = "{\"é\": x}".as_bytes();
        let offset = input.iter().position(|&b| b == b'x').unwrap();
        let err = Error::new(ErrorKind::Syntax, "bad".into(), input, offset);
        assert_eq!(err.column(), 7);
    }

    #[test]
    fn path_is_built_inside_out_and_displayed_outside_in() {
        let err = Error::new(ErrorKind::InvalidValue, "bad age".into(), b"{}", 1)
            .in_field(b"age")
            .in_field(b"actor")
            .in_index(3)
            .in_field(b"events")
            .in_key("env")
            .in_field(b"labels");
        assert_eq!(err.path_string(), "labels[\"env\"].events[3].actor.age");
        assert_eq!(
            err.to_string(),
            "bad age at `labels[\"env\"].events[3].actor.age` (line 1, column 2)"
        );
    }

    #[test]
    fn error_at_top_level_has_no_path() {
        let err = Error::new(ErrorKind::Eof, "unexpected end of input".into(), b"{", 1);
        assert_eq!(
            err.to_string(),
            "unexpected end of input (line 1, column 2)"
        );
    }
}
