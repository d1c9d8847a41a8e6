//! The text encodings kyphu reads: an encoding_rs [`Encoding`] or one of the Vietnamese
//! legacy encodings of [`crate::text::legacy`] (issue 28), as one small `Copy` value,
//! [`TextEncoding`], carried from `--encoding` to the report of every game.
//!
//! # Guessing a Vietnamese legacy encoding
//!
//! VNI, TCVN3 and VISCII map nearly every byte 0x80–0xFF to a letter, so the byte
//! scores of [`crate::text::decode`] cannot tell them from windows-1252. What tells
//! them is the language: a Vietnamese word is one syllable of a closed shape (an
//! initial consonant, a vowel group, a final consonant, at most one tone mark).
//! [`vietnamese_guess`] reads the words of a chunk that hold a byte ≥ 0x80 (a word: a
//! run of ASCII letters and bytes ≥ 0x80, and for VISCII its six letters in C0), decodes
//! each with windows-1252, windows-1258, VNI, TCVN3 and VISCII, and counts the words
//! that are Vietnamese syllables ([`is_syllable`]). A legacy encoding is chosen only when
//!
//! - it reads more words as syllables than windows-1252 and windows-1258 do (a word that
//!   reads the same in both, `à`, is no evidence),
//! - at least two words, and at least 60% of the words read, are syllables in it;
//!
//! ties between the three go to the encoding of the previous chunk of the file (the
//! hint), then to VNI, TCVN3, VISCII in that order. The hint, when it is one of the
//! three, is kept for a chunk where it reads at least one word, as many as windows-1252
//! and windows-1258 do, and 60% of the words (a game with one Vietnamese name). German, French, Spanish or Turkish
//! names in windows-1252 never read as syllables in any of them (`Hübner`, `André`,
//! `Peña`: their consonant clusters or letters are not Vietnamese), which the test over
//! the shared corpus checks.
//!
//! VIQR is ASCII, so a VIQR file is valid UTF-8 and never reaches the guesser: it is
//! read as VIQR when named (`--encoding viqr`) or when the start of a file is strongly
//! VIQR ([`looks_viqr`]).

use encoding_rs::{Encoding, WINDOWS_1252, WINDOWS_1258};
use unicode_normalization::UnicodeNormalization;

use crate::text::legacy::{self, Legacy};

/// An encoding kyphu decodes text with.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    /// An encoding of encoding_rs (the WHATWG encodings).
    Std(&'static Encoding),
    /// A Vietnamese legacy encoding of our own tables.
    Legacy(Legacy),
}

impl TextEncoding {
    /// The encoding a user's label names: a Vietnamese legacy label
    /// ([`Legacy::from_label`]) or a WHATWG label (`latin1`, `windows-1258`, `gbk` …).
    pub fn for_label(label: &str) -> Option<TextEncoding> {
        Legacy::from_label(label)
            .map(TextEncoding::Legacy)
            .or_else(|| Encoding::for_label(label.trim().as_bytes()).map(TextEncoding::Std))
    }

    /// The name kyphu reports (`UTF-8`, `windows-1252`, `VNI-Windows`, `TCVN3` …).
    pub fn name(self) -> &'static str {
        match self {
            TextEncoding::Std(e) => e.name(),
            TextEncoding::Legacy(l) => l.name(),
        }
    }

    /// The encoding_rs encoding, when it is one.
    pub fn std(self) -> Option<&'static Encoding> {
        match self {
            TextEncoding::Std(e) => Some(e),
            TextEncoding::Legacy(_) => None,
        }
    }

    /// `bytes` decoded (not yet NFC for [`TextEncoding::Std`]), and whether malformed
    /// input was replaced with U+FFFD (never for a legacy table, which reads a byte it
    /// does not map as windows-1252: see [`legacy::decode`]).
    pub fn decode(self, bytes: &[u8]) -> (String, bool) {
        match self {
            TextEncoding::Std(e) => {
                let (text, bad) = e.decode_without_bom_handling(bytes);
                (text.into_owned(), bad)
            }
            TextEncoding::Legacy(l) => (legacy::decode(bytes, l).0, false),
        }
    }
}

impl From<&'static Encoding> for TextEncoding {
    fn from(e: &'static Encoding) -> TextEncoding {
        TextEncoding::Std(e)
    }
}

impl PartialEq<&'static Encoding> for TextEncoding {
    fn eq(&self, other: &&'static Encoding) -> bool {
        *self == TextEncoding::Std(other)
    }
}

/// The most words [`vietnamese_guess`] reads from one chunk.
const MAX_WORDS: usize = 200;

