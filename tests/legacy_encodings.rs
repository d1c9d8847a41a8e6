//! The Vietnamese legacy encodings (VNI, TCVN3, VISCII, VIQR) by name and by guess, and
//! the repair of text decoded twice, through the public reader (issue 28).
//!
//! # Test files and tables
//!
//! `corpus/encodings/` holds 66 real Vietnamese names (players of the national chess and
//! xiangqi teams; `names.sources.tsv` gives the page of each) and games with them, in
//! UTF-8 (`games.utf8.pgn`) and in each encoding (`<encoding>/games.pgn`), written by
//! `corpus/encodings/tools/make_names.py` without kyphu's tables. Each table of
//! `grammars/encodings/` was checked against a published one:
//!
//! - VISCII: RFC 1456 Table 1 "VISCII 8-bit Encoding Table (v1.1)", and glibc's
//!   `VISCII` charmap (the test `viscii_and_tcvn3_agree_with_glibc` compares all 134
//!   rows with /usr/share/i18n/charmaps/VISCII.gz when present);
//! - TCVN3: TCVN 5712:1993 as tabulated in glibc's `TCVN5712-1` charmap (compared
//!   byte by byte below, where VN3 and glibc's VN1 agree: the 128 bytes 0x80–0xFF), and
//!   the xvnkb `tcvn.h` table;
//! - VNI: the VNI-Windows charts of vietunicode.sourceforge.net/charset/ and the `VNI`
//!   list of duydev/vietnamese-conversion `src/charsets.ts` (MIT), all 134 letters;
//! - VIQR: RFC 1456 section 5 (the mnemonics), all 134 letters composed as NFC.
//!
//! The mojibake cases are real doubly decoded names (`corpus/encodings/mojibake/`,
//! sources in its `names.sources.tsv`).
#![allow(clippy::unwrap_used)]

use std::io::Read;
use std::path::{Path, PathBuf};

use kyphu::archive::read_bytes;
use kyphu::model::diag::Code;
use kyphu::text::EncodingSource;
use kyphu::text::TextEncoding;
use kyphu::text::legacy::Legacy;
use kyphu::{Item, ReadOptions, ReplayOptions, read_games_with};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn corpus(path: &str) -> Vec<u8> {
    std::fs::read(root().join("corpus/encodings").join(path)).unwrap()
}

/// `(White, Black)` of every game of a UTF-8 PGN text.
fn players(text: &str) -> Vec<(String, String)> {
    read_bytes(text.as_bytes(), ReadOptions::default())
        .iter()
        .filter(|g| !g.junk)
        .map(|g| {
            (
                g.tag("White").unwrap().into_owned(),
                g.tag("Black").unwrap().into_owned(),
            )
        })
        .collect()
}

/// The expected players of `enc`'s games: the truth, but TCVN3 has no upper-case Ý.
fn expected(enc: Legacy) -> Vec<(String, String)> {
    let file = match enc {
        Legacy::Tcvn3 => "tcvn3/games.expected.utf8.pgn",
        _ => "games.utf8.pgn",
    };
    players(&String::from_utf8(corpus(file)).unwrap())
}

fn dir(enc: Legacy) -> &'static str {
    match enc {
        Legacy::Vni => "vni",
        Legacy::Tcvn3 => "tcvn3",
        Legacy::Viscii => "viscii",
        Legacy::Viqr => "viqr",
    }
}

