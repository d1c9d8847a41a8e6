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
    for _ in 0..5 {
        let t = Instant::now();
        let (mut games, mut elements) = (0u64, 0usize);
        for g in ArchiveReader::new(&bytes[..], ReadOptions::default()) {
            let g = g.unwrap();
            games += u64::from(!g.junk);
            elements += g.movetext.len();
        }
        let mbs = bytes.len() as f64 / 1e6 / t.elapsed().as_secs_f64();
        best = best.max(mbs);
        eprintln!("{games} games, {elements} elements: {mbs:.1} MB/s");
        assert_eq!(games, 147_855);
    }
    eprintln!("best: {best:.1} MB/s");
}
