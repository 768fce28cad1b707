//! The resolved descriptor model: what the emitter needs to know about each
//! message and enum, with every Rust name already made (by [`ident`]) and every
//! protobuf detail that does not matter to JSON dropped.
//!
//! Raw `FileDescriptorProto`s go in; out come [`Package`]s, one per protobuf
//! package, because prost-build writes one Rust module per package and the JSON
//! code lives in the same module.

use std::collections::BTreeMap;

use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{
    DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
};

use crate::config::Config;
use crate::ident;

/// The messages and enums of one protobuf package, in declaration order.
#[derive(Debug)]
pub struct Package {
    /// The protobuf package name, like `my.pkg` (empty for none).
    pub name: String,
    pub messages: Vec<Message>,
    pub enums: Vec<Enum>,
}

/// A message that gets a `ProtoJson` impl.
#[derive(Debug)]
pub struct Message {
    /// Fully qualified protobuf name without the leading dot, like `my.pkg.Outer.Inner`.
    pub full_name: String,
    /// The struct's path from the package module, like `outer::Inner`.
    pub rust_path: String,
    /// Fields in declaration order (oneof members included, in place).
    pub fields: Vec<Field>,
    pub oneofs: Vec<Oneof>,
}

impl Message {
    /// Marks every field not named in `stored` [`Shape::Absent`]: the Rust
    /// struct was made from an older schema that lacks it.
    pub fn restrict_to(&mut self, stored: &[String]) {
        for field in &mut self.fields {
            if !stored.contains(&field.proto_name) {
                let kind = match &field.shape {
                    Shape::Implicit(k)
                    | Shape::Required(k)
                    | Shape::Optional(k)
                    | Shape::Repeated(k)
                    | Shape::Absent(k)
                    | Shape::OneofMember { kind: k, .. }
                    | Shape::Map { value: k, .. } => k.clone(),
                };
                field.shape = Shape::Absent(kind);
            }
        }
    }

    /// Whether the message's JSON code names a field prost marks `#[deprecated]`.
    pub fn uses_deprecated(&self) -> bool {
        self.fields.iter().any(|f| f.deprecated)
    }
}

/// One field of a message.
#[derive(Debug)]
pub struct Field {
    /// The name in the .proto file; also accepted as a key when decoding.
    pub proto_name: String,
    /// The lowerCamelCase (or `json_name` option) key written by default.
    pub json_name: String,
    /// The struct field's Rust name (for oneof members: the variant's name).
    pub rust_name: String,
    pub shape: Shape,
    /// A proto3 `optional` field: its presence is a oneof of one, so Go's
    /// `EmitUnpopulated` leaves it out when unset, as other oneof members.
    pub proto3_optional: bool,
    /// `[deprecated = true]`: prost marks the field (or oneof variant)
    /// `#[deprecated]`, so code using it must allow that.
    pub deprecated: bool,
}

/// How a field is stored in the prost struct, which decides when it is written.
#[derive(Debug)]
pub enum Shape {
    /// `T`, no presence (proto3 scalar): written when not the default.
    Implicit(Kind),
    /// `T`, proto2 `required`: always written.
    Required(Kind),
    /// `Option<T>`: proto2 `optional`, proto3 `optional`, or a message.
    Optional(Kind),
    /// `Vec<T>`.
    Repeated(Kind),
    /// `HashMap<K, V>` or `BTreeMap<K, V>`.
    Map { key: Kind, value: Kind },
    /// A variant of the oneof enum at index `oneof` in [`Message::oneofs`].
    OneofMember { oneof: usize, kind: Kind },
    /// A field of the schema that the Rust struct lacks (prost-types is
    /// older than the `descriptor.proto` users compile against): its key is
    /// accepted and its value skipped, as prost drops it in the binary
    /// format, and it is never written.
    Absent(Kind),
}

/// What a field's values are, as far as JSON cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Bool,
    /// int32, sint32, sfixed32.
    I32,
    /// uint32, fixed32.
    U32,
    /// int64, sint64, sfixed64.
    I64,
    /// uint64, fixed64.
    U64,
    F32,
    F64,
    String,
    Bytes,
    /// An enum (stored as `i32`), with the path of its Rust type.
    Enum {
        rust_path: String,
        null_value: bool,
    },
    /// A message (or a well-known type); `value` marks `google.protobuf.Value`,
    /// for which JSON `null` is a value rather than "not set".
    Message {
        value: bool,
    },
}

impl Kind {
    /// Whether a JSON `null` for this kind is a value (`Value`, `NullValue`)
    /// instead of meaning "not set".
    pub fn null_is_value(&self) -> bool {
        matches!(
            self,
            Kind::Enum {
                null_value: true,
                ..
            } | Kind::Message { value: true }
        )
    }
}

