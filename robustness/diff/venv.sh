#!/usr/bin/env bash
# The Python environment of the checks against Python protobuf (the
# differential test and realworld/run.sh): .cache/robustness/venv with
# protobuf 7.36.2, made or remade when it is missing or holds another
# version. Prints the venv's path.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."   # repo root

PROTOBUF_VERSION=7.36.2
VENV="$PWD/.cache/robustness/venv"

if ! "$VENV/bin/python" -c "import google.protobuf as p; assert p.__version__ == '$PROTOBUF_VERSION'" 2>/dev/null; then
  rm -rf "$VENV"
  # Their output goes to stderr: stdout is the path alone.
  python3 -m venv "$VENV" >&2
  "$VENV/bin/pip" install --quiet "protobuf==$PROTOBUF_VERSION" >&2
fi
echo "$VENV"
