//! Reading a scoresheet typed into a spreadsheet (CSV) into the same syntactic form as
//! the PGN reader produces: one [`RawGame`] per game, ready for replay.
//!
//! Columns are recognized by their header (English or Vietnamese, any case, with or
//! without diacritics): `game` (optional: several games in one sheet), `move`/`no`/`#`/
//! `TT`, `white`/`Trắng`, `black`/`Đen`, `white_clock`, `black_clock`, `draw_offer`,
//! `flags` (see [`Column::from_header`]). Each game's [`RawGame::text`] is synthesized
//! from the cells, one text line per CSV line: line *k* of the text is line
//! `first_line + k - 1` of the CSV file, so the line numbers of every diagnostic are
//! the CSV's own. Within a line the text reads like PGN (`12. Nf3 {[%clk 1:02:03]} Nc6`);
//! [`CsvGame::cells`] maps every span back to its CSV line and field. The first game's
//! text begins with the header row, verbatim, so header diagnostics can point at it.
//! See `docs/formats.md`.

use crate::model::diag::Code;
use std::io::{self, Read};

use csv::{ReaderBuilder, StringRecord, Trim};
use encoding_rs::UTF_8;
use unicode_normalization::{UnicodeNormalization, char::is_combining_mark};

use super::{CommentKind, Element, RawGame};
use std::sync::Arc;

use crate::{
    model::diag::{Diagnostic, Span},
    model::game::{GameResult, SheetCell, SheetCells},
    text::{DecodeReport, EncodingSource},
};

/// A recognized column of a scoresheet.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Column {
    Game,
    Move,
    White,
    Black,
    WhiteClock,
    BlackClock,
    DrawOffer,
    Flags,
    /// A notes column (`notes`, `Ghi chú`, `comment`): each cell becomes a comment on
    /// the row's last move.
    Notes,
}

impl Column {
    /// Recognizes a header cell: trimmed, case-folded, diacritics and `đ` folded,
    /// spaces, `_`, `-` and `.` ignored. English and Vietnamese names (Red/Đỏ for
    /// xiangqi's first player).
    pub fn from_header(cell: &str) -> Option<Column> {
        let key: String = cell
            .nfd()
            .filter(|c| !is_combining_mark(*c))
            .flat_map(char::to_lowercase)
            .map(|c| if c == 'đ' { 'd' } else { c })
            .filter(|c| !matches!(c, ' ' | '_' | '-' | '.' | '\u{feff}'))
            .collect();
        Some(match key.as_str() {
            "game" | "games" | "gameno" | "van" | "vanso" | "vandau" => Column::Game,
            "move" | "moveno" | "no" | "nr" | "n" | "#" | "tt" | "stt" | "nuoc" | "nuocdi" => {
                Column::Move
            }
            "white" | "w" | "red" | "trang" | "do" | "bentrang" | "bendo" => Column::White,
            "black" | "b" | "den" | "benden" => Column::Black,
            "whiteclock" | "clockwhite" | "whitetime" | "donghotrang" | "thoigiantrang"
            | "redclock" | "donghodo" => Column::WhiteClock,
            "blackclock" | "clockblack" | "blacktime" | "donghoden" | "thoigianden" => {
                Column::BlackClock
            }
            "drawoffer" | "draw" | "cauhoa" | "denghihoa" | "xinhoa" => Column::DrawOffer,
            "flags" | "flag" => Column::Flags,
            "notes" | "note" | "ghichu" | "comment" | "comments" | "remark" | "remarks"
            | "nhanxet" => Column::Notes,
            _ => return None,
        })
    }

    /// The column's name in English, as diagnostics give it beside the header as
    /// written (`column "Đen" (Black)`).
    pub fn name(self) -> &'static str {
        match self {
            Column::Game => "Game",
            Column::Move => "Move",
            Column::White => "White",
            Column::Black => "Black",
            Column::WhiteClock => "White clock",
            Column::BlackClock => "Black clock",
            Column::DrawOffer => "Draw offer",
            Column::Flags => "Flags",
            Column::Notes => "Notes",
        }
    }
}

/// Where a span of a synthesized text came from in the CSV file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CellRef {
    /// The span in [`RawGame::text`].
    pub span: Span,
    /// 1-based line of the CSV file on which the record starts.
    pub line: u64,
    /// 1-based row of the sheet as a spreadsheet shows it: the line, less the line
    /// breaks inside quoted cells of the records before.
    pub row: u64,
    /// 0-based field index in the record.
    pub field: usize,
    /// The column, when the header named a known one.
    pub column: Option<Column>,
    /// The cell is from the games (header fields) file, not the moves file.
    pub games_file: bool,
}

/// One game read from a scoresheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvGame {
    /// The value of the `game` column, if the sheet has one.
    pub game: Option<String>,
    pub raw: RawGame,
    /// Every cell copied into `raw.text`, in text order.
    pub cells: Vec<CellRef>,
}

impl CsvGame {
    /// The CSV cell that `span` starts in.
    pub fn cell_at(&self, span: Span) -> Option<&CellRef> {
        self.cells
            .iter()
            .find(|c| c.span.start <= span.start && span.start <= c.span.end)
    }
}

/// The most rows one game of a scoresheet may have (a game has rarely more than 300
/// move numbers; the longest possible chess game about 6,000). Past it the game ends
/// with a `csv-game-too-long` error and its later rows are read as a game of their own
/// (kept verbatim, nothing held past the budget, nothing dropped).
pub const MAX_GAME_ROWS: usize = 20_000;

/// The most bytes of one CSV record (a row, with its quoted line breaks). A longer
/// record ends the reading of the file with a `csv-record-too-long` error.
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// Unknown header cells reported one by one; the rest in one warning (a sheet can have
/// thousands of columns).
pub const MAX_UNKNOWN_COLUMN_WARNINGS: usize = 20;

/// How many bytes of the decoded start of the file are looked at for the encoding, the
/// delimiter and the header line.
const HEAD_BYTES: usize = 64 * 1024;

/// Reads all games of a scoresheet held in memory. Never fails: a missing header,
/// unknown columns, ragged rows or unreadable CSV become diagnostics of the games (a
/// sheet without a usable header gives one game with no moves and a
/// `csv-missing-header` error). See [`ScoresheetReader`] for a stream.
pub fn read_scoresheet(text: &str) -> Vec<CsvGame> {
    ScoresheetReader::new(text.as_bytes(), None)
        .map(|r| r.flatten().collect())
        .unwrap_or_default()
}

/// The column positions of a header, looked up once.
#[derive(Clone, Debug, Default)]
struct Cols {
    /// The column of each field.
    of_field: Vec<Option<Column>>,
    /// The first field of each column, by [`Column`] order.
    at: [Option<usize>; 9],
}

impl Cols {
    fn new(of_field: Vec<Option<Column>>) -> Cols {
        let mut at = [None; 9];
        for (i, c) in of_field.iter().enumerate() {
            if let Some(c) = c
                && let Some(slot) = at.get_mut(*c as usize)
                && slot.is_none()
            {
                *slot = Some(i);
            }
        }
        Cols { of_field, at }
    }

