//! Chess: vocabulary types, positions, legal move generation, FEN.

mod types;

pub use types::{CastlingSide, File, Move, Piece, Rank, Role, Square};

/// Placeholder until the engine lands (replaced in the same session).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position;

impl Position {
    pub fn fen(&self) -> String {
        String::new()
    }
}
