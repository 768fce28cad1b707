#!/usr/bin/env bash
# Runs the benchmark suite and writes benches/results/: results.md (timings,
# allocations, instruction counts, ratios, the targets (against pbjson,
# sonic-rs and prost; decode_into and shuffled keys; the dynamic transcoder),
# code size, machine) and chart.svg.
#
#   benches/run.sh                 full run: ROUNDS passes through the suite
#                                  (default 9, about 2.5 minutes each on 2 cores)
#   benches/run.sh medium/         only criterion benchmarks matching a filter;
#                                  the report then also shows older estimates
#
# Several short rounds rather than one long pass: on a shared machine a
# benchmark runs slow for seconds at a time when other tenants take the host,
# and report.py reports each benchmark's best round. Extra arguments go to
# criterion, e.g. `--measurement-time 2`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."   # repo root

results=benches/results
target=$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
mkdir -p "$results"

if [ $# -eq 0 ]; then
    rm -rf "$target/criterion"   # a full run: the report holds this run only
fi
echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$results/load.txt"
# Built once, then run directly: editing the sources during a run cannot
# rebuild the benchmark between rounds.
bench=$(cargo bench -p protojsonx-benches --bench protojson --no-run --message-format=json |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "protojson" and m.get("executable"):
        print(m["executable"])')
rounds=${ROUNDS:-9}
for round in $(seq 1 "$rounds"); do
    echo "=== round $round of $rounds"
    PROTOJSONX_BENCH_ROUND=$round PROTOJSONX_TURNS="$target/criterion/turns.tsv" CRITERION_HOME="$target/criterion" "$bench" --bench --warm-up-time 0.2 --measurement-time 0.4 \
        --nresamples 1000 --save-baseline "round-$round" "$@"
done
cargo build --release -p protojsonx-benches --bins
"$target/release/allocs" > "$results/allocs.tsv"
if command -v valgrind > /dev/null; then
    echo "=== instruction counts (callgrind, about 5 minutes)"
    benches/scripts/instructions.sh "$target/release/profile" "$results/allocs.tsv" > "$results/instructions.tsv"
else
    echo "valgrind not found: no instruction counts"
    rm -f "$results/instructions.tsv"
fi
echo "load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$results/load.txt"

python3 benches/scripts/report.py \
    --criterion "$target/criterion" \
    --allocs "$results/allocs.tsv" \
    --release-dir "$target/release" \
    --load "$results/load.txt" \
    --instructions "$results/instructions.tsv" \
    --turns "$target/criterion/turns.tsv" \
    --out "$results"
echo "wrote $results/results.md and $results/chart.svg"
