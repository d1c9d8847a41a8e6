//! Processing games in parallel with output in input order, in bounded memory.
//!
//! `threads` workers, the calling thread among them, each take the next batch of
//! [`Piece`]s from the source (split and decoded, not parsed; one worker at a time
//! reads), parse it into games, number them (in batch order: a worker waits only until
//! the batches before its own are parsed) and turn each game into output (replay,
//! render). Between its batches the calling thread hands the finished outputs to the
//! sink in input order. So there are exactly as many busy threads as cores asked for,
//! with no reading thread to preempt them. No batch is taken more than [`WINDOW`]
//! batches per thread ahead of the first one not yet handed to the sink, so a slow
//! sink or a slow game slows reading instead of filling memory. With one thread
//! everything runs on the calling thread, batch by batch in the same way: each stage
//! runs over a whole batch, which keeps its code in the processor's instruction cache
//! (game by game, the code of splitting, parsing, replaying and writing together did
//! not fit: cachegrind's model counted four times as many instruction-cache misses).
//! The processing itself may be two stages ([`run_in_two_stages`]: `convert` replays
//! the batch, then writes it), each over the whole batch.

use std::{
    collections::BTreeMap,
    io,
    sync::{Condvar, Mutex, mpsc},
    thread,
};

use kyphu::archive::{Piece, RawGame, number_games};

/// Pieces (as a rule, games) per batch.
const BATCH: usize = 64;

/// Bytes of text per batch: a batch is closed once its pieces hold this many (games of
/// an ordinary archive are about 1 kB: 64 of them are below it). With
/// [`WINDOW_BYTES`] and the per-game budgets (`archive::Limits`), this bounds what the
/// batches in flight hold whatever the games are: without it, 64 games of 16 MB each
/// (a small `.gz` of huge games) were one batch.
const BATCH_BYTES: usize = 128 << 10;

/// Batches per thread that may be taken (read, in work or waiting for the sink) ahead
/// of the first batch not yet handed to the sink.
const WINDOW: usize = 4;

/// Bytes of text the batches taken and not yet handed to the sink may hold: no batch
/// is taken beyond them (but one always is when none is in flight). What a batch's
/// games become (elements, moves, JSON lines: about 22 bytes of JSON for each byte of
/// PGN) grows with its text, so this bounds memory whatever the number of threads:
/// the text in flight is at most this, plus one batch, plus one piece (`check
/// --strict` writes about 36 bytes of notes for each byte of a file with a note on every
/// move: 50 MB peak on two threads). An ordinary archive (about 50 kB a batch) has five
/// batches in flight under it.
const WINDOW_BYTES: usize = 256 << 10;

/// Runs `process` over every game of `source` and passes the results to `sink` in
/// input order. Stops at the first error of the source or the sink and returns it
/// (a broken pipe is the sink's error like any other); the games read before a
/// source error are processed and handed to the sink first.
pub fn run<I, P, O, S>(source: I, threads: usize, process: P, sink: S) -> io::Result<()>
where
    I: Iterator<Item = io::Result<Piece>> + Send,
    P: Fn(RawGame) -> O + Sync,
    O: Send,
    S: FnMut(O) -> io::Result<()>,
{
    run_in_two_stages(source, threads, process, |_| {}, sink)
}

