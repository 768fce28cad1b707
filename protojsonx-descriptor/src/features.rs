//! Feature resolution: what each element of a file means under its edition.
//!
//! Every element has a value for each of the six core features. It starts
//! from its edition's defaults (proto2 and proto3 files are editions too,
//! `EDITION_PROTO2` and `EDITION_PROTO3`), and each `features` option on
//! the way down overrides what it sets: file, then message (and nested
//! message), then oneof, then field; enum, then enum value. Feature
//! extensions of other languages (`pb.cpp`, `pb.java`, ...) do not change
//! what Rust code or JSON mean and are not read.

use crate::Error;
use crate::types::feature_set::{
    EnumType, FieldPresence, JsonFormat, MessageEncoding, RepeatedFieldEncoding, Utf8Validation,
};
use crate::types::{Edition, FeatureSet, FileDescriptorProto};

/// The resolved core features of one element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    /// Whether a singular field tracks presence: `EXPLICIT`, `IMPLICIT`
    /// (proto3's plain fields), or `LEGACY_REQUIRED` (proto2's `required`).
    pub field_presence: FieldPresence,
    /// Whether an enum keeps unknown values in the field (`OPEN`) or in
    /// the unknown fields (`CLOSED`, proto2's enums).
    pub enum_type: EnumType,
    /// `PACKED` (one length-delimited record) or `EXPANDED` (a record per
    /// element) for repeated scalar fields.
    pub repeated_field_encoding: RepeatedFieldEncoding,
    /// Whether `string` fields must hold valid UTF-8 when parsed.
    pub utf8_validation: Utf8Validation,
    /// `LENGTH_PREFIXED` messages, or `DELIMITED` ones (proto2's groups).
    pub message_encoding: MessageEncoding,
    /// Whether the file must have a valid JSON mapping (`ALLOW`) or not.
    pub json_format: JsonFormat,
}

impl Features {
    /// The defaults of `edition`, as `descriptor.proto`'s `edition_defaults`
    /// give them; `None` for an edition this crate does not know.
    pub fn defaults(edition: Edition) -> Option<Features> {
        let edition2023 = Features {
            field_presence: FieldPresence::Explicit,
            enum_type: EnumType::Open,
            repeated_field_encoding: RepeatedFieldEncoding::Packed,
            utf8_validation: Utf8Validation::Verify,
            message_encoding: MessageEncoding::LengthPrefixed,
            json_format: JsonFormat::Allow,
        };
        match edition {
            Edition::Proto2 => Some(Features {
                field_presence: FieldPresence::Explicit,
                enum_type: EnumType::Closed,
                repeated_field_encoding: RepeatedFieldEncoding::Expanded,
                utf8_validation: Utf8Validation::None,
                message_encoding: MessageEncoding::LengthPrefixed,
                json_format: JsonFormat::LegacyBestEffort,
            }),
            Edition::Proto3 => Some(Features {
                field_presence: FieldPresence::Implicit,
                ..edition2023
            }),
            Edition::Edition2023 | Edition::Edition2024 => Some(edition2023),
            _ => None,
        }
    }

    /// What a child element has: these features, overridden by those `set`
    /// gives a value (an unset or unknown value inherits).
    pub fn with(self, set: Option<&FeatureSet>) -> Features {
        let Some(set) = set else { return self };
        Features {
            field_presence: known(set.field_presence).unwrap_or(self.field_presence),
            enum_type: known(set.enum_type).unwrap_or(self.enum_type),
            repeated_field_encoding: known(set.repeated_field_encoding)
                .unwrap_or(self.repeated_field_encoding),
            utf8_validation: known(set.utf8_validation).unwrap_or(self.utf8_validation),
            message_encoding: known(set.message_encoding).unwrap_or(self.message_encoding),
            json_format: known(set.json_format).unwrap_or(self.json_format),
        }
    }
}

