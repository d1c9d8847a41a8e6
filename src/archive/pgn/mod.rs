//! PGN syntax of one game's decoded text: tags and a flat list of movetext elements.
//!
//! `complete` nom parsers over one game; the movetext loop is iterative (variations are
//! a depth counter and a bounded stack of open `(` positions), so no input can drive
//! recursion. See [`parse_game`] for the accepted forms.

use crate::model::diag::Code;
use std::{borrow::Cow, num::NonZeroU32};

use nom::{
    IResult, Parser, bytes::complete::tag, character::complete::char, combinator::opt,
    sequence::preceded,
};

mod fast;
mod forms;
pub mod marks;

use fast::move_letter_len;

use super::{CommentKind, Element, LETTER_BITS, Limits, MovetextCounts, RawTag, move_letters};
use crate::{
    model::diag::{Diagnostic, Span},
    model::game::GameResult,
    text::{decode::bmp_char, fold, normalize},
};

/// What [`parse_game`] found in one game's text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSyntax {
    pub tags: Vec<RawTag>,
    pub movetext: Vec<Element>,
    pub result: Option<(GameResult, Span)>,
    pub diagnostics: Vec<Diagnostic>,
    /// Another game starts at this byte offset (more movetext after the result, or a tag
    /// section after movetext); the text from here was not parsed.
    pub rest: Option<usize>,
    /// The letters of the move tokens of the main line (outside variations), one bit
    /// each ([`move_letters`]): read as they are read (see
    /// [`RawGame::move_letters`](super::RawGame::move_letters)).
    pub move_letters: u64,
    /// The counts of `movetext`, kept as the elements are pushed
    /// ([`MovetextCounts::of`] of `movetext`).
    pub counts: MovetextCounts,
    /// Without tags, move numbers or result, the text is still moves: two or more
    /// move tokens, each shaped as English SAN (`e4 e5 Nf3 Nc6`), and nothing else
    /// but comments, NAGs and variations ([`plain_movetext`]). Read as a game, not
    /// as text between games.
    pub plain_movetext: bool,
}

impl GameSyntax {
    /// No tags, no move number and no result: text between games, not a game.
    pub fn is_junk(&self) -> bool {
        self.tags.is_empty()
            && self.result.is_none()
            && !self.plain_movetext
            && !self
                .movetext
                .iter()
                .any(|e| matches!(e, Element::MoveNumber { .. }))
    }
}

/// Parses the tags and movetext of one game.
///
/// Tags: `[Name "value"]`, tolerant of indentation, several tags on one line, a missing
/// blank line before the movetext, backslash escapes, and unescaped quotes inside the
/// value (`[Event "The "big" one"]`: a quote ends the value only when `]` follows).
///
/// Movetext: move numbers (`1.`, `1...`, `1…`, `1)`, bare `1`, glued `1.e4`) at token
/// starts only; comments `{…}` (nested braces are counted; unterminated → the rest of
/// the text) and `;…`; `%` escape lines in column 1; variations `( … )`; NAGs `$n`;
/// results (`1-0 0-1 1/2-1/2 * ½-½ 1/2 0:1 …`, read with [`GameResult::parse`]); the
/// draw-offer mark `(=)`; en-passant suffixes `e.p.`, `e. p.`, `ep`, `(e.p.)` after a move
/// (they extend its span); glued one-letter promotions `a8(Q)`; and move tokens: any
/// other run of non-space text up to whitespace or one of `{ } ( ) ; $`.
// one call per game: kept out of line, so that profiles show it
#[inline(never)]
pub fn parse_game(text: &str, limits: &Limits) -> GameSyntax {
    parse_with::<true>(text, limits)
}

/// [`parse_game`], with the fast movetext scanner ([`Parser_::simple_run`]) or, for
/// the tests that hold it to the same output, without it.
fn parse_with<const FAST: bool>(text: &str, limits: &Limits) -> GameSyntax {
    let mut p = Parser_::new(text, limits);
    p.tag_section::<FAST>();
    // about one element per three bytes of dense movetext (`1.e4 e5 `)
    let dense = text.len().saturating_sub(p.pos) / 3 + 1;
    p.out.movetext.reserve(dense.min(1 << 16));
    p.movetext::<FAST>();
    p.close_variations();
    // letters no English move has (`T` of `TN`, `m` `t` of `mate`, those of other
    // scripts): the moves may be words the English fast run does not see, when all the
    // letters of one are there ([`forms::words_may_be_in`]: not in a game of `Tg7 Mf3`
    // or `马f3`, whose forms of other letters, `马`, `红胜`, are odd by their length or
    // by their bytes after the first); and a `.` in a move (`e42.d4`)
    let odd = p.odd
        || p.run_letters & SCAN_DOT != 0
        || p.run_letters & !ENGLISH_LETTERS != 0 && forms::words_may_be_in(p.run_letters);
    let (changed, found) = if odd {
        forms::typed_forms::<FAST>(text, &mut p.out.movetext, p.out.result.is_some())
    } else {
        (false, None)
    };
    if changed {
        p.out.counts = MovetextCounts::of(&p.out.movetext);
        p.out.move_letters = main_line_letters(text, &p.out.movetext);
    }
    if let Some(r) = found {
        p.out.result = Some(r);
    }
    if p.out.tags.is_empty() && p.out.result.is_none() {
        p.out.plain_movetext = plain_movetext(text, &p.out.movetext);
    }
    p.out
}

/// The letters of English SAN moves ([`move_letters`] bits): the files, `x`, the piece
/// letters and castling's `O`.
const ENGLISH_LETTERS: u64 = {
    let mut m = 0;
    let bytes = b"abcdefghxKQRBNO";
    let mut i = 0;
    while i < bytes.len() {
        m |= super::letter_bit(bytes[i]);
        i += 1;
    }
    m
};

/// The letters of the main line's moves in `movetext` ([`GameSyntax::move_letters`]).
fn main_line_letters(text: &str, movetext: &[Element]) -> u64 {
    let mut depth = 0usize;
    let mut letters = 0;
    for e in movetext {
        match *e {
            Element::StartVariation { .. } => depth += 1,
            Element::EndVariation { .. } => depth = depth.saturating_sub(1),
            Element::Move { span, .. } if depth == 0 => {
                letters |= move_letters(span_bytes(text.as_bytes(), span));
            }
            _ => {}
        }
    }
    letters
}

/// [`GameSyntax::plain_movetext`] of `movetext` (elements of `text`).
fn plain_movetext(text: &str, movetext: &[Element]) -> bool {
    let mut moves = 0;
    for e in movetext {
        match e {
            Element::Move { span, .. } => {
                if !san_shaped(span.slice(text)) {
                    return false;
                }
                moves += 1;
            }
            Element::Comment { .. }
            | Element::Nag { .. }
            | Element::StartVariation { .. }
            | Element::EndVariation { .. } => {}
            _ => return false,
        }
    }
    moves >= 2
}

/// `tok` is shaped as an English SAN or long-algebraic move (`e4`, `Nbxd7+`,
/// `exd8=Q#`, `O-O`, `e2-e4`, `Ng1f3!?`): what [`plain_movetext`] takes for a move
/// rather than a word of prose.
fn san_shaped(tok: &str) -> bool {
    let t = tok.trim_end_matches(['+', '#', '!', '?']);
    if matches!(t, "O-O" | "O-O-O" | "0-0" | "0-0-0") {
        return true;
    }
    let mut b = t.as_bytes();
    if let [b'K' | b'Q' | b'R' | b'B' | b'N', rest @ ..] = b {
        b = rest;
    }
    // a promotion: `=Q` or a glued `Q` after the last rank
    let promoted = match b {
        [.., b'1' | b'8', b'=', b'Q' | b'R' | b'B' | b'N'] => 2,
        [.., b'1' | b'8', b'Q' | b'R' | b'B' | b'N'] => 1,
        _ => 0,
    };
    b = b.get(..b.len() - promoted).unwrap_or(&[]);
    let file = |c: &u8| (b'a'..=b'h').contains(c);
    let rank = |c: &u8| (b'1'..=b'8').contains(c);
    let [from @ .., f, r] = b else {
        return false;
    };
    if !(file(f) && rank(r)) {
        return false;
    }
    let from = match from {
        [head @ .., b'x' | b'-'] => head,
        _ => from,
    };
    match from {
        [] => true,
        [c] => file(c) || rank(c),
        [c, d] => file(c) && rank(d),
        _ => false,
    }
}

/// The 0-based ply of the move numbered `number` (`black`: Black's, `1...`).
fn ply_of(number: u32, black: bool) -> u64 {
    2 * u64::from(number.saturating_sub(1)) + u64::from(black)
}

fn span(a: usize, b: usize) -> Span {
    Span::from_range(a, b)
}

/// Byte classes for the token scanner: 0 = ordinary ASCII token byte.
const WS: u8 = 1;
const DELIM: u8 = 2;
const PAREN: u8 = 3;
const HIGH: u8 = 4;

const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = match i as u8 {
            // space and all C0 controls (tab, line ends, form feed, DOS end-of-file ^Z)
            0x00..=0x20 => WS,
            b'{' | b'}' | b')' | b';' | b'$' => DELIM,
            b'(' => PAREN,
            0x80..=0xff => HIGH,
            _ => 0,
        };
        i += 1;
    }
    t
};

/// The bytes of `span` in `s` (none when out of range).
fn span_bytes(s: &[u8], span: Span) -> &[u8] {
    s.get(span.start as usize..span.end as usize).unwrap_or(&[])
}

/// [`scan_classes`]: where an entry's [`CLASS`] is (above the letter bits of
/// [`LETTER_BITS`], which use bits 0 to 57 and 63).
const CLASS_SHIFT: u32 = 58;
/// [`scan_classes`]: the class of a byte of a [`CLASS`] `HIGH` and `PAREN`, shifted.
const SCAN_HIGH: u64 = (HIGH as u64) << CLASS_SHIFT;
const SCAN_PAREN: u64 = (PAREN as u64) << CLASS_SHIFT;

/// [`CLASS`] with the letter bits of [`LETTER_BITS`] folded in, for
/// [`Parser_::simple_run`]'s token loop (one table look-up a byte): an ordinary token
/// byte (class 0) is its letter bit alone, the others (white space, delimiters, bytes
/// outside ASCII) are at least `1 << CLASS_SHIFT`.
const fn scan_classes() -> &'static [u64; 256] {
    &SCAN
}

const SCAN: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = match CLASS[i] {
            0 if i == b'.' as usize => SCAN_DOT,
            0 => LETTER_BITS[i],
            c => (c as u64) << CLASS_SHIFT,
        };
        i += 1;
    }
    t
};

/// [`scan_classes`]: a `.` in a move token of the fast run (a move number glued to a
/// move, `e42.d4`: one of the typed forms), a bit no letter has, taken out of the
/// letters the run reports for the game's moves.
const SCAN_DOT: u64 = 1 << 26;

