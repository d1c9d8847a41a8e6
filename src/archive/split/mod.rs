//! The streaming game splitter: raw bytes → game chunks → decoded, parsed [`RawGame`]s.
//!
//! Lines are read one at a time (line ends `\n`, `\r\n` or a lone `\r`) into the current
//! chunk. A new chunk starts at a line that
//!
//! - starts a tag (`[` + letter, digit or `_`, after optional indentation or a BOM)
//!   when the chunk already has movetext (a non-blank line that is not a tag or `%`
//!   line, or text after the last `]` of a tag line), or repeats, after a blank line, a
//!   tag name of the chunk's tag section (a game without movetext, then the next), or
//! - starts with move number 1 (`1.`, `1)`, `1 `) after a blank line, when the chunk
//!   already has movetext (plain movetext copied from a book), or
//! - starts with White's move 1 (not `1...`) right after a movetext line, when that line
//!   ends with a result (one game per line, the common layout of tagless archives) or
//!   every comment and variation the chunk opened is closed (games separated only by
//!   their move numbers): see [`tagless_start`]. Each game of such a file is a chunk of
//!   its own, so reading it is linear and its memory bounded by its longest game.
//!
//! Splitting bytes before decoding is safe: in GBK and Big5 the byte after a line end
//! always starts a character. Each chunk is then decoded and parsed; the parser may
//! split it further (more movetext after a result). Text that is not a game becomes a
//! junk [`RawGame`] with a `junk-between-games` warning.
//!
//! Budgets are enforced while a game is read, never after it is accumulated: a chunk
//! that would pass [`Limits::max_game_bytes`], or a line over [`Limits::max_line_bytes`],
//! starts a *skip* up to the next game (a tag section, or White's move 1 after a blank
//! line or a result; after a long line, at any White's move 1). The skipped text is not
//! dropped: it is kept verbatim, in [`RawGame`]s of at most [`Skip`]'s part size each
//! (so memory stays bounded however long the text is), the first one a game with the
//! error when the skip started in a game (its `text` holds the game's text, unread:
//! no tags or movetext), the others junk items with a warning.
//!
//! The reader does the splitting and decoding (they carry state from one game to the
//! next) and leaves the parsing, most of the cost, to [`Piece::parse_into`]: iterating
//! an [`ArchiveReader`] parses each piece in place; [`ArchiveReader::pieces`] hands the
//! pieces out so that other threads parse them (the CLI's pipeline).

use crate::model::diag::Code;
use std::{
    collections::VecDeque,
    io::{self, BufRead, BufReader},
};

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

use super::{Limits, MovetextCounts, RawGame, pgn::parse_game};

mod fast;

use crate::{
    bytes::Head,
    model::diag::{Diagnostic, Span},
    text::{
        DecodeReport, EncodingSource, TextEncoding,
        decode::{Utf16Reader, decode_chunk, decode_utf8},
    },
};
use fast::find_line_end;

/// Options of an [`ArchiveReader`].
#[derive(Copy, Clone, Debug, Default)]
pub struct ReadOptions {
    /// The user's `--encoding`: decode everything with it (a BOM still wins).
    pub encoding: Option<TextEncoding>,
    pub limits: Limits,
}

enum Input<R> {
    Plain(Head<R>),
    Utf16(BufReader<Utf16Reader<Head<R>>>),
    Taken,
}

impl<R: BufRead> Input<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Input::Plain(r) => r.fill_buf(),
            Input::Utf16(r) => r.fill_buf(),
            Input::Taken => Ok(&[]),
        }
    }

    fn consume(&mut self, n: usize) {
        match self {
            Input::Plain(r) => r.consume(n),
            Input::Utf16(r) => r.consume(n),
            Input::Taken => {}
        }
    }
}

/// Why the current chunk is being skipped up to the next game. The skipped text is
/// kept verbatim, in parts of at most [`part_bytes`] ([`ArchiveReader::flush_parts`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Skip {
    /// Over [`Limits::max_game_bytes`]: one `game-too-large` game (its first part).
    GameTooLarge,
    /// A line (its 1-based number) over [`Limits::max_line_bytes`] in a game with no
    /// movetext before it: one `line-too-long` game (its first part).
    LongLineInGame(u64),
    /// A line over [`Limits::max_line_bytes`] after a finished game: junk items with a
    /// `line-too-long` warning.
    LongLineAfterGame(u64),
    /// A line over [`Limits::max_line_bytes`] continuing a game without a result: the
    /// error went to that game; the skipped text makes junk items with a warning.
    Reported(u64),
}

/// The most bytes of skipped text in one [`RawGame`]: the line budget or the game
/// budget, whichever is smaller (1 MiB by default).
fn part_bytes(limits: &Limits) -> usize {
    limits.max_line_bytes.min(limits.max_game_bytes).max(16)
}

/// Where to end a part of skipped text taken from the first `max` bytes of `raw`
/// (longer): after the last line end in its second half, else after its last ASCII
/// byte among the last 16 (so that no character of any supported encoding is cut), else
/// at the last UTF-8 character start; never right after a `\r` (it may be half of a
/// `\r\n`). Looks at `raw[..max]` only, so the parts do not depend on how much of the
/// input was read when they were cut.
fn part_end(raw: &[u8], max: usize) -> usize {
    let head = &raw[..max.min(raw.len())];
    let half = head.len() / 2;
    let mut cut = match memchr::memrchr2(b'\n', b'\r', &head[half..]) {
        Some(k) => half + k + 1,
        None => {
            let from = head.len().saturating_sub(16);
            match head[from..].iter().rposition(|&b| b < 0x80) {
                Some(k) => from + k + 1,
                None => (from..head.len())
                    .rev()
                    .find(|&i| head[i] & 0xc0 != 0x80)
                    .filter(|&i| i > 0)
                    .unwrap_or(head.len()),
            }
        }
    };
    if cut > 1 && head.get(cut - 1) == Some(&b'\r') {
        cut -= 1;
    }
    cut.max(1)
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum LineKind {
    Blank,
    /// A tag line, and whether movetext follows the tags on the same line
    /// (`[Result "*"] 1. e4 *`). The tag's name is [`tag_name`].
    Tag(bool),
    /// Starts with move number 1.
    FirstMove,
    /// A `%` escape line.
    Escape,
    /// A line that starts with a brace comment (`{annotating both black and white
    /// moves.}`, Crafty's lines after the tags): not movetext by itself, so that a
    /// blank line after it does not part the tags from their moves.
    Comment,
    Other,
}

/// What a line (with its line end, if it has one) is. Told from its first two bytes
/// (and, for a tag line, its last ones), after a BOM and indentation if it starts with
/// them.
#[inline]
fn classify(line: &[u8]) -> LineKind {
    match line {
        [b' ' | b'\t' | 0xef, ..] => classify_indented(line),
        _ => classify_unindented(line),
    }
}

#[cold]
fn classify_indented(line: &[u8]) -> LineKind {
    let line = line.strip_prefix(BOM).unwrap_or(line);
    let indent = line
        .iter()
        .position(|&b| !matches!(b, b' ' | b'\t'))
        .unwrap_or(line.len());
    classify_unindented(&line[indent..])
}

/// [`classify`] of a line without BOM or indentation.
#[inline]
fn classify_unindented(rest: &[u8]) -> LineKind {
    match rest {
        [] | [b'\r' | b'\n', ..] => LineKind::Blank,
        [b'[', c, ..] if c.is_ascii_alphanumeric() || *c == b'_' => {
            // text after the last `]` (a line without `]` is a broken tag, not movetext)
            let text = rest.trim_ascii_end();
            LineKind::Tag(text.last() != Some(&b']') && memchr::memrchr(b']', text).is_some())
        }
        [b'1', b'.' | b')' | b' ' | b'\t', ..] => LineKind::FirstMove,
        [b'%', ..] => LineKind::Escape,
        [b'{', ..] => LineKind::Comment,
        _ => LineKind::Other,
    }
}

/// The name of a tag line (one [`classify`] finds a [`LineKind::Tag`]; the line may go
/// on past its end): after the BOM, indentation and `[`, up to a space, tab, `"`, `]` or
/// line end.
fn tag_name(line: &[u8]) -> &[u8] {
    let line = line.strip_prefix(BOM).unwrap_or(line);
    let indent = line
        .iter()
        .position(|&b| !matches!(b, b' ' | b'\t'))
        .unwrap_or(line.len());
    let name = line.get(indent + 1..).unwrap_or(&[]);
    let len = name
        .iter()
        .position(|&b| matches!(b, b' ' | b'\t' | b'"' | b']' | b'\r' | b'\n'))
        .unwrap_or(name.len());
    &name[..len]
}

/// Whether a line of `kind` starts a new game in the chunk: a tag line after movetext,
/// or after a blank line when its name repeats one of the chunk's tags
/// (`repeats_tag`, asked only then); move 1 after movetext and a blank line; White's
/// move 1 right after movetext when `tagless_start` says so (asked only then).
#[inline]
fn starts_game(
    kind: LineKind,
    has_movetext: bool,
    prev_blank: bool,
    repeats_tag: impl FnOnce() -> bool,
    tagless_start: impl FnOnce() -> bool,
) -> bool {
    match kind {
        LineKind::Tag(_) => has_movetext || (prev_blank && repeats_tag()),
        LineKind::FirstMove => has_movetext && (prev_blank || tagless_start()),
        _ => false,
    }
}

/// The reader's notes on the lines of the current chunk, for [`tagless_start`]: where
/// the last non-blank line starts, and how far the chunk's comments and variations
/// have been followed ([`Depth`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct LineNotes {
    /// Chunk position of the last non-blank line.
    last_line: usize,
    depth: Depth,
    /// [`Depth`] follows the chunk from a comment line before its movetext.
    from_comment: bool,
}

