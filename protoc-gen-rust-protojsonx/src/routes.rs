//! The services whose methods have `google.api.http` rules, resolved for
//! [`Config::http_routes`](crate::Config::http_routes): each method's Rust
//! names, its bindings, and the schema table of every message the routes
//! read or write (names, JSON names and JSON forms of their fields), which
//! `protojsonx-transcode` fills requests from.

use std::collections::{BTreeMap, HashMap, VecDeque};

use prost::Message as _;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FileDescriptorProto};

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

/// One binding of a rule, as the rule spells it (`""` for no body).
#[derive(Debug, PartialEq, Eq)]
pub struct Binding {
    pub method: String,
    pub path: String,
    pub body: String,
    pub response_body: String,
}

/// A message of the schema table.
#[derive(Debug)]
pub struct SchemaMessage {
    pub full_name: String,
    pub fields: Vec<SchemaField>,
}

/// A field of the schema table.
#[derive(Debug)]
pub struct SchemaField {
    pub name: String,
    pub json_name: String,
    pub kind: SchemaKind,
    pub cardinality: Cardinality,
}

/// The JSON form of a field's values (`protojsonx_transcode::schema::FieldKind`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaKind {
    Bool,
    /// An enum, with the name of its default value (`None` for `NullValue`).
    Enum(Option<String>),
    Number,
    Int64,
    Text,
    WellKnown,
    Message(usize),
}

/// How many values a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cardinality {
    Singular,
    Repeated,
    Map,
}

