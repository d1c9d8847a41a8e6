//! A whole file as bytes in any encoding: split, decode, parse and replay every game.
//! Checks the accounting (every non-junk game gets a status) and that every span of
//! every diagnostic and move lies on character boundaries of the game's text.
#![no_main]

use kyphu::archive::{Limits, ReadOptions, read_bytes};
use kyphu::model::diag::Span;
use kyphu::model::game::Line;
use kyphu::replay::{ReplayOptions, replay};
use libfuzzer_sys::fuzz_target;

fn on_boundaries(text: &str, s: Span) -> bool {
    s.start <= s.end && text.get(s.start as usize..s.end as usize).is_some()
}

fn check_line(text: &str, line: &Line) {
    let mut stack = vec![line];
    while let Some(l) = stack.pop() {
        for m in &l.moves {
            assert!(on_boundaries(text, m.span), "move span {:?}", m.span);
            stack.extend(m.variations().iter());
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let [flags, rest @ ..] = data else { return };
    let limits = if flags & 1 == 0 {
        Limits::default()
    } else {
        Limits {
            max_game_bytes: 2048,
            max_elements: 128,
            max_depth: 8,
            max_comment_bytes: 64,
            max_line_bytes: 256,
        }
    };
    let games = read_bytes(
        rest,
        ReadOptions {
            encoding: None,
            limits,
        },
    );
    for raw in games {
        let game = replay(raw, &ReplayOptions::default());
        let text = &game.source.text;
        for d in &game.diagnostics {
            if let Some(s) = d.span {
                assert!(
                    on_boundaries(text, s),
                    "diagnostic span {s:?} of {}",
                    d.code
                );
            }
        }
        check_line(text, &game.moves);
        let _ = game.status();
    }
});
