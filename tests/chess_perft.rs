#![allow(clippy::unwrap_used)]
//! Perft against the standard suites in `../shared/corpus` (skipped, with a note, when
//! that folder is absent). Depths are capped by node count so that the suite stays fast
//! on two cores; `cargo test --release -- --ignored` runs every listed depth.

use std::path::PathBuf;

mod common;

use kyphu::chess::{Position, check_play_legal, perft};

fn shared(path: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(path);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipping: ../shared/corpus absent ({path} not found)");
        None
    }
}

struct Case {
    id: String,
    fen: String,
    depths: Vec<(u32, u64)>,
}

/// `FEN ;D1 n ;D2 n …` lines.
fn read_epd(text: &str) -> Vec<Case> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .enumerate()
        .map(|(i, line)| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or("").trim().to_owned();
            let mut depths = Vec::new();
            let mut id = format!("line {}", i + 1);
            for p in parts {
                let p = p.trim();
                if let Some(rest) = p.strip_prefix('D') {
                    let mut it = rest.split_whitespace();
                    let d = it.next().and_then(|d| d.parse().ok());
                    let n = it.next().and_then(|n| n.parse().ok());
                    if let (Some(d), Some(n)) = (d, n) {
                        depths.push((d, n));
                    }
                } else if let Some(rest) = p.strip_prefix("id ") {
                    id = rest.to_owned();
                }
            }
            Case { id, fen, depths }
        })
        .collect()
}

/// python-chess's `id / epd / perft DEPTH NODES` blocks.
fn read_perft_blocks(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines() {
        if let Some(id) = line.strip_prefix("id ") {
            cases.push(Case {
                id: id.to_owned(),
                fen: String::new(),
                depths: Vec::new(),
            });
        } else if let (Some(epd), Some(c)) = (line.strip_prefix("epd "), cases.last_mut()) {
            c.fen = epd.trim().to_owned();
        } else if let (Some(p), Some(c)) = (line.strip_prefix("perft "), cases.last_mut()) {
            let mut it = p.split_whitespace();
            if let (Some(d), Some(n)) = (it.next(), it.next()) {
                c.depths.push((d.parse().unwrap(), n.parse().unwrap()));
            }
        }
    }
    cases
}

