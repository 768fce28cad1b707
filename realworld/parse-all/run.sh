#!/usr/bin/env bash
# All of googleapis through Builder (see src/main.rs): about 3 minutes on 2
# cores with the release build; not part of CI (the slice of realworld/run.sh
# is what CI compiles and round-trips).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
ROOT=$(cd ../.. && pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
../fetch.sh
cargo build --quiet --release
# Builder prints cargo:rerun-if-changed lines for build scripts; not wanted here.
"$CARGO_TARGET_DIR/release/protojsonx-realworld-parse-all" \
  "$ROOT/.cache/realworld/protos/googleapis" "$ROOT/.cache/realworld/parse-all" | grep -v '^cargo:'
