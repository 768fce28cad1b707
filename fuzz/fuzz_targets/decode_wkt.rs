//! The first byte picks a well-known type, the rest is decoded as its JSON;
//! what decodes must round-trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prost_types::{Any, Duration, FieldMask, ListValue, Struct, Timestamp, Value};
use protojsonx_fuzz::decode_and_round_trip as check;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, json)) = data.split_first() else {
        return;
    };
    match pick % 12 {
        0 => check::<Timestamp>(json),
        1 => check::<Duration>(json),
        2 => check::<FieldMask>(json),
        3 => check::<Struct>(json),
        4 => check::<Value>(json),
        5 => check::<ListValue>(json),
        6 => check::<Any>(json),
        7 => check::<()>(json),
        8 => check::<i64>(json),
        9 => check::<f32>(json),
        10 => check::<Vec<u8>>(json),
        _ => check::<String>(json),
    }
});
