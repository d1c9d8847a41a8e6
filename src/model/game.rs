//! The canonical game model, shared by chess and xiangqi.
//!
//! Every reader (PGN, plain movetext, scoresheet CSV, any notation or language)
//! produces a [`Game`]; every writer (PGN, JSON, CSV, any output notation) consumes only
//! a [`Game`]. Moves are stored resolved ([`AnyMove`]) together with the span of the
//! text they were read from, so the text *as written* is always recoverable
//! ([`Game::written`]) without one allocation per move.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;

use crate::{
    chess,
    model::board::Board,
    model::diag::{Diagnostic, Severity, Span},
    xiangqi,
};

/// Which game a record is of.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Chess,
    Xiangqi,
}

/// The rules a game is played under.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Standard chess (FIDE Laws).
    Chess,
    /// Chess960 / Fischer random (FIDE Guidelines II).
    Chess960,
    /// Xiangqi (Vietnamese law 1409/2004, Asian and WXF rules agree on movement).
    Xiangqi,
}

impl Variant {
    pub const fn kind(self) -> GameKind {
        match self {
            Variant::Chess | Variant::Chess960 => GameKind::Chess,
            Variant::Xiangqi => GameKind::Xiangqi,
        }
    }

    /// The name used in output (`chess`, `chess960`, `xiangqi`).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Chess960 => "chess960",
            Variant::Xiangqi => "xiangqi",
        }
    }
}

/// A move of either game, or a null move (`--`, a pass used in analysis).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    Chess(chess::Move),
    Xiangqi(xiangqi::Move),
    Null,
}

/// The position a game starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    Chess(Box<chess::Position>),
    Xiangqi(Box<xiangqi::Position>),
}

impl StartPosition {
    pub fn kind(&self) -> GameKind {
        match self {
            StartPosition::Chess(_) => GameKind::Chess,
            StartPosition::Xiangqi(_) => GameKind::Xiangqi,
        }
    }

    /// The FEN of the position.
    pub fn fen(&self) -> String {
        match self {
            StartPosition::Chess(p) => p.fen(),
            StartPosition::Xiangqi(p) => p.fen(),
        }
    }
}

/// The outcome of a game as recorded (the movetext's termination marker or the
/// `Result` tag): `1-0` White (Red) won, `0-1` Black won, `1/2-1/2` draw, `*` unknown.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum GameResult {
    #[serde(rename = "1-0")]
    WhiteWins,
    #[serde(rename = "0-1")]
    BlackWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
    #[default]
    #[serde(rename = "*")]
    Unknown,
}