/// A feature's value if it is set to one of its enum's values other than
/// the `..._UNKNOWN` zero.
fn known<T: TryFrom<i32>>(value: Option<i32>) -> Option<T> {
    value.filter(|&v| v != 0).and_then(|v| T::try_from(v).ok())
}

/// The edition of `file`: `EDITION_PROTO2` or `EDITION_PROTO3` for the
/// `syntax` ones, or the `edition` an editions file declares, which must be
/// 2023 or 2024 (newer ones may change what fields mean in ways this crate
/// cannot know).
pub fn edition_of(file: &FileDescriptorProto) -> Result<Edition, Error> {
    match file.syntax() {
        "" | "proto2" => Ok(Edition::Proto2),
        "proto3" => Ok(Edition::Proto3),
        "editions" => match file.edition() {
            edition @ (Edition::Edition2023 | Edition::Edition2024) => Ok(edition),
            Edition::Unknown => Err(Error::new(
                file.name(),
                "declares `syntax = \"editions\"` but no edition",
            )),
            other => Err(Error::new(
                file.name(),
                format!(
                    "edition {} is not supported: 2023 and 2024 are",
                    other.as_str_name().trim_start_matches("EDITION_")
                ),
            )),
        },
        other => Err(Error::new(file.name(), format!("unknown syntax {other:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proto2_and_proto3_defaults_are_their_syntaxes_meaning() {
        let proto2 = Features::defaults(Edition::Proto2).unwrap();
        assert_eq!(proto2.field_presence, FieldPresence::Explicit);
        assert_eq!(proto2.enum_type, EnumType::Closed);
        assert_eq!(
            proto2.repeated_field_encoding,
            RepeatedFieldEncoding::Expanded
        );
        let proto3 = Features::defaults(Edition::Proto3).unwrap();
        assert_eq!(proto3.field_presence, FieldPresence::Implicit);
        assert_eq!(proto3.enum_type, EnumType::Open);
        assert_eq!(
            proto3.repeated_field_encoding,
            RepeatedFieldEncoding::Packed
        );
        assert_eq!(proto3.utf8_validation, Utf8Validation::Verify);
        let edition2023 = Features::defaults(Edition::Edition2023).unwrap();
        assert_eq!(
            edition2023,
            Features {
                field_presence: FieldPresence::Explicit,
                ..proto3
            }
        );
        assert_eq!(Features::defaults(Edition::Edition2024), Some(edition2023));
        assert_eq!(Features::defaults(Edition::Edition2026), None);
    }

    #[test]
    fn set_features_override_and_unset_or_unknown_ones_inherit() {
        let base = Features::defaults(Edition::Edition2023).unwrap();
        let set = FeatureSet {
            field_presence: Some(FieldPresence::Implicit as i32),
            enum_type: Some(0),
            message_encoding: Some(77),
            ..Default::default()
        };
        let child = base.with(Some(&set));
        assert_eq!(child.field_presence, FieldPresence::Implicit);
        assert_eq!(child.enum_type, base.enum_type);
        assert_eq!(child.message_encoding, base.message_encoding);
        assert_eq!(base.with(None), base);
    }

    #[test]
    fn editions_past_2024_are_refused_with_the_file_name() {
        let file = |syntax: &str, edition: Edition| FileDescriptorProto {
            name: Some("a/b.proto".into()),
            syntax: Some(syntax.into()),
            edition: Some(edition as i32),
            ..Default::default()
        };
        assert_eq!(
            edition_of(&file("editions", Edition::Edition2024)).unwrap(),
            Edition::Edition2024
        );
        assert_eq!(
            edition_of(&file("proto3", Edition::Unknown)).unwrap(),
            Edition::Proto3
        );
        let err = edition_of(&file("editions", Edition::Unstable)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "a/b.proto: edition UNSTABLE is not supported: 2023 and 2024 are"
        );
        let err = edition_of(&file("proto4", Edition::Unknown)).unwrap_err();
        assert_eq!(err.to_string(), "a/b.proto: unknown syntax \"proto4\"");
    }
}
