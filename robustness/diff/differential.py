#!/usr/bin/env python3
"""The Python side of the differential test (run by run.sh).

Python protobuf (its json_format, and its binary format: upb) is the
independent implementation. Message classes are built at run time from the
descriptor set `diff-corpus` writes (protoc's, editions files as they are:
Python reads their features itself), so no generated _pb2 modules are needed.

  differential.py valid DIR       parse our JSON of each message in DIR/valid.jsonl,
                                  compare with the binary; hold prost's binary of
                                  the editions messages to Python's reading of the
                                  random input or of the proto2/proto3 original it
                                  came from; write DIR/python.jsonl (Python's JSON
                                  and binary of each message) for `diff-corpus check`
  differential.py invalid CORPUS RUST_VERDICTS
                                  run the hand-made corpus through Python, compare
                                  the accept/reject verdicts with ours

Disagreements listed in KNOWN_DIFFERENCES.md (by rule name or case id) are
reported but do not fail the run; any other disagreement does.
"""

import json
import math
import os
import re
import sys

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory

# Importing the well-known types puts them into the default pool, which the
# test protos import and which json_format resolves Any type URLs against.
from google.protobuf import (  # noqa: F401
    any_pb2, duration_pb2, empty_pb2, field_mask_pb2, struct_pb2, timestamp_pb2, wrappers_pb2,
)

HERE = os.path.dirname(os.path.abspath(__file__))

# How each label of our encodings maps to MessageToJson's arguments.
OPTION_SETS = {
    "default": {},
    "proto_names": {"preserving_proto_field_name": True},
    "all": {
        "preserving_proto_field_name": True,
        "always_print_fields_with_no_presence": True,
        "use_integers_for_enums": True,
    },
    "pretty_ascii": {"indent": 2, "ensure_ascii": True},
}

TYPE_TAGS = {
    "P3": "protobuf_test_messages.proto3.TestAllTypesProto3",
    "P2": "protobuf_test_messages.proto2.TestAllTypesProto2",
}


def load_pool(descriptor_file):
    """Adds the files of the descriptor set that the default pool lacks."""
    pool = descriptor_pool.Default()
    fds = descriptor_pb2.FileDescriptorSet()
    with open(descriptor_file, "rb") as f:
        fds.ParseFromString(f.read())
    for file in fds.file:
        try:
            pool.FindFileByName(file.name)
        except KeyError:
            pool.Add(file)
    return pool


def message_class(pool, name):
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(name))


def known_differences():
    """Rule names and case ids listed in KNOWN_DIFFERENCES.md (first table column)."""
    with open(os.path.join(HERE, "KNOWN_DIFFERENCES.md"), encoding="utf-8") as f:
        return set(re.findall(r"^\| `([^`]+)` \|", f.read(), re.M))


def canonical(msg, pool):
    """Python's own JSON of `msg`, keys sorted: equal for equal messages even
    where the binary form is not (Any packs its message's bytes, and a
    packed map's byte order is not deterministic)."""
    return json_format.MessageToJson(msg, indent=None, sort_keys=True, descriptor_pool=pool)


def same_message(got, expected, want_bytes, pool):
    if got.SerializeToString(deterministic=True) == want_bytes:
        return True
    return canonical(got, pool) == canonical(expected, pool)


NEGATIVE_ZERO = re.compile(r"-0\.0(?![0-9eE])")


def explain(error, got, expected, pool):
    """The KNOWN_DIFFERENCES.md rule that explains a disagreement on valid
    input, recognised by Python's error or by how the messages differ."""
    if "Float value too large" in error or "Float value too small" in error:
        return "float-extremes-rejected"
    if 'Message type "google.protobuf.Empty" has no field named "value"' in error:
        return "any-empty-value-key"
    if got is not None and canonical(got, pool) == NEGATIVE_ZERO.sub("0.0", canonical(expected, pool)):
        return "negative-zero-integer-text"
    return None


def varint(data, pos):
    value, shift = 0, 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def records(data, pos, descriptor, end_group=None):
    """The fields of the message (or group) at `data[pos:]`: each record
    as (number, wire type, value), the value of a message or group field
    its own records, an integer for a varint (overlong or not), bytes for
    the rest; in a map entry, fields at their default left out (encoders
    may leave them out or not). Returns them sorted, and where they end."""
    out = []
    entry = descriptor is not None and descriptor.GetOptions().map_entry
    while pos < len(data):
        key, pos = varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 4:
            if number != end_group:
                raise ValueError("unexpected end of group %d" % number)
            return sorted(out), pos
        field = descriptor.fields_by_number.get(number) if descriptor is not None else None
        nested = field.message_type if field is not None else None
        if wire == 0:
            value, pos = varint(data, pos)
        elif wire in (1, 5):
            width = 8 if wire == 1 else 4
            value, pos = data[pos:pos + width], pos + width
        elif wire == 2:
            length, pos = varint(data, pos)
            value, pos = data[pos:pos + length], pos + length
            if nested is not None:
                value = tuple(records(value, 0, nested)[0])
        elif wire == 3:
            value, pos = records(data, pos, nested, end_group=number)
            value = tuple(value)
        else:
            raise ValueError("wire type %d" % wire)
        if entry and value in (0, b"", b"\0" * 4, b"\0" * 8, ()):
            continue
        out.append((number, wire, value))
    if end_group is not None:
        raise ValueError("group %d not ended" % end_group)
    return sorted(out), pos


