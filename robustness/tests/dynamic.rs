//! The dynamic transcoder (`protojsonx-dynamic`) against the generated
//! code, on every message of the conformance test protos, the benchmark
//! schemas and the project's test protos (the oracles are
//! `protojsonx_robustness::dynamic`'s):
//!
//! - `binary_to_json` writes the generated encoder's JSON byte for byte,
//!   under every combination of the boolean encode options and a random
//!   indent, for random `TestAllTypesProto3` / `TestAllTypesProto2`
//!   (proptest strategies) and random binary of every other message
//!   (`protojsonx_robustness::random`), half the time with the fields of
//!   every message in it shuffled;
//! - `json_to_binary` accepts what the generated decoder accepts, with and
//!   without `ignore_unknown_fields` and `allow_partial`, on the JSON of
//!   random messages in random encodings and on mutations of it (members
//!   dropped, doubled, renamed, unknown, or given values of the wrong
//!   type or range, text cut short); the binary decodes to the generated
//!   decoder's message, and errors are of the same kind with the same text.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use prost::Message;
use protojsonx_robustness::dynamic::{
    Generated, PACKAGES, UNCONSTRUCTIBLE, Verdict, binary_to_json_agrees, generated,
    json_to_binary_agrees, pool,
};
use protojsonx_robustness::protobuf_test_messages::proto3::TestAllTypesProto3;
use protojsonx_robustness::random::{self, Rng};
use protojsonx_robustness::strategy::{config, test_all_types_proto2, test_all_types_proto3};
use protojsonx_runtime::{DecodeOptions, EncodeOptions, ProtoJson};
use serde_json::Value as Json;

/// The generated type named `name`.
fn named(name: &str) -> &'static Generated {
    let full = format!("protobuf_test_messages.{name}");
    generated()
        .iter()
        .find(|g| g.full_name == full)
        .expect("listed")
}

/// The encode options `bits` pick (one bit per boolean option), with `indent`.
fn encode_options(bits: u8, indent: Option<u8>) -> EncodeOptions {
    let opts = EncodeOptions::new()
        .use_proto_names(bits & 1 != 0)
        .enums_as_ints(bits & 2 != 0)
        .emit_default_values(bits & 4 != 0)
        .emit_unpopulated(bits & 8 != 0)
        .ensure_ascii(bits & 16 != 0);
    match indent {
        Some(spaces) => opts.indent(spaces),
        None => opts,
    }
}

/// Every combination of the five boolean encode options, with `indent`.
fn every_encode_option(indent: Option<u8>) -> impl Iterator<Item = EncodeOptions> {
    (0..32).map(move |bits| encode_options(bits, indent))
}

/// Compact output, or an indent of 0 to 8 spaces.
fn indent() -> impl Strategy<Value = Option<u8>> {
    prop_oneof![Just(None), (0u8..=8).prop_map(Some)]
}

/// The four combinations of `ignore_unknown_fields` and `allow_partial`.
fn every_decode_option() -> [DecodeOptions; 4] {
    let opts = DecodeOptions::new();
    [
        opts,
        opts.ignore_unknown_fields(true),
        opts.allow_partial(true),
        opts.ignore_unknown_fields(true).allow_partial(true),
    ]
}

/// A verdict as a proptest result: a discrepancy, and errors whose texts
/// differ, fail the case.
fn check(verdict: Verdict) -> Result<(), TestCaseError> {
    match verdict {
        Ok(None) => Ok(()),
        Ok(Some(texts)) => Err(TestCaseError::fail(texts)),
        Err(discrepancy) => Err(TestCaseError::fail(discrepancy)),
    }
}

/// The binary oracle for `binary` of `g` under every boolean option set.
fn check_binary(g: &Generated, binary: &[u8], indent: Option<u8>) -> Result<(), TestCaseError> {
    for opts in every_encode_option(indent) {
        check(binary_to_json_agrees(g, binary, &opts))?;
    }
    Ok(())
}

/// The JSON oracle for `json` of `g` (mutated by `seed` unless it is 0)
/// under every decode option set.
fn check_json(g: &Generated, json: &[u8], seed: u64) -> Result<(), TestCaseError> {
    let json = if seed == 0 {
        json.to_vec()
    } else {
        mutate(json, &mut Rng::new(seed))
    };
    for opts in every_decode_option() {
        check(json_to_binary_agrees(g, &json, &opts))?;
    }
    Ok(())
}

