//! The benchmark cases: every implementation on every payload, marshal and
//! unmarshal, as closures. The criterion bench and the allocation counter run
//! this same list, so their rows always match.

use std::hint::black_box;
use std::sync::OnceLock;

use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, ReflectMessage};
use protojsonx_runtime::{DecodeOptions, EncodeOptions, ProtoJson};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{payloads, pbj, plain, shuffle};

/// Marshal (message to bytes), unmarshal (bytes to message), or transcode
/// between binary protobuf and ProtoJSON with no message of a generated type
/// (a schema known at run time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Marshal,
    Unmarshal,
    BinaryToJson,
    JsonToBinary,
    /// Compiling the dynamic transcoder's tables for a whole schema.
    CompileTables,
}

impl Direction {
    /// The name used in benchmark ids and the results table.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Marshal => "marshal",
            Direction::Unmarshal => "unmarshal",
            Direction::BinaryToJson => "binary-to-json",
            Direction::JsonToBinary => "json-to-binary",
            Direction::CompileTables => "compile-tables",
        }
    }
}

/// One benchmarked operation.
pub struct Case {
    /// Payload name: `small`, `medium`, `large`, `order`, `order-batch`, `otlp`.
    pub payload: &'static str,
    pub direction: Direction,
    /// Input or options variant: `default`, `shuffled`, `proto-names`, ...
    pub variant: &'static str,
    /// Implementation name: `protojsonx`, `protojsonx-decode-into`, `prost`,
    /// `prost-clear-merge`, `pbjson`, ...
    pub implementation: &'static str,
    /// Size of the ProtoJSON written or read (the default encoding's, except
    /// for option variants that change it), for MB/s.
    pub json_len: usize,
    /// Runs the operation once; results go through `black_box` and are dropped.
    pub run: Box<dyn FnMut()>,
}

impl Case {
    /// The criterion group: payload, direction and variant.
    pub fn group(&self) -> String {
        format!(
            "{}/{}/{}",
            self.payload,
            self.direction.name(),
            self.variant
        )
    }

    /// The case's full name, `group/implementation`
    /// (`medium/unmarshal/default/prost`), as the profiling binaries take it.
    pub fn name(&self) -> String {
        format!("{}/{}", self.group(), self.implementation)
    }
}

/// The descriptors of every schema, for prost-reflect.
pub fn pool() -> &'static DescriptorPool {
    static POOL: OnceLock<DescriptorPool> = OnceLock::new();
    POOL.get_or_init(|| {
        DescriptorPool::decode(&include_bytes!(concat!(env!("OUT_DIR"), "/descriptors.bin"))[..])
            .expect("build.rs wrote a valid descriptor set")
    })
}

/// The same descriptors as a protojsonx-dynamic pool.
pub fn dynamic_pool() -> &'static protojsonx_dynamic::Pool {
    static POOL: OnceLock<protojsonx_dynamic::Pool> = OnceLock::new();
    POOL.get_or_init(|| protojsonx_dynamic::Pool::from_descriptor_pool(pool().clone()))
}

/// The variants a payload is timed in besides the default input, shuffled
/// keys and reuse (see [`Payload::cases`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Variants {
    /// No others (Small).
    None,
    /// protojsonx's non-default options.
    Options,
    /// The options, and the enum variants (schemas with enums).
    OptionsAndEnums,
}

/// One payload in every representation, all holding the same message.
pub struct Payload<M, P, L> {
    pub name: &'static str,
    /// The variants it is timed in.
    pub variants: Variants,
    /// The protojsonx (prost) value the payload was built as.
    pub msg: M,
    /// Its ProtoJSON with the default options: the input of every decoder.
    pub json: Vec<u8>,
    /// The same JSON with every object's keys in another order.
    pub shuffled: Vec<u8>,
    /// Its protobuf binary encoding, for prost.
    pub binary: Vec<u8>,
    /// pbjson's value, or `None` where pbjson cannot read this ProtoJSON.
    pub pbjson: Option<P>,
    /// The plain serde structs' value.
    pub plain: L,
    /// prost-reflect's value.
    pub dynamic: DynamicMessage,
}

