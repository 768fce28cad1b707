//! Times the fresh decode of the `order-batch` payload in three key orders,
//! in alternating turns within one process: as encoders write it, with
//! every object's keys in its own random order (the suite's `shuffled`
//! input), and with every order's keys shuffled alike (each `Order` and
//! each of its parts the same permutation as the first order's). The
//! second costs more than the first beyond the added instructions because
//! the branch predictor cannot learn 36 different permutations, while it
//! learns one repeated 36 times: the third shows how much of the
//! shuffled input's cost that is.
//!
//! ```text
//! cargo build --release -p protojsonx-benches --bin permutations
//! target/release/permutations [SEED] [ROUNDS]
//! ```
//!
//! It prints each input's fastest round and its 25th and 50th percentiles,
//! in nanoseconds per decode, and each one's ratio to the in-order input.

use std::hint::black_box;
use std::time::Instant;

use protojsonx_benches::pjx::bench::v1::{OrderBatch, register_protojsonx_types};
use protojsonx_benches::{payloads, shuffle::shuffle_keys};
use protojsonx_runtime::ProtoJson;

/// Decodes per round of each input.
const RUNS: usize = 10;

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u64>());
    let seed = args.next().and_then(Result::ok).unwrap_or(0x5eed);
    let rounds = args.next().and_then(Result::ok).unwrap_or(300) as usize;
    register_protojsonx_types();
    let batch = payloads::order_batch();
    let in_order = batch.to_json().expect("encodes").into_bytes();
    let mut alike = b"{\"orders\":[".to_vec();
    for (i, order) in batch.orders.iter().enumerate() {
        if i > 0 {
            alike.push(b',');
        }
        alike.extend(shuffle_keys(
            order.to_json().expect("encodes").as_bytes(),
            seed,
        ));
    }
    alike.extend_from_slice(b"]}");
    let inputs = [
        ("in order", in_order.clone()),
        ("shuffled", shuffle_keys(&in_order, seed)),
        ("shuffled alike", alike),
    ];
    for (name, json) in &inputs {
        let decoded: OrderBatch = protojsonx_runtime::from_slice(json).expect("decodes");
        assert_eq!(decoded, batch, "{name}");
    }
    let mut times = vec![Vec::with_capacity(rounds); inputs.len()];
    for _ in 0..rounds {
        for ((_, json), times) in inputs.iter().zip(&mut times) {
            let start = Instant::now();
            for _ in 0..RUNS {
                black_box(protojsonx_runtime::from_slice::<OrderBatch>(black_box(json)).unwrap());
            }
            times.push(start.elapsed().as_nanos() as f64 / RUNS as f64);
        }
    }
    for times in &mut times {
        times.sort_by(f64::total_cmp);
    }
    let at = |times: &[f64], q: usize| times[(times.len() - 1) * q / 100];
    let base = at(&times[0], 25);
    for ((name, _), times) in inputs.iter().zip(&times) {
        let at = |q: usize| at(times, q);
        println!(
            "{name:15} min {:10.0}  p25 {:10.0}  median {:10.0}  p25 ratio {:.3}",
            at(0),
            at(25),
            at(50),
            at(25) / base
        );
    }
}
