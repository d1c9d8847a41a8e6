//! Rendering diagnostics for people (compiler style, with a caret under the token) and
//! for programs (JSON Lines).

use kyphu::model::diag::Code;
use std::borrow::Cow;
use unicode_width::UnicodeWidthChar;

use serde::Serialize;

use kyphu::{
    color::Color,
    emit::Board,
    model::diag::{Diagnostic, LineIndex},
    model::game::{Game, StartPosition},
};

/// Where a diagnostic stands, computed once per diagnostic.
#[derive(Debug, Serialize)]
pub struct Located<'a> {
    pub file: &'a str,
    /// 1-based game number in the file.
    pub game: u64,
    pub white: Option<&'a str>,
    pub black: Option<&'a str>,
    pub severity: kyphu::model::diag::Severity,
    pub code: &'a str,
    pub message: &'a str,
    pub line: Option<u64>,
    pub column: Option<u32>,
    pub ply: Option<u32>,
    /// The move number and side the ply falls on (`12`, `black`; `red` for Red in
    /// xiangqi).
    #[serde(rename = "move")]
    pub move_number: Option<u32>,
    pub side: Option<&'static str>,
    /// The position before the move, when the move is on the main line.
    pub fen: Option<String>,
    pub candidates: &'a [String],
    /// Where in a scoresheet CSV (`row 7, column "Đen" (Black)`), for a game read
    /// from one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell: Option<String>,
    #[serde(skip)]
    source_line: Option<String>,
    #[serde(skip)]
    caret: Option<(usize, usize)>,
}

fn start_turn_and_number(game: &Game) -> (Color, u32) {
    match &game.start {
        StartPosition::Chess(p) => (p.turn(), p.fullmoves()),
        StartPosition::Xiangqi(p) => (p.turn(), p.fullmoves()),
    }
}

/// The move number and side of ply `ply` (1 = the first move recorded).
pub fn move_of_ply(game: &Game, ply: u32) -> (u32, Color) {
    let (turn, number) = start_turn_and_number(game);
    let index = ply.saturating_sub(1) + u32::from(turn == Color::Black);
    (
        number + index / 2,
        if index.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        },
    )
}

/// The FENs along a game's main line, for its diagnostics: the board is kept between
/// questions and moved forward from the ply last asked, so that the diagnostics of a
/// game, asked in the order of the text, replay its main line once in all (not once
/// each: a game with a remark on every move would cost the square of its length).
pub struct Fens<'g> {
    game: &'g Game,
    /// The board after the first `.1` main-line moves, once a FEN was asked.
    board: Option<(Board, usize)>,
}

impl<'g> Fens<'g> {
    pub fn new(game: &'g Game) -> Self {
        Fens { game, board: None }
    }

    /// The FEN before main-line ply `ply`, if the game's main line reaches it.
    pub fn before(&mut self, ply: u32) -> Option<String> {
        let before = usize::try_from(ply.checked_sub(1)?).ok()?;
        let moves = self.game.moves.moves.get(..before)?;
        let (board, played) = match &mut self.board {
            Some((board, played)) if *played <= before => (board, played),
            slot => {
                let (board, played) = slot.insert((Board::new(&self.game.start), 0));
                (board, played)
            }
        };
        for n in &moves[*played..] {
            board.play(&n.mv);
        }
        *played = before;
        Some(board.fen())
    }
}

/// Would `c` act on a terminal instead of being shown: a C0 or C1 control character
/// (escape sequences begin with ESC or CSI), DEL, or a bidirectional override, embedding,
/// isolate or mark (which reorder what follows on the line: "Trojan Source")?
fn is_control(c: char) -> bool {
    matches!(c,
        '\0'..='\x1f'
        | '\x7f'..='\u{9f}'
        | '\u{61c}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}')
}

/// Writes `c` (a control character) as it is escaped: `\t`, `\n`, `\r`, `\x1b`,
/// `\u{202e}`.
fn push_escaped(out: &mut String, c: char) {
    match c {
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c if c.is_ascii() => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let b = c as u8;
            out.push_str("\\x");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
        c => {
            out.push_str("\\u{");
            out.push_str(&format!("{:x}", u32::from(c)));
            out.push('}');
        }
    }
}