impl<M, P, L> Payload<M, P, L>
where
    M: ProtoJson + Message + Clone + 'static,
    P: Serialize + DeserializeOwned + Clone + 'static,
    L: Serialize + DeserializeOwned + Clone + 'static,
{
    /// Builds every representation of `msg`, a `full_name` message; pbjson's
    /// only when `pbjson_reads_it`.
    pub fn new(
        name: &'static str,
        variants: Variants,
        msg: M,
        full_name: &str,
        pbjson_reads_it: bool,
    ) -> Self {
        let json = protojsonx_runtime::to_vec(&msg).expect("payload encodes");
        let binary = msg.encode_to_vec();
        let descriptor = pool()
            .get_message_by_name(full_name)
            .expect("message in pool");
        Payload {
            name,
            variants,
            shuffled: shuffle::shuffle_keys(&json, 0x5eed),
            pbjson: pbjson_reads_it
                .then(|| serde_json::from_slice(&json).expect("pbjson reads it")),
            plain: serde_json::from_slice(&json).expect("plain structs read it"),
            dynamic: DynamicMessage::decode(descriptor, binary.as_slice()).expect("binary decodes"),
            msg,
            json,
            binary,
        }
    }

    /// The message's descriptor, for prost-reflect.
    pub fn descriptor(&self) -> MessageDescriptor {
        self.dynamic.descriptor()
    }

    /// Every case for this payload, in its [`Variants`].
    pub fn cases(&self) -> Vec<Case> {
        let mut cases = self.marshal_cases();
        cases.extend(self.unmarshal_cases(self.json.clone(), "default"));
        cases.extend(self.reuse_cases());
        cases.extend(self.unmarshal_cases(self.shuffled.clone(), "shuffled"));
        cases.extend(self.transcode_cases());
        if self.variants != Variants::None {
            cases.extend(self.option_cases(self.variants == Variants::OptionsAndEnums));
        }
        cases
    }

    fn case(
        &self,
        direction: Direction,
        variant: &'static str,
        implementation: &'static str,
        run: impl FnMut() + 'static,
    ) -> Case {
        Case {
            payload: self.name,
            direction,
            variant,
            implementation,
            json_len: self.json.len(),
            run: Box::new(run),
        }
    }

    fn marshal_cases(&self) -> Vec<Case> {
        use Direction::Marshal;
        let msg = self.msg.clone();
        let mut cases = vec![self.case(Marshal, "default", "protojsonx", move || {
            black_box(protojsonx_runtime::to_vec(black_box(&msg)).unwrap());
        })];
        let (msg, mut buf) = (self.msg.clone(), Vec::new());
        cases.push(
            self.case(Marshal, "default", "protojsonx-reused-buf", move || {
                buf.clear();
                protojsonx_runtime::encode_into(black_box(&msg), &mut buf).unwrap();
                black_box(&buf);
            }),
        );
        let msg = self.msg.clone();
        cases.push(self.case(Marshal, "default", "prost", move || {
            black_box(black_box(&msg).encode_to_vec());
        }));
        let (msg, mut buf) = (self.msg.clone(), Vec::new());
        cases.push(self.case(Marshal, "default", "prost-reused-buf", move || {
            buf.clear();
            black_box(&msg).encode(&mut buf).unwrap();
            black_box(&buf);
        }));
        if let Some(value) = self.pbjson.clone() {
            cases.push(self.case(Marshal, "default", "pbjson", move || {
                black_box(serde_json::to_vec(black_box(&value)).unwrap());
            }));
        }
        let value = self.dynamic.clone();
        cases.push(self.case(Marshal, "default", "prost-reflect", move || {
            black_box(serde_json::to_vec(black_box(&value)).unwrap());
        }));
        let value = self.plain.clone();
        cases.push(self.case(Marshal, "default", "serde_json", move || {
            black_box(serde_json::to_vec(black_box(&value)).unwrap());
        }));
        let value = self.plain.clone();
        cases.push(self.case(Marshal, "default", "sonic-rs", move || {
            black_box(sonic_rs::to_vec(black_box(&value)).unwrap());
        }));
        let value = self.plain.clone();
        cases.push(self.case(Marshal, "default", "simd-json", move || {
            black_box(simd_json::serde::to_vec(black_box(&value)).unwrap());
        }));
        cases
    }

    /// Every JSON decoder on `json`; prost binary decode too for the default input.
    fn unmarshal_cases(&self, json: Vec<u8>, variant: &'static str) -> Vec<Case> {
        use Direction::Unmarshal;
        let mut cases = Vec::new();
        let input = json.clone();
        cases.push(self.case(Unmarshal, variant, "protojsonx", move || {
            black_box(protojsonx_runtime::from_slice::<M>(black_box(&input)).unwrap());
        }));
        if variant == "default" {
            let binary = self.binary.clone();
            cases.push(self.case(Unmarshal, variant, "prost", move || {
                black_box(M::decode(black_box(binary.as_slice())).unwrap());
            }));
        }
        if self.pbjson.is_some() {
            let input = json.clone();
            cases.push(self.case(Unmarshal, variant, "pbjson", move || {
                black_box(serde_json::from_slice::<P>(black_box(&input)).unwrap());
            }));
        }
        let (input, descriptor) = (json.clone(), self.descriptor());
        cases.push(self.case(Unmarshal, variant, "prost-reflect", move || {
            black_box(reflect_decode(&descriptor, black_box(&input)));
        }));
        let input = json.clone();
        cases.push(self.case(Unmarshal, variant, "serde_json", move || {
            black_box(serde_json::from_slice::<L>(black_box(&input)).unwrap());
        }));
        let input = json.clone();
        cases.push(self.case(Unmarshal, variant, "sonic-rs", move || {
            black_box(sonic_rs::from_slice::<L>(black_box(&input)).unwrap());
        }));
        // simd-json parses in place, so each run starts from a fresh copy
        // (one allocation and a memcpy, a few percent of its time).
        cases.push(self.case(Unmarshal, variant, "simd-json", move || {
            let mut copy = black_box(&json).clone();
            black_box(simd_json::serde::from_slice::<L>(&mut copy).unwrap());
        }));
        cases
    }

    /// Unmarshal (default input) into a message kept from run to run, which
    /// one decode of the same input filled first: protojsonx's `decode_into`,
    /// and prost's best reuse, `clear` then `merge`.
    fn reuse_cases(&self) -> Vec<Case> {
        use Direction::Unmarshal;
        let input = self.json.clone();
        let mut msg: M = protojsonx_runtime::from_slice(&input).unwrap();
        let into = self.case(Unmarshal, "default", "protojsonx-decode-into", move || {
            protojsonx_runtime::decode_into(&mut msg, black_box(&input)).unwrap();
            black_box(&msg);
        });
        let binary = self.binary.clone();
        let mut msg = M::decode(binary.as_slice()).unwrap();
        let merge = self.case(Unmarshal, "default", "prost-clear-merge", move || {
            msg.clear();
            msg.merge(black_box(binary.as_slice())).unwrap();
            black_box(&msg);
        });
        vec![into, merge]
    }

    /// Transcoding, both ways, for a schema known only at run time:
    /// protojsonx-dynamic from the descriptors (a new buffer, and a reused
    /// one), the generated path through a message (prost and protojsonx),
    /// and prost-reflect (a `DynamicMessage` and serde_json). Building the
    /// cases checks that the dynamic output is the generated path's.
    fn transcode_cases(&self) -> Vec<Case> {
        use Direction::{BinaryToJson, JsonToBinary};
        let full_name = self.descriptor().full_name().to_string();
        let message = dynamic_pool().message(&full_name).expect("message in pool");
        let to_json = |binary: &[u8]| message.binary_to_json(binary, &EncodeOptions::new());
        let dynamic = to_json(&self.binary).unwrap();
        let at = dynamic.iter().zip(&self.json).position(|(a, b)| a != b);
        let around = |json: &[u8]| {
            let at = at.unwrap_or(json.len().min(dynamic.len()));
            String::from_utf8_lossy(&json[at.saturating_sub(80)..(at + 80).min(json.len())])
                .into_owned()
        };
        assert!(
            dynamic == self.json,
            "{full_name}: the dynamic JSON differs from the generated at byte {at:?}:\n{}\n{}",
            around(&dynamic),
            around(&self.json)
        );
        let to_binary = message
            .json_to_binary(&self.json, &DecodeOptions::new())
            .unwrap();
        let decoded = M::decode(to_binary.as_slice()).unwrap();
        let back = protojsonx_runtime::to_vec(&decoded).unwrap();
        assert_eq!(back, self.json, "{full_name}");

        let (m, binary) = (message.clone(), self.binary.clone());
        let mut cases = vec![
            self.case(BinaryToJson, "default", "protojsonx-dynamic", move || {
                black_box(
                    m.binary_to_json(black_box(&binary), &EncodeOptions::new())
                        .unwrap(),
                );
            }),
        ];
        let (m, binary, mut buf) = (message.clone(), self.binary.clone(), Vec::new());
        cases.push(self.case(
            BinaryToJson,
            "default",
            "protojsonx-dynamic-reused-buf",
            move || {
                buf.clear();
                m.binary_to_json_into(black_box(&binary), &EncodeOptions::new(), &mut buf)
                    .unwrap();
                black_box(&buf);
            },
        ));
        let binary = self.binary.clone();
        cases.push(self.case(BinaryToJson, "default", "generated", move || {
            let msg = M::decode(black_box(binary.as_slice())).unwrap();
            black_box(protojsonx_runtime::to_vec(&msg).unwrap());
        }));
        let (binary, descriptor) = (self.binary.clone(), self.descriptor());
        cases.push(
            self.case(BinaryToJson, "default", "prost-reflect", move || {
                let msg = DynamicMessage::decode(descriptor.clone(), black_box(binary.as_slice()));
                black_box(serde_json::to_vec(&msg.unwrap()).unwrap());
            }),
        );

        let (m, json) = (message.clone(), self.json.clone());
        cases.push(
            self.case(JsonToBinary, "default", "protojsonx-dynamic", move || {
                black_box(
                    m.json_to_binary(black_box(&json), &DecodeOptions::new())
                        .unwrap(),
                );
            }),
        );
        let (m, json, mut buf) = (message, self.json.clone(), Vec::new());
        cases.push(self.case(
            JsonToBinary,
            "default",
            "protojsonx-dynamic-reused-buf",
            move || {
                buf.clear();
                m.json_to_binary_into(black_box(&json), &DecodeOptions::new(), &mut buf)
                    .unwrap();
                black_box(&buf);
            },
        ));
        let json = self.json.clone();
        cases.push(self.case(JsonToBinary, "default", "generated", move || {
            let msg: M = protojsonx_runtime::from_slice(black_box(&json)).unwrap();
            black_box(msg.encode_to_vec());
        }));
        let (json, descriptor) = (self.json.clone(), self.descriptor());
        cases.push(
            self.case(JsonToBinary, "default", "prost-reflect", move || {
                black_box(reflect_decode(&descriptor, black_box(&json)).encode_to_vec());
            }),
        );
        cases
    }

    /// protojsonx with each non-default option, against the default cases above.
    fn option_cases(&self, enums: bool) -> Vec<Case> {
        let mut encode = vec![
            ("proto-names", EncodeOptions::new().use_proto_names(true)),
            (
                "emit-default-values",
                EncodeOptions::new().emit_default_values(true),
            ),
            (
                "emit-unpopulated",
                EncodeOptions::new().emit_unpopulated(true),
            ),
            ("ensure-ascii", EncodeOptions::new().ensure_ascii(true)),
            ("indent-2", EncodeOptions::new().indent(2)),
        ];
        if enums {
            encode.push(("enums-as-ints", EncodeOptions::new().enums_as_ints(true)));
        }
        let mut cases = Vec::new();
        for (variant, opts) in encode {
            let msg = self.msg.clone();
            let output = opts.to_vec(&self.msg).unwrap();
            let mut marshal = self.case(Direction::Marshal, variant, "protojsonx", move || {
                black_box(opts.to_vec(black_box(&msg)).unwrap());
            });
            marshal.json_len = output.len();
            cases.push(marshal);
            // Decoding that output: the other spellings the decoder accepts,
            // and pretty-printed input.
            if !variant.starts_with("emit-") && variant != "ensure-ascii" {
                let len = output.len();
                let mut unmarshal =
                    self.case(Direction::Unmarshal, variant, "protojsonx", move || {
                        black_box(protojsonx_runtime::from_slice::<M>(black_box(&output)).unwrap());
                    });
                unmarshal.json_len = len;
                cases.push(unmarshal);
            }
        }
        let (input, opts) = (
            self.json.clone(),
            DecodeOptions::new().ignore_unknown_fields(true),
        );
        cases.push(self.case(
            Direction::Unmarshal,
            "ignore-unknown",
            "protojsonx",
            move || {
                black_box(opts.from_slice::<M>(black_box(&input)).unwrap());
            },
        ));
        cases
    }
}

