//! HTTP/JSON transcoding for gRPC services, as `google.api.http` rules
//! declare it: a request such as `GET /v1/shelves/1/books?pageSize=10` is
//! matched to a method by the rule's path template, its request message is
//! made from the path's variables, the query parameters and the body, and
//! the method's answer (or its status) is written as ProtoJSON.

pub mod answer;
#[cfg(feature = "gateway")]
pub mod gateway;
pub mod method;
pub mod query;
pub mod router;
pub mod rule;
pub mod schema;
pub mod status;
pub mod template;
pub mod types;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
