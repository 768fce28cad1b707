#!/usr/bin/env python3
"""Converts proto2/proto3 files to edition 2023 or 2024 with the same meaning
(the conversion Google's migration tool, prototiller, makes), and checks
that the converted copies mean what the originals mean.

Why text-level: the edits (syntax line, labels, option lists, groups,
reserved names, file features) are made in place on the original text,
found by a tokenizer and a small recursive-descent parser of the .proto
grammar; everything else is copied byte for byte, so comments and layout
stay. Printing a parsed descriptor would lose the comments and reorder the
file.

  editions.py convert --edition 2023|2024 SRC_ROOT DST_ROOT [FILE...] [--slice SLICE]
  editions.py check   --edition 2023|2024 SRC_ROOT DST_ROOT [FILE...] [--slice SLICE]

FILE is relative to SRC_ROOT; SRC_ROOT and DST_ROOT may each be roots joined
by ':' (one DST per SRC, searched in order like protoc's -I). --slice reads a
realworld/slice.txt list (a directory entry: every *.proto directly in it).
realworld/editions.sh runs both commands over the real-world slice.

convert writes the copy of every FILE and of every file they import that is
under a SRC root to the same path under the matching DST root. Imports under
google/protobuf/ are copied unchanged; files already in editions too.
  proto3: `option features.field_presence = IMPLICIT;`, `optional` ->
          `[features.field_presence = EXPLICIT]` (not on extensions),
          `[packed = false]` -> `[features.repeated_field_encoding = EXPANDED]`
  proto2: file features enum_type = CLOSED, repeated_field_encoding =
          EXPANDED, utf8_validation = NONE, json_format = LEGACY_BEST_EFFORT;
          `required` -> `[features.field_presence = LEGACY_REQUIRED]`,
          `[packed = true]` -> `[features.repeated_field_encoding = PACKED]`,
          `group G = n {..}` -> `message G {..}` and
          `G g = n [features.message_encoding = DELIMITED];` (the message
          goes before the oneof or extend block holding the group)
  both:   `reserved "name"` -> `reserved name`; `java_string_check_utf8`
          (refused in editions) dropped
  2024:   features enforce_naming_style = STYLE_LEGACY and
          default_symbol_visibility = EXPORT_ALL; `import weak` -> `import`;
          the C++/Java-only options 2024 refuses (`ctype`,
          `java_multiple_files`) dropped
With --lang-features those C++/Java options become the language features
protoc's errors point to instead (`features.(pb.cpp).string_type`,
`nest_in_file_class = YES` on the top-level types of a file without
`java_multiple_files = true`, `features.(pb.java).utf8_validation = VERIFY`),
importing google/protobuf/cpp_features.proto or java_features.proto.

check compiles originals (-I SRC roots) and copies (-I DST roots) with protoc
(PROTOC, or the protoc-bin-vendored binary in cargo's registry, whose
include/ directory comes last), loads both into protobuf pools (protobuf
with editions support: the venv of robustness/diff/venv.sh) and compares
every message, field, extension, oneof, enum, enum value and service of the
converted files: names, numbers, types (group = DELIMITED message), json_name,
presence, packed, required, defaults, real oneofs, map-ness, closed enums,
resolved features, and every option but `features` and the dropped ones.
It prints one summary line (and the differences), exit status 1 on any.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

EDITIONS = ("2023", "2024")

# ---------------------------------------------------------------------------
# Tokenizer


class Tok:
    __slots__ = ("kind", "text", "start", "end")

    def __init__(self, kind, text, start, end):
        self.kind = kind  # "id", "num", "str", "sym"
        self.text = text
        self.start = start
        self.end = end

    def __repr__(self):
        return "Tok(%s %r @%d)" % (self.kind, self.text, self.start)


_TOKEN_RE = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<lc>//[^\n]*)
  | (?P<bc>/\*.*?\*/)
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<num>\.?[0-9](?:[eE][+-]|[A-Za-z0-9_.])*)
  | (?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<sym>.)
    """,
    re.VERBOSE | re.DOTALL,
)


def tokenize(text):
    toks = []
    pos = 0
    n = len(text)
    while pos < n:
        m = _TOKEN_RE.match(text, pos)
        if m is None:  # an unterminated block comment or string
            raise ParseError("cannot tokenize at offset %d" % pos)
        kind = m.lastgroup
        if kind not in ("ws", "lc", "bc"):
            toks.append(Tok(kind, m.group(), m.start(), m.end()))
        pos = m.end()
    return toks


class ParseError(Exception):
    pass


def unquote(s):
    """The value of a string token (the escapes .proto files use)."""
    body = s[1:-1]
    return body.encode("latin-1", "backslashreplace").decode("unicode_escape") if "\\" in body else body


# ---------------------------------------------------------------------------
# Converter


class Edit:
    __slots__ = ("start", "end", "text", "seq")

    def __init__(self, start, end, text, seq):
        self.start, self.end, self.text, self.seq = start, end, text, seq


class OptList:
    """A `[...]` option list: its bracket tokens and entries, each entry a
    (first token index, last token index, name) triple."""

    def __init__(self, lb, rb, entries):
        self.lb, self.rb, self.entries = lb, rb, entries


