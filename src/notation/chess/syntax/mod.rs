//! Move text → [`SanSyntax`], never looking at a position.
//!
//! The grammar is `grammars/san.ebnf`; each nom function below is one production and
//! names it. Clean ASCII SAN under a table of single ASCII letters goes through a
//! hand-written byte fast path first ([`fast`], in the private module `fast.rs` with
//! the tests that hold it to the grammar); everything else (long forms, other scripts,
//! FIDE promotions, glyphs, `e.p.` …) through the nom grammar.

use crate::model::diag::Code;
use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char as ch, one_of, space0};
use nom::combinator::{opt, value};
use nom::{IResult, Parser};

mod fast;

pub use fast::fast;
use fast::{Verdict, common, common_lettered, fast_into};
pub(crate) use fast::{common_into, common_lettered_alone};

use super::fold::fold;
use super::lang::{LetterCase, PieceTable};
use crate::archive::pgn::marks::{self, Mark};
use crate::chess::{CastlingSide, File, Rank, Role, Square};

/// The check or mate mark written after a move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum CheckMark {
    /// No mark.
    #[default]
    None,
    /// `+` or `†`.
    Check,
    /// `#` or `‡`.
    Mate,
    /// `++`: mate in FIDE's text, double check in older books; read from the position.
    DoubleCheck,
}

/// How a move was written, beyond what it says: one bit per non-canonical or
/// language-specific feature, for notes and for choosing an output style.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Form(u16);

impl Form {
    /// The piece letter was written in lower case (`nf3`).
    pub const LOWERCASE_PIECE: Form = Form(1);
    /// A pawn letter was written (`Pe4`).
    pub const PAWN_LETTER: Form = Form(1 << 1);
    /// Castling with zeros (`0-0`, `00`).
    pub const ZERO_CASTLE: Form = Form(1 << 2);
    /// Castling with lower-case `o` (`o-o`) or without dashes (`OO`).
    pub const ODD_CASTLE: Form = Form(1 << 3);
    /// Promotion without `=` (`d8H`, `e8Q`).
    pub const BARE_PROMOTION: Form = Form(1 << 4);
    /// Promotion in brackets or after a slash (`e8(Q)`, `e8/Q`).
    pub const ODD_PROMOTION: Form = Form(1 << 5);
    /// Promotion letter in lower case (`e7e8q`).
    pub const LOWER_PROMOTION: Form = Form(1 << 6);
    /// Capture written with `:` (`e:d5`).
    pub const COLON_CAPTURE: Form = Form(1 << 7);
    /// Long form with a hyphen between the squares (`e2-e4`, `Ng1-f3`).
    pub const HYPHEN: Form = Form(1 << 8);
    /// The text needed folding (full-width, Persian digits, look-alike dashes …).
    pub const FOLDED: Form = Form(1 << 9);
    /// Check or mate written with a dagger (`†`, `‡`).
    pub const DAGGER: Form = Form(1 << 10);
    /// The null move was written `Z0` or `0000` rather than `--`.
    pub const ODD_NULL: Form = Form(1 << 11);

    pub const fn empty() -> Form {
        Form(0)
    }

    pub const fn contains(self, other: Form) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn insert(&mut self, other: Form) {
        self.0 |= other.0;
    }

    pub const fn bits(self) -> u16 {
        self.0
    }
}

/// One move as written, before it meets a position (grammar: `grammars/san.ebnf`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanSyntax {
    /// The moving piece; `Pawn` when no letter was written (or `P`, see [`Form`]).
    pub role: Role,
    /// Origin file, when written (`Ngf3`, `exd5`, `Ng1f3`).
    pub from_file: Option<File>,
    /// Origin rank, when written (`N5f3`, `Ng1f3`).
    pub from_rank: Option<Rank>,
    /// A capture mark (`x`, `:`, `×`) was written.
    pub capture: bool,
    /// Destination (`A1` for castling and null moves: see `castle` and `null`).
    pub to: Square,
    /// Promotion piece, when written (`e8=Q`, `d8H`).
    pub promotion: Option<Role>,
    /// Castling, when the move is `O-O`/`0-0` (king side) or `O-O-O`/`0-0-0`.
    pub castle: Option<CastlingSide>,
    /// The null move (`--`, `Z0`, `0000`).
    pub null: bool,
    /// Check or mate mark.
    pub check: CheckMark,
    /// `e.p.` (or `ep`, `e. p.`) was written.
    pub ep: bool,
    /// Move glyph as a NAG: `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6.
    pub nag: Option<u8>,
    /// `(=)`, a draw offer, followed the move.
    pub draw_offer: bool,
    /// When a leading lower-case letter was read as a file (`bxc3`), the piece the
    /// same letter names in the table (`Bishop`): the resolver tries it when no pawn
    /// move fits.
    pub alt_role: Option<Role>,
    /// How it was written.
    pub form: Form,
}

impl SanSyntax {
    pub(crate) const fn blank() -> SanSyntax {
        SanSyntax {
            role: Role::Pawn,
            from_file: None,
            from_rank: None,
            capture: false,
            to: Square::A1,
            promotion: None,
            castle: None,
            null: false,
            check: CheckMark::None,
            ep: false,
            nag: None,
            draw_offer: false,
            alt_role: None,
            form: Form::empty(),
        }
    }

    /// The origin square when both file and rank were written (long algebraic).
    pub fn from_square(&self) -> Option<Square> {
        match (self.from_file, self.from_rank) {
            (Some(f), Some(r)) => Some(Square::from_coords(f, r)),
            _ => None,
        }
    }
}

