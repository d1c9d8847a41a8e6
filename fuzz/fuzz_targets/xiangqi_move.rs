//! One xiangqi move token, read and played on a position (byte 0 picks it).
#![no_main]

use kyphu::notation::xiangqi::{Dialect, read_play};
use kyphu::xiangqi::Position;
use libfuzzer_sys::fuzz_target;

const FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "3k5/4a4/4ba3/9/2b6/9/9/4B4/4A4/3AK4 w - - 0 1",
    "4k4/4P4/9/9/9/9/9/9/4p4/3K5 w - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let [p, rest @ ..] = data else { return };
    let token = String::from_utf8_lossy(rest);
    let Ok(start) = Position::from_fen(FENS[usize::from(*p) % FENS.len()]) else {
        return;
    };
    let mut pos = start.clone();
    match read_play(&token, Dialect::Iccs, &mut pos) {
        Ok(r) => assert!(
            start.is_legal(r.mv),
            "played an illegal move from {token:?}"
        ),
        Err(_) => assert_eq!(pos, start, "position changed on error"),
    }
});
