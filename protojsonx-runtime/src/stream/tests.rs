//! Tests of the whole module: round trips of random streams through the
//! writers and readers with input in random pieces, error positions checked
//! against the whole input, and one message through `std::io`.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read, Write};

use prost_types::{Duration, ListValue, Struct, Value, value::Kind};

use super::*;
use crate::test_rng::Rng;
use crate::{DecodeOptions, ErrorKind};

/// A reader whose every read fails with `BrokenPipe`.
pub(super) struct Broken;

impl Read for Broken {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(io::Error::new(io::ErrorKind::BrokenPipe, "broken"))
    }
}

/// A writer whose every write and flush fails.
#[derive(Debug)]
pub(super) struct FailingWriter;

impl Write for FailingWriter {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::other("broken"))
    }

    fn flush(&mut self) -> io::Result<()> {
        Err(io::Error::other("broken"))
    }
}

/// A reader that gives 1 to `max` bytes per read, and fails every other
/// read with `Interrupted` (which readers must retry).
struct Chunked<'a> {
    input: &'a [u8],
    rng: Rng,
    max: usize,
    interrupt: bool,
}

impl Read for Chunked<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.interrupt = !self.interrupt;
        if self.interrupt {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let n = (1 + self.rng.next() as usize % self.max)
            .min(out.len())
            .min(self.input.len());
        out[..n].copy_from_slice(&self.input[..n]);
        self.input = &self.input[n..];
        Ok(n)
    }
}

/// `input` behind a `BufReader` of random capacity over a [`Chunked`] reader.
fn chunked<'a>(input: &'a [u8], rng: &mut Rng) -> impl BufRead + 'a {
    let capacity = 1 + rng.next() as usize % 40;
    let max = 1 + rng.next() as usize % 16;
    let seed = rng.next() | 1;
    let reader = Chunked {
        input,
        rng: Rng(seed),
        max,
        interrupt: false,
    };
    BufReader::with_capacity(capacity, reader)
}

/// Characters that matter to the extent scanner and the encoder.
const ALPHABET: &[char] = &[
    'a', 'Z', ' ', '"', '\\', '/', '[', ']', '{', '}', ',', ':', '\n', '\r', '\t', '\u{1}', 'é',
    '€', '😀', '\u{2028}',
];

fn random_string(rng: &mut Rng) -> String {
    let len = rng.next() % 8;
    (0..len)
        .map(|_| ALPHABET[rng.next() as usize % ALPHABET.len()])
        .collect()
}

/// A random `Value` nested at most `depth` levels.
fn random_value(rng: &mut Rng, depth: u32) -> Value {
    let pick = rng.next() % if depth == 0 { 4 } else { 6 };
    let kind = match pick {
        0 => Kind::NullValue(0),
        1 => Kind::BoolValue(rng.next() % 2 == 0),
        2 => Kind::NumberValue(random_number(rng)),
        3 => Kind::StringValue(random_string(rng)),
        4 => Kind::ListValue(ListValue {
            values: (0..rng.next() % 4)
                .map(|_| random_value(rng, depth - 1))
                .collect(),
        }),
        _ => Kind::StructValue(random_struct(rng, depth - 1)),
    };
    Value { kind: Some(kind) }
}

fn random_struct(rng: &mut Rng, depth: u32) -> Struct {
    let fields: BTreeMap<String, Value> = (0..rng.next() % 4)
        .map(|_| (random_string(rng), random_value(rng, depth)))
        .collect();
    Struct {
        fields: fields.into_iter().collect(),
    }
}

/// A finite double: small integers, or any finite bit pattern.
fn random_number(rng: &mut Rng) -> f64 {
    if rng.next() % 2 == 0 {
        return (rng.next() % 2000) as f64 - 1000.0;
    }
    loop {
        let v = f64::from_bits(rng.next());
        if v.is_finite() {
            return v;
        }
    }
}