/// Every game of each encoding's file, read without `--encoding`, is decoded with that
/// encoding (guessed) to the NFC names; and the same with the encoding given.
#[test]
fn legacy_files_are_guessed_and_decoded_to_nfc() {
    for enc in Legacy::ALL {
        let bytes = corpus(&format!("{}/games.pgn", dir(enc)));
        let want = expected(enc);
        for forced in [None, Some(TextEncoding::Legacy(enc))] {
            let options = ReadOptions {
                encoding: forced,
                ..ReadOptions::default()
            };
            let games: Vec<_> = read_bytes(&bytes, options)
                .into_iter()
                .filter(|g| !g.junk)
                .collect();
            assert_eq!(games.len(), want.len(), "{}", enc.name());
            for (g, (white, black)) in games.iter().zip(&want) {
                assert_eq!(
                    g.tag("White").as_deref(),
                    Some(white.as_str()),
                    "{}",
                    enc.name()
                );
                assert_eq!(
                    g.tag("Black").as_deref(),
                    Some(black.as_str()),
                    "{}",
                    enc.name()
                );
                assert_eq!(g.decoding.encoding, TextEncoding::Legacy(enc), "{forced:?}");
                let source = if forced.is_some() {
                    EncodingSource::Forced
                } else {
                    EncodingSource::Guessed
                };
                assert_eq!(g.decoding.source, source, "{}", enc.name());
            }
        }
    }
}

/// The encoding used is what a game reports (`source.encoding`, shown in the summary
/// and the JSON `encoding` field), and a guess is noted.
#[test]
fn the_encoding_is_reported_per_game() {
    let bytes = corpus("viscii/games.pgn");
    let games: Vec<_> = read_games_with(
        &bytes[..],
        ReadOptions::default(),
        &ReplayOptions::default(),
    )
    .map(|i| match i.unwrap() {
        Item::Game(g) | Item::NonGame(g) => g,
    })
    .collect();
    assert!(!games.is_empty());
    for g in &games {
        assert_eq!(g.source.encoding, Some("VISCII"));
        assert!(
            g.diagnostics
                .iter()
                .any(|d| d.code == Code::EncodingGuessed)
        );
    }
}

/// Names in windows-1252 (European players' names) are never read as a Vietnamese
/// legacy encoding, one game or many.
#[test]
fn windows_1252_is_not_guessed_vietnamese() {
    let names = [
        "Hübner, Robert",
        "Pähtz, Elisabeth",
        "Blübaum, Matthias",
        "André, François",
        "Sánchez, Peña",
        "Gonçalves, João",
        "Åström, Øystein",
        "Müller, Jörg",
        "Fernández, Ángel",
        "Lévêque, Hélène",
        "Großmann, Jürgen",
        "Ibáñez, Iñaki",
        "Dvořák",
        "Würishofen",
        "Cañete",
        "Nöel Désiré",
    ];
    let mut text = String::new();
    for (i, pair) in names.chunks(2).enumerate() {
        let black = pair.get(1).unwrap_or(&"?");
        text.push_str(&format!(
            "[Event \"Open\"]\n[Round \"{i}\"]\n[White \"{}\"]\n[Black \"{black}\"]\n\n1. e4 e5 *\n\n",
            pair[0]
        ));
    }
    // Dvořák has no windows-1252 byte for ř: drop it
    let text = text.replace('ř', "r");
    let (bytes, _, bad) = encoding_rs::WINDOWS_1252.encode(&text);
    assert!(!bad);
    for g in read_bytes(&bytes, ReadOptions::default()) {
        assert_eq!(
            g.decoding.encoding,
            TextEncoding::Std(encoding_rs::WINDOWS_1252),
            "{:?}",
            g.tag("White")
        );
    }
}

/// Plain ASCII PGN is never read as VIQR, even with apostrophes, question marks and
/// dots after vowels in its tags (`O'Kelly`, `Addison`, `?`).
#[test]
fn ascii_is_not_guessed_viqr() {
    let text = "[Event \"Hoogovens?\"]\n[White \"O'Kelly de Galway, Alberto\"]\n[Black \"Addison, William\"]\n[Annotator \"Dd. Lee, e.g.\"]\n\n1. e4 e5 *\n\n";
    for g in read_bytes(text.repeat(20).as_bytes(), ReadOptions::default()) {
        assert_eq!(g.decoding.encoding, TextEncoding::Std(encoding_rs::UTF_8));
        assert_eq!(
            g.tag("White").as_deref(),
            Some("O'Kelly de Galway, Alberto")
        );
    }
}

