#!/usr/bin/env python3
"""Where one benchmark case's instructions go: self instructions per
operation by function, counted by callgrind.

    benches/scripts/symbols.py PROFILE_BIN CASE [RUNS] [--top N]

PROFILE_BIN is the `profile` binary built with line tables, so that inlined
code is charged to the function it was inlined into:

    CARGO_PROFILE_RELEASE_DEBUG=line-tables-only \\
        cargo build --release -p protojsonx-benches --bin profile --target-dir target/prof

CASE is a case name as `profile` takes it (`small/marshal/default/prost`).
The case runs RUNS times (default 2000) and 0 times under callgrind; the
difference over RUNS is the cost of one operation, the shared setup taken
out. Counts are by machine-code symbol of the binary (`nm`), so a function
is one row whatever was inlined into it; code outside the binary (libc's
malloc, free, memcpy) is shown under callgrind's own function names.
Small cases need many runs: the setup's count varies between processes
(hash seeds) by up to tens of thousands of instructions, which leaves Small
at 20,000 runs within about 5 instructions per operation. --inline counts one
function alone, which the setup never runs: exact, the way to compare two
builds of a generated `read_json`.

With --inline NAME, the first symbol whose name contains NAME is broken
down instead: its instructions by the frame they were inlined from
(`addr2line -i`), the outermost DEPTH levels under the symbol itself
(--depth, default 1), so that a generated `read_json` shows what each
runtime call inlined into it costs.
"""

import argparse
import bisect
import collections
import subprocess
import tempfile


def callgrind(binary, case, runs, out):
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--dump-instr=yes",
         f"--callgrind-out-file={out}", binary, case, str(runs)],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def self_costs(path):
    """Self instructions by (object, function name, address)."""
    costs = collections.Counter()
    names = {"ob": {}, "fn": {}}
    current = {"ob": "", "fn": ""}
    npos = 1
    last = []
    skip_call_cost = False
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("positions:"):
            npos = len(line.split()[1:])
            last = [0] * npos
            continue
        key, _, rest = line.partition("=")
        if key in ("ob", "fn"):
            # Name compression: "(id) name" defines, "(id)" refers.
            ident, _, name = rest.partition(" ")
            if name:
                names[key][ident] = name
            current[key] = names[key].get(ident, rest)
            continue
        if key in ("cob", "cfn"):
            ident, _, name = rest.partition(" ")
            if name:
                names[key[1:]][ident] = name
            continue
        if key == "calls":
            skip_call_cost = True   # the next cost line is the call's inclusive cost
            continue
        if not line or not (line[0].isdigit() or line[0] in "+-*"):
            continue
        fields = line.split()
        for i, field in enumerate(fields[:npos]):
            if field == "*":
                continue
            if field[0] in "+-":
                last[i] += int(field, 0)
            else:
                last[i] = int(field, 0)
        if skip_call_cost:
            skip_call_cost = False
            continue
        cost = int(fields[npos]) if len(fields) > npos else 0
        costs[(current["ob"], current["fn"], last[0])] += cost
    return costs


def symbol_table(binary):
    table = []
    nm = subprocess.run(["nm", "-C", "-S", "--defined-only", binary],
                        capture_output=True, text=True, check=True).stdout
    for line in nm.splitlines():
        fields = line.split(None, 3)
        if len(fields) == 4:
            table.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
    table.sort()
    return table


def by_symbol(costs, binary, table):
    starts = [start for start, _, _ in table]
    totals = collections.Counter()
    for (obj, fn, addr), cost in costs.items():
        name = fn
        if obj.endswith(binary.split("/")[-1]):
            i = bisect.bisect_right(starts, addr) - 1
            if i >= 0 and addr < table[i][0] + table[i][1]:
                name = table[i][2]
        else:
            name = f"{fn}  [{obj.split('/')[-1]}]"
        totals[name] += cost
    return totals


def inline_chains(binary, addresses):
    """Each address's chain of inlined frames, outermost first, without the
    symbol that holds them all (`addr2line -f -i`)."""
    out = subprocess.run(["addr2line", "-f", "-i", "-C", "-a", "-e", binary]
                         + [hex(a) for a in addresses],
                         capture_output=True, text=True, check=True).stdout
    chains, frames = {}, None
    for line in out.splitlines():
        if line.startswith("0x"):
            frames, is_name = chains.setdefault(int(line, 16), []), True
        else:
            if is_name:   # a frame's name, then its file and line
                frames.append(line)
            is_name = not is_name
    return {a: list(reversed(f))[1:] for a, f in chains.items()}


def short(frame):
    """A frame's name with long generic arguments left out
    (`read_field<f64>` stays, `plain_float<f64, fn(..) -> ..>` becomes
    `plain_float<..>`), the generated code's `<Message as ProtoJson>::read_json`
    kept whole."""
    if frame.startswith("<"):
        return frame
    out, depth, group, previous = [], 0, [], ""
    for c in frame:
        if c == "<":
            depth += 1
        if depth == 0:
            out.append(c)
        else:
            group.append(c)
        if c == ">" and previous != "-":   # not the arrow of `fn() -> T`
            depth -= 1
            if depth == 0:
                text = "".join(group)
                out.append(text if len(text) <= 24 else "<..>")
                group = []
        previous = c
    return "".join(out)


def by_inlined_frame(costs, binary, table, name, depth):
    """The instructions of the symbol named `name` (else the first whose
    name contains it), by the outermost `depth` frames they were inlined
    from."""
    exact = (entry for entry in table if entry[2] == name)
    symbol = next(exact, None) or next((entry for entry in table if name in entry[2]), None)
    if symbol is None:
        raise SystemExit(f"no symbol contains {name!r}")
    start, size, full = symbol
    own = collections.Counter()
    for (obj, _, addr), cost in costs.items():
        if obj.endswith(binary.split("/")[-1]) and start <= addr < start + size:
            own[addr] += cost
    chains = inline_chains(binary, sorted(own))
    totals = collections.Counter()
    for addr, cost in own.items():
        frames = chains.get(addr) or ["(the symbol's own code)"]
        totals[" > ".join(short(f) for f in frames[:depth])] += cost
    return full, totals


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("case")
    parser.add_argument("runs", type=int, nargs="?", default=2000)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--inline", metavar="NAME")
    parser.add_argument("--depth", type=int, default=1)
    args = parser.parse_args()
    table = symbol_table(args.binary)
    with tempfile.TemporaryDirectory() as tmp:
        callgrind(args.binary, args.case, args.runs, f"{tmp}/n")
        callgrind(args.binary, args.case, 0, f"{tmp}/0")
        if args.inline:
            full, loaded = by_inlined_frame(self_costs(f"{tmp}/n"), args.binary, table,
                                            args.inline, args.depth)
            _, setup = by_inlined_frame(self_costs(f"{tmp}/0"), args.binary, table,
                                        args.inline, args.depth)
        else:
            full = None
            loaded = by_symbol(self_costs(f"{tmp}/n"), args.binary, table)
            setup = by_symbol(self_costs(f"{tmp}/0"), args.binary, table)
    rows = sorted(((loaded[k] - setup[k]) / args.runs, k) for k in set(loaded) | set(setup))
    rows.reverse()
    what = f"{args.case}, in {full[:100]}" if full else args.case
    print(f"{what}: {sum(r for r, _ in rows):,.1f} instructions per operation")
    for per_op, name in rows[: args.top]:
        if abs(per_op) >= 0.5:
            print(f"{per_op:12,.1f}  {name[:140]}")


if __name__ == "__main__":
    main()