/// Why a token is not a move (the "invalid" family).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// Nothing to read.
    Empty,
    /// A letter that is not a piece letter of the table, followed by a valid move
    /// (`Sf3` under English): never read as the pawn move `f3`.
    UnknownPiece {
        letter: String,
        token: String,
        language: &'static str,
        known: String,
    },
    /// Not a move at all, or trailing text after a move.
    Invalid {
        token: String,
        expected: &'static str,
        found: String,
    },
}

impl crate::notation::error::TokenError for SyntaxError {
    /// The stable diagnostic code: `unknown-piece` or `invalid-move`.
    fn code(&self) -> Code {
        match self {
            SyntaxError::UnknownPiece { .. } => Code::UnknownPiece,
            SyntaxError::Empty | SyntaxError::Invalid { .. } => Code::InvalidMove,
        }
    }

    /// As an error diagnostic (no span: the caller knows where the token was).
    fn to_diagnostic(&self) -> crate::model::diag::Diagnostic {
        crate::model::diag::Diagnostic::error(self.code(), self.to_string())
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::Empty => f.write_str("expected a move, found nothing"),
            SyntaxError::UnknownPiece {
                letter,
                token,
                language,
                known,
            } => write!(
                f,
                "unknown piece letter {letter} in {token}: {language} pieces are {known}"
            ),
            SyntaxError::Invalid {
                token,
                expected,
                found,
            } => write!(
                f,
                "invalid move {token}: expected {expected}, found {found}"
            ),
        }
    }
}

impl std::error::Error for SyntaxError {}

/// Reads one move token under `table`'s piece letters. The token is folded first
/// (full-width, Persian digits, look-alike dashes and spaces …, see [`fold`]); one
/// token may hold a space before `e.p.` or `(=)`.
#[inline]
pub fn parse(token: &str, table: &PieceTable) -> Result<SanSyntax, SyntaxError> {
    let mut san = SanSyntax::blank();
    parse_into(token, table, &mut san).map(|()| san)
}

/// [`parse`], writing the move into `san` (which must be [`SanSyntax::blank`]; on an
/// error it holds anything): for a caller that reads many moves, so that the move is
/// built where it is used and only a small result is returned. A token the fast path
/// does not read goes to [`parse_folded`], out of line.
#[inline]
pub fn parse_into(token: &str, table: &PieceTable, san: &mut SanSyntax) -> Result<(), SyntaxError> {
    if !fast_into(token, table, san) {
        *san = parse_folded(token, table)?;
    }
    Ok(())
}

/// [`parse`] for a token the fast path does not read: folded, then the full grammar.
#[inline(never)]
fn parse_folded(token: &str, table: &PieceTable) -> Result<SanSyntax, SyntaxError> {
    let folded = fold(token);
    let mut san = parse_lenient(&folded, table)?;
    if folded.as_ref() != token {
        san.form.insert(Form::FOLDED);
    }
    Ok(san)
}

/// Does [`parse`] read `token` under `table`? The same answer, without building the
/// error (which names the table's letters): for trying many tables on one token.
pub fn accepts(token: &str, table: &PieceTable) -> bool {
    parse_ok(token, table).is_some()
}

/// [`parse`] without the error: the same syntax when it reads `token`, `None` when it
/// fails (no message is built). For reading a game under many tables and keeping the
/// syntax of the one that reads it all.
///
/// Inlined into such loops: the common shapes ([`common`], [`common_lettered`]) are
/// read here, without a call; whatever they do not read goes to [`parse_ok_rest`],
/// which starts again from [`fast`] (whose first step is the same shapes).
#[inline(always)]
pub fn parse_ok(token: &str, table: &PieceTable) -> Option<SanSyntax> {
    let mut san = SanSyntax::blank();
    match common_shape(token, table, &mut san) {
        Shape::Lettered | Shape::Ascii => Some(san),
        Shape::Other => parse_ok_rest(token, table),
    }
}

/// Which of the common shapes [`common_shape`] read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// [`common_lettered`]: a piece letter outside ASCII, then only the bytes
    /// `a`…`h`, `1`…`8`, `x`, `+` and `#`.
    Lettered,
    /// [`common`]: ASCII.
    Ascii,
    /// Neither: [`parse_ok_rest`] reads the token, if anything does.
    Other,
}

/// The common shapes of [`parse_ok`] ([`common`], [`common_lettered`]), read without a
/// call into `san` ([`SanSyntax::blank`] on entry, anything on [`Shape::Other`]), and
/// which of the two read the token: `san` is what [`parse_ok`] gives unless
/// [`Shape::Other`].
#[inline(always)]
pub(crate) fn common_shape(token: &str, table: &PieceTable, san: &mut SanSyntax) -> Shape {
    if table.fast_path_ok() {
        match token.as_bytes() {
            [first, ..] if *first >= 0x80 => {
                if common_lettered(token, table, san) == Verdict::Read {
                    return Shape::Lettered;
                }
            }
            b => {
                if common(b, table, san) == Verdict::Read {
                    return Shape::Ascii;
                }
            }
        }
    }
    Shape::Other
}

/// [`parse_ok`] for a token that is not in one of the common shapes: [`fast`], then
/// the grammar.
#[inline(never)]
pub(crate) fn parse_ok_rest(token: &str, table: &PieceTable) -> Option<SanSyntax> {
    if let Some(s) = fast(token, table) {
        return Some(s);
    }
    if foreign_capital(token, table) {
        return None;
    }
    let folded = fold(token);
    if folded.is_empty() {
        return None;
    }
    let mut san = lenient(&folded, table).ok()?;
    if folded.as_ref() != token {
        san.form.insert(Form::FOLDED);
    }
    Some(san)
}