class Converter:
    def __init__(self, text, edition, lang_features=False, path="<input>"):
        self.src = text
        self.edition = edition
        self.lang = lang_features
        self.path = path
        self.toks = tokenize(text)
        self.i = 0
        self.edits = []
        self.seq = 0
        self.syntax = None  # "proto2" / "proto3" / "editions"
        self.imports = []  # (kind, path)
        self.need_imports = set()
        self.first_import = None  # offset of the first import statement
        self.notes = []  # human-readable notes on dropped options
        self.java_multiple_files = False
        self.top_level_bodies = []  # offsets after the `{` of top-level types

    # -- token helpers ------------------------------------------------------

    def peek(self, k=0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def at(self, text, k=0):
        t = self.peek(k)
        return t is not None and t.kind != "str" and t.text == text

    def next(self):
        t = self.peek()
        if t is None:
            raise ParseError("%s: unexpected end of file" % self.path)
        self.i += 1
        return t

    def expect(self, text):
        t = self.next()
        if t.text != text or t.kind == "str":
            raise ParseError("%s:%d: expected %r, found %r" % (self.path, self.line(t), text, t.text))
        return t

    def line(self, t):
        return self.src.count("\n", 0, t.start) + 1

    def skip_statement(self):
        """Skips to the `;` ending the statement (bracket-aware); returns
        the index of the `;` token."""
        depth = 0
        while True:
            t = self.next()
            if t.kind == "sym":
                if t.text in "([{<" and (t.text != "<" or depth > 0):
                    depth += 1
                elif t.text in ")]}>" and (t.text != ">" or depth > 0):
                    depth -= 1
                elif t.text == ";" and depth == 0:
                    return self.i - 1

    def skip_block(self):
        """At a `{`: skips to after its matching `}`; returns the `}` index."""
        self.expect("{")
        depth = 1
        while depth:
            t = self.next()
            if t.kind == "sym":
                if t.text == "{":
                    depth += 1
                elif t.text == "}":
                    depth -= 1
        return self.i - 1

    # -- edits --------------------------------------------------------------

    def edit(self, start, end, text):
        self.edits.append(Edit(start, end, text, self.seq))
        self.seq += 1

    def render(self, start, end, edits):
        edits = sorted(edits, key=lambda e: (e.start, e.end != e.start, e.seq))
        out = []
        pos = start
        for e in edits:
            if e.start < pos:
                raise ParseError("%s: overlapping edits at offset %d" % (self.path, e.start))
            out.append(self.src[pos:e.start])
            out.append(e.text)
            pos = e.end
        out.append(self.src[pos:end])
        return "".join(out)

    def take_edits(self, start, end):
        """Removes and returns the edits inside [start, end)."""
        inside = [e for e in self.edits if e.start >= start and e.end <= end and not (e.start == e.end == end)]
        self.edits = [e for e in self.edits if e not in inside]
        return inside

    def indent_of(self, pos):
        """The whitespace at the start of the line holding offset pos."""
        ls = self.src.rfind("\n", 0, pos) + 1
        m = re.match(r"[ \t]*", self.src[ls:])
        return m.group()

    def delete_token_and_space(self, t):
        end = t.end
        while end < len(self.src) and self.src[end] in " \t":
            end += 1
        self.edit(t.start, end, "")

    def delete_statement(self, first, last):
        """Deletes tokens first..last (indices), with the whole line when
        the statement is alone on it."""
        start, end = self.toks[first].start, self.toks[last].end
        ls = self.src.rfind("\n", 0, start) + 1
        le = self.src.find("\n", end)
        le = len(self.src) if le < 0 else le
        if self.src[ls:start].strip() == "" and self.src[end:le].strip() == "":
            start, end = ls, min(le + 1, len(self.src))
        self.edit(start, end, "")

    # -- file ---------------------------------------------------------------

    def convert(self):
        """Returns the converted text, or None when the file is already in
        editions syntax."""
        toks = self.toks
        syntax_stmt = None
        package_end = None
        # The syntax line, then the top-level statements.
        if self.at("syntax"):
            s = self.i
            self.next()
            self.expect("=")
            v = self.next()
            self.expect(";")
            self.syntax = unquote(v.text)
            syntax_stmt = (s, self.i - 1)
        elif self.at("edition"):
            self.syntax = "editions"
            return None
        else:
            self.syntax = "proto2"
        if self.syntax not in ("proto2", "proto3"):
            raise ParseError("%s: unknown syntax %r" % (self.path, self.syntax))

        while self.peek() is not None:
            t = self.peek()
            if t.text == ";" and t.kind == "sym":
                self.next()
            elif self.at("package"):
                end = self.skip_statement()
                package_end = toks[end].end
            elif self.at("import"):
                self.parse_import()
            elif self.at("option"):
                self.parse_file_option()
            elif self.at("message"):
                self.parse_message(top=True)
            elif self.at("enum"):
                self.parse_enum(top=True)
            elif self.at("service"):
                self.parse_service()
            elif self.at("extend"):
                self.parse_extend()
            else:
                raise ParseError("%s:%d: unexpected %r at top level" % (self.path, self.line(t), t.text))

        # The edition line.
        edition_line = 'edition = "%s";' % self.edition
        if syntax_stmt is not None:
            self.edit(toks[syntax_stmt[0]].start, toks[syntax_stmt[1]].end, edition_line)
            anchor = toks[syntax_stmt[1]].end
        else:
            first = toks[0].start if toks else len(self.src)
            # (A file of comments alone may end inside a `//` comment.)
            lead = "\n" if not toks and self.src and not self.src.endswith("\n") else ""
            self.edit(first, first, lead + edition_line + "\n\n")
            anchor = None
        # File-level features, after the package line (or the edition line).
        feats = []
        if self.syntax == "proto3":
            feats.append("features.field_presence = IMPLICIT")
        else:
            feats += [
                "features.enum_type = CLOSED",
                "features.repeated_field_encoding = EXPANDED",
                "features.utf8_validation = NONE",
                "features.json_format = LEGACY_BEST_EFFORT",
            ]
        if self.edition == "2024":
            feats += [
                "features.enforce_naming_style = STYLE_LEGACY",
                "features.default_symbol_visibility = EXPORT_ALL",
            ]
        # Java nesting (2024, --lang-features): keep the classes nested in
        # the outer class as they were without java_multiple_files.
        if self.edition == "2024" and not self.lang and not self.java_multiple_files and self.top_level_bodies:
            self.notes.append("no java_multiple_files = true: Java types no longer nested in the outer class")
        if self.edition == "2024" and self.lang and not self.java_multiple_files and self.top_level_bodies:
            self.need_imports.add("google/protobuf/java_features.proto")
            opt = "option features.(pb.java).nest_in_file_class = YES;"
            for pos, indent in self.top_level_bodies:
                if re.match(r"[ \t]*(//[^\n]*)?\n", self.src[pos:]):
                    self.edit(pos, pos, "\n%s  %s" % (indent, opt))
                else:  # a body on the `{` line
                    self.edit(pos, pos, " " + opt)
        # Imports the language features need: before the first import, or
        # in front of the file options when there is none.
        new = sorted(self.need_imports - {p for _, p in self.imports})
        imports = "".join('import "%s";\n' % p for p in new)
        if imports and self.first_import is not None:
            self.edit(self.first_import, self.first_import, imports)
            imports = ""
        block = (imports + "\n" if imports else "") + "".join("option %s;\n" % f for f in feats)
        pos = package_end if package_end is not None else anchor
        if pos is not None:
            # After a comment trailing the statement on its line.
            m = re.match(r"[ \t]*(//[^\n]*|/\*[^\n]*?\*/[ \t]*)?(?=\n|$)", self.src[pos:])
            if m:
                pos += m.end()
            # A blank line before the block, and after it unless one follows.
            tail = "" if re.match(r"[ \t]*(\n[ \t]*\n|$)", self.src[pos:]) else "\n"
            self.edit(pos, pos, "\n\n" + block.rstrip("\n") + tail)
        else:
            first = toks[0].start if toks else len(self.src)
            self.edit(first, first, block + "\n")
        return self.render(0, len(self.src), self.edits)

    def parse_import(self):
        t = self.expect("import")
        if self.first_import is None:
            self.first_import = t.start
        kind = ""
        if self.at("public") or self.at("weak"):
            k = self.next()
            kind = k.text
            if kind == "weak" and self.edition == "2024":
                self.delete_token_and_space(k)
                self.notes.append("import weak -> import")
        p = self.next()
        if p.kind != "str":
            raise ParseError("%s:%d: import path expected" % (self.path, self.line(p)))
        self.expect(";")
        self.imports.append((kind, unquote(p.text)))

    def parse_file_option(self):
        first = self.i
        self.expect("option")
        name_toks = []
        while not self.at("="):
            name_toks.append(self.next().text)
        name = "".join(name_toks)
        self.expect("=")
        last = self.skip_statement()
        value = self.toks[last - 1].text
        if name == "java_multiple_files":
            self.java_multiple_files = value == "true"
            if self.edition == "2024":
                self.delete_statement(first, last)
        elif name == "java_string_check_utf8":
            if self.lang and value == "true":
                self.need_imports.add("google/protobuf/java_features.proto")
                self.edit(self.toks[first].start, self.toks[last].end,
                          "option features.(pb.java).utf8_validation = VERIFY;")
            else:
                self.delete_statement(first, last)
                if value == "true":
                    self.notes.append("java_string_check_utf8 = true dropped")

    # -- messages -----------------------------------------------------------

    def parse_message(self, top=False):
        self.expect("message")
        self.next()  # name
        self.parse_message_body(top)

    def parse_message_body(self, top=False):
        lb = self.expect("{")
        if top:
            self.top_level_bodies.append((lb.end, self.indent_of(lb.start)))
        while not self.at("}"):
            self.parse_message_statement()
        return self.next()

    def parse_message_statement(self):
        t = self.peek()
        if t is None:
            raise ParseError("%s: unexpected end of file in a message" % self.path)
        if t.kind == "sym" and t.text == ";":
            self.next()
        elif self.at("option"):
            self.skip_statement()
        elif self.at("message"):
            self.parse_message()
        elif self.at("enum"):
            self.parse_enum()
        elif self.at("extend"):
            self.parse_extend()
        elif self.at("oneof"):
            self.parse_oneof()
        elif self.at("reserved"):
            self.parse_reserved()
        elif self.at("extensions"):
            self.skip_statement()
        else:
            self.parse_field(context="message")

    def parse_oneof(self):
        start = self.i
        self.expect("oneof")
        self.next()  # name
        self.expect("{")
        while not self.at("}"):
            if self.at(";"):
                self.next()
            elif self.at("option"):
                self.skip_statement()
            else:
                self.parse_field(context="oneof", parent_start=start)
        self.next()

    def parse_extend(self):
        start = self.i
        self.expect("extend")
        while not self.at("{"):
            self.next()
        self.expect("{")
        while not self.at("}"):
            if self.at(";"):
                self.next()
            else:
                self.parse_field(context="extend", parent_start=start)
        self.next()

    def parse_reserved(self):
        self.expect("reserved")
        while True:
            t = self.next()
            if t.kind == "sym" and t.text == ";":
                return
            if t.kind == "str":
                self.edit(t.start, t.end, unquote(t.text))

    def parse_option_list(self):
        """At `[`: parses the list, returns an OptList."""
        lb = self.i
        self.expect("[")
        entries = []
        depth = 0
        first = self.i
        while True:
            t = self.next()
            if t.kind != "sym":
                continue
            if t.text in "([{":
                depth += 1
            elif t.text in ")}" or (t.text == "]" and depth > 0):
                depth -= 1
            elif t.text == "]" and depth == 0:
                if self.i - 1 > first:
                    entries.append(self.entry(first, self.i - 2))
                return OptList(lb, self.i - 1, entries)
            elif t.text == "," and depth == 0:
                entries.append(self.entry(first, self.i - 2))
                first = self.i

    def entry(self, first, last):
        name = []
        for j in range(first, last + 1):
            if self.toks[j].text == "=" and self.toks[j].kind == "sym":
                break
            name.append(self.toks[j].text)
        return (first, last, "".join(name))

    def entry_value(self, e):
        first, last, _ = e
        for j in range(first, last + 1):
            if self.toks[j].text == "=" and self.toks[j].kind == "sym":
                return "".join(t.text for t in self.toks[j + 1:last + 1])
        return ""

    def entry_text(self, e):
        return self.src[self.toks[e[0]].start:self.toks[e[1]].end]

    def parse_field(self, context, parent_start=None):
        """A field, map field or group (context: message, oneof, extend)."""
        first = self.i
        label = None
        if self.at("optional") or self.at("required") or self.at("repeated"):
            label = self.next()
        is_group = False
        if self.at("map") and self.at("<", 1):
            self.next()
            self.expect("<")
            while not self.at(">"):
                self.next()
            self.expect(">")
        elif self.at("group"):
            is_group = True
            self.next()
        else:
            if self.at("."):
                self.next()
            self.next()
            while self.at("."):
                self.next()
                self.next()
        name = self.next()
        if name.kind != "id":
            raise ParseError("%s:%d: field name expected, found %r" % (self.path, self.line(name), name.text))
        self.expect("=")
        number = self.next()
        opts = self.parse_option_list() if self.at("[") else None

        # What the label and options become.
        add = []  # options to add, in front
        replace = {}  # entry index -> new text, or None to drop
        if label is not None and label.text == "optional":
            # Extensions always have presence (and may not set it).
            if self.syntax == "proto3" and context != "extend":
                add.append("features.field_presence = EXPLICIT")
        elif label is not None and label.text == "required":
            add.append("features.field_presence = LEGACY_REQUIRED")
        if opts is not None:
            for k, e in enumerate(opts.entries):
                nm = e[2]
                val = self.entry_value(e)
                if nm == "packed":
                    if self.syntax == "proto2":
                        replace[k] = "features.repeated_field_encoding = PACKED" if val == "true" else None
                    else:
                        replace[k] = None if val == "true" else "features.repeated_field_encoding = EXPANDED"
                elif nm == "ctype" and self.edition == "2024":
                    if self.lang:
                        st = {"CORD": "CORD", "STRING": "STRING", "STRING_PIECE": "VIEW"}.get(val, val)
                        replace[k] = "features.(pb.cpp).string_type = %s" % st
                        self.need_imports.add("google/protobuf/cpp_features.proto")
                    else:
                        replace[k] = None
                        self.notes.append("ctype = %s dropped" % val)

        if is_group:
            self.convert_group(first, label, name, number, opts, add, replace, context, parent_start)
            return

        semi = self.expect(";")
        if label is not None and label.text != "repeated":
            self.delete_token_and_space(label)
        self.rewrite_options(opts, add, replace, semi)

    def rewrite_options(self, opts, add, replace, semi):
        """Applies option additions and replacements in place."""
        if opts is None:
            if add:
                self.edit(semi.start, semi.start, " [%s]" % ", ".join(add))
            return
        entries = opts.entries
        kept = [k for k in range(len(entries)) if replace.get(k, "") is not None]
        lb, rb = self.toks[opts.lb], self.toks[opts.rb]
        if not kept and not add:
            # Drop the whole list and the space before it.
            start = lb.start
            while start > 0 and self.src[start - 1] in " \t":
                start -= 1
            self.edit(start, rb.end, "")
            return
        if len(kept) < len(entries):
            # Some entries are dropped: rebuild the list from the kept
            # entries' text with the list's first separator.
            if len(entries) >= 2:
                sep = self.src[self.toks[entries[0][1]].end:self.toks[entries[1][0]].start]
            else:
                sep = ", "
            texts = list(add)
            for k in kept:
                texts.append(replace.get(k) or self.entry_text(entries[k]))
            lead = self.src[lb.end:self.toks[entries[0][0]].start] if entries else ""
            trail = self.src[self.toks[entries[-1][1]].end:rb.start] if entries else ""
            if "\n" not in sep and "\n" in lead:
                sep = sep.rstrip() + " "
            self.edit(lb.start, rb.end, "[" + lead + sep.join(texts) + trail + "]")
            return
        for k, new in replace.items():
            e = entries[k]
            self.edit(self.toks[e[0]].start, self.toks[e[1]].end, new)
        if add:
            first = self.toks[entries[0][0]].start
            before = self.src[lb.end:first]
            if "\n" in before:
                sep = ",\n" + self.indent_of(first)
            else:
                sep = ", "
            self.edit(first, first, sep.join(add) + sep)

    def convert_group(self, first, label, name, number, opts, add, replace, context, parent_start):
        lbrace = self.peek()
        start = self.toks[first].start
        # Body (its own edits are made while parsing it).
        self.parse_message_body()
        rbrace = self.toks[self.i - 1]
        gname = name.text
        field_opts = ["features.message_encoding = DELIMITED"] + add
        if opts is not None:
            for k, e in enumerate(opts.entries):
                new = replace.get(k, "")
                if new is None:
                    continue
                field_opts.append(new or self.entry_text(opts.entries[k]))
        rep = "repeated " if label is not None and label.text == "repeated" else ""
        field = "%s%s %s = %s [%s];" % (rep, gname, gname.lower(), number.text, ", ".join(field_opts))
        indent = self.indent_of(start)
        header = "message %s {" % gname
        if context == "message":
            self.edit(start, lbrace.end, header)
            one_line = "\n" not in self.src[start:rbrace.end]
            self.edit(rbrace.start, rbrace.end, "} " + field if one_line else "}\n" + indent + field)
            return
        # In a oneof or an extend block: the message goes before that block.
        inner = self.take_edits(start, rbrace.end)
        inner.append(Edit(start, lbrace.end, header, -1))
        text = self.render(start, rbrace.end, inner)
        pstart = self.toks[parent_start].start
        pindent = self.indent_of(pstart)
        extra = len(indent) - len(pindent)
        if extra > 0:
            lines = text.split("\n")
            text = "\n".join([lines[0]] + [ln[extra:] if ln[:extra].strip() == "" else ln for ln in lines[1:]])
        self.edit(pstart, pstart, text + "\n" + pindent)
        self.edit(start, rbrace.end, field)

    # -- enums and services -------------------------------------------------

    def parse_enum(self, top=False):
        self.expect("enum")
        self.next()
        lb = self.expect("{")
        if top:
            self.top_level_bodies.append((lb.end, self.indent_of(lb.start)))
        while not self.at("}"):
            if self.at("reserved"):
                self.parse_reserved()
            elif self.at(";"):
                self.next()
            else:
                self.skip_statement()
        self.next()

    def parse_service(self):
        self.expect("service")
        self.next()
        lb = self.peek()
        self.top_level_bodies.append((lb.end, self.indent_of(lb.start)))
        self.skip_block()


# ---------------------------------------------------------------------------
# Files and roots


def split_roots(arg):
    return [r for r in arg.split(os.pathsep) if r]


def find_root(roots, rel):
    for k, r in enumerate(roots):
        if os.path.isfile(os.path.join(r, rel)):
            return k
    return None


def slice_files(slice_path, roots, skip_missing=False):
    """The .proto files of a slice.txt list, include-relative, in slice order.
    A directory entry stands for every *.proto directly in it. An entry under
    none of the roots is an error, or skipped with `skip_missing`."""
    files = []
    with open(slice_path, encoding="utf-8") as f:
        for line in f:
            entry = line.split("#", 1)[0].strip()
            if not entry:
                continue
            found = [r for r in roots if os.path.exists(os.path.join(r, entry))]
            if not found and skip_missing:
                continue
            if not found:
                raise SystemExit("slice entry %r is under none of %s: run realworld/fetch.sh" % (entry, roots))
            path = os.path.join(found[0], entry)
            if os.path.isdir(path):
                names = sorted(n for n in os.listdir(path) if n.endswith(".proto"))
                files += [entry.rstrip("/") + "/" + n for n in names]
            else:
                files.append(entry)
    return files


def file_list(args, src_roots):
    files = list(args.files)
    if args.slice:
        files += slice_files(args.slice, src_roots, skip_missing=True)
    if not files:
        raise SystemExit("editions.py: no FILE and no --slice")
    seen = set()
    out = []
    for f in files:
        if f not in seen:
            seen.add(f)
            out.append(f)
    return out


def imports_of(text):
    """The import paths of a .proto file."""
    toks = tokenize(text)
    out = []
    for k, t in enumerate(toks):
        if t.kind == "id" and t.text == "import" and (k == 0 or toks[k - 1].text in (";", "}")):
            j = k + 1
            if j < len(toks) and toks[j].text in ("public", "weak", "option"):
                j += 1
            if j < len(toks) and toks[j].kind == "str":
                out.append(unquote(toks[j].text))
    return out


def cmd_convert(args):
    src_roots, dst_roots = split_roots(args.src), split_roots(args.dst)
    if len(src_roots) != len(dst_roots):
        raise SystemExit("editions.py: SRC_ROOT and DST_ROOT name different numbers of roots")
    files = file_list(args, src_roots)
    explicit = set(files)
    todo = list(files)
    done = set()
    converted = copied = unchanged = 0
    notes = {}
    while todo:
        rel = todo.pop(0)
        if rel in done:
            continue
        done.add(rel)
        k = find_root(src_roots, rel)
        if k is None:
            if rel in explicit:
                raise SystemExit("editions.py: %s is under none of %s" % (rel, src_roots))
            continue  # protoc's own include directory
        src = os.path.join(src_roots[k], rel)
        dst = os.path.join(dst_roots[k], rel)
        os.makedirs(os.path.dirname(dst) or ".", exist_ok=True)
        with open(src, encoding="utf-8", newline="") as f:
            text = f.read()
        crlf = text.count("\r\n") == text.count("\n") > 0
        if crlf:  # converted with \n lines, written back with \r\n
            text = text.replace("\r\n", "\n")
        try:
            todo += [imp for imp in imports_of(text) if imp not in done]
        except ParseError as e:
            raise SystemExit("editions.py: %s: %s" % (rel, e))
        if rel.startswith("google/protobuf/") and rel not in explicit:
            shutil.copyfile(src, dst)
            copied += 1
            continue
        conv = Converter(text, args.edition, args.lang_features, path=rel)
        try:
            out = conv.convert()
        except ParseError as e:
            raise SystemExit("editions.py: %s" % e)
        if out is None:
            shutil.copyfile(src, dst)
            unchanged += 1
            continue
        with open(dst, "w", encoding="utf-8", newline="") as f:
            f.write(out.replace("\n", "\r\n") if crlf else out)
        converted += 1
        todo += sorted(conv.need_imports)
        for n in dict.fromkeys(conv.notes):
            notes.setdefault(n, []).append(rel)
    print("editions convert %s: %d files converted, %d google/protobuf files copied, %d already in editions"
          % (args.edition, converted, copied, unchanged))
    for n, where in sorted(notes.items()):
        print("  note: %s (%d: %s%s)" % (n, len(where), ", ".join(where[:3]), ", ..." if len(where) > 3 else ""))


# ---------------------------------------------------------------------------
# Check


def default_protoc():
    p = os.environ.get("PROTOC")
    if p:
        return p
    home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    src = os.path.join(home, "registry", "src")
    if os.path.isdir(src):
        for reg in sorted(os.listdir(src)):
            d = os.path.join(src, reg)
            for name in sorted(os.listdir(d), reverse=True):
                if name.startswith("protoc-bin-vendored-linux-x86_64-"):
                    return os.path.join(d, name, "bin", "protoc")
    return shutil.which("protoc") or "protoc"


def closure(files, src_roots):
    """The files convert writes: the given ones and what they import under
    the roots, each with whether it is converted (not a copied
    google/protobuf/ import)."""
    explicit = set(files)
    todo, done, out = list(files), set(), []
    while todo:
        rel = todo.pop(0)
        if rel in done:
            continue
        done.add(rel)
        k = find_root(src_roots, rel)
        if k is None:
            continue
        with open(os.path.join(src_roots[k], rel), encoding="utf-8") as f:
            todo += imports_of(f.read())
        out.append((rel, rel in explicit or not rel.startswith("google/protobuf/")))
    return out


def compile_set(protoc, roots, files, out):
    include = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(protoc))), "include")
    cmd = [protoc] + ["-I" + r for r in roots]
    if os.path.isdir(include):
        cmd.append("-I" + include)
    cmd += ["--include_imports", "--descriptor_set_out=" + out] + files
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        lines = r.stderr.strip().splitlines()
        lines = [ln for ln in lines if "warning:" not in ln] or lines
        raise SystemExit("editions check: protoc failed on %s (%d lines):\n%s"
                         % (roots, len(lines), "\n".join(lines[:40])))