fn run(cases: &[Case], chess960: bool, max_nodes: u64) -> usize {
    let mut checked = 0;
    for case in cases {
        // tricky.perft mixes in X-FEN chess960 positions: read those as chess960.
        let pos = if chess960 {
            Position::from_fen_chess960(&case.fen)
        } else {
            Position::from_fen(&case.fen).or_else(|_| Position::from_fen_chess960(&case.fen))
        }
        .unwrap_or_else(|e| panic!("{}: {}: {e}", case.id, case.fen));
        for &(depth, nodes) in &case.depths {
            if nodes > max_nodes {
                continue;
            }
            assert_eq!(
                perft(&pos, depth),
                nodes,
                "{} depth {depth}: {}",
                case.id,
                case.fen
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn standard_suite() {
    let Some(p) = shared("perft/perft-chess.epd") else {
        return;
    };
    let cases = read_epd(&std::fs::read_to_string(p).unwrap());
    assert_eq!(cases.len(), 6);
    // Every listed depth (4 or 5 each): about 20 million nodes in all.
    assert_eq!(run(&cases, false, u64::MAX), 26);
}

#[test]
fn chess960_suite() {
    let Some(p) = shared("perft/perft-chess960.epd") else {
        return;
    };
    let cases = read_epd(&std::fs::read_to_string(p).unwrap());
    assert_eq!(cases.len(), 6);
    assert_eq!(run(&cases, true, u64::MAX), 18);
}

#[test]
fn python_chess_tricky_and_random() {
    let Some(dir) = shared("chess/python-chess/perft") else {
        return;
    };
    let tricky = read_perft_blocks(&std::fs::read_to_string(dir.join("tricky.perft")).unwrap());
    assert!(run(&tricky, false, 2_000_000) > 19);
    let random = read_perft_blocks(&std::fs::read_to_string(dir.join("random.perft")).unwrap());
    assert_eq!(random.len(), 6838);
    assert!(run(&random, false, 20_000) > 6838);
}

#[test]
fn python_chess_chess960_all_start_positions() {
    let Some(dir) = shared("chess/python-chess/perft") else {
        return;
    };
    let cases = read_perft_blocks(&std::fs::read_to_string(dir.join("chess960.perft")).unwrap());
    assert_eq!(cases.len(), 960);
    assert!(run(&cases, true, 20_000) >= 960 * 2);
}

#[test]
fn sunfish_suite() {
    let Some(p) = shared("chess/sunfish/perft.epd") else {
        return;
    };
    let cases = read_epd(&std::fs::read_to_string(p).unwrap());
    assert_eq!(cases.len(), 127);
    assert!(run(&cases, false, 200_000) > 127 * 3);
}

/// `Position::play_legal` (the move player of the SAN resolver, which finds the
/// checkers from the move alone) leaves the same position as `play_unchecked` for
/// every legal move of the perft suites' trees, two or three plies deep.
#[test]
fn play_legal_agrees_on_the_perft_suites() {
    let (Some(epd), Some(dir)) = (shared("perft"), shared("chess/python-chess/perft")) else {
        return;
    };
    let mut cases = Vec::new();
    for (file, chess960) in [("perft-chess.epd", false), ("perft-chess960.epd", true)] {
        let text = std::fs::read_to_string(epd.join(file)).unwrap();
        cases.extend(read_epd(&text).into_iter().map(|c| (c, chess960, 3)));
    }
    for (file, chess960, depth) in [
        ("tricky.perft", false, 3),
        ("chess960.perft", true, 2),
        ("random.perft", false, 2),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        cases.extend(
            read_perft_blocks(&text)
                .into_iter()
                .map(|c| (c, chess960, depth)),
        );
    }
    let mut compared = 0;
    for (case, chess960, depth) in &cases {
        let pos = if *chess960 {
            Position::from_fen_chess960(&case.fen)
        } else {
            Position::from_fen(&case.fen).or_else(|_| Position::from_fen_chess960(&case.fen))
        }
        .unwrap();
        compared += check_play_legal(&pos, *depth).unwrap_or_else(|e| panic!("{}: {e}", case.id));
    }
    assert!(compared > 1_000_000, "{compared}");
}

/// The same on real games: every legal move of every position of a quarter of the
/// corpus games (main lines as the reader replays them).
#[test]
fn play_legal_agrees_on_corpus_games() {
    use kyphu::{
        archive::{ReadOptions, read_bytes},
        model::game::{AnyMove, StartPosition},
        replay::{ReplayOptions, replay},
    };
    let Some(dir) = shared("chess") else {
        return;
    };
    let files = common::pgn_files(dir);
    let (mut games, mut compared) = (0, 0);
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        for raw in read_bytes(&bytes, ReadOptions::default())
            .into_iter()
            .step_by(4)
        {
            let g = replay(raw, &ReplayOptions::default());
            let StartPosition::Chess(start) = &g.start else {
                continue;
            };
            let mut pos = (**start).clone();
            for node in &g.moves.moves {
                let AnyMove::Chess(m) = node.mv else {
                    break;
                };
                compared +=
                    check_play_legal(&pos, 1).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                pos.play_unchecked(&m);
            }
            games += 1;
        }
    }
    assert!(games > 2000 && compared > 1_000_000, "{games} {compared}");
}

#[test]
#[ignore = "deep: run with --release -- --ignored"]
fn deep_suites() {
    let Some(p) = shared("chess/sunfish/perft.epd") else {
        return;
    };
    let cases = read_epd(&std::fs::read_to_string(p).unwrap());
    run(&cases, false, u64::MAX);
    let Some(dir) = shared("chess/python-chess/perft") else {
        return;
    };
    for (file, chess960) in [
        ("tricky.perft", false),
        ("random.perft", false),
        ("chess960.perft", true),
    ] {
        let cases = read_perft_blocks(&std::fs::read_to_string(dir.join(file)).unwrap());
        run(&cases, chess960, u64::MAX);
    }
}
