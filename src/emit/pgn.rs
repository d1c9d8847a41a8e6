//! PGN writer, export format of the 1994 standard (§8.1 tags, §8.2 movetext, §16 export).
//!
//! Each game is rendered into one reused `String` and written with one `write_all`;
//! moves are written into a second reused buffer, so nothing is allocated per move.
//! See `docs/formats.md` for the exact layout and every option.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io;

use super::{Board, MoveStyle, SEVEN_TAG_ROSTER, is_initial};
use crate::{
    color::Color,
    game::{AnyMove, Clock, Game, Line, MoveNode, StartPosition, Variant},
    notation::chess::write_san_hinted,
};

/// Where the writer stands in a line: the position, from which each move's text is
/// worked out; or, for a chess game whose every move carries its [`SanHint`]
/// (recorded by replay), only the move number and the side to move: SAN is then
/// written from the hints and nothing is replayed.
///
/// [`SanHint`]: crate::game::SanHint
#[derive(Clone)]
enum Cursor {
    Board(Board),
    Hinted { fullmoves: u32, turn: Color },
}

impl Cursor {
    fn new(game: &Game) -> Cursor {
        match &game.start {
            StartPosition::Chess(p) if all_hinted(&game.moves) => Cursor::Hinted {
                fullmoves: p.fullmoves(),
                turn: p.turn(),
            },
            start => Cursor::Board(Board::new(start)),
        }
    }

    fn fullmoves(&self) -> u32 {
        match self {
            Cursor::Board(b) => b.fullmoves(),
            Cursor::Hinted { fullmoves, .. } => *fullmoves,
        }
    }

    fn turn(&self) -> Color {
        match self {
            Cursor::Board(b) => b.turn(),
            Cursor::Hinted { turn, .. } => *turn,
        }
    }

    /// Appends the move of `node` and moves on past it.
    fn write_and_play(&mut self, out: &mut String, node: &MoveNode, style: &MoveStyle) {
        match self {
            Cursor::Board(b) => b.write_and_play(out, &node.mv, style),
            Cursor::Hinted { fullmoves, turn } => {
                match (&node.mv, node.san) {
                    (AnyMove::Chess(m), Some(hint)) => {
                        write_san_hinted(out, m, hint, &style.chess);
                    }
                    // a null move: `all_hinted` lets nothing else through
                    _ => out.push_str("--"),
                }
                if *turn == Color::Black {
                    *fullmoves += 1;
                }
                *turn = !*turn;
            }
        }
    }
}

/// Whether every move of `line` and its variations is a chess move with its
/// [`crate::game::SanHint`] or a null move (iterative: no recursion on deep input).
fn all_hinted(line: &Line) -> bool {
    let mut lines = Vec::new();
    let mut next = Some(line);
    while let Some(l) = next.take().or_else(|| lines.pop()) {
        for n in &l.moves {
            let hinted = match n.mv {
                AnyMove::Chess(_) => n.san.is_some(),
                AnyMove::Null => true,
                AnyMove::Xiangqi(_) => false,
            };
            if !hinted {
                return false;
            }
            lines.extend(n.variations());
        }
    }
    true
}

/// How a draw offer (FIDE `(=)`, [`crate::game::MoveNode::draw_offer`]) is written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum DrawOffers {
    /// The FIDE scoresheet mark `(=)` after the move (and its NAGs); kyphu reads it
    /// back as a draw offer. Strict PGN readers may take it for a variation.
    #[default]
    Mark,
    /// A comment `{(=)}`: valid PGN for every reader, but read back as a comment.
    Comment,
    /// Not written.
    Omit,
}

