//! Issue 25: records as people write them. The game told from the content when no tag
//! names it, and the free-text reader: runs of moves accepted by replay, the text around
//! them kept verbatim as comments. Each test is a case the issue lists; each failed on
//! the code before the reader (the game read as chess and stopped at move 1, or at the
//! first word of prose).

mod common;

use common::records::main_line;
use kyphu::{
    model::{
        diag::Severity,
        game::{Game, Status, Variant},
    },
    notation::xiangqi::Dialect,
    replay::{ReplayOptions, replay},
};

/// The games of `text` read as the command line reads them (headings joined).
fn games_with(text: &str, options: &ReplayOptions) -> Vec<Game> {
    common::records::games_with(text.as_bytes(), options)
}

fn one_with(text: &str, options: &ReplayOptions) -> Game {
    let mut games = games_with(text, options);
    assert_eq!(games.len(), 1, "{text}: {games:#?}");
    games.remove(0)
}

fn one(text: &str) -> Game {
    one_with(text, &ReplayOptions::default())
}

fn moves(g: &Game) -> Vec<String> {
    main_line(g)
}

fn codes(g: &Game) -> Vec<&str> {
    g.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

/// Every comment of the game, the line's own and its moves', in order.
fn comments(g: &Game) -> Vec<String> {
    let mut out: Vec<String> = g.moves.comments.to_vec();
    for m in &g.moves.moves {
        out.extend(m.comments().iter().cloned());
    }
    out
}

const XQ4: [&str; 4] = ["h2e2", "h9g7", "h0g2", "i9h9"];

#[test]
fn chinese_moves_without_tags_are_xiangqi() {
    let g = one("1. 炮二平五 马8进7 2. 马二进三 车9平8\n");
    assert_eq!(g.variant, Variant::Xiangqi);
    assert_eq!(moves(&g), XQ4);
    assert_eq!(g.status(), Status::Clean);
}

#[test]
fn vietnamese_letters_without_tags_are_xiangqi() {
    let g = one("1. P2-5 M8.7 2. M2.3 X9-8\n");
    assert_eq!(g.variant, Variant::Xiangqi);
    assert_eq!(moves(&g), XQ4);
}

#[test]
fn wxf_without_tags_is_xiangqi() {
    let g = one("1. C2.5 H8+7\n");
    assert_eq!(g.variant, Variant::Xiangqi);
    assert_eq!(moves(&g), ["h2e2", "h9g7"]);
}

/// `h2e2` reads as chess too: both games are tried, xiangqi replays further, a note
/// says so.
#[test]
fn iccs_without_tags_is_xiangqi_by_replay() {
    let g = one("1. h2e2 h9g7\n");
    assert_eq!(g.variant, Variant::Xiangqi);
    assert_eq!(moves(&g), ["h2e2", "h9g7"]);
    assert!(
        codes(&g).contains(&"game-from-content"),
        "{:?}",
        g.diagnostics
    );
    assert_eq!(g.status(), Status::Clean);
}

#[test]
fn ten_rank_fen_is_xiangqi() {
    let g = one(
        "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n1. h2e2 h9g7 *\n",
    );
    assert_eq!(g.variant, Variant::Xiangqi);
    assert_eq!(moves(&g), ["h2e2", "h9g7"]);
}

#[test]
fn notation_option_makes_xiangqi() {
    let options = ReplayOptions {
        xiangqi: Some(Dialect::OldVietnamese),
        ..ReplayOptions::default()
    };
    let g = one_with("1. P2-5 M8.7 2. M2.3 X9-8\n", &options);
    assert_eq!(g.variant, Variant::Xiangqi);
    assert_eq!(moves(&g), XQ4);
}

#[test]
fn csv_headed_in_vietnamese_is_xiangqi() {
    let csv = "TT,Đỏ,Đen\n1,P2-5,M8.7\n2,M2.3,X9-8\n";
    let games: Vec<Game> = kyphu::archive::csv::read_scoresheet(csv)
        .into_iter()
        .map(|g| replay(g.raw, &ReplayOptions::default()))
        .collect();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].variant, Variant::Xiangqi);
    assert_eq!(moves(&games[0]), XQ4);
}

