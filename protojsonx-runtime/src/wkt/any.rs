//! `google.protobuf.Any`: the packed message's JSON with an `@type` key.
//!
//! A message whose JSON is an object of its fields is written with those
//! fields inline: `{"@type": "type.googleapis.com/pkg.Msg", "f": 1}`. A
//! well-known type with a special JSON form (Timestamp, Duration, FieldMask,
//! Struct, Value, ListValue, the wrappers, Empty and Any itself, as in Go's
//! protojson) is written under `"value"`:
//! `{"@type": ".../google.protobuf.Duration", "value": "1s"}`. An empty `Any`
//! (no type URL, no value) is `{}`.
//!
//! On input `@type` may come anywhere in the object: the reader first looks
//! ahead for it with a copy of the tokenizer, resolves the type through the
//! [registry], then reads the object with that type's
//! reader, which skips the `@type` key (see `Decoder::read_any_body`). Where
//! the object begins with it as encoders write it (`{"@type":"…"`), the
//! look-ahead reads no further, and the type's reader steps over the member
//! without reading it as a key (`Decoder::step_over_type_member`).

use std::any::TypeId;
use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use prost::Message;
use prost_types::Any;

use super::registry::{self, Entry, TypeRegistry};
use crate::ProtoJson;
use crate::de::Decoder;
use crate::error::{Error, ErrorKind};
use crate::read::Peek;
use crate::ser::Encoder;

/// The `@type` key, as the complete JSON key the encoder takes.
const TYPE_KEY: &[u8] = b",\"@type\":";
/// The `@type` key as a member begins, quotes and colon included: what
/// the decoder looks for first in an `Any`'s object.
pub(crate) const TYPE_MEMBER: &[u8] = b"\"@type\":";
/// The `value` key of a well-known type packed in an `Any`.
const VALUE_KEY: &[u8] = b",\"value\":";

/// The deepest nesting of `Any`s written. Each packed message is decoded
/// from bytes afresh, so without a bound a small binary input of `Any`s in
/// `Any`s could make writing recurse without limit; 100 matches the default
/// decoding depth, so whatever decodes from JSON also encodes back.
const MAX_ANY_DEPTH: u32 = 100;

