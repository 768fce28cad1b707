//! Counts allocations per operation for every benchmark case, with a counting
//! global allocator, and prints them as tab-separated rows:
//! `group implementation json_bytes allocs_per_op bytes_per_op`, in case order
//! (`run.sh` turns them into the report, joined with criterion's timings).
//!
//! An allocation is a call to `alloc` or `realloc` (a growing `Vec` counts
//! once per growth, as Go's allocs/op does); bytes are the sizes requested,
//! the new size for `realloc`. Each case runs once before counting, so reused
//! buffers have grown and one-time initialisation is not counted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use protojsonx_benches::cases::Payloads;

/// The system allocator, counting calls and requested bytes.
struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards every call unchanged to `System`.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(layout.size() as u64, Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(new_size as u64, Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Operations counted per case.
const RUNS: u64 = 20;

fn main() {
    let payloads = Payloads::new();
    println!("group\timplementation\tjson_bytes\tallocs_per_op\tbytes_per_op");
    for mut case in payloads.cases() {
        (case.run)();
        let (allocs, bytes) = (ALLOCS.load(Relaxed), BYTES.load(Relaxed));
        for _ in 0..RUNS {
            (case.run)();
        }
        let allocs = (ALLOCS.load(Relaxed) - allocs) as f64 / RUNS as f64;
        let bytes = (BYTES.load(Relaxed) - bytes) as f64 / RUNS as f64;
        println!(
            "{}\t{}\t{}\t{allocs}\t{bytes}",
            case.group(),
            case.implementation,
            case.json_len
        );
    }
}
