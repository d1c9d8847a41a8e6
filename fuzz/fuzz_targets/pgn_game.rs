//! The syntax of one PGN game (tags, movetext, comments, variations), with small
//! limits so the budgets are exercised too. Checks that every span lies on character
//! boundaries of the text and that variations are balanced.
#![no_main]

use kyphu::archive::{Element, Limits, parse_game};
use kyphu::model::diag::Span;
use libfuzzer_sys::fuzz_target;

fn on_boundaries(text: &str, s: Span) -> bool {
    s.start <= s.end && text.get(s.start as usize..s.end as usize).is_some()
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for limits in [
        Limits::default(),
        Limits {
            max_game_bytes: 4096,
            max_elements: 64,
            max_depth: 4,
            max_comment_bytes: 32,
            max_line_bytes: 256,
        },
    ] {
        let g = parse_game(text, &limits);
        let mut depth = 0i64;
        for e in &g.movetext {
            assert!(on_boundaries(text, e.span()), "element span {:?}", e.span());
            match e {
                Element::StartVariation { .. } => depth += 1,
                Element::EndVariation { .. } => depth -= 1,
                _ => {}
            }
            assert!(depth >= 0);
        }
        assert_eq!(depth, 0, "unbalanced variations");
        for t in &g.tags {
            assert!(on_boundaries(text, t.span));
        }
        for d in &g.diagnostics {
            if let Some(s) = d.span {
                assert!(
                    on_boundaries(text, s),
                    "diagnostic span {s:?} of {}",
                    d.code
                );
            }
        }
    }
});