/// Options of the PGN writer.
#[derive(Copy, Clone, Debug)]
pub struct PgnOptions {
    /// Reduced export format (§3.2.1): the Seven Tag Roster only (plus `SetUp`/`FEN`
    /// and `Variant` when the start needs them), no comments, NAGs, variations, draw
    /// offers, clocks or `unparsed` comment.
    pub reduced: bool,
    /// Move notation: canonical English SAN by default; another language or the FIDE
    /// house style through [`crate::notation::chess::SanStyle`].
    pub moves: MoveStyle,
    pub draw_offers: DrawOffers,
    /// Longest movetext line in characters (default 79: lines under 80). A single word
    /// longer than this in a comment is split.
    pub max_line: usize,
}

impl Default for PgnOptions {
    fn default() -> Self {
        PgnOptions {
            reduced: false,
            moves: MoveStyle::default(),
            draw_offers: DrawOffers::Mark,
            max_line: 79,
        }
    }
}

/// Writes games as PGN to `out`, one after another, each followed by a blank line.
#[derive(Debug)]
pub struct PgnWriter<W: io::Write> {
    out: W,
    opts: PgnOptions,
    /// The game being rendered.
    buf: String,
    /// One move or number token.
    tok: String,
    /// One comment word.
    word: String,
    /// The last token written: where it starts in `buf`, its length in chars.
    last_start: usize,
    last_chars: usize,
    /// Byte offset in `buf` where the current line starts, and its length in chars.
    line_start: usize,
    line_chars: usize,
}

impl<W: io::Write> PgnWriter<W> {
    pub fn new(out: W, opts: PgnOptions) -> PgnWriter<W> {
        PgnWriter {
            out,
            opts,
            buf: String::with_capacity(4096),
            tok: String::with_capacity(32),
            word: String::with_capacity(64),
            last_start: 0,
            last_chars: 0,
            line_start: 0,
            line_chars: 0,
        }
    }

    /// Writes one game: tags, a blank line, movetext, a blank line.
    pub fn write_game(&mut self, game: &Game) -> io::Result<()> {
        self.buf.clear();
        self.write_tags(game);
        self.buf.push('\n');
        self.line_start = self.buf.len();
        self.last_start = self.buf.len();
        self.line_chars = 0;
        self.write_line(&Cursor::new(game), &game.moves);
        if !self.opts.reduced
            && let Some(rest) = &game.unparsed
        {
            self.comment_words(["kyphu:", "unparsed:"], strip_unparsed_wrapper(rest));
        }
        self.token(game.result.as_str());
        self.buf.push_str("\n\n");
        self.out.write_all(self.buf.as_bytes())
    }

    /// Flushes the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn write_tags(&mut self, game: &Game) {
        let tags = &game.tags;
        if game.variant == Variant::Xiangqi {
            let v = tags.get("Game").unwrap_or("Chinese Chess");
            push_tag(&mut self.buf, "Game", v);
        }
        for name in SEVEN_TAG_ROSTER {
            let value = match name {
                "Result" => game.result.as_str(),
                // Xiangqi records name the first player Red: White in the roster.
                "White" if game.variant == Variant::Xiangqi && tags.get("White").is_none() => tags
                    .get("Red")
                    .filter(|v| !v.trim().is_empty())
                    .unwrap_or("?"),
                _ => match tags.get(name) {
                    Some(v) if !v.trim().is_empty() => v,
                    _ if name == "Date" => "????.??.??",
                    _ => "?",
                },
            };
            push_tag(&mut self.buf, name, value);
        }
        let mut rest: Vec<(&str, Cow<'_, str>)> = Vec::new();
        if !self.opts.reduced {
            for (n, v) in tags.iter() {
                let generated = matches!(n, "SetUp" | "FEN")
                    || SEVEN_TAG_ROSTER.contains(&n)
                    || (n == "Game" && game.variant == Variant::Xiangqi);
                if !generated {
                    rest.push((n, Cow::Borrowed(v)));
                }
            }
        }
        if game.variant == Variant::Chess960 && !rest.iter().any(|(n, _)| *n == "Variant") {
            rest.push(("Variant", Cow::Borrowed("Chess960")));
        }
        if game.variant == Variant::Chess960 || !is_initial(&game.start) {
            rest.push(("SetUp", Cow::Borrowed("1")));
            rest.push(("FEN", Cow::Owned(start_fen(&game.start))));
        }
        rest.sort_by(|a, b| a.0.cmp(b.0));
        for (n, v) in &rest {
            push_tag(&mut self.buf, n, v);
        }
    }

