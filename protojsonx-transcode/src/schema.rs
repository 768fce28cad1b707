//! What transcoding needs to know of a request or response message beyond
//! its ProtoJSON code: each field's names and the JSON form of its values,
//! to turn a path variable or a query parameter (`shelf.theme=x`) into the
//! JSON member the message's own decoder reads, and to write the default of
//! a `response_body` field the answer leaves out.
//!
//! One [`Schema`] holds every message reachable from a service's requests
//! and responses, referring to each other by index. Generated routes carry
//! theirs as `static` tables (every `Cow` borrowed); the gateway builds one
//! from the descriptors it loads (every `Cow` owned). Both paths then share
//! one implementation of everything built on it.

use std::borrow::Cow;

/// The messages of a service, each one's fields, by index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schema {
    messages: Cow<'static, [SchemaMessage]>,
}

/// One message of a [`Schema`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaMessage {
    /// The message's full protobuf name (`google.example.library.v1.Book`).
    pub full_name: Cow<'static, str>,
    /// Its fields, in declaration order.
    pub fields: Cow<'static, [SchemaField]>,
}

/// One field of a [`SchemaMessage`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaField {
    /// The field's name in the `.proto` file (`page_size`).
    pub name: Cow<'static, str>,
    /// Its JSON name (`pageSize`).
    pub json_name: Cow<'static, str>,
    /// The JSON form of its values.
    pub kind: FieldKind,
    /// Whether it holds one value, a list or a map.
    pub cardinality: Cardinality,
}

/// The JSON form of a field's values, as far as transcoding tells them apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldKind {
    /// `bool` and `google.protobuf.BoolValue`: JSON `true` or `false`.
    Bool,
    /// An enum: a name as a JSON string, or a number. `default` is its
    /// first value (its default), or `None` for `google.protobuf.NullValue`.
    Enum {
        /// The enum's default value.
        default: Option<EnumDefault>,
    },
    /// `int32`, `uint32`, their fixed and zigzag forms, `float` and `double`:
    /// a JSON number, read from a string too (`"NaN"`, `"1e3"`).
    Number,
    /// The 64-bit integers, written as JSON strings.
    Int64,
    /// `string` and `bytes` (base64): JSON strings.
    Text,
    /// A well-known type whose JSON is a string or a number (`Timestamp`,
    /// `Duration`, `FieldMask`, the wrappers but `BoolValue`): its text is the
    /// JSON string.
    WellKnown,
    /// Any other message, by its index in the [`Schema`].
    Message(usize),
}

/// The default value of an enum: its first value, by name and number (the
/// number is not 0 in a closed enum whose first value is not).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumDefault {
    /// The value's name.
    pub name: Cow<'static, str>,
    /// The value's number.
    pub number: i32,
}

/// How many values a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cardinality {
    /// One value (with or without presence).
    Singular,
    /// A repeated field: a JSON array.
    Repeated,
    /// A map field: a JSON object.
    Map,
}

impl Schema {
    /// A schema of `messages`; `FieldKind::Message` indices point into it.
    ///
    /// # Panics
    ///
    /// If a field refers to a message index outside `messages`: the tables
    /// of generated routes and the gateway's never do.
    pub fn new(messages: impl Into<Cow<'static, [SchemaMessage]>>) -> Schema {
        let messages = messages.into();
        let len = messages.len();
        for field in messages.iter().flat_map(|m| m.fields.iter()) {
            if let FieldKind::Message(index) = field.kind {
                assert!(
                    index < len,
                    "field `{}` refers to message {index} of {len}",
                    field.name
                );
            }
        }
        Schema { messages }
    }

    /// The message at `index`.
    pub fn message(&self, index: usize) -> &SchemaMessage {
        &self.messages[index]
    }

    /// The index of the message named `full_name`.
    pub fn index_of(&self, full_name: &str) -> Option<usize> {
        self.messages.iter().position(|m| m.full_name == full_name)
    }
}

impl SchemaMessage {
    /// The field named `name`, by its `.proto` name or its JSON name, as
    /// query parameters and ProtoJSON accept either.
    pub fn field(&self, name: &str) -> Option<&SchemaField> {
        self.fields
            .iter()
            .find(|f| f.name == name || f.json_name == name)
    }
}

impl SchemaField {
    /// The JSON of the field's value when the message leaves it out, as a
    /// `response_body` naming it answers: `[]`, `{}`, the type's zero, the
    /// enum's first value (by number when `enums_as_ints`, as the encoder
    /// writes enums then), or `null` for a well-known type.
    pub fn default_json(&self, enums_as_ints: bool) -> Cow<'static, str> {
        match self.cardinality {
            Cardinality::Repeated => return "[]".into(),
            Cardinality::Map => return "{}".into(),
            Cardinality::Singular => {}
        }
        match &self.kind {
            FieldKind::Bool => "false".into(),
            FieldKind::Enum {
                default: Some(default),
            } if enums_as_ints => default.number.to_string().into(),
            FieldKind::Enum {
                default: Some(default),
            } => format!("\"{}\"", default.name).into(),
            FieldKind::Enum { default: None } | FieldKind::WellKnown => "null".into(),
            FieldKind::Number => "0".into(),
            FieldKind::Int64 => "\"0\"".into(),
            FieldKind::Text => "\"\"".into(),
            FieldKind::Message(_) => "{}".into(),
        }
    }
}

/// The kind of a well-known message whose JSON is not an object of its
/// fields and can be written from one query parameter: `Timestamp`,
/// `Duration`, `FieldMask`, the wrappers (`BoolValue` a [`FieldKind::Bool`])
/// and `Value`. `None` for every other message.
pub fn well_known(full_name: &str) -> Option<FieldKind> {
    let name = full_name.strip_prefix("google.protobuf.")?;
    match name {
        "BoolValue" => Some(FieldKind::Bool),
        "Timestamp" | "Duration" | "FieldMask" | "DoubleValue" | "FloatValue" | "Int64Value"
        | "UInt64Value" | "Int32Value" | "UInt32Value" | "StringValue" | "BytesValue" | "Value" => {
            Some(FieldKind::WellKnown)
        }
        _ => None,
    }
}
