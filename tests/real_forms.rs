//! Issue 25, the forms of the real-text corpus's chess records (`corpus/text/`): each
//! test is named after its record and its form, and failed on the code before the form
//! was read. The records themselves are checked by `tests/real_text.rs`.
#![allow(clippy::unwrap_used)]

mod common;

use common::forms::{game, movetext, problems, reads_clean};
use kyphu::Severity;

/// de/perceptiode-1: a German machine translation of a Russian page, the Russian
/// letters transliterated (`C` bishop, `K` knight, `Kp` king) beside the translated
/// `D` and `T`, without a Cyrillic letter anywhere (`grammars/chess-lookalikes.tsv`,
/// `de-ru`). Before: `K` was the king and `C` no letter, the game stopped at `Cf1-c4`.
#[test]
fn perceptiode_transliterated_russian_letters_in_a_german_text() {
    reads_clean(
        "1. e2-e4 e7-e5\n2. f2-f4 e5:f4\n3. Cf1-c4 Dd8-h4+\n4. Kpe1-f1 b7-b5\n5. Cc4:b5 Kg8-f6\n6. Kg1-f3 Dh4-h6\n7. d2-d3 Kf6-h5\n8. Kf3-h4 Dh6-g5\n9. Kh4-f5 c7-c6\n10. g2-g4 Kh5-f6\n11. Th1-g1\n",
        "1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 6. Nf3 Qh6 7. d3 Nh5 8. Nh4 Qg5 9. Nf5 c6 10. g4 Nf6 11. Rg1 *",
    );
    // an English record whose king walks to e2 and f1 is not read so: no `Kp`
    reads_clean(
        "1. e4 e5 2. Ke2 Nc6 3. Kf3 d6 *\n",
        "1. e4 e5 2. Ke2 Nc6 3. Kf3 d6 *",
    );
}

/// ru/litfond-2: a Russian book typed with Latin `K`, `C` and `Kp` for `К`, `С` and
/// `Кр`, whose only Cyrillic letters are prose and a `с` inside a square (`Kb1-с3`).
/// Before: the Latin rows were read only beside Cyrillic piece letters, and the game
/// stopped at `Cf1-c4`. The record's OCR slip `Kpel:f2` is its own error (the sidecar's
/// `stops-at`).
#[test]
fn litfond_latin_k_c_and_kp_without_cyrillic_piece_letters() {
    reads_clean(
        "1. e2-e4 e7-e5\n2. Cf1-c4 Kg8-f6\n3. Kg1-f3 Kf6:e4\n4. Kb1-с3 Ke4:f2\n5. Kpe1:f2 Cf8-c5+\n6. d2-d4 e5:d4\n",
        "1. e4 e5 2. Bc4 Nf6 3. Nf3 Nxe4 4. Nc3 Nxf2 5. Kxf2 Bc5+ 6. d4 exd4 *",
    );
    // an OCR `l` for the `1` before a capture's colon (`Kpel:f2`) after a line of prose
    // is the record's error, reported where it stands, not a word and its colon
    // (`line:1.`) read as prose: before, the reading went on past it and played
    // `6. d2-d4 e5:d4` as White's and Black's fifth moves
    let g = game(
        "1. e2-e4 e7-e5\n2. Cf1-c4 Kg8-f6\n3. Kg1-f3 Kf6:e4\n4. Kb1-с3 Ke4:f2\nЖертва не даёт атаки.\n73\nЧёрные получат три пешки.\n5. Kpel:f2 Cf8-c5+\n6. d2-d4 e5:d4\n",
    );
    assert_eq!(g.moves.moves.len(), 8, "{}", movetext(&g));
    let error = g
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .and_then(|d| d.span)
        .map(|s| s.slice(&g.source.text).to_owned());
    assert_eq!(error.as_deref(), Some("Kpel:f2"), "{:?}", problems(&g));
}

/// fr/correspondancesmaitrisees-1: a capture sign typed before the space (`dx e4`,
/// `Cx e4`) and a stray full stop before a move (`.Ff5`, kept as a comment). Before:
/// `dx` and `.Ff5` were no moves.
#[test]
fn correspondancesmaitrisees_capture_sign_before_a_space_and_a_stray_dot() {
    let g = game(
        "1 d4 Cf6 2 Cf3 d5 3 Cç3 .Ff5 4 Ff4 ç6 5 e3 e6 6 Fd3 Fxd3 7 D x d3 Fe7 8 e4 dx e4 9 Cx e4 Cxe4 10 D x e4 *\n",
    );
    assert_eq!(
        movetext(&g),
        "1. d4 Nf6 2. Nf3 d5 3. Nc3 {.} 3... Bf5 4. Bf4 c6 5. e3 e6 6. Bd3 Bxd3 7. Qxd3 Be7 8. e4 dxe4 9. Nxe4 Nxe4 10. Qxe4 *"
    );
    assert!(
        g.diagnostics.iter().all(|d| d.severity < Severity::Error),
        "{:?}",
        problems(&g)
    );
}

/// en/completechesseducation-1: each move pair a heading `Move N: White, Black`, the
/// number written with a colon. Before: `1:` was no move number and the record was
/// text between games.
#[test]
fn completechesseducation_move_numbers_with_a_colon() {
    let g = game(
        "Move 1: e4, e5\nBoth sides take the centre.\nMove 2: Nf3, d6\nWhite develops.\nMove 3: d4, exd4\n",
    );
    // the word `Move` is prose, kept as a comment; the stray dot too
    assert_eq!(
        movetext(&g),
        "{Move} 1. e4 e5 {Both sides take the centre. Move} 2. Nf3 d6 {White develops. Move} 3. d4 exd4 *",
        "{:?}",
        problems(&g)
    );
}

/// en/encyclopediachess-1: `n: White-Black`, White's and Black's moves joined by a dash
/// (`2: Nf3-Nc6`, `12: N×f7-0-0`), with pawn captures written with their files only
/// and the multiplication sign (`5: d4-e×d`). Before: `Nf3-Nc6` was no move and the
/// record read nothing.
#[test]
fn encyclopediachess_white_black_pairs_joined_by_a_dash() {
    let g = game(
        "The Petrov's immortal\n\nPlayed in Warsaw in 1844.  1: e4-e5 2: Nf3-Nc6 3: Bc4-bc5 Italian game  4: c3-Nf6 5: d4-e×d 6: e5-Ne4 7: Bd5-N×f2 8: K×f2-d×c+ 9: Kg3-c×b 10: B×b2-Ne7\n",
    );
    assert_eq!(
        g.moves.moves.len(),
        20,
        "{}: {:?}",
        movetext(&g),
        problems(&g)
    );
    let m = movetext(&g);
    assert!(
        m.contains("4. c3 {-} 4... Nf6 5. d4 {-} 5... exd4")
            && m.contains("9. Kg3 {-} 9... cxb2 10. Bxb2 {-} 10... Ne7"),
        "{m}"
    );
    // long algebraic is no pair: `e2-e4` stays one move
    reads_clean(
        "1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 *\n",
        "1. e4 e5 2. Nf3 Nc6 *",
    );
}
