//! `.zip` input: bytes read as a zip archive of game files (corrupt, cut, lying about
//! sizes, encrypted, nested), each entry's games read, replayed. Nothing panics, the
//! reading ends, every span lies on character boundaries, and every entry not read is
//! named `z.zip:entry`. With the first byte odd, the rest is split into files that are
//! zipped (the `zip` crate's writer) and read back: the games are those of the files
//! read one by one in name order, as a folder is read.
#![no_main]

use std::io::{Cursor, Write};

use kyphu::archive::{RawGame, ReadOptions, formats, zipfile};
use kyphu::model::diag::{Code, Span};
use kyphu::replay::{ReplayOptions, replay};
use libfuzzer_sys::fuzz_target;

fn on_boundaries(text: &str, s: Span) -> bool {
    s.start <= s.end && text.get(s.start as usize..s.end as usize).is_some()
}

/// Every item of the zip `bytes`, or `None` when it is not a readable zip.
fn read_zip(bytes: Vec<u8>) -> Option<Vec<RawGame>> {
    let (games, _) = zipfile::read(
        Box::new(Cursor::new(bytes)),
        "z.zip",
        ReadOptions::default(),
    )
    .ok()?;
    let mut out = Vec::new();
    for piece in games {
        match piece {
            Ok(p) => p.parse_into(&mut out),
            Err(e) => panic!("an entry's error must be an error game: {e}"),
        }
    }
    Some(out)
}

fn check(items: &[RawGame]) {
    for raw in items {
        for d in &raw.diagnostics {
            if d.code == Code::ArchiveEntryNotRead {
                assert!(d.message.starts_with("z.zip"), "{}", d.message);
            }
        }
        for e in &raw.movetext {
            assert!(on_boundaries(&raw.text, e.span()), "element {e:?}");
        }
        let game = replay(raw.clone(), &ReplayOptions::default());
        for d in &game.diagnostics {
            if let Some(s) = d.span {
                assert!(on_boundaries(&game.source.text, s), "{s:?} of {}", d.code);
            }
        }
    }
}

const NAMES: [&str; 4] = ["b.pgn", "a/c.xqf", "d.html", "e.csv"];

fuzz_target!(|data: &[u8]| {
    let [flags, rest @ ..] = data else { return };
    if flags & 1 == 0 {
        if let Some(items) = read_zip(rest.to_vec()) {
            check(&items);
        }
        return;
    }
    // split the rest at 0xFF bytes into up to four files, zip them, read them back
    let files: Vec<(&str, &[u8])> = NAMES
        .iter()
        .copied()
        .zip(rest.split(|&b| b == 0xff))
        .collect();
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let method = if flags & 2 == 0 {
        zip::CompressionMethod::Deflated
    } else {
        zip::CompressionMethod::Stored
    };
    let options = zip::write::SimpleFileOptions::default().compression_method(method);
    for (name, bytes) in &files {
        w.start_file(*name, options).unwrap();
        w.write_all(bytes).unwrap();
    }
    let zipped = w.finish().unwrap().into_inner();
    let items = read_zip(zipped).expect("a zip the writer made reads");
    check(&items);
    // the same as each file read alone, in name order (when every entry was read)
    if items.iter().any(|g| {
        g.diagnostics
            .iter()
            .any(|d| d.code == Code::ArchiveEntryNotRead)
    }) {
        return;
    }
    let mut sorted = files.clone();
    sorted.sort_by_key(|(n, _)| *n);
    let mut alone = Vec::new();
    for (name, bytes) in sorted {
        let format = formats::sniff(&bytes[..bytes.len().min(4096)], name);
        let Ok(pieces) = formats::pieces(
            format,
            Box::new(Cursor::new(bytes.to_vec())),
            name,
            ReadOptions::default(),
        ) else {
            return;
        };
        for p in pieces {
            let Ok(p) = p else { return };
            p.parse_into(&mut alone);
        }
    }
    assert_eq!(items, alone);
});
