//! The scoresheet CSV reader on any text: byte 0 picks `read_scoresheet` (even) or
//! `read_scoresheet_with_games` (odd; the text is split at its first NUL into the moves
//! file and the games file). Every span the reader makes (elements, tags, result,
//! cells, diagnostics) lies on character boundaries of the synthesized text; every game
//! read replays without panic, and the spans of the replayed game do too.
#![no_main]

use kyphu::archive::RawGame;
use kyphu::archive::csv::{read_scoresheet, read_scoresheet_with_games};
use kyphu::model::diag::Span;
use kyphu::model::game::Line;
use kyphu::replay::{ReplayOptions, replay};
use libfuzzer_sys::fuzz_target;

fn on_boundaries(text: &str, s: Span) -> bool {
    s.start <= s.end && text.get(s.start as usize..s.end as usize).is_some()
}

fn check_raw(raw: &RawGame) {
    let text = &raw.text;
    for e in &raw.movetext {
        assert!(on_boundaries(text, e.span()), "element span {e:?}");
        if let kyphu::archive::Element::Comment { body, .. } = e {
            assert!(on_boundaries(text, *body), "comment body {body:?}");
        }
    }
    for t in &raw.tags {
        for s in [t.span, t.name, t.value] {
            assert!(on_boundaries(text, s), "tag span {s:?}");
        }
    }
    if let Some((_, s)) = raw.result {
        assert!(on_boundaries(text, s), "result span {s:?}");
    }
    for d in &raw.diagnostics {
        if let Some(s) = d.span {
            assert!(
                on_boundaries(text, s),
                "diagnostic span {s:?} of {}",
                d.code
            );
        }
    }
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
    let text = String::from_utf8_lossy(rest);
    let games = if flags & 1 == 0 {
        read_scoresheet(&text)
    } else {
        let (moves, games) = text.split_once('\0').unwrap_or((&text, ""));
        read_scoresheet_with_games(moves, games)
    };
    for g in games {
        check_raw(&g.raw);
        for c in &g.cells {
            assert!(on_boundaries(&g.raw.text, c.span), "cell span {c:?}");
        }
        let game = replay(g.raw, &ReplayOptions::default());
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
