//! The dynamic testee: the test messages' descriptors are loaded at run
//! time into a `protojsonx_dynamic::Pool`, and every request is transcoded
//! by its tables, binary in the middle (JSON input becomes binary, which
//! becomes the JSON output). Unlike the generated code it has extensions,
//! so it answers every JSON test of the suite.

use protojsonx_dynamic::{EncodeOptions, ErrorKind, Pool};

use crate::conformance::conformance_request::Payload;
use crate::conformance::conformance_response::Result as Outcome;
use crate::conformance::{ConformanceRequest, WireFormat};

/// The descriptors of the test messages (proto2, proto3 and their editions
/// copies) and their imports, written by build.rs.
const DESCRIPTORS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/test_messages.fds"));

/// The messages the suite asks for that this testee transcodes.
const MESSAGES: [&str; 5] = [
    "protobuf_test_messages.proto3.TestAllTypesProto3",
    "protobuf_test_messages.proto2.TestAllTypesProto2",
    "protobuf_test_messages.editions.proto3.TestAllTypesProto3",
    "protobuf_test_messages.editions.proto2.TestAllTypesProto2",
    "protobuf_test_messages.editions.TestAllTypesEdition2023",
];

/// The pool of the test messages.
pub(crate) struct Testee {
    pool: Pool,
}

impl Testee {
    /// Loads the descriptors.
    pub(crate) fn new() -> Testee {
        let pool = Pool::decode(DESCRIPTORS).expect("the test messages' descriptors are valid");
        Testee { pool }
    }

    /// Answers a request that involves ProtoJSON.
    pub(crate) fn run(&self, request: &ConformanceRequest) -> Outcome {
        let name = request.message_type.as_str();
        let message = match self.pool.message(name) {
            Some(message) if MESSAGES.contains(&name) => message,
            _ => return Outcome::Skipped(format!("message type {name:?} is not supported")),
        };
        let binary = match &request.payload {
            Some(Payload::ProtobufPayload(bytes)) => bytes.clone(),
            Some(Payload::JsonPayload(json)) => {
                match message.json_to_binary(json.as_bytes(), &crate::decode_options(request)) {
                    Ok(binary) => binary,
                    Err(e) => return Outcome::ParseError(e.to_string()),
                }
            }
            _ => unreachable!("out_of_scope skips the other payloads"),
        };
        if request.requested_output_format() == WireFormat::Protobuf {
            return Outcome::ProtobufPayload(binary);
        }
        match message.binary_to_json(&binary, &EncodeOptions::new()) {
            Ok(json) => Outcome::JsonPayload(String::from_utf8(json).expect("JSON is UTF-8")),
            // Malformed binary input is the input's fault; anything else
            // (a Timestamp out of range...) cannot be written as JSON.
            Err(e) if e.kind() == ErrorKind::Binary => Outcome::ParseError(e.to_string()),
            Err(e) => Outcome::SerializeError(e.to_string()),
        }
    }
}
