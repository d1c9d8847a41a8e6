//! XQF, the binary game format of XQStudio (象棋演播室): one game or study per file, a
//! 1024-byte header then a pre-order tree of 4-byte move records with comments; every
//! version in use, the plain version 10 and the encrypted versions 11 and up. The
//! layout, from public descriptions and the files, is in `docs/formats.md`.
//!
//! [`read`] turns a whole file into a [`RawGame`] (through [`super::tree`]): the header
//! strings become tags (GB18030, or the user's `--encoding`), the start position a
//! `FEN` tag when it is not the standard one, the moves ICCS tokens. Anything the
//! file breaks is an `xqf-malformed` diagnostic and what could be read is kept.

use crate::text::TextEncoding;

use super::{
    Limits, RawGame,
    tree::{Tree, TreeGame},
};
use crate::{
    model::diag::{Code, Diagnostic},
    model::game::GameResult,
    text::{DecodeReport, EncodingSource},
};

/// The signature at offset 0.
pub const MAGIC: &[u8] = b"XQ";
/// The header's size: the move records start here.
pub const HEADER: usize = 0x400;

/// Whether `head` (the first bytes of an input) is an XQF header: `XQ`, then a version
/// byte 10–31 (10 is a line feed: that version also needs the zero bytes that follow
/// in every file, so a text starting `XQ` and a new line is not taken).
pub fn is_xqf(head: &[u8]) -> bool {
    match head {
        [b'X', b'Q', v, ..] if (11..32).contains(v) => true,
        [b'X', b'Q', 10, _, 0, 0, 0, 0, ..] => true,
        _ => false,
    }
}

/// The tags of the header strings: (PGN tag, offset, field size with the length byte).
const STRINGS: [(&str, usize, usize); 11] = [
    ("Title", 0x50, 64),
    ("Event", 0xD0, 64),
    ("Date", 0x110, 16),
    ("Site", 0x120, 16),
    ("Red", 0x130, 16),
    ("Black", 0x140, 16),
    ("TimeControl", 0x150, 64),
    ("RedTime", 0x190, 16),
    ("BlackTime", 0x1A0, 16),
    ("Annotator", 0x1D0, 16),
    ("Author", 0x1E0, 16),
];

/// The value of the `XqfType` tag for the type byte (0x40) when it is not 0 (a full game).
fn setup_type(b: u8) -> Option<&'static str> {
    match b {
        1 => Some("opening"),
        2 => Some("middlegame"),
        3 => Some("endgame"),
        _ => None,
    }
}

/// The pieces of the 32 slots of the start table: Red, then Black.
const SLOTS: &[u8; 16] = b"RNBAKABNRCCPPPPP";
const KEY_TEXT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";
/// The standard start as a FEN board.
pub const START_BOARD: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

/// The keys of an encrypted file (version 11 and up), from header bytes 0x03–0x0F.
struct Keys {
    piece: u8,
    src: u8,
    dst: u8,
    comment: i64,
    stream: [u8; 32],
}

fn poly(b: u8) -> u32 {
    54 * u32::from(b) * u32::from(b) + 221
}

impl Keys {
    fn new(h: &[u8]) -> Keys {
        let (mask, sum, xy, xyf, xyt) = (h[3], h[12], h[13], h[14], h[15]);
        let piece = (poly(xy) * u32::from(xy)) as u8;
        let src = (poly(xyf) * u32::from(piece)) as u8;
        let dst = (poly(xyt) * u32::from(src)) as u8;
        let four = [
            h[8] | (sum & mask),
            h[9] | (xy & mask),
            h[10] | (xyf & mask),
            h[11] | (xyt & mask),
        ];
        let mut stream = [0u8; 32];
        for (i, s) in stream.iter_mut().enumerate() {
            *s = KEY_TEXT[i] & four[i % 4];
        }
        Keys {
            piece,
            src,
            dst,
            comment: (i64::from(sum) * 256 + i64::from(xy)) % 32000 + 767,
            stream,
        }
    }
}

/// The ICCS name of a square byte `x*10 + y`, or `None` off the board.
fn square(v: u8) -> Option<[u8; 2]> {
    if v > 89 {
        return None;
    }
    Some([b'a' + v / 10, b'0' + v % 10])
}

