//! The path's variables and the query parameters of a request, as one
//! ProtoJSON document of the request message.
//!
//! A request message is made by merging JSON documents into it, in order:
//! the body (as the message, or as one field's value), then the document
//! [`Params::build`] writes from the path variables and the query string.
//! This module only writes JSON, typed by the [`Schema`], so that the
//! message's own decoder reads it and reports a bad value; [`Params::describe`]
//! then names the parameter the client wrote.
//!
//! The rules, those of `google/api/http.proto` and grpc-gateway; where
//! grpc-gateway and Envoy's `grpc_json_transcoder` differ, the stricter:
//!
//! - The query string is `application/x-www-form-urlencoded` (`+` is a
//!   space, percent escapes are decoded; a name or value whose escapes
//!   decode to bytes that are not UTF-8 is an error, as it is in a path
//!   variable, rather than changed). A name is a field path with dots
//!   (`shelf.theme`), each segment a field's `.proto` name or JSON name.
//!   The document's keys are JSON names.
//! - Values are JSON strings of the text (ProtoJSON reads numbers, 64-bit
//!   integers, `NaN`, base64 and the well-known types' forms from strings),
//!   but for `bool` (bare `true` or `false` when the text is exactly that)
//!   and enums (a bare number when the text is an `i32`, else the name as a
//!   string). Any other text stays a string, for the decoder to refuse.
//! - Each occurrence of a repeated field adds an element, in order. A
//!   singular field set twice is an error (grpc-gateway refuses it too;
//!   Envoy keeps the last). Map fields, message fields given a value, and
//!   paths through a repeated or map field are errors: neither gateway
//!   reads maps from the query (grpc-gateway's `map[key]` form is not
//!   supported here).
//! - A name naming no field is an error (Envoy's default) unless
//!   [`UnknownParameters::Ignore`] (grpc-gateway's behaviour) is asked for.
//! - A parameter naming a field bound by the path, or a field under it, is
//!   ignored, and so is one naming the body's field (`body: "field"`) or a
//!   field under it, as grpc-gateway does. With `body: "*"` the body sets
//!   every field, so every parameter is unknown.
//! - Path variables are typed the same way; they must name singular
//!   scalar, enum or string-form well-known fields, through singular
//!   message fields ([`check_variable`]). Two variables may share a
//!   parent (`{book.name}`, `{book.shelf}`); one field bound twice is an
//!   error.
//! - Members of one message are written into one object, in the fields'
//!   declaration order, whatever order the parameters came in.
//! - Query strings are hostile: at most [`MAX_PARAMETERS`] parameters and
//!   [`MAX_DEPTH`] segments per name; each parameter costs an ordered-map lookup
//!   per segment, and writing recurses at most [`MAX_DEPTH`] deep.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use protojsonx_runtime::{Error, PathSegment};

mod flat;

use crate::rule::Body;
use crate::schema::{Cardinality, FieldKind, Schema, SchemaField, SchemaMessage};

/// The most query parameters one request may have; more is an error
/// rather than work in proportion to what a client chose to send.
pub const MAX_PARAMETERS: usize = 1024;

/// The most segments a parameter's or a variable's field path may have: a
/// recursive message lets `a.a.a...` nest without end, and the document's
/// depth must stay within the decoder's limit.
pub const MAX_DEPTH: usize = 64;

/// The longest part of a name an error message repeats, so that a hostile
/// name does not come back whole in the answer.
const SHOWN: usize = 100;

/// What to do with a query parameter that names no field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnknownParameters {
    /// Refuse the request (Envoy's default): a misspelt parameter is not
    /// silently dropped.
    #[default]
    Reject,
    /// Skip the parameter (grpc-gateway's behaviour), for clients that add
    /// parameters of their own (cache busters, tracking).
    Ignore,
}

/// The JSON document of a request message made of its path variables and
/// query parameters, and which of them gave each value, to tell the client
/// which one the decoder refused.
#[derive(Debug, Clone)]
pub struct Params {
    json: Vec<u8>,
    nodes: Vec<Node>,
}

/// A query string or path variable that cannot make a request message:
/// what is wrong and which parameter it is, for a 400 answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamError {
    message: String,
    parameter: Option<String>,
}

