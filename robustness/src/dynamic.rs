//! The dynamic transcoder (`protojsonx-dynamic`) against the generated
//! path, message type by message type: the oracles the property tests
//! (`tests/dynamic.rs`) and the fuzz target `dynamic` share.
//!
//! - Binary to JSON: `MessageType::binary_to_json` writes byte for byte
//!   what prost's decode and the generated encoder write under the same
//!   options; where prost rejects the binary, the transcoder rejects it too.
//! - JSON to binary: `MessageType::json_to_binary` accepts exactly what the
//!   generated decoder accepts, its binary decodes (prost) to the message
//!   the generated decoder gives, and its errors are of the same kind.
//!
//! The pool is this crate's descriptor set without its extensions: prost
//! and so the generated code have none (their fields are unknown fields,
//! dropped from binary and rejected in JSON), while the transcoder writes
//! them as `"[full.name]"` keys (the conformance suite tests that).

use std::sync::LazyLock;

use prost::Message;
use prost_types::{DescriptorProto, FileDescriptorSet};
use protojsonx_dynamic::{MessageType, Pool};
use protojsonx_runtime::{DecodeOptions, EncodeOptions, Error, ProtoJson};

/// One generated message type, with what the oracles run on it.
pub struct Generated {
    /// The full protobuf name.
    pub full_name: &'static str,
    /// Checks [`binary_to_json_agrees`] for this type.
    binary: fn(&MessageType, &[u8], &EncodeOptions) -> Verdict,
    /// Checks [`json_to_binary_agrees`] for this type.
    json: fn(&MessageType, &[u8], &DecodeOptions) -> Verdict,
}

/// How the two paths compare on one input: `Ok(None)` the same, `Ok(Some)`
/// errors of the same kind whose texts differ (the two texts), `Err` a
/// discrepancy, described.
pub type Verdict = Result<Option<String>, String>;

impl Generated {
    fn of<M: ProtoJson + Message + Default + PartialEq + std::fmt::Debug + 'static>(
        full_name: &'static str,
    ) -> Self {
        Generated {
            full_name,
            binary: binary_agrees::<M>,
            json: json_agrees::<M>,
        }
    }

    /// The transcoder's type of the same name.
    pub fn dynamic(&self) -> MessageType {
        pool()
            .message(self.full_name)
            .unwrap_or_else(|| panic!("{} is in the pool", self.full_name))
    }
}

/// The binary to JSON oracle: see the module documentation.
pub fn binary_to_json_agrees(g: &Generated, binary: &[u8], opts: &EncodeOptions) -> Verdict {
    crate::register_all();
    (g.binary)(&g.dynamic(), binary, opts)
}

/// The JSON to binary oracle: see the module documentation.
pub fn json_to_binary_agrees(g: &Generated, json: &[u8], opts: &DecodeOptions) -> Verdict {
    crate::register_all();
    (g.json)(&g.dynamic(), json, opts)
}

fn binary_agrees<M: ProtoJson + Message + Default>(
    ty: &MessageType,
    binary: &[u8],
    opts: &EncodeOptions,
) -> Verdict {
    let dynamic = ty.binary_to_json(binary, opts);
    let shown = || format!("binary {binary:02x?} as {}, {opts:?}", ty.full_name());
    let msg = match M::decode(binary) {
        Ok(msg) => msg,
        Err(prost) => {
            return match dynamic {
                Err(_) => Ok(None),
                Ok(json) => Err(format!(
                    "prost rejects ({prost}), the transcoder writes {}\n{}",
                    String::from_utf8_lossy(&json),
                    shown()
                )),
            };
        }
    };
    let generated = opts.to_vec(&msg);
    compare(generated, dynamic, shown).and_then(|outputs| match outputs {
        Outputs::Same(generated, dynamic) if generated == dynamic => Ok(None),
        Outputs::Same(generated, dynamic) => Err(format!(
            "the generated JSON\n  {}\nthe transcoder's\n  {}\n{}",
            String::from_utf8_lossy(&generated),
            String::from_utf8_lossy(&dynamic),
            shown()
        )),
        Outputs::Failed(texts) => Ok(texts),
    })
}

fn json_agrees<M: ProtoJson + Message + Default + PartialEq + std::fmt::Debug>(
    ty: &MessageType,
    json: &[u8],
    opts: &DecodeOptions,
) -> Verdict {
    let generated = opts.from_slice::<M>(json);
    let dynamic = ty.json_to_binary(json, opts);
    let shown = || {
        format!(
            "JSON {} as {}, {opts:?}",
            String::from_utf8_lossy(json),
            ty.full_name()
        )
    };
    match compare(generated, dynamic, shown)? {
        Outputs::Failed(texts) => Ok(texts),
        Outputs::Same(generated, binary) => match M::decode(binary.as_slice()) {
            Ok(back) if same_message(&back, &generated) => Ok(None),
            Ok(back) => Err(format!(
                "the generated decoder gives\n  {generated:?}\nthe transcoder's binary decodes to\n  \
                 {back:?}\n{}",
                shown()
            )),
            Err(e) => Err(format!(
                "prost rejects the transcoder's binary {binary:02x?} ({e})\n{}",
                shown()
            )),
        },
    }
}

