//! The type registry: how a `google.protobuf.Any` finds the Rust type of the
//! message it holds.
//!
//! An `Any` carries a type URL and the binary encoding of a message. To write
//! it as ProtoJSON the message must be decoded and written as JSON, and to
//! read it the JSON must be read into a message and encoded, so the runtime
//! needs, for each full message name, code monomorphised for the Rust type.
//! A [`TypeRegistry`] maps full names to such [`Entry`]s. There is a
//! process-wide one, which generated code fills through [`register_with`]
//! (each package gets a `register_protojsonx_types()` function), and the
//! options may name another per call; the well-known types are always
//! resolvable without registration.

use std::cell::Cell;
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{LazyLock, PoisonError, RwLock};

use prost::Message;

use super::any;
use crate::ProtoJson;
use crate::de::Decoder;
use crate::error::Error;
use crate::ser::Encoder;
use crate::text::scan;

/// What the registry holds for one message type: its `Any` codecs.
#[derive(Clone, Copy)]
pub struct Entry {
    /// Decodes `Any.value` as the message and writes the whole `Any` object,
    /// given the type URL to write as `@type`.
    pub write: fn(&mut Encoder<'_>, &str, &[u8]),
    /// Reads the `Any` object at the decoder's position, whose `@type` named
    /// this type, and stores the binary encoding of the message in it in the
    /// `Vec` (replacing its bytes, keeping its memory). The `usize` is the
    /// object's offset, for errors about it as a whole.
    pub read: fn(&mut Decoder<'_>, usize, &mut Vec<u8>) -> Result<(), Error>,
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

/// A set of message types that `google.protobuf.Any` values may hold, by
/// full protobuf name: what an `Any`'s type URL is resolved against.
///
/// There is one process-wide registry, filled by [`register`] and the
/// generated `register_protojsonx_types()` functions, and used unless the
/// options name another. A registry of your own, given to
/// [`EncodeOptions::type_registry`](crate::EncodeOptions::type_registry) and
/// [`DecodeOptions::type_registry`](crate::DecodeOptions::type_registry),
/// decides per call which types resolve, with no global state: a library can
/// keep its types to itself, a test can run with exactly the types it names,
/// and a service can accept different types on different endpoints. The
/// generated `register_protojsonx_types_in(&mut registry)` (and the module
/// tree's `register_all_protojsonx_types_in`) fill one. In either registry
/// the well-known types and the other prost-types messages always resolve.
///
/// The options hold a `&'static TypeRegistry` so that they stay `Copy`:
/// build it once, in a `static` (`LazyLock`) or with `Box::leak`.
///
/// ```
/// use std::sync::LazyLock;
/// use protojsonx_runtime::{DecodeOptions, EncodeOptions, TypeRegistry};
/// use prost::Message;
/// use prost_types::{Any, Timestamp};
///
/// // A type of yours (here a prost-types one) under its own name.
/// static TYPES: LazyLock<TypeRegistry> = LazyLock::new(|| {
///     let mut types = TypeRegistry::new();
///     types.register::<Timestamp>("example.Time");
///     types
/// });
///
/// # fn main() -> Result<(), protojsonx_runtime::Error> {
/// let time = Timestamp { seconds: 1, nanos: 0 };
/// let any = Any { type_url: "type.googleapis.com/example.Time".into(), value: time.encode_to_vec() };
/// let json = EncodeOptions::new().type_registry(&TYPES).to_string(&any)?;
/// assert_eq!(json, r#"{"@type":"type.googleapis.com/example.Time","value":"1970-01-01T00:00:01Z"}"#);
/// let back: Any = DecodeOptions::new().type_registry(&TYPES).from_str(&json)?;
/// assert_eq!(back, any);
/// // The global registry does not know the name.
/// assert!(protojsonx_runtime::to_string(&any).is_err());
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Default)]
pub struct TypeRegistry {
    entries: HashMap<&'static str, Entry>,
}

impl TypeRegistry {
    /// An empty registry: only the prost-types messages resolve.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the message type `M` under its full protobuf name (like
    /// `"my.pkg.Event"` or `"my.pkg.Outer.Inner"`). Adding a name again
    /// replaces its type.
    pub fn register<M>(&mut self, full_name: &'static str) -> &mut Self
    where
        M: ProtoJson + Message + Default + 'static,
    {
        self.entries.insert(full_name, Entry::of::<M>());
        self
    }

    /// Whether a type was added under `full_name` (the prost-types messages,
    /// which always resolve, are not counted).
    pub fn contains(&self, full_name: &str) -> bool {
        self.entries.contains_key(full_name)
    }

    /// How many types were added.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no type was added.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl fmt::Debug for TypeRegistry {
    /// The names, sorted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<_> = self.entries.keys().collect();
        names.sort_unstable();
        f.debug_set().entries(names).finish()
    }
}

/// The process-wide registry, used when the options name none.
static GLOBAL: LazyLock<RwLock<TypeRegistry>> = LazyLock::new(Default::default);

/// The plain prost-types messages (descriptors, `Type`, `Api`, ...), which
/// resolve in every registry, to the prost-types structs.
static PLAIN: LazyLock<TypeRegistry> = LazyLock::new(|| {
    let mut plain = TypeRegistry::new();
    super::plain::register_protojsonx_types_in(&mut plain);
    super::plain::compiler::register_protojsonx_types_in(&mut plain);
    plain
});

/// Registers the message type `M` in the process-wide registry under its
/// full protobuf name (the package and the message name, like
/// `"my.pkg.Event"` or `"my.pkg.Outer.Inner"`), so that a
/// `google.protobuf.Any` holding an `M` can be written and read as
/// ProtoJSON: `{"@type": "type.googleapis.com/my.pkg.Event", ...fields}`.
///
/// The generator emits, in each package's module, a function
/// `register_protojsonx_types()` that registers all of the package's
/// messages; call it once at startup for every package whose messages may
/// appear in an `Any` (or the module tree's `register_all_protojsonx_types()`
/// for all of them). Registering again (the same or another type under the
/// same name) is harmless: the last registration wins. The prost-types
/// messages (`google.protobuf.*`, the descriptors and the plugin protocol
/// included) are always known and need no registration. To keep types out
/// of global state, fill a [`TypeRegistry`] and pass it in the options.
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
    register_with(|types| {
        types.register::<M>(full_name);
    });
}

