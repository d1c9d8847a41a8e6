//! The speed tricks of the letter look-up: characters outside ASCII compared by a
//! number made from their bytes ([`utf8_key`]), without decoding, and found among a
//! table's letters by one multiplication ([`KeyIndex`]). Each is held to the plain
//! reading it replaces by a test beside it.

/// A list of distinct [`utf8_key`]s, each found by its position with one
/// multiplication and one comparison: the multiplier, searched for when the list is
/// made, sends every key to a slot of its own among 64. Where a scan would stop at a
/// different place for each key (a branch the processor mispredicts), this takes the
/// same path for all. A list no multiplier separates is scanned.
#[derive(Clone, Debug)]
pub(crate) struct KeyIndex {
    /// The multiplier; 0 when none was found.
    mul: u32,
    /// Per slot, its key (0, which is no key, when empty) and the key's position.
    slots: [(u32, u8); 64],
    keys: Vec<u32>,
}

impl KeyIndex {
    /// No keys.
    pub(crate) const EMPTY: KeyIndex = KeyIndex {
        mul: 0,
        slots: [(0, 0); 64],
        keys: Vec::new(),
    };

    /// The index of `keys` (which are distinct).
    pub(crate) fn new(keys: Vec<u32>) -> KeyIndex {
        let mut index = KeyIndex {
            keys,
            ..KeyIndex::EMPTY
        };
        if index.keys.len() > 32 || index.keys.contains(&0) {
            return index;
        }
        // odd multipliers from a fixed sequence: with a few keys in 64 slots, one of
        // the first hundred or so separates them
        let mut mul: u32 = 0x9E37_79B9;
        for _ in 0..10_000 {
            let mut slots = [(0u32, 0u8); 64];
            let separated = index.keys.iter().enumerate().all(|(i, &k)| {
                let slot = &mut slots[Self::slot(k, mul)];
                let free = slot.0 == 0;
                *slot = (k, i as u8);
                free
            });
            if separated {
                index.mul = mul;
                index.slots = slots;
                break;
            }
            mul = mul.wrapping_mul(0x2545_F491).wrapping_add(0x6C07_8965) | 1;
        }
        index
    }

    /// The slot of `key` under `mul`: the top six bits of their product.
    #[inline(always)]
    fn slot(key: u32, mul: u32) -> usize {
        (key.wrapping_mul(mul) >> 26) as usize
    }

    /// The position of `key` in the list.
    #[inline(always)]
    pub(crate) fn find(&self, key: u32) -> Option<usize> {
        if self.mul != 0 {
            let (k, i) = self.slots[Self::slot(key, self.mul)];
            (k == key).then_some(usize::from(i))
        } else {
            self.keys.iter().position(|&k| k == key)
        }
    }
}

/// The first character of `bytes` (UTF-8) when it lies outside ASCII: its bytes as a
/// big-endian number, and how many there are. `None` for ASCII, for nothing, and for
/// a byte that starts no character or a character cut short. Two characters have the
/// same number only when they are the same character: a cheap key for comparing
/// characters of a text with a few known ones.
#[inline]
pub(crate) fn utf8_key(bytes: &[u8]) -> Option<(u32, usize)> {
    // the first byte of a character of several bytes counts them in its leading ones
    let len = bytes.first()?.leading_ones() as usize;
    if !(2..=4).contains(&len) {
        return None;
    }
    // four bytes at hand (a letter and more of its move): the character's bytes are
    // the top `len` of them, one load and one shift
    match bytes.first_chunk::<4>() {
        Some(&word) => Some((u32::from_be_bytes(word) >> (8 * (4 - len)), len)),
        None => utf8_key_short(bytes, len),
    }
}

/// [`utf8_key`] byte by byte, for a character of `len` bytes (2 to 4) at the start of
/// `bytes` (fewer than four).
fn utf8_key_short(bytes: &[u8], len: usize) -> Option<(u32, usize)> {
    let key = match *bytes.get(..len)? {
        [x, y] => u32::from_be_bytes([0, 0, x, y]),
        [x, y, z] => u32::from_be_bytes([0, x, y, z]),
        [w, x, y, z] => u32::from_be_bytes([w, x, y, z]),
        _ => return None,
    };
    Some((key, len))
}

