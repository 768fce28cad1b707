//! Pins the text of representative errors, so that a change to what a person
//! reads is a deliberate one: each decode error names what was expected and
//! what was found (or what is wrong with it), the field path, and the line
//! and column; encode errors name the value that cannot be written.

use protojsonx_robustness::protobuf_test_messages::proto3::TestAllTypesProto3;
use protojsonx_runtime::{DecodeOptions, ErrorKind, PathSegment, ProtoJson};

/// `(input, Display text, kind)`: decoded as `TestAllTypesProto3` with `max_depth(3)`.
const DECODE_ERRORS: &[(&[u8], &str, ErrorKind)] = &[
    (
        br#"{"optionalNestedMessage": {"a": "x"}}"#,
        "invalid value for int32: invalid number at `optionalNestedMessage.a` (line 1, column 33)",
        ErrorKind::InvalidValue,
    ),
    (
        br#"{"repeatedInt32": [1, 2, "x"]}"#,
        "invalid value for int32: invalid number at `repeatedInt32[2]` (line 1, column 26)",
        ErrorKind::InvalidValue,
    ),
    (
        br#"{"mapStringNestedMessage": {"k": {"a": true}}}"#,
        "expected int32, found boolean at `mapStringNestedMessage[\"k\"].a` (line 1, column 40)",
        ErrorKind::InvalidValue,
    ),
    (
        b"{\"optionalInt32\": 1,\n  \"bogus\": 2}",
        "unknown field at `bogus` (line 2, column 12)",
        ErrorKind::UnknownField,
    ),
    (
        br#"{"optionalInt32": 1, "optionalInt32": 2}"#,
        "duplicate field at `optionalInt32` (line 1, column 39)",
        ErrorKind::DuplicateField,
    ),
    (
        br#"{"oneofUint32": 1, "oneofString": "x"}"#,
        "more than one field of oneof `oneof_field` is set at `oneofString` (line 1, column 35)",
        ErrorKind::DuplicateField,
    ),
    (
        br#"{"optionalInt32": "#,
        "expected int32, found end of input at `optionalInt32` (line 1, column 19)",
        ErrorKind::Eof,
    ),
    (
        br#"{"optionalInt32": 1,}"#,
        "trailing comma (line 1, column 21)",
        ErrorKind::Syntax,
    ),
    (
        br#"{"optionalValue": [1, 2, ]}"#,
        "trailing comma at `optionalValue` (line 1, column 26)",
        ErrorKind::Syntax,
    ),
    (
        br#"{"optionalInt32": 2147483648}"#,
        "invalid value for int32: number out of range at `optionalInt32` (line 1, column 19)",
        ErrorKind::InvalidValue,
    ),
    (
        br#"{"optionalDouble": "1e999"}"#,
        "invalid value for double: number out of range at `optionalDouble` (line 1, column 20)",
        ErrorKind::InvalidValue,
    ),
    (
        br#"{"optionalBytes": "QQ="}"#,
        "invalid value for bytes: invalid base64 padding at `optionalBytes` (line 1, column 19)",
        ErrorKind::InvalidValue,
    ),
    (
        br#"{"optionalTimestamp": "1970-01-01T00:00:00"}"#,
        "invalid value for google.protobuf.Timestamp: expected a time zone: 'Z' or an offset \
         like \"+01:00\" at `optionalTimestamp` (line 1, column 23)",
        ErrorKind::InvalidValue,
    ),
    (
        br#"{"optionalDuration": "1"}"#,
        "invalid value for google.protobuf.Duration: expected seconds with the suffix 's', \
         like \"1.5s\" or \"-0.001s\" at `optionalDuration` (line 1, column 22)",
        ErrorKind::InvalidValue,
    ),
    (
        br#"{"optionalNestedEnum": "NOPE"}"#,
        "unknown value \"NOPE\" for enum protobuf_test_messages.proto3.TestAllTypesProto3.NestedEnum \
         at `optionalNestedEnum` (line 1, column 24)",
        ErrorKind::InvalidValue,
    ),
    (
        b"{\"optionalString\": \"\xff\"}",
        "invalid UTF-8 in string at `optionalString` (line 1, column 21)",
        ErrorKind::Syntax,
    ),
    (
        br#"{"optionalAny": {"@type": "type.googleapis.com/no.Such"}}"#,
        "unknown message type \"no.Such\" in google.protobuf.Any (type URL \
         \"type.googleapis.com/no.Such\"): register it with protojsonx_runtime::register, or call \
         the register_protojsonx_types() function generated for its package at `optionalAny.@type` \
         (line 1, column 27)",
        ErrorKind::InvalidValue,
    ),
    (
        br#"{"recursiveMessage": {"recursiveMessage": {"recursiveMessage": {}}}}"#,
        "nesting too deep at `recursiveMessage.recursiveMessage.recursiveMessage` (line 1, column 64)",
        ErrorKind::DepthLimit,
    ),
    (
        br#"{"repeatedNestedMessage": [{}, {"corecursive": {"mapInt32Int32": {"x": 1}}}]}"#,
        "nesting too deep at `repeatedNestedMessage[1].corecursive` (line 1, column 48)",
        ErrorKind::DepthLimit,
    ),
];

