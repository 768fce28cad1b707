#!/usr/bin/env bash
# Ecosystem checks, each path with the command that proves it:
#   buf      buf generate (npm @bufbuild/buf, the plugin as a local binary) with
#            the repo's buf.gen.yaml, a multi-package module importing
#            google/protobuf/*.proto (option serde), protoc-gen-prost beside
#            `json_only`, and an editions module (edition 2023 and 2024 files,
#            which buf hands the plugin as they are); the protojsonx-ecosystem
#            crate compiles that output and round-trips it.
#   protoc   the plugin under protoc with parameters (tests/protoc_plugin.rs).
#   build.rs protobuf-parse and PROTOC give identical code; rerun-if-changed.
#   serde    the runtime's serde feature, serde interop and the pbjson comparison.
#   examples quickstart, editions, axum API, tonic service (in-process tests + a live smoke).
#   gateway  `protojsonx gateway` in front of a Python grpcio server, answers
#            compared with a transcript (ecosystem/gateway-python/run.sh).
#   README   the README's quick start (Cargo.toml, build.rs, .proto, main.rs)
#            extracted into a crate outside the workspace and run
#            (.ci/quickstart.sh, its own target/quickstart).
#   docs     rustdoc without warnings (public and private items), doctests.
#   publish  cargo package of the eight crates, verified together (their MSRV
#            lint is .ci/run's lint step: incompatible_msrv is in -D warnings).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."   # repo root
root=$PWD
cache=$root/.cache
start=$SECONDS
phase() { echo "--- $* (at ${SECONDS}s, $((SECONDS - start))s in)"; }

phase "tools: buf CLI (npm @bufbuild/buf), protoc-gen-prost (crates.io), the plugin"
if [ ! -x "$cache/buf/node_modules/.bin/buf" ]; then
    npm install --prefix "$cache/buf" --no-audit --no-fund --loglevel=error @bufbuild/buf@1.75.0
fi
if [ ! -x "$cache/tools/bin/protoc-gen-prost" ]; then
    # --debug: a tool run on a few small files; an optimized build takes longer.
    cargo install --locked --quiet --debug --root "$cache/tools" protoc-gen-prost@0.5.0
fi
cargo build --quiet -p protoc-gen-rust-protojsonx
# Where cargo puts binaries (CARGO_TARGET_DIR may move it from ./target).
target=$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
export PATH="$target/debug:$cache/tools/bin:$cache/buf/node_modules/.bin:$PATH"
echo "buf $(buf --version)"

phase "buf generate: buf.gen.yaml, ecosystem/buf.gen.{multi,paired,editions}.yaml"
gen=$cache/buf-gen
rm -rf "$gen"
buf generate --template buf.gen.yaml -o "$gen/repo"
mkdir -p "$gen/example"
cp "$gen/repo/gen/"*.rs "$gen/example/"
(cd ecosystem && buf generate --template buf.gen.multi.yaml -o "$gen" \
    && buf generate --template buf.gen.paired.yaml -o "$gen" \
    && buf generate --template buf.gen.editions.yaml -o "$gen")
find "$gen" -name '*.rs' | sort

phase "buf output compiles and round-trips; build.rs parity; serde; pbjson comparison"
PROTOJSONX_BUF_GEN=$gen PROTOJSONX_EXPECT_GEN=buf cargo test --quiet -p protojsonx-ecosystem

phase "protoc plugin with parameters; runtime serde feature"
cargo test --quiet -p protoc-gen-rust-protojsonx --test protoc_plugin
cargo test --quiet -p protojsonx-runtime --features serde serde::

phase "build.rs: cargo:rerun-if-changed for every input proto"
cargo build --quiet -p protojsonx-example
output=$(ls -t "$target"/debug/build/protojsonx-example-*/output | head -n 1)
grep -qx 'cargo:rerun-if-changed=proto/event/v1/event.proto' "$output"
grep -qx 'cargo:rerun-if-changed=proto' "$output"

phase "examples: quickstart, editions, axum API, tonic service"
quickstart=$(cargo run --quiet -p protojsonx-example)
grep -q '"eventType":"user.login"' <<<"$quickstart"
editions=$(cargo run --quiet -p protojsonx-editions-example)
grep -q '"edition":0,' <<<"$editions"
cargo test --quiet -p protojsonx-axum-example -p protojsonx-tonic-example
cargo build --quiet -p protojsonx-axum-example -p protojsonx-tonic-example
python3 ecosystem/smoke.py "$target/debug"

phase "gateway: protojsonx gateway in front of a Python grpcio server"
command -v curl >/dev/null || { apt-get update -qq && apt-get install -y -qq curl >/dev/null; }
cargo build --quiet -p protojsonx-cli
PROTOJSONX="$target/debug/protojsonx" ecosystem/gateway-python/run.sh

phase "README quick start: its blocks as a fresh crate outside the workspace, cargo run"
.ci/quickstart.sh
rm -rf target/quickstart   # a fresh crate each time: spare the disk

phase "docs: rustdoc -D warnings (public, then private items too), doctests"
doc_crates=(-p protojsonx-runtime -p protojsonx-descriptor -p protoc-gen-rust-protojsonx
  -p protojsonx-tonic -p protojsonx-axum -p protojsonx-dynamic -p protojsonx-transcode -p protojsonx-cli)
RUSTDOCFLAGS="-D warnings" cargo doc --quiet --no-deps --all-features "${doc_crates[@]}"
# Private items' links rot unseen otherwise; public docs linking to private
# items are caught by the pass above only.
RUSTDOCFLAGS="-D warnings" cargo doc --quiet --no-deps --all-features --document-private-items \
  "${doc_crates[@]}"
cargo test --quiet --doc --all-features -p protojsonx-runtime -p protojsonx-descriptor \
    -p protoc-gen-rust-protojsonx -p protojsonx-tonic -p protojsonx-axum -p protojsonx-dynamic \
    -p protojsonx-transcode

phase "publishable: cargo package"
# (Their lints, MSRV included, ran in .ci/run's lint step.)
# --allow-dirty: CI's clone may have build products the lead did not commit.
# The crates depend on the unpublished runtime (and the generator): packaged
# together, cargo verifies each against the others' packages, in one build.
# Cargo unpacks those packages from a temporary registry under
# $CARGO_HOME/registry/src/-<hash of its path>/ and never unpacks the same
# name and version twice: a CI machine that clones to the same path would
# verify against an earlier run's sources. Remove them first.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/protojsonx-* \
    "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/protoc-gen-rust-protojsonx-*
cargo package --quiet --allow-dirty -p protojsonx-runtime -p protojsonx-descriptor \
    -p protoc-gen-rust-protojsonx -p protojsonx-tonic -p protojsonx-axum -p protojsonx-dynamic \
    -p protojsonx-transcode -p protojsonx-cli

phase "ecosystem checks passed"
