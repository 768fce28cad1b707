//! Random binary messages of any message type of a descriptor pool, for
//! the schemas without hand-written strategies (`strategy.rs` has those of
//! the conformance messages): built as prost-reflect `DynamicMessage`s with
//! the edge values the strategies favour, encoded, several encodings
//! concatenated (a merge on the wire), and mixed with wire forms a
//! canonical encoder never writes: a packed field unpacked and the other
//! way round, defaults written out, over-long varints, unknown fields.
//!
//! The generator is driven by a seed rather than by proptest strategies:
//! a strategy per field of every message nested to some depth would cost
//! more to build than to run. A failing case prints its binary input.

use crate::dynamic::UNCONSTRUCTIBLE;
use bytes::Bytes;
use prost::Message;
use prost::encoding::{WireType, encode_key, encode_varint};
use prost_reflect::{
    DescriptorPool, DynamicMessage, FieldDescriptor, Kind, MapKey, MessageDescriptor,
    ReflectMessage, Value,
};

/// Fields set in one random message, at most.
const MAX_FIELDS: u64 = 8;
/// Elements of a repeated field and entries of a map, at most.
const MAX_LEN: u64 = 4;

/// A small deterministic random number generator (SplitMix64).
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.bits() % n
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    /// One of `items` (not empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// The binary encoding of a random message of type `message` nesting
/// messages at most `depth` levels deep: one to three random messages
/// concatenated, with odd wire forms among their fields.
pub fn binary(rng: &mut Rng, message: &MessageDescriptor, depth: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..=rng.below(3) {
        out.extend(random_message(rng, message, depth).encode_to_vec());
        if rng.one_in(3) {
            odd_field(rng, message, &mut out);
        }
    }
    out
}

/// `binary`, a message of type `message`, with the fields of each message
/// in it (nested ones too, map entries included) in a random order: a
/// different message where a field repeats, but one any decoder must read
/// (encoders write fields in order; readers may not rely on it). Bytes
/// that do not parse as fields are kept as they are, after the rest.
pub fn shuffled(rng: &mut Rng, message: &MessageDescriptor, binary: &[u8]) -> Vec<u8> {
    let mut fields: Vec<Vec<u8>> = Vec::new();
    let mut rest = binary;
    while !rest.is_empty() {
        let Some((field, after)) = shuffled_field(rng, message, rest) else {
            break;
        };
        fields.push(field);
        rest = after;
    }
    for i in (1..fields.len()).rev() {
        fields.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut out = fields.concat();
    out.extend_from_slice(rest);
    out
}

/// The first field of `input` (its nested message shuffled, when it is one
/// of `message`'s message fields) and what follows it.
fn shuffled_field<'a>(
    rng: &mut Rng,
    message: &MessageDescriptor,
    input: &'a [u8],
) -> Option<(Vec<u8>, &'a [u8])> {
    let mut rest = input;
    let (number, wire) = prost::encoding::decode_key(&mut rest).ok()?;
    if wire != WireType::LengthDelimited {
        prost::encoding::skip_field(wire, number, &mut rest, Default::default()).ok()?;
        let len = input.len() - rest.len();
        return Some((input[..len].to_vec(), rest));
    }
    let tag_len = input.len() - rest.len();
    let len = usize::try_from(prost::encoding::decode_varint(&mut rest).ok()?).ok()?;
    let body = rest.get(..len)?;
    let after = &rest[len..];
    let nested = message
        .get_field(number)
        .and_then(|f| f.kind().as_message().cloned());
    let Some(nested) = nested else {
        let whole = input.len() - after.len();
        return Some((input[..whole].to_vec(), after));
    };
    let body = shuffled(rng, &nested, body);
    let mut out = input[..tag_len].to_vec();
    encode_varint(body.len() as u64, &mut out);
    out.extend_from_slice(&body);
    Some((out, after))
}

/// A random message of type `message`.
pub fn random_message(rng: &mut Rng, message: &MessageDescriptor, depth: u32) -> DynamicMessage {
    if let Some(special) = well_known(rng, message, depth) {
        return special;
    }
    let mut msg = DynamicMessage::new(message.clone());
    let fields: Vec<FieldDescriptor> = message.fields().collect();
    if fields.is_empty() {
        return msg;
    }
    for _ in 0..rng.below(MAX_FIELDS + 1) {
        let field = &fields[rng.below(fields.len() as u64) as usize];
        if let Some(value) = field_value(rng, field, depth) {
            msg.set_field(field, value);
        }
    }
    msg
}

