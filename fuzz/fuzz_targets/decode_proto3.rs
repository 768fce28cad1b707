//! Arbitrary bytes decoded as `TestAllTypesProto3` JSON; what decodes must round-trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use protojsonx_robustness::protobuf_test_messages::proto3::TestAllTypesProto3;

fuzz_target!(|data: &[u8]| {
    protojsonx_fuzz::decode_and_round_trip::<TestAllTypesProto3>(data);
});