/// A new dynamic pool of every benchmark schema, every table compiled: the
/// one-time cost of the dynamic transcoder (its `json_len` is the number of
/// message types, for the cost per type).
fn compile_tables() -> Case {
    let types = pool().all_messages().len();
    Case {
        payload: "schema",
        direction: Direction::CompileTables,
        variant: "default",
        implementation: "protojsonx-dynamic",
        json_len: types,
        run: Box::new(|| {
            let fresh = protojsonx_dynamic::Pool::from_descriptor_pool(pool().clone());
            black_box(fresh.compile_all());
        }),
    }
}

/// prost-reflect's decode: a `DynamicMessage` through serde_json.
pub fn reflect_decode(descriptor: &MessageDescriptor, json: &[u8]) -> DynamicMessage {
    let mut de = serde_json::Deserializer::from_slice(json);
    let msg = DynamicMessage::deserialize(descriptor.clone(), &mut de).unwrap();
    de.end().unwrap();
    msg
}

/// The event.v1 payloads (small, medium, large).
pub type SmallPayload = Payload<
    protojsonx_example::event::v1::SmallObject,
    pbj::event::v1::SmallObject,
    plain::SmallObject,
>;
/// See [`SmallPayload`].
pub type MediumPayload = Payload<
    protojsonx_example::event::v1::MediumEvent,
    pbj::event::v1::MediumEvent,
    plain::MediumEvent,
