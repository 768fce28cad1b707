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
# 4. The edition 2023 and 2024 copies of the slice (editions.sh converts them
#    and checks they mean what the originals mean): realworld-editions runs
#    them through Builder (the vendored protoc) and compares their code with
#    the original's, which step 2 compiled and step 3 checked, so they need
#    no build of their own; `roundtrip.py editions` reads step 3's messages
#    by the copies' types (Python's pools of the editions files), which must
#    give the originals' binary and JSON, and checks them through the
#    dynamic transcoder with the copies' descriptor sets.
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

EDITIONS_WORK="$WORK/editions"
phase "editions: convert + check copies" realworld/editions.sh
# PROTOC unset: Builder reads the copies with the vendored protoc.
phase "editions: generated code" env -u PROTOC "$CARGO_TARGET_DIR/debug/realworld-editions" \
  .cache/realworld/editions "$EDITIONS_WORK"
phase "editions: round trip (dynamic)" "$VENV/bin/python" realworld/roundtrip.py editions \
  "$CARGO_TARGET_DIR/debug/realworld-driver" "$WORK" --count "$COUNT" --seed "$SEED" \
  --edition 2023="$EDITIONS_WORK/2023" --edition 2024="$EDITIONS_WORK/2024"

echo "--- realworld: times"
printf '  %s\n' "${timings[@]}"
echo "realworld/run.sh: $(python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); print(d["summary"] + "; " + (d["dynamic"] or "").removeprefix("realworld: "))' "$WORK/summary.json"); summary in ${WORK#"$ROOT"/}/summary.json"
python3 -c 'import json,sys; [print("realworld/run.sh: " + e["summary"]) for e in json.load(open(sys.argv[1]))["editions"]]' \
  "$WORK/editions-summary.json"
