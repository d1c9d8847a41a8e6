//! The arbiter's desk (issue 27), the parts beside the slip ranking: scoresheet CSV
//! diagnostics by row and column, every column kept, `--games-csv` on input, the
//! encoding reported as used; draw offers that other PGN readers take; the result
//! checked against the final position on real games, against python-chess.
#![allow(clippy::unwrap_used)]

mod common;

use std::{path::Path, process::Command};

use common::kyphu;
use kyphu::{
    archive::csv::read_scoresheet,
    model::game::Game,
    replay::{ReplayOptions, replay},
};

const SHEET: &str = "corpus/chess/scoresheet-vi-slips.csv";
const GAMES: &str = "corpus/chess/scoresheet-vi-games.csv";

/// Every slip of the CSV sheet is told with its row and column as a spreadsheet
/// shows them, as well as the file's line and column.
#[test]
fn csv_sheet_slips_name_row_and_column() {
    let r = kyphu(&["check", SHEET], "");
    assert_eq!(r.code, 1, "{}", r.stderr);
    insta::assert_snapshot!("check_csv_sheet_slips", r.stdout);
    assert!(
        r.stdout
            .contains("= corpus/chess/scoresheet-vi-slips.csv: row 8, column \"Đen\" (Black)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("= corpus/chess/scoresheet-vi-slips.csv: row 11, column \"Trắng\" (White)"),
        "{}",
        r.stdout
    );
    // the JSON says it too
    let r = kyphu(&["check", "--format", "json", SHEET], "");
    let first: serde_json::Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(
        first["cell"], "row 8, column \"Đen\" (Black)",
        "{}",
        r.stdout
    );
}

/// The notes column and a column kyphu does not know are kept as comments on the
/// row's last move; the clock columns as clock readings.
#[test]
fn csv_every_column_is_kept() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(SHEET)).unwrap();
    let sheet = read_scoresheet(&text);
    // replay goes on after each slip (as `check` and `convert --repair` do), so that
    // the rows after the first slip are moves with their comments
    let options = ReplayOptions {
        go_on: true,
        repair: true,
        ..ReplayOptions::default()
    };
    let g: Game = replay(sheet[0].raw.clone(), &options);
    let comments: Vec<String> = g
        .moves
        .moves
        .iter()
        .flat_map(|n| n.comments().iter().cloned())
        .collect();
    assert!(
        comments.contains(&"Đen viết không rõ".to_owned()),
        "{comments:?}"
    );
    assert!(
        comments.contains(&"Trắng đề nghị hòa".to_owned()),
        "{comments:?}"
    );
    assert!(
        comments.contains(&"Xác nhận: trọng tài ký".to_owned()),
        "{comments:?}"
    );
    assert_eq!(g.moves.moves[0].clock.map(|c| c.millis), Some(5_370_000));
    // the unknown column is a note, not a repair
    let unknown = g
        .diagnostics
        .iter()
        .find(|d| d.code == "csv-unknown-column")
        .unwrap();
    assert_eq!(unknown.severity.as_str(), "note");
    // and the comments are written in the PGN
    let r = kyphu(&["convert", "--repair", "--to", "pgn", SHEET], "");
    assert!(r.stdout.contains("{Đen viết không rõ}"), "{}", r.stdout);
    assert!(
        r.stdout.contains("{Xác nhận: trọng tài ký}"),
        "{}",
        r.stdout
    );
}

