//! Helpers shared by the unit tests (compiled for tests only).

/// A fixed-seed xorshift64 generator (13, 7, 17): the same pseudo-random inputs on
/// every run, so that a failure can be replayed.
pub(crate) struct XorShift(u64);

impl XorShift {
    /// A generator from `seed`, which must not be zero.
    pub(crate) fn new(seed: u64) -> XorShift {
        XorShift(seed)
    }

    /// The next number.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next number below `n` (by remainder), as an index.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A word of `min_len` to `min_len + 3` bytes over `alphabet` (up to 8 bytes in all),
/// all of it from one draw of `rng`: its length from the low bits, byte `i` from the
/// draw shifted by `8 * i`.
pub(crate) fn random_word(rng: &mut XorShift, alphabet: &[u8], min_len: usize) -> Vec<u8> {
    assert!(
        min_len + 3 <= 8,
        "random_word makes words of at most 8 bytes"
    );
    let draw = rng.next();
    let len = min_len + (draw % 4) as usize;
    (0..len)
        .map(|i| alphabet[((draw >> (8 * i)) % alphabet.len() as u64) as usize])
        .collect()
}

/// Every byte string over `alphabet` of up to `max_len` bytes, the empty one first,
/// shorter before longer.
pub(crate) fn all_words(alphabet: &[u8], max_len: usize) -> Vec<Vec<u8>> {
    let mut words: Vec<Vec<u8>> = vec![Vec::new()];
    let mut last: Vec<Vec<u8>> = vec![Vec::new()];
    for _ in 0..max_len {
        let mut next = Vec::new();
        for w in &last {
            for &c in alphabet {
                let mut u = w.clone();
                u.push(c);
                next.push(u);
            }
        }
        words.extend(next.iter().cloned());
        last = next;
    }
    words
}

/// The text of every `.pgn` file under `../shared/corpus/<sub>` (next to the crate;
/// `sub` may be empty), read as UTF-8 with invalid bytes replaced. Empty, with a note
/// on standard error, when the shared corpus is absent (a checkout without it), so
/// that the corpus cases of a test are skipped visibly.
pub(crate) fn corpus_pgn_texts(sub: &str) -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(sub);
    if !root.is_dir() {
        eprintln!(
            "note: {} is absent: its corpus cases are skipped",
            root.display()
        );
        return Vec::new();
    }
    let mut texts = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for path in std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
        {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                let bytes =
                    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                texts.push(String::from_utf8_lossy(&bytes).into_owned());
            }
        }
    }
    texts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xorshift_sequence_and_words() {
        let mut r = XorShift::new(1);
        // 1 → 1 ^ 1<<13 = 8193; ^ >>7 (64) = 8257; ^ <<17 = 8257 ^ 1082261504
        assert_eq!(r.next(), 1_082_269_761);
        assert_eq!(r.below(1), 0);
        let w = all_words(b"ab", 2);
        let w: Vec<&[u8]> = w.iter().map(Vec::as_slice).collect();
        assert_eq!(w, [&b""[..], b"a", b"b", b"aa", b"ab", b"ba", b"bb"]);
    }
}
