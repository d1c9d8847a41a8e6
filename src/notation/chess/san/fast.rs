//! The body of a usual move's SAN without legal move generation: the fast path of
//! [`super::write_san`] and [`super::write_and_play`].

use super::SanOut;
use crate::{
    chess::{Move, Piece, Position, Role, attacks},
    notation::chess::PieceTable,
};

/// Appends the SAN of `m` without check mark, as [`super::San::write`] writes it with
/// the letters of `table`, and returns `true`, when it is a common case that needs no
/// legal move generation: a pawn move without promotion (the origin file for a
/// capture, no other disambiguation), or a piece move that no other piece of the same
/// kind could make (no pseudo-legal attacker of the target square). Otherwise appends
/// nothing and returns `false`.
#[inline(always)]
pub(super) fn write_body<O: SanOut + ?Sized>(
    out: &mut O,
    p: &Position,
    m: &Move,
    table: &PieceTable,
) -> bool {
    let Move::Normal {
        role,
        from,
        to,
        capture,
        promotion: None,
    } = *m
    else {
        return false;
    };
    if role == Role::Pawn {
        if capture.is_some() {
            out.push_ascii(b'a' + from.file().index());
            out.push_ascii(b'x');
        }
    } else {
        let occ = p.occupied();
        let reach = match role {
            Role::Knight => attacks::knight(to),
            Role::Bishop => attacks::bishop(to, occ),
            Role::Rook => attacks::rook(to, occ),
            Role::Queen => attacks::queen(to, occ),
            Role::King | Role::Pawn => attacks::king(to),
        };
        let others = p
            .by_piece(Piece {
                color: p.turn(),
                role,
            })
            .without(from);
        if reach.0 & others.0 != 0 {
            return false;
        }
        out.push_text(table.letter(role));
        if capture.is_some() {
            out.push_ascii(b'x');
        }
    }
    out.push_ascii(b'a' + to.file().index());
    out.push_ascii(b'1' + to.rank().index());
    true
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::{San, SanStyle, write_and_play, write_san};
    use crate::chess::{self, Position};

    /// [`write_san`] and [`write_and_play`] (the fast body when it applies) write what
    /// the plain path writes ([`San::from_move`], [`San::write`]), for every legal move
    /// of a few busy positions, in three styles; `write_and_play` plays the move.
    #[test]
    fn fast_san_agrees_with_plain() {
        let fens = [
            chess::START_FEN,
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
            "7k/8/8/1Q3Q2/8/8/8/1Q2K3 w - - 0 1",
            "4k3/8/8/6N1/8/8/8/5KN1 w - - 0 1",
            "r3k2r/1P6/8/3N1N2/8/8/6p1/R3K2R b KQkq - 0 1",
            "6k1/5ppp/8/8/8/8/8/R3K2R w KQ - 0 1",
            // pawn captures both ways, en passant, pushes giving check
            "rnbqkbnr/ppp1p1pp/8/3pPp2/2P5/8/PP1P1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
            "4k3/8/3p1p2/4P3/8/8/8/4K3 w - - 0 1",
        ];
        let vi = crate::notation::chess::table("vi").unwrap();
        let styles = [
            SanStyle::pgn(),
            SanStyle::fide(vi),
            SanStyle {
                check_marks: false,
                ..SanStyle::pgn()
            },
        ];
        let mut fast = 0;
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            for m in &pos.legal_moves() {
                for style in &styles {
                    let mut want = String::new();
                    San::from_move(&pos, m).write(&mut want, style);
                    let mut a = String::new();
                    write_san(&mut a, &pos, m, style);
                    assert_eq!(a, want, "{fen} {m:?}");
                    let mut b = Vec::new();
                    let mut after = pos.clone();
                    write_and_play(&mut b, &mut after, m, style);
                    assert_eq!(String::from_utf8(b).unwrap(), want, "{fen} {m:?}");
                    let mut played = pos.clone();
                    played.play_unchecked(m);
                    assert_eq!(after.fen(), played.fen());
                    fast += usize::from(super::write_body(&mut String::new(), &pos, m, vi));
                }
            }
        }
        // both paths are taken
        assert!(fast > 100, "{fast}");
    }
}
