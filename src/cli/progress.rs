//! A progress line on standard error (games, MB/s, ETA), shown only when standard
//! error is a terminal and the work has lasted more than a second.

use std::{
    io::{IsTerminal, Write},
    time::{Duration, Instant},
};

pub struct Progress {
    enabled: bool,
    start: Instant,
    last: Instant,
    /// Input size in bytes, when known (a plain file).
    total: Option<u64>,
    shown: bool,
}

impl Progress {
    pub fn new(file: &str) -> Progress {
        let total = (file != "-")
            .then(|| std::fs::metadata(file).ok())
            .flatten()
            .filter(|m| m.is_file())
            .map(|m| m.len());
        let now = Instant::now();
        Progress {
            enabled: std::io::stderr().is_terminal(),
            start: now,
            last: now,
            total,
            shown: false,
        }
    }

    /// Reports that `games` games and `bytes` input bytes have been handled.
    pub fn update(&mut self, games: u64, bytes: u64) {
        if !self.enabled {
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
        let rate = bytes as f64 / secs / 1e6;
        let mut line = format!(
            "\r\x1b[K{games} games, {:.0} MB, {rate:.1} MB/s",
            bytes as f64 / 1e6
        );
        // A compressed file's size says nothing of its decompressed length: no ETA then.
        if let Some(total) = self.total.filter(|&t| t >= bytes && rate > 0.0) {
            let eta = (total - bytes) as f64 / 1e6 / rate;
            line.push_str(&format!(", ETA {eta:.0} s"));
        }
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(line.as_bytes());
        let _ = err.flush();
        self.shown = true;
    }

    /// Clears the line before the summary is printed.
    pub fn finish(&mut self) {
        if self.shown {
            let _ = std::io::stderr().write_all(b"\r\x1b[K");
            self.shown = false;
        }
    }
}
