//! End-to-end tests of the `kyphu` binary: exit codes, stdin, broken pipes, and the
//! rendered diagnostics (insta snapshots).
#![allow(clippy::unwrap_used)]

use std::{
    io::{Read, Write},
    process::{Command, Stdio},
};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn kyphu(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kyphu"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn check(stdin: &str) -> Run {
    kyphu(&["check", "--threads", "1", "-"], stdin)
}

#[test]
fn perft_cli() {
    let r = kyphu(&["perft", "3"], "");
    assert_eq!((r.code, r.stdout.as_str()), (0, "nodes 8902\n"));
    let r = kyphu(&["perft", "--variant", "xiangqi", "2"], "");
    assert_eq!((r.code, r.stdout.as_str()), (0, "nodes 1920\n"));
    let r = kyphu(
        &[
            "perft",
            "--variant",
            "chess960",
            "--fen",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "2",
        ],
        "",
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, "nodes 528\n"));
    let r = kyphu(&["perft", "--divide", "1"], "");
    assert_eq!(r.stdout.lines().count(), 21);
    assert!(r.stdout.starts_with("a2a3 1\na2a4 1\n"));
}

#[test]
fn perft_bad_fen_exits_2() {
    let r = kyphu(&["perft", "--fen", "8/8/8 w - - 0 1", "1"], "");
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "kyphu: error: fen field 1 (piece placement): expected 8 ranks separated by `/`, found 3\n"
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(kyphu(&["check", "--lang", "xx", "-"], "").code, 2);
    assert_eq!(kyphu(&["check", "--encoding", "nope", "-"], "").code, 2);
    let r = kyphu(&["check", "no-such-file.pgn"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("cannot open no-such-file.pgn"),
        "{}",
        r.stderr
    );
    assert_eq!(kyphu(&["frobnicate"], "").code, 2);
}

#[test]
fn check_clean_input_exits_0() {
    let r = check("[White \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n");
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert_eq!(
        r.stdout,
        "-: 1 games: 1 clean, 0 repaired, 0 partial, 0 failed\n"
    );
}

#[test]
fn check_bundled_scoresheets() {
    let r = kyphu(&["check", "corpus/chess/scoresheet-vi.pgn"], "");
    assert_eq!(r.code, 0, "{}", r.stdout);
    let r = kyphu(&["check", "corpus/chess/scoresheet-vi-slips.pgn"], "");
    assert_eq!(r.code, 1);
    insta::assert_snapshot!("check_scoresheet_vi_slips", r.stdout);
}

#[test]
fn diagnostic_illegal_move() {
    let r = check("[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxe5 Nf6 *\n");
    assert_eq!(r.code, 1);
    insta::assert_snapshot!("diagnostic_illegal_move", r.stdout);
}

#[test]
fn diagnostic_ambiguous_move() {
    let r = check("1. Nf3 d5 2. d3 e5 3. Nd2 Nc6 *\n");
    assert_eq!(r.code, 1);
    insta::assert_snapshot!("diagnostic_ambiguous_move", r.stdout);
}

#[test]
fn diagnostic_typo_with_suggestion() {
    let r = check("1. e4 e5 2. Nf3 Nc6 3. Bb6 a6 4. Ba4 Nf6 5. O-O *\n");
    insta::assert_snapshot!("diagnostic_typo", r.stdout);
    assert!(r.stdout.contains("did you mean: Bb5"), "{}", r.stdout);
}

#[test]
fn diagnostic_mirrored_rank() {
    let r = check("1. d4 Nf3 2. c4 e6 3. Nc3 Bb4 *\n");
    insta::assert_snapshot!("diagnostic_mirrored_rank", r.stdout);
    assert!(r.stdout.contains("did you mean: Nf6"), "{}", r.stdout);
}

#[test]
fn diagnostic_unknown_piece_letter() {
    let r = check("[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Jb5 a6 *\n");
    insta::assert_snapshot!("diagnostic_unknown_piece", r.stdout);
}

#[test]
fn check_json_lines() {
    let r = kyphu(&["check", "--format", "json", "-"], "1. e4 e5 2. Ke3 *\n");
    assert_eq!(r.code, 1);
    let lines: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1);
    let d = &lines[0];
    assert_eq!(d["code"], "illegal-move");
    assert_eq!(d["line"], 1);
    assert_eq!(d["column"], 13);
    assert_eq!(d["move"], 2);
    assert_eq!(d["side"], "white");
    assert_eq!(
        d["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    );
    assert!(r.stderr.contains("1 games"), "{}", r.stderr);
}

#[test]
fn check_strict_reports_notes() {
    let input = "1. e4 e5 2. Ng1f3 *\n";
    assert_eq!(check(input).code, 0);
    let r = kyphu(&["check", "--strict", "-"], input);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("note[non-canonical]"), "{}", r.stdout);
}

#[test]
fn show_position() {
    let r = kyphu(
        &["show", "corpus/chess/scoresheet-vi.pgn", "--ply", "4"],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!("show_scoresheet_vi_ply4", r.stdout);
    let r = kyphu(
        &["show", "corpus/chess/scoresheet-vi.pgn", "--game", "2"],
        "",
    );
    assert_eq!(r.code, 2);
}

#[test]
fn broken_pipe_exits_quietly() {
    // Many games to stdout, reader closes after the first bytes.
    let games: String = (0..3000).map(|_| "1. e4 e5 2. Ke3 *\n\n").collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kyphu"))
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(games.as_bytes());
    });
    let mut first = [0u8; 64];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    writer.join().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
