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

/// A diagnostic's code: stable, with a kebab-case name (`docs/errors.md` lists
/// them all, with when each is given).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Code {
    /// Several legal moves fit.
    AmbiguousMove,
    /// The FEN tag cannot be read (the message names the FEN field and what was expected).
    BadFen,
    /// X on a move that captures nothing.
    CaptureMark,
    /// A wrong or missing check or mate mark (Ra8+ for mate).
    CheckMark,
    /// A comment longer than the per-game limit.
    CommentTooLong,
    /// A draw-offer cell that is not white or black.
    CsvBadDrawOffer,
    /// A move-number cell that is not a number.
    CsvBadMoveNumber,
    /// A game of more than 20 000 rows is cut there.
    CsvGameTooLong,
    /// The sheet has no header row naming the white and black columns.
    CsvMissingHeader,
    /// A row with more or fewer cells than the header.
    CsvRaggedRow,
    /// A record over 1 MiB ends the reading of the file (exit status 1).
    CsvRecordTooLong,
    /// A header names a column kyphu does not know.
    CsvUnknownColumn,
    /// The CSV cannot be read as CSV at that record.
    CsvUnreadable,
    /// The text is not valid UTF-8 and has no BOM.
    EncodingGuessed,
    /// Malformed bytes were replaced with U+FFFD.
    EncodingReplaced,
    /// Exf6 e.p.
    EpMark,
    /// A % line inside a game: not read, as the PGN standard says, and kept as a comment.
    EscapeLine,
    /// A game larger than the byte budget (4 MiB).
    GameTooLarge,
    /// More movetext elements than the budget.
    GameTooLong,
    /// No legal move fits the token.
    IllegalMove,
    /// With `--keep-illegal`: an illegal move only one piece can make, kept (FIDE Laws 7.5:
    /// an illegal move not claimed stands); replay goes on from the position it made.
    IllegalMoveKept,
    /// A bug in kyphu: please report it with the input.
    Internal,
    /// A token that is not a move in any form kyphu reads (Nf9, Nf3zz).
    InvalidMove,
    /// $n outside 0–255.
    InvalidNag,
    /// Text between games that is not a game (no tags, move numbers or result).
    JunkBetweenGames,
    /// Which piece-letter table the game was read with, and whether it was a tie or a best
    /// effort.
    Language,
    /// Which piece-letter table the game was read with, and whether it was a tie or a best
    /// effort.
    LanguageTie,
    /// Which piece-letter table the game was read with, and whether it was a tie or a best
    /// effort.
    LanguageUnknown,
    /// A line longer than the line budget (1 MiB).
    LineTooLong,
    /// A lower-case piece letter (nf3), read as the piece.
    LowercasePiece,
    /// [ not followed by a tag name.
    MalformedTag,
    /// The first move number does not match the position (a book excerpt without a FEN).
    MoveNumber,
    /// Braces nested inside a comment.
    NestedComment,
    /// A move written otherwise than PGN's SAN writes it (the forms below).
    NonCanonical,
    /// With --notation auto, several notations replay the whole game.
    NotationTie,
    /// No notation replays the whole game.
    NotationUnknown,
    /// A result token inside a variation (ignored).
    ResultInVariation,
    /// The movetext's result token differs from the Result tag.
    ResultMismatch,
    /// A NAG or (=) before any move.
    StrayDrawOffer,
    /// A NAG or (=) before any move.
    StrayNag,
    /// A tag value without quotes ([Round 3]).
    TagMissingQuotes,
    /// A " inside a tag value that is not escaped.
    TagUnescapedQuote,
    /// Two pieces of a kind stand on one file and the front/rear mark was left out, but
    /// only one of them can make the move.
    TandemMarkOmitted,
    /// ( without ) before the end of the game.
    UnclosedVariation,
    /// A piece letter the game's letter set does not have (Sf3 read as English).
    UnknownPiece,
    /// } without {.
    UnmatchedBrace,
    /// ) without (.
    UnmatchedParenthesis,
    /// A {kyphu: unparsed: …} comment written by an earlier run: text that was not read as
    /// moves (the game stays partial or failed).
    UnparsedKept,
    /// A Variant tag other than chess, chess960 or xiangqi (crazyhouse, antichess, …).
    UnsupportedVariant,
    /// { without } before the end of the game.
    UnterminatedComment,
    /// Variations nested deeper than the budget.
    VariationTooDeep,
    /// ( before the first move of a line: there is no move for it to replace.
    VariationWithoutMove,
    /// See docs/errors.md.
    XqNoCapture50,
    /// No tag or option named the game: it was told from its moves (a token only
    /// xiangqi writes, or the game whose reading replays further).
    GameFromContent,
    /// Text of a free-text record that is not moves of the game (a heading, prose, a
    /// caption, a side line quoted in the notes), kept verbatim as a comment.
    TextKept,
    /// See docs/errors.md.
    XqNoCapture60,
    /// See docs/errors.md.
    XqPerpetualCheck,
    /// See docs/errors.md.
    XqRepetition,
    /// A `{` inside a comment, read as text: PGN comments do not nest.
    BraceInComment,
    /// A FEN's castling rights that no rook or king supports, dropped.
    FenCastlingDropped,
    /// An XQF file breaks its format (cut short, a square off the board, a comment
    /// length past the end…): what could be read is kept.
    XqfMalformed,
    /// A DhtmlXQ block breaks its format (a tag closed by another name, moves that are
    /// not groups of four digits, a branch with no parent…): the rest is read.
    DhtmlxqMalformed,
    /// A move cell written as illegible (`?` alone, docs/arbiter.md).
    IllegibleMove,
    /// A move seems left out before this one (every later move in the other column).
    MissingMove,
    /// Two moves of one side seem written in each other's place.
    SwappedMoves,
    /// A legal move the rest of the game does not replay after: another is assumed.
    SuspectMove,
    /// Tag values or comments decoded twice (UTF-8 read as windows-1252: `MÃ¼ller`)
    /// were repaired (issue 28).
    MojibakeRepaired,
    /// An entry of a zip archive that is not read (encrypted, a zip bomb, corrupt, a
    /// zip inside it, an unread compression method; a warning for a file that is not a
    /// game file), named `archive.zip:entry`.
    ArchiveEntryNotRead,
    /// The final position is checkmate and the result says otherwise (a warning), or
    /// is `*` (a note).
    CheckmateResult,
    /// The final position is stalemate and the result is decisive (a warning), or `*`.
    StalemateResult,
    /// The final position is dead (neither side has mating material) and the result
    /// is decisive.
    DeadPositionResult,
    /// A position occurred for the third time: a draw could be claimed (FIDE 9.2).
    RepetitionClaim,
    /// Fifty moves by each side without a capture or pawn move: a draw could be
    /// claimed (FIDE 9.3); seventy-five with a decisive result is a warning (9.6.2).
    FiftyMoveClaim,
    /// Xiangqi: the side to move has no legal move, so it has lost (Art. 7.b), and the
    /// result says otherwise (a warning) or is `*` (a note).
    XqNoLegalMove,
    /// Xiangqi: a side chases the same piece with every move of a repeated stretch
    /// (Art. 23: perpetual chase).
    XqPerpetualChase,
}

