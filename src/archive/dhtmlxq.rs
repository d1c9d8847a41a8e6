//! DhtmlXQ (UBB) game text, the format of the 东萍象棋 (dpxq.com) web viewer: every
//! `[DhtmlXQ]…[/DhtmlXQ]` (or `[DhtmlXQiFrame]…[/DhtmlXQiFrame]`) block of a text or
//! HTML page, wherever it stands (inside an iframe's `name`, a script string…), is a
//! game. The layout is in `docs/formats.md`.
//!
//! [`DhtmlxqReader`] streams a page in bounded memory: the page is decoded (a BOM,
//! else valid UTF-8, else the page's `charset=`, else GB18030), each block becomes a
//! [`RawGame`] through [`super::tree`] (metadata tags, `binit`, the main line
//! `movelist`, the branches `move_a_b_c` as variations, the comments), and the text
//! between blocks is kept as non-game text (`junk-between-games`), as the PGN reader
//! keeps it.

use std::{
    collections::{BTreeMap, HashMap, VecDeque},
    io::{self, BufRead},
};

use encoding_rs::{Decoder, Encoding, UTF_8};

use super::{
    Piece, RawGame, ReadOptions,
    tree::{Tree, TreeGame},
};
use crate::{
    model::diag::{Code, Diagnostic, Span},
    model::game::GameResult,
    text::{DecodeReport, EncodingSource},
};

/// The standard start as `binit`: 32 squares in the slot order of XQF.
pub const START_BINIT: &str = "8979695949392919097717866646260600102030405060708012720323436383";
/// The pieces of the 32 `binit` slots: Red, then Black.
const SLOTS: &[u8; 16] = b"RNBAKABNRCCPPPPP";

/// DhtmlXQ metadata names and the PGN tags kyphu gives them (both ways); any other
/// name is kept as the tag `DhtmlXQ_name`.
pub const TAG_NAMES: &[(&str, &str)] = &[
    ("title", "Title"),
    ("event", "Event"),
    ("date", "Date"),
    ("place", "Site"),
    ("round", "Round"),
    ("red", "Red"),
    ("black", "Black"),
    ("redteam", "RedTeam"),
    ("blackteam", "BlackTeam"),
    ("author", "Author"),
];

/// The result a `result` value names: `W`/`L`/`D` (wxf.ca pages) or the Chinese of
/// dpxq pages.
pub fn result_of(value: &str) -> GameResult {
    match value.trim() {
        "W" | "红胜" | "紅勝" | "红方胜" | "紅方勝" | "1-0" => GameResult::WhiteWins,
        "L" | "黑胜" | "黑勝" | "黑方胜" | "黑方勝" | "0-1" => GameResult::BlackWins,
        "D" | "和棋" | "和局" | "和" | "1/2-1/2" => GameResult::Draw,
        _ => GameResult::Unknown,
    }
}

/// The ICCS square of a DhtmlXQ column `x` (0–8) and row `y` (0–9 from Black's side).
fn square(x: u8, y: u8) -> [u8; 2] {
    [b'a' + x, b'0' + (9 - y)]
}

/// The moves of a `movelist` or branch value: groups of four digits `x1 y1 x2 y2`.
fn moves(value: &str, what: &str, notes: &mut Vec<String>) -> Vec<String> {
    let digits: Vec<u8> = value.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !digits.len().is_multiple_of(4) {
        notes.push(format!(
            "{what}: expected groups of 4 digits, found {} characters; the last {} not read",
            digits.len(),
            digits.len() % 4
        ));
    }
    let mut out = Vec::with_capacity(digits.len() / 4);
    for q in digits.chunks_exact(4) {
        let ok = q.iter().all(u8::is_ascii_digit) && q[0] <= b'8' && q[2] <= b'8';
        if ok {
            let d = |i: usize| q[i] - b'0';
            let (a, b) = (square(d(0), d(1)), square(d(2), d(3)));
            out.push(String::from_utf8_lossy(&[a[0], a[1], b[0], b[1]]).into_owned());
        } else {
            let q = String::from_utf8_lossy(q);
            notes.push(format!(
                "{what}: expected a move of 4 digits (columns 0 to 8), found `{q}`"
            ));
            out.push(format!("?{q}"));
        }
    }
    out
}

