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
