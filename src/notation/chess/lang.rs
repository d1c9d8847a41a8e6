//! Piece letters per language, read from `grammars/chess-pieces.tsv`.
//!
//! The TSV is compiled into the binary by the lexicon
//! ([`lexicon::chess`](crate::notation::lexicon::chess)), which reads its rows; the
//! tables are built from them once, on first use, into a `static` behind a [`OnceLock`]. This keeps the data a plain text file
//! (adding a language is adding rows, and cargo rebuilds when the file changes) without
//! a `build.rs`; the parse costs microseconds, once per process. Lookups on the hot
//! path are a 128-entry array index for single ASCII letters.

use std::sync::OnceLock;

use crate::chess::Role;
use crate::notation::lexicon::chess::{PIECES_TSV as DATA, RowError, piece_rows};

mod fast;
pub(crate) use fast::{KeyIndex, char_key, utf8_key};

/// How a letter was written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LetterCase {
    /// As in the table (upper case, or a script without case).
    Table,
    /// The lower-case form of a table letter (`nf3`).
    Lower,
}

/// One language's piece letters.
#[derive(Debug)]
pub struct PieceTable {
    /// Short code, as in the TSV: `en`, `vi`, `ru`, `figurine` …
    pub code: &'static str,
    /// English name of the language: `English`, `Vietnamese` …
    pub name: &'static str,
    /// Position in the TSV: lower is preferred when inference ties.
    pub preference: usize,
    /// The letter the writers use, per role (`""` for the pawn when there is none).
    write: [&'static str; 6],
    /// Single ASCII letters, as written in the table.
    ascii: [Option<Role>; 128],
    /// Lower-case forms of single ASCII letters.
    ascii_lower: [Option<Role>; 128],
    /// Every letter of more than one character that is not a single ASCII byte (and
    /// the lower-case forms of such letters), longest first.
    longer: Vec<(String, Role, LetterCase)>,
    /// Every letter of one character that is not a single ASCII byte (and the
    /// lower-case forms of such letters), by character: one character comparison
    /// instead of a string comparison per letter. Of two entries for one character the first in
    /// the data is kept (a handful of entries: a scan beats a binary search).
    single: Vec<(char, Role, LetterCase)>,
    /// The characters of `single` in the same order, as [`utf8_key`] gives them: found
    /// from the bytes of the text without decoding it.
    single_keys: KeyIndex,
    /// For each entry of `single`, in the same order: is it a letter of this table as
    /// written ([`LetterCase::Table`]) whose character starts no other table's letter?
    single_alone: Vec<bool>,
    /// `true` when some letter of several bytes starts with an ASCII byte.
    multi_ascii: bool,
    /// Every letter as written in the data, in table order.
    list: Vec<(&'static str, Role)>,
    /// The single ASCII letters of `list`, one bit per byte.
    list_ascii: u128,
    /// The other letters of `list` (not a single ASCII byte), in table order.
    list_other: Vec<&'static str>,
    /// For each letter of `list_other`, in the same order: the [`char_key`] of its first
    /// character, and whether that character is the whole letter.
    other_firsts: Vec<(u32, bool)>,
    /// The first characters of all the letters, as [`first_masks`](Self::first_masks)
    /// gives them.
    first_masks: (u128, u64),
}

impl PieceTable {
    /// The letter the writers use for `role` (`""` for the pawn in most languages).
    pub fn letter(&self, role: Role) -> &'static str {
        self.write.get(role.index()).copied().unwrap_or("")
    }

    /// The letters of this table, one per role, for messages: `K Q R B N`.
    pub fn letters_display(&self) -> String {
        [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
        ]
        .iter()
        .map(|&r| self.letter(r))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
    }

    /// The piece letter at the start of `s`, longest match first: its role, how it
    /// was written, and its length in bytes. Figurines match under every table.
    #[inline]
    pub fn match_letter(&self, s: &str) -> Option<(Role, LetterCase, usize)> {
        let &b = s.as_bytes().first()?;
        if b < 128 && !self.multi_ascii {
            let i = usize::from(b);
            if let Some(Some(r)) = self.ascii.get(i) {
                return Some((*r, LetterCase::Table, 1));
            }
            if let Some(Some(r)) = self.ascii_lower.get(i) {
                return Some((*r, LetterCase::Lower, 1));
            }
            return None;
        }
        if let Some(m) = self.match_multi(s, b) {
            return Some(m);
        }
        if self.code != "figurine"
            && let Some(m) = figurine().match_letter(s)
        {
            return Some(m);
        }
        let i = usize::from(b);
        if let Some(Some(r)) = self.ascii.get(i) {
            return Some((*r, LetterCase::Table, 1));
        }
        if let Some(Some(r)) = self.ascii_lower.get(i) {
            return Some((*r, LetterCase::Lower, 1));
        }
        None
    }

    /// The letter at the start of `s` (first byte `b`) among those that are not a
    /// single ASCII byte: the longest one, as a scan of the letters sorted longest
    /// first would find it. A letter of several characters is longer than any
    /// one-character letter it starts with, so those are tried first.
    #[inline]
    fn match_multi(&self, s: &str, b: u8) -> Option<(Role, LetterCase, usize)> {
        for (l, r, case) in &self.longer {
            if l.as_bytes().first() == Some(&b) && s.starts_with(l.as_str()) {
                return Some((*r, *case, l.len()));
            }
        }
        if self.single.is_empty() {
            return None;
        }
        let c = s.chars().next()?;
        let &(_, r, case) = self.single.iter().find(|e| e.0 == c)?;
        Some((r, case, c.len_utf8()))
    }

    /// [`match_letter`](Self::match_letter) for text whose first byte is not ASCII,
    /// with the lookup of the letters that are not single ASCII bytes inlined (the SAN
    /// fast path's case: Chinese, Persian, figurine letters).
    #[inline(always)]
    pub(crate) fn match_letter_non_ascii(&self, s: &str) -> Option<(Role, LetterCase, usize)> {
        // `match_multi`, written out here so that only this caller inlines it
        let &b = s.as_bytes().first()?;
        for (l, r, case) in &self.longer {
            if l.as_bytes().first() == Some(&b) && s.starts_with(l.as_str()) {
                return Some((*r, *case, l.len()));
            }
        }
        if let Some((key, len)) = utf8_key(s.as_bytes())
            && let Some(i) = self.single_keys.find(key)
            && let Some(&(_, r, case)) = self.single.get(i)
        {
            return Some((r, case, len));
        }
        self.match_letter(s)
    }

    /// [`match_letter_non_ascii`](Self::match_letter_non_ascii) on the bytes of a text
    /// that starts outside ASCII (the same answer: this table's letters, then the
    /// figurines, which every table reads), and whether the letter found is one of
    /// this table's own, as written, of one character that starts no other table's
    /// letter (`false` when not known: a letter of several characters, or a figurine
    /// under another table). Such a letter names no other table where it stands. The
    /// test `letters_found_from_bytes_agree_with_match_letter` compares.
    #[inline(always)]
    pub(crate) fn match_letter_alone(&self, s: &[u8]) -> Option<((Role, LetterCase, usize), bool)> {
        if let Some(found) = self.match_own_non_ascii(s) {
            return Some(found);
        }
        if self.code == "figurine" {
            return None;
        }
        let (found, _) = figurine().match_own_non_ascii(s)?;
        Some((found, false))
    }

    /// [`match_letter_alone`](Self::match_letter_alone) among this table's own letters
    /// (and their lower-case forms).
    #[inline(always)]
    fn match_own_non_ascii(&self, s: &[u8]) -> Option<((Role, LetterCase, usize), bool)> {
        let &b = s.first()?;
        for (l, r, case) in &self.longer {
            if l.as_bytes().first() == Some(&b) && s.starts_with(l.as_bytes()) {
                return Some(((*r, *case, l.len()), false));
            }
        }
        let (key, len) = utf8_key(s)?;
        let i = self.single_keys.find(key)?;
        let &(_, r, case) = self.single.get(i)?;
        Some(((r, case, len), self.single_alone.get(i) == Some(&true)))
    }

    /// The role of an upper-case single ASCII letter (the fast path).
    #[inline]
    pub(crate) fn ascii_role(&self, b: u8) -> Option<Role> {
        self.ascii.get(usize::from(b)).copied().flatten()
    }

    /// How the table reads the single ASCII byte `b`: as a letter as written, and as
    /// the lower-case form of a letter.
    pub(crate) fn ascii_reading(&self, b: u8) -> (Option<Role>, Option<Role>) {
        let i = usize::from(b);
        (
            self.ascii.get(i).copied().flatten(),
            self.ascii_lower.get(i).copied().flatten(),
        )
    }

    /// `true` when the table has no multi-byte letters starting with ASCII, so that
    /// the ASCII fast path sees all its ASCII letters.
    pub(crate) fn fast_path_ok(&self) -> bool {
        !self.multi_ascii
    }

    /// The letters of [`letters`](Self::letters) as a mask of the single ASCII ones (one
    /// bit per byte) and a list of the others: for testing many tables on one game.
    pub(crate) fn letter_heads(&self) -> (u128, &[&'static str]) {
        (self.list_ascii, &self.list_other)
    }

    /// For each letter of [`letter_heads`](Self::letter_heads)'s list (the letters that
    /// are not a single ASCII byte), in the same order: the [`char_key`] of its first
    /// character, and whether that character is the whole letter. Made once from the
    /// data, so that a game's heads are matched by number, without decoding.
    pub(crate) fn other_firsts(&self) -> &[(u32, bool)] {
        &self.other_firsts
    }

    /// The first characters of the table's letters, for a quick test: those in ASCII
    /// as bits (the single ASCII letters and the ASCII firsts of
    /// [`other_firsts`](Self::other_firsts)), and one bit per low six bits of every
    /// other first [`char_key`]. A text with no head among them holds no letter of
    /// the table.
    pub(crate) fn first_masks(&self) -> (u128, u64) {
        self.first_masks
    }

    /// Every letter (not lower-case forms) with its role, in table order.
    pub fn letters(&self) -> impl Iterator<Item = (&'static str, Role)> + '_ {
        self.list.iter().copied()
    }
}

fn parse_tables(data: &'static str) -> Vec<PieceTable> {
    let mut tables: Vec<PieceTable> = Vec::new();
    // (every row of the file reads: `every_row_of_the_file_reads`; text given at run
    // time is checked first, `with_extra_tables`)
    for row in piece_rows(data).flatten() {
        let (code, name, role, letter) = (row.code, row.name, row.role, row.letter);
        let idx = match tables.iter().position(|t| t.code == code) {
            Some(i) => i,
            None => {
                tables.push(PieceTable {
                    code,
                    name,
                    preference: tables.len(),
                    write: [""; 6],
                    ascii: [None; 128],
                    ascii_lower: [None; 128],
                    longer: Vec::new(),
                    single: Vec::new(),
                    single_keys: KeyIndex::EMPTY,
                    single_alone: Vec::new(),
                    multi_ascii: false,
                    list: Vec::new(),
                    list_ascii: 0,
                    list_other: Vec::new(),
                    other_firsts: Vec::new(),
                    first_masks: (0, 0),
                });
                tables.len() - 1
            }
        };
        let Some(t) = tables.get_mut(idx) else {
            continue;
        };
        if let Some(w) = t.write.get_mut(role.index())
            && w.is_empty()
            && role != Role::Pawn
        {
            *w = letter;
        }
        t.list.push((letter, role));
        match letter.as_bytes() {
            &[b] if b < 128 => t.list_ascii |= 1u128 << b,
            _ => {
                t.list_other.push(letter);
                let mut chars = letter.chars();
                if let Some(first) = chars.next() {
                    t.other_firsts
                        .push((char_key(first), chars.as_str().is_empty()));
                }
            }
        }
        let lower = letter.to_lowercase();
        if letter.len() == 1 && letter.is_ascii() {
            let b = usize::from(letter.as_bytes().first().copied().unwrap_or(0));
            if let Some(slot) = t.ascii.get_mut(b) {
                *slot = Some(role);
            }
            // lower-case forms, the pawn's too (`pa5`: FIDE's `P` written small; `p`
            // is no file), never shadowing a table letter
            if lower != letter {
                let lb = usize::from(lower.as_bytes().first().copied().unwrap_or(0));
                if let Some(slot) = t.ascii_lower.get_mut(lb) {
                    *slot = Some(role);
                }
            }
        } else {
            if letter.as_bytes().first().is_some_and(u8::is_ascii) {
                t.multi_ascii = true;
            }
            push_multi(t, letter.to_owned(), role, LetterCase::Table);
            if lower != letter && role != Role::Pawn {
                push_multi(t, lower, role, LetterCase::Lower);
            }
        }
    }
    for t in &mut tables {
        t.first_masks = t
            .other_firsts
            .iter()
            .fold((t.list_ascii, 0), |(ascii, low), &(key, _)| {
                if key < 128 {
                    (ascii | 1 << key, low)
                } else {
                    (ascii, low | 1 << (key & 63))
                }
            });
        t.longer.sort_by_key(|m| std::cmp::Reverse(m.0.len()));
        // stable: of two entries for one character, the first in the data stays first
        t.single.sort_by_key(|m| m.0);
        t.single.dedup_by_key(|m| m.0);
        t.single_keys = KeyIndex::new(
            t.single
                .iter()
                .filter_map(|m| utf8_key(m.0.encode_utf8(&mut [0; 4]).as_bytes()).map(|k| k.0))
                .collect(),
        );
    }
    let alone: Vec<Vec<bool>> = tables
        .iter()
        .enumerate()
        .map(|(i, t)| {
            t.single
                .iter()
                .map(|&(c, _, case)| {
                    case == LetterCase::Table
                        && tables
                            .iter()
                            .enumerate()
                            .all(|(j, u)| j == i || u.list.iter().all(|(l, _)| !l.starts_with(c)))
                })
                .collect()
        })
        .collect();
    for (t, alone) in tables.iter_mut().zip(alone) {
        t.single_alone = alone;
    }
    tables
}

/// Files a letter that is not a single ASCII byte under `single` (one character) or
/// `longer`.
fn push_multi(t: &mut PieceTable, letter: String, role: Role, case: LetterCase) {
    let mut chars = letter.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => t.single.push((c, role, case)),
        _ => t.longer.push((letter, role, case)),
    }
}

/// All tables, in preference order (the order of `grammars/chess-pieces.tsv`).
pub fn tables() -> &'static [PieceTable] {
    static TABLES: OnceLock<Vec<PieceTable>> = OnceLock::new();
    TABLES.get_or_init(|| parse_tables(DATA))
}

/// A language of the piece-letter tables, for help texts and listings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Language {
    /// Short code, as `--lang` takes it: `en`, `vi` …
    pub code: &'static str,
    /// English name: `English`, `Vietnamese` …
    pub name: &'static str,
    /// The letters for king, queen, rook, bishop and knight, space separated:
    /// `K Q R B N`.
    pub letters: String,
}

