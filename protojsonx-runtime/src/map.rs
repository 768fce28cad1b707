//! Map fields: how keys are written and read, and the map types prost generates.

use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash};

use crate::ProtoJson;
use crate::de::Decoder;
use crate::error::Error;
use crate::reset::Reset;
use crate::text::num::{self, NumError};
use crate::text::short::{self, Sink};
use crate::text::{digits, escape};

/// A protobuf map key type. ProtoJSON writes every key as a JSON string:
/// integers in decimal, bools as `"true"`/`"false"`. Part of the contract with generated code.
pub trait MapKey: Ord + Sized + Borrow<Self::Lookup> {
    /// What a key is looked up by in a map without making one (`str` for
    /// a `String`, which would allocate; the key itself otherwise).
    type Lookup: ?Sized + Ord + Hash + ToOwned<Owned = Self>;
    /// The key as the encoder writes it.
    fn json_key(&self) -> JsonKey<'_>;
    /// Parses a key from the (unescaped) text of a JSON object key.
    fn parse_key(text: &str) -> Result<Self, String>;
    /// Calls `f` with the key of `text` as a [`Lookup`](Self::Lookup);
    /// fails as [`parse_key`](Self::parse_key) does.
    fn with_lookup<R>(text: &str, f: impl FnOnce(&Self::Lookup) -> R) -> Result<R, String>;
    /// A hash of a key, equal for equal keys: for telling keys apart quickly.
    fn fingerprint(key: &Self::Lookup) -> u64;
}

impl MapKey for String {
    type Lookup = str;

    #[inline(always)]
    fn json_key(&self) -> JsonKey<'_> {
        JsonKey::Str(self)
    }
    fn parse_key(text: &str) -> Result<Self, String> {
        Ok(text.to_owned())
    }
    #[inline]
    fn with_lookup<R>(text: &str, f: impl FnOnce(&str) -> R) -> Result<R, String> {
        Ok(f(text))
    }
    /// FNV-1a over the bytes: keys are short, and a collision only costs a
    /// comparison of the two texts.
    fn fingerprint(key: &str) -> u64 {
        key.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        })
    }
}

impl MapKey for bool {
    type Lookup = bool;

    #[inline(always)]
    fn json_key(&self) -> JsonKey<'_> {
        JsonKey::Bool(*self)
    }
    fn parse_key(text: &str) -> Result<Self, String> {
        match text {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err("invalid map key: expected \"true\" or \"false\"".into()),
        }
    }
    #[inline]
    fn with_lookup<R>(text: &str, f: impl FnOnce(&bool) -> R) -> Result<R, String> {
        Self::parse_key(text).map(|key| f(&key))
    }
    fn fingerprint(key: &bool) -> u64 {
        u64::from(*key)
    }
}

macro_rules! int_map_key {
    ($($ty:ty => $key:ident),*) => {$(
        impl MapKey for $ty {
            type Lookup = $ty;

            #[inline(always)]
            fn json_key(&self) -> JsonKey<'_> {
                JsonKey::$key((*self).into())
            }
            fn parse_key(text: &str) -> Result<Self, String> {
                // Plain digits (the common key) skip the general parser.
                let plain = num::plain_integer(text.as_bytes(), 0);
                if let Some((key, _)) = plain.filter(|&(_, len)| len == text.len()) {
                    return Ok(key);
                }
                num::parse_int::<$ty>(text).map_err(|e: NumError| {
                    format!("invalid map key for {}: {e}", stringify!($ty))
                })
            }
            #[inline]
            fn with_lookup<R>(text: &str, f: impl FnOnce(&$ty) -> R) -> Result<R, String> {
                Self::parse_key(text).map(|key| f(&key))
            }
            fn fingerprint(key: &$ty) -> u64 {
                // Two's complement bits: one to one for every key type.
                *key as u64
            }
        }
    )*};
}
int_map_key!(
    i32 => Signed,
    i64 => Signed,
    u32 => Unsigned,
    u64 => Unsigned
);

