//! Lowering: an editions file as the proto2 or proto3 descriptor with the
//! same meaning, which prost-build and prost-reflect read.
//!
//! prost-build knows a field's Rust type and encoding from the file's
//! `syntax`, `label`, `proto3_optional`, `type` and `packed` alone, so each
//! resolved feature becomes those:
//!
//! - `LEGACY_REQUIRED` presence: label `required`.
//! - `DELIMITED` message encoding: type `group` (never for map fields).
//! - `PACKED` / `EXPANDED` repeated scalars: `packed = true / false`, always
//!   written, since the two syntaxes' defaults differ.
//! - A file with an `IMPLICIT` singular scalar becomes proto3 (its plain
//!   fields), and its `EXPLICIT` singular scalars and groups proto3
//!   `optional` fields, with the synthetic oneofs protoc gives those. Any
//!   other file becomes proto2, where every singular field has presence.
//!
//! Closed and open enums need nothing: prost stores both as `i32`. Files of
//! syntax proto2 and proto3 pass through as they are.
//!
//! One shape has no faithful lowering for prost-reflect: a closed enum whose
//! first value is not 0, in a file lowered to proto3 (prost-reflect wants
//! proto3 enums to start at 0, and the file's implicit-presence fields need
//! proto3). prost-build reads the lowered file as it is; protojsonx-dynamic's
//! `Pool` says why it refuses it.

use prost::Message;

use crate::Error;
use crate::features::{Features, edition_of};
use crate::types::feature_set::{FieldPresence, MessageEncoding, RepeatedFieldEncoding};
use crate::types::field_descriptor_proto::{Label, Type};
use crate::types::{
    DescriptorProto, Edition, FieldDescriptorProto, FieldOptions, FileDescriptorProto,
    FileDescriptorSet, OneofDescriptorProto,
};

/// Every file of `set` as prost-types descriptors of syntax proto2 or
/// proto3: editions files lowered, the others as they are.
pub fn lower(set: FileDescriptorSet) -> Result<prost_types::FileDescriptorSet, Error> {
    check_names(&set.file)?;
    let file = set
        .file
        .into_iter()
        .map(lower_file)
        .collect::<Result<_, _>>()?;
    Ok(prost_types::FileDescriptorSet { file })
}

/// Every file of a set has a name of its own: imports and errors name them.
fn check_names(files: &[FileDescriptorProto]) -> Result<(), Error> {
    let mut seen = std::collections::HashSet::new();
    for file in files {
        if file.name().is_empty() {
            return Err(Error::new(
                "the descriptor set",
                "holds a file without a name",
            ));
        }
        if !seen.insert(file.name()) {
            return Err(Error::new(
                file.name(),
                "appears twice in the descriptor set",
            ));
        }
    }
    Ok(())
}

/// [`lower`] on a serialized `google.protobuf.FileDescriptorSet` (as
/// `protoc --include_imports -o` and `buf build -o` write it), serialized
/// again. Files of syntax proto2 and proto3 keep their bytes, so their
/// custom options (which prost drops when decoding) are still there for
/// readers that keep them, such as prost-reflect.
pub fn lower_encoded(file_descriptor_set: &[u8]) -> Result<Vec<u8>, Error> {
    let set = RawSet::decode(file_descriptor_set).map_err(not_a_set)?;
    let files = set
        .file
        .iter()
        .map(|raw| FileDescriptorProto::decode(raw.as_slice()).map_err(not_a_set))
        .collect::<Result<Vec<_>, _>>()?;
    check_names(&files)?;
    let mut out = RawSet::default();
    for (raw, file) in set.file.into_iter().zip(files) {
        if matches!(edition_of(&file)?, Edition::Proto2 | Edition::Proto3) {
            out.file.push(raw);
        } else {
            out.file.push(with_raw_services(lower_file(file)?, &raw)?);
        }
    }
    Ok(out.encode_to_vec())
}