    fn idx(&self, c: Column) -> Option<usize> {
        self.at.get(c as usize).copied().flatten()
    }

    fn get<'r>(&self, rec: &'r StringRecord, c: Column) -> &'r str {
        self.idx(c)
            .and_then(|i| rec.get(i))
            .map_or("", unneutralise)
    }

    fn len(&self) -> usize {
        self.of_field.len()
    }
}

/// The cell as written before the CSV writer neutralised it against spreadsheet
/// formulas (see [`crate::emit::csv::neutralise`]): one leading `'` taken off a cell
/// whose text after its leading `'`s begins with `=`, `+`, `-`, `@`, tab or carriage
/// return.
pub fn unneutralise(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if starts_formula(rest.trim_start_matches('\'')) => rest,
        _ => cell,
    }
}

/// Whether a spreadsheet could take a cell beginning like `text` for a formula (the
/// OWASP list: `=`, `+`, `-`, `@`, tab, carriage return).
pub fn starts_formula(text: &str) -> bool {
    text.starts_with(['=', '+', '-', '@', '\t', '\r'])
}

/// Whether the first line of `head` (the start of an input) is the header row of a
/// scoresheet: split at its delimiter, at least two cells name known columns, one of
/// them `white` or `black` (`TT,Trắng,Đen`; `move;white;black`). A PGN or movetext line
/// never is (its tags and moves are not column names).
pub fn looks_like_scoresheet(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let head = &head[..head.len().min(HEAD_BYTES)];
    let text = String::from_utf8_lossy(head);
    let Some(line) = text.lines().find(|l| !l.trim().is_empty()) else {
        return false;
    };
    let delimiter = char::from(sniff_delimiter(line));
    let mut known = 0;
    let mut side = false;
    for cell in line.split(delimiter) {
        let cell = cell.trim().trim_matches('"');
        match Column::from_header(cell) {
            Some(Column::White | Column::Black) => {
                known += 1;
                side = true;
            }
            Some(_) => known += 1,
            None => {}
        }
    }
    known >= 2 && side
}

/// Reads the games of a scoresheet from a byte stream, one at a time, in bounded
/// memory: decoded on the fly (a BOM, the user's encoding, UTF-8, or a legacy encoding
/// guessed from the first 64 KiB), one record at a time, each game within
/// [`MAX_GAME_ROWS`] and each record within [`MAX_RECORD_BYTES`]. An error reading the
/// input itself is an `Err` item (and the last); everything about the CSV is a
/// diagnostic of a game.
pub struct ScoresheetReader<R: Read> {
    rdr: csv::Reader<io::Chain<io::Cursor<Vec<u8>>, Transcode<R>>>,
    /// The decoded start of the file (for the header line).
    head: String,
    head_complete: bool,
    report: DecodeReport,
    cols: Option<Cols>,
    builder: Option<Builder>,
    game_key: Option<String>,
    any_row: bool,
    record: StringRecord,
    /// The header cells as written, shared by every game's [`SheetCells`].
    headers: Arc<[String]>,
    /// Line breaks inside the quoted cells of the records read so far: the row of a
    /// record is its line less these.
    extra_lines: u64,
    games: u64,
    done: bool,
    error: Option<io::Error>,
    /// After a record over its budget (or a sheet without a usable header): the rest of
    /// the input, handed out verbatim as unread items.
    drain: Option<Drain>,
}

/// The unread rest of a sheet: the text not yet handed out and where it starts.
struct Drain {
    pending: Vec<u8>,
    byte: u64,
    line: u64,
}

/// The most text of one unread item after a record over its budget.
const DRAIN_PART_BYTES: usize = MAX_RECORD_BYTES;

impl<R: Read> ScoresheetReader<R> {
    /// Starts reading `input`; `forced` is the user's `--encoding` (a BOM still wins).
    pub fn new(
        input: R,
        forced: Option<crate::text::TextEncoding>,
    ) -> io::Result<ScoresheetReader<R>> {
        let mut t = Transcode::new(input, forced)?;
        let report = t.report;
        let mut head = Vec::with_capacity(HEAD_BYTES);
        let head_complete = (&mut t).take(HEAD_BYTES as u64).read_to_end(&mut head)? < HEAD_BYTES;
        t.had_replacements = false;
        let head_text = String::from_utf8_lossy(&head).into_owned();
        let rdr = ReaderBuilder::new()
            .delimiter(sniff_delimiter(&head_text))
            .has_headers(false)
            .flexible(true)
            .trim(Trim::All)
            .from_reader(io::Cursor::new(head).chain(t));
        Ok(ScoresheetReader {
            rdr,
            head: head_text,
            head_complete,
            report,
            cols: None,
            builder: None,
            game_key: None,
            any_row: false,
            record: StringRecord::new(),
            headers: Arc::from(Vec::new()),
            extra_lines: 0,
            games: 0,
            done: false,
            error: None,
            drain: None,
        })
    }

    fn transcode(&mut self) -> &mut Transcode<R> {
        self.rdr.get_mut().get_mut().1
    }

    /// The decoding diagnostics for the game just finished (replacements since the
    /// last one).
    fn decoding_diagnostics(&mut self) -> Vec<Diagnostic> {
        let t = self.transcode();
        let replaced = std::mem::take(&mut t.had_replacements);
        DecodeReport {
            had_replacements: replaced,
            ..self.report
        }
        .diagnostics()
    }

    fn finish(&mut self, mut b: Builder) -> CsvGame {
        let decoding = self.decoding_diagnostics();
        b.diagnostics.extend(decoding);
        b.report = self.report;
        b.finish()
    }

