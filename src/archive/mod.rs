//! Reading archives: a byte stream → one game chunk at a time → a syntactic game.
//!
//! [`ArchiveReader`] splits any [`std::io::BufRead`] into game chunks in bounded memory
//! ([`split`]), decodes each chunk ([`crate::text::decode`]) and parses it with
//! [`pgn::parse_game`] into a [`RawGame`]: tags and a flat list of movetext
//! [`Element`]s whose spans index the game's decoded text. Moves are not resolved here;
//! a move token is only a span. See `docs/archive-reading.md`.

use std::{borrow::Cow, num::NonZeroU32};

use crate::{
    model::diag::Diagnostic, model::diag::Span, model::game::GameResult, text::DecodeReport,
};

pub mod csv;
pub mod dhtmlxq;
pub mod formats;
pub mod pgn;
pub mod split;
pub mod text;
pub mod tree;
pub mod xqf;
pub mod zipfile;

pub use pgn::{GameSyntax, parse_game};
pub use split::{ArchiveReader, Piece, Pieces, ReadOptions, number_games, read_bytes, read_str};

/// Per-game budgets. A game over a budget gets an error diagnostic, its text is kept
/// (verbatim where it is not read), and reading goes on with the next game. The
/// defaults bound what one game costs to read, replay and write (the JSON of a move is
/// about 180 bytes), so that the CLI stays within 64 MB whatever the input
/// (`docs/robustness.md`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes in one game chunk, enforced while the game is read (`game-too-large`: the
    /// game's text is kept verbatim, unread, in parts of at most the line budget, up to
    /// the next game). 4 MiB by default.
    pub max_game_bytes: usize,
    /// Movetext elements (moves, move numbers, comments, NAGs…) in one game
    /// (`game-too-long`: parsing stops there; the rest of the game is kept as its
    /// unread text). 65 536 by default: more than three times the longest game the
    /// rules allow (17 711 elements, numbers included), and what bounds the memory
    /// of the moves replayed and written.
    pub max_elements: usize,
    /// Nesting depth of variations (`variation-too-deep`: parsing stops there).
    pub max_depth: usize,
    /// Bytes in one comment (`comment-too-long`: a warning, the comment is kept).
    pub max_comment_bytes: usize,
    /// Bytes in one line, line end not counted (`line-too-long`; checked by the
    /// splitter, [`ArchiveReader`], not by [`parse_game`]). The text from the line to
    /// the next game is kept verbatim, unread: as the game the line is in when only tags
    /// come before it; as non-game text after a finished game (with its result); a line
    /// that continues a game without a result ends that game there with the error.
    pub max_line_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_game_bytes: 4 << 20,
            max_elements: 1 << 16,
            max_depth: 256,
            max_comment_bytes: 1 << 20,
            max_line_bytes: 1 << 20,
        }
    }
}

/// One tag pair `[Name "value"]`; all spans index [`RawGame::text`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RawTag {
    /// The whole tag, brackets included.
    pub span: Span,
    pub name: Span,
    /// The value between the quotes, as written (escapes not yet removed).
    pub value: Span,
    /// The value holds backslash escapes (`\"`, `\\`): use [`RawGame::tag_value`].
    pub escaped: bool,
}

/// The kind of a comment.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// `{ … }`
    Brace,
    /// `; …` to the end of the line.
    Line,
}

/// One event of the movetext, in text order. Variations are bracketed by
/// [`Element::StartVariation`] and [`Element::EndVariation`], always balanced (missing
/// closers are added with an empty span at the end of the text).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Element {
    /// `12.`, `12...`, `12…`, `12)` or a bare `12`; `black` for `...`/`…`.
    MoveNumber {
        number: u32,
        black: bool,
        span: Span,
    },
    /// A move token. `span` covers the token and an en-passant suffix written after it
    /// (`exd6 e.p.`); `ep` is where the suffix starts (it ends where `span` does:
    /// [`Element::ep_suffix`]). Annotation glyphs glued to the token (`Nf3!?`, `e4+`)
    /// stay inside it.
    Move {
        span: Span,
        ep: Option<NonZeroU32>,
    },
    /// A standalone token made only of `! ? + # = - / ± ∓ ∞ □ ⩲ ⩱` (e.g. `!?` in
    /// `Nf3 !?`, `+-`, `±`): an annotation of the preceding move. `--` is a move.
    Annotation {
        span: Span,
    },
    /// A comment; `body` is its text without the delimiters, one byte after the
    /// opening `{` or `;`; `closed`: a `}` follows it (not for `;` comments, nor for an
    /// unterminated `{`). The whole comment is [`Element::span`].
    Comment {
        kind: CommentKind,
        closed: bool,
        body: Span,
    },
    /// `$n`.
    Nag {
        value: u8,
        span: Span,
    },
    /// The FIDE draw-offer mark `(=)` after a move.
    DrawOffer {
        span: Span,
    },
    StartVariation {
        span: Span,
    },
    EndVariation {
        span: Span,
    },
    /// A `%` escape line (column 1 to the end of the line).
    Escape {
        span: Span,
    },
}

