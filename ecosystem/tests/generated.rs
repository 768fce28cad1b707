//! The generated code of every front end round-trips, writes ProtoJSON's
//! special forms, and agrees with the other front ends on the JSON.

use prost::Message;
use protojsonx_ecosystem::{GENERATED_BY, example, multi, paired, sample_order};
use protojsonx_runtime::ProtoJson;
use serde_json::{Value, json};

/// `.ci/ecosystem.sh` sets `PROTOJSONX_EXPECT_GEN=buf`: make sure the buf
/// output, not the build.rs fallback, is what these tests ran on.
#[test]
fn the_code_comes_from_the_expected_front_end() {
    if let Ok(expected) = std::env::var("PROTOJSONX_EXPECT_GEN") {
        assert_eq!(GENERATED_BY, expected);
    }
}

#[test]
fn the_example_module_round_trips() {
    use example::event::v1::{Actor, MediumEvent};
    let event = MediumEvent {
        id: "e1".into(),
        timestamp: -5,
        event_type: "login".into(),
        actor: Some(Actor {
            id: "u1".into(),
            email: "a@b.c".into(),
            verified: true,
        }),
        tags: vec!["x".into()],
        metadata: None,
    };
    let json = event.to_json().unwrap();
    let value: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["timestamp"], "-5");
    assert_eq!(value["eventType"], "login");
    assert_eq!(MediumEvent::from_json(&json).unwrap(), event);
}

/// One call of the module tree's register-all function covers both packages.
fn register() {
    multi::register_all_protojsonx_types();
}

#[test]
fn the_multi_package_module_round_trips() {
    register();
    let order = sample_order();
    let json = order.to_json().unwrap();
    let back = multi::acme::shop::v1::Order::from_json(&json).unwrap();
    assert_eq!(back, order);
}

#[test]
fn special_forms_follow_the_spec() {
    register();
    let value: Value = serde_json::from_str(&sample_order().to_json().unwrap()).unwrap();
    assert_eq!(value["status"], "STATUS_PLACED");
    assert_eq!(
        value["total"],
        json!({"currency": "CURRENCY_EUR", "units": "19", "nanos": 500000000})
    );
    assert_eq!(value["createdAt"], "2023-11-14T22:13:20.120Z");
    assert_eq!(value["deliveryWindow"], "3600s");
    assert_eq!(
        value["attributes"],
        json!({"channel": "web", "priority": 2.5})
    );
    assert_eq!(value["note"], Value::Null);
    assert_eq!(value["updateMask"], "createdAt,total.units");
    assert_eq!(
        value["extension"],
        json!({"@type": "type.googleapis.com/acme.common.v1.Money",
               "currency": "CURRENCY_EUR", "units": "1", "nanos": 500000000})
    );
    assert_eq!(value["coupon"], "WELCOME");
    assert_eq!(value["loyaltyPoints"], "9007199254740993");
    assert_eq!(value["gift"], json!({}));
    assert_eq!(value["refunds"]["-7"]["units"], "3");
    assert_eq!(value["signature"], "+/8A");
    assert_eq!(value["storeId"], "18446744073709551615");
    assert_eq!(value["weightKg"], 0.1);
}

/// protoc-gen-prost's (or prost-build's) structs with the `json_only` code
/// write the same JSON as the structs protojsonx generated itself.
#[test]
fn paired_structs_write_the_same_json() {
    register();
    paired::register_all_protojsonx_types();
    let order = sample_order();
    let twin = paired::acme::shop::v1::Order::decode(order.encode_to_vec().as_slice()).unwrap();
    assert_eq!(twin.to_json().unwrap(), order.to_json().unwrap());
    let back = paired::acme::shop::v1::Order::from_json(twin.to_json().unwrap()).unwrap();
    assert_eq!(back, twin);
}

/// buf hands plugins the .proto comments, and prost turns them into doc comments.
#[test]
fn buf_output_carries_the_proto_comments() {
    if GENERATED_BY != "buf" {
        return;
    }
    let code = include_str!(concat!(env!("PROTOJSONX_GEN"), "/multi/acme.shop.v1.rs"));
    for doc in [
        "/// A customer's order.",
        "/// Unique order id, like `ord_123`.",
        "/// Where the order is in its life.",
        "/// Picked up in a store.",
    ] {
        assert!(code.contains(doc), "missing {doc}");
    }
}
