//! Runs benchmark cases a fixed number of times, for profilers whose counts
//! are stable where timings are not:
//!
//! ```text
//! cargo build --release -p protojsonx-benches --bin profile
//! valgrind --tool=callgrind target/release/profile medium/unmarshal/proto-names 20000
//! ```
//!
//! The first argument selects the case named `group/implementation` exactly
//! (`medium/unmarshal/default/prost`), or if none is, every case whose name
//! contains it (`medium/unmarshal`); the second is the number of runs of each
//! (default 10000). Each selected case is named on stderr before it runs.

use protojsonx_benches::cases::Payloads;

fn main() {
    let mut args = std::env::args().skip(1);
    let filter = args.next().unwrap_or_default();
    let runs: u32 = match args.next().map(|n| n.parse()) {
        None => 10_000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("runs must be a number: {e}");
            std::process::exit(2);
        }
    };
    // A filter naming one payload's cases (`small/...`) builds that payload alone.
    let payload = filter.split_once('/').map(|(payload, _)| payload);
    let mut cases = payload
        .and_then(Payloads::named_cases_of)
        .unwrap_or_else(|| Payloads::new().named_cases());
    if cases.iter().any(|(name, _)| *name == filter) {
        cases.retain(|(name, _)| *name == filter);
    } else {
        cases.retain(|(name, _)| name.contains(&filter));
    }
    for (name, case) in &mut cases {
        eprintln!("{name}: {runs} runs");
        for _ in 0..runs {
            (case.run)();
        }
    }
    if cases.is_empty() {
        eprintln!("no case matches {filter:?}");
        std::process::exit(1);
    }
}
