//! The tables the transcoder runs on, compiled once per message type (on
//! first use) from prost-reflect's resolved descriptors: for each field its
//! number, kind and presence, its keys pre-quoted as the runtime's encoder
//! and decoder take them, and the indexes of its message or enum type; per
//! message a lookup by field number and by key.

use std::collections::HashMap;
use std::sync::OnceLock;

use prost::encoding::WireType;
use prost_reflect::{
    Cardinality, DescriptorPool, EnumDescriptor, ExtensionDescriptor, FieldDescriptor,
    Kind as ReflectKind, MessageDescriptor,
};
use protojsonx_runtime::__dynamic::OwnedFieldKeys;

use crate::wkt::{self, Codec, Shape, Special};

/// Every message and enum of a descriptor pool, by index, with their tables
/// compiled on first use.
pub(crate) struct Schema {
    messages: Vec<MessageDescriptor>,
    message_index: HashMap<String, u32>,
    tables: Vec<OnceLock<Table>>,
    enums: Vec<EnumDescriptor>,
    enum_index: HashMap<String, u32>,
    enum_tables: Vec<OnceLock<EnumTable>>,
}

impl Schema {
    /// The schema of every message and enum in `pool`.
    pub(crate) fn new(pool: &DescriptorPool) -> Self {
        let messages: Vec<_> = pool.all_messages().collect();
        let enums: Vec<_> = pool.all_enums().collect();
        Schema {
            message_index: index_of(messages.iter().map(MessageDescriptor::full_name)),
            tables: messages.iter().map(|_| OnceLock::new()).collect(),
            messages,
            enum_index: index_of(enums.iter().map(EnumDescriptor::full_name)),
            enum_tables: enums.iter().map(|_| OnceLock::new()).collect(),
            enums,
        }
    }

    /// The index of the message named `full_name` (no leading dot).
    pub(crate) fn message_index(&self, full_name: &str) -> Option<u32> {
        self.message_index.get(full_name).copied()
    }

    /// The table of message `index`, compiled now if this is its first use.
    #[inline]
    pub(crate) fn table(&self, index: u32) -> &Table {
        self.tables[index as usize]
            .get_or_init(|| Table::compile(self, &self.messages[index as usize]))
    }

    /// The table of enum `index`.
    #[inline]
    pub(crate) fn enum_table(&self, index: u32) -> &EnumTable {
        self.enum_tables[index as usize]
            .get_or_init(|| EnumTable::compile(&self.enums[index as usize]))
    }

    fn kind_of(&self, kind: &ReflectKind, group: bool) -> Kind {
        match kind {
            ReflectKind::Double => Kind::Double,
            ReflectKind::Float => Kind::Float,
            ReflectKind::Int64 => Kind::Int64,
            ReflectKind::Uint64 => Kind::Uint64,
            ReflectKind::Int32 => Kind::Int32,
            ReflectKind::Fixed64 => Kind::Fixed64,
            ReflectKind::Fixed32 => Kind::Fixed32,
            ReflectKind::Bool => Kind::Bool,
            ReflectKind::String => Kind::String,
            ReflectKind::Bytes => Kind::Bytes,
            ReflectKind::Uint32 => Kind::Uint32,
            ReflectKind::Sfixed32 => Kind::Sfixed32,
            ReflectKind::Sfixed64 => Kind::Sfixed64,
            ReflectKind::Sint32 => Kind::Sint32,
            ReflectKind::Sint64 => Kind::Sint64,
            ReflectKind::Enum(e) => Kind::Enum(self.enum_index[e.full_name()]),
            ReflectKind::Message(m) if group => Kind::Group(self.message_index[m.full_name()]),
            ReflectKind::Message(m) => Kind::Message(self.message_index[m.full_name()]),
        }
    }
}

fn index_of<'a>(names: impl Iterator<Item = &'a str>) -> HashMap<String, u32> {
    names
        .enumerate()
        .map(|(i, name)| (name.to_string(), i as u32))
        .collect()
}

/// What a field holds on the wire and in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Double,
    Float,
    Int64,
    Uint64,
    Int32,
    Fixed64,
    Fixed32,
    Bool,
    String,
    Bytes,
    Uint32,
    Sfixed32,
    Sfixed64,
    Sint32,
    Sint64,
    /// An enum, by index in the schema.
    Enum(u32),
    /// A message, by index in the schema.
    Message(u32),
    /// A message encoded as a group (proto2 `group`, editions `DELIMITED`).
    Group(u32),
}