    /// Reads the header row; `Some` when the sheet has none usable (a failed game).
    fn read_header(&mut self) -> Option<io::Result<CsvGame>> {
        let header = match self.rdr.read_record(&mut self.record) {
            Ok(true) => self.record.clone(),
            Ok(false) => {
                self.done = true;
                return None;
            }
            Err(e) => {
                self.done = true;
                return Some(self.csv_error(e).map(|d| self.failed(d)));
            }
        };
        let header_line = header.position().map_or(1, |p| p.line());
        let header_row = header_line;
        self.extra_lines += line_breaks(&header);
        self.headers = header.iter().map(str::to_owned).collect();
        let cols = Cols::new(header.iter().map(Column::from_header).collect());
        if cols.idx(Column::White).is_none() && cols.idx(Column::Black).is_none() {
            self.done = true;
            let shown: String = header.iter().collect::<Vec<_>>().join(",");
            let shown: String = shown.chars().take(200).collect();
            return Some(Ok(self.failed(Diagnostic::error(
                Code::CsvMissingHeader,
                format!(
                    "expected a header row naming the white and black columns, found `{shown}`"
                ),
            ))));
        }
        let mut b = Builder::new(0, header_line, 0);
        b.headers = Arc::clone(&self.headers);
        // the header row's first line, verbatim, opens the first game's text
        let header_byte = header
            .position()
            .and_then(|p| usize::try_from(p.byte()).ok())
            .unwrap_or(0);
        let from_header = self.head.get(header_byte..).unwrap_or("");
        // blank lines the CSV reader skipped before the header: kept as empty text lines
        let header_text = from_header.trim_start_matches(['\n', '\r']);
        for _ in from_header[..from_header.len() - header_text.len()].matches('\n') {
            b.text.push('\n');
            b.line += 1;
        }
        let from_header = header_text;
        let line_text = match from_header.find(['\n', '\r']) {
            Some(end) => from_header.get(..end).unwrap_or(""),
            None if self.head_complete => from_header,
            // a header longer than the head: its cells, joined
            None => "",
        };
        let line_start = b.text.len();
        if line_text.is_empty() {
            let d = char::from(sniff_delimiter(&self.head));
            for (i, cell) in header.iter().enumerate() {
                if i > 0 {
                    b.text.push(d);
                }
                b.text.push_str(cell);
            }
        } else {
            b.text.push_str(line_text);
        }
        let line_text = b.text.get(line_start..).unwrap_or("").to_owned();
        // cells are found in order, each after the previous one (linear in the line)
        let mut from = 0;
        let mut unknown = 0;
        for (i, (cell, col)) in header.iter().zip(&cols.of_field).enumerate() {
            let found = line_text
                .get(from..)
                .and_then(|rest| rest.find(cell))
                .map(|k| from + k);
            if let Some(k) = found {
                from = k + cell.len();
            }
            if col.is_none() {
                unknown += 1;
                if unknown > MAX_UNKNOWN_COLUMN_WARNINGS {
                    continue;
                }
                // a quoted cell can hold a line break: then it is not all on this line
                let (start, len) = found.map_or((0, line_text.len()), |k| (k, cell.len()));
                let span = Span::from_range(line_start + start, line_start + start + len);
                b.diagnostics.push(
                    Diagnostic::note(
                        Code::CsvUnknownColumn,
                        format!(
                            "unknown column `{cell}` (field {}): its cells are kept as \
                             comments",
                            i + 1
                        ),
                    )
                    .with_span(span),
                );
                b.cells.push(CellRef {
                    span,
                    line: header_line,
                    row: header_row,
                    field: i,
                    column: None,
                    games_file: false,
                });
            }
        }
        if unknown > MAX_UNKNOWN_COLUMN_WARNINGS {
            let more = unknown - MAX_UNKNOWN_COLUMN_WARNINGS;
            b.diagnostics.push(
                Diagnostic::note(
                    Code::CsvUnknownColumn,
                    format!(
                        "{more} more unknown columns: their cells are kept as comments \
                         ({unknown} in all)"
                    ),
                )
                .with_span(Span::from_range(line_start, b.text.len())),
            );
        }
        self.cols = Some(cols);
        self.builder = Some(b);
        None
    }

    /// A CSV error as a diagnostic, or the input error to end with.
    fn csv_error(&mut self, e: csv::Error) -> io::Result<Diagnostic> {
        let over = self.transcode().over_limit;
        if !e.is_io_error() {
            return Ok(Diagnostic::error(
                Code::CsvUnreadable,
                e.to_string().to_lowercase(),
            ));
        }
        match e.into_kind() {
            csv::ErrorKind::Io(_) if over => {
                let line = self.rdr.position().line();
                Ok(Diagnostic::error(
                    Code::CsvRecordTooLong,
                    format!(
                        "expected a record of at most {MAX_RECORD_BYTES} bytes, found a \
                         longer one from line {line}: the rest of the file is not read; \
                         it follows verbatim as unread text"
                    ),
                ))
            }
            csv::ErrorKind::Io(e) => Err(e),
            other => Ok(Diagnostic::error(
                Code::CsvUnreadable,
                format!("{other:?}").to_lowercase(),
            )),
        }
    }

    /// A game holding the start of the file and one error (no usable header).
    fn failed(&mut self, d: Diagnostic) -> CsvGame {
        // a long file: this item holds the whole lines of the head, the rest follows
        let cut = match self.head_complete {
            true => self.head.len(),
            // (without a line break: up to a character cut by the head's end, which the
            // lossy head shows as U+FFFD; the transcoded stream is valid UTF-8)
            false => self
                .head
                .rfind('\n')
                .map_or_else(|| self.head.trim_end_matches('\u{FFFD}').len(), |k| k + 1),
        };
        let text = self.head[..cut].to_owned();
        let first = text.lines().next().map_or(0, str::len);
        let mut diagnostics = vec![d.with_span(Span::from_range(0, first))];
        if !self.head_complete {
            diagnostics.push(Diagnostic::error(
                Code::CsvUnreadable,
                format!(
                    "only the first {cut} bytes of the file are in this item; the rest \
                     follows verbatim as unread text"
                ),
            ));
            let line = 1 + text.matches('\n').count() as u64;
            self.start_drain(cut as u64, line);
        }
        diagnostics.extend(self.decoding_diagnostics());
        let mut b = Builder::new(0, 1, 0);
        b.report = self.report;
        let cut_mid_line = !self.head_complete && !text.ends_with('\n');
        b.text = text;
        b.diagnostics = diagnostics;
        b.byte_end = b.text.len() as u64;
        let mut g = b.finish();
        if cut_mid_line {
            // the line goes on in the first unread item: no line break of ours between
            g.raw.text.pop();
        }
        g
    }

    /// Hands out the rest of the input from stream offset `from` (at line `line`) as
    /// unread items ([`Self::next_unread`]), the CSV reader left aside.
    fn start_drain(&mut self, from: u64, line: u64) {
        let t = self.transcode();
        t.limit = u64::MAX;
        t.over_limit = false;
        t.forget_before(from);
        t.keeping = false;
        let pending = std::mem::take(&mut t.kept);
        self.drain = Some(Drain {
            pending,
            byte: from,
            line,
        });
    }

