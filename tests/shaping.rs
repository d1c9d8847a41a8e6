//! `convert` output shaping (issue 28) on real archives of ../shared/corpus, each
//! option against an independent tool doing the same thing: pgn-extract
//! (/usr/games/pgn-extract: -C, -N, -V, -w, -Wxolalg, -Wuci, --fencomments,
//! --plycount, --fixresulttags, -#, -E3) or python-chess reading the same files.
//! Each test skips with a note when the corpus or the tool is absent.
#![allow(clippy::unwrap_used)]

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

const PGN_EXTRACT: &str = "/usr/games/pgn-extract";

/// A file of the shared corpus, or `None` with a note.
fn corpus(test: &str, rel: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/chess")
        .join(rel);
    if !p.exists() {
        eprintln!("note: ../shared/corpus absent: {test} skipped");
        return None;
    }
    Some(p)
}

fn have_pgn_extract(test: &str) -> bool {
    let ok = Path::new(PGN_EXTRACT).exists();
    if !ok {
        eprintln!("note: pgn-extract not installed: {test} skipped");
    }
    ok
}

fn have_python_chess(test: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("note: python-chess not installed: {test} skipped");
    }
    ok
}

/// A fresh folder for one test's files.
fn folder(test: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("shaping-{test}"));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

struct Run {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

fn kyphu(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_kyphu"))
        .args(args)
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// kyphu's PGN of `file` with `args` (quiet), as text.
fn kyphu_pgn(file: &Path, args: &[&str]) -> String {
    let mut all = vec!["convert", file.to_str().unwrap(), "-q"];
    all.extend_from_slice(args);
    let run = kyphu(&all);
    assert!(run.code <= 1, "{args:?}: {}", run.stderr);
    String::from_utf8(run.stdout).unwrap()
}

/// pgn-extract's output of `file` with `args`, in folder `dir`.
fn pgn_extract(dir: &Path, file: &Path, args: &[&str]) -> String {
    let out = Command::new(PGN_EXTRACT)
        .arg("-s")
        .args(args)
        .arg(file)
        .current_dir(dir)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The movetext of every game (lines that are not tags), game by game.
fn movetexts(pgn: &str) -> Vec<String> {
    let mut games = Vec::new();
    let mut cur = String::new();
    let mut in_moves = false;
    for line in pgn.lines() {
        if line.starts_with('[') {
            if in_moves {
                games.push(std::mem::take(&mut cur));
                in_moves = false;
            }
            continue;
        }
        if !line.trim().is_empty() {
            in_moves = true;
            cur.push_str(line);
            cur.push('\n');
        }
    }
    if in_moves {
        games.push(cur);
    }
    games
}

/// The words of the movetexts, without move numbers.
fn move_words(pgn: &str) -> Vec<String> {
    pgn.lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(str::split_whitespace)
        .filter(|w| {
            !w.trim_start_matches(|c: char| c.is_ascii_digit())
                .starts_with('.')
        })
        .map(str::to_owned)
        .collect()
}

/// The values of a tag, game by game.
fn tag_values(pgn: &str, tag: &str) -> Vec<String> {
    let prefix = format!("[{tag} \"");
    pgn.lines()
        .filter_map(|l| {
            l.strip_prefix(&prefix)?
                .strip_suffix("\"]")
                .map(str::to_owned)
        })
        .collect()
}

/// python-chess's export of each game of `file` (one line each: comments, NAGs and
/// variations as python-chess reads them); `mode` changes the games first: `clocks`
/// removes every clock annotation (`set_clock(None)`).
const PY_EXPORT: &str = r#"
import sys, chess.pgn
path, mode = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8", errors="replace") as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        if mode == "clocks":
            stack = [g]
            while stack:
                n = stack.pop()
                n.set_clock(None)
                n.comment = " ".join(n.comment.split())
                stack.extend(n.variations)
        ex = chess.pgn.StringExporter(headers=False, columns=None)
        print(" ".join(g.accept(ex).split()))
"#;

fn python_export(file: &Path, mode: &str) -> Vec<String> {
    let out = Command::new("python3")
        .args(["-c", PY_EXPORT, file.to_str().unwrap(), mode])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Real archives with comments, NAGs and variations (no clocks: pgn-extract's -C
/// takes clocks with the comments, kyphu's `--strip comments` leaves them).
fn annotated(dir: &Path) -> Option<PathBuf> {
    let files = [
        "python-chess/pgn/kasparov-deep-blue-1997.pgn",
        "python-chess/pgn/stockfish-learning.pgn",
        "pgnmentor/Ashley.pgn",
        "pgn-extract-tests/test-C.pgn",
        "pgn-extract-tests/test-N.pgn",
        "pgn-extract-tests/test-V.pgn",
    ];
    let mut all = Vec::new();
    for f in files {
        all.extend(fs::read(corpus("annotated", f)?).unwrap());
        all.push(b'\n');
    }
    let p = dir.join("annotated.pgn");
    fs::write(&p, all).unwrap();
    Some(p)
}

/// `--strip comments`, `comments,nags`, `comments,variations` and all of them give the
/// games pgn-extract gives with -C, -C -N, -C -V and -C -N -V (both read back by
/// python-chess).
#[test]
fn strip_matches_pgn_extract() {
    let test = "strip_matches_pgn_extract";
    let dir = folder(test);
    if !have_pgn_extract(test) || !have_python_chess(test) {
        return;
    }
    let Some(file) = annotated(&dir) else { return };
    let (k, p) = (dir.join("k.pgn"), dir.join("p.pgn"));
    let plain = python_export(&file, "");
    fs::write(&k, kyphu_pgn(&file, &["--strip", "comments"])).unwrap();
    let without_comments = python_export(&k, "");
    // pgn-extract breaks comment lines before a `[`, which python-chess then reads as
    // a tag: NAGs and variations are compared with the comments stripped
    for (strip, flags) in [
        ("comments", &["-C"][..]),
        ("comments,nags", &["-C", "-N"]),
        ("comments,variations", &["-C", "-V"]),
        ("comments,nags,variations", &["-C", "-N", "-V"]),
        ("all", &["-C", "-N", "-V"]),
    ] {
        fs::write(&k, kyphu_pgn(&file, &["--strip", strip])).unwrap();
        fs::write(&p, pgn_extract(&dir, &file, flags)).unwrap();
        let (ours, theirs) = (python_export(&k, ""), python_export(&p, ""));
        eprintln!(
            "--strip {strip}: {} games, pgn-extract {}",
            ours.len(),
            theirs.len()
        );
        assert_eq!(ours.len(), theirs.len(), "{strip}");
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert_eq!(a, b, "--strip {strip}: game {}", i + 1);
        }
        // the archive has what is stripped: the games without the option differ
        assert_ne!(plain, theirs, "{strip}: nothing to strip");
        if strip != "comments" {
            assert_ne!(without_comments, theirs, "{strip}: no NAG or variation");
        }
    }
}

/// `--strip clocks` removes every clock of lichess games and keeps the rest of the
/// comments (`[%eval …]`): as python-chess's `set_clock(None)` on each move.
#[test]
fn strip_clocks_as_python_chess() {
    let test = "strip_clocks_as_python_chess";
    let dir = folder(test);
    let Some(file) = corpus(test, "pgn-reader-crate/lichess_db_100k.pgn") else {
        return;
    };
    if !have_python_chess(test) {
        return;
    }
    let k = dir.join("k.pgn");
    fs::write(&k, kyphu_pgn(&file, &["--strip", "clocks"])).unwrap();
    let ours = python_export(&k, "");
    let want = python_export(&file, "clocks");
    assert_eq!(ours.len(), want.len());
    assert!(want.len() > 40, "{}", want.len());
    for (i, (a, b)) in ours.iter().zip(&want).enumerate() {
        assert_eq!(a, b, "game {}", i + 1);
    }
    assert!(!ours.iter().any(|g| g.contains("%clk")));
    assert!(ours.iter().any(|g| g.contains("%eval")), "evals kept");
}

/// `--strip tags` keeps exactly the tags of the PGN standard with their values, as
/// python-chess reads them from the archive.
#[test]
fn strip_tags_keeps_the_standard_ones() {
    let test = "strip_tags_keeps_the_standard_ones";
    let dir = folder(test);
    let Some(file) = corpus(test, "pgn-reader-crate/lichess_db_100k.pgn") else {
        return;
    };
    if !have_python_chess(test) {
        return;
    }
    const PY: &str = r#"
import sys, chess.pgn
STD = set("Event Site Date Round White Black Result WhiteTitle BlackTitle WhiteElo BlackElo WhiteUSCF BlackUSCF WhiteNA BlackNA WhiteType BlackType EventDate EventSponsor Section Stage Board Opening Variation SubVariation ECO NIC Time UTCTime UTCDate TimeControl SetUp FEN Termination Annotator Mode PlyCount Variant".split())
path, keep = sys.argv[1], sys.argv[2] == "standard"
with open(path, encoding="utf-8") as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        print(sorted((k, v) for k, v in g.headers.items() if not keep or k in STD))
"#;
    let headers = |p: &Path, mode: &str| -> Vec<String> {
        let out = Command::new("python3")
            .args(["-c", PY, p.to_str().unwrap(), mode])
            .output()
            .unwrap();
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    };
    let k = dir.join("k.pgn");
    fs::write(&k, kyphu_pgn(&file, &["--strip", "tags"])).unwrap();
    let ours = headers(&k, "all");
    let want = headers(&file, "standard");
    assert_eq!(ours, want);
    assert_ne!(
        headers(&file, "all"),
        want,
        "the archive has non-standard tags"
    );
}

/// `--width N` lays out the movetext as pgn-extract's `-wN` does, line for line.
#[test]
fn width_as_pgn_extract() {
    let test = "width_as_pgn_extract";
    let dir = folder(test);
    let Some(file) = corpus(test, "pgnmentor/Kasparov.pgn") else {
        return;
    };
    if !have_pgn_extract(test) {
        return;
    }
    for w in ["40", "60", "100"] {
        let ours = movetexts(&kyphu_pgn(&file, &["--width", w]));
        let theirs = movetexts(&pgn_extract(&dir, &file, &[&format!("-w{w}")]));
        assert_eq!(ours.len(), 2128);
        assert_eq!(ours, theirs, "--width {w}");
        let n: usize = w.parse().unwrap();
        assert!(ours.iter().flat_map(|g| g.lines()).all(|l| l.len() <= n));
    }
}

/// `--out-notation lan` (also `--moves lan`) writes the moves pgn-extract writes with
/// -Wxolalg but for two forms (docs/cli.md): a promotion is `e7-e8=Q` (pgn-extract
/// `e7-e8Q`), and a long castling that gives check `O-O-O+` (pgn-extract doubles the
/// mark, `O-O-O++`); python-chess's `Board.lan` is the same as kyphu's, word for word.
/// `uci` writes those of -Wuci (pgn-extract writes a promotion's letter in capitals:
/// compared without case); the JSON `san` field carries the same.
#[test]
fn moves_lan_and_uci_as_pgn_extract() {
    let test = "moves_lan_and_uci_as_pgn_extract";
    let dir = folder(test);
    let Some(file) = corpus(test, "pgnmentor/Kasparov.pgn") else {
        return;
    };
    if !have_pgn_extract(test) {
        return;
    }
    let lan = move_words(&kyphu_pgn(&file, &["--moves", "lan"]));
    let theirs = move_words(&pgn_extract(&dir, &file, &["-Wxolalg"]));
    assert_eq!(lan.len(), theirs.len());
    // the two forms that differ, each counted
    let (mut promotions, mut castlings) = (0, 0);
    for (ours, theirs) in lan.iter().zip(&theirs) {
        if ours == theirs {
            continue;
        }
        if ours.contains('=') && ours.replace('=', "") == *theirs {
            promotions += 1;
        } else if ours == "O-O-O+" && theirs == "O-O-O++" {
            castlings += 1;
        } else {
            panic!("{ours} where pgn-extract writes {theirs}");
        }
    }
    eprintln!("LAN: {promotions} promotions with =, {castlings} long castlings with check");
    assert!(promotions > 50 && castlings > 0, "{promotions} {castlings}");
    assert!(lan.iter().any(|w| w == "Ng1-f3"));
    // python-chess's long algebraic: the same words
    if have_python_chess(test) {
        const PY: &str = r#"
import sys, chess.pgn
with open(sys.argv[1], encoding="cp1252") as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        b = g.board()
        for m in g.mainline_moves():
            print(b.lan(m))
            b.push(m)
        print(g.headers.get("Result", "*"))
"#;
        let out = Command::new("python3")
            .args(["-c", PY, file.to_str().unwrap()])
            .output()
            .unwrap();
        let words: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        assert_eq!(lan, words);
    }
    let lower = |v: Vec<String>| -> Vec<String> { v.iter().map(|w| w.to_lowercase()).collect() };
    let uci = lower(move_words(&kyphu_pgn(&file, &["--out-notation", "uci"])));
    assert_eq!(
        uci,
        lower(move_words(&pgn_extract(&dir, &file, &["-Wuci"])))
    );
    assert!(uci.iter().any(|w| w == "g1f3"));
    // JSON: the same moves in the `san` field
    let json = kyphu_pgn(&file, &["--to", "json", "--moves", "lan"]);
    let sans: Vec<String> = json
        .split("\"san\":\"")
        .skip(1)
        .filter_map(|s| s.split('"').next().map(str::to_owned))
        .collect();
    let lan_moves: Vec<String> = lan
        .iter()
        .filter(|w| !matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*"))
        .cloned()
        .collect();
    assert_eq!(sans, lan_moves);
}

/// `--fen-each` writes after every move the FEN pgn-extract's --fencomments writes;
/// in JSON, each move's `fen` is python-chess's FEN after the move.
#[test]
fn fen_each_as_pgn_extract_and_python_chess() {
    let test = "fen_each_as_pgn_extract_and_python_chess";
    let dir = folder(test);
    let Some(file) = corpus(test, "pgnmentor/Kasparov.pgn") else {
        return;
    };
    if !have_pgn_extract(test) {
        return;
    }
    let fens = |pgn: &str| -> Vec<String> {
        let text = movetexts(pgn).join(" ").replace('\n', " ");
        text.split('{')
            .skip(1)
            .filter_map(|c| c.split('}').next())
            .map(|c| {
                let c = c.trim();
                let c = c.strip_prefix("[%fen").unwrap_or(c);
                let c = c.strip_suffix(']').unwrap_or(c);
                c.split_whitespace().collect::<Vec<_>>().join(" ")
            })
            .collect()
    };
    let ours = fens(&kyphu_pgn(&file, &["--fen-each"]));
    let theirs = fens(&pgn_extract(&dir, &file, &["--fencomments"]));
    assert!(ours.len() > 100_000, "{}", ours.len());
    assert_eq!(ours, theirs);
    // JSON against python-chess (the en passant square after every double step, as
    // the FEN standard has it)
    let Some(small) = corpus(test, "pgnmentor/Morphy.pgn") else {
        return;
    };
    if !have_python_chess(test) {
        return;
    }
    const PY: &str = r#"
import sys, chess.pgn
with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        b = g.board()
        for m in g.mainline_moves():
            b.push(m)
            print(b.fen(en_passant="fen"))
"#;
    let out = Command::new("python3")
        .args(["-c", PY, small.to_str().unwrap()])
        .output()
        .unwrap();
    let want: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let json = kyphu_pgn(&small, &["--to", "json", "--fen-each"]);
    let got: Vec<String> = json
        .split("\"fen\":\"")
        .skip(1)
        .filter_map(|s| s.split('"').next().map(str::to_owned))
        .collect();
    assert!(want.len() > 5_000, "{}", want.len());
    assert_eq!(got, want);
}

/// `--add-plycount` gives every game the PlyCount pgn-extract's --plycount gives.
#[test]
fn plycount_as_pgn_extract() {
    let test = "plycount_as_pgn_extract";
    let dir = folder(test);
    let Some(file) = corpus(test, "pgnmentor/Kasparov.pgn") else {
        return;
    };
    if !have_pgn_extract(test) {
        return;
    }
    let ours = tag_values(&kyphu_pgn(&file, &["--add-plycount"]), "PlyCount");
    let theirs = tag_values(&pgn_extract(&dir, &file, &["--plycount"]), "PlyCount");
    assert_eq!(ours.len(), 2128);
    assert_eq!(ours, theirs);
}

/// `--fix-results` fixes the results pgn-extract's --fixresulttags fixes (checkmate
/// and stalemate on the board against the tag and the movetext), each reported.
#[test]
fn fix_results_as_pgn_extract() {
    let test = "fix_results_as_pgn_extract";
    let dir = folder(test);
    if !have_pgn_extract(test) {
        return;
    }
    for f in [
        "pgn-extract-tests/test-fixresulttags-in.pgn",
        "pgnmentor/Kasparov.pgn",
    ] {
        let Some(file) = corpus(test, f) else { return };
        let run = kyphu(&["convert", file.to_str().unwrap(), "--fix-results"]);
        let ours = String::from_utf8(run.stdout).unwrap();
        let theirs = pgn_extract(&dir, &file, &["--fixresulttags"]);
        assert_eq!(
            tag_values(&ours, "Result"),
            tag_values(&theirs, "Result"),
            "{f}"
        );
        // the movetext ends with the same result
        let ends = |pgn: &str| -> Vec<String> {
            movetexts(pgn)
                .iter()
                .filter_map(|m| m.split_whitespace().last().map(str::to_owned))
                .collect()
        };
        assert_eq!(ends(&ours), ends(&theirs), "{f}");
        let plain = kyphu_pgn(&file, &[]);
        let fixes = tag_values(&plain, "Result")
            .iter()
            .zip(tag_values(&ours, "Result"))
            .filter(|(a, b)| *a != b)
            .count();
        let reported = run.stderr.matches("fixed to").count();
        eprintln!("{f}: {fixes} results fixed, {reported} reported");
        assert_eq!(reported, fixes);
        if f.contains("fixresulttags") {
            assert_eq!(fixes, 5);
            assert!(run.stderr.contains("; 5 results fixed"), "{}", run.stderr);
        }
    }
}

/// `--split-every N` and `--split-by ECO` write the files pgn-extract writes with -#N
/// and -E3, game for game and line for line (pgn-extract's lines are of 75 characters
/// unless told, kyphu's of 80: compared with `--width 75`); a run that fails leaves
/// every file as it was.
#[test]
fn split_as_pgn_extract() {
    let test = "split_as_pgn_extract";
    let dir = folder(test);
    let Some(file) = corpus(test, "pgnmentor/Kasparov.pgn") else {
        return;
    };
    if !have_pgn_extract(test) {
        return;
    }
    let (ours, theirs) = (dir.join("k"), dir.join("p"));
    fs::create_dir_all(&ours).unwrap();
    fs::create_dir_all(&theirs).unwrap();
    // pgn-extract writes the tags' bytes as read (one game's are windows-1252): the
    // movetext compared is ASCII
    let games =
        |p: &Path| -> Vec<String> { movetexts(&String::from_utf8_lossy(&fs::read(p).unwrap())) };
    let pattern = ours.join("part.pgn");
    let run = kyphu(&[
        "convert",
        file.to_str().unwrap(),
        "-q",
        "--width",
        "75",
        "--split-every",
        "500",
        "-o",
        pattern.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    pgn_extract(&theirs, &file, &["-#500"]);
    for i in 1..=5 {
        let a = games(&ours.join(format!("part-{i}.pgn")));
        let b = games(&theirs.join(format!("{i}.pgn")));
        assert_eq!(a.len(), b.len(), "file {i}");
        assert_eq!(a, b, "file {i}");
    }
    assert!(!ours.join("part-6.pgn").exists());
    // by ECO code: the same files with the same games
    let (ours, theirs) = (dir.join("ke"), dir.join("pe"));
    fs::create_dir_all(&ours).unwrap();
    fs::create_dir_all(&theirs).unwrap();
    let pattern = ours.join("{}.pgn");
    let run = kyphu(&[
        "convert",
        file.to_str().unwrap(),
        "-q",
        "--width",
        "75",
        "--split-by",
        "ECO",
        "-o",
        pattern.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    pgn_extract(&theirs, &file, &["-E3"]);
    let names = |d: &Path| -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&ours), names(&theirs));
    assert!(names(&ours).len() > 300, "{}", names(&ours).len());
    for n in names(&ours) {
        assert_eq!(games(&ours.join(&n)), games(&theirs.join(&n)), "{n}");
    }
    // a run that fails (game 1926 cannot be written in Latin-1) replaces no file
    let old = dir.join("old");
    fs::create_dir_all(&old).unwrap();
    fs::write(old.join("part-1.pgn"), "old\n").unwrap();
    let pattern = old.join("part.pgn");
    let run = kyphu(&[
        "convert",
        file.to_str().unwrap(),
        "--split-every",
        "500",
        "--out-encoding",
        "latin-1",
        "-o",
        pattern.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(fs::read_to_string(old.join("part-1.pgn")).unwrap(), "old\n");
    assert_eq!(
        names(&old),
        ["part-1.pgn"],
        "no file made, no temporary file left"
    );
}

/// `--out-encoding`: a windows-1252 archive written in windows-1252 gives its bytes
/// back; a lichess archive written in Latin-1 reads, decoded as Latin-1, as python-chess
/// reads the UTF-8 original; a character Latin-1 cannot hold is an error naming the
/// game (the one python-chess finds) and the tag, and the output is left as it was.
#[test]
fn out_encoding_round_trips_and_refuses() {
    let test = "out_encoding_round_trips_and_refuses";
    let dir = folder(test);
    let Some(kasparov) = corpus(test, "pgnmentor/Kasparov.pgn") else {
        return;
    };
    let Some(lichess) = corpus(test, "pgn-reader-crate/lichess_db_100k.pgn") else {
        return;
    };
    // windows-1252 in, windows-1252 out: the lines that are not ASCII, byte for byte
    let out = dir.join("k.pgn");
    let run = kyphu(&[
        "convert",
        kasparov.to_str().unwrap(),
        "-q",
        "--out-encoding",
        "windows-1252",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let high = |b: &[u8]| -> Vec<Vec<u8>> {
        b.split(|&c| c == b'\n')
            .filter(|l| !l.is_ascii())
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l).to_vec())
            .collect()
    };
    let input = fs::read(&kasparov).unwrap();
    let written = fs::read(&out).unwrap();
    assert!(!high(&input).is_empty());
    assert_eq!(high(&written), high(&input));
    // Latin-1 against python-chess
    if have_python_chess(test) {
        const PY: &str = r#"
import sys, chess.pgn
with open(sys.argv[1], encoding=sys.argv[2]) as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        print("\t".join(k + "=" + v for k, v in sorted(g.headers.items())))
"#;
        let names = |p: &Path, enc: &str| -> String {
            let out = Command::new("python3")
                .args(["-c", PY, p.to_str().unwrap(), enc])
                .output()
                .unwrap();
            String::from_utf8(out.stdout).unwrap()
        };
        let run = kyphu(&[
            "convert",
            lichess.to_str().unwrap(),
            "-q",
            "--out-encoding",
            "latin-1",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        // the one letter of the file outside ASCII is in an Opening tag (Grünfeld):
        // every tag is compared (in name order: kyphu writes the tags after the Seven
        // Tag Roster in name order), not only the players' (all ASCII)
        let want = names(&lichess, "utf-8");
        assert!(want.contains('ü'));
        assert_eq!(names(&out, "latin-1"), want);
        assert!(fs::read(&out).unwrap().contains(&0xFC), "ü as one byte");
    }
    // a character Latin-1 cannot hold: an error, and the output as it was
    fs::write(&out, "old\n").unwrap();
    let run = kyphu(&[
        "convert",
        kasparov.to_str().unwrap(),
        "--out-encoding",
        "latin-1",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("game 1926: the Black tag holds '‚' (U+201A), which ISO-8859-1 cannot hold"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read_to_string(&out).unwrap(), "old\n");
    // the game python-chess finds: the first whose tags Latin-1 cannot hold
    if have_python_chess(test) {
        const PY: &str = r#"
import sys, chess.pgn
with open(sys.argv[1], encoding="cp1252", errors="replace") as f:
    i = 0
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        i += 1
        bad = [k for k, v in g.headers.items() if any(ord(c) > 255 for c in v)]
        if bad:
            print(i, bad[0])
            break
"#;
        let out = Command::new("python3")
            .args(["-c", PY, kasparov.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "1926 Black");
    }
}
