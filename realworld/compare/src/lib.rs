//! The real-world slice, generated as `build.rs` chose by feature: prost
//! structs alone, with protojsonx's JSON code, or with pbjson's serde code.
//! Only built and timed by `compare/run.sh`; nothing here is used.

#![allow(warnings, clippy::all)]

include!(concat!(env!("OUT_DIR"), "/mod.rs"));
