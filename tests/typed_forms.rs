//! Issue 25, the forms people type: end words and results as printed, typing habits,
//! xiangqi forms and odd but real PGN. Each test is named after its case and failed on
//! the code before the form was read.
#![allow(clippy::unwrap_used)]

mod common;

use common::forms::{game, movetext, problems, reads_clean};
use kyphu::{Game, Item, Severity, Status, read_games};

#[test]
fn castling_with_zeros_is_not_a_move_number() {
    // `000` and `00` used to be read as move numbers: a "clean" game missing two plies
    reads_clean(
        "1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. 000 000 6. e3 e6 *\n",
        "1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O O-O-O 6. e3 e6 *",
    );
    reads_clean(
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 00 Nf6 5. d3 00 *\n",
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 O-O *",
    );
    // and the null move `0000`
    let g = game("1. e4 0000 2. d4 *\n");
    assert_eq!(g.moves.moves.len(), 3, "{:?}", g.diagnostics);
}

// ---- end words and results as printed

#[test]
fn end_words_mate_matt_mat() {
    for word in ["mate", "matt", "mat", "Mate"] {
        reads_clean(
            &format!("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 {word} 1-0\n"),
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
        );
    }
    // glued to the move
    reads_clean(
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7mate 1-0\n",
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
    );
}

#[test]
fn end_words_ch_and_dbl_ch() {
    reads_clean(
        "1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7 ch Ke7 7. Nd5 mate 1-0\n",
        "1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0",
    );
    reads_clean(
        "1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7ch Ke7 7. Nd5 mate 1-0\n",
        "1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0",
    );
    // a double check (the knight and the rook) written `dbl ch`
    let g = game("[FEN \"4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1\"]\n\n1. Nf6 dbl ch Kf7 *\n");
    assert_eq!(movetext(&g), "1. Nf6+ Kf7 *", "{:?}", g.diagnostics);
    assert!(problems(&g).is_empty(), "{:?}", problems(&g));
}

#[test]
fn end_words_novelty_tn_and_n() {
    let g = game("1. e4 e5 2. Nf3 Nc6 TN 3. Bb5 a6 N 4. Ba4 *\n");
    assert_eq!(
        movetext(&g),
        "1. e4 e5 2. Nf3 Nc6 $146 3. Bb5 a6 $146 4. Ba4 *",
        "{:?}",
        g.diagnostics
    );
    assert_eq!(g.status(), Status::Clean);
}

#[test]
fn end_words_evaluation_glued_to_a_check() {
    // `8.Bg7+–`: an evaluation glued to the move
    let g = game("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#+– 1-0\n");
    assert_eq!(
        movetext(&g),
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# $18 1-0",
        "{:?}",
        g.diagnostics
    );
    let g = game("1. e4 e5 2. Nf3 Nc6 3. Bb5⩲ a6 *\n");
    assert_eq!(movetext(&g), "1. e4 e5 2. Nf3 Nc6 3. Bb5 $14 a6 *");
    assert_eq!(g.status(), Status::Clean, "{:?}", problems(&g));
}

#[test]
fn results_en_dash_and_entity() {
    for result in ["1 – 0", "1 - 0", "1&ndash;0", "1 &ndash; 0", "1–0"] {
        reads_clean(
            &format!("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# {result}\n"),
            "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0",
        );
    }
    reads_clean("1. f3 e5 2. g4 Qh4# 0 – 1\n", "1. f3 e5 2. g4 Qh4# 0-1");
}

#[test]
fn results_draw_in_parentheses() {
    reads_clean(
        "1. e4 e5 2. Nf3 Nc6 (draw)\n",
        "1. e4 e5 2. Nf3 Nc6 1/2-1/2",
    );
}

// ---- typing habits

#[test]
fn null_moves_spelled_pass_and_angle_brackets() {
    let g = game("1. e4 <> 2. d4 pass 3. c4 *\n");
    assert_eq!(
        movetext(&g),
        "1. e4 -- 2. d4 -- 3. c4 *",
        "{:?}",
        g.diagnostics
    );
    assert!(problems(&g).is_empty(), "{:?}", problems(&g));
}

