//! Options for encoding and decoding. The entry points that take them are
//! with the encoder ([`ser`](crate::ser): `to_vec`, `encode_into`, ...) and
//! the decoder ([`de`](crate::de): `from_slice`, `decode_into`, ...).

use crate::wkt::TypeRegistry;

/// How messages are written as ProtoJSON. The default is the spec's default output.
///
/// ```
/// use protojsonx_runtime::EncodeOptions;
/// use prost_types::Duration;
///
/// # fn main() -> Result<(), protojsonx_runtime::Error> {
/// let opts = EncodeOptions::new().use_proto_names(true).enums_as_ints(true);
/// let mut buf = Vec::new();
/// for seconds in [1, 2] {
///     buf.clear(); // one buffer, reused: no allocation once it has grown
///     opts.encode_into(&Duration { seconds, nanos: 0 }, &mut buf)?;
/// }
/// assert_eq!(buf, br#""2s""#);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EncodeOptions {
    pub(crate) use_proto_names: bool,
    pub(crate) emit_default_values: bool,
    pub(crate) emit_unpopulated: bool,
    pub(crate) enums_as_ints: bool,
    pub(crate) ensure_ascii: bool,
    /// Spaces per level when pretty-printing; `None` for compact output.
    pub(crate) indent: Option<u8>,
    pub(crate) registry: Registry,
}

impl EncodeOptions {
    /// The spec's defaults: compact output, lowerCamelCase JSON names,
    /// fields at their default value left out, enums by name, non-ASCII
    /// text as UTF-8, `Any` resolved through the global registry.
    pub const fn new() -> Self {
        EncodeOptions {
            use_proto_names: false,
            emit_default_values: false,
            emit_unpopulated: false,
            enums_as_ints: false,
            ensure_ascii: false,
            indent: None,
            registry: Registry(None),
        }
    }

    /// Writes keys as the field names in the .proto file (`user_id`) instead
    /// of their JSON names (`userId`). Go's `UseProtoNames`, Python's
    /// `preserving_proto_field_name`.
    #[doc(alias = "UseProtoNames")]
    #[doc(alias = "preserving_proto_field_name")]
    pub const fn use_proto_names(mut self, yes: bool) -> Self {
        self.use_proto_names = yes;
        self
    }

    /// Writes the fields that have no presence even when they hold their
    /// default value: proto3 scalars and enums without `optional` (`0`,
    /// `false`, `""`), repeated fields (`[]`) and maps (`{}`). Fields with
    /// presence (messages, oneof members, `optional` and proto2 fields) are
    /// still written only when set, so the output keeps what presence says.
    ///
    /// This is Go's `EmitDefaultValues` and Python's
    /// `always_print_fields_with_no_presence`. (Before 0.2 this option was
    /// called `emit_unpopulated`, which now means Go's option of that name.)
    #[doc(alias = "EmitDefaultValues")]
    #[doc(alias = "always_print_fields_with_no_presence")]
    pub const fn emit_default_values(mut self, yes: bool) -> Self {
        self.emit_default_values = yes;
        self
    }

    /// Writes every field that is not set, as Go's `EmitUnpopulated` does:
    /// what [`emit_default_values`](Self::emit_default_values) writes, and
    /// `null` for unset message fields and proto2 `optional` fields. Members
    /// of a oneof (proto3 `optional` fields included, whose presence is a
    /// oneof of one) stay out when unset, as in Go. Reading the output back
    /// gives the same message, except that a `google.protobuf.Value` field
    /// written as `null` reads back as a `Value` holding `null`.
    ///
    /// ```
    /// use protojsonx_runtime::EncodeOptions;
    /// use prost_types::Api;
    ///
    /// # fn main() -> Result<(), protojsonx_runtime::Error> {
    /// let api = Api { name: "a".into(), ..Default::default() };
    /// let python = EncodeOptions::new().emit_default_values(true);
    /// assert_eq!(
    ///     python.to_string(&api)?,
    ///     r#"{"name":"a","methods":[],"options":[],"version":"","mixins":[],"syntax":"SYNTAX_PROTO2"}"#
    /// );
    /// let go = EncodeOptions::new().emit_unpopulated(true);
    /// assert_eq!(
    ///     go.to_string(&api)?,
    ///     r#"{"name":"a","methods":[],"options":[],"version":"","sourceContext":null,"mixins":[],"syntax":"SYNTAX_PROTO2"}"#
    /// );
    /// # Ok(())
    /// # }
    /// ```
    #[doc(alias = "EmitUnpopulated")]
    pub const fn emit_unpopulated(mut self, yes: bool) -> Self {
        self.emit_unpopulated = yes;
        self
    }

