//! The real-text corpus (issue 25): every record of `corpus/text/` read with kyphu as
//! the command line reads it (headings joined, free text, game told from the content),
//! its main line compared with the record's `.expect` sidecar (`corpus/text/README.md`):
//! exact, or, where the sidecar says `stops-at: N`, the first `N - 1` plies (the reading
//! stops at the record's own error or cut).
//!
//! A report and a floor: the per-record table is printed (`cargo test --test real_text
//! -- --nocapture`), and the test fails when fewer records read right than [`FLOOR`] or
//! a record outside [`EXPECTED_FAILURES`] fails. Each expected failure names its reason:
//! `forms` (a typed form of the notation the tokenizer does not read yet: commas,
//! descriptive notation, `…………`, glued numbers …; issue 25's forms half) or `reader`
//! (the free-text reader: layout, prose, side lines). Raise the floor and empty the list
//! as the reading improves.
//!
//! The tables of `docs/notation/real-text.md` are made from the printed table:
//! `cargo test --test real_text -- --nocapture | python3 corpus/text/tools/real_table.py`.

mod common;

use std::collections::BTreeMap;

use common::records::{corpus_root, longest_game, main_line};
use kyphu::{
    model::game::{Game, Variant},
    replay::ReplayOptions,
};

/// Records read right on this branch: the test fails below it.
const FLOOR: usize = 104;

/// Records that do not read right yet, with the reason.
const EXPECTED_FAILURES: &[(&str, &str)] = &[
    (
        "cs/wikisource-hravsachy-1",
        "reader: transposed table (numbers row, White row, Black row)",
    ),
    (
        "de/c4355-1",
        "reader: English letters mixed into a German text (Qg6): one table per game",
    ),
    (
        "de/wikibooks-beispiel1-1",
        "forms: captures naming the captured piece (\"Dd1x Cg4\", \"Sd7xSe5\")",
    ),
    (
        "en/bitlit-everyboy-1",
        "forms: the two columns glued with their numbers (\"1.P. to K’s 4th.1.P. to K’s 4th.\")",
    ),
    (
        "en/cnmilf-1",
        "forms: descriptive notation behind wiki list markers (\"#P–K4\"), \".Sq.\" squares",
    ),
    (
        "en/gameknot-12240-1",
        "reader: annotated table, pipes on their own lines",
    ),
    (
        "en/googlebooks-1",
        "reader: two columns flattened (each paragraph Black's move n and White's n+1), the game split at \"1.\" after a blank line",
    ),
    (
        "en/googlebooks-2",
        "reader: two columns flattened (each paragraph Black's move n and White's n+1), the game split at \"1.\" after a blank line",
    ),
    (
        "en/googlebooks-3",
        "reader: two columns flattened (each paragraph Black's move n and White's n+1), OCR damage (\"Yrd\")",
    ),
    (
        "en/joomag-1",
        "reader: score sheet flattened column after column",
    ),
    (
        "en/pbooks-bluebook-1",
        "forms: \"K. B. to his sq.\", \"K. B. P. takes B.\", footnote marks glued to moves (\"4th.[A]\")",
    ),
    (
        "en/wikisource-textbook-1",
        "reader: the record's own error (\"K. Kt. to B.'s 2nd.\", move 3) read as prose in a table row, the rows after it read on",
    ),
    ("es/capablancamd-1", "reader: FEN in an HTML attribute"),
    (
        "es/capablancamd-2",
        "reader: FEN in an HTML attribute, bold runs",
    ),
    (
        "fa/shatranjiran-2",
        "reader: layout (side lines in the notes, tables, columns) not read yet",
    ),
    (
        "fr/contregambitphilidor-1",
        "reader: layout (side lines in the notes, tables, columns) not read yet",
    ),
    (
        "fr/ezerkan-1",
        "forms: captures naming the captured piece (\"Dd1x Cg4\", \"Sd7xSe5\")",
    ),
    (
        "he/wikipedia2007-1",
        "forms: Hebrew piece letters and files",
    ),
    (
        "it/linuxinterflorence-1",
        "reader: other games given inline with their own numbers, players and results",
    ),
    (
        "it/linuxinterflorence-2",
        "reader: side lines inline with the game's numbers (\"19. ... c5 20. Da1\")",
    ),
    (
        "nl/delpher-1925-1",
        "forms: OCR damage (ó for 6, lost letters)",
    ),
    (
        "pl/wikisource-stefanski-1",
        "reader: two-column table (moves 1-14 and 15-27 side by side)",
    ),
    (
        "ru/chessonline-1",
        "forms: moves glued to their numbers (\"1.e4e52.Nf3\", \"line:1. d4\")",
    ),
    (
        "ru/hotlib-1",
        "reader: layout (side lines in the notes, tables, columns) not read yet",
    ),
    (
        "ru/sergeyhry-1929-1",
        "reader: pipe table with \"....\" halves",
    ),
    (
        "zh/35d-1",
        "forms: Chinese moves glued to prose, no numbers (and the record's own errors)",
    ),
    (
        "zh/victorzhang-1",
        "forms: pinyin inside moves, \"1、\" numbers",
    ),
    (
        "zh/victorzhang-2001-1",
        "forms: pinyin inside moves, \"1、\" numbers",
    ),
];

