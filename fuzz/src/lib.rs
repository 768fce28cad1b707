//! Oracles shared by the fuzz targets.
//!
//! Besides "no panic, no hang, no crash" (what libFuzzer checks by itself),
//! every target checks that what decodes also encodes, and that the encoding
//! decodes back to the same message (compared by canonical JSON: fields in
//! order, map keys sorted, NaN equal to NaN).

use protojsonx_robustness::dynamic::{binary_to_json_agrees, generated, json_to_binary_agrees};
use protojsonx_runtime::{DecodeOptions, EncodeOptions, ErrorKind, ProtoJson};

/// Depth allowed when decoding our own output again: a message that prost
/// decoded from binary (at most 100 levels of messages) can take a few JSON
/// levels per message level (maps, lists, Struct, Any).
const REDECODE_DEPTH: u32 = 1_000;

/// Decodes `data` as `M` with and without `ignore_unknown_fields`; whatever
/// decodes must round-trip, compact and pretty-printed, `decode_into` must
/// agree with the fresh decode (see [`decode_into_agrees`]), and the reader's
/// general paths with its fast ones (`data` with tabs between its tokens
/// decodes to the same message, or fails too: see
/// [`protojsonx_robustness::general_paths_agree`]).
pub fn decode_and_round_trip<M: ProtoJson>(data: &[u8]) {
    protojsonx_robustness::register_all();
    for opts in [
        DecodeOptions::new(),
        DecodeOptions::new().ignore_unknown_fields(true),
    ] {
        decode_into_agrees::<M>(data, &opts);
        if let Err(difference) = protojsonx_robustness::general_paths_agree::<M>(data, &opts) {
            panic!("{difference}");
        }
        if let Ok(msg) = M::from_json_with(data, &opts) {
            let json = msg.to_json().expect("a decoded message encodes");
            round_trip::<M>(&json, &json);
            pretty_round_trip(&msg, &json);
        }
    }
}

/// `msg` pretty-printed, in the indentation the reader predicts before
/// it has read a line (2) and others it learns (1, 5, and line breaks
/// alone), decodes to the message its compact encoding `json` decodes to:
/// the pretty path of the reader against the compact one.
fn pretty_round_trip<M: ProtoJson>(msg: &M, json: &str) {
    for spaces in [0, 1, 2, 5] {
        let pretty = msg
            .to_json_with(&EncodeOptions::new().indent(spaces))
            .expect("encodes compact, so pretty-printed");
        round_trip::<M>(&pretty, json);
    }
}

/// `decode_into` gives what a fresh decode gives (the same message, or the
/// same error), into a message that held something else. `data` is
/// `earlier 0x00 json` (the message first holds the decode of `earlier`, or
/// its default when that fails), or just `json`, decoded into the message
/// holding its own decode and into a default one.
fn decode_into_agrees<M: ProtoJson>(data: &[u8], opts: &DecodeOptions) {
    let (earlier, json) = match data.iter().position(|&b| b == 0) {
        Some(split) => (&data[..split], &data[split + 1..]),
        None => (data, data),
    };
    let held = M::from_json_with(earlier, opts).unwrap_or_default();
    for msg in [held, M::default()] {
        if let Err(difference) = protojsonx_robustness::decode_into_agrees(msg, json, opts) {
            panic!("{difference}");
        }
    }
}

/// Encodes `msg` under every option set; each output must decode to `msg`.
/// Encoding may fail only with an `Encode` error (an out-of-range value,
/// an unregistered `Any`), and then under every option set.
pub fn encode_and_round_trip<M: ProtoJson>(msg: &M) {
    protojsonx_robustness::register_all();
    let Ok(canonical) = msg.to_json() else {
        let err = msg.to_json().expect_err("encoding is deterministic");
        assert_eq!(err.kind(), ErrorKind::Encode, "{err}");
        return;
    };
    round_trip::<M>(&canonical, &canonical);
    for (names, defaults, ints, pretty) in [
        (true, false, false, false),
        (false, true, false, false),
        (false, false, true, false),
        (true, true, true, false),
        (false, false, false, true),
        (true, true, true, true),
    ] {
        let opts = EncodeOptions::new()
            .use_proto_names(names)
            .emit_default_values(defaults)
            .enums_as_ints(ints)
            .multiline(pretty)
            .ensure_ascii(pretty);
        let json = msg
            .to_json_with(&opts)
            .expect("encodes under the defaults, so under any options");
        let back: M = decode_again(&json);
        let again = back.to_json().expect("a decoded message encodes");
        if again != canonical && !only_unknown_null_values_lost(&canonical, &again) {
            panic!("options {opts:?}: {json}\n  decodes to {again}\n  expected   {canonical}");
        }
    }
}