/// A chess game stays chess, and a tag naming the game is obeyed.
#[test]
fn chess_and_named_games_stay() {
    let g = one("1. e4 e5 2. Nf3 Nc6 *\n");
    assert_eq!(g.variant, Variant::Chess);
    assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
    let g = one("[Variant \"Standard\"]\n\n1. h2e2 h9g7 *\n");
    assert_eq!(g.variant, Variant::Chess);
    assert_eq!(g.status(), Status::Failed);
}

const IMMORTAL: [&str; 6] = ["e2e4", "e7e5", "f2f4", "e5f4", "f1c4", "d8h4"];

#[test]
fn heading_before_the_moves() {
    let g = one("Unsterbliche Partie\n1.e4 e5 2.f4 exf4 3.Lc4 Dh4+\n");
    assert_eq!(moves(&g), IMMORTAL);
    assert_eq!(comments(&g), ["Unsterbliche Partie"]);
    assert_eq!(g.status(), Status::Clean);
}

#[test]
fn title_players_and_event_on_lines_of_their_own() {
    let text =
        "Unsterbliche Partie\nAnderssen - Kieseritzky\nLondon 1851\n1.e4 e5 2.f4 exf4 3.Lc4 Dh4+\n";
    let g = one(text);
    assert_eq!(moves(&g), IMMORTAL);
    assert_eq!(
        comments(&g),
        ["Unsterbliche Partie\nAnderssen - Kieseritzky\nLondon 1851"]
    );
    assert!(codes(&g).contains(&"text-kept"));
    assert_eq!(g.status(), Status::Clean);
}

#[test]
fn comment_line_between_moves() {
    let g = one("1.e4 e5 2.f4 exf4\nHier beginnt das Königsgambit.\n3.Lc4 Dh4+\n");
    assert_eq!(moves(&g), IMMORTAL);
    assert_eq!(comments(&g), ["Hier beginnt das Königsgambit."]);
    assert_eq!(
        g.moves.moves[3].comments(),
        ["Hier beginnt das Königsgambit."]
    );
}

#[test]
fn prose_after_the_moves_on_each_line() {
    let g = one("1.e4 e5 das ist gut\n2.f4 exf4 ein Gambit\n3.Lc4 Dh4+ Schach\n");
    assert_eq!(moves(&g), IMMORTAL);
    assert_eq!(comments(&g), ["das ist gut", "ein Gambit", "Schach"]);
    assert_eq!(g.status(), Status::Clean);
}

/// Moves on the left, notes on the right, a column apart.
#[test]
fn two_column_layout() {
    let text = "1. e4 e5            The king's pawn.\n\
                2. Nf3 Nc6          Both develop.\n\
                3. Bb5 a6           The Spanish game.\n";
    let g = one(text);
    assert_eq!(moves(&g), ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]);
    assert_eq!(
        comments(&g),
        ["The king's pawn.", "Both develop.", "The Spanish game."]
    );
}

/// Prose that holds a move (`e4`) is prose: a lone move amid words is not a run, and
/// a square that does not play is not either.
#[test]
fn prose_naming_a_square_is_not_a_move() {
    let g = one("1.e4 e5 2.Nf3 the knight defends e5 and eyes d4 2...Nc6 3.Bb5\n");
    assert_eq!(moves(&g), ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]);
    assert_eq!(comments(&g), ["the knight defends e5 and eyes d4"]);
}

/// A record's own error after prose stays an error: the reading stops there, the rest
/// is kept, the game is partial.
#[test]
fn an_error_after_prose_is_still_an_error() {
    let g = one("1.e4 e5 a quiet line\n2.Nf3 Nc6 3.Bb5 Nf3 4.O-O\n");
    assert_eq!(moves(&g), ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]);
    assert_eq!(g.status(), Status::Partial);
    assert!(
        g.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error && d.code.as_str() == "illegal-move")
    );
}

