//! Chess notation against real text: the FIDE seed's sample game in its three forms,
//! and render → read round trips over the corpus for every language table.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

mod common;

use kyphu::chess::{Move, Position};
use kyphu::notation::chess::syntax;
use kyphu::notation::chess::{
    CheckMark, PieceTable, Remark, SanStyle, infer_language, read_play, table, tables, write_long,
    write_san, write_uci,
};

/// A tiny movetext tokenizer for these tests only (the real PGN reader lives
/// elsewhere): drops tags, comments, variations, NAGs, move numbers, results and
/// draw offers; glues `e.p.` / `e. p.` to the move before it.
fn tokens(movetext: &str) -> Vec<String> {
    let mut clean = String::new();
    let (mut brace, mut paren) = (0u32, 0u32);
    for line in movetext.lines() {
        if line.starts_with('[') || line.starts_with('%') {
            continue;
        }
        for c in line.chars() {
            match c {
                '{' => brace += 1,
                '}' => brace = brace.saturating_sub(1),
                '(' if brace == 0 => paren += 1,
                ')' if brace == 0 && paren > 0 => paren -= 1,
                ';' if brace == 0 => break,
                _ if brace == 0 && paren == 0 => clean.push(c),
                _ => {}
            }
        }
        clean.push(' ');
    }
    let mut out: Vec<String> = Vec::new();
    let words: Vec<&str> = clean.split_whitespace().collect();
    let mut i = 0;
    while let Some(&w) = words.get(i) {
        i += 1;
        // a move number, glued (`1.e4`, `1...e5`) or alone (`9`, `12.`)
        let digits = w.trim_start_matches(|c: char| c.is_ascii_digit());
        let w = if digits.is_empty() || digits.starts_with('.') {
            digits.trim_start_matches('.')
        } else {
            w
        };
        if w.is_empty() || w.starts_with('$') || ["1-0", "0-1", "1/2-1/2", "*", "(=)"].contains(&w)
        {
            continue;
        }
        if w == "e." && words.get(i) == Some(&"p.") {
            i += 1;
            if let Some(last) = out.last_mut() {
                last.push_str(" e. p.");
            }
            continue;
        }
        if w == "e.p." || w == "ep" {
            if let Some(last) = out.last_mut() {
                last.push_str(" e.p.");
            }
            continue;
        }
        out.push(w.to_owned());
    }
    out
}

/// Games of a PGN file: (FEN or none, movetext).
fn games(text: &str) -> Vec<(Option<String>, String)> {
    let mut out = Vec::new();
    let mut fen = None;
    let mut moves = String::new();
    let mut in_moves = false;
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if line.starts_with('[') {
            if in_moves {
                out.push((fen.take(), std::mem::take(&mut moves)));
                in_moves = false;
            }
            if let Some(v) = line.strip_prefix("[FEN \"") {
                fen = v.strip_suffix("\"]").map(str::to_owned);
            }
        } else if !line.trim().is_empty() {
            in_moves = true;
            moves.push_str(line);
            moves.push('\n');
        }
    }
    if in_moves {
        out.push((fen, moves));
    }
    out
}

fn corpus() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if p.is_dir() {
        Some(p)
    } else {
        println!("skipping: ../shared/corpus absent");
        None
    }
}

/// Reads `toks` under `table` from `start`: the moves, or the index and error.
fn replay(start: &Position, toks: &[String], table: &PieceTable) -> Result<Vec<Move>, String> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match read_play(t, table, &mut pos) {
            Ok(r) => out.push(r.mv.expect("no null moves here")),
            Err(e) => return Err(format!("ply {}: {e}", i + 1)),
        }
    }
    Ok(out)
}

const SEED_FORM_1: &str = "1. e4 e5 2. Mf3 Mf6 3. d4 exd4 4. e5 Me4 5. Hxd4 d5 6. exd6 e.p. Mxd6 7. Tg5 Mc6 8. He3+ Te7 9. Mbd2 0-0 10. 0-0-0 Xe8 11. Vb1 (=)";
const SEED_FORM_2: &str = "1. e4 e5 2. Mf3 Mf6 3. d4 ed4 4. e5 Me4 5. Hd4 d5 6. ed6 Md6 7. Tg5 Mc6 8. He3 Te7 9 Mbd2 0-0 10. 0-0-0 Xe8 11. Vb1 (=)";
const SEED_FORM_3: &str = "e2e4 e7e5 2. Mg1f3 Mg8f6 3. d2d4 e5xd4 4. e4e5 Mf6e4 5. Hd1xd4 d7d5 6. e5xd6 e. p. Me4xd6 7. Tc1g5 Mb8c6 8. Hd4d3 Tf8e7 9. Mb1d2 0-0 10. 0-0-0 Xf8e8 11. Vb1 (=)";

