//! The `serde` option: `Serialize` and `Deserialize` impls that delegate to
//! the message's `ProtoJson` impl through the runtime's serde helpers, so
//! serde users get ProtoJSON.

use proc_macro2::TokenStream;
use quote::quote;

use super::{path, rt};
use crate::model::Package;

/// The formatted serde impls for every message of `package`, to append to
/// the package's JSON code.
pub fn package(package: &Package) -> String {
    let impls = package.messages.iter().map(|m| impls(&m.rust_path));
    let tokens = quote!(#(#impls)*);
    let file = syn::parse2::<syn::File>(tokens).expect("the emitter produces valid Rust syntax");
    prettyplease::unparse(&file)
}

/// `Serialize` and `Deserialize` for the message at `rust_path`.
fn impls(rust_path: &str) -> TokenStream {
    let ty = path(rust_path);
    let serde = rt::serde_crate();
    let helpers = rt::serde_helpers();
    quote! {
        impl #serde::Serialize for #ty {
            fn serialize<S: #serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                #helpers::serialize(self, serializer)
            }
        }

        impl<'de> #serde::Deserialize<'de> for #ty {
            fn deserialize<D: #serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                #helpers::deserialize(deserializer)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_traits_delegate_to_the_runtime() {
        let code = prettyplease::unparse(&syn::parse2(impls("outer::Inner")).unwrap());
        assert!(
            code.contains("impl ::protojsonx_runtime::serde::__serde::Serialize for outer::Inner"),
            "{code}"
        );
        assert!(
            code.contains("::protojsonx_runtime::serde::deserialize(deserializer)"),
            "{code}"
        );
    }
}
