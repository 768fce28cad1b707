#!/usr/bin/env bash
# `protojsonx gateway` in front of a gRPC server that is not Rust: a Python
# grpcio server (server.py) of protojsonx-transcode/e2e/proto/shop/v1/shop.proto.
# Python's grpc_tools.protoc writes the stubs and the descriptor set the
# gateway is given (--include_imports); curl sends HTTP/JSON requests (path
# variables, query parameters of several types, a body, server streaming
# as NDJSON, a JSON array and SSE, errors with and without details) and
# the transcript of the answers is compared with expected.txt.
#
# Usage: ecosystem/gateway-python/run.sh
#   PROTOJSONX=path   the protojsonx binary (default: cargo build -p protojsonx-cli)
#   BLESS=1           write expected.txt from this run's answers instead of comparing
# Needs python3 (with venv) and curl. The venv is .cache/gateway-python/venv.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=$root/.cache/gateway-python
pins=(grpcio==1.85.1 grpcio-tools==1.85.1 grpcio-status==1.85.1 protobuf==7.36.2)
# How long the servers may take to start, and each request to be answered.
start_timeout=60
request_timeout=10

say() { echo "gateway-python: $*"; }
fail() { say "FAILED: $*" >&2; exit 1; }

command -v curl >/dev/null || fail "curl is not installed"

# The Python environment, remade when its pins change.
venv=$cache/venv
if [ "$(cat "$venv/pins" 2>/dev/null)" != "${pins[*]}" ]; then
    say "making the venv: ${pins[*]}"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "${pins[@]}"
    echo "${pins[*]}" >"$venv/pins"
fi
python=$venv/bin/python

# The stubs and the descriptor set, from the transcoder's test proto.
gen=$cache/gen
rm -rf "$gen"
mkdir -p "$gen"
well_known=$("$python" -c 'import grpc_tools, os; print(os.path.join(os.path.dirname(grpc_tools.__file__), "_proto"))')
"$python" -m grpc_tools.protoc \
    -I "$root/protojsonx-transcode/e2e/proto" -I "$root/protojsonx-transcode/proto" -I "$well_known" \
    --python_out="$gen" --grpc_python_out="$gen" \
    --include_imports --descriptor_set_out="$gen/shop.binpb" \
    shop/v1/shop.proto

# The gateway's binary.
if [ -z "${PROTOJSONX:-}" ]; then
    (cd "$root" && cargo build --quiet -p protojsonx-cli)
    target=$(cd "$root" && cargo metadata --format-version 1 --no-deps |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
    PROTOJSONX=$target/debug/protojsonx
fi
[ -x "$PROTOJSONX" ] || fail "no protojsonx binary at $PROTOJSONX"

# Both servers run in the background, stopped however this script ends.
logs=$cache/logs
rm -rf "$logs"
mkdir -p "$logs"
pids=()
stop_all() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
}
trap stop_all EXIT

# Waits for the line `listening on ...` in log $1 of process $2 and prints
# the address after `listening on ` (up to a comma).
wait_for() {
    local log=$1 pid=$2 waited=0
    until grep -q 'listening on ' "$log" 2>/dev/null; do
        if ! kill -0 "$pid" 2>/dev/null; then
            cat "$log" "$log.err" >&2 2>/dev/null || true
            fail "$(basename "$log" .log) exited before listening"
        fi
        if [ $waited -ge $((start_timeout * 10)) ]; then
            cat "$log" "$log.err" >&2 2>/dev/null || true
            fail "$(basename "$log" .log) did not listen within ${start_timeout}s"
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    sed -n 's/.*listening on \(http:\/\/\)\{0,1\}\([^,]*\).*/\2/p' "$log" | head -n 1
}

"$python" "$here/server.py" "$gen" >"$logs/python.log" 2>"$logs/python.log.err" &
pids+=($!)
upstream=$(wait_for "$logs/python.log" "${pids[-1]}")
say "python grpcio server on $upstream"

