//! Chess move notation: SAN and long algebraic in any language, resolved against a
//! position, and the writers back. User documentation: `docs/notation/chess.md`;
//! grammar: `grammars/san.ebnf`; piece letters: `grammars/chess-pieces.tsv`.

pub mod fold;
pub mod lang;
pub mod syntax;

pub use lang::{LetterCase, PieceTable, english, figurine, table, tables};
pub use syntax::{CheckMark, Form, SanSyntax, SyntaxError, parse};
