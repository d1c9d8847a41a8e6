//! Xiangqi move notations: each dialect's grammar, resolution against a
//! [`Position`], writers, and dialect inference by replay.
//!
//! Dialects: ICCS coordinates (`h2e2`, `H2-E2`), Chinese vertical-line (`炮二平五`,
//! simplified or traditional), WXF (`C2.5`, `R+.3`), old Vietnamese (`P2-5`, `Pt/1`,
//! and the word form `Pháo 2 bình 5`), the Asian marks of the Vietnamese law (`P2=5`,
//! `M2.3` = retreat) and the new Vietnamese coordinate notation (`Phe2`).
//! See `docs/notation/xiangqi.md`.
//!
//! ```
//! use kyphu::notation::xiangqi::{Dialect, Glyphs, read_play, write};
//! use kyphu::xiangqi::Position;
//!
//! let mut pos = Position::default();
//! let before = pos.clone();
//! let r = read_play("P2-5", Dialect::OldVietnamese, &mut pos)?;
//! let mut s = String::new();
//! write(&mut s, &before, r.mv, Dialect::Chinese(Glyphs::Simplified));
//! assert_eq!(s, "炮二平五");
//! # Ok::<_, kyphu::model::diag::Diagnostic>(())
//! ```

mod error;
mod grammar;
mod resolve;
mod syntax;
mod write;

use crate::model::diag::Code;
use crate::notation::error::TokenError;
use std::fmt;

pub use write::{write, write_line, write_with};

use crate::{
    model::diag::Diagnostic,
    xiangqi::{Move, Position},
};

pub use error::{ReadError, ResolveError, SyntaxError};
pub use grammar::Grammar;
use resolve::Failure;

/// The glyph set a Chinese record is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Glyphs {
    /// 车马进后 (mainland, GBK).
    Simplified,
    /// 車馬進後 (Taiwan / Hong Kong, Big5).
    Traditional,
}

/// A xiangqi move notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// ICCS coordinates: origin and destination, files `a`–`i`, ranks `0`–`9` from Red
    /// (`h2e2`, also `H2-E2`).
    Iccs,
    /// Chinese vertical-line notation, `炮二平五 马８进７`; reads every glyph set, writes
    /// the one given.
    Chinese(Glyphs),
    /// WXF: `C2.5 H8+7`, `+` advance, `-` retreat, `.` or `=` sideways, tandem `R+.3`.
    Wxf,
    /// Old Vietnamese (Law 1409/2004 Art. 11.2): `P2-5 M8.7`, `.` advance, `/`
    /// retreat, `-` sideways, tandem `Pt/1 Bg.1 Xs.2`; also the word form.
    OldVietnamese,
    /// The Asian marks of the same article with Vietnamese letters: `+` advance, `.`
    /// retreat, `=` sideways.
    Asian,
    /// New Vietnamese coordinate notation (Appendix 3): `Phe2 Mg7`, `Xc8`.
    NewVietnamese,
}

impl Dialect {
    /// Every dialect (Chinese in simplified glyphs).
    pub const ALL: [Dialect; 6] = [
        Dialect::Iccs,
        Dialect::Chinese(Glyphs::Simplified),
        Dialect::Wxf,
        Dialect::OldVietnamese,
        Dialect::Asian,
        Dialect::NewVietnamese,
    ];
}

/// One xiangqi notation as the command line names it: the table the `--notation` and
/// `--out-xiangqi` help, [`Dialect`]'s `Display` and `FromStr` are made from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Notation {
    /// Its name (`wxf`): what `Display` writes and `FromStr` reads.
    pub name: &'static str,
    /// Shorter names the command line also takes (`vi-old`).
    pub aliases: &'static [&'static str],
    pub dialect: Dialect,
    /// One line for a help text.
    pub description: &'static str,
    /// The opening `h2e2 h9g7` (cannon to the centre, horse out) written in it.
    pub example: &'static str,
}

/// Every notation, in the order the help lists them.
pub const NOTATIONS: [Notation; 7] = [
    Notation {
        name: "iccs",
        aliases: &[],
        dialect: Dialect::Iccs,
        description: "ICCS coordinates: origin and destination, files a-i, ranks 0-9 from Red",
        example: "h2e2 h9g7",
    },
    Notation {
        name: "chinese",
        aliases: &["zh"],
        dialect: Dialect::Chinese(Glyphs::Simplified),
        description: "Chinese vertical-line notation, simplified glyphs (every glyph set is read)",
        example: "炮二平五 马８进７",
    },
    Notation {
        name: "chinese-traditional",
        aliases: &["zh-tw"],
        dialect: Dialect::Chinese(Glyphs::Traditional),
        description: "Chinese vertical-line notation, traditional glyphs (Taiwan, Hong Kong, Big5)",
        example: "炮二平五 馬８進７",
    },
    Notation {
        name: "wxf",
        aliases: &[],
        dialect: Dialect::Wxf,
        description: "World Xiangqi Federation: letters K A E H R C P, + advance, - retreat, . sideways",
        example: "C2.5 H8+7",
    },
    Notation {
        name: "vietnamese-old",
        aliases: &["vi-old"],
        dialect: Dialect::OldVietnamese,
        description: "Vietnamese (Law 1409/2004 Art. 11.2): letters Tg S T X P M B, . advance, / retreat, - sideways; also the word form",
        example: "P2-5 M8.7",
    },
    Notation {
        name: "asian",
        aliases: &[],
        dialect: Dialect::Asian,
        description: "the Asian marks of the same article with the Vietnamese letters: + advance, . retreat, = sideways",
        example: "P2=5 M8+7",
    },
    Notation {
        name: "vietnamese-new",
        aliases: &["vi-new"],
        dialect: Dialect::NewVietnamese,
        description: "new Vietnamese coordinates (Appendix 3): letter and destination, T S V X P M B",
        example: "Phe2 Mg7",
    },
];

/// [`NOTATIONS`], for a help text or a menu.
pub fn notations() -> &'static [Notation] {
    &NOTATIONS
}

impl Dialect {
    /// The row of [`NOTATIONS`] for this dialect.
    pub fn notation(self) -> &'static Notation {
        let i = NOTATIONS
            .iter()
            .position(|n| n.dialect == self)
            .unwrap_or(0);
        &NOTATIONS[i]
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.notation().name)
    }
}

