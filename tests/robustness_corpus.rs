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
    ("moves-without-numbers.pgn", 2),
    ("utf16-no-bom.pgn", 1),
    ("unclosed-variation-resumes.pgn", 1),
    ("broken-lines.pgn", 2),
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

// ---------------------------------------------------------------------------------
// Issue 22: nothing dropped in reading, replay and writing.

/// Runs `kyphu ARGS` in `dir`; exit code, standard output and standard error.
fn kyphu(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kyphu"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A folder of its own under the test target folder for `name`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The number of stretches of non-game text the summary line counts (0 when it says
/// none).
fn non_game_count(stderr: &str) -> u64 {
    stderr
        .lines()
        .filter_map(|l| {
            l.split_once(" stretches of non-game text")
                .or_else(|| l.split_once(" stretch of non-game text"))
        })
        .filter_map(|(head, _)| head.rsplit(' ').next()?.parse::<u64>().ok())
        .sum()
}

/// Case 1 of issue 22: text not recognised as a game (moves without numbers that do
/// not replay, prose, UTF-16 or UTF-32 without a BOM, a wrong `--encoding`) was left out
/// of the output with exit status 0. It is kept in every output format (PGN `%` escape
/// lines, a JSON `non_game` record, a CSV `non-game` row), counted in the summary, and
/// the exit status is 1. Moves without numbers that are moves are read as a game.
#[test]
fn text_not_recognised_as_a_game_is_kept_counted_and_fails_the_run() {
    let dir = scratch("not-a-game");
    let junk = "e4 e5 Nf3 Nc6 then we went for lunch\n";
    let text = format!("[Event \"a\"]\n\n1. e4 e5 *\n\n{junk}\n[Event \"b\"]\n\n1. d4 d5 *\n");
    std::fs::write(dir.join("junk.pgn"), &text).unwrap();
    let (code, out, err) = kyphu(&dir, &["convert", "--threads", "1", "junk.pgn"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("\n%e4 e5 Nf3 Nc6 then we went for lunch\n"),
        "{out}"
    );
    assert_eq!(non_game_count(&err), 1, "{err}");
    assert_eq!(counts(&err)[0], 2, "{err}");
    let (code, out, _) = kyphu(&dir, &["convert", "--to", "json", "junk.pgn"]);
    assert_eq!(code, 1);
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3, "{out}");
    assert_eq!(records[1]["non_game"], true);
    assert_eq!(records[1]["text"], junk.trim_end());
    let (code, out, _) = kyphu(&dir, &["convert", "--to", "csv", "junk.pgn"]);
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!(",,{},,,,,non-game", junk.trim_end())),
        "{out}"
    );

    // moves without numbers that are moves: a game
    std::fs::write(dir.join("plain.pgn"), "e4 e5 Nf3 Nc6 Bb5 a6\n").unwrap();
    let (code, out, err) = kyphu(&dir, &["convert", "plain.pgn"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *"), "{out}");

    // UTF-32 without a BOM, and UTF-8 read with a wrong --encoding: kept (UTF-16
    // without a BOM is told by its NULs and read: see the end)
    let game = "[Event \"wide\"]\n\n1. e4 e5 2. Nf3 *\n";
    let utf16: Vec<u8> = game.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let utf32: Vec<u8> = game
        .chars()
        .flat_map(|c| (c as u32).to_le_bytes())
        .collect();
    std::fs::write(dir.join("utf16.pgn"), utf16).unwrap();
    std::fs::write(dir.join("utf32.pgn"), utf32).unwrap();
    std::fs::write(dir.join("utf8.pgn"), game).unwrap();
    for args in [
        &["convert", "--to", "json", "utf32.pgn"][..],
        &[
            "convert",
            "--to",
            "json",
            "--encoding",
            "utf-16le",
            "utf8.pgn",
        ][..],
    ] {
        let (code, out, err) = kyphu(&dir, args);
        assert_eq!(code, 1, "{args:?}: {err}");
        // every letter of the input is in the output (as written, or its escape)
        let kept: String = out
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l)
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert!(!out.is_empty(), "{args:?}: {err}");
        let [games, ..] = counts(&err);
        assert!(games + non_game_count(&err) >= 1, "{args:?}: {err}");
        assert!(kept.len() >= game.len() / 2, "{args:?}: {kept}");
    }
    let (code, out, err) = kyphu(&dir, &["convert", "utf16.pgn"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1. e4 e5 2. Nf3 *"), "{out}");
    assert!(err.contains("UTF-16LE (guessed)"), "{err}");
}

/// Case 2 of issue 22: when a variation met a bad move, the rest of that variation was
/// lost (only quoted in the diagnostic). It is kept in the variation, verbatim, in a
/// `kyphu: unparsed:` comment, and read back as such.
#[test]
fn broken_variation_keeps_its_rest() {
    let dir = scratch("broken-variation");
    std::fs::write(
        dir.join("v.pgn"),
        "1. e4 e5 (1... c5 2. Nf3 Qxz9 {a note} Nc6) 2. Nf3 Nc6 *\n",
    )
    .unwrap();
    let (code, out, err) = kyphu(&dir, &["convert", "v.pgn", "-o", "v1.pgn"]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    let v1 = std::fs::read_to_string(dir.join("v1.pgn")).unwrap();
    assert!(
        v1.replace('\n', " ").contains(
            r"( 1... c5 2. Nf3 {kyphu: unparsed: Qxz9 \x7ba note\x7d Nc6} ) 2. Nf3 Nc6 *"
        ),
        "{v1}"
    );
    // read again: still not clean, and written the same
    let (code, _, err) = kyphu(&dir, &["convert", "v1.pgn", "-o", "v2.pgn"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(counts(&err)[3], 1, "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("v2.pgn")).unwrap(), v1);
}

/// Case 4 of issue 22: an unclosed variation swallowed the rest of the game
/// (`1. e4 e5 (1... c5 2. Nf3 2. Nf3 Nc6 3. Bb5 a6 *` was written
/// `1. e4 e5 ( 1... c5 2. Nf3 ) *`). The main line resumes where a move number goes
/// back to its next move, with a warning, and the result survives.
#[test]
fn unclosed_variation_resumes_the_main_line() {
    let dir = scratch("unclosed-variation");
    std::fs::write(
        dir.join("u.pgn"),
        "[Result \"1-0\"]\n\n1. e4 e5 (1... c5 2. Nf3 2. Nf3 Nc6 3. Bb5 a6 1-0\n",
    )
    .unwrap();
    let (code, out, err) = kyphu(&dir, &["convert", "u.pgn"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("\n1. e4 e5 ( 1... c5 2. Nf3 ) 2. Nf3 Nc6 3. Bb5 a6 1-0\n"),
        "{out}"
    );
    assert_eq!(counts(&err), [1, 0, 1, 0, 0], "{err}");
    let (_, out, _) = kyphu(&dir, &["check", "--format", "json", "u.pgn"]);
    assert!(out.contains("\"unclosed-variation\""), "{out}");
    assert!(!out.contains("result-in-variation"), "{out}");
}

/// Whether python-chess can be run (`python3 -c 'import chess.pgn'`).
fn python_chess() -> bool {
    Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Case 5 of issue 22: the unread rest kept in a comment was not escaped:
/// `1. e4 e5 2. Ke3 {note} Nf3 3. Nf3 *` became
/// `{kyphu: unparsed: Ke3 {note} Nf3 3. Nf3}` and python-chess read `Nf3` after the inner
/// `}` as a move. Every brace of a comment kyphu writes is escaped (`\x7b`, `\x7d`), so
/// python-chess reads two moves and one comment, and kyphu reads the text back.
#[test]
fn unparsed_comment_never_ends_early() {
    let dir = scratch("unparsed-comment");
    std::fs::write(
        dir.join("k.pgn"),
        "1. e4 e5 2. Ke3 {note} Nf3 3. Nf3 *\n\n1. d4 {a {nested} b} d5 *\n",
    )
    .unwrap();
    let (code, out, err) = kyphu(&dir, &["convert", "k.pgn", "-o", "k1.pgn"]);
    assert_eq!(code, 1, "{out}{err}");
    let k1 = std::fs::read_to_string(dir.join("k1.pgn")).unwrap();
    assert!(
        k1.contains(r"1. e4 e5 {kyphu: unparsed: Ke3 \x7bnote\x7d Nf3 3. Nf3} *"),
        "{k1}"
    );
    // kyphu reads its own comment back to the text it held
    let (_, out, _) = kyphu(&dir, &["convert", "--to", "json", "k1.pgn"]);
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["unparsed"], "Ke3 {note} Nf3 3. Nf3");
    if !python_chess() {
        eprintln!(
            "note: python-chess is not installed (pip install chess): its reading of the escaped comment is not checked"
        );
        return;
    }
    let script = "import chess.pgn,sys\n\
        f=open(sys.argv[1])\n\
        while True:\n    g=chess.pgn.read_game(f)\n    if g is None: break\n    \
        print(' '.join(m.uci() for m in g.mainline_moves()), '|', \
        ' / '.join(n.comment for n in g.mainline() if n.comment), '|', len(g.errors))\n";
    let out = Command::new("python3")
        .args(["-c", script, "k1.pgn"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let got = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        got,
        "e2e4 e7e5 | kyphu: unparsed: Ke3 \\x7bnote\\x7d Nf3 3. Nf3 | 0\n\
         d2d4 d7d5 | a \\x7bnested\\x7d b | 0\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Case 6 of issue 22, round trip: a `{` in a `;` comment came back as `\x7b`, `%`
/// escape lines were dropped, a duplicated tag was dropped, and converting kyphu's own
/// output reported a failed game as clean. `convert(convert(x))` keeps everything
/// `convert(x)` kept, and the failed game is still failed.
#[test]
fn round_trip_keeps_everything_the_first_pass_kept() {
    let dir = scratch("round-trip");
    std::fs::write(
        dir.join("r.pgn"),
        "[Event \"one\"]\n[Event \"two\"]\n[White \"w\"]\n\n\
         1. e4 ;a { b\n e5 {x \\x7d y}\n%evt here\n2. Nf3 *\n\n\
         [Event \"failed\"]\n\n1. Qxz9 e5 *\n",
    )
    .unwrap();
    let (code, _, err) = kyphu(&dir, &["convert", "r.pgn", "-o", "r1.pgn"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(counts(&err), [2, 1, 0, 0, 1], "{err}");
    let r1 = std::fs::read_to_string(dir.join("r1.pgn")).unwrap();
    assert!(
        r1.contains("[Event \"one\"]") && r1.contains("[Event \"two\"]"),
        "{r1}"
    );
    assert!(
        r1.contains(r"1. e4 {a \x7b b} 1... e5 {x \x7d y} {%evt here} 2. Nf3 *"),
        "{r1}"
    );
    assert!(r1.contains("{kyphu: unparsed: Qxz9 e5} *"), "{r1}");
    let (code, _, err) = kyphu(&dir, &["convert", "r1.pgn", "-o", "r2.pgn"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(counts(&err), [2, 1, 0, 0, 1], "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("r2.pgn")).unwrap(), r1);
    let (_, out, _) = kyphu(&dir, &["convert", "--to", "json", "r1.pgn"]);
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let comments = first.to_string();
    assert!(
        comments.contains("a { b") && comments.contains("x } y"),
        "{comments}"
    );
}

/// Case 7 of issue 22: on every input of `corpus/bad/`, converted, games in = clean +
/// repaired + partial + failed, and the exit status is 0 exactly when every game was
/// clean or repaired and no text was left unread as a game.
#[test]
fn every_bad_input_accounts_for_every_game() {
    let dir = bad_dir();
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n != "README.md")
        .collect();
    files.sort();
    assert!(files.len() >= 6, "{files:?}");
    for file in &files {
        for to in ["pgn", "json", "csv"] {
            let (code, _, err) = kyphu(&dir, &["convert", "--threads", "1", "--to", to, file]);
            let [games, clean, repaired, partial, failed] = counts(&err);
            assert_eq!(games, clean + repaired + partial + failed, "{file}: {err}");
            let unread = partial + failed + non_game_count(&err);
            assert_eq!(
                code,
                if unread == 0 { 0 } else { 1 },
                "{file} --to {to}: {err}"
            );
        }
    }
}