/// `text` (our encoding of a message, whose canonical encoding is `json`)
/// decodes to a message with the canonical encoding `json`.
fn round_trip<M: ProtoJson>(text: &str, json: &str) {
    let back: M = decode_again(text);
    let again = back.to_json().expect("a decoded message encodes");
    if again != json && !only_unknown_null_values_lost(json, &again) {
        panic!("decode(encode(m)) differs from m:\n  first  {text}\n  second {again}");
    }
}

fn decode_again<M: ProtoJson>(json: &str) -> M {
    let opts = DecodeOptions::new().max_depth(REDECODE_DEPTH);
    M::from_json_with(json, &opts)
        .unwrap_or_else(|e| panic!("our own output does not decode: {e}\n{json}"))
}

/// Whether `second` is `first` without its `"optionalNullValue": null`
/// members: the one loss ProtoJSON itself forces. `null` is the only JSON
/// form of `google.protobuf.NullValue`, so a field without presence holding
/// another number (possible only from binary input: JSON input with one is
/// rejected) is written as `null` (as C++ does), which decodes as 0, the
/// default, which is not written at all.
fn only_unknown_null_values_lost(first: &str, second: &str) -> bool {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(map) => {
                if map
                    .get("optionalNullValue")
                    .is_some_and(serde_json::Value::is_null)
                {
                    map.remove("optionalNullValue");
                }
                map.values_mut().for_each(strip);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let parse = |s: &str| serde_json::from_str::<serde_json::Value>(s).expect("our output is JSON");
    let mut first = parse(first);
    strip(&mut first);
    first == parse(second)
}

/// The dynamic transcoder against the generated code on one input: the
/// first byte picks the message type (its low seven bits, of those
/// `protojsonx_robustness::dynamic` lists) and `allow_partial` (its high
/// bit), the second the encode options (five boolean bits, two for the
/// indent) and `ignore_unknown_fields` (its high bit); the rest is read as
/// JSON by both decoders and as binary by both encoders (see the oracles
/// `json_to_binary_agrees` and `binary_to_json_agrees`). Any difference,
/// in error texts too, is a panic.
pub fn dynamic_agrees(data: &[u8]) {
    let Some((&[pick, bits], input)) = data.split_first_chunk::<2>() else {
        return;
    };
    if input
        .windows(UNBUILDABLE.len())
        .any(|w| w == UNBUILDABLE.as_bytes())
    {
        // The generated path overflows its stack on an Any of it: see
        // `protojsonx_robustness::dynamic::UNCONSTRUCTIBLE`.
        return;
    }
    let all = generated();
    let g = &all[usize::from(pick & 0x7f) % all.len()];
    let indent = [None, Some(0), Some(2), Some(4)][usize::from(bits >> 5 & 3)];
    let mut encode = EncodeOptions::new()
        .use_proto_names(bits & 1 != 0)
        .enums_as_ints(bits & 2 != 0)
        .emit_default_values(bits & 4 != 0)
        .emit_unpopulated(bits & 8 != 0)
        .ensure_ascii(bits & 16 != 0);
    if let Some(spaces) = indent {
        encode = encode.indent(spaces);
    }
    let decode = DecodeOptions::new()
        .ignore_unknown_fields(bits & 0x80 != 0)
        .allow_partial(pick & 0x80 != 0);
    for verdict in [
        json_to_binary_agrees(g, input, &decode),
        binary_to_json_agrees(g, input, &encode),
    ] {
        match verdict {
            Ok(None) => {}
            Ok(Some(texts)) => panic!("{texts}"),
            Err(discrepancy) => panic!("{discrepancy}"),
        }
    }
}

/// The name shared by the message types whose generated code cannot be
/// built (`TestAllRequiredTypesProto2` and its nested message, in proto2
/// and in its editions copy).
const UNBUILDABLE: &str = "TestAllRequiredTypesProto2";
