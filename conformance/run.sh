#!/usr/bin/env bash
# Runs the official protobuf conformance suite against protojsonx.
#
#   conformance/run.sh                 # whole suite, generated code
#   conformance/run.sh --test NAME ... # extra options are passed to the runner
#   PROTOJSONX_CONFORMANCE_TESTEE=dynamic conformance/run.sh
#                                      # the dynamic transcoder (protojsonx-dynamic)
#
# Builds the testee (release, or debug with PROTOJSONX_CONFORMANCE_PROFILE=dev),
# installs the runner (conformance/install-runner.sh), runs it with
# --enforce_recommended and no failure list (every test must pass), saves the
# runner output to .cache/conformance/TESTEE/runner.log and the runner's
# output files (failing_tests.txt etc.) to .cache/conformance/TESTEE/out/, prints the
# summary lines and why tests were skipped, and exits non-zero if the runner
# reports anything unexpected.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."   # repo root

CACHE=.cache/conformance
KIND="${PROTOJSONX_CONFORMANCE_TESTEE:-generated}"
export PROTOJSONX_CONFORMANCE_TESTEE="$KIND"
LOG="$CACHE/$KIND/runner.log"
OUT="$CACHE/$KIND/out"
# PROTOJSONX_CONFORMANCE_PROFILE=dev runs a debug build (overflow checks on;
# CI uses it, since its test step has built most of it already).
PROFILE="${PROTOJSONX_CONFORMANCE_PROFILE:-release}"
case "$PROFILE" in
  release) TESTEE="${CARGO_TARGET_DIR:-target}/release/protojsonx-conformance" ;;
  dev) TESTEE="${CARGO_TARGET_DIR:-target}/debug/protojsonx-conformance" ;;
  *) echo "run.sh: PROTOJSONX_CONFORMANCE_PROFILE is release or dev, not $PROFILE" >&2; exit 2 ;;
esac

cargo build --profile "$PROFILE" -p protojsonx-conformance
conformance/install-runner.sh

# --output_dir matters: without it the runner writes failing_tests.txt to "/".
rm -rf "$OUT"
mkdir -p "$OUT"

echo "run.sh: running the conformance suite against the $KIND testee (log: $LOG)"
rc=0
export PROTOJSONX_CONFORMANCE_SKIPS="$OUT/skipped.txt"
"$CACHE/runner" \
  --enforce_recommended \
  --maximum_edition 2024 \
  --output_dir "$OUT" \
  "$@" \
  "$TESTEE" >"$LOG" 2>&1 || rc=$?

# One summary line per suite (binary+JSON suite, then text-format suite), e.g.
#   CONFORMANCE SUITE PASSED: 0 successes, 2779 skipped, 0 expected failures, 0 unexpected failures.
# The runner exits 1 (and stops) after the first suite that FAILED; a suite also
# fails on stale failure-list entries (tests that now pass, unknown names).
summary="$(grep '^CONFORMANCE SUITE' "$LOG" || true)"
echo "${summary:-run.sh: no summary line in $LOG}"
echo "run.sh: skipped tests by reason (count, reason):"
sed 's/^/  /' "$PROTOJSONX_CONFORMANCE_SKIPS" 2>/dev/null || true

if [[ $rc -ne 0 || -z "$summary" ]] || grep -q 'FAILED' <<<"$summary" \
   || grep -qv ' 0 unexpected failures' <<<"$summary"; then
  echo "run.sh: CONFORMANCE FAILED (runner exit code $rc)" >&2
  # The runner's explanations ("These tests failed..." sections with test names),
  # without the per-test ERROR/WARNING details and the log noise.
  grep -vE '^(I0000|W0000|WARNING|ERROR, test=|CONFORMANCE)' "$LOG" | grep -v '^$' | head -n 200 >&2 || true
  echo "run.sh: first failure details:" >&2
  grep '^ERROR, test=' "$LOG" | head -n 20 | cut -c1-600 >&2 || true
  echo "run.sh: full log: $LOG; the runner's lists of failing tests: $OUT/" >&2
  ls "$OUT" >&2 || true
  exit 1
fi
echo "run.sh: conformance OK ($KIND testee)"