/// Every language of [`tables`], in preference order, with its letters: the list a
/// help text shows, made from the data.
pub fn languages() -> Vec<Language> {
    tables()
        .iter()
        .map(|t| Language {
            code: t.code,
            name: t.name,
            letters: t.letters_display(),
        })
        .collect()
}

/// The tables of `grammars/chess-pieces.tsv` followed by those of `extra`, rows in
/// the same format (`code`, `name`, `role`, `letter`, tab separated; a code of the
/// file adds letters to its table): a language given as data at run time, for
/// [`read_play`](super::resolve::read_play) and the writers. The first row of `extra`
/// that cannot be read is the error. The tables live as long as the program (made
/// once, for text given at start).
pub fn with_extra_tables(extra: &str) -> Result<&'static [PieceTable], RowError> {
    if let Some(Err(e)) = piece_rows(extra).find(Result::is_err) {
        return Err(e);
    }
    let text: &'static str = Box::leak(format!("{DATA}\n{extra}").into_boxed_str());
    Ok(Box::leak(parse_tables(text).into_boxed_slice()))
}

/// The table for a language code (`en`, `vi`, `ru` …), if there is one.
pub fn table(code: &str) -> Option<&'static PieceTable> {
    tables().iter().find(|t| t.code == code)
}

/// The English table (always present: it is the first row of the data).
pub fn english() -> &'static PieceTable {
    static EN: OnceLock<&'static PieceTable> = OnceLock::new();
    EN.get_or_init(|| match table("en") {
        Some(t) => t,
        None => &FALLBACK_EN,
    })
}