/// What a line of `kind` starting at chunk position `at` tells about the chunk: a tag
/// line's place, whether movetext has been seen (and where it starts, for
/// [`Depth`]), where the last non-blank line is, whether the line is blank.
#[inline]
fn note_line(
    kind: LineKind,
    at: usize,
    tag_lines: &mut Vec<usize>,
    has_movetext: &mut bool,
    prev_blank: &mut bool,
    notes: &mut LineNotes,
) {
    match kind {
        LineKind::Tag(movetext) => {
            tag_lines.push(at);
            if movetext && !*has_movetext {
                notes.depth = Depth::from(at);
            }
            *has_movetext |= movetext;
            notes.last_line = at;
        }
        LineKind::Blank => {}
        LineKind::Escape => notes.last_line = at,
        LineKind::Comment => {
            // its braces are followed from here (a comment may run over lines)
            if !*has_movetext && !notes.from_comment {
                notes.depth = Depth::from(at);
                notes.from_comment = true;
            }
            notes.last_line = at;
        }
        LineKind::FirstMove | LineKind::Other => {
            if !*has_movetext && !notes.from_comment {
                notes.depth = Depth::from(at);
            }
            *has_movetext = true;
            notes.last_line = at;
        }
    }
    *prev_blank = kind == LineKind::Blank;
}

/// The text of a chunk being read: its first `chunk.len()` bytes in the chunk buffer,
/// the rest (lines handled by [`ArchiveReader::step_buffer`] but not yet copied) at the
/// start of the input buffer. Chunk positions count from the chunk's start.
#[derive(Copy, Clone)]
struct ChunkText<'a> {
    chunk: &'a [u8],
    buf: &'a [u8],
}

impl<'a> ChunkText<'a> {
    /// Chunk positions `from..to`, as two slices (in the chunk buffer, then in the
    /// input buffer).
    fn range(self, from: usize, to: usize) -> [&'a [u8]; 2] {
        let c = self.chunk.len();
        [
            self.chunk.get(from.min(c)..to.min(c)).unwrap_or(&[]),
            self.buf.get(from.max(c) - c..to.max(c) - c).unwrap_or(&[]),
        ]
    }
}

/// How far the comments and variations of a chunk's movetext have been followed, for
/// [`tagless_start`]: the open brace comments (nested ones counted, as the parser
/// counts them) and variations, from the chunk's first movetext line up to `to`. Only
/// asked at a line that may start a game without tags (rare inside a game), and carried
/// on from where the last question stopped, so the whole chunk is followed once at
/// most. On raw bytes: a `{` or `}` trail byte of GBK or Big5 text can mislead it,
/// which at worst keeps two games in one chunk (the parser still splits them after a
/// result) or splits where a line inside an unclosed comment starts with `1.`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Depth {
    to: usize,
    braces: u32,
    parens: u32,
    /// Inside a `;` comment or a `%` escape line (to the line end).
    to_line_end: bool,
    /// `to` is at the start of a line (where `%` starts an escape line).
    line_start: bool,
    /// Text outside comments has been followed (not only comments and spaces).
    saw_text: bool,
}

impl Depth {
    /// Following starts at chunk position `at`, the start of a line.
    fn from(at: usize) -> Depth {
        Depth {
            to: at,
            line_start: true,
            ..Depth::default()
        }
    }

    /// Follows the chunk's text up to chunk position `at`; whether every comment and
    /// variation opened before it is closed there.
    fn closed_at(&mut self, text: ChunkText<'_>, at: usize) -> bool {
        if at > self.to {
            for part in text.range(self.to, at) {
                self.follow(part);
            }
            self.to = at;
        }
        self.braces == 0 && self.parens == 0 && !self.to_line_end
    }

    fn follow(&mut self, bytes: &[u8]) {
        for &b in bytes {
            let line_end = b == b'\n' || b == b'\r';
            if self.to_line_end {
                self.to_line_end = !line_end;
            } else if self.braces > 0 {
                match b {
                    b'{' => self.braces += 1,
                    b'}' => self.braces -= 1,
                    _ => {}
                }
            } else {
                match b {
                    b'{' => self.braces = 1,
                    b'(' => self.parens += 1,
                    b')' => self.parens = self.parens.saturating_sub(1),
                    b';' => self.to_line_end = true,
                    b'%' if self.line_start => self.to_line_end = true,
                    _ => {}
                }
                self.saw_text |= !matches!(b, b'{' | b';' | b'%') && !b.is_ascii_whitespace();
            }
            self.line_start = line_end;
        }
    }
}

/// Whether a line of movetext kind ([`LineKind::FirstMove`], [`LineKind::Other`]) ending
/// at chunk position `end`, before any movetext of the chunk but after a comment line,
/// holds only the rest of that comment (`{a note` / `over two lines}`): then it is a
/// comment line too, and the chunk's movetext has not started (the move 1 after it
/// does not start a new game). Asked only for such lines.
#[cold]
fn only_comment(text: ChunkText<'_>, end: usize, notes: &mut LineNotes) -> bool {
    notes.depth.closed_at(text, end);
    !notes.depth.saw_text
}

/// Whether `line`, a [`LineKind::FirstMove`] line right after a non-blank line of
/// movetext (chunk positions `notes.last_line..at`), starts a game of a file without
/// tags: it is White's move 1 (`1.`, `1)`, `1 `, not `1...` or `1. ...`, which go on
/// with Black's first move), and the line before ends with a result (`… 1-0`: one game
/// per line) or every comment and variation of the chunk is closed before it (games
/// separated only by their move numbers). Looked at only for such lines, so the fast
/// path does not pay for it.
#[cold]
fn tagless_start(line: &[u8], text: ChunkText<'_>, at: usize, notes: &mut LineNotes) -> bool {
    if !whites_first_move(line) {
        return false;
    }
    let [a, b] = text.range(notes.last_line, at);
    let prev = if a.is_empty() { b } else { a };
    ends_with_result(prev) || notes.depth.closed_at(text, at)
}

/// Whether a line starting with move number 1 ([`LineKind::FirstMove`]) is White's
/// move: not `1...`, `1. ...`, `1 …`.
fn whites_first_move(line: &[u8]) -> bool {
    let line = line.strip_prefix(BOM).unwrap_or(line);
    let start = line
        .iter()
        .position(|&b| !matches!(b, b' ' | b'\t'))
        .unwrap_or(line.len());
    let rest = line.get(start + 1..).unwrap_or(&[]);
    let rest = rest.strip_prefix(b".").unwrap_or(rest);
    let after = rest
        .iter()
        .position(|&b| !matches!(b, b' ' | b'\t'))
        .unwrap_or(rest.len());
    let rest = &rest[after..];
    !(rest.starts_with(b".") || rest.starts_with("…".as_bytes()))
}

