//! Messages built by the proptest strategies of `protojsonx-robustness`
//! from a seed made of the fuzzer's bytes, so every input is a well-formed
//! message with the edge values those strategies favour; each must
//! round-trip under every option set. (The bytes seed ChaCha rather than
//! being the random stream themselves: a short or constant stream makes some
//! proptest generators loop forever.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use proptest::strategy::{BoxedStrategy, Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use protojsonx_robustness::protobuf_test_messages::proto3::TestAllTypesProto3;
use protojsonx_robustness::strategy::test_all_types_proto3;

thread_local! {
    /// Built once: building the strategy costs more than running it.
    static STRATEGY: BoxedStrategy<TestAllTypesProto3> = test_all_types_proto3(2);
}

fuzz_target!(|data: &[u8]| {
    let mut seed = [0u8; 32];
    for (i, byte) in data.iter().enumerate() {
        seed[i % 32] ^= byte.rotate_left((i / 32) as u32);
    }
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let tree = STRATEGY.with(|strategy| strategy.new_tree(&mut runner));
    if let Ok(tree) = tree {
        protojsonx_fuzz::encode_and_round_trip(&tree.current());
    }
});