#[test]
fn seed_sample_game_three_forms() {
    // the seed file holds the three forms verbatim: check we test its text
    if let Some(c) = corpus() {
        let seeds = c.join("../seeds");
        if let Some(seed) = std::fs::read_dir(&seeds)
            .ok()
            .and_then(|mut d| {
                d.find(|e| {
                    e.as_ref()
                        .is_ok_and(|e| e.file_name().to_string_lossy().starts_with("000_"))
                })
            })
            .and_then(Result::ok)
        {
            let text = std::fs::read_to_string(seed.path()).unwrap();
            for form in [SEED_FORM_1, SEED_FORM_2, SEED_FORM_3] {
                assert!(text.contains(form), "seed text changed: {form}");
            }
        }
    }
    let start = Position::default();
    let vi = table("vi").unwrap();
    let forms: Vec<Vec<String>> = [SEED_FORM_1, SEED_FORM_2, SEED_FORM_3]
        .iter()
        .map(|f| tokens(f))
        .collect();
    for f in &forms {
        assert_eq!(f.len(), 21, "{f:?}");
        let refs: Vec<&str> = f.iter().map(String::as_str).collect();
        let inf = infer_language(&start, &refs);
        assert_eq!(inf.table.code, "vi");
        assert!(inf.failure.is_none(), "{:?}", inf.failure);
    }
    let one = replay(&start, &forms[0], vi).unwrap();
    let two = replay(&start, &forms[1], vi).unwrap();
    let three = replay(&start, &forms[2], vi).unwrap();
    assert_eq!(one, two, "forms 1 and 2 are one game");
    let first_diff = one.iter().zip(&three).position(|(a, b)| a != b);
    // ply 15 is White's 8th move: He3+ against Hd4d3
    assert_eq!(first_diff, Some(14));
    let mut pos = start.clone();
    for m in &one[..14] {
        pos.play_unchecked(m);
    }
    let mut s = String::new();
    write_san(&mut s, &pos, &one[14], &SanStyle::fide(vi));
    assert_eq!(s, "He3+");
    s.clear();
    write_long(
        &mut s,
        &pos,
        &three[14],
        &SanStyle {
            check_marks: false,
            ..SanStyle::fide(vi)
        },
    );
    assert_eq!(s, "Hd4-d3");
    // e.p. in form 1 is an en passant capture; form 2's `He3` lacks its check mark
    let mut pos = start.clone();
    let mut warned = Vec::new();
    for t in &forms[1] {
        let r = read_play(t, vi, &mut pos).unwrap();
        if r.remarks.contains(Remark::CheckMark) {
            warned.push((t.clone(), r.gives));
        }
    }
    assert_eq!(warned, vec![("He3".to_owned(), CheckMark::Check)]);
}

/// Every style a language table can be written in, and read back under the table.
fn round_trip(start: &Position, moves: &[Move], table: &'static PieceTable, what: &str) {
    let styles = [
        SanStyle::fide(table),
        SanStyle {
            table,
            ..SanStyle::pgn()
        },
    ];
    for (fide, style) in [true, false].into_iter().zip(&styles) {
        let mut pos = start.clone();
        let mut buf = String::new();
        for (i, m) in moves.iter().enumerate() {
            buf.clear();
            write_san(&mut buf, &pos, m, style);
            // the fast path and the grammar agree on everything the fast path takes
            if let Some(f) = syntax::fast(&buf, table) {
                assert_eq!(
                    Ok(f),
                    syntax::parse_lenient(&buf, table),
                    "{} {buf}",
                    table.code
                );
            }
            let r = read_play(&buf, table, &mut pos)
                .unwrap_or_else(|e| panic!("{what} {} ply {}: {buf}: {e}", table.code, i + 1));
            assert_eq!(r.mv, Some(*m), "{what} {} ply {}: {buf}", table.code, i + 1);
            // the FIDE Laws' forms (`0-0`, `d8Q`) are noted as not PGN's SAN (issue 23);
            // nothing else is remarked on
            assert!(
                r.remarks.iter().all(|k| fide && k == Remark::FideForm),
                "{what} {} {buf}: {:?}",
                table.code,
                r.remarks
            );
        }
    }
    // long algebraic and UCI
    let mut pos = start.clone();
    let mut buf = String::new();
    for m in moves {
        for long in [true, false] {
            buf.clear();
            if long {
                write_long(&mut buf, &pos, m, &SanStyle::fide(table));
            } else {
                write_uci(&mut buf, &pos, m);
            }
            // UCI promotion letters are English whatever the game's language
            let t = table;
            let r = kyphu::notation::chess::read(&buf, t, &pos)
                .unwrap_or_else(|e| panic!("{what} {} {buf}: {e}", table.code));
            assert_eq!(r.mv, Some(*m), "{what} {} {buf}", table.code);
        }
        pos.play_unchecked(m);
    }
}