impl GameResult {
    /// The PGN token.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads the PGN tokens and the common variants (`½-½`, `1/2`, `0.5-0.5`, `1:0`).
    pub fn parse(s: &str) -> Option<GameResult> {
        match s {
            "1-0" | "1:0" => Some(GameResult::WhiteWins),
            "0-1" | "0:1" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" | "1/2" | "½" | "0.5-0.5" | "½:½" | "1/2:1/2" => {
                Some(GameResult::Draw)
            }
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A clock reading or elapsed time, to the millisecond (`[%clk 1:30:00]`, `[%emt 0:00:05.2]`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Clock {
    pub millis: u64,
}

impl Clock {
    /// Parses `H:MM:SS`, `M:SS` or `SS`, with optional fraction of a second.
    pub fn parse(s: &str) -> Option<Clock> {
        let s = s.trim();
        let (whole, frac) = match s.split_once('.') {
            Some((w, f)) => (w, f),
            None => (s, ""),
        };
        let mut secs: u64 = 0;
        let mut parts = 0;
        for p in whole.split(':') {
            parts += 1;
            if parts > 3 || p.is_empty() || p.len() > 6 || !p.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            secs = secs.checked_mul(60)?.checked_add(p.parse().ok()?)?;
        }
        let mut millis = secs.checked_mul(1000)?;
        if !frac.is_empty() {
            if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let f: u64 = frac.parse().ok()?;
            millis += f * 10u64.pow(3 - frac.len() as u32);
        }
        Some(Clock { millis })
    }
}

impl fmt::Display for Clock {
    /// `H:MM:SS`, with a fraction only when there is one (`0:00:05.2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.millis / 1000;
        write!(f, "{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)?;
        let ms = self.millis % 1000;
        if ms != 0 {
            let frac = format!("{ms:03}");
            write!(f, ".{}", frac.trim_end_matches('0'))?;
        }
        Ok(())
    }
}

/// Tags (PGN header fields) in input order. Duplicate names are kept as written;
/// [`Tags::get`] returns the first.
///
/// All names and values share one string (two allocations a game, not two a tag).
#[derive(Clone, Debug, Default)]
pub struct Tags {
    text: String,
    /// For each tag: where its name starts, where its value starts (the name's end)
    /// and where the value ends, in `text`.
    items: Vec<(usize, usize, usize)>,
}

impl Tags {
    /// Room for `tags` tags of `bytes` bytes of names and values in all.
    pub fn with_capacity(tags: usize, bytes: usize) -> Tags {
        Tags {
            text: String::with_capacity(bytes),
            items: Vec::with_capacity(tags),
        }
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        let i = self.position(name)?;
        let (_, mid, end) = self.items[i];
        self.text.get(mid..end)
    }

    /// The index of the first tag of that name (lengths compared first: a game is
    /// looked up for several tags it mostly does not have).
    fn position(&self, name: &str) -> Option<usize> {
        let text = self.text.as_bytes();
        self.items
            .iter()
            .position(|&(a, b, _)| b - a == name.len() && text.get(a..b) == Some(name.as_bytes()))
    }

    /// Appends a tag, even when one of that name exists.
    pub fn push(&mut self, name: &str, value: &str) {
        let start = self.text.len();
        self.text.push_str(name);
        let mid = self.text.len();
        self.text.push_str(value);
        self.items.push((start, mid, self.text.len()));
    }

    /// Replaces the first tag of that name, or appends it.
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        let Some(i) = self.position(name) else {
            self.push(name, &value);
            return;
        };
        let (_, mid, end) = self.items[i];
        self.text.replace_range(mid..end, &value);
        let new_end = mid + value.len();
        self.items[i].2 = new_end;
        for item in &mut self.items[i + 1..] {
            item.0 = item.0 - end + new_end;
            item.1 = item.1 - end + new_end;
            item.2 = item.2 - end + new_end;
        }
    }

    /// The text of all names and values, each name followed by its value, in input
    /// order, and where each tag's name starts, its value starts and its value ends
    /// in it: for a writer that copies them from one text.
    pub(crate) fn raw_parts(&self) -> (&str, &[(usize, usize, usize)]) {
        (&self.text, &self.items)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.items
            .iter()
            .map(|&(a, b, c)| (&self.text[a..b], &self.text[b..c]))
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

impl PartialEq for Tags {
    fn eq(&self, other: &Tags) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Tags {}

impl<N: AsRef<str>, V: AsRef<str>> FromIterator<(N, V)> for Tags {
    fn from_iter<I: IntoIterator<Item = (N, V)>>(iter: I) -> Tags {
        let mut tags = Tags::default();
        for (n, v) in iter {
            tags.push(n.as_ref(), v.as_ref());
        }
        tags
    }
}

/// One move in the tree, with everything written around it.
///
/// Kept small (48 bytes) because an archive holds hundreds of millions of them: what
/// most moves have (the move, its span, a clock, its SAN hint) is inline, and what few
/// moves have (comments, NAGs, elapsed time, variations) is in [`Extras`], allocated
/// only for a move that has some. Read those through the accessors
/// ([`MoveNode::comments`], [`MoveNode::nags`], [`MoveNode::emt`],
/// [`MoveNode::variations`]) and change them through [`MoveNode::extras_mut`].
#[derive(Clone, Debug)]
pub struct MoveNode {
    pub mv: AnyMove,
    /// Where the move's text stands in [`Source::text`] (empty for moves not read from text).
    pub span: Span,
    /// Remaining clock time after the move (`[%clk]`).
    pub clock: Option<Clock>,
    /// The player offered a draw with this move (FIDE `(=)`).
    pub draw_offer: bool,
    /// The move is not legal but was kept (`--keep-illegal`, FIDE Art. 7.5: an
    /// unclaimed illegal move stands). Replay continued from the position it made.
    pub illegal: bool,
    /// What canonical SAN needs besides the move, recorded when the move was replayed
    /// (chess moves read by [`crate::replay`]); `None` on a node built by hand, whose
    /// SAN writers work out from the position.
    pub san: Option<SanHint>,
    /// Comments, NAGs, elapsed time and variations, when the move has any.
    extras: Option<Box<Extras>>,
}

/// What few moves carry: see [`MoveNode`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// Comments written after the move (clock commands removed into `clock`/`emt`).
    pub comments: Vec<String>,
    /// Numeric annotation glyphs, including those converted from `!`, `?`, ….
    pub nags: Vec<u8>,
    /// Time spent on the move (`[%emt]`).
    pub emt: Option<Clock>,
    /// Alternatives to this move (PGN RAV), each starting from the position before it.
    pub variations: Vec<Line>,
}

impl Extras {
    fn is_empty(&self) -> bool {
        self.comments.is_empty()
            && self.nags.is_empty()
            && self.emt.is_none()
            && self.variations.is_empty()
    }
}

/// Equal when everything a writer can see is equal: a node whose extras were emptied
/// equals one that never had any.
impl PartialEq for MoveNode {
    fn eq(&self, other: &MoveNode) -> bool {
        self.mv == other.mv
            && self.span == other.span
            && self.clock == other.clock
            && self.draw_offer == other.draw_offer
            && self.illegal == other.illegal
            && self.san == other.san
            && self.comments() == other.comments()
            && self.nags() == other.nags()
            && self.emt() == other.emt()
            && self.variations() == other.variations()
    }
}

impl Eq for MoveNode {}

/// What canonical SAN needs besides a chess move itself, known once the move has been
/// resolved against its position: the origin coordinates that tell it apart from
/// another piece of the same kind reaching the same square (a pawn capture's file
/// included), and whether it gives check or mate. With it a writer produces SAN
/// without replaying the game. It describes the move in the position it was played
/// from: a node whose move is changed must have it cleared (`None`), which also tells
/// [`Game::recorded_end`] that the main line is no longer the one replay played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SanHint {
    /// SAN writes the origin file.
    pub file: bool,
    /// SAN writes the origin rank.
    pub rank: bool,
    /// The move gives check.
    pub check: bool,
    /// The move gives checkmate.
    pub mate: bool,
}

impl MoveNode {
    pub fn new(mv: AnyMove, span: Span) -> MoveNode {
        MoveNode {
            mv,
            span,
            clock: None,
            draw_offer: false,
            illegal: false,
            san: None,
            extras: None,
        }
    }

    /// Comments written after the move (clock commands removed into `clock`/`emt`).
    pub fn comments(&self) -> &[String] {
        self.extras.as_ref().map_or(&[], |e| &e.comments)
    }

    /// Numeric annotation glyphs, including those converted from `!`, `?`, ….
    pub fn nags(&self) -> &[u8] {
        self.extras.as_ref().map_or(&[], |e| &e.nags)
    }

    /// Time spent on the move (`[%emt]`).
    pub fn emt(&self) -> Option<Clock> {
        self.extras.as_ref().and_then(|e| e.emt)
    }

    /// Alternatives to this move (PGN RAV), each starting from the position before it.
    pub fn variations(&self) -> &[Line] {
        self.extras.as_ref().map_or(&[], |e| &e.variations)
    }

    /// The variations, to change in place (none: an empty slice, nothing allocated).
    pub fn variations_mut(&mut self) -> &mut [Line] {
        match &mut self.extras {
            Some(e) => &mut e.variations,
            None => &mut [],
        }
    }

    /// Whether the move has a comment, NAG, elapsed time or variation.
    pub fn has_extras(&self) -> bool {
        self.extras.as_ref().is_some_and(|e| !e.is_empty())
    }

    /// The comments, NAGs, elapsed time and variations, to change (allocated on first use).
    pub fn extras_mut(&mut self) -> &mut Extras {
        self.extras.get_or_insert_with(Box::default)
    }

    /// Takes the variations out of the node (for a bounded-stack walk or a drop).
    pub fn take_variations(&mut self) -> Vec<Line> {
        self.extras
            .as_mut()
            .map(|e| std::mem::take(&mut e.variations))
            .unwrap_or_default()
    }
}

/// A sequence of moves: the main line of a game or one variation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Comments written before the first move of the line.
    pub comments: Vec<String>,
    pub moves: Vec<MoveNode>,
}

/// Drops a tree of any depth on a bounded stack: the derived drop would recurse once
/// per nesting level of variations (`Line` → `MoveNode` → `Vec<Line>`), so a game read
/// with a lifted depth budget could overflow the stack when dropped. The nested lines
/// are moved onto a heap stack instead, and each is dropped once it holds no
/// variations. (`Clone` and `PartialEq` stay derived and recursive: bounded by
/// `archive::Limits::max_depth`.)
impl Drop for Line {
    fn drop(&mut self) {
        let mut stack: Vec<Line> = Vec::new();
        release(&mut self.moves, &mut stack);
        while let Some(mut line) = stack.pop() {
            release(&mut line.moves, &mut stack);
        }
    }
}

/// Drops the nodes of `moves` in one pass, moving the variations of those that have
/// some onto `stack` instead of dropping them in place (see [`Line`]'s `Drop`), and
/// keeps the emptied vector as the thread's spare ([`Line::with_room`]).
fn release(moves: &mut Vec<MoveNode>, stack: &mut Vec<Line>) {
    for node in moves.drain(..) {
        if let Some(mut extras) = node.extras {
            stack.append(&mut extras.variations);
        }
    }
    super::spare::keep(std::mem::take(moves));
}

impl Line {
    /// An empty line with room for `moves` moves (in the vector of a line dropped
    /// lately on this thread when it has that room: a speed trick fenced in
    /// `model/spare.rs`).
    #[inline(never)]
    pub fn with_room(moves: usize) -> Line {
        Line {
            comments: Vec::new(),
            moves: super::spare::take(moves).unwrap_or_else(|| Vec::with_capacity(moves)),
        }
    }
}

/// Where a game came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Source {
    /// The file name as given by the user (`-` for standard input), if any.
    pub file: Option<Arc<str>>,
    /// 0-based index of the game in its file.
    pub game_index: u64,
    /// Byte range of the game in the decoded file text.
    pub byte_start: u64,
    pub byte_end: u64,
    /// 1-based line of the file on which the game's text starts.
    pub first_line: u64,
    /// The game's decoded text; spans of moves and diagnostics index into it.
    pub text: String,
    /// The encoding the file was decoded from (`UTF-8`, `windows-1252`, …).
    pub encoding: Option<&'static str>,
    /// For a game read from a scoresheet CSV, the cell each span of `text` came from
    /// (`text` is synthesized from the cells), so that a diagnostic can name the
    /// sheet's row and column.
    pub sheet: Option<Arc<SheetCells>>,
}

/// The cells of a scoresheet CSV copied into a game's synthesized text (`archive::csv`),
/// each with its spreadsheet row and column.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SheetCells {
    /// The header cells of the moves file, as written.
    pub headers: Arc<[String]>,
    /// The header cells of the games file (`--games-csv`), when one was read.
    pub games_headers: Arc<[String]>,
    /// Every cell copied into the text, in text order.
    pub cells: Vec<SheetCell>,
}

