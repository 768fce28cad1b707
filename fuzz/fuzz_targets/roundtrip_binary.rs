//! Arbitrary bytes decoded as a binary `TestAllTypesProto3` (prost); every
//! message that exists encodes to JSON and decodes back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prost::Message;
use protojsonx_robustness::protobuf_test_messages::proto3::TestAllTypesProto3;

fuzz_target!(|data: &[u8]| {
    if let Ok(msg) = TestAllTypesProto3::decode(data) {
        protojsonx_fuzz::encode_and_round_trip(&msg);
    }
});
