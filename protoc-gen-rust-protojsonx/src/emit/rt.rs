//! The runtime contract: the only place the emitter spells paths into
//! `protojsonx-runtime`. Generated code reaches the runtime through its public
//! `ProtoJson` trait and its `#[doc(hidden)]` module `__private`, nothing else.

use proc_macro2::TokenStream;
use quote::quote;

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

/// The trait every enum implements.
pub fn json_enum() -> TokenStream {
    quote!(::protojsonx_runtime::__private::JsonEnum)
}

/// The function that adds a message type to the `Any` registry.
pub fn register() -> TokenStream {
    quote!(::protojsonx_runtime::register)
}
