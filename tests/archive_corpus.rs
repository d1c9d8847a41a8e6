//! Runs the archive reader (splitter + decoding + PGN syntax) over every `*.pgn` file of
//! the shared corpus (`../shared/corpus` from the crate root): no panic, game counts
//! that match the files' `[Event ` lines, and the expected text of the encoding probes.

#![allow(clippy::unwrap_used)]

use std::{
    fs,
    path::{Path, PathBuf},
};

use kyphu::{
    archive::{ArchiveReader, RawGame, ReadOptions},
    text::EncodingSource,
};

fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: ../shared/corpus absent");
        None
    }
}

fn pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            pgn_files(&p, out);
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")) {
            out.push(p);
        }
    }
}

fn read(path: &Path) -> Vec<RawGame> {
    let file = fs::File::open(path).unwrap();
    ArchiveReader::new(std::io::BufReader::new(file), ReadOptions::default())
        .collect::<std::io::Result<_>>()
        .unwrap()
}

/// Lines that start (after indentation) with `[Event `.
fn event_lines(bytes: &[u8]) -> usize {
    bytes
        .split(|&b| b == b'\n' || b == b'\r')
        .map(|l| l.strip_prefix(b"\xef\xbb\xbf").unwrap_or(l))
        .filter(|l| l.trim_ascii_start().starts_with(b"[Event "))
        .count()
}

#[test]
fn every_corpus_file_reads() {
    let Some(dir) = corpus() else { return };
    let mut files = Vec::new();
    pgn_files(&dir, &mut files);
    assert!(files.len() > 100, "found only {} pgn files", files.len());
    let mut mismatches = Vec::new();
    let (mut total_games, mut total_junk) = (0, 0);
    for path in &files {
        let bytes = fs::read(path).unwrap();
        let games = read(path);
        let real: Vec<&RawGame> = games.iter().filter(|g| !g.junk).collect();
        total_games += real.len();
        total_junk += games.len() - real.len();
        for (i, g) in real.iter().enumerate() {
            assert_eq!(g.index, i as u64, "{}", path.display());
            for e in &g.movetext {
                let sp = e.span();
                assert!(sp.end as usize <= g.text.len(), "{}", path.display());
            }
        }
        // files with an Event tag in every game: one game per `[Event ` line
        let events = event_lines(&bytes);
        let with_event = real.iter().filter(|g| g.tag("Event").is_some()).count();
        if events > 0 && with_event == real.len() && events != real.len() {
            mismatches.push(format!(
                "{}: {} [Event lines, {} games",
                path.display(),
                events,
                real.len()
            ));
        }
    }
    eprintln!(
        "{} files, {total_games} games, {total_junk} junk items",
        files.len()
    );
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}

#[test]
fn well_formed_collections_count_exactly() {
    let Some(dir) = corpus() else { return };
    for name in [
        "chess/pgnmentor/Ashley.pgn",
        "chess/pgnmentor/Kasparov.pgn",
        "chess/pgnmentor/Morphy.pgn",
        "chess/pgn-reader-crate/lichess_db_100k.pgn",
        "chess/pgn-reader-crate/twic1599_100k.pgn",
    ] {
        let path = dir.join(name);
        let bytes = fs::read(&path).unwrap();
        let games = read(&path);
        assert!(games.iter().all(|g| !g.junk), "{name}");
        assert_eq!(games.len(), event_lines(&bytes), "{name}");
        for g in &games {
            assert!(g.result.is_some(), "{name} game {}", g.index);
            let errors: Vec<_> = g
                .diagnostics
                .iter()
                .filter(|d| !d.code.as_str().starts_with("encoding-"))
                .collect();
            assert!(errors.is_empty(), "{name} game {}: {errors:?}", g.index);
            // the Result tag agrees with the termination marker
            if let (Some(tag), Some((r, _))) = (g.tag("Result"), g.result) {
                assert_eq!(tag, r.as_str(), "{name} game {}", g.index);
            }
        }
    }
}