/// `--games-csv` on input gives the games their tags (names, event, round): `check`
/// names the players, `convert` to PGN writes the tags (before issue 27 `check` had
/// no such option and `convert` refused it without CSV output).
#[test]
fn games_csv_on_input_gives_the_tags() {
    let r = kyphu(&["check", "--games-csv", GAMES, SHEET], "");
    assert!(
        r.stdout
            .contains("(game 1, Lê Minh Châu – Phạm Quốc Dũng, move 7 black)"),
        "{}",
        r.stdout
    );
    let r = kyphu(&["convert", "--to", "pgn", "--games-csv", GAMES, SHEET], "");
    for tag in [
        "[Event \"Giải cờ vua câu lạc bộ\"]",
        "[Round \"3\"]",
        "[White \"Lê Minh Châu\"]",
        "[Black \"Phạm Quốc Dũng\"]",
    ] {
        assert!(r.stdout.contains(tag), "{tag}: {}", r.stdout);
    }
    // with CSV output it is still the games file written
    let dir = std::env::temp_dir().join(format!("kyphu-games-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.csv");
    let r = kyphu(
        &[
            "convert",
            "--to",
            "csv",
            "--games-csv",
            out.to_str().unwrap(),
            "corpus/chess/scoresheet-vi.pgn",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("game,"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A Windows-1258 sheet is reported as Windows-1258, in the summary and the JSON (it
/// was reported as UTF-8).
#[test]
fn csv_encoding_is_reported_as_used() {
    let sheet = "corpus/chess/scoresheet-vi-1258.csv";
    let r = kyphu(
        &[
            "convert",
            "--encoding",
            "windows-1258",
            "--to",
            "json",
            sheet,
        ],
        "",
    );
    let game: serde_json::Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(game["encoding"], "windows-1258", "{}", r.stdout);
    assert!(r.stderr.contains("windows-1258"), "{}", r.stderr);
    // the text decoded right: the sheet's header and moves read as from the UTF-8 one
    assert_eq!(game["moves"][0]["written"], "d4");
    let r = kyphu(&["check", "--encoding", "windows-1258", sheet], "");
    assert!(r.stdout.contains("column \"Đen\" (Black)"), "{}", r.stdout);
}

fn have(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// kyphu's PGN with draw offers is read by pgn-extract and python-chess without a
/// warning, and read back by kyphu as draw offers.
#[test]
fn draw_offers_are_read_by_other_tools() {
    // the FIDE Laws' sample game (Appendix C, in Vietnamese letters) with its draw offer
    let sample = "1. e4 e5 2. Mf3 Mf6 3. d4 exd4 4. e5 Me4 5. Hxd4 d5 6. exd6 e.p. Mxd6 \
                  7. Tg5 Mc6 8. He3+ Te7 9. Mbd2 0-0 10. 0-0-0 Xe8 11. Vb1 (=) *\n";
    let r = kyphu(&["convert", "-"], sample);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("{(=)}"), "{}", r.stdout);
    // read back by kyphu: the draw offer again, not a comment
    let back = kyphu(&["convert", "--to", "json", "-"], &r.stdout);
    let game: serde_json::Value =
        serde_json::from_str(back.stdout.lines().next().unwrap()).unwrap();
    let moves = game["moves"].as_array().unwrap();
    assert!(
        moves.iter().any(|m| m["draw_offer"] == true),
        "{}",
        back.stdout
    );
    assert!(
        moves
            .iter()
            .all(|m| m["comments"].as_array().unwrap().is_empty())
    );
    let dir = std::env::temp_dir().join(format!("kyphu-draw-offers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("offers.pgn");
    std::fs::write(&file, &r.stdout).unwrap();
    let pgn_extract = "/usr/games/pgn-extract";
    if Path::new(pgn_extract).exists() {
        let out = Command::new(pgn_extract)
            .arg("-s")
            .arg(&file)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(
            !stderr.contains("Line number") && !stderr.contains("illegal"),
            "pgn-extract warns: {stderr}"
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("(=)"));
    } else {
        eprintln!("note: pgn-extract is not installed; its reading is not checked");
    }
    if have("python3", &["-c", "import chess.pgn"]) {
        let script = "import sys, chess.pgn\n\
            g = chess.pgn.read_game(open(sys.argv[1], encoding='utf-8'))\n\
            assert g is not None\n\
            if g.errors: print('errors', g.errors); sys.exit(1)\n\
            print(sum(1 for n in g.mainline() if n.comment.strip() == '(=)'))\n";
        let out = Command::new("python3")
            .args(["-c", script])
            .arg(&file)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "python-chess: {stdout} {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            stdout.trim(),
            "1",
            "python-chess keeps the offer as a comment"
        );
    } else {
        eprintln!("note: python-chess is not installed; its reading is not checked");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// python-chess's reading of the end of each game of a PGN file, for the same facts
/// kyphu reports: a result that the final position contradicts (checkmate,
/// stalemate, insufficient material), fifty moves (the ply the count reached 100), and
/// for drawn or unfinished games the first position of the last stretch without
/// capture or pawn move to occur a third time (its ply). One line per fact:
/// `game code ply`.
const PYTHON_FACTS: &str = r#"
import sys, chess, chess.pgn
f = open(sys.argv[1], encoding='utf-8', errors='replace')
i = -1
held = None
while True:
    g = chess.pgn.read_game(f)
    if g is None: break
    # games are counted by their moves: python-chess parts a game whose tags are
    # broken by a blank line into its tags and its moves, where kyphu reads one game
    if not g.errors and g.next() is None:
        held = g.headers
        continue
    i += 1
    headers = g.headers if 'Result' in g.headers or held is None else held
    held = None
    if g.errors: print(i, 'skip', 0); continue
    b = g.board()
    for m in g.mainline_moves():
        b.push(m)
    res = headers.get('Result', '*')
    plies = len(b.move_stack)
    if b.is_checkmate():
        want = '0-1' if b.turn == chess.WHITE else '1-0'
        if res != want: print(i, 'checkmate-result', plies)
        continue
    if b.is_stalemate():
        if res != '1/2-1/2': print(i, 'stalemate-result', plies)
        continue
    if b.is_insufficient_material() and res in ('1-0', '0-1'):
        print(i, 'dead-position-result', plies)
    h = b.halfmove_clock
    if h >= 100:
        print(i, 'fifty-move-claim', max(plies - (h - 100), 0))
    if h >= 8 and res not in ('1-0', '0-1'):
        first = max(plies - h, 0)
        c = g.board()
        for m in list(b.move_stack)[:first]: c.push(m)
        seen = {}
        key = c._transposition_key()
        seen[key] = 1
        for k, m in enumerate(list(b.move_stack)[first:]):
            c.push(m)
            key = c._transposition_key()
            seen[key] = seen.get(key, 0) + 1
            if seen[key] == 3:
                print(i, 'repetition-claim', first + k + 1)
                break
"#;

/// The end-of-game facts kyphu reports on real games agree with python-chess's, game
/// by game and ply by ply (the shared corpus; skipped with a note without it or
/// without python-chess).
#[test]
fn end_of_game_facts_agree_with_python_chess() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/chess/pgnmentor");
    if !dir.is_dir() {
        eprintln!("note: ../shared/corpus is absent; the end-of-game facts are not compared");
        return;
    }
    if !have("python3", &["-c", "import chess.pgn"]) {
        eprintln!("note: python-chess is not installed; the end-of-game facts are not compared");
        return;
    }
    let codes = [
        "checkmate-result",
        "stalemate-result",
        "dead-position-result",
        "fifty-move-claim",
        "repetition-claim",
    ];
    let mut total = std::collections::BTreeMap::new();
    for name in ["Kasparov.pgn", "Morphy.pgn", "Nielsen.pgn", "Zukertort.pgn"] {
        let file = dir.join(name);
        let out = Command::new("python3")
            .args(["-c", PYTHON_FACTS])
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let python = String::from_utf8_lossy(&out.stdout);
        let skipped: std::collections::BTreeSet<u64> = python
            .lines()
            .filter(|l| l.contains(" skip "))
            .filter_map(|l| l.split(' ').next()?.parse().ok())
            .collect();
        let mut want: Vec<(u64, String, u64)> = python
            .lines()
            .filter(|l| !l.contains(" skip "))
            .map(|l| {
                let mut p = l.split(' ');
                let g = p.next().unwrap().parse().unwrap();
                let c = p.next().unwrap().to_owned();
                let ply = p.next().unwrap().parse().unwrap();
                (g, c, ply)
            })
            .collect();
        let r = kyphu(&["convert", "--to", "json", file.to_str().unwrap()], "");
        let mut got = Vec::new();
        // games counted by their moves, as in the script
        let mut index = 0u64;
        for line in r.stdout.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            if v["moves"].as_array().is_none_or(|m| m.is_empty()) {
                continue;
            }
            index += 1;
            let index = index - 1;
            if skipped.contains(&index) || v["status"] == "partial" || v["status"] == "failed" {
                want.retain(|w| w.0 != index);
                continue;
            }
            for d in v["diagnostics"].as_array().unwrap() {
                let code = d["code"].as_str().unwrap();
                // the fifty-move warning (seventy-five moves) is kyphu's own
                if codes.contains(&code)
                    && (code != "fifty-move-claim" || d["severity"] != "warning")
                {
                    got.push((index, code.to_owned(), d["ply"].as_u64().unwrap_or(0)));
                }
            }
        }
        got.sort();
        got.dedup();
        want.sort();
        assert_eq!(got, want, "{name}");
        for (_, c, _) in &got {
            *total.entry(c.clone()).or_insert(0) += 1;
        }
    }
    eprintln!("end-of-game facts agreeing with python-chess: {total:?}");
    assert!(
        total.get("repetition-claim").copied().unwrap_or(0) > 0,
        "{total:?}"
    );
}