impl std::str::FromStr for Dialect {
    type Err = String;

    /// The names of [`NOTATIONS`] (`iccs`, `chinese`, `chinese-traditional`, `wxf`,
    /// `vietnamese-old`, `asian`, `vietnamese-new`), for a `--notation` option; the
    /// aliases are the command line's to take.
    fn from_str(s: &str) -> Result<Dialect, String> {
        let want = s.trim().to_ascii_lowercase();
        NOTATIONS
            .iter()
            .find(|n| n.name == want)
            .map(|n| n.dialect)
            .ok_or_else(|| {
                let names: Vec<&str> = NOTATIONS.iter().map(|n| n.name).collect();
                format!("expected one of {}, found `{s}`", names.join(", "))
            })
    }
}

/// A move read and resolved, with notes about how it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub mv: Move,
    /// Notes and warnings (no span or ply: the caller adds them).
    pub remarks: Vec<Diagnostic>,
}

/// One syntactic move of any dialect.
enum Parsed {
    Trad(syntax::Trad),
    Coord(syntax::Coord),
    Iccs(Move),
}

/// The syntax error of `token` (`s` cleaned) in grammar `g`: an unknown piece when a
/// letter of the dialect in place of the first one makes a move, else invalid.
#[cold]
fn invalid(token: &str, s: &str, g: &Grammar) -> SyntaxError {
    let dialect = g.dialect;
    let lettered = matches!(
        dialect,
        Dialect::Wxf | Dialect::OldVietnamese | Dialect::Asian | Dialect::NewVietnamese
    );
    let mut chars = s.chars();
    if let Some(first) = chars.next().filter(|c| lettered && c.is_alphabetic())
        && g.pieces.prefix(s).is_none()
    {
        let rest = chars.as_str();
        let fits = g.pieces.forms().any(|(f, _)| {
            let t = format!("{f}{rest}");
            match dialect {
                Dialect::Wxf => syntax::wxf_move(g, &t).is_ok(),
                Dialect::NewVietnamese => syntax::nv_move(g, &t).is_ok(),
                _ => syntax::vn_move(g, &t).is_ok(),
            }
        });
        if fits {
            return SyntaxError::UnknownPiece {
                letter: first.to_string(),
                token: token.to_string(),
                dialect,
                known: g.letters(),
            };
        }
    }
    SyntaxError::Invalid {
        token: token.to_string(),
        dialect,
        expected: expected(dialect),
    }
}

fn expected(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Iccs => "two points such as h2e2",
        Dialect::Chinese(_) => "piece, file, 进/退/平 and a number such as 炮二平五",
        Dialect::Wxf => "letter, file or +/-, operator and a digit such as C2.5 or R+.3",
        Dialect::OldVietnamese => {
            "letter, file, . / or - and a digit such as P2-5, or words such as Pháo 2 bình 5"
        }
        Dialect::Asian => "letter, file, + . or = and a digit such as P2=5",
        Dialect::NewVietnamese => "piece letter and destination such as Phe2",
    }
}

/// Folds, trims annotation suffixes (`!`, `?`), a leading move number (`12.`, `12)`)
/// and, outside WXF, the scoresheet dash before Black's move (`-Tg6.1`).
fn clean(token: &str, dialect: Dialect) -> String {
    let s = syntax::fold(token.trim());
    // `Pháo 2 bình 5, Mã 8 tấn 7`: a comma after Red's move
    let mut s = s.trim_end_matches(['!', '?', ',']).to_string();
    if dialect != Dialect::Wxf {
        let digits = s.trim_start_matches(|c: char| c.is_ascii_digit());
        if digits.len() < s.len() && (digits.starts_with('.') || digits.starts_with(')')) {
            s = digits
                .trim_start_matches(['.', ')'])
                .trim_start()
                .to_string();
        }
        if let Some(rest) = s.strip_prefix('-')
            && !rest.is_empty()
        {
            s = rest.to_string();
        }
    }
    s
}

/// Not a move of the grammar: the cleaned token, for [`invalid`] to say why.
struct NotAMove(String);

/// Every move `token` holds, syntactically, or the cleaned token.
fn parse_raw(token: &str, g: &Grammar) -> Result<Vec<Parsed>, NotAMove> {
    let dialect = g.dialect;
    let s = clean(token, dialect);
    let one = |r: Option<Parsed>| r.map(|p| vec![p]).ok_or_else(|| NotAMove(s.clone()));
    match dialect {
        Dialect::Iccs => one(syntax::iccs_move(&s).ok().map(|(_, m)| Parsed::Iccs(m))),
        Dialect::Chinese(_) => match syntax::cn_moves(g, &s) {
            Ok((_, v)) => Ok(v.into_iter().map(Parsed::Trad).collect()),
            Err(_) => Err(NotAMove(s)),
        },
        Dialect::Wxf => {
            let r = syntax::wxf_move(g, &s).ok().or_else(|| {
                // a scoresheet dash before Black's move, when it is not a tandem sign
                s.strip_prefix('-')
                    .and_then(|rest| syntax::wxf_move(g, rest).ok())
            });
            // WinBoard's xiangqi SAN (`Che2`, `Hb0c2`): WXF letters on coordinates
            one(r
                .map(|(_, t)| Parsed::Trad(t))
                .or_else(|| syntax::nv_move(g, &s).ok().map(|(_, c)| Parsed::Coord(c))))
        }
        Dialect::OldVietnamese => one(syntax::vn_move(g, &s)
            .ok()
            .map(|(_, t)| t)
            .or_else(|| word_move(g, &s))
            .map(Parsed::Trad)),
        Dialect::Asian => one(syntax::vn_move(g, &s).ok().map(|(_, t)| Parsed::Trad(t))),
        Dialect::NewVietnamese => one(syntax::nv_move(g, &s).ok().map(|(_, c)| Parsed::Coord(c))),
    }
}

/// Every move `token` holds, syntactically.
fn parse(token: &str, g: &Grammar) -> Result<Vec<Parsed>, SyntaxError> {
    parse_raw(token, g).map_err(|NotAMove(s)| invalid(token, &s, g))
}

