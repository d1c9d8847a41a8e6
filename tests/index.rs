//! `kyphu index` (issue 28): one record per game whose byte offset and length slice the
//! file into exactly its games: each slice, read alone, is the same game (tags, moves,
//! result) as the game read in the whole file.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use kyphu::{Item, ReplayOptions, read_games};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn kyphu(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_kyphu"))
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// What identifies a game read: its tags, its main line as written, its result.
fn identity(g: &kyphu::Game) -> (Vec<(String, String)>, Vec<String>, String) {
    (
        g.tags
            .iter()
            .map(|(n, v)| (n.to_owned(), v.to_owned()))
            .collect(),
        g.moves
            .moves
            .iter()
            .map(|m| g.written(m).to_owned())
            .collect(),
        g.result.to_string(),
    )
}

fn games(bytes: &[u8]) -> Vec<kyphu::Game> {
    read_games(bytes, &ReplayOptions::default())
        .filter_map(|i| match i.unwrap() {
            Item::Game(g) => Some(g),
            Item::NonGame(_) => None,
        })
        .collect()
}

/// The index of `path` as JSON Lines slices the file into its games.
fn check_slices(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap();
    let (out, err, _) = kyphu(&["index", "--to", "jsonl", path.to_str().unwrap()]);
    let whole = games(&bytes);
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), whole.len(), "{}: {err}", path.display());
    let mut end = 0u64;
    for (r, g) in records.iter().zip(&whole) {
        let offset = r["offset"].as_u64().unwrap();
        let length = r["length"].as_u64().unwrap();
        assert!(
            offset >= end,
            "{}: slices overlap at {offset}",
            path.display()
        );
        end = offset + length;
        let slice = &bytes[offset as usize..end as usize];
        // the bytes between two slices are blank
        let alone = games(slice);
        assert_eq!(alone.len(), 1, "{} at {offset}", path.display());
        assert_eq!(
            identity(&alone[0]),
            identity(g),
            "{} at {offset}",
            path.display()
        );
        assert_eq!(r["plies"].as_u64().unwrap() as usize, g.moves.moves.len());
        assert_eq!(
            r["status"].as_str().unwrap(),
            serde_json::to_value(g.status()).unwrap().as_str().unwrap()
        );
        for (name, value) in g.tags.iter() {
            if g.tags.get(name) == Some(value) {
                assert_eq!(r["tags"][name].as_str(), Some(value));
            }
        }
    }
    // what is not in a slice is blank (or junk text between games, not a game)
    let mut covered = vec![false; bytes.len()];
    for r in &records {
        let (o, l) = (
            r["offset"].as_u64().unwrap() as usize,
            r["length"].as_u64().unwrap() as usize,
        );
        covered[o..o + l].fill(true);
    }
    let outside: Vec<u8> = bytes
        .iter()
        .zip(&covered)
        .filter(|(_, c)| !**c)
        .map(|(b, _)| *b)
        .collect();
    assert!(
        games(&outside).is_empty(),
        "{}: a game outside the slices",
        path.display()
    );
    records.len()
}

#[test]
fn offsets_slice_files_into_their_games() {
    let mut files: Vec<PathBuf> = vec![
        root().join("corpus/chess/games.pgn"),
        root().join("corpus/chess/scoresheet-vi.pgn"),
        // a legacy encoding: offsets are of the bytes as stored
        root().join("corpus/encodings/vni/games.pgn"),
        root().join("corpus/encodings/mojibake/games.pgn"),
    ];
    let shared = root().join("../shared/corpus/chess/pgnmentor");
    if shared.is_dir() {
        let mut pgns: Vec<PathBuf> = std::fs::read_dir(&shared)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
            .collect();
        pgns.sort();
        files.extend(pgns);
    } else {
        eprintln!("note: {} absent: its files are skipped", shared.display());
    }
    let mut n = 0;
    for f in &files {
        n += check_slices(f);
    }
    eprintln!("{} files, {n} games sliced", files.len());
    assert!(n > 50 || !shared.is_dir(), "{n}");
}

#[test]
fn csv_has_a_header_and_a_row_per_game() {
    let path = root().join("corpus/chess/games.pgn");
    let (out, _, code) = kyphu(&["index", path.to_str().unwrap()]);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some(
            "file,game,offset,length,line,plies,status,encoding,Event,Site,Date,Round,White,Black,Result,ECO"
        )
    );
    let rows: Vec<_> = lines.collect();
    let bytes = std::fs::read(&path).unwrap();
    let whole = games(&bytes);
    assert_eq!(rows.len(), whole.len());
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    for (rec, g) in reader.records().zip(&whole) {
        let rec = rec.unwrap();
        assert_eq!(
            &rec[6],
            serde_json::to_value(g.status()).unwrap().as_str().unwrap()
        );
        assert_eq!(&rec[12], g.tags.get("White").unwrap_or(""));
        assert_eq!(rec[5].parse::<usize>().unwrap(), g.moves.moves.len());
    }
    assert!(code == 0 || code == 1);
}
