//! ProtoJSON to binary protobuf, straight from the JSON text to the wire
//! bytes, through the runtime's decoder (so its errors, limits and options
//! are the generated code's).
//!
//! Fields are written in the order the JSON has them, which protobuf
//! accepts: there are no duplicates to resolve (the decoder rejects them).
//! A nested message is written after one byte kept for its length, and
//! moved when its length needs more (see `wire::nested`). Fields without
//! presence at their default value are left out, as prost leaves them out.

use std::collections::HashSet;

use prost::encoding::WireType;
use protojsonx_runtime::__dynamic::{
    Decoder, JsonType, MapKey, Probe, any_type_name, decode_with, probe_any, read_value_member,
    well_known,
};
use protojsonx_runtime::{DecodeOptions, Error};

use crate::table::{Card, Field, Kind, Schema, Table};
use crate::wire::{nested, put_varint, tag};
use crate::wkt::{Shape, Special};

/// Transcodes `json`, a message of type `index`, appending its binary encoding to `out`.
pub(crate) fn transcode(
    schema: &Schema,
    index: u32,
    json: &[u8],
    opts: &DecodeOptions,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    let start = out.len();
    let mut reader = JsonReader {
        schema,
        keys: MAP_KEYS.take(),
    };
    let result = decode_with(opts, json, |d| reader.message(d, index, out));
    reader.keys.clear();
    MAP_KEYS.set(reader.keys);
    if result.is_err() {
        out.truncate(start);
    }
    result
}

thread_local! {
    /// The map key list of the last transcode on this thread, kept so that
    /// maps of a few entries find duplicate keys without allocating.
    static MAP_KEYS: std::cell::Cell<Vec<(usize, usize)>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Up to this many entries, a map's keys are compared with each earlier
/// key in the output; above, they go into a hash set.
const MAP_KEYS_SCANNED: usize = 16;

struct JsonReader<'s> {
    schema: &'s Schema,
    /// Where the keys of the maps being read are in the output (start and
    /// length of each entry's encoded key), the innermost map's last.
    keys: Vec<(usize, usize)>,
}

