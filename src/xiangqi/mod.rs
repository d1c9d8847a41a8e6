//! Xiangqi (cờ tướng, 象棋): board, rules and FEN.
//!
//! Movement and the end of the game follow the Vietnamese law 1409/2004 (Art. 4–7),
//! which agrees with the Asian and WXF rules on these points: see
//! `docs/xiangqi-engine.md` for the design.

mod fen;
mod perft;
mod position;
mod rules;
mod tables;
mod types;

pub use fen::{FenError, FenField};
pub use perft::{perft, perft_divide};
pub use position::{
    IllegalMove, IllegalReason, MAX_MOVES, MoveList, Outcome, OutcomeReason, Position, START_FEN,
};
pub use rules::RuleTracker;
pub use types::{Move, Piece, Role, Square};
