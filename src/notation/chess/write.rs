//! Writers: SAN in any language table (PGN or FIDE style, figurines), long algebraic
//! and UCI. Every writer appends to a `&mut String` and allocates nothing else.

use super::lang::{PieceTable, english, figurine};
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

/// Appends SAN of `mv` (legal in `pos`) in `style`: disambiguation per FIDE C.10
/// (origin file first, then rank, then the whole square), `x` for captures, and the
/// check or mate mark computed by playing the move.
pub fn write_san(out: &mut String, pos: &Position, mv: &Move, style: &SanStyle) {
    write_san_body(out, pos, mv, style);
    if style.check_marks {
        write_check_suffix(out, pos, mv);
    }
}

/// Appends `+`, `#` or nothing, as `mv` gives check, mate or neither.
pub fn write_check_suffix(out: &mut String, pos: &Position, mv: &Move) {
    let mut after = pos.clone();
    after.play_unchecked(mv);
    if after.is_check() {
        out.push(if after.has_legal_moves() { '+' } else { '#' });
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

fn write_san_body(out: &mut String, pos: &Position, mv: &Move, style: &SanStyle) {
    write_san_parts(out, mv, disambiguation(pos, mv), style);
}

/// Appends SAN of `mv` from the facts replay recorded for it ([`SanHint`]) instead of
/// its position: the same text as [`write_san`] in the position the move was played
/// from.
pub fn write_san_hinted(out: &mut String, mv: &Move, hint: SanHint, style: &SanStyle) {
    write_san_hinted_into(out, mv, hint, style);
}

/// Where SAN is written: a `String`, or bytes (the JSON writer's buffer).
pub(crate) trait SanOut {
    /// Appends an ASCII character.
    fn push_ascii(&mut self, c: u8);
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

/// [`write_san_hinted`] into any [`SanOut`].
pub(crate) fn write_san_hinted_into<O: SanOut>(
    out: &mut O,
    mv: &Move,
    hint: SanHint,
    style: &SanStyle,
) {
    write_san_parts(out, mv, (hint.file, hint.rank), style);
    if style.check_marks && hint.check {
        out.push_ascii(if hint.mate { b'#' } else { b'+' });
    }
}

/// SAN without the check mark, the origin coordinates `(file, rank)` given.
#[inline(always)]
fn write_san_parts<O: SanOut>(
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

fn write_castle<O: SanOut>(out: &mut O, side: CastlingSide, zeros: bool) {
    out.push_text(match (side, zeros) {
        (CastlingSide::KingSide, false) => "O-O",
        (CastlingSide::QueenSide, false) => "O-O-O",
        (CastlingSide::KingSide, true) => "0-0",
        (CastlingSide::QueenSide, true) => "0-0-0",
    });
}

fn write_promotion<O: SanOut>(out: &mut O, promotion: Option<Role>, style: &SanStyle) {
    if let Some(p) = promotion {
        if style.promotion_eq {
            out.push_ascii(b'=');
        }
        out.push_text(style.table.letter(p));
    }
}

fn push_square<O: SanOut>(out: &mut O, sq: crate::chess::Square) {
    out.push_ascii(b'a' + sq.file().index());
    out.push_ascii(b'1' + sq.rank().index());
}

/// Appends long algebraic notation: `Ng1-f3`, `e2-e4`, `e4xd5`, `O-O`, `e7-e8=Q`
/// (FIDE style: `Mg1-f3`, `0-0`, `e7-e8H`), with `+`/`#` when the style asks.
pub fn write_long(out: &mut String, pos: &Position, mv: &Move, style: &SanStyle) {
    if let Some(side) = mv.castling_side() {
        write_castle(out, side, style.castle_zeros);
    } else {
        if mv.role() != Role::Pawn {
            out.push_str(style.table.letter(mv.role()));
        }
        push_square(out, mv.from());
        out.push(if mv.is_capture() { 'x' } else { '-' });
        push_square(out, mv.to());
        write_promotion(out, mv.promotion(), style);
    }
    if style.check_marks {
        write_check_suffix(out, pos, mv);
    }
}

/// Appends UCI: `e2e4`, `e7e8q`; castling `e1g1`, or king-takes-rook `e1h1` in
/// chess960.
pub fn write_uci(out: &mut String, pos: &Position, mv: &Move) {
    mv.write_uci(out, pos.chess960());
}

/// Appends the null move as PGN writes it: `--`.
pub fn write_null(out: &mut String) {
    out.push_str("--");
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::type_complexity)]
mod tests {
    use super::*;
    use crate::notation::chess::lang::table;

    fn play_all(pos: &mut Position, ucis: &[&str]) {
        for u in ucis {
            let m = *pos
                .legal_moves()
                .iter()
                .find(|m| m.uci(false) == *u)
                .unwrap_or_else(|| panic!("{u}"));
            pos.play_unchecked(&m);
        }
    }

    fn find(pos: &Position, uci: &str) -> Move {
        *pos.legal_moves()
            .iter()
            .find(|m| m.uci(pos.chess960()) == uci)
            .unwrap()
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
        }
    }

    #[test]
    fn styles() {
        let mut pos = Position::default();
        play_all(&mut pos, &["e2e4", "e7e5"]);
        let m = find(&pos, "g1f3");
        let cases: &[(SanStyle, &str, &str)] = &[
            (SanStyle::pgn(), "Nf3", "Ng1-f3"),
            (SanStyle::fide(table("vi").unwrap()), "Mf3", "Mg1-f3"),
            (SanStyle::fide(table("de").unwrap()), "Sf3", "Sg1-f3"),
            (SanStyle::fide(table("ru").unwrap()), "Кf3", "Кg1-f3"),
            (SanStyle::fide(table("zh").unwrap()), "马f3", "马g1-f3"),
            (SanStyle::fide(table("fa").unwrap()), "اf3", "اg1-f3"),
            (SanStyle::figurine(), "♘f3", "♘g1-f3"),
        ];
        for (style, san, long) in cases {
            let mut s = String::new();
            write_san(&mut s, &pos, &m, style);
            assert_eq!(s, *san);
            s.clear();
            write_long(&mut s, &pos, &m, style);
            assert_eq!(s, *long);
        }
        let pos = Position::from_fen("k7/4P3/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let mut s = String::new();
        write_san(
            &mut s,
            &pos,
            &find(&pos, "e7e8q"),
            &SanStyle::fide(table("vi").unwrap()),
        );
        assert_eq!(s, "e8H+");
        s.clear();
        write_san(
            &mut s,
            &pos,
            &find(&pos, "e1g1"),
            &SanStyle::fide(table("vi").unwrap()),
        );
        assert_eq!(s, "0-0");
        s.clear();
        write_uci(&mut s, &pos, &find(&pos, "e1g1"));
        assert_eq!(s, "e1g1");
    }
}
