//! Transcoding: one message or a stream of them, either way.

use std::io::{self, BufRead, Read};
use std::path::Path;

use protojsonx_dynamic::{DecodeOptions, EncodeOptions, MessageType};

use crate::args::{Direction, Job};
use crate::failure::{self, Failure};
use crate::files::{Input, Output};

/// Runs `job` on messages of type `message`.
pub fn run(job: &Job, message: &MessageType) -> Result<(), Failure> {
    let input = Input::open(job.input.as_deref())?;
    let output = job.output.as_deref();
    match (job.direction, job.stream) {
        (Direction::ToJson, false) => {
            let json = one_to_json(input, message, &job.encode)?;
            write_once(output, &json)
        }
        (Direction::FromJson, false) => {
            let binary = one_from_json(input, message, &job.decode)?;
            write_once(output, &binary)
        }
        (Direction::ToJson, true) => {
            let mut out = Output::create(output)?;
            stream_to_json(input, message, &job.encode, &mut out)
        }
        (Direction::FromJson, true) => {
            let mut out = Output::create(output)?;
            stream_from_json(input, message, &job.decode, &mut out)
        }
    }
}

/// Creates the output and writes `bytes` to it: a file is created only
/// once there is something to write, so a failed run leaves it as it was.
fn write_once(path: Option<&Path>, bytes: &[u8]) -> Result<(), Failure> {
    let mut out = Output::create(path)?;
    out.write(bytes)?;
    out.flush()
}

/// The whole input, one binary message, as JSON and a newline.
fn one_to_json(
    input: Input,
    message: &MessageType,
    opts: &EncodeOptions,
) -> Result<Vec<u8>, Failure> {
    let (name, binary) = input.read_all()?;
    let mut json = message
        .binary_to_json(&binary, opts)
        .map_err(|e| failure::in_binary(&name, None, 0, &e))?;
    json.push(b'\n');
    Ok(json)
}

/// The whole input, one JSON message, as binary.
fn one_from_json(
    input: Input,
    message: &MessageType,
    opts: &DecodeOptions,
) -> Result<Vec<u8>, Failure> {
    let (name, json) = input.read_all()?;
    message
        .json_to_binary(&json, opts)
        .map_err(|e| failure::in_json(&name, 0, &e))
}

/// Length-delimited binary messages in, NDJSON out.
fn stream_to_json(
    mut input: Input,
    message: &MessageType,
    opts: &EncodeOptions,
    out: &mut Output,
) -> Result<(), Failure> {
    let mut frames = Frames::default();
    let (mut binary, mut json) = (Vec::new(), Vec::new());
    loop {
        flush_if_idle(&input, out)?;
        if !frames.next(&mut input, &mut binary)? {
            return out.flush();
        }
        json.clear();
        message
            .binary_to_json_into(&binary, opts, &mut json)
            .map_err(|e| failure::in_binary(&input.name, Some(frames.count), frames.start, &e))?;
        json.push(b'\n');
        out.write(&json)?;
    }
}

/// NDJSON in, length-delimited binary messages out.
fn stream_from_json(
    mut input: Input,
    message: &MessageType,
    opts: &DecodeOptions,
    out: &mut Output,
) -> Result<(), Failure> {
    let (mut line, mut binary) = (Vec::new(), Vec::new());
    let mut lines = 0;
    loop {
        flush_if_idle(&input, out)?;
        line.clear();
        let read = input.reader.read_until(b'\n', &mut line);
        if read.map_err(|e| input.failed(&e))? == 0 {
            return out.flush();
        }
        lines += 1;
        let json = without_line_end(&line);
        if json.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        binary.clear();
        message
            .json_to_binary_into(json, opts, &mut binary)
            .map_err(|e| failure::in_json(&input.name, lines - 1, &e))?;
        out.write(varint(binary.len() as u64, &mut [0; 10]))?;
        out.write(&binary)?;
    }
}

/// Writes out the output before the input would block, so that messages
/// go through a pipe as they come (`tail -f ... | protojsonx ...`).
fn flush_if_idle(input: &Input, out: &mut Output) -> Result<(), Failure> {
    match input.reader.buffer().is_empty() {
        true => out.flush(),
        false => Ok(()),
    }
}