impl Kind {
    /// The wire type a single value of this kind has.
    pub(crate) fn wire_type(self) -> WireType {
        match self {
            Kind::Double | Kind::Fixed64 | Kind::Sfixed64 => WireType::SixtyFourBit,
            Kind::Float | Kind::Fixed32 | Kind::Sfixed32 => WireType::ThirtyTwoBit,
            Kind::String | Kind::Bytes | Kind::Message(_) => WireType::LengthDelimited,
            Kind::Group(_) => WireType::StartGroup,
            _ => WireType::Varint,
        }
    }

    /// Whether repeated values of this kind may be packed.
    pub(crate) fn packable(self) -> bool {
        !matches!(
            self,
            Kind::String | Kind::Bytes | Kind::Message(_) | Kind::Group(_)
        )
    }
}

/// How a field holds its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Card {
    /// A singular field without presence (proto3 scalars): written unless default.
    Implicit,
    /// A singular field with presence: proto2 `optional`, proto3
    /// `optional` (`proto3_optional`), message fields, oneof members.
    Optional { proto3_optional: bool },
    /// A proto2 `required` field: its slot among the message's required fields.
    Required(u32),
    /// A repeated field, written packed when `packed`.
    Repeated { packed: bool },
    /// A map field: the kinds of its entries' key and value.
    Map { key: Kind, value: Kind },
}

/// One field of a message, or an extension of it.
pub(crate) struct Field {
    pub number: u32,
    /// The key the encoder writes, with its comma: `,"jsonName":`.
    pub json_key: Box<[u8]>,
    /// The same with the proto name: `,"proto_name":`.
    pub proto_key: Box<[u8]>,
    /// Whether the JSON name is ASCII (a `json_name` option may make it not).
    pub ascii: bool,
    /// The JSON name, for error paths.
    pub name: Box<str>,
    pub kind: Kind,
    pub card: Card,
    /// The wire type of one value (a map entry's for a map; a repeated
    /// field of a packable kind may also come packed).
    pub wire: WireType,
    /// The real oneof the field is a member of, by index.
    pub oneof: Option<u32>,
    /// Whether this is its oneof's first member: the oneof is written there.
    pub oneof_first: bool,
    /// Whether a JSON `null` for this field is read rather than taken as
    /// "not set": a value of `google.protobuf.Value` and
    /// `google.protobuf.NullValue`, and for a repeated field of them not a
    /// list (the array reader rejects it, as the generated code, Go and
    /// Python do). For a map `null` is "not set", whatever its values.
    pub null_is_value: bool,
}

/// Whether JSON `null` is a value of `kind` (`google.protobuf.NullValue`,
/// and `google.protobuf.Value`), decided by name: the other type's table
/// need not be compiled.
fn kind_takes_null(kind: &ReflectKind) -> bool {
    match kind {
        ReflectKind::Enum(e) => e.full_name() == NULL_VALUE,
        ReflectKind::Message(m) => {
            matches!(wkt::special(m.full_name()), Some(Special::Wkt(codec)) if codec.null_is_value)
        }
        _ => false,
    }
}

/// The enum whose one value is written as JSON `null`.
const NULL_VALUE: &str = "google.protobuf.NullValue";

/// A message type's table.
pub(crate) struct Table {
    pub full_name: Box<str>,
    /// The well-known types' special JSON forms.
    pub special: Option<Special>,
    /// The fields in declaration order, then the extensions by number.
    pub fields: Box<[Field]>,
    /// The decoder's keys for each field: `"jsonName":`, `"proto_name":`.
    pub keys: Box<[OwnedFieldKeys]>,
    /// Either spelling of a key (or `[full.name]` of an extension) to a field.
    by_key: HashMap<Box<[u8]>, usize>,
    by_number: ByNumber,
    /// The names of the real oneofs, by index.
    pub oneofs: Box<[Box<str>]>,
    /// The fields that are `required`, by slot: their indexes.
    pub required: Box<[usize]>,
    /// Whether every field is singular, without `required` or a oneof: the
    /// binary is then written in one pass when its fields come in
    /// declaration order (see `to_json`).
    pub single_pass: bool,
}

