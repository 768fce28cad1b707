#!/usr/bin/env bash
# The real-world check: public API protos through build.rs, no protoc.
#
#   realworld/run.sh [COUNT] [SEED]    (defaults: 20 random messages per type, seed 1)
#
# 1. fetch.sh installs googleapis (npm google-proto-files) and the OTLP protos
#    into .cache/realworld/protos (skipped when present).
# 2. The crate protojsonx-realworld compiles realworld/slice.txt through
#    Builder (protox, no protoc) with its module tree, built with clippy's
#    lints and warnings denied (the crate's [lints] deny `warnings`, generated
#    code included).
# 3. roundtrip.py makes COUNT random messages of every message type of the
#    slice and checks both directions against Python protobuf's json_format
#    (its venv is the differential test's: robustness/diff/venv.sh), for the
#    generated code and for the dynamic transcoder.
# The crate is its own workspace; it builds into the repo's target directory
# to reuse the workspace's dependencies (or into CARGO_TARGET_DIR). Each phase's time is printed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."   # repo root
ROOT=$PWD

COUNT="${1:-20}"
SEED="${2:-1}"
WORK="$ROOT/.cache/realworld/run"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
# A one-off build of 400k+ generated lines: incremental state would cost
# about 50 s and 2 GB of disk and never be reused in CI.
export CARGO_INCREMENTAL=0

timings=()
phase() {
  local name="$1" start=$SECONDS
  shift
  echo "--- realworld: $name"
  "$@"
  timings+=("$(printf '%-34s %4d s' "$name" $((SECONDS - start)))")
}

python_venv() { VENV=$(robustness/diff/venv.sh); }
in_crate() { (cd "$ROOT/realworld" && "$@"); }

phase "fetch protos" realworld/fetch.sh
phase "python venv" python_venv
# One build that is also the clippy run: clippy-driver as the crate's rustc
# wrapper lints what it compiles (dependencies are compiled by plain rustc),
# and the crate's [lints] deny every warning, clippy's default lints
# included. A separate `cargo clippy` type-checked the 400k lines again.
clippy_driver=$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver)
phase "build + clippy (warnings denied)" in_crate \
  env RUSTC_WORKSPACE_WRAPPER="$clippy_driver" cargo build --quiet
rm -rf "$WORK"
phase "round trip vs json_format" "$VENV/bin/python" realworld/roundtrip.py run \
  "$CARGO_TARGET_DIR/debug/realworld-driver" "$WORK" --count "$COUNT" --seed "$SEED"

echo "--- realworld: times"
printf '  %s\n' "${timings[@]}"
echo "realworld/run.sh: $(python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); print(d["summary"] + "; " + (d["dynamic"] or "").removeprefix("realworld: "))' "$WORK/summary.json"); summary in ${WORK#"$ROOT"/}/summary.json"
