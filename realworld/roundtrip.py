#!/usr/bin/env python3
"""The Python side of the real-world check (run by realworld/run.sh).

Every message type of the slice's own files (realworld/slice.txt; not the
google/protobuf files, which are the runtime's; map entries excluded) gets
COUNT random messages from a seeded RNG, and each goes both ways between
protojsonx (the `protojsonx-realworld` driver, through `prost_types::Any`) and
Python protobuf's `json_format`:

  1. Python's binary -> our JSON (3 option sets) -> Python parses it: it must
     be the original message;
  2. Python's JSON (3 option sets) -> our binary -> Python parses it: it must
     be the original message.

The same for the dynamic transcoder (protojsonx-dynamic, from the slice's
descriptor set at run time), judged the same way and reported on a line of
its own; its conversions run at the same time as the generated code's, one
per core. It reads the google.protobuf types from the descriptor set, so what
prost-types lacks (the KNOWN prost-types-schema rule) does not apply to it.

Message classes come from the driver's descriptor set (what Builder
compiled), so no protoc and no _pb2 modules are needed.

  roundtrip.py run DRIVER WORK [--count N] [--seed S]
        the check; DRIVER is the driver binary, WORK a scratch directory
  roundtrip.py run --self-check --descriptors FDS --files LIST WORK [...]
        the same with Python on both sides (tests this generator alone,
        against any descriptor set, e.g. protoc's)
  roundtrip.py editions DRIVER WORK --edition EDITION=DIR... [--count N] [--seed S]
        the editions copies (realworld/editions.sh, realworld-editions):
        the messages of `run` read by the copies' types, checked against
        the originals and through the dynamic transcoder (see `editions`)
  roundtrip.py slice-files SLICE ROOT...
        the .proto files of the slice, as include-relative names

Disagreements that KNOWN_DIFFERENCES.md of the differential test explains
(by rule name) are reported as KNOWN and do not fail the run; the generator
avoids them (no -0.0, no +-f32::MAX, no Empty packed in an Any) so none is
expected. Any other disagreement fails it.
"""

import argparse
import json
import math
import os
import random
import re
import struct
import subprocess
import sys
import time

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
from google.protobuf.descriptor import FieldDescriptor as FD

HERE = os.path.dirname(os.path.abspath(__file__))
URL_PREFIX = "type.googleapis.com/"

# Each label of the driver's JSON maps to MessageToJson arguments: the option
# sets of the differential test, from its script.
sys.path.insert(0, os.path.join(HERE, "..", "robustness", "diff"))
from differential import OPTION_SETS, known_differences  # noqa: E402
from editions import slice_files  # noqa: E402  (realworld/, beside this script)

# ---------------------------------------------------------------------------
# The slice and the descriptor pool
# ---------------------------------------------------------------------------


def load_pool(descriptor_file):
    """A pool of every file of the set, google/protobuf/*.proto included: both
    sides then see the schema Builder compiled (not Python's own, newer copy
    of descriptor.proto in the default pool)."""
    pool = descriptor_pool.DescriptorPool()
    fds = descriptor_pb2.FileDescriptorSet()
    with open(descriptor_file, "rb") as f:
        fds.ParseFromString(f.read())
    for file in fds.file:
        pool.Add(file)
    return pool, fds


def any_class(pool):
    """The pool's google.protobuf.Any class."""
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("google.protobuf.Any"))


def synthetic_oneofs(fds):
    """Full names of the oneofs proto3 `optional` fields sit in: not real oneofs."""
    names = set()

    def walk(prefix, msg):
        full = prefix + msg.name
        for field in msg.field:
            if field.proto3_optional:
                names.add(full + "." + msg.oneof_decl[field.oneof_index].name)
        for nested in msg.nested_type:
            walk(full + ".", nested)

    for file in fds.file:
        for msg in file.message_type:
            walk(file.package + "." if file.package else "", msg)
    return names


def message_types(pool, files):
    """Every message type of `files` (nested ones too), map entries excluded."""
    out = []

    def walk(desc):
        if desc.GetOptions().map_entry:
            return
        out.append(desc)
        for nested in desc.nested_types:
            walk(nested)

    for name in files:
        for desc in pool.FindFileByName(name).message_types_by_name.values():
            walk(desc)
    return out


# ---------------------------------------------------------------------------
# Random messages
# ---------------------------------------------------------------------------

INT_EXTREMES = {
    FD.TYPE_INT32: (-2**31, 2**31 - 1), FD.TYPE_SINT32: (-2**31, 2**31 - 1),
    FD.TYPE_SFIXED32: (-2**31, 2**31 - 1), FD.TYPE_UINT32: (0, 2**32 - 1),
    FD.TYPE_FIXED32: (0, 2**32 - 1), FD.TYPE_INT64: (-2**63, 2**63 - 1),
    FD.TYPE_SINT64: (-2**63, 2**63 - 1), FD.TYPE_SFIXED64: (-2**63, 2**63 - 1),
    FD.TYPE_UINT64: (0, 2**64 - 1), FD.TYPE_FIXED64: (0, 2**64 - 1),
}
F32_MAX = struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0]
FLOAT_SPECIALS = [0.0, 1.0, -1.5, 0.1, 1e-45, 1.17549435e-38, 3.4e38, -3.4e38, 16777217.0,
                  math.inf, -math.inf, math.nan]
DOUBLE_SPECIALS = [0.0, 1.0, -2.5, 0.1, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                   -1.7976931348623157e308, 9007199254740993.0, 1e21, 1e-7, math.inf, -math.inf, math.nan]
STRING_PIECES = ["a", "Z", "0", " ", "\"", "\\", "/", "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f",
                 "\x7f", "é", "ß", "中文", "\u2028", "\u2029", "\ufeff", "\ud7ff", "\ue000", "\uffff",
                 "😀", "\U0010ffff", "<script>", "&amp;", "@type", "null", "\u00ad"]