/// Whether a line's last token is a game result (`1-0`, `0-1`, `1/2-1/2`, `*`, `½-½`,
/// … as [`super::pgn::result_token`] reads them).
fn ends_with_result(line: &[u8]) -> bool {
    let line = line.trim_ascii_end();
    let start = line
        .iter()
        .rposition(|&b| b.is_ascii_whitespace() || b == b'}' || b == b')')
        .map_or(0, |k| k + 1);
    std::str::from_utf8(&line[start..])
        .ok()
        .and_then(super::pgn::result_token)
        .is_some()
}

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Replaces each lone `\r` (a line end of old Mac files) with `\n`, so that every
/// line end of a game's text contains `\n`; lengths and offsets do not change.
fn lone_cr_to_lf(text: &mut String) {
    let mut from = 0;
    let mut lone = Vec::new();
    while let Some(k) = text.get(from..).and_then(|r| r.find('\r')) {
        let i = from + k;
        if text.as_bytes().get(i + 1) != Some(&b'\n') {
            lone.push(i);
        }
        from = i + 1;
    }
    if lone.is_empty() {
        return;
    }
    let mut bytes = std::mem::take(text).into_bytes();
    for i in lone {
        if let Some(b) = bytes.get_mut(i) {
            *b = b'\n';
        }
    }
    // replacing one ASCII byte by another keeps the text valid UTF-8
    *text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

/// Counts line breaks in raw bytes: `\n`, and `\r` not followed by `\n`.
fn count_raw_lines(s: &[u8]) -> u64 {
    let lone_cr = s
        .windows(2)
        .filter(|w| w.first() == Some(&b'\r') && w.get(1) != Some(&b'\n'))
        .count()
        + usize::from(s.last() == Some(&b'\r'));
    count_lines(s) + lone_cr as u64
}

/// Counts line breaks in text whose line ends all contain `\n` (see [`lone_cr_to_lf`]).
fn count_lines(s: &[u8]) -> u64 {
    s.iter().filter(|&&b| b == b'\n').count() as u64
}

/// Reads games one at a time from a byte stream, in memory bounded by
/// [`Limits::max_game_bytes`] (plus buffers), never the whole file.
///
/// Yields `io::Result<RawGame>`; an I/O error ends the iteration.
pub struct ArchiveReader<R> {
    input: Input<R>,
    options: ReadOptions,
    sniffed: bool,
    bom: Option<&'static Encoding>,
    /// How [`Self::bom`] was found: a BOM, `--encoding`, or UTF-16 told by its NULs.
    bom_source: EncodingSource,
    utf16_replacements: bool,
    chunk: Vec<u8>,
    chunk_start: u64,
    chunk_line: u64,
    offset: u64,
    line: u64,
    after_cr: bool,
    /// The chunk has a line ended by a lone `\r`.
    lone_cr: bool,
    has_movetext: bool,
    prev_blank: bool,
    /// Where the tag lines of the chunk start in it.
    tag_lines: Vec<usize>,
    /// The chunk's last line and how far its comments and variations were followed.
    notes: LineNotes,
    /// The chunk is being skipped (over a budget): its text goes out in parts.
    overflow: bool,
    /// Why the chunk is skipped, while `overflow`.
    skip: Skip,
    /// Parts of the skipped text handed out so far.
    parts: u64,
    /// While skipping: the last non-blank line ended with a result.
    prev_result: bool,
    /// While skipping: the line being read was cut after [`part_bytes`] (it goes on in
    /// the next call of [`Self::read_line`]), and its length so far.
    mid_line: bool,
    line_len: usize,
    /// The last [`Self::read_line`] read the start of a line (not its continuation).
    line_head: bool,
    /// While skipping from a long line in a tag section: a movetext line came since.
    skip_movetext: bool,
    hint: Option<TextEncoding>,
    /// The file's start looked like VIQR ([`crate::text::encoding::looks_viqr`]): its
    /// chunks are decoded as VIQR, reported as guessed.
    viqr: bool,
    /// Pieces made, not yet handed out.
    pending: VecDeque<Piece>,
    /// Games parsed and numbered, not yet handed out (the [`RawGame`] iterator).
    ready: VecDeque<RawGame>,
    /// The index of the next game the [`RawGame`] iterator numbers.
    next_index: u64,
    done: bool,
    /// Always read line by line ([`Self::step_line`]): the reference the fast path is
    /// tested against.
    line_by_line: bool,
}

impl<R: io::Read> ArchiveReader<BufReader<R>> {
    /// Reads from an unbuffered reader (a `File`), through a 64 KiB buffer.
    pub fn from_read(input: R, options: ReadOptions) -> ArchiveReader<BufReader<R>> {
        ArchiveReader::new(BufReader::with_capacity(64 * 1024, input), options)
    }
}

impl<R: BufRead> ArchiveReader<R> {
    /// Reads from a buffered reader; nothing is read before the first `next()`.
    pub fn new(input: R, options: ReadOptions) -> ArchiveReader<R> {
        ArchiveReader {
            input: Input::Plain(Head::new(input)),
            options,
            sniffed: false,
            bom: None,
            bom_source: EncodingSource::Bom,
            utf16_replacements: false,
            chunk: Vec::new(),
            chunk_start: 0,
            chunk_line: 1,
            offset: 0,
            line: 1,
            after_cr: false,
            lone_cr: false,
            has_movetext: false,
            prev_blank: false,
            tag_lines: Vec::new(),
            notes: LineNotes::default(),
            overflow: false,
            skip: Skip::GameTooLarge,
            parts: 0,
            prev_result: false,
            mid_line: false,
            line_len: 0,
            line_head: false,
            skip_movetext: false,
            hint: None,
            viqr: false,
            pending: VecDeque::new(),
            ready: VecDeque::new(),
            next_index: 0,
            done: false,
            line_by_line: false,
        }
    }

    /// The encoding named by the file's BOM, once the first game has been read.
    pub fn bom(&self) -> Option<&'static Encoding> {
        self.bom
    }

    fn sniff(&mut self) -> io::Result<()> {
        self.sniffed = true;
        // read up to sixteen bytes even from a reader that hands out fewer at a time:
        // a BOM, or the NULs of UTF-16 written without one
        if let Input::Plain(h) = &mut self.input {
            h.fill_to(16)?;
        }
        let head = self.input.fill_buf()?;
        let found = crate::text::sniff_bom(head).map(|(e, len)| (e, len, EncodingSource::Bom));
        let forced_utf16 = self
            .options
            .encoding
            .and_then(TextEncoding::std)
            .filter(|&e| e == UTF_16LE || e == UTF_16BE)
            .map(|e| (e, 0, EncodingSource::Forced));
        let guessed_utf16 = match self.options.encoding {
            None => crate::text::sniff_utf16(head).map(|e| (e, 0, EncodingSource::Guessed)),
            Some(_) => None,
        };
        let Some((enc, len, source)) = found.or(forced_utf16).or(guessed_utf16) else {
            if self.options.encoding.is_none()
                && crate::text::encoding::looks_viqr(self.input.fill_buf()?)
            {
                // VIQR is ASCII: told from the file's start, not per chunk (issue 28)
                self.viqr = true;
                self.options.encoding =
                    Some(TextEncoding::Legacy(crate::text::legacy::Legacy::Viqr));
            }
            return Ok(());
        };
        self.input.consume(len);
        self.bom = Some(enc);
        self.bom_source = source;
        if enc != UTF_8
            && let Input::Plain(r) = std::mem::replace(&mut self.input, Input::Taken)
        {
            self.input = Input::Utf16(BufReader::with_capacity(
                64 * 1024,
                Utf16Reader::new(r, enc),
            ));
        } else {
            self.offset = len as u64;
            self.chunk_start = len as u64;
        }
        Ok(())
    }

    /// Appends the next line to the chunk; returns its start in the chunk and whether
    /// the whole line was read (not when a skip cut it: see [`Self::mid_line`]), or
    /// `None` at the end of the input. The budgets are checked as the bytes come: a line
    /// over [`Limits::max_line_bytes`] or a chunk that would pass
    /// [`Limits::max_game_bytes`] starts a skip ([`Self::overflow`]); in a skip, a line
    /// is cut once [`part_bytes`] of it are read, so that no line, however long, is
    /// held whole.
    fn read_line(&mut self) -> io::Result<Option<(usize, bool)>> {
        if self.after_cr && !self.mid_line {
            self.after_cr = false;
            let buf = self.input.fill_buf()?;
            if buf.first() != Some(&b'\n') {
                self.lone_cr = true;
            } else {
                self.input.consume(1);
                self.offset += 1;
                self.chunk.push(b'\n');
            }
        }
        let continued = std::mem::take(&mut self.mid_line);
        self.line_head = !continued;
        if !continued {
            self.line_len = 0;
        }
        let mut start = self.chunk.len();
        let line_offset = self.offset;
        let max = self.options.limits.max_game_bytes;
        let max_line = self.options.limits.max_line_bytes;
        let part = part_bytes(&self.options.limits);
        let mut any = false;
        let mut ended = false;
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            any = true;
            let (n, e) = match find_line_end(buf) {
                Some(k) => {
                    self.after_cr = buf[k] == b'\r';
                    (k + 1, true)
                }
                None => (buf.len(), false),
            };
            self.line_len = self.line_len.saturating_add(n - usize::from(e));
            if !self.overflow {
                if self.line_len > max_line {
                    // the text before the line may be finished and taken out of the
                    // chunk: the line then starts the chunk
                    start = self.skip_long_line(start, line_offset);
                    self.overflow = true;
                } else if self.chunk.len() + n > max {
                    self.skip = Skip::GameTooLarge;
                    self.overflow = true;
                    self.parts = 0;
                    self.skip_movetext = false;
                }
            }
            let buf = self.input.fill_buf()?;
            self.chunk.extend_from_slice(&buf[..n]);
            self.input.consume(n);
            self.offset += n as u64;
            if e {
                ended = true;
                break;
            }
            if self.overflow && self.line_len >= part {
                // a line longer than a part: cut here, read on in the next call
                self.mid_line = true;
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        if ended || !self.mid_line {
            self.line += 1;
        }
        Ok(Some((start, !continued && !self.mid_line)))
    }

    /// A line over the line budget starts at `chunk[start..]`, input offset
    /// `line_offset`: decides what the skip reports, and returns where the line starts
    /// in the chunk then. Text before the line that holds movetext is finished first
    /// (its games are kept, and the line starts the chunk); the long line then either
    /// ends the last of them (no result yet: it gets the error) or is text after a
    /// finished game. Without movetext before it (tags only), the line's game is kept
    /// whole, unread, from its first line.
    fn skip_long_line(&mut self, start: usize, line_offset: u64) -> usize {
        let line = self.line;
        self.parts = 0;
        self.skip_movetext = false;
        if !self.has_movetext {
            self.skip = Skip::LongLineInGame(line);
            return start;
        }
        let before = self.pending.len();
        self.finish_chunk(start, line_offset);
        // (finishing empties the chunk when nothing of the line is in it yet)
        let done = start.min(self.chunk.len());
        self.chunk.drain(..done);
        self.chunk_start = line_offset;
        self.chunk_line = line;
        self.lone_cr = false;
        let message = format!(
            "line {line} is longer than the {}-byte line limit; the rest of the game is kept verbatim, not read",
            self.options.limits.max_line_bytes
        );
        // whether the text before the line ends in a game without a result: parse it
        // here (a rare case) to know
        let mut games = Vec::new();
        for piece in self.pending.drain(before..) {
            piece.parse_into(&mut games);
        }
        let open_game = games.last_mut().filter(|g| !g.junk && g.result.is_none());
        self.skip = match open_game {
            Some(g) => {
                let end = g.text.len();
                g.diagnostics.push(
                    Diagnostic::error(Code::LineTooLong, message)
                        .with_span(Span::from_range(end, end)),
                );
                Skip::Reported(line)
            }
            None => Skip::LongLineAfterGame(line),
        };
        self.pending.extend(games.into_iter().map(Piece::from));
        0
    }

    /// Reads some input and handles it; `false` at the end of the input.
    fn step(&mut self) -> io::Result<bool> {
        if self.sniffed && !self.overflow && !self.line_by_line && self.step_buffer()? {
            return Ok(true);
        }
        self.step_line()
    }

    /// The state of a new chunk starting at input offset `offset`, line `line`.
    fn new_chunk(&mut self, offset: u64, line: u64) {
        self.chunk_start = offset;
        self.chunk_line = line;
        self.has_movetext = false;
        self.lone_cr = false;
        self.tag_lines.clear();
        self.notes = LineNotes::default();
    }

    /// Reads one line and handles it; `false` at the end of the input.
    fn step_line(&mut self) -> io::Result<bool> {
        if !self.sniffed {
            self.sniff()?;
        }
        let line_no = self.line;
        let line_offset = self.offset + u64::from(self.after_cr_pending()?);
        let was_overflow = self.overflow;
        let Some((start, whole)) = self.read_line()? else {
            self.lone_cr |= self.after_cr;
            if self.overflow {
                self.finish_skip(self.chunk.len(), self.offset);
            } else {
                self.finish_chunk(self.chunk.len(), self.offset);
            }
            return Ok(false);
        };
        let kind = if whole {
            classify(&self.chunk[start..])
        } else {
            LineKind::Other
        };
        // this line took the chunk over the game budget
        let triggered = !was_overflow && self.overflow;
        let boundary = if was_overflow {
            // a skip ends at the next tag section, or at White's move 1 after a blank
            // line, a result, or the long line that started the skip
            match kind {
                LineKind::Tag(..) => true,
                LineKind::FirstMove => {
                    let after = match self.skip {
                        Skip::GameTooLarge => self.prev_blank || self.prev_result,
                        // (a long tag line: the game's movetext is still to come)
                        Skip::LongLineInGame(_) => self.skip_movetext,
                        Skip::LongLineAfterGame(_) | Skip::Reported(_) => true,
                    };
                    after && whites_first_move(&self.chunk[start..])
                }
                _ => false,
            }
        } else {
            let (chunk, line) = self.chunk.split_at(start);
            let text = ChunkText { chunk, buf: &[] };
            starts_game(
                kind,
                self.has_movetext,
                self.prev_blank,
                || {
                    self.tag_lines
                        .iter()
                        .any(|&x| chunk.get(x..).map(tag_name) == Some(tag_name(line)))
                },
                || tagless_start(line, text, start, &mut self.notes),
            )
        };
        let mut start = start;
        if boundary {
            if was_overflow {
                self.finish_skip(start, line_offset);
            } else {
                // (a line that took the chunk over the game budget but starts the next
                // game: the chunk before it is a game as usual, and the budget is the
                // new chunk's)
                self.overflow = false;
                self.finish_chunk(start, line_offset);
                self.chunk.drain(..start);
            }
            start = 0;
            self.new_chunk(line_offset, line_no);
            self.overflow = triggered && self.chunk.len() > self.options.limits.max_game_bytes;
            self.parts = 0;
            self.skip = Skip::GameTooLarge;
        }
        if self.overflow {
            if !self.mid_line && kind != LineKind::Blank {
                self.prev_result = ends_with_result(&self.chunk[start..]);
            }
            if self.line_head
                && matches!(
                    classify(&self.chunk[start..]),
                    LineKind::FirstMove | LineKind::Other
                )
            {
                self.skip_movetext = true;
            }
            self.prev_blank = kind == LineKind::Blank;
            self.flush_parts(self.chunk.len(), false);
            return Ok(true);
        }
        let kind = match kind {
            LineKind::FirstMove | LineKind::Other
                if !self.has_movetext
                    && self.notes.from_comment
                    && only_comment(
                        ChunkText {
                            chunk: &self.chunk,
                            buf: &[],
                        },
                        self.chunk.len(),
                        &mut self.notes,
                    ) =>
            {
                LineKind::Comment
            }
            kind => kind,
        };
        note_line(
            kind,
            start,
            &mut self.tag_lines,
            &mut self.has_movetext,
            &mut self.prev_blank,
            &mut self.notes,
        );
        Ok(true)
    }

    /// Whether a `\n` completing a `\r\n` is waiting (it belongs to the previous line).
    fn after_cr_pending(&mut self) -> io::Result<bool> {
        Ok(self.after_cr && self.input.fill_buf()?.first() == Some(&b'\n'))
    }

    /// Ends a skip at chunk position `end` (input offset `end_offset`): the skipped
    /// text before it goes out in parts; the chunk keeps what follows.
    fn finish_skip(&mut self, end: usize, end_offset: u64) {
        self.flush_parts(end, true);
        debug_assert_eq!(self.chunk_start, end_offset);
        self.chunk_start = end_offset;
    }

    /// Hands out the skipped text of `chunk[..end]` in parts of [`part_bytes`]: whole
    /// parts only, or (`all`) everything. The chunk keeps what is not handed out.
    fn flush_parts(&mut self, end: usize, all: bool) {
        let max = part_bytes(&self.options.limits);
        let mut from = 0;
        loop {
            let left = end - from;
            if left == 0 || (!all && left < max) {
                break;
            }
            let cut = if left >= max {
                part_end(&self.chunk[from..end], max)
            } else {
                left
            };
            let raw = std::mem::take(&mut self.chunk);
            self.push_part(&raw[from..from + cut]);
            self.chunk = raw;
            from += cut;
        }
        self.chunk.drain(..from);
    }

    /// Queues one part of skipped text, verbatim (decoded, not parsed): the first part
    /// of a skip that started in a game is that game, with the error; every other part
    /// is a junk item with a warning. Whitespace alone makes no junk item.
    fn push_part(&mut self, raw: &[u8]) {
        let first = self.parts == 0;
        let game = first && matches!(self.skip, Skip::GameTooLarge | Skip::LongLineInGame(_));
        let start = self.chunk_start;
        let line = self.chunk_line;
        self.parts += 1;
        self.chunk_start += raw.len() as u64;
        self.chunk_line += count_raw_lines(raw);
        if !game && raw.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let limits = self.options.limits;
        let long_line = |line: u64| {
            format!(
                "line {line} is longer than the {}-byte line limit",
                limits.max_line_bytes
            )
        };
        let d = match self.skip {
            Skip::GameTooLarge if first => Diagnostic::error(
                Code::GameTooLarge,
                format!(
                    "game is larger than the {}-byte limit; its text is kept verbatim, not read, up to the next game",
                    limits.max_game_bytes
                ),
            ),
            Skip::GameTooLarge => Diagnostic::warning(
                Code::GameTooLarge,
                format!(
                    "more of the text of a game over the {}-byte limit, kept verbatim (part {})",
                    limits.max_game_bytes, self.parts
                ),
            ),
            Skip::LongLineInGame(l) if first => Diagnostic::error(
                Code::LineTooLong,
                format!(
                    "{}; the game is kept verbatim, not read, up to the next game",
                    long_line(l)
                ),
            ),
            Skip::LongLineAfterGame(l) if first => Diagnostic::warning(
                Code::LineTooLong,
                format!("{}; kept verbatim up to the next game", long_line(l)),
            ),
            Skip::LongLineInGame(l) | Skip::LongLineAfterGame(l) | Skip::Reported(l) => {
                Diagnostic::warning(
                    Code::LineTooLong,
                    format!(
                        "{}; the text from there to the next game is kept verbatim (part {})",
                        long_line(l),
                        self.parts
                    ),
                )
            }
        };
        let (text, decoding) = self.decode(raw);
        let mut diagnostics = decoding.diagnostics();
        diagnostics.push(d);
        self.pending.push_back(Piece::from(RawGame {
            index: 0,
            junk: !game,
            tags: Vec::new(),
            movetext: Vec::new(),
            result: None,
            text,
            byte_start: start,
            byte_end: self.chunk_start,
            first_line: line,
            decoding,
            diagnostics,
            move_letters: None,
            counts: None,
            sheet: None,
        }));
    }

    /// Decodes and parses `chunk[..end]`, which ends at input offset `end_offset` (not
    /// in a skip: see [`Self::finish_skip`]).
    fn finish_chunk(&mut self, end: usize, end_offset: u64) {
        let mut chunk = std::mem::take(&mut self.chunk);
        let raw_len = end.min(chunk.len());
        if chunk[..raw_len].iter().all(u8::is_ascii_whitespace) {
            self.chunk = chunk;
            return;
        }
        let (start, line) = (self.chunk_start, self.chunk_line);
        let detect = self.bom.is_none() && self.options.encoding.is_none();
        let raw = &chunk[..raw_len];
        // validated once here (SIMD: text in other scripts has no long ASCII runs for
        // `std::str::from_utf8` to skip): a valid chunk is not validated again by
        // decoding, and its text is a copy, so that the chunk's buffer is kept for the
        // next one
        let utf8 = simdutf8::compat::from_utf8(raw);
        match &utf8 {
            Ok(text) if detect => {
                let (text, report) = decode_utf8(text);
                self.push_segment(raw.len(), text, report, start, end_offset, line);
            }
            _ => match self.finished_utf8_games(raw, utf8.err().map(|e| e.valid_up_to())) {
                Some(cut) => {
                    let (games, after) = raw.split_at(cut);
                    let at = start + cut as u64;
                    self.decode_segment(games, start, at, line);
                    self.decode_segment(after, at, end_offset, line + count_raw_lines(games));
                }
                None => self.decode_segment(raw, start, end_offset, line),
            },
        }
        if raw_len == chunk.len() {
            // the whole chunk is finished
            chunk.clear();
        }
        self.chunk = chunk;
    }

    /// Where the finished games of a chunk that is not valid UTF-8 end, when they lie
    /// in its valid UTF-8 start: binary junk or legacy-encoded text after a game's
    /// result is then decoded on its own, and the game keeps its exact UTF-8 text
    /// without the junk's encoding warning. `None` when the chunk is valid UTF-8, the
    /// encoding is given (BOM, `--encoding`), or no game ends before the first invalid
    /// byte. The cut is after the last result and the spaces and line ends after it.
    ///
    /// `invalid_at` is where the first invalid byte of `raw` is (`None`: valid UTF-8).
    fn finished_utf8_games(&self, raw: &[u8], invalid_at: Option<usize>) -> Option<usize> {
        if self.bom.is_some() || self.options.encoding.is_some() {
            return None;
        }
        let valid = invalid_at?;
        let prefix = std::str::from_utf8(raw.get(..valid)?).ok()?;
        let mut base = 0usize;
        let mut cut = None;
        while let Some(text) = prefix.get(base..) {
            let syntax = parse_game(text, &self.options.limits);
            let rest = syntax.rest.filter(|&k| k > 0 && k < text.len());
            if let Some((_, span)) = syntax.result {
                let end = base + span.end as usize;
                let spaces = prefix.get(end..).map_or(0, |r| {
                    r.len() - r.trim_start_matches([' ', '\t', '\r', '\n']).len()
                });
                cut = Some(end + spaces);
            }
            match rest {
                Some(k) => base += k,
                None => break,
            }
        }
        cut.filter(|&c| c > 0 && c < raw.len())
    }

    /// Decodes one stretch of a chunk (input offsets `seg_start..seg_end`, first line
    /// `line`) into a piece; parsing it into games is left to [`Piece::parse_into`].
    fn decode_segment(&mut self, raw: &[u8], seg_start: u64, seg_end: u64, line: u64) {
        if raw.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let (text, report) = self.decode(raw);
        self.push_segment(raw.len(), text, report, seg_start, seg_end, line);
    }

    /// Queues the decoded text of `raw_len` raw bytes (input offsets
    /// `seg_start..seg_end`, first line `line`) as a piece.
    fn push_segment(
        &mut self,
        raw_len: usize,
        mut text: String,
        report: DecodeReport,
        seg_start: u64,
        seg_end: u64,
        line: u64,
    ) {
        if self.lone_cr {
            lone_cr_to_lf(&mut text);
        }
        let exact = report.encoding == UTF_8 && text.len() == raw_len;
        self.pending.push_back(Piece(PieceKind::Text(Segment {
            text,
            report,
            exact,
            start: seg_start,
            end: seg_end,
            line,
            limits: self.options.limits,
        })));
    }

    fn decode(&mut self, raw: &[u8]) -> (String, DecodeReport) {
        match self.bom {
            Some(enc) if enc == UTF_8 => {
                let (text, mut report) = decode_chunk(raw, Some(UTF_8.into()), None);
                report.source = EncodingSource::Bom;
                (text, report)
            }
            Some(enc) => {
                // transcoded from UTF-16: the chunk is UTF-8
                let (text, _) = decode_chunk(raw, Some(UTF_8.into()), None);
                let now = match &self.input {
                    Input::Utf16(r) => r.get_ref().had_replacements(),
                    _ => false,
                };
                let report = DecodeReport {
                    encoding: enc.into(),
                    source: self.bom_source,
                    had_replacements: now && !self.utf16_replacements,
                };
                self.utf16_replacements = now;
                (text, report)
            }
            None => {
                let (text, mut report) = decode_chunk(raw, self.options.encoding, self.hint);
                if self.viqr {
                    report.source = EncodingSource::Guessed;
                }
                if report.source == EncodingSource::Guessed {
                    self.hint = Some(report.encoding);
                }
                (text, report)
            }
        }
    }
}

impl<R: BufRead> ArchiveReader<R> {
    /// The next piece of the input, reading as many lines as it takes.
    fn next_piece(&mut self) -> Option<io::Result<Piece>> {
        loop {
            if let Some(p) = self.pending.pop_front() {
                return Some(Ok(p));
            }
            if self.done {
                return None;
            }
            match self.step() {
                Ok(true) => {}
                Ok(false) => self.done = true,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
    }

    /// The input as [`Piece`]s, to be parsed elsewhere (another thread): the games of
    /// the pieces, in order, are the games this reader yields, once numbered with
    /// [`number_games`].
    pub fn pieces(self) -> Pieces<R> {
        Pieces(self)
    }
}

/// Yields `io::Result<RawGame>`; an I/O error ends the iteration.
impl<R: BufRead> Iterator for ArchiveReader<R> {
    type Item = io::Result<RawGame>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(g) = self.ready.pop_front() {
                return Some(Ok(g));
            }
            let piece = match self.next_piece()? {
                Ok(p) => p,
                Err(e) => return Some(Err(e)),
            };
            let mut games = Vec::new();
            piece.parse_into(&mut games);
            number_games(&mut games, &mut self.next_index);
            self.ready.extend(games);
        }
    }
}

/// The pieces of an input: see [`ArchiveReader::pieces`].
pub struct Pieces<R>(ArchiveReader<R>);

impl<R: BufRead> Iterator for Pieces<R> {
    type Item = io::Result<Piece>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next_piece()
    }
}

