//! Why a xiangqi move could not be read: the syntax errors of the xiangqi dialects
//! (`invalid-move`, `unknown-piece`); resolution errors (`illegal-move`,
//! `ambiguous-move`, with the candidates as data) and the either-family error are the
//! types chess uses too ([`crate::notation::error`]). The replay adds the span and the
//! ply.

use crate::model::diag::Code;
use std::fmt;

use crate::{model::diag::Diagnostic, xiangqi::Move};

use super::Dialect;

/// Why a token is not a move (the "invalid" family).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// A letter that is not a piece letter of the dialect, followed by what would be a
    /// move with one of its letters (`X2.5` in WXF).
    UnknownPiece {
        letter: String,
        token: String,
        dialect: Dialect,
        known: String,
    },
    /// Not a move of the dialect.
    Invalid {
        token: String,
        dialect: Dialect,
        expected: &'static str,
    },
    /// Several moves written together where one was expected (`炮二平五马８进７`).
    Several { token: String, count: usize },
}

impl crate::notation::error::TokenError for SyntaxError {
    /// The stable diagnostic code: `unknown-piece` or `invalid-move`.
    fn code(&self) -> Code {
        match self {
            SyntaxError::UnknownPiece { .. } => Code::UnknownPiece,
            SyntaxError::Invalid { .. } | SyntaxError::Several { .. } => Code::InvalidMove,
        }
    }

    /// As an error diagnostic (no span: the caller knows where the token was).
    fn to_diagnostic(&self) -> Diagnostic {
        let message = match self {
            // the common case, made without the formatting machinery: the replay
            // checks the syntax of many tokens that are not word-form moves
            SyntaxError::Invalid {
                token,
                dialect,
                expected,
            } => {
                let name = dialect.notation().name;
                let mut m = String::with_capacity(2 * token.len() + expected.len() + 64);
                for part in [
                    "invalid move ",
                    token,
                    ": expected a ",
                    name,
                    " move (",
                    expected,
                    "), found ",
                    token,
                ] {
                    m.push_str(part);
                }
                m
            }
            _ => self.to_string(),
        };
        Diagnostic::error(self.code(), message)
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::UnknownPiece {
                letter,
                token,
                dialect,
                known,
            } => write!(
                f,
                "unknown piece letter {letter} in {token}: {dialect} pieces are {known}"
            ),
            SyntaxError::Invalid {
                token,
                dialect,
                expected,
            } => write!(
                f,
                "invalid move {token}: expected a {dialect} move ({expected}), found {token}"
            ),
            SyntaxError::Several { token, count } => write!(
                f,
                "invalid move {token}: expected one move, found {count} moves written together (read_play_many reads them)"
            ),
        }
    }
}

impl std::error::Error for SyntaxError {}

/// Why a move could not be resolved: the shared shape ([`crate::notation::error`]) with
/// xiangqi moves, the reason as text, and ambiguous moves in the dialect's forms.
pub type ResolveError = crate::notation::error::ResolveError<Move, String>;

/// Either family of failure when reading a token against a position.
pub type ReadError = crate::notation::error::ReadError<SyntaxError, Move, String>;

impl From<SyntaxError> for ReadError {
    fn from(e: SyntaxError) -> Self {
        ReadError::Syntax(e)
    }
}
