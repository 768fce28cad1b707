//! Migrating from pbjson: the serde output of pbjson-build 0.9 (structs over
//! pbjson-types) and of protojsonx's `serde` option, for the same messages.
//! They agree on plain fields, int64, bytes, maps, enums by name, Duration,
//! Struct, wrappers and Empty; every difference found is pinned below with
//! the ProtoJSON rule that decides it (https://protobuf.dev/programming-guides/json/).

use multi::acme::shop::v1::Order;
use prost::Message;
use prost_types::Timestamp;
use protojsonx_ecosystem::{multi, pbjson, sample_order};
use serde_json::{Value, json};

type PbjsonOrder = pbjson::acme::shop::v1::Order;

/// Both serde encodings of `order` (pbjson's from the same wire bytes).
fn encode_both(order: &Order) -> (Value, Result<Value, String>) {
    let theirs = PbjsonOrder::decode(order.encode_to_vec().as_slice()).unwrap();
    let ours = serde_json::to_value(order).unwrap();
    (
        ours,
        serde_json::to_value(&theirs).map_err(|e| e.to_string()),
    )
}

/// Both serde decodings of `json`, as wire bytes so they can be compared.
fn decode_both(json: &str) -> (Result<Vec<u8>, String>, Result<Vec<u8>, String>) {
    let ours = serde_json::from_str::<Order>(json).map(|m| m.encode_to_vec());
    let theirs = serde_json::from_str::<PbjsonOrder>(json).map(|m| m.encode_to_vec());
    (
        ours.map_err(|e| e.to_string()),
        theirs.map_err(|e| e.to_string()),
    )
}

#[test]
fn encodings_agree_without_the_well_known_types_pbjson_writes_wrongly() {
    let order = Order {
        created_at: None,
        history: vec![],
        update_mask: None,
        extension: None,
        weight_kg: 0.5,
        ..sample_order()
    };
    let (ours, theirs) = encode_both(&order);
    assert_eq!(theirs.unwrap(), ours);
}

#[test]
fn decodings_agree_on_ordinary_input() {
    for json in [
        r#"{"id":"o1","status":"STATUS_SHIPPED","items":[{"sku":"a","quantity":3}]}"#,
        r#"{"status":1,"total":{"units":"12","nanos":5}}"#,
        r#"{"total":{"units":12}}"#,
        r#"{"created_at":"1970-01-01T01:00:00+01:00","deliveryWindow":"1.5s"}"#,
        r#"{"createdAt":"1970-01-01T00:00:00.1Z"}"#,
        r#"{"discountRate":"NaN","weightKg":"-Infinity"}"#,
        r#"{"signature":"-_8A","coupon":"x","loyaltyPoints":"7","gift":{}}"#,
        r#"{"quantities":{"a":"3"},"refunds":{"-7":{"units":"1"}}}"#,
        r#"{"attributes":{"a":[1,"x",true]},"storeId":"18446744073709551615"}"#,
        r#"{"total":null,"coupon":null}"#,
    ] {
        let (ours, theirs) = decode_both(json);
        assert_eq!(ours.clone().unwrap(), theirs.unwrap(), "{json}");
    }
    for bad in [
        r#"{"bogus":1}"#,
        r#"{"id":"a","id":"b"}"#,
        r#"{"address":"x","storeId":"1"}"#,
        r#"{"items":[{"quantity":-1}]}"#,
        r#"{"refunds":{"x":{}}}"#,
        r#"{"status":"STATUS_NOPE"}"#,
    ] {
        let (ours, theirs) = decode_both(bad);
        assert!(ours.is_err() && theirs.is_err(), "{bad}");
    }
}

/// Timestamps end in `Z` ("Uses RFC 3339, where generated output will always
/// be Z-normalized"); pbjson writes `+00:00`.
#[test]
fn pbjson_writes_timestamps_with_an_offset() {
    let order = Order {
        created_at: Some(Timestamp {
            seconds: 0,
            nanos: 1_000,
        }),
        ..Order::default()
    };
    let (ours, theirs) = encode_both(&order);
    assert_eq!(ours, json!({"createdAt": "1970-01-01T00:00:00.000001Z"}));
    assert_eq!(
        theirs.unwrap(),
        json!({"createdAt": "1970-01-01T00:00:00.000001+00:00"})
    );
}