/// A piece of the input read by an [`ArchiveReader`]: split off and decoded, but (as a
/// rule) not yet parsed. Parsing is most of the cost of reading, and a piece can be
/// parsed on any thread ([`Piece::parse_into`]); the splitting and decoding, which
/// carry state from one game to the next (encoding guesses, line numbers, offsets),
/// stay with the reader.
pub struct Piece(PieceKind);

enum PieceKind {
    /// Decoded text of one or more games or junk items.
    Text(Segment),
    /// A finished item (a skipped chunk, or text the reader had to parse itself).
    Game(Box<RawGame>),
}

/// Decoded text, input offsets `start..end`, first line `line`.
struct Segment {
    text: String,
    report: DecodeReport,
    /// The text is the input's bytes unchanged: each part's offsets are exact (else
    /// every part gets the whole segment's).
    exact: bool,
    start: u64,
    end: u64,
    line: u64,
    limits: Limits,
}

impl From<RawGame> for Piece {
    fn from(game: RawGame) -> Piece {
        Piece(PieceKind::Game(Box::new(game)))
    }
}

impl Piece {
    /// The bytes of text the piece holds: what the pipeline's byte budgets count
    /// (`cli::pipeline`).
    pub fn text_bytes(&self) -> usize {
        match &self.0 {
            PieceKind::Text(seg) => seg.text.len(),
            PieceKind::Game(g) => g.text.len(),
        }
    }

