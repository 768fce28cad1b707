//! The encoder generated code writes through: a byte buffer plus the options.
//!
//! Generated `write_json` bodies call these methods in field order. Keys come
//! pre-escaped and pre-quoted from the generator, with the comma before them
//! (`,"userId":`), so writing a key is one copy of known size; the object's
//! end turns its first comma into the `{` (see [`Encoder::begin_object`]).
//! Numbers and short strings are written by [`digits`](crate::text::digits)
//! and [`escape`].

mod object;

use std::io;

pub use object::ObjectWriter;

use crate::error::Error;
use crate::map::{self, JsonMap, MapKey};
use crate::options::EncodeOptions;
use crate::size_hint::SizeHint;
use crate::text::short::{self, ShortText};
use crate::text::{base64, escape};
use crate::wkt::TypeRegistry;
use crate::{JsonEnum, ProtoJson};

/// Maps of up to this many entries are sorted on the stack.
const SORT_ON_STACK: usize = 16;

/// How [`Encoder::field`] writes keys.
#[derive(Clone, Copy)]
enum Keys {
    /// The JSON name, as given (comma, key and colon).
    Json,
    /// The proto name, as given.
    Proto,
    /// Pretty-printed: see [`Encoder::styled_field`].
    Pretty,
}

/// Where an object began in the output: returned by
/// [`Encoder::begin_object`], given back to [`Encoder::end_object`].
#[must_use = "an object is ended with `end_object`"]
pub struct Object(usize);

/// A point of the output to come back to with [`Encoder::rewind`].
pub struct Mark {
    len: usize,
    depth: usize,
    failed: bool,
}

/// Writes ProtoJSON into a byte buffer. Part of the contract with generated code.
pub struct Encoder<'a> {
    /// The output, held by value: the encoder's own memory, which stores
    /// through the buffer's bytes cannot alias, so that its length and
    /// capacity stay in registers between writes. A caller's buffer is
    /// lent to the encoder and given back (see [`encode_with`]).
    out: Vec<u8>,
    /// The options, for what is read once in a while (the type registry,
    /// pretty keys); what the writes read is below, taken from them once.
    opts: &'a EncodeOptions,
    /// How keys are written.
    keys: Keys,
    /// Whether fields without presence are written at their default value.
    emit_defaults: bool,
    /// Whether unset fields with presence are written as `null`.
    emit_unpopulated: bool,
    /// Whether text is written as ASCII, the rest escaped.
    ensure_ascii: bool,
    /// Whether enums are written as numbers.
    enums_as_ints: bool,
    /// Spaces per level when pretty-printing; `None` for compact output.
    indent: Option<u8>,
    /// How many objects and arrays are open: the indentation of their
    /// members when pretty-printing.
    depth: usize,
    /// The first error met. Encoding goes on to the end (the output is then
    /// discarded), which keeps every write infallible and the hot path free of checks.
    error: Option<Error>,
}

impl<'a> Encoder<'a> {
    /// An encoder that appends to `out`. In line by force, as are the
    /// entry points that call it: options made just before the call (as
    /// `to_vec(&msg)` makes the defaults) are then constants, not bytes in
    /// memory; read back out of line, as wider words than they were stored
    /// with, each load waits for the stores to retire (`small`'s encode
    /// guards it).
    #[inline(always)]
    pub(crate) fn new(out: Vec<u8>, opts: &'a EncodeOptions) -> Self {
        let keys = match (opts.indent, opts.use_proto_names) {
            (Some(_), _) => Keys::Pretty,
            (None, true) => Keys::Proto,
            (None, false) => Keys::Json,
        };
        Encoder {
            out,
            opts,
            keys,
            emit_defaults: opts.emit_default_values || opts.emit_unpopulated,
            emit_unpopulated: opts.emit_unpopulated,
            ensure_ascii: opts.ensure_ascii,
            enums_as_ints: opts.enums_as_ints,
            indent: opts.indent,
            depth: 0,
            error: None,
        }
    }

    /// Records an error; the first one recorded is the one returned.
    #[cold]
    pub fn fail(&mut self, error: Error) {
        self.error.get_or_insert(error);
    }

    /// The point the output has reached, for [`rewind`](Self::rewind).
    #[inline]
    pub fn mark(&self) -> Mark {
        Mark {
            len: self.out.len(),
            depth: self.depth,
            failed: self.error.is_some(),
        }
    }

