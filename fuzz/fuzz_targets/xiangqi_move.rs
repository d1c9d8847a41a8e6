//! One xiangqi move token in any dialect, read and played on a position. Byte 0 picks
//! the dialect (low 3 bits) and the position (the rest); the token is lossy UTF-8. A
//! move that reads is legal and is written back in the same dialect to a token that
//! reads to the same move.
#![no_main]

use kyphu::notation::xiangqi::{Dialect, Glyphs, check_syntax, read_play, read_play_many, write};
use kyphu::xiangqi::Position;
use libfuzzer_sys::fuzz_target;

const FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "3k5/4a4/4ba3/9/2b6/9/9/4B4/4A4/3AK4 w - - 0 1",
    "4k4/4P4/9/9/9/9/9/9/4p4/3K5 w - - 0 1",
    // tandem pieces: two rooks and three pawns on a file
    "3k5/9/9/4P4/4R4/4P4/4R4/4P4/9/3K5 w - - 0 1",
];

const DIALECTS: [Dialect; 8] = [
    Dialect::Iccs,
    Dialect::Chinese(Glyphs::Simplified),
    Dialect::Chinese(Glyphs::Traditional),
    Dialect::Wxf,
    Dialect::OldVietnamese,
    Dialect::Asian,
    Dialect::NewVietnamese,
    Dialect::Iccs,
];

fuzz_target!(|data: &[u8]| {
    let [sel, rest @ ..] = data else { return };
    let dialect = DIALECTS[usize::from(sel & 7)];
    let token = String::from_utf8_lossy(rest);
    let Ok(start) = Position::from_fen(FENS[usize::from(sel >> 3) % FENS.len()]) else {
        return;
    };
    let _ = check_syntax(&token, dialect);
    let mut many = start.clone();
    let _ = read_play_many(&token, dialect, &mut many);
    let mut pos = start.clone();
    match read_play(&token, dialect, &mut pos) {
        Ok(r) => {
            assert!(
                start.is_legal(r.mv),
                "played an illegal move from {token:?}"
            );
            let mut written = String::new();
            write(&mut written, &start, r.mv, dialect);
            let mut again = start.clone();
            let back = read_play(&written, dialect, &mut again).map(|r| r.mv);
            assert_eq!(back, Ok(r.mv), "{token:?} → {written:?} in {dialect}");
        }
        Err(_) => assert_eq!(pos, start, "position changed on error"),
    }
});
