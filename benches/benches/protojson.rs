//! The criterion suite: every case of `protojsonx_benches::cases`, grouped by
//! payload, direction and variant (`medium/unmarshal/shuffled`), one function
//! per implementation. Run through `benches/run.sh`, which writes the report.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use protojsonx_benches::cases::Payloads;

fn suite(c: &mut Criterion) {
    let payloads = Payloads::new();
    let mut cases = payloads.cases();
    let mut start = 0;
    while start < cases.len() {
        let group_name = cases[start].group();
        let end = start
            + cases[start..]
                .iter()
                .take_while(|c| c.group() == group_name)
                .count();
        let mut group = c.benchmark_group(&group_name);
        for case in &mut cases[start..end] {
            let run = &mut case.run;
            group.bench_function(case.implementation, |b| b.iter(&mut *run));
        }
        group.finish();
        start = end;
    }
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