/// A random value of `field` (a list or map for those fields); `None` for a
/// message field when `depth` is exhausted.
fn field_value(rng: &mut Rng, field: &FieldDescriptor, depth: u32) -> Option<Value> {
    let kind = field.kind();
    if field.is_map() {
        let entry = kind.as_message()?.clone();
        let (key, value) = (entry.map_entry_key_field(), entry.map_entry_value_field());
        let entries = (0..rng.below(MAX_LEN))
            .filter_map(|_| {
                let k = map_key(rng, &key.kind())?;
                Some((k, single(rng, &value.kind(), depth)?))
            })
            .collect();
        return Some(Value::Map(entries));
    }
    if field.is_list() {
        let values: Vec<Value> = (0..rng.below(MAX_LEN + 1))
            .filter_map(|_| single(rng, &kind, depth))
            .collect();
        return Some(Value::List(values));
    }
    single(rng, &kind, depth)
}

/// A random map key of kind `kind`.
fn map_key(rng: &mut Rng, kind: &Kind) -> Option<MapKey> {
    Some(match single(rng, kind, 0)? {
        Value::Bool(v) => MapKey::Bool(v),
        Value::I32(v) => MapKey::I32(v),
        Value::I64(v) => MapKey::I64(v),
        Value::U32(v) => MapKey::U32(v),
        Value::U64(v) => MapKey::U64(v),
        Value::String(v) => MapKey::String(v),
        _ => return None,
    })
}

/// A random single value of kind `kind`; a message nests at most `depth`
/// levels (`None` at 0).
fn single(rng: &mut Rng, kind: &Kind, depth: u32) -> Option<Value> {
    Some(match kind {
        Kind::Double => Value::F64(double(rng)),
        Kind::Float => Value::F32(double(rng) as f32),
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => Value::I32(int64(rng) as i32),
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => Value::I64(int64(rng)),
        Kind::Uint32 | Kind::Fixed32 => Value::U32(int64(rng) as u32),
        Kind::Uint64 | Kind::Fixed64 => Value::U64(int64(rng) as u64),
        Kind::Bool => Value::Bool(rng.one_in(2)),
        Kind::String => Value::String(string(rng)),
        Kind::Bytes => Value::Bytes(Bytes::from(bytes(rng))),
        Kind::Enum(e) => {
            let named: Vec<i32> = e.values().map(|v| v.number()).collect();
            if named.is_empty() || rng.one_in(5) {
                Value::EnumNumber(int64(rng) as i32)
            } else {
                Value::EnumNumber(rng.pick(&named))
            }
        }
        Kind::Message(_) if depth == 0 => return None,
        Kind::Message(m) => Value::Message(random_message(rng, m, depth - 1)),
    })
}

/// An integer, often an edge: 0, ±1, the ends of 32 and 64 bits, 2^53 + 1.
fn int64(rng: &mut Rng) -> i64 {
    const EDGES: [i64; 9] = [
        0,
        1,
        -1,
        i32::MIN as i64,
        i32::MAX as i64,
        u32::MAX as i64,
        i64::MIN,
        i64::MAX,
        (1 << 53) + 1,
    ];
    match rng.below(4) {
        0 => rng.pick(&EDGES),
        1 => rng.below(300) as i64 - 150,
        _ => rng.bits() as i64,
    }
}

/// A double, often an edge (NaN, infinities, -0, subnormals, the extremes).
fn double(rng: &mut Rng) -> f64 {
    const EDGES: [f64; 12] = [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.0,
        0.0,
        0.1,
        1e21,
        1e-7,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        16_777_217.0,
    ];
    match rng.below(4) {
        0 => rng.pick(&EDGES),
        1 => (rng.below(2001) as f64 - 1000.0) / 8.0,
        _ => f64::from_bits(rng.bits()),
    }
}

/// A string dense in what JSON escapes, with non-ASCII and astral characters.
fn string(rng: &mut Rng) -> String {
    const CHARS: [char; 20] = [
        'a',
        'z',
        'A',
        '0',
        '_',
        '.',
        ' ',
        '"',
        '\\',
        '/',
        '\u{0}',
        '\u{1f}',
        '\u{7f}',
        '\u{e9}',
        '\u{2028}',
        '\u{fffd}',
        '\u{ffff}',
        '\u{1F600}',
        '\u{10FFFF}',
        '<',
    ];
    (0..rng.below(10))
        .map(|_| match rng.below(3) {
            0 => char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('x'),
            _ => rng.pick(&CHARS),
        })
        .collect()
}

