//! The dynamic transcoder (`protojsonx-dynamic`) against the generated code:
//! the first two bytes pick a message type of the conformance, benchmark
//! and test schemas and the options, the rest is read as its JSON and as its
//! binary by both; they must agree (see `protojsonx_fuzz::dynamic_agrees`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    protojsonx_fuzz::dynamic_agrees(data);
});
