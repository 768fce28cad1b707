//! Percent-decoding of variable values, as Envoy's transcoder does it.

use std::borrow::Cow;

/// Which escapes a value keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Keep {
    /// Decode every escape: a value of a single segment.
    Nothing,
    /// Keep the escapes of RFC 6570 reserved characters: a value of several
    /// segments, where a decoded `%2F` would read as a separator.
    Reserved,
}

/// Decodes the `%XX` escapes of `raw`, but those `keep` keeps; a `%` that
/// does not start two hex digits is kept as it is, and so is `+`. A value
/// without escapes, as most are, is `raw` itself.
pub(super) fn decode(raw: &str, keep: Keep) -> Cow<'_, [u8]> {
    let bytes = raw.as_bytes();
    if !bytes.contains(&b'%') {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match escaped(bytes, i) {
            Some(b) if !(keep == Keep::Reserved && is_reserved(b)) => {
                out.push(b);
                i += 3;
            }
            _ => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    Cow::Owned(out)
}

/// The byte escaped at `i`, if `%` and two hex digits are there.
fn escaped(bytes: &[u8], i: usize) -> Option<u8> {
    if bytes[i] != b'%' {
        return None;
    }
    let hi = hex(*bytes.get(i + 1)?)?;
    let lo = hex(*bytes.get(i + 2)?)?;
    Some(hi << 4 | lo)
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// The reserved characters of RFC 6570 (its gen-delims and sub-delims).
fn is_reserved(b: u8) -> bool {
    b"!#$&'()*+,/:;=?@[]".contains(&b)
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::{Keep, decode};

    fn decoded(raw: &str, keep: Keep) -> Vec<u8> {
        decode(raw, keep).into_owned()
    }

    #[test]
    fn a_value_without_escapes_is_borrowed() {
        for keep in [Keep::Nothing, Keep::Reserved] {
            assert!(matches!(
                decode("shelves/1+a b", keep),
                Cow::Borrowed(b"shelves/1+a b")
            ));
        }
    }

    #[test]
    fn decodes_everything_for_one_segment() {
        assert_eq!(decoded("p%20q%2Fr+", Keep::Nothing), b"p q/r+");
        assert_eq!(
            decoded(
                "%21%23%24%26%27%28%29%2A%2B%2C%2F%3A%3B%3D%3F%40%5B%5D",
                Keep::Nothing
            ),
            b"!#$&'()*+,/:;=?@[]"
        );
        assert_eq!(decoded("%c3%A9%25", Keep::Nothing), "é%".as_bytes());
        assert_eq!(decoded("%FF%00", Keep::Nothing), b"\xff\x00");
    }

    #[test]
    fn keeps_reserved_escapes_for_several_segments() {
        let reserved = "%21%23%24%26%27%28%29%2A%2B%2C%2F%3A%3B%3D%3F%40%5B%5D";
        assert_eq!(decoded(reserved, Keep::Reserved), reserved.as_bytes());
        assert_eq!(
            decoded("p/foo%20foo/bar%2fbar+", Keep::Reserved),
            b"p/foo foo/bar%2fbar+"
        );
        assert_eq!(decoded("%25%7E%41", Keep::Reserved), b"%~A");
    }

    #[test]
    fn keeps_invalid_escapes() {
        for keep in [Keep::Nothing, Keep::Reserved] {
            assert_eq!(decoded("%zz%2%", keep), b"%zz%2%");
            assert_eq!(decoded("%%41", keep), b"%A");
            assert_eq!(decoded("%2%41", keep), b"%2A");
            assert_eq!(decoded("%4", keep), b"%4");
            assert_eq!(decoded("", keep), b"");
        }
    }
}
