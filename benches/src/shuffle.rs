//! Rewrites JSON with the keys of every object in a different, deterministic
//! order: the "shuffled keys" inputs. Values are copied byte for byte, so
//! numbers and strings keep their exact spelling.

/// `json` with each object's members permuted (never left in their original
/// order when there are two or more). `seed` picks the permutation.
///
/// Panics on input that is not valid JSON: it is only used on encoder output.
pub fn shuffle_keys(json: &[u8], seed: u64) -> Vec<u8> {
    let mut s = Shuffler {
        json,
        pos: 0,
        rng: seed | 1,
    };
    let mut out = Vec::with_capacity(json.len());
    s.value(&mut out);
    s.skip_ws();
    assert_eq!(s.pos, json.len(), "trailing bytes after the JSON value");
    out
}

/// A cursor over the input plus the permutation's random state.
struct Shuffler<'a> {
    json: &'a [u8],
    pos: usize,
    rng: u64,
}

impl Shuffler<'_> {
    fn skip_ws(&mut self) {
        while self.json.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
            self.pos += 1;
        }
    }

    fn expect(&mut self, byte: u8) {
        self.skip_ws();
        assert_eq!(self.json[self.pos], byte, "malformed JSON at {}", self.pos);
        self.pos += 1;
    }

    /// Copies or rewrites one value into `out`.
    fn value(&mut self, out: &mut Vec<u8>) {
        self.skip_ws();
        match self.json[self.pos] {
            b'{' => self.object(out),
            b'[' => self.array(out),
            b'"' => out.extend_from_slice(self.string()),
            _ => {
                let start = self.pos;
                while !matches!(
                    self.json[self.pos],
                    b',' | b'}' | b']' | b' ' | b'\n' | b'\t' | b'\r'
                ) {
                    self.pos += 1;
                }
                out.extend_from_slice(&self.json[start..self.pos]);
            }
        }
    }

    /// The raw bytes of the string at the cursor, quotes included.
    fn string(&mut self) -> &[u8] {
        let start = self.pos;
        self.pos += 1;
        while self.json[self.pos] != b'"' {
            self.pos += if self.json[self.pos] == b'\\' { 2 } else { 1 };
        }
        self.pos += 1;
        &self.json[start..self.pos]
    }

    fn array(&mut self, out: &mut Vec<u8>) {
        self.expect(b'[');
        out.push(b'[');
        self.skip_ws();
        if self.json[self.pos] == b']' {
            self.pos += 1;
            out.push(b']');
            return;
        }
        loop {
            self.value(out);
            self.skip_ws();
            self.pos += 1;
            match self.json[self.pos - 1] {
                b',' => out.push(b','),
                b']' => break out.push(b']'),
                other => panic!("malformed JSON array: {:?}", other as char),
            }
        }
    }

    fn object(&mut self, out: &mut Vec<u8>) {
        self.expect(b'{');
        let mut members: Vec<Vec<u8>> = Vec::new();
        self.skip_ws();
        if self.json[self.pos] == b'}' {
            self.pos += 1;
        } else {
            loop {
                self.skip_ws();
                let mut member = self.string().to_vec();
                self.expect(b':');
                member.push(b':');
                self.value(&mut member);
                members.push(member);
                self.skip_ws();
                self.pos += 1;
                match self.json[self.pos - 1] {
                    b',' => {}
                    b'}' => break,
                    other => panic!("malformed JSON object: {:?}", other as char),
                }
            }
        }
        self.permute(&mut members);
        out.push(b'{');
        out.extend_from_slice(&members.join(&b','));
        out.push(b'}');
    }

    /// Fisher-Yates with xorshift; an identity result is rotated by one.
    fn permute(&mut self, members: &mut [Vec<u8>]) {
        let original = members.to_vec();
        for i in (1..members.len()).rev() {
            self.rng ^= self.rng << 13;
            self.rng ^= self.rng >> 7;
            self.rng ^= self.rng << 17;
            members.swap(i, (self.rng % (i as u64 + 1)) as usize);
        }
        if members.len() > 1 && members == original.as_slice() {
            members.rotate_left(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::shuffle_keys;

    #[test]
    fn permutes_every_object_and_keeps_values() {
        let json = br#"{"a":1,"b":{"x":"s\"}","y":[1,{"p":true,"q":null}]},"c":-2.5e3}"#;
        let shuffled = shuffle_keys(json, 7);
        assert_ne!(shuffled.as_slice(), json.as_slice());
        let original: serde_json::Value = serde_json::from_slice(json).unwrap();
        let back: serde_json::Value = serde_json::from_slice(&shuffled).unwrap();
        assert_eq!(original, back);
        let text = String::from_utf8(shuffled).unwrap();
        assert!(!text.starts_with(r#"{"a":1,"b""#), "{text}");
        assert!(!text.contains(r#"{"p":true,"q":null}"#), "{text}");
        assert!(!text.contains(r#"{"x":"s\"}","y""#), "{text}");
    }

    #[test]
    fn leaves_empty_and_single_member_objects() {
        assert_eq!(
            shuffle_keys(br#"{"a":{},"b":[]}"#, 1),
            br#"{"b":[],"a":{}}"#
        );
        assert_eq!(
            shuffle_keys(br#"{"only":[{"x":1}]}"#, 3),
            br#"{"only":[{"x":1}]}"#
        );
    }
}
