//! Issue 25, the free-text reader's layouts (session 18): notes in parentheses with a
//! `;` inside, comments cut at a line starting with `[`, bulleted alternatives, the
//! resignation word, a note line opening on a move, Black's move restated after a side
//! line, a sentence ending on a move. Each test is an excerpt of a record of
//! `corpus/text/` (named in the test) in the shape that failed on the code before it; the
//! expected moves are the record's sidecar.

mod common;

use common::records::main_line;
use kyphu::{
    model::game::{Game, Status},
    replay::ReplayOptions,
};

fn one(text: &str) -> Game {
    let mut games = common::records::games_with(text.as_bytes(), &ReplayOptions::default());
    assert_eq!(games.len(), 1, "{text}: {games:#?}");
    games.remove(0)
}

/// Every comment of the game, the line's own and its moves', joined.
fn comments(g: &Game) -> String {
    let mut out: Vec<String> = g.moves.comments.to_vec();
    for m in &g.moves.moves {
        out.extend(m.comments().iter().cloned());
    }
    out.join(" | ")
}

fn uci(moves: &str) -> Vec<String> {
    moves.split_whitespace().map(str::to_owned).collect()
}

/// de/inselschach-1: `(Selten, aber` / `korrekt; üblich sind Sdb5 oder Sxc6) 6...Le7`: the
/// `;` glued to a word is the sentence's, and the parenthesis it sits in closes on its
/// line; the game goes on with `6...Le7` (it was read as part of one long note, and the
/// notes' `7...h6` taken for the game's move 6).
#[test]
fn semicolon_inside_a_parenthesised_note() {
    let g = one(
        "1.e4 c5 2.Sf3 e6 3.Sc3 Sc6 4.d4 cxd4 5.Sxd4 Sf6 6.Lg5 (Selten, aber\n\
         korrekt; üblich sind Sdb5 oder Sxc6) 6...Le7 (Db6 hätte zu Verwicklungen geführt, z.B. 7.Lxf6 gxf6\n\
         8.Sb3 a5 9.a4 Tg8) 7.Dd2 (schützt Lg5 gegen Tricks wie Sxe4,\n\
         denn auf 8.Sxe4 folgte Lxg5, auf 8.Lxe7 Sxc3) 7...d5 (besser war\n\
         7...h6, und auf 8.Lh4 Sxe4 9.Sxe4 Lxh4 oder 9.Lxe7 Sxd2\n\
         10.Lxd8 Sxd4) 8.Lb5 Ld7 und Weiß steht besser.\n",
    );
    assert_eq!(
        main_line(&g),
        uci("e2e4 c7c5 g1f3 e7e6 b1c3 b8c6 d2d4 c5d4 f3d4 g8f6 c1g5 f8e7 d1d2 d7d5 f1b5 c8d7")
    );
    assert!(
        comments(&g).contains("korrekt; üblich sind Sdb5"),
        "{}",
        comments(&g)
    );
}

/// es/ajedrezalaciega-1: `… por el peón.; 11.Tc1 Cxc3 12.Txc3 c4] 11...Cxd4`: a `;` after
/// a word and its full stop is the sentence's too, so the note in square brackets closes
/// at its `]` and the game goes on (the `;` hid the `]`, and the note's `15.Txb8` was read
/// as the game's).
#[test]
fn semicolon_after_a_full_stop_in_a_bracketed_note() {
    let g = one(
        "1.d4 d5 2.c4 e6 3.Cc3 c5 4.cxd5 exd5 5.Cf3 Cc6 6.g3 Ae6 7.Ag2 Ae7 8.0–0 Cf6 9.Ag5?! \
         9...Ce4! 10.Axe7 Dxe7 11.Ce5 [11.dxc5 Cxc3 12.bxc3 0–0 13.Tb1 Dxc5 14.Txb7 Tab8 \
         15.Txb8 Txb8 con algo de juego por el peón.; 11.Tc1 Cxc3 12.Txc3 c4] 11...Cxd4 \
         12.Cxe4 dxe4\n",
    );
    assert_eq!(
        main_line(&g),
        uci(
            "d2d4 d7d5 c2c4 e7e6 b1c3 c7c5 c4d5 e6d5 g1f3 b8c6 g2g3 c8e6 f1g2 f8e7 e1g1 g8f6 \
             c1g5 f6e4 g5e7 d8e7 f3e5 c6d4 c3e4 d5e4"
        )
    );
    assert!(comments(&g).contains("peón.; 11.Tc1"), "{}", comments(&g));
}

