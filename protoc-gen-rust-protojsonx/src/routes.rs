//! The services whose methods have `google.api.http` rules, resolved for
//! [`Config::http_routes`](crate::Config::http_routes): each method's Rust
//! name, its bindings, and the schema table of every message the routes
//! read or write, which `protojsonx-transcode` fills requests from. Every
//! binding is checked here, as the router would check it, so that a rule
//! it cannot serve fails generation rather than the program's start.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, VecDeque};

use prost::Message as _;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};
use protojsonx_transcode::rule::{self, Binding};
use protojsonx_transcode::schema::{
    self, Cardinality, EnumDefault, FieldKind, Schema, SchemaField, SchemaMessage,
};
use protojsonx_transcode::template::PathMatcher;
use protojsonx_transcode::types::api::HttpRule;

use crate::ident;

/// The number of the `google.api.http` extension of `MethodOptions`.
pub const HTTP_EXTENSION: u32 = 72_295_728;

/// Each method's encoded `google.api.HttpRule`, by the method's full name
/// (`pkg.Service.Method`), as [`protojsonx_descriptor::options`] reads them.
pub type HttpRules = BTreeMap<String, Vec<u8>>;

/// A service with at least one method with an HTTP rule.
#[derive(Debug)]
pub struct Service {
    /// Its full protobuf name (`shop.v1.Shop`).
    pub full_name: String,
    /// The routes function's name (`shop_routes`).
    pub routes_fn: String,
    /// The path of tonic's server trait from the package module
    /// (`shop_server::Shop`).
    pub server_trait: String,
    pub methods: Vec<Method>,
    /// The messages the routes read and write; fields refer to each other by index.
    pub schema: Vec<SchemaMessage>,
}

/// A method with HTTP bindings.
#[derive(Debug)]
pub struct Method {
    /// The gRPC path (`/shop.v1.Shop/GetItem`), which names it in errors.
    pub grpc_path: String,
    /// tonic's name of the trait method (`get_item`).
    pub rust_name: String,
    /// The request's and the response's full protobuf names.
    pub request: String,
    pub response: String,
    pub client_streaming: bool,
    pub server_streaming: bool,
    pub bindings: Vec<Binding>,
}

/// The services of `files` named in `to_generate` with HTTP rules, by
/// package, their bindings checked.
pub fn services(
    files: &[FileDescriptorProto],
    to_generate: &[String],
    rules: &HttpRules,
) -> Result<BTreeMap<String, Vec<Service>>, String> {
    let index = TypeIndex::of(files);
    let mut out: BTreeMap<String, Vec<Service>> = BTreeMap::new();
    for file in files
        .iter()
        .filter(|f| to_generate.iter().any(|n| n == f.name()))
    {
        for service in &file.service {
            let full_name = qualified(file.package(), service.name());
            let methods = service
                .method
                .iter()
                .filter_map(|method| {
                    let rule = rules.get(&format!("{full_name}.{}", method.name()))?;
                    Some(resolve(&full_name, method, rule))
                })
                .collect::<Result<Vec<_>, String>>()?;
            if methods.is_empty() {
                continue;
            }
            let roots = methods.iter().flat_map(|m| [&m.request, &m.response]);
            let schema = index.schema(roots)?;
            check(&full_name, &methods, &schema)?;
            let snake = ident::to_snake(service.name());
            let snake = snake.trim_start_matches("r#");
            out.entry(file.package().to_string())
                .or_default()
                .push(Service {
                    routes_fn: format!("{snake}_routes"),
                    server_trait: format!(
                        "{snake}_server::{}",
                        ident::to_upper_camel(service.name())
                    ),
                    full_name,
                    methods,
                    schema,
                });
        }
    }
    Ok(out)
}

/// One method of `service` with its encoded rule.
fn resolve(
    service: &str,
    method: &prost_types::MethodDescriptorProto,
    rule: &[u8],
) -> Result<Method, String> {
    let fail = |why: String| format!("{service}.{}: {why}", method.name());
    let rule =
        HttpRule::decode(rule).map_err(|e| fail(format!("its google.api.http rule: {e}")))?;
    Ok(Method {
        grpc_path: format!("/{service}/{}", method.name()),
        rust_name: ident::to_snake(method.name()),
        request: method.input_type().trim_start_matches('.').to_string(),
        response: method.output_type().trim_start_matches('.').to_string(),
        client_streaming: method.client_streaming(),
        server_streaming: method.server_streaming(),
        bindings: rule::bindings(&rule).map_err(|e| fail(e.to_string()))?,
    })
}

/// Checks every binding of a service as its router will: against the
/// methods' messages, and no two bindings of one method and template.
fn check(service: &str, methods: &[Method], messages: &[SchemaMessage]) -> Result<(), String> {
    let schema = Schema::new(messages.to_vec());
    let mut matcher = PathMatcher::new();
    for method in methods {
        let fail = |why: String| format!("{service}: {}: {why}", method.grpc_path);
        for binding in &method.bindings {
            let checked = binding
                .check(&schema, &method.request, &method.response)
                .map_err(|e| fail(e.to_string()))?;
            matcher
                .insert(&binding.method, checked.template, ())
                .map_err(|e| fail(e.to_string()))?;
        }
    }
    Ok(())
}

