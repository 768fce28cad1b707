//! serde interop (cargo feature `serde`): `Serialize` and `Deserialize` that
//! follow ProtoJSON, so `serde_json`, `axum::Json`, and other serde users get
//! spec-compliant JSON for protobuf messages.
//!
//! Three ways in:
//!
//! - the generator option `serde` ([`Config::serde`], plugin parameter
//!   `serde`) implements both traits on every generated message by calling
//!   [`serialize`] and [`deserialize`];
//! - `#[serde(with = "protojsonx_runtime::serde")]` on a field of your own
//!   serde struct whose type implements [`ProtoJson`];
//! - the wrapper [`Serde`], for types you cannot add impls to (the
//!   `prost_types` well-known types, extern types).
//!
//! ```
//! use protojsonx_runtime::serde::Serde;
//!
//! let ts = prost_types::Timestamp { seconds: 1_700_000_000, nanos: 0 };
//! let value = serde_json::to_value(Serde(ts)).unwrap();
//! assert_eq!(value, "2023-11-14T22:13:20Z");
//! let back: Serde<prost_types::Timestamp> = serde_json::from_value(value).unwrap();
//! assert_eq!(back.0, ts);
//! ```
//!
//! How: serializing encodes with protojsonx and replays the JSON into the
//! serializer (so key order is kept, and any self-describing format gets
//! the ProtoJSON structure); deserializing replays the input into a JSON
//! buffer and decodes that with protojsonx, so every ProtoJSON rule applies
//! (both field names, `"NaN"`, int64 as strings, duplicate keys rejected...).
//! That costs an extra pass over the JSON: on hot paths call
//! [`ProtoJson::to_json`] and [`ProtoJson::from_json`] directly. Decoding
//! errors keep their message and field path but not the line and column,
//! which would point into the replayed buffer. Objects nested deeper than 128
//! levels are refused (serde_json's recursion limit).
//!
//! [`Config::serde`]: https://docs.rs/protoc-gen-rust-protojsonx/latest/protoc_gen_rust_protojsonx/struct.Config.html#method.serde

use ::serde::de::Error as _;
use ::serde::ser::Error as _;
use ::serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Error, ProtoJson};

/// The serde crate, for generated code: users need not depend on it.
#[doc(hidden)]
pub use ::serde as __serde;

/// Serializes `msg` as its ProtoJSON (default [`EncodeOptions`](crate::EncodeOptions)).
///
/// Usable as `#[serde(serialize_with = "protojsonx_runtime::serde::serialize")]`.
pub fn serialize<M: ProtoJson, S: Serializer>(msg: &M, serializer: S) -> Result<S::Ok, S::Error> {
    let json = msg.to_json_vec().map_err(S::Error::custom)?;
    let mut replay = serde_json::Deserializer::from_slice(&json);
    serde_transcode::transcode(&mut replay, serializer)
}

/// Deserializes a message from ProtoJSON (default [`DecodeOptions`](crate::DecodeOptions)).
///
/// Usable as `#[serde(deserialize_with = "protojsonx_runtime::serde::deserialize")]`.
/// The deserializer must be self-describing (JSON, a `serde_json::Value`, YAML...).
pub fn deserialize<'de, M: ProtoJson, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<M, D::Error> {
    let mut json = Vec::new();
    serde_transcode::transcode(deserializer, &mut serde_json::Serializer::new(&mut json))
        .map_err(D::Error::custom)?;
    M::from_json(&json).map_err(|e| D::Error::custom(describe(&e)))
}

/// The error's message and field path, without the line and column of the
/// replayed buffer: ``expected bool, found string at `actor.verified` ``.
fn describe(error: &Error) -> String {
    let path = error.path_string();
    if path.is_empty() {
        error.message().to_string()
    } else {
        format!("{} at `{path}`", error.message())
    }
}

/// Gives any [`ProtoJson`] type `Serialize` and `Deserialize` impls that
/// follow ProtoJSON: for the `prost_types` well-known types, extern types, or
/// messages generated without the `serde` option.
///
/// ```
/// use protojsonx_runtime::serde::Serde;
///
/// let d: Serde<prost_types::Duration> = serde_json::from_str(r#""1.5s""#).unwrap();
/// assert_eq!((d.0.seconds, d.0.nanos), (1, 500_000_000));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Serde<T>(pub T);

impl<T: ProtoJson> Serialize for Serde<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize(&self.0, serializer)
    }
}

impl<'de, T: ProtoJson> Deserialize<'de> for Serde<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize(deserializer).map(Serde)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost_types::{Duration, Struct, Timestamp, Value, value::Kind};

    #[test]
    fn serde_json_output_is_the_protojson() {
        let ts = Timestamp {
            seconds: 1,
            nanos: 500_000_000,
        };
        assert_eq!(
            serde_json::to_string(&Serde(ts)).unwrap(),
            ts.to_json().unwrap()
        );
    }

    #[test]
    fn key_order_is_kept() {
        let mut object = Struct::default();
        for key in ["b", "a", "c"] {
            object.fields.insert(
                key.into(),
                Value {
                    kind: Some(Kind::NumberValue(1.5)),
                },
            );
        }
        let json = object.to_json().unwrap();
        assert_eq!(serde_json::to_string(&Serde(object)).unwrap(), json);
    }

    #[test]
    fn values_round_trip_through_serde_json_value() {
        let d = Duration {
            seconds: -3,
            nanos: -250_000_000,
        };
        let value = serde_json::to_value(Serde(d)).unwrap();
        assert_eq!(value, serde_json::json!("-3.250s"));
        let back: Serde<Duration> = serde_json::from_value(value).unwrap();
        assert_eq!(back.0, d);
    }

    #[test]
    fn decoding_errors_keep_the_message_without_the_replay_position() {
        let err = serde_json::from_str::<Serde<Timestamp>>(r#""yesterday""#).unwrap_err();
        let text = err.to_string();
        assert!(!text.contains("line 1, column 1 "), "{text}");
        let direct = Timestamp::from_json(r#""yesterday""#).unwrap_err();
        assert!(text.starts_with(direct.message()), "{text} / {direct}");
    }

    #[test]
    fn the_with_functions_fit_serde_attributes() {
        #[derive(::serde::Serialize, ::serde::Deserialize, PartialEq, Debug)]
        struct Envelope {
            #[serde(with = "crate::serde")]
            at: Timestamp,
            note: String,
        }
        let envelope = Envelope {
            at: Timestamp {
                seconds: 0,
                nanos: 0,
            },
            note: "n".into(),
        };
        let json = serde_json::to_string(&envelope).unwrap();
        assert_eq!(json, r#"{"at":"1970-01-01T00:00:00Z","note":"n"}"#);
        assert_eq!(serde_json::from_str::<Envelope>(&json).unwrap(), envelope);
    }
}
