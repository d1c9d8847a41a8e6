//! JSON Lines writer: one object per game, one game per line.
//!
//! The object layout is published as a JSON Schema (draft 2020-12) at
//! `docs/schema/game.schema.json`; every object carries `"schema_version": "1"`. The
//! writer is hand-written over one reused `String` per writer (no allocation per move
//! beyond the per-game line index), and writes each game with one `write_all`.

use std::io;

use super::{Board, MoveStyle, push_u64};
use crate::{
    diag::{LineCol, Severity, Span},
    game::{Clock, Game, Line, MoveNode},
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
    buf: String,
}

impl<W: io::Write> JsonWriter<W> {
    pub fn new(out: W, opts: JsonOptions) -> JsonWriter<W> {
        JsonWriter {
            out,
            opts,
            buf: String::new(),
        }
    }

    /// Writes one game as one line.
    pub fn write_game(&mut self, game: &Game) -> io::Result<()> {
        self.buf.clear();
        render(&mut self.buf, game, &self.opts);
        self.out.write_all(self.buf.as_bytes())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Renders one game as one JSON line, `\n` included, into a buffer of its own (for a
/// caller that keeps each game's bytes, as the command line's pipeline does: no copy
/// from a writer's buffer into another).
pub fn to_json_bytes(game: &Game, opts: &JsonOptions) -> Vec<u8> {
    let mut b = String::new();
    render(&mut b, game, opts);
    b.into_bytes()
}

/// What the move writer carries through a game.
struct Ctx<'a> {
    game: &'a Game,
    style: &'a MoveStyle,
    lines: LineCursor<'a>,
}

/// Appends the JSON line of `game` to `b`.
fn render(b: &mut String, game: &Game, opts: &JsonOptions) {
    b.reserve(size_hint(game));
    let mut ctx = Ctx {
        game,
        style: &opts.moves,
        lines: LineCursor::new(&game.source.text, game.source.first_line.max(1)),
    };
    b.push_str("{\"schema_version\":\"");
    b.push_str(SCHEMA_VERSION);
    b.push_str("\",\"kind\":");
    push_str(b, kind_name(game));
    b.push_str(",\"variant\":");
    push_str(b, game.variant.name());
    b.push_str(",\"tags\":{");
    let mut first = true;
    for (i, (n, v)) in game.tags.iter().enumerate() {
        // first value of a name wins; the full list is in `tag_list`
        if game.tags.iter().take(i).any(|(m, _)| m == n) {
            continue;
        }
        if !first {
            b.push(',');
        }
        first = false;
        push_str(b, n);
        b.push(':');
        push_str(b, v);
    }
    b.push_str("},\"tag_list\":[");
    for (i, (n, v)) in game.tags.iter().enumerate() {
        if i > 0 {
            b.push(',');
        }
        b.push('[');
        push_str(b, n);
        b.push(',');
        push_str(b, v);
        b.push(']');
    }
    b.push_str("],\"start_fen\":");
    push_str(b, &game.start.fen());
    b.push_str(",\"moves\":");
    let mut board = Board::new(&game.start);
    write_line(b, &mut ctx, &mut board, &game.moves);
    b.push_str(",\"result\":");
    push_str(b, game.result.as_str());
    b.push_str(",\"final_fen\":");
    push_str(b, &board.fen());
    b.push_str(",\"status\":");
    push_str(b, status_name(game));
    b.push_str(",\"diagnostics\":[");
    for (i, d) in game.diagnostics.iter().enumerate() {
        if i > 0 {
            b.push(',');
        }
        b.push_str("{\"severity\":");
        push_str(b, severity_name(d.severity));
        b.push_str(",\"code\":");
        push_str(b, d.code);
        b.push_str(",\"message\":");
        push_str(b, &d.message);
        push_location(b, &mut ctx.lines, d.span);
        b.push_str(",\"ply\":");
        match d.ply {
            Some(p) => push_u64(b, u64::from(p)),
            None => b.push_str("null"),
        }
        b.push_str(",\"candidates\":[");
        for (j, c) in d.candidates.iter().enumerate() {
            if j > 0 {
                b.push(',');
            }
            push_str(b, c);
        }
        b.push_str("]}");
    }
    b.push_str("],\"unparsed\":");
    match &game.unparsed {
        Some(u) => push_str(b, u),
        None => b.push_str("null"),
    }
    let src = &game.source;
    b.push_str(",\"source\":{\"file\":");
    match &src.file {
        Some(f) => push_str(b, f),
        None => b.push_str("null"),
    }
    b.push_str(",\"game_index\":");
    push_u64(b, src.game_index);
    b.push_str(",\"byte_start\":");
    push_u64(b, src.byte_start);
    b.push_str(",\"byte_end\":");
    push_u64(b, src.byte_end);
    b.push_str("},\"encoding\":");
    match src.encoding {
        Some(e) => push_str(b, e),
        None => b.push_str("null"),
    }
    b.push_str("}\n");
}

/// The fields of a move object after `column` when the move has no comment, NAG,
/// clock, draw offer or variation and is legal: the usual case, written in one piece.
const PLAIN_TAIL: &str = ",\"comments\":[],\"nags\":[],\"clock\":null,\"emt\":null,\
    \"draw_offer\":false,\"illegal\":false,\"variations\":[]}";

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
                .flat_map(|n| &n.variations)
                .map(moves)
                .sum::<usize>()
    }
    // the text holds the tags (written twice), comments and `written` fields
    1024 + 2 * game.source.text.len()
        + MOVE_BYTES * moves(&game.moves)
        + 256 * game.diagnostics.len()
}

