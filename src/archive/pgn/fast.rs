//! The PGN reader's byte-level fast paths (fenced): the usual tag read at once
//! ([`Parser_::plain_tag`]), and non-ASCII characters told from their lead bytes
//! ([`Parser_::high_at`], [`Parser_::move_letter_at`]). Each reads what the plain
//! reader in `pgn/mod.rs` reads; the tests below check that they agree.

use super::*;

/// The bytes of a tag name [`Parser_::plain_tag`] reads: ASCII letters, digits, `_`.
pub(super) const TAG_NAME: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = matches!(i as u8, b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_');
        i += 1;
    }
    t
};

/// The offset of the first `"`, `\` or control character below U+000E (tab, line
/// ends) in `s`, eight bytes at a time: where a plain tag value ends, or may not be
/// plain.
#[inline]
pub(super) fn value_stop(s: &[u8]) -> Option<usize> {
    pub(super) const LO: u64 = 0x0101_0101_0101_0101;
    pub(super) const HI: u64 = 0x8080_8080_8080_8080;
    // high bit set in the first byte of x below n (and maybe in later ones)
    let below = |x: u64, n: u8| x.wrapping_sub(LO * u64::from(n)) & !x & HI;
    let mut chunks = s.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let stop = below(x ^ (LO * u64::from(b'"')), 1)
            | below(x ^ (LO * u64::from(b'\\')), 1)
            | below(x, 0x0E);
        if stop != 0 {
            return Some(base + (stop.trailing_zeros() / 8) as usize);
        }
        base += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| matches!(b, b'"' | b'\\' | 0..0x0E))
        .map(|k| base + k)
}

/// The length of the character at `i` in `s` when it is a move letter
/// ([`is_move_letter`]: a token starting with one can only be a move), else `None`
/// (also off a character boundary). Move letters have two or three bytes
/// ([`bmp_char`]).
#[inline]
pub(super) fn move_letter_len(s: &[u8], i: usize) -> Option<usize> {
    let (c, len) = bmp_char(s.get(i..)?)?;
    is_move_letter(c).then_some(len)
}

impl Parser_<'_, '_> {
    /// The length of the non-ASCII character that starts at `i` and whether it is white
    /// space or a BOM (what the scanners stop at), as [`Self::char_at`] would tell, but
    /// decoding only the few lead bytes such characters can start with. `None` at the
    /// end or off a character boundary.
    #[inline(always)]
    pub(super) fn high_at(&self, i: usize) -> Option<(usize, bool)> {
        let b = *self.s.get(i)?;
        let slow = || {
            self.char_at(i)
                .map(|c| (c.len_utf8(), c.is_whitespace() || c == '\u{FEFF}'))
        };
        match b {
            // U+0085, U+00A0
            0xC2 => slow(),
            0xC3..=0xDF => Some((2, false)),
            // U+1680, U+2000..U+205F, U+3000, U+FEFF: second byte 9A, 80, 81, 80, BB
            0xE1 | 0xE2 | 0xE3 | 0xEF => match self.s.get(i + 1) {
                Some(0x80 | 0x81 | 0x9A | 0xBB) => slow(),
                _ => Some((3, false)),
            },
            0xE0..=0xEF => Some((3, false)),
            0xF0..=0xF4 => Some((4, false)),
            _ => slow(),
        }
    }

    /// The length of the character at `i` when it is a move letter ([`is_move_letter`]:
    /// a token starting with one can only be a move), else `None` (also off a
    /// character boundary). Move letters have two or three bytes ([`bmp_char`]).
    #[inline]
    pub(super) fn move_letter_at(&self, i: usize) -> Option<usize> {
        move_letter_len(self.s, i)
    }

    /// The usual tag, `[Name "value"]` with an ASCII name, one space, and a value
    /// without escapes or control characters; `false` (nothing read) for anything
    /// else, which [`Self::tag`] reads in full (to the same tag, when it is one of these).
    #[inline(always)]
    pub(super) fn plain_tag(&mut self, start: usize) -> bool {
        let s = self.s;
        let name_start = start + 1;
        let mut name_end = name_start;
        while let Some(&b) = s.get(name_end)
            && TAG_NAME[usize::from(b)]
        {
            name_end += 1;
        }
        if name_end == name_start || s.get(name_end..name_end + 2) != Some(b" \"") {
            return false;
        }
        let v = name_end + 2;
        let Some(len) = s.get(v..).and_then(value_stop) else {
            return false;
        };
        let q = v + len;
        if s.get(q) != Some(&b'"') || s.get(q + 1) != Some(&b']') {
            return false;
        }
        self.out.tags.push(RawTag {
            span: span(start, q + 2),
            name: span(name_start, name_end),
            value: span(v, q),
            escaped: false,
        });
        self.pos = q + 2;
        true
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// `high_at` tells what decoding the character with `char_at` tells, for every
    /// non-ASCII character, at the end of the text or before another character, and
    /// `None` off a boundary.
    #[test]
    fn high_at_agrees_with_char_at() {
        let limits = Limits::default();
        for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
            for text in [c.to_string(), format!("{c}a"), format!("{c}\u{3000}")] {
                let p = Parser_::new(&text, &limits);
                let want = p
                    .char_at(0)
                    .map(|c| (c.len_utf8(), c.is_whitespace() || c == '\u{FEFF}'));
                assert_eq!(p.high_at(0), want, "{c:?}");
                for i in 1..c.len_utf8() {
                    assert_eq!(p.high_at(i), None, "{c:?} {i}");
                }
            }
        }
    }

    /// `move_letter_at` decodes every character as `char_at` does: it finds a move
    /// letter exactly where `char_at` finds one [`is_move_letter`], at the start of any
    /// text, and nothing off a character boundary.
    #[test]
    fn move_letter_at_agrees_with_char_at() {
        let limits = Limits::default();
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            for text in [c.to_string(), format!("{c}a"), format!("{c}马")] {
                let p = Parser_::new(&text, &limits);
                for i in 0..=c.len_utf8() {
                    let want = p
                        .char_at(i)
                        .filter(|&c| is_move_letter(u32::from(c)))
                        .map(char::len_utf8);
                    assert_eq!(p.move_letter_at(i), want, "{c:?} {i}");
                }
            }
        }
    }

    #[test]
    fn plain_tags() {
        // the fast path is taken and reads what the general path reads
        for text in [
            "[Event \"x\"]",
            "[Event \"12345678901234567\"]\n[Site \"\"]\n\n1.e4",
            "[Event \"a\tb\"] [Event \"a\\\"b\"]\r\n[Event \"x\"\n",
        ] {
            assert_eq!(
                parse_with::<true>(text, &Limits::default()),
                parse_with::<false>(text, &Limits::default()),
                "{text:?}"
            );
        }
        let g = parse_game("[White_Elo \"2024\"]", &Limits::default());
        assert_eq!(g.tags.len(), 1);
        assert_eq!(g.tags[0].value, Span::new(12, 16));
        assert_eq!(value_stop(b"0123456789abcdef\""), Some(16));
        assert_eq!(value_stop(b"01234567\\"), Some(8));
        assert_eq!(value_stop(b"0123\r5678"), Some(4));
        assert_eq!(value_stop(b"0123456789"), None);
    }
}