/// `line` without its `\n` or `\r\n`, so that an error at the end of a line
/// is on that line.
fn without_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// `value` as a protobuf varint, in `buf`.
fn varint(mut value: u64, buf: &mut [u8; 10]) -> &[u8] {
    let mut len = 0;
    while value >= 0x80 {
        buf[len] = (value as u8) | 0x80;
        value >>= 7;
        len += 1;
    }
    buf[len] = value as u8;
    &buf[..=len]
}

/// Where a length-delimited stream is: the messages read and the bytes before them.
#[derive(Default)]
struct Frames {
    /// The messages read so far; the number (from 1) of the last one.
    count: usize,
    /// The offset of the last message read, after its length prefix.
    start: u64,
    /// The offset of the next length prefix.
    next: u64,
}

impl Frames {
    /// Reads the next message into `buf`; `false` at the end of the input.
    fn next(&mut self, input: &mut Input, buf: &mut Vec<u8>) -> Result<bool, Failure> {
        let prefix = read_prefix(&mut input.reader).map_err(|e| input.failed(&e))?;
        let (len, prefix_len) = match prefix {
            Prefix::End => return Ok(false),
            Prefix::Length(len, prefix_len) => (len, prefix_len),
            Prefix::Truncated => return Err(self.error(input, "ends in a length prefix")),
            Prefix::Overlong => return Err(self.error(input, "has a length prefix over 10 bytes")),
        };
        self.count += 1;
        self.start = self.next + prefix_len;
        buf.clear();
        let read = input.reader.by_ref().take(len).read_to_end(buf);
        read.map_err(|e| input.failed(&e))?;
        self.next = self.start + buf.len() as u64;
        if (buf.len() as u64) < len {
            let what = format!("the input ends after {} of its {len} bytes", buf.len());
            return Err(failure::in_frame(&input.name, self.count, &what, self.next));
        }
        Ok(true)
    }

    /// The length prefix of the next message is malformed: the input `what`.
    fn error(&self, input: &Input, what: &str) -> Failure {
        let what = format!("the input {what}");
        failure::in_frame(&input.name, self.count + 1, &what, self.next)
    }
}

/// A length prefix, as read.
#[derive(Debug, PartialEq, Eq)]
enum Prefix {
    /// The input ended before it: no more messages.
    End,
    /// The length, and the bytes of the prefix.
    Length(u64, u64),
    /// The input ended inside it.
    Truncated,
    /// More than 10 bytes: not a varint.
    Overlong,
}

/// Reads a varint length prefix.
fn read_prefix(reader: &mut impl BufRead) -> io::Result<Prefix> {
    let mut value = 0;
    for i in 0..10 {
        let Some(byte) = next_byte(reader)? else {
            return Ok(if i == 0 {
                Prefix::End
            } else {
                Prefix::Truncated
            });
        };
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte < 0x80 {
            return Ok(Prefix::Length(value, i + 1));
        }
    }
    Ok(Prefix::Overlong)
}

/// The next byte of `reader`; `None` at its end.
fn next_byte(reader: &mut impl BufRead) -> io::Result<Option<u8>> {
    let byte = loop {
        match reader.fill_buf() {
            Ok(buf) => break buf.first().copied(),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    };
    if byte.is_some() {
        reader.consume(1);
    }
    Ok(byte)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip() {
        for value in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut buf = [0; 10];
            let bytes = varint(value, &mut buf).to_vec();
            let read = read_prefix(&mut bytes.as_slice()).unwrap();
            assert_eq!(read, Prefix::Length(value, bytes.len() as u64), "{value}");
        }
        assert_eq!(varint(300, &mut [0; 10]), [0xac, 0x02]);
    }

    #[test]
    fn prefixes_can_be_cut_short_or_overlong() {
        assert_eq!(read_prefix(&mut &b""[..]).unwrap(), Prefix::End);
        assert_eq!(read_prefix(&mut &b"\x80"[..]).unwrap(), Prefix::Truncated);
        assert_eq!(read_prefix(&mut &[0xff; 11][..]).unwrap(), Prefix::Overlong);
    }

    #[test]
    fn line_ends_are_cut() {
        assert_eq!(without_line_end(b"{}\r\n"), b"{}");
        assert_eq!(without_line_end(b"{}\n"), b"{}");
        assert_eq!(without_line_end(b"{}"), b"{}");
    }
}
