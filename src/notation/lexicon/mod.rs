//! The lexicon: every letter, word and mark of `grammars/*.tsv`, for both games, read
//! once. Adding a language's piece letters (chess or xiangqi) is a row in those files
//! and nothing else.

pub mod chess;
pub mod xiangqi;