/// `lowered`, encoded, with the services of `raw` (the file as it came)
/// instead of its own: prost-types' options keep no extensions, and the
/// methods' custom options (`google.api.http`) must reach the tools that
/// read them. Lowering changes nothing in services.
fn with_raw_services(
    mut lowered: prost_types::FileDescriptorProto,
    raw: &[u8],
) -> Result<Vec<u8>, Error> {
    const SERVICE: u32 = 6;
    let services = crate::options::fields(raw, SERVICE)
        .map_err(|e| Error::new(lowered.name(), e.to_string()))?;
    lowered.service.clear();
    let mut out = lowered.encode_to_vec();
    for service in services {
        prost::encoding::bytes::encode(SERVICE, &service.to_vec(), &mut out);
    }
    Ok(out)
}

/// A `FileDescriptorSet` with each file left serialized.
#[derive(Clone, PartialEq, Message)]
struct RawSet {
    #[prost(bytes = "vec", repeated, tag = "1")]
    file: Vec<Vec<u8>>,
}

#[cold]
fn not_a_set(e: prost::DecodeError) -> Error {
    Error::new(
        "the descriptor set",
        format!("is not a google.protobuf.FileDescriptorSet: {e}"),
    )
}

/// One file as a prost-types descriptor of syntax proto2 or proto3.
pub fn lower_file(
    mut file: FileDescriptorProto,
) -> Result<prost_types::FileDescriptorProto, Error> {
    let edition = edition_of(&file)?;
    if !matches!(edition, Edition::Proto2 | Edition::Proto3) {
        lower_editions(&mut file, edition)?;
    }
    prost_types::FileDescriptorProto::decode(file.encode_to_vec().as_slice()).map_err(|e| {
        Error::new(
            file.name(),
            format!("cannot be read as prost-types descriptors: {e}"),
        )
    })
}

/// Rewrites an editions file in place as proto2 or proto3.
fn lower_editions(file: &mut FileDescriptorProto, edition: Edition) -> Result<(), Error> {
    let defaults = Features::defaults(edition).expect("edition_of returns known editions");
    let features = defaults.with(file.options.as_ref().and_then(|o| o.features.as_ref()));
    let mut walk = Walk {
        file: file.name().to_string(),
        implicit: false,
    };
    let package = file.package().to_string();
    for message in &mut file.message_type {
        walk.message(message, features, &package)?;
    }
    for extension in &mut file.extension {
        walk.field(extension, features, &package, Place::Extension)?;
    }
    let proto3 = walk.implicit;
    for message in &mut file.message_type {
        finish_presence(message, proto3);
    }
    file.syntax = Some(if proto3 { "proto3" } else { "proto2" }.into());
    file.edition = None;
    Ok(())
}

/// The walk over one file's elements, resolving features on the way down.
struct Walk {
    /// The file's name, for errors.
    file: String,
    /// Whether a singular scalar with implicit presence was seen.
    implicit: bool,
}

/// Where a field is declared, which decides what its features may say.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// A plain field of a message.
    Field,
    /// A member of a oneof: it always has presence.
    Oneof,
    /// A map field: its entries are never delimited.
    Map,
    /// An extension: it always has presence.
    Extension,
}

impl Walk {
    fn message(
        &mut self,
        message: &mut DescriptorProto,
        inherited: Features,
        scope: &str,
    ) -> Result<(), Error> {
        let features = inherited.with(message.options.as_ref().and_then(|o| o.features.as_ref()));
        let name = qualified(scope, message.name());
        if message.options.as_ref().is_some_and(|o| o.map_entry()) {
            // The key and value of a map entry have what protoc gives them.
            return Ok(());
        }
        let oneofs: Vec<Features> = message
            .oneof_decl
            .iter()
            .map(|o| features.with(o.options.as_ref().and_then(|o| o.features.as_ref())))
            .collect();
        let map_entries: Vec<String> = message
            .nested_type
            .iter()
            .filter(|t| t.options.as_ref().is_some_and(|o| o.map_entry()))
            .map(|t| format!("{name}.{}", t.name()))
            .collect();
        for field in &mut message.field {
            let (parent, place) = match field.oneof_index {
                Some(i) => (
                    oneofs.get(i as usize).copied().unwrap_or(features),
                    Place::Oneof,
                ),
                None if is_map(field, &map_entries) => (features, Place::Map),
                None => (features, Place::Field),
            };
            self.field(field, parent, &name, place)?;
        }
        for extension in &mut message.extension {
            self.field(extension, features, &name, Place::Extension)?;
        }
        for nested in &mut message.nested_type {
            self.message(nested, features, &name)?;
        }
        Ok(())
    }