/// A (non-synthetic) oneof: an `Option` of a generated enum.
#[derive(Debug)]
pub struct Oneof {
    /// The name in the .proto file, for error messages.
    pub proto_name: String,
    /// The struct field's Rust name.
    pub rust_name: String,
    /// The enum's path from the package module, like `outer::Kind`.
    pub rust_enum: String,
}

/// An enum that gets a `JsonEnum` impl.
#[derive(Debug)]
pub struct Enum {
    /// Fully qualified protobuf name without the leading dot.
    pub full_name: String,
    /// The enum's path from the package module.
    pub rust_path: String,
    /// Every value name with its number, aliases included, in declaration order.
    pub values: Vec<(String, i32)>,
}

/// Builds the packages for the files to generate, skipping types that resolve
/// to extern paths (prost-build generates nothing for them either).
pub fn packages(files: &[FileDescriptorProto], config: &Config) -> Vec<Package> {
    let mut packages: BTreeMap<String, Package> = BTreeMap::new();
    for file in files {
        let name = file.package();
        let package = packages.entry(name.to_string()).or_insert_with(|| Package {
            name: name.to_string(),
            messages: Vec::new(),
            enums: Vec::new(),
        });
        let builder = Builder {
            config,
            package: name,
            syntax: Syntax::of(file),
        };
        let scope = Scope {
            proto: name.to_string(),
            rust: Vec::new(),
        };
        for message in &file.message_type {
            builder.message(message, &scope, package);
        }
        for e in &file.enum_type {
            builder.enumeration(e, &scope, package);
        }
    }
    packages
        .into_values()
        .filter(|p| !p.messages.is_empty() || !p.enums.is_empty())
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Syntax {
    Proto2,
    Proto3,
}

impl Syntax {
    fn of(file: &FileDescriptorProto) -> Self {
        match file.syntax() {
            "proto3" => Syntax::Proto3,
            _ => Syntax::Proto2,
        }
    }
}

/// Where a type is declared: its protobuf parent name and its Rust module path.
struct Scope {
    proto: String,
    rust: Vec<String>,
}

impl Scope {
    fn full_name(&self, name: &str) -> String {
        if self.proto.is_empty() {
            name.to_string()
        } else {
            format!("{}.{name}", self.proto)
        }
    }

    fn rust_path(&self, rust_name: &str) -> String {
        self.rust
            .iter()
            .map(String::as_str)
            .chain([rust_name])
            .collect::<Vec<_>>()
            .join("::")
    }

    fn nested(&self, message: &str) -> Scope {
        let mut rust = self.rust.clone();
        rust.push(ident::to_snake(message));
        Scope {
            proto: self.full_name(message),
            rust,
        }
    }
}

struct Builder<'a> {
    config: &'a Config,
    package: &'a str,
    syntax: Syntax,
}

