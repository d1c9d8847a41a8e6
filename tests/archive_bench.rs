//! Throughput of the archive reader (splitter + decoding + PGN syntax) on the benchmark
//! archive. Ignored by default; run with
//! `cargo test --release --test archive_bench -- --ignored --nocapture`.
//! Needs `zstd` to decompress `../shared/corpus/bench/bench.pgn.zst` (to /tmp).

#![allow(clippy::unwrap_used)]

use std::{path::Path, process::Command, time::Instant};

use kyphu::archive::{ArchiveReader, ReadOptions};

#[test]
#[ignore = "benchmark: run in release mode with --ignored"]
fn archive_throughput() {
    let zst = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/bench/bench.pgn.zst");
    if !zst.is_file() {
        eprintln!("skipping: ../shared/corpus absent");
        return;
    }
    let out = std::env::temp_dir().join("kyphu-archive-bench.pgn");
    if !out.is_file() {
        let ok = Command::new("zstd")
            .arg("-dqf")
            .arg(&zst)
            .arg("-o")
            .arg(&out)
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("skipping: zstd not available");
            return;
        }
    }
    let bytes = std::fs::read(&out).unwrap();
    let mut best = 0f64;
    let mut best_cpu = 0f64;
    for _ in 0..5 {
        let t = Instant::now();
        let cpu = thread_cpu_ns();
        let (mut games, mut elements) = (0u64, 0usize);
        for g in ArchiveReader::new(&bytes[..], ReadOptions::default()) {
            let g = g.unwrap();
            games += u64::from(!g.junk);
            elements += g.movetext.len();
        }
        let mbs = bytes.len() as f64 / 1e6 / t.elapsed().as_secs_f64();
        best = best.max(mbs);
        let cpu_mbs = match (cpu, thread_cpu_ns()) {
            (Some(a), Some(b)) if b > a => bytes.len() as f64 / 1e6 / ((b - a) as f64 / 1e9),
            _ => 0.0,
        };
        best_cpu = best_cpu.max(cpu_mbs);
        eprintln!(
            "{games} games, {elements} elements: {mbs:.1} MB/s wall, {cpu_mbs:.1} MB/s of thread cpu time"
        );
        assert_eq!(games, 147_855);
    }
    eprintln!("best: {best:.1} MB/s wall, {best_cpu:.1} MB/s cpu");
    // a floor for comparison on this machine now: count whitespace-separated tokens
    let cpu = thread_cpu_ns();
    let mut tokens = 0usize;
    let mut in_token = false;
    for &b in &bytes {
        let ws = b.is_ascii_whitespace();
        tokens += usize::from(!ws && !in_token);
        in_token = !ws;
    }
    if let (Some(a), Some(b)) = (cpu, thread_cpu_ns()) {
        let mbs = bytes.len() as f64 / 1e6 / ((b.max(a + 1) - a) as f64 / 1e9);
        eprintln!("baseline whitespace token count ({tokens} tokens): {mbs:.1} MB/s cpu");
    }
}

/// Time this thread spent on a CPU (Linux `/proc/thread-self/schedstat`), in ns: on a
/// shared machine wall-clock throughput mostly measures the other processes.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}
