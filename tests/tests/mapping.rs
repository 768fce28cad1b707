//! The ProtoJSON mapping of generated code, end to end: exact output for
//! known messages, every accepted input form, and the errors for bad input.

use std::collections::HashMap;

use protojsonx_runtime::{DecodeOptions, EncodeOptions, ErrorKind, ProtoJson};
use protojsonx_tests::protojsonx::legacy::{self, Child, Legacy};
use protojsonx_tests::protojsonx::names::{self, Conflict, Self_, TrafficLight, Type};
use protojsonx_tests::protojsonx::other::{Remote, remote};
use protojsonx_tests::protojsonx::test::{
    Aliased, Color, Maps, Nothing, Oneofs, Outer, Scalars, Tree, oneofs, outer, tree,
};
use protojsonx_tests::protojsonx::variants::{Variants, variants};

fn json<M: ProtoJson>(m: &M) -> String {
    m.to_json().expect("encodes")
}

fn decode<M: ProtoJson>(json: &str) -> M {
    M::from_json(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

fn decode_err<M: ProtoJson + std::fmt::Debug>(json: &str) -> protojsonx_runtime::Error {
    match M::from_json(json) {
        Ok(m) => panic!("{json} was accepted as {m:?}"),
        Err(e) => e,
    }
}

fn full_scalars() -> Scalars {
    Scalars {
        f_double: 1.5,
        f_float: 0.1,
        f_int64: -9_007_199_254_740_993,
        f_uint64: u64::MAX,
        f_int32: i32::MIN,
        f_fixed64: 7,
        f_fixed32: u32::MAX,
        f_bool: true,
        f_string: "héllo \"q\" \n\u{1}".into(),
        f_bytes: vec![0, 0xff, 0x10],
        f_uint32: 3,
        f_sfixed32: -4,
        f_sfixed64: -5,
        f_sint32: -6,
        f_sint64: i64::MIN,
        color: Color::Green as i32,
        opt_int32: Some(0),
        opt_string: Some(String::new()),
        opt_color: Some(Color::Unspecified as i32),
        rep_int64: vec![1, -2],
        rep_string: vec!["a".into(), "".into()],
        rep_color: vec![1, 99],
        rep_msg: vec![
            Scalars {
                f_int32: 1,
                ..Default::default()
            },
            Scalars::default(),
        ],
        rep_bytes: vec![b"hi".to_vec()],
        custom_json: "c".into(),
        aliased: Aliased::One as i32,
        rep_double: vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 1e300],
    }
}

const FULL_SCALARS_JSON: &str = concat!(
    r#"{"fDouble":1.5,"fFloat":0.1,"fInt64":"-9007199254740993","fUint64":"18446744073709551615","#,
    r#""fInt32":-2147483648,"fFixed64":"7","fFixed32":4294967295,"fBool":true,"#,
    r#""fString":"héllo \"q\" \n\u0001","fBytes":"AP8Q","fUint32":3,"fSfixed32":-4,"fSfixed64":"-5","#,
    r#""fSint32":-6,"fSint64":"-9223372036854775808","color":"COLOR_GREEN","optInt32":0,"optString":"","#,
    r#""optColor":"COLOR_UNSPECIFIED","repInt64":["1","-2"],"repString":["a",""],"repColor":["COLOR_RED",99],"#,
    r#""repMsg":[{"fInt32":1},{}],"repBytes":["aGk="],"customName":"c","aliased":"ALIASED_ONE","#,
    r#""repDouble":["NaN","Infinity","-Infinity",-0,1e+300]}"#
);

#[test]
fn every_scalar_is_written_in_its_protojson_form() {
    assert_eq!(json(&full_scalars()), FULL_SCALARS_JSON);
}

#[test]
fn what_is_written_reads_back() {
    let back: Scalars = decode(FULL_SCALARS_JSON);
    let mut want = full_scalars();
    assert!(back.rep_double[0].is_nan());
    want.rep_double[0] = 0.0;
    let mut got = back;
    got.rep_double[0] = 0.0;
    assert_eq!(got, want);
}

#[test]
fn defaults_are_left_out_unless_asked_for() {
    assert_eq!(json(&Scalars::default()), "{}");
    let all = Scalars::default()
        .to_json_with(&EncodeOptions::new().emit_default_values(true))
        .unwrap();
    assert_eq!(
        all,
        concat!(
            r#"{"fDouble":0,"fFloat":0,"fInt64":"0","fUint64":"0","fInt32":0,"fFixed64":"0","fFixed32":0,"#,
            r#""fBool":false,"fString":"","fBytes":"","fUint32":0,"fSfixed32":0,"fSfixed64":"0","fSint32":0,"#,
            r#""fSint64":"0","color":"COLOR_UNSPECIFIED","repInt64":[],"repString":[],"repColor":[],"repMsg":[],"#,
            r#""repBytes":[],"customName":"","aliased":"ALIASED_ZERO","repDouble":[]}"#
        )
    );
}

#[test]
fn proto_names_and_enum_numbers_on_request() {
    let m = Scalars {
        f_int32: 1,
        color: 2,
        custom_json: "x".into(),
        ..Default::default()
    };
    let opts = EncodeOptions::new()
        .use_proto_names(true)
        .enums_as_ints(true);
    assert_eq!(
        m.to_json_with(&opts).unwrap(),
        r#"{"f_int32":1,"color":2,"custom_json":"x"}"#
    );
}

#[test]
fn both_names_and_every_number_form_are_accepted() {
    let m: Scalars = decode(
        r#"{"f_int32": "12", "fUint32": 1e2, "f_int64": 3.0e1, "fUint64": "1E1", "fDouble": "-Infinity",
            "fFloat": "1.5", "color": 1, "customName": "n", "rep_int64": [1, "2", -3e0]}"#,
    );
    assert_eq!(
        (m.f_int32, m.f_uint32, m.f_int64, m.f_uint64),
        (12, 100, 30, 10)
    );
    assert_eq!(
        (m.f_double, m.f_float, m.color),
        (f64::NEG_INFINITY, 1.5, 1)
    );
    assert_eq!(
        (m.custom_json.as_str(), m.rep_int64.as_slice()),
        ("n", &[1, 2, -3][..])
    );
    let m: Scalars = decode(r#"{"custom_json": "proto name works too"}"#);
    assert_eq!(m.custom_json, "proto name works too");
}

#[test]
fn null_means_not_set() {
    let m: Scalars = decode(
        r#"{"fInt32": null, "optInt32": null, "repInt64": null, "color": null, "repMsg": null}"#,
    );
    assert_eq!(m, Scalars::default());
    let m: Maps = decode(r#"{"stringString": null}"#);
    assert_eq!(m, Maps::default());
}

#[test]
fn bad_values_are_rejected_with_path_and_position() {
    for (input, message) in [
        (
            r#"{"fInt32": 1.5}"#,
            "invalid value for int32: number has a fractional part at `fInt32` (line 1, column 12)",
        ),
        (
            r#"{"fInt32": 2147483648}"#,
            "invalid value for int32: number out of range at `fInt32` (line 1, column 12)",
        ),
        (
            r#"{"fUint32": -1}"#,
            "invalid value for uint32: number out of range at `fUint32` (line 1, column 13)",
        ),
        (
            r#"{"fFloat": 3.5e38}"#,
            "invalid value for float: number out of range at `fFloat` (line 1, column 12)",
        ),
        (
            r#"{"fBool": "true"}"#,
            "expected bool, found string at `fBool` (line 1, column 11)",
        ),
        (
            r#"{"fString": 1}"#,
            "expected string, found number at `fString` (line 1, column 13)",
        ),
        (
            r#"{"fBytes": "a$=="}"#,
            "invalid value for bytes: invalid base64 character '$' at offset 1 at `fBytes` (line 1, column 12)",
        ),
        (
            r#"{"color": "PURPLE"}"#,
            "unknown value \"PURPLE\" for enum protojsonx.test.Color at `color` (line 1, column 11)",
        ),
        (
            r#"{"repMsg": [{}, {"fInt64": "x"}]}"#,
            "invalid value for int64: invalid number at `repMsg[1].fInt64` (line 1, column 28)",
        ),
        (
            r#"{"fInt32": 1, "f_int32": 2}"#,
            "duplicate field at `f_int32` (line 1, column 26)",
        ),
        (
            r#"{"nope": 1}"#,
            "unknown field at `nope` (line 1, column 10)",
        ),
        (
            r#"{"fInt32": 01}"#,
            "invalid number: unexpected '1' at `fInt32` (line 1, column 13)",
        ),
        ("{\"fInt32\": 1,}", "trailing comma (line 1, column 14)"),
        (
            "{\"fInt32\": 1",
            "expected ',' or '}', found end of input (line 1, column 13)",
        ),
        ("{} x", "unexpected data after the value (line 1, column 4)"),
        ("[]", "expected object, found array (line 1, column 1)"),
    ] {
        assert_eq!(decode_err::<Scalars>(input).to_string(), message, "{input}");
    }
}

#[test]
fn unknown_fields_and_enum_names_can_be_ignored() {
    let opts = DecodeOptions::new().ignore_unknown_fields(true);
    let m = Scalars::from_json_with(
        r#"{"nope": {"deep": [1, {"x": null}]}, "color": "PURPLE", "repColor": ["PURPLE", "COLOR_RED"], "fInt32": 3}"#,
        &opts,
    )
    .unwrap();
    assert_eq!((m.color, m.rep_color, m.f_int32), (0, vec![1], 3));
}

#[test]
fn unknown_enum_numbers_are_kept() {
    let m: Scalars = decode(r#"{"color": 42, "repColor": [-1]}"#);
    assert_eq!((m.color, &m.rep_color), (42, &vec![-1]));
    assert_eq!(json(&m), r#"{"color":42,"repColor":[-1]}"#);
}

#[test]
fn aliases_read_every_name_and_write_the_first() {
    let m: Scalars = decode(r#"{"aliased": "ALIASED_UNO"}"#);
    assert_eq!(m.aliased, 1);
    assert_eq!(json(&m), r#"{"aliased":"ALIASED_ONE"}"#);
}

#[test]
fn maps_of_every_key_type_round_trip_with_sorted_keys() {
    let m = Maps {
        string_string: [("b".into(), "2".into()), ("a".into(), "1".into())].into(),
        int32_int32: [(-1, 1), (10, 2), (9, 3)].into(),
        int64_string: [(i64::MIN, "min".into())].into(),
        uint32_bool: [(u32::MAX, true)].into(),
        uint64_double: [(u64::MAX, 0.5)].into(),
        sint32_bytes: [(-7, vec![1])].into(),
        sint64_color: [(1, 2), (2, 77)].into(),
        fixed32_msg: [(
            5,
            Maps {
                int32_int32: [(1, 1)].into(),
                ..Default::default()
            },
        )]
        .into(),
        fixed64_float: [(0, -1.25)].into(),
        sfixed32_int64: [(-3, 3)].into(),
        sfixed64_uint64: [(-4, 4)].into(),
        bool_string: [(true, "t".into()), (false, "f".into())].into(),
    };
    let text = json(&m);
    assert_eq!(
        text,
        concat!(
            r#"{"stringString":{"a":"1","b":"2"},"int32Int32":{"-1":1,"9":3,"10":2},"#,
            r#""int64String":{"-9223372036854775808":"min"},"uint32Bool":{"4294967295":true},"#,
            r#""uint64Double":{"18446744073709551615":0.5},"sint32Bytes":{"-7":"AQ=="},"#,
            r#""sint64Color":{"1":"COLOR_GREEN","2":77},"fixed32Msg":{"5":{"int32Int32":{"1":1}}},"#,
            r#""fixed64Float":{"0":-1.25},"sfixed32Int64":{"-3":"3"},"sfixed64Uint64":{"-4":"4"},"#,
            r#""boolString":{"false":"f","true":"t"}}"#
        )
    );
    assert_eq!(decode::<Maps>(&text), m);
}

#[test]
fn bad_map_keys_and_duplicates_are_rejected() {
    let e = decode_err::<Maps>(r#"{"int32Int32": {"x": 1}}"#);
    assert_eq!(e.path_string(), "int32Int32[\"x\"]");
    assert_eq!(
        decode_err::<Maps>(r#"{"boolString": {"yes": ""}}"#).kind(),
        ErrorKind::InvalidValue
    );
    let e = decode_err::<Maps>(r#"{"int32Int32": {"1": 1, "1": 2}}"#);
    assert_eq!(
        (e.kind(), e.message()),
        (ErrorKind::DuplicateField, "duplicate map key")
    );
    assert_eq!(
        decode_err::<Maps>(r#"{"fixed32Msg": {"1": null}}"#).kind(),
        ErrorKind::InvalidValue
    );
}

#[test]
fn oneofs_write_the_member_that_is_set_and_reject_two() {
    let m = Oneofs {
        before: 1,
        kind: Some(oneofs::Kind::Id(5)),
        other: Some(oneofs::Other::Flag(false)),
        after: 2,
    };
    assert_eq!(json(&m), r#"{"before":1,"id":"5","flag":false,"after":2}"#);
    assert_eq!(decode::<Oneofs>(&json(&m)), m);
    let m = Oneofs {
        kind: Some(oneofs::Kind::Scalars(Scalars::default())),
        ..Default::default()
    };
    assert_eq!(json(&m), r#"{"scalars":{}}"#);
    assert_eq!(
        decode::<Oneofs>(r#"{"color": "COLOR_RED"}"#).kind,
        Some(oneofs::Kind::Color(1))
    );
    let e = decode_err::<Oneofs>(r#"{"name": "a", "id": 1}"#);
    assert_eq!(
        e.to_string(),
        "more than one field of oneof `kind` is set at `id` (line 1, column 21)"
    );
    let m: Oneofs = decode(r#"{"name": null, "id": 1}"#);
    assert_eq!(m.kind, Some(oneofs::Kind::Id(1)));
}

#[test]
fn recursion_works_and_depth_is_limited() {
    let leaf = Tree {
        label: "leaf".into(),
        ..Default::default()
    };
    let m = Tree {
        label: "root".into(),
        left: Some(Box::new(leaf.clone())),
        children: vec![leaf.clone()],
        link: Some(tree::Link::Next(Box::new(leaf.clone()))),
        named: HashMap::from([("x".into(), leaf.clone())]),
    };
    let text = json(&m);
    assert_eq!(
        text,
        r#"{"label":"root","left":{"label":"leaf"},"children":[{"label":"leaf"}],"next":{"label":"leaf"},"named":{"x":{"label":"leaf"}}}"#
    );
    assert_eq!(decode::<Tree>(&text), m);

    let deep = |n: usize| "{\"left\":".repeat(n) + "{}" + &"}".repeat(n);
    assert!(Tree::from_json(deep(99)).is_ok());
    assert_eq!(
        Tree::from_json(deep(100)).unwrap_err().kind(),
        ErrorKind::DepthLimit
    );
    let opts = DecodeOptions::new().max_depth(300);
    assert!(Tree::from_json_with(deep(250), &opts).is_ok());
}

#[test]
fn nested_types_and_other_packages() {
    let m = Outer {
        inner: Some(outer::Inner {
            deepest: Some(outer::inner::Deepest { x: 1 }),
            mood: 1,
        }),
        mood: outer::inner::Mood::Happy as i32,
        remote: Some(Remote {
            r#where: "far".into(),
            kind: remote::Kind::Far as i32,
        }),
        remote_kind: 1,
        deepests: vec![outer::inner::Deepest { x: 2 }],
    };
    let text = json(&m);
    assert_eq!(
        text,
        r#"{"inner":{"deepest":{"x":1},"mood":"HAPPY"},"mood":"HAPPY","remote":{"where":"far","kind":"KIND_FAR"},"remoteKind":"KIND_FAR","deepests":[{"x":2}]}"#
    );
    assert_eq!(decode::<Outer>(&text), m);
    assert_eq!(json(&Nothing {}), "{}");
    assert_eq!(
        decode_err::<Nothing>(r#"{"a":1}"#).kind(),
        ErrorKind::UnknownField
    );
}

#[test]
fn awkward_names_compile_and_map_to_their_proto_names() {
    let m = Self_ {
        r#type: 1,
        r#gen: "g".into(),
        self_: true,
        r#async: 2,
        double_underscore: 3,
        leading: 4,
        trailing: 5,
        camel_case_field: 6,
        http_server: 7,
        field0name: 8,
        field_name_upper: 9,
        ..Default::default()
    };
    let text = json(&m);
    assert_eq!(
        text,
        r#"{"type":1,"gen":"g","self":true,"async":2,"DoubleUnderscore":3,"Leading":4,"trailing":5,"camelCaseField":6,"HTTPServer":7,"field0name":8,"FIELDNAMEUPPER":9}"#
    );
    assert_eq!(decode::<Self_>(&text), m);
    let proto_names: Self_ = decode(
        r#"{"__double__underscore": 3, "_leading": 4, "trailing_": 5, "FIELD_NAME_UPPER": 9}"#,
    );
    assert_eq!(
        (
            proto_names.double_underscore,
            proto_names.leading,
            proto_names.trailing,
            proto_names.field_name_upper
        ),
        (3, 4, 5, 9)
    );

    let t = Type {
        r#gen: Some(names::r#type::Gen { x: 1 }),
        r#async: names::r#type::Async::Await as i32,
        r#type: Some(names::r#type::Type::Loop(2)),
    };
    assert_eq!(
        json(&t),
        r#"{"gen":{"x":1},"async":"ASYNC_AWAIT","loop":2}"#
    );
    assert_eq!(decode::<Type>(&json(&t)), t);
    let c = Conflict {
        kind: Some(names::conflict::KindOneOf::K(names::conflict::Kind {
            y: 1,
        })),
    };
    assert_eq!(json(&c), r#"{"k":{"y":1}}"#);
    let o = names::Option {
        some: 1,
        result: Some(names::Result { ok: 2 }),
    };
    assert_eq!(json(&o), r#"{"some":1,"result":{"ok":2}}"#);
    assert_eq!(TrafficLight::Red as i32, 1);
}

#[test]
fn proto2_presence_required_and_groups() {
    let m = Legacy::default();
    assert_eq!((m.opt_int32(), m.opt_string()), (42, "hello"));
    assert_eq!(json(&m), r#"{"reqInt64":"0","reqChild":{}}"#);
    let m = Legacy {
        opt_int32: Some(0),
        opt_enum: Some(legacy::Closed::Zero as i32),
        req_int64: 5,
        req_child: Child {
            name: Some("c".into()),
        },
        grouped: Some(legacy::legacy::Grouped { a: Some(1) }),
        item: vec![legacy::legacy::Item {
            label: Some("l".into()),
        }],
        children: [("k".into(), Child::default())].into(),
        choice: Some(legacy::legacy::Choice::CInt(0)),
        opt_double: Some(f64::NEG_INFINITY),
        ..Default::default()
    };
    let text = json(&m);
    assert_eq!(
        text,
        r#"{"optInt32":0,"optEnum":"CLOSED_ZERO","reqInt64":"5","reqChild":{"name":"c"},"grouped":{"a":1},"item":[{"label":"l"}],"children":{"k":{}},"cInt":0,"optDouble":"-Infinity"}"#
    );
    assert_eq!(decode::<Legacy>(&text), m);
}

#[test]
fn btree_maps_bytes_and_boxes_as_configured() {
    let m = Variants {
        blobs: [("a".to_string(), prost::bytes::Bytes::from_static(b"\x01"))].into(),
        data: prost::bytes::Bytes::from_static(b"xyz"),
        datas: vec![prost::bytes::Bytes::from_static(b"")],
        nested: [(1, Variants::default())].into(),
        boxed: Some(Box::new(Variants {
            data: prost::bytes::Bytes::from_static(b"b"),
            ..Default::default()
        })),
        o: Some(variants::O::Od(prost::bytes::Bytes::from_static(b"o"))),
    };
    let text = json(&m);
    assert_eq!(
        text,
        r#"{"blobs":{"a":"AQ=="},"data":"eHl6","datas":[""],"nested":{"1":{}},"boxed":{"data":"Yg=="},"od":"bw=="}"#
    );
    assert_eq!(decode::<Variants>(&text), m);
    let url_safe: Variants = decode(r#"{"data": "-_8", "datas": ["+/8=", "_-8"]}"#);
    assert_eq!(url_safe.data.as_ref(), b"\xfb\xff");
    assert_eq!(url_safe.datas, [b"\xfb\xff".as_slice(), b"\xff\xef"]);
}

#[test]
fn structs_from_the_prost_build_config_fit_the_json_only_code() {
    use protojsonx_tests::split::variants::{Variants, variants};
    let m = Variants {
        nested: [(2, Variants::default()), (1, Variants::default())].into(),
        boxed: Some(Box::new(Variants::default())),
        o: Some(variants::O::Od(prost::bytes::Bytes::from_static(b"o"))),
        ..Default::default()
    };
    let text = json(&m);
    assert_eq!(text, r#"{"nested":{"1":{},"2":{}},"boxed":{},"od":"bw=="}"#);
    assert_eq!(decode::<Variants>(&text), m);
    // The type attribute added through `prost_config`.
    assert!(Variants::default() < m);
}

#[test]
fn encoding_into_a_reused_buffer_appends() {
    let m = Scalars {
        f_int32: 1,
        ..Default::default()
    };
    let mut buf = b"x".to_vec();
    protojsonx_runtime::encode_into(&m, &mut buf).unwrap();
    assert_eq!(buf, b"x{\"fInt32\":1}");
    buf.clear();
    protojsonx_runtime::encode_into(&m, &mut buf).unwrap();
    assert_eq!(protojsonx_runtime::from_slice::<Scalars>(&buf).unwrap(), m);
    let mut out = Vec::new();
    protojsonx_runtime::to_writer(&mut out, &m).unwrap();
    assert_eq!(out, buf);
    assert_eq!(
        protojsonx_runtime::from_str::<Scalars>(&protojsonx_runtime::to_string(&m).unwrap())
            .unwrap(),
        m
    );
}

#[test]
fn emit_unpopulated_writes_null_for_unset_fields_with_presence() {
    let m = Legacy::default();
    let go = EncodeOptions::new().emit_unpopulated(true);
    let text = m.to_json_with(&go).unwrap();
    assert_eq!(
        text,
        r#"{"optInt32":null,"optString":null,"optEnum":null,"optBytes":null,"reqInt64":"0","reqChild":{"name":null},"repInt32":[],"grouped":null,"item":[],"child":null,"children":{},"optDouble":null,"optFloat":null}"#
    );
    assert_eq!(decode::<Legacy>(&text), m);
    // Python's `always_print_fields_with_no_presence`: no `null`s.
    let python = EncodeOptions::new().emit_default_values(true);
    assert_eq!(
        m.to_json_with(&python).unwrap(),
        r#"{"reqInt64":"0","reqChild":{},"repInt32":[],"item":[],"children":{}}"#
    );
    // proto3: `optional` fields (a oneof of one) and oneofs stay out, as in Go.
    let text = Oneofs::default().to_json_with(&go).unwrap();
    assert_eq!(text, r#"{"before":0,"after":0}"#);
    let text = Scalars::default().to_json_with(&go).unwrap();
    assert!(text.contains(r#""fInt32":0,"#), "{text}");
    assert!(!text.contains("optInt32"), "{text}");
    assert_eq!(decode::<Scalars>(&text), Scalars::default());
}

#[test]
fn missing_required_fields_are_errors_unless_partial() {
    let err = decode_err::<Legacy>(r#"{"reqChild": {}}"#);
    assert_eq!(err.kind(), ErrorKind::MissingField);
    assert_eq!(
        err.to_string(),
        "missing required field (decode with `allow_partial` to accept it) at `reqInt64` (line 1, column 1)"
    );
    let err = decode_err::<Legacy>(r#"{"reqInt64": "1", "children": {"k": {}}}"#);
    assert_eq!(err.path_string(), "reqChild");
    // `null` leaves a field unset, so it does not count.
    let err = decode_err::<Legacy>(r#"{"reqInt64": null, "reqChild": {}}"#);
    assert_eq!(err.path_string(), "reqInt64");
    let whole: Legacy = decode(r#"{"req_int64": "1", "reqChild": {}}"#);
    assert_eq!(whole.req_int64, 1);
    let partial = DecodeOptions::new().allow_partial(true);
    let m = Legacy::from_json_with(r#"{"optInt32": 3}"#, &partial).unwrap();
    assert_eq!((m.opt_int32, m.req_int64), (Some(3), 0));
}

#[test]
fn indent_writes_one_member_per_line() {
    let m = Legacy {
        req_int64: 5,
        req_child: Child {
            name: Some("c".into()),
        },
        rep_int32: vec![1, 2],
        children: [("k".into(), Child::default())].into(),
        ..Default::default()
    };
    let text = m.to_json_with(&EncodeOptions::new().indent(2)).unwrap();
    let expected = r#"{
  "reqInt64": "5",
  "reqChild": {
    "name": "c"
  },
  "repInt32": [
    1,
    2
  ],
  "children": {
    "k": {}
  }
}"#;
    assert_eq!(text, expected);
    assert_eq!(decode::<Legacy>(&text), m);
    let go = EncodeOptions::new().multiline(true).use_proto_names(true);
    assert_eq!(
        m.to_json_with(&go).unwrap(),
        expected
            .replace("reqInt64", "req_int64")
            .replace("reqChild", "req_child")
            .replace("repInt32", "rep_int32")
    );
    let tabs_free = m.to_json_with(&EncodeOptions::new().indent(0)).unwrap();
    assert!(
        tabs_free.starts_with("{\n\"reqInt64\": \"5\",\n\"reqChild\": {\n\"name\""),
        "{tabs_free}"
    );
    assert_eq!(
        m.to_json_with(&EncodeOptions::new().indent(4).multiline(false))
            .unwrap(),
        json(&m)
    );
}

#[test]
fn ensure_ascii_escapes_values_and_keys() {
    let m = names::Accented {
        text: "é🍰".into()
    };
    assert_eq!(json(&m), r#"{"naïve":"é🍰"}"#);
    let ascii = EncodeOptions::new().ensure_ascii(true);
    let text = m.to_json_with(&ascii).unwrap();
    assert_eq!(text, r#"{"na\u00efve":"\u00e9\ud83c\udf70"}"#);
    assert_eq!(decode::<names::Accented>(&text), m);
    let pretty = m.to_json_with(&ascii.indent(1)).unwrap();
    assert_eq!(pretty, "{\n \"na\\u00efve\": \"\\u00e9\\ud83c\\udf70\"\n}");
    let maps = Maps {
        string_string: [("ключ".into(), "v".into())].into(),
        ..Default::default()
    };
    assert_eq!(
        maps.to_json_with(&ascii).unwrap(),
        r#"{"stringString":{"\u043a\u043b\u044e\u0447":"v"}}"#
    );
}

#[test]
fn a_type_registry_of_its_own_resolves_any_per_call() {
    use prost::Message;
    use std::sync::LazyLock;
    static TYPES: LazyLock<protojsonx_runtime::TypeRegistry> = LazyLock::new(|| {
        let mut types = protojsonx_runtime::TypeRegistry::new();
        protojsonx_tests::protojsonx::test::register_protojsonx_types_in(&mut types);
        types
    });
    let inner = Scalars {
        f_int32: 7,
        ..Default::default()
    };
    let any = prost_types::Any {
        type_url: "type.googleapis.com/protojsonx.test.Scalars".into(),
        value: inner.encode_to_vec(),
    };
    let encode = EncodeOptions::new().type_registry(&TYPES);
    let text = any.to_json_with(&encode).unwrap();
    assert_eq!(
        text,
        r#"{"@type":"type.googleapis.com/protojsonx.test.Scalars","fInt32":7}"#
    );
    let decode = DecodeOptions::new().type_registry(&TYPES);
    assert_eq!(
        prost_types::Any::from_json_with(&text, &decode).unwrap(),
        any
    );
    // This test binary never fills the global registry.
    let err = any.to_json().unwrap_err();
    assert!(err.to_string().contains("unknown message type"), "{err}");
    let err = prost_types::Any::from_json(&text).unwrap_err();
    assert_eq!(err.path_string(), "@type");
    assert!(TYPES.contains("protojsonx.test.Scalars"));
}
