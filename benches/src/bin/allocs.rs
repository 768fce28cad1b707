//! Counts allocations per operation for every benchmark case, with a counting
//! global allocator, and prints them as tab-separated rows:
//! `group implementation json_bytes allocs_per_op bytes_per_op`, in case order
//! (`run.sh` turns them into the report, joined with criterion's timings).
//!
//! An allocation is a call to `alloc` or `realloc` (a growing `Vec` counts
//! once per growth, as Go's allocs/op does); bytes are the sizes requested,
//! the new size for `realloc`. Each case runs once before counting, so reused
//! buffers have grown and one-time initialisation is not counted.

use protojsonx_benches::cases::Payloads;

#[path = "../counting.rs"]
mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

/// Operations counted per case.
const RUNS: u64 = 20;

fn main() {
    let payloads = Payloads::new();
    println!("group\timplementation\tjson_bytes\tallocs_per_op\tbytes_per_op");
    for mut case in payloads.cases() {
        (case.run)();
        let (allocs, bytes) = counting::counts();
        for _ in 0..RUNS {
            (case.run)();
        }
        let (allocs_after, bytes_after) = counting::counts();
        let allocs = (allocs_after - allocs) as f64 / RUNS as f64;
        let bytes = (bytes_after - bytes) as f64 / RUNS as f64;
        println!(
            "{}\t{}\t{}\t{allocs}\t{bytes}",
            case.group(),
            case.implementation,
            case.json_len
        );
    }
}