/// `s` read in the Vietnamese word form of `g`; an ASCII token that begins with no
/// word is not folded.
fn word_move(g: &Grammar, s: &str) -> Option<syntax::Trad> {
    if s.is_ascii() && !g.words.may_begin_ascii(s) {
        return None;
    }
    syntax::vw_move(g, &syntax::vn_fold(s)).ok().map(|(_, t)| t)
}

/// Does `s` (folded) read as a move in the Vietnamese word form?
fn is_word_move(s: &str) -> bool {
    word_move(Grammar::of(Dialect::OldVietnamese), s).is_some()
}

fn canonical(pos: &Position, moves: &[Move], g: &Grammar) -> Vec<String> {
    moves
        .iter()
        .map(|m| {
            let mut s = String::new();
            write_with(&mut s, pos, *m, g);
            s
        })
        .collect()
}

fn play_parsed(
    token: &str,
    p: &Parsed,
    g: &Grammar,
    pos: &mut Position,
) -> Result<Resolved, ReadError> {
    let dialect = g.dialect;
    let (mv, note) = match p {
        Parsed::Iccs(m) => (*m, None),
        Parsed::Trad(t) => match resolve::resolve_trad(t, pos, dialect == Dialect::Wxf) {
            Ok(x) => x,
            Err(f) => return Err(failure(token, f, pos, g)),
        },
        Parsed::Coord(c) => match resolve::resolve_coord(c, pos) {
            Ok(m) => (m, None),
            Err(f) => return Err(failure(token, f, pos, g)),
        },
    };
    if let Err(e) = pos.check_move(mv) {
        return Err(ResolveError::Illegal {
            token: token.to_string(),
            reason: resolve::illegal_reason(pos, e),
        }
        .into());
    }
    pos.play_unchecked(mv);
    Ok(Resolved {
        mv,
        remarks: note.into_iter().collect(),
    })
}

#[cold]
fn failure(token: &str, f: Failure, pos: &Position, g: &Grammar) -> ReadError {
    let token = token.to_string();
    ReadError::Resolve(match f {
        Failure::NoPiece(reason) | Failure::Illegal(reason) => {
            ResolveError::Illegal { token, reason }
        }
        Failure::Ambiguous(moves) => ResolveError::Ambiguous {
            token,
            forms: canonical(pos, &moves, g),
            candidates: moves,
        },
    })
}

/// `C25`: a WXF move typed without its operator (letter, file, target), read as the one
/// operator of the dialect that makes a legal move; `None` when the token is not of
/// that shape or no single operator fits.
#[cold]
fn without_operator(
    token: &str,
    g: &Grammar,
    pos: &mut Position,
) -> Option<Result<Resolved, ReadError>> {
    if g.dialect != Dialect::Wxf {
        return None;
    }
    let s = clean(token, g.dialect);
    let b = s.as_bytes();
    if !matches!(b, [l, f, t] if l.is_ascii_alphabetic() && f.is_ascii_digit() && t.is_ascii_digit())
    {
        return None;
    }
    let (head, target) = s.split_at(2);
    let mut found: Option<(Resolved, Position)> = None;
    for op in ['.', '+', '-'] {
        let Ok(parsed) = parse_raw(&format!("{head}{op}{target}"), g) else {
            continue;
        };
        let [one] = parsed.as_slice() else { continue };
        let mut p = pos.clone();
        if let Ok(r) = play_parsed(token, one, g, &mut p) {
            if found.is_some() {
                return None;
            }
            found = Some((r, p));
        }
    }
    let (r, p) = found?;
    *pos = p;
    Some(Ok(r))
}

/// Reads `token` in `dialect` and plays it on `pos`; `pos` is unchanged on error.
/// Errors are diagnostics of the chess reader's families ([`ReadError`]): the codes
/// `invalid-move` and `unknown-piece` (syntax), `illegal-move` (no legal move fits;
/// the message says why) and `ambiguous-move` (several fit;
/// [`Diagnostic::candidates`] lists them in the dialect's canonical form). A token
/// holding several Chinese moves written together is an `invalid-move` here: read it
/// with [`read_play_many`].
pub fn read_play(
    token: &str,
    dialect: Dialect,
    pos: &mut Position,
) -> Result<Resolved, Diagnostic> {
    read_play_with(token, Grammar::of(dialect), pos).map_err(|e| e.to_diagnostic())
}

/// [`read_play`] with the letters and marks of grammar `g`: a dialect compiled over a
/// lexicon with extra rows (`Grammar::new(&lexicon().with_extra(…)?, dialect)`).
pub fn read_play_with(token: &str, g: &Grammar, pos: &mut Position) -> Result<Resolved, ReadError> {
    let parsed = match parse(token, g) {
        Ok(p) => p,
        Err(e) => {
            return match without_operator(token, g, pos) {
                Some(r) => r,
                None => Err(e.into()),
            };
        }
    };
    match parsed.as_slice() {
        [one] => play_parsed(token, one, g, pos),
        several => Err(SyntaxError::Several {
            token: token.to_string(),
            count: several.len(),
        }
        .into()),
    }
}

/// Checks `token` against `dialect`'s grammar without a position: the number of moves
/// it holds, or an `invalid-move` diagnostic (without looking for an unknown piece
/// letter: [`read_play`] does that).
pub fn check_syntax(token: &str, dialect: Dialect) -> Result<usize, Diagnostic> {
    let g = Grammar::of(dialect);
    parse_raw(token, g).map(|v| v.len()).map_err(|_| {
        SyntaxError::Invalid {
            token: token.to_string(),
            dialect,
            expected: expected(dialect),
        }
        .to_diagnostic()
    })
}

/// Reads every move `token` holds (Chinese moves written without spaces,
/// `炮二平五马８进７`, give several) and plays them on `pos`. On error `pos` is left
/// after the moves that were played, and the error says which move of the token failed.
pub fn read_play_many(
    token: &str,
    dialect: Dialect,
    pos: &mut Position,
) -> Result<Vec<Resolved>, Diagnostic> {
    let g = Grammar::of(dialect);
    let parsed = match parse(token, g) {
        Ok(p) => p,
        Err(e) => {
            return match without_operator(token, g, pos) {
                Some(r) => r.map(|r| vec![r]).map_err(|e| e.to_diagnostic()),
                None => Err(e.to_diagnostic()),
            };
        }
    };
    let mut out = Vec::with_capacity(parsed.len());
    let n = parsed.len();
    for (i, p) in parsed.iter().enumerate() {
        let r = play_parsed(token, p, g, pos).map_err(|e| {
            let mut d = e.to_diagnostic();
            if n > 1 {
                d.message = format!("move {} of {n} in the token: {}", i + 1, d.message);
            }
            d
        })?;
        out.push(r);
    }
    Ok(out)
}