/// `s` as it may be written to a terminal: every control character (see
/// [`is_control`]; tabs and newlines too) escaped as `\x1b`, `\u{202e}`, `\t`, `\n`.
/// Used for everything a diagnostic shows that comes from the input or the command
/// line: player names, source lines, file names, messages.
pub fn escape(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_control(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A source line as shown under a diagnostic, with the control characters but tabs
/// escaped, and the caret's place in it: what goes before the caret (a tab under a
/// tab, as many spaces as each other character shown takes display columns) and the
/// caret's width in display columns (at least 1), for the `width` characters from
/// character `col` of `line`.
fn escape_line(line: &str, col: usize, width: usize) -> (String, String, usize) {
    let mut shown = String::with_capacity(line.len());
    let mut before = String::with_capacity(col);
    let (mut caret, mut len) = (0, 0);
    for (i, c) in line.chars().enumerate() {
        let start = shown.len();
        if c != '\t' && is_control(c) {
            push_escaped(&mut shown, c);
        } else {
            shown.push(c);
        }
        // display columns: an East Asian wide character (炮, full-width ２) takes two,
        // a combining mark none; an escape (`\u{1b}`) its characters
        let w = if c != '\t' && is_control(c) {
            shown.get(start..).map_or(1, |s| s.chars().count())
        } else {
            UnicodeWidthChar::width(c).unwrap_or(0)
        };
        if i < col {
            if c == '\t' {
                before.push('\t');
            } else {
                before.extend(std::iter::repeat_n(' ', w));
            }
        } else if i < col + width {
            caret += w;
        }
        len = i + 1;
    }
    // a caret past the end of the line (at the end of the text)
    before.extend(std::iter::repeat_n(' ', col.saturating_sub(len)));
    caret += (col + width).saturating_sub(len.max(col));
    (shown, before, caret.max(1))
}

/// Characters of a long source line shown around the caret.
const WINDOW: usize = 100;

/// The part of `line` shown under a diagnostic and the caret's column in it: the whole
/// line when short, else a window around character `col` with `…` at cut ends (a
/// hostile file can hold megabytes on one line).
fn window(line: &str, col: usize) -> (String, usize) {
    let len = line.chars().count();
    if len <= WINDOW {
        return (line.to_owned(), col);
    }
    let start = col
        .saturating_sub(WINDOW / 2)
        .min(len.saturating_sub(WINDOW));
    let mut shown: String = line.chars().skip(start).take(WINDOW).collect();
    let mut caret = col - start;
    if start > 0 {
        shown.insert(0, '…');
        caret += 1;
    }
    if start + WINDOW < len {
        shown.push('…');
    }
    (shown, caret)
}

/// Is the diagnostic about a main-line move (or the move where the main line stopped)?
fn on_main_line(game: &Game, d: &Diagnostic) -> bool {
    let (Some(span), Some(ply)) = (d.span, d.ply) else {
        return false;
    };
    let i = ply as usize;
    match game.moves.moves.get(i.wrapping_sub(1)) {
        Some(node) => node.span == span,
        None => i == game.moves.moves.len() + 1 && game.unparsed.is_some(),
    }
}

impl<'a> Located<'a> {
    /// Locates `d`, a diagnostic of `game`, with the game's line index and FENs (both
    /// made once per game, for all its diagnostics).
    pub fn new(
        file: &'a str,
        game: &'a Game,
        d: &'a Diagnostic,
        index: &LineIndex,
        fens: &mut Fens<'_>,
    ) -> Self {
        let text = game.source.text.as_str();
        let (mut line, mut column, mut source_line, mut caret) = (None, None, None, None);
        if let Some(span) = d.span {
            let at = index.locate(text, span.start as usize);
            line = Some(at.line);
            column = Some(at.column);
            let l = index.line_text(text, span.start as usize);
            let width = span
                .slice(text)
                .lines()
                .next()
                .map_or(1, |s| s.chars().count().max(1));
            let (shown, col) = window(l, at.column as usize - 1);
            source_line = Some(shown);
            caret = Some((col, width.min(WINDOW)));
        }
        let (move_number, side) = match d.ply {
            Some(p) => {
                let (n, c) = move_of_ply(game, p);
                let first = match game.start {
                    StartPosition::Xiangqi(_) => "red",
                    StartPosition::Chess(_) => "white",
                };
                (Some(n), Some(c.fold(first, "black")))
            }
            None => (None, None),
        };
        let fen = if on_main_line(game, d) {
            d.ply.and_then(|p| fens.before(p))
        } else {
            None
        };
        let tags = &game.tags;
        Located {
            file,
            game: game.source.game_index + 1,
            white: tags
                .get("White")
                .or_else(|| tags.get("Red"))
                .filter(|v| !v.trim().is_empty()),
            black: tags.get("Black").filter(|v| !v.trim().is_empty()),
            severity: d.severity,
            code: d.code.as_str(),
            message: &d.message,
            line,
            column,
            ply: d.ply,
            move_number,
            side,
            fen,
            candidates: &d.candidates,
            cell: d.span.and_then(|s| game.source.sheet.as_ref()?.describe(s)),
            source_line,
            caret,
        }
    }

    /// The human rendering, ending with a blank line.
    pub fn human(&self, out: &mut String) {
        // pieces pushed one by one: archives with a remark on many moves render
        // thousands of these, and `write!` costs several times as much
        out.push_str(self.severity.as_str());
        out.push('[');
        out.push_str(self.code);
        out.push_str("]: ");
        out.push_str(&escape(self.message));
        out.push('\n');
        let gutter = self.line.map_or(1, |l| itoa::Buffer::new().format(l).len());
        let pad = |out: &mut String| out.extend(std::iter::repeat_n(' ', gutter));
        pad(out);
        out.push_str("--> ");
        out.push_str(&escape(self.file));
        if let (Some(l), Some(c)) = (self.line, self.column) {
            out.push(':');
            push_u64(out, l);
            out.push(':');
            push_u64(out, c.into());
        }
        out.push_str(" (game ");
        push_u64(out, self.game);
        if self.white.is_some() || self.black.is_some() {
            out.push_str(", ");
            out.push_str(&escape(self.white.unwrap_or("?")));
            out.push_str(" – ");
            out.push_str(&escape(self.black.unwrap_or("?")));
        }
        if let (Some(n), Some(side)) = (self.move_number, self.side) {
            out.push_str(", move ");
            push_u64(out, n.into());
            out.push(' ');
            out.push_str(side);
        }
        out.push_str(")\n");
        if let Some(cell) = &self.cell {
            pad(out);
            out.push_str(" = ");
            out.push_str(&escape(self.file));
            out.push_str(": ");
            out.push_str(&escape(cell));
            out.push('\n');
        }
        if let (Some(l), Some(src), Some((col, width))) =
            (self.line, self.source_line.as_deref(), self.caret)
        {
            // control characters escaped, and the caret under the token as shown:
            // tabs kept so that it lines up
            let (src, before, width) = escape_line(src, col, width);
            pad(out);
            out.push_str(" |\n");
            push_u64(out, l);
            out.push_str(" | ");
            out.push_str(&src);
            out.push('\n');
            pad(out);
            out.push_str(" | ");
            out.push_str(&before);
            out.extend(std::iter::repeat_n('^', width));
            out.push('\n');
        }
        if let Some(fen) = &self.fen {
            pad(out);
            out.push_str(" = position: ");
            out.push_str(fen);
            out.push('\n');
        }
        if !self.candidates.is_empty() {
            pad(out);
            out.push_str(if self.code == Code::AmbiguousMove {
                " = candidates: "
            } else {
                " = did you mean: "
            });
            for (i, c) in self.candidates.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&escape(c));
            }
            out.push('\n');
        }
        out.push('\n');
    }
}

