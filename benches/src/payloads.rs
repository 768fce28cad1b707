//! The benchmark payloads, built as protojsonx (prost) values. Every other
//! representation is decoded from their ProtoJSON or binary encoding.

use std::collections::{BTreeMap, HashMap};

use prost::Message;
use prost_types::value::Kind;
use prost_types::{Any, Duration, ListValue, Struct, Timestamp, Value};
use protojsonx_example::event::v1::{LargeEventPayload, MediumEvent, SmallObject};

use crate::pjx::bench::v1::{
    Address, BankTransfer, LineItem, Order, OrderBatch, Scalars, Status, order::Payment,
};

mod trace;
pub use trace::{SPANS_PER_SCOPE, otlp};

/// Orders in the ~50 KB `OrderBatch`.
pub const BATCH_ORDERS: u32 = 36;

/// Events in the Large payload, as in the Go benchmark.
pub const LARGE_EVENTS: u32 = 100;

/// The Go benchmark's small object (about 55 bytes of ProtoJSON).
pub fn small() -> SmallObject {
    SmallObject {
        id: "obj_12345".into(),
        active: true,
        age: 30,
        score: 95.5,
    }
}

/// One realistic event (about 290 bytes of ProtoJSON).
pub fn medium() -> MediumEvent {
    protojsonx_example::sample_event(42)
}

/// 100 events (about 29 KB of ProtoJSON).
pub fn large() -> LargeEventPayload {
    LargeEventPayload {
        events: (0..LARGE_EVENTS)
            .map(protojsonx_example::sample_event)
            .collect(),
    }
}

/// A batch of orders (about 50 KB of ProtoJSON).
pub fn order_batch() -> OrderBatch {
    OrderBatch {
        orders: (0..BATCH_ORDERS).map(order).collect(),
    }
}

/// A realistic order (about 1.4 KB of ProtoJSON) using every feature of the
/// richer schema; `n` varies ids, amounts and the oneof member.
pub fn order(n: u32) -> Order {
    let address = Address {
        street: format!("{} Rue de Rivoli", 10 + n % 90),
        city: "Paris".into(),
        country_code: "FR".into(),
    };
    Order {
        id: format!("ord_{n:08}"),
        status: Status::Paid as i32,
        scalars: Some(scalars(n)),
        items: (0..2).map(|i| line_item(n, i)).collect(),
        attributes: HashMap::from([
            ("channel".to_string(), "web".to_string()),
            ("coupon".to_string(), format!("SPRING{}", n % 10)),
        ]),
        lines: HashMap::from([(1, line_item(n, 3))]),
        tallies: HashMap::from([(1_700_000_000_000 + i64::from(n), 3), (-5, 1)]),
        payment: Some(if n % 2 == 0 {
            Payment::CardToken(format!("tok_{:016x}", u64::from(n) * 0x9e37_79b9))
        } else {
            Payment::Bank(BankTransfer {
                iban: "FR7630006000011234567890189".into(),
                reference: format!("INV-{n:06}"),
            })
        }),
        created_at: Some(Timestamp {
            seconds: 1_732_000_000 + i64::from(n),
            nanos: 123_000_000,
        }),
        ttl: Some(Duration {
            seconds: 3600,
            nanos: 500_000_000,
        }),
        extra: Some(extra(n)),
        detail: Some(Any {
            type_url: "type.googleapis.com/bench.v1.Address".into(),
            value: address.encode_to_vec(),
        }),
        note: Some("Ring twice, \"please\"".into()),
        discount_micros: Some(-2_500_000),
        gift: Some(n % 3 == 0),
        weight_kg: Some(2.75),
        history: vec![Status::Pending as i32, Status::Paid as i32],
        shipping: Some(address),
        signature: (0..24u8)
            .map(|i| i.wrapping_mul(37).wrapping_add(n as u8))
            .collect(),
    }
}

/// One field of every scalar type, with values that need care in JSON:
/// 64-bit integers past 2^53, escapes and non-ASCII text, bytes.
fn scalars(n: u32) -> Scalars {
    Scalars {
        f_double: 1234.5678 + f64::from(n),
        f_float: 0.25,
        f_int32: -42,
        f_int64: -9_007_199_254_740_993,
        f_uint32: 4_000_000_000,
        f_uint64: u64::MAX - u64::from(n),
        f_sint32: -7,
        f_sint64: -123_456_789_012,
        f_fixed32: 1_234_567,
        f_fixed64: 9_876_543_210,
        f_sfixed32: -1_234_567,
        f_sfixed64: -9_876_543_210,
        f_bool: true,
        f_string: "café \"東京\"\t\\".into(),
        f_bytes: (0..8).collect(),
    }
}

/// A line item; `i` picks the product.
fn line_item(n: u32, i: u32) -> LineItem {
    LineItem {
        sku: format!("SKU-{:05}", (n * 7 + i * 131) % 100_000),
        quantity: 1 + i,
        price_micros: 19_990_000 + i64::from(i) * 5_000_000,
        labels: vec!["fragile".into(), format!("bin-{}", i % 4)],
    }
}

/// A free-form `google.protobuf.Struct`: strings, numbers, a bool, null, a
/// list and a nested object.
fn extra(n: u32) -> Struct {
    let value = |kind| Value { kind: Some(kind) };
    let campaign = Struct {
        fields: BTreeMap::from([(
            "id".to_string(),
            value(Kind::NumberValue(f64::from(n % 50))),
        )]),
    };
    Struct {
        fields: BTreeMap::from([
            (
                "source".to_string(),
                value(Kind::StringValue("newsletter".into())),
            ),
            ("score".to_string(), value(Kind::NumberValue(0.875))),
            ("firstOrder".to_string(), value(Kind::BoolValue(n % 5 == 0))),
            ("referrer".to_string(), value(Kind::NullValue(0))),
            (
                "segments".to_string(),
                value(Kind::ListValue(ListValue {
                    values: vec![
                        value(Kind::StringValue("eu".into())),
                        value(Kind::NumberValue(2.5)),
                    ],
                })),
            ),
            ("campaign".to_string(), value(Kind::StructValue(campaign))),
        ]),
    }
}
