//! Xiangqi notations against real text: the Vietnamese law's examples (Art. 11.2,
//! Appendix 3, Art. 24), the real corpus replayed through the archive and replay
//! layers, and write → read round trips in every dialect.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use kyphu::archive::{ReadOptions, read_bytes};
use kyphu::model::game::{AnyMove, Game, StartPosition};
use kyphu::notation::xiangqi::{
    Dialect, Glyphs, check_syntax, infer_dialect, read_play, read_play_many, split_moves, write,
};
use kyphu::replay::{ReplayOptions, replay};
use kyphu::xiangqi::{Move, Position};

fn iccs_line(start: &Position, dialect: Dialect, moves: &[String]) -> Vec<String> {
    let mut pos = start.clone();
    moves
        .iter()
        .map(|t| {
            read_play(t, dialect, &mut pos)
                .unwrap_or_else(|e| panic!("{t}: {}", e.message))
                .mv
                .iccs()
        })
        .collect()
}

#[test]
fn art_11_2_marks_and_words() {
    let start = Position::default();
    let want = ["h2e2", "b9c7", "b0c2", "h7e7"];
    let marks = split_moves("1) P2-5 M2.3\n2) M8.7 P8-5");
    assert_eq!(iccs_line(&start, Dialect::OldVietnamese, &marks), want);
    // the word form as the law prints it; spaces split words, split_moves joins them
    let words = split_moves("1) Pháo2 bình 5 Mã 2 tiến 3\n2) Mã8 tiến 7 Pháo 8 bình 5");
    assert_eq!(words.len(), 4, "{words:?}");
    assert_eq!(iccs_line(&start, Dialect::OldVietnamese, &words), want);
    let bare = split_moves("1) Phao2 binh 5 Ma 2 tien 3 2) Ma8 tan 7 Phao 8 binh 5");
    assert_eq!(iccs_line(&start, Dialect::OldVietnamese, &bare), want);
    let toks: Vec<&str> = marks.iter().map(String::as_str).collect();
    assert_eq!(infer_dialect(&start, &toks).0, Dialect::OldVietnamese);
}

/// `12) Pt/1 Bg.1 13) Xs.2 Bt-3` in a position where they apply: two red cannons on
/// h, three black soldiers on d, two red chariots on a.
#[test]
fn art_11_2_tandem() {
    let start = Position::from_fen("5k3/9/9/9/7C1/R2p5/3p3C1/9/R2p5/4K4 w - - 0 1").unwrap();
    let toks = split_moves("12) Pt/1 Bg.1\n13) Xs.2 Bt-3");
    assert_eq!(
        iccs_line(&start, Dialect::OldVietnamese, &toks),
        ["h5h4", "d3d2", "a1a3", "d1c1"]
    );
    // the same moves written in every dialect read back the same
    let expect = [
        (
            Dialect::Chinese(Glyphs::Simplified),
            "前炮退一 中卒进1 后车进二 前卒平3",
        ),
        (
            Dialect::Chinese(Glyphs::Traditional),
            "前炮退一 中卒進1 後車進二 前卒平3",
        ),
        (Dialect::Wxf, "C+-1 P4+1 R-+2 P+.3"),
        (Dialect::OldVietnamese, "Pt/1 Bg.1 Xs.2 Bt-3"),
        (Dialect::Asian, "Pt.1 Bg+1 Xs+2 Bt=3"),
        (Dialect::NewVietnamese, "P5h4 Bd2 X1a3 Bc1"),
        (Dialect::Iccs, "h5h4 d3d2 a1a3 d1c1"),
    ];
    for (d, text) in expect {
        let line = written(&start, d, &["h5h4", "d3d2", "a1a3", "d1c1"]);
        let folded: String = line
            .chars()
            .map(|c| match c {
                '１'..='９' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
                _ => c,
            })
            .collect();
        assert_eq!(folded, text, "{d}");
        let toks: Vec<String> = line.split(' ').map(String::from).collect();
        assert_eq!(
            iccs_line(&start, d, &toks),
            ["h5h4", "d3d2", "a1a3", "d1c1"],
            "{d}"
        );
    }
}

