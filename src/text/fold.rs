//! The one fold of a move token to the characters the notation grammars read (chess
//! moves, results in the PGN reader). Clean ASCII tokens, and tokens with nothing to
//! change, come back borrowed, untouched (the fast path: [`needs_fold`], whose
//! agreement with the fold the test `folds` checks).
//!
//! Folds: full-width forms (`ｅ４`, `Ｎ`, `＋`) to ASCII; Persian `۰`–`۹` and
//! Arabic-Indic `٠`–`٩` digits to `0`–`9`; Arabic `ي`/`ك` to Persian `ی`/`ک`;
//! hyphen look-alikes (‐ ‑ ‒ – — ― −) to `-`; no-break and other spaces to ` `;
//! `×` to `x`; `‼ ⁇ ⁈ ⁉` to `!! ?? ?! !?`; the look-alikes people type for a
//! file or castling letter: French `ç` for `c`, Cyrillic `О о а е` for `O o a e`, and
//! Cyrillic `с` for `c` before a rank (`Кb1—с3`). Strips RLM, LRM, ALM, ZWNJ, ZWJ, ZWSP,
//! BOM and soft hyphens, and trims spaces at both ends.

use std::borrow::Cow;

/// Folds `token` (see the module docs). Borrowed when nothing needed to change.
pub fn move_token(token: &str) -> Cow<'_, str> {
    let trimmed = token.trim_matches(' ');
    if trimmed.is_ascii() {
        if !trimmed.bytes().any(|b| b == b'\t') {
            return Cow::Borrowed(trimmed);
        }
    } else if !trimmed.chars().any(needs_fold) && !c_square(trimmed) {
        // Cyrillic, CJK, Persian letters, figurines: nothing to change
        return Cow::Borrowed(trimmed);
    }
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            // Cyrillic `с` typed for the file `c` before a rank (`Кb1—с3`); before
            // anything else it may be the lower-case bishop `С`
            '\u{0441}' if chars.peek().is_some_and(|d| ('1'..='8').contains(d)) => out.push('c'),
            '\u{FF01}'..='\u{FF5E}' => {
                // full-width ASCII block: same order, offset 0xFEE0
                if let Some(a) = char::from_u32(c as u32 - 0xFEE0) {
                    push_folded(&mut out, a);
                }
            }
            _ => push_folded(&mut out, c),
        }
    }
    let t = out.trim_matches(' ');
    if t.len() == out.len() {
        Cow::Owned(out)
    } else {
        Cow::Owned(t.to_owned())
    }
}

/// Does `token` hold a Cyrillic `с` before a rank, the file `c` typed on a Russian
/// keyboard (`Кb1—с3`)?
fn c_square(token: &str) -> bool {
    token
        .split('\u{0441}')
        .skip(1)
        .any(|rest| rest.starts_with(|d: char| ('1'..='8').contains(&d)))
}

/// Could `token` fold to a result (`1-0`, `0-1`, `½-½`, `*`)? A test of the first
/// character of its fold, so that moves in other scripts (`马f3`) do not pay for the
/// fold.
pub fn may_fold_to_result(token: &str) -> bool {
    let mut first = String::new();
    for c in token.chars() {
        match c {
            '\u{FF01}'..='\u{FF5E}' => {
                if let Some(a) = char::from_u32(c as u32 - 0xFEE0) {
                    push_folded(&mut first, a);
                }
            }
            _ => push_folded(&mut first, c),
        }
        if let Some(f) = first.chars().next() {
            return matches!(f, '0' | '1' | '*' | '½');
        }
    }
    false
}

/// Does `c` change under [`move_token`]? (Must agree with `push_folded`.)
fn needs_fold(c: char) -> bool {
    matches!(c,
        '\u{FF01}'..='\u{FF5E}'
        | '\u{06F0}'..='\u{06F9}'
        | '\u{0660}'..='\u{0669}'
        | '\u{064A}'
        | '\u{0643}'
        | '\u{2010}'..='\u{2015}'
        | '\u{2212}'
        | '\u{FE58}'
        | '\u{FE63}'
        | '\t'
        | '\u{00A0}'
        | '\u{2000}'..='\u{200F}'
        | '\u{202F}'
        | '\u{205F}'
        | '\u{3000}'
        | '\u{061C}'
        | '\u{FEFF}'
        | '\u{00AD}'
        | '\u{2060}'
        | '\u{00D7}'
        | '\u{203C}'
        | '\u{2047}'..='\u{2049}'
        | 'ç'
        | '\u{041E}'
        | '\u{043E}'
        | '\u{0430}'
        | '\u{0435}')
}

