//! Writer round trip on any input: every game read from the bytes is written as PGN
//! (English SAN / ICCS) and as JSON; the PGN reads back to exactly one game with the
//! same variant and the same move tree, and no error.
#![no_main]

use kyphu::archive::{ReadOptions, read_bytes, read_str};
use kyphu::model::diag::Severity;
use kyphu::emit::{JsonOptions, PgnOptions, json::to_json_string, pgn::to_pgn_string};
use kyphu::model::game::{AnyMove, Line};
use kyphu::replay::{ReplayOptions, replay};
use libfuzzer_sys::fuzz_target;

fn moves(line: &Line) -> Vec<(usize, AnyMove)> {
    let mut out = Vec::new();
    let mut stack = vec![(line, 0usize, 0usize)];
    while let Some((l, depth, i)) = stack.pop() {
        let Some(m) = l.moves.get(i) else { continue };
        out.push((depth, m.mv));
        stack.push((l, depth, i + 1));
        for v in m.variations().iter().rev() {
            stack.push((v, depth + 1, 0));
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let options = ReplayOptions::default();
    for raw in read_bytes(data, ReadOptions::default()) {
        if raw.junk {
            continue;
        }
        let game = replay(raw, &options);
        let _ = to_json_string(&game, &JsonOptions::default());
        let written = to_pgn_string(&game, &PgnOptions::default());
        let raws: Vec<_> = read_str(&written).into_iter().filter(|r| !r.junk).collect();
        assert_eq!(raws.len(), 1, "{written}");
        for raw in raws {
            let again = replay(raw, &options);
            let errors: Vec<_> = again
                .diagnostics
                .iter()
                // text kept unread by the first pass stays an error (issue 22)
                .filter(|d| d.severity == Severity::Error && d.code != "unparsed-kept")
                .map(|d| (d.code, d.message.clone()))
                .collect();
            assert!(errors.is_empty(), "{errors:?} in\n{written}");
            assert_eq!(again.variant, game.variant, "{written}");
            assert_eq!(moves(&again.moves), moves(&game.moves), "{written}");
        }
    }
});
