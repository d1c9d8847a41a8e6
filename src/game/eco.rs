//! Opening classification (ECO code and name) by position, from the lichess
//! chess-openings table bundled in `grammars/eco/` (CC0; source, commit and licence in
//! `grammars/eco/README.md`).
//!
//! # Rule
//!
//! Every line of the table (`eco`, `name`, `pgn`: SAN from the initial position) is
//! replayed once, on first use, by kyphu's own SAN reader, and the position it ends in
//! (pieces, side to move, castling rights, and the en passant square only when a
//! capture there is legal: [`Position::zobrist`]) names the opening. A game is
//! classified by the deepest position of its main line that the table names, so a
//! transposition classifies by where the game is, not by the order its moves came in
//! (the table's own convention: "play moves backwards until a named position is
//! found"). Games that do not start from the initial position of standard chess, and
//! xiangqi games, are not classified.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::chess::Position;
use crate::model::game::{AnyMove, Game, StartPosition, Variant};
use crate::notation::chess::lang::english;
use crate::notation::chess::san::San;

/// The five files of the table, in order (`a.tsv` … `e.tsv`).
const TABLE: [&str; 5] = [
    include_str!("../../grammars/eco/a.tsv"),
    include_str!("../../grammars/eco/b.tsv"),
    include_str!("../../grammars/eco/c.tsv"),
    include_str!("../../grammars/eco/d.tsv"),
    include_str!("../../grammars/eco/e.tsv"),
];

/// An opening of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code, `A00` … `E99`.
    pub eco: &'static str,
    /// The English name, `Family: Variation, Subvariation`.
    pub name: &'static str,
}

/// A game's classification: the opening and the number of plies after which the game
/// stood in its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classified {
    pub opening: Opening,
    pub ply: usize,
}

/// The table by position: the hash of each line's final position → its opening.
fn table() -> &'static HashMap<u64, Opening> {
    static TABLE_BY_POSITION: OnceLock<HashMap<u64, Opening>> = OnceLock::new();
    TABLE_BY_POSITION.get_or_init(|| {
        let mut map = HashMap::with_capacity(4096);
        for (eco, name, pgn) in lines() {
            if let Some(pos) = play_line(pgn) {
                // the table's final positions are all distinct (README); should two
                // ever coincide, the first line keeps the position
                map.entry(pos.zobrist()).or_insert(Opening { eco, name });
            }
        }
        map
    })
}

/// The table's rows: `(eco, name, pgn)`, header lines left out.
fn lines() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    TABLE.iter().flat_map(|file| {
        file.lines().skip(1).filter_map(|line| {
            let mut cols = line.split('\t');
            Some((cols.next()?, cols.next()?, cols.next()?))
        })
    })
}

/// The position after the SAN line `pgn` (`1. e4 e5 2. Nf3`), or `None` when a move
/// does not replay (never for the bundled table: `table_lines_all_replay`).
fn play_line(pgn: &str) -> Option<Position> {
    let mut pos = Position::default();
    for token in pgn.split_whitespace() {
        if token.ends_with('.') {
            continue;
        }
        let syntax = San::parse(token, english()).ok()?;
        let mv = San::resolve(&syntax, &pos, token).ok()?.mv?;
        pos.play_legal(&mv);
    }
    Some(pos)
}

/// The opening `game` is in: the deepest position of its main line the table names.
/// `None` for a game that leaves the book at once, does not start from the initial
/// position, or is not standard chess.
pub fn classify(game: &Game) -> Option<Classified> {
    if game.variant != Variant::Chess {
        return None;
    }
    let StartPosition::Chess(start) = &game.start else {
        return None;
    };
    let mut pos: Position = (**start).clone();
    if pos.zobrist() != Position::default().zobrist() {
        return None;
    }
    let table = table();
    let mut found = None;
    for (i, node) in game.moves.moves.iter().enumerate() {
        let AnyMove::Chess(mv) = node.mv else {
            break;
        };
        if node.illegal || !pos.is_legal(&mv) {
            break;
        }
        pos.play_legal(&mv);
        if let Some(&opening) = table.get(&pos.zobrist()) {
            found = Some(Classified {
                opening,
                ply: i + 1,
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_lines_all_replay() {
        let n = lines().count();
        assert_eq!(n, 3807, "the README counts 3,807 lines");
        let failed: Vec<_> = lines().filter(|l| play_line(l.2).is_none()).collect();
        assert!(failed.is_empty(), "{failed:?}");
        // all final positions distinct, as python-chess found (README)
        assert_eq!(table().len(), n);
    }
}
