//! The well-known types with a special JSON form. `Any` is transcoded here
//! (its packed message resolves through the pool, see `to_json` and
//! `from_json`). `Struct`, `ListValue`, `Value` and the wrappers are
//! transcoded from their fields, as the JSON their one field (or oneof)
//! holds ([`Shape`]): they hold a payload's arbitrary JSON and strings,
//! which their prost-types structs would allocate for. The others
//! (Timestamp, Duration, FieldMask, Empty) go through their prost-types
//! structs and the runtime's own code for them; they are small. Either way
//! their JSON is the generated path's byte for byte.

use prost::Message;
use prost_types::{Duration, FieldMask, ListValue, Struct, Timestamp, Value};
use protojsonx_runtime::__dynamic::{Decoder, Encoder};
use protojsonx_runtime::{Error, ProtoJson};

use crate::table::{Card, Field, Kind};

/// A message type whose JSON is not the object of its fields.
#[derive(Clone, Copy)]
pub(crate) enum Special {
    /// `google.protobuf.Any`.
    Any,
    /// Another well-known type.
    Wkt(Codec),
}

/// How the binary of a well-known type is written as JSON.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Through its prost-types struct ([`Codec::write`]).
    Codec,
    /// `Struct`: the object of its one map field, written as any map is.
    Struct,
    /// `ListValue`: the array of its one repeated field.
    List,
    /// `Value`: the value of the member of its oneof that is set.
    Value,
    /// A wrapper (`StringValue`, `Int64Value`, ...): the value of its one field.
    Wrapper,
}

impl Shape {
    /// Whether `fields` are the ones this shape is transcoded from: one
    /// map field 1 of strings to messages (`Struct`), one repeated message
    /// field 1 (`ListValue`), one scalar field 1 (a wrapper), or the oneof
    /// of `Value`'s six fields. Never for `Shape::Codec`. A table whose
    /// fields do not fit (a pool whose `google.protobuf` types differ) has
    /// its shape set to `Shape::Codec` when it is compiled.
    pub(crate) fn fits(self, fields: &[Field]) -> bool {
        match (self, fields) {
            (Shape::Struct, [f]) => {
                f.number == 1
                    && matches!(
                        f.card,
                        Card::Map {
                            key: Kind::String,
                            value: Kind::Message(_)
                        }
                    )
            }
            (Shape::List, [f]) => {
                f.number == 1
                    && matches!((f.card, f.kind), (Card::Repeated { .. }, Kind::Message(_)))
            }
            (Shape::Wrapper, [f]) => {
                f.number == 1
                    && f.card == Card::Implicit
                    && !matches!(f.kind, Kind::Message(_) | Kind::Group(_) | Kind::Enum(_))
            }
            (Shape::Value, fields @ [null, number, string, boolean, object, array]) => {
                fields
                    .iter()
                    .zip(1..)
                    .all(|(f, n)| f.number == n && f.oneof == Some(0))
                    && matches!(null.kind, Kind::Enum(_))
                    && (number.kind, string.kind, boolean.kind)
                        == (Kind::Double, Kind::String, Kind::Bool)
                    && matches!(
                        (object.kind, array.kind),
                        (Kind::Message(_), Kind::Message(_))
                    )
            }
            _ => false,
        }
    }
}

/// How one well-known type is transcoded.
#[derive(Clone, Copy)]
pub(crate) struct Codec {
    /// Writes the JSON of the message whose binary encoding is the
    /// concatenation of the slices (a message met more than once merges).
    pub write: fn(&mut Encoder<'_>, &[&[u8]]) -> Result<(), String>,
    /// Reads the JSON value at the decoder's position and appends the
    /// message's binary fields (no length prefix).
    pub read: fn(&mut Decoder<'_>, &mut Vec<u8>) -> Result<(), Error>,
    /// Whether JSON `null` is a value of this type (only `Value`).
    pub null_is_value: bool,
    /// How its binary is written as JSON.
    pub shape: Shape,
}

/// The special form of the message named `full_name`, if it has one.
pub(crate) fn special(full_name: &str) -> Option<Special> {
    let codec = match full_name.strip_prefix("google.protobuf.")? {
        "Any" => return Some(Special::Any),
        "Timestamp" => codec::<Timestamp>(),
        "Duration" => codec::<Duration>(),
        "FieldMask" => codec::<FieldMask>(),
        "Struct" => Codec {
            shape: Shape::Struct,
            ..codec::<Struct>()
        },
        "Value" => Codec {
            null_is_value: true,
            shape: Shape::Value,
            ..codec::<Value>()
        },
        "ListValue" => Codec {
            shape: Shape::List,
            ..codec::<ListValue>()
        },
        "Empty" => codec::<()>(),
        "BoolValue" => wrapper::<bool>(),
        "Int32Value" => wrapper::<i32>(),
        "Int64Value" => wrapper::<i64>(),
        "UInt32Value" => wrapper::<u32>(),
        "UInt64Value" => wrapper::<u64>(),
        "FloatValue" => wrapper::<f32>(),
        "DoubleValue" => wrapper::<f64>(),
        "StringValue" => wrapper::<String>(),
        "BytesValue" => wrapper::<Vec<u8>>(),
        _ => return None,
    };
    Some(Special::Wkt(codec))
}

/// The codec of a wrapper, transcoded from its field where the table fits.
fn wrapper<M: ProtoJson + Message + Default>() -> Codec {
    Codec {
        shape: Shape::Wrapper,
        ..codec::<M>()
    }
}

fn codec<M: ProtoJson + Message + Default>() -> Codec {
    Codec {
        write: write::<M>,
        read: read::<M>,
        null_is_value: false,
        shape: Shape::Codec,
    }
}

fn write<M: ProtoJson + Message + Default>(
    e: &mut Encoder<'_>,
    parts: &[&[u8]],
) -> Result<(), String> {
    let mut msg = M::default();
    for part in parts {
        msg.merge(*part).map_err(|e| e.to_string())?;
    }
    msg.write_json(e);
    Ok(())
}

fn read<M: ProtoJson + Message + Default>(
    d: &mut Decoder<'_>,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    let msg: M = d.new_message()?;
    msg.encode_raw(out);
    Ok(())
}