def wire_problems(cls, binary, expected):
    """How prost's `binary` of a message differs in form from Python's
    encoding of the message it reads from it (`expected`): a field Python
    does not know (a wrong wire type reads as an unknown field), or another
    wire form of a field (packed where Python expands, a length-prefixed
    message where it writes a group, a value written where Python leaves
    it out). Fields are compared by number, repeated values and map entries
    as sets: their order is the parsed messages' business."""
    problems = []
    want = expected.SerializeToString(deterministic=True)
    known = cls()
    known.CopyFrom(expected)
    known.DiscardUnknownFields()
    if known.SerializeToString(deterministic=True) != want:
        problems.append("Python reads fields of prost's binary as unknown fields")
    ours, theirs = records(binary, 0, cls.DESCRIPTOR)[0], records(want, 0, cls.DESCRIPTOR)[0]
    if ours != theirs:
        only_ours = [r for r in ours if r not in theirs]
        only_theirs = [r for r in theirs if r not in ours]
        problems.append("prost writes %s\n  where Python writes %s" % (str(only_ours)[:800], str(only_theirs)[:800]))
    return problems


def binary_problems(entry, cls, expected, pool):
    """How prost's binary of an editions message (read by Python into
    `expected`) disagrees with Python's own reading of where it came from:

    - `input` (random binary with odd wire forms and unknown fields, which
      prost decoded and encoded again): Python reads it to the same message,
      unknown fields aside (prost drops them);
    - `original` (the proto2/proto3 message an editions copy was decoded
      from): its binary read as the copy is `expected`, read as itself it
      writes the same JSON as `expected` under every option set, and
      `expected`'s binary read as the original is the original.

    Each problem comes with the KNOWN_DIFFERENCES.md rule that explains it,
    or None.
    """
    problems = []
    want = expected.SerializeToString(deterministic=True)
    if "input" in entry:
        got = cls()
        got.ParseFromString(bytes.fromhex(entry["input"]))
        got.DiscardUnknownFields()
        if not same_message(got, expected, want, pool):
            theirs, ours = canonical(got, pool), canonical(expected, pool)
            # prost's encoder compares a map value or an implicit-presence
            # field with its default by `==`, which -0.0 equals.
            unsigned = [NEGATIVE_ZERO.sub("0.0", text) for text in (theirs, ours)]
            rule = "prost-drops-negative-zero" if unsigned[0] == unsigned[1] else None
            problems.append(("Python reads the input prost read as %s\n  prost's encoding as %s"
                             % (theirs[:800], ours[:800]), rule))
    if "original" in entry:
        original_cls = message_class(pool, entry["original"]["type"])
        original_bytes = bytes.fromhex(entry["original"]["binary"])
        as_copy = cls()
        as_copy.ParseFromString(original_bytes)
        if not same_message(as_copy, expected, want, pool):
            problems.append(("Python reads the original's binary as %s\n  prost's encoding of the copy as %s"
                            % (canonical(as_copy, pool)[:800], canonical(expected, pool)[:800]), None))
        original = original_cls()
        original.ParseFromString(original_bytes)
        for label, kwargs in OPTION_SETS.items():
            # Keys sorted: Python writes map entries in no fixed order.
            kwargs = {"indent": None, **kwargs, "sort_keys": True, "descriptor_pool": pool}
            theirs = json_format.MessageToJson(original, **kwargs)
            ours = json_format.MessageToJson(expected, **kwargs)
            if theirs != ours:
                problems.append(("(%s) Python writes the original as %s\n  the copy as %s"
                                % (label, theirs[:800], ours[:800]), None))
        back = original_cls()
        back.ParseFromString(want)
        if not same_message(back, original, original.SerializeToString(deterministic=True), pool):
            problems.append(("Python reads the copy's binary as the original %s\n  not %s"
                            % (canonical(back, pool)[:800], canonical(original, pool)[:800]), None))
    return problems


