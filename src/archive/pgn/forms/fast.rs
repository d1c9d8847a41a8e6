//! The typed-forms pass's fast path (fenced): move tokens told to be plain moves by
//! their bytes alone ([`plain_move`]: `Nf3`, `马f3`, `exd8=后+`, `O-O-O+`), which the
//! pass never changes whatever stands around them. A game whose candidates
//! ([`super::candidate`]) are all plain moves is left as it is without the pass, and
//! in a game that has the pass, plain moves are copied as they are
//! ([`super::typed_forms`] with `FAST`). So a game written in other piece letters
//! (Chinese, Persian, figurine…) pays a few byte tests a move for the pass. The tests
//! below check that the pass gives the same elements with and without it.

use std::sync::OnceLock;

use super::super::marks;
use super::{ascii_candidate, candidate};
use crate::archive::Element;

/// The length of the UTF-8 character whose lead byte is `lead` (1 for ASCII).
fn char_len(lead: u8) -> usize {
    match lead {
        0..0x80 => 1,
        0xC0..0xE0 => 2,
        0xE0..0xF0 => 3,
        _ => 4,
    }
}

/// `b` without the piece letter it starts with, if it starts with one: an ASCII
/// capital or one character outside ASCII.
fn after_piece(b: &[u8]) -> &[u8] {
    match b {
        [first, ..] if first.is_ascii_uppercase() => b.get(1..).unwrap_or(&[]),
        [first, ..] if *first >= 0xC0 => b.get(char_len(*first)..).unwrap_or(&[]),
        _ => b,
    }
}

/// `b` without the promotion piece it ends with (`=Q`, `Q`, `=后`, `后`), if any.
fn before_promotion(b: &[u8]) -> &[u8] {
    let head = match b {
        [head @ .., last] if last.is_ascii_uppercase() => head,
        // one character outside ASCII: continuation bytes after a lead byte
        [.., last] if *last >= 0x80 => {
            let Some(lead) = b.iter().rposition(|&c| c >= 0xC0) else {
                return b;
            };
            if b.len() - lead != char_len(b[lead]) {
                return b;
            }
            b.get(..lead).unwrap_or(&[])
        }
        _ => return b,
    };
    head.strip_suffix(b"=").unwrap_or(head)
}

fn file(c: u8) -> bool {
    (b'a'..=b'h').contains(&c)
}

fn rank(c: u8) -> bool {
    (b'1'..=b'8').contains(&c)
}

/// A move token the typed-forms pass leaves as it is wherever it stands: a piece letter
/// or none (an ASCII capital or one character outside ASCII), an origin (a file, a
/// rank or a square) or none, `x`, `:` or `-` or none, a square, a promotion piece
/// (`=Q`, `后`) or none, then check and annotation marks; or castling (`O-O`,
/// `0-0-0+`). Such a token is no lone letter, separator or glued number or move, and
/// no mark or first word of one ([`marks_allow`] checks the marks' file).
pub(super) fn plain_move(b: &[u8]) -> bool {
    let end = b
        .iter()
        .rposition(|c| !matches!(c, b'+' | b'#' | b'!' | b'?'))
        .map_or(0, |k| k + 1);
    let b = b.get(..end).unwrap_or(&[]);
    if matches!(b, b"O-O" | b"O-O-O" | b"0-0" | b"0-0-0") {
        return true;
    }
    let b = before_promotion(after_piece(b));
    let [from @ .., f, r] = b else {
        return false;
    };
    if !(file(*f) && rank(*r)) {
        return false;
    }
    let from = match from {
        [head @ .., b'x' | b':' | b'-'] => head,
        _ => from,
    };
    match from {
        [] => true,
        [c] => file(*c) || rank(*c),
        [c, d] => file(*c) && rank(*d),
        _ => false,
    }
}

/// No mark of `grammars/marks.tsv`, nor the start of one at a character boundary, is a
/// plain move ([`plain_move`]): only then may plain moves skip the pass (a mark `e4`, or
/// `e4 mate`, would make the move `e4` a form). Told once.
pub(super) fn marks_allow() -> bool {
    static ALLOW: OnceLock<bool> = OnceLock::new();
    *ALLOW.get_or_init(|| {
        marks::rows().iter().all(|r| {
            (1..=r.form.len())
                .filter_map(|k| r.form.get(..k))
                .all(|prefix| !plain_move(prefix.as_bytes()))
        })
    })
}

