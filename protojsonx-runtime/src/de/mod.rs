//! The decoder generated code reads through: the tokenizer, the options and the depth budget.
//!
//! Generated `read_json` bodies read their objects through [`Decoder::fields`] (in `fields`),
//! which matches keys to fields, and read each value with the typed methods
//! here. Every method either consumes exactly one JSON value or returns an error.

mod fields;
mod scalar;

use std::borrow::Cow;
use std::io;

use crate::error::{Error, ErrorKind};
use crate::map::{JsonMap, MapKey, MapValue};
use crate::options::DecodeOptions;
use crate::read::{Peek, Reader};
use crate::reset::{Bytes, EnumField, Reset};
use crate::text::num::{self, NumError};
use crate::text::short;
use crate::wkt::TypeRegistry;
use crate::wkt::any::TYPE_MEMBER;
use crate::{JsonEnum, ProtoJson};

pub use fields::{Fields, OwnedFieldKeys, Seen};
pub use scalar::ScalarField;

/// Reads ProtoJSON values from a byte slice. Part of the contract with generated code.
pub struct Decoder<'a> {
    r: Reader<'a>,
    opts: DecodeOptions,
    depth_left: u32,
    /// Whether the input replaces what the message held (`decode_into`),
    /// rather than merging into it: fields the input leaves out, or sets to
    /// `null`, are then cleared. See [`replacing`](Self::replacing).
    replacing: bool,
    /// While the fields of a message packed in a `google.protobuf.Any` are
    /// read inline: the depth budget left inside that object (which tells
    /// its keys apart from those of nested objects), and whether its `@type`
    /// key was met. See [`read_any_body`](Self::read_any_body).
    any_body: Option<(u32, bool)>,
    /// The `@type` member an `Any` object began with, as encoders write it
    /// (`{"@type":"…"`): its offset and length (0: none), found when the
    /// `Any` was probed and stepped over by offset in
    /// [`step_over_type_member`](Self::step_over_type_member), not scanned
    /// a second time. A fact about the input, whichever object reads it.
    /// Narrow (six bytes, not sixteen and a tag) to keep the decoder small:
    /// a member past 4 GiB into the input or longer than 64 KiB is scanned again.
    leading_type_at: u32,
    leading_type_len: u16,
}

impl<'a> Decoder<'a> {
    /// A decoder at the start of `input`. In line by force, as are the entry
    /// points that call it: options made just before the call (as
    /// `from_slice(json)` makes the defaults) are then constants, not bytes
    /// in memory read back as wider words than they were stored with (see
    /// `Encoder::new`; `small` guards it).
    #[inline(always)]
    pub(crate) fn new(input: &'a [u8], opts: DecodeOptions) -> Self {
        Decoder {
            r: Reader::new(input),
            opts,
            depth_left: opts.max_depth,
            replacing: false,
            any_body: None,
            leading_type_at: 0,
            leading_type_len: 0,
        }
    }

    /// A decoder at the start of `input` whose values replace what the
    /// message read into held, reusing its memory (`decode_into`).
    #[inline(always)]
    pub(crate) fn replacing(input: &'a [u8], opts: DecodeOptions) -> Self {
        Decoder {
            replacing: true,
            ..Self::new(input, opts)
        }
    }

    /// Checks that only whitespace is left after the top-level value.
    #[inline]
    pub(crate) fn finish(&mut self) -> Result<(), Error> {
        self.r.finish()
    }

    /// Whether values replace what the message held (`decode_into`) rather
    /// than merge into it. Generated `read_json` bodies then clear the fields
    /// the object left out (see [`Seen::reset`]), and the readers here
    /// overwrite lists and maps instead of appending to them.
    #[inline]
    pub fn replaces(&self) -> bool {
        self.replacing
    }

    /// Clears `field` when values replace (a field set to an enum name
    /// skipped by `ignore_unknown_fields`); merging leaves it as it was.
    #[inline]
    pub fn unset<T: Reset>(&self, field: &mut T) {
        if self.replacing {
            field.reset();
        }
    }

    /// Consumes `null` if it is the next value, which means "not set":
    /// `field` is then [unset](Self::unset). Reports whether it was `null`.
    #[inline]
    pub fn take_null_for<T: Reset>(&mut self, field: &mut T) -> bool {
        let null = self.r.null();
        if null {
            self.unset(field);
        }
        null
    }

    /// [`take_null_for`](Self::take_null_for) for a field that holds a
    /// message directly (proto2 `required`), unset to its default.
    #[inline]
    pub fn take_null_for_message<M: Default>(&mut self, field: &mut M) -> bool {
        let null = self.r.null();
        if null && self.replacing {
            *field = M::default();
        }
        null
    }

    /// Runs `read` with values replacing what the message read into held,
    /// as in `decode_into`: for a message reused by the decoder itself.
    pub(crate) fn replacing_within<R>(&mut self, read: impl FnOnce(&mut Self) -> R) -> R {
        let outer = std::mem::replace(&mut self.replacing, true);
        let result = read(self);
        self.replacing = outer;
        result
    }

    /// Whether unknown fields and enum names are skipped rather than rejected.
    #[inline]
    pub fn ignore_unknown_fields(&self) -> bool {
        self.opts.ignore_unknown_fields
    }

    /// Takes one level of the nesting budget, before an object or array.
    #[inline]
    fn enter(&mut self) -> Result<(), Error> {
        match self.depth_left.checked_sub(1) {
            Some(left) => {
                self.depth_left = left;
                Ok(())
            }
            None => {
                self.r.peek();
                Err(self.r.depth_error())
            }
        }
    }