/// PGN is read as before: nothing of the free-text reader in a game read to its end.
#[test]
fn pgn_is_untouched() {
    let g = one("[Event \"x\"]\n\n1. e4 {good} e5 2. Nf3 Nc6 *\n");
    assert_eq!(comments(&g), ["good"]);
    assert!(!codes(&g).contains(&"text-kept"));
}

/// A forum's `[pgn]…[/pgn]`: the markup is not a tag nor part of a move; the words
/// around are kept.
#[test]
fn forum_pgn_wrapper() {
    let g = one("Look at this:\n[pgn]1. e4 e5 2. Nf3 Nc6 3. Bb5 a6[/pgn]\nnice\n");
    assert_eq!(moves(&g), ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]);
    assert_eq!(comments(&g), ["Look at this:", "nice"]);
    assert_eq!(g.status(), Status::Clean);
}

/// The BBCode block of xiangqi forums: header lines, moves in `START{…}END`, a diagram
/// marker and a `/* */` comment.
#[test]
fn bbcode_game_block() {
    let text = "[b]Trực xe[/b]\n[game]\nFORMAT WXF\nRED Trắng\nBLACK Đen\nSTART{\n\
                1. P2-5 M8.7 2. M2.3 X9-8\nDIAG{ #3 RED }\n/*Đen có cách khác {x}.*/\n}END[/game]\n";
    let g = one(text);
    assert_eq!(g.variant, Variant::Xiangqi);
    assert_eq!(moves(&g), XQ4);
    assert!(
        comments(&g).iter().any(|c| c.contains("Đen có cách khác")),
        "{:?}",
        comments(&g)
    );
}

/// A PGN game (with tags) cut inside a move (`28.a`, the end of a sliced archive)
/// stays partial: its stray word is its error, not prose.
#[test]
fn a_tagged_game_cut_short_stays_partial() {
    let g = one("[Event \"x\"]\n\n1. e4 e5 2. Nf3 a\n");
    assert_eq!(moves(&g), ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(g.status(), Status::Partial);
    assert_eq!(g.unparsed.as_deref(), Some("a"));
}

/// Each half-move a paragraph of its own, with notes between: Black's `1. … d5` after a
/// blank line continues the record, it does not start another game.
#[test]
fn half_moves_in_paragraphs() {
    let text = "1. d4\n\nPedone di Regina.\n\n1. … d5\n\nUna risposta naturale.\n\n2. Af4\n";
    let g = one(text);
    assert_eq!(moves(&g), ["d2d4", "d7d5", "c1f4"]);
    assert_eq!(
        comments(&g),
        ["Pedone di Regina.", "Una risposta naturale."]
    );
}

/// A side line going back to an earlier move, on a line of its own (`2. Bc4 Bc5` after
/// move 3): not the game's, although it plays; the game goes on at `4. Ba4`
/// (zh/allenun, zh/060s: `9.…………车2平6` after move 18).
#[test]
fn side_line_numbered_back_is_prose() {
    let g = one("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6\n2. Bc4 Bc5 is a quieter game\n4. Ba4 Nf6\n");
    let want = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
    ];
    assert_eq!(moves(&g), want);
    assert_eq!(g.status(), Status::Clean);
}

/// A plan ahead in the notes (`5. Nxe5`, numbered past the game's next move) is not the
/// game's when the game's own move comes later with its number (ru/litfond:
/// `после 4.Cb5:c6 d7:c6 5. Kf3:e5`).
#[test]
fn plan_numbered_ahead_is_prose() {
    let g =
        one("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6\nNot 4.Bxc6 dxc6 5. Nxe5 as then Qd4.\n4. Ba4 Nf6\n");
    let want = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
    ];
    assert_eq!(moves(&g), want);
    assert_eq!(g.status(), Status::Clean);
}

