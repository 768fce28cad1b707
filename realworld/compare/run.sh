#!/usr/bin/env bash
# Code size and build time of the real-world slice, three ways (see build.rs):
# prost alone, prost + protojsonx, prost + pbjson-build 0.9; the two JSON ways
# also with the feature use-all, which encodes and decodes every message type
# in the crate (JSON code is compiled where it is used: pbjson's serde code is
# generic, protojsonx's impls are #[inline]).
#
#   realworld/compare/run.sh [ROUNDS]     (default 3; the best round is reported)
#
# Dependencies are built first; each timed round then touches build.rs, so
# cargo reruns the build script (parsing and code generation) and recompiles
# the crate alone: `cargo build` (debug profile) of a crate holding the
# generated code, as a user's build pays it after changing a .proto. Not part
# of CI (about 30 minutes for one round on 2 cores); the numbers go to realworld/README.md.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
ROUNDS="${1:-3}"
ROOT=$(cd ../.. && pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
# As the real-world check builds: one-off builds keep no incremental state.
export CARGO_INCREMENTAL=0
../fetch.sh

variants=("prost:" "protojsonx:--features=protojsonx" "pbjson:--features=pbjson"
  "protojsonx-used:--features=protojsonx,use-all" "pbjson-used:--features=pbjson,use-all")

# The build script's OUT_DIR for a feature set (from cargo's JSON messages).
out_dir() {
  cargo build --quiet $1 --message-format=json |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "build-script-executed" and m["package_id"].find("realworld-compare") >= 0:
        print(m["out_dir"])'
}

lines() { cat "$1"/*.rs | wc -l; }

echo "--- warm-up: dependencies and one build of each variant"
for v in "${variants[@]}"; do cargo build --quiet ${v#*:}; done

declare -A best out
for v in "${variants[@]}"; do
  name=${v%%:*} flags=${v#*:}
  out[$name]=$(out_dir "$flags")
  for round in $(seq "$ROUNDS"); do
    touch build.rs
    start=$(date +%s.%N)
    cargo build --quiet $flags
    took=$(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')")
    echo "$name round $round: $took s"
    if [[ -z "${best[$name]:-}" ]] || python3 -c "import sys; sys.exit(not $took < ${best[$name]})"; then
      best[$name]=$took
    fi
  done
done

prost_lines=$(lines "${out[prost]}")
protojsonx_lines=$(lines "${out[protojsonx]}")
pbjson_json=$(cat "${out[pbjson]}"/*.serde.rs | wc -l)
messages=$(grep -ho 'impl ::protojsonx_runtime::ProtoJson for' "${out[protojsonx]}"/*.rs | wc -l)
echo
echo "| | generated lines | of which JSON code | cargo build, crate alone | every type used |"
echo "|---|---:|---:|---:|---:|"
echo "| prost alone | $prost_lines | - | ${best[prost]} s | |"
echo "| prost + protojsonx | $protojsonx_lines | $((protojsonx_lines - prost_lines)) | ${best[protojsonx]} s | ${best[protojsonx-used]} s |"
echo "| prost + pbjson 0.9 | $(lines "${out[pbjson]}") | $pbjson_json | ${best[pbjson]} s | ${best[pbjson-used]} s |"
echo
echo "compare/run.sh: $messages messages with JSON code"