/// JSON whitespace, mostly none.
fn random_space(rng: &mut Rng) -> &'static str {
    ["", "", "", " ", "\n", "\r\n", "\t ", "\n\n  "][rng.next() as usize % 8]
}

fn random_stream(rng: &mut Rng) -> Vec<Value> {
    (0..rng.next() % 12).map(|_| random_value(rng, 3)).collect()
}

/// The whole stream, as the writers write it or with random whitespace
/// (blank lines and CRLF for NDJSON, whitespace between tokens for arrays).
fn encode(values: &[Value], array: bool, rng: &mut Rng) -> Vec<u8> {
    if rng.next() % 2 == 0 {
        return write_all(values, array);
    }
    let items = values.iter().map(|v| crate::to_string(v).unwrap());
    if !array {
        let lines = items.map(|item| {
            format!(
                "{}{item}{}",
                random_space(rng).replace('\n', ""),
                ["\n", "\r\n", "\n \n\n"][rng.next() as usize % 3]
            )
        });
        return lines.collect::<String>().into_bytes();
    }
    let mut out = String::from(random_space(rng));
    out.push('[');
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push_str(random_space(rng));
            out.push(',');
        }
        out.push_str(random_space(rng));
        out.push_str(&item);
    }
    out.push_str(random_space(rng));
    out.push(']');
    out.push_str(random_space(rng));
    out.into_bytes()
}

/// The stream as [`NdjsonWriter`] or [`ArrayWriter`] writes it.
fn write_all(values: &[Value], array: bool) -> Vec<u8> {
    if array {
        let mut out = ArrayWriter::new(Vec::new());
        values.iter().for_each(|v| out.write(v).unwrap());
        return out.finish().unwrap();
    }
    let mut out = NdjsonWriter::new(Vec::new());
    values.iter().for_each(|v| out.write(v).unwrap());
    out.finish().unwrap()
}

/// Reads `input` as an array or as NDJSON, in random pieces.
fn read_all(input: &[u8], array: bool, rng: &mut Rng) -> Vec<Result<Value, StreamError>> {
    let reader = chunked(input, rng);
    if array {
        ArrayReader::new(reader).collect()
    } else {
        NdjsonReader::new(reader).collect()
    }
}

#[test]
fn random_streams_round_trip_in_random_pieces() {
    let mut rng = Rng(0x5eed_0f57_4ea5);
    for round in 0..600 {
        let array = round % 2 == 0;
        let values = random_stream(&mut rng);
        let input = encode(&values, array, &mut rng);
        let read: Vec<Value> = read_all(&input, array, &mut rng)
            .into_iter()
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{e} in {}", String::from_utf8_lossy(&input)));
        assert_eq!(read, values, "{}", String::from_utf8_lossy(&input));
    }
}

/// Reads `input` as [`read_all`] does, but through `read_into` into one
/// message kept from item to item; each item as its `Display` or error text.
fn read_all_into(input: &[u8], array: bool, rng: &mut Rng) -> Vec<Result<String, String>> {
    let reader = chunked(input, rng);
    let mut value = Value::default();
    let mut items = Vec::new();
    let mut push = |read: Result<bool, StreamError>, value: &Value| match read {
        Ok(true) => {
            items.push(Ok(crate::to_string(value).unwrap()));
            true
        }
        Ok(false) => false,
        Err(e) => {
            items.push(Err(e.to_string()));
            true
        }
    };
    if array {
        let mut reader = ArrayReader::new(reader);
        while push(reader.read_into(&mut value), &value) {}
        assert!(!reader.read_into(&mut value).unwrap(), "ended");
    } else {
        let mut reader = NdjsonReader::new(reader);
        while push(reader.read_into(&mut value), &value) {}
        assert!(!reader.read_into(&mut value).unwrap(), "ended");
    }
    items
}

