//! PGN writer, export format of the 1994 standard (§8.1 tags, §8.2 movetext, §16 export).
//!
//! Each game is rendered into one reused `String` and written with one `write_all`;
//! moves are written into a second reused buffer, so nothing is allocated per move.
//! See `docs/formats.md` for the exact layout and every option.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io;

mod fast;

use fast::{all_hinted, usual_move};

use super::{Board, ChessMoves, MoveStyle, SEVEN_TAG_ROSTER, XiangqiNotation, is_initial};
use crate::{
    archive::pgn::unescape_comment,
    chess::Move,
    color::Color,
    emit::WriteMoves,
    model::game::{AnyMove, Clock, Game, Line, MoveNode, SanHint, StartPosition, Variant},
    notation::chess::{San, SanOut},
};

/// Where the writer stands in a line: the position, from which each move's text is
/// worked out; or, for a chess game whose every move carries its [`SanHint`]
/// (recorded by replay), only the move number and the side to move: SAN is then
/// written from the hints and nothing is replayed.
///
/// [`SanHint`]: crate::model::game::SanHint
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

    /// Appends the move of `node` (in `form`: a [`Cursor::Hinted`] is made only for
    /// SAN) and moves on past it.
    fn write_and_play(
        &mut self,
        out: &mut String,
        node: &MoveNode,
        style: &MoveStyle,
        form: ChessMoves,
    ) {
        match self {
            Cursor::Board(b) if form != ChessMoves::San => {
                super::write_and_play_as(b, out, &node.mv, style, form);
            }
            Cursor::Board(b) => b.write_and_play(out, &node.mv, style),
            Cursor::Hinted { .. } => {
                match (&node.mv, node.san) {
                    (AnyMove::Chess(m), Some(hint)) => {
                        San::from_hint(*m, hint).write(out, &style.chess);
                    }
                    // a null move: `all_hinted` lets nothing else through
                    _ => out.push_str("--"),
                }
                self.pass_turn();
            }
        }
    }

    /// Moves a [`Cursor::Hinted`] on past a move (a `Board` is played instead).
    #[inline(always)]
    fn pass_turn(&mut self) {
        if let Cursor::Hinted { fullmoves, turn } = self {
            if *turn == Color::Black {
                *fullmoves = fullmoves.saturating_add(1); // as `Position::play` counts
            }
            *turn = !*turn;
        }
    }
}

/// How a draw offer (FIDE `(=)`, [`crate::model::game::MoveNode::draw_offer`]) is written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum DrawOffers {
    /// The FIDE scoresheet mark `(=)` after the move (and its NAGs), bare; kyphu reads
    /// it back as a draw offer, but other PGN readers do not: pgn-extract takes it for
    /// an empty variation (with a warning) and python-chess drops it.
    Mark,
    /// A comment `{(=)}` after the move (the default): PGN every reader takes without a
    /// warning (pgn-extract and python-chess keep it as a comment), and kyphu reads a
    /// comment that is exactly `(=)` back as a draw offer (issue 27).
    #[default]
    Comment,
    /// Not written.
    Omit,
}

/// The `Format` tag of xiangqi movetext written in `notation`: `ICCS`, `WXF`, `Chinese`;
/// `None` for the notations that have no name in the xiangqi PGN conventions.
pub fn xiangqi_format(notation: &XiangqiNotation) -> Option<&'static str> {
    use crate::notation::xiangqi::Dialect;
    match notation {
        XiangqiNotation::Iccs | XiangqiNotation::Dialect(Dialect::Iccs) => Some("ICCS"),
        XiangqiNotation::Dialect(Dialect::Wxf) => Some("WXF"),
        XiangqiNotation::Dialect(Dialect::Chinese(_)) => Some("Chinese"),
        XiangqiNotation::Dialect(_) => None,
    }
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
    /// Chess moves as SAN (default), long algebraic or UCI (`convert --out-notation`).
    pub chess_moves: ChessMoves,
    /// A comment `{[%fen FEN]}` after every move, the position it leads to (`convert
    /// --fen-each`), also in the reduced format.
    pub fen_each: bool,
}

