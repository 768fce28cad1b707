//! Transcoding the conformance suite's test messages, case by case.

use prost::Message;
use protojsonx_dynamic::{DecodeOptions, EncodeOptions, MessageType, Pool};

/// The pool of the conformance test messages (`conformance/proto`).
fn pool() -> Pool {
    let proto = concat!(env!("CARGO_MANIFEST_DIR"), "/../conformance/proto");
    let (set, _) = protoc_gen_rust_protojsonx::Builder::new()
        .include(proto)
        .file_descriptor_set(&[
            format!("{proto}/google/protobuf/test_messages_proto3.proto"),
            format!("{proto}/google/protobuf/test_messages_proto2.proto"),
        ])
        .expect("the test messages parse");
    Pool::decode(&set.encode_to_vec()).expect("the descriptors are valid")
}

fn proto3() -> MessageType {
    pool()
        .message("protobuf_test_messages.proto3.TestAllTypesProto3")
        .expect("in the pool")
}

fn to_json(message: &MessageType, binary: &[u8]) -> String {
    String::from_utf8(
        message
            .binary_to_json(binary, &EncodeOptions::new())
            .unwrap(),
    )
    .unwrap()
}

fn round_trip(message: &MessageType, json: &str) -> String {
    let binary = message
        .json_to_binary(json.as_bytes(), &DecodeOptions::new())
        .unwrap();
    to_json(message, &binary)
}

#[test]
fn a_oneof_message_met_twice_merges() {
    let input =
        b"\x82\x07\x09\x12\x07\x08\x01\x10\x01\xc8\x05\x01\x82\x07\x07\x12\x05\x10\x01\xc8\x05\x01";
    assert_eq!(
        to_json(&proto3(), input),
        r#"{"oneofNestedMessage":{"corecursive":{"optionalInt32":1,"optionalInt64":"1","unpackedInt32":[1,1]}}}"#
    );
}

#[test]
fn maps_round_trip() {
    let m = proto3();
    assert_eq!(
        round_trip(&m, r#"{"mapInt32Int32": {"1": 2, "3": 4}}"#),
        r#"{"mapInt32Int32":{"1":2,"3":4}}"#
    );
    assert_eq!(
        round_trip(
            &m,
            r#"{"repeatedNestedMessage": [{"a": 1234}, {"a": 5678}]}"#
        ),
        r#"{"repeatedNestedMessage":[{"a":1234},{"a":5678}]}"#
    );
}

#[test]
fn an_aliased_enum_value_is_written_by_its_first_name() {
    // optional_aliased_enum = 2: ALIAS_BAZ, declared before MOO, moo and bAz.
    assert_eq!(
        to_json(&proto3(), b"\xb8\x01\x02"),
        r#"{"optionalAliasedEnum":"ALIAS_BAZ"}"#
    );
}

#[test]
fn a_32_bit_varint_whose_low_bits_are_0_is_the_default() {
    // optional_int32 and optional_nested_enum as varints of 2^32 and 2^63:
    // prost reads their low 32 bits, 0, and the default is not written.
    let m = proto3();
    assert_eq!(to_json(&m, b"\x08\x80\x80\x80\x80\x10"), "{}");
    assert_eq!(
        to_json(&m, b"\xa8\x01\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01"),
        "{}"
    );
    assert_eq!(
        to_json(&m, b"\x08\x81\x80\x80\x80\x10"),
        r#"{"optionalInt32":1}"#
    );
}

#[test]
fn null_for_a_repeated_value_field_is_an_error() {
    // `null` is a Value, so not "not set"; nor is it a list (as in the
    // generated code, Go and Python).
    let err = proto3()
        .json_to_binary(br#"{"repeatedValue": null}"#, &DecodeOptions::new())
        .unwrap_err();
    assert_eq!(err.kind(), protojsonx_dynamic::ErrorKind::InvalidValue);
    assert_eq!(
        err.to_string(),
        "expected array, found null at `repeatedValue` (line 1, column 19)"
    );
    assert_eq!(round_trip(&proto3(), r#"{"repeatedInt32": null}"#), "{}");
}
