//! proptest strategies for random messages of the conformance test protos.
//!
//! A random message is built as a list of "one field set" messages merged in
//! the binary format (concatenated prost encodings decode as a merge: the
//! last singular value wins, repeated fields append, maps insert, the last
//! oneof member wins). That keeps each field's strategy a one-liner and lets
//! proptest shrink by dropping fields.
//!
//! Values cover the edges ProtoJSON has to get right: integer extremes,
//! NaN, infinities, -0.0, subnormals, strings with escapes, control
//! characters and astral characters, enum numbers without a name, and
//! well-known types at the ends of their valid ranges.

use std::collections::BTreeMap;

use proptest::collection::{hash_map, vec};
use proptest::option::of as opt;
use proptest::prelude::*;
use proptest::strategy::Union;
use prost::Message;
use prost_types::value::Kind;
use prost_types::{Any, Duration, FieldMask, ListValue, Struct, Timestamp, Value};

use crate::protobuf_test_messages::proto2::TestAllTypesProto2;
use crate::protobuf_test_messages::proto2::test_all_types_proto2::{
    Data, MultiWordGroupField, NestedMessage as NestedMessage2, OneofField as OneofField2,
};
use crate::protobuf_test_messages::proto3::test_all_types_proto3::{NestedMessage, OneofField};
use crate::protobuf_test_messages::proto3::{ForeignMessage, TestAllTypesProto3};

/// The proptest configuration of the property tests: `cases` cases, sized
/// for a debug build (`PROPTEST_CASES=n` in the environment runs `n`
/// instead); failures are reported with their shrunk input, and no
/// persistence files are written into the repository.
pub fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// How many fields one random message sets at most (before merging).
const MAX_FIELDS: usize = 10;
/// Longest repeated field and largest map generated.
const MAX_LEN: usize = 4;

/// An i32 that is an extreme a third of the time.
pub fn int32() -> impl Strategy<Value = i32> + Clone {
    prop_oneof![2 => any::<i32>(), 1 => prop::sample::select(vec![0, 1, -1, i32::MIN, i32::MAX])]
}

/// An i64 that is often an extreme or just past the 2^53 a double holds exactly.
pub fn int64() -> impl Strategy<Value = i64> + Clone {
    let edges = vec![
        0,
        -1,
        i64::MIN,
        i64::MAX,
        1 << 53,
        (1 << 53) + 1,
        -(1 << 53) - 1,
    ];
    prop_oneof![2 => any::<i64>(), 1 => prop::sample::select(edges)]
}

/// A u32, often an extreme.
pub fn uint32() -> impl Strategy<Value = u32> + Clone {
    prop_oneof![2 => any::<u32>(), 1 => prop::sample::select(vec![0, 1, u32::MAX])]
}

/// A u64, often an extreme.
pub fn uint64() -> impl Strategy<Value = u64> + Clone {
    prop_oneof![2 => any::<u64>(), 1 => prop::sample::select(vec![0, u64::MAX, (1 << 53) + 1])]
}

/// Any f32 except NaNs with a payload or sign, which JSON cannot carry: NaN is
/// `f32::NAN`. Includes infinities, -0.0, subnormals and the extremes.
pub fn float() -> impl Strategy<Value = f32> + Clone {
    use proptest::num::f32 as class;
    let finite = class::POSITIVE | class::NEGATIVE | class::NORMAL | class::SUBNORMAL | class::ZERO;
    let edges = vec![
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -0.0,
        f32::MAX,
        f32::MIN,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        16_777_217.0,
    ];
    prop_oneof![3 => finite, 1 => prop::sample::select(edges)]
}

/// Any f64, with the same edges as [`float`].
pub fn double() -> impl Strategy<Value = f64> + Clone {
    use proptest::num::f64 as class;
    let finite = class::POSITIVE | class::NEGATIVE | class::NORMAL | class::SUBNORMAL | class::ZERO;
    let edges = vec![
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.0,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        0.1,
        1e21,
        1e-7,
    ];
    prop_oneof![3 => finite, 1 => prop::sample::select(edges)]
}