/// Where the ASCII white space (`CLASS` = `WS`: controls and space, as
/// [`Parser_::skip_ws`] skips them) that starts at `pos` in `s` ends.
#[inline(always)]
fn ascii_space_end(s: &[u8], mut pos: usize) -> usize {
    while let Some(&b) = s.get(pos)
        && b <= b' '
    {
        pos += 1;
    }
    pos
}

fn is_delim(b: u8) -> bool {
    matches!(b, b'{' | b'}' | b'(' | b')' | b';' | b'$')
}

/// Characters a standalone annotation token is made of.
fn is_glyph_char(c: char) -> bool {
    matches!(
        c,
        '!' | '?' | '+' | '#' | '=' | '-' | '/' | '±' | '∓' | '∞' | '□' | '⩲' | '⩱'
    )
}

/// A non-ASCII character that starts only moves: a CJK ideograph, an Arabic-script
/// letter or a chess figurine. None of them is or folds to a digit, a result
/// character, a dot or an annotation glyph (see [`Parser_::token`]).
#[inline]
fn is_move_letter(c: u32) -> bool {
    matches!(
        c,
        0x4E00..=0x9FFF | 0x0621..=0x064A | 0x0671..=0x06D3 | 0x2654..=0x265F
    )
}

/// `pgn.ebnf`: tag-name = 1*( any character but space, `"`, `[`, `]` ) ;
/// (A byte scan: the name ends at ASCII whitespace, `"`, `[` or `]`.)
#[inline]
fn tag_name(i: &str) -> IResult<&str, &str> {
    let n = i
        .bytes()
        .take_while(|&b| CLASS[usize::from(b)] != WS && !matches!(b, b'"' | b'[' | b']'))
        .count();
    match (n, i.split_at_checked(n)) {
        (1.., Some((name, rest))) => Ok((rest, name)),
        _ => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::TakeWhile1,
        ))),
    }
}

/// `pgn.ebnf`: space = " " | "\t" ; (`nom::character::complete::space0` on bytes)
#[inline]
fn spaces(i: &str) -> IResult<&str, &str> {
    let n = i.bytes().take_while(|&b| b == b' ' || b == b'\t').count();
    let (sp, rest) = i.split_at_checked(n).unwrap_or(("", i));
    Ok((rest, sp))
}

/// `pgn.ebnf`: tag-open = "[" , { space } , tag-name , { space } ;
fn tag_open(i: &str) -> IResult<&str, &str> {
    let (i, name) = preceded((char('['), spaces), tag_name).parse(i)?;
    let (i, _) = spaces(i)?;
    Ok((i, name))
}

/// `pgn.ebnf`: digits = 1*( "0" | … | "9" ) ; (`nom::character::complete::digit1`,
/// specialised to `&str` for speed: move numbers are a sixth of all tokens)
#[inline]
fn digits(i: &str) -> IResult<&str, &str> {
    let n = i.bytes().take_while(u8::is_ascii_digit).count();
    match (n, i.split_at_checked(n)) {
        (1.., Some((d, rest))) => Ok((rest, d)),
        _ => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Digit,
        ))),
    }
}

/// `pgn.ebnf`: dots = { "." } ;
#[inline]
fn dots(i: &str) -> IResult<&str, &str> {
    let n = i.bytes().take_while(|&b| b == b'.').count();
    let (d, rest) = i.split_at_checked(n).unwrap_or((i, ""));
    Ok((rest, d))
}

/// `pgn.ebnf`: move-number = digits , ( 1*"." | "…" | ")" ) | digits (before a boundary) ;
/// also `1/` and `1:` before white space.
/// Returns the number and whether it marks Black's move (`...`, `…`).
fn move_number(i: &str) -> IResult<&str, (u32, bool)> {
    let (rest, digits) = digits(i)?;
    let number = digits
        .parse::<u32>()
        .map_err(|_| nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Digit)))?;
    let (rest, dots) = dots(rest)?;
    let (rest, ellipsis) = opt(tag("…")).parse(rest)?;
    if !dots.is_empty() || ellipsis.is_some() {
        return Ok((rest, (number, dots.len() >= 2 || ellipsis.is_some())));
    }
    let (rest, paren) = opt(char(')')).parse(rest)?;
    if paren.is_some() {
        return Ok((rest, (number, false)));
    }
    // `1/ e4 - d5`: a slash before white space (`1/2` is a result)
    if let Some(after) = rest.strip_prefix('/')
        && after.starts_with(char::is_whitespace)
    {
        return Ok((after, (number, false)));
    }
    // `Move 1: e4, e5`: a colon before white space (`0:1` is a result, `5:d4` no number)
    if let Some(after) = rest.strip_prefix(':')
        && after.starts_with(char::is_whitespace)
    {
        return Ok((after, (number, false)));
    }
    // a bare number must end at a boundary: `0-0`, `1/2` and `2x` are not numbers
    match rest.chars().next() {
        None => Ok((rest, (number, false))),
        Some(c) if c.is_whitespace() || (c.is_ascii() && is_delim(c as u8)) => {
            Ok((rest, (number, false)))
        }
        Some(_) => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        ))),
    }
}

/// A move number written with full-width, Persian or Arabic-Indic digits (`１．`, `۱.`,
/// `١)`), with ASCII or full-width `.` `)` or `、` after it; the same shape as
/// [`move_number`].
fn wide_move_number(i: &str) -> IResult<&str, (u32, bool)> {
    let fail = || nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Digit));
    let mut number: u32 = 0;
    let mut len = 0;
    for c in i.chars() {
        let Some(d) = normalize::digit_value(c) else {
            break;
        };
        number = number
            .checked_mul(10)
            .and_then(|n| n.checked_add(d))
            .ok_or_else(fail)?;
        len += c.len_utf8();
    }
    if len == 0 {
        return Err(fail());
    }
    let mut rest = i.get(len..).unwrap_or("");
    let mut dots = 0;
    let mut black = false;
    let mut any = false;
    while let Some(c) = rest.chars().next() {
        match c {
            '.' | '．' => dots += 1,
            '…' => black = true,
            ')' | '）' | '、' if !any => {}
            _ => break,
        }
        any = true;
        rest = rest.get(c.len_utf8()..).unwrap_or("");
        if matches!(c, ')' | '）' | '、') {
            break;
        }
    }
    if !any && !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
        return Err(fail());
    }
    Ok((rest, (number, black || dots >= 2)))
}

/// Where the comment whose body starts `body` closes when braces inside it nest (the
/// offset of its `}` in `body`), if it closes.
fn nested_close(body: &[u8]) -> Option<usize> {
    let mut depth = 1usize;
    for (k, &b) in body.iter().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// Does `text` hold a move number (digits then `.`, as `12.` or `3...`)?
fn holds_move_number(text: &[u8]) -> bool {
    text.windows(2)
        .any(|w| w[0].is_ascii_digit() && w[1] == b'.')
}

/// Does `token` end inside an HTML entity (`&ndash`, `&#8211`), whose `;` follows?
fn entity_open(token: &[u8]) -> bool {
    let Some(amp) = memchr::memrchr(b'&', token) else {
        return false;
    };
    let name = token.get(amp + 1..).unwrap_or(&[]);
    !name.is_empty()
        && (name.iter().all(u8::is_ascii_alphabetic)
            || name
                .strip_prefix(b"#")
                .is_some_and(|d| d.iter().all(u8::is_ascii_digit)))
}

/// `00`, `000` and `0000` (castling with zeros and no dashes, the null move), with or
/// without a check mark or glyph: moves, never a move number (there is no move 0).
fn zeros_move(tok: &str) -> bool {
    let body = tok.trim_end_matches(['+', '#', '!', '?']);
    matches!(body, "00" | "000" | "0000")
}

/// `pgn.ebnf`: nag = "$" , digits ;
fn nag(i: &str) -> IResult<&str, &str> {
    preceded(char('$'), digits).parse(i)
}

/// A result token, in any of the spellings [`GameResult::parse`] reads, plus `:` for `-`
/// (`0:1`) and look-alike dashes and digits.
#[inline]
pub fn result_token(tok: &str) -> Option<GameResult> {
    // fast path: an ASCII result starts with `0`, `1` or `*`
    match tok.as_bytes().first() {
        Some(b'0' | b'1' | b'*' | 0x80..) => {}
        _ => return None,
    }
    if let Some(r) = GameResult::parse(tok) {
        return Some(r);
    }
    if tok.is_ascii() && !tok.contains([':', '&']) || !fold::may_fold_to_result(tok) {
        return None;
    }
    let folded = fold::move_token(tok).replace(':', "-");
    // `1&ndash;0`: a dash of `grammars/marks.tsv`
    let folded = marks::dashes_folded(&folded).unwrap_or(folded);
    GameResult::parse(&folded)
}

/// Whether a bare number (no dot) after the elements `mt` stands where a move is
/// written, not a move number: right after a move number (`11. 65 d5`: a slip of `e5`,
/// `b5`…). The replay reads it as an unreadable move.
#[inline(always)]
fn move_cell_due(mt: &[Element]) -> bool {
    matches!(mt.last(), Some(Element::MoveNumber { .. }))
}

/// Where [`scan_run`] stopped, and what [`Parser_::simple_run`] does there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum RunStop {
    /// The end of the text or of the element budget, or a token that is no move or
    /// number the run reads: back to [`Parser_::movetext`].
    Done,
    /// A number the run does not take (a result, a long number…): for
    /// [`Parser_::token`].
    Number,
    /// A move token with a non-ASCII byte or a `(` after its first (maybe a glued
    /// promotion `a8(Q)`): its end is for [`Parser_::token_end`] to find.
    LongMove,
    /// The move that ends at this offset is followed by white space and `e` or `(`:
    /// maybe an en-passant suffix, for [`Parser_::ep_suffix`].
    Suffix(usize),
}

/// What [`scan_run`] read before it stopped.
struct Run {
    /// Where it stopped: the start of the token it did not read, or for
    /// [`RunStop::Suffix`] the `e` or `(` after the move.
    pos: usize,
    stop: RunStop,
    /// The letters of its moves' bytes ([`move_letters`]).
    letters: u64,
    /// How many move numbers it pushed (the other elements it pushed are moves).
    numbers: usize,
    /// A move it pushed may be one of the typed forms ([`forms`]): one letter long or
    /// longer than six, a first letter outside ASCII counted as one byte (`N`, `马`,
    /// `d4Nf62.c4b6`); the words (`mate`, `TN`, `dbl ch`) have
    /// letters no English move has ([`ENGLISH_LETTERS`]). (`ch` alone in a game of
    /// plain English moves is not seen: that would cost the fast run a load a move.)
    odd: bool,
}

