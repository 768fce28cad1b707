//! The options a router gives its ProtoJSON bodies.

use std::convert::Infallible;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use protojsonx_runtime::{DecodeOptions, EncodeOptions};

use crate::ProtoJsonResponse;

/// The options [`ProtoJsonBody`](crate::ProtoJsonBody) decodes request bodies with,
/// and the encode options handlers answer with through [`respond`](Self::respond).
///
/// Install it as a request extension, on a router or on some routes; without
/// one the defaults apply (the spec's: unknown fields are errors, nesting is
/// limited to 100 levels; lowerCamelCase names, default values left out):
///
/// ```
/// use axum::{Extension, Router, routing::post};
/// use protojsonx_axum::{ProtoJsonBody, ProtoJsonConfig, ProtoJsonResponse};
/// use protojsonx_runtime::{DecodeOptions, EncodeOptions};
/// use prost_types::Struct;
///
/// async fn echo(config: ProtoJsonConfig, ProtoJsonBody(body): ProtoJsonBody<Struct>) -> ProtoJsonResponse<Struct> {
///     config.respond(body)
/// }
///
/// let config = ProtoJsonConfig::new()
///     .with_decode_options(DecodeOptions::new().ignore_unknown_fields(true).max_depth(32))
///     .with_encode_options(EncodeOptions::new().use_proto_names(true));
/// let app: Router = Router::new().route("/echo", post(echo)).layer(Extension(config));
/// ```
///
/// The body size limit is not here: it is axum's
/// [`DefaultBodyLimit`](axum::extract::DefaultBodyLimit), as for `Json`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProtoJsonConfig {
    decode: DecodeOptions,
    encode: EncodeOptions,
}

impl ProtoJsonConfig {
    /// The default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// Decodes request bodies with `options`.
    pub fn with_decode_options(mut self, options: DecodeOptions) -> Self {
        self.decode = options;
        self
    }

    /// Answers [`respond`](Self::respond) with `options`.
    pub fn with_encode_options(mut self, options: EncodeOptions) -> Self {
        self.encode = options;
        self
    }

    /// The options request bodies are decoded with.
    pub fn decode_options(&self) -> &DecodeOptions {
        &self.decode
    }

    /// The options [`respond`](Self::respond) encodes with.
    pub fn encode_options(&self) -> &EncodeOptions {
        &self.encode
    }

    /// `message` as a ProtoJSON response written with these encode options.
    pub fn respond<T>(&self, message: T) -> ProtoJsonResponse<T> {
        ProtoJsonResponse::new(message, self.encode)
    }

    /// The configuration installed on the request, or the default one.
    pub(crate) fn of(extensions: &axum::http::Extensions) -> Self {
        extensions.get::<Self>().copied().unwrap_or_default()
    }
}

/// Extracts the configuration installed on the request (the default one
/// when there is none), for handlers that answer with [`respond`](ProtoJsonConfig::respond).
impl<S: Send + Sync> FromRequestParts<S> for ProtoJsonConfig {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(Self::of(&parts.extensions))
    }
}
