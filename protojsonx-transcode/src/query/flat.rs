//! The document of a request whose path variables and query parameters each
//! name, by one segment, a top-level field that is not a message: the
//! common case (`/v1/shelves/1/items/42?view=FULL`), written straight into
//! the document. [`Params::build`](super::Params::build)'s tree of nodes,
//! which can explain any error, costs a few allocations per value; here the
//! values are read once, sorted by field and written. Anything else (a
//! dotted name, an unknown one, a field given twice, more than a few values)
//! is left to the general builder, whose document this must equal: the
//! property tests check it on every input they make.

use std::borrow::Cow;

use super::{field_index, form_decode, pairs, push_json_string, push_scalar_json};
use crate::rule::Body;
use crate::schema::{Cardinality, FieldKind, SchemaField, SchemaMessage};

/// The most values the direct path takes; kept on the stack.
const MOST: usize = 8;

/// The document of `message` made of `variables` and `query`, or `None`
/// when the request is not one this path takes.
pub(super) fn document<P: AsRef<[String]>, V: AsRef<str>>(
    message: &SchemaMessage,
    variables: &[(P, V)],
    query: Option<&str>,
    body: &Body,
) -> Option<Vec<u8>> {
    let mut values = Values::default();
    for (path, value) in variables {
        let [name] = path.as_ref() else { return None };
        let index = scalar_field(message, name)?;
        if message.fields[index].cardinality != Cardinality::Singular {
            return None;
        }
        values.push(index, Cow::Borrowed(value.as_ref()))?;
    }
    for (name, value) in pairs(query.unwrap_or_default()) {
        let name = form_decode(name)?;
        let index = scalar_field(message, &name)?;
        let set_by_body = match body {
            Body::None => false,
            Body::Whole => true,
            Body::Field(body) => *message.fields[index].name == **body,
        };
        if set_by_body {
            return None;
        }
        values.push(index, form_decode(value)?)?;
    }
    values.write(message)
}

/// The index of the field of `message` that `name` names, if it is a
/// scalar, enum or well-known field (repeated or not) named by one segment.
fn scalar_field(message: &SchemaMessage, name: &str) -> Option<usize> {
    let index = field_index(message, name)?;
    let field = &message.fields[index];
    let scalar =
        field.cardinality != Cardinality::Map && !matches!(field.kind, FieldKind::Message(_));
    scalar.then_some(index)
}

/// The values taken so far, each with its field's index.
#[derive(Default)]
struct Values<'a> {
    values: [(usize, Cow<'a, str>); MOST],
    len: usize,
}

impl<'a> Values<'a> {
    /// Adds a value of the field `index`; `None` when there are too many.
    fn push(&mut self, index: usize, value: Cow<'a, str>) -> Option<()> {
        *self.values.get_mut(self.len)? = (index, value);
        self.len += 1;
        Some(())
    }

    /// The document: the values in the fields' declaration order (a stable
    /// sort keeps a repeated field's in the order given), a repeated
    /// field's as one array; `None` when a singular field has two values.
    fn write(mut self, message: &SchemaMessage) -> Option<Vec<u8>> {
        let values = &mut self.values[..self.len];
        values.sort_by_key(|&(index, _)| index);
        let field = |index: usize| &message.fields[index];
        let twice = values
            .windows(2)
            .any(|w| w[0].0 == w[1].0 && field(w[0].0).cardinality == Cardinality::Singular);
        if twice {
            return None;
        }
        let size: usize = values
            .iter()
            .map(|(index, value)| field(*index).json_name.len() + value.len() + 6)
            .sum();
        let mut out = Vec::with_capacity(size + 2);
        out.push(b'{');
        for (n, group) in values.chunk_by(|a, b| a.0 == b.0).enumerate() {
            if n > 0 {
                out.push(b',');
            }
            write_member(&mut out, field(group[0].0), group);
        }
        out.push(b'}');
        Some(out)
    }
}

/// Writes `"key":value` of `field`, its values `group` (one unless it is repeated).
fn write_member(out: &mut Vec<u8>, field: &SchemaField, group: &[(usize, Cow<'_, str>)]) {
    push_json_string(out, &field.json_name);
    out.push(b':');
    let repeated = field.cardinality == Cardinality::Repeated;
    if repeated {
        out.push(b'[');
    }
    for (n, (_, value)) in group.iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        push_scalar_json(out, &field.kind, value);
    }
    if repeated {
        out.push(b']');
    }
}