/// A finite f64, for `google.protobuf.Value` (JSON has no NaN or infinity).
fn finite_double() -> impl Strategy<Value = f64> + Clone {
    double().prop_filter("finite", |x| x.is_finite())
}

/// A string: arbitrary Unicode, or one dense in what JSON must escape.
pub fn string() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        "\\PC{0,12}",
        "[\"\\\\/\u{0}-\u{1f}\u{7f}\u{80}\u{2028}\u{2029}\u{fffd}\u{ffff}a-z\u{e9}\u{1F600}\u{10FFFF}<>&']{0,12}",
    ]
}

/// Bytes of any value, including lengths that need base64 padding.
pub fn bytes() -> impl Strategy<Value = Vec<u8>> + Clone {
    vec(any::<u8>(), 0..12)
}

/// An open enum's value: a named one, or a number without a name.
pub fn open_enum() -> impl Strategy<Value = i32> + Clone {
    prop_oneof![3 => -1..=2, 1 => int32()]
}

/// A Duration within ProtoJSON's range (±315,576,000,000 s), nanos of the seconds' sign.
pub fn duration() -> impl Strategy<Value = Duration> + Clone {
    const MAX: i64 = 315_576_000_000;
    let seconds = prop_oneof![-MAX..=MAX, prop::sample::select(vec![0, MAX, -MAX, 1, -1])];
    (seconds, 0..1_000_000_000i32, any::<bool>()).prop_map(|(seconds, nanos, negative)| {
        let negative = seconds < 0 || (seconds == 0 && negative);
        Duration {
            seconds,
            nanos: if negative { -nanos } else { nanos },
        }
    })
}

/// A Timestamp within 0001-01-01T00:00:00Z ..= 9999-12-31T23:59:59.999999999Z.
pub fn timestamp() -> impl Strategy<Value = Timestamp> + Clone {
    const MIN: i64 = -62_135_596_800;
    const MAX: i64 = 253_402_300_799;
    let seconds = prop_oneof![MIN..=MAX, prop::sample::select(vec![MIN, MAX, 0, -1])];
    let nanos = prop_oneof![
        0..1_000_000_000i32,
        prop::sample::select(vec![0, 999_999_999, 1])
    ];
    (seconds, nanos).prop_map(|(seconds, nanos)| Timestamp { seconds, nanos })
}

/// A FieldMask whose paths survive the snake_case ↔ lowerCamelCase mapping.
pub fn field_mask() -> impl Strategy<Value = FieldMask> + Clone {
    let path = "[a-z][a-z0-9]{0,4}(_[a-z][a-z0-9]{0,3}){0,2}(\\.[a-z][a-z0-9]{0,4}){0,2}";
    vec(path, 0..3).prop_map(|paths| FieldMask { paths })
}

/// A `google.protobuf.Value` nested at most `depth` lists or structs deep.
pub fn value(depth: u32) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Kind::NullValue(0)),
        any::<bool>().prop_map(Kind::BoolValue),
        finite_double().prop_map(Kind::NumberValue),
        string().prop_map(Kind::StringValue),
    ];
    leaf.prop_map(|k| Value { kind: Some(k) })
        .prop_recursive(depth, 16, 3, |inner| {
            prop_oneof![
                vec(inner.clone(), 0..3).prop_map(|values| Value {
                    kind: Some(Kind::ListValue(ListValue { values }))
                }),
                struct_of(inner).prop_map(|s| Value {
                    kind: Some(Kind::StructValue(s))
                }),
            ]
        })
        .boxed()
}

/// A Struct whose values come from `values`.
fn struct_of(values: impl Strategy<Value = Value>) -> impl Strategy<Value = Struct> {
    proptest::collection::btree_map(string(), values, 0..3).prop_map(|fields| Struct { fields })
}

