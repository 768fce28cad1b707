#!/usr/bin/env bash
# The README's quick start, built and run as a user outside this repository
# would: its fenced blocks marked `title=Cargo.toml`, `title=build.rs`,
# `title=proto/...` and `title=src/main.rs` are written into a fresh crate in
# a temporary directory (outside the workspace), the protojsonx dependencies'
# `git = "..."` form rewritten to `path = "<this repo>/<crate>"`, and the crate
# is run with `cargo run`. Fails if a block is missing or the program fails.
#
#   .ci/quickstart.sh        (target directory: target/quickstart)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."   # repo root
root=$PWD
crate=$(mktemp -d "${TMPDIR:-/tmp}/protojsonx-quickstart.XXXXXX")
trap 'rm -rf "$crate"' EXIT

# Every block whose info string has `title=PATH`, written to $crate/PATH.
python3 - "$root/README.md" "$crate" <<'EOF'
import os, re, sys

readme, crate = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
blocks = re.findall(r"^```[A-Za-z0-9_+-]*[ \t]+title=(\S+)[^\n]*\n(.*?)^```[ \t]*$", text, re.M | re.S)
written = {}
for path, body in blocks:
    if path in written:
        sys.exit(f"README.md: two blocks titled {path}")
    if path.startswith("/") or ".." in path.split("/"):
        sys.exit(f"README.md: block title {path} is not a path inside the crate")
    written[path] = body
    os.makedirs(os.path.dirname(os.path.join(crate, path)) or crate, exist_ok=True)
    with open(os.path.join(crate, path), "w", encoding="utf-8") as f:
        f.write(body)
required = ["Cargo.toml", "build.rs", "src/main.rs"]
missing = [p for p in required if p not in written]
if not any(p.startswith("proto/") and p.endswith(".proto") for p in written):
    missing.append("proto/**/*.proto")
if missing:
    sys.exit("README.md: quick-start block(s) missing: " + ", ".join(missing))
print("quickstart: extracted " + ", ".join(sorted(written)))
EOF

# The git dependencies of this repository's crates become path dependencies on
# this checkout (other keys, such as features, are kept).
python3 - "$crate/Cargo.toml" "$root" <<'EOF'
import re, sys

manifest, root = sys.argv[1], sys.argv[2]
text = open(manifest, encoding="utf-8").read()
pattern = re.compile(
    r'^((protojsonx-[a-z-]+|protoc-gen-rust-protojsonx)\s*=\s*\{[^}\n]*?)'
    r'git\s*=\s*"https://github\.com/protojsonx/protojsonx-rs(?:\.git)?"', re.M)
text, count = pattern.subn(lambda m: f'{m.group(1)}path = "{root}/{m.group(2)}"', text)
if count == 0:
    sys.exit("README.md's Cargo.toml: no protojsonx git dependency to rewrite")
if re.search(r'(?m)^(protojsonx-[a-z-]+|protoc-gen-rust-protojsonx)\s*=\s*"', text):
    sys.exit("README.md's Cargo.toml: a protojsonx dependency by version (the crates are not on crates.io)")
with open(manifest, "w", encoding="utf-8") as f:
    f.write(text)
print(f"quickstart: {count} dependencies now point at {root}")
EOF
# Standalone, even if the temporary directory is below a workspace.
grep -q '^\[workspace\]' "$crate/Cargo.toml" || printf '\n[workspace]\n' >>"$crate/Cargo.toml"
# The repository's lock file pins the same versions the workspace builds with.
cp "$root/Cargo.lock" "$crate/Cargo.lock"

echo "--- $crate/Cargo.toml"
cat "$crate/Cargo.toml"
export CARGO_TARGET_DIR=$root/target/quickstart
(cd "$crate" && cargo run --quiet)
echo "quickstart: README quick start built and ran"
