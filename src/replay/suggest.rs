//! "Did you mean": ranking the legal moves as corrections of a move that could not be
//! read or played.
//!
//! Two kinds of evidence, combined into one score (lower is better):
//!
//! 1. **How close the text is**: a weighted Damerau–Levenshtein distance between what
//!    was written and each legal move rendered in every piece-letter table (SAN and
//!    long form), with cheap substitutions for the confusions of handwriting and
//!    typing (`1`/`l`, `0`/`O`, `6`/`b`, `3`/`8`, `5`/`S`, case), a small cost for
//!    another language's letters, and a rank mirrored for the other side (`Nf6` written
//!    for `Nf3`).
//! 2. **Look-ahead**: each close candidate is played and the moves written after it are
//!    replayed; a candidate under which the game goes on is much more likely.

use crate::{
    chess::{Move, Position},
    notation::chess::{PieceTable, SanStyle, read_play, tables, write_san},
};

/// Written moves longer than this (in characters) get no suggestions (both games).
pub(crate) const MAX_TOKEN: usize = 24;
/// At most this many following moves are replayed per candidate (both games).
pub(crate) const LOOK_AHEAD: usize = 6;
/// Candidates further than this (and not confirmed by look-ahead) are not offered
/// (both games).
pub(crate) const MAX_DISTANCE: f32 = 2.5;
/// What each following move that replays takes off a candidate's distance (both games).
pub(crate) const REPLAY_WEIGHT: f32 = 0.6;

/// Characters that handwriting or typing confuse (either order).
fn confusable(a: char, b: char) -> bool {
    matches!(
        (a.min(b), a.max(b)),
        ('1', 'l')
            | ('1', 'I')
            | ('0', 'O')
            | ('0', 'o')
            | ('6', 'b')
            | ('3', '8')
            | ('5', 'S')
            | ('2', 'Z')
            | ('9', 'g')
            | ('c', 'e')
            | ('b', 'h')
            | ('*', 'x')
            | ('g', 'q')
            | ('1', '7')
    )
}

fn substitution_cost(a: char, b: char) -> f32 {
    if a == b {
        0.0
    } else if if a.is_ascii() && b.is_ascii() {
        a.eq_ignore_ascii_case(&b)
    } else {
        a.to_lowercase().eq(b.to_lowercase())
    } {
        0.3
    } else if confusable(a, b) {
        0.5
    } else {
        1.0
    }
}

/// Weighted Damerau–Levenshtein distance (optimal string alignment).
pub fn distance(a: &str, b: &str) -> f32 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    distance_in(&a, &b, &mut Vec::new())
}

/// [`distance`] between two character slices, with `d` as the scratch matrix (reused
/// across calls, so that ranking the legal moves allocates nothing per comparison).
fn distance_in(a: &[char], b: &[char], d: &mut Vec<f32>) -> f32 {
    weighted_distance(a, b, d, substitution_cost)
}

/// Weighted Damerau–Levenshtein distance (optimal string alignment): insertions and
/// deletions cost 1, a transposition 0.5, a substitution what `cost` says; `d` is the
/// scratch matrix. The xiangqi suggestions use it with their own costs.
pub(crate) fn weighted_distance(
    a: &[char],
    b: &[char],
    d: &mut Vec<f32>,
    cost: impl Fn(char, char) -> f32,
) -> f32 {
    let w = b.len() + 1;
    d.clear();
    d.resize((a.len() + 1) * w, 0.0);
    for i in 0..=a.len() {
        d[i * w] = i as f32;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j as f32;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let mut best = (d[(i - 1) * w + j] + 1.0)
                .min(d[i * w + j - 1] + 1.0)
                .min(d[(i - 1) * w + j - 1] + cost(a[i - 1], b[j - 1]));
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * w + j - 2] + 0.5);
            }
            d[i * w + j] = best;
        }
    }
    d[a.len() * w + b.len()]
}

/// The written text without check marks and glyphs, and without white space, as
/// characters in `out` (cleared first).
fn core_into(text: &str, out: &mut Vec<char>) {
    out.clear();
    out.extend(
        text.trim()
            .trim_end_matches(['+', '#', '!', '?', '†', '‡'])
            .chars()
            .filter(|c| !c.is_whitespace()),
    );
}