impl ParamError {
    /// The parameter (or the path variable's field path) the error is
    /// about, as the client wrote it, for a `google.rpc.BadRequest` field
    /// violation; `None` when it is about the query as a whole.
    pub fn parameter(&self) -> Option<&str> {
        self.parameter.as_deref()
    }
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParamError {}

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Origin {
    /// A query parameter, by its name as decoded from the query string.
    Query(String),
    /// A path variable, by its field path as the template spells it.
    Path(String),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Query(name) => write!(f, "query parameter `{}`", shown(name)),
            Origin::Path(name) => write!(f, "path variable `{}`", shown(name)),
        }
    }
}

impl Origin {
    fn name(&self) -> &str {
        match self {
            Origin::Query(name) | Origin::Path(name) => name,
        }
    }
}

/// One member of the document being built (the root is the message).
#[derive(Debug, Clone)]
struct Node {
    /// The field's JSON name, the document's key (empty at the root).
    json_name: Cow<'static, str>,
    /// The field's `.proto` name, which a decoder's error path may use.
    proto_name: Cow<'static, str>,
    value: Value,
}

#[derive(Debug, Clone)]
enum Value {
    /// A message: its members, as (field index, node), in the order added
    /// (sorted by field index before writing, for declaration order).
    Object(Vec<(usize, usize)>),
    /// A field's values, each as its JSON and where it came from: one for
    /// a singular field, one per occurrence for a repeated one.
    Leaf {
        repeated: bool,
        /// Whether a path variable set it: the query may not.
        bound: bool,
        items: Vec<(Vec<u8>, Origin)>,
    },
}

/// What became of one variable or parameter.
enum Added {
    Set,
    /// Ignored: the path or the body sets that field.
    Skipped,
    /// A segment names no field: `why` says more when it helps.
    Unknown {
        why: Option<String>,
    },
}

impl Params {
    /// Builds the document of `message` (an index into `schema`) from the
    /// path's variables (each a field path and its decoded value, in the
    /// template's order) and the raw query string (without the `?`), for
    /// a binding whose body goes where `body` says.
    ///
    /// # Errors
    ///
    /// A [`ParamError`] saying which parameter or variable breaks which
    /// rule (see the [module documentation](self)). Values themselves are
    /// not checked: decoding [`json`](Self::json) does that.
    pub fn build<P: AsRef<[String]>, V: AsRef<str>>(
        schema: &Schema,
        message: usize,
        variables: &[(P, V)],
        query: Option<&str>,
        body: &Body,
        unknown: UnknownParameters,
    ) -> Result<Params, ParamError> {
        let mut builder = Builder {
            schema,
            message,
            nodes: vec![Node {
                json_name: Cow::Borrowed(""),
                proto_name: Cow::Borrowed(""),
                value: Value::Object(Vec::new()),
            }],
            children: BTreeMap::new(),
            body_field: match body {
                Body::Field(name) => Some(name.as_str()),
                Body::None | Body::Whole => None,
            },
        };
        for (path, value) in variables {
            let path = path.as_ref();
            let origin = Origin::Path(path.join("."));
            let segments: Vec<&str> = path.iter().map(String::as_str).collect();
            if segments.len() > MAX_DEPTH {
                return Err(too_deep(origin));
            }
            match builder.add(&segments, value.as_ref(), origin.clone())? {
                Added::Set | Added::Skipped => {}
                Added::Unknown { why } => {
                    return Err(ParamError {
                        message: format!(
                            "{origin} names no field of `{}`{}",
                            schema.message(message).full_name,
                            why.map(|why| format!(" ({why})")).unwrap_or_default()
                        ),
                        parameter: Some(origin.name().to_owned()),
                    });
                }
            }
        }
        for (count, (raw_name, raw_value)) in pairs(query.unwrap_or_default()).enumerate() {
            if count == MAX_PARAMETERS {
                return Err(ParamError {
                    message: format!("more than {MAX_PARAMETERS} query parameters"),
                    parameter: None,
                });
            }
            let (Some(name), Some(value)) = (form_decode(raw_name), form_decode(raw_value)) else {
                return Err(ParamError {
                    message: format!(
                        "query parameter `{}` is not UTF-8 once decoded",
                        shown(raw_name)
                    ),
                    parameter: Some(raw_name.to_owned()),
                });
            };
            let origin = Origin::Query(name.into_owned());
            let added = if *body == Body::Whole {
                Added::Unknown {
                    why: Some("the request body sets every field".into()),
                }
            } else {
                let name = origin.name();
                if name.split('.').nth(MAX_DEPTH).is_some() {
                    return Err(too_deep(origin));
                }
                let segments: Vec<&str> = name.split('.').collect();
                builder.add(&segments, &value, origin.clone())?
            };
            match (added, unknown) {
                (Added::Set | Added::Skipped, _)
                | (Added::Unknown { .. }, UnknownParameters::Ignore) => {}
                (Added::Unknown { why }, UnknownParameters::Reject) => {
                    return Err(ParamError {
                        message: format!(
                            "unknown {origin}{}",
                            why.map(|why| format!(" ({why})")).unwrap_or_default()
                        ),
                        parameter: Some(origin.name().to_owned()),
                    });
                }
            }
        }
        let mut nodes = builder.nodes;
        for node in &mut nodes {
            if let Value::Object(members) = &mut node.value {
                members.sort_unstable_by_key(|&(field, _)| field);
            }
        }
        let mut json = Vec::new();
        write(&nodes, 0, &mut json);
        Ok(Params { json, nodes })
    }

