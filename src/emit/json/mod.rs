//! JSON Lines writer: one object per game, one game per line.
//!
//! The object layout is published as a JSON Schema (draft 2020-12) at
//! `docs/schema/game.schema.json`; every object carries `"schema_version": "1"`. The
//! writer is hand-written over one reused `String` per writer (no allocation per move
//! beyond the per-game line index), and writes each game with one `write_all`.

use std::io;

mod buf;
mod fast;
mod lines;

pub use buf::JsonBuf;
use buf::{Out, SCRATCH, all_plain, needs_escape, push_clock, push_escaped, push_str, push_u64};
use fast::{PLAIN_TAIL, is_plain, put_plain_run, put_plain_tags};
use lines::Lines;

use super::{Board, ChessMoves, MoveStyle};
use crate::{
    emit::WriteMoves,
    model::diag::{LineCol, Severity, Span},
    model::game::{AnyMove, Clock, Game, Line, MainLine, MoveNode, StartPosition},
    notation::chess::{San, SanOut, SanWords, square_word, write_and_play},
};

/// The schema's `$id`.
pub const SCHEMA_ID: &str = "urn:kyphu:schema:game:1";
/// The value of every object's `schema_version` field.
pub const SCHEMA_VERSION: &str = "1";

/// Options of the JSON writer.
#[derive(Copy, Clone, Debug, Default)]
pub struct JsonOptions {
    /// Notation of the `san` field (default: canonical English PGN SAN; ICCS for xiangqi).
    pub moves: MoveStyle,
}

/// Writes games as JSON Lines.
#[derive(Debug)]
pub struct JsonWriter<W: io::Write> {
    out: W,
    renderer: JsonRenderer,
    buf: JsonBuf,
}

impl<W: io::Write> JsonWriter<W> {
    pub fn new(out: W, opts: JsonOptions) -> JsonWriter<W> {
        JsonWriter {
            out,
            renderer: JsonRenderer::new(&opts),
            buf: JsonBuf::default(),
        }
    }

