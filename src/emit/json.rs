//! JSON Lines writer: one object per game, one game per line.
//!
//! The object layout is published as a JSON Schema (draft 2020-12) at
//! `docs/schema/game.schema.json`; every object carries `"schema_version": "1"`. The
//! writer is hand-written over one reused `String` per writer (no allocation per move
//! beyond the per-game line index), and writes each game with one `write_all`.

use std::io;

use super::{Board, MoveStyle};
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
}

impl JsonRenderer {
    pub fn new(opts: &JsonOptions) -> JsonRenderer {
        JsonRenderer {
            style: opts.moves,
            plain_moves: plain_moves(&opts.moves),
            san_words: SanWords::new(&opts.moves.chess),
        }
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

/// The writer's output: `bytes`, of which the first `len` are written.
///
/// The bytes are never cut back to `len`. Safe code can only lengthen a `Vec` by
/// writing what it adds (zeros, as room to be written over), so a buffer kept at its
/// full length is reused without that second store of every byte: the moves of the
/// usual kind are written in place into the room past `len` ([`put_plain_run`]), and
/// a buffer is zeroed only where it grows, once in its life, whether the writer keeps
/// it from game to game ([`JsonWriter`]) or a caller hands it back
/// ([`JsonBuf::from_vec`]).
#[derive(Debug, Default)]
pub struct JsonBuf {
    bytes: Vec<u8>,
    len: usize,
}

impl JsonBuf {
    /// An empty buffer whose room is the whole of `bytes` (written over, not read).
    pub fn from_vec(bytes: Vec<u8>) -> JsonBuf {
        JsonBuf { bytes, len: 0 }
    }

    /// What is written.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or(&[])
    }

    /// Forgets what is written, keeping the room.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The whole vector and how many of its first bytes are written: the vector can be
    /// handed back to [`JsonBuf::from_vec`] without being zeroed again.
    pub fn into_parts(self) -> (Vec<u8>, usize) {
        (self.bytes, self.len)
    }

    /// What is written, as a vector of its own length.
    pub fn into_written(self) -> Vec<u8> {
        let mut bytes = self.bytes;
        bytes.truncate(self.len);
        bytes
    }

    /// How many bytes are written.
    fn len(&self) -> usize {
        self.len
    }

    /// Forgets what is written past `len`.
    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Makes the bytes at least `end` long, and half as long again as before (zeros
    /// as room), keeping the first `keep` (those written, and those written in place
    /// past them and not yet counted: see [`put_plain_run`]): in a new vector that
    /// only they are copied to (a `Vec` growing in place would copy its room too).
    #[cold]
    #[inline(never)]
    fn grow(&mut self, keep: usize, end: usize) {
        let want = end.max(self.bytes.len() / 2 * 3).max(256);
        // allocated zeroed: memory fresh from the system is not zeroed again
        let mut bytes = vec![0; want];
        let keep = keep.max(self.len);
        if let (Some(to), Some(from)) = (bytes.get_mut(..keep), self.bytes.get(..keep)) {
            to.copy_from_slice(from);
        }
        self.bytes = bytes;
    }

    /// Makes room for `n` more bytes past what is written.
    fn reserve(&mut self, n: usize) {
        let end = self.len.saturating_add(n);
        if end > self.bytes.len() {
            self.grow(self.len, end);
        }
    }

    /// The `K` bytes of room at `at` (made when there is too little, keeping the
    /// bytes before `at`), written over in place.
    #[inline(always)]
    fn room_at<const K: usize>(&mut self, at: usize) -> Option<&mut [u8; K]> {
        if self.bytes.len() < at.checked_add(K)? {
            self.grow(at, at + K);
        }
        <&mut [u8; K]>::try_from(self.bytes.get_mut(at..at + K)?).ok()
    }

    /// Appends `s`.
    #[inline(always)]
    fn extend_from_slice(&mut self, s: &[u8]) {
        let (at, end) = (self.len, self.len.saturating_add(s.len()));
        if end > self.bytes.len() {
            self.grow(at, end);
        }
        if let Some(to) = self.bytes.get_mut(at..end) {
            to.copy_from_slice(s);
            self.len = end;
        }
    }

    /// Appends a byte.
    #[inline(always)]
    fn push(&mut self, c: u8) {
        if self.len >= self.bytes.len() {
            self.grow(self.len, self.len + 1);
        }
        if let Some(to) = self.bytes.get_mut(self.len) {
            *to = c;
            self.len += 1;
        }
    }
}

impl SanOut for JsonBuf {
    fn push_ascii(&mut self, c: u8) {
        self.push(c);
    }
    fn push_text(&mut self, s: &str) {
        self.extend_from_slice(s.as_bytes());
    }
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
        plain_path,
        san_words: &r.san_words,
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
        push_str(b, d.code);
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
    // took the square of its length (100 000 tags: minutes)
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

/// Longest tag list [`put_plain_tags`] writes.
const PLAIN_TAGS: usize = 32;

/// Room of [`put_plain_tags`] (a power of two): for tags whose text (twice) and signs
/// ([`plain_tags_fit`]) fit in it.
const TAGS_ROOM: usize = 1024;

/// Whether [`put_plain_tags`] writes tags of `text_len` bytes in `items` items: they
/// fit in [`TAGS_ROOM`] with room for a piece of 16 bytes written past them (each
/// tag's signs take 14 bytes, and 14 more once).
fn plain_tags_fit(text_len: usize, items: usize) -> bool {
    items <= PLAIN_TAGS && 2 * text_len + 16 * items + 16 <= TAGS_ROOM
}

/// Appends what [`put_tags`] appends and returns `true` when no name or value needs an
/// escape and the tags fit ([`plain_tags_fit`]; otherwise `false`, and nothing
/// appended): every name and value is copied from the tags' text
/// ([`crate::model::game::Tags::raw_parts`]) in pieces of 16 bytes into room of a fixed
/// size in `b`; names are compared for the first value of each name only when a mask
/// of their words says they may repeat.
fn put_plain_tags(b: &mut JsonBuf, tags: &crate::model::game::Tags) -> bool {
    let (text, items) = tags.raw_parts();
    let text = text.as_bytes();
    if !plain_tags_fit(text.len(), items.len()) || !all_plain(text) {
        return false;
    }
    let at = b.len();
    let Some(room) = b.room_at::<{ TAGS_ROOM + 16 }>(at) else {
        return false;
    };
    let len = fill_plain_tags(room, text, items);
    b.len = at + len;
    true
}

/// [`put_plain_tags`] into `room`: the length written. Every offset written at is
/// below [`TAGS_ROOM`] ([`plain_tags_fit`]): taken below it by a mask, which changes
/// none but spares the checks of the room's length.
fn fill_plain_tags(
    room: &mut [u8; TAGS_ROOM + 16],
    text: &[u8],
    items: &[(usize, usize, usize)],
) -> usize {
    // each name as its length and its first eight bytes, compared at once
    let mut keys = [(0, 0); PLAIN_TAGS];
    for (key, &(a, b, _)) in keys.iter_mut().zip(items) {
        *key = (b - a, head_word(text, a, b));
    }
    let o = &mut 0;
    let mut first = true;
    // a bit for each name written, picked by its key: only a name whose bit is set
    // may repeat one
    let mut seen = 0u64;
    for (i, (&(a, b, c), key)) in items.iter().zip(&keys).enumerate() {
        let bit = 1u64 << ((key.1 ^ key.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58);
        // first value of a name wins; the full list is in `tag_list`
        let repeat = seen & bit != 0
            && items.iter().zip(&keys).take(i).any(|(&(a2, b2, _), k)| {
                k == key && (key.0 <= 8 || text.get(a2..b2) == text.get(a..b))
            });
        seen |= bit;
        if repeat {
            continue;
        }
        // the first pair without its comma
        put_tag(
            room,
            o,
            if first { b"\"\"" } else { b",\"" },
            2 - usize::from(first),
        );
        first = false;
        copy_text(room, o, text, a, b);
        put_tag(room, o, b"\":\"", 3);
        copy_text(room, o, text, b, c);
        put_tag(room, o, b"\"", 1);
    }
    put_tag(room, o, b"},\"tag_list\":[", 14);
    for (i, &(a, b, c)) in items.iter().enumerate() {
        put_tag(
            room,
            o,
            if i > 0 { b",[\"" } else { b"[\"\"" },
            3 - usize::from(i == 0),
        );
        copy_text(room, o, text, a, b);
        put_tag(room, o, b"\",\"", 3);
        copy_text(room, o, text, b, c);
        put_tag(room, o, b"\"]", 2);
    }
    *o
}

/// The first eight bytes of `text[a..b]` (zeros past `b`) as a word.
fn head_word(text: &[u8], a: usize, b: usize) -> u64 {
    let mut word = [0; 8];
    let name = text.get(a..b).unwrap_or(&[]);
    for (w, &c) in word.iter_mut().zip(name) {
        *w = c;
    }
    u64::from_le_bytes(word)
}

/// Copies all of `s` into `room` at `*at` (below [`TAGS_ROOM`]: see
/// [`fill_plain_tags`]) and counts `n` of its bytes as used (at most `K`: the rest is
/// room written over later).
#[inline(always)]
fn put_tag<const K: usize>(room: &mut [u8; TAGS_ROOM + 16], at: &mut usize, s: &[u8; K], n: usize) {
    const { assert!(K <= 16 && TAGS_ROOM.is_power_of_two()) };
    let from = *at & (TAGS_ROOM - 1);
    if let Some(to) = room.get_mut(from..from + K) {
        to.copy_from_slice(s);
    }
    *at = from + n;
}

/// Copies `text[from..to]` into `room` at `*o` (below [`TAGS_ROOM`]: see
/// [`fill_plain_tags`]) in pieces of 16 bytes (read past `to` while `text` goes on,
/// written past the copy in `room`, which is room), and counts its bytes.
#[inline(always)]
fn copy_text(room: &mut [u8; TAGS_ROOM + 16], o: &mut usize, text: &[u8], from: usize, to: usize) {
    let len = to.saturating_sub(from);
    let mut p = 0;
    while p < len {
        let (at, q) = (from + p, (*o + p) & (TAGS_ROOM - 1));
        let Some(piece) = text
            .get(at..at + 16)
            .and_then(|s| <&[u8; 16]>::try_from(s).ok())
        else {
            // the end of the text: less than 16 bytes
            copy_exact(room.get_mut(q..q + 16), text.get(at..to));
            break;
        };
        if let Some(to) = room.get_mut(q..q + 16) {
            to.copy_from_slice(piece);
        }
        p += 16;
    }
    *o += len;
}

/// Copies `s` to the start of `room` when both are there and it fits.
#[cold]
#[inline(never)]
fn copy_exact(room: Option<&mut [u8]>, s: Option<&[u8]>) {
    if let (Some(room), Some(s)) = (room, s)
        && let Some(to) = room.get_mut(..s.len())
    {
        to.copy_from_slice(s);
    }
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
const PLAIN_TAIL: &[u8; 100] = b",\"comments\":[],\"nags\":[],\"clock\":null,\"emt\":null,\
\"draw_offer\":false,\"illegal\":false,\"variations\":[]}";

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
            (Board::Chess(_), AnyMove::Chess(m), Some(hint)) if ctx.plain_moves => Some((m, hint)),
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

/// Appends the objects of the moves of the usual kind at the head of `nodes` (see
/// [`put_plain_move`]), as the general path of [`write_line`] writes them, and returns
/// how many: the objects of a run of such moves go one after the other into the room
/// of `b` ([`JsonBuf`]), counted as written at the end of the run. `first`: the first of
/// `nodes` is its line's first move; `ply`: its ply; `chess960`: the game's castling
/// is written king-takes-rook in UCI.
///
/// Not inlined into [`write_line`]: on its own, the loop keeps its values in
/// registers rather than on the stack, which the general path's did not leave free.
#[inline(never)]
fn put_plain_run(
    b: &mut JsonBuf,
    ctx: &mut Ctx<'_>,
    nodes: &[MoveNode],
    first: bool,
    ply: u64,
    chess960: bool,
) -> usize {
    let start = b.len();
    // The first move of a line is written as the others, with a comma before it, over
    // the line's `[` just written (put back after it).
    let first = first && b.as_bytes().last() == Some(&b'[');
    let mut end = start - usize::from(first);
    let mut n = 0;
    // what the moves read of the context, taken out of it once
    let (text, words, lines) = (&ctx.game.source.text, ctx.san_words, &mut ctx.lines);
    for node in nodes {
        let Some(len) = put_plain_move(b, end, (text, words, lines), node, ply + n, chess960)
        else {
            break;
        };
        end += len;
        n += 1;
    }
    // (also when no move was written: the room may have grown without it)
    if first && let Some(open) = b.bytes.get_mut(start - 1) {
        *open = b'[';
    }
    if n > 0 {
        b.len = end;
    }
    n as usize
}

/// Writes the object of a move of the usual kind at `at` in `b`, as the general path
/// of [`write_line`] writes it, into the room of `b` past `at` (made when there is
/// too little; what is past the object stays room: see [`put_plain_run`]), and
/// returns its length: a chess move with its [`crate::model::game::SanHint`], without
/// comment, NAG, clock, draw offer or variation, not illegal, written in the text (a
/// span) as up to eight bytes that need no escape, with a ply and a column below 1000
/// (the first move of a line: without comments before it, which the caller checks).
/// Every other move is left to the general path: `None`, and nothing written before
/// `at`.
///
/// The pieces are copied at lengths known when compiling ([`put_in`]); the SAN is put
/// together in a word ([`SanWords::san`]), compared with the move's text at once (a SAN
/// longer than eight bytes is left to the general path). The object starts with the comma that comes
/// between two (see [`put_plain_run`] for a line's first move). `ply`: its ply;
/// `chess960`: the game's castling is written king-takes-rook in UCI.
#[inline(always)]
fn put_plain_move(
    b: &mut JsonBuf,
    at: usize,
    (text, words, lines): (&str, &SanWords, &mut Lines<'_>),
    node: &MoveNode,
    ply: u64,
    chess960: bool,
) -> Option<usize> {
    let (AnyMove::Chess(m), Some(hint)) = (&node.mv, node.san) else {
        return None;
    };
    let span = node.span;
    let (start, len) = (span.start as usize, span.len() as usize);
    if !is_plain(node) || len == 0 || len > 8 {
        return None;
    }
    let word = <[u8; 8]>::try_from(text.as_bytes().get(start..start + 8)?).ok()?;
    let ply = DIGITS.get(usize::try_from(ply).ok()?)?;
    let column = lines.column_digits(start)?;
    let san = words.san(m, hint);
    // the move written as its SAN (plain: see `plain_moves`) needs no more checks
    let keep = u64::MAX >> (64 - 8 * len);
    let as_san = san.len == len && (san.word ^ u64::from_le_bytes(word)) & keep == 0;
    if !as_san && !plain_written(text, start, len, word) {
        return None;
    }
    if san.len > 8 {
        return None;
    }
    let room = b.room_at::<SCRATCH>(at)?;
    let o = &mut 0;
    put_in(room, o, b",{\"ply\":", 8)?;
    put_in(room, o, ply, digits_len(ply))?;
    put_in(room, o, b",\"uci\":\"", 8)?;
    let (uci, uci_len) = chess_coords(m, chess960);
    put_in(room, o, &uci, uci_len)?;
    put_in(room, o, b"\",\"san\":\"", 9)?;
    put_in(room, o, &san.word.to_le_bytes(), san.len)?;
    put_in(room, o, b"\",\"written\":\"", 13)?;
    put_in(room, o, &word, len)?;
    put_in(room, o, b"\"", 1)?;
    put_in(room, o, &lines.field, lines.field_len)?;
    put_in(room, o, column, digits_len(column))?;
    put_in(room, o, PLAIN_TAIL, PLAIN_TAIL.len())?;
    Some(*o)
}

/// Copies all of `s` into `room` at `*at` and counts `n` of its bytes as used (at most
/// all: the rest is room written over later), for [`put_plain_move`]; `None`, and
/// nothing written, when `s` does not fit.
#[inline(always)]
fn put_in<const K: usize>(room: &mut [u8], at: &mut usize, s: &[u8; K], n: usize) -> Option<()> {
    room.get_mut(*at..*at + K)?.copy_from_slice(s);
    *at += n.min(K);
    Some(())
}

/// Whether the `len` bytes of `text` from `start` (up to 8, the first of `word`) are
/// written as they are in a JSON string: plain ASCII ([`plain_ascii_word`]), or whole
/// characters (as [`Span::slice`] takes them) that need no escape ([`needs_escape`]:
/// letters of other scripts, figurines, whose UTF-8 may start with the byte of
/// U+2028 and U+2029).
#[inline(never)]
fn plain_written(text: &str, start: usize, len: usize, word: [u8; 8]) -> bool {
    plain_ascii_word(u64::from_le_bytes(word), len)
        || text
            .get(start..start + len)
            .is_some_and(|w| !needs_escape(w))
}

/// Copies all of `s` into `bytes` at `*len` and counts `n` of its bytes as used
/// (`n` ≤ `s.len()`: the rest is room written over later); `false`, and nothing
/// written, when `s` does not fit: the copy of [`Out`].
#[inline(always)]
fn copy_at(bytes: &mut [u8], len: &mut usize, s: &[u8], n: usize) -> bool {
    match bytes.get_mut(*len..*len + s.len()) {
        Some(to) => {
            to.copy_from_slice(s);
            *len += n;
            true
        }
        None => false,
    }
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

/// Whether the fields after `column` of `node`'s object are those of [`PLAIN_TAIL`]
/// (comments before a line's first move aside).
fn is_plain(node: &MoveNode) -> bool {
    !node.has_extras() && node.clock.is_none() && !node.draw_offer && !node.illegal
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

/// Room of [`Out`]: a move object without comments, variations or long text.
const SCRATCH: usize = 256;

/// Output put together in a fixed array before it is appended to the buffer `b`
/// with one copy ([`Out::flush`]): each piece is copied at a known length without a
/// check of the buffer's capacity, the usual move object in one piece. A piece that
/// does not fit is appended to `b` after the bytes before it, so nothing is lost
/// whatever the lengths; what is left in the array must be flushed before `b` is
/// written otherwise.
struct Out<'a> {
    b: &'a mut JsonBuf,
    bytes: &'a mut [u8; SCRATCH],
    /// The bytes of the array in use.
    len: usize,
}

impl<'a> Out<'a> {
    /// Starts an empty piece of output to be appended to `b`, put together in `bytes`.
    fn new(b: &'a mut JsonBuf, bytes: &'a mut [u8; SCRATCH]) -> Out<'a> {
        Out { b, bytes, len: 0 }
    }

    /// Appends `s`.
    #[inline(always)]
    fn put(&mut self, s: &[u8]) {
        if !copy_at(self.bytes, &mut self.len, s, s.len()) {
            self.spill(s);
        }
    }

    /// Appends the first `n` bytes of `s` (all of it when `n` is larger), copying
    /// all of it: one copy of a known length, cheaper than one of `n` bytes.
    #[inline(always)]
    fn put_prefix<const K: usize>(&mut self, s: &[u8; K], n: usize) {
        let n = n.min(K);
        if !copy_at(self.bytes, &mut self.len, s, n) {
            self.spill(s.get(..n).unwrap_or(s));
        }
    }

    /// Appends what does not fit: the array's bytes, then `s`, to `b`.
    #[cold]
    #[inline(never)]
    fn spill(&mut self, s: &[u8]) {
        self.flush();
        self.b.extend_from_slice(s);
    }

    /// Appends the bytes of the array to `b` and empties it.
    fn flush(&mut self) {
        self.b
            .extend_from_slice(self.bytes.get(..self.len).unwrap_or(&[]));
        self.len = 0;
    }

    /// Appends a decimal number, as [`push_u64`].
    #[inline(always)]
    fn put_u64(&mut self, v: u64) {
        match usize::try_from(v).ok().and_then(|i| DIGITS.get(i)) {
            Some(d) => self.put_prefix(d, digits_len(d)),
            None => self.put(itoa::Buffer::new().format(v).as_bytes()),
        }
    }

    /// Appends the inside of `s` as a JSON string literal, as [`push_escaped`]: a
    /// string that needs no escape ([`all_plain`]) copied at once.
    #[inline(always)]
    fn put_escaped(&mut self, s: &str) {
        if all_plain(s.as_bytes()) {
            return self.put(s.as_bytes());
        }
        self.flush();
        push_escaped(self.b, s);
    }

    /// `,"uci":"…","san":"` with the coordinates of `mv` ([`coords`]).
    #[inline(always)]
    fn put_coords(&mut self, board: &Board, mv: &AnyMove) {
        let (c, len) = coords(board, mv);
        self.put(b",\"uci\":\"");
        self.put_prefix(&c, len);
        self.put(b"\",\"san\":\"");
    }

    /// Appends `n`, `sep` and `v`, the strings as JSON string literals ([`push_str`]);
    /// `plain`: neither needs an escape ([`all_plain`]).
    #[inline(always)]
    fn put_pair(&mut self, n: &str, sep: &[u8], v: &str, plain: bool) {
        if !plain {
            self.put_str(n);
            self.put(sep);
            return self.put_str(v);
        }
        self.put(b"\"");
        self.put(n.as_bytes());
        self.put(b"\"");
        self.put(sep);
        self.put(b"\"");
        self.put(v.as_bytes());
        self.put(b"\"");
    }

    /// Appends `s` as a JSON string literal, as [`push_str`].
    #[inline(always)]
    fn put_str(&mut self, s: &str) {
        self.put(b"\"");
        self.put_escaped(s);
        self.put(b"\"");
    }

    /// The end of the `san` field and the `written` field of a move read from
    /// `span` of `text` (its [`Span::slice`]): `","written":"…"`, or
    /// `","written":null` without a span.
    #[inline(always)]
    fn put_written(&mut self, text: &str, span: Option<Span>) {
        let Some(span) = span else {
            return self.put(b"\",\"written\":null");
        };
        self.put(b"\",\"written\":\"");
        // the usual move, up to eight ASCII bytes, checked as one word
        let (start, len) = (span.start as usize, span.len() as usize);
        if let Some(word) = text
            .as_bytes()
            .get(start..start + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            && len <= 8
            && plain_ascii_word(u64::from_le_bytes(word), len)
        {
            self.put_prefix(&word, len);
        } else {
            self.put_escaped(span.slice(text));
        }
        self.put(b"\"");
    }

    /// `,"line":…,"column":…` for a span (nulls without one).
    #[inline(always)]
    fn put_location(&mut self, lines: &mut Lines<'_>, span: Option<Span>) {
        match span {
            Some(s) => {
                let column = lines.field_for(s.start as usize);
                self.put_prefix(&lines.field, lines.field_len);
                self.put_u64(u64::from(column));
            }
            None => self.put(b",\"line\":null,\"column\":null"),
        }
    }
}

impl SanOut for Out<'_> {
    #[inline(always)]
    fn push_ascii(&mut self, c: u8) {
        self.put(&[c]);
    }
    #[inline(always)]
    fn push_text(&mut self, s: &str) {
        self.put(s.as_bytes());
    }
}

impl Lines<'_> {
    /// Locates `offset`, leaving `,"line":N,"column":` of its line in `field`, and
    /// returns its column.
    #[inline(always)]
    fn field_for(&mut self, offset: usize) -> u32 {
        // on the ASCII line of `field`, the column counts bytes
        let from_start = offset.wrapping_sub(self.fast_start);
        if from_start <= self.fast_len {
            return column_number(from_start);
        }
        self.field_for_slow(offset)
    }

    /// [`Lines::field_for`] with the column as its entry of [`DIGITS`] (`None` past
    /// 999): on the line of the fast path, from the offset without a conversion.
    #[inline(always)]
    fn column_digits(&mut self, offset: usize) -> Option<&'static [u8; 4]> {
        let from_start = offset.wrapping_sub(self.fast_start);
        if from_start <= self.fast_len {
            return DIGITS.get(from_start.checked_add(1)?);
        }
        DIGITS.get(self.field_for_slow(offset) as usize)
    }

    /// [`Lines::field_for`] of an offset off the line of the fast path.
    #[inline(never)]
    fn field_for_slow(&mut self, offset: usize) -> u32 {
        let lc = self.cursor.locate(offset);
        // written again only when the line changes
        if self.field_line != Some(lc.line) {
            self.set_field(lc.line);
        }
        let c = &self.cursor;
        (self.fast_start, self.fast_len) = if c.line_ascii {
            (c.line_start, c.line_end - c.line_start)
        } else {
            (usize::MAX, 0)
        };
        lc.column
    }

    /// Writes the `field` of line `line`: the number of the line before counted up in
    /// place (the usual step), any other written anew.
    fn set_field(&mut self, line: u64) {
        if self.field_line.and_then(|l| l.checked_add(1)) == Some(line) && self.count_up() {
            self.field_line = Some(line);
            return;
        }
        self.write_field(line);
    }

    /// Adds one to the line number in `field`, its last digit up and the nines
    /// before it to zeros; `false` when it gains a digit (then to be written anew).
    #[inline(always)]
    fn count_up(&mut self) -> bool {
        let digits = self.field.get_mut(8..self.field_len.saturating_sub(10));
        for d in digits.into_iter().flatten().rev() {
            if *d != b'9' {
                *d += 1;
                return true;
            }
            *d = b'0';
        }
        false
    }

    /// Writes the `field` of line `line` anew.
    #[cold]
    fn write_field(&mut self, line: u64) {
        let mut number = itoa::Buffer::new();
        let digits = number.format(line).as_bytes();
        let (key, rest) = self.field.split_at_mut(8);
        key.copy_from_slice(b",\"line\":");
        let n = digits.len().min(rest.len() - 10);
        if let (Some(to), Some(from)) = (rest.get_mut(..n), digits.get(..n)) {
            to.copy_from_slice(from);
        }
        if let Some(to) = rest.get_mut(n..n + 10) {
            to.copy_from_slice(b",\"column\":");
        }
        self.field_len = 8 + n + 10;
        self.field_line = Some(line);
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
    /// The offsets `o` with `o - fast_start <= fast_len` (wrapping) are on the line of
    /// `field`, an ASCII line starting at `fast_start`: none before the first
    /// location ([`Lines::field_for`]) and on a line that is not ASCII.
    fast_start: usize,
    fast_len: usize,
}

impl<'a> Lines<'a> {
    /// Locations in `text`, whose first line is line `first_line` of its file.
    fn new(text: &'a str, first_line: u64) -> Lines<'a> {
        Lines {
            cursor: LineCursor::new(text, first_line),
            field: [0; FIELD],
            field_len: 0,
            field_line: None,
            fast_start: usize::MAX,
            fast_len: 0,
        }
    }
}

/// The 1-based column of the character `from_start` bytes into an ASCII line, as
/// [`LineCursor::here`] gives it.
#[inline(always)]
fn column_number(from_start: usize) -> u32 {
    u32::try_from(from_start)
        .unwrap_or(u32::MAX)
        .saturating_add(1)
}

/// Room for `,"line":N,"column":` with the longest `N`.
const FIELD: usize = 40;

/// Line and column of byte offsets in one text, as
/// [`LineIndex::locate`](crate::model::diag::LineIndex::locate) gives them, for offsets
/// asked mostly in increasing order (the moves of a game, in the order of its text),
/// without allocating. The cursor stands on one line, whose end it knows: an offset
/// on that line costs a subtraction (on a line that is not ASCII, a count of the
/// characters since the previous offset); an offset on a later line moves the cursor
/// there, counting the line breaks it passes ([`LineCursor::seek`]); an offset
/// before the line moves it there from the start of the text.
struct LineCursor<'a> {
    text: &'a str,
    /// The 1-based number of the text's first line in its file.
    first_line: u64,
    /// Line breaks (`\n`) before `line_start`.
    breaks: u64,
    /// Offset of the start of the current line.
    line_start: usize,
    /// Offset of the `\n` ending the current line (the text's length on the last line).
    line_end: usize,
    /// The whole text is ASCII.
    ascii: bool,
    /// The current line is ASCII: columns are byte counts.
    line_ascii: bool,
    /// On a line that is not ASCII: the offset counted up to, and the characters
    /// (bytes that do not continue a UTF-8 sequence) from `line_start` to it.
    pos: usize,
    chars: usize,
}

impl<'a> LineCursor<'a> {
    fn new(text: &'a str, first_line: u64) -> LineCursor<'a> {
        let mut cursor = LineCursor {
            text,
            first_line,
            breaks: 0,
            line_start: 0,
            line_end: 0,
            ascii: text.is_ascii(),
            line_ascii: true,
            pos: 0,
            chars: 0,
        };
        cursor.enter_line(0);
        cursor
    }

    /// The line and column of `offset` (past the end: of the end).
    #[inline(always)]
    fn locate(&mut self, offset: usize) -> LineCol {
        let offset = offset.min(self.text.len());
        if offset < self.line_start || offset > self.line_end {
            self.seek(offset);
        }
        if self.line_ascii {
            return self.here(offset - self.line_start);
        }
        self.locate_in_line(offset)
    }

    /// Moves the cursor to the line holding `offset` (at most the text's length), not
    /// the current one: forward to the next line (the usual step), then past the
    /// lines between at once; back from the text's start.
    #[inline(never)]
    fn seek(&mut self, offset: usize) {
        if offset < self.line_start {
            let bytes = self.text.as_bytes().get(..offset).unwrap_or(&[]);
            self.breaks = memchr::memchr_iter(b'\n', bytes).count() as u64;
            return self.enter_line(memchr::memrchr(b'\n', bytes).map_or(0, |last| last + 1));
        }
        // the next line, then, when the offset is further on, the lines before its
        // line at once
        if self.line_end < self.text.len() {
            self.breaks += 1;
            self.enter_line(self.line_end + 1);
        }
        if offset > self.line_end && self.line_end < self.text.len() {
            let from = self.line_end + 1;
            let between = self.text.as_bytes().get(from..offset).unwrap_or(&[]);
            self.breaks += 1 + memchr::memchr_iter(b'\n', between).count() as u64;
            self.enter_line(memchr::memrchr(b'\n', between).map_or(from, |last| from + last + 1));
        }
    }

    /// Makes the line starting at `start` the current one.
    fn enter_line(&mut self, start: usize) {
        let rest = self.text.as_bytes().get(start..).unwrap_or(&[]);
        let len = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        self.line_start = start;
        self.line_end = start + len;
        self.line_ascii = self.ascii || rest.get(..len).is_some_and(|l| l.is_ascii());
        self.pos = start;
        self.chars = 0;
    }

    /// [`LineCursor::locate`] of `offset` on the current line, which is not ASCII.
    #[inline(never)]
    fn locate_in_line(&mut self, offset: usize) -> LineCol {
        if offset < self.pos {
            self.pos = self.line_start;
            self.chars = 0;
        }
        let bytes = self.text.as_bytes().get(self.pos..offset).unwrap_or(&[]);
        self.chars += bytes.iter().filter(|&&c| !is_continuation(c)).count();
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
            column: column_number(column),
        }
    }
}

/// Whether `c` continues a UTF-8 sequence (`10xxxxxx`).
const fn is_continuation(c: u8) -> bool {
    c & 0xC0 == 0x80
}

/// `"H:MM:SS"` (a fraction only when there is one) as [`Clock`]'s `Display`, or
/// `null`.
fn push_clock(b: &mut JsonBuf, c: Option<Clock>) {
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
fn push_two_digits(b: &mut JsonBuf, v: u64) {
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

/// Appends a decimal number.
fn push_u64(b: &mut JsonBuf, v: u64) {
    match usize::try_from(v).ok().and_then(|i| DIGITS.get(i)) {
        Some(d) => b.extend_from_slice(d.get(..digits_len(d)).unwrap_or(d)),
        None => b.extend_from_slice(itoa::Buffer::new().format(v).as_bytes()),
    }
}

/// How many digits an entry of [`DIGITS`] has: its last byte, 1 to 3 (masked so
/// that it is seen to be below 4 when compiling).
#[inline(always)]
fn digits_len(d: &[u8; 4]) -> usize {
    usize::from(d[3] & 3)
}

/// The numbers below 1000 in decimal: the digits, then how many they are (the last
/// byte).
const DIGITS: [[u8; 4]; 1000] = {
    let mut t = [[0; 4]; 1000];
    let mut i = 0;
    while i < 1000 {
        t[i] = if i < 10 {
            [b'0' + i as u8, 0, 0, 1]
        } else if i < 100 {
            [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8, 0, 2]
        } else {
            [
                b'0' + (i / 100) as u8,
                b'0' + (i / 10 % 10) as u8,
                b'0' + (i % 10) as u8,
                3,
            ]
        };
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

/// Whether the first `len` bytes of `w` (little-endian, `len` from 1 to 8) are ASCII
/// characters that stand for themselves in a JSON string ([`PLAIN`]): none below
/// U+0020, `"` or `\\`.
fn plain_ascii_word(w: u64, len: usize) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    // the bytes after `len` read as `a`, which is plain
    let keep = u64::MAX
        .checked_shr(64u32.saturating_sub(8 * len as u32))
        .unwrap_or(0);
    let y = (w & keep) | ((ONES * u64::from(b'a')) & !keep);
    // with every byte below 0x80, `v - ONES * n` borrows into the high bit of a
    // byte exactly when some byte (that one or one before it) is below `n`
    let below = |v: u64, n: u8| v.wrapping_sub(ONES * u64::from(n)) & !v & HIGH != 0;
    y & HIGH == 0
        && !below(y, 0x20)
        && !below(y ^ (ONES * u64::from(b'"')), 1)
        && !below(y ^ (ONES * u64::from(b'\\')), 1)
}

/// Appends `s` as a JSON string literal (`"`, `\\`, control characters, U+2028 and
/// U+2029 escaped).
fn push_str(b: &mut JsonBuf, s: &str) {
    b.push(b'"');
    push_escaped(b, s);
    b.push(b'"');
}

/// Appends the inside of `s` as a JSON string literal: see [`push_str`].
fn push_escaped(b: &mut JsonBuf, s: &str) {
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
    if all_plain(bytes) {
        b.extend_from_slice(bytes);
        return;
    }
    push_escaped_slow(b, bytes);
}

/// Whether every byte of `bytes` stands for itself in a JSON string ([`PLAIN`]): ASCII
/// checked eight bytes at a time ([`plain_ascii_word`]), other words byte by byte.
fn all_plain(bytes: &[u8]) -> bool {
    let plain = |w: &[u8]| w.iter().all(|&c| PLAIN[usize::from(c)]);
    let mut words = bytes.chunks_exact(8);
    let whole = words.all(|w| {
        <[u8; 8]>::try_from(w).is_ok_and(|a| plain_ascii_word(u64::from_le_bytes(a), 8)) || plain(w)
    });
    whole && plain(words.remainder())
}

/// [`push_escaped`] of a string that needs an escape.
fn push_escaped_slow(b: &mut JsonBuf, bytes: &[u8]) {
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
    use crate::model::diag::LineIndex;

    /// The SAN styles the hinted-SAN tests compare: PGN, figurine, Vietnamese letters,
    /// and PGN without check marks.
    fn four_styles() -> [crate::notation::chess::SanStyle; 4] {
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

    impl JsonBuf {
        /// A buffer holding `bytes` as written, its room past them not zeros.
        fn written(bytes: &[u8]) -> JsonBuf {
            let mut b = JsonBuf::from_vec(vec![b'#'; 3 * bytes.len()]);
            b.extend_from_slice(bytes);
            b
        }
    }

    fn quoted(s: &str) -> String {
        let mut b = JsonBuf::default();
        push_str(&mut b, s);
        String::from_utf8(b.into_written()).unwrap()
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
            // into a move object, after other bytes
            let mut b = JsonBuf::default();
            let mut scratch = [0; SCRATCH];
            let mut o = Out::new(&mut b, &mut scratch);
            o.put(b"\"");
            o.put_escaped(s);
            o.put(b"\"");
            o.flush();
            assert_eq!(String::from_utf8(b.into_written()).unwrap(), want);
            let back: String = serde_json::from_str(&got).unwrap();
            assert_eq!(back, s);
            assert_eq!(needs_escape(s), got.len() != s.len() + 2, "{s:?}");
        }
    }

    #[test]
    fn plain_words_as_plain_bytes() {
        let want = |w: &[u8]| w.iter().all(|&c| c < 0x80 && PLAIN[usize::from(c)]);
        let mut words = vec![*b"Nf3 Nc6 ", *b"exd8=Q+#", *b"O-O-O\r\n1", *b"aaaaaaaa"];
        // every byte at every place, amid plain and other bytes
        for c in 0..=255u8 {
            for at in 0..8 {
                for fill in [b'e', 0, b'"', 0xE2, 0x7F] {
                    let mut w = [fill; 8];
                    w[at] = c;
                    words.push(w);
                    let mut w = *b"Qh4xe1+ ";
                    w[at] = c;
                    words.push(w);
                }
            }
        }
        for w in words {
            for len in 1..=8 {
                assert_eq!(
                    plain_ascii_word(u64::from_le_bytes(w), len),
                    want(&w[..len]),
                    "{w:?} {len}"
                );
            }
        }
    }

    /// [`all_plain`] is the byte-by-byte check of [`PLAIN`] on strings of every
    /// length up to 40, with any byte anywhere.
    #[test]
    fn all_plain_agrees_with_table() {
        let mut rng = crate::testing::XorShift::new(11);
        let alphabet = [
            b'a', b' ', b'"', b'\\', b'\n', 0, 0x1F, 0x7F, 0x80, 0xC3, 0xE2, 0xFF,
        ];
        for len in 0..=40 {
            for _ in 0..400 {
                let mut s: Vec<u8> = (0..len).map(|_| b'a' + rng.below(26) as u8).collect();
                // one to three bytes of the alphabet at random places
                for _ in 0..=rng.below(3) {
                    if len > 0 {
                        let at = rng.below(len);
                        s[at] = alphabet[rng.below(alphabet.len())];
                    }
                }
                let want = s.iter().all(|&c| PLAIN[usize::from(c)]);
                assert_eq!(all_plain(&s), want, "{s:?}");
            }
        }
    }

    #[test]
    fn written_as_escaped_slice() {
        let texts = [
            "1. e4 e5 2. Nf3 Nc6",
            "1.e4!? e5 2.Nf3\r\n{a \"b\" \\c} 2... Nc6 3. Bb5\t0-1",
            "1. Mf3 ệ5 2. ♘f3 \u{2028} Trắng 中 a\u{1}b",
        ];
        for text in texts {
            for start in 0..=text.len() as u32 {
                for end in start + 1..=(start + 12).min(text.len() as u32 + 2) {
                    let span = Span { start, end };
                    let mut want = JsonBuf::written(b"\",\"written\":\"");
                    push_escaped(&mut want, span.slice(text));
                    want.push(b'"');
                    let mut got = JsonBuf::written(b"x");
                    let mut scratch = [0; SCRATCH];
                    let mut o = Out::new(&mut got, &mut scratch);
                    o.put_written(text, Some(span));
                    o.flush();
                    assert_eq!(
                        got.as_bytes()[1..],
                        want.as_bytes()[..],
                        "{text:?} {span:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn numbers() {
        let mut cases = vec![u64::MAX, 99_999_999, 100_000_000, 123_456_789];
        cases.extend(0..=1100);
        cases.extend((1..20).map(|e| 10u64.pow(e) - 1));
        for n in cases {
            let mut b = JsonBuf::default();
            push_u64(&mut b, n);
            assert_eq!(String::from_utf8(b.into_written()).unwrap(), n.to_string());
            let mut b = JsonBuf::default();
            let mut scratch = [0; SCRATCH];
            let mut o = Out::new(&mut b, &mut scratch);
            o.put_u64(n);
            o.flush();
            assert_eq!(String::from_utf8(b.into_written()).unwrap(), n.to_string());
        }
    }

    #[test]
    fn out_keeps_every_byte_in_order() {
        let mut want = Vec::new();
        let mut b = JsonBuf::written(b"before");
        let mut scratch = [0; SCRATCH];
        let mut o = Out::new(&mut b, &mut scratch);
        for n in (0..40).chain([255, 256, 257, 300, 600]).chain(0..40) {
            let piece: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            o.put(&piece);
            want.extend_from_slice(&piece);
            let prefix = [b'0', b'1', b'2', b'3', b'4'];
            o.put_prefix(&prefix, n % 7);
            want.extend_from_slice(&prefix[..(n % 7).min(5)]);
            o.put_u64(n as u64 * 997);
            want.extend_from_slice((n * 997).to_string().as_bytes());
        }
        o.flush();
        assert_eq!(b.as_bytes(), [&b"before"[..], &want].concat());
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
            let mut b = JsonBuf::default();
            push_clock(&mut b, Some(c));
            assert_eq!(
                String::from_utf8(b.into_written()).unwrap(),
                format!("\"{c}\"")
            );
        }
        let mut b = JsonBuf::default();
        push_clock(&mut b, None);
        assert_eq!(b.as_bytes(), b"null");
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
            "[White \"Trắng\"]\n\n1. e4 e5 2. Nf3\nNc6 3. Bb5\r\n3... a6 {é}\n4. Ba4\n",
        ];
        let mut rng = crate::testing::XorShift::new(7);
        // the line field of every offset, in increasing order, and by random steps
        // (numbers gaining digits, lines skipped, empty lines, going back)
        let many: String = (0..1200)
            .map(|i| ["a\n", "bc d\n", "\n", "é e\n"][i % 7 % 4])
            .collect();
        for (text, first) in texts.iter().map(|t| (*t, 7)).chain([
            (many.as_str(), 1),
            (many.as_str(), 95),
            (many.as_str(), 9_990),
            (many.as_str(), 99_999_990),
        ]) {
            let index = LineIndex::new(text, first);
            let mut lines = Lines::new(text, first);
            let check = |o: usize, lines: &mut Lines<'_>| {
                let want = index.locate(text, o);
                let digits = lines.column_digits(o);
                assert_eq!(digits, DIGITS.get(want.column as usize), "{first} at {o}");
                let column = lines.field_for(o);
                let field = lines.field.get(..lines.field_len).unwrap();
                assert_eq!(column, want.column, "{first} at {o}");
                let want_field = format!(",\"line\":{},\"column\":", want.line);
                assert_eq!(String::from_utf8_lossy(field), want_field, "{first} at {o}");
            };
            for o in 0..=text.len() + 2 {
                check(o, &mut lines);
            }
            let mut lines = Lines::new(text, first);
            let mut o = 0usize;
            for _ in 0..2000 {
                o = match rng.below(16) {
                    0 => rng.below(text.len() + 3),
                    1 => o.saturating_sub(rng.below(6)),
                    2 => o + rng.below(40),
                    _ => o + rng.below(4),
                } % (text.len() + 3);
                check(o, &mut lines);
            }
        }
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
            // mostly forward by small steps, now and then back or far ahead
            let mut cursor = LineCursor::new(text, 7);
            let mut o = 0usize;
            for _ in 0..200 {
                o = match rng.below(8) {
                    0 => rng.below(len + 3),
                    1 => o.saturating_sub(rng.below(6)),
                    _ => o + rng.below(4),
                } % (len + 3);
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

    /// [`put_plain_tags`] appends what the general path ([`put_tags`]) appends, or
    /// nothing, on random tag lists: repeated names (also long ones sharing their first
    /// eight bytes), empty and long values, values to escape, the text's end within 16
    /// bytes of a name or value, more tags than [`PLAIN_TAGS`].
    #[test]
    fn plain_tags_agree_with_general() {
        let names = [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "WhiteElo",
            "BlackElo",
            "ECO",
            "WhiteRatingDiff",
            "BlackRatingDiff",
            "WhiteRatingDiffX",
            "WhiteRatingDiffY",
            "A",
            "Trắng",
        ];
        let values = [
            "",
            "?",
            "1-0",
            "Abdusattorov,Nodirbek",
            "a value of exactly 32 bytes, ok.",
            "a value longer than thirty-two bytes, read in three pieces",
            "Trắng đi trước",
            "quote \" inside",
            "tab\there",
        ];
        let mut rng = crate::testing::XorShift::new(5);
        let (mut fast, mut plain) = (0, 0);
        for _ in 0..3000 {
            let mut tags = crate::model::game::Tags::default();
            let many = rng.below(10) == 0;
            let n = rng.below(if many { 40 } else { 12 });
            for _ in 0..n {
                tags.push(
                    names[rng.below(names.len())],
                    values[rng.below(values.len())],
                );
            }
            let mut general = JsonBuf::written(b"x");
            put_tags(&mut general, &mut [0; SCRATCH], &tags);
            let mut got = JsonBuf::written(b"x");
            if put_plain_tags(&mut got, &tags) {
                assert_eq!(
                    String::from_utf8(got.into_written()).unwrap(),
                    String::from_utf8(general.into_written()).unwrap()
                );
                fast += 1;
            } else {
                assert_eq!(got.as_bytes(), b"x");
            }
            let escapes = tags.iter().any(|(n, v)| needs_escape(n) || needs_escape(v));
            let fits = plain_tags_fit(tags.raw_parts().0.len(), n);
            plain += usize::from(fits && !escapes);
        }
        assert!(fast > 300 && fast == plain, "{fast} {plain}");
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

    /// A random chess record from `choices`: tags, then moves picked among the legal
    /// ones, each written in one of several ways, among them all that takes a move off
    /// [`put_plain_move`]'s path (comments, also before a line's first move, clocks,
    /// NAGs, variations, null moves, an illegal move, long or non-ASCII text, a column
    /// past 999, plies past 999, chess960 castling, promotions, the text's end).
    fn random_record(choices: &[u16]) -> String {
        use crate::chess::Position;
        use crate::notation::chess::{SanStyle, write_san};
        let first = choices.first().copied().unwrap_or(0);
        let (tags, fen) = match first % 6 {
            0 => ("", crate::chess::START_FEN),
            1 => (
                "[Variant \"Chess960\"]\n",
                "1rk3r1/pppppppp/8/8/8/8/PPPPPPPP/1RK3R1 w GBgb - 0 1",
            ),
            2 => (
                "",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 497",
            ),
            3 => ("", "r3k2r/1P4P1/8/3N1N2/8/8/1p4p1/R3K2R w KQkq - 0 1"),
            // few moves, an en-passant capture among them, and more pawns to come
            4 => ("", "8/1p6/8/k2pP3/1pP5/8/P7/K7 w - d6 0 1"),
            _ => ("[White \"Trắng\"]\n", crate::chess::START_FEN),
        };
        let mut s = format!("[Event \"e\"]\n{tags}[FEN \"{fen}\"]\n\n");
        if first & 0x100 != 0 {
            s.push_str("{before} ");
        }
        let chess960 = first % 6 == 1;
        let Ok(mut pos) = (if chess960 {
            Position::from_fen_chess960(fen)
        } else {
            Position::from_fen(fen)
        }) else {
            return s;
        };
        for (i, &c) in choices.iter().enumerate().skip(1) {
            let moves = pos.legal_moves();
            let Some(&m) = moves.get(usize::from(c) % moves.len().max(1)) else {
                break;
            };
            let number = pos.fullmoves();
            s.push_str(&if pos.turn() == crate::color::Color::White {
                format!("{number}. ")
            } else {
                format!("{number}... ")
            });
            let mut san = String::new();
            write_san(&mut san, &pos, &m, &SanStyle::pgn());
            match (c >> 8) % 24 {
                0 => s.push_str(&format!("{san}!? ")),
                1 => s.push_str(&format!("{san} {{một ghi chú}} ")),
                2 => s.push_str(&format!("{san} {{[%clk 0:0{}:0{}]}} ", c % 10, c % 7)),
                3 => s.push_str(&format!("{san} $4 ")),
                4 => {
                    s.push_str(&san);
                    if let Some(a) = moves.iter().find(|&&a| a != m) {
                        let mut alt = String::new();
                        write_san(&mut alt, &pos, a, &SanStyle::pgn());
                        s.push_str(&format!(" ({alt} {{x}} ) "));
                    }
                }
                5 => s.push_str(&format!("{} ", m.uci(chess960))),
                6 => s.push_str(&format!("{san}\n")),
                7 => s.push_str(&format!("{san}{} ", " ".repeat(1000))),
                8 => s.push_str(&format!("{san} {{é}}\n")),
                9 => s.push_str(&format!("{san}     {{ghi chú dài hơn tám}}  ")),
                10 if i % 3 == 0 => {
                    s.push_str("-- ");
                    pos.play_null();
                    continue;
                }
                // an invalid move and an illegal one (kept or not), rarely: both
                // stop the main line
                11 if c % 8 == 0 => s.push_str(&format!("{san}!!!!!!!! ")),
                13 if c % 8 == 0 => s.push_str("Ke4 "),
                12 => s.push_str(&format!("{san} =\n")),
                14 | 15 => {
                    write_san(&mut s, &pos, &m, &SanStyle::figurine());
                    s.push(' ');
                }
                _ => s.push_str(&format!("{san} ")),
            }
            pos.play_unchecked(&m);
        }
        match first % 3 {
            0 => s.push_str("Qh9 *\n"),
            1 => s.push('*'),
            _ => {}
        }
        s
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// [`put_plain_move`] writes what the general path of [`write_line`] writes,
        /// in every style, on random games with and without kept illegal moves; the
        /// plain path into small buffers that grow as it writes, and into one buffer
        /// reused from game to game, as the command line reuses them, whose room
        /// starts with bytes other than zeros.
        #[test]
        fn plain_path_agrees_with_general(
            choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..160),
        ) {
            let text = random_record(&choices);
            let mut fast = JsonBuf::from_vec(vec![b'#'; 37 * choices.len()]);
            for keep_illegal in [false, true] {
                let options = crate::replay::ReplayOptions {
                    keep_illegal,
                    ..crate::replay::ReplayOptions::default()
                };
                for raw in crate::archive::read_str(&text) {
                    let mut game = crate::replay::replay(raw, &options);
                    // a byte of some moves' written text made one to escape (or not)
                    let mut bytes = std::mem::take(&mut game.source.text).into_bytes();
                    for (node, &c) in game.moves.moves.iter().zip(&choices).filter(|(_, c)| **c % 5 == 0) {
                        let at = node.span.start as usize + usize::from(c >> 12) % 5;
                        if let Some(b) = bytes.get_mut(at).filter(|b| b.is_ascii() && at < node.span.end as usize) {
                            *b = [b'"', b'\\', b'\t', 0x7F, b'x'][usize::from(c >> 8) % 5];
                        }
                    }
                    game.source.text = String::from_utf8(bytes).unwrap();
                    for (k, chess) in four_styles().into_iter().enumerate() {
                        let opts = JsonOptions {
                            moves: MoveStyle { chess, ..MoveStyle::default() },
                        };
                        fast.clear();
                        let mut small = JsonBuf::from_vec(vec![b'#'; 100 * k]);
                        let fast = if k % 2 == 0 { &mut fast } else { &mut small };
                        let mut general = JsonBuf::default();
                        let renderer = JsonRenderer::new(&opts);
                        let line = render_with(fast, &game, &renderer, true);
                        render_with(&mut general, &game, &renderer, false);
                        // the main line as the plain path saw it, as a pass over it
                        proptest::prop_assert_eq!(line, game.main_line());
                        proptest::prop_assert_eq!(
                            String::from_utf8_lossy(fast.as_bytes()),
                            String::from_utf8_lossy(general.as_bytes())
                        );
                    }
                }
            }
        }
    }

    /// The random records of [`plain_path_agrees_with_general`] take the plain path
    /// and leave it, in every way.
    #[test]
    fn random_records_cover_both_paths() {
        let mut rng = crate::testing::XorShift::new(99);
        let (mut moves, mut kinds) = (0, [0usize; 5]);
        for _ in 0..200 {
            let choices: Vec<u16> = (0..160).map(|_| rng.next() as u16).collect();
            for raw in crate::archive::read_str(&random_record(&choices)) {
                let game = crate::replay::replay(raw, &crate::replay::ReplayOptions::default());
                for node in &game.moves.moves {
                    moves += 1;
                    kinds[0] += usize::from(is_plain(node) && node.san.is_some());
                    kinds[1] += usize::from(!node.comments().is_empty());
                    kinds[2] += usize::from(!node.variations().is_empty());
                    kinds[3] += usize::from(node.clock.is_some());
                    kinds[4] += usize::from(
                        is_plain(node)
                            && node.san.is_some()
                            && matches!(
                                node.mv,
                                AnyMove::Chess(crate::chess::Move::EnPassant { .. })
                            ),
                    );
                }
            }
        }
        assert!(
            moves > 10_000 && kinds[..4].iter().all(|&k| k > 200) && kinds[4] > 3,
            "{moves} {kinds:?}"
        );
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
