use super::*;
use crate::types::feature_set::EnumType;
use crate::types::{FeatureSet, FileOptions, MessageOptions};
use prost_types::field_descriptor_proto::{Label as PLabel, Type as PType};

fn features(f: impl FnOnce(&mut FeatureSet)) -> Option<FeatureSet> {
    let mut set = FeatureSet::default();
    f(&mut set);
    Some(set)
}

fn field(name: &str, number: i32, label: Label, t: Type) -> FieldDescriptorProto {
    FieldDescriptorProto {
        name: Some(name.into()),
        number: Some(number),
        label: Some(label as i32),
        r#type: Some(t as i32),
        json_name: Some(name.into()),
        ..Default::default()
    }
}

fn with_features(mut f: FieldDescriptorProto, set: Option<FeatureSet>) -> FieldDescriptorProto {
    f.options = Some(FieldOptions {
        features: set,
        ..Default::default()
    });
    f
}

fn message_field(name: &str, number: i32, type_name: &str) -> FieldDescriptorProto {
    FieldDescriptorProto {
        type_name: Some(type_name.into()),
        ..field(name, number, Label::Optional, Type::Message)
    }
}

fn file(
    edition: Edition,
    options: Option<FeatureSet>,
    message: DescriptorProto,
) -> FileDescriptorProto {
    FileDescriptorProto {
        name: Some("t.proto".into()),
        package: Some("t".into()),
        syntax: Some("editions".into()),
        edition: Some(edition as i32),
        options: Some(FileOptions {
            features: options,
            ..Default::default()
        }),
        message_type: vec![message],
        ..Default::default()
    }
}

fn message(fields: Vec<FieldDescriptorProto>) -> DescriptorProto {
    DescriptorProto {
        name: Some("M".into()),
        field: fields,
        ..Default::default()
    }
}

fn lowered(file: FileDescriptorProto) -> prost_types::FileDescriptorProto {
    lower_file(file).unwrap()
}

