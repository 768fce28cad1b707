//! gRPC statuses as HTTP answers: the HTTP status of each code, as
//! `google/rpc/code.proto` maps them (and grpc-gateway and Envoy answer),
//! and the `google.rpc.Status` a JSON error body holds.

use http::StatusCode;
use prost::Message;
use tonic::Code;

use crate::types::rpc;

/// The HTTP status `google/rpc/code.proto` gives a gRPC status code.
pub fn http_status(code: Code) -> StatusCode {
    match code {
        Code::Ok => StatusCode::OK,
        // "499 Client Closed Request" (nginx's), as code.proto says.
        Code::Cancelled => StatusCode::from_u16(499).expect("499 is a valid status code"),
        Code::Unknown | Code::Internal | Code::DataLoss => StatusCode::INTERNAL_SERVER_ERROR,
        Code::InvalidArgument | Code::FailedPrecondition | Code::OutOfRange => {
            StatusCode::BAD_REQUEST
        }
        Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::AlreadyExists | Code::Aborted => StatusCode::CONFLICT,
        Code::PermissionDenied => StatusCode::FORBIDDEN,
        Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        Code::Unimplemented => StatusCode::NOT_IMPLEMENTED,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
    }
}

/// The `google.rpc.Status` of `status`: its code and message, and the
/// details a server attached (the `grpc-status-details-bin` trailer: a
/// binary `google.rpc.Status` whose `details` are kept; one that does not
/// decode is left out rather than failing the answer).
pub fn rpc_status(status: &tonic::Status) -> rpc::Status {
    let details = rpc::Status::decode(status.details())
        .map(|sent| sent.details)
        .unwrap_or_default();
    rpc::Status {
        code: status.code() as i32,
        message: status.message().to_owned(),
        details,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code, against the table in google/rpc/code.proto.
    #[test]
    fn codes_map_as_code_proto_says() {
        let table = [
            (Code::Ok, 200),
            (Code::Cancelled, 499),
            (Code::Unknown, 500),
            (Code::InvalidArgument, 400),
            (Code::DeadlineExceeded, 504),
            (Code::NotFound, 404),
            (Code::AlreadyExists, 409),
            (Code::PermissionDenied, 403),
            (Code::ResourceExhausted, 429),
            (Code::FailedPrecondition, 400),
            (Code::Aborted, 409),
            (Code::OutOfRange, 400),
            (Code::Unimplemented, 501),
            (Code::Internal, 500),
            (Code::Unavailable, 503),
            (Code::DataLoss, 500),
            (Code::Unauthenticated, 401),
        ];
        for (code, http) in table {
            assert_eq!(http_status(code).as_u16(), http, "{code:?}");
        }
        for number in 0..=16 {
            assert!(table.iter().any(|(code, _)| *code as i32 == number));
        }
    }

    #[test]
    fn details_a_server_sent_are_kept() {
        let detail = prost_types::Any {
            type_url: "type.googleapis.com/google.rpc.ErrorInfo".into(),
            value: rpc::ErrorInfo {
                reason: "STOCK".into(),
                ..Default::default()
            }
            .encode_to_vec(),
        };
        let sent = rpc::Status {
            code: Code::NotFound as i32,
            message: "no such shelf".into(),
            details: vec![detail.clone()],
        };
        let status = tonic::Status::with_details(
            Code::NotFound,
            "no such shelf",
            sent.encode_to_vec().into(),
        );
        assert_eq!(rpc_status(&status), sent);
        let garbled = tonic::Status::with_details(Code::Internal, "x", vec![0xff].into());
        assert_eq!(rpc_status(&garbled).details, []);
    }
}