    /// The next part (at most [`DRAIN_PART_BYTES`], cut between characters) of the
    /// unread rest, as a junk item with a warning; `None` at the end.
    fn next_unread(&mut self) -> Option<io::Result<CsvGame>> {
        let mut d = self.drain.take()?;
        let mut ended = false;
        while !ended && d.pending.len() <= DRAIN_PART_BYTES {
            let old = d.pending.len();
            d.pending.resize(old + 64 * 1024, 0);
            let t = self.transcode();
            match t.read(&mut d.pending[old..]) {
                Ok(n) => {
                    d.pending.truncate(old + n);
                    ended = n == 0;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => d.pending.truncate(old),
                Err(e) => {
                    d.pending.truncate(old);
                    self.error = Some(e);
                    ended = true;
                }
            }
        }
        if d.pending.is_empty() {
            return self.error.take().map(Err);
        }
        let mut cut = d.pending.len().min(DRAIN_PART_BYTES);
        while cut > 0 && cut < d.pending.len() && d.pending[cut] & 0xC0 == 0x80 {
            cut -= 1;
        }
        let rest = d.pending.split_off(cut);
        let part = std::mem::replace(&mut d.pending, rest);
        let text = String::from_utf8_lossy(&part).into_owned();
        let first = text.find('\n').unwrap_or(text.len());
        let raw = RawGame {
            index: self.games,
            junk: true,
            tags: Vec::new(),
            movetext: Vec::new(),
            result: None,
            byte_start: d.byte,
            byte_end: d.byte + part.len() as u64,
            first_line: d.line,
            decoding: self.report,
            diagnostics: vec![
                Diagnostic::warning(
                    Code::CsvRecordTooLong,
                    "not read as a scoresheet (it follows a record over the budget or a \
                     sheet without a usable header): kept verbatim",
                )
                .with_span(Span::from_range(0, first)),
            ],
            text,
            move_letters: None,
            counts: None,
            sheet: None,
        };
        d.byte += part.len() as u64;
        d.line += raw.text.matches('\n').count() as u64;
        self.drain = Some(d);
        Some(Ok(CsvGame {
            game: None,
            raw,
            cells: Vec::new(),
        }))
    }

    fn next_game(&mut self) -> Option<io::Result<CsvGame>> {
        if self.drain.is_some() {
            return self.next_unread();
        }
        if let Some(e) = self.error.take() {
            self.done = true;
            return Some(Err(e));
        }
        if self.done {
            return None;
        }
        if self.cols.is_none()
            && let Some(g) = self.read_header()
        {
            return Some(g);
        }
        let cols = self.cols.take()?;
        let out = self.rows(&cols);
        self.cols = Some(cols);
        out
    }

    fn rows(&mut self, cols: &Cols) -> Option<io::Result<CsvGame>> {
        let mut record = std::mem::take(&mut self.record);
        let out = loop {
            let (start, start_line) = {
                let p = self.rdr.position();
                (p.byte(), p.line())
            };
            let t = self.transcode();
            t.keep_from(start);
            // (what the CSV reader has read ahead, at most its buffer, counts in)
            t.limit = t.produced + MAX_RECORD_BYTES as u64;
            match self.rdr.read_record(&mut record) {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    let mut b = self.builder.take()?;
                    b.byte_end = self.rdr.position().byte();
                    break Some(Ok(self.finish(b)));
                }
                Err(e) => {
                    self.done = true;
                    let over = self.transcode().over_limit;
                    let mut b = self.builder.take()?;
                    match self.csv_error(e) {
                        Ok(d) => {
                            let at = b.text.len();
                            b.diagnostics.push(d.with_span(Span::from_range(at, at)));
                        }
                        Err(e) => self.error = Some(e),
                    }
                    b.byte_end = start;
                    let g = self.finish(b);
                    if over {
                        self.start_drain(start, start_line);
                    }
                    break Some(Ok(g));
                }
            }
            let (line, byte) = record.position().map_or((0, 0), |p| (p.line(), p.byte()));
            let row = line.saturating_sub(self.extra_lines);
            self.extra_lines += line_breaks(&record);
            let key = cols
                .idx(Column::Game)
                .and_then(|i| record.get(i))
                .filter(|k| !k.is_empty());
            let mut done_game = None;
            if let (Some(k), Some(cur)) = (key, &self.game_key)
                && k != cur
                && self.any_row
                && let Some(mut b) = self.builder.take()
            {
                b.byte_end = byte;
                let g = self.finish(b);
                self.games += 1;
                let mut next = Builder::new(self.games, line, byte);
                next.headers = Arc::clone(&self.headers);
                self.builder = Some(next);
                done_game = Some(g);
            }
            if let Some(k) = key {
                self.game_key = Some(k.to_owned());
            }
            let over = self
                .builder
                .as_ref()
                .is_some_and(|b| b.rows >= MAX_GAME_ROWS);
            if over && let Some(mut b) = self.builder.take() {
                // The game is cut at its budget; the rows after it are read as a game
                // of their own (with its own budget): nothing is held past the budget,
                // and nothing is dropped (issue 22).
                let at = b.text.len();
                b.diagnostics.push(
                    Diagnostic::error(
                        Code::CsvGameTooLong,
                        format!(
                            "expected at most {MAX_GAME_ROWS} rows in one game, found more: \
                             the game is cut before line {line}, and the rows from there \
                             are read as a game of their own"
                        ),
                    )
                    .with_span(Span::from_range(at, at)),
                );
                b.byte_end = byte;
                let g = self.finish(b);
                self.games += 1;
                let mut next = Builder::new(self.games, line, byte);
                next.headers = Arc::clone(&self.headers);
                next.key.clone_from(&self.game_key);
                next.diagnostics.push(Diagnostic::error(
                    Code::CsvGameTooLong,
                    format!(
                        "the rows from line {line} continue a game cut at the \
                         {MAX_GAME_ROWS}-row budget"
                    ),
                ));
                next.row(&record, cols, line, row);
                self.builder = Some(next);
                done_game = Some(g);
            } else if let Some(b) = self.builder.as_mut() {
                if b.key.is_none() {
                    b.key.clone_from(&self.game_key);
                }
                b.row(&record, cols, line, row);
            }
            self.any_row = true;
            if let Some(g) = done_game {
                break Some(Ok(g));
            }
        };
        self.record = record;
        out
    }
}

impl<R: Read> Iterator for ScoresheetReader<R> {
    type Item = io::Result<CsvGame>;

    fn next(&mut self) -> Option<io::Result<CsvGame>> {
        self.next_game()
    }
}

/// A [`Read`] that decodes a byte stream to UTF-8 in bounded memory with encoding_rs's
/// streaming decoder: the encoding is the BOM's, else the user's, else UTF-8 when the
/// first 64 KiB are (mostly) UTF-8, else the legacy encoding guessed from them.
/// Malformed input becomes U+FFFD and sets `had_replacements`. Reading past `limit`
/// bytes of output fails (a record over its budget) and sets `over_limit`.
struct Transcode<R> {
    inner: R,
    decoder: encoding_rs::Decoder,
    /// A Vietnamese legacy encoding (issue 28) decodes through this, not `decoder`.
    legacy: Option<crate::text::legacy::LegacyStream>,
    report: DecodeReport,
    input: Vec<u8>,
    in_start: usize,
    in_end: usize,
    eof: bool,
    finished: bool,
    output: Vec<u8>,
    out_start: usize,
    out_end: usize,
    had_replacements: bool,
    produced: u64,
    limit: u64,
    over_limit: bool,
    /// The output since stream offset `kept_from` (at most [`KEPT_SLACK`] before the
    /// start of the record being read): what a record over its budget is kept verbatim
    /// from. At most the slack, the record budget and the CSV reader's read-ahead.
    kept: Vec<u8>,
    kept_from: u64,
    /// Off once the rest is handed out unread ([`ScoresheetReader::next_unread`]).
    keeping: bool,
}

/// How much kept output before the current record may wait to be forgotten: dropping
/// it at every record would move the CSV reader's read-ahead each time.
const KEPT_SLACK: u64 = 64 * 1024;

