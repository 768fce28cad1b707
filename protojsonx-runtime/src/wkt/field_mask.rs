//! `google.protobuf.FieldMask`: one string of comma-separated paths in
//! lowerCamelCase, like `"user.displayName,photo"`.
//!
//! Each path is a dot-separated list of field names. Output converts
//! snake_case names to lowerCamelCase and fails for a path that would not
//! come back the same (an upper-case letter, or `_` not followed by a
//! lower-case letter), as the Go and C++ implementations do. Input converts
//! back and rejects paths that contain `_`.

use prost_types::FieldMask;

use crate::ProtoJson;
use crate::de::Decoder;
use crate::error::{Error, ErrorKind};
use crate::ser::Encoder;

/// Whether `path` is a dot-separated list of identifiers
/// (`[A-Za-z_][A-Za-z0-9_]*`), the only paths a field mask can name.
fn is_valid_path(path: &str) -> bool {
    path.split('.').all(|name| {
        let mut bytes = name.bytes();
        bytes
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

/// Converts a snake_case path to lowerCamelCase, or `None` when the result
/// would not convert back to `path`.
fn to_camel(path: &str, out: &mut String) -> Option<()> {
    if !is_valid_path(path) {
        return None;
    }
    let mut bytes = path.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'_' => match bytes.next() {
                Some(next) if next.is_ascii_lowercase() => {
                    out.push(next.to_ascii_uppercase().into())
                }
                _ => return None,
            },
            b if b.is_ascii_uppercase() => return None,
            b => out.push(b.into()),
        }
    }
    Some(())
}

/// Converts a lowerCamelCase path to snake_case, or `None` if it is not a
/// valid camel-case path (it holds `_` or is not made of identifiers).
fn to_snake(path: &str) -> Option<String> {
    if path.contains('_') || !is_valid_path(path) {
        return None;
    }
    let mut out = String::with_capacity(path.len() + 4);
    for c in path.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// One string of comma-separated lowerCamelCase paths.
impl ProtoJson for FieldMask {
    const SPECIAL_JSON: bool = true;

    fn write_json(&self, e: &mut Encoder<'_>) {
        let mut joined = String::new();
        for (i, path) in self.paths.iter().enumerate() {
            if i > 0 {
                joined.push(',');
            }
            if to_camel(path, &mut joined).is_none() {
                let message = format!(
                    "google.protobuf.FieldMask path {path:?} has no lowerCamelCase form \
                     that converts back to it"
                );
                e.fail(Error::encode(ErrorKind::Encode, message));
                return e.null();
            }
        }
        e.string(&joined);
    }

    fn read_json(&mut self, d: &mut Decoder<'_>) -> Result<(), Error> {
        let start = d.offset();
        let text = d.read_str()?;
        let text = text.trim_ascii();
        d.unset(&mut self.paths);
        if text.is_empty() {
            return Ok(());
        }
        for path in text.split(',') {
            match to_snake(path) {
                Some(snake) => self.paths.push(snake),
                None => {
                    let message = format!(
                        "invalid value for google.protobuf.FieldMask: invalid path {path:?} \
                         (expected lowerCamelCase field names separated by '.')"
                    );
                    return Err(d.invalid_at(start, message));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(paths: &[&str]) -> FieldMask {
        FieldMask {
            paths: paths.iter().map(|p| p.to_string()).collect(),
        }
    }

    #[test]
    fn encodes_camel_case_paths() {
        for (paths, json) in [
            (&[][..], "\"\""),
            (&["foo", "bar_baz"][..], "\"foo,barBaz\""),
            (&["a.b_c.d_e_f", "x1_y"][..], "\"a.bC.dEF,x1Y\""),
            (&["_foo"][..], "\"Foo\""),
        ] {
            assert_eq!(crate::to_string(&mask(paths)).unwrap(), json);
        }
    }

    #[test]
    fn rejects_paths_that_do_not_round_trip() {
        for path in [
            "fooBar",
            "foo_3_bar",
            "foo__bar",
            "foo_",
            "a..b",
            "",
            "a,b",
            "a-b",
            "1a",
            "é",
        ] {
            let err = crate::to_string(&mask(&["ok", path])).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Encode);
            assert_eq!(
                err.message(),
                format!(
                    "google.protobuf.FieldMask path {path:?} has no lowerCamelCase form that \
                     converts back to it"
                )
            );
        }
    }

    #[test]
    fn decodes_to_snake_case() {
        for (json, paths) in [
            ("\"\"", &[][..]),
            ("\" \"", &[][..]),
            ("\"foo,barBaz\"", &["foo", "bar_baz"][..]),
            ("\"a.bC.dEF,x1Y\"", &["a.b_c.d_e_f", "x1_y"][..]),
            ("\"Foo\"", &["_foo"][..]),
        ] {
            assert_eq!(
                crate::from_str::<FieldMask>(json).unwrap(),
                mask(paths),
                "{json}"
            );
        }
    }

    #[test]
    fn rejects_invalid_input_paths() {
        for (json, path) in [
            ("\"foo,bar_bar\"", "bar_bar"),
            ("\"foo,\"", ""),
            ("\"a..b\"", "a..b"),
            ("\"a, b\"", " b"),
            ("\"1a\"", "1a"),
        ] {
            let err = crate::from_str::<FieldMask>(json).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidValue);
            assert!(
                err.message().contains(&format!("invalid path {path:?}")),
                "{}",
                err.message()
            );
        }
        let err = crate::from_str::<FieldMask>("[]").unwrap_err();
        assert_eq!(err.message(), "expected string, found array");
    }
}
