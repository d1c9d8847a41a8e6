//! One chess move in SAN: [`San`] is read from a token ([`San::parse`], the syntax;
//! [`San::resolve`], the move it names in a position), made from a move
//! ([`San::from_move`], [`San::from_hint`]) and written in any [`SanStyle`]
//! ([`San::write`]). Every writer of the crate (PGN, JSON, CSV, messages) writes SAN
//! through this module.
//!
//! The plain meaning is here: [`San::from_move`] then [`San::write`]. Two private
//! submodules hold the speed tricks, each with the test that keeps it equal to the
//! plain path: `fast` (the body of a usual move without legal move generation, used
//! by [`write_san`] and [`write_and_play`]) and `word` ([`SanWords`]: SAN put together
//! in a machine word from templates, for the JSON writer).

mod fast;
mod word;

pub(crate) use word::{SanWords, square_word};

use super::{
    lang::{PieceTable, english, figurine},
    resolve::{ResolveError, Resolved, resolve},
    syntax::{SanSyntax, SyntaxError, parse},
};
use crate::{
    chess::{Bitboard, CastlingSide, Move, Position, Role, Square},
    model::game::SanHint,
};

/// How to write SAN.
#[derive(Copy, Clone, Debug)]
pub struct SanStyle {
    /// Piece letters.
    pub table: &'static PieceTable,
    /// `0-0` (FIDE's text) rather than `O-O` (PGN).
    pub castle_zeros: bool,
    /// `e8=Q` (PGN) rather than `e8Q`/`d8H` (FIDE's text).
    pub promotion_eq: bool,
    /// Append `+` and `#` (computed from the position).
    pub check_marks: bool,
}

impl SanStyle {
    /// Canonical English PGN SAN: `Nf3`, `O-O`, `e8=Q`, `Qxf7#`.
    pub fn pgn() -> SanStyle {
        SanStyle {
            table: english(),
            castle_zeros: false,
            promotion_eq: true,
            check_marks: true,
        }
    }

    /// FIDE Appendix C style in a language: `Mf3`, `0-0`, `d8H`.
    pub fn fide(table: &'static PieceTable) -> SanStyle {
        SanStyle {
            table,
            castle_zeros: true,
            promotion_eq: false,
            check_marks: true,
        }
    }

    /// PGN style with figurines: `♘f3`, `O-O`, `e8=♕`.
    pub fn figurine() -> SanStyle {
        SanStyle {
            table: figurine(),
            ..SanStyle::pgn()
        }
    }
}

/// A chess move as SAN says it: the move, the origin coordinates SAN writes for it
/// and the check or mate it gives ([`SanHint`]). Written without its position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct San {
    /// The move.
    pub mv: Move,
    /// What SAN writes besides the move: origin coordinates, check, mate.
    pub hint: SanHint,
}

impl San {
    /// The syntax of one token under the letters of `table`, without a position
    /// ([`parse`]; grammar `grammars/san.ebnf`).
    pub fn parse(token: &str, table: &PieceTable) -> Result<SanSyntax, SyntaxError> {
        parse(token, table)
    }

    /// The one legal move `syntax` names in `pos` ([`resolve`]), with the remarks on
    /// how it was written; [`Resolved::san`] is its [`San`]. `token` is the text as
    /// written, for messages.
    pub fn resolve(
        syntax: &SanSyntax,
        pos: &Position,
        token: &str,
    ) -> Result<Resolved, Box<ResolveError>> {
        resolve(syntax, pos, token)
    }

    /// The SAN of `mv`, legal in `pos`: disambiguation per FIDE C.10 (origin file
    /// first, then rank, then the whole square) and the check or mate the move gives,
    /// found by playing it.
    pub fn from_move(pos: &Position, mv: &Move) -> San {
        let (file, rank) = disambiguation(pos, mv);
        let mut after = pos.clone();
        after.play_unchecked(mv);
        let check = after.is_check();
        San {
            mv: *mv,
            hint: SanHint {
                file,
                rank,
                check,
                mate: check && !after.has_legal_moves(),
            },
        }
    }

