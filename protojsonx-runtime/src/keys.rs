//! A message's field keys, and the table that finds a field from the first
//! bytes of a key that came out of declaration order.
//!
//! [`Decoder::read_fields`](crate::de::Decoder::read_fields) first expects
//! the field after the last one read: its key is compared with the input
//! directly. When keys come in another order, the key in the input is
//! hashed where it stands (its first 16 bytes, up to the closing quote) and
//! looked up in a small open table built at compile time; the one candidate
//! found is then compared like the speculative key. Any miss (an escaped or
//! unknown key, whitespace before the colon, a rare hash collision) is read
//! as a string and looked up by name, so the table only has to be fast,
//! never complete. A hash costs the same for every field, where trying each
//! key in turn costs a compare per field tried and mispredicts its exit.

/// One field's keys: its JSON name and its proto name, each quoted and
/// followed by a colon, as the encoder writes them (`"userId":`).
pub type FieldKeys = (&'static [u8], &'static [u8]);

/// A message's keys in declaration order and the hash table over them,
/// built by the `const fn` [`KeyTable::new`] in generated code (a `const`
/// item per message), so no work is left for run time. `SLOTS` is a power
/// of two, at least twice the number of fields (the generator picks four
/// times, which leaves few collisions to resolve); each slot holds 0 (free)
/// or one more than a spelling's number: field `i`'s JSON key is `i`, its
/// proto key `fields + i`. Part of the contract with generated code.
pub struct KeyTable<const SLOTS: usize> {
    keys: &'static [FieldKeys],
    multiplier: u64,
    slots: [u16; SLOTS],
}

/// Multipliers tried when building a table, until one leaves no two JSON
/// keys in one slot (the table with the fewest collisions is kept).
const TRIES: u64 = 32;

impl<const SLOTS: usize> KeyTable<SLOTS> {
    /// The table for `keys`, with the multiplier (of the [`TRIES`]) that
    /// puts the most JSON keys in slots of their own. Proto keys that
    /// differ from the JSON key take the slots left free: they are the rarer
    /// spelling, and a proto key left out is still found by name.
    pub const fn new(keys: &'static [FieldKeys]) -> Self {
        assert!(SLOTS.is_power_of_two() && SLOTS >= 2 * keys.len());
        assert!(2 * keys.len() < u16::MAX as usize);
        let mut best = Self::with_multiplier(keys, odd_multiplier(0));
        let mut try_ = 1;
        while best.1 > 0 && try_ < TRIES {
            let table = Self::with_multiplier(keys, odd_multiplier(try_));
            if table.1 < best.1 {
                best = table;
            }
            try_ += 1;
        }
        best.0
    }

    /// The table with `multiplier`, and how many JSON keys found their slot taken.
    const fn with_multiplier(keys: &'static [FieldKeys], multiplier: u64) -> (Self, usize) {
        let mut table = KeyTable {
            keys,
            multiplier,
            slots: [0; SLOTS],
        };
        let mut collisions = 0;
        let mut spelling = 0;
        while spelling < 2 * keys.len() {
            let (field, proto) = (spelling % keys.len(), spelling >= keys.len());
            let key = if proto { keys[field].1 } else { keys[field].0 };
            let slot = table.slot(key, 1);
            if table.slots[slot] == 0 {
                table.slots[slot] = spelling as u16 + 1;
            } else if !proto {
                collisions += 1;
            }
            spelling += 1;
        }
        (table, collisions)
    }

    /// The keys, in declaration order.
    #[inline]
    pub(crate) fn keys(&self) -> &'static [FieldKeys] {
        self.keys
    }

    /// The key the input may hold at `at` (just after a key's opening
    /// quote), with its field's index; `None` if no key hashes there. The
    /// caller compares the key with the input.
    #[inline]
    pub(crate) fn candidate(&self, input: &[u8], at: usize) -> Option<(usize, &'static [u8])> {
        let spelling = usize::from(self.slots[self.slot(input, at)]).checked_sub(1)?;
        let fields = self.keys.len();
        Some(match spelling.checked_sub(fields) {
            None => (spelling, self.keys[spelling].0),
            Some(field) => (field, self.keys[field].1),
        })
    }

    /// The slot of the key whose text starts at `at` in `bytes`.
    #[inline(always)]
    const fn slot(&self, bytes: &[u8], at: usize) -> usize {
        let hash = name_hash(bytes, at).wrapping_mul(self.multiplier);
        (hash >> (64 - SLOTS.trailing_zeros())) as usize
    }
}

/// The `try_`-th multiplier: odd, with bits spread over the whole word.
const fn odd_multiplier(try_: u64) -> u64 {
    0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(try_ + 1) | 1
}

/// The first 16 bytes of a key's text from `at`, up to and including the
/// first `"` (a key's end, or a quote escaped in it), folded into a word.
/// What follows that quote (the colon, the value) never counts, so a key
/// hashes the same in the input and in its [`FieldKeys`] spelling.
#[inline(always)]
const fn name_hash(bytes: &[u8], at: usize) -> u64 {
    let (low, high) = words_at(bytes, at);
    let (low_quotes, high_quotes) = (quotes(low), quotes(high));
    let low_mask = through_first(low_quotes);
    // The second word counts only if the first holds no quote.
    let high_mask = through_first(high_quotes) & ((low_quotes == 0) as u64).wrapping_neg();
    (low & low_mask).wrapping_mul(0xff51_afd7_ed55_8ccd) ^ (high & high_mask)
}

