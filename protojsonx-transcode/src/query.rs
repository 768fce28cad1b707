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
        items: Vec<(String, Origin)>,
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
    pub fn build<P: AsRef<[String]>>(
        schema: &Schema,
        message: usize,
        variables: &[(P, String)],
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
            match builder.add(&segments, value, origin.clone())? {
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
        let pairs = query
            .unwrap_or_default()
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| pair.split_once('=').unwrap_or((pair, "")));
        for (count, (raw_name, raw_value)) in pairs.enumerate() {
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
fn scalar_json(kind: &FieldKind, text: &str) -> String {
    match kind {
        FieldKind::Bool if text == "true" || text == "false" => text.to_owned(),
        FieldKind::Enum { .. } => match text.parse::<i32>() {
            Ok(number) => number.to_string(),
            Err(_) => json_string(text),
        },
        _ => json_string(text),
    }
}

/// `text` as a JSON string.
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    push_json_string(&mut out, text);
    out
}

/// Appends `text` to `out` as a JSON string: quotes, backslashes and
/// control characters escaped, everything else as it is (UTF-8).
fn push_json_string(out: &mut String, text: &str) {
    out.push('"');
    let mut rest = text;
    // The bytes to escape are ASCII: searched as bytes, no character is decoded.
    while let Some(at) = rest
        .bytes()
        .position(|b| b == b'"' || b == b'\\' || b < b' ')
    {
        out.push_str(&rest[..at]);
        let c = rest.as_bytes()[at];
        match c {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(c >> 4)]));
                out.push(char::from(HEX[usize::from(c & 0xf)]));
            }
        }
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
    out.push('"');
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
                let mut key = String::new();
                push_json_string(&mut key, &nodes[child].json_name);
                out.extend_from_slice(key.as_bytes());
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
                out.extend_from_slice(json.as_bytes());
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