/// it/scacchixcorrispondenza-2: a comment whose translation is on a line of its own in
/// square brackets (`{difesa moderna: …` / `[modern defence: …]} 3. e5`) was cut there
/// by the reader, which takes such a line for a tag: three games of one.
#[test]
fn comment_line_starting_with_a_bracket_is_not_a_tag() {
    let g = one(
        "1. d4 g6 2. e4 Bg7 {difesa moderna: l'alfiere in fianchetto attaccherà il centro\n\
         [modern defence: the fianchettoed bishop will hit the centre]} 3. e5 b6 4. Bc4 Bb7 5. f3 \
         {il bianco perde il vantaggio posizionale; meglio Cf3\n\
         [White loses his positional edge; Nf3 was better]} e6\n",
    );
    assert_eq!(
        main_line(&g),
        uci("d2d4 g7g6 e2e4 f8g7 e4e5 b7b6 f1c4 c8b7 f2f3 e7e6")
    );
    assert_eq!(g.status(), Status::Clean);
    assert!(comments(&g).contains("[modern defence"), "{}", comments(&g));
}

/// it/corsodiscacchi-1: alternatives listed under the game's move on bulleted lines that
/// open on Black's move without its number (`- ..Cd4 5.e5! Cxb5`, `- ..e6 6.Te1 a6
/// 7.Axc6±`): the alternative's, even where its moves play (`5.e5` was taken for the
/// game's, and the reading stopped at `Cxb5`).
#[test]
fn bulleted_alternative_lines_are_side_lines() {
    let g = one("1.e4 c5 2.Cf3 Cc6 3.Ab5 Cf6\n\
         4.Cc3 Dc7\n\
         - ..g6 seconda scelta 5.e5 Cg4 6.Axc6 dxc6\n\
         - ..Cd4 5.e5! Cxb5 6.Cxb5 Cd5\n\
         5.0–0 Cd4\n\
         - ..e6 6.Te1 a6 7.Axc6±\n\
         6.Te1 a6 7.Af1 Cg4\n");
    assert_eq!(
        main_line(&g),
        uci("e2e4 c7c5 g1f3 b8c6 f1b5 g8f6 b1c3 d8c7 e1g1 c6d4 f1e1 a7a6 b5f1 f6g4")
    );
    assert_eq!(g.status(), Status::Clean);
    assert!(
        comments(&g).contains("..Cd4 5.e5! Cxb5"),
        "{}",
        comments(&g)
    );
}

/// de/inselschach-1: `20.Sxe6 Aufgabe!!` ends the game; the analysis after it (`z.B.:
/// 20...Td8 21.Sc7+`) is notes, although its moves play on.
#[test]
fn resignation_word_ends_the_game() {
    let g = one(
        "1.e4 e5 2.Sf3 Sc6 3.Lb5 a6 4.Lxc6 Aufgabe!! Ein schöner Schluss.\n\
         Die Drohungen sind zahlreich, z.B.: 4...dxc6 5.Sxe5\n",
    );
    assert_eq!(main_line(&g), uci("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6"));
    assert!(comments(&g).contains("4...dxc6 5.Sxe5"), "{}", comments(&g));
}