    /// Drops what was written since `mark`, and an error recorded since: a
    /// writer that took a fast path it had to leave writes it again another
    /// way (the dynamic transcoder's single pass).
    #[cold]
    pub fn rewind(&mut self, mark: Mark) {
        self.out.truncate(mark.len);
        self.depth = mark.depth;
        if !mark.failed {
            self.error = None;
        }
    }

    /// Ends encoding: the output, or the error recorded.
    #[inline]
    pub(crate) fn finish(self) -> Result<Vec<u8>, Error> {
        match self.error {
            None => Ok(self.out),
            Some(error) => Err(error),
        }
    }

    /// Whether fields without presence are written even at their default
    /// value (`emit_default_values` or `emit_unpopulated`).
    #[inline]
    pub fn emit_defaults(&self) -> bool {
        self.emit_defaults
    }

    /// An unset message or proto2 `optional` field: written as `null` when
    /// the options emit unpopulated fields (Go's `EmitUnpopulated`).
    #[inline]
    pub fn unset_field(&mut self, json_key: &[u8], proto_key: &[u8]) {
        if self.emit_unpopulated {
            self.field_non_ascii(json_key, proto_key);
            self.null();
        }
    }

    /// The registry the options name for `Any`, if any.
    #[inline]
    pub(crate) fn type_registry(&self) -> Option<&'static TypeRegistry> {
        self.opts.registry.0
    }

    /// Appends the text `build` writes, at most 32 bytes of valid JSON text
    /// (see [`short::append`]): the strings of `Timestamp` and `Duration`.
    #[inline]
    pub(crate) fn short(&mut self, build: impl FnOnce(&mut ShortText<'_>)) {
        short::append(&mut self.out, build);
    }

    /// Starts an object. Nothing is written yet: members are written with a
    /// leading comma each, and [`end_object`](Self::end_object) turns the
    /// first one into the `{` (so no member has to ask whether it is first).
    #[inline]
    pub fn begin_object(&mut self) -> Object {
        self.depth += 1;
        Object(self.out.len())
    }

    /// Ends the object `object` began: `{}` if it has no members, otherwise
    /// its first member's comma becomes `{`, and `}` follows.
    #[inline]
    pub fn end_object(&mut self, object: Object) {
        self.depth -= 1;
        self.close(object.0, b'{', b'}');
    }

    /// Closes a container that began at `start`, whose members each start
    /// with a comma: `open` replaces the first comma (or, with no members,
    /// `open` and `close` are written), and `close` is appended, on a line
    /// of its own when pretty-printing.
    #[inline(always)]
    fn close(&mut self, start: usize, open: u8, close: u8) {
        self.with_writer(|w| w.close(start, open, close));
    }

    /// Starts a member of an object or an element of an array: the comma,
    /// and when pretty-printing the new line and indentation.
    #[inline(always)]
    fn separator(&mut self) {
        self.with_writer(|w| w.separator());
    }

    /// Starts a field: writes its key, which brings its own separating
    /// comma. Both keys are complete JSON keys, like `,"userId":`.
    /// Inlined where both keys are constants (the well-known types'
    /// writers; generated code calls the [`ObjectWriter`]'s): each branch
    /// then copies a known number of bytes, with no call to `memcpy`.
    #[inline(always)]
    pub fn field(&mut self, json_key: &[u8], proto_key: &[u8]) {
        self.with_writer(|w| w.field(json_key, proto_key));
    }

    /// [`field`](Self::field) for keys known only at run time, as a
    /// transcoder's tables hold them: a key of up to 16 bytes (most keys)
    /// is copied in two words rather than by a call to `memcpy`.
    #[inline(always)]
    pub fn field_of_table(&mut self, json_key: &[u8], proto_key: &[u8]) {
        let key = match self.keys {
            Keys::Json => json_key,
            Keys::Proto => proto_key,
            Keys::Pretty => return self.styled_field(json_key, proto_key),
        };
        if key.len() <= ShortText::MAX_STR {
            short::append(&mut self.out, |text| {
                text.bytes(key);
            });
        } else {
            self.out.extend_from_slice(key);
        }
    }

    /// [`field`](Self::field) for keys whose JSON name is not ASCII (set by
    /// a `json_name` option): escaped when the options ask for ASCII only.
    #[inline(never)]
    pub fn field_non_ascii(&mut self, json_key: &[u8], proto_key: &[u8]) {
        if self.ensure_ascii {
            self.styled_field(json_key, proto_key);
        } else {
            self.field(json_key, proto_key);
        }
    }

    /// [`field`](Self::field) when pretty-printing or writing only ASCII:
    /// see [`ObjectWriter::styled_field`].
    fn styled_field(&mut self, json_key: &[u8], proto_key: &[u8]) {
        ObjectWriter::styled_field(self, json_key, proto_key);
    }

    /// The `:` after a key, followed by a space when pretty-printing.
    #[inline(always)]
    fn colon(&mut self) {
        self.with_writer(|w| w.colon());
    }

    /// Writes `null`.
    #[inline]
    pub fn null(&mut self) {
        self.with_writer(|w| w.null());
    }

    /// Writes a bool.
    #[inline]
    pub fn bool(&mut self, v: bool) {
        self.with_writer(|w| w.bool(v));
    }

    /// Writes an int32, sint32 or sfixed32 as a JSON number.
    #[inline]
    pub fn i32(&mut self, v: i32) {
        self.with_writer(|w| w.i32(v));
    }

    /// Writes a uint32 or fixed32 as a JSON number.
    #[inline]
    pub fn u32(&mut self, v: u32) {
        self.with_writer(|w| w.u32(v));
    }

    /// Writes an int64, sint64 or sfixed64 as a JSON string.
    #[inline]
    pub fn i64(&mut self, v: i64) {
        self.with_writer(|w| w.i64(v));
    }

    /// Writes a uint64 or fixed64 as a JSON string.
    #[inline]
    pub fn u64(&mut self, v: u64) {
        self.with_writer(|w| w.u64(v));
    }

    /// Writes `"` + `text` + `"` for text that needs no escaping.
    #[inline]
    fn quoted(&mut self, text: &[u8]) {
        self.out.push(b'"');
        self.out.extend_from_slice(text);
        self.out.push(b'"');
    }

    /// Writes a double: shortest round-trip number, or `"NaN"`, `"Infinity"`, `"-Infinity"`.
    #[inline]
    pub fn f64(&mut self, v: f64) {
        self.with_writer(|w| w.f64(v));
    }

    /// Writes a float, formatted as the shortest text that round-trips as f32.
    #[inline]
    pub fn f32(&mut self, v: f32) {
        self.with_writer(|w| w.f32(v));
    }

    #[cold]
    fn non_finite(&mut self, nan: bool, negative: bool) {
        self.out.extend_from_slice(match (nan, negative) {
            (true, _) => b"\"NaN\"" as &[u8],
            (false, false) => b"\"Infinity\"",
            (false, true) => b"\"-Infinity\"",
        });
    }

    /// Writes a string, escaped per RFC 8259.
    #[inline]
    pub fn string(&mut self, v: &str) {
        self.with_writer(|w| w.string(v));
    }

    /// Writes `v`, the bytes of a string read off the binary wire, as a
    /// JSON string; fails, writing nothing, if they are not UTF-8. For a
    /// transcoder, which has bytes where generated code has a `String`:
    /// short ASCII is checked and copied in one step.
    #[inline]
    pub fn utf8_string(&mut self, v: &[u8]) -> Result<(), std::str::Utf8Error> {
        escape::write_utf8(&mut self.out, v, self.ensure_ascii)
    }

    /// Writes bytes as standard base64 with padding.
    #[inline]
    pub fn bytes(&mut self, v: &[u8]) {
        self.out.push(b'"');
        base64::encode(v, &mut self.out);
        self.out.push(b'"');
    }

    /// Writes an enum value: its name, or its number when the option asks for
    /// numbers or the value has no name (an unknown value of an open enum).
    #[inline]
    pub fn enumeration<E: JsonEnum>(&mut self, v: i32) {
        if E::IS_NULL_VALUE {
            return self.null();
        }
        self.enum_value(E::name_of(v), v);
    }

    /// Writes an enum value `v` whose name is `name` (`None` for a value
    /// without one): the name, or the number when the options ask for
    /// numbers or there is no name. For enums known only at run time.
    #[inline]
    pub fn enum_value(&mut self, name: Option<&str>, v: i32) {
        match name {
            Some(name) if !self.enums_as_ints => self.quoted(name.as_bytes()),
            _ => self.i32(v),
        }
    }

    /// Writes a message (or a well-known type in its special form).
    #[inline]
    pub fn message<M: ProtoJson>(&mut self, m: &M) {
        m.write_json(self);
    }

    /// Writes the members of the object `write` writes as more members of
    /// the object being written: the message inside an `Any`, after its
    /// `@type`. Its `{` becomes the separating comma and its `}` is dropped
    /// (the caller ends the outer object). False (and nothing written) if
    /// `write` wrote something other than an object.
    pub fn inline_object(&mut self, write: impl FnOnce(&mut Self)) -> bool {
        let start = self.out.len();
        // The members are indented as the outer object's are.
        self.depth -= 1;
        write(self);
        self.depth += 1;
        if self.out.get(start) != Some(&b'{') {
            self.out.truncate(start);
            return false;
        }
        self.out[start] = b',';
        self.out.pop();
        // The new line before the `}` when pretty-printing: a value never
        // ends in whitespace.
        while self.out.last().is_some_and(u8::is_ascii_whitespace) {
            self.out.pop();
        }
        if self.out.len() == start + 1 {
            // `{}`: no members to add.
            self.out.truncate(start);
        }
        true
    }

    /// Writes a repeated field as an array, each element through `write`.
    #[inline]
    pub fn list<T>(&mut self, items: &[T], mut write: impl FnMut(&mut Self, &T)) {
        let array = self.begin_array();
        for item in items {
            self.element();
            write(self, item);
        }
        self.end_array(array);
    }

    /// Starts an array whose elements are written one by one, each after
    /// an [`element`](Self::element) (for the dynamic transcoder; generated
    /// code writes whole lists with [`list`](Self::list)).
    #[inline]
    pub fn begin_array(&mut self) -> Object {
        self.depth += 1;
        Object(self.out.len())
    }

    /// Starts the next element of an array, or the next member of an
    /// object whose key is written next with [`map_key`](Self::map_key).
    #[inline]
    pub fn element(&mut self) {
        self.separator();
    }

    /// Ends the array `array` began: `[]`, or the first element's comma becomes `[`.
    #[inline]
    pub fn end_array(&mut self, array: Object) {
        self.depth -= 1;
        self.close(array.0, b'[', b']');
    }

    /// Writes a map entry's key and its colon, after an [`element`](Self::element).
    #[inline]
    pub fn map_key<K: MapKey>(&mut self, key: &K) {
        map::write_key(&mut self.out, key.json_key(), self.ensure_ascii);
        self.colon();
    }

    /// [`map_key`](Self::map_key) for a string key held as a `&str`.
    #[inline]
    pub fn map_key_str(&mut self, key: &str) {
        self.string(key);
        self.colon();
    }

    /// Writes a map field as an object with keys in sorted order, each value
    /// through `write`: a `BTreeMap` as it iterates, a `HashMap` sorted.
    pub fn map<K: MapKey, V, M: JsonMap<K, V>>(
        &mut self,
        map: &M,
        write: impl FnMut(&mut Self, &V),
    ) {
        in_key_order(map, MapEntries { to: self, write });
    }
}

