//! The router: matches a request to a binding, makes the request's JSON
//! documents from its body, path and query, calls the method and writes its
//! answer. Generated routes and the gateway both serve through it, so both
//! answer alike byte for byte.

use std::borrow::Cow;
use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use futures_util::future::BoxFuture;
use http::header::CONTENT_TYPE;
use http::{HeaderMap, HeaderName, Request, Response, StatusCode};
use protojsonx_runtime::{DecodeOptions, EncodeOptions, Error};
use tokio::time::Instant;
use tonic::Code;
use tonic::metadata::{MetadataKey, MetadataMap, MetadataValue};

use crate::answer::{self, Framing, StatusJson};
use crate::method::{Answer, Call, CallError, Method, Streaming};
use crate::query::{self, Params, UnknownParameters};
use crate::rule::{Binding as RuleBinding, Body as BodyRule};
use crate::schema::{Schema, SchemaField};
use crate::template::{Binding, Lookup, PathMatcher};

/// How a router reads requests and writes answers.
#[derive(Clone)]
pub struct Options {
    decode: DecodeOptions,
    encode: EncodeOptions,
    unknown_parameters: UnknownParameters,
    max_body: usize,
    max_uri: usize,
    forward_headers: Vec<HeaderName>,
    timeout: Option<Duration>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            decode: DecodeOptions::new(),
            encode: EncodeOptions::new(),
            unknown_parameters: UnknownParameters::Reject,
            max_body: 4 << 20,
            max_uri: 8 << 10,
            forward_headers: vec![http::header::AUTHORIZATION],
            timeout: None,
        }
    }
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("unknown_parameters", &self.unknown_parameters)
            .field("max_body", &self.max_body)
            .field("max_uri", &self.max_uri)
            .field("forward_headers", &self.forward_headers)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl Options {
    /// The defaults: the spec's decode and encode options, unknown query
    /// parameters refused, bodies up to 4 MiB, URIs up to 8 KiB, and the
    /// `Authorization` header forwarded as metadata.
    pub fn new() -> Self {
        Self::default()
    }

    /// Decodes request bodies and parameters with `options`.
    pub fn decode_options(mut self, options: DecodeOptions) -> Self {
        self.decode = options;
        self
    }

    /// Writes answers and errors with `options`.
    pub fn encode_options(mut self, options: EncodeOptions) -> Self {
        self.encode = options;
        self
    }

    /// Whether query parameters that name no field are refused (the
    /// default) or ignored.
    pub fn unknown_parameters(mut self, unknown: UnknownParameters) -> Self {
        self.unknown_parameters = unknown;
        self
    }

    /// Refuses bodies longer than `bytes` with `413 Payload Too Large`.
    pub fn max_body(mut self, bytes: usize) -> Self {
        self.max_body = bytes;
        self
    }

    /// Refuses request URIs longer than `bytes` with `414 URI Too Long`.
    pub fn max_uri(mut self, bytes: usize) -> Self {
        self.max_uri = bytes;
        self
    }

    /// Forwards these headers as request metadata, besides the
    /// `grpc-metadata-*` ones (forwarded without the prefix) and
    /// `grpc-timeout` (the call's deadline). The default is `Authorization`.
    pub fn forward_headers(mut self, headers: impl IntoIterator<Item = HeaderName>) -> Self {
        self.forward_headers = headers.into_iter().collect();
        self
    }

    /// The longest a request may take, from its match to its answer (a
    /// stream's last message): the deadline of calls whose client sends
    /// no `grpc-timeout`, and the most one may ask for. A body that has not
    /// arrived by then is `408 Request Timeout`; a call that has not
    /// answered, `504` with `DEADLINE_EXCEEDED`. The default is no limit.
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.timeout = Some(limit);
        self
    }
}

/// A binding that cannot be served, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteError {
    message: String,
}

impl fmt::Display for RouteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RouteError {}

