//! Issue 27, Show: snapshots of a multi-slip scoresheet's diagnostics, the sheet typed
//! in Vietnamese letters and in English letters. The game is the bundled Vietnamese
//! sheet (`corpus/chess/scoresheet-vi.pgn`, 17 moves, a real miniature) with four slips
//! an arbiter meets on paper: Black's rank mirrored (`3... Tg5` for `Tg4`), `3`/`8`
//! (`8. Mc8` for `Mc3`), an illegible cell (`10. ?` for `Mxb5`) and `1`/`l` (`14.
//! Xdl` for `Xd1`). `check` lists every slip in one run, each with its candidates in
//! the sheet's letters; `convert --repair` rebuilds the game as played.
#![allow(clippy::unwrap_used)]

mod common;

use common::kyphu;

const TAGS: &str = "[Event \"Giải cờ vua câu lạc bộ\"]\n[Site \"Hà Nội\"]\n\
    [Date \"2026.03.14\"]\n[Round \"3\"]\n[White \"Nguyễn Văn An\"]\n\
    [Black \"Trần Thị Bình\"]\n[Result \"1-0\"]\n\n";

/// The game as played, in Vietnamese letters (V H X T M: king, queen, rook, bishop,
/// knight).
const VI_TRUE: &str = "1. e4 e5 2. Mf3 d6 3. d4 Tg4 4. dxe5 Txf3 5. Hxf3 dxe5 6. Tc4 Mf6 \
    7. Hb3 He7 8. Mc3 c6 9. Tg5 b5 10. Mxb5 cxb5 11. Txb5+ Mbd7 12. 0-0-0 Xd8 \
    13. Xxd7 Xxd7 14. Xd1 He6 15. Txd7+ Mxd7 16. Hb8+ Mxb8 17. Xd8# 1-0\n";

/// The sheet with its four slips, in Vietnamese letters.
const VI_SLIPS: &str = "1. e4 e5 2. Mf3 d6 3. d4 Tg5 4. dxe5 Txf3 5. Hxf3 dxe5 6. Tc4 Mf6 \
    7. Hb3 He7 8. Mc8 c6 9. Tg5 b5 10. ? cxb5 11. Txb5+ Mbd7 12. 0-0-0 Xd8 \
    13. Xxd7 Xxd7 14. Xdl He6 15. Txd7+ Mxd7 16. Hb8+ Mxb8 17. Xd8# 1-0\n";

/// The same sheet in English letters.
const EN_SLIPS: &str = "1. e4 e5 2. Nf3 d6 3. d4 Bg5 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 \
    7. Qb3 Qe7 8. Nc8 c6 9. Bg5 b5 10. ? cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 \
    13. Rxd7 Rxd7 14. Rdl Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n";

fn sheet(moves: &str) -> String {
    format!("{TAGS}{moves}")
}

/// The moves of `convert --repair --to json`, as UCI.
fn repaired_uci(text: &str) -> Vec<String> {
    let r = kyphu(&["convert", "--repair", "--to", "json", "-"], text);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["uci"].as_str().unwrap().to_owned())
        .collect()
}

fn true_uci() -> Vec<String> {
    let r = kyphu(&["convert", "--to", "json", "-"], &sheet(VI_TRUE));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["uci"].as_str().unwrap().to_owned())
        .collect()
}

/// The four slips of the Vietnamese sheet: four diagnostics in one run, the intended
/// move first in each, in Vietnamese letters.
#[test]
fn multi_slip_sheet_vi_diagnostics() {
    let r = kyphu(&["check", "-"], &sheet(VI_SLIPS));
    assert_eq!(r.code, 1, "{}", r.stderr);
    for first in [
        "did you mean: Tg4",
        "did you mean: Mc3",
        "did you mean: Mxb5",
        "did you mean: Xd1",
    ] {
        assert!(r.stdout.contains(first), "{first}\n{}", r.stdout);
    }
    insta::assert_snapshot!("multi_slip_sheet_vi", r.stdout);
    assert!(r.stdout.contains("4 moves assumed"), "{}", r.stdout);
}

/// The same sheet in English letters: the same four slips, candidates in English.
#[test]
fn multi_slip_sheet_en_diagnostics() {
    let r = kyphu(&["check", "-"], &sheet(EN_SLIPS));
    assert_eq!(r.code, 1, "{}", r.stderr);
    for first in [
        "did you mean: Bg4",
        "did you mean: Nc3",
        "did you mean: Nxb5",
        "did you mean: Rd1",
    ] {
        assert!(r.stdout.contains(first), "{first}\n{}", r.stdout);
    }
    insta::assert_snapshot!("multi_slip_sheet_en", r.stdout);
    assert!(r.stdout.contains("4 moves assumed"), "{}", r.stdout);
}

/// `convert --repair` rebuilds the game as played from either sheet.
#[test]
fn multi_slip_sheet_repaired_in_both_languages() {
    let truth = true_uci();
    assert_eq!(truth.len(), 33);
    assert_eq!(repaired_uci(&sheet(VI_SLIPS)), truth);
    assert_eq!(repaired_uci(&sheet(EN_SLIPS)), truth);
}