/// Runs `add` on the process-wide registry, under its lock: how the
/// generated `register_protojsonx_types()` registers a package's messages at once.
pub fn register_with(add: impl FnOnce(&mut TypeRegistry)) {
    // The map is valid even if a thread panicked while holding the lock.
    let mut global = GLOBAL.write().unwrap_or_else(PoisonError::into_inner);
    add(&mut global);
    // After the change (and before the lock is released): a lookup reads
    // the generation before the map, so an entry remembered with a
    // generation comes from the map as it was then or later, and stays
    // right until the next bump.
    GENERATION.fetch_add(1, Ordering::Release);
}

/// The entry for the message named `full_name`: a well-known type, one in
/// `registry` (the process-wide one when `None`), or a plain prost-types message.
pub(crate) fn lookup(full_name: &str, registry: Option<&'static TypeRegistry>) -> Option<Entry> {
    well_known(full_name)
        .or_else(|| added(full_name, registry))
        .or_else(|| PLAIN.entries.get(full_name).copied())
}

/// Bumped by every change to the process-wide registry: what tells a
/// thread's [`LAST`] lookup in it from a stale one.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// A type found in a registry by name, remembered by the thread that looked
/// it up.
#[derive(Clone, Copy)]
struct Found {
    /// The registry's address; 0 for the process-wide one.
    registry: usize,
    /// [`GENERATION`] when it was found in the process-wide registry.
    generation: u64,
    name: &'static str,
    entry: Entry,
}

thread_local! {
    /// The thread's last type found in a registry. Payloads tend to hold
    /// `Any`s of one type, so the next lookup is likely the same name, and
    /// comparing it costs less than hashing it (SipHash) and taking the
    /// global registry's lock (`order`, which holds an `Any`, guards it).
    static LAST: Cell<Option<Found>> = const { Cell::new(None) };
}

/// The type added under `full_name` to `registry` (the process-wide one
/// when `None`). A registry the options name is `'static`, so it is never
/// changed or freed and its address identifies it.
fn added(full_name: &str, registry: Option<&'static TypeRegistry>) -> Option<Entry> {
    let address = registry.map_or(0, |types| std::ptr::from_ref(types) as usize);
    let generation = GENERATION.load(Ordering::Acquire);
    let last = LAST.with(Cell::get);
    // Names are short: compared a word at a time, not through `memcmp`.
    let same_name = |name: &str| {
        name.len() == full_name.len() && scan::starts_with(full_name.as_bytes(), name.as_bytes())
    };
    if let Some(last) = last.filter(|last| {
        last.registry == address && last.generation == generation && same_name(last.name)
    }) {
        return Some(last.entry);
    }
    let get = |types: &TypeRegistry| {
        types
            .entries
            .get_key_value(full_name)
            .map(|(&k, &v)| (k, v))
    };
    let (name, entry) = match registry {
        Some(types) => get(types),
        None => get(&GLOBAL.read().unwrap_or_else(PoisonError::into_inner)),
    }?;
    let found = Found {
        registry: address,
        generation,
        name,
        entry,
    };
    LAST.with(|last| last.set(Some(found)));
    Some(entry)
}

