//! Checks of a lowered descriptor set before prost-reflect reads it, for
//! the sets it refuses without saying why, or panics on.

use prost::Message;

/// Refuses sets in which a file has a syntax other than proto2's and
/// proto3's (`syntax = ""` too), an element no name or an enum no value:
/// prost-reflect 0.16 panics on some of them (it labels the error with the
/// file it has just dropped) where it should return an error.
pub(crate) fn names(lowered: &[u8]) -> Result<(), String> {
    let set = prost_types::FileDescriptorSet::decode(lowered)
        .map_err(|e| format!("not a google.protobuf.FileDescriptorSet: {e}"))?;
    for file in &set.file {
        let located = |what: String| format!("`{}`: {what}", file.name());
        if !matches!(file.syntax.as_deref(), None | Some("proto2" | "proto3")) {
            return Err(located(format!("unknown syntax {:?}", file.syntax())));
        }
        enums(file.package(), &file.enum_type).map_err(located)?;
        for service in &file.service {
            named("a service", service.name()).map_err(located)?;
            for method in &service.method {
                named("a method", method.name()).map_err(located)?;
            }
        }
        for extension in &file.extension {
            named("an extension", extension.name()).map_err(located)?;
        }
        for message in &file.message_type {
            message_names(message).map_err(located)?;
        }
    }
    Ok(())
}

fn message_names(message: &prost_types::DescriptorProto) -> Result<(), String> {
    named("a message", message.name())?;
    for field in message.field.iter().chain(&message.extension) {
        named("a field", field.name())?;
    }
    for oneof in &message.oneof_decl {
        named("a oneof", oneof.name())?;
    }
    enums(message.name(), &message.enum_type)?;
    message.nested_type.iter().try_for_each(message_names)
}

fn enums(scope: &str, enums: &[prost_types::EnumDescriptorProto]) -> Result<(), String> {
    for e in enums {
        named("an enum", e.name())?;
        if e.value.is_empty() {
            return Err(format!("enum `{scope}.{}` has no values", e.name()));
        }
        for value in &e.value {
            named("an enum value", value.name())?;
        }
    }
    Ok(())
}

fn named(what: &str, name: &str) -> Result<(), String> {
    if name.is_empty() {
        Err(format!("{what} without a name"))
    } else {
        Ok(())
    }
}

/// Why prost-reflect refuses `lowered` (the lowering of `original`), when
/// the cause is the one editions shape lowering cannot give it: an
/// editions file with implicit-presence fields is lowered to proto3,
/// whose enums must start at 0, and a closed enum of it may start
/// elsewhere. (prost-build reads such a file as it is: generated code is
/// not affected.) `None` for any other cause.
pub(crate) fn editions_enum_not_starting_at_zero(
    original: &[u8],
    lowered: &[u8],
) -> Option<String> {
    let original = protojsonx_descriptor::types::FileDescriptorSet::decode(original).ok()?;
    let lowered = prost_types::FileDescriptorSet::decode(lowered).ok()?;
    let editions: Vec<&str> = original
        .file
        .iter()
        .filter(|f| f.syntax() == "editions")
        .map(|f| f.name())
        .collect();
    lowered
        .file
        .iter()
        .filter(|f| f.syntax() == "proto3" && editions.contains(&f.name()))
        .find_map(|file| {
            let (name, first) =
                enum_not_starting_at_zero(file.package(), &file.enum_type, &file.message_type)?;
            Some(format!(
                "`{}`: enum `{name}` starts at {first}, not 0: a file with implicit-presence \
                 fields is read as proto3, whose enums start at 0 (the code generator reads it \
                 as it is); declare a 0 value first, or move the enum to a file without \
                 implicit-presence fields",
                file.name()
            ))
        })
}

/// The full name and first number of the first enum among `enums` and
/// those nested in `messages` (in scope `scope`) whose first value is not 0.
fn enum_not_starting_at_zero(
    scope: &str,
    enums: &[prost_types::EnumDescriptorProto],
    messages: &[prost_types::DescriptorProto],
) -> Option<(String, i32)> {
    let qualified = |name: &str| match scope {
        "" => name.to_string(),
        _ => format!("{scope}.{name}"),
    };
    enums
        .iter()
        .find_map(|e| match e.value.first() {
            Some(v) if v.number() != 0 => Some((qualified(e.name()), v.number())),
            _ => None,
        })
        .or_else(|| {
            messages.iter().find_map(|m| {
                enum_not_starting_at_zero(&qualified(m.name()), &m.enum_type, &m.nested_type)
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the descriptors fuzz target found prost-reflect panicking on.
    #[test]
    fn nameless_elements_and_empty_enums_are_errors() {
        let file = prost_types::FileDescriptorProto {
            name: Some("a.proto".into()),
            enum_type: vec![prost_types::EnumDescriptorProto::default()],
            service: vec![prost_types::ServiceDescriptorProto::default()],
            ..Default::default()
        };
        let set = prost_types::FileDescriptorSet { file: vec![file] };
        assert_eq!(
            names(&set.encode_to_vec()).unwrap_err(),
            "`a.proto`: an enum without a name"
        );
        let err = crate::Pool::decode(&set.encode_to_vec()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid descriptors: `a.proto`: an enum without a name"
        );
    }
}