    /// The document: a JSON object of the request message, to merge into
    /// it after the body.
    pub fn json(&self) -> &[u8] {
        &self.json
    }

    /// The document, taken out ([`json`](Self::json) is empty afterwards);
    /// [`describe`](Self::describe) still explains its errors.
    pub fn take_json(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.json)
    }

    /// What a decoding error of [`json`](Self::json) is about, for a 400
    /// answer: the query parameter or path variable that gave the value at
    /// the error's path, as the client wrote it, and the error's message.
    /// Line and column are left out: they are of this document, not of
    /// anything the client sent. For example
    /// ``invalid query parameter `page_size`: invalid value for int32: ...``.
    pub fn describe(&self, error: &Error) -> String {
        match self.origin_of(error) {
            Some(origin) => format!("invalid {origin}: {}", error.message()),
            None => {
                let path = error.path_string();
                if path.is_empty() {
                    format!("invalid request parameters: {}", error.message())
                } else {
                    format!(
                        "invalid request parameters: {} at `{}`",
                        error.message(),
                        shown(&path)
                    )
                }
            }
        }
    }

    /// The origin of the value at `error`'s path: the value's if the path
    /// leads to one, the only value's under the object it leads to if
    /// there is exactly one, else none.
    fn origin_of(&self, error: &Error) -> Option<&Origin> {
        let mut node = 0;
        let mut index = None;
        for segment in error.path() {
            match (segment, &self.nodes[node].value) {
                (PathSegment::Field(key), Value::Object(members)) => {
                    node = members.iter().map(|&(_, child)| child).find(|&child| {
                        let child = &self.nodes[child];
                        child.json_name == *key || child.proto_name == *key
                    })?;
                }
                (PathSegment::Index(i), Value::Leaf { repeated: true, .. }) if index.is_none() => {
                    index = Some(*i);
                }
                _ => return None,
            }
        }
        match &self.nodes[node].value {
            Value::Leaf { items, .. } => items.get(index.unwrap_or(0)).map(|(_, origin)| origin),
            Value::Object(_) => self.only_origin_under(node),
        }
    }

    /// The origin of the one value under the object `node`, if there is
    /// exactly one.
    fn only_origin_under(&self, node: usize) -> Option<&Origin> {
        let mut found = None;
        let mut stack = vec![node];
        while let Some(node) = stack.pop() {
            match &self.nodes[node].value {
                Value::Object(members) => stack.extend(members.iter().map(|&(_, child)| child)),
                Value::Leaf { items, .. } => {
                    for (_, origin) in items {
                        if found.replace(origin).is_some() {
                            return None;
                        }
                    }
                }
            }
        }
        found
    }
}