/// One binding of a method as the router serves it.
struct Route {
    /// The method's full name (`/google.example.library.v1.LibraryService/GetShelf`), for errors.
    name: String,
    body: BodyRule,
    /// The body field's JSON name, for the document `{"field": body}`.
    body_key: Option<String>,
    response_body: Option<SchemaField>,
    request: usize,
    method: Arc<dyn Method>,
}

/// Collects the bindings of a service's methods into a [`Router`].
pub struct RouterBuilder {
    schema: Schema,
    status_json: StatusJson,
    options: Options,
    matcher: PathMatcher<Route>,
}

impl RouterBuilder {
    /// A router of the messages in `schema` that writes statuses with `status_json`.
    pub fn new(schema: Schema, status_json: StatusJson) -> Self {
        RouterBuilder {
            schema,
            status_json,
            options: Options::default(),
            matcher: PathMatcher::new(),
        }
    }

    /// Serves with `options` instead of the defaults.
    pub fn options(&mut self, options: Options) -> &mut Self {
        self.options = options;
        self
    }

    /// Serves `binding` by calling `method`, named `name` in errors, whose
    /// request and response are the schema's messages `request` and
    /// `response` (full names). Checks what a binding names against the
    /// messages: each path variable a field it can fill, the body and
    /// response body top-level fields.
    pub fn route(
        &mut self,
        name: &str,
        binding: &RuleBinding,
        request: &str,
        response: &str,
        method: Arc<dyn Method>,
    ) -> Result<&mut Self, RouteError> {
        let fail = |why: String| RouteError {
            message: format!("{name}: {why}"),
        };
        let checked = binding
            .check(&self.schema, request, response)
            .map_err(|e| fail(e.to_string()))?;
        let route = Route {
            name: name.to_owned(),
            body: binding.body.clone(),
            body_key: checked.body_key,
            response_body: checked.response_body,
            request: checked.request,
            method,
        };
        self.matcher
            .insert(&binding.method, checked.template, route)
            .map_err(|e| fail(format!("`{} {}`: {e}", binding.method, binding.path)))?;
        Ok(self)
    }

    /// The router, ready to serve.
    pub fn build(self) -> Router {
        Router {
            inner: Arc::new(Inner {
                schema: self.schema,
                status_json: self.status_json,
                options: self.options,
                matcher: self.matcher,
            }),
        }
    }
}

/// Serves HTTP/JSON requests by the bindings it was built with: a tower
/// `Service`, and an axum `Router` through [`into_axum`](Self::into_axum).
#[derive(Clone)]
pub struct Router {
    inner: Arc<Inner>,
}

struct Inner {
    schema: Schema,
    status_json: StatusJson,
    options: Options,
    matcher: PathMatcher<Route>,
}

impl Router {
    /// An axum router that serves these bindings (as its fallback: the
    /// templates are matched here, not by axum). To serve them beside
    /// another router's routes, tonic's gRPC routes for one, make this
    /// router that one's fallback: `grpc.fallback_service(router)`.
    pub fn into_axum(self) -> axum::Router {
        axum::Router::new().fallback_service(self)
    }

    /// Answers one request.
    pub async fn serve<B>(&self, request: Request<B>) -> Response<Body>
    where
        B: http_body::Body<Data = bytes::Bytes> + Send + 'static,
        B::Error: Into<axum::BoxError>,
    {
        let inner = &*self.inner;
        match inner.answer(request.map(Body::new)).await {
            Ok(response) => response,
            Err(refused) => answer::refusal(
                refused.http,
                refused.code,
                refused.message,
                &inner.status_json,
                &inner.options.encode,
            ),
        }
    }
}

impl<B> tower_service::Service<Request<B>> for Router
where
    B: http_body::Body<Data = bytes::Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response<Body>, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let router = self.clone();
        Box::pin(async move { Ok(router.serve(request).await) })
    }
}

/// The header of a call's deadline, as gRPC's HTTP/2 protocol names it.
static GRPC_TIMEOUT: HeaderName = HeaderName::from_static("grpc-timeout");

/// Why the router answers a request itself, without a call: the HTTP
/// status, the code of its `google.rpc.Status` body, and what to tell the client.
struct Refused {
    http: StatusCode,
    code: Code,
    message: String,
}

