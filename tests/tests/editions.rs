//! An `edition = "2023"` file end to end: the prost structs have the
//! presence, encoding and packing its features say, their ProtoJSON is the
//! standard mapping's, and the dynamic transcoder, reading protoc's own
//! descriptors of the file, agrees with the generated code both ways.

use prost::Message;
use protojsonx_dynamic::{DecodeOptions, EncodeOptions, Pool};
use protojsonx_runtime::ProtoJson;
use protojsonx_tests::protojsonx::editions::{Colour, Editions, OpenColour, editions};

fn full() -> Editions {
    let inner = |value| editions::Inner { value: Some(value) };
    Editions {
        count: Some(0),
        name: Some("n".into()),
        colour: Some(Colour::Green as i32),
        total: -5,
        blob: b"\x00\xff".to_vec(),
        open_colour: OpenColour::Blue as i32,
        id: "id-1".into(),
        required_inner: inner(1),
        group: Some(inner(2)),
        groups: vec![inner(3), editions::Inner::default()],
        choice: Some(editions::Choice::GroupChoice(inner(4))),
        packed: vec![-1, 0, 1],
        expanded: vec![Colour::Red as i32, Colour::Green as i32],
        inners: [("k".to_string(), inner(5))].into(),
        at: Some(prost_types::Timestamp {
            seconds: 1,
            nanos: 0,
        }),
    }
}

#[test]
fn explicit_fields_are_written_when_set_implicit_ones_when_not_zero() {
    assert_eq!(
        Editions::default().to_json().unwrap(),
        r#"{"id":"","requiredInner":{}}"#
    );
    let zeros = Editions {
        count: Some(0),
        colour: Some(0),
        ..Editions::default()
    };
    assert_eq!(
        zeros.to_json().unwrap(),
        r#"{"count":0,"colour":"COLOUR_UNSPECIFIED","id":"","requiredInner":{}}"#
    );
}

#[test]
fn json_round_trips() {
    let json = full().to_json().unwrap();
    assert_eq!(
        json,
        concat!(
            r#"{"count":0,"name":"n","colour":"COLOUR_GREEN","total":"-5","blob":"AP8=","#,
            r#""openColour":"OPEN_COLOUR_BLUE","id":"id-1","requiredInner":{"value":1},"#,
            r#""group":{"value":2},"groups":[{"value":3},{}],"groupChoice":{"value":4},"#,
            r#""packed":[-1,0,1],"expanded":["COLOUR_RED","COLOUR_GREEN"],"#,
            r#""inners":{"k":{"value":5}},"at":"1970-01-01T00:00:01Z"}"#
        )
    );
    assert_eq!(Editions::from_json(&json).unwrap(), full());
}

#[test]
fn delimited_fields_are_groups_and_expanded_ones_a_record_per_element() {
    let group = Editions {
        group: Some(editions::Inner { value: Some(1) }),
        expanded: vec![1, 2],
        ..Editions::default()
    };
    let bytes = group.encode_to_vec();
    // The required fields, then field 9 as a group, then field 14 expanded.
    let required = [7 << 3 | 2, 0, 8 << 3 | 2, 0];
    let group_bytes = [9 << 3 | 3, 1 << 3, 1, 9 << 3 | 4];
    let expanded = [14 << 3, 1, 14 << 3, 2];
    assert_eq!(bytes, [&required[..], &group_bytes, &expanded].concat());
}

/// protoc's descriptors of the file, as `protoc --include_imports -o` writes them.
fn protoc_pool() -> Pool {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("proto");
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("editions.binpb");
    let status = std::process::Command::new(protoc_bin_vendored::protoc_bin_path().unwrap())
        .arg(format!("--proto_path={}", root.display()))
        .arg("--include_imports")
        .arg(format!("--descriptor_set_out={}", out.display()))
        .arg("protojsonx/editions/editions.proto")
        .status()
        .unwrap();
    assert!(status.success());
    Pool::decode(&std::fs::read(&out).unwrap()).unwrap()
}

#[test]
fn the_dynamic_transcoder_agrees_with_the_generated_code() {
    let pool = protoc_pool();
    let message = pool.message("protojsonx.editions.Editions").unwrap();
    for value in [full(), Editions::default()] {
        let binary = value.encode_to_vec();
        let json = message
            .binary_to_json(&binary, &EncodeOptions::new())
            .unwrap();
        assert_eq!(String::from_utf8(json).unwrap(), value.to_json().unwrap());
        let back = message
            .json_to_binary(value.to_json().unwrap().as_bytes(), &DecodeOptions::new())
            .unwrap();
        assert_eq!(Editions::decode(back.as_slice()).unwrap(), value);
    }
}

/// With `current_descriptor_types`, fields of the current schema that
/// prost-types lacks keep their values through JSON.
#[test]
fn current_descriptor_types_keep_every_field() {
    use protojsonx_tests::protojsonx::current::Embeds;
    let json = concat!(
        r#"{"api":{"name":"a.B","methods":[{"name":"Get","edition":"2023"}],"edition":"2023"},"#,
        r#""schema":{"name":"M","enumType":[{"name":"E","visibility":"VISIBILITY_LOCAL"}],"#,
        r#""visibility":"VISIBILITY_EXPORT"},"enums":[{"name":"E","edition":"2024"}]}"#
    );
    let embeds = Embeds::from_json(json).unwrap();
    assert_eq!(embeds.api.as_ref().unwrap().edition, "2023");
    assert_eq!(embeds.to_json().unwrap(), json);
    let binary = embeds.encode_to_vec();
    assert_eq!(Embeds::decode(binary.as_slice()).unwrap(), embeds);
}

/// A closed enum is an `i32` field, as proto2's are in prost: like Go's
/// protojson (Python refuses it), JSON keeps a number the enum does not
/// name, the generated code and the dynamic transcoder alike.
#[test]
fn closed_enums_keep_unknown_numbers_in_json() {
    let json = r#"{"colour":7,"id":"","requiredInner":{},"expanded":[1,9]}"#;
    let value = Editions::from_json(json).unwrap();
    assert_eq!(
        (value.colour, value.expanded.as_slice()),
        (Some(7), &[1, 9][..])
    );
    assert_eq!(
        value.to_json().unwrap(),
        r#"{"colour":7,"id":"","requiredInner":{},"expanded":["COLOUR_RED",9]}"#
    );
    let message = protoc_pool()
        .message("protojsonx.editions.Editions")
        .unwrap();
    let binary = message
        .json_to_binary(json.as_bytes(), &DecodeOptions::new())
        .unwrap();
    assert_eq!(Editions::decode(binary.as_slice()).unwrap(), value);
}
