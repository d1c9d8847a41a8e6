//! End-to-end tests of the `kyphu` binary: exit codes, stdin, broken pipes, and the
//! rendered diagnostics (insta snapshots).
#![allow(clippy::unwrap_used)]

use std::{
    io::{Read, Write},
    process::{Command, Stdio},
};

mod common;

use common::{Run, kyphu};

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
    assert_eq!(kyphu(&["check", "--notation", "klingon", "-"], "").code, 2);
    let r = kyphu(&["check", "--notation", "lan", "-"], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("xiangqi notation"), "{}", r.stderr);
}

/// A typed scoresheet is checked like a PGN file: by its `.csv` name or `--from csv`.
#[test]
fn check_reads_scoresheet_csv() {
    let sheet = "move,white,black\n1,e4,e5\n2,Nf3,Nc9\n";
    let r = kyphu(&["check", "--threads", "1", "--from", "csv", "-"], sheet);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains("error[invalid-move]") && r.stdout.contains("did you mean: Nc6"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("-: 1 game: 0 clean, 0 repaired, 1 partial, 0 failed"),
        "{}",
        r.stdout
    );
    // read as PGN it is not a game at all, and said so
    let r = kyphu(&["check", "--threads", "1", "--from", "pgn", "-"], sheet);
    assert!(r.stdout.contains("junk-between-games"), "{}", r.stdout);
}

/// `B3+1` is a legal first move in two xiangqi notations: a WXF elephant to file 1, or
/// an Asian-marks pawn one step up. Inferred, it is a warned tie; named, it is read so.
#[test]
fn xiangqi_notation_named_or_warned() {
    let game = "[Game \"Chinese Chess\"]\n\n1. B3+1 *\n";
    let r = kyphu(&["check", "--threads", "1", "-"], game);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains("warning[notation-tie]") && r.stdout.contains("asian reads another game"),
        "{}",
        r.stdout
    );
    let r = kyphu(&["convert", "--quiet", "--out-xiangqi", "iccs", "-"], game);
    assert!(r.stdout.contains("1. g0i2 *"), "{}", r.stdout);
    for (name, iccs) in [("asian", "g3g4"), ("wxf", "g0i2")] {
        let r = kyphu(&["check", "--threads", "1", "--notation", name, "-"], game);
        assert_eq!(r.code, 0, "{name}: {}", r.stdout);
        let r = kyphu(&["convert", "--quiet", "--notation", name, "-"], game);
        assert!(
            r.stdout.contains(&format!("1. {iccs} *")),
            "{name}: {}",
            r.stdout
        );
    }
    // named wrongly: the move is unreadable, and said so
    let r = kyphu(
        &["check", "--threads", "1", "--notation", "vi-new", "-"],
        game,
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.contains("expected a vietnamese-new move"),
        "{}",
        r.stdout
    );
}

