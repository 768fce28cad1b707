#!/usr/bin/env bash
# Installs the real-world protos of the check into .cache/realworld/protos/:
#
#   googleapis/      npm `google-proto-files` (googleapis, grafeas and a current
#                    google/protobuf/*.proto), installed with `npm install --prefix`
#   opentelemetry/   the OTLP protos (opentelemetry-proto 1.6.0) shipped inside the
#                    crates.io crate `opentelemetry-proto` 0.30.0, fetched with
#                    `cargo fetch` and unpacked from cargo's registry cache
#
# Why the crate: PyPI's `opentelemetry-proto` (wheel and sdist) ships only the
# generated *_pb2.py modules, no .proto file, and the npm packages of
# OpenTelemetry JS stopped shipping them after @opentelemetry/otlp-grpc-exporter-base
# 0.34 (protos of 2022). The Rust crate packs the opentelemetry-proto git
# submodule up to 0.30.0 (0.31.0 no longer does).
#
# Idempotent: each tree is skipped when present at the pinned version.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."   # repo root

GOOGLE_PROTO_FILES_VERSION=6.0.1
OTEL_CRATE_VERSION=0.30.0
CACHE=.cache/realworld
PROTOS="$CACHE/protos"
mkdir -p "$PROTOS"

# googleapis --------------------------------------------------------------
stamp="$PROTOS/googleapis/.version"
if [[ "$(cat "$stamp" 2>/dev/null)" != "google-proto-files@$GOOGLE_PROTO_FILES_VERSION" ]]; then
  echo "fetch.sh: npm install google-proto-files@$GOOGLE_PROTO_FILES_VERSION"
  rm -rf "$CACHE/npm" "$PROTOS/googleapis"
  npm install --silent --prefix "$CACHE/npm" --no-save --no-package-lock --ignore-scripts \
    "google-proto-files@$GOOGLE_PROTO_FILES_VERSION"
  mkdir -p "$PROTOS/googleapis"
  cp -r "$CACHE/npm/node_modules/google-proto-files/google" \
        "$CACHE/npm/node_modules/google-proto-files/grafeas" "$PROTOS/googleapis/"
  echo "google-proto-files@$GOOGLE_PROTO_FILES_VERSION" > "$stamp"
fi

# OpenTelemetry -----------------------------------------------------------
stamp="$PROTOS/opentelemetry/.version"
if [[ "$(cat "$stamp" 2>/dev/null)" != "opentelemetry-proto@$OTEL_CRATE_VERSION" ]]; then
  echo "fetch.sh: cargo fetch opentelemetry-proto@$OTEL_CRATE_VERSION"
  rm -rf "$CACHE/otel-fetch" "$PROTOS/opentelemetry"
  mkdir -p "$CACHE/otel-fetch"
  cat > "$CACHE/otel-fetch/Cargo.toml" <<EOF
# Written by realworld/fetch.sh: only there to make cargo download the crate.
[package]
name = "otel-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[lib]
path = "lib.rs"

[dependencies]
opentelemetry-proto = { version = "=$OTEL_CRATE_VERSION", default-features = false }

[workspace]
EOF
  touch "$CACHE/otel-fetch/lib.rs"
  cargo fetch --quiet --manifest-path "$CACHE/otel-fetch/Cargo.toml"
  crate=$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"opentelemetry-proto-$OTEL_CRATE_VERSION.crate" | head -n 1)
  tar -xzf "$crate" -C "$CACHE/otel-fetch"
  mkdir -p "$PROTOS/opentelemetry"
  cp -r "$CACHE/otel-fetch/opentelemetry-proto-$OTEL_CRATE_VERSION/src/proto/opentelemetry-proto/opentelemetry" \
        "$PROTOS/opentelemetry/"
  echo "opentelemetry-proto@$OTEL_CRATE_VERSION" > "$stamp"
fi

echo "fetch.sh: $(find "$PROTOS/googleapis" -name '*.proto' | wc -l) googleapis files," \
  "$(find "$PROTOS/opentelemetry" -name '*.proto' | wc -l) OpenTelemetry files in $PROTOS"
