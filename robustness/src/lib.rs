//! Robustness tests for protojsonx: the code generated for the
//! conformance test protos, the project's test protos and the benchmark
//! schemas, the proptest
//! strategies that build random messages of them, and the descriptor set the
//! differential tests load into Python protobuf; the oracles that hold the
//! dynamic transcoder to the generated code (`dynamic`), and random binary
//! messages of any type of the descriptor set (`random`).
//!
//! The oracles of `decode_into` and of the reader's fast paths
//! ([`decode_into_agrees`], [`general_paths_agree`]) are here too, shared
//! with the fuzz targets.
//!
//! The tests live in `tests/` (hostile input, properties, error texts); the
//! differential test is `diff/run.sh`, fed by the `diff-corpus` binary.

// Lints that fire on prost-build's structs, not on the JSON code.
#![allow(clippy::large_enum_variant, clippy::module_inception)]

pub mod dynamic;
pub mod random;
pub mod strategy;

/// `FileDescriptorSet` (binary) of every proto compiled here, with imports,
/// as the code is generated from it: editions files lowered to proto2 and
/// proto3.
pub const DESCRIPTORS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/descriptors.bin"));

/// The same files as protoc describes them, editions files as they are
/// (`edition` and `features`): what Python protobuf reads in the
/// differential tests, so that it holds prost's structs to the editions
/// files' own meaning rather than to our lowering of them.
pub const PROTOC_DESCRIPTORS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/protoc.bin"));

/// The conformance suite's test messages.
pub mod protobuf_test_messages {
    /// `TestAllTypesProto3` and friends.
    pub mod proto3 {
        include!(concat!(
            env!("OUT_DIR"),
            "/protobuf_test_messages.proto3.rs"
        ));
    }
    /// `TestAllTypesProto2` and friends (presence, groups, closed enums).
    pub mod proto2 {
        include!(concat!(
            env!("OUT_DIR"),
            "/protobuf_test_messages.proto2.rs"
        ));
    }
    /// Edition 2023's own `TestAllTypesEdition2023` (delimited messages,
    /// open enums, explicit presence), and the editions copies of the
    /// proto2 and proto3 test messages.
    pub mod editions {
        include!(concat!(
            env!("OUT_DIR"),
            "/protobuf_test_messages.editions.rs"
        ));
        /// `TestAllTypesProto2` in edition 2023 (closed enums, expanded
        /// repeated fields, delimited groups, legacy required fields).
        pub mod proto2 {
            include!(concat!(
                env!("OUT_DIR"),
                "/protobuf_test_messages.editions.proto2.rs"
            ));
        }
        /// `TestAllTypesProto3` in edition 2023 (implicit presence).
        pub mod proto3 {
            include!(concat!(
                env!("OUT_DIR"),
                "/protobuf_test_messages.editions.proto3.rs"
            ));
        }
    }
}

/// The project's own test protos (`tests/proto`).
pub mod protojsonx {
    /// Scalars, maps, oneofs, recursion, well-known types.
    pub mod test {
        include!(concat!(env!("OUT_DIR"), "/protojsonx.test.rs"));
    }
    /// Types referenced across packages.
    pub mod other {
        include!(concat!(env!("OUT_DIR"), "/protojsonx.other.rs"));
    }
    /// Names that are awkward in Rust.
    pub mod names {
        include!(concat!(env!("OUT_DIR"), "/protojsonx.names.rs"));
    }
    /// proto2 presence, defaults, groups.
    pub mod legacy {
        include!(concat!(env!("OUT_DIR"), "/protojsonx.legacy.rs"));
    }
    /// BTreeMap, Bytes and boxed fields.
    pub mod variants {
        include!(concat!(env!("OUT_DIR"), "/protojsonx.variants.rs"));
    }
}

