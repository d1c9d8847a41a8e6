//! kyphu reads chess and xiangqi game records written the way people really write
//! them, checks them by replaying every move, and writes them out as PGN, JSON or a
//! scoresheet CSV.

pub mod archive;
pub mod chess;
pub mod cli;
pub mod color;
pub mod diag;
pub mod diff;
pub mod emit;
pub mod game;
pub mod notation;
pub mod replay;
pub mod suggest;
#[cfg(test)]
mod testing;
pub mod text;
pub mod xiangqi;

pub use color::{ByColor, Color};
