//! Perft: counting the leaf nodes of the legal move tree, the standard correctness
//! test of a move generator.

use super::{position::Position, types::Move};

/// The number of leaf nodes at `depth` plies (bulk-counted at the last ply).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// Perft split by first move, sorted by the moves' UCI notation.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out: Vec<(Move, u64)> = pos
        .legal_moves()
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (*m, perft(&child, depth.saturating_sub(1)))
        })
        .collect();
    out.sort_by_key(|(m, _)| m.uci(pos.chess960()));
    out
}

/// Compares [`Position::play_legal`] with [`Position::play_unchecked`] on every legal
/// move from `pos` down to `depth` plies: the two must leave equal positions, the
/// pieces giving check included (`play_legal` finds them from the move alone,
/// `play_unchecked` from every piece). The number of moves compared, or the first
/// position and move where they differ.
pub fn check_play_legal(pos: &Position, depth: u32) -> Result<u64, String> {
    let mut compared = 0;
    if depth == 0 {
        return Ok(0);
    }
    for m in &pos.legal_moves() {
        let mut fast = pos.clone();
        fast.play_legal(m);
        let mut full = pos.clone();
        full.play_unchecked(m);
        if fast != full {
            return Err(format!(
                "{} {}: play_legal gives checkers {:?}, play_unchecked {:?}",
                pos.fen(),
                m.uci(pos.chess960()),
                fast.checkers(),
                full.checkers()
            ));
        }
        compared += 1 + check_play_legal(&full, depth - 1)?;
    }
    Ok(compared)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_shallow() {
        let pos = Position::default();
        assert_eq!(perft(&pos, 0), 1);
        assert_eq!(perft(&pos, 1), 20);
        assert_eq!(perft(&pos, 2), 400);
        assert_eq!(perft(&pos, 3), 8902);
        let divide = perft_divide(&pos, 2);
        assert_eq!(divide.len(), 20);
        assert!(divide.iter().all(|(_, n)| *n == 20));
    }

    #[test]
    fn kiwipete_shallow() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        assert_eq!(perft(&pos, 1), 48);
        assert_eq!(perft(&pos, 2), 2039);
        assert_eq!(perft(&pos, 3), 97862);
    }

    /// `play_legal` agrees with `play_unchecked` on positions made for the moves
    /// whose checks are not the moved piece's plain attack: promotions giving check,
    /// en passant uncovering a check along the rank or a diagonal, castling whose
    /// rook gives check (also chess960, the king passing over its rook's square),
    /// double checks by discovery, king moves uncovering a check; down to three
    /// plies.
    #[test]
    fn play_legal_finds_the_checkers() {
        let cases = [
            ("3k4/1P6/8/8/8/8/8/4K3 w - - 0 1", false),
            ("2r1r3/1P6/8/3k4/8/8/8/7K w - - 0 1", false),
            ("8/8/8/k2pP2R/8/8/8/4K3 w - d6 0 1", false),
            ("8/1k6/8/3pP3/8/8/8/6KB w - d6 0 1", false),
            ("7b/8/8/8/3Pp3/8/1K6/7k b - d3 0 1", false),
            ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", false),
            ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", false),
            ("3k4/8/8/8/8/8/8/1R2K3 w B - 0 1", true),
            ("5k2/8/8/8/8/8/8/R3K1R1 w GA - 0 1", true),
            ("4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1", false),
            ("4k3/8/8/8/8/4K3/8/4R3 w - - 0 1", false),
            ("4k3/8/8/8/4B3/8/8/4Q1K1 w - - 0 1", false),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
        ];
        let mut compared = 0;
        for (fen, chess960) in cases {
            let pos = if chess960 {
                Position::from_fen_chess960(fen)
            } else {
                Position::from_fen(fen)
            }
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
            compared += check_play_legal(&pos, 3).unwrap_or_else(|e| panic!("{e}"));
        }
        assert!(compared > 100_000, "{compared}");
    }
}
