//! The other ways of writing a chess move: long algebraic, UCI and the null move.
//! SAN is [`super::san`]. Every writer appends to a `&mut String` and allocates
//! nothing else.

use super::san::{
    SanOut, SanStyle, push_square, write_castle, write_check_suffix, write_promotion,
};
use crate::chess::{Move, Position, Role};

/// Appends long algebraic notation: `Ng1-f3`, `e2-e4`, `e4xd5`, `O-O`, `e7-e8=Q`
/// (FIDE style: `Mg1-f3`, `0-0`, `e7-e8H`), with `+`/`#` when the style asks.
pub fn write_long(out: &mut String, pos: &Position, mv: &Move, style: &SanStyle) {
    if let Some(side) = mv.castling_side() {
        write_castle(out, side, style.castle_zeros);
    } else {
        if mv.role() != Role::Pawn {
            out.push_text(style.table.letter(mv.role()));
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

    fn find(pos: &Position, uci: &str) -> Move {
        *pos.legal_moves()
            .iter()
            .find(|m| m.uci(pos.chess960()) == uci)
            .unwrap()
    }

    #[test]
    fn long_and_uci() {
        let mut pos = Position::default();
        for u in ["e2e4", "e7e5"] {
            let m = find(&pos, u);
            pos.play_unchecked(&m);
        }
        let m = find(&pos, "g1f3");
        let cases: &[(SanStyle, &str)] = &[
            (SanStyle::pgn(), "Ng1-f3"),
            (SanStyle::fide(table("vi").unwrap()), "Mg1-f3"),
            (SanStyle::fide(table("de").unwrap()), "Sg1-f3"),
            (SanStyle::fide(table("ru").unwrap()), "Кg1-f3"),
            (SanStyle::fide(table("zh").unwrap()), "马g1-f3"),
            (SanStyle::fide(table("fa").unwrap()), "اg1-f3"),
            (SanStyle::figurine(), "♘g1-f3"),
        ];
        for (style, long) in cases {
            let mut s = String::new();
            write_long(&mut s, &pos, &m, style);
            assert_eq!(s, *long);
        }
        let pos = Position::from_fen("k7/4P3/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let mut s = String::new();
        write_long(&mut s, &pos, &find(&pos, "e7e8q"), &SanStyle::pgn());
        assert_eq!(s, "e7-e8=Q+");
        s.clear();
        write_uci(&mut s, &pos, &find(&pos, "e1g1"));
        assert_eq!(s, "e1g1");
    }
}