def check_valid(directory):
    """Python parses our JSON to the same message; write its own JSON."""
    pool = load_pool(os.path.join(directory, "descriptors.bin"))
    known = known_differences()
    n, checked, binaries, unexpected, tolerated = 0, 0, 0, [], {}
    with open(os.path.join(directory, "valid.jsonl"), encoding="utf-8") as src, \
            open(os.path.join(directory, "python.jsonl"), "w", encoding="utf-8") as out:
        for n, line in enumerate(src, 1):
            entry = json.loads(line)
            cls = message_class(pool, entry["type"])
            expected = cls()
            expected.ParseFromString(bytes.fromhex(entry["binary"]))
            want = expected.SerializeToString(deterministic=True)
            for label, ours in entry["json"].items():
                checked += 1
                problem, got = None, None
                try:
                    got = json_format.Parse(ours, cls(), descriptor_pool=pool)
                    if not same_message(got, expected, want, pool):
                        problem = "parsed to a different message: " + canonical(got, pool)[:800]
                except Exception as e:  # any exception is a rejection
                    problem = "rejected: %s: %s" % (type(e).__name__, e)
                if problem:
                    rule = explain(problem, got, expected, pool)
                    if rule in known:
                        tolerated[rule] = tolerated.get(rule, 0) + 1
                    else:
                        unexpected.append("line %d (%s): Python %s\n  our JSON: %s" % (n, label, problem, ours[:800]))
            binary = bytes.fromhex(entry["binary"])
            for problem in wire_problems(cls, binary, expected):
                unexpected.append("line %d (wire form): %s" % (n, problem))
            if "input" in entry or "original" in entry:
                binaries += 1
                for problem, rule in binary_problems(entry, cls, expected, pool):
                    if rule in known:
                        tolerated[rule] = tolerated.get(rule, 0) + 1
                    else:
                        unexpected.append("line %d (binary): %s" % (n, problem))
            # Python's JSON and binary of the message, for diff-corpus check.
            theirs = {}
            for label, kwargs in OPTION_SETS.items():
                try:
                    theirs[label] = json_format.MessageToJson(expected, **{"indent": None, **kwargs})
                except Exception as e:
                    unexpected.append("line %d (%s): Python cannot encode it: %s" % (n, label, e))
            out.write(json.dumps({"type": entry["type"], "binary": entry["binary"], "json": theirs,
                                  "python_binary": want.hex()}) + "\n")
    for u in unexpected:
        print("MISMATCH " + u)
    print("differential valid: %d of our encodings parsed by Python, %d binaries in Python's wire form, "
          "%d editions binaries held to Python's reading of their source, %d unexpected mismatches, "
          "tolerated: %s" % (checked, n, binaries, len(unexpected), tolerated or "none"))
    return not unexpected


def raw_bytes(doc):
    """The corpus document with {{xNN}} placeholders replaced by raw bytes."""
    return re.sub(rb"\{\{x([0-9a-fA-F]{2})\}\}", lambda m: bytes([int(m.group(1), 16)]), doc.encode("utf-8"))


def read_cases(corpus):
    with open(corpus, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            case_id, tag, doc = line.split(" ", 2)
            yield case_id, tag, raw_bytes(doc)


def python_verdict(pool, tag, doc):
    cls = message_class(pool, TYPE_TAGS[tag])
    try:
        text = doc.decode("utf-8")  # json_format takes text; invalid UTF-8 is a rejection
        json_format.Parse(text, cls(), descriptor_pool=pool)
        return True, ""
    except Exception as e:
        return False, "%s: %s" % (type(e).__name__, e)


def check_invalid(corpus, rust_verdicts, descriptor_file):
    pool = load_pool(descriptor_file)
    known = known_differences()
    ours = {}
    with open(rust_verdicts, encoding="utf-8") as f:
        for line in f:
            v = json.loads(line)
            ours[v["id"]] = v
    total, agree, rejected_by_both, unexpected, tolerated = 0, 0, 0, [], []
    for case_id, tag, doc in read_cases(corpus):
        total += 1
        accepted, error = python_verdict(pool, tag, doc)
        rust = ours[case_id]
        if accepted == rust["accepted"]:
            agree += 1
            rejected_by_both += not accepted
            if case_id in known:
                unexpected.append("%s is listed in KNOWN_DIFFERENCES.md but both now agree" % case_id)
            continue
        line = "%s %s: Python %s, protojsonx %s\n  document: %r\n  Python: %s\n  protojsonx: %s" % (
            case_id, tag, "accepts" if accepted else "rejects",
            "accepts" if rust["accepted"] else "rejects", doc[:200], error[:300], rust["error"][:300])
        (tolerated if case_id in known else unexpected).append(line)
    for t in tolerated:
        print("KNOWN " + t)
    for u in unexpected:
        print("MISMATCH " + u)
    print("differential invalid: %d documents, %d verdicts agree (%d rejected by both), %d known differences, %d unexpected"
          % (total, agree, rejected_by_both, len(tolerated), len(unexpected)))
    return not unexpected


def main(argv):
    if len(argv) == 3 and argv[1] == "valid":
        return 0 if check_valid(argv[2]) else 1
    if len(argv) == 5 and argv[1] == "invalid":
        return 0 if check_invalid(argv[2], argv[3], argv[4]) else 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
