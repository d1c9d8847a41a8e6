//! The dialects as grammar shapes over the lexicon: each [`Dialect`] names the letter
//! sets of [`crate::notation::lexicon::xiangqi`] it reads and writes; a [`Grammar`] is
//! those sets compiled into terminals for the productions of [`super::syntax`] and the
//! forms the writers emit.

use std::sync::OnceLock;

use crate::{
    color::Color,
    notation::lexicon::xiangqi::{Dir, Lexicon, Mark, Meaning, Roles, Row, lexicon},
    xiangqi::Role,
};

use super::{Dialect, Glyphs};

/// The forms of one kind of terminal: multi-character forms first (longest first), then
/// single characters by binary search.
#[derive(Clone, Debug)]
pub struct Terminals<T> {
    multi: Vec<(Box<str>, T)>,
    single: Vec<(char, T)>,
}

impl<T> Default for Terminals<T> {
    fn default() -> Self {
        Terminals {
            multi: Vec::new(),
            single: Vec::new(),
        }
    }
}

impl<T: Copy> Terminals<T> {
    /// Adds `form`; a form already present keeps its first meaning unless `merge` joins
    /// the two.
    fn add(&mut self, form: &str, value: T, merge: impl Fn(T, T) -> Option<T>) {
        let mut chars = form.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => match self.single.binary_search_by_key(&c, |(k, _)| *k) {
                Ok(i) => {
                    if let Some(m) = merge(self.single[i].1, value) {
                        self.single[i].1 = m;
                    }
                }
                Err(i) => self.single.insert(i, (c, value)),
            },
            (Some(_), Some(_)) => match self.multi.iter_mut().find(|(f, _)| &**f == form) {
                Some(entry) => {
                    if let Some(m) = merge(entry.1, value) {
                        entry.1 = m;
                    }
                }
                None => {
                    let at = self
                        .multi
                        .iter()
                        .position(|(f, _)| f.len() < form.len())
                        .unwrap_or(self.multi.len());
                    self.multi.insert(at, (form.into(), value));
                }
            },
            _ => {}
        }
    }

    /// The longest form `input` begins with: its meaning and the rest of the input.
    #[inline]
    pub fn prefix<'a>(&self, input: &'a str) -> Option<(&'a str, T)> {
        for (f, v) in &self.multi {
            if let Some(rest) = input.strip_prefix(&**f) {
                return Some((rest, *v));
            }
        }
        let c = input.chars().next()?;
        let i = self.single.binary_search_by_key(&c, |(k, _)| *k).ok()?;
        Some((input.get(c.len_utf8()..)?, self.single[i].1))
    }

    /// [`Terminals::prefix`] among the forms whose meaning `keep` accepts.
    #[inline]
    pub fn prefix_where<'a>(
        &self,
        input: &'a str,
        keep: impl Fn(T) -> bool,
    ) -> Option<(&'a str, T)> {
        for (f, v) in &self.multi {
            if keep(*v)
                && let Some(rest) = input.strip_prefix(&**f)
            {
                return Some((rest, *v));
            }
        }
        let c = input.chars().next()?;
        let i = self.single.binary_search_by_key(&c, |(k, _)| *k).ok()?;
        let v = self.single[i].1;
        keep(v).then_some(())?;
        Some((input.get(c.len_utf8()..)?, v))
    }

    /// Does ASCII `input`, folded as the word form folds it (lower case, without
    /// spaces), begin with a form? A quick test before folding, without allocating.
    pub fn may_begin_ascii(&self, input: &str) -> bool {
        let starts = |f: &str| {
            let mut letters = input
                .bytes()
                .filter(|b| !char::from(*b).is_whitespace())
                .map(|b| b.to_ascii_lowercase());
            f.bytes().all(|b| letters.next() == Some(b))
        };
        self.multi.iter().any(|(f, _)| starts(f))
            || self.single.iter().any(|(c, _)| {
                let mut buf = [0; 4];
                starts(c.encode_utf8(&mut buf))
            })
    }

    /// The meaning of exactly `c`.
    pub fn char(&self, c: char) -> Option<T> {
        let i = self.single.binary_search_by_key(&c, |(k, _)| *k).ok()?;
        Some(self.single[i].1)
    }

    /// Every form, for messages: in order of the characters, multi-character ones first.
    pub fn forms(&self) -> impl Iterator<Item = (String, T)> + '_ {
        self.multi
            .iter()
            .map(|(f, v)| (f.to_string(), *v))
            .chain(self.single.iter().map(|(c, v)| (c.to_string(), *v)))
    }
}