impl Default for PgnOptions {
    fn default() -> Self {
        PgnOptions {
            reduced: false,
            moves: MoveStyle::default(),
            draw_offers: DrawOffers::Comment,
            max_line: 79,
            chess_moves: ChessMoves::San,
            fen_each: false,
        }
    }
}

/// Writes games as PGN to `out`, one after another, each followed by a blank line.
#[derive(Debug)]
pub struct PgnWriter<W: io::Write> {
    out: W,
    opts: PgnOptions,
    /// The game being rendered (always UTF-8: whole strings and ASCII are appended).
    buf: Vec<u8>,
    /// One move, number or NAG token of the general path.
    tok: String,
    /// One comment word.
    word: String,
    /// The last token written: where it starts in `buf`, its length in chars.
    last_start: usize,
    last_chars: usize,
    /// Byte offset in `buf` where the current line starts, and its length in chars.
    line_start: usize,
    line_chars: usize,
    /// Moves of the usual kind are written by [`Self::put_usual`] (always, but in the
    /// test comparing it with the general path).
    usual_path: bool,
    /// The piece letters of the SAN style are ASCII: SAN has as many characters as
    /// bytes.
    ascii_letters: bool,
}

impl<W: io::Write> PgnWriter<W> {
    pub fn new(out: W, opts: PgnOptions) -> PgnWriter<W> {
        PgnWriter {
            out,
            opts,
            buf: Vec::new(),
            tok: String::new(),
            word: String::new(),
            last_start: 0,
            last_chars: 0,
            line_start: 0,
            line_chars: 0,
            usual_path: true,
            ascii_letters: crate::chess::Role::ALL
                .iter()
                .all(|&r| opts.moves.chess.table.letter(r).is_ascii()),
        }
    }

    /// Writes one game: tags, a blank line, movetext, a blank line.
    pub fn write_game(&mut self, game: &Game) -> io::Result<()> {
        self.render(game);
        self.out.write_all(&self.buf)
    }