/// Splits a whole movetext string into move strings: drops move numbers (`1.`, `1)`,
/// `1...`) and results, joins the Vietnamese word form that spaces split
/// (`Mã 2 tiến 3` → one move) and splits Chinese moves written together. Each item
/// reads with [`read_play`] in its dialect.
pub fn split_moves(text: &str) -> Vec<String> {
    let words: Vec<String> = syntax::fold(text)
        .split_whitespace()
        .filter_map(|w| {
            let rest = w.trim_start_matches(|c: char| c.is_ascii_digit());
            let w = if rest.len() < w.len() && (rest.starts_with('.') || rest.starts_with(')')) {
                rest.trim_start_matches(['.', ')'])
            } else {
                w
            };
            // scoresheet separators: a lone dash, or one glued after Red's move
            let w = if w.chars().count() > 1 {
                w.trim_end_matches(['-', '–', '—'])
            } else {
                w
            };
            let w = w.trim_start_matches(['–', '—']).trim_end_matches('.');
            let junk = ["1-0", "0-1", "1/2-1/2", "*", "|", "-", ""].contains(&w);
            (!junk).then(|| w.to_string())
        })
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while let Some(w) = words.get(i) {
        // the Vietnamese word form: up to four words make one move
        let joined = (2..=4).find_map(|k| {
            let parts = words.get(i..i + k)?;
            let s = parts.join(" ");
            is_word_move(&s).then_some((k, s))
        });
        if let Some((k, s)) = joined.filter(|_| !is_word_move(w)) {
            out.push(s);
            i += k;
            continue;
        }
        if let Some((red, black)) = glued_pair(w) {
            out.push(red.to_string());
            out.push(black.to_string());
            i += 1;
            continue;
        }
        let cn = Grammar::of(Dialect::Chinese(Glyphs::Simplified));
        match syntax::cn_moves(cn, w) {
            Ok((_, moves)) if moves.len() > 1 => {
                // split the token into its moves by re-parsing prefixes
                let mut rest = w.as_str();
                while !rest.is_empty() {
                    let before = rest.len();
                    match syntax::cn_move(cn, rest.trim_start()) {
                        Ok((r, _)) => {
                            let start = w.len() - before;
                            let end = w.len() - r.len();
                            out.push(w.get(start..end).unwrap_or("").trim().to_string());
                            rest = r;
                        }
                        Err(_) => break,
                    }
                }
            }
            _ => out.push(w.clone()),
        }
        i += 1;
    }
    out
}

/// Groups PGN move tokens into moves for the replay: the Vietnamese word form, which
/// the PGN splitter cuts at spaces (`Mã`, `2`, `tiến`, `3`; `Pháo2`, `bình`, `5`), joins
/// into one range of 2–4 tokens; a lone scoresheet dash (`-`, `–`) belongs to no move;
/// every other token is a range of its own. Read a range by joining its tokens with
/// spaces (or slicing the source from the first span's start to the last span's end)
/// and calling [`read_play`].
pub fn group_tokens(tokens: &[&str]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(w) = tokens.get(i) {
        if ["-", "–", "—"].contains(&w.trim()) {
            i += 1;
            continue;
        }
        let alone = is_word_move(w);
        let joined = (!alone)
            .then(|| {
                (2..=4).find(|k| {
                    tokens
                        .get(i..i + k)
                        .is_some_and(|parts| is_word_move(&parts.join(" ")))
                })
            })
            .flatten();
        let k = joined.unwrap_or(1);
        out.push(i..i + k);
        i += k;
    }
    out
}

/// `P9.1-Tg6.1`: Red's and Black's moves glued by the scoresheet dash (a digit, a
/// dash, then a piece letter).
fn glued_pair(w: &str) -> Option<(&str, &str)> {
    if syntax::iccs_move(w).is_ok() {
        return None;
    }
    let b = w.as_bytes();
    let at = (1..b.len().saturating_sub(1)).find(|&k| {
        b.get(k) == Some(&b'-')
            && b.get(k - 1).is_some_and(u8::is_ascii_digit)
            && b.get(k + 1).is_some_and(u8::is_ascii_uppercase)
    })?;
    Some((w.get(..at)?, w.get(at + 1..)?))
}

fn has_cjk(tokens: &[&str]) -> Option<Glyphs> {
    let all: String = tokens.concat();
    let g = Grammar::of(Dialect::Chinese(Glyphs::Simplified));
    let t = Grammar::of(Dialect::Chinese(Glyphs::Traditional));
    // a piece, or a direction either glyph set writes
    let dirs: Vec<char> = [g, t]
        .iter()
        .flat_map(|g| g.written.dirs.iter())
        .filter_map(|d| d.chars().next())
        .collect();
    let dir = |c: char| dirs.contains(&c);
    let cjk = all.chars().any(|c| g.pieces.char(c).is_some() || dir(c));
    cjk.then(|| {
        if all.chars().any(|c| g.traditional.binary_search(&c).is_ok()) {
            Glyphs::Traditional
        } else {
            Glyphs::Simplified
        }
    })
}

/// Do the tokens use letters only the Vietnamese notations use?
fn vietnamese_letters(tokens: &[&str]) -> bool {
    tokens.iter().any(|t| {
        let t = syntax::fold(t);
        let t = t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
        t.starts_with(['X', 'M', 'T', 'V']) || !t.is_ascii()
    })
}

/// How far a game's tokens replay in one dialect.
struct Run {
    dialect: Dialect,
    /// The moves read (their number is how far the run got; two dialects that read
    /// the same moves read the same game).
    moves: Vec<Move>,
    /// The index of the first token that failed, and why.
    failure: Option<(usize, Diagnostic)>,
}

fn replay_length(start: &Position, tokens: &[&str], dialect: Dialect) -> Run {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        match read_play_many(t, dialect, &mut pos) {
            Ok(v) => moves.extend(v.iter().map(|r| r.mv)),
            Err(d) => {
                return Run {
                    dialect,
                    moves,
                    failure: Some((i, d)),
                };
            }
        }
    }
    Run {
        dialect,
        moves,
        failure: None,
    }
}

