//! `convert --dedupe` (issue 28) on a real archive: a pgnmentor collection written
//! twice into one file and once more, with one move added to every tenth game, into a
//! second file. Every exact and prefix duplicate must be left out and reported, and no
//! other game: the expected sets are worked out here by brute force (each game's main
//! line as UCI text, compared whole and prefix by prefix), not by the hashes of
//! `game::dedupe`. Skips with a note when ../shared/corpus is absent.
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use kyphu::archive::read_str;
use kyphu::game::select::fold;
use kyphu::model::board::Board;
use kyphu::model::game::{AnyMove, Game, Status};
use kyphu::{ReplayOptions, replay};

mod common;

/// A game's identity as `--dedupe` (by game, the default) defines it, written out in
/// full: the variant, the start, the players (folded, words sorted) with the date and
/// round, the main line in UCI.
type Key = (String, String, String, Vec<String>);

fn players(game: &Game) -> String {
    let side = |tag: &str| {
        let f = fold(game.tags.get(tag).unwrap_or(""));
        let mut w: Vec<&str> = f
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        w.sort_unstable();
        w.join(" ")
    };
    let tag = |t: &str| game.tags.get(t).unwrap_or("").trim().to_owned();
    format!(
        "{}|{}|{}|{}",
        side("White"),
        side("Black"),
        tag("Date"),
        tag("Round")
    )
}

fn key(game: &Game) -> Option<Key> {
    if !matches!(game.status(), Status::Clean | Status::Repaired) || game.moves.moves.is_empty() {
        return None;
    }
    let moves = game
        .moves
        .moves
        .iter()
        .map(|n| match n.mv {
            AnyMove::Chess(m) => m.uci(false),
            AnyMove::Xiangqi(m) => m.iccs(),
            AnyMove::Null => "--".to_owned(),
        })
        .collect();
    Some((
        game.variant.name().to_owned(),
        game.start.fen(),
        players(game),
        moves,
    ))
}

/// Latin-1 to text (the pgnmentor files hold a few such bytes): every byte kept.
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// The text with one legal move (UCI, the first legal one) added before the result of
/// every tenth game (the 10th, 20th…), and how many got one.
fn with_a_move_added(text: &str) -> (String, usize) {
    let mut out = String::new();
    let mut at = 0;
    let mut added = 0;
    let mut number = 0;
    for raw in read_str(text) {
        if raw.junk {
            continue;
        }
        number += 1;
        let (start, end) = (raw.byte_start as usize, raw.byte_end as usize);
        let game = replay(raw, &ReplayOptions::default());
        if number % 10 != 0 || key(&game).is_none() {
            continue;
        }
        let Board::Chess(end_position) = game.end_position() else {
            continue;
        };
        let Some(m) = end_position.legal_moves().first().copied() else {
            continue; // mate or stalemate: left as it was
        };
        let body = &text[start..end];
        let Some(result) = ["1-0", "0-1", "1/2-1/2", "*"]
            .iter()
            .filter_map(|r| body.rfind(r))
            .max()
        else {
            continue;
        };
        out.push_str(&text[at..start + result]);
        out.push_str(&m.uci(false));
        out.push(' ');
        at = start + result;
        added += 1;
    }
    out.push_str(&text[at..]);
    (out, added)
}

