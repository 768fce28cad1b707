//! JSON string output (RFC 8259 §7).
//!
//! The encoder writes every string field, map key and enum name through
//! [`write_str`], so this is the hot path of encoding: runs of bytes that need
//! no escaping are found sixteen bytes at a time ([`scan::plain_len`]) and
//! copied with a single `extend_from_slice`; the [`ESCAPE`] table says how to
//! write the rare byte that needs escaping.

use crate::text::scan;
use crate::text::short::{self, ShortText, Sink};

/// Marker in [`ESCAPE`]: the byte is copied verbatim.
const __: u8 = 0;
/// Marker in [`ESCAPE`]: the byte is written as `\u00XX`.
const UU: u8 = b'u';
/// Marker in [`ESCAPE`]: backspace, written as `\b`.
const BB: u8 = b'b';
/// Marker in [`ESCAPE`]: horizontal tab, written as `\t`.
const TT: u8 = b't';
/// Marker in [`ESCAPE`]: line feed, written as `\n`.
const NN: u8 = b'n';
/// Marker in [`ESCAPE`]: form feed, written as `\f`.
const FF: u8 = b'f';
/// Marker in [`ESCAPE`]: carriage return, written as `\r`.
const RR: u8 = b'r';
/// Marker in [`ESCAPE`]: quotation mark, written as `\"`.
const QU: u8 = b'"';
/// Marker in [`ESCAPE`]: reverse solidus, written as `\\`.
const BS: u8 = b'\\';

/// For each byte value: 0 if the byte is copied verbatim, otherwise the
/// character that follows the backslash in its escape (`u` meaning the
/// `\u00XX` form). Only control characters, `"` and `\` are escaped, as
/// RFC 8259 requires; DEL and all non-ASCII bytes (parts of valid UTF-8
/// sequences, since the input is a `&str`) are copied.
static ESCAPE: [u8; 256] = [
    //   1   2   3   4   5   6   7   8   9   A   B   C   D   E   F
    UU, UU, UU, UU, UU, UU, UU, UU, BB, TT, NN, UU, FF, RR, UU, UU, // 0
    UU, UU, UU, UU, UU, UU, UU, UU, UU, UU, UU, UU, UU, UU, UU, UU, // 1
    __, __, QU, __, __, __, __, __, __, __, __, __, __, __, __, __, // 2
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // 3
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // 4
    __, __, __, __, __, __, __, __, __, __, __, __, BS, __, __, __, // 5
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // 6
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // 7
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // 8
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // 9
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // A
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // B
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // C
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // D
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // E
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // F
];

/// Lowercase hexadecimal digits, used for the `\u00XX` escapes of control
/// characters (always lowercase, so output is deterministic).
static HEX: [u8; 16] = *b"0123456789abcdef";

/// Appends `s` as a complete JSON string literal (with the surrounding quotes)
/// to `out`.
///
/// Escapes exactly what RFC 8259 requires (`"`, `\` and U+0000..U+001F, using
/// the short forms `\b \f \n \r \t` where they exist) and copies everything
/// else, including non-ASCII UTF-8, verbatim.
#[inline]
pub(crate) fn write_str<S: Sink>(out: &mut S, s: &str) {
    let bytes = s.as_bytes();
    if bytes.len() <= ShortText::MAX_STR && scan::short_is_plain(bytes) {
        // The common case, a short plain string: inlined, no call to `memcpy`.
        short::append(out, |text| {
            text.byte(b'"').bytes(bytes).byte(b'"');
        });
    } else {
        out.vec(|out| write_long(out, bytes));
    }
}

/// [`write_str`] for strings that are long or need escaping.
#[inline(never)]
fn write_long(out: &mut Vec<u8>, bytes: &[u8]) {
    let plain = scan::plain_len(bytes);
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    out.extend_from_slice(&bytes[..plain]);
    if plain < bytes.len() {
        write_escaped(out, &bytes[plain..]);
    }
    out.push(b'"');
}

/// Appends `s` as a JSON string literal of ASCII only: escaped as by
/// [`write_str`], and every non-ASCII character written as `\uXXXX`
/// (lowercase hex, two escapes forming a surrogate pair above U+FFFF), as
/// Python's `ensure_ascii` writes it. The same scan as [`write_str`]'s,
/// with bytes from 0x80 up flagged too.
#[inline]
pub(crate) fn write_str_ascii<S: Sink>(out: &mut S, s: &str) {
    let bytes = s.as_bytes();
    if bytes.len() <= ShortText::MAX_STR && scan::short_is_plain_ascii(bytes) {
        short::append(out, |text| {
            text.byte(b'"').bytes(bytes).byte(b'"');
        });
    } else {
        out.vec(|out| write_ascii_long(out, s));
    }
}