/// One cell of a scoresheet CSV in a game's synthesized text.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SheetCell {
    /// Its span in [`Source::text`].
    pub span: Span,
    /// The 1-based row of the sheet as a spreadsheet shows it (the header is row 1 when
    /// it is the file's first line; a quoted cell over several lines is one row).
    pub row: u64,
    /// The 0-based field (column) index.
    pub field: u32,
    /// What kyphu read the column as (`White`, `Black`, `Move`, `Notes`, …), when the
    /// header named a known column.
    pub role: Option<&'static str>,
    /// The cell is from the games file, not the moves file.
    pub games_file: bool,
}

impl SheetCells {
    /// The cell that `span` starts in.
    pub fn cell_at(&self, span: Span) -> Option<&SheetCell> {
        let i = self.cells.partition_point(|c| c.span.end < span.start);
        self.cells[i..]
            .iter()
            .take_while(|c| c.span.start <= span.start)
            .find(|c| c.span.start <= span.start && span.start <= c.span.end)
    }

    /// Where `span` is in the sheet, as an arbiter reads it: `row 7, column "Đen"
    /// (Black)`; the games file's cells say so (`games file row 2, column "Event"`).
    pub fn describe(&self, span: Span) -> Option<String> {
        let c = self.cell_at(span)?;
        let headers = if c.games_file {
            &self.games_headers
        } else {
            &self.headers
        };
        let mut out = String::new();
        if c.games_file {
            out.push_str("games file ");
        }
        out.push_str("row ");
        out.push_str(&c.row.to_string());
        out.push_str(", column ");
        match headers.get(c.field as usize).filter(|h| !h.is_empty()) {
            Some(name) => {
                out.push('"');
                out.push_str(name);
                out.push('"');
            }
            None => out.push_str(&(c.field + 1).to_string()),
        }
        if let Some(role) = c.role
            && !headers
                .get(c.field as usize)
                .is_some_and(|h| h.eq_ignore_ascii_case(role))
        {
            out.push_str(" (");
            out.push_str(role);
            out.push(')');
        }
        Some(out)
    }
}