/// A Struct with values nested at most 2 deep.
pub fn structure() -> impl Strategy<Value = Struct> {
    struct_of(value(2))
}

/// Packs `msg` into an Any under its type URL.
fn pack<M: Message>(name: &str, msg: &M) -> Any {
    Any {
        type_url: format!("type.googleapis.com/{name}"),
        value: msg.encode_to_vec(),
    }
}

/// An Any holding a well-known type, a `TestAllTypesProto3` from `messages`,
/// or another Any. Messages packed must encode deterministically (no
/// HashMap fields), since the comparison after a round trip is by bytes.
fn any_of(messages: BoxedStrategy<TestAllTypesProto3>) -> BoxedStrategy<Any> {
    let leaf = prop_oneof![
        duration().prop_map(|d| pack("google.protobuf.Duration", &d)),
        timestamp().prop_map(|t| pack("google.protobuf.Timestamp", &t)),
        field_mask().prop_map(|m| pack("google.protobuf.FieldMask", &m)),
        value(1).prop_map(|v| pack("google.protobuf.Value", &v)),
        structure().prop_map(|s| pack("google.protobuf.Struct", &s)),
        int32().prop_map(|v| pack("google.protobuf.Int32Value", &v)),
        string().prop_map(|v| pack("google.protobuf.StringValue", &v)),
        Just(pack("google.protobuf.Empty", &())),
        messages.prop_map(|m| pack("protobuf_test_messages.proto3.TestAllTypesProto3", &m)),
    ];
    leaf.prop_recursive(2, 4, 1, |inner| {
        inner.prop_map(|any| pack("google.protobuf.Any", &any))
    })
    .boxed()
}

/// Strategy for a `TestAllTypesProto3` with one field set by `$value`.
macro_rules! set3 {
    ($field:ident: $value:expr) => {
        ($value)
            .prop_map(|v| TestAllTypesProto3 {
                $field: v,
                ..Default::default()
            })
            .boxed()
    };
}

/// Strategy for a `TestAllTypesProto3` with one oneof member set.
macro_rules! oneof3 {
    ($variant:ident: $value:expr) => {
        ($value)
            .prop_map(|v| TestAllTypesProto3 {
                oneof_field: Some(OneofField::$variant(v)),
                ..Default::default()
            })
            .boxed()
    };
}

/// A repeated field of up to [`MAX_LEN`] values.
fn rep<S: Strategy>(values: S) -> proptest::collection::VecStrategy<S> {
    vec(values, 0..MAX_LEN)
}

/// A map field of up to [`MAX_LEN`] entries.
fn map<K, V>(keys: K, values: V) -> proptest::collection::HashMapStrategy<K, V>
where
    K: Strategy,
    K::Value: std::hash::Hash + Eq,
    V: Strategy,
{
    hash_map(keys, values, 0..MAX_LEN)
}

