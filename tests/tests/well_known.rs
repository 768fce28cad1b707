//! Well-known types in every position (singular, repeated, map value, oneof
//! member, top level, inside Any), from prost-types and compiled into the crate.

use prost::Message;
use prost_types::value::Kind;
use prost_types::{Any, Duration, FieldMask, ListValue, Struct, Timestamp, Value};
use protojsonx_runtime::{ErrorKind, ProtoJson};
use protojsonx_tests::protojsonx::compiled::Compiled;
use protojsonx_tests::protojsonx::test::{self, Scalars, WellKnown, well_known};

fn value(kind: Kind) -> Value {
    Value { kind: Some(kind) }
}

fn sample() -> WellKnown {
    let scalars = Scalars {
        f_int32: 7,
        ..Default::default()
    };
    WellKnown {
        ts: Some(Timestamp {
            seconds: 1_700_000_000,
            nanos: 120_000_000,
        }),
        dur: Some(Duration {
            seconds: -1,
            nanos: -500_000_000,
        }),
        i32: Some(0),
        i64s: vec![1, -2],
        st: Some(Struct {
            fields: [(
                "a".to_string(),
                value(Kind::ListValue(ListValue {
                    values: vec![value(Kind::BoolValue(true))],
                })),
            )]
            .into(),
        }),
        val: Some(value(Kind::NullValue(0))),
        vals: vec![
            value(Kind::NumberValue(1.5)),
            value(Kind::StringValue("s".into())),
            value(Kind::NullValue(0)),
        ],
        list: Some(ListValue { values: vec![] }),
        null: 0,
        mask: Some(FieldMask {
            paths: vec!["f_int32".into(), "rep_msg.f_bool".into()],
        }),
        any: Some(Any {
            type_url: "type.googleapis.com/protojsonx.test.Scalars".into(),
            value: scalars.encode_to_vec(),
        }),
        empty: Some(()),
        val_map: [("n".to_string(), value(Kind::NullValue(0)))].into(),
        ts_map: [(
            "t".to_string(),
            Timestamp {
                seconds: 0,
                nanos: 0,
            },
        )]
        .into(),
        bytes: Some(vec![1, 2]),
        str: Some(String::new()),
        wk: Some(well_known::Wk::ONull(0)),
    }
}

const SAMPLE_JSON: &str = concat!(
    r#"{"ts":"2023-11-14T22:13:20.120Z","dur":"-1.500s","i32":0,"i64s":["1","-2"],"st":{"a":[true]},"#,
    r#""val":null,"vals":[1.5,"s",null],"list":[],"mask":"fInt32,repMsg.fBool","#,
    r#""any":{"@type":"type.googleapis.com/protojsonx.test.Scalars","fInt32":7},"empty":{},"#,
    r#""valMap":{"n":null},"tsMap":{"t":"1970-01-01T00:00:00Z"},"bytes":"AQI=","str":"","oNull":null}"#
);

#[test]
fn every_position_writes_the_special_forms() {
    test::register_protojsonx_types();
    assert_eq!(sample().to_json().unwrap(), SAMPLE_JSON);
}

#[test]
fn every_position_reads_back() {
    test::register_protojsonx_types();
    assert_eq!(WellKnown::from_json(SAMPLE_JSON).unwrap(), sample());
}

#[test]
fn compiled_well_known_types_have_the_same_json() {
    test::register_protojsonx_types();
    let compiled = Compiled::decode(sample().encode_to_vec().as_slice()).unwrap();
    assert_eq!(compiled.to_json().unwrap(), SAMPLE_JSON);
    let back = Compiled::from_json(SAMPLE_JSON).unwrap();
    assert_eq!(back, compiled);
}