    /// The SAN of `mv` from the facts replay recorded for it.
    pub const fn from_hint(mv: Move, hint: SanHint) -> San {
        San { mv, hint }
    }

    /// Appends the text in `style`: the body, then `+` or `#` when the style writes
    /// check marks.
    #[inline(always)]
    pub fn write<O: SanOut + ?Sized>(&self, out: &mut O, style: &SanStyle) {
        write_body(out, &self.mv, (self.hint.file, self.hint.rank), style);
        if style.check_marks && self.hint.check {
            out.push_ascii(if self.hint.mate { b'#' } else { b'+' });
        }
    }
}

/// Where SAN is written: a `String`, or bytes (the writers' buffers).
pub trait SanOut {
    /// Appends an ASCII character.
    fn push_ascii(&mut self, c: u8);
    /// Appends text.
    fn push_text(&mut self, s: &str);
}

impl SanOut for String {
    fn push_ascii(&mut self, c: u8) {
        self.push(char::from(c));
    }
    fn push_text(&mut self, s: &str) {
        // most letters are one ASCII byte: no copy call for them
        match s.as_bytes() {
            [b] if b.is_ascii() => self.push(char::from(*b)),
            _ => self.push_str(s),
        }
    }
}

impl SanOut for Vec<u8> {
    fn push_ascii(&mut self, c: u8) {
        self.push(c);
    }
    fn push_text(&mut self, s: &str) {
        self.extend_from_slice(s.as_bytes());
    }
}

/// Appends SAN of `mv` (legal in `pos`) in `style`: what [`San::from_move`] then
/// [`San::write`] write, the body of a usual move found without legal move generation
/// (`fast`), the check mark only when the style writes it.
pub fn write_san<O: SanOut + ?Sized>(out: &mut O, pos: &Position, mv: &Move, style: &SanStyle) {
    if !fast::write_body(out, pos, mv, style.table) {
        write_body(out, mv, disambiguation(pos, mv), style);
    }
    if style.check_marks {
        write_check_suffix(out, pos, mv);
    }
}

/// Appends SAN of `mv` (legal in `pos`) as [`write_san`] does and plays it on `pos`,
/// playing it only once (for the check mark and the position both).
pub fn write_and_play<O: SanOut + ?Sized>(
    out: &mut O,
    pos: &mut Position,
    mv: &Move,
    style: &SanStyle,
) {
    if !fast::write_body(out, pos, mv, style.table) {
        write_body(out, mv, disambiguation(pos, mv), style);
    }
    pos.play_unchecked(mv);
    if style.check_marks && pos.is_check() {
        out.push_ascii(if pos.has_legal_moves() { b'+' } else { b'#' });
    }
}

/// Appends canonical English PGN SAN of `mv` (legal in `pos`), with `+`/`#`.
pub fn write_pgn_san(out: &mut String, pos: &Position, mv: &Move) {
    write_san(out, pos, mv, &SanStyle::pgn());
}

/// Canonical English PGN SAN as a new string (convenience; prefer [`write_pgn_san`]).
pub fn pgn_san(pos: &Position, mv: &Move) -> String {
    let mut s = String::with_capacity(8);
    write_pgn_san(&mut s, pos, mv);
    s
}

/// Appends SAN of `mv` from the facts replay recorded for it ([`SanHint`]) instead of
/// its position: [`San::from_hint`] then [`San::write`].
pub fn write_san_hinted<O: SanOut + ?Sized>(
    out: &mut O,
    mv: &Move,
    hint: SanHint,
    style: &SanStyle,
) {
    San::from_hint(*mv, hint).write(out, style);
}

