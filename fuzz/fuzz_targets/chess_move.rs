//! One chess move token in one language table: parse, then resolve on a position.
//! Byte 0 picks the table, byte 1 the position; the rest is the token (lossy UTF-8).
#![no_main]

use kyphu::chess::Position;
use kyphu::notation::chess::{parse, read, resolve, tables};
use libfuzzer_sys::fuzz_target;

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // castling both ways, promotions, en passant
    "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 30",
    "r3k2r/1P4P1/8/8/3Pp3/8/1p4p1/R3K2R b KQkq d3 0 30",
    // ambiguous knights and rooks
    "4k3/8/8/1N3N2/8/1N3N2/8/R3K2R w - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let [t, p, rest @ ..] = data else { return };
    let table = &tables()[usize::from(*t) % tables().len()];
    let token = String::from_utf8_lossy(rest);
    let Ok(pos) = Position::from_fen(FENS[usize::from(*p) % FENS.len()]) else {
        return;
    };
    if let Ok(san) = parse(&token, table)
        && let Ok(r) = resolve(&san, &pos, &token)
        && let Some(m) = r.mv
    {
        assert!(pos.is_legal(&m), "resolved an illegal move from {token:?}");
    }
    let _ = read(&token, table, &pos);
});