#[test]
fn check_clean_input_exits_0() {
    let r = check("[White \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n");
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert_eq!(
        r.stdout,
        "-: 1 game: 1 clean, 0 repaired, 0 partial, 0 failed\n"
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
    assert!(r.stderr.contains("1 game:"), "{}", r.stderr);
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

#[test]
fn diff_seed_sample_forms_diverge_at_move_8() {
    let r = kyphu(
        &[
            "diff",
            "corpus/chess/diff/seed-sample-short.pgn",
            "corpus/chess/diff/seed-sample-long.pgn",
        ],
        "",
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("First divergence at move 8 white (ply 15): A has Qe3+ (written `He3+`"),
        "{}",
        r.stdout
    );
    insta::assert_snapshot!("diff_seed_sample", r.stdout);
}

#[test]
fn diff_scoresheets_with_missing_pair() {
    let r = kyphu(
        &[
            "diff",
            "corpus/chess/diff/sheet-white.pgn",
            "corpus/chess/diff/sheet-black.pgn",
        ],
        "",
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.contains(
            "At move 5 white (ply 9), A has `0-0 Te7` at corpus/chess/diff/sheet-white.pgn:7:45 which B does not: a missing move pair"
        ),
        "{}",
        r.stdout
    );
    let same = kyphu(
        &[
            "diff",
            "corpus/chess/scoresheet-vi.pgn",
            "corpus/chess/scoresheet-vi.pgn",
        ],
        "",
    );
    assert_eq!(same.code, 0);
    assert!(
        same.stdout
            .contains("The records are the same game (33 plies).")
    );
}

#[test]
fn convert_outputs() {
    let r = kyphu(&["convert", "corpus/chess/scoresheet-vi.pgn"], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("12. O-O-O Rd8"), "{}", r.stdout);
    assert_eq!(
        r.stderr,
        "corpus/chess/scoresheet-vi.pgn: 1 game: 1 clean, 0 repaired, 0 partial, 0 failed\n"
    );
    let json = kyphu(
        &["convert", "--to", "json", "corpus/chess/scoresheet-vi.pgn"],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(v["moves"][2]["written"], "Mf3");
    assert_eq!(v["moves"][2]["san"], "Nf3");
    let csv = kyphu(
        &["convert", "--to", "csv", "corpus/chess/scoresheet-vi.pgn"],
        "",
    );
    assert!(
        csv.stdout.starts_with("game,move,white,black,"),
        "{}",
        csv.stdout
    );
    // CSV read back through standard input with --from csv.
    let back = kyphu(&["convert", "--from", "csv", "-"], &csv.stdout);
    assert_eq!(back.code, 0, "{}", back.stderr);
    assert!(back.stdout.contains("17. Rd8# 1-0"), "{}", back.stdout);
    let vi = kyphu(
        &[
            "convert",
            "--out-lang",
            "vi",
            "--out-notation",
            "fide",
            "corpus/chess/scoresheet-vi.pgn",
        ],
        "",
    );
    assert!(vi.stdout.contains("12. 0-0-0 Xd8"), "{}", vi.stdout);
}

#[test]
fn convert_partial_game_keeps_rest_and_exits_1() {
    let r = kyphu(&["convert", "corpus/chess/scoresheet-vi-slips.pgn"], "");
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.contains("{kyphu:\nunparsed: Mc3 8. a3"),
        "{}",
        r.stdout
    );
    assert!(r.stderr.contains("did you mean: Mc6"), "{}", r.stderr);
}

#[test]
fn convert_xiangqi_notations() {
    let input = "[Game \"Chinese Chess\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n";
    let r = kyphu(&["convert", "--out-xiangqi", "vietnamese-old", "-"], input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("1. P2-5 M8.7 2. M2.3 X9-8 *"),
        "{}",
        r.stdout
    );
    let r = kyphu(&["convert", "--to", "json", "-"], input);
    assert!(r.stdout.contains("\"uci\":\"h2e2\""), "{}", r.stdout);
}

#[test]
fn broken_game_among_good_ones() {
    let input = "[Event \"one\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n\
                 [Event \"two\"]\n\n1. d4 d5 2. Nf3 Nf3 3. c4 *\n\n\
                 [Event \"three\"]\n\n1. c4 e5 *\n";
    let r = kyphu(&["convert", "--threads", "2", "-"], input);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .ends_with("-: 3 games: 2 clean, 0 repaired, 1 partial, 0 failed\n"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("[Event \"one\"]"));
    assert!(r.stdout.contains("1. e4 e5 2. Nf3 Nc6 *"));
    assert!(
        r.stdout
            .contains("1. d4 d5 2. Nf3 {kyphu: unparsed: Nf3 3. c4} *"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("[Event \"three\"]"));
    assert!(r.stdout.contains("1. c4 e5 *"));
    // Each game read back is the same.
    let again = kyphu(&["convert", "-"], &r.stdout);
    assert_eq!(again.stdout, r.stdout);
}

#[test]
fn keep_illegal_on_the_command_line() {
    let input = "1. e4 e5 2. Qh5 Ke7 3. Qxe5+ Kf6 4. d4 *\n";
    let strict = kyphu(&["convert", "-"], input);
    assert_eq!(strict.code, 1);
    let kept = kyphu(&["convert", "--keep-illegal", "-"], input);
    assert_eq!(kept.code, 0, "{}", kept.stderr);
    assert!(
        kept.stdout.contains("Kf6 {kyphu: illegal move} 4. d4"),
        "{}",
        kept.stdout
    );
    assert!(
        kept.stderr.contains("0 clean, 1 repaired"),
        "{}",
        kept.stderr
    );
}

#[test]
fn xiangqi_scoresheet_csv() {
    let sheet = "TT,Trắng,Đen\n1,P2-5,M8.7\n2,M2.3,X9-8\n";
    let r = kyphu(
        &[
            "convert", "--game", "xiangqi", "--from", "csv", "--to", "json", "-",
        ],
        sheet,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["kind"], "xiangqi");
    let uci: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["uci"].as_str().unwrap())
        .collect();
    assert_eq!(uci, ["h2e2", "h9g7", "h0g2", "i9h9"]);
}

/// `convert --to json` writes each game's line through buffers handed back from the
/// output to the workers and reused without being cleared (a long game's line is
/// followed by short ones in the same buffer): every line must be what the library
/// writes for the game alone, on one thread and on two, across many batches.
#[test]
fn json_lines_through_reused_buffers_are_the_library_s() {
    use kyphu::{
        emit::{JsonOptions, json::to_json_string},
        replay::{ReplayOptions, replay},
    };
    // a legal game of 60 moves, cut after a varying number of them
    let moves = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 \
                 d4 Nbd7 c4 c6 cxb5 axb5 Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 \
                 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6 Nc4 Nxc4 Bxc4 Nb6 Ne5 Rae8 Bxf7+ Rxf7 \
                 Nxf7 Rxe1+ Qxe1 Kxf7 Qe3 Qg5 Qxg5 hxg5 b3 Ke6 a3 Kd6";
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let mut input = String::new();
    for i in 0..700usize {
        let n = if i % 3 == 0 {
            moves.len()
        } else {
            (i * 7) % 11
        };
        input.push_str(&format!("[Event \"game {i}\"]\n\n"));
        for (j, m) in moves.iter().take(n).enumerate() {
            if j % 2 == 0 {
                input.push_str(&format!("{}. ", j / 2 + 1));
            }
            input.push_str(m);
            input.push(' ');
        }
        input.push_str("*\n\n");
    }
    let want: String = kyphu::archive::read_str(&input)
        .into_iter()
        .map(|raw| {
            let mut game = replay(raw, &ReplayOptions::default());
            game.source.file = Some("-".into());
            to_json_string(&game, &JsonOptions::default())
        })
        .collect();
    assert_eq!(want.lines().count(), 700);
    for threads in ["1", "2"] {
        let r = kyphu(
            &[
                "convert",
                "--quiet",
                "--threads",
                threads,
                "--to",
                "json",
                "-",
            ],
            &input,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stdout == want, "threads {threads}: lines differ");
    }
}