#[test]
fn read_into_gives_what_the_iterator_gives() {
    let mut rng = Rng(0x1e70_4e05);
    for round in 0..600 {
        let array = round % 2 == 0;
        let mut values = random_stream(&mut rng);
        let input = if round % 3 == 0 && !values.is_empty() {
            // An item that fails to decode ends both the same way.
            let bad = rng.next() as usize % values.len();
            encode_with_bad_item(&mut values, bad, array, &mut rng)
        } else {
            String::from_utf8(encode(&values, array, &mut rng)).unwrap()
        };
        let seed = rng.next();
        let want: Vec<Result<String, String>> = read_all(input.as_bytes(), array, &mut Rng(seed))
            .into_iter()
            .map(|item| {
                item.map(|v| crate::to_string(&v).unwrap())
                    .map_err(|e| e.to_string())
            })
            .collect();
        let got = read_all_into(input.as_bytes(), array, &mut Rng(seed));
        assert_eq!(got, want, "{input}");
    }
}

/// The stream of `values` (see [`encode`]) with item `bad` replaced by a
/// string that holds an invalid escape, `"\xbad"`: the decoder fails at its `\`.
fn encode_with_bad_item(values: &mut [Value], bad: usize, array: bool, rng: &mut Rng) -> String {
    values[bad] = Value {
        kind: Some(Kind::StringValue("\u{1}bad".into())),
    };
    String::from_utf8(encode(values, array, rng))
        .unwrap()
        .replacen("\\u0001bad", "\\xbad", 1)
}

/// The line and column of byte `offset` in `input`, counted directly.
fn line_and_column(input: &[u8], offset: usize) -> (u64, u64) {
    let before = String::from_utf8_lossy(&input[..offset]);
    let line = 1 + before.matches('\n').count() as u64;
    let column = 1 + before.rsplit('\n').next().unwrap().chars().count() as u64;
    (line, column)
}

#[test]
fn errors_in_random_streams_have_the_index_and_place_of_the_bad_item() {
    let mut rng = Rng(0xbad_17e5);
    for round in 0..600 {
        let array = round % 2 == 0;
        let mut values = random_stream(&mut rng);
        values.push(random_value(&mut rng, 2));
        let bad = rng.next() as usize % values.len();
        let input = encode_with_bad_item(&mut values, bad, array, &mut rng);
        let items = read_all(input.as_bytes(), array, &mut rng);
        assert_eq!(items.len(), bad + 1, "{input}");
        assert!(items[..bad].iter().all(Result::is_ok));
        let err = items[bad].as_ref().unwrap_err();
        let offset = input.find("\\xbad").unwrap();
        assert_eq!(err.index(), bad);
        assert_eq!(err.kind(), ErrorKind::Syntax);
        assert_eq!(err.offset(), offset as u64, "{input}");
        let (line, column) = line_and_column(input.as_bytes(), offset);
        assert_eq!((err.line(), err.column()), (line, column), "{input}");
    }
}

#[test]
fn positions_advance_by_lines_and_characters() {
    let mut at = Position::START;
    at.advance("ab€".as_bytes());
    assert_eq!(
        at,
        Position {
            offset: 5,
            line: 1,
            column: 4
        }
    );
    at.advance("\n\nx😀y".as_bytes());
    assert_eq!(
        at,
        Position {
            offset: 13,
            line: 3,
            column: 4
        }
    );
    at.advance(b"");
    assert_eq!(at.offset, 13);
    let err = crate::from_str::<Duration>("\n  1").unwrap_err();
    assert_eq!((err.line(), err.column()), (2, 3));
    assert_eq!(
        at.of(&err),
        Position {
            offset: 16,
            line: 4,
            column: 3
        }
    );
    let err = crate::from_str::<Duration>("  1").unwrap_err();
    assert_eq!(
        at.of(&err),
        Position {
            offset: 15,
            line: 3,
            column: 6
        }
    );
}