/// What both paths gave, when they agree on success or failure.
enum Outputs<G> {
    /// Both succeeded.
    Same(G, Vec<u8>),
    /// Both failed with errors of the same kind; the texts if they differ.
    Failed(Option<String>),
}

/// Pairs the two paths' results: both `Ok`, or both `Err` of one kind.
fn compare<G>(
    generated: Result<G, Error>,
    dynamic: Result<Vec<u8>, Error>,
    shown: impl Fn() -> String,
) -> Result<Outputs<G>, String> {
    match (generated, dynamic) {
        (Ok(g), Ok(d)) => Ok(Outputs::Same(g, d)),
        (Err(g), Err(d)) if g.kind() != d.kind() => Err(format!(
            "errors of different kinds: generated {:?} ({g}), transcoder {:?} ({d})\n{}",
            g.kind(),
            d.kind(),
            shown()
        )),
        (Err(g), Err(d)) if same_text(&g.to_string(), &d.to_string()) => Ok(Outputs::Failed(None)),
        (Err(g), Err(d)) => Ok(Outputs::Failed(Some(format!(
            "{:?} error texts differ: generated {g:?}, transcoder {d:?}\n{}",
            g.kind(),
            shown()
        )))),
        (Ok(_), Err(d)) => Err(format!(
            "the generated path succeeds, the transcoder fails: {d}\n{}",
            shown()
        )),
        (Err(g), Ok(d)) => Err(format!(
            "the generated path fails ({g}), the transcoder gives {:02x?} / {}\n{}",
            d,
            String::from_utf8_lossy(&d),
            shown()
        )),
    }
}

/// Whether two error texts are the same, but for the known differences:
/// the hint after an `Any`'s unknown type, which tells how to make the
/// type known (register it; put it in the descriptor pool), and the cause
/// of an `Any`'s value that cannot be decoded (prost's error; the
/// transcoder's own binary error).
fn same_text(generated: &str, dynamic: &str) -> bool {
    const KNOWN: [(&str, &str); 2] = [
        ("unknown message type ", "): "),
        (
            "cannot decode the value of the google.protobuf.Any of type ",
            "\": ",
        ),
    ];
    let head = |text: &str, (start, end): (&str, &str)| {
        text.starts_with(start)
            .then(|| text.find(end).map(|at| text[..at].to_string()))
            .flatten()
    };
    generated == dynamic
        || KNOWN.iter().any(|&known| {
            let ours = head(generated, known);
            ours.is_some() && ours == head(dynamic, known)
        })
}

/// Whether `transcoded` (the transcoder's binary, decoded by prost) is the
/// generated decoder's message, NaN equal to NaN: by `==`, or else by their
/// JSON (which writes every NaN as `"NaN"` and map keys sorted), or else by
/// the JSON of `transcoded` read back by the generated decoder. That last
/// step covers the one way the generated path loses information: it packs
/// an `Any`'s message with prost, which leaves out a `-0` where the field
/// has no presence (a map value, a proto3 double: equal to the default by
/// value), where the transcoder keeps the sign, as protobuf's own encoders
/// do; reading the JSON back packs it the same way.
fn same_message<M: ProtoJson + PartialEq + Default>(transcoded: &M, generated: &M) -> bool {
    if transcoded == generated {
        return true;
    }
    let opts = EncodeOptions::new().emit_default_values(true);
    let (Ok(ours), Ok(theirs)) = (opts.to_vec(transcoded), opts.to_vec(generated)) else {
        return false;
    };
    ours == theirs
        || DecodeOptions::new()
            .from_slice::<M>(&ours)
            .is_ok_and(|back| opts.to_vec(&back).is_ok_and(|json| json == theirs))
}

/// This crate's descriptor set without extensions, as a transcoder pool.
pub fn pool() -> &'static Pool {
    static POOL: LazyLock<Pool> = LazyLock::new(|| {
        let mut set =
            FileDescriptorSet::decode(crate::DESCRIPTORS).expect("the build wrote a valid set");
        for file in &mut set.file {
            file.extension.clear();
            file.message_type.iter_mut().for_each(without_extensions);
        }
        Pool::from_file_descriptor_set(set).expect("the descriptors are valid")
    });
    &POOL
}

