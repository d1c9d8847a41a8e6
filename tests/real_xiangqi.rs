//! Issue 25, xiangqi records as people write them, read as the command line reads a
//! text: no tag names the game (the content tells it), headings and notes around the
//! moves. Each case is cut from a record of `corpus/text/` and named after it; the ones
//! marked "failed before" read otherwise on the code before the fix (the lead's build of
//! the session start: the moves it read are in the comment).
#![allow(clippy::unwrap_used)]

mod common;

use common::forms::problems;
use common::records::{longest_game, main_line};
use kyphu::{
    model::game::{Game, GameResult, Variant},
    replay::ReplayOptions,
};

/// The game `text` is read as (the longest, as `tests/real_text.rs` takes it).
fn read(text: &str) -> Game {
    longest_game(text.as_bytes(), &ReplayOptions::default()).unwrap()
}

/// `text` is read as xiangqi with the main line `expected` (ICCS).
fn reads(text: &str, expected: &[&str]) -> Game {
    let g = read(text);
    assert_eq!(g.variant, Variant::Xiangqi, "{text:?}");
    assert_eq!(main_line(&g), expected, "{text:?}: {:?}", g.diagnostics);
    g
}

const OPENING: [&str; 4] = ["h2e2", "h9g7", "h0g2", "i9h9"];

// ---- the records' cases (failed before)

#[test]
fn xiangqielephantgame_placeholder_then_a_note_that_starts_with_the_move() {
    // failed before: the placeholder was dropped and the note's `A4+5` read as Black's
    // move (g3g4 h7g7 b2e2 g9e7 f0e1 d9e8 …)
    reads(
        "1. P3+1 …………\nRed opens with a pawn.\n1. ………… C8=7\n2. C8=5 …………\n\
         The usual answer.\n2. ………… E7+5 3. A4+5 …………\n\
         A4+5 is rare; H8+7 or C5+4 are normal.\n3. ………… R1+1\nH2+3 was better.\n",
        &["g3g4", "h7g7", "b2e2", "g9e7", "f0e1", "a9a8"],
    );
}

#[test]
fn xiangqielephantgame_whole_pair_then_a_note_that_starts_with_a_move() {
    // failed before: the note's `H8+9` read as Red's 5th move (… h9i7 b0a2)
    reads(
        "1. P3+1 C8=7 2. C8=5 E7+5 3. A4+5 R1+1\n4. C2=4 H8+9\n\
         H8+9 is rare too; R1=6 is normal.\n5. H8+7 R9=8\n",
        &[
            "g3g4", "h7g7", "b2e2", "g9e7", "f0e1", "a9a8", "h2f2", "h9i7", "b0c2", "i9h9",
        ],
    );
}

#[test]
fn handmsg_latin_l_for_one_in_a_chinese_move() {
    // failed before: `卒7進l` did not read (1 ply)
    let g = reads(
        "對兵局\n1.兵七進一 卒7進l\n2.炮二平三 象7進5\n",
        &["c3c4", "g6g5", "h2g2", "g9e7"],
    );
    assert!(problems(&g).is_empty(), "{:?}", problems(&g));
}

#[test]
fn handmsg_move_number_with_a_comma_glued_to_the_move() {
    // failed before: `4,車一平二` was one word, not a move (the game stopped at 3 moves)
    reads(
        "1.兵七進一 卒7進1\n2.炮二平三 象7進5\n3.馬二進一 馬8進7\n4,車一平二 車9平8\n",
        &[
            "c3c4", "g6g5", "h2g2", "g9e7", "h0i2", "h9g7", "i0h0", "i9h9",
        ],
    );
}

#[test]
fn fancotuong_moves_quoted_in_a_sentence_are_a_side_line() {
    // failed before: the quoted `p8-7 m3.2` read as the game's 6th move (… b2c2 c7b5)
    let g = reads(
        "VƯƠNG BÂN - HỨA NGÂN XUYÊN\n\n1) p2-5 m8.7\n\n2) m2.3 x9-8\n\n3) x1-2 m2.3\n\n\
         Vương Bân đi x1-2, tránh đường biến quen thuộc p8-7 m3.2 , x2.6 v3.5 ....\n",
        &["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"],
    );
    assert!(problems(&g).is_empty(), "{:?}", problems(&g));
}

