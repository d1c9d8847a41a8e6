//! "Did you mean" for xiangqi: ranking the legal moves as corrections of a move that
//! could not be read or played, with the chess ranking ([`super::suggest`]):
//!
//! 1. **How close the text is**: a weighted Damerau–Levenshtein distance between what
//!    was written and each legal move written in the record's notation (and, at a small
//!    cost, in the notations that share its letters: WXF, old Vietnamese and the Asian
//!    marks; ICCS and new Vietnamese), after folding spellings that mean the same
//!    (full-width digits, Chinese numerals, traditional glyphs). The slips of
//!    handwriting and typing are cheap substitutions, read from
//!    `grammars/xiangqi-confusions.tsv`: the marks `.`/`/`/`-` and `+`/`-`/`=` swapped,
//!    进/退/平, a piece letter of another notation. A move written with the file digits
//!    of the other side's numbering (Red counts files from Red's right, Black from
//!    Black's) is tried with its digits mirrored, at a small cost.
//! 2. **Look-ahead**: each close candidate is played and the moves written after it are
//!    replayed in the record's notation; a candidate under which the game goes on is
//!    much more likely.

use std::sync::OnceLock;

use crate::{
    notation::xiangqi::{self as xq, Dialect},
    xiangqi::{Move, Position},
};

// the ranking is chess's: the same bounds and weight
use super::suggest::{LOOK_AHEAD, MAX_DISTANCE, MAX_TOKEN, REPLAY_WEIGHT};

/// The cost of a rendering in another notation than the record's.
const FOREIGN: f32 = 0.3;
/// The cost of reading the file digits in the other side's numbering.
const MIRRORED: f32 = 0.5;

const CONFUSIONS: &str = include_str!("../../grammars/xiangqi-confusions.tsv");

/// The confusion table: spellings folded alike, and cheap substitutions.
struct Confusions {
    same: Vec<(char, char)>,
    swaps: Vec<(char, char, f32)>,
}

fn confusions() -> &'static Confusions {
    static TABLE: OnceLock<Confusions> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut c = Confusions {
            same: Vec::new(),
            swaps: Vec::new(),
        };
        for line in CONFUSIONS.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            let one = |i: usize| {
                let mut chars = cols.get(i)?.chars();
                let ch = chars.next()?;
                chars.next().is_none().then_some(ch)
            };
            let (Some(kind), Some(a), Some(b)) = (cols.first(), one(1), one(2)) else {
                continue;
            };
            match *kind {
                "same" => c.same.push((a, b)),
                "swap" => {
                    let cost = cols.get(3).and_then(|s| s.parse().ok()).unwrap_or(0.5);
                    c.swaps.push((a, b, cost));
                }
                _ => {}
            }
        }
        c
    })
}

/// `c` folded: full-width ASCII to ASCII, then the table's `same` rows.
fn fold(c: char) -> char {
    let c = match u32::from(c) {
        0xFF01..=0xFF5E => char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c),
        0x3000 => ' ',
        _ => c,
    };
    confusions()
        .same
        .iter()
        .find(|(a, _)| *a == c)
        .map_or(c, |(_, b)| *b)
}

/// The move text as compared: folded, without white space and `!`/`?`/`#` marks.
fn core(text: &str) -> Vec<char> {
    text.trim()
        .trim_end_matches(['!', '?', '#'])
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(fold)
        .collect()
}

fn substitution_cost(a: char, b: char) -> f32 {
    if a == b {
        return 0.0;
    }
    if a.is_ascii() && b.is_ascii() && a.eq_ignore_ascii_case(&b) {
        return 0.3;
    }
    confusions()
        .swaps
        .iter()
        .filter(|(x, y, _)| (*x == a && *y == b) || (*x == b && *y == a))
        .map(|(_, _, cost)| *cost)
        .fold(1.0, f32::min)
}

/// Weighted Damerau–Levenshtein distance (optimal string alignment) with the xiangqi
/// substitution costs.
pub fn distance(a: &str, b: &str) -> f32 {
    distance_in(&core(a), &core(b), &mut Vec::new())
}

fn distance_in(a: &[char], b: &[char], d: &mut Vec<f32>) -> f32 {
    super::suggest::weighted_distance(a, b, d, substitution_cost)
}