/// Does `token` start with an upper-case ASCII letter that starts no move under
/// `table` (`Mf3` under German)? One that is no letter of the table (whose letters are
/// then all seen by [`PieceTable::match_letter`] from the first byte), nor `O`
/// (castling), nor `Z` (`Z0`): every other move starts with a piece letter, a file, a
/// rank, a capture mark, `-` or `0` (`grammars/san.ebnf`), and folding leaves an ASCII
/// letter first where it was. For turning a table down without the grammar; the test
/// `foreign_capitals_start_no_move` holds it to the grammar.
#[inline]
fn foreign_capital(token: &str, table: &PieceTable) -> bool {
    match token.as_bytes().first() {
        Some(&b) if b.is_ascii_uppercase() && b != b'O' && b != b'Z' => {
            table.fast_path_ok() && table.match_letter(token).is_none()
        }
        _ => false,
    }
}

type Res<'a, T> = IResult<&'a str, T>;

/// The full grammar over a folded token.
pub fn parse_lenient(token: &str, table: &PieceTable) -> Result<SanSyntax, SyntaxError> {
    if token.is_empty() {
        return Err(SyntaxError::Empty);
    }
    lenient(token, table).map_err(|rest| unknown_or_invalid(token, table, rest))
}

/// The full grammar over a folded, non-empty token; on failure the text left over
/// after a move (`None`: no move at all), from which [`unknown_or_invalid`] makes the
/// error.
fn lenient<'a>(token: &'a str, table: &PieceTable) -> Result<SanSyntax, Option<&'a str>> {
    // `bxc3`: a file first, then the piece the same lower-case letter names
    let first_is_file = token
        .bytes()
        .next()
        .is_some_and(|b| (b'a'..=b'h').contains(&b));
    let pawn_first = if first_is_file {
        complete(token, move_token(token, table, false))
    } else {
        None
    };
    if let Some(mut san) = pawn_first {
        if san.from_rank.is_none()
            && san.from_file.is_some()
            && san.role == Role::Pawn
            && san.promotion.is_none()
            && let Some((r, LetterCase::Lower, _)) = table.match_letter(token)
            && r != Role::Pawn
        {
            san.alt_role = Some(r);
        }
        return Ok(san);
    }
    match move_token(token, table, true) {
        Ok(("", san)) => Ok(san),
        Ok((rest, _)) => match squeezed(token, table) {
            Some(san) => Ok(san),
            None => Err(Some(rest)),
        },
        Err(_) => squeezed(token, table).ok_or(None),
    }
}

/// A move typed with spaces inside (`D x d3`, `Db1 +`, `e2 - e4`, `Qh5 mate`): read
/// again without them, when there are some.
#[cold]
fn squeezed(token: &str, table: &PieceTable) -> Option<SanSyntax> {
    if !token.contains(' ') {
        return None;
    }
    let tight: String = token.chars().filter(|&c| c != ' ').collect();
    let mut san = lenient(&tight, table).ok()?;
    san.form.insert(Form::FOLDED);
    Some(san)
}

fn complete(token: &str, r: Res<'_, SanSyntax>) -> Option<SanSyntax> {
    match r {
        Ok(("", san)) => Some(san),
        _ => {
            let _ = token;
            None
        }
    }
}

/// Tells an unknown piece letter (`Sf3` under English) from other invalid text.
fn unknown_or_invalid(token: &str, table: &PieceTable, rest: Option<&str>) -> SyntaxError {
    let letter_end = token
        .char_indices()
        .find(|&(_, c)| ('a'..='h').contains(&c) || c.is_ascii_digit() || "x:-=+#!?".contains(c))
        .map_or(token.len(), |(i, _)| i);
    if letter_end > 0
        && letter_end <= 8
        && let (Some(letter), Some(tail)) = (token.get(..letter_end), token.get(letter_end..))
    {
        let starts_letter = letter
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || ('\u{2654}'..='\u{265F}').contains(&c));
        if starts_letter && matches!(move_token(tail, table, false), Ok(("", _))) {
            return SyntaxError::UnknownPiece {
                letter: letter.to_owned(),
                token: token.to_owned(),
                language: table.name,
                known: table.letters_display(),
            };
        }
    }
    match rest {
        Some(rest) => SyntaxError::Invalid {
            token: token.to_owned(),
            expected: "end of move",
            found: rest.to_owned(),
        },
        None => SyntaxError::Invalid {
            token: token.to_owned(),
            expected: "a square, a piece letter, castling or --",
            found: token.to_owned(),
        },
    }
}

/// `token = null | castling suffix | normal suffix`
fn move_token<'a>(i: &'a str, table: &PieceTable, letters: bool) -> Res<'a, SanSyntax> {
    if let Ok((rest, san)) = null_move(i) {
        return Ok((rest, san));
    }
    let (i, mut san) = match castling(i) {
        Ok(ok) => ok,
        Err(_) => normal(i, table, letters)?,
    };
    let (i, ()) = suffix(i, &mut san)?;
    Ok((i, san))
}

/// `null = "--" | "Z0" | "0000"`
fn null_move(i: &str) -> Res<'_, SanSyntax> {
    let (rest, odd) = alt((
        value(false, tag("--")),
        value(true, alt((tag("Z0"), tag("0000")))),
        value(true, null_word),
    ))
    .parse(i)?;
    let mut san = SanSyntax::blank();
    san.null = true;
    if odd {
        san.form.insert(Form::ODD_NULL);
    }
    let (rest, ()) = suffix(rest, &mut san)?;
    Ok((rest, san))
}