/// fr/lestourtereaux-1: `17. Rf1 Dg5?!` / `Ff6 limitait la casse.`: a move that opens a
/// line of prose after the run is the note's subject when the game's move of that ply
/// comes later with its number (`18. Fxc4`); and `19. ... Df2+` written again after the
/// side line `19. Re2?? 19. ... Df2+ 20. Rd3 Cc5 mat.` is the game's move restated, not
/// that side line going on (the game's `20. Rh3` was read as the side line's).
#[test]
fn note_line_opening_on_a_move_and_black_move_restated() {
    let g = one(
        "1. e4 e5 2. Cc3 Cf6 3. f4 Cc6 4. Cf3 d6 5. d4 exd4 6. Cxd4 Fg4 7. Cxc6 bxc6 \
         8. Fe2 Fe6 9. Fe3 Tb8 10. Fxa7 Txb2 11. Fd4 Tb4 12. g4 Fe7 13. g5 Cd7 14. f5 Fc4 \
         15. Fxg7 Fxg5 16. Fxh8 Fh4+ 17. Rf1 Dg5?!\n\
         Ff6 limitait la casse.\n\
         18. Fxc4 Df4+ 19. Rg2\n\
         Seul coup : 19. Re2?? 19. ... Df2+ 20. Rd3 Cc5 mat.\n\
         19. ... Df2+ 20. Rh3 Txc4\n",
    );
    assert_eq!(
        main_line(&g),
        uci(
            "e2e4 e7e5 b1c3 g8f6 f2f4 b8c6 g1f3 d7d6 d2d4 e5d4 f3d4 c8g4 d4c6 b7c6 f1e2 g4e6 \
             c1e3 a8b8 e3a7 b8b2 a7d4 b2b4 g2g4 f8e7 g4g5 f6d7 f4f5 e6c4 d4g7 e7g5 g7h8 g5h4 \
             e1f1 d8g5 e2c4 g5f4 f1g2 f4f2 g2h3 b4c4"
        )
    );
    assert_eq!(g.status(), Status::Clean);
    assert!(comments(&g).contains("Ff6 limitait"), "{}", comments(&g));
}

/// it/chessbites-1: `… sacrificare il pedone b6. Ng5 25.Rh4`: a move that ends a sentence
/// and does not play here is the sentence's; the game's reply after it is the game's
/// (the run `b6. Ng5` failed on `b6` and the rest of the record was read as notes).
#[test]
fn sentence_ending_on_a_move_before_the_reply() {
    let g = one(
        "1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.c3 Qe7 5.O-O Nf6 6.d4 Bb6 7.Qd3 d6 8.Be3 O-O 9.Nbd2 Kh8 \
         10.Rae1 Ng4 11.Bg5 f6 12.Bh4 Nd8 13.h3 Nh6 14.Nh2 Ne6 15.Bxe6 Bxe6 16.Nc4 Qf7 \
         17.Nxb6 axb6 18.d5 Bd7 19.a3 Qh5 20.Bg3 f5 21.f3 Rf6 22.Bf2 Nf7 23.Qc4 fxe4 \
         24.Rxe4 Queste due mosse sventano il piano nero, che dovrebbe sacrificare il pedone b6. \
         Ng5 25.Rh4 Qg6\n",
    );
    let want = uci(
        "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 d8e7 e1g1 g8f6 d2d4 c5b6 d1d3 d7d6 c1e3 e8g8 \
         b1d2 g8h8 a1e1 f6g4 e3g5 f7f6 g5h4 c6d8 h2h3 g4h6 f3h2 d8e6 c4e6 c8e6 d2c4 e7f7 \
         c4b6 a7b6 d4d5 e6d7 a2a3 f7h5 h4g3 f6f5 f2f3 f8f6 g3f2 h6f7 d3c4 f5e4 e1e4 f7g5 \
         e4h4 h5g6",
    );
    assert_eq!(main_line(&g), want);
    assert!(comments(&g).contains("pedone b6."), "{}", comments(&g));
}