/// A seed that is 0 (no mutation) a quarter of the time.
fn mutation_seed() -> impl Strategy<Value = u64> {
    prop_oneof![1 => Just(0), 3 => 1..u64::MAX]
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn proto3_binary_to_json_is_the_generated_json(m in test_all_types_proto3(2), indent in indent()) {
        check_binary(named("proto3.TestAllTypesProto3"), &m.encode_to_vec(), indent)?;
    }

    #[test]
    fn proto2_binary_to_json_is_the_generated_json(m in test_all_types_proto2(2), indent in indent()) {
        check_binary(named("proto2.TestAllTypesProto2"), &m.encode_to_vec(), indent)?;
    }

    #[test]
    fn proto3_json_to_binary_is_the_generated_decode(
        m in test_all_types_proto3(2),
        bits in any::<u8>(),
        indent in indent(),
        seed in mutation_seed(),
    ) {
        protojsonx_robustness::register_all();
        let json = m.to_json_with(&encode_options(bits, indent)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        check_json(named("proto3.TestAllTypesProto3"), json.as_bytes(), seed)?;
    }

    #[test]
    fn proto2_json_to_binary_is_the_generated_decode(
        m in test_all_types_proto2(2),
        bits in any::<u8>(),
        indent in indent(),
        seed in mutation_seed(),
    ) {
        let json = m.to_json_with(&encode_options(bits, indent)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        check_json(named("proto2.TestAllTypesProto2"), json.as_bytes(), seed)?;
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// Every listed message: random binary under a random option set, and
    /// its JSON (the transcoder's, just checked to be the generated one),
    /// mutated or not, back.
    #[test]
    fn every_message_transcodes_as_the_generated_code(seed in any::<u64>()) {
        for (i, g) in generated().iter().enumerate() {
            let mut rng = Rng::new(seed ^ (i as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
            let descriptor = pool().descriptors().get_message_by_name(g.full_name).expect("in the pool");
            let mut binary = random::binary(&mut rng, &descriptor, 2);
            if rng.one_in(2) {
                binary = random::shuffled(&mut rng, &descriptor, &binary);
            }
            let indent = [None, Some(0), Some(2), Some(3)][rng.below(4) as usize];
            let opts = encode_options(rng.bits() as u8, indent);
            check(binary_to_json_agrees(g, &binary, &opts))?;
            if let Ok(json) = g.dynamic().binary_to_json(&binary, &opts) {
                let mutation = if rng.one_in(4) { 0 } else { rng.bits() | 1 };
                check_json(g, &json, mutation)?;
            }
        }
    }
}

/// A second `@type` in an `Any` is an error under `@type`, however it is
/// spelled (written as encoders write it, it is stepped over rather than
/// read as a key) and whether the packed message has fields or none (then
/// read by `Decoder::read_object`), in the generated code and the
/// transcoder alike: a seed of `every_message_transcodes_as_the_generated_code`
/// found the spellings' paths apart.
#[test]
fn a_second_type_member_is_an_error_under_its_key() {
    protojsonx_robustness::register_all();
    let g = named("proto3.TestAllTypesProto3");
    for packed in ["proto2.TestLargeOneof.A4", "proto3.TestAllTypesProto3"] {
        for second in [r#""@type":"x""#, r#""@type" : "x""#, "\n  \"@type\":\"x\""] {
            let url = format!("type.googleapis.com/protobuf_test_messages.{packed}");
            let json = format!(r#"{{"optionalAny":{{"@type":"{url}",{second}}}}}"#);
            let err = protojsonx_runtime::from_str::<TestAllTypesProto3>(&json).unwrap_err();
            assert_eq!(
                (err.message(), err.path_string().as_str()),
                ("duplicate \"@type\" field", "optionalAny.@type"),
                "{json}"
            );
            let verdict = json_to_binary_agrees(g, json.as_bytes(), &DecodeOptions::new());
            assert_eq!(verdict, Ok(None), "{json}");
        }
    }
}

/// The list of generated types is complete: every message of the packages
/// named, but map entries and the unconstructible ones, has its entry.
#[test]
fn every_message_of_the_schemas_is_listed() {
    let mut in_pool: Vec<String> = pool()
        .descriptors()
        .all_messages()
        .filter(|m| !m.is_map_entry() && PACKAGES.contains(&m.package_name()))
        .filter(|m| !UNCONSTRUCTIBLE.contains(&m.full_name()))
        .map(|m| m.full_name().to_string())
        .collect();
    let mut listed: Vec<String> = generated()
        .iter()
        .map(|g| g.full_name.to_string())
        .collect();
    in_pool.sort();
    listed.sort();
    assert_eq!(listed, in_pool);
}

/// The JSON `json` with one to three random changes, written compactly or
/// pretty, and one time in ten cut short.
fn mutate(json: &[u8], rng: &mut Rng) -> Vec<u8> {
    let Ok(tree) = serde_json::from_slice::<Json>(json) else {
        return json.to_vec();
    };
    let mut tree = Tree::of(tree);
    for _ in 0..=rng.below(3) {
        tree.mutate(rng);
    }
    let mut out = String::new();
    tree.write(&mut out, rng.one_in(3).then_some(0));
    let mut out = out.into_bytes();
    if rng.one_in(10) {
        out.truncate(rng.below(out.len() as u64 + 1) as usize);
    }
    out
}

/// A JSON value whose objects may hold a key twice.
enum Tree {
    Object(Vec<(String, Tree)>),
    Array(Vec<Tree>),
    /// A scalar's JSON text.
    Raw(String),
}

/// Values of the wrong type, out of range, or at an edge, for any field.
const EDGES: &[&str] = &[
    "null",
    "true",
    "0",
    "-0",
    "1",
    "-1",
    "1.5",
    "1e2",
    "1.0",
    "1E400",
    "-1e400",
    "2147483648",
    "-2147483649",
    "4294967296",
    "9007199254740993",
    "18446744073709551616",
    r#""1""#,
    r#""-1""#,
    r#""1e2""#,
    r#""2147483648""#,
    r#"" 1""#,
    r#""0x10""#,
    r#""NaN""#,
    r#""Infinity""#,
    r#""-Infinity""#,
    r#""""#,
    r#""AAAA""#,
    r#""AQ==""#,
    r#""_-8""#,
    r#""a""#,
    r#""FOO""#,
    r#""BAR""#,
    r#""NESTED_NULL""#,
    r#""1970-01-01T00:00:00Z""#,
    r#""1s""#,
    r#""-0.5s""#,
    r#""a,bC""#,
    r#""\ud800""#,
    "[]",
    "{}",
    "[1]",
    "[null]",
    r#"{"a":1}"#,
    r#"{"@type":"type.googleapis.com/google.protobuf.Duration","value":"1s"}"#,
    r#"{"@type":"type.googleapis.com/protobuf_test_messages.proto3.ForeignMessage","c":1}"#,
];

impl Tree {
    fn of(json: Json) -> Tree {
        match json {
            Json::Object(members) => {
                Tree::Object(members.into_iter().map(|(k, v)| (k, Tree::of(v))).collect())
            }
            Json::Array(items) => Tree::Array(items.into_iter().map(Tree::of).collect()),
            scalar => Tree::Raw(scalar.to_string()),
        }
    }

    fn edge(rng: &mut Rng) -> Tree {
        Tree::Raw(rng.pick(EDGES).to_string())
    }

    /// How many objects and arrays the tree has.
    fn containers(&self) -> u64 {
        match self {
            Tree::Object(members) => 1 + members.iter().map(|(_, v)| v.containers()).sum::<u64>(),
            Tree::Array(items) => 1 + items.iter().map(Tree::containers).sum::<u64>(),
            Tree::Raw(_) => 0,
        }
    }

    /// Changes one object or array, chosen at random.
    fn mutate(&mut self, rng: &mut Rng) {
        let count = self.containers();
        if count > 0 {
            let mut at = rng.below(count);
            self.mutate_at(&mut at, rng);
        }
    }

    /// Changes the container `at` (in pre-order); counts `at` down.
    fn mutate_at(&mut self, at: &mut u64, rng: &mut Rng) -> bool {
        if matches!(self, Tree::Raw(_)) {
            return false;
        }
        if *at == 0 {
            self.change(rng);
            return true;
        }
        *at -= 1;
        match self {
            Tree::Object(members) => members.iter_mut().any(|(_, v)| v.mutate_at(at, rng)),
            Tree::Array(items) => items.iter_mut().any(|v| v.mutate_at(at, rng)),
            Tree::Raw(_) => false,
        }
    }

    /// One change to this object or array.
    fn change(&mut self, rng: &mut Rng) {
        match self {
            Tree::Object(members) if members.is_empty() => {
                members.push(("zzUnknown".into(), Tree::edge(rng)));
            }
            Tree::Object(members) => {
                let i = rng.below(members.len() as u64) as usize;
                match rng.below(7) {
                    0 => drop(members.remove(i)),
                    1 | 2 => members[i].1 = Tree::edge(rng),
                    3 => {
                        let again = (members[i].0.clone(), Tree::edge(rng));
                        members.insert(rng.below(members.len() as u64 + 1) as usize, again);
                    }
                    4 => {
                        let other = other_spelling(&members[i].0);
                        members.push((other, Tree::edge(rng)));
                    }
                    5 => members.push(("zzUnknown".into(), Tree::edge(rng))),
                    _ => {
                        let value = std::mem::replace(&mut members[i].1, Tree::Raw("null".into()));
                        members[i].1 = Tree::Array(vec![value]);
                    }
                }
            }
            Tree::Array(items) if items.is_empty() || rng.one_in(3) => items.push(Tree::edge(rng)),
            Tree::Array(items) => {
                let i = rng.below(items.len() as u64) as usize;
                items[i] = Tree::edge(rng);
            }
            Tree::Raw(_) => {}
        }
    }

    /// Appends the JSON text; pretty with `indent` levels when `Some`.
    fn write(&self, out: &mut String, indent: Option<usize>) {
        let newline = |out: &mut String, level: usize| {
            if indent.is_some() {
                out.push('\n');
                out.push_str(&" ".repeat(2 * level));
            }
        };
        let level = indent.unwrap_or(0);
        let inner = indent.map(|l| l + 1);
        match self {
            Tree::Raw(text) => out.push_str(text),
            Tree::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    newline(out, level + 1);
                    item.write(out, inner);
                }
                out.push(']');
            }
            Tree::Object(members) => {
                out.push('{');
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    newline(out, level + 1);
                    out.push_str(&Json::String(key.clone()).to_string());
                    out.push(':');
                    value.write(out, inner);
                }
                out.push('}');
            }
        }
    }
}

/// The other spelling of a field's key: lowerCamelCase for a snake_case
/// name, snake_case for a camelCase one.
fn other_spelling(key: &str) -> String {
    if key.contains('_') {
        let mut out = String::new();
        let mut upper = false;
        for c in key.chars() {
            match c {
                '_' => upper = true,
                c if upper => {
                    out.extend(c.to_uppercase());
                    upper = false;
                }
                c => out.push(c),
            }
        }
        return out;
    }
    let mut out = String::new();
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Appends field `number` of `body` (length-delimited) to `out`.
fn put_len(number: u32, body: &[u8], out: &mut Vec<u8>) {
    prost::encoding::encode_key(number, prost::encoding::WireType::LengthDelimited, out);
    prost::encoding::encode_varint(body.len() as u64, out);
    out.extend_from_slice(body);
}

/// A map entry with key "k" and the message `value`.
fn entry(value: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    put_len(1, b"k", &mut out);
    put_len(2, value, &mut out);
    out
}

/// A `-0` where the field has no presence (a map value, a proto3 double)
/// in the message an `Any` packs: the generated path packs it with prost,
/// which leaves the value out (it equals the default, 0.0), where the
/// transcoder keeps its sign, as protobuf's own encoders do. Found by the
/// random test above (a map of doubles in a random `TestAllTypesProto2`).
#[test]
fn negative_zero_in_a_packed_message_agrees() {
    let g = named("proto3.TestAllTypesProto3");
    let url = "type.googleapis.com/protobuf_test_messages";
    for json in [
        format!(
            r#"{{"optionalAny":{{"@type":"{url}.proto2.TestAllTypesProto2","mapInt32Double":{{"1":-0,"2":0}}}}}}"#
        ),
        format!(
            r#"{{"optionalAny":{{"@type":"{url}.proto3.TestAllTypesProto3","optionalDouble":-0}}}}"#
        ),
    ] {
        let verdict = json_to_binary_agrees(g, json.as_bytes(), &DecodeOptions::new());
        assert!(matches!(verdict, Ok(None)), "{json}: {verdict:?}");
    }
}

/// Deep binary through map entries and `Struct`s, at every depth around
/// prost's recursion limit: the transcoder rejects exactly what prost
/// rejects (prost counts a map entry as a level of its own).
#[test]
fn nesting_through_maps_and_structs_meets_the_limit_where_prost_does() {
    let g = named("proto3.TestAllTypesProto3");
    let opts = EncodeOptions::new();
    for levels in 20..=110 {
        // TestAllTypesProto3 { map_string_nested_message: {"k": NestedMessage { corecursive: ... }}}
        let maps = (0..levels).fold(Vec::new(), |inner, _| {
            let mut nested = Vec::new();
            put_len(2, &inner, &mut nested);
            let mut out = Vec::new();
            put_len(71, &entry(&nested), &mut out);
            out
        });
        // optional_value: Value { struct_value: Struct { fields: {"k": Value { ... }}}}
        let value = (0..levels).fold(b"\x20\x01".to_vec(), |inner, _| {
            let mut fields = Vec::new();
            put_len(1, &entry(&inner), &mut fields);
            let mut out = Vec::new();
            put_len(5, &fields, &mut out);
            out
        });
        let mut structs = Vec::new();
        put_len(306, &value, &mut structs);
        for (what, binary) in [("maps", &maps), ("structs", &structs)] {
            if let Err(discrepancy) = binary_to_json_agrees(g, binary, &opts) {
                panic!("{what} {levels} levels deep: {discrepancy}");
            }
        }
    }
}