/// The board of a `binit` value (10 rows from Black's side, 9 columns), or `None` when
/// it is not 64 digits.
fn binit_grid(value: &str, notes: &mut Vec<String>) -> Option<[[u8; 9]; 10]> {
    let b: Vec<u8> = value.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if b.len() != 64 || !b.iter().all(u8::is_ascii_digit) {
        notes.push(format!(
            "binit: expected 64 digits, found {} characters; the standard start used",
            b.len()
        ));
        return None;
    }
    let mut grid = [[0u8; 9]; 10];
    let mut clash = false;
    for i in 0..32 {
        let (x, y) = (
            usize::from(b[2 * i] - b'0'),
            usize::from(b[2 * i + 1] - b'0'),
        );
        if x > 8 {
            continue; // `99`: the piece is not on the board
        }
        let letter = SLOTS[i % 16];
        clash |= grid[y][x] != 0;
        grid[y][x] = if i < 16 {
            letter
        } else {
            letter.to_ascii_lowercase()
        };
    }
    if clash {
        notes.push("binit: two pieces on one square (the later kept)".to_owned());
    }
    Some(grid)
}

/// The board of a FEN's first field, rows from Black's side.
fn fen_grid(fen: &str) -> [[u8; 9]; 10] {
    let mut grid = [[0u8; 9]; 10];
    let board = fen.split_ascii_whitespace().next().unwrap_or("");
    for (y, row) in board.split('/').take(10).enumerate() {
        let mut x = 0usize;
        for c in row.bytes() {
            if c.is_ascii_digit() {
                x += usize::from(c - b'0');
            } else if x < 9 {
                grid[y][x] = c;
                x += 1;
            }
        }
    }
    grid
}