#[test]
fn explicit_files_become_proto2_with_their_fields_as_they_are() {
    let out = lowered(file(
        Edition::Edition2023,
        None,
        message(vec![
            field("a", 1, Label::Optional, Type::Int32),
            message_field("m", 2, ".t.M"),
        ]),
    ));
    assert_eq!(out.syntax(), "proto2");
    let m = &out.message_type[0];
    assert!(m.oneof_decl.is_empty());
    assert_eq!(m.field[0].label(), PLabel::Optional);
    assert_eq!(m.field[0].proto3_optional, None);
    assert_eq!(m.field[1].r#type(), PType::Message);
}

#[test]
fn an_implicit_field_makes_proto3_and_explicit_ones_proto3_optional() {
    let implicit = features(|s| s.field_presence = Some(FieldPresence::Implicit as i32));
    let out = lowered(file(
        Edition::Edition2024,
        implicit,
        message(vec![
            field("plain", 1, Label::Optional, Type::Int32),
            with_features(
                field("kept", 2, Label::Optional, Type::String),
                features(|s| s.field_presence = Some(FieldPresence::Explicit as i32)),
            ),
            // Named as the synthetic oneof protoc would make first.
            field("_kept", 3, Label::Optional, Type::Bool),
            message_field("m", 4, ".t.M"),
        ]),
    ));
    assert_eq!(out.syntax(), "proto3");
    let m = &out.message_type[0];
    assert_eq!(m.field[0].proto3_optional, None);
    assert_eq!(m.field[0].oneof_index, None);
    assert!(m.field[1].proto3_optional());
    assert_eq!(m.field[1].oneof_index, Some(0));
    assert_eq!(m.oneof_decl[0].name(), "X_kept");
    assert_eq!(m.field[2].oneof_index, None);
    assert_eq!(
        m.field[3].proto3_optional, None,
        "messages have presence in proto3"
    );
}

#[test]
fn required_delimited_and_packing_are_what_prost_build_reads() {
    let mut m = message(vec![
        with_features(
            field("req", 1, Label::Optional, Type::Int64),
            features(|s| s.field_presence = Some(FieldPresence::LegacyRequired as i32)),
        ),
        with_features(
            message_field("group", 2, ".t.M"),
            features(|s| s.message_encoding = Some(MessageEncoding::Delimited as i32)),
        ),
        field("packed", 3, Label::Repeated, Type::Sint32),
        with_features(
            field("expanded", 4, Label::Repeated, Type::Enum),
            features(|s| s.repeated_field_encoding = Some(RepeatedFieldEncoding::Expanded as i32)),
        ),
        field("strings", 5, Label::Repeated, Type::String),
        FieldDescriptorProto {
            type_name: Some(".t.M.MapEntry".into()),
            ..field("map", 6, Label::Repeated, Type::Message)
        },
    ]);
    m.nested_type.push(DescriptorProto {
        name: Some("MapEntry".into()),
        field: vec![
            field("key", 1, Label::Optional, Type::String),
            message_field("value", 2, ".t.M"),
        ],
        options: Some(MessageOptions {
            map_entry: Some(true),
            ..Default::default()
        }),
        ..Default::default()
    });
    // Delimited everywhere, as a file may say: never for maps.
    let delimited = features(|s| s.message_encoding = Some(MessageEncoding::Delimited as i32));
    let out = lowered(file(Edition::Edition2023, delimited, m));
    let m = &out.message_type[0];
    assert_eq!(m.field[0].label(), PLabel::Required);
    assert_eq!(m.field[1].r#type(), PType::Group);
    let packed = |i: usize| m.field[i].options.as_ref().and_then(|o| o.packed);
    assert_eq!(packed(2), Some(true));
    assert_eq!(packed(3), Some(false));
    assert_eq!(packed(4), None);
    assert_eq!(
        m.field[5].r#type(),
        PType::Message,
        "maps stay length-prefixed"
    );
    assert_eq!(m.nested_type[0].field[1].r#type(), PType::Message);
}

#[test]
fn oneof_members_inherit_the_oneofs_features() {
    let mut m = message(vec![FieldDescriptorProto {
        oneof_index: Some(0),
        ..message_field("choice", 1, ".t.M")
    }]);
    m.oneof_decl.push(OneofDescriptorProto {
        name: Some("kind".into()),
        options: Some(crate::types::OneofOptions {
            features: features(|s| s.message_encoding = Some(MessageEncoding::Delimited as i32)),
            ..Default::default()
        }),
    });
    let out = lowered(file(Edition::Edition2023, None, m));
    let m = &out.message_type[0];
    assert_eq!(m.field[0].r#type(), PType::Group);
    assert_eq!(m.field[0].oneof_index, Some(0));
    assert_eq!(m.oneof_decl.len(), 1);
}

#[test]
fn proto2_and_proto3_files_pass_through() {
    for syntax in ["proto2", "proto3"] {
        let mut f = file(
            Edition::Unknown,
            None,
            message(vec![field("a", 1, Label::Optional, Type::Int32)]),
        );
        f.syntax = Some(syntax.into());
        f.edition = None;
        let expected = prost_types::FileDescriptorProto::decode(f.encode_to_vec().as_slice());
        assert_eq!(lower_file(f).unwrap(), expected.unwrap());
    }
}

#[test]
fn features_protoc_refuses_are_refused_with_the_field() {
    let cases = [
        (
            with_features(
                message_field("m", 1, ".t.M"),
                features(|s| s.field_presence = Some(FieldPresence::Implicit as i32)),
            ),
            "t.proto: field `t.M.m`: message fields always have presence: IMPLICIT is not allowed",
        ),
        (
            with_features(
                field("r", 1, Label::Repeated, Type::Int32),
                features(|s| s.field_presence = Some(FieldPresence::Explicit as i32)),
            ),
            "t.proto: field `t.M.r`: `field_presence` can only be set on singular fields outside oneofs",
        ),
    ];
    for (f, expected) in cases {
        let err = lower_file(file(Edition::Edition2023, None, message(vec![f]))).unwrap_err();
        assert_eq!(err.to_string(), expected);
    }
}

#[test]
fn closed_enums_need_no_lowering() {
    let closed = features(|s| s.enum_type = Some(EnumType::Closed as i32));
    let out = lowered(file(Edition::Edition2023, closed, message(vec![])));
    assert_eq!(out.syntax(), "proto2");
}

#[test]
fn encoded_sets_keep_the_bytes_of_proto2_and_proto3_files() {
    // A proto3 file with a custom option prost drops (field 50000 of
    // FileOptions), then an editions file.
    let mut proto3 = FileDescriptorProto {
        name: Some("p3.proto".into()),
        syntax: Some("proto3".into()),
        ..Default::default()
    }
    .encode_to_vec();
    proto3.extend([0x42, 4, 0x80, 0xb5, 0x18, 1]);
    let editions = file(
        Edition::Edition2023,
        None,
        message(vec![field("a", 1, Label::Optional, Type::Int32)]),
    );
    let set = RawSet {
        file: vec![proto3.clone(), editions.encode_to_vec()],
    };
    let out = RawSet::decode(lower_encoded(&set.encode_to_vec()).unwrap().as_slice()).unwrap();
    assert_eq!(out.file[0], proto3);
    let lowered = prost_types::FileDescriptorProto::decode(out.file[1].as_slice()).unwrap();
    assert_eq!(lowered.syntax(), "proto2");
    let err = lower_encoded(b"\x0a\x05junk").unwrap_err().to_string();
    assert!(
        err.starts_with("the descriptor set: is not a google.protobuf.FileDescriptorSet"),
        "{err}"
    );
}

#[test]
fn files_without_a_name_of_their_own_are_refused() {
    let named = |name: Option<&str>| FileDescriptorProto {
        name: name.map(Into::into),
        ..Default::default()
    };
    let encoded = |files: Vec<FileDescriptorProto>| {
        lower_encoded(&FileDescriptorSet { file: files }.encode_to_vec())
            .unwrap_err()
            .to_string()
    };
    // prost-reflect panicked on the first (found by fuzzing).
    assert_eq!(
        encoded(vec![named(Some("")), named(None)]),
        "the descriptor set: holds a file without a name"
    );
    assert_eq!(
        encoded(vec![named(Some("a.proto")), named(Some("a.proto"))]),
        "a.proto: appears twice in the descriptor set"
    );
    let set = FileDescriptorSet {
        file: vec![named(Some("a.proto")), named(None)],
    };
    assert!(lower(set).is_err());
}

/// The services of an editions file reach the lowered set as protoc wrote
/// them: a method's custom option (an extension prost-types would drop)
/// is still there.
#[test]
fn lowering_keeps_the_methods_custom_options() {
    let dir = std::env::temp_dir().join(format!("protojsonx-lower-options-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("svc.proto"),
        r#"edition = "2023";
package svc;
import "google/protobuf/descriptor.proto";
extend google.protobuf.MethodOptions { string note = 50000; }
message M { int32 a = 1; }
service S { rpc Call(M) returns (M) { option (note) = "kept"; } }
"#,
    )
    .unwrap();
    let out = dir.join("svc.binpb");
    let status = std::process::Command::new(protoc_bin_vendored::protoc_bin_path().unwrap())
        .arg(format!("--proto_path={}", dir.display()))
        .arg("--include_imports")
        .arg(format!("--descriptor_set_out={}", out.display()))
        .arg(dir.join("svc.proto"))
        .status()
        .unwrap();
    assert!(status.success());
    let set = std::fs::read(&out).unwrap();
    let lowered = crate::lower_encoded(&set).unwrap();
    let notes = crate::options::method_extensions(&lowered, 50000).unwrap();
    assert_eq!(notes["svc.S.Call"], b"kept");
    let file = prost_types::FileDescriptorSet::decode(lowered.as_slice()).unwrap();
    let svc = file.file.iter().find(|f| f.name() == "svc.proto").unwrap();
    assert_eq!(svc.syntax(), "proto2");
    assert_eq!(svc.service[0].method[0].name(), "Call");
    std::fs::remove_dir_all(&dir).unwrap();
}
