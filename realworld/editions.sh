#!/usr/bin/env bash
# Edition 2023 and 2024 copies of the real-world slice, checked against the
# originals by realworld/editions.py (protoc and Python protobuf).
#
#   realworld/editions.sh [--lang-features]
#
# 1. fetch.sh installs the slice's protos (skipped when present); the Python
#    venv is the differential test's (robustness/diff/venv.sh).
# 2. For each edition, editions.py converts realworld/slice.txt (and what it
#    imports) into .cache/realworld/editions/EDITION/{googleapis,opentelemetry}
#    and checks the copies; then the same for the conformance test messages
#    (conformance/proto/google/protobuf/test_messages_proto{2,3}.proto) into
#    .cache/realworld/editions/conformance/EDITION, and for the fixtures of
#    realworld/editions-fixtures (proto2 groups in oneofs and extend blocks,
#    required, packed, defaults, weak and public imports, ...) into
#    .cache/realworld/editions/fixtures/EDITION.
# Arguments go to `editions.py convert`. Fails when a check fails.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."   # repo root

realworld/fetch.sh >/dev/null
PY="$(robustness/diff/venv.sh)/bin/python"
PROTOS=.cache/realworld/protos
OUT=.cache/realworld/editions
SRC="$PROTOS/googleapis:$PROTOS/opentelemetry"
CONFORMANCE=(google/protobuf/test_messages_proto2.proto google/protobuf/test_messages_proto3.proto)
FIXTURES=(edfix/groups.proto edfix/presence.proto)

status=0
for edition in 2023 2024; do
  dst="$OUT/$edition/googleapis:$OUT/$edition/opentelemetry"
  rm -rf "${OUT:?}/$edition"
  "$PY" realworld/editions.py convert --edition "$edition" "$@" --slice realworld/slice.txt "$SRC" "$dst"
  "$PY" realworld/editions.py check --edition "$edition" --slice realworld/slice.txt "$SRC" "$dst" || status=1

  dst="$OUT/conformance/$edition"
  rm -rf "$dst"
  "$PY" realworld/editions.py convert --edition "$edition" "$@" conformance/proto "$dst" "${CONFORMANCE[@]}"
  "$PY" realworld/editions.py check --edition "$edition" conformance/proto "$dst" "${CONFORMANCE[@]}" || status=1

  dst="$OUT/fixtures/$edition"
  rm -rf "$dst"
  "$PY" realworld/editions.py convert --edition "$edition" "$@" realworld/editions-fixtures "$dst" "${FIXTURES[@]}"
  "$PY" realworld/editions.py check --edition "$edition" realworld/editions-fixtures "$dst" "${FIXTURES[@]}" || status=1
done
exit $status
