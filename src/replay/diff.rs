//! Comparing two records of the same game (White's and Black's scoresheets, two
//! editions of a book), as FIDE's guidance on reconstructing a game asks the arbiter
//! to do: align them move by move, find the first divergence, recognise a half-move or
//! a move pair missing from one record (everything after it shifted into the other
//! colour's column), and give the game up to the point both agree.

use crate::{
    model::board::Board,
    model::game::{AnyMove, Game, StartPosition},
    notation::chess::{self as san, PieceTable},
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

/// The main line of a game as canonical SAN (ICCS for xiangqi), and the written tokens that were
/// not resolved (the `unparsed` rest, move numbers and results dropped).
fn moves_and_rest(game: &Game) -> (Vec<String>, Vec<String>) {
    let mut sans = Vec::new();
    if let StartPosition::Chess(start) = &game.start {
        let mut pos = (**start).clone();
        for node in &game.moves.moves {
            match &node.mv {
                AnyMove::Chess(m) => {
                    sans.push(san::pgn_san(&pos, m));
                    pos.play_unchecked(m);
                }
                AnyMove::Null => {
                    sans.push("--".into());
                    pos.play_null();
                }
                AnyMove::Xiangqi(m) => sans.push(m.iccs()),
            }
        }
    } else {
        // a xiangqi record: its moves in ICCS, which names each move once
        sans.extend(game.moves.moves.iter().map(|node| match &node.mv {
            AnyMove::Xiangqi(m) => m.iccs(),
            AnyMove::Chess(_) | AnyMove::Null => "--".to_owned(),
        }));
    }
    let rest = game
        .unparsed
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
        .unwrap_or_default();
    (sans, rest)
}

/// How many of `tokens` replay from the position of `game` after its first `plies`
/// main-line moves, read with `table`.
fn replays_from(game: &Game, plies: usize, tokens: &[String], table: &'static PieceTable) -> usize {
    let mut board = Board::new(&game.start);
    for node in game.moves.moves.iter().take(plies) {
        board.play(&node.mv);
    }
    let Board::Chess(mut pos) = board else {
        return 0;
    };
    tokens
        .iter()
        .take_while(|t| san::read_play(t, table, &mut pos).is_ok())
        .count()
}

/// Compares two chess records of one game. `table_a`/`table_b` are the piece letters
/// each was read with (for re-reading the unread rest of a record).
pub fn compare(
    a: &Game,
    b: &Game,
    table_a: &'static PieceTable,
    table_b: &'static PieceTable,
) -> Comparison {
    let (sa, rest_a) = moves_and_rest(a);
    let (sb, rest_b) = moves_and_rest(b);
    let agreed = sa.iter().zip(&sb).take_while(|(x, y)| x == y).count();
    let ply = agreed as u32 + 1;
    if agreed == sa.len() && agreed == sb.len() && rest_a.is_empty() && rest_b.is_empty() {
        return Comparison {
            agreed,
            divergence: Divergence::Identical,
        };
    }
    // The rest of each record from the divergence, as written tokens or resolved SAN.
    let tail = |s: &[String], rest: &[String]| -> Vec<String> {
        s[agreed.min(s.len())..]
            .iter()
            .chain(rest)
            .cloned()
            .collect()
    };
    let tail_a = tail(&sa, &rest_a);
    let tail_b = tail(&sb, &rest_b);
    if tail_a.is_empty() || tail_b.is_empty() {
        return Comparison {
            agreed,
            divergence: Divergence::Prefix {
                a_plies: sa.len(),
                b_plies: sb.len(),
            },
        };
    }
    // One or two plies present in one record only: the other's moves replay on the
    // first record's position after skipping them.
    let full_a = a.moves.moves.len();
    let full_b = b.moves.moves.len();
    for k in 1..=2usize {
        for (record, game, full, skipped, other_tail, table) in [
            ('A', a, full_a, &tail_a, &tail_b, table_b),
            ('B', b, full_b, &tail_b, &tail_a, table_a),
        ] {
            if agreed + k > full || skipped.len() < k {
                continue;
            }
            let n = replays_from(game, agreed + k, other_tail, table);
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

/// The final position after the agreed plies, for printing the common part.
pub fn agreed_fen(a: &Game, agreed: usize) -> Option<String> {
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
    san::tables()
        .iter()
        .find(|t| {
            let mut pos = (**start).clone();
            written.iter().zip(&game.moves.moves).all(|(w, n)| {
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
