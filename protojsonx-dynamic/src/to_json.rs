//! Binary protobuf to ProtoJSON, straight from the wire bytes to the JSON
//! text, through the runtime's encoder.
//!
//! A message body is read once to find where each known field occurs (in
//! a reused list of spans), then written in declaration order, as the
//! generated code writes it: for a singular scalar the last occurrence
//! wins, a message that occurs more than once is the merge of its
//! occurrences (the concatenation of their bodies, which is what merging
//! means on the wire), repeated fields take every occurrence, packed or
//! not, map entries are sorted by key with the last of equal keys kept,
//! and of a oneof the last member met wins. Unknown fields are dropped.

use std::cmp::Ordering;

use prost::encoding::{WireType, decode_varint};
use protojsonx_runtime::__dynamic::{
    Encoder, WellKnown, any_type_name, binary_error, encode_error, encode_with, well_known,
    write_value_no_kind, write_value_number,
};
use protojsonx_runtime::{EncodeOptions, Error, ErrorKind};

use crate::table::{Card, Field, Kind, Schema, Table};
use crate::wire::{RawField, WireReader, fixed32, fixed64, varint};
use crate::wkt::{Shape, Special};

/// How deep messages may nest below the top-level one in the binary
/// input, as in prost (and in what an `Any` packs, counted afresh).
const MAX_DEPTH: u32 = 100;

/// How deep `Any`s may nest, one packing the next, as in the runtime.
const MAX_ANY_DEPTH: u32 = 100;

/// The `@type` and `value` keys of an `Any`.
const TYPE_KEY: &[u8] = b",\"@type\":";
const VALUE_KEY: &[u8] = b",\"value\":";

/// A span of the input: a message body, or a field's value bytes.
type Span = (u32, u32);

/// Where one known field occurs in a message body.
#[derive(Clone, Copy)]
struct Occurrence {
    /// The field's index in its table.
    field: u32,
    wire: WireType,
    start: u32,
    end: u32,
}

impl Occurrence {
    fn span(&self) -> Span {
        (self.start, self.end)
    }
}

/// Transcodes `input`, a binary message of type `index`, appending its JSON to `out`.
pub(crate) fn transcode(
    schema: &Schema,
    index: u32,
    input: &[u8],
    opts: &EncodeOptions,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    let Ok(len) = u32::try_from(input.len()) else {
        return Err(binary_error("the input is larger than 4 GiB".into(), 0));
    };
    let mut writer = Writer {
        schema,
        input,
        scratch: None,
        depth: 0,
        anys: 0,
        pass: Pass::Ready,
    };
    let result = encode_with(opts, out, |e| writer.message(e, index, &[(0, len)]));
    if let Some(scratch) = writer.scratch {
        SCRATCH.set(scratch);
    }
    result
}

/// The lists a transcode fills and empties again, kept per thread between
/// transcodes so that, once grown, transcoding allocates only its output.
#[derive(Default)]
struct Scratch {
    /// Occurrence lists, one per message being written.
    lists: Vec<Vec<Occurrence>>,
    /// Entry lists, one per map being written.
    entries: Vec<Vec<Entry>>,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Scratch> = const {
        std::cell::Cell::new(Scratch { lists: Vec::new(), entries: Vec::new() })
    };
}

struct Writer<'s, 'b> {
    schema: &'s Schema,
    input: &'b [u8],
    /// Lists reused, taken from [`SCRATCH`] when first needed (a message
    /// written in a single pass needs none).
    scratch: Option<Scratch>,
    /// Messages nested, counted from the input or the `Any` that packs them.
    depth: u32,
    /// `Any`s nested.
    anys: u32,
    /// Whether a message may be written in a single pass.
    pass: Pass,
}

/// Whether a message may be written in a single pass
/// ([`Writer::single_pass`]), each field as it is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// A message whose table allows it starts a single pass.
    Ready,
    /// Within a single pass: a message nested in it that cannot be written
    /// so gives up the whole pass, which the message that began it writes
    /// again in two passes (so no input is written more than twice).
    Within,
    /// Off, below a message written again in two passes.
    Off,
}

