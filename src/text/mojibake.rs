//! Repair of text decoded twice: UTF-8 bytes read once as windows-1252 (or ISO-8859-1)
//! and written again as UTF-8, so that `Müller` became `MÃ¼ller` and `Nguyễn` became
//! `Nguyá»…n` (issue 28). Archives and databases that passed through one such tool carry
//! these names, and they are valid UTF-8, so decoding alone never notices.
//!
//! # Rule
//!
//! Each character that windows-1252 (or, for U+0080–U+009F, ISO-8859-1) writes as one
//! byte stands for that byte. Where a UTF-8 lead byte (C2–F4) is followed by the
//! continuation bytes (80–BF) it needs, all written as such characters, the run is
//! replaced by the one character those bytes encode, when that character is a plausible
//! letter or sign of a written language (Latin, Greek, Cyrillic, Hebrew, Arabic, Latin
//! Extended Additional — Vietnamese —, punctuation and common symbols, CJK, Hangul,
//! full-width forms; see [`plausible`]). Anything else is left as it is: a run whose
//! bytes are not valid UTF-8 (a byte lost in the first round trip: windows-1252 has no
//! character for 81 8D 8F 90 9D, and many tools drop them), a lone `Ã` (`SÃO PAULO`),
//! or a correctly decoded accented letter followed by a symbol (`café »`, whose three
//! characters would spell an unlikely U+A83B). The result is NFC. Text decoded twice
//! twice (`MÃƒÂ¼ller`) is repaired by repeating the rule, at most three rounds.
//!
//! UTF-8 read as windows-1251 (`РљР°СЂРїРѕРІ` for `Карпов`) is repaired too, word by
//! word, only where a whole word spells valid UTF-8 (see `repair_1251`).
//!
//! [`repair`] returns `None` when nothing changes, which is the case for all correctly
//! decoded text met in the corpus and for all text without one of the characters
//! `Â`…`ô` (U+00C2–U+00F4) followed by a non-ASCII character (the quick test).

use std::sync::OnceLock;

use encoding_rs::{WINDOWS_1251, WINDOWS_1252};

use crate::model::diag::{Code, Diagnostic, Span};
use crate::model::game::{Game, Line, Tags};
use crate::text::normalize::nfc;

/// The byte windows-1252 (or ISO-8859-1 for the C1 controls) writes `c` as, when it is
/// one byte ≥ 0x80.
fn byte_of(c: char) -> Option<u8> {
    let u = c as u32;
    if (0xA0..=0xFF).contains(&u) || (0x80..=0x9F).contains(&u) {
        // ISO-8859-1 agrees with windows-1252 from A0; the C1 controls stand for
        // themselves (a Latin-1 first decoding, or windows-1252's five undefined bytes)
        return Some(u as u8);
    }
    // windows-1252's letters and signs in 80–9F (€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™
    // š › œ ž Ÿ), read from encoding_rs's own table once
    static HIGH: OnceLock<Vec<(char, u8)>> = OnceLock::new();
    let high = HIGH.get_or_init(|| {
        (0x80u8..=0x9F)
            .filter_map(|b| {
                let byte = [b];
                let (s, _, bad) = WINDOWS_1252.decode(&byte);
                let ch = s.chars().next()?;
                (!bad && ch as u32 > 0xFF).then_some((ch, b))
            })
            .collect()
    });
    high.iter().find(|&&(ch, _)| ch == c).map(|&(_, b)| b)
}

/// Is `c` a character a first decoding plausibly meant (see the module docs)?
fn plausible(c: char) -> bool {
    matches!(c as u32,
        0x00A0..=0x07FF   // Latin-1 letters, Latin Extended, IPA, marks, Greek, Cyrillic, Hebrew, Arabic
        | 0x0E00..=0x0E7F // Thai
        | 0x1E00..=0x1FFF // Latin Extended Additional (Vietnamese), Greek Extended
        | 0x2000..=0x22FF // punctuation, super/subscripts, currency, letterlike, arrows, maths
        | 0x2500..=0x25FF // box drawing, geometric shapes
        | 0x2600..=0x26FF // symbols (♔ ♚ …)
        | 0x3000..=0x30FF // CJK punctuation, kana
        | 0x4E00..=0x9FFF // CJK ideographs
        | 0xAC00..=0xD7A3 // Hangul
        | 0xFF00..=0xFFEF // full-width forms
    )
}

/// The byte length of the UTF-8 sequence a lead byte starts, or 0.
fn sequence_len(lead: u8) -> usize {
    match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 0,
    }
}

