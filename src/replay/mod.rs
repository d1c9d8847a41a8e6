//! Replay: a syntactic game ([`RawGame`]) becomes a canonical [`Game`].
//!
//! Every move token is parsed by the notation layer and resolved against the position
//! reached so far. The walk over the movetext elements uses an explicit stack for
//! variations (no recursion a hostile file can drive). What cannot be resolved is
//! never dropped: the main line stops at the first unresolvable move, which gets an
//! error diagnostic, and the rest of the movetext is kept verbatim in
//! [`Game::unparsed`]; a variation that cannot be resolved is cut at that move and its
//! remaining text is quoted in the diagnostic.

use crate::model::diag::Code;
use std::sync::Arc;

pub mod diff;
pub mod ending;
pub mod repair;
pub mod suggest;
pub mod xiangqi_rules;
pub mod xiangqi_suggest;

mod chess_moves;
mod fast;
mod language;
mod start;
mod text;
mod walk;
mod xiangqi_moves;

use chess_moves::*;
use fast::*;
use language::*;
use start::*;
pub use text::xiangqi_only;
use walk::*;
use xiangqi_moves::*;

use crate::{
    archive::pgn::unescape_comment,
    archive::{Element, MovetextCounts, RawGame},
    chess::Position,
    model::board::Board,
    model::diag::{Diagnostic, Severity, Span},
    model::game::{
        AnyMove, Clock, Game, GameResult, Line, MoveNode, Source, StartPosition, Tags, Variant,
    },
    notation::chess::{self as san, PieceTable},
    notation::xiangqi as xq_notation,
    replay::suggest::suggest,
    xiangqi,
};
/// How to replay.
#[derive(Clone, Debug, Default)]
pub struct ReplayOptions {
    /// The piece-letter language; `None` infers it per game by legality.
    pub lang: Option<&'static PieceTable>,
    /// The file name to record in [`Source::file`].
    pub file: Option<Arc<str>>,
    /// Keep an illegal main-line move that only one piece can make by its movement
    /// (FIDE Laws 7.5: an illegal move not claimed stands), flag it, and replay on from
    /// the position it made.
    pub keep_illegal: bool,
    /// Read every game as this variant, whatever its tags say.
    pub variant: Option<Variant>,
    /// The notation of xiangqi moves; `None` infers it per game from the whole main
    /// line (`notation::xiangqi::infer_dialect`).
    pub xiangqi: Option<xq_notation::Dialect>,
    /// Replay goes on after an error in a chess main line (issue 27): the whole sheet
    /// is planned ([`repair::plan`]) and each slip replayed under its most likely
    /// reading, an assumption with its error diagnostic and a [`Game::repairs`]
    /// record; the written text is kept in the source. Not with `keep_illegal`.
    pub go_on: bool,
    /// With `go_on`: the assumptions are warnings, the game repaired (`convert
    /// --repair`), not errors.
    pub repair: bool,
    /// Read chess moves as descriptive notation (`P-K4`, `P4R`: `--notation
    /// descriptive`), in the language that replays furthest; without it descriptive
    /// notation is told from the content where the SAN reading stops.
    pub descriptive: bool,
}

