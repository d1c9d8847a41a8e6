//! Stage 8, the game: what is done with replayed games before they are written —
//! opening classification ([`eco`]).
//!
//! It reads [`crate::model::game::Game`]s that [`crate::replay`] made and uses the
//! stages below (the chess engine, the SAN reader for its tables); [`crate::emit`]
//! writes what it returns.

pub mod eco;