/// What writes the entries of a map, given in key order (see [`in_key_order`]).
trait WriteEntries<K, V> {
    /// Writes the object of `entries`.
    fn write_entries<'m>(self, entries: impl Iterator<Item = (&'m K, &'m V)>)
    where
        K: 'm,
        V: 'm;
}

/// Gives the entries of `map` to `to` in key order: a `BTreeMap`'s as it
/// iterates, a `HashMap`'s sorted (on the stack for up to
/// [`SORT_ON_STACK`] entries, so small maps allocate nothing).
#[inline]
fn in_key_order<K: MapKey, V, M: JsonMap<K, V>>(map: &M, to: impl WriteEntries<K, V>) {
    let mut entries = map.iter_entries();
    let len = entries.len();
    match entries.next() {
        None => to.write_entries(std::iter::empty()),
        // One entry is in order too.
        Some(first) if M::IN_KEY_ORDER || len == 1 => {
            to.write_entries(std::iter::once(first).chain(entries));
        }
        Some(first) if len <= SORT_ON_STACK => {
            let mut slots = [first; SORT_ON_STACK];
            for (slot, entry) in slots[1..].iter_mut().zip(entries) {
                *slot = entry;
            }
            let slots = &mut slots[..len];
            slots.sort_unstable_by(|a, b| a.0.cmp(b.0));
            to.write_entries(slots.iter().copied());
        }
        Some(first) => {
            let mut all = Vec::with_capacity(len);
            all.push(first);
            all.extend(entries);
            all.sort_unstable_by(|a, b| a.0.cmp(b.0));
            to.write_entries(all.into_iter());
        }
    }
}