thread_local! {
    /// How many `Any`s this thread is writing, one inside the other.
    static ANY_DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// One level of [`ANY_DEPTH`], given back when dropped.
struct AnyDepth;

impl AnyDepth {
    /// Takes a level, or `None` when [`MAX_ANY_DEPTH`] are taken.
    fn enter() -> Option<AnyDepth> {
        ANY_DEPTH.with(|depth| {
            let now = depth.get();
            (now < MAX_ANY_DEPTH).then(|| {
                depth.set(now + 1);
                AnyDepth
            })
        })
    }
}

impl Drop for AnyDepth {
    /// Gives the level back.
    fn drop(&mut self) {
        ANY_DEPTH.with(|depth| depth.set(depth.get().saturating_sub(1)));
    }
}

/// The message name an `Any`'s type URL names: what follows its last `/`
/// (the dynamic transcoder looks it up in its pool).
pub fn type_name(type_url: &str) -> Result<&str, String> {
    // Not `rsplit_once`: `memrchr`'s setup costs more than a short URL's search.
    let slash = crate::text::scan::last_index_of(type_url.as_bytes(), b'/');
    match slash.map(|i| &type_url[i + 1..]) {
        Some(name) if !name.is_empty() => Ok(name),
        _ => Err(format!(
            "invalid type URL {type_url:?} in google.protobuf.Any: expected a URL \
             ending in '/' and the full message name, like \
             \"type.googleapis.com/google.protobuf.Duration\""
        )),
    }
}

/// Finds the registry entry for `type_url`.
fn resolve(type_url: &str, registry: Option<&'static TypeRegistry>) -> Result<Entry, String> {
    let name = type_name(type_url)?;
    registry::lookup(name, registry).ok_or_else(|| {
        let fix = match registry {
            None => {
                "register it with protojsonx_runtime::register, or call the \
                 register_protojsonx_types() function generated for its package"
            }
            Some(_) => {
                "it is not in the TypeRegistry the options name: add it with \
                 TypeRegistry::register or register_protojsonx_types_in()"
            }
        };
        format!(
            "unknown message type {name:?} in google.protobuf.Any (type URL {type_url:?}): {fix}"
        )
    })
}

/// `{"@type": url, ...}` with the packed message resolved through the registry.
impl ProtoJson for Any {
    const SPECIAL_JSON: bool = true;

    fn write_json(&self, e: &mut Encoder<'_>) {
        if self.type_url.is_empty() && self.value.is_empty() {
            let object = e.begin_object();
            return e.end_object(object);
        }
        let entry = match resolve(&self.type_url, e.type_registry()) {
            Ok(entry) => entry,
            Err(message) => return fail(e, message),
        };
        let Some(_depth) = AnyDepth::enter() else {
            let message =
                format!("google.protobuf.Any values are nested more than {MAX_ANY_DEPTH} deep");
            return fail(e, message);
        };
        (entry.write)(e, &self.type_url, &self.value);
    }

    fn read_json(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
        let (start, probe) = probe(d)?;
        match probe {
            Probe::Empty => read_empty(self, d),
            Probe::Missing if d.ignore_unknown_fields() => read_empty(self, d),
            Probe::Missing => Err(d.invalid_at(
                start,
                "missing \"@type\" field in google.protobuf.Any".into(),
            )),
            Probe::Found { type_url, offset } => {
                let entry = resolve(&type_url, d.type_registry())
                    .map_err(|m| d.invalid_at(offset, m).in_field(b"@type"))?;
                (entry.read)(d, start, &mut self.value)?;
                self.type_url.clear();
                self.type_url.push_str(&type_url);
                Ok(())
            }
        }
    }
}

/// Skips an object that packs no message: `{}`, or one without `@type`
/// when unknown fields are ignored. It sets nothing (and when values
/// replace, clears what `any` held).
fn read_empty(any: &mut Any, d: &mut Decoder<'_>) -> Result<(), Error> {
    d.skip_value()?;
    d.unset(&mut any.type_url);
    d.unset(&mut any.value);
    Ok(())
}

/// Records an encoding error and writes a placeholder (the output is discarded).
#[cold]
fn fail(e: &mut Encoder<'_>, message: String) {
    e.fail(Error::encode(ErrorKind::Encode, message));
    e.null();
}

/// Looks ahead through the `Any` object at the decoder's position, without
/// consuming it: its offset, and what it holds. Part of the contract with
/// the dynamic transcoder, which resolves the type through its own pool.
pub fn probe<'a>(d: &mut Decoder<'a>) -> Result<(usize, Probe<'a>), Error> {
    let found = d.peek();
    if found != Peek::Object {
        return Err(d.expected("object", found));
    }
    let start = d.offset();
    let probe = match leading_type_url(d) {
        Some((found, member_at, member_len)) => {
            d.note_leading_type_member(member_at, member_len);
            found
        }
        None => find_type_url(d)?,
    };
    Ok((start, probe))
}

/// The `@type` that begins the object at the decoder's position as
/// encoders write it (`{"@type":"…"`), found without tokenizing; `None`
/// for any other object, which [`find_type_url`] reads. With it, the
/// member's offset and length.
fn leading_type_url<'a>(d: &Decoder<'a>) -> Option<(Probe<'a>, usize, usize)> {
    // (The general path reports an object past the depth budget.)
    if d.depth_left() == 0 {
        return None;
    }
    let mut r = d.lookahead();
    r.advance(1);
    let (type_url, len) = r.plain_string_member(TYPE_MEMBER)?;
    let offset = r.offset() + TYPE_MEMBER.len();
    let type_url = Cow::Borrowed(type_url);
    Some((Probe::Found { type_url, offset }, r.offset(), len))
}

/// What looking ahead through an `Any` object found.
pub enum Probe<'a> {
    /// The object is `{}`: the default `Any`.
    Empty,
    /// The object has keys but no `@type`.
    Missing,
    /// The first `@type`: its value and offset.
    Found {
        /// The type URL, unescaped.
        type_url: Cow<'a, str>,
        /// Where its value starts, for errors about it.
        offset: usize,
    },
}