impl<R: Read> Transcode<R> {
    fn new(mut inner: R, forced: Option<crate::text::TextEncoding>) -> io::Result<Transcode<R>> {
        let mut input = vec![0; HEAD_BYTES];
        let mut in_end = 0;
        let mut eof = false;
        while in_end < input.len() {
            match inner.read(&mut input[in_end..]) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(n) => in_end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        let head = &input[..in_end];
        let utf16 = || {
            // a sheet saved as UTF-16 without a BOM: told by its NULs
            crate::text::sniff_utf16(head)
                .filter(|_| forced.is_none())
                .map(|e| (e, 0, EncodingSource::Guessed))
        };
        let found = crate::text::sniff_bom(head).map(|(e, bom)| (e, bom, EncodingSource::Bom));
        let (report, in_start) = if let Some((enc, bom, source)) = found.or_else(utf16) {
            let report = DecodeReport {
                encoding: enc.into(),
                source,
                had_replacements: false,
            };
            (report, bom)
        } else {
            // the encoding of whole lines (a character may be cut at the end)
            let sample = match memchr::memrchr(b'\n', head) {
                Some(k) if !eof => &head[..k],
                _ => head,
            };
            let (_, report) = crate::text::decode_chunk(sample, forced, None);
            (report, 0)
        };
        Ok(Transcode {
            inner,
            decoder: report
                .encoding
                .std()
                .unwrap_or(UTF_8)
                .new_decoder_without_bom_handling(),
            legacy: match report.encoding {
                crate::text::TextEncoding::Legacy(l) => {
                    Some(crate::text::legacy::LegacyStream::new(l))
                }
                crate::text::TextEncoding::Std(_) => None,
            },
            report,
            input,
            in_start,
            in_end,
            eof,
            finished: false,
            output: vec![0; HEAD_BYTES + 16],
            out_start: 0,
            out_end: 0,
            had_replacements: false,
            produced: 0,
            limit: u64::MAX,
            over_limit: false,
            kept: Vec::new(),
            kept_from: 0,
            keeping: true,
        })
    }

    /// Keeps the output from stream offset `at` (a record's start) on; what is before
    /// it is forgotten once it passes [`KEPT_SLACK`].
    fn keep_from(&mut self, at: u64) {
        if at.saturating_sub(self.kept_from) >= KEPT_SLACK {
            self.forget_before(at);
        }
    }

    /// Forgets the kept output before stream offset `at`.
    fn forget_before(&mut self, at: u64) {
        let drop = usize::try_from(at.saturating_sub(self.kept_from))
            .unwrap_or(usize::MAX)
            .min(self.kept.len());
        self.kept.drain(..drop);
        self.kept_from += drop as u64;
    }

    fn refill(&mut self) -> io::Result<()> {
        while self.out_start == self.out_end {
            if self.in_start == self.in_end && !self.eof {
                let n = self.inner.read(&mut self.input)?;
                self.in_start = 0;
                self.in_end = n;
                self.eof = n == 0;
            }
            let last = self.in_start == self.in_end && self.eof;
            if last && self.finished {
                return Ok(());
            }
            if let Some(stream) = &mut self.legacy {
                let text = stream.feed(&self.input[self.in_start..self.in_end], last);
                self.finished |= last;
                self.in_start = self.in_end;
                self.output.clear();
                self.output.extend_from_slice(text.as_bytes());
                self.out_start = 0;
                self.out_end = self.output.len();
                continue;
            }
            let (result, read, written, replaced) = self.decoder.decode_to_utf8(
                &self.input[self.in_start..self.in_end],
                &mut self.output,
                last,
            );
            self.finished |= last;
            self.had_replacements |= replaced;
            self.in_start += read;
            self.out_start = 0;
            self.out_end = written;
            if result == encoding_rs::CoderResult::OutputFull && written == 0 {
                return Err(io::Error::other("the decoder made no progress"));
            }
        }
        Ok(())
    }
}

impl<R: Read> Read for Transcode<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.produced >= self.limit {
            self.over_limit = true;
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "a csv record over its budget",
            ));
        }
        self.refill()?;
        let avail = &self.output[self.out_start..self.out_end];
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        if self.keeping {
            self.kept.extend_from_slice(&avail[..n]);
        }
        self.out_start += n;
        self.produced += n as u64;
        Ok(n)
    }
}

/// Reads a scoresheet with its games file (`games.csv`, as
/// [`crate::emit::ScoresheetWriter`] writes it): each row's fields become the tags of
/// the game with the same `game` value (of the only game, when the moves file has no
/// `game` column and the games file one row). Column names are tag names (`start_fen`
/// becomes `SetUp "1"` + `FEN`; empty cells and the `game`, `status`, `source_file`
/// and `source_game_index` columns are skipped). The tag text is appended to the
/// game's text after its last line; [`CsvGame::cells`] maps it back to the games file.
pub fn read_scoresheet_with_games(moves: &str, games: &str) -> Vec<CsvGame> {
    let mut out = read_scoresheet(moves);
    let table = GamesTable::read(games);
    let single = out.len() == 1;
    for g in &mut out {
        table.attach(g, single);
    }
    out
}

/// The most bytes of a games file (`--games-csv` on input) read into memory: one row
/// per game, so millions of games.
pub const MAX_GAMES_FILE_BYTES: usize = 32 << 20;

/// A games file (`games.csv`, as [`crate::emit::ScoresheetWriter`] writes it, or typed
/// by hand): one row per game, its fields the game's tags, found by the `game` column.
/// See [`read_scoresheet_with_games`].
#[derive(Clone, Debug, Default)]
pub struct GamesTable {
    names: Vec<String>,
    headers: Arc<[String]>,
    rows: Vec<StringRecord>,
    /// The row of each `game` value (the first row, when a value repeats).
    by_key: std::collections::HashMap<String, usize>,
}

impl GamesTable {
    /// Reads the games file's text (the header row, then one row per game).
    pub fn read(games: &str) -> GamesTable {
        let games = games.strip_prefix('\u{feff}').unwrap_or(games);
        let mut rdr = ReaderBuilder::new()
            .delimiter(sniff_delimiter(games))
            .has_headers(false)
            .flexible(true)
            .trim(Trim::All)
            .from_reader(games.as_bytes());
        let mut records = rdr.records();
        let Some(Ok(header)) = records.next() else {
            return GamesTable::default();
        };
        let names: Vec<String> = header.iter().map(str::to_owned).collect();
        let key_col = names
            .iter()
            .position(|n| Column::from_header(n) == Some(Column::Game));
        let rows: Vec<StringRecord> = records.flatten().collect();
        let mut by_key = std::collections::HashMap::new();
        if let Some(k) = key_col {
            for (i, r) in rows.iter().enumerate() {
                if let Some(v) = r.get(k) {
                    by_key.entry(v.to_owned()).or_insert(i);
                }
            }
        }
        GamesTable {
            headers: names.iter().cloned().collect(),
            names,
            rows,
            by_key,
        }
    }

    /// How many game rows the table has.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table has no game row.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Gives `g` the tags of its row: the row with its `game` value, or the only row
    /// when the sheet has no `game` column and `single` says the sheet is one game.
    /// Whether a row was found.
    pub fn attach(&self, g: &mut CsvGame, single: bool) -> bool {
        let row = match g.game.as_deref() {
            Some(k) => self.by_key.get(k).and_then(|&i| self.rows.get(i)),
            None if single && self.rows.len() == 1 => self.rows.first(),
            None => None,
        };
        let Some(row) = row else {
            return false;
        };
        attach_tags(g, &self.names, row);
        let headers = g
            .raw
            .sheet
            .as_ref()
            .map_or_else(|| Arc::from(Vec::new()), |s| Arc::clone(&s.headers));
        g.raw.sheet = Some(Arc::new(sheet_cells(&g.cells, &headers, &self.headers)));
        true
    }
}

