//! Comparing two records of the same game (White's and Black's scoresheets, two
//! editions of a book), as FIDE's guidance on reconstructing a game asks the arbiter
//! to do: align them move by move, find the first divergence, recognise a half-move or
//! a move pair missing from one record (everything after it shifted into the other
//! colour's column), and give the game up to the point both agree.

use crate::{
    model::board::Board,
    model::game::{AnyMove, Game, StartPosition},
    notation::chess::{self as san, PieceTable},
    notation::xiangqi as xq,
    replay::final_chess_position,
};

/// How the two records relate after their common part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Divergence {
    /// The records are the same game (same moves, same length).
    Identical,
    /// One record is a prefix of the other: `a_plies` against `b_plies`.
    Prefix { a_plies: usize, b_plies: usize },
    /// `missing` plies written in `in_record` (`'A'` or `'B'`) at ply `at` are absent
    /// from the other record, after which the two agree again (`agree_after` more
    /// plies replay). One ply: a half-move missing, or a move written in the other
    /// colour's column; two plies: a missing move pair.
    Missing {
        at: u32,
        in_record: char,
        missing: Vec<String>,
        agree_after: usize,
    },
    /// At ply `at` the records give different moves and do not realign.
    Different { at: u32, a: String, b: String },
}

/// The result of a comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// Plies both records agree on from the start.
    pub agreed: usize,
    pub divergence: Divergence,
}