/// What a pass over the moves of a game's main line finds ([`Game::main_line`]), for
/// [`Game::status_of`] and [`Game::recorded_end_of`]: a writer that looks at every
/// move anyway may know it without the pass ([`MainLine::PLAIN`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MainLine {
    /// Every move carries its [`SanHint`].
    pub hinted: bool,
    /// Some move is a kept illegal one.
    pub illegal: bool,
}

impl MainLine {
    /// A main line whose moves all carry their hints, none of them illegal (as an
    /// empty one).
    pub const PLAIN: MainLine = MainLine {
        hinted: true,
        illegal: false,
    };
}

/// How a game came through reading and replay (the archive accounting categories).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every move read and replayed, nothing to report above a note.
    Clean,
    /// Every move kept, with warnings (repairs) or kept illegal moves.
    Repaired,
    /// Some moves resolved; the rest is kept verbatim in [`Game::unparsed`].
    Partial,
    /// Not even the first move or the start position could be used.
    Failed,
}

/// A game record in canonical form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub variant: Variant,
    /// Header fields in input order.
    pub tags: Tags,
    pub start: StartPosition,
    pub moves: Line,
    /// The termination marker of the movetext (or the `Result` tag when it had none).
    pub result: GameResult,
    /// Findings of reading and replay, in text order.
    pub diagnostics: Vec<Diagnostic>,
    /// Text after the last move that could be resolved, verbatim, when replay stopped.
    pub unparsed: Option<String>,
    pub source: Source,
    /// The position after the main line, as replay left it: see [`Game::recorded_end`].
    recorded: RecordedEnd,
    /// The main-line moves replay assumed in place of what was written, when it went on
    /// after an error (issue 27: `check`, `convert --repair`); each also has its
    /// diagnostic. Empty otherwise.
    pub repairs: Vec<Repair>,
}

