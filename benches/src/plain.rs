//! Plain Rust structs equivalent to the three schemas, with serde derives whose JSON
//! is the same ProtoJSON protojsonx writes: lowerCamelCase keys in declaration
//! order, default values omitted, 64-bit integers as strings, bytes as base64,
//! enums by name. This is what a hand-written serde model looks like; serde_json
//! and sonic-rs both run on these same structs.
//!
//! Where the mapping needs a choice, it is the cheap one a hand-written model
//! would make: a oneof is one `Option` field per member, the well-known
//! `Timestamp` and `Duration` stay strings, `Struct` is a `serde_json::Value`,
//! and the `Any` is a struct for the one message type it packs.

use std::collections::HashMap;

pub mod otlp;

use serde::{Deserialize, Serialize};

/// True when `v` is its type's default: the fields ProtoJSON omits.
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// `event.v1.SmallObject`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SmallObject {
    #[serde(skip_serializing_if = "is_default")]
    pub id: String,
    #[serde(skip_serializing_if = "is_default")]
    pub active: bool,
    #[serde(skip_serializing_if = "is_default")]
    pub age: i32,
    #[serde(skip_serializing_if = "is_default")]
    pub score: f64,
}

/// `event.v1.Actor`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Actor {
    #[serde(skip_serializing_if = "is_default")]
    pub id: String,
    #[serde(skip_serializing_if = "is_default")]
    pub email: String,
    #[serde(skip_serializing_if = "is_default")]
    pub verified: bool,
}

/// `event.v1.Metadata`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Metadata {
    #[serde(skip_serializing_if = "is_default")]
    pub ip: String,
    #[serde(skip_serializing_if = "is_default")]
    pub user_agent: String,
    #[serde(skip_serializing_if = "is_default", with = "string_int")]
    pub attempts: i64,
}

/// `event.v1.MediumEvent`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MediumEvent {
    #[serde(skip_serializing_if = "is_default")]
    pub id: String,
    #[serde(skip_serializing_if = "is_default", with = "string_int")]
    pub timestamp: i64,
    #[serde(skip_serializing_if = "is_default")]
    pub event_type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor: Option<Actor>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// `event.v1.LargeEventPayload`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LargeEventPayload {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<MediumEvent>,
}

/// `bench.v1.Status`, by its ProtoJSON names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub enum Status {
    #[default]
    #[serde(rename = "STATUS_UNSPECIFIED")]
    Unspecified,
    #[serde(rename = "STATUS_PENDING")]
    Pending,
    #[serde(rename = "STATUS_PAID")]
    Paid,
    #[serde(rename = "STATUS_SHIPPED")]
    Shipped,
    #[serde(rename = "STATUS_DELIVERED")]
    Delivered,
}

/// `bench.v1.Scalars`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Scalars {
    #[serde(skip_serializing_if = "is_default")]
    pub f_double: f64,
    #[serde(skip_serializing_if = "is_default")]
    pub f_float: f32,
    #[serde(skip_serializing_if = "is_default")]
    pub f_int32: i32,
    #[serde(skip_serializing_if = "is_default", with = "string_int")]
    pub f_int64: i64,
    #[serde(skip_serializing_if = "is_default")]
    pub f_uint32: u32,
    #[serde(skip_serializing_if = "is_default", with = "string_int")]
    pub f_uint64: u64,
    #[serde(skip_serializing_if = "is_default")]
    pub f_sint32: i32,
    #[serde(skip_serializing_if = "is_default", with = "string_int")]
    pub f_sint64: i64,
    #[serde(skip_serializing_if = "is_default")]
    pub f_fixed32: u32,
    #[serde(skip_serializing_if = "is_default", with = "string_int")]
    pub f_fixed64: u64,
    #[serde(skip_serializing_if = "is_default")]
    pub f_sfixed32: i32,
    #[serde(skip_serializing_if = "is_default", with = "string_int")]
    pub f_sfixed64: i64,
    #[serde(skip_serializing_if = "is_default")]
    pub f_bool: bool,
    #[serde(skip_serializing_if = "is_default")]
    pub f_string: String,
    #[serde(skip_serializing_if = "Vec::is_empty", with = "base64_bytes")]
    pub f_bytes: Vec<u8>,
}

/// `bench.v1.Address`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Address {
    #[serde(skip_serializing_if = "is_default")]
    pub street: String,
    #[serde(skip_serializing_if = "is_default")]
    pub city: String,
    #[serde(skip_serializing_if = "is_default")]
    pub country_code: String,
}

