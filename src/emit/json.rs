//! JSON Lines writer: one object per game, one game per line.
//!
//! The object layout is published as a JSON Schema (draft 2020-12) at
//! `docs/schema/game.schema.json`; every object carries `"schema_version": "1"`. The
//! writer is hand-written over one reused `String` per writer (no allocation per move
//! beyond the per-game line index), and writes each game with one `write_all`.

use std::fmt::Write as _;
use std::io;

use super::{Board, MoveStyle, push_u64};
use crate::{
    diag::{LineIndex, Span},
    game::{Clock, Game, Line},
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
    tok: String,
}

struct Ctx<'a> {
    game: &'a Game,
    index: LineIndex,
}

impl<W: io::Write> JsonWriter<W> {
    pub fn new(out: W, opts: JsonOptions) -> JsonWriter<W> {
        JsonWriter {
            out,
            opts,
            buf: String::with_capacity(8192),
            tok: String::with_capacity(32),
        }
    }

    /// Writes one game as one line.
    pub fn write_game(&mut self, game: &Game) -> io::Result<()> {
        self.buf.clear();
        let ctx = Ctx {
            game,
            index: LineIndex::new(&game.source.text, game.source.first_line.max(1)),
        };
        let b = &mut self.buf;
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
        self.write_line(&ctx, &mut board, &game.moves);
        let b = &mut self.buf;
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
            push_str(b, &d.severity.to_string());
            b.push_str(",\"code\":");
            push_str(b, d.code);
            b.push_str(",\"message\":");
            push_str(b, &d.message);
            push_location(b, &ctx, d.span);
            b.push_str(",\"ply\":");
            push_opt_u64(b, d.ply.map(u64::from));
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
        let _ = write!(
            b,
            ",\"game_index\":{},\"byte_start\":{},\"byte_end\":{}}}",
            src.game_index, src.byte_start, src.byte_end
        );
        b.push_str(",\"encoding\":");
        match src.encoding {
            Some(e) => push_str(b, e),
            None => b.push_str("null"),
        }
        b.push_str("}\n");
        self.out.write_all(self.buf.as_bytes())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    pub fn into_inner(self) -> W {
        self.out
    }

    /// Writes a line as an array of move objects, leaving `board` after its last move.
    fn write_line(&mut self, ctx: &Ctx<'_>, board: &mut Board, line: &Line) {
        self.buf.push('[');
        for (i, node) in line.moves.iter().enumerate() {
            if i > 0 {
                self.buf.push(',');
            }
            self.buf.push_str("{\"ply\":");
            push_u64(&mut self.buf, u64::from(board.ply()));
            self.buf.push_str(",\"uci\":");
            self.tok.clear();
            board.write_coords(&mut self.tok, &node.mv);
            push_str(&mut self.buf, &self.tok);
            self.buf.push_str(",\"san\":");
            self.tok.clear();
            // the position before the move, for its variations
            let before = (!node.variations.is_empty()).then(|| board.clone());
            board.write_and_play(&mut self.tok, &node.mv, &self.opts.moves);
            push_str(&mut self.buf, &self.tok);
            self.buf.push_str(",\"written\":");
            let span = (!node.span.is_empty()).then_some(node.span);
            match span {
                Some(s) => push_str(&mut self.buf, s.slice(&ctx.game.source.text)),
                None => self.buf.push_str("null"),
            }
            push_location(&mut self.buf, ctx, span);
            self.buf.push_str(",\"comments\":[");
            // comments before the first move of the line belong to it in JSON
            let pre = if i == 0 { &line.comments[..] } else { &[] };
            for (j, c) in pre.iter().chain(&node.comments).enumerate() {
                if j > 0 {
                    self.buf.push(',');
                }
                push_str(&mut self.buf, c);
            }
            self.buf.push_str("],\"nags\":[");
            for (j, n) in node.nags.iter().enumerate() {
                if j > 0 {
                    self.buf.push(',');
                }
                push_u64(&mut self.buf, u64::from(*n));
            }
            self.buf.push_str("],\"clock\":");
            push_clock(&mut self.buf, node.clock);
            self.buf.push_str(",\"emt\":");
            push_clock(&mut self.buf, node.emt);
            self.buf.push_str(if node.draw_offer {
                ",\"draw_offer\":true"
            } else {
                ",\"draw_offer\":false"
            });
            self.buf.push_str(if node.illegal {
                ",\"illegal\":true,\"variations\":["
            } else {
                ",\"illegal\":false,\"variations\":["
            });
            if let Some(before) = &before {
                for (j, var) in node.variations.iter().enumerate() {
                    if j > 0 {
                        self.buf.push(',');
                    }
                    let mut vb = before.clone();
                    self.write_line(ctx, &mut vb, var);
                }
            }
            self.buf.push_str("]}");
        }
        self.buf.push(']');
    }
}

/// Renders one game as one JSON line (convenience for tests and small jobs).
pub fn to_json_string(game: &Game, opts: &JsonOptions) -> String {
    let mut w = JsonWriter::new(Vec::new(), *opts);
    // Writing into a Vec cannot fail.
    let _ = w.write_game(game);
    String::from_utf8(w.into_inner()).unwrap_or_default()
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

/// `,"line":…,"column":…` for a span (nulls without one).
fn push_location(b: &mut String, ctx: &Ctx<'_>, span: Option<Span>) {
    match span {
        Some(s) => {
            let lc = ctx.index.locate(&ctx.game.source.text, s.start as usize);
            b.push_str(",\"line\":");
            push_u64(b, lc.line);
            b.push_str(",\"column\":");
            push_u64(b, u64::from(lc.column));
        }
        None => b.push_str(",\"line\":null,\"column\":null"),
    }
}

fn push_opt_u64(b: &mut String, v: Option<u64>) {
    match v {
        Some(v) => push_u64(b, v),
        None => b.push_str("null"),
    }
}

fn push_clock(b: &mut String, c: Option<Clock>) {
    match c {
        Some(c) => {
            let _ = write!(b, "\"{c}\"");
        }
        None => b.push_str("null"),
    }
}

/// Appends `s` as a JSON string literal (`"`, `\\`, control characters, U+2028 and
/// U+2029 escaped).
fn push_str(b: &mut String, s: &str) {
    // the usual string needs no escape: one copy
    if s.bytes()
        .all(|c| c >= 0x20 && c != b'"' && c != b'\\' && c != 0xE2)
    {
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
        if c >= 0x20 && c != b'"' && c != b'\\' && c != 0xE2 {
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
                let _ = write!(b, "\\u{c:04x}");
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
