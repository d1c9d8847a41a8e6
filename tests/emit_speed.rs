//! Writer throughput on the pgnmentor files of `../shared/corpus` (ignored by default;
//! run with `cargo test --release --test emit_speed -- --ignored --nocapture`).
//! Prints MB of PGN input per second for reading + replay, and for each writer alone.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::time::Instant;

use kyphu::{
    archive::{ReadOptions, read_bytes},
    emit::{CsvOptions, JsonOptions, JsonWriter, PgnOptions, PgnWriter, ScoresheetWriter},
    replay::{ReplayOptions, replay},
};

#[test]
#[ignore = "benchmark"]
fn writer_throughput() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/chess/pgnmentor");
    if !dir.is_dir() {
        println!("skipping: ../shared/corpus absent");
        return;
    }
    let mut input = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    names.sort();
    for p in &names {
        input.extend(std::fs::read(p).unwrap());
        input.push(b'\n');
    }
    let mb = input.len() as f64 / 1e6;
    let t = Instant::now();
    let games: Vec<_> = read_bytes(&input, ReadOptions::default())
        .into_iter()
        .filter(|r| !r.junk)
        .map(|r| replay(r, &ReplayOptions::default()))
        .collect();
    let read = t.elapsed().as_secs_f64();
    println!(
        "{} games, {mb:.1} MB: read+replay {:.1} MB/s",
        games.len(),
        mb / read
    );
    let mut sink = std::io::sink();
    for _ in 0..2 {
        let t = Instant::now();
        let mut w = PgnWriter::new(&mut sink, PgnOptions::default());
        for g in &games {
            w.write_game(g).unwrap();
        }
        let pgn = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut w = JsonWriter::new(&mut sink, JsonOptions::default());
        for g in &games {
            w.write_game(g).unwrap();
        }
        let json = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut w = ScoresheetWriter::new(&mut sink, Some(std::io::sink()), CsvOptions::default());
        for g in &games {
            w.write_game(g).unwrap();
        }
        let csv = t.elapsed().as_secs_f64();
        println!(
            "writers alone (MB of input per s): pgn {:.1}, json {:.1}, csv {:.1}; \
             end to end: pgn {:.1}, json {:.1}",
            mb / pgn,
            mb / json,
            mb / csv,
            mb / (read + pgn),
            mb / (read + json)
        );
    }
}
