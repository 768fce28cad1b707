//! The fields of a message's object, the loop of every `read_json`: keys
//! matched where the encoder put them, in declaration order, with keys out
//! of order, unknown keys and duplicate fields handled apart.

use std::marker::PhantomData;

use super::Decoder;
use crate::error::Error;
use crate::reset::{Reset, reset_unless};
use crate::text::scan;

impl<'a> Decoder<'a> {
    /// Starts reading a message's object: the loop of every generated
    /// `read_json`, which runs passes over the message's fields until
    /// [`Fields::next_pass`] says no more, then calls [`Fields::finish`].
    ///
    /// `keys` holds each field's key as the encoder writes it, JSON name then
    /// proto name (`"userId":`, `"user_id":`), in declaration order; `lookup`
    /// maps either spelling, unquoted, to the field's index. A pass asks
    /// [`Fields::is_next`] of every field in declaration order and reads the
    /// value of each that is; each compares its own key, a constant there,
    /// with the input. ProtoJSON encoders write fields in that order (leaving
    /// out those at their defaults), so one pass reads a whole object and no
    /// key is tokenized. A key out of order is met by its field in the next
    /// pass; one that no field met in a whole pass (unknown, escaped, or a
    /// proto name as long as the JSON name) is read and looked up.
    #[inline(always)]
    pub fn fields(
        &mut self,
        keys: &'static [FieldKeys],
        lookup: fn(&[u8]) -> Option<usize>,
    ) -> Result<Fields<'a>, Error> {
        self.open_object()?;
        let (at, head) = match self.r.member_head::<true>()? {
            Some(head) => (AT_KEY, head),
            None => (AT_END, 0),
        };
        Ok(Fields {
            head,
            keys,
            lookup,
            seen: Seen::new(keys.len()),
            at,
            pass_start: self.r.offset(),
            current: 0,
            spelling: Spelling::Json,
            read_at: 0,
            input: PhantomData,
        })
    }

    /// Reads a message's object with keys made at run time: the loop of the
    /// dynamic transcoder's tables, where no key is a constant. `keys` and
    /// `lookup` are as for [`fields`](Self::fields). Keys are matched
    /// speculatively: the field after the last one read is expected next,
    /// and its key compared with the input; any other key is found by trying
    /// every key (in messages of up to 32 fields) or read and looked up.
    /// `field` reads the value of the field at an index. Returns the indexes
    /// of the fields the object held.
    #[inline]
    pub fn read_fields_owned(
        &mut self,
        keys: &[OwnedFieldKeys],
        lookup: impl Fn(&[u8]) -> Option<usize>,
        field: impl FnMut(&mut Self, usize) -> Result<(), Error>,
    ) -> Result<Seen, Error> {
        self.fields_of(keys, lookup, field)
    }

    /// The loop of [`read_fields_owned`](Self::read_fields_owned).
    #[inline(always)]
    fn fields_of(
        &mut self,
        keys: &[OwnedFieldKeys],
        lookup: impl Fn(&[u8]) -> Option<usize>,
        mut field: impl FnMut(&mut Self, usize) -> Result<(), Error>,
    ) -> Result<Seen, Error> {
        self.open_object()?;
        let mut seen = Seen::new(keys.len());
        let mut first = true;
        let mut next = 0;
        while self.r.next_member(&mut first)? {
            let matched = match keys.get(next).map(|(j, p)| (j.as_ref(), p.as_ref())) {
                Some((json, _)) if self.r.eat_bytes(json) => Some((next, json)),
                // Spellings of equal length are one and the same in practice;
                // a miss is read below either way.
                Some((json, proto)) if proto.len() != json.len() && self.r.eat_bytes(proto) => {
                    Some((next, proto))
                }
                // Keys out of order: in a small message, trying every field's
                // key costs less than reading the key as a string.
                _ if keys.len() <= SCAN_KEYS => self.r.eat_any_key(keys),
                _ => None,
            };
            let (index, key) = match matched {
                Some((index, known)) => (index, Key::Known(known)),
                None => {
                    if self.step_over_type_member()? {
                        continue;
                    }
                    let at = self.r.offset();
                    let key = self.r.key()?;
                    match lookup(key.as_bytes()) {
                        Some(index) => (index, Key::Read(at)),
                        None => {
                            self.unknown_field(key.as_bytes())
                                .map_err(|e| e.in_field(key.as_bytes()))?;
                            continue;
                        }
                    }
                }
            };
            let result = if seen.insert(index) {
                field(self, index)
            } else {
                Err(self.duplicate_field())
            };
            if let Err(e) = result {
                return Err(key.in_path_of(e, self));
            }
            next = index + 1;
        }
        self.leave();
        Ok(seen)
    }
}

