#!/usr/bin/env python3
"""Writes benches/results/results.md and chart.svg from one benchmark run.

Inputs: criterion's estimates (target/criterion/**/round-N/{benchmark,estimates}.json,
the median of each benchmark in each round of the run, or **/new/ if there
are no rounds), the allocation counts printed by the `allocs` binary, and the
release binaries `size-*` for the code-size section.

A run is several rounds through the whole suite, because on a shared machine
a benchmark can run tens of percent slow for seconds at a time, whenever
other tenants take the host (the slowdown only ever adds time, and it often
hits one side of a ratio and not the other, seconds later). Each time shown
is the best round's: the lowest over the rounds of criterion's median, the
"best of N" convention of timeit. Ratios are ratios of those times; the
slowest-round column shows how far the rounds disagreed. The variant targets
are the exception: protojsonx in a variant and on the defaults are timed in
the same alternating turns (the suite writes both sums to a file), and the
ratio is the median round's. Python standard library only; the SVG is written by hand.
"""

import argparse
import glob
import json
import os
import platform
import subprocess
import tempfile
from collections import Counter, OrderedDict

# Implementation order and colours, for the tables and the chart.
IMPLS = OrderedDict([
    ("protojsonx", "#d62728"),
    ("protojsonx-reused-buf", "#ff9896"),
    ("protojsonx-decode-into", "#e377c2"),
    ("protojsonx-default-paired", "#f7b6d2"),
    ("prost", "#7f7f7f"),
    ("prost-reused-buf", "#c7c7c7"),
    ("prost-clear-merge", "#bcbd22"),
    ("protojsonx-dynamic", "#17becf"),
    ("protojsonx-dynamic-reused-buf", "#9edae5"),
    ("generated", "#dbdb8d"),
    ("pbjson", "#1f77b4"),
    ("prost-reflect", "#9467bd"),
    ("serde_json", "#2ca02c"),
    ("sonic-rs", "#ff7f0e"),
    ("simd-json", "#8c564b"),
])
BINARY = {"prost", "prost-reused-buf", "prost-clear-merge"}


def load_criterion(root):
    """{(group, implementation): {round: median ns}} from criterion's output."""
    rounds = {}
    for estimates in glob.glob(os.path.join(root, "**", "estimates.json"), recursive=True):
        folder = os.path.dirname(estimates)
        name = os.path.basename(folder)
        if not (name.startswith("round-") or name == "new"):
            continue
        with open(os.path.join(folder, "benchmark.json")) as f:
            meta = json.load(f)
        with open(estimates) as f:
            est = json.load(f)
        rounds.setdefault((meta["group_id"], meta["function_id"]), {})[name] = est["median"]["point_estimate"]
    # With rounds, criterion's `new` is only a copy of the last one.
    for per_round in rounds.values():
        if len(per_round) > 1:
            per_round.pop("new", None)
    return rounds


def load_allocs(path):
    """The allocs binary's rows, in case order, as dicts."""
    with open(path) as f:
        header, *lines = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    rows = [dict(zip(header, line)) for line in lines]
    for row in rows:
        row["json_bytes"] = int(row["json_bytes"])
        row["allocs"] = float(row.pop("allocs_per_op"))
        row["bytes"] = float(row.pop("bytes_per_op"))
        row["payload"], row["direction"], row["variant"] = row["group"].split("/")
    return rows


def load_instructions(path):
    """{(group, implementation): instructions per op} from instructions.sh, if run."""
    if not path or not os.path.exists(path):
        return {}
    with open(path) as f:
        header, *lines = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    return {(group, impl): int(n) for group, impl, n in lines}


def machine(load_file):
    """Lines describing the machine and toolchain."""
    cpu = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    lines = [
        f"- CPU: {cpu}, {os.cpu_count()} logical cores",
        f"- OS: {platform.system()} {platform.release()}",
        f"- {rustc}, `cargo bench` (release profile)",
    ]
    if load_file and os.path.exists(load_file):
        with open(load_file) as f:
            lines += [f"- {line.strip()}" for line in f if line.strip()]
    return lines


def fmt_ns(ns):
    if ns is None:
        return "n/a"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} µs"
    return f"{ns:.0f} ns"


