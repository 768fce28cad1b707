//! Reproductions of problems found by the fuzzers and the differential test,
//! kept as regression tests once fixed.

use protojsonx_robustness::protobuf_test_messages::proto3::TestAllTypesProto3;
use protojsonx_runtime::ProtoJson;

/// Found by the `decode_proto3` fuzz target: `{"optionalNullValue": 5.0}`
/// decodes (5 is stored, as an unknown value of the open enum), but is
/// written back as `{"optionalNullValue":null}`, which decodes to 0, so
/// decode → encode → decode loses the value. Fixed: decoding rejects numbers
/// other than 0 for a `NullValue` field.
#[test]
fn null_value_field_round_trips() {
    for input in [
        r#"{"optionalNullValue": 5.0}"#,
        r#"{"optionalNullValue": 5}"#,
    ] {
        let Ok(msg) = TestAllTypesProto3::from_json(input) else {
            continue; // rejecting the number is a fix too
        };
        let json = msg.to_json().expect("encode");
        let back = TestAllTypesProto3::from_json(&json).expect("decode our output");
        assert_eq!(back, msg, "{input} -> {json}");
    }
}
