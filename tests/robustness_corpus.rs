//! `corpus/bad/` through the CLI: `kyphu check --format json` on every broken file
//! (and on the two large ones, generated here: a 100 000-ply game and 10 000 nested
//! variations). For each: the exit code is 0 or 1 (never 101, a panic), the summary
//! accounts for every game (games = clean + repaired + partial + failed), the peak
//! RSS stays under 64 MB, and the diagnostics match the snapshot
//! (`tests/snapshots/robustness_corpus__*.snap`; expected codes are listed in
//! `corpus/bad/README.md`).
//!
//! Peak RSS: the binary is run under GNU time (`/usr/bin/time -f %M`, which reads the
//! child's `ru_maxrss` from `wait4`). Where GNU time is missing, the test polls
//! `VmHWM` in `/proc/<pid>/status` every millisecond while the process runs (a lower
//! bound for very short runs); on other systems RSS is not checked.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const RSS_LIMIT_KB: u64 = 64 * 1024;
const GNU_TIME: &str = "/usr/bin/time";

fn bad_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/bad")
}

/// The 100 000-ply game: knights out and back, never a capture, always legal.
fn long_game(plies: usize) -> String {
    const CYCLE: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut s =
        String::from("[Event \"100 000 plies\"]\n[White \"Knight\"]\n[Black \"Knight\"]\n\n");
    for i in 0..plies {
        if i.is_multiple_of(2) {
            s.push_str(&(i / 2 + 1).to_string());
            s.push_str(". ");
        }
        s.push_str(CYCLE[i % 4]);
        s.push(if i % 16 == 15 { '\n' } else { ' ' });
    }
    s.push_str("*\n\n[Event \"after the long game\"]\n\n1. d4 d5 *\n");
    s
}

/// 10 000 nested variations, each an alternative first move, then a normal game.
fn nested_variations(depth: usize) -> String {
    let mut s = String::from("[Event \"10 000 nested variations\"]\n\n1. e4 ");
    for i in 0..depth {
        s.push_str(if i.is_multiple_of(2) {
            "(1. d4 "
        } else {
            "(1. c4 "
        });
        if i % 32 == 31 {
            s.push('\n');
        }
    }
    for i in 0..depth {
        s.push(')');
        if i % 64 == 63 {
            s.push('\n');
        }
    }
    s.push_str(" e5 *\n\n[Event \"after the nesting\"]\n\n1. d4 d5 *\n");
    s
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    max_rss_kb: Option<u64>,
}

fn run_check(dir: &Path, file: &str) -> Run {
    run_check_as(dir, file, "json")
}

fn run_check_as(dir: &Path, file: &str, format: &str) -> Run {
    let bin = env!("CARGO_BIN_EXE_kyphu");
    let args = ["check", "--format", format, "--threads", "1", file];
    if Path::new(GNU_TIME).exists() {
        let rss_file = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{file}.rss"));
        let out = Command::new(GNU_TIME)
            .arg("-f")
            .arg("%M")
            .arg("-o")
            .arg(&rss_file)
            .arg(bin)
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        let rss = std::fs::read_to_string(&rss_file).unwrap();
        // GNU time writes "Command exited with non-zero status N" before the number
        let max_rss_kb = rss.lines().last().and_then(|l| l.trim().parse().ok());
        return Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8(out.stderr).unwrap(),
            max_rss_kb,
        };
    }
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status_path = format!("/proc/{}/status", child.id());
    let mut hwm = None;
    let reader = {
        let mut out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            let mut s = String::new();
            std::io::Read::read_to_string(&mut out, &mut s).unwrap();
            s
        })
    };
    let status = loop {
        if let Ok(s) = std::fs::read_to_string(&status_path) {
            let kb = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
            if kb.is_some() {
                hwm = hwm.max(kb);
            }
        }
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: reader.join().unwrap(),
        stderr,
        max_rss_kb: hwm,
    }
}

/// Parses the summary line `FILE: N games: C clean, R repaired, P partial, F failed…`.
fn counts(stderr: &str) -> [u64; 5] {
    let line = stderr
        .lines()
        .find(|l| l.contains(" games: ") || l.contains(" game: "))
        .unwrap_or_else(|| panic!("no summary in {stderr:?}"));
    let (_, rest) = line.split_once(": ").unwrap();
    let nums: Vec<u64> = rest
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|s| s.parse().ok())
        .collect();
    assert!(nums.len() >= 5, "{line}");
    [nums[0], nums[1], nums[2], nums[3], nums[4]]
}

/// Checks the run and renders the snapshot: exit code, summary and one line per
/// diagnostic (severity, code, game, line:column, ply, message).
fn check_and_render(name: &str, run: &Run, expected_games: u64) -> String {
    assert!(
        run.code == 0 || run.code == 1,
        "{name}: exit code {} (101 is a panic)\n{}",
        run.code,
        run.stderr
    );
    let [games, clean, repaired, partial, failed] = counts(&run.stderr);
    assert_eq!(
        games,
        clean + repaired + partial + failed,
        "{name}: {}",
        run.stderr
    );
    assert_eq!(games, expected_games, "{name}: {}", run.stderr);
    if let Some(kb) = run.max_rss_kb {
        eprintln!("{name}: exit {}, peak RSS {kb} kB", run.code);
        assert!(kb < RSS_LIMIT_KB, "{name}: peak RSS {kb} kB");
    } else if cfg!(target_os = "linux") {
        panic!("{name}: peak RSS not measured");
    }
    let mut out = format!("exit code: {}\n{}\n", run.code, run.stderr.trim_end());
    for line in run.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let field = |k: &str| match &v[k] {
            serde_json::Value::Null => "-".to_owned(),
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        out.push_str(&format!(
            "{} {} game {} at {}:{} ply {}: {}\n",
            field("severity"),
            field("code"),
            field("game"),
            field("line"),
            field("column"),
            field("ply"),
            field("message"),
        ));
    }
    out
}