/// One-field messages for every non-recursive field of `TestAllTypesProto3`.
/// `hash_maps` false leaves out the map fields (for messages packed in Any).
fn flat_fields3(hash_maps: bool) -> Vec<BoxedStrategy<TestAllTypesProto3>> {
    let mut arms = vec![
        set3!(optional_int32: int32()),
        set3!(optional_int64: int64()),
        set3!(optional_uint32: uint32()),
        set3!(optional_uint64: uint64()),
        set3!(optional_sint32: int32()),
        set3!(optional_sint64: int64()),
        set3!(optional_fixed32: uint32()),
        set3!(optional_fixed64: uint64()),
        set3!(optional_sfixed32: int32()),
        set3!(optional_sfixed64: int64()),
        set3!(optional_float: float()),
        set3!(optional_double: double()),
        set3!(optional_bool: any::<bool>()),
        set3!(optional_string: string()),
        set3!(optional_bytes: bytes()),
        set3!(optional_foreign_message: int32().prop_map(|c| Some(ForeignMessage { c }))),
        set3!(optional_nested_enum: open_enum()),
        set3!(optional_foreign_enum: open_enum()),
        set3!(optional_aliased_enum: open_enum()),
        set3!(optional_string_piece: string()),
        set3!(optional_cord: string()),
        set3!(repeated_int32: rep(int32())),
        set3!(repeated_int64: rep(int64())),
        set3!(repeated_uint32: rep(uint32())),
        set3!(repeated_uint64: rep(uint64())),
        set3!(repeated_sint64: rep(int64())),
        set3!(repeated_fixed32: rep(uint32())),
        set3!(repeated_sfixed64: rep(int64())),
        set3!(repeated_float: rep(float())),
        set3!(repeated_double: rep(double())),
        set3!(repeated_bool: rep(any::<bool>())),
        set3!(repeated_string: vec(string(), 0..MAX_LEN)),
        set3!(repeated_bytes: vec(bytes(), 0..MAX_LEN)),
        set3!(repeated_nested_enum: rep(open_enum())),
        set3!(packed_int32: rep(int32())),
        set3!(packed_double: rep(double())),
        set3!(packed_nested_enum: rep(open_enum())),
        set3!(unpacked_uint64: rep(uint64())),
        set3!(unpacked_float: rep(float())),
        set3!(optional_bool_wrapper: opt(any::<bool>())),
        set3!(optional_int32_wrapper: opt(int32())),
        set3!(optional_int64_wrapper: opt(int64())),
        set3!(optional_uint32_wrapper: opt(uint32())),
        set3!(optional_uint64_wrapper: opt(uint64())),
        set3!(optional_float_wrapper: opt(float())),
        set3!(optional_double_wrapper: opt(double())),
        set3!(optional_string_wrapper: opt(string())),
        set3!(optional_bytes_wrapper: opt(bytes())),
        set3!(repeated_int64_wrapper: rep(int64())),
        set3!(repeated_float_wrapper: rep(float())),
        set3!(repeated_double_wrapper: rep(double())),
        set3!(repeated_bytes_wrapper: vec(bytes(), 0..MAX_LEN)),
        // Merging two Durations mixes their fields: both fields non-zero make
        // the last one win whole (zeros are not encoded), keeping signs equal.
        set3!(optional_duration: duration().prop_filter("no zero field", |d| d.seconds != 0 && d.nanos != 0).prop_map(Some)),
        set3!(optional_timestamp: timestamp().prop_map(Some)),
        set3!(optional_field_mask: field_mask().prop_map(Some)),
        set3!(optional_struct: structure().prop_map(Some)),
        set3!(optional_value: value(3).prop_map(Some)),
        set3!(repeated_duration: rep(duration())),
        set3!(repeated_timestamp: rep(timestamp())),
        set3!(repeated_fieldmask: rep(field_mask())),
        set3!(repeated_struct: vec(structure(), 0..2)),
        set3!(repeated_value: vec(value(2), 0..MAX_LEN)),
        set3!(repeated_list_value: vec(vec(value(1), 0..3).prop_map(|values| ListValue { values }), 0..2)),
        set3!(fieldname1: int32()),
        set3!(field_name2: int32()),
        set3!(field0name5: int32()),
        set3!(field_0_name6: int32()),
        set3!(field_name13: int32()),
        set3!(field_name18: int32()),
        oneof3!(OneofUint32: uint32()),
        oneof3!(OneofString: string()),
        oneof3!(OneofBytes: bytes()),
        oneof3!(OneofBool: any::<bool>()),
        oneof3!(OneofUint64: uint64()),
        oneof3!(OneofFloat: float()),
        oneof3!(OneofDouble: double()),
        oneof3!(OneofEnum: open_enum()),
        oneof3!(OneofNullValue: Just(0)),
    ];
    if hash_maps {
        arms.extend([
            set3!(map_int32_int32: map(int32(), int32())),
            set3!(map_int64_int64: map(int64(), int64())),
            set3!(map_uint32_uint32: map(uint32(), uint32())),
            set3!(map_uint64_uint64: map(uint64(), uint64())),
            set3!(map_sint32_sint32: map(int32(), int32())),
            set3!(map_fixed64_fixed64: map(uint64(), uint64())),
            set3!(map_sfixed32_sfixed32: map(int32(), int32())),
            set3!(map_int32_float: map(int32(), float())),
            set3!(map_int32_double: map(int32(), double())),
            set3!(map_bool_bool: map(any::<bool>(), any::<bool>())),
            set3!(map_string_string: map(string(), string())),
            set3!(map_string_bytes: map(string(), bytes())),
            set3!(map_string_foreign_message: map(string(), int32().prop_map(|c| ForeignMessage { c }))),
            set3!(map_string_nested_enum: map(string(), open_enum())),
            set3!(map_string_foreign_enum: map(string(), open_enum())),
        ]);
    }
    arms
}

