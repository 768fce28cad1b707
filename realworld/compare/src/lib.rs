//! The real-world slice, generated as `build.rs` chose by feature: prost
//! structs alone, with protojsonx's JSON code, or with pbjson's serde code.
//! Only built and timed by `compare/run.sh`.

#![allow(warnings, clippy::all)]

include!(concat!(env!("OUT_DIR"), "/mod.rs"));

/// Encodes a default `T` as JSON and decodes it back: what every package's
/// `uses()` calls per message type under the feature `use-all`.
#[cfg(all(feature = "use-all", feature = "protojsonx"))]
pub fn round_trip<T: protojsonx_runtime::ProtoJson + Default>() {
    let json = protojsonx_runtime::to_vec(&T::default()).unwrap_or_default();
    let _: Result<T, _> = protojsonx_runtime::from_slice(&json);
}

/// Encodes a default `T` as JSON and decodes it back: what every package's
/// `uses()` calls per message type under the feature `use-all`.
#[cfg(all(feature = "use-all", feature = "pbjson"))]
pub fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned + Default>() {
    let json = serde_json::to_vec(&T::default()).unwrap_or_default();
    let _: Result<T, _> = serde_json::from_slice(&json);
}
