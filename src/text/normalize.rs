//! Unicode normalization: NFC for all text.
//!
//! Tag values and comments keep their original spelling (NFC only). Move tokens are
//! additionally folded by [`crate::text::fold::move_token`] so that notation parsers
//! see one spelling of digits, dashes and a few Arabic-script letters. Spans always
//! index the original (NFC) text, never the folded token.

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// Puts `text` in Unicode NFC, without copying when it already is (ASCII text and
/// text that passes the NFC quick check are returned unchanged).
pub fn nfc(text: String) -> String {
    if text.is_ascii() || all_plainly_nfc(&text) || is_nfc_quick(text.chars()) == IsNormalized::Yes
    {
        text
    } else {
        text.nfc().collect()
    }
}

/// Is every character of `text` [`plainly_nfc`]? ASCII is skipped eight bytes at a
/// time; another character is decided by [`STEPS`] from its first two bytes (`text` is
/// valid UTF-8, read at character boundaries), and only a three-byte character of a
/// block that is partly plainly NFC is decoded whole. Each round skips the ASCII before
/// a character and decides that character (a letter and the rest of its move, in a
/// record's moves).
fn all_plainly_nfc(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    loop {
        // skip the ASCII bytes before the first non-ASCII one (all eight if none)
        match bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
            Some(&word) => {
                let high = u64::from_le_bytes(word) & 0x8080_8080_8080_8080;
                if high == 0 {
                    i += 8;
                    continue;
                }
                i += (high.trailing_zeros() / 8) as usize;
            }
            None => {
                // the last few bytes
                while bytes.get(i).is_some_and(u8::is_ascii) {
                    i += 1;
                }
            }
        }
        let Some(&lead) = bytes.get(i) else {
            return true;
        };
        let b1 = bytes.get(i + 1).map_or(0, |&b| b & 0x3F);
        let step = STEPS[((usize::from(lead & 0x3F) << 6) | usize::from(b1)) & 0xFFF];
        match step {
            STEP_DECODE => {
                let b2 = bytes.get(i + 2).map_or(0, |&b| b & 0x3F);
                let c = (u32::from(lead & 0x0F) << 12) | (u32::from(b1) << 6) | u32::from(b2);
                if !plainly_nfc(c) {
                    return false;
                }
                i += 3;
            }
            STEP_NOT => return false,
            len => i += usize::from(len),
        }
    }
}

/// [`STEPS`]: not plainly NFC (or a four-byte character: beyond the BMP, where none is).
const STEP_NOT: u8 = 0;
/// [`STEPS`]: a three-byte character in a block of 64 only partly [`plainly_nfc`]: its
/// third byte decides.
const STEP_DECODE: u8 = 1;

/// What [`all_plainly_nfc`] does with a non-ASCII character, by the low six bits of its
/// lead byte and then of its second byte: for a two-byte character (leads `C0..DF`)
/// that index is its code point, for a three-byte one (leads `E0..EF`) 2048 plus its
/// block of 64 code points, for a four-byte one 3072 and above. The entry is the
/// character's length in bytes (2 or 3) when it is surely plainly NFC (a two-byte
/// [`plainly_nfc`] character, a block that is all [`plainly_nfc`]), else [`STEP_NOT`]
/// or [`STEP_DECODE`]. CJK ideographs, figurines, Arabic letters, Cyrillic and
/// Vietnamese letters are decided without their last byte.
static STEPS: [u8; 4096] = {
    let mut steps = [STEP_NOT; 4096];
    // how many of each block's 64 code points are listed (the ranges do not overlap)
    let mut listed = [0u32; 1024];
    let mut r = 0;
    while r < PLAINLY_NFC.len() {
        let (first, last) = PLAINLY_NFC[r];
        let mut c = first;
        while c <= last {
            if c < 0x800 {
                steps[c as usize] = 2;
            }
            listed[(c >> 6) as usize] += 1;
            c += 1;
        }
        r += 1;
    }
    let mut block = 0;
    while block < 1024 {
        steps[2048 + block] = match listed[block] {
            64 => 3,
            0 => STEP_NOT,
            _ => STEP_DECODE,
        };
        block += 1;
    }
    steps
};