/// The document [`Params::build`] writes for the same request, written
/// directly when every variable and parameter names, by one segment, a
/// top-level field that is not a message, as most requests do; else built
/// by [`Params::build`]. Only that builds what [`Params::describe`] needs,
/// so to explain a decoding error of this document, build it there.
///
/// # Errors
///
/// [`Params::build`]'s.
pub fn document<P: AsRef<[String]>, V: AsRef<str>>(
    schema: &Schema,
    message: usize,
    variables: &[(P, V)],
    query: Option<&str>,
    body: &Body,
    unknown: UnknownParameters,
) -> Result<Vec<u8>, ParamError> {
    match flat::document(schema.message(message), variables, query, body) {
        Some(json) => Ok(json),
        None => Params::build(schema, message, variables, query, body, unknown)
            .map(|mut params| params.take_json()),
    }
}

/// Whether `field_path` names a field a path variable can fill in the
/// message at `message` of `schema`: a singular scalar, enum or
/// string-form well-known field, through singular message fields. For
/// checking a template against the request message when routes are built,
/// rather than failing each request.
///
/// # Errors
///
/// A sentence saying why not.
pub fn check_variable(
    schema: &Schema,
    message: usize,
    field_path: &[String],
) -> Result<(), String> {
    let shown_path = field_path.join(".");
    if field_path.is_empty() {
        return Err("a path variable names no field".into());
    }
    if field_path.len() > MAX_DEPTH {
        return Err(format!(
            "the path variable `{}` has more than {MAX_DEPTH} segments",
            shown(&shown_path)
        ));
    }
    let mut current = message;
    for (i, segment) in field_path.iter().enumerate() {
        let msg = schema.message(current);
        let prefix = field_path[..=i].join(".");
        let Some(field) = field_index(msg, segment).map(|index| &msg.fields[index]) else {
            return Err(format!(
                "the path variable `{}` names no field: `{}` has no field `{}`",
                shown(&shown_path),
                msg.full_name,
                shown(segment)
            ));
        };
        let last = i + 1 == field_path.len();
        match (field.cardinality, &field.kind) {
            (Cardinality::Map, _) => {
                return Err(format!(
                    "the path variable `{}` names a map field (`{}`); a path variable fills a singular field",
                    shown(&shown_path),
                    shown(&prefix)
                ));
            }
            (Cardinality::Repeated, _) => {
                return Err(format!(
                    "the path variable `{}` names a repeated field (`{}`); a path variable fills a singular field",
                    shown(&shown_path),
                    shown(&prefix)
                ));
            }
            (Cardinality::Singular, FieldKind::Message(next)) if !last => current = *next,
            (Cardinality::Singular, FieldKind::Message(_)) => {
                return Err(format!(
                    "the path variable `{}` names a message field; it must name one of its fields",
                    shown(&shown_path)
                ));
            }
            (Cardinality::Singular, _) if !last => {
                return Err(format!(
                    "the path variable `{}` names no field: `{}` is not a message",
                    shown(&shown_path),
                    shown(&prefix)
                ));
            }
            (Cardinality::Singular, _) => {}
        }
    }
    Ok(())
}

/// The state of [`Params::build`].
struct Builder<'s, 'b> {
    schema: &'s Schema,
    message: usize,
    nodes: Vec<Node>,
    /// The node of each (object node, field index) added so far.
    children: BTreeMap<(usize, usize), usize>,
    /// The top-level field the body sets, if one.
    body_field: Option<&'b str>,
}

