//! The Rust side of the real-world check (`realworld/roundtrip.py` runs it).
//!
//! ```text
//! realworld-driver descriptors DIR   write DIR/descriptors.bin, DIR/files.txt and
//!                                    DIR/runtime-types.bin
//! realworld-driver encode IN OUT     {"id", "type", "binary": hex} per line ->
//!                                    {"id", "json": {label: text}, "errors": {label: text}}
//! realworld-driver decode IN OUT     {"id", "json": text} per line ->
//!                                    {"id", "type_url", "binary": hex} or {"id", "error"}
//! realworld-driver encode-dynamic IN OUT [DESCRIPTORS], decode-dynamic IN OUT [DESCRIPTORS]
//!                                    the same, by protojsonx-dynamic, with a pool of the
//!                                    slice's descriptor set or of the encoded
//!                                    FileDescriptorSet in the file DESCRIPTORS (the
//!                                    editions copies', which the pool lowers itself)
//! ```
//!
//! Every conversion goes through `google.protobuf.Any` (type URL
//! `type.googleapis.com/<type>`), under the option sets of the differential
//! test: `default`, `proto_names`, `all` (proto names, unpopulated fields,
//! enums as numbers) and `pretty_ascii`. The generated code converts a
//! `prost_types::Any` through the type registry that
//! `register_all_protojsonx_types()` fills; the dynamic transcoder converts
//! between the two encodings with a pool of the slice's descriptor set,
//! which resolves the `Any`. A failure, a panic included, is reported on its
//! line; the driver goes on.

use std::error::Error;
use std::fs;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::panic::{self, AssertUnwindSafe};

use prost::Message;
use protojsonx_dynamic::{MessageType, Pool};
use protojsonx_runtime::{DecodeOptions, EncodeOptions, ProtoJson};
use serde_json::{Map, Value, json};

/// The label and options of each JSON encoding.
const OPTION_SETS: [(&str, EncodeOptions); 4] = [
    ("default", EncodeOptions::new()),
    ("proto_names", EncodeOptions::new().use_proto_names(true)),
    (
        "all",
        EncodeOptions::new()
            .use_proto_names(true)
            .emit_default_values(true)
            .enums_as_ints(true),
    ),
    (
        "pretty_ascii",
        EncodeOptions::new().indent(2).ensure_ascii(true),
    ),
];

/// Runs the command named by the arguments.
fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    protojsonx_realworld::register_all_protojsonx_types();
    // Panics are reported per line (see `guarded`), not printed.
    panic::set_hook(Box::new(|_| {}));
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["descriptors", dir] => write_descriptors(dir),
        ["encode", input, output] => each_line(input, output, encode),
        ["decode", input, output] => each_line(input, output, decode),
        ["encode-dynamic", input, output, ref descriptors @ ..] if descriptors.len() < 2 => {
            let any = dynamic_any(descriptors.first().copied())?;
            each_line(input, output, |request| encode_dynamic(&any, request))
        }
        ["decode-dynamic", input, output, ref descriptors @ ..] if descriptors.len() < 2 => {
            let any = dynamic_any(descriptors.first().copied())?;
            each_line(input, output, |request| decode_dynamic(&any, request))
        }
        _ => Err(
            "usage: realworld-driver descriptors DIR | (encode | decode) IN OUT | \
                  (encode-dynamic | decode-dynamic) IN OUT [DESCRIPTORS]"
                .into(),
        ),
    }
}

/// Writes the embedded descriptor set and file list into `dir`.
fn write_descriptors(dir: &str) -> Result<(), Box<dyn Error>> {
    fs::create_dir_all(dir)?;
    fs::write(
        format!("{dir}/descriptors.bin"),
        protojsonx_realworld::DESCRIPTORS,
    )?;
    fs::write(format!("{dir}/files.txt"), protojsonx_realworld::FILES)?;
    fs::write(
        format!("{dir}/runtime-types.bin"),
        protojsonx_realworld::RUNTIME_TYPES,
    )?;
    Ok(())
}