/// A null-move spelling of `grammars/marks.tsv` (`<>`, `pass`).
fn null_word(i: &str) -> Res<'_, &str> {
    match marks::rows()
        .iter()
        .filter(|r| r.mark == Mark::Null && i.starts_with(r.form))
        .max_by_key(|r| r.form.len())
    {
        Some(r) => Ok((i.get(r.form.len()..).unwrap_or(""), r.form)),
        None => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Tag,
        ))),
    }
}

/// `castle_o = "O" | "o" | "0"`
fn castle_o(i: &str) -> Res<'_, char> {
    one_of("Oo0").parse(i)
}

/// `castling = castle_o "-"? castle_o ("-"? castle_o)?`
fn castling(i: &str) -> Res<'_, SanSyntax> {
    let (i, (a, d1, b)) = (castle_o, opt(ch('-')), castle_o).parse(i)?;
    let (i, third) = opt((opt(ch('-')), castle_o)).parse(i)?;
    let mut san = SanSyntax::blank();
    san.castle = Some(if third.is_some() {
        CastlingSide::QueenSide
    } else {
        CastlingSide::KingSide
    });
    let chars = [Some(a), Some(b), third.map(|t| t.1)];
    if chars.iter().flatten().any(|&c| c == '0') {
        san.form.insert(Form::ZERO_CASTLE);
    }
    let dashes_missing = d1.is_none() || third.is_some_and(|t| t.0.is_none());
    if chars.iter().flatten().any(|&c| c == 'o')
        || (dashes_missing && !san.form.contains(Form::ZERO_CASTLE))
    {
        san.form.insert(Form::ODD_CASTLE);
    }
    Ok((i, san))
}

/// `normal = piece? body promotion?`
fn normal<'a>(i: &'a str, table: &PieceTable, letters: bool) -> Res<'a, SanSyntax> {
    let mut san = SanSyntax::blank();
    let i = if letters {
        match table.match_letter(i) {
            Some((role, case, len)) => {
                san.role = role;
                if role == Role::Pawn {
                    san.form.insert(Form::PAWN_LETTER);
                }
                if case == LetterCase::Lower {
                    san.form.insert(Form::LOWERCASE_PIECE);
                }
                i.get(len..).unwrap_or("")
            }
            None => i,
        }
    } else {
        i
    };
    let (i, ()) = body(i, &mut san)?;
    // UCI (`e7e8q`: long, no piece letter): promotion letters are English
    let uci = san.role == Role::Pawn
        && !san.form.contains(Form::PAWN_LETTER)
        && san.from_square().is_some();
    if uci && let Ok((rest, role)) = uci_promotion(i) {
        san.promotion = Some(role);
        san.form.insert(Form::BARE_PROMOTION);
        san.form.insert(Form::LOWER_PROMOTION);
        return Ok((rest, san));
    }
    let (i, promo) = opt(|i| promotion(i, table)).parse(i)?;
    if let Some((role, form)) = promo {
        san.promotion = Some(role);
        san.form.insert(form);
    }
    Ok((i, san))
}

/// `body = long | short`
fn body<'a>(i: &'a str, san: &mut SanSyntax) -> Res<'a, ()> {
    if let Ok((rest, (from, sep, to))) = long(i) {
        san.from_file = Some(from.file());
        san.from_rank = Some(from.rank());
        san.to = to;
        match sep {
            Some(Sep::Hyphen) => san.form.insert(Form::HYPHEN),
            Some(Sep::Capture(colon)) => {
                san.capture = true;
                if colon {
                    san.form.insert(Form::COLON_CAPTURE);
                }
            }
            None => {}
        }
        return Ok((rest, ()));
    }
    let (rest, (file, rank, cap, to)) = short(i)?;
    san.from_file = file;
    san.from_rank = rank;
    san.to = to;
    if let Some(colon) = cap {
        san.capture = true;
        if colon {
            san.form.insert(Form::COLON_CAPTURE);
        }
    }
    Ok((rest, ()))
}

#[derive(Copy, Clone)]
enum Sep {
    Hyphen,
    /// `true` for `:`.
    Capture(bool),
}

/// `long = square ("-" | capture)? square`
fn long(i: &str) -> Res<'_, (Square, Option<Sep>, Square)> {
    (
        square,
        opt(alt((
            value(Sep::Hyphen, ch('-')),
            capture.map(Sep::Capture),
        ))),
        square,
    )
        .parse(i)
}

/// `short = file capture? square | rank capture? square | capture? square`
#[allow(clippy::type_complexity)]
fn short(i: &str) -> Res<'_, (Option<File>, Option<Rank>, Option<bool>, Square)> {
    alt((
        (file, opt(capture), square).map(|(f, c, s)| (Some(f), None, c, s)),
        (rank, opt(capture), square).map(|(r, c, s)| (None, Some(r), c, s)),
        (opt(capture), square).map(|(c, s)| (None, None, c, s)),
    ))
    .parse(i)
}

/// `capture = "x" | ":"` (`×` is folded to `x`); `true` for `:`.
fn capture(i: &str) -> Res<'_, bool> {
    alt((value(false, ch('x')), value(true, ch(':')))).parse(i)
}

/// `file = "a" … "h"`
fn file(i: &str) -> Res<'_, File> {
    let (rest, c) = one_of("abcdefgh").parse(i)?;
    match File::from_char(c) {
        Some(f) => Ok((rest, f)),
        None => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::OneOf,
        ))),
    }
}