/// Writes a line as an array of move objects, leaving `board` after its last move.
fn write_line(b: &mut String, ctx: &mut Ctx<'_>, board: &mut Board, line: &Line) {
    b.push('[');
    for (i, node) in line.moves.iter().enumerate() {
        b.push_str(if i == 0 { "{\"ply\":" } else { ",{\"ply\":" });
        push_u64(b, u64::from(board.ply()));
        b.push_str(",\"uci\":\"");
        let at = b.len();
        board.write_coords(b, &node.mv);
        escape_from(b, at);
        b.push_str("\",\"san\":\"");
        // the position before the move, for its variations
        let before = (!node.variations.is_empty()).then(|| board.clone());
        let at = b.len();
        board.write_and_play(b, &node.mv, ctx.style);
        escape_from(b, at);
        b.push('"');
        let span = (!node.span.is_empty()).then_some(node.span);
        match span {
            Some(s) => {
                b.push_str(",\"written\":");
                push_str(b, s.slice(&ctx.game.source.text));
            }
            None => b.push_str(",\"written\":null"),
        }
        push_location(b, &mut ctx.lines, span);
        // comments before the first move of the line belong to it in JSON
        let pre = if i == 0 { &line.comments[..] } else { &[] };
        if is_plain(node) && pre.is_empty() {
            b.push_str(PLAIN_TAIL);
            continue;
        }
        b.push_str(",\"comments\":[");
        for (j, c) in pre.iter().chain(&node.comments).enumerate() {
            if j > 0 {
                b.push(',');
            }
            push_str(b, c);
        }
        b.push_str("],\"nags\":[");
        for (j, n) in node.nags.iter().enumerate() {
            if j > 0 {
                b.push(',');
            }
            push_u64(b, u64::from(*n));
        }
        b.push_str("],\"clock\":");
        push_clock(b, node.clock);
        b.push_str(",\"emt\":");
        push_clock(b, node.emt);
        b.push_str(if node.draw_offer {
            ",\"draw_offer\":true"
        } else {
            ",\"draw_offer\":false"
        });
        b.push_str(if node.illegal {
            ",\"illegal\":true,\"variations\":["
        } else {
            ",\"illegal\":false,\"variations\":["
        });
        if let Some(before) = &before {
            for (j, var) in node.variations.iter().enumerate() {
                if j > 0 {
                    b.push(',');
                }
                let mut vb = before.clone();
                write_line(b, ctx, &mut vb, var);
            }
        }
        b.push_str("]}");
    }
    b.push(']');
}

/// Whether the fields after `column` of `node`'s object are those of [`PLAIN_TAIL`]
/// (comments before a line's first move aside).
fn is_plain(node: &MoveNode) -> bool {
    node.comments.is_empty()
        && node.nags.is_empty()
        && node.clock.is_none()
        && node.emt.is_none()
        && !node.draw_offer
        && !node.illegal
        && node.variations.is_empty()
}