/// Answers each JSON line of `input` with `answer`, one line each in `output`.
fn each_line(
    input: &str,
    output: &str,
    answer: impl Fn(&Value) -> Map<String, Value>,
) -> Result<(), Box<dyn Error>> {
    let mut out = BufWriter::new(fs::File::create(output)?);
    for line in BufReader::new(fs::File::open(input)?).lines() {
        let request: Value = serde_json::from_str(&line?)?;
        let mut reply = answer(&request);
        reply.insert("id".into(), request["id"].clone());
        serde_json::to_writer(&mut out, &reply)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// Our JSON of the message in the request, under each option set.
fn encode(request: &Value) -> Map<String, Value> {
    json_of(request, |any, opts| {
        any.to_json_with(opts).map_err(|e| e.to_string())
    })
}

/// [`encode`] by the dynamic transcoder: the JSON of the request's `Any`.
fn encode_dynamic(any_type: &MessageType, request: &Value) -> Map<String, Value> {
    json_of(request, |any, opts| {
        let json = any_type
            .binary_to_json(&any.encode_to_vec(), opts)
            .map_err(|e| e.to_string())?;
        String::from_utf8(json).map_err(|e| format!("not UTF-8: {e}"))
    })
}

/// The JSON `convert` writes of the request's `Any` under each option set,
/// and its errors, by label.
fn json_of(
    request: &Value,
    convert: impl Fn(&prost_types::Any, &EncodeOptions) -> Result<String, String>,
) -> Map<String, Value> {
    let (mut texts, mut errors) = (Map::new(), Map::new());
    match request_any(request) {
        Ok(any) => {
            for (label, opts) in &OPTION_SETS {
                match guarded(|| convert(&any, opts)) {
                    Ok(text) => texts.insert((*label).into(), text.into()),
                    Err(e) => errors.insert((*label).into(), e.into()),
                };
            }
        }
        Err(e) => {
            errors.insert("request".into(), e.into());
            return Map::from_iter([("errors".into(), errors.into())]);
        }
    }
    Map::from_iter([
        ("json".into(), texts.into()),
        ("errors".into(), errors.into()),
    ])
}

/// The `Any` holding the request's message.
fn request_any(request: &Value) -> Result<prost_types::Any, String> {
    let name = request["type"].as_str().ok_or("no type")?;
    let hex = request["binary"].as_str().ok_or("no binary")?;
    Ok(prost_types::Any {
        type_url: format!("type.googleapis.com/{name}"),
        value: from_hex(hex)?,
    })
}

/// `google.protobuf.Any` in a pool of the slice's descriptor set, or of the
/// one in the file `descriptors`.
fn dynamic_any(descriptors: Option<&str>) -> Result<MessageType, Box<dyn Error>> {
    let pool = match descriptors {
        Some(path) => Pool::decode(&fs::read(path)?)?,
        None => Pool::decode(protojsonx_realworld::DESCRIPTORS)?,
    };
    Ok(pool
        .message("google.protobuf.Any")
        .ok_or("the descriptor set has no google.protobuf.Any")?)
}

/// The `Any` our decoder reads from the request's JSON, as type URL and binary.
fn decode(request: &Value) -> Map<String, Value> {
    any_of(request, |text| {
        prost_types::Any::from_json_with(text, &DecodeOptions::new()).map_err(|e| e.to_string())
    })
}

/// [`decode`] by the dynamic transcoder: the `Any` it writes of the
/// request's JSON, read back by prost.
fn decode_dynamic(any_type: &MessageType, request: &Value) -> Map<String, Value> {
    any_of(request, |text| {
        let binary = any_type
            .json_to_binary(text.as_bytes(), &DecodeOptions::new())
            .map_err(|e| e.to_string())?;
        prost_types::Any::decode(binary.as_slice())
            .map_err(|e| format!("prost cannot read the transcoded Any: {e}"))
    })
}

/// The `Any` `convert` reads of the request's JSON, as type URL and binary,
/// or its error.
fn any_of(
    request: &Value,
    convert: impl FnOnce(&str) -> Result<prost_types::Any, String>,
) -> Map<String, Value> {
    let text = request["json"].as_str().unwrap_or_default();
    match guarded(|| convert(text)) {
        Ok(any) => Map::from_iter([
            ("type_url".into(), any.type_url.into()),
            ("binary".into(), to_hex(&any.value).into()),
        ]),
        Err(e) => Map::from_iter([("error".into(), json!(e))]),
    }
}

/// Runs `f`, turning a panic into an error that says so.
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("?");
        Err(format!("PANIC: {message}"))
    })
}

/// Lowercase hexadecimal of `bytes`.
fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of a hexadecimal string.
fn from_hex(hex: &str) -> Result<Vec<u8>, String> {
    if hex.len() % 2 != 0 {
        return Err("odd hex length".into());
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|e| e.to_string()))
        .collect()
}
