"""Live smoke test of the example servers: starts each binary on a free
loopback port, sends real HTTP requests, checks the ProtoJSON answers, and
stops the server it started. Usage: smoke.py TARGET_DIR (e.g. target/debug)."""

import json
import subprocess
import sys
import urllib.error
import urllib.request


def start(binary):
    """Starts `binary` on 127.0.0.1:0 and returns (process, base URL)."""
    proc = subprocess.Popen([binary, "127.0.0.1:0"], stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()  # "... http://127.0.0.1:PORT"
    return proc, "http://" + line.strip().split("http://")[1]


def call(url, body=None):
    """Sends a request (POST with a JSON body, else GET); returns (status, JSON)."""
    data = None if body is None else body.encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as err:
        return err.code, json.load(err)


def check(actual, expected):
    if actual != expected:
        sys.exit(f"smoke test failed: got {actual!r}, expected {expected!r}")


def axum_api(base):
    status, event = call(base + "/events", '{"eventType":"login","timestamp":5}')
    check((status, event), (201, {"id": "evt_1", "timestamp": "5", "eventType": "login"}))
    status, err = call(base + "/events", '{"eventType":"login","actor":{"verified":1}}')
    check((status, err["field"]), (400, "actor.verified"))


def tonic_service(base):
    status, item = call(base + "/v1/items/sku-1")
    check((status, item["stock"]), (200, "42"))
    check(call(base + "/v1/items/nope")[0], 404)


def main():
    target = sys.argv[1]
    for binary, test in [
        ("protojsonx-axum-example", axum_api),
        ("protojsonx-tonic-example", tonic_service),
    ]:
        proc, base = start(f"{target}/{binary}")
        try:
            test(base)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
        print(f"{binary}: ok ({base})")


main()