#[test]
fn prefix_nag_before_a_variation_is_kept() {
    let g = game("1. e4 e5 2. f4 ($142 2. Nf3 Nc6) 2... exf4 *\n");
    assert_eq!(
        movetext(&g),
        "1. e4 e5 2. f4 ( 2. Nf3 $142 Nc6 ) 2... exf4 *",
        "{:?}",
        g.diagnostics
    );
    assert!(problems(&g).is_empty(), "{:?}", problems(&g));
}

#[test]
fn commas_between_moves() {
    reads_clean(
        "1. e4, e5 2. Nf3, Nc6 3. Bb5, a6 *\n",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *",
    );
}

#[test]
fn slash_numbers_and_dashes_between_moves() {
    let g = game("1/ e4 - d5 ;\n2/ exd5 - Qxd5 ;\n3/ Nc3 - Qa5 ;\n");
    let sans: Vec<String> = g
        .moves
        .moves
        .iter()
        .map(|m| format!("{:?}", m.san))
        .collect();
    assert_eq!(sans.len(), 6, "{:?}", g.diagnostics);
    assert!(
        g.diagnostics.iter().all(|d| d.severity < Severity::Error),
        "{:?}",
        problems(&g)
    );
}

#[test]
fn spaced_long_algebraic() {
    reads_clean(
        "1. e2 - e4 e7 - e5 2. g1 - f3 b8 - c6 3. f1 - b5 a7 - a6 4. b5 : c6 d7 : c6 *\n",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 *",
    );
}

#[test]
fn spaces_inside_a_move() {
    // French letters: D dame, C cavalier, F fou
    reads_clean(
        "1. e4 e5 2. D h5 C c6 3. F c4 C f6 4. D x f7 # 1-0\n",
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
    );
    reads_clean(
        "1. d4 e5 2. dxe5 d6 3. exd6 Bxd6 4. Qd3 Nc6 5. Qb5 Bb4 + 6. c3 Qd6 7. Q x b4 Qxb4 *\n",
        "1. d4 e5 2. dxe5 d6 3. exd6 Bxd6 4. Qd3 Nc6 5. Qb5 Bb4+ 6. c3 Qd6 7. Qxb4 Qxb4 *",
    );
}

#[test]
fn french_cedilla_for_c() {
    reads_clean(
        "1. e4 e5 2. Fç4 Cc6 3. Dh5 Cf6 4. Dxf7# 1-0\n",
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0",
    );
}

/// The Latin K/C rows apply only in a record with Cyrillic piece letters elsewhere
/// (`grammars/chess-lookalikes.tsv`, read where the plain reading stops): as rows of
/// the Russian table they made every English king move a knight could also make a
/// language tie (tests/language_choice.rs).
#[test]
fn russian_latin_k_and_c() {
    // Latin K and C typed for Cyrillic К (knight) and С (bishop), Cyrillic О in castling
    reads_clean(
        "1. e4 e5 2. Kf3 Кc6 3. Cc4 Сc5 4. О-О Kf6 5. Лe1 d6 *\n",
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Re1 d6 *",
    );
    // without Cyrillic piece letters `K` stays the king: an English game is untouched
    let g = game("1. e4 e5 2. Ke2 Nc6 *\n");
    assert_eq!(movetext(&g), "1. e4 e5 2. Ke2 Nc6 *");
    // and a record in English letters whose king move is illegal is not read as Russian
    let g = game("1. e4 e5 2. Kf3 Nc6 *\n");
    assert_eq!(g.moves.moves.len(), 2, "{:?}", g.diagnostics);
}

#[test]
fn cyrillic_e_inside_a_square_after_an_em_dash() {
    reads_clean("1. e2—e4 e7—е6 2. d2—d4 d7—d5 *\n", "1. e4 e6 2. d4 d5 *");
}

#[test]
fn chessbase_figurine_font_letters() {
    reads_clean(
        "1. e4 e5 2. ¤f3 ¤c6 3. ¥c4 ¥c5 4. 0-0 ¤f6 5. ¦e1 0-0 6. £e2 ¢h8 *\n",
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Re1 O-O 6. Qe2 Kh8 *",
    );
}