/// A refusal with HTTP status `http` and code `code`.
fn refuse(http: StatusCode, code: Code, message: String) -> Refused {
    Refused {
        http,
        code,
        message,
    }
}

impl Inner {
    async fn answer(&self, request: Request<Body>) -> Result<Response<Body>, Refused> {
        let (parts, body) = request.into_parts();
        let uri_len = parts.uri.path_and_query().map_or(0, |p| p.as_str().len());
        if uri_len > self.options.max_uri {
            return Err(refuse(
                StatusCode::URI_TOO_LONG,
                Code::InvalidArgument,
                format!(
                    "the URI is {uri_len} bytes long; the limit is {}",
                    self.options.max_uri
                ),
            ));
        }
        let path = parts.uri.path();
        let (route, bindings) = match self.matcher.lookup(parts.method.as_str(), path) {
            Lookup::Found { value, bindings } => (value, bindings),
            Lookup::MethodNotAllowed { allowed } => {
                return Ok(answer::method_not_allowed(
                    parts.method.as_str(),
                    path,
                    &allowed,
                    &self.status_json,
                    &self.options.encode,
                ));
            }
            Lookup::NotFound => {
                return Err(refuse(
                    StatusCode::NOT_FOUND,
                    Code::NotFound,
                    format!("no method is bound to {} {path}", parts.method),
                ));
            }
        };
        if matches!(
            route.method.streaming(),
            Streaming::Client | Streaming::Bidi
        ) {
            return Err(refuse(
                StatusCode::NOT_IMPLEMENTED,
                Code::Unimplemented,
                format!(
                    "{} streams requests, which HTTP/JSON does not serve",
                    route.name
                ),
            ));
        }
        let deadline = self.deadline(&parts.headers);
        let variables = self.variables(bindings)?;
        let (query, unknown) = (parts.uri.query(), self.options.unknown_parameters);
        let (schema, message, body_rule) = (&self.schema, route.request, &route.body);
        let params = query::document(schema, message, &variables, query, body_rule, unknown)
            .map_err(|e| {
                refuse(
                    StatusCode::BAD_REQUEST,
                    Code::InvalidArgument,
                    e.to_string(),
                )
            })?;
        let mut documents = Vec::with_capacity(2);
        let body = self.body_document(route, &parts.headers, body, &mut documents);
        let body_prefix = within(deadline, body, || {
            refuse(
                StatusCode::REQUEST_TIMEOUT,
                Code::DeadlineExceeded,
                "the request body did not arrive within the request's deadline".into(),
            )
        })
        .await?;
        documents.push(params);
        let body_documents = documents.len() - 1;
        let call = Call {
            documents,
            timeout: deadline.map(|deadline| deadline.saturating_duration_since(Instant::now())),
            metadata: self.metadata(&parts.headers),
            extensions: parts.extensions,
            decode: self.options.decode,
            encode: self.options.encode,
        };
        let called = route.method.call(call);
        let result = within(deadline, called, || CallError::Status(expired(&route.name))).await;
        match result {
            Ok(Answer::Message { json, metadata }) => {
                let json = match &route.response_body {
                    Some(field) => response_field(&json, field, &self.options.encode),
                    None => json,
                };
                Ok(answer::message(json, &metadata))
            }
            Ok(Answer::Stream { items, metadata }) => {
                let items = match route.response_body.clone() {
                    Some(field) => {
                        use futures_util::StreamExt;
                        let encode = self.options.encode;
                        items
                            .map(move |item| {
                                item.map(|json| response_field(&json, &field, &encode))
                            })
                            .boxed()
                    }
                    None => items,
                };
                let items = match deadline {
                    Some(deadline) => until(items, deadline, route.name.clone()),
                    None => items,
                };
                Ok(answer::stream(
                    items,
                    &metadata,
                    Framing::of(&parts.headers),
                    self.status_json.clone(),
                    self.options.encode,
                )
                .await)
            }
            Err(CallError::Decode { document, error }) if document < body_documents => Err(refuse(
                StatusCode::BAD_REQUEST,
                Code::InvalidArgument,
                body_error(&error, body_prefix),
            )),
            Err(CallError::Decode { error, .. }) => {
                // Built again, by the builder that keeps where each value came from.
                let params = Params::build(schema, message, &variables, query, body_rule, unknown);
                let described = params.map_or_else(|e| e.to_string(), |p| p.describe(&error));
                Err(refuse(
                    StatusCode::BAD_REQUEST,
                    Code::InvalidArgument,
                    described,
                ))
            }
            Err(CallError::Status(status)) => Ok(answer::error(
                &status,
                &self.status_json,
                &self.options.encode,
            )),
        }
    }