    /// Writes one game as one line.
    pub fn write_game(&mut self, game: &Game) -> io::Result<()> {
        self.buf.clear();
        self.renderer.render(&mut self.buf, game);
        self.out.write_all(self.buf.as_bytes())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Renders one game as one JSON line, `\n` included, into a buffer of its own: what
/// [`JsonWriter::write_game`] writes.
pub fn to_json_bytes(game: &Game, opts: &JsonOptions) -> Vec<u8> {
    let mut b = JsonBuf::default();
    JsonRenderer::new(opts).render(&mut b, game);
    b.into_written()
}

/// The writer's style prepared once, for every game written in it: the pieces of its
/// SAN ([`SanWords`]) and whether its moves need escapes. [`JsonWriter`] keeps one;
/// a caller rendering games on several threads shares one.
#[derive(Debug)]
pub struct JsonRenderer {
    style: MoveStyle,
    /// The notation of every move needs no escape (checked on the letters of the
    /// style: the rest of SAN, ICCS and UCI is ASCII letters, digits and signs).
    plain_moves: bool,
    /// The pieces of SAN in the style, for [`put_plain_move`].
    san_words: SanWords,
    /// Chess moves in the `san` field as SAN, long algebraic or UCI
    /// ([`JsonRenderer::shaped`]).
    chess_moves: ChessMoves,
    /// A `fen` field in every move object ([`JsonRenderer::shaped`]).
    fen_each: bool,
}

impl JsonRenderer {
    pub fn new(opts: &JsonOptions) -> JsonRenderer {
        JsonRenderer {
            style: opts.moves,
            plain_moves: plain_moves(&opts.moves),
            san_words: SanWords::new(&opts.moves.chess),
            chess_moves: ChessMoves::San,
            fen_each: false,
        }
    }

    /// The renderer writing the `san` field of chess moves in `chess_moves` (long
    /// algebraic or UCI instead of SAN), and with `fen_each` a `fen` field in every
    /// move object: the position after the move (`convert --out-notation`,
    /// `--fen-each`). Such games are written by the general path, replaying them.
    pub fn shaped(mut self, chess_moves: ChessMoves, fen_each: bool) -> JsonRenderer {
        self.chess_moves = chess_moves;
        self.fen_each = fen_each;
        self
    }

    /// Appends the JSON line of `game` (`\n` included) to `buf`: for a caller that
    /// keeps each game's bytes and hands their buffers back ([`JsonBuf::into_parts`],
    /// [`JsonBuf::from_vec`]), as the command line's pipeline does, so that no buffer
    /// is allocated or zeroed per game.
    pub fn render(&self, buf: &mut JsonBuf, game: &Game) {
        buf.reserve(size_hint(game));
        render_with(buf, game, self, true);
    }

    /// About how many bytes [`JsonRenderer::render`] writes for `game` (it makes
    /// that much room first): for a caller choosing a buffer for it.
    pub fn size_hint(&self, game: &Game) -> usize {
        size_hint(game)
    }
}

/// Renders one game as one JSON line (convenience for tests and small jobs).
pub fn to_json_string(game: &Game, opts: &JsonOptions) -> String {
    // the writer copies only whole strings and ASCII: always UTF-8
    String::from_utf8(to_json_bytes(game, opts))
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// What the move writer carries through a game.
struct Ctx<'a> {
    game: &'a Game,
    style: &'a MoveStyle,
    lines: Lines<'a>,
    /// One move's notation.
    tok: String,
    /// See [`JsonRenderer::plain_moves`].
    plain_moves: bool,
    /// Where a move object is put together before it is appended: see [`Out`].
    scratch: [u8; SCRATCH],
    /// Moves of the usual kind are written by [`put_plain_move`] (always, but in the
    /// test that compares it with the general path).
    plain_path: bool,
    /// The pieces of SAN in the style, for [`put_plain_move`].
    san_words: &'a SanWords,
    /// [`JsonRenderer::shaped`]: every move written from the board (no hint used), in
    /// this form, and with its `fen` when `fen_each`.
    shaped: Option<(ChessMoves, bool)>,
}

/// [`JsonRenderer::render`], the moves of the usual kind written by
/// [`put_plain_move`] when `plain_path`, by the general path otherwise (for the test
/// comparing them), without the room for the whole line made first (the test's
/// buffers grow in the middle of runs of moves); returns what it took the main line
/// to be.
fn render_with(b: &mut JsonBuf, game: &Game, r: &JsonRenderer, plain_path: bool) -> MainLine {
    let mut ctx = Ctx {
        game,
        style: &r.style,
        lines: Lines::new(&game.source.text, game.source.first_line.max(1)),
        tok: String::new(),
        plain_moves: r.plain_moves,
        scratch: [0; SCRATCH],
        plain_path: plain_path && r.chess_moves == ChessMoves::San && !r.fen_each,
        san_words: &r.san_words,
        shaped: (r.chess_moves != ChessMoves::San || r.fen_each)
            .then_some((r.chess_moves, r.fen_each)),
    };
    b.extend_from_slice(b"{\"schema_version\":\"");
    b.extend_from_slice(SCHEMA_VERSION.as_bytes());
    b.extend_from_slice(b"\",\"kind\":");
    push_str(b, kind_name(game));
    b.extend_from_slice(b",\"variant\":");
    push_str(b, game.variant.name());
    b.extend_from_slice(b",\"tags\":{");
    if !(plain_path && put_plain_tags(b, &game.tags)) {
        put_tags(b, &mut ctx.scratch, &game.tags);
    }
    b.extend_from_slice(b"],\"start_fen\":");
    match &game.start {
        // the usual start, without writing its FEN
        StartPosition::Chess(p) if **p == crate::chess::Position::default() => {
            push_str(b, crate::chess::START_FEN);
        }
        start => push_str(b, &start.fen()),
    }
    b.extend_from_slice(b",\"moves\":");
    let mut board = Board::new(&game.start);
    let (played, plain) = write_line(b, &mut ctx, &mut board, &game.moves);
    // a main line written by the plain path alone is one of hinted legal moves
    let main_line = if plain {
        MainLine::PLAIN
    } else {
        game.main_line()
    };
    b.extend_from_slice(b",\"result\":");
    push_str(b, game.result.as_str());
    b.extend_from_slice(b",\"final_fen\":");
    let fen = match game.recorded_end_of(main_line) {
        Some(end) => end.fen(),
        None => {
            play_pending(&mut board, game.moves.moves.get(played..).unwrap_or(&[]));
            if let Board::Chess(p) = &mut board {
                // after moves played from their hints
                p.end_pieces_only();
            }
            board.fen()
        }
    };
    push_str(b, &fen);
    b.extend_from_slice(b",\"status\":");
    push_str(b, status_name(game.status_of(main_line)));
    b.extend_from_slice(b",\"diagnostics\":[");
    for (i, d) in game.diagnostics.iter().enumerate() {
        if i > 0 {
            b.push(b',');
        }
        b.extend_from_slice(b"{\"severity\":");
        push_str(b, severity_name(d.severity));
        b.extend_from_slice(b",\"code\":");
        push_str(b, d.code.as_str());
        b.extend_from_slice(b",\"message\":");
        push_str(b, &d.message);
        let mut o = Out::new(b, &mut ctx.scratch);
        o.put_location(&mut ctx.lines, d.span);
        o.flush();
        b.extend_from_slice(b",\"ply\":");
        match d.ply {
            Some(p) => push_u64(b, u64::from(p)),
            None => b.extend_from_slice(b"null"),
        }
        b.extend_from_slice(b",\"candidates\":[");
        for (j, c) in d.candidates.iter().enumerate() {
            if j > 0 {
                b.push(b',');
            }
            push_str(b, c);
        }
        b.extend_from_slice(b"]}");
    }
    b.extend_from_slice(b"]");
    if !game.repairs.is_empty() {
        put_repairs(b, game);
    }
    b.extend_from_slice(b",\"unparsed\":");
    match &game.unparsed {
        Some(u) => push_str(b, u),
        None => b.extend_from_slice(b"null"),
    }
    let src = &game.source;
    b.extend_from_slice(b",\"source\":{\"file\":");
    match &src.file {
        Some(f) => push_str(b, f),
        None => b.extend_from_slice(b"null"),
    }
    b.extend_from_slice(b",\"game_index\":");
    // counted from 1, as every message numbers games (`game 1`)
    push_u64(b, src.game_index + 1);
    b.extend_from_slice(b",\"byte_start\":");
    push_u64(b, src.byte_start);
    b.extend_from_slice(b",\"byte_end\":");
    push_u64(b, src.byte_end);
    b.extend_from_slice(b"},\"encoding\":");
    match src.encoding {
        Some(e) => push_str(b, e),
        None => b.extend_from_slice(b"null"),
    }
    b.extend_from_slice(b"}\n");
    main_line
}

/// `,"illegible":N,"repairs":[…]`: the moves replay assumed in place of what was
/// written (issue 27; only in games that have some: docs/schema).
#[cold]
fn put_repairs(b: &mut JsonBuf, game: &Game) {
    let illegible = game
        .repairs
        .iter()
        .filter(|r| r.kind == "illegible")
        .count();
    b.extend_from_slice(b",\"illegible\":");
    push_u64(b, illegible as u64);
    b.extend_from_slice(b",\"repairs\":[");
    for (i, r) in game.repairs.iter().enumerate() {
        if i > 0 {
            b.push(b',');
        }
        b.extend_from_slice(b"{\"ply\":");
        push_u64(b, u64::from(r.ply));
        b.extend_from_slice(b",\"kind\":");
        push_str(b, r.kind);
        b.extend_from_slice(b",\"written\":");
        push_str(b, &r.written);
        b.extend_from_slice(b",\"san\":");
        push_str(b, &r.san);
        b.extend_from_slice(b",\"uci\":");
        push_str(b, &r.uci);
        b.extend_from_slice(b",\"confidence\":");
        let c = r.confidence_milli.min(1000);
        let text = format!("{}.{:03}", c / 1000, c % 1000);
        b.extend_from_slice(text.as_bytes());
        b.extend_from_slice(if r.review {
            b",\"review\":true,\"candidates\":["
        } else {
            b",\"review\":false,\"candidates\":["
        });
        for (j, c) in r.candidates.iter().enumerate() {
            if j > 0 {
                b.push(b',');
            }
            push_str(b, c);
        }
        b.extend_from_slice(b"]}");
    }
    b.push(b']');
}

/// Appends the pairs of the `tags` object, then `},"tag_list":[` and the items of the
/// list (the general path: see [`put_plain_tags`]).
fn put_tags(b: &mut JsonBuf, scratch: &mut [u8; SCRATCH], tags: &crate::model::game::Tags) {
    // each tag with whether its name and value need no escape, checked once for the
    // two places it is written
    let tags: Vec<(&str, &str, bool)> = tags
        .iter()
        .map(|(n, v)| (n, v, all_plain(n.as_bytes()) && all_plain(v.as_bytes())))
        .collect();
    let mut o = Out::new(b, scratch);
    let mut first = true;
    // names seen so far, for a long tag list: looking back over the list for each tag
    // would take the square of its length (see docs/performance.md, "Writers")
    let mut seen = (tags.len() > 32).then(std::collections::HashSet::<&str>::new);
    for (i, &(n, v, plain)) in tags.iter().enumerate() {
        // first value of a name wins; the full list is in `tag_list`
        let repeated = match &mut seen {
            Some(seen) => !seen.insert(n),
            None => tags.iter().take(i).any(|&(m, _, _)| m == n),
        };
        if repeated {
            continue;
        }
        if !first {
            o.put(b",");
        }
        first = false;
        o.put_pair(n, b":", v, plain);
    }
    o.put(b"},\"tag_list\":[");
    for (i, &(n, v, plain)) in tags.iter().enumerate() {
        o.put(if i > 0 { b",[" } else { b"[" });
        o.put_pair(n, b",", v, plain);
        o.put(b"]");
    }
    o.flush();
}

/// Whether every move written in `style` needs no escape in a JSON string: the
/// chess piece letters of the style need none and xiangqi moves are in ICCS.
fn plain_moves(style: &MoveStyle) -> bool {
    style.xiangqi == super::XiangqiNotation::Iccs
        && crate::chess::Role::ALL
            .iter()
            .all(|&r| !needs_escape(style.chess.table.letter(r)))
}
/// Bytes of a move object besides its `written` text, with room for long numbers and
/// SAN in other scripts; [`size_hint`] reserves this much per move.
const MOVE_BYTES: usize = 224;

/// About the length of the JSON line of `game`, so that its buffer is mostly
/// allocated once: the moves of the main line, not those of variations (counting them
/// would visit every move; a game with variations may grow its buffer).
fn size_hint(game: &Game) -> usize {
    // the text holds the tags (written twice), comments and `written` fields
    1024 + 2 * game.source.text.len()
        + MOVE_BYTES * game.moves.moves.len()
        + 256 * game.diagnostics.len()
}

/// Writes a line as an array of move objects from `board`, the position before its
/// first move, and returns how many of its moves are played on `board` and whether
/// every move was written by [`put_plain_run`] (then each carries its hint and none
/// is illegal: the line is [`MainLine::PLAIN`]).
///
/// The usual chess move is written from its hint ([`crate::model::game::SanHint`]) without
/// the board, so the board is left behind: the moves since the last one played on it
/// are played ([`play_pending`]) only when a move needs the board (one without a
/// hint, or with variations, which start from the position before it). The caller
/// plays the rest if it needs the line's end position.
fn write_line(b: &mut JsonBuf, ctx: &mut Ctx<'_>, board: &mut Board, line: &Line) -> (usize, bool) {
    b.push(b'[');
    // every move, a null one too, passes the turn: one ply each
    let first_ply = u64::from(board.ply());
    // the usual move needs neither the board nor escapes: see `put_plain_move`
    let plain_path = ctx.plain_path && ctx.plain_moves && matches!(board, Board::Chess(_));
    let chess960 = matches!(board, Board::Chess(p) if p.chess960());
    let mut played = 0;
    let mut plain = true;
    let mut i = 0;
    while i < line.moves.len() {
        // comments before the first move of the line belong to it in JSON
        if plain_path && (i > 0 || line.comments.is_empty()) {
            let rest = line.moves.get(i..).unwrap_or(&[]);
            i += put_plain_run(b, ctx, rest, i == 0, first_ply + i as u64, chess960);
        }
        let Some(node) = line.moves.get(i) else {
            break;
        };
        i += 1;
        // the general path, for the move at `i - 1`
        let i = i - 1;
        plain = false;
        let mut o = Out::new(b, &mut ctx.scratch);
        o.put(if i > 0 { b",{\"ply\":" } else { b"{\"ply\":" });
        o.put_u64(first_ply + i as u64);
        let has_variations = !node.variations().is_empty();
        let hint = match (&*board, &node.mv, node.san) {
            (Board::Chess(_), AnyMove::Chess(m), Some(hint))
                if ctx.plain_moves && ctx.shaped.is_none() =>
            {
                Some((m, hint))
            }
            _ => None,
        };
        if (has_variations || hint.is_none()) && played < i {
            play_pending(board, line.moves.get(played..i).unwrap_or(&[]));
            played = i;
        }
        // the position before the move, for its variations
        let before = has_variations.then(|| board.clone());
        let span = (!node.span.is_empty()).then_some(node.span);
        // the board may be behind here: only its kind of castling is read
        o.put_coords(board, &node.mv);
        match hint {
            // the usual chess move: its SAN from its hint, not played
            Some((m, hint)) => San::from_hint(*m, hint).write(&mut o, &ctx.style.chess),
            None => {
                o.flush();
                push_san(b, ctx, board, node);
                if let Some((_, true)) = ctx.shaped {
                    b.extend_from_slice(b",\"fen\":");
                    push_str(b, &board.fen());
                }
                played = i + 1;
                o = Out::new(b, &mut ctx.scratch);
            }
        }
        o.put_written(&ctx.game.source.text, span);
        o.put_location(&mut ctx.lines, span);
        // comments before the first move of the line belong to it in JSON
        let pre = if i == 0 { &line.comments[..] } else { &[] };
        if is_plain(node) && pre.is_empty() {
            o.put(PLAIN_TAIL);
            o.flush();
            continue;
        }
        o.flush();
        b.extend_from_slice(b",\"comments\":[");
        for (j, c) in pre.iter().chain(node.comments()).enumerate() {
            if j > 0 {
                b.push(b',');
            }
            push_str(b, c);
        }
        b.extend_from_slice(b"],\"nags\":[");
        for (j, n) in node.nags().iter().enumerate() {
            if j > 0 {
                b.push(b',');
            }
            push_u64(b, u64::from(*n));
        }
        b.extend_from_slice(b"],\"clock\":");
        push_clock(b, node.clock);
        b.extend_from_slice(b",\"emt\":");
        push_clock(b, node.emt());
        b.extend_from_slice(if node.draw_offer {
            b",\"draw_offer\":true"
        } else {
            b",\"draw_offer\":false"
        });
        b.extend_from_slice(if node.illegal {
            b",\"illegal\":true,\"variations\":["
        } else {
            b",\"illegal\":false,\"variations\":["
        });
        if let Some(before) = &before {
            for (j, var) in node.variations().iter().enumerate() {
                if j > 0 {
                    b.push(b',');
                }
                let mut vb = before.clone();
                write_line(b, ctx, &mut vb, var);
            }
        }
        b.extend_from_slice(b"]}");
    }
    b.push(b']');
    (played, plain)
}

/// Plays `nodes` on `board`, as [`write_line`] would have: a chess move with its hint
/// ([`crate::model::game::SanHint`]) by its pieces only
/// ([`crate::chess::Position::play_pieces`]), any other move as [`push_san`] plays it.
fn play_pending(board: &mut Board, nodes: &[MoveNode]) {
    for node in nodes {
        match (&mut *board, &node.mv, node.san) {
            (Board::Chess(p), AnyMove::Chess(m), Some(_)) => p.play_pieces(m),
            (Board::Chess(p), _, _) => {
                p.end_pieces_only();
                board.play(&node.mv);
            }
            _ => board.play(&node.mv),
        }
    }
}

/// Appends the move's notation as [`Board::write_and_play`] writes it (escaped) and
/// plays it; the usual chess move straight into `b`.
///
/// A chess move with its [`crate::model::game::SanHint`] is written from the hint, and the
/// board only follows the pieces ([`crate::chess::Position::play_pieces`]); the pieces
/// giving check are brought up to date before a move without one.
fn push_san(b: &mut JsonBuf, ctx: &mut Ctx<'_>, board: &mut Board, node: &MoveNode) {
    let mv = &node.mv;
    if let Some((form, _)) = ctx.shaped {
        // every move of the game played on the board, in full
        ctx.tok.clear();
        super::write_and_play_as(board, &mut ctx.tok, mv, ctx.style, form);
        push_escaped(b, &ctx.tok);
        return;
    }
    if let (Board::Chess(p), AnyMove::Chess(m), Some(hint)) = (&mut *board, mv, node.san) {
        if ctx.plain_moves {
            San::from_hint(*m, hint).write(b, &ctx.style.chess);
        } else {
            ctx.tok.clear();
            San::from_hint(*m, hint).write(&mut ctx.tok, &ctx.style.chess);
            push_escaped(b, &ctx.tok);
        }
        p.play_pieces(m);
        return;
    }
    if let Board::Chess(p) = &mut *board {
        p.end_pieces_only();
    }
    if ctx.plain_moves
        && let (Board::Chess(p), AnyMove::Chess(m)) = (&mut *board, mv)
    {
        write_and_play(b, p, m, &ctx.style.chess);
        return;
    }
    ctx.tok.clear();
    board.write_and_play(&mut ctx.tok, mv, ctx.style);
    if ctx.plain_moves || matches!(mv, AnyMove::Null) {
        b.extend_from_slice(ctx.tok.as_bytes());
    } else {
        push_escaped(b, &ctx.tok);
    }
}

/// What [`Board::write_coords`] writes (UCI for chess, ICCS for xiangqi: letters and
/// digits, nothing to escape), as bytes: the first `len` of the array.
fn coords(board: &Board, mv: &AnyMove) -> ([u8; 8], usize) {
    match (board, mv) {
        (_, AnyMove::Null) => (*b"0000    ", 4),
        (_, AnyMove::Chess(m)) => chess_coords(m, matches!(board, Board::Chess(p) if p.chess960())),
        (_, AnyMove::Xiangqi(m)) => (
            [
                b'a' + m.from.file(),
                b'0' + m.from.rank(),
                b'a' + m.to.file(),
                b'0' + m.to.rank(),
                b' ',
                b' ',
                b' ',
                b' ',
            ],
            4,
        ),
    }
}

/// The UCI of a chess move, as [`coords`] (`chess960`: castling as king-takes-rook).
#[inline(always)]
fn chess_coords(m: &crate::chess::Move, chess960: bool) -> ([u8; 8], usize) {
    use crate::chess::Move;
    let (from, to, promotion) = match *m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => (from, to, promotion),
        Move::EnPassant { from, to } => (from, to, None),
        Move::Castle { king, rook } if chess960 => (king, rook, None),
        Move::Castle { king, .. } => (king, m.to(), None),
    };
    let promotion = promotion.map_or(0, |p| u8::try_from(p.lower_char()).unwrap_or(b'?'));
    let word = square_word(from) | square_word(to) << 16 | u64::from(promotion) << 32;
    (word.to_le_bytes(), 4 + usize::from(promotion != 0))
}

fn kind_name(game: &Game) -> &'static str {
    match game.kind() {
        crate::model::game::GameKind::Chess => "chess",
        crate::model::game::GameKind::Xiangqi => "xiangqi",
    }
}