/// A number for a character, equal for two characters only when they are the same:
/// the character itself for ASCII, else its [`utf8_key`] (which is never below 128).
pub(crate) fn char_key(c: char) -> u32 {
    let mut buf = [0; 4];
    match utf8_key(c.encode_utf8(&mut buf).as_bytes()) {
        Some((key, _)) => key,
        None => u32::from(c),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::tables;
    use super::*;

    /// `KeyIndex::find` gives what a scan of the list gives: for the letters of every
    /// table, every BMP character and lists that no multiplier separates.
    #[test]
    fn key_index_agrees_with_a_scan() {
        let scan = |keys: &[u32], key: u32| keys.iter().position(|&k| k == key);
        let probes: Vec<u32> = (0x80..=0xFFFFu32)
            .filter_map(char::from_u32)
            .map(char_key)
            .collect();
        let mut lists: Vec<Vec<u32>> = tables()
            .iter()
            .map(|t| t.single_keys.keys.clone())
            .collect();
        // more keys than slots can separate, and one beyond the limit
        lists.push(probes.iter().copied().step_by(997).take(33).collect());
        lists.push(probes.iter().copied().take(32).collect());
        lists.push(Vec::new());
        let mut separated = 0;
        for keys in lists {
            let index = KeyIndex::new(keys.clone());
            separated += usize::from(index.mul != 0);
            for &key in probes.iter().chain(&keys) {
                assert_eq!(index.find(key), scan(&keys, key), "{key:X} in {keys:X?}");
            }
        }
        // every table's letters are separated
        assert!(separated > tables().len(), "{separated}");
    }

    #[test]
    fn utf8_keys_tell_characters_apart() {
        let mut seen = std::collections::HashMap::new();
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let mut buf = [0; 4];
            let text = format!("{c}f3");
            let key = utf8_key(text.as_bytes());
            if c.is_ascii() {
                assert_eq!(key, None);
                continue;
            }
            let (k, len) = key.unwrap();
            assert_eq!(len, c.encode_utf8(&mut buf).len(), "U+{:04X}", u32::from(c));
            assert_eq!(seen.insert(k, c), None, "U+{:04X}", u32::from(c));
        }
        assert_eq!(utf8_key(b""), None);
        assert_eq!(utf8_key(b"\x80f3"), None);
        assert_eq!(utf8_key(b"\xe9\xa9"), None);
        assert_eq!(utf8_key("马".as_bytes()), Some((0xE9_A9_AC, 3)));
    }

    /// `utf8_key` (four bytes loaded at once when there are four) gives what reading the
    /// character's bytes one by one gives: every character followed by nothing and by
    /// more of a move, and every lead byte before short, cut and odd continuations.
    #[test]
    fn utf8_key_agrees_with_a_byte_by_byte_reading() {
        let plain = |b: &[u8]| -> Option<(u32, usize)> {
            let len = b.first()?.leading_ones() as usize;
            if !(2..=4).contains(&len) || b.len() < len {
                return None;
            }
            let key = b[..len].iter().fold(0u32, |k, &x| (k << 8) | u32::from(x));
            Some((key, len))
        };
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            for suffix in ["", "f", "f3", "xf3+"] {
                let text = format!("{c}{suffix}");
                let b = text.as_bytes();
                assert_eq!(utf8_key(b), plain(b), "{text:?}");
            }
        }
        for lead in 0u8..=255 {
            for tail in [
                &[][..],
                &[0x80],
                &[0x80, 0xBF],
                &[0xBF; 3],
                &[0x80; 5],
                b"ab",
                b"abc",
            ] {
                let mut b = vec![lead];
                b.extend_from_slice(tail);
                assert_eq!(utf8_key(&b), plain(&b), "{b:X?}");
            }
        }
    }
}