/// One-field messages for the fields that hold `TestAllTypesProto3` again, with
/// the inner messages from `inner`.
fn recursive_fields3(
    inner: BoxedStrategy<TestAllTypesProto3>,
) -> Vec<BoxedStrategy<TestAllTypesProto3>> {
    let nested = (int32(), opt(inner.clone())).prop_map(|(a, m)| NestedMessage {
        a,
        corecursive: m.map(Box::new),
    });
    let no_maps = inner.clone().prop_filter("no map fields", |m| !has_maps(m));
    vec![
        set3!(recursive_message: inner.clone().prop_map(|m| Some(Box::new(m)))),
        set3!(optional_nested_message: nested.clone().prop_map(|m| Some(Box::new(m)))),
        set3!(repeated_nested_message: vec(nested.clone(), 0..3)),
        set3!(map_string_nested_message: hash_map(string(), nested.clone(), 0..3)),
        oneof3!(OneofNestedMessage: nested.prop_map(Box::new)),
        set3!(optional_any: any_of(no_maps.clone().boxed()).prop_map(Some)),
        set3!(repeated_any: vec(any_of(no_maps.boxed()), 0..2)),
    ]
}

/// Whether `m` or a message nested in it has a map field set: such a
/// message's binary encoding depends on HashMap iteration order.
fn has_maps(m: &TestAllTypesProto3) -> bool {
    let flat = [
        m.map_int32_int32.is_empty(),
        m.map_int64_int64.is_empty(),
        m.map_uint32_uint32.is_empty(),
        m.map_uint64_uint64.is_empty(),
        m.map_sint32_sint32.is_empty(),
        m.map_sint64_sint64.is_empty(),
        m.map_fixed32_fixed32.is_empty(),
        m.map_fixed64_fixed64.is_empty(),
        m.map_sfixed32_sfixed32.is_empty(),
        m.map_sfixed64_sfixed64.is_empty(),
        m.map_int32_float.is_empty(),
        m.map_int32_double.is_empty(),
        m.map_bool_bool.is_empty(),
        m.map_string_string.is_empty(),
        m.map_string_bytes.is_empty(),
        m.map_string_nested_message.is_empty(),
        m.map_string_foreign_message.is_empty(),
        m.map_string_nested_enum.is_empty(),
        m.map_string_foreign_enum.is_empty(),
    ];
    let nested_has = |n: &NestedMessage| n.corecursive.as_deref().is_some_and(has_maps);
    flat.contains(&false)
        || m.recursive_message.as_deref().is_some_and(has_maps)
        || m.optional_nested_message.as_deref().is_some_and(nested_has)
        || m.repeated_nested_message.iter().any(nested_has)
        || matches!(&m.oneof_field, Some(OneofField::OneofNestedMessage(n)) if nested_has(n))
}

/// Merges one-field messages in the binary format, in order.
fn merge3(parts: Vec<TestAllTypesProto3>) -> TestAllTypesProto3 {
    let mut buf = Vec::new();
    for part in &parts {
        part.encode(&mut buf).expect("Vec grows");
    }
    TestAllTypesProto3::decode(buf.as_slice()).expect("concatenated messages merge")
}