    fn write_line(&mut self, start: &Cursor, line: &Line) {
        let mut b = start.clone();
        let full = !self.opts.reduced;
        let mut need_number = true;
        if full {
            for c in &line.comments {
                self.comment(c);
                need_number = true;
            }
        }
        for node in &line.moves {
            let n = b.fullmoves();
            if b.turn() == Color::White {
                self.token_with(|t| {
                    super::push_u64(t, u64::from(n));
                    t.push('.');
                });
            } else if need_number {
                self.token_with(|t| {
                    super::push_u64(t, u64::from(n));
                    t.push_str("...");
                });
            }
            need_number = false;
            // the position before the move, for its variations
            let before = (full && !node.variations().is_empty()).then(|| b.clone());
            let style = self.opts.moves;
            self.token_with(|t| b.write_and_play(t, node, &style));
            if !full {
                continue;
            }
            for nag in node.nags() {
                self.token_with(|t| {
                    t.push('$');
                    super::push_u64(t, u64::from(*nag));
                });
            }
            if node.draw_offer {
                match self.opts.draw_offers {
                    DrawOffers::Mark => self.token("(=)"),
                    DrawOffers::Comment => {
                        self.comment("(=)");
                        need_number = true;
                    }
                    DrawOffers::Omit => {}
                }
            }
            if node.illegal {
                self.comment("kyphu: illegal move");
                need_number = true;
            }
            if let Some(c) = node.clock {
                self.clock_comment("[%clk", c);
                need_number = true;
            }
            if let Some(c) = node.emt() {
                self.clock_comment("[%emt", c);
                need_number = true;
            }
            for c in node.comments() {
                self.comment(c);
                need_number = true;
            }
            if let Some(before) = &before {
                for var in node.variations() {
                    self.token("(");
                    self.write_line(before, var);
                    self.token(")");
                    need_number = true;
                }
            }
        }
    }

    /// Appends the token that `write` writes, as [`Self::token`] does, but written
    /// straight into the game's buffer (no copy): the space before it is written first
    /// and turned into the line break when the token does not fit. A token starting
    /// with `[` or `%` (never a move, number or NAG) is taken back and handed to
    /// [`Self::token`], which has the rule for those.
    fn token_with(&mut self, write: impl FnOnce(&mut String)) {
        let spaced = self.line_chars > 0;
        if spaced {
            self.buf.push(' ');
        }
        let start = self.buf.len();
        write(&mut self.buf);
        let written = self.buf.get(start..).unwrap_or("");
        if written.starts_with(['[', '%']) {
            let tok = written.to_owned();
            self.buf.truncate(start - usize::from(spaced));
            self.token(&tok);
            return;
        }
        let len = char_len(written);
        if spaced {
            if self.line_chars + 1 + len > self.opts.max_line {
                self.buf.replace_range(start - 1..start, "\n");
                self.line_start = start;
                self.line_chars = 0;
            } else {
                self.line_chars += 1;
            }
        }
        self.last_start = start;
        self.line_chars += len;
        self.last_chars = len;
    }

