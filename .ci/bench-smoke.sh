#!/usr/bin/env bash
# Benchmark smoke check for CI: never timed. `cargo test --workspace` already
# runs the agreement tests of protojsonx-benches; this builds the criterion
# bench in the test profile and runs each case once (criterion's --test mode),
# runs the allocation counter, and renders a report from its output, so
# benches/run.sh's pieces are known to work. Debug builds only.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."   # repo root

cargo test -p protojsonx-benches --bench protojson -- --test
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cargo run -q -p protojsonx-benches --bin allocs > "$tmp/allocs.tsv"
cargo build -q -p protojsonx-benches --bins
target=$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
python3 benches/scripts/report.py --criterion "$tmp/no-timings" --allocs "$tmp/allocs.tsv" \
    --release-dir "$target/debug" --out "$tmp"
grep -q "## Code size" "$tmp/results.md"
echo "bench smoke check passed"