fn bytes(rng: &mut Rng) -> Vec<u8> {
    (0..rng.below(12)).map(|_| rng.bits() as u8).collect()
}

/// A well-known type mostly within the range its JSON form has (and now
/// and then outside it, which both encoders must reject alike); `None` for
/// other messages, built field by field.
fn well_known(rng: &mut Rng, message: &MessageDescriptor, depth: u32) -> Option<DynamicMessage> {
    let mut msg = DynamicMessage::new(message.clone());
    let out_of_range = rng.one_in(16);
    match message.full_name() {
        "google.protobuf.Timestamp" => {
            let seconds = if out_of_range {
                int64(rng)
            } else {
                (rng.below(253_402_300_800 + 62_135_596_800) as i64) - 62_135_596_800
            };
            msg.set_field_by_name("seconds", Value::I64(seconds));
            msg.set_field_by_name("nanos", Value::I32(nanos(rng, out_of_range)));
        }
        "google.protobuf.Duration" => {
            let seconds = if out_of_range {
                int64(rng)
            } else {
                rng.below(2 * 315_576_000_000 + 1) as i64 - 315_576_000_000
            };
            let nanos = nanos(rng, out_of_range);
            let nanos = if seconds < 0 || (seconds == 0 && rng.one_in(2)) {
                nanos.wrapping_neg()
            } else {
                nanos
            };
            msg.set_field_by_name("seconds", Value::I64(seconds));
            msg.set_field_by_name("nanos", Value::I32(nanos));
        }
        "google.protobuf.FieldMask" => {
            let paths = (0..rng.below(3))
                .map(|_| Value::String(path(rng, out_of_range)))
                .collect();
            msg.set_field_by_name("paths", Value::List(paths));
        }
        "google.protobuf.Any" => any(rng, &mut msg, depth, out_of_range),
        _ => return None,
    }
    Some(msg)
}

/// Nanoseconds: within 0..1e9, or anything when `out_of_range`.
fn nanos(rng: &mut Rng, out_of_range: bool) -> i32 {
    match (out_of_range, rng.below(3)) {
        (true, _) => int64(rng) as i32,
        (false, 0) => rng.pick(&[0, 1, 999_999_999, 500_000_000, 10_000, 1_000_000]),
        _ => rng.below(1_000_000_000) as i32,
    }
}

/// A FieldMask path that survives the snake_case / lowerCamelCase mapping
/// (or, when `odd`, one that may not).
fn path(rng: &mut Rng, odd: bool) -> String {
    let letters: &[char] = if odd {
        &['a', 'B', '_', '1', '.', 'é']
    } else {
        &['a', 'b', 'x', 'y', '1']
    };
    let mut path: String = (0..=rng.below(5)).map(|_| rng.pick(letters)).collect();
    if !odd {
        path.insert(0, 'a');
        if rng.one_in(2) {
            path.push_str("_b");
        }
        if rng.one_in(3) {
            path.push_str(".c");
        }
    }
    path
}

/// Fills `msg`, an `Any`: empty, a well-known type, a message of the pool,
/// or (when `odd`) a type URL that resolves to nothing.
fn any(rng: &mut Rng, msg: &mut DynamicMessage, depth: u32, odd: bool) {
    let pool = msg.descriptor().parent_pool().clone();
    let (url, value) = match rng.below(6) {
        _ if odd => {
            let url = rng.pick(&["type.googleapis.com/no.such.Type", "no-slash", "x/"]);
            (url.to_string(), bytes(rng))
        }
        0 => return,
        _ if depth == 0 => return,
        1 | 2 => {
            let target = any_target(rng, &pool);
            let value = binary(rng, &target, depth - 1);
            (format!("type.googleapis.com/{}", target.full_name()), value)
        }
        _ => {
            let name = rng.pick(&[
                "google.protobuf.Duration",
                "google.protobuf.Timestamp",
                "google.protobuf.Struct",
                "google.protobuf.Value",
                "google.protobuf.Int32Value",
                "google.protobuf.Empty",
                "google.protobuf.Any",
            ]);
            let target = pool.get_message_by_name(name).expect("in the pool");
            let value = random_message(rng, &target, depth - 1).encode_to_vec();
            (format!("type.googleapis.com/{name}"), value)
        }
    };
    msg.set_field_by_name("type_url", Value::String(url));
    msg.set_field_by_name("value", Value::Bytes(Bytes::from(value)));
}

