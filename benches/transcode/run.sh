#!/usr/bin/env bash
# The transcoding load test: builds transcode-load in release and runs every
# case (unary small, unary large, server streaming) against every way
# (generated routes, hand-written axum handlers, the gateway in front of
# tonic, tonic's gRPC called directly), writing benches/results/transcode.md.
#
#   benches/transcode/run.sh                  full run (wrk needed: apt-get install -y wrk)
#   ROUNDS=5 DURATION=10 benches/transcode/run.sh
#   PIN=0 benches/transcode/run.sh            servers and load generator not pinned
#   benches/transcode/run.sh --smoke          each case and way for a fraction of a
#                                             second, in process (no wrk); writes nothing
#
# On two or more CPUs the servers are pinned to CPU 0 and the load generator
# (wrk, or the tonic client loop) to CPU 1, so that they do not take each
# other's CPU; the report says which side was the bottleneck.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."   # repo root

target=${CARGO_TARGET_DIR:-$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')}
cargo build --release -p protojsonx-bench-transcode --bin transcode-load
bin="$target/release/transcode-load"

if [ "${1:-}" = "--smoke" ]; then
    exec "$bin" --smoke
fi
command -v wrk > /dev/null || { echo "wrk not found: apt-get install -y wrk" >&2; exit 1; }
args=(--rounds "${ROUNDS:-3}" --duration "${DURATION:-4}" --warmup "${WARMUP:-2}"
      --connections "${CONNECTIONS:-32}" --threads "${THREADS:-2}" --out benches/results/transcode.md)
if [ "${PIN:-1}" = 1 ] && [ "$(nproc)" -ge 2 ] && command -v taskset > /dev/null; then
    taskset -c 1 "$bin" --server-cpus 0 "${args[@]}" "$@"
else
    "$bin" "${args[@]}" "$@"
fi
echo "wrote benches/results/transcode.md"