#[test]
fn stream_errors_give_their_source() {
    use std::error::Error as _;
    let err = NdjsonReader::<_, Duration>::new(&b"1\n"[..])
        .next()
        .unwrap()
        .unwrap_err();
    let source = err.source().unwrap().downcast_ref::<Error>().unwrap();
    assert_eq!(source.kind(), ErrorKind::InvalidValue);
    let reader = BufReader::new(Broken);
    let err = ArrayReader::<_, Duration>::new(reader)
        .next()
        .unwrap()
        .unwrap_err();
    let source = err.source().unwrap().downcast_ref::<io::Error>().unwrap();
    assert_eq!(source.kind(), io::ErrorKind::BrokenPipe);
    let err = ArrayReader::<_, Duration>::new(&b"x"[..])
        .next()
        .unwrap()
        .unwrap_err();
    assert!(err.source().is_none());
    assert!(
        format!("{err:?}")
            .contains("message: \"item 0: expected `[`, found 'x' (line 1, column 1)\"")
    );
}

#[test]
fn from_reader_reads_to_the_end_within_the_limit() {
    let mut rng = Rng(77);
    let json = br#"{"b": [1, "x", {"c": null}], "a": "\u00e9"}"#;
    let from_slice: Struct = crate::from_slice(json).unwrap();
    let read: Struct = crate::from_reader(chunked(json, &mut rng)).unwrap();
    assert_eq!(read, from_slice);
    let opts = DecodeOptions::new();
    let exact: Struct = opts.from_reader_limited(&json[..], json.len()).unwrap();
    assert_eq!(exact, from_slice);
    let err = opts
        .from_reader_limited::<_, Struct>(&json[..], json.len() - 1)
        .unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::SizeLimit, json.len() - 1)
    );
    assert_eq!(
        err.message(),
        format!(
            "the input is larger than the limit of {} bytes",
            json.len() - 1
        )
    );
    // Errors are placed in the input as `from_slice` places them.
    let bad = b"{\"a\":\n [1, }";
    let (from_slice, read) = (
        crate::from_slice::<Struct>(bad).unwrap_err(),
        crate::from_reader::<_, Struct>(chunked(bad, &mut rng)).unwrap_err(),
    );
    assert_eq!(read.to_string(), from_slice.to_string());
}

#[test]
fn from_reader_reports_read_errors_where_they_happen() {
    let err = crate::from_reader::<_, Struct>(b"{\n\"a\"".chain(Broken)).unwrap_err();
    assert_eq!(
        (err.kind(), err.line(), err.column(), err.offset()),
        (ErrorKind::Io, 2, 4, 5)
    );
    assert_eq!(err.message(), "cannot read the JSON: broken");
}

#[test]
fn to_writer_writes_what_to_vec_returns() {
    let value = random_value(&mut Rng(3), 3);
    let mut out = Vec::new();
    crate::to_writer(&mut out, &value).unwrap();
    crate::to_writer(&mut out, &value).unwrap();
    assert_eq!(
        out,
        [
            crate::to_vec(&value).unwrap(),
            crate::to_vec(&value).unwrap()
        ]
        .concat()
    );
    let err = crate::to_writer(FailingWriter, &value).unwrap_err();
    assert_eq!(
        (err.kind(), err.message()),
        (ErrorKind::Io, "cannot write the JSON: broken")
    );
    let mut out = Vec::new();
    let bad = Duration {
        seconds: 1,
        nanos: -1,
    };
    assert_eq!(
        crate::to_writer(&mut out, &bad).unwrap_err().kind(),
        ErrorKind::Encode
    );
    assert!(out.is_empty());
}

/// A writer that writes a message with `to_writer` while it is being written to.
struct Nested(Vec<u8>);

impl Write for Nested {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.0.is_empty() {
            crate::to_writer(
                &mut self.0,
                &Duration {
                    seconds: 1,
                    nanos: 0,
                },
            )
            .unwrap();
        }
        self.0.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn to_writer_inside_a_writer_gets_a_buffer_of_its_own() {
    let mut out = Nested(Vec::new());
    crate::to_writer(
        &mut out,
        &Duration {
            seconds: 2,
            nanos: 0,
        },
    )
    .unwrap();
    assert_eq!(out.0, b"\"1s\"\"2s\"");
}
