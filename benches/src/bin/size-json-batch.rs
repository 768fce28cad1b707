//! Code size with ProtoJSON for the whole richer schema: the baseline of
//! `size-prost-only` plus ProtoJSON decode and encode of `bench.v1.OrderBatch`
//! (every message and enum of `bench.v1` and the well-known types it uses).

use std::io::Read;

use prost::Message;
use protojsonx_benches::pjx::bench::v1::OrderBatch;
use protojsonx_runtime::ProtoJson;

fn main() {
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).expect("stdin");
    let batch = OrderBatch::decode(input.as_slice()).expect("binary OrderBatch");
    println!("{}", batch.encode_to_vec().len());
    if let Ok(json) = OrderBatch::from_json(&input) {
        println!("{}", json.to_json().expect("encodes"));
    }
}