"$PROTOJSONX" gateway --descriptor-set "$gen/shop.binpb" --upstream "http://$upstream" \
    --listen 127.0.0.1:0 --forward-header x-trace \
    >"$logs/gateway.log" 2>"$logs/gateway.log.err" &
pids+=($!)
gateway=$(wait_for "$logs/gateway.log" "${pids[-1]}")
say "$(head -n 1 "$logs/gateway.log")"

# One exchange: `> METHOD PATH`, the request's headers and body, then
# `< STATUS CONTENT-TYPE`, the answer's grpc-metadata-* headers and its lines.
exchange() {
    local method=$1 path=$2 body=${3:-}
    shift 3 || shift $#
    echo "> $method $path"
    local header
    for header in "$@"; do echo "> $header"; done
    [ -z "$body" ] || echo "> $body"
    local args=(-sS --max-time "$request_timeout" -X "$method" -o "$logs/body" -D "$logs/headers"
        -w '%{http_code} %{content_type}')
    for header in "$@"; do args+=(-H "$header"); done
    [ -z "$body" ] || args+=(-H 'content-type: application/json' --data-binary "$body")
    local head
    head=$(curl "${args[@]}" "http://$gateway$path") || fail "curl $method $path"
    echo "< $head"
    tr -d '\r' <"$logs/headers" | grep -i '^grpc-metadata-' | sed 's/^/< /' || true
    sed 's/^/< /' "$logs/body"
    [ -z "$(tail -c 1 "$logs/body")" ] || echo
    echo
}

transcript() {
    exchange GET /v1/shelves/1/items/2
    exchange GET '/v1/items/a/b%2Fc/%E2%9C%93'
    exchange GET /v1/shelves/1/items/missing
    exchange GET '/v1/shelves/1/items?pageSize=10&tags=a&tags=b+c&kind=GAME&since=2024-01-02T03:04:05Z&max_age=1.5s&readMask=title,stock&minPrice=2.5&inStock=true&token=_-8&afterId=18446744073709551615&ratio=NaN&deep=false&filter.text=x&filter.and.text=y&kinds=1&kinds=BOOK'
    exchange GET '/v1/shelves/1/items?pageSize=1' '' 'x-trace: forwarded by --forward-header'
    exchange GET '/v1/shelves/1/items?pageSize=1' '' 'grpc-metadata-x-trace: forwarded without its prefix'
    exchange GET '/v1/shelves/1/items?page_size=abc'
    exchange GET '/v1/shelves/1/items?pagesize=1'
    exchange POST '/v1/shelves/7/items?requestId=r1' \
        '{"title":"T","stock":"5","tags":["x"],"kind":"GAME","added":"2024-05-01T12:00:00Z"}'
    exchange POST /v1/shelves/7/items '{"title":'
    exchange GET /v1/shelves/7/items/9:name
    exchange COUNT /v1/shelves/7/items/9
    exchange DELETE /v1/shelves/7/items/9
    exchange GET '/v1/shelves/3/items:watch?count=3'
    exchange GET '/v1/shelves/3/items:watch?count=2' '' 'accept: application/json'
    exchange GET '/v1/shelves/3/items:watch?count=2&failCode=10' '' 'accept: text/event-stream'
    exchange GET '/v1/shelves/3/items:watch?count=1&failCode=8'
    exchange GET '/v1/shelves/3/items:watch?count=-1'
    exchange POST /v1/fail '{"code":9,"message":"no stock"}'
    exchange GET /v2/nothing
}

actual=$cache/actual.txt
transcript >"$actual"
say "$(grep -c '^> [A-Z]* /' "$actual") requests answered"

if [ -n "${BLESS:-}" ]; then
    cp "$actual" "$here/expected.txt"
    say "blessed: wrote expected.txt"
elif diff -u "$here/expected.txt" "$actual"; then
    say "the answers match expected.txt"
else
    fail "the answers differ from expected.txt (above; BLESS=1 $0 accepts them)"
fi