/// The FEN board of the 32 slots (squares above 89 are off the board), and whether
/// two pieces were put on one square.
fn board(slots: &[u8; 32]) -> (String, bool) {
    let mut grid = [[0u8; 9]; 10];
    let mut clash = false;
    for (i, &v) in slots.iter().enumerate() {
        if v > 89 {
            continue;
        }
        let (x, y) = (usize::from(v / 10), usize::from(v % 10));
        let letter = SLOTS[i % 16];
        clash |= grid[y][x] != 0;
        grid[y][x] = if i < 16 {
            letter
        } else {
            letter.to_ascii_lowercase()
        };
    }
    (placement(grid.iter().rev()), clash)
}

/// The FEN placement of a 10 × 9 grid of FEN letters (0 for an empty square), its rows
/// given from Black's side (rank 9) down. DhtmlXQ's board is built with it too.
pub(super) fn placement<'a>(rows: impl Iterator<Item = &'a [u8; 9]>) -> String {
    let mut out = String::with_capacity(90);
    for (y, row) in rows.enumerate() {
        if y > 0 {
            out.push('/');
        }
        let mut empty = 0u8;
        for &p in row {
            if p == 0 {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push(char::from(b'0' + empty));
                    empty = 0;
                }
                out.push(char::from(p));
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
    }
    out
}

/// Text bytes (NULs at the end dropped) decoded; whether bytes were replaced.
fn decode(bytes: &[u8], encoding: TextEncoding) -> (String, bool) {
    let mut end = bytes.len();
    while end > 0 && bytes[end - 1] == 0 {
        end -= 1;
    }
    encoding.decode(&bytes[..end])
}

/// Reads a whole XQF file into a game. `encoding` decodes the header strings and
/// comments (`None`: GB18030, the code page of every file known).
pub fn read(data: &[u8], encoding: Option<TextEncoding>, limits: &Limits) -> RawGame {
    read_tree(data, encoding).into_raw(limits)
}

/// [`read`], before the tree becomes a [`RawGame`].
pub fn read_tree(data: &[u8], encoding: Option<TextEncoding>) -> TreeGame {
    let (enc, source) = match encoding {
        Some(e) => (e, EncodingSource::Forced),
        // the format's own code page: not a guess
        None => (encoding_rs::GB18030.into(), EncodingSource::Forced),
    };
    let mut diags = Vec::new();
    let mut replaced = false;
    let malformed = |d: &mut Vec<Diagnostic>, error: bool, msg: String| {
        d.push(if error {
            Diagnostic::error(Code::XqfMalformed, msg)
        } else {
            Diagnostic::warning(Code::XqfMalformed, msg)
        });
    };
    let mut game = TreeGame {
        tags: Vec::new(),
        fen: None,
        tree: Tree::new(),
        result: GameResult::Unknown,
        diagnostics: Vec::new(),
        decoding: DecodeReport {
            encoding: enc,
            source,
            had_replacements: false,
        },
        black_first: false,
        byte_start: 0,
        byte_end: data.len() as u64,
        first_line: 1,
    };
    if data.len() < HEADER || !data.starts_with(MAGIC) {
        malformed(
            &mut diags,
            true,
            format!(
                "expected an XQF header of 1024 bytes starting `XQ`, found {} bytes{}",
                data.len(),
                if data.starts_with(MAGIC) {
                    ""
                } else {
                    " without the signature"
                }
            ),
        );
        game.diagnostics = diags;
        return game;
    }
    let version = data[2];
    let keys = (version >= 11).then(|| Keys::new(&data[..16]));

    // start position
    let mut slots = [0u8; 32];
    match &keys {
        None => slots.copy_from_slice(&data[0x10..0x30]),
        Some(k) => {
            for i in 0..32 {
                let j = if version >= 12 {
                    (usize::from(k.piece) + 1 + i) % 32
                } else {
                    i
                };
                slots[j] = data[0x10 + i].wrapping_sub(k.piece);
            }
        }
    }

    // header strings
    for (tag, off, cap) in STRINGS {
        let mut n = usize::from(data[off]);
        if n == 0 {
            continue;
        }
        if n >= cap {
            malformed(
                &mut diags,
                false,
                format!(
                    "header {tag}: expected a length of at most {} bytes, found {n}; read {}",
                    cap - 1,
                    cap - 1
                ),
            );
            n = cap - 1;
        }
        let (text, bad) = decode(&data[off + 1..off + 1 + n], enc);
        replaced |= bad;
        if !text.is_empty() {
            game.tags.push((tag.to_owned(), text));
        }
    }
    game.result = match data[0x33] {
        1 => GameResult::WhiteWins,
        2 => GameResult::BlackWins,
        3 | 4 => GameResult::Draw,
        0 => GameResult::Unknown,
        b => {
            malformed(
                &mut diags,
                false,
                format!("result byte: expected 0 to 4, found {b}; read as unknown (*)"),
            );
            GameResult::Unknown
        }
    };
    if let Some(t) = setup_type(data[0x40]) {
        game.tags.push(("XqfType".to_owned(), t.to_owned()));
    }

    // move records
    let mut body = data[HEADER..].to_vec();
    if let Some(k) = &keys {
        for (i, b) in body.iter_mut().enumerate() {
            *b = b.wrapping_sub(k.stream[i % 32]);
        }
    }
    let mut reader = Records {
        body: &body,
        pos: 0,
        keys: keys.as_ref(),
        enc,
        replaced: false,
    };
    let mut first_src = None;
    if body.is_empty() {
        malformed(
            &mut diags,
            false,
            "no move records: the file ends with its header".to_owned(),
        );
    } else {
        match reader.record() {
            Err(e) => malformed(&mut diags, true, e),
            Ok(root) => {
                game.tree.nodes[0].comment = root.comment;
                if root.sibling {
                    malformed(
                        &mut diags,
                        false,
                        "the first record (the start position) has the variation flag: ignored"
                            .to_owned(),
                    );
                }
                let mut stack: Vec<u32> = Vec::new();
                if root.next {
                    stack.push(0);
                }
                while let Some(parent) = stack.pop() {
                    let at = HEADER + reader.pos;
                    let rec = match reader.record() {
                        Ok(r) => r,
                        Err(e) => {
                            let lost = stack.len() + 1;
                            malformed(
                                &mut diags,
                                true,
                                format!("{e}; {lost} lines of the tree not read"),
                            );
                            break;
                        }
                    };
                    let mv = match (square(rec.src), square(rec.dst)) {
                        (Some(a), Some(b)) => {
                            let mut s = String::with_capacity(4);
                            s.push(char::from(a[0]));
                            s.push(char::from(a[1]));
                            s.push(char::from(b[0]));
                            s.push(char::from(b[1]));
                            s
                        }
                        _ => {
                            malformed(
                                &mut diags,
                                false,
                                format!(
                                    "move record at byte {at:#x}: expected squares 0 to 89, found {} and {}",
                                    rec.src, rec.dst
                                ),
                            );
                            format!("?{}-{}", rec.src, rec.dst)
                        }
                    };
                    if first_src.is_none() && parent == 0 {
                        first_src = Some(rec.src);
                    }
                    let node = game.tree.push(parent, mv);
                    game.tree.nodes[node as usize].comment = rec.comment;
                    if rec.sibling {
                        stack.push(parent);
                    }
                    if rec.next {
                        stack.push(node);
                    }
                }
            }
        }
        if reader.pos < body.len() {
            malformed(
                &mut diags,
                false,
                format!(
                    "{} bytes after the last move record (from byte {:#x}) not read",
                    body.len() - reader.pos,
                    HEADER + reader.pos
                ),
            );
        }
    }
    replaced |= reader.replaced;

    // side to move: the colour of the piece on the first move's square
    let mut black = false;
    if let Some(src) = first_src.filter(|&s| s <= 89) {
        match slots.iter().position(|&v| v == src) {
            Some(i) => black = i >= 16,
            None => malformed(
                &mut diags,
                false,
                format!(
                    "the first move starts from an empty square ({}): Red to move",
                    square(src).map_or_else(String::new, |s| String::from_utf8_lossy(&s).into())
                ),
            ),
        }
    }
    let (board, clash) = board(&slots);
    if clash {
        malformed(
            &mut diags,
            false,
            "start position: two pieces on one square (the later slot kept)".to_owned(),
        );
    }
    if board != START_BOARD || black {
        game.fen = Some(format!("{board} {}", if black { 'b' } else { 'w' }));
    }
    game.black_first = black;
    game.decoding.had_replacements = replaced;
    game.diagnostics = diags;
    game
}

/// One move record.
struct Record {
    src: u8,
    dst: u8,
    next: bool,
    sibling: bool,
    comment: Option<String>,
}

/// The records of the (decrypted) body.
struct Records<'a> {
    body: &'a [u8],
    pos: usize,
    keys: Option<&'a Keys>,
    enc: TextEncoding,
    replaced: bool,
}