/// The quick test: could `text` hold a doubly decoded character at all?
fn suspicious(text: &str) -> bool {
    let mut prev_lead = false;
    for c in text.chars() {
        if prev_lead && !c.is_ascii() {
            return true;
        }
        prev_lead = ('\u{C2}'..='\u{F4}').contains(&c);
    }
    false
}

/// One round of the rule; `None` when nothing changed.
fn repair_once(text: &str) -> Option<(String, usize)> {
    if !suspicious(text) {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut repaired = 0usize;
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        // a C1 control after a lead byte's character is the continuation byte of a
        // text decoded twice (`Ã„Â\u{8d}` → `Ä\u{8d}` → `č`): the next round reads it
        let after_lead = out
            .chars()
            .next_back()
            .is_some_and(|p| ('\u{C2}'..='\u{F4}').contains(&p));
        if let Some(n) = byte_of(c).map(sequence_len).filter(|&n| n > 0)
            && let Some(ch) = decode_run(chars.get(i..i + n), after_lead)
        {
            out.push(ch);
            repaired += 1;
            i += n;
            continue;
        }
        out.push(c);
        i += 1;
    }
    (repaired > 0).then(|| (nfc(out), repaired))
}

/// The plausible character the characters of `run` spell as UTF-8 bytes, if any.
fn decode_run(run: Option<&[char]>, after_lead: bool) -> Option<char> {
    let run = run?;
    let mut bytes = [0u8; 4];
    for (slot, &c) in bytes.iter_mut().zip(run) {
        *slot = byte_of(c)?;
    }
    let s = std::str::from_utf8(bytes.get(..run.len())?).ok()?;
    let mut it = s.chars();
    let ch = it.next()?;
    let continuation = after_lead && ('\u{80}'..='\u{BF}').contains(&ch);
    (it.next().is_none() && (plausible(ch) || continuation)).then_some(ch)
}

/// `text` with doubly decoded characters repaired, and how many characters were
/// repaired; `None` when `text` has none (see the module docs for the rule).
pub fn repair(text: &str) -> Option<(String, usize)> {
    let Some((mut out, mut count)) = repair_once(text) else {
        return repair_1251(text);
    };
    for _ in 0..2 {
        match repair_once(&out) {
            Some((again, n)) => {
                out = again;
                count += n;
            }
            None => break,
        }
    }
    Some((out, count))
}

/// The byte windows-1251 writes `c` as, when it is one byte ≥ 0x80.
fn byte_1251(c: char) -> Option<u8> {
    static TABLE: OnceLock<Vec<(char, u8)>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0x80u8..=0xFF)
            .filter_map(|b| {
                let byte = [b];
                let (s, _, bad) = WINDOWS_1251.decode(&byte);
                let ch = s.chars().next()?;
                (!bad).then_some((ch, b))
            })
            .collect()
    });
    table.iter().find(|&&(ch, _)| ch == c).map(|&(_, b)| b)
}