    /// Appends a token, breaking the line first if it would grow past `max_line`. A
    /// line never starts with `[` or `%` (readers take those for a tag or an escape
    /// line): such a token takes the previous token down with it, or, when the two do
    /// not fit on one line, stays on the current line past `max_line`.
    fn token(&mut self, s: &str) {
        let len = char_len(s);
        if self.line_chars > 0 {
            if self.line_chars + 1 + len > self.opts.max_line {
                let special = s.starts_with(['[', '%']);
                let prev = self.buf.get(self.last_start..).unwrap_or("");
                if special
                    && self.last_start > self.line_start
                    && !prev.starts_with(['[', '%'])
                    && self.last_chars + 1 + len <= self.opts.max_line
                {
                    // turn the space before the previous token into the line break
                    self.buf
                        .replace_range(self.last_start - 1..self.last_start, "\n");
                    self.line_start = self.last_start;
                    self.line_chars = self.last_chars + 1;
                    self.buf.push(' ');
                } else if special {
                    self.buf.push(' ');
                    self.line_chars += 1;
                } else {
                    self.buf.push('\n');
                    self.line_start = self.buf.len();
                    self.line_chars = 0;
                }
            } else {
                self.buf.push(' ');
                self.line_chars += 1;
            }
        }
        self.last_start = self.buf.len();
        self.buf.push_str(s);
        self.line_chars += len;
        self.last_chars = len;
    }

    fn clock_comment(&mut self, cmd: &str, c: Clock) {
        self.tok.clear();
        let _ = write!(self.tok, "{c}]");
        let tok = std::mem::take(&mut self.tok);
        self.comment_words([cmd], &tok);
        self.tok = tok;
        self.tok.clear();
    }

    fn comment(&mut self, text: &str) {
        self.comment_words([], text);
    }

    /// Writes `{prefix… text}` word by word (whitespace normalized to single spaces or
    /// line breaks). Braces that pair up inside the text are kept (readers count nested
    /// braces); an unpaired `}` is written `\x7d` and an unpaired `{` `\x7b`.
    fn comment_words<const N: usize>(&mut self, prefix: [&str; N], text: &str) {
        let escapes = unpaired_braces(text);
        let mut first = true;
        let mut words = prefix
            .into_iter()
            .map(|w| (w, None))
            .chain(text.split_whitespace().map(|w| {
                let off = w.as_ptr() as usize - text.as_ptr() as usize;
                (w, Some(off))
            }))
            .peekable();
        if words.peek().is_none() {
            self.token("{}");
            return;
        }
        let mut word = std::mem::take(&mut self.word);
        while let Some((w, off)) = words.next() {
            word.clear();
            if first {
                word.push('{');
                first = false;
            }
            match off {
                Some(off) if !escapes.is_empty() => {
                    for (i, ch) in w.char_indices() {
                        match ch {
                            '}' if escapes.binary_search(&(off + i)).is_ok() => {
                                word.push_str("\\x7d");
                            }
                            '{' if escapes.binary_search(&(off + i)).is_ok() => {
                                word.push_str("\\x7b");
                            }
                            ch => word.push(ch),
                        }
                    }
                }
                _ => word.push_str(w),
            }
            if words.peek().is_none() {
                word.push('}');
            }
            self.long_word(&word);
        }
        self.word = word;
    }

    /// A comment word, split into pieces if it cannot fit on a line by itself.
    fn long_word(&mut self, w: &str) {
        let max = self.opts.max_line.max(2);
        if char_len(w) <= max {
            self.token(w);
            return;
        }
        let mut start = 0;
        let mut count = 0;
        for (i, c) in w.char_indices() {
            // no piece starts with `[` or `%` (see `token`)
            if count >= max && !matches!(c, '[' | '%') {
                self.token(w.get(start..i).unwrap_or(""));
                start = i;
                count = 0;
            }
            count += 1;
        }
        self.token(w.get(start..).unwrap_or(""));
    }
}

/// Renders one game as a PGN string (convenience for tests and small jobs; prefer
/// [`PgnWriter`] for archives).
pub fn to_pgn_string(game: &Game, opts: &PgnOptions) -> String {
    let mut w = PgnWriter::new(Vec::new(), *opts);
    // Writing into a Vec cannot fail.
    let _ = w.write_game(game);
    String::from_utf8(w.into_inner()).unwrap_or_default()
}

