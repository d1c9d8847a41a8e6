//! A progress line (games so far with how many are partial or failed, MB, MB/s, ETA),
//! shown once the work has lasted more than a second: on standard error when that is a
//! terminal, else on the controlling terminal (`/dev/tty`) when there is one, so that
//! `kyphu convert big.pgn 2> report.txt` still shows how far it has got.
//!
//! The ETA comes from the input bytes read against the file's size; for a compressed
//! file, from the compressed bytes read ([`Counted`] counts them), whatever the
//! compression ratio.

use std::{
    fs::File,
    io::{self, IsTerminal, Read, Write},
    sync::atomic::{AtomicU64, Ordering},
    time::{Duration, Instant},
};

use super::Counts;

/// Bytes read so far from the file under the decompressor of the input being read
/// (one input is read at a time; [`Counted::new`] starts it again from 0).
static RAW_READ: AtomicU64 = AtomicU64::new(0);

/// A file read under a decompressor, counting the compressed bytes taken from it.
pub struct Counted<R> {
    inner: R,
}

impl<R> Counted<R> {
    pub fn new(inner: R) -> Counted<R> {
        RAW_READ.store(0, Ordering::Relaxed);
        Counted { inner }
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        RAW_READ.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// `file` counted for the progress line's ETA on a compressed file.
pub fn counted(file: File) -> Box<dyn Read + Send> {
    Box::new(Counted::new(file))
}

/// Where the line is drawn.
enum Sink {
    Stderr,
    Tty(File),
}

pub struct Progress {
    sink: Option<Sink>,
    start: Instant,
    last: Instant,
    /// Input size in bytes, when known (a plain or compressed file).
    total: Option<u64>,
    /// The file is compressed: its size is compared with [`RAW_READ`], not with the
    /// decompressed bytes handled.
    compressed: bool,
    shown: bool,
}

/// The file's size, and whether its first bytes say it is compressed.
fn size_and_kind(file: &str) -> (Option<u64>, bool) {
    if file == "-" {
        return (None, false);
    }
    let Ok(meta) = std::fs::metadata(file) else {
        return (None, false);
    };
    if !meta.is_file() {
        return (None, false);
    }
    let mut head = [0u8; 4];
    let n = File::open(file)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    let head = &head[..n];
    let compressed = head.starts_with(&[0x1f, 0x8b])
        || head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd])
        || (head.starts_with(b"BZh") && head.get(3).is_some_and(u8::is_ascii_digit));
    (Some(meta.len()), compressed)
}

impl Progress {
    pub fn new(file: &str) -> Progress {
        let (total, compressed) = size_and_kind(file);
        let sink = if io::stderr().is_terminal() {
            Some(Sink::Stderr)
        } else {
            // standard error redirected (a report file): the terminal, if any
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/tty")
                .ok()
                .map(Sink::Tty)
        };
        let now = Instant::now();
        Progress {
            sink,
            start: now,
            last: now,
            total,
            compressed,
            shown: false,
        }
    }

    /// The progress line for `counts` so far, `bytes` input bytes handled (decompressed)
    /// and `raw` bytes read from the file, after `secs` seconds.
    fn line(&self, counts: &Counts, bytes: u64, raw: u64, secs: f64) -> String {
        let rate = bytes as f64 / secs / 1e6;
        let games = counts.read;
        let mut line = format!("{games} game{}", if games == 1 { "" } else { "s" });
        if counts.partial + counts.failed > 0 {
            line.push_str(&format!(
                " ({} partial, {} failed)",
                counts.partial, counts.failed
            ));
        }
        line.push_str(&format!(", {:.0} MB, {rate:.1} MB/s", bytes as f64 / 1e6));
        let done = if self.compressed { raw } else { bytes };
        if let Some(total) = self.total.filter(|&t| t >= done && done > 0) {
            // the time so far, scaled by what is left of the file
            let eta = secs * (total - done) as f64 / done as f64;
            line.push_str(&format!(", ETA {eta:.0} s"));
        }
        line
    }

    /// Reports the games counted so far and that `bytes` input bytes have been handled.
    pub fn update(&mut self, counts: &Counts, bytes: u64) {
        if self.sink.is_none() {
            return;
        }
        let now = Instant::now();
        if now.duration_since(self.start) < Duration::from_secs(1)
            || now.duration_since(self.last) < Duration::from_millis(250)
        {
            return;
        }
        self.last = now;
        let secs = now.duration_since(self.start).as_secs_f64();
        let line = self.line(counts, bytes, RAW_READ.load(Ordering::Relaxed), secs);
        self.draw(format!("\r\x1b[K{line}").as_bytes());
        self.shown = true;
    }

    fn draw(&mut self, bytes: &[u8]) {
        match &mut self.sink {
            Some(Sink::Stderr) => {
                let mut err = io::stderr().lock();
                let _ = err.write_all(bytes);
                let _ = err.flush();
            }
            Some(Sink::Tty(tty)) => {
                let _ = tty.write_all(bytes);
                let _ = tty.flush();
            }
            None => {}
        }
    }

    /// Clears the line before a message or the summary is printed.
    pub fn finish(&mut self) {
        if self.shown {
            self.draw(b"\r\x1b[K");
            self.shown = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(total: Option<u64>, compressed: bool) -> Progress {
        let now = Instant::now();
        Progress {
            sink: None,
            start: now,
            last: now,
            total,
            compressed,
            shown: false,
        }
    }

    #[test]
    fn line_shows_partial_and_failed_games_and_an_eta() {
        let counts = Counts {
            read: 120,
            clean: 100,
            partial: 15,
            failed: 5,
            ..Counts::default()
        };
        let line = progress(Some(40_000_000), false).line(&counts, 10_000_000, 0, 2.0);
        assert_eq!(
            line,
            "120 games (15 partial, 5 failed), 10 MB, 5.0 MB/s, ETA 6 s"
        );
    }

    #[test]
    fn compressed_file_eta_from_compressed_bytes_read() {
        let counts = Counts {
            read: 1,
            clean: 1,
            ..Counts::default()
        };
        // 30 MB decompressed from 2 of the file's 8 compressed MB in 3 s: 9 s to go
        let line = progress(Some(8_000_000), true).line(&counts, 30_000_000, 2_000_000, 3.0);
        assert_eq!(line, "1 game, 30 MB, 10.0 MB/s, ETA 9 s");
    }
}