/// A message type of `pool` an `Any` may name: not a map entry (which has
/// no generated type), nor one whose generated type cannot be built.
fn any_target(rng: &mut Rng, pool: &DescriptorPool) -> MessageDescriptor {
    let all: Vec<MessageDescriptor> = pool
        .all_messages()
        .filter(|m| !m.is_map_entry() && !UNCONSTRUCTIBLE.contains(&m.full_name()))
        .collect();
    all[rng.below(all.len() as u64) as usize].clone()
}

/// Appends to `out` one field that a canonical encoder would not write: a
/// field of `message` in another packing or at its default, a varint with
/// extra bytes, or a field number `message` does not have.
fn odd_field(rng: &mut Rng, message: &MessageDescriptor, out: &mut Vec<u8>) {
    let scalars: Vec<FieldDescriptor> = message
        .fields()
        .filter(|f| f.kind().as_message().is_none() && !f.is_map())
        .collect();
    if scalars.is_empty() || rng.one_in(4) {
        let number = 10_000 + rng.below(1000) as u32;
        return unknown_field(rng, number, out);
    }
    let field = &scalars[rng.below(scalars.len() as u64) as usize];
    let number = field.number();
    let wire = wire_type(&field.kind());
    let value = |rng: &mut Rng, out: &mut Vec<u8>| match wire {
        WireType::Varint => overlong_varint(rng, out),
        WireType::SixtyFourBit => out.extend(rng.bits().to_le_bytes()),
        WireType::ThirtyTwoBit => out.extend((rng.bits() as u32).to_le_bytes()),
        _ => {
            let text = string(rng);
            encode_varint(text.len() as u64, out);
            out.extend(text.as_bytes());
        }
    };
    if field.is_list() && wire != WireType::LengthDelimited && rng.one_in(2) {
        // Packed, whatever the field says.
        let mut body = Vec::new();
        for _ in 0..rng.below(MAX_LEN) {
            value(rng, &mut body);
        }
        encode_key(number, WireType::LengthDelimited, out);
        encode_varint(body.len() as u64, out);
        out.extend(body);
        return;
    }
    encode_key(number, wire, out);
    if rng.one_in(3) && wire != WireType::LengthDelimited {
        // The default value, written out.
        let width = match wire {
            WireType::SixtyFourBit => 8,
            WireType::ThirtyTwoBit => 4,
            _ => 1,
        };
        out.extend(std::iter::repeat_n(0, width));
        return;
    }
    value(rng, out);
}

/// A varint of random value, sometimes padded with `0x80` bytes up to ten.
fn overlong_varint(rng: &mut Rng, out: &mut Vec<u8>) {
    let v = int64(rng) as u64;
    if !rng.one_in(3) {
        return encode_varint(v, out);
    }
    let mut bytes = Vec::new();
    encode_varint(v, &mut bytes);
    if bytes.len() < 10 {
        let last = bytes.len() - 1;
        bytes[last] |= 0x80;
        while bytes.len() < 9 {
            bytes.push(0x80);
        }
        bytes.push(0);
    }
    out.extend(bytes);
}

/// Appends an unknown field `number` of a random wire type.
fn unknown_field(rng: &mut Rng, number: u32, out: &mut Vec<u8>) {
    match rng.below(4) {
        0 => {
            encode_key(number, WireType::Varint, out);
            encode_varint(rng.bits(), out);
        }
        1 => {
            encode_key(number, WireType::SixtyFourBit, out);
            out.extend(rng.bits().to_le_bytes());
        }
        2 => {
            encode_key(number, WireType::LengthDelimited, out);
            let body = bytes(rng);
            encode_varint(body.len() as u64, out);
            out.extend(body);
        }
        _ => {
            encode_key(number, WireType::StartGroup, out);
            encode_key(1, WireType::Varint, out);
            encode_varint(rng.bits(), out);
            encode_key(number, WireType::EndGroup, out);
        }
    }
}

/// The wire type of one value of a scalar kind.
fn wire_type(kind: &Kind) -> WireType {
    match kind {
        Kind::Double | Kind::Fixed64 | Kind::Sfixed64 => WireType::SixtyFourBit,
        Kind::Float | Kind::Fixed32 | Kind::Sfixed32 => WireType::ThirtyTwoBit,
        Kind::String | Kind::Bytes | Kind::Message(_) => WireType::LengthDelimited,
        _ => WireType::Varint,
    }
}
