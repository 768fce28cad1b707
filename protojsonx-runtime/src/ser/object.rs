//! [`ObjectWriter`]: how a generated `write_json` writes its message's
//! object, with the output's length, buffer and capacity held in locals.
//!
//! Written through the [`Encoder`], each write loads the output's length
//! from the encoder, extends it and stores it back, and the next write
//! loads it again: the encoder sits behind a pointer that the calls of the
//! slow paths (growing, escaping, pretty keys) also receive, so the compiler
//! keeps the length in memory, and consecutive writes form one chain of
//! stores and loads. The writer is a local of `write_json` that never
//! leaves it: the output's length, buffer and capacity stay in registers (a
//! write is a bounds test, a store and an add, nothing loaded), and the
//! length is stored into the encoder only around the calls that need it
//! there (nested messages, lists, maps, the slow paths). Its methods are
//! inlined by force only
//! where optimized, as the decoder's are: in an unoptimized build each
//! inlined copy keeps stack slots of its own, and a message of a hundred
//! fields nested a hundred deep overflowed the stack.

use std::mem::MaybeUninit;

use super::{Encoder, Object, WriteEntries};
use crate::map::{self, JsonMap, MapKey};
use crate::text::short::{self, CAPACITY, ShortText, Sink};
use crate::text::{digits, escape, num};
use crate::{JsonEnum, ProtoJson};

/// Writes the members of one object: returned by [`Encoder::object`],
/// ended by [`end`](Self::end). Its methods are the encoder's, for the
/// values of generated code's fields. Part of the contract with generated code.
///
/// While it lives, the encoder's output is longer than the encoder's own
/// vector says (the vector's length is brought up to date around every
/// call that takes the encoder).
#[must_use = "an object is ended with `end`"]
pub struct ObjectWriter<'e, 'a> {
    e: &'e mut Encoder<'a>,
    /// The output's length. Invariant: `e.out.len() <= len <= cap`, and
    /// the bytes of `e.out` up to `len` are initialized.
    len: usize,
    /// `e.out`'s buffer, as of the last time it grew.
    buf: *mut u8,
    /// `e.out`'s capacity, as of the last time it grew.
    cap: usize,
    /// Where the object began (see [`Encoder::begin_object`]).
    start: usize,
}

impl<'a> Encoder<'a> {
    /// Runs `f` on a writer at the end of the output: the encoder's own
    /// writes, in the writer's terms.
    #[inline(always)]
    pub(super) fn with_writer<R>(&mut self, f: impl FnOnce(&mut ObjectWriter<'_, 'a>) -> R) -> R {
        let start = self.out.len();
        let mut w = ObjectWriter::new(self, start);
        let result = f(&mut w);
        w.store_len();
        result
    }

    /// Starts an object whose members are written through the returned
    /// writer: [`begin_object`](Self::begin_object) for generated code.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn object(&mut self) -> ObjectWriter<'_, 'a> {
        let Object(start) = self.begin_object();
        ObjectWriter::new(self, start)
    }
}

impl<'e, 'a> ObjectWriter<'e, 'a> {
    /// A writer at the end of `e`'s output, for an object that began at
    /// `start` (which only [`end`](Self::end) reads).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn new(e: &'e mut Encoder<'a>, start: usize) -> Self {
        ObjectWriter {
            len: e.out.len(),
            buf: e.out.as_mut_ptr(),
            cap: e.out.capacity(),
            e,
            start,
        }
    }

    /// Takes the length, buffer and capacity of the encoder's vector, after
    /// a call that may have written to it or grown it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reload(&mut self) {
        self.len = self.e.out.len();
        self.buf = self.e.out.as_mut_ptr();
        self.cap = self.e.out.capacity();
    }

    /// Brings the encoder's vector up to the writer's length.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn store_len(&mut self) {
        // SAFETY: the invariant: `len` is within the capacity, its bytes initialized.
        unsafe { self.e.out.set_len(self.len) };
    }
}