/// Appends `+`, `#` or nothing, as `mv` gives check, mate or neither.
pub fn write_check_suffix<O: SanOut + ?Sized>(out: &mut O, pos: &Position, mv: &Move) {
    let mut after = pos.clone();
    after.play_unchecked(mv);
    if after.is_check() {
        out.push_ascii(if after.has_legal_moves() { b'+' } else { b'#' });
    }
}

/// Which origin coordinates SAN must add so that `mv` is the only one of its piece
/// kind reaching its square: `(file, rank)`. A pawn capture writes its file; castling
/// and a pawn push write nothing.
pub fn disambiguation(pos: &Position, mv: &Move) -> (bool, bool) {
    match *mv {
        Move::Castle { .. } => (false, false),
        _ if mv.role() == Role::Pawn => (mv.is_capture(), false),
        _ => {
            let from = mv.from();
            origin_among(pos.legal_origins(mv.role(), mv.to()).without(from), from)
        }
    }
}

/// [`disambiguation`] of a piece move from `from`, `others` holding the other squares
/// from which a piece of its kind reaches the same square: none, the file when it
/// tells them apart, else the rank, else both (FIDE C.10).
pub(crate) fn origin_among(others: Bitboard, from: Square) -> (bool, bool) {
    if others.is_empty() {
        (false, false)
    } else if (others & Bitboard::file(from.file())).is_empty() {
        (true, false)
    } else if (others & Bitboard::rank(from.rank())).is_empty() {
        (false, true)
    } else {
        (true, true)
    }
}

/// SAN without the check mark, the origin coordinates `(file, rank)` given.
#[inline(always)]
fn write_body<O: SanOut + ?Sized>(
    out: &mut O,
    mv: &Move,
    (file, rank): (bool, bool),
    style: &SanStyle,
) {
    let Some((role, from, to, capture, promotion)) = mv.san_parts() else {
        if let Some(side) = mv.castling_side() {
            write_castle(out, side, style.castle_zeros);
        }
        return;
    };
    if role != Role::Pawn {
        out.push_text(style.table.letter(role));
    }
    if file {
        out.push_ascii(b'a' + from.file().index());
    }
    if rank {
        out.push_ascii(b'1' + from.rank().index());
    }
    if capture {
        out.push_ascii(b'x');
    }
    push_square(out, to);
    write_promotion(out, promotion, style);
}

/// `O-O`, `O-O-O`, or with zeros.
pub(super) fn write_castle<O: SanOut + ?Sized>(out: &mut O, side: CastlingSide, zeros: bool) {
    out.push_text(match (side, zeros) {
        (CastlingSide::KingSide, false) => "O-O",
        (CastlingSide::QueenSide, false) => "O-O-O",
        (CastlingSide::KingSide, true) => "0-0",
        (CastlingSide::QueenSide, true) => "0-0-0",
    });
}

/// `=Q`, `Q` or nothing, as the style writes a promotion.
pub(super) fn write_promotion<O: SanOut + ?Sized>(
    out: &mut O,
    promotion: Option<Role>,
    style: &SanStyle,
) {
    if let Some(p) = promotion {
        if style.promotion_eq {
            out.push_ascii(b'=');
        }
        out.push_text(style.table.letter(p));
    }
}

/// The name of a square, `e4`.
pub(super) fn push_square<O: SanOut + ?Sized>(out: &mut O, sq: Square) {
    out.push_ascii(b'a' + sq.file().index());
    out.push_ascii(b'1' + sq.rank().index());
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::type_complexity)]
mod tests {
    use super::*;
    use crate::notation::chess::{lang::table, syntax::CheckMark};

    fn find(pos: &Position, uci: &str) -> Move {
        *pos.legal_moves()
            .iter()
            .find(|m| m.uci(pos.chess960()) == uci)
            .unwrap()
    }

    /// The plain path: the value made from the move, then written.
    fn plain(pos: &Position, mv: &Move, style: &SanStyle) -> String {
        let mut s = String::new();
        San::from_move(pos, mv).write(&mut s, style);
        s
    }