/// The loop of [`Parser_::simple_run`]: reads moves and move numbers from `pos` (a
/// token's start) into `out`, each followed by ASCII white space, until a token it
/// leaves to the parser ([`RunStop`]). A function of its own (not inlined), of few
/// values, so that they stay in registers. `s.len()` must fit in a `u32` (spans are plain casts).
#[inline(never)]
fn scan_run(s: &[u8], mut pos: usize, out: &mut Vec<Element>, max: usize) -> Run {
    // the token bytes with their letters (looked up once)
    let scan = scan_classes();
    let sp = |a: usize, b: usize| Span::new(a as u32, b as u32);
    let mut letters_run = 0;
    let mut numbers = 0;
    let mut odd = false;
    let stop = 'run: loop {
        let Some(&first) = s.get(pos) else {
            break RunStop::Done;
        };
        if out.len() >= max {
            break RunStop::Done;
        }
        if first.is_ascii_digit() {
            // digits: at most nine, so that the value fits in a `u32` (their end
            // bounded once, so that the loop keeps two values and one test a digit)
            let digits_end = s.len().min(pos + 9);
            let mut i = pos + 1;
            let mut number = u32::from(first - b'0');
            while i < digits_end {
                let digit = s.get(i).map_or(10, |&b| b.wrapping_sub(b'0'));
                if digit > 9 {
                    break;
                }
                number = number * 10 + u32::from(digit);
                i += 1;
            }
            let (black, end) = match s.get(i) {
                // `12.`, `12...`: a move number (`0.` may start `0.5-0.5`)
                Some(b'.') if !(first == b'0' && i == pos + 1) => {
                    let mut j = i + 1;
                    while s.get(j) == Some(&b'.') {
                        j += 1;
                    }
                    let mut black = j - i >= 2;
                    // `12.…` as `move_number` reads it
                    if s.get(j) == Some(&0xE2) && s.get(j..j + 3) == Some("…".as_bytes()) {
                        j += 3;
                        black = true;
                    }
                    (black, j)
                }
                // `00`, `000`, `0000` are castling and the null move, not numbers
                None | Some(b' ' | b'\n' | b'\r' | b'\t') if first == b'0' && i > pos + 1 => {
                    break RunStop::Number;
                }
                // a bare number before white space (no result is only digits), unless
                // it stands where a move is written: for `Parser_::token`
                None | Some(b' ' | b'\n' | b'\r' | b'\t') => {
                    if move_cell_due(out) {
                        break RunStop::Number;
                    }
                    (false, i)
                }
                _ => break RunStop::Number,
            };
            numbers += 1;
            out.push(Element::MoveNumber {
                number,
                black,
                span: sp(pos, end),
            });
            pos = ascii_space_end(s, end);
        } else {
            // a move: a token starting with an ASCII letter or a move letter
            let first_len = match first {
                b'a'..=b'z' | b'A'..=b'Z' => 1,
                0x80.. => match move_letter_len(s, pos) {
                    Some(len) => len,
                    None => break RunStop::Done,
                },
                _ => break RunStop::Done,
            };
            // the rest of the token: ordinary ASCII bytes up to white space or a
            // delimiter, and on the way its letters
            let mut letters = LETTER_BITS[usize::from(first)];
            let rest = pos + first_len;
            let mut end = rest;
            while let Some(&b) = s.get(end) {
                let class = scan[usize::from(b)];
                if class >= 1 << CLASS_SHIFT {
                    if class == SCAN_HIGH || class == SCAN_PAREN {
                        break 'run RunStop::LongMove;
                    }
                    break;
                }
                letters |= class;
                end += 1;
            }
            letters_run |= letters;
            // one letter (`N`, `马`) or longer than six, the first letter as one byte
            // (`d4Nf62.c4b6`; not `马xd5+`): no load, one test
            odd |= (end - rest).wrapping_sub(1) > 4;
            out.push(Element::Move {
                span: sp(pos, end),
                ep: None,
            });
            pos = ascii_space_end(s, end);
            // white space and `e` or `(`: maybe an en-passant suffix
            if pos > end && matches!(s.get(pos), Some(b'e' | b'(')) {
                break RunStop::Suffix(end);
            }
        }
    };
    Run {
        pos,
        stop,
        letters: letters_run,
        numbers,
        odd,
    }
}

struct Parser_<'a, 'l> {
    text: &'a str,
    s: &'a [u8],
    pos: usize,
    out: GameSyntax,
    /// Start offsets of the open variations.
    open: Vec<usize>,
    limits: &'l Limits,
    stop: bool,
    /// A move or move number has been read.
    moves_seen: bool,
    /// Some element may be one of the typed forms ([`forms::typed_forms`] is asked
    /// only then): a token read outside the fast run, an odd move of the run
    /// ([`Run::odd`]), a NAG right after `(`.
    odd: bool,
    /// The letters of every move the fast run read, variations included.
    run_letters: u64,
}

