//! How the walk gets the syntax of the main line's moves (speed tricks, fenced): each
//! move parsed as it comes ([`ParseEach`]); read ahead by the language choice
//! ([`ReadAhead`]), so that the walk does not parse a token twice; or read in the walk
//! under the table a game's letters name and settled after it (the lettered one-pass
//! walk, [`walk_reading`]). Every way gives the same [`Game`]: the test
//! `one_pass_lettered_walk_agrees_with_reading_ahead` compares them.

use super::*;

/// The bytes of the main-line tokens ([`RawGame::main_line`]; those of a token that
/// starts outside ASCII as its text gives them, checking character boundaries; the
/// others unchecked), for telling the letters of a game by their first bytes.
pub(super) fn main_line_bytes(raw: &RawGame) -> impl Iterator<Item = &[u8]> {
    raw.main_line().spans().map(|span| {
        let bytes = span_bytes(&raw.text, span);
        match bytes.first() {
            Some(&b) if b >= 0x80 => raw.slice(span).as_bytes(),
            _ => bytes,
        }
    })
}

/// How the walk reads the main line's moves.
pub(super) enum MainReading<'a> {
    /// Each one parsed as it comes (English, or the table given).
    Parse,
    /// Read ahead by [`choose_table`].
    Ahead(ReadAhead<'a>),
    /// Each one parsed as it comes, under the table the game's letters name
    /// ([`san::LetteredReading::of`]: a letter outside ASCII, or in ASCII one of a
    /// single table's own), the heads of the tokens noted meanwhile; after the walk,
    /// the table is settled as the only one that reads the main line
    /// ([`san::LetteredReading::settle`]), or the game is walked again from the start
    /// kept here. A token the table does not read ends the walk there. (Boxed: the
    /// reading's heads take 300 bytes.)
    Lettered(Box<(san::LetteredReading, Position)>),
}

/// How the walk gets the syntax of a main-line move: one implementation for each way
/// of [`MainReading`], so that the walk is compiled for each and tests no way per move.
pub(super) trait MainLine {
    /// The syntax of the `i`-th main-line move (at `span`, its bytes `bytes`): read
    /// ahead, read now into `scratch` ([`san::SanSyntax::blank`] on entry), or left
    /// to the walk; `None` when the walk is to stop (its line is thrown away).
    fn read<'s>(
        &'s mut self,
        i: usize,
        raw: &RawGame,
        span: Span,
        bytes: &[u8],
        scratch: &mut san::SanSyntax,
    ) -> Option<MoveSyntax<'s>>;

    /// The walk stopped at a main-line move whose elements after it are `rest`.
    fn stopped(&mut self, raw: &RawGame, rest: std::slice::Iter<'_, Element>) {
        let _ = (raw, rest);
    }
}

/// Where the syntax of a move is, for [`read_move`].
#[derive(Copy, Clone)]
pub(super) enum MoveSyntax<'s> {
    /// Here (read ahead).
    Given(&'s san::SanSyntax),
    /// In the walk's scratch syntax.
    Scratch,
    /// Nowhere yet: the move is parsed into the scratch syntax
    /// ([`san::SanSyntax::blank`]).
    Parse,
}

/// Every main-line move parsed by the walk.
pub(super) struct ParseEach;

impl MainLine for ParseEach {
    #[inline(always)]
    fn read<'s>(
        &'s mut self,
        _: usize,
        _: &RawGame,
        _: Span,
        _: &[u8],
        _: &mut san::SanSyntax,
    ) -> Option<MoveSyntax<'s>> {
        Some(MoveSyntax::Parse)
    }
}

impl MainLine for ReadAhead<'_> {
    #[inline(always)]
    fn read<'s>(
        &'s mut self,
        i: usize,
        _: &RawGame,
        _: Span,
        bytes: &[u8],
        _: &mut san::SanSyntax,
    ) -> Option<MoveSyntax<'s>> {
        Some(match self.get(i, bytes) {
            Some(read) => MoveSyntax::Given(read),
            None => MoveSyntax::Parse,
        })
    }
}