    /// Consumes the `{` of an object, taking a level of the nesting budget.
    /// A `{` right at the cursor (compact JSON) is taken inline.
    #[inline]
    fn open_object(&mut self) -> Result<(), Error> {
        if self.depth_left > 0 && self.r.eat_here(b'{') {
            self.depth_left -= 1;
            return Ok(());
        }
        self.open_object_slow()
    }

    /// [`open_object`](Self::open_object) after whitespace, and its errors.
    #[inline(never)]
    fn open_object_slow(&mut self) -> Result<(), Error> {
        let found = self.r.peek();
        if found != Peek::Object {
            return Err(self.expected("object", found));
        }
        self.enter()?;
        self.r.begin_object()
    }

    /// Consumes the `[` of an array, taking a level of the nesting budget.
    #[inline]
    fn open_array(&mut self) -> Result<(), Error> {
        let found = self.r.peek();
        if found != Peek::Array {
            return Err(self.expected("array", found));
        }
        self.enter()?;
        self.r.begin_array()
    }

    /// Gives back the level taken by [`enter`](Self::enter).
    #[inline]
    fn leave(&mut self) {
        self.depth_left += 1;
    }

    /// An error about the value starting at `offset`.
    #[cold]
    pub fn invalid_at(&self, offset: usize, message: String) -> Error {
        self.r.error_at(offset, ErrorKind::InvalidValue, message)
    }

    /// The error for a value of the wrong JSON type.
    #[cold]
    pub(crate) fn expected(&self, what: &str, found: Peek) -> Error {
        let kind = if found == Peek::End {
            ErrorKind::Eof
        } else {
            ErrorKind::InvalidValue
        };
        let message = format!("expected {what}, found {}", found.describe());
        self.r.error(kind, message)
    }

    /// Reads an object, calling `field` with each key; `field` must consume the value.
    /// Errors from `field` get the key added to their path.
    #[inline]
    pub fn read_object(
        &mut self,
        mut field: impl FnMut(&mut Self, &[u8]) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.open_object()?;
        let mut first = true;
        while let Some(key) = self.r.next_key(&mut first)? {
            if let Err(e) = field(self, key.as_bytes()) {
                return Err(e.in_field(key.as_bytes()));
            }
        }
        self.leave();
        Ok(())
    }

    /// Marks a field as read, failing if it was read before in this object.
    #[inline]
    pub fn mark_seen(&mut self, seen: &mut bool) -> Result<(), Error> {
        if std::mem::replace(seen, true) {
            return Err(self.duplicate_field());
        }
        Ok(())
    }