# Well-known types whose JSON needs values in range; packed in an Any too.
ANY_WKT = ["google.protobuf.Timestamp", "google.protobuf.Duration", "google.protobuf.FieldMask",
           "google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue",
           "google.protobuf.Int64Value", "google.protobuf.UInt64Value", "google.protobuf.DoubleValue",
           "google.protobuf.FloatValue", "google.protobuf.StringValue", "google.protobuf.BytesValue",
           "google.protobuf.BoolValue", "google.protobuf.Int32Value", "google.protobuf.UInt32Value"]
MAX_DEPTH = 4          # nesting of message fields below the top-level message
NODE_BUDGET = 160      # fields set per top-level message, at most
FIELD_CHANCE = [0.6, 0.4, 0.25, 0.15, 0.1]   # by depth: chance an optional field is set


class Generator:
    """Fills messages with random, valid values of every field kind."""

    def __init__(self, rng, pool, synthetic, any_types):
        self.rng = rng
        self.pool = pool
        self.synthetic = synthetic
        self.any_types = any_types
        self.budget = 0
        self.full = None

    def message(self, desc, index):
        """The `index`-th random message of type `desc`. Every 4th one
        (index 0 first) has all its top-level fields set, its oneofs taking
        turns over their members, so each field of the type is covered."""
        self.budget = NODE_BUDGET
        self.full = index // 4 if index % 4 == 0 else None
        msg = message_factory.GetMessageClass(desc)()
        self.fill(msg, 0)
        return msg

    # -- messages -----------------------------------------------------------

    def fill(self, msg, depth):
        """Sets a random selection of `msg`'s fields (`depth` below the top)."""
        desc = msg.DESCRIPTOR
        special = SPECIAL_FILLERS.get(desc.full_name)
        if special:
            special(self, msg, depth)
            return
        full = depth == 0 and self.full is not None
        chance = 1.0 if full else FIELD_CHANCE[min(depth, len(FIELD_CHANCE) - 1)]
        for oneof in desc.oneofs:
            if oneof.full_name in self.synthetic or not self.take(chance):
                continue
            member = oneof.fields[self.full % len(oneof.fields)] if full else self.rng.choice(oneof.fields)
            self.set_field(msg, member, depth)
        for field in desc.fields:
            if field.containing_oneof is not None and field.containing_oneof.full_name not in self.synthetic:
                continue
            if field.is_required or self.take(chance):
                self.set_field(msg, field, depth)

    def take(self, chance):
        """True (and one node spent) with probability `chance`, while the budget lasts."""
        if self.budget <= 0 or self.rng.random() >= chance:
            return False
        self.budget -= 1
        return True

    def set_field(self, msg, field, depth):
        """Gives `field` of `msg` a random value (elements, for repeated ones)."""
        if field.type == FD.TYPE_MESSAGE and depth >= MAX_DEPTH and not field.is_required:
            return
        if field.is_repeated and field.message_type is not None and field.message_type.GetOptions().map_entry:
            self.fill_map(getattr(msg, field.name), field.message_type, depth)
        elif field.is_repeated:
            items = getattr(msg, field.name)
            for _ in range(self.rng.randint(1, 3)):
                if field.type == FD.TYPE_MESSAGE:
                    self.fill(items.add(), depth + 1)
                else:
                    items.append(self.scalar(field))
        elif field.type == FD.TYPE_MESSAGE:
            sub = getattr(msg, field.name)
            sub.SetInParent()
            self.fill(sub, depth + 1)
        else:
            setattr(msg, field.name, self.scalar(field))

    def fill_map(self, entries, entry_type, depth):
        """Adds 1-3 random entries to a map field."""
        key_field = entry_type.fields_by_name["key"]
        value_field = entry_type.fields_by_name["value"]
        for _ in range(self.rng.randint(1, 3)):
            key = self.scalar(key_field)
            if value_field.type == FD.TYPE_MESSAGE:
                self.fill(entries[key], depth + 1)
            else:
                entries[key] = self.scalar(value_field)

    # -- scalars ------------------------------------------------------------

    def scalar(self, field):
        """A random value of a non-message field's type."""
        t = field.type
        if t in INT_EXTREMES:
            return self.integer(*INT_EXTREMES[t])
        if t == FD.TYPE_BOOL:
            return self.rng.random() < 0.5
        if t == FD.TYPE_FLOAT:
            return self.float32()
        if t == FD.TYPE_DOUBLE:
            return self.double()
        if t == FD.TYPE_STRING:
            return self.string()
        if t == FD.TYPE_BYTES:
            return bytes(self.rng.getrandbits(8) for _ in range(self.rng.randint(0, 16)))
        if t == FD.TYPE_ENUM:
            return self.enum(field.enum_type)
        raise ValueError("field %s: type %d is not generated" % (field.full_name, t))

    def integer(self, lo, hi):
        """An integer in [lo, hi], often an extreme or a small number."""
        r = self.rng.random()
        if r < 0.3:
            return self.rng.choice([lo, hi, 0, 1, lo + 1, hi - 1, min(hi, 2**53 + 1), max(lo, -1)])
        if r < 0.6:
            return max(lo, min(hi, self.rng.randint(-1000, 1000)))
        return self.rng.randint(lo, hi)

    def float32(self):
        """A float value: specials or random bits; never -0.0 or +-f32::MAX
        (the differential test's known Python quirks)."""
        if self.rng.random() < 0.4:
            return self.rng.choice(FLOAT_SPECIALS)
        while True:
            (v,) = struct.unpack("<f", struct.pack("<I", self.rng.getrandbits(32)))
            if math.isfinite(v) and abs(v) != F32_MAX and not (v == 0 and math.copysign(1, v) < 0):
                return v

    def double(self):
        """A double value: specials or random bits; never -0.0."""
        if self.rng.random() < 0.4:
            return self.rng.choice(DOUBLE_SPECIALS)
        return self.finite_double()

    def finite_double(self):
        """A finite double from random bits (or a small decimal), never -0.0."""
        if self.rng.random() < 0.5:
            return round(self.rng.uniform(-1e6, 1e6), self.rng.randint(0, 6)) or 0.0
        while True:
            (v,) = struct.unpack("<d", struct.pack("<Q", self.rng.getrandbits(64)))
            if math.isfinite(v) and not (v == 0 and math.copysign(1, v) < 0):
                return v

    def string(self):
        """A string of 0-8 pieces: ASCII, escapes, controls, BMP and astral characters."""
        return "".join(self.rng.choice(STRING_PIECES) for _ in range(self.rng.randint(0, 8)))

    def enum(self, enum_type):
        """A value of the enum; for an open enum, sometimes an unknown number."""
        if not enum_type.is_closed and enum_type.full_name != "google.protobuf.NullValue" \
                and self.rng.random() < 0.15:
            return self.rng.choice([-2**31, -7, 99, 12345, 2**31 - 1])
        return self.rng.choice(enum_type.values).number

    # -- well-known types ---------------------------------------------------

    def timestamp(self, msg, depth):
        """A Timestamp within 0001-01-01 .. 9999-12-31."""
        msg.seconds = self.integer(-62135596800, 253402300799)
        msg.nanos = self.nanos()

    def nanos(self):
        """Nanoseconds: 0, whole milli- or microseconds, or any."""
        return self.rng.choice([0, self.rng.randint(0, 999) * 1000000,
                                self.rng.randint(0, 999999) * 1000, self.rng.randint(0, 999999999)])

    def duration(self, msg, depth):
        """A Duration within +-315,576,000,000 s, nanos of the seconds' sign."""
        seconds = self.integer(-315576000000, 315576000000)
        nanos = self.nanos()
        if seconds < 0 or (seconds == 0 and self.rng.random() < 0.5):
            nanos = -nanos
        msg.seconds, msg.nanos = seconds, nanos

    def field_mask(self, msg, depth):
        """Paths of snake_case segments that survive lowerCamelCase and back."""
        for _ in range(self.rng.randint(0, 3)):
            segments = []
            for _ in range(self.rng.randint(1, 3)):
                words = ["".join(self.rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(self.rng.randint(1, 5)))
                         + self.rng.choice(["", "", "2"]) for _ in range(self.rng.randint(1, 3))]
                segments.append("_".join(words))
            msg.paths.append(".".join(segments))

    def struct(self, msg, depth):
        """A Struct of 0-3 fields."""
        for _ in range(self.rng.randint(0, 3)):
            self.value(msg.fields[self.string()], depth + 1)

    def list_value(self, msg, depth):
        """A ListValue of 0-3 values."""
        for _ in range(self.rng.randint(0, 3)):
            self.value(msg.values.add(), depth + 1)

    def value(self, msg, depth):
        """A Value of any kind; no NaN or infinity (JSON has none), no -0.0."""
        kinds = ["null", "number", "string", "bool"] + (["struct", "list"] if depth < MAX_DEPTH else [])
        kind = self.rng.choice(kinds)
        if kind == "null":
            msg.null_value = 0
        elif kind == "number":
            msg.number_value = self.rng.choice([self.finite_double(), float(self.integer(-2**53, 2**53))])
        elif kind == "string":
            msg.string_value = self.string()
        elif kind == "bool":
            msg.bool_value = self.rng.random() < 0.5
        elif kind == "struct":
            msg.struct_value.SetInParent()
            self.struct(msg.struct_value, depth)
        else:
            msg.list_value.SetInParent()
            self.list_value(msg.list_value, depth)

    def any(self, msg, depth):
        """An Any packing a message of the slice or a well-known type (never
        Empty: the differential test's known `any-empty-value-key`)."""
        if depth >= MAX_DEPTH:
            return
        desc = self.pool.FindMessageTypeByName(self.rng.choice(self.any_types))
        inner = message_factory.GetMessageClass(desc)()
        self.fill(inner, depth + 1)
        msg.Pack(inner, deterministic=True)


