//! The model every stage shares: the game as read and replayed ([`game`]), the board of
//! either game ([`board`]), diagnostics ([`diag`]) and the comparison of two games
//! ([`diff`]).

pub mod board;
pub mod diag;
pub mod diff;
pub mod game;