fn written(start: &Position, d: Dialect, iccs: &[&str]) -> String {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for m in iccs {
        let mv = Move::parse_iccs(m).unwrap();
        let mut s = String::new();
        write(&mut s, &pos, mv, d);
        out.push(s);
        pos.play(mv).unwrap();
    }
    out.join(" ")
}

/// Appendix 3: `Trắng: Te0 Sd0 Sf0 Ve2 Xf8 / Đen: Te9 Sd9 Mb2 Ba4 Bb4`; old
/// `1. X4-7 B2.1` is new `1. Xc8 Bb3`.
#[test]
fn appendix_3_old_and_new() {
    let start = Position::from_fen("3ak4/5R3/9/9/9/pp7/9/1n2B4/9/3AKA3 w - - 0 1").unwrap();
    let old = iccs_line(&start, Dialect::OldVietnamese, &split_moves("1. X4-7 B2.1"));
    let new = iccs_line(&start, Dialect::NewVietnamese, &split_moves("1. Xc8 Bb3"));
    assert_eq!(old, ["f8c8", "b4b3"]);
    assert_eq!(old, new);
    assert_eq!(
        written(&start, Dialect::NewVietnamese, &["f8c8", "b4b3"]),
        "Xc8 Bb3"
    );
    assert_eq!(
        written(&start, Dialect::OldVietnamese, &["f8c8", "b4b3"]),
        "X4-7 B2.1"
    );
    // and the appendix's opening example, `1. Phe2 Mg7 2. Pb1 Bg5`
    let opening = split_moves("1. Phe2 Mg7 2. Pb1 Bg5");
    assert_eq!(
        iccs_line(&Position::default(), Dialect::NewVietnamese, &opening),
        ["h2e2", "h9g7", "b2b1", "g6g5"]
    );
}

/// Art. 24's move lists (diagrams not given, so syntax only): every move parses in
/// the old Vietnamese notation except the printing slips listed here.
#[test]
fn art_24_move_lists_parse() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/seeds");
    let Some(file) = std::fs::read_dir(&seeds).ok().and_then(|d| {
        d.filter_map(Result::ok).map(|e| e.path()).find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("004_"))
        })
    }) else {
        println!("skipping: ../shared/seeds absent");
        return;
    };
    let text = std::fs::read_to_string(file).unwrap();
    let body = text
        .split("Điều 24.")
        .nth(2)
        .or_else(|| text.split("Điều 24.").nth(1))
        .unwrap();
    let body = body.split("Điều 25.").next().unwrap();
    let mut ok = 0;
    let mut bad = Vec::new();
    for line in body.lines() {
        let t = line.trim_start();
        let numbered = t.chars().next().is_some_and(|c| c.is_ascii_digit())
            && t.trim_start_matches(|c: char| c.is_ascii_digit())
                .starts_with(['.', ')'])
            && !t.starts_with("24.");
        if !numbered {
            continue;
        }
        for m in split_moves(t) {
            match check_syntax(&m, Dialect::OldVietnamese) {
                Ok(1) => ok += 1,
                _ => bad.push(m),
            }
        }
    }
    println!("Art. 24: {ok} moves parse; {} do not: {bad:?}", bad.len());
    assert!(ok > 1000, "{ok}");
    // printing slips: `Tg/1` (file left out), `Bl-2` (letter l for 1), `P6-5Hình`
    // (caption glued), `...` tails; a handful at most
    assert!(bad.len() * 100 < ok, "{bad:?}");
}

// ------------------------------------------------------------------ corpus

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/xiangqi")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if !p
            .file_name()
            .is_some_and(|n| n.to_string_lossy().ends_with(".md"))
        {
            out.push(p);
        }
    }
}

/// Adds `[Game "Chinese Chess"]` before each `[Event` of a file that names no game
/// kind (wukong xqdb): the replay layer reads such games as chess.
fn with_game_tag(bytes: &[u8]) -> Vec<u8> {
    if bytes.windows(6).any(|w| w == b"[Game ") || !bytes.windows(5).any(|w| w == b"[Red ") {
        return bytes.to_vec();
    }
    let text = String::from_utf8_lossy(bytes);
    text.replace("[Event ", "[Game \"Chinese Chess\"]\n[Event ")
        .into_bytes()
}