SPECIAL_FILLERS = {
    "google.protobuf.Timestamp": Generator.timestamp,
    "google.protobuf.Duration": Generator.duration,
    "google.protobuf.FieldMask": Generator.field_mask,
    "google.protobuf.Struct": Generator.struct,
    "google.protobuf.ListValue": Generator.list_value,
    "google.protobuf.Value": Generator.value,
    "google.protobuf.Any": Generator.any,
}

# ---------------------------------------------------------------------------
# Comparing
# ---------------------------------------------------------------------------


def field_by_json_or_proto_name(desc, name):
    """The field of `desc` named `name` in JSON or in the .proto, or None."""
    field = desc.fields_by_name.get(name)
    if field is None:
        field = next((f for f in desc.fields if f.json_name == name), None)
    return field


def canonical(msg, pool):
    """Python's JSON of `msg`, keys sorted: equal for equal messages even where
    the binary is not (an Any packs its message's bytes; map order)."""
    return json_format.MessageToJson(msg, indent=None, sort_keys=True, descriptor_pool=pool)


def same(got, want, want_bytes, pool):
    """Whether two messages of one type are equal."""
    return got.SerializeToString(deterministic=True) == want_bytes or canonical(got, pool) == canonical(want, pool)


def first_difference(a, b, path=""):
    """The path of the first field where messages `a` and `b` differ, like
    `enums[1].edition` or `labels["k"]`, or '' (NaN counts as equal)."""
    fa = {f.name: (f, v) for f, v in a.ListFields()}
    fb = {f.name: (f, v) for f, v in b.ListFields()}
    for name in sorted(set(fa) | set(fb)):
        here = path + "." + name if path else name
        if name not in fa or name not in fb:
            return here
        field, va = fa[name]
        found = value_difference(field, va, fb[name][1], here)
        if found:
            return found
    return ""


def value_difference(field, va, vb, here):
    """Where the values of `field` differ (see first_difference), or ''."""
    is_message = field.type == FD.TYPE_MESSAGE
    if field.is_repeated and is_message and field.message_type.GetOptions().map_entry:
        value_field = field.message_type.fields_by_name["value"]
        for key in sorted(set(va) | set(vb), key=repr):
            at = "%s[%s]" % (here, json.dumps(key) if isinstance(key, str) else key)
            if key not in va or key not in vb:
                return at
            if value_field.type == FD.TYPE_MESSAGE:
                found = first_difference(va[key], vb[key], at)
            else:
                found = at if not same_scalar(va[key], vb[key]) else ""
            if found:
                return found
        return ""
    if field.is_repeated:
        if len(va) != len(vb):
            return "%s (%d elements, expected %d)" % (here, len(va), len(vb))
        for i, (x, y) in enumerate(zip(va, vb)):
            at = "%s[%d]" % (here, i)
            found = first_difference(x, y, at) if is_message else (at if not same_scalar(x, y) else "")
            if found:
                return found
        return ""
    if is_message:
        return first_difference(va, vb, here)
    return here if not same_scalar(va, vb) else ""