/// Messages with at most this many fields try each key in turn when keys
/// come out of order (see [`Decoder::read_fields_owned`]). Trying 20 keys still
/// costs less than reading the key and matching it by name, up to a few
/// dozen fields: 32 covers the benchmarks' `Order` (20 fields, guarded by
/// `order-batch/shuffled`). A hash table of keys built at compile time
/// loses on the small and medium payloads (see docs/design.md).
const SCAN_KEYS: usize = 32;

/// One field's keys for [`Decoder::fields`]: its JSON name and its
/// proto name, each quoted and followed by a colon, as the encoder writes them.
pub type FieldKeys = (&'static [u8], &'static [u8]);

/// `FieldKeys` made at run time, for [`Decoder::read_fields_owned`].
pub type OwnedFieldKeys = (Box<[u8]>, Box<[u8]>);

/// The key of a member being read by `read_fields_owned`, for error paths:
/// plain data, no drop glue, so that the loop's state stays in registers.
enum Key<'k> {
    /// Matched speculatively: one of the field's keys.
    Known(&'k [u8]),
    /// Read from the input, where it begins (read again for an error).
    Read(usize),
}

impl Key<'_> {
    /// `e` with this key, as the input spelled it, added to its path.
    #[cold]
    fn in_path_of(&self, e: Error, d: &Decoder<'_>) -> Error {
        match self {
            Key::Known(key) => e.in_field(unquote(key)),
            Key::Read(at) => in_read_key(e, d, *at),
        }
    }
}

/// The fields read so far in one object, by index: a bit each, in one word
/// for the first 64 fields, on the heap (only for larger messages) after.
/// [`Fields::finish`] returns it, and generated code resets the fields
/// it does not hold when values replace. Part of the contract with generated code.
pub struct Seen {
    first: u64,
    rest: Vec<u64>,
}

impl Seen {
    /// An empty set for a message of `fields` fields.
    #[inline]
    fn new(fields: usize) -> Self {
        let rest = if fields > 64 {
            vec![0; (fields - 64).div_ceil(64)]
        } else {
            Vec::new()
        };
        Seen { first: 0, rest }
    }

    /// Whether the field at `index` was read.
    #[inline]
    pub fn contains(&self, index: usize) -> bool {
        let (word, bit) = match index.checked_sub(64) {
            None => (self.first, index),
            Some(i) => (self.rest[i / 64], i % 64),
        };
        word & 1 << bit != 0
    }

    /// Resets `field`, the field at `index`, unless the object held it.
    #[inline]
    pub fn reset<T: Reset>(&self, index: usize, field: &mut T) {
        reset_unless(self.contains(index), field);
    }

    /// [`reset`](Self::reset) for a field that holds a message directly.
    #[inline]
    pub fn reset_message<M: Default>(&self, index: usize, field: &mut M) {
        if !self.contains(index) {
            *field = M::default();
        }
    }

    /// Adds `index`; false if it was already there.
    #[inline]
    fn insert(&mut self, index: usize) -> bool {
        let (word, bit) = match index.checked_sub(64) {
            None => (&mut self.first, index),
            Some(i) => (&mut self.rest[i / 64], i % 64),
        };
        let mask = 1u64 << bit;
        let new = *word & mask == 0;
        *word |= mask;
        new
    }
}