/// UTF-8 read as windows-1251 (`РљР°СЂРїРѕРІ` for `Карпов`), repaired word by word: a
/// word (a run of characters between ASCII spaces and punctuation) is replaced only
/// when all its characters are windows-1251 bytes that together are valid UTF-8 with at
/// least two plausible non-ASCII characters. Correctly decoded Cyrillic never is: its
/// letters are lead bytes in UTF-8 with no continuation after them (`Карпов` is
/// `CA E0 F0 EF EE E2`). The quick test: `Р` `С` `Т` `У` (D0–D3, the leads of Cyrillic)
/// followed by a windows-1251 character of 80–BF.
fn repair_1251(text: &str) -> Option<(String, usize)> {
    let mut prev_lead = false;
    let quick = text.chars().any(|c| {
        let hit = prev_lead && byte_1251(c).is_some_and(|b| (0x80..0xC0).contains(&b));
        prev_lead = matches!(c, 'Р' | 'С' | 'Т' | 'У');
        hit
    });
    if !quick {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut count = 0usize;
    let mut word = String::new();
    let mut flush = |word: &mut String, out: &mut String| {
        let bytes: Option<Vec<u8>> = word
            .chars()
            .map(|c| {
                if c.is_ascii() {
                    Some(c as u8)
                } else {
                    byte_1251(c)
                }
            })
            .collect();
        let fixed = bytes.and_then(|b| String::from_utf8(b).ok()).filter(|f| {
            let high = f.chars().filter(|c| !c.is_ascii()).count();
            high >= 2 && f.chars().all(|c| c.is_ascii() || plausible(c)) && f != word
        });
        match fixed {
            Some(f) => {
                count += f.chars().filter(|c| !c.is_ascii()).count();
                out.push_str(&f);
            }
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii() && !c.is_ascii_alphanumeric() {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    (count > 0).then(|| (nfc(out), count))
}

/// Could text whose bytes (UTF-8) are `text` hold a character decoded twice, in a tag
/// value or a comment? The quick tests of [`repair`] on the bytes: `Â`…`ô` (C3 82–C3 B4)
/// or `Р` `С` `Т` `У` (D0 A0–D0 A3) followed by a character outside ASCII, or by `[`
/// (a clock command taken out of a comment joins what stood around it). Correctly
/// decoded accents are mostly followed by ASCII (`Hernández`): such games are not looked
/// at again.
fn may_hold(text: &[u8]) -> bool {
    let mut at = 0;
    while let Some(k) = text.get(at..).and_then(|t| memchr::memchr2(0xC3, 0xD0, t)) {
        let p = at + k;
        let second = text.get(p + 1).copied().unwrap_or(0);
        let lead = match text.get(p) {
            Some(0xC3) => (0x82..=0xB4).contains(&second),
            _ => (0xA0..=0xA3).contains(&second),
        };
        if lead && text.get(p + 2).is_some_and(|&b| b >= 0x80 || b == b'[') {
            return true;
        }
        at = p + 1;
    }
    false
}

/// Repairs the tag values and comments of a replayed game (variations included) by
/// [`repair`], and says what it did in one `mojibake-repaired` warning, whose span is
/// the first repaired text where it stands in the source. The source text is kept as
/// read. Returns the number of characters repaired, `None` when none. Only a game whose
/// text may hold one ([`may_hold`]) is looked at.
pub fn repair_game(game: &mut Game) -> Option<usize> {
    if !may_hold(game.source.text.as_bytes()) {
        return None;
    }
    let mut first: Option<(String, String)> = None;
    let (mut chars, mut places) = (0usize, 0usize);
    let mut fix = |text: &mut String| {
        if let Some((fixed, n)) = repair(text) {
            chars += n;
            places += 1;
            let old = std::mem::replace(text, fixed);
            if first.is_none() {
                first = Some((old, text.clone()));
            }
        }
    };
    if game.tags.iter().any(|(_, v)| repair(v).is_some()) {
        let mut tags = Tags::with_capacity(game.tags.len(), 0);
        for (name, value) in game.tags.iter() {
            let mut value = value.to_owned();
            fix(&mut value);
            tags.push(name, &value);
        }
        game.tags = tags;
    }
    let mut stack: Vec<&mut Line> = vec![&mut game.moves];
    while let Some(line) = stack.pop() {
        line.comments.iter_mut().for_each(&mut fix);
        for node in line.moves.iter_mut().filter(|n| n.has_extras()) {
            let extras = node.extras_mut();
            extras.comments.iter_mut().for_each(&mut fix);
            stack.extend(extras.variations.iter_mut());
        }
    }
    let (old, new) = first?;
    let mut d = Diagnostic::warning(
        Code::MojibakeRepaired,
        format!(
            "text decoded twice (utf-8 read as windows-1252 or windows-1251) repaired: {chars} {} in {places} {}, `{old}` read as `{new}`",
            if chars == 1 {
                "character"
            } else {
                "characters"
            },
            if places == 1 { "place" } else { "places" }
        ),
    );
    if let Some(at) = game.source.text.find(&old) {
        d = d.with_span(Span::new(at as u32, (at + old.len()) as u32));
    }
    // in text order, as replay leaves them
    let key = |d: &Diagnostic| d.span.map_or(u32::MAX, |s| s.start);
    let at = game.diagnostics.partition_point(|x| key(x) <= key(&d));
    game.diagnostics.insert(at, d);
    Some(chars)
}

#[cfg(test)]
mod tests {
    use super::{may_hold, repair};

    /// Every text [`repair`] changes is one [`may_hold`] lets through; correctly decoded
    /// accents followed by ASCII are not.
    #[test]
    fn may_hold_lets_every_repair_through() {
        for t in [
            "MÃ¼ller",
            "Nguyá»…n",
            "MÃƒÂ¼ller",
            "РљР°СЂРїРѕРІ",
            "Ã„Â\u{8d}",
            "cafÃ©",
            "SÃ£o",
            "Ã\u{a0}",
            "Ã[%clk 0:01:00]¼",
        ] {
            let changed = repair(t).is_some() || repair(&t.replace("[%clk 0:01:00]", "")).is_some();
            assert!(changed, "{t}");
            assert!(may_hold(t.as_bytes()), "{t}");
        }
        for t in ["Hernández", "Müller", "Карпов", "São Paulo", "Ñ", "Ã"] {
            assert!(repair(t).is_none(), "{t}");
        }
        for t in ["Hernández", "Müller", "Карпов", "Ãx", "Ð"] {
            assert!(!may_hold(t.as_bytes()), "{t}");
        }
        // every text of two characters the quick tests take
        for a in [
            '\u{C0}', '\u{C2}', '\u{E9}', '\u{F4}', '\u{F5}', 'Р', 'У', 'Ф', 'е',
        ] {
            for b in ['a', '[', '\u{A0}', '\u{BC}', '\u{2026}', 'љ', '中'] {
                let t = format!("{a}{b}");
                if repair(&t).is_some() {
                    assert!(may_hold(t.as_bytes()), "{t}");
                }
            }
        }
    }

    fn fixed(s: &str) -> String {
        repair(s).map_or_else(|| s.to_owned(), |(t, _)| t)
    }

    /// Names as they stand, doubly decoded, in public files found with the search tool
    /// (a README's list of authors, SQL dumps of Vietnamese addresses and names).
    #[test]
    fn real_doubly_decoded_names_are_repaired() {
        assert_eq!(fixed("Robert MattmÃ¼ller"), "Robert Mattmüller");
        assert_eq!(fixed("Jan WÃ¼lfing"), "Jan Wülfing");
        assert_eq!(fixed("Nguyá»…n Minh Hiáº¿u"), "Nguyễn Minh Hiếu");
        assert_eq!(fixed("Nguyá»…n VÄƒn Linh"), "Nguyễn Văn Linh");
        // ậ is E1 BA AD: its third character is the soft hyphen U+00AD, invisible
        assert_eq!(fixed("Nguyá»…n Thá»‹ Thá\u{BA}\u{AD}p"), "Nguyễn Thị Thập");
        assert_eq!(fixed("RenÃ© MÃ¼ller"), "René Müller");
        assert_eq!(fixed("MÃ¼ller, JÃ¶rg"), "Müller, Jörg");
        // a decomposed mark (U+0323 written after the letter) comes back composed
        assert_eq!(fixed("QuÃ¢Ì£n"), "Quận");
    }

    #[test]
    fn a_byte_lost_in_the_first_round_trip_leaves_its_character_as_found() {
        // ờ is E1 BB 9D; windows-1252 has no 9D and the tool dropped it: `á»` stays, the
        // rest of the word is repaired
        assert_eq!(fixed("Ä‘Æ°á»ng"), "đưá»ng");
    }

    #[test]
    fn twice_doubly_decoded_is_repaired_in_rounds() {
        assert_eq!(fixed("MÃƒÂ¼ller"), "Müller");
    }

    #[test]
    fn correctly_decoded_text_is_never_changed() {
        for s in [
            "Müller, Jörg",
            "Nguyễn Ngọc Trường Sơn",
            "SÃO PAULO",
            "NÃO É",
            "café »",
            "Ãlvaro",
            "Đặng Hoàng Sơn",
            "Карпов, Анатолий",
            "许银川",
            "Émile Zola — «À bientôt»",
            "plain ASCII",
            "",
        ] {
            assert_eq!(repair(s), None, "{s:?}");
        }
    }

    #[test]
    fn utf8_read_as_windows_1251_is_repaired_word_by_word() {
        assert_eq!(fixed("РљР°СЃРїР°СЂРѕРІ, Р“Р°СЂСЂРё"), "Каспаров, Гарри");
        assert_eq!(fixed("РЎРІРёРґР»РµСЂ, РџС‘С‚СЂ"), "Свидлер, Пётр");
        // correctly decoded Cyrillic, Ukrainian and Serbian: never
        for s in [
            "Каспаров, Гарри",
            "Свидлер, Пётр",
            "Іванчук, Василь",
            "Ёлкин Сёмин Тё Уё",
            "Љубојевић, Љубомир",
            "Р. Сё",
        ] {
            assert_eq!(repair(s), None, "{s:?}");
        }
    }

    #[test]
    fn the_count_is_of_characters_repaired() {
        assert_eq!(repair("MÃ¼ller, JÃ¶rg").map(|r| r.1), Some(2));
    }
}
