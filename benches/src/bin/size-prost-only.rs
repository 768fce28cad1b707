//! Code-size baseline: decodes and re-encodes a `bench.v1.OrderBatch` in the
//! protobuf binary format only. `run.sh` compares its stripped size with
//! `size-json-address` and `size-json-batch`, which add ProtoJSON.

use std::io::Read;

use prost::Message;
use protojsonx_benches::pjx::bench::v1::OrderBatch;

fn main() {
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).expect("stdin");
    let batch = OrderBatch::decode(input.as_slice()).expect("binary OrderBatch");
    println!("{}", batch.encode_to_vec().len());
}
