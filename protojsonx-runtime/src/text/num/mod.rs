//! Numbers as ProtoJSON reads and writes them, in three tiers:
//!
//! - [`parse`]: the general path, exact: [`scan_number`] finds the extent of
//!   a JSON number (RFC 8259 §6); [`parse_int`] converts its text to an
//!   exact integer, accepting the exponent and fraction forms ProtoJSON
//!   allows when the value is integral; [`parse_f64`] / [`parse_f32`] round
//!   correctly to the target type.
//! - [`fast`]: numbers in the form encoders write them, read in one pass
//!   ([`PlainNumber`]) or one step ([`short_digits`]); anything else falls
//!   to the general path, which the tests (and the property tests of the
//!   reader's fast paths) hold them to.
//! - [`write`](mod@write): [`write_f64`] / [`write_f32`], the shortest text that
//!   round-trips, in JSON number grammar: whole numbers of thousandths
//!   through [`digits::thousandths`](crate::text::digits::thousandths), all
//!   others via `zmij`.

use core::fmt;

mod fast;
mod parse;
mod write;

pub(crate) use fast::{
    POW10_U64, PlainNumber, ends_number, past_optional, plain_integer, short_digits,
};
pub(crate) use parse::{parse_f32, parse_f64, parse_int, scan_number};
pub(crate) use write::{write_f32, write_f64};

/// Why a number was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumError {
    /// The number is valid but not an integer where an integer is required.
    NotAnInteger,
    /// The number is valid but outside the target type's range.
    OutOfRange,
    /// The text is not exactly one JSON number.
    Invalid,
}

impl fmt::Display for NumError {
    /// Formats the error for inclusion in a decode error message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumError::NotAnInteger => "number has a fractional part",
            NumError::OutOfRange => "number out of range",
            NumError::Invalid => "invalid number",
        })
    }
}

/// The integer types ProtoJSON fields use (`int32`/`sint32`/`sfixed32`,
/// `int64`/..., `uint32`/`fixed32`, `uint64`/`fixed64`). Implemented for
/// `i32`, `i64`, `u32` and `u64`, so [`parse_int`] can share one parser and
/// only the final range check depends on the type.
pub(crate) trait Int: Copy {
    /// Returns the value with sign `negative` and absolute value `magnitude`
    /// as `Self`, or `None` if it does not fit. `-0` is `0` for every type.
    fn from_sign_magnitude(negative: bool, magnitude: u64) -> Option<Self>;
}

/// Implements [`Int`] for the signed types: the magnitude's limit is one
/// more for negative values, whose two's complement is then the value's
/// (`2^31` negated is `i32::MIN`).
macro_rules! impl_signed {
    ($($t:ty => $unsigned:ty),*) => {$(
        impl Int for $t {
            /// Checks the magnitude against the sign's limit, then negates
            /// in the unsigned type.
            #[inline]
            fn from_sign_magnitude(negative: bool, magnitude: u64) -> Option<Self> {
                let limit = <$t>::MAX as u64 + u64::from(negative);
                (magnitude <= limit).then(|| {
                    let m = magnitude as $unsigned;
                    (if negative { m.wrapping_neg() } else { m }) as $t
                })
            }
        }
    )*};
}
impl_signed!(i32 => u32, i64 => u64);

/// Implements [`Int`] for the unsigned types, whose only negative value
/// is `-0`.
macro_rules! impl_unsigned {
    ($($t:ty),*) => {$(
        impl Int for $t {
            /// Checks the magnitude against the type's maximum.
            #[inline]
            fn from_sign_magnitude(negative: bool, magnitude: u64) -> Option<Self> {
                let fits = magnitude <= <$t>::MAX as u64 && (!negative || magnitude == 0);
                fits.then_some(magnitude as $t)
            }
        }
    )*};
}
impl_unsigned!(u32, u64);

#[cfg(test)]
mod tests {
    use super::NumError::{Invalid, NotAnInteger, OutOfRange};

    #[test]
    fn error_messages() {
        assert_eq!(NotAnInteger.to_string(), "number has a fractional part");
        assert_eq!(OutOfRange.to_string(), "number out of range");
        assert_eq!(Invalid.to_string(), "invalid number");
    }
}