/// A map written through an [`Encoder`]: each value through `write`.
struct MapEntries<'e, 'a, F> {
    to: &'e mut Encoder<'a>,
    write: F,
}

impl<'a, K: MapKey, V, F: FnMut(&mut Encoder<'a>, &V)> WriteEntries<K, V>
    for MapEntries<'_, 'a, F>
{
    fn write_entries<'m>(mut self, entries: impl Iterator<Item = (&'m K, &'m V)>)
    where
        K: 'm,
        V: 'm,
    {
        let object = self.to.begin_object();
        for (key, value) in entries {
            self.to.separator();
            self.to.map_key(key);
            (self.write)(self.to, value);
        }
        self.to.end_object(object);
    }
}

/// The entry points of encoding.
impl EncodeOptions {
    /// Appends the JSON of `msg` to `buf`. Reusing one buffer across calls
    /// (clearing it in between) makes encoding allocation-free once the buffer has grown.
    ///
    /// On error `buf` is restored to its length before the call.
    #[inline(always)]
    pub fn encode_into<M: ProtoJson>(&self, msg: &M, buf: &mut Vec<u8>) -> Result<(), Error> {
        encode_with(self, buf, |e| {
            msg.write_json(e);
            Ok(())
        })
    }

    /// Encodes `msg` into a new byte vector, allocated once.
    ///
    /// The capacity comes from the size of the last JSON of the same message
    /// type (see `SizeHint`), so in steady use the vector is allocated once
    /// and never copied; an outsized guess is given back before returning.
    #[inline(always)]
    pub fn to_vec<M: ProtoJson>(&self, msg: &M) -> Result<Vec<u8>, Error> {
        let hint = M::size_hint();
        let capacity = hint.capacity();
        // The encoder owns the new vector outright: nothing to lend or give back.
        let mut encoder = Encoder::new(Vec::with_capacity(capacity), self);
        msg.write_json(&mut encoder);
        let mut buf = encoder.finish()?;
        hint.record(buf.len(), capacity);
        if SizeHint::too_roomy(buf.len(), buf.capacity()) {
            shrink(&mut buf);
        }
        Ok(buf)
    }

