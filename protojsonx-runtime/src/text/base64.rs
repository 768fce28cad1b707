//! Base64 for `bytes` fields.
//!
//! ProtoJSON writes `bytes` as standard base64 with padding (RFC 4648 §4) and
//! accepts, like Go's `protojson`, either the standard or the URL-safe
//! alphabet (RFC 4648 §5), with or without padding.

use core::fmt;

use crate::text::short;

/// The standard alphabet (RFC 4648 §4), indexed by 6-bit value; used for
/// encoding and to build [`DECODE_STD`].
static STD_ALPHABET: [u8; 64] =
    *b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The URL-safe alphabet (RFC 4648 §5), used to build [`DECODE_URL`].
const URL_ALPHABET: [u8; 64] = *b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Entry of a decode table for a byte outside the alphabet. Any value with
/// one of the top two bits set is invalid, so four looked-up values can be
/// checked at once by OR-ing them.
const INVALID: u8 = 0xff;

/// Builds the table mapping each byte to its 6-bit value in `alphabet`, or
/// [`INVALID`]; evaluated at compile time so the tables are plain data.
const fn decode_table(alphabet: &[u8; 64]) -> [u8; 256] {
    let mut table = [INVALID; 256];
    let mut i = 0;
    while i < 64 {
        table[alphabet[i] as usize] = i as u8;
        i += 1;
    }
    table
}

/// Byte -> 6-bit value for the standard alphabet (`+` `/`).
static DECODE_STD: [u8; 256] = decode_table(&STD_ALPHABET);

/// Byte -> 6-bit value for the URL-safe alphabet (`-` `_`).
static DECODE_URL: [u8; 256] = decode_table(&URL_ALPHABET);

/// Why base64 input was rejected (used to build a readable error message).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[expect(
    clippy::enum_variant_names,
    reason = "each variant names what is invalid; the shared prefix reads naturally"
)]
pub enum Base64Error {
    /// A byte that is not in the selected alphabet (or is `=` where only
    /// data may appear) at `offset` in the input.
    InvalidByte {
        /// Position of the offending byte in the input.
        offset: usize,
        /// The offending byte.
        byte: u8,
    },
    /// Unpadded input whose length leaves a single symbol in the last group,
    /// which cannot encode a whole byte.
    InvalidLength,
    /// `=` padding that is misplaced, too long, or does not complete a group
    /// of four.
    InvalidPadding,
}

impl fmt::Display for Base64Error {
    /// Formats the error for inclusion in a decode error message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Base64Error::InvalidByte { offset, byte } => write!(
                f,
                "invalid base64 character '{}' at offset {offset}",
                byte.escape_ascii()
            ),
            Base64Error::InvalidLength => f.write_str("invalid base64 length"),
            Base64Error::InvalidPadding => f.write_str("invalid base64 padding"),
        }
    }
}

/// Appends standard base64 (RFC 4648 §4 alphabet, with `=` padding) of
/// `input` to `out`; this is how ProtoJSON writes `bytes` fields.
pub(crate) fn encode(input: &[u8], out: &mut Vec<u8>) {
    let sym = |n: u32, shift: u32| STD_ALPHABET[((n >> shift) & 0x3f) as usize];
    out.reserve(input.len().div_ceil(3) * 4);
    let mut chunks = input.chunks_exact(3);
    for chunk in &mut chunks {
        let n = u32::from(chunk[0]) << 16 | u32::from(chunk[1]) << 8 | u32::from(chunk[2]);
        out.extend_from_slice(&[sym(n, 18), sym(n, 12), sym(n, 6), sym(n, 0)]);
    }
    match *chunks.remainder() {
        [a] => {
            let n = u32::from(a) << 16;
            out.extend_from_slice(&[sym(n, 18), sym(n, 12), b'=', b'=']);
        }
        [a, b] => {
            let n = u32::from(a) << 16 | u32::from(b) << 8;
            out.extend_from_slice(&[sym(n, 18), sym(n, 12), sym(n, 6), b'=']);
        }
        _ => {}
    }
}