#[test]
fn moves_glued_to_their_numbers() {
    reads_clean(
        "1.d4Nf62.c4b63.Nc3Bb7 *\n",
        "1. d4 Nf6 2. c4 b6 3. Nc3 Bb7 *",
    );
}

// ---- odd but real PGN

#[test]
fn open_brace_inside_a_comment_does_not_nest() {
    // an Informant reference with an unmatched `{` used to swallow the rest of the game
    let g = game(
        "[Event \"club\"]\n[Result \"1-0\"]\n\n1. e4 {B20 Informant {45/123} 1... c5 2. Nf3 {see {Inf 12} d6 3. d4 cxd4 1-0\n",
    );
    assert_eq!(g.moves.moves.len(), 6, "{}", movetext(&g));
    assert_eq!(g.status(), Status::Clean, "{:?}", problems(&g));
    // balanced braces inside a comment still read as one comment
    let g = game("[Result \"*\"]\n\n1. e4 {a {nested} brace} e5 *\n");
    assert_eq!(g.moves.moves.len(), 2);
    assert_eq!(g.status(), Status::Clean, "{:?}", problems(&g));
}

#[test]
fn crafty_comment_and_blank_line_after_the_tags() {
    let text = "[Event \"annotated\"]\n[White \"Crafty\"]\n[Black \"Crafty\"]\n[Result \"*\"]\n{annotating both black and white moves.}\n{using a scoring margin of +0.50 pawns.}\n{search time limit is 10.00}\n\n  1.   e4      e5\n  2.  Nf3     Nc6 *\n";
    let all: Vec<Item> = read_games(text.as_bytes(), &Default::default())
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        all.len(),
        1,
        "one game, not a tag-only game and a tagless one"
    );
    let Some(Item::Game(g)) = all.first() else {
        panic!("a game")
    };
    assert_eq!(g.moves.moves.len(), 4);
    assert_eq!(g.tags.get("White"), Some("Crafty"));
}

#[test]
fn fen_with_castling_rights_that_cannot_exist() {
    // no white rooks: `KQ` cannot exist; python-chess and lichess drop them and play on
    let g = game("[FEN \"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/4K3 w KQkq - 0 1\"]\n\n1. Kd1 O-O *\n");
    assert_eq!(movetext(&g), "1. Kd1 O-O *", "{:?}", g.diagnostics);
    assert_eq!(g.status(), Status::Repaired);
    assert!(
        g.diagnostics
            .iter()
            .any(|d| d.code.as_str() == "fen-castling-dropped" && d.severity == Severity::Warning),
        "{:?}",
        g.diagnostics
    );
}

// ---- xiangqi forms (the game told by a tag here; telling it from the content is
// another reader's work)

/// The main line of a xiangqi game `moves` (read with a `Game` tag) as ICCS moves.
fn xiangqi(moves: &str) -> (Vec<String>, Game) {
    let g = game(&format!("[Game \"Chinese Chess\"]\n\n{moves}\n"));
    let uci = g
        .moves
        .moves
        .iter()
        .map(|n| match n.mv {
            kyphu::AnyMove::Xiangqi(m) => m.iccs(),
            other => format!("{other:?}"),
        })
        .collect();
    (uci, g)
}

fn xiangqi_clean(moves: &str, expected: &[&str]) {
    let (uci, g) = xiangqi(moves);
    assert_eq!(uci, expected, "{moves}: {:?}", g.diagnostics);
    assert!(
        g.diagnostics.iter().all(|d| d.severity < Severity::Warning),
        "{moves}: {:?}",
        problems(&g)
    );
}

const OPENING: [&str; 4] = ["h2e2", "h9g7", "h0g2", "i9h9"];

#[test]
fn xiangqi_wxf_without_an_operator() {
    xiangqi_clean("1. C25 H8+7 2. H2+3 R98 *", &OPENING);
}

#[test]
fn xiangqi_axf_front_and_rear_prefixes() {
    xiangqi_clean(
        "1. C8+2 H8+7 2. C2.8 H2+3 3. rC+1 R9.8 4. fC.5 *",
        &["b2b4", "h9g7", "h2b2", "b9c7", "b2b3", "i9h9", "b4e4"],
    );
}