/// [`run`] with the processing in two stages, each run over a whole batch before the
/// next starts: `first` over every game of the batch, then `second` over each of its
/// results in place, so that each stage's code stays in the instruction cache
/// (replaying and writing JSON, game by game, did not fit: in cachegrind's model on
/// `c2.pgn`, 1.33 M instruction-cache misses game by game, 0.31 M in two stages), at
/// the cost of a batch of what `first` gives held in memory. Both stages run on the
/// worker that took the batch.
pub fn run_in_two_stages<I, P, F, O, S>(
    source: I,
    threads: usize,
    first: P,
    second: F,
    mut sink: S,
) -> io::Result<()>
where
    I: Iterator<Item = io::Result<Piece>> + Send,
    P: Fn(RawGame) -> O + Sync,
    F: Fn(&mut O) + Sync,
    O: Send,
    S: FnMut(O) -> io::Result<()>,
{
    let process = Stages { first, second };
    let feed = Feed::new(source, (threads.max(1) * WINDOW) as u64);
    let numbering = Numbering::default();
    if threads <= 1 {
        // Batch by batch as a worker does: each stage (splitting, parsing, processing)
        // runs over the whole batch before the next starts, so that its code stays in
        // the instruction cache (game by game, the code of all the stages did not fit).
        while let Taken::Batch(seq, pieces) = feed.take(false) {
            let Some(outputs) = work(seq, pieces, &numbering, &process) else {
                break; // not on one thread: the numbering breaks only in a panic
            };
            for o in outputs {
                sink(o)?;
            }
            feed.emitted(seq + 1);
        }
        return feed.error();
    }
    // never full: no more batches than the window are taken and not yet emitted
    let (out_tx, out_rx) = mpsc::sync_channel::<(u64, Vec<O>)>(threads * WINDOW);
    let (feed, numbering, process) = (&feed, &numbering, &process);
    thread::scope(|scope| {
        for _ in 1..threads {
            let out_tx = out_tx.clone();
            scope.spawn(move || {
                let _guard = StopOnPanic(feed);
                while let Taken::Batch(seq, pieces) = feed.take(true) {
                    let Some(outputs) = work(seq, pieces, numbering, process) else {
                        return;
                    };
                    if out_tx.send((seq, outputs)).is_err() {
                        return; // the sink stopped
                    }
                }
            });
        }
        drop(out_tx);
        let _guard = StopOnPanic(feed);
        let mut pending: BTreeMap<u64, Vec<O>> = BTreeMap::new();
        let mut next = 0u64;
        let mut result = Ok(());
        let mut working = true;
        loop {
            // Take a batch and work on it; with the window full, or no batch left,
            // wait for the other workers' outputs instead.
            let taken = if working {
                feed.take(false)
            } else {
                Taken::End
            };
            let done = match taken {
                Taken::Batch(seq, pieces) => match work(seq, pieces, numbering, process) {
                    Some(outputs) => Some((seq, outputs)),
                    None => {
                        working = false; // the numbering broke: a worker panicked
                        out_rx.recv().ok()
                    }
                },
                Taken::Full => out_rx.recv().ok(),
                Taken::End => {
                    working = false;
                    out_rx.recv().ok()
                }
            };
            let Some((seq, outputs)) = done else { break };
            pending.insert(seq, outputs);
            while let Ok((seq, outputs)) = out_rx.try_recv() {
                pending.insert(seq, outputs);
            }
            if let Err(e) = emit_in_order(&mut pending, &mut next, &mut sink) {
                result = Err(e);
                break;
            }
            feed.emitted(next);
        }
        if result.is_err() {
            // The sink failed: no worker takes another batch, and dropping the
            // receiver ends the sends of those still working.
            feed.stop();
        }
        drop(out_rx);
        let read = feed.error();
        result.and(read)
    })
}

/// Hands the outputs of batch `next` and of those after it that are ready to `sink`.
fn emit_in_order<O>(
    pending: &mut BTreeMap<u64, Vec<O>>,
    next: &mut u64,
    sink: &mut impl FnMut(O) -> io::Result<()>,
) -> io::Result<()> {
    while let Some(outputs) = pending.remove(next) {
        *next += 1;
        for o in outputs {
            sink(o)?;
        }
    }
    Ok(())
}

/// The two stages of [`run_in_two_stages`].
struct Stages<P, F> {
    first: P,
    second: F,
}

/// A worker's round on batch `seq`: parses and numbers its games and processes
/// them, each stage over the whole batch. `None` if the numbering is broken (another
/// worker panicked).
fn work<O>(
    seq: u64,
    pieces: Vec<Piece>,
    numbering: &Numbering,
    process: &Stages<impl Fn(RawGame) -> O + Sync, impl Fn(&mut O) + Sync>,
) -> Option<Vec<O>> {
    let turn = Turn {
        numbering,
        seq,
        taken: false,
    };
    let mut games = Vec::with_capacity(pieces.len());
    for piece in pieces {
        piece.parse_into(&mut games);
    }
    // a heading set apart from the tagless record after it is that record's (issue 25)
    kyphu::archive::text::join_headings(&mut games);
    let mut next_index = turn.take(&games)?;
    number_games(&mut games, &mut next_index);
    let mut outputs: Vec<O> = games.into_iter().map(&process.first).collect();
    outputs.iter_mut().for_each(&process.second);
    Some(outputs)
}

