//! Singular scalar fields (numbers, bools, strings) read together with their
//! `null`: [`Decoder::read_field`].
//!
//! A field's value is almost never `null`, so testing for it before every
//! value (as [`Decoder::take_null_for`] does) is work for
//! nothing. Here the fast path reads the value as it is; `null`, like
//! whitespace and every other form, fails that path and is taken on the
//! slow one, where it unsets the field.

use super::Decoder;
use crate::error::Error;
use crate::reset::Reset;

/// The type of a singular scalar field whose reader takes JSON `null`
/// ("not set") itself: see [`Decoder::read_field`]. Part of the contract
/// with generated code.
pub trait ScalarField: Reset + Sized {
    /// Reads a value, or `null`, into `field`.
    #[doc(hidden)]
    fn read_field(d: &mut Decoder<'_>, field: &mut Self) -> Result<(), Error>;
}

impl Decoder<'_> {
    /// Reads the value of a singular scalar field (not in a oneof, no
    /// presence) into `field`: `null` [unsets](Self::unset) it, as
    /// [`take_null_for`](Self::take_null_for) does, but is only looked for
    /// when the value is not a plain one. Inlined by force only where
    /// optimized, as [`Fields::is_next`](super::Fields::is_next) is: in an
    /// unoptimized build each inlined copy keeps stack slots of its own.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn read_field<T: ScalarField>(&mut self, field: &mut T) -> Result<(), Error> {
        T::read_field(self, field)
    }

    /// Stores `fast`, the value the fast path read, in `field`; without
    /// one, takes the slow path, which reads the value with `slow`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn store_or_slow<T: Reset>(
        &mut self,
        field: &mut T,
        fast: Option<T>,
        slow: impl FnOnce(&mut Self) -> Result<T, Error>,
    ) -> Result<(), Error> {
        match fast {
            Some(v) => {
                *field = v;
                Ok(())
            }
            None => self.field_slow(field, |d, field| {
                *field = slow(d)?;
                Ok(())
            }),
        }
    }

    /// The slow path of every [`read_field`](Self::read_field): `null`, or
    /// else `read`, the field's reader for every form of value and error.
    #[inline(never)]
    fn field_slow<T: Reset>(
        &mut self,
        field: &mut T,
        read: impl FnOnce(&mut Self, &mut T) -> Result<(), Error>,
    ) -> Result<(), Error> {
        if self.take_null_for(field) {
            return Ok(());
        }
        read(self, field)
    }
}

/// Numbers: the plain fast path reads the everyday form
/// ([`PlainNumber`](crate::text::num::PlainNumber)); `$slow` reads every
/// other form (strings, exponents, `"NaN"`) and names the type in errors.
macro_rules! number_fields {
    ($($ty:ty => $slow:expr;)*) => {$(
        impl ScalarField for $ty {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn read_field(d: &mut Decoder<'_>, field: &mut Self) -> Result<(), Error> {
                let fast = d.r.plain_number();
                d.store_or_slow(field, fast, $slow)
            }
        }
    )*};
}

number_fields! {
    i32 => |d: &mut Decoder<'_>| d.int_slow("int32");
    u32 => |d: &mut Decoder<'_>| d.int_slow("uint32");
    i64 => |d: &mut Decoder<'_>| d.int_slow("int64");
    u64 => |d: &mut Decoder<'_>| d.int_slow("uint64");
    f32 => Decoder::f32_slow;
    f64 => Decoder::f64_slow;
}

impl ScalarField for bool {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_field(d: &mut Decoder<'_>, field: &mut Self) -> Result<(), Error> {
        // The one space of pretty output's `": "` is skipped here, not on the slow path.
        d.r.skip_space();
        let fast = d.r.eat_bool();
        d.store_or_slow(field, fast, Decoder::read_bool)
    }
}

impl ScalarField for String {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_field(d: &mut Decoder<'_>, field: &mut Self) -> Result<(), Error> {
        d.r.skip_space();
        match d.r.plain_string() {
            Some(plain) => {
                Decoder::store_plain(field, plain);
                Ok(())
            }
            None => d.field_slow(field, Decoder::read_string_into_slow),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DecodeOptions;

    /// Reads `json` (one value) into a field that held `held`, as a fresh
    /// decode (merge) and as `decode_into` (replacing) would.
    fn read<T: ScalarField + Clone>(json: &str, held: T) -> [Result<T, Error>; 2] {
        [false, true].map(|replacing| {
            let opts = DecodeOptions::new();
            let mut d = if replacing {
                Decoder::replacing(json.as_bytes(), opts)
            } else {
                Decoder::new(json.as_bytes(), opts)
            };
            let mut field = held.clone();
            d.read_field(&mut field)?;
            d.finish()?;
            Ok(field)
        })
    }

    fn ok<T: ScalarField + Clone + PartialEq + std::fmt::Debug>(json: &str, held: T, want: T) {
        for got in read(json, held) {
            assert_eq!(got.unwrap(), want, "{json:?}");
        }
    }

    #[test]
    fn values_in_every_form_are_read() {
        for json in ["42", " 42", "\n  42 ", "\"42\"", " \"42\"", "4.2e1"] {
            ok(json, 7i32, 42);
            ok(json, 7u64, 42);
            ok(json, 7.0f64, 42.0);
        }
        for (json, want) in [("true", true), (" false", false), ("\t true", true)] {
            ok(json, !want, want);
        }
        for json in ["\"hi\"", " \"hi\"", "\n\"hi\"", "\"h\\u0069\""] {
            ok(json, String::from("held"), String::from("hi"));
        }
        for got in read("\"NaN\"", 0.0f32) {
            assert!(got.unwrap().is_nan());
        }
        ok("\"-Infinity\"", 0.0f64, f64::NEG_INFINITY);
    }

    #[test]
    fn null_unsets_only_when_replacing() {
        for json in ["null", " null", "\n  null"] {
            let [merged, replaced] = read(json, 7i32);
            assert_eq!((merged.unwrap(), replaced.unwrap()), (7, 0), "{json:?}");
            let [merged, replaced] = read(json, String::from("held"));
            assert_eq!(merged.unwrap(), "held");
            assert_eq!(replaced.unwrap(), "");
            let [merged, replaced] = read(json, true);
            assert_eq!((merged.unwrap(), replaced.unwrap()), (true, false));
            let [merged, replaced] = read(json, 1.5f32);
            assert_eq!((merged.unwrap(), replaced.unwrap()), (1.5, 0.0));
        }
    }

    #[test]
    fn wrong_values_are_errors_naming_the_type() {
        for (json, what) in [
            ("\"x\"", "int32"),
            ("nul", "int32"),
            ("1.5", "int32"),
            ("true", "int32"),
        ] {
            for got in read(json, 0i32) {
                let message = got.unwrap_err().to_string();
                assert!(message.contains(what), "{json:?}: {message}");
            }
        }
        for got in read("1", String::new()) {
            assert!(got.unwrap_err().to_string().contains("string"));
        }
        for got in read("\"true\"", false) {
            assert!(got.unwrap_err().to_string().contains("bool"));
        }
        for got in read("4294967296", 0u32) {
            assert!(got.unwrap_err().to_string().contains("uint32"));
        }
    }
}