/// `rank = "1" … "8"`
fn rank(i: &str) -> Res<'_, Rank> {
    let (rest, c) = one_of("12345678").parse(i)?;
    match Rank::from_char(c) {
        Some(r) => Ok((rest, r)),
        None => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::OneOf,
        ))),
    }
}

/// `square = file rank`
fn square(i: &str) -> Res<'_, Square> {
    (file, rank)
        .map(|(f, r)| Square::from_coords(f, r))
        .parse(i)
}

/// `uci_promotion = "q" | "r" | "b" | "n"` (after a long move without piece letter)
fn uci_promotion(i: &str) -> Res<'_, Role> {
    alt((
        value(Role::Queen, ch('q')),
        value(Role::Rook, ch('r')),
        value(Role::Bishop, ch('b')),
        value(Role::Knight, ch('n')),
    ))
    .parse(i)
}

/// `promotion = "=" letter | "(" letter ")" | "/" letter | letter`
fn promotion<'a>(i: &'a str, table: &PieceTable) -> Res<'a, (Role, Form)> {
    let letter = |i: &'a str| -> Res<'a, (Role, bool)> {
        match table.match_letter(i) {
            Some((role, case, len)) if role != Role::Pawn || case == LetterCase::Table => Ok((
                i.get(len..).unwrap_or(""),
                (role, case == LetterCase::Lower),
            )),
            _ => Err(nom::Err::Error(nom::error::Error::new(
                i,
                nom::error::ErrorKind::Tag,
            ))),
        }
    };
    let (rest, (form, (role, lower))) = alt((
        (ch('='), letter).map(|(_, l)| (Form::empty(), l)),
        (ch('('), letter, ch(')')).map(|(_, l, _)| (Form::ODD_PROMOTION, l)),
        (ch('/'), letter).map(|(_, l)| (Form::ODD_PROMOTION, l)),
        letter.map(|l| (Form::BARE_PROMOTION, l)),
    ))
    .parse(i)?;
    let mut form = form;
    if lower {
        form.insert(Form::LOWER_PROMOTION);
    }
    Ok((rest, (role, form)))
}

/// `suffix = ep? check? ep? glyph? draw_offer?`
fn suffix<'a>(i: &'a str, san: &mut SanSyntax) -> Res<'a, ()> {
    // `Bg7+–`: an evaluation glued to the move (its check is read from the position)
    let (i, eval) = opt(evaluation).parse(i)?;
    let (i, ep1) = opt(ep_mark).parse(i)?;
    let (i, check) = opt(check_mark).parse(i)?;
    // `Qh5 mate`, `Rd8ch`, `N-B7 dbl ch`: a check or mate word
    let (i, check) = match check {
        Some(c) => (i, Some(c)),
        None => match check_word(i) {
            Ok((rest, c)) => (rest, Some(c)),
            Err(_) => (i, None),
        },
    };
    let (i, ep2) = opt(ep_mark).parse(i)?;
    let (i, nag) = opt(glyph).parse(i)?;
    let (i, eval2) = opt(evaluation).parse(i)?;
    let nag = nag.or(eval).or(eval2);
    let (i, draw) = opt((space0, tag("(=)"))).parse(i)?;
    // `1. e4, e5`: a comma after the move
    let (i, _) = opt(ch(',')).parse(i)?;
    san.ep = ep1.is_some() || ep2.is_some();
    if let Some((mark, dagger)) = check {
        san.check = mark;
        if dagger {
            san.form.insert(Form::DAGGER);
        }
    }
    san.nag = nag;
    san.draw_offer = draw.is_some();
    Ok((i, ()))
}

/// `ep_mark = " "? ("e.p." | "e. p." | "e.p" | "ep")`
fn ep_mark(i: &str) -> Res<'_, ()> {
    value(
        (),
        (
            space0,
            alt((tag("e.p."), tag("e. p."), tag("e.p"), tag("ep"))),
        ),
    )
    .parse(i)
}

/// `check_mark = "++" | "+" | "#" | "†" | "‡"`; the flag is `true` for daggers.
fn check_mark(i: &str) -> Res<'_, (CheckMark, bool)> {
    alt((
        value((CheckMark::DoubleCheck, false), tag("++")),
        value((CheckMark::Check, false), ch('+')),
        value((CheckMark::Mate, false), ch('#')),
        value((CheckMark::Check, true), ch('†')),
        value((CheckMark::Mate, true), ch('‡')),
    ))
    .parse(i)
}

/// `check_word`: a check or mate word of `grammars/marks.tsv` (`ch`, `mate`, `matt`,
/// `dbl ch`), after optional spaces.
fn check_word(i: &str) -> Res<'_, (CheckMark, bool)> {
    match marks::suffix_word(i) {
        Some((mark, len)) => {
            let c = match mark {
                Mark::Mate => CheckMark::Mate,
                Mark::DoubleCheck => CheckMark::DoubleCheck,
                _ => CheckMark::Check,
            };
            Ok((i.get(len..).unwrap_or(""), (c, false)))
        }
        None => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Tag,
        ))),
    }
}

/// `evaluation = "+-" | "-+" | "+=" | "=+" | "+/-" | "-/+" | "±" | "∓" | "⩲" | "⩱" | "∞"`
/// → NAG 18, 19, 14, 15, 16, 17, 16, 17, 14, 15, 13: an evaluation glued to a move
/// (`-` is any dash, folded).
fn evaluation(i: &str) -> Res<'_, u8> {
    alt((
        value(16, tag("+/-")),
        value(17, tag("-/+")),
        value(18, tag("+-")),
        value(19, tag("-+")),
        value(14, tag("+=")),
        value(15, tag("=+")),
        value(16, ch('±')),
        value(17, ch('∓')),
        value(14, ch('⩲')),
        value(15, ch('⩱')),
        value(13, ch('∞')),
    ))
    .parse(i)
}

