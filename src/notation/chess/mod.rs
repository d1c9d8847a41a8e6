//! Chess move notation: SAN and long algebraic in any language, resolved against a
//! position, and the writers back.
//!
//! - [`syntax`]: one token → [`SanSyntax`], no position (grammar: `grammars/san.ebnf`).
//! - [`lang`]: piece letters per language, data from `grammars/chess-pieces.tsv` read by
//!   the [lexicon](crate::notation::lexicon::chess); [`languages`] lists them.
//! - [`resolve`](mod@resolve): [`SanSyntax`] + [`Position`](crate::chess::Position) → one legal move,
//!   or an illegal/ambiguous error; notes and warnings as [`Remark`]s.
//! - [`infer`]: the language of a whole game, by legality.
//! - [`san`](mod@san): one move in SAN, [`San`]: parsed, resolved and written (PGN or FIDE
//!   style, any language, figurines); the one SAN writer of the crate.
//! - [`write`](mod@write): long algebraic, UCI.
//!
//! User documentation: `docs/notation/chess.md`.
//!
//! ```
//! use kyphu::chess::Position;
//! use kyphu::notation::chess::{infer_language, read_play, table, write_pgn_san};
//!
//! // a Vietnamese scoresheet, FIDE style
//! let moves = ["e4", "e5", "Mf3", "Mc6", "Tb5", "a6", "0-0"];
//! let inferred = infer_language(&Position::default(), &moves);
//! assert_eq!(inferred.table.code, "vi");
//!
//! let mut pos = Position::default();
//! let mut pgn = String::new();
//! for token in moves {
//!     let before = pos.clone();
//!     let r = read_play(token, inferred.table, &mut pos).unwrap();
//!     let mv = r.mv.unwrap();
//!     if !pgn.is_empty() {
//!         pgn.push(' ');
//!     }
//!     write_pgn_san(&mut pgn, &before, &mv);
//! }
//! assert_eq!(pgn, "e4 e5 Nf3 Nc6 Bb5 a6 O-O");
//!
//! // German letters read as English: reported, never the pawn move f3
//! let err = read_play("Sf3", table("en").unwrap(), &mut Position::default()).unwrap_err();
//! assert_eq!(err.code(), "unknown-piece");
//! ```

pub mod descriptive;
pub mod fold;
pub mod infer;
pub mod lang;
pub mod resolve;
pub mod san;
pub mod syntax;
pub mod write;

pub(crate) use infer::LetteredReading;
pub use infer::{
    Inference, InferenceFailure, OtherReading, Readings, english_alone, infer_language,
    read_tokens, readable_by,
};
pub use lang::{
    Language, LetterCase, PieceTable, english, figurine, languages, table, tables,
    with_extra_tables,
};
pub(crate) use resolve::resolve_play_sound;
pub use resolve::{
    CastleWhy, Illegal, ReadError, Remark, Remarks, ResolveError, Resolved, read, read_play,
    resolve, resolve_by_movement, resolve_play,
};
pub use san::{
    San, SanOut, SanStyle, pgn_san, write_and_play, write_check_suffix, write_pgn_san, write_san,
    write_san_hinted,
};
pub(crate) use san::{SanWords, square_word};
pub use syntax::{CheckMark, Form, SanSyntax, SyntaxError, parse};
pub use write::{write_long, write_null, write_uci};
