//! `write_json` bodies: each field in declaration order, written through the
//! runtime's `ObjectWriter` when it is
//! populated (or always, for fields without presence when the options emit
//! default values; unset fields with presence as `null` under `emit_unpopulated`).

use proc_macro2::TokenStream;
use quote::quote;

use super::{FieldKeys, ident, path};
use crate::model::{Field, Kind, Message, Shape};

/// The statements of `write_json` for `message`.
pub fn body(message: &Message) -> TokenStream {
    let mut written_oneofs = vec![false; message.oneofs.len()];
    let fields = message.fields.iter().filter_map(|field| match field.shape {
        Shape::OneofMember { oneof, .. } => {
            let first = !std::mem::replace(&mut written_oneofs[oneof], true);
            first.then(|| oneof_match(message, oneof))
        }
        _ => Some(field_statement(field)),
    });
    let fields: Vec<_> = fields.collect();
    if fields.is_empty() {
        return quote!(e.object().end(););
    }
    // The object's writer shadows the encoder: it has the same methods, and
    // holds the output's length in a local between writes (the runtime's
    // `ObjectWriter`). The closures of lists and maps get the writer too.
    quote! {
        let mut e = e.object();
        #(#fields)*
        e.end();
    }
}

/// The key of a field, in both spellings. A JSON name outside ASCII (from
/// a `json_name` option) goes through the method that escapes it when the
/// options ask for ASCII only, so that ASCII keys never check.
fn key(field: &Field) -> TokenStream {
    let keys = FieldKeys::of(field).for_encoder();
    if field.json_name.is_ascii() {
        quote!(e.field(#keys);)
    } else {
        quote!(e.field_non_ascii(#keys);)
    }
}

fn field_statement(field: &Field) -> TokenStream {
    let name = ident(&field.rust_name);
    let key = key(field);
    match &field.shape {
        Shape::Implicit(kind) => {
            let populated = populated(kind, quote!(self.#name));
            let write = write_value(kind, quote!(self.#name), false);
            quote! {
                if e.emit_defaults() || #populated {
                    #key
                    #write;
                }
            }
        }
        Shape::Required(kind) => {
            let write = write_value(kind, quote!(self.#name), false);
            quote! { #key #write; }
        }
        Shape::Optional(kind) => {
            let write = write_value(kind, quote!(v), true);
            // Go's `EmitUnpopulated` writes `null` for unset fields with
            // presence, except the members of oneofs (proto3 `optional`).
            let null = (!field.proto3_optional).then(|| {
                let keys = FieldKeys::of(field).for_encoder();
                quote!(else { e.unset_field(#keys); })
            });
            quote! {
                if let ::core::option::Option::Some(v) = &self.#name {
                    #key
                    #write;
                } #null
            }
        }
        Shape::Repeated(kind) => {
            let write = write_value(kind, quote!(v), true);
            quote! {
                if e.emit_defaults() || !self.#name.is_empty() {
                    #key
                    e.list(&self.#name, |e, v| #write);
                }
            }
        }
        Shape::Map { value, .. } => {
            let write = write_value(value, quote!(v), true);
            quote! {
                if e.emit_defaults() || !self.#name.is_empty() {
                    #key
                    e.map(&self.#name, |e, v| #write);
                }
            }
        }
        Shape::OneofMember { .. } => unreachable!("oneof members are written by oneof_match"),
        Shape::Absent(_) => TokenStream::new(),
    }
}

/// One `match` writing whichever member of oneof `index` is set.
fn oneof_match(message: &Message, index: usize) -> TokenStream {
    let oneof = &message.oneofs[index];
    let field_name = ident(&oneof.rust_name);
    let enum_path = path(&oneof.rust_enum);
    let arms = message
        .fields
        .iter()
        .filter_map(|field| match &field.shape {
            Shape::OneofMember { oneof, kind } if *oneof == index => {
                let variant = ident(&field.rust_name);
                let key = key(field);
                let write = write_value(kind, quote!(v), true);
                Some(quote! {
                    ::core::option::Option::Some(#enum_path::#variant(v)) => {
                        #key
                        #write;
                    }
                })
            }
            _ => None,
        });
    quote! {
        match &self.#field_name {
            #(#arms)*
            ::core::option::Option::None => {}
        }
    }
}

/// Whether a field without presence holds something other than its default.
fn populated(kind: &Kind, place: TokenStream) -> TokenStream {
    match kind {
        Kind::Bool => place,
        Kind::I32 | Kind::U32 | Kind::I64 | Kind::U64 | Kind::Enum { .. } => quote!(#place != 0),
        Kind::F32 | Kind::F64 => quote!(#place.to_bits() != 0),
        Kind::String | Kind::Bytes => quote!(!#place.is_empty()),
        Kind::Message { .. } => quote!(true),
    }
}

/// The call writing one value. `value` is a reference when `by_ref`, else a place.
fn write_value(kind: &Kind, value: TokenStream, by_ref: bool) -> TokenStream {
    let copied = if by_ref {
        quote!(*#value)
    } else {
        value.clone()
    };
    let borrowed = if by_ref { value } else { quote!(&#value) };
    match kind {
        Kind::Bool => quote!(e.bool(#copied)),
        Kind::I32 => quote!(e.i32(#copied)),
        Kind::U32 => quote!(e.u32(#copied)),
        Kind::I64 => quote!(e.i64(#copied)),
        Kind::U64 => quote!(e.u64(#copied)),
        Kind::F32 => quote!(e.f32(#copied)),
        Kind::F64 => quote!(e.f64(#copied)),
        Kind::String => quote!(e.string(#borrowed)),
        Kind::Bytes => quote!(e.bytes(#borrowed)),
        Kind::Enum { rust_path, .. } => {
            let ty = path(rust_path);
            quote!(e.enumeration::<#ty>(#copied))
        }
        Kind::Message { .. } => quote!(e.message(#borrowed)),
    }
}
