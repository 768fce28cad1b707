//! The options that change the text but not the values, applied to the
//! compact JSON the encoder writes: indentation ([`EncodeOptions::indent`])
//! and ASCII-only output ([`EncodeOptions::ensure_ascii`]).
//!
//! The encoder's fast path knows nothing of layout: generated code writes
//! compact UTF-8, and an option that asks for more costs one pass over that
//! text, paid only by those who ask. The compact text is well-formed JSON
//! with no whitespace outside strings, and its non-ASCII bytes are all
//! inside strings, which keeps both passes short.
//!
//! [`EncodeOptions::indent`]: crate::EncodeOptions::indent
//! [`EncodeOptions::ensure_ascii`]: crate::EncodeOptions::ensure_ascii

use crate::error::Error;
use crate::short::{self, ShortText};
use crate::{escape, scan, scratch};

/// How encoded JSON is laid out: the layout options of `EncodeOptions`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout {
    /// Spaces per level when pretty-printing.
    pub(crate) indent: Option<u8>,
    /// Non-ASCII characters as `\uXXXX`.
    pub(crate) ascii: bool,
}

impl Layout {
    /// Runs `encode`, which appends compact JSON to the buffer it is given,
    /// and appends its text to `out` in this layout. Nothing is appended
    /// when `encode` fails.
    pub(crate) fn encode(
        self,
        out: &mut Vec<u8>,
        encode: impl FnOnce(&mut Vec<u8>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        match self.indent {
            Some(spaces) => {
                let mut encode = Some(encode);
                scratch::compact(|compact| {
                    (encode.take().expect("called once"))(compact)?;
                    indent(compact, spaces, self.ascii, out);
                    Ok(())
                })
            }
            None => {
                let start = out.len();
                encode(out)?;
                escape_in_place(out, start);
                Ok(())
            }
        }
    }
}

/// Escapes the non-ASCII characters of `out[start..]`, in place when there
/// are none (the common case costs one scan).
fn escape_in_place(out: &mut Vec<u8>, start: usize) {
    if out[start..].is_ascii() {
        return;
    }
    let ascii = start + scan::ascii_len(&out[start..]);
    scratch::compact(|tail| {
        tail.extend_from_slice(&out[ascii..]);
        out.truncate(ascii);
        escape_non_ascii(tail, out);
    });
}

/// Appends `text` (UTF-8) with every non-ASCII character as `\uXXXX`.
fn escape_non_ascii(text: &[u8], out: &mut Vec<u8>) {
    let mut rest = text;
    loop {
        let ascii = scan::ascii_len(rest);
        out.extend_from_slice(&rest[..ascii]);
        rest = &rest[ascii..];
        let Some(c) = first_char(rest) else {
            // The end, or bytes that are not UTF-8 (never from the encoder).
            return out.extend_from_slice(rest);
        };
        escape::write_unicode_escape(out, c);
        rest = &rest[c.len_utf8()..];
    }
}

/// The character `bytes` starts with, if they start with a valid one.
fn first_char(bytes: &[u8]) -> Option<char> {
    let width = match bytes.first()? {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    };
    let head = bytes.get(..width)?;
    std::str::from_utf8(head).ok()?.chars().next()
}

/// Appends compact `json` pretty-printed: a member or element per line,
/// `spaces` per level, `"key": value`, `{}` and `[]` for empty containers,
/// no newline at the end (Python's `indent=n` layout); with `ascii`, the
/// non-ASCII characters of strings escaped. Strings are found a word at a
/// time and copied whole (short ones without a call to `memcpy`).
fn indent(json: &[u8], spaces: u8, ascii: bool, out: &mut Vec<u8>) {
    out.reserve(json.len() + json.len() / 2);
    let spaces = usize::from(spaces);
    let mut depth = 0;
    let mut i = 0;
    while let Some(&byte) = json.get(i) {
        i += 1;
        match byte {
            b'"' => {
                let end = string_end(json, i);
                copy_string(&json[i - 1..end], ascii, out);
                i = end;
            }
            b'{' | b'[' if matches!(json.get(i), Some(b'}' | b']')) => {
                out.extend_from_slice(&[byte, json[i]]);
                i += 1;
            }
            b'{' | b'[' => {
                out.push(byte);
                depth += 1;
                new_line(out, depth * spaces);
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                new_line(out, depth * spaces);
                out.push(byte);
            }
            b',' => {
                out.push(b',');
                new_line(out, depth * spaces);
            }
            b':' => out.extend_from_slice(b": "),
            _ => out.push(byte),
        }
    }
}

/// Appends a string with its quotes, its non-ASCII characters escaped
/// when `ascii`.
#[inline]
fn copy_string(text: &[u8], ascii: bool, out: &mut Vec<u8>) {
    if ascii {
        escape_non_ascii(text, out);
    } else if text.len() <= ShortText::MAX_STR {
        short::append(out, |short| {
            short.bytes(text);
        });
    } else {
        out.extend_from_slice(text);
    }
}

/// The index just past the closing quote of the string whose body starts
/// at `i`. The encoder escapes every control character, so the first byte
/// that is not plain string content is the quote or a backslash.
#[inline]
fn string_end(json: &[u8], mut i: usize) -> usize {
    loop {
        i += scan::plain_len(&json[i..]);
        match json.get(i) {
            Some(b'"') => return i + 1,
            Some(_) => i += 2, // a backslash and the byte it escapes
            None => return json.len(),
        }
    }
}

/// A line break and `width` spaces.
#[inline]
fn new_line(out: &mut Vec<u8>, width: usize) {
    if width <= ShortText::MAX_SPACES {
        short::append(out, |text| {
            text.byte(b'\n').spaces(width);
        });
    } else {
        out.push(b'\n');
        out.resize(out.len() + width, b' ');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn pretty(json: &str, spaces: u8) -> String {
        let mut out = b"<".to_vec();
        indent(json.as_bytes(), spaces, false, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn indent_puts_members_and_elements_on_their_own_lines() {
        assert_eq!(
            pretty(r#"{"a":[1,{},[]],"b":{"c":"x"}}"#, 2),
            "<{\n  \"a\": [\n    1,\n    {},\n    []\n  ],\n  \"b\": {\n    \"c\": \"x\"\n  }\n}"
        );
        assert_eq!(pretty("{}", 2), "<{}");
        assert_eq!(pretty("[]", 0), "<[]");
        assert_eq!(pretty(r#""s""#, 4), "<\"s\"");
        assert_eq!(pretty("[1,2]", 0), "<[\n1,\n2\n]");
    }

    #[test]
    fn strings_are_copied_whole() {
        let json = r#"{"k{,:}":"v\"[,]:\\","e":"\\"}"#;
        assert_eq!(
            pretty(json, 1),
            "<{\n \"k{,:}\": \"v\\\"[,]:\\\\\",\n \"e\": \"\\\\\"\n}"
        );
    }

    #[test]
    fn deep_indentation_past_a_short_text() {
        let json = "[".repeat(14) + &"]".repeat(14);
        let out = pretty(&json, 2);
        assert!(out.contains(&format!("\n{}[]", " ".repeat(26))), "{out}");
        let back: serde_json::Value = serde_json::from_str(&out[1..]).unwrap();
        assert_eq!(
            back,
            serde_json::from_str::<serde_json::Value>(&json).unwrap()
        );
    }

    fn ascii(text: &str) -> String {
        let mut out = text.as_bytes().to_vec();
        escape_in_place(&mut out, 0);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn ascii_only_escapes_every_non_ascii_character() {
        assert_eq!(ascii(r#""café 🍰""#), r#""caf\u00e9 \ud83c\udf70""#);
        assert_eq!(
            ascii("\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}"),
            r"\u0080\u07ff\u0800\uffff\ud800\udc00\udbff\udfff"
        );
        assert_eq!(ascii(r#"{"a":"\"\n"}"#), r#"{"a":"\"\n"}"#);
        let mut out = "é".as_bytes().to_vec();
        escape_in_place(&mut out, 2);
        assert_eq!(out, "é".as_bytes());
    }

    /// Random strings of every kind of character, in random JSON: the
    /// ASCII-only text is ASCII and means the same, pretty or not.
    #[test]
    fn layouts_keep_the_value() {
        let mut rng = Rng(11);
        for _ in 0..1000 {
            let text: String = (0..rng.next() % 12)
                .filter_map(|_| {
                    let plane = [0x80, 0x800, 0x1_0000, 0x11_0000][(rng.next() % 4) as usize];
                    char::from_u32((rng.next() % plane) as u32)
                })
                .collect();
            let value = serde_json::json!({ text.clone(): [text.clone(), {"n": 1, "e": {}}, []] });
            let compact = serde_json::to_vec(&value).unwrap();
            for layout in [
                Layout {
                    indent: None,
                    ascii: true,
                },
                Layout {
                    indent: Some(2),
                    ascii: false,
                },
                Layout {
                    indent: Some(3),
                    ascii: true,
                },
            ] {
                let mut out = Vec::new();
                layout
                    .encode(&mut out, |buf| {
                        buf.extend_from_slice(&compact);
                        Ok(())
                    })
                    .unwrap();
                assert!(!layout.ascii || out.is_ascii(), "{layout:?}");
                let back: serde_json::Value = serde_json::from_slice(&out).unwrap();
                assert_eq!(back, value, "{layout:?}");
                if layout.indent == Some(2) && !layout.ascii {
                    let python = serde_json::to_string_pretty(&value).unwrap();
                    assert_eq!(String::from_utf8(out).unwrap(), python);
                }
            }
        }
    }

    /// Pretty output is Python's `MessageToJson(indent=n)`, byte for byte
    /// (the texts below are Python protobuf 7.36's, for the same messages;
    /// `Struct` keys are sorted here, in insertion order there).
    #[test]
    fn indent_matches_python() {
        use crate::EncodeOptions;
        use prost::Message;
        use prost_types::{Any, Api, Duration, Method, SourceContext, Struct};
        let api = Api {
            name: "n".into(),
            methods: vec![Method {
                name: "m".into(),
                ..Default::default()
            }],
            source_context: Some(SourceContext {
                file_name: "f".into(),
            }),
            ..Default::default()
        };
        let any = Any {
            type_url: "type.googleapis.com/google.protobuf.Api".into(),
            value: api.encode_to_vec(),
        };
        let pretty = |spaces, m: &Any| EncodeOptions::new().indent(spaces).to_string(m).unwrap();
        assert_eq!(
            pretty(2, &any),
            r#"{
  "@type": "type.googleapis.com/google.protobuf.Api",
  "name": "n",
  "methods": [
    {
      "name": "m"
    }
  ],
  "sourceContext": {
    "fileName": "f"
  }
}"#
        );
        let duration = Any {
            type_url: "type.googleapis.com/google.protobuf.Duration".into(),
            value: Duration {
                seconds: 1,
                nanos: 0,
            }
            .encode_to_vec(),
        };
        assert_eq!(
            pretty(3, &duration),
            "{\n   \"@type\": \"type.googleapis.com/google.protobuf.Duration\",\n   \"value\": \"1s\"\n}"
        );
        let object: Struct = crate::from_str(r#"{"a": [1, {}, []], "b": {"c": "é"}}"#).unwrap();
        assert_eq!(
            EncodeOptions::new()
                .indent(1)
                .ensure_ascii(true)
                .to_string(&object)
                .unwrap(),
            "{\n \"a\": [\n  1,\n  {},\n  []\n ],\n \"b\": {\n  \"c\": \"\\u00e9\"\n }\n}"
        );
        assert_eq!(
            EncodeOptions::new().indent(0).to_string(&object).unwrap(),
            "{\n\"a\": [\n1,\n{},\n[]\n],\n\"b\": {\n\"c\": \"é\"\n}\n}"
        );
        // An empty message in an `Any` adds no members, and no blank line.
        let empty = Any {
            type_url: "type.googleapis.com/google.protobuf.SourceContext".into(),
            value: Vec::new(),
        };
        assert_eq!(
            pretty(2, &empty),
            "{\n  \"@type\": \"type.googleapis.com/google.protobuf.SourceContext\"\n}"
        );
    }
}