/// Byte offsets (ascending) of the braces of `text` that do not pair up.
fn unpaired_braces(text: &str) -> Vec<usize> {
    if !text.contains(['{', '}']) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut open = Vec::new();
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'{' => open.push(i),
            // the guard pops the matching `{`; a `}` with none to pop is unpaired
            b'}' if open.pop().is_none() => out.push(i),
            _ => {}
        }
    }
    out.extend(open);
    out.sort_unstable();
    out
}

/// The text inside `{kyphu: unparsed: …}` when `rest` is exactly such a comment (a
/// game whose rest was already written by kyphu, read again), so that a second pass
/// does not wrap it twice.
fn strip_unparsed_wrapper(rest: &str) -> &str {
    let t = rest.trim();
    let Some(inner) = t
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .map(str::trim_start)
        .and_then(|t| t.strip_prefix("kyphu:"))
        .map(str::trim_start)
        .and_then(|t| t.strip_prefix("unparsed:"))
    else {
        return rest;
    };
    // the outer braces must pair with each other
    if unpaired_braces(inner).is_empty() {
        inner
    } else {
        rest
    }
}

fn char_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

fn start_fen(start: &StartPosition) -> String {
    start.fen()
}

/// `[Name "value"]` with `\` and `"` escaped and line breaks/tabs as spaces.
fn push_tag(buf: &mut String, name: &str, value: &str) {
    buf.push('[');
    // a tag name is a PGN symbol: letters, digits and `_+#=:-`; anything else (from a
    // spreadsheet header, say) becomes `_`
    // and starts with an ASCII letter, as the splitter requires of a tag line
    if !name.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
        buf.push('X');
    }
    if name
        .bytes()
        .all(|b| b.is_ascii() && symbol_char(char::from(b)))
    {
        buf.push_str(name);
    } else {
        buf.extend(name.chars().map(|c| if symbol_char(c) { c } else { '_' }));
    }
    buf.push_str(" \"");
    // the characters to replace are ASCII: the runs between them are copied whole
    let mut rest = value;
    while let Some(i) = rest
        .bytes()
        .position(|b| matches!(b, b'\\' | b'"' | b'\n' | b'\r' | b'\t'))
    {
        buf.push_str(rest.get(..i).unwrap_or(""));
        buf.push_str(match rest.as_bytes().get(i) {
            Some(b'\\') => "\\\\",
            Some(b'"') => "\\\"",
            _ => " ",
        });
        rest = rest.get(i + 1..).unwrap_or("");
    }
    buf.push_str(rest);
    buf.push_str("\"]\n");
}

