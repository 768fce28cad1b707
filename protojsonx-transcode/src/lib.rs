//! HTTP/JSON transcoding for gRPC services, as `google.api.http` rules
//! declare it: a request such as `GET /v1/shelves/1/books?pageSize=10` is
//! matched to a method by the rule's path template, its request message is
//! made from the path's variables, the query parameters and the body, and
//! the method's answer (or its status) is written as ProtoJSON.
//!
//! Two ways serve the same rules through one [`router::Router`], so they
//! answer alike byte for byte: routes generated for a tonic service (the
//! generator option `http_routes`), which call it in process, and the
//! [`gateway`] (feature `gateway`), which forwards to any gRPC server from
//! its descriptors alone.
//!
//! The layers, as a request goes through them: [`template`] matches the
//! path to a [`rule::Binding`]; [`query`] turns the path's variables and
//! the query parameters into a JSON document of the request, typed by the
//! [`schema`]; a [`method::Method`] merges the body and that document into
//! the request, calls, and writes the answer; [`answer`] frames it (streams
//! by `Accept`) or writes the [`status`] as a `google.rpc.Status`.

#[cfg(feature = "router")]
pub mod answer;
#[cfg(feature = "gateway")]
pub mod gateway;
#[cfg(feature = "router")]
pub mod method;
pub mod query;
#[cfg(feature = "router")]
pub mod router;
pub mod rule;
pub mod schema;
#[cfg(feature = "router")]
pub mod status;
pub mod template;
pub mod types;

#[cfg(feature = "router")]
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

/// The README's examples, compiled as doctests so that they stay true.
#[cfg(all(doctest, feature = "gateway"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