#[test]
fn language_probes_read_and_round_trip() {
    let Some(c) = corpus() else { return };
    let dir = c.join("chess/handmade-probes");
    let mut seen = 0;
    let mut reference: Option<Vec<Move>> = None;
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| (n.starts_with("lang-") || n == "en-reference.pgn") && n.ends_with(".pgn"))
        .collect();
    names.sort();
    for name in &names {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        // CP866 bytes: decoding is the text layer's job; here encoding_rs directly
        let text = if name.contains("cp866") {
            encoding_rs::IBM866.decode(&bytes).0.into_owned()
        } else {
            String::from_utf8(bytes).unwrap()
        };
        let (_, movetext) = games(&text).into_iter().next().unwrap();
        let toks = tokens(&movetext);
        let refs: Vec<&str> = toks.iter().map(String::as_str).collect();
        let start = Position::default();
        let inf = infer_language(&start, &refs);
        assert!(inf.failure.is_none(), "{name}: {:?}", inf.failure);
        let want = match name.as_str() {
            "en-reference.pgn" => "en",
            "lang-ru-utf8.pgn" | "lang-ru-cp866.pgn" => "ru",
            "lang-figurine.pgn" => "figurine",
            // Italian and Spanish letters are the same: a tie, Spanish preferred
            "lang-it.pgn" => {
                assert!(inf.is_tie() && inf.survivors.iter().any(|t| t.code == "it"));
                "es"
            }
            n => n.trim_start_matches("lang-").trim_end_matches(".pgn"),
        };
        assert_eq!(inf.table.code, want, "{name}");
        let moves = replay(&start, &toks, inf.table).unwrap();
        match &reference {
            None => reference = Some(moves.clone()),
            Some(r) => assert_eq!(r, &moves, "{name} differs from the other languages"),
        }
        for t in tables() {
            round_trip(&start, &moves, t, name);
        }
        seen += 1;
    }
    assert!(seen >= 12, "only {seen} language files");
}

#[test]
fn pgnmentor_games_round_trip_in_every_language() {
    let Some(c) = corpus() else { return };
    let dir = c.join("chess/pgnmentor");
    let mut n = 0;
    for file in ["Morphy.pgn", "Kasparov.pgn", "Philidor.pgn"] {
        let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
            continue;
        };
        for (fen, movetext) in games(&text).into_iter().take(25) {
            let start = match &fen {
                Some(f) => Position::from_fen(f).unwrap(),
                None => Position::default(),
            };
            let toks = tokens(&movetext);
            let moves = replay(&start, &toks, table("en").unwrap())
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            for t in tables() {
                round_trip(&start, &moves, t, file);
            }
            n += 1;
        }
    }
    assert!(n >= 25, "only {n} games");
}

#[test]
fn tokenizer() {
    assert_eq!(
        tokens("1.e4 {c} e5 (1... c5 2. Nf3) 2. Nf3 $1 exd6 e.p. 3. e5xd6 e. p. 1-0"),
        vec!["e4", "e5", "Nf3", "exd6 e.p.", "e5xd6 e. p."]
    );
}