/// `glyph = "!!" | "??" | "!?" | "?!" | "!" | "?"` → NAG 3, 4, 5, 6, 1, 2.
fn glyph(i: &str) -> Res<'_, u8> {
    alt((
        value(3, tag("!!")),
        value(4, tag("??")),
        value(5, tag("!?")),
        value(6, tag("?!")),
        value(1, ch('!')),
        value(2, ch('?')),
    ))
    .parse(i)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::type_complexity)]
mod tests {
    use super::*;
    use crate::notation::chess::lang::{english, table};
    use crate::notation::error::TokenError;
    use crate::testing::all_words;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// (token, role, from, capture, to, promotion)
    #[test]
    fn forms_english() {
        use Role::*;
        let cases: &[(&str, Role, &str, bool, &str, Option<Role>)] = &[
            ("e4", Pawn, "", false, "e4", None),
            ("exd5", Pawn, "e", true, "d5", None),
            ("ed5", Pawn, "e", false, "d5", None),
            ("e:d5", Pawn, "e", true, "d5", None),
            ("e×d5", Pawn, "e", true, "d5", None),
            ("e2e4", Pawn, "e2", false, "e4", None),
            ("e2-e4", Pawn, "e2", false, "e4", None),
            ("e5xd4", Pawn, "e5", true, "d4", None),
            ("Nf3", Knight, "", false, "f3", None),
            ("Ngf3", Knight, "g", false, "f3", None),
            ("N5f3", Knight, "5", false, "f3", None),
            ("Ngxf3", Knight, "g", true, "f3", None),
            ("Ng1f3", Knight, "g1", false, "f3", None),
            ("Ng1-f3", Knight, "g1", false, "f3", None),
            ("Ng1xf3", Knight, "g1", true, "f3", None),
            ("Pe4", Pawn, "", false, "e4", None),
            ("e8=Q", Pawn, "", false, "e8", Some(Queen)),
            ("e8Q", Pawn, "", false, "e8", Some(Queen)),
            ("e8(Q)", Pawn, "", false, "e8", Some(Queen)),
            ("e8/Q", Pawn, "", false, "e8", Some(Queen)),
            ("exf8=N", Pawn, "e", true, "f8", Some(Knight)),
            ("e7e8q", Pawn, "e7", false, "e8", Some(Queen)),
            ("ｅ４", Pawn, "", false, "e4", None),
            ("Ｎｆ３", Knight, "", false, "f3", None),
            ("♘f3", Knight, "", false, "f3", None),
            ("♞xf3", Knight, "", true, "f3", None),
            ("nf3", Knight, "", false, "f3", None),
            ("bxc3", Pawn, "b", true, "c3", None),
        ];
        for &(tok, role, from, capture, to, promo) in cases {
            let s = parse(tok, english()).unwrap_or_else(|e| panic!("{tok}: {e}"));
            assert_eq!(s.role, role, "{tok}");
            let want_file = from.chars().next().and_then(File::from_char);
            let want_rank = from.chars().find_map(Rank::from_char);
            assert_eq!(s.from_file, want_file, "{tok}");
            assert_eq!(s.from_rank, want_rank, "{tok}");
            assert_eq!(s.capture, capture, "{tok}");
            assert_eq!(s.to, sq(to), "{tok}");
            assert_eq!(s.promotion, promo, "{tok}");
            assert!(s.castle.is_none() && !s.null, "{tok}");
        }
    }

    #[test]
    fn flags_and_suffixes() {
        let en = english();
        let s = parse("bxc3", en).unwrap();
        assert_eq!(s.alt_role, Some(Role::Bishop));
        let s = parse("nf3", en).unwrap();
        assert!(s.form.contains(Form::LOWERCASE_PIECE));
        // `b4` is a pawn move: the `b` is the destination's file, not a piece
        assert_eq!(parse_lenient("b4", en).unwrap().alt_role, None);
        let s = parse("Pe4", en).unwrap();
        assert!(s.form.contains(Form::PAWN_LETTER));
        let cases: &[(&str, CheckMark, Option<u8>, bool)] = &[
            ("Nf3+", CheckMark::Check, None, false),
            ("Nf3++", CheckMark::DoubleCheck, None, false),
            ("Nf3#", CheckMark::Mate, None, false),
            ("Nf3†", CheckMark::Check, None, false),
            ("Nf3‡", CheckMark::Mate, None, false),
            ("Nf3!", CheckMark::None, Some(1), false),
            ("Nf3?", CheckMark::None, Some(2), false),
            ("Nf3!!", CheckMark::None, Some(3), false),
            ("Nf3??", CheckMark::None, Some(4), false),
            ("Nf3!?", CheckMark::None, Some(5), false),
            ("Nf3?!", CheckMark::None, Some(6), false),
            ("Nf3+!?", CheckMark::Check, Some(5), false),
            ("Nf3 (=)", CheckMark::None, None, true),
            ("Nf3+(=)", CheckMark::Check, None, true),
        ];
        for &(tok, check, nag, draw) in cases {
            let s = parse(tok, en).unwrap_or_else(|e| panic!("{tok}: {e}"));
            assert_eq!((s.check, s.nag, s.draw_offer), (check, nag, draw), "{tok}");
        }
        for tok in [
            "exd6 e.p.",
            "exd6e.p.",
            "exd6 ep",
            "exd6 e. p.",
            "exd6ep",
            "e5xd6 e. p.",
            "exd6 e.p.+",
            "exd6+ e.p.",
        ] {
            let s = parse(tok, en).unwrap_or_else(|e| panic!("{tok}: {e}"));
            assert!(s.ep, "{tok}");
            assert_eq!(s.to, sq("d6"), "{tok}");
        }
    }