/// A main-line move replay assumed in place of what was written (a slip of the sheet):
/// what was written, what was played, how sure, and the other readings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    /// The ply of the move played (1 = White's first move).
    pub ply: u32,
    /// `replaced` (the cell could not be read or played), `illegible` (a `?` cell),
    /// `missing` (a move left out, inserted), `swapped` (two moves of one side in each
    /// other's place), `suspect` (a legal move the rest of the game does not follow).
    pub kind: &'static str,
    /// The cell as written (empty for a missing move).
    pub written: String,
    /// The move played, in SAN in the game's letters, and in UCI.
    pub san: String,
    pub uci: String,
    /// How sure the choice is against the other readings, in thousandths.
    pub confidence_milli: u16,
    /// The best and the second reading are close: a person should look at this move.
    pub review: bool,
    /// The readings, best first (the move played first), at most 3.
    pub candidates: Vec<String>,
}

/// The position after a game's main line as replay reached it, with the start it
/// was reached from and the number of moves: see [`Game::recorded_end`].
#[derive(Clone, Debug)]
struct Recorded {
    /// The start (inline: one allocation for the record).
    start: Board,
    moves: usize,
    end: Board,
}

/// What replay recorded of a game's end ([`Recorded`]), if anything. Derived data,
/// never compared: two games are equal whatever their records hold.
#[derive(Clone, Debug, Default)]
struct RecordedEnd(Option<Box<Recorded>>);

