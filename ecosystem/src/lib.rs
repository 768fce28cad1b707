//! The code every way of generating produces, compiled side by side (see
//! build.rs): the tests in `tests/` check that each round-trips and that they
//! all agree on the JSON.

/// The `buf generate` output for `examples/proto` (or the build.rs front end's).
pub mod example {
    /// Package `event`.
    pub mod event {
        /// Package `event.v1`.
        pub mod v1 {
            include!(concat!(env!("PROTOJSONX_GEN"), "/example/event.v1.rs"));
        }
    }
}

/// Several packages importing each other and the well-known types, generated
/// with the `serde` option, in the module tree the generator writes
/// (`include_file=mod.rs`).
pub mod multi {
    include!(concat!(env!("PROTOJSONX_GEN"), "/multi/mod.rs"));
}

/// Structs from protoc-gen-prost (or prost-build) with protojsonx's
/// `json_only` code included beside them, as users pair the two; the module
/// tree (`include_file=mod.rs`) includes both files of each package.
pub mod paired {
    include!(concat!(env!("PROTOJSONX_GEN"), "/paired/mod.rs"));
}

/// An editions module (`edition = "2023"` and `"2024"` files: explicit,
/// implicit and legacy-required presence, a closed enum, group-encoded and
/// expanded fields), in the module tree the generator writes.
pub mod editions {
    include!(concat!(env!("PROTOJSONX_GEN"), "/editions/mod.rs"));
}

/// The same protos through prost-build and pbjson-build, for comparison.
pub mod pbjson {
    /// Package `acme`.
    pub mod acme {
        /// Package `acme.common`.
        pub mod common {
            /// Package `acme.common.v1`.
            pub mod v1 {
                include!(concat!(env!("PROTOJSONX_GEN"), "/pbjson/acme.common.v1.rs"));
                include!(concat!(
                    env!("PROTOJSONX_GEN"),
                    "/pbjson/acme.common.v1.serde.rs"
                ));
            }
        }
        /// Package `acme.shop`.
        pub mod shop {
            /// Package `acme.shop.v1`.
            pub mod v1 {
                include!(concat!(env!("PROTOJSONX_GEN"), "/pbjson/acme.shop.v1.rs"));
                include!(concat!(
                    env!("PROTOJSONX_GEN"),
                    "/pbjson/acme.shop.v1.serde.rs"
                ));
            }
        }
    }
}

/// Which front end made `example`, `multi` and `paired`: `"buf"` or `"build.rs"`.
pub const GENERATED_BY: &str = env!("PROTOJSONX_GEN_SOURCE");

/// An order with every field set, each to a value whose ProtoJSON form is
/// special (int64 as a string, RFC 3339 timestamp, `Any` with `@type`...).
pub fn sample_order() -> multi::acme::shop::v1::Order {
    use multi::acme::common::v1::{Audit, Currency, Money};
    use multi::acme::shop::v1::{LineItem, Order, order};
    use prost_types::{Any, Duration, FieldMask, Struct, Timestamp, Value, value::Kind};

    let money = |units: i64| Money {
        currency: Currency::Eur as i32,
        units,
        nanos: 500_000_000,
    };
    let at = Timestamp {
        seconds: 1_700_000_000,
        nanos: 120_000_000,
    };
    let mut attributes = Struct::default();
    attributes.fields.insert(
        "channel".into(),
        Value {
            kind: Some(Kind::StringValue("web".into())),
        },
    );
    attributes.fields.insert(
        "priority".into(),
        Value {
            kind: Some(Kind::NumberValue(2.5)),
        },
    );
    Order {
        id: "ord_123".into(),
        status: order::Status::Placed as i32,
        items: vec![LineItem {
            sku: "sku-1".into(),
            quantity: 2,
            unit_price: Some(money(9)),
        }],
        total: Some(money(19)),
        created_at: Some(at),
        delivery_window: Some(Duration {
            seconds: 3600,
            nanos: 0,
        }),
        attributes: Some(attributes),
        note: Some(Value {
            kind: Some(Kind::NullValue(0)),
        }),
        update_mask: Some(FieldMask {
            paths: vec!["created_at".into(), "total.units".into()],
        }),
        extension: Some(Any {
            type_url: "type.googleapis.com/acme.common.v1.Money".into(),
            value: prost::Message::encode_to_vec(&money(1)),
        }),
        coupon: Some("WELCOME".into()),
        loyalty_points: Some(9_007_199_254_740_993),
        gift: Some(()),
        quantities: [("sku-1".to_string(), 2)].into(),
        refunds: [(-7, money(3))].into(),
        discount_rate: Some(0.125),
        signature: vec![0xfb, 0xff, 0x00],
        delivery: Some(order::Delivery::StoreId(u64::MAX)),
        history: vec![Audit {
            actor: "ops".into(),
            at: Some(at),
        }],
        weight_kg: 0.1,
    }
}
