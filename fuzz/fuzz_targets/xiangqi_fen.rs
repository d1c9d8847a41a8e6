//! Xiangqi FEN: a position that parses writes a FEN that parses back to it.
#![no_main]

use kyphu::xiangqi::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(fen) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pos) = Position::from_fen(fen) {
        let written = pos.fen();
        let again = Position::from_fen(&written);
        assert_eq!(
            again.as_ref().ok(),
            Some(&pos),
            "{fen:?} → {written:?} → {again:?}"
        );
        let _ = pos.legal_moves();
    }
});
