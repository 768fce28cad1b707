//! Arbitrary bytes decoded as `TestAllTypesProto2` JSON; what decodes must round-trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use protojsonx_robustness::protobuf_test_messages::proto2::TestAllTypesProto2;

fuzz_target!(|data: &[u8]| {
    protojsonx_fuzz::decode_and_round_trip::<TestAllTypesProto2>(data);
});
