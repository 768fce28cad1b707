//! `decode_into` against a fresh decode, over random messages of the
//! conformance test protos: decoding the JSON of one message into another
//! message (random too, so every field may hold something to clear or
//! reuse) gives exactly what `from_json` gives, under every encoding the
//! JSON may come in (proto names, enum numbers, defaults written, `null`s
//! for unset fields, pretty-printed) and with `ignore_unknown_fields`.
//! Memory reuse is checked directly: strings, repeated messages and
//! sub-messages keep their buffers.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use protojsonx_robustness::decode_into_agrees;
use protojsonx_robustness::protobuf_test_messages::proto3::TestAllTypesProto3;
use protojsonx_robustness::protobuf_test_messages::proto3::test_all_types_proto3::NestedMessage;
use protojsonx_robustness::strategy::{config, test_all_types_proto2, test_all_types_proto3};
use protojsonx_runtime::{DecodeOptions, EncodeOptions, ProtoJson};

/// The encodings the input comes in, chosen by the test's `pick`.
fn encoding(pick: u8) -> EncodeOptions {
    EncodeOptions::new()
        .use_proto_names(pick & 1 != 0)
        .enums_as_ints(pick & 2 != 0)
        .emit_default_values(pick & 4 != 0)
        .emit_unpopulated(pick & 8 != 0)
        .multiline(pick & 16 != 0)
}