    /// Parses the piece and appends its games and junk items to `out`, in input order.
    /// Their `index` is not set: [`number_games`] sets it.
    pub fn parse_into(self, out: &mut Vec<RawGame>) {
        match self.0 {
            PieceKind::Game(g) => out.push(*g),
            PieceKind::Text(seg) => seg.parse_into(out),
        }
    }
}

/// Numbers games in input order, the next game getting `*next`: a junk item gets the
/// index of the game after it and does not count.
pub fn number_games(games: &mut [RawGame], next: &mut u64) {
    for g in games {
        g.index = *next;
        if !g.junk {
            *next += 1;
        }
    }
}

impl Segment {
    /// Parses the text into games and junk items (the parser splits it after a result
    /// followed by more text).
    fn parse_into(self, out: &mut Vec<RawGame>) {
        let Segment {
            mut text,
            report,
            exact,
            start: seg_start,
            end: seg_end,
            mut line,
            limits,
        } = self;
        // `text[base..]` is parsed; each part is copied out of it, and only the last
        // takes the segment's buffer (cut from its front), so that a segment of many
        // games costs its length once, not once per game (splitting the rest off after
        // each game copied it each time: the square of the segment's length)
        let mut base = 0usize;
        loop {
            let whole = text.get(base..).unwrap_or("");
            let syntax = parse_game(whole, &limits);
            let rest = syntax.rest.filter(|&k| k > 0 && k < whole.len());
            let (text, tail) = match rest {
                Some(k) => (whole.get(..k).unwrap_or("").to_owned(), Some(())),
                None if base == 0 => (std::mem::take(&mut text), None),
                None => {
                    let mut last = std::mem::take(&mut text);
                    last.drain(..base);
                    last.shrink_to_fit();
                    (last, None)
                }
            };
            let junk = syntax.is_junk();
            let part_len = text.len();
            let (byte_start, byte_end) = if exact {
                (
                    seg_start + base as u64,
                    seg_start + (base + part_len) as u64,
                )
            } else {
                (seg_start, seg_end)
            };
            let mut diagnostics = report.diagnostics();
            let mut movetext = syntax.movetext;
            if junk {
                movetext.clear();
                let trimmed = text.trim_end().len();
                diagnostics.push(
                    Diagnostic::warning(
                        Code::JunkBetweenGames,
                        "text between games that is not a game (no tags, move numbers or result)",
                    )
                    .with_span(Span::from_range(0, trimmed)),
                );
            }
            diagnostics.extend(syntax.diagnostics);
            let next_line = match tail {
                Some(_) => line + count_lines(text.as_bytes()),
                None => line,
            };
            if !text.trim().is_empty() {
                out.push(RawGame {
                    index: 0,
                    junk,
                    tags: syntax.tags,
                    movetext,
                    result: syntax.result,
                    text,
                    byte_start,
                    byte_end,
                    first_line: line,
                    decoding: report,
                    diagnostics,
                    // a junk item has no movetext left: no main-line token to read
                    move_letters: Some(if junk { 0 } else { syntax.move_letters }),
                    // a junk item's movetext is emptied
                    counts: Some(if junk {
                        MovetextCounts::default()
                    } else {
                        syntax.counts
                    }),
                    sheet: None,
                });
            }
            match tail {
                Some(()) => {
                    base += part_len;
                    line = next_line;
                }
                None => break,
            }
        }
    }
}