fn main_line(g: &Game) -> Vec<Move> {
    g.moves
        .moves
        .iter()
        .filter_map(|n| match n.mv {
            AnyMove::Xiangqi(m) => Some(m),
            _ => None,
        })
        .collect()
}

#[test]
fn corpus_reads_and_round_trips() {
    let dir = corpus_dir();
    if !dir.exists() {
        println!("skipping: ../shared/corpus absent");
        return;
    }
    let mut paths = Vec::new();
    files(&dir, &mut paths);
    let mut games = 0usize;
    let mut xq_games = 0usize;
    let mut complete = 0usize;
    let mut plies = 0usize;
    let mut failures: Vec<String> = Vec::new();
    let mut classes: BTreeMap<String, usize> = BTreeMap::new();
    let mut notes: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut dialects: BTreeMap<String, usize> = BTreeMap::new();
    let mut round_trip_errors: Vec<String> = Vec::new();
    let mut round_trips = 0usize;
    let mut not_xiangqi: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let rel = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        let raws = read_bytes(&with_game_tag(&bytes), ReadOptions::default());
        for raw in raws {
            games += 1;
            let index = raw.index;
            let tokens: Vec<String> = raw.move_tokens().map(String::from).collect();
            let g = replay(raw, &ReplayOptions::default());
            let StartPosition::Xiangqi(start) = &g.start else {
                let why = g.diagnostics.first().map_or(String::new(), |d| {
                    format!(
                        "{}: {}",
                        d.code,
                        d.message.chars().take(80).collect::<String>()
                    )
                });
                not_xiangqi.entry(rel.clone()).or_default().push(why);
                continue;
            };
            xq_games += 1;
            let toks: Vec<&str> = tokens.iter().map(String::as_str).collect();
            let (dialect, _) = infer_dialect(start, &toks);
            *dialects.entry(dialect.to_string()).or_default() += 1;
            for d in &g.diagnostics {
                if d.severity == kyphu::model::diag::Severity::Note {
                    *notes.entry(d.code.as_str()).or_default() += 1;
                }
            }
            let errors: Vec<_> = g
                .diagnostics
                .iter()
                .filter(|d| d.severity == kyphu::model::diag::Severity::Error)
                .collect();
            let line = main_line(&g);
            plies += line.len();
            if errors.is_empty() && g.unparsed.is_none() {
                complete += 1;
            } else {
                let first = errors.first().map_or_else(
                    || "unparsed text after the last move".to_string(),
                    |d| format!("{} ply {:?}: {}", d.code, d.ply, d.message),
                );
                let class = errors.first().map_or("unparsed", |d| d.code.as_str());
                *classes.entry(format!("{dialect} {class}")).or_default() += 1;
                failures.push(format!("{rel} #{index} ({dialect}): {first}"));
            }
            // round trip: every dialect, write -> read gives the same moves
            for d in [
                Dialect::Iccs,
                Dialect::Chinese(Glyphs::Simplified),
                Dialect::Chinese(Glyphs::Traditional),
                Dialect::Wxf,
                Dialect::OldVietnamese,
                Dialect::Asian,
                Dialect::NewVietnamese,
            ] {
                let mut w = (**start).clone();
                let mut r = (**start).clone();
                for (i, mv) in line.iter().enumerate() {
                    let mut s = String::new();
                    write(&mut s, &w, *mv, d);
                    w.play(*mv).unwrap();
                    match read_play_many(&s, d, &mut r) {
                        Ok(v) if v.len() == 1 && v[0].mv == *mv => {}
                        other => {
                            round_trip_errors.push(format!(
                                "{rel} #{index} ply {} {d}: wrote `{s}` for {}, read {:?}",
                                i + 1,
                                mv.iccs(),
                                other.map(|v| v.iter().map(|r| r.mv.iccs()).collect::<Vec<_>>())
                            ));
                            break;
                        }
                    }
                }
                round_trips += 1;
            }
        }
    }
    println!(
        "xiangqi corpus: {} files, {games} games read, {xq_games} xiangqi, {complete} replay completely, {plies} plies",
        paths.len()
    );
    println!("dialects inferred: {dialects:?}");
    println!("games not read as xiangqi:");
    for (f, why) in &not_xiangqi {
        println!("  {f}: {why:?}");
    }
    println!("notes: {notes:?}");
    println!("incomplete games by dialect and first error: {classes:?}");
    for f in &failures {
        println!("  {f}");
    }
    println!(
        "round trips: {round_trips} (game, dialect) pairs, {} failures",
        round_trip_errors.len()
    );
    for e in round_trip_errors.iter().take(40) {
        println!("  {e}");
    }
    assert!(round_trip_errors.is_empty());
    assert!(xq_games > 5000, "{xq_games}");
    assert!(complete * 100 >= xq_games * 97, "{complete} of {xq_games}");
}

