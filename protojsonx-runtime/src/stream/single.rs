//! One message from an `io::Read` and to an `io::Write`, through a
//! per-thread buffer that is reused from call to call (see `scratch`).

use std::io::{self, Read};

use crate::error::{Error, ErrorKind};
use crate::scratch;
use crate::{DecodeOptions, EncodeOptions, ProtoJson};

/// [`EncodeOptions::to_writer`]: encodes `msg` into the scratch buffer and
/// writes it with one `write_all`.
pub(crate) fn write_message<W: io::Write, M: ProtoJson>(
    opts: &EncodeOptions,
    mut writer: W,
    msg: &M,
) -> Result<(), Error> {
    scratch::io(|buf| {
        opts.encode_into(msg, buf)?;
        super::write_all(&mut writer, buf)
    })
}

/// [`DecodeOptions::from_reader_limited`]: reads `reader` to its end into
/// the scratch buffer, failing once more than `max_size` bytes arrive, and
/// decodes the buffer.
pub(crate) fn read_message<R: Read, M: ProtoJson>(
    opts: &DecodeOptions,
    reader: R,
    max_size: usize,
) -> Result<M, Error> {
    // One byte more than allowed tells a too-large input from one of exactly `max_size`.
    let mut reader = reader.take((max_size as u64).saturating_add(1));
    scratch::io(|buf| {
        if let Err(e) = reader.read_to_end(buf) {
            let message = format!("cannot read the JSON: {e}");
            return Err(Error::new(ErrorKind::Io, message, buf, buf.len()));
        }
        if buf.len() > max_size {
            let message = format!("the input is larger than the limit of {max_size} bytes");
            return Err(Error::new(ErrorKind::SizeLimit, message, buf, max_size));
        }
        opts.from_slice(buf)
    })
}

/// Decodes a message from `reader` with the default options, reading it to
/// its end. The decoder needs the whole JSON in memory: at most
/// [`DEFAULT_MAX_SIZE`](crate::stream::DEFAULT_MAX_SIZE) (64 MiB) is read,
/// and a larger input is an [`ErrorKind::SizeLimit`] error; see
/// [`DecodeOptions::from_reader_limited`] to choose the limit. For a stream
/// of messages, see [`stream`](crate::stream).
///
/// ```
/// use prost_types::Duration;
///
/// let d: Duration = protojsonx_runtime::from_reader(&b"\"1.5s\"\n"[..])?;
/// assert_eq!((d.seconds, d.nanos), (1, 500_000_000));
/// # Ok::<(), protojsonx_runtime::Error>(())
/// ```
pub fn from_reader<R: Read, M: ProtoJson>(reader: R) -> Result<M, Error> {
    DecodeOptions::new().from_reader(reader)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::scratch::{KEEP, io_capacity as scratch_capacity};

    #[test]
    fn the_scratch_buffer_is_kept_unless_it_grew_too_large() {
        let small = prost_types::Duration {
            seconds: 1,
            nanos: 0,
        };
        write_message(&EncodeOptions::new(), io::sink(), &small).unwrap();
        let kept = scratch_capacity();
        assert!(kept >= 4);
        let big = prost_types::Value::from("x".repeat(KEEP));
        write_message(&EncodeOptions::new(), io::sink(), &big).unwrap();
        assert_eq!(scratch_capacity(), 0);
        let read: prost_types::Duration =
            read_message(&DecodeOptions::new(), &b"\"1s\""[..], 10).unwrap();
        assert_eq!(read, small);
        assert!(scratch_capacity() >= 4);
    }
}
