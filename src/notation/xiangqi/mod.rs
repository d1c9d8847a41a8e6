//! Xiangqi move notations: each dialect's grammar, resolution against a
//! [`Position`], and dialect inference by replay.
//!
//! Dialects read so far: ICCS coordinates (`h2e2`, `H2-E2`).

use std::fmt;

use crate::{
    diag::Diagnostic,
    xiangqi::{Move, Position},
};

/// A xiangqi move notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// ICCS coordinates: origin and destination, files `a`–`i`, ranks `0`–`9` from Red
    /// (`h2e2`, also `H2-E2`).
    Iccs,
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::Iccs => "iccs",
        })
    }
}

/// A move read and resolved, with notes about how it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub mv: Move,
    /// Notes and warnings (no span or ply: the caller adds them).
    pub remarks: Vec<Diagnostic>,
}

/// Reads `token` in `dialect` and plays it on `pos`; `pos` is unchanged on error.
/// Errors are diagnostics with the stable codes `invalid-move` (syntax) and
/// `illegal-move`.
pub fn read_play(
    token: &str,
    dialect: Dialect,
    pos: &mut Position,
) -> Result<Resolved, Diagnostic> {
    match dialect {
        Dialect::Iccs => {
            let mv = Move::parse_iccs(token).ok_or_else(|| {
                Diagnostic::error(
                    "invalid-move",
                    format!("cannot read `{token}` as a coordinate move: expected two points such as h2e2"),
                )
            })?;
            pos.play(mv).map_err(|e| {
                Diagnostic::error("illegal-move", format!("illegal move {token}: {e}"))
            })?;
            Ok(Resolved {
                mv,
                remarks: Vec::new(),
            })
        }
    }
}

/// The dialect of a game's main-line tokens played from `start`, and a diagnostic when
/// the choice is a tie or a failure.
pub fn infer_dialect(start: &Position, tokens: &[&str]) -> (Dialect, Option<Diagnostic>) {
    let _ = (start, tokens);
    (Dialect::Iccs, None)
}
