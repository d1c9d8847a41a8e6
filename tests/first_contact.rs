//! Issue 23, first contact: what a newcomer meets on the bundled examples (insta
//! snapshots of the exact text), and the command-line names that mean one thing each.
#![allow(clippy::unwrap_used)]

mod common;

use common::kyphu;

/// A perfect Latin-1 archive: one line about the encoding (in the summary), every
/// game clean, exit 0. It used to give an `encoding-guessed` warning per game, count
/// those games repaired and exit 1.
#[test]
fn latin1_archive_summary() {
    let r = kyphu(
        &[
            "check",
            "--threads",
            "1",
            "corpus/chess/games-latin1.pgn.zst",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.render());
    assert_eq!(r.stdout.lines().count(), 1, "{}", r.render());
    insta::assert_snapshot!("latin1_archive_summary", r.render());
    // the same with --strict: the guess is not a note per game either
    let strict = kyphu(
        &["check", "--strict", "corpus/chess/games-latin1.pgn.zst"],
        "",
    );
    assert_eq!((strict.code, &strict.stdout), (0, &r.stdout));
    // and JSON keeps it per game: the encoding and the note
    let json = kyphu(
        &[
            "convert",
            "--to",
            "json",
            "corpus/chess/games-latin1.pgn.zst",
        ],
        "",
    );
    let first: serde_json::Value =
        serde_json::from_str(json.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["encoding"], "windows-1252");
    assert_eq!(first["status"], "clean");
    assert_eq!(first["diagnostics"][0]["code"], "encoding-guessed");
    assert_eq!(first["diagnostics"][0]["severity"], "note");
}

/// `show` on a partial game says what was not read and where, shows the last
/// position reached, and exits 1 (it used to exit 0 without a word).
#[test]
fn show_partial_game() {
    let r = kyphu(&["show", "corpus/chess/scoresheet-vi-slips.pgn"], "");
    assert_eq!(r.code, 1);
    insta::assert_snapshot!("show_partial_game", r.render());
    let quiet = kyphu(&["show", "-q", "corpus/chess/scoresheet-vi-slips.pgn"], "");
    assert_eq!((quiet.code, quiet.stderr.as_str()), (1, ""));
    assert_eq!(quiet.stdout, r.stdout);
}

/// `--strict` on the FIDE Laws' forms and the other non-PGN forms.
#[test]
fn strict_fide_forms() {
    let r = kyphu(&["check", "--strict", "corpus/text/fide-forms.txt"], "");
    assert_eq!(r.code, 1);
    insta::assert_snapshot!("strict_fide_forms", r.render());
}

/// The moves `check --help` gives as examples of what `--strict` reports are exactly
/// the moves it reports on the file the help names. (The help said `0-0`, which was
/// not reported.)
#[test]
fn strict_help_examples_are_what_strict_prints() {
    let help = kyphu(&["check", "--help"], "").stdout;
    // the option's line and its description, up to the next option
    let paragraph: String = help
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("--strict"))
        .enumerate()
        .take_while(|(i, l)| *i == 0 || !l.trim_start().starts_with('-'))
        .map(|(_, l)| l)
        .collect::<Vec<_>>()
        .join("\n");
    let file = paragraph
        .split_whitespace()
        .find(|w| w.starts_with("corpus/"))
        .unwrap()
        .trim_end_matches([',', ')', '.']);
    let mut named: Vec<String> = paragraph
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert!(named.iter().any(|t| t == "0-0"), "{paragraph}");
    let r = kyphu(
        &[
            "check",
            "--strict",
            "--format",
            "json",
            "--threads",
            "1",
            file,
        ],
        "",
    );
    let mut printed: Vec<String> = r
        .stdout
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["severity"], "note", "{l}");
            let message = v["message"].as_str().unwrap();
            let k = [" is ", " captures "]
                .iter()
                .filter_map(|p| message.find(p))
                .min()
                .unwrap();
            message[..k].to_owned()
        })
        .collect();
    named.sort();
    printed.sort();
    assert_eq!(named, printed);
}

/// `diff`'s missing move pair: the moves as written, with file:line:column (it used
/// to give canonical English SAN, `O-O Be7`, and no location).
#[test]
fn diff_missing_pair_as_written() {
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
        r.stdout
            .contains("A has `0-0 Te7` at corpus/chess/diff/sheet-white.pgn:7:45"),
        "{}",
        r.stdout
    );
    insta::assert_snapshot!("diff_missing_pair_as_written", r.render());
    let quiet = kyphu(
        &[
            "diff",
            "-q",
            "corpus/chess/diff/sheet-white.pgn",
            "corpus/chess/diff/sheet-black.pgn",
        ],
        "",
    );
    assert_eq!((quiet.code, quiet.stdout.as_str()), (1, ""));
}