/// The services of `files` named in `to_generate` with HTTP rules, by package.
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
            let mut methods = Vec::new();
            for method in &service.method {
                let Some(rule) = rules.get(&format!("{full_name}.{}", method.name())) else {
                    continue;
                };
                let rule = HttpRule::decode(rule.as_slice()).map_err(|e| {
                    format!(
                        "{full_name}.{}: its google.api.http rule: {e}",
                        method.name()
                    )
                })?;
                methods.push(Method {
                    grpc_path: format!("/{full_name}/{}", method.name()),
                    rust_name: ident::to_snake(method.name()),
                    request: method.input_type().trim_start_matches('.').to_string(),
                    response: method.output_type().trim_start_matches('.').to_string(),
                    client_streaming: method.client_streaming(),
                    server_streaming: method.server_streaming(),
                    bindings: bindings(&rule)
                        .map_err(|e| format!("{full_name}.{}: {e}", method.name()))?,
                });
            }
            if methods.is_empty() {
                continue;
            }
            let roots = methods.iter().flat_map(|m| [&m.request, &m.response]);
            let schema = index.schema(roots)?;
            out.entry(file.package().to_string())
                .or_default()
                .push(Service {
                    routes_fn: format!(
                        "{}_routes",
                        ident::to_snake(service.name()).trim_start_matches("r#")
                    ),
                    server_trait: format!(
                        "{}_server::{}",
                        ident::to_snake(service.name()).trim_start_matches("r#"),
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

fn qualified(package: &str, name: &str) -> String {
    if package.is_empty() {
        name.to_string()
    } else {
        format!("{package}.{name}")
    }
}

/// The bindings of a rule: its own, then its additional bindings'.
fn bindings(rule: &HttpRule) -> Result<Vec<Binding>, String> {
    let mut out = vec![binding(rule)?];
    for extra in &rule.additional_bindings {
        if !extra.additional_bindings.is_empty() {
            return Err("an additional binding has additional bindings of its own".into());
        }
        out.push(binding(extra)?);
    }
    Ok(out)
}

fn binding(rule: &HttpRule) -> Result<Binding, String> {
    use http_rule::Pattern;
    let (method, path) = match &rule.pattern {
        Some(Pattern::Get(path)) => ("GET", path),
        Some(Pattern::Put(path)) => ("PUT", path),
        Some(Pattern::Post(path)) => ("POST", path),
        Some(Pattern::Delete(path)) => ("DELETE", path),
        Some(Pattern::Patch(path)) => ("PATCH", path),
        Some(Pattern::Custom(custom)) => (custom.kind.as_str(), &custom.path),
        None => return Err("a google.api.http rule has no pattern".into()),
    };
    Ok(Binding {
        method: method.to_string(),
        path: path.clone(),
        body: rule.body.clone(),
        response_body: rule.response_body.clone(),
    })
}

/// Every message of the files by full name (without the leading dot).
struct TypeIndex<'a> {
    messages: HashMap<String, &'a DescriptorProto>,
    enum_defaults: HashMap<String, String>,
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
        let default = e
            .value
            .first()
            .map(|v| v.name().to_string())
            .unwrap_or_default();
        self.enum_defaults.insert(full_name.to_string(), default);
    }

    /// The schema of every message reachable from `roots`, in the order
    /// they are first reached.
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
                if matches!(field.r#type(), Type::Message | Type::Group)
                    && well_known(field.type_name()).is_none()
                {
                    queue.push_back(field.type_name().trim_start_matches('.').to_string());
                }
            }
        }
        order
            .iter()
            .map(|name| {
                let message = self.message(name)?;
                let fields = message
                    .field
                    .iter()
                    .map(|f| self.field(f, &positions))
                    .collect::<Result<_, String>>()?;
                Ok(SchemaMessage {
                    full_name: name.clone(),
                    fields,
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
        field: &prost_types::FieldDescriptorProto,
        positions: &HashMap<String, usize>,
    ) -> Result<SchemaField, String> {
        let type_name = field.type_name().trim_start_matches('.');
        let map = field.label() == Label::Repeated
            && matches!(field.r#type(), Type::Message)
            && self
                .messages
                .get(type_name)
                .is_some_and(|m| m.options.as_ref().is_some_and(|o| o.map_entry()));
        let kind = match field.r#type() {
            Type::Bool => SchemaKind::Bool,
            Type::Int64 | Type::Uint64 | Type::Sint64 | Type::Fixed64 | Type::Sfixed64 => {
                SchemaKind::Int64
            }
            Type::String | Type::Bytes => SchemaKind::Text,
            Type::Enum if type_name == "google.protobuf.NullValue" => SchemaKind::Enum(None),
            Type::Enum => SchemaKind::Enum(self.enum_defaults.get(type_name).cloned()),
            Type::Message | Type::Group => match well_known(field.type_name()) {
                Some(kind) => kind,
                None => SchemaKind::Message(positions[type_name]),
            },
            _ => SchemaKind::Number,
        };
        Ok(SchemaField {
            name: field.name().to_string(),
            json_name: field
                .json_name
                .clone()
                .unwrap_or_else(|| ident::json_name(field.name())),
            kind,
            cardinality: if map {
                Cardinality::Map
            } else if field.label() == Label::Repeated {
                Cardinality::Repeated
            } else {
                Cardinality::Singular
            },
        })
    }
}

/// The kind of a well-known message whose JSON is not an object of its
/// fields, as `protojsonx_transcode::schema::well_known` has it.
fn well_known(type_name: &str) -> Option<SchemaKind> {
    match type_name.strip_prefix(".google.protobuf.")? {
        "BoolValue" => Some(SchemaKind::Bool),
        "Timestamp" | "Duration" | "FieldMask" | "DoubleValue" | "FloatValue" | "Int64Value"
        | "UInt64Value" | "Int32Value" | "UInt32Value" | "StringValue" | "BytesValue" | "Value" => {
            Some(SchemaKind::WellKnown)
        }
        _ => None,
    }
}

/// `google.api.HttpRule`, as much of it as routes read (googleapis'
/// `google/api/http.proto`).
#[derive(Clone, PartialEq, prost::Message)]
struct HttpRule {
    #[prost(string, tag = "7")]
    body: String,
    #[prost(string, tag = "12")]
    response_body: String,
    #[prost(message, repeated, tag = "11")]
    additional_bindings: Vec<HttpRule>,
    #[prost(oneof = "http_rule::Pattern", tags = "2, 3, 4, 5, 6, 8")]
    pattern: Option<http_rule::Pattern>,
}

mod http_rule {
    /// The HTTP method and path template of a rule.
    #[derive(Clone, PartialEq, prost::Oneof)]
    pub(super) enum Pattern {
        #[prost(string, tag = "2")]
        Get(String),
        #[prost(string, tag = "3")]
        Put(String),
        #[prost(string, tag = "4")]
        Post(String),
        #[prost(string, tag = "5")]
        Delete(String),
        #[prost(string, tag = "6")]
        Patch(String),
        #[prost(message, tag = "8")]
        Custom(super::CustomHttpPattern),
    }
}

/// `google.api.CustomHttpPattern`.
#[derive(Clone, PartialEq, prost::Message)]
struct CustomHttpPattern {
    #[prost(string, tag = "1")]
    kind: String,
    #[prost(string, tag = "2")]
    path: String,
}