/// The written move with its file digits read in the other side's numbering: every
/// digit 1..9 mirrored (d → 10 − d), and only the first one (the origin file; the
/// second digit may be a step count, which does not mirror).
fn mirrored(text: &[char]) -> [Vec<char>; 2] {
    let flip = |c: char| match c {
        '1'..='9' => char::from(b'0' + 10 - (c as u8 - b'0')),
        _ => c,
    };
    let all = text.iter().map(|&c| flip(c)).collect();
    let mut first_done = false;
    let first = text
        .iter()
        .map(|&c| {
            if !first_done && c.is_ascii_digit() {
                first_done = true;
                flip(c)
            } else {
                c
            }
        })
        .collect();
    [all, first]
}

/// The notations a move is also rendered in (at [`FOREIGN`] cost) for a record in
/// `dialect`: those sharing its letters or its coordinates.
fn siblings(dialect: Dialect) -> &'static [Dialect] {
    match dialect {
        Dialect::Wxf | Dialect::OldVietnamese | Dialect::Asian => {
            &[Dialect::Wxf, Dialect::OldVietnamese, Dialect::Asian]
        }
        Dialect::Iccs | Dialect::NewVietnamese => &[Dialect::Iccs, Dialect::NewVietnamese],
        _ => &[],
    }
}

/// A ranked correction.
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    pub mv: Move,
    /// The move in the record's notation (canonical form).
    pub text: String,
    pub distance: f32,
    /// Following moves that replay after this candidate.
    pub replayed: usize,
}