impl JsonReader<'_> {
    /// Reads a message of type `index` and appends its fields.
    fn message(&mut self, d: &mut Decoder<'_>, index: u32, out: &mut Vec<u8>) -> Result<(), Error> {
        let schema = self.schema;
        let table = schema.table(index);
        match table.special {
            Some(Special::Any) => return self.any(d, out),
            Some(Special::Wkt(codec)) if codec.shape != Shape::Codec => {
                return self.unwrapped(d, table, codec.shape, out);
            }
            Some(Special::Wkt(codec)) => return (codec.read)(d, out),
            None => {}
        }
        let start = if table.required.is_empty() {
            0
        } else {
            d.offset()
        };
        let mut oneofs = Flags::new(table.oneofs.len());
        let mut required = Flags::new(table.required.len());
        d.read_fields_owned(
            &table.keys,
            |key| table.by_key(key),
            |d, index| {
                let f = &table.fields[index];
                if !f.null_is_value && d.take_null() {
                    return Ok(());
                }
                if let Some(oneof) = f.oneof {
                    let mut seen = oneofs.get(oneof as usize);
                    d.mark_oneof(&mut seen, &table.oneofs[oneof as usize])?;
                    oneofs.set(oneof as usize);
                }
                if let Card::Required(slot) = f.card {
                    required.set(slot as usize);
                }
                self.field(d, f, out)
            },
        )?;
        for (slot, &index) in table.required.iter().enumerate() {
            if !required.get(slot) {
                d.missing_required(start, &table.fields[index].name)?;
            }
        }
        Ok(())
    }

    /// Reads the JSON of a `Struct`, `ListValue`, `Value` or wrapper (a
    /// table that [`fits`](Shape::fits) its shape) as the field its JSON
    /// stands for: an object as `Struct`'s map, an array as `ListValue`'s
    /// list, a wrapper's value as its one field, and any value as the
    /// member of `Value`'s oneof that holds it.
    fn unwrapped(
        &mut self,
        d: &mut Decoder<'_>,
        table: &Table,
        shape: Shape,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let f = &table.fields[0];
        match (shape, f.card) {
            (Shape::Struct, Card::Map { key, value }) => self.map(d, f.number, key, value, out),
            (Shape::List, Card::Repeated { packed }) => self.list(d, f, packed, out),
            (Shape::Wrapper, _) => self.single(d, f.number, f.kind, true, out).map(drop),
            _ => self.json_value(d, table, out),
        }
    }

    /// Reads any JSON value as a `google.protobuf.Value` (`table`) holds it:
    /// `null`, a number, a string, a bool, a `Struct` or a `ListValue`.
    fn json_value(
        &mut self,
        d: &mut Decoder<'_>,
        table: &Table,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let member = match d.json_type()? {
            JsonType::Null => 0,
            JsonType::Number => 1,
            JsonType::String => 2,
            JsonType::Bool => 3,
            JsonType::Object => 4,
            JsonType::Array => 5,
        };
        let f = &table.fields[member];
        match f.kind {
            // Consumes `null`, or fails on a malformed literal.
            Kind::Enum(_) => {
                d.skip_value()?;
                tag(f.number, WireType::Varint, out);
                put_varint(0, out);
                Ok(())
            }
            // A oneof member is written whatever its value.
            kind => self.single(d, f.number, kind, false, out).map(drop),
        }
    }

    fn field(&mut self, d: &mut Decoder<'_>, f: &Field, out: &mut Vec<u8>) -> Result<(), Error> {
        match f.card {
            Card::Repeated { packed } => self.list(d, f, packed, out),
            Card::Map { key, value } => self.map(d, f.number, key, value, out),
            Card::Implicit => self.single(d, f.number, f.kind, true, out).map(drop),
            Card::Optional { .. } | Card::Required(_) => {
                self.single(d, f.number, f.kind, false, out).map(drop)
            }
        }
    }

    /// Reads one value of field `number` and appends it with its tag; an
    /// `implicit` field at its default value is left out, and so is an
    /// enum name skipped by `ignore_unknown_fields`. Reports whether it was written.
    fn single(
        &mut self,
        d: &mut Decoder<'_>,
        number: u32,
        kind: Kind,
        implicit: bool,
        out: &mut Vec<u8>,
    ) -> Result<bool, Error> {
        match kind {
            Kind::Message(m) => {
                tag(number, WireType::LengthDelimited, out);
                nested(out, |out| self.message(d, m, out))?;
            }
            Kind::Group(m) => {
                tag(number, WireType::StartGroup, out);
                self.message(d, m, out)?;
                tag(number, WireType::EndGroup, out);
            }
            _ => {
                let mark = out.len();
                tag(number, kind.wire_type(), out);
                match self.scalar(d, kind, out)? {
                    Some(default) if !(implicit && default) => {}
                    _ => {
                        out.truncate(mark);
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    /// Reads a scalar (or enum) value and appends its encoding; whether it
    /// is the default, or `None` for a skipped enum name.
    fn scalar(
        &mut self,
        d: &mut Decoder<'_>,
        kind: Kind,
        out: &mut Vec<u8>,
    ) -> Result<Option<bool>, Error> {
        let default = match kind {
            Kind::Double => {
                let v = d.read_f64()?;
                out.extend_from_slice(&v.to_le_bytes());
                v.to_bits() == 0
            }
            Kind::Float => {
                let v = d.read_f32()?;
                out.extend_from_slice(&v.to_le_bytes());
                v.to_bits() == 0
            }
            Kind::Int64 => varint(d.read_i64()? as u64, out),
            Kind::Uint64 => varint(d.read_u64()?, out),
            Kind::Int32 => varint(i64::from(d.read_i32()?) as u64, out),
            Kind::Uint32 => varint(u64::from(d.read_u32()?), out),
            Kind::Bool => varint(u64::from(d.read_bool()?), out),
            Kind::Sint32 => {
                let v = d.read_i32()?;
                varint(zigzag32(v), out)
            }
            Kind::Sint64 => {
                let v = d.read_i64()?;
                varint(zigzag64(v), out)
            }
            Kind::Fixed64 => fixed(&d.read_u64()?.to_le_bytes(), out),
            Kind::Sfixed64 => fixed(&d.read_i64()?.to_le_bytes(), out),
            Kind::Fixed32 => fixed(&d.read_u32()?.to_le_bytes(), out),
            Kind::Sfixed32 => fixed(&d.read_i32()?.to_le_bytes(), out),
            Kind::String => appended(out, |out| d.read_str_append(out))?,
            Kind::Bytes => appended(out, |out| d.read_bytes_append(out))?,
            Kind::Enum(e) => {
                let table = self.schema.enum_table(e);
                let read = d.read_enum_with(&table.full_name, table.null_value, |name| {
                    table.value_of(name)
                })?;
                match read {
                    Some(v) => varint(i64::from(v) as u64, out),
                    None => return Ok(None),
                }
            }
            Kind::Message(_) | Kind::Group(_) => unreachable!("messages are read by single"),
        };
        Ok(Some(default))
    }

    /// Reads a repeated field's array.
    fn list(
        &mut self,
        d: &mut Decoder<'_>,
        f: &Field,
        packed: bool,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let (number, kind) = (f.number, f.kind);
        if !(packed && kind.packable()) {
            return d.read_array(|d| self.single(d, number, kind, false, out).map(drop));
        }
        let mark = out.len();
        tag(number, WireType::LengthDelimited, out);
        let mut count = 0usize;
        nested(out, |out| {
            d.read_array(|d| {
                count += usize::from(self.scalar(d, kind, out)?.is_some());
                Ok(())
            })
        })?;
        if count == 0 {
            out.truncate(mark);
        }
        Ok(())
    }

    /// Reads a map field's object: an entry message per key.
    fn map(
        &mut self,
        d: &mut Decoder<'_>,
        number: u32,
        key_kind: Kind,
        value_kind: Kind,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let base = self.keys.len();
        let mut many: Option<HashSet<Box<[u8]>>> = None;
        let result = d.read_map_entries(|d, key, start| {
            let mark = out.len();
            tag(number, WireType::LengthDelimited, out);
            let mut written = false;
            let mut lengths = (0, 0);
            nested(out, |out| {
                let key_start = out.len();
                map_key(key_kind, key, out).map_err(|m| d.invalid_at(start, m))?;
                let key_len = out.len() - key_start;
                written = self.single(d, 2, value_kind, false, out)?;
                if written && !self.new_key(&mut many, base, out, (key_start, key_len)) {
                    return Err(d.duplicate_key(start));
                }
                lengths = (out.len() - key_start, key_len);
                Ok(())
            })?;
            if written {
                // Where the key is now that the entry's length is written.
                let (entry_len, key_len) = lengths;
                self.keys.push((out.len() - entry_len, key_len));
            } else {
                out.truncate(mark);
            }
            Ok(())
        });
        self.keys.truncate(base);
        result
    }

    /// Whether the encoded map key at `key` in `out` differs from every
    /// earlier key of the map whose keys start at `base` in `self.keys`.
    fn new_key(
        &self,
        many: &mut Option<HashSet<Box<[u8]>>>,
        base: usize,
        out: &[u8],
        (start, len): (usize, usize),
    ) -> bool {
        let bytes = &out[start..start + len];
        let earlier = &self.keys[base..];
        if many.is_none() && earlier.len() < MAP_KEYS_SCANNED {
            return !earlier.iter().any(|&(s, l)| out[s..s + l] == *bytes);
        }
        let set = many
            .get_or_insert_with(|| earlier.iter().map(|&(s, l)| out[s..s + l].into()).collect());
        set.insert(bytes.into())
    }

    /// Reads a `google.protobuf.Any`: the type its `@type` names, from the
    /// pool (or a well-known type), and its fields (or its `value`).
    fn any(&mut self, d: &mut Decoder<'_>, out: &mut Vec<u8>) -> Result<(), Error> {
        let (start, probe) = probe_any(d)?;
        let (type_url, offset) = match probe {
            Probe::Empty => return d.skip_value(),
            Probe::Missing if d.ignore_unknown_fields() => return d.skip_value(),
            Probe::Missing => {
                let message = "missing \"@type\" field in google.protobuf.Any".into();
                return Err(d.invalid_at(start, message));
            }
            Probe::Found { type_url, offset } => (type_url, offset),
        };
        let name =
            any_type_name(&type_url).map_err(|m| d.invalid_at(offset, m).in_field(b"@type"))?;
        tag(1, WireType::LengthDelimited, out);
        put_varint(type_url.len() as u64, out);
        out.extend_from_slice(type_url.as_bytes());
        if name == "google.protobuf.Any" {
            tag(2, WireType::LengthDelimited, out);
            return nested(out, |out| self.any_in_any(d, start, out));
        }
        if let Some(entry) = well_known(name) {
            // The runtime's codec writes the message into a `Vec` of its own.
            let mut value = Vec::new();
            (entry.read)(d, start, &mut value)?;
            tag(2, WireType::LengthDelimited, out);
            put_varint(value.len() as u64, out);
            out.extend_from_slice(&value);
            return Ok(());
        }
        let Some(index) = self.schema.message_index(name) else {
            let message = crate::unknown_type(name, &type_url);
            return Err(d.invalid_at(offset, message).in_field(b"@type"));
        };
        tag(2, WireType::LengthDelimited, out);
        nested(out, |out| {
            d.read_any_fields(|d| self.message(d, index, out))
        })
    }

    /// Reads the object of an `Any` that packs an `Any`: `@type`, and the
    /// packed `Any` under `value`.
    fn any_in_any(
        &mut self,
        d: &mut Decoder<'_>,
        start: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        read_value_member(d, start, true, |d| self.any(d, out))
    }
}

/// Appends a varint; whether it is 0.
#[inline]
fn varint(v: u64, out: &mut Vec<u8>) -> bool {
    put_varint(v, out);
    v == 0
}

/// The zigzag encoding of an `sint32`, as a varint's value.
#[inline]
fn zigzag32(v: i32) -> u64 {
    u64::from(((v << 1) ^ (v >> 31)) as u32)
}

/// The zigzag encoding of an `sint64`, as a varint's value.
#[inline]
fn zigzag64(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// Appends a length-delimited value whose content `read` appends (a
/// string's text or decoded bytes, straight into the output); whether it is empty.
#[inline]
fn appended(
    out: &mut Vec<u8>,
    read: impl FnOnce(&mut Vec<u8>) -> Result<(), Error>,
) -> Result<bool, Error> {
    let mut empty = true;
    nested(out, |out| {
        let start = out.len();
        read(out)?;
        empty = out.len() == start;
        Ok(())
    })?;
    Ok(empty)
}

/// Appends fixed-width bytes; whether they are all 0.
#[inline]
fn fixed(bytes: &[u8], out: &mut Vec<u8>) -> bool {
    out.extend_from_slice(bytes);
    bytes.iter().all(|&b| b == 0)
}

/// Parses a map key of kind `kind` from its JSON text and appends it as
/// field 1 of the entry.
fn map_key(kind: Kind, text: &str, out: &mut Vec<u8>) -> Result<(), String> {
    tag(1, kind.wire_type(), out);
    match kind {
        Kind::String => {
            put_varint(text.len() as u64, out);
            out.extend_from_slice(text.as_bytes());
        }
        Kind::Bool => put_varint(u64::from(bool::parse_key(text)?), out),
        Kind::Int32 => put_varint(i64::from(i32::parse_key(text)?) as u64, out),
        Kind::Sint32 => {
            let v = i32::parse_key(text)?;
            put_varint(zigzag32(v), out);
        }
        Kind::Sfixed32 => out.extend_from_slice(&i32::parse_key(text)?.to_le_bytes()),
        Kind::Int64 => put_varint(i64::parse_key(text)? as u64, out),
        Kind::Sint64 => {
            let v = i64::parse_key(text)?;
            put_varint(zigzag64(v), out);
        }
        Kind::Sfixed64 => out.extend_from_slice(&i64::parse_key(text)?.to_le_bytes()),
        Kind::Uint32 => put_varint(u64::from(u32::parse_key(text)?), out),
        Kind::Fixed32 => out.extend_from_slice(&u32::parse_key(text)?.to_le_bytes()),
        Kind::Uint64 => put_varint(u64::parse_key(text)?, out),
        Kind::Fixed64 => out.extend_from_slice(&u64::parse_key(text)?.to_le_bytes()),
        _ => return Err("this kind cannot be a map key".into()),
    }
    Ok(())
}

/// A set of small indexes (oneofs or required fields met), in one word
/// for up to 64.
struct Flags {
    word: u64,
    more: Vec<bool>,
}

impl Flags {
    fn new(len: usize) -> Self {
        Flags {
            word: 0,
            more: if len > 64 {
                vec![false; len]
            } else {
                Vec::new()
            },
        }
    }

    fn get(&self, i: usize) -> bool {
        if self.more.is_empty() {
            self.word & 1 << i != 0
        } else {
            self.more[i]
        }
    }

    fn set(&mut self, i: usize) {
        if self.more.is_empty() {
            self.word |= 1 << i;
        } else {
            self.more[i] = true;
        }
    }
}
