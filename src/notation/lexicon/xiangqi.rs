//! The xiangqi lexicon: every piece letter and word (`grammars/xiangqi-pieces.tsv`) and
//! every direction, tandem and number mark (`grammars/xiangqi-marks.tsv`), per letter
//! set, read once. The dialects of [`crate::notation::xiangqi`] are grammar shapes over
//! these sets: a new letter or word for a set is a row in those files and nothing else,
//! and [`Lexicon::with_extra`] loads more rows at run time.

use std::sync::OnceLock;

use crate::{color::Color, xiangqi::Role};

const PIECES: &str = include_str!("../../../grammars/xiangqi-pieces.tsv");
const MARKS: &str = include_str!("../../../grammars/xiangqi-marks.tsv");

/// The direction of a traditional move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Toward the opponent: 进, tiến `.` (old Vietnamese), `+` (WXF, Asian).
    Advance,
    /// Back toward one's own side: 退, thoái `/`, `-` (WXF), `.` (Asian).
    Retreat,
    /// Along the rank: 平, bình `-`, `.`/`=` (WXF), `=` (Asian).
    Sideways,
}

/// Which of several identical pieces on one file moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// 前, `t` (trước), WXF `+` when at most three stand on the file.
    Front,
    /// 中, `g` (giữa): the middle one of three.
    Middle,
    /// 后/後, `s` (sau), WXF `-` when at most three stand on the file.
    Rear,
    /// 一..五 (Chinese) or `a`..`e` (kyphu's old-Vietnamese extension): the n-th from the
    /// front, 1-based.
    Index(u8),
    /// WXF `++`: the front one of four or five.
    PlusPlus,
    /// WXF `P+`: the front one of two or three, the second of four or five.
    Plus,
    /// WXF `P-`: the rear one of two or three, the fourth of five (third of four).
    Minus,
    /// WXF `--`: the rear one of four or five.
    MinusMinus,
}

/// A set of roles: a letter or word may name more than one (`tuong` without diacritics
/// is both Tướng and Tượng; WXF `G` is general or guard).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Roles(u8);

impl Roles {
    pub const fn one(r: Role) -> Roles {
        Roles(1 << r as u8)
    }
    pub const fn two(a: Role, b: Role) -> Roles {
        Roles((1 << a as u8) | (1 << b as u8))
    }
    pub const fn contains(self, r: Role) -> bool {
        self.0 & (1 << r as u8) != 0
    }
    /// Both sets' roles.
    pub const fn union(self, other: Roles) -> Roles {
        Roles(self.0 | other.0)
    }
}

/// What a mark means.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Meaning {
    Dir(Dir),
    Tandem(Mark),
    /// A file number or step count 1..9 written as a word (一..九).
    Number(u8),
}

/// When a form is written (a `write` row): the qualifiers it carries; a row without
/// qualifiers is written always.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteWhen {
    pub color: Option<Color>,
    /// `Some(true)`: traditional glyphs only; `Some(false)`: simplified only.
    pub traditional: Option<bool>,
}

impl WriteWhen {
    /// Does the row apply to `color` in this glyph set (`None`: a dialect without glyph
    /// sets)?
    pub fn applies(&self, color: Color, traditional: Option<bool>) -> bool {
        self.color.is_none_or(|c| c == color)
            && self
                .traditional
                .is_none_or(|t| traditional.is_none_or(|want| want == t))
    }
}

/// One row of either table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row<T> {
    /// The letter set: `vietnamese-old`, `wxf`, `chinese`…
    pub set: Box<str>,
    pub value: T,
    pub form: Box<str>,
    /// `None`: read only; `Some`: also written, under these qualifiers.
    pub write: Option<WriteWhen>,
    /// A `traditional` qualifier on a read row: the glyph is traditional only.
    pub traditional_only: bool,
}

/// Both tables, parsed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lexicon {
    pub pieces: Vec<Row<Roles>>,
    pub marks: Vec<Row<Meaning>>,
}

fn role_named(name: &str) -> Option<Role> {
    Role::ALL.into_iter().find(|r| r.to_string() == name)
}

fn meaning_named(name: &str) -> Option<Meaning> {
    let n = |prefix: &str| name.strip_prefix(prefix).and_then(|k| k.parse::<u8>().ok());
    Some(match name {
        "advance" => Meaning::Dir(Dir::Advance),
        "retreat" => Meaning::Dir(Dir::Retreat),
        "sideways" => Meaning::Dir(Dir::Sideways),
        "front" => Meaning::Tandem(Mark::Front),
        "middle" => Meaning::Tandem(Mark::Middle),
        "rear" => Meaning::Tandem(Mark::Rear),
        "plus" => Meaning::Tandem(Mark::Plus),
        "minus" => Meaning::Tandem(Mark::Minus),
        "plus-plus" => Meaning::Tandem(Mark::PlusPlus),
        "minus-minus" => Meaning::Tandem(Mark::MinusMinus),
        _ => {
            if let Some(k) = n("index-").filter(|k| (1..=5).contains(k)) {
                Meaning::Tandem(Mark::Index(k))
            } else if let Some(k) = n("number-").filter(|k| (1..=9).contains(k)) {
                Meaning::Number(k)
            } else {
                return None;
            }
        }
    })
}