impl Builder<'_, '_> {
    /// Adds `value` at the field path `segments` (at most [`MAX_DEPTH`]),
    /// which `origin` names. The path is resolved whole before any node
    /// is added, so that a parameter skipped or refused leaves no empty
    /// object behind (`"shelf":{}` would set `shelf`).
    fn add(&mut self, segments: &[&str], value: &str, origin: Origin) -> Result<Added, ParamError> {
        let schema = self.schema;
        let query = matches!(origin, Origin::Query(_));
        let refuse = |why: String| ParamError {
            message: format!("{origin} {why}"),
            parameter: Some(origin.name().to_owned()),
        };
        // The fields the segments name, and the node of the last one if
        // the document has it already.
        let mut fields: Vec<(usize, &SchemaField)> = Vec::with_capacity(segments.len());
        let mut node = Some(0);
        let mut message = self.message;
        for (i, segment) in segments.iter().enumerate() {
            let msg = schema.message(message);
            let Some(index) = field_index(msg, segment) else {
                return Ok(Added::Unknown { why: None });
            };
            let field = &msg.fields[index];
            node = node.and_then(|node| self.children.get(&(node, index)).copied());
            if query {
                if i == 0 && self.body_field == Some(&*field.name) {
                    return Ok(Added::Skipped);
                }
                if let Some(Value::Leaf { bound: true, .. }) = node.map(|n| &self.nodes[n].value) {
                    return Ok(Added::Skipped);
                }
            }
            fields.push((index, field));
            let last = i + 1 == segments.len();
            let prefix = || segments[..=i].join(".");
            match (field.cardinality, &field.kind) {
                (Cardinality::Map, _) => {
                    return Err(refuse(if last {
                        "names a map field, which parameters cannot set".into()
                    } else {
                        format!(
                            "goes through the map field `{}`, which parameters cannot set",
                            shown(&prefix())
                        )
                    }));
                }
                (Cardinality::Repeated, FieldKind::Message(_)) if last => {
                    return Err(refuse(
                        "names a repeated message field, which parameters cannot set".into(),
                    ));
                }
                (Cardinality::Repeated, _) if !last => {
                    return Err(refuse(format!(
                        "goes through the repeated field `{}`, whose elements' fields parameters cannot set",
                        shown(&prefix())
                    )));
                }
                (Cardinality::Repeated, _) if !query => {
                    return Err(refuse(
                        "names a repeated field; a path variable fills a singular field".into(),
                    ));
                }
                (Cardinality::Singular, FieldKind::Message(_)) if last => {
                    return Err(refuse(format!(
                        "names a message field; give its fields instead (`{}.<field>`)",
                        shown(&prefix())
                    )));
                }
                (_, FieldKind::Message(next)) => message = *next,
                (_, _) if !last => {
                    return Ok(Added::Unknown {
                        why: Some(format!("`{}` has no fields", shown(&prefix()))),
                    });
                }
                (_, _) => {}
            }
        }
        // Only a path without segments has no field: the root is a message.
        let Some((&(index, field), parents)) = fields.split_last() else {
            return Ok(Added::Unknown { why: None });
        };
        let json = scalar_json(&field.kind, value);
        let repeated = field.cardinality == Cardinality::Repeated;
        let Some(leaf) = node else {
            let mut parent = 0;
            for &(index, field) in parents {
                parent = match self.children.get(&(parent, index)) {
                    Some(&child) => child,
                    None => self.push(parent, index, field, Value::Object(Vec::new())),
                };
            }
            let leaf = Value::Leaf {
                repeated,
                bound: !query,
                items: vec![(json, origin)],
            };
            self.push(parent, index, field, leaf);
            return Ok(Added::Set);
        };
        let Value::Leaf { items, .. } = &mut self.nodes[leaf].value else {
            unreachable!("the node of a field that is not a message is a leaf");
        };
        if !repeated {
            let first = &items[0].1;
            let message = if *first == origin {
                format!("{origin} is given more than once, and its field is not repeated")
            } else {
                format!(
                    "{origin} sets the field `{}` that {first} sets, and it is not repeated",
                    shown(&segments.join("."))
                )
            };
            return Err(ParamError {
                message,
                parameter: Some(origin.name().to_owned()),
            });
        }
        items.push((json, origin));
        Ok(Added::Set)
    }

    /// Adds a node for the field `index` (`field`) of the object `parent`.
    fn push(&mut self, parent: usize, index: usize, field: &SchemaField, value: Value) -> usize {
        let node = self.nodes.len();
        self.nodes.push(Node {
            json_name: field.json_name.clone(),
            proto_name: field.name.clone(),
            value,
        });
        if let Value::Object(members) = &mut self.nodes[parent].value {
            members.push((index, node));
        }
        self.children.insert((parent, index), node);
        node
    }
}

/// The index of `msg`'s field named `name` (`.proto` or JSON name), by
/// the rule of [`SchemaMessage::field`].
fn field_index(msg: &SchemaMessage, name: &str) -> Option<usize> {
    msg.fields
        .iter()
        .position(|f| f.name == name || f.json_name == name)
}

/// The JSON of `text` as a value of a field of `kind` (not a message).
fn scalar_json(kind: &FieldKind, text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 2);
    push_scalar_json(&mut out, kind, text);
    out
}

