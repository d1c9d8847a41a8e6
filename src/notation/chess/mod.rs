//! Chess move notation: SAN and long algebraic in any language, resolved against a
//! position, and the writers back.
//!
//! - [`syntax`]: one token → [`SanSyntax`], no position (grammar: `grammars/san.ebnf`).
//! - [`lang`]: piece letters per language, data from `grammars/chess-pieces.tsv`.
//! - [`resolve`]: [`SanSyntax`] + [`Position`](crate::chess::Position) → one legal move,
//!   or an illegal/ambiguous error; notes and warnings as [`Remark`]s.
//! - [`infer`]: the language of a whole game, by legality.
//! - [`write`]: SAN (PGN or FIDE style, any language, figurines), long algebraic, UCI.
//!
//! User documentation: `docs/notation/chess.md`.

pub mod fold;
pub mod infer;
pub mod lang;
pub mod resolve;
pub mod syntax;
pub mod write;

pub use infer::{Inference, InferenceFailure, infer_language};
pub use lang::{LetterCase, PieceTable, english, figurine, table, tables};
pub use resolve::{
    CastleWhy, Illegal, ReadError, Remark, Remarks, ResolveError, Resolved, read, read_play,
    resolve, resolve_play,
};
pub use syntax::{CheckMark, Form, SanSyntax, SyntaxError, parse};
pub use write::{
    SanStyle, pgn_san, write_check_suffix, write_long, write_null, write_pgn_san, write_san,
    write_uci,
};