    /// Ends an object of a message with proto2 `required` fields, which
    /// began at `start`: fails naming the first of `names` whose flag in
    /// `set` is false, unless the options allow partial messages.
    #[inline]
    pub fn check_required(
        &self,
        start: usize,
        set: &[bool],
        names: &'static [&'static str],
    ) -> Result<(), Error> {
        match set.iter().position(|set| !set) {
            Some(missing) => self.missing_required(start, names[missing]),
            None => Ok(()),
        }
    }

    /// The `required` field `name` of the object that began at `start` is
    /// missing: an error unless the options allow partial messages. For the
    /// dynamic transcoder; generated code calls [`check_required`](Self::check_required).
    #[inline]
    pub fn missing_required(&self, start: usize, name: &str) -> Result<(), Error> {
        if self.opts.allow_partial {
            return Ok(());
        }
        Err(self.missing(start, name))
    }

    #[cold]
    fn missing(&self, start: usize, name: &str) -> Error {
        let message = "missing required field (decode with `allow_partial` to accept it)";
        self.r
            .error_at(start, ErrorKind::MissingField, message.into())
            .in_field(name.as_bytes())
    }

    /// The registry the options name for `Any`, if any.
    #[inline]
    pub(crate) fn type_registry(&self) -> Option<&'static TypeRegistry> {
        self.opts.registry.0
    }

    /// Marks a oneof as set, failing if another of its members was set in this object.
    #[inline]
    pub fn mark_oneof(&mut self, seen: &mut bool, oneof: &str) -> Result<(), Error> {
        if std::mem::replace(seen, true) {
            return Err(self.duplicate_oneof(oneof));
        }
        Ok(())
    }

    #[cold]
    fn duplicate(&mut self, message: String) -> Error {
        self.r.peek();
        self.r.error(ErrorKind::DuplicateField, message)
    }

    /// Consumes `null` if it is the next value; reports whether it was.
    /// For most fields `null` means "not set".
    #[inline]
    pub fn take_null(&mut self) -> bool {
        self.r.null()
    }

    /// Handles a key that names no field: skips its value when unknown fields
    /// are ignored, else fails.
    pub fn unknown_field(&mut self, key: &[u8]) -> Result<(), Error> {
        let depth_left = self.depth_left;
        match &mut self.any_body {
            // The type URL of the `Any` whose packed message is being read:
            // found before by the `Any` reader, skipped here.
            Some((depth, seen)) if key == b"@type" && *depth == depth_left => {
                if std::mem::replace(seen, true) {
                    return Err(self.duplicate_type());
                }
                return self.skip_value();
            }
            _ => {}
        }
        if self.opts.ignore_unknown_fields {
            return self.skip_value();
        }
        self.r.peek();
        let message = match key.strip_prefix(b"[").and_then(|k| k.strip_suffix(b"]")) {
            Some(name) => format!(
                "extension `{}` has no field: prost messages cannot hold extensions \
                 (ignore_unknown_fields skips them)",
                String::from_utf8_lossy(name)
            ),
            None => "unknown field".into(),
        };
        Err(self.r.error(ErrorKind::UnknownField, message))
    }

    /// Steps over the member at the cursor if it is the `@type` of the
    /// `Any` whose packed message's fields are being read (see
    /// [`read_any_fields`](Self::read_any_fields)), written as encoders
    /// write it: what [`unknown_field`](Self::unknown_field) does with that
    /// key, without reading it as a key and its value as any value. The
    /// fields' loops ask this of a key no field matched, before reading it.
    /// `Ok(true)` if it did, the cursor then past the member.
    pub(crate) fn step_over_type_member(&mut self) -> Result<bool, Error> {
        let Some((depth, seen)) = self.any_body else {
            return Ok(false);
        };
        if depth != self.depth_left {
            return Ok(false);
        }
        let Some(len) = self.type_member_len() else {
            return Ok(false);
        };
        self.any_body = Some((depth, true));
        if seen {
            // As `unknown_field` reports it, whose callers add the key to
            // the path: at the value, under `@type`.
            self.r.advance(TYPE_MEMBER.len());
            return Err(self.duplicate_type().in_field(b"@type"));
        }
        self.r.advance(len);
        Ok(true)
    }

    /// The length of the `@type` member at the cursor, written as encoders
    /// write it; `None` at any other member. The one the `Any` was probed
    /// for is known already.
    fn type_member_len(&self) -> Option<usize> {
        let len = usize::from(self.leading_type_len);
        if len != 0 && self.leading_type_at as usize == self.r.offset() {
            return Some(len);
        }
        self.r.plain_string_member(TYPE_MEMBER).map(|(_, len)| len)
    }

    /// Records the `@type` member, `len` bytes at `at`, that the `Any`
    /// being read begins with (see `leading_type_at`), if the fields are
    /// wide enough.
    pub(crate) fn note_leading_type_member(&mut self, at: usize, len: usize) {
        if let (Ok(at), Ok(len)) = (u32::try_from(at), u16::try_from(len)) {
            (self.leading_type_at, self.leading_type_len) = (at, len);
        }
    }

    /// The error of a field met twice in one object. Out of line, message
    /// and all: every field of generated code can fail with it, and none
    /// should carry the code that builds it.
    #[cold]
    #[inline(never)]
    pub(crate) fn duplicate_field(&mut self) -> Error {
        self.duplicate("duplicate field".into())
    }

    /// The error of a second member of `oneof` set in one object, out of
    /// line as [`duplicate_field`](Self::duplicate_field) is.
    #[cold]
    #[inline(never)]
    fn duplicate_oneof(&mut self, oneof: &str) -> Error {
        self.duplicate(format!("more than one field of oneof `{oneof}` is set"))
    }

    /// The error of an `Any`'s second `@type`.
    #[cold]
    fn duplicate_type(&mut self) -> Error {
        self.duplicate("duplicate \"@type\" field".into())
    }

    /// Skips whitespace and classifies the next value, for the well-known
    /// types whose JSON form depends on it (`google.protobuf.Value`, `Any`).
    #[inline]
    pub(crate) fn peek(&mut self) -> Peek {
        self.r.peek()
    }

    /// The JSON type of the value at the cursor (after whitespace), which
    /// decides the field of a `google.protobuf.Value`; an error where no
    /// value starts.
    #[inline]
    pub fn json_type(&mut self) -> Result<JsonType, Error> {
        Ok(match self.r.peek() {
            Peek::Null => JsonType::Null,
            Peek::True | Peek::False => JsonType::Bool,
            Peek::Number => JsonType::Number,
            Peek::String => JsonType::String,
            Peek::Object => JsonType::Object,
            Peek::Array => JsonType::Array,
            found @ (Peek::Invalid(_) | Peek::End) => {
                return Err(self.expected("a JSON value", found));
            }
        })
    }

    /// The byte offset where the next value starts, for error locations.
    pub fn offset(&mut self) -> usize {
        self.r.peek();
        self.r.offset()
    }

    /// A copy of the tokenizer at the current position, to look ahead
    /// (for the `@type` of an `Any`) without consuming input.
    pub(crate) fn lookahead(&self) -> Reader<'a> {
        self.r.clone()
    }

    /// The nesting budget left at the current position.
    pub(crate) fn depth_left(&self) -> u32 {
        self.depth_left
    }

    /// Reads the object at the current position into `msg` as the body of a
    /// `google.protobuf.Any`: its own `@type` key (once) is skipped rather
    /// than treated as an unknown field; everything else reads as usual.
    pub(crate) fn read_any_body<M: ProtoJson>(&mut self, msg: &mut M) -> Result<(), Error> {
        self.read_any_fields(|d| msg.read_json(d))
    }

    /// Runs `read`, which reads the object at the current position as the
    /// body of a `google.protobuf.Any` (for the dynamic transcoder): its
    /// `@type` key, met once, is skipped by [`unknown_field`](Self::unknown_field).
    pub fn read_any_fields(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<(), Error>,
    ) -> Result<(), Error> {
        // The object's keys are read with one level less than is left now.
        let inside = self.depth_left.saturating_sub(1);
        let outer = self.any_body.replace((inside, false));
        let result = read(self);
        self.any_body = outer;
        result
    }

    /// Skips one value of any kind, within the nesting budget.
    pub fn skip_value(&mut self) -> Result<(), Error> {
        self.r.skip_value(self.depth_left)
    }

    /// Reads a bool: only `true` or `false`.
    #[inline]
    pub fn read_bool(&mut self) -> Result<bool, Error> {
        match self.r.eat_bool() {
            Some(value) => Ok(value),
            None => self.read_bool_slow(),
        }
    }

    /// [`read_bool`](Self::read_bool) after whitespace, and its errors.
    #[inline(never)]
    fn read_bool_slow(&mut self) -> Result<bool, Error> {
        match self.r.peek() {
            Peek::True | Peek::False => self.r.boolean(),
            found => Err(self.expected("bool", found)),
        }
    }

    /// Reads an int32, sint32 or sfixed32 from a number or a numeric string.
    #[inline]
    pub fn read_i32(&mut self) -> Result<i32, Error> {
        self.int("int32")
    }

    /// Reads a uint32 or fixed32 from a number or a numeric string.
    #[inline]
    pub fn read_u32(&mut self) -> Result<u32, Error> {
        self.int("uint32")
    }

    /// Reads an int64, sint64 or sfixed64 from a number or a numeric string.
    #[inline]
    pub fn read_i64(&mut self) -> Result<i64, Error> {
        self.int("int64")
    }

    /// Reads a uint64 or fixed64 from a number or a numeric string.
    #[inline]
    pub fn read_u64(&mut self) -> Result<u64, Error> {
        self.int("uint64")
    }

    /// Reads an integer of the type named `what`; exponent forms are accepted
    /// when exact, fractions and out-of-range values are not.
    #[inline]
    fn int<T: num::Int + num::PlainNumber>(&mut self, what: &str) -> Result<T, Error> {
        match self.r.plain_number() {
            Some(v) => Ok(v),
            None => self.int_slow(what),
        }
    }

    /// [`int`](Self::int) for every form and error.
    #[inline(never)]
    fn int_slow<T: num::Int>(&mut self, what: &str) -> Result<T, Error> {
        let found = self.r.peek();
        let start = self.r.offset();
        let parsed = match found {
            Peek::Number => num::parse_int(self.r.number()?),
            Peek::String => num::parse_int(&self.r.string()?),
            _ => return Err(self.expected(what, found)),
        };
        parsed.map_err(|e| self.invalid_number(start, what, e))
    }

    #[cold]
    fn invalid_number(&self, start: usize, what: &str, e: NumError) -> Error {
        self.invalid_at(start, format!("invalid value for {what}: {e}"))
    }

    /// Reads a double from a number, a numeric string, or `"NaN"`, `"Infinity"`, `"-Infinity"`.
    #[inline]
    pub fn read_f64(&mut self) -> Result<f64, Error> {
        if let Some(v) = self.r.plain_number() {
            return Ok(v);
        }
        self.f64_slow()
    }

    /// [`read_f64`](Self::read_f64) for every form but a plain number, and its errors.
    fn f64_slow(&mut self) -> Result<f64, Error> {
        self.float("double", num::parse_f64, |special| match special {
            Special::NaN => f64::NAN,
            Special::Infinity => f64::INFINITY,
            Special::NegInfinity => f64::NEG_INFINITY,
        })
    }

    /// Reads a float like [`read_f64`](Self::read_f64); values beyond f32's range are errors.
    #[inline]
    pub fn read_f32(&mut self) -> Result<f32, Error> {
        if let Some(v) = self.r.plain_number() {
            return Ok(v);
        }
        self.f32_slow()
    }

    /// [`read_f32`](Self::read_f32) for every form but a plain number, and its errors.
    fn f32_slow(&mut self) -> Result<f32, Error> {
        self.float("float", num::parse_f32, |special| match special {
            Special::NaN => f32::NAN,
            Special::Infinity => f32::INFINITY,
            Special::NegInfinity => f32::NEG_INFINITY,
        })
    }

    #[inline(never)]
    fn float<T>(
        &mut self,
        what: &str,
        parse: fn(&str) -> Result<T, NumError>,
        special: fn(Special) -> T,
    ) -> Result<T, Error> {
        let found = self.r.peek();
        let start = self.r.offset();
        let parsed = match found {
            Peek::Number => parse(self.r.number()?),
            Peek::String => match &*self.r.string()? {
                "NaN" => Ok(special(Special::NaN)),
                "Infinity" => Ok(special(Special::Infinity)),
                "-Infinity" => Ok(special(Special::NegInfinity)),
                text => parse(text),
            },
            _ => return Err(self.expected(what, found)),
        };
        parsed.map_err(|e| self.invalid_number(start, what, e))
    }

    /// Reads a string.
    #[inline]
    pub fn read_string(&mut self) -> Result<String, Error> {
        if let Some(plain) = self.r.plain_string() {
            let mut out = String::new();
            Self::store_plain(&mut out, plain);
            return Ok(out);
        }
        self.read_string_slow()
    }

    /// [`read_string`](Self::read_string) after whitespace, and for strings
    /// that are not plain ASCII.
    #[inline(never)]
    fn read_string_slow(&mut self) -> Result<String, Error> {
        match self.r.peek() {
            Peek::String => self.r.string().map(Cow::into_owned),
            found => Err(self.expected("string", found)),
        }
    }

    /// Reads a string into `out`, replacing its text and keeping its memory.
    #[inline]
    pub fn read_string_into(&mut self, out: &mut String) -> Result<(), Error> {
        if let Some(plain) = self.r.plain_string() {
            Self::store_plain(out, plain);
            return Ok(());
        }
        self.read_string_into_slow(out)
    }

    /// Replaces `out` with `plain`, a string read without escapes.
    #[inline(always)]
    fn store_plain(out: &mut String, plain: &str) {
        // SAFETY: the bytes stored are those of a `&str`, valid UTF-8.
        short::replace(unsafe { out.as_mut_vec() }, plain.as_bytes());
    }

    /// [`read_string_into`](Self::read_string_into) after whitespace, and
    /// for strings that are not plain ASCII.
    #[inline(never)]
    fn read_string_into_slow(&mut self, out: &mut String) -> Result<(), Error> {
        match self.r.peek() {
            Peek::String if out.capacity() == 0 => {
                *out = self.r.string()?.into_owned();
                Ok(())
            }
            Peek::String => {
                out.clear();
                self.r.string_into(out)
            }
            found => Err(self.expected("string", found)),
        }
    }

    /// Reads a string and appends its UTF-8 bytes to `out`, escapes
    /// decoded straight into it: for a transcoder, which writes strings
    /// into its output with no `String` between.
    #[inline]
    pub fn read_str_append(&mut self, out: &mut Vec<u8>) -> Result<(), Error> {
        match self.r.peek() {
            Peek::String => self.r.string_into(out),
            found => Err(self.expected("string", found)),
        }
    }

    /// Reads a string, borrowed from the input unless it holds escapes.
    #[inline]
    pub fn read_str(&mut self) -> Result<Cow<'a, str>, Error> {
        match self.r.plain_string() {
            Some(plain) => Ok(Cow::Borrowed(plain)),
            None => self.read_str_slow(),
        }
    }

    /// [`read_str`](Self::read_str) after whitespace, and for strings that
    /// are not plain ASCII.
    #[inline(never)]
    fn read_str_slow(&mut self) -> Result<Cow<'a, str>, Error> {
        match self.r.peek() {
            Peek::String => self.r.string(),
            found => Err(self.expected("string", found)),
        }
    }

    /// Reads a value of a fixed shape in one step from the next `N` bytes of
    /// input, or nothing: see
    /// [`Reader::short_value`](crate::read::Reader::short_value). For the
    /// well-known types' strings in the form encoders write.
    #[inline(always)]
    pub(crate) fn read_short<const N: usize, T>(
        &mut self,
        read: impl FnOnce(&[u8; N]) -> Option<(T, usize)>,
    ) -> Option<T> {
        self.r.short_value(read)
    }

    /// Reads bytes from base64, standard or URL-safe, padded or not.
    #[inline]
    pub fn read_bytes<B: Bytes>(&mut self) -> Result<B, Error> {
        let mut bytes = B::default();
        self.read_bytes_into(&mut bytes)?;
        Ok(bytes)
    }

    /// Reads bytes into `out`, replacing what it held (and keeping the
    /// memory of a `Vec<u8>`).
    #[inline]
    pub fn read_bytes_into<B: Bytes>(&mut self, out: &mut B) -> Result<(), Error> {
        self.read_base64(|text| out.decode_base64(text))
    }

    /// Reads bytes from base64 and appends them to `out`: for a
    /// transcoder, which writes them straight into its output. After an
    /// error `out` holds some of them.
    #[inline]
    pub fn read_bytes_append(&mut self, out: &mut Vec<u8>) -> Result<(), Error> {
        self.read_base64(|text| crate::text::base64::decode_into(text, out))
    }

    /// Reads a base64 string and decodes its text with `decode`.
    #[inline]
    fn read_base64(
        &mut self,
        decode: impl FnOnce(&[u8]) -> Result<(), crate::text::base64::Base64Error>,
    ) -> Result<(), Error> {
        let found = self.r.peek();
        if found != Peek::String {
            return Err(self.expected("base64 string", found));
        }
        let start = self.r.offset();
        let text = self.r.string()?;
        decode(text.as_bytes())
            .map_err(|e| self.invalid_at(start, format!("invalid value for bytes: {e}")))
    }

    /// Reads an enum value into `field` (an `i32`, or an `Option<i32>` for a
    /// field with presence). An unknown name skipped by `ignore_unknown_fields`
    /// leaves the field unset (see [`unset`](Self::unset)).
    #[inline]
    pub fn read_enum_into<E: JsonEnum, F: EnumField>(
        &mut self,
        field: &mut F,
    ) -> Result<(), Error> {
        match self.read_enum::<E>()? {
            Some(v) => field.set(v),
            None => self.unset(field),
        }
        Ok(())
    }

    /// Reads an enum value by name or number. `None` means an unknown name was
    /// skipped because unknown fields are ignored; the field is then left as it was.
    #[inline]
    pub fn read_enum<E: JsonEnum>(&mut self) -> Result<Option<i32>, Error> {
        self.read_enum_with(E::NAME, E::IS_NULL_VALUE, E::value_of)
    }

    /// [`read_enum`](Self::read_enum) for an enum known only at run time:
    /// its full name (for errors), whether it is `google.protobuf.NullValue`,
    /// and the value of each name.
    #[inline]
    pub fn read_enum_with(
        &mut self,
        enum_name: &str,
        null_value: bool,
        value_of: impl Fn(&[u8]) -> Option<i32>,
    ) -> Result<Option<i32>, Error> {
        let found = self.r.peek();
        let start = self.r.offset();
        match found {
            Peek::String => {
                let name = self.r.string()?;
                match value_of(name.as_bytes()) {
                    Some(v) => Ok(Some(v)),
                    None if self.opts.ignore_unknown_fields => Ok(None),
                    None => Err(self.invalid_at(
                        start,
                        format!("unknown value {name:?} for enum {enum_name}"),
                    )),
                }
            }
            Peek::Number => {
                let v = self.int("enum")?;
                if null_value && v != 0 {
                    // `null` is the only JSON form of NullValue, so another
                    // number could not be written back.
                    let message = "google.protobuf.NullValue has only the value 0".to_string();
                    return Err(self.invalid_at(start, message));
                }
                Ok(Some(v))
            }
            Peek::Null if null_value => Ok(self.r.null().then_some(0)),
            _ => Err(self.expected(&format!("enum {enum_name}"), found)),
        }
    }

    /// Reads a message into `msg`, merging with what it holds.
    #[inline]
    pub fn read_message<M: ProtoJson>(&mut self, msg: &mut M) -> Result<(), Error> {
        msg.read_json(self)
    }

    /// Reads a new message; the type is inferred from where it goes.
    #[inline]
    pub fn new_message<M: ProtoJson>(&mut self) -> Result<M, Error> {
        let mut msg = M::default();
        msg.read_json(self)?;
        Ok(msg)
    }

    /// Reads an array, appending each element that `read` returns to `list`
    /// (replacing what it held, when [values replace](Self::replaces)).
    #[inline]
    pub fn read_list<T>(
        &mut self,
        list: &mut Vec<T>,
        mut read: impl FnMut(&mut Self) -> Result<T, Error>,
    ) -> Result<(), Error> {
        self.list_of(list, |d| read(d).map(Some))
    }

    /// Reads an array of enum values; unknown names are skipped when unknown fields are ignored.
    pub fn read_enum_list<E: JsonEnum>(&mut self, list: &mut Vec<i32>) -> Result<(), Error> {
        self.list_of(list, Self::read_enum::<E>)
    }

    fn list_of<T>(
        &mut self,
        list: &mut Vec<T>,
        mut read: impl FnMut(&mut Self) -> Result<Option<T>, Error>,
    ) -> Result<(), Error> {
        if self.replacing {
            list.clear();
        }
        self.read_array(|d| {
            if let Some(item) = read(d)? {
                list.push(item);
            }
            Ok(())
        })
    }

    /// Reads an array of messages, each one read in place at the end of
    /// `list` (a message is not moved after it is read). When values
    /// replace, the elements already in `list` are read into again.
    #[inline]
    pub fn read_message_list<M: ProtoJson>(&mut self, list: &mut Vec<M>) -> Result<(), Error> {
        self.read_list_in_place(list, |d, msg| msg.read_json(d))
    }

    /// Reads an array into `list`, each element by `read` into a slot: the
    /// next element already there when values replace (so that its memory
    /// is reused), else a new one at the end. Extra old elements are dropped.
    #[inline]
    pub fn read_list_in_place<T: Default>(
        &mut self,
        list: &mut Vec<T>,
        mut read: impl FnMut(&mut Self, &mut T) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut len = if self.replacing { 0 } else { list.len() };
        self.read_array(|d| {
            if len == list.len() {
                list.push(T::default());
            }
            let slot = &mut list[len];
            len += 1;
            read(d, slot)
        })?;
        list.truncate(len);
        Ok(())
    }

    /// Reads an array, calling `element` to consume each element; errors
    /// get the element's index added to their path. For the dynamic
    /// transcoder; generated code reads lists with the methods above.
    #[inline]
    pub fn read_array(
        &mut self,
        mut element: impl FnMut(&mut Self) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.open_array()?;
        let mut first = true;
        let mut index = 0;
        while self.r.next_element(&mut first)? {
            if let Err(e) = element(self) {
                return Err(e.in_index(index));
            }
            index += 1;
        }
        self.leave();
        Ok(())
    }

    /// Reads an object into a map field. Duplicate keys are errors. When
    /// values replace, the map ends up with the object's entries only, and
    /// the values of keys it held already are read into their memory.
    #[inline]
    pub fn read_map<K: MapKey, V: MapValue>(
        &mut self,
        map: &mut impl JsonMap<K, V>,
    ) -> Result<(), Error> {
        self.map_of(map, |d, value| value.read_map_value(d).map(|()| true))
    }

    /// Reads an object into a map whose values are enums.
    pub fn read_enum_map<K: MapKey, E: JsonEnum>(
        &mut self,
        map: &mut impl JsonMap<K, i32>,
    ) -> Result<(), Error> {
        self.map_of(map, |d, value| {
            let read = d.read_enum::<E>()?;
            Ok(read.map(|v| *value = v).is_some())
        })
    }

    /// Reads a map; `read` reads a value into its place, reporting whether
    /// it set one (an unknown enum name skipped does not). An entry whose
    /// key the map holds already is replaced, when merging too (as in
    /// protobuf's merge); when values replace, the map holds the object's
    /// entries only at the end.
    fn map_of<K: MapKey, V: Default>(
        &mut self,
        map: &mut impl JsonMap<K, V>,
        read: impl FnMut(&mut Self, &mut V) -> Result<bool, Error>,
    ) -> Result<(), Error> {
        if self.replacing && map.entries() > REUSED_ENTRIES {
            map.reset();
        }
        match map.entries() {
            0 => self.map_fresh(map, read),
            1..=REUSED_ENTRIES => self.map_reusing(map, read),
            _ => self.map_merging_large(map, read),
        }
    }

    /// [`map_of`](Self::map_of) into an empty map: every entry is new, and
    /// a key met twice is found by inserting it.
    #[inline]
    fn map_fresh<K: MapKey, V: Default>(
        &mut self,
        map: &mut impl JsonMap<K, V>,
        mut read: impl FnMut(&mut Self, &mut V) -> Result<bool, Error>,
    ) -> Result<(), Error> {
        self.read_map_entries(|d, key, start| {
            let parsed = K::parse_key(key).map_err(|m| d.invalid_at(start, m))?;
            let mut value = V::default();
            if read(d, &mut value)? && !map.insert_new(parsed, value) {
                return Err(d.duplicate_key(start));
            }
            Ok(())
        })
    }

    /// [`map_of`](Self::map_of) merging into a map of many entries: the
    /// object's entries are read into a map of their own, then replace or
    /// join those of `map`.
    #[inline(never)]
    fn map_merging_large<K: MapKey, V: Default, M: JsonMap<K, V>>(
        &mut self,
        map: &mut M,
        read: impl FnMut(&mut Self, &mut V) -> Result<bool, Error>,
    ) -> Result<(), Error> {
        let mut entries = M::default();
        self.map_fresh(&mut entries, read)?;
        map.extend_from(entries);
        Ok(())
    }

    /// [`map_of`](Self::map_of) into a map of a few entries: a key it
    /// holds is read into its value (as a value that replaces, reusing its
    /// memory), a new one inserted; when values replace, the entries whose
    /// key the object left out are removed at the end. Errors are those of
    /// a fresh decode: a key met twice in the object is told from one the
    /// map held by the keys read so far.
    #[inline(never)]
    fn map_reusing<K: MapKey, V: Default>(
        &mut self,
        map: &mut impl JsonMap<K, V>,
        mut read: impl FnMut(&mut Self, &mut V) -> Result<bool, Error>,
    ) -> Result<(), Error> {
        let held = map.entries();
        let replacing = self.replacing;
        let mut found = 0;
        let mut keys = KeysRead::default();
        self.map_entries_at(|d, key, key_at, start| {
            let entry = K::with_lookup(key, |lookup| {
                let fingerprint = K::fingerprint(lookup);
                let Some(value) = map.value_mut(lookup) else {
                    let mut value = V::default();
                    let set = read(d, &mut value)?;
                    if set {
                        map.insert_new(lookup.to_owned(), value);
                        keys.push(fingerprint, key_at);
                    }
                    return Ok(());
                };
                let set = d.replacing_within(|d| read(d, value))?;
                // As a fresh decode: a key met before in the object is an
                // error if its value is set again, and else keeps it.
                if keys.holds::<K>(&d.r, fingerprint, lookup) {
                    return if set {
                        Err(d.duplicate_key(start))
                    } else {
                        Ok(())
                    };
                }
                found += 1;
                if set {
                    keys.push(fingerprint, key_at);
                } else if replacing {
                    map.remove_key(lookup);
                }
                Ok(())
            });
            entry.map_err(|m| d.invalid_at(start, m))?
        })?;
        if replacing && found < held {
            let r = &self.r;
            map.retain_keys(|key| {
                let lookup = key.borrow();
                keys.holds::<K>(r, K::fingerprint(lookup), lookup)
            });
        }
        Ok(())
    }

    /// Reads an object of map entries, calling `entry` with each key (its
    /// text, and the offset of its value) to parse it and consume the
    /// value; errors get the key added to their path. For the dynamic
    /// transcoder and the map readers above.
    #[inline]
    pub fn read_map_entries(
        &mut self,
        mut entry: impl FnMut(&mut Self, &str, usize) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.map_entries_at(|d, key, _, start| entry(d, key, start))
    }

    /// [`read_map_entries`](Self::read_map_entries), telling `entry` the
    /// offset of each key too.
    #[inline(always)]
    fn map_entries_at(
        &mut self,
        mut entry: impl FnMut(&mut Self, &str, usize, usize) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.open_object()?;
        let mut first = true;
        while self.r.next_member(&mut first)? {
            let key_at = self.r.offset();
            let key = self.r.map_key()?;
            let start = self.r.offset();
            entry(self, &key, key_at, start).map_err(|e| e.in_key(&key))?;
        }
        self.leave();
        Ok(())
    }

    /// The error for a map key met twice, whose value starts at `start`.
    #[cold]
    pub fn duplicate_key(&self, start: usize) -> Error {
        self.r
            .error_at(start, ErrorKind::DuplicateField, "duplicate map key".into())
    }
}