/// The games of a scoresheet read from a stream, each given the tags of its row of
/// `table` (`--games-csv` on input), as the pipeline takes them: a sheet without a
/// `game` column is one game, given the table's only row.
pub fn pieces_with_games<R: Read + Send + 'static>(
    input: R,
    forced: Option<crate::text::TextEncoding>,
    table: Arc<GamesTable>,
) -> io::Result<impl Iterator<Item = io::Result<super::Piece>> + Send> {
    let sheet = ScoresheetReader::new(input, forced)?;
    Ok(sheet.map(move |g| {
        g.map(|mut g| {
            table.attach(&mut g, true);
            super::Piece::from(g.raw)
        })
    }))
}

fn attach_tags(g: &mut CsvGame, names: &[String], row: &StringRecord) {
    let line = row.position().map_or(0, |p| p.line());
    let text = &mut g.raw.text;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    for (field, (name, value)) in names.iter().zip(row.iter()).enumerate() {
        let value = unneutralise(value);
        let key: String = name
            .chars()
            .map(|c| if c.is_whitespace() { '_' } else { c })
            .collect();
        if value.is_empty()
            || key.is_empty()
            || Column::from_header(&key) == Some(Column::Game)
            || matches!(key.as_str(), "status" | "source_file" | "source_game_index")
        {
            continue;
        }
        let pairs: &[(&str, &str)] = if key == "start_fen" {
            &[("SetUp", "1"), ("FEN", value)]
        } else {
            &[(key.as_str(), value)]
        };
        for &(n, v) in pairs {
            let start = text.len();
            text.push('[');
            let name_span = Span::from_range(text.len(), text.len() + n.len());
            text.push_str(n);
            text.push_str(" \"");
            let vstart = text.len();
            let mut escaped = false;
            for c in v.chars() {
                match c {
                    '"' | '\\' => {
                        escaped = true;
                        text.push('\\');
                        text.push(c);
                    }
                    '\n' | '\r' => text.push(' '),
                    c => text.push(c),
                }
            }
            let value_span = Span::from_range(vstart, text.len());
            text.push_str("\"]");
            let span = Span::from_range(start, text.len());
            text.push('\n');
            g.raw.tags.push(super::RawTag {
                span,
                name: name_span,
                value: value_span,
                escaped,
            });
            g.cells.push(CellRef {
                span: value_span,
                line,
                row: line,
                field,
                column: None,
                games_file: true,
            });
        }
    }
}

/// The field delimiter: whichever of `,`, `;` and tab occurs most in the header line
/// (spreadsheets in locales with a decimal comma save CSV with `;`), `,` on a tie.
pub fn sniff_delimiter(text: &str) -> u8 {
    let header = text.lines().next().unwrap_or("");
    let count = |c: char| header.matches(c).count();
    let (comma, semi, tab) = (count(','), count(';'), count('\t'));
    if semi > comma && semi >= tab {
        b';'
    } else if tab > comma && tab > semi {
        b'\t'
    } else {
        b','
    }
}

/// The flags kyphu's own writer puts in the `flags` column (read, not kept as text).
const KNOWN_FLAGS: &[&str] = &["unparsed", "result", "illegal-white", "illegal-black"];

/// Line breaks inside the cells of a record (a quoted cell over several lines): the
/// lines the record takes beyond its first.
fn line_breaks(rec: &StringRecord) -> u64 {
    rec.iter()
        .map(|f| {
            let b = f.as_bytes();
            (memchr::memchr_iter(b'\n', b).count()
                + b.windows(2)
                    .filter(|w| w[0] == b'\r' && w[1] != b'\n')
                    .count()
                + usize::from(b.last() == Some(&b'\r'))) as u64
        })
        .sum()
}

/// The cells of a game as the model keeps them ([`SheetCells`]).
fn sheet_cells(cells: &[CellRef], headers: &Arc<[String]>, games: &Arc<[String]>) -> SheetCells {
    SheetCells {
        headers: Arc::clone(headers),
        games_headers: Arc::clone(games),
        cells: cells
            .iter()
            .map(|c| SheetCell {
                span: c.span,
                row: c.row,
                field: u32::try_from(c.field).unwrap_or(u32::MAX),
                role: c.column.map(Column::name),
                games_file: c.games_file,
            })
            .collect(),
    }
}

fn decoding() -> DecodeReport {
    DecodeReport {
        encoding: UTF_8.into(),
        source: EncodingSource::Utf8,
        had_replacements: false,
    }
}

struct Builder {
    index: u64,
    text: String,
    first_line: u64,
    /// The CSV line the end of `text` is on.
    line: u64,
    movetext: Vec<Element>,
    cells: Vec<CellRef>,
    diagnostics: Vec<Diagnostic>,
    result: Option<(GameResult, Span)>,
    byte_start: u64,
    byte_end: u64,
    key: Option<String>,
    /// Rows read into the game (not counting blank ones).
    rows: usize,
    /// The sheet row of the record being read.
    row: u64,
    /// The header cells as written.
    headers: Arc<[String]>,
    /// How the file was decoded.
    report: DecodeReport,
}

impl Builder {
    fn new(index: u64, first_line: u64, byte_start: u64) -> Builder {
        Builder {
            index,
            text: String::new(),
            first_line,
            line: first_line,
            movetext: Vec::new(),
            cells: Vec::new(),
            diagnostics: Vec::new(),
            result: None,
            byte_start,
            byte_end: byte_start,
            key: None,
            rows: 0,
            row: first_line,
            headers: Arc::from(Vec::new()),
            report: decoding(),
        }
    }