/// The `use` column: `read` or `write`, then qualifiers.
fn parse_use(text: &str) -> Result<(Option<WriteWhen>, bool), String> {
    let mut words = text.split_whitespace();
    let write = match words.next() {
        Some("read") => false,
        Some("write") => true,
        other => {
            return Err(format!(
                "expected read or write in the use column, found `{}`",
                other.unwrap_or("")
            ));
        }
    };
    let mut when = WriteWhen {
        color: None,
        traditional: None,
    };
    for w in words {
        match w {
            "red" => when.color = Some(Color::White),
            "black" => when.color = Some(Color::Black),
            "simplified" => when.traditional = Some(false),
            "traditional" => when.traditional = Some(true),
            other => {
                return Err(format!(
                    "expected red, black, simplified or traditional after `{}`, found `{other}`",
                    if write { "write" } else { "read" }
                ));
            }
        }
    }
    let traditional_only = when.traditional == Some(true);
    Ok((write.then_some(when), traditional_only))
}

/// The rows of one TSV text: comments (`#`) and blank lines skipped.
fn rows<T>(
    text: &str,
    what: &str,
    value: impl Fn(&str) -> Option<T>,
) -> Result<Vec<Row<T>>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let bad = |why: String| format!("{what} line {}: {why}", i + 1);
        let cols: Vec<&str> = line.split('\t').collect();
        let [set, meaning, form, usage, ..] = cols[..] else {
            return Err(bad(format!(
                "expected at least 4 tab-separated columns (set, meaning, form, use), found {}",
                cols.len()
            )));
        };
        let value = value(meaning).ok_or_else(|| bad(format!("unknown {what} `{meaning}`")))?;
        if form.is_empty() || set.is_empty() {
            return Err(bad(
                "expected a set and a form, found an empty column".into()
            ));
        }
        let (write, traditional_only) = parse_use(usage).map_err(bad)?;
        out.push(Row {
            set: set.into(),
            value,
            form: form.into(),
            write,
            traditional_only,
        });
    }
    Ok(out)
}

fn roles_named(name: &str) -> Option<Roles> {
    let mut out: Option<Roles> = None;
    for part in name.split('|') {
        let r = Roles::one(role_named(part)?);
        out = Some(out.map_or(r, |o| o.union(r)));
    }
    out
}

impl Lexicon {
    /// Parses a pieces table and a marks table (the formats of `grammars/xiangqi-*.tsv`).
    /// The error names the table, the line and what was expected.
    pub fn from_tsv(pieces: &str, marks: &str) -> Result<Lexicon, String> {
        Ok(Lexicon {
            pieces: rows(pieces, "piece role", roles_named)?,
            marks: rows(marks, "mark meaning", meaning_named)?,
        })
    }

    /// This lexicon with the rows of more tables added (a new letter, word or mark).
    pub fn with_extra(&self, pieces: &str, marks: &str) -> Result<Lexicon, String> {
        let extra = Lexicon::from_tsv(pieces, marks)?;
        let mut out = self.clone();
        out.pieces.extend(extra.pieces);
        out.marks.extend(extra.marks);
        Ok(out)
    }

    /// The piece rows of `set`.
    pub fn pieces_of<'a>(&'a self, set: &'a str) -> impl Iterator<Item = &'a Row<Roles>> {
        self.pieces.iter().filter(move |r| &*r.set == set)
    }

    /// The mark rows of `set`.
    pub fn marks_of<'a>(&'a self, set: &'a str) -> impl Iterator<Item = &'a Row<Meaning>> {
        self.marks.iter().filter(move |r| &*r.set == set)
    }
}

/// The lexicon of `grammars/xiangqi-pieces.tsv` and `grammars/xiangqi-marks.tsv`,
/// compiled into the binary and parsed on first use. A malformed built-in table is a
/// bug caught by the tests; it gives an empty lexicon rather than a panic.
pub fn lexicon() -> &'static Lexicon {
    static LEX: OnceLock<Lexicon> = OnceLock::new();
    LEX.get_or_init(|| Lexicon::from_tsv(PIECES, MARKS).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_tables_parse() {
        let lex = Lexicon::from_tsv(PIECES, MARKS).unwrap();
        assert!(lex.pieces.len() > 55, "{}", lex.pieces.len());
        assert!(lex.marks.len() > 70, "{}", lex.marks.len());
        assert_eq!(&lex, lexicon());
        let tuong = lex.pieces.iter().find(|r| &*r.form == "tuong").unwrap();
        assert_eq!(tuong.value, Roles::two(Role::General, Role::Elephant));
    }

    #[test]
    fn malformed_rows_are_errors_naming_the_line() {
        let e = Lexicon::from_tsv("wxf\tdragon\tD\tread\tmade up\n", "").unwrap_err();
        assert_eq!(e, "piece role line 1: unknown piece role `dragon`");
        let e = Lexicon::from_tsv("# c\nwxf\thorse\tH\n", "").unwrap_err();
        assert!(
            e.starts_with("piece role line 2: expected at least 4"),
            "{e}"
        );
        let e = Lexicon::from_tsv("", "wxf\tadvance\t+\twrite blue\tx\n").unwrap_err();
        assert!(e.contains("found `blue`"), "{e}");
    }
}