impl Table {
    fn compile(schema: &Schema, message: &MessageDescriptor) -> Table {
        let full_name: Box<str> = message.full_name().into();
        let special = wkt::special(&full_name);
        let oneofs: Vec<_> = message.oneofs().filter(|o| !o.is_synthetic()).collect();
        let mut required = Vec::new();
        // In declaration order (prost-reflect's `fields()` is by number),
        // the order the generated code writes them in.
        let declared = message
            .descriptor_proto()
            .field
            .iter()
            .filter_map(|proto| message.get_field(u32::try_from(proto.number()).ok()?));
        let mut fields: Vec<Field> = declared
            .enumerate()
            .map(|(index, f)| {
                let oneof = f
                    .containing_oneof()
                    .and_then(|o| oneofs.iter().position(|x| x.name() == o.name()))
                    .map(|i| i as u32);
                let card = card_of(schema, &f, oneof.is_some(), || {
                    required.push(index);
                    required.len() as u32 - 1
                });
                field(
                    schema,
                    f.number(),
                    f.name(),
                    f.json_name(),
                    &f.kind(),
                    f.is_group(),
                    card,
                    oneof,
                )
            })
            .collect();
        for oneof in 0..oneofs.len() as u32 {
            if let Some(first) = fields.iter_mut().find(|f| f.oneof == Some(oneof)) {
                first.oneof_first = true;
            }
        }
        let mut extensions: Vec<ExtensionDescriptor> = message.extensions().collect();
        extensions.sort_by_key(ExtensionDescriptor::number);
        for ext in &extensions {
            let card = ext_card(ext);
            let key = format!("[{}]", ext.full_name());
            fields.push(field(
                schema,
                ext.number(),
                &key,
                &key,
                &ext.kind(),
                ext.is_group(),
                card,
                None,
            ));
        }
        let keys = fields
            .iter()
            .map(|f| (f.json_key[1..].into(), f.proto_key[1..].into()))
            .collect();
        let mut by_key = HashMap::new();
        for (i, f) in fields.iter().enumerate() {
            for key in [&f.json_key, &f.proto_key] {
                let name = &key[2..key.len() - 2];
                by_key.entry(unescape(name)).or_insert(i);
            }
        }
        // A well-known type whose fields are not the ones its shape is
        // transcoded from (a pool of other `google.protobuf` files) goes
        // through its prost-types struct.
        let special = match special {
            Some(Special::Wkt(codec)) if !codec.shape.fits(&fields) => Some(Special::Wkt(Codec {
                shape: Shape::Codec,
                ..codec
            })),
            other => other,
        };
        let single_pass = special.is_none()
            && fields.iter().all(|f| {
                matches!(f.card, Card::Implicit | Card::Optional { .. }) && f.oneof.is_none()
            });
        Table {
            single_pass,
            full_name,
            special,
            by_number: ByNumber::new(&fields),
            keys,
            by_key,
            oneofs: oneofs.iter().map(|o| o.name().into()).collect(),
            required: required.into(),
            fields: fields.into(),
        }
    }

    /// The field with number `number`, by index.
    #[inline]
    pub(crate) fn by_number(&self, number: u32) -> Option<usize> {
        self.by_number.get(number)
    }

    /// The field a JSON key names (either spelling), by index.
    #[inline]
    pub(crate) fn by_key(&self, key: &[u8]) -> Option<usize> {
        self.by_key.get(key).copied()
    }
}

/// A key's text as it appears unescaped in JSON input: the table's keys
/// are escaped (quotes and backslashes in a `json_name`), lookups are not.
fn unescape(escaped: &[u8]) -> Box<[u8]> {
    let quoted = [b"\"", escaped, b"\""].concat();
    match protojsonx_runtime::from_slice::<String>(&quoted) {
        Ok(text) => text.into_bytes().into(),
        Err(_) => escaped.into(),
    }
}

#[allow(clippy::too_many_arguments)]
fn field(
    schema: &Schema,
    number: u32,
    proto_name: &str,
    json_name: &str,
    kind: &ReflectKind,
    group: bool,
    card: Card,
    oneof: Option<u32>,
) -> Field {
    let map = matches!(card, Card::Map { .. });
    let reflect_kind = kind;
    let kind = schema.kind_of(reflect_kind, group);
    Field {
        number,
        json_key: key(json_name),
        proto_key: key(proto_name),
        ascii: json_name.is_ascii(),
        name: json_name.into(),
        kind,
        wire: if map {
            WireType::LengthDelimited
        } else {
            kind.wire_type()
        },
        null_is_value: !map && kind_takes_null(reflect_kind),
        card,
        oneof,
        oneof_first: false,
    }
}