    #[test]
    fn castling_and_null() {
        let en = english();
        let cases: &[(&str, CastlingSide, bool)] = &[
            ("O-O", CastlingSide::KingSide, false),
            ("O-O-O", CastlingSide::QueenSide, false),
            ("0-0", CastlingSide::KingSide, true),
            ("0-0-0", CastlingSide::QueenSide, true),
            ("o-o", CastlingSide::KingSide, false),
            ("00", CastlingSide::KingSide, true),
            ("000", CastlingSide::QueenSide, true),
            ("0\u{2013}0", CastlingSide::KingSide, true),
            ("O\u{2014}O\u{2014}O", CastlingSide::QueenSide, false),
            ("０－０", CastlingSide::KingSide, true),
            ("O-O+", CastlingSide::KingSide, false),
        ];
        for &(tok, side, zero) in cases {
            let s = parse(tok, en).unwrap_or_else(|e| panic!("{tok}: {e}"));
            assert_eq!(s.castle, Some(side), "{tok}");
            assert_eq!(s.form.contains(Form::ZERO_CASTLE), zero, "{tok}");
        }
        for tok in ["--", "Z0", "0000"] {
            assert!(parse(tok, en).unwrap().null, "{tok}");
        }
    }

    #[test]
    fn languages() {
        use Role::*;
        let cases: &[(&str, &str, Role, &str, Option<Role>)] = &[
            ("vi", "Te5", Bishop, "e5", None),
            ("vi", "Mgf3", Knight, "f3", None),
            ("vi", "M5f3", Knight, "f3", None),
            ("vi", "Mgxf3", Knight, "f3", None),
            ("vi", "d8H", Pawn, "d8", Some(Queen)),
            ("vi", "exf8M", Pawn, "f8", Some(Knight)),
            ("vi", "b1T", Pawn, "b1", Some(Bishop)),
            ("vi", "g1X", Pawn, "g1", Some(Rook)),
            ("vi", "Vb1", King, "b1", None),
            ("de", "Sf3", Knight, "f3", None),
            ("de", "Lb5", Bishop, "b5", None),
            ("de", "e8D", Pawn, "e8", Some(Queen)),
            ("fr", "Re2", King, "e2", None),
            ("fr", "Fc4", Bishop, "c4", None),
            ("fr", "Cf3", Knight, "f3", None),
            ("es", "Ab5", Bishop, "b5", None),
            ("it", "Ab5", Bishop, "b5", None),
            ("pt", "Bb5", Bishop, "b5", None),
            ("nl", "Pf3", Knight, "f3", None),
            ("ru", "Кf3", Knight, "f3", None),
            ("ru", "Крe2", King, "e2", None),
            ("ru", "Фd1", Queen, "d1", None),
            ("ru", "Лd1", Rook, "d1", None),
            ("ru", "Сb5", Bishop, "b5", None),
            ("pl", "Wd1", Rook, "d1", None),
            ("pl", "Gb5", Bishop, "b5", None),
            ("cs", "Jf3", Knight, "f3", None),
            ("cs", "Vd1", Rook, "d1", None),
            ("hu", "Hf3", Knight, "f3", None),
            ("hu", "Vd1", Queen, "d1", None),
            ("hu", "Bd1", Rook, "d1", None),
            ("sv", "Sf3", Knight, "f3", None),
            ("fi", "Rf3", Knight, "f3", None),
            ("zh", "马f3", Knight, "f3", None),
            ("zh", "馬f3", Knight, "f3", None),
            ("zh", "车d1", Rook, "d1", None),
            ("zh", "車d1", Rook, "d1", None),
            ("zh", "王e2", King, "e2", None),
            ("zh", "后d1", Queen, "d1", None),
            ("zh", "象b5", Bishop, "b5", None),
            ("zh", "兵e4", Pawn, "e4", None),
            ("zh", "ｅ８后", Pawn, "e8", Some(Queen)),
            ("fa", "اf3", Knight, "f3", None),
            ("fa", "اسبf3", Knight, "f3", None),
            ("fa", "اسب\u{200F}f۳", Knight, "f3", None),
            ("fa", "شe2", King, "e2", None),
            ("fa", "وd1", Queen, "d1", None),
            ("fa", "رd1", Rook, "d1", None),
            ("fa", "فb5", Bishop, "b5", None),
            ("fa", "فb٥", Bishop, "b5", None),
            ("fa", "♘f3", Knight, "f3", None),
            ("figurine", "♘f3", Knight, "f3", None),
            ("figurine", "♚e7", King, "e7", None),
            ("figurine", "e8♕", Pawn, "e8", Some(Queen)),
            ("vi", "e7e8q", Pawn, "e8", Some(Queen)),
            ("hu", "e7e8b", Pawn, "e8", Some(Bishop)),
            ("hu", "e7e8B", Pawn, "e8", Some(Rook)),
            ("ru", "e7e8n", Pawn, "e8", Some(Knight)),
        ];
        for &(code, tok, role, to, promo) in cases {
            let t = table(code).unwrap();
            let s = parse(tok, t).unwrap_or_else(|e| panic!("{code} {tok}: {e}"));
            assert_eq!(
                (s.role, s.to, s.promotion),
                (role, sq(to), promo),
                "{code} {tok}"
            );
        }
    }