    /// Writes enum values as numbers instead of names. Go's
    /// `UseEnumNumbers`, Python's `use_integers_for_enums`.
    #[doc(alias = "UseEnumNumbers")]
    #[doc(alias = "use_integers_for_enums")]
    pub const fn enums_as_ints(mut self, yes: bool) -> Self {
        self.enums_as_ints = yes;
        self
    }

    /// Pretty-prints: every member of an object and element of an array on
    /// its own line, indented by `spaces` per level (0: new lines only, as
    /// Python's `indent=0`), `"key": value` with a space after the colon;
    /// empty objects and arrays stay `{}` and `[]`, and no newline follows
    /// the last `}`. The same message always gives the same text (Go adds
    /// random spaces to stop programs relying on its output; this does
    /// not). Python's `indent`; decoding reads any whitespace.
    ///
    /// ```
    /// use protojsonx_runtime::EncodeOptions;
    /// use prost_types::{ListValue, Struct, Value};
    ///
    /// # fn main() -> Result<(), protojsonx_runtime::Error> {
    /// let object: Struct = protojsonx_runtime::from_str(r#"{"a": [1, {}], "b": []}"#)?;
    /// let json = EncodeOptions::new().indent(2).to_string(&object)?;
    /// assert_eq!(json, "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": []\n}");
    /// # Ok(())
    /// # }
    /// ```
    #[doc(alias = "Indent")]
    #[doc(alias = "pretty")]
    pub const fn indent(mut self, spaces: u8) -> Self {
        self.indent = Some(spaces);
        self
    }

    /// Go's `Multiline`: `true` pretty-prints with Go's default indent of
    /// two spaces (or keeps an [`indent`](Self::indent) set before); `false`
    /// writes compact output, the default.
    #[doc(alias = "Multiline")]
    pub const fn multiline(mut self, yes: bool) -> Self {
        self.indent = match (yes, self.indent) {
            (false, _) => None,
            (true, Some(spaces)) => Some(spaces),
            (true, None) => Some(2),
        };
        self
    }

    /// Writes only ASCII: every character outside it is escaped as `\uXXXX`
    /// (lowercase hex; a surrogate pair above U+FFFF), in strings and keys
    /// alike, for channels that are not 8-bit clean. Python's `ensure_ascii`,
    /// which its `MessageToJson` turns on by default; here UTF-8 is the
    /// default, as in Go and C++.
    ///
    /// ```
    /// use protojsonx_runtime::EncodeOptions;
    /// use prost_types::Value;
    ///
    /// # fn main() -> Result<(), protojsonx_runtime::Error> {
    /// let text: Value = protojsonx_runtime::from_str(r#""café 🍰""#)?;
    /// let json = EncodeOptions::new().ensure_ascii(true).to_string(&text)?;
    /// assert_eq!(json, r#""caf\u00e9 \ud83c\udf70""#);
    /// # Ok(())
    /// # }
    /// ```
    pub const fn ensure_ascii(mut self, yes: bool) -> Self {
        self.ensure_ascii = yes;
        self
    }

    /// Resolves the type URLs of `google.protobuf.Any` values against
    /// `registry` instead of the global registry (see [`TypeRegistry`]).
    /// Go's `Resolver`, Python's `descriptor_pool`.
    #[doc(alias = "Resolver")]
    #[doc(alias = "descriptor_pool")]
    pub const fn type_registry(mut self, registry: &'static TypeRegistry) -> Self {
        self.registry = Registry(Some(registry));
        self
    }
}

