//! The Rust side of the differential test against Python protobuf (see
//! `robustness/diff/run.sh`).
//!
//! ```text
//! diff-corpus generate DIR COUNT SEED   random messages -> DIR/valid.jsonl, DIR/descriptors.bin
//! diff-corpus check FILE                Python's JSON and binary of those messages decode to the same message
//! diff-corpus invalid FILE              accept/reject verdict for each hand-made document in FILE
//! ```
//!
//! `valid.jsonl` has one object per message: `type` (full protobuf name),
//! `binary` (hex of the prost binary encoding) and `json` (our ProtoJSON
//! under each option set, keyed by a label); for the editions copies of
//! the test messages also `original` (`type` and `binary` of the proto2 or
//! proto3 message the copy was decoded from), and for
//! `TestAllTypesEdition2023` `input` (hex of the random binary, odd wire
//! forms and unknown fields included, that prost decoded to the message).
//! `descriptors.bin` is protoc's set, editions files as they are: Python
//! reads them by their own features, not by our lowering of them.
//!
//! `check` reads lines of `type`, `binary`, `json` (Python's JSON) and
//! `python_binary` (Python's encoding of the message it read from
//! `binary`) and compares our decoding of each with the message in
//! `binary`. Messages are compared by `==`, or else through our canonical
//! JSON (default options: fields in order, map keys sorted), which treats
//! NaN as equal to NaN and keeps -0.0 apart from 0.0.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use prost::Message;
use protojsonx_robustness::editions_copy_agrees;
use protojsonx_robustness::protobuf_test_messages::editions;
use protojsonx_robustness::protobuf_test_messages::proto2::TestAllTypesProto2;
use protojsonx_robustness::protobuf_test_messages::proto3::TestAllTypesProto3;
use protojsonx_robustness::random::{self, Rng};
use protojsonx_robustness::strategy::{test_all_types_proto2, test_all_types_proto3};
use protojsonx_runtime::{DecodeOptions, EncodeOptions, ProtoJson};
use serde_json::{Value as Json, json};

const PROTO3: &str = "protobuf_test_messages.proto3.TestAllTypesProto3";
const PROTO2: &str = "protobuf_test_messages.proto2.TestAllTypesProto2";
const EDITIONS_PROTO3: &str = "protobuf_test_messages.editions.proto3.TestAllTypesProto3";
const EDITIONS_PROTO2: &str = "protobuf_test_messages.editions.proto2.TestAllTypesProto2";
const EDITION2023: &str = "protobuf_test_messages.editions.TestAllTypesEdition2023";

/// `$f::<M>($args)` for the generated type `M` of the message named
/// `$type_name`, or an error for a name not in the corpus.
macro_rules! by_type {
    ($type_name:expr, $f:ident($($arg:expr),*)) => {
        match $type_name {
            PROTO3 => $f::<TestAllTypesProto3>($($arg),*),
            PROTO2 => $f::<TestAllTypesProto2>($($arg),*),
            EDITIONS_PROTO3 => $f::<editions::proto3::TestAllTypesProto3>($($arg),*),
            EDITIONS_PROTO2 => $f::<editions::proto2::TestAllTypesProto2>($($arg),*),
            EDITION2023 => $f::<editions::TestAllTypesEdition2023>($($arg),*),
            other => Err(format!("unknown type {other}")),
        }
    };
}