/// [`decode_into_agrees`] as a proptest check.
fn check<M: ProtoJson>(held: M, json: &str, opts: &DecodeOptions) -> Result<(), TestCaseError> {
    decode_into_agrees(held, json.as_bytes(), opts).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn proto3_decode_into_equals_a_fresh_decode(
        held in test_all_types_proto3(2),
        m in test_all_types_proto3(2),
        pick in any::<u8>(),
    ) {
        protojsonx_robustness::register_all();
        let json = m.to_json_with(&encoding(pick)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        check(held.clone(), &json, &DecodeOptions::new())?;
        check(held, &json, &DecodeOptions::new().ignore_unknown_fields(true))?;
    }

    #[test]
    fn proto2_decode_into_equals_a_fresh_decode(
        held in test_all_types_proto2(2),
        m in test_all_types_proto2(2),
        pick in any::<u8>(),
    ) {
        let json = m.to_json_with(&encoding(pick)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        check(held.clone(), &json, &DecodeOptions::new())?;
        check(held, &json, &DecodeOptions::new().ignore_unknown_fields(true))?;
    }

    #[test]
    fn decode_into_a_message_of_its_own_json_is_the_message(m in test_all_types_proto3(2)) {
        protojsonx_robustness::register_all();
        let json = m.to_json().map_err(|e| TestCaseError::fail(e.to_string()))?;
        check(m, &json, &DecodeOptions::new())?;
    }
}

#[test]
fn fields_left_out_set_to_null_or_to_unknown_enum_names_are_cleared() {
    let full = r#"{"optionalInt32":5,"optionalString":"x","optionalNestedMessage":{"a":1},
        "repeatedInt32":[1,2],"mapStringString":{"k":"v"},"oneofString":"o",
        "optionalNestedEnum":"BAR","optionalBytes":"AAEC"}"#;
    let mut msg = TestAllTypesProto3::from_json(full).unwrap();
    let opts = DecodeOptions::new().ignore_unknown_fields(true);
    let json = r#"{"optionalString":null,"optionalNestedEnum":"NOT_A_NAME","oneofUint32":7}"#;
    opts.decode_into(&mut msg, json.as_bytes()).unwrap();
    assert_eq!(
        msg,
        TestAllTypesProto3::from_json_with(json, &opts).unwrap()
    );
    assert_eq!(msg.to_json().unwrap(), r#"{"oneofUint32":7}"#);
}

#[test]
fn memory_is_reused() {
    let json = r#"{"optionalString":"a string of some length","optionalBytes":"AAECAwQFBgc=",
        "repeatedNestedMessage":[{"a":1,"corecursive":{"optionalString":"inner"}},{"a":2}],
        "optionalNestedMessage":{"a":3},"repeatedString":["one","two"]}"#;
    let mut msg = TestAllTypesProto3::from_json(json).unwrap();
    let string = msg.optional_string.as_ptr();
    let bytes = msg.optional_bytes.as_ptr();
    let list = msg.repeated_nested_message.as_ptr();
    let inner = inner_string(&msg.repeated_nested_message[0]);
    let nested: *const NestedMessage = &**msg.optional_nested_message.as_ref().unwrap();
    let strings = msg.repeated_string[1].as_ptr();
    let other = json
        .replace("some length", "a length")
        .replace("inner", "other")
        .replace("\"two\"", "\"2\"");
    protojsonx_runtime::decode_into(&mut msg, other.as_bytes()).unwrap();
    assert_eq!(msg, TestAllTypesProto3::from_json(&other).unwrap());
    assert_eq!(msg.optional_string.as_ptr(), string);
    assert_eq!(msg.optional_bytes.as_ptr(), bytes);
    assert_eq!(msg.repeated_nested_message.as_ptr(), list);
    assert_eq!(inner_string(&msg.repeated_nested_message[0]), inner);
    assert!(std::ptr::eq(
        &**msg.optional_nested_message.as_ref().unwrap(),
        nested
    ));
    assert_eq!(msg.repeated_string[1].as_ptr(), strings);
}

/// Where the string of the message nested in `m` keeps its bytes.
fn inner_string(m: &NestedMessage) -> *const u8 {
    m.corecursive.as_ref().unwrap().optional_string.as_ptr()
}

/// The maps of [`map_entries`], each with the keys and values its entries
/// are drawn from: keys the held message and the input share, spellings
/// of one key that a decode must see as equal (escaped, `-0`), values
/// that are skipped (an unknown enum name, with `ignore_unknown_fields`).
const MAPS: [(&str, &[&str], &[&str]); 6] = [
    (
        "mapStringString",
        &["\"a\"", "\"b\"", "\"\\u0061\"", "\"key\"", "\"ü\"", "\"\""],
        &["\"v\"", "\"a longer value\""],
    ),
    (
        "mapInt32Int32",
        &["\"0\"", "\"-0\"", "\"1\"", "\"-1\"", "\"7\"", "\"01\""],
        &["1", "-2"],
    ),
    (
        "mapBoolBool",
        &["\"true\"", "\"false\""],
        &["true", "false"],
    ),
    (
        "mapStringNestedEnum",
        &["\"a\"", "\"b\"", "\"c\""],
        &["\"FOO\"", "\"BAR\"", "\"NOT_A_NAME\"", "2"],
    ),
    (
        "mapStringNestedMessage",
        &["\"a\"", "\"b\"", "\"c\""],
        &[
            "{\"a\":1}",
            "{\"corecursive\":{\"optionalString\":\"s\"}}",
            "{}",
        ],
    ),
    (
        "optionalStruct",
        &["\"a\"", "\"b\"", "\"\\u0062\"", "\"c\""],
        &["\"text\"", "1.5", "null", "[\"x\",2]", "{\"n\":\"y\"}"],
    ),
];

/// The JSON of a message with one object per map of [`MAPS`], each with
/// the entries `picks` chooses (key, value): duplicates included.
fn map_entries(picks: &[Vec<(usize, usize)>]) -> String {
    let objects: Vec<String> = MAPS
        .iter()
        .zip(picks)
        .map(|((name, keys, values), picks)| {
            let entries: Vec<String> = picks
                .iter()
                .map(|&(k, v)| format!("{}:{}", keys[k % keys.len()], values[v % values.len()]))
                .collect();
            format!("\"{name}\":{{{}}}", entries.join(","))
        })
        .collect();
    format!("{{{}}}", objects.join(","))
}

/// Entries to pick for each of the maps, up to 12; with `distinct`, each
/// key index once (the input may still spell one key twice).
fn picks(distinct: bool) -> impl Strategy<Value = Vec<Vec<(usize, usize)>>> {
    let entries = proptest::collection::vec((0..8usize, 0..8usize), 0..12);
    proptest::collection::vec(entries, MAPS.len()).prop_map(move |mut maps| {
        for (picks, (_, keys, _)) in maps.iter_mut().zip(MAPS) {
            if distinct {
                let mut seen = std::collections::HashSet::new();
                picks.retain(|&(k, _)| seen.insert(k % keys.len()));
            }
        }
        maps
    })
}

/// A message holding what decodes of the maps' objects of `picks`, one at
/// a time, give: those that fail (a key met twice, one out of range) are left empty.
fn held_maps(picks: &[Vec<(usize, usize)>], opts: &DecodeOptions) -> TestAllTypesProto3 {
    let mut held = TestAllTypesProto3::default();
    for (i, picked) in picks.iter().enumerate() {
        let mut one = vec![Vec::new(); MAPS.len()];
        one[i] = picked.clone();
        let _ = opts.merge(&mut held, map_entries(&one).as_bytes());
    }
    held
}

proptest! {
    #![proptest_config(config(512))]

    /// Maps that held some of the keys the input sets: the values of those
    /// are read into the entries there, the others are removed, and a key
    /// met twice is an error at the same place as in a fresh decode.
    #[test]
    fn maps_holding_keys_of_the_input_decode_as_fresh_ones(
        held in picks(true),
        input in any::<bool>().prop_flat_map(picks),
    ) {
        let opts = DecodeOptions::new().ignore_unknown_fields(true);
        let held = held_maps(&held, &opts);
        let json = map_entries(&input);
        check(held.clone(), &json, &DecodeOptions::new())?;
        check(held, &json, &opts)?;
    }
}

/// `held` merged with the maps of `fresh`, as protobuf merges: each entry
/// of `fresh` replaces the one of its key, the others stay.
fn merged_maps(mut held: TestAllTypesProto3, fresh: TestAllTypesProto3) -> TestAllTypesProto3 {
    held.map_string_string.extend(fresh.map_string_string);
    held.map_int32_int32.extend(fresh.map_int32_int32);
    held.map_bool_bool.extend(fresh.map_bool_bool);
    held.map_string_nested_enum
        .extend(fresh.map_string_nested_enum);
    held.map_string_nested_message
        .extend(fresh.map_string_nested_message);
    if let Some(fresh) = fresh.optional_struct {
        let held = held.optional_struct.get_or_insert_default();
        held.fields.extend(fresh.fields);
    }
    held
}

proptest! {
    #![proptest_config(config(512))]

    /// Merging into maps that hold some of the input's keys: their entries
    /// are replaced, the others kept; errors are those of a fresh decode.
    #[test]
    fn merging_into_maps_replaces_the_entries_of_the_keys_read(
        held in picks(true),
        input in any::<bool>().prop_flat_map(picks),
        ignore in any::<bool>(),
    ) {
        let opts = DecodeOptions::new().ignore_unknown_fields(ignore);
        let held = held_maps(&held, &DecodeOptions::new().ignore_unknown_fields(true));
        let json = map_entries(&input);
        let mut merged = held.clone();
        let result = opts.merge(&mut merged, json.as_bytes());
        match TestAllTypesProto3::from_json_with(&json, &opts) {
            Ok(fresh) => {
                prop_assert!(result.is_ok(), "{result:?} for {json}");
                prop_assert_eq!(merged, merged_maps(held, fresh), "{}", json);
            }
            Err(e) => prop_assert_eq!(result.map_err(|e| e.to_string()), Err(e.to_string())),
        }
    }
}

/// Merging into maps of more entries than are read into in place (64).
#[test]
fn merging_into_large_maps_replaces_the_entries_of_the_keys_read() {
    let object = |keys: std::ops::Range<u32>, value: &str| {
        let entries: Vec<String> = keys.map(|k| format!("\"{k}\":\"{value}{k}\"")).collect();
        format!("{{\"mapStringString\":{{{}}}}}", entries.join(","))
    };
    let held = TestAllTypesProto3::from_json(object(0..100, "old")).unwrap();
    let json = object(90..110, "new");
    let mut merged = held.clone();
    merged.merge_json(&json).unwrap();
    let fresh = TestAllTypesProto3::from_json(&json).unwrap();
    assert_eq!(merged, merged_maps(held.clone(), fresh));
    let twice = json.replace("}}", ",\"95\":\"again\"}}");
    let error = held.clone().merge_json(&twice).unwrap_err();
    assert_eq!(
        error.to_string(),
        TestAllTypesProto3::from_json(&twice)
            .unwrap_err()
            .to_string()
    );
}

/// Maps of more keys than the decoder records on the stack (16), and of
/// more than it reads into (64: the map is emptied first).
#[test]
fn large_maps_holding_keys_of_the_input_decode_as_fresh_ones() {
    for (held, input, dup) in [
        (0..30, 10..35, None),
        (0..30, 10..35, Some(12)),
        (0..30, 5..25, Some(33)),
        (0..100, 50..150, None),
        (0..100, 50..150, Some(60)),
        (0..20, 0..20, Some(19)),
    ] {
        let entries = |keys: std::ops::Range<u32>, dup: Option<u32>, string: bool| {
            let value = |k: u32| {
                if string {
                    format!("\"v{k}\"")
                } else {
                    k.to_string()
                }
            };
            let mut all: Vec<String> = keys.map(|k| format!("\"{k}\":{}", value(k))).collect();
            all.extend(dup.map(|k| format!("\"{k}\":{}", value(k))));
            all.join(",")
        };
        let json = |keys: std::ops::Range<u32>, dup| {
            format!(
                "{{\"mapInt32Int32\":{{{}}},\"mapStringString\":{{{}}}}}",
                entries(keys.clone(), dup, false),
                entries(keys, dup, true)
            )
        };
        let held = TestAllTypesProto3::from_json(json(held, None)).unwrap();
        let input = json(input, dup);
        protojsonx_robustness::decode_into_agrees(held, input.as_bytes(), &DecodeOptions::new())
            .unwrap();
    }
}

#[test]
fn map_values_are_read_into_the_entries_held() {
    let json = r#"{"mapStringString":{"a":"first value","b":"second value"},
        "mapStringNestedMessage":{"m":{"corecursive":{"optionalString":"inner"}}},
        "optionalStruct":{"s":"struct string","l":["list string"]}}"#;
    let mut msg = TestAllTypesProto3::from_json(json).unwrap();
    let value = msg.map_string_string["a"].as_ptr();
    let key = msg
        .map_string_string
        .keys()
        .find(|k| *k == "b")
        .unwrap()
        .as_ptr();
    let inner = msg.map_string_nested_message["m"]
        .corecursive
        .as_ref()
        .unwrap()
        .optional_string
        .as_ptr();
    let text = |m: &TestAllTypesProto3| match &m.optional_struct.as_ref().unwrap().fields["s"].kind
    {
        Some(prost_types::value::Kind::StringValue(s)) => s.as_ptr(),
        _ => std::ptr::null(),
    };
    let structs = text(&msg);
    let other = json
        .replace("first", "1st")
        .replace("inner", "other")
        .replace("struct string", "struct text");
    protojsonx_runtime::decode_into(&mut msg, other.as_bytes()).unwrap();
    assert_eq!(msg, TestAllTypesProto3::from_json(&other).unwrap());
    assert_eq!(msg.map_string_string["a"].as_ptr(), value);
    assert_eq!(
        msg.map_string_string
            .keys()
            .find(|k| *k == "b")
            .unwrap()
            .as_ptr(),
        key
    );
    assert_eq!(
        msg.map_string_nested_message["m"]
            .corecursive
            .as_ref()
            .unwrap()
            .optional_string
            .as_ptr(),
        inner
    );
    assert_eq!(text(&msg), structs);
}

