//! kyphu reads chess and xiangqi game records written the way people really write
//! them, checks them by replaying every move, and writes them out as PGN, JSON or a
//! scoresheet CSV.

pub mod archive;
pub mod bytes;
pub mod chess;
pub mod color;
pub mod emit;
pub mod model;
pub mod notation;
pub mod replay;
#[cfg(test)]
mod testing;
pub mod text;
pub mod xiangqi;

pub use color::{ByColor, Color};
