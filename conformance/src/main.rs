//! Testee for the official protobuf conformance suite (see `conformance/run.sh`).
//!
//! Speaks the runner's protocol on stdin/stdout: each request is a 4-byte
//! little-endian length followed by a binary `conformance.ConformanceRequest`;
//! each answer is a 4-byte little-endian length followed by a binary
//! `conformance.ConformanceResponse`. Only tests that involve ProtoJSON are
//! answered; binary-only, text-format and JSPB tests are reported as skipped.

use std::io::{self, BufWriter, Read, Write};
use std::panic::{self, AssertUnwindSafe};

use prost::Message;
use protojsonx_runtime::{DecodeOptions, EncodeOptions, ProtoJson};

use conformance::conformance_request::Payload;
use conformance::conformance_response::Result as Outcome;
use conformance::{ConformanceRequest, ConformanceResponse, TestCategory, WireFormat};

mod dynamic;

#[allow(dead_code, clippy::all, clippy::pedantic)]
mod conformance {
    include!(concat!(env!("OUT_DIR"), "/conformance.rs"));
}

#[allow(dead_code, clippy::all, clippy::pedantic)]
mod protobuf_test_messages {
    pub mod proto3 {
        include!(concat!(
            env!("OUT_DIR"),
            "/protobuf_test_messages.proto3.rs"
        ));
    }
    pub mod proto2 {
        include!(concat!(
            env!("OUT_DIR"),
            "/protobuf_test_messages.proto2.rs"
        ));
    }
    /// The editions copies of the test messages, and edition 2023's own.
    pub mod editions {
        include!(concat!(
            env!("OUT_DIR"),
            "/protobuf_test_messages.editions.rs"
        ));
        pub mod proto3 {
            include!(concat!(
                env!("OUT_DIR"),
                "/protobuf_test_messages.editions.proto3.rs"
            ));
        }
        pub mod proto2 {
            include!(concat!(
                env!("OUT_DIR"),
                "/protobuf_test_messages.editions.proto2.rs"
            ));
        }
    }
}

use protobuf_test_messages::editions::{self, TestAllTypesEdition2023};
use protobuf_test_messages::proto2::TestAllTypesProto2;
use protobuf_test_messages::proto3::TestAllTypesProto3;

/// Makes the test messages known to `google.protobuf.Any` (the suite packs
/// `TestAllTypesProto3` into `Any` fields).
fn register_types() {
    conformance::register_protojsonx_types();
    protobuf_test_messages::proto3::register_protojsonx_types();
    protobuf_test_messages::proto2::register_protojsonx_types();
    editions::register_protojsonx_types();
    editions::proto3::register_protojsonx_types();
    editions::proto2::register_protojsonx_types();
}

fn main() -> io::Result<()> {
    register_types();
    let testee = Testee::from_env();
    let mut input = io::stdin().lock();
    let mut output = BufWriter::new(io::stdout().lock());
    let mut skips = SkipCounts::default();
    while let Some(request) = read_request(&mut input)? {
        // A panic is a bug to report for this test, not a reason to stop the suite.
        let response = panic::catch_unwind(AssertUnwindSafe(|| handle(&testee, request)))
            .unwrap_or_else(|panic| {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                respond(Outcome::RuntimeError(format!("panic: {message}")))
            });
        skips.count(&response);
        write_response(&mut output, &response)?;
    }
    match std::env::var_os("PROTOJSONX_CONFORMANCE_SKIPS") {
        Some(path) => skips.write(&path),
        None => Ok(()),
    }
}

/// How many requests were answered `skipped`, by reason, so that a run can
/// show that nothing but the intended tests is skipped.
#[derive(Default)]
struct SkipCounts(std::collections::BTreeMap<String, usize>);

impl SkipCounts {
    fn count(&mut self, response: &ConformanceResponse) {
        if let Some(Outcome::Skipped(reason)) = &response.result {
            *self.0.entry(reason.clone()).or_default() += 1;
        }
    }

    /// Writes `count<TAB>reason` lines to `path` (set by conformance/run.sh).
    fn write(&self, path: &std::ffi::OsStr) -> io::Result<()> {
        let lines: String = self
            .0
            .iter()
            .map(|(reason, n)| format!("{n}\t{reason}\n"))
            .collect();
        std::fs::write(path, lines)
    }
}