/// The source, read by one worker at a time, and the window of batches in flight.
struct Feed<I> {
    state: Mutex<FeedState<I>>,
    /// Signalled when the window moves on or the work stops.
    room: Condvar,
    window: u64,
}

struct FeedState<I> {
    source: I,
    /// The number of the next batch.
    seq: u64,
    /// The number of the first batch not yet handed to the sink.
    emitted: u64,
    /// The source is exhausted or failed, or the sink stopped.
    done: bool,
    /// The source's error, returned by [`run`].
    error: Option<io::Error>,
    /// The text bytes of each batch taken and not yet handed to the sink, from batch
    /// `emitted` on, and their sum.
    sizes: std::collections::VecDeque<usize>,
    in_flight: usize,
}

/// What [`Feed::take`] gives.
enum Taken {
    Batch(u64, Vec<Piece>),
    /// The window is full (only when not waiting).
    Full,
    /// No batch left (or the work stopped).
    End,
}

impl<I: Iterator<Item = io::Result<Piece>>> Feed<I> {
    /// A feed of `source` letting at most `window` batches be taken ahead of the first
    /// not yet handed to the sink.
    fn new(source: I, window: u64) -> Self {
        Feed {
            state: Mutex::new(FeedState {
                source,
                seq: 0,
                emitted: 0,
                done: false,
                error: None,
                sizes: std::collections::VecDeque::new(),
                in_flight: 0,
            }),
            room: Condvar::new(),
            window,
        }
    }

    /// The next batch and its number. With the window full, waits for room if `wait`
    /// (the other workers), else says so (the calling thread, which makes the room).
    /// A source error ends the batch it occurs in: the pieces before it are still one.
    fn take(&self, wait: bool) -> Taken {
        let Ok(mut state) = self.state.lock() else {
            return Taken::End;
        };
        while !state.done
            && (state.seq >= state.emitted + self.window
                || (state.seq > state.emitted && state.in_flight >= WINDOW_BYTES))
        {
            if !wait {
                return Taken::Full;
            }
            state = match self.room.wait(state) {
                Ok(state) => state,
                Err(_) => return Taken::End,
            };
        }
        if state.done {
            return Taken::End;
        }
        let mut batch = Vec::with_capacity(BATCH);
        let mut bytes = 0usize;
        while batch.len() < BATCH && bytes < BATCH_BYTES {
            match state.source.next() {
                Some(Ok(piece)) => {
                    bytes += piece.text_bytes();
                    batch.push(piece);
                }
                Some(Err(e)) => {
                    state.error = Some(e);
                    state.done = true;
                    break;
                }
                None => {
                    state.done = true;
                    break;
                }
            }
        }
        if batch.is_empty() {
            self.room.notify_all();
            return Taken::End;
        }
        let seq = state.seq;
        state.seq += 1;
        state.sizes.push_back(bytes);
        state.in_flight += bytes;
        if state.done {
            self.room.notify_all(); // workers waiting for room: there is no more
        }
        Taken::Batch(seq, batch)
    }

    /// The batches before `next` are handed to the sink: room for as many more.
    fn emitted(&self, next: u64) {
        if let Ok(mut state) = self.state.lock()
            && state.emitted != next
        {
            while state.emitted < next {
                state.emitted += 1;
                let bytes = state.sizes.pop_front().unwrap_or(0);
                state.in_flight -= bytes;
            }
            self.room.notify_all();
        }
    }

    fn stop(&self) {
        if let Ok(mut state) = self.state.lock() {
            state.done = true;
        }
        self.room.notify_all();
    }

    fn error(&self) -> io::Result<()> {
        match self.state.lock() {
            Ok(mut state) => state.error.take().map_or(Ok(()), Err),
            Err(_) => Err(io::Error::other("a worker panicked while reading")),
        }
    }
}

/// Stops the feed when the thread that holds it unwinds (a panic in `process` or the
/// sink), so that the other workers do not wait for room forever, their senders are
/// dropped, and the panic reaches the caller instead of a hang.
struct StopOnPanic<'a, I: Iterator<Item = io::Result<Piece>>>(&'a Feed<I>);