impl Code {
    /// Every code, in the order of their names.
    pub const ALL: &[Code] = &[
        Code::AmbiguousMove,
        Code::BadFen,
        Code::CaptureMark,
        Code::CheckMark,
        Code::CommentTooLong,
        Code::CsvBadDrawOffer,
        Code::CsvBadMoveNumber,
        Code::CsvGameTooLong,
        Code::CsvMissingHeader,
        Code::CsvRaggedRow,
        Code::CsvRecordTooLong,
        Code::CsvUnknownColumn,
        Code::CsvUnreadable,
        Code::DhtmlxqMalformed,
        Code::EncodingGuessed,
        Code::EncodingReplaced,
        Code::EpMark,
        Code::EscapeLine,
        Code::GameTooLarge,
        Code::GameTooLong,
        Code::IllegalMove,
        Code::IllegalMoveKept,
        Code::Internal,
        Code::InvalidMove,
        Code::InvalidNag,
        Code::JunkBetweenGames,
        Code::Language,
        Code::LanguageTie,
        Code::LanguageUnknown,
        Code::LineTooLong,
        Code::LowercasePiece,
        Code::MalformedTag,
        Code::MoveNumber,
        Code::NestedComment,
        Code::NonCanonical,
        Code::NotationTie,
        Code::NotationUnknown,
        Code::ResultInVariation,
        Code::ResultMismatch,
        Code::StrayDrawOffer,
        Code::StrayNag,
        Code::TagMissingQuotes,
        Code::TagUnescapedQuote,
        Code::TandemMarkOmitted,
        Code::UnclosedVariation,
        Code::UnknownPiece,
        Code::UnmatchedBrace,
        Code::UnmatchedParenthesis,
        Code::UnparsedKept,
        Code::UnsupportedVariant,
        Code::UnterminatedComment,
        Code::VariationTooDeep,
        Code::VariationWithoutMove,
        Code::XqNoCapture50,
        Code::XqNoCapture60,
        Code::XqPerpetualCheck,
        Code::XqRepetition,
        Code::BraceInComment,
        Code::FenCastlingDropped,
        Code::GameFromContent,
        Code::TextKept,
        Code::XqfMalformed,
        Code::IllegibleMove,
        Code::MissingMove,
        Code::SwappedMoves,
        Code::SuspectMove,
        Code::MojibakeRepaired,
        Code::ArchiveEntryNotRead,
        Code::CheckmateResult,
        Code::StalemateResult,
        Code::DeadPositionResult,
        Code::RepetitionClaim,
        Code::FiftyMoveClaim,
        Code::XqNoLegalMove,
        Code::XqPerpetualChase,
    ];

