//! Processing games in parallel with output in input order, in bounded memory.
//!
//! One thread reads the input and cuts it into batches of [`Piece`]s (split and
//! decoded, not parsed); `threads` workers parse each batch into games, number them
//! (in batch order: a worker waits only until the batches before its own are parsed)
//! and turn each game into output (replay, render); the calling thread hands the
//! outputs to the sink in input order. Channels are bounded, so a slow sink slows the
//! reader instead of filling memory. With one thread everything runs on the calling
//! thread.

use std::{
    collections::BTreeMap,
    io,
    sync::{Arc, Condvar, Mutex, mpsc},
    thread,
};

use crate::archive::{Piece, RawGame, number_games};

/// Pieces (as a rule, games) per batch handed to a worker.
const BATCH: usize = 64;

/// Runs `process` over every game of `source` and passes the results to `sink` in
/// input order. Stops at the first error of the source or the sink and returns it
/// (a broken pipe is the sink's error like any other).
pub fn run<I, P, O, S>(source: I, threads: usize, process: P, mut sink: S) -> io::Result<()>
where
    I: Iterator<Item = io::Result<Piece>> + Send,
    P: Fn(RawGame) -> O + Sync,
    O: Send,
    S: FnMut(O) -> io::Result<()>,
{
    if threads <= 1 {
        let mut games = Vec::new();
        let mut next_index = 0;
        for piece in source {
            piece?.parse_into(&mut games);
            number_games(&mut games, &mut next_index);
            for raw in games.drain(..) {
                sink(process(raw))?;
            }
        }
        return Ok(());
    }
    let (batch_tx, batch_rx) = mpsc::sync_channel::<(u64, Vec<Piece>)>(threads * 2);
    let (out_tx, out_rx) = mpsc::sync_channel::<(u64, Vec<O>)>(threads * 2);
    // Shared by the workers; dropped when the last one stops, which unblocks the
    // reader if the consumer stopped early.
    let batch_rx = Arc::new(Mutex::new(batch_rx));
    let numbering = Numbering::default();
    let (process, numbering) = (&process, &numbering);
    thread::scope(|scope| {
        let reader = scope.spawn(move || -> io::Result<()> {
            let mut seq = 0u64;
            let mut batch = Vec::with_capacity(BATCH);
            for piece in source {
                batch.push(piece?);
                if batch.len() == BATCH {
                    if batch_tx.send((seq, std::mem::take(&mut batch))).is_err() {
                        return Ok(()); // the consumer stopped
                    }
                    seq += 1;
                }
            }
            if !batch.is_empty() {
                let _ = batch_tx.send((seq, batch));
            }
            Ok(())
        });
        for _ in 0..threads {
            let out_tx = out_tx.clone();
            let batch_rx = Arc::clone(&batch_rx);
            scope.spawn(move || {
                loop {
                    let next = match batch_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok((seq, pieces)) = next else { return };
                    let turn = Turn {
                        numbering,
                        seq,
                        taken: false,
                    };
                    let mut games = Vec::with_capacity(pieces.len());
                    for piece in pieces {
                        piece.parse_into(&mut games);
                    }
                    let Some(mut next_index) = turn.take(&games) else {
                        return;
                    };
                    number_games(&mut games, &mut next_index);
                    let outputs: Vec<O> = games.into_iter().map(process).collect();
                    if out_tx.send((seq, outputs)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(out_tx);
        drop(batch_rx);
        let mut pending: BTreeMap<u64, Vec<O>> = BTreeMap::new();
        let mut next = 0u64;
        let mut result = Ok(());
        'collect: for (seq, outputs) in out_rx.iter() {
            pending.insert(seq, outputs);
            while let Some(outputs) = pending.remove(&next) {
                next += 1;
                for o in outputs {
                    if let Err(e) = sink(o) {
                        result = Err(e);
                        break 'collect;
                    }
                }
            }
        }
        // Dropping the receiver makes workers and the reader stop early on error.
        drop(out_rx);
        let read = reader
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the reading thread panicked")));
        result.and(read)
    })
}

/// The game numbers given so far, batch by batch in input order.
#[derive(Default)]
struct Numbering {
    state: Mutex<NumberingState>,
    turn_done: Condvar,
}

#[derive(Default)]
struct NumberingState {
    /// The batch whose turn it is.
    batch: u64,
    /// The index of its first game.
    index: u64,
    /// A worker stopped (panicked) before numbering its batch: nobody gets a turn.
    broken: bool,
}

/// A worker's turn to number the games of batch `seq`. Dropped without being taken
/// (a panic), it breaks the numbering so that no other worker waits forever.
struct Turn<'a> {
    numbering: &'a Numbering,
    seq: u64,
    taken: bool,
}

impl Turn<'_> {
    /// Waits for the batches before this one to be numbered, then takes the indexes of
    /// `games`; returns the first, or `None` if the numbering is broken.
    fn take(mut self, games: &[RawGame]) -> Option<u64> {
        self.taken = true;
        let n = &self.numbering;
        let mut state = n.state.lock().ok()?;
        while state.batch != self.seq && !state.broken {
            state = n.turn_done.wait(state).ok()?;
        }
        if state.broken {
            return None;
        }
        let first = state.index;
        state.index += games.iter().filter(|g| !g.junk).count() as u64;
        state.batch += 1;
        drop(state);
        n.turn_done.notify_all();
        Some(first)
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        if !self.taken {
            if let Ok(mut state) = self.numbering.state.lock() {
                state.broken = true;
            }
            self.numbering.turn_done.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::{ArchiveReader, ReadOptions, read_str};

    fn pieces(text: &str) -> impl Iterator<Item = io::Result<Piece>> + Send + '_ {
        ArchiveReader::new(text.as_bytes(), ReadOptions::default()).pieces()
    }

    fn games(n: usize) -> String {
        (0..n)
            .map(|i| format!("[Round \"{i}\"]\n\n1. e4 *\n\n"))
            .collect()
    }

    #[test]
    fn games_are_numbered_as_the_reader_numbers_them() {
        // pieces that parse into two games (more movetext after a result), junk
        // between games (not counted), and plain one-game pieces, across batches
        let text: String = (0..500)
            .map(|i| match i % 7 {
                0 => format!("[Round \"{i}\"]\n\n1. e4 1-0 1. d4 0-1\n\n"),
                3 => "not a game at all\n\n".to_owned(),
                _ => format!("[Round \"{i}\"]\n\n1. c4 *\n\n"),
            })
            .collect();
        let expected: Vec<(u64, bool, u64)> = read_str(&text)
            .iter()
            .map(|g| (g.index, g.junk, g.byte_start))
            .collect();
        assert!(expected.len() > 500, "some pieces hold two games");
        assert!(expected.iter().any(|g| g.1), "some junk");
        for threads in [1, 2, 3] {
            let mut seen = Vec::new();
            run(
                pieces(&text),
                threads,
                |g| (g.index, g.junk, g.byte_start),
                |x| {
                    seen.push(x);
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(seen, expected, "threads {threads}");
        }
    }

    #[test]
    fn output_keeps_input_order() {
        for threads in [1, 2, 3] {
            let mut seen = Vec::new();
            run(
                pieces(&games(300)),
                threads,
                |g| g.index,
                |i| {
                    seen.push(i);
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(seen, (0..300).collect::<Vec<u64>>(), "threads {threads}");
        }
    }

    #[test]
    fn sink_error_stops_early() {
        let mut n = 0;
        let err = run(
            pieces(&games(1000)),
            2,
            |g| g.index,
            |_| {
                n += 1;
                if n == 10 {
                    Err(io::Error::from(io::ErrorKind::BrokenPipe))
                } else {
                    Ok(())
                }
            },
        )
        .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(n, 10);
    }
}
