//! The streaming game splitter: raw bytes → game chunks → decoded, parsed [`RawGame`]s.
//!
//! Lines are read one at a time (line ends `\n`, `\r\n` or a lone `\r`) into the current
//! chunk. A new chunk starts at a line that
//!
//! - starts a tag (`[` + letter, digit or `_`, after optional indentation or a BOM)
//!   when the chunk already has movetext, or repeats a tag name of the chunk's tag
//!   section (a game with no movetext followed by the next game), or
//! - starts with move number 1 (`1.`, `1)`, `1 `) after a blank line, when the chunk
//!   already has movetext (plain movetext copied from a book).
//!
//! Splitting bytes before decoding is safe: in GBK and Big5 the byte after a line end
//! always starts a character. Each chunk is then decoded and parsed; the parser may
//! split it further (more movetext after a result). Text that is not a game becomes a
//! junk [`RawGame`] with a `junk-between-games` warning. A chunk longer than
//! [`Limits::max_game_bytes`] is not kept: it becomes a [`RawGame`] with a
//! `game-too-large` error and reading resumes at the next tag section.

use std::{
    collections::VecDeque,
    io::{self, BufRead, BufReader},
};

use encoding_rs::{Encoding, UTF_8};

use super::{Limits, RawGame, pgn::parse_game};
use crate::{
    diag::{Diagnostic, Span},
    text::{
        DecodeReport, EncodingSource,
        decode::{Utf16Reader, decode_chunk},
    },
};

/// Options of an [`ArchiveReader`].
#[derive(Copy, Clone, Debug, Default)]
pub struct ReadOptions {
    /// The user's `--encoding`: decode everything with it (a BOM still wins).
    pub encoding: Option<&'static Encoding>,
    pub limits: Limits,
}

enum Input<R> {
    Plain(R),
    Utf16(BufReader<Utf16Reader<R>>),
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

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum LineKind {
    Blank,
    /// A tag line; the name's range relative to the line start.
    Tag(usize, usize),
    /// Starts with move number 1.
    FirstMove,
    /// A `%` escape line.
    Escape,
    Other,
}

fn classify(line: &[u8]) -> LineKind {
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
        [] | [b'\r' | b'\n', ..] => LineKind::Blank,
        [b'[', c, ..] if c.is_ascii_alphanumeric() || *c == b'_' => {
            let name_len = rest[1..]
                .iter()
                .position(|&b| matches!(b, b' ' | b'\t' | b'"' | b']' | b'\r' | b'\n'))
                .unwrap_or(rest.len() - 1);
            let start = off0 + indent + 1;
            LineKind::Tag(start, start + name_len)
        }
        [b'1', b'.' | b')' | b' ' | b'\t', ..] => LineKind::FirstMove,
        [b'%', ..] => LineKind::Escape,
        _ => LineKind::Other,
    }
}

/// Counts line breaks (`\n`, `\r\n`, lone `\r`) in `s`.
fn count_lines(s: &[u8]) -> u64 {
    let mut n = 0;
    for (i, &b) in s.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && s.get(i + 1) != Some(&b'\n')) {
            n += 1;
        }
    }
    n
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
    utf16_replacements: bool,
    chunk: Vec<u8>,
    chunk_start: u64,
    chunk_line: u64,
    offset: u64,
    line: u64,
    after_cr: bool,
    has_movetext: bool,
    prev_blank: bool,
    tag_names: Vec<(usize, usize)>,
    overflow: bool,
    hint: Option<&'static Encoding>,
    pending: VecDeque<RawGame>,
    next_index: u64,
    done: bool,
}

impl<R: BufRead> ArchiveReader<R> {
    pub fn new(input: R, options: ReadOptions) -> ArchiveReader<R> {
        ArchiveReader {
            input: Input::Plain(input),
            options,
            sniffed: false,
            bom: None,
            utf16_replacements: false,
            chunk: Vec::new(),
            chunk_start: 0,
            chunk_line: 1,
            offset: 0,
            line: 1,
            after_cr: false,
            has_movetext: false,
            prev_blank: false,
            tag_names: Vec::new(),
            overflow: false,
            hint: None,
            pending: VecDeque::new(),
            next_index: 0,
            done: false,
        }
    }

