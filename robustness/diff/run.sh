#!/usr/bin/env bash
# Differential test of protojsonx against Python protobuf's json_format.
#
#   robustness/diff/run.sh [COUNT] [SEED]    (defaults: 400 messages, seed 1)
#
# 1. `diff-corpus generate` draws COUNT random messages: TestAllTypesProto3,
#    TestAllTypesProto2, their editions copies (decoded from a random
#    original, which they must equal in JSON and binary both ways) and
#    TestAllTypesEdition2023 (prost's decoding of random binary); it writes
#    each as prost's binary plus our JSON under 4 option sets.
# 2. Python (reading the editions files by their own features) parses our
#    JSON and must get the binary's message; the binary must be in the wire
#    form Python writes, and an editions message must be what Python reads
#    from its original or random input. Python writes its own JSON and
#    binary of each message.
# 3. `diff-corpus check`: we parse Python's JSON and binary and must get the
#    same message.
# 4. Both sides judge the hand-made documents in invalid.txt; verdicts must match.
# Disagreements explained in KNOWN_DIFFERENCES.md are reported, not failures.
# Python protobuf is installed into a venv under .cache/robustness/ (venv.sh).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."   # repo root

COUNT="${1:-400}"
SEED="${2:-1}"
VENV=$(robustness/diff/venv.sh)
WORK=.cache/robustness/diff

cargo build --quiet -p protojsonx-robustness --bin diff-corpus
BIN="${CARGO_TARGET_DIR:-target}/debug/diff-corpus"

rm -rf "$WORK"
"$BIN" generate "$WORK" "$COUNT" "$SEED"
"$VENV/bin/python" robustness/diff/differential.py valid "$WORK"
"$BIN" check "$WORK/python.jsonl"
"$BIN" invalid robustness/diff/invalid.txt > "$WORK/verdicts.jsonl"
"$VENV/bin/python" robustness/diff/differential.py invalid robustness/diff/invalid.txt \
  "$WORK/verdicts.jsonl" "$WORK/descriptors.bin"
echo "diff/run.sh: differential test OK"