/// Where a [`Fields`] cursor is: at a key no field has matched yet.
const AT_KEY: usize = usize::MAX;
/// Where a [`Fields`] cursor is: past the object's closing brace.
const AT_END: usize = usize::MAX - 1;
/// Where a [`Fields`] cursor is: in or after the value of the field whose
/// key was the last one read.
const IN_VALUE: usize = usize::MAX - 2;

/// A message's object being read (see [`Decoder::fields`]): which fields it
/// held so far and what the input holds next. Generated code keeps it in a
/// local and calls its methods, all inlined but the rare paths, so that it
/// lives in registers and the key table is a constant where each field
/// matches its key. Part of the contract with generated code.
pub struct Fields<'a> {
    keys: &'static [FieldKeys],
    lookup: fn(&[u8]) -> Option<usize>,
    seen: Seen,
    /// [`AT_KEY`], [`AT_END`], [`IN_VALUE`], or the index of the field
    /// whose key [`out_of_order`] read, whose value is next.
    at: usize,
    /// At [`AT_KEY`], the key's first eight bytes (see `Reader::head`),
    /// loaded once for every field's key to be compared with.
    head: u64,
    /// The input's offset when the pass began, to tell a pass that read nothing.
    pass_start: usize,
    /// The field whose key was read last, for error paths.
    current: usize,
    /// How that key was spelled.
    spelling: Spelling,
    /// Where the key `out_of_order` read last begins, for
    /// [`Spelling::Read`]: read again only for an error's path, so that
    /// `Fields` holds plain integers (and lives in registers).
    read_at: usize,
    /// The input those offsets are into: a `Fields` is used with the
    /// decoder that made it.
    input: PhantomData<&'a [u8]>,
}

/// The spelling of a field's key in the input.
#[derive(Clone, Copy)]
enum Spelling {
    /// The field's JSON name, matched in place.
    Json,
    /// Its proto name, matched in place.
    Proto,
    /// Read as a string and looked up.
    Read,
}

impl<'a> Fields<'a> {
    /// Whether the object's next member is the field at `index`: its key
    /// is then consumed, and the caller reads its value (or `null`). A
    /// pass asks this of every field, in declaration order. Fails on a
    /// field read before in the object, and on bad syntax after the last
    /// value read. Inlined by force only where optimized: in an unoptimized
    /// build every inlined copy keeps stack slots of its own, hundreds of
    /// bytes for each field of the message.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn is_next(&mut self, d: &mut Decoder<'a>, index: usize) -> Result<bool, Error> {
        self.after_value(d)?;
        if self.at != AT_KEY {
            if self.at != index {
                return Ok(false);
            }
        } else {
            let (json, proto) = self.keys[index];
            self.spelling = if self.eat_key(d, json) {
                Spelling::Json
            // Spellings of equal length are one and the same in practice;
            // a miss is read and looked up either way.
            } else if proto.len() != json.len() && self.eat_key(d, proto) {
                Spelling::Proto
            } else {
                return Ok(false);
            };
        }
        (self.at, self.current) = (IN_VALUE, index);
        if !self.seen.insert(index) {
            return Err(d.duplicate_field());
        }
        Ok(true)
    }

    /// Ends a pass whose outcome is `read`: whether to run another. Errors
    /// of the pass get the key of the field being read in their path. After
    /// a pass that read nothing, the key no field matched is read (unknown
    /// fields are skipped, or fail) and met by its field in the next pass.
    #[inline(always)]
    pub fn next_pass(
        &mut self,
        d: &mut Decoder<'a>,
        read: Result<(), Error>,
    ) -> Result<bool, Error> {
        if let Err(e) = read {
            return Err(self.path(d, e));
        }
        let progress = d.r.offset() != self.pass_start;
        self.after_value(d)?;
        if self.at == AT_KEY && !progress {
            match out_of_order(d, self.lookup)? {
                Unmatched::Field(index, at) => {
                    (self.at, self.spelling, self.read_at) = (index, Spelling::Read, at);
                }
                Unmatched::InPlace => self.head = d.r.head(),
                Unmatched::End => self.at = AT_END,
            }
        }
        self.pass_start = d.r.offset();
        Ok(self.at != AT_END)
    }

    /// Ends the object after the last pass: the indexes of the fields it
    /// held, for [`Seen::reset`].
    #[inline(always)]
    pub fn finish(self, d: &mut Decoder<'a>) -> Seen {
        d.leave();
        self.seen
    }

    /// Consumes `key` (a field's, with quotes and colon) if it is next: its
    /// first eight bytes compared with the `head` word (most keys are no
    /// longer), the rest with the input.
    #[inline(always)]
    fn eat_key(&self, d: &mut Decoder<'a>, key: &[u8]) -> bool {
        let (word, mask) = scan::key_head(key);
        if self.head & mask != word {
            return false;
        }
        if key.len() > 8 {
            return d.r.eat_key_rest(key);
        }
        d.r.advance(key.len());
        true
    }

    /// Moves past the `,` after a value read, to the next key or past the
    /// closing `}`; nothing to do elsewhere.
    #[inline(always)]
    fn after_value(&mut self, d: &mut Decoder<'a>) -> Result<(), Error> {
        if self.at == IN_VALUE {
            // Errors of the object's syntax have no field in their path.
            self.at = AT_KEY;
            match d.r.member_head::<false>()? {
                Some(head) => self.head = head,
                None => self.at = AT_END,
            }
        }
        Ok(())
    }

    /// `e`, an error of a pass, with the key of the field whose value was
    /// being read added to its path.
    #[inline(always)]
    fn path(&self, d: &Decoder<'a>, e: Error) -> Error {
        if self.at != IN_VALUE {
            return e;
        }
        in_field(e, self.keys[self.current], self.spelling, d, self.read_at)
    }
}

