//! Perft: counting the leaves of the legal move tree, to check move generation against
//! published numbers.

use super::position::{MoveList, Position};
use super::types::Move;

/// The number of legal move sequences of `depth` plies from `pos` (1 at depth 0).
/// Leaves are bulk-counted: at depth 1 the legal moves are counted, not played.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += perft(&child, depth - 1);
    }
    total
}

/// [`perft`] split by first move, in move generation order. Empty at depth 0.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let pos = Position::default();
        for (depth, want) in [(0, 1), (1, 44), (2, 1920), (3, 79_666)] {
            assert_eq!(perft(&pos, depth), want, "depth {depth}");
        }
    }

    #[test]
    #[ignore = "about a second in release, longer in the test profile"]
    fn start_position_depth_4() {
        assert_eq!(perft(&Position::default(), 4), 3_290_240);
    }

    #[test]
    fn divide_sums_to_perft() {
        let pos = Position::default();
        let divide = perft_divide(&pos, 2);
        assert_eq!(divide.len(), 44);
        assert!(divide.iter().all(|&(_, n)| n > 0));
        assert_eq!(divide.iter().map(|&(_, n)| n).sum::<u64>(), 1920);
        assert!(perft_divide(&pos, 0).is_empty());
    }
}
