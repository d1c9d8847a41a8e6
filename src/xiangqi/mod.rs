//! Xiangqi (cờ tướng, 象棋): board, rules and FEN.

mod position;
mod types;

pub use position::Position;
pub use types::{Move, Piece, Role, Square};
