//! Times benchmark cases in alternation within one process, for A/B
//! comparisons that timings from separate processes are too noisy for:
//!
//! ```text
//! cargo build --release -p protojsonx-benches --bin alternate
//! target/release/alternate 1000 120 small/marshal/default/protojsonx small/marshal/default/prost
//! ```
//!
//! The first argument is the length of one turn in microseconds, the
//! second the number of rounds; then come cases named exactly
//! `group/implementation`, as `profile` names them. Each round runs every
//! case for one turn, in the order given, so all cases see the machine in
//! the same moments; it prints each case's fastest turn and the 25th and
//! 50th percentiles, in nanoseconds per operation. To compare two builds,
//! copy one binary away and run both in turn: a case's times move by a few
//! percent between processes, never within one.

use std::time::Instant;

use protojsonx_benches::cases::Payloads;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(turn_us), Some(rounds)) = (number(args.first()), number(args.get(1))) else {
        eprintln!("usage: alternate TURN_MICROSECONDS ROUNDS CASE...");
        std::process::exit(2);
    };
    let payloads = Payloads::new();
    let mut all = payloads.named_cases();
    let mut picked = Vec::new();
    for name in &args[2..] {
        let Some(i) = all.iter().position(|(n, _)| n == name) else {
            eprintln!("no case is named {name:?}");
            std::process::exit(1);
        };
        picked.push(all.swap_remove(i));
    }
    // Runs per turn, from a first estimate of each case's time.
    let runs: Vec<usize> = picked
        .iter_mut()
        .map(|(_, case)| {
            let start = Instant::now();
            for _ in 0..100 {
                (case.run)();
            }
            let ns = start.elapsed().as_nanos() as f64 / 100.0;
            ((turn_us as f64 * 1000.0 / ns) as usize).max(1)
        })
        .collect();
    let mut times = vec![Vec::with_capacity(rounds); picked.len()];
    for _ in 0..rounds {
        for ((_, case), (runs, times)) in picked.iter_mut().zip(runs.iter().zip(&mut times)) {
            let start = Instant::now();
            for _ in 0..*runs {
                (case.run)();
            }
            times.push(start.elapsed().as_nanos() as f64 / *runs as f64);
        }
    }
    for ((name, _), times) in picked.iter().zip(&mut times) {
        times.sort_by(f64::total_cmp);
        let at = |q: usize| times[(times.len() - 1) * q / 100];
        println!(
            "{name:55} min {:10.2}  p25 {:10.2}  median {:10.2}",
            at(0),
            at(25),
            at(50)
        );
    }
}

/// A positive whole number from the command line.
fn number(arg: Option<&String>) -> Option<usize> {
    arg?.parse().ok().filter(|&n| n > 0)
}
