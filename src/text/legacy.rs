//! Vietnamese legacy encodings that encoding_rs does not have: VNI-Windows, TCVN3
//! ("ABC", TCVN 5712:1993 VN3), VISCII (RFC 1456) and VIQR (RFC 1456).
//!
//! The byte tables are data, `grammars/encodings/*.tsv`, compiled in with
//! `include_str!` and parsed once on first use; `grammars/encodings/README.md` gives the
//! published source of every row, what it was cross-checked against, and which bytes are
//! ambiguous between font vendors.
//!
//! # API
//!
//! - [`Legacy`]: the four encodings; [`Legacy::from_label`] reads a user's name for one
//!   (`vni`, `vni-windows`, `tcvn3`, `tcvn`, `abc`, `vn3`, `viscii`, `viqr`, any case).
//! - [`decode`]`(bytes, encoding) -> (String, LegacyReport)`: the text in Unicode NFC.
//!   Nothing is dropped: a byte ≥ 0x80 that the table does not map (a lone VNI mark byte,
//!   or a non-ASCII byte in VIQR text that is not UTF-8) is read as windows-1252 and
//!   counted in [`LegacyReport::unmapped`].
//!
//! # Rules
//!
//! - **Longest match.** At each position the longest byte sequence in the table wins
//!   (VNI `o` `â` → ô before `o` alone; `ô` `ù` → ớ before `ô` → ơ).
//! - **VISCII** maps every byte 0x80–0xFF and the six C0 bytes 02 05 06 14 19 1E (Ẳ Ẵ Ẫ
//!   Ỷ Ỹ Ỵ); **TCVN3** maps 0x80–0xFF: VN3 plus the VN2 additions (a VN3 file never
//!   contains those, so reading them only adds). Upper-case toned letters typed in a
//!   capitals font are lower-case bytes in VN3 and decode lower case.
//! - **VIQR** uses the RFC 1456 mnemonics only (the `d-` variant is not read): a mark
//!   applies when it combines with the letter before it (`Nguye^~n` → Nguyễn), and a
//!   backslash before a mark that would combine keeps it literal (`Thu\?` → `Thu?`,
//!   `O\'Kelly` → `O'Kelly`); any other backslash stays. Unescaped English text can change (`O'Kelly` → `ÓKelly`,
//!   `Addison` → `Ađison`): VIQR is for files known to be VIQR, not for guessing.
//! - The result is NFC ([`crate::text::normalize::nfc`]): TCVN3 B0–B4 are combining marks.

use std::collections::HashMap;
use std::sync::OnceLock;

use encoding_rs::WINDOWS_1252;

use crate::text::normalize::nfc;

/// One of the Vietnamese legacy encodings of this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Legacy {
    /// VNI-Windows: a base letter followed by one mark byte, or a single byte.
    Vni,
    /// TCVN 5712:1993 VN3 ("ABC", .VnTime fonts), single byte, with the VN2 additions.
    Tcvn3,
    /// VISCII 1.1 (RFC 1456), single byte, six letters in C0.
    Viscii,
    /// VIQR (RFC 1456): ASCII mnemonics after the letter.
    Viqr,
}

impl Legacy {
    /// All four, in the order of this enum.
    pub const ALL: [Legacy; 4] = [Legacy::Vni, Legacy::Tcvn3, Legacy::Viscii, Legacy::Viqr];

    /// The encoding a user's label names (ASCII case ignored), or `None`.
    pub fn from_label(label: &str) -> Option<Legacy> {
        let l = label.trim().to_ascii_lowercase();
        match l.as_str() {
            "vni" | "vni-windows" | "vni-win" => Some(Legacy::Vni),
            "tcvn3" | "tcvn" | "tcvn-3" | "tcvn5712" | "tcvn-5712" | "abc" | "vn3" => {
                Some(Legacy::Tcvn3)
            }
            "viscii" | "csviscii" => Some(Legacy::Viscii),
            "viqr" | "csviqr" => Some(Legacy::Viqr),
            _ => None,
        }
    }