impl Builder<'_> {
    fn is_extern(&self, full_name: &str) -> bool {
        self.config
            .resolve_extern(&format!(".{full_name}"))
            .is_some()
    }

    fn message(&self, desc: &DescriptorProto, scope: &Scope, out: &mut Package) {
        let full_name = scope.full_name(desc.name());
        if self.is_extern(&full_name) || desc.options.as_ref().is_some_and(|o| o.map_entry()) {
            return;
        }
        let rust_path = scope.rust_path(&ident::to_upper_camel(desc.name()));
        let (oneofs, oneof_index) = self.oneofs(desc, scope);
        let fields = desc
            .field
            .iter()
            .map(|f| self.field(desc, f, &oneof_index))
            .collect();
        out.messages.push(Message {
            full_name,
            rust_path,
            fields,
            oneofs,
        });
        let inner = scope.nested(desc.name());
        for nested in &desc.nested_type {
            self.message(nested, &inner, out);
        }
        for e in &desc.enum_type {
            self.enumeration(e, &inner, out);
        }
    }

    /// The real oneofs of `desc` (proto3 `optional` makes synthetic ones, which
    /// prost-build turns into plain `Option` fields), and for each oneof
    /// declaration index its position among the real ones.
    fn oneofs(&self, desc: &DescriptorProto, scope: &Scope) -> (Vec<Oneof>, Vec<Option<usize>>) {
        let mut oneofs = Vec::new();
        let mut index = Vec::new();
        for (i, decl) in desc.oneof_decl.iter().enumerate() {
            let real = desc
                .field
                .iter()
                .any(|f| f.oneof_index == Some(i as i32) && !f.proto3_optional());
            if !real {
                index.push(None);
                continue;
            }
            let conflicts = desc
                .nested_type
                .iter()
                .map(|t| t.name())
                .chain(desc.enum_type.iter().map(|e| e.name()))
                .any(|name| ident::to_upper_camel(name) == ident::to_upper_camel(decl.name()));
            let mut enum_name = ident::to_upper_camel(decl.name());
            if conflicts {
                enum_name.push_str("OneOf");
            }
            index.push(Some(oneofs.len()));
            oneofs.push(Oneof {
                proto_name: decl.name().to_string(),
                rust_name: ident::to_snake(decl.name()),
                rust_enum: scope.nested(desc.name()).rust_path(&enum_name),
            });
        }
        (oneofs, index)
    }

    fn field(
        &self,
        parent: &DescriptorProto,
        f: &FieldDescriptorProto,
        oneof_index: &[Option<usize>],
    ) -> Field {
        let json_name = match &f.json_name {
            Some(name) if !name.is_empty() => name.clone(),
            _ => ident::json_name(f.name()),
        };
        let oneof = f
            .oneof_index
            .filter(|_| !f.proto3_optional())
            .and_then(|i| oneof_index.get(i as usize).copied().flatten());
        let shape = if let Some(oneof) = oneof {
            Shape::OneofMember {
                oneof,
                kind: self.kind(f),
            }
        } else if let Some((key, value)) = self.map_entry(parent, f) {
            Shape::Map {
                key: self.kind(key),
                value: self.kind(value),
            }
        } else {
            let kind = self.kind(f);
            match f.label() {
                Label::Repeated => Shape::Repeated(kind),
                Label::Required => Shape::Required(kind),
                Label::Optional if self.has_option_type(f) => Shape::Optional(kind),
                Label::Optional => Shape::Implicit(kind),
            }
        };
        let rust_name = match shape {
            Shape::OneofMember { .. } => ident::to_upper_camel(f.name()),
            _ => ident::to_snake(f.name()),
        };
        Field {
            proto_name: f.name().to_string(),
            json_name,
            rust_name,
            shape,
            proto3_optional: f.proto3_optional(),
            deprecated: f.options.as_ref().is_some_and(|o| o.deprecated()),
        }
    }

    /// Whether prost-build stores this singular field as an `Option`.
    fn has_option_type(&self, f: &FieldDescriptorProto) -> bool {
        f.proto3_optional()
            || matches!(f.r#type(), Type::Message | Type::Group)
            || self.syntax == Syntax::Proto2
    }

    /// The key and value fields of `f`'s map entry type, if `f` is a map.
    fn map_entry<'d>(
        &self,
        parent: &'d DescriptorProto,
        f: &FieldDescriptorProto,
    ) -> Option<(&'d FieldDescriptorProto, &'d FieldDescriptorProto)> {
        if f.label() != Label::Repeated || f.r#type() != Type::Message {
            return None;
        }
        let entry_name = f.type_name().rsplit('.').next()?;
        let entry = parent.nested_type.iter().find(|t| {
            t.name() == entry_name && t.options.as_ref().is_some_and(|o| o.map_entry())
        })?;
        let key = entry.field.iter().find(|f| f.number() == 1)?;
        let value = entry.field.iter().find(|f| f.number() == 2)?;
        Some((key, value))
    }

    fn kind(&self, f: &FieldDescriptorProto) -> Kind {
        match f.r#type() {
            Type::Bool => Kind::Bool,
            Type::Int32 | Type::Sint32 | Type::Sfixed32 => Kind::I32,
            Type::Uint32 | Type::Fixed32 => Kind::U32,
            Type::Int64 | Type::Sint64 | Type::Sfixed64 => Kind::I64,
            Type::Uint64 | Type::Fixed64 => Kind::U64,
            Type::Float => Kind::F32,
            Type::Double => Kind::F64,
            Type::String => Kind::String,
            Type::Bytes => Kind::Bytes,
            Type::Enum => Kind::Enum {
                rust_path: self.type_path(f.type_name()),
                null_value: f.type_name() == ".google.protobuf.NullValue",
            },
            Type::Message | Type::Group => Kind::Message {
                value: f.type_name() == ".google.protobuf.Value",
            },
        }
    }

    /// The Rust path of a type from this package's module.
    fn type_path(&self, type_name: &str) -> String {
        self.config
            .resolve_extern(type_name)
            .unwrap_or_else(|| ident::relative_type_path(self.package, type_name))
    }

    fn enumeration(&self, desc: &EnumDescriptorProto, scope: &Scope, out: &mut Package) {
        let full_name = scope.full_name(desc.name());
        if self.is_extern(&full_name) {
            return;
        }
        out.enums.push(Enum {
            rust_path: scope.rust_path(&ident::to_upper_camel(desc.name())),
            values: desc
                .value
                .iter()
                .map(|v| (v.name().to_string(), v.number()))
                .collect(),
            full_name,
        });
    }
}