/// wukong xqdb gives the same 15 games in Chinese, WXF (full width) and ICCS: the three
/// renderings replay to the same moves except the known front/rear inversion of game 2,
/// move 36 (XIANGQI.md section 1).
#[test]
fn wukong_three_renderings_agree() {
    let dir = corpus_dir().join("wukong-xiangqi-xqdb/games_pgn");
    if !dir.exists() {
        println!("skipping: ../shared/corpus absent");
        return;
    }
    let lines = |name: &str| -> Vec<Vec<Move>> {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        read_bytes(&with_game_tag(&bytes), ReadOptions::default())
            .into_iter()
            .map(|raw| main_line(&replay(raw, &ReplayOptions::default())))
            .collect()
    };
    let cn = lines("xqdb_traditional.pgn");
    let wxf = lines("xqdb_international.pgn");
    let iccs = lines("bulk_games_uci.pgn");
    assert_eq!(cn.len(), iccs.len());
    assert_eq!(wxf.len(), iccs.len());
    let mut diffs = Vec::new();
    for (g, ((c, w), i)) in cn.iter().zip(&wxf).zip(&iccs).enumerate() {
        assert_eq!(c, w, "game {}: Chinese and WXF differ", g + 1);
        if let Some(p) = c.iter().zip(i).position(|(a, b)| a != b) {
            diffs.push((g + 1, p + 1));
            println!(
                "wukong game {} ply {}: Chinese/WXF {} vs ICCS {}",
                g + 1,
                p + 1,
                c[p].iccs(),
                i[p].iccs()
            );
        }
    }
    assert_eq!(diffs, [(2, 71)]);
}

/// Whole PGN games through the archive and replay layers, one per dialect.
#[test]
fn pgn_games_in_every_dialect() {
    let want = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b7b3"];
    let cases = [
        ("1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b7b3 *", Dialect::Iccs),
        (
            "1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 B7-B3 *",
            Dialect::Iccs,
        ),
        (
            "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 炮2进4 *",
            Dialect::Chinese(Glyphs::Simplified),
        ),
        ("1. C2.5 H8+7 2. H2+3 R9.8 3. R1.2 C2+4 *", Dialect::Wxf),
        (
            "1. P2-5 M8.7 2. M2.3 -X9-8 3. X1-2 -P2.4 *",
            Dialect::OldVietnamese,
        ),
        ("1) P2=5 M8+7 2) M2+3 X9=8 3) X1=2 P2+4 *", Dialect::Asian),
        (
            "1. Phe2 Mg7 2. Mg2 Xh9 3. Xh0 Pb3 *",
            Dialect::NewVietnamese,
        ),
    ];
    for (movetext, dialect) in cases {
        let text = format!("[Game \"Chinese Chess\"]\n\n{movetext}\n");
        let raws = kyphu::archive::read_str(&text);
        assert_eq!(raws.len(), 1, "{movetext}");
        let raw = raws.into_iter().next().unwrap();
        let tokens: Vec<String> = raw.move_tokens().map(String::from).collect();
        let toks: Vec<&str> = tokens.iter().map(String::as_str).collect();
        assert_eq!(
            infer_dialect(&Position::default(), &toks).0,
            dialect,
            "{movetext}"
        );
        let g = replay(raw, &ReplayOptions::default());
        let got: Vec<String> = main_line(&g).iter().map(|m| m.iccs()).collect();
        assert_eq!(got, want, "{movetext}: {:?}", g.diagnostics);
        assert!(g.diagnostics.is_empty(), "{movetext}: {:?}", g.diagnostics);
    }
}

