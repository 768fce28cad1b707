//! The binary wire format, read from a slice and written to a `Vec`: tags,
//! varints (prost's own, `prost::encoding`), fixed-width values and the
//! length prefix of nested messages, written after their content.

use prost::encoding::{DecodeContext, WireType, decode_key, decode_varint, encode_varint};
use protojsonx_runtime::__dynamic::binary_error;
use protojsonx_runtime::Error;

/// Reads the fields of one message body, a span of a larger input; the
/// offsets it gives are in that input.
pub(crate) struct WireReader<'b> {
    /// The body's end in the input.
    end: u32,
    /// What is left of the body.
    rest: &'b [u8],
}

/// One field as it appears on the wire: its number, wire type and the
/// bytes of its value (a varint's bytes, the fixed bytes, a length-delimited
/// payload, or a group's content without its end tag), as offsets into the
/// whole input.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawField {
    pub number: u32,
    pub wire: WireType,
    pub start: u32,
    pub end: u32,
}

impl<'b> WireReader<'b> {
    /// A reader of `input[start..end]`, a message body within `input`.
    pub(crate) fn new(input: &'b [u8], start: u32, end: u32) -> Self {
        WireReader {
            end,
            rest: &input[start as usize..end as usize],
        }
    }

    /// The offset of the cursor in the whole input.
    fn offset(&self) -> u32 {
        self.end - self.rest.len() as u32
    }

    /// An error at the cursor.
    #[cold]
    fn error(&self, message: String) -> Error {
        binary_error(message, self.offset() as usize)
    }

    /// The next field, or `None` at the end of the body.
    #[inline]
    pub(crate) fn next_field(&mut self) -> Result<Option<RawField>, Error> {
        // Most fields of most messages: a one-byte tag (fields 1 to 15)
        // before a one-byte varint or length, or fixed-width bytes.
        if let [tag @ 8..=0x7f, first, ..] = *self.rest {
            // Where the value starts after the tag, and its length.
            let (value_at, len) = match tag & 7 {
                0 if first < 0x80 => (1, 1),
                2 if first < 0x80 => (2, usize::from(first)),
                5 => (1, 4),
                1 => (1, 8),
                _ => return self.next_field_slow(),
            };
            if let Some(rest) = self.rest.get(value_at + len..) {
                let start = self.offset() + value_at as u32;
                self.rest = rest;
                return Ok(Some(RawField {
                    number: u32::from(tag >> 3),
                    wire: wire_type(tag),
                    start,
                    end: start + len as u32,
                }));
            }
        }
        self.next_field_slow()
    }

    /// [`next_field`](Self::next_field) for every other tag and value, and errors.
    #[inline(never)]
    fn next_field_slow(&mut self) -> Result<Option<RawField>, Error> {
        if self.rest.is_empty() {
            return Ok(None);
        }
        let (number, wire) = decode_key(&mut self.rest).map_err(|e| self.error(e.to_string()))?;
        let start = self.offset();
        match wire {
            WireType::Varint => {
                decode_varint(&mut self.rest).map_err(|e| self.error(e.to_string()))?;
            }
            WireType::ThirtyTwoBit => self.advance(4)?,
            WireType::SixtyFourBit => self.advance(8)?,
            WireType::LengthDelimited => {
                let len = decode_varint(&mut self.rest).map_err(|e| self.error(e.to_string()))?;
                let start = self.offset();
                let len = usize::try_from(len).unwrap_or(usize::MAX);
                self.advance(len)?;
                return Ok(Some(RawField {
                    number,
                    wire,
                    start,
                    end: self.offset(),
                }));
            }
            WireType::StartGroup => {
                let end = self.skip_group(number)?;
                return Ok(Some(RawField {
                    number,
                    wire,
                    start,
                    end,
                }));
            }
            WireType::EndGroup => {
                return Err(self.error(format!("unexpected end group tag for field {number}")));
            }
        }
        Ok(Some(RawField {
            number,
            wire,
            start,
            end: self.offset(),
        }))
    }

    /// Skips `len` bytes.
    fn advance(&mut self, len: usize) -> Result<(), Error> {
        if len > self.rest.len() {
            return Err(self.error("buffer underflow: a field is cut off".into()));
        }
        self.rest = &self.rest[len..];
        Ok(())
    }

