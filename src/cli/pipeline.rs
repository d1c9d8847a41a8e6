//! Processing games in parallel with output in input order, in bounded memory.
//!
//! One thread reads and splits the input into batches of raw games; `threads`
//! workers turn each batch into output (replay, render); the calling thread hands
//! the outputs to the sink in input order. Channels are bounded, so a slow sink
//! slows the reader instead of filling memory. With one thread everything runs on
//! the calling thread.

use std::{
    collections::BTreeMap,
    io,
    sync::{Arc, Mutex, mpsc},
    thread,
};

use crate::archive::RawGame;

/// Games per batch handed to a worker.
const BATCH: usize = 64;

/// Runs `process` over every game of `source` and passes the results to `sink` in
/// input order. Stops at the first error of the source or the sink and returns it
/// (a broken pipe is the sink's error like any other).
pub fn run<I, P, O, S>(source: I, threads: usize, process: P, mut sink: S) -> io::Result<()>
where
    I: Iterator<Item = io::Result<RawGame>> + Send,
    P: Fn(RawGame) -> O + Sync,
    O: Send,
    S: FnMut(O) -> io::Result<()>,
{
    if threads <= 1 {
        for raw in source {
            sink(process(raw?))?;
        }
        return Ok(());
    }
    let (batch_tx, batch_rx) = mpsc::sync_channel::<(u64, Vec<RawGame>)>(threads * 2);
    let (out_tx, out_rx) = mpsc::sync_channel::<(u64, Vec<O>)>(threads * 2);
    // Shared by the workers; dropped when the last one stops, which unblocks the
    // reader if the consumer stopped early.
    let batch_rx = Arc::new(Mutex::new(batch_rx));
    let process = &process;
    thread::scope(|scope| {
        let reader = scope.spawn(move || -> io::Result<()> {
            let mut seq = 0u64;
            let mut batch = Vec::with_capacity(BATCH);
            for raw in source {
                batch.push(raw?);
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
                    let Ok((seq, games)) = next else { return };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::read_str;

    fn games(n: usize) -> Vec<io::Result<RawGame>> {
        let text: String = (0..n)
            .map(|i| format!("[Round \"{i}\"]\n\n1. e4 *\n\n"))
            .collect();
        read_str(&text).into_iter().map(Ok).collect()
    }

    #[test]
    fn output_keeps_input_order() {
        for threads in [1, 2, 3] {
            let mut seen = Vec::new();
            run(
                games(300).into_iter(),
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
            games(1000).into_iter(),
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
