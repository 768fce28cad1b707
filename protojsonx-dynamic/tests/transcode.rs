//! Transcoding the conformance suite's test messages, case by case.

use prost::Message;
use protojsonx_dynamic::{DecodeOptions, EncodeOptions, MessageType, Pool};

/// The pool of the conformance test messages (`conformance/proto`).
fn pool() -> Pool {
    let proto = concat!(env!("CARGO_MANIFEST_DIR"), "/../conformance/proto");
    let set = protox::compile(
        [
            "google/protobuf/test_messages_proto3.proto",
            "google/protobuf/test_messages_proto2.proto",
        ],
        [proto],
    )
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

/// Appends field `number` of `body` (length-delimited) to `out`.
fn put_message(number: u32, body: &[u8], out: &mut Vec<u8>) {
    prost::encoding::encode_key(number, prost::encoding::WireType::LengthDelimited, out);
    prost::encoding::encode_varint(body.len() as u64, out);
    out.extend_from_slice(body);
}

/// `TestAllTypesProto3` holding `inner` as `recursive_message`, `levels` deep.
fn nested(levels: usize, inner: Vec<u8>) -> Vec<u8> {
    (0..levels).fold(inner, |body, _| {
        let mut out = Vec::new();
        put_message(27, &body, &mut out);
        out
    })
}

/// An `Any` (its body) of type URL `url` holding `value`.
fn any(url: &str, value: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    put_message(1, url.as_bytes(), &mut out);
    put_message(2, value, &mut out);
    out
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
fn an_any_whose_value_cannot_be_decoded_is_an_encoding_error() {
    // The value is no part of the input for prost: the generated code
    // fails to write it, with an encoding error.
    let mut input = Vec::new();
    let bad = any("type.googleapis.com/google.protobuf.Any", b"\x08\x01");
    put_message(305, &bad, &mut input);
    let err = proto3()
        .binary_to_json(&input, &EncodeOptions::new())
        .unwrap_err();
    assert_eq!(err.kind(), protojsonx_dynamic::ErrorKind::Encode);
    assert!(
        err.message().starts_with(
            "cannot decode the value of the google.protobuf.Any of type \
             \"type.googleapis.com/google.protobuf.Any\": "
        ),
        "{err}"
    );
}

#[test]
fn the_first_encoding_error_is_reported() {
    // optional_struct {"a": Value without a kind}, then optional_any with a
    // bad type URL: the struct is written first, its error wins.
    let mut input = Vec::new();
    put_message(305, &any("no-slash", b""), &mut input);
    let mut entry = Vec::new();
    put_message(1, b"a", &mut entry);
    put_message(2, b"", &mut entry);
    let mut object = Vec::new();
    put_message(1, &entry, &mut object);
    put_message(304, &object, &mut input);
    let err = proto3()
        .binary_to_json(&input, &EncodeOptions::new())
        .unwrap_err();
    assert_eq!(err.message(), "google.protobuf.Value has no kind set");
}

#[test]
fn messages_nest_100_levels_deep_as_in_prost() {
    let m = proto3();
    let json = to_json(&m, &nested(100, Vec::new()));
    assert_eq!(json.matches("recursiveMessage").count(), 100);
    // One more level, or an Any one level too deep (a message as well).
    let mut any_below = Vec::new();
    put_message(305, &any("x/y", b""), &mut any_below);
    for too_deep in [nested(101, Vec::new()), nested(100, any_below)] {
        let err = m
            .binary_to_json(&too_deep, &EncodeOptions::new())
            .unwrap_err();
        assert_eq!(err.kind(), protojsonx_dynamic::ErrorKind::Binary);
        assert_eq!(err.message(), "recursion limit reached");
    }
}

#[test]
fn what_an_any_packs_nests_counted_afresh() {
    // 90 levels, an Any, 60 more: prost decodes the Any's value apart, so
    // neither reaches its limit of 100.
    let url = "type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3";
    let mut packed = Vec::new();
    put_message(305, &any(url, &nested(60, Vec::new())), &mut packed);
    let json = to_json(&proto3(), &nested(90, packed));
    assert_eq!(json.matches("recursiveMessage").count(), 150);
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

#[test]
fn values_not_written_are_still_checked_as_prost_reads_them() {
    // prost decodes every value it meets, so a malformed one is an error
    // even where a later value replaces it (found by the `dynamic` fuzz
    // target): a map entry replaced by one of the same key (""), whose
    // nested message has a varint for its `corecursive`; a string replaced
    // by a later one; a oneof member replaced by another; an Any's type URL.
    let m = proto3();
    for (input, path) in [
        (
            &b"\xba\x04\x04\x12\x02\x10\x10\xba\x04\x04\x90\xa0\x07\x79"[..],
            r#"mapStringNestedMessage[""].corecursive"#,
        ),
        (b"\x72\x01\xff\x72\x01a", "optionalString"),
        (
            b"\x82\x07\x02\x10\x10\xf8\x06\x01",
            "oneofNestedMessage.corecursive",
        ),
        (b"\x8a\x13\x05\x0a\x01\xff\x0a\x00", "optionalAny"),
    ] {
        let err = m.binary_to_json(input, &EncodeOptions::new()).unwrap_err();
        assert_eq!(err.kind(), protojsonx_dynamic::ErrorKind::Binary, "{err}");
        assert_eq!(err.path_string(), path);
    }
}

#[test]
fn a_map_entry_with_its_message_value_twice_merges_them() {
    // {"k": {a: 1}} then, in the same entry, {corecursive: {optionalInt32: 2}}.
    let input = b"\xba\x04\x0d\x0a\x01k\x12\x02\x08\x01\x12\x04\x12\x02\x08\x02";
    assert_eq!(
        to_json(&proto3(), input),
        r#"{"mapStringNestedMessage":{"k":{"a":1,"corecursive":{"optionalInt32":2}}}}"#
    );
}

/// Appends varint field `number` with `value` to `out`.
fn put_varint(number: u32, value: u64, out: &mut Vec<u8>) {
    prost::encoding::encode_key(number, prost::encoding::WireType::Varint, out);
    prost::encoding::encode_varint(value, out);
}

/// `TestAllTypesProto3` with `body` as its `optional_nested_message`: a
/// `NestedMessage` (`a = 1`, `corecursive = 2`), whose fields are all
/// singular, so the transcoder tries to write it in one pass.
fn in_nested_message(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    put_message(18, body, &mut out);
    out
}

#[test]
fn a_single_pass_gives_way_to_fields_out_of_order_or_met_twice() {
    let m = proto3();
    let mut inner = Vec::new();
    put_varint(1, 3, &mut inner);
    let mut twice = Vec::new();
    put_varint(1, 1, &mut twice);
    put_varint(1, 2, &mut twice);
    let mut out_of_order = Vec::new();
    put_message(2, &inner, &mut out_of_order);
    put_varint(1, 5, &mut out_of_order);
    let mut merged = Vec::new();
    put_message(2, &inner, &mut merged);
    let mut other = Vec::new();
    put_varint(2, 4, &mut other);
    put_message(2, &other, &mut merged);
    let cases: [(&[u8], &str); 4] = [
        (&twice, r#"{"optionalNestedMessage":{"a":2}}"#),
        (
            &out_of_order,
            r#"{"optionalNestedMessage":{"a":5,"corecursive":{"optionalInt32":3}}}"#,
        ),
        (
            &merged,
            r#"{"optionalNestedMessage":{"corecursive":{"optionalInt32":3,"optionalInt64":"4"}}}"#,
        ),
        (b"", r#"{"optionalNestedMessage":{}}"#),
    ];
    for (body, json) in cases {
        assert_eq!(to_json(&m, &in_nested_message(body)), json);
    }
}

#[test]
fn a_single_pass_that_fails_reports_the_two_pass_error() {
    // corecursive with a string that is not UTF-8, then `a` with the wrong
    // wire type: a single pass meets the string first, the two-pass writer
    // (used for every message when unpopulated fields are written) reads
    // all fields first and reports the wire type.
    let mut bad_string = Vec::new();
    put_message(14, b"\xff", &mut bad_string);
    let mut body = Vec::new();
    put_message(2, &bad_string, &mut body);
    put_message(1, b"", &mut body);
    let input = in_nested_message(&body);
    let m = proto3();
    let one_pass = m.binary_to_json(&input, &EncodeOptions::new()).unwrap_err();
    let two_passes = m
        .binary_to_json(&input, &EncodeOptions::new().emit_unpopulated(true))
        .unwrap_err();
    assert_eq!(one_pass.to_string(), two_passes.to_string());
    assert!(one_pass.to_string().contains("wire type"), "{one_pass}");
}

#[test]
fn duplicate_map_keys_are_found_in_maps_small_and_large() {
    let m = proto3();
    let read = |json: &str| m.json_to_binary(json.as_bytes(), &DecodeOptions::new());
    let long = "x".repeat(200);
    for count in [1, 15, 16, 17, 40] {
        let entries: Vec<String> = (0..count).map(|i| format!(r#""k{i}":"{long}""#)).collect();
        let unique = format!(r#"{{"mapStringString":{{{}}}}}"#, entries.join(","));
        let binary = read(&unique).unwrap();
        assert_eq!(to_json(&m, &binary).matches(&long).count(), count);
        for again in [0, count - 1] {
            let duplicated = format!(
                r#"{{"mapStringString":{{{},"k{again}":"y"}}}}"#,
                entries.join(",")
            );
            let err = read(&duplicated).unwrap_err();
            assert!(
                err.to_string().contains("duplicate"),
                "{count} {again}: {err}"
            );
        }
    }
}

#[test]
fn an_any_in_a_single_pass_that_gives_up_is_written_again_with_it() {
    // NestedMessage (one pass) > corecursive > optional_any packing a
    // NestedMessage whose fields are out of order: its pass gives up.
    let mut inner = Vec::new();
    put_varint(1, 3, &mut inner);
    let mut packed = Vec::new();
    put_message(2, &inner, &mut packed);
    put_varint(1, 5, &mut packed);
    let url = "type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3.NestedMessage";
    let mut corecursive = Vec::new();
    put_message(305, &any(url, &packed), &mut corecursive);
    let mut body = Vec::new();
    put_message(2, &corecursive, &mut body);
    assert_eq!(
        to_json(&proto3(), &in_nested_message(&body)),
        format!(
            r#"{{"optionalNestedMessage":{{"corecursive":{{"optionalAny":{{"@type":"{url}","a":5,"corecursive":{{"optionalInt32":3}}}}}}}}}}"#
        )
    );
}

#[test]
fn strings_and_bytes_are_decoded_straight_into_the_output() {
    // optional_string (14) and optional_bytes (15), short and long (a
    // length of two bytes moves the content), plain, escaped and not
    // ASCII, and in a repeated field (44) and a map value (map_string_string, 69).
    let m = proto3();
    let long = "é\\n\\\"x\\ud83d\\ude00".repeat(40);
    let text = long
        .replace("\\n", "\n")
        .replace("\\\"", "\"")
        .replace("\\ud83d\\ude00", "\u{1f600}");
    let bytes = vec![0xa5u8; 200];
    let b64 = "paWl".repeat(200 / 3) + "paU=";
    let json = format!(
        r#"{{"optionalString":"{long}","optionalBytes":"{b64}","repeatedString":["a\tb","",""],"mapStringString":{{"k\u00e9":"{long}"}}}}"#
    );
    let binary = m
        .json_to_binary(json.as_bytes(), &DecodeOptions::new())
        .unwrap();
    let mut want = Vec::new();
    put_message(14, text.as_bytes(), &mut want);
    put_message(15, &bytes, &mut want);
    for s in ["a\tb", "", ""] {
        put_message(44, s.as_bytes(), &mut want);
    }
    let mut entry = Vec::new();
    put_message(1, "ké".as_bytes(), &mut entry);
    put_message(2, text.as_bytes(), &mut entry);
    put_message(69, &entry, &mut want);
    assert_eq!(binary, want);
    // A bad escape late in a long string fails, leaving nothing behind.
    let bad = format!(r#"{{"optionalString":"{long}\x"}}"#);
    let mut out = b"kept".to_vec();
    let err = m
        .json_to_binary_into(bad.as_bytes(), &DecodeOptions::new(), &mut out)
        .unwrap_err();
    assert!(err.to_string().contains("invalid escape"), "{err}");
    assert_eq!(out, b"kept");
}

#[test]
fn struct_list_and_value_are_transcoded_from_their_fields() {
    let m = proto3();
    // optional_value (306) null: Value { null_value: NULL_VALUE }.
    let null = m
        .json_to_binary(br#"{"optionalValue": null}"#, &DecodeOptions::new())
        .unwrap();
    assert_eq!(null, b"\x92\x13\x02\x08\x00");
    let json =
        r#"{"optionalStruct":{"a":[1.5,"x",true,null,{},[]],"b":{"c":""}},"optionalValue":0}"#;
    assert_eq!(round_trip(&m, json), json);
    // Struct keys come out sorted, the last of equal keys kept (binary may
    // repeat them); a Value with no kind set, or NaN, cannot be written.
    let mut fields = Vec::new();
    for (key, value) in [("b", b"\x20\x01"), ("a", b"\x20\x00"), ("b", b"\x20\x00")] {
        let mut entry = Vec::new();
        put_message(1, key.as_bytes(), &mut entry);
        put_message(2, value, &mut entry);
        put_message(1, &entry, &mut fields);
    }
    let mut input = Vec::new();
    put_message(304, &fields, &mut input);
    assert_eq!(
        to_json(&m, &input),
        r#"{"optionalStruct":{"a":false,"b":false}}"#
    );
    let opts = EncodeOptions::new();
    let err = m.binary_to_json(b"\x92\x13\x00", &opts).unwrap_err();
    assert_eq!(err.to_string(), "google.protobuf.Value has no kind set");
    let nan = m
        .binary_to_json(b"\x92\x13\x09\x11\x00\x00\x00\x00\x00\x00\xf8\x7f", &opts)
        .unwrap_err();
    assert_eq!(
        nan.to_string(),
        "google.protobuf.Value cannot hold NaN: JSON numbers are finite"
    );
}

/// A `@type` member written as encoders write it (`"@type":"…"`) is found
/// and stepped over without tokenizing; any other spelling is read as a
/// key. Both transcode to the same bytes and fail alike, whatever follows.
#[test]
fn the_leading_type_member_of_an_any_reads_as_any_other_spelling() {
    let m = proto3();
    let url = "type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3";
    let escaped = url.replace('/', "\\/");
    let rests = [
        "}",
        r#","optionalInt32":3}"#,
        r#","optionalString":"a","optionalInt32":3}"#,
        r#","optionalInt32":3,"optionalInt32":4}"#,
        r#","optionalInt32":3,"@type":"x"}"#,
        r#","unknown":1}"#,
        r#","optionalAny":{"@type":"type.googleapis.com/google.protobuf.Duration","value":"1s"}}"#,
        r#","optionalInt32":"#,
        ",}",
        "",
    ];
    for rest in rests {
        let lead = format!(r#"{{"optionalAny":{{"@type":"{url}"{rest}}}"#);
        let others = [
            format!(r#"{{"optionalAny":{{ "@type":"{url}"{rest}}}"#),
            format!(r#"{{"optionalAny":{{"\u0040type":"{url}"{rest}}}"#),
            format!(r#"{{"optionalAny":{{"@type":"{escaped}"{rest}}}"#),
        ];
        for opts in [
            DecodeOptions::new(),
            DecodeOptions::new().ignore_unknown_fields(true),
        ] {
            let read = |json: &str| {
                m.json_to_binary(json.as_bytes(), &opts)
                    .map_err(|e| e.message().to_string())
            };
            let want = read(&lead);
            for other in &others {
                assert_eq!(read(other), want, "{lead} against {other}");
            }
        }
    }
    let json = format!(r#"{{"optionalAny":{{"@type":"{url}","optionalInt32":3}}}}"#);
    assert_eq!(round_trip(&m, &json), json);
}