/// How move tokens are read: a chess piece-letter table or a xiangqi dialect.
#[derive(Copy, Clone, Debug)]
enum Reader {
    Chess(&'static PieceTable),
    Xiangqi(xq_notation::Dialect),
    /// Descriptive notation (`P-K4`, `P4R`), read only where the SAN reading stops or
    /// `--notation descriptive` names it ([`text`]).
    Descriptive(&'static san::descriptive::Descriptive),
}

/// Replays `raw` into a [`Game`], with all diagnostics of reading and replay.
pub fn replay(raw: RawGame, options: &ReplayOptions) -> Game {
    let mut game = replay_with(raw, options, true);
    // tags and comments decoded twice (issue 28): a warning when repaired
    crate::text::mojibake::repair_game(&mut game);
    game
}

/// [`replay`]; with `one_pass` off, a game whose letters name its table (Chinese,
/// Persian, figurine …; Vietnamese `M`) is read ahead of its walk as any game in other
/// letters is, rather than read in the walk and settled after it
/// ([`MainReading::Lettered`]): the same [`Game`] either way (the test
/// `one_pass_lettered_walk_agrees_with_reading_ahead` compares them).
fn replay_with(mut raw: RawGame, options: &ReplayOptions, one_pass: bool) -> Game {
    let mut diagnostics = std::mem::take(&mut raw.diagnostics);
    let bytes = raw
        .tags
        .iter()
        .map(|t| (t.name.len() + t.value.len()) as usize)
        .sum();
    let mut tags = Tags::with_capacity(raw.tags.len(), bytes);
    for t in &raw.tags {
        tags.push(raw.tag_name(t), &raw.tag_value(t));
    }
    // no tag or option names the game: it is told from the content (`text`)
    let open = options.variant.is_none() && !variant_named(&tags);
    let variant = match options.variant {
        Some(v) => Ok(v),
        None if open => Ok(content_variant(&tags, &raw, options)),
        None => detect_variant(&tags),
    };
    let tag_result = tags.get("Result").and_then(GameResult::parse);
    let result = raw
        .result
        .map(|(r, _)| r)
        .or(tag_result)
        .unwrap_or_default();
    if let (Some((r, span)), Some(t)) = (raw.result, tag_result)
        && r != t
    {
        diagnostics.push(
            Diagnostic::warning(
                Code::ResultMismatch,
                format!("the movetext ends with {r} but the Result tag says {t}"),
            )
            .with_span(span),
        );
    }
    let movetext_end = raw.result.map_or(raw.text.len(), |(_, s)| s.start as usize);

    let (variant, start) = match variant {
        Ok(v @ (Variant::Chess | Variant::Chess960)) => (
            v,
            chess_start(&tags, v == Variant::Chess960, &mut diagnostics).map(Board::Chess),
        ),
        Ok(Variant::Xiangqi) => (Variant::Xiangqi, xiangqi_start(&tags).map(Board::Xiangqi)),
        Err(d) => (Variant::Chess, Err(d)),
    };
    // the start as read, or the variant's initial position when it cannot be read
    let initial = match (&start, variant) {
        (Ok(Board::Chess(p)), _) => StartPosition::Chess(Box::new(p.clone())),
        (Ok(Board::Xiangqi(p)), _) => StartPosition::Xiangqi(Box::new(p.clone())),
        (Err(_), Variant::Xiangqi) => StartPosition::Xiangqi(Box::default()),
        (Err(_), Variant::Chess | Variant::Chess960) => StartPosition::Chess(Box::default()),
    };
    let mut game = Game::new(variant, initial);
    game.tags = tags;
    game.result = result;
    let start = match start {
        Ok(p) => p,
        Err(d) => {
            diagnostics.push(d);
            game.unparsed = movetext_text(&raw, 0, movetext_end);
            game.diagnostics = diagnostics;
            game.source = source(raw, options);
            return game;
        }
    };
    if let Board::Xiangqi(_) = start {
        join_word_forms(&mut raw);
    }
    let mut reading = MainReading::Parse;
    let reader = match &start {
        Board::Chess(p) if options.descriptive => {
            let table = text::choose_descriptive(&raw, p);
            diagnostics.extend(text::descriptive_note(table));
            Reader::Descriptive(table)
        }
        Board::Chess(p) => {
            let (table, r) = choose_table(&raw, p, options, one_pass, &mut diagnostics);
            reading = r;
            Reader::Chess(table)
        }
        Board::Xiangqi(p) => {
            let dialect = match options.xiangqi {
                Some(dialect) => dialect,
                None => {
                    let tokens = raw.main_line().collect::<Vec<_>>();
                    let (dialect, d) = xq_notation::infer_dialect(p, &tokens);
                    diagnostics.extend(d);
                    dialect
                }
            };
            Reader::Xiangqi(dialect)
        }
    };
    // a table chosen (not given) is checked after a walk that fails (`rechoose`)
    let check = match (&game.start, options.lang) {
        (StartPosition::Chess(p), None) => Some(&**p),
        _ => None,
    };
    let walk_from = diagnostics.len();
    // the diagnostics before the walk, for a walk again under a repair plan
    let before_walk = (options.go_on
        && !options.keep_illegal
        && !options.descriptive
        && matches!(start, Board::Chess(_)))
    .then(|| diagnostics.clone());
    let (mut line, mut unparsed, mut end) = walk_reading(
        &raw,
        start,
        reader,
        reading,
        movetext_end,
        options.keep_illegal,
        check,
        &mut diagnostics,
    );
    // the free-text reading, only where the plain one stops, or left a variation open
    // in a record without tags (a parenthesis in prose)
    let mut reread = false;
    if (unparsed.is_some()
        || raw.tags.is_empty()
            && diagnostics[..walk_from]
                .iter()
                .any(|d| d.code == Code::UnclosedVariation)
            && text::prose_parenthesis(&raw))
        && let Some(re) = text::reread(
            &raw,
            &game.tags,
            (!open).then_some(variant),
            (variant, line.moves.len()),
            options,
        )
        // a reading that keeps words as prose is taken only where the record has
        // prose ([`has_prose`]): a typed sheet's slip (`Nf3 3. Bb5`, an illegible `?`,
        // an unreadable `Mfl`) stays the record's own error, for the repair plan below
        && (re.variant != variant
            || !re.notes.iter().any(|d| d.code == Code::TextKept)
            || has_prose(&raw))
    {
        // a free-text reading, or the other game, replays further: walked again under it
        reread = true;
        diagnostics.truncate(walk_from);
        diagnostics.retain(|d| {
            !matches!(
                d.code,
                Code::Language
                    | Code::LanguageTie
                    | Code::LanguageUnknown
                    | Code::NotationTie
                    | Code::NotationUnknown
            )
        });
        match re.reader {
            Reader::Chess(table) => diagnostics.extend(language_note(table)),
            Reader::Descriptive(table) => diagnostics.extend(text::descriptive_note(table)),
            Reader::Xiangqi(_) => {}
        }
        diagnostics.retain(|d| {
            d.code != Code::UnclosedVariation
                || !d
                    .span
                    .is_some_and(|s| re.unclosed.iter().any(|u| u.start == s.start))
        });
        diagnostics.extend(re.notes);
        if re.variant != game.variant {
            game.variant = re.variant;
            game.start = match &re.start {
                Board::Chess(p) => StartPosition::Chess(Box::new(p.clone())),
                Board::Xiangqi(p) => StartPosition::Xiangqi(Box::new(p.clone())),
            };
        }
        raw.movetext = re.movetext;
        raw.counts = None;
        raw.move_letters = None;
        (line, unparsed, end) = walk(
            &raw,
            re.start,
            re.reader,
            &mut ParseEach,
            movetext_end,
            options.keep_illegal,
            &mut diagnostics,
        );
    }
    // a sheet that still stops is planned as a whole and walked again (issue 27); not
    // after a free-text reading, whose diagnostics are of another walk, nor when its
    // first move number is not the start position's (`30. Qf1 …` with no FEN: the
    // start is missing, which no slip explains; its first error is the answer, and a
    // plan would spend the whole budget changing every move)
    if !reread
        && !diagnostics.iter().any(|d| d.code == Code::MoveNumber)
        && let (Some(before), Some(_), StartPosition::Chess(p)) =
            (before_walk, &unparsed, &game.start)
    {
        // the table the walk ended with: the one given, or else the one that replays
        // furthest (what `rechoose` settles on after a failed walk)
        let table = options.lang.unwrap_or_else(|| {
            let tokens: Vec<&str> = raw.main_line().collect();
            repair::letters_of(&tokens, san::infer_language(p, &tokens).table)
        });
        let mut again = Vec::new();
        if let Some((walked, repairs)) =
            walk_planned(&raw, p, table, movetext_end, options.repair, &mut again)
        {
            let language = |d: &Diagnostic| {
                matches!(
                    d.code,
                    Code::Language | Code::LanguageTie | Code::LanguageUnknown
                )
            };
            let mut merged: Vec<Diagnostic> = before.into_iter().filter(|d| !language(d)).collect();
            merged.extend(diagnostics.into_iter().filter(language));
            merged.extend(again);
            diagnostics = merged;
            (line, unparsed, end) = walked;
            game.repairs = repairs;
        }
    }
    game.moves = line;
    game.unparsed = unparsed;
    if game.unparsed.is_none() && unread_text(&raw) {
        // text the reader kept without reading it (a game over a budget): verbatim
        game.unparsed = Some(raw.text.trim().to_owned());
    }
    if game.unparsed.is_none() && !raw.junk {
        // the result against the final position, and the claims (issue 27)
        ending::check(
            &game,
            &end,
            &raw.text,
            raw.result.map(|(_, s)| s),
            &mut diagnostics,
        );
    }
    game.record_end(end);
    diagnostics.sort_by_key(|d| d.span.map_or(u32::MAX, |s| s.start));
    game.diagnostics = diagnostics;
    game.source = source(raw, options);
    game
}

/// A game (not text between games) whose text the reader kept but did not read into
/// tags, moves or a result: a game over a budget ([`crate::archive::Limits`]).
fn unread_text(raw: &RawGame) -> bool {
    !raw.junk
        && raw.movetext.is_empty()
        && raw.tags.is_empty()
        && raw.result.is_none()
        && !raw.text.trim().is_empty()
}

fn source(raw: RawGame, options: &ReplayOptions) -> Source {
    Source {
        file: options.file.clone(),
        game_index: raw.index,
        byte_start: raw.byte_start,
        byte_end: raw.byte_end,
        first_line: raw.first_line,
        encoding: Some(raw.decoding.encoding.name()),
        sheet: raw.sheet,
        text: raw.text,
    }
}

/// The verbatim movetext from byte `from` to `end`, trimmed; `None` when blank.
fn movetext_text(raw: &RawGame, from: usize, end: usize) -> Option<String> {
    let body = raw.text.get(from..end.max(from)).unwrap_or("").trim();
    // Skip the tag section when starting from the beginning.
    let body = if from == 0 {
        match raw.movetext.first() {
            Some(e) => raw
                .text
                .get(e.span().start as usize..end.max(e.span().start as usize))
                .unwrap_or("")
                .trim(),
            None => "",
        }
    } else {
        body
    };
    (!body.is_empty()).then(|| body.to_owned())
}

/// The chess position after the main line, if the game is chess.
pub fn final_chess_position(game: &Game) -> Option<Position> {
    let mut board = Board::new(&game.start);
    for node in &game.moves.moves {
        board.play(&node.mv);
    }
    match board {
        Board::Chess(p) => Some(p),
        Board::Xiangqi(_) => None,
    }
}

/// Does the record hold prose among its moves: a word not shaped as a move
/// ([`crate::archive::text::move_shaped`]) of five letters or more, or of four letters
/// with two vowels (`nice`, `Hier`), or two such words in a row? A lone short
/// unreadable token (`Mfl`, `db`, `Rxdl`) is a slip of a typed sheet, not prose.
fn has_prose(raw: &RawGame) -> bool {
    let mut previous = false;
    for t in raw.main_line() {
        let word = !crate::archive::text::move_shaped(t);
        if word && (previous || t.chars().count() >= 5 || spoken(t)) {
            return true;
        }
        previous = word;
    }
    false
}

/// Four letters or more, two of them vowels (or letters of a script without Latin
/// vowels): a word of a language, not a slip of a move. A token that ends in a file
/// and a letter handwriting makes of a rank digit (`Xael`, `Rael`: `l` for `1`) is a
/// move's slip.
fn spoken(t: &str) -> bool {
    let end: Vec<char> = t
        .trim_end_matches(['+', '#'])
        .chars()
        .rev()
        .take(2)
        .collect();
    if let [digit, 'a'..='h'] = end[..]
        && matches!(digit, 'l' | 'I' | 'S' | 'b' | 'Z')
    {
        return false;
    }
    t.chars().count() >= 4
        && t.chars().all(char::is_alphabetic)
        && t.chars()
            .filter(|c| !c.is_ascii() || "aeiouyAEIOUY".contains(*c))
            .count()
            >= 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{archive::read_str, model::game::Status};

    fn one(text: &str) -> Game {
        let mut games = read_str(text);
        assert_eq!(games.len(), 1, "{text}");
        replay(games.remove(0), &ReplayOptions::default())
    }

    fn codes(g: &Game) -> Vec<&str> {
        g.diagnostics.iter().map(|d| d.code.as_str()).collect()
    }

    fn main_uci(g: &Game) -> Vec<String> {
        line_uci(&g.moves)
    }

    fn line_uci(line: &Line) -> Vec<String> {
        line.moves
            .iter()
            .map(|n| match n.mv {
                AnyMove::Chess(m) => m.uci(false),
                AnyMove::Null => "--".into(),
                AnyMove::Xiangqi(m) => m.iccs(),
            })
            .collect()
    }

    #[test]
    fn seed_sample_short_forms_agree() {
        let a = one(
            "1. e4 e5 2. Mf3 Mf6 3. d4 exd4 4. e5 Me4 5. Hxd4 d5 6. exd6 e.p. Mxd6 7. Tg5 Mc6 8. He3+ Te7 9. Mbd2 0-0 10. 0-0-0 Xe8 11. Vb1 (=)",
        );
        let b = one(
            "1. e4 e5 2. Mf3 Mf6 3. d4 ed4 4. e5 Me4 5. Hd4 d5 6. ed6 Md6 7. Tg5 Mc6 8. He3 Te7 9 Mbd2 0-0 10. 0-0-0 Xe8 11. Vb1 (=)",
        );
        assert_eq!(main_uci(&a).len(), 21);
        assert_eq!(main_uci(&a), main_uci(&b));
        assert!(a.moves.moves[20].draw_offer);
        assert!(b.moves.moves[20].draw_offer);
        assert!(a.unparsed.is_none() && b.unparsed.is_none());
        assert!(codes(&a).contains(&"language"));
        // The unmarked form has notes for the unmarked captures and a missing check mark.
        assert!(codes(&b).contains(&"non-canonical"));
        assert!(codes(&b).contains(&"check-mark"));
    }

    #[test]
    fn seed_sample_long_form_diverges_at_move_8() {
        let g = one(
            "e2e4 e7e5 2. Mg1f3 Mg8f6 3. d2d4 e5xd4 4. e4e5 Mf6e4 5. Hd1xd4 d7d5 6. e5xd6 e. p. Me4xd6 7. Tc1g5 Mb8c6 8. Hd4d3 Tf8e7 9. Mb1d2 0-0 10. 0-0-0 Xf8e8 11. Vb1 (=)",
        );
        let uci = main_uci(&g);
        assert_eq!(uci.len(), 21);
        assert_eq!(uci[14], "d4d3");
        assert!(g.unparsed.is_none());
    }

    #[test]
    fn illegal_move_keeps_prefix_and_rest() {
        let g = one("[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf3 4. O-O *");
        assert_eq!(main_uci(&g).len(), 5);
        assert_eq!(g.unparsed.as_deref(), Some("Nf3 4. O-O"));
        assert_eq!(g.status(), Status::Partial);
        let d = g
            .diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error)
            .unwrap();
        assert_eq!(d.code, "illegal-move");
        assert_eq!(d.ply, Some(6));
        assert_eq!(d.span.map(|s| s.slice(&g.source.text)), Some("Nf3"));
    }

    #[test]
    fn variations_comments_nags_clocks() {
        let g = one(
            "{start} 1. e4 {best [%clk 0:03:00]} $1 (1. d4 d5 (1... Nf6) 2. c4) 1... e5 !? 2. Nf3 [%emt 0:00:05] *",
        );
        assert_eq!(g.moves.comments, ["start"]);
        let e4 = &g.moves.moves[0];
        assert_eq!(e4.comments(), ["best"]);
        assert_eq!(e4.clock, Clock::parse("0:03:00"));
        assert_eq!(e4.nags(), [1]);
        assert_eq!(e4.variations().len(), 1);
        let var = &e4.variations()[0];
        assert_eq!(var.moves.len(), 3);
        assert_eq!(var.moves[1].variations()[0].moves.len(), 1);
        assert_eq!(g.moves.moves[1].nags(), [5]);
        assert_eq!(main_uci(&g), ["e2e4", "e7e5", "g1f3"]);
    }

    #[test]
    fn bad_variation_is_cut_and_quoted() {
        let g = one("1. e4 (1. e5 d5) e5 *");
        assert_eq!(main_uci(&g), ["e2e4", "e7e5"]);
        let d = &g.diagnostics[0];
        assert!(
            d.message.contains("its rest not read: e5 d5"),
            "{}",
            d.message
        );
        // issue 22: the rest of the variation is kept in it, as the rest of a broken
        // main line is
        let var = g.moves.moves[0].variations();
        assert_eq!(var.len(), 1);
        assert!(var[0].moves.is_empty());
        assert_eq!(var[0].comments, ["kyphu: unparsed: e5 d5"]);
    }

    /// Issue 22, case 2: when a variation met a bad move, the rest of that variation was
    /// lost (only quoted in the diagnostic). It is kept at the end of the variation in a
    /// `kyphu: unparsed:` comment, verbatim.
    #[test]
    fn broken_variation_keeps_its_rest() {
        let g = one("1. e4 e5 (1... c5 2. Nf3 Qxz9 {a note} Nc6) 2. Nf3 *");
        assert_eq!(main_uci(&g), ["e2e4", "e7e5", "g1f3"]);
        let var = &g.moves.moves[1].variations()[0];
        assert_eq!(line_uci(var), ["c7c5", "g1f3"]);
        assert_eq!(
            var.moves[1].comments(),
            ["kyphu: unparsed: Qxz9 {a note} Nc6"]
        );
        assert_eq!(g.status(), Status::Partial);
    }

    /// Issue 22, case 3: a game over a size budget lost its readable text. A game the
    /// reader kept as text without reading it (no tags, movetext or result) keeps that
    /// text verbatim as its unread rest.
    #[test]
    fn game_over_budget_keeps_its_text() {
        let text = "[Event \"big\"]\n\n1. e4 e5 2. Nf3 *\n";
        let raw = RawGame {
            index: 0,
            junk: false,
            tags: Vec::new(),
            movetext: Vec::new(),
            result: None,
            text: text.to_owned(),
            byte_start: 0,
            byte_end: text.len() as u64,
            first_line: 1,
            decoding: crate::text::DecodeReport {
                encoding: encoding_rs::UTF_8.into(),
                source: crate::text::EncodingSource::Utf8,
                had_replacements: false,
            },
            diagnostics: vec![Diagnostic::error(
                crate::model::diag::Code::GameTooLarge,
                "over the budget",
            )],
            move_letters: None,
            counts: None,
            sheet: None,
        };
        let g = replay(raw, &ReplayOptions::default());
        assert_eq!(g.unparsed.as_deref(), Some(text.trim()));
        assert_eq!(g.status(), Status::Failed);
    }

    #[test]
    fn variation_edges() {
        // a cut variation holding a nested one: its rest, the nested one included, is
        // quoted and skipped, the moves before the cut are kept, the main line goes on
        let g = one("1. e4 e5 (1... c5 2. Qh8 (2. d4 d5) Nc6 {x}) 2. Nf3 *");
        assert_eq!(main_uci(&g), ["e2e4", "e7e5", "g1f3"]);
        let var = g.moves.moves[1].variations();
        assert_eq!(var.len(), 1);
        assert_eq!(line_uci(&var[0]), ["c7c5"]);
        assert!(
            g.diagnostics[0]
                .message
                .ends_with("its rest not read: Qh8 (2. d4 d5) Nc6 {x}"),
            "{}",
            g.diagnostics[0].message
        );
        assert!(g.unparsed.is_none());
        // cut in a nested variation: the outer one goes on after it
        let g = one("1. e4 e5 (1... c5 (1... d5 2. Qh8 e6) 2. Nf3) 2. Nf3 *");
        let outer = &g.moves.moves[1].variations()[0];
        assert_eq!(outer.moves.len(), 2);
        assert_eq!(outer.moves[0].variations()[0].moves.len(), 1);
        assert_eq!(main_uci(&g), ["e2e4", "e7e5", "g1f3"]);
        // a variation before any move is not read, nor those nested in it
        let g = one("( 1. d4 (1. c4) d5 ) 1. e4 e5 *");
        assert_eq!(codes(&g), ["variation-without-move"]);
        assert_eq!(main_uci(&g), ["e2e4", "e7e5"]);
        assert!(g.moves.moves.iter().all(|m| m.variations().is_empty()));
        // variations left open end with the movetext, attached where they began
        let g = one("1. e4 e5 (1... c5 2. Nf3 (2. Nc3 *");
        assert_eq!(main_uci(&g), ["e2e4", "e7e5"]);
        let outer = &g.moves.moves[1].variations()[0];
        assert_eq!(outer.moves.len(), 2);
        assert_eq!(outer.moves[1].variations()[0].moves.len(), 1);
        // and a cut one too
        let g = one("1. e4 e5 (1... c5 2. Qh8 Nc6 *");
        assert_eq!(g.moves.moves[1].variations()[0].moves.len(), 1);
        assert!(
            g.diagnostics
                .iter()
                .any(|d| d.message.contains("its rest not read: Qh8 Nc6")),
            "{:?}",
            g.diagnostics
        );
    }

    #[test]
    fn fen_and_variant_tags() {
        let g = one("[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O *");
        assert_eq!(main_uci(&g), ["e1g1"]);
        let bad = one("[FEN \"4k3/8/8/8/8/8/8/4K2R w X - 0 1\"]\n\n1. O-O *");
        assert_eq!(bad.status(), Status::Failed);
        assert_eq!(bad.unparsed.as_deref(), Some("1. O-O"));
        assert_eq!(codes(&bad), ["bad-fen"]);
        let zh = one("[Variant \"crazyhouse\"]\n\n1. e4 *");
        assert_eq!(codes(&zh), ["unsupported-variant"]);
        // a start that cannot be read stays at the variant's initial position
        let xq = one("[Variant \"xiangqi\"]\n[FEN \"9/9 w\"]\n\n1. h2e2 *");
        assert_eq!(codes(&xq), ["bad-fen"]);
        assert_eq!(xq.start, StartPosition::Xiangqi(Box::default()));
    }

    #[test]
    fn word_form_starts() {
        for (token, may) in [
            ("Pháo2", true),
            ("Mã", true),
            ("Xe", true),
            ("h2e2", false),
            ("H2-E2", false),
            ("炮二平五", false),
            ("12.", false),
        ] {
            assert_eq!(may_start_word_form(token), may, "{token}");
        }
    }

    #[test]
    fn xiangqi_vietnamese_word_form() {
        let g = one(
            "[Game \"Chinese Chess\"]\n\n1) Pháo2 bình 5  Mã 8 tiến 7 2) Mã 2 tiến 3 - Xe 9 bình 8 *",
        );
        assert_eq!(main_uci(&g), ["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert!(g.unparsed.is_none(), "{:?}", g.diagnostics);
        assert_eq!(g.written(&g.moves.moves[0]), "Pháo2 bình 5");
        let plain = one("[Game \"Chinese Chess\"]\n\n1) Phao2 binh 5 Ma 8 tien 7 *");
        assert_eq!(main_uci(&plain), ["h2e2", "h9g7"]);
    }

    #[test]
    fn keep_illegal_moves() {
        // 3... Kf6 steps into the queen's attack; say it stood in the real game.
        let text = "1. e4 e5 2. Qh5 Ke7 3. Qxe5+ Kf6 4. d4 Kg6 *";
        let strict = one(text);
        assert_eq!(main_uci(&strict).len(), 5);
        let mut games = read_str(text);
        let kept = replay(
            games.remove(0),
            &ReplayOptions {
                keep_illegal: true,
                ..ReplayOptions::default()
            },
        );
        assert_eq!(
            main_uci(&kept),
            [
                "e2e4", "e7e5", "d1h5", "e8e7", "h5e5", "e7f6", "d2d4", "f6g6"
            ]
        );
        assert!(kept.moves.moves[5].illegal);
        assert_eq!(kept.status(), Status::Repaired);
        assert!(codes(&kept).contains(&"illegal-move-kept"));
        assert!(
            kept.diagnostics
                .iter()
                .all(|d| d.severity < Severity::Error)
        );
    }

    #[test]
    fn xiangqi_coordinates() {
        let g = one("[Game \"Chinese Chess\"]\n[Red \"A\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *");
        assert_eq!(g.variant, Variant::Xiangqi);
        assert_eq!(main_uci(&g), ["h2e2", "h9g7", "h0g2", "i9h9"]);
        let red_tag = one("[Red \"A\"]\n\n1. 炮二平五马８进７ 2. 马二进三 *");
        assert_eq!(main_uci(&red_tag), ["h2e2", "h9g7", "h0g2"]);
        let bad = one("[Game \"Chinese Chess\"]\n\n1. h2e2 h9h5 *");
        assert_eq!(main_uci(&bad), ["h2e2"]);
        assert_eq!(bad.unparsed.as_deref(), Some("h9h5"));
        assert_eq!(codes(&bad), ["illegal-move"]);
    }

    #[test]
    fn languages_are_inferred() {
        let g = one("1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 *");
        assert_eq!(
            main_uci(&g),
            ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]
        );
        assert!(g.diagnostics.iter().any(|d| d.message.contains("German")));
        // a promotion to a Polish rook (`W`) in moves English letters would read
        let g = one("[FEN \"8/4P3/8/8/8/8/k7/7K w - - 0 1\"]\n\n1. e8=W Kb2 *");
        assert_eq!(main_uci(&g), ["e7e8r", "a2b2"]);
        assert!(g.diagnostics.iter().any(|d| d.message.contains("Polish")));
    }

    /// The letters the PGN reader notes as it reads ([`RawGame::move_letters`]) are
    /// those of the main line's tokens afterwards, on random movetext (moves in
    /// every script, promotions glued or not, en-passant suffixes, variations balanced
    /// or not, comments, numbers, NAGs, results) and on every game of the corpus.
    #[test]
    fn reader_knows_move_letters() {
        let pool = [
            "e4",
            "Nf3",
            "exd5",
            "O-O",
            "0-0-0",
            "o-o",
            "--",
            "Ke1+",
            "e8=Q#",
            "Nbd2!?",
            "Mf3",
            "Sf3",
            "exd8=D",
            "Nf3H",
            "Txe5",
            "\u{9a6c}f3",
            "\u{2658}f3",
            "\u{0627}f3",
            "a8(Q)",
            "a8(D)",
            "a8(\u{0424})",
            "exd6 e.p.",
            "exd6 (e.p.)",
            "exd6 ep",
            "e4\u{e9}",
            "(",
            ")",
            "(",
            ")",
            "{a comment}",
            "; line\n",
            "$1",
            "12.",
            "12...",
            "7",
            "1-0",
            "*",
            "!?",
            "\u{2026}",
            "Z0",
            "N:f3",
            "1.e4",
            "e4\u{00a0}e5",
            "\u{ff45}4",
            "-",
            "e.p.",
            "(=)",
            "e4+-",
            "Qh4\u{2020}",
            "%x\n",
            "\n%escape\n",
        ];
        let mut rng = crate::testing::XorShift::new(0x9E37_79B9_7F4A_7C15);
        let mut games = Vec::new();
        for _ in 0..4_000 {
            let mut text = String::from("[Event \"x\"]\n\n");
            for _ in 0..1 + rng.below(12) {
                text.push_str(pool[rng.below(pool.len())]);
                text.push(' ');
            }
            games.push(text);
        }
        games.extend(crate::testing::corpus_pgn_texts("chess"));
        let mut seen = [0usize; 2];
        for text in &games {
            for raw in read_str(text) {
                let want = raw
                    .main_line()
                    .fold(0, |m, t| m | crate::archive::move_letters(t.as_bytes()));
                assert_eq!(
                    raw.move_letters,
                    Some(want),
                    "{}\n{:?}",
                    raw.text,
                    raw.main_line().collect::<Vec<_>>()
                );
                seen[usize::from(san::english_alone(want))] += 1;
            }
        }
        // both answers are tried, many times
        assert!(seen.iter().all(|&n| n > 500), "{seen:?}");
    }

    #[test]
    fn variant_tags_read_through_white_space() {
        let variant = |name: &str, value: &str| {
            let mut tags = Tags::default();
            tags.push(name, value);
            detect_variant(&tags).ok()
        };
        for v in [
            "Chinese\tChess",
            " chinese  chess ",
            "Chinese\r\nChess",
            "XIANGQI",
        ] {
            assert_eq!(variant("Game", v), Some(Variant::Xiangqi), "{v:?}");
            assert_eq!(variant("Variant", v), Some(Variant::Xiangqi), "{v:?}");
        }
        assert_eq!(variant("Format", " ICCS\t"), Some(Variant::Xiangqi));
        assert_eq!(variant("Variant", "From\tPosition"), Some(Variant::Chess));
        assert_eq!(variant("Variant", "Chess 960"), Some(Variant::Chess960));
        assert_eq!(variant("Game", "Chinese Chess 2"), Some(Variant::Chess));
        assert_eq!(variant("Variant", "crazyhouse"), None);
    }

    /// Games built in the thread's spare vector of nodes (left by the game dropped
    /// before: [`Line::with_room`]) are the games built in a new vector: the same
    /// games replayed one after another on this thread, each dropped before the next,
    /// against each replayed on a thread of its own (no spare there). Lengths go up and
    /// down, so that a game is built in the room a longer one left; some have
    /// variations, comments, NAGs, clocks, an illegal move.
    #[test]
    fn games_built_in_the_spare_are_the_same() {
        let moves = "1.e4 c5 2.Nf3 a6 3.d3 g6 4.g3 Bg7 5.Bg2 b5 6.O-O Bb7 7.c3 e5 8.a3 Ne7 \
            9.b4 d6 10.Nbd2 O-O 11.Nb3 Nd7 12.Be3 Rc8 13.Rc1 h6 14.Nfd2 f5 15.f4 Kh7 \
            16.Qe2 cxb4 17.axb4 exf4 18.Bxf4 Rxc3 19.Rxc3 Bxc3 20.Bxd6 Qb6+ 21.Bc5 Nxc5 \
            22.bxc5 Qe6 23.d4 Rd8 24.Qd3 Bxd2 25.Nxd2 fxe4 26.Nxe4 Nf5 27.d5 Qe5 \
            28.g4 Ne7 29.Rf7+ Kg8 30.Qf1 Nxd5 31.Rxb7 Qd4+ 32.Kh1 Rf8 33.Qg1 Ne3";
        let tokens: Vec<&str> = moves.split_whitespace().collect();
        let mut rng = crate::testing::XorShift::new(0x05EE_D0F5_BA4E);
        let texts: Vec<String> = (0..60)
            .map(|i| {
                let n = rng.below(tokens.len() + 1);
                let mut t = String::from("[Event \"x\"]\n\n");
                for (k, tok) in tokens[..n].iter().enumerate() {
                    t.push_str(tok);
                    t.push(' ');
                    match (i % 4, k % 9) {
                        (1, 4) => t.push_str("{a comment [%clk 0:03:00]} $1 "),
                        (2, 6) if tok.contains('.') => {}
                        (2, 6) => t.push_str("(1... Nf6 2. c4 {x} (2. d4)) "),
                        _ => {}
                    }
                }
                if i % 7 == 3 {
                    t.push_str("Qh8 Kb1 ");
                }
                t.push('*');
                t
            })
            .collect();
        let alone: Vec<Game> = texts
            .iter()
            .map(|t| {
                let t = t.clone();
                std::thread::spawn(move || one(&t)).join().unwrap()
            })
            .collect();
        let mut spare_used = 0;
        for (t, expected) in texts.iter().zip(&alone) {
            let raw = read_str(t).remove(0);
            let moves = MovetextCounts::of(&raw.movetext).moves;
            let g = replay(raw, &ReplayOptions::default());
            assert_eq!(&g, expected, "{t}");
            // a new vector has room for exactly the moves of the game
            if g.moves.moves.capacity() > moves {
                spare_used += 1;
            }
        }
        assert!(spare_used > 20, "{spare_used} games built in the spare");
    }
}