def same_scalar(x, y):
    """Equal scalars, NaN equal to NaN."""
    return x == y or (isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y))


def known_rule(error, got, want, pool):
    """The KNOWN_DIFFERENCES.md rule that explains a disagreement, if any (the
    same recognition as robustness/diff/differential.py)."""
    if "Float value too large" in error or "Float value too small" in error:
        return "float-extremes-rejected"
    if 'Message type "google.protobuf.Empty" has no field named "value"' in error:
        return "any-empty-value-key"
    if got is not None and canonical(got, pool) == re.sub(r"-0\.0(?![0-9eE])", "0.0", canonical(want, pool)):
        return "negative-zero-integer-text"
    return None


# ---------------------------------------------------------------------------
# The two sides
# ---------------------------------------------------------------------------


def start_driver(driver, command, requests, work, extra=()):
    """Starts `DRIVER command IN OUT [EXTRA...]` on JSONL `requests`;
    `finish_driver` waits for it and returns its answers by id. Drivers
    started together run at once (one per core)."""
    src = os.path.join(work, command + ".in.jsonl")
    dst = os.path.join(work, command + ".out.jsonl")
    with open(src, "w", encoding="utf-8") as f:
        for r in requests:
            f.write(json.dumps(r) + "\n")
    return subprocess.Popen([driver, command, src, dst, *extra]), dst


def finish_driver(started):
    """The answers of a driver `start_driver` started, by id."""
    process, dst = started
    if process.wait() != 0:
        raise subprocess.CalledProcessError(process.returncode, process.args)
    answers = {}
    with open(dst, encoding="utf-8") as f:
        for line in f:
            a = json.loads(line)
            answers[a["id"]] = a
    return answers


def python_encode(requests, pool):
    """The driver's `encode`, done by Python (for --self-check)."""
    answers = {}
    for r in requests:
        any_msg = any_class(pool)(type_url=URL_PREFIX + r["type"], value=bytes.fromhex(r["binary"]))
        answers[r["id"]] = {"id": r["id"], "json": {
            label: json_format.MessageToJson(any_msg, descriptor_pool=pool, **{"indent": None, **kw})
            for label, kw in OPTION_SETS.items()}}
    return answers


def python_decode(requests, pool):
    """The driver's `decode`, done by Python (for --self-check)."""
    answers = {}
    for r in requests:
        any_msg = json_format.Parse(r["json"], any_class(pool)(), descriptor_pool=pool)
        answers[r["id"]] = {"id": r["id"], "type_url": any_msg.type_url, "binary": any_msg.value.hex()}
    return answers


class Check:
    """The run's tallies and the report of each disagreement."""

    def __init__(self, pool, schema=None):
        self.pool = pool
        self.schema = schema   # a RuntimeSchema: explains what prost-types lacks
        self.known = known_differences()
        self.failures = {}   # item id -> reports
        self.tolerated = {}
        self.schema_known = set()   # ids of items with a conversion SCHEMA_RULE explains
        self.checks = 0
        self.requests = []   # Python's JSON of the items (see convert_and_check)

    def judge(self, item, direction, label, text, got, error):
        """Records one conversion: `got` (a message or None) against the original."""
        self.checks += 1
        want = item["message"]
        if error is None and not same(got, want, item["bytes"], self.pool):
            error = "a different message"
        if error is None:
            return
        rule = known_rule(error, got, want, self.pool)
        if rule is None and self.schema is not None and self.schema.explains(error, want.DESCRIPTOR):
            rule = SCHEMA_RULE
        if rule == SCHEMA_RULE:
            self.schema_known.add(item["id"])
            return
        if rule in self.known:
            self.tolerated[rule] = self.tolerated.get(rule, 0) + 1
            return
        path = first_difference(got, want) if got is not None else ""
        self.failures.setdefault(item["id"], []).append(
            "MISMATCH %s #%d, %s, %s: %s%s\n  input: %s\n  got:      %s\n  expected: %s" % (
                item["type"], item["index"], direction, label, error,
                " at field `%s`" % path if path else "", text[:1500],
                canonical(got, self.pool)[:1500] if got is not None else "-",
                canonical(want, self.pool)[:1500]))


def parse_any_as(text, cls, pool):
    """Python's reading of our Any JSON, unpacked into a `cls`."""
    any_msg = json_format.Parse(text, any_class(pool)(), descriptor_pool=pool)
    msg = cls()
    if not any_msg.Unpack(msg):
        raise ValueError("Any holds %s" % any_msg.type_url)
    return msg


def direction_one(items, answers, check):
    """Python binary -> our JSON -> Python: the original message."""
    for item in items:
        answer = answers.get(item["id"], {})
        for label in OPTION_SETS:
            text = answer.get("json", {}).get(label)
            got, error = None, answer.get("errors", {}).get(label, "no answer")
            if text is not None:
                try:
                    got, error = parse_any_as(text, item["cls"], check.pool), None
                except Exception as e:  # a rejection by Python
                    error = "Python rejects our JSON: %s: %s" % (type(e).__name__, e)
            else:
                error = "protojsonx cannot encode it: " + error
            check.judge(item, "binary->our JSON", label, text or item["bytes"].hex(), got, error)


def direction_two(items, requests, answers, check):
    """Python JSON -> our binary -> Python: the original message."""
    by_id = {item["id"]: item for item in items}
    for r in requests:
        item = by_id[r["rid"]]
        answer = answers.get(r["id"], {})
        got, error = None, None
        if "binary" not in answer:
            error = "protojsonx rejects Python's JSON: " + answer.get("error", "no answer")
        elif answer.get("type_url") != URL_PREFIX + item["type"]:
            error = "type_url %r" % answer.get("type_url")
        else:
            try:
                got = item["cls"].FromString(bytes.fromhex(answer["binary"]))
            except Exception as e:
                error = "Python cannot parse our binary: %s" % e
        check.judge(item, "Python JSON->our binary", r["label"], r["json"], got, error)


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------