/// Decodes base64 the way ProtoJSON parsers (Go `protojson`) accept it.
///
/// - The alphabet is URL-safe if the input contains `-` or `_`, standard
///   otherwise; a `+` or `/` in URL-safe input is an invalid byte.
/// - Padding is optional. Padded input must have a length that is a multiple
///   of four with one or two trailing `=`; unpadded input must not leave a
///   single symbol in its last group.
/// - Non-zero unused bits in the last symbol are ignored (lenient, like Go's
///   non-strict decoder). Whitespace is not allowed.
///
/// The bytes are appended to `out`; after an error, `out` holds some of them.
pub(crate) fn decode_into(input: &[u8], out: &mut Vec<u8>) -> Result<(), Base64Error> {
    match decode_std(input, out) {
        Some(()) => Ok(()),
        None => decode_general(input, out),
    }
}

/// [`decode_into`] for the common case, valid input of the standard
/// alphabet, in one pass and straight into `out`'s spare capacity; `None`
/// (with `out` as it was) for anything else, which [`decode_general`]
/// decodes or rejects. Eight groups of four symbols at a time are appended
/// as a [`short`] text, each group's three bytes one word store: no
/// zero-filling of `out` first and no copy per group.
#[inline]
fn decode_std(input: &[u8], out: &mut Vec<u8>) -> Option<()> {
    let padding = match input {
        [.., b'=', b'='] => 2,
        [.., b'='] => 1,
        _ => 0,
    };
    if padding > 0 && input.len() & 3 != 0 {
        return None;
    }
    let data = &input[..input.len() - padding];
    if data.len() % 4 == 1 {
        return None;
    }
    let start = out.len();
    let sym = |b: u8| DECODE_STD[usize::from(b)];
    // Invalid symbols (`=` included) are `INVALID`, which sets the top
    // bits; they are looked for once, at the end.
    let mut symbols = 0;
    // Eight groups' 24 bytes, each written as a word of 8: within the
    // short text's 32.
    for block in data.chunks(32) {
        short::append(out, |text| {
            let mut groups = block.chunks_exact(4);
            for group in &mut groups {
                let (a, b, c, d) = (sym(group[0]), sym(group[1]), sym(group[2]), sym(group[3]));
                symbols |= a | b | c | d;
                text.word(group_word(a, b, c, d), 3);
            }
            // A short last group: two symbols for one byte, three for two.
            let (a, b, c) = match *groups.remainder() {
                [a, b] => (sym(a), sym(b), 0),
                [a, b, c] => (sym(a), sym(b), sym(c)),
                _ => (0, 0, 0),
            };
            symbols |= a | b | c;
            text.word(
                group_word(a, b, c, 0),
                groups.remainder().len().saturating_sub(1),
            );
        });
    }
    if symbols & 0xc0 != 0 {
        out.truncate(start);
        return None;
    }
    Some(())
}

/// The three bytes a group of four symbols encodes (see [`group_bytes`]),
/// as the low bytes of a little-endian word.
#[inline(always)]
fn group_word(a: u8, b: u8, c: u8, d: u8) -> u64 {
    let [x, y, z] = group_bytes(a, b, c, d);
    u64::from_le_bytes([x, y, z, 0, 0, 0, 0, 0])
}

/// The three bytes a group of four symbols encodes, from the symbols'
/// 6-bit values; a short last group passes zeros and keeps the first one
/// or two bytes (their unused low bits are dropped, as decoders may).
#[inline(always)]
fn group_bytes(a: u8, b: u8, c: u8, d: u8) -> [u8; 3] {
    let n = u32::from(a) << 18 | u32::from(b) << 12 | u32::from(c) << 6 | u32::from(d);
    [(n >> 16) as u8, (n >> 8) as u8, n as u8]
}