/// `e` with the key of the field whose value it is about added to its
/// path, spelled as the input spelled it (for a key that was read, the
/// key at `read_at` in `d`'s input, read again).
#[cold]
fn in_field(
    e: Error,
    (json, proto): FieldKeys,
    spelling: Spelling,
    d: &Decoder<'_>,
    read_at: usize,
) -> Error {
    match spelling {
        Spelling::Json => e.in_field(unquote(json)),
        Spelling::Proto => e.in_field(unquote(proto)),
        Spelling::Read => in_read_key(e, d, read_at),
    }
}

/// `e` with the key that begins at `at` in `d`'s input, read again, added
/// to its path: the error paths of keys read out of order, which neither
/// field loop keeps.
fn in_read_key(e: Error, d: &Decoder<'_>, at: usize) -> Error {
    match d.r.string_at(at) {
        Ok(key) => e.in_field(key.as_bytes()),
        Err(_) => e,
    }
}

/// What [`out_of_order`] found after a pass that matched no key.
enum Unmatched {
    /// The key of the field at this index, read, which begins at this offset.
    Field(usize, usize),
    /// The `@type` of the `Any` whose packed message this is, stepped over:
    /// the key after it is matched in place by the next pass, as any key
    /// in order is (an `Any` as encoders write it: `@type` first, then the
    /// message's fields in order).
    InPlace,
    /// The end of the object.
    End,
}

/// After a pass that left a key unmatched at the cursor: reads that key,
/// skipping unknown keys and their values, and returns its field's index
/// and where the key begins. A plain ASCII key is taken as it stands and
/// matched by `lookup` (a `match` on its length, then its bytes), without
/// trying each field's key in turn. The `@type` of an `Any` whose packed
/// message this is, as encoders write it, is stepped over unread
/// ([`Decoder::step_over_type_member`]).
#[inline(never)]
fn out_of_order(
    d: &mut Decoder<'_>,
    lookup: fn(&[u8]) -> Option<usize>,
) -> Result<Unmatched, Error> {
    loop {
        if d.step_over_type_member()? {
            let more = d.r.next_member(&mut false)?;
            return Ok(if more {
                Unmatched::InPlace
            } else {
                Unmatched::End
            });
        }
        let at = d.r.offset();
        let key = d.r.map_key()?;
        if let Some(index) = lookup(key.as_bytes()) {
            return Ok(Unmatched::Field(index, at));
        }
        d.unknown_field(key.as_bytes())
            .map_err(|e| e.in_field(key.as_bytes()))?;
        if !d.r.next_member(&mut false)? {
            return Ok(Unmatched::End);
        }
    }
}

