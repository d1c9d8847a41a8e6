//! Throughput of reading move text, English against other languages on the same
//! games (a benchmark, not a timed test: `cargo test --release --test notation_bench
//! -- --ignored --nocapture`).
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::time::Instant;

use kyphu::chess::{Move, Position};
use kyphu::notation::chess::{SanStyle, english, read_play, table, write_san};

fn english_games() -> Vec<Vec<String>> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/chess/pgnmentor/Kasparov.pgn");
    let Ok(bytes) = std::fs::read(p) else {
        println!("skipping: ../shared/corpus absent");
        return Vec::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    let mut games = Vec::new();
    let mut cur = Vec::new();
    for line in text.lines() {
        if line.starts_with('[') {
            if !cur.is_empty() {
                games.push(std::mem::take(&mut cur));
            }
            continue;
        }
        for w in line.split_whitespace() {
            let w = w.rsplit('.').next().unwrap_or(w);
            if w.is_empty() || ["1-0", "0-1", "1/2-1/2", "*"].contains(&w) {
                continue;
            }
            cur.push(w.to_owned());
        }
    }
    if !cur.is_empty() {
        games.push(cur);
    }
    games
}

fn moves_of(tokens: &[String]) -> Option<Vec<Move>> {
    let mut pos = Position::default();
    tokens
        .iter()
        .map(|t| read_play(t, english(), &mut pos).ok().and_then(|r| r.mv))
        .collect()
}

#[test]
#[ignore = "benchmark"]
fn reading_throughput_by_language() {
    let games: Vec<Vec<Move>> = english_games().iter().filter_map(|g| moves_of(g)).collect();
    if games.is_empty() {
        return;
    }
    let mut results = Vec::new();
    for code in ["en", "vi", "de", "ru", "zh", "fa", "figurine"] {
        let t = table(code).unwrap();
        let style = if code == "en" {
            SanStyle::pgn()
        } else {
            SanStyle::fide(t)
        };
        let texts: Vec<Vec<String>> = games
            .iter()
            .map(|g| {
                let mut pos = Position::default();
                g.iter()
                    .map(|m| {
                        let mut s = String::new();
                        write_san(&mut s, &pos, m, &style);
                        pos.play_unchecked(m);
                        s
                    })
                    .collect()
            })
            .collect();
        let bytes: usize = texts.iter().flatten().map(|s| s.len() + 1).sum();
        let plies: usize = texts.iter().map(Vec::len).sum();
        let t0 = Instant::now();
        for _ in 0..3 {
            for g in &texts {
                let mut pos = Position::default();
                for tok in g {
                    read_play(tok, t, &mut pos).unwrap();
                }
            }
        }
        let secs = t0.elapsed().as_secs_f64() / 3.0;
        let mps = plies as f64 / secs;
        println!(
            "{code:9} {plies} plies {:.2} Mply/s {:.1} MB/s",
            mps / 1e6,
            bytes as f64 / secs / 1e6
        );
        results.push((code, mps));
    }
    let en = results[0].1;
    for (code, mps) in &results {
        println!("{code:9} {:.0}% of English", mps / en * 100.0);
    }
}
