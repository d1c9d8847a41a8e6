//! `kyphu diff` on xiangqi records (issue 26): the findings of the chess comparison
//! (first divergence, missing move pair, missing half-move with the columns shifted),
//! each move named in the notation its record is written in. The records are the real
//! game Tao Hanming – Hu Ronghua (1999) of `corpus/xiangqi/`, in five notations; the
//! second record of each comparison is that game with one slip made in it, given on
//! standard input.
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

/// `kyphu diff corpus/xiangqi/tao-hu-1999-NOTATION.pgn -` with `b` on standard input.
fn diff(notation: &str, b: &str, extra: &[&str]) -> Run {
    let a = format!("corpus/xiangqi/tao-hu-1999-{notation}.pgn");
    let mut args = vec!["diff", a.as_str(), "-"];
    args.extend_from_slice(extra);
    kyphu(&args, b)
}

/// `text` with `from` replaced once (it must occur).
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from} not in the record");
    text.replacen(from, to, 1)
}

/// The regression: two different xiangqi records were "the same game (0 plies)" with
/// exit 0, as the comparison knew only chess moves.
#[test]
fn different_xiangqi_records_are_not_the_same_game_of_0_plies() {
    let b = edit(&record("iccs"), "b2b4", "b2b3");
    let r = diff("iccs", &b, &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(!r.stdout.contains("same game"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("The records agree on the first 14 plies."),
        "{}",
        r.stdout
    );
    // and the same records are the same game, with their plies counted
    let same = diff("iccs", &record("iccs"), &[]);
    assert_eq!(same.code, 0, "{}", same.stdout);
    assert!(
        same.stdout
            .contains("The records are the same game (29 plies)."),
        "{}",
        same.stdout
    );
}

#[test]
fn first_divergence_named_in_wxf() {
    let b = edit(&record("wxf"), "C8+3 13.", "C8+4 13.");
    let r = diff("wxf", &b, &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains(
            "First divergence at move 12 black (ply 24): A has C8+3 (written `C8+3` at corpus/xiangqi/tao-hu-1999-wxf.pgn:10:1), B has C8+4 (written `C8+4` at -:10:1)."
        ),
        "{}",
        r.stdout
    );
    insta::assert_snapshot!("xiangqi_diff_first_divergence_wxf", r.stdout);
    // the notation named by --notation is the one the moves are named in
    let named = diff("wxf", &b, &["--notation", "wxf"]);
    assert_eq!(named.stdout, r.stdout);
}

#[test]
fn first_divergence_between_notations_names_each_in_its_own() {
    // A in Chinese, B the WXF record with a slip: each move named as its record writes it
    let b = edit(&record("wxf"), "C8+3 13.", "C8+4 13.");
    let r = diff("chinese", &b, &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains("A has 炮８进３ (written `炮８进３`")
            && r.stdout.contains("B has C8+4 (written `C8+4`"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("notation chinese") && r.stdout.contains("notation wxf"));
    insta::assert_snapshot!("xiangqi_diff_first_divergence_chinese_wxf", r.stdout);
}

#[test]
fn missing_move_pair_in_chinese() {
    let b = edit(&record("chinese"), " 8. 炮八进二 卒７进１", "");
    let r = diff("chinese", &b, &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains(
            "At move 8 red (ply 15), A has `炮八进二 卒７进１` at corpus/xiangqi/tao-hu-1999-chinese.pgn:9:17 which B does not: a missing move pair."
        ),
        "{}",
        r.stdout
    );
    insta::assert_snapshot!("xiangqi_diff_missing_pair_chinese", r.stdout);
}

#[test]
fn missing_half_move_shifts_columns_in_old_vietnamese() {
    // B left out Red's 8. P8.2: every later move sits in the other colour's column
    let b = edit(&record("vi-old"), " 8. P8.2 ", " 8. ");
    let r = diff("vi-old", &b, &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains(
            "At move 8 red (ply 15), A has `P8.2` at corpus/xiangqi/tao-hu-1999-vi-old.pgn:9:17 which B does not: a missing half-move: from here on B has each move in the other colour's column."
        ),
        "{}",
        r.stdout
    );
    insta::assert_snapshot!("xiangqi_diff_missing_half_move_vi_old", r.stdout);
}

#[test]
fn missing_move_in_b_new_vietnamese() {
    // the other way round: A (the record on standard input's partner) lacks nothing, B
    // has a move pair A does not
    let a_text = edit(&record("vi-new"), "8. Pb4 Bg5 ", "");
    let r = kyphu(
        &["diff", "-", "corpus/xiangqi/tao-hu-1999-vi-new.pgn"],
        &a_text,
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("B has `Pb4 Bg5` at corpus/xiangqi/tao-hu-1999-vi-new.pgn:")
            && r.stdout.contains("a missing move pair"),
        "{}",
        r.stdout
    );
    insta::assert_snapshot!("xiangqi_diff_missing_pair_vi_new", r.stdout);
}

#[test]
fn prefix_and_same_game_across_notations() {
    let five = ["chinese", "iccs", "wxf", "vi-old", "vi-new"];
    for a in five {
        for b in five {
            let r = diff(a, &record(b), &[]);
            assert_eq!(r.code, 0, "{a} {b}: {}", r.stdout);
            assert!(r.stdout.contains("same game (29 plies)"), "{}", r.stdout);
        }
    }
    let short = edit(&record("wxf"), "15. R3.8 *", "*");
    let r = diff("wxf", &short, &[]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains("The records agree on 28 plies; A has 29 plies, B has 28"),
        "{}",
        r.stdout
    );
}

#[test]
fn game_option_reads_untagged_records_as_xiangqi() {
    let untagged = |n: &str| record(n).replace("[Game \"Chinese Chess\"]\n", "");
    let b = edit(&untagged("chinese"), "炮８进３", "炮８进４");
    let r = diff("chinese", &b, &["--game", "xiangqi"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("B has 炮８进４"), "{}", r.stdout);
}

/// `show` draws a xiangqi board for a xiangqi record, and `--game xiangqi` reads an
/// untagged one as xiangqi (it drew a chess board and exited 0).
#[test]
fn show_draws_a_xiangqi_board() {
    let r = kyphu(
        &[
            "show",
            "--ply",
            "3",
            "corpus/xiangqi/tao-hu-1999-vi-old.pgn",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .starts_with("Tao Hanming – Hu Ronghua, after 2. P2-4\n"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("   ~~~~~~~~~~~~~~~~~\n"), "{}", r.stdout);
    assert!(r.stdout.contains("   a b c d e f g h i\n"), "{}", r.stdout);
    assert!(
        r.stdout.contains(
            "FEN: rnbakabnr/9/1c5c1/p3p1p1p/2p6/9/P1P1P1P1P/1CN2C3/9/R1BAKABNR b - - 3 2"
        ),
        "{}",
        r.stdout
    );
    let untagged = record("chinese").replace("[Game \"Chinese Chess\"]\n", "");
    let r = kyphu(&["show", "--game", "xiangqi", "--ply", "3", "-"], &untagged);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("after 2. 炮二平四") && r.stdout.contains("1CN2C3/9/R1BAKABNR b - - 3 2"),
        "{}",
        r.stdout
    );
}