/// How a record's moves are read and named: chess piece letters, or a xiangqi notation.
#[derive(Clone, Copy, Debug)]
pub enum Reading {
    /// Chess, with these piece letters (moves are named in English SAN).
    Chess(&'static PieceTable),
    /// Xiangqi in this notation (moves are named in its canonical form).
    Xiangqi(xq::Dialect),
}

impl Reading {
    /// How `game` was written: for chess the piece letters its main line replays with
    /// ([`table_of`]), for xiangqi the notation its written moves read in
    /// ([`dialect_of`]).
    pub fn of(game: &Game) -> Reading {
        match &game.start {
            StartPosition::Chess(_) => Reading::Chess(table_of(game)),
            StartPosition::Xiangqi(_) => Reading::Xiangqi(dialect_of(game)),
        }
    }
}

/// The notation a xiangqi game was written in: the one its written main line (or, when
/// no move was read, its unread rest) replays in, as the replay infers it. ICCS for a
/// chess game or an empty record.
pub fn dialect_of(game: &Game) -> xq::Dialect {
    let StartPosition::Xiangqi(start) = &game.start else {
        return xq::Dialect::Iccs;
    };
    // one token per written move element: Chinese moves written together share a span
    let mut tokens: Vec<&str> = Vec::new();
    let mut last = None;
    for node in &game.moves.moves {
        if last != Some(node.span) {
            tokens.push(game.written(node));
            last = Some(node.span);
        }
    }
    let rest = rest_tokens(game);
    if tokens.is_empty() {
        tokens.extend(rest.iter().map(String::as_str));
    }
    xq::infer_dialect(start, &tokens).0
}

/// The written tokens of a game's unread rest, move numbers and results dropped.
fn rest_tokens(game: &Game) -> Vec<String> {
    game.unparsed
        .as_deref()
        .map(|u| {
            u.split_whitespace()
                .filter(|t| {
                    !t.trim_end_matches(['.', ')', '…'])
                        .chars()
                        .all(|c| c.is_ascii_digit())
                        && crate::model::game::GameResult::parse(t).is_none()
                        && *t != "(=)"
                })
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// A record's main line: each move's key (what identifies it: canonical English SAN
/// for chess, ICCS for xiangqi) and its name (canonical SAN for chess, the move in the
/// record's own xiangqi notation), and the written tokens that were not resolved (the
/// `unparsed` rest), which are their own keys and names.
struct Line {
    keys: Vec<String>,
    names: Vec<String>,
    rest: Vec<String>,
}

fn line_of(game: &Game, reading: Reading) -> Line {
    let mut keys = Vec::new();
    let mut names = Vec::new();
    match &game.start {
        StartPosition::Chess(start) => {
            let mut pos = (**start).clone();
            for node in &game.moves.moves {
                let key = match &node.mv {
                    AnyMove::Chess(m) => {
                        let s = san::pgn_san(&pos, m);
                        pos.play_unchecked(m);
                        s
                    }
                    AnyMove::Null => {
                        pos.play_null();
                        "--".into()
                    }
                    AnyMove::Xiangqi(m) => m.iccs(),
                };
                names.push(key.clone());
                keys.push(key);
            }
        }
        StartPosition::Xiangqi(start) => {
            let mut pos = (**start).clone();
            let dialect = match reading {
                Reading::Xiangqi(d) => d,
                Reading::Chess(_) => xq::Dialect::Iccs,
            };
            for node in &game.moves.moves {
                let AnyMove::Xiangqi(m) = &node.mv else {
                    keys.push("--".to_owned());
                    names.push("--".to_owned());
                    let _ = pos.play_null();
                    continue;
                };
                let mut name = String::new();
                xq::write(&mut name, &pos, *m, dialect);
                pos.play_unchecked(*m);
                keys.push(m.iccs());
                names.push(name);
            }
        }
    }
    Line {
        keys,
        names,
        rest: rest_tokens(game),
    }
}

/// How many of `tokens` replay from the position of `game` after its first `plies`
/// main-line moves, read as `reading` says.
fn replays_from(game: &Game, plies: usize, tokens: &[String], reading: Reading) -> usize {
    let mut board = Board::new(&game.start);
    for node in game.moves.moves.iter().take(plies) {
        board.play(&node.mv);
    }
    match (board, reading) {
        (Board::Chess(mut pos), Reading::Chess(table)) => tokens
            .iter()
            .take_while(|t| san::read_play(t, table, &mut pos).is_ok())
            .count(),
        (Board::Xiangqi(mut pos), Reading::Xiangqi(dialect)) => tokens
            .iter()
            .take_while(|t| xq::read_play_many(t, dialect, &mut pos).is_ok())
            .count(),
        _ => 0,
    }
}

/// Compares two chess records of one game. `table_a`/`table_b` are the piece letters
/// each was read with (for re-reading the unread rest of a record).
pub fn compare(
    a: &Game,
    b: &Game,
    table_a: &'static PieceTable,
    table_b: &'static PieceTable,
) -> Comparison {
    compare_as(a, b, Reading::Chess(table_a), Reading::Chess(table_b))
}

/// Compares two records of one game, chess or xiangqi, each read as its `Reading`
/// says ([`Reading::of`]): moves are told apart by what they are (SAN, ICCS) and named
/// in the findings as each record writes them (SAN for chess, the record's own
/// notation for xiangqi).
pub fn compare_as(a: &Game, b: &Game, reading_a: Reading, reading_b: Reading) -> Comparison {
    let la = line_of(a, reading_a);
    let lb = line_of(b, reading_b);
    let agreed = la
        .keys
        .iter()
        .zip(&lb.keys)
        .take_while(|(x, y)| x == y)
        .count();
    let ply = agreed as u32 + 1;
    if agreed == la.keys.len()
        && agreed == lb.keys.len()
        && la.rest.is_empty()
        && lb.rest.is_empty()
    {
        return Comparison {
            agreed,
            divergence: Divergence::Identical,
        };
    }
    // The rest of each record from the divergence, as written tokens or named moves.
    let tail = |l: &Line| -> Vec<String> {
        l.names[agreed.min(l.names.len())..]
            .iter()
            .chain(&l.rest)
            .cloned()
            .collect()
    };
    let tail_a = tail(&la);
    let tail_b = tail(&lb);
    if tail_a.is_empty() || tail_b.is_empty() {
        return Comparison {
            agreed,
            divergence: Divergence::Prefix {
                a_plies: la.keys.len(),
                b_plies: lb.keys.len(),
            },
        };
    }
    // One or two plies present in one record only: the other's moves replay on the
    // first record's position after skipping them.
    let full_a = a.moves.moves.len();
    let full_b = b.moves.moves.len();
    for k in 1..=2usize {
        for (record, game, full, skipped, other_tail, reading) in [
            ('A', a, full_a, &tail_a, &tail_b, reading_b),
            ('B', b, full_b, &tail_b, &tail_a, reading_a),
        ] {
            if agreed + k > full || skipped.len() < k {
                continue;
            }
            let n = replays_from(game, agreed + k, other_tail, reading);
            if n >= other_tail.len().min(4) && n > 0 {
                return Comparison {
                    agreed,
                    divergence: Divergence::Missing {
                        at: ply,
                        in_record: record,
                        missing: skipped[..k].to_vec(),
                        agree_after: n,
                    },
                };
            }
        }
    }
    Comparison {
        agreed,
        divergence: Divergence::Different {
            at: ply,
            a: tail_a[0].clone(),
            b: tail_b[0].clone(),
        },
    }
}

/// The FEN of the position after the agreed plies, for printing the common part
/// (chess or xiangqi).
pub fn agreed_fen(a: &Game, agreed: usize) -> Option<String> {
    if let StartPosition::Xiangqi(_) = &a.start {
        let mut board = Board::new(&a.start);
        for node in a.moves.moves.iter().take(agreed) {
            board.play(&node.mv);
        }
        return Some(board.fen());
    }
    let mut g = a.clone();
    g.moves.moves.truncate(agreed);
    final_chess_position(&g).map(|p| p.fen())
}

/// The piece-letter table a chess game's main line was read with: the first table
/// (in preference order) under which its written moves replay to the same moves.
pub fn table_of(game: &Game) -> &'static PieceTable {
    let StartPosition::Chess(start) = &game.start else {
        return san::english();
    };
    let written: Vec<&str> = game.moves.moves.iter().map(|n| game.written(n)).collect();
    // a move replay assumed in place of what was written (issue 27) says nothing of
    // the letters: it is played, not read
    let first = crate::model::board::Board::new(&game.start).ply();
    let assumed = |i: usize| {
        game.repairs
            .iter()
            .any(|r| r.ply as usize == first as usize + i)
    };
    san::tables()
        .iter()
        .find(|t| {
            let mut pos = (**start).clone();
            written
                .iter()
                .zip(&game.moves.moves)
                .enumerate()
                .all(|(i, (w, n))| {
                    if assumed(i) {
                        if let AnyMove::Chess(k) = &n.mv {
                            pos.play_unchecked(k);
                        }
                        return true;
                    }
                    matches!(san::read_play(w, t, &mut pos), Ok(r) if match (&r.mv, &n.mv) {
                        (Some(m), AnyMove::Chess(k)) => m == k,
                        (None, AnyMove::Null) => true,
                        _ => false,
                    })
                })
        })
        .unwrap_or(san::english())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        archive::read_str,
        replay::{ReplayOptions, replay},
    };

    fn game(text: &str) -> Game {
        replay(read_str(text).remove(0), &ReplayOptions::default())
    }

    fn cmp(a: &str, b: &str) -> Comparison {
        let en = san::english();
        compare(&game(a), &game(b), en, en)
    }

    #[test]
    fn seed_sample_short_against_long_form() {
        let vi = san::table("vi").unwrap();
        let a = game(
            "1. e4 e5 2. Mf3 Mf6 3. d4 exd4 4. e5 Me4 5. Hxd4 d5 6. exd6 e.p. Mxd6 7. Tg5 Mc6 8. He3+ Te7 9. Mbd2 0-0 10. 0-0-0 Xe8 11. Vb1 (=)",
        );
        let b = game(
            "e2e4 e7e5 2. Mg1f3 Mg8f6 3. d2d4 e5xd4 4. e4e5 Mf6e4 5. Hd1xd4 d7d5 6. e5xd6 e. p. Me4xd6 7. Tc1g5 Mb8c6 8. Hd4d3 Tf8e7 9. Mb1d2 0-0 10. 0-0-0 Xf8e8 11. Vb1 (=)",
        );
        let c = compare(&a, &b, vi, vi);
        assert_eq!(c.agreed, 14);
        assert_eq!(
            c.divergence,
            Divergence::Different {
                at: 15,
                a: "Qe3+".into(),
                b: "Qd3".into()
            }
        );
    }

    #[test]
    fn identical_and_prefix() {
        assert_eq!(
            cmp("1. e4 e5 *", "1. e4 e5 *").divergence,
            Divergence::Identical
        );
        assert_eq!(
            cmp("1. e4 e5 2. Nf3 *", "1. e4 e5 *").divergence,
            Divergence::Prefix {
                a_plies: 3,
                b_plies: 2
            }
        );
    }

    #[test]
    fn missing_move_pair() {
        let c = cmp(
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *",
            "1. e4 e5 2. Nf3 Nc6 3. Ba4 Nf6 4. O-O Be7 *",
        );
        assert_eq!(c.agreed, 4);
        assert_eq!(
            c.divergence,
            Divergence::Missing {
                at: 5,
                in_record: 'A',
                missing: vec!["Bb5".into(), "a6".into()],
                agree_after: 4
            }
        );
    }

    #[test]
    fn missing_half_move_shifts_columns() {
        // B skipped White's 3. Bc4: every later move sits in the other colour's column.
        let c = cmp(
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 *",
            "1. e4 e5 2. Nf3 Nc6 3. Bc5 c3 4. Nf6 *",
        );
        match c.divergence {
            Divergence::Missing {
                at,
                in_record,
                missing,
                ..
            } => {
                assert_eq!((at, in_record), (5, 'A'));
                assert_eq!(missing, ["Bc4"]);
            }
            other => panic!("{other:?}"),
        }
    }
}
