//! `read_json` bodies: one `match` on the key, an arm per field accepting both
//! its JSON name and its proto name, duplicate and oneof checks, and `null`
//! meaning "not set" except for `Value` and `NullValue`.

use std::collections::HashSet;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{ident, path};
use crate::model::{Field, Kind, Message, Shape};

/// The statements of `read_json` for `message`.
pub fn body(message: &Message) -> TokenStream {
    if message.fields.is_empty() {
        return quote!(d.read_object(|d, key| d.unknown_field(key)));
    }
    let slots = Literal::usize_unsuffixed(message.fields.len() + message.oneofs.len());
    let mut used = HashSet::new();
    let arms = message
        .fields
        .iter()
        .enumerate()
        .map(|(index, field)| arm(message, index, field, &mut used));
    let arms: Vec<_> = arms.collect();
    quote! {
        let mut seen = [false; #slots];
        d.read_object(|d, key| {
            match key {
                #(#arms)*
                _ => d.unknown_field(key)?,
            }
            ::core::result::Result::Ok(())
        })
    }
}

/// The match arm of one field. Keys already used by an earlier field are left
/// out, so that no pattern is unreachable.
fn arm(message: &Message, index: usize, field: &Field, used: &mut HashSet<String>) -> TokenStream {
    let names = [&field.json_name, &field.proto_name];
    let patterns: Vec<_> = names
        .into_iter()
        .filter(|name| used.insert(name.to_string()))
        .map(|name| Literal::byte_string(name.as_bytes()))
        .collect();
    if patterns.is_empty() {
        return TokenStream::new();
    }
    let slot = Literal::usize_unsuffixed(index);
    let (kind, read) = read_field(message, field);
    let read = if kind.null_is_value() {
        read
    } else {
        quote! {
            if !d.take_null() {
                #read
            }
        }
    };
    quote! {
        #(#patterns)|* => {
            d.mark_seen(&mut seen[#slot])?;
            #read
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
                _ => {
                    let value = read_value(kind);
                    quote!(d.read_list(&mut self.#name, |d| #value)?;)
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
                    let value = read_value(kind);
                    quote!(d.read_map(&mut self.#name, |d| #value)?;)
                }
            };
            (kind, read)
        }
        Shape::OneofMember { oneof: index, kind } => {
            let oneof = &message.oneofs[*index];
            let field_name = ident(&oneof.rust_name);
            let variant = path(&format!("{}::{}", oneof.rust_enum, field.rust_name));
            let oneof_name = &oneof.proto_name;
            let slot = Literal::usize_unsuffixed(message.fields.len() + index);
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
                d.mark_oneof(&mut seen[#slot], #oneof_name)?;
                #set
            };
            (kind, read)
        }
    }
}

/// The call reading one value of a non-enum kind, as a `Result`.
fn read_value(kind: &Kind) -> TokenStream {
    match kind {
        Kind::Bool => quote!(d.read_bool()),
        Kind::I32 => quote!(d.read_i32()),
        Kind::U32 => quote!(d.read_u32()),
        Kind::I64 => quote!(d.read_i64()),
        Kind::U64 => quote!(d.read_u64()),
        Kind::F32 => quote!(d.read_f32()),
        Kind::F64 => quote!(d.read_f64()),
        Kind::String => quote!(d.read_string()),
        Kind::Bytes => quote!(d.read_bytes()),
        Kind::Message { .. } => quote!(d.new_message()),
        Kind::Enum { .. } => unreachable!("enums are read with read_enum"),
    }
}