/// `text` as `application/x-www-form-urlencoded` decodes it (`+` is a
/// space; a `%` not followed by two hex digits stays as it is), or `None`
/// when its escapes decode to bytes that are not UTF-8.
fn form_decode(text: &str) -> Option<Cow<'_, str>> {
    if !text.contains(['+', '%']) {
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
mod tests {
    use super::*;

    /// A request without path variables.
    const NO_VARIABLES: &[(Vec<String>, String)] = &[];
    use crate::schema::SchemaField;

    fn field(name: &'static str, json_name: &'static str, kind: FieldKind) -> SchemaField {
        SchemaField {
            name: name.into(),
            json_name: json_name.into(),
            kind,
            cardinality: Cardinality::Singular,
        }
    }

    fn repeated(mut f: SchemaField) -> SchemaField {
        f.cardinality = Cardinality::Repeated;
        f
    }

    fn map(mut f: SchemaField) -> SchemaField {
        f.cardinality = Cardinality::Map;
        f
    }

    fn message(full_name: &'static str, fields: Vec<SchemaField>) -> SchemaMessage {
        SchemaMessage {
            full_name: full_name.into(),
            fields: fields.into(),
        }
    }

    const REQUEST: usize = 0;

    /// A request with every kind of field, a list, a map, nested messages
    /// and a recursive one.
    fn schema() -> Schema {
        let color = || FieldKind::Enum {
            default: Some("COLOR_UNSPECIFIED".into()),
        };
        Schema::new(vec![
            message(
                "test.Request",
                vec![
                    field("name", "name", FieldKind::Text),
                    field("page_size", "pageSize", FieldKind::Number),
                    field("big", "big", FieldKind::Int64),
                    field("flag", "flag", FieldKind::Bool),
                    field("color", "color", color()),
                    field("delay", "delay", FieldKind::WellKnown),
                    repeated(field("tags", "tags", FieldKind::Text)),
                    repeated(field("colors", "colors", color())),
                    map(field("labels", "labels", FieldKind::Text)),
                    field("shelf", "shelf", FieldKind::Message(1)),
                    repeated(field("books", "books", FieldKind::Message(2))),
                    field("node", "node", FieldKind::Message(3)),
                    repeated(field("flags", "flags", FieldKind::Bool)),
                    field("book", "book", FieldKind::Message(2)),
                    repeated(field("page_tokens", "pageTokens", FieldKind::Text)),
                ],
            ),
            message(
                "test.Shelf",
                vec![
                    field("name", "name", FieldKind::Text),
                    field("theme", "theme", FieldKind::Text),
                    field("book", "book", FieldKind::Message(2)),
                ],
            ),
            message(
                "test.Book",
                vec![
                    field("name", "name", FieldKind::Text),
                    field("shelf", "shelf", FieldKind::Text),
                    field("page_count", "pageCount", FieldKind::Number),
                ],
            ),
            message(
                "test.Node",
                vec![
                    field("value", "value", FieldKind::Text),
                    field("child", "child", FieldKind::Message(3)),
                    repeated(field("values", "values", FieldKind::Text)),
                ],
            ),
        ])
    }

    fn variables(vars: &[(&str, &str)]) -> Vec<(Vec<String>, String)> {
        vars.iter()
            .map(|(path, value)| {
                (
                    path.split('.').map(str::to_owned).collect(),
                    (*value).to_owned(),
                )
            })
            .collect()
    }

    fn build_with(
        vars: &[(&str, &str)],
        query: &str,
        body: &Body,
        unknown: UnknownParameters,
    ) -> Result<String, String> {
        Params::build(
            &schema(),
            REQUEST,
            &variables(vars),
            Some(query),
            body,
            unknown,
        )
        .map(|p| String::from_utf8(p.json().to_vec()).unwrap())
        .map_err(|e| e.to_string())
    }

    fn build(vars: &[(&str, &str)], query: &str) -> Result<String, String> {
        build_with(vars, query, &Body::None, UnknownParameters::Reject)
    }

    fn ok(query: &str) -> String {
        build(&[], query).unwrap()
    }

    fn err(query: &str) -> String {
        build(&[], query).unwrap_err()
    }

    #[test]
    fn each_kind_is_written_as_its_json() {
        assert_eq!(
            ok("name=a&page_size=10&big=-5&flag=true&color=RED&delay=1.5s"),
            r#"{"name":"a","pageSize":"10","big":"-5","flag":true,"color":"RED","delay":"1.5s"}"#
        );
        assert_eq!(
            ok("page_size=NaN&big=1e3&delay=2017-01-15T01:30:15Z"),
            r#"{"pageSize":"NaN","big":"1e3","delay":"2017-01-15T01:30:15Z"}"#
        );
    }

    #[test]
    fn bools_are_bare_only_when_exactly_true_or_false() {
        assert_eq!(ok("flag=false"), r#"{"flag":false}"#);
        assert_eq!(ok("flag=True"), r#"{"flag":"True"}"#);
        assert_eq!(ok("flag=1"), r#"{"flag":"1"}"#);
        assert_eq!(ok("flag="), r#"{"flag":""}"#);
    }

    #[test]
    fn enums_are_numbers_when_the_text_is_an_i32_else_names() {
        assert_eq!(ok("color=2"), r#"{"color":2}"#);
        assert_eq!(ok("color=-1"), r#"{"color":-1}"#);
        assert_eq!(ok("color=%2B3"), r#"{"color":3}"#);
        assert_eq!(ok("color=007"), r#"{"color":7}"#);
        assert_eq!(ok("color=2147483648"), r#"{"color":"2147483648"}"#);
        assert_eq!(ok("color=1.0"), r#"{"color":"1.0"}"#);
        assert_eq!(ok("color=BLUE"), r#"{"color":"BLUE"}"#);
    }

    #[test]
    fn each_occurrence_of_a_repeated_field_adds_an_element() {
        assert_eq!(
            ok("tags=a&colors=1&tags=b&colors=BLUE&flags=false&flags=x"),
            r#"{"tags":["a","b"],"colors":[1,"BLUE"],"flags":[false,"x"]}"#
        );
        assert_eq!(ok("tags="), r#"{"tags":[""]}"#);
    }

    #[test]
    fn names_are_proto_or_json_names_and_keys_are_json_names() {
        assert_eq!(ok("pageSize=1"), r#"{"pageSize":"1"}"#);
        assert_eq!(ok("page_size=1"), r#"{"pageSize":"1"}"#);
        assert_eq!(ok("book.pageCount=3"), r#"{"book":{"pageCount":"3"}}"#);
    }

    #[test]
    fn a_singular_field_given_twice_is_refused() {
        assert_eq!(
            err("name=a&name=b"),
            "query parameter `name` is given more than once, and its field is not repeated"
        );
        assert_eq!(
            err("page_size=1&pageSize=2"),
            "query parameter `pageSize` sets the field `pageSize` that query parameter `page_size` sets, and it is not repeated"
        );
        assert_eq!(
            build(&[("name", "a"), ("name", "b")], "").unwrap_err(),
            "path variable `name` is given more than once, and its field is not repeated"
        );
    }

    #[test]
    fn maps_messages_and_paths_through_lists_are_refused() {
        assert_eq!(
            err("labels=x"),
            "query parameter `labels` names a map field, which parameters cannot set"
        );
        assert_eq!(
            err("labels.k=v"),
            "query parameter `labels.k` goes through the map field `labels`, which parameters cannot set"
        );
        assert_eq!(
            err("shelf=x"),
            "query parameter `shelf` names a message field; give its fields instead (`shelf.<field>`)"
        );
        assert_eq!(
            err("shelf.book=x"),
            "query parameter `shelf.book` names a message field; give its fields instead (`shelf.book.<field>`)"
        );
        assert_eq!(
            err("books=x"),
            "query parameter `books` names a repeated message field, which parameters cannot set"
        );
        assert_eq!(
            err("books.name=x"),
            "query parameter `books.name` goes through the repeated field `books`, whose elements' fields parameters cannot set"
        );
        assert_eq!(
            err("tags.x=1"),
            "query parameter `tags.x` goes through the repeated field `tags`, whose elements' fields parameters cannot set"
        );
    }

    #[test]
    fn unknown_names_are_refused_or_ignored() {
        assert_eq!(err("pagesize=1"), "unknown query parameter `pagesize`");
        assert_eq!(err("shelf.nope=1"), "unknown query parameter `shelf.nope`");
        assert_eq!(
            err("name.first=1"),
            "unknown query parameter `name.first` (`name` has no fields)"
        );
        assert_eq!(err("=1"), "unknown query parameter ``");
        assert_eq!(
            err("shelf..name=1"),
            "unknown query parameter `shelf..name`"
        );
        let ignore = |query| build_with(&[], query, &Body::None, UnknownParameters::Ignore);
        // A parameter skipped leaves no empty object (which would set the field).
        assert_eq!(
            ignore("pagesize=1&name=a&shelf.nope=2&node.child.nope=3&name.first=3&=4").unwrap(),
            r#"{"name":"a"}"#
        );
        // Ignoring unknown names does not let through what breaks a rule.
        assert_eq!(
            ignore("labels=x").unwrap_err(),
            "query parameter `labels` names a map field, which parameters cannot set"
        );
    }

    #[test]
    fn an_empty_query_is_an_empty_object() {
        assert_eq!(ok(""), "{}");
        assert_eq!(ok("&&"), "{}");
        let params = Params::build(
            &schema(),
            REQUEST,
            NO_VARIABLES,
            None,
            &Body::None,
            UnknownParameters::Reject,
        )
        .unwrap();
        assert_eq!(params.json(), b"{}");
    }

    #[test]
    fn fields_bound_by_the_path_are_not_set_by_the_query() {
        assert_eq!(
            build(&[("name", "shelves/1")], "name=x&name.y=z&page_size=2").unwrap(),
            r#"{"name":"shelves/1","pageSize":"2"}"#
        );
        // The field is the same whichever name spells it.
        assert_eq!(
            build(&[("page_size", "1")], "pageSize=2").unwrap(),
            r#"{"pageSize":"1"}"#
        );
        assert_eq!(
            build(
                &[("shelf.name", "s1")],
                "shelf.theme=t&shelf.name=x&shelf.name=y"
            )
            .unwrap(),
            r#"{"shelf":{"name":"s1","theme":"t"}}"#
        );
    }

    #[test]
    fn the_bodys_field_is_not_set_by_the_query() {
        let field = Body::Field("shelf".into());
        assert_eq!(
            build_with(
                &[],
                "shelf.theme=x&shelf=y&shelf.nope=z&name=a",
                &field,
                UnknownParameters::Reject
            )
            .unwrap(),
            r#"{"name":"a"}"#
        );
        assert_eq!(
            build_with(
                &[("name", "n")],
                "name=a",
                &Body::Whole,
                UnknownParameters::Reject
            )
            .unwrap_err(),
            "unknown query parameter `name` (the request body sets every field)"
        );
        assert_eq!(
            build_with(
                &[("name", "n")],
                "name=a&tags=b",
                &Body::Whole,
                UnknownParameters::Ignore
            )
            .unwrap(),
            r#"{"name":"n"}"#
        );
    }

    #[test]
    fn path_variables_are_typed_and_share_their_parents() {
        assert_eq!(
            build(
                &[
                    ("book.name", "b"),
                    ("page_size", "7"),
                    ("book.shelf", "s"),
                    ("flag", "true"),
                    ("color", "3")
                ],
                "book.pageCount=9"
            )
            .unwrap(),
            r#"{"pageSize":"7","flag":true,"color":3,"book":{"name":"b","shelf":"s","pageCount":"9"}}"#
        );
    }

    #[test]
    fn path_variables_that_fill_no_singular_field_are_refused() {
        let refused = |path: &str| build(&[(path, "v")], "").unwrap_err();
        assert_eq!(
            refused("nope"),
            "path variable `nope` names no field of `test.Request`"
        );
        assert_eq!(
            refused("name.x"),
            "path variable `name.x` names no field of `test.Request` (`name` has no fields)"
        );
        assert_eq!(
            refused("tags"),
            "path variable `tags` names a repeated field; a path variable fills a singular field"
        );
        assert_eq!(
            refused("shelf"),
            "path variable `shelf` names a message field; give its fields instead (`shelf.<field>`)"
        );
    }

    #[test]
    fn members_of_one_message_share_one_object_whatever_the_order() {
        let expected =
            r#"{"name":"n","tags":["1","2"],"shelf":{"name":"s","theme":"t","book":{"name":"b"}}}"#;
        for query in [
            "shelf.theme=t&name=n&shelf.name=s&tags=1&shelf.book.name=b&tags=2",
            "tags=1&shelf.book.name=b&shelf.name=s&tags=2&name=n&shelf.theme=t",
            "shelf.book.name=b&tags=1&tags=2&shelf.theme=t&shelf.name=s&name=n",
        ] {
            assert_eq!(ok(query), expected, "{query}");
        }
    }

    #[test]
    fn the_query_is_form_urlencoded() {
        assert_eq!(ok("name=a+b%20c%2B%26%3D%25"), r#"{"name":"a b c+&=%"}"#);
        assert_eq!(ok("page%5Fsize=1"), r#"{"pageSize":"1"}"#);
        assert_eq!(ok("shelf%2Ename=x"), r#"{"shelf":{"name":"x"}}"#);
        // Malformed escapes stay as written.
        assert_eq!(ok("name=%zz%4"), r#"{"name":"%zz%4"}"#);
        assert_eq!(ok("name"), r#"{"name":""}"#);
        assert_eq!(ok("name=a=b"), r#"{"name":"a=b"}"#);
    }

    #[test]
    fn unicode_is_kept_and_bad_utf8_refused() {
        assert_eq!(
            ok("name=%C3%A9%E2%82%AC%F0%9F%98%80&tags=日本"),
            "{\"name\":\"é€😀\",\"tags\":[\"日本\"]}"
        );
        assert_eq!(ok("name=%EF%BF%BD"), "{\"name\":\"\u{fffd}\"}");
        assert_eq!(
            err("name=%FF"),
            "query parameter `name` is not UTF-8 once decoded"
        );
        assert_eq!(
            err("tags=a&na%C3me=x"),
            "query parameter `na%C3me` is not UTF-8 once decoded"
        );
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(
            ok("name=%22%5C%0A%0D%09%01%1F%7F/%E2%80%A8"),
            "{\"name\":\"\\\"\\\\\\n\\r\\t\\u0001\\u001f\u{7f}/\u{2028}\"}"
        );
        let json = build(&[("name", "\"}\u{0}")], "").unwrap();
        assert_eq!(json, r#"{"name":"\"}\u0000"}"#);
    }

    #[test]
    fn names_deeper_than_the_limit_are_refused() {
        let path = |depth: usize| {
            let mut name = "node".to_owned();
            for _ in 2..depth {
                name.push_str(".child");
            }
            name.push_str(".value");
            name
        };
        let deepest = ok(&format!("{}=x", path(MAX_DEPTH)));
        let value: serde_json::Value = serde_json::from_str(&deepest).unwrap();
        let mut at = &value["node"];
        for _ in 2..MAX_DEPTH {
            at = &at["child"];
        }
        assert_eq!(at["value"], "x");

        let too_deep = path(MAX_DEPTH + 1);
        let error = Params::build(
            &schema(),
            REQUEST,
            NO_VARIABLES,
            Some(&format!("{too_deep}=x")),
            &Body::None,
            UnknownParameters::Ignore,
        )
        .unwrap_err();
        assert_eq!(error.parameter(), Some(too_deep.as_str()));
        assert_eq!(
            error.to_string(),
            format!(
                "query parameter `{}...` has more than 64 segments",
                &too_deep[..100]
            )
        );
        // A name of dots alone is refused before it is split further.
        let dots = ".".repeat(100_000);
        assert!(err(&dots).ends_with("has more than 64 segments"));
        assert!(
            build(&[(path(MAX_DEPTH + 1).as_str(), "x")], "")
                .unwrap_err()
                .ends_with("has more than 64 segments")
        );
    }

    #[test]
    fn more_parameters_than_the_limit_are_refused() {
        let query = |n: usize| vec!["tags=x"; n].join("&");
        let json = ok(&query(MAX_PARAMETERS));
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["tags"].as_array().unwrap().len(), MAX_PARAMETERS);
        let error = Params::build(
            &schema(),
            REQUEST,
            NO_VARIABLES,
            Some(&query(MAX_PARAMETERS + 1)),
            &Body::None,
            UnknownParameters::Ignore,
        )
        .unwrap_err();
        assert_eq!(error.to_string(), "more than 1024 query parameters");
        assert_eq!(error.parameter(), None);
    }

    #[test]
    fn the_most_parameters_at_the_deepest_path_build() {
        // Each parameter resolves the most segments there may be.
        let mut name = "node".to_owned();
        for _ in 2..MAX_DEPTH {
            name.push_str(".child");
        }
        name.push_str(".values");
        let query = vec![format!("{name}=v"); MAX_PARAMETERS].join("&");
        let json = ok(&query);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let mut at = &value["node"];
        for _ in 2..MAX_DEPTH {
            at = &at["child"];
        }
        assert_eq!(at["values"].as_array().unwrap().len(), MAX_PARAMETERS);
    }

    #[test]
    fn error_messages_cut_long_names() {
        let name = "x".repeat(10_000);
        assert_eq!(
            err(&format!("{name}=1")),
            format!("unknown query parameter `{}...`", &name[..100])
        );
    }

    #[test]
    fn check_variable_accepts_singular_scalars_through_singular_messages() {
        let schema = schema();
        let check = |path: &str| {
            let path: Vec<String> = path.split('.').map(str::to_owned).collect();
            check_variable(&schema, REQUEST, &path)
        };
        for path in [
            "name",
            "pageSize",
            "color",
            "delay",
            "shelf.book.page_count",
            "node.child.value",
        ] {
            assert_eq!(check(path), Ok(()), "{path}");
        }
        let refused = |path: &str| check(path).unwrap_err();
        assert_eq!(
            refused("nope"),
            "the path variable `nope` names no field: `test.Request` has no field `nope`"
        );
        assert_eq!(
            refused("shelf.nope"),
            "the path variable `shelf.nope` names no field: `test.Shelf` has no field `nope`"
        );
        assert_eq!(
            refused("name.x"),
            "the path variable `name.x` names no field: `name` is not a message"
        );
        assert_eq!(
            refused("shelf"),
            "the path variable `shelf` names a message field; it must name one of its fields"
        );
        assert_eq!(
            refused("tags"),
            "the path variable `tags` names a repeated field (`tags`); a path variable fills a singular field"
        );
        assert_eq!(
            refused("books.name"),
            "the path variable `books.name` names a repeated field (`books`); a path variable fills a singular field"
        );
        assert_eq!(
            refused("labels"),
            "the path variable `labels` names a map field (`labels`); a path variable fills a singular field"
        );
        assert_eq!(
            check_variable(&schema, REQUEST, &[]).unwrap_err(),
            "a path variable names no field"
        );
        let deep = vec!["node".to_owned(); MAX_DEPTH + 1];
        assert!(
            check_variable(&schema, REQUEST, &deep)
                .unwrap_err()
                .ends_with(&format!("has more than {MAX_DEPTH} segments"))
        );
    }

    /// A decoding error with `path` (outermost first), of any message: the
    /// runtime makes errors only while decoding.
    fn error_at(path: &[PathSegment]) -> Error {
        let mut error =
            protojsonx_runtime::from_slice::<crate::types::rpc::ErrorInfo>(b"x").unwrap_err();
        for segment in path.iter().rev() {
            error = match segment {
                PathSegment::Field(key) => error.in_field(key.as_bytes()),
                PathSegment::Index(i) => error.in_index(*i),
                PathSegment::Key(key) => error.in_key(key),
            };
        }
        error
    }

    #[test]
    fn describe_names_the_parameter_of_the_value_at_the_errors_path() {
        let params = Params::build(
            &schema(),
            REQUEST,
            &variables(&[("shelf.name", "s")]),
            Some("page_tokens=a&pageTokens=b&book.name=x&book.shelf=y&name=n"),
            &Body::None,
            UnknownParameters::Reject,
        )
        .unwrap();
        let field = |name: &str| PathSegment::Field(name.into());
        let describe = |path: &[PathSegment]| {
            let error = error_at(path);
            let text = params.describe(&error);
            let message = error.message();
            text.strip_suffix(message)
                .unwrap_or_else(|| panic!("{text}"))
                .to_owned()
        };
        assert_eq!(
            describe(&[field("name")]),
            "invalid query parameter `name`: "
        );
        assert_eq!(
            describe(&[field("pageTokens"), PathSegment::Index(0)]),
            "invalid query parameter `page_tokens`: "
        );
        assert_eq!(
            describe(&[field("pageTokens"), PathSegment::Index(1)]),
            "invalid query parameter `pageTokens`: "
        );
        // A decoder spelling keys as `.proto` names is understood too.
        assert_eq!(
            describe(&[field("page_tokens"), PathSegment::Index(1)]),
            "invalid query parameter `pageTokens`: "
        );
        assert_eq!(
            describe(&[field("shelf"), field("name")]),
            "invalid path variable `shelf.name`: "
        );
        // An object given by one parameter is that parameter's.
        assert_eq!(
            describe(&[field("shelf")]),
            "invalid path variable `shelf.name`: "
        );
        // Else the error is about no one parameter: its path is told.
        let error = error_at(&[]);
        assert_eq!(
            params.describe(&error),
            format!("invalid request parameters: {}", error.message())
        );
        let error = error_at(&[field("book")]);
        assert_eq!(
            params.describe(&error),
            format!("invalid request parameters: {} at `book`", error.message())
        );
        let error = error_at(&[field("book"), field("pages")]);
        assert_eq!(
            params.describe(&error),
            format!(
                "invalid request parameters: {} at `book.pages`",
                error.message()
            )
        );
        let error = error_at(&[field("pageTokens"), PathSegment::Index(2)]);
        assert_eq!(
            params.describe(&error),
            format!(
                "invalid request parameters: {} at `pageTokens[2]`",
                error.message()
            )
        );
        assert!(!params.describe(&error).contains("line"));
    }

    /// The documents decoded by generated messages (the crate's
    /// checked-in `google.rpc` and `google.api` types), with a schema
    /// written to match them.
    mod decoding {
        use protojsonx_runtime::DecodeOptions;

        use super::*;
        use crate::types::api::{Http, HttpRule, http_rule::Pattern};
        use crate::types::rpc::{ErrorInfo, RetryInfo, bad_request, quota_failure};

        const ERROR_INFO: usize = 0;
        const RETRY_INFO: usize = 1;
        const VIOLATION: usize = 2;
        const FIELD_VIOLATION: usize = 3;
        const HTTP_RULE: usize = 5;
        const HTTP: usize = 7;

        fn schema() -> Schema {
            let text = |name, json| field(name, json, FieldKind::Text);
            Schema::new(vec![
                message(
                    "google.rpc.ErrorInfo",
                    vec![
                        text("reason", "reason"),
                        text("domain", "domain"),
                        map(text("metadata", "metadata")),
                    ],
                ),
                message(
                    "google.rpc.RetryInfo",
                    vec![field("retry_delay", "retryDelay", FieldKind::WellKnown)],
                ),
                message(
                    "google.rpc.QuotaFailure.Violation",
                    vec![
                        text("subject", "subject"),
                        text("description", "description"),
                        text("api_service", "apiService"),
                        text("quota_metric", "quotaMetric"),
                        text("quota_id", "quotaId"),
                        map(text("quota_dimensions", "quotaDimensions")),
                        field("quota_value", "quotaValue", FieldKind::Int64),
                        field("future_quota_value", "futureQuotaValue", FieldKind::Int64),
                    ],
                ),
                message(
                    "google.rpc.BadRequest.FieldViolation",
                    vec![
                        text("field", "field"),
                        text("description", "description"),
                        text("reason", "reason"),
                        field(
                            "localized_message",
                            "localizedMessage",
                            FieldKind::Message(4),
                        ),
                    ],
                ),
                message(
                    "google.rpc.LocalizedMessage",
                    vec![text("locale", "locale"), text("message", "message")],
                ),
                message(
                    "google.api.HttpRule",
                    vec![
                        text("selector", "selector"),
                        text("get", "get"),
                        text("put", "put"),
                        text("post", "post"),
                        text("delete", "delete"),
                        text("patch", "patch"),
                        text("body", "body"),
                        field("custom", "custom", FieldKind::Message(6)),
                        text("response_body", "responseBody"),
                        repeated(field(
                            "additional_bindings",
                            "additionalBindings",
                            FieldKind::Message(HTTP_RULE),
                        )),
                    ],
                ),
                message(
                    "google.api.CustomHttpPattern",
                    vec![text("kind", "kind"), text("path", "path")],
                ),
                message(
                    "google.api.Http",
                    vec![
                        repeated(field("rules", "rules", FieldKind::Message(HTTP_RULE))),
                        field(
                            "fully_decode_reserved_expansion",
                            "fullyDecodeReservedExpansion",
                            FieldKind::Bool,
                        ),
                    ],
                ),
            ])
        }

        fn params(message: usize, vars: &[(&str, &str)], query: &str) -> Params {
            Params::build(
                &schema(),
                message,
                &variables(vars),
                Some(query),
                &Body::None,
                UnknownParameters::Reject,
            )
            .unwrap()
        }

        /// Merges `params` into `msg`, and describes the error if any.
        fn merge<M: protojsonx_runtime::ProtoJson>(
            msg: &mut M,
            params: &Params,
        ) -> Result<(), String> {
            DecodeOptions::new()
                .merge(msg, params.json())
                .map_err(|e| params.describe(&e))
        }

        #[test]
        fn the_document_merges_after_the_body() {
            let mut info: ErrorInfo = DecodeOptions::new()
                .from_str(r#"{"reason":"r","metadata":{"k":"v"}}"#)
                .unwrap();
            let params = params(
                ERROR_INFO,
                &[("domain", "example.com")],
                "reason=overridden",
            );
            merge(&mut info, &params).unwrap();
            assert_eq!(info.reason, "overridden");
            assert_eq!(info.domain, "example.com");
            assert_eq!(info.metadata.get("k").map(String::as_str), Some("v"));
        }

        #[test]
        fn values_of_every_kind_decode() {
            let mut violation = quota_failure::Violation::default();
            let params = params(
                VIOLATION,
                &[("subject", "projects/1")],
                "quotaValue=-12&future_quota_value=9007199254740993&api_service=a+b",
            );
            merge(&mut violation, &params).unwrap();
            assert_eq!(violation.subject, "projects/1");
            assert_eq!(violation.quota_value, -12);
            assert_eq!(violation.future_quota_value, Some(9_007_199_254_740_993));
            assert_eq!(violation.api_service, "a b");

            let mut retry = RetryInfo::default();
            merge(
                &mut retry,
                &Params::build(
                    &schema(),
                    RETRY_INFO,
                    &variables(&[("retry_delay", "1.5s")]),
                    None,
                    &Body::None,
                    UnknownParameters::Reject,
                )
                .unwrap(),
            )
            .unwrap();
            let delay = retry.retry_delay.unwrap();
            assert_eq!((delay.seconds, delay.nanos), (1, 500_000_000));

            let mut http = Http::default();
            merge(
                &mut http,
                &params_of(HTTP, "fullyDecodeReservedExpansion=true"),
            )
            .unwrap();
            assert!(http.fully_decode_reserved_expansion);

            let mut violation = bad_request::FieldViolation::default();
            merge(
                &mut violation,
                &params_of(
                    FIELD_VIOLATION,
                    "localized_message.locale=fr&localizedMessage.message=%C3%A9t%C3%A9&field=x",
                ),
            )
            .unwrap();
            let localized = violation.localized_message.unwrap();
            assert_eq!(
                (localized.locale.as_str(), localized.message.as_str()),
                ("fr", "été")
            );
            assert_eq!(violation.field, "x");
        }

        fn params_of(message: usize, query: &str) -> Params {
            params(message, &[], query)
        }

        #[test]
        fn a_bad_value_is_described_by_the_name_the_client_wrote() {
            let mut violation = quota_failure::Violation::default();
            let error = merge(
                &mut violation,
                &params_of(VIOLATION, "subject=s&quota_value=abc"),
            )
            .unwrap_err();
            assert_eq!(
                error,
                "invalid query parameter `quota_value`: invalid value for int64: invalid number"
            );
            assert!(!error.contains("line"), "{error}");
            let error = merge(&mut violation, &params_of(VIOLATION, "quotaValue=1.5")).unwrap_err();
            assert_eq!(
                error,
                "invalid query parameter `quotaValue`: invalid value for int64: number has a fractional part"
            );

            let mut retry = RetryInfo::default();
            let error = merge(
                &mut retry,
                &params(RETRY_INFO, &[("retry_delay", "soon")], ""),
            )
            .unwrap_err();
            assert_eq!(
                error,
                "invalid path variable `retry_delay`: invalid value for google.protobuf.Duration: expected seconds with the suffix 's', like \"1.5s\" or \"-0.001s\""
            );

            let mut http = Http::default();
            let error = merge(
                &mut http,
                &params_of(HTTP, "fully_decode_reserved_expansion=yes"),
            )
            .unwrap_err();
            assert_eq!(
                error,
                "invalid query parameter `fully_decode_reserved_expansion`: expected bool, found string"
            );

            let mut violation = bad_request::FieldViolation::default();
            let error = merge(
                &mut violation,
                &params_of(
                    FIELD_VIOLATION,
                    "field=f&localizedMessage.locale=%EF%BF%BD%00",
                ),
            );
            // A string with a replacement character and NUL is a valid string.
            assert_eq!(error, Ok(()));
            assert_eq!(violation.localized_message.unwrap().locale, "\u{fffd}\0");
        }

        #[test]
        fn a_conflict_between_parameters_is_described() {
            let mut rule = HttpRule::default();
            let params = params_of(HTTP_RULE, "get=/a&put=/b");
            let error = merge(&mut rule, &params).unwrap_err();
            assert_eq!(
                error,
                "invalid query parameter `put`: more than one field of oneof `pattern` is set"
            );

            let mut rule = HttpRule::default();
            merge(
                &mut rule,
                &params_of(HTTP_RULE, "custom.kind=HEAD&custom.path=/x&selector=a.B"),
            )
            .unwrap();
            let Some(Pattern::Custom(custom)) = rule.pattern else {
                panic!("{rule:?}");
            };
            assert_eq!((custom.kind.as_str(), custom.path.as_str()), ("HEAD", "/x"));
        }

        #[test]
        fn maps_and_lists_of_messages_of_generated_types_are_refused() {
            let refused = |message, query: &str| {
                Params::build(
                    &schema(),
                    message,
                    NO_VARIABLES,
                    Some(query),
                    &Body::None,
                    UnknownParameters::Reject,
                )
                .unwrap_err()
                .to_string()
            };
            assert_eq!(
                refused(ERROR_INFO, "metadata.k=v"),
                "query parameter `metadata.k` goes through the map field `metadata`, which parameters cannot set"
            );
            assert_eq!(
                refused(HTTP_RULE, "additionalBindings.get=/x"),
                "query parameter `additionalBindings.get` goes through the repeated field `additionalBindings`, whose elements' fields parameters cannot set"
            );
        }
    }

    mod properties {
        use proptest::prelude::*;

        use super::*;

        /// Pieces query strings are made of: names of every kind of field,
        /// separators, escapes (good and bad) and odd characters.
        fn piece() -> impl Strategy<Value = String> {
            prop_oneof![
                Just("name".to_owned()),
                Just("pageSize".to_owned()),
                Just("color".to_owned()),
                Just("flag".to_owned()),
                Just("tags".to_owned()),
                Just("labels".to_owned()),
                Just("shelf".to_owned()),
                Just("books".to_owned()),
                Just("node".to_owned()),
                Just("child".to_owned()),
                Just("book".to_owned()),
                Just(".".to_owned()),
                Just("=".to_owned()),
                Just("&".to_owned()),
                Just("+".to_owned()),
                Just("%".to_owned()),
                Just("%22".to_owned()),
                Just("%5C".to_owned()),
                Just("%00".to_owned()),
                Just("%FF".to_owned()),
                Just("%C3%A9".to_owned()),
                Just("true".to_owned()),
                Just("-1".to_owned()),
                "[\\PC\u{0}-\u{1f}]{0,3}",
            ]
        }

        fn query() -> impl Strategy<Value = String> {
            prop::collection::vec(piece(), 0..40).prop_map(|pieces| pieces.concat())
        }

        proptest! {
            #[test]
            fn any_query_builds_valid_json_or_an_error(
                query in query(),
                bound in prop::sample::select(vec!["", "name", "shelf.name", "node.child.value"]),
                body in prop::sample::select(vec![0, 1, 2]),
                ignore in any::<bool>(),
            ) {
                let vars = if bound.is_empty() { vec![] } else { vec![(bound, "v")] };
                let body = match body {
                    0 => Body::None,
                    1 => Body::Whole,
                    _ => Body::Field("shelf".into()),
                };
                let unknown = if ignore { UnknownParameters::Ignore } else { UnknownParameters::Reject };
                if let Ok(json) = build_with(&vars, &query, &body, unknown) {
                    prop_assert!(serde_json::from_str::<serde_json::Value>(&json).is_ok(), "{json}");
                }
            }

            #[test]
            fn arbitrary_text_builds_valid_json_or_an_error(query in "\\PC*") {
                if let Ok(json) = build(&[], &query) {
                    prop_assert!(serde_json::from_str::<serde_json::Value>(&json).is_ok(), "{json}");
                }
            }

            #[test]
            fn any_value_comes_back_as_written(value in any::<String>()) {
                let query: String = form_urlencoded::Serializer::new(String::new())
                    .append_pair("name", &value)
                    .append_pair("tags", &value)
                    .finish();
                let json = ok(&query);
                let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
                prop_assert_eq!(parsed["name"].as_str(), Some(value.as_str()));
                prop_assert_eq!(parsed["tags"][0].as_str(), Some(value.as_str()));
                let json = build(&[("name", &value)], "").unwrap();
                let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
                prop_assert_eq!(parsed["name"].as_str(), Some(value.as_str()));
            }
        }
    }
}