/// `bench.v1.LineItem`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LineItem {
    #[serde(skip_serializing_if = "is_default")]
    pub sku: String,
    #[serde(skip_serializing_if = "is_default")]
    pub quantity: u32,
    #[serde(skip_serializing_if = "is_default", with = "string_int")]
    pub price_micros: i64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
}

/// `bench.v1.BankTransfer`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct BankTransfer {
    #[serde(skip_serializing_if = "is_default")]
    pub iban: String,
    #[serde(skip_serializing_if = "is_default")]
    pub reference: String,
}

/// A `google.protobuf.Any` packing a `bench.v1.Address`: its fields inline
/// next to `@type`, as ProtoJSON writes it (spelled out rather than
/// `#[serde(flatten)]`, which would buffer the object).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AnyAddress {
    #[serde(rename = "@type")]
    pub type_url: String,
    #[serde(skip_serializing_if = "is_default")]
    pub street: String,
    #[serde(skip_serializing_if = "is_default")]
    pub city: String,
    #[serde(skip_serializing_if = "is_default")]
    pub country_code: String,
}

/// `bench.v1.Order`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Order {
    #[serde(skip_serializing_if = "is_default")]
    pub id: String,
    #[serde(skip_serializing_if = "is_default")]
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scalars: Option<Scalars>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<LineItem>,
    #[serde(skip_serializing_if = "HashMap::is_empty")]
    pub attributes: HashMap<String, String>,
    #[serde(skip_serializing_if = "HashMap::is_empty")]
    pub lines: HashMap<i32, LineItem>,
    #[serde(skip_serializing_if = "HashMap::is_empty")]
    pub tallies: HashMap<i64, i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card_token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bank: Option<BankTransfer>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<AnyAddress>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", with = "opt_string_int")]
    pub discount_micros: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gift: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_kg: Option<f64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<Status>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shipping: Option<Address>,
    #[serde(skip_serializing_if = "Vec::is_empty", with = "base64_bytes")]
    pub signature: Vec<u8>,
}

/// `bench.v1.OrderBatch`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct OrderBatch {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub orders: Vec<Order>,
}

/// 64-bit integers as JSON strings (ProtoJSON's `"123"`), without allocating.
mod string_int {
    use std::fmt;
    use std::marker::PhantomData;
    use std::str::FromStr;

    use serde::{Deserializer, Serializer, de};

    pub fn serialize<T: itoa::Integer + Copy, S: Serializer>(
        v: &T,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_str(itoa::Buffer::new().format(*v))
    }

    pub fn deserialize<'de, T: FromStr, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        d.deserialize_str(StrVisitor(PhantomData))
    }

    /// Parses the integer out of a borrowed or transient string.
    pub struct StrVisitor<T>(pub PhantomData<T>);

    impl<T: FromStr> de::Visitor<'_> for StrVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an integer in a string")
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            v.parse()
                .map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
        }
    }
}

/// `Option<i64>` as a JSON string, for the `Int64Value` wrapper.
mod opt_string_int {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => super::string_int::serialize(v, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        /// The wrapped value, read through `string_int`.
        #[derive(Deserialize)]
        struct Wrapped(#[serde(with = "super::string_int")] i64);
        Ok(Option::<Wrapped>::deserialize(d)?.map(|w| w.0))
    }
}

/// `Option<Vec<u8>>` as base64, for a oneof's bytes member.
mod opt_base64_bytes {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => super::base64_bytes::serialize(v, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
        /// The bytes, read through `base64_bytes`.
        #[derive(Deserialize)]
        struct Wrapped(#[serde(with = "super::base64_bytes")] Vec<u8>);
        Ok(Option::<Wrapped>::deserialize(d)?.map(|w| w.0))
    }
}

/// Bytes as standard base64 with padding, as ProtoJSON writes them.
mod base64_bytes {
    use std::fmt;

    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;
    use serde::{Deserializer, Serializer, de};

    pub fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&STANDARD.encode(v))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        d.deserialize_str(Base64Visitor)
    }

    /// Decodes a borrowed or transient base64 string.
    struct Base64Visitor;

    impl de::Visitor<'_> for Base64Visitor {
        type Value = Vec<u8>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("base64 bytes")
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<u8>, E> {
            STANDARD.decode(v).map_err(E::custom)
        }
    }
}
