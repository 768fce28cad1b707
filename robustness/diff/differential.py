#!/usr/bin/env python3
"""The Python side of the differential test (run by run.sh).

Python protobuf (its json_format) is the independent implementation. Message
classes are built at run time from the descriptor set `diff-corpus` writes,
so no protoc and no generated _pb2 modules are needed.

  differential.py valid DIR       parse our JSON of each message in DIR/valid.jsonl,
                                  compare with the binary; write DIR/python.jsonl
                                  (Python's JSON of each message) for `diff-corpus check`
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


def check_valid(directory):
    """Python parses our JSON to the same message; write its own JSON."""
    pool = load_pool(os.path.join(directory, "descriptors.bin"))
    known = known_differences()
    checked, unexpected, tolerated = 0, [], {}
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
            # Python's JSON of the message, for diff-corpus check.
            theirs = {}
            for label, kwargs in OPTION_SETS.items():
                try:
                    theirs[label] = json_format.MessageToJson(expected, **{"indent": None, **kwargs})
                except Exception as e:
                    unexpected.append("line %d (%s): Python cannot encode it: %s" % (n, label, e))
            out.write(json.dumps({"type": entry["type"], "binary": entry["binary"], "json": theirs}) + "\n")
    for u in unexpected:
        print("MISMATCH " + u)
    print("differential valid: %d of our encodings parsed by Python, %d unexpected mismatches, tolerated: %s"
          % (checked, len(unexpected), tolerated or "none"))
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