/// What reading the written ranks mirrored costs when Black is to move: Black
/// counting ranks from his own side of the board (`Nf3` written for `Nf6`).
pub(crate) const MIRROR_BLACK: f32 = 0.5;
/// … and when White is to move: White's ranks are counted from his own side already,
/// so a mirrored rank is no likelier than any other two-character slip.
pub(crate) const MIRROR_WHITE: f32 = 1.0;

/// The cost of reading the ranks mirrored for the side to move of `pos`.
pub(crate) fn mirror_cost(pos: &Position) -> f32 {
    match pos.turn() {
        crate::color::Color::Black => MIRROR_BLACK,
        crate::color::Color::White => MIRROR_WHITE,
    }
}

/// `Nf6` → `Nf3`: every rank digit mirrored (1↔8, 2↔7, 3↔6, 4↔5).
fn mirror_ranks(text: &[char]) -> Vec<char> {
    text.iter()
        .map(|&c| match c {
            '1'..='8' => char::from(b'1' + (b'8' - c as u8)),
            _ => c,
        })
        .collect()
}

/// A ranked correction.
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    pub mv: Move,
    /// Canonical SAN in the game's table.
    pub san: String,
    pub distance: f32,
    /// Following moves that replay after this candidate.
    pub replayed: usize,
}

/// Ranks the legal moves of `pos` as corrections of `written`; `following` are the
/// move tokens written after it (main line), `table` the game's piece letters.
pub fn suggest(
    pos: &Position,
    written: &str,
    following: &[&str],
    table: &'static PieceTable,
    max: usize,
) -> Vec<Suggestion> {
    let Some(mut scored) = closeness(pos, written, table) else {
        return Vec::new();
    };
    scored.sort_by(|a, b| a.distance.total_cmp(&b.distance));
    // Look ahead for the closest few.
    for s in scored.iter_mut().take(12) {
        let mut p = pos.clone();
        p.play_unchecked(&s.mv);
        s.replayed = following
            .iter()
            .take(LOOK_AHEAD)
            .take_while(|tok| read_play(tok, table, &mut p).is_ok())
            .count();
    }
    let score = |s: &Suggestion| s.distance - REPLAY_WEIGHT * s.replayed as f32;
    scored.retain(|s| s.distance <= MAX_DISTANCE || s.replayed >= 3);
    scored.sort_by(|a, b| score(a).total_cmp(&score(b)));
    scored.truncate(max);
    scored
}

