//! Choosing the piece letters' language of a chess game never changes an answer: the
//! tables are tried by replay (the one that replays the whole game, else the one that
//! replays furthest), and every tie between tables that read different games is a
//! `language-tie` warning naming the readings (issue 24).
#![allow(clippy::unwrap_used)]

use kyphu::archive::read_str;
use kyphu::model::diag::Severity;
use kyphu::model::game::{AnyMove, Game};
use kyphu::replay::{ReplayOptions, replay};

fn one(text: &str) -> Game {
    let mut games = read_str(text);
    assert_eq!(games.len(), 1, "{text}");
    replay(games.remove(0), &ReplayOptions::default())
}

fn main_uci(g: &Game) -> Vec<String> {
    g.moves
        .moves
        .iter()
        .map(|n| match n.mv {
            AnyMove::Chess(m) => m.uci(false),
            AnyMove::Null => "--".into(),
            AnyMove::Xiangqi(m) => m.iccs(),
        })
        .collect()
}

/// The diagnostics of `g` as (code, severity, message).
fn diags(g: &Game) -> Vec<(&str, Severity, &str)> {
    g.diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.severity, d.message.as_str()))
        .collect()
}

/// French `R` is the king: `2. Re2` is the king's move (an English rook cannot move
/// there). Finnish reads `R` as a knight, which can: a tie between two games, warned.
#[test]
fn french_re2_is_a_king_move() {
    let g = one("1. e4 e5 2. Re2 *");
    assert_eq!(main_uci(&g), ["e2e4", "e7e5", "e1e2"]);
    assert_eq!(
        diags(&g),
        [(
            "language-tie",
            Severity::Warning,
            "the game replays as French, Finnish, as different games: move 2. Re2 is Ke2 as French and Ne2 as Finnish; chose French, the first in preference order"
        )]
    );
}

/// A French king walk in a letter English has too: French (a Finnish knight cannot
/// go from e2 to f3), the same game as in Spanish, Italian and Portuguese, whose
/// king is `R` too: a tie of one game, a note.
#[test]
fn french_king_walk_in_english_letters() {
    let g = one("1. e4 e5 2. Re2 Re7 3. Rf3 *");
    assert_eq!(main_uci(&g), ["e2e4", "e7e5", "e1e2", "e8e7", "e2f3"]);
    assert_eq!(
        diags(&g),
        [(
            "language-tie",
            Severity::Note,
            "the game replays as French, Spanish, Italian, Portuguese; chose French"
        )]
    );
}

/// Finnish `R` is the knight: `1. Rf3 d5 2. Rd4` is read as Finnish, not rejected as
/// English rook moves.
#[test]
fn finnish_rf3_is_a_knight_move() {
    let g = one("1. Rf3 d5 2. Rd4 Rf6 *");
    assert_eq!(main_uci(&g), ["g1f3", "d7d5", "f3d4", "g8f6"]);
    assert_eq!(
        diags(&g),
        [("language", Severity::Note, "piece letters read as Finnish")]
    );
}

/// `Rh3` is a rook in English and a knight in Finnish, and both are legal: the
/// promised `language-tie`, a warning naming both readings.
#[test]
fn h4_h5_rh3_rh6_is_a_language_tie() {
    let g = one("1. h4 h5 2. Rh3 Rh6 *");
    assert_eq!(main_uci(&g), ["h2h4", "h7h5", "h1h3", "h8h6"]);
    assert_eq!(
        diags(&g),
        [(
            "language-tie",
            Severity::Warning,
            "the game replays as English, Finnish, as different games: move 2. Rh3 is Rh3 as English and Nh3 as Finnish; chose English, the first in preference order"
        )]
    );
}

/// An English rook ending with one stray `T`: English replays furthest (eight plies),
/// so the game is English and the `T` is reported at move 5, not read as Finnish and
/// failed at ply 1.
#[test]
fn rook_ending_with_a_stray_t_is_english() {
    let g = one(
        "[FEN \"8/2k5/8/8/8/8/8/R3K3 w - - 0 1\"]\n\n1. Rd1 Kc6 2. Ke2 Kc5 3. Rd3 Kc4 4. Ke3 Kc5 5. Tc3+ Kd5 *",
    );
    assert_eq!(main_uci(&g).len(), 8);
    let codes: Vec<_> = g.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["unknown-piece"]);
    assert!(g.diagnostics[0].message.contains("Tc3+"));
    assert!(g.diagnostics[0].message.contains("English"));
    assert_eq!(g.unparsed.as_deref(), Some("Tc3+ Kd5"));
}

