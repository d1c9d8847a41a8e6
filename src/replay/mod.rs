//! Replay: a syntactic game ([`RawGame`]) becomes a canonical [`Game`].
//!
//! Every move token is parsed by the notation layer and resolved against the position
//! reached so far. The walk over the movetext elements uses an explicit stack for
//! variations (no recursion a hostile file can drive). What cannot be resolved is
//! never dropped: the main line stops at the first unresolvable move, which gets an
//! error diagnostic, and the rest of the movetext is kept verbatim in
//! [`Game::unparsed`]; a variation that cannot be resolved is cut at that move and its
//! remaining text is quoted in the diagnostic.

use std::sync::Arc;

pub mod diff;
pub mod suggest;
pub mod xiangqi_rules;

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
}

/// How move tokens are read: a chess piece-letter table or a xiangqi dialect.
#[derive(Copy, Clone, Debug)]
enum Reader {
    Chess(&'static PieceTable),
    Xiangqi(xq_notation::Dialect),
}

/// One open line of the move tree: the main line or a variation being read.
struct Frame {
    line: Line,
    /// The position after the line's last move.
    pos: Board,
    /// The position before the line's last move (where a variation on it starts).
    before_last: Board,
    /// Ply of the line's next move (1 = the game's first move).
    next_ply: u32,
    /// `before_last` is kept up to date: a variation may follow. Off for the main line
    /// of a game without variations, which spares a copy of the position per move.
    keep_before: bool,
    /// No illegal move was kept on the way to `pos` (`--keep-illegal`): the position
    /// is sound and moves are played with [`san::resolve_play_sound`].
    sound: bool,
}

impl Frame {
    fn new(pos: Board, next_ply: u32, line: Line) -> Frame {
        Frame {
            line,
            before_last: pos.clone(),
            pos,
            next_ply,
            keep_before: true,
            sound: true,
        }
    }
}

/// Replays `raw` into a [`Game`], with all diagnostics of reading and replay.
pub fn replay(raw: RawGame, options: &ReplayOptions) -> Game {
    replay_with(raw, options, true)
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
    let variant = match options.variant {
        Some(v) => Ok(v),
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
                "result-mismatch",
                format!("the movetext ends with {r} but the Result tag says {t}"),
            )
            .with_span(span),
        );
    }
    let movetext_end = raw.result.map_or(raw.text.len(), |(_, s)| s.start as usize);

    let (variant, start) = match variant {
        Ok(v @ (Variant::Chess | Variant::Chess960)) => (
            v,
            chess_start(&tags, v == Variant::Chess960).map(Board::Chess),
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
        Board::Chess(p) => {
            let (table, r) = choose_table(&raw, p, options, one_pass, &mut diagnostics);
            reading = r;
            Reader::Chess(table)
        }
        Board::Xiangqi(p) => {
            let dialect = match options.xiangqi {
                Some(dialect) => dialect,
                None => {
                    let tokens = main_line_tokens(&raw);
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
    let (line, unparsed, end) = walk_reading(
        &raw,
        start,
        reader,
        reading,
        movetext_end,
        options.keep_illegal,
        check,
        &mut diagnostics,
    );
    game.moves = line;
    game.unparsed = unparsed;
    if game.unparsed.is_none() && unread_text(&raw) {
        // text the reader kept without reading it (a game over a budget): verbatim
        game.unparsed = Some(raw.text.trim().to_owned());
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

/// A tag value with its white space runs made single spaces and its ends trimmed, in
/// ASCII lower case: `Chinese\tChess ` and `chinese chess` name the same variant (the
/// PGN writer turns tabs and line breaks in tag values into spaces, so a file read
/// again after writing must come out the same).
fn tag_words(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for w in value.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out.make_ascii_lowercase();
    out
}

fn detect_variant(tags: &Tags) -> Result<Variant, Diagnostic> {
    if tags
        .get("Game")
        .is_some_and(|g| matches!(tag_words(g).as_str(), "chinese chess" | "xiangqi"))
    {
        return Ok(Variant::Xiangqi);
    }
    // Xiangqi files without a Game tag: a Red player, or a xiangqi notation named.
    if tags.get("Red").is_some()
        || tags
            .get("Format")
            .is_some_and(|f| matches!(tag_words(f).as_str(), "wxf" | "iccs" | "chinese"))
    {
        return Ok(Variant::Xiangqi);
    }
    let Some(v) = tags.get("Variant") else {
        return Ok(Variant::Chess);
    };
    let lower = tag_words(v);
    match lower.as_str() {
        "" | "standard" | "chess" | "normal" | "from position" | "from_position" => {
            Ok(Variant::Chess)
        }
        "xiangqi" | "chinese chess" => Ok(Variant::Xiangqi),
        _ if lower.contains("960") || lower.contains("fischer") => Ok(Variant::Chess960),
        _ => Err(Diagnostic::error(
            "unsupported-variant",
            format!("variant `{v}` is not supported (kyphu reads chess, chess960 and xiangqi)"),
        )),
    }
}

fn xiangqi_start(tags: &Tags) -> Result<xiangqi::Position, Diagnostic> {
    let Some(fen) = tags.get("FEN") else {
        return Ok(xiangqi::Position::default());
    };
    xiangqi::Position::from_fen(fen)
        .map_err(|e| Diagnostic::error("bad-fen", format!("in the FEN tag: {e}")))
}

fn chess_start(tags: &Tags, chess960: bool) -> Result<Position, Diagnostic> {
    let Some(fen) = tags.get("FEN") else {
        return Ok(Position::default());
    };
    let parsed = if chess960 {
        Position::from_fen_chess960(fen)
    } else {
        // Some files set up chess960 positions without a Variant tag.
        Position::from_fen(fen).or_else(|e| Position::from_fen_chess960(fen).map_err(|_| e))
    };
    parsed.map_err(|e| Diagnostic::error("bad-fen", format!("in the FEN tag: {e}")))
}

/// Joins the Vietnamese word form of xiangqi moves, which the PGN layer cuts at spaces
/// (`Pháo2 bình 5`, `Mã 2 tiến 3`: words and bare numbers), into one move element: a
/// token that is no move on its own is joined with the next one to three tokens when
/// together they read as one.
fn join_word_forms(raw: &mut RawGame) {
    let dialect = xq_notation::Dialect::OldVietnamese;
    let text = &raw.text;
    let is_word = |e: &Element| matches!(e, Element::Move { .. } | Element::MoveNumber { .. });
    let old = std::mem::take(&mut raw.movetext);
    let mut out = Vec::with_capacity(old.len());
    let mut i = 0;
    while i < old.len() {
        let e = old[i];
        if let Element::Move { span, .. } = e
            && may_start_word_form(span.slice(text))
            && xq_notation::check_syntax(span.slice(text), dialect).is_err()
        {
            let joined = (1..=3).find_map(|n| {
                let group = old.get(i..=i + n)?;
                if !group[1..].iter().all(is_word) {
                    return None;
                }
                let whole = Span::new(span.start, group[n].span().end);
                xq_notation::check_syntax(whole.slice(text), dialect)
                    .is_ok()
                    .then_some((n, whole))
            });
            if let Some((n, whole)) = joined {
                out.push(Element::Move {
                    span: whole,
                    ep: None,
                });
                i += n + 1;
                continue;
            }
        }
        out.push(e);
        i += 1;
    }
    raw.movetext = out;
    raw.counts = None;
}

/// Can `token` begin a move in the Vietnamese word form (`Pháo2 bình 5`)? Such a move
/// begins with a piece word in Latin letters; a Chinese move or an ICCS move
/// (`h2e2`, `h2-e2`) cannot, and is not tried (trying costs several parses per move).
fn may_start_word_form(token: &str) -> bool {
    let latin = token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() && u32::from(c) < 0x2000);
    let iccs = match token.as_bytes() {
        [f1, r1, f2, r2] | [f1, r1, b'-', f2, r2] => {
            [f1, f2]
                .iter()
                .all(|f| matches!(f, b'a'..=b'i' | b'A'..=b'I'))
                && [r1, r2].iter().all(|r| r.is_ascii_digit())
        }
        _ => false,
    };
    latin && !iccs
}

/// The spans of the move tokens of the main line, in order.
fn main_line_spans(raw: &RawGame) -> impl Iterator<Item = Span> + '_ {
    main_line_spans_of(raw.movetext.iter())
}

/// The spans of the move tokens of `elements` outside variations, in order
/// (`elements` start on the main line: a game's, or those after a main-line move).
fn main_line_spans_of<'e>(
    elements: impl Iterator<Item = &'e Element>,
) -> impl Iterator<Item = Span> {
    let mut depth = 0usize;
    elements.filter_map(move |e| match e {
        Element::StartVariation { .. } => {
            depth += 1;
            None
        }
        Element::EndVariation { .. } => {
            depth = depth.saturating_sub(1);
            None
        }
        Element::Move { span, .. } if depth == 0 => Some(*span),
        _ => None,
    })
}

/// The move tokens of the main line, in order.
fn main_line(raw: &RawGame) -> impl Iterator<Item = &str> {
    main_line_spans(raw).map(|span| raw.slice(span))
}

/// The bytes of the tokens of [`main_line`] (those of a token that starts outside
/// ASCII as its text gives them, checking character boundaries; the others unchecked),
/// for telling the letters of a game by their first bytes.
fn main_line_bytes(raw: &RawGame) -> impl Iterator<Item = &[u8]> {
    main_line_spans(raw).map(|span| {
        let bytes = span_bytes(&raw.text, span);
        match bytes.first() {
            Some(&b) if b >= 0x80 => raw.slice(span).as_bytes(),
            _ => bytes,
        }
    })
}

/// [`main_line`], collected: one plain loop over the elements into a vector with room
/// for every move of the game.
fn main_line_tokens(raw: &RawGame) -> Vec<&str> {
    let mut tokens = Vec::with_capacity(raw.movetext.len());
    let mut depth = 0usize;
    for e in &raw.movetext {
        match e {
            Element::Move { span, .. } if depth == 0 => tokens.push(raw.slice(*span)),
            Element::StartVariation { .. } => depth += 1,
            Element::EndVariation { .. } => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    tokens
}

/// How the walk reads the main line's moves.
enum MainReading<'a> {
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
trait MainLine {
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
enum MoveSyntax<'s> {
    /// Here (read ahead).
    Given(&'s san::SanSyntax),
    /// In the walk's scratch syntax.
    Scratch,
    /// Nowhere yet: the move is parsed into the scratch syntax
    /// ([`san::SanSyntax::blank`]).
    Parse,
}

/// Every main-line move parsed by the walk.
struct ParseEach;

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
        for span in main_line_spans_of(rest) {
            let mut san = san::SanSyntax::blank();
            if !self.read(raw.slice(span), &mut san) {
                return;
            }
        }
    }
}

/// [`walk`] with the main line read as `reading` says; a game read in the walk under
/// a lettered table is settled after it: its note on the language put where reading
/// ahead would have put it, or, should the table not be the only one that reads every
/// main-line token, the game walked again as [`choose_table_by_reading`] says.
#[allow(clippy::too_many_arguments)]
fn walk_reading(
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
        MainReading::Parse => {
            let walked = walk(
                raw,
                start,
                reader,
                &mut ParseEach,
                movetext_end,
                keep_illegal,
                diagnostics,
            );
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
        MainReading::Ahead(mut ahead) => {
            let walked = walk(
                raw,
                start,
                reader,
                &mut ahead,
                movetext_end,
                keep_illegal,
                diagnostics,
            );
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
    if lettered.settle(main_line(raw)) {
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
struct ReadAhead<'a> {
    tokens: Vec<&'a str>,
    syntax: Vec<san::SanSyntax>,
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

/// The note that the game's letters are read under `table`, unless it is English.
fn language_note(table: &PieceTable) -> Option<Diagnostic> {
    (table.code != "en")
        .then(|| Diagnostic::note("language", format!("piece letters read as {}", table.name)))
}

/// The piece-letter table of a chess game, and how the walk reads its main line: the
/// table given; English for a game whose letters no other table reads as another game
/// ([`san::english_alone`], checked after a failed walk: [`rechoose`]); the table a game's
/// letters name, read in the walk and settled after it (`one_pass`,
/// [`walk_reading`]); any other game by [`choose_table_by_reading`].
fn choose_table<'a>(
    raw: &'a RawGame,
    start: &Position,
    options: &ReplayOptions,
    one_pass: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> (&'static PieceTable, MainReading<'a>) {
    if let Some(t) = options.lang {
        return (t, MainReading::Parse);
    }
    let letters = match raw.move_letters {
        Some(letters) => letters,
        None => main_line(raw).fold(0, |m, t| m | crate::archive::move_letters(t.as_bytes())),
    };
    if san::english_alone(letters) {
        // no other table reads these letters as another game: English, unless the
        // walk fails and another table replays further (`rechoose`)
        return (san::english(), MainReading::Parse);
    }
    if one_pass && let Some(lettered) = san::LetteredReading::of(main_line_bytes(raw)) {
        // settled after the walk (`walk_reading`)
        return (
            lettered.table(),
            MainReading::Lettered(Box::new((lettered, start.clone()))),
        );
    }
    choose_table_by_reading(raw, start, diagnostics)
}

/// [`choose_table`] for a game in other letters: the main line read ahead under every
/// table with a letter at a head; the one table that reads every token, else the
/// inference by legality ([`san::infer_language`]).
fn choose_table_by_reading<'a>(
    raw: &'a RawGame,
    start: &Position,
    diagnostics: &mut Vec<Diagnostic>,
) -> (&'static PieceTable, MainReading<'a>) {
    let tokens = main_line_tokens(raw);
    // One table reads every token: it is the only one that can replay the game, so no
    // trial replays are needed (a failing move is reported by the walk itself), and
    // the syntax read here is the walk's.
    let readings = san::read_tokens(&tokens);
    if let [only] = readings.tables.as_slice() {
        diagnostics.extend(language_note(only));
        let ahead = ReadAhead {
            tokens,
            syntax: readings.syntax,
        };
        return (only, MainReading::Ahead(ahead));
    }
    let inference = san::infer_language(start, &tokens);
    inference_notes(&inference, diagnostics);
    (inference.table, MainReading::Parse)
}

/// The diagnostics of a table chosen by [`san::infer_language`]: which, and the tie.
fn inference_notes(inference: &san::Inference, diagnostics: &mut Vec<Diagnostic>) {
    if inference.failure.is_some() {
        // The failing move is reported as an error by the walk itself; say only which
        // table was chosen.
        if inference.table.code != "en" {
            diagnostics.push(Diagnostic::note(
                "language",
                format!(
                    "piece letters read as {} (no table replays the whole game; it replays furthest)",
                    inference.table.name
                ),
            ));
        }
    } else if let Some(d) = inference.diagnostic() {
        diagnostics.push(d);
    } else if inference.table.code != "en" {
        diagnostics.push(Diagnostic::note(
            "language",
            format!("piece letters read as {}", inference.table.name),
        ));
    }
}

/// After a walk under a table chosen without replaying the game under the others
/// (English by its letters, or the one table that reads every token), `walked`: when
/// it stopped on the main line (`check` holds the start position for a table not
/// given by the user), the table that replays furthest ([`san::infer_language`]) is
/// asked for, and the game is walked again under it when it is another (its
/// diagnostics from `walk_from` and the notes on the language replaced).
#[allow(clippy::too_many_arguments)]
fn rechoose(
    raw: &RawGame,
    check: Option<&Position>,
    reader: Reader,
    walk_from: usize,
    walked: (Line, Option<String>, Board),
    movetext_end: usize,
    keep_illegal: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Line, Option<String>, Board) {
    let (Some(start), Reader::Chess(used), Some(_)) = (check, reader, &walked.1) else {
        return walked;
    };
    let tokens = main_line_tokens(raw);
    let inference = san::infer_language(start, &tokens);
    if std::ptr::eq(inference.table, used) {
        return walked;
    }
    diagnostics.truncate(walk_from);
    diagnostics.retain(|d| !matches!(d.code, "language" | "language-tie" | "language-unknown"));
    inference_notes(&inference, diagnostics);
    walk(
        raw,
        Board::Chess(start.clone()),
        Reader::Chess(inference.table),
        &mut ParseEach,
        movetext_end,
        keep_illegal,
        diagnostics,
    )
}

/// Moves `[%clk …]` and `[%emt …]` out of a comment; returns the rest (trimmed).
fn take_clock_commands(body: &str, node: Option<&mut MoveNode>) -> String {
    if !body.contains("[%") {
        return body.trim().to_owned();
    }
    let mut rest = String::with_capacity(body.len());
    let mut clock = None;
    let mut emt = None;
    let mut s = body;
    while let Some(i) = s.find("[%") {
        let Some(j) = s[i..].find(']') else { break };
        let command = &s[i + 2..i + j];
        let mut parts = command.split_whitespace();
        let name = parts.next().unwrap_or("");
        let value = parts.next().and_then(Clock::parse);
        let taken = match (name, value, parts.next()) {
            ("clk", Some(v), None) => clock.replace(v).is_none(),
            ("emt", Some(v), None) => emt.replace(v).is_none(),
            _ => false,
        };
        rest.push_str(&s[..i]);
        if !taken {
            rest.push_str(&s[i..i + j + 1]);
        }
        s = &s[i + j + 1..];
    }
    rest.push_str(s);
    match node {
        Some(n) => {
            n.clock = clock.or(n.clock);
            if emt.is_some() {
                n.extras_mut().emt = emt;
            }
        }
        None => {
            // Before the first move a clock has no move to belong to: keep it written.
            return body.trim().to_owned();
        }
    }
    rest.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The NAG of a standalone annotation token (`!?`, `+-`, `±` …), if it has one.
fn annotation_nag(token: &str) -> Option<u8> {
    Some(match token {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        "□" => 7,
        "=" => 10,
        "∞" => 13,
        "⩲" | "+=" | "+/=" => 14,
        "⩱" | "=+" | "=/+" => 15,
        "±" | "+/-" => 16,
        "∓" | "-/+" => 17,
        "+-" | "+ -" => 18,
        "-+" => 19,
        _ => return None,
    })
}

/// Reads the movetext elements into the main line and its variations. The line being
/// read is `frame`; the lines the open variations branch from wait in `parents`,
/// innermost last (a stack on the heap: no recursion a hostile file can drive).
fn walk(
    raw: &RawGame,
    start: Board,
    reader: Reader,
    main_line: &mut impl MainLine,
    movetext_end: usize,
    keep_illegal: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Line, Option<String>, Board) {
    // counted by the PGN reader, or else here
    let counts = raw
        .counts
        .unwrap_or_else(|| MovetextCounts::of(&raw.movetext));
    let mut frame = Frame::new(start, 1, Line::with_room(counts.moves));
    frame.keep_before = counts.variations;
    let mut parents: Vec<Frame> = Vec::new();
    let mut unparsed = None;
    let mut number_checked = false;
    let mut main_moves = 0;
    let mut elements = raw.movetext.iter();
    while let Some(e) = elements.next() {
        let main = parents.is_empty();
        // Moves and move numbers, nearly all the elements, are told apart by two tests
        // (branches a processor predicts well); the rest goes to `read_other`, whose
        // `match` is a jump table of its own.
        let span = match *e {
            Element::Move { span, .. } => span,
            Element::MoveNumber {
                number,
                black,
                span,
            } => {
                if !number_checked && main {
                    number_checked = true;
                    let expected = frame.pos.fullmoves();
                    if number != expected {
                        diagnostics.push(move_number_note(number, black, expected, span));
                    }
                }
                continue;
            }
            _ => {
                read_other(
                    e,
                    raw,
                    reader,
                    &mut frame,
                    &mut parents,
                    &mut elements,
                    &mut unparsed,
                    diagnostics,
                );
                continue;
            }
        };
        // the move's bytes: its text (`raw.slice`, which checks character
        // boundaries) is sliced only when it is needed, seldom for a usual move
        let bytes = span_bytes(&raw.text, span);
        let mut scratch = san::SanSyntax::blank();
        let syntax = if main {
            main_moves += 1;
            match main_line.read(main_moves - 1, raw, span, bytes, &mut scratch) {
                Some(syntax) => syntax,
                // this walk's line is thrown away (`walk_reading`)
                None => break,
            }
        } else {
            MoveSyntax::Parse
        };
        let Err(mut d) = read_move(
            &raw.text,
            reader,
            syntax,
            &mut scratch,
            &mut frame,
            span,
            diagnostics,
        ) else {
            continue;
        };
        let token = raw.slice(span);
        if !main {
            // the variation is cut at this move: its rest is quoted, not read
            let close = skip_variation(&mut elements);
            let end = close.map_or(raw.text.len(), |s| s.start as usize);
            let rest = raw.text.get(span.start as usize..end).unwrap_or("").trim();
            d.message = format!(
                "{}; the variation is cut here, its rest not read: {rest}",
                d.message
            );
            diagnostics.push(*d);
            // the rest is kept, as the rest of a broken main line is, in a comment
            keep_in_line(&mut frame.line, format!("{UNPARSED_PREFIX} {rest}"));
            if close.is_some() {
                close_variation(&mut frame, &mut parents);
            }
            continue;
        }
        if keep_illegal
            && d.code == "illegal-move"
            && keep_illegal_move(token, reader, &mut frame, span)
        {
            d.severity = Severity::Warning;
            d.code = "illegal-move-kept";
            d.message = format!(
                "{}; kept as played (--keep-illegal, FIDE Laws 7.5)",
                d.message
            );
            diagnostics.push(*d);
            continue;
        }
        if let (Reader::Chess(table), Board::Chess(pos)) = (reader, &frame.pos)
            && d.candidates.is_empty()
        {
            let following: Vec<&str> = following_tokens(elements.clone())
                .into_iter()
                .map(|sp| raw.slice(sp))
                .collect();
            d.candidates = suggest(pos, token, &following, table, 3)
                .into_iter()
                .map(|s| s.san)
                .collect();
        }
        diagnostics.push(*d);
        let rest = movetext_text(raw, span.start as usize, movetext_end);
        // text an earlier pass kept (a `kyphu: unparsed` comment) stays before it
        unparsed = match (unparsed.take(), rest) {
            (Some(kept), Some(rest)) => Some(format!("{kept} {rest}")),
            (kept, rest) => kept.or(rest),
        };
        main_line.stopped(raw, elements);
        break;
    }
    while !parents.is_empty() {
        close_variation(&mut frame, &mut parents);
    }
    (frame.line, unparsed, frame.pos)
}

/// A move-number note: the first move number of the main line does not match the
/// start position.
#[cold]
fn move_number_note(number: u32, black: bool, expected: u32, span: Span) -> Diagnostic {
    Diagnostic::note(
        "move-number",
        format!(
            "move number {number}{} where the position is at move {expected}",
            if black { "..." } else { "." }
        ),
    )
    .with_span(span)
}

/// The walk's work on an element that is neither a move nor a move number: comments,
/// NAGs, annotations, draw offers, variations opened and closed, escape lines.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn read_other(
    e: &Element,
    raw: &RawGame,
    reader: Reader,
    frame: &mut Frame,
    parents: &mut Vec<Frame>,
    elements: &mut std::slice::Iter<'_, Element>,
    unparsed: &mut Option<String>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    // A kept `kyphu: unparsed:` comment is the game's unread rest only when nothing
    // follows it; anything that does puts it back among the comments, in its place, so
    // that a second pass writes what the first wrote, in the same order.
    if let Some(held) = unparsed.take() {
        keep_in_line(&mut frame.line, format!("{UNPARSED_PREFIX} {held}"));
    }
    match *e {
        Element::Comment { body, .. } => {
            let text = unescape_comment(raw.slice(body));
            if let Some(kept) = kept_unparsed(&text) {
                diagnostics.push(
                    Diagnostic::error(
                        "unparsed-kept",
                        "text not read as moves, kept in a `kyphu: unparsed:` comment by an earlier run",
                    )
                    .with_span(body),
                );
                // after the main line's last move: the game's unread rest again
                if parents.is_empty() && following_tokens(elements.clone()).is_empty() {
                    *unparsed = Some(kept.to_owned());
                    return;
                }
            }
            let node = frame.line.moves.last_mut();
            let comment = take_clock_commands(&text, node);
            if !comment.is_empty() {
                match frame.line.moves.last_mut() {
                    Some(n) => n.extras_mut().comments.push(comment),
                    None => frame.line.comments.push(comment),
                }
            }
        }
        Element::Nag { value, span } => match frame.line.moves.last_mut() {
            Some(n) => n.extras_mut().nags.push(value),
            None => diagnostics.push(
                Diagnostic::warning("stray-nag", format!("${value} before any move is ignored"))
                    .with_span(span),
            ),
        },
        Element::Annotation { span } => {
            let token = raw.slice(span);
            if matches!(reader, Reader::Xiangqi(_)) && matches!(token, "-" | "–" | "—") {
                // The dash between Red's and Black's move on a scoresheet line.
                return;
            }
            match (annotation_nag(token), frame.line.moves.last_mut()) {
                (Some(nag), Some(n)) => n.extras_mut().nags.push(nag),
                (None, Some(n)) => n.extras_mut().comments.push(token.to_owned()),
                (_, None) => frame.line.comments.push(token.to_owned()),
            }
        }
        Element::DrawOffer { span } => match frame.line.moves.last_mut() {
            Some(n) => n.draw_offer = true,
            None => diagnostics.push(
                Diagnostic::warning(
                    "stray-draw-offer",
                    "draw offer (=) before any move is ignored",
                )
                .with_span(span),
            ),
        },
        Element::StartVariation { span } => {
            if frame.line.moves.is_empty() {
                diagnostics.push(
                    Diagnostic::error(
                        "variation-without-move",
                        "a variation must follow the move it replaces; this one is not read",
                    )
                    .with_span(span),
                );
                // not read, but kept: its text in a comment, as a cut variation's rest
                let close = skip_variation(elements);
                let end = close.map_or(raw.text.len(), |s| s.end as usize);
                let text = raw.text.get(span.start as usize..end).unwrap_or("").trim();
                keep_in_line(&mut frame.line, format!("{UNPARSED_PREFIX} {text}"));
            } else {
                let mut child = Frame::new(
                    frame.before_last.clone(),
                    frame.next_ply - 1,
                    Line::default(),
                );
                child.sound = frame.sound;
                parents.push(std::mem::replace(frame, child));
            }
        }
        Element::EndVariation { .. } => close_variation(frame, parents),
        Element::Escape { span } => {
            let line = raw.slice(span).trim_end();
            // (a `[` line whose tag name cannot be read comes here too, its warning
            // given by the reader)
            if line.starts_with('%') {
                diagnostics.push(
                    Diagnostic::note(
                        "escape-line",
                        "a % escape line is not read (as the PGN standard says); kept as a comment",
                    )
                    .with_span(span),
                );
            }
            if !line.is_empty() {
                keep_in_line(&mut frame.line, line.to_owned());
            }
        }
        Element::Move { .. } | Element::MoveNumber { .. } => {} // read by the walk
    }
}

/// How the unread rest of a line starts in the comment that keeps it.
const UNPARSED_PREFIX: &str = "kyphu: unparsed:";

/// The text a comment written by kyphu keeps unread (`kyphu: unparsed: TEXT`), if it is
/// one.
fn kept_unparsed(comment: &str) -> Option<&str> {
    let t = comment.trim_start().strip_prefix("kyphu:")?;
    Some(t.trim_start().strip_prefix("unparsed:")?.trim())
}

/// Appends `comment` after the last move of `line`, or before its moves when it has
/// none.
fn keep_in_line(line: &mut Line, comment: String) {
    match line.moves.last_mut() {
        Some(n) => n.extras_mut().comments.push(comment),
        None => line.comments.push(comment),
    }
}

/// The next few main-line move tokens after the current element (for look-ahead).
fn following_tokens<'a>(rest: std::slice::Iter<'a, Element>) -> Vec<Span> {
    let mut depth = 0usize;
    let mut out = Vec::new();
    for e in rest {
        match e {
            Element::StartVariation { .. } => depth += 1,
            Element::EndVariation { .. } => depth = depth.saturating_sub(1),
            Element::Move { span, .. } if depth == 0 => {
                out.push(*span);
                if out.len() == 8 {
                    break;
                }
            }
            _ => {}
        }
    }
    out
}

/// Consumes the rest of the variation holding the current element, through the `)`
/// that closes it (variations nested in it included); returns that `)`'s span, or
/// `None` when the movetext ends first.
fn skip_variation(rest: &mut std::slice::Iter<'_, Element>) -> Option<Span> {
    let mut depth = 0usize;
    for e in rest {
        match e {
            Element::StartVariation { .. } => depth += 1,
            Element::EndVariation { span } if depth == 0 => return Some(*span),
            Element::EndVariation { .. } => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Closes the variation being read (`frame`): its parent line becomes `frame` again,
/// and the variation, unless empty, is attached to the parent's last move. Nothing
/// happens on the main line (a `)` without its `(`).
fn close_variation(frame: &mut Frame, parents: &mut Vec<Frame>) {
    let Some(parent) = parents.pop() else {
        return;
    };
    let child = std::mem::replace(frame, parent);
    if let Some(node) = frame.line.moves.last_mut()
        && !(child.line.moves.is_empty() && child.line.comments.is_empty())
    {
        node.extras_mut().variations.push(child.line);
    }
}

/// Plays an illegal chess move that only one piece can make by its movement, flagged;
/// `false` (nothing changed) when there is no such move.
fn keep_illegal_move(token: &str, reader: Reader, frame: &mut Frame, span: Span) -> bool {
    let (Reader::Chess(table), Board::Chess(pos)) = (reader, &mut frame.pos) else {
        return false;
    };
    let Ok(syntax) = san::parse(token, table) else {
        return false;
    };
    let Some(mv) = san::resolve_by_movement(&syntax, pos) else {
        return false;
    };
    let before = Board::Chess(pos.clone());
    pos.play_unchecked(&mv);
    let mut node = MoveNode::new(AnyMove::Chess(mv), span);
    node.illegal = true;
    frame.sound = false;
    if let Some(nag) = syntax.nag {
        node.extras_mut().nags.push(nag);
    }
    node.draw_offer = syntax.draw_offer;
    frame.before_last = before;
    frame.line.moves.push(node);
    frame.next_ply += 1;
    true
}

/// Messages quote the token as written; a hostile token may be megabytes long.
fn short_message(mut d: Diagnostic) -> Diagnostic {
    const MAX: usize = 240;
    if d.message.len() > MAX {
        let mut end = MAX;
        while !d.message.is_char_boundary(end) {
            end -= 1;
        }
        d.message.truncate(end);
        d.message.push_str("… (message cut)");
    }
    d
}

/// Reads one move token on the frame's position and appends it to the frame's line;
/// `syntax` says where its syntax is, or that it is to be parsed (into `scratch`,
/// [`san::SanSyntax::blank`] then). The error is boxed: the walk tests a pointer for
/// each move, not a whole diagnostic. Inlined into each [`walk`] (one for each
/// [`MainLine`]).
#[inline(always)]
fn read_move(
    text: &str,
    reader: Reader,
    syntax: MoveSyntax<'_>,
    scratch: &mut san::SanSyntax,
    frame: &mut Frame,
    span: Span,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(), Box<Diagnostic>> {
    match reader {
        Reader::Chess(table) => {
            read_chess_move(text, table, syntax, scratch, frame, span, diagnostics)
        }
        Reader::Xiangqi(dialect) => {
            read_xiangqi_move(span.slice(text), dialect, frame, span, diagnostics)
        }
    }
}

/// The bytes of `text` that `span` covers (none when out of range): what
/// [`Span::slice`] gives, as bytes, without its checks of character boundaries.
#[inline]
fn span_bytes(text: &str, span: Span) -> &[u8] {
    text.as_bytes()
        .get(span.start as usize..span.end as usize)
        .unwrap_or_default()
}

/// The error of the move at `span`, ply `ply`.
#[cold]
fn move_error(d: Diagnostic, span: Span, ply: u32) -> Box<Diagnostic> {
    Box::new(short_message(d).with_span(span).with_ply(ply))
}

/// The frame's position is not of the reader's game kind (never, by construction).
#[cold]
fn kind_mismatch(span: Span, ply: u32) -> Box<Diagnostic> {
    move_error(
        Diagnostic::error("internal", "the move reader does not match the game kind"),
        span,
        ply,
    )
}

/// Places the remarks pushed from `first` on at the move's span and ply.
fn place_remarks(diagnostics: &mut [Diagnostic], first: usize, span: Span, ply: u32) {
    for d in diagnostics.iter_mut().skip(first) {
        d.span = Some(span);
        d.ply = Some(ply);
    }
}

/// The remarks on a resolved chess move (a repair, a missing check mark …) as
/// diagnostics at the move's span and ply; few moves have any.
#[cold]
fn chess_remarks(
    resolved: san::Resolved,
    token: &str,
    span: Span,
    ply: u32,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let first = diagnostics.len();
    resolved.diagnostics(token, diagnostics);
    place_remarks(diagnostics, first, span, ply);
}

/// [`read_move`] for a chess move: every move of a chess game comes this way, so it
/// does only what each move needs (remarks, NAG and draw offer when there are some).
/// `bytes` are those of the move's span in `text`; its text is sliced (checking
/// character boundaries) only when the move is not in one of the common shapes
/// ([`san::syntax::common_into`]) or not settled by the resolver's quick path, or has
/// remarks.
#[inline(always)]
fn read_chess_move(
    text: &str,
    table: &'static PieceTable,
    syntax: MoveSyntax<'_>,
    scratch: &mut san::SanSyntax,
    frame: &mut Frame,
    span: Span,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(), Box<Diagnostic>> {
    let ply = frame.next_ply;
    let Board::Chess(pos) = &mut frame.pos else {
        return Err(kind_mismatch(span, ply));
    };
    // The syntax and the resolution are used where they were built, by reference: no
    // copies of them per move.
    let token = || span.slice(text);
    let syntax = match syntax {
        MoveSyntax::Given(s) => s,
        MoveSyntax::Scratch => &*scratch,
        MoveSyntax::Parse if san::syntax::common_into(span_bytes(text, span), table, scratch) => {
            &*scratch
        }
        MoveSyntax::Parse => {
            *scratch = san::SanSyntax::blank();
            match san::syntax::parse_into(token(), table, scratch) {
                Ok(()) => &*scratch,
                Err(e) => return Err(move_error(e.to_diagnostic(), span, ply)),
            }
        }
    };
    // The position before the move, where a variation on it starts. Set before the
    // move is read: after an error the line is cut or the game ends, and this
    // position is not used again.
    if frame.keep_before {
        match &mut frame.before_last {
            Board::Chess(b) => b.clone_from(pos),
            other => *other = Board::Chess(pos.clone()),
        }
    }
    let played = if frame.sound {
        san::resolve_play_sound(syntax, pos, token)
    } else {
        san::resolve_play(syntax, pos, token())
    };
    // taken by value (it is `Copy`): no reference to it leaves the hot path, so that
    // it stays in registers
    let resolved = match played {
        Ok(r) => r,
        Err(e) => return Err(move_error(e.to_diagnostic(), span, ply)),
    };
    if !resolved.remarks.is_empty() {
        chess_remarks(resolved, token(), span, ply, diagnostics);
    }
    // built whole and pushed: the node's bytes go straight to the line
    let mut node = MoveNode::new(resolved.mv.map_or(AnyMove::Null, AnyMove::Chess), span);
    node.draw_offer = syntax.draw_offer;
    node.san = Some(resolved.hint());
    frame.line.moves.push(node);
    if let Some(nag) = syntax.nag {
        add_nag(&mut frame.line, nag);
    }
    frame.next_ply += 1;
    Ok(())
}

/// Adds a NAG to the line's last move (a move glyph written on the token, `Nf3!?`).
#[cold]
fn add_nag(line: &mut Line, nag: u8) {
    if let Some(node) = line.moves.last_mut() {
        node.extras_mut().nags.push(nag);
    }
}

/// [`read_move`] for a xiangqi move; one token may hold several moves (Chinese
/// written without spaces).
fn read_xiangqi_move(
    token: &str,
    dialect: xq_notation::Dialect,
    frame: &mut Frame,
    span: Span,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(), Box<Diagnostic>> {
    let ply = frame.next_ply;
    let first_remark = diagnostics.len();
    let Board::Xiangqi(pos) = &mut frame.pos else {
        return Err(kind_mismatch(span, ply));
    };
    let mut after = pos.clone();
    let mut resolved = xq_notation::read_play_many(token, dialect, &mut after)
        .map_err(|d| move_error(d, span, ply))?;
    let Some(last) = resolved.pop() else {
        return Err(move_error(
            Diagnostic::error("invalid-move", format!("no move in `{token}`")),
            span,
            ply,
        ));
    };
    for r in resolved {
        let mut prev = pos.clone();
        prev.play_unchecked(r.mv);
        diagnostics.extend(r.remarks);
        frame
            .line
            .moves
            .push(MoveNode::new(AnyMove::Xiangqi(r.mv), span));
        frame.next_ply += 1;
        *pos = prev;
    }
    let before_last = Board::Xiangqi(pos.clone());
    *pos = after;
    diagnostics.extend(last.remarks);
    frame.before_last = before_last;
    frame
        .line
        .moves
        .push(MoveNode::new(AnyMove::Xiangqi(last.mv), span));
    frame.next_ply += 1;
    place_remarks(diagnostics, first_remark, span, ply);
    Ok(())
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
        g.diagnostics.iter().map(|d| d.code).collect()
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
                encoding: encoding_rs::UTF_8,
                source: crate::text::EncodingSource::Utf8,
                had_replacements: false,
            },
            diagnostics: vec![Diagnostic::error("game-too-large", "over the budget")],
            move_letters: None,
            counts: None,
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
        assert_eq!(red_tag.moves.moves[1].span, red_tag.moves.moves[0].span);
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
                let want =
                    main_line(&raw).fold(0, |m, t| m | crate::archive::move_letters(t.as_bytes()));
                assert_eq!(
                    raw.move_letters,
                    Some(want),
                    "{}\n{:?}",
                    raw.text,
                    main_line(&raw).collect::<Vec<_>>()
                );
                seen[usize::from(san::english_alone(want))] += 1;
            }
        }
        // both answers are tried, many times
        assert!(seen.iter().all(|&n| n > 500), "{seen:?}");
    }

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
                        Diagnostic::warning("encoding-replaced", "malformed bytes replaced"),
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
                    match san::read_tokens(&main_line_tokens(&raw)).tables.as_slice() {
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