impl PartialEq for RecordedEnd {
    fn eq(&self, _: &RecordedEnd) -> bool {
        true
    }
}

impl Eq for RecordedEnd {}

impl Game {
    /// An empty game of standard chess from the initial position.
    pub fn new_chess() -> Game {
        Game::new(Variant::Chess, StartPosition::Chess(Box::default()))
    }

    /// An empty game from the given start.
    pub fn new(variant: Variant, start: StartPosition) -> Game {
        Game {
            variant,
            tags: Tags::default(),
            start,
            moves: Line::default(),
            result: GameResult::Unknown,
            diagnostics: Vec::new(),
            unparsed: None,
            source: Source::default(),
            recorded: RecordedEnd::default(),
            repairs: Vec::new(),
        }
    }

    /// Records `end` as the position the current start and main-line moves lead to
    /// (replay, once it has built the game).
    pub(crate) fn record_end(&mut self, end: Board) {
        self.recorded = RecordedEnd(Some(Box::new(Recorded {
            start: Board::new(&self.start),
            moves: self.moves.moves.len(),
            end,
        })));
    }

    /// Forgets the recorded end position, as if the game had been built by hand.
    #[cfg(test)]
    pub(crate) fn forget_end(&mut self) {
        self.recorded = RecordedEnd::default();
    }

    /// The position after the last move of the main line as replay recorded it, while
    /// it still holds: the game's start is the one replay read, the main line has as
    /// many moves, and each of them still carries its [`SanHint`]. A node whose move is
    /// changed must have its hint cleared ([`MoveNode::san`]), so a main line edited
    /// by those rules is seen as changed. `None` for a game built by hand or edited
    /// since, and for a main line holding a move replay gives no hint (a null move,
    /// a kept illegal move, any xiangqi move); [`Game::end_position`] works it out.
    pub fn recorded_end(&self) -> Option<&Board> {
        self.recorded_end_given(|| self.moves.moves.iter().all(|n| n.san.is_some()))
    }

    /// [`Game::recorded_end`] from what a pass over the main line found.
    pub fn recorded_end_of(&self, line: MainLine) -> Option<&Board> {
        self.recorded_end_given(|| line.hinted)
    }

    /// [`Game::recorded_end`], `hinted` telling (when asked) whether every move of the
    /// main line carries its hint.
    fn recorded_end_given(&self, hinted: impl FnOnce() -> bool) -> Option<&Board> {
        let r = self.recorded.0.as_deref()?;
        let same_start = match (&r.start, &self.start) {
            (Board::Chess(a), StartPosition::Chess(b)) => *a == **b,
            (Board::Xiangqi(a), StartPosition::Xiangqi(b)) => *a == **b,
            _ => false,
        };
        let holds = r.moves == self.moves.moves.len() && same_start && hinted();
        holds.then_some(&r.end)
    }

    /// What one pass over the moves of the main line finds, for
    /// [`Game::recorded_end_of`] and [`Game::status_of`].
    pub fn main_line(&self) -> MainLine {
        let (hinted, illegal) = self.moves.moves.iter().fold((true, false), |(h, i), n| {
            (h & n.san.is_some(), i | n.illegal)
        });
        MainLine { hinted, illegal }
    }

    /// The position after the last move of the main line: the one replay recorded
    /// ([`Game::recorded_end`]), or else the one reached by playing the main line from
    /// the start ([`Board::play`]).
    pub fn end_position(&self) -> Board {
        if let Some(end) = self.recorded_end() {
            return end.clone();
        }
        let mut board = Board::new(&self.start);
        for node in &self.moves.moves {
            board.play(&node.mv);
        }
        board
    }

