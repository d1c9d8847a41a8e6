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
}