def make_items(types, count, seed, pool, synthetic, any_types):
    """COUNT random messages of every type, with their binary."""
    items = []
    for desc in types:
        # One RNG per type: a type's messages do not depend on the slice around it.
        gen = Generator(random.Random("%d:%s" % (seed, desc.full_name)), pool, synthetic, any_types)
        cls = message_factory.GetMessageClass(desc)
        for index in range(count):
            msg = gen.message(desc, index)
            items.append({"id": len(items), "index": index, "type": desc.full_name, "cls": cls,
                          "message": msg, "bytes": msg.SerializeToString(deterministic=True)})
    return items


def python_json_requests(items, pool, check):
    """Python's JSON of each message packed in an Any, under each option set."""
    requests = []
    for item in items:
        any_msg = any_class(pool)()
        any_msg.Pack(item["message"], deterministic=True)
        for label, kw in OPTION_SETS.items():
            try:
                text = json_format.MessageToJson(any_msg, descriptor_pool=pool, **{"indent": None, **kw})
            except Exception as e:
                check.judge(item, "Python JSON", label, "", None, "Python cannot encode it: %s" % e)
                continue
            requests.append({"id": len(requests), "rid": item["id"], "label": label, "json": text})
    return requests


def run(args):
    """The check; returns the process exit code."""
    os.makedirs(args.work, exist_ok=True)
    timings = {}
    start = time.time()
    if args.self_check:
        descriptors, files_list, runtime_types = args.descriptors, args.files, args.runtime_types
    else:
        subprocess.run([args.driver, "descriptors", args.work], check=True)
        descriptors, files_list, runtime_types = (
            os.path.join(args.work, name) for name in ("descriptors.bin", "files.txt", "runtime-types.bin"))
    pool, files, types, items = slice_items(descriptors, files_list, args.count, args.seed)
    timings["python: generate messages"] = time.time() - start

    schema = RuntimeSchema(runtime_types)
    check = python_json_check(items, pool, "", timings, schema)
    # The dynamic transcoder converts the same JSON at the same time, on the
    # other core, and its answers wait while the generated code's are checked.
    generated = start_conversions(args, items, check.requests, pool, "")
    dynamic_conversions = None
    if not args.self_check:
        dynamic_conversions = start_conversions(args, items, check.requests, pool, "-dynamic")
    check_answers(items, check, "", timings, generated)
    known, still_bad = retry_without_newer_fields(args, items, check, pool, schema, timings)
    dynamic = None
    if dynamic_conversions:
        dynamic = Check(pool)
        dynamic.requests = check.requests
        check_answers(items, dynamic, " (dynamic)", timings, dynamic_conversions)
    return report(args, check, known, still_bad, dynamic, items, types, files, timings)


def slice_items(descriptors, files_list, count, seed):
    """The pool of the descriptor set in the file `descriptors`, the slice's
    files (from the file `files_list`; google/protobuf ones left out), their
    message types and COUNT random messages of each."""
    pool, fds = load_pool(descriptors)
    with open(files_list, encoding="utf-8") as f:
        files = [line.strip() for line in f if line.strip() and not line.startswith("google/protobuf/")]
    types = message_types(pool, files)
    any_types = [t.full_name for t in types] + ANY_WKT
    items = make_items(types, count, seed, pool, synthetic_oneofs(fds), any_types)
    return pool, files, types, items


def python_json_check(items, pool, tag, timings, schema=None):
    """A Check for `items` holding, as `requests`, Python's JSON of them
    (and what Python could not encode)."""
    start = time.time()
    check = Check(pool, schema)
    check.requests = python_json_requests(items, pool, check)
    timings["python: JSON of the messages" + tag] = time.time() - start
    return check


def convert_and_check(args, items, pool, tag, timings, schema=None):
    """Both directions for `items`, by the generated code; the Check holding
    what disagreed (and, as `requests`, Python's JSON of them)."""
    check = python_json_check(items, pool, tag, timings, schema)
    return check_answers(items, check, tag, timings, start_conversions(args, items, check.requests, pool, ""))


def start_conversions(args, items, requests, pool, testee, work=None, extra=()):
    """Starts the driver's `encode` of `items` and `decode` of Python's JSON
    `requests` (commands with `testee` appended, then `extra` arguments; files
    in `work`, by default WORK), both at once; returns a function that waits
    for their answers (Python's own, with --self-check)."""
    encode_requests = [{"id": i["id"], "type": i["type"], "binary": i["bytes"].hex()} for i in items]
    # (The item and option set of each are for `roundtrip.py editions`.)
    decode_requests = [{"id": r["id"], "rid": r["rid"], "label": r["label"], "json": r["json"]} for r in requests]
    if getattr(args, "self_check", False):
        return lambda: (python_encode(encode_requests, pool), python_decode(decode_requests, pool))
    work = work or args.work
    encoding = start_driver(args.driver, "encode" + testee, encode_requests, work, extra)
    decoding = start_driver(args.driver, "decode" + testee, decode_requests, work, extra)
    return lambda: (finish_driver(encoding), finish_driver(decoding))


def check_answers(items, check, tag, timings, conversions):
    """Waits for `conversions` (from `start_conversions`) and judges both
    directions into `check`, which it returns."""
    start = time.time()
    encoded, decoded = conversions()
    timings["driver: waiting for encode and decode" + tag] = time.time() - start
    start = time.time()
    direction_one(items, encoded, check)
    direction_two(items, check.requests, decoded, check)
    timings["python: check both directions" + tag] = time.time() - start
    return check