class Checker:
    """Compares the descriptors of the originals (set 0) with the copies'
    (set 1), collecting differences and counts."""

    def __init__(self, edition, orig_set, conv_set):
        from google.protobuf import descriptor_pb2, descriptor_pool

        self.pb2 = descriptor_pb2
        self.edition = edition
        self.diffs = []
        self.counts = {"messages": 0, "fields": 0}
        self.pools, self.protos = [], []
        for path in (orig_set, conv_set):
            fds = descriptor_pb2.FileDescriptorSet()
            with open(path, "rb") as f:
                fds.ParseFromString(f.read())
            pool = descriptor_pool.DescriptorPool()
            for fp in fds.file:
                pool.Add(fp)
            self.pools.append(pool)
            self.protos.append({fp.name: fp for fp in fds.file})
        # Options the conversion drops or turns into features: `packed` is
        # compared as is_packed and the resolved features; the C++/Java-only
        # ones editions refuse are not compared.
        self.drop_field_opts = ["packed"]
        self.drop_file_opts = ["java_string_check_utf8"]
        if edition == "2024":
            self.drop_field_opts += ["ctype"]
            self.drop_file_opts += ["java_multiple_files"]
        # Raw protos by full name, for options and proto3_optional.
        self.raw = [self.index(p) for p in self.protos]

    def index(self, protos):
        out = {}

        def msg(prefix, m):
            name = prefix + m.name
            out[name] = m
            for f in m.field:
                out[name + "." + f.name] = f
            for f in m.extension:
                out[name + "." + f.name] = f
            for k, o in enumerate(m.oneof_decl):
                out[name + "." + o.name] = o
            for n in m.nested_type:
                msg(name + ".", n)
            for e in m.enum_type:
                enum(name + ".", e)

        def enum(prefix, e):
            out[prefix + e.name] = e
            # Enum values are siblings of their enum in scope.
            for v in e.value:
                out[prefix + e.name + "#" + v.name] = v

        for fp in protos.values():
            prefix = fp.package + "." if fp.package else ""
            for m in fp.message_type:
                msg(prefix, m)
            for e in fp.enum_type:
                enum(prefix, e)
            for f in fp.extension:
                out[prefix + f.name] = f
            for s in fp.service:
                out[prefix + s.name] = s
        return out

    def diff(self, where, what, a, b):
        self.diffs.append("%s: %s: original %r, converted %r" % (where, what, a, b))

    def same(self, where, what, a, b):
        if a != b:
            self.diff(where, what, a, b)

    def options(self, where, a, b, drop=()):
        """Options other than features (and the dropped ones) must agree."""
        oa, ob = type(a)(), type(b)()
        oa.CopyFrom(a)
        ob.CopyFrom(b)
        for o in (oa, ob):
            o.ClearField("features")
            for name in drop:
                o.ClearField(name)
        sa, sb = oa.SerializeToString(deterministic=True), ob.SerializeToString(deterministic=True)
        if sa != sb:
            ta, tb = str(oa).strip(), str(ob).strip()
            if ta == tb:  # custom options only: their bytes
                ta, tb = sa.hex(), sb.hex()
            self.diff(where, "options", ta, tb)

    def resolved(self, d):
        """The resolved features of a descriptor, by name (without the
        source-only ones, whose 2024 file options are the point)."""
        f = self.pb2.FeatureSet()
        f.ParseFromString(d._GetFeatures().SerializeToString())
        return {fd.name: fd.enum_type.values_by_number[v].name if fd.enum_type else v
                for fd, v in f.ListFields()
                if not fd.is_extension and fd.name not in ("enforce_naming_style", "default_symbol_visibility")}

    def features(self, where, a, b, proto3_optional=False, extension=False):
        fa, fb = self.resolved(a), self.resolved(b)
        if extension:
            # Extensions always have presence and may not set the feature
            # (has_presence is compared on its own).
            fa.pop("field_presence", None)
            fb.pop("field_presence", None)
        elif proto3_optional:
            # A proto3 `optional` field resolves the file's IMPLICIT, its
            # presence coming from its synthetic oneof: EXPLICIT in editions.
            fa["field_presence"] = "EXPLICIT"
        self.same(where, "resolved features", fa, fb)

    def real_oneof(self, k, f):
        o = f.containing_oneof
        if o is None:
            return None
        raw = self.raw[k].get(f.full_name)
        if raw is not None and raw.proto3_optional:
            return None
        return o.name

    def check_file(self, name):
        fa = self.pools[0].FindFileByName(name)
        fb = self.pools[1].FindFileByName(name)
        pa, pb = self.protos[0][name], self.protos[1][name]
        self.same(name, "package", pa.package, pb.package)
        deps_b = [d for d in pb.dependency if d not in pa.dependency
                  and d in ("google/protobuf/cpp_features.proto", "google/protobuf/java_features.proto")]
        self.same(name, "imports", list(pa.dependency), [d for d in pb.dependency if d not in deps_b])
        self.same(name, "public imports", [pa.dependency[k] for k in pa.public_dependency],
                  [pb.dependency[k] for k in pb.public_dependency])
        self.options(name, pa.options, pb.options, self.drop_file_opts)
        self.features(name, fa, fb)
        self.same(name, "messages", sorted(fa.message_types_by_name), sorted(fb.message_types_by_name))
        self.same(name, "enums", sorted(fa.enum_types_by_name), sorted(fb.enum_types_by_name))
        self.same(name, "extensions", sorted(fa.extensions_by_name), sorted(fb.extensions_by_name))
        self.same(name, "services", sorted(fa.services_by_name), sorted(fb.services_by_name))
        for n, m in fb.message_types_by_name.items():
            if n in fa.message_types_by_name:
                self.check_message(fa.message_types_by_name[n], m)
        for n, e in fb.enum_types_by_name.items():
            if n in fa.enum_types_by_name:
                self.check_enum(fa.enum_types_by_name[n], e)
        for n, x in fb.extensions_by_name.items():
            if n in fa.extensions_by_name:
                self.check_field(fa.extensions_by_name[n], x)
        for n in fb.services_by_name:
            if n in fa.services_by_name:
                self.check_service(fa.services_by_name[n].full_name)

    def check_message(self, a, b):
        w = b.full_name
        self.counts["messages"] += 1
        ra, rb = self.raw[0][w], self.raw[1][w]
        self.same(w, "fields", [f.name for f in a.fields], [f.name for f in b.fields])
        self.same(w, "oneofs", [o.name for o in a.oneofs if self.real_oneof_decl(0, o)],
                  [o.name for o in b.oneofs if self.real_oneof_decl(1, o)])
        self.same(w, "nested messages", sorted(a.nested_types_by_name), sorted(b.nested_types_by_name))
        self.same(w, "nested enums", sorted(a.enum_types_by_name), sorted(b.enum_types_by_name))
        self.same(w, "extensions", sorted(x.name for x in a.extensions), sorted(x.name for x in b.extensions))
        self.same(w, "extension ranges", list(a.extension_ranges), list(b.extension_ranges))
        self.same(w, "reserved ranges", [(r.start, r.end) for r in ra.reserved_range],
                  [(r.start, r.end) for r in rb.reserved_range])
        self.same(w, "reserved names", list(ra.reserved_name), list(rb.reserved_name))
        self.options(w, ra.options, rb.options)
        self.features(w, a, b)
        for f in b.fields:
            if f.name in a.fields_by_name:
                self.check_field(a.fields_by_name[f.name], f)
        for o in b.oneofs:
            if self.real_oneof_decl(1, o):
                oa = a.oneofs_by_name.get(o.name)
                if oa is not None:
                    self.same(o.full_name, "oneof fields", [f.name for f in oa.fields], [f.name for f in o.fields])
                    self.options(o.full_name, self.raw[0][oa.full_name].options, self.raw[1][o.full_name].options)
        for x in b.extensions:
            xa = [y for y in a.extensions if y.name == x.name]
            if xa:
                self.check_field(xa[0], x)
        for n, m in b.nested_types_by_name.items():
            if n in a.nested_types_by_name:
                self.check_message(a.nested_types_by_name[n], m)
        for n, e in b.enum_types_by_name.items():
            if n in a.enum_types_by_name:
                self.check_enum(a.enum_types_by_name[n], e)

    def real_oneof_decl(self, k, o):
        return not all(self.raw[k].get(f.full_name) is not None and self.raw[k][f.full_name].proto3_optional
                       for f in o.fields)

    def kind(self, f):
        FD = type(f)
        if f.type == FD.TYPE_GROUP:
            return "delimited"
        if f.type == FD.TYPE_MESSAGE:
            enc = f._GetFeatures().message_encoding
            return "delimited" if enc == self.pb2.FeatureSet.DELIMITED else "message"
        return f.type

    def check_field(self, a, b):
        w = b.full_name
        self.counts["fields"] += 1
        s = self.same
        s(w, "number", a.number, b.number)
        s(w, "type", self.kind(a), self.kind(b))
        s(w, "message type", a.message_type and a.message_type.full_name, b.message_type and b.message_type.full_name)
        s(w, "enum type", a.enum_type and a.enum_type.full_name, b.enum_type and b.enum_type.full_name)
        s(w, "json_name", a.json_name, b.json_name)
        s(w, "repeated", a.is_repeated, b.is_repeated)
        s(w, "has_presence", a.has_presence, b.has_presence)
        s(w, "is_packed", a.is_packed, b.is_packed)
        s(w, "is_required", a.is_required, b.is_required)
        s(w, "has_default_value", a.has_default_value, b.has_default_value)
        if not a.is_repeated:
            s(w, "default_value", repr(a.default_value), repr(b.default_value))
        s(w, "oneof", self.real_oneof(0, a), self.real_oneof(1, b))
        s(w, "map", bool(a.message_type and a.message_type.GetOptions().map_entry),
          bool(b.message_type and b.message_type.GetOptions().map_entry))
        s(w, "extension", a.is_extension, b.is_extension)
        if a.is_extension and b.is_extension:
            s(w, "extendee", a.containing_type.full_name, b.containing_type.full_name)
            s(w, "extension scope", a.extension_scope and a.extension_scope.full_name,
              b.extension_scope and b.extension_scope.full_name)
        if a.enum_type and b.enum_type:
            s(w, "enum closed", a.enum_type.is_closed, b.enum_type.is_closed)
        ra, rb = self.raw[0][w], self.raw[1][w]
        self.features(w, a, b, proto3_optional=ra.proto3_optional, extension=a.is_extension)
        self.options(w, ra.options, rb.options, self.drop_field_opts)

    def check_enum(self, a, b):
        w = b.full_name
        ra, rb = self.raw[0][w], self.raw[1][w]
        self.same(w, "closed", a.is_closed, b.is_closed)
        self.same(w, "values", [(v.name, v.number) for v in a.values], [(v.name, v.number) for v in b.values])
        self.same(w, "reserved ranges", [(r.start, r.end) for r in ra.reserved_range],
                  [(r.start, r.end) for r in rb.reserved_range])
        self.same(w, "reserved names", list(ra.reserved_name), list(rb.reserved_name))
        self.options(w, ra.options, rb.options)
        self.features(w, a, b)
        for va, vb in zip(ra.value, rb.value):
            self.options(w + "." + vb.name, va.options, vb.options)
        for va, vb in zip(a.values, b.values):
            self.features(w + "." + vb.name, va, vb)

    def check_service(self, w):
        sa, sb = self.raw[0][w], self.raw[1][w]
        self.options(w, sa.options, sb.options)
        self.same(w, "methods", [m.name for m in sa.method], [m.name for m in sb.method])
        for ma, mb in zip(sa.method, sb.method):
            mw = w + "." + mb.name
            for attr in ("input_type", "output_type", "client_streaming", "server_streaming"):
                self.same(mw, attr, getattr(ma, attr), getattr(mb, attr))
            self.options(mw, ma.options, mb.options)