impl Records<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let at = HEADER + self.pos;
        match self.body.get(self.pos..self.pos + n) {
            Some(b) => {
                self.pos += n;
                Ok(b)
            }
            None => Err(format!(
                "expected {n} more bytes at byte {at:#x}, found the end of the file"
            )),
        }
    }

    fn record(&mut self) -> Result<Record, String> {
        let r = self.take(4)?;
        let (r0, r1, flags) = (r[0], r[1], r[2]);
        let (src, dst, next, sibling, len) = match self.keys {
            Some(k) => {
                let (src, dst) = (
                    r0.wrapping_sub(24).wrapping_sub(k.src),
                    r1.wrapping_sub(32).wrapping_sub(k.dst),
                );
                let len = if flags & 0x20 != 0 {
                    let at = HEADER + self.pos;
                    let b = self.take(4)?;
                    let n = i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])) - k.comment;
                    if n < 0 {
                        return Err(format!(
                            "comment length at byte {at:#x}: expected a length, found {n}"
                        ));
                    }
                    n
                } else {
                    0
                };
                (src, dst, flags & 0x80 != 0, flags & 0x40 != 0, len)
            }
            None => {
                let at = HEADER + self.pos;
                let b = self.take(4)?;
                let n = i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                if n < 0 {
                    return Err(format!(
                        "comment length at byte {at:#x}: expected a length, found {n}"
                    ));
                }
                (
                    r0.wrapping_sub(24),
                    r1.wrapping_sub(32),
                    flags & 0xF0 != 0,
                    flags & 0x0F != 0,
                    n,
                )
            }
        };
        let comment = if len > 0 {
            let at = HEADER + self.pos;
            let n = usize::try_from(len).unwrap_or(usize::MAX);
            if n > self.body.len() - self.pos {
                return Err(format!(
                    "comment at byte {at:#x}: expected {n} bytes, found {} to the end of the file",
                    self.body.len() - self.pos
                ));
            }
            let enc = self.enc;
            let bytes = self.take(n)?;
            let (text, bad) = decode(bytes, enc);
            self.replaced |= bad;
            Some(text)
        } else {
            None
        };
        Ok(Record {
            src,
            dst,
            next,
            sibling,
            comment,
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_the_header() {
        assert!(is_xqf(b"XQ\x12\xaa\0\0\0\0"));
        assert!(is_xqf(b"XQ\x0a\0\0\0\0\0"));
        assert!(!is_xqf(b"XQ\nsome text"));
        assert!(!is_xqf(b"[Event \"x\"]"));
    }

    #[test]
    fn short_file_is_an_error_not_silence() {
        let g = read_tree(b"XQ\x0a\0", None);
        assert_eq!(g.tree.moves(), 0);
        assert_eq!(g.diagnostics.len(), 1);
        assert_eq!(g.diagnostics[0].code, Code::XqfMalformed);
    }

    #[test]
    fn plain_file_with_a_cut_record_keeps_the_moves_before() {
        let mut f = vec![0u8; HEADER];
        f[..3].copy_from_slice(b"XQ\x0a");
        // the standard start: Red slots then Black
        let red = [0, 10, 20, 30, 40, 50, 60, 70, 80, 12, 72, 3, 23, 43, 63, 83];
        for (i, v) in red.iter().enumerate() {
            f[0x10 + i] = *v;
            f[0x20 + i] = *v + 9 - 2 * (*v % 10);
        }
        // root: a next move follows, no comment
        f.extend([0x18, 0x20, 0xF0, 0xFF, 0, 0, 0, 0]);
        // h2e2 (x=7,y=2 → 72; x=4,y=2 → 42), then a move cut short
        f.extend([72 + 24, 42 + 32, 0xF0, 0, 0, 0, 0, 0]);
        f.extend([1, 2]);
        let g = read_tree(&f, None);
        assert_eq!(g.tree.moves(), 1);
        assert_eq!(g.tree.nodes[1].mv, "h2e2");
        assert_eq!(g.fen, None);
        assert!(
            g.diagnostics
                .iter()
                .any(|d| d.message.contains("found the end of the file")),
            "{:?}",
            g.diagnostics
        );
    }
}