/// The benchmark schemas (`benches/proto`).
pub mod bench {
    /// The richer benchmark schema: every scalar, maps, a oneof, well-known types.
    pub mod v1 {
        include!(concat!(env!("OUT_DIR"), "/bench.v1.rs"));
    }
    /// OTLP's trace export request.
    pub mod otlp {
        /// `ExportTraceServiceRequest` and what it holds.
        pub mod v1 {
            include!(concat!(env!("OUT_DIR"), "/bench.otlp.v1.rs"));
        }
    }
}

/// The Go benchmark's payloads (`examples/proto`), also benchmarked.
pub mod event {
    /// `SmallObject`, `MediumEvent`, `LargeEventPayload`.
    pub mod v1 {
        include!(concat!(env!("OUT_DIR"), "/event.v1.rs"));
    }
}

/// Decodes `json` into `held` with `decode_into` and afresh with
/// `from_json_with`, under `opts`: both must give the same message (compared
/// by their JSON, where NaN equals NaN) or the same error. The oracle of the
/// `decode_into` property tests and fuzz targets; the `Err` says how they differ.
pub fn decode_into_agrees<M: protojsonx_runtime::ProtoJson>(
    mut held: M,
    json: &[u8],
    opts: &protojsonx_runtime::DecodeOptions,
) -> Result<(), String> {
    let fresh = M::from_json_with(json, opts);
    let into = opts.decode_into(&mut held, json);
    let text = String::from_utf8_lossy(json);
    match (fresh, into) {
        (Ok(fresh), Ok(())) => {
            let want = fresh.to_json().map_err(|e| e.to_string());
            let got = held.to_json().map_err(|e| e.to_string());
            if got == want {
                return Ok(());
            }
            Err(format!(
                "decode_into gives {got:?}, a fresh decode {want:?}, of {text}"
            ))
        }
        (Err(fresh), Err(into)) if into.to_string() == fresh.to_string() => Ok(()),
        (fresh, into) => Err(format!(
            "fresh decode {:?}, decode_into {:?}, of {text}",
            fresh.err(),
            into.err()
        )),
    }
}

/// `json` with a tab before it and after every `{`, `[`, `,` and `:` outside
/// strings: the same JSON value in whitespace that no fast path of the
/// reader takes (they take compact JSON and pretty output's one space after
/// a colon), so that it is read by the general paths alone. Any bytes are
/// taken: strings are told by JSON's own rule (from a `"` to the next `"`
/// not escaped by `\`), so valid input stays the same value and invalid
/// input stays invalid (tabs come only between tokens before its first
/// error).
pub fn tabbed(json: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len() * 2 + 1);
    out.push(b'\t');
    let (mut in_string, mut escaped) = (false, false);
    for &b in json {
        out.push(b);
        if in_string {
            (in_string, escaped) = match (escaped, b) {
                (true, _) => (true, false),
                (false, b'\\') => (true, true),
                (false, b'"') => (false, false),
                (false, _) => (true, false),
            };
        } else if b == b'"' {
            in_string = true;
        } else if matches!(b, b'{' | b'[' | b',' | b':') {
            out.push(b'\t');
        }
    }
    out
}

/// Decodes `json` as it is and [`tabbed`], under `opts`: both must give the
/// same message (compared by their JSON, where NaN equals NaN) or both
/// fail. The oracle that holds the reader's fast paths (values as encoders
/// write them, read in one step) to its general paths, for property tests
/// and fuzz targets; the `Err` says how they differ.
pub fn general_paths_agree<M: protojsonx_runtime::ProtoJson>(
    json: &[u8],
    opts: &protojsonx_runtime::DecodeOptions,
) -> Result<(), String> {
    let decode =
        |json: &[u8]| M::from_json_with(json, opts).map(|m| m.to_json().map_err(|e| e.to_string()));
    let spaced = tabbed(json);
    match (decode(json), decode(&spaced)) {
        (Ok(fast), Ok(general)) if fast == general => Ok(()),
        (Err(_), Err(_)) => Ok(()),
        (fast, general) => Err(format!(
            "{:?} decodes to {fast:?}, tabbed to {general:?}",
            String::from_utf8_lossy(json)
        )),
    }
}