fn qualified(package: &str, name: &str) -> String {
    if package.is_empty() {
        name.to_string()
    } else {
        format!("{package}.{name}")
    }
}

/// Every message of the files by full name (without the leading dot), and
/// every enum's default value.
struct TypeIndex<'a> {
    messages: HashMap<String, &'a DescriptorProto>,
    enum_defaults: HashMap<String, Option<EnumDefault>>,
}

impl<'a> TypeIndex<'a> {
    fn of(files: &'a [FileDescriptorProto]) -> Self {
        let mut index = TypeIndex {
            messages: HashMap::new(),
            enum_defaults: HashMap::new(),
        };
        for file in files {
            for e in &file.enum_type {
                index.add_enum(&qualified(file.package(), e.name()), e);
            }
            for message in &file.message_type {
                index.add(&qualified(file.package(), message.name()), message);
            }
        }
        index
    }

    fn add(&mut self, full_name: &str, message: &'a DescriptorProto) {
        for nested in &message.nested_type {
            self.add(&format!("{full_name}.{}", nested.name()), nested);
        }
        for e in &message.enum_type {
            self.add_enum(&format!("{full_name}.{}", e.name()), e);
        }
        self.messages.insert(full_name.to_string(), message);
    }

    fn add_enum(&mut self, full_name: &str, e: &prost_types::EnumDescriptorProto) {
        let default = e.value.first().map(|v| EnumDefault {
            name: Cow::Owned(v.name().to_string()),
            number: v.number(),
        });
        self.enum_defaults.insert(full_name.to_string(), default);
    }

    /// The schema of every message reachable from `roots`, in the order
    /// they are first reached (the gateway's order).
    fn schema<'r>(
        &self,
        roots: impl Iterator<Item = &'r String>,
    ) -> Result<Vec<SchemaMessage>, String> {
        let mut order: Vec<String> = Vec::new();
        let mut positions: HashMap<String, usize> = HashMap::new();
        let mut queue: VecDeque<String> = roots.cloned().collect();
        while let Some(name) = queue.pop_front() {
            if positions.contains_key(&name) {
                continue;
            }
            let message = self.message(&name)?;
            positions.insert(name.clone(), order.len());
            order.push(name);
            for field in &message.field {
                let type_name = field.type_name().trim_start_matches('.');
                if matches!(field.r#type(), Type::Message | Type::Group)
                    && schema::well_known(type_name).is_none()
                {
                    queue.push_back(type_name.to_string());
                }
            }
        }
        order
            .iter()
            .map(|name| {
                let fields: Vec<SchemaField> = self
                    .message(name)?
                    .field
                    .iter()
                    .map(|f| self.field(f, &positions))
                    .collect();
                Ok(SchemaMessage {
                    full_name: Cow::Owned(name.clone()),
                    fields: fields.into(),
                })
            })
            .collect()
    }

    fn message(&self, name: &str) -> Result<&'a DescriptorProto, String> {
        self.messages
            .get(name)
            .copied()
            .ok_or_else(|| format!("the descriptors have no message `{name}`"))
    }

    fn field(
        &self,
        field: &FieldDescriptorProto,
        positions: &HashMap<String, usize>,
    ) -> SchemaField {
        let type_name = field.type_name().trim_start_matches('.');
        let is_map_entry = |name: &str| {
            self.messages
                .get(name)
                .is_some_and(|m| m.options.as_ref().is_some_and(|o| o.map_entry()))
        };
        let cardinality = match field.label() {
            Label::Repeated if field.r#type() == Type::Message && is_map_entry(type_name) => {
                Cardinality::Map
            }
            Label::Repeated => Cardinality::Repeated,
            _ => Cardinality::Singular,
        };
        let kind = match field.r#type() {
            Type::Bool => FieldKind::Bool,
            Type::Int64 | Type::Uint64 | Type::Sint64 | Type::Fixed64 | Type::Sfixed64 => {
                FieldKind::Int64
            }
            Type::String | Type::Bytes => FieldKind::Text,
            Type::Enum if type_name == "google.protobuf.NullValue" => {
                FieldKind::Enum { default: None }
            }
            Type::Enum => FieldKind::Enum {
                default: self.enum_defaults.get(type_name).cloned().flatten(),
            },
            Type::Message | Type::Group => schema::well_known(type_name)
                .unwrap_or_else(|| FieldKind::Message(positions[type_name])),
            _ => FieldKind::Number,
        };
        SchemaField {
            name: Cow::Owned(field.name().to_string()),
            json_name: Cow::Owned(
                field
                    .json_name
                    .clone()
                    .unwrap_or_else(|| ident::json_name(field.name())),
            ),
            kind,
            cardinality,
        }
    }
}