#[test]
fn xiangqi_winboard_san() {
    xiangqi_clean("1. Che2 Hh9g7 2. Hh0g2 Ri9h9 *", &OPENING);
}

#[test]
fn xiangqi_fairy_stockfish_soldiers_of_three() {
    let (uci, g) =
        xiangqi("[FEN \"4k4/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1\"]\n\n1. 15+1 K5.6 2. 25=4 *");
    assert_eq!(uci, ["e7e8", "e9f9", "e6f6"], "{:?}", g.diagnostics);
}

#[test]
fn xiangqi_chinese_placeholder_glued_to_a_move() {
    let (uci, g) = xiangqi("1. 炮二平五 马8进7\n2.马二进三…………\n2... 车9平8 *");
    assert_eq!(uci, OPENING, "{:?}", g.diagnostics);
    assert!(problems(&g).is_empty(), "{:?}", problems(&g));
}

#[test]
fn xiangqi_chinese_comment_in_parentheses() {
    let (uci, g) = xiangqi("1. 炮二平五 马8进7 2. 马二进三(进马。) 车9平8 *");
    assert_eq!(uci, OPENING, "{:?}", g.diagnostics);
    assert!(movetext(&g).contains("{进马。}"), "{}", movetext(&g));
    assert!(problems(&g).is_empty(), "{:?}", problems(&g));
}

#[test]
fn xiangqi_chinese_moves_glued_to_numbers_and_in_pairs() {
    xiangqi_clean("1. 炮二平五 马8进72. 马二进三 车9平8 *", &OPENING);
    xiangqi_clean("1. 炮二平五马8进7 2. 马二进三车9平8 *", &OPENING);
}

#[test]
fn xiangqi_vietnamese_comma_between_the_moves() {
    xiangqi_clean(
        "1. Pháo 2 bình 5, Mã 8 tấn 7 2. Mã 2 tấn 3, Xe 9 bình 8 *",
        &OPENING,
    );
}

#[test]
fn xiangqi_vietnamese_dashes_between_the_moves() {
    xiangqi_clean("1. P2-5 – M8.7 2. M2.3 – X9-8 *", &OPENING);
    xiangqi_clean("1. P2-5-M8.7 2. M2.3-X9-8 *", &OPENING);
}

// ---- free text: punctuation and plans in the notes (session 15)

/// A full stop or a comma typed after a move (`1. e4, e5`, `Bb5.`) is punctuation of the
/// line: the move reads without it (before: the move was prose and the game stopped).
#[test]
fn full_stop_or_comma_after_a_move() {
    reads_clean(
        "1. e4, e5\n2. Nf3, Nc6\n3. Bb5. a6. *\n",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *",
    );
}

/// A numbered move that prose leads into on its line is a plan in the notes when it is
/// another move's number (`Coupled with 4. e4`), or when the same number starts a line
/// of its own later (`White can play 2. e3 …` before `2. d5 d6`); before, `2. e3` was
/// taken for the game's move.
#[test]
fn numbered_plans_in_the_notes_are_prose() {
    let g = game(
        "1. d4 c5\nWhite can play 2. e3 or 2. dxc5 here.\n2. d5 d6\nCoupled with 4. e4 this is fine.\n3. c4 g6 *\n",
    );
    assert_eq!(
        movetext(&g),
        "1. d4 c5 {White can play 2. e3 or 2. dxc5 here.} 2. d5 d6 {Coupled with 4. e4 this is fine.} 3. c4 g6 *"
    );
}

/// A Russian record typed partly on a Latin keyboard: Cyrillic `с` for the file `c`
/// before a rank (`Кb1—с3`), Latin `Kp` for the king `Кр` (ru/fb2book).
#[test]
fn cyrillic_c_in_a_square_and_latin_kp() {
    reads_clean(
        "1. d2—d4 d7—d5\n2. c2—c4 e7—е6\n3. Кb1—с3 Kg8—f6\n4. Kpe1—d2 Kpe8—e7\n",
        "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Kd2 Ke7 *",
    );
}