/// Every legal move of `pos` with its distance to `written` (not yet sorted, no
/// look-ahead): the least, over every table and both the SAN and the long form, of the
/// distance of the written text (or the text with its ranks mirrored, plus
/// [`mirror_cost`]: less for Black, who counts ranks from the other side) to the
/// rendering, plus 0.3 for a table other than the game's. `None` when `written` is
/// empty or too long to be a slip of a move.
pub(crate) fn closeness(
    pos: &Position,
    written: &str,
    table: &'static PieceTable,
) -> Option<Vec<Suggestion>> {
    let mut target = Vec::new();
    core_into(written, &mut target);
    // No move is longer than this (`Кр×e8=Ф++` has 10 characters): longer text is no
    // slip of a move, and the edit distance would cost its length squared per candidate.
    if target.is_empty() || target.len() > MAX_TOKEN {
        return None;
    }
    let mirrored = mirror_ranks(&target);
    let mirror = mirror_cost(pos);
    // The game's own table first: a rendering another table repeats (a pawn move is
    // `e4` in most of them) then costs nothing more, as its distance plus the foreign
    // cost cannot be smaller.
    let own = tables().iter().find(|t| std::ptr::eq(*t, table));
    let order = own
        .into_iter()
        .chain(tables().iter().filter(|t| !std::ptr::eq(*t, table)));
    let mut scored: Vec<Suggestion> = Vec::new();
    let mut buf = String::new();
    let mut matrix = Vec::new();
    // this move's renderings already scored, each with the foreign cost it was scored at
    let mut seen: Vec<(Vec<char>, f32)> = Vec::new();
    let mut spare: Vec<Vec<char>> = Vec::new();
    for mv in pos.legal_moves() {
        let mut best = f32::MAX;
        spare.extend(seen.drain(..).map(|(chars, _)| chars));
        for t in order.clone() {
            let foreign = if std::ptr::eq(t, table) { 0.0 } else { 0.3 };
            for long in [false, true] {
                buf.clear();
                let mut style = SanStyle::fide(t);
                style.check_marks = false;
                if long {
                    crate::notation::chess::write_long(&mut buf, pos, &mv, &style);
                } else {
                    write_san(&mut buf, pos, &mv, &style);
                }
                let mut rendered = spare.pop().unwrap_or_default();
                core_into(&buf, &mut rendered);
                // Every insertion or deletion costs 1: a rendering whose length alone
                // puts it at `best` or beyond cannot lower it.
                let at_least = target.len().abs_diff(rendered.len()) as f32 + foreign;
                if at_least >= best || seen.iter().any(|(r, f)| *r == rendered && *f <= foreign) {
                    spare.push(rendered);
                    continue;
                }
                let d = distance_in(&target, &rendered, &mut matrix)
                    .min(distance_in(&mirrored, &rendered, &mut matrix) + mirror);
                best = best.min(d + foreign);
                seen.push((rendered, foreign));
            }
        }
        buf.clear();
        write_san(&mut buf, pos, &mv, &SanStyle::fide(table));
        scored.push(Suggestion {
            mv,
            san: buf.clone(),
            distance: best,
            replayed: 0,
        });
    }
    Some(scored)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::chess::{english, table};

    fn sans(pos: &Position, written: &str, following: &[&str]) -> Vec<String> {
        suggest(pos, written, following, english(), 3)
            .into_iter()
            .map(|s| s.san)
            .collect()
    }

    #[test]
    fn distances() {
        assert_eq!(distance("Nf3", "Nf3"), 0.0);
        assert_eq!(distance("Nf3", "nf3"), 0.3);
        assert_eq!(distance("N13", "Nf3"), 1.0);
        assert_eq!(distance("Nl3", "N13"), 0.5);
        assert_eq!(distance("Nf3", "N3f"), 0.5);
        assert_eq!(distance("", "e4"), 2.0);
    }

    #[test]
    fn typo_with_look_ahead() {
        // 1. e4 e5 2. Nf3 Nc6 3. Bb5: `Bb6` is illegal; Bb5 is the typo fix and the
        // game goes on with a6.
        let mut pos = Position::default();
        for m in ["e4", "e5", "Nf3", "Nc6"] {
            read_play(m, english(), &mut pos).unwrap();
        }
        let s = sans(&pos, "Bb6", &["a6", "Ba4", "Nf6", "O-O"]);
        assert_eq!(s[0], "Bb5");
    }

    #[test]
    fn mirrored_rank_for_black() {
        // Black writes Nf3 meaning Nf6.
        let mut pos = Position::default();
        read_play("d4", english(), &mut pos).unwrap();
        let s = sans(&pos, "Nf3", &["c4", "e6"]);
        assert_eq!(s[0], "Nf6");
    }

    /// Slip bench (issue 27): White's `Kf8` for `Kf3` (3/8) was tied with `Kf1` (the
    /// rank mirrored, a slip of Black's, who counts ranks from the other side).
    #[test]
    fn mirrored_rank_is_blacks_slip() {
        let white = Position::from_fen("8/8/8/8/8/8/6K1/k7 w - - 0 1").unwrap();
        let s = closeness(&white, "Kf8", english()).unwrap();
        let d = |san: &str| s.iter().find(|x| x.san == san).unwrap().distance;
        assert!(d("Kf3") < d("Kf1"), "{s:?}");
        // for Black the mirrored rank is as likely as a handwriting slip
        let black = Position::from_fen("K7/8/8/8/8/8/6k1/8 b - - 0 1").unwrap();
        let s = closeness(&black, "Kf8", english()).unwrap();
        let d = |san: &str| s.iter().find(|x| x.san == san).unwrap().distance;
        assert!(d("Kf1") <= d("Kf3"), "{s:?}");
    }

    #[test]
    fn another_languages_letter() {
        // A German knight letter in an English game.
        let pos = Position::default();
        let s = sans(&pos, "Sf3", &["d5"]);
        assert_eq!(s[0], "Nf3");
        // Vietnamese table: suggestions are written in it.
        let vi = table("vi").unwrap();
        let s = suggest(&pos, "Nf3", &[], vi, 1);
        assert_eq!(s[0].san, "Mf3");
    }

    #[test]
    fn long_garbage_is_not_searched() {
        let pos = Position::default();
        let garbage = "Nf3".repeat(10_000);
        let start = std::time::Instant::now();
        assert!(sans(&pos, &garbage, &[]).is_empty());
        assert!(start.elapsed().as_secs() < 1);
    }

    #[test]
    fn nothing_close() {
        let pos = Position::default();
        assert!(sans(&pos, "Qxh7", &[]).len() <= 3);
        assert!(sans(&pos, "", &[]).is_empty());
    }

    /// The distances `closeness` finds, with its shortcuts (renderings scored once,
    /// renderings too long or short to win skipped), are those of the plain rule: every
    /// table, both forms, both the written and the mirrored text.
    #[test]
    fn closeness_agrees_with_the_plain_rule() {
        fn plain(pos: &Position, written: &str, table: &'static PieceTable, mv: &Move) -> f32 {
            let mut target = Vec::new();
            core_into(written, &mut target);
            let target: String = target.into_iter().collect();
            let mirrored: String = mirror_ranks(&target.chars().collect::<Vec<_>>())
                .into_iter()
                .collect();
            let mut best = f32::MAX;
            for t in tables() {
                let foreign = if std::ptr::eq(t, table) { 0.0 } else { 0.3 };
                for long in [false, true] {
                    let mut buf = String::new();
                    let mut style = SanStyle::fide(t);
                    style.check_marks = false;
                    if long {
                        crate::notation::chess::write_long(&mut buf, pos, mv, &style);
                    } else {
                        write_san(&mut buf, pos, mv, &style);
                    }
                    let mut rendered = Vec::new();
                    core_into(&buf, &mut rendered);
                    let rendered: String = rendered.into_iter().collect();
                    let d = distance(&target, &rendered)
                        .min(distance(&mirrored, &rendered) + mirror_cost(pos));
                    best = best.min(d + foreign);
                }
            }
            best
        }
        let mut rng = crate::testing::XorShift::new(0x5eed_cafe);
        let codes = ["en", "vi", "zh", "fa", "de", "ru", "figurine"];
        let mut compared = 0;
        for _ in 0..16 {
            let mut pos = Position::default();
            for _ in 0..rng.below(40) {
                let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(&moves[rng.below(moves.len())]);
            }
            let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
            if moves.is_empty() {
                continue;
            }
            for _ in 0..10 {
                let game_table = table(codes[rng.below(codes.len())]).unwrap();
                // a legal move in some table, with one character changed, or garbage
                let mv = &moves[rng.below(moves.len())];
                let mut text = String::new();
                let shown = table(codes[rng.below(codes.len())]).unwrap();
                write_san(&mut text, &pos, mv, &SanStyle::fide(shown));
                // as written in that table, or with one character replaced, dropped or
                // doubled, or its case changed
                let mut chars: Vec<char> = text.chars().collect();
                let i = rng.below(chars.len());
                match rng.below(5) {
                    0 => {}
                    1 => chars[i] = ['1', 'l', 'x', 'N', 'f', '6', 'b', 'Ф', '马'][rng.below(9)],
                    2 if chars.len() > 1 => {
                        chars.remove(i);
                    }
                    3 => chars.insert(i, chars[i]),
                    _ => chars = text.to_lowercase().chars().collect(),
                }
                let written: String = chars.into_iter().collect();
                let found = closeness(&pos, &written, game_table).unwrap();
                assert_eq!(found.len(), moves.len());
                for s in &found {
                    let want = plain(&pos, &written, game_table, &s.mv);
                    assert_eq!(s.distance, want, "{written} → {} in {}", s.san, pos.fen());
                    compared += 1;
                }
            }
        }
        assert!(compared > 1000, "{compared}");
    }
}