fn push_folded(out: &mut String, c: char) {
    match c {
        '\u{06F0}'..='\u{06F9}' => out.push(digit(c as u32 - 0x06F0)),
        '\u{0660}'..='\u{0669}' => out.push(digit(c as u32 - 0x0660)),
        '\u{064A}' => out.push('\u{06CC}'),
        '\u{0643}' => out.push('\u{06A9}'),
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE58}' | '\u{FE63}' => out.push('-'),
        '\t' | '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => {
            out.push(' ')
        }
        '\u{200B}'..='\u{200F}' | '\u{061C}' | '\u{FEFF}' | '\u{00AD}' | '\u{2060}' => {}
        '\u{00D7}' => out.push('x'),
        '\u{203C}' => out.push_str("!!"),
        '\u{2047}' => out.push_str("??"),
        '\u{2048}' => out.push_str("?!"),
        '\u{2049}' => out.push_str("!?"),
        // French AZERTY keyboards: `ç` typed for the file `c` (`Cç4`)
        'ç' => out.push('c'),
        // Cyrillic letters typed for the Latin ones they look like in a move (`О-О`,
        // `e7—е6`); none of them is a Russian piece letter (`Кр Ф Л С К п`)
        '\u{041E}' => out.push('O'),
        '\u{043E}' => out.push('o'),
        '\u{0430}' => out.push('a'),
        '\u{0435}' => out.push('e'),
        _ => out.push(c),
    }
}

fn digit(d: u32) -> char {
    char::from_digit(d, 10).unwrap_or('0')
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::type_complexity)]
mod tests {
    use super::*;

    #[test]
    fn folds() {
        let cases = [
            ("Nf3", "Nf3", true),
            (" e4 ", "e4", true),
            ("ｅ４", "e4", false),
            ("Ｎｆ３＋", "Nf3+", false),
            ("e2\u{2013}e4", "e2-e4", false),
            ("0\u{2014}0", "0-0", false),
            ("exd6\u{00A0}e.p.", "exd6 e.p.", false),
            ("ا\u{200F}f۳", "اf3", false),
            ("و٤d", "و4d", false),
            ("\u{064A}\u{0643}", "\u{06CC}\u{06A9}", false),
            ("e4\u{00D7}d5", "e4xd5", false),
            ("e4\u{203C}", "e4!!", false),
            ("e4\u{2049}", "e4!?", false),
            ("\u{200E}Nf3\u{200C}", "Nf3", false),
            ("Крe2", "Крe2", true),
            ("Кb1—с3", "Кb1-c3", false),
            ("Сс4", "Сc4", false),
            ("Ссd4", "Ссd4", true),
            ("马f3", "马f3", true),
            ("♘f3+", "♘f3+", true),
        ];
        for (input, want, borrowed) in cases {
            let got = move_token(input);
            assert_eq!(got, want, "{input:?}");
            assert_eq!(matches!(got, Cow::Borrowed(_)), borrowed, "{input:?}");
            // the fast check agrees with the fold
            let changes = input.trim_matches(' ').chars().any(needs_fold) || c_square(input);
            assert_eq!(
                changes,
                move_token(input) != input.trim_matches(' '),
                "{input:?}"
            );
        }
    }

    #[test]
    fn results_are_recognised_before_folding() {
        for (token, may) in [
            ("1-0", true),
            ("\u{200E}۱-۰", true),
            ("１－０", true),
            ("½-½", true),
            ("马f3", false),
            ("Кf3", false),
            ("♘f3", false),
        ] {
            assert_eq!(may_fold_to_result(token), may, "{token}");
        }
    }

    #[test]
    fn move_token_folds() {
        let cases = [
            ("e4", "e4"),
            ("ｅ４", "e4"),
            ("Ｎｆ３＋", "Nf3+"),
            ("۱-۰", "1-0"),
            ("٠-١", "0-1"),
            ("ا\u{06F3}", "ا3"),
            ("يك", "یک"),
            ("O–O", "O-O"),
            ("O—O−O", "O-O-O"),
            ("e2‐e4", "e2-e4"),
            ("e2‑e4", "e2-e4"),
            ("e2‒e4", "e2-e4"),
            ("exd6\u{00A0}e.p.", "exd6 e.p."),
            ("a\u{2009}b", "a b"),
            ("\u{200F}Nf3\u{200E}", "Nf3"),
            ("\u{FEFF}e4", "e4"),
            ("x\u{200C}y\u{200D}", "xy"),
            ("炮二平五", "炮二平五"),
            ("马８进７", "马8进7"),
            ("Cç4", "Cc4"),
            ("О-О", "O-O"),
            ("e7—е6", "e7-e6"),
        ];
        for (input, want) in cases {
            assert_eq!(move_token(input), want, "{input:?}");
        }
    }

    #[test]
    fn move_token_borrows_when_unchanged() {
        for s in ["e4", "Nbd7+!?", "炮二平五", "Кf3", "اf3"] {
            assert!(matches!(move_token(s), Cow::Borrowed(_)), "{s}");
        }
        assert!(matches!(move_token("ｅ４"), Cow::Owned(_)));
    }
}
