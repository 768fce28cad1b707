//! The bytes of JSON text: primitives with one job each that know nothing of
//! JSON's structure or of messages. The reader ([`read`](crate::read)) and
//! the encoder ([`ser`](crate::ser)) are built on them.
//!
//! - [`scan`]: finding the end of plain string runs and indentation, a block
//!   or a word at a time;
//! - [`escape`]: strings written as JSON string literals;
//! - [`short`]: short texts written as words into the output's spare room;
//! - [`digits`]: integers and everyday doubles written that way;
//! - [`num`]: numbers read (and floats written) as ProtoJSON has them;
//! - [`base64`]: bytes fields, both ways.

pub(crate) mod base64;
pub(crate) mod digits;
pub(crate) mod escape;
pub(crate) mod num;
pub(crate) mod scan;
pub(crate) mod short;

/// `0x01` in every byte of a word: times a byte, that byte in every lane
/// (`scan`, `num`).
const ONES: u64 = u64::from_le_bytes([0x01; 8]);
/// `0x80` in every byte of a word: each lane's high bit (`scan`, `num`).
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
/// `'0'` in every byte of a word: the text of eight digits is their values
/// plus this, their values the text minus it (`digits`, `num`).
const ZEROS: u64 = u64::from_le_bytes([b'0'; 8]);