impl<'a, 'l> Parser_<'a, 'l> {
    fn new(text: &'a str, limits: &'l Limits) -> Self {
        Parser_ {
            text,
            s: text.as_bytes(),
            pos: 0,
            out: GameSyntax::default(),
            open: Vec::new(),
            limits,
            stop: false,
            moves_seen: false,
            odd: false,
            run_letters: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, e: Element) {
        match e {
            Element::Move { span, .. } => {
                self.moves_seen = true;
                self.out.counts.moves += 1;
                self.note_move(span);
            }
            Element::MoveNumber { .. } => self.moves_seen = true,
            Element::StartVariation { .. } => self.out.counts.variations = true,
            _ => {}
        }
        self.out.movetext.push(e);
    }

    /// Notes the letters of the move token at `span` (just read, or just extended by an
    /// en-passant suffix) in [`GameSyntax::move_letters`] when it is on the main line:
    /// no variation is open (the `(` and `)` that open and close one are the
    /// `StartVariation` and `EndVariation` elements, so the main line is the moves read
    /// at depth 0).
    #[inline(always)]
    fn note_move(&mut self, span: Span) {
        if self.open.is_empty() {
            self.out.move_letters |= move_letters(span_bytes(self.s, span));
        }
    }

    fn diag(&mut self, d: Diagnostic, a: usize, b: usize) {
        self.out.diagnostics.push(d.with_span(span(a, b)));
    }

    fn at_line_start(&self, i: usize) -> bool {
        i == 0 || matches!(self.s.get(i - 1), Some(b'\n' | b'\r'))
    }

    fn line_end(&self, from: usize) -> usize {
        self.s
            .get(from..)
            .and_then(|r| r.iter().position(|&b| b == b'\n' || b == b'\r'))
            .map_or(self.s.len(), |k| from + k)
    }

    /// `s[a..b]`, or empty when out of range.
    fn bytes(&self, a: usize, b: usize) -> &[u8] {
        self.s.get(a..b).unwrap_or(&[])
    }

    /// `text[a..b]`, or empty when out of range or off a character boundary.
    fn str_at(&self, a: usize, b: usize) -> &str {
        self.text.get(a..b).unwrap_or("")
    }

    /// The character at `i` (`None` at the end or off a boundary).
    fn char_at(&self, i: usize) -> Option<char> {
        self.text.get(i..).and_then(|r| r.chars().next())
    }

    #[inline(always)]
    fn skip_ws(&mut self) {
        while let Some(&b) = self.s.get(self.pos) {
            let class = CLASS[usize::from(b)];
            if class == WS {
                self.pos += 1;
                continue;
            }
            if class != HIGH {
                return;
            }
            match self.high_at(self.pos) {
                Some((len, true)) => self.pos += len,
                _ => return,
            }
        }
    }

    fn rest(&self) -> &str {
        self.text.get(self.pos..).unwrap_or("")
    }

    fn looks_like_tag(&self, i: usize) -> bool {
        let r = self.text.get(i..).unwrap_or("");
        match tag_open(r) {
            Ok((after, name)) => {
                name.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                    && after.starts_with('"')
            }
            Err(_) => false,
        }
    }

    fn tag_section<const FAST: bool>(&mut self) {
        loop {
            self.skip_ws();
            match self.s.get(self.pos) {
                Some(b'[') => {
                    if self.out.tags.capacity() == 0 {
                        // room for a usual tag section at once
                        self.out.tags.reserve(16);
                    }
                    if !(FAST && self.plain_tag(self.pos)) {
                        self.tag::<false>();
                    }
                }
                Some(b'%') if self.at_line_start(self.pos) => self.escape(),
                Some(b'{') => self.brace_comment(),
                Some(b';') => self.line_comment(),
                _ => return,
            }
        }
    }

    /// One tag at `self.pos` (a `[`); `FAST`: try [`Self::plain_tag`] first.
    fn tag<const FAST: bool>(&mut self) {
        let start = self.pos;
        if FAST && self.plain_tag(start) {
            return;
        }
        let after_bracket = self.rest().get(1..).unwrap_or("");
        let name_start =
            start + 1 + after_bracket.len() - after_bracket.trim_start_matches([' ', '\t']).len();
        let parsed = tag_open(self.rest());
        if let Ok((after, name)) = parsed
            && after.starts_with('"')
        {
            // fast path: `[Name "value"]` with no escape, inner quote or line end
            let v = self.text.len() - after.len() + 1;
            if let Some(q) = self
                .s
                .get(v..)
                .and_then(|r| r.iter().position(|&b| b == b'"'))
                .map(|k| v + k)
                && self.s.get(q + 1) == Some(&b']')
                && self
                    .s
                    .get(v..q)
                    .is_some_and(|seg| !seg.iter().any(|&b| matches!(b, b'\\' | b'\n' | b'\r')))
            {
                self.out.tags.push(RawTag {
                    span: span(start, q + 2),
                    name: span(name_start, name_start + name.len()),
                    value: span(v, q),
                    escaped: false,
                });
                self.pos = q + 2;
                return;
            }
        }
        let line_end = self.line_end(start);
        let Ok((after, name)) = parsed else {
            self.diag(
                Diagnostic::warning(
                    Code::MalformedTag,
                    "expected a tag name after `[`, found something else",
                ),
                start,
                line_end,
            );
            // not read as a tag, but kept: the line is kept as an escape line is
            self.push(Element::Escape {
                span: span(start, line_end),
            });
            self.pos = line_end;
            return;
        };
        let name_span = span(name_start, name_start + name.len());
        let v0 = self.text.len() - after.len();
        if !after.starts_with('"') {
            // `[Event Paris]`: the value runs to the `]`
            let close = self.bytes(v0, line_end).iter().position(|&b| b == b']');
            let v1 = close.map_or(line_end, |k| v0 + k);
            let end = close.map_or(line_end, |k| v0 + k + 1);
            let value_end = self.str_at(v0, v1).trim_end().len() + v0;
            self.out.tags.push(RawTag {
                span: span(start, end),
                name: name_span,
                value: span(v0, value_end),
                escaped: false,
            });
            self.diag(
                Diagnostic::warning(
                    Code::TagMissingQuotes,
                    "expected `\"` around the tag value, found none",
                ),
                start,
                end,
            );
            self.pos = end;
            return;
        }
        let v = v0 + 1;
        let mut i = v;
        let mut escaped = false;
        let mut inner_quote = false;
        let mut close = None;
        while i < line_end {
            match self.s.get(i).copied().unwrap_or(b'\n') {
                b'\\' if i + 1 < line_end && matches!(self.s.get(i + 1), Some(b'"' | b'\\')) => {
                    escaped = true;
                    i += 2;
                }
                b'"' => {
                    let mut j = i + 1;
                    while j < line_end && matches!(self.s.get(j), Some(b' ' | b'\t')) {
                        j += 1;
                    }
                    if j < line_end && self.s.get(j) == Some(&b']') {
                        close = Some((i, j + 1));
                        break;
                    }
                    inner_quote = true;
                    i += 1;
                }
                _ => i += 1,
            }
        }
        let (value_end, end) = match close {
            Some(c) => c,
            None => {
                // no `"]` on the line: the value runs to the last `]` or the line end
                let k = self.bytes(v, line_end).iter().rposition(|&b| b == b']');
                let value_end = k.map_or(line_end, |k| v + k);
                let end = k.map_or(line_end, |k| v + k + 1);
                let value_end = v + self.str_at(v, value_end).trim_end_matches('"').len();
                self.diag(
                    Diagnostic::warning(
                        Code::MalformedTag,
                        "expected `\"]` closing the tag value, found the end of the line",
                    ),
                    start,
                    end,
                );
                (value_end, end)
            }
        };
        if inner_quote && close.is_some() {
            self.diag(
                Diagnostic::note(
                    Code::TagUnescapedQuote,
                    "a `\"` inside the tag value is not escaped as `\\\"`",
                ),
                start,
                end,
            );
        }
        self.out.tags.push(RawTag {
            span: span(start, end),
            name: name_span,
            value: span(v, value_end),
            escaped,
        });
        self.pos = end;
    }

    fn escape(&mut self) {
        let start = self.pos;
        let end = self.line_end(start);
        self.push(Element::Escape {
            span: span(start, end),
        });
        self.pos = end;
    }

    fn line_comment(&mut self) {
        let start = self.pos;
        let end = self.line_end(start);
        self.push(Element::Comment {
            kind: CommentKind::Line,
            closed: false,
            body: span(start + 1, end),
        });
        self.pos = end;
    }

    fn brace_comment(&mut self) {
        let start = self.pos;
        let body = self.bytes(start + 1, self.s.len());
        // PGN comments do not nest: the first `}` closes the comment
        let first = memchr::memchr(b'}', body);
        let inner_open = memchr::memchr(b'{', first.map_or(body, |k| &body[..k])).is_some();
        let mut close = first.map(|k| start + 1 + k);
        if inner_open {
            // `{a {nested} brace}`: read nested when the nested reading closes and what
            // it adds after the first `}` holds no move number (an unmatched `{`, as
            // in ChessBase's Informant references, would swallow the moves after it)
            let nested_close = nested_close(body).map(|k| start + 1 + k);
            let added = match (close, nested_close) {
                (Some(a), Some(b)) => Some(self.bytes(a + 1, b)),
                _ => None,
            };
            if let Some(added) = added
                && !holds_move_number(added)
            {
                close = nested_close;
                self.diag(
                    Diagnostic::note(Code::NestedComment, "braces inside a comment are nested"),
                    start,
                    nested_close.map_or(start + 1, |c| c + 1),
                );
            } else {
                let end = close.map_or(self.s.len(), |c| c + 1);
                self.diag(
                    Diagnostic::note(
                        Code::BraceInComment,
                        "a `{` inside a comment is text (PGN comments do not nest): the first `}` closes the comment",
                    ),
                    start,
                    end,
                );
            }
        }
        let (body_end, end) = match close {
            Some(c) => (c, c + 1),
            None => {
                let len = self.s.len();
                self.diag(
                    Diagnostic::warning(
                        Code::UnterminatedComment,
                        "expected `}` closing the comment, found the end of the game",
                    ),
                    start,
                    start + 1,
                );
                (len, len)
            }
        };
        if body_end - start > self.limits.max_comment_bytes {
            self.diag(
                Diagnostic::warning(
                    Code::CommentTooLong,
                    format!(
                        "comment of {} bytes is longer than the {}-byte limit",
                        body_end - start - 1,
                        self.limits.max_comment_bytes
                    ),
                ),
                start,
                start + 1,
            );
        }
        self.push(Element::Comment {
            kind: CommentKind::Brace,
            closed: end > body_end,
            body: span(start + 1, body_end),
        });
        self.pos = end;
    }

    fn movetext<const FAST: bool>(&mut self) {
        loop {
            self.skip_ws();
            let Some(&b) = self.s.get(self.pos) else {
                return;
            };
            if self.out.movetext.len() >= self.limits.max_elements {
                let (a, e) = (self.pos, self.s.len());
                self.diag(
                    Diagnostic::error(
                        Code::GameTooLong,
                        format!(
                            "more than {} movetext elements; the rest of the game is not read",
                            self.limits.max_elements
                        ),
                    ),
                    a,
                    e,
                );
                return;
            }
            match b {
                b'{' => self.brace_comment(),
                b';' => self.line_comment(),
                b'%' if self.at_line_start(self.pos) => self.escape(),
                b'(' => self.open_paren(),
                b')' => self.close_paren(),
                b'}' => {
                    let p = self.pos;
                    self.diag(
                        Diagnostic::warning(
                            Code::UnmatchedBrace,
                            "found `}` without an opening `{`",
                        ),
                        p,
                        p + 1,
                    );
                    self.pos += 1;
                }
                b'$' => self.nag(),
                b'[' if self.looks_like_tag(self.pos) => {
                    if self.moves_seen && self.open.is_empty() {
                        self.out.rest = Some(self.pos);
                        return;
                    }
                    self.tag::<FAST>();
                }
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' if FAST => self.simple_run(),
                0x80.. if FAST && self.move_letter_at(self.pos).is_some() => self.simple_run(),
                _ => self.token(),
            }
            if self.stop {
                return;
            }
        }
    }

    fn close_variations(&mut self) {
        if !self.open.is_empty() && !self.stop && self.out.rest.is_none() {
            let mut resumed = false;
            while self.resume_main_line() {
                resumed = true;
            }
            if resumed && self.open.is_empty() {
                self.result_after_resume();
            }
        }
        if let Some(&first) = self.open.first() {
            let n = self.open.len();
            self.diag(
                Diagnostic::warning(
                    Code::UnclosedVariation,
                    format!("expected `)` closing {n} variation(s), found the end of the game"),
                ),
                first,
                first + 1,
            );
        }
        let end = if self.out.rest.is_some() || self.stop {
            self.pos
        } else {
            self.s.len()
        };
        while self.open.pop().is_some() {
            self.out.movetext.push(Element::EndVariation {
                span: span(end, end),
            });
        }
    }

    /// Closes the outermost variation left open at the end of the game where the main
    /// line goes on: at a move number of the variation's own level that goes back (below
    /// the variation's next move) to the main line's next move, as `2.` after
    /// `1. e4 e5 (1... c5 2. Nf3`. The moves from there are the main line's again; a
    /// warning says so. `false` (nothing changed) when there is no such number.
    fn resume_main_line(&mut self) -> bool {
        let Some(&first) = self.open.first() else {
            return false;
        };
        let mt = &self.out.movetext;
        let Some(k0) = mt.iter().rposition(
            |e| matches!(e, Element::StartVariation { span } if span.start as usize == first),
        ) else {
            return false;
        };
        // the ply of the main line's next move: its last move number, then its moves
        let mut depth = 0usize;
        let mut next: Option<u64> = None;
        for e in mt.get(..k0).unwrap_or(&[]) {
            match *e {
                Element::StartVariation { .. } => depth += 1,
                Element::EndVariation { .. } => depth = depth.saturating_sub(1),
                Element::MoveNumber { number, black, .. } if depth == 0 => {
                    next = Some(ply_of(number, black));
                }
                Element::Move { .. } if depth == 0 => {
                    if let Some(p) = &mut next {
                        *p += 1;
                    }
                }
                _ => {}
            }
        }
        let Some(next) = next else {
            return false;
        };
        let mut depth = 0usize;
        let mut here: Option<u64> = None;
        let mut at = None;
        for (k, e) in mt.iter().enumerate().skip(k0 + 1) {
            match *e {
                Element::StartVariation { .. } => depth += 1,
                Element::EndVariation { .. } => depth = depth.saturating_sub(1),
                Element::MoveNumber {
                    number,
                    black,
                    span,
                } if depth == 0 => {
                    let ply = ply_of(number, black);
                    if ply == next && here.is_some_and(|h| ply < h) {
                        at = Some((k, span));
                        break;
                    }
                    here = Some(ply);
                }
                Element::Move { .. } if depth == 0 => {
                    if let Some(h) = &mut here {
                        *h += 1;
                    }
                }
                _ => {}
            }
        }
        let Some((k, number)) = at else {
            return false;
        };
        self.out.movetext.insert(
            k,
            Element::EndVariation {
                span: Span::new(number.start, number.start),
            },
        );
        self.open.remove(0);
        // the moves read on are the main line's: their letters count for it
        let mut depth = 0usize;
        for e in self.out.movetext.get(k + 1..).unwrap_or(&[]) {
            match *e {
                Element::StartVariation { .. } => depth += 1,
                Element::EndVariation { .. } => depth = depth.saturating_sub(1),
                Element::Move { span, .. } if depth == 0 => {
                    self.out.move_letters |= move_letters(span_bytes(self.s, span));
                }
                _ => {}
            }
        }
        let written = number.slice(self.text).to_owned();
        self.diag(
            Diagnostic::warning(
                Code::UnclosedVariation,
                format!(
                    "expected `)` closing this variation, found `{written}` going back to the main line's next move; the main line is read on from there"
                ),
            ),
            first,
            first + 1,
        );
        true
    }

    /// After [`Self::resume_main_line`] closed every open variation: a result that was
    /// read inside one (a `result-in-variation` note) after the last element is the
    /// game's result.
    fn result_after_resume(&mut self) {
        if self.out.result.is_some() {
            return;
        }
        let last_end = self.out.movetext.last().map_or(0, |e| e.span().end);
        let Some(i) = self
            .out
            .diagnostics
            .iter()
            .rposition(|d| d.code == Code::ResultInVariation)
        else {
            return;
        };
        let Some(span) = self.out.diagnostics.get(i).and_then(|d| d.span) else {
            return;
        };
        if span.start < last_end {
            return;
        }
        if let Some(r) = result_token(span.slice(self.text)) {
            self.out.diagnostics.remove(i);
            self.out.result = Some((r, span));
        }
    }

    fn last_is_move(&self) -> bool {
        matches!(self.out.movetext.last(), Some(Element::Move { .. }))
    }

    fn open_paren(&mut self) {
        let start = self.pos;
        let r = self.rest();
        if r.starts_with("(=)") {
            self.push(Element::DrawOffer {
                span: span(start, start + 3),
            });
            self.pos = start + 3;
            return;
        }
        if r.starts_with("(e.p.)") && self.last_is_move() {
            self.extend_ep(start, start + 6);
            return;
        }
        if self.open.len() >= self.limits.max_depth {
            self.diag(
                Diagnostic::error(
                    Code::VariationTooDeep,
                    format!(
                        "variations nested deeper than {}; the rest of the game is not read",
                        self.limits.max_depth
                    ),
                ),
                start,
                start + 1,
            );
            self.stop = true;
            return;
        }
        self.open.push(start);
        self.push(Element::StartVariation {
            span: span(start, start + 1),
        });
        self.pos = start + 1;
    }

    fn close_paren(&mut self) {
        let p = self.pos;
        self.pos += 1;
        if self.open.pop().is_some() {
            self.push(Element::EndVariation {
                span: span(p, p + 1),
            });
        } else {
            self.diag(
                Diagnostic::warning(
                    Code::UnmatchedParenthesis,
                    "found `)` without an opening `(`",
                ),
                p,
                p + 1,
            );
        }
    }

    fn nag(&mut self) {
        self.odd |= matches!(
            self.out.movetext.last(),
            Some(Element::StartVariation { .. })
        );
        let start = self.pos;
        match nag(self.rest()) {
            Ok((after, digits)) => {
                let end = self.text.len() - after.len();
                match digits.parse::<u8>() {
                    Ok(value) => self.push(Element::Nag {
                        value,
                        span: span(start, end),
                    }),
                    Err(_) => self.diag(
                        Diagnostic::warning(
                            Code::InvalidNag,
                            format!("expected a NAG from $0 to $255, found ${digits}"),
                        ),
                        start,
                        end,
                    ),
                }
                self.pos = end;
            }
            Err(_) => {
                self.diag(
                    Diagnostic::warning(Code::InvalidNag, "expected digits after `$`"),
                    start,
                    start + 1,
                );
                self.pos = start + 1;
            }
        }
    }

    /// The end of the token starting at `start`.
    #[inline]
    fn token_end(&self, start: usize) -> usize {
        let s = self.s;
        let mut i = start;
        loop {
            // the common case: a run of ordinary ASCII bytes
            let run = s
                .get(i..)
                .unwrap_or(&[])
                .iter()
                .position(|&b| CLASS[usize::from(b)] != 0);
            let Some(run) = run else {
                i = s.len();
                break;
            };
            i += run;
            let Some(&b) = s.get(i) else {
                break;
            };
            let class = CLASS[usize::from(b)];
            if class != HIGH {
                if class == WS {
                    break;
                }
                if class == PAREN {
                    // glued one-letter promotion `a8(Q)`, `a8(Ф)`
                    if i > start
                        && let Some(c) = self.char_at(i + 1)
                        && c.is_alphabetic()
                        && s.get(i + 1 + c.len_utf8()) == Some(&b')')
                    {
                        i += c.len_utf8() + 2;
                        continue;
                    }
                    break;
                }
                break;
            } else {
                match self.high_at(i) {
                    Some((_, true)) => break,
                    Some((len, false)) => i += len,
                    None => i += 1,
                }
            }
        }
        i.max(start + 1).min(s.len())
    }

    /// The hot path: a run of moves (`Nf3`, `exd5+`, and in other scripts `马f3`,
    /// `♘xd5`, `e8=Ф`: a token starting with an ASCII letter or a move letter) and move
    /// numbers (`12.`, `12...`, glued `12.Nf3`, bare `12`) separated by ASCII white
    /// space, read byte by byte in one loop. It gives the elements [`Self::token`] would
    /// give; a number it does not take at once (a result, a long number…) goes to
    /// [`Self::token`], and anything else between tokens (non-ASCII white space
    /// included) back to [`Self::movetext`].
    fn simple_run(&mut self) {
        let s = self.s;
        if u32::try_from(s.len()).is_err() {
            // spans in `scan_run` are plain casts
            self.token();
            return;
        }
        let max = self.limits.max_elements;
        // The element list is taken out of `self.out` for the run (and put back for
        // `ep_suffix`, which extends its last element). No variation opens or closes in
        // the run (a `(` or `)` ends it), so whether its moves are on the main line
        // ([`Self::note_move`]'s rule) is known at the start.
        let mut out = std::mem::take(&mut self.out.movetext);
        let run_start = out.len();
        let main = self.open.is_empty();
        let mut letters_main = 0;
        let mut numbers = 0;
        let mut pos = ascii_space_end(s, self.pos);
        let stop = loop {
            let run = scan_run(s, pos, &mut out, max);
            numbers += run.numbers;
            self.odd |= run.odd;
            self.run_letters |= run.letters;
            if main {
                letters_main |= run.letters;
            }
            pos = run.pos;
            match run.stop {
                RunStop::LongMove => {
                    let end = self.token_end(pos);
                    // a plain move (`e8=后`, `a1=♕+`) is no typed form
                    self.odd |= !forms::plain(self.bytes(pos, end));
                    let span = Span::new(pos as u32, end as u32);
                    self.note_move(span);
                    out.push(Element::Move { span, ep: None });
                    pos = ascii_space_end(s, end);
                    if pos > end && matches!(s.get(pos), Some(b'e' | b'(')) {
                        pos = self.suffix_in_run(&mut out, end, pos);
                    }
                }
                RunStop::Suffix(end) => pos = self.suffix_in_run(&mut out, end, pos),
                stop => break stop,
            }
        };
        self.moves_seen |= out.len() > run_start;
        self.out.counts.moves += out.len() - run_start - numbers;
        self.out.movetext = out;
        self.out.move_letters |= letters_main & !SCAN_DOT;
        self.pos = pos;
        if stop == RunStop::Number {
            self.token();
        }
    }

    /// [`Self::ep_suffix`] for [`Self::simple_run`], which holds the elements in `out`:
    /// the move just read ends at `end`, and white space then `e` or `(` follow it up to
    /// `pos`. Returns where the run goes on (after the suffix and white space, or at
    /// `pos` when there is no suffix).
    fn suffix_in_run(&mut self, out: &mut Vec<Element>, end: usize, pos: usize) -> usize {
        self.out.movetext = std::mem::take(out);
        self.pos = end;
        self.ep_suffix(end);
        *out = std::mem::take(&mut self.out.movetext);
        if self.pos == end {
            pos
        } else {
            ascii_space_end(self.s, self.pos)
        }
    }

    #[inline]
    fn token(&mut self) {
        let start = self.pos;
        let mut end = self.token_end(start);
        // `1&ndash;0`, `&ndash;`: the `;` of an HTML entity does not start a comment
        if self.s.get(end) == Some(&b';') && entity_open(self.bytes(start, end)) {
            end += 1;
            if self.s.get(end).is_some_and(|&b| CLASS[usize::from(b)] == 0) {
                end = self.token_end(end);
            }
        }
        if self.s.get(start).is_some_and(u8::is_ascii_alphabetic) {
            // fast path: a token starting with an ASCII letter can only be a move
            self.odd = true;
            self.push(Element::Move {
                span: span(start, end),
                ep: None,
            });
            self.pos = end;
            // most moves are followed by one space and a token that is not a suffix
            if self.s.get(end) != Some(&b' ')
                || matches!(self.s.get(end + 1), Some(b'e' | b'(' | b' ' | b'\t'))
            {
                self.ep_suffix(end);
            }
            return;
        }
        if self.s.get(start).is_some_and(|&b| b >= 0x80) && self.move_letter_at(start).is_some() {
            // a token starting with a letter that folds to no digit, dot or glyph can
            // only be a move
            self.move_token(start, end);
            return;
        }
        let tok = self.text.get(start..end).unwrap_or("");
        if let Some(r) = result_token(tok) {
            self.pos = end;
            if self.open.is_empty() {
                self.out.result = Some((r, span(start, end)));
                self.skip_ws();
                if self.pos < self.s.len() {
                    self.out.rest = Some(self.pos);
                    self.stop = true;
                }
            } else {
                self.diag(
                    Diagnostic::note(
                        Code::ResultInVariation,
                        "a result inside a variation is ignored",
                    ),
                    start,
                    end,
                );
            }
            return;
        }
        if zeros_move(tok) {
            // castling `00`, `000` and the null move `0000`: never move numbers
            self.move_token(start, end);
            return;
        }
        if tok.as_bytes().first().is_some_and(u8::is_ascii_digit)
            && let Ok((after, (number, black))) = move_number(self.rest())
        {
            let e = self.text.len() - after.len();
            if self.bytes(start, e).iter().all(u8::is_ascii_digit)
                && move_cell_due(&self.out.movetext)
            {
                // `11. 65 d5`: a bare number where a move is written is a slip of it
                self.move_token(start, end);
                return;
            }
            self.push(Element::MoveNumber {
                number,
                black,
                span: span(start, e),
            });
            self.pos = e;
            return;
        }
        if tok.starts_with(|c: char| !c.is_ascii() && normalize::digit_value(c).is_some())
            && let Ok((after, (number, black))) = wide_move_number(self.rest())
        {
            let e = self.text.len() - after.len();
            self.push(Element::MoveNumber {
                number,
                black,
                span: span(start, e),
            });
            self.pos = e;
            return;
        }
        if tok.starts_with(['.', '…']) {
            let rest = tok.trim_start_matches(['.', '…']);
            let dots = start + tok.len() - rest.len();
            if rest.is_empty() || rest == "," {
                // `1. ... Nf6`, `1. ..., Nf6`: the dots (and the comma typed after them)
                // mark Black's move of the number before them
                match self.out.movetext.last_mut() {
                    Some(Element::MoveNumber { black, span: s, .. }) => {
                        *black = true;
                        *s = s.join(span(start, end));
                    }
                    // `3. A4+5 …………`: the placeholder of Black's move after Red's,
                    // kept (a note splits the pair; Black's move comes numbered later)
                    Some(Element::Move { .. }) if tok.starts_with('…') && rest.is_empty() => {
                        self.push(Element::Annotation {
                            span: span(start, end),
                        });
                    }
                    _ => {}
                }
                self.pos = end;
                return;
            }
            if let Some(Element::MoveNumber { black, span: s, .. }) = self.out.movetext.last_mut() {
                // `1. ...e5`, `9.…………车2进5`: the dots glued to Black's move
                *black = true;
                *s = s.join(span(start, dots));
                self.move_token(dots, end);
                return;
            }
        }
        if tok.starts_with(is_glyph_char) && tok != "--" && tok.chars().all(is_glyph_char) {
            self.odd = true;
            self.push(Element::Annotation {
                span: span(start, end),
            });
            self.pos = end;
            return;
        }
        self.move_token(start, end);
    }

    /// The move token `start..end`, with an en-passant suffix after it.
    #[inline]
    fn move_token(&mut self, start: usize, end: usize) {
        self.odd = true;
        self.push(Element::Move {
            span: span(start, end),
            ep: None,
        });
        self.pos = end;
        self.ep_suffix(end);
    }

    /// An en-passant suffix after whitespace following the move that ends at `end`.
    #[inline]
    fn ep_suffix(&mut self, end: usize) {
        let mut j = end;
        while matches!(self.s.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        if j == end || !matches!(self.s.get(j), Some(b'e' | b'(')) {
            return;
        }
        let r = self.text.get(j..).unwrap_or("");
        for pat in ["(e.p.)", "e. p.", "e.p.", "e.p", "ep"] {
            if r.starts_with(pat) {
                let k = j + pat.len();
                let boundary = match self.s.get(k) {
                    None => true,
                    Some(&b) => b.is_ascii_whitespace() || is_delim(b),
                };
                if boundary || pat == "(e.p.)" {
                    self.extend_ep(j, k);
                    return;
                }
            }
        }
    }

    fn extend_ep(&mut self, a: usize, b: usize) {
        if let Some(Element::Move { span: s, ep }) = self.out.movetext.last_mut() {
            *s = s.join(span(a, b));
            // after the token: never at 0
            *ep = u32::try_from(a).ok().and_then(NonZeroU32::new);
            let whole = *s;
            self.note_move(whole);
        }
        self.pos = b;
    }
}

/// The text of a comment with the escapes the PGN writer makes read back (`\x7b`,
/// `\x7d`, `\x5c` as `{`, `}`, `\`); borrowed when it holds none. Applied to every
/// comment read, so a comment written by kyphu reads back as the text it held.
pub fn unescape_comment(text: &str) -> Cow<'_, str> {
    if !text.contains("\\x") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("\\x") {
        out.push_str(rest.get(..i).unwrap_or(""));
        let tail = rest.get(i..).unwrap_or("");
        let c = match tail.get(..4) {
            Some("\\x7b") => Some('{'),
            Some("\\x7d") => Some('}'),
            Some("\\x5c") => Some('\\'),
            _ => None,
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = tail.get(4..).unwrap_or("");
            }
            None => {
                out.push('\\');
                rest = tail.get(1..).unwrap_or("");
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use fast::value_stop;

    /// A compact rendering of the elements: `N1` number, `N1b` black number, `M:text`,
    /// `A:text`, `C:body`, `L:body`, `$n`, `=`, `(`, `)`, `%`.
    fn render(text: &str) -> (Vec<String>, GameSyntax) {
        let g = parse_game(text, &Limits::default());
        let r = g
            .movetext
            .iter()
            .map(|e| match *e {
                Element::MoveNumber { number, black, .. } => {
                    format!("N{number}{}", if black { "b" } else { "" })
                }
                Element::Move { span, .. } => format!("M:{}", span.slice(text)),
                Element::Annotation { span } => format!("A:{}", span.slice(text)),
                Element::Comment {
                    kind: CommentKind::Brace,
                    body,
                    ..
                } => format!("C:{}", body.slice(text)),
                Element::Comment { body, .. } => format!("L:{}", body.slice(text)),
                Element::Nag { value, .. } => format!("${value}"),
                Element::DrawOffer { .. } => "=".into(),
                Element::StartVariation { .. } => "(".into(),
                Element::EndVariation { .. } => ")".into(),
                Element::Escape { span } => format!("%{}", span.slice(text)),
            })
            .collect();
        (r, g)
    }

    /// The tokens [`is_move_letter`] lets [`Parser_::token`] take as moves at once
    /// could be nothing else.
    #[test]
    fn move_letters_start_only_moves() {
        let mut n = 0;
        for c in (0x80..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| is_move_letter(u32::from(c)))
        {
            assert!(normalize::digit_value(c).is_none(), "{c:?}");
            assert!(!is_glyph_char(c) && c != '…', "{c:?}");
            for tail in ["", "1-0", "-½", "*"] {
                assert_eq!(result_token(&format!("{c}{tail}")), None, "{c:?}");
            }
            n += 1;
        }
        assert!(n > 20_000);
    }

    /// Tokens in other scripts, next to non-ASCII spaces, at line ends, mixed.
    #[test]
    fn non_ascii_tokens() {
        let cases: &[(&str, &str)] = &[
            ("1. ♘f3\n♞c6\r\n2. ♗b5", "N1 M:♘f3 M:♞c6 N2 M:♗b5"),
            ("1. ♘f3", "N1 M:♘f3"),
            ("1.　马f3　马c6 ２．车e1", "N1 M:马f3 M:马c6 N2 M:车e1"),
            ("1. اf3\u{00A0}اc6 ۲. کe1", "N1 M:اf3 M:اc6 N2 M:کe1"),
            ("1. 马f3\u{2009}♞c6\u{FEFF} ½-½", "N1 M:马f3 M:♞c6"),
            ("1. Кf3 马c6 ♘e5 ۱-۰", "N1 M:Кf3 M:马c6 M:♘e5"),
            (
                "1. Me\u{0302}\u{0301}f3 ♘xd5 e.p. ±",
                "N1 M:Me\u{0302}\u{0301}f3 M:♘xd5 e.p. A:±",
            ),
            ("1. ♘f3!? 马x ½", "N1 M:♘f3!? M:马x"),
            ("1. \u{1680}♘f3\u{2028}♞f6\u{3000}", "N1 M:♘f3 M:♞f6"),
        ];
        for &(input, want) in cases {
            assert_eq!(render(input).0.join(" "), want, "{input:?}");
        }
    }

    fn codes(g: &GameSyntax) -> Vec<&'static str> {
        g.diagnostics.iter().map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn movetext_forms() {
        let cases: &[(&str, &str)] = &[
            ("1. e4 e5 2. Nf3", "N1 M:e4 M:e5 N2 M:Nf3"),
            ("1.e4 e5 2.Nf3", "N1 M:e4 M:e5 N2 M:Nf3"),
            ("1... e5", "N1b M:e5"),
            ("1…e5", "N1b M:e5"),
            ("1. ... e5", "N1b M:e5"),
            ("1 e4 e5 2 Nf3", "N1 M:e4 M:e5 N2 M:Nf3"),
            ("1) e4 e5", "N1 M:e4 M:e5"),
            ("12. O-O 0-0-0", "N12 M:O-O M:0-0-0"),
            ("e4 e5 Nf3", "M:e4 M:e5 M:Nf3"),
            ("1. P2-5 M2.3", "N1 M:P2-5 M:M2.3"),
            ("1) X2.1  -Tg6.1", "N1 M:X2.1 M:-Tg6.1"),
            ("1. 炮二平五 马８进７", "N1 M:炮二平五 M:马８进７"),
            ("1.炮二平五马８进７", "N1 M:炮二平五 M:马８进７"),
            ("1. C2.5 H8+7 2. h2e2", "N1 M:C2.5 M:H8+7 N2 M:h2e2"),
            ("1. e4!? e5?! 2. Nf3+", "N1 M:e4!? M:e5?! N2 M:Nf3+"),
            (
                "1. e4 !? e5 +- 2. Nf3 ±",
                "N1 M:e4 A:!? M:e5 A:+- N2 M:Nf3 A:±",
            ),
            ("1. e4 -- 2. d4", "N1 M:e4 M:-- N2 M:d4"),
            ("1. e4 $1 $14 e5", "N1 M:e4 $1 $14 M:e5"),
            ("1. e4$1 e5", "N1 M:e4 $1 M:e5"),
            ("1. e4 {Best} e5", "N1 M:e4 C:Best M:e5"),
            (
                "1. e4 {a {nested} brace} e5",
                "N1 M:e4 C:a {nested} brace M:e5",
            ),
            ("1. e4 ; rest\n2. Nf3", "N1 M:e4 L: rest N2 M:Nf3"),
            (
                "1. e4 e5\n% escape\n2. Nf3",
                "N1 M:e4 M:e5 %% escape N2 M:Nf3",
            ),
            ("1. e4 (1. d4 d5) e5", "N1 M:e4 ( N1 M:d4 M:d5 ) M:e5"),
            (
                "1. e4 (1. d4 (1. c4)) e5",
                "N1 M:e4 ( N1 M:d4 ( N1 M:c4 ) ) M:e5",
            ),
            ("1. e4 e5 2. Nf3 (=) Nc6", "N1 M:e4 M:e5 N2 M:Nf3 = M:Nc6"),
            ("1. e4 e5 2. Nf3(=) Nc6", "N1 M:e4 M:e5 N2 M:Nf3 = M:Nc6"),
            ("3. exd6 e.p. Qxd6", "N3 M:exd6 e.p. M:Qxd6"),
            ("3. exd6 e. p. Qxd6", "N3 M:exd6 e. p. M:Qxd6"),
            ("3. exd6 ep Qxd6", "N3 M:exd6 ep M:Qxd6"),
            ("3. exd6 (e.p.) Qxd6", "N3 M:exd6 (e.p.) M:Qxd6"),
            ("3. exd6ep Qxd6", "N3 M:exd6ep M:Qxd6"),
            ("1. a8(Q) Kg6 2. a8=Q", "N1 M:a8(Q) M:Kg6 N2 M:a8=Q"),
            ("1. a8(Q)(=) Kg6", "N1 M:a8(Q) = M:Kg6"),
            ("1.\u{a0}e4\u{3000}e5", "N1 M:e4 M:e5"),
            (
                "1. e4 e5 2. Nf3 2... Nc6",
                "N1 M:e4 M:e5 N2 M:Nf3 N2b M:Nc6",
            ),
            (
                "１．炮二平五 马８进７ ２．马二进三",
                "N1 M:炮二平五 M:马８进７ N2 M:马二进三",
            ),
            ("۱. e4 e5 ۲. اf3", "N1 M:e4 M:e5 N2 M:اf3"),
            ("١٢) e4 ١٢… e5", "N12 M:e4 N12b M:e5"),
            ("۱۲ e4", "N12 M:e4"),
            ("۱۲x", "M:۱۲x"),
        ];
        for (input, want) in cases {
            let (r, g) = render(input);
            assert_eq!(r.join(" "), *want, "{input:?}");
            assert!(
                g.diagnostics.is_empty() || input.contains('{'),
                "{input:?}: {:?}",
                g.diagnostics
            );
        }
    }

    /// Tricky movetext, for the fast scanner and the general path alike.
    const TRICKY: &[&str] = &[
        "1.e4 e5 2.Nf3",
        "12...Nf6 13.O-O-O# e8=Q+",
        "1. e4 {a} $12 (1...c5) e5",
        "1.e4 e5 1-0",
        "1.e4 e5 1-0\n\n1.d4",
        "1.e4 1/2-1/2",
        "1.e4 0.5-0.5",
        "1.e4 0.5",
        "0.e4 0. e5 00.e4",
        "1.e4 e5 *",
        "1.e4\r\n1...e5\r\n%esc\r\n2.Nf3;x\r\n2...Nc6",
        "1.e4 e5\n%esc\n2.Nf3",
        "1.…e5 1.… e5 1…e5 1. ... e5 1.. e5",
        "1.\u{a0}e4\u{3000}e5 2.马f3 ２．车e1 ۱. e4",
        "1.e4马 e5\u{3000}Nf3\u{2009}",
        "1.a8(Q) b1(N)(=) c1(=) d1( e5)",
        "1.e4 e5( 2.Nf3)e6$1 e7{c}e8;x",
        "exd6 e.p. exd6\te.p. exd6  ep exd6 (e.p.) exd6 e. p. e4 eat",
        "1 e4 12 e5 123\n1\t2\r3",
        "1\x1a e4 2\x0b e5 3\x0c e6",
        "1)e4 1)-0 1/2 1:0 0:1 1-",
        "4294967295. e4 4294967296. e5 9999999999 1234567890.",
        "000000001.e4 0000000001.e5",
        "e4 !? +- -- Nf3 ± 2.",
        "1.e4 [Event \"x\"] 1.d4",
        "[Event \"x\"]\n[Site \"y\"]\n\n1.e4 e5 1-0",
        "e4",
        "1.",
        "1",
        "12",
        "e4 ",
        "a}b$c)d;e",
        "1. 马f3 车xe1+ 2. 兵e4 后xd8# 马\u{3000}f3 1-0",
        "1. اf3 فxc3 ۲. رd8 شg8 وe2+ ۱-۰",
        "1.♘f3 ♞xd5 e.p. ♕e8=♛ ♙(e.p.) ½-½",
        "1. e8=后 e8=♕ a8(Ф) b1(马) c1(马 e4马 e4\u{3000}马f3\u{2009}♘f3\u{FEFF}",
        "1. Mf3 Tê Nguyễn e\u{0302}\u{0301}f3 马\u{0301} ♘\u{2028}♞\u{85}马",
        "1. 马f3{c}车e1;x\n马(马)♘$1♞}兵)后 马 ep 马 (e.p.) 马\te.p.",
        "1.马f3 2.♘f3 3…马 4...♞ 5.اf3 6.ک ۲. ۲.马 马۲ 马1-0 马 1-0",
        "马 1.e4 [Event \"x\"] ♘ 马😀 😀马 ♘– ♘—♘",
        // the letters on the way: letters after the first byte,
        // first bytes no English move starts with, a glued promotion, a space after
        "1.e4 e5 2.exd8=D",
        "1.Nf3H e5",
        "1.e4 Sf3",
        "1.e4 e5 2.a8(Q) Nf6",
        "1.e4 e5 2.a8(D) Nf6",
        "1.e4\u{a0}e5 2.Nf3\u{3000}Nc6",
        "1.e4 e5 (1...Sf3) 2.Nf3",
    ];

    /// The fast scanner ([`Parser_::simple_run`]) gives exactly what the general path
    /// gives: the same elements, spans, diagnostics, result and rest.
    #[test]
    fn fast_scanner_agrees_with_general_path() {
        let small = Limits {
            max_elements: 3,
            ..Limits::default()
        };
        for text in TRICKY {
            for limits in [&Limits::default(), &small] {
                let fast = parse_with::<true>(text, limits);
                assert_eq!(fast, parse_with::<false>(text, limits), "{text:?}");
                assert_eq!(fast.counts, MovetextCounts::of(&fast.movetext), "{text:?}");
            }
        }
        // the fast scanner is taken, and splits glued numbers and moves
        let (r, _) = render("1.e4 e5 2.Nf3 12...Nf6 13. O-O-O# 14 e8=Q+\n15.e4");
        assert_eq!(
            r.join(" "),
            "N1 M:e4 M:e5 N2 M:Nf3 N12b M:Nf6 N13 M:O-O-O# N14 M:e8=Q+ N15 M:e4"
        );
    }

    use proptest::strategy::Just;

    proptest::proptest! {
        /// Random strings of movetext pieces read the same with and without the fast
        /// scanner.
        #[test]
        fn fast_scanner_agrees_on_random_movetext(
            pieces in proptest::collection::vec(0..FRAGMENTS.len(), 0..40),
            max_elements in 1usize..50,
        ) {
            let text: String = pieces.iter().map(|&k| FRAGMENTS[k]).collect();
            for limits in [Limits::default(), Limits { max_elements, ..Limits::default() }] {
                let fast = parse_with::<true>(&text, &limits);
                proptest::prop_assert_eq!(
                    fast.counts, MovetextCounts::of(&fast.movetext), "{:?}", text
                );
                proptest::prop_assert_eq!(
                    fast,
                    parse_with::<false>(&text, &limits),
                    "{:?}", text
                );
            }
        }

        /// Random tag sections (then a little movetext) read the same with and without
        /// [`Parser_::plain_tag`].
        #[test]
        fn plain_tags_agree_with_general_path(
            pieces in proptest::collection::vec(0..TAG_FRAGMENTS.len(), 0..30),
        ) {
            let text: String = pieces.iter().map(|&k| TAG_FRAGMENTS[k]).collect();
            proptest::prop_assert_eq!(
                parse_with::<true>(&text, &Limits::default()),
                parse_with::<false>(&text, &Limits::default()),
                "{:?}", text
            );
        }

        /// `value_stop` finds what a byte-by-byte search finds.
        #[test]
        fn value_stop_agrees_with_bytewise(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    Just(b'"'), Just(b'\\'), Just(b'\n'), Just(b'\r'), Just(b'\t'),
                    0u8..=255, b' '..=b'~', b' '..=b'~', b' '..=b'~'
                ],
                0..40,
            ),
        ) {
            let want = bytes.iter().position(|&b| matches!(b, b'"' | b'\\' | 0..0x0E));
            proptest::prop_assert_eq!(value_stop(&bytes), want);
        }
    }

    /// `n` random movetexts of up to 40 [`FRAGMENTS`] each.
    fn fragment_texts(seed: u64, n: usize) -> Vec<String> {
        let mut rng = crate::testing::XorShift::new(seed);
        (0..n)
            .map(|_| {
                (0..rng.below(40))
                    .map(|_| FRAGMENTS[rng.below(FRAGMENTS.len())])
                    .collect()
            })
            .collect()
    }

    /// `text` read by both scanners, with no element budget to speak of and with a
    /// small one.
    fn each_reading(text: &str, mut f: impl FnMut(GameSyntax)) {
        for max_elements in [1 << 20, 1 + text.len() % 7] {
            let limits = Limits {
                max_elements,
                ..Limits::default()
            };
            f(parse_with::<true>(text, &limits));
            f(parse_with::<false>(text, &limits));
        }
    }

    /// The counts the reader keeps ([`GameSyntax::counts`], [`RawGame::counts`]) are
    /// the counts of the elements it read ([`MovetextCounts::of`]): on many random
    /// games of movetext fragments (both scanners, small element budgets) and on every
    /// game of the corpus, read through the splitter (junk items, games split after a
    /// result).
    #[test]
    fn counts_agree_with_elements() {
        let mut texts = fragment_texts(0x2545_F491_4F6C_DD1D, 20_000);
        let mut moves = 0;
        for text in &texts {
            each_reading(text, |g| {
                assert_eq!(g.counts, MovetextCounts::of(&g.movetext), "{text:?}");
                moves += g.counts.moves;
            });
        }
        texts.extend(crate::testing::corpus_pgn_texts(""));
        let mut variations = 0;
        for text in &texts {
            for raw in crate::archive::read_str(text) {
                assert_eq!(
                    raw.counts,
                    Some(MovetextCounts::of(&raw.movetext)),
                    "{}",
                    raw.text
                );
                variations += usize::from(raw.counts.is_some_and(|c| c.variations));
            }
        }
        // both scanners ran on many moves, and many games have variations
        assert!(
            moves > 100_000 && variations > 1_000,
            "{moves} {variations}"
        );
    }

    #[rustfmt::skip]
    const TAG_FRAGMENTS: &[&str] = &[
        "[", "]", "\"", "\\", "\\\"", " ", "  ", "\t", "\n", "\r\n", "Event", "White_Elo", "Ü",
        "[Event \"x\"]", "[Site \"A long site name, 2024\"]", "[Round \"1\"]\n", "[E \"\"]",
        "[Event \"a\\\"b\"]", "[Event \"a\tb\"]", "[Event \"a\x0bb\"]", "[Event \"Nguyễn\"]",
        "[Event  \"x\"]", "[ Event \"x\"]", "[Event \"x\" ]", "[Event x]", "[Event \"x]",
        "[Event \"The \"big\" one\"]", "{c}", ";c\n", "%e\n", "1.e4 ", "e5 ", "1-0", "value",
    ];

    #[rustfmt::skip]
    const FRAGMENTS: &[&str] = &[
        "1", "12", "0", "9", "1234567890", ".", "...", "…", "e4", "Nf3", "e8=Q+", "O-O-O#",
        "x", "e", "p", "ep", "e.p.", "(Q)", "(", ")", "(=)", " ", " ", " ", "  ", "\n",
        "\r\n", "\t", "\x0b", "\x1a", "{a}", "{", "}", "$12", "$", ";c\n", "%", "1-0",
        "-", "/", ":", "0-1", "1/2-1/2", "1/2", "*", "0.5-0.5", "5", "½", "马", "\u{3000}",
        "\u{a0}", "２", "．", "۱", "+-", "!?", "[Event \"x\"]", "[", "]", "\"",
        // moves and pieces of moves in other scripts, and what may surround them
        "马f3", "车xe1+", "兵", "后", "王", "象", "اf3", "فxc3", "رd8", "ش", "و", "ی", "ک",
        "۲", "٣", "۱-۰", "♘f3", "♞xd5", "♔", "♙", "e8=♕", "e8=后", "a8(Ф)", "(Ф)", "Кf3",
        "Mf3", "Tê", "Nguyễn", "e\u{0302}\u{0301}", "\u{0301}", "\u{064B}", "\u{2009}",
        "\u{2028}", "\u{1680}", "\u{FEFF}", "\u{200E}", "\u{2013}", "±", "…", "—",
        "１－０", "ｅ４", "😀", "\u{85}",
        // letters English does not have, after a token's first byte
        "exd8=D", "Sf3", "Nf3H", "H", "a8(Q)",
    ];

    #[test]
    fn results() {
        let cases: &[(&str, GameResult)] = &[
            ("1. e4 1-0", GameResult::WhiteWins),
            ("1. e4 0-1", GameResult::BlackWins),
            ("1. e4 1/2-1/2", GameResult::Draw),
            ("1. e4 *", GameResult::Unknown),
            ("1. e4 ½-½", GameResult::Draw),
            ("1. e4 1/2", GameResult::Draw),
            ("1. e4 0:1", GameResult::BlackWins),
            ("1. e4 1–0", GameResult::WhiteWins),
        ];
        for (input, want) in cases {
            let (r, g) = render(input);
            assert_eq!(r.join(" "), "N1 M:e4", "{input}");
            let (res, sp) = g.result.unwrap();
            assert_eq!(res, *want, "{input}");
            assert_eq!(sp.slice(input), input.rsplit(' ').next().unwrap());
            assert_eq!(g.rest, None);
        }
    }

    #[test]
    fn result_then_more_text_splits() {
        let text = "1. e4 e5 1-0\n\n1. d4 d5 *";
        let g = parse_game(text, &Limits::default());
        assert_eq!(g.rest, Some(14));
        assert_eq!(g.result.unwrap().0, GameResult::WhiteWins);
        // a tag section after movetext also starts a new game
        let text = "1. e4 e5 [Event \"x\"] 1. d4";
        assert_eq!(parse_game(text, &Limits::default()).rest, Some(9));
    }

    #[test]
    fn tags() {
        let text =
            "  [Event \"The \"big\" one\"] [Site \"A \\\"q\\\" \\\\ b\"]\n[Round \"1\"]\n1. e4";
        let g = parse_game(text, &Limits::default());
        let tags: Vec<(&str, &str, bool)> = g
            .tags
            .iter()
            .map(|t| (t.name.slice(text), t.value.slice(text), t.escaped))
            .collect();
        assert_eq!(
            tags,
            [
                ("Event", "The \"big\" one", false),
                ("Site", "A \\\"q\\\" \\\\ b", true),
                ("Round", "1", false)
            ]
        );
        assert_eq!(codes(&g), ["tag-unescaped-quote"]);
        assert_eq!(g.movetext.len(), 2);

        let cases: &[(&str, &str, &str, &[&str])] = &[
            ("[Event \"x\"]", "Event", "x", &[]),
            ("[ Event  \"x\" ]", "Event", "x", &[]),
            ("[Event \"a]b\"]", "Event", "a]b", &[]),
            ("[Event Paris]", "Event", "Paris", &["tag-missing-quotes"]),
            ("[Event \"Paris]", "Event", "Paris", &["malformed-tag"]),
            ("[Event \"Paris\"", "Event", "Paris", &["malformed-tag"]),
            ("[Event \"\"]", "Event", "", &[]),
            ("[Event \"Nguyễn\"]", "Event", "Nguyễn", &[]),
        ];
        for (input, name, value, diags) in cases {
            let g = parse_game(input, &Limits::default());
            assert_eq!(g.tags.len(), 1, "{input}");
            assert_eq!(g.tags[0].name.slice(input), *name, "{input}");
            assert_eq!(g.tags[0].value.slice(input), *value, "{input}");
            assert_eq!(codes(&g), *diags, "{input}");
        }
    }

    #[test]
    fn diagnostics_for_broken_movetext() {
        let cases: &[(&str, &str, &[&str])] = &[
            (
                "1. e4 {never closed e5",
                "N1 M:e4 C:never closed e5",
                &["unterminated-comment"],
            ),
            ("1. e4 ) e5", "N1 M:e4 M:e5", &["unmatched-parenthesis"]),
            ("1. e4 } e5", "N1 M:e4 M:e5", &["unmatched-brace"]),
            (
                "1. e4 (1. d4 e5",
                "N1 M:e4 ( N1 M:d4 M:e5 )",
                &["unclosed-variation"],
            ),
            ("1. e4 $999 e5", "N1 M:e4 M:e5", &["invalid-nag"]),
            ("1. e4 $ e5", "N1 M:e4 M:e5", &["invalid-nag"]),
            (
                "1. e4 (1. d4 *) e5",
                "N1 M:e4 ( N1 M:d4 ) M:e5",
                &["result-in-variation"],
            ),
        ];
        for (input, want, diags) in cases {
            let (r, g) = render(input);
            assert_eq!(r.join(" "), *want, "{input}");
            assert_eq!(codes(&g), *diags, "{input}");
        }
    }

    /// Issue 22, case 4: an unclosed variation swallowed the rest of the game
    /// (`1. e4 e5 (1... c5 2. Nf3 2. Nf3 Nc6 3. Bb5 a6 *` read as one variation, the
    /// result ignored in it). The variation is closed where a move number goes back to
    /// the main line's next move; the result survives.
    #[test]
    fn unclosed_variation_resumes_the_main_line() {
        let text = "1. e4 e5 (1... c5 2. Nf3 2. Nf3 Nc6 3. Bb5 a6 *";
        let (r, g) = render(text);
        assert_eq!(
            r.join(" "),
            "N1 M:e4 M:e5 ( N1b M:c5 N2 M:Nf3 ) N2 M:Nf3 M:Nc6 N3 M:Bb5 M:a6"
        );
        assert_eq!(codes(&g), ["unclosed-variation"]);
        assert_eq!(g.result.map(|(r, _)| r), Some(GameResult::Unknown));
        assert!(
            g.diagnostics[0].message.contains("`2.`"),
            "{:?}",
            g.diagnostics
        );
        // nested, the inner one closed: the outer one resumes at Black's `1...`
        let (r, g) = render("1. e4 (1. d4 (1. c4 c5) d5 2. c4 1... e5 2. Nf3 1-0");
        assert_eq!(
            r.join(" "),
            "N1 M:e4 ( N1 M:d4 ( N1 M:c4 M:c5 ) M:d5 N2 M:c4 ) N1b M:e5 N2 M:Nf3"
        );
        assert_eq!(g.result.map(|(r, _)| r), Some(GameResult::WhiteWins));
        // no number going back: closed at the end, as before
        let (r, g) = render("1. e4 (1. d4 d5 2. c4");
        assert_eq!(r.join(" "), "N1 M:e4 ( N1 M:d4 M:d5 N2 M:c4 )");
        assert_eq!(codes(&g), ["unclosed-variation"]);
    }

    /// Issue 22, case 1: moves without numbers (`e4 e5 Nf3 Nc6`) were text between
    /// games, left out of the output. Moves shaped as English SAN are a game; prose is
    /// still junk.
    #[test]
    fn moves_without_numbers_are_a_game() {
        for text in [
            "e4 e5 Nf3 Nc6",
            "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O a3 Bxc3+ Qxc3",
            "e2e4 e7e5",
        ] {
            let g = parse_game(text, &Limits::default());
            assert!(g.plain_movetext && !g.is_junk(), "{text}");
        }
        for text in [
            "Downloaded from somewhere",
            "e4",
            "e4 is best",
            "a b c",
            "e4 e5 {x} 1-0",
        ] {
            let g = parse_game(text, &Limits::default());
            assert!(!g.plain_movetext, "{text}");
        }
    }

    #[test]
    fn budgets() {
        let limits = Limits {
            max_depth: 3,
            max_elements: 10,
            ..Limits::default()
        };
        let deep = format!("1. e4 {}", "(".repeat(100_000));
        let g = parse_game(&deep, &limits);
        assert_eq!(codes(&g), ["variation-too-deep", "unclosed-variation"]);
        let opens = g
            .movetext
            .iter()
            .filter(|e| matches!(e, Element::StartVariation { .. }))
            .count();
        let closes = g
            .movetext
            .iter()
            .filter(|e| matches!(e, Element::EndVariation { .. }))
            .count();
        assert_eq!((opens, closes), (3, 3));
        let long = "e4 ".repeat(100);
        let g = parse_game(&long, &limits);
        assert_eq!(codes(&g), ["game-too-long"]);
        assert_eq!(g.movetext.len(), 10);
        // the default depth limit holds against a hostile nesting without recursion
        let deep = "(".repeat(1_000_000);
        let g = parse_game(&deep, &Limits::default());
        assert_eq!(g.movetext.len(), 512);
        let limits = Limits {
            max_comment_bytes: 4,
            ..Limits::default()
        };
        assert_eq!(
            codes(&parse_game("{123456}", &limits)),
            ["comment-too-long"]
        );
    }

    #[test]
    fn spans_index_the_text() {
        let text = "[Event \"x\"]\n1. exd6 e.p. {c} $2 (=) *";
        let g = parse_game(text, &Limits::default());
        let slices: Vec<&str> = g.movetext.iter().map(|e| e.span().slice(text)).collect();
        assert_eq!(slices, ["1.", "exd6 e.p.", "{c}", "$2", "(=)"]);
        assert_eq!(g.result.unwrap().1.slice(text), "*");
        assert_eq!(g.movetext[1].ep_suffix().unwrap().slice(text), "e.p.");
        let text = "1. exd6 (e.p.) ;rest\nNf6 {open";
        let g = parse_game(text, &Limits::default());
        let slices: Vec<&str> = g.movetext.iter().map(|e| e.span().slice(text)).collect();
        assert_eq!(slices, ["1.", "exd6 (e.p.)", ";rest", "Nf6", "{open"]);
        assert_eq!(g.movetext[1].ep_suffix().unwrap().slice(text), "(e.p.)");
        assert_eq!(g.movetext[3].ep_suffix(), None);
    }

    /// The spans an element does not store (a comment's whole span, from its body and
    /// `closed`; a move's en-passant suffix, from where it starts and the move's end)
    /// cover what they say, on many random games of movetext fragments (both
    /// scanners, small element budgets) and on every game of the corpus, read through
    /// the splitter.
    #[test]
    fn derived_spans_cover_their_text() {
        let mut texts = fragment_texts(0x9FB2_1C65_1E98_DF25, 20_000);
        texts.extend(
            [
                "{a}", "{", "{a", ";", ";a", ";a\n", "{a}}", "{{a}}", "{{a}", "e4 ep", "e4 e. p.",
            ]
            .map(String::from),
        );
        let check = |text: &str, movetext: &[Element], seen: &mut [usize; 4]| {
            for e in movetext {
                let whole = e.span().slice(text);
                match *e {
                    Element::Comment { kind, closed, body } => {
                        let inner = body.slice(text);
                        assert!(
                            e.span().end as usize <= text.len() && !whole.is_empty(),
                            "{text:?}"
                        );
                        let (open, rest) = whole.split_at(1);
                        let rest = if closed {
                            rest.strip_suffix('}')
                        } else {
                            Some(rest)
                        };
                        assert_eq!(rest, Some(inner), "{text:?}");
                        let after = &text[e.span().end as usize..];
                        match kind {
                            CommentKind::Brace => {
                                assert_eq!(open, "{", "{text:?}");
                                // an unterminated comment runs to the end
                                assert!(closed || after.is_empty(), "{text:?}");
                            }
                            CommentKind::Line => {
                                assert_eq!(open, ";", "{text:?}");
                                assert!(!closed, "{text:?}");
                                assert!(
                                    after.is_empty() || after.starts_with(['\n', '\r']),
                                    "{text:?}"
                                );
                            }
                        }
                        seen[usize::from(closed)] += 1;
                    }
                    Element::Move { span, ep: Some(_) } => {
                        let suffix = e.ep_suffix().unwrap();
                        assert!(suffix.start > span.start, "{text:?}");
                        assert_eq!(suffix.end, span.end, "{text:?}");
                        let suffix = suffix.slice(text);
                        assert!(
                            ["e.p.", "e. p.", "ep", "(e.p.)"].contains(&suffix),
                            "{text:?}: {suffix:?}"
                        );
                        assert!(whole.len() > suffix.len(), "{text:?}");
                        seen[2] += 1;
                    }
                    Element::Move { ep: None, .. } => {
                        assert_eq!(e.ep_suffix(), None);
                        seen[3] += 1;
                    }
                    _ => {}
                }
            }
        };
        let mut seen = [0; 4];
        for text in &texts {
            each_reading(text, |g| check(text, &g.movetext, &mut seen));
        }
        for text in crate::testing::corpus_pgn_texts("") {
            for raw in crate::archive::read_str(&text) {
                check(&raw.text, &raw.movetext, &mut seen);
            }
        }
        // unclosed and closed comments, suffixes and plain moves were all met
        assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
    }

    #[test]
    fn junk_classification() {
        assert!(parse_game("Downloaded from somewhere", &Limits::default()).is_junk());
        assert!(!parse_game("e4 e5 *", &Limits::default()).is_junk());
        assert!(!parse_game("1. e4", &Limits::default()).is_junk());
        assert!(!parse_game("[Event \"x\"]", &Limits::default()).is_junk());
    }
}