/// Is `b` part of a word for [`vietnamese_guess`]: an ASCII letter, a byte ≥ 0x80, or
/// one of VISCII's six letters in C0?
fn word_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b >= 0x80 || matches!(b, 0x02 | 0x05 | 0x06 | 0x14 | 0x19 | 0x1E)
}

/// The words of `bytes` that hold a byte ≥ 0x80 (at most [`MAX_WORDS`]).
fn high_words(bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() && out.len() < MAX_WORDS {
        if !word_byte(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && word_byte(bytes[i]) {
            i += 1;
        }
        let word = &bytes[start..i];
        if word.iter().any(|&b| b >= 0x80) {
            out.push(word);
        }
    }
    out
}

/// The Vietnamese legacy encoding `bytes` (not valid UTF-8) are in, if the rule of the
/// module docs finds one. `hint` is the encoding chosen for the previous chunk.
pub fn vietnamese_guess(bytes: &[u8], hint: Option<TextEncoding>) -> Option<Legacy> {
    if !bytes.iter().any(|&b| b >= 0x80) {
        return None;
    }
    let words = high_words(bytes);
    if words.is_empty() {
        return None;
    }
    let count = |enc: TextEncoding| {
        words
            .iter()
            .filter(|w| is_syllable(&enc.decode(w).0))
            .count()
    };
    let standard = count(WINDOWS_1252.into()).max(count(WINDOWS_1258.into()));
    // the previous chunk's legacy encoding goes on while it reads as well as the others
    if let Some(TextEncoding::Legacy(l @ (Legacy::Vni | Legacy::Tcvn3 | Legacy::Viscii))) = hint {
        let n = count(TextEncoding::Legacy(l));
        if n >= 1 && n >= standard && n * 10 >= words.len() * 6 {
            return Some(l);
        }
    }
    let mut best: Option<(Legacy, usize)> = None;
    for l in [Legacy::Vni, Legacy::Tcvn3, Legacy::Viscii] {
        let n = count(TextEncoding::Legacy(l));
        let better = match best {
            None => true,
            Some((b, m)) => n > m || (n == m && hint == Some(TextEncoding::Legacy(l)) && b != l),
        };
        if better {
            best = Some((l, n));
        }
    }
    let (l, n) = best?;
    (n > standard && n >= 2 && n * 10 >= words.len() * 6).then_some(l)
}

/// Initial consonants of a Vietnamese syllable, longest first.
const INITIALS: [&str; 28] = [
    "ngh", "ng", "nh", "ch", "gh", "gi", "kh", "ph", "qu", "th", "tr", "b", "c", "d", "đ", "g",
    "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "x", "",
];

/// Final consonants and glides of a Vietnamese syllable are in the vowel group (`ai`,
/// `ao`) or one of these.
const FINALS: [&str; 9] = ["", "c", "ch", "m", "n", "ng", "nh", "p", "t"];

/// The vowel groups of Vietnamese syllables (with their glides: `oai`, `ươu`).
const VOWELS: &[&str] = &[
    "a", "ă", "â", "e", "ê", "i", "o", "ô", "ơ", "u", "ư", "y", "ai", "ao", "au", "ay", "âu", "ây",
    "eo", "êu", "ia", "iê", "iu", "oa", "oă", "oe", "oi", "ôi", "ơi", "oo", "ua", "uâ", "uê", "ui",
    "uô", "uơ", "uy", "ưa", "ưi", "ươ", "ưu", "yê", "iêu", "yêu", "oai", "oay", "oeo", "uây",
    "uôi", "ươi", "ươu", "uya", "uyê", "uyu", "oao", "uâ", "uyê",
];

fn is_vowel(c: char) -> bool {
    "aăâeêioôơuưy".contains(c)
}

/// Is `word` one Vietnamese syllable (any case, NFC or not): an initial from
/// [`INITIALS`], a vowel group from [`VOWELS`], a final from [`FINALS`], at most one
/// tone mark?
pub fn is_syllable(word: &str) -> bool {
    let mut tones = 0;
    let mut base = String::with_capacity(word.len());
    for c in word.nfd() {
        match c {
            '\u{300}' | '\u{301}' | '\u{303}' | '\u{309}' | '\u{323}' => tones += 1,
            _ => base.extend(c.to_lowercase()),
        }
    }
    if tones > 1 {
        return false;
    }
    let base: String = base.nfc().collect();
    if !base
        .chars()
        .all(|c| "abcdeghiklmnopqrstuvxyăâđêôơư".contains(c))
    {
        return false;
    }
    INITIALS.iter().any(|init| {
        base.strip_prefix(init).is_some_and(|rest| {
            let split = rest.find(|c| !is_vowel(c)).unwrap_or(rest.len());
            let (vowels, fin) = rest.split_at(split);
            let vowels = match *init {
                // `gi` and `qu` take the glide: `giêng`, `gì`, `quốc`
                "gi" if vowels.is_empty() => "i",
                _ => vowels,
            };
            VOWELS.contains(&vowels) && FINALS.contains(&fin)
        })
    })
}

/// The most bytes of a file's start [`looks_viqr`] reads.
pub const VIQR_HEAD: usize = 64 * 1024;

/// Is the start of a file (ASCII) strongly VIQR? Its tag values are read as VIQR;
/// at least three words must hold a mark VIQR has and English text does not (`^`, `(`,
/// `+` after a vowel, `dd`/`DD` starting a word) and read as Vietnamese syllables, and
/// no word with such a mark may read otherwise. Normal ASCII PGN has none of these
/// marks in its tags (`O'Kelly` has only an apostrophe, which is not counted).
pub fn looks_viqr(head: &[u8]) -> bool {
    if !head.is_ascii() {
        return false;
    }
    let (mut good, mut bad) = (0usize, 0usize);
    // the lines, found with `memchr` (most are not tag lines)
    let mut from = 0;
    let ends = memchr::memchr_iter(b'\n', head).chain(std::iter::once(head.len()));
    for end in ends {
        let line = head.get(from..end).unwrap_or(&[]);
        from = end + 1;
        if line.first() != Some(&b'[') {
            continue;
        }
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Some(rest) = line.strip_prefix(b"[") else {
            continue;
        };
        let Some(q) = rest.iter().position(|&b| b == b'"') else {
            continue;
        };
        let value = &rest[q + 1..];
        let value = &value[..value
            .iter()
            .rposition(|&b| b == b'"')
            .unwrap_or(value.len())];
        for word in value.split(|&b| b == b' ' || b == b',' || b == b'-') {
            if !strong_viqr_mark(word) {
                continue;
            }
            if is_syllable(&legacy::decode(word, Legacy::Viqr).0) {
                good += 1;
            } else {
                bad += 1;
            }
        }
    }
    good >= 3 && bad == 0
}

/// Does `word` hold a VIQR mark English text does not: `^` `(` `+` after a vowel, or a
/// `dd` starting it?
fn strong_viqr_mark(word: &[u8]) -> bool {
    let vowel = |b: u8| {
        matches!(
            b,
            b'a' | b'e' | b'i' | b'o' | b'u' | b'y' | b'A' | b'E' | b'I' | b'O' | b'U' | b'Y'
        )
    };
    word.windows(2)
        .any(|w| matches!(w[1], b'^' | b'(' | b'+') && vowel(w[0]))
        || word.starts_with(b"dd")
        || word.starts_with(b"DD")
        || word.starts_with(b"Dd")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syllables() {
        for w in [
            "Nguyễn",
            "Ngọc",
            "Trường",
            "Sơn",
            "Lê",
            "Quang",
            "Liêm",
            "Đào",
            "gì",
            "giêng",
            "quốc",
            "NGUYỄN",
            "Khôi",
            "Thảo",
            "Hưng",
            "Nhất",
            "ò",
            "uyên",
        ] {
            assert!(is_syllable(w), "{w}");
        }
        for w in [
            "Hübner",
            "André",
            "Peña",
            "Müller",
            "Smyslov",
            "Carlsen",
            "ÓKelly",
            "Ađison",
            "Nguyeãn",
            "Leâ",
            "Sánchez",
            "été",
            "Caf",
            "Nguyễễn",
        ] {
            assert!(!is_syllable(w), "{w}");
        }
    }

    #[test]
    fn labels() {
        assert_eq!(
            TextEncoding::for_label("viscii"),
            Some(TextEncoding::Legacy(Legacy::Viscii))
        );
        assert_eq!(
            TextEncoding::for_label("latin1"),
            Some(TextEncoding::Std(WINDOWS_1252))
        );
        assert_eq!(TextEncoding::for_label("klingon"), None);
        assert_eq!(TextEncoding::Legacy(Legacy::Tcvn3).name(), "TCVN3");
        assert!(TextEncoding::Std(WINDOWS_1252) == WINDOWS_1252);
    }

    #[test]
    fn viqr_needs_strong_marks() {
        let viqr = b"[White \"Nguye^~n Ngo.c Tru+o+`ng So+n\"]\n[Black \"DDa`o Thie^n Ha?i\"]\n";
        assert!(looks_viqr(viqr));
        // apostrophes, question marks and dots are everyday ASCII
        let plain =
            b"[White \"O'Kelly, Alberto?\"]\n[Black \"Addison, W.\"]\n[Event \"C++ vs. Ada^\"]\n";
        assert!(!looks_viqr(plain));
        // two marked words are not enough
        assert!(!looks_viqr(b"[White \"Le^ Lie^m\"]\n"));
    }
}
