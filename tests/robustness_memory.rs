//! Reading in bounded memory and linear time whatever the layout (issue 22): games
//! without tags one per line or separated only by their move numbers or results, lines
//! and games over their budgets (kept verbatim, counted, never dropped), huge games,
//! compressed files of huge games, `check --strict`. The CLI cases run the binary
//! under GNU time (`/usr/bin/time -f %M`) and assert a peak RSS of at most 64 MB; they
//! are skipped with a note where GNU time is missing. `benches/memory.sh` measures
//! the same layouts at larger sizes.

#![allow(clippy::unwrap_used)]

use std::{
    io::Write,
    path::{Path, PathBuf},
    process::Command,
    time::{Duration, Instant},
};

use kyphu::archive::{ArchiveReader, Limits, RawGame, ReadOptions, read_bytes};

const GNU_TIME: &str = "/usr/bin/time";
const MAX_RSS_KB: u64 = 64 * 1024;

fn tmp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

struct Run {
    code: i32,
    stdout_len: usize,
    /// Standard error, then the end of standard output (where `check` writes its
    /// summary).
    stderr: String,
    max_rss_kb: u64,
}

/// Runs the binary under GNU time; `None` (with a note) where GNU time is missing.
fn run(args: &[&str]) -> Option<Run> {
    if !Path::new(GNU_TIME).exists() {
        eprintln!("note: {GNU_TIME} missing: peak RSS not measured, test skipped");
        return None;
    }
    let rss_file = tmp(&format!("rss-{}", args.join("-").replace('/', "_")));
    let out = Command::new(GNU_TIME)
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&rss_file)
        .arg(env!("CARGO_BIN_EXE_kyphu"))
        .args(args)
        .output()
        .unwrap();
    let rss = std::fs::read_to_string(&rss_file).unwrap();
    Some(Run {
        code: out.status.code().unwrap_or(-1),
        stdout_len: out.stdout.len(),
        stderr: format!(
            "{}\n{}",
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout[out.stdout.len().saturating_sub(4096)..])
        ),
        max_rss_kb: rss
            .lines()
            .last()
            .and_then(|l| l.trim().parse().ok())
            .unwrap(),
    })
}

/// The summary numbers `N games: C clean, R repaired, P partial, F failed` (on
/// standard output or standard error).
fn summary(out: &str) -> [u64; 5] {
    let line = out
        .lines()
        .rev()
        .find(|l| l.contains(" clean, "))
        .unwrap_or_else(|| panic!("no summary in {out}"));
    let words: Vec<&str> = line
        .split([' ', ',', ':', ';'])
        .filter(|w| !w.is_empty())
        .collect();
    let count = |names: &[&str]| {
        words
            .windows(2)
            .find(|w| names.contains(&w[1]))
            .and_then(|w| w[0].parse().ok())
            .unwrap_or_else(|| panic!("no {names:?} in {line}"))
    };
    [
        count(&["game", "games"]),
        count(&["clean"]),
        count(&["repaired"]),
        count(&["partial"]),
        count(&["failed"]),
    ]
}

fn read(bytes: &[u8], limits: Limits) -> Vec<RawGame> {
    read_bytes(
        bytes,
        ReadOptions {
            encoding: None,
            limits,
        },
    )
}

/// Reads through a small buffer, as a stream is read.
fn read_buffered(bytes: &[u8], cap: usize, limits: Limits) -> Vec<RawGame> {
    ArchiveReader::new(
        std::io::BufReader::with_capacity(cap, bytes),
        ReadOptions {
            encoding: None,
            limits,
        },
    )
    .map(Result::unwrap)
    .collect()
}

/// The number of pieces (chunks) the reader makes of `bytes`.
fn pieces(bytes: &[u8]) -> usize {
    ArchiveReader::new(bytes, ReadOptions::default())
        .pieces()
        .count()
}

const LINE: &str = "1. e4 e5 2. Nf3 Nc6 1-0\n";

/// Case 1: one game per line, no blank line or tags between: each game is a chunk of
/// its own (it was one chunk for the whole file, which then took the square of its
/// length in time and memory: 5 GB for 10 000 lines).
#[test]
fn one_game_per_line_without_blank_lines() {
    let text = LINE.repeat(10_000);
    let t = Instant::now();
    let games = read(text.as_bytes(), Limits::default());
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    assert_eq!(games.len(), 10_000);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.text, LINE, "game {i}");
        assert_eq!(g.first_line, i as u64 + 1);
        assert_eq!(g.byte_start, (i * LINE.len()) as u64);
        assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
    }
    assert_eq!(pieces(text.as_bytes()), 10_000);
    // the same through a small buffer, with results of every spelling
    let text: String = ["1-0", "0-1", "1/2-1/2", "*", "½-½"]
        .iter()
        .cycle()
        .take(500)
        .map(|r| format!("1. d4 d5 {r}\r\n"))
        .collect();
    assert_eq!(
        read_buffered(text.as_bytes(), 7, Limits::default()).len(),
        500
    );
    assert_eq!(pieces(text.as_bytes()), 500);
}

