//! Checks that every implementation reads the same bytes (in-order and
//! shuffled keys) to the same message, and that what each one writes reads
//! back as that message; byte for byte where the output is deterministic.
//!
//! Messages of different Rust types are compared through the protobuf binary
//! encoding (decoded into the protojsonx struct); the plain serde structs,
//! which have no binary encoding, through their JSON output read back by
//! protojsonx. Known differences in the bytes written:
//! - maps: protojsonx sorts keys; prost-reflect, pbjson and the plain structs
//!   write `HashMap` iteration order, which varies from run to run;
//! - `google.protobuf.Value` numbers: prost-reflect writes `7.0` where
//!   protojsonx, like protobuf's reference implementations, writes `7`.

use prost::Message;
use protojsonx_runtime::{DecodeOptions, EncodeOptions, ProtoJson};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::cases::{Payload, Payloads, reflect_decode};

/// Each encoder's output for `p`, by implementation name.
fn encodings<M, P, L>(p: &Payload<M, P, L>) -> Vec<(&'static str, Vec<u8>)>
where
    M: ProtoJson + Message + Clone + 'static,
    P: Serialize + DeserializeOwned + Clone + 'static,
    L: Serialize + DeserializeOwned + Clone + 'static,
{
    let mut buf = b"stale".to_vec();
    buf.clear();
    protojsonx_runtime::encode_into(&p.msg, &mut buf).unwrap();
    let mut out = vec![
        ("protojsonx", protojsonx_runtime::to_vec(&p.msg).unwrap()),
        ("protojsonx-reused-buf", buf),
        ("prost-reflect", serde_json::to_vec(&p.dynamic).unwrap()),
        ("serde_json", serde_json::to_vec(&p.plain).unwrap()),
        ("sonic-rs", sonic_rs::to_vec(&p.plain).unwrap()),
        ("simd-json", simd_json::serde::to_vec(&p.plain).unwrap()),
    ];
    if let Some(value) = &p.pbjson {
        out.push(("pbjson", serde_json::to_vec(value).unwrap()));
    }
    out
}

/// Asserts that `decode_into` of `json` gives `p.msg` both into a message
/// already holding it (the `protojsonx-decode-into` case) and into an empty
/// one, and that `decode_into` of `{}` then empties it; and that prost's
/// `clear` + `merge` (`prost-clear-merge`) on a kept message gives `p.msg`.
fn assert_reuse_agrees<M, P, L>(p: &Payload<M, P, L>, json: &[u8])
where
    M: ProtoJson + Message + Clone + PartialEq + std::fmt::Debug + 'static,
{
    let mut msg: M = protojsonx_runtime::from_slice(json).unwrap();
    protojsonx_runtime::decode_into(&mut msg, json).unwrap();
    assert_eq!(msg, p.msg, "protojsonx-decode-into, same input");
    let mut empty = M::default();
    protojsonx_runtime::decode_into(&mut empty, json).unwrap();
    assert_eq!(empty, p.msg, "protojsonx-decode-into, empty message");
    protojsonx_runtime::decode_into(&mut msg, b"{}").unwrap();
    assert_eq!(msg, M::default(), "protojsonx-decode-into of {{}}");
    let mut msg = M::decode(p.binary.as_slice()).unwrap();
    msg.clear();
    msg.merge(p.binary.as_slice()).unwrap();
    assert_eq!(msg, p.msg, "prost-clear-merge");
}

/// Asserts that every decoder reads `json` as `p.msg`.
fn assert_decoders_agree<M, P, L>(p: &Payload<M, P, L>, json: &[u8])
where
    M: ProtoJson + Message + Clone + PartialEq + std::fmt::Debug + 'static,
    P: Serialize + DeserializeOwned + Clone + Message + 'static,
    L: Serialize + DeserializeOwned + Clone + PartialEq + std::fmt::Debug + 'static,
{
    let via_binary = |bytes: Vec<u8>| M::decode(bytes.as_slice()).unwrap();
    assert_reuse_agrees(p, json);
    assert_eq!(
        protojsonx_runtime::from_slice::<M>(json).unwrap(),
        p.msg,
        "protojsonx"
    );
    assert_eq!(M::decode(p.binary.as_slice()).unwrap(), p.msg, "prost");
    let dynamic = reflect_decode(&p.descriptor(), json);
    assert_eq!(via_binary(dynamic.encode_to_vec()), p.msg, "prost-reflect");
    if p.pbjson.is_some() {
        let value: P = serde_json::from_slice(json).unwrap();
        assert_eq!(via_binary(value.encode_to_vec()), p.msg, "pbjson");
    }
    let plain: L = serde_json::from_slice(json).unwrap();
    assert_eq!(sonic_rs::from_slice::<L>(json).unwrap(), plain, "sonic-rs");
    let mut copy = json.to_vec();
    let simd: L = simd_json::serde::from_slice(&mut copy).unwrap();
    assert_eq!(simd, plain, "simd-json");
    let written = serde_json::to_vec(&plain).unwrap();
    assert_eq!(
        protojsonx_runtime::from_slice::<M>(&written).unwrap(),
        p.msg,
        "serde_json"
    );
}

/// Asserts that every encoder's output reads back as `p.msg`, and that the
/// outputs named in `identical` are byte-equal to protojsonx's.
fn assert_encoders_agree<M, P, L>(p: &Payload<M, P, L>, identical: &[&str])
where
    M: ProtoJson + Message + Clone + PartialEq + std::fmt::Debug + 'static,
    P: Serialize + DeserializeOwned + Clone + 'static,
    L: Serialize + DeserializeOwned + Clone + 'static,
{
    let outputs = encodings(p);
    for (name, bytes) in &outputs {
        let back: M = protojsonx_runtime::from_slice(bytes).unwrap();
        assert_eq!(back, p.msg, "{name} output reads back");
        if identical.contains(name) {
            assert_eq!(
                String::from_utf8_lossy(bytes),
                String::from_utf8_lossy(&p.json),
                "{name} bytes"
            );
        }
    }
    for name in identical {
        assert!(outputs.iter().any(|(n, _)| n == name), "{name} was not run");
    }
}

/// Asserts that protojsonx's option variants read back as `p.msg`.
fn assert_options_round_trip<M, P, L>(p: &Payload<M, P, L>)
where
    M: ProtoJson + Message + Clone + PartialEq + std::fmt::Debug + 'static,
{
    for opts in [
        EncodeOptions::new().use_proto_names(true),
        EncodeOptions::new().emit_default_values(true),
        EncodeOptions::new().enums_as_ints(true),
    ] {
        let json = opts.to_vec(&p.msg).unwrap();
        assert_eq!(
            protojsonx_runtime::from_slice::<M>(&json).unwrap(),
            p.msg,
            "{opts:?}"
        );
    }
    let lenient = DecodeOptions::new().ignore_unknown_fields(true);
    assert_eq!(lenient.from_slice::<M>(&p.json).unwrap(), p.msg);
}

const EVERY_ENCODER: &[&str] = &[
    "protojsonx",
    "protojsonx-reused-buf",
    "prost-reflect",
    "serde_json",
    "sonic-rs",
    "simd-json",
    "pbjson",
];

#[test]
fn event_payloads_agree_byte_for_byte() {
    let all = Payloads::new();
    for json in [&all.small.json, &all.small.shuffled] {
        assert_decoders_agree(&all.small, json);
    }
    for json in [&all.medium.json, &all.medium.shuffled] {
        assert_decoders_agree(&all.medium, json);
    }
    for json in [&all.large.json, &all.large.shuffled] {
        assert_decoders_agree(&all.large, json);
    }
    assert_encoders_agree(&all.small, EVERY_ENCODER);
    assert_encoders_agree(&all.medium, EVERY_ENCODER);
    assert_encoders_agree(&all.large, EVERY_ENCODER);
    assert_options_round_trip(&all.medium);
    assert_options_round_trip(&all.large);
}

#[test]
fn order_payloads_agree() {
    let all = Payloads::new();
    for json in [&all.order.json, &all.order.shuffled] {
        assert_decoders_agree(&all.order, json);
    }
    for json in [&all.batch.json, &all.batch.shuffled] {
        assert_decoders_agree(&all.batch, json);
    }
    let deterministic = ["protojsonx", "protojsonx-reused-buf"];
    assert_encoders_agree(&all.order, &deterministic);
    assert_encoders_agree(&all.batch, &deterministic);
    assert_options_round_trip(&all.order);
    assert_options_round_trip(&all.batch);
}

#[test]
fn otlp_payload_agrees_byte_for_byte() {
    let all = Payloads::new();
    for json in [&all.otlp.json, &all.otlp.shuffled] {
        assert_decoders_agree(&all.otlp, json);
    }
    // prost-reflect writes fields in number order, `Span.flags` (16) last;
    // the others in declaration order, as protojsonx does.
    let in_declaration_order: Vec<_> = EVERY_ENCODER
        .iter()
        .copied()
        .filter(|&name| name != "prost-reflect")
        .collect();
    assert_encoders_agree(&all.otlp, &in_declaration_order);
    assert_options_round_trip(&all.otlp);
    let pretty = EncodeOptions::new()
        .indent(2)
        .to_vec(&all.otlp.msg)
        .unwrap();
    assert_decoders_agree(&all.otlp, &pretty);
}

/// Every kind of OTLP value is in the payload at least once.
#[test]
fn otlp_payload_has_every_value_kind() {
    let json = String::from_utf8(Payloads::new().otlp.json).unwrap();
    for member in [
        "stringValue",
        "boolValue",
        "intValue",
        "doubleValue",
        "arrayValue",
        "kvlistValue",
        "bytesValue",
        "events",
        "links",
        "parentSpanId",
        "traceState",
        "STATUS_CODE_ERROR",
        "SPAN_KIND_CONSUMER",
    ] {
        assert!(json.contains(&format!("\"{member}")), "{member}");
    }
}

#[test]
fn pbjson_cannot_read_protojson_any() {
    let all = Payloads::new();
    let err = serde_json::from_slice::<crate::pbj::bench::v1::Order>(&all.order.json).unwrap_err();
    assert!(err.to_string().contains("@type"), "{err}");
}

#[test]
fn payloads_have_the_documented_sizes() {
    let all = Payloads::new();
    let sizes = [
        all.small.json.len(),
        all.medium.json.len(),
        all.large.json.len(),
        all.order.json.len(),
        all.batch.json.len(),
        all.otlp.json.len(),
    ];
    let expected = [
        (40, 70),
        (250, 400),
        (25_000, 40_000),
        (1_000, 1_600),
        (45_000, 55_000),
        (185_000, 205_000),
    ];
    for (size, (min, max)) in sizes.into_iter().zip(expected) {
        assert!((min..=max).contains(&size), "{size} not in {min}..={max}");
    }
}

#[test]
fn every_case_runs() {
    let all = Payloads::new();
    let mut cases = all.cases();
    assert!(cases.len() > 100, "{}", cases.len());
    for case in &mut cases {
        (case.run)();
    }
}