/// [`decode_into`] for every input: either alphabet, and the errors.
#[cold]
fn decode_general(input: &[u8], out: &mut Vec<u8>) -> Result<(), Base64Error> {
    // Split off the padding: everything from the first `=` on.
    let data_len = input.iter().position(|&b| b == b'=').unwrap_or(input.len());
    let (data, padding) = input.split_at(data_len);
    // Padding is at most two `=`, all at the end, completing a group of four
    // (`& 3` is the length modulo 4).
    if !padding.is_empty()
        && (padding.len() > 2 || input.len() & 3 != 0 || padding.iter().any(|&b| b != b'='))
    {
        return Err(Base64Error::InvalidPadding);
    }
    // With valid padding, `data.len() % 4` is 2 or 3 here; only unpadded
    // input can leave a lone symbol (rejected below, after invalid bytes, so
    // the error names a bad character when there is one).
    let tail_len = data.len() % 4;

    let table = if data.iter().any(|&b| b == b'-' || b == b'_') {
        &DECODE_URL
    } else {
        &DECODE_STD
    };
    let invalid = |offset: usize| {
        // `offset` is within a group known to hold an invalid symbol; find it.
        let offset = (offset..data.len())
            .find(|&i| table[usize::from(data[i])] == INVALID)
            .unwrap_or(offset);
        Base64Error::InvalidByte {
            offset,
            byte: data.get(offset).copied().unwrap_or(0),
        }
    };

    out.reserve(data.len() / 4 * 3 + tail_len.saturating_sub(1));
    let mut groups = data.chunks_exact(4);
    for (index, group) in (&mut groups).enumerate() {
        let a = table[usize::from(group[0])];
        let b = table[usize::from(group[1])];
        let c = table[usize::from(group[2])];
        let d = table[usize::from(group[3])];
        if (a | b | c | d) & 0xc0 != 0 {
            return Err(invalid(index * 4));
        }
        out.extend_from_slice(&group_bytes(a, b, c, d));
    }
    let tail_start = data.len() - tail_len;
    match *groups.remainder() {
        [a] => {
            return Err(if table[usize::from(a)] == INVALID {
                invalid(tail_start)
            } else {
                Base64Error::InvalidLength
            });
        }
        [a, b] => {
            let (a, b) = (table[usize::from(a)], table[usize::from(b)]);
            if (a | b) & 0xc0 != 0 {
                return Err(invalid(tail_start));
            }
            out.extend_from_slice(&group_bytes(a, b, 0, 0)[..1]);
        }
        [a, b, c] => {
            let (a, b, c) = (
                table[usize::from(a)],
                table[usize::from(b)],
                table[usize::from(c)],
            );
            if (a | b | c) & 0xc0 != 0 {
                return Err(invalid(tail_start));
            }
            out.extend_from_slice(&group_bytes(a, b, c, 0)[..2]);
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Base64Error, decode_general, decode_into, encode};
    use crate::test_rng::Rng;

    /// Decodes into a fresh buffer.
    fn decode(input: &[u8]) -> Result<Vec<u8>, Base64Error> {
        let mut out = Vec::new();
        decode_into(input, &mut out).map(|()| out)
    }

    /// Encodes into a fresh buffer.
    fn enc(input: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        encode(input, &mut out);
        out
    }

    /// Asserts `data` round-trips, and that its URL-safe and unpadded forms
    /// decode to the same bytes.
    fn check_round_trip(data: &[u8]) {
        let std = enc(data);
        assert_eq!(std.len(), data.len().div_ceil(3) * 4);
        assert_eq!(decode(&std).as_deref(), Ok(data), "{std:?}");
        let url: Vec<u8> = std
            .iter()
            .map(|&b| match b {
                b'+' => b'-',
                b'/' => b'_',
                b => b,
            })
            .collect();
        assert_eq!(decode(&url).as_deref(), Ok(data));
        let unpadded: Vec<u8> = std.iter().copied().filter(|&b| b != b'=').collect();
        assert_eq!(decode(&unpadded).as_deref(), Ok(data));
        let url_unpadded: Vec<u8> = url.iter().copied().filter(|&b| b != b'=').collect();
        assert_eq!(decode(&url_unpadded).as_deref(), Ok(data));
    }

    #[test]
    fn rfc4648_vectors() {
        let vectors: [(&[u8], &[u8]); 7] = [
            (b"", b""),
            (b"f", b"Zg=="),
            (b"fo", b"Zm8="),
            (b"foo", b"Zm9v"),
            (b"foob", b"Zm9vYg=="),
            (b"fooba", b"Zm9vYmE="),
            (b"foobar", b"Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(enc(plain), encoded);
            assert_eq!(decode(encoded).as_deref(), Ok(plain));
            check_round_trip(plain);
        }
    }

    #[test]
    fn alphabet_edges() {
        assert_eq!(enc(&[0xfb, 0xff, 0xbf]), b"+/+/");
        assert_eq!(decode(b"+/+/"), Ok(vec![0xfb, 0xff, 0xbf]));
        assert_eq!(decode(b"-_-_"), Ok(vec![0xfb, 0xff, 0xbf]));
        assert_eq!(decode(b"-_-_-w"), Ok(vec![0xfb, 0xff, 0xbf, 0xfb]));
        assert_eq!(decode(b"-_-_-w=="), Ok(vec![0xfb, 0xff, 0xbf, 0xfb]));
    }

    #[test]
    fn appends_to_existing_buffer() {
        let mut out = b"x".to_vec();
        encode(b"fo", &mut out);
        assert_eq!(out, b"xZm8=");
    }

    #[test]
    fn exhaustive_short_round_trips() {
        check_round_trip(&[]);
        for a in 0..=255u8 {
            check_round_trip(&[a]);
            for b in 0..=255u8 {
                check_round_trip(&[a, b]);
            }
        }
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..20_000 {
            let r = rng.next().to_le_bytes();
            check_round_trip(&r[..3]);
        }
    }

    #[test]
    fn random_round_trips() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        for _ in 0..500 {
            let len = (rng.next() % 1001) as usize;
            let data: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            check_round_trip(&data);
        }
    }

    /// The one-pass path decodes what the general path decodes, and leaves
    /// everything else to it: random texts of symbols of both alphabets,
    /// `=` and other bytes, appended to a buffer that holds some bytes.
    #[test]
    fn the_fast_path_agrees_with_the_general_one() {
        let mut rng = Rng(0x5eed_ba5e_0064);
        let symbols = b"AZaz09+/-_=!= \n\xc3";
        for _ in 0..200_000 {
            // Up to six of `decode_std`'s blocks of 32 symbols.
            let len = (rng.next() % 200) as usize;
            let text: Vec<u8> = (0..len)
                .map(|_| match rng.next() % 8 {
                    0 => symbols[(rng.next() % symbols.len() as u64) as usize],
                    _ => super::STD_ALPHABET[(rng.next() % 64) as usize],
                })
                .collect();
            let (mut fast, mut general) = (b"held".to_vec(), b"held".to_vec());
            let result = decode_into(&text, &mut fast);
            assert_eq!(result, decode_general(&text, &mut general), "{text:?}");
            if result.is_ok() {
                assert_eq!(fast, general, "{text:?}");
            }
        }
    }

    #[test]
    fn lenient_trailing_bits() {
        // "Zh" has non-zero bits below the single encoded byte.
        assert_eq!(decode(b"Zh=="), Ok(b"f".to_vec()));
        assert_eq!(decode(b"Zh"), Ok(b"f".to_vec()));
        assert_eq!(decode(b"Zm9="), Ok(b"fo".to_vec()));
    }

    #[test]
    fn rejects_invalid_bytes() {
        let bad = |offset, byte| Err(Base64Error::InvalidByte { offset, byte });
        assert_eq!(decode(b"Zm9v!A=="), bad(4, b'!'));
        assert_eq!(decode(b"Zm!v"), bad(2, b'!'));
        assert_eq!(decode(b"Zm9vYm!"), bad(6, b'!'));
        assert_eq!(decode(b"Zm9vY!"), bad(5, b'!'));
        assert_eq!(decode(b"Zm9v Zm9v"), bad(4, b' '));
        assert_eq!(decode(b"Zm9v\nZm9"), bad(4, b'\n'));
        assert_eq!(decode(b"Zm9v!"), bad(4, b'!'));
        assert_eq!(decode(b"="), Err(Base64Error::InvalidPadding));
        assert_eq!(decode(b"Zm9v\xc3\xa9A"), bad(4, 0xc3));
        // Mixed alphabets: the URL-safe alphabet is selected, `+`/`/` are invalid.
        assert_eq!(decode(b"+-AA"), bad(0, b'+'));
        assert_eq!(decode(b"AA_/"), bad(3, b'/'));
        assert_eq!(decode(b"AAAA/AA-"), bad(4, b'/'));
    }

    #[test]
    fn rejects_bad_length() {
        assert_eq!(decode(b"A"), Err(Base64Error::InvalidLength));
        assert_eq!(decode(b"Zm9vA"), Err(Base64Error::InvalidLength));
        assert_eq!(decode(b"Zm9vYmFyA"), Err(Base64Error::InvalidLength));
    }

    #[test]
    fn rejects_bad_padding() {
        for bad in [
            &b"="[..],
            b"==",
            b"===",
            b"====",
            b"A===",
            b"A=",
            b"AA=",
            b"AAA==",
            b"AA=A",
            b"A=AA",
            b"AA==AA==",
            b"Zm9v=",
            b"Zm8=Zm8=",
            b"Zg===",
            b"Zg==\n",
        ] {
            assert_eq!(decode(bad), Err(Base64Error::InvalidPadding), "{bad:?}");
        }
    }

    #[test]
    fn random_text_never_panics() {
        // Random strings over a base64-ish alphabet: decoding never panics,
        // and accepted input decodes to the expected length and re-encodes
        // to the same symbols (up to alphabet, padding and unused bits).
        const ALPHABET: &[u8] = b"AZaz09+/-_==!";
        let mut rng = Rng(0x0bad_5eed_1234_5678);
        for _ in 0..200_000 {
            let len = (rng.next() % 10) as usize;
            let text: Vec<u8> = (0..len)
                .map(|_| ALPHABET[(rng.next() % ALPHABET.len() as u64) as usize])
                .collect();
            if let Ok(bytes) = decode(&text) {
                let data = text.iter().filter(|&&b| b != b'=').count();
                assert_eq!(bytes.len(), data * 3 / 4, "{text:?}");
                let again = enc(&bytes);
                assert_eq!(again.len(), bytes.len().div_ceil(3) * 4);
                // All but the last symbol are determined by the bytes.
                let normalize = |b: &u8| match b {
                    b'-' => b'+',
                    b'_' => b'/',
                    b => *b,
                };
                let full = data.saturating_sub(1);
                assert!(
                    text[..full]
                        .iter()
                        .map(normalize)
                        .eq(again[..full].iter().copied()),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn error_messages() {
        let e = Base64Error::InvalidByte {
            offset: 3,
            byte: b'x',
        };
        assert_eq!(e.to_string(), "invalid base64 character 'x' at offset 3");
        let e = Base64Error::InvalidByte {
            offset: 0,
            byte: 0xc3,
        };
        assert_eq!(
            e.to_string(),
            "invalid base64 character '\\xc3' at offset 0"
        );
        assert_eq!(
            Base64Error::InvalidLength.to_string(),
            "invalid base64 length"
        );
        assert_eq!(
            Base64Error::InvalidPadding.to_string(),
            "invalid base64 padding"
        );
    }
}