/// Looks ahead through the object at the decoder's position, without
/// consuming it, for its first `@type` key.
fn find_type_url<'a>(d: &Decoder<'a>) -> Result<Probe<'a>, Error> {
    let mut r = d.lookahead();
    let Some(depth_left) = d.depth_left().checked_sub(1) else {
        r.peek();
        return Err(r.depth_error());
    };
    r.begin_object()?;
    let mut first = true;
    let mut has_keys = false;
    while let Some(key) = r.next_key(&mut first)? {
        if key == "@type" {
            let found = r.peek();
            let offset = r.offset();
            if found != Peek::String {
                let message = format!("expected string for \"@type\", found {}", found.describe());
                let kind = if found == Peek::End {
                    ErrorKind::Eof
                } else {
                    ErrorKind::InvalidValue
                };
                return Err(r.error(kind, message).in_field(b"@type"));
            }
            let type_url = r.string()?;
            return Ok(Probe::Found { type_url, offset });
        }
        has_keys = true;
        r.skip_value(depth_left)?;
    }
    Ok(if has_keys {
        Probe::Missing
    } else {
        Probe::Empty
    })
}

/// Writes an `Any` holding an `M`, whose binary encoding is `value`:
/// `@type`, then `M`'s fields inline, or `M`'s special JSON under `value`.
pub(crate) fn write_packed<M: ProtoJson + Message + Default + 'static>(
    e: &mut Encoder<'_>,
    type_url: &str,
    value: &[u8],
) {
    // Decoded into this thread's scratch `M`, whose memory is reused: a
    // cleared message merged with `value` is `M::decode(value)`.
    let mut msg = Scratch::take::<M>();
    msg.clear();
    if let Err(err) = msg.merge(value) {
        let message = format!(
            "cannot decode the value of the google.protobuf.Any of type {type_url:?}: {err}"
        );
        return fail(e, message);
    }
    let object = e.begin_object();
    e.field(TYPE_KEY, TYPE_KEY);
    e.string(type_url);
    if M::SPECIAL_JSON {
        e.field(VALUE_KEY, VALUE_KEY);
        msg.write_json(e);
    } else if !e.inline_object(|e| msg.write_json(e)) {
        // (Inlined: the message's own fields follow `@type` in the same object.)
        let message = format!("the JSON of {type_url:?} is not an object");
        e.fail(Error::encode(ErrorKind::Encode, message));
    }
    e.end_object(object);
    Scratch::give_back(msg, value.len());
}

/// Reads an `Any` object holding an `M` (its `@type` found already) and
/// stores `M`'s binary encoding in `value`, replacing what it held (its
/// memory is reused). `start` is the object's offset. The `M` it is read
/// into is this thread's [scratch](Scratch) one, read into as a reused message is.
pub(crate) fn read_packed<M: ProtoJson + Message + Default + 'static>(
    d: &mut Decoder<'_>,
    start: usize,
    value: &mut Vec<u8>,
) -> Result<(), Error> {
    let mut msg = Scratch::take::<M>();
    value.clear();
    d.replacing_within(|d| {
        if !M::SPECIAL_JSON {
            return d.read_any_body(&mut *msg);
        }
        // Like Go, tolerate an Empty without "value", as some runtimes write it.
        let needs_value = TypeId::of::<M>() != TypeId::of::<()>();
        read_value_member(d, start, needs_value, |d| msg.read_json(d))
    })?;
    encode_packed(&*msg, value)?;
    Scratch::give_back(msg, value.len());
    Ok(())
}

/// A message of each type read from an `Any` on this thread, kept to be
/// read into again (as `decode_into` reads into a message), so that the
/// memory of its strings and lists is reused from one `Any` to the next,
/// in fresh decodes too. One is kept per type, of at most
/// [`KEPT_TYPES`](Scratch::KEPT_TYPES) types, and only after holding at
/// most [`KEPT_BYTES`](Scratch::KEPT_BYTES) of binary encoding, which
/// bounds the memory kept.
struct Scratch;

thread_local! {
    static SCRATCH: RefCell<Vec<(TypeId, Box<dyn std::any::Any>)>> = const { RefCell::new(Vec::new()) };
}

impl Scratch {
    const KEPT_TYPES: usize = 16;
    const KEPT_BYTES: usize = 4096;