/// Appends the JSON of `text` as a value of a field of `kind` (not a
/// message) to `out`: a bare `true` or `false` for a bool, a bare number
/// for an enum given as an `i32`, else a string.
fn push_scalar_json(out: &mut Vec<u8>, kind: &FieldKind, text: &str) {
    match kind {
        FieldKind::Bool if text == "true" || text == "false" => {
            out.extend_from_slice(text.as_bytes())
        }
        FieldKind::Enum { .. } => match text.parse::<i32>() {
            Ok(number) => out.extend_from_slice(number.to_string().as_bytes()),
            Err(_) => push_json_string(out, text),
        },
        _ => push_json_string(out, text),
    }
}

/// Appends `text` to `out` as a JSON string: quotes, backslashes and
/// control characters escaped, everything else as it is (UTF-8).
fn push_json_string(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    let mut rest = text.as_bytes();
    // The bytes to escape are ASCII: searched as bytes, no character is decoded.
    while let Some(at) = rest
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < b' ')
    {
        out.extend_from_slice(&rest[..at]);
        let c = rest[at];
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(c >> 4)]);
                out.push(HEX[usize::from(c & 0xf)]);
            }
        }
        rest = &rest[at + 1..];
    }
    out.extend_from_slice(rest);
    out.push(b'"');
}

/// Writes the node `node` of `nodes` to `out`. Recursion follows the
/// nodes' nesting, at most [`MAX_DEPTH`] deep.
fn write(nodes: &[Node], node: usize, out: &mut Vec<u8>) {
    match &nodes[node].value {
        Value::Object(members) => {
            out.push(b'{');
            for (n, &(_, child)) in members.iter().enumerate() {
                if n > 0 {
                    out.push(b',');
                }
                push_json_string(out, &nodes[child].json_name);
                out.push(b':');
                write(nodes, child, out);
            }
            out.push(b'}');
        }
        Value::Leaf {
            repeated, items, ..
        } => {
            if *repeated {
                out.push(b'[');
            }
            for (n, (json, _)) in items.iter().enumerate() {
                if n > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(json);
            }
            if *repeated {
                out.push(b']');
            }
        }
    }
}

/// The error of a field path deeper than [`MAX_DEPTH`].
fn too_deep(origin: Origin) -> ParamError {
    ParamError {
        message: format!("{origin} has more than {MAX_DEPTH} segments"),
        parameter: Some(origin.name().to_owned()),
    }
}

/// The `name=value` pairs of a query string, not yet decoded (a pair
/// without `=` has an empty value), empty pairs left out. Split by byte
/// searches: `&` and `=` are ASCII.
fn pairs(query: &str) -> impl Iterator<Item = (&str, &str)> {
    let find = |text: &str, byte: u8| text.bytes().position(|b| b == byte);
    let mut rest = Some(query);
    std::iter::from_fn(move || {
        loop {
            let text = rest?;
            let pair = match find(text, b'&') {
                Some(at) => {
                    rest = Some(&text[at + 1..]);
                    &text[..at]
                }
                None => {
                    rest = None;
                    text
                }
            };
            if !pair.is_empty() {
                return Some(match find(pair, b'=') {
                    Some(at) => (&pair[..at], &pair[at + 1..]),
                    None => (pair, ""),
                });
            }
        }
    })
}

/// `text` as `application/x-www-form-urlencoded` decodes it (`+` is a
/// space; a `%` not followed by two hex digits stays as it is), or `None`
/// when its escapes decode to bytes that are not UTF-8.
fn form_decode(text: &str) -> Option<Cow<'_, str>> {
    if !text.bytes().any(|b| b == b'+' || b == b'%') {
        return Some(Cow::Borrowed(text));
    }
    let bytes = text.as_bytes();
    let hex = |i: usize| bytes.get(i).and_then(|&b| char::from(b).to_digit(16));
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], hex(i + 1), hex(i + 2)) {
            (b'+', _, _) => out.push(b' '),
            (b'%', Some(high), Some(low)) => {
                out.push((high << 4 | low) as u8);
                i += 2;
            }
            (byte, _, _) => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8(out).ok().map(Cow::Owned)
}

/// `name`, cut after [`SHOWN`] characters, for an error message.
fn shown(name: &str) -> Cow<'_, str> {
    match name.char_indices().nth(SHOWN) {
        Some((at, _)) => format!("{}...", &name[..at]).into(),
        None => name.into(),
    }
}

#[cfg(test)]
mod tests;
