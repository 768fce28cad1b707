//! The googleapis messages transcoding reads and writes: `google.api.HttpRule`
//! (the rules of `google/api/http.proto`) and `google.rpc.Status` with the
//! standard error details, as prost structs with their ProtoJSON. Their
//! documentation is googleapis' (the files are checked in under `proto/`).
#![allow(missing_docs, clippy::all)]

/// `google.api`: HTTP rules.
pub mod api {
    include!("types/google.api.rs");
}

/// `google.rpc`: status codes, `Status` and the error details.
pub mod rpc {
    include!("types/google.rpc.rs");
}