/// The figurine table.
pub fn figurine() -> &'static PieceTable {
    static FIG: OnceLock<&'static PieceTable> = OnceLock::new();
    FIG.get_or_init(|| match table("figurine") {
        Some(t) => t,
        None => &FALLBACK_EN,
    })
}

/// Only reached if the data file lost its English rows: a table with no letters, so
/// that nothing is misread.
static FALLBACK_EN: PieceTable = PieceTable {
    code: "en",
    name: "English",
    preference: 0,
    write: ["", "N", "B", "R", "Q", "K"],
    ascii: [None; 128],
    ascii_lower: [None; 128],
    longer: Vec::new(),
    single: Vec::new(),
    single_keys: KeyIndex::EMPTY,
    single_alone: Vec::new(),
    multi_ascii: false,
    list: Vec::new(),
    list_ascii: 0,
    list_other: Vec::new(),
    other_firsts: Vec::new(),
    first_masks: (0, 0),
};

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::type_complexity)]
mod tests {
    use super::*;

    /// [`PieceTable::match_letter_alone`] finds from the bytes what
    /// [`PieceTable::match_letter`] finds from the text, under every table, for text
    /// that starts with every letter of every table (and its lower-case form), with
    /// the start of one, or with other characters outside ASCII; and it calls a letter
    /// alone only when it is one of the table's own, as written, that starts no other
    /// table's letter.
    #[test]
    fn letters_found_from_bytes_agree_with_match_letter() {
        let mut starts: Vec<String> = tables()
            .iter()
            .flat_map(|t| t.letters().map(|(l, _)| l))
            .flat_map(|l| [l.to_owned(), l.to_lowercase(), l.chars().take(1).collect()])
            .collect();
        starts.extend(["Ω", "é", "\u{3000}", "丬", "ｅ", "♙", "♟", "ك", "ی"].map(String::from));
        for start in &starts {
            if start.as_bytes().first().is_none_or(u8::is_ascii) {
                continue;
            }
            for rest in ["", "f3", "xe4+", "б"] {
                let text = format!("{start}{rest}");
                for t in tables() {
                    let got = t.match_letter_alone(text.as_bytes());
                    assert_eq!(
                        got.map(|(m, _)| m),
                        t.match_letter(&text),
                        "{text} {}",
                        t.code
                    );
                    if let Some(((_, case, len), true)) = got {
                        let letter = text.get(..len).unwrap();
                        assert_eq!(case, LetterCase::Table, "{text} {}", t.code);
                        assert!(t.letters().any(|(l, _)| l == letter), "{text} {}", t.code);
                        for u in tables().iter().filter(|u| u.code != t.code) {
                            assert!(
                                u.letters().all(|(l, _)| !l.starts_with(letter)),
                                "{text} {} {}",
                                t.code,
                                u.code
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_language_has_five_pieces() {
        // the codes of the file's rows, in order, each once
        let mut want: Vec<&str> = Vec::new();
        for row in piece_rows(DATA) {
            let code = row.unwrap().code;
            if !want.contains(&code) {
                want.push(code);
            }
        }
        let codes: Vec<_> = tables().iter().map(|t| t.code).collect();
        assert_eq!(codes, want);
        let listed: Vec<_> = languages().into_iter().map(|l| l.code).collect();
        assert_eq!(listed, want);
        for t in tables() {
            for r in [
                Role::King,
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
            ] {
                assert!(!t.letter(r).is_empty(), "{} has no {r}", t.code);
                let l = t.letter(r);
                assert_eq!(t.match_letter(l).map(|m| m.0), Some(r), "{} {l}", t.code);
            }
        }
        assert_eq!(english().code, "en");
        assert_eq!(tables().first().map(|t| t.code), Some("en"));
    }

    #[test]
    fn letters() {
        let cases: &[(&str, &str, Option<(Role, LetterCase, usize)>)] = &[
            ("en", "Nf3", Some((Role::Knight, LetterCase::Table, 1))),
            ("en", "nf3", Some((Role::Knight, LetterCase::Lower, 1))),
            ("en", "Sf3", None),
            ("en", "♘f3", Some((Role::Knight, LetterCase::Table, 3))),
            ("en", "Pe4", Some((Role::Pawn, LetterCase::Table, 1))),
            ("ru", "Крe2", Some((Role::King, LetterCase::Table, 4))),
            ("ru", "Кf3", Some((Role::Knight, LetterCase::Table, 2))),
            ("ru", "крe2", Some((Role::King, LetterCase::Lower, 4))),
            ("fa", "اسبf3", Some((Role::Knight, LetterCase::Table, 6))),
            ("fa", "اf3", Some((Role::Knight, LetterCase::Table, 2))),
            ("fa", "شe2", Some((Role::King, LetterCase::Table, 2))),
            ("zh", "車d1", Some((Role::Rook, LetterCase::Table, 3))),
            ("zh", "车d1", Some((Role::Rook, LetterCase::Table, 3))),
            ("zh", "馬f3", Some((Role::Knight, LetterCase::Table, 3))),
            ("vi", "Te5", Some((Role::Bishop, LetterCase::Table, 1))),
            ("fr", "Re2", Some((Role::King, LetterCase::Table, 1))),
            ("fi", "Rf3", Some((Role::Knight, LetterCase::Table, 1))),
            (
                "figurine",
                "♞f6",
                Some((Role::Knight, LetterCase::Table, 3)),
            ),
            ("figurine", "Nf6", None),
        ];
        for (code, s, want) in cases {
            let t = table(code).unwrap();
            assert_eq!(t.match_letter(s), *want, "{code} {s}");
        }
    }

    /// The lookup before `single` and `longer`: every letter that is not a single ASCII
    /// byte (and its lower-case form) in one list, longest first, scanned in order.
    fn scan(t: &PieceTable, s: &str) -> Option<(Role, LetterCase, usize)> {
        let &b = s.as_bytes().first()?;
        if b < 128 && !t.multi_ascii {
            return t.match_letter(s);
        }
        let mut multi: Vec<(String, Role, LetterCase)> = Vec::new();
        for (l, r) in t.letters() {
            if l.len() == 1 && l.is_ascii() {
                continue;
            }
            multi.push((l.to_owned(), r, LetterCase::Table));
            let lower = l.to_lowercase();
            if lower != l && r != Role::Pawn {
                multi.push((lower, r, LetterCase::Lower));
            }
        }
        multi.sort_by_key(|m| std::cmp::Reverse(m.0.len()));
        for (l, r, case) in &multi {
            if s.starts_with(l.as_str()) {
                return Some((*r, *case, l.len()));
            }
        }
        if t.code != "figurine"
            && let Some(m) = figurine().match_letter(s)
        {
            return Some(m);
        }
        let i = usize::from(b);
        if let Some(Some(r)) = t.ascii.get(i) {
            return Some((*r, LetterCase::Table, 1));
        }
        if let Some(Some(r)) = t.ascii_lower.get(i) {
            return Some((*r, LetterCase::Lower, 1));
        }
        None
    }

    #[test]
    fn match_letter_agrees_with_a_longest_first_scan() {
        let mut inputs: Vec<String> = [
            "", "e4", "Nf3", "nf3", "Kf3", "Крe2", "крe2", "Кf3", "кf3", "Кр", "К", "اسبf3",
            "اسf3", "اf3", "شe2", "وb3", "车d1", "車d1", "马f3", "馬f3", "兵e4", "♘f3", "♞f6",
            "♙e4", "♔", "Ωf3", "ｅ４", "Öf3", "Hf3", "Tb5", "Xd1", "Mf3", "Wf3", "Vf3", "Gf3",
            "Jf3", "Ff3", "Lc4", "Cf3", "Af3", "Df3", "Sf3", "Pe4", "Ee4",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        for t in tables() {
            for (l, _) in t.letters() {
                inputs.push(format!("{l}f3"));
                inputs.push(format!("{}f3", l.to_lowercase()));
                inputs.push(l.to_owned());
            }
        }
        for t in tables() {
            for s in &inputs {
                assert_eq!(t.match_letter(s), scan(t, s), "{} {s}", t.code);
            }
        }
    }

    #[test]
    fn letter_heads_split_the_letters() {
        for t in tables() {
            let (ascii, others) = t.letter_heads();
            let mut want_ascii = 0u128;
            let mut want_others = Vec::new();
            for (l, _) in t.letters() {
                if l.len() == 1 && l.is_ascii() {
                    want_ascii |= 1 << l.as_bytes()[0];
                } else {
                    want_others.push(l);
                }
            }
            assert_eq!(
                (ascii, others),
                (want_ascii, want_others.as_slice()),
                "{}",
                t.code
            );
        }
        let (ascii, others) = table("ru").unwrap().letter_heads();
        // Russian letters are all Cyrillic (the Latin look-alikes `C`/`K` are not rows:
        // `tests/typed_forms.rs::russian_latin_k_and_c`)
        assert_eq!((ascii, others), (0, ["Кр", "Ф", "Л", "С", "К"].as_slice()));
        let (ascii, others) = english().letter_heads();
        assert_eq!(ascii.count_ones(), 6);
        assert!(others.is_empty());
    }

    #[test]
    fn other_firsts_follow_the_letters() {
        for t in tables() {
            let (_, others) = t.letter_heads();
            let want: Vec<_> = others
                .iter()
                .map(|l| {
                    let c = l.chars().next().unwrap();
                    (char_key(c), l.chars().count() == 1)
                })
                .collect();
            assert_eq!(t.other_firsts(), want.as_slice(), "{}", t.code);
        }
        assert_eq!(char_key('K'), u32::from('K'));
        assert_eq!(char_key('马'), 0xE9_A9_AC);
        assert_ne!(char_key('К'), char_key('K'));
    }

    #[test]
    fn match_letter_non_ascii_agrees() {
        let inputs = [
            "马f3", "馬f3", "兵e4", "王e2", "♘f3", "♞f6", "♙e4", "اf3", "اسبf3", "اسf3", "شe2",
            "Крe2", "крe2", "Кf3", "Öf3", "ｅ４", "Ωf3", "é",
        ];
        for t in tables() {
            for s in inputs {
                assert_eq!(
                    t.match_letter_non_ascii(s),
                    t.match_letter(s),
                    "{} {s}",
                    t.code
                );
            }
        }
    }

    #[test]
    fn listing() {
        assert_eq!(english().letters_display(), "K Q R B N");
        assert_eq!(table("ru").unwrap().letters_display(), "Кр Ф Л С К");
        let en: Vec<_> = english().letters().map(|(l, _)| l).collect();
        assert!(en.contains(&"N") && en.contains(&"P"));
    }
}
