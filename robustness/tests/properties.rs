//! Property tests over random messages of the conformance test protos:
//!
//! - decode(encode(m)) == m under every combination of `EncodeOptions`, and
//!   encoding the result gives the same text again;
//! - the encoder's output is strict JSON (serde_json accepts it) with no
//!   duplicate keys, and reformatted/reordered by serde_json it decodes to
//!   the same message;
//! - decoding with `ignore_unknown_fields` drops exactly the unknown members
//!   added to a message's JSON, and without it they are `UnknownField` errors;
//! - the reader's general paths read what its fast paths read: the JSON
//!   with tabs between its tokens decodes to the same message;
//! - the editions copies of the test messages are their originals: the
//!   binary of one decodes as the other, and both write the same JSON
//!   under every combination of `EncodeOptions`.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use protojsonx_robustness::protobuf_test_messages::editions;
use protojsonx_robustness::protobuf_test_messages::proto2::TestAllTypesProto2;
use protojsonx_robustness::protobuf_test_messages::proto3::TestAllTypesProto3;
use protojsonx_robustness::protobuf_test_messages::proto3::test_all_types_proto3::NestedEnum;
use protojsonx_robustness::strategy::{
    config, replace_nans3, test_all_types_proto2, test_all_types_proto3, unknown_members,
};
use protojsonx_robustness::{editions_copy_agrees, general_paths_agree};
use protojsonx_runtime::{DecodeOptions, EncodeOptions, ErrorKind, ProtoJson};
use serde_json::Value as Json;

/// Every combination of the encode options that changes what is written:
/// key names, enums as numbers, which unset fields are written (none,
/// defaults as Python's `always_print_fields_with_no_presence`, or Go's
/// `EmitUnpopulated` with `null`s), and compact or pretty ASCII-only layout.
/// Each comes with whether unset fields are written as `null`.
fn all_encode_options() -> Vec<(EncodeOptions, bool)> {
    let mut all = Vec::new();
    for names in [false, true] {
        for ints in [false, true] {
            for (defaults, nulls) in [(false, false), (true, false), (false, true)] {
                for pretty in [false, true] {
                    let opts = EncodeOptions::new()
                        .use_proto_names(names)
                        .enums_as_ints(ints)
                        .emit_default_values(defaults)
                        .emit_unpopulated(nulls)
                        .multiline(pretty)
                        .ensure_ascii(pretty);
                    all.push((opts, nulls));
                }
            }
        }
    }
    all
}

/// The default JSON of `m` without its `"optionalValue":null` members: what
/// writing unset fields as `null` cannot keep, since an unset
/// `google.protobuf.Value` field written as `null` reads back as a `Value`
/// holding `null` (in messages packed in an `Any` too, hence the text).
fn without_null_values(m: &TestAllTypesProto3) -> Result<String, TestCaseError> {
    let json = m
        .to_json()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    Ok(json
        .replace(",\"optionalValue\":null", "")
        .replace("\"optionalValue\":null,", "")
        .replace("{\"optionalValue\":null}", "{}"))
}

/// Whether `back`, decoded from `m`'s JSON under options that may write
/// `null` for unset fields (`nulls`), is `m`.
fn same_message(
    back: &TestAllTypesProto3,
    m: &TestAllTypesProto3,
    nulls: bool,
) -> Result<bool, TestCaseError> {
    if nulls {
        Ok(without_null_values(back)? == without_null_values(m)?)
    } else {
        Ok(comparable(back) == comparable(m))
    }
}

/// A value no strategy produces, standing in for NaN so messages compare with `==`.
const NAN_SENTINEL: f64 = -1.2345678901234567e-37;

/// `m` with NaNs replaced by [`NAN_SENTINEL`].
fn comparable(m: &TestAllTypesProto3) -> TestAllTypesProto3 {
    let mut m = m.clone();
    replace_nans3(&mut m, NAN_SENTINEL);
    m
}

/// Parses `json` with serde_json and fails on anything but a JSON object
/// without duplicate keys at any level.
fn strict_object(json: &str) -> Result<serde_json::Map<String, Json>, TestCaseError> {
    let tree: Json = serde_json::from_str(json)
        .map_err(|e| TestCaseError::fail(format!("not strict JSON ({e}): {json}")))?;
    prop_assert!(!has_duplicate_keys(json), "duplicate keys in {json}");
    match tree {
        Json::Object(map) => Ok(map),
        other => Err(TestCaseError::fail(format!("not an object: {other}"))),
    }
}

