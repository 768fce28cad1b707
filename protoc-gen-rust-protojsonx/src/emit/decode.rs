//! `read_json` bodies: the field keys as the encoder writes them, a lookup
//! from either spelling of a key to the field's index, and a pass over the
//! fields in declaration order (a function inlined by force), each field
//! asking whether its key is next and reading its value if so, repeated
//! while keys come out of order; oneof checks, proto2 `required` fields
//! noted as they are read and checked at the end, and `null` meaning "not
//! set" except for `Value` and `NullValue`. Duplicates, unknown keys and
//! error paths are the runtime's (`Decoder::fields`).
//!
//! The same body serves merging and `decode_into`, where the input replaces
//! what the message held: values are read into the memory fields already
//! own (strings, bytes, list elements, sub-messages, oneof members), and when
//! the decoder replaces, the fields the object left out are reset at its end.

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
    let steps = message.fields.iter().enumerate().map(|(index, field)| {
        let (kind, mut read) = read_field(message, field);
        if let Some(slot) = required.iter().position(|r| std::ptr::eq(*r, field)) {
            let slot = Literal::usize_unsuffixed(slot);
            read = quote!(required[#slot] = true; #read);
        }
        let index = Literal::usize_unsuffixed(index);
        let not_null = not_null(field, kind).map(|c| quote!(&& #c));
        quote! {
            if f.is_next(d, #index)? #not_null {
                #read
            }
        }
    });
    let (mut params, mut args) = (Vec::new(), Vec::new());
    let oneofs = (!message.oneofs.is_empty()).then(|| {
        let count = Literal::usize_unsuffixed(message.oneofs.len());
        params.push(quote!(seen_oneofs: &mut [bool; #count]));
        args.push(quote!(&mut seen_oneofs));
        quote!(let mut seen_oneofs = [false; #count];)
    });
    if !required.is_empty() {
        let count = Literal::usize_unsuffixed(required.len());
        params.push(quote!(required: &mut [bool; #count]));
        args.push(quote!(&mut required));
    }
    let (fields_reset, resets) = resets(message);
    let seen = if fields_reset {
        quote!(let seen =)
    } else {
        quote!()
    };
    let (ty, decoder, fields, error) = (
        path(&message.rust_path),
        rt::decoder(),
        rt::fields(),
        rt::error(),
    );
    // The pass is a function of its own, inlined by force in release builds:
    // as a closure called by the runtime, a large message's pass was compiled
    // out of line, where its keys were no longer constants.
    let read_fields = quote! {
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[allow(clippy::inline_always)]
        fn pass<'a>(
            m: &mut #ty,
            f: &mut #fields<'a>,
            d: &mut #decoder<'a>,
            #(#params),*
        ) -> ::core::result::Result<(), #error> {
            #(#steps)*
            ::core::result::Result::Ok(())
        }
        let mut f = d.fields(&[#(#keys),*], |key| #lookup)?;
        loop {
            let read = pass(self, &mut f, d, #(#args),*);
            if !f.next_pass(d, read)? {
                break;
            }
        }
        #seen f.finish(d);
    };
    if required.is_empty() {
        return quote! {
            #oneofs
            #read_fields
            #resets
            ::core::result::Result::Ok(())
        };
    }
    let count = Literal::usize_unsuffixed(required.len());
    let names = required.iter().map(|f| &f.json_name);
    quote! {
        #oneofs
        let start = d.offset();
        let mut required = [false; #count];
        #read_fields
        #resets
        d.check_required(start, &required, &[#(#names),*])
    }
}

/// When the decoder replaces: resets each field the object left out, and
/// each oneof none of whose members it set. Also tells whether any field is
/// reset (the statements then use `seen`).
fn resets(message: &Message) -> (bool, TokenStream) {
    let fields: Vec<_> = message
        .fields
        .iter()
        .enumerate()
        .filter_map(|(index, field)| {
            let name = ident(&field.rust_name);
            let index = Literal::usize_unsuffixed(index);
            match &field.shape {
                Shape::OneofMember { .. } | Shape::Absent(_) => None,
                _ if holds_message(field) => {
                    Some(quote!(seen.reset_message(#index, &mut self.#name);))
                }
                _ => Some(quote!(seen.reset(#index, &mut self.#name);)),
            }
        })
        .collect();
    let reset_unless = rt::reset_unless();
    let oneofs = message.oneofs.iter().enumerate().map(|(slot, oneof)| {
        let name = ident(&oneof.rust_name);
        let slot = Literal::usize_unsuffixed(slot);
        quote!(#reset_unless(seen_oneofs[#slot], &mut self.#name);)
    });
    if fields.is_empty() && message.oneofs.is_empty() {
        return (false, TokenStream::new());
    }
    let resets = quote! {
        if d.replaces() {
            #(#fields)*
            #(#oneofs)*
        }
    };
    (!fields.is_empty(), resets)
}

/// Whether the field stores a message directly, not in an `Option` (a
/// proto2 `required` message field).
fn holds_message(field: &Field) -> bool {
    matches!(
        &field.shape,
        Shape::Implicit(Kind::Message { .. }) | Shape::Required(Kind::Message { .. })
    )
}

/// The condition under which a field's value is read rather than taken as
/// `null`, or `None` where the reader takes `null` itself (`Value`,
/// `NullValue`, and absent fields, which skip any value). A `null` meaning
/// "not set" unsets the field (see `Decoder::take_null_for`), except for a
/// oneof member: its oneof is reset at the end of the object if no other
/// member set it.
fn not_null(field: &Field, kind: &Kind) -> Option<TokenStream> {
    // A map of `Value`s set to `null` is not set, as in Go and Python: the
    // map is not a `Value` (its values are). A list of them is an error.
    let null_is_value = kind.null_is_value() && !matches!(field.shape, Shape::Map { .. });
    if null_is_value || matches!(field.shape, Shape::Absent(_)) || reads_null(field) {
        return None;
    }
    if matches!(field.shape, Shape::OneofMember { .. }) {
        return Some(quote!(!d.take_null()));
    }
    let name = ident(&field.rust_name);
    Some(if holds_message(field) {
        quote!(!d.take_null_for_message(&mut m.#name))
    } else {
        quote!(!d.take_null_for(&mut m.#name))
    })
}

/// Whether the field's reader takes `null` itself (`Decoder::read_field`):
/// a singular number, bool or string without presence, whose `null` is
/// looked for only when the value is not a plain one.
fn reads_null(field: &Field) -> bool {
    use Kind::{Bool, F32, F64, I32, I64, String, U32, U64};
    matches!(
        field.shape,
        Shape::Implicit(Bool | I32 | U32 | I64 | U64 | F32 | F64 | String)
    )
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
        Shape::Implicit(kind) if reads_null(field) => (kind, quote!(d.read_field(&mut m.#name)?;)),
        Shape::Implicit(kind) | Shape::Required(kind) => {
            let read = match kind {
                Kind::Enum { rust_path, .. } => {
                    let ty = path(rust_path);
                    quote!(d.read_enum_into::<#ty, _>(&mut m.#name)?;)
                }
                Kind::Message { .. } => quote!(d.read_message(&mut m.#name)?;),
                Kind::String | Kind::Bytes => {
                    let method = reader_into(kind);
                    quote!(d.#method(&mut m.#name)?;)
                }
                _ => {
                    let value = read_value(kind);
                    quote!(m.#name = #value?;)
                }
            };
            (kind, read)
        }
        Shape::Optional(kind) => {
            let read = match kind {
                Kind::Enum { rust_path, .. } => {
                    let ty = path(rust_path);
                    quote!(d.read_enum_into::<#ty, _>(&mut m.#name)?;)
                }
                Kind::Message { .. } => quote! {
                    d.read_message(m.#name.get_or_insert_with(::core::default::Default::default))?;
                },
                Kind::String | Kind::Bytes => {
                    let method = reader_into(kind);
                    quote!(d.#method(m.#name.get_or_insert_with(::core::default::Default::default))?;)
                }
                _ => {
                    let value = read_value(kind);
                    quote!(m.#name = ::core::option::Option::Some(#value?);)
                }
            };
            (kind, read)
        }
        Shape::Repeated(kind) => {
            let read = match kind {
                Kind::Enum { rust_path, .. } => {
                    let ty = path(rust_path);
                    quote!(d.read_enum_list::<#ty>(&mut m.#name)?;)
                }
                Kind::Message { .. } => quote!(d.read_message_list(&mut m.#name)?;),
                Kind::String | Kind::Bytes => {
                    let decoder = rt::decoder();
                    let method = reader_into(kind);
                    quote!(d.read_list_in_place(&mut m.#name, #decoder::#method)?;)
                }
                _ => {
                    let read = read_fn(kind);
                    quote!(d.read_list(&mut m.#name, #read)?;)
                }
            };
            (kind, read)
        }
        Shape::Map { value: kind, .. } => {
            let read = match kind {
                Kind::Enum { rust_path, .. } => {
                    let ty = path(rust_path);
                    quote!(d.read_enum_map::<_, #ty>(&mut m.#name)?;)
                }
                _ => quote!(d.read_map(&mut m.#name)?;),
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
                            m.#field_name = ::core::option::Option::Some(#variant(v));
                        } else {
                            d.unset(&mut m.#field_name);
                        }
                    }
                }
                // The member already set is read into, keeping its memory.
                Kind::String | Kind::Bytes | Kind::Message { .. } => {
                    let into = match kind {
                        Kind::Message { .. } => quote!(d.read_message(v)?;),
                        _ => {
                            let method = reader_into(kind);
                            quote!(d.#method(v)?;)
                        }
                    };
                    let value = read_value(kind);
                    quote! {
                        if let ::core::option::Option::Some(#variant(v)) = &mut m.#field_name {
                            #into
                        } else {
                            m.#field_name = ::core::option::Option::Some(#variant(#value?));
                        }
                    }
                }
                _ => {
                    let value = read_value(kind);
                    quote!(m.#field_name = ::core::option::Option::Some(#variant(#value?));)
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

/// The name of the decoder method reading a string or bytes into the memory
/// of a field.
fn reader_into(kind: &Kind) -> Ident {
    let name = match kind {
        Kind::String => "read_string_into",
        Kind::Bytes => "read_bytes_into",
        _ => unreachable!("only strings and bytes are read into a field"),
    };
    Ident::new(name, Span::call_site())
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
