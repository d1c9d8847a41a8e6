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
pub(super) trait ReadMain {
    /// The syntax of the `i`-th main-line move (at `span`, its bytes `bytes`): read
    /// ahead, read now into `scratch` ([`san::SanSyntax::blank`] on entry), or left
    /// to the walk (what a way that reads nothing itself keeps); `None` when the walk
    /// is to stop (its line is thrown away).
    #[inline(always)]
    fn read<'s>(
        &'s mut self,
        i: usize,
        raw: &RawGame,
        span: Span,
        bytes: &[u8],
        scratch: &mut san::SanSyntax,
    ) -> Option<MoveSyntax<'s>> {
        let _ = (i, raw, span, bytes, scratch);
        Some(MoveSyntax::Parse)
    }

    /// The walk stopped at a main-line move whose elements after it are `rest`.
    fn stopped(&mut self, raw: &RawGame, rest: std::slice::Iter<'_, Element>) {
        let _ = (raw, rest);
    }

    /// The repair plan the walk follows, if any ([`Planned`]; none for every other
    /// way, so that their walks test nothing for it).
    #[inline(always)]
    fn plan(&mut self) -> Option<&mut Planned> {
        None
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

impl ReadMain for ParseEach {}

impl ReadMain for ReadAhead<'_> {
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

impl ReadMain for san::LetteredReading {
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
/// main-line token, the game walked again as [`choose_table_by_reading`] says. A
/// table chosen without replaying the game under the others is checked after a walk
/// that fails ([`rechoose`]; `check`: the start position when the table was not given).
#[allow(clippy::too_many_arguments)]
pub(super) fn walk_reading(
    raw: &RawGame,
    start: Board,
    reader: Reader,
    reading: MainReading<'_>,
    movetext_end: usize,
    keep_illegal: bool,
    check: Option<&Position>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Line, Option<String>, Board) {
    let walk_from = diagnostics.len();
    let mut lettered = match reading {
        MainReading::Lettered(lettered) => lettered,
        other => {
            let walked = match other {
                MainReading::Ahead(mut ahead) => walk(
                    raw,
                    start,
                    reader,
                    &mut ahead,
                    movetext_end,
                    keep_illegal,
                    diagnostics,
                ),
                // `Parse` (`Lettered` is taken above)
                _ => walk(
                    raw,
                    start,
                    reader,
                    &mut ParseEach,
                    movetext_end,
                    keep_illegal,
                    diagnostics,
                ),
            };
            return rechoose(
                raw,
                check,
                reader,
                walk_from,
                walked,
                movetext_end,
                keep_illegal,
                diagnostics,
            );
        }
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
        return rechoose(
            raw,
            check,
            reader,
            walked_from,
            walked,
            movetext_end,
            keep_illegal,
            diagnostics,
        );
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
        check,
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::archive::read_str;

    /// A random game for [`one_pass_lettered_walk_agrees_with_reading_ahead`]: moves
    /// played at random from `start` and written in `table`'s letters, with moves in
    /// other letters, typos, junk, illegal moves, variations, NAGs, glyphs, comments
    /// and move numbers mixed in.
    fn random_lettered_game(
        rng: &mut crate::testing::XorShift,
        start: &str,
        table: &'static PieceTable,
    ) -> String {
        use crate::notation::chess::{SanStyle, tables, write_san};
        let junk = [
            "Zz9", "x", "e9", "马", "Кр", "♘", "N", "Nf3", "Mf3", "Sf3", "Tb5", "e8=D", "d8H",
            "e8=♕", "ｅ４", "马f9", "e4e5", "--", "Z0", "0-0", "O-O-O", "ex", "Ωf3", "é", "اسبf3",
            "Крe2", "b8=后", "a8=ф", "e7e8q", "马f3!?", "♕xd8+", "车1e1#",
        ];
        let style = |t: &'static PieceTable, rng: &mut crate::testing::XorShift| {
            let mut st = if t.code == "figurine" {
                SanStyle::figurine()
            } else {
                SanStyle::fide(t)
            };
            st.castle_zeros = rng.below(2) == 0;
            st.promotion_eq = rng.below(2) == 0;
            st.check_marks = rng.below(8) != 0;
            st
        };
        let main_style = style(table, rng);
        let mut pos = if start.is_empty() {
            Position::default()
        } else {
            Position::from_fen(start).unwrap()
        };
        let mut text = String::new();
        if !start.is_empty() {
            text.push_str(&format!("[FEN \"{start}\"]\n"));
        }
        if rng.below(6) == 0 {
            text.push_str("[Result \"1-0\"]\n");
        }
        text.push('\n');
        if rng.below(10) == 0 {
            text.push_str("{before} ");
        }
        let mess = rng.below(4); // how often moves are not as played
        let plies = rng.below(40);
        for ply in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply % 2 == 0 || rng.below(8) == 0 {
                text.push_str(&format!(
                    "{}{} ",
                    1 + ply / 2,
                    if ply % 2 == 0 { "." } else { "..." }
                ));
            }
            let mv = moves[rng.below(moves.len())];
            let before = pos.clone();
            let mut token = String::new();
            match rng.below(64) {
                // another table's letters
                n if n < 2 * mess => {
                    let other = &tables()[rng.below(tables().len())];
                    write_san(&mut token, &before, &mv, &style(other, rng));
                }
                // junk, a typo, an illegal move
                n if n < 3 * mess => token.push_str(junk[rng.below(junk.len())]),
                _ => write_san(&mut token, &before, &mv, &main_style),
            }
            if rng.below(24) == 0 {
                token.push_str(["!?", "?", "!", "+", "#"][rng.below(5)]);
            }
            text.push_str(&token);
            text.push(' ');
            pos.play_unchecked(&mv);
            match rng.below(40) {
                0 => text.push_str("$1 "),
                1 => text.push_str("{a comment} "),
                2 => text.push_str("!? "),
                3 => text.push_str("( "),
                4 => text.push_str(") "),
                5..=8 => {
                    // a variation: another move from the position before, and on
                    let mut var = before.clone();
                    text.push_str("( ");
                    for _ in 0..1 + rng.below(4) {
                        let moves = var.legal_moves();
                        if moves.is_empty() {
                            break;
                        }
                        let mv = moves[rng.below(moves.len())];
                        let mut token = String::new();
                        if rng.below(16) < mess {
                            token.push_str(junk[rng.below(junk.len())]);
                        } else {
                            write_san(&mut token, &var, &mv, &main_style);
                        }
                        text.push_str(&token);
                        text.push(' ');
                        var.play_unchecked(&mv);
                    }
                    text.push_str(") ");
                }
                _ => {}
            }
        }
        text.push_str(["*", "1-0", "1/2-1/2", ""][rng.below(4)]);
        text.push('\n');
        text
    }

    /// The one-pass reading of a game in letters outside ASCII (parsed in the walk
    /// under the table of its first such letter, settled after it, or walked again)
    /// gives the [`Game`] that reading ahead gives (`replay_with`, `one_pass` off):
    /// moves, diagnostics in order, unparsed text and the position reached, on random
    /// games in every table's letters with other letters, typos, illegal moves,
    /// variations, NAGs and comments mixed in, with and without `--keep-illegal`, with
    /// and without span-less notes of the reader before the walk.
    #[test]
    fn one_pass_lettered_walk_agrees_with_reading_ahead() {
        let starts = [
            "",
            "",
            "",
            "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
            "4k3/1P6/8/3n4/8/8/6p1/4K3 w - - 0 1",
            "r3k3/2P5/8/8/8/8/6p1/4K2R b K - 0 1",
        ];
        let codes = [
            "zh", "fa", "figurine", "ru", "zh", "fa", "figurine", "vi", "vi", "pl", "cs", "de",
            "en",
        ];
        let mut rng = crate::testing::XorShift::new(0x2545_F491_4F6C_DD1D);
        let (mut one_pass, mut settled, mut walked_again) = (0, 0, 0);
        for round in 0..3_000 {
            let start = starts[rng.below(starts.len())];
            let table = crate::notation::chess::table(codes[rng.below(codes.len())]).unwrap();
            let text = random_lettered_game(&mut rng, start, table);
            for mut raw in read_str(&text) {
                if rng.below(4) == 0 {
                    // a note of the reader without a span, which the note on the
                    // language follows
                    raw.diagnostics.insert(
                        0,
                        Diagnostic::warning(
                            crate::model::diag::Code::EncodingReplaced,
                            "malformed bytes replaced",
                        ),
                    );
                }
                let options = ReplayOptions {
                    keep_illegal: rng.below(3) == 0,
                    ..ReplayOptions::default()
                };
                if !raw.move_letters.is_some_and(san::english_alone)
                    && let Some(lettered) = san::LetteredReading::of(main_line_bytes(&raw))
                {
                    one_pass += 1;
                    match san::read_tokens(&raw.main_line().collect::<Vec<_>>())
                        .tables
                        .as_slice()
                    {
                        [t] if std::ptr::eq(*t, lettered.table()) => settled += 1,
                        _ => walked_again += 1,
                    }
                }
                let one = replay_with(raw.clone(), &options, true);
                let ahead = replay_with(raw, &options, false);
                assert_eq!(one, ahead, "round {round}:\n{text}");
                let end = |g: &Game| g.recorded_end().map(Board::fen);
                assert_eq!(end(&one), end(&ahead), "{text}");
            }
        }
        // most lettered games settle in one pass; many are walked again
        assert!(
            settled > 800 && walked_again > 400,
            "{one_pass} {settled} {walked_again}"
        );
    }
}