    /// Skips the content of group `number` and its end tag; returns the
    /// offset where the end tag starts (the end of the content).
    fn skip_group(&mut self, number: u32) -> Result<u32, Error> {
        loop {
            let end = self.offset();
            if self.rest.is_empty() {
                return Err(self.error(format!("group {number} has no end tag")));
            }
            let (inner, wire) =
                decode_key(&mut self.rest).map_err(|e| self.error(e.to_string()))?;
            if wire == WireType::EndGroup {
                if inner != number {
                    return Err(self.error(format!(
                        "end group tag {inner} does not match start group {number}"
                    )));
                }
                return Ok(end);
            }
            prost::encoding::skip_field(wire, inner, &mut self.rest, DecodeContext::default())
                .map_err(|e| self.error(e.to_string()))?;
        }
    }
}

/// The wire type of a one-byte tag with wire type 0, 1, 2 or 5.
#[inline]
fn wire_type(tag: u8) -> WireType {
    match tag & 7 {
        0 => WireType::Varint,
        1 => WireType::SixtyFourBit,
        2 => WireType::LengthDelimited,
        _ => WireType::ThirtyTwoBit,
    }
}

/// The value of a varint field whose bytes are `bytes` (checked when read):
/// one byte inline (bools, small numbers and enums), longer ones by prost.
#[inline]
pub(crate) fn varint(mut bytes: &[u8]) -> u64 {
    match bytes {
        [one] => u64::from(*one),
        _ => decode_varint(&mut bytes).unwrap_or(0),
    }
}

/// The value of a fixed 32-bit field.
#[inline]
pub(crate) fn fixed32(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes.try_into().unwrap_or_default())
}

/// The value of a fixed 64-bit field.
#[inline]
pub(crate) fn fixed64(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes.try_into().unwrap_or_default())
}

/// Appends a field's tag.
#[inline]
pub(crate) fn tag(number: u32, wire: WireType, out: &mut Vec<u8>) {
    put_varint(u64::from(number) << 3 | wire as u64, out);
}

/// Appends a varint: one byte inline (most tags, lengths, bools and small
/// numbers), prost's loop for the rest.
#[inline]
pub(crate) fn put_varint(value: u64, out: &mut Vec<u8>) {
    if value < 0x80 {
        out.push(value as u8);
    } else {
        encode_varint(value, out);
    }
}

/// Appends a length-delimited value whose content `write` appends: one
/// byte is kept for the length, and the content moved when it needs more.
#[inline]
pub(crate) fn nested<E>(
    out: &mut Vec<u8>,
    write: impl FnOnce(&mut Vec<u8>) -> Result<(), E>,
) -> Result<(), E> {
    out.push(0);
    let start = out.len();
    write(out)?;
    let len = out.len() - start;
    if len < 0x80 {
        out[start - 1] = len as u8;
        return Ok(());
    }
    let width = prost::encoding::encoded_len_varint(len as u64);
    out.resize(out.len() + width - 1, 0);
    out.copy_within(start..start + len, start - 1 + width);
    encode_varint(len as u64, &mut &mut out[start - 1..start - 1 + width]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_lengths_of_every_width_round_trip() {
        for len in [0usize, 1, 127, 128, 300, 16_383, 16_384, 70_000] {
            let mut out = vec![9];
            nested::<()>(&mut out, |out| {
                out.resize(out.len() + len, 7);
                Ok(())
            })
            .unwrap();
            let mut rest = &out[1..];
            assert_eq!(decode_varint(&mut rest).unwrap(), len as u64);
            assert_eq!(rest.len(), len);
            assert!(rest.iter().all(|&b| b == 7));
        }
    }

    #[test]
    fn fields_groups_and_errors_are_read() {
        // field 1 varint 150, field 2 "hi", group 3 { field 1 = 1 }, field 4 fixed32
        let input = [
            0x08, 0x96, 0x01, 0x12, 2, b'h', b'i', 0x1b, 0x08, 1, 0x1c, 0x25, 1, 0, 0, 0,
        ];
        let mut r = WireReader::new(&input, 0, input.len() as u32);
        let mut got = Vec::new();
        while let Some(f) = r.next_field().unwrap() {
            got.push((f.number, f.start, f.end));
        }
        assert_eq!(got, [(1, 1, 3), (2, 5, 7), (3, 8, 10), (4, 12, 16)]);
        let cut = [0x12, 5, b'h'];
        let err = WireReader::new(&cut, 0, 3).next_field().unwrap_err();
        assert_eq!(err.kind(), protojsonx_runtime::ErrorKind::Binary);
    }
}