/// Renders one game as one JSON line (convenience for tests and small jobs).
pub fn to_json_string(game: &Game, opts: &JsonOptions) -> String {
    let mut b = String::new();
    render(&mut b, game, opts);
    b
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
fn push_location(b: &mut String, lines: &mut LineCursor<'_>, span: Option<Span>) {
    match span {
        Some(s) => {
            let lc = lines.locate(s.start as usize);
            b.push_str(",\"line\":");
            push_u64(b, lc.line);
            b.push_str(",\"column\":");
            push_u64(b, u64::from(lc.column));
        }
        None => b.push_str(",\"line\":null,\"column\":null"),
    }
}

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
    /// sequence).
    chars: usize,
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
fn push_clock(b: &mut String, c: Option<Clock>) {
    let Some(c) = c else {
        b.push_str("null");
        return;
    };
    let secs = c.millis / 1000;
    b.push('"');
    push_u64(b, secs / 3600);
    b.push(':');
    push_two_digits(b, secs / 60 % 60);
    b.push(':');
    push_two_digits(b, secs % 60);
    let ms = c.millis % 1000;
    if ms != 0 {
        b.push('.');
        let digits = [ms / 100, ms / 10 % 10, ms % 10];
        let keep = if ms % 100 == 0 {
            1
        } else if ms % 10 == 0 {
            2
        } else {
            3
        };
        for d in digits.iter().take(keep) {
            b.push(digit(*d));
        }
    }
    b.push('"');
}

/// `v` (below 100) in two digits.
fn push_two_digits(b: &mut String, v: u64) {
    b.push(digit(v / 10 % 10));
    b.push(digit(v % 10));
}

/// The decimal digit of `d % 10`.
fn digit(d: u64) -> char {
    char::from(b'0' + (d % 10) as u8)
}

/// The lowercase hexadecimal digit of `d & 0xF`.
fn hex_digit(d: u8) -> char {
    let d = d & 0xF;
    char::from(if d < 10 { b'0' + d } else { b'a' + d - 10 })
}

/// Escapes what was appended to `b` from byte `at` on, when it needs it: text a
/// writer produced (SAN in any language, coordinates) almost never does, so this only
/// reads it.
fn escape_from(b: &mut String, at: usize) {
    let tail = b.get(at..).unwrap_or("");
    if tail.bytes().all(is_plain_byte)
        || !(tail.bytes().any(|c| c < 0x20 || c == b'"' || c == b'\\')
            || tail.contains(['\u{2028}', '\u{2029}']))
    {
        return;
    }
    let tail = b.split_off(at);
    let mut quoted = String::with_capacity(tail.len() + 8);
    push_str(&mut quoted, &tail);
    // without the quotes push_str put around it
    b.push_str(
        quoted
            .strip_prefix('"')
            .and_then(|q| q.strip_suffix('"'))
            .unwrap_or(""),
    );
}

/// Whether byte `c` of a string stands in JSON as it is (`0xE2` may start U+2028 or
/// U+2029, which are escaped).
const fn is_plain_byte(c: u8) -> bool {
    c >= 0x20 && c != b'"' && c != b'\\' && c != 0xE2
}

/// Appends `s` as a JSON string literal (`"`, `\\`, control characters, U+2028 and
/// U+2029 escaped).
fn push_str(b: &mut String, s: &str) {
    // the usual string needs no escape: one copy
    if s.bytes().all(is_plain_byte) {
        b.reserve(s.len() + 2);
        b.push('"');
        b.push_str(s);
        b.push('"');
        return;
    }
    b.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if is_plain_byte(c) {
            i += 1;
            continue;
        }
        // U+2028 / U+2029 are E2 80 A8 / E2 80 A9; other E2 sequences pass
        if c == 0xE2 {
            if bytes.get(i + 1) == Some(&0x80) && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)) {
                b.push_str(s.get(start..i).unwrap_or(""));
                b.push_str(if bytes.get(i + 2) == Some(&0xA8) {
                    "\\u2028"
                } else {
                    "\\u2029"
                });
                i += 3;
                start = i;
            } else {
                i += 1;
            }
            continue;
        }
        b.push_str(s.get(start..i).unwrap_or(""));
        match c {
            b'"' => b.push_str("\\\""),
            b'\\' => b.push_str("\\\\"),
            b'\n' => b.push_str("\\n"),
            b'\r' => b.push_str("\\r"),
            b'\t' => b.push_str("\\t"),
            c => {
                b.push_str("\\u00");
                b.push(hex_digit(c >> 4));
                b.push(hex_digit(c & 0xF));
            }
        }
        i += 1;
        start = i;
    }
    b.push_str(s.get(start..).unwrap_or(""));
    b.push('"');
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn string_escapes() {
        let cases = [
            ("abc", "\"abc\""),
            ("a\"b\\c", "\"a\\\"b\\\\c\""),
            ("l1\nl2\t", "\"l1\\nl2\\t\""),
            ("\u{1}x", "\"\\u0001x\""),
            ("Trắng", "\"Trắng\""),
            ("a\u{2028}b…", "\"a\\u2028b…\""),
        ];
        for (s, want) in cases {
            let mut b = String::new();
            push_str(&mut b, s);
            assert_eq!(b, want);
            let back: String = serde_json::from_str(&b).unwrap();
            assert_eq!(back, s);
        }
    }

    #[test]
    fn numbers() {
        for n in [0u64, 7, 10, 99, 12345, u64::MAX] {
            let mut b = String::new();
            push_u64(&mut b, n);
            assert_eq!(b, n.to_string());
        }
    }

    #[test]
    fn empty_game_parses() {
        let mut g = Game::new_chess();
        g.tags.set("White", "A");
        g.tags.0.push(("White".into(), "B".into()));
        let s = to_json_string(&g, &JsonOptions::default());
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["tags"]["White"], "A");
        assert_eq!(v["tag_list"][1][1], "B");
        assert_eq!(v["status"], "clean");
        assert_eq!(v["final_fen"], v["start_fen"]);
        assert!(s.ends_with("}\n") && s.lines().count() == 1);
    }
}
