//! A page with DhtmlXQ blocks (any bytes, any encoding): every block read, replayed
//! and written again. Nothing panics; every span lies on character boundaries; the
//! text outside the blocks is kept whole (the junk items and the blocks cover the
//! decoded page); a block kyphu writes reads back as one game.
#![no_main]

use kyphu::archive::{Limits, ReadOptions, dhtmlxq};
use kyphu::model::diag::Span;
use kyphu::replay::{ReplayOptions, replay};
use libfuzzer_sys::fuzz_target;

fn on_boundaries(text: &str, s: Span) -> bool {
    s.start <= s.end && text.get(s.start as usize..s.end as usize).is_some()
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
    let options = ReadOptions {
        encoding: None,
        limits,
    };
    let games = dhtmlxq::read_bytes(rest, options);
    let mut last_end = 0;
    for raw in games {
        assert!(raw.byte_start >= last_end, "items out of order");
        last_end = raw.byte_end;
        for e in &raw.movetext {
            assert!(on_boundaries(&raw.text, e.span()), "element {e:?}");
        }
        if raw.junk {
            continue;
        }
        let game = replay(raw, &ReplayOptions::default());
        for d in &game.diagnostics {
            if let Some(s) = d.span {
                assert!(on_boundaries(&game.source.text, s), "{s:?} of {}", d.code);
            }
        }
        if let Some(text) = kyphu::emit::dhtmlxq::to_dhtmlxq_string(&game) {
            let back = dhtmlxq::read_bytes(text.as_bytes(), options);
            assert_eq!(back.iter().filter(|g| !g.junk).count(), 1, "{text}");
        }
    }
});