    /// Its stable kebab-case name, as JSON and the messages show it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::AmbiguousMove => "ambiguous-move",
            Code::BadFen => "bad-fen",
            Code::CaptureMark => "capture-mark",
            Code::CheckMark => "check-mark",
            Code::CommentTooLong => "comment-too-long",
            Code::CsvBadDrawOffer => "csv-bad-draw-offer",
            Code::CsvBadMoveNumber => "csv-bad-move-number",
            Code::CsvGameTooLong => "csv-game-too-long",
            Code::CsvMissingHeader => "csv-missing-header",
            Code::CsvRaggedRow => "csv-ragged-row",
            Code::CsvRecordTooLong => "csv-record-too-long",
            Code::CsvUnknownColumn => "csv-unknown-column",
            Code::CsvUnreadable => "csv-unreadable",
            Code::EncodingGuessed => "encoding-guessed",
            Code::EncodingReplaced => "encoding-replaced",
            Code::EpMark => "ep-mark",
            Code::EscapeLine => "escape-line",
            Code::GameTooLarge => "game-too-large",
            Code::GameTooLong => "game-too-long",
            Code::IllegalMove => "illegal-move",
            Code::IllegalMoveKept => "illegal-move-kept",
            Code::Internal => "internal",
            Code::InvalidMove => "invalid-move",
            Code::InvalidNag => "invalid-nag",
            Code::JunkBetweenGames => "junk-between-games",
            Code::Language => "language",
            Code::LanguageTie => "language-tie",
            Code::LanguageUnknown => "language-unknown",
            Code::LineTooLong => "line-too-long",
            Code::LowercasePiece => "lowercase-piece",
            Code::MalformedTag => "malformed-tag",
            Code::MoveNumber => "move-number",
            Code::NestedComment => "nested-comment",
            Code::NonCanonical => "non-canonical",
            Code::NotationTie => "notation-tie",
            Code::NotationUnknown => "notation-unknown",
            Code::ResultInVariation => "result-in-variation",
            Code::ResultMismatch => "result-mismatch",
            Code::StrayDrawOffer => "stray-draw-offer",
            Code::StrayNag => "stray-nag",
            Code::TagMissingQuotes => "tag-missing-quotes",
            Code::TagUnescapedQuote => "tag-unescaped-quote",
            Code::TandemMarkOmitted => "tandem-mark-omitted",
            Code::UnclosedVariation => "unclosed-variation",
            Code::UnknownPiece => "unknown-piece",
            Code::UnmatchedBrace => "unmatched-brace",
            Code::UnmatchedParenthesis => "unmatched-parenthesis",
            Code::UnparsedKept => "unparsed-kept",
            Code::UnsupportedVariant => "unsupported-variant",
            Code::UnterminatedComment => "unterminated-comment",
            Code::VariationTooDeep => "variation-too-deep",
            Code::VariationWithoutMove => "variation-without-move",
            Code::XqNoCapture50 => "xq-no-capture-50",
            Code::XqNoCapture60 => "xq-no-capture-60",
            Code::XqPerpetualCheck => "xq-perpetual-check",
            Code::XqRepetition => "xq-repetition",
            Code::BraceInComment => "brace-in-comment",
            Code::FenCastlingDropped => "fen-castling-dropped",
            Code::GameFromContent => "game-from-content",
            Code::TextKept => "text-kept",
            Code::XqfMalformed => "xqf-malformed",
            Code::DhtmlxqMalformed => "dhtmlxq-malformed",
            Code::IllegibleMove => "illegible-move",
            Code::MissingMove => "missing-move",
            Code::SwappedMoves => "swapped-moves",
            Code::SuspectMove => "suspect-move",
            Code::MojibakeRepaired => "mojibake-repaired",
            Code::ArchiveEntryNotRead => "archive-entry-not-read",
            Code::CheckmateResult => "checkmate-result",
            Code::StalemateResult => "stalemate-result",
            Code::DeadPositionResult => "dead-position-result",
            Code::RepetitionClaim => "repetition-claim",
            Code::FiftyMoveClaim => "fifty-move-claim",
            Code::XqNoLegalMove => "xq-no-legal-move",
            Code::XqPerpetualChase => "xq-perpetual-chase",
        }
    }

    /// The code of a kebab-case name.
    pub fn from_name(name: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == name)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<Code> for &str {
    fn eq(&self, other: &Code) -> bool {
        *self == other.as_str()
    }
}

/// One finding about a game: what, where, and how bad.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// What kind of finding: [`Code::IllegalMove`]… (catalogue: `docs/errors.md`).
    pub code: Code,
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
    pub fn new(severity: Severity, code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            span: None,
            ply: None,
            candidates: Vec::new(),
        }
    }

    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }

    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }

    pub fn note(code: Code, message: impl Into<String>) -> Self {
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