/// The hand-made probes, one notation feature each: what kyphu reports for each
/// (codes of notes/warnings in order, then the error code if reading stops).
#[test]
fn handmade_probes() {
    let Some(c) = corpus() else { return };
    let dir = c.join("chess/handmade-probes");
    let cases: &[(&str, &[&str], Option<&str>)] = &[
        ("lowercase-pieces", &["lowercase-piece"; 5], None),
        ("over-disambiguated", &["non-canonical"; 3], None),
        ("null-moves", &["non-canonical"], None),
        ("castle-zeros", &["non-canonical"; 2], None),
        ("colon-capture", &["non-canonical"; 2], None),
        ("ep-suffix", &["non-canonical"], None),
        ("ep-suffix-glued", &["non-canonical"], None),
        ("bad-check-marks", &["check-mark"; 2], None),
        ("ambiguous", &[], Some("ambiguous-move")),
        ("illegal-move", &[], Some("illegal-move")),
        ("uci-in-movetext", &["non-canonical"; 4], None),
        ("reduced-algebraic", &["non-canonical"; 2], None),
        ("pawn-letter", &["non-canonical"; 2], None),
        ("promotion-forms", &["non-canonical"], None),
        ("long-algebraic", &["non-canonical"; 8], None),
        ("fen-setup", &[], None),
        ("chess960-castle", &[], None),
    ];
    let en = kyphu::notation::chess::english();
    for &(name, want_codes, want_err) in cases {
        let text = std::fs::read_to_string(dir.join(format!("{name}.pgn"))).unwrap();
        let (fen, movetext) = games(&text).into_iter().next().unwrap();
        let mut pos = match &fen {
            Some(f) if text.contains("[Variant \"Chess960\"]") => {
                Position::from_fen_chess960(f).unwrap()
            }
            Some(f) => Position::from_fen(f).unwrap(),
            None => Position::default(),
        };
        let mut codes = Vec::new();
        let mut err = None;
        for t in tokens(&movetext) {
            match read_play(&t, en, &mut pos) {
                Ok(r) => {
                    let mut d = Vec::new();
                    r.diagnostics(&t, &mut d);
                    codes.extend(d.iter().map(|d| d.code.as_str()));
                }
                Err(e) => {
                    println!("{name}: {e}");
                    err = Some(e.code().as_str());
                    break;
                }
            }
        }
        assert_eq!((codes.as_slice(), err), (want_codes, want_err), "{name}");
    }
}

/// En passant, promotion and under-promotion with capture, castling both ways, check:
/// written and read back under every table (no corpus needed).
#[test]
fn every_move_kind_round_trips() {
    let start = Position::from_fen("r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1").unwrap();
    let en = kyphu::notation::chess::english();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for uci in [
        "e5d6", "g2h1n", "b7b8r", "a8b8", "e1c1", "e8g8", "d6d7", "b8b1", "c1b1", "h1f2", "d7d8q",
    ] {
        let r = read_play(uci, en, &mut pos).unwrap_or_else(|e| panic!("{uci}: {e}"));
        moves.push(r.mv.unwrap());
    }
    for t in tables() {
        round_trip(&start, &moves, t, "every-kind");
    }
    // and the canonical English text of it
    let mut pos = start.clone();
    let mut out = Vec::new();
    for m in &moves {
        let mut s = String::new();
        kyphu::notation::chess::write_pgn_san(&mut s, &pos, m);
        pos.play_unchecked(m);
        out.push(s);
    }
    assert_eq!(
        out,
        [
            "exd6", "gxh1=N", "b8=R+", "Rxb8", "O-O-O", "O-O", "d7", "Rb1+", "Kxb1", "Nf2", "d8=Q"
        ]
    );
}

/// Issue 3: for every game in ../shared/corpus/chess and every language table, render
/// → read gives the identical move list (all four styles, main line as replayed by the
/// real reader; a partial game's resolved prefix counts).
#[test]
fn every_corpus_game_round_trips_in_every_table() {
    use kyphu::{
        archive::{ReadOptions, read_bytes},
        model::game::{AnyMove, StartPosition},
        replay::{ReplayOptions, replay as replay_game},
    };
    let Some(c) = corpus() else { return };
    let files = common::pgn_files(c.join("chess"));
    let mut games = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        for raw in read_bytes(&bytes, ReadOptions::default()) {
            let g = replay_game(raw, &ReplayOptions::default());
            let StartPosition::Chess(start) = &g.start else {
                continue;
            };
            let moves: Vec<Move> = g
                .moves
                .moves
                .iter()
                .map_while(|n| match n.mv {
                    AnyMove::Chess(m) => Some(m),
                    _ => None,
                })
                .collect();
            if !moves.is_empty() {
                games.push(((**start).clone(), moves, f.display().to_string()));
            }
        }
    }
    assert!(games.len() > 8000, "only {} games", games.len());
    let half = games.len() / 2;
    std::thread::scope(|s| {
        for part in [&games[..half], &games[half..]] {
            s.spawn(move || {
                for (start, moves, file) in part {
                    for t in tables() {
                        round_trip(start, moves, t, file);
                    }
                }
            });
        }
    });
}
