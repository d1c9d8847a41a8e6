//! Why a move could not be read, for both games: one shape, so chess and xiangqi
//! failures give the same codes and messages. A token fails in one of two families:
//! its *syntax* (each notation has its own [`TokenError`] type: `invalid-move`,
//! `unknown-piece`), or its *resolution* on the position ([`ResolveError`]:
//! `illegal-move` with the reason, `ambiguous-move` with every fitting move). The
//! replay adds the span and the ply.

use std::fmt;

use crate::model::diag::{Code, Diagnostic};

/// A notation's syntax error: its stable code and its diagnostic (without a span: the
/// caller knows where the token was).
pub trait TokenError: fmt::Display {
    fn code(&self) -> Code;
    fn to_diagnostic(&self) -> Diagnostic;
}

/// Why a move could not be resolved on the position. `M` is the game's move, `R` the
/// reason an illegal move is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError<M, R> {
    /// No legal move fits; the reason says why.
    Illegal { token: String, reason: R },
    /// Several legal moves fit: all of them, with their canonical forms (SAN for chess,
    /// the dialect's form for xiangqi), in the same order.
    Ambiguous {
        token: String,
        candidates: Vec<M>,
        forms: Vec<String>,
    },
}

impl<M, R: fmt::Display> ResolveError<M, R> {
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

impl<M, R: fmt::Display> fmt::Display for ResolveError<M, R> {
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

impl<M: fmt::Debug, R: fmt::Display + fmt::Debug> std::error::Error for ResolveError<M, R> {}

/// Either family of failure when reading a token against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError<S, M, R> {
    Syntax(S),
    Resolve(ResolveError<M, R>),
}

impl<S: TokenError, M, R: fmt::Display> ReadError<S, M, R> {
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

impl<S: fmt::Display, M, R: fmt::Display> fmt::Display for ReadError<S, M, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Syntax(e) => e.fmt(f),
            ReadError::Resolve(e) => e.fmt(f),
        }
    }
}

impl<S: fmt::Display + fmt::Debug, M: fmt::Debug, R: fmt::Display + fmt::Debug> std::error::Error
    for ReadError<S, M, R>
{
}

impl<S, M, R> From<ResolveError<M, R>> for ReadError<S, M, R> {
    fn from(e: ResolveError<M, R>) -> Self {
        ReadError::Resolve(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ambiguous_move_lists_its_forms_with_and_before_the_last() {
        let e: ResolveError<u8, String> = ResolveError::Ambiguous {
            token: "Nd2".into(),
            candidates: vec![1, 2, 3],
            forms: vec!["Nbd2".into(), "Nfd2".into(), "Nf1d2".into()],
        };
        assert_eq!(
            e.to_string(),
            "ambiguous move Nd2: it fits Nbd2, Nfd2 and Nf1d2"
        );
        assert_eq!(e.code(), Code::AmbiguousMove);
        assert_eq!(e.to_diagnostic().candidates, vec!["Nbd2", "Nfd2", "Nf1d2"]);
    }
}