>;
/// See [`SmallPayload`].
pub type LargePayload = Payload<
    protojsonx_example::event::v1::LargeEventPayload,
    pbj::event::v1::LargeEventPayload,
    plain::LargeEventPayload,
>;
/// The bench.v1 payloads (order, order-batch).
pub type OrderPayload = Payload<crate::pjx::bench::v1::Order, pbj::bench::v1::Order, plain::Order>;
/// See [`OrderPayload`].
pub type BatchPayload =
    Payload<crate::pjx::bench::v1::OrderBatch, pbj::bench::v1::OrderBatch, plain::OrderBatch>;

/// The bench.otlp.v1 payload (otlp).
pub type OtlpPayload = Payload<
    crate::pjx::bench::otlp::v1::ExportTraceServiceRequest,
    pbj::bench::otlp::v1::ExportTraceServiceRequest,
    plain::otlp::ExportTraceServiceRequest,
>;

/// All payloads. pbjson is left out of the bench.v1 ones: pbjson-types writes
/// and reads `google.protobuf.Any` as `{"typeUrl":..,"value":base64}`, not
/// ProtoJSON, so it cannot decode their bytes (a test checks this).
pub struct Payloads {
    pub small: SmallPayload,
    pub medium: MediumPayload,
    pub large: LargePayload,
    pub order: OrderPayload,
    pub batch: BatchPayload,
    pub otlp: OtlpPayload,
}

