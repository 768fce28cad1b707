//! The `serde` generator option: serde users get exactly ProtoJSON.

use multi::acme::shop::v1::{LineItem, Order};
use protojsonx_ecosystem::{multi, sample_order};
use protojsonx_runtime::ProtoJson;
use protojsonx_runtime::serde::Serde;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

fn register() {
    multi::acme::common::v1::register_protojsonx_types();
}

#[test]
fn serde_json_writes_the_protojson_text() {
    register();
    let order = sample_order();
    assert_eq!(
        serde_json::to_string(&order).unwrap(),
        order.to_json().unwrap()
    );
}

#[test]
fn serde_json_values_round_trip() {
    register();
    let order = sample_order();
    let value = serde_json::to_value(&order).unwrap();
    let native: Value = serde_json::from_str(&order.to_json().unwrap()).unwrap();
    assert_eq!(value, native);
    assert_eq!(serde_json::from_value::<Order>(value).unwrap(), order);
}

#[test]
fn serde_json_reads_every_protojson_input_form() {
    let order: Order = serde_json::from_str(
        r#"{"id":"o1","status":1,"created_at":"1970-01-01T01:00:00+01:00",
            "total":{"units":1e1},"discountRate":"Infinity","weight_kg":"1.5"}"#,
    )
    .unwrap();
    assert_eq!(order.status, 1);
    assert_eq!(order.created_at.unwrap().seconds, 0);
    assert_eq!(order.total.unwrap().units, 10);
    assert_eq!(order.discount_rate, Some(f64::INFINITY));
    assert_eq!(order.weight_kg, 1.5);
}

/// Numbers go through serde's data model, so a few are spelled differently
/// than protojsonx spells them (`-0.0` for `-0`): the same JSON numbers.
#[test]
fn number_spelling_may_differ_but_not_the_value() {
    for rate in [-0.0, 1e300, 5e-324, 123456789.125] {
        let order = Order {
            discount_rate: Some(rate),
            ..Order::default()
        };
        let native: Value = serde_json::from_str(&order.to_json().unwrap()).unwrap();
        assert_eq!(serde_json::to_value(&order).unwrap(), native, "{rate}");
        let text = serde_json::to_string(&order).unwrap();
        assert_eq!(Order::from_json(&text).unwrap(), order, "{text}");
    }
}

#[test]
fn errors_name_the_bad_field() {
    let err = serde_json::from_str::<Order>(r#"{"items":[{"sku":"a"},{"quantity":"many"}]}"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("`items[1].quantity`"), "{err}");
    let err = serde_json::from_str::<Order>(r#"{"items":[],"items":[]}"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("duplicate field at `items`"), "{err}");
}

/// Messages, and prost-types values through [`Serde`], inside your own serde types.
#[test]
fn messages_nest_in_serde_types() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Envelope {
        item: LineItem,
        items: Vec<LineItem>,
        sent: Serde<prost_types::Timestamp>,
        trace: Option<Order>,
    }
    let envelope = Envelope {
        item: LineItem {
            sku: "a".into(),
            quantity: 1,
            unit_price: None,
        },
        items: vec![LineItem::default()],
        sent: Serde(prost_types::Timestamp {
            seconds: 60,
            nanos: 0,
        }),
        trace: None,
    };
    let value = serde_json::to_value(&envelope).unwrap();
    assert_eq!(
        value,
        json!({"item": {"sku": "a", "quantity": 1}, "items": [{}],
               "sent": "1970-01-01T00:01:00Z", "trace": null})
    );
    assert_eq!(serde_json::from_value::<Envelope>(value).unwrap(), envelope);
}