    fn field(
        &mut self,
        field: &mut FieldDescriptorProto,
        inherited: Features,
        scope: &str,
        place: Place,
    ) -> Result<(), Error> {
        let set = field.options.as_ref().and_then(|o| o.features.as_ref());
        let presence_set = set.is_some_and(|s| s.field_presence.is_some_and(|v| v != 0));
        let features = inherited.with(set);
        let message = matches!(field.r#type(), Type::Message | Type::Group);
        let repeated = field.label() == Label::Repeated;
        let name = qualified(scope, field.name());
        let refuse = |why: &str| Err(Error::new(&self.file, format!("field `{name}`: {why}")));
        if presence_set && (repeated || place != Place::Field) {
            return refuse("`field_presence` can only be set on singular fields outside oneofs");
        }
        if presence_set && message && features.field_presence == FieldPresence::Implicit {
            return refuse("message fields always have presence: IMPLICIT is not allowed");
        }
        field.proto3_optional = None;
        if repeated && packable(field.r#type()) {
            let packed = features.repeated_field_encoding == RepeatedFieldEncoding::Packed;
            field
                .options
                .get_or_insert_with(FieldOptions::default)
                .packed = Some(packed);
        }
        if field.r#type() == Type::Message
            && place != Place::Map
            && features.message_encoding == MessageEncoding::Delimited
        {
            field.r#type = Some(Type::Group as i32);
        }
        if repeated || place != Place::Field {
            return Ok(());
        }
        match features.field_presence {
            FieldPresence::LegacyRequired => field.label = Some(Label::Required as i32),
            FieldPresence::Implicit if !message => self.implicit = true,
            // Explicit presence, kept as proto3 `optional` should the file
            // become proto3 (finish_presence decides).
            _ if field.r#type() != Type::Message => field.proto3_optional = Some(true),
            _ => {}
        }
        Ok(())
    }
}

/// In a file lowered to proto3, gives each proto3 `optional` field of
/// `message` (and of its nested messages) its synthetic oneof, named as
/// protoc names it; in one lowered to proto2, where singular fields have
/// presence anyway, drops the marks.
fn finish_presence(message: &mut DescriptorProto, proto3: bool) {
    for i in 0..message.field.len() {
        if !message.field[i].proto3_optional() {
            continue;
        }
        if !proto3 {
            message.field[i].proto3_optional = None;
            continue;
        }
        let mut name = format!("_{}", message.field[i].name());
        while message.field.iter().any(|f| f.name() == name)
            || message.oneof_decl.iter().any(|o| o.name() == name)
        {
            name.insert(0, 'X');
        }
        message.field[i].oneof_index = Some(message.oneof_decl.len() as i32);
        message.oneof_decl.push(OneofDescriptorProto {
            name: Some(name),
            options: None,
        });
    }
    for nested in &mut message.nested_type {
        finish_presence(nested, proto3);
    }
}

/// Whether `field` is a map: repeated entries of one of `map_entries`.
fn is_map(field: &FieldDescriptorProto, map_entries: &[String]) -> bool {
    field.label() == Label::Repeated
        && field.r#type() == Type::Message
        && map_entries
            .iter()
            .any(|entry| field.type_name().strip_prefix('.') == Some(entry))
}

/// Whether repeated fields of type `t` can be packed: numbers, bools and enums.
fn packable(t: Type) -> bool {
    !matches!(t, Type::String | Type::Bytes | Type::Message | Type::Group)
}

/// `scope.name`, or `name` in the empty package.
fn qualified(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_string()
    } else {
        format!("{scope}.{name}")
    }
}

#[cfg(test)]
mod tests;