    #[test]
    fn accepts_agrees_with_parse() {
        let tokens = [
            "Nf3",
            "Mf3",
            "Sf3",
            "Cf3",
            "exd5",
            "bxc3",
            "O-O",
            "0-0-0",
            "e8=Q",
            "d8H",
            "Кf3",
            "Крe2",
            "马f3",
            "♘f3",
            "xyz",
            "",
            "--",
            "Ng1f3",
            "e4!?",
            "N:f3",
            "ｅ４",
            "Tb5+",
            "Hxd1#",
            "e1=D",
            "Zf3",
            "a9",
            "Lc4",
            "Fc4",
            "Rxe8",
            "اf3",
            "اسبxf3",
            "شe2+",
            "车d1",
            "馬xf3#",
            "兵e4",
            "♞f6",
            "♙e4",
            "e8=后",
            "e8后",
            "b8=♕",
            "d8=H",
            "e.p.",
            "exd6 e.p.",
            "Nf3 (=)",
            "ｅ４",
            "e4?!",
            "N1f3",
            "Nbd7",
            "Kr",
            "Крe2",
            "крe2",
            "o-o",
            "O-O-O#",
            "Z0",
            "0000",
            "e2-e4",
            "Ng1-f3",
            "exd5+",
            "bxc3",
            "Bxc3",
        ];
        for table in crate::notation::chess::tables() {
            for token in tokens {
                assert_eq!(
                    accepts(token, table),
                    parse(token, table).is_ok(),
                    "{token} in {}",
                    table.code
                );
                assert_eq!(
                    parse_ok(token, table),
                    parse(token, table).ok(),
                    "{token} in {}",
                    table.code
                );
            }
        }
    }

    #[test]
    fn errors() {
        let en = english();
        let cases: &[(&str, &str, &str)] = &[
            (
                "Sf3",
                "unknown-piece",
                "unknown piece letter S in Sf3: English pieces are K Q R B N",
            ),
            (
                "马f3",
                "unknown-piece",
                "unknown piece letter 马 in 马f3: English pieces are K Q R B N",
            ),
            (
                "Mf3",
                "unknown-piece",
                "unknown piece letter M in Mf3: English pieces are K Q R B N",
            ),
            (
                "e9",
                "invalid-move",
                "invalid move e9: expected a square, a piece letter, castling or --, found e9",
            ),
            (
                "Nf3zz",
                "invalid-move",
                "invalid move Nf3zz: expected end of move, found zz",
            ),
            ("", "invalid-move", "expected a move, found nothing"),
        ];
        for &(tok, code, msg) in cases {
            let e = parse(tok, en).unwrap_err();
            assert_eq!(e.code(), code, "{tok}");
            assert_eq!(e.to_string(), msg, "{tok}");
        }
    }

    /// `parse_ok`, which reads the common shapes itself before [`parse_ok_rest`], gives
    /// what `parse` gives, on move-like tokens built from every table's letters (and
    /// broken ones), under every table.
    #[test]
    fn parse_ok_agrees_with_parse() {
        let mut letters: Vec<&str> = vec!["", "", "P", "n", "Kr", "кр", "x"];
        for t in crate::notation::chess::tables() {
            letters.extend(t.letters().map(|(l, _)| l));
        }
        let middles = [
            "", "", "a", "h", "1", "8", "x", "bx", "1x", "g1", ":", "-", "9",
        ];
        let squares = ["e4", "a1", "h8", "d5", "i9", "e", ""];
        let ends = [
            "", "", "+", "#", "=Q", "=后", "D", "(Q)", "!?", "++", " e.p.", "x", "+#", "†",
        ];
        let mut rng = crate::testing::XorShift::new(0x5DEE_CE66_D1CE_4E5B);
        let tables = crate::notation::chess::tables();
        for _ in 0..30_000 {
            let pick = |rng: &mut crate::testing::XorShift, from: &[&'static str]| {
                from[rng.below(from.len())]
            };
            let tok = [
                pick(&mut rng, &letters),
                pick(&mut rng, &middles),
                pick(&mut rng, &squares),
                pick(&mut rng, &ends),
            ]
            .concat();
            for t in tables {
                assert_eq!(parse_ok(&tok, t), parse(&tok, t).ok(), "{} {tok:?}", t.code);
            }
        }
    }

    /// Every token that [`foreign_capital`] turns down is one [`parse`] cannot read:
    /// each upper-case ASCII letter before every text of up to three bytes over an
    /// alphabet of move bytes, under every table.
    #[test]
    fn foreign_capitals_start_no_move() {
        let alphabet = b"abh18x-=+O0Qo. ";
        let mut rests = all_words(alphabet, 3);
        for extra in [
            "f3", "e2e4", "xf3", "bd2", "1e2", "g1f3", "0", "f3 e.p.", "b8=Q+",
        ] {
            rests.push(extra.as_bytes().to_vec());
        }
        let mut turned_down = 0;
        for t in tables_for_fast() {
            for capital in b'A'..=b'Z' {
                for r in &rests {
                    let mut tok = vec![capital];
                    tok.extend_from_slice(r);
                    let Ok(tok) = std::str::from_utf8(&tok) else {
                        continue;
                    };
                    if foreign_capital(tok, t) {
                        turned_down += 1;
                        assert!(parse(tok, t).is_err(), "{} {tok}", t.code);
                        assert_eq!(parse_ok(tok, t), None, "{} {tok}", t.code);
                    }
                }
            }
        }
        assert!(turned_down > 100_000, "{turned_down}");
    }

    /// The tables the fast paths serve: every one.
    pub(super) fn tables_for_fast() -> Vec<&'static PieceTable> {
        crate::notation::chess::lang::tables().iter().collect()
    }
}