#[test]
fn encoding_probes_decode() {
    let Some(dir) = corpus() else { return };
    let probes = dir.join("chess/handmade-probes");
    for (file, white, source) in [
        ("enc-latin1.pgn", "Hübner, Robert", EncodingSource::Guessed),
        ("enc-utf8-bom.pgn", "Hübner, Robert", EncodingSource::Bom),
        ("enc-utf16le-bom.pgn", "Hübner, Robert", EncodingSource::Bom),
    ] {
        let games = read(&probes.join(file));
        assert_eq!(games.len(), 2, "{file}");
        assert_eq!(games[0].tag("White").as_deref(), Some(white), "{file}");
        assert_eq!(
            games[0].tag("Event").as_deref(),
            Some("Bad Wörishofen"),
            "{file}"
        );
        assert_eq!(games[0].decoding.source, source, "{file}");
        assert_eq!(games[1].tag("Event").as_deref(), Some("control"), "{file}");
    }
    // CP866 Russian piece letters decode to the same moves as the UTF-8 probe
    let cp866 = read(&probes.join("lang-ru-cp866.pgn"));
    let utf8 = read(&probes.join("lang-ru-utf8.pgn"));
    assert_eq!(cp866[0].decoding.encoding, encoding_rs::IBM866);
    let a: Vec<&str> = cp866[0].move_tokens().collect();
    let b: Vec<&str> = utf8[0].move_tokens().collect();
    assert_eq!(a, b);
    assert!(a.contains(&"Кf3"), "{a:?}");
}

/// The UTF-16LE probe with its BOM cut off, and the same text re-encoded as UTF-16BE
/// without one: told by its NULs, decoded to the same names, reported as guessed.
#[test]
fn utf16_without_bom_decodes() {
    let Some(dir) = corpus() else { return };
    let with_bom = fs::read(dir.join("chess/handmade-probes/enc-utf16le-bom.pgn")).unwrap();
    assert_eq!(&with_bom[..2], b"\xff\xfe");
    let le = with_bom[2..].to_vec();
    let be: Vec<u8> = le.chunks_exact(2).flat_map(|u| [u[1], u[0]]).collect();
    for (name, bytes, enc) in [
        ("le", le, encoding_rs::UTF_16LE),
        ("be", be, encoding_rs::UTF_16BE),
    ] {
        let games: Vec<RawGame> = ArchiveReader::new(&bytes[..], ReadOptions::default())
            .map(Result::unwrap)
            .collect();
        assert_eq!(games.len(), 2, "{name}");
        assert_eq!(
            games[0].tag("White").as_deref(),
            Some("Hübner, Robert"),
            "{name}"
        );
        assert_eq!(games[0].decoding.encoding, enc, "{name}");
        assert_eq!(games[0].decoding.source, EncodingSource::Guessed, "{name}");
        assert_eq!(games[1].tag("Event").as_deref(), Some("control"), "{name}");
    }
}

#[test]
fn handmade_probes_syntax() {
    let Some(dir) = corpus() else { return };
    let probes = dir.join("chess/handmade-probes");
    let first = |f: &str| read(&probes.join(f)).remove(0);
    let g = first("ep-suffix.pgn");
    assert!(g.move_tokens().any(|t| t == "exd6 e.p."));
    let g = first("cr-only-lines.pgn");
    assert_eq!(
        g.move_tokens().collect::<Vec<_>>(),
        ["e4", "e5", "Nf3", "Nc6"]
    );
    assert_eq!(read(&probes.join("cr-only-lines.pgn")).len(), 2);
    let g = first("tag-escapes.pgn");
    assert_eq!(g.tag("Event").as_deref(), Some("A \"quoted\" \\ name"));
    let g = first("unterminated-comment.pgn");
    assert!(
        g.diagnostics
            .iter()
            .any(|d| d.code == "unterminated-comment")
    );
    assert_eq!(read(&probes.join("unterminated-comment.pgn")).len(), 2);
    let g = first("percent-escape.pgn");
    assert!(
        g.movetext
            .iter()
            .any(|e| matches!(e, kyphu::archive::Element::Escape { .. }))
    );
    let results: Vec<_> = read(&probes.join("result-variants.pgn"))
        .iter()
        .map(|g| g.result.map(|r| r.0.as_str()))
        .collect();
    assert_eq!(results, [Some("1/2-1/2"), Some("1/2-1/2"), Some("0-1")]);
    let promos: Vec<String> = read(&probes.join("promotion-forms.pgn"))
        .iter()
        .map(|g| g.move_tokens().next().unwrap_or("").to_owned())
        .collect();
    assert!(promos.contains(&"a8(Q)".to_owned()), "{promos:?}");
}