/// A random `TestAllTypesProto3` nesting itself at most `depth` levels deep.
pub fn test_all_types_proto3(depth: u32) -> BoxedStrategy<TestAllTypesProto3> {
    let mut arms = flat_fields3(true);
    if depth > 0 {
        arms.extend(recursive_fields3(test_all_types_proto3(depth - 1)));
    }
    vec(Union::new(arms), 0..MAX_FIELDS)
        .prop_map(merge3)
        .boxed()
}

/// Replaces every NaN in the float fields of `m` (recursively) with `sentinel`,
/// so that messages can be compared with `==` (NaN != NaN).
pub fn replace_nans3(m: &mut TestAllTypesProto3, sentinel: f64) {
    let f = |x: &mut f32| {
        if x.is_nan() {
            *x = sentinel as f32;
        }
    };
    let d = |x: &mut f64| {
        if x.is_nan() {
            *x = sentinel;
        }
    };
    f(&mut m.optional_float);
    d(&mut m.optional_double);
    m.optional_float_wrapper.iter_mut().for_each(f);
    m.optional_double_wrapper.iter_mut().for_each(d);
    for list in [
        &mut m.repeated_float,
        &mut m.packed_float,
        &mut m.unpacked_float,
        &mut m.repeated_float_wrapper,
    ] {
        list.iter_mut().for_each(f);
    }
    for list in [
        &mut m.repeated_double,
        &mut m.packed_double,
        &mut m.unpacked_double,
        &mut m.repeated_double_wrapper,
    ] {
        list.iter_mut().for_each(d);
    }
    m.map_int32_float.values_mut().for_each(f);
    m.map_int32_double.values_mut().for_each(d);
    match &mut m.oneof_field {
        Some(OneofField::OneofFloat(x)) => f(x),
        Some(OneofField::OneofDouble(x)) => d(x),
        Some(OneofField::OneofNestedMessage(n)) => replace_nans_nested(n, sentinel),
        _ => {}
    }
    if let Some(r) = m.recursive_message.as_deref_mut() {
        replace_nans3(r, sentinel);
    }
    if let Some(n) = m.optional_nested_message.as_deref_mut() {
        replace_nans_nested(n, sentinel);
    }
    for n in m
        .repeated_nested_message
        .iter_mut()
        .chain(m.map_string_nested_message.values_mut())
    {
        replace_nans_nested(n, sentinel);
    }
}

fn replace_nans_nested(n: &mut NestedMessage, sentinel: f64) {
    if let Some(c) = n.corecursive.as_deref_mut() {
        replace_nans3(c, sentinel);
    }
}

/// Strategy for a `TestAllTypesProto2` with one field set by `$value`.
macro_rules! set2 {
    ($field:ident: $value:expr) => {
        ($value)
            .prop_map(|v| TestAllTypesProto2 {
                $field: v,
                ..Default::default()
            })
            .boxed()
    };
}

/// Strategy for a `TestAllTypesProto2` with one oneof member set.
macro_rules! oneof2 {
    ($variant:ident: $value:expr) => {
        ($value)
            .prop_map(|v| TestAllTypesProto2 {
                oneof_field: Some(OneofField2::$variant(v)),
                ..Default::default()
            })
            .boxed()
    };
}