/// A comment's text: `||` is a line break, `\uXXXX` a character.
fn comment_text(value: &str) -> String {
    let v = value.replace("||", "\n");
    if !v.contains("\\u") {
        return v;
    }
    let mut out = String::with_capacity(v.len());
    let mut rest = v.as_str();
    while let Some(k) = rest.find("\\u") {
        out.push_str(&rest[..k]);
        let hex = rest.get(k + 2..k + 6);
        match hex
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .and_then(char::from_u32)
        {
            Some(c) if hex.is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit())) => {
                out.push(c);
                rest = &rest[k + 6..];
            }
            _ => {
                out.push_str("\\u");
                rest = &rest[k + 2..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The fields `[DhtmlXQ_name]value[/DhtmlXQ_name]` of a block's body, in order; a
/// value ends at the next closing tag whatever its name (a mismatch is noted).
fn fields<'a>(body: &'a str, notes: &mut Vec<String>) -> Vec<(&'a str, &'a str)> {
    const OPEN: &str = "[DhtmlXQ_";
    const CLOSE: &str = "[/DhtmlXQ_";
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(k) = body[i..].find(OPEN) {
        let ns = i + k + OPEN.len();
        let name_len = body[ns..]
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        let ne = ns + name_len;
        if name_len == 0 || !body[ne..].starts_with(']') {
            i = ns;
            continue;
        }
        let vs = ne + 1;
        let Some(c) = body[vs..].find(CLOSE) else {
            notes.push(format!(
                "tag {}: expected [/DhtmlXQ_{}], found the end of the block",
                &body[ns..ne],
                &body[ns..ne]
            ));
            out.push((&body[ns..ne], &body[vs..]));
            break;
        };
        let ve = vs + c;
        let cs = ve + CLOSE.len();
        let close_len = body[cs..]
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        let close = &body[cs..cs + close_len];
        if close != &body[ns..ne] {
            notes.push(format!(
                "tag {}: expected [/DhtmlXQ_{}], found [/DhtmlXQ_{close}]",
                &body[ns..ne],
                &body[ns..ne]
            ));
        }
        out.push((&body[ns..ne], &body[vs..ve]));
        i = cs + close_len;
        if body[i..].starts_with(']') {
            i += 1;
        }
    }
    out
}

/// `move_a_b_c` → (a, b, c).
fn branch_key(name: &str) -> Option<(u32, u32, u32)> {
    let mut it = name.strip_prefix("move_")?.split('_');
    let a = it.next()?.parse().ok()?;
    let b = it.next()?.parse().ok()?;
    let c = it.next()?.parse().ok()?;
    it.next().is_none().then_some((a, b, c))
}

/// `commentN` → (0, N); `commentC_N` → (C, N).
fn comment_key(name: &str) -> Option<(u32, u32)> {
    let rest = name.strip_prefix("comment")?;
    match rest.split_once('_') {
        Some((c, n)) => Some((c.parse().ok()?, n.parse().ok()?)),
        None => Some((0, rest.parse().ok()?)),
    }
}

/// Reads one block's body (between `[DhtmlXQ]` and `[/DhtmlXQ]`) into a tree game.
pub fn read_block(body: &str) -> TreeGame {
    let mut notes = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut seen: HashMap<&str, ()> = HashMap::new();
    let mut branches: BTreeMap<u32, (u32, u32, &str)> = BTreeMap::new();
    let mut comments: BTreeMap<(u32, u32), &str> = BTreeMap::new();
    let (mut movelist, mut binit, mut fen) = ("", None, None);
    let mut result = GameResult::Unknown;
    for (name, value) in fields(body, &mut notes) {
        if seen.insert(name, ()).is_some() {
            notes.push(format!("tag {name} repeated: the first kept"));
            continue;
        }
        if let Some((a, b, c)) = branch_key(name) {
            branches.insert(c, (a, b, value));
        } else if let Some(k) = comment_key(name) {
            comments.insert(k, value);
        } else {
            match name {
                "movelist" => movelist = value,
                "binit" => binit = Some(value),
                "fen" => fen = Some(value.trim()),
                _ => {
                    if name == "result" {
                        result = result_of(value);
                    }
                    let tag = TAG_NAMES
                        .iter()
                        .find(|(d, _)| *d == name)
                        .map_or_else(|| format!("DhtmlXQ_{name}"), |(_, p)| (*p).to_owned());
                    tags.push((tag, value.to_owned()));
                }
            }
        }
    }

    let mut grid = binit
        .filter(|b| !b.trim().is_empty())
        .and_then(|b| binit_grid(b, &mut notes))
        .unwrap_or_else(|| {
            let mut n = Vec::new();
            binit_grid(START_BINIT, &mut n).unwrap_or([[0; 9]; 10])
        });
    if let Some(f) = fen.filter(|f| !f.is_empty()) {
        grid = fen_grid(f);
    }

    // lines: 0 is the main line; c hangs below line a, replacing its ply b
    let mut lines: BTreeMap<u32, (u32, u32, Vec<String>)> = BTreeMap::new();
    lines.insert(0, (0, 1, moves(movelist, "movelist", &mut notes)));
    for (&c, &(a, b, v)) in &branches {
        if c == 0 {
            notes.push(format!(
                "branch move_{a}_{b}_0: line 0 is the main line; not read"
            ));
            continue;
        }
        let m = moves(v, &format!("move_{a}_{b}_{c}"), &mut notes);
        lines.insert(c, (a, b, m));
    }
    let mut tree = Tree::new();
    let mut at: HashMap<(u32, u32), u32> = HashMap::new();
    at.insert((0, 0), 0);
    let attach =
        |tree: &mut Tree, at: &mut HashMap<(u32, u32), u32>, line, parent, ply, mvs: &[String]| {
            let mut n = parent;
            for (k, mv) in mvs.iter().enumerate() {
                n = tree.push(n, mv.clone());
                at.insert((line, ply + k as u32), n);
            }
        };
    if let Some((_, _, m)) = lines.get(&0) {
        attach(&mut tree, &mut at, 0, 0, 1, m);
    }
    let parent_of = |at: &HashMap<(u32, u32), u32>, a: u32, b: u32| -> Option<u32> {
        if b <= 1 {
            return (b == 1).then_some(0);
        }
        let mut line = a;
        for _ in 0..=lines.len() {
            if let Some(&n) = at.get(&(line, b - 1)) {
                return Some(n);
            }
            let &(pa, pb, _) = lines.get(&line)?;
            if line == 0 || b > pb {
                return None;
            }
            line = pa;
        }
        None
    };
    let mut pending: Vec<u32> = lines.keys().copied().filter(|&c| c != 0).collect();
    let mut attached: HashMap<u32, ()> = HashMap::new();
    while !pending.is_empty() {
        let mut progress = false;
        let mut later = Vec::new();
        for &c in &pending {
            let Some((a, b, m)) = lines.get(&c) else {
                continue;
            };
            let (a, b) = (*a, *b);
            if m.is_empty() {
                notes.push(format!("branch move_{a}_{b}_{c} is empty"));
                progress = true;
                continue;
            }
            if a != 0 && pending.contains(&a) && !attached.contains_key(&a) {
                later.push(c);
                continue;
            }
            let Some(parent) = parent_of(&at, a, b) else {
                notes.push(format!(
                    "branch move_{a}_{b}_{c}: line {a} has no move at ply {}; its {} moves not read",
                    b.saturating_sub(1),
                    m.len()
                ));
                progress = true;
                continue;
            };
            let m = m.clone();
            attach(&mut tree, &mut at, c, parent, b, &m);
            attached.insert(c, ());
            progress = true;
        }
        if !progress {
            for c in &later {
                notes.push(format!(
                    "branch {c}: its parent line is never read; its moves not read"
                ));
            }
            break;
        }
        pending = later;
    }
    for (&(line, ply), &text) in &comments {
        match at.get(&(line, ply)) {
            Some(&n) => tree.nodes[n as usize].comment = Some(comment_text(text)),
            None => notes.push(format!(
                "comment{}{ply}: line {line} has no move at ply {ply}; the comment is kept as a tag",
                if line == 0 { String::new() } else { format!("{line}_") }
            )),
        }
        if !at.contains_key(&(line, ply)) {
            let name = if line == 0 {
                format!("DhtmlXQ_comment{ply}")
            } else {
                format!("DhtmlXQ_comment{line}_{ply}")
            };
            tags.push((name, text.to_owned()));
        }
    }

    // side to move: the colour of the piece on the first move's square
    let mut black = false;
    if let Some(first) = tree.nodes[0].first {
        let mv = tree.nodes[first as usize].mv.as_bytes();
        if mv.len() == 4 && mv[0] != b'?' {
            let x = usize::from(mv[0] - b'a');
            let y = usize::from(b'9' - mv[1]);
            match grid[y][x] {
                0 => {
                    notes.push("the first move starts from an empty square: Red to move".to_owned())
                }
                p => black = p.is_ascii_lowercase(),
            }
        }
    }
    let board = super::xqf::placement(grid.iter());
    let fen = (board != super::xqf::START_BOARD || black)
        .then(|| format!("{board} {}", if black { 'b' } else { 'w' }));
    TreeGame {
        tags,
        fen,
        tree,
        result,
        diagnostics: notes
            .into_iter()
            .map(|n| Diagnostic::warning(Code::DhtmlxqMalformed, n))
            .collect(),
        decoding: DecodeReport {
            encoding: UTF_8.into(),
            source: EncodingSource::Utf8,
            had_replacements: false,
        },
        black_first: black,
        byte_start: 0,
        byte_end: 0,
        first_line: 1,
    }
}

/// The opening and closing tags of the two kinds of block.
const BLOCKS: [(&str, &str); 2] = [
    ("[DhtmlXQ]", "[/DhtmlXQ]"),
    ("[DhtmlXQiFrame]", "[/DhtmlXQiFrame]"),
];

/// The first block opening in `text`: (offset, kind).
fn find_open(text: &str) -> Option<(usize, usize)> {
    let mut from = 0;
    while let Some(k) = text[from..].find("[DhtmlXQ") {
        let at = from + k;
        for (kind, (open, _)) in BLOCKS.iter().enumerate() {
            if text[at..].starts_with(open) {
                return Some((at, kind));
            }
        }
        from = at + 1;
    }
    None
}

/// Non-game text held before it is handed on as one item (a page without blocks is
/// kept in parts of this size).
const JUNK_CHUNK: usize = 1 << 20;
/// Bytes read at a time.
const READ: usize = 64 << 10;

/// Streams the games (and the text between them) of a DhtmlXQ page; see the module.
pub struct DhtmlxqReader<R> {
    input: R,
    options: ReadOptions,
    decoder: Option<Decoder>,
    /// A forced Vietnamese legacy encoding decodes through this, not `decoder`.
    legacy: Option<crate::text::legacy::LegacyStream>,
    report: DecodeReport,
    /// Decoded text not yet handed on.
    buf: String,
    /// Offset of `buf` in the decoded text, and its first line.
    offset: u64,
    line: u64,
    eof: bool,
    done: bool,
    ready: VecDeque<Piece>,
}

impl<R: BufRead> DhtmlxqReader<R> {
    pub fn new(input: R, options: ReadOptions) -> DhtmlxqReader<R> {
        DhtmlxqReader {
            input,
            options,
            decoder: None,
            legacy: None,
            report: DecodeReport {
                encoding: UTF_8.into(),
                source: EncodingSource::Utf8,
                had_replacements: false,
            },
            buf: String::new(),
            offset: 0,
            line: 1,
            eof: false,
            done: false,
            ready: VecDeque::new(),
        }
    }

    /// Chooses the encoding from the first bytes: a BOM, `--encoding`, valid UTF-8,
    /// a `charset=` of the page, else GB18030.
    fn sniff(&mut self) -> io::Result<()> {
        let mut head = Vec::new();
        while head.len() < READ {
            let chunk = self.input.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            let n = chunk.len().min(READ - head.len());
            head.extend_from_slice(&chunk[..n]);
            self.input.consume(n);
        }
        let (enc, source) = if let Some((e, _)) = Encoding::for_bom(&head) {
            (e, EncodingSource::Bom)
        } else if let Some(e) = self.options.encoding {
            if let crate::text::TextEncoding::Legacy(l) = e {
                // a Vietnamese legacy table (issue 28): decoded through `legacy`
                self.legacy = Some(crate::text::legacy::LegacyStream::new(l));
            }
            (e.std().unwrap_or(UTF_8), EncodingSource::Forced)
        } else if match std::str::from_utf8(&head) {
            Ok(_) => true,
            Err(e) => e.error_len().is_none(),
        } {
            (UTF_8, EncodingSource::Utf8)
        } else {
            (
                charset(&head).unwrap_or(encoding_rs::GB18030),
                EncodingSource::Guessed,
            )
        };
        self.report = DecodeReport {
            encoding: self
                .options
                .encoding
                .filter(|_| source == EncodingSource::Forced)
                .unwrap_or(enc.into()),
            source,
            had_replacements: false,
        };
        let mut decoder = if source == EncodingSource::Bom {
            enc.new_decoder_with_bom_removal()
        } else {
            enc.new_decoder_without_bom_handling()
        };
        self.decode(&mut decoder, &head, false);
        self.decoder = Some(decoder);
        Ok(())
    }

    fn decode(&mut self, decoder: &mut Decoder, bytes: &[u8], last: bool) {
        if let Some(stream) = &mut self.legacy {
            self.buf.push_str(&stream.feed(bytes, last));
            return;
        }
        let mut bytes = bytes;
        loop {
            let need = decoder
                .max_utf8_buffer_length(bytes.len())
                .unwrap_or(bytes.len() * 3 + 16);
            self.buf.reserve(need);
            let (res, read, bad) = decoder.decode_to_string(bytes, &mut self.buf, last);
            self.report.had_replacements |= bad;
            bytes = &bytes[read..];
            if res == encoding_rs::CoderResult::InputEmpty {
                break;
            }
        }
    }

    /// Reads and decodes the next bytes; at the end of the input, sets `eof`.
    fn more(&mut self) -> io::Result<()> {
        let Some(mut decoder) = self.decoder.take() else {
            return self.sniff();
        };
        let chunk = self.input.fill_buf()?;
        if chunk.is_empty() {
            self.decode(&mut decoder, &[], true);
            self.eof = true;
        } else {
            let n = chunk.len().min(READ);
            let bytes = chunk[..n].to_vec();
            self.input.consume(n);
            self.decode(&mut decoder, &bytes, false);
        }
        self.decoder = Some(decoder);
        Ok(())
    }

    /// Hands on `buf[..n]` as non-game text (when not blank) and drops it from `buf`.
    fn junk(&mut self, n: usize) {
        let text: String = self.buf.drain(..n).collect();
        let lines = count_lines(&text);
        if !text.trim().is_empty() {
            let trimmed = text.trim_end().len();
            let mut diagnostics = self.report.diagnostics();
            diagnostics.push(
                Diagnostic::warning(
                    Code::JunkBetweenGames,
                    "text outside the DhtmlXQ blocks (not a game)",
                )
                .with_span(Span::from_range(0, trimmed)),
            );
            self.ready.push_back(Piece::from(RawGame {
                index: 0,
                junk: true,
                tags: Vec::new(),
                movetext: Vec::new(),
                result: None,
                byte_start: self.offset,
                byte_end: self.offset + text.len() as u64,
                first_line: self.line,
                text,
                decoding: self.report,
                diagnostics,
                move_letters: None,
                counts: None,
                sheet: None,
            }));
        }
        self.offset += n as u64;
        self.line += lines;
    }

    /// Reads the block at the front of `buf`, `n` bytes long, its body from `body`
    /// to `body_end`.
    fn block(&mut self, n: usize, body: usize, body_end: usize, closed: bool) {
        let mut g = read_block(&self.buf[body..body_end]);
        if !closed {
            g.diagnostics.push(Diagnostic::warning(
                Code::DhtmlxqMalformed,
                "the block is not closed: read to the end of the input",
            ));
        }
        g.decoding = self.report;
        g.byte_start = self.offset;
        g.byte_end = self.offset + n as u64;
        g.first_line = self.line;
        let raw = g.into_raw(&self.options.limits);
        let lines = count_lines(&self.buf[..n]);
        self.buf.drain(..n);
        self.offset += n as u64;
        self.line += lines;
        self.ready.push_back(Piece::from(raw));
    }

    fn next_piece(&mut self) -> io::Result<Option<Piece>> {
        loop {
            if let Some(p) = self.ready.pop_front() {
                return Ok(Some(p));
            }
            if self.done {
                return Ok(None);
            }
            if self.decoder.is_none() {
                self.sniff()?;
                continue;
            }
            if let Some((at, kind)) = find_open(&self.buf) {
                let (open, close) = BLOCKS[kind];
                let body = at + open.len();
                if let Some(k) = self.buf[body..].find(close) {
                    self.junk(at);
                    let body = body - at;
                    self.block(body + k + close.len(), body, body + k, true);
                    continue;
                }
                if self.eof {
                    self.junk(at);
                    let len = self.buf.len();
                    self.block(len, open.len(), len, false);
                    continue;
                }
                if self.buf.len() - at > self.options.limits.max_game_bytes {
                    // an unclosed block over the budget: kept as text
                    self.junk(at);
                    let mut end = self.buf.len();
                    while !self.buf.is_char_boundary(end) {
                        end -= 1;
                    }
                    self.junk(end);
                    continue;
                }
            } else if self.eof {
                let len = self.buf.len();
                self.junk(len);
                self.done = true;
                continue;
            } else if self.buf.len() > JUNK_CHUNK {
                // keep the tail, which may hold the start of a block opening
                let mut end = self.buf.len() - 16;
                while !self.buf.is_char_boundary(end) {
                    end -= 1;
                }
                self.junk(end);
                continue;
            }
            self.more()?;
        }
    }
}

impl<R: BufRead> Iterator for DhtmlxqReader<R> {
    type Item = io::Result<Piece>;

    fn next(&mut self) -> Option<io::Result<Piece>> {
        match self.next_piece() {
            Ok(p) => p.map(Ok),
            Err(e) => {
                self.done = true;
                self.ready.clear();
                Some(Err(e))
            }
        }
    }
}

fn count_lines(text: &str) -> u64 {
    memchr::memchr_iter(b'\n', text.as_bytes()).count() as u64
}

/// The encoding a page's `charset=` names.
fn charset(head: &[u8]) -> Option<&'static Encoding> {
    let lower = head.to_ascii_lowercase();
    let k = memchr::memmem::find(&lower, b"charset=")?;
    let rest = &head[k + 8..];
    let rest = rest.strip_prefix(b"\"").unwrap_or(rest);
    let rest = rest.strip_prefix(b"'").unwrap_or(rest);
    let end = rest
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_'))
        .unwrap_or(rest.len());
    Encoding::for_label(&rest[..end])
}

/// Reads every block of a page held in memory (tests, fuzzing).
pub fn read_bytes(bytes: &[u8], options: ReadOptions) -> Vec<RawGame> {
    let mut out = Vec::new();
    for p in DhtmlxqReader::new(bytes, options).flatten() {
        p.parse_into(&mut out);
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_block_with_a_branch_and_comments() {
        let page = "<p>x</p>[DhtmlXQ][DhtmlXQ_red]A[/DhtmlXQ_red][DhtmlXQ_result]W[/DhtmlXQ_result]\
                    [DhtmlXQ_movelist]77471022[/DhtmlXQ_movelist]\
                    [DhtmlXQ_move_0_2_1]19272042[/DhtmlXQ_move_0_2_1]\
                    [DhtmlXQ_comment0]start[/DhtmlXQ_comment0][DhtmlXQ_comment1_3]a||b[/DhtmlXQ_comment1_3][/DhtmlXQ] tail";
        let games = read_bytes(page.as_bytes(), ReadOptions::default());
        assert_eq!(games.len(), 3, "{games:#?}");
        assert!(games[0].junk && games[2].junk);
        let g = &games[1];
        assert_eq!(g.tag("Red").unwrap(), "A");
        assert_eq!(g.result.unwrap().0, GameResult::WhiteWins);
        assert_eq!(
            g.move_tokens().collect::<Vec<_>>(),
            ["h2e2", "b9c7", "b0c2", "c9e7"],
            "{}",
            g.text
        );
        assert!(g.text.contains("{start}"), "{}", g.text);
        assert!(g.text.contains("c9e7 {a\nb}"), "{}", g.text);
    }

    #[test]
    fn a_mismatched_close_is_noted_and_read() {
        let mut notes = Vec::new();
        let f = fields(
            "[DhtmlXQ_blacktime]5[/DhtmlXQ_time][DhtmlXQ_red]R[/DhtmlXQ_red]",
            &mut notes,
        );
        assert_eq!(f, [("blacktime", "5"), ("red", "R")]);
        assert_eq!(notes.len(), 1);
    }
}
