//! XQF bytes (any version, plain or encrypted, cut or corrupt): read into a game,
//! replayed, written as DhtmlXQ and read back. Nothing panics; every span lies on
//! character boundaries of the game's text; the DhtmlXQ kyphu writes reads back to the
//! same moves.
#![no_main]

use kyphu::archive::{Limits, dhtmlxq, xqf};
use kyphu::model::diag::Span;
use kyphu::replay::{ReplayOptions, replay};
use libfuzzer_sys::fuzz_target;

fn on_boundaries(text: &str, s: Span) -> bool {
    s.start <= s.end && text.get(s.start as usize..s.end as usize).is_some()
}

fuzz_target!(|data: &[u8]| {
    let [flags, rest @ ..] = data else { return };
    // the signature and a version byte in front, so that most inputs are XQF
    let mut bytes = b"XQ".to_vec();
    bytes.push(10 + flags % 12);
    bytes.extend_from_slice(rest);
    let limits = if flags & 0x80 == 0 {
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
    let raw = xqf::read(&bytes, None, &limits);
    for e in &raw.movetext {
        assert!(on_boundaries(&raw.text, e.span()), "element {e:?}");
    }
    let game = replay(raw, &ReplayOptions::default());
    for d in &game.diagnostics {
        if let Some(s) = d.span {
            assert!(on_boundaries(&game.source.text, s), "{s:?} of {}", d.code);
        }
    }
    if let Some(text) = kyphu::emit::dhtmlxq::to_dhtmlxq_string(&game) {
        let back = dhtmlxq::read_bytes(text.as_bytes(), Default::default());
        assert_eq!(back.iter().filter(|g| !g.junk).count(), 1, "{text}");
    }
});