/// Whether some object in `json` has a key twice. serde_json keeps the last
/// of duplicate keys, so they are counted with a visitor over the raw text.
fn has_duplicate_keys(json: &str) -> bool {
    use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
    use std::collections::HashSet;

    struct Check;
    impl<'de> Visitor<'de> for Check {
        type Value = bool;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
            let mut keys = HashSet::new();
            let mut dup = false;
            while let Some(key) = map.next_key::<String>()? {
                dup |= !keys.insert(key);
                dup |= map.next_value_seed(CheckSeed)?;
            }
            Ok(dup)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
            let mut dup = false;
            while let Some(d) = seq.next_element_seed(CheckSeed)? {
                dup |= d;
            }
            Ok(dup)
        }
        fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_str<E>(self, _: &str) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_unit<E>(self) -> Result<bool, E> {
            Ok(false)
        }
    }
    struct CheckSeed;
    impl<'de> serde::de::DeserializeSeed<'de> for CheckSeed {
        type Value = bool;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
            d.deserialize_any(Check)
        }
    }
    let mut de = serde_json::Deserializer::from_str(json);
    de.deserialize_any(Check).unwrap_or(true)
}

/// The round-trip properties for one message and one set of options.
fn check_round_trip(
    m: &TestAllTypesProto3,
    opts: &EncodeOptions,
    nulls: bool,
) -> Result<(), TestCaseError> {
    let json = m
        .to_json_with(opts)
        .map_err(|e| TestCaseError::fail(format!("encode: {e}")))?;
    let tree = strict_object(&json)?;
    let back = TestAllTypesProto3::from_json(&json)
        .map_err(|e| TestCaseError::fail(format!("decode: {e}\n{json}")))?;
    prop_assert!(
        same_message(&back, m, nulls)?,
        "options {:?}, JSON {}\ndecodes to {:?}",
        opts,
        json,
        back
    );
    let again = back
        .to_json_with(opts)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&again, &json, "encoding the decoded message differs");
    // The same JSON, members in reverse order and pretty-printed, decodes the same.
    let reversed: serde_json::Map<String, Json> = tree.into_iter().rev().collect();
    let reordered = serde_json::to_string_pretty(&Json::Object(reversed)).expect("serialize");
    let back = TestAllTypesProto3::from_json(&reordered)
        .map_err(|e| TestCaseError::fail(format!("decode reordered: {e}\n{reordered}")))?;
    prop_assert!(
        same_message(&back, m, nulls)?,
        "reordered JSON {}",
        reordered
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    /// Values as encoders write them, read in one step by the fast paths
    /// (integers, timestamps, durations, strings, keys), against the general
    /// paths that read any form, under every encoding.
    #[test]
    fn general_paths_read_what_fast_paths_read(
        m3 in test_all_types_proto3(2),
        m2 in test_all_types_proto2(2),
    ) {
        protojsonx_robustness::register_all();
        let opts = DecodeOptions::new();
        for (encoding, _) in all_encode_options() {
            let json = m3.to_json_with(&encoding).map_err(|e| TestCaseError::fail(e.to_string()))?;
            general_paths_agree::<TestAllTypesProto3>(json.as_bytes(), &opts)
                .map_err(TestCaseError::fail)?;
            let json = m2.to_json_with(&encoding).map_err(|e| TestCaseError::fail(e.to_string()))?;
            general_paths_agree::<TestAllTypesProto2>(json.as_bytes(), &opts)
                .map_err(TestCaseError::fail)?;
        }
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// The editions files spell out with features what proto2 and proto3
    /// mean, so their lowered structs must be interchangeable with the
    /// originals' (the differential test also holds both to Python).
    #[test]
    fn editions_copies_are_their_originals(
        m3 in test_all_types_proto3(2),
        m2 in test_all_types_proto2(2),
    ) {
        protojsonx_robustness::register_all();
        let options: Vec<EncodeOptions> = all_encode_options().into_iter().map(|(o, _)| o).collect();
        editions_copy_agrees::<_, editions::proto3::TestAllTypesProto3>(&m3, &options)
            .map_err(TestCaseError::fail)?;
        editions_copy_agrees::<_, editions::proto2::TestAllTypesProto2>(&m2, &options)
            .map_err(TestCaseError::fail)?;
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn proto3_round_trips_under_every_option(m in test_all_types_proto3(2)) {
        protojsonx_robustness::register_all();
        for (opts, nulls) in all_encode_options() {
            check_round_trip(&m, &opts, nulls)?;
        }
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn proto2_round_trips_under_every_option(m in test_all_types_proto2(2)) {
        for (opts, _) in all_encode_options() {
            let json = m.to_json_with(&opts).map_err(|e| TestCaseError::fail(e.to_string()))?;
            strict_object(&json)?;
            let back = TestAllTypesProto2::from_json(&json)
                .map_err(|e| TestCaseError::fail(format!("decode: {e}\n{json}")))?;
            // NaN only differs from itself; the JSON of both sides must agree.
            let again = back.to_json_with(&opts).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&again, &json);
            if !json.contains("NaN") {
                prop_assert_eq!(&back, &m, "options {:?}, JSON {}", opts, json);
            }
        }
    }

    #[test]
    fn unknown_members_are_dropped_exactly(
        m in test_all_types_proto3(1),
        extra in unknown_members(),
        nested_extra in unknown_members(),
        positions in proptest::collection::vec(any::<prop::sample::Index>(), 4),
    ) {
        protojsonx_robustness::register_all();
        let json = m.to_json().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut object = strict_object(&json)?;
        if let Some(Json::Object(nested)) = object.get_mut("recursiveMessage") {
            *nested = with_members(std::mem::take(nested), &nested_extra, &positions);
        }
        let object = with_members(object, &extra, &positions);
        let input = serde_json::to_string(&Json::Object(object)).expect("serialize");

        let ignoring = DecodeOptions::new().ignore_unknown_fields(true);
        let back = TestAllTypesProto3::from_json_with(&input, &ignoring)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{input}")))?;
        prop_assert_eq!(comparable(&back), comparable(&m), "input {}", input);

        let err = TestAllTypesProto3::from_json(&input).expect_err("unknown fields are errors");
        prop_assert_eq!(err.kind(), ErrorKind::UnknownField, "{}", err);
        prop_assert!(err.path_string().contains("zz"), "path of {} names the unknown key", err);
    }

    #[test]
    fn unknown_enum_names_leave_the_field_unset(
        m in test_all_types_proto3(0),
        name in "[A-Z][A-Z_]{0,8}".prop_filter("not a name", |n| NestedEnum::from_str_name(n).is_none()),
    ) {
        let mut object = strict_object(&m.to_json().map_err(|e| TestCaseError::fail(e.to_string()))?)?;
        object.insert("optionalNestedEnum".into(), Json::String(name));
        let input = serde_json::to_string(&Json::Object(object)).expect("serialize");
        let ignoring = DecodeOptions::new().ignore_unknown_fields(true);
        let back = TestAllTypesProto3::from_json_with(&input, &ignoring)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{input}")))?;
        let expected = TestAllTypesProto3 { optional_nested_enum: 0, ..m };
        prop_assert_eq!(comparable(&back), comparable(&expected));
        let err = TestAllTypesProto3::from_json(&input).expect_err("unknown enum name");
        prop_assert_eq!(err.kind(), ErrorKind::InvalidValue, "{}", err);
    }
}

/// `object` with the members of `extra` inserted at the chosen positions
/// among the existing ones (serde_json's `preserve_order` keeps the order).
fn with_members(
    object: serde_json::Map<String, Json>,
    extra: &std::collections::BTreeMap<String, prost_types::Value>,
    positions: &[prop::sample::Index],
) -> serde_json::Map<String, Json> {
    let mut members: Vec<(String, Json)> = object.into_iter().collect();
    for (i, (key, value)) in extra.iter().enumerate() {
        let text = value.to_json().expect("finite values encode");
        let at = positions[i % positions.len()].index(members.len() + 1);
        members.insert(
            at,
            (key.clone(), serde_json::from_str(&text).expect("JSON")),
        );
    }
    members.into_iter().collect()
}