impl<'b> Writer<'_, 'b> {
    /// Writes the message of type `index` whose body is the concatenation of `parts`.
    fn message(&mut self, e: &mut Encoder<'_>, index: u32, parts: &[Span]) -> Result<(), Error> {
        let schema = self.schema;
        let table = schema.table(index);
        // The top-level message is at depth 0: prost takes 100 levels below
        // it, a well-known type among them.
        if self.depth > MAX_DEPTH {
            let at = parts.first().map_or(0, |p| p.0 as usize);
            return Err(binary_error("recursion limit reached".into(), at));
        }
        match table.special {
            Some(Special::Any) => return self.any(e, parts),
            Some(Special::Wkt(codec)) if codec.shape != Shape::Codec => {
                self.depth += 1;
                let result = self.in_two_passes_as(e, table, parts, codec.shape);
                self.depth -= 1;
                return result;
            }
            Some(Special::Wkt(codec)) => {
                let at = parts.first().map_or(0, |p| p.0 as usize);
                let written = match parts {
                    [] => (codec.write)(e, &[]),
                    [one] => (codec.write)(e, &[self.bytes(*one)]),
                    _ => {
                        let slices: Vec<&[u8]> = parts.iter().map(|&s| self.bytes(s)).collect();
                        (codec.write)(e, &slices)
                    }
                };
                return written.map_err(|m| binary_error(m, at));
            }
            None => {}
        }
        self.depth += 1;
        let result = match parts {
            [body] if table.single_pass && self.pass != Pass::Off && !e.emit_defaults() => {
                self.in_one_pass(e, table, *body)
            }
            _ => self.in_two_passes(e, table, parts),
        };
        self.depth -= 1;
        result
    }

    /// Writes a message body in a single pass if it can, else in two.
    fn in_one_pass(&mut self, e: &mut Encoder<'_>, table: &Table, body: Span) -> Result<(), Error> {
        if self.pass == Pass::Within {
            return match self.single_pass(e, table, body) {
                true => Ok(()),
                false => Err(gave_up()),
            };
        }
        let mark = e.mark();
        self.pass = Pass::Within;
        let done = self.single_pass(e, table, body);
        if done {
            self.pass = Pass::Ready;
            return Ok(());
        }
        e.rewind(mark);
        self.pass = Pass::Off;
        let result = self.in_two_passes(e, table, &[body]);
        self.pass = Pass::Ready;
        result
    }

    /// Writes the fields of a message body as they are read, for a table
    /// whose fields are all singular ([`Table::single_pass`]) when absent
    /// fields are not written. Gives up (`false`) on a field out of
    /// declaration order or met twice, and on any error, for the caller to
    /// write the message in two passes: the output is then the same, and
    /// errors are always the two-pass writer's.
    fn single_pass(&mut self, e: &mut Encoder<'_>, table: &Table, body: Span) -> bool {
        let mut reader = WireReader::new(self.input, body.0, body.1);
        let object = e.begin_object();
        let mut next = 0;
        loop {
            let raw = match reader.next_field() {
                Ok(Some(raw)) => raw,
                Ok(None) => break,
                Err(_) => return false,
            };
            let Some(index) = table.by_number(raw.number) else {
                continue;
            };
            let field = &table.fields[index];
            if index < next || check_wire(field, &raw).is_err() {
                return false;
            }
            next = index + 1;
            let this = Occurrence {
                field: index as u32,
                wire: raw.wire,
                start: raw.start,
                end: raw.end,
            };
            // What `field` does with one occurrence of a singular field.
            let written = match field.card {
                Card::Implicit => self.implicit(e, field, this.span()),
                _ => {
                    key(e, field);
                    self.singular(e, field.kind, &[this])
                }
            };
            if written.is_err() {
                return false;
            }
        }
        e.end_object(object);
        true
    }

    /// Writes a message body by finding its fields first, then writing
    /// them in declaration order.
    fn in_two_passes(
        &mut self,
        e: &mut Encoder<'_>,
        table: &Table,
        parts: &[Span],
    ) -> Result<(), Error> {
        self.in_two_passes_as(e, table, parts, Shape::Codec)
    }

    /// [`in_two_passes`](Self::in_two_passes), the fields written as an
    /// object (`Shape::Codec`) or as the JSON of a `Struct`, `ListValue`,
    /// `Value` or wrapper ([`unwrapped`](Self::unwrapped)).
    fn in_two_passes_as(
        &mut self,
        e: &mut Encoder<'_>,
        table: &Table,
        parts: &[Span],
        shape: Shape,
    ) -> Result<(), Error> {
        let mut list = self.scratch().lists.pop().unwrap_or_default();
        let result = match shape {
            Shape::Codec => self.fields(e, table, parts, &mut list),
            _ => self.unwrapped(e, table, parts, shape, &mut list),
        };
        list.clear();
        self.scratch().lists.push(list);
        result
    }

    /// Writes a `Struct`, `ListValue`, `Value` or wrapper (a table that
    /// [`fits`](Shape::fits) its shape) as the JSON its one field or oneof
    /// holds, with no object around it, as the runtime writes their
    /// prost-types structs.
    fn unwrapped(
        &mut self,
        e: &mut Encoder<'_>,
        table: &Table,
        parts: &[Span],
        shape: Shape,
        list: &mut Vec<Occurrence>,
    ) -> Result<(), Error> {
        for &(start, end) in parts {
            self.scan(table, start, end, list)?;
        }
        let f = &table.fields[0];
        match (shape, f.card) {
            (Shape::Struct, Card::Map { key, value }) => self
                .entries(e, (key, value), list)
                .map_err(|err| err.in_field(f.name.as_bytes())),
            (Shape::List, _) => self
                .elements(e, f, list)
                .map_err(|err| err.in_field(f.name.as_bytes())),
            // The last value, the default if there is none; the others checked.
            (Shape::Wrapper, _) => {
                let (shadowed, last) = match &list[..] {
                    [shadowed @ .., last] => (shadowed, last.span()),
                    [] => (&[][..], (0, 0)),
                };
                shadowed
                    .iter()
                    .try_for_each(|o| self.check(f.kind, o.span()))
                    .and_then(|()| self.value(e, f.kind, last))
                    .map_err(|err| err.in_field(f.name.as_bytes()))
            }
            _ => self.oneof_as(e, table, 0, list, true),
        }
    }

    /// The lists reused, taken from [`SCRATCH`] the first time.
    fn scratch(&mut self) -> &mut Scratch {
        self.scratch.get_or_insert_with(|| SCRATCH.take())
    }

    fn bytes(&self, (start, end): Span) -> &'b [u8] {
        &self.input[start as usize..end as usize]
    }

    /// Finds the fields of `parts` and writes them as an object.
    fn fields(
        &mut self,
        e: &mut Encoder<'_>,
        table: &Table,
        parts: &[Span],
        list: &mut Vec<Occurrence>,
    ) -> Result<(), Error> {
        for &(start, end) in parts {
            self.scan(table, start, end, list)?;
        }
        if !list.is_sorted_by_key(|o| o.field) {
            list.sort_unstable_by_key(|o| (o.field, o.start));
        }
        let object = e.begin_object();
        let mut at = 0;
        for (index, field) in table.fields.iter().enumerate() {
            let begin = at;
            while list.get(at).is_some_and(|o| o.field as usize == index) {
                at += 1;
            }
            match field.oneof {
                Some(oneof) if field.oneof_first => self.oneof(e, table, oneof, list)?,
                Some(_) => {}
                None => self
                    .field(e, field, &list[begin..at])
                    .map_err(|err| err.in_field(field.name.as_bytes()))?,
            }
        }
        e.end_object(object);
        Ok(())
    }

    /// Records where each known field of the body `start..end` occurs.
    fn scan(
        &self,
        table: &Table,
        start: u32,
        end: u32,
        list: &mut Vec<Occurrence>,
    ) -> Result<(), Error> {
        let mut reader = WireReader::new(self.input, start, end);
        while let Some(raw) = reader.next_field()? {
            let Some(index) = table.by_number(raw.number) else {
                continue;
            };
            let field = &table.fields[index];
            check_wire(field, &raw)?;
            list.push(Occurrence {
                field: index as u32,
                wire: raw.wire,
                start: raw.start,
                end: raw.end,
            });
        }
        Ok(())
    }

    /// Writes one field (not a oneof member) from its occurrences.
    fn field(&mut self, e: &mut Encoder<'_>, f: &Field, these: &[Occurrence]) -> Result<(), Error> {
        if let (Card::Implicit | Card::Optional { .. } | Card::Required(_), [shadowed @ .., _]) =
            (f.card, these)
        {
            if !matches!(f.kind, Kind::Message(_) | Kind::Group(_)) {
                for o in shadowed {
                    self.check(f.kind, o.span())?;
                }
            }
        }
        match f.card {
            Card::Implicit => match these.last() {
                Some(last) => self.implicit(e, f, last.span()),
                None if e.emit_defaults() => {
                    key(e, f);
                    self.value(e, f.kind, (0, 0))
                }
                _ => Ok(()),
            },
            Card::Optional { proto3_optional } => {
                if !these.is_empty() {
                    key(e, f);
                    self.singular(e, f.kind, these)
                } else {
                    if !proto3_optional {
                        e.unset_field(&f.json_key, &f.proto_key);
                    }
                    Ok(())
                }
            }
            Card::Required(_) => {
                key(e, f);
                if these.is_empty() {
                    self.value(e, f.kind, (0, 0))
                } else {
                    self.singular(e, f.kind, these)
                }
            }
            Card::Repeated { .. } => self.repeated(e, f, these),
            Card::Map { key, value } => self.map(e, f, key, value, these),
        }
    }

    /// Writes a singular value from its occurrences: the last one, or for a
    /// message the merge of them all.
    fn singular(
        &mut self,
        e: &mut Encoder<'_>,
        kind: Kind,
        these: &[Occurrence],
    ) -> Result<(), Error> {
        match (kind, these) {
            (Kind::Message(m) | Kind::Group(m), [one]) => self.message(e, m, &[one.span()]),
            (Kind::Message(m) | Kind::Group(m), _) => {
                let parts: Vec<Span> = these.iter().map(Occurrence::span).collect();
                self.message(e, m, &parts)
            }
            (_, [.., last]) => self.value(e, kind, last.span()),
            (_, []) => Ok(()),
        }
    }

    /// Writes a field without presence from its value's bytes, unless the
    /// value is its type's default and the options leave defaults out. A
    /// 32-bit varint is its low 32 bits, as prost reads it: a varint of
    /// 2^32 is an `int32` 0.
    fn implicit(&mut self, e: &mut Encoder<'_>, f: &Field, span: Span) -> Result<(), Error> {
        let bytes = self.bytes(span);
        let leave_out = !e.emit_defaults();
        match f.kind {
            Kind::String | Kind::Bytes if leave_out && bytes.is_empty() => Ok(()),
            Kind::String | Kind::Bytes | Kind::Message(_) | Kind::Group(_) => {
                key(e, f);
                self.value(e, f.kind, span)
            }
            kind => {
                let raw = raw_value(kind, bytes);
                let zero = match kind {
                    Kind::Int32 | Kind::Uint32 | Kind::Sint32 | Kind::Enum(_) => raw as u32 == 0,
                    _ => raw == 0,
                };
                if !(leave_out && zero) {
                    key(e, f);
                    self.scalar(e, kind, raw);
                }
                Ok(())
            }
        }
    }

    /// Writes one value whose bytes are `span` (`(0, 0)`: the default).
    fn value(&mut self, e: &mut Encoder<'_>, kind: Kind, span: Span) -> Result<(), Error> {
        let bytes = self.bytes(span);
        match kind {
            Kind::String => {
                if e.utf8_string(bytes).is_err() {
                    return Err(not_utf8(span.0));
                }
            }
            Kind::Bytes => e.bytes(bytes),
            Kind::Message(m) | Kind::Group(m) => {
                let parts: &[Span] = if span.1 > span.0 { &[span] } else { &[] };
                return self.message(e, m, parts);
            }
            _ => self.scalar(e, kind, raw_value(kind, bytes)),
        }
        Ok(())
    }

    /// Writes a numeric, bool or enum value from its raw bits (a varint's
    /// value, or the fixed-width bytes as an integer).
    fn scalar(&self, e: &mut Encoder<'_>, kind: Kind, raw: u64) {
        match kind {
            Kind::Double => e.f64(f64::from_bits(raw)),
            Kind::Float => e.f32(f32::from_bits(raw as u32)),
            Kind::Int64 | Kind::Sfixed64 => e.i64(raw as i64),
            Kind::Uint64 | Kind::Fixed64 => e.u64(raw),
            Kind::Int32 | Kind::Sfixed32 => e.i32(raw as i32),
            Kind::Uint32 | Kind::Fixed32 => e.u32(raw as u32),
            Kind::Bool => e.bool(raw != 0),
            Kind::Sint32 => e.i32(zigzag32(raw)),
            Kind::Sint64 => e.i64(zigzag(raw)),
            Kind::Enum(x) => {
                let table = self.schema.enum_table(x);
                if table.null_value {
                    e.null();
                } else {
                    let v = raw as i32;
                    e.enum_value(table.name_of(v), v);
                }
            }
            Kind::String | Kind::Bytes | Kind::Message(_) | Kind::Group(_) => {
                unreachable!("not a scalar")
            }
        }
    }

    /// Writes a repeated field: every occurrence, packed or not, in order.
    fn repeated(
        &mut self,
        e: &mut Encoder<'_>,
        f: &Field,
        these: &[Occurrence],
    ) -> Result<(), Error> {
        let empty = these.iter().all(|o| packed(f, o) && o.start == o.end);
        if empty && !e.emit_defaults() {
            return Ok(());
        }
        key(e, f);
        self.elements(e, f, these)
    }

    /// Writes the elements of a repeated field as an array.
    fn elements(
        &mut self,
        e: &mut Encoder<'_>,
        f: &Field,
        these: &[Occurrence],
    ) -> Result<(), Error> {
        let array = e.begin_array();
        let mut index = 0;
        for o in these {
            if packed(f, o) {
                let mut rest = self.bytes(o.span());
                while !rest.is_empty() {
                    let at = o.end as usize - rest.len();
                    let raw = packed_value(f.kind, &mut rest)
                        .ok_or_else(|| binary_error("a packed field is cut off".into(), at))
                        .map_err(|err| err.in_index(index))?;
                    e.element();
                    self.scalar(e, f.kind, raw);
                    index += 1;
                }
            } else {
                e.element();
                self.value(e, f.kind, o.span())
                    .map_err(|err| err.in_index(index))?;
                index += 1;
            }
        }
        e.end_array(array);
        Ok(())
    }

    /// Writes a map field: its entries sorted by key, the last of equal keys kept.
    fn map(
        &mut self,
        e: &mut Encoder<'_>,
        f: &Field,
        key_kind: Kind,
        value_kind: Kind,
        these: &[Occurrence],
    ) -> Result<(), Error> {
        if these.is_empty() && !e.emit_defaults() {
            return Ok(());
        }
        key(e, f);
        self.entries(e, (key_kind, value_kind), these)
    }

    /// Writes the entries of a map field as an object. Each entry is a
    /// message nested one level below the map's, as prost counts them.
    fn entries(
        &mut self,
        e: &mut Encoder<'_>,
        kinds: (Kind, Kind),
        these: &[Occurrence],
    ) -> Result<(), Error> {
        if let (Some(first), true) = (these.first(), self.depth > MAX_DEPTH) {
            return Err(binary_error(
                "recursion limit reached".into(),
                first.start as usize,
            ));
        }
        let mut entries = self.scratch().entries.pop().unwrap_or_default();
        self.depth += 1;
        let result = self.sorted_entries(e, kinds, these, &mut entries);
        self.depth -= 1;
        entries.clear();
        self.scratch().entries.push(entries);
        result
    }

    /// [`entries`](Self::entries), read into `entries` and sorted by key.
    fn sorted_entries(
        &mut self,
        e: &mut Encoder<'_>,
        (key_kind, value_kind): (Kind, Kind),
        these: &[Occurrence],
        entries: &mut Vec<Entry>,
    ) -> Result<(), Error> {
        for o in these {
            entries.push(self.entry(o.span(), key_kind, value_kind)?);
        }
        entries.sort_unstable_by(|a, b| self.compare(&a.key, &b.key).then(a.at.cmp(&b.at)));
        let object = e.begin_object();
        for (i, entry) in entries.iter().enumerate() {
            let next = entries.get(i + 1);
            let replaced =
                next.is_some_and(|n| self.compare(&n.key, &entry.key) == Ordering::Equal);
            self.entry_value(e, entry, value_kind, replaced)
                .map_err(|err| err.in_key(&self.key_text(&entry.key)))?;
        }
        e.end_object(object);
        Ok(())
    }

    /// Writes one map entry, or only checks it when a later entry of the
    /// same key `replaced` it.
    fn entry_value(
        &mut self,
        e: &mut Encoder<'_>,
        entry: &Entry,
        value_kind: Kind,
        replaced: bool,
    ) -> Result<(), Error> {
        if replaced {
            for &span in entry.earlier.iter().chain(&entry.value) {
                self.check(value_kind, span)?;
            }
            return Ok(());
        }
        e.element();
        self.map_key(e, &entry.key);
        let span = entry.value.unwrap_or((0, 0));
        match value_kind {
            Kind::Message(m) if !entry.earlier.is_empty() => {
                let parts: Vec<Span> = entry.earlier.iter().copied().chain([span]).collect();
                self.message(e, m, &parts)
            }
            _ => self.value(e, value_kind, span),
        }
    }

    /// Reads one map entry's key and value. Of a key or value met twice
    /// the last is kept (a message value merges them all, as in prost),
    /// and the others are checked.
    fn entry(&mut self, span: Span, key_kind: Kind, value_kind: Kind) -> Result<Entry, Error> {
        let mut reader = WireReader::new(self.input, span.0, span.1);
        let mut key: Option<RawField> = None;
        let mut value = None;
        let mut earlier = Vec::new();
        while let Some(raw) = reader.next_field()? {
            let kind = match raw.number {
                1 => key_kind,
                2 => value_kind,
                _ => continue,
            };
            if raw.wire != kind.wire_type() {
                return Err(wire_error(&raw, kind.wire_type()));
            }
            if raw.number == 1 {
                if let Some(before) = key.replace(raw) {
                    self.check(key_kind, (before.start, before.end))?;
                }
            } else if let Some(before) = value.replace((raw.start, raw.end)) {
                match value_kind {
                    Kind::Message(_) => earlier.push(before),
                    _ => self.check(value_kind, before)?,
                }
            }
        }
        let key = match key {
            Some(raw) => self.key_of(key_kind, (raw.start, raw.end))?,
            None => self.key_of(key_kind, (0, 0))?,
        };
        Ok(Entry {
            key,
            value,
            earlier,
            at: span.0,
        })
    }

    /// A map key from its bytes.
    fn key_of(&self, kind: Kind, span: Span) -> Result<MapKey, Error> {
        let raw = if kind == Kind::String {
            utf8(self.bytes(span), span.0)?;
            0
        } else {
            raw_value(kind, self.bytes(span))
        };
        Ok(match kind {
            Kind::String => MapKey::Text(span),
            Kind::Bool => MapKey::Bool(raw != 0),
            Kind::Int32 | Kind::Sfixed32 => MapKey::Signed(i64::from(raw as i32)),
            Kind::Sint32 => MapKey::Signed(i64::from(zigzag32(raw))),
            Kind::Int64 | Kind::Sfixed64 => MapKey::Signed(raw as i64),
            Kind::Sint64 => MapKey::Signed(zigzag(raw)),
            Kind::Uint32 | Kind::Fixed32 => MapKey::Unsigned(u64::from(raw as u32)),
            _ => MapKey::Unsigned(raw),
        })
    }

    fn compare(&self, a: &MapKey, b: &MapKey) -> Ordering {
        match (a, b) {
            (MapKey::Text(a), MapKey::Text(b)) => self.bytes(*a).cmp(self.bytes(*b)),
            (MapKey::Signed(a), MapKey::Signed(b)) => a.cmp(b),
            (MapKey::Unsigned(a), MapKey::Unsigned(b)) => a.cmp(b),
            (MapKey::Bool(a), MapKey::Bool(b)) => a.cmp(b),
            _ => Ordering::Equal,
        }
    }

    fn map_key(&self, e: &mut Encoder<'_>, key: &MapKey) {
        match *key {
            MapKey::Text(span) => {
                e.map_key_str(std::str::from_utf8(self.bytes(span)).unwrap_or_default());
            }
            MapKey::Signed(v) => e.map_key(&v),
            MapKey::Unsigned(v) => e.map_key(&v),
            MapKey::Bool(v) => e.map_key(&v),
        }
    }

    /// A map key as text, for error paths.
    fn key_text(&self, key: &MapKey) -> String {
        match *key {
            MapKey::Text(span) => String::from_utf8_lossy(self.bytes(span)).into_owned(),
            MapKey::Signed(v) => v.to_string(),
            MapKey::Unsigned(v) => v.to_string(),
            MapKey::Bool(v) => v.to_string(),
        }
    }

    /// Writes oneof `oneof` of `table`: the member met last, if any (a
    /// message member merges its occurrences after the last other member's).
    fn oneof(
        &mut self,
        e: &mut Encoder<'_>,
        table: &Table,
        oneof: u32,
        list: &[Occurrence],
    ) -> Result<(), Error> {
        self.oneof_as(e, table, oneof, list, false)
    }

    /// [`oneof`](Self::oneof), with the member's key, or for a `Value`
    /// (`value_only`) its value alone, as the runtime writes a prost-types
    /// `Value`: one with no kind set, or holding a number JSON cannot
    /// express, is an encoding error (and `null`).
    fn oneof_as(
        &mut self,
        e: &mut Encoder<'_>,
        table: &Table,
        oneof: u32,
        list: &[Occurrence],
        value_only: bool,
    ) -> Result<(), Error> {
        let members = || {
            list.iter()
                .filter(move |o| table.fields[o.field as usize].oneof == Some(oneof))
        };
        let Some(winner) = members().max_by_key(|o| o.start) else {
            if value_only {
                write_value_no_kind(e);
            }
            return Ok(());
        };
        let f = &table.fields[winner.field as usize];
        if !value_only {
            key(e, f);
        }
        let once = members().filter(|o| o.field == winner.field).count() == 1;
        let message = matches!(f.kind, Kind::Message(_) | Kind::Group(_));
        let cutoff = members()
            .filter(|o| o.field != winner.field)
            .map(|o| o.start)
            .max();
        // Written: the winner, or for a message its occurrences after the
        // last other member's (prost merges those, and replaced the rest).
        let written = |o: &Occurrence| {
            o.field == winner.field
                && if message {
                    cutoff.is_none_or(|c| o.start > c)
                } else {
                    o.start == winner.start
                }
        };
        for o in members().filter(|o| !written(o)) {
            let shadowed = &table.fields[o.field as usize];
            self.check(shadowed.kind, o.span())
                .map_err(|err| err.in_field(shadowed.name.as_bytes()))?;
        }
        let result = match f.kind {
            Kind::Message(m) | Kind::Group(m) if once => self.message(e, m, &[winner.span()]),
            Kind::Message(_) | Kind::Group(_) => {
                let these: Vec<Occurrence> = members().filter(|o| written(o)).copied().collect();
                self.singular(e, f.kind, &these)
            }
            Kind::Double if value_only => {
                let raw = raw_value(f.kind, self.bytes(winner.span()));
                write_value_number(e, f64::from_bits(raw));
                Ok(())
            }
            _ => self.value(e, f.kind, winner.span()),
        };
        result.map_err(|err| err.in_field(f.name.as_bytes()))
    }

    /// Checks a value that is not written, shadowed by a later one, as
    /// prost reads it (it decodes every value it meets): a string must be
    /// UTF-8 and a message well-formed all through (it is transcoded into
    /// a scratch buffer; its encoding errors do not count, as it is not
    /// written). The transcoder otherwise reads only what it writes.
    #[cold]
    fn check(&mut self, kind: Kind, span: Span) -> Result<(), Error> {
        match kind {
            Kind::String => utf8(self.bytes(span), span.0).map(drop),
            Kind::Message(m) | Kind::Group(m) => {
                let opts = EncodeOptions::new();
                let mut scratch = Vec::new();
                match encode_with(&opts, &mut scratch, |e| self.message(e, m, &[span])) {
                    Err(err) if err.kind() == ErrorKind::Binary => Err(err),
                    _ => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }

    /// Writes a `google.protobuf.Any` whose body is the concatenation of
    /// `parts`. Its own fields are part of the input (malformed ones are
    /// binary errors); what it packs is not, for prost and so for the
    /// generated code, which decode it afresh (with a depth limit of its
    /// own) only to write it: an `Any` that cannot be written is an
    /// encoding error, recorded as the generated code records it (the
    /// first one met is reported, with no field path).
    fn any(&mut self, e: &mut Encoder<'_>, parts: &[Span]) -> Result<(), Error> {
        let (url, value) = self.any_fields(parts)?;
        let type_url = utf8(self.bytes(url), url.0)?;
        if type_url.is_empty() && value.0 == value.1 {
            let object = e.begin_object();
            e.end_object(object);
            return Ok(());
        }
        let packed = match self.packed_type(type_url) {
            Ok(packed) => packed,
            Err(message) => return fail(e, message),
        };
        if self.anys >= MAX_ANY_DEPTH {
            let message =
                format!("google.protobuf.Any values are nested more than {MAX_ANY_DEPTH} deep");
            return fail(e, message);
        }
        self.anys += 1;
        let depth = std::mem::replace(&mut self.depth, 0);
        let result = self.packed(e, type_url, packed, value);
        self.depth = depth;
        self.anys -= 1;
        if let Err(err) = result {
            if self.pass == Pass::Within {
                // A single pass gave up below: the message that began it is
                // written again, this `Any` with it.
                return Err(err);
            }
            let message = format!(
                "cannot decode the value of the google.protobuf.Any of type {type_url:?}: {}",
                err.message()
            );
            e.fail(encode_error(message));
        }
        Ok(())
    }

    /// The spans of an `Any`'s type URL and value (the last of each; a
    /// type URL before the last must be UTF-8 too).
    fn any_fields(&self, parts: &[Span]) -> Result<(Span, Span), Error> {
        let mut url: Span = (0, 0);
        let mut value: Span = (0, 0);
        for &(start, end) in parts {
            let mut reader = WireReader::new(self.input, start, end);
            while let Some(raw) = reader.next_field()? {
                let slot = match raw.number {
                    1 => &mut url,
                    2 => &mut value,
                    _ => continue,
                };
                if raw.wire != WireType::LengthDelimited {
                    return Err(wire_error(&raw, WireType::LengthDelimited));
                }
                if raw.number == 1 && slot.1 > slot.0 {
                    // A type URL replaced by a later one is still a string.
                    utf8(self.bytes(*slot), slot.0)?;
                }
                *slot = (raw.start, raw.end);
            }
        }
        Ok((url, value))
    }

    /// What the type URL of an `Any` names, or why it names nothing.
    fn packed_type(&self, type_url: &str) -> Result<Packed, String> {
        let name = any_type_name(type_url)?;
        if name == "google.protobuf.Any" {
            return Ok(Packed::Any);
        }
        if let Some(entry) = well_known(name) {
            return Ok(Packed::WellKnown(entry));
        }
        match self.schema.message_index(name) {
            Some(index) => Ok(Packed::Message(index)),
            None => Err(crate::unknown_type(name, type_url)),
        }
    }

    /// Writes the object of an `Any` that packs `packed`, whose encoding
    /// is the span `value`; an error is one in that encoding.
    fn packed(
        &mut self,
        e: &mut Encoder<'_>,
        type_url: &str,
        packed: Packed,
        value: Span,
    ) -> Result<(), Error> {
        if let Packed::WellKnown(entry) = packed {
            // The runtime's entry writes the whole object itself.
            (entry.write)(e, type_url, self.bytes(value));
            return Ok(());
        }
        let object = e.begin_object();
        e.field(TYPE_KEY, TYPE_KEY);
        e.string(type_url);
        if let Packed::Message(index) = packed {
            let mut result = Ok(());
            e.inline_object(|e| result = self.message(e, index, &[value]));
            result?;
        } else {
            e.field(VALUE_KEY, VALUE_KEY);
            self.any(e, &[value])?;
        }
        e.end_object(object);
        Ok(())
    }
}

/// What an `Any` packs.
#[derive(Clone, Copy)]
enum Packed {
    /// Another `Any`.
    Any,
    /// A well-known type, written by the runtime's entry for it.
    WellKnown(WellKnown),
    /// A message of the pool, by index.
    Message(u32),
}

/// Records an encoding error and writes a placeholder (the output is
/// discarded), as the generated code does; writing goes on.
#[cold]
fn fail(e: &mut Encoder<'_>, message: String) -> Result<(), Error> {
    e.fail(encode_error(message));
    e.null();
    Ok(())
}

/// A map entry: its key, its value's bytes, and where it was.
struct Entry {
    key: MapKey,
    value: Option<Span>,
    /// The value's earlier occurrences, for a message value (merged).
    earlier: Vec<Span>,
    at: u32,
}

/// A map key, ordered as the generated code orders keys.
enum MapKey {
    Text(Span),
    Signed(i64),
    Unsigned(u64),
    Bool(bool),
}

/// Whether occurrence `o` of repeated field `f` is packed.
#[inline]
fn packed(f: &Field, o: &Occurrence) -> bool {
    o.wire == WireType::LengthDelimited && f.kind.packable()
}

/// What a message nested in a single pass returns when it cannot be written
/// in it; the pass gives up and never shows it.
#[cold]
fn gave_up() -> Error {
    binary_error(String::new(), 0)
}

/// Writes a field's key.
#[inline]
fn key(e: &mut Encoder<'_>, f: &Field) {
    if f.ascii {
        e.field_of_table(&f.json_key, &f.proto_key);
    } else {
        e.field_non_ascii(&f.json_key, &f.proto_key);
    }
}

/// Fails unless `raw` has a wire type field `f` may have: its kind's, or
/// for a repeated scalar also packed.
fn check_wire(f: &Field, raw: &RawField) -> Result<(), Error> {
    if raw.wire == f.wire {
        return Ok(());
    }
    if matches!(f.card, Card::Repeated { .. })
        && f.kind.packable()
        && raw.wire == WireType::LengthDelimited
    {
        return Ok(());
    }
    Err(wire_error(raw, f.wire).in_field(f.name.as_bytes()))
}

#[cold]
fn wire_error(raw: &RawField, expected: WireType) -> Error {
    binary_error(
        format!(
            "invalid wire type: {:?} (expected {expected:?}) for field {}",
            raw.wire, raw.number
        ),
        raw.start as usize,
    )
}

/// The raw bits of a varint or fixed-width value (0 for no bytes).
#[inline]
fn raw_value(kind: Kind, bytes: &[u8]) -> u64 {
    if bytes.is_empty() {
        return 0;
    }
    match kind.wire_type() {
        WireType::SixtyFourBit => fixed64(bytes),
        WireType::ThirtyTwoBit => u64::from(fixed32(bytes)),
        _ => varint(bytes),
    }
}

/// Takes one value of a packed field off `rest`; `None` if it is cut off.
#[inline]
fn packed_value(kind: Kind, rest: &mut &[u8]) -> Option<u64> {
    let width = match kind.wire_type() {
        WireType::SixtyFourBit => 8,
        WireType::ThirtyTwoBit => 4,
        _ => return decode_varint(rest).ok(),
    };
    let (value, tail) = rest.split_at_checked(width)?;
    *rest = tail;
    Some(raw_value(kind, value))
}

/// Undoes the zigzag encoding of `sint32` and `sint64`.
#[inline]
fn zigzag(raw: u64) -> i64 {
    ((raw >> 1) as i64) ^ -((raw & 1) as i64)
}

/// Undoes the zigzag encoding of `sint32`, from the low 32 bits.
#[inline]
fn zigzag32(raw: u64) -> i32 {
    let v = raw as u32;
    ((v >> 1) as i32) ^ -((v & 1) as i32)
}

/// A string field's text; at `start` for the error if it is not UTF-8.
#[inline]
fn utf8(bytes: &[u8], start: u32) -> Result<&str, Error> {
    std::str::from_utf8(bytes).map_err(|_| not_utf8(start))
}

/// The error for a string field at `start` whose bytes are not UTF-8.
#[cold]
fn not_utf8(start: u32) -> Error {
    binary_error(
        "invalid string value: data is not UTF-8 encoded".into(),
        start as usize,
    )
}