/// A key's text without its quotes and colon.
fn unquote(key: &[u8]) -> &[u8] {
    &key[1..key.len() - 2]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DecodeOptions;

    /// The keys of the test object's three fields: `a`, `bC` (proto name
    /// `b_c`) and `d`.
    const KEYS: &[FieldKeys] = &[
        (b"\"a\":", b"\"a\":"),
        (b"\"bC\":", b"\"b_c\":"),
        (b"\"d\":", b"\"d\":"),
    ];

    fn lookup(key: &[u8]) -> Option<usize> {
        match key {
            b"a" => Some(0),
            b"bC" | b"b_c" => Some(1),
            b"d" => Some(2),
            _ => None,
        }
    }

    /// Reads `json` as the test object, as generated code does (a pass
    /// asking each field in turn); returns the fields' indexes in the order
    /// read, and their values. Checks that the dynamic transcoder's loop
    /// (`read_fields_owned`) reads the same or fails the same.
    fn read(json: &str, opts: DecodeOptions) -> Result<Vec<(usize, i32)>, Error> {
        let mut d = Decoder::new(json.as_bytes(), opts);
        let mut got = Vec::new();
        let result = read_fields(&mut d, &mut got)
            .and_then(|()| d.finish())
            .map(|()| got);
        assert_eq!(
            format!("{result:?}"),
            format!("{:?}", read_owned(json, opts)),
            "the two loops differ on {json}"
        );
        result
    }

    /// The loop of a generated `read_json`, on the test object.
    fn read_fields(d: &mut Decoder<'_>, got: &mut Vec<(usize, i32)>) -> Result<(), Error> {
        let mut f = d.fields(KEYS, lookup)?;
        loop {
            let read = (|| {
                for index in 0..KEYS.len() {
                    if f.is_next(d, index)? {
                        got.push((index, d.read_i32()?));
                    }
                }
                Ok(())
            })();
            if !f.next_pass(d, read)? {
                break;
            }
        }
        f.finish(d);
        Ok(())
    }

    /// [`read`] through `read_fields_owned`.
    fn read_owned(json: &str, opts: DecodeOptions) -> Result<Vec<(usize, i32)>, Error> {
        let keys: Vec<OwnedFieldKeys> = KEYS
            .iter()
            .map(|(json, proto)| ((*json).into(), (*proto).into()))
            .collect();
        let mut d = Decoder::new(json.as_bytes(), opts);
        let mut got = Vec::new();
        d.read_fields_owned(&keys, lookup, |d, field| {
            got.push((field, d.read_i32()?));
            Ok(())
        })?;
        d.finish()?;
        Ok(got)
    }

    fn ok(json: &str) -> Vec<(usize, i32)> {
        read(json, DecodeOptions::new()).unwrap()
    }

    fn err(json: &str) -> String {
        read(json, DecodeOptions::new()).unwrap_err().to_string()
    }

    #[test]
    fn every_spelling_and_order_of_keys_reads_the_same() {
        let want = vec![(0, 1), (1, 2), (2, 3)];
        assert_eq!(ok(r#"{"a":1,"bC":2,"d":3}"#), want);
        assert_eq!(ok(r#"{"a":1,"b_c":2,"d":3}"#), want);
        assert_eq!(ok(" { \"a\" : 1 ,\n\"bC\"\t:2 , \"d\":3 } "), want);
        assert_eq!(ok("{\n  \"a\": 1,\n  \"bC\": 2,\n  \"d\": 3\n}"), want);
        assert_eq!(ok(r#"{"\u0061":1,"b\u0043":2,"d":3}"#), want);
        assert_eq!(ok(r#"{"d":3,"bC":2,"a":1}"#), [(2, 3), (1, 2), (0, 1)]);
        assert_eq!(ok(r#"{"d":3,"a":1}"#), [(2, 3), (0, 1)]);
        assert_eq!(ok(r#"{"bC":2,"a":1,"d":3}"#), [(1, 2), (0, 1), (2, 3)]);
        assert_eq!(ok(r#"{"d":3,"b_c":2}"#), [(2, 3), (1, 2)]);
        assert_eq!(ok(r#"{"bC":2}"#), [(1, 2)]);
        assert_eq!(ok("{}"), []);
        assert_eq!(ok(" {\n} "), []);
    }

    #[test]
    fn duplicates_unknown_keys_and_syntax_are_errors() {
        assert!(err(r#"{"a":1,"a":2}"#).contains("duplicate field at `a`"));
        assert!(err(r#"{"bC":1,"b_c":2}"#).contains("duplicate field at `b_c`"));
        // Found in place after a key out of order, and out of order.
        assert!(err(r#"{"bC":1,"a":2,"bC":3}"#).contains("duplicate field at `bC`"));
        assert!(err(r#"{"d":1,"a":2,"d":3}"#).contains("duplicate field at `d`"));
        assert!(err(r#"{"a":1,"zz":2}"#).contains("unknown field at `zz`"));
        // Keys the speculation half-matches are read in full.
        assert!(err(r#"{"a":1,"bCx":2}"#).contains("unknown field at `bCx`"));
        assert!(err(r#"{"a":1,"b":2}"#).contains("unknown field at `b`"));
        assert!(err(r#"{"a":1,}"#).contains("trailing comma"));
        assert!(err(r#"{"a":1 "d":2}"#).contains("expected ',' or '}'"));
        assert!(err(r#"{"a" 1}"#).contains("expected ':'"));
        assert!(err(r#"{"a":1"#).contains("expected ',' or '}'"));
        assert!(err(r#"{"a":"x"}"#).contains("at `a`"));
        assert!(err(r#"{"a":1,"bC":"x"}"#).contains("at `bC`"));
        assert!(err(r#"{"d":1,"b_c":"x"}"#).contains("at `b_c`"));
        assert!(err(r#"{"d":1,"b\u005fc":"x"}"#).contains("at `b_c`"));
        assert!(err("{\"d\":1,\n  \"b\\u005fc\" : \"x\"}").contains("at `b_c`"));
        let opts = DecodeOptions::new().ignore_unknown_fields(true);
        let got = read(r#"{"zz":[1,{"q":2}],"a":1,"yy":null}"#, opts).unwrap();
        assert_eq!(got, [(0, 1)]);
        let got = read(r#"{"d":4,"zz":5,"a":1,"bC":2}"#, opts).unwrap();
        assert_eq!(got, [(2, 4), (0, 1), (1, 2)]);
    }

    /// Every object of up to four members drawn from the three keys, an
    /// unknown one, and both spellings, with two separators: both loops
    /// agree (`read` checks), on the values and on the errors.
    #[test]
    fn the_pass_and_the_owned_loop_agree_on_every_small_object() {
        let members = [
            "\"a\":1",
            "\"bC\":2",
            "\"b_c\":5",
            "\"d\":3",
            "\"zz\":4",
            "\"a\":\"x\"",
        ];
        let opts = [
            DecodeOptions::new(),
            DecodeOptions::new().ignore_unknown_fields(true),
        ];
        let mut objects: Vec<Vec<&str>> = vec![Vec::new()];
        let mut longest = objects.clone();
        for _ in 0..4 {
            longest = longest
                .iter()
                .flat_map(|o| members.iter().map(move |m| [o.as_slice(), &[*m]].concat()))
                .collect();
            objects.extend(longest.iter().cloned());
        }
        for object in &objects {
            for separator in [",", " ,\n  "] {
                let json = format!("{{{}}}", object.join(separator));
                for opts in opts {
                    let _ = read(&json, opts);
                }
            }
        }
        assert_eq!(objects.len(), 1 + 6 + 36 + 216 + 1296);
    }
}