impl MainLine for san::LetteredReading {
    #[inline(always)]
    fn read<'s>(
        &'s mut self,
        _: usize,
        raw: &RawGame,
        span: Span,
        bytes: &[u8],
        scratch: &mut san::SanSyntax,
    ) -> Option<MoveSyntax<'s>> {
        // not read under the table: the game is walked again (`walk_reading`)
        self.read_bytes(bytes, || raw.slice(span), scratch)
            .then_some(MoveSyntax::Scratch)
    }

    /// The main-line tokens after the one the walk stopped at are read too, so that
    /// the table is settled on every token of the main line, as reading ahead
    /// settles it.
    #[cold]
    fn stopped(&mut self, raw: &RawGame, rest: std::slice::Iter<'_, Element>) {
        for token in crate::archive::MainLine::of(&raw.text, rest) {
            let mut san = san::SanSyntax::blank();
            if !self.read(token, &mut san) {
                return;
            }
        }
    }
}

/// [`walk`] with the main line read as `reading` says; a game read in the walk under
/// a lettered table is settled after it: its note on the language put where reading
/// ahead would have put it, or, should the table not be the only one that reads every
/// main-line token, the game walked again as [`choose_table_by_reading`] says.
pub(super) fn walk_reading(
    raw: &RawGame,
    start: Board,
    reader: Reader,
    reading: MainReading<'_>,
    movetext_end: usize,
    keep_illegal: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Line, Option<String>, Board) {
    let mut lettered = match reading {
        MainReading::Parse => {
            return walk(
                raw,
                start,
                reader,
                &mut ParseEach,
                movetext_end,
                keep_illegal,
                diagnostics,
            );
        }
        MainReading::Ahead(mut ahead) => {
            return walk(
                raw,
                start,
                reader,
                &mut ahead,
                movetext_end,
                keep_illegal,
                diagnostics,
            );
        }
        MainReading::Lettered(lettered) => lettered,
    };
    // where the note on the language goes (the notes of `choose_table` come before the
    // walk's diagnostics)
    let walked_from = diagnostics.len();
    let walked = walk(
        raw,
        start,
        reader,
        &mut lettered.0,
        movetext_end,
        keep_illegal,
        diagnostics,
    );
    let (lettered, again) = *lettered;
    if lettered.settle(raw.main_line()) {
        // the one table that reads every main-line token: what reading ahead finds,
        // its note where it puts it
        if let Some(note) = language_note(lettered.table()) {
            diagnostics.insert(walked_from, note);
        }
        return walked;
    }
    // another table reads every token too, or this one does not: the game is read
    // again, as any game in other letters (never read in the walk again)
    diagnostics.truncate(walked_from);
    let (table, reading) = choose_table_by_reading(raw, &again, diagnostics);
    walk_reading(
        raw,
        Board::Chess(again),
        Reader::Chess(table),
        reading,
        movetext_end,
        keep_illegal,
        diagnostics,
    )
}

/// The main-line tokens read by [`choose_table`] and their syntax under the chosen
/// table, in order: the walk takes them instead of parsing each token again.
pub(super) struct ReadAhead<'a> {
    pub(super) tokens: Vec<&'a str>,
    pub(super) syntax: Vec<san::SanSyntax>,
}

impl ReadAhead<'_> {
    /// The syntax of the `i`-th main-line move, when it was read ahead from this very
    /// token (the same bytes of the game text).
    fn get(&self, i: usize, token: &[u8]) -> Option<&san::SanSyntax> {
        let read = self.tokens.get(i)?;
        if std::ptr::eq(read.as_ptr(), token.as_ptr()) && read.len() == token.len() {
            self.syntax.get(i)
        } else {
            None
        }
    }
}
