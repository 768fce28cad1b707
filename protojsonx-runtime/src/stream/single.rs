//! One message from an `io::Read` and to an `io::Write`, through a
//! per-thread buffer that is reused from call to call.

use std::cell::RefCell;
use std::io::{self, Read};

use crate::error::{Error, ErrorKind};
use crate::{DecodeOptions, EncodeOptions, ProtoJson};

thread_local! {
    /// The buffer [`with_scratch`] lends.
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The largest buffer kept for the thread's next call; a larger one (from
/// an outsized message) is freed after use, so it does not stay allocated.
const KEEP: usize = 1 << 20;

/// Calls `f` with the thread's empty scratch buffer, or with a new one if
/// that is in use (an `io::Read` or `io::Write` that itself reads or writes
/// a message) or gone (during thread exit).
fn with_scratch<T>(mut f: impl FnMut(&mut Vec<u8>) -> T) -> T {
    let pooled = SCRATCH.try_with(|cell| {
        let mut buf = cell.try_borrow_mut().ok()?;
        buf.clear();
        let result = f(&mut buf);
        if buf.capacity() > KEEP {
            *buf = Vec::new();
        }
        Some(result)
    });
    match pooled {
        Ok(Some(result)) => result,
        _ => f(&mut Vec::new()),
    }
}

/// [`EncodeOptions::to_writer`]: encodes `msg` into the scratch buffer and
/// writes it with one `write_all`.
pub(crate) fn write_message<W: io::Write, M: ProtoJson>(
    opts: &EncodeOptions,
    mut writer: W,
    msg: &M,
) -> Result<(), Error> {
    with_scratch(|buf| {
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
    with_scratch(|buf| {
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

    fn scratch_capacity() -> usize {
        SCRATCH.with(|cell| cell.borrow().capacity())
    }

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