/// The ranges of [`plainly_nfc`] characters: all in the BMP.
const PLAINLY_NFC: [(u32, u32); 14] = [
    (0, 0x2FF),
    (0x400, 0x482),
    (0x48A, 0x52F),
    (0x621, 0x64A),
    (0x660, 0x66F),
    (0x671, 0x6D3),
    (0x6F0, 0x6FF),
    (0x1E00, 0x1EFF),
    (0x2010, 0x2027),
    (0x2030, 0x205E),
    (0x2600, 0x26FF),
    (0x3000, 0x3029),
    (0x4E00, 0x9FFF),
    (0xFF01, 0xFF5E),
];

/// [`PLAINLY_NFC`] as one bit per BMP code point: one load per character instead of a
/// chain of range tests.
static PLAINLY_NFC_BITS: [u8; 0x2000] = {
    let mut bits = [0u8; 0x2000];
    let mut r = 0;
    while r < PLAINLY_NFC.len() {
        let (mut c, last) = PLAINLY_NFC[r];
        while c <= last {
            bits[(c >> 3) as usize] |= 1 << (c & 7);
            c += 1;
        }
        r += 1;
    }
    bits
};

/// Characters that are in NFC whatever surrounds them (quick check Yes, combining
/// class 0) in the scripts of chess and xiangqi records ([`PLAINLY_NFC`]): Latin up to
/// the combining marks and Vietnamese letters, Cyrillic letters, Arabic and Persian
/// letters and digits, general punctuation, chess figurines (all of Miscellaneous Symbols), CJK ideographs and
/// full-width forms. One bit test instead of a table search per character; anything
/// else takes the full check.
#[inline]
fn plainly_nfc(c: u32) -> bool {
    PLAINLY_NFC_BITS
        .get((c >> 3) as usize)
        .is_some_and(|&byte| byte & (1 << (c & 7)) != 0)
}

