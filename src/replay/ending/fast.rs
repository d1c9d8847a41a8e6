//! The repetition check's fast path (fenced): the positions of a chess game's last
//! stretch without capture or pawn move compared by keys worked out from the moves
//! alone ([`stretch_keys`]), instead of playing the game again to hash each position
//! (`replayed_hashes` in the parent). A position's key is the XOR of a key for each
//! piece on its square, for the side to move, for each castling right and for an
//! en-passant capture, as a Zobrist hash is; the keys here are each position's XORed
//! with the stretch's first, so two positions have the same key exactly when their
//! Zobrist hashes are the same (but for a collision of 64-bit keys, as there). The
//! castling rights are followed from the start position through every move. The
//! tests below check the keys against the replay's hashes on random games.

use crate::{
    chess::{self, CastlingSide, Move, Role, Square},
    color::Color,
    model::game::{AnyMove, MoveNode},
};

/// A key for `n` (splitmix64).
const fn mix(n: u64) -> u64 {
    let mut z = n.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A key for each piece on each square (by color, role and square), worked out once.
const PIECES: [u64; 768] = {
    let mut t = [0u64; 768];
    let mut i = 0;
    while i < 768 {
        t[i] = mix(i as u64);
        i += 1;
    }
    t
};

fn piece(color: Color, role: Role, square: Square) -> u64 {
    PIECES[((color.index() * 6 + role.index()) << 6 | usize::from(square.index())) % 768]
}

const SIDE: u64 = 0x5a17_e1d3_c0ff_ee11;
const EN_PASSANT: u64 = 0x3c6e_f372_fe94_f82b;

/// The castling rights: the rook square of each color and side that has one.
type Rights = [[Option<Square>; 2]; 2];

fn rights_key(rights: &Rights) -> u64 {
    let mut k = 0;
    for (c, sides) in rights.iter().enumerate() {
        for (s, rook) in sides.iter().enumerate() {
            if let Some(sq) = rook {
                k ^= mix((1 << 12 | (c * 2 + s) << 6) as u64 | u64::from(sq.index()));
            }
        }
    }
    k
}

/// The squares of the rooks that have a right.
fn rook_squares(rights: &Rights) -> u64 {
    rights
        .iter()
        .flatten()
        .flatten()
        .fold(0, |m, sq| m | 1 << sq.index())
}

/// The rights after `mover` played `m` (as [`chess::Position`] keeps them: a king move
/// or castling drops the mover's, a move from or to a rook's square drops that rook's).
/// Whether they changed.
fn after(rights: &mut Rights, mover: Color, m: &Move) -> bool {
    let before = *rights;
    match *m {
        Move::Normal { role, from, to, .. } => {
            if role == Role::King {
                rights[mover.index()] = [None, None];
            }
            for r in rights.iter_mut().flatten() {
                if r.is_some_and(|sq| sq == from || sq == to) {
                    *r = None;
                }
            }
        }
        Move::Castle { .. } => rights[mover.index()] = [None, None],
        Move::EnPassant { .. } => {}
    }
    *rights != before
}

/// Whether `m` may change the rights whose rooks stand on `rooks` (a cheap test before
/// [`after`]).
fn may_change(rooks: u64, m: &Move) -> bool {
    match *m {
        Move::Normal { role, from, to, .. } => {
            role == Role::King || (rooks >> from.index() | rooks >> to.index()) & 1 != 0
        }
        Move::Castle { .. } => true,
        Move::EnPassant { .. } => false,
    }
}

/// The keys of the positions before `moves[first]` and after each move from it on
/// (see the module docs), or `None` when the moves alone cannot tell them: a move kept
/// illegal, a xiangqi move, a capture or pawn move in the stretch, or a stretch that
/// starts right after a double pawn step (an en-passant capture may be legal there:
/// the board tells).
pub(super) fn stretch_keys(
    start: &chess::Position,
    moves: &[MoveNode],
    first: usize,
) -> Option<Vec<u64>> {
    let mut rights: Rights = [Color::White, Color::Black].map(|c| {
        [CastlingSide::KingSide, CastlingSide::QueenSide].map(|s| start.castles().rook(c, s))
    });
    let mut turn = start.turn();
    let (before, stretch) = moves.split_at_checked(first)?;
    let mut rooks = rook_squares(&rights);
    for node in before {
        match &node.mv {
            AnyMove::Chess(m) if !node.illegal => {
                if rooks != 0 && may_change(rooks, m) && after(&mut rights, turn, m) {
                    rooks = rook_squares(&rights);
                }
            }
            AnyMove::Null => {}
            _ => return None,
        }
        turn = turn.other();
    }
    let ep = match before.last() {
        None => start.legal_ep_square().is_some(),
        Some(node) => match node.mv {
            AnyMove::Chess(Move::Normal {
                role: Role::Pawn,
                from,
                to,
                ..
            }) if from.index().abs_diff(to.index()) == 16 => return None,
            _ => false,
        },
    };
    let mut keys = Vec::with_capacity(stretch.len() + 1);
    let mut k = if ep { EN_PASSANT } else { 0 };
    let mut rk = rights_key(&rights);
    keys.push(k ^ rk);
    let changed = |rights: &mut Rights, rooks: &mut u64, rk: &mut u64, turn: Color, m: &Move| {
        if *rooks != 0 && may_change(*rooks, m) && after(rights, turn, m) {
            *rooks = rook_squares(rights);
            *rk = rights_key(rights);
        }
    };
    for node in stretch {
        if node.illegal {
            return None;
        }
        match node.mv {
            AnyMove::Chess(
                m @ Move::Normal {
                    role,
                    from,
                    to,
                    capture: None,
                    promotion: None,
                },
            ) if role != Role::Pawn => {
                k ^= piece(turn, role, from) ^ piece(turn, role, to);
                changed(&mut rights, &mut rooks, &mut rk, turn, &m);
            }
            AnyMove::Chess(m @ Move::Castle { king, rook }) => {
                let side = if rook.file() > king.file() {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                let rank = king.rank();
                k ^= piece(turn, Role::King, king)
                    ^ piece(turn, Role::Rook, rook)
                    ^ piece(
                        turn,
                        Role::King,
                        Square::from_coords(side.king_to_file(), rank),
                    )
                    ^ piece(
                        turn,
                        Role::Rook,
                        Square::from_coords(side.rook_to_file(), rank),
                    );
                changed(&mut rights, &mut rooks, &mut rk, turn, &m);
            }
            AnyMove::Null => {}
            _ => return None,
        }
        k ^= SIDE;
        turn = turn.other();
        keys.push(k ^ rk);
    }
    Some(keys)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::model::diag::Span;

    /// Random games of pieces that shuffle back and forth (so that positions repeat),
    /// with castling rights, captures and pawn moves on the way: the keys are equal
    /// exactly where the replay's hashes are, for every stretch start.
    #[test]
    fn keys_agree_with_replayed_hashes() {
        let fens = [
            chess::START_FEN,
            "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "4k2r/8/8/8/8/8/8/R3K3 w Qk - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut compared = 0;
        let mut equal = 0;
        for round in 0..300 {
            let start = chess::Position::from_fen(fens[round % fens.len()]).unwrap();
            let mut pos = start.clone();
            let mut nodes: Vec<MoveNode> = Vec::new();
            for _ in 0..60 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                // most often the move that undoes the one before the last, if legal
                let back = nodes.len().checked_sub(2).and_then(|i| match nodes[i].mv {
                    AnyMove::Chess(Move::Normal { role, from, to, .. }) => legal
                        .iter()
                        .find(|m| {
                            matches!(m, Move::Normal { role: r, from: f, to: t, capture: None, .. }
                                if *r == role && *f == to && *t == from)
                        })
                        .copied(),
                    _ => None,
                });
                let m = match back {
                    Some(m) if next(4) != 0 => m,
                    _ => legal[next(legal.len())],
                };
                pos.play_legal(&m);
                nodes.push(MoveNode::new(AnyMove::Chess(m), Span::new(0, 0)));
            }
            for first in 0..=nodes.len() {
                let replayed = super::super::replayed_hashes(&start, &nodes, first).unwrap();
                let Some(keys) = stretch_keys(&start, &nodes, first) else {
                    continue;
                };
                assert_eq!(replayed.len(), keys.len());
                for i in 0..keys.len() {
                    for j in 0..i {
                        compared += 1;
                        equal += usize::from(replayed[i] == replayed[j]);
                        assert_eq!(
                            keys[i] == keys[j],
                            replayed[i] == replayed[j],
                            "round {round}, first {first}, plies {j} and {i}"
                        );
                    }
                }
            }
        }
        assert!(compared > 10_000 && equal > 100, "{compared} {equal}");
    }
}