    /// The name kyphu reports for this encoding.
    pub fn name(self) -> &'static str {
        match self {
            Legacy::Vni => "VNI-Windows",
            Legacy::Tcvn3 => "TCVN3",
            Legacy::Viscii => "VISCII",
            Legacy::Viqr => "VIQR",
        }
    }

    fn source(self) -> &'static str {
        match self {
            Legacy::Vni => include_str!("../../grammars/encodings/vni.tsv"),
            Legacy::Tcvn3 => include_str!("../../grammars/encodings/tcvn3.tsv"),
            Legacy::Viscii => include_str!("../../grammars/encodings/viscii.tsv"),
            Legacy::Viqr => include_str!("../../grammars/encodings/viqr.tsv"),
        }
    }

    fn table(self) -> &'static Table {
        static TABLES: [OnceLock<Table>; 4] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        TABLES[self as usize].get_or_init(|| Table::parse(self.source()))
    }
}

/// What [`decode`] did besides decoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LegacyReport {
    /// Bytes ≥ 0x80 the table does not map, read as windows-1252 instead.
    pub unmapped: usize,
}

/// A parsed table: single bytes by value, longer sequences by their bytes.
struct Table {
    single: [Option<char>; 256],
    multi: HashMap<Vec<u8>, char>,
    longest: usize,
}

impl Table {
    /// The rows of a `grammars/encodings` TSV: `bytes` (hex, space-separated),
    /// `codepoint` (`U+XXXX`), `char`, `note`. Comment lines (`#`), the header and rows
    /// marked `variant` are skipped; so is a malformed row (the tests count the rows).
    fn parse(text: &str) -> Table {
        let mut t = Table {
            single: [None; 256],
            multi: HashMap::new(),
            longest: 1,
        };
        for line in text.lines() {
            if line.starts_with('#') || line.starts_with("bytes\t") || line.is_empty() {
                continue;
            }
            let mut cols = line.split('\t');
            let (Some(hex), Some(cp), _, note) =
                (cols.next(), cols.next(), cols.next(), cols.next())
            else {
                continue;
            };
            if note == Some("variant") {
                continue;
            }
            let bytes: Option<Vec<u8>> = hex
                .split(' ')
                .map(|h| u8::from_str_radix(h, 16).ok())
                .collect();
            let ch = cp
                .strip_prefix("U+")
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .and_then(char::from_u32);
            match (bytes, ch) {
                (Some(b), Some(c)) if b.len() == 1 => t.single[b[0] as usize] = Some(c),
                (Some(b), Some(c)) if b.len() > 1 => {
                    t.longest = t.longest.max(b.len());
                    t.multi.insert(b, c);
                }
                _ => {}
            }
        }
        t
    }
}

/// The marks VIQR writes after a letter, which a backslash keeps literal.
fn is_viqr_mark(b: u8) -> bool {
    matches!(
        b,
        b'(' | b'^' | b'+' | b'\'' | b'`' | b'?' | b'~' | b'.' | b'D' | b'd'
    )
}

/// `bytes` in `encoding`, as NFC text, and what was not in the table.
pub fn decode(bytes: &[u8], encoding: Legacy) -> (String, LegacyReport) {
    let table = encoding.table();
    let mut report = LegacyReport::default();
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 2);
    // VIQR text that is valid UTF-8 keeps its non-ASCII characters as they are
    let utf8 = encoding == Legacy::Viqr && std::str::from_utf8(bytes).is_ok();
    let mut i = 0;
    while i < bytes.len() {
        // longest multi-byte match first
        let mut matched = 0;
        let max = table.longest.min(bytes.len() - i);
        for n in (2..=max).rev() {
            if let Some(&c) = table.multi.get(&bytes[i..i + n]) {
                out.push(c);
                matched = n;
                break;
            }
        }
        if matched == 0 {
            let b = bytes[i];
            if let Some(c) = table.single[b as usize] {
                out.push(c);
                matched = 1;
            } else if b < 0x80 {
                out.push(b as char);
                matched = 1;
            } else if utf8 {
                // copy the whole UTF-8 character
                let len = match b {
                    0xF0.. => 4,
                    0xE0.. => 3,
                    _ => 2,
                };
                let end = (i + len).min(bytes.len());
                out.push_str(&String::from_utf8_lossy(&bytes[i..end]));
                matched = end - i;
            } else {
                let (s, _) = WINDOWS_1252.decode_without_bom_handling(&bytes[i..i + 1]);
                out.push_str(&s);
                report.unmapped += 1;
                matched = 1;
            }
        }
        i += matched;
        // VIQR escape: `\` before a mark that would have combined with what came before
        if encoding == Legacy::Viqr
            && i + 1 < bytes.len()
            && bytes[i] == b'\\'
            && is_viqr_mark(bytes[i + 1])
        {
            let start = i - matched;
            let mut joined = bytes[start..i].to_vec();
            joined.push(bytes[i + 1]);
            if table.multi.contains_key(&joined) {
                out.push(bytes[i + 1] as char);
                i += 2;
            }
        }
    }
    (nfc(out), report)
}