impl Payloads {
    /// Builds every payload (and registers the `Any` types protojsonx needs).
    pub fn new() -> Self {
        crate::pjx::bench::v1::register_protojsonx_types();
        Payloads {
            small: small(),
            medium: medium(),
            large: large(),
            order: order(),
            batch: batch(),
            otlp: otlp(),
        }
    }

    /// Every case of every payload, in report order.
    pub fn cases(&self) -> Vec<Case> {
        let mut cases = self.small.cases();
        cases.extend(self.medium.cases());
        cases.extend(self.large.cases());
        cases.extend(self.order.cases());
        cases.extend(self.batch.cases());
        cases.extend(self.otlp.cases());
        cases.push(compile_tables());
        cases
    }

    /// [`cases`](Self::cases) with their full names ([`Case::name`]).
    pub fn named_cases(&self) -> Vec<(String, Case)> {
        self.cases()
            .into_iter()
            .map(|case| (case.name(), case))
            .collect()
    }

    /// The named cases of the payload called `payload` (`small`, ...,
    /// `otlp`, or `schema` for the dynamic pool's compile case), that payload
    /// built alone: a tool running one case need not build the others (in an
    /// unoptimized build, building all six takes over a billion instructions).
    pub fn named_cases_of(payload: &str) -> Option<Vec<(String, Case)>> {
        crate::pjx::bench::v1::register_protojsonx_types();
        let cases = match payload {
            "small" => small().cases(),
            "medium" => medium().cases(),
            "large" => large().cases(),
            "order" => order().cases(),
            "order-batch" => batch().cases(),
            "otlp" => otlp().cases(),
            "schema" => vec![compile_tables()],
            _ => return None,
        };
        Some(cases.into_iter().map(|case| (case.name(), case)).collect())
    }
}