/// An element is 16 bytes (four to a cache line): the elements of a batch of games are
/// written by the parser and read back by the replay, so their size is memory traffic.
/// The en-passant suffix of a move and the delimiters of a comment are found from the
/// element's other spans rather than stored as spans of their own.
const _: () = assert!(std::mem::size_of::<Element>() == 16);

impl Element {
    /// The span of the whole element.
    pub fn span(&self) -> Span {
        match *self {
            Element::Comment { closed, body, .. } => Span::new(
                body.start.saturating_sub(1),
                body.end.saturating_add(u32::from(closed)),
            ),
            Element::MoveNumber { span, .. }
            | Element::Move { span, .. }
            | Element::Annotation { span }
            | Element::Nag { span, .. }
            | Element::DrawOffer { span }
            | Element::StartVariation { span }
            | Element::EndVariation { span }
            | Element::Escape { span } => span,
        }
    }

    /// The span of a move's en-passant suffix (`e.p.` in `exd6 e.p.`), if written.
    pub fn ep_suffix(&self) -> Option<Span> {
        match *self {
            Element::Move { span, ep: Some(ep) } => Some(Span::new(ep.get(), span.end)),
            _ => None,
        }
    }
}

/// A game as written: tags and movetext elements, with spans into `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawGame {
    /// 0-based index of the game in its file. Junk items do not count: a junk item has
    /// the index the next game will get.
    pub index: u64,
    /// Text between games that is not a game (no tags, no move number, no result):
    /// `movetext` is empty, `text` holds it and a `junk-between-games` warning says so.
    pub junk: bool,
    pub tags: Vec<RawTag>,
    pub movetext: Vec<Element>,
    /// The termination marker and its span, if written.
    pub result: Option<(GameResult, Span)>,
    /// The decoded (NFC) text of the game; all spans index it.
    pub text: String,
    /// Offset of the game's first byte in the input (after UTF-16 transcoding: in the
    /// UTF-8 stream). See `docs/archive-reading.md` for games split after a result.
    pub byte_start: u64,
    /// Offset just past the game's last byte in the input.
    pub byte_end: u64,
    /// The 1-based line number of the first line of `text` in the file.
    pub first_line: u64,
    /// How the text was decoded.
    pub decoding: DecodeReport,
    /// Findings of decoding and syntax, with spans into `text`.
    pub diagnostics: Vec<Diagnostic>,
    /// Which letters occur in the move tokens of the main line ([`move_letters`]), as
    /// the PGN reader found while reading the movetext ([`GameSyntax::move_letters`]):
    /// the replay then chooses the piece letters' language without looking at the
    /// tokens again. `None` when not known (other formats); code that edits `movetext`
    /// must set it to `None`.
    pub move_letters: Option<u64>,
    /// What the PGN reader counted of `movetext` while reading it
    /// ([`GameSyntax::counts`]), so that the replay need not count again; `None` when
    /// not known (other formats). Code that edits `movetext` must set it to `None`.
    pub counts: Option<MovetextCounts>,
    /// For a game read from a scoresheet CSV, the cell each span of `text` came from
    /// (`csv`); `None` for every other format.
    pub sheet: Option<std::sync::Arc<crate::model::game::SheetCells>>,
}

/// Counts of a movetext that the replay needs before it walks the elements: how many
/// moves to make room for, and whether any variation needs the position before each
/// move kept.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MovetextCounts {
    /// [`Element::Move`] elements, variations included.
    pub moves: usize,
    /// Some [`Element::StartVariation`] is there.
    pub variations: bool,
}

impl MovetextCounts {
    /// The counts of `movetext`, found by looking at every element (the rule the PGN
    /// reader's running counts must agree with).
    pub fn of(movetext: &[Element]) -> MovetextCounts {
        let mut counts = MovetextCounts::default();
        for e in movetext {
            match e {
                Element::Move { .. } => counts.moves += 1,
                Element::StartVariation { .. } => counts.variations = true,
                _ => {}
            }
        }
        counts
    }
}

/// The bit of [`move_letters`] for the byte `b`: `A`…`Z` are bits 0 to 25, `a`…`z`
/// bits 32 to 57, any byte outside ASCII bit 63; other bytes have none.
pub const fn letter_bit(b: u8) -> u64 {
    match b {
        b'A'..=b'Z' => 1 << (b - b'A'),
        b'a'..=b'z' => 1 << (b - b'a' + 32),
        0x80.. => 1 << 63,
        _ => 0,
    }
}