/// Holds an editions copy of a test message (`E`, like
/// `editions::proto2::TestAllTypesProto2`) to its proto2 or proto3
/// original (`O`): `original`'s binary decodes as `E`, which writes the
/// same JSON as `original` under each of `options`, and whose binary
/// decodes as `O` back to `original` (compared by `==`, or by JSON where
/// NaN equals NaN). The copy spells out with features what the original's
/// syntax means, so the lowered structs must be interchangeable on the
/// wire and in JSON. Returns the copy; the `Err` says how they differ.
pub fn editions_copy_agrees<O, E>(
    original: &O,
    options: &[protojsonx_runtime::EncodeOptions],
) -> Result<E, String>
where
    O: protojsonx_runtime::ProtoJson + prost::Message + Default + PartialEq,
    E: protojsonx_runtime::ProtoJson + prost::Message + Default,
{
    let binary = original.encode_to_vec();
    let copy = E::decode(binary.as_slice())
        .map_err(|e| format!("the original's binary {binary:02x?} does not decode: {e}"))?;
    for opts in options {
        let text = |r: Result<Vec<u8>, protojsonx_runtime::Error>| match r {
            Ok(json) => String::from_utf8_lossy(&json).into_owned(),
            Err(e) => format!("error: {e}"),
        };
        let (want, got) = (text(opts.to_vec(original)), text(opts.to_vec(&copy)));
        if got != want {
            return Err(format!(
                "under {opts:?} the copy writes\n  {got}\nthe original\n  {want}"
            ));
        }
    }
    let copy_binary = copy.encode_to_vec();
    let back = O::decode(copy_binary.as_slice())
        .map_err(|e| format!("the copy's binary {copy_binary:02x?} does not decode: {e}"))?;
    let json = |m: &O| {
        protojsonx_runtime::EncodeOptions::new()
            .emit_default_values(true)
            .to_vec(m)
            .map_err(|e| e.to_string())
    };
    if back != *original && json(&back)? != json(original)? {
        return Err(format!(
            "the copy's binary decodes as the original to\n  {}\nnot\n  {}",
            String::from_utf8_lossy(&json(&back)?),
            String::from_utf8_lossy(&json(original)?)
        ));
    }
    Ok(copy)
}

/// Makes every message compiled here known to `google.protobuf.Any`.
/// Idempotent, so each test may call it.
pub fn register_all() {
    protobuf_test_messages::proto3::register_protojsonx_types();
    protobuf_test_messages::proto2::register_protojsonx_types();
    protobuf_test_messages::editions::register_protojsonx_types();
    protobuf_test_messages::editions::proto2::register_protojsonx_types();
    protobuf_test_messages::editions::proto3::register_protojsonx_types();
    protojsonx::test::register_protojsonx_types();
    protojsonx::other::register_protojsonx_types();
    protojsonx::names::register_protojsonx_types();
    protojsonx::legacy::register_protojsonx_types();
    protojsonx::variants::register_protojsonx_types();
    bench::v1::register_protojsonx_types();
    bench::otlp::v1::register_protojsonx_types();
    event::v1::register_protojsonx_types();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabs_go_between_tokens_and_never_into_strings() {
        assert_eq!(
            tabbed(br#"{"a":[1,{"b\":,[{":"x\\"},2]}"#),
            b"\t{\t\"a\":\t[\t1,\t{\t\"b\\\":,[{\":\t\"x\\\\\"},\t2]}".to_vec()
        );
        assert_eq!(tabbed(b"12"), b"\t12".to_vec());
        // An unterminated string takes the rest.
        assert_eq!(tabbed(br#""a,b"#), b"\t\"a,b".to_vec());
    }
}