    pub fn kind(&self) -> GameKind {
        self.variant.kind()
    }

    /// The text a move was read from, as written.
    pub fn written(&self, node: &MoveNode) -> &str {
        node.span.slice(&self.source.text)
    }

    /// The accounting category of this game.
    pub fn status(&self) -> Status {
        self.status_given(|| self.moves.moves.iter().any(|m| m.illegal))
    }

    /// [`Game::status`] from what a pass over the main line found.
    pub fn status_of(&self, line: MainLine) -> Status {
        self.status_given(|| line.illegal)
    }

    /// [`Game::status`], `illegal` telling (when asked) whether the main line holds a
    /// kept illegal move.
    fn status_given(&self, illegal: impl FnOnce() -> bool) -> Status {
        let has_error = self
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error);
        if self.unparsed.is_some() || has_error {
            if self.moves.moves.is_empty() && self.unparsed.is_some() {
                Status::Failed
            } else {
                Status::Partial
            }
        } else if self
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Warning)
            || illegal()
        {
            Status::Repaired
        } else {
            Status::Clean
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks() {
        assert_eq!(Clock::parse("1:30:00"), Some(Clock { millis: 5_400_000 }));
        assert_eq!(Clock::parse("0:00:05.2"), Some(Clock { millis: 5_200 }));
        assert_eq!(Clock::parse("3:12"), Some(Clock { millis: 192_000 }));
        assert_eq!(Clock::parse("1:2:3:4"), None);
        assert_eq!(Clock::parse("a:00"), None);
        assert_eq!(Clock::parse(""), None);
        assert_eq!(Clock { millis: 5_200 }.to_string(), "0:00:05.2");
        assert_eq!(Clock { millis: 5_400_000 }.to_string(), "1:30:00");
        for s in ["0:00:00", "12:34:56", "0:01:02.25"] {
            assert_eq!(Clock::parse(s).unwrap().to_string(), s);
        }
    }

    #[test]
    fn results() {
        for r in [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unknown,
        ] {
            assert_eq!(GameResult::parse(r.as_str()), Some(r));
        }
        assert_eq!(GameResult::parse("½-½"), Some(GameResult::Draw));
        assert_eq!(GameResult::parse("1:0"), Some(GameResult::WhiteWins));
        assert_eq!(GameResult::parse("½:½"), Some(GameResult::Draw));
        assert_eq!(GameResult::parse("2-0"), None);
    }

    #[test]
    fn tags_keep_order() {
        let mut t = Tags::default();
        t.set("White", "A");
        t.set("Black", "B");
        t.set("White", "C");
        assert_eq!(
            t.iter().collect::<Vec<_>>(),
            [("White", "C"), ("Black", "B")]
        );
        assert_eq!(t.get("Black"), Some("B"));
        assert_eq!(t.get("Event"), None);
        // a longer and a shorter value move the tags after it
        t.push("Event", "E");
        t.set("White", "Carlsen, Magnus");
        t.set("Black", "");
        assert_eq!(
            t.iter().collect::<Vec<_>>(),
            [("White", "Carlsen, Magnus"), ("Black", ""), ("Event", "E")]
        );
        t.push("White", "again");
        assert_eq!(t.get("White"), Some("Carlsen, Magnus"));
        assert_eq!(t.len(), 4);
        let same: Tags = t.iter().collect();
        assert_eq!(same, t);
    }

    #[test]
    fn move_nodes_stay_small_and_extras_compare_by_content() {
        // an archive holds hundreds of millions of nodes: what most moves lack is boxed
        assert!(std::mem::size_of::<MoveNode>() <= 48);
        let plain = MoveNode::new(AnyMove::Null, Span::default());
        let mut emptied = plain.clone();
        emptied.extras_mut().comments.push("x".into());
        assert_ne!(emptied, plain);
        assert!(emptied.has_extras());
        emptied.extras_mut().comments.clear();
        assert!(!emptied.has_extras());
        assert_eq!(emptied, plain);
        let mut with_line = plain.clone();
        with_line.extras_mut().variations.push(Line::default());
        assert_eq!(with_line.variations().len(), 1);
        assert_eq!(with_line.take_variations().len(), 1);
        assert_eq!(with_line, plain);
    }

    /// Replays the one game of `text`.
    fn replayed(text: &str) -> Game {
        let raw = crate::archive::read_str(text).remove(0);
        crate::replay::replay(raw, &crate::replay::ReplayOptions::default())
    }

    /// The FEN after playing the main line of `game` from its start, move by move.
    fn played_fen(game: &Game) -> String {
        let mut board = Board::new(&game.start);
        for node in &game.moves.moves {
            board.play(&node.mv);
        }
        board.fen()
    }

    #[test]
    fn recorded_end_only_while_the_main_line_holds() {
        let g = replayed("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *");
        let after = "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4";
        assert_eq!(g.recorded_end().map(Board::fen).as_deref(), Some(after));
        assert_eq!(g.end_position().fen(), after);
        assert_eq!(played_fen(&g), after);
        let uci = |g: &Game, i: usize| match g.moves.moves[i].mv {
            AnyMove::Chess(m) => m.uci(false),
            _ => String::new(),
        };
        let mv = |pos: &chess::Position, uci: &str| {
            let m = pos
                .legal_moves()
                .iter()
                .find(|m| m.uci(false) == uci)
                .copied();
            AnyMove::Chess(m.unwrap())
        };
        // a move changed by hand, its hint cleared as `SanHint` asks: 2. Nc3
        let mut edited = g.clone();
        let mut pos = chess::Position::default();
        for i in 0..2 {
            pos.play_unchecked(&match edited.moves.moves[i].mv {
                AnyMove::Chess(m) => m,
                _ => unreachable!(),
            });
        }
        edited.moves.moves[2].mv = mv(&pos, "b1c3");
        edited.moves.moves[2].san = None;
        assert_eq!(uci(&edited, 2), "b1c3");
        edited.moves.moves.truncate(4);
        assert!(edited.recorded_end().is_none());
        let want = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3";
        assert_eq!(edited.end_position().fen(), want);
        assert_eq!(played_fen(&edited), want);
        // a move appended by hand, moves taken away, the start changed
        let mut longer = g.clone();
        let end = match g.end_position() {
            Board::Chess(p) => p,
            Board::Xiangqi(_) => unreachable!(),
        };
        longer
            .moves
            .moves
            .push(MoveNode::new(mv(&end, "b5a4"), Span::default()));
        assert!(longer.recorded_end().is_none());
        assert_eq!(longer.end_position().fen(), played_fen(&longer));
        let mut shorter = g.clone();
        shorter.moves.moves.pop();
        assert!(shorter.recorded_end().is_none());
        assert_eq!(shorter.end_position().fen(), played_fen(&shorter));
        let mut moved = g.clone();
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
        moved.start = StartPosition::Chess(Box::new(chess::Position::from_fen(fen).unwrap()));
        moved.moves.moves.clear();
        moved
            .moves
            .moves
            .extend(g.moves.moves.iter().take(6).cloned());
        assert!(moved.recorded_end().is_none());
        assert_eq!(moved.end_position().fen(), played_fen(&moved));
        // built by hand: the start; the record does not take part in equality
        let empty = Game::new_chess();
        assert!(empty.recorded_end().is_none());
        assert_eq!(empty.end_position().fen(), chess::START_FEN);
        let mut forgotten = g.clone();
        forgotten.forget_end();
        assert_eq!(forgotten, g);
        assert_eq!(forgotten.end_position().fen(), after);
    }

    #[test]
    fn status_categories() {
        let mut g = Game::new_chess();
        assert_eq!(g.status(), Status::Clean);
        g.diagnostics.push(Diagnostic::warning(
            crate::model::diag::Code::CheckMark,
            "x",
        ));
        assert_eq!(g.status(), Status::Repaired);
        g.unparsed = Some("Nf9".into());
        assert_eq!(g.status(), Status::Failed);
        g.moves
            .moves
            .push(MoveNode::new(AnyMove::Null, Span::default()));
        assert_eq!(g.status(), Status::Partial);
    }
}