/// Every file of the shared corpus `.pgn` `.txt` `.html` `.epd` (3,600 files, real
/// archives in many scripts and encodings) is read: no game is decoded with a
/// Vietnamese legacy encoding (none of them is in one), and no tag value or comment
/// holds text decoded twice (none does: the repair changes nothing).
#[test]
fn the_shared_corpus_is_never_guessed_vietnamese_nor_repaired() {
    let top = root().join("../shared/corpus");
    if !top.is_dir() {
        eprintln!(
            "note: ../shared/corpus absent: the_shared_corpus_is_never_guessed_vietnamese_nor_repaired skipped"
        );
        return;
    }
    let mut files: Vec<PathBuf> = Vec::new();
    let mut dirs = vec![top];
    while let Some(d) = dirs.pop() {
        for p in std::fs::read_dir(&d).unwrap().flatten().map(|e| e.path()) {
            if p.is_dir() {
                dirs.push(p);
            } else if p
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| matches!(e, "pgn" | "txt" | "html" | "epd"))
            {
                files.push(p);
            }
        }
    }
    let (mut games, mut legacy_games, mut values, mut repaired) = (0, Vec::new(), 0, Vec::new());
    let mut guessed = std::collections::BTreeMap::new();
    for path in &files {
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .unwrap()
            .read_to_end(&mut bytes)
            .unwrap();
        for g in read_bytes(&bytes, ReadOptions::default()) {
            games += 1;
            if g.decoding.source == EncodingSource::Guessed {
                *guessed.entry(g.decoding.encoding.name()).or_insert(0) += 1;
            }
            if let TextEncoding::Legacy(_) = g.decoding.encoding {
                legacy_games.push(format!("{} game {}", path.display(), g.index));
            }
            let comments = g.movetext.iter().filter_map(|e| match e {
                kyphu::archive::Element::Comment { body, .. } => Some(g.slice(*body).to_owned()),
                _ => None,
            });
            for text in g
                .tags
                .iter()
                .map(|t| g.tag_value(t).into_owned())
                .chain(comments)
            {
                values += 1;
                if let Some((fixed, _)) = kyphu::text::mojibake::repair(&text) {
                    repaired.push(format!("{}: {text:?} -> {fixed:?}", path.display()));
                }
            }
        }
    }
    eprintln!(
        "{} files, {games} games, guessed encodings {guessed:?}; {values} tag values and comments, {} repaired",
        files.len(),
        repaired.len()
    );
    assert!(files.len() > 3000, "{}", files.len());
    assert!(legacy_games.is_empty(), "{legacy_games:?}");
    assert!(repaired.is_empty(), "{repaired:#?}");
}