/// The value of a decimal digit in ASCII, full-width (`０-９`), Persian (`۰-۹`) or
/// Arabic-Indic (`٠-٩`) form.
pub fn digit_value(c: char) -> Option<u32> {
    match c {
        '0'..='9' => Some(c as u32 - '0' as u32),
        '\u{FF10}'..='\u{FF19}' => Some(c as u32 - 0xFF10),
        '\u{06F0}'..='\u{06F9}' => Some(c as u32 - 0x06F0),
        '\u{0660}'..='\u{0669}' => Some(c as u32 - 0x0660),
        _ => None,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Every character `plainly_nfc` lets through is NFC on its own and does not
    /// combine with what precedes it.
    #[test]
    fn plainly_nfc_is_exact() {
        use unicode_normalization::char::canonical_combining_class;
        let mut n = 0;
        for c in (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| plainly_nfc(u32::from(c)))
        {
            assert_eq!(is_nfc_quick(std::iter::once(c)), IsNormalized::Yes, "{c:?}");
            assert_eq!(canonical_combining_class(c), 0, "{c:?}");
            // not the second half of a canonical composition
            let pair: String = ['a', c].iter().collect();
            assert_eq!(pair.nfc().collect::<String>(), pair, "{c:?}");
            n += 1;
        }
        assert!(n > 20_000);
        assert!(all_plainly_nfc(
            "[White \"Nguyễn\"] 1. 马f3 Кf6 ♘c3 ۱-۰ ｅ４"
        ));
        assert!(!all_plainly_nfc("Nguye\u{0302}\u{0303}n"));
    }

    /// `all_plainly_nfc` decodes every character as `chars()` does: it says yes exactly
    /// when every character of the text is [`plainly_nfc`], for every code point,
    /// alone, after ASCII of every length up to a word and more, and between others.
    #[test]
    fn all_plainly_nfc_decodes_every_character() {
        let plain = |s: &str| s.chars().all(|c| plainly_nfc(u32::from(c)));
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let texts = [
                c.to_string(),
                format!("{c}{c}"),
                format!("e4 {c}f3 马"),
                format!("♘{c}"),
                format!("12345678{c}"),
                format!("1234567{c}x"),
                format!("{c}1234567890abcdef"),
                format!("{c}ab"),
                format!("abc{c}abcdefghijk{c}1{c}"),
            ];
            for text in &texts {
                assert_eq!(all_plainly_nfc(text), plain(text), "{c:?} in {text:?}");
            }
        }
    }

    /// What `nfc` decides without the full check agrees with the full check: text it
    /// keeps as it is is NFC, and its result is the NFC of the text, for every BMP
    /// character alone, before and after combining marks (Latin, Arabic, kana voicing,
    /// Hangul jamo) and letters they compose with.
    #[test]
    fn nfc_agrees_with_the_full_normalization_on_the_bmp() {
        use unicode_normalization::is_nfc;
        for c in (0..=0xFFFFu32).filter_map(char::from_u32) {
            for text in [
                format!("{c}"),
                format!("a{c}"),
                format!("{c}\u{0301}"),
                format!("{c}\u{0302}\u{0323}"),
                format!("ا{c}\u{0653}"),
                format!("{c}\u{3099}"),
                format!("\u{1100}{c}\u{1161}"),
                format!("e{c}e"),
                format!("1. 马f3 {c}♘"),
            ] {
                if all_plainly_nfc(&text) {
                    assert!(is_nfc(&text), "{c:?} in {text:?}");
                }
                assert_eq!(
                    nfc(text.clone()),
                    text.nfc().collect::<String>(),
                    "{text:?}"
                );
            }
        }
    }

    /// Pieces of text in the scripts of game records, with combining marks and
    /// characters that compose.
    #[rustfmt::skip]
    const PIECES: &[&str] = &[
        "e4 ", "1. ", "[White \"", "\"]\n", "马f3", "车", "兵", "♘", "♞xd5", "♔", "اf3", "ف",
        "ر", "ی", "ک", "۱-۰", "٣", "Кf3", "Ж", "Nguyễn", "Trường", "ệ", "Mf3", "e", "a", "A",
        "\u{0301}", "\u{0302}", "\u{0323}", "\u{0303}", "\u{064B}", "\u{0653}", "\u{0654}",
        "\u{0670}", "\u{3099}", "か", "\u{1100}", "\u{1161}", "\u{11A8}", "한", "\u{0483}",
        "Å", "\u{212B}", "\u{2126}", "Ω", "ｅ４", "\u{3000}", "\u{302A}", "😀", "\u{1D15E}",
        "\u{0F73}", "\u{2000}", "½", "ǅ", "\u{0340}", "\u{0344}", "\u{0958}", "क", "\u{093C}",
    ];

    proptest::proptest! {
        /// On random text of those pieces, `nfc` gives the full normalization, text
        /// `all_plainly_nfc` lets through is NFC, and `all_plainly_nfc` says yes exactly
        /// when every character is [`plainly_nfc`].
        #[test]
        fn nfc_agrees_on_random_text(
            pieces in proptest::collection::vec(0..PIECES.len(), 0..30),
        ) {
            let text: String = pieces.iter().map(|&k| PIECES[k]).collect();
            let plain = text.chars().all(|c| plainly_nfc(u32::from(c)));
            proptest::prop_assert_eq!(all_plainly_nfc(&text), plain, "{:?}", text);
            if plain {
                proptest::prop_assert!(unicode_normalization::is_nfc(&text), "{:?}", text);
            }
            proptest::prop_assert_eq!(
                nfc(text.clone()),
                text.nfc().collect::<String>(),
                "{:?}", text
            );
        }
    }

    #[test]
    fn digit_values() {
        let cases = [
            ('7', Some(7)),
            ('７', Some(7)),
            ('۷', Some(7)),
            ('٧', Some(7)),
            ('七', None),
        ];
        for (c, want) in cases {
            assert_eq!(digit_value(c), want, "{c}");
        }
    }

    #[test]
    fn nfc_composes() {
        assert_eq!(nfc("Nguye\u{0302}\u{0303}n".to_owned()), "Nguyễn");
        assert_eq!(nfc("plain".to_owned()), "plain");
        assert_eq!(nfc("Trường".to_owned()), "Trường");
    }
}