/// A map key as ProtoJSON writes it, a JSON string (the encoder and the
/// object writer write it; keys that are numbers or bools are quoted). Part
/// of the contract with generated code.
pub enum JsonKey<'k> {
    /// A string key, escaped.
    Str(&'k str),
    /// `"true"` or `"false"`.
    Bool(bool),
    /// A signed integer key in decimal.
    Signed(i64),
    /// An unsigned integer key in decimal.
    Unsigned(u64),
}

/// Appends `key` as a JSON string (of ASCII only if `ascii`) to `out`: the
/// encoder's vector or an object's writer.
#[inline(always)]
pub(crate) fn write_key<S: Sink>(out: &mut S, key: JsonKey<'_>, ascii: bool) {
    match key {
        JsonKey::Str(text) if ascii => escape::write_str_ascii(out, text),
        JsonKey::Str(text) => escape::write_str(out, text),
        JsonKey::Bool(v) => short::append(out, |text| {
            text.bytes(if v { b"\"true\"" } else { b"\"false\"" });
        }),
        JsonKey::Signed(v) => digits::write_quoted_i64(out, v),
        JsonKey::Unsigned(v) => digits::write_quoted_u64(out, v),
    }
}

/// The map types prost generates (`HashMap` or `BTreeMap`, as configured).
/// Part of the contract with generated code. [`Reset`] empties one (a hash
/// map keeps its table).
pub trait JsonMap<K: MapKey, V>: Reset + Default {
    /// Whether [`iter_entries`](Self::iter_entries) visits keys in the
    /// order ProtoJSON output lists them (a `BTreeMap`), so that the
    /// encoder need not sort them.
    const IN_KEY_ORDER: bool;
    /// Every entry, in the map's own order.
    fn iter_entries<'m>(&'m self) -> impl ExactSizeIterator<Item = (&'m K, &'m V)>
    where
        K: 'm,
        V: 'm;
    /// Inserts `key` unless it is present already; reports whether it was inserted.
    fn insert_new(&mut self, key: K, value: V) -> bool;
    /// The number of entries.
    fn entries(&self) -> usize;
    /// The value of `key`, if the map holds it.
    fn value_mut(&mut self, key: &K::Lookup) -> Option<&mut V>;
    /// Removes the entry of `key`, if the map holds it.
    fn remove_key(&mut self, key: &K::Lookup);
    /// Keeps only the entries whose key `keep` accepts.
    fn retain_keys(&mut self, keep: impl FnMut(&K) -> bool);
    /// Inserts the entries of `other`, replacing those of the same keys.
    fn extend_from(&mut self, other: Self);
}

/// The methods of [`JsonMap`], alike for both map types: `$entry` is the
/// module of the map's `Entry`.
macro_rules! json_map_methods {
    ($entry:ident) => {
        fn insert_new(&mut self, key: K, value: V) -> bool {
            match self.entry(key) {
                std::collections::$entry::Entry::Occupied(_) => false,
                std::collections::$entry::Entry::Vacant(slot) => {
                    slot.insert(value);
                    true
                }
            }
        }
        fn iter_entries<'m>(&'m self) -> impl ExactSizeIterator<Item = (&'m K, &'m V)>
        where
            K: 'm,
            V: 'm,
        {
            self.iter()
        }
        fn entries(&self) -> usize {
            self.len()
        }
        fn value_mut(&mut self, key: &K::Lookup) -> Option<&mut V> {
            self.get_mut(key)
        }
        fn remove_key(&mut self, key: &K::Lookup) {
            self.remove(key);
        }
        fn retain_keys(&mut self, mut keep: impl FnMut(&K) -> bool) {
            self.retain(|key, _| keep(key));
        }
        fn extend_from(&mut self, other: Self) {
            self.extend(other);
        }
    };
}

impl<K: MapKey + Hash, V, S: BuildHasher + Default> JsonMap<K, V> for HashMap<K, V, S> {
    const IN_KEY_ORDER: bool = false;
    json_map_methods!(hash_map);
}

impl<K: MapKey, V> JsonMap<K, V> for BTreeMap<K, V> {
    // `MapKey`'s order is the keys' `Ord`, the order a `BTreeMap` keeps.
    const IN_KEY_ORDER: bool = true;
    json_map_methods!(btree_map);
}