/// Case 1, at the CLI: a 2 MB file of such lines (it ran the machine out of memory).
#[test]
fn one_game_per_line_two_megabytes_in_bounded_memory() {
    let path = tmp("one-game-per-line.pgn");
    std::fs::write(&path, LINE.repeat(2_000_000 / LINE.len())).unwrap();
    let Some(r) = run(&["check", "--threads", "2", path.to_str().unwrap()]) else {
        return;
    };
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(summary(&r.stderr)[..2], [83_333, 83_333], "{}", r.stderr);
    assert!(r.max_rss_kb <= MAX_RSS_KB, "{} kB", r.max_rss_kb);
}

/// Case 1: games without results, separated only by their move numbers (a line
/// starting with White's move 1 when every comment and variation is closed).
#[test]
fn games_separated_only_by_move_numbers() {
    let text = "1. e4 e5 2. Nf3\n1. d4 d5\n2. c4\n1. c4 {a comment\n1. over two lines} e5 (1... c5\n1. d4) 2. Nc3\n1. e4\n1... e5\n1. d4\n1. ... d5\n";
    let games = read(text.as_bytes(), Limits::default());
    let firsts: Vec<&str> = games
        .iter()
        .map(|g| g.move_tokens().next().unwrap_or(""))
        .collect();
    // `1.` inside the comment and the variation, and `1...`, `1. ...` (Black's first
    // move) start no game
    assert_eq!(firsts, ["e4", "d4", "c4", "e4", "d4"]);
    assert_eq!(
        games[2].move_tokens().collect::<Vec<_>>(),
        ["c4", "e5", "c5", "d4", "Nc3"]
    );
    let many = "1. e4 e5 2. Nf3\n".repeat(20_000);
    let t = Instant::now();
    assert_eq!(read(many.as_bytes(), Limits::default()).len(), 20_000);
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
}

/// Case 1: games separated only by their results, many on a line: the parser splits
/// them, in time linear in the line (it copied the rest of the chunk after each).
#[test]
fn games_separated_only_by_results() {
    let line = "1. e4 e5 1-0 1. d4 d5 0-1 1. c4 c5 1/2-1/2 ".repeat(2_000);
    let text = format!("{line}\n{line}\n");
    let t = Instant::now();
    let games = read(text.as_bytes(), Limits::default());
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    assert_eq!(games.len(), 12_000);
    assert!(games.iter().all(|g| g.diagnostics.is_empty()));
    // every byte is in one game's text, in order
    let joined: String = games.iter().map(|g| g.text.as_str()).collect();
    assert_eq!(joined, text);
}

/// Case 2: a line over the line budget in a file without tags: the over-budget line is
/// kept verbatim (a junk item with a warning after a finished game; the game it is in
/// otherwise, with the error) and every later game is read (they were all dropped, and
/// the summary counted 1 game).
#[test]
fn long_line_in_a_tagless_file_keeps_the_later_games() {
    let limits = Limits {
        max_line_bytes: 100,
        ..Limits::default()
    };
    let long = "x".repeat(1_000);
    let text = format!("{}{long}\n{}", LINE.repeat(3), LINE.repeat(5));
    for cap in [3, 64, 1 << 16] {
        let games = read_buffered(text.as_bytes(), cap, limits);
        let real: Vec<&RawGame> = games.iter().filter(|g| !g.junk).collect();
        assert_eq!(real.len(), 8, "cap {cap}");
        assert!(real.iter().all(|g| g.text == LINE), "cap {cap}");
        let junk: Vec<&RawGame> = games.iter().filter(|g| g.junk).collect();
        // the long line, verbatim, in parts of at most the budget
        let kept: String = junk.iter().map(|g| g.text.as_str()).collect();
        assert_eq!(kept.trim_end(), long, "cap {cap}");
        assert!(junk.iter().all(|g| g.text.len() <= 100), "cap {cap}");
        assert!(
            junk.iter()
                .all(|g| g.diagnostics.iter().any(|d| d.code == "line-too-long")),
            "cap {cap}"
        );
        // every input byte is in some item, in order (a part of white space alone
        // makes no item)
        let all: String = games.iter().map(|g| g.text.as_str()).collect();
        assert_eq!(words(&all), words(&text), "cap {cap}");
    }
    // a long line inside a game without a result: that game gets the error, the rest
    // of the line is kept, and the later games are read
    let text = format!("1. e4 e5 2. Nf3 {long}\n{}", LINE.repeat(4));
    let games = read(text.as_bytes(), limits);
    let real: Vec<&RawGame> = games.iter().filter(|g| !g.junk).collect();
    assert_eq!(real.len(), 5);
    assert!(
        real[0]
            .diagnostics
            .iter()
            .any(|d| d.code == "line-too-long")
    );
    let all: String = games.iter().map(|g| g.text.as_str()).collect();
    assert_eq!(words(&all), words(&text));
}