fn without_extensions(message: &mut DescriptorProto) {
    message.extension.clear();
    message.nested_type.iter_mut().for_each(without_extensions);
}

/// The packages whose every message [`generated`] lists.
pub const PACKAGES: [&str; 10] = [
    "protobuf_test_messages.proto3",
    "protobuf_test_messages.proto2",
    "event.v1",
    "bench.v1",
    "bench.otlp.v1",
    "protojsonx.test",
    "protojsonx.other",
    "protojsonx.names",
    "protojsonx.legacy",
    "protojsonx.variants",
];

/// The messages of the pool whose generated type cannot be built:
/// prost-build makes a `required` message field a plain `Box`, and these
/// two require each other, so their `Default` recurses until the stack
/// overflows (and prost's decode starts from `Default`); in proto2 and in
/// the editions copy, whose `LEGACY_REQUIRED` fields are `required` ones.
pub const UNCONSTRUCTIBLE: [&str; 4] = [
    "protobuf_test_messages.proto2.TestAllRequiredTypesProto2",
    "protobuf_test_messages.proto2.TestAllRequiredTypesProto2.NestedMessage",
    "protobuf_test_messages.editions.proto2.TestAllRequiredTypesProto2",
    "protobuf_test_messages.editions.proto2.TestAllRequiredTypesProto2.NestedMessage",
];

/// Every message of the conformance test protos, the benchmark schemas and
/// the project's test protos ([`PACKAGES`]; map entries have no type of
/// their own, and the [`UNCONSTRUCTIBLE`] ones are left out), with its
/// generated type.
pub fn generated() -> &'static [Generated] {
    static ALL: LazyLock<Vec<Generated>> = LazyLock::new(all);
    &ALL
}

/// `path => "name"` pairs as [`Generated`] entries.
macro_rules! generated {
    ($($path:path => $name:literal,)*) => {
        vec![$(Generated::of::<$path>($name),)*]
    };
}