/// Reads one length-prefixed request; `None` at end of input.
fn read_request(input: &mut impl Read) -> io::Result<Option<ConformanceRequest>> {
    let mut len = [0u8; 4];
    match input.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let mut buf = vec![0u8; u32::from_le_bytes(len) as usize];
    input.read_exact(&mut buf)?;
    ConformanceRequest::decode(buf.as_slice())
        .map(Some)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Writes one length-prefixed response and flushes it.
fn write_response(output: &mut impl Write, response: &ConformanceResponse) -> io::Result<()> {
    let buf = response.encode_to_vec();
    let len =
        u32::try_from(buf.len()).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    output.write_all(&len.to_le_bytes())?;
    output.write_all(&buf)?;
    output.flush()
}

/// Which implementation answers the requests: the generated code (the
/// default), or the dynamic transcoder with the test messages' descriptors
/// loaded at run time (`PROTOJSONX_CONFORMANCE_TESTEE=dynamic`).
enum Testee {
    Generated,
    Dynamic(dynamic::Testee),
}

impl Testee {
    fn from_env() -> Testee {
        match std::env::var("PROTOJSONX_CONFORMANCE_TESTEE").as_deref() {
            Ok("dynamic") => Testee::Dynamic(dynamic::Testee::new()),
            _ => Testee::Generated,
        }
    }
}

/// Answers one conformance request.
fn handle(testee: &Testee, request: ConformanceRequest) -> ConformanceResponse {
    if let Some(skipped) = out_of_scope(&request) {
        return respond(skipped);
    }
    respond(match (testee, request.message_type.as_str()) {
        (Testee::Dynamic(dynamic), _) => dynamic.run(&request),
        (_, "protobuf_test_messages.proto3.TestAllTypesProto3") => {
            run::<TestAllTypesProto3>(&request)
        }
        (_, "protobuf_test_messages.proto2.TestAllTypesProto2") => {
            run::<TestAllTypesProto2>(&request)
        }
        (_, "protobuf_test_messages.editions.proto3.TestAllTypesProto3") => {
            run::<editions::proto3::TestAllTypesProto3>(&request)
        }
        (_, "protobuf_test_messages.editions.proto2.TestAllTypesProto2") => {
            run::<editions::proto2::TestAllTypesProto2>(&request)
        }
        (_, "protobuf_test_messages.editions.TestAllTypesEdition2023") => {
            run::<TestAllTypesEdition2023>(&request)
        }
        (_, other) => Outcome::Skipped(format!("message type {other:?} is not supported")),
    })
}

fn respond(outcome: Outcome) -> ConformanceResponse {
    ConformanceResponse {
        result: Some(outcome),
    }
}

const OUT_OF_SCOPE: &str = "protojsonx implements ProtoJSON; text format is out of scope";

const NO_EXTENSIONS: &str = "the input sets a proto2 extension (`[full.name]` key); prost-generated messages cannot hold extensions";

/// Why a request is skipped by both testees, if it is: the tests without
/// ProtoJSON (binary to binary, text format, JSPB).
fn out_of_scope(request: &ConformanceRequest) -> Option<Outcome> {
    let output = request.requested_output_format();
    if !matches!(output, WireFormat::Protobuf | WireFormat::Json) {
        return Some(Outcome::Skipped(format!(
            "output format {} is not supported: {OUT_OF_SCOPE}",
            output.as_str_name()
        )));
    }
    match &request.payload {
        Some(Payload::ProtobufPayload(_)) if output == WireFormat::Protobuf => Some(
            Outcome::Skipped("binary-only test; protojsonx is a JSON implementation".to_string()),
        ),
        Some(Payload::TextPayload(_) | Payload::JspbPayload(_)) => {
            Some(Outcome::Skipped(OUT_OF_SCOPE.to_string()))
        }
        None => Some(Outcome::RuntimeError("request has no payload".to_string())),
        _ => None,
    }
}

/// The options a request's JSON is decoded with.
fn decode_options(request: &ConformanceRequest) -> DecodeOptions {
    let ignore_unknown = request.test_category() == TestCategory::JsonIgnoreUnknownParsingTest;
    DecodeOptions::new().ignore_unknown_fields(ignore_unknown)
}

/// Whether decoding failed on an extension key like `[pkg.ext]`, which names
/// a field that prost has no place for (not a ProtoJSON rule we could implement).
fn is_extension(e: &protojsonx_runtime::Error) -> bool {
    e.kind() == protojsonx_runtime::ErrorKind::UnknownField
        && matches!(e.path().next(), Some(protojsonx_runtime::PathSegment::Field(key)) if key.starts_with('['))
}

/// Parses the payload as an `M` and writes it in the requested format.
fn run<M: Message + ProtoJson + Default>(request: &ConformanceRequest) -> Outcome {
    let message: M = match &request.payload {
        Some(Payload::ProtobufPayload(bytes)) => match M::decode(bytes.as_slice()) {
            Ok(message) => message,
            Err(e) => return Outcome::ParseError(e.to_string()),
        },
        Some(Payload::JsonPayload(json)) => {
            match decode_options(request).from_slice::<M>(json.as_bytes()) {
                Ok(message) => message,
                Err(e) if is_extension(&e) => return Outcome::Skipped(NO_EXTENSIONS.to_string()),
                Err(e) => return Outcome::ParseError(e.to_string()),
            }
        }
        _ => unreachable!("out_of_scope skips the other payloads"),
    };
    match request.requested_output_format() {
        WireFormat::Protobuf => Outcome::ProtobufPayload(message.encode_to_vec()),
        _ => match EncodeOptions::new().to_string(&message) {
            Ok(json) => Outcome::JsonPayload(json),
            // E.g. a Timestamp or Duration out of range, or a FieldMask path
            // that has no lowerCamelCase form.
            Err(e) => Outcome::SerializeError(e.to_string()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROTO3: &str = "protobuf_test_messages.proto3.TestAllTypesProto3";

    fn json_request(message_type: &str, json: &str, output: WireFormat) -> ConformanceRequest {
        ConformanceRequest {
            payload: Some(Payload::JsonPayload(json.to_string())),
            requested_output_format: output as i32,
            message_type: message_type.to_string(),
            test_category: TestCategory::JsonTest as i32,
            ..Default::default()
        }
    }

    fn outcome(response: ConformanceResponse) -> Outcome {
        response.result.expect("response has a result")
    }

    #[test]
    fn json_round_trip_proto3() {
        let json = r#"{"optionalInt32": 42, "optionalString": "hi", "repeatedBool": [true]}"#;
        let Outcome::JsonPayload(out) = outcome(handle(
            &Testee::Generated,
            json_request(PROTO3, json, WireFormat::Json),
        )) else {
            panic!("expected a JSON payload");
        };
        let decoded: TestAllTypesProto3 = DecodeOptions::new().from_str(&out).unwrap();
        assert_eq!(decoded.optional_int32, 42);
        assert_eq!(decoded.optional_string, "hi");
        assert_eq!(decoded.repeated_bool, vec![true]);
    }

    #[test]
    fn any_holding_a_test_message() {
        register_types();
        let json = r#"{"optionalAny":{"@type":"type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3","optionalInt32":5}}"#;
        let request = json_request(PROTO3, json, WireFormat::Json);
        assert_eq!(
            outcome(handle(&Testee::Generated, request)),
            Outcome::JsonPayload(json.to_string())
        );
    }

    #[test]
    fn json_to_protobuf() {
        let request = json_request(PROTO3, r#"{"optionalInt64": "-7"}"#, WireFormat::Protobuf);
        let Outcome::ProtobufPayload(bytes) = outcome(handle(&Testee::Generated, request)) else {
            panic!("expected a protobuf payload");
        };
        let decoded = TestAllTypesProto3::decode(bytes.as_slice()).unwrap();
        assert_eq!(decoded.optional_int64, -7);
    }

    #[test]
    fn invalid_json_is_a_parse_error() {
        let request = json_request(PROTO3, r#"{"optionalInt32": }"#, WireFormat::Json);
        assert!(matches!(
            outcome(handle(&Testee::Generated, request)),
            Outcome::ParseError(_)
        ));
    }

    #[test]
    fn unknown_field_is_ignored_only_when_asked() {
        let mut request = json_request(PROTO3, r#"{"noSuchField": 1}"#, WireFormat::Json);
        assert!(matches!(
            outcome(handle(&Testee::Generated, request.clone())),
            Outcome::ParseError(_)
        ));
        request.test_category = TestCategory::JsonIgnoreUnknownParsingTest as i32;
        assert_eq!(
            outcome(handle(&Testee::Generated, request)),
            Outcome::JsonPayload("{}".to_string())
        );
    }

    #[test]
    fn skipped_cases() {
        let is_skipped = |request| {
            matches!(
                outcome(handle(&Testee::Generated, request)),
                Outcome::Skipped(_)
            )
        };
        // Unknown message type.
        assert!(is_skipped(json_request(
            "protobuf_test_messages.editions.TestAllTypesEdition2026",
            "{}",
            WireFormat::Json
        )));
        // Text-format output.
        assert!(is_skipped(json_request(
            PROTO3,
            "{}",
            WireFormat::TextFormat
        )));
        // Binary in, binary out.
        assert!(is_skipped(ConformanceRequest {
            payload: Some(Payload::ProtobufPayload(vec![0x08, 0x01])),
            requested_output_format: WireFormat::Protobuf as i32,
            message_type: PROTO3.to_string(),
            test_category: TestCategory::BinaryTest as i32,
            ..Default::default()
        }));
        // Text-format input.
        assert!(is_skipped(ConformanceRequest {
            payload: Some(Payload::TextPayload("optional_int32: 1".to_string())),
            requested_output_format: WireFormat::Json as i32,
            message_type: PROTO3.to_string(),
            test_category: TestCategory::TextFormatTest as i32,
            ..Default::default()
        }));
    }

    #[test]
    fn protocol_framing() {
        let request = json_request(PROTO3, "{}", WireFormat::Json);
        let body = request.encode_to_vec();
        let mut input = (body.len() as u32).to_le_bytes().to_vec();
        input.extend_from_slice(&body);
        let mut reader = input.as_slice();
        assert_eq!(read_request(&mut reader).unwrap(), Some(request));
        assert_eq!(read_request(&mut reader).unwrap(), None);

        let mut out = Vec::new();
        let response = respond(Outcome::Skipped("x".to_string()));
        write_response(&mut out, &response).unwrap();
        let (len, rest) = out.split_at(4);
        assert_eq!(
            u32::from_le_bytes(len.try_into().unwrap()) as usize,
            rest.len()
        );
        assert_eq!(ConformanceResponse::decode(rest).unwrap(), response);
    }
}