/// Appends `bytes`, a string read off the binary wire, as a JSON string
/// literal (of ASCII only if `ascii_only`), or fails if they are not UTF-8.
/// A short string of plain ASCII, the common case, is written by the short
/// path of [`write_str_ascii`] without a separate validation pass: plain
/// ASCII is UTF-8.
#[inline]
pub(crate) fn write_utf8(
    out: &mut Vec<u8>,
    bytes: &[u8],
    ascii_only: bool,
) -> Result<(), std::str::Utf8Error> {
    if bytes.len() <= ShortText::MAX_STR && scan::short_is_plain_ascii(bytes) {
        short::append(out, |text| {
            text.byte(b'"').bytes(bytes).byte(b'"');
        });
        Ok(())
    } else {
        write_utf8_long(out, bytes, ascii_only)
    }
}

/// [`write_utf8`] for strings that are long, need escaping or are not ASCII.
#[inline(never)]
fn write_utf8_long(
    out: &mut Vec<u8>,
    bytes: &[u8],
    ascii_only: bool,
) -> Result<(), std::str::Utf8Error> {
    let s = std::str::from_utf8(bytes)?;
    if ascii_only {
        write_ascii_long(out, s);
    } else {
        write_long(out, bytes);
    }
    Ok(())
}

/// [`write_str_ascii`] for strings that are long or need escaping: as
/// [`write_long`], the plain ASCII run found before anything is written,
/// the rest escaped apart.
#[inline(never)]
fn write_ascii_long(out: &mut Vec<u8>, s: &str) {
    let plain = scan::plain_ascii_len(s.as_bytes());
    out.reserve(s.len() + 2);
    out.push(b'"');
    out.extend_from_slice(&s.as_bytes()[..plain]);
    if plain < s.len() {
        write_ascii_escaped(out, &s[plain..]);
    }
    out.push(b'"');
}

/// The rest of [`write_str_ascii`] from the first character that needs
/// escaping: escapes and plain ASCII runs in turn.
#[cold]
fn write_ascii_escaped(out: &mut Vec<u8>, mut rest: &str) {
    while let Some(c) = rest.chars().next() {
        if c.is_ascii() {
            write_escape(out, c as u8);
        } else {
            write_unicode_escape(out, c);
        }
        let tail = &rest[c.len_utf8()..];
        // A run of ASCII ends at a character boundary.
        let plain = scan::plain_ascii_len(tail.as_bytes());
        out.extend_from_slice(&tail.as_bytes()[..plain]);
        rest = &tail[plain..];
    }
}

/// Appends JSON text that is already escaped (a generated key) with its
/// non-ASCII characters written as `\uXXXX`, as [`write_str_ascii`] would.
pub(crate) fn write_escaped_ascii(out: &mut Vec<u8>, json: &[u8]) {
    if json.is_ascii() {
        return out.extend_from_slice(json);
    }
    for c in String::from_utf8_lossy(json).chars() {
        if c.is_ascii() {
            out.push(c as u8);
        } else {
            write_unicode_escape(out, c);
        }
    }
}

/// Appends `c` as one `\uXXXX` escape, or two for a surrogate pair.
fn write_unicode_escape(out: &mut Vec<u8>, c: char) {
    for unit in c.encode_utf16(&mut [0; 2]) {
        let hex = |shift: u16| HEX[usize::from((*unit >> shift) & 0xf)];
        out.extend_from_slice(&[b'\\', b'u', hex(12), hex(8), hex(4), hex(0)]);
    }
}

/// The rest of [`write_str`] from the first byte that needs escaping:
/// escapes and plain runs in turn.
#[cold]
fn write_escaped(out: &mut Vec<u8>, mut rest: &[u8]) {
    while let Some((&byte, tail)) = rest.split_first() {
        write_escape(out, byte);
        let plain = scan::plain_len(tail);
        out.extend_from_slice(&tail[..plain]);
        rest = &tail[plain..];
    }
}

/// Appends the escape sequence of `byte`, one that [`ESCAPE`] marks.
fn write_escape(out: &mut Vec<u8>, byte: u8) {
    let escape = ESCAPE[usize::from(byte)];
    if escape == UU {
        out.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(byte >> 4)],
            HEX[usize::from(byte & 0xf)],
        ]);
    } else {
        out.extend_from_slice(&[b'\\', escape]);
    }
}