/// A random `TestAllTypesProto2` (field presence, closed enums with named
/// values only, groups, packed and expanded repeated fields, no Any): a
/// smaller set of fields than proto3, for the proto2-specific paths, and
/// the features its editions copy spells out (`DELIMITED`, `CLOSED`,
/// `EXPANDED`).
pub fn test_all_types_proto2(depth: u32) -> BoxedStrategy<TestAllTypesProto2> {
    let closed_enum = || prop_oneof![-1..=2];
    let foreign_enum = || prop_oneof![0..=2];
    // The fields of both groups (`Data`, `MultiWordGroupField`).
    let group = || (opt(int32()), opt(uint32()));
    let mut arms = vec![
        set2!(optional_int32: opt(int32())),
        set2!(optional_int64: opt(int64())),
        set2!(optional_uint64: opt(uint64())),
        set2!(optional_sint32: opt(int32())),
        set2!(optional_fixed64: opt(uint64())),
        set2!(optional_float: opt(float())),
        set2!(optional_double: opt(double())),
        set2!(optional_bool: opt(any::<bool>())),
        set2!(optional_string: opt(string())),
        set2!(optional_bytes: opt(bytes())),
        set2!(optional_nested_enum: opt(closed_enum())),
        set2!(repeated_int32: vec(int32(), 0..MAX_LEN)),
        set2!(repeated_string: vec(string(), 0..MAX_LEN)),
        set2!(repeated_nested_enum: vec(closed_enum(), 0..MAX_LEN)),
        set2!(map_int32_int32: hash_map(int32(), int32(), 0..MAX_LEN)),
        set2!(map_string_string: hash_map(string(), string(), 0..MAX_LEN)),
        set2!(optional_foreign_enum: opt(foreign_enum())),
        set2!(repeated_foreign_enum: vec(foreign_enum(), 0..MAX_LEN)),
        set2!(packed_int32: vec(int32(), 0..MAX_LEN)),
        set2!(packed_sint64: vec(int64(), 0..MAX_LEN)),
        set2!(packed_double: vec(double(), 0..MAX_LEN)),
        set2!(packed_bool: vec(any::<bool>(), 0..MAX_LEN)),
        set2!(packed_nested_enum: vec(closed_enum(), 0..MAX_LEN)),
        set2!(unpacked_fixed32: vec(uint32(), 0..MAX_LEN)),
        set2!(unpacked_float: vec(float(), 0..MAX_LEN)),
        set2!(unpacked_nested_enum: vec(closed_enum(), 0..MAX_LEN)),
        set2!(default_int32: opt(int32())),
        set2!(default_string: opt(string())),
        set2!(data: opt(group().prop_map(|(group_int32, group_uint32)| Data { group_int32, group_uint32 }))),
        set2!(multiwordgroupfield: opt(group().prop_map(|(group_int32, group_uint32)| MultiWordGroupField { group_int32, group_uint32 }))),
        oneof2!(OneofUint32: uint32()),
        oneof2!(OneofString: string()),
        oneof2!(OneofDouble: double()),
        oneof2!(OneofEnum: closed_enum()),
    ];
    if depth > 0 {
        let inner = test_all_types_proto2(depth - 1);
        let nested = (opt(int32()), opt(inner.clone())).prop_map(|(a, m)| NestedMessage2 {
            a,
            corecursive: m.map(Box::new),
        });
        arms.extend([
            set2!(recursive_message: inner.prop_map(|m| Some(Box::new(m)))),
            set2!(optional_nested_message: nested.clone().prop_map(|m| Some(Box::new(m)))),
            set2!(repeated_nested_message: vec(nested.clone(), 0..3)),
            oneof2!(OneofNestedMessage: nested.prop_map(Box::new)),
        ]);
    }
    vec(Union::new(arms), 0..MAX_FIELDS)
        .prop_map(|parts| {
            let mut buf = Vec::new();
            for part in &parts {
                part.encode(&mut buf).expect("Vec grows");
            }
            TestAllTypesProto2::decode(buf.as_slice()).expect("concatenated messages merge")
        })
        .boxed()
}

/// Members to add to a message's JSON object as unknown fields: keys that
/// start with `zz` (so they name no field) and random JSON values.
pub fn unknown_members() -> impl Strategy<Value = BTreeMap<String, Value>> {
    proptest::collection::btree_map("zz[a-zA-Z0-9_]{0,8}", value(2), 1..4)
}