/// `--game` is the variant in `show` and `diff` too; `-n`/`--number` the game; the old
/// `--game 3` still picks the third game, with a note.
#[test]
fn game_means_the_variant_and_number_the_game() {
    let by_number = kyphu(
        &[
            "show",
            "--number",
            "3",
            "--ply",
            "20",
            "corpus/chess/games.pgn",
        ],
        "",
    );
    assert_eq!(by_number.code, 0, "{}", by_number.stderr);
    assert!(
        by_number
            .stdout
            .starts_with("Morphy, Paul – Anderssen, Adolf, after 10... Kd8\n")
    );
    let short = kyphu(
        &["show", "-n", "3", "--ply", "20", "corpus/chess/games.pgn"],
        "",
    );
    assert_eq!(short.stdout, by_number.stdout);
    let old = kyphu(
        &[
            "show",
            "--game",
            "3",
            "--ply",
            "20",
            "corpus/chess/games.pgn",
        ],
        "",
    );
    assert_eq!((old.code, &old.stdout), (0, &by_number.stdout));
    assert!(
        old.stderr.contains("--game 3 read as --number 3"),
        "{}",
        old.stderr
    );

    // a tagless xiangqi record: only --game xiangqi says what it is
    let moves = "1. h2e2 h9g7 2. h0g2 i9h9 *\n";
    let xq = kyphu(&["show", "--game", "xiangqi", "-"], moves);
    assert_eq!(xq.code, 0, "{}", xq.stderr);
    assert!(xq.stdout.contains("~~~~"), "{}", xq.stdout);
    assert!(
        xq.stdout.ends_with(
            "FEN: rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3\n"
        ),
        "{}",
        xq.stdout
    );

    // diff of two xiangqi records: compared move by move (they used to compare as the
    // same game whatever their moves)
    let same = kyphu(
        &[
            "diff",
            "--game",
            "xiangqi",
            "corpus/xiangqi/tao-hu-1999-wxf.pgn",
            "corpus/xiangqi/tao-hu-1999-vi-new.pgn",
        ],
        "",
    );
    assert_eq!(same.code, 0, "{}", same.stdout);
    assert!(
        same.stdout.contains("the same game (29 plies)"),
        "{}",
        same.stdout
    );
    let dir = std::env::temp_dir().join(format!("kyphu-fc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let other = dir.join("other.pgn");
    std::fs::write(
        &other,
        // not `h2e2 h9g7 h0g2 i9h9`: those replay after A's first move pair, which the
        // comparison (issue 26: as for chess) reports as a pair missing from B
        "[Game \"Chinese Chess\"]\n\n1. h2e2 c6c5 2. h0g2 h9g7 *\n",
    )
    .unwrap();
    let differ = kyphu(
        &[
            "diff",
            "corpus/xiangqi/tao-hu-1999-iccs.pgn",
            other.to_str().unwrap(),
        ],
        "",
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(differ.code, 1, "{}", differ.stdout);
    assert!(
        differ.stdout.contains(
            "A has b0c2 (written `b0c2` at corpus/xiangqi/tao-hu-1999-iccs.pgn:8:4), B has h2e2"
        ),
        "{}",
        differ.stdout
    );
}

/// JSON numbers games from 1, as every message does.
#[test]
fn json_game_index_counts_from_1() {
    let r = kyphu(&["convert", "--to", "json", "corpus/chess/games.pgn"], "");
    let indexes: Vec<u64> = r
        .stdout
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["source"]["game_index"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(indexes, [1, 2, 3, 4, 5, 6]);
}

/// `check -q`: the summary alone, the exit status unchanged.
#[test]
fn check_quiet_prints_only_the_summary() {
    let r = kyphu(&["check", "-q", "corpus/chess/scoresheet-vi-slips.pgn"], "");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout,
        "corpus/chess/scoresheet-vi-slips.pgn: 1 game: 0 clean, 0 repaired, 1 partial, 0 failed; 1 move assumed\n"
    );
}

/// `--log FILE`: the diagnostics and the summary in the file, the summary also on
/// standard error, nothing else there.
#[test]
fn log_file_takes_the_diagnostics() {
    let dir = std::env::temp_dir().join(format!("kyphu-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("report.txt");
    let summary =
        "corpus/chess/scoresheet-vi-slips.pgn: 1 game: 0 clean, 0 repaired, 1 partial, 0 failed\n";
    for command in ["convert", "check"] {
        let r = kyphu(
            &[
                command,
                "--log",
                log.to_str().unwrap(),
                "corpus/chess/scoresheet-vi-slips.pgn",
            ],
            "",
        );
        assert_eq!(r.code, 1, "{command}");
        // `check` goes on after the slip (issue 27) and counts the move it assumed
        let summary = if command == "check" {
            summary.replace('\n', "; 1 move assumed\n")
        } else {
            summary.to_owned()
        };
        assert_eq!(r.stderr, summary, "{command}");
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(
            text.starts_with("error[illegal-move]: illegal move Mc3"),
            "{command}: {text}"
        );
        assert!(text.ends_with(&summary), "{command}: {text}");
        if command == "check" {
            assert_eq!(r.stdout, "", "{command}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// "1 stretch of non-game text", not "1 stretches".
#[test]
fn one_stretch_of_junk_is_singular() {
    let r = kyphu(
        &["check", "-"],
        "[Event \"a\"]\n\n1. e4 e5 1-0\n\nThis line is not a game at all.\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n",
    );
    let summary = r.stdout.lines().last().unwrap();
    assert!(
        summary.ends_with("; 1 stretch of non-game text reported"),
        "{}",
        r.render()
    );
}
