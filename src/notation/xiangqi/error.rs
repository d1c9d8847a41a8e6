//! Why a xiangqi move could not be read: the same families, codes and message shapes as
//! the chess reader's (`notation::chess`): `invalid-move` and `unknown-piece` (syntax),
//! `illegal-move` and `ambiguous-move` (resolution, with the candidates as data). The
//! replay adds the span and the ply.

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

impl SyntaxError {
    /// The stable diagnostic code: `unknown-piece` or `invalid-move`.
    pub fn code(&self) -> Code {
        match self {
            SyntaxError::UnknownPiece { .. } => Code::UnknownPiece,
            SyntaxError::Invalid { .. } | SyntaxError::Several { .. } => Code::InvalidMove,
        }
    }

    /// As an error diagnostic (no span: the caller knows where the token was).
    pub fn to_diagnostic(&self) -> Diagnostic {
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

/// Why a move could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// No legal move fits; the reason says why.
    Illegal { token: String, reason: String },
    /// Several legal moves fit: all of them, with their canonical forms in the dialect.
    Ambiguous {
        token: String,
        candidates: Vec<Move>,
        forms: Vec<String>,
    },
}

impl ResolveError {
    /// `illegal-move` or `ambiguous-move`.
    pub fn code(&self) -> Code {
        match self {
            ResolveError::Illegal { .. } => Code::IllegalMove,
            ResolveError::Ambiguous { .. } => Code::AmbiguousMove,
        }
    }

    /// As an error diagnostic; ambiguous moves list their candidates.
    pub fn to_diagnostic(&self) -> Diagnostic {
        let d = Diagnostic::error(self.code(), self.to_string());
        match self {
            ResolveError::Ambiguous { forms, .. } => d.with_candidates(forms.clone()),
            ResolveError::Illegal { .. } => d,
        }
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Illegal { token, reason } => write!(f, "illegal move {token}: {reason}"),
            ResolveError::Ambiguous { token, forms, .. } => {
                write!(f, "ambiguous move {token}: it fits ")?;
                for (i, s) in forms.iter().enumerate() {
                    if i > 0 {
                        f.write_str(if i + 1 == forms.len() { " and " } else { ", " })?;
                    }
                    f.write_str(s)?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ResolveError {}

/// Either family of failure when reading a token against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    Syntax(SyntaxError),
    Resolve(ResolveError),
}

impl ReadError {
    pub fn code(&self) -> Code {
        match self {
            ReadError::Syntax(e) => e.code(),
            ReadError::Resolve(e) => e.code(),
        }
    }

    pub fn to_diagnostic(&self) -> Diagnostic {
        match self {
            ReadError::Syntax(e) => e.to_diagnostic(),
            ReadError::Resolve(e) => e.to_diagnostic(),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Syntax(e) => e.fmt(f),
            ReadError::Resolve(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReadError {}

impl From<SyntaxError> for ReadError {
    fn from(e: SyntaxError) -> Self {
        ReadError::Syntax(e)
    }
}

impl From<ResolveError> for ReadError {
    fn from(e: ResolveError) -> Self {
        ReadError::Resolve(e)
    }
}