/// [`letter_bit`] of every byte, for a look-up a byte.
pub const LETTER_BITS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = letter_bit(i as u8);
        i += 1;
    }
    t
};

/// The letters of `token` (a move token's bytes), one bit each ([`letter_bit`]): what
/// the reader records of a game's main line in [`RawGame::move_letters`], telling
/// nothing of what the letters mean (the notation stage reads them).
pub fn move_letters(token: &[u8]) -> u64 {
    token
        .iter()
        .fold(0, |m, &b| m | LETTER_BITS[usize::from(b)])
}

impl RawGame {
    /// The text a span covers (`""` if out of range).
    pub fn slice(&self, span: Span) -> &str {
        span.slice(&self.text)
    }

    pub fn tag_name(&self, tag: &RawTag) -> &str {
        self.slice(tag.name)
    }

    /// The tag value with `\"` and `\\` unescaped; borrowed when there are no escapes.
    pub fn tag_value(&self, tag: &RawTag) -> Cow<'_, str> {
        let raw = self.slice(tag.value);
        if !tag.escaped {
            return Cow::Borrowed(raw);
        }
        let mut out = String::with_capacity(raw.len());
        let mut chars = raw.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\\' && matches!(chars.peek(), Some('"' | '\\')) {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            } else {
                out.push(c);
            }
        }
        Cow::Owned(out)
    }

    /// The value of the first tag named `name`.
    pub fn tag(&self, name: &str) -> Option<Cow<'_, str>> {
        self.tags
            .iter()
            .find(|t| self.tag_name(t) == name)
            .map(|t| self.tag_value(t))
    }

    /// The move tokens of the main line, in order: the one walk of the main line
    /// ([`MainLine`]; its [`MainLine::spans`] gives their spans).
    pub fn main_line(&self) -> MainLine<'_> {
        MainLine::of(&self.text, self.movetext.iter())
    }

    /// The move tokens of the main line and variations, in text order.
    pub fn move_tokens(&self) -> impl Iterator<Item = &str> {
        self.movetext.iter().filter_map(|e| match e {
            Element::Move { span, .. } => Some(self.slice(*span)),
            _ => None,
        })
    }
}

/// The move tokens of a main line, in order ([`RawGame::main_line`]): the
/// [`Element::Move`]s outside variations. [`MainLine::of`] walks the elements after a
/// main-line move (a walk that stopped there) the same way.
#[derive(Clone, Debug)]
pub struct MainLine<'a> {
    text: &'a str,
    elements: std::slice::Iter<'a, Element>,
    depth: usize,
}

impl<'a> MainLine<'a> {
    /// The main line of `elements`, which start on it (a game's movetext, or what
    /// follows one of its main-line moves); spans index `text`.
    pub fn of(text: &'a str, elements: std::slice::Iter<'a, Element>) -> MainLine<'a> {
        MainLine {
            text,
            elements,
            depth: 0,
        }
    }

    /// The span of the next main-line move token.
    #[inline]
    pub fn next_span(&mut self) -> Option<Span> {
        for e in self.elements.by_ref() {
            match e {
                Element::Move { span, .. } if self.depth == 0 => return Some(*span),
                Element::StartVariation { .. } => self.depth += 1,
                Element::EndVariation { .. } => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
        }
        None
    }

    /// The spans of the remaining main-line move tokens.
    pub fn spans(mut self) -> impl Iterator<Item = Span> + 'a {
        std::iter::from_fn(move || self.next_span())
    }

    /// The game text the spans index.
    pub fn text(&self) -> &'a str {
        self.text
    }
}

impl<'a> Iterator for MainLine<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let text = self.text;
        self.next_span().map(|span| span.slice(text))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The main line skips variations at any depth, also after a variation left open,
    /// and reads the elements after a main-line move the same way.
    #[test]
    fn main_line_skips_variations() {
        let raw =
            read_str("1. e4 (1. d4 d5 (1... Nf6 2. c4)) e5 2. Nf3 {c} (2. f4) Nc6 *").remove(0);
        let tokens: Vec<&str> = raw.main_line().collect();
        assert_eq!(tokens, ["e4", "e5", "Nf3", "Nc6"]);
        let spans: Vec<&str> = raw.main_line().spans().map(|s| raw.slice(s)).collect();
        assert_eq!(spans, tokens);
        // from after the first main-line move
        let k = raw
            .movetext
            .iter()
            .position(|e| matches!(e, Element::Move { .. }))
            .unwrap();
        let rest: Vec<&str> = MainLine::of(&raw.text, raw.movetext[k + 1..].iter()).collect();
        assert_eq!(rest, ["e5", "Nf3", "Nc6"]);
        let plain = read_str("1. e4 e5 *").remove(0);
        assert_eq!(plain.main_line().collect::<Vec<_>>(), ["e4", "e5"]);
    }
}