def retry_without_newer_fields(args, items, check, pool, schema, timings):
    """The KNOWN rule `prost-types-schema`: a message that disagrees, and holds
    fields or enum values of google.protobuf types that the runtime's
    prost-types structs lack (their schema is protobuf 3.19's; Builder
    compiles against a newer descriptor.proto), is sent again without them.
    Our decoder's "unknown field" for such a field is explained as well
    (Python writes `"edition": ""` of a Type under always_print_fields_with_no_presence).
    Returns the ids that then agree, and those that still disagree."""
    retry = []
    for item_id in sorted(check.failures):
        item = items[item_id]
        stripped = item["message"].__class__()
        stripped.CopyFrom(item["message"])
        if schema.strip(stripped, pool):
            retry.append(dict(item, message=stripped, bytes=stripped.SerializeToString(deterministic=True)))
    known = check.schema_known - set(check.failures)
    if retry:
        second = convert_and_check(args, retry, pool, " (retry, %d messages)" % len(retry), timings, schema)
        known |= {i["id"] for i in retry if i["id"] not in second.failures}
        for item_id, reports in second.failures.items():
            check.failures[item_id] += ["without the fields prost-types lacks: " + r for r in reports]
    return sorted(known), sorted(set(check.failures) - known)


SCHEMA_RULE = "prost-types-schema"
UNKNOWN_FIELD = re.compile(r"unknown field at `([^`]*)`")
PATH_SEGMENT = re.compile(r'\.?([A-Za-z0-9_]+)((?:\[(?:\d+|"(?:[^"\\]|\\.)*")\])*)')


class RuntimeSchema:
    """The google.protobuf messages and enums as the runtime's prost-types
    structs have them: the descriptor set `runtime-types.bin` the crate's
    build.rs compiles from the runtime's own copy of their .proto files."""

    def __init__(self, path):
        fds = descriptor_pb2.FileDescriptorSet()
        with open(path, "rb") as f:
            fds.ParseFromString(f.read())
        self.fields, self.enum_values = {}, {}
        for file in fds.file:
            prefix = file.package + "."
            for msg in file.message_type:
                self.add_message(prefix, msg)
            for enum in file.enum_type:
                self.enum_values[prefix + enum.name] = {v.number for v in enum.value}

    def add_message(self, prefix, msg):
        """Records the fields of `msg` and of its nested types."""
        full = prefix + msg.name
        self.fields[full] = {f.name for f in msg.field}
        for nested in msg.nested_type:
            self.add_message(full + ".", nested)
        for enum in msg.enum_type:
            self.enum_values[full + "." + enum.name] = {v.number for v in enum.value}

    def explains(self, error, desc):
        """Whether `error` is our decoder rejecting, as unknown, a field of a
        google.protobuf message that the compiled schema has and the
        runtime's structs lack. `desc` is the top-level message type."""
        match = UNKNOWN_FIELD.search(error)
        if not match:
            return False
        path, pos = match.group(1), 0
        while pos < len(path):
            segment = PATH_SEGMENT.match(path, pos)
            if not segment:
                return False
            pos = segment.end()
            field = field_by_json_or_proto_name(desc, segment.group(1))
            if field is None:
                return False
            if pos == len(path):
                known = self.fields.get(desc.full_name)
                return known is not None and field.name not in known
            if field.type != FD.TYPE_MESSAGE:
                return False
            desc = field.message_type
            if desc.GetOptions().map_entry and segment.group(2):
                desc = desc.fields_by_name["value"].message_type
                if desc is None:
                    return False
        return False

    def strip(self, msg, pool):
        """Clears, in `msg` and below, what the runtime's structs cannot hold;
        True if anything was cleared."""
        changed = False
        known = self.fields.get(msg.DESCRIPTOR.full_name)
        for field, value in msg.ListFields():
            if known is not None and field.name not in known or self.unknown_enum_value(field, value):
                msg.ClearField(field.name)
                changed = True
            elif field.type == FD.TYPE_MESSAGE:
                changed |= self.strip_values(field, value, pool)
        if msg.DESCRIPTOR.full_name == "google.protobuf.Any" and msg.type_url:
            changed |= self.strip_any(msg, pool)
        return changed

    def strip_values(self, field, value, pool):
        """`strip` on the messages a message field holds."""
        if field.message_type.GetOptions().map_entry:
            if field.message_type.fields_by_name["value"].type != FD.TYPE_MESSAGE:
                return False
            value = value.values()
        elif not field.is_repeated:
            value = [value]
        changed = False
        for sub in value:
            changed |= self.strip(sub, pool)
        return changed

    def unknown_enum_value(self, field, value):
        """Whether a google.protobuf enum field holds a value the runtime lacks."""
        if field.type != FD.TYPE_ENUM or field.enum_type.full_name not in self.enum_values:
            return False
        values = value if field.is_repeated else [value]
        return any(v not in self.enum_values[field.enum_type.full_name] for v in values)

    def strip_any(self, msg, pool):
        """`strip` on the message an Any packs."""
        desc = pool.FindMessageTypeByName(msg.type_url.split("/")[-1])
        inner = message_factory.GetMessageClass(desc)()
        msg.Unpack(inner)
        if not self.strip(inner, pool):
            return False
        msg.Pack(inner, deterministic=True)
        return True


def print_failures(args, check, bad):
    """The reports of the messages `bad`, at most --max-failures of them."""
    reports = [r for item_id in bad for r in check.failures[item_id]]
    for failure in reports[:args.max_failures]:
        print(failure)
    if len(reports) > args.max_failures:
        print("... and %d more mismatches" % (len(reports) - args.max_failures))


