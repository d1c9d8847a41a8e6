//! The board of either game, as the writers and the replay carry it along a move tree.

use crate::{
    color::Color,
    model::game::{AnyMove, StartPosition},
};

/// The position a writer carries while walking a move tree. Cloning a `Board`
/// allocates nothing.
#[derive(Clone, Debug)]
pub enum Board {
    Chess(crate::chess::Position),
    Xiangqi(crate::xiangqi::Position),
}

impl Board {
    /// The board at the start of `start`.
    pub fn new(start: &StartPosition) -> Board {
        match start {
            StartPosition::Chess(p) => Board::Chess((**p).clone()),
            StartPosition::Xiangqi(p) => Board::Xiangqi((**p).clone()),
        }
    }

    pub fn turn(&self) -> Color {
        match self {
            Board::Chess(p) => p.turn(),
            Board::Xiangqi(p) => p.turn(),
        }
    }

    /// The move number of the move to play (FEN field 6).
    pub fn fullmoves(&self) -> u32 {
        match self {
            Board::Chess(p) => p.fullmoves(),
            Board::Xiangqi(p) => p.fullmoves(),
        }
    }

    /// The ply of the move to play, counted from the game's move 1 (1 = White's or
    /// Red's first move), as [`crate::model::diag::Diagnostic::ply`] counts.
    pub fn ply(&self) -> u32 {
        self.fullmoves()
            .saturating_sub(1)
            .saturating_mul(2)
            .saturating_add(if self.turn() == Color::Black { 2 } else { 1 })
    }

    /// Plays `mv` (legal or a kept illegal move; never panics). A null move or a move
    /// of the other game kind only passes the turn.
    pub fn play(&mut self, mv: &AnyMove) {
        match (self, mv) {
            (Board::Chess(p), AnyMove::Chess(m)) => p.play_unchecked(m),
            (Board::Chess(p), _) => p.play_null(),
            (Board::Xiangqi(p), AnyMove::Xiangqi(m)) => p.play_unchecked(*m),
            (Board::Xiangqi(p), _) => {
                // The engine refuses a null move in check; the position then stays as
                // it is (replay never produces one, so this only guards odd input).
                let _ = p.play_null();
            }
        }
    }

    /// The FEN of the current position.
    pub fn fen(&self) -> String {
        match self {
            Board::Chess(p) => p.fen(),
            Board::Xiangqi(p) => p.fen(),
        }
    }
}