/// A map value type: how a value is read into one already there, so that
/// decoding into a reused message reads the values of the keys its maps
/// held into their memory. Scalars, strings and `Vec<u8>` bytes are read
/// through their [`ProtoJson`] impls (those of the wrapper types, whose JSON
/// is the scalar's), `bytes::Bytes` as bytes. Part of the contract with generated code.
pub trait MapValue: Default {
    /// Reads a value into `self`, replacing it (a message is read as
    /// [`Decoder::read_message`] reads it).
    fn read_map_value(&mut self, d: &mut Decoder<'_>) -> Result<(), Error>;
}

impl<M: ProtoJson> MapValue for M {
    #[inline]
    fn read_map_value(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
        d.read_message(self)
    }
}

impl MapValue for bytes::Bytes {
    #[inline]
    fn read_map_value(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
        d.read_bytes_into(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written<K: MapKey>(k: K) -> String {
        let mut out = Vec::new();
        write_key(&mut out, k.json_key(), false);
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

    /// Integer keys in plain digits take a fast path: it must agree with
    /// the general parser on every form, near every type's limits.
    #[test]
    fn plain_integer_keys_parse_as_the_general_parser_does() {
        fn agree<K: MapKey + PartialEq + std::fmt::Debug + num::Int>(texts: &[String]) {
            for text in texts {
                let general = num::parse_int::<K>(text).map_err(|e| e.to_string());
                let fast = K::parse_key(text).map_err(|_| ());
                assert_eq!(fast.ok(), general.ok(), "{text:?}");
            }
        }
        let mut texts: Vec<String> = [
            "",
            "0",
            "-0",
            "00",
            "01",
            "-01",
            "1",
            "-1",
            "+1",
            " 1",
            "1 ",
            "1.0",
            "1.5",
            "1e2",
            "1E0",
            "-",
            ".5",
            "1.",
            "0x10",
            "2147483647",
            "2147483648",
            "-2147483648",
            "-2147483649",
            "4294967295",
            "4294967296",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999",
            "123456789012345678901",
        ]
        .map(String::from)
        .to_vec();
        texts.extend((0..64).map(|shift| (1u64 << shift).to_string()));
        texts.extend((0..64).map(|shift| format!("-{}", 1u64 << shift)));
        agree::<i32>(&texts);
        agree::<i64>(&texts);
        agree::<u32>(&texts);
        agree::<u64>(&texts);
    }

    #[test]
    fn insert_new_refuses_duplicates() {
        let mut h = HashMap::new();
        assert!(h.insert_new(1, "a"));
        assert!(!h.insert_new(1, "b"));
        assert_eq!(h[&1], "a");
        let mut b = BTreeMap::new();
        assert!(b.insert_new("k".to_string(), 1));
        assert!(!b.insert_new("k".to_string(), 2));
    }

    #[test]
    fn keys_are_looked_up_as_parsed() {
        let mut h = HashMap::from([("k".to_string(), 1), ("l".to_string(), 2)]);
        assert_eq!(
            String::with_lookup("k", |k| h.value_mut(k).copied()),
            Ok(Some(1))
        );
        h.retain_keys(|k| k == "l");
        assert_eq!(h.entries(), 1);
        let mut b = BTreeMap::from([(-1i64, "a"), (2, "b")]);
        assert_eq!(
            i64::with_lookup("-1", |k| b.value_mut(k).copied()),
            Ok(Some("a"))
        );
        i64::with_lookup("2", |k| b.remove_key(k)).unwrap();
        assert_eq!(b.entries(), 1);
        assert!(i32::with_lookup("1.5", |_| ()).is_err());
        assert_eq!(bool::with_lookup("true", |k| *k), Ok(true));
    }

    #[test]
    fn equal_keys_have_equal_fingerprints() {
        assert_eq!(
            String::fingerprint("key"),
            String::fingerprint(&String::from("key")[..])
        );
        assert_ne!(String::fingerprint("key"), String::fingerprint("kez"));
        assert_ne!(i32::fingerprint(&-1), i32::fingerprint(&1));
        assert_ne!(u64::fingerprint(&0), u64::fingerprint(&1));
    }
}
