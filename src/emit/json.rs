//! JSON Lines writer: one object per game, one game per line.
//!
//! The object layout is published as a JSON Schema (draft 2020-12) at
//! `docs/schema/game.schema.json`; every object carries `"schema_version": "1"`. The
//! writer is hand-written over one reused `String` per writer (no allocation per move
//! beyond the per-game line index), and writes each game with one `write_all`.

use std::io;

use super::{Board, MoveStyle};
use crate::{
    diag::{LineCol, Severity, Span},
    game::{AnyMove, Clock, Game, Line, MoveNode, StartPosition},
    notation::chess::write_san_hinted_into,
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
    opts: JsonOptions,
    buf: Vec<u8>,
}

impl<W: io::Write> JsonWriter<W> {
    pub fn new(out: W, opts: JsonOptions) -> JsonWriter<W> {
        JsonWriter {
            out,
            opts,
            buf: Vec::new(),
        }
    }

    /// Writes one game as one line.
    pub fn write_game(&mut self, game: &Game) -> io::Result<()> {
        self.buf.clear();
        render(&mut self.buf, game, &self.opts);
        self.out.write_all(&self.buf)
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Renders one game as one JSON line, `\n` included, into a buffer of its own: what
/// [`JsonWriter::write_game`] writes, for a caller that keeps each game's bytes (as the
/// command line's pipeline does), without the copy from a writer's buffer.
pub fn to_json_bytes(game: &Game, opts: &JsonOptions) -> Vec<u8> {
    let mut b = Vec::new();
    render(&mut b, game, opts);
    b
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
    /// The notation of every move of this game needs no escape (checked once, on the
    /// letters of the style: the rest of SAN, ICCS and UCI is ASCII letters, digits and
    /// signs).
    plain_moves: bool,
    /// When every move is written without escapes in letters of at most four bytes:
    /// the letters, for [`push_hinted_fields`].
    letters: Option<Letters>,
}

/// Appends the JSON line of `game` to `b`.
fn render(b: &mut Vec<u8>, game: &Game, opts: &JsonOptions) {
    b.reserve(size_hint(game));
    let mut ctx = Ctx {
        game,
        style: &opts.moves,
        lines: Lines {
            cursor: LineCursor::new(&game.source.text, game.source.first_line.max(1)),
            field: [0; FIELD],
            field_len: 0,
            field_line: None,
        },
        tok: String::with_capacity(32),
        plain_moves: plain_moves(&opts.moves),
        letters: None,
    };
    if ctx.plain_moves {
        ctx.letters = short_letters(opts.moves.chess.table);
    }
    b.extend_from_slice(b"{\"schema_version\":\"");
    b.extend_from_slice(SCHEMA_VERSION.as_bytes());
    b.extend_from_slice(b"\",\"kind\":");
    push_str(b, kind_name(game));
    b.extend_from_slice(b",\"variant\":");
    push_str(b, game.variant.name());
    b.extend_from_slice(b",\"tags\":{");
    let mut first = true;
    for (i, (n, v)) in game.tags.iter().enumerate() {
        // first value of a name wins; the full list is in `tag_list`
        if game.tags.iter().take(i).any(|(m, _)| m == n) {
            continue;
        }
        if !first {
            b.push(b',');
        }
        first = false;
        push_str(b, n);
        b.push(b':');
        push_str(b, v);
    }
    b.extend_from_slice(b"},\"tag_list\":[");
    for (i, (n, v)) in game.tags.iter().enumerate() {
        if i > 0 {
            b.push(b',');
        }
        b.push(b'[');
        push_str(b, n);
        b.push(b',');
        push_str(b, v);
        b.push(b']');
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
    write_line(b, &mut ctx, &mut board, &game.moves);
    if let Board::Chess(p) = &mut board {
        // after moves played from their hints
        p.end_pieces_only();
    }
    b.extend_from_slice(b",\"result\":");
    push_str(b, game.result.as_str());
    b.extend_from_slice(b",\"final_fen\":");
    push_str(b, &board.fen());
    b.extend_from_slice(b",\"status\":");
    push_str(b, status_name(game));
    b.extend_from_slice(b",\"diagnostics\":[");
    for (i, d) in game.diagnostics.iter().enumerate() {
        if i > 0 {
            b.push(b',');
        }
        b.extend_from_slice(b"{\"severity\":");
        push_str(b, severity_name(d.severity));
        b.extend_from_slice(b",\"code\":");
        push_str(b, d.code);
        b.extend_from_slice(b",\"message\":");
        push_str(b, &d.message);
        push_location(b, &mut ctx.lines, d.span);
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
    b.extend_from_slice(b"],\"unparsed\":");
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
    push_u64(b, src.game_index);
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
}

/// Whether every move written in `style` needs no escape in a JSON string: the
/// chess piece letters of the style need none and xiangqi moves are in ICCS.
fn plain_moves(style: &MoveStyle) -> bool {
    style.xiangqi == super::XiangqiNotation::Iccs
        && crate::chess::Role::ALL
            .iter()
            .all(|&r| !needs_escape(style.chess.table.letter(r)))
}

/// The fields of a move object after `column` when the move has no comment, NAG,
/// clock, draw offer or variation and is legal: the usual case, written in one piece.
const PLAIN_TAIL: [&[u8]; 2] = [
    // two pieces short enough to be copied inline
    b",\"comments\":[],\"nags\":[],\"clock\":null,\"emt\":null,",
    b"\"draw_offer\":false,\"illegal\":false,\"variations\":[]}",
];

/// Bytes of a move object besides its `written` text, with room for long numbers and
/// SAN in other scripts; [`size_hint`] reserves this much per move.
const MOVE_BYTES: usize = 224;

/// About the length of the JSON line of `game`, so that its buffer is allocated once.
fn size_hint(game: &Game) -> usize {
    fn moves(line: &Line) -> usize {
        line.moves.len()
            + line
                .moves
                .iter()
                .flat_map(|n| n.variations())
                .map(moves)
                .sum::<usize>()
    }
    // the text holds the tags (written twice), comments and `written` fields
    1024 + 2 * game.source.text.len()
        + MOVE_BYTES * moves(&game.moves)
        + 256 * game.diagnostics.len()
}

/// Writes a line as an array of move objects, leaving `board` after its last move.
fn write_line(b: &mut Vec<u8>, ctx: &mut Ctx<'_>, board: &mut Board, line: &Line) {
    b.push(b'[');
    // every move, a null one too, passes the turn: one ply each
    let first_ply = u64::from(board.ply());
    for (i, node) in line.moves.iter().enumerate() {
        if i > 0 {
            b.extend_from_slice(b",{\"ply\":");
        } else {
            b.extend_from_slice(b"{\"ply\":");
        }
        push_u64(b, first_ply + i as u64);
        // the position before the move, for its variations
        let before = (!node.variations().is_empty()).then(|| board.clone());
        let span = (!node.span.is_empty()).then_some(node.span);
        let written = span.map(|s| s.slice(&ctx.game.source.text));
        if let (Some(letters), Board::Chess(p), AnyMove::Chess(m), Some(hint)) =
            (&ctx.letters, &mut *board, &node.mv, node.san)
        {
            let fast = FastMove {
                letters,
                style: &ctx.style.chess,
                chess960: p.chess960(),
            };
            push_hinted_fields(b, &fast, m, hint, written);
            p.play_pieces(m);
        } else {
            push_uci_field(b, board, &node.mv);
            push_san(b, ctx, board, node);
            push_written(b, written);
        }
        push_location(b, &mut ctx.lines, span);
        // comments before the first move of the line belong to it in JSON
        let pre = if i == 0 { &line.comments[..] } else { &[] };
        if is_plain(node) && pre.is_empty() {
            b.extend_from_slice(PLAIN_TAIL[0]);
            b.extend_from_slice(PLAIN_TAIL[1]);
            continue;
        }
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
}

/// Appends the move's notation as [`Board::write_and_play`] writes it (escaped) and
/// plays it; the usual chess move straight into `b`.
///
/// A chess move with its [`crate::game::SanHint`] is written from the hint, and the
/// board only follows the pieces ([`crate::chess::Position::play_pieces`]); the pieces
/// giving check are brought up to date before a move without one.
fn push_san(b: &mut Vec<u8>, ctx: &mut Ctx<'_>, board: &mut Board, node: &MoveNode) {
    let mv = &node.mv;
    if let (Board::Chess(p), AnyMove::Chess(m), Some(hint)) = (&mut *board, mv, node.san) {
        if ctx.plain_moves {
            write_san_hinted_into(b, m, hint, &ctx.style.chess);
        } else {
            ctx.tok.clear();
            write_san_hinted_into(&mut ctx.tok, m, hint, &ctx.style.chess);
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
        && super::write_fast_san(b, p, m, ctx.style.chess.table)
    {
        p.play_unchecked(m);
        if ctx.style.chess.check_marks && p.is_check() {
            b.push(if p.has_legal_moves() { b'+' } else { b'#' });
        }
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

/// The piece letters of a style as bytes, by [`crate::chess::Role::index`]: each
/// letter's bytes (the first `len`) and `len`.
type Letters = [([u8; 4], usize); 6];

/// The letters of `table` as [`Letters`], when none is longer than four bytes.
fn short_letters(table: &crate::notation::chess::PieceTable) -> Option<Letters> {
    let mut out = [([0; 4], 0); 6];
    for role in crate::chess::Role::ALL {
        let l = table.letter(role).as_bytes();
        let slot = out.get_mut(role.index())?;
        slot.0.get_mut(..l.len())?.copy_from_slice(l);
        slot.1 = l.len();
    }
    Some(out)
}

/// The end of the `san` field and the `written` field: `","written":"…"` or
/// `","written":null`.
fn push_written(b: &mut Vec<u8>, written: Option<&str>) {
    match written {
        Some(w) => {
            b.extend_from_slice(b"\",\"written\":\"");
            push_escaped(b, w);
            b.push(b'"');
        }
        None => b.extend_from_slice(b"\",\"written\":null"),
    }
}

/// What [`push_hinted_fields`] needs of the style and the game.
struct FastMove<'a> {
    letters: &'a Letters,
    style: &'a crate::notation::chess::SanStyle,
    chess960: bool,
}

/// `,"uci":"…","san":"…","written":…` of a chess move, its SAN from its hint (as
/// [`write_san_hinted_into`] writes it), the usual move in one piece.
fn push_hinted_fields(
    b: &mut Vec<u8>,
    fast: &FastMove<'_>,
    m: &crate::chess::Move,
    hint: crate::game::SanHint,
    written: Option<&str>,
) {
    use crate::chess::{Move, Role, Square};
    const LEN: usize = 96;
    /// The longest `written` text copied with the rest.
    const SHORT: usize = 32;
    let (letters, style, chess960) = (fast.letters, fast.style, fast.chess960);
    fn put(t: &mut [u8; LEN], n: &mut usize, bytes: &[u8]) {
        for &c in bytes {
            if let Some(slot) = t.get_mut(*n) {
                *slot = c;
            }
            *n += 1;
        }
    }
    fn square(s: Square) -> [u8; 2] {
        [b'a' + s.file().index(), b'1' + s.rank().index()]
    }
    let mut t = [0u8; LEN];
    let mut n = 0;
    put(&mut t, &mut n, b",\"uci\":\"");
    let (from, to) = match *m {
        Move::Castle { king, rook } if chess960 => (king, rook),
        _ => (m.from(), m.to()),
    };
    put(&mut t, &mut n, &square(from));
    put(&mut t, &mut n, &square(to));
    if let Some(p) = m.promotion() {
        put(
            &mut t,
            &mut n,
            &[u8::try_from(p.lower_char()).unwrap_or(b'?')],
        );
    }
    put(&mut t, &mut n, b"\",\"san\":\"");
    match *m {
        Move::Castle { king, rook } => {
            let queen_side = rook.file() < king.file();
            put(
                &mut t,
                &mut n,
                match (queen_side, style.castle_zeros) {
                    (false, false) => b"O-O",
                    (true, false) => b"O-O-O",
                    (false, true) => b"0-0",
                    (true, true) => b"0-0-0",
                },
            );
        }
        _ => {
            let role = m.role();
            let letter = |r: Role| {
                let (l, len) = &letters[r.index()];
                l.get(..*len).unwrap_or(&[])
            };
            if role != Role::Pawn {
                put(&mut t, &mut n, letter(role));
            }
            if hint.file {
                put(&mut t, &mut n, &[b'a' + from.file().index()]);
            }
            if hint.rank {
                put(&mut t, &mut n, &[b'1' + from.rank().index()]);
            }
            if m.is_capture() {
                put(&mut t, &mut n, b"x");
            }
            put(&mut t, &mut n, &square(m.to()));
            if let Some(p) = m.promotion() {
                if style.promotion_eq {
                    put(&mut t, &mut n, b"=");
                }
                put(&mut t, &mut n, letter(p));
            }
        }
    }
    if style.check_marks && hint.check {
        put(&mut t, &mut n, if hint.mate { b"#" } else { b"+" });
    }
    // the written text, when it is short and needs no escape
    let mut rest = None;
    match written {
        None => put(&mut t, &mut n, b"\",\"written\":null"),
        Some(w) if w.len() <= SHORT => {
            let mark = n;
            put(&mut t, &mut n, b"\",\"written\":\"");
            let mut plain = true;
            for &c in w.as_bytes() {
                plain &= PLAIN[usize::from(c)];
                if let Some(slot) = t.get_mut(n) {
                    *slot = c;
                }
                n += 1;
            }
            put(&mut t, &mut n, b"\"");
            if !plain {
                n = mark;
                rest = written;
            }
        }
        Some(_) => rest = written,
    }
    // all of the array at once, then the unused bytes cut off
    b.extend_from_slice(&t);
    b.truncate(b.len() - (LEN - n.min(LEN)));
    if rest.is_some() {
        push_written(b, rest);
    }
}

/// `,"uci":"…","san":"` with the move's coordinates; four of them (all but UCI
/// promotions) in one piece.
fn push_uci_field(b: &mut Vec<u8>, board: &Board, mv: &AnyMove) {
    let (c, len) = coords(board, mv);
    if len == 4 {
        let mut field = *b",\"uci\":\"....\",\"san\":\"";
        field[8..12].copy_from_slice(&c[..4]);
        b.extend_from_slice(&field);
    } else {
        b.extend_from_slice(b",\"uci\":\"");
        b.extend_from_slice(c.get(..len).unwrap_or(&[]));
        b.extend_from_slice(b"\",\"san\":\"");
    }
}

/// What [`Board::write_coords`] writes (UCI for chess, ICCS for xiangqi: letters and
/// digits, nothing to escape), as bytes: the first `len` of the array.
fn coords(board: &Board, mv: &AnyMove) -> ([u8; 5], usize) {
    match (board, mv) {
        (_, AnyMove::Null) => (*b"0000 ", 4),
        (_, AnyMove::Chess(m)) => {
            let chess960 = matches!(board, Board::Chess(p) if p.chess960());
            let to = match *m {
                crate::chess::Move::Castle { rook, .. } if chess960 => rook,
                _ => m.to(),
            };
            let from = m.from();
            let mut c = [
                b'a' + from.file().index(),
                b'1' + from.rank().index(),
                b'a' + to.file().index(),
                b'1' + to.rank().index(),
                b' ',
            ];
            match m.promotion() {
                Some(p) => {
                    c[4] = u8::try_from(p.lower_char()).unwrap_or(b'?');
                    (c, 5)
                }
                None => (c, 4),
            }
        }
        (_, AnyMove::Xiangqi(m)) => (
            [
                b'a' + m.from.file(),
                b'0' + m.from.rank(),
                b'a' + m.to.file(),
                b'0' + m.to.rank(),
                b' ',
            ],
            4,
        ),
    }
}

/// Whether the fields after `column` of `node`'s object are those of [`PLAIN_TAIL`]
/// (comments before a line's first move aside).
fn is_plain(node: &MoveNode) -> bool {
    !node.has_extras() && node.clock.is_none() && !node.draw_offer && !node.illegal
}

fn kind_name(game: &Game) -> &'static str {
    match game.kind() {
        crate::game::GameKind::Chess => "chess",
        crate::game::GameKind::Xiangqi => "xiangqi",
    }
}

fn status_name(game: &Game) -> &'static str {
    match game.status() {
        crate::game::Status::Clean => "clean",
        crate::game::Status::Repaired => "repaired",
        crate::game::Status::Partial => "partial",
        crate::game::Status::Failed => "failed",
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

/// `,"line":…,"column":…` for a span (nulls without one).
fn push_location(b: &mut Vec<u8>, lines: &mut Lines<'_>, span: Option<Span>) {
    match span {
        Some(s) => push_location_at(b, lines, s.start as usize),
        None => b.extend_from_slice(b",\"line\":null,\"column\":null"),
    }
}

/// `,"line":…,"column":…` for the text at `offset`.
fn push_location_at(b: &mut Vec<u8>, lines: &mut Lines<'_>, offset: usize) {
    let column = lines.field_for(offset);
    // all of the array at once (no call), then the unused bytes cut off
    b.extend_from_slice(&lines.field);
    b.truncate(b.len() - (FIELD - lines.field_len));
    push_u64(b, u64::from(column));
}

impl Lines<'_> {
    /// Locates `offset`, leaving `,"line":N,"column":` of its line in `field`, and
    /// returns its column.
    fn field_for(&mut self, offset: usize) -> u32 {
        let lc = self.cursor.locate(offset);
        // written again only when the line changes
        if self.field_line != Some(lc.line) {
            let mut f = Vec::with_capacity(FIELD);
            f.extend_from_slice(b",\"line\":");
            push_u64(&mut f, lc.line);
            f.extend_from_slice(b",\"column\":");
            self.field = [0; FIELD];
            for (slot, c) in self.field.iter_mut().zip(&f) {
                *slot = *c;
            }
            self.field_len = f.len().min(FIELD);
            self.field_line = Some(lc.line);
        }
        lc.column
    }
}

/// Locations of spans in a game's text.
struct Lines<'a> {
    cursor: LineCursor<'a>,
    /// The `line` field of the line `field_line`, with the key of `column`: the first
    /// `field_len` bytes.
    field: [u8; FIELD],
    field_len: usize,
    field_line: Option<u64>,
}

/// Room for `,"line":N,"column":` with the longest `N`.
const FIELD: usize = 40;

/// Line and column of byte offsets in one text, as
/// [`LineIndex::locate`](crate::diag::LineIndex::locate) gives them, for offsets
/// asked in increasing order (the moves of a game, in the order of its text): each
/// call reads only the bytes since the previous offset, and nothing is allocated. An
/// offset before the previous one reads again from the start of the previous
/// offset's line, or of the text.
struct LineCursor<'a> {
    text: &'a str,
    /// The 1-based number of the text's first line in its file.
    first_line: u64,
    /// The offset read up to.
    pos: usize,
    /// Line breaks (`\n`) before `pos`.
    breaks: u64,
    /// Offset of the start of the line holding `pos`.
    line_start: usize,
    /// Characters from `line_start` to `pos` (bytes that do not continue a UTF-8
    /// sequence); not kept for an ASCII text, where they are bytes.
    chars: usize,
    /// The text is ASCII.
    ascii: bool,
}

impl<'a> LineCursor<'a> {
    fn new(text: &'a str, first_line: u64) -> LineCursor<'a> {
        LineCursor {
            text,
            first_line,
            pos: 0,
            breaks: 0,
            line_start: 0,
            chars: 0,
            ascii: text.is_ascii(),
        }
    }

    fn locate(&mut self, offset: usize) -> LineCol {
        let offset = offset.min(self.text.len());
        if offset < self.pos {
            if offset < self.line_start {
                self.breaks = 0;
                self.line_start = 0;
            }
            self.pos = self.line_start;
            self.chars = 0;
        }
        let bytes = self.text.as_bytes().get(self.pos..offset).unwrap_or(&[]);
        if self.ascii {
            // the last line break first: the usual span has none before it
            if let Some(last) = bytes.iter().rposition(|&c| c == b'\n') {
                let before = bytes.get(..last).unwrap_or(&[]);
                self.breaks += 1 + before.iter().filter(|&&c| c == b'\n').count() as u64;
                self.line_start = self.pos + last + 1;
            }
            self.pos = offset;
            return self.here(offset - self.line_start);
        }
        for (i, &c) in bytes.iter().enumerate() {
            if c == b'\n' {
                self.breaks += 1;
                self.line_start = self.pos + i + 1;
                self.chars = 0;
            } else if !is_continuation(c) {
                self.chars += 1;
            }
        }
        self.pos = offset;
        // inside a character, `LineIndex` counts bytes
        let column = if self.text.is_char_boundary(offset) {
            self.chars
        } else {
            offset - self.line_start
        };
        self.here(column)
    }

    /// The location on the current line at 0-based `column`.
    fn here(&self, column: usize) -> LineCol {
        LineCol {
            line: self.first_line + self.breaks,
            column: u32::try_from(column).unwrap_or(u32::MAX).saturating_add(1),
        }
    }
}

/// Whether `c` continues a UTF-8 sequence (`10xxxxxx`).
const fn is_continuation(c: u8) -> bool {
    c & 0xC0 == 0x80
}

/// `"H:MM:SS"` (a fraction only when there is one) as [`Clock`]'s `Display`, or
/// `null`.
fn push_clock(b: &mut Vec<u8>, c: Option<Clock>) {
    let Some(c) = c else {
        b.extend_from_slice(b"null");
        return;
    };
    let secs = c.millis / 1000;
    b.push(b'"');
    push_u64(b, secs / 3600);
    b.push(b':');
    push_two_digits(b, secs / 60 % 60);
    b.push(b':');
    push_two_digits(b, secs % 60);
    let ms = c.millis % 1000;
    if ms != 0 {
        b.push(b'.');
        let keep = if ms % 100 == 0 {
            1
        } else if ms % 10 == 0 {
            2
        } else {
            3
        };
        for d in [ms / 100, ms / 10, ms].iter().take(keep) {
            b.push(digit(*d));
        }
    }
    b.push(b'"');
}

/// `v % 100` in two digits.
fn push_two_digits(b: &mut Vec<u8>, v: u64) {
    b.extend_from_slice(&[digit(v / 10), digit(v)]);
}

/// The ASCII decimal digit of `d % 10`.
fn digit(d: u64) -> u8 {
    b'0' + (d % 10) as u8
}

/// The ASCII lowercase hexadecimal digit of `d & 0xF`.
fn hex_digit(d: u8) -> u8 {
    let d = d & 0xF;
    if d < 10 { b'0' + d } else { b'a' + d - 10 }
}

/// Appends a decimal number; the small ones of move objects (plies, columns, most
/// line numbers) without a buffer.
fn push_u64(b: &mut Vec<u8>, v: u64) {
    if v < 10 {
        b.push(digit(v));
    } else if let Some(pair) = usize::try_from(v).ok().and_then(|i| PAIRS.get(i)) {
        b.extend_from_slice(pair);
    } else if v < 1000 {
        b.extend_from_slice(&[digit(v / 100), digit(v / 10), digit(v)]);
    } else {
        b.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
    }
}

/// `00` to `99`.
const PAIRS: [[u8; 2]; 100] = {
    let mut t = [[0; 2]; 100];
    let mut i = 0;
    while i < 100 {
        t[i] = [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8];
        i += 1;
    }
    t
};

/// Bytes that stand for themselves in a JSON string: not a control character, `"`
/// or `\`, nor `0xE2`, which may start U+2028 or U+2029 (escaped, for JavaScript).
const PLAIN: [bool; 256] = {
    let mut t = [true; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = false;
        c += 1;
    }
    t[b'"' as usize] = false;
    t[b'\\' as usize] = false;
    t[0xE2] = false;
    t
};

/// Whether `s` needs an escape in a JSON string.
fn needs_escape(s: &str) -> bool {
    !s.bytes().all(|c| PLAIN[usize::from(c)])
        && (s.bytes().any(|c| c < 0x20 || c == b'"' || c == b'\\')
            || s.contains(['\u{2028}', '\u{2029}']))
}

/// Appends `s` as a JSON string literal (`"`, `\\`, control characters, U+2028 and
/// U+2029 escaped).
fn push_str(b: &mut Vec<u8>, s: &str) {
    b.push(b'"');
    push_escaped(b, s);
    b.push(b'"');
}

/// Appends the inside of `s` as a JSON string literal: see [`push_str`].
fn push_escaped(b: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    // the usual string needs no escape: short ones (move text) copied while they are
    // read, longer ones read, then copied at once
    if bytes.len() <= 8 {
        let at = b.len();
        b.reserve(bytes.len());
        for &c in bytes {
            if !PLAIN[usize::from(c)] {
                b.truncate(at);
                return push_escaped_slow(b, bytes);
            }
            b.push(c);
        }
        return;
    }
    if bytes.iter().all(|&c| PLAIN[usize::from(c)]) {
        b.extend_from_slice(bytes);
        return;
    }
    push_escaped_slow(b, bytes);
}

/// [`push_escaped`] of a string that needs an escape.
fn push_escaped_slow(b: &mut Vec<u8>, bytes: &[u8]) {
    let mut start = 0;
    for (i, &c) in bytes.iter().enumerate() {
        if PLAIN[usize::from(c)] || i < start {
            continue;
        }
        let esc: &[u8] = match c {
            // U+2028 / U+2029 are E2 80 A8 / E2 80 A9; other E2 sequences pass
            0xE2 => match (bytes.get(i + 1), bytes.get(i + 2)) {
                (Some(0x80), Some(0xA8)) => b"\\u2028",
                (Some(0x80), Some(0xA9)) => b"\\u2029",
                _ => continue,
            },
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            c => &[b'\\', b'u', b'0', b'0', hex_digit(c >> 4), hex_digit(c)],
        };
        b.extend_from_slice(bytes.get(start..i).unwrap_or(&[]));
        b.extend_from_slice(esc);
        start = i + if c == 0xE2 { 3 } else { 1 };
    }
    b.extend_from_slice(bytes.get(start..).unwrap_or(&[]));
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::diag::LineIndex;

    fn quoted(s: &str) -> String {
        let mut b = Vec::new();
        push_str(&mut b, s);
        String::from_utf8(b).unwrap()
    }

    #[test]
    fn string_escapes() {
        let cases = [
            ("", "\"\""),
            ("abc", "\"abc\""),
            ("a\"b\\c", "\"a\\\"b\\\\c\""),
            ("l1\nl2\t", "\"l1\\nl2\\t\""),
            ("\u{1}x", "\"\\u0001x\""),
            ("\u{1f}\r", "\"\\u001f\\r\""),
            ("Trắng", "\"Trắng\""),
            ("a\u{2028}b…", "\"a\\u2028b…\""),
            ("\u{2029}", "\"\\u2029\""),
            ("♘f3", "\"♘f3\""),
            // long strings take the read-then-copy path
            (
                "a long comment \"quoted\"\u{2028}…\u{7}",
                "\"a long comment \\\"quoted\\\"\\u2028…\\u0007\"",
            ),
            (
                "a long comment, nothing to escape",
                "\"a long comment, nothing to escape\"",
            ),
        ];
        for (s, want) in cases {
            let got = quoted(s);
            assert_eq!(got, want);
            let back: String = serde_json::from_str(&got).unwrap();
            assert_eq!(back, s);
            assert_eq!(needs_escape(s), got.len() != s.len() + 2, "{s:?}");
        }
    }

    #[test]
    fn numbers() {
        let mut cases = vec![u64::MAX, 99_999_999, 100_000_000, 123_456_789];
        cases.extend(0..=1100);
        cases.extend((1..20).map(|e| 10u64.pow(e) - 1));
        for n in cases {
            let mut b = Vec::new();
            push_u64(&mut b, n);
            assert_eq!(String::from_utf8(b).unwrap(), n.to_string());
        }
    }

    #[test]
    fn clocks_as_display() {
        for millis in [
            0,
            5,
            50,
            120,
            200,
            999,
            1000,
            5_200,
            59_999,
            60_000,
            3_599_000,
            3_600_000,
            5_400_000,
            5_400_010,
            36_000_000,
            359_999_999,
            400_000_001,
        ] {
            let c = Clock { millis };
            let mut b = Vec::new();
            push_clock(&mut b, Some(c));
            assert_eq!(String::from_utf8(b).unwrap(), format!("\"{c}\""));
        }
        let mut b = Vec::new();
        push_clock(&mut b, None);
        assert_eq!(b, b"null");
    }

    #[test]
    fn severities_as_display() {
        for s in [Severity::Note, Severity::Warning, Severity::Error] {
            assert_eq!(severity_name(s), s.to_string());
        }
    }

    #[test]
    fn cursor_agrees_with_line_index() {
        let texts = [
            "",
            "1. e4 e5 2. Nf3\n",
            "[Event \"x\"]\r\n\r\n1. e4 ệ5 Nf3\r\n2. 中 \t\tNc6 😀 a6\n\n",
            "\t\t1.\te4\r\n\te5 {Trắng đi trước}\r\n 2. Nf3",
            "\n\n\n",
            "ééé\néé\r\né",
        ];
        for text in texts {
            let index = LineIndex::new(text, 7);
            let want = |o: usize| index.locate(text, o);
            // in increasing order, every offset (inside characters and past the end too)
            let mut cursor = LineCursor::new(text, 7);
            for o in 0..=text.len() + 2 {
                assert_eq!(cursor.locate(o), want(o), "{text:?} at {o}");
            }
            // going back, by small and large steps, then forward again
            let mut cursor = LineCursor::new(text, 7);
            let len = text.len();
            let order = [len, len / 2, len / 2 + 1, len / 3, 0, len, 1, len / 4, len];
            for o in order {
                assert_eq!(cursor.locate(o), want(o), "{text:?} at {o}");
            }
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
                let mut got = Vec::new();
                push_uci_field(&mut got, board, mv);
                let field = format!(",\"uci\":\"{want}\",\"san\":\"");
                assert_eq!(String::from_utf8(got).unwrap(), field);
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
        use crate::notation::chess::{SanStyle, table};
        let fens = [
            crate::chess::START_FEN,
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
            "7k/8/8/1Q3Q2/8/8/8/1Q2K3 w - - 0 1",
            "r3k2r/1P6/8/3N1N2/8/8/6p1/R3K2R b KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/2P5/8/PP1P1PPP/RNBQKBNR w KQkq f6 0 3",
            "6k1/5ppp/8/8/8/8/8/R3K2R w KQ - 0 1",
            "4k3/8/3p1p2/4P3/8/8/8/4K3 w - - 0 1",
        ];
        let styles = [
            SanStyle::pgn(),
            SanStyle::figurine(),
            SanStyle::fide(table("vi").unwrap()),
            SanStyle {
                check_marks: false,
                ..SanStyle::pgn()
            },
        ];
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
                        lines: Lines {
                            cursor: LineCursor::new("", 1),
                            field: [0; FIELD],
                            field_len: 0,
                            field_line: None,
                        },
                        tok: String::new(),
                        plain_moves: plain_moves(&style),
                        letters: None,
                    };
                    let mut board = Board::Chess(pos.clone());
                    let mut got = Vec::new();
                    let node = MoveNode::new(mv, Span::default());
                    push_san(&mut got, &mut ctx, &mut board, &node);
                    assert_eq!(String::from_utf8(got).unwrap(), want, "{fen} {m:?}");
                    assert_eq!(board.fen(), after.fen());
                }
            }
        }
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