/// How a dialect uses the lexicon: its letter sets and how their case is read.
#[derive(Copy, Clone, Debug)]
struct Shape {
    /// The set of the piece letters.
    letters: &'static str,
    /// Letters are read as written, all upper case or all lower case (`Tg`, `TG`, `tg`).
    any_case: bool,
    /// The set of the direction marks.
    dirs: &'static str,
    /// The set of the tandem marks and numbers.
    tandem: &'static str,
    /// The set of the piece words and word marks (the Vietnamese word form).
    words: Option<&'static str>,
    /// Chinese glyph set of the writer (`None`: not Chinese).
    traditional: Option<bool>,
}

fn shape(d: Dialect) -> Shape {
    let s = |letters, any_case, dirs, tandem| Shape {
        letters,
        any_case,
        dirs,
        tandem,
        words: None,
        traditional: None,
    };
    match d {
        Dialect::Iccs => s("", false, "", ""),
        Dialect::Chinese(g) => Shape {
            traditional: Some(g == Glyphs::Traditional),
            ..s("chinese", false, "chinese", "chinese")
        },
        Dialect::Wxf => s("wxf", true, "wxf", "wxf"),
        Dialect::OldVietnamese => Shape {
            words: Some("vietnamese-old-words"),
            ..s("vietnamese-old", true, "vietnamese-old", "vietnamese-old")
        },
        // the letters and tandem marks of Art. 11.2 with the Asian direction marks
        Dialect::Asian => s("vietnamese-old", true, "asian", "vietnamese-old"),
        Dialect::NewVietnamese => s("vietnamese-new", false, "", ""),
    }
}

/// The forms one dialect writes, by side.
#[derive(Clone, Debug, Default)]
pub struct Written {
    /// Piece letter per side (0 red, 1 black) and role index.
    pub pieces: [[Box<str>; 7]; 2],
    /// Advance, retreat, sideways.
    pub dirs: [Box<str>; 3],
    /// Numbers 1..9 per side, when written as words (Chinese); empty: digits.
    pub numbers: [Vec<Box<str>>; 2],
    tandem: Vec<(Mark, Box<str>)>,
}

impl Written {
    /// The form of a tandem mark (`?` when the dialect has none).
    pub fn tandem(&self, mark: Mark) -> &str {
        self.tandem
            .iter()
            .find(|(m, _)| *m == mark)
            .map_or("?", |(_, f)| f)
    }

    /// Number `n` (1..9) for `color`, if the dialect writes numbers as words.
    pub fn number(&self, n: u8, color: Color) -> Option<&str> {
        self.numbers[side(color)]
            .get(usize::from(n).checked_sub(1)?)
            .map(|f| &**f)
    }
}