/// A side line read as prose goes on with its own numbers (`3. c3 Nf6 4. d4 Bb6`): its
/// move that does not play in the game is the side line's, not the record's error
/// (zh/allenun: `第二种下法:炮2退1 11. … 14. 车四退二 炮7进1`).
#[test]
fn side_line_going_on_is_not_an_error() {
    let g = one("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6\nSecond line: 2. Bc4 Bc5 3. c3 Nf6 4. d4 Bb6\n");
    let want = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"];
    assert_eq!(moves(&g), want);
    assert_eq!(g.status(), Status::Clean);
}

/// A paragraph ends a run: the game's move on a line of its own after a paragraph of
/// notes whose moves do not play (cs/czwiki-nevadnouci: `9.Jbd2.` / blank line / `Dg6`).
#[test]
fn move_after_a_paragraph_is_its_own_run() {
    let g = one("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. b4\n\nOften 4.c3 and also 4.d4.\n\nBxb4\n");
    let want = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "b2b4", "c5b4",
    ];
    assert_eq!(moves(&g), want);
}

/// A lone move inside a sentence (`White then plays Nf3.`) is prose, not the game's next
/// move (ru/litfond: `с подготовкой d2-d4.`).
#[test]
fn lone_move_inside_a_sentence_is_prose() {
    let g = one("1. e4 e5\nWhite then plays Nf3.\n2. Nc3 Nf6\n");
    assert_eq!(moves(&g), ["e2e4", "e7e5", "b1c3", "g8f6"]);
    assert_eq!(g.status(), Status::Clean);
}

/// An evaluation glued to a move (`dc6=`, `Bg4+/-`) is read without it; the text keeps
/// it (en/b2b4: `8.cd5= b6`).
#[test]
fn evaluation_glued_to_a_move() {
    let g = one("1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Bxc6 dc6= 5.O-O f6 6.d4 Bg4+/-\nThe exchange.\n");
    assert_eq!(moves(&g).len(), 12);
    assert_eq!(g.status(), Status::Clean);
}

/// Black's move written after `n. ...,` (`1. ..., e5`), White's with `, ...` after it,
/// and `o` (Spanish "or") in the prose (es/aminoapps, nl/depion).
#[test]
fn dots_and_comma_before_blacks_move() {
    let g = one(
        "1. e4, ...\n1. ..., e5\n2. f4, ...\nEl Gambito de Rey.\n2. ..., d6\nCc6 o tomar en f4 era mejor.\n3. Ac4, ...\n",
    );
    assert_eq!(moves(&g), ["e2e4", "e7e5", "f2f4", "d7d6", "f1c4"]);
    assert_eq!(g.status(), Status::Clean);
}

/// The placeholder of Black's move glued to Red's (`车一平二…………`) and to Black's move
/// after its number (`3.…………马2进3`), with a sentence of prose quoting moves between
/// (zh/060s).
#[test]
fn placeholder_glued_to_chinese_moves() {
    let g = one(
        "1.炮二平五马8进7 2.马二进三车9平8 3.车一平二…………\n如图形势,黑方主要有马2进3和卒7进1两种着法:\n3.…………马2进3\n",
    );
    assert_eq!(g.variant, Variant::Xiangqi);
    assert_eq!(moves(&g), ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]);
}

/// A capital `X` after the square as the mate sign (pl/dawchess: `2. … Hh4X`).
#[test]
fn capital_x_as_the_mate_sign() {
    let g = one("1. f3 e5 2. g4 Hh4X\n");
    assert_eq!(moves(&g), ["f2f3", "e7e5", "g2g4", "d8h4"]);
}

/// A note in square brackets is prose as a whole, its moves a side line, even numbered
/// as the game's next move (de/herderschach: `[ 6.Lh4?? … Am besten war 6.Le3 Lxe3
/// 7.fxe3 Sc6 …] 6…Lxf2#`).
#[test]
fn note_in_square_brackets_is_prose() {
    let g = one(
        "1.e4 e5 2.Sf3 Sc6 3.Lc4 Lc5\n[ 4.c3 Sf6 5.d4 Lb6 und eine ganz andere Partie beginnt.]\n4.b4 Lxb4\n",
    );
    let want = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "b2b4", "c5b4",
    ];
    assert_eq!(moves(&g), want);
    assert_eq!(g.status(), Status::Clean);
}