#[test]
fn null_is_a_value_only_for_value_and_null_value() {
    let m = WellKnown::from_json(
        r#"{"val": null, "null": null, "ts": null, "i32": null, "oVal": null}"#,
    )
    .unwrap();
    assert_eq!(m.val, Some(value(Kind::NullValue(0))));
    assert_eq!((m.null, m.ts, m.i32), (0, None, None));
    assert_eq!(m.wk, Some(well_known::Wk::OVal(value(Kind::NullValue(0)))));
    let err = WellKnown::from_json(r#"{"i64s": [null]}"#).unwrap_err();
    assert_eq!(err.path_string(), "i64s[0]");
    // A map of Values set to null is not set, as in Go and Python (its
    // values may be null, the map itself is not a Value).
    let mut m = sample();
    m.merge_json(r#"{"valMap": null}"#).unwrap();
    assert_eq!(m.val_map, sample().val_map);
    let mut m = sample();
    protojsonx_runtime::decode_into(&mut m, br#"{"valMap": null}"#).unwrap();
    assert!(m.val_map.is_empty());
    let m = WellKnown::from_json(r#"{"valMap": {"n": null}}"#).unwrap();
    assert_eq!(m.val_map["n"], value(Kind::NullValue(0)));
}

#[test]
fn well_known_types_as_top_level_messages() {
    let ts = Timestamp::from_json(r#""1970-01-01T01:00:00+01:00""#).unwrap();
    assert_eq!(
        ts,
        Timestamp {
            seconds: 0,
            nanos: 0
        }
    );
    assert_eq!(
        Duration {
            seconds: 3,
            nanos: 0
        }
        .to_json()
        .unwrap(),
        r#""3s""#
    );
    let v = Value::from_json(r#"{"k": [1, "x", null, {"n": false}]}"#).unwrap();
    assert_eq!(v.to_json().unwrap(), r#"{"k":[1,"x",null,{"n":false}]}"#);
    assert_eq!(i64::from_json(r#""-5""#).unwrap(), -5);
    assert_eq!(<()>::from_json("{}").unwrap(), ());
}

#[test]
fn out_of_range_values_fail_both_ways() {
    let too_late = Timestamp {
        seconds: 253_402_300_800,
        nanos: 0,
    };
    assert_eq!(too_late.to_json().unwrap_err().kind(), ErrorKind::Encode);
    assert!(Timestamp::from_json(r#""10000-01-01T00:00:00Z""#).is_err());
    let too_long = Duration {
        seconds: 315_576_000_001,
        nanos: 0,
    };
    assert_eq!(too_long.to_json().unwrap_err().kind(), ErrorKind::Encode);
    assert!(Duration::from_json(r#""315576000001s""#).is_err());
    let nan = value(Kind::NumberValue(f64::NAN));
    assert_eq!(nan.to_json().unwrap_err().kind(), ErrorKind::Encode);
}

#[test]
fn any_resolves_registered_types_with_type_anywhere() {
    test::register_protojsonx_types();
    let json = r#"{"fInt32": 7, "@type": "type.googleapis.com/protojsonx.test.Scalars"}"#;
    let any = Any::from_json(json).unwrap();
    assert_eq!(Scalars::decode(any.value.as_slice()).unwrap().f_int32, 7);
    let nested = Any {
        type_url: "type.googleapis.com/google.protobuf.Any".into(),
        value: any.encode_to_vec(),
    };
    let text = nested.to_json().unwrap();
    assert_eq!(
        text,
        r#"{"@type":"type.googleapis.com/google.protobuf.Any","value":{"@type":"type.googleapis.com/protojsonx.test.Scalars","fInt32":7}}"#
    );
    assert_eq!(Any::from_json(&text).unwrap(), nested);
    let wkt = Any {
        type_url: "type.googleapis.com/google.protobuf.Duration".into(),
        value: Duration {
            seconds: 1,
            nanos: 0,
        }
        .encode_to_vec(),
    };
    assert_eq!(
        wkt.to_json().unwrap(),
        r#"{"@type":"type.googleapis.com/google.protobuf.Duration","value":"1s"}"#
    );
    let unknown = Any::from_json(r#"{"@type": "type.googleapis.com/no.Such"}"#).unwrap_err();
    assert!(unknown.to_string().contains("no.Such"), "{unknown}");
}
