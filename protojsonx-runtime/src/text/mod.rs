//! The bytes of JSON text: primitives with one job each that know nothing of
//! JSON's structure or of messages. The reader ([`read`](crate::read)) and
//! the encoder ([`ser`](crate::ser)) are built on them.
//!
//! - [`word`]: the word-at-a-time (SWAR) primitives every fast path below
//!   is built on, and [`block`]: the sixteen-byte tests (SSE2 on x86_64,
//!   words elsewhere);
//! - [`scan`]: finding the end of plain string runs and indentation, a block
//!   or a word at a time;
//! - [`escape`]: strings written as JSON string literals;
//! - [`short`]: short texts written as words into the output's spare room;
//! - [`digits`]: integers and everyday doubles written that way;
//! - [`num`]: numbers read (and floats written) as ProtoJSON has them;
//! - [`base64`]: bytes fields, both ways.

pub(crate) mod base64;
pub(crate) mod block;
pub(crate) mod digits;
pub(crate) mod escape;
pub(crate) mod num;
pub(crate) mod scan;
pub(crate) mod short;
pub(crate) mod word;