    /// Encodes `msg` into a new string.
    #[inline(always)]
    pub fn to_string<M: ProtoJson>(&self, msg: &M) -> Result<String, Error> {
        let bytes = self.to_vec(msg)?;
        Ok(String::from_utf8(bytes).expect("the encoder writes only UTF-8"))
    }

    /// Encodes `msg` and writes it to `writer` with one `write_all`.
    ///
    /// The JSON is built in a per-thread buffer that is reused from call to
    /// call (one over 1 MiB is freed after use), so steady use allocates
    /// nothing; nothing is written if encoding fails. For many messages to
    /// one writer, see [`NdjsonWriter`](crate::stream::NdjsonWriter) and
    /// [`ArrayWriter`](crate::stream::ArrayWriter).
    pub fn to_writer<W: io::Write, M: ProtoJson>(&self, writer: W, msg: &M) -> Result<(), Error> {
        crate::stream::single::write_message(self, writer, msg)
    }
}

/// `to_vec`'s rare path, kept out of line: inline, the reallocation's code
/// slows every small encode into a new vector (`small` guards it).
#[cold]
#[inline(never)]
fn shrink(buf: &mut Vec<u8>) {
    buf.shrink_to_fit();
}

/// Appends to `buf` what `write` writes through an encoder with `opts`: the
/// one way encoding starts, for messages and for the dynamic transcoder
/// (`protojsonx-dynamic`), whose writes can fail early. On error (returned
/// by `write` or recorded in the encoder) `buf` gets its old length back.
/// Part of the contract with generated code and the transcoder. In line by
/// force, as `Encoder::new` is.
#[inline(always)]
pub fn encode_with(
    opts: &EncodeOptions,
    buf: &mut Vec<u8>,
    write: impl FnOnce(&mut Encoder<'_>) -> Result<(), Error>,
) -> Result<(), Error> {
    let start = buf.len();
    let mut encoder = Encoder::new(std::mem::take(buf), opts);
    let lent = Lent {
        encoder: &mut encoder,
        home: &mut *buf,
    };
    let result = write(lent.encoder);
    drop(lent);
    match result.and(encoder.error.map_or(Ok(()), Err)) {
        Ok(()) => Ok(()),
        Err(error) => {
            buf.truncate(start);
            Err(error)
        }
    }
}

/// A caller's buffer lent to an encoder: given back when this is dropped,
/// however encoding ends (done, failed, or unwound by a panic). The encoder
/// by reference, so that it is not moved once built: a move copies it as
/// wide loads of words that were just stored in narrower pieces, and such
/// loads wait for the stores (see [`Encoder::new`]).
struct Lent<'b, 'a> {
    encoder: &'b mut Encoder<'a>,
    home: &'b mut Vec<u8>,
}

impl Drop for Lent<'_, '_> {
    #[inline(always)]
    fn drop(&mut self) {
        // `home` holds the empty vector the encoder's was taken for.
        std::mem::swap(self.home, &mut self.encoder.out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(opts: EncodeOptions, f: impl FnOnce(&mut Encoder<'_>)) -> String {
        let mut e = Encoder::new(Vec::new(), &opts);
        f(&mut e);
        String::from_utf8(e.finish().unwrap()).unwrap()
    }

    #[test]
    fn fields_are_separated_by_commas() {
        let json = encode(EncodeOptions::new(), |e| {
            let outer = e.begin_object();
            e.field(b",\"a\":", b",\"a\":");
            let inner = e.begin_object();
            e.field(b",\"b\":", b",\"b\":");
            e.i32(1);
            e.end_object(inner);
            e.field(b",\"cD\":", b",\"c_d\":");
            e.list(&[1, 2, 3], |e, v| e.u32(*v));
            e.field(b",\"e\":", b",\"e\":");
            let empty = e.begin_object();
            e.end_object(empty);
            e.field(b",\"f\":", b",\"f\":");
            e.list(&[0u32; 0], |e, v| e.u32(*v));
            e.end_object(outer);
        });
        assert_eq!(json, r#"{"a":{"b":1},"cD":[1,2,3],"e":{},"f":[]}"#);
    }

    #[test]
    fn proto_names_pick_the_second_key() {
        let json = encode(EncodeOptions::new().use_proto_names(true), |e| {
            let object = e.begin_object();
            e.field(b",\"cD\":", b",\"c_d\":");
            e.bool(true);
            e.end_object(object);
        });
        assert_eq!(json, r#"{"c_d":true}"#);
    }

    #[test]
    fn scalars_follow_the_protojson_forms() {
        let json = encode(EncodeOptions::new(), |e| {
            e.list(&[0, 1, 2, 3, 4, 5, 6, 7, 8], |e, i| match i {
                0 => e.i64(i64::MIN),
                1 => e.u64(u64::MAX),
                2 => e.i32(i32::MIN),
                3 => e.f64(f64::NAN),
                4 => e.f64(f64::NEG_INFINITY),
                5 => e.f32(f32::INFINITY),
                6 => e.f32(0.1),
                7 => e.bytes(b"\xff\x00"),
                _ => e.string("a\"b"),
            })
        });
        assert_eq!(
            json,
            r#"["-9223372036854775808","18446744073709551615",-2147483648,"NaN","-Infinity","Infinity",0.1,"/wA=","a\"b"]"#
        );
    }

    #[test]
    fn map_keys_are_sorted_by_their_natural_order() {
        let map: std::collections::HashMap<i32, bool> = [(10, true), (-1, false), (2, true)].into();
        let json = encode(EncodeOptions::new(), |e| e.map(&map, |e, v| e.bool(*v)));
        assert_eq!(json, r#"{"-1":false,"2":true,"10":true}"#);
    }

    /// The encoder holds the output by value while it writes; the buffer
    /// it came from gets it back however encoding ends: done, failed
    /// (truncated to its old length), or unwound by a panic.
    #[test]
    fn the_buffer_gets_its_output_back() {
        let opts = EncodeOptions::new();
        let mut buf = b"kept:".to_vec();
        encode_with(&opts, &mut buf, |e| {
            e.bool(true);
            Ok(())
        })
        .unwrap();
        assert_eq!(buf, b"kept:true");
        let failed = encode_with(&opts, &mut buf, |e| {
            e.bool(false);
            Err(Error::encode(crate::ErrorKind::Encode, "no".into()))
        });
        assert!(failed.is_err());
        assert_eq!(buf, b"kept:true");
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            encode_with(&opts, &mut buf, |e| {
                e.bool(false);
                panic!("a bug in a write");
            })
        }));
        assert!(unwound.is_err());
        assert_eq!(buf, b"kept:truefalse");
    }

    /// A `BTreeMap` is written as it iterates, a `HashMap` sorted: the same
    /// entries give the same text either way.
    #[test]
    fn btree_maps_are_written_as_hash_maps_are() {
        use std::collections::{BTreeMap, HashMap};
        fn both<K: MapKey + std::hash::Hash + Clone>(entries: &[K]) {
            let hash: HashMap<K, u32> = entries.iter().cloned().zip(0..).collect();
            let btree: BTreeMap<K, u32> = hash.clone().into_iter().collect();
            let write = |e: &mut Encoder<'_>, v: &u32| e.u32(*v);
            let from_hash = encode(EncodeOptions::new(), |e| e.map(&hash, write));
            let from_btree = encode(EncodeOptions::new(), |e| e.map(&btree, write));
            assert_eq!(from_hash, from_btree);
        }
        let words = ["", "b", "a", "ab", "é", "Z", "a\"", "\u{10000}", "aa"].map(String::from);
        both(&words);
        both(
            &(0..40)
                .map(|i: i64| (i - 20) * 7919 % 1000)
                .collect::<Vec<_>>(),
        );
        both(&[i32::MIN, -1, 0, 1, 9, 10, i32::MAX]);
        both(&[u64::MAX, 0, 7]);
        both(&[true, false]);
        both::<String>(&[]);
    }

    /// Pretty output is Python's `MessageToJson(indent=n)`, byte for byte
    /// (the texts below are Python protobuf 7.36's, for the same messages;
    /// `Struct` keys are sorted here, in insertion order there).
    #[test]
    fn indent_matches_python() {
        use prost::Message;
        use prost_types::{Any, Api, Duration, Method, SourceContext, Struct};
        let api = Api {
            name: "n".into(),
            methods: vec![Method {
                name: "m".into(),
                ..Default::default()
            }],
            source_context: Some(SourceContext {
                file_name: "f".into(),
            }),
            ..Default::default()
        };
        let any = Any {
            type_url: "type.googleapis.com/google.protobuf.Api".into(),
            value: api.encode_to_vec(),
        };
        let pretty = |spaces, m: &dyn Fn(&mut Encoder<'_>)| {
            encode(EncodeOptions::new().indent(spaces), |e| m(e))
        };
        assert_eq!(
            pretty(2, &|e| any.write_json(e)),
            r#"{
  "@type": "type.googleapis.com/google.protobuf.Api",
  "name": "n",
  "methods": [
    {
      "name": "m"
    }
  ],
  "sourceContext": {
    "fileName": "f"
  }
}"#
        );
        let duration = Any {
            type_url: "type.googleapis.com/google.protobuf.Duration".into(),
            value: Duration {
                seconds: 1,
                nanos: 0,
            }
            .encode_to_vec(),
        };
        assert_eq!(
            pretty(3, &|e| duration.write_json(e)),
            "{\n   \"@type\": \"type.googleapis.com/google.protobuf.Duration\",\n   \"value\": \"1s\"\n}"
        );
        let object: Struct = crate::from_str(r#"{"a": [1, {}, []], "b": {"c": "é"}}"#).unwrap();
        assert_eq!(
            encode(EncodeOptions::new().indent(1).ensure_ascii(true), |e| {
                object.write_json(e)
            }),
            "{\n \"a\": [\n  1,\n  {},\n  []\n ],\n \"b\": {\n  \"c\": \"\\u00e9\"\n }\n}"
        );
        assert_eq!(
            encode(EncodeOptions::new().indent(0), |e| object.write_json(e)),
            "{\n\"a\": [\n1,\n{},\n[]\n],\n\"b\": {\n\"c\": \"é\"\n}\n}"
        );
        // An empty message in an `Any` adds no members, and no blank line.
        let empty = Any {
            type_url: "type.googleapis.com/google.protobuf.SourceContext".into(),
            value: Vec::new(),
        };
        assert_eq!(
            pretty(2, &|e| empty.write_json(e)),
            "{\n  \"@type\": \"type.googleapis.com/google.protobuf.SourceContext\"\n}"
        );
    }
}