    /// The request's deadline: the sooner of its `grpc-timeout` and the
    /// router's timeout, from now.
    fn deadline(&self, headers: &HeaderMap) -> Option<Instant> {
        let requested = headers.get(&GRPC_TIMEOUT);
        let requested = requested
            .and_then(|v| v.to_str().ok())
            .and_then(grpc_timeout);
        let timeout = match (requested, self.options.timeout) {
            (Some(requested), Some(limit)) => Some(requested.min(limit)),
            (requested, limit) => requested.or(limit),
        };
        timeout.and_then(|limit| Instant::now().checked_add(limit))
    }

    /// The path's variables as text: a value whose escapes decode to bytes
    /// that are not UTF-8 cannot be a field's.
    fn variables<'m>(&self, bindings: Vec<Binding<'m>>) -> Result<Vec<Variable<'m>>, Refused> {
        let mut variables = Vec::with_capacity(bindings.len());
        for binding in bindings {
            let Some(value) = text(binding.value) else {
                return Err(refuse(
                    StatusCode::BAD_REQUEST,
                    Code::InvalidArgument,
                    format!(
                        "path variable `{}` is not UTF-8 once decoded",
                        binding.field_path.join(".")
                    ),
                ));
            };
            variables.push((binding.field_path, value));
        }
        Ok(variables)
    }

    /// Reads the body into `documents` when the binding has one: the body
    /// itself (`body: "*"`), or `{"field":` body `}`, whose prefix length is
    /// returned so that errors point into the client's body.
    async fn body_document(
        &self,
        route: &Route,
        headers: &HeaderMap,
        body: Body,
        documents: &mut Vec<Vec<u8>>,
    ) -> Result<usize, Refused> {
        if route.body == BodyRule::None {
            return Ok(0);
        }
        let bytes = axum::body::to_bytes(body, self.options.max_body)
            .await
            .map_err(|_| {
                refuse(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    Code::ResourceExhausted,
                    format!("the body is larger than {} bytes", self.options.max_body),
                )
            })?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(0);
        }
        if !is_json(headers) {
            return Err(refuse(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                Code::InvalidArgument,
                "the body must be JSON: Content-Type application/json".into(),
            ));
        }
        match &route.body_key {
            None => {
                documents.push(bytes.to_vec());
                Ok(0)
            }
            Some(key) => {
                let mut document = Vec::with_capacity(bytes.len() + key.len() + 5);
                document.extend_from_slice(b"{\"");
                document.extend_from_slice(key.as_bytes());
                document.extend_from_slice(b"\":");
                let prefix = document.len();
                document.extend_from_slice(&bytes);
                document.push(b'}');
                documents.push(document);
                Ok(prefix)
            }
        }
    }

    /// The request metadata: `grpc-metadata-*` headers without the prefix,
    /// and the forwarded headers as they are. Values that gRPC metadata
    /// cannot hold (anything but printable ASCII and spaces) are left out,
    /// as are `-bin` keys.
    fn metadata(&self, headers: &HeaderMap) -> MetadataMap {
        let mut metadata = MetadataMap::new();
        for (name, value) in headers {
            let key = match name.as_str().strip_prefix("grpc-metadata-") {
                Some(key) => key,
                None if self.options.forward_headers.contains(name) => name.as_str(),
                None => continue,
            };
            if key.ends_with("-bin") || !value.as_bytes().iter().all(|b| matches!(b, b' '..=b'~')) {
                continue;
            }
            if let (Ok(key), Ok(value)) = (
                MetadataKey::from_bytes(key.as_bytes()),
                MetadataValue::try_from(value.as_bytes()),
            ) {
                metadata.append(key, value);
            }
        }
        metadata
    }
}