#[test]
fn dedupe_leaves_out_every_exact_and_prefix_duplicate_of_a_real_archive_and_no_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/chess/pgnmentor");
    let source = root.join("Kasparov.pgn");
    if !source.exists() {
        eprintln!("note: {} absent: dedupe test skipped", source.display());
        return;
    }
    let text = latin1(&std::fs::read(&source).unwrap());
    let (changed, added) = with_a_move_added(&text);
    assert!(added > 150, "{added} games given a move");
    let dir = std::env::temp_dir().join(format!("kyphu-dedupe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let twice = dir.join("twice.pgn");
    let longer = dir.join("longer.pgn");
    std::fs::write(&twice, format!("{text}\n{text}")).unwrap();
    std::fs::write(&longer, &changed).unwrap();

    // the expected verdicts, by brute force over the same files in the same order
    let mut games: Vec<(String, u64, u64, usize, Option<Key>)> = Vec::new();
    for (name, t) in [
        ("twice.pgn", format!("{text}\n{text}")),
        ("longer.pgn", changed),
    ] {
        let mut number = 0;
        for raw in read_str(&t) {
            if raw.junk {
                continue;
            }
            number += 1;
            let game = replay(raw, &ReplayOptions::default());
            let line = game.source.first_line;
            games.push((name.to_owned(), number, line, game.tags.len(), key(&game)));
        }
    }
    let keys: BTreeSet<&Key> = games.iter().filter_map(|g| g.4.as_ref()).collect();
    // a key is left out as a prefix when another key continues it
    let mut continued: BTreeSet<Key> = BTreeSet::new();
    for k in &keys {
        for p in 1..k.3.len() {
            let short: Key = (k.0.clone(), k.1.clone(), k.2.clone(), k.3[..p].to_vec());
            if keys.contains(&short) {
                continued.insert(short);
            }
        }
    }
    // of the exact duplicates, the game with the most tags, then the first, is kept
    let mut best: BTreeMap<&Key, usize> = BTreeMap::new();
    for (i, g) in games.iter().enumerate() {
        if let Some(k) = &g.4 {
            let b = best.entry(k).or_insert(i);
            if g.3 > games[*b].3 {
                *b = i;
            }
        }
    }
    let mut want: BTreeMap<(String, u64), &str> = BTreeMap::new();
    for (i, g) in games.iter().enumerate() {
        let Some(k) = &g.4 else { continue };
        if continued.contains(k) {
            want.insert((g.0.clone(), g.1), "prefix");
        } else if best[k] != i {
            want.insert((g.0.clone(), g.1), "exact");
        }
    }
    let exact = want.values().filter(|v| **v == "exact").count();
    let prefix = want.len() - exact;
    let n = games.len() / 3;
    // every game of the second copy is a duplicate of the first, and the games given a
    // move make both copies of their original prefixes
    assert!(exact >= n - added, "{exact} exact of {n} games");
    assert!(
        prefix >= 2 * added,
        "{prefix} prefixes, {added} games given a move"
    );

    let report = dir.join("report.csv");
    let out = dir.join("out.pgn");
    let run = common::kyphu(
        &[
            "convert",
            "--dedupe",
            "--dedupe-report",
            report.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            twice.to_str().unwrap(),
            longer.to_str().unwrap(),
        ],
        "",
    );
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    let csv = std::fs::read_to_string(&report).unwrap();
    let mut got: BTreeMap<(String, u64), String> = BTreeMap::new();
    for row in csv.lines().skip(1) {
        let f: Vec<&str> = row.split(',').collect();
        let file = Path::new(f[0])
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        got.insert((file.clone(), f[1].parse().unwrap()), f[4].to_owned());
        // the kept game is kept: not itself in the report, and longer for a prefix
        let kept = (
            Path::new(f[5])
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned(),
            f[6].parse::<u64>().unwrap(),
        );
        assert!(
            !want.contains_key(&kept),
            "{row}: the kept game is left out too"
        );
        let (plies, kept_plies): (usize, usize) = (f[3].parse().unwrap(), f[8].parse().unwrap());
        match f[4] {
            "exact" => assert_eq!(plies, kept_plies, "{row}"),
            _ => assert!(plies < kept_plies, "{row}"),
        }
        // the line named is the game's
        let g = games
            .iter()
            .find(|g| g.0 == file && g.1 == f[1].parse::<u64>().unwrap())
            .unwrap();
        assert_eq!(g.2.to_string(), f[2], "{row}");
    }
    let want: BTreeMap<(String, u64), String> =
        want.into_iter().map(|(k, v)| (k, v.to_owned())).collect();
    let missing: Vec<_> = want
        .keys()
        .filter(|k| !got.contains_key(*k))
        .take(5)
        .collect();
    let invented: Vec<_> = got
        .keys()
        .filter(|k| !want.contains_key(*k))
        .take(5)
        .collect();
    assert!(
        missing.is_empty() && invented.is_empty(),
        "not found: {missing:?}; invented: {invented:?}"
    );
    assert_eq!(got, want);
    // the output holds the others, and the summary counts what was left out
    let written = std::fs::read_to_string(&out)
        .unwrap()
        .matches("\n[Event ")
        .count()
        + 1;
    assert_eq!(written, games.len() - got.len());
    let counted = run
        .stderr
        .lines()
        .filter_map(|l| l.split("; ").find(|p| p.contains("duplicates left out")))
        .map(|p| p.to_owned())
        .collect::<Vec<_>>();
    let in_twice = want.keys().filter(|k| k.0 == "twice.pgn").count();
    assert_eq!(counted.len(), 2, "{}", run.stderr);
    assert!(
        counted[0].starts_with(&format!("{in_twice} duplicates")),
        "{counted:?}"
    );
    eprintln!(
        "{} games: {exact} exact duplicates, {prefix} prefixes left out ({added} games given a move)",
        games.len()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Standard input is read once, like a file: the output is the same.
#[test]
fn dedupe_reads_standard_input() {
    let text = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 *\n\n\
                [White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 *\n\n\
                [White \"A\"]\n[Black \"B\"]\n\n1. d4 *\n\n\
                [White \"A\"]\n[Black \"B\"]\n\n1. d4 *\n\n";
    let run = common::kyphu(&["convert", "--dedupe", "-"], text);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.matches("[White ").count(), 2, "{}", run.stdout);
    assert!(run.stdout.contains("2. Nf3") && run.stdout.contains("1. d4"));
    assert!(
        run.stderr
            .contains("2 duplicates left out (1 exact, 1 prefix of a longer game)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(
            "-:1: game 1 left out by --dedupe: its 2 plies begin the 3 of game 2 (-:6), kept"
        ),
        "{}",
        run.stderr
    );
}

/// A folder's games are named by the file they are in and their number in it (the
/// folder was named, with the games numbered across its files and the line of the
/// file: `fold:1: game 3`, which no file holds).
#[test]
fn dedupe_names_the_file_of_a_folder_a_game_is_in() {
    let dir = std::env::temp_dir().join(format!("kyphu-dedupe-folder-{}", std::process::id()));
    let folder = dir.join("fold");
    std::fs::create_dir_all(&folder).unwrap();
    let g =
        |black: &str, moves: &str| format!("[White \"A\"]\n[Black \"{black}\"]\n\n{moves} *\n\n");
    let a = format!("{}{}", g("B", "1. e4 e5"), g("C", "1. d4"));
    std::fs::write(folder.join("a.pgn"), a).unwrap();
    std::fs::write(folder.join("b.pgn"), g("B", "1. e4 e5")).unwrap();
    let report = dir.join("r.csv");
    let f = folder.to_str().unwrap();
    let run = common::kyphu(&["convert", "--dedupe", f], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (a, b) = (
        folder.join("a.pgn").display().to_string(),
        folder.join("b.pgn").display().to_string(),
    );
    let want =
        format!("{b}:1: game 1 left out by --dedupe: the same moves as game 1 ({a}:1), kept");
    assert!(run.stderr.contains(&want), "{}", run.stderr);
    let run = common::kyphu(
        &[
            "convert",
            "--dedupe",
            "--dedupe-report",
            report.to_str().unwrap(),
            f,
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let csv = std::fs::read_to_string(&report).unwrap();
    assert_eq!(
        csv.lines().nth(1).unwrap(),
        format!("{b},1,1,2,exact,{a},1,1,2,2,1")
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A file read twice in one run: its games are told apart by the input they were read
/// as (both were `a.pgn`, game 1, and the report could not say which was kept).
#[test]
fn dedupe_names_a_file_read_twice_by_its_input() {
    let dir = std::env::temp_dir().join(format!("kyphu-dedupe-twice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a.pgn");
    std::fs::write(&file, "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 *\n\n").unwrap();
    let f = file.to_str().unwrap();
    let report = dir.join("r.csv");
    let run = common::kyphu(&["convert", "--dedupe", f, f], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let want = format!(
        "{f}:1: game 1 of input 2 left out by --dedupe: the same moves as game 1 of input 1 ({f}:1), kept"
    );
    assert!(run.stderr.contains(&want), "{}", run.stderr);
    let run = common::kyphu(
        &[
            "convert",
            "--dedupe",
            "--dedupe-report",
            report.to_str().unwrap(),
            f,
            f,
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let csv = std::fs::read_to_string(&report).unwrap();
    assert_eq!(
        csv,
        format!(
            "file,game,line,plies,duplicate,kept_file,kept_game,kept_line,kept_plies,input,kept_input\n{f},1,1,2,exact,{f},1,1,2,2,1\n"
        )
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn dedupe_refuses_a_report_without_dedupe_and_csv_output() {
    let run = common::kyphu(&["convert", "--dedupe-report", "r.csv", "-"], "1. e4 *\n");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("with --dedupe only"), "{}", run.stderr);
    let run = common::kyphu(&["convert", "--dedupe", "--to", "csv", "-"], "1. e4 *\n");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("not scoresheet CSV"), "{}", run.stderr);
}

fn have(program: &str, args: &[&str]) -> bool {
    std::process::Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The duplicates `--dedupe` leaves out (exact, prefix), summed over the files' summaries.
fn left_out(stderr: &str) -> (u64, u64) {
    let mut total = (0, 0);
    for part in stderr.lines().flat_map(|l| l.split("; ")) {
        // "N duplicates left out (E exact, P prefixes of a longer game)"
        if let Some(rest) = part.split_once(" left out (").map(|(_, r)| r) {
            let mut numbers = rest
                .split(|c: char| !c.is_ascii_digit())
                .filter(|w| !w.is_empty());
            total.0 += numbers.next().unwrap().parse::<u64>().unwrap();
            total.1 += numbers.next().unwrap().parse::<u64>().unwrap();
        }
    }
    total
}

/// Against python-chess (benches/dedupe_check.py: main lines in UCI compared whole and
/// as prefixes by sorting, no hash): four real collections written twice, then once
/// more with a legal move added to every tenth game, by each rule. Skips with a note
/// without python-chess or the shared corpus.
#[test]
fn dedupe_counts_equal_python_chess_on_real_files_twice_and_with_a_move_added() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/chess/pgnmentor");
    let names = ["Ashley.pgn", "Morphy.pgn", "Winawer.pgn", "Zukertort.pgn"];
    if !root.join(names[0]).exists() {
        eprintln!(
            "note: {} absent: python-chess dedupe comparison skipped",
            root.display()
        );
        return;
    }
    if !have("python3", &["-c", "import chess.pgn"]) {
        eprintln!("note: python-chess is not installed: dedupe comparison skipped");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/dedupe_check.py");
    let dir = std::env::temp_dir().join(format!("kyphu-dedupe-py-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut a = Vec::new();
    for n in names {
        a.extend(std::fs::read(root.join(n)).unwrap());
        a.extend(b"\n");
    }
    let (one, twice, longer) = (
        dir.join("a.pgn"),
        dir.join("twice.pgn"),
        dir.join("longer.pgn"),
    );
    std::fs::write(&one, &a).unwrap();
    std::fs::write(&twice, [a.as_slice(), a.as_slice()].concat()).unwrap();
    let python = |args: &[&Path]| {
        let out = std::process::Command::new("python3")
            .arg(&script)
            .args(args.iter().map(|p| p.as_os_str()))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let added: u64 = python(&[Path::new("addmove"), &one, &longer])
        .trim()
        .parse()
        .unwrap();
    assert!(added > 50, "{added} games given a move");
    let counts = python(&[
        Path::new("count"),
        Path::new("--by"),
        Path::new("all"),
        &twice,
        &longer,
    ]);
    for by in ["moves", "players", "game"] {
        // "BY: games G compared C exact E prefix P"
        let line = counts
            .lines()
            .find(|l| l.starts_with(&format!("{by}:")))
            .unwrap();
        let w: Vec<&str> = line.split_whitespace().collect();
        let want: (u64, u64) = (w[6].parse().unwrap(), w[8].parse().unwrap());
        let out = dir.join("out.pgn");
        let run = common::kyphu(
            &[
                "convert",
                "-q",
                &format!("--dedupe={by}"),
                "-o",
                out.to_str().unwrap(),
                twice.to_str().unwrap(),
                longer.to_str().unwrap(),
            ],
            "",
        );
        assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
        let got = left_out(&run.stderr);
        assert_eq!(
            got, want,
            "by {by}: kyphu (exact, prefix) against python-chess's {line}"
        );
        // every game of the second copy at least, and both copies of each game given
        // a move
        assert!(got.0 + got.1 >= w[4].parse::<u64>().unwrap() / 3, "{line}");
        assert!(got.1 >= 2 * added, "{line}");
        eprintln!("by {by}: {line} (kyphu: the same)");
    }
    std::fs::remove_dir_all(&dir).ok();
}