impl<I: Iterator<Item = io::Result<Piece>>> Drop for StopOnPanic<'_, I> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.stop();
        }
    }
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
    use kyphu::archive::{ArchiveReader, ReadOptions, read_str};

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

    /// In two stages, the second sees every result of the first, in input order, and
    /// runs only once the first has run over the whole batch (on one thread, where
    /// that can be counted).
    #[test]
    fn two_stages_keep_order_and_run_batch_by_batch() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let n = 5 * BATCH + 7;
        for threads in [1, 2, 3] {
            let firsts = AtomicUsize::new(0);
            let mut seen = Vec::new();
            run_in_two_stages(
                pieces(&games(n)),
                threads,
                |g| {
                    firsts.fetch_add(1, Ordering::SeqCst);
                    (g.index, 0)
                },
                |(i, ahead)| {
                    // how many games the first stage had taken when this one is written
                    *ahead = firsts.load(Ordering::SeqCst);
                    *i *= 2;
                },
                |x| {
                    seen.push(x);
                    Ok(())
                },
            )
            .unwrap();
            let indexes: Vec<u64> = seen.iter().map(|x| x.0).collect();
            let doubled: Vec<u64> = (0..n as u64).map(|i| 2 * i).collect();
            assert_eq!(indexes, doubled, "threads {threads}");
            if threads == 1 {
                for (k, &(_, ahead)) in seen.iter().enumerate() {
                    let batch_end = ((k / BATCH + 1) * BATCH).min(n);
                    assert_eq!(ahead, batch_end, "game {k}");
                }
            }
        }
    }

    #[test]
    fn games_before_a_source_error_reach_the_sink() {
        let text = games(200);
        for threads in [1, 2, 3] {
            let source = pieces(&text)
                .take(150)
                .chain(std::iter::once(Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "broken input",
                ))));
            let mut seen = Vec::new();
            let err = run(
                source,
                threads,
                |g| g.index,
                |i| {
                    seen.push(i);
                    Ok(())
                },
            )
            .unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidData, "threads {threads}");
            assert_eq!(seen, (0..150).collect::<Vec<u64>>(), "threads {threads}");
        }
    }

    #[test]
    fn a_slow_batch_does_not_let_outputs_pile_up() {
        // two games are slow: the others must wait for them, not run ahead
        use std::sync::atomic::{AtomicUsize, Ordering};
        let processed = AtomicUsize::new(0);
        let mut emitted = 0;
        let mut most = 0;
        run(
            pieces(&games(5000)),
            2,
            |g| {
                if g.index % 2500 == 1000 {
                    thread::sleep(std::time::Duration::from_millis(50));
                }
                processed.fetch_add(1, Ordering::SeqCst);
            },
            |()| {
                emitted += 1;
                most = most.max(processed.load(Ordering::SeqCst) - emitted);
                Ok(())
            },
        )
        .unwrap();
        // processed but not yet emitted: at most the window's batches; without the
        // window the calling thread runs on through the fast games while the other
        // worker sleeps, or the other worker while the calling thread does
        assert!(most <= BATCH * WINDOW * 2, "{most} outputs waiting");
    }

    /// A panic in `process` (a bug) on any thread, or in the sink, reaches the caller
    /// instead of leaving the other workers waiting forever.
    #[test]
    fn a_panic_is_not_a_hang() {
        let text = games(3000);
        for threads in [2, 3] {
            for (bad, in_sink) in [(100, false), (1500, false), (700, true)] {
                let (done_tx, done_rx) = mpsc::channel();
                let text = text.clone();
                thread::spawn(move || {
                    let r = std::panic::catch_unwind(|| {
                        run(
                            pieces(&text),
                            threads,
                            |g| {
                                assert!(in_sink || g.index != bad, "bug in process");
                                g.index
                            },
                            |i| {
                                assert!(!in_sink || i != bad, "bug in the sink");
                                Ok(())
                            },
                        )
                    });
                    let _ = done_tx.send(r.is_err());
                });
                let panicked = done_rx
                    .recv_timeout(std::time::Duration::from_secs(60))
                    .unwrap_or_else(|_| panic!("threads {threads}, game {bad}: hangs"));
                assert!(
                    panicked,
                    "threads {threads}, game {bad}: the panic was lost"
                );
            }
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
