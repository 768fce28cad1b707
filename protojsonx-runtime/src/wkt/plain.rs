//! The prost-types messages and enums without a special JSON form: the
//! descriptors (`FileDescriptorSet` down to `UninterpretedOption`), `Type`,
//! `Field`, `Enum`, `Api`, `Method`, `SourceContext` and the plugin protocol
//! (`compiler::CodeGeneratorRequest`, ...). Their ProtoJSON is the plain
//! object of their fields, so their code is the generator's, checked in under
//! `plain/`: made from the `.proto` files in `plain/proto/`, those of
//! protobuf 3.19 (as grpcio-tools 1.43 ships them), which prost-types 0.14
//! was generated from field for field. The generator's test `prost_types`
//! fails when the checked-in code is stale.
//!
//! prost has no place for extensions, so an option message's extension keys
//! (`"[google.api.http]"`) are errors that name them, or skipped with
//! `ignore_unknown_fields`.

/// The generated code. Its `register_protojsonx_types()` functions fill the
/// global registry, which the runtime does not: it keeps these types in a
/// registry of their own (`registry::PLAIN`), filled by `register_protojsonx_types_in`.
#[allow(dead_code)]
mod generated {
    use prost_types::*;

    include!("plain/google.protobuf.protojsonx.rs");

    /// `google.protobuf.compiler`: the plugin protocol.
    pub(crate) mod compiler {
        use prost_types::compiler::*;

        include!("plain/google.protobuf.compiler.protojsonx.rs");
    }
}

pub(crate) use generated::{compiler, register_protojsonx_types_in};

#[cfg(test)]
mod tests {
    use prost_types::field_descriptor_proto::{Label, Type as FieldType};
    use prost_types::{
        Any, DescriptorProto, FieldDescriptorProto, FileDescriptorProto, FileOptions,
        MessageOptions, UninterpretedOption, uninterpreted_option::NamePart,
    };

    use crate::{DecodeOptions, ErrorKind, ProtoJson};

    fn file() -> FileDescriptorProto {
        FileDescriptorProto {
            name: Some("a.proto".into()),
            package: Some("p".into()),
            message_type: vec![DescriptorProto {
                name: Some("M".into()),
                field: vec![FieldDescriptorProto {
                    name: Some("user_id".into()),
                    number: Some(1),
                    label: Some(Label::Optional as i32),
                    r#type: Some(FieldType::Int64 as i32),
                    json_name: Some("userId".into()),
                    ..Default::default()
                }],
                options: Some(MessageOptions {
                    deprecated: Some(false),
                    ..Default::default()
                }),
                ..Default::default()
            }],
            options: Some(FileOptions {
                java_package: Some("j".into()),
                optimize_for: Some(1),
                ..Default::default()
            }),
            syntax: Some("proto3".into()),
            ..Default::default()
        }
    }

    /// proto2 presence: a field set to its default (`deprecated: false`) is
    /// written, an unset one is not; enums by name.
    #[test]
    fn descriptors_are_plain_objects() {
        let json = file().to_json().unwrap();
        assert_eq!(
            json,
            r#"{"name":"a.proto","package":"p","messageType":[{"name":"M","field":[{"name":"user_id","number":1,"label":"LABEL_OPTIONAL","type":"TYPE_INT64","jsonName":"userId"}],"options":{"deprecated":false}}],"options":{"javaPackage":"j","optimizeFor":"SPEED"},"syntax":"proto3"}"#
        );
        assert_eq!(FileDescriptorProto::from_json(&json).unwrap(), file());
    }

