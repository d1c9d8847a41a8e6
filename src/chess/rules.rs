//! Game-level rules that need more than one position: repetitions and the move
//! counters (FIDE Laws 9.2, 9.3, 9.6), and the automatic ends of a game (5.1, 5.2, 9.6).

use super::position::Position;
use crate::color::Color;

/// How a game ended by rule, whatever the players wrote.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move is checkmated (5.1.1); `winner` gave mate.
    Checkmate { winner: Color },
    /// The side to move has no legal move and is not in check (5.2.1).
    Stalemate,
    /// Neither side can mate by any series of legal moves (5.2.2; material cases only).
    InsufficientMaterial,
    /// The same position has appeared five times (9.6.1).
    FivefoldRepetition,
    /// 75 moves by each side without a pawn move or capture (9.6.2).
    SeventyFiveMoves,
}

impl Outcome {
    /// A short phrase for messages ("checkmate", "fivefold repetition", …).
    pub fn describe(self) -> &'static str {
        match self {
            Outcome::Checkmate { .. } => "checkmate",
            Outcome::Stalemate => "stalemate",
            Outcome::InsufficientMaterial => "a dead position (insufficient material)",
            Outcome::FivefoldRepetition => "fivefold repetition",
            Outcome::SeventyFiveMoves => "the 75-move rule",
        }
    }
}

/// The positions of a game since its last irreversible move, for counting repetitions.
///
/// Feed it every position reached, starting with the initial one. Positions are equal
/// for repetition when pieces, side to move, castling rights and the possibility of an
/// en passant capture are equal (9.2.3); Zobrist hashes stand for positions.
#[derive(Clone, Debug, Default)]
pub struct History {
    hashes: Vec<u64>,
}

impl History {
    /// A history starting at `start`.
    pub fn new(start: &Position) -> History {
        let mut h = History {
            hashes: Vec::with_capacity(64),
        };
        h.push(start);
        h
    }

    /// Records the position reached by a move.
    pub fn push(&mut self, pos: &Position) {
        if pos.halfmoves() == 0 {
            // A capture or pawn move: no earlier position can recur.
            self.hashes.clear();
        }
        self.hashes.push(pos.zobrist());
    }

    /// How many times the current (last pushed) position has appeared.
    pub fn repetitions(&self) -> usize {
        match self.hashes.last() {
            Some(&last) => self
                .hashes
                .iter()
                .rev()
                .step_by(2)
                .filter(|&&h| h == last)
                .count(),
            None => 0,
        }
    }

    /// A draw may be claimed: the current position appeared three times (9.2.2).
    pub fn threefold(&self) -> bool {
        self.repetitions() >= 3
    }

    /// The game is drawn automatically: five appearances (9.6.1).
    pub fn fivefold(&self) -> bool {
        self.repetitions() >= 5
    }
}

/// The automatic end of the game at `pos`, if any, given its `history`.
pub fn outcome(pos: &Position, history: &History) -> Option<Outcome> {
    if !pos.has_legal_moves() {
        return Some(if pos.is_check() {
            Outcome::Checkmate {
                winner: pos.turn().other(),
            }
        } else {
            Outcome::Stalemate
        });
    }
    if pos.is_insufficient_material() {
        Some(Outcome::InsufficientMaterial)
    } else if history.fivefold() {
        Some(Outcome::FivefoldRepetition)
    } else if pos.halfmoves() >= 150 {
        Some(Outcome::SeventyFiveMoves)
    } else {
        None
    }
}

/// A draw may be claimed under the 50-move rule (9.3).
pub fn fifty_moves(pos: &Position) -> bool {
    pos.halfmoves() >= 100
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(pos: &mut Position, history: &mut History, uci: &str) {
        let m = *pos
            .legal_moves()
            .iter()
            .find(|m| m.uci(false) == uci)
            .unwrap();
        pos.play_unchecked(&m);
        history.push(pos);
    }

    #[test]
    fn knight_shuffle_repeats() {
        let mut pos = Position::default();
        let mut h = History::new(&pos);
        assert_eq!(h.repetitions(), 1);
        let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        for _ in 0..2 {
            for m in cycle {
                play(&mut pos, &mut h, m);
            }
        }
        assert_eq!(h.repetitions(), 3);
        assert!(h.threefold());
        assert!(!h.fivefold());
        assert_eq!(outcome(&pos, &h), None);
        for _ in 0..2 {
            for m in cycle {
                play(&mut pos, &mut h, m);
            }
        }
        assert!(h.fivefold());
        assert_eq!(outcome(&pos, &h), Some(Outcome::FivefoldRepetition));
    }

    #[test]
    fn pawn_move_resets() {
        let mut pos = Position::default();
        let mut h = History::new(&pos);
        play(&mut pos, &mut h, "g1f3");
        play(&mut pos, &mut h, "e7e5");
        assert_eq!(h.hashes.len(), 1);
    }

    #[test]
    fn automatic_ends() {
        let mate = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap();
        assert_eq!(
            outcome(&mate, &History::new(&mate)),
            Some(Outcome::Checkmate {
                winner: Color::White
            })
        );
        let stale = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(
            outcome(&stale, &History::new(&stale)),
            Some(Outcome::Stalemate)
        );
        let bare = Position::from_fen("8/8/4k3/8/8/3K4/8/8 w - - 0 1").unwrap();
        assert_eq!(
            outcome(&bare, &History::new(&bare)),
            Some(Outcome::InsufficientMaterial)
        );
        let long = Position::from_fen("8/8/4k3/8/8/3K4/8/R7 w - - 150 100").unwrap();
        assert_eq!(
            outcome(&long, &History::new(&long)),
            Some(Outcome::SeventyFiveMoves)
        );
        assert!(fifty_moves(&long));
        // Mate on the 150th half-move is mate (9.6.2: unless the last move mated).
        let mate75 = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 150 100").unwrap();
        assert_eq!(
            outcome(&mate75, &History::new(&mate75)),
            Some(Outcome::Checkmate {
                winner: Color::White
            })
        );
    }
}