// Each payload, built (the event.v1 schema has no enums; Small is timed in
// no option variants).
fn small() -> SmallPayload {
    let msg = payloads::small();
    Payload::new("small", Variants::None, msg, "event.v1.SmallObject", true)
}
fn medium() -> MediumPayload {
    let msg = payloads::medium();
    Payload::new(
        "medium",
        Variants::Options,
        msg,
        "event.v1.MediumEvent",
        true,
    )
}
fn large() -> LargePayload {
    let msg = payloads::large();
    Payload::new(
        "large",
        Variants::Options,
        msg,
        "event.v1.LargeEventPayload",
        true,
    )
}
fn order() -> OrderPayload {
    let msg = payloads::order(7);
    Payload::new(
        "order",
        Variants::OptionsAndEnums,
        msg,
        "bench.v1.Order",
        false,
    )
}
fn batch() -> BatchPayload {
    let msg = payloads::order_batch();
    Payload::new(
        "order-batch",
        Variants::OptionsAndEnums,
        msg,
        "bench.v1.OrderBatch",
        false,
    )
}
fn otlp() -> OtlpPayload {
    let msg = payloads::otlp();
    Payload::new(
        "otlp",
        Variants::OptionsAndEnums,
        msg,
        "bench.otlp.v1.ExportTraceServiceRequest",
        true,
    )
}

impl Default for Payloads {
    fn default() -> Self {
        Self::new()
    }
}
