//! Xiangqi diagnostics as the arbiter reads them (issue 26): every message names the
//! move as it was written, in its notation (Chinese, WXF, old and new Vietnamese), never
//! in ICCS coordinates, and an illegal move gets "did you mean" candidates in that
//! notation, ranked with look-ahead. The records are the real game Tao Hanming – Hu
//! Ronghua (1999) of `corpus/xiangqi/` with one slip made in it; the ambiguous moves are
//! in a constructed position (two chariots on one file).
#![allow(clippy::unwrap_used)]

mod common;

use common::{Run, kyphu};

fn record(notation: &str) -> String {
    let path = format!(
        "{}/corpus/xiangqi/tao-hu-1999-{notation}.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

/// `kyphu check` of the record in `notation` with `from` replaced by `to`.
fn check_slip(notation: &str, from: &str, to: &str) -> Run {
    let text = record(notation);
    assert!(text.contains(from), "{from}");
    kyphu(&["check", "-"], &text.replacen(from, to, 1))
}

/// Black's 2nd move, the horse to the edge (h9i7), written as a retreat.
#[test]
fn chinese_retreat_for_advance_with_candidates() {
    let r = check_slip("chinese", "马８进９", "马８退９");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.contains("illegal move 马８退９: ") && r.stdout.contains("did you mean: 马８进９"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("h9"), "{}", r.stdout);
    insta::assert_snapshot!("xiangqi_chinese_slip", r.stdout);
}

#[test]
fn wxf_minus_for_plus_with_candidates() {
    let r = check_slip("wxf", "H8+9", "H8-9");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.contains("illegal move H8-9: ") && r.stdout.contains("did you mean: H8+9"),
        "{}",
        r.stdout
    );
    insta::assert_snapshot!("xiangqi_wxf_slip", r.stdout);
}

#[test]
fn old_vietnamese_retreat_mark_for_advance_with_candidates() {
    let r = check_slip("vi-old", "M8.9", "M8/9");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.contains("illegal move M8/9: ") && r.stdout.contains("did you mean: M8.9"),
        "{}",
        r.stdout
    );
    insta::assert_snapshot!("xiangqi_vi_old_slip", r.stdout);
}

#[test]
fn new_vietnamese_wrong_rank_with_candidates() {
    // the horse to i7 written i9 (where Black's chariot stands)
    let r = check_slip("vi-new", "Mi7", "Mi9");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.contains("Mi9") && r.stdout.contains("did you mean: Mi7"),
        "{}",
        r.stdout
    );
    insta::assert_snapshot!("xiangqi_vi_new_slip", r.stdout);
}

/// The issue's own example: `P9.1` typed for `P9/1` (old Vietnamese), which got
/// `illegal move i7i6: the piece on i7 cannot reach i6` and no candidate.
#[test]
fn p9_1_typed_for_p9_retreat_1_gets_the_candidate() {
    let r = kyphu(
        &["check", "-"],
        "[Game \"Chinese Chess\"]\n\n1. P2-5 P8-9 2. M2.3 P9.1 3. X1-2 M8.7 *\n",
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.contains(
            "illegal move P9.1: the black cannon on file 9 cannot move there: a black soldier stands there"
        ),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("did you mean: P9/1"), "{}", r.stdout);
    assert!(!r.stdout.contains("i7"), "{}", r.stdout);
}

/// A one-move record tells no notation by itself: `--notation` names it.
fn ambiguous(notation: &str, moves: &str) -> Run {
    kyphu(
        &["check", "--notation", notation, "-"],
        &format!(
            "[Game \"Chinese Chess\"]\n[FEN \"4k4/9/9/9/R8/9/9/9/9/R2K5 w - - 0 1\"]\n\n1. {moves} *\n"
        ),
    )
}

#[test]
fn ambiguous_moves_named_and_listed_in_their_notation() {
    for (notation, moves, message, candidates) in [
        (
            "chinese",
            "车九进一",
            "ambiguous move 车九进一: it fits 后车进一 and 前车进一",
            "candidates: 后车进一, 前车进一",
        ),
        (
            "wxf",
            "R9+1",
            "ambiguous move R9+1: it fits R-+1 and R++1",
            "candidates: R-+1, R++1",
        ),
        (
            "vi-old",
            "X9.1",
            "ambiguous move X9.1: it fits Xs.1 and Xt.1",
            "candidates: Xs.1, Xt.1",
        ),
        (
            "vi-new",
            "Xa1",
            "ambiguous move Xa1: it fits X0a1 and X5a1",
            "candidates: X0a1, X5a1",
        ),
    ] {
        let r = ambiguous(notation, moves);
        assert_eq!(r.code, 1, "{moves}");
        assert!(
            r.stdout.contains(message) && r.stdout.contains(candidates),
            "{moves}: {}",
            r.stdout
        );
    }
    insta::assert_snapshot!(
        "xiangqi_ambiguous_chinese",
        ambiguous("chinese", "车九进一").stdout
    );
    insta::assert_snapshot!("xiangqi_ambiguous_wxf", ambiguous("wxf", "R9+1").stdout);
    insta::assert_snapshot!(
        "xiangqi_ambiguous_vi_old",
        ambiguous("vi-old", "X9.1").stdout
    );
    insta::assert_snapshot!(
        "xiangqi_ambiguous_vi_new",
        ambiguous("vi-new", "Xa1").stdout
    );
}

/// The caret under a move counts display columns: each Chinese character and each
/// full-width digit takes two (it stood two moves too early, characters counted).
#[test]
fn caret_under_a_chinese_move_counts_display_columns() {
    let r = check_slip("chinese", "马８进９", "马８退９");
    let lines: Vec<&str> = r.stdout.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("8 | ")).unwrap();
    let caret = lines[at + 1];
    // `1. 马八进七 卒３进１ 2. 炮二平四 ` is 3 + 8 + 1 + 8 + 1 + 3 + 8 + 1 = 33 columns
    assert_eq!(
        caret,
        format!("  | {}{}", " ".repeat(33), "^".repeat(8)),
        "{}",
        r.stdout
    );
}