impl<'a> ObjectWriter<'_, 'a> {
    /// Ends the object: see [`Encoder::end_object`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn end(mut self) {
        self.e.depth -= 1;
        self.close(self.start, b'{', b'}');
        self.store_len();
    }

    /// Closes the object or array that began at `start`, whose members
    /// each start with a comma: `open` replaces the first comma (or, with
    /// no members, `open` and `close` are written), and `close` is
    /// appended, on a line of its own when pretty-printing.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn close(&mut self, start: usize, open: u8, close: u8) {
        if start < self.len {
            // SAFETY: `start < len`: an initialized byte of the output.
            unsafe { *self.buf.add(start) = open };
            if let Some(spaces) = self.e.indent {
                self.new_line(false, spaces);
            }
            self.put(&[close]);
        } else {
            self.put(&[open, close]);
        }
    }

    /// Starts a member of an object or an element of an array: the comma,
    /// and when pretty-printing the new line and indentation.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn separator(&mut self) {
        match self.e.indent {
            None => self.put(b","),
            Some(spaces) => self.new_line(true, spaces),
        }
    }

    /// A line break and the indentation of the current depth, after a
    /// comma if `comma`: one short text, when the indentation fits one.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn new_line(&mut self, comma: bool, spaces: u8) {
        let width = self.e.depth * usize::from(spaces);
        if width <= ShortText::MAX_SPACES {
            short::append(self, |text| {
                text.byte_if(b',', comma).byte(b'\n').spaces(width);
            });
        } else {
            self.vec(|out| deep_line(out, comma, width));
        }
    }

    /// The `:` after a key, followed by a space when pretty-printing.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn colon(&mut self) {
        if self.e.indent.is_some() {
            self.put(b": ");
        } else {
            self.put(b":");
        }
    }

    /// [`field`](Self::field) when pretty-printing or writing only ASCII:
    /// the separator, the key (escaped if it must be) and the colon, written
    /// through `e`. Out of line: the rare keys' code stays out of
    /// `write_json`.
    #[inline(never)]
    pub(super) fn styled_field(e: &mut Encoder<'a>, json_key: &[u8], proto_key: &[u8]) {
        let mut w = ObjectWriter::new(e, 0);
        let key = if w.e.opts.use_proto_names {
            proto_key
        } else {
            json_key
        };
        let quoted = &key[1..key.len() - 1];
        w.separator();
        if w.e.ensure_ascii && !quoted.is_ascii() {
            w.vec(|out| escape::write_escaped_ascii(out, quoted));
            w.colon();
        } else if quoted.len() <= ShortText::MAX_STR {
            // Key, colon and space as one short text: no call to `memcpy`.
            let pretty = w.e.indent.is_some();
            short::append(&mut w, |text| {
                text.bytes(quoted).byte(b':').byte_if(b' ', pretty);
            });
        } else {
            w.vec(|out| out.extend_from_slice(quoted));
            w.colon();
        }
        w.store_len();
    }

    /// Runs `f` on the encoder, its output's length brought up to date
    /// before and read back after.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn encoder<R>(&mut self, f: impl FnOnce(&mut Encoder<'a>) -> R) -> R {
        self.store_len();
        let result = f(self.e);
        self.reload();
        result
    }

    /// See [`Encoder::emit_defaults`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn emit_defaults(&self) -> bool {
        self.e.emit_defaults
    }

    /// See [`Encoder::field`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn field(&mut self, json_key: &[u8], proto_key: &[u8]) {
        match self.e.keys {
            super::Keys::Json => self.put(json_key),
            super::Keys::Proto => self.put(proto_key),
            super::Keys::Pretty => self.pretty_field(json_key, proto_key),
        }
    }

    /// [`field`](Self::field) when pretty-printing: the new line and
    /// indentation in place of the key's comma, and a space after its
    /// colon. In line, so the key is still a copy of known size.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn pretty_field(&mut self, json_key: &[u8], proto_key: &[u8]) {
        let spaces = self.e.indent.unwrap_or_default();
        self.new_line(true, spaces);
        if self.e.opts.use_proto_names {
            self.put(&proto_key[1..]);
        } else {
            self.put(&json_key[1..]);
        }
        self.put(b" ");
    }

    /// See [`Encoder::field_non_ascii`]: the key as it stands in line,
    /// escaped by the encoder's out-of-line path when the options ask for
    /// ASCII only.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn field_non_ascii(&mut self, json_key: &[u8], proto_key: &[u8]) {
        if self.e.ensure_ascii {
            self.encoder(|e| e.field_non_ascii(json_key, proto_key));
        } else {
            self.field(json_key, proto_key);
        }
    }

    /// See [`Encoder::unset_field`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn unset_field(&mut self, json_key: &[u8], proto_key: &[u8]) {
        if self.e.emit_unpopulated {
            self.field_non_ascii(json_key, proto_key);
            self.null();
        }
    }

    /// Makes room for `n` more bytes after `len`: the capacity test in
    /// line, the growing out of line ([`grow`]).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reserve(&mut self, n: usize) {
        // `len + n` cannot overflow: both are at most `isize::MAX`.
        if self.len + n > self.cap {
            grow(&mut self.e.out, self.len, n);
            self.reload();
        }
    }

    /// Appends `bytes`, whose length is a constant where this is inlined
    /// (keys, `true`): a copy of known size.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn put(&mut self, bytes: &[u8]) {
        let n = bytes.len();
        self.reserve(n);
        // SAFETY: the room for `n` bytes after `len` was made above; `bytes`
        // is not the output (which the writer borrows).
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.buf.add(self.len), n);
        }
        self.len += n;
    }

    /// See [`Encoder::null`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn null(&mut self) {
        self.put(b"null");
    }

    /// See [`Encoder::bool`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn bool(&mut self, v: bool) {
        if v {
            self.put(b"true");
        } else {
            self.put(b"false");
        }
    }

    /// See [`Encoder::i32`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn i32(&mut self, v: i32) {
        digits::write_i64(self, v.into());
    }

    /// See [`Encoder::u32`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn u32(&mut self, v: u32) {
        digits::write_u64(self, v.into());
    }

    /// See [`Encoder::i64`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn i64(&mut self, v: i64) {
        digits::write_quoted_i64(self, v);
    }

    /// See [`Encoder::u64`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn u64(&mut self, v: u64) {
        digits::write_quoted_u64(self, v);
    }

    /// See [`Encoder::f64`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn f64(&mut self, v: f64) {
        if v.is_finite() {
            num::write_f64(self, v);
        } else {
            self.encoder(|e| e.non_finite(v.is_nan(), v.is_sign_negative()));
        }
    }

    /// See [`Encoder::f32`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn f32(&mut self, v: f32) {
        if v.is_finite() {
            num::write_f32(self, v);
        } else {
            self.encoder(|e| e.non_finite(v.is_nan(), v.is_sign_negative()));
        }
    }

    /// See [`Encoder::string`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn string(&mut self, v: &str) {
        if self.e.ensure_ascii {
            escape::write_str_ascii(self, v);
        } else {
            escape::write_str(self, v);
        }
    }

    /// See [`Encoder::bytes`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn bytes(&mut self, v: &[u8]) {
        self.encoder(|e| e.bytes(v));
    }

    /// See [`Encoder::enumeration`]: a name of up to `ShortText::MAX_STR`
    /// bytes (most) is written in line.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn enumeration<E: JsonEnum>(&mut self, v: i32) {
        match E::name_of(v) {
            Some(name)
                if !E::IS_NULL_VALUE
                    && !self.e.enums_as_ints
                    && name.len() <= ShortText::MAX_STR =>
            {
                short::append(self, |text| {
                    text.byte(b'"').bytes(name.as_bytes()).byte(b'"');
                });
            }
            _ => self.encoder(|e| e.enumeration::<E>(v)),
        }
    }

    /// See [`Encoder::message`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn message<M: ProtoJson>(&mut self, m: &M) {
        self.encoder(|e| m.write_json(e));
    }

    /// See [`Encoder::list`]; the elements are written through this writer.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn list<T>(&mut self, items: &[T], mut write: impl FnMut(&mut Self, &T)) {
        let start = self.len;
        self.e.depth += 1;
        for item in items {
            self.separator();
            write(self, item);
        }
        self.e.depth -= 1;
        self.close(start, b'[', b']');
    }

    /// See [`Encoder::map`]; the entries are written through this writer.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn map<K: MapKey, V, M: JsonMap<K, V>>(
        &mut self,
        map: &M,
        write: impl FnMut(&mut Self, &V),
    ) {
        super::in_key_order(map, MapEntries { to: self, write });
    }
}