def fmt_num(x, digits=2):
    """x with at most `digits` decimals, trailing zeros of the decimals dropped."""
    if x is None:
        return ""
    if digits == 0 or x == int(x):
        return f"{x:.0f}"
    return f"{x:.{digits}f}".rstrip("0").rstrip(".")


PAIRED_DEFAULT = "protojsonx-default-paired"


def load_turns(path):
    """{group: {round: (variant ns, default ns, operations)}} from the file the
    suite appends to for each variant benchmark timed in turns (the last line
    of a group and round wins: a filtered run replaces older lines)."""
    turns = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                rnd, group, variant_ns, default_ns, ops = line.split("\t")
                turns.setdefault(group, {})[f"round-{rnd}"] = (int(variant_ns), int(default_ns), int(ops))
    return turns


def turn_ratios(per_round):
    """Per round, the variant's time over the default's in the same turns."""
    return sorted(v / d for v, d, _ in per_round.values())


def median(sorted_values):
    """The middle value (the upper one of an even count); None if there are none."""
    return sorted_values[len(sorted_values) // 2] if sorted_values else None


def with_paired_defaults(rows, turns):
    """rows plus, after each variant group's protojsonx row, the row of the
    default protojsonx timed in turns with it (its allocations are the
    default's; its time per round is the mean over its turns)."""
    out = []
    by_key = {(r["group"], r["implementation"]): r for r in rows}
    for row in rows:
        out.append(row)
        if row["implementation"] == "protojsonx" and row["group"] in turns:
            default = by_key.get((f'{row["payload"]}/{row["direction"]}/default', "protojsonx"), row)
            out.append(dict(row, implementation=PAIRED_DEFAULT, allocs=default["allocs"], bytes=default["bytes"]))
    return out


class Results:
    """Timings joined with allocation counts, with lookups for ratios."""

    def __init__(self, rows, rounds, instructions, turns):
        rows = with_paired_defaults(rows, turns)
        self.rows = rows
        self.turns = turns
        for row in rows:
            row["instructions"] = instructions.get((row["group"], row["implementation"]))
            if row["implementation"] == PAIRED_DEFAULT:
                per_round = {r: d / ops for r, (_, d, ops) in turns[row["group"]].items()}
            else:
                per_round = rounds.get((row["group"], row["implementation"]), {})
            row["rounds"] = per_round
            row["ns"] = min(per_round.values()) if per_round else None
            row["slowest"] = (max(per_round.values()) - row["ns"]) / row["ns"] if len(per_round) > 1 else None
        self.index = {(r["group"], r["implementation"]): r for r in rows}
        self.round_count = max((len(r["rounds"]) for r in rows), default=0)

    def ns(self, payload, direction, variant, impl):
        row = self.index.get((f"{payload}/{direction}/{variant}", impl))
        return row and row["ns"]

    def row(self, payload, direction, variant, impl):
        return self.index.get((f"{payload}/{direction}/{variant}", impl))

    def ratio(self, a, b):
        """time(a) / time(b), each its best round; a and b are
        (payload, direction, variant, implementation)."""
        ra, rb = self.row(*a), self.row(*b)
        if not ra or not rb or not ra["ns"] or not rb["ns"]:
            return None
        return ra["ns"] / rb["ns"]

    def instruction_ratio(self, a, b):
        """instructions(a) / instructions(b), where both were counted."""
        ra, rb = self.row(*a), self.row(*b)
        if ra and rb and ra["instructions"] and rb["instructions"]:
            return ra["instructions"] / rb["instructions"]
        return None

    def variant_ratio(self, payload, direction, variant):
        """protojsonx in a variant over protojsonx on the defaults: the median
        round's ratio of the turns they were timed in (their best rounds'
        ratio if there are no turns), and the (variant, default) rows."""
        pair = ((payload, direction, variant, "protojsonx"), (payload, direction, "default", "protojsonx"))
        turns = self.turns.get(f"{payload}/{direction}/{variant}", {})
        return median(turn_ratios(turns)) or self.ratio(*pair), pair

    def groups(self):
        return list(OrderedDict.fromkeys(r["group"] for r in self.rows))


def table(results):
    """One markdown table per payload and direction, every variant in it."""
    out = []
    by_pd = OrderedDict()
    for group in results.groups():
        payload, direction, _ = group.split("/")
        by_pd.setdefault((payload, direction), []).append(group)
    for (payload, direction), groups in by_pd.items():
        json_bytes = results.index[(groups[0], next(r["implementation"] for r in results.rows if r["group"] == groups[0]))]["json_bytes"]
        out += [f"### {payload} ({json_bytes:,} B of ProtoJSON), {direction}", ""]
        out += ["| variant | implementation | time/op | slowest round | MB/s | allocs/op | bytes/op | instr/op | speedup vs pbjson | × prost time |",
                "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for group in groups:
            variant = group.split("/")[2]
            rows = [r for r in results.rows if r["group"] == group]
            rows.sort(key=lambda r: list(IMPLS).index(r["implementation"]))
            for r in rows:
                ns = r["ns"]
                mbs = "" if r["implementation"] in BINARY or not ns else f"{r['json_bytes'] / ns * 1e3:.0f}"
                impl = r["implementation"]
                speed = results.ratio((payload, direction, variant, "pbjson"), (payload, direction, variant, impl))
                vs_prost = results.ratio((payload, direction, variant, impl), (payload, direction, "default", "prost"))
                slowest = "" if r["slowest"] is None else f"+{r['slowest'] * 100:.0f}%"
                instr = "" if r["instructions"] is None else f"{r['instructions']:,}"
                name = f"**{r['implementation']}**" if r["implementation"].startswith("protojsonx") else r["implementation"]
                out.append(f"| {variant} | {name} | {fmt_ns(ns)} | {slowest} | {mbs} | {fmt_num(r['allocs'], 1)} | {fmt_num(r['bytes'], 0)} | "
                           f"{instr} | "
                           f"{'' if speed is None else f'{speed:.2f}x'} | {'' if vs_prost is None else f'{vs_prost:.2f}'} |")
        out.append("")
    return out


class Checks:
    """Targets with their values in this run, for one table."""

    def __init__(self, results):
        self.results = results
        self.rows = []

    def __call__(self, text, value, ok, pair=None):
        """Adds a target if its value was measured. ok: whether a value meets
        it (None: only reported); pair: the (numerator, denominator) rows, for
        the instruction ratio."""
        if value is not None:
            instr = pair and self.results.instruction_ratio(*pair)
            self.rows.append((text, value, ok and ok(value), instr))

    def table(self):
        out = ["| target | this run | met | instructions ratio |", "|---|---:|:---:|---:|"]
        for text, value, ok, instr in self.rows:
            met = "–" if ok is None else "yes" if ok else "**no**"
            out.append(f"| {text} | {value:.2f} | {met} | {'' if instr is None else f'{instr:.3f}'} |")
        return out


def targets(results):
    """The targets against pbjson, sonic-rs and prost and of the option variants, each computed from this run."""
    check = Checks(results)

    for payload in ("medium", "large"):
        def r(a, b, d="marshal"):
            """time(a) / time(b), default variant, direction d."""
            return results.ratio((payload, d, "default", a), (payload, d, "default", b))
        check(f"{payload} marshal: ≥2.5x faster than pbjson", r("pbjson", "protojsonx"), lambda x: x >= 2.5)
        check(f"{payload} marshal: ≥1.5x faster than sonic-rs", r("sonic-rs", "protojsonx"), lambda x: x >= 1.5)
        check(f"{payload} marshal: ≤1.2x prost encode time", r("protojsonx", "prost"), lambda x: x <= 1.2,
              ((payload, "marshal", "default", "protojsonx"), (payload, "marshal", "default", "prost")))
        row = results.row(payload, "marshal", "default", "protojsonx")
        check(f"{payload} marshal: 1 allocation (to_vec)", row and row["allocs"], lambda x: x <= 1)
        row = results.row(payload, "marshal", "default", "protojsonx-reused-buf")
        check(f"{payload} marshal: 0 allocations (reused buffer)", row and row["allocs"], lambda x: x == 0)
        u = "unmarshal"
        check(f"{payload} unmarshal: ≥1.5x faster than pbjson", r("pbjson", "protojsonx", u), lambda x: x >= 1.5)
        check(f"{payload} unmarshal: ≥1.3x faster than sonic-rs", r("sonic-rs", "protojsonx", u), lambda x: x >= 1.3)
        check(f"{payload} unmarshal: ≤1.25x prost decode time", r("protojsonx", "prost", u), lambda x: x <= 1.25,
              ((payload, u, "default", "protojsonx"), (payload, u, "default", "prost")))
        ours, prost = results.row(payload, u, "default", "protojsonx"), results.row(payload, u, "default", "prost")
        if ours and prost:
            check(f"{payload} unmarshal: allocs ≤ prost's ({fmt_num(prost['allocs'], 1)})", ours["allocs"], lambda x: x <= prost["allocs"])
    small = lambda d, impl: ("small", d, "default", impl)
    check("small marshal: ≤1.5x prost encode time",
          results.ratio(small("marshal", "protojsonx"), small("marshal", "prost")), lambda x: x <= 1.5,
          (small("marshal", "protojsonx"), small("marshal", "prost")))
    check("small unmarshal: ≥1.5x faster than serde_json (plain structs)",
          results.ratio(small("unmarshal", "serde_json"), small("unmarshal", "protojsonx")), lambda x: x >= 1.5)
    for group in results.groups():
        payload, direction, variant = group.split("/")
        if variant == "default":
            continue
        # Timed in turns with the default: the median round's ratio.
        ratio, pair = results.variant_ratio(payload, direction, variant)
        limit = 1.3 if variant == "shuffled" else 1.1
        if variant.startswith("indent"):
            # Pretty output is longer: its cost is judged per byte written or read.
            grow = results.row(*pair[0])["json_bytes"] / results.row(*pair[1])["json_bytes"]
            check(f"{payload} {direction} {variant}: ≤{limit}x default-options time per byte "
                  f"({grow:.2f}x the bytes; {ratio:.2f}x the time)", ratio and ratio / grow,
                  lambda x, limit=limit: x <= limit, pair)
            continue
        check(f"{payload} {direction} {variant}: ≤{limit}x default-options time", ratio,
              lambda x, limit=limit: x <= limit, pair)
    return check.table()


PAYLOADS = ("small", "medium", "large", "order", "order-batch", "otlp")
DECODE_INTO = "protojsonx-decode-into"
CLEAR_MERGE = "prost-clear-merge"


def targets_faster_than_binary(results):
    """The decode_into, pretty-input and shuffled-key targets ("faster than binary"), each computed from this run."""
    check = Checks(results)

    def default(payload, impl, direction="unmarshal"):
        return (payload, direction, "default", impl)

    def compare(text, a, b, ok):
        """A target on time(a) / time(b), with their instruction ratio."""
        check(text, results.ratio(a, b), ok, (a, b))

    for payload in PAYLOADS:
        into, fresh = results.row(*default(payload, DECODE_INTO)), results.row(*default(payload, "protojsonx"))
        if not (into and fresh):
            continue
        # Maps (order) included: their entries of recurring keys are reused.
        check(f"{payload} decode_into: 0 allocations per op (fresh decode {fmt_num(fresh['allocs'], 1)})",
              into["allocs"], lambda x: x == 0)
    for payload in ("large", "otlp"):
        compare(f"{payload} decode_into: ≤0.6x prost binary decode time",
                default(payload, DECODE_INTO), default(payload, "prost"), lambda x: x <= 0.6)
    for payload in PAYLOADS:
        compare(f"{payload} decode_into: faster than prost's clear + merge (time ratio <1)",
                default(payload, DECODE_INTO), default(payload, CLEAR_MERGE), lambda x: x < 1)
    for payload in PAYLOADS:
        for direction, op in (("unmarshal", "decode"), ("marshal", "encode")):
            compare(f"{payload} {direction}: fresh {op} ≤1.0x prost binary {op} time",
                    default(payload, "protojsonx", direction), default(payload, "prost", direction),
                    lambda x: x <= 1.0)
    for payload in ("large", "otlp"):
        ratio, pair = results.variant_ratio(payload, "unmarshal", "indent-2")
        check(f"{payload} unmarshal indent-2 (pretty input): ≤1.25x the compact decode time", ratio,
              lambda x: x <= 1.25, pair)
    for payload in PAYLOADS:
        ratio, pair = results.variant_ratio(payload, "unmarshal", "shuffled")
        check(f"{payload} unmarshal shuffled: ≤1.1x the in-order decode time", ratio, lambda x: x <= 1.1, pair)
    return check.table()


DYNAMIC = "protojsonx-dynamic"


def targets_dynamic(results):
    """The dynamic transcoder's targets, each computed from this run."""
    check = Checks(results)

    def case(payload, direction, impl):
        return (payload, direction, "default", impl)

    for payload in PAYLOADS:
        for direction in ("binary-to-json", "json-to-binary"):
            dynamic = case(payload, direction, DYNAMIC)
            if not results.row(*dynamic):
                continue
            reflect, generated = case(payload, direction, "prost-reflect"), case(payload, direction, "generated")
            check(f"{payload} {direction}: ≥5x faster than prost-reflect",
                  results.ratio(reflect, dynamic), lambda x: x >= 5, (reflect, dynamic))
            check(f"{payload} {direction}: ≤1.5x the generated path's time",
                  results.ratio(dynamic, generated), lambda x: x <= 1.5, (dynamic, generated))
            reused = results.row(*case(payload, direction, DYNAMIC + "-reused-buf"))
            check(f"{payload} {direction}: allocations per op with a reused output buffer, reported",
                  reused and reused["allocs"], None)
    compile = results.row("schema", "compile-tables", "default", DYNAMIC)
    if compile and compile.get("ns"):
        per_type = compile["ns"] / compile["json_bytes"] / 1000
        check(f"table compilation, paid once: {fmt_ns(compile['ns'])} for the {compile['json_bytes']} message "
              f"types of the benchmark schemas, µs per type (reported)", per_type, None)
    return check.table()


def turns_table(results):
    """Per variant group, its ratio to the default in every round's turns."""
    out = ["| group | median ratio | rounds' ratios (sorted) | instructions ratio |", "|---|---:|---|---:|"]
    for group, per_round in results.turns.items():
        payload, direction, variant = group.split("/")
        ratios = turn_ratios(per_round)
        instr = results.instruction_ratio((payload, direction, variant, "protojsonx"),
                                          (payload, direction, "default", "protojsonx"))
        out.append(f"| {group} | {median(ratios):.3f} | {' '.join(f'{r:.2f}' for r in ratios)} | "
                   f"{'' if instr is None else f'{instr:.3f}'} |")
    return out


def stripped_size(path):
    with tempfile.NamedTemporaryFile() as tmp:
        subprocess.run(["strip", "-o", tmp.name, path], check=True)
        return os.path.getsize(tmp.name)


def symbol_sizes(path):
    """Bytes of code and data symbols by origin, from `nm -C -S`."""
    out = subprocess.run(["nm", "-C", "-S", path], capture_output=True, text=True, check=True).stdout
    sizes = Counter()
    for line in out.splitlines():
        parts = line.split(None, 3)
        if len(parts) < 4 or parts[2] not in "tTrRdD":
            continue
        size, name = int(parts[1], 16), parts[3]
        if "protojsonx_benches" in name and "ProtoJson" in name:
            sizes["generated ProtoJSON impls"] += size
        elif "protojsonx_runtime" in name:
            sizes["protojsonx-runtime"] += size
        else:
            sizes["everything else"] += size
    return sizes


def newest(pattern):
    paths = glob.glob(pattern)
    return max(paths, key=os.path.getmtime) if paths else None


def code_size(release_dir):
    """Generated line counts and the size the ProtoJSON code adds to a binary."""
    out = []
    generated = newest(os.path.join(release_dir, "build", "protojsonx-benches-*", "out", "bench.v1.rs"))
    if generated:
        with open(generated) as f:
            lines = f.read().splitlines()
        split = next(i for i, l in enumerate(lines) if "generated by protoc-gen-rust-protojsonx" in l)
        pbjson_dir = os.path.join(os.path.dirname(generated), "pbjson")
        with open(os.path.join(pbjson_dir, "bench.v1.serde.rs")) as f:
            pbjson_lines = len(f.read().splitlines())
        out += [f"Generated code for `bench.v1` (6 messages, 1 enum, 1 oneof, 3 maps, 5 kinds of well-known types): "
                f"{len(lines) - split} lines of ProtoJSON impls (after {split} lines of prost structs); "
                f"pbjson-build writes {pbjson_lines} lines for the same package.", ""]
    bins = ["size-prost-only", "size-json-address", "size-json-batch"]
    paths = [os.path.join(release_dir, b) for b in bins]
    if all(os.path.exists(p) for p in paths):
        sizes = [stripped_size(p) for p in paths]
        symbols = [symbol_sizes(p) for p in paths]
        out += ["| binary (release, stripped) | what it links | size | vs prost only | generated impls | runtime |",
                "|---|---|---:|---:|---:|---:|"]
        what = ["prost binary decode/encode of OrderBatch", "+ ProtoJSON for Address (runtime core + 1 message)",
                "+ ProtoJSON for OrderBatch (all 6 messages, enum, WKTs)"]
        for b, w, s, sym in zip(bins, what, sizes, symbols):
            out.append(f"| `{b}` | {w} | {s:,} B | +{s - sizes[0]:,} B | {sym['generated ProtoJSON impls']:,} B | {sym['protojsonx-runtime']:,} B |")
        per_msg = symbols[2]["generated ProtoJSON impls"] / 6
        out += ["", f"Per message: the generated impls of `bench.v1` take {symbols[2]['generated ProtoJSON impls']:,} B of code "
                f"for 6 messages (~{per_msg:,.0f} B each, `Order` and `Scalars` the largest); the rest of the "
                f"+{sizes[2] - sizes[0]:,} B is shared: the runtime's well-known types, maps, Any registry and number "
                f"formatting/parsing, and std code they pull in (symbol sizes from `nm -C -S` on the unstripped binaries)."]
    return out


def chart(results, path):
    """Horizontal bars of ns/op per implementation, one panel per payload and direction."""
    panels = [(p, d) for p in ("small", "medium", "large", "order", "order-batch", "otlp") for d in ("marshal", "unmarshal")]
    panels = [(p, d) for p, d in panels
              if any(r["ns"] for r in results.rows if r["group"] == f"{p}/{d}/default")]
    bar, gap, label_w, plot_w, panel_w = 14, 3, 150, 250, 480
    heights = []
    for p, d in panels:
        n = sum(1 for r in results.rows if r["group"] == f"{p}/{d}/default" and r["ns"])
        heights.append(30 + n * (bar + gap) + 10)
    rows = [max(heights[i:i + 2]) for i in range(0, len(panels), 2)]
    width, height = panel_w * 2 + 20, sum(rows) + 60
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="10" y="20" font-size="14" font-weight="bold">ProtoJSON marshal/unmarshal time per operation (best of rounds, lower is better)</text>']
    y0 = 40
    for i, (p, d) in enumerate(panels):
        x0 = 10 + (i % 2) * panel_w
        if i % 2 == 0 and i:
            y0 += rows[i // 2 - 1]
        data = [r for r in results.rows if r["group"] == f"{p}/{d}/default" and r["ns"]]
        data.sort(key=lambda r: list(IMPLS).index(r["implementation"]))
        top = max(r["ns"] for r in data)
        json_bytes = data[0]["json_bytes"]
        svg.append(f'<text x="{x0}" y="{y0 + 14}" font-weight="bold">{p} ({json_bytes:,} B), {d}</text>')
        for j, r in enumerate(data):
            y = y0 + 24 + j * (bar + gap)
            w = max(1, r["ns"] / top * plot_w)
            colour = IMPLS[r["implementation"]]
            svg.append(f'<text x="{x0 + label_w - 4}" y="{y + bar - 3}" text-anchor="end">{r["implementation"]}</text>')
            svg.append(f'<rect x="{x0 + label_w}" y="{y}" width="{w:.1f}" height="{bar}" fill="{colour}"/>')
            svg.append(f'<text x="{x0 + label_w + w + 4:.1f}" y="{y + bar - 3}">{fmt_ns(r["ns"])}</text>')
    svg.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(svg) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--criterion", required=True)
    ap.add_argument("--allocs", required=True)
    ap.add_argument("--release-dir", required=True)
    ap.add_argument("--load")
    ap.add_argument("--instructions", help="instructions.sh output (optional)")
    ap.add_argument("--turns", help="the variant benchmarks' times in turns (optional)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    results = Results(load_allocs(args.allocs), load_criterion(args.criterion), load_instructions(args.instructions),
                      load_turns(args.turns))
    md = ["# protojsonx benchmark results", "",
          f"Generated by `benches/run.sh`: {results.round_count} round(s) through the whole suite. A time is the "
          "best round's: the lowest over the rounds of criterion's median (this is a shared 2-core VM where "
          "other tenants slow a benchmark by tens of percent for seconds at a time; that only ever adds time, "
          "so the best of N rounds is the machine's undisturbed speed, timeit's convention). Ratios (speedups, "
          "× prost, the targets other than variants') are ratios of those times; the slowest-round column is how much slower the slowest round was "
          "than the best. Allocations come from a counting global allocator, "
          "`alloc` + `realloc` calls and requested bytes per operation. Every implementation reads and "
          "writes the same ProtoJSON (checked by `cargo test -p protojsonx-benches`); prost rows are the "
          "protobuf binary format, the floor. pbjson is n/a for `order`/`order-batch`: pbjson-types does not "
          "read or write `google.protobuf.Any` as ProtoJSON.", "",
          "Speedup vs pbjson = pbjson time / this time, in the same variant; × prost time = this time / prost "
          "binary time (default variant). Variants: `shuffled` = same JSON with every object's keys reordered; "
          "`proto-names`, `enums-as-ints`, `indent-2` = decoding/encoding that spelling; `emit-default-values`, `emit-unpopulated`, `ensure-ascii`, "
          "`ignore-unknown` = that option. In each variant group protojsonx is timed in turns with protojsonx "
          "on the default options and input: alternating turns of about 50 µs, both sides timed (the "
          "`protojsonx-default-paired` row is the default's mean over its turns), so both saw the same "
          "machine at the same moments. A variant target is the median over the rounds of the ratio of the "
          "two sums of turns; the section \"Variants timed in turns\" lists every round's ratio.", "",
          "instr/op and the instructions ratio: instructions per operation counted by callgrind "
          "(`benches/scripts/instructions.sh`) for protojsonx, prost, the generated path and prost-reflect, exact and repeatable. Where a "
          "time ratio between two variants of protojsonx misses its target while their instruction counts "
          "are within a percent, the difference is the machine's noise (see the slowest-round column), not the code.", "",
          "## Machine", ""]
    md += machine(args.load)
    md += ["", "## Targets: against pbjson, sonic-rs and prost; option variants", ""] + targets(results)
    md += ["", "## Targets: decode_into, pretty input and shuffled keys against prost binary", "",
           "`decode_into` is the `protojsonx-decode-into` row: each operation decodes into one message kept from "
           "run to run (filled by a decode of the same input first); `prost-clear-merge` is prost's best reuse, "
           "`clear()` then `merge()` on a kept message. Times are best rounds' ratios; the pretty-input and "
           "shuffled targets are the median round's ratio in turns, as the option variants' targets are.", ""]
    md += targets_faster_than_binary(results)
    md += ["", "## Targets: the dynamic transcoder", "",
           "Transcoding for a schema known only at run time, both ways: `protojsonx-dynamic` transcodes "
           "from the descriptors with no message tree (`-reused-buf`: appending to a buffer kept from run to "
           "run); `generated` goes through a generated message (prost decode + protojsonx encode, protojsonx "
           "decode + prost encode); `prost-reflect` through a `DynamicMessage` and serde_json.", ""]
    md += targets_dynamic(results)
    md += ["", "## Variants timed in turns", ""] + turns_table(results)
    md += ["", "## Results", ""] + table(results)
    md += ["## Code size", ""] + code_size(args.release_dir) + [""]
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write("\n".join(md))
    chart(results, os.path.join(args.out, "chart.svg"))


if __name__ == "__main__":
    main()