def report(args, check, known, bad, dynamic, items, types, files, timings):
    """Prints the failures and the summary lines (the dynamic transcoder's,
    from the Check `dynamic`, if it ran); writes the summary file."""
    print_failures(args, check, bad)
    dynamic_bad = sorted(dynamic.failures) if dynamic else []
    if dynamic_bad:
        print("realworld: the dynamic transcoder's mismatches:")
        print_failures(args, dynamic, dynamic_bad)
    for phase, seconds in timings.items():
        print("realworld: %s took %.1f s" % (phase, seconds))
    agree = len(items) - len(known) - len(bad)
    bad_types = sorted({items[i]["type"] for i in bad})
    known_types = sorted({items[i]["type"] for i in known})
    line = "realworld: %d of %d messages agree (%d types, %d files)" % (agree, len(items), len(types), len(files))
    print(line + "; %d conversions checked" % check.checks)
    if known:
        print("realworld: KNOWN prost-types-schema: %d messages agree once the fields and enum values "
              "prost-types 0.14 lacks are removed (%s)" % (len(known), ", ".join(known_types)))
    if check.tolerated:
        print("realworld: KNOWN (robustness/diff/KNOWN_DIFFERENCES.md): %s" % check.tolerated)
    if bad_types:
        print("realworld: %d messages DISAGREE, types: %s" % (len(bad), ", ".join(bad_types[:50])))
    dynamic_line = None
    if dynamic:
        dynamic_line = "realworld: dynamic transcoder: %d of %d messages agree; %d conversions checked" % (
            len(items) - len(dynamic_bad), len(items), dynamic.checks)
        print(dynamic_line)
        if dynamic.tolerated:
            print("realworld: dynamic: KNOWN (robustness/diff/KNOWN_DIFFERENCES.md): %s" % dynamic.tolerated)
        if dynamic_bad:
            print("realworld: dynamic: %d messages DISAGREE, types: %s" % (
                len(dynamic_bad), ", ".join(sorted({items[i]["type"] for i in dynamic_bad})[:50])))
    summary = {"summary": line, "messages": len(items), "agree": agree, "types": len(types),
               "files": len(files), "conversions": check.checks, "count_per_type": args.count,
               "seed": args.seed, "known_prost_types_schema": len(known), "known_types": known_types,
               "known_differential_rules": check.tolerated, "disagree": len(bad), "failing_types": bad_types,
               "dynamic": dynamic_line, "dynamic_disagree": len(dynamic_bad),
               "timings_s": {k: round(v, 1) for k, v in timings.items()}}
    with open(os.path.join(args.work, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
    return 0 if not (bad or dynamic_bad) else 1


# ---------------------------------------------------------------------------
# The editions copies
# ---------------------------------------------------------------------------


def editions(args):
    """The editions check (`roundtrip.py editions`); returns the exit code.

    The messages of `run` (the same COUNT and SEED, the same original
    descriptor set from the driver) are read as binary by the types of each
    edition's copy, in Python's pool of the copy's descriptor set (protoc's,
    not lowered: EDITION=DIR names DIR/descriptors.bin, as realworld-editions
    writes it). Each must be the original's message:

      1. it re-encodes to the original's bytes, and its JSON under every
         option set is the original's: Python's (its pool of the editions
         files against its pool of the originals: the requests `run` left in
         WORK, or made again) and the dynamic transcoder's (against its
         answers `run` left in WORK, if there);
      2. the dynamic transcoder, with a pool of the copy's descriptor set
         (which it lowers itself), converts it both ways, and Python judges
         with the editions types, as `run` does.

    The drivers of one edition run while Python works on the next one."""
    os.makedirs(args.work, exist_ok=True)
    timings = {}
    start = time.time()
    subprocess.run([args.driver, "descriptors", args.work], check=True)
    pool, files, types, items = slice_items(
        os.path.join(args.work, "descriptors.bin"), os.path.join(args.work, "files.txt"), args.count, args.seed)
    timings["python: generate messages"] = time.time() - start
    ours = run_answers(args.work, items)
    # Python's JSON of the originals: `run`'s requests, or made again.
    python_texts = None
    if ours is not None:
        requests = read_answers(os.path.join(args.work, "decode-dynamic.in.jsonl")).values()
        if all("rid" in r for r in requests):
            python_texts = {(r["rid"], r["label"]): r["json"] for r in requests}
    if python_texts is None:
        original = python_json_check(items, pool, "", timings)
        if original.failures:
            print_failures(args, original, sorted(original.failures))
            return 1
        python_texts = {(r["rid"], r["label"]): r["json"] for r in original.requests}

    started = []
    for edition, directory in args.edition:
        start = time.time()
        tag = " (editions %s)" % edition
        descriptors = os.path.join(directory, "descriptors.bin")
        edition_pool, _ = load_pool(descriptors)
        twins, different = twin_items(items, edition_pool)
        check = Check(edition_pool)
        check.requests = python_json_requests(twins, edition_pool, check)
        for r in check.requests:
            if not same_json(r["json"], python_texts.get((r["rid"], r["label"]))):
                item = items[r["rid"]]
                different.setdefault(r["rid"], []).append(
                    "DIFFERENT %s #%d: Python's JSON (%s) of the editions type is not the original's\n"
                    "  editions: %s\n  original: %s" % (item["type"], item["index"], r["label"],
                                                       r["json"][:1500],
                                                       (python_texts.get((r["rid"], r["label"])) or "-")[:1500]))
        timings["python: editions types and their JSON" + tag] = time.time() - start
        answers = {}
        conversions = start_conversions(args, twins, check.requests, edition_pool, "-dynamic",
                                        directory, [descriptors])
        started.append((edition, directory, twins, check, different, answers, captured(conversions, answers)))

    results = []
    for edition, directory, twins, check, different, answers, conversions in started:
        check_answers(twins, check, " (editions %s, dynamic)" % edition, timings, conversions)
        if ours is not None:
            for item in twins:
                got, want = answers["encoded"].get(item["id"], {}), ours.get(item["id"], {})
                for key in ("json", "errors"):
                    if got.get(key, {}) != want.get(key, {}):
                        different.setdefault(item["id"], []).append(
                            "DIFFERENT %s #%d: the dynamic transcoder's JSON (%s) of the editions type is not "
                            "the original's\n  editions: %s\n  original: %s" % (
                                item["type"], item["index"], key, json.dumps(got.get(key))[:1500],
                                json.dumps(want.get(key))[:1500]))
        results.append(edition_result(args, edition, directory, twins, check, different, ours is not None))
    for phase, seconds in timings.items():
        print("realworld: %s took %.1f s" % (phase, seconds))
    for result in results:
        for line in result["lines"]:
            print(line)
    with open(os.path.join(args.work, "editions-summary.json"), "w", encoding="utf-8") as f:
        json.dump({"editions": results, "messages": len(items), "types": len(types), "files": len(files),
                   "timings_s": {k: round(v, 1) for k, v in timings.items()}}, f, indent=2)
    return 0 if all(r["ok"] for r in results) else 1


def same_json(a, b):
    """Whether two JSON texts are one value: object members in any order
    (Python writes a map in the order of its hash table, which changes from
    one process to the next)."""
    return a == b or (b is not None and json.loads(a) == json.loads(b))


def read_answers(path):
    """A driver's answers in the file `path`, by id."""
    with open(path, encoding="utf-8") as f:
        return {a["id"]: a for a in map(json.loads, f)}


def run_answers(work, items):
    """The dynamic transcoder's JSON of `items` that `run` left in `work`
    (beside the requests, Python's JSON of them), by id, or None if it left
    none; an error if they are other messages (another COUNT or SEED)."""
    requests, answers = (os.path.join(work, "encode-dynamic.%s.jsonl" % end) for end in ("in", "out"))
    if not os.path.exists(answers):
        return None
    asked = read_answers(requests)
    if len(asked) != len(items) or any(asked[i["id"]]["binary"] != i["bytes"].hex() for i in items):
        raise SystemExit("roundtrip.py editions: %s holds the answers for other messages: give the COUNT and SEED "
                         "of its run" % work)
    return read_answers(answers)


def captured(conversions, answers):
    """`conversions` (from start_conversions), keeping the encode answers in
    `answers["encoded"]`."""
    def wait():
        encoded, decoded = conversions()
        answers["encoded"] = encoded
        return encoded, decoded
    return wait


def twin_items(items, pool):
    """`items` read as binary by the same types of `pool`, and by id the
    reports of those that do not re-encode to the same bytes."""
    twins, different, classes = [], {}, {}
    for item in items:
        cls = classes.get(item["type"])
        if cls is None:
            cls = classes[item["type"]] = message_factory.GetMessageClass(pool.FindMessageTypeByName(item["type"]))
        try:
            msg = cls.FromString(item["bytes"])
            again = msg.SerializeToString(deterministic=True)
        except Exception as e:  # noqa: BLE001 (reported)
            msg, again = cls(), "Python cannot read it: %s" % e
        if again != item["bytes"]:
            different.setdefault(item["id"], []).append(
                "DIFFERENT %s #%d: the editions type does not re-encode it to its bytes: %s" % (
                    item["type"], item["index"], again if isinstance(again, str) else again.hex()[:1500]))
        twins.append(dict(item, cls=cls, message=msg))
    return twins, different


def edition_result(args, edition, directory, twins, check, different, compared_ours):
    """The summary of one edition: its lines (the failures printed first)."""
    bad = sorted(check.failures)
    if bad:
        print("realworld: editions %s: the dynamic transcoder's mismatches:" % edition)
        print_failures(args, check, bad)
    reports = [r for item_id in sorted(different) for r in different[item_id]]
    for r in reports[:args.max_failures]:
        print(r)
    if len(reports) > args.max_failures:
        print("... and %d more differences" % (len(reports) - args.max_failures))
    generated_path = os.path.join(directory, "generated.json")
    generated = {"identical": None, "line": "generated code not compared"}
    if os.path.exists(generated_path):
        with open(generated_path, encoding="utf-8") as f:
            generated = json.load(f)
    agree, same = len(twins) - len(bad), len(twins) - len(different)
    prefix = "realworld: editions %s: " % edition
    lines = [prefix + "dynamic transcoder: %d of %d messages agree; %d conversions checked" % (
        agree, len(twins), check.checks)]
    if check.tolerated:
        lines.append(prefix + "KNOWN (robustness/diff/KNOWN_DIFFERENCES.md): %s" % check.tolerated)
    lines.append(prefix + "%d of %d messages the same as the original's: binary, Python's JSON%s (every option set)"
                 % (same, len(twins), " and the dynamic transcoder's" if compared_ours else ""))
    if bad or different:
        lines.append(prefix + "%d messages DISAGREE, %d DIFFER from the original's, types: %s" % (
            len(bad), len(different),
            ", ".join(sorted({twins[i]["type"] for i in set(bad) | set(different)})[:50])))
    summary = prefix + "%s; dynamic transcoder: %d of %d messages agree" % (generated["line"], agree, len(twins))
    lines.append(summary)
    return {"edition": edition, "lines": lines, "summary": summary, "generated_identical": generated["identical"],
            "agree": agree, "same_as_original": same, "messages": len(twins), "conversions": check.checks,
            "disagree": len(bad), "different": len(different), "known_differential_rules": check.tolerated,
            "ok": not bad and not different and generated["identical"] is not False}


def edition_dir(text):
    """An `EDITION=DIR` argument as a pair."""
    edition, sep, directory = text.partition("=")
    if not sep or not edition or not directory:
        raise argparse.ArgumentTypeError("expected EDITION=DIR, got %r" % text)
    return edition, directory


def main(argv):
    """Command line: `run` or `slice-files` (see the module doc)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("driver", nargs="?")
    r.add_argument("work")
    r.add_argument("--count", type=int, default=20, help="random messages per type")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--self-check", action="store_true", help="Python on both sides")
    r.add_argument("--descriptors", help="descriptor set (with --self-check)")
    r.add_argument("--files", help="file with the slice's file names (with --self-check)")
    r.add_argument("--runtime-types", help="the runtime's google.protobuf descriptor set (with --self-check)")
    r.add_argument("--max-failures", type=int, default=30)
    e = sub.add_parser("editions")
    e.add_argument("driver")
    e.add_argument("work")
    e.add_argument("--edition", type=edition_dir, action="append", required=True, metavar="EDITION=DIR",
                   help="an edition and the directory with its copy's descriptors.bin")
    e.add_argument("--count", type=int, default=20, help="random messages per type (as in run)")
    e.add_argument("--seed", type=int, default=1)
    e.add_argument("--max-failures", type=int, default=30)
    s = sub.add_parser("slice-files")
    s.add_argument("slice")
    s.add_argument("roots", nargs="+")
    args = parser.parse_args(argv[1:])
    if args.command == "slice-files":
        print("\n".join(slice_files(args.slice, args.roots)))
        return 0
    if args.command == "editions":
        return editions(args)
    if args.self_check == (args.driver is not None) or (args.self_check and not (args.descriptors and args.files and args.runtime_types)):
        parser.error("give DRIVER, or --self-check with --descriptors and --files")
    return run(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