#[test]
fn thanglongkydao_blacks_half_after_dots_and_a_comma() {
    // failed before: `7. … , Xe 6 tấn 5` was not numbered, the prose's `Xe 6 tấn 5, Mã
    // 7 tấn 5, Chốt 7 tấn 1` read as the game instead (… a0b0 f8f3 c2e3 g6g5)
    reads(
        "1. Pháo 2 bình 5, Mã 8 tấn 7\n2. Mã 2 tấn 3, Xe 9 tấn 1\n\
         3. Xe 1 bình 2, Pháo 8 thoái 1\n4. Chốt 5 tấn 1, Pháo 8 bình 5\n\
         5. Xe 2 tấn 4, Xe 9 bình 6\n6. Mã 8 tấn 7, Pháo 2 bình 5\n7. Xe 9 bình 8, …\n\n\
         Nếu Tiên đi Pháo 8 tấn 6 ngay thì Hậu có Xe 6 tấn 5, Mã 7 tấn 5, Chốt 7 tấn 1.\n\n\
         7. … , Xe 6 tấn 5\n8. Mã 3 tấn 5, …\n\n\
         Nếu Tiên vẫn Pháo 8 tấn 6, Hậu đáp Pháo trước tấn 3, Sĩ 4 tấn 5.\n\n\
         8. … , Mã 2 tấn 3\n",
        &[
            "h2e2", "h9g7", "h0g2", "i9i8", "i0h0", "h7h8", "e3e4", "h8e8", "h0h4", "i8f8", "b0c2",
            "b7e7", "a0b0", "f8f3", "g2e3", "b9c7",
        ],
    );
}

#[test]
fn reds_move_written_again_with_its_number_before_blacks() {
    // failed before: the repeated `2. Mã 2 tấn 3` was played again as Black's move
    // (h2e2 h9g7 h0g2 b9c7, then `Xe 9 bình 8` illegal)
    reads(
        "1. Pháo 2 bình 5, Mã 8 tấn 7\n2. Mã 2 tấn 3\n\nĐây là nước hay.\n\n\
         2. Mã 2 tấn 3, Xe 9 bình 8\n",
        &OPENING,
    );
}

// ---- the forms of issue 25's list, on text without tags

#[test]
fn vietnamese_comma_between_reds_and_blacks_move() {
    reads(
        "Ván 1\n1. Pháo 2 bình 5, Mã 8 tấn 7\n2. Mã 2 tấn 3, Xe 9 bình 8\n",
        &OPENING,
    );
}

#[test]
fn vietnamese_chot_for_the_soldier() {
    reads(
        "1. Chốt 7 tấn 1, Chốt 3 tấn 1\n2. Pháo 2 bình 5, Mã 8 tấn 7\n",
        &["c3c4", "c6c5", "h2e2", "h9g7"],
    );
}

#[test]
fn vietnamese_en_dash_between_the_moves() {
    reads("1. P2-5 – M8.7\n2. M2.3 – X9-8\n", &OPENING);
}

#[test]
fn vietnamese_pairs_glued_by_the_dash() {
    reads("1. P2-5-M8.7\n2. M2.3-X9-8\n", &OPENING);
}

#[test]
fn wxf_without_an_operator_first() {
    // failed before: read as chess, `C25` assumed to be Na3 (only the first move token
    // was looked at to tell the game)
    reads("1. C25 H8+7\n2. H2+3 R98\n", &OPENING);
}

#[test]
fn axf_front_and_rear_prefixes() {
    reads(
        "1. C8+2 H8+7 2. C2.8 H2+3 3. rC+1 R9.8 4. fC.5\n",
        &["b2b4", "h9g7", "h2b2", "b9c7", "b2b3", "i9h9", "b4e4"],
    );
}

#[test]
fn winboard_san() {
    reads("1. Che2 Hh9g7\n2. Hh0g2 Ri9h9\n", &OPENING);
}

#[test]
fn fairy_stockfish_soldiers_of_three() {
    // a 10-rank FEN tells the game; the soldiers by their place from the front
    reads(
        "[FEN \"4k4/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1\"]\n\n1. 15+1 K5.6 2. 25=4\n",
        &["e7e8", "e9f9", "e6f6"],
    );
    reads(
        "[FEN \"4k4/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1\"]\n\n1. 35=4 K5.6 2. 25=6\n",
        &["e5f5", "e9f9", "e6d6"],
    );
}

#[test]
fn chinese_comment_in_parentheses_after_a_move() {
    let g = reads("1. 炮二平五 马8进7 2. 马二进三(进马。) 车9平8\n", &OPENING);
    assert!(problems(&g).is_empty(), "{:?}", problems(&g));
}

#[test]
fn chinese_moves_glued_in_pairs() {
    reads("1.炮二平五马8进7 2.马二进三车9平8\n", &OPENING);
    reads("1.炮二平五 马8进72.马二进三 车9平8\n", &OPENING);
}

#[test]
fn chinese_placeholder_glued_to_a_move() {
    reads(
        "1.炮二平五 马8进7\n2.马二进三…………\n红方跳马。\n2.…………车9平8\n",
        &OPENING,
    );
}

#[test]
fn chinese_mate_and_red_wins() {
    let g = reads(
        "[FEN \"4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1\"]\n\n1.车九进九(将死) 红胜\n",
        &["a0a9"],
    );
    assert_eq!(g.result, GameResult::WhiteWins, "{:?}", g.diagnostics);
    assert!(problems(&g).is_empty(), "{:?}", problems(&g));
}
