//! Stage 8, the game: what is done with replayed games before they are written —
//! opening classification ([`eco`]), selection ([`select`]), duplicates ([`dedupe`]).
//!
//! It reads [`crate::model::game::Game`]s that [`crate::replay`] made and uses the
//! stages below (the chess engine, the SAN reader for its tables); [`crate::emit`]
//! writes what it returns.

pub mod dedupe;
pub mod eco;
pub mod select;