fn all() -> Vec<Generated> {
    use crate::bench::otlp::v1 as otlp;
    use crate::bench::v1 as bench;
    use crate::event::v1 as event;
    use crate::protobuf_test_messages::proto2 as p2;
    use crate::protobuf_test_messages::proto3 as p3;
    use crate::protojsonx::{legacy, names, other, test, variants};
    generated![
        p3::TestAllTypesProto3 => "protobuf_test_messages.proto3.TestAllTypesProto3",
        p3::test_all_types_proto3::NestedMessage => "protobuf_test_messages.proto3.TestAllTypesProto3.NestedMessage",
        p3::ForeignMessage => "protobuf_test_messages.proto3.ForeignMessage",
        p3::NullHypothesisProto3 => "protobuf_test_messages.proto3.NullHypothesisProto3",
        p3::EnumOnlyProto3 => "protobuf_test_messages.proto3.EnumOnlyProto3",
        p2::TestAllTypesProto2 => "protobuf_test_messages.proto2.TestAllTypesProto2",
        p2::test_all_types_proto2::NestedMessage => "protobuf_test_messages.proto2.TestAllTypesProto2.NestedMessage",
        p2::test_all_types_proto2::Data => "protobuf_test_messages.proto2.TestAllTypesProto2.Data",
        p2::test_all_types_proto2::MultiWordGroupField => "protobuf_test_messages.proto2.TestAllTypesProto2.MultiWordGroupField",
        p2::test_all_types_proto2::MessageSetCorrect => "protobuf_test_messages.proto2.TestAllTypesProto2.MessageSetCorrect",
        p2::test_all_types_proto2::MessageSetCorrectExtension1 => "protobuf_test_messages.proto2.TestAllTypesProto2.MessageSetCorrectExtension1",
        p2::test_all_types_proto2::MessageSetCorrectExtension2 => "protobuf_test_messages.proto2.TestAllTypesProto2.MessageSetCorrectExtension2",
        p2::test_all_types_proto2::ExtensionWithOneof => "protobuf_test_messages.proto2.TestAllTypesProto2.ExtensionWithOneof",
        p2::ForeignMessageProto2 => "protobuf_test_messages.proto2.ForeignMessageProto2",
        p2::GroupField => "protobuf_test_messages.proto2.GroupField",
        p2::UnknownToTestAllTypes => "protobuf_test_messages.proto2.UnknownToTestAllTypes",
        p2::unknown_to_test_all_types::OptionalGroup => "protobuf_test_messages.proto2.UnknownToTestAllTypes.OptionalGroup",
        p2::NullHypothesisProto2 => "protobuf_test_messages.proto2.NullHypothesisProto2",
        p2::EnumOnlyProto2 => "protobuf_test_messages.proto2.EnumOnlyProto2",
        p2::OneStringProto2 => "protobuf_test_messages.proto2.OneStringProto2",
        p2::ProtoWithKeywords => "protobuf_test_messages.proto2.ProtoWithKeywords",
        p2::test_all_required_types_proto2::Data => "protobuf_test_messages.proto2.TestAllRequiredTypesProto2.Data",
        p2::test_all_required_types_proto2::MessageSetCorrect => "protobuf_test_messages.proto2.TestAllRequiredTypesProto2.MessageSetCorrect",
        p2::test_all_required_types_proto2::MessageSetCorrectExtension1 => "protobuf_test_messages.proto2.TestAllRequiredTypesProto2.MessageSetCorrectExtension1",
        p2::test_all_required_types_proto2::MessageSetCorrectExtension2 => "protobuf_test_messages.proto2.TestAllRequiredTypesProto2.MessageSetCorrectExtension2",
        p2::TestLargeOneof => "protobuf_test_messages.proto2.TestLargeOneof",
        p2::test_large_oneof::A1 => "protobuf_test_messages.proto2.TestLargeOneof.A1",
        p2::test_large_oneof::A2 => "protobuf_test_messages.proto2.TestLargeOneof.A2",
        p2::test_large_oneof::A3 => "protobuf_test_messages.proto2.TestLargeOneof.A3",
        p2::test_large_oneof::A4 => "protobuf_test_messages.proto2.TestLargeOneof.A4",
        p2::test_large_oneof::A5 => "protobuf_test_messages.proto2.TestLargeOneof.A5",
        event::SmallObject => "event.v1.SmallObject",
        event::Actor => "event.v1.Actor",
        event::Metadata => "event.v1.Metadata",
        event::MediumEvent => "event.v1.MediumEvent",
        event::LargeEventPayload => "event.v1.LargeEventPayload",
        bench::Scalars => "bench.v1.Scalars",
        bench::Address => "bench.v1.Address",
        bench::LineItem => "bench.v1.LineItem",
        bench::BankTransfer => "bench.v1.BankTransfer",
        bench::Order => "bench.v1.Order",
        bench::OrderBatch => "bench.v1.OrderBatch",
        otlp::ExportTraceServiceRequest => "bench.otlp.v1.ExportTraceServiceRequest",
        otlp::ResourceSpans => "bench.otlp.v1.ResourceSpans",
        otlp::Resource => "bench.otlp.v1.Resource",
        otlp::ScopeSpans => "bench.otlp.v1.ScopeSpans",
        otlp::InstrumentationScope => "bench.otlp.v1.InstrumentationScope",
        otlp::Span => "bench.otlp.v1.Span",
        otlp::span::Event => "bench.otlp.v1.Span.Event",
        otlp::span::Link => "bench.otlp.v1.Span.Link",
        otlp::Status => "bench.otlp.v1.Status",
        otlp::KeyValue => "bench.otlp.v1.KeyValue",
        otlp::AnyValue => "bench.otlp.v1.AnyValue",
        otlp::ArrayValue => "bench.otlp.v1.ArrayValue",
        otlp::KeyValueList => "bench.otlp.v1.KeyValueList",
        test::Scalars => "protojsonx.test.Scalars",
        test::Maps => "protojsonx.test.Maps",
        test::Oneofs => "protojsonx.test.Oneofs",
        test::Tree => "protojsonx.test.Tree",
        test::Outer => "protojsonx.test.Outer",
        test::outer::Inner => "protojsonx.test.Outer.Inner",
        test::outer::inner::Deepest => "protojsonx.test.Outer.Inner.Deepest",
        test::Nothing => "protojsonx.test.Nothing",
        test::WellKnown => "protojsonx.test.WellKnown",
        test::OnlyValues => "protojsonx.test.OnlyValues",
        test::OnlyValueMap => "protojsonx.test.OnlyValueMap",
        other::Remote => "protojsonx.other.Remote",
        names::Self_ => "protojsonx.names.Self",
        names::Type => "protojsonx.names.Type",
        names::r#type::Gen => "protojsonx.names.Type.Gen",
        names::Conflict => "protojsonx.names.Conflict",
        names::conflict::Kind => "protojsonx.names.Conflict.Kind",
        names::Option => "protojsonx.names.Option",
        names::Result => "protojsonx.names.Result",
        names::Retired => "protojsonx.names.Retired",
        names::Accented => "protojsonx.names.Accented",
        legacy::Child => "protojsonx.legacy.Child",
        legacy::Legacy => "protojsonx.legacy.Legacy",
        legacy::legacy::Grouped => "protojsonx.legacy.Legacy.Grouped",
        legacy::legacy::Item => "protojsonx.legacy.Legacy.Item",
        variants::Variants => "protojsonx.variants.Variants",
    ]
}
