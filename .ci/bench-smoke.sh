#!/usr/bin/env bash
# Benchmark smoke check for CI: never timed. `cargo test --workspace` already
# runs the agreement tests of protojsonx-benches; this builds the criterion
# bench in the test profile and runs each case once (criterion's --test mode),
# runs the allocation counter and (on two cases) the callgrind instruction
# counter, breaks one case's instructions down by function and one
# function's by inlined frame (scripts/symbols.py), and renders a report
# from their output (with the sums of the variants' turns), so
# benches/run.sh's pieces and the profiling script are known to work; and
# runs the transcoding load test's smoke mode (benches/transcode).
# Debug builds only.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."   # repo root

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PROTOJSONX_TURNS="$tmp/turns.tsv" cargo test -p protojsonx-benches --bench protojson -- --test
cargo run -q -p protojsonx-benches --bin allocs > "$tmp/allocs.tsv"
cargo build -q -p protojsonx-benches --bins
target=$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
"$target/debug/parts" any 1   # the part-by-part tool runs (its table takes turns: not here)
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }
head -3 "$tmp/allocs.tsv" > "$tmp/two-cases.tsv"
benches/scripts/instructions.sh "$target/debug/profile" "$tmp/two-cases.tsv" > "$tmp/instructions.tsv"
test "$(grep -c '^small/marshal/default' "$tmp/instructions.tsv")" = 2
# The per-function breakdown finds the generated encoder among the symbols.
benches/scripts/symbols.py "$target/debug/profile" small/marshal/default/protojsonx 20 --top 40 > "$tmp/symbols.txt"
grep -q 'SmallObject as protojsonx_runtime::ProtoJson>::write_json' "$tmp/symbols.txt"
# And breaks that function down by inlined frame (its own code, unoptimized).
benches/scripts/symbols.py "$target/debug/profile" small/marshal/default/protojsonx 20 \
    --inline 'SmallObject as protojsonx_runtime::ProtoJson>::write_json' > "$tmp/inline.txt"
grep -q "write_json: [0-9,.]* instructions per operation" "$tmp/inline.txt"
python3 benches/scripts/report.py --criterion "$tmp/no-timings" --allocs "$tmp/allocs.tsv" \
    --release-dir "$target/debug" --instructions "$tmp/instructions.tsv" --turns "$tmp/turns.tsv" --out "$tmp"
grep -q "## Code size" "$tmp/results.md"
grep -q "^| order-batch/unmarshal/shuffled | " "$tmp/results.md"   # the variants' turns were written
# The transcoding load test: every way answers every case alike and is
# loaded for a moment by the in-process loop (no wrk; nothing written).
cargo run -q -p protojsonx-bench-transcode --bin transcode-load -- --smoke
echo "bench smoke check passed"