/// Appends a decimal number.
fn push_u64(out: &mut String, v: u64) {
    out.push_str(itoa::Buffer::new().format(v));
}

#[cfg(test)]
mod tests {
    use super::*;
    use kyphu::{
        archive::read_str,
        replay::{ReplayOptions, replay},
    };

    #[test]
    fn renders_with_caret_and_position() {
        let text = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Bb5 Nf3 *\n";
        let game = replay(read_str(text).remove(0), &ReplayOptions::default());
        let index = LineIndex::new(&game.source.text, game.source.first_line);
        let d = game
            .diagnostics
            .iter()
            .find(|d| d.code == "illegal-move")
            .unwrap();
        let mut out = String::new();
        Located::new("t.pgn", &game, d, &index, &mut Fens::new(&game)).human(&mut out);
        let expected = "error[illegal-move]: illegal move Nf3: no black knight can reach f3\n \
            --> t.pgn:5:8 (game 1, A – B, move 3 black)\n  |\n5 | 3. Bb5 Nf3 *\n  |        ^^^\n  \
            = position: r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3\n  \
            = did you mean: Nf6, Nb8, Nh6\n\n";
        assert_eq!(out, expected);
    }

    /// The FEN before `ply` found from scratch: the rule [`Fens`] must keep.
    fn fen_from_scratch(game: &Game, ply: u32) -> Option<String> {
        let moves = game.moves.moves.get(..(ply.checked_sub(1)? as usize))?;
        let mut board = Board::new(&game.start);
        moves.iter().for_each(|n| board.play(&n.mv));
        Some(board.fen())
    }