/// The committed files and the number of games each holds.
const FILES: &[(&str, u64)] = &[
    ("truncated-tags.pgn", 3),
    ("truncated-movetext.pgn", 1),
    ("unterminated-comment.pgn", 3),
    ("unterminated-variation.pgn", 2),
    ("binary-junk.pgn", 2),
    ("invalid-utf8.pgn", 2),
];

#[test]
fn bad_corpus_files() {
    let dir = bad_dir();
    for &(file, games) in FILES {
        let run = run_check(&dir, file);
        let rendered = check_and_render(file, &run, games);
        insta::assert_snapshot!(file.trim_end_matches(".pgn"), rendered);
    }
}

#[test]
fn every_bad_file_is_listed() {
    let mut on_disk: Vec<String> = std::fs::read_dir(bad_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".pgn"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = FILES.iter().map(|(f, _)| (*f).to_owned()).collect();
    listed.sort();
    assert_eq!(on_disk, listed);
    let readme = std::fs::read_to_string(bad_dir().join("README.md")).unwrap();
    for f in listed.iter().map(String::as_str).chain([
        "long-game.pgn",
        "nested-variations.pgn",
        "long-lines.pgn",
    ]) {
        assert!(readme.contains(f), "{f} missing from corpus/bad/README.md");
    }
}

#[test]
fn generated_long_game() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    // (40 000 plies: 60 000 elements, within the default budget of 65 536)
    std::fs::write(dir.join("long-game.pgn"), long_game(40_000)).unwrap();
    let t = std::time::Instant::now();
    let run = run_check(&dir, "long-game.pgn");
    let elapsed = t.elapsed();
    let rendered = check_and_render("long-game.pgn", &run, 2);
    insta::assert_snapshot!("long-game", rendered);
    assert!(elapsed < std::time::Duration::from_secs(20), "{elapsed:?}");
}

#[test]
fn generated_nested_variations() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(dir.join("nested-variations.pgn"), nested_variations(10_000)).unwrap();
    let run = run_check(&dir, "nested-variations.pgn");
    let rendered = check_and_render("nested-variations.pgn", &run, 2);
    insta::assert_snapshot!("nested-variations", rendered);
}

/// Lines over the default line budget (1 MiB): a 2 MiB comment line in the middle of
/// game 2's movetext (the game ends there, partial), a 2 MiB line of junk after game
/// 3's result (skipped as non-game text), and clean games around them.
fn long_lines() -> String {
    let big = "x".repeat(2 << 20);
    format!(
        "[Event \"before\"]\n\n1. e4 e5 *\n\n\
         [Event \"long comment line\"]\n\n1. d4 d5\n2. c4 {{{big}}} e6\n3. Nc3 *\n\n\
         [Event \"junk line after\"]\n\n1. c4 c5 1-0\n{big}\n\n\
         [Event \"after\"]\n\n1. Nf3 Nf6 *\n"
    )
}

#[test]
fn generated_long_lines() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(dir.join("long-lines.pgn"), long_lines()).unwrap();
    let run = run_check(&dir, "long-lines.pgn");
    let rendered = check_and_render("long-lines.pgn", &run, 4);
    insta::assert_snapshot!("long-lines", rendered);
}

/// One 190 kB movetext line holding 5 000 variations, each cut by an illegal move:
/// 5 000 diagnostics on the same line.
fn many_bad_variations_on_one_line() -> String {
    let mut s = String::from("[Event \"5 000 bad variations\"]\n\n1. e4 ");
    for i in 0..5000 {
        s.push_str(&format!("(1. Nf3 Nc6 2. Bb5 a6 3. Ba4 Zz{}) ", i % 10));
    }
    s.push_str("e5 *\n");
    s
}

#[test]
fn many_diagnostics_on_one_long_line_as_json() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(
        dir.join("many-bad-variations.pgn"),
        many_bad_variations_on_one_line(),
    )
    .unwrap();
    let run = run_check(&dir, "many-bad-variations.pgn");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(counts(&run.stderr), [1, 0, 0, 1, 0]);
    assert_eq!(run.stdout.lines().count(), 5000);
    if let Some(kb) = run.max_rss_kb {
        assert!(kb < RSS_LIMIT_KB, "peak RSS {kb} kB");
    }
}

/// Found with `many_diagnostics_on_one_long_line_as_json`: the human format quotes the
/// whole source line under every diagnostic, and `check` buffers a game's rendered
/// output in one `String`, so 5 000 diagnostics on one 190 kB line give 1.2 GB of
/// output and 1.2 GB peak RSS from a 190 kB input (quadratic). Locations:
/// `src/cli/render.rs` (`Located::human`: quote a window of the line around the
/// column) and `src/cli/check.rs` (output built per game in memory).
#[test]
fn many_diagnostics_on_one_long_line_as_human_text() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(
        dir.join("many-bad-variations-h.pgn"),
        many_bad_variations_on_one_line(),
    )
    .unwrap();
    let run = run_check_as(&dir, "many-bad-variations-h.pgn", "human");
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.len() < 10 << 20,
        "{} bytes of output",
        run.stdout.len()
    );
    let kb = run.max_rss_kb.unwrap_or(0);
    assert!(kb < RSS_LIMIT_KB, "peak RSS {kb} kB");
}
