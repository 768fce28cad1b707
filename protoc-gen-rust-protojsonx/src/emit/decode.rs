//! `read_json` bodies: the field keys as the encoder writes them (matched
//! speculatively in declaration order), a lookup from either spelling of a
//! key to the field's index, and a `match` on that index with an arm per
//! field; oneof checks, proto2 `required` fields noted as they are read and
//! checked at the end, and `null` meaning "not set" except for `Value` and
//! `NullValue`. Duplicates, unknown keys and error paths are the runtime's.

use std::collections::HashSet;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use super::{FieldKeys, ident, path, rt};
use crate::model::{Field, Kind, Message, Shape};

/// The statements of `read_json` for `message`.
pub fn body(message: &Message) -> TokenStream {
    if message.fields.is_empty() {
        return quote!(d.read_object(|d, key| d.unknown_field(key)));
    }
    let keys = message.fields.iter().map(|field| {
        let keys = FieldKeys::of(field).for_decoder();
        quote!((#keys))
    });
    let lookup = lookup(message);
    let required: Vec<&Field> = message
        .fields
        .iter()
        .filter(|f| matches!(f.shape, Shape::Required(_)))
        .collect();
    let arms: Vec<_> = message
        .fields
        .iter()
        .enumerate()
        .map(|(index, field)| {
            let (kind, mut read) = read_field(message, field);
            if let Some(slot) = required.iter().position(|r| std::ptr::eq(*r, field)) {
                let slot = Literal::usize_unsuffixed(slot);
                read = quote!(required[#slot] = true; #read);
            }
            // `null` means "not set" (the field is left as it is) except for
            // the kinds whose values include it; an absent field skips it.
            let null_unsets = !kind.null_is_value() && !matches!(field.shape, Shape::Absent(_));
            (index, null_unsets, read)
        })
        .collect();
    let dispatch = dispatch(&arms);
    let oneofs = (!message.oneofs.is_empty()).then(|| {
        let count = Literal::usize_unsuffixed(message.oneofs.len());
        quote!(let mut seen_oneofs = [false; #count];)
    });
    let read_fields = quote! {
        d.read_fields(
            &[#(#keys),*],
            |key| #lookup,
            |d, field| {
                #dispatch
                ::core::result::Result::Ok(())
            },
        )
    };
    if required.is_empty() {
        return quote!(#oneofs #read_fields);
    }
    let count = Literal::usize_unsuffixed(required.len());
    let names = required.iter().map(|f| &f.json_name);
    quote! {
        #oneofs
        let start = d.offset();
        let mut required = [false; #count];
        #read_fields?;
        d.check_required(start, &required, &[#(#names),*])
    }
}

/// Runs the statements of the field at index `field`: a `match` with an arm
/// per field, each `(index, null_unsets, read)`; a field whose `null` means
/// "not set" reads nothing for it (the arm is guarded, `_` takes it). One
/// field gets an `if` (clippy's `single_match`).
fn dispatch(arms: &[(usize, bool, TokenStream)]) -> TokenStream {
    let guard = |null_unsets: bool| null_unsets.then(|| quote!(if !d.take_null()));
    if let [(_, null_unsets, read)] = arms {
        let condition = null_unsets.then(|| quote!(&&!d.take_null()));
        return quote! {
            if field == 0 #condition {
                #read
            }
        };
    }
    let arms = arms.iter().map(|(index, null_unsets, read)| {
        let index = Literal::usize_unsuffixed(*index);
        let guard = guard(*null_unsets);
        quote!(#index #guard => { #read })
    });
    quote! {
        match field {
            #(#arms)*
            _ => {}
        }
    }
}

/// The `match` from a key (either spelling, unquoted) to its field's index.
/// A spelling already used by an earlier field is left out, so that no
/// pattern is unreachable; the earlier field wins, as protoc requires the
/// names to be distinct anyway.
fn lookup(message: &Message) -> TokenStream {
    let mut used = HashSet::new();
    let arms = message
        .fields
        .iter()
        .enumerate()
        .filter_map(|(index, field)| {
            let patterns: Vec<_> = [&field.json_name, &field.proto_name]
                .into_iter()
                .filter(|name| used.insert(name.to_string()))
                .map(|name| Literal::byte_string(name.as_bytes()))
                .collect();
            let index = Literal::usize_unsuffixed(index);
            (!patterns.is_empty())
                .then(|| quote!(#(#patterns)|* => ::core::option::Option::Some(#index),))
        });
    quote! {
        match key {
            #(#arms)*
            _ => ::core::option::Option::None,
        }
    }
}

/// The statements storing a field's value, and the kind of its values.
fn read_field<'m>(message: &'m Message, field: &'m Field) -> (&'m Kind, TokenStream) {
    let name = ident(&field.rust_name);
    match &field.shape {
        Shape::Implicit(kind) | Shape::Required(kind) => {
            let read = match kind {
                Kind::Enum { rust_path, .. } => {
                    let ty = path(rust_path);
                    quote! {
                        if let ::core::option::Option::Some(v) = d.read_enum::<#ty>()? {
                            self.#name = v;
                        }
                    }
                }
                Kind::Message { .. } => quote!(d.read_message(&mut self.#name)?;),
                _ => {
                    let value = read_value(kind);
                    quote!(self.#name = #value?;)
                }
            };
            (kind, read)
        }
        Shape::Optional(kind) => {
            let read = match kind {
                Kind::Enum { rust_path, .. } => {
                    let ty = path(rust_path);
                    quote! {
                        if let ::core::option::Option::Some(v) = d.read_enum::<#ty>()? {
                            self.#name = ::core::option::Option::Some(v);
                        }
                    }
                }
                Kind::Message { .. } => quote! {
                    d.read_message(self.#name.get_or_insert_with(::core::default::Default::default))?;
                },
                _ => {
                    let value = read_value(kind);
                    quote!(self.#name = ::core::option::Option::Some(#value?);)
                }
            };
            (kind, read)
        }
        Shape::Repeated(kind) => {
            let read = match kind {
                Kind::Enum { rust_path, .. } => {
                    let ty = path(rust_path);
                    quote!(d.read_enum_list::<#ty>(&mut self.#name)?;)
                }
                Kind::Message { .. } => quote!(d.read_message_list(&mut self.#name)?;),
                _ => {
                    let read = read_fn(kind);
                    quote!(d.read_list(&mut self.#name, #read)?;)
                }
            };
            (kind, read)
        }
        Shape::Map { value: kind, .. } => {
            let read = match kind {
                Kind::Enum { rust_path, .. } => {
                    let ty = path(rust_path);
                    quote!(d.read_enum_map::<_, #ty>(&mut self.#name)?;)
                }
                _ => {
                    let read = read_fn(kind);
                    quote!(d.read_map(&mut self.#name, #read)?;)
                }
            };
            (kind, read)
        }
        Shape::Absent(kind) => (kind, quote!(d.skip_value()?;)),
        Shape::OneofMember { oneof: index, kind } => {
            let oneof = &message.oneofs[*index];
            let field_name = ident(&oneof.rust_name);
            let variant = path(&format!("{}::{}", oneof.rust_enum, field.rust_name));
            let oneof_name = &oneof.proto_name;
            let slot = Literal::usize_unsuffixed(*index);
            let set = match kind {
                Kind::Enum { rust_path, .. } => {
                    let ty = path(rust_path);
                    quote! {
                        if let ::core::option::Option::Some(v) = d.read_enum::<#ty>()? {
                            self.#field_name = ::core::option::Option::Some(#variant(v));
                        }
                    }
                }
                _ => {
                    let value = read_value(kind);
                    quote!(self.#field_name = ::core::option::Option::Some(#variant(#value?));)
                }
            };
            let read = quote! {
                d.mark_oneof(&mut seen_oneofs[#slot], #oneof_name)?;
                #set
            };
            (kind, read)
        }
    }
}

/// The call reading one value of a non-enum kind, as a `Result`.
fn read_value(kind: &Kind) -> TokenStream {
    let method = reader(kind);
    quote!(d.#method())
}

/// The decoder method reading one value of a non-enum kind, as a path, for
/// the readers of lists and maps: one instance of theirs per kind, where a
/// closure would make one per field.
fn read_fn(kind: &Kind) -> TokenStream {
    let decoder = rt::decoder();
    let method = reader(kind);
    quote!(#decoder::#method)
}

/// The name of the decoder method reading one value of a non-enum kind.
fn reader(kind: &Kind) -> Ident {
    let name = match kind {
        Kind::Bool => "read_bool",
        Kind::I32 => "read_i32",
        Kind::U32 => "read_u32",
        Kind::I64 => "read_i64",
        Kind::U64 => "read_u64",
        Kind::F32 => "read_f32",
        Kind::F64 => "read_f64",
        Kind::String => "read_string",
        Kind::Bytes => "read_bytes",
        Kind::Message { .. } => "new_message",
        Kind::Enum { .. } => unreachable!("enums are read with read_enum"),
    };
    Ident::new(name, Span::call_site())
}
