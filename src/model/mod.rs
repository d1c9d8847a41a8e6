//! The model every stage shares: the game as read and replayed ([`game`]), the board of
//! either game ([`board`]) and diagnostics ([`diag`]).

pub mod board;
pub mod diag;
pub mod game;
mod spare;