    /// This thread's kept `M`, or a new one (an `Any` in an `Any` of the
    /// same type takes a new one).
    fn take<M: Default + 'static>() -> Box<M> {
        // (No kept message while the thread's locals are being destroyed.)
        let kept = SCRATCH.try_with(|kept| {
            let mut kept = kept.borrow_mut();
            let at = kept.iter().position(|(id, _)| *id == TypeId::of::<M>())?;
            Some(kept.swap_remove(at).1)
        });
        let kept = kept.ok().flatten();
        kept.and_then(|msg| msg.downcast().ok()).unwrap_or_default()
    }

    /// Keeps `msg`, whose encoding took `len` bytes, unless it is large or
    /// a message of its type or of too many others is kept already.
    fn give_back<M: 'static>(msg: Box<M>, len: usize) {
        if len > Self::KEPT_BYTES {
            return;
        }
        let _ = SCRATCH.try_with(|kept| {
            let mut kept = kept.borrow_mut();
            let id = TypeId::of::<M>();
            if kept.len() < Self::KEPT_TYPES && kept.iter().all(|(kept, _)| *kept != id) {
                kept.push((id, msg));
            }
        });
    }
}

/// Reads the object of an `Any` that packs a well-known type (its `@type`
/// found already, and skipped here once): its `value` member, through
/// `read`. `start` is the object's offset; a missing `value` is an error
/// when `needs_value`. Part of the contract with the dynamic transcoder,
/// which reads an `Any` packed in an `Any` through its pool.
pub fn read_value_member(
    d: &mut Decoder<'_>,
    start: usize,
    needs_value: bool,
    mut read: impl FnMut(&mut Decoder<'_>) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut seen_type = false;
    let mut seen_value = false;
    d.read_object(|d, key| match key {
        b"@type" => {
            d.mark_seen(&mut seen_type)?;
            d.skip_value()
        }
        b"value" => {
            d.mark_seen(&mut seen_value)?;
            read(d)
        }
        _ => d.unknown_field(key),
    })?;
    if !seen_value && needs_value {
        let message = "missing \"value\" field in google.protobuf.Any of a well-known type";
        return Err(d.invalid_at(start, message.into()));
    }
    Ok(())
}

/// Writes the binary encoding of `msg` into `value`, which is empty.
fn encode_packed<M: Message>(msg: &M, value: &mut Vec<u8>) -> Result<(), Error> {
    debug_assert!(value.is_empty());
    // Room for it all at once, rather than growing field by field; a new
    // buffer when too small (the value of a fresh decode has none) is
    // allocated directly, not through `reserve`'s growth path.
    let len = msg.encoded_len();
    if value.capacity() < len {
        *value = Vec::with_capacity(len);
    }
    msg.encode(value).map_err(|e| {
        Error::encode(
            ErrorKind::Encode,
            format!("cannot encode an Any value: {e}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::de::Fields;
    use crate::options::{DecodeOptions, EncodeOptions};
    use prost_types::{Duration, Timestamp, Value};

    /// A message as the generator would emit it.
    #[derive(Clone, PartialEq, prost::Message)]
    struct Point {
        #[prost(int32, tag = "1")]
        x: i32,
        #[prost(message, optional, tag = "2")]
        any: Option<Any>,
        #[prost(message, optional, tag = "3")]
        when: Option<Timestamp>,
        #[prost(message, optional, boxed, tag = "4")]
        child: Option<Box<Point>>,
    }

    impl Point {
        /// One pass over the fields, as generated code reads them.
        fn pass<'a>(&mut self, f: &mut Fields<'a>, d: &mut Decoder<'a>) -> Result<(), Error> {
            if f.is_next(d, 0)? && !d.take_null() {
                self.x = d.read_i32()?;
            }
            if f.is_next(d, 1)? && !d.take_null() {
                d.read_message(self.any.get_or_insert_with(Default::default))?;
            }
            if f.is_next(d, 2)? && !d.take_null() {
                d.read_message(self.when.get_or_insert_with(Default::default))?;
            }
            if f.is_next(d, 3)? && !d.take_null() {
                d.read_message(self.child.get_or_insert_with(Default::default))?;
            }
            Ok(())
        }
    }

    impl ProtoJson for Point {
        fn write_json(&self, e: &mut Encoder<'_>) {
            let object = e.begin_object();
            if e.emit_defaults() || self.x != 0 {
                e.field(b",\"x\":", b",\"x\":");
                e.i32(self.x);
            }
            if let Some(v) = &self.any {
                e.field(b",\"any\":", b",\"any\":");
                e.message(v);
            }
            if let Some(v) = &self.when {
                e.field(b",\"when\":", b",\"when\":");
                e.message(v);
            }
            if let Some(v) = &self.child {
                e.field(b",\"child\":", b",\"child\":");
                e.message(v);
            }
            e.end_object(object);
        }

        fn read_json(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
            let mut f = d.fields(
                &[
                    (b"\"x\":", b"\"x\":"),
                    (b"\"any\":", b"\"any\":"),
                    (b"\"when\":", b"\"when\":"),
                    (b"\"child\":", b"\"child\":"),
                ],
                |key| match key {
                    b"x" => Some(0),
                    b"any" => Some(1),
                    b"when" => Some(2),
                    b"child" => Some(3),
                    _ => None,
                },
            )?;
            loop {
                let read = self.pass(&mut f, d);
                if !f.next_pass(d, read)? {
                    break;
                }
            }
            let seen = f.finish(d);
            if d.replaces() {
                seen.reset(0, &mut self.x);
                seen.reset(1, &mut self.any);
                seen.reset(2, &mut self.when);
                seen.reset(3, &mut self.child);
            }
            Ok(())
        }
    }

    const POINT_URL: &str = "type.googleapis.com/any.test.Point";

    fn register_point() {
        crate::register::<Point>("any.test.Point");
    }

    fn pack<M: Message>(type_url: &str, msg: &M) -> Any {
        Any {
            type_url: type_url.into(),
            value: msg.encode_to_vec(),
        }
    }

    fn point(x: i32) -> Point {
        Point {
            x,
            ..Point::default()
        }
    }

    fn round_trip(any: &Any, json: &str) {
        assert_eq!(crate::to_string(any).unwrap(), json);
        assert_eq!(&crate::from_str::<Any>(json).unwrap(), any);
    }

    #[test]
    fn registered_messages_are_inlined() {
        register_point();
        round_trip(
            &pack(POINT_URL, &point(5)),
            r#"{"@type":"type.googleapis.com/any.test.Point","x":5}"#,
        );
        round_trip(
            &pack(POINT_URL, &point(0)),
            r#"{"@type":"type.googleapis.com/any.test.Point"}"#,
        );
        let json = EncodeOptions::new()
            .emit_unpopulated(true)
            .to_string(&pack(POINT_URL, &point(0)))
            .unwrap();
        assert_eq!(
            json,
            r#"{"@type":"type.googleapis.com/any.test.Point","x":0}"#
        );
        // Any URL prefix works; the name after the last '/' picks the type.
        round_trip(
            &pack("example.com/a/b/any.test.Point", &point(1)),
            r#"{"@type":"example.com/a/b/any.test.Point","x":1}"#,
        );
    }

    /// The message an `Any` is decoded into to be written is reused from
    /// one `Any` to the next: nothing of one may show in the next, after a
    /// value that failed to decode too.
    #[test]
    fn written_anys_share_no_state() {
        register_point();
        let full = Point {
            x: 5,
            when: Some(Timestamp {
                seconds: 1,
                nanos: 0,
            }),
            child: Some(Box::new(point(2))),
            ..Point::default()
        };
        let full_json = r#"{"@type":"type.googleapis.com/any.test.Point","x":5,"when":"1970-01-01T00:00:01Z","child":{"x":2}}"#;
        let empty_json = r#"{"@type":"type.googleapis.com/any.test.Point"}"#;
        for _ in 0..2 {
            assert_eq!(
                crate::to_string(&pack(POINT_URL, &full)).unwrap(),
                full_json
            );
            assert_eq!(
                crate::to_string(&pack(POINT_URL, &point(0))).unwrap(),
                empty_json
            );
            let truncated = Any {
                type_url: POINT_URL.into(),
                value: full.encode_to_vec()[..3].to_vec(),
            };
            assert!(crate::to_string(&truncated).is_err());
            assert_eq!(
                crate::to_string(&pack(POINT_URL, &point(0))).unwrap(),
                empty_json
            );
        }
    }

    #[test]
    fn type_may_come_anywhere() {
        register_point();
        let json = r#" { "x" : 7, "when": "1970-01-01T00:00:01Z", "@type" : "type.googleapis.com/any.test.Point" } "#;
        let any: Any = crate::from_str(json).unwrap();
        let expected = Point {
            x: 7,
            when: Some(Timestamp {
                seconds: 1,
                nanos: 0,
            }),
            ..Point::default()
        };
        assert_eq!(any, pack(POINT_URL, &expected));
        let json = r#"{"value": 3, "@type": "type.googleapis.com/google.protobuf.Int32Value"}"#;
        assert_eq!(
            crate::from_str::<Any>(json).unwrap(),
            pack("type.googleapis.com/google.protobuf.Int32Value", &3i32)
        );
    }

    #[test]
    fn well_known_types_go_under_value() {
        let cases: [(Any, &str); 6] = [
            (
                pack(
                    "type.googleapis.com/google.protobuf.Duration",
                    &Duration {
                        seconds: 1,
                        nanos: 500_000_000,
                    },
                ),
                r#"{"@type":"type.googleapis.com/google.protobuf.Duration","value":"1.500s"}"#,
            ),
            (
                pack("type.googleapis.com/google.protobuf.Int64Value", &5i64),
                r#"{"@type":"type.googleapis.com/google.protobuf.Int64Value","value":"5"}"#,
            ),
            (
                pack(
                    "type.googleapis.com/google.protobuf.Value",
                    &Value {
                        kind: Some(prost_types::value::Kind::NullValue(0)),
                    },
                ),
                r#"{"@type":"type.googleapis.com/google.protobuf.Value","value":null}"#,
            ),
            (
                pack(
                    "type.googleapis.com/google.protobuf.StringValue",
                    &String::new(),
                ),
                r#"{"@type":"type.googleapis.com/google.protobuf.StringValue","value":""}"#,
            ),
            (
                pack("type.googleapis.com/google.protobuf.Empty", &()),
                r#"{"@type":"type.googleapis.com/google.protobuf.Empty","value":{}}"#,
            ),
            (
                pack(
                    "type.googleapis.com/google.protobuf.FieldMask",
                    &prost_types::FieldMask {
                        paths: vec!["a_b".into()],
                    },
                ),
                r#"{"@type":"type.googleapis.com/google.protobuf.FieldMask","value":"aB"}"#,
            ),
        ];
        for (any, json) in cases {
            round_trip(&any, json);
        }
        // Empty is also accepted without "value", as Go does.
        let any: Any =
            crate::from_str(r#"{"@type":"type.googleapis.com/google.protobuf.Empty"}"#).unwrap();
        assert_eq!(any, pack("type.googleapis.com/google.protobuf.Empty", &()));
    }

    #[test]
    fn nested_anys() {
        register_point();
        let inner = pack(POINT_URL, &point(1));
        round_trip(
            &pack("type.googleapis.com/google.protobuf.Any", &inner),
            r#"{"@type":"type.googleapis.com/google.protobuf.Any","value":{"@type":"type.googleapis.com/any.test.Point","x":1}}"#,
        );
        let outer = Point {
            x: 2,
            any: Some(inner),
            ..Point::default()
        };
        round_trip(
            &pack(POINT_URL, &outer),
            r#"{"@type":"type.googleapis.com/any.test.Point","x":2,"any":{"@type":"type.googleapis.com/any.test.Point","x":1}}"#,
        );
        let json = r#"{"any":{"x":1,"@type":"type.googleapis.com/any.test.Point"},"@type":"type.googleapis.com/any.test.Point","x":2}"#;
        assert_eq!(
            crate::from_str::<Any>(json).unwrap(),
            pack(POINT_URL, &outer)
        );
    }

    #[test]
    fn empty_any() {
        round_trip(&Any::default(), "{}");
        let mut any = pack(POINT_URL, &point(1));
        any.merge_json("{}").unwrap();
        assert_eq!(any, pack(POINT_URL, &point(1)));
    }

    #[test]
    fn unknown_types_are_errors() {
        let any = pack("type.googleapis.com/no.such.Type", &point(1));
        let err = crate::to_string(&any).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Encode);
        assert!(err.message().starts_with(
            "unknown message type \"no.such.Type\" in google.protobuf.Any (type URL \"type.googleapis.com/no.such.Type\")"
        ), "{}", err.message());

        let json = r#"{"a": 1, "@type": "type.googleapis.com/no.such.Type"}"#;
        let err = crate::from_str::<Any>(json).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidValue);
        assert!(
            err.message()
                .starts_with("unknown message type \"no.such.Type\"")
        );
        assert_eq!((err.path_string().as_str(), err.offset()), ("@type", 18));

        for url in ["", "not_a_url", "type.googleapis.com/"] {
            let json = format!(r#"{{"@type": {url:?}, "value": ""}}"#);
            let err = crate::from_str::<Any>(&json).unwrap_err();
            assert!(
                err.message()
                    .starts_with(&format!("invalid type URL {url:?}")),
                "{}",
                err.message()
            );
            let err = crate::to_string(&Any {
                type_url: url.into(),
                value: vec![1],
            })
            .unwrap_err();
            assert!(
                err.message()
                    .starts_with(&format!("invalid type URL {url:?}"))
            );
        }
    }

    #[test]
    fn malformed_anys_are_rejected() {
        register_point();
        let opts = DecodeOptions::new().ignore_unknown_fields(true);
        for (json, message, ignored) in [
            (
                r#"{"x": 1}"#,
                "missing \"@type\" field in google.protobuf.Any",
                true,
            ),
            (
                r#"{"@type": 1}"#,
                "expected string for \"@type\", found number",
                false,
            ),
            (
                r#"{"@type": "type.googleapis.com/any.test.Point", "@type": "type.googleapis.com/any.test.Point"}"#,
                "duplicate \"@type\" field",
                false,
            ),
            (
                r#"{"@type": "type.googleapis.com/google.protobuf.Duration", "@type": "x"}"#,
                "duplicate field",
                false,
            ),
            (
                r#"{"@type": "type.googleapis.com/google.protobuf.Duration", "value": "1s", "value": "1s"}"#,
                "duplicate field",
                false,
            ),
            (
                r#"{"@type": "type.googleapis.com/google.protobuf.Duration"}"#,
                "missing \"value\" field in google.protobuf.Any of a well-known type",
                false,
            ),
            (
                r#"{"@type": "type.googleapis.com/google.protobuf.Duration", "value": "1s", "x": 1}"#,
                "unknown field",
                true,
            ),
            (
                r#"{"@type": "type.googleapis.com/any.test.Point", "y": 1}"#,
                "unknown field",
                true,
            ),
            (
                r#"{"@type": "type.googleapis.com/google.protobuf.Duration", "value": null}"#,
                "expected string, found null",
                false,
            ),
            (
                r#"{"@type": "type.googleapis.com/any.test.Point", "child": {"@type": "type.googleapis.com/any.test.Point"}}"#,
                "unknown field",
                true,
            ),
            (r#"[]"#, "expected object, found array", false),
        ] {
            // As written, and compact: a `@type` is then found and stepped
            // over without being read as a key.
            for json in [json.to_string(), compact(json)] {
                let err = crate::from_str::<Any>(&json).unwrap_err();
                assert_eq!(err.message(), message, "{json}");
                assert_eq!(opts.from_str::<Any>(&json).is_ok(), ignored, "{json}");
            }
        }
        // "@type" is only special in the body of an Any.
        let err = crate::from_str::<Point>(r#"{"@type": "x"}"#).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnknownField);
    }

    /// `json` without the spaces between its tokens.
    fn compact(json: &str) -> String {
        let (mut out, mut in_string, mut escaped) = (String::new(), false, false);
        for c in json.chars() {
            if in_string {
                (in_string, escaped) = (escaped || c != '"', !escaped && c == '\\');
            } else if c == ' ' {
                continue;
            } else {
                in_string = c == '"';
            }
            out.push(c);
        }
        out
    }

    /// A `@type` member written as encoders write it (`"@type":"…"`) is
    /// found and stepped over without tokenizing (by `probe`, and by the
    /// fields' loops); any other spelling is read as a key. Both read the
    /// same messages and fail with the same errors, wherever the member is
    /// and whatever surrounds it.
    #[test]
    fn type_members_as_encoders_write_them_read_as_any_other_spelling() {
        register_point();
        let point = "\"type.googleapis.com/any.test.Point\"";
        let objects = [
            "{@T}",
            r#"{@T,"x":3}"#,
            r#"{@T,"when":"1970-01-01T00:00:02Z","x":3}"#,
            r#"{@T,"x":3,"x":4}"#,
            r#"{@T,"x":3,"@type":"x"}"#,
            r#"{@T,"y":1}"#,
            r#"{@T,"x":"#,
            r#"{@T,"x":3"#,
            r#"{@T,"any":{"@type":"type.googleapis.com/any.test.Point","x":1},"x":2}"#,
            r#"{@T,"child":{"@type":"type.googleapis.com/any.test.Point"}}"#,
            r#"{"x":3,@T}"#,
            r#"{"y":1,@T,"x":3}"#,
            r#"{"x":3,@T,"when":"1970-01-01T00:00:02Z"}"#,
            "{@T,}",
            "{@T",
        ];
        let spellings = [r#""@type":"#, r#""@type" :"#, r#""\u0040type":"#];
        let opts = DecodeOptions::new().ignore_unknown_fields(true);
        for object in objects {
            let [usual, others @ ..] =
                spellings.map(|key| object.replace("@T", &format!("{key}{point}")));
            for opts in [DecodeOptions::new(), opts] {
                let read = |json: &str| {
                    (opts.from_str::<Any>(json))
                        .map_err(|e| (e.message().to_string(), e.path_string()))
                };
                let want = read(&usual);
                for other in &others {
                    assert_eq!(read(other), want, "{usual} against {other}");
                }
            }
        }
        // Errors about the type URL are at its value, as when read as a key.
        let json = r#"{"@type":"type.googleapis.com/any.test.Point","@type":"x"}"#;
        let err = crate::from_str::<Any>(json).unwrap_err();
        assert_eq!(err.offset(), json.rfind(":\"x\"").unwrap() + 1);
        let json = r#"{"@type":"type.googleapis.com/any.test.Nothing","x":1}"#;
        let err = crate::from_str::<Any>(json).unwrap_err();
        assert_eq!((err.offset(), err.path_string()), (9, "@type".into()));
    }

    #[test]
    fn undecodable_values_are_encode_errors() {
        let any = Any {
            type_url: "type.googleapis.com/google.protobuf.Duration".into(),
            value: vec![0xff],
        };
        let err = crate::to_string(&any).unwrap_err();
        assert!(err.message().starts_with(
            "cannot decode the value of the google.protobuf.Any of type \"type.googleapis.com/google.protobuf.Duration\""
        ));
        let bad = pack(
            "type.googleapis.com/google.protobuf.Duration",
            &Duration {
                seconds: 1,
                nanos: -1,
            },
        );
        let err = crate::to_string(&bad).unwrap_err();
        assert!(
            err.message()
                .starts_with("google.protobuf.Duration has seconds and nanos")
        );
        register_point();
        let err = crate::to_string(&pack(
            POINT_URL,
            &Point {
                any: Some(bad),
                ..point(1)
            },
        ))
        .unwrap_err();
        assert!(
            err.message()
                .starts_with("google.protobuf.Duration has seconds and nanos")
        );
    }

    #[test]
    fn deep_nesting_is_bounded_both_ways() {
        let url = "type.googleapis.com/google.protobuf.Any";
        let mut any = pack("type.googleapis.com/google.protobuf.Int32Value", &1i32);
        for _ in 0..1000 {
            any = pack(url, &any);
        }
        let err = crate::to_string(&any).unwrap_err();
        assert_eq!(
            err.message(),
            "google.protobuf.Any values are nested more than 100 deep"
        );
        // The depth is given back: a shallow Any still encodes afterwards.
        crate::to_string(&pack(url, &Any::default())).unwrap();

        let json = format!(r#"{{"@type":"{url}","value":"#).repeat(10_000) + &"}".repeat(10_000);
        let err = crate::from_str::<Any>(&json).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DepthLimit);
    }
}