def cmd_check(args):
    src_roots, dst_roots = split_roots(args.src), split_roots(args.dst)
    files = file_list(args, src_roots)
    todo = closure(files, src_roots)
    converted = [rel for rel, conv in todo if conv]
    protoc = default_protoc()
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "orig.pb"), os.path.join(tmp, "conv.pb")
        compile_set(protoc, src_roots, converted, a)
        compile_set(protoc, dst_roots, converted, b)
        for rel in converted:
            k = find_root(dst_roots, rel)
            with open(os.path.join(dst_roots[k], rel), encoding="utf-8") as f:
                toks = tokenize(f.read())
            with open(os.path.join(src_roots[find_root(src_roots, rel)], rel), encoding="utf-8") as f:
                was = tokenize(f.read())
            if was and was[0].text == "edition":
                continue  # copied as it was
            if not (toks and toks[0].text == "edition" and len(toks) > 2 and unquote(toks[2].text) == args.edition):
                raise SystemExit("editions check: %s is not an edition %s file" % (rel, args.edition))
        try:
            ch = Checker(args.edition, a, b)
        except TypeError as e:  # a descriptor set the pool refuses
            raise SystemExit("editions check: %s" % e)
        for rel in converted:
            ch.check_file(rel)
    c = ch.counts
    head = "editions check: %d files, %d messages, %d fields" % (len(converted), c["messages"], c["fields"])
    if not ch.diffs:
        print(head + ": all equal")
        return 0
    print(head + ": %d differences" % len(ch.diffs))
    for d in ch.diffs[: args.max_diffs]:
        print("  " + d)
    return 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("convert", "check"):
        p = sub.add_parser(name)
        p.add_argument("--edition", required=True, choices=EDITIONS)
        p.add_argument("--slice", help="a slice.txt list of files and directories")
        p.add_argument("--lang-features", action="store_true",
                       help="2024: turn ctype/java_multiple_files into C++/Java features instead of dropping them")
        p.add_argument("src", metavar="SRC_ROOT")
        p.add_argument("dst", metavar="DST_ROOT")
        p.add_argument("files", metavar="FILE", nargs="*")
        if name == "check":
            p.add_argument("--max-diffs", type=int, default=20)
    args = ap.parse_args()
    if args.cmd == "convert":
        cmd_convert(args)
        return 0
    return cmd_check(args)


if __name__ == "__main__":
    sys.exit(main())
