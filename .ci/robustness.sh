#!/usr/bin/env bash
# Robustness checks that `cargo test --workspace` does not run
# (the hostile-input, property and error-text tests in robustness/tests/ run there):
#
#   1. the runtime's unit tests under valgrind memcheck: the runtime has two
#      `unsafe` blocks (scan.rs: ASCII as `&str`; short.rs: a length set over
#      bytes written to spare capacity, whose uninitialized reads memcheck
#      would report), and Miri needs a nightly toolchain;
#   2. differential test against Python protobuf (robustness/diff/run.sh);
#   3. a short coverage-guided fuzzing run (libFuzzer, cargo-fuzz's targets) of
#      every target in fuzz/, starting from the checked-in corpus fuzz/corpus/.
#
# 1 and 2 use one core each and run side by side. The release builds (fuzz
# targets, the runtime's tests) are done ahead by `robustness.sh build`, which
# .ci/run starts in the background after the tests; run alone, this script
# builds the fuzz targets in the background during 1 and 2.
#
# Knobs: FUZZ_SECONDS (per target, default 15; two targets run at a time), DIFF_COUNT (random messages,
# default 400). A crash leaves its input in fuzz/artifacts/<target>/.
#
# The fuzz targets are built as cargo-fuzz 0.13 builds them (`cargo fuzz build
# -O -a --sanitizer none`: libFuzzer's coverage instrumentation, `--cfg
# fuzzing`, debug assertions and overflow checks on), by plain cargo with the
# same rustc flags but one: cargo-fuzz forces `-Ccodegen-units=1`, which
# makes the build several minutes longer. Those flags are stable (only the
# sanitizers would need nightly), so nothing needs RUSTC_BOOTSTRAP, and CI
# need not install cargo-fuzz. Targets are built with debug assertions on, so
# the `debug_assert!`s that guard the runtime's `unsafe` blocks are checked on
# every input; no sanitizer: AddressSanitizer cannot see what those blocks
# could get wrong (a non-UTF-8 `&str`, uninitialized bytes; memcheck covers
# the latter in step 1) and would double build and run time. Each target
# runs as `cargo fuzz run` runs it: its binary, with crashes saved under
# fuzz/artifacts/<target>/.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."   # repo root

FUZZ_SECONDS="${FUZZ_SECONDS:-15}"
DIFF_COUNT="${DIFF_COUNT:-400}"
FUZZ_TRIPLE=x86_64-unknown-linux-gnu
fuzz_rustflags=(
  -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4
  -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table
  -Cllvm-args=-sanitizer-coverage-trace-compares -Cllvm-args=-simplifycfg-branch-fold-threshold=0
  -Cllvm-args=-sanitizer-coverage-stack-depth --cfg fuzzing -Cdebug-assertions
)

timed() {
  local start=$SECONDS status=0
  "$@" || status=$?
  echo "robustness.sh: '$*' took $((SECONDS - start)) s" >&2
  return "$status"
}

# The fuzz targets (their own workspace and target directory), by cargo-fuzz's flags.
# (--target keeps the flags off build scripts and proc macros, as cargo-fuzz does.)
build_fuzz_targets() {
  (cd fuzz && RUSTFLAGS="${fuzz_rustflags[*]}" timed cargo build --release --target "$FUZZ_TRIPLE" --bins)
}
# The runtime's unit-test executables, optimized (memcheck runs them); their paths.
runtime_tests() {
  cargo test --quiet --release -p protojsonx-runtime --no-run --message-format=json | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["executable"])'
}

# `robustness.sh build`: only the release builds the checks run, to be done
# ahead (.ci/run starts it in the background at the lowest priority, on the
# core the steps before leave idle); the checks then find them built.
if [[ "${1:-}" == build ]]; then
  build_fuzz_targets
  timed runtime_tests >/dev/null
  exit 0
fi

logs=.cache/robustness
mkdir -p "$logs"
echo "--- fuzz targets: building in the background (log: $logs/fuzz-build.log)"
build_fuzz_targets >"$logs/fuzz-build.log" 2>&1 &
fuzz_build=$!
trap 'kill "$fuzz_build" 2>/dev/null || true' EXIT

# Memcheck and the differential test use one core each: they run side by
# side (beside the fuzz build, unless it was done ahead), each into its log.
memcheck() {
  command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }
  local exes exe
  exes=$(timed runtime_tests) || return 1
  for exe in $exes; do
    timed valgrind --quiet --error-exitcode=1 --leak-check=no "$exe" --quiet || return 1
  done
}
echo "--- runtime unit tests under valgrind memcheck, and the differential test against Python protobuf"
memcheck >"$logs/memcheck.log" 2>&1 &
memcheck_pid=$!
status=0
timed robustness/diff/run.sh "$DIFF_COUNT" 1 >"$logs/diff.log" 2>&1 || status=$?
wait "$memcheck_pid" || status=$((status | 2))
for log in memcheck diff; do
  echo "--- $logs/$log.log:"
  cat "$logs/$log.log"
done
if [[ $status -ne 0 ]]; then
  echo "robustness.sh: $( ((status & 2)) && echo "memcheck FAILED ")$( ((status & 1)) && echo "the differential test FAILED")" >&2
  exit 1
fi

echo "--- fuzzing (${FUZZ_SECONDS} s per target)"
start=$SECONDS
if ! wait "$fuzz_build"; then
  tail -n 80 "$logs/fuzz-build.log" >&2
  echo "robustness.sh: building the fuzz targets FAILED; log $logs/fuzz-build.log" >&2
  exit 1
fi
echo "robustness.sh: waited $((SECONDS - start)) s for the fuzz build: $(grep "took" "$logs/fuzz-build.log" | tail -n 1)"
cd fuzz
# Fuzzes one target for FUZZ_SECONDS; on a crash prints the log's end.
fuzz_one() {
  local target=$1
  mkdir -p "corpus/$target" "artifacts/$target"
  # New inputs go to a scratch corpus: the checked-in one stays as it is.
  local scratch="../.cache/robustness/fuzz/$target"
  mkdir -p "$scratch"
  local log="$scratch.log" start=$SECONDS
  if ! "target/$FUZZ_TRIPLE/release/$target" -artifact_prefix="artifacts/$target/" \
      -max_total_time="$FUZZ_SECONDS" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
      "$scratch" "corpus/$target" >"$log" 2>&1; then
    grep -vE '^(INFO|#[0-9]+ +(NEW|REDUCE|pulse|RELOAD))' "$log" | tail -n 60 >&2
    echo "robustness.sh: fuzz target $target FAILED; input saved under fuzz/artifacts/$target/, log $log" >&2
    return 1
  fi
  echo "robustness.sh: $target: $(grep -E '^Done [0-9]+ runs' "$log" | tail -n 1) ($((SECONDS - start)) s)"
}
# Two targets at a time, one per core.
mapfile -t targets < <(cargo metadata --format-version 1 --no-deps | python3 -c '
import json, sys
for t in json.load(sys.stdin)["packages"][0]["targets"]:
    if "bin" in t["kind"]:
        print(t["name"])')
failed=0
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  pids=()
  for target in "${targets[@]:i:2}"; do
    fuzz_one "$target" &
    pids+=("$!")
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || failed=1
  done
done
[[ $failed -eq 0 ]] || exit 1
echo "robustness.sh: all robustness checks passed"