    /// The encoding named by the file's BOM, once the first game has been read.
    pub fn bom(&self) -> Option<&'static Encoding> {
        self.bom
    }

    fn sniff(&mut self) -> io::Result<()> {
        self.sniffed = true;
        let found = crate::text::sniff_bom(self.input.fill_buf()?);
        let Some((enc, len)) = found else {
            return Ok(());
        };
        self.input.consume(len);
        self.bom = Some(enc);
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

    /// Appends the next line to the chunk; returns its start in the chunk, or `None`
    /// at the end of the input.
    fn read_line(&mut self) -> io::Result<Option<usize>> {
        if self.after_cr {
            self.after_cr = false;
            let buf = self.input.fill_buf()?;
            if buf.first() == Some(&b'\n') {
                self.input.consume(1);
                self.offset += 1;
                if !self.overflow {
                    self.chunk.push(b'\n');
                }
            }
        }
        if self.overflow {
            self.chunk.clear();
        }
        let start = self.chunk.len();
        let max = self.options.limits.max_game_bytes;
        let mut truncated = false;
        let mut any = false;
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            any = true;
            let (n, ended) = match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(k) => {
                    self.after_cr = buf[k] == b'\r';
                    (k + 1, true)
                }
                None => (buf.len(), false),
            };
            if !truncated {
                if self.chunk.len() + n > max {
                    // over budget: drop the chunk and skip to the next tag section
                    self.overflow = true;
                    self.chunk.clear();
                    truncated = true;
                } else {
                    self.chunk.extend_from_slice(&buf[..n]);
                }
            }
            self.input.consume(n);
            self.offset += n as u64;
            if ended {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.line += 1;
        if truncated {
            self.chunk.clear();
            return Ok(Some(0));
        }
        Ok(Some(if self.overflow { 0 } else { start }))
    }

    /// Reads one line and handles it; `false` at the end of the input.
    fn step(&mut self) -> io::Result<bool> {
        if !self.sniffed {
            self.sniff()?;
        }
        let line_no = self.line;
        let line_offset = self.offset + u64::from(self.after_cr_pending()?);
        let was_overflow = self.overflow;
        let Some(start) = self.read_line()? else {
            self.finish_chunk(self.chunk.len(), self.offset);
            return Ok(false);
        };
        let kind = classify(&self.chunk[start..]);
        let boundary = match kind {
            LineKind::Tag(a, b) => {
                self.has_movetext
                    || (self.prev_blank
                        && self.tag_names.iter().any(|&(x, y)| {
                            self.chunk.get(x..y) == self.chunk.get(start + a..start + b)
                        }))
            }
            LineKind::FirstMove => self.has_movetext && self.prev_blank,
            _ => false,
        };
        let boundary = boundary || (was_overflow && matches!(kind, LineKind::Tag(..)));
        let mut start = start;
        if boundary {
            self.finish_chunk(start, line_offset);
            self.chunk.drain(..start);
            start = 0;
            self.chunk_start = line_offset;
            self.chunk_line = line_no;
            self.has_movetext = false;
            self.tag_names.clear();
            self.overflow = false;
        }
        match kind {
            LineKind::Tag(a, b) => self.tag_names.push((start + a, start + b)),
            LineKind::Blank | LineKind::Escape => {}
            LineKind::FirstMove | LineKind::Other => self.has_movetext = true,
        }
        self.prev_blank = kind == LineKind::Blank;
        Ok(true)
    }

    /// Whether a `\n` completing a `\r\n` is waiting (it belongs to the previous line).
    fn after_cr_pending(&mut self) -> io::Result<bool> {
        Ok(self.after_cr && self.input.fill_buf()?.first() == Some(&b'\n'))
    }

    /// Decodes and parses `chunk[..end]`, which ends at input offset `end_offset`.
    fn finish_chunk(&mut self, end: usize, end_offset: u64) {
        if self.overflow {
            let mut d = Diagnostic::error(
                "game-too-large",
                format!(
                    "game is larger than the {}-byte limit; skipped to the next tag section",
                    self.options.limits.max_game_bytes
                ),
            );
            d.span = None;
            self.pending.push_back(RawGame {
                index: self.next_index,
                junk: false,
                tags: Vec::new(),
                movetext: Vec::new(),
                result: None,
                text: String::new(),
                byte_start: self.chunk_start,
                byte_end: end_offset,
                first_line: self.chunk_line,
                decoding: DecodeReport {
                    encoding: self.bom.unwrap_or(UTF_8),
                    source: EncodingSource::Utf8,
                    had_replacements: false,
                },
                diagnostics: vec![d],
            });
            self.next_index += 1;
            return;
        }
        let chunk = std::mem::take(&mut self.chunk);
        let raw = &chunk[..end.min(chunk.len())];
        if raw.iter().all(u8::is_ascii_whitespace) {
            self.chunk = chunk;
            return;
        }
        let (text, report) = self.decode(raw);
        let raw_len = raw.len();
        self.chunk = chunk;
        let exact = report.encoding == UTF_8 && text.len() == raw_len;
        let mut text = text;
        let mut base = 0usize;
        let mut line = self.chunk_line;
        loop {
            let syntax = parse_game(&text, &self.options.limits);
            let rest = syntax.rest.filter(|&k| k > 0 && k < text.len());
            let tail = rest.map(|k| text.split_off(k));
            let junk = syntax.is_junk();
            let part_len = text.len();
            let (byte_start, byte_end) = if exact {
                (
                    self.chunk_start + base as u64,
                    self.chunk_start + (base + part_len) as u64,
                )
            } else {
                (self.chunk_start, end_offset)
            };
            let mut diagnostics = report.diagnostics();
            let mut movetext = syntax.movetext;
            if junk {
                movetext.clear();
                let trimmed = text.trim_end().len();
                diagnostics.push(
                    Diagnostic::warning(
                        "junk-between-games",
                        "text between games that is not a game (no tags, move numbers or result)",
                    )
                    .with_span(Span::from_range(0, trimmed)),
                );
            }
            diagnostics.extend(syntax.diagnostics);
            let next_line = line + count_lines(text.as_bytes());
            let whitespace_only = text.trim().is_empty();
            if !whitespace_only {
                self.pending.push_back(RawGame {
                    index: self.next_index,
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
                });
                if !junk {
                    self.next_index += 1;
                }
            }
            match tail {
                Some(t) => {
                    base += part_len;
                    line = next_line;
                    text = t;
                }
                None => break,
            }
        }
    }

    fn decode(&mut self, raw: &[u8]) -> (String, DecodeReport) {
        match self.bom {
            Some(enc) if enc == UTF_8 => {
                let (text, mut report) = decode_chunk(raw, Some(UTF_8), None);
                report.source = EncodingSource::Bom;
                (text, report)
            }
            Some(enc) => {
                // transcoded from UTF-16: the chunk is UTF-8
                let (text, _) = decode_chunk(raw, Some(UTF_8), None);
                let now = match &self.input {
                    Input::Utf16(r) => r.get_ref().had_replacements(),
                    _ => false,
                };
                let report = DecodeReport {
                    encoding: enc,
                    source: EncodingSource::Bom,
                    had_replacements: now && !self.utf16_replacements,
                };
                self.utf16_replacements = now;
                (text, report)
            }
            None => {
                let (text, report) = decode_chunk(raw, self.options.encoding, self.hint);
                if report.source == EncodingSource::Guessed {
                    self.hint = Some(report.encoding);
                }
                (text, report)
            }
        }
    }
}

impl<R: BufRead> Iterator for ArchiveReader<R> {
    type Item = io::Result<RawGame>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(g) = self.pending.pop_front() {
                return Some(Ok(g));
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