/// Real doubly decoded names in tags and a comment are repaired, with one
/// `mojibake-repaired` warning per game; correctly decoded games are left alone.
#[test]
fn mojibake_in_tags_and_comments_is_repaired_per_game() {
    let read = |bytes: &[u8]| -> Vec<kyphu::Game> {
        read_games_with(bytes, ReadOptions::default(), &ReplayOptions::default())
            .map(|i| match i.unwrap() {
                Item::Game(g) | Item::NonGame(g) => g,
            })
            .collect()
    };
    // every kind of cases.tsv: windows-1252, Latin-1, twice, windows-1251, and clean
    // names (`SÃO PAULO`-like) that must stay as they are
    let cases = String::from_utf8(corpus("mojibake/cases.tsv")).unwrap();
    let mut kinds = std::collections::BTreeMap::new();
    for row in cases.lines().skip(1) {
        let c: Vec<&str> = row.split('\t').collect();
        let got = kyphu::text::mojibake::repair(c[1]).map_or_else(|| c[1].to_owned(), |r| r.0);
        assert_eq!(got, c[2], "{row}");
        assert_eq!(kyphu::text::mojibake::repair(c[2]), None, "{row}");
        *kinds.entry(c[0]).or_insert(0) += 1;
    }
    eprintln!("mojibake cases: {kinds:?}");
    let got = read(&corpus("mojibake/games.pgn"));
    let want = read(&corpus("mojibake/games.expected.pgn"));
    assert_eq!(got.len(), want.len());
    let mut flagged = 0;
    for (g, w) in got.iter().zip(&want) {
        let tags: Vec<_> = g.tags.iter().collect();
        let wtags: Vec<_> = w.tags.iter().collect();
        assert_eq!(tags, wtags);
        let notes = g
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::MojibakeRepaired)
            .count();
        let changed = g.source.text != w.source.text;
        assert_eq!(notes, usize::from(changed), "{:?}", g.tags.get("White"));
        flagged += notes;
        // the expected (clean) file is never touched
        assert!(
            w.diagnostics
                .iter()
                .all(|d| d.code != Code::MojibakeRepaired)
        );
    }
    eprintln!("mojibake: {flagged} of {} games repaired", got.len());
    assert!(flagged >= 40, "{flagged}");
    // a comment too, and the warning points at the first repaired text
    let text = "[White \"MÃ¼ller, JÃ¶rg\"]\n[Black \"Lê Quang Liêm\"]\n\n1. e4 {RenÃ© MÃ¼ller liked it} e5 *\n";
    let g = &read(text.as_bytes())[0];
    assert_eq!(g.tags.get("White"), Some("Müller, Jörg"));
    assert_eq!(g.tags.get("Black"), Some("Lê Quang Liêm"));
    assert_eq!(g.moves.moves[0].comments(), ["René Müller liked it"]);
    let d: Vec<_> = g
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::MojibakeRepaired)
        .collect();
    assert_eq!(d.len(), 1);
    assert!(
        d[0].message.contains("4 characters in 2 places"),
        "{}",
        d[0].message
    );
    let span = d[0].span.unwrap();
    assert_eq!(
        &g.source.text[span.start as usize..span.end as usize],
        "MÃ¼ller, JÃ¶rg"
    );
}

/// VISCII and TCVN3 tables against glibc's charmaps (an independent published
/// transcription), when the machine has them.
#[test]
fn viscii_and_tcvn3_agree_with_glibc() {
    for (enc, file, first) in [
        (Legacy::Viscii, "VISCII.gz", 0x00u8),
        (Legacy::Tcvn3, "TCVN5712-1.gz", 0x80u8),
    ] {
        let path = Path::new("/usr/share/i18n/charmaps").join(file);
        let Ok(gz) = std::fs::read(&path) else {
            eprintln!(
                "note: {} absent: the {} check is skipped",
                path.display(),
                enc.name()
            );
            continue;
        };
        let mut text = String::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_string(&mut text)
            .unwrap();
        let mut checked = 0;
        for line in text.lines() {
            // <U1EA0>     /xd5         LATIN CAPITAL LETTER A WITH DOT BELOW
            let mut cols = line.split_whitespace();
            let (Some(u), Some(b)) = (cols.next(), cols.next()) else {
                continue;
            };
            let (Some(u), Some(b)) = (
                u.strip_prefix("<U").and_then(|u| u.strip_suffix('>')),
                b.strip_prefix("/x"),
            ) else {
                continue;
            };
            if b.contains('/') {
                continue;
            }
            let (Ok(u), Ok(b)) = (u32::from_str_radix(u, 16), u8::from_str_radix(b, 16)) else {
                continue;
            };
            if b < first || (b < 0x80 && !matches!(b, 0x02 | 0x05 | 0x06 | 0x14 | 0x19 | 0x1E)) {
                continue;
            }
            let ch = char::from_u32(u).unwrap();
            let (ours, _) = kyphu::text::legacy::decode(&[b], enc);
            let theirs: String = kyphu::text::nfc(ch.to_string());
            assert_eq!(ours, theirs, "{} byte {b:02X}", enc.name());
            checked += 1;
        }
        eprintln!("{}: {checked} bytes agree with glibc {file}", enc.name());
        assert!(checked >= 128, "{} {checked}", enc.name());
    }
}