fn status_name(status: crate::model::game::Status) -> &'static str {
    match status {
        crate::model::game::Status::Clean => "clean",
        crate::model::game::Status::Repaired => "repaired",
        crate::model::game::Status::Partial => "partial",
        crate::model::game::Status::Failed => "failed",
    }
}

/// The word of a severity, as its `Display` writes it.
fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Note => "note",
        Severity::Warning => "warning",
        Severity::Error => "error",
    }
}

/// One JSON line for text that is not a game (read between games, or not read as a
/// game at all), kept in the output: `{"schema_version":"1","non_game":true,"text":…,
/// "source":{"file":…,"line":…,"byte_start":…,"byte_end":…},"diagnostics":[…]}`. `text`
/// is the text as decoded, verbatim; `line` the 1-based line it starts at. See
/// `docs/formats.md`.
pub fn non_game_json(game: &Game) -> Vec<u8> {
    let src = &game.source;
    let diagnostics: Vec<serde_json::Value> = game
        .diagnostics
        .iter()
        .map(|d| {
            serde_json::json!({
                "code": d.code,
                "severity": d.severity,
                "message": d.message,
            })
        })
        .collect();
    let value = serde_json::json!({
        "schema_version": SCHEMA_VERSION,
        "non_game": true,
        "text": src.text.trim_end(),
        "source": {
            "file": src.file.as_deref(),
            "line": src.first_line,
            "byte_start": src.byte_start,
            "byte_end": src.byte_end,
        },
        "diagnostics": diagnostics,
    });
    let mut out = serde_json::to_vec(&value).unwrap_or_default();
    out.push(b'\n');
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The SAN styles the hinted-SAN tests compare: PGN, figurine, Vietnamese letters,
    /// and PGN without check marks.
    pub(super) fn four_styles() -> [crate::notation::chess::SanStyle; 4] {
        use crate::notation::chess::{SanStyle, table};
        [
            SanStyle::pgn(),
            SanStyle::figurine(),
            SanStyle::fide(table("vi").unwrap()),
            SanStyle {
                check_marks: false,
                ..SanStyle::pgn()
            },
        ]
    }

    #[test]
    fn severities_as_display() {
        for s in [Severity::Note, Severity::Warning, Severity::Error] {
            assert_eq!(severity_name(s), s.to_string());
        }
    }

    #[test]
    fn coords_agree_with_board() {
        let chess = [
            crate::chess::START_FEN,
            "r3k2r/1P6/8/3N1N2/8/8/6p1/R3K2R b KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
        ];
        let mut boards: Vec<Board> = chess
            .iter()
            .map(|f| Board::Chess(crate::chess::Position::from_fen(f).unwrap()))
            .collect();
        // chess960 castling is written king-takes-rook
        boards.push(Board::Chess(
            crate::chess::Position::from_fen_chess960("1rk3r1/8/8/8/8/8/8/1RK3R1 w GBgb - 0 1")
                .unwrap(),
        ));
        let mut checked = 0;
        for board in &boards {
            let Board::Chess(p) = board else { continue };
            let moves: Vec<AnyMove> = p.legal_moves().iter().map(|m| AnyMove::Chess(*m)).collect();
            for mv in moves.iter().chain([&AnyMove::Null]) {
                let mut want = String::new();
                board.write_coords(&mut want, mv);
                let (c, len) = coords(board, mv);
                assert_eq!(std::str::from_utf8(&c[..len]).unwrap(), want);
                let mut got = JsonBuf::default();
                let mut scratch = [0; SCRATCH];
                let mut o = Out::new(&mut got, &mut scratch);
                o.put_coords(board, mv);
                o.flush();
                let field = format!(",\"uci\":\"{want}\",\"san\":\"");
                assert_eq!(String::from_utf8(got.into_written()).unwrap(), field);
                checked += 1;
            }
        }
        let xq = Board::Xiangqi(crate::xiangqi::Position::default());
        if let Board::Xiangqi(p) = &xq {
            for m in p.legal_moves() {
                let mv = AnyMove::Xiangqi(m);
                let mut want = String::new();
                xq.write_coords(&mut want, &mv);
                let (c, len) = coords(&xq, &mv);
                assert_eq!(std::str::from_utf8(&c[..len]).unwrap(), want);
                checked += 1;
            }
        }
        assert!(checked > 100);
    }

    #[test]
    fn san_agrees_with_write_and_play() {
        let fens = [
            crate::chess::START_FEN,
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
            "7k/8/8/1Q3Q2/8/8/8/1Q2K3 w - - 0 1",
            "r3k2r/1P6/8/3N1N2/8/8/6p1/R3K2R b KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/2P5/8/PP1P1PPP/RNBQKBNR w KQkq f6 0 3",
            "6k1/5ppp/8/8/8/8/8/R3K2R w KQ - 0 1",
            "4k3/8/3p1p2/4P3/8/8/8/4K3 w - - 0 1",
        ];
        let styles = four_styles();
        let game = Game::new_chess();
        for fen in fens {
            let pos = crate::chess::Position::from_fen(fen).unwrap();
            for m in &pos.legal_moves() {
                for chess in styles {
                    let style = MoveStyle {
                        chess,
                        ..MoveStyle::default()
                    };
                    let mv = AnyMove::Chess(*m);
                    let mut want = String::new();
                    let mut after = Board::Chess(pos.clone());
                    after.write_and_play(&mut want, &mv, &style);
                    let mut ctx = Ctx {
                        game: &game,
                        style: &style,
                        lines: Lines::new("", 1),
                        tok: String::new(),
                        plain_moves: plain_moves(&style),
                        scratch: [0; SCRATCH],
                        plain_path: true,
                        san_words: &SanWords::new(&style.chess),
                        shaped: None,
                    };
                    let mut board = Board::Chess(pos.clone());
                    let mut got = JsonBuf::default();
                    let node = MoveNode::new(mv, Span::default());
                    push_san(&mut got, &mut ctx, &mut board, &node);
                    assert_eq!(
                        String::from_utf8(got.into_written()).unwrap(),
                        want,
                        "{fen} {m:?}"
                    );
                    assert_eq!(board.fen(), after.fen());
                }
            }
        }
    }

    /// Clears the [`crate::model::game::SanHint`] of every move of `line`, variations too.
    fn clear_hints(line: &mut Line) {
        for node in &mut line.moves {
            node.san = None;
            for var in node.variations_mut() {
                clear_hints(var);
            }
        }
    }

    /// The move objects written from the moves' hints ([`Out`] and
    /// [`San::write`], the board following only the pieces) are those
    /// written from the position (`push_san`), for every style.
    #[test]
    fn hinted_moves_agree_with_position() {
        let text = concat!(
            "[Event \"Trắng \\\"x\\\"\"]\r\n[White \"A\"]\r\n\r\n",
            "1. e4 {Trắng đi trước} e5 2. Nf3 Nc6 3. Bb5 a6 (3... Nf6 4. O-O Nxe4 5. Re1 Nd6 ",
            "6. Nxe5 (6. Bxc6 dxc6) Be7) 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O ",
            "9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 ",
            "16. d5 c4 17. Bg5 h6 18. Be3 Nc5 19. Qd2 h5 20. Bg5 Be7 $1 21. Ra3 {[%clk 0:10:00]} ",
            "Qc7 22. Rea1 Kg7 *\n\n",
            "[FEN \"r3k2r/1P6/8/3N1N2/8/8/6p1/R3K2R w KQkq - 0 1\"]\n\n",
            "1. bxa8=Q+ Kd7 2. Qxh8 gxh1=N 3. O-O-O Ke6 4. Qe8+ Kxf5 5. Ne3+ Kf4 *\n\n",
            "[FEN \"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3\"]\n\n",
            "3. exf6 Nxf6 4. f4 e5 5. fxe5 Ng4 6. e6 Bc5 7. Qxg4 Bxg1 8. Rxg1 Qh4+ 9. g3 Qxg4 *\n\n",
            "1. f3 e5 2. g4 Qh4# 0-1\n\n",
            "[Variant \"Chess960\"]\n[FEN \"1rk3r1/pppppppp/8/8/8/8/PPPPPPPP/1RK3R1 w GBgb - 0 1\"]\n\n",
            "1. O-O O-O-O 2. d4 d5 *\n",
        );
        let styles = four_styles();
        let mut hints = 0;
        for raw in crate::archive::read_str(text) {
            let game = crate::replay::replay(raw, &crate::replay::ReplayOptions::default());
            assert!(game.diagnostics.is_empty(), "{:?}", game.diagnostics);
            hints += game.moves.moves.iter().filter(|n| n.san.is_some()).count();
            let mut bare = game.clone();
            clear_hints(&mut bare.moves);
            for chess in styles {
                let opts = JsonOptions {
                    moves: MoveStyle {
                        chess,
                        ..MoveStyle::default()
                    },
                };
                let want = to_json_string(&bare, &opts);
                assert_eq!(to_json_string(&game, &opts), want);
                let v: serde_json::Value = serde_json::from_str(&want).unwrap();
                assert!(v["moves"].as_array().is_some_and(|m| !m.is_empty()));
            }
        }
        assert!(hints > 60);
    }

    /// Games of the corpus (when present) and of a few texts, replayed with and
    /// without `--keep-illegal`.
    fn sample_games() -> Vec<Game> {
        let mut texts = vec![
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 (3... Nf6 4. O-O) 4. Ba4 -- 5. O-O *".to_owned(),
            "1. e4 e5 2. Qh5 Ke7 3. Qxe5+ Kf6 4. d4 Kg6 *".to_owned(),
            "[FEN \"r3k2r/1P6/8/3N1N2/8/8/6p1/R3K2R w KQkq - 0 1\"]\n\n1. bxa8=Q+ Kd7 2. Qxh8 gxh1=N 3. O-O-O *".to_owned(),
            "[Variant \"Chess960\"]\n[FEN \"1rk3r1/pppppppp/8/8/8/8/PPPPPPPP/1RK3R1 w GBgb - 0 1\"]\n\n1. O-O O-O-O 2. d4 d5 *".to_owned(),
            "1. e4 e5 2. Nf3 Nf9 3. Bb5 *".to_owned(),
            "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *".to_owned(),
        ];
        texts.extend(crate::testing::corpus_pgn_texts("chess"));
        let mut games = Vec::new();
        for keep_illegal in [false, true] {
            let options = crate::replay::ReplayOptions {
                keep_illegal,
                ..crate::replay::ReplayOptions::default()
            };
            for text in &texts {
                for raw in crate::archive::read_str(text) {
                    games.push(crate::replay::replay(raw, &options));
                }
            }
        }
        games
    }

    /// The end position replay records is the one a writer reaches by playing the
    /// main line, and a game's JSON is the same with the record and without it (the
    /// board then followed to the end, as for a game built by hand).
    #[test]
    fn recorded_end_agrees_with_played_end() {
        let opts = JsonOptions::default();
        let (mut recorded, mut games) = (0, 0);
        for game in sample_games() {
            let mut forgotten = game.clone();
            forgotten.forget_end();
            // from one pass over the main line as from the passes of each
            let line = game.main_line();
            assert_eq!(game.status_of(line), game.status());
            assert_eq!(
                game.recorded_end_of(line).map(Board::fen),
                game.recorded_end().map(Board::fen)
            );
            if let Some(end) = game.recorded_end() {
                recorded += 1;
                assert_eq!(end.fen(), forgotten.end_position().fen());
            }
            assert_eq!(
                to_json_string(&game, &opts),
                to_json_string(&forgotten, &opts)
            );
            games += 1;
        }
        assert!(recorded > 4 && games > recorded, "{recorded} of {games}");
    }

    #[test]
    fn move_styles_known_plain() {
        use crate::notation::chess::{SanStyle, table};
        let plain = |chess: SanStyle, xiangqi: super::super::XiangqiNotation| {
            plain_moves(&MoveStyle { chess, xiangqi })
        };
        let iccs = super::super::XiangqiNotation::Iccs;
        assert!(plain(SanStyle::pgn(), iccs));
        assert!(plain(SanStyle::figurine(), iccs));
        assert!(plain(SanStyle::fide(table("vi").unwrap()), iccs));
        let wxf = super::super::XiangqiNotation::Dialect(crate::notation::xiangqi::Dialect::Wxf);
        assert!(!plain(SanStyle::pgn(), wxf));
    }

    #[test]
    fn standard_start_fen_shortcut() {
        assert_eq!(
            crate::chess::Position::default().fen(),
            crate::chess::START_FEN
        );
    }

    #[test]
    fn bytes_writer_and_string_agree() {
        let mut g = Game::new_chess();
        g.tags.set("White", "Trắng \"A\"");
        let opts = JsonOptions::default();
        let mut w = JsonWriter::new(Vec::new(), opts);
        w.write_game(&g).unwrap();
        w.write_game(&g).unwrap();
        let twice = w.into_inner();
        let one = to_json_bytes(&g, &opts);
        assert_eq!(twice, [one.clone(), one.clone()].concat());
        assert_eq!(to_json_string(&g, &opts).as_bytes(), &one[..]);
    }

    #[test]
    fn empty_game_parses() {
        let mut g = Game::new_chess();
        g.tags.set("White", "A");
        g.tags.push("White", "B");
        let s = to_json_string(&g, &JsonOptions::default());
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["tags"]["White"], "A");
        assert_eq!(v["tag_list"][1][1], "B");
        assert_eq!(v["status"], "clean");
        assert_eq!(v["final_fen"], v["start_fen"]);
        assert!(s.ends_with("}\n") && s.lines().count() == 1);
    }
}