    #[test]
    fn disambiguation_c10() {
        // knights g1/e1 → Ngf3 (file); g1/g5 → N1f3 (rank); b1,f1,b5 three rooks → square
        let cases: &[(&str, &str, &str)] = &[
            ("4k3/8/8/8/8/8/8/4NKN1 w - - 0 1", "g1f3", "Ngf3"),
            ("4k3/8/8/6N1/8/8/8/5KN1 w - - 0 1", "g1f3", "N1f3"),
            ("4k3/8/8/6N1/8/8/8/5KN1 w - - 0 1", "g5f3", "N5f3"),
            ("4k3/8/8/8/3N4/8/7N/5K2 w - - 0 1", "h2f3", "Nhf3"),
            ("7k/8/8/1Q3Q2/8/8/8/1Q2K3 w - - 0 1", "b5d3", "Qb5d3"),
            ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", "O-O"),
            ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", "O-O-O"),
            ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "a1a8", "Ra8+"),
            ("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q+"),
            ("3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n", "exd8=N"),
            ("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8#"),
        ];
        for &(fen, uci, want) in cases {
            let pos = Position::from_fen(fen).unwrap();
            let m = find(&pos, uci);
            assert_eq!(pgn_san(&pos, &m), want, "{fen} {uci}");
            assert_eq!(plain(&pos, &m, &SanStyle::pgn()), want, "{fen} {uci}");
        }
    }

    #[test]
    fn styles() {
        let mut pos = Position::default();
        for u in ["e2e4", "e7e5"] {
            let m = find(&pos, u);
            pos.play_unchecked(&m);
        }
        let m = find(&pos, "g1f3");
        let cases: &[(SanStyle, &str)] = &[
            (SanStyle::pgn(), "Nf3"),
            (SanStyle::fide(table("vi").unwrap()), "Mf3"),
            (SanStyle::fide(table("de").unwrap()), "Sf3"),
            (SanStyle::fide(table("ru").unwrap()), "Кf3"),
            (SanStyle::fide(table("zh").unwrap()), "马f3"),
            (SanStyle::fide(table("fa").unwrap()), "اf3"),
            (SanStyle::figurine(), "♘f3"),
        ];
        for (style, san) in cases {
            let mut s = String::new();
            write_san(&mut s, &pos, &m, style);
            assert_eq!(s, *san);
            assert_eq!(plain(&pos, &m, style), *san);
        }
        let pos = Position::from_fen("k7/4P3/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let vi = SanStyle::fide(table("vi").unwrap());
        assert_eq!(plain(&pos, &find(&pos, "e7e8q"), &vi), "e8H+");
        assert_eq!(plain(&pos, &find(&pos, "e1g1"), &vi), "0-0");
    }

    /// A token read, resolved and written back is the canonical SAN of its move.
    #[test]
    fn parse_resolve_write_round_trip() {
        let pos = Position::from_fen("4k3/8/8/6N1/8/8/8/5KN1 w - - 0 1").unwrap();
        let de = table("de").unwrap();
        let syntax = San::parse("S1f3", de).unwrap();
        let resolved = San::resolve(&syntax, &pos, "S1f3").unwrap();
        let san = resolved.san().unwrap();
        assert_eq!(san, San::from_move(&pos, &find(&pos, "g1f3")));
        let mut s = String::new();
        san.write(&mut s, &SanStyle::pgn());
        assert_eq!(s, "N1f3");
        s.clear();
        san.write(&mut s, &SanStyle::fide(de));
        assert_eq!(s, "S1f3");
        // the check a move gives is found in the position, whatever was written
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let syntax = San::parse("Ra8", english()).unwrap();
        assert_eq!(syntax.check, CheckMark::None);
        let san = San::resolve(&syntax, &pos, "Ra8").unwrap().san().unwrap();
        assert!(san.hint.mate);
        s.clear();
        san.write(&mut s, &SanStyle::pgn());
        assert_eq!(s, "Ra8#");
        assert!(San::parse("Zf3", english()).is_err());
    }
}
