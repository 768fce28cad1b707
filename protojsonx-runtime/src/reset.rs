//! What decoding into a reused message (`decode_into`) needs from the types of
//! prost's fields: clearing one the input leaves out while keeping the memory
//! it owns ([`Reset`]), and storing bytes and enum values in place. Part of
//! the contract with generated code.

use std::collections::{BTreeMap, HashMap};

use crate::text::base64::{self, Base64Error};

/// A field type that can be reset to its default (what a fresh decode leaves
/// in a field the input does not set), keeping its allocation where the
/// default has room for one: strings, vectors and maps are emptied, options
/// become `None`, numbers zero.
pub trait Reset {
    /// Sets `self` to the default value.
    fn reset(&mut self);
}

/// Resets `field` unless `set` (the input set it): how generated code clears
/// a oneof none of whose members an object held, when the decoder replaces.
#[inline]
pub fn reset_unless<T: Reset>(set: bool, field: &mut T) {
    if !set {
        field.reset();
    }
}

macro_rules! reset_to_default {
    ($($ty:ty),*) => {$(
        impl Reset for $ty {
            #[inline]
            fn reset(&mut self) {
                *self = <$ty>::default();
            }
        }
    )*};
}
reset_to_default!(bool, i32, i64, u32, u64, f32, f64);

impl Reset for String {
    #[inline]
    fn reset(&mut self) {
        self.clear();
    }
}

impl<T> Reset for Vec<T> {
    #[inline]
    fn reset(&mut self) {
        self.clear();
    }
}

impl<T> Reset for Option<T> {
    #[inline]
    fn reset(&mut self) {
        *self = None;
    }
}

impl<K, V, S> Reset for HashMap<K, V, S> {
    #[inline]
    fn reset(&mut self) {
        self.clear();
    }
}

impl<K, V> Reset for BTreeMap<K, V> {
    #[inline]
    fn reset(&mut self) {
        self.clear();
    }
}

impl Reset for bytes::Bytes {
    #[inline]
    fn reset(&mut self) {
        self.clear();
    }
}

/// The types prost stores `bytes` fields as: `Vec<u8>`, or `bytes::Bytes`
/// when configured.
pub trait Bytes: Default + Reset {
    /// Replaces the bytes with the decoding of base64 `text` (in place for a
    /// `Vec<u8>`); on an error the content is unspecified.
    fn decode_base64(&mut self, text: &[u8]) -> Result<(), Base64Error>;
}

impl Bytes for Vec<u8> {
    #[inline]
    fn decode_base64(&mut self, text: &[u8]) -> Result<(), Base64Error> {
        self.clear();
        base64::decode_into(text, self)
    }
}

impl Bytes for bytes::Bytes {
    fn decode_base64(&mut self, text: &[u8]) -> Result<(), Base64Error> {
        let mut out = Vec::new();
        base64::decode_into(text, &mut out)?;
        *self = out.into();
        Ok(())
    }
}

/// The types prost stores singular enum fields as: `i32`, or `Option<i32>`
/// for fields with presence.
pub trait EnumField: Reset {
    /// Stores the enum value `v`.
    fn set(&mut self, v: i32);
}

impl EnumField for i32 {
    #[inline]
    fn set(&mut self, v: i32) {
        *self = v;
    }
}

impl EnumField for Option<i32> {
    #[inline]
    fn set(&mut self, v: i32) {
        *self = Some(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reset_keeps_the_memory_of_strings_vectors_and_maps() {
        let mut s = String::with_capacity(40);
        s.push_str("text");
        s.reset();
        assert_eq!((s.as_str(), s.capacity() >= 40), ("", true));
        let mut v = vec![1u8; 30];
        v.reset();
        assert!(v.is_empty() && v.capacity() >= 30);
        let mut m: HashMap<i32, i32> = (0..20).map(|i| (i, i)).collect();
        let room = m.capacity();
        m.reset();
        assert!(m.is_empty() && m.capacity() == room);
        let mut o = Some(3);
        o.reset();
        assert_eq!(o, None);
        let mut f = 2.5f64;
        f.reset();
        assert_eq!(f.to_bits(), 0);
    }

    #[test]
    fn bytes_decode_in_place() {
        let mut v = Vec::with_capacity(16);
        v.extend_from_slice(b"old content");
        v.decode_base64(b"aGk=").unwrap();
        assert_eq!((v.as_slice(), v.capacity() >= 16), (&b"hi"[..], true));
        let mut b = bytes::Bytes::from_static(b"old");
        b.decode_base64(b"aGk").unwrap();
        assert_eq!(&b[..], b"hi");
        assert!(v.decode_base64(b"a").is_err());
    }

    #[test]
    fn enum_fields_store_values() {
        let (mut plain, mut optional) = (0i32, None);
        plain.set(3);
        optional.set(4);
        assert_eq!((plain, optional), (3, Some(4)));
    }
}