/// A map written through an [`ObjectWriter`]: each value through `write`.
struct MapEntries<'w, 'e, 'a, F> {
    to: &'w mut ObjectWriter<'e, 'a>,
    write: F,
}

impl<'e, 'a, K: MapKey, V, F> WriteEntries<K, V> for MapEntries<'_, 'e, 'a, F>
where
    F: FnMut(&mut ObjectWriter<'e, 'a>, &V),
{
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn write_entries<'m>(mut self, entries: impl Iterator<Item = (&'m K, &'m V)>)
    where
        K: 'm,
        V: 'm,
    {
        let w = &mut *self.to;
        let start = w.len;
        w.e.depth += 1;
        let ascii = w.e.ensure_ascii;
        for (key, value) in entries {
            w.separator();
            map::write_key(w, key.json_key(), ascii);
            w.colon();
            (self.write)(w, value);
        }
        w.e.depth -= 1;
        w.close(start, b'{', b'}');
    }
}

impl Sink for ObjectWriter<'_, '_> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn room(&mut self) -> &mut [MaybeUninit<u8>; CAPACITY] {
        self.reserve(CAPACITY);
        // SAFETY: `CAPACITY` bytes after `len` are within the capacity
        // (made above), and uninitialized memory is valid `MaybeUninit`.
        unsafe { &mut *self.buf.add(self.len).cast::<[MaybeUninit<u8>; CAPACITY]>() }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    unsafe fn advance(&mut self, n: usize) {
        self.len += n;
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn vec<R>(&mut self, f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
        self.encoder(|e| f(&mut e.out))
    }
}

/// Makes room for `n` more bytes after the first `len` (the writer's
/// length) in `out`.
#[cold]
#[inline(never)]
fn grow(out: &mut Vec<u8>, len: usize, n: usize) {
    // SAFETY: the writer's invariant: `len` is within the capacity, its bytes initialized.
    unsafe { out.set_len(len) };
    out.reserve(n);
}

/// [`ObjectWriter::new_line`] deeper than a short text holds.
#[cold]
fn deep_line(out: &mut Vec<u8>, comma: bool, width: usize) {
    if comma {
        out.push(b',');
    }
    out.push(b'\n');
    out.resize(out.len() + width, b' ');
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use super::*;
    use crate::EncodeOptions;

    enum Color {}

    impl JsonEnum for Color {
        const NAME: &'static str = "test.Color";
        fn name_of(v: i32) -> Option<&'static str> {
            match v {
                1 => Some("RED"),
                2 => Some("A_NAME_LONGER_THAN_SIXTEEN"),
                _ => None,
            }
        }
        fn value_of(_: &[u8]) -> Option<i32> {
            None
        }
    }