#[cfg(test)]
mod tests {
    use super::{write_escaped_ascii, write_str, write_str_ascii, write_utf8};
    use crate::test_rng::Rng;

    /// Runs [`write_str`] into a fresh buffer and returns the text.
    fn esc(s: &str) -> String {
        let mut out = Vec::new();
        write_str(&mut out, s);
        String::from_utf8(out).expect("escaper output must be UTF-8")
    }

    /// Obviously-correct, character-at-a-time reference escaper.
    fn reference(s: &str) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }

    /// Tiny JSON string-literal decoder (for the escapes `write_str` emits).
    fn unescape(lit: &str) -> String {
        let inner = lit
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .expect("quoted");
        let mut out = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            assert!(c as u32 >= 0x20, "raw control character in output");
            assert_ne!(c, '"', "raw quote in output");
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next().expect("escape") {
                '"' => out.push('"'),
                '\\' => out.push('\\'),
                '/' => out.push('/'),
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                't' => out.push('\t'),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    let code = u32::from_str_radix(&hex, 16).expect("hex");
                    out.push(char::from_u32(code).expect("scalar"));
                }
                other => panic!("unexpected escape {other:?}"),
            }
        }
        out
    }

    #[test]
    fn every_ascii_byte() {
        for b in 0u8..=0x7f {
            let s = char::from(b).to_string();
            let expected = match b {
                b'"' => "\"\\\"\"".to_string(),
                b'\\' => "\"\\\\\"".to_string(),
                0x08 => "\"\\b\"".to_string(),
                0x0c => "\"\\f\"".to_string(),
                b'\n' => "\"\\n\"".to_string(),
                b'\r' => "\"\\r\"".to_string(),
                b'\t' => "\"\\t\"".to_string(),
                0..=0x1f => format!("\"\\u{b:04x}\""),
                _ => format!("\"{}\"", char::from(b)),
            };
            assert_eq!(esc(&s), expected, "byte {b:#04x}");
            assert_eq!(esc(&s), reference(&s));
            assert_eq!(unescape(&esc(&s)), s);
        }
        assert_eq!(esc("\u{1f}"), "\"\\u001f\"");
        assert_eq!(esc("\u{0}"), "\"\\u0000\"");
        assert_eq!(esc("\u{7f}"), "\"\u{7f}\"");
    }

    #[test]
    fn empty_string() {
        assert_eq!(esc(""), "\"\"");
    }

    #[test]
    fn utf8_passthrough() {
        let s = "h\u{e9}llo \u{2028}\u{2029} \u{10ffff} \u{1f600} \u{4e2d}\u{6587} \u{80}\u{7ff}\u{800}\u{ffff}";
        assert_eq!(esc(s), format!("\"{s}\""));
    }

    #[test]
    fn all_escapes() {
        assert_eq!(esc("\"\"\\\\"), "\"\\\"\\\"\\\\\\\\\"");
        assert_eq!(esc("\n\r\t\u{8}\u{c}\u{1}"), "\"\\n\\r\\t\\b\\f\\u0001\"");
        let s: String = (0u8..0x20).map(char::from).collect();
        assert_eq!(esc(&s), reference(&s));
        assert_eq!(unescape(&esc(&s)), s);
    }

    #[test]
    fn mixed_runs() {
        assert_eq!(esc("ab\"cd\\ef\ngh"), "\"ab\\\"cd\\\\ef\\ngh\"");
        assert_eq!(esc("\"abc"), "\"\\\"abc\"");
        assert_eq!(esc("abc\""), "\"abc\\\"\"");
    }

    #[test]
    fn appends_to_existing_buffer() {
        let mut out = b"[".to_vec();
        write_str(&mut out, "a\tb");
        out.push(b',');
        write_str(&mut out, "");
        assert_eq!(out, b"[\"a\\tb\",\"\"");
    }

    #[test]
    fn random_strings_match_reference() {
        const POOL: &[char] = &[
            'a',
            'Z',
            '0',
            ' ',
            '"',
            '\\',
            '/',
            '\n',
            '\r',
            '\t',
            '\u{0}',
            '\u{8}',
            '\u{c}',
            '\u{1f}',
            '\u{7f}',
            '\u{80}',
            '\u{e9}',
            '\u{7ff}',
            '\u{800}',
            '\u{2028}',
            '\u{fffd}',
            '\u{ffff}',
            '\u{10000}',
            '\u{1f600}',
            '\u{10ffff}',
        ];
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..5000 {
            let len = (rng.next() % 40) as usize;
            let s: String = (0..len)
                .map(|_| {
                    let r = rng.next();
                    if r & 3 == 0 {
                        // Any scalar value at all.
                        char::from_u32((r >> 8) as u32 % 0x11_0000).unwrap_or('x')
                    } else {
                        POOL[(r >> 8) as usize % POOL.len()]
                    }
                })
                .collect();
            let got = esc(&s);
            assert_eq!(got, reference(&s), "input {s:?}");
            assert_eq!(unescape(&got), s);
        }
    }

    /// [`write_utf8`] on random bytes, short and long, mostly ASCII with
    /// escapes and multi-byte characters, some cut or corrupted: it writes
    /// what `write_str` (or `write_str_ascii`) writes of valid UTF-8, and
    /// fails, writing nothing, on anything else.
    #[test]
    fn utf8_bytes_are_written_as_their_str_or_refused() {
        const POOL: &[&[u8]] = &[
            b"a",
            b"Z",
            b"0",
            b" ",
            b"\"",
            b"\\",
            b"\n",
            b"\x00",
            b"\x7f",
            "\u{e9}".as_bytes(),
            "\u{2028}".as_bytes(),
            "\u{1f600}".as_bytes(),
            b"\x80",
            b"\xc3",
            b"\xed\xa0\x80",
            b"\xff",
        ];
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..20_000 {
            let len = (rng.next() % 24) as usize;
            let mut bytes = Vec::new();
            for _ in 0..len {
                let r = rng.next() as usize;
                // Mostly plain ASCII, as most strings are.
                let piece = if r % 4 != 0 {
                    b"x"
                } else {
                    POOL[(r >> 8) % POOL.len()]
                };
                bytes.extend_from_slice(piece);
            }
            for ascii_only in [false, true] {
                let mut got = b"[".to_vec();
                let result = write_utf8(&mut got, &bytes, ascii_only);
                match std::str::from_utf8(&bytes) {
                    Ok(s) => {
                        assert!(result.is_ok(), "{bytes:?}");
                        let mut want = b"[".to_vec();
                        match ascii_only {
                            false => write_str(&mut want, s),
                            true => write_str_ascii(&mut want, s),
                        }
                        assert_eq!(got, want, "{bytes:?}");
                    }
                    Err(_) => {
                        assert!(result.is_err(), "{bytes:?}");
                        assert_eq!(got, b"[", "nothing written for {bytes:?}");
                    }
                }
            }
        }
    }

    /// Runs [`write_str_ascii`] into a fresh buffer and returns the text.
    fn esc_ascii(s: &str) -> String {
        let mut out = Vec::new();
        write_str_ascii(&mut out, s);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn ascii_only_escapes_every_non_ascii_character() {
        assert_eq!(
            esc_ascii("caf\u{e9} \u{1f370}"),
            r#""caf\u00e9 \ud83c\udf70""#
        );
        assert_eq!(
            esc_ascii("\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}"),
            r#""\u0080\u07ff\u0800\uffff\ud800\udc00\udbff\udfff""#
        );
        assert_eq!(esc_ascii("a\"\n\u{7f}"), "\"a\\\"\\n\u{7f}\"");
        let mut key = Vec::new();
        write_escaped_ascii(&mut key, "\"n\u{e9}\\\"\"".as_bytes());
        assert_eq!(key, br#""n\u00e9\"""#);
    }

    /// Random strings of every kind of character: the ASCII-only text is
    /// ASCII, and decodes (escapes and surrogate pairs undone) to the input.
    #[test]
    fn ascii_only_round_trips() {
        let mut rng = Rng(7);
        for _ in 0..2000 {
            let len = (rng.next() % 12) as usize;
            let s: String = (0..len)
                .filter_map(|_| {
                    let plane = [0x80, 0x800, 0x1_0000, 0x11_0000][(rng.next() % 4) as usize];
                    char::from_u32((rng.next() % plane) as u32)
                })
                .collect();
            let out = esc_ascii(&s);
            assert!(out.is_ascii(), "{out}");
            let back: String = serde_json::from_str(&out).unwrap();
            assert_eq!(back, s);
            if s.is_ascii() {
                assert_eq!(out, esc(&s));
            }
        }
    }
}