    /// `UninterpretedOption.NamePart` has proto2 `required` fields: always written.
    #[test]
    fn required_fields_are_always_written() {
        let option = UninterpretedOption {
            name: vec![NamePart::default()],
            ..Default::default()
        };
        let json = option.to_json().unwrap();
        assert_eq!(json, r#"{"name":[{"namePart":"","isExtension":false}]}"#);
        assert_eq!(UninterpretedOption::from_json(&json).unwrap(), option);
    }

    #[test]
    fn extensions_are_named_in_errors_and_skipped_on_request() {
        let json = r#"{"javaPackage":"j","[google.api.http]":{"get":"/v1"}}"#;
        let err = FileOptions::from_json(json).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnknownField);
        assert!(
            err.to_string()
                .starts_with("extension `google.api.http` has no field"),
            "{err}"
        );
        assert_eq!((err.line(), err.column()), (1, 40), "{err}");
        let opts = DecodeOptions::new().ignore_unknown_fields(true);
        let options = FileOptions::from_json_with(json, &opts).unwrap();
        assert_eq!(options.java_package.as_deref(), Some("j"));
    }

    /// No registration needed: an `Any` can hold any prost-types message.
    #[test]
    fn any_holds_descriptors_and_plugin_messages() {
        let request = prost_types::compiler::CodeGeneratorRequest {
            file_to_generate: vec!["a.proto".into()],
            proto_file: vec![file()],
            ..Default::default()
        };
        let any = Any {
            type_url: "type.googleapis.com/google.protobuf.compiler.CodeGeneratorRequest".into(),
            value: prost::Message::encode_to_vec(&request),
        };
        let json = any.to_json().unwrap();
        assert!(
            json.starts_with(r#"{"@type":"type.googleapis.com/google.protobuf.compiler.CodeGeneratorRequest","fileToGenerate":["a.proto"],"protoFile":[{"name":"a.proto""#),
            "{json}"
        );
        assert_eq!(Any::from_json(&json).unwrap(), any);
    }

    /// JSON of the current schema, which users' descriptors follow: fields
    /// prost-types lacks (`edition`, `features`) are read and dropped, as
    /// prost drops them in the binary format; enum names are current ones.
    #[test]
    fn fields_of_the_current_schema_are_accepted() {
        let json = r#"{"name":"T","edition":"2023","syntax":"SYNTAX_EDITIONS"}"#;
        let ty = prost_types::Type::from_json(json).unwrap();
        assert_eq!((ty.name.as_str(), ty.syntax), ("T", 2));
        assert_eq!(
            ty.to_json().unwrap(),
            r#"{"name":"T","syntax":"SYNTAX_EDITIONS"}"#
        );
        let json = r#"{"deprecated":true,"features":{"fieldPresence":"EXPLICIT"},"retention":"RETENTION_SOURCE"}"#;
        let options = prost_types::FieldOptions::from_json(json).unwrap();
        assert_eq!(options.deprecated, Some(true));
        let err = prost_types::FieldOptions::from_json(r#"{"unverifiedLazy":tru}"#).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Syntax, "{err}");
        // Newer than protobuf 3.19: `google.api.Service`'s APIs and
        // BigQuery's `ProtoSchema` carry them.
        let api = r#"{"name":"a.B","methods":[{"name":"Get","edition":"2023"}],"edition":"2023"}"#;
        let api = prost_types::Api::from_json(api).unwrap();
        assert_eq!(api.methods[0].name, "Get");
        let nested = r#"{"name":"M","visibility":"VISIBILITY_EXPORT","enumType":[{"name":"E","visibility":"VISIBILITY_LOCAL"}]}"#;
        let nested = prost_types::DescriptorProto::from_json(nested).unwrap();
        assert_eq!(nested.enum_type[0].name(), "E");
    }

    #[test]
    fn type_and_api_use_their_enum_names() {
        let ty = prost_types::Type {
            name: "T".into(),
            fields: vec![prost_types::Field {
                kind: prost_types::field::Kind::TypeString as i32,
                cardinality: prost_types::field::Cardinality::Repeated as i32,
                name: "tags".into(),
                ..Default::default()
            }],
            syntax: prost_types::Syntax::Proto3 as i32,
            ..Default::default()
        };
        let json = ty.to_json().unwrap();
        assert_eq!(
            json,
            r#"{"name":"T","fields":[{"kind":"TYPE_STRING","cardinality":"CARDINALITY_REPEATED","name":"tags"}],"syntax":"SYNTAX_PROTO3"}"#
        );
        assert_eq!(prost_types::Type::from_json(&json).unwrap(), ty);
    }
}
