//! Chess FEN, standard and chess960 (Shredder/X-FEN castling): a position that
//! parses writes a FEN that parses back to the same position.
#![no_main]

use kyphu::chess::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(fen) = std::str::from_utf8(data) else {
        return;
    };
    for parse in [Position::from_fen, Position::from_fen_chess960] {
        if let Ok(pos) = parse(fen) {
            let written = pos.fen();
            let again = parse(&written);
            assert_eq!(
                again.as_ref().ok(),
                Some(&pos),
                "{fen:?} → {written:?} → {again:?}"
            );
            let _ = pos.legal_moves();
        }
    }
});