/// FieldMask is one string of lowerCamelCase paths joined by commas;
/// pbjson-types 0.9 writes and reads it as an ordinary message.
#[test]
fn pbjson_treats_field_masks_as_messages() {
    let order = Order {
        update_mask: sample_order().update_mask,
        ..Order::default()
    };
    let (ours, theirs) = encode_both(&order);
    assert_eq!(ours, json!({"updateMask": "createdAt,total.units"}));
    assert_eq!(
        theirs.unwrap(),
        json!({"updateMask": {"paths": ["created_at", "total.units"]}})
    );
    let (ours, theirs) = decode_both(r#"{"updateMask":"createdAt"}"#);
    assert!(ours.is_ok());
    assert!(
        theirs
            .unwrap_err()
            .contains("expected struct google.protobuf.FieldMask")
    );
}

/// Any is the packed message's JSON plus `"@type"`; pbjson writes the raw
/// `typeUrl` and base64 `value`, and rejects `@type`.
#[test]
fn pbjson_writes_any_as_raw_bytes() {
    multi::acme::common::v1::register_protojsonx_types();
    let order = Order {
        extension: sample_order().extension,
        ..Order::default()
    };
    let (ours, theirs) = encode_both(&order);
    assert_eq!(
        ours["extension"]["@type"],
        "type.googleapis.com/acme.common.v1.Money"
    );
    assert_eq!(ours["extension"]["units"], "1");
    let theirs = theirs.unwrap();
    assert_eq!(
        theirs["extension"]["typeUrl"],
        "type.googleapis.com/acme.common.v1.Money"
    );
    assert!(theirs["extension"]["value"].is_string());
    let (ours, theirs) = decode_both(&serde_json::to_string(&ours).unwrap());
    assert_eq!(ours.unwrap(), order.encode_to_vec());
    assert!(theirs.unwrap_err().contains("unknown field `@type`"));
}

/// NaN and ±Infinity are the strings "NaN", "Infinity", "-Infinity"; pbjson
/// writes `null`, which reads back as 0.
#[test]
fn pbjson_writes_non_finite_floats_as_null() {
    let order = Order {
        discount_rate: Some(f64::NEG_INFINITY),
        ..Order::default()
    };
    let (ours, theirs) = encode_both(&order);
    assert_eq!(ours, json!({"discountRate": "-Infinity"}));
    assert_eq!(theirs.unwrap(), json!({"discountRate": null}));
}

/// proto3 enums are open: a value without a name is written and read as its
/// number. pbjson fails on both.
#[test]
fn pbjson_rejects_enum_values_without_a_name() {
    let order = Order {
        status: 99,
        ..Order::default()
    };
    let (ours, theirs) = encode_both(&order);
    assert_eq!(ours, json!({"status": 99}));
    assert!(theirs.unwrap_err().contains("Invalid variant 99"));
    let (ours, theirs) = decode_both(r#"{"status":99}"#);
    assert_eq!(ours.unwrap(), order.encode_to_vec());
    assert!(theirs.is_err());
}

/// `null` means "the default" for every field except `google.protobuf.Value`,
/// where it is the value `null_value`. pbjson rejects `null` for plain
/// scalars and reads a `Value` field's `null` as unset.
#[test]
fn pbjson_reads_null_differently() {
    let (ours, theirs) = decode_both(r#"{"id":null}"#);
    assert_eq!(ours.unwrap(), Vec::<u8>::new());
    assert!(theirs.unwrap_err().contains("invalid type: null"));
    let (ours, theirs) = decode_both(r#"{"note":null}"#);
    let note_is_null = Order::decode(ours.unwrap().as_slice()).unwrap().note;
    assert_eq!(
        note_is_null.and_then(|v| v.kind),
        Some(prost_types::value::Kind::NullValue(0))
    );
    assert_eq!(theirs.unwrap(), Vec::<u8>::new());
}

/// Integer fields accept exponent and fraction forms with an integral value
/// (`1.0`, `"1e2"`); a float out of its range is an error. pbjson rejects the
/// first and stores infinity for the second.
#[test]
fn pbjson_number_rules_differ() {
    let (ours, theirs) = decode_both(r#"{"total":{"units":"1e2"}}"#);
    assert!(ours.is_ok());
    assert!(theirs.is_err());
    let (ours, theirs) = decode_both(r#"{"total":{"units":1.0}}"#);
    assert!(ours.is_ok());
    assert!(theirs.is_err());
    let (ours, theirs) = decode_both(r#"{"weightKg":3.5e38}"#);
    assert!(ours.unwrap_err().contains("out of range"));
    let weight = PbjsonOrder::decode(theirs.unwrap().as_slice())
        .unwrap()
        .weight_kg;
    assert_eq!(weight, f32::INFINITY);
}

/// A float field through `serde_json::to_value`: pbjson hands serde an `f32`,
/// which `Value` widens (0.1 becomes 0.10000000149011612); protojsonx's
/// value comes from the JSON text, the shortest form that round-trips.
#[test]
fn pbjson_float_fields_widen_in_serde_json_values() {
    let order = Order {
        weight_kg: 0.1,
        ..Order::default()
    };
    let (ours, theirs) = encode_both(&order);
    assert_eq!(ours, json!({"weightKg": 0.1}));
    assert_eq!(theirs.unwrap(), json!({"weightKg": 0.1f32 as f64}));
}