/// A key set, then met again with an unknown enum name (skipped): its
/// value stays, and the entries of the keys the input left out go.
#[test]
fn a_map_key_skipped_after_it_was_set_keeps_its_value() {
    let opts = DecodeOptions::new().ignore_unknown_fields(true);
    let held =
        TestAllTypesProto3::from_json(r#"{"mapStringNestedEnum":{"a":"FOO","b":"BAR"}}"#).unwrap();
    for json in [
        r#"{"mapStringNestedEnum":{"c":"BAR","c":"NOT_A_NAME"}}"#,
        r#"{"mapStringNestedEnum":{"c":"BAR","c":"NOT_A_NAME","c":"NOT_A_NAME"}}"#,
        r#"{"mapStringNestedEnum":{"a":"NOT_A_NAME","c":"BAR"}}"#,
        r#"{"mapStringNestedEnum":{"a":"BAZ","a":"NOT_A_NAME"}}"#,
    ] {
        protojsonx_robustness::decode_into_agrees(held.clone(), json.as_bytes(), &opts).unwrap();
    }
}

/// The message an `Any` is read into is reused from one `Any` to the next
/// (in fresh decodes too): nothing of one may reach the next, however they
/// nest.
#[test]
fn nothing_of_one_any_reaches_the_next() {
    protojsonx_robustness::register_all();
    let url = "type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3";
    let full = format!(
        r#"{{"@type":"{url}","optionalString":"s","repeatedInt32":[1,2],"mapStringString":{{"k":"v"}},
        "optionalAny":{{"@type":"{url}","optionalInt32":7}}}}"#
    );
    let sparse = format!(r#"{{"@type":"{url}","optionalInt64":"3"}}"#);
    let empty = format!(r#"{{"@type":"{url}"}}"#);
    let list = format!(r#"{{"repeatedAny":[{full},{sparse},{full},{empty}]}}"#);
    let msg = TestAllTypesProto3::from_json(&list).unwrap();
    let alone = |json: &str| prost_types::Any::from_json(json).unwrap();
    assert_eq!(
        msg.repeated_any,
        [alone(&full), alone(&sparse), alone(&full), alone(&empty)]
    );
    assert_eq!(msg.to_json().unwrap(), list.replace(['\n', ' '], ""));
}