    /// Flushes the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Renders `game` into `buf` (cleared first), as [`Self::write_game`] writes it.
    fn render(&mut self, game: &Game) {
        self.buf.clear();
        self.buf.reserve(size_hint(game));
        self.write_tags(game);
        self.buf.push(b'\n');
        self.line_start = self.buf.len();
        self.last_start = self.buf.len();
        self.line_chars = 0;
        // moves written otherwise than as SAN, or followed by their position, are
        // written from the position (the hints give only SAN)
        let start = if self.opts.chess_moves == ChessMoves::San && !self.opts.fen_each {
            Cursor::new(game)
        } else {
            Cursor::Board(Board::new(&game.start))
        };
        self.write_line(&start, &game.moves);
        if !self.opts.reduced
            && let Some(rest) = &game.unparsed
        {
            self.comment_words(["kyphu:", "unparsed:"], &strip_unparsed_wrapper(rest));
        }
        self.token(game.result.as_str());
        self.buf.extend_from_slice(b"\n\n");
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
            // a tag the roster (or `Game` of xiangqi) wrote: the first of its name;
            // a second of the same name is written with the others
            let mut written = 0u8;
            for (n, v) in tags.iter() {
                let slot = SEVEN_TAG_ROSTER
                    .iter()
                    .position(|r| *r == n)
                    .or_else(|| (n == "Game" && game.variant == Variant::Xiangqi).then_some(7));
                let first = slot.is_some_and(|i| {
                    let bit = 1u8 << i;
                    let first = written & bit == 0;
                    written |= bit;
                    first
                });
                let generated = matches!(n, "SetUp" | "FEN") || first;
                if !generated {
                    rest.push((n, Cow::Borrowed(v)));
                }
            }
        }
        if game.variant == Variant::Xiangqi {
            // the notation of the movetext as written here: the one the xiangqi PGN
            // readers (cchess) need to read ICCS or WXF moves; a Format tag of the
            // input named the input's notation, not this one
            rest.retain(|(n, _)| *n != "Format");
            if let Some(f) = xiangqi_format(&self.opts.moves.xiangqi) {
                rest.push(("Format", Cow::Borrowed(f)));
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
            if self.usual_path
                && let Cursor::Hinted { fullmoves, turn } = &mut b
                && let Some((m, hint)) = usual_move(node)
                && self.put_usual(*fullmoves, *turn, need_number, m, hint)
            {
                b.pass_turn();
                need_number = false;
                continue;
            }
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
            let (style, form) = (self.opts.moves, self.opts.chess_moves);
            self.token_with(|t| b.write_and_play(t, node, &style, form));
            if !full {
                if self.opts.fen_each {
                    self.fen_comment(&b);
                    need_number = true;
                }
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
            if self.opts.fen_each {
                self.fen_comment(&b);
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

    /// Lays out the next token, of `len` characters starting at byte `start` of
    /// `buf`, after a separator at `start - 1` unless the line is empty, and returns
    /// that separator: a space, or a line break when the token would make the line
    /// longer than `max_line` (the rule of [`Self::token`] but for a token starting
    /// with `[` or `%`). When the line is empty there is no separator: the space
    /// returned is not to be written.
    #[inline(always)]
    fn place(&mut self, start: usize, len: usize) -> u8 {
        let mut sep = b' ';
        if self.line_chars > 0 {
            if self.line_chars + 1 + len > self.opts.max_line {
                sep = b'\n';
                self.line_start = start;
                self.line_chars = 0;
            } else {
                self.line_chars += 1;
            }
        }
        self.last_start = start;
        self.line_chars += len;
        self.last_chars = len;
        sep
    }

    /// Appends the token that `write` writes, as [`Self::token`] does.
    fn token_with(&mut self, write: impl FnOnce(&mut String)) {
        let mut tok = std::mem::take(&mut self.tok);
        tok.clear();
        write(&mut tok);
        self.token(&tok);
        self.tok = tok;
    }

    /// Appends a token, breaking the line first if it would grow past `max_line`
    /// ([`Self::place`]). A line never starts with `[` or `%` (readers take those for
    /// a tag or an escape line): such a token takes the previous token down with it,
    /// or, when the two do not fit on one line, stays on the current line past
    /// `max_line`.
    fn token(&mut self, s: &str) {
        let len = char_len(s);
        if self.line_chars > 0
            && self.line_chars + 1 + len > self.opts.max_line
            && s.starts_with(['[', '%'])
        {
            let prev = self.buf.get(self.last_start).copied();
            if self.last_start > self.line_start
                && !matches!(prev, Some(b'[' | b'%'))
                && self.last_chars + 1 + len <= self.opts.max_line
            {
                // turn the space before the previous token into the line break
                if let Some(b) = self.buf.get_mut(self.last_start - 1) {
                    *b = b'\n';
                }
                self.line_start = self.last_start;
                self.line_chars = self.last_chars + 1;
            } else {
                self.line_chars += 1;
            }
            self.buf.push(b' ');
            self.last_start = self.buf.len();
            self.line_chars += len;
            self.last_chars = len;
        } else {
            let spaced = self.line_chars > 0;
            let sep = self.place(self.buf.len() + usize::from(spaced), len);
            if spaced {
                self.buf.push(sep);
            }
        }
        self.buf.extend_from_slice(s.as_bytes());
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

    /// `{[%fen FEN]}`: the position `at` stands in (`fen_each`).
    #[cold]
    fn fen_comment(&mut self, at: &Cursor) {
        if let Cursor::Board(b) = at {
            let fen = b.fen() + "]";
            self.comment_words(["[%fen"], &fen);
        }
    }

    /// Writes `{prefix… text}` word by word (whitespace normalized to single spaces or
    /// line breaks). No brace of the text is written as it is, so that every PGN reader
    /// ends the comment where kyphu does: `{` is written `\x7b`, `}` `\x7d`, and a
    /// backslash that would start one of these escapes (or `\x5c`) `\x5c`
    /// ([`escape_comment`]; [`unescape_comment`](crate::archive::pgn::unescape_comment) reads them back).
    fn comment_words<const N: usize>(&mut self, prefix: [&str; N], text: &str) {
        let escape = needs_escape(text);
        let mut first = true;
        let mut words = prefix
            .into_iter()
            .map(|w| (w, false))
            .chain(text.split_whitespace().map(|w| (w, escape)))
            .peekable();
        if words.peek().is_none() {
            self.token("{}");
            return;
        }
        let mut word = std::mem::take(&mut self.word);
        while let Some((w, escape)) = words.next() {
            word.clear();
            if first {
                word.push('{');
                first = false;
            }
            if escape {
                escape_comment(w, &mut word);
            } else {
                word.push_str(w);
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

/// Renders one game as PGN bytes, as [`PgnWriter::write_game`] writes it, in a buffer
/// of its own (for a caller that keeps each game's output apart).
pub fn to_pgn_bytes(game: &Game, opts: &PgnOptions) -> Vec<u8> {
    let mut w = PgnWriter::new(io::sink(), *opts);
    w.render(game);
    w.buf
}

/// Text that is not a game (read between games, or not read as a game at all), kept
/// in PGN output as `%` escape lines, which PGN readers skip (PGN standard §6): every
/// line of the text with `%` put before it (a line that already starts with `%` as it
/// is; a blank line as `%` alone), then a blank line. Read again by kyphu, the lines
/// are escape lines again. See `docs/formats.md`.
pub fn non_game_bytes(text: &str) -> Vec<u8> {
    let text = text.trim_end();
    let mut out = Vec::with_capacity(text.len() + text.len() / 16 + 8);
    if text.trim().is_empty() {
        return out;
    }
    // leading blank lines are layout, not text
    let first = text.len() - text.trim_start_matches(['\r', '\n']).len();
    // every line end the reader knows (`\n`, `\r\n`, a lone `\r`) starts a line
    let lines = text.get(first..).unwrap_or("").split('\n');
    for line in lines.flat_map(|l| l.strip_suffix('\r').unwrap_or(l).split('\r')) {
        let line = line.trim_end();
        if !line.starts_with('%') {
            out.push(b'%');
        }
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
    }
    out.push(b'\n');
    out
}

/// Renders one game as a PGN string (convenience for tests and small jobs; prefer
/// [`PgnWriter`] for archives).
pub fn to_pgn_string(game: &Game, opts: &PgnOptions) -> String {
    // the writer appends only whole strings and ASCII: always UTF-8
    String::from_utf8(to_pgn_bytes(game, opts))
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// About the length of the PGN of `game`, so that its buffer is mostly allocated
/// once: its text (tags and movetext), with room for the spaces added after move
/// numbers.
fn size_hint(game: &Game) -> usize {
    512 + game.source.text.len() + game.source.text.len() / 4
}

/// Whether [`escape_comment`] changes `text`.
fn needs_escape(text: &str) -> bool {
    text.contains(['{', '}', '\\'])
}

/// Appends `text` to `out` with the escapes of a comment kyphu writes: `{` as `\x7b`,
/// `}` as `\x7d`, and a backslash that starts `x7b`, `x7d` or `x5c` as `\x5c`, so that
/// the comment holds no brace (PGN comments do not nest: a reader ends a comment at the
/// first `}`) and [`unescape_comment`](crate::archive::pgn::unescape_comment) gives `text` back.
pub fn escape_comment(text: &str, out: &mut String) {
    let mut rest = text;
    while let Some(i) = rest.find(['{', '}', '\\']) {
        out.push_str(rest.get(..i).unwrap_or(""));
        let tail = rest.get(i..).unwrap_or("");
        if tail.starts_with('{') {
            out.push_str("\\x7b");
        } else if tail.starts_with('}') {
            out.push_str("\\x7d");
        } else if starts_escape(tail) {
            out.push_str("\\x5c");
        } else {
            out.push('\\');
        }
        rest = rest.get(i + 1..).unwrap_or("");
    }
    out.push_str(rest);
}

/// `s` starts with one of the escapes of [`escape_comment`].
fn starts_escape(s: &str) -> bool {
    s.starts_with("\\x7b") || s.starts_with("\\x7d") || s.starts_with("\\x5c")
}

/// The text inside `{kyphu: unparsed: …}` when `rest` is exactly such a comment (a
/// game whose rest was already written by kyphu, read again), so that a second pass
/// does not wrap it twice.
fn strip_unparsed_wrapper(rest: &str) -> Cow<'_, str> {
    let t = rest.trim();
    let Some(inner) = t
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .map(str::trim_start)
        .and_then(|t| t.strip_prefix("kyphu:"))
        .map(str::trim_start)
        .and_then(|t| t.strip_prefix("unparsed:"))
    else {
        return Cow::Borrowed(rest);
    };
    // the outer braces close each other: no brace inside (kyphu escapes them)
    if inner.contains(['{', '}']) {
        Cow::Borrowed(rest)
    } else {
        unescape_comment(inner)
    }
}

/// The characters of `s`, what the length of a PGN line counts.
fn char_len(s: &str) -> usize {
    utf8_chars(s.as_bytes())
}

/// The characters of UTF-8 `bytes`: the bytes that are not continuation bytes (all
/// of them when the text is ASCII, told at once).
fn utf8_chars(bytes: &[u8]) -> usize {
    if bytes.is_ascii() {
        bytes.len()
    } else {
        bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
    }
}

fn start_fen(start: &StartPosition) -> String {
    start.fen()
}

/// `[Name "value"]` with `\` and `"` escaped and line breaks/tabs as spaces.
fn push_tag(buf: &mut Vec<u8>, name: &str, value: &str) {
    buf.push(b'[');
    // a tag name is a PGN symbol: letters, digits and `_+#=:-`; anything else (from a
    // spreadsheet header, say) becomes `_`
    // and starts with an ASCII letter, as the splitter requires of a tag line
    if !name.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
        buf.push(b'X');
    }
    if name
        .bytes()
        .all(|b| TAG_BYTES[usize::from(b)] & SYMBOL != 0)
    {
        buf.extend_from_slice(name.as_bytes());
    } else {
        let mut utf8 = [0; 4];
        for c in name.chars() {
            let c = if symbol_char(c) { c } else { '_' };
            buf.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
        }
    }
    buf.extend_from_slice(b" \"");
    // the characters to replace are ASCII: the runs between them are copied whole
    let mut rest = value.as_bytes();
    while let Some(i) = rest
        .iter()
        .position(|&b| TAG_BYTES[usize::from(b)] & REPLACED != 0)
    {
        buf.extend_from_slice(rest.get(..i).unwrap_or(&[]));
        buf.extend_from_slice(match rest.get(i) {
            Some(b'\\') => &b"\\\\"[..],
            Some(b'"') => b"\\\"",
            _ => b" ",
        });
        rest = rest.get(i + 1..).unwrap_or(&[]);
    }
    buf.extend_from_slice(rest);
    buf.extend_from_slice(b"\"]\n");
}

/// What [`push_tag`] does with each byte, as bits: [`SYMBOL`], [`REPLACED`].
const TAG_BYTES: [u8; 256] = {
    let mut t = [0; 256];
    let mut b = 0;
    while b < 128 {
        if symbol_ascii(b as u8) {
            t[b] |= SYMBOL;
        }
        if matches!(b as u8, b'\\' | b'"' | b'\n' | b'\r' | b'\t') {
            t[b] |= REPLACED;
        }
        b += 1;
    }
    t
};

/// An ASCII byte kept in a tag name ([`symbol_char`]).
const SYMBOL: u8 = 1;
/// A byte of a tag value written otherwise: `\` and `"` escaped, line breaks and tabs
/// as spaces.
const REPLACED: u8 = 2;

/// A character kept in a tag name (a PGN symbol character).
fn symbol_char(c: char) -> bool {
    c.is_alphanumeric() || u8::try_from(c).is_ok_and(symbol_ascii)
}

/// An ASCII byte kept in a tag name: a letter, a digit or one of `_+#=:-`.
const fn symbol_ascii(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'=' | b':' | b'-')
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::{
        chess::Position,
        model::diag::Span,
        model::game::{AnyMove, GameResult, MoveNode},
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
            let mut got = Vec::new();
            push_tag(&mut got, &name, &value);
            assert_eq!(
                got,
                reference(&name, &value).as_bytes(),
                "{name:?} {value:?}"
            );
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
            let mut s = Vec::new();
            push_tag(&mut s, "X", v);
            assert_eq!(s, want.as_bytes());
        }
        for (name, want) in [
            ("White Elo", "[White_Elo \"v\"]\n"),
            ("", "[X \"v\"]\n"),
            ("-1", "[X-1 \"v\"]\n"),
            ("a]b", "[a_b \"v\"]\n"),
            ("ہيآ_Date", "[Xہيآ_Date \"v\"]\n"),
            ("Đen", "[XĐen \"v\"]\n"),
        ] {
            let mut s = Vec::new();
            push_tag(&mut s, name, "v");
            assert_eq!(s, want.as_bytes());
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
        for (t, want) in [
            ("plain", "plain"),
            ("a {b} c", r"a \x7bb\x7d c"),
            ("a } b", r"a \x7d b"),
            (r"\x7b \x5c \x41 \", r"\x5cx7b \x5cx5c \x41 \"),
            (r"\\x7d", r"\\x5cx7d"),
        ] {
            let mut out = String::new();
            escape_comment(t, &mut out);
            assert_eq!(out, want, "{t}");
            assert!(!out.contains(['{', '}']));
            assert_eq!(unescape_comment(&out), t, "{t}");
        }
        for (t, want) in [
            (r"{kyphu: unparsed: 1. e4 \x7bx\x7d}", " 1. e4 {x}"),
            ("1. e4", "1. e4"),
            ("{kyphu: unparsed: a} {b}", "{kyphu: unparsed: a} {b}"),
        ] {
            assert_eq!(strip_unparsed_wrapper(t), want, "{t}");
        }
    }

    /// Issue 22: the unread rest kept in a comment held a `}` of its own, and readers
    /// that end a comment at the first `}` (python-chess, pgn-extract) read the text
    /// after it as moves. Every brace of a comment kyphu writes is escaped.
    #[test]
    fn unparsed_comment_never_ends_early() {
        let mut g = Game::new_chess();
        g.moves = line(&Position::default(), &["e2e4", "e7e5"]);
        g.moves.moves[0]
            .extras_mut()
            .comments
            .push("a {b} c }".into());
        g.unparsed = Some("Ke3 {note} Nf3 3. Nf3".into());
        let s = to_pgn_string(&g, &PgnOptions::default());
        let movetext = s.split("\n\n").nth(1).unwrap().replace('\n', " ");
        assert_eq!(
            movetext,
            r"1. e4 {a \x7bb\x7d c \x7d} 1... e5 {kyphu: unparsed: Ke3 \x7bnote\x7d Nf3 3. Nf3} *"
        );
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