/// A character kept in a tag name (a PGN symbol character).
fn symbol_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '+' | '#' | '=' | ':' | '-')
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::{
        chess::Position,
        diag::Span,
        game::{AnyMove, GameResult, MoveNode},
    };

    fn mv(pos: &Position, uci: &str) -> AnyMove {
        AnyMove::Chess(
            *pos.legal_moves()
                .iter()
                .find(|m| m.uci(pos.chess960()) == uci)
                .unwrap(),
        )
    }

    fn line(start: &Position, ucis: &[&str]) -> Line {
        let mut p = start.clone();
        let mut l = Line::default();
        for u in ucis {
            let m = mv(&p, u);
            if let AnyMove::Chess(c) = m {
                p.play_unchecked(&c);
            }
            l.moves.push(MoveNode::new(m, Span::default()));
        }
        l
    }

    /// `token_with` (a token written in place) lays out lines exactly as `token` (a
    /// token copied in) does, whatever the tokens and the line width: moves, numbers,
    /// wide characters, and the `[`/`%` tokens it hands back to `token`.
    #[test]
    fn token_with_lays_out_as_token() {
        let words = [
            "1.",
            "e4",
            "12...",
            "Nbd7",
            "O-O-O",
            "exd8=Q#",
            "$14",
            "(=)",
            "[%clk",
            "%x",
            "0:01:02]",
            "Mã",
            "王e2",
            "♘f3",
            "1-0",
            "",
            "{a",
            "b}",
            "abcdefghijklmnop",
        ];
        let mut rng = crate::testing::XorShift::new(0x2545_f491_4f6c_dd1d);
        for round in 0..400 {
            let opts = PgnOptions {
                max_line: 1 + (round % 40),
                ..PgnOptions::default()
            };
            let mut copied = PgnWriter::new(Vec::new(), opts);
            let mut in_place = PgnWriter::new(Vec::new(), opts);
            for _ in 0..60 {
                let w = words[rng.below(words.len())];
                copied.token(w);
                in_place.token_with(|t| t.push_str(w));
                assert_eq!(copied.buf, in_place.buf, "width {}", opts.max_line);
                assert_eq!(
                    (
                        copied.line_chars,
                        copied.line_start,
                        copied.last_start,
                        copied.last_chars
                    ),
                    (
                        in_place.line_chars,
                        in_place.line_start,
                        in_place.last_start,
                        in_place.last_chars
                    )
                );
            }
        }
    }

    /// `push_tag` writes what a character-by-character rewrite of the name and value
    /// writes, on names and values mixing plain text, the characters to escape or
    /// replace, and non-ASCII letters and symbols.
    #[test]
    fn push_tag_agrees_with_per_character_rewrite() {
        fn reference(name: &str, value: &str) -> String {
            let mut s = String::from("[");
            if !name.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
                s.push('X');
            }
            for c in name.chars() {
                s.push(if symbol_char(c) { c } else { '_' });
            }
            s.push_str(" \"");
            for c in value.chars() {
                match c {
                    '\\' => s.push_str("\\\\"),
                    '"' => s.push_str("\\\""),
                    '\n' | '\r' | '\t' => s.push(' '),
                    c => s.push(c),
                }
            }
            s.push_str("\"]\n");
            s
        }
        let parts = [
            "a", "Z9", "_", "+", " ", "\\", "\"", "\n", "\r", "\t", "é", "Đ", "王", "♘",
            "\u{2028}", "%", "[", "]", "",
        ];
        let mut rng = crate::testing::XorShift::new(0x9e37_79b9_7f4a_7c15);
        let mut piece =
            |n: u64| -> String { (0..n).map(|_| parts[rng.below(parts.len())]).collect() };
        for n in 0..2000 {
            let name = piece(n % 5);
            let value = piece(n % 9);
            let mut got = String::new();
            push_tag(&mut got, &name, &value);
            assert_eq!(got, reference(&name, &value), "{name:?} {value:?}");
        }
    }

    #[test]
    fn tag_escapes() {
        let cases = [
            ("plain", "[X \"plain\"]\n"),
            ("a\"b", "[X \"a\\\"b\"]\n"),
            ("a\\b", "[X \"a\\\\b\"]\n"),
            ("a\nb", "[X \"a b\"]\n"),
        ];
        for (v, want) in cases {
            let mut s = String::new();
            push_tag(&mut s, "X", v);
            assert_eq!(s, want);
        }
        for (name, want) in [
            ("White Elo", "[White_Elo \"v\"]\n"),
            ("", "[X \"v\"]\n"),
            ("-1", "[X-1 \"v\"]\n"),
            ("a]b", "[a_b \"v\"]\n"),
            ("ہيآ_Date", "[Xہيآ_Date \"v\"]\n"),
            ("Đen", "[XĐen \"v\"]\n"),
        ] {
            let mut s = String::new();
            push_tag(&mut s, name, "v");
            assert_eq!(s, want);
        }
    }

    #[test]
    fn numbering_and_tags() {
        let mut g = Game::new_chess();
        g.tags.set("ECO", "C20");
        g.tags.set("White", "Anh \"Tí\"");
        g.tags.set("Annotator", "x");
        g.moves = line(&Position::default(), &["e2e4", "e7e5", "g1f3"]);
        g.moves.moves[0]
            .extras_mut()
            .comments
            .push("best by test".into());
        g.result = GameResult::WhiteWins;
        let s = to_pgn_string(&g, &PgnOptions::default());
        assert_eq!(
            s,
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"Anh \\\"Tí\\\"\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[Annotator \"x\"]\n\
             [ECO \"C20\"]\n\n1. e4 {best by test} 1... e5 2. Nf3 1-0\n\n"
        );
        let reduced = to_pgn_string(
            &g,
            &PgnOptions {
                reduced: true,
                ..PgnOptions::default()
            },
        );
        assert!(
            reduced.ends_with("\n\n1. e4 e5 2. Nf3 1-0\n\n"),
            "{reduced}"
        );
        assert!(!reduced.contains("ECO"));
    }

    #[test]
    fn wraps_under_80() {
        let mut g = Game::new_chess();
        let ucis = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let many: Vec<&str> = ucis.iter().cycle().take(200).copied().collect();
        g.moves = line(&Position::default(), &many);
        g.moves.moves[3].extras_mut().comments.push("x".repeat(200));
        g.unparsed = Some("Nf9 } {".into());
        let s = to_pgn_string(&g, &PgnOptions::default());
        for l in s.lines() {
            assert!(l.chars().count() < 80, "{l}");
        }
        assert!(s.contains("{kyphu: unparsed: Nf9 \\x7d \\x7b}"), "{s}");
    }

    #[test]
    fn braces_and_wrappers() {
        let cases: [(&str, &[usize]); 5] = [
            ("plain", &[]),
            ("a {b} c", &[]),
            ("a } b", &[2]),
            ("{ { }", &[0]),
            ("} {x} {", &[0, 6]),
        ];
        for (t, want) in cases {
            assert_eq!(unpaired_braces(t), want, "{t}");
        }
        for (t, want) in [
            ("{kyphu: unparsed: 1. e4 {x}}", " 1. e4 {x}"),
            ("1. e4", "1. e4"),
            ("{kyphu: unparsed: a} {b}", "{kyphu: unparsed: a} {b}"),
        ] {
            assert_eq!(strip_unparsed_wrapper(t), want, "{t}");
        }
    }

    #[test]
    fn no_line_starts_with_bracket_or_percent() {
        let mut g = Game::new_chess();
        g.moves = line(&Position::default(), &["e2e4"]);
        for pad in 0..12 {
            let text = format!("{} [a] b %c d [e f %g", "w ".repeat(30 + pad));
            g.moves.moves[0].extras_mut().comments = vec![text];
            let s = to_pgn_string(&g, &PgnOptions::default());
            let movetext = s.split("\n\n").nth(1).unwrap();
            for l in movetext.lines() {
                assert!(!l.starts_with(['[', '%']) && l.chars().count() < 80, "{s}");
            }
        }
    }

    #[test]
    fn draw_offer_styles() {
        let mut g = Game::new_chess();
        g.moves = line(&Position::default(), &["e2e4", "e7e5"]);
        g.moves.moves[0].draw_offer = true;
        g.moves.moves[0].extras_mut().nags.push(1);
        let cases = [
            (DrawOffers::Mark, "1. e4 $1 (=) e5 *"),
            (DrawOffers::Comment, "1. e4 $1 {(=)} 1... e5 *"),
            (DrawOffers::Omit, "1. e4 $1 e5 *"),
        ];
        for (d, want) in cases {
            let s = to_pgn_string(
                &g,
                &PgnOptions {
                    draw_offers: d,
                    ..PgnOptions::default()
                },
            );
            assert!(s.ends_with(&format!("\n\n{want}\n\n")), "{s}");
        }
    }
}