/// A path variable: the field path it sets and its value.
type Variable<'m> = (&'m [String], Cow<'m, str>);

/// `bytes` as text, if they are UTF-8.
fn text(bytes: Cow<'_, [u8]>) -> Option<Cow<'_, str>> {
    match bytes {
        Cow::Borrowed(bytes) => std::str::from_utf8(bytes).ok().map(Cow::Borrowed),
        Cow::Owned(bytes) => String::from_utf8(bytes).ok().map(Cow::Owned),
    }
}

/// Whether the request says its body is JSON (`application/json`,
/// `application/*+json`, parameters allowed), as `axum::Json` requires.
fn is_json(headers: &HeaderMap) -> bool {
    let Some(media) = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let media = media
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    media == "application/json" || (media.starts_with("application/") && media.ends_with("+json"))
}

/// The message of an error in the body, its position counted in the
/// client's body (the document had `prefix` bytes before it, on its first line).
fn body_error(error: &Error, prefix: usize) -> String {
    let column = if error.line() == 1 {
        error.column().saturating_sub(prefix)
    } else {
        error.column()
    };
    let path = error.path_string();
    let at = if path.is_empty() {
        String::new()
    } else {
        format!(" at `{path}`")
    };
    format!(
        "invalid request body: {}{at} (line {}, column {column})",
        error.message(),
        error.line()
    )
}

/// The JSON of one top-level member of a response, as `response_body`
/// answers: the member the encoder wrote with `options` (by its JSON or
/// `.proto` name), or the field's default when the encoder left it out.
fn response_field(json: &[u8], field: &SchemaField, options: &EncodeOptions) -> Vec<u8> {
    let members: Result<std::collections::HashMap<&str, &serde_json::value::RawValue>, _> =
        serde_json::from_slice(json);
    let found = members.ok().and_then(|members| {
        members
            .get(&*field.json_name)
            .or_else(|| members.get(&*field.name))
            .map(|raw| outdented(raw.get()))
    });
    // `EncodeOptions` has no getters: an option is set when setting it changes nothing.
    let enums_as_ints = options.enums_as_ints(true) == *options;
    found.unwrap_or_else(|| field.default_json(enums_as_ints).into_owned().into_bytes())
}

/// `raw`, a member's value as the encoder wrote it one level deep, moved
/// to the top level: when pretty-printed, every line after the first loses
/// one level of indentation, the spaces before its last line's closing
/// bracket. JSON strings hold no raw newlines: every newline is layout.
fn outdented(raw: &str) -> Vec<u8> {
    let Some(last) = raw.rfind('\n') else {
        return raw.as_bytes().to_vec();
    };
    let level = raw[last + 1..].bytes().take_while(|&b| b == b' ').count();
    let newline_and_level = format!("\n{:level$}", "");
    raw.replace(&newline_and_level, "\n").into_bytes()
}

/// `items`, ended with `DEADLINE_EXCEEDED` at `deadline` (the request's)
/// unless they end before: the router stops waiting for a
/// stream's messages, the first included, as it stops waiting for a unary
/// answer.
fn until(
    items: futures_util::stream::BoxStream<'static, Result<Vec<u8>, tonic::Status>>,
    deadline: tokio::time::Instant,
    name: String,
) -> futures_util::stream::BoxStream<'static, Result<Vec<u8>, tonic::Status>> {
    use futures_util::StreamExt;
    use futures_util::future::{Either, select};
    let alarm = Box::pin(tokio::time::sleep_until(deadline));
    futures_util::stream::unfold(Some((items, alarm)), move |state| {
        let name = name.clone();
        async move {
            let (mut items, mut alarm) = state?;
            let next = match select(items.next(), &mut alarm).await {
                Either::Left((item, _)) => Some(item),
                Either::Right(_) => None,
            };
            match next {
                Some(Some(item)) => Some((item, Some((items, alarm)))),
                Some(None) => None,
                None => Some((Err(expired(&name)), None)),
            }
        }
    })
    .boxed()
}