/// The entries of the well-known types, which are always resolvable. Part
/// of the contract with the dynamic transcoder, which packs them in `Any`s
/// as the generated code does.
pub fn well_known(full_name: &str) -> Option<Entry> {
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
                lookup(&format!("google.protobuf.{name}"), None).is_some(),
                "{name}"
            );
        }
        assert!(lookup("google.protobuf.NullValue", None).is_none());
        assert!(lookup("google.protobuf.Api", None).is_some());
        assert!(lookup("google.protobuf.compiler.CodeGeneratorRequest", None).is_some());
        assert!(lookup("google.protobuf.DescriptorProto.ExtensionRange", None).is_some());
        assert!(lookup("Timestamp", None).is_none());
    }

    #[test]
    fn a_name_registered_again_resolves_to_its_new_type() {
        use crate::EncodeOptions;
        // One second, as a Timestamp or as a Duration: the same bytes.
        let any = prost_types::Any {
            type_url: "type.googleapis.com/registry.test.Changed".into(),
            value: prost_types::Duration {
                seconds: 1,
                nanos: 0,
            }
            .encode_to_vec(),
        };
        let value = |opts: EncodeOptions| {
            let json = opts.to_string(&any).expect("registered");
            json[json.find("\"value\":").expect("a value")..].to_string()
        };
        register::<prost_types::Timestamp>("registry.test.Changed");
        assert_eq!(
            value(EncodeOptions::new()),
            r#""value":"1970-01-01T00:00:01Z"}"#
        );
        // Again: the thread's remembered entry.
        assert_eq!(
            value(EncodeOptions::new()),
            r#""value":"1970-01-01T00:00:01Z"}"#
        );
        register::<prost_types::Duration>("registry.test.Changed");
        assert_eq!(
            value(EncodeOptions::new()),
            r#""value":"1s"}"#,
            "a stale entry"
        );
        // A registry of its own with the same name is not the global one.
        let mut own = TypeRegistry::new();
        own.register::<prost_types::Timestamp>("registry.test.Changed");
        let own: &'static TypeRegistry = Box::leak(Box::new(own));
        let with_own = EncodeOptions::new().type_registry(own);
        assert_eq!(value(with_own), r#""value":"1970-01-01T00:00:01Z"}"#);
        assert_eq!(value(EncodeOptions::new()), r#""value":"1s"}"#);
        assert_eq!(value(with_own), r#""value":"1970-01-01T00:00:01Z"}"#);
    }

    #[test]
    fn registration_is_idempotent() {
        assert!(lookup("registry.test.Point", None).is_none());
        register::<prost_types::Timestamp>("registry.test.Point");
        register::<prost_types::Timestamp>("registry.test.Point");
        assert!(lookup("registry.test.Point", None).is_some());
    }

    #[test]
    fn a_registry_of_its_own_replaces_the_global_one() {
        let mut own = TypeRegistry::new();
        own.register::<prost_types::Duration>("registry.test.Own");
        let types: &'static TypeRegistry = Box::leak(Box::new(own));
        assert!(lookup("registry.test.Own", Some(types)).is_some());
        assert!(lookup("registry.test.Own", None).is_none());
        register::<prost_types::Duration>("registry.test.GlobalOnly");
        assert!(lookup("registry.test.GlobalOnly", Some(types)).is_none());
        // prost-types messages resolve everywhere.
        let empty = Box::leak(Box::new(TypeRegistry::new()));
        assert!(lookup("google.protobuf.Api", Some(empty)).is_some());
        assert!(lookup("google.protobuf.Duration", Some(empty)).is_some());
        assert_eq!(format!("{types:?}"), r#"{"registry.test.Own"}"#);
        assert_eq!(
            (
                types.len(),
                types.is_empty(),
                types.contains("registry.test.Own")
            ),
            (1, false, true)
        );
    }
}
