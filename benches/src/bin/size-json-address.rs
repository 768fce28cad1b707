//! Code size with the ProtoJSON runtime and one small message: the baseline of
//! `size-prost-only` plus ProtoJSON decode and encode of `bench.v1.Address`.

use std::io::Read;

use prost::Message;
use protojsonx_benches::pjx::bench::v1::{Address, OrderBatch};
use protojsonx_runtime::ProtoJson;

fn main() {
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).expect("stdin");
    let batch = OrderBatch::decode(input.as_slice()).expect("binary OrderBatch");
    println!("{}", batch.encode_to_vec().len());
    if let Ok(address) = Address::from_json(&input) {
        println!("{}", address.to_json().expect("encodes"));
    }
}