    /// Every kind of member, through `$e`: an `ObjectWriter` or the `Encoder`
    /// itself, which have the same methods.
    macro_rules! members {
        ($e:ident) => {
            $e.field(b",\"s\":", b",\"s_s\":");
            $e.string("plain");
            $e.field(b",\"long\":", b",\"long\":");
            $e.string("longer than sixteen bytes, \"quoted\", \u{e9}\n");
            $e.field(b",\"short\":", b",\"short\":");
            $e.string("caf\u{e9}");
            $e.field(b",\"n\":", b",\"n\":");
            $e.i32(-42);
            $e.u32(u32::MAX);
            $e.i64(i64::MIN);
            $e.u64(u64::MAX);
            $e.f64(95.5);
            $e.f64(1e300);
            $e.f64(f64::NEG_INFINITY);
            $e.f32(0.1);
            $e.f32(f32::NAN);
            $e.bool(true);
            $e.bool(false);
            $e.null();
            $e.bytes(b"\x00\xffbytes");
            $e.enumeration::<Color>(1);
            $e.enumeration::<Color>(2);
            $e.enumeration::<Color>(7);
            $e.enumeration::<prost_types::NullValue>(0);
            $e.field_non_ascii(",\"\u{e9}t\u{e9}\":".as_bytes(), b",\"ete\":");
            $e.list(&[1, -2, 3], |e, v| e.i32(*v));
            $e.field(b",\"m\":", b",\"m\":");
            $e.map(&BTreeMap::from([(2, "b"), (1, "a")]), |e, v| e.string(v));
            $e.map(&BTreeMap::from([(true, 1u64), (false, 0)]), |e, v| {
                e.u64(*v)
            });
            $e.map(&BTreeMap::<u32, i32>::new(), |e, v| e.i32(*v));
            // Sorted on the stack, and on the heap (over 16 entries).
            for n in [3, 20] {
                let keys = (0..n).map(|i| (format!("k\u{e9}{}\"", n - i), i));
                let map: HashMap<String, i64> = keys.collect();
                $e.map(&map, |e, v| e.i64(*v));
            }
            $e.list(&["a", "b\n"], |e, v| e.string(v));
            $e.list(&[[0u8; 0]; 0], |e, v| e.bytes(v));
            $e.message(&prost_types::Timestamp {
                seconds: 1,
                nanos: 5,
            });
            $e.unset_field(b",\"u\":", b",\"u\":");
            $e.unset_field(",\"\u{e9}u\":".as_bytes(), b",\"e_u\":");
        };
    }