/// A streaming [`decode`] for readers that take their input in pieces: text is decoded
/// up to the last line end (or space) of what came, and the rest is carried to the next
/// piece, so that no VNI letter-and-mark pair or VIQR mnemonic is cut (neither ever holds
/// a space or a line end). A piece with neither is carried whole up to 64 KiB, then
/// decoded as it is.
#[derive(Clone, Debug)]
pub struct LegacyStream {
    encoding: Legacy,
    carry: Vec<u8>,
}

impl LegacyStream {
    pub fn new(encoding: Legacy) -> LegacyStream {
        LegacyStream {
            encoding,
            carry: Vec::new(),
        }
    }

    /// The text of `bytes` after what was carried, as far as it can be decoded now;
    /// `last`: the input ends after `bytes`, decode everything.
    pub fn feed(&mut self, bytes: &[u8], last: bool) -> String {
        self.carry.extend_from_slice(bytes);
        let cut = if last || self.carry.len() > 64 * 1024 {
            self.carry.len()
        } else {
            match self.carry.iter().rposition(|&b| b == b'\n' || b == b' ') {
                Some(k) => k + 1,
                None => return String::new(),
            }
        };
        let rest = self.carry.split_off(cut);
        let text = decode(&self.carry, self.encoding).0;
        self.carry = rest;
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_decodes_as_whole() {
        for enc in Legacy::ALL {
            let bytes = games(enc);
            let whole = decode(bytes, enc).0;
            for size in [1, 2, 3, 7, 100] {
                let mut s = LegacyStream::new(enc);
                let mut text = String::new();
                for piece in bytes.chunks(size) {
                    text.push_str(&s.feed(piece, false));
                }
                text.push_str(&s.feed(&[], true));
                assert_eq!(text, whole, "{} in pieces of {size}", enc.name());
            }
        }
    }

    const TRUTH: &str = include_str!("../../corpus/encodings/names.utf8.txt");
    const TRUTH_GAMES: &str = include_str!("../../corpus/encodings/games.utf8.pgn");

    fn names(enc: Legacy) -> &'static [u8] {
        match enc {
            Legacy::Vni => include_bytes!("../../corpus/encodings/vni/names.txt"),
            Legacy::Tcvn3 => include_bytes!("../../corpus/encodings/tcvn3/names.txt"),
            Legacy::Viscii => include_bytes!("../../corpus/encodings/viscii/names.txt"),
            Legacy::Viqr => include_bytes!("../../corpus/encodings/viqr/names.txt"),
        }
    }

