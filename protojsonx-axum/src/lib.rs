//! ProtoJSON request and response bodies for [axum] 0.8, encoded and decoded
//! by [protojsonx]: [`ProtoJsonBody<T>`] is to protobuf messages what
//! `axum::Json<T>` is to serde types.
//!
//! ```
//! use axum::{Router, http::StatusCode, routing::post};
//! use protojsonx_axum::ProtoJsonBody;
//! use prost_types::{Struct, Value, value::Kind};
//!
//! /// Adds `"seen": true` to any JSON object (a `google.protobuf.Struct`).
//! async fn stamp(ProtoJsonBody(mut object): ProtoJsonBody<Struct>) -> (StatusCode, ProtoJsonBody<Struct>) {
//!     let seen = Value { kind: Some(Kind::BoolValue(true)) };
//!     object.fields.insert("seen".into(), seen);
//!     (StatusCode::CREATED, ProtoJsonBody(object))
//! }
//!
//! let app: Router = Router::new().route("/stamp", post(stamp));
//! ```
//!
//! # Requests
//!
//! The extractor
//!
//! - requires a JSON `Content-Type`: `application/json` or
//!   `application/*+json`, parameters allowed (`; charset=utf-8`), as
//!   `axum::Json` does; else `415 Unsupported Media Type`;
//! - reads the body within axum's [`DefaultBodyLimit`](axum::extract::DefaultBodyLimit)
//!   (2 MiB unless a `DefaultBodyLimit` layer on the route or router says
//!   otherwise), else `413 Payload Too Large`;
//! - decodes it with the [`DecodeOptions`](protojsonx_runtime::DecodeOptions)
//!   of the request's [`ProtoJsonConfig`] (an `Extension`; the spec's
//!   defaults without one), else `400 Bad Request` with a JSON body naming
//!   the message, field path, line and column (see [`ProtoJsonRejection`]).
//!
//! `Option<ProtoJsonBody<T>>` accepts requests without a `Content-Type` as
//! `None`. To answer refusals differently, take `Result<ProtoJsonBody<T>,
//! ProtoJsonRejection>` and use its accessors.
//!
//! # Responses
//!
//! `ProtoJsonBody(message)` answers `200 OK`, `content-type: application/json`,
//! with the message written with the default
//! [`EncodeOptions`];
//! [`ProtoJsonBody::with_options`] and [`ProtoJsonConfig::respond`] (the options
//! configured for the router) give a [`ProtoJsonResponse`] written with
//! others. A message that cannot be written as ProtoJSON (a `Timestamp` out
//! of range) is a `500` with a JSON error.
//!
//! # Names
//!
//! `ProtoJsonBody` names the body, not the runtime's trait
//! `protojsonx_runtime::ProtoJson`, and not `axum::Json`: all three can be
//! imported side by side.
//!
//! [axum]: https://docs.rs/axum
//! [protojsonx]: https://github.com/protojsonx/protojsonx-rs

mod config;
mod extract;
mod rejection;
mod response;

use std::ops::{Deref, DerefMut};

use protojsonx_runtime::EncodeOptions;

pub use config::ProtoJsonConfig;
pub use rejection::ProtoJsonRejection;
pub use response::ProtoJsonResponse;

/// A protobuf message as a ProtoJSON body: an extractor for requests and a
/// response. See the [crate documentation](crate) for what each does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[must_use]
pub struct ProtoJsonBody<T>(pub T);

impl<T> ProtoJsonBody<T> {
    /// The message as a response written with `options` instead of the defaults.
    ///
    /// ```
    /// use protojsonx_axum::{ProtoJsonBody, ProtoJsonResponse};
    /// use protojsonx_runtime::EncodeOptions;
    ///
    /// fn answer(api: prost_types::Api) -> ProtoJsonResponse<prost_types::Api> {
    ///     ProtoJsonBody(api).with_options(EncodeOptions::new().use_proto_names(true))
    /// }
    /// ```
    pub fn with_options(self, options: EncodeOptions) -> ProtoJsonResponse<T> {
        ProtoJsonResponse::new(self.0, options)
    }

    /// The message.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> From<T> for ProtoJsonBody<T> {
    fn from(message: T) -> Self {
        ProtoJsonBody(message)
    }
}

impl<T> Deref for ProtoJsonBody<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for ProtoJsonBody<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

/// The README's examples, run as doctests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