/// FIDE's explicit pawn letter, upper and lower case: replayed as English.
#[test]
fn fide_pawn_letters_replay() {
    let g = one("1. Pe4 e5 2. Pd4 pa5 *");
    assert_eq!(main_uci(&g), ["e2e4", "e7e5", "d2d4", "a7a5"]);
    assert!(g.diagnostics.iter().all(|d| d.severity != Severity::Error));
    assert!(
        g.diagnostics
            .iter()
            .all(|d| !d.code.as_str().starts_with("language"))
    );
}

/// `P` is a pawn in English and a knight (paard) in Dutch: two games, warned.
#[test]
fn d4_pf6_pf3_e6_warns_both_readings() {
    let g = one("1. d4 Pf6 2. Pf3 e6 *");
    assert_eq!(main_uci(&g), ["d2d4", "f7f6", "f2f3", "e7e6"]);
    let mut found = diags(&g);
    // (and the pawn letters' `non-canonical` notes)
    found.retain(|d| d.0.starts_with("language"));
    assert_eq!(
        found,
        [(
            "language-tie",
            Severity::Warning,
            "the game replays as English, Dutch, as different games: move 1... Pf6 is f6 as English and Nf6 as Dutch; chose English, the first in preference order"
        )]
    );
}

/// `V` is a king in Vietnamese and a queen in Hungarian: two games, warned.
#[test]
fn e4_e5_ve2_warns_both_readings() {
    let g = one("1. e4 e5 2. Ve2 *");
    assert_eq!(main_uci(&g), ["e2e4", "e7e5", "e1e2"]);
    assert_eq!(
        diags(&g),
        [(
            "language-tie",
            Severity::Warning,
            "the game replays as Vietnamese, Hungarian, as different games: move 2. Ve2 is Ke2 as Vietnamese and Qe2 as Hungarian; chose Vietnamese, the first in preference order"
        )]
    );
}

/// Letters every table that has them reads alike (`K` only) are not a tie: English,
/// nothing reported; a game with `N` or `Q` is English alone.
#[test]
fn shared_letters_read_alike_are_no_tie() {
    let g = one("1. e4 e5 2. Ke2 Ke7 *");
    assert_eq!(main_uci(&g).len(), 4);
    assert!(g.diagnostics.is_empty(), "{:?}", diags(&g));
    let g = one("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *");
    assert!(g.diagnostics.is_empty(), "{:?}", diags(&g));
}

/// A new language is data alone: Esperanto's letters (reĝo, damo, turo, kuriero,
/// ĉevalo), given as TSV rows at run time, read a game in it.
#[test]
fn a_new_language_is_data_alone() {
    use kyphu::chess::Position;
    use kyphu::notation::chess::{languages, read_play, table, with_extra_tables, write_pgn_san};
    assert!(table("eo").is_none());
    assert!(languages().iter().all(|l| l.code != "eo"));
    let rows = "eo\tEsperanto\tking\tR\n\
                eo\tEsperanto\tqueen\tD\n\
                eo\tEsperanto\trook\tT\n\
                eo\tEsperanto\tbishop\tK\n\
                eo\tEsperanto\tknight\tĈ\n";
    let tables = with_extra_tables(rows).unwrap();
    let eo = tables.iter().find(|t| t.code == "eo").unwrap();
    assert_eq!(
        (eo.name, eo.letters_display().as_str()),
        ("Esperanto", "R D T K Ĉ")
    );
    // the file's tables come first, unchanged
    assert_eq!(tables.first().map(|t| t.code), Some("en"));
    let mut pos = Position::default();
    let mut pgn = Vec::new();
    for token in [
        "e4", "e5", "Ĉf3", "Ĉc6", "Kb5", "a6", "O-O", "Ĉf6", "Te1", "Re7",
    ] {
        let before = pos.clone();
        let r = read_play(token, eo, &mut pos).unwrap();
        let mut san = String::new();
        write_pgn_san(&mut san, &before, &r.mv.unwrap());
        pgn.push(san);
    }
    assert_eq!(pgn.join(" "), "e4 e5 Nf3 Nc6 Bb5 a6 O-O Nf6 Re1 Ke7");
    // a row that is not one is an error naming its line
    let err = with_extra_tables("eo\tEsperanto\temperor\tI\n").unwrap_err();
    assert_eq!(err.line, 1);
}