    /// The members written through a writer and through the encoder are the
    /// same text, under every option that changes how they are written, and
    /// wherever the output runs out of room (each starting capacity).
    #[test]
    fn writes_what_the_encoder_writes() {
        let options = [
            EncodeOptions::new(),
            EncodeOptions::new().use_proto_names(true),
            EncodeOptions::new().indent(2),
            EncodeOptions::new().ensure_ascii(true),
            EncodeOptions::new().enums_as_ints(true),
            EncodeOptions::new().emit_unpopulated(true),
            // Unset fields' keys: escaped, spelled by proto name, pretty.
            EncodeOptions::new()
                .emit_unpopulated(true)
                .ensure_ascii(true),
            EncodeOptions::new()
                .emit_unpopulated(true)
                .use_proto_names(true)
                .indent(2),
        ];
        for opts in options {
            let mut e = Encoder::new(b"[".to_vec(), &opts);
            let object = e.begin_object();
            members!(e);
            e.end_object(object);
            let want = e.finish().unwrap();
            for capacity in 1..want.len() + 40 {
                let mut got = Vec::with_capacity(capacity);
                got.push(b'[');
                let mut e = Encoder::new(got, &opts);
                let mut w = e.object();
                members!(w);
                w.end();
                let got = e.finish().unwrap();
                assert_eq!(
                    String::from_utf8_lossy(&got),
                    String::from_utf8_lossy(&want),
                    "{opts:?}, capacity {capacity}"
                );
            }
        }
    }

    #[test]
    fn an_empty_object_and_a_nested_one() {
        let opts = EncodeOptions::new();
        let mut e = Encoder::new(Vec::new(), &opts);
        let mut outer = e.object();
        outer.field(b",\"a\":", b",\"a\":");
        outer.message(&prost_types::Struct::default());
        outer.end();
        assert_eq!(e.finish().unwrap(), br#"{"a":{}}"#);
    }
}