/// `,"name":` with `name` escaped as a JSON string.
fn key(name: &str) -> Box<[u8]> {
    let quoted = protojsonx_runtime::to_vec(&name.to_string()).unwrap_or_default();
    [b",", quoted.as_slice(), b":"].concat().into()
}

/// How field `f` holds its values; `required_slot` gives a `required`
/// field its slot.
fn card_of(
    schema: &Schema,
    f: &FieldDescriptor,
    in_oneof: bool,
    required_slot: impl FnOnce() -> u32,
) -> Card {
    if f.is_map() {
        let entry = f.kind();
        let entry = entry
            .as_message()
            .expect("a map field's entry is a message");
        return Card::Map {
            key: schema.kind_of(&entry.map_entry_key_field().kind(), false),
            value: schema.kind_of(&entry.map_entry_value_field().kind(), false),
        };
    }
    if f.is_list() {
        return Card::Repeated {
            packed: f.is_packed(),
        };
    }
    if f.cardinality() == Cardinality::Required {
        return Card::Required(required_slot());
    }
    if f.supports_presence() || in_oneof {
        let proto3_optional = f.field_descriptor_proto().proto3_optional();
        return Card::Optional { proto3_optional };
    }
    Card::Implicit
}

/// How extension `ext` holds its values: extensions always have presence.
fn ext_card(ext: &ExtensionDescriptor) -> Card {
    if ext.is_list() {
        return Card::Repeated {
            packed: ext.is_packed(),
        };
    }
    Card::Optional {
        proto3_optional: false,
    }
}

/// Field numbers to field indexes: a direct array for small numbers, a
/// sorted list for the rest.
struct ByNumber {
    direct: Box<[u32]>,
    sorted: Box<[(u32, u32)]>,
}

/// Numbers below this are looked up directly.
const DIRECT: u32 = 256;

impl ByNumber {
    fn new(fields: &[Field]) -> Self {
        let top = fields
            .iter()
            .map(|f| f.number)
            .filter(|&n| n < DIRECT)
            .max()
            .map_or(0, |n| n + 1);
        let mut direct = vec![u32::MAX; top as usize];
        let mut sorted = Vec::new();
        for (i, f) in fields.iter().enumerate() {
            if f.number < DIRECT {
                direct[f.number as usize] = i as u32;
            } else {
                sorted.push((f.number, i as u32));
            }
        }
        sorted.sort_unstable();
        ByNumber {
            direct: direct.into(),
            sorted: sorted.into(),
        }
    }

    #[inline]
    fn get(&self, number: u32) -> Option<usize> {
        let found = match self.direct.get(number as usize) {
            Some(&i) => i,
            None => self
                .sorted
                .binary_search_by_key(&number, |&(n, _)| n)
                .map_or(u32::MAX, |at| self.sorted[at].1),
        };
        (found != u32::MAX).then_some(found as usize)
    }
}

/// An enum type's names.
pub(crate) struct EnumTable {
    pub full_name: Box<str>,
    /// Whether this is `google.protobuf.NullValue`, written as `null`.
    pub null_value: bool,
    /// The first name of each number, sorted by number.
    names: Box<[(i32, Box<str>)]>,
    values: HashMap<Box<[u8]>, i32>,
}

impl EnumTable {
    /// The table of `e`. Its values are taken in declaration order (from
    /// the descriptor proto: prost-reflect's `values()` are by number, and
    /// aliases of one number in no set order): the first name declared for
    /// a number is the one written, as in the generated code and protoc.
    fn compile(e: &EnumDescriptor) -> EnumTable {
        let mut names: Vec<(i32, Box<str>)> = Vec::new();
        let mut values = HashMap::new();
        for v in &e.enum_descriptor_proto().value {
            values
                .entry(v.name().as_bytes().into())
                .or_insert(v.number());
            if !names.iter().any(|(n, _)| *n == v.number()) {
                names.push((v.number(), v.name().into()));
            }
        }
        names.sort_by_key(|(n, _)| *n);
        EnumTable {
            full_name: e.full_name().into(),
            null_value: e.full_name() == NULL_VALUE,
            names: names.into(),
            values,
        }
    }

    /// The name of value `v`, if it has one.
    #[inline]
    pub(crate) fn name_of(&self, v: i32) -> Option<&str> {
        self.names
            .binary_search_by_key(&v, |(n, _)| *n)
            .ok()
            .map(|at| &*self.names[at].1)
    }

    /// The value named `name`.
    #[inline]
    pub(crate) fn value_of(&self, name: &[u8]) -> Option<i32> {
        self.values.get(name).copied()
    }
}
