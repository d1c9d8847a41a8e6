//! Move notations: reading move text people write, and writing it back.

pub mod chess;
pub mod error;
pub mod lexicon;
pub mod xiangqi;