/// The type of a JSON value, by its first byte ([`Decoder::json_type`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An object.
    Object,
    /// An array.
    Array,
}

/// The non-finite float values ProtoJSON spells as strings.
enum Special {
    NaN,
    Infinity,
    NegInfinity,
}

/// The values of the keys a map holds already are read into their memory
/// (see `Decoder::map_reusing`) when it holds at most this many entries; a
/// larger one is emptied first when values replace, and merged into by
/// another map of the object's entries otherwise. Telling the keys apart
/// costs up to this many comparisons of fingerprints per key read.
const REUSED_ENTRIES: usize = 64;

/// The keys of a map's object read so far, as fingerprint and offset: 16
/// on the stack, the rest on the heap.
#[derive(Default)]
struct KeysRead {
    first: [(u64, usize); 16],
    len: usize,
    rest: Vec<(u64, usize)>,
}

impl KeysRead {
    /// Records the key whose text starts at offset `at`.
    fn push(&mut self, fingerprint: u64, at: usize) {
        match self.first.get_mut(self.len) {
            Some(slot) => *slot = (fingerprint, at),
            None => self.rest.push((fingerprint, at)),
        }
        self.len += 1;
    }

    /// Whether a key equal to `key` was recorded, reading the texts of
    /// those with its fingerprint again from `r`'s input.
    #[inline]
    fn holds<K: MapKey>(&self, r: &Reader<'_>, fingerprint: u64, key: &K::Lookup) -> bool {
        let first = &self.first[..self.len.min(self.first.len())];
        for keys in [first, &self.rest] {
            for &(print, at) in keys {
                if print == fingerprint && Self::same::<K>(r, at, key) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the key whose text starts at `at` is `key`.
    #[cold]
    fn same<K: MapKey>(r: &Reader<'_>, at: usize, key: &K::Lookup) -> bool {
        r.string_at(at)
            .is_ok_and(|text| K::with_lookup(&text, |read| read == key) == Ok(true))
    }
}

/// The entry points of decoding.
impl DecodeOptions {
    /// Decodes a message from `json`.
    #[inline(always)]
    pub fn from_slice<M: ProtoJson>(&self, json: &[u8]) -> Result<M, Error> {
        let mut msg = M::default();
        self.merge(&mut msg, json)?;
        Ok(msg)
    }

    /// Decodes a message from `json`.
    #[inline(always)]
    pub fn from_str<M: ProtoJson>(&self, json: &str) -> Result<M, Error> {
        self.from_slice(json.as_bytes())
    }

    /// Merges the fields in `json` into `msg`: set fields overwrite, repeated
    /// fields append, map entries are inserted, replacing the entry of a key
    /// the map holds already (as protobuf's merge does).
    #[inline(always)]
    pub fn merge<M: ProtoJson>(&self, msg: &mut M, json: &[u8]) -> Result<(), Error> {
        decode_with(self, json, |d| msg.read_json(d))
    }

    /// Decodes `json` into `msg`, replacing what it held, reusing the memory
    /// it owns: afterwards `msg` equals [`from_slice(json)`](Self::from_slice)
    /// (fields the input leaves out are cleared), but strings and byte
    /// buffers keep their capacity, repeated messages are decoded into the
    /// elements already there, and sub-messages are reused in place. Decoding
    /// a stream of messages of one shape into one `msg` allocates nothing
    /// once it has grown (map entries excepted). After an error `msg` holds
    /// some of the input: decode into it again before using it.
    #[inline(always)]
    pub fn decode_into<M: ProtoJson>(&self, msg: &mut M, json: &[u8]) -> Result<(), Error> {
        let mut decoder = Decoder::replacing(json, *self);
        msg.read_json(&mut decoder)?;
        decoder.finish()
    }

    /// Decodes a message from `reader`, reading it to its end. The decoder
    /// needs the whole JSON in memory: at most
    /// [`DEFAULT_MAX_SIZE`](crate::stream::DEFAULT_MAX_SIZE) (64 MiB) is read,
    /// and a larger input is an [`ErrorKind::SizeLimit`] error; choose the
    /// limit with [`from_reader_limited`](Self::from_reader_limited). The
    /// bytes are read into a per-thread buffer reused from call to call.
    pub fn from_reader<R: io::Read, M: ProtoJson>(&self, reader: R) -> Result<M, Error> {
        self.from_reader_limited(reader, crate::stream::DEFAULT_MAX_SIZE)
    }

    /// Decodes a message from `reader`, reading at most `max_size` bytes: a
    /// larger input is an [`ErrorKind::SizeLimit`] error, found after
    /// `max_size + 1` bytes are read; a read error is an [`ErrorKind::Io`] error.
    ///
    /// ```
    /// use protojsonx_runtime::{DecodeOptions, ErrorKind};
    /// use prost_types::Duration;
    ///
    /// let opts = DecodeOptions::new();
    /// let d: Duration = opts.from_reader_limited(&b"\"90s\""[..], 5)?;
    /// assert_eq!(d.seconds, 90);
    /// let err = opts.from_reader_limited::<_, Duration>(&b"\"90s\" "[..], 5).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (ErrorKind::SizeLimit, 5));
    /// # Ok::<(), protojsonx_runtime::Error>(())
    /// ```
    pub fn from_reader_limited<R: io::Read, M: ProtoJson>(
        &self,
        reader: R,
        max_size: usize,
    ) -> Result<M, Error> {
        crate::stream::single::read_message(self, reader, max_size)
    }
}

/// Reads `json` with `read` through a decoder with `opts` (merging), then
/// checks that only whitespace follows: the one way decoding starts, for
/// messages and for the dynamic transcoder. Part of the contract. In line
/// by force, as `Decoder::new` is.
#[inline(always)]
pub fn decode_with<'a>(
    opts: &DecodeOptions,
    json: &'a [u8],
    read: impl FnOnce(&mut Decoder<'a>) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut decoder = Decoder::new(json, *opts);
    read(&mut decoder)?;
    decoder.finish()
}