/// `future`'s result, or `expired()` when `deadline` comes first.
async fn within<T, E>(
    deadline: Option<Instant>,
    future: impl Future<Output = Result<T, E>>,
    expired: impl FnOnce() -> E,
) -> Result<T, E> {
    match deadline {
        Some(deadline) => tokio::time::timeout_at(deadline, future)
            .await
            .unwrap_or_else(|_| Err(expired())),
        None => future.await,
    }
}

/// The status of a call `name` that did not answer by its deadline.
fn expired(name: &str) -> tonic::Status {
    tonic::Status::deadline_exceeded(format!("{name} gave no answer within its deadline"))
}

/// The deadline a `grpc-timeout` value gives (`100m`, `5S`: digits then a
/// unit of H, M, S, m, u or n), as gRPC's HTTP/2 protocol writes it.
fn grpc_timeout(value: &str) -> Option<Duration> {
    let (digits, unit) = value.split_at(value.len().checked_sub(1)?);
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(n * 3600),
        "M" => Duration::from_secs(n * 60),
        "S" => Duration::from_secs(n),
        "m" => Duration::from_millis(n),
        "u" => Duration::from_micros(n),
        "n" => Duration::from_nanos(n),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Cardinality, EnumDefault, FieldKind};

    fn field(kind: FieldKind, cardinality: Cardinality) -> SchemaField {
        SchemaField {
            name: "the_field".into(),
            json_name: "theField".into(),
            kind,
            cardinality,
        }
    }

    fn closed_enum() -> FieldKind {
        FieldKind::Enum {
            default: Some(EnumDefault {
                name: "LOW".into(),
                number: 3,
            }),
        }
    }

    fn text(bytes: Vec<u8>) -> String {
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn the_member_is_taken_by_either_name() {
        let f = field(FieldKind::Number, Cardinality::Singular);
        let plain = EncodeOptions::new();
        assert_eq!(
            text(response_field(br#"{"a":1,"theField":2}"#, &f, &plain)),
            "2"
        );
        assert_eq!(
            text(response_field(br#"{"the_field":[1, 2]}"#, &f, &plain)),
            "[1, 2]"
        );
    }

    #[test]
    fn a_pretty_member_is_indented_as_a_top_level_value() {
        let f = field(FieldKind::Message(1), Cardinality::Repeated);
        for indent in [0, 2, 4] {
            let options = EncodeOptions::new().indent(indent);
            let pad = |level: usize| " ".repeat(level * usize::from(indent));
            let nested = format!(
                "{{\n{0}\"theField\": [\n{1}{{\n{2}\"a\": \"x\\n  y\"\n{1}}}\n{0}]\n}}",
                pad(1),
                pad(2),
                pad(3)
            );
            let top = format!("[\n{0}{{\n{1}\"a\": \"x\\n  y\"\n{0}}}\n]", pad(1), pad(2));
            assert_eq!(text(response_field(nested.as_bytes(), &f, &options)), top);
        }
    }

    #[test]
    fn a_left_out_member_is_its_default_as_the_encoder_writes_it() {
        let names = EncodeOptions::new();
        let numbers = EncodeOptions::new().enums_as_ints(true).indent(2);
        let closed = field(closed_enum(), Cardinality::Singular);
        assert_eq!(text(response_field(b"{}", &closed, &names)), r#""LOW""#);
        assert_eq!(text(response_field(b"{}", &closed, &numbers)), "3");
        let repeated = field(closed_enum(), Cardinality::Repeated);
        assert_eq!(text(response_field(b"{}", &repeated, &numbers)), "[]");
        let count = field(FieldKind::Int64, Cardinality::Singular);
        assert_eq!(text(response_field(b"{}", &count, &numbers)), r#""0""#);
    }
}
