//! A speed trick of the model, fenced here: the thread's spare vector of move nodes.
//!
//! Each game's nodes are written afresh, and the allocator hands out a freed block
//! again only once it has gone round the rest of its page: a new block misses the
//! first-level cache where the vector of the game dropped just before is still in it.
//! So a line dropped keeps its emptied vector here ([`keep`]) and the next line built
//! on the thread takes it ([`take`], through `Line::with_room`). Figures in
//! `docs/performance.md`, "Stage fences". The plain meaning (`Vec::with_capacity`) is
//! what [`take`] falls back to; the tests below hold the two to the same answers.

use std::cell::Cell;

use super::game::MoveNode;

/// The most moves a spare vector may have room for (24 KB): a game keeps the spare it
/// was built in while it lives.
const SPARE_MAX: usize = 512;

thread_local! {
    /// An empty vector of move nodes kept from a line that was dropped. One per thread.
    static SPARE_NODES: Cell<Vec<MoveNode>> = const { Cell::new(Vec::new()) };
}

/// The thread's spare vector if it has room for `moves` moves (empty), else `None`.
#[inline]
pub(super) fn take(moves: usize) -> Option<Vec<MoveNode>> {
    SPARE_NODES
        .try_with(|spare| {
            let kept = spare.take();
            if kept.capacity() >= moves {
                Some(kept)
            } else {
                spare.set(kept);
                None
            }
        })
        .ok()
        .flatten()
}

/// Keeps `moves` (emptied) as the thread's spare if it has more room than the spare
/// (at most [`SPARE_MAX`] moves); drops it otherwise.
pub(super) fn keep(moves: Vec<MoveNode>) {
    let room = moves.capacity();
    if room == 0 || room > SPARE_MAX || !moves.is_empty() {
        return;
    }
    // `try_with`: a line dropped while the thread's locals are torn down is freed
    let _ = SPARE_NODES.try_with(|spare| {
        let kept = spare.take();
        spare.set(if kept.capacity() < room { moves } else { kept });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Line;

    #[test]
    fn a_line_built_after_one_dropped_is_empty_with_the_room_asked() {
        for (first, then) in [(40, 30), (40, 60), (600, 10), (0, 5)] {
            let mut line = Line::with_room(first);
            line.comments.push("kept".into());
            drop(line);
            let line = Line::with_room(then);
            assert!(line.moves.is_empty() && line.comments.is_empty());
            assert!(line.moves.capacity() >= then, "{first} then {then}");
        }
    }

    #[test]
    fn the_spare_is_taken_once_and_only_when_it_has_room() {
        keep(Vec::with_capacity(100));
        assert!(take(200).is_none(), "too small: kept for later");
        let spare = take(50).expect("the vector kept");
        assert!(spare.capacity() >= 100 && spare.is_empty());
        assert!(take(1).is_none_or(|v| v.capacity() < 100), "taken once");
        keep(Vec::with_capacity(SPARE_MAX + 1));
        assert!(
            take(SPARE_MAX + 1).is_none(),
            "a vector too large is not kept"
        );
    }
}