    #[test]
    fn fens_in_any_order_agree_with_a_fresh_replay() {
        let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 *";
        let game = replay(read_str(text).remove(0), &ReplayOptions::default());
        let mut fens = Fens::new(&game);
        // forward, repeated, back, past the end, from before the start, forward again
        for ply in [3, 3, 4, 9, 2, 1, 13, 14, 40, 0, 5, 12, 7, 13] {
            assert_eq!(fens.before(ply), fen_from_scratch(&game, ply), "ply {ply}");
        }
    }

    #[test]
    fn control_characters_are_escaped() {
        assert!(matches!(escape("Nguyễn – 象棋\u{2067}"), Cow::Owned(_)));
        assert!(matches!(escape("Nguyễn – 象棋 ♘f3"), Cow::Borrowed(_)));
        assert_eq!(
            escape("a\x1b[31mb\tc\nd\u{9b}e\u{202e}f\x7f"),
            "a\\x1b[31mb\\tc\\nd\\u{9b}e\\u{202e}f\\x7f"
        );
        // the caret under the same characters, whatever was escaped before them
        let (shown, before, width) = escape_line("\x1b[2J\tNf3 x", 5, 3);
        assert_eq!(shown, "\\x1b[2J\tNf3 x");
        assert_eq!(before, "       \t");
        assert_eq!(&shown[before.len()..before.len() + width], "Nf3");
        let (_, before, width) = escape_line("e4", 2, 1);
        assert_eq!((before.as_str(), width), ("  ", 1));
        let (_, before, width) = escape_line("e4 \x07", 3, 1);
        assert_eq!((before.as_str(), width), ("   ", 4));
    }

    #[test]
    fn caret_counts_display_columns_of_wide_characters() {
        // issue 26: the caret under 炮９进１ stood two moves too early (characters
        // counted, not columns: each of these characters takes two)
        let line = "1. 炮二平五 炮８平９ 2. 马二进三 炮９进１ 3. 车一平二 *";
        let col = 21;
        assert_eq!(
            line.chars().skip(col).take(4).collect::<String>(),
            "炮９进１"
        );
        let (_, before, width) = escape_line(line, col, 4);
        assert_eq!((before.len(), width), (33, 8));
        // full-width chess, and chess with a combining mark before the move
        let (_, before, width) = escape_line("1. Ｎｆ３ Nc6", 7, 3);
        assert_eq!((before.len(), width), (10, 3));
        let (_, before, width) = escape_line("Nguye\u{302}\u{303}n 1. e4", 12, 2);
        assert_eq!((before.len(), width), (10, 2));
    }

    #[test]
    fn long_lines_are_windowed() {
        assert_eq!(window("1. e4 e5", 3), ("1. e4 e5".to_owned(), 3));
        let line = "x".repeat(500);
        let (shown, caret) = window(&line, 300);
        assert_eq!(shown.chars().count(), WINDOW + 2);
        assert!(shown.starts_with('…') && shown.ends_with('…'));
        assert_eq!(caret, 51);
        let (end, caret) = window(&line, 499);
        assert!(!end.ends_with('…'));
        assert_eq!(caret, 100);
    }

    #[test]
    fn move_numbers_from_a_black_start() {
        let text = "[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 30\"]\n\n30... Kd7 31. Kd2 *";
        let game = replay(read_str(text).remove(0), &ReplayOptions::default());
        assert_eq!(move_of_ply(&game, 1), (30, Color::Black));
        assert_eq!(move_of_ply(&game, 2), (31, Color::White));
        assert_eq!(
            Fens::new(&game).before(2).as_deref(),
            Some("8/3k4/8/8/8/8/8/4K3 w - - 1 31")
        );
    }
}