#[test]
fn decode_error_texts() {
    protojsonx_robustness::register_all();
    let opts = DecodeOptions::new().max_depth(3);
    for (input, text, kind) in DECODE_ERRORS {
        let err = TestAllTypesProto3::from_json_with(input, &opts)
            .expect_err(&String::from_utf8_lossy(input));
        assert_eq!(
            err.to_string(),
            *text,
            "for {}",
            String::from_utf8_lossy(input)
        );
        assert_eq!(err.kind(), *kind, "for {}", String::from_utf8_lossy(input));
    }
}

/// Columns count characters, not bytes: `é` is two bytes, one column.
#[test]
fn columns_count_characters() {
    let input = "{\"optionalString\": \"é\", \"x\": 1}";
    let err = TestAllTypesProto3::from_json(input).expect_err("unknown field");
    assert_eq!((err.line(), err.column()), (1, 30));
    assert_eq!(err.offset(), input.find('1').expect("value"));
}

/// The structured accessors agree with the text.
#[test]
fn path_segments_and_location() {
    let input = b"{\n \"mapStringNestedMessage\": {\"k\": {\"corecursive\": {\"repeatedInt32\": [0, true]}}}}";
    let err = TestAllTypesProto3::from_json(input).expect_err("bool for int32");
    let path: Vec<PathSegment> = err.path().cloned().collect();
    assert_eq!(
        path,
        [
            PathSegment::Field("mapStringNestedMessage".into()),
            PathSegment::Key("k".into()),
            PathSegment::Field("corecursive".into()),
            PathSegment::Field("repeatedInt32".into()),
            PathSegment::Index(1),
        ]
    );
    assert_eq!(
        err.path_string(),
        "mapStringNestedMessage[\"k\"].corecursive.repeatedInt32[1]"
    );
    assert_eq!(err.message(), "expected int32, found boolean");
    assert_eq!(err.line(), 2);
    assert_eq!(&input[err.offset()..err.offset() + 4], b"true");
}

/// Encode errors have no input location: the text names the value.
#[test]
fn encode_error_texts() {
    use prost_types::{Any, Duration, Timestamp};
    let cases = [
        (
            TestAllTypesProto3 {
                optional_timestamp: Some(Timestamp {
                    seconds: i64::MAX,
                    nanos: 0,
                }),
                ..Default::default()
            },
            "google.protobuf.Timestamp out of range: seconds 9223372036854775807, nanos 0 \
             (valid: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z)",
        ),
        (
            TestAllTypesProto3 {
                repeated_duration: vec![Duration {
                    seconds: 1,
                    nanos: -1,
                }],
                ..Default::default()
            },
            "google.protobuf.Duration has seconds and nanos of different signs: seconds 1, nanos -1",
        ),
        (
            TestAllTypesProto3 {
                optional_any: Some(Any {
                    type_url: "type.googleapis.com/no.Such".into(),
                    value: vec![],
                }),
                ..Default::default()
            },
            "unknown message type \"no.Such\" in google.protobuf.Any (type URL \
             \"type.googleapis.com/no.Such\"): register it with protojsonx_runtime::register, or \
             call the register_protojsonx_types() function generated for its package",
        ),
    ];
    for (msg, text) in cases {
        let err = msg.to_json().expect_err(text);
        assert_eq!(err.to_string(), text);
        assert_eq!(
            (err.kind(), err.line(), err.column()),
            (ErrorKind::Encode, 0, 0)
        );
    }
}