/// The Vietnamese soldier `C`/`Chốt` beside `B`/`Tốt`: rows of
/// grammars/xiangqi-pieces.tsv and nothing else. A whole game through the archive and
/// replay layers: `C7.1` and the word form `Chốt 3 tiến 1` are soldier moves.
#[test]
fn vietnamese_soldier_c_and_chot() {
    let text =
        "[Game \"Chinese Chess\"]\n\n1. P2-5 M8.7 2. Chốt 3 tiến 1 C7.1 3. Tốt 7 tiến 1 B3.1 *\n";
    let raws = kyphu::archive::read_str(text);
    assert_eq!(raws.len(), 1);
    let g = replay(raws.into_iter().next().unwrap(), &ReplayOptions::default());
    let got: Vec<String> = main_line(&g).iter().map(|m| m.iccs()).collect();
    assert_eq!(
        got,
        ["h2e2", "h9g7", "g3g4", "g6g5", "c3c4", "c6c5"],
        "{:?}",
        g.diagnostics
    );
    assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
    let mut pos = Position::default();
    let r = read_play("Chot 3 tien 1", Dialect::OldVietnamese, &mut pos).unwrap();
    assert_eq!(r.mv.iccs(), "g3g4");
    // the writers keep the written letter B
    assert_eq!(
        written(&Position::default(), Dialect::OldVietnamese, &["g3g4"]),
        "B3.1"
    );
}

/// A letter set grows by rows alone, even at run time: a made-up variant with the horse
/// letter `N`, the cannon word `Súng` and the advance mark `^`, read with a grammar
/// compiled over the built-in lexicon plus those rows.
#[test]
fn an_extra_table_loaded_at_run_time() {
    use kyphu::notation::lexicon::xiangqi::lexicon;
    use kyphu::notation::xiangqi::{Grammar, read_play_with};
    let pieces = "# made-up variant\n\
        vietnamese-old\thorse\tN\tread\tmade up for this test\n\
        vietnamese-old-words\tcannon\tSúng\tread\tmade up for this test\n";
    let marks = "vietnamese-old\tadvance\t^\tread\tmade up for this test\n";
    let lex = lexicon().with_extra(pieces, marks).unwrap();
    let g = Grammar::new(&lex, Dialect::OldVietnamese);
    let mut pos = Position::default();
    let moves: Vec<String> = ["Súng 2 bình 5", "N8^7", "N2.3"]
        .iter()
        .map(|t| read_play_with(t, &g, &mut pos).unwrap().mv.iccs())
        .collect();
    assert_eq!(moves, ["h2e2", "h9g7", "h0g2"]);
    // the built-in grammar does not know them
    for (t, code) in [("Súng 2 bình 5", "invalid-move"), ("N2.3", "unknown-piece")] {
        let e = read_play(t, Dialect::OldVietnamese, &mut Position::default()).unwrap_err();
        assert_eq!(e.code.as_str(), code, "{t}");
    }
    // a malformed row is an error naming the line, not a panic
    let e = lexicon()
        .with_extra("vietnamese-old\tdragon\tD\tread\tx\n", "")
        .unwrap_err();
    assert!(e.contains("line 1") && e.contains("dragon"), "{e}");
}

/// The notation list the `--notation` help is made from: each example reads in its
/// notation, and each name parses back.
#[test]
fn notation_list_examples_read() {
    use kyphu::notation::xiangqi::notations;
    assert_eq!(notations().len(), 7);
    for n in notations() {
        assert_eq!(n.name.parse::<Dialect>(), Ok(n.dialect));
        assert_eq!(n.dialect.to_string(), n.name);
        let toks = split_moves(n.example);
        assert_eq!(
            iccs_line(&Position::default(), n.dialect, &toks),
            ["h2e2", "h9g7"],
            "{}",
            n.name
        );
        assert!(!n.description.is_empty());
    }
}

/// Xiangqi tokens get the same fold as chess tokens (`text::fold::move_token`): an en
/// dash typed for the `-` of the old Vietnamese notation, and full-width digits, read.
#[test]
fn typed_dashes_and_full_width_digits_fold_as_in_chess() {
    let start = Position::default();
    let moves: Vec<String> = ["P2–5", "M８.７", "M2.3", "X9—8"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        iccs_line(&start, Dialect::OldVietnamese, &moves),
        ["h2e2", "h9g7", "h0g2", "i9h9"]
    );
}