/// The ASCII letters ([`crate::archive::move_letters`] bits, the bit of bytes outside
/// ASCII left out) of each mark of `grammars/marks.tsv` that has a letter no English
/// move has (`mate`, `TN`, `dbl ch`; not `ch`, `红胜`). Told once.
pub(super) fn word_letters() -> &'static [u64] {
    static WORDS: OnceLock<Vec<u64>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let english = crate::archive::move_letters(b"abcdefghxKQRBNO");
        let high = crate::archive::letter_bit(0x80);
        marks::rows()
            .iter()
            .map(|r| crate::archive::move_letters(r.form.as_bytes()) & !high)
            .filter(|&w| w & !english != 0)
            .collect()
    })
}

/// [`candidate`] with plain moves ([`plain_move`]) left out (when [`marks_allow`]).
#[inline]
pub(super) fn fast_candidate(text: &str, mt: &[Element], i: usize) -> bool {
    match mt.get(i) {
        Some(Element::Move { span, .. }) => {
            let b = super::bytes(text, *span);
            move_candidate(b) && !(plain_move(b) && marks_allow())
        }
        _ => candidate(text, mt, i),
    }
}

/// [`candidate`] of a move token (its bytes), told from bytes: a letter outside ASCII
/// before a plain ASCII move (`马f3`, `♘xe5+`) is no candidate.
#[inline]
pub(super) fn move_candidate(b: &[u8]) -> bool {
    match b {
        [] => false,
        [first, ..] if *first >= 0x80 => {
            let rest = b.get(char_len(*first)..).unwrap_or(&[]);
            rest.is_empty() || !rest.is_ascii() || ascii_candidate(rest)
        }
        _ => ascii_candidate(b),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::super::{Limits, parse_with};
    use super::super::typed_forms;
    use super::*;

    #[test]
    fn plain_moves() {
        for t in [
            "e4", "Nf3", "exd5", "Nbd2", "R1e2", "Qh4xe1+", "exd8=Q+", "e8Q", "O-O", "O-O-O#",
            "0-0", "马f3", "后xd5+", "e8=后", "a1=♕+", "♘xe5!?", "اf3", "e2-e4", "Ng1-f3", "e5:d4",
            "Кf3", "Xcxe1+",
        ] {
            assert!(plain_move(t.as_bytes()), "{t}");
        }
        for t in [
            "",
            "e",
            "N",
            "马",
            "x",
            "-",
            "ch",
            "mate",
            "TN",
            "e9",
            "i4",
            "d4Nf6",
            "2.",
            "e4.",
            "Q12.3",
            "炮二平五",
            "马二进三",
            "P9.1-Tg6.1",
            "dbl",
            "<>",
            "e4mate",
            "Nf3ch",
            "exd8=",
            "e8=马二",
            "O-O-O-O",
            "1-0",
        ] {
            assert!(!plain_move(t.as_bytes()), "{t}");
        }
        assert!(marks_allow());
    }

    /// `1.e4 e52.d4 d5`: a move number glued inside a six-byte token (`e52.d4`) is
    /// split (the reader's first look sees the `.`; before, the token was one move and
    /// the game stopped there).
    #[test]
    fn glued_number_in_a_six_byte_token() {
        let text = "1.e4 e52.d4 d5";
        let g = parse_with::<true>(text, &Limits::default());
        let read: Vec<String> = g
            .movetext
            .iter()
            .map(|e| match e {
                Element::MoveNumber { number, .. } => format!("N{number}"),
                e => e.span().slice(text).to_owned(),
            })
            .collect();
        assert_eq!(read, ["N1", "e4", "e5", "N2", "d4", "d5"]);
        assert_eq!(g.move_letters, crate::archive::move_letters(b"e4e5d4d5"));
    }

    /// A game of Vietnamese or Chinese letters holds no word; one with `TN` or `mate`
    /// may, and so may every mark with a letter English moves do not have.
    #[test]
    fn words_are_seen_by_their_letters() {
        use super::super::words_may_be_in;
        let letters = |t: &str| crate::archive::move_letters(t.as_bytes());
        assert!(!words_may_be_in(letters("e4 Tg7 Mf3 Xxc3 Hb6+ Ve2 O-O")));
        assert!(!words_may_be_in(letters("马f3 后xd5 e8=后 ♘xe5")));
        assert!(words_may_be_in(letters("Nf3 TN")));
        assert!(words_may_be_in(letters("Qh5 mate")));
        assert!(words_may_be_in(letters("N-B7 dbl ch")));
        for r in marks::rows() {
            let english = letters("abcdefghxKQRBNO");
            let ascii = letters(r.form) & !crate::archive::letter_bit(0x80);
            if ascii & !english != 0 {
                assert!(words_may_be_in(letters(r.form)), "{}", r.form);
            }
        }
    }

    /// [`move_candidate`] reads as the first version did (the first character decoded
    /// as a `char`), and [`fast_candidate`] leaves out plain moves alone.
    #[test]
    fn move_candidate_agrees_with_char_reading() {
        let by_chars = |t: &str| -> bool {
            let b = t.as_bytes();
            match b {
                [] => false,
                [first, ..] if *first >= 0x80 => {
                    let rest = t
                        .chars()
                        .next()
                        .and_then(|c| b.get(c.len_utf8()..))
                        .unwrap_or(&[]);
                    rest.is_empty() || !rest.is_ascii() || ascii_candidate(rest)
                }
                _ => ascii_candidate(b),
            }
        };
        for t in [
            "e4",
            "Nf3",
            "exd8=Q+",
            "马f3",
            "马",
            "后xd5",
            "e8=后",
            "马二进三",
            "ch",
            "TN",
            "N",
            "O-O-O+",
            "Q12.3",
            "d4Nf62.",
            "♘",
            "Tê",
            "e4!?",
            "mate",
            "炮2平32.",
            "اf3",
            "Кf3",
            "😀e4",
            "é",
            "ée4x",
        ] {
            assert_eq!(move_candidate(t.as_bytes()), by_chars(t), "{t}");
            let text = format!("{t} e5");
            let mt = [Element::Move {
                span: crate::model::diag::Span::new(0, t.len() as u32),
                ep: None,
            }];
            let slow = candidate(&text, &mt, 0);
            let fast = fast_candidate(&text, &mt, 0);
            assert_eq!(fast, slow && !plain_move(t.as_bytes()), "{t}");
        }
    }

    /// The pass gives the same elements and result with the fast path as without it,
    /// on the typed forms and plain moves in every script around them.
    #[test]
    fn pass_agrees_with_and_without_fast_path() {
        let pieces = [
            "1.",
            "2.",
            "e4",
            "e5",
            "Nf3",
            "马f3",
            "后xd5+",
            "e8=后",
            "exd8=Q+",
            "O-O-O+",
            "a1=♕",
            "mate",
            "ch",
            "dbl",
            "TN",
            "N",
            "D",
            "x",
            "-",
            "–",
            "d3",
            "+",
            "#",
            "e2",
            "(draw)",
            "红胜",
            "1",
            "0",
            "d4Nf62.c4b6",
            "Tg7",
            "Xxc3",
            "Mf3",
            "马xd5",
            "Qh5",
            "Ve2",
            "P9.1-Tg6.1",
            "炮二平五",
            "马8进7",
            "炮2平32.",
            "(",
            ")",
            "$1",
            "{c}",
            "Ng1",
            "Q12.3",
            "马二进三(进马。)",
            "♘xe5+",
            ":",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..4000 {
            let mut text = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let n = (seed % 12) as usize + 1;
            for _ in 0..n {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push_str(pieces[(seed % pieces.len() as u64) as usize]);
                text.push(' ');
            }
            let limits = Limits::default();
            // the reader's first look (which games are odd) with the pass; but `ch`
            // in a game of moves alone, which the first look does not see (as in
            // English: `Qh5 ch`)
            if !text.split(' ').any(|t| t == "ch") {
                assert_eq!(
                    parse_with::<true>(&text, &limits),
                    parse_with::<false>(&text, &limits),
                    "{text:?}"
                );
            }
            let mut fast = parse_with::<false>(&text, &limits).movetext;
            let mut plain = fast.clone();
            let a = typed_forms::<true>(&text, &mut fast, false);
            let b = typed_forms::<false>(&text, &mut plain, false);
            assert_eq!(fast, plain, "{text:?}");
            assert_eq!(a, b, "{text:?}");
        }
    }
}
