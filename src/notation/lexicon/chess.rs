//! The chess words of `grammars/`: the piece letters of every language
//! (`grammars/chess-pieces.tsv`), compiled into the binary and read row by row. The
//! tables built from them are [`notation::chess::lang`](crate::notation::chess::lang)'s;
//! adding a language is adding rows to the file (or giving them at run time:
//! [`notation::chess::with_extra_tables`](crate::notation::chess::with_extra_tables)).

use crate::chess::Role;

/// `grammars/chess-pieces.tsv`, as compiled in.
pub const PIECES_TSV: &str = include_str!("../../../grammars/chess-pieces.tsv");

/// One row of a piece-letter table: a letter of a language for a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceRow<'a> {
    /// Short code: `en`, `vi`, `figurine` …
    pub code: &'a str,
    /// English name of the language.
    pub name: &'a str,
    pub role: Role,
    /// The letter (one character or more).
    pub letter: &'a str,
}

/// A row that could not be read: its 1-based line and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for RowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for RowError {}

/// The role a piece's English name names (`king` … `pawn`).
pub fn role_from_name(s: &str) -> Option<Role> {
    Some(match s {
        "king" => Role::King,
        "queen" => Role::Queen,
        "rook" => Role::Rook,
        "bishop" => Role::Bishop,
        "knight" => Role::Knight,
        "pawn" => Role::Pawn,
        _ => return None,
    })
}

/// The rows of a piece-letter TSV text (`code`, `name`, `role`, `letter`, then any
/// columns, such as the source; tab separated), in order. Lines starting with `#` and
/// blank lines are skipped; any other line that is not a row is an error.
pub fn piece_rows(tsv: &str) -> impl Iterator<Item = Result<PieceRow<'_>, RowError>> {
    tsv.lines().enumerate().filter_map(|(i, line)| {
        if line.starts_with('#') || line.trim().is_empty() {
            return None;
        }
        let line_no = i + 1;
        let mut cols = line.split('\t');
        let (Some(code), Some(name), Some(role), Some(letter)) =
            (cols.next(), cols.next(), cols.next(), cols.next())
        else {
            return Some(Err(RowError {
                line: line_no,
                message: format!(
                    "expected four tab-separated columns (code, name, role, letter), found {line:?}"
                ),
            }));
        };
        let Some(role) = role_from_name(role) else {
            return Some(Err(RowError {
                line: line_no,
                message: format!(
                    "expected a role (king, queen, rook, bishop, knight, pawn), found {role:?}"
                ),
            }));
        };
        if code.is_empty() || name.is_empty() || letter.is_empty() || letter.contains(' ') {
            return Some(Err(RowError {
                line: line_no,
                message: format!("expected a code, a name and a letter, found {line:?}"),
            }));
        }
        Some(Ok(PieceRow {
            code,
            name,
            role,
            letter,
        }))
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn every_row_of_the_file_reads() {
        let rows: Vec<_> = piece_rows(PIECES_TSV).collect::<Result<_, _>>().unwrap();
        assert!(rows.len() > 80, "{}", rows.len());
    }

    #[test]
    fn bad_rows_are_errors_naming_the_line() {
        let bad = "# comment\n\neo\tEsperanto\tking\nxx\tX\temperor\tE\n";
        let errors: Vec<_> = piece_rows(bad).filter_map(Result::err).collect();
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].line, 3);
        assert_eq!(
            errors[1].to_string(),
            "line 4: expected a role (king, queen, rook, bishop, knight, pawn), found \"emperor\""
        );
    }
}