struct Expect {
    game: String,
    fen: Option<String>,
    moves: Vec<String>,
    stops_at: Option<usize>,
}

fn sidecar(text: &str) -> Expect {
    let mut fields = BTreeMap::new();
    for line in text.lines() {
        if let Some((k, v)) = line.split_once(':') {
            fields
                .entry(k.trim().to_owned())
                .or_insert_with(|| v.trim().to_owned());
        }
    }
    let stops_at = fields.get("stops-at").and_then(|v| {
        let digits: String = v.chars().take_while(|c| c.is_ascii_digit()).collect();
        digits.parse().ok()
    });
    Expect {
        game: fields.get("game").cloned().unwrap_or_default(),
        fen: fields.get("fen").cloned().filter(|f| !f.is_empty()),
        moves: fields
            .get("moves")
            .map(|m| m.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default(),
        stops_at,
    }
}

/// The record read as the command line reads it: the game with the longest main line.
fn read(bytes: &[u8]) -> Option<Game> {
    longest_game(bytes, &ReplayOptions::default())
}

#[test]
fn real_text_corpus() {
    let root = corpus_root();
    let mut records = Vec::new();
    for dir in std::fs::read_dir(&root).expect("corpus/text") {
        let dir = dir.expect("entry").path();
        if !dir.is_dir() || dir.ends_with("tools") {
            continue;
        }
        for f in std::fs::read_dir(&dir).expect("language folder") {
            let f = f.expect("entry").path();
            if f.extension().is_some_and(|e| e == "txt") && f.with_extension("expect").exists() {
                records.push(f);
            }
        }
    }
    records.sort();
    assert!(records.len() >= 131, "{} records", records.len());
    let mut passed = 0;
    let mut unexpected = Vec::new();
    let mut now_passing = Vec::new();
    let mut table = String::from(
        "| record | game | expected | read | result | at |\n|---|---|---|---|---|---|\n",
    );
    for path in &records {
        let name = path
            .strip_prefix(&root)
            .map(|p| p.with_extension("").display().to_string())
            .unwrap_or_default();
        let expect =
            sidecar(&std::fs::read_to_string(path.with_extension("expect")).expect("sidecar"));
        let bytes = std::fs::read(path).expect("record");
        let game = read(&bytes);
        let read_moves = game.as_ref().map(main_line).unwrap_or_default();
        let want: &[String] = match expect.stops_at {
            Some(n) => &expect.moves[..n.saturating_sub(1).min(expect.moves.len())],
            None => &expect.moves,
        };
        let game_ok = game.as_ref().is_some_and(|g| {
            (g.variant == Variant::Xiangqi) == (expect.game == "xiangqi")
                && expect.fen.as_ref().is_none_or(|fen| {
                    g.tags.get("FEN").is_some_and(|f| {
                        f.split_whitespace().next() == fen.split_whitespace().next()
                    })
                })
        });
        let ok = game_ok && read_moves == want;
        let diverge = read_moves
            .iter()
            .zip(want)
            .position(|(a, b)| a != b)
            .unwrap_or(read_moves.len().min(want.len()));
        let at = game
            .as_ref()
            .and_then(|g| {
                g.diagnostics
                    .iter()
                    .find(|d| d.severity == kyphu::model::diag::Severity::Error)
                    .map(|d| {
                        d.span
                            .map(|s| s.slice(&g.source.text))
                            .unwrap_or("")
                            .chars()
                            .take(30)
                            .collect::<String>()
                    })
            })
            .unwrap_or_default();
        let result = if ok {
            passed += 1;
            if expect.stops_at.is_some() {
                "stops right"
            } else {
                "exact"
            }
        } else if !game_ok {
            "wrong game"
        } else {
            "FAIL"
        };
        table.push_str(&format!(
            "| {name} | {} | {} | {} | {result} | {} |\n",
            expect.game,
            want.len(),
            if ok {
                read_moves.len().to_string()
            } else {
                format!("{} (agrees to {diverge})", read_moves.len())
            },
            at.replace('|', "\\|").replace('\n', " "),
        ));
        let listed = EXPECTED_FAILURES.iter().any(|(r, _)| *r == name);
        if !ok && !listed {
            unexpected.push(name.clone());
        }
        if ok && listed {
            now_passing.push(name.clone());
        }
    }
    println!("{table}");
    println!(
        "real text: {passed} of {} records read right",
        records.len()
    );
    let reasons = |kind: &str| {
        EXPECTED_FAILURES
            .iter()
            .filter(|(_, r)| r.starts_with(kind))
            .count()
    };
    println!(
        "expected failures: {} forms, {} reader",
        reasons("forms"),
        reasons("reader")
    );
    if !now_passing.is_empty() {
        println!(
            "listed as failing but read right (remove them from the list, raise the floor): {now_passing:?}"
        );
    }
    assert!(
        passed >= FLOOR,
        "{passed} records read right, below the floor {FLOOR}"
    );
    assert!(
        unexpected.is_empty(),
        "records failing and not listed: {unexpected:?}"
    );
}