/// How ProtoJSON is read into messages. The default is the spec's default parser.
///
/// ```
/// use protojsonx_runtime::{DecodeOptions, ErrorKind};
/// use prost_types::Value;
///
/// let opts = DecodeOptions::new().max_depth(2);
/// assert!(opts.from_str::<Value>("[[1]]").is_ok());
/// let err = opts.from_str::<Value>("[[[1]]]").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::DepthLimit);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeOptions {
    pub(crate) ignore_unknown_fields: bool,
    pub(crate) allow_partial: bool,
    pub(crate) max_depth: u32,
    pub(crate) registry: Registry,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl DecodeOptions {
    /// The spec's defaults: unknown fields are errors, so are missing
    /// proto2 `required` fields; nesting is limited to 100 levels; `Any` is
    /// resolved through the global registry.
    pub const fn new() -> Self {
        DecodeOptions {
            ignore_unknown_fields: false,
            allow_partial: false,
            max_depth: 100,
            registry: Registry(None),
        }
    }

    /// Skips object keys that name no field, and enum names the enum does not
    /// have (the field is then left unset), instead of failing. Go's
    /// `DiscardUnknown`, Python's `ignore_unknown_fields`.
    #[doc(alias = "DiscardUnknown")]
    pub const fn ignore_unknown_fields(mut self, yes: bool) -> Self {
        self.ignore_unknown_fields = yes;
        self
    }

    /// Accepts objects of proto2 messages that leave out a `required` field
    /// (the field keeps its default), instead of failing with
    /// [`ErrorKind::MissingField`](crate::ErrorKind::MissingField).
    ///
    /// The check is on by default, as in Go (`AllowPartial: false`) and
    /// C++ (`JsonStringToMessage` transcodes to binary and parses that with
    /// `ParseFromString`, which fails on a missing required field); Python's
    /// `json_format.Parse` does not check (protobuf 7.36: `Parse('{}')` of a
    /// message with a required field succeeds). A required field exists to
    /// make its absence an error, so the default keeps it one. It applies to each
    /// object as it is read: a `required` field must appear in the object
    /// of its message (`null` counts as absent). Merging into a message
    /// whose required fields were set by an earlier decode checks only the
    /// new text. Encoding needs no check: prost stores `required` fields as
    /// plain values, which are always present and always written.
    ///
    /// ```
    /// use protojsonx_runtime::{DecodeOptions, ErrorKind, ProtoJson};
    /// // descriptor.proto: `required string name_part = 1; required bool is_extension = 2;`
    /// use prost_types::uninterpreted_option::NamePart;
    ///
    /// let err = NamePart::from_json(r#"{"namePart": "x"}"#).unwrap_err();
    /// assert_eq!((err.kind(), err.path_string()), (ErrorKind::MissingField, "isExtension".into()));
    /// let partial = DecodeOptions::new().allow_partial(true);
    /// let part: NamePart = partial.from_str(r#"{"namePart": "x"}"#).unwrap();
    /// assert_eq!((part.name_part.as_str(), part.is_extension), ("x", false));
    /// ```
    #[doc(alias = "AllowPartial")]
    pub const fn allow_partial(mut self, yes: bool) -> Self {
        self.allow_partial = yes;
        self
    }

    /// The deepest nesting of objects and arrays accepted (default 100).
    /// Decoding recurses once per level, so this also bounds stack use.
    #[doc(alias = "RecursionLimit")]
    #[doc(alias = "max_recursion_depth")]
    pub const fn max_depth(mut self, depth: u32) -> Self {
        self.max_depth = depth;
        self
    }

    /// Resolves the `@type` of `google.protobuf.Any` values against
    /// `registry` instead of the global registry (see [`TypeRegistry`]).
    /// Go's `Resolver`, Python's `descriptor_pool`.
    #[doc(alias = "Resolver")]
    #[doc(alias = "descriptor_pool")]
    pub const fn type_registry(mut self, registry: &'static TypeRegistry) -> Self {
        self.registry = Registry(Some(registry));
        self
    }
}

/// The type registry the options name, if any; options are equal when they
/// name the same registry (or none).
#[derive(Clone, Copy, Default)]
pub(crate) struct Registry(pub(crate) Option<&'static TypeRegistry>);

impl PartialEq for Registry {
    fn eq(&self, other: &Self) -> bool {
        match (self.0, other.0) {
            (Some(a), Some(b)) => std::ptr::eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

impl Eq for Registry {}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(registry) => write!(f, "{registry:?}"),
            None => f.write_str("global"),
        }
    }
}
