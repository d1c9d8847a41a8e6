//! Opening classification (issue 28): the bundled lichess table classifies its own
//! lines, and real games as an independent implementation of the same rule
//! (`grammars/eco/check/compare.py`, python-chess) classified them.
#![allow(clippy::unwrap_used)]

use std::io::BufReader;
use std::path::Path;

use kyphu::game::eco::classify;
use kyphu::{Item, ReplayOptions, read_games};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every line of the table, read as a PGN game through the public reader, is
/// classified as that line, at its last ply; and its final position is the EPD that
/// python-chess computed for it (`positions.tsv`).
#[test]
fn every_table_line_classifies_as_itself() {
    let tsv = std::fs::read_to_string(root().join("grammars/eco/positions.tsv")).unwrap();
    let mut pgn = String::new();
    let mut want = Vec::new();
    for row in tsv.lines().skip(1) {
        let c: Vec<&str> = row.split('\t').collect();
        let (eco, name, uci, epd, plies) = (c[0], c[1], c[2], c[3], c[4]);
        // the table's own SAN text, from the five files, is what the test reads: rebuild
        // it from the UCI line would test nothing of the SAN reader
        want.push((
            eco.to_owned(),
            name.to_owned(),
            epd.to_owned(),
            plies.parse::<usize>().unwrap(),
        ));
        let _ = uci;
    }
    for file in ["a", "b", "c", "d", "e"] {
        let text =
            std::fs::read_to_string(root().join(format!("grammars/eco/{file}.tsv"))).unwrap();
        for row in text.lines().skip(1) {
            let san = row.split('\t').nth(2).unwrap();
            pgn.push_str(&format!("[Result \"*\"]\n\n{san} *\n\n"));
        }
    }
    let games: Vec<_> = read_games(BufReader::new(pgn.as_bytes()), &ReplayOptions::default())
        .map(|item| match item.unwrap() {
            Item::Game(g) => g,
            Item::NonGame(g) => panic!("non-game: {:?}", g.source.text),
        })
        .collect();
    assert_eq!(games.len(), want.len());
    let mut wrong = Vec::new();
    for (i, (game, (eco, name, epd, plies))) in games.iter().zip(&want).enumerate() {
        let got = classify(game);
        let fen = game.end_position().fen();
        let ours_epd: Vec<&str> = fen.split(' ').take(4).collect();
        let ok = got
            .is_some_and(|c| c.opening.eco == eco && c.opening.name == name && c.ply == *plies)
            && same_epd(&ours_epd, epd);
        if !ok {
            wrong.push(format!("line {i}: {eco} {name} {epd}: got {got:?}, {fen}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} lines:\n{}",
        wrong.len(),
        want.len(),
        wrong[..wrong.len().min(10)].join("\n")
    );
}

/// Our FEN's first four fields against python-chess's EPD, which writes the en passant
/// square only when a capture there is legal, where FEN writes it after every double step.
fn same_epd(ours: &[&str], epd: &str) -> bool {
    let theirs: Vec<&str> = epd.split(' ').collect();
    ours[..3] == theirs[..3] && (ours[3] == theirs[3] || theirs[3] == "-")
}

/// The first 2,554 games of the bench archive (pgnmentor), classified by position with
/// the same table by python-chess (`check/c2-compare.tsv`, column `lichess_eco`, the
/// ply and the name): kyphu agrees on every game.
#[test]
fn real_games_classify_as_an_independent_reader_does() {
    let zst = root().join("../shared/corpus/bench/bench.pgn.zst");
    if !zst.exists() {
        eprintln!(
            "note: ../shared/corpus absent: real_games_classify_as_an_independent_reader_does skipped"
        );
        return;
    }
    let tsv = std::fs::read_to_string(root().join("grammars/eco/check/c2-compare.tsv")).unwrap();
    let rows: Vec<Vec<String>> = tsv
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_owned).collect::<Vec<_>>())
        // python-chess splits two games whose tags are followed by two blank lines into
        // a tag-only game (these rows: no plies) and the moves; kyphu reads one game
        .filter(|r| r[1] != "0")
        .collect();
    let input = kyphu::bytes::open(zst.to_str().unwrap()).unwrap();
    let mut games =
        read_games(input.reader, &ReplayOptions::default()).filter_map(|item| {
            match item.unwrap() {
                Item::Game(g) => Some(g),
                Item::NonGame(_) => None,
            }
        });
    let (mut same, mut wrong) = (0, Vec::new());
    for row in &rows {
        let game = games.next().unwrap();
        let got = classify(&game);
        let want_eco = &row[4];
        let want_ply: usize = row[5].parse().unwrap_or(0);
        let ok = got.is_some_and(|c| {
            c.opening.eco == want_eco && c.ply == want_ply && c.opening.name == row[6]
        });
        if ok {
            same += 1;
        } else {
            wrong.push(format!("game {}: want {row:?}, got {got:?}", row[0]));
        }
    }
    eprintln!(
        "eco: {same} of {} games as python-chess by position",
        rows.len()
    );
    assert!(
        wrong.is_empty(),
        "{}",
        wrong[..wrong.len().min(10)].join("\n")
    );
}
