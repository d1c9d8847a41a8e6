//! Chess: vocabulary types, positions, legal move generation, FEN, perft.

pub mod attacks;
mod bitboard;
mod fen;
mod perft;
mod position;
pub mod rules;
mod types;
mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{CastlingNotation, FenError, FenField, START_FEN};
pub use perft::{check_play_legal, perft, perft_divide};
pub use position::{Castles, MoveList, Position};
pub use types::{CastlingSide, File, Move, Piece, Rank, Role, Square};
