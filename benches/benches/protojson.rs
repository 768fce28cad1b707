//! The criterion suite: every case of `protojsonx_benches::cases`, grouped by
//! payload, direction and variant (`medium/unmarshal/shuffled`), one function
//! per implementation. Run through `benches/run.sh`, which writes the report.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use protojsonx_benches::cases::Payloads;

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
        let group_cases = &mut cases[range];
        let mut group = c.benchmark_group(group_cases[0].group());
        let turn = round % group_cases.len();
        group_cases.rotate_left(turn);
        for case in group_cases.iter_mut() {
            let run = &mut case.run;
            group.bench_function(case.implementation, |b| b.iter(&mut *run));
        }
        group.finish();
    }
}

/// The round of `run.sh` being run (`PROTOJSONX_BENCH_ROUND`, 0 if unset).
fn round() -> usize {
    std::env::var("PROTOJSONX_BENCH_ROUND")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(0)
}

criterion_group! {
    name = benches;
    // About 3 s per case: the ~120 cases take 6-7 minutes on 2 cores.
    // `run.sh` and the command line can override these.
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(40)
        .without_plots();
    targets = suite
}
criterion_main!(benches);
