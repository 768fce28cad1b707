//! The type registry: how a `google.protobuf.Any` finds the Rust type of the
//! message it holds.
//!
//! An `Any` carries a type URL and the binary encoding of a message. To write
//! it as ProtoJSON the message must be decoded and written as JSON, and to
//! read it the JSON must be read into a message and encoded, so the runtime
//! needs, for each full message name, code monomorphised for the Rust type.
//! The registry is a process-wide map from full names to such [`Entry`]s;
//! generated code fills it through [`register`] (each package gets a
//! `register_protojsonx_types()` function), and the well-known types are
//! always resolvable without registration.

use std::collections::HashMap;
use std::sync::{LazyLock, Once, PoisonError, RwLock};

use prost::Message;

use super::any;
use crate::ProtoJson;
use crate::de::Decoder;
use crate::error::Error;
use crate::ser::Encoder;

/// What the registry holds for one message type: its `Any` codecs.
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    /// Decodes `Any.value` as the message and writes the whole `Any` object,
    /// given the type URL to write as `@type`.
    pub(crate) write: fn(&mut Encoder<'_>, &str, &[u8]),
    /// Reads the `Any` object at the decoder's position, whose `@type` named
    /// this type, and returns the binary encoding of the message in it. The
    /// `usize` is the object's offset, for errors about it as a whole.
    pub(crate) read: fn(&mut Decoder<'_>, usize) -> Result<Vec<u8>, Error>,
}

impl Entry {
    /// The entry for message type `M`.
    fn of<M: ProtoJson + Message + Default + 'static>() -> Entry {
        Entry {
            write: any::write_packed::<M>,
            read: any::read_packed::<M>,
        }
    }
}

/// The registered message types, by full name.
static REGISTRY: LazyLock<RwLock<HashMap<&'static str, Entry>>> = LazyLock::new(Default::default);

/// Registers the message type `M` under its full protobuf name (the package
/// and the message name, like `"my.pkg.Event"` or `"my.pkg.Outer.Inner"`),
/// so that a `google.protobuf.Any` holding an `M` can be written and read as
/// ProtoJSON: `{"@type": "type.googleapis.com/my.pkg.Event", ...fields}`.
///
/// The generator emits, in each package's module, a function
/// `register_protojsonx_types()` that registers all of the package's
/// messages; call it once at startup for every package whose messages may
/// appear in an `Any` (or the module tree's `register_all_protojsonx_types()`
/// for all of them). Registering again (the same or another type under the
/// same name) is harmless: the last registration wins. The prost-types
/// messages (`google.protobuf.*`, the descriptors and the plugin protocol
/// included) are always known and need no registration.
///
/// Writing or reading an `Any` whose type is not registered fails with an
/// error naming the type URL.
///
/// ```ignore
/// protojsonx_runtime::register::<my_pkg::Event>("my.pkg.Event");
/// // or, for all messages of a package:
/// my_pkg::register_protojsonx_types();
/// ```
pub fn register<M>(full_name: &'static str)
where
    M: ProtoJson + Message + Default + 'static,
{
    // The map is valid even if a thread panicked while holding the lock.
    let mut map = REGISTRY.write().unwrap_or_else(PoisonError::into_inner);
    map.insert(full_name, Entry::of::<M>());
}

/// Whether the plain prost-types messages (`wkt::plain`) are in the map.
static PLAIN_REGISTERED: Once = Once::new();

/// The entry for the message named `full_name`: a well-known type, or a
/// registered one. The plain prost-types messages (descriptors, `Type`,
/// `Api`, ...) are registered by the first lookup, through the generated
/// functions that call [`register`]: they too need no registration, and
/// their names resolve to the prost-types messages.
pub(crate) fn lookup(full_name: &str) -> Option<Entry> {
    well_known(full_name).or_else(|| {
        PLAIN_REGISTERED.call_once(|| {
            super::plain::register_protojsonx_types();
            super::plain::compiler::register_protojsonx_types();
        });
        let map = REGISTRY.read().unwrap_or_else(PoisonError::into_inner);
        map.get(full_name).copied()
    })
}

/// The entries of the well-known types, which are always resolvable.
fn well_known(full_name: &str) -> Option<Entry> {
    use prost_types::{Any, Duration, FieldMask, ListValue, Struct, Timestamp, Value};
    Some(match full_name.strip_prefix("google.protobuf.")? {
        "Any" => Entry::of::<Any>(),
        "Timestamp" => Entry::of::<Timestamp>(),
        "Duration" => Entry::of::<Duration>(),
        "FieldMask" => Entry::of::<FieldMask>(),
        "Struct" => Entry::of::<Struct>(),
        "Value" => Entry::of::<Value>(),
        "ListValue" => Entry::of::<ListValue>(),
        "Empty" => Entry::of::<()>(),
        "BoolValue" => Entry::of::<bool>(),
        "Int32Value" => Entry::of::<i32>(),
        "Int64Value" => Entry::of::<i64>(),
        "UInt32Value" => Entry::of::<u32>(),
        "UInt64Value" => Entry::of::<u64>(),
        "FloatValue" => Entry::of::<f32>(),
        "DoubleValue" => Entry::of::<f64>(),
        "StringValue" => Entry::of::<String>(),
        "BytesValue" => Entry::of::<Vec<u8>>(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_known_types_are_always_known() {
        for name in [
            "Any",
            "Timestamp",
            "Duration",
            "FieldMask",
            "Struct",
            "Value",
            "ListValue",
            "Empty",
            "BoolValue",
            "Int32Value",
            "Int64Value",
            "UInt32Value",
            "UInt64Value",
            "FloatValue",
            "DoubleValue",
            "StringValue",
            "BytesValue",
        ] {
            assert!(
                lookup(&format!("google.protobuf.{name}")).is_some(),
                "{name}"
            );
        }
        assert!(lookup("google.protobuf.NullValue").is_none());
        assert!(lookup("google.protobuf.Api").is_some());
        assert!(lookup("google.protobuf.compiler.CodeGeneratorRequest").is_some());
        assert!(lookup("google.protobuf.DescriptorProto.ExtensionRange").is_some());
        assert!(lookup("Timestamp").is_none());
    }

    #[test]
    fn registration_is_idempotent() {
        assert!(lookup("registry.test.Point").is_none());
        register::<prost_types::Timestamp>("registry.test.Point");
        register::<prost_types::Timestamp>("registry.test.Point");
        assert!(lookup("registry.test.Point").is_some());
    }
}