/// `0x80` in each byte of `w` that is `"`, or in a byte above one that is
/// (the lowest flagged byte is always exact; SWAR borrows only move up).
#[inline(always)]
const fn quotes(w: u64) -> u64 {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let x = w ^ (ONES * b'"' as u64);
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// A mask of the bytes up to and including the lowest flagged one; all
/// bytes if none is.
#[inline(always)]
const fn through_first(flags: u64) -> u64 {
    flags ^ flags.wrapping_sub(1)
}

/// The sixteen bytes of `bytes` from `at` as two little-endian words,
/// zeros past the end.
#[inline(always)]
const fn words_at(bytes: &[u8], at: usize) -> (u64, u64) {
    let mut padded = [0; 16];
    let chunk = match bytes.split_at_checked(at) {
        Some((_, rest)) => match rest.first_chunk::<16>() {
            Some(chunk) => chunk,
            None => {
                // The last key of the input: copied, zero-padded.
                let mut i = 0;
                while i < rest.len() {
                    padded[i] = rest[i];
                    i += 1;
                }
                &padded
            }
        },
        None => &padded,
    };
    let (low, high) = chunk.split_at(8);
    (
        u64::from_le_bytes(*low.first_chunk::<8>().unwrap()),
        u64::from_le_bytes(*high.first_chunk::<8>().unwrap()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: &[FieldKeys] = &[
        (b"\"id\":", b"\"id\":"),
        (b"\"userId\":", b"\"user_id\":"),
        (b"\"shippingAddressLine1\":", b"\"shipping_address_line1\":"),
        (b"\"shippingAddressLine2\":", b"\"shipping_address_line2\":"),
        (b"\"a\\\"b\":", b"\"a\\\"b\":"),
    ];
    const TABLE: KeyTable<32> = KeyTable::new(KEYS);

    /// What `candidate` finds for `input`, which starts with a key.
    fn find(input: &[u8]) -> Option<(usize, &'static [u8])> {
        TABLE.candidate(input, 1)
    }

    #[test]
    fn every_json_key_is_found_whatever_follows_it() {
        for (field, &(json, _)) in KEYS.iter().enumerate().take(2) {
            for value in [&b""[..], b"1", b"\"x\",\"y\":2}", b"{\"id\":\"\"}"] {
                let input = [json, value].concat();
                assert_eq!(find(&input), Some((field, json)), "{input:?}");
            }
        }
    }

    #[test]
    fn keys_sharing_their_first_16_bytes_share_a_candidate() {
        // Beyond 16 bytes only the first spelling in a slot is found; the
        // caller's comparison fails for the other and it is read by name.
        let (line1, line2) = (KEYS[2].0, KEYS[3].0);
        let found = find(line1);
        assert_eq!(found, find(line2));
        assert!(found == Some((2, line1)) || found == Some((3, line2)));
    }

    #[test]
    fn escaped_keys_hash_like_their_spelling() {
        assert_eq!(find(br#""a\"b":true"#), Some((4, KEYS[4].0)));
    }

    #[test]
    fn proto_keys_take_free_slots() {
        assert_eq!(find(b"\"user_id\":1"), Some((1, KEYS[1].1)));
    }

    #[test]
    fn unknown_keys_find_at_most_a_wrong_candidate() {
        for input in [&b"\"nope\":1"[..], b"\"i", b"\"", b"\"\":"] {
            if let Some((_, key)) = find(input) {
                assert!(!input.starts_with(key), "{input:?}");
            }
        }
    }

    #[test]
    fn words_past_the_end_are_zero_padded() {
        let word = |bytes: &[u8; 8]| u64::from_le_bytes(*bytes);
        assert_eq!(words_at(b"abc", 1), (word(b"bc\0\0\0\0\0\0"), 0));
        assert_eq!(words_at(b"abc", 9), (0, 0));
        let input = b"abcdefghijklmnopqr";
        assert_eq!(words_at(input, 2), (word(b"cdefghij"), word(b"klmnopqr")));
        assert_eq!(words_at(input, 3), (word(b"defghijk"), word(b"lmnopqr\0")));
    }

    #[test]
    fn hashes_stop_at_the_first_quote() {
        assert_eq!(name_hash(b"\"ab\":1", 1), name_hash(b"\"ab\":{\"c\":[]}", 1));
        assert_ne!(name_hash(b"\"ab\":", 1), name_hash(b"\"ac\":", 1));
        let long = b"\"abcdefghijklmnopqrstuvwxyz\":";
        assert_eq!(name_hash(long, 1), name_hash(b"\"abcdefghijklmnopXYZ\":", 1));
        assert_ne!(name_hash(long, 1), name_hash(b"\"abcdefghijklmnoX\":", 1));
    }

    #[test]
    fn small_tables_have_no_collisions() {
        let keys: &'static [FieldKeys] = &[
            (b"\"orderId\":", b"\"order_id\":"),
            (b"\"orderDate\":", b"\"order_date\":"),
            (b"\"customer\":", b"\"customer\":"),
            (b"\"items\":", b"\"items\":"),
            (b"\"total\":", b"\"total\":"),
            (b"\"currency\":", b"\"currency\":"),
            (b"\"status\":", b"\"status\":"),
            (b"\"notes\":", b"\"notes\":"),
        ];
        // Every JSON key is its own candidate: none lost its slot.
        let table = KeyTable::<32>::new(keys);
        for (field, &(json, proto)) in keys.iter().enumerate() {
            assert_eq!(table.candidate(json, 1), Some((field, json)));
            if let Some((index, key)) = table.candidate(proto, 1)
                && key == proto
            {
                assert_eq!(index, field);
            }
        }
    }
}