/// PGN pasted into a page with its HTML tags (`<p style="…">`, `<br />`, `</p>`) on one
/// line: the tags are masked, the game read, the text kept (it/sstdeepsys).
#[test]
fn pgn_inside_html_tags() {
    let g = one(
        "</p> <p style=\"text-align: justify;\">[Event \"x\"]<br />[White \"A\"]<br />{ Notes } 1.e4 { good }<br />1...e5 2.Nf3 Nc6 *</p>\n",
    );
    assert_eq!(moves(&g), ["e2e4", "e7e5", "g1f3", "b8c6"]);
    assert_eq!(g.tags.get("White"), Some("A"));
}

/// A sentence glued to the first move number by its colon (`one move per line:1. d4`):
/// the word is prose, the moves after it the game (en/dignifiedexit).
#[test]
fn move_number_glued_to_a_colon() {
    let g = one("We post moves in turn.\nOr, one move per line:1. d4 d5\n2. Nf3 Bf5\n3. c4 c6\n");
    assert_eq!(moves(&g), ["d2d4", "d7d5", "g1f3", "c8f5", "c2c4", "c7c6"]);
}

/// A caption mark glued after a move (`马2进3(图)`, "diagram") is read without it
/// (zh/sanwenwang).
#[test]
fn caption_mark_glued_to_a_chinese_move() {
    let g = one(
        "1.炮二平五马8进7 2.马二进三车9平8\n\n3.车一平二马2进3(图)\n\n至此,红方主要有两大变例\n",
    );
    assert_eq!(moves(&g), ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]);
}