/// Ranks the legal moves of `pos` as corrections of `written`, a move of a record in
/// `dialect`; `following` are the move tokens written after it (main line). At most
/// `max`, best first; none for a token that holds several moves or is too long to be
/// a slip of one.
pub fn suggest(
    pos: &Position,
    written: &str,
    following: &[&str],
    dialect: Dialect,
    max: usize,
) -> Vec<Suggestion> {
    if xq::check_syntax(written, dialect).is_ok_and(|n| n > 1) {
        return Vec::new();
    }
    let target = core(written);
    if target.is_empty() || target.len() > MAX_TOKEN {
        return Vec::new();
    }
    let [all, first] = mirrored(&target);
    let mut matrix = Vec::new();
    let mut scored: Vec<Suggestion> = Vec::new();
    let mut buf = String::new();
    for mv in pos.legal_moves() {
        let mut best = f32::MAX;
        let mut own = String::new();
        for (k, d) in std::iter::once(dialect)
            .chain(siblings(dialect).iter().copied().filter(|d| *d != dialect))
            .enumerate()
        {
            buf.clear();
            xq::write(&mut buf, pos, mv, d);
            if k == 0 {
                own.clone_from(&buf);
            }
            let foreign = if k == 0 { 0.0 } else { FOREIGN };
            let rendered = core(&buf);
            let dist = distance_in(&target, &rendered, &mut matrix)
                .min(distance_in(&all, &rendered, &mut matrix) + MIRRORED)
                .min(distance_in(&first, &rendered, &mut matrix) + MIRRORED);
            best = best.min(dist + foreign);
        }
        scored.push(Suggestion {
            mv,
            text: own,
            distance: best,
            replayed: 0,
        });
    }
    scored.sort_by(|a, b| a.distance.total_cmp(&b.distance));
    for s in scored.iter_mut().take(12) {
        let mut p = pos.clone();
        p.play_unchecked(s.mv);
        s.replayed = following
            .iter()
            .take(LOOK_AHEAD)
            .take_while(|tok| xq::read_play_many(tok, dialect, &mut p).is_ok())
            .count();
    }
    let score = |s: &Suggestion| s.distance - REPLAY_WEIGHT * s.replayed as f32;
    scored.retain(|s| s.distance <= MAX_DISTANCE || s.replayed >= 3);
    scored.sort_by(|a, b| score(a).total_cmp(&score(b)));
    scored.truncate(max);
    scored
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap
mod tests {
    use super::*;
    use crate::notation::xiangqi::Glyphs;

    /// The position after `moves` (read in `dialect`) from the start.
    fn after(moves: &[&str], dialect: Dialect) -> Position {
        let mut pos = Position::default();
        for m in moves {
            xq::read_play(m, dialect, &mut pos).unwrap();
        }
        pos
    }

    fn texts(pos: &Position, written: &str, following: &[&str], d: Dialect) -> Vec<String> {
        suggest(pos, written, following, d, 3)
            .into_iter()
            .map(|s| s.text)
            .collect()
    }

    #[test]
    fn the_table_reads() {
        let c = confusions();
        assert!(c.same.contains(&('９', '9')) && c.same.contains(&('進', '进')));
        assert!(c.swaps.iter().any(|&(a, b, _)| (a, b) == ('.', '/')));
        assert!(c.swaps.iter().any(|&(a, b, _)| (a, b) == ('进', '退')));
    }

    #[test]
    fn distances() {
        assert_eq!(distance("P9.1", "P9/1"), 0.5);
        assert_eq!(distance("炮９进１", "炮９退１"), 0.5);
        assert_eq!(distance("炮９進１", "炮９进１"), 0.0);
        assert_eq!(distance("Ｃ２．５", "C2.5"), 0.0);
        assert_eq!(distance("炮2平5", "炮二平五"), 0.0);
        assert_eq!(distance("c2.5", "C2.5"), 0.3);
        assert_eq!(distance("H2+3", "M2+3"), 0.6);
        assert_eq!(distance("R1.2", "X1.2"), 0.6);
    }

    #[test]
    fn old_vietnamese_advance_for_retreat() {
        // issue 26: `P9.1` typed for `P9/1` (the black cannon on i7 cannot advance
        // onto its own soldier) gets the retreat, which the next moves confirm
        let v = Dialect::OldVietnamese;
        let pos = after(&["P2-5", "P8-9", "M2.3"], v);
        let s = texts(&pos, "P9.1", &["X1-2", "M8.7"], v);
        assert_eq!(s.first().map(String::as_str), Some("P9/1"), "{s:?}");
    }

    #[test]
    fn chinese_advance_for_retreat_and_wxf_sign() {
        let cn = Dialect::Chinese(Glyphs::Simplified);
        let pos = after(&["炮二平五", "炮８平９", "马二进三"], cn);
        let s = texts(&pos, "炮９进１", &["车一平二", "马８进７"], cn);
        assert_eq!(s.first().map(String::as_str), Some("炮９退１"), "{s:?}");
        let w = Dialect::Wxf;
        let pos = after(&["C2.5", "C8.9", "H2+3"], w);
        // `P9+1` (the soldier ahead, a letter off) is as close by text; the cannon's
        // next move along rank 8 decides
        let s = texts(&pos, "C9+1", &["R1.2", "C9.1"], w);
        assert_eq!(s.first().map(String::as_str), Some("C9-1"), "{s:?}");
    }

    #[test]
    fn file_digits_in_the_other_sides_numbering() {
        // Black's cannon on i7 goes back to h7: `P9-8` in Black's numbering, written
        // `P1-2` in Red's. `P2-1` (the other cannon to the a-file) is as close by
        // text; the next move, the cannon's from h7, decides
        let v = Dialect::OldVietnamese;
        let pos = after(&["P2-5", "P8-9", "M2.3"], v);
        let s = texts(&pos, "P1-2", &["X1-2", "P8/1"], v);
        assert_eq!(s.first().map(String::as_str), Some("P9-8"), "{s:?}");
    }

    #[test]
    fn wrong_piece_letter_of_another_notation() {
        // WXF record, the horse written with the Vietnamese letter M
        let w = Dialect::Wxf;
        let pos = after(&["C2.5"], w);
        let s = texts(&pos, "M8+7", &["H2+3"], w);
        assert_eq!(s.first().map(String::as_str), Some("H8+7"), "{s:?}");
    }

    #[test]
    fn several_moves_or_long_text_get_nothing() {
        let cn = Dialect::Chinese(Glyphs::Simplified);
        assert!(suggest(&Position::default(), "炮二平五马８进７", &[], cn, 3).is_empty());
        assert!(
            suggest(
                &Position::default(),
                "this is no move at all, only words",
                &[],
                Dialect::Wxf,
                3
            )
            .is_empty()
        );
    }
}