/// The dialect of a game's main-line tokens played from `start`, and a diagnostic when
/// the choice is a tie (`notation-tie`: a note when the dialects read the same moves, a
/// warning when they read different ones) or a failure (`notation-unknown`, a warning
/// naming the token where the best dialect stops). When exactly one dialect
/// replays furthest and stops on an illegal or ambiguous move (not on a token it cannot
/// read), that dialect is chosen silently: the replay reports the move itself.
///
/// Chinese characters decide Chinese outright. Otherwise every other dialect is
/// replayed; those that replay the whole line survive; a tie is broken by preference:
/// the Vietnamese dialects first (old, Asian, new) when Vietnamese-only letters
/// (X M T V, diacritics) appear, otherwise ICCS, WXF, then the Vietnamese ones.
pub fn infer_dialect(start: &Position, tokens: &[&str]) -> (Dialect, Option<Diagnostic>) {
    if tokens.is_empty() {
        return (Dialect::Iccs, None);
    }
    let order: Vec<Dialect> = if let Some(g) = has_cjk(tokens) {
        vec![Dialect::Chinese(g)]
    } else if vietnamese_letters(tokens) {
        vec![
            Dialect::OldVietnamese,
            Dialect::Asian,
            Dialect::NewVietnamese,
            Dialect::Wxf,
            Dialect::Iccs,
        ]
    } else {
        vec![
            Dialect::Iccs,
            Dialect::Wxf,
            Dialect::OldVietnamese,
            Dialect::Asian,
            Dialect::NewVietnamese,
        ]
    };
    let runs: Vec<Run> = order
        .iter()
        .map(|d| replay_length(start, tokens, *d))
        .collect();
    let survivors: Vec<&Run> = runs.iter().filter(|r| r.failure.is_none()).collect();
    match survivors.as_slice() {
        [one] => (one.dialect, None),
        [first, rest @ ..] => {
            let names: Vec<String> = survivors.iter().map(|r| r.dialect.to_string()).collect();
            let chosen = first.dialect;
            let diag = if rest.iter().all(|r| r.moves == first.moves) {
                Diagnostic::note(
                    Code::NotationTie,
                    format!(
                        "the game replays in {}; chose {chosen} by preference",
                        names.join(", ")
                    ),
                )
            } else {
                // the same text is a different game in another notation: the reader
                // must know, and name the notation if the preference is wrong
                let other = rest
                    .iter()
                    .find(|r| r.moves != first.moves)
                    .map_or(chosen, |r| r.dialect);
                Diagnostic::warning(
                    Code::NotationTie,
                    format!(
                        "the game replays in {} with different moves ({other} reads another game); chose {chosen} by preference (give --notation to choose)",
                        names.join(", ")
                    ),
                )
            };
            (chosen, Some(diag))
        }
        [] => {
            // the one that replays furthest; the first in preference order on a tie
            let mut best: Option<&Run> = None;
            for r in &runs {
                if best.is_none_or(|b| r.moves.len() > b.moves.len()) {
                    best = Some(r);
                }
            }
            let tied = best.is_some_and(|b| {
                runs.iter()
                    .filter(|r| r.moves.len() == b.moves.len())
                    .count()
                    > 1
            });
            match best {
                // the notation is clear and the game has an illegal or ambiguous move:
                // the replay reports it at its ply, nothing to add here
                Some(Run {
                    dialect: d,
                    failure: Some((_, err)),
                    ..
                }) if !tied && !matches!(err.code, Code::InvalidMove | Code::UnknownPiece) => {
                    (*d, None)
                }
                Some(Run {
                    dialect: d,
                    moves,
                    failure: Some((i, err)),
                }) => (
                    *d,
                    Some(Diagnostic::warning(
                        Code::NotationUnknown,
                        format!(
                            "no notation replays the whole game; {d} replays furthest ({} plies), failing at token {} `{}`: {}",
                            moves.len(),
                            i + 1,
                            tokens.get(*i).copied().unwrap_or(""),
                            err.message
                        ),
                    )),
                ),
                _ => (Dialect::Iccs, None),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::START_FEN as START;

    fn play_all(dialect: Dialect, tokens: &[&str]) -> Result<Vec<String>, Diagnostic> {
        let mut pos = Position::default();
        tokens
            .iter()
            .map(|t| read_play(t, dialect, &mut pos).map(|r| r.mv.iccs()))
            .collect()
    }

    #[test]
    fn the_same_opening_in_every_dialect() {
        let want = ["h2e2", "h9g7", "h0g2", "i9h9"];
        let cases: [(Dialect, [&str; 4]); 8] = [
            (Dialect::Iccs, ["h2e2", "h9g7", "H0-G2", "i9h9"]),
            (
                Dialect::Chinese(Glyphs::Simplified),
                ["炮二平五", "马８进７", "马二进三", "车９平８"],
            ),
            (
                Dialect::Chinese(Glyphs::Traditional),
                ["炮二平五", "馬8進7", "傌二進三", "車９平８"],
            ),
            (Dialect::Wxf, ["C2.5", "H8+7", "H2+3", "R9.8"]),
            (Dialect::Wxf, ["Ｃ２＝５", "h8+7", "N2+3", "R9=8"]),
            (Dialect::OldVietnamese, ["P2-5", "M8.7", "M2.3", "-X9-8"]),
            (Dialect::Asian, ["P2=5", "M8+7", "M2+3", "X9=8"]),
            (Dialect::NewVietnamese, ["Phe2", "Mg7", "Mg2", "Xh9"]),
        ];
        for (d, toks) in cases {
            assert_eq!(play_all(d, &toks).unwrap(), want, "{d} {toks:?}");
        }
    }

    #[test]
    fn errors_by_family() {
        let cases = [
            (Dialect::Wxf, "C2", "invalid-move"),
            (Dialect::Wxf, "C3.5", "illegal-move"),
            (Dialect::Wxf, "R1.2", "illegal-move"),
            (
                Dialect::Chinese(Glyphs::Simplified),
                "前炮平五",
                "illegal-move",
            ),
            (Dialect::OldVietnamese, "P2=5", "invalid-move"),
            (Dialect::NewVietnamese, "Mf2", "illegal-move"),
            (
                Dialect::Chinese(Glyphs::Simplified),
                "炮二平五马８进７",
                "invalid-move",
            ),
        ];
        for (d, tok, code) in cases {
            let mut pos = Position::default();
            let e = read_play(tok, d, &mut pos).unwrap_err();
            assert_eq!(e.code, code, "{tok}: {}", e.message);
            assert_eq!(pos, Position::default());
        }
    }

    /// The errors have the chess reader's families and message shapes.
    #[test]
    fn error_messages_as_for_chess() {
        let chariots = "4k4/9/9/9/R8/9/9/9/9/R2K5 w - - 0 1";
        let after_c25_h87_c54 =
            "rnbakab1r/9/1c4nc1/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2";
        let cases = [
            (
                START,
                Dialect::Wxf,
                "C2",
                "invalid-move",
                "invalid move C2: expected a wxf move (letter, file or +/-, operator and a digit such as C2.5 or R+.3), found C2",
            ),
            (
                START,
                Dialect::Wxf,
                "X2.5",
                "unknown-piece",
                "unknown piece letter X in X2.5: wxf pieces are A B C E G H K M N P R S",
            ),
            (
                START,
                Dialect::OldVietnamese,
                "P3.1",
                "illegal-move",
                "illegal move P3.1: expected a red cannon on file 3, found none",
            ),
            (
                START,
                CN,
                "炮二进五",
                "illegal-move",
                "illegal move 炮二进五: the red cannon on file 2 cannot move there",
            ),
            (
                after_c25_h87_c54,
                Dialect::Wxf,
                "C2.5",
                "illegal-move",
                "illegal move C2.5: the black cannon on file 2 cannot move there: the black general would be in check",
            ),
            (
                chariots,
                CN,
                "车九进一",
                "ambiguous-move",
                "ambiguous move 车九进一: it fits 后车进一 and 前车进一",
            ),
            (
                START,
                CN,
                "炮二平五马８进７",
                "invalid-move",
                "invalid move 炮二平五马８进７: expected one move, found 2 moves written together (read_play_many reads them)",
            ),
        ];
        for (fen, d, tok, code, message) in cases {
            let mut pos = Position::from_fen(fen).unwrap();
            let e = read_play(tok, d, &mut pos).unwrap_err();
            assert_eq!(
                (e.code.as_str(), e.message.as_str()),
                (code, message),
                "{tok}"
            );
            let typed = read_play_with(tok, Grammar::of(d), &mut pos).unwrap_err();
            assert_eq!(typed.to_diagnostic(), e, "{tok}");
        }
    }

    #[test]
    fn grouping_tokens() {
        let toks = [
            "Pháo2",
            "bình",
            "5",
            "Mã",
            "2",
            "tiến",
            "3",
            "-",
            "X2.1",
            "Xe sau bình 2",
        ];
        let groups = group_tokens(&toks);
        assert_eq!(groups, [0..3, 3..7, 8..9, 9..10]);
        let mut pos = Position::default();
        let moves: Vec<String> = groups
            .iter()
            .take(2)
            .map(|r| {
                let text = toks[r.clone()].join(" ");
                read_play(&text, Dialect::OldVietnamese, &mut pos)
                    .unwrap()
                    .mv
                    .iccs()
            })
            .collect();
        assert_eq!(moves, ["h2e2", "b9c7"]);
    }

    /// Random strings over the notations' characters never panic, in any dialect.
    #[test]
    fn random_tokens_do_not_panic() {
        let alphabet: Vec<char> =
            "CHRPKAEBNMSTXVGtgsabcde0123456789+-./=前中后炮马车兵卒进退平一二五９Ｃ＋ ơáạ-"
                .chars()
                .collect();
        let mut rng = crate::testing::XorShift::new(0x2545_F491_4F6C_DD1D);
        let mut dialects = Dialect::ALL.to_vec();
        dialects.push(Dialect::Chinese(Glyphs::Traditional));
        for _ in 0..20_000 {
            let len = rng.below(9);
            let tok: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            for d in &dialects {
                let mut pos = Position::default();
                let before = pos.clone();
                if read_play(&tok, *d, &mut pos).is_err() {
                    assert_eq!(pos, before, "{tok} {d}");
                }
                let _ = read_play_many(&tok, *d, &mut pos);
            }
            let _ = split_moves(&tok);
            let _ = group_tokens(&[tok.as_str(), "2", "binh"]);
        }
    }

    #[test]
    fn write_a_line() {
        let moves: Vec<Move> = ["h2e2", "h9g7", "h0g2"]
            .iter()
            .map(|m| Move::parse_iccs(m).unwrap())
            .collect();
        let start = Position::default();
        assert_eq!(
            write_line(&start, &moves, Dialect::Wxf).unwrap(),
            ["C2.5", "H8+7", "H2+3"]
        );
        let bad = [moves[0], moves[0]];
        let (done, e) = write_line(&start, &bad, Dialect::Wxf).unwrap_err();
        assert_eq!(done, ["C2.5"]);
        assert_eq!(e.mv, moves[0]);
    }

    #[test]
    fn many_moves_in_one_token() {
        let mut pos = Position::default();
        let r = read_play_many(
            "炮二平五马８进７",
            Dialect::Chinese(Glyphs::Simplified),
            &mut pos,
        )
        .unwrap();
        let got: Vec<String> = r.iter().map(|r| r.mv.iccs()).collect();
        assert_eq!(got, ["h2e2", "h9g7"]);
    }

    #[test]
    fn split_movetext() {
        let cases: [(&str, &[&str]); 4] = [
            (
                "1) Pháo2 bình 5  Mã 2 tiến 3 2) Ma 8 tan 7 Phao 8 binh 5",
                &["Pháo2 bình 5", "Mã 2 tiến 3", "Ma 8 tan 7", "Phao 8 binh 5"],
            ),
            (
                "1. 炮二平五马８进７ 2.马二进三",
                &["炮二平五", "马8进7", "马二进三"],
            ),
            ("1. X2.1  -Tg6.1 1-0", &["X2.1", "-Tg6.1"]),
            (
                "1. P9.1-Tg6.1 2. X3-2- T9/7 3. H2-E2",
                &["P9.1", "Tg6.1", "X3-2", "T9/7", "H2-E2"],
            ),
        ];
        for (text, want) in cases {
            assert_eq!(split_moves(text), want, "{text}");
        }
    }

    #[test]
    fn inference() {
        let start = Position::default();
        // (tokens, chosen dialect, diagnostic code)
        let cases: [(&[&str], Dialect, Option<&str>); 6] = [
            (&["h2e2", "h9g7"], Dialect::Iccs, None),
            (
                &["炮二平五", "馬８進７"],
                Dialect::Chinese(Glyphs::Traditional),
                None,
            ),
            (&["C2.5", "H8+7"], Dialect::Wxf, None),
            (&["P2-5", "M8.7", "M2.3"], Dialect::OldVietnamese, None),
            (&["P2=5", "M8+7"], Dialect::Asian, None),
            (&["Phe2", "Mg7"], Dialect::NewVietnamese, None),
        ];
        for (toks, want, code) in cases {
            let (d, diag) = infer_dialect(&start, toks);
            assert_eq!(d, want, "{toks:?}");
            assert_eq!(diag.map(|d| d.code.as_str()), code, "{toks:?}");
        }
        // `.` advance (Vietnam) or retreat (Asian): both legal here, a tie
        let mid = Position::from_fen("4k4/9/9/9/9/8R/9/9/9/3K5 w - - 0 1").unwrap();
        let (d, diag) = infer_dialect(&mid, &["X1.1"]);
        assert_eq!(d, Dialect::OldVietnamese);
        let diag = diag.unwrap();
        assert_eq!(diag.code, "notation-tie");
        assert!(
            diag.message.contains("vietnamese-old, asian"),
            "{}",
            diag.message
        );
        // the two read different moves (advance, retreat): a warning, not a note
        assert_eq!(
            diag.severity,
            crate::model::diag::Severity::Warning,
            "{}",
            diag.message
        );
        // `B3+1`: a WXF elephant to file 1, or an Asian-marks pawn one step up
        let (d, diag) = infer_dialect(&start, &["B3+1"]);
        assert_eq!(d, Dialect::Wxf);
        let diag = diag.unwrap();
        assert_eq!(
            (diag.code.as_str(), diag.severity),
            ("notation-tie", crate::model::diag::Severity::Warning)
        );
        assert!(
            diag.message.contains("asian reads another game"),
            "{}",
            diag.message
        );
        for d in Dialect::ALL {
            assert_eq!(d.to_string().parse::<Dialect>(), Ok(d));
        }
        assert!("klingon".parse::<Dialect>().is_err());
        // a clear notation with an illegal move: no notation diagnostic
        let (d, diag) = infer_dialect(&start, &["h2e2", "h9h5"]);
        assert_eq!((d, diag), (Dialect::Iccs, None));
        let (d, diag) = infer_dialect(&start, &["h2e2", "zz"]);
        assert_eq!(d, Dialect::Iccs);
        assert_eq!(diag.map(|d| d.code.as_str()), Some("notation-unknown"));
    }

    const CN: Dialect = Dialect::Chinese(Glyphs::Simplified);
    const TW: Dialect = Dialect::Chinese(Glyphs::Traditional);

    fn fold_digits(s: &str) -> String {
        s.chars()
            .map(|c| match c {
                '１'..='９' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
                _ => c,
            })
            .collect()
    }

    /// Tandem and multi-soldier positions: for each move, its canonical form in every
    /// dialect; each form reads back to the move.
    #[test]
    fn tandem_and_multi_soldier_forms() {
        // (fen, iccs, [chinese, wxf, old vietnamese, asian, new vietnamese])
        let three = "5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1";
        let four = "4k4/P8/P8/P8/P8/9/9/9/9/3K5 w - - 0 1";
        let five = "P3k4/P8/P8/P8/P8/9/9/9/9/3K5 w - - 0 1";
        let two_files = "4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1";
        let chariots = "4k4/9/9/9/R8/9/9/9/9/R2K5 w - - 0 1";
        let black_chariots = "r3k4/9/9/9/9/r8/9/9/9/3K5 b - - 0 1";
        let cases: [(&str, &str, [&str; 5]); 17] = [
            (three, "e7d7", ["前兵平六", "P+.6", "Bt-6", "Bt=6", "Bd7"]),
            (three, "e6d6", ["中兵平六", "P5.6", "Bg-6", "Bg=6", "Bd6"]),
            (three, "e5f5", ["后兵平四", "P-.4", "Bs-4", "Bs=4", "Bf5"]),
            (four, "a8b8", ["一兵平八", "++.8", "Ba-8", "Ba=8", "Bb8"]),
            (four, "a7b7", ["二兵平八", "P+.8", "Bb-8", "Bb=8", "Bb7"]),
            (four, "a6b6", ["三兵平八", "P-.8", "Bc-8", "Bc=8", "Bb6"]),
            (four, "a5b5", ["四兵平八", "--.8", "Bd-8", "Bd=8", "Bb5"]),
            (five, "a9b9", ["一兵平八", "++.8", "Ba-8", "Ba=8", "Bb9"]),
            (five, "a8b8", ["二兵平八", "P+.8", "Bb-8", "Bb=8", "Bb8"]),
            (five, "a7b7", ["三兵平八", "P9.8", "Bc-8", "Bc=8", "Bb7"]),
            (five, "a5b5", ["五兵平八", "--.8", "Be-8", "Be=8", "Bb5"]),
            (
                two_files,
                "c6b6",
                ["前兵七平八", "7+.8", "Bt7-8", "Bt7=8", "Bb6"],
            ),
            (
                two_files,
                "g6f6",
                ["中兵三平四", "33.4", "Bg3-4", "Bg3=4", "Bf6"],
            ),
            (
                two_files,
                "g5h5",
                ["后兵三平二", "3-.2", "Bs3-2", "Bs3=2", "Bh5"],
            ),
            (
                chariots,
                "a5a6",
                ["前车进一", "R++1", "Xt.1", "Xt+1", "Xa6"],
            ),
            (
                chariots,
                "a0b0",
                ["后车平八", "R-.8", "Xs-8", "Xs=8", "Xb0"],
            ),
            (
                black_chariots,
                "a4a3",
                ["前车进1", "R++1", "Xt.1", "Xt+1", "Xa3"],
            ),
        ];
        let dialects = [
            CN,
            Dialect::Wxf,
            Dialect::OldVietnamese,
            Dialect::Asian,
            Dialect::NewVietnamese,
        ];
        for (fen, iccs, forms) in cases {
            let pos = Position::from_fen(fen).unwrap();
            let mv = Move::parse_iccs(iccs).unwrap();
            for (d, want) in dialects.into_iter().zip(forms) {
                let mut s = String::new();
                write(&mut s, &pos, mv, d);
                assert_eq!(fold_digits(&s), want, "{fen} {iccs} {d}");
                let mut p = pos.clone();
                let r = read_play(want, d, &mut p).unwrap_or_else(|e| panic!("{want}: {e:?}"));
                assert_eq!(r.mv, mv, "{want} {d}");
            }
        }
    }

    /// Other ways real records write tandem pieces.
    #[test]
    fn tandem_variants_read() {
        let two_files = "4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1";
        let cases = [
            // xqbase: soldiers on several files numbered right to left, front to back
            (two_files, TW, "二兵平四", "g6f6"),
            (two_files, Dialect::Wxf, "Pb.4", "g6f6"),
            // print practice: the piece name left out
            (two_files, CN, "前七平八", "c6b6"),
            // wukong xqdb: the sign before the letter, full width
            (
                "4k4/9/9/9/4P4/4P4/9/9/9/3K5 w - - 0 1",
                Dialect::Wxf,
                "＋Ｐ＋１",
                "e5e6",
            ),
            (
                "4k4/9/9/9/4P4/4P4/9/9/9/3K5 w - - 0 1",
                Dialect::Wxf,
                "+P.4",
                "e5f5",
            ),
            // traditional 後, variant 俥
            (
                "4k4/9/9/9/R8/9/9/9/9/R2K5 w - - 0 1",
                TW,
                "後俥平八",
                "a0b0",
            ),
            // the Vietnamese words
            (
                "4k4/9/9/9/R8/9/9/9/9/R2K5 w - - 0 1",
                Dialect::OldVietnamese,
                "Xe sau bình 8",
                "a0b0",
            ),
            (
                "5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1",
                Dialect::OldVietnamese,
                "Binh giữa bình 6",
                "e6d6",
            ),
        ];
        for (fen, d, tok, want) in cases {
            let mut pos = Position::from_fen(fen).unwrap();
            let r = read_play(tok, d, &mut pos).unwrap_or_else(|e| panic!("{tok}: {e:?}"));
            assert_eq!(r.mv.iccs(), want, "{tok}");
        }
    }

    /// Front/rear left out: resolved by legality with a note, or ambiguous.
    #[test]
    fn omitted_tandem_mark() {
        let chariots = "4k4/9/9/9/R8/9/9/9/9/R2K5 w - - 0 1";
        let mut pos = Position::from_fen(chariots).unwrap();
        let r = read_play("车九退一", CN, &mut pos).unwrap();
        assert_eq!(r.mv.iccs(), "a5a4");
        assert_eq!(
            r.remarks.first().map(|d| d.code.as_str()),
            Some("tandem-mark-omitted")
        );
        let mut pos = Position::from_fen(chariots).unwrap();
        let e = read_play("车九进一", CN, &mut pos).unwrap_err();
        assert_eq!(e.code, "ambiguous-move");
        let mut c = e.candidates.clone();
        c.sort();
        assert_eq!(c, ["前车进一", "后车进一"]);
        let mut pos = Position::from_fen(chariots).unwrap();
        let e = read_play("R9+1", Dialect::Wxf, &mut pos).unwrap_err();
        let mut c = e.candidates.clone();
        c.sort();
        assert_eq!(c, ["R++1", "R-+1"]);
        // advisors and elephants never take a mark: no note
        let mut pos = Position::default();
        let r = read_play("相三进五", CN, &mut pos).unwrap();
        assert!(r.remarks.is_empty());
    }

    /// The same string, different moves (or none) in different dialects.
    #[test]
    fn ambiguities_between_dialects() {
        let start = START;
        let after_c25 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        // (fen, token, dialect, Ok(iccs) or Err(code))
        let cases: [(&str, &str, Dialect, Result<&str, &str>); 19] = [
            // `.`: advance in Vietnam, retreat in the Asian marks, sideways in WXF
            (start, "M2.3", Dialect::OldVietnamese, Ok("h0g2")),
            (start, "M2.3", Dialect::Asian, Err("illegal-move")),
            (start, "P2.5", Dialect::Wxf, Err("illegal-move")),
            (start, "P2.5", Dialect::OldVietnamese, Err("illegal-move")),
            (after_c25, "M2.3", Dialect::OldVietnamese, Ok("b9c7")),
            // `-`: sideways in Vietnam, retreat in WXF
            (start, "P2-5", Dialect::OldVietnamese, Ok("h2e2")),
            (start, "P2-5", Dialect::Wxf, Err("illegal-move")),
            // `P`: cannon in Vietnamese, soldier in WXF
            (start, "P7+1", Dialect::Wxf, Ok("c3c4")),
            (start, "P7+1", Dialect::Asian, Err("illegal-move")),
            // `C`: soldier in old Vietnamese (some sheets), cannon in WXF
            (start, "C2.5", Dialect::Wxf, Ok("h2e2")),
            (start, "C2.5", Dialect::OldVietnamese, Err("illegal-move")),
            (start, "C3.1", Dialect::OldVietnamese, Ok("g3g4")),
            // `T`: elephant in the old notation, general in the new
            (start, "T3.5", Dialect::OldVietnamese, Ok("g0e2")),
            (start, "Te1", Dialect::NewVietnamese, Ok("e0e1")),
            (start, "T3.5", Dialect::NewVietnamese, Err("invalid-move")),
            // letters only one system has: an unknown piece letter, as in chess
            (start, "H2+3", Dialect::Asian, Err("unknown-piece")),
            (start, "X1.1", Dialect::Wxf, Err("unknown-piece")),
            (start, "Q1.1", Dialect::Wxf, Err("unknown-piece")),
            (start, "Q1", Dialect::Wxf, Err("invalid-move")),
        ];
        for (fen, tok, d, want) in cases {
            let mut pos = Position::from_fen(fen).unwrap();
            let got = read_play(tok, d, &mut pos)
                .map(|r| r.mv.iccs())
                .map_err(|e| e.code.as_str());
            assert_eq!(got, want.map(String::from), "{tok} {d}");
        }
    }
}