fn main() -> ExitCode {
    protojsonx_robustness::register_all();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["generate", dir, count, seed] => generate(Path::new(dir), count, seed),
        ["check", file] => check(Path::new(file)),
        ["invalid", file] => invalid(Path::new(file)),
        _ => Err("usage: diff-corpus generate DIR COUNT SEED | check FILE | invalid FILE".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("diff-corpus: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The option sets each message is encoded under, with their labels (the
/// Python script maps each label to the matching `MessageToJson` arguments).
fn option_sets() -> [(&'static str, EncodeOptions); 4] {
    [
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
    ]
}

/// Writes `count` random messages, drawn with a fixed `seed` so a run can
/// be repeated, and the descriptor set. In each six: two
/// `TestAllTypesProto3`, one `TestAllTypesProto2`, one of each editions
/// copy (decoded from a random original, after [`editions_copy_agrees`]
/// held the two to each other) and one `TestAllTypesEdition2023` (prost's
/// decoding of random binary, see `random.rs`).
fn generate(dir: &Path, count: &str, seed: &str) -> Result<(), String> {
    let count: usize = count.parse().map_err(|e| format!("COUNT: {e}"))?;
    let seed: u64 = seed.parse().map_err(|e| format!("SEED: {e}"))?;
    fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    fs::write(
        dir.join("descriptors.bin"),
        protojsonx_robustness::PROTOC_DESCRIPTORS,
    )
    .map_err(|e| e.to_string())?;
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let mut rng = Rng::new(seed);
    let edition2023 = protojsonx_robustness::dynamic::pool()
        .descriptors()
        .get_message_by_name(EDITION2023)
        .ok_or("TestAllTypesEdition2023 is not in the pool")?;
    let options: Vec<EncodeOptions> = option_sets().into_iter().map(|(_, o)| o).collect();
    let proto3 = test_all_types_proto3(2);
    let proto2 = test_all_types_proto2(2);
    let mut out =
        io::BufWriter::new(fs::File::create(dir.join("valid.jsonl")).map_err(|e| e.to_string())?);
    let mut written: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut copies, mut failures) = (0, Vec::new());
    for i in 0..count {
        let (type_name, line) = match i % 6 {
            0 | 3 => (PROTO3, entry(PROTO3, &draw(&proto3, &mut runner)?)?),
            2 => (PROTO2, entry(PROTO2, &draw(&proto2, &mut runner)?)?),
            1 => {
                copies += 1;
                let original = draw(&proto3, &mut runner)?;
                let line = copy_entry::<_, editions::proto3::TestAllTypesProto3>(
                    (PROTO3, EDITIONS_PROTO3),
                    &original,
                    &options,
                    &mut failures,
                )?;
                (EDITIONS_PROTO3, line)
            }
            4 => {
                copies += 1;
                let original = draw(&proto2, &mut runner)?;
                let line = copy_entry::<_, editions::proto2::TestAllTypesProto2>(
                    (PROTO2, EDITIONS_PROTO2),
                    &original,
                    &options,
                    &mut failures,
                )?;
                (EDITIONS_PROTO2, line)
            }
            _ => {
                let input = random::binary(&mut rng, &edition2023, 2);
                match editions::TestAllTypesEdition2023::decode(input.as_slice()) {
                    Ok(msg) => {
                        let mut line = entry(EDITION2023, &msg)?;
                        line["input"] = Json::String(hex(&input));
                        (EDITION2023, line)
                    }
                    Err(e) => {
                        failures.push(format!("prost rejects {EDITION2023} {input:02x?}: {e}"));
                        continue;
                    }
                }
            }
        };
        *written.entry(type_name).or_default() += 1;
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())?;
    for failure in &failures {
        println!("MISMATCH {failure}");
    }
    let written: Vec<String> = written
        .iter()
        .map(|(name, n)| format!("{n} {}", name.trim_start_matches("protobuf_test_messages.")))
        .collect();
    println!(
        "diff-corpus generate: {} messages ({}); {copies} editions copies held to their \
         originals (JSON under {} option sets, binary both ways), {} mismatches",
        count,
        written.join(", "),
        options.len(),
        failures.len()
    );
    if failures.is_empty() {
        Ok(())
    } else {
        Err("prost's structs of the editions messages disagree".into())
    }
}

/// The corpus line of the editions copy `E` (named `names.1`) of
/// `original` (named `names.0`), with the original's binary; a
/// disagreement of the two ([`editions_copy_agrees`]) goes to `failures`.
fn copy_entry<O, E>(
    names: (&str, &str),
    original: &O,
    options: &[EncodeOptions],
    failures: &mut Vec<String>,
) -> Result<Json, String>
where
    O: ProtoJson + Message + Default + PartialEq,
    E: ProtoJson + Message + Default,
{
    let binary = original.encode_to_vec();
    let copy = match editions_copy_agrees::<O, E>(original, options) {
        Ok(copy) => copy,
        Err(e) => {
            failures.push(format!("{} as {}: {e}", names.0, names.1));
            E::decode(binary.as_slice()).map_err(|e| format!("{}: {e}", names.1))?
        }
    };
    let mut line = entry(names.1, &copy)?;
    line["original"] = json!({"type": names.0, "binary": hex(&binary)});
    Ok(line)
}

/// One value from `strategy`.
fn draw<T>(strategy: &impl Strategy<Value = T>, runner: &mut TestRunner) -> Result<T, String> {
    Ok(strategy
        .new_tree(runner)
        .map_err(|e| e.to_string())?
        .current())
}

/// The corpus line for `msg`.
fn entry<M: ProtoJson + Message>(type_name: &str, msg: &M) -> Result<Json, String> {
    let mut encodings = serde_json::Map::new();
    for (label, opts) in option_sets() {
        let text = msg
            .to_json_with(&opts)
            .map_err(|e| format!("encode {type_name}: {e}"))?;
        encodings.insert(label.into(), Json::String(text));
    }
    Ok(json!({
        "type": type_name,
        "binary": hex(&msg.encode_to_vec()),
        "json": encodings,
    }))
}

/// Reads Python's JSON and binary encoding of each message and compares
/// our decoding of them with the message in `binary`. Reports every
/// mismatch, fails if any.
fn check(file: &Path) -> Result<(), String> {
    let (mut checked, mut binaries) = (0, 0);
    let mut failures = Vec::new();
    for (n, line) in lines(file)?.into_iter().enumerate() {
        let entry: Json =
            serde_json::from_str(&line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let field = |k: &str| entry[k].as_str().ok_or(format!("line {}: no {k}", n + 1));
        let (type_name, binary) = (field("type")?, unhex(field("binary")?)?);
        for (label, python_json) in entry["json"].as_object().into_iter().flatten() {
            let python_json = python_json.as_str().unwrap_or_default();
            checked += 1;
            if let Err(e) = by_type!(type_name, same_as(&binary, python_json.as_bytes())) {
                failures.push(format!(
                    "line {} ({label}): {e}\n  Python's JSON: {python_json}",
                    n + 1
                ));
            }
        }
        let python_binary = unhex(field("python_binary")?)?;
        binaries += 1;
        if let Err(e) = by_type!(type_name, same_binary(&binary, &python_binary)) {
            failures.push(format!(
                "line {} (binary): {e}\n  Python's binary: {}",
                n + 1,
                hex(&python_binary)
            ));
        }
    }
    for failure in &failures {
        println!("MISMATCH {failure}");
    }
    println!(
        "diff-corpus check: {checked} Python JSON encodings, {binaries} Python binary encodings, \
         {} mismatches",
        failures.len()
    );
    if failures.is_empty() {
        Ok(())
    } else {
        Err("we decode Python's encodings differently".into())
    }
}

/// Whether `json` decodes to the message in `binary`.
fn same_as<M: ProtoJson + Message + Default + PartialEq>(
    binary: &[u8],
    json: &[u8],
) -> Result<(), String> {
    let expected = M::decode(binary).map_err(|e| format!("binary: {e}"))?;
    let decoded = M::from_json(json).map_err(|e| format!("we reject it: {e}"))?;
    same_message(&expected, &decoded)
}

/// Whether `python_binary` (Python's encoding of the message it read from
/// `binary`) decodes to the message in `binary`.
fn same_binary<M: ProtoJson + Message + Default + PartialEq>(
    binary: &[u8],
    python_binary: &[u8],
) -> Result<(), String> {
    let expected = M::decode(binary).map_err(|e| format!("binary: {e}"))?;
    let decoded = M::decode(python_binary).map_err(|e| format!("prost rejects it: {e}"))?;
    same_message(&expected, &decoded)
}

/// `Ok` if `got` is `want`: by `==`, or else by canonical JSON.
fn same_message<M: ProtoJson + PartialEq>(want: &M, got: &M) -> Result<(), String> {
    if got == want {
        return Ok(());
    }
    let canonical = |m: &M| m.to_json().map_err(|e| e.to_string());
    let (want, got) = (canonical(want)?, canonical(got)?);
    if want == got {
        Ok(())
    } else {
        Err(format!("decoded to {got}\n  expected     {want}"))
    }
}

/// Prints, for each case of the hand-made corpus, whether we accept it:
/// one JSON line `{"id", "accepted", "error"}`.
fn invalid(file: &Path) -> Result<(), String> {
    let mut out = io::stdout().lock();
    for case in read_cases(file)? {
        let result = match case.kind.as_str() {
            "P3" => decode::<TestAllTypesProto3>(&case.doc),
            "P2" => decode::<TestAllTypesProto2>(&case.doc),
            other => return Err(format!("{}: unknown type tag {other}", case.id)),
        };
        let line = json!({
            "id": case.id,
            "accepted": result.is_ok(),
            "error": result.err().unwrap_or_default(),
        });
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn decode<M: ProtoJson>(doc: &[u8]) -> Result<(), String> {
    M::from_json_with(doc, &DecodeOptions::new())
        .map(drop)
        .map_err(|e| e.to_string())
}

/// One document of the hand-made corpus.
struct Case {
    id: String,
    /// `P3` (TestAllTypesProto3) or `P2` (TestAllTypesProto2).
    kind: String,
    doc: Vec<u8>,
}

/// Reads the corpus: lines `ID TYPE DOCUMENT`, `#` comments and blank lines
/// skipped; `{{xNN}}` in a document stands for the raw byte 0xNN (for
/// invalid UTF-8, which a text file cannot hold).
fn read_cases(file: &Path) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for line in lines(file)? {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.splitn(3, ' ');
        let (Some(id), Some(kind), Some(doc)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(format!("malformed corpus line: {line}"));
        };
        cases.push(Case {
            id: id.into(),
            kind: kind.into(),
            doc: raw_bytes(doc)?,
        });
    }
    Ok(cases)
}

/// `doc` with each `{{xNN}}` replaced by the byte 0xNN.
fn raw_bytes(doc: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut rest = doc;
    while let Some(at) = rest.find("{{x") {
        out.extend_from_slice(&rest.as_bytes()[..at]);
        let hex = rest.get(at + 3..at + 5).ok_or("truncated {{xNN}}")?;
        out.push(u8::from_str_radix(hex, 16).map_err(|e| format!("{{{{x{hex}}}}}: {e}"))?);
        rest = rest.get(at + 7..).ok_or("truncated {{xNN}}")?;
    }
    out.extend_from_slice(rest.as_bytes());
    Ok(out)
}

fn lines(file: &Path) -> Result<Vec<String>, String> {
    let f = fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    io::BufReader::new(f)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Result<Vec<u8>, String> {
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("bad hex at {i}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_byte_placeholders_become_bytes() {
        assert_eq!(
            raw_bytes("{\"a\":\"{{xff}}b{{x00}}\"}").unwrap(),
            b"{\"a\":\"\xffb\x00\"}"
        );
        assert!(raw_bytes("{{xg0}}").is_err());
        assert!(raw_bytes("{{x0").is_err());
    }

    #[test]
    fn hex_round_trips() {
        let bytes = [0u8, 1, 0xab, 0xff];
        assert_eq!(unhex(&hex(&bytes)).unwrap(), bytes);
        assert!(unhex("0g").is_err());
    }

    #[test]
    fn same_tells_equal_and_different_messages_apart() {
        let msg = TestAllTypesProto3 {
            optional_double: f64::NAN,
            ..Default::default()
        };
        let binary = msg.encode_to_vec();
        let same = |json: &[u8]| by_type!(PROTO3, same_as(&binary, json));
        assert!(same(br#"{"optionalDouble":"NaN"}"#).is_ok());
        assert!(same(br#"{"optionalDouble":1}"#).is_err());
        assert!(same(br#"{"optionalDouble":"#).is_err());
        let same = |python: &[u8]| by_type!(EDITIONS_PROTO3, same_binary(&binary, python));
        assert!(same(&binary).is_ok());
        assert!(same(&[]).is_err());
        assert!(same(&[0xff]).is_err());
        assert!(by_type!("no.such.Type", same_binary(&binary, &binary)).is_err());
    }
}
