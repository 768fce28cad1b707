//! HTTP/JSON routes for services with `google.api.http` rules: per service,
//! a function that builds a `protojsonx_transcode` router calling tonic's
//! server trait in process, and the schema table its requests are filled from.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::{formatted, ident, path};
use protojsonx_transcode::rule::Body;
use protojsonx_transcode::schema::{Cardinality, FieldKind, SchemaField};

use crate::routes::{Method, Service};

/// The formatted routes code of a package's services.
pub fn package(services: &[Service]) -> String {
    let services = services.iter().map(service);
    formatted(quote!(#(#services)*), "")
}

fn service(service: &Service) -> TokenStream {
    let function = ident(&service.routes_fn);
    let server = path(&service.server_trait);
    let schema = format_ident!("{}_schema", service.routes_fn);
    let methods = service.methods.iter().map(method);
    let doc = format!(
        " HTTP/JSON routes of `{}`, by its methods' `google.api.http` rules: a router\n \
         that calls `service` in process (no network hop, no binary encoding).\n \
         `into_axum()` gives an axum router to serve, or to merge with tonic's.",
        service.full_name
    );
    let tables = schema_tables(&schema, service);
    quote! {
        #[doc = #doc]
        pub fn #function<S: #server>(
            service: S,
            options: ::protojsonx_transcode::router::Options,
        ) -> ::protojsonx_transcode::router::Router {
            use ::protojsonx_transcode::__private as rt;
            let service = ::std::sync::Arc::new(service);
            let mut routes = rt::Routes::new(&#schema::MESSAGES, options);
            #(#methods)*
            routes.build()
        }

        #tables
    }
}

/// The module of a service's schema table: `MESSAGES`, whose message `i`
/// has its fields in the static `Mi` (statics, since a table of values with
/// destructors cannot be a temporary of a static).
fn schema_tables(module: &proc_macro2::Ident, service: &Service) -> TokenStream {
    let doc = format!(
        " The messages the routes of `{}` read and write, as `protojsonx_transcode`\n \
         fills requests from path variables and query parameters.",
        service.full_name
    );
    let len = Literal::usize_unsuffixed(service.schema.len());
    let names = (0..service.schema.len()).map(|i| format_ident!("M{i}"));
    let messages = service
        .schema
        .iter()
        .zip(names.clone())
        .map(|(message, fields)| {
            let name = &message.full_name;
            quote!(rt::message(#name, &#fields))
        });
    let field_tables = service.schema.iter().zip(names).map(|(message, fields)| {
        let len = Literal::usize_unsuffixed(message.fields.len());
        let entries = message.fields.iter().map(schema_field);
        quote!(static #fields: [SchemaField; #len] = [#(#entries),*];)
    });
    quote! {
        #[doc = #doc]
        mod #module {
            use ::protojsonx_transcode::__private as rt;
            use ::protojsonx_transcode::schema::{Cardinality, FieldKind, SchemaField, SchemaMessage};

            pub(super) static MESSAGES: [SchemaMessage; #len] = [#(#messages),*];
            #(#field_tables)*
        }
    }
}

fn method(method: &Method) -> TokenStream {
    let name = &method.grpc_path;
    let (request_name, response_name) = (&method.request, &method.response);
    let bindings = method.bindings.iter().map(|b| {
        let (verb, template) = (&b.method, &b.path);
        let body = match &b.body {
            Body::None => "",
            Body::Whole => "*",
            Body::Field(field) => field,
        };
        let response_body = b.response_body.as_deref().unwrap_or_default();
        quote!(rt::binding(#verb, #template, #body, #response_body))
    });
    let head = quote!(#name, [#request_name, #response_name], &[#(#bindings),*]);
    if method.client_streaming {
        return quote!(routes.request_streaming(#head););
    }
    let call = ident(&method.rust_name);
    let add = if method.server_streaming {
        quote!(server_streaming)
    } else {
        quote!(unary)
    };
    // The request and response types are inferred from the trait method's.
    quote! {
        routes.#add(#head, {
            let service = service.clone();
            move |request| {
                let service = service.clone();
                async move { service.#call(request).await }
            }
        });
    }
}

fn schema_field(field: &SchemaField) -> TokenStream {
    let (proto, json) = (&*field.name, &*field.json_name);
    let kind = match &field.kind {
        FieldKind::Bool => quote!(FieldKind::Bool),
        FieldKind::Enum {
            default: Some(default),
        } => {
            let (name, number) = (&*default.name, default.number);
            quote!(rt::enumeration(#name, #number))
        }
        FieldKind::Enum { default: None } => quote!(FieldKind::Enum { default: None }),
        FieldKind::Number => quote!(FieldKind::Number),
        FieldKind::Int64 => quote!(FieldKind::Int64),
        FieldKind::Text => quote!(FieldKind::Text),
        FieldKind::WellKnown => quote!(FieldKind::WellKnown),
        FieldKind::Message(index) => {
            let index = Literal::usize_unsuffixed(*index);
            quote!(FieldKind::Message(#index))
        }
    };
    let cardinality = match field.cardinality {
        Cardinality::Singular => quote!(Cardinality::Singular),
        Cardinality::Repeated => quote!(Cardinality::Repeated),
        Cardinality::Map => quote!(Cardinality::Map),
    };
    quote!(rt::field(#proto, #json, #kind, #cardinality))
}
