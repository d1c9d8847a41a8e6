//! Diagnostics as data: spans, severities, stable codes, and line/column lookup.
//!
//! Spans are byte offsets into the text of one game (see [`crate::model::game::Source`]);
//! line and column are computed only when a diagnostic is reported, with a [`LineIndex`].

use std::fmt;

use serde::Serialize;

/// A half-open byte range `start..end` within one game's source text.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub const fn new(start: u32, end: u32) -> Span {
        Span { start, end }
    }

    /// Converts `usize` offsets, saturating at `u32::MAX` (games are limited far below).
    pub fn from_range(start: usize, end: usize) -> Span {
        let c = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
        Span::new(c(start), c(end))
    }

    pub const fn len(self) -> u32 {
        self.end.saturating_sub(self.start)
    }

    pub const fn is_empty(self) -> bool {
        self.end <= self.start
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// The slice of `text` this span covers, or `""` when it is out of range or not
    /// on character boundaries.
    pub fn slice(self, text: &str) -> &str {
        text.get(self.start as usize..self.end as usize)
            .unwrap_or("")
    }
}

/// How serious a diagnostic is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Accepted, but not the canonical form (`Nge2` over-disambiguated, `0-0` for `O-O`).
    Note,
    /// Accepted with a repair the user should know of (wrong check mark, guessed encoding).
    Warning,
    /// Not accepted: the move or game could not be read or replayed.
    Error,
}

impl Severity {
    /// Its name as diagnostics show it: `note`, `warning`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding about a game: what, where, and how bad.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable, kebab-case code such as `illegal-move` (catalogue: `docs/errors.md`).
    pub code: &'static str,
    /// Lowercase, no trailing period: "no white knight can reach f6".
    pub message: String,
    /// Where in the game's source text; `None` for whole-game findings.
    pub span: Option<Span>,
    /// The ply the finding concerns (1 = White's first move), if any.
    pub ply: Option<u32>,
    /// Legal alternatives ("did you mean"), in the game's output notation.
    pub candidates: Vec<String>,
}

impl Diagnostic {
    pub fn new(severity: Severity, code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            span: None,
            ply: None,
            candidates: Vec::new(),
        }
    }

    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }

    pub fn note(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Note, code, message)
    }

    #[must_use]
    pub fn with_span(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }

    #[must_use]
    pub fn with_ply(mut self, ply: u32) -> Self {
        self.ply = Some(ply);
        self
    }

    #[must_use]
    pub fn with_candidates(mut self, candidates: Vec<String>) -> Self {
        self.candidates = candidates;
        self
    }
}

/// A 1-based line and column (column counted in characters, not bytes).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineCol {
    pub line: u64,
    pub column: u32,
}

/// Maps byte offsets of a text to lines and columns. Built on demand, only when
/// something is reported.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset of the start of each line.
    starts: Vec<usize>,
    /// The 1-based number of the text's first line in its file.
    first_line: u64,
    /// The text is ASCII: a column is a byte difference, no characters to count.
    ascii: bool,
}

impl LineIndex {
    /// Indexes `text`, whose first line is line `first_line` of its file.
    pub fn new(text: &str, first_line: u64) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex {
            starts,
            first_line,
            ascii: text.is_ascii(),
        }
    }

    /// The line and column of byte `offset` in `text` (the text this index was built on).
    pub fn locate(&self, text: &str, offset: usize) -> LineCol {
        let offset = offset.min(text.len());
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let column = if self.ascii {
            offset - start
        } else {
            text.get(start..offset)
                .map_or(offset - start, |s| s.chars().count())
        };
        LineCol {
            line: self.first_line + line as u64,
            column: u32::try_from(column).unwrap_or(u32::MAX) + 1,
        }
    }

    /// The text of the line holding byte `offset`, without its line ending.
    pub fn line_text<'a>(&self, text: &'a str, offset: usize) -> &'a str {
        let offset = offset.min(text.len());
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let end = self.starts.get(line + 1).map_or(text.len(), |&e| e);
        text.get(start..end)
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_lines_and_columns() {
        let text = "[Event \"x\"]\r\n\r\n1. e4 ệ5 Nf3\n";
        let idx = LineIndex::new(text, 10);
        assert_eq!(
            idx.locate(text, 0),
            LineCol {
                line: 10,
                column: 1
            }
        );
        let e4 = text.find("e4").unwrap();
        assert_eq!(
            idx.locate(text, e4),
            LineCol {
                line: 12,
                column: 4
            }
        );
        // column counts characters: "ệ" is three bytes
        let nf3 = text.find("Nf3").unwrap();
        assert_eq!(
            idx.locate(text, nf3),
            LineCol {
                line: 12,
                column: 10
            }
        );
        assert_eq!(idx.line_text(text, nf3), "1. e4 ệ5 Nf3");
        assert_eq!(idx.locate(text, text.len()).line, 13);
    }

    #[test]
    fn span_helpers() {
        let s = Span::new(3, 5).join(Span::new(1, 4));
        assert_eq!(s, Span::new(1, 5));
        assert_eq!(s.len(), 4);
        assert_eq!(Span::new(1, 3).slice("abcd"), "bc");
        assert_eq!(Span::new(1, 30).slice("abcd"), "");
        assert!(Span::new(2, 2).is_empty());
    }
}
