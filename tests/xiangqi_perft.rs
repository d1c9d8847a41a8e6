//! Perft over `../shared/corpus/perft/perft-xiangqi.epd` (lines `FEN ;D1 n ;D2 n ... ;id x`).
//!
//! The normal test runs every depth whose expected count is at most [`FAST_NODES`]
//! (all D1–D4 and most D5); the ignored one runs the rest and prints the speed:
//! `cargo test --release --test xiangqi_perft -- --ignored --nocapture`.

use std::{path::PathBuf, time::Instant};

use kyphu::xiangqi::{Position, perft};

/// Expected counts up to this run in the normal test profile.
const FAST_NODES: u64 = 20_000_000;

struct Entry {
    id: String,
    fen: String,
    depths: Vec<(u32, u64)>,
}

fn suite() -> Option<Vec<Entry>> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/perft/perft-xiangqi.epd");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "skipping: ../shared/corpus absent ({} not found)",
            path.display()
        );
        return None;
    };
    let mut entries = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim().to_owned();
        let mut e = Entry {
            id: format!("line {}", n + 1),
            fen,
            depths: Vec::new(),
        };
        for part in parts {
            let part = part.trim();
            if let Some(id) = part.strip_prefix("id ") {
                e.id = id.trim().to_owned();
            } else if let Some(rest) = part.strip_prefix('D') {
                let (d, count) = rest.split_once(' ').expect("`Dn count`");
                e.depths.push((
                    d.parse().expect("depth"),
                    count.trim().parse().expect("count"),
                ));
            }
        }
        entries.push(e);
    }
    assert!(!entries.is_empty(), "no entries in {}", path.display());
    Some(entries)
}

fn run(select: impl Fn(u64) -> bool) {
    let Some(entries) = suite() else {
        return;
    };
    let mut failures = Vec::new();
    let (mut nodes, start) = (0u64, Instant::now());
    for e in &entries {
        let pos = Position::from_fen(&e.fen).unwrap_or_else(|err| panic!("{}: {err}", e.id));
        for &(depth, want) in e.depths.iter().filter(|(_, n)| select(*n)) {
            let got = perft(&pos, depth);
            nodes += got;
            if got != want {
                failures.push(format!(
                    "{} depth {depth}: expected {want}, found {got}",
                    e.id
                ));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{nodes} nodes in {secs:.2} s: {:.1} M nodes/s",
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn suite_fast_depths() {
    run(|n| n <= FAST_NODES);
}

#[test]
#[ignore = "deep: tens of seconds in release"]
fn suite_deep_depths() {
    run(|n| n > FAST_NODES);
}
