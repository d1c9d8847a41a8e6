//! What `cli::input` and the scoresheet stream parse before anything is decoded, on any
//! bytes: the zstd frame follower (`ZstdFrames::follow`) gives the same verdict whatever
//! the reads the bytes come in (byte 0 picks the read size), never panics; the
//! scoresheet sniffer (`looks_like_scoresheet`) never panics; the streamed scoresheet
//! reader (`ScoresheetReader`, raw bytes: BOMs, legacy encodings, broken UTF-8) gives
//! games whose text holds every span it made.
#![no_main]

use kyphu::archive::csv::{ScoresheetReader, looks_like_scoresheet};
use kyphu::bytes::ZstdFrames;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&step, rest)) = data.split_first() else {
        return;
    };
    let mut whole = ZstdFrames::new(std::io::empty());
    let once = whole.follow(rest).is_ok();
    let mut split = ZstdFrames::new(std::io::empty());
    let mut ok = true;
    for chunk in rest.chunks(usize::from(step) + 1) {
        if split.follow(chunk).is_err() {
            ok = false;
            break;
        }
    }
    assert_eq!(once, ok, "the verdict depends on the reads");
    let _ = looks_like_scoresheet(rest);
    if let Ok(reader) = ScoresheetReader::new(rest, None) {
        for game in reader.flatten() {
            let text = &game.raw.text;
            for c in &game.cells {
                assert!(
                    text.get(c.span.start as usize..c.span.end as usize).is_some(),
                    "cell {c:?}"
                );
            }
        }
    }
});