/// The text without its white space (parts of white space alone make no item).
fn words(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Case 2 at the CLI: the summary counts every game, and the exit status is 1.
#[test]
fn long_line_in_a_tagless_file_is_counted_at_the_cli() {
    let path = tmp("tagless-long-line.pgn");
    let text = format!(
        "{}{}\n{}",
        LINE.repeat(3),
        "x".repeat(3 << 20),
        LINE.repeat(5)
    );
    std::fs::write(&path, text).unwrap();
    let Some(r) = run(&["check", path.to_str().unwrap()]) else {
        return;
    };
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(summary(&r.stderr)[..2], [8, 8], "{}", r.stderr);
    assert!(r.stderr.contains("line-too-long"), "{}", r.stderr);
    assert!(r.max_rss_kb <= MAX_RSS_KB, "{} kB", r.max_rss_kb);
}

/// Case 3: a game over the byte budget is cut off while it is read, not after: no
/// item holds more than the budget, its text is kept verbatim (the first part is the
/// game, with the error; the rest are junk items), and the next game is read.
#[test]
fn game_over_budget_is_kept_verbatim_in_parts() {
    let limits = Limits {
        max_game_bytes: 4096,
        ..Limits::default()
    };
    let big = format!("[Event \"big\"]\n\n{}*\n\n", moves(1000));
    let next = "[Event \"next\"]\n\n1. d4 d5 *\n";
    let text = format!("{big}{next}");
    for cap in [5, 64, 1 << 16] {
        let games = read_buffered(text.as_bytes(), cap, limits);
        assert!(games.iter().all(|g| g.text.len() <= 4096), "cap {cap}");
        let first = &games[0];
        assert!(!first.junk);
        assert_eq!(first.diagnostics[0].code, "game-too-large");
        assert!(first.text.starts_with("[Event \"big\"]"));
        assert!(
            games[1..games.len() - 1].iter().all(|g| g.junk),
            "cap {cap}"
        );
        let kept: String = games[..games.len() - 1]
            .iter()
            .map(|g| g.text.as_str())
            .collect();
        assert_eq!(kept, big, "cap {cap}");
        let last = games.last().unwrap();
        assert_eq!(last.tag("Event").as_deref(), Some("next"));
        assert_eq!(last.index, 1, "one game over budget, then the next");
    }
}

/// A huge game without tags, then more games: the skip ends at the next White's move
/// 1 after a result (it went on to the next tag section: the end of the file).
#[test]
fn game_over_budget_in_a_tagless_file_keeps_the_later_games() {
    let limits = Limits {
        max_game_bytes: 4096,
        ..Limits::default()
    };
    let big = format!("{}1-0\n", moves(500));
    let text = format!("{big}{}", LINE.repeat(7));
    let games = read(text.as_bytes(), limits);
    let real: Vec<&RawGame> = games.iter().filter(|g| !g.junk).collect();
    assert_eq!(real.len(), 8);
    assert!(real[1..].iter().all(|g| g.text == LINE));
    let all: String = games.iter().map(|g| g.text.as_str()).collect();
    assert_eq!(all, text);
}

/// `n` lines of movetext, one move number each (`1. e4 e5`, `2. e4 e5`, …).
fn moves(n: usize) -> String {
    (1..=n).map(|i| format!("{i}. e4 e5\n")).collect()
}

/// Knights out and back: `plies` legal half-moves.
fn long_game(plies: usize) -> String {
    const CYCLE: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut s = String::with_capacity(plies * 8 + 64);
    s.push_str("[Event \"long\"]\n\n");
    for i in 0..plies {
        if i.is_multiple_of(2) {
            s.push_str(&(i / 2 + 1).to_string());
            s.push_str(". ");
        }
        s.push_str(CYCLE[i % 4]);
        s.push(if i % 16 == 15 { '\n' } else { ' ' });
    }
    s.push_str("*\n\n");
    s
}

/// Case 4: one game of a million moves, converted to JSON and PGN and checked, in at
/// most 64 MB; it is over the element budget (written without move numbers, 4 MB:
/// within the byte budget), reported (exit 1), its first moves read and written, never
/// dropped.
#[test]
fn million_move_game_in_bounded_memory() {
    let path = tmp("million-moves.pgn");
    let text = format!(
        "[Event \"a million moves\"]\n\n{}*\n",
        "Nf3 Nf6 Ng1 Ng8\n".repeat(250_000)
    );
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    for args in [
        vec!["convert", "--to", "json", p],
        vec!["convert", "--to", "pgn", p],
        vec!["check", p],
        vec!["check", "--strict", p],
    ] {
        let Some(r) = run(&args) else { return };
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert_eq!(summary(&r.stderr)[0], 1, "{args:?}: {}", r.stderr);
        assert!(r.max_rss_kb <= MAX_RSS_KB, "{args:?}: {} kB", r.max_rss_kb);
        assert!(r.stderr.contains("game-too-long"), "{args:?}: {}", r.stderr);
        if args[0] == "convert" {
            assert!(r.stdout_len > 100_000, "{args:?}: the game is written");
        }
    }
}

/// Case 3: a small `.gz` holding a few games of about a million moves each: the batch
/// held them all (hundreds of MB).
#[test]
fn gz_of_huge_games_in_bounded_memory() {
    let path = tmp("huge-games.pgn.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&path).unwrap(),
        flate2::Compression::default(),
    );
    // 1 900 000 plies: 15.9 MB, under the old 16 MiB game budget (a batch held the
    // four, and each replayed its first million elements), over the new 4 MiB one
    let game = long_game(1_900_000);
    for _ in 0..4 {
        gz.write_all(game.as_bytes()).unwrap();
    }
    gz.finish().unwrap();
    let p = path.to_str().unwrap();
    for args in [
        vec!["convert", "--to", "json", "--threads", "2", p],
        vec!["check", "--threads", "2", p],
    ] {
        let Some(r) = run(&args) else { return };
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert_eq!(summary(&r.stderr)[0], 4, "{args:?}: {}", r.stderr);
        assert!(r.max_rss_kb <= MAX_RSS_KB, "{args:?}: {} kB", r.max_rss_kb);
    }
}

/// Case 5: `check --strict` on a few MB where every move gets a note (about 300 bytes
/// of text each, 25 times the move's): the rendered notes waiting for the sink are
/// bounded by the pipeline's byte window.
#[test]
fn check_strict_in_bounded_memory() {
    let path = tmp("strict-notes.pgn");
    // `Ngf3`-style over-disambiguation is a note on every such move
    let mut game = String::from("[Event \"notes\"]\n\n");
    for i in 0..100 {
        game.push_str(&format!(
            "{}. Ngf3 Ngf6 {}. Nf3g1 Nf6g8\n",
            2 * i + 1,
            2 * i + 2
        ));
    }
    game.push_str("*\n\n");
    std::fs::write(&path, game.repeat(800)).unwrap();
    let Some(r) = run(&["check", "--strict", path.to_str().unwrap()]) else {
        return;
    };
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    assert_eq!(summary(&r.stderr)[0], 800, "{}", r.stderr);
    assert!(r.stdout_len > 10 << 20, "the notes are written");
    assert!(r.max_rss_kb <= MAX_RSS_KB, "{} kB", r.max_rss_kb);
}

/// Case 6: a game with 150 000 tags written as JSON in time linear in their number
/// (each tag was compared with every one before it, for the first value of a name).
#[test]
fn json_of_a_game_with_many_tags_is_linear() {
    let mut text = String::new();
    for i in 0..150_000 {
        text.push_str(&format!("[T{i} \"v\"]\n"));
    }
    text.push_str("[T7 \"again\"]\n\n1. e4 *\n");
    let t = Instant::now();
    let raw = read(text.as_bytes(), Limits::default()).remove(0);
    let game = kyphu::replay::replay(raw, &kyphu::replay::ReplayOptions::default());
    let json = kyphu::emit::json::to_json_string(&game, &kyphu::emit::JsonOptions::default());
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    assert!(json.contains("\"T149999\":\"v\""));
    // the first value of a repeated name is the object's; both are in the list
    assert!(json.contains("\"T7\":\"v\""));
    assert!(json.contains("[\"T7\",\"again\"]"));
}
