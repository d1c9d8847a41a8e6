//! Xiangqi (cờ tướng, 象棋): board, rules and FEN.
//!
//! Movement and the end of the game follow the Vietnamese law 1409/2004 (Art. 4–7),
//! which agrees with the Asian and WXF rules on these points: see
//! `docs/xiangqi-engine.md` for the design.
//!
//! ```
//! use kyphu::xiangqi::{Move, Position, perft};
//!
//! let mut pos = Position::default();
//! assert_eq!(pos.legal_moves().len(), 44);
//! assert_eq!(perft(&pos, 2), 1920);
//! for m in ["h2e2", "h9g7", "e2e6"] {
//!     pos.play(Move::parse_iccs(m).ok_or("bad move")?)?;
//! }
//! assert_eq!(pos.fen(), "rnbakab1r/9/1c4nc1/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2");
//! assert_eq!(pos.outcome(), None);
//! let err = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
//! assert_eq!(err.to_string(), "fen board: the generals face each other on the open e file");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

mod fen;
mod perft;
mod position;
mod tables;
mod types;

pub use fen::{FenError, FenField};
pub use perft::{perft, perft_divide};
pub use position::{
    IllegalMove, IllegalReason, MAX_MOVES, MoveList, NullMoveInCheck, Outcome, OutcomeReason,
    Position, START_FEN,
};
pub use types::{Move, Piece, Role, Square};