/// A pawn capture written with its files only (`ed`, `exd`), as Russian and older books
/// print `exd5`: read as the one pawn capture from the first file to the second, with a
/// `non-canonical` note (ru/dzen: `4...d5 5. ed Кa5.`; ru/livelib).
#[test]
fn short_pawn_capture_with_files_only() {
    let g = one("1. e4 e5 2. Bc4 Nf6 3. Nf3 Nc6 4. Ng5 d5 5. ed Na5\n");
    assert_eq!(
        moves(&g),
        [
            "e2e4", "e7e5", "f1c4", "g8f6", "g1f3", "b8c6", "f3g5", "d7d5", "e4d5", "c6a5"
        ]
    );
    assert!(codes(&g).contains(&"non-canonical"), "{:?}", g.diagnostics);
    assert!(!codes(&g).contains(&"invalid-move"), "{:?}", g.diagnostics);
    // with the capture sign and no rank, in a tagged PGN game too
    let g = one("[Event \"x\"]\n\n1. e4 d5 2. exd Qxd5 3. Nc3 Qa5 *\n");
    assert_eq!(moves(&g), ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5"]);
    // a file pair no pawn capture fits stays the record's error
    let g = one("[Event \"x\"]\n\n1. e4 d5 2. fg Qxd5 *\n");
    assert_eq!(moves(&g), ["e2e4", "d7d5"]);
}

/// A pawn capture with its capture sign between spaces (`e x d4`), beside a piece's
/// (`N x d4`) (en/usefulchess: `3. d4 e x d4 4. N x d4 Be7`).
#[test]
fn spaced_pawn_capture() {
    let g = one("1. e4 e5 2. Nf3 Nc6 3. d4 e x d4 4. N x d4 Be7\n");
    assert_eq!(
        moves(&g),
        [
            "e2e4", "e7e5", "g1f3", "b8c6", "d2d4", "e5d4", "f3d4", "f8e7"
        ]
    );
    assert_eq!(g.status(), Status::Clean);
}

/// White's last move written again with its number where the game resumes after a
/// break in the page (`2.e3` / a line of text / `2.e3 Na6`): the repeated move is text,
/// the game goes on with Black's move (en/b2b4: `7.Ba1` / `(...)` / `7.Ba1 f6`).
#[test]
fn restated_move_where_the_game_resumes() {
    let g = one("1.b4 c6 2.e3\n\nThe page shows the position here.\n\n2.e3 Na6 3.a3 Nc7\n");
    assert_eq!(moves(&g), ["b2b4", "c7c6", "e2e3", "b8a6", "a2a3", "a6c7"]);
    assert!(
        comments(&g).iter().any(|c| c.contains("2.e3")),
        "{:?}",
        comments(&g)
    );
    assert_eq!(g.status(), Status::Clean);
}

/// A `;` inside a sentence is the sentence's punctuation, not PGN's line comment that
/// would hide the moves after it on the line (fr/markweeks: `… au centre du jeu; ce qui
/// est d'une grande importance. 4... exd4 5. cxd4 …`).
#[test]
fn semicolon_inside_prose_is_punctuation() {
    let g = one(
        "1. e4 e5 2. Bc4 Bc5 3. c3 Nf6 4. d4 Vous poussez ce pion pour établir vos pions au centre du jeu; ce qui est important. 4... exd4 5. cxd4 Il faut les y maintenir; ce que vous ferez. 5... Bb6\n",
    );
    assert_eq!(
        moves(&g),
        [
            "e2e4", "e7e5", "f1c4", "f8c5", "c2c3", "g8f6", "d2d4", "e5d4", "c3d4", "c5b6"
        ]
    );
    // the prose kept whole, its `;` with it
    assert!(
        comments(&g).iter().any(|c| c.contains("jeu; ce qui")),
        "{:?}",
        comments(&g)
    );
}

/// A `;` after a move or a space is PGN's line comment as ever: the moves on its line
/// after it are the comment's.
#[test]
fn semicolon_after_a_move_is_a_line_comment() {
    let g = one("1. e4 e5 2. Nf3 ; or 2. Bc4 Nf6 here\n2... Nc6\n");
    assert_eq!(moves(&g), ["e2e4", "e7e5", "g1f3", "b8c6"]);
    assert!(
        comments(&g).iter().any(|c| c.contains("or 2. Bc4")),
        "{:?}",
        comments(&g)
    );
}

/// The letters of a Mac figurine font pasted as text (the Option key's `©` knight, `å`
/// bishop, `∂` queen, `™` rook) are read as the figurines they stand for
/// (it/excelsior: `2. ©f3 d6 … 6. åe3 åg7 … 8. ∂d2`).
#[test]
fn mac_figurine_letters_pasted_as_text() {
    let g = one(
        "Note di Roberto Pirola 1. e4 c5 2. ©f3 d6 3. d4 cxd4 4. ©xd4 ©f6 5. ©c3 g6 6. åe3 åg7 7. f3 0-0 8. ∂d2 ©c6 9. 0-0-0 d5 10. ©xc6 bxc6 11. g4 ™e8\n",
    );
    assert_eq!(
        moves(&g),
        [
            "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "g7g6", "c1e3",
            "f8g7", "f2f3", "e8g8", "d1d2", "b8c6", "e1c1", "d6d5", "d4c6", "b7c6", "g2g4", "f8e8"
        ]
    );
}

/// A side line read as prose (numbered back: `3… Nf6`) that goes on with its next
/// number and no full stop between (`4. O-O Be7`) is the side line's, although it plays
/// from where the game stands; the game's own move 4 comes later (it/excelsior: `Avevo
/// pensato a 11… e5 12. åc5 ™e8 … 16. ∂e1, senza esserne convinto.`).
#[test]
fn side_line_goes_on_with_the_games_number() {
    let g = one(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 I had thought of 3… Nf6 4. O-O Be7 without conviction.\n4. Ba4 Nf6\n",
    );
    let want = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
    ];
    assert_eq!(moves(&g), want);
    assert_eq!(g.status(), Status::Clean);
}