    /// Appends `s` as one span of the text, recording its cell.
    fn put(&mut self, s: &str, line: u64, field: usize, column: Option<Column>) -> Span {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push(' ');
        }
        let start = self.text.len();
        self.push_cell(s);
        let span = Span::from_range(start, self.text.len());
        self.cells.push(CellRef {
            span,
            line,
            row: self.row,
            field,
            column,
            games_file: false,
        });
        span
    }

    /// Appends a cell's text in NFC, line breaks as spaces.
    fn push_cell(&mut self, s: &str) {
        let normal;
        let s = if s.is_ascii() {
            s
        } else {
            normal = crate::text::normalize::nfc(s.to_owned());
            normal.as_str()
        };
        for c in s.chars() {
            self.text.push(if c == '\n' || c == '\r' { ' ' } else { c });
        }
    }

    /// Appends literal syntax (not from a cell).
    fn lit(&mut self, s: &str) -> Span {
        let start = self.text.len();
        self.text.push_str(s);
        Span::from_range(start, self.text.len())
    }

    fn row(&mut self, rec: &StringRecord, cols: &Cols, line: u64, row: u64) {
        self.row = row;
        while self.line < line {
            self.text.push('\n');
            self.line += 1;
        }
        if rec.iter().all(str::is_empty) {
            return;
        }
        self.rows += 1;
        let row_start = self.text.len();
        if rec.len() != cols.len() {
            self.diagnostics.push(
                Diagnostic::warning(
                    Code::CsvRaggedRow,
                    format!(
                        "expected {} fields as in the header, found {}",
                        cols.len(),
                        rec.len()
                    ),
                )
                .with_span(Span::from_range(row_start, row_start)),
            );
        }
        let idx = |c: Column| cols.idx(c);
        let get = |c: Column| cols.get(rec, c);
        let flags = get(Column::Flags).to_ascii_lowercase();
        let white = get(Column::White);
        let black = get(Column::Black);
        if flags.split(';').any(|f| f.trim() == "unparsed") {
            // verbatim unread text of a written game: kept as a comment
            if let Some(i) = idx(Column::White) {
                self.lit("{");
                let body = self.put(white, line, i, Some(Column::White));
                let end = self.lit("}");
                self.movetext.push(Element::Comment {
                    kind: CommentKind::Brace,
                    closed: end.end > body.end,
                    body,
                });
            }
            return;
        }
        let number = get(Column::Move);
        let white_empty = white.is_empty() || white == "..." || white == "…";
        if !number.is_empty()
            && let Some(i) = idx(Column::Move)
        {
            match number.trim_end_matches('.').parse::<u32>() {
                Ok(n) => {
                    let span = self.put(number, line, i, Some(Column::Move));
                    let dots = self.lit(if white_empty { "..." } else { "." });
                    self.movetext.push(Element::MoveNumber {
                        number: n,
                        black: white_empty,
                        span: span.join(dots),
                    });
                }
                Err(_) => {
                    let span = self.put(number, line, i, Some(Column::Move));
                    self.diagnostics.push(
                        Diagnostic::warning(
                            Code::CsvBadMoveNumber,
                            format!("expected a move number, found `{number}`"),
                        )
                        .with_span(span),
                    );
                }
            }
        }
        let draw = get(Column::DrawOffer);
        let draw_side = match Column::from_header(draw) {
            _ if draw.is_empty() => None,
            Some(Column::White) => Some(Column::White),
            Some(Column::Black) => Some(Column::Black),
            _ => {
                let at = self.text.len();
                self.diagnostics.push(
                    Diagnostic::warning(
                        Code::CsvBadDrawOffer,
                        format!("expected `white` or `black` for a draw offer, found `{draw}`"),
                    )
                    .with_span(Span::from_range(at, at)),
                );
                None
            }
        };
        for (side, cell, clock_col) in [
            (Column::White, white, Column::WhiteClock),
            (Column::Black, black, Column::BlackClock),
        ] {
            if cell.is_empty() || (side == Column::White && white_empty) {
                continue;
            }
            let Some(i) = idx(side) else { continue };
            let span = self.put(cell, line, i, Some(side));
            if let Some(r) = GameResult::parse(cell) {
                self.result = Some((r, span));
                continue;
            }
            self.movetext.push(Element::Move { span, ep: None });
            let clock = get(clock_col);
            if !clock.is_empty()
                && let Some(ci) = idx(clock_col)
            {
                let open = self.lit(" {[%clk ");
                self.put_glued(clock, line, ci, Some(clock_col));
                let close = self.lit("]}");
                // ` {[%clk ` and `]}`: the body from `[` to `]`
                self.movetext.push(Element::Comment {
                    kind: CommentKind::Brace,
                    closed: true,
                    body: Span::new(open.start.saturating_add(2), close.start.saturating_add(1)),
                });
            }
            if draw_side == Some(side) {
                let span = self.lit(" (=)");
                self.movetext.push(Element::DrawOffer {
                    span: Span::new(span.start.saturating_add(1), span.end),
                });
            }
        }
        // every other cell is kept: a comment on the row's last move
        if let Some(i) = idx(Column::Flags)
            && flags
                .split(';')
                .map(str::trim)
                .any(|f| !f.is_empty() && !KNOWN_FLAGS.contains(&f))
        {
            self.comment(
                Some("flags"),
                get(Column::Flags),
                line,
                i,
                Some(Column::Flags),
            );
        }
        let notes = get(Column::Notes);
        if !notes.is_empty()
            && let Some(i) = idx(Column::Notes)
        {
            self.comment(None, notes, line, i, Some(Column::Notes));
        }
        for (i, col) in cols.of_field.iter().enumerate() {
            // an unknown column, or a known one named a second time
            if col.is_some_and(|c| cols.idx(c) == Some(i)) {
                continue;
            }
            let cell = rec.get(i).map_or("", unneutralise);
            if cell.is_empty() {
                continue;
            }
            let name = self.headers.get(i).cloned().unwrap_or_default();
            let label = if name.is_empty() {
                format!("column {}", i + 1)
            } else {
                name
            };
            self.comment(Some(&label), cell, line, i, None);
        }
    }

    /// Appends `{label: cell}` (or `{cell}`) as a comment of the movetext.
    fn comment(
        &mut self,
        label: Option<&str>,
        cell: &str,
        line: u64,
        field: usize,
        column: Option<Column>,
    ) {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push(' ');
        }
        let open = self.lit("{");
        if let Some(label) = label {
            self.lit(label);
            self.lit(": ");
        }
        self.put_glued(cell, line, field, column);
        let close = self.lit("}");
        self.movetext.push(Element::Comment {
            kind: CommentKind::Brace,
            closed: true,
            body: Span::new(open.end, close.start),
        });
    }

    /// Like [`Builder::put`] without a leading space.
    fn put_glued(&mut self, s: &str, line: u64, field: usize, column: Option<Column>) -> Span {
        let start = self.text.len();
        self.push_cell(s);
        let span = Span::from_range(start, self.text.len());
        self.cells.push(CellRef {
            span,
            line,
            row: self.row,
            field,
            column,
            games_file: false,
        });
        span
    }

    fn finish(mut self) -> CsvGame {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
        let sheet = sheet_cells(&self.cells, &self.headers, &Arc::from(Vec::new()));
        CsvGame {
            game: self.key,
            raw: RawGame {
                index: self.index,
                junk: false,
                tags: Vec::new(),
                movetext: self.movetext,
                result: self.result,
                text: self.text,
                byte_start: self.byte_start,
                byte_end: self.byte_end,
                first_line: self.first_line,
                decoding: self.report,
                diagnostics: self.diagnostics,
                move_letters: None,
                counts: None,
                sheet: Some(Arc::new(sheet)),
            },
            cells: self.cells,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn headers() {
        let cases = [
            ("move", Some(Column::Move)),
            ("No", Some(Column::Move)),
            ("#", Some(Column::Move)),
            ("TT", Some(Column::Move)),
            ("Trắng", Some(Column::White)),
            ("TRANG", Some(Column::White)),
            ("Đen", Some(Column::Black)),
            ("den", Some(Column::Black)),
            ("white_clock", Some(Column::WhiteClock)),
            ("Draw offer", Some(Column::DrawOffer)),
            ("Ván", Some(Column::Game)),
            ("Ghi chú", Some(Column::Notes)),
            ("comment", Some(Column::Notes)),
            ("flags", Some(Column::Flags)),
            ("Xác nhận", None),
        ];
        for (h, want) in cases {
            assert_eq!(Column::from_header(h), want, "{h}");
        }
    }

    #[test]
    fn reads_vietnamese_sheet() {
        let csv = "TT,Trắng,Đen,Ghi chú\n1,e4,e5,\n2,Mf3,Mc6,\n3,,1-0,\n";
        let games = read_scoresheet(csv);
        assert_eq!(games.len(), 1);
        let g = &games[0].raw;
        assert_eq!(
            g.move_tokens().collect::<Vec<_>>(),
            ["e4", "e5", "Mf3", "Mc6"]
        );
        assert_eq!(g.result.map(|r| r.0), Some(GameResult::WhiteWins));
        // line 2 of the CSV is line 2 of the text
        let e4 = g.movetext.iter().find_map(|e| match e {
            Element::Move { span, .. } => Some(*span),
            _ => None,
        });
        let lc = crate::model::diag::LineIndex::new(&g.text, g.first_line)
            .locate(&g.text, e4.unwrap().start as usize);
        assert_eq!(lc.line, 2);
        assert_eq!(games[0].cell_at(e4.unwrap()).unwrap().field, 1);
    }

    #[test]
    fn errors_are_diagnostics() {
        let cases: [(&str, &str); 4] = [
            ("x,y\n1,2\n", "csv-missing-header"),
            ("move,white,black,extra\n1,e4,e5,x\n", "csv-unknown-column"),
            ("move,white,black\n1,e4\n", "csv-ragged-row"),
            ("move,white,black\nx,e4,e5\n", "csv-bad-move-number"),
        ];
        for (csv, code) in cases {
            let games = read_scoresheet(csv);
            assert!(
                games
                    .iter()
                    .any(|g| g.raw.diagnostics.iter().any(|d| d.code == code)),
                "{csv}: {games:?}"
            );
        }
        assert!(read_scoresheet("").is_empty());
    }

    /// Every unknown header cell gets a span inside the header line of the text, also
    /// a quoted cell over two lines (found by the `csv_sheet` fuzz target), and the
    /// header line is the one the header record starts on.
    #[test]
    fn unknown_column_spans_lie_in_the_header_line() {
        let cases: [(&str, &str); 4] = [
            ("move,white,black,extra\n1,e4,e5,x\n", "extra"),
            (
                "move,white,black,\"two\nlines\"\n1,e4,e5,x\n",
                "move,white,black,\"two",
            ),
            (
                "move,white,black,\"two\rlines\"\r1,e4,e5,x\r",
                "move,white,black,\"two",
            ),
            (
                "\n\nmove,white,\"x\ny\",black\n1,e4,,e5\n",
                "move,white,\"x",
            ),
        ];
        for (csv, want) in cases {
            let games = read_scoresheet(csv);
            let g = &games[0].raw;
            let d = g
                .diagnostics
                .iter()
                .find(|d| d.code == "csv-unknown-column")
                .unwrap();
            assert_eq!(g.slice(d.span.unwrap()), want, "{csv:?}");
            assert_eq!(g.move_tokens().collect::<Vec<_>>(), ["e4", "e5"], "{csv:?}");
        }
    }

    #[test]
    fn delimiters_quotes_and_multiline_cells() {
        let cases: [(&str, &[&str], u64); 4] = [
            (
                "move;white;black\n1;e4;e5\n2;Nf3;Nc6\n",
                &["e4", "e5", "Nf3", "Nc6"],
                3,
            ),
            ("move\twhite\tblack\n1\te4\te5\n", &["e4", "e5"], 2),
            (
                "\u{feff}\"move\",\"white\",\"black\"\n1,\"e4\",\" e5 \"\n",
                &["e4", "e5"],
                2,
            ),
            // a cell over two lines keeps later rows on their own CSV lines
            (
                "move,white,black,flags\n1,e4,e5,\"a\nb\"\n2,Nf3,Nc6,\n",
                &["e4", "e5", "Nf3", "Nc6"],
                4,
            ),
        ];
        for (csv, tokens, last_line) in cases {
            let games = read_scoresheet(csv);
            assert_eq!(games.len(), 1, "{csv:?}");
            let g = &games[0].raw;
            assert_eq!(g.move_tokens().collect::<Vec<_>>(), tokens, "{csv:?}");
            assert!(
                g.diagnostics.iter().all(|d| d.code != "csv-ragged-row"),
                "{csv:?}"
            );
            let last = g
                .movetext
                .iter()
                .rev()
                .find_map(|e| match e {
                    Element::Move { span, .. } => Some(*span),
                    _ => None,
                })
                .unwrap();
            let lc = crate::model::diag::LineIndex::new(&g.text, g.first_line)
                .locate(&g.text, last.start as usize);
            assert_eq!(lc.line, last_line, "{csv:?}: {:?}", g.text);
        }
    }

    #[test]
    fn games_file_gives_tags() {
        let moves = "game,move,white,black\n1,1,e4,e5\n2,1,d4,d5\n";
        let games = "game,Event,White,start_fen,status\n1,\"A \"\"big\"\" one\",Ann,,clean\n\
                     2,B,Bob,4k3/8/8/8/8/8/8/4K3 w - - 0 1,clean\n";
        let read = read_scoresheet_with_games(moves, games);
        assert_eq!(read.len(), 2);
        let tags = |g: &CsvGame| {
            g.raw
                .tags
                .iter()
                .map(|t| {
                    (
                        g.raw.tag_name(t).to_owned(),
                        g.raw.tag_value(t).into_owned(),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            tags(&read[0]),
            [
                ("Event".into(), "A \"big\" one".into()),
                ("White".into(), "Ann".into())
            ]
        );
        assert_eq!(tags(&read[1])[2], ("SetUp".to_owned(), "1".to_owned()));
        assert_eq!(read[1].game.as_deref(), Some("2"));
        assert!(read[1].cells.iter().any(|c| c.games_file && c.line == 3));
        assert_eq!(read[0].raw.move_tokens().collect::<Vec<_>>(), ["e4", "e5"]);
    }

    #[test]
    fn several_games_and_clocks() {
        let csv = "game,move,white,black,white_clock,black_clock,draw_offer\n\
                   1,1,e4,e5,1:00:00,0:59:59,black\n2,1,d4,d5,,,\n";
        let games = read_scoresheet(csv);
        assert_eq!(games.len(), 2);
        let g = &games[0].raw;
        let comments: Vec<&str> = g
            .movetext
            .iter()
            .filter_map(|e| match e {
                Element::Comment { body, .. } => Some(g.slice(*body)),
                _ => None,
            })
            .collect();
        assert_eq!(comments, ["[%clk 1:00:00]", "[%clk 0:59:59]"]);
        assert!(
            g.movetext
                .iter()
                .any(|e| matches!(e, Element::DrawOffer { .. }))
        );
        assert_eq!(games[1].raw.first_line, 3);
        assert_eq!(games[1].raw.move_tokens().collect::<Vec<_>>(), ["d4", "d5"]);
    }
}