fn side(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// One dialect compiled over a lexicon: the terminals of its productions and the forms
/// its writer emits.
#[derive(Clone, Debug)]
pub struct Grammar {
    pub dialect: Dialect,
    pub pieces: Terminals<Roles>,
    pub dirs: Terminals<Dir>,
    pub tandem: Terminals<Mark>,
    pub numbers: Terminals<u8>,
    /// The word form (after [`super::syntax::vn_fold`]): pieces, directions, marks.
    pub words: Terminals<Roles>,
    pub word_dirs: Terminals<Dir>,
    pub word_marks: Terminals<Mark>,
    /// Characters of traditional-only glyphs (Chinese), for telling the glyph set.
    pub traditional: Vec<char>,
    pub written: Written,
}

/// A form met twice keeps its first meaning.
fn keep_first<T>(_: T, _: T) -> Option<T> {
    None
}

fn case_variants(form: &str, any_case: bool) -> Vec<String> {
    let mut v = vec![form.to_string()];
    if any_case {
        for f in [form.to_uppercase(), form.to_lowercase()] {
            if !v.contains(&f) {
                v.push(f);
            }
        }
    }
    v
}

fn written_form<'a, T: Copy + PartialEq + 'a>(
    rows: impl Iterator<Item = &'a Row<T>>,
    value: T,
    color: Color,
    traditional: Option<bool>,
) -> Option<Box<str>> {
    rows.filter(|r| r.value == value)
        .find(|r| {
            r.write
                .as_ref()
                .is_some_and(|w| w.applies(color, traditional))
        })
        .map(|r| r.form.clone())
}

impl Grammar {
    /// Compiles `dialect` over `lex`.
    pub fn new(lex: &Lexicon, dialect: Dialect) -> Grammar {
        let sh = shape(dialect);
        let mut g = Grammar {
            dialect,
            pieces: Terminals::default(),
            dirs: Terminals::default(),
            tandem: Terminals::default(),
            numbers: Terminals::default(),
            words: Terminals::default(),
            word_dirs: Terminals::default(),
            word_marks: Terminals::default(),
            traditional: Vec::new(),
            written: Written::default(),
        };
        let union = |a: Roles, b: Roles| Some(a.union(b));
        for r in lex.pieces_of(sh.letters) {
            for f in case_variants(&r.form, sh.any_case) {
                g.pieces.add(&f, r.value, union);
            }
            if r.traditional_only {
                g.traditional.extend(r.form.chars());
            }
        }
        for r in lex.marks_of(sh.dirs) {
            if let Meaning::Dir(d) = r.value {
                g.dirs.add(&r.form, d, keep_first);
            }
        }
        for r in lex.marks_of(sh.tandem) {
            match r.value {
                Meaning::Tandem(m) => g.tandem.add(&r.form, m, keep_first),
                Meaning::Number(n) => g.numbers.add(&r.form, n, keep_first),
                Meaning::Dir(_) => {}
            }
            if r.traditional_only {
                g.traditional.extend(r.form.chars());
            }
        }
        for r in lex.marks_of(sh.dirs).filter(|r| r.traditional_only) {
            g.traditional.extend(r.form.chars());
        }
        g.traditional.sort_unstable();
        g.traditional.dedup();
        if let Some(set) = sh.words {
            for r in lex.pieces_of(set) {
                g.words
                    .add(&super::syntax::vn_fold(&r.form), r.value, union);
            }
            for r in lex.marks_of(set) {
                let f = super::syntax::vn_fold(&r.form);
                match r.value {
                    Meaning::Dir(d) => g.word_dirs.add(&f, d, keep_first),
                    Meaning::Tandem(m) => g.word_marks.add(&f, m, keep_first),
                    Meaning::Number(_) => {}
                }
            }
        }
        // the writer's forms
        for color in [Color::White, Color::Black] {
            let s = side(color);
            for role in Role::ALL {
                let form = written_form(
                    lex.pieces_of(sh.letters),
                    Roles::one(role),
                    color,
                    sh.traditional,
                );
                g.written.pieces[s][role.index()] = form.unwrap_or_else(|| "?".into());
            }
            let numbers: Vec<Box<str>> = (1..=9)
                .map_while(|n| {
                    written_form(
                        lex.marks_of(sh.tandem),
                        Meaning::Number(n),
                        color,
                        sh.traditional,
                    )
                })
                .collect();
            g.written.numbers[s] = numbers;
        }
        for (i, d) in [Dir::Advance, Dir::Retreat, Dir::Sideways]
            .into_iter()
            .enumerate()
        {
            g.written.dirs[i] = written_form(
                lex.marks_of(sh.dirs),
                Meaning::Dir(d),
                Color::White,
                sh.traditional,
            )
            .unwrap_or_else(|| "?".into());
        }
        let marks = [
            Mark::Front,
            Mark::Middle,
            Mark::Rear,
            Mark::Plus,
            Mark::Minus,
            Mark::PlusPlus,
            Mark::MinusMinus,
        ]
        .into_iter()
        .chain((1..=5).map(Mark::Index));
        for m in marks {
            if let Some(f) = written_form(
                lex.marks_of(sh.tandem),
                Meaning::Tandem(m),
                Color::White,
                sh.traditional,
            ) {
                g.written.tandem.push((m, f));
            }
        }
        g
    }

    /// The grammar of `dialect` over the built-in lexicon, compiled once.
    #[inline]
    pub fn of(dialect: Dialect) -> &'static Grammar {
        static ALL: OnceLock<[Grammar; 7]> = OnceLock::new();
        let all = ALL.get_or_init(|| KEYS.map(|d| Grammar::new(lexicon(), d)));
        &all[key(dialect)]
    }

    /// The letters of the dialect, for messages (`K A E H R C P …`).
    pub fn letters(&self) -> String {
        let mut v: Vec<String> = Vec::new();
        for (f, _) in self.pieces.forms() {
            if !v.iter().any(|x| x.to_lowercase() == f.to_lowercase()) {
                v.push(f);
            }
        }
        v.join(" ")
    }
}

const KEYS: [Dialect; 7] = [
    Dialect::Iccs,
    Dialect::Chinese(Glyphs::Simplified),
    Dialect::Chinese(Glyphs::Traditional),
    Dialect::Wxf,
    Dialect::OldVietnamese,
    Dialect::Asian,
    Dialect::NewVietnamese,
];

#[inline]
fn key(d: Dialect) -> usize {
    match d {
        Dialect::Iccs => 0,
        Dialect::Chinese(Glyphs::Simplified) => 1,
        Dialect::Chinese(Glyphs::Traditional) => 2,
        Dialect::Wxf => 3,
        Dialect::OldVietnamese => 4,
        Dialect::Asian => 5,
        Dialect::NewVietnamese => 6,
    }
}
