//! Map fields: how keys are written and read, and the map types prost generates.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash};

use crate::digits;
use crate::num::{self, NumError};
use crate::reset::Reset;

/// A protobuf map key type. ProtoJSON writes every key as a JSON string:
/// integers in decimal, bools as `"true"`/`"false"`. Part of the contract with generated code.
pub trait MapKey: Ord + Sized {
    /// Appends the key as a JSON string; only ASCII when `ascii`.
    fn write_key(&self, out: &mut Vec<u8>, ascii: bool);
    /// Parses a key from the (unescaped) text of a JSON object key.
    fn parse_key(text: &str) -> Result<Self, String>;
}

impl MapKey for String {
    fn write_key(&self, out: &mut Vec<u8>, ascii: bool) {
        if ascii {
            crate::escape::write_str_ascii(out, self);
        } else {
            crate::escape::write_str(out, self);
        }
    }
    fn parse_key(text: &str) -> Result<Self, String> {
        Ok(text.to_owned())
    }
}

impl MapKey for bool {
    fn write_key(&self, out: &mut Vec<u8>, _: bool) {
        out.extend_from_slice(if *self { b"\"true\"" } else { b"\"false\"" });
    }
    fn parse_key(text: &str) -> Result<Self, String> {
        match text {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err("invalid map key: expected \"true\" or \"false\"".into()),
        }
    }
}

macro_rules! int_map_key {
    ($($ty:ty => $write:ident),*) => {$(
        impl MapKey for $ty {
            fn write_key(&self, out: &mut Vec<u8>, _: bool) {
                digits::$write(out, (*self).into());
            }
            fn parse_key(text: &str) -> Result<Self, String> {
                num::parse_int::<$ty>(text).map_err(|e: NumError| {
                    format!("invalid map key for {}: {e}", stringify!($ty))
                })
            }
        }
    )*};
}
int_map_key!(
    i32 => write_quoted_i64,
    i64 => write_quoted_i64,
    u32 => write_quoted_u64,
    u64 => write_quoted_u64
);

/// The map types prost generates (`HashMap` or `BTreeMap`, as configured).
/// Part of the contract with generated code. [`Reset`] empties one (a hash
/// map keeps its table).
pub trait JsonMap<K, V>: Reset {
    /// Inserts `key` unless it is present already; reports whether it was inserted.
    fn insert_new(&mut self, key: K, value: V) -> bool;
}

impl<K: Eq + Hash, V, S: BuildHasher> JsonMap<K, V> for HashMap<K, V, S> {
    fn insert_new(&mut self, key: K, value: V) -> bool {
        match self.entry(key) {
            std::collections::hash_map::Entry::Occupied(_) => false,
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(value);
                true
            }
        }
    }
}

impl<K: Ord, V> JsonMap<K, V> for BTreeMap<K, V> {
    fn insert_new(&mut self, key: K, value: V) -> bool {
        match self.entry(key) {
            std::collections::btree_map::Entry::Occupied(_) => false,
            std::collections::btree_map::Entry::Vacant(slot) => {
                slot.insert(value);
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written<K: MapKey>(k: K) -> String {
        let mut out = Vec::new();
        k.write_key(&mut out, false);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn keys_are_written_as_strings() {
        assert_eq!(written(-5i32), "\"-5\"");
        assert_eq!(written(u64::MAX), "\"18446744073709551615\"");
        assert_eq!(written(true), "\"true\"");
        assert_eq!(written("a\"b".to_string()), "\"a\\\"b\"");
    }

    #[test]
    fn keys_are_parsed_strictly() {
        assert_eq!(i32::parse_key("-2147483648"), Ok(i32::MIN));
        assert!(i32::parse_key("2147483648").is_err());
        assert!(u32::parse_key("-1").is_err());
        assert!(i64::parse_key("1.5").is_err());
        assert!(bool::parse_key("True").is_err());
        assert_eq!(bool::parse_key("false"), Ok(false));
    }

    #[test]
    fn insert_new_refuses_duplicates() {
        let mut h = HashMap::new();
        assert!(h.insert_new(1, "a"));
        assert!(!h.insert_new(1, "b"));
        assert_eq!(h[&1], "a");
        let mut b = BTreeMap::new();
        assert!(b.insert_new("k", 1));
        assert!(!b.insert_new("k", 2));
    }
}