/// Reads all games of an in-memory archive.
pub fn read_bytes(bytes: &[u8], options: ReadOptions) -> Vec<RawGame> {
    // reading from a slice cannot fail
    ArchiveReader::new(bytes, options).flatten().collect()
}

/// Reads all games of a text.
pub fn read_str(text: &str) -> Vec<RawGame> {
    read_bytes(text.as_bytes(), ReadOptions::default())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use encoding_rs::WINDOWS_1251;

    use super::*;
    use crate::model::game::GameResult;

    /// (tag Event or first move, junk, first_line) of each item.
    fn summary(games: &[RawGame]) -> Vec<(String, bool, u64)> {
        games
            .iter()
            .map(|g| {
                let label = g
                    .tag("Event")
                    .map(|e| e.into_owned())
                    .or_else(|| g.move_tokens().next().map(str::to_owned))
                    .unwrap_or_default();
                (label, g.junk, g.first_line)
            })
            .collect()
    }

    fn s(label: &str, junk: bool, line: u64) -> (String, bool, u64) {
        (label.to_owned(), junk, line)
    }

    #[test]
    fn splitting() {
        type Case = (&'static str, &'static str, Vec<(String, bool, u64)>);
        let cases: &[Case] = &[
            (
                "a comment over two lines before move 1 (fuzz: pgn_roundtrip)",
                "[Event \"a\"]\n\n{a note\nover two lines}\n1. e4 e5 *\n",
                vec![s("a", false, 1)],
            ),
            (
                "a comment over two lines and a blank line before move 1",
                "[Event \"a\"]\n\n{a note\nover two lines}\n\n1. e4 e5 *\n",
                vec![s("a", false, 1)],
            ),
            (
                "a comment line, then a game without tags after a result",
                "{a note\nover two lines} 1. e4 e5 *\n1. d4 d5 *\n",
                vec![s("e4", false, 1), s("d4", false, 3)],
            ),
            (
                "lf",
                "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n",
                vec![s("a", false, 1), s("b", false, 6)],
            ),
            (
                "crlf",
                "[Event \"a\"]\r\n\r\n1. e4 *\r\n\r\n[Event \"b\"]\r\n\r\n1. d4 *\r\n",
                vec![s("a", false, 1), s("b", false, 5)],
            ),
            (
                "cr only",
                "[Event \"a\"]\r[Result \"*\"]\r\r1. e4 e5\r2. Nf3 *\r\r[Event \"b\"]\r\r1. d4 *\r",
                vec![s("a", false, 1), s("b", false, 7)],
            ),
            (
                "no blank lines",
                "[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *",
                vec![s("a", false, 1), s("b", false, 3)],
            ),
            (
                "movetext on the tag line",
                "[Event \"a\"] 1. e4 *\n[Event \"b\"] [Site \"x\"]\n1. d4 *",
                vec![s("a", false, 1), s("b", false, 2)],
            ),
            (
                "broken tag line",
                "[Event \"a\"\n[Site \"x\"]\n\n1. e4 *",
                vec![s("a", false, 1)],
            ),
            (
                "indented tags",
                "  [Event \"a\"]\n  1. e4 *\n\t[Event \"b\"]\n1. d4 *",
                vec![s("a", false, 1), s("b", false, 3)],
            ),
            (
                "blank line inside tag section",
                "[Event \"a\"]\n\n[Site \"x\"]\n\n1. e4 *\n",
                vec![s("a", false, 1)],
            ),
            (
                "tags only, then a game",
                "[Event \"a\"]\n[Result \"*\"]\n\n[Event \"b\"]\n\n1. d4 *\n",
                vec![s("a", false, 1), s("b", false, 4)],
            ),
            (
                "plain movetext separated by results",
                "1. e4 e5 2. Nf3 1-0\n\n1. d4 d5 0-1\n1. c4 *",
                vec![s("e4", false, 1), s("d4", false, 3), s("c4", false, 4)],
            ),
            (
                "plain movetext separated by blank lines",
                "1. e4 e5 2. Nf3\n\n1. d4 d5\n\n\n1. c4",
                vec![s("e4", false, 1), s("d4", false, 3), s("c4", false, 6)],
            ),
            (
                "junk before, between and after",
                "Generated by X\n\n[Event \"a\"]\n\n1. e4 1-0\nDownloaded from Y\n\n[Event \"b\"]\n\n1. d4 *\n{trailer}\n",
                vec![
                    s("", true, 1),
                    s("a", false, 3),
                    s("", true, 6),
                    s("b", false, 8),
                    s("", true, 11),
                ],
            ),
            (
                "unterminated comment stops at the next tag section",
                "[Event \"a\"]\n\n1. e4 {never closed e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 *\n",
                vec![s("a", false, 1), s("b", false, 5)],
            ),
            (
                "bom and concatenated bom",
                "\u{feff}[Event \"a\"]\n1. e4 *\n\u{feff}[Event \"b\"]\n1. d4 *\n",
                vec![s("a", false, 1), s("b", false, 3)],
            ),
            ("empty", "", vec![]),
            ("whitespace", "\n\n  \r\n", vec![]),
        ];
        for (name, input, want) in cases {
            let games = read_str(input);
            assert_eq!(summary(&games), *want, "{name}");
            let indices: Vec<u64> = games.iter().filter(|g| !g.junk).map(|g| g.index).collect();
            assert_eq!(
                indices,
                (0..indices.len() as u64).collect::<Vec<_>>(),
                "{name}"
            );
            for g in &games {
                if g.junk {
                    assert!(g.movetext.is_empty());
                    assert!(g.diagnostics.iter().any(|d| d.code == "junk-between-games"));
                }
            }
        }
    }

    #[test]
    fn byte_ranges_cover_the_input() {
        let input = "[Event \"a\"]\r\n\r\n1. e4 *\r\n\r\n[Event \"b\"]\r\n1. d4 1-0 1. c4 *\r\n";
        let games = read_str(input);
        assert_eq!(games.len(), 3);
        let mut at = 0;
        for g in &games {
            assert_eq!(g.byte_start, at);
            let range = g.byte_start as usize..g.byte_end as usize;
            assert_eq!(&input[range], g.text);
            at = g.byte_end;
        }
        assert_eq!(at, input.len() as u64);
        assert_eq!(games[2].text, "1. c4 *\r\n");
        assert_eq!(games[2].first_line, 6);
        assert_eq!(games[1].result.map(|r| r.0), Some(GameResult::WhiteWins));
    }

    #[test]
    fn line_numbers_locate_spans() {
        let input = "[Event \"a\"]\r\r1. e4 e5\r2. Nf3 *\r\r[Event \"b\"]\r\r1. d4\r\n2. Zz9 *";
        let games = read_str(input);
        let g = &games[1];
        let idx = crate::model::diag::LineIndex::new(&g.text, g.first_line);
        let zz = g.move_tokens().position(|t| t == "Zz9").unwrap();
        let span = g
            .movetext
            .iter()
            .filter(|e| matches!(e, crate::archive::Element::Move { .. }))
            .nth(zz)
            .unwrap()
            .span();
        let at = idx.locate(&g.text, span.start as usize);
        assert_eq!((at.line, at.column), (9, 4));
    }

    #[test]
    fn game_too_large_resynchronizes() {
        let options = ReadOptions {
            limits: Limits {
                max_game_bytes: 64,
                ..Limits::default()
            },
            ..ReadOptions::default()
        };
        let moves: String = (1..1000).map(|n| format!("{n}. e4 e5\n")).collect();
        let big_game = format!("[Event \"big\"]\n\n{moves}*\n\n");
        let big = format!("[Event \"a\"]\n\n1. e4 *\n\n{big_game}[Event \"c\"]\n\n1. d4 *\n");
        let games = read_bytes(big.as_bytes(), options);
        let codes: Vec<Vec<&str>> = games
            .iter()
            .filter(|g| !g.junk)
            .map(|g| g.diagnostics.iter().map(|d| d.code.as_str()).collect())
            .collect();
        assert_eq!(codes, [vec![], vec!["game-too-large"], vec![]]);
        let last = games.last().unwrap();
        assert_eq!(last.tag("Event").as_deref(), Some("c"));
        assert_eq!(games[1].first_line, 5);
        assert_eq!(last.index, 2);
        // the game over budget is kept verbatim, in parts of at most the budget: the
        // first is the game (with the error), the others junk items
        let kept: String = games[1..games.len() - 1]
            .iter()
            .map(|g| g.text.as_str())
            .collect();
        assert_eq!(kept, big_game);
        assert!(games[2..games.len() - 1].iter().all(|g| g.junk));
        assert!(games.iter().all(|g| g.text.len() <= 64));
        // a single enormous line without any line end: kept too, in parts
        let line = "e4 ".repeat(100);
        let games = read_bytes(line.as_bytes(), options);
        assert_eq!(games.iter().filter(|g| !g.junk).count(), 1);
        assert_eq!(games[0].diagnostics[0].code, "game-too-large");
        let kept: String = games.iter().map(|g| g.text.as_str()).collect();
        assert_eq!(kept, line);
    }

    #[test]
    fn encodings() {
        let text = "[White \"Смыслов\"]\n\n1. e4 *\n\n[White \"Смыслов\"]\n\n1. d4 *\n";
        // UTF-16 with BOM, both byte orders
        for enc in [UTF_16LE, UTF_16BE] {
            let mut bytes = if enc == UTF_16LE {
                vec![0xff, 0xfe]
            } else {
                vec![0xfe, 0xff]
            };
            for u in text.encode_utf16() {
                bytes.extend(if enc == UTF_16LE {
                    u.to_le_bytes()
                } else {
                    u.to_be_bytes()
                });
            }
            let games = read_bytes(&bytes, ReadOptions::default());
            assert_eq!(games.len(), 2);
            for g in &games {
                assert_eq!(g.tag("White").as_deref(), Some("Смыслов"));
                assert_eq!(g.decoding.encoding, enc);
                assert_eq!(g.decoding.source, EncodingSource::Bom);
            }
        }
        // UTF-16 without BOM, given as --encoding
        let mut bytes = Vec::new();
        for u in text.encode_utf16() {
            bytes.extend(u.to_le_bytes());
        }
        let options = ReadOptions {
            encoding: Some(UTF_16LE.into()),
            ..ReadOptions::default()
        };
        let games = read_bytes(&bytes, options);
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].tag("White").as_deref(), Some("Смыслов"));
        // legacy bytes: guessed, with a diagnostic
        let (bytes, _, _) = WINDOWS_1251.encode(text);
        let games = read_bytes(&bytes, ReadOptions::default());
        assert_eq!(games[1].tag("White").as_deref(), Some("Смыслов"));
        assert_eq!(games[0].decoding.encoding, WINDOWS_1251);
        assert_eq!(games[0].diagnostics[0].code, "encoding-guessed");
        // forced
        let options = ReadOptions {
            encoding: Some(WINDOWS_1251.into()),
            ..ReadOptions::default()
        };
        let games = read_bytes(&bytes, options);
        assert_eq!(games[0].decoding.source, EncodingSource::Forced);
        assert!(games[0].diagnostics.is_empty());
    }

    #[test]
    fn same_text_in_every_encoding() {
        use encoding_rs::{BIG5, GBK, WINDOWS_1256, WINDOWS_1258};

        use crate::text::decode::tests::tones_decomposed;
        let file = |name: &str| {
            format!(
                "[White \"{name}\"]\r\n\r\n1. e4 *\r\n\r\n[White \"{name}\"]\r\n\r\n1. d4 *\r\n"
            )
        };
        let utf16 = |text: &str, le: bool| {
            let mut bytes = if le {
                vec![0xff, 0xfe]
            } else {
                vec![0xfe, 0xff]
            };
            for u in text.encode_utf16() {
                bytes.extend(if le { u.to_le_bytes() } else { u.to_be_bytes() });
            }
            bytes
        };
        let names = ["Nguyễn Ngọc Trường Sơn", "王天一", "بهروز", "Смыслов"];
        let legacy: [(&Encoding, &str); 5] = [
            (WINDOWS_1258, names[0]),
            (GBK, names[1]),
            (BIG5, names[1]),
            (WINDOWS_1256, names[2]),
            (WINDOWS_1251, names[3]),
        ];
        let mut inputs: Vec<(String, Vec<u8>, &str)> = Vec::new();
        for (enc, name) in legacy {
            // windows-1258 writes tone marks as combining characters
            let written = if enc == WINDOWS_1258 {
                tones_decomposed(name)
            } else {
                name.to_owned()
            };
            let text = file(&written);
            let (bytes, _, unmappable) = enc.encode(&text);
            assert!(!unmappable, "{}", enc.name());
            inputs.push((enc.name().to_owned(), bytes.into_owned(), name));
        }
        for name in names {
            let text = file(name);
            inputs.push(("utf-16le".into(), utf16(&text, true), name));
            inputs.push(("utf-16be".into(), utf16(&text, false), name));
            let mut bom = b"\xef\xbb\xbf".to_vec();
            bom.extend_from_slice(text.as_bytes());
            inputs.push(("utf-8 bom".into(), bom, name));
            // decomposed UTF-8 is composed too
            inputs.push((
                "utf-8 nfd".into(),
                tones_decomposed(&text).into_bytes(),
                name,
            ));
        }
        for (label, bytes, name) in inputs {
            let games = read_bytes(&bytes, ReadOptions::default());
            assert_eq!(games.len(), 2, "{label} {name}");
            for g in &games {
                assert_eq!(g.tag("White").as_deref(), Some(name), "{label}");
                assert_eq!(g.move_tokens().count(), 1, "{label}");
            }
        }
    }

    #[test]
    fn reader_with_tiny_buffers() {
        // line ends split across buffer refills
        let input = "[Event \"a\"]\r\n\r\n1. e4 *\r\n\r\n[Event \"b\"]\r\r1. d4 *\r";
        let reader = BufReader::with_capacity(1, input.as_bytes());
        let games: Vec<RawGame> = ArchiveReader::new(reader, ReadOptions::default())
            .collect::<io::Result<_>>()
            .unwrap();
        assert_eq!(summary(&games), [s("a", false, 1), s("b", false, 5)]);
        assert_eq!(games[0].text, "[Event \"a\"]\r\n\r\n1. e4 *\r\n\r\n");
        // lone CRs become LFs in the text
        assert_eq!(games[1].text, "[Event \"b\"]\n\n1. d4 *\n");
    }

    #[test]
    fn junk_after_a_result_is_decoded_on_its_own() {
        // (input, (junk, first line, byte range, has an encoding warning) per item)
        type Item = (bool, u64, (u64, u64), bool);
        let cases: &[(&[u8], &[Item])] = &[
            // valid UTF-8: no cut, the parser splits after the result
            (
                b"[A \"1\"]\n1. e4 *\njunk\n",
                &[(false, 1, (0, 16), false), (true, 3, (16, 21), false)],
            ),
            // bad bytes on the line after the result
            (
                b"[A \"1\"]\n1. e4 *\n\xff\xfe\n",
                &[(false, 1, (0, 16), false), (true, 3, (16, 19), true)],
            ),
            // glued to the result, after a lone CR, after control bytes
            (
                b"[A \"1\"]\n1. e4 1-0\xff",
                &[(false, 1, (0, 17), false), (true, 2, (17, 18), true)],
            ),
            (
                b"[A \"1\"]\r1. e4 *\r\r\x01\xff",
                &[(false, 1, (0, 17), false), (true, 4, (17, 19), true)],
            ),
            // bad bytes inside the game: no cut, one game with the warning
            (
                b"[A \"1\"]\n1. e4 {\xff} *\njunk\n",
                &[(false, 1, (0, 25), true), (true, 3, (0, 25), true)],
            ),
            // two games before the bad bytes: both exact
            (
                b"1. e4 *\n1. d4 *\n\xff",
                &[
                    (false, 1, (0, 8), false),
                    (false, 2, (8, 16), false),
                    (true, 3, (16, 17), true),
                ],
            ),
        ];
        for (input, want) in cases {
            let games = read_bytes(input, ReadOptions::default());
            let got: Vec<Item> = games
                .iter()
                .map(|g| {
                    let enc = g
                        .diagnostics
                        .iter()
                        .any(|d| d.code.as_str().starts_with("encoding-"));
                    (g.junk, g.first_line, (g.byte_start, g.byte_end), enc)
                })
                .collect();
            assert_eq!(&got, want, "{:?}", String::from_utf8_lossy(input));
        }
        assert_eq!(count_raw_lines(b"a\r\nb\rc\n\r"), 4);
    }

    /// The line classification as it was written first (one general pass), with the
    /// tag name's range: the reference for [`classify`] and [`tag_name`].
    fn classify_reference(line: &[u8]) -> (LineKind, Option<(usize, usize)>) {
        let (line, off0) = match line.strip_prefix(b"\xef\xbb\xbf") {
            Some(l) => (l, 3),
            None => (line, 0),
        };
        let indent = line
            .iter()
            .position(|&b| !matches!(b, b' ' | b'\t'))
            .unwrap_or(line.len());
        let rest = &line[indent..];
        match rest {
            [] | [b'\r' | b'\n', ..] => (LineKind::Blank, None),
            [b'[', c, ..] if c.is_ascii_alphanumeric() || *c == b'_' => {
                let name_len = rest[1..]
                    .iter()
                    .position(|&b| matches!(b, b' ' | b'\t' | b'"' | b']' | b'\r' | b'\n'))
                    .unwrap_or(rest.len() - 1);
                let start = off0 + indent + 1;
                let movetext = rest
                    .iter()
                    .rposition(|&b| b == b']')
                    .is_some_and(|k| !rest.get(k + 1..).unwrap_or(&[]).trim_ascii().is_empty());
                (LineKind::Tag(movetext), Some((start, start + name_len)))
            }
            [b'1', b'.' | b')' | b' ' | b'\t', ..] => (LineKind::FirstMove, None),
            [b'%', ..] => (LineKind::Escape, None),
            [b'{', ..] => (LineKind::Comment, None),
            _ => (LineKind::Other, None),
        }
    }

    #[test]
    fn classify_matches_reference() {
        let lines: &[&[u8]] = &[
            b"",
            b"\n",
            b"\r",
            b"\r\n",
            b"  \n",
            b"\t \r",
            b"\xef\xbb\xbf\n",
            b"\xef\xbb\xbf",
            b"\xef\xbb[Event \"a\"]\n",
            b"\xef",
            b"[Event \"a\"]\n",
            b"[Event \"a\"]\r",
            b"[Event \"a\"]",
            b"[Event \"a\"] \x0c\t\n",
            b"[Event \"a\"] 1. e4\n",
            b"[Event \"a\"] ]\n",
            b"[Event \"a\"\n",
            b"[Event]\n",
            b"[Event",
            b"[_x \"a\"]\n",
            b"[9 \"a\"]\n",
            b"[ Event \"a\"]\n",
            b"[\"a\"]\n",
            b"[\n",
            b"[",
            b"[\xc3\xa9 \"a\"]\n",
            b"  [Event \"a\"]\n",
            b"\t[Site\t\"a\"]x\n",
            b"\xef\xbb\xbf[Event \"a\"]\r\n",
            b"\xef\xbb\xbf  [Event \"a\"] *\r\n",
            b"1. e4\n",
            b"1)e4\n",
            b"1 e4\n",
            b"1\te4\n",
            b"1\n",
            b"1",
            b"10. e4\n",
            b"  1. e4\n",
            b"\xef\xbb\xbf1. e4\n",
            b"%\n",
            b"  %x\n",
            b"e4 e5\n",
            b"{comment}\n",
            b"\xff\xfe\n",
        ];
        for line in lines {
            let (kind, name) = classify_reference(line);
            assert_eq!(classify(line), kind, "{line:?}");
            if let Some((a, b)) = name {
                assert_eq!(tag_name(line), &line[a..b], "{line:?}");
                // the same when the text goes on after the line
                let mut longer = line.to_vec();
                longer.extend_from_slice(b"\n[Next \"x\"]\n");
                assert_eq!(tag_name(&longer), &line[a..b], "{line:?}");
            }
        }
    }
}
