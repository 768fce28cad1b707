//! The one place Rust names are made from protobuf names.
//!
//! Generated JSON code names the structs, fields, modules, oneof enums and enums
//! that prost-build generates, so every rule here must be prost-build's rule
//! (prost-build 0.14, `ident.rs` and `code_generator.rs`), including its heck
//! version. The test `prost_names` in tests/prost_names.rs runs prost-build on a
//! proto full of awkward names and checks these functions against its output,
//! so a drift fails the build instead of the user's build.

use heck::{ToSnakeCase, ToUpperCamelCase};

/// Makes `ident` usable as a Rust identifier the way prost-build does: raw
/// identifiers for keywords, a trailing `_` for the keywords that cannot be
/// raw, a leading `_` for names starting with a digit.
pub fn sanitize(ident: &str) -> String {
    match ident {
        // 2015 strict keywords.
        "as" | "break" | "const" | "continue" | "else" | "enum" | "false" | "fn" | "for" | "if"
        | "impl" | "in" | "let" | "loop" | "match" | "mod" | "move" | "mut" | "pub" | "ref"
        | "return" | "static" | "struct" | "trait" | "true" | "type" | "unsafe" | "use"
        | "where" | "while"
        // 2018 strict keywords.
        | "dyn"
        // 2015 reserved keywords.
        | "abstract" | "become" | "box" | "do" | "final" | "macro" | "override" | "priv"
        | "typeof" | "unsized" | "virtual" | "yield"
        // 2018 reserved keywords.
        | "async" | "await" | "try"
        // 2024 reserved keywords.
        | "gen" => format!("r#{ident}"),
        // Keywords that cannot be raw identifiers.
        "_" | "super" | "self" | "Self" | "extern" | "crate" => format!("{ident}_"),
        s if s.starts_with(|c: char| c.is_numeric()) => format!("_{ident}"),
        _ => ident.to_string(),
    }
}

/// The Rust name of a field, oneof or module: `lower_snake_case`, sanitized.
pub fn to_snake(name: &str) -> String {
    sanitize(&name.to_snake_case())
}

/// The Rust name of a message, enum, oneof enum or oneof variant: `UpperCamelCase`, sanitized.
pub fn to_upper_camel(name: &str) -> String {
    sanitize(&name.to_upper_camel_case())
}

/// The path of a protobuf type (fully qualified, with a leading dot) as prost
/// names it from the module of `package`: `super::` up to the common
/// ancestor, then snake_case modules, then the UpperCamelCase type name.
pub fn relative_type_path(package: &str, type_name: &str) -> String {
    let mut here = package.split('.').filter(|s| !s.is_empty()).peekable();
    let mut there = type_name.trim_start_matches('.').split('.');
    let ty = there.next_back().unwrap_or_default();
    let mut there = there.peekable();
    while here.peek().is_some() && here.peek() == there.peek() {
        here.next();
        there.next();
    }
    here.map(|_| "super".to_string())
        .chain(there.map(to_snake))
        .chain(std::iter::once(to_upper_camel(ty)))
        .collect::<Vec<_>>()
        .join("::")
}

/// The lowerCamelCase JSON name protoc derives from a field name when the
/// descriptor has none: underscores are dropped and the letter after each is
/// upper-cased.
pub fn json_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper_next = false;
    for c in name.chars() {
        if c == '_' {
            upper_next = true;
        } else if upper_next {
            out.push(c.to_ascii_uppercase());
            upper_next = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_become_raw_or_suffixed() {
        assert_eq!(to_snake("type"), "r#type");
        assert_eq!(to_snake("gen"), "r#gen");
        assert_eq!(to_snake("self"), "self_");
        assert_eq!(to_upper_camel("self"), "Self_");
        assert_eq!(sanitize("_"), "__");
        assert_eq!(to_snake("2fa"), "_2fa");
    }

    #[test]
    fn case_conversions_follow_heck() {
        assert_eq!(to_snake("FooBar"), "foo_bar");
        assert_eq!(to_snake("field__name4_"), "field_name4");
        assert_eq!(to_upper_camel("foo_bar"), "FooBar");
        assert_eq!(to_upper_camel("HTTPServer"), "HttpServer");
    }

    #[test]
    fn type_paths_are_relative_to_the_package() {
        assert_eq!(relative_type_path("a.b", ".a.b.Msg"), "Msg");
        assert_eq!(
            relative_type_path("a.b", ".a.b.Outer.Inner"),
            "outer::Inner"
        );
        assert_eq!(relative_type_path("a.b", ".a.c.Msg"), "super::c::Msg");
        assert_eq!(relative_type_path("", ".x.Msg"), "x::Msg");
        assert_eq!(relative_type_path("a", ".Top"), "super::Top");
    }

    #[test]
    fn json_names_match_protoc() {
        assert_eq!(json_name("foo_bar_baz"), "fooBarBaz");
        assert_eq!(json_name("field__name4_"), "fieldName4");
        assert_eq!(json_name("_field_name3"), "FieldName3");
        assert_eq!(json_name("FIELD_NAME11"), "FIELDNAME11");
        assert_eq!(json_name("field0name5"), "field0name5");
    }
}
