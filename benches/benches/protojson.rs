//! The criterion suite: every case of `protojsonx_benches::cases`, grouped by
//! payload, direction and variant (`medium/unmarshal/shuffled`), one function
//! per implementation. Run through `benches/run.sh`, which writes the report.

use std::io::Write;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use protojsonx_benches::cases::{Case, Payloads};

/// Where the times of the default options in each variant's turns go
/// (appended, one line per benchmark: round, group, variant ns, default ns,
/// operations each), for the report's variant ratios. Set by `run.sh`.
const TURNS_ENV: &str = "PROTOJSONX_TURNS";

fn suite(c: &mut Criterion) {
    let payloads = Payloads::new();
    let mut cases = payloads.cases();
    let mut groups = Vec::new();
    let mut start = 0;
    while start < cases.len() {
        let name = cases[start].group();
        let len = cases[start..]
            .iter()
            .take_while(|c| c.group() == name)
            .count();
        groups.push(start..start + len);
        start += len;
    }
    // Each round of `run.sh` starts at another group and another
    // implementation within each group, so that no benchmark always runs
    // first after a group change (or right after the same neighbour).
    let round = round();
    let first = round % groups.len();
    groups.rotate_left(first);
    for range in groups {
        let mut group = c.benchmark_group(cases[range.start].group());
        let len = range.len();
        for k in 0..len {
            let i = range.start + (k + round) % len;
            match default_of(&cases, i) {
                Some(j) => bench_paired(&mut group, &mut cases, i, j),
                None => {
                    let case = &mut cases[i];
                    let run = &mut case.run;
                    group.bench_function(case.implementation, |b| b.iter(&mut *run));
                }
            }
        }
        group.finish();
    }
}

/// For protojsonx in a non-default variant, the index of protojsonx with the
/// default variant of the same payload and direction.
fn default_of(cases: &[Case], i: usize) -> Option<usize> {
    let case = &cases[i];
    if case.implementation != "protojsonx" || case.variant == "default" {
        return None;
    }
    cases.iter().position(|c| {
        c.implementation == "protojsonx"
            && c.variant == "default"
            && c.payload == case.payload
            && c.direction == case.direction
    })
}

/// Benchmarks the variant case `i` in turns with its default `j`: criterion
/// times the variant, in chunks that alternate with chunks of the default,
/// and the default's chunks are timed too and written to [`TURNS_ENV`].
/// Both sums cover the same stretch of time at the grain of [`TURN`], so their
/// ratio (the options targets) does not depend on when the host was busy.
fn bench_paired(group: &mut BenchmarkGroup<'_, WallTime>, cases: &mut [Case], i: usize, j: usize) {
    let (variant, default) = if i < j {
        let (low, high) = cases.split_at_mut(j);
        (&mut low[i], &mut high[0])
    } else {
        let (low, high) = cases.split_at_mut(i);
        (&mut high[0], &mut low[j])
    };
    let name = variant.implementation;
    let group_name = variant.group();
    let (variant, default) = (&mut variant.run, &mut default.run);
    let mut sums = (Duration::ZERO, Duration::ZERO, 0);
    group.bench_function(name, |b| {
        b.iter_custom(|n| {
            let (timed, other) = in_turns(n, variant, default);
            sums = (sums.0 + timed, sums.1 + other, sums.2 + n);
            timed
        })
    });
    if sums.2 > 0 {
        write_turns(&group_name, sums);
    }
}

/// Appends one line of turns to the file [`TURNS_ENV`] names, if it is set.
fn write_turns(group: &str, (variant, default, ops): (Duration, Duration, u64)) {
    let Ok(path) = std::env::var(TURNS_ENV) else {
        return;
    };
    let line = format!(
        "{}\t{group}\t{}\t{}\t{ops}\n",
        round(),
        variant.as_nanos(),
        default.as_nanos()
    );
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path);
    if let Err(e) = file.and_then(|mut f| f.write_all(line.as_bytes())) {
        panic!("cannot append to {path}: {e}");
    }
}

/// Runs `timed` `iters` times and `other` as often, in alternating chunks
/// of about [`TURN`] each (sized from the last chunk's time, so short and
/// long operations alternate equally finely); returns the time of each.
fn in_turns(iters: u64, timed: &mut dyn FnMut(), other: &mut dyn FnMut()) -> (Duration, Duration) {
    let (mut timed_total, mut other_total) = (Duration::ZERO, Duration::ZERO);
    let mut left = iters;
    let mut chunk = 1;
    while left > 0 {
        let n = left.min(chunk);
        let start = Instant::now();
        (0..n).for_each(|_| other());
        let middle = Instant::now();
        (0..n).for_each(|_| timed());
        let elapsed = middle.elapsed();
        other_total += middle - start;
        timed_total += elapsed;
        left -= n;
        let per_op = elapsed.as_nanos() / u128::from(n);
        chunk = u64::try_from(TURN.as_nanos() / per_op.max(1)).map_or(1, |c| c.max(1));
    }
    (timed_total, other_total)
}

/// The length of one turn of [`in_turns`]: long next to the cost of reading
/// the clock, short next to the host's slow spells (tens of milliseconds up).
const TURN: Duration = Duration::from_micros(50);

/// The round of `run.sh` being run (`PROTOJSONX_BENCH_ROUND`, 0 if unset).
fn round() -> usize {
    std::env::var("PROTOJSONX_BENCH_ROUND")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(0)
}

criterion_group! {
    name = benches;
    // About 3 s per case: the ~180 cases take 9-10 minutes on 2 cores.
    // `run.sh` and the command line can override these.
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(40)
        .without_plots();
    targets = suite
}
criterion_main!(benches);
