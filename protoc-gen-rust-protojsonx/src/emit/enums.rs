//! `JsonEnum` impls: the name of each value and the value of each name.

use std::collections::HashSet;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{path, rt};
use crate::model::Enum;

/// The `JsonEnum` impl of one enum. For aliases (several names, one number)
/// the first name is written; every name is read.
pub fn json_enum(e: &Enum) -> TokenStream {
    let ty = path(&e.rust_path);
    let trait_path = rt::json_enum();
    let full_name = &e.full_name;
    let mut numbers = HashSet::new();
    let names = e
        .values
        .iter()
        .filter(|(_, n)| numbers.insert(*n))
        .map(|(name, number)| {
            let number = Literal::i32_unsuffixed(*number);
            quote!(#number => ::core::option::Option::Some(#name),)
        });
    let values = e.values.iter().map(|(name, number)| {
        let name = Literal::byte_string(name.as_bytes());
        let number = Literal::i32_unsuffixed(*number);
        quote!(#name => ::core::option::Option::Some(#number),)
    });
    let null_value = (full_name == "google.protobuf.NullValue").then(|| {
        quote!(
            const IS_NULL_VALUE: bool = true;
        )
    });
    quote! {
        impl #trait_path for #ty {
            const NAME: &'static str = #full_name;
            #null_value

            fn name_of(v: i32) -> ::core::option::Option<&'static str> {
                match v {
                    #(#names)*
                    _ => ::core::option::Option::None,
                }
            }

            fn value_of(name: &[u8]) -> ::core::option::Option<i32> {
                match name {
                    #(#values)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    }
}