    fn games(enc: Legacy) -> &'static [u8] {
        match enc {
            Legacy::Vni => include_bytes!("../../corpus/encodings/vni/games.pgn"),
            Legacy::Tcvn3 => include_bytes!("../../corpus/encodings/tcvn3/games.pgn"),
            Legacy::Viscii => include_bytes!("../../corpus/encodings/viscii/games.pgn"),
            Legacy::Viqr => include_bytes!("../../corpus/encodings/viqr/games.pgn"),
        }
    }

    /// What each encoding must give: the truth, but for TCVN3, which has no upper-case Ý.
    fn expected(enc: Legacy) -> (&'static str, &'static str) {
        match enc {
            Legacy::Tcvn3 => (
                include_str!("../../corpus/encodings/tcvn3/names.expected.utf8.txt"),
                include_str!("../../corpus/encodings/tcvn3/games.expected.utf8.pgn"),
            ),
            _ => (TRUTH, TRUTH_GAMES),
        }
    }

    #[test]
    fn tables_have_every_row() {
        // 134 = the 132 toned or shaped vowels and Đ đ (RFC 1456); TCVN3: 0x80-0xFF
        let want = [
            (Legacy::Vni, 134),
            (Legacy::Tcvn3, 128),
            (Legacy::Viscii, 134),
            (Legacy::Viqr, 134),
        ];
        for (enc, n) in want {
            let rows = enc
                .source()
                .lines()
                .filter(|l| !l.starts_with('#') && !l.starts_with("bytes\t") && !l.is_empty())
                .filter(|l| !l.ends_with("\tvariant"))
                .count();
            assert_eq!(rows, n, "{} rows in the file", enc.name());
            let t = enc.table();
            let parsed = t.single.iter().flatten().count() + t.multi.len();
            assert_eq!(parsed, n, "{} rows parsed", enc.name());
        }
    }

    #[test]
    fn real_names_decode_to_nfc_truth() {
        for enc in Legacy::ALL {
            let (text, report) = decode(names(enc), enc);
            let (want, _) = expected(enc);
            assert_eq!(report.unmapped, 0, "{}", enc.name());
            let got: Vec<&str> = text.lines().collect();
            let want: Vec<&str> = want.lines().collect();
            assert_eq!(got.len(), 66, "{}", enc.name());
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(g, w, "{}", enc.name());
            }
        }
    }

    #[test]
    fn games_decode_to_truth() {
        for enc in Legacy::ALL {
            let (text, _) = decode(games(enc), enc);
            assert_eq!(text, expected(enc).1, "{}", enc.name());
        }
    }

    #[test]
    fn tcvn3_reads_lower_case_for_a_capitals_font() {
        // "Như Ý" has no VN3 byte for Ý: the file has ý (FD)
        let (text, _) = decode(b"Nh\xad \xfd", Legacy::Tcvn3);
        assert_eq!(text, "Như ý");
    }

    #[test]
    fn tcvn3_combining_marks_compose() {
        // VN2 B3 is a combining acute: a + B3 is á, in NFC
        let (text, _) = decode(b"a\xb3", Legacy::Tcvn3);
        assert_eq!(text, "\u{e1}");
    }

    #[test]
    fn viscii_c0_bytes_are_letters() {
        let (text, _) = decode(&[0x02, 0x05, 0x06, 0x14, 0x19, 0x1e], Legacy::Viscii);
        assert_eq!(text, "ẲẴẪỶỸỴ");
    }

    #[test]
    fn vni_horn_letters_and_lone_marks() {
        // ô alone is ơ, ô + ù is ớ; a mark byte after a consonant is not a letter
        let (text, report) = decode(b"S\xf4n m\xf4\xf9i n\xf9", Legacy::Vni);
        assert_eq!(text, "Sơn mới nù");
        assert_eq!(report.unmapped, 1);
    }

    #[test]
    fn viqr_escape_keeps_marks_literal() {
        let (text, _) = decode(b"Thu\\? O\\'Kelly Nguye^~n", Legacy::Viqr);
        assert_eq!(text, "Thu? O'Kelly Nguyễn");
        // unescaped, the RFC rule applies
        let (text, _) = decode(b"Thu? O'Kelly", Legacy::Viqr);
        assert_eq!(text, "Thủ ÓKelly");
        // the d- variant is not read
        let (text, _) = decode(b"d-", Legacy::Viqr);
        assert_eq!(text, "d-");
        // a backslash that escapes nothing stays
        let (text, _) = decode(b"C:\\x", Legacy::Viqr);
        assert_eq!(text, "C:\\x");
    }

    #[test]
    fn viqr_in_utf8_keeps_other_characters() {
        let (text, report) = decode("Đào vs Lie^m".as_bytes(), Legacy::Viqr);
        assert_eq!(text, "Đào vs Liêm");
        assert_eq!(report.unmapped, 0);
    }

    #[test]
    fn labels() {
        assert_eq!(Legacy::from_label("VISCII"), Some(Legacy::Viscii));
        assert_eq!(Legacy::from_label("abc"), Some(Legacy::Tcvn3));
        assert_eq!(Legacy::from_label("vni-windows"), Some(Legacy::Vni));
        assert_eq!(Legacy::from_label("viqr"), Some(Legacy::Viqr));
        assert_eq!(Legacy::from_label("windows-1258"), None);
    }
}
