//! The runtime contract: the only place the emitter spells paths into
//! `protojsonx-runtime`. Generated code reaches the runtime through its public
//! `ProtoJson` trait and its `#[doc(hidden)]` module `__private`, nothing else,
//! and every file checks that the runtime it is compiled with has the
//! contract it was written for ([`contract_check`]).

use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// The number of the runtime contract the emitter writes code for: the
/// runtime's `__private::CONTRACT` of the same release. Bumped with it when
/// an item generated code calls changes. The two cannot drift apart
/// unnoticed: the runtime compiles this generator's code for the plain
/// prost-types messages, which this crate's test `prost_types` keeps fresh.
pub const CONTRACT: u32 = 1;

/// The comment above [`contract_check`] in generated files (prettyplease
/// drops comments, so it is added to the formatted text).
pub const CONTRACT_COMMENT: &str =
    "// Checks at compile time that protojsonx-runtime has the contract this code was made for.\n";

/// The constant that makes a runtime with another contract fail to compile
/// this code with one message saying to regenerate it or to upgrade the runtime.
pub fn contract_check() -> TokenStream {
    let contract = Literal::u32_unsuffixed(CONTRACT);
    quote!(const _: () = ::protojsonx_runtime::__private::check_contract(#contract);)
}

/// The trait every message implements.
pub fn proto_json() -> TokenStream {
    quote!(::protojsonx_runtime::ProtoJson)
}

/// The error type `read_json` returns.
pub fn error() -> TokenStream {
    quote!(::protojsonx_runtime::Error)
}

/// The writer `write_json` writes through.
pub fn encoder() -> TokenStream {
    quote!(::protojsonx_runtime::__private::Encoder)
}

/// The reader `read_json` reads through.
pub fn decoder() -> TokenStream {
    quote!(::protojsonx_runtime::__private::Decoder)
}

/// An object being read by `read_json`, its passes over the fields.
pub fn fields() -> TokenStream {
    quote!(::protojsonx_runtime::__private::Fields)
}

/// Resets a field unless a flag says the input set it (for oneofs, when
/// the decoder replaces).
pub fn reset_unless() -> TokenStream {
    quote!(::protojsonx_runtime::__private::reset_unless)
}

/// The per-type output size hint, a static in every message's impl.
pub fn size_hint() -> TokenStream {
    quote!(::protojsonx_runtime::__private::SizeHint)
}

/// The trait every enum implements.
pub fn json_enum() -> TokenStream {
    quote!(::protojsonx_runtime::__private::JsonEnum)
}

/// The type registry `google.protobuf.Any` resolves type URLs against.
pub fn type_registry() -> TokenStream {
    quote!(::protojsonx_runtime::TypeRegistry)
}

/// The function that fills the global type registry.
pub fn register_with() -> TokenStream {
    quote!(::protojsonx_runtime::register_with)
}

/// Writes a compiled well-known type as its runtime twin.
pub fn write_as() -> TokenStream {
    quote!(::protojsonx_runtime::__private::write_as)
}

/// Reads a compiled well-known type through its runtime twin.
pub fn read_as() -> TokenStream {
    quote!(::protojsonx_runtime::__private::read_as)
}

/// For a well-known type with a special JSON form, the runtime type with the
/// same wire format whose JSON implementation a compiled copy delegates to.
pub fn well_known_twin(full_name: &str) -> Option<TokenStream> {
    let prost_types = quote!(::protojsonx_runtime::__private::prost_types);
    Some(match full_name.strip_prefix("google.protobuf.")? {
        "Any" => quote!(#prost_types::Any),
        "Duration" => quote!(#prost_types::Duration),
        "FieldMask" => quote!(#prost_types::FieldMask),
        "ListValue" => quote!(#prost_types::ListValue),
        "Struct" => quote!(#prost_types::Struct),
        "Timestamp" => quote!(#prost_types::Timestamp),
        "Value" => quote!(#prost_types::Value),
        "Empty" => quote!(()),
        "BoolValue" => quote!(bool),
        "BytesValue" => quote!(::std::vec::Vec<u8>),
        "DoubleValue" => quote!(f64),
        "FloatValue" => quote!(f32),
        "Int32Value" => quote!(i32),
        "Int64Value" => quote!(i64),
        "StringValue" => quote!(::std::string::String),
        "UInt32Value" => quote!(u32),
        "UInt64Value" => quote!(u64),
        _ => return None,
    })
}

/// The runtime's serde helpers (`serialize`, `deserialize`), behind its `serde` feature.
pub fn serde_helpers() -> TokenStream {
    quote!(::protojsonx_runtime::serde)
}

/// The serde crate as the runtime re-exports it, so users need not depend on it.
pub fn serde_crate() -> TokenStream {
    quote!(::protojsonx_runtime::serde::__serde)
}
