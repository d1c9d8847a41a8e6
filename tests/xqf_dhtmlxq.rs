//! XQF and DhtmlXQ read move for move as the reference readers read them: every file
//! with an expected reading in `corpus/xiangqi/expected/` (layout in
//! `corpus/xiangqi/tools/game.py`, files and licences in
//! `corpus/xiangqi/MANIFEST-xqf-dhtmlxq.md`) is read by kyphu and compared: start FEN
//! and side to move, main line, every variation (parent line, ply, moves, numbered in
//! PGN order), every comment (line, ply, text) and the header fields. Each game is
//! then replayed: a game the independent check (pyffish) finds legal replays without
//! an error, and each move it rejects is reported. External folders
//! (`../shared/corpus/xiangqi/<source>/`, or `$KYPHU_XIANGQI_EXTERNAL/<source>/`) are
//! skipped with a note when absent.
#![allow(clippy::unwrap_used)]

use std::{
    collections::BTreeMap,
    io::Read,
    path::{Path, PathBuf},
};

use kyphu::{
    archive::{
        Element, Limits, RawGame, ReadOptions,
        formats::{self, Format},
    },
    model::diag::Severity,
    replay::{ReplayOptions, replay},
};
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A game's tree as the expected JSON has it.
#[derive(Debug, Default, PartialEq)]
struct Canon {
    fen: String,
    mainline: Vec<String>,
    /// (id, parent, ply, moves)
    variations: Vec<(u64, u64, u64, Vec<String>)>,
    /// (line, ply, text), sorted
    comments: Vec<(u64, u64, String)>,
}

/// The tree of a game as kyphu read it, from its movetext elements.
fn canon(raw: &RawGame) -> Canon {
    struct Ctx {
        id: u64,
        next_ply: u64,
        moves: Vec<String>,
        start: u64,
        parent: u64,
    }
    let fen = match raw.tag("FEN") {
        Some(f) => {
            let mut it = f.split_whitespace();
            format!("{} {}", it.next().unwrap_or(""), it.next().unwrap_or("w"))
        }
        None => format!("{} w", kyphu::archive::xqf::START_BOARD),
    };
    let mut out = Canon {
        fen,
        ..Canon::default()
    };
    let mut stack = vec![Ctx {
        id: 0,
        next_ply: 1,
        moves: Vec::new(),
        start: 1,
        parent: 0,
    }];
    let mut next_id = 1;
    let mut lines: Vec<(u64, u64, u64, Vec<String>)> = Vec::new();
    for e in &raw.movetext {
        match *e {
            Element::Move { span, .. } => {
                let top = stack.last_mut().unwrap();
                top.moves.push(raw.slice(span).to_owned());
                top.next_ply += 1;
            }
            Element::Comment { body, .. } => {
                let top = stack.last().unwrap();
                out.comments
                    .push((top.id, top.next_ply - 1, raw.slice(body).to_owned()));
            }
            Element::StartVariation { .. } => {
                let top = stack.last().unwrap();
                let ply = top.next_ply - 1;
                let parent = top.id;
                stack.push(Ctx {
                    id: next_id,
                    next_ply: ply,
                    moves: Vec::new(),
                    start: ply,
                    parent,
                });
                next_id += 1;
            }
            Element::EndVariation { .. } => {
                let c = stack.pop().unwrap();
                lines.push((c.id, c.parent, c.start, c.moves));
            }
            _ => {}
        }
    }
    let main = stack.pop().unwrap();
    out.mainline = main.moves;
    lines.sort_by_key(|l| l.0);
    out.variations = lines;
    out.comments.sort_by_key(|a| (a.0, a.1));
    out
}

/// The reference reader decodes GB18030 with Python, which maps the bytes A3 A0 to the
/// private-use U+E5E5; the WHATWG Encoding Standard (encoding_rs, so kyphu) maps them
/// to U+3000, the ideographic space the writers of those files meant (the names
/// around it use U+3000 too).
fn gb18030_whatwg(s: &str) -> String {
    s.replace('\u{e5e5}', "\u{3000}")
}

fn expected_canon(g: &Value) -> Canon {
    let strs = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_owned())
            .collect()
    };
    let mut comments: Vec<(u64, u64, String)> = g["comments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["line"].as_u64().unwrap(),
                c["ply"].as_u64().unwrap(),
                gb18030_whatwg(c["text"].as_str().unwrap()),
            )
        })
        .collect();
    comments.sort_by_key(|a| (a.0, a.1));
    Canon {
        fen: g["fen"].as_str().unwrap().to_owned(),
        mainline: strs(&g["mainline"]),
        variations: g["variations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                (
                    v["id"].as_u64().unwrap(),
                    v["parent"].as_u64().unwrap(),
                    v["ply"].as_u64().unwrap(),
                    strs(&v["moves"]),
                )
            })
            .collect(),
        comments,
    }
}

/// `%XX` decoded (the `refer` field, which the reference reader decodes).
fn percent_decoded(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(v) = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The header fields of the expected reading that kyphu's tags must hold.
fn header_mismatches(
    raw: &RawGame,
    header: &serde_json::Map<String, Value>,
    xqf: bool,
) -> Vec<String> {
    let mut bad = Vec::new();
    let result = raw.result.map_or("*", |r| r.0.as_str());
    for (key, v) in header {
        let want = match v {
            Value::String(s) => gb18030_whatwg(s),
            other => other.to_string(),
        };
        let tag: String = match (xqf, key.as_str()) {
            (_, "xqf_version" | "fen") => continue,
            (true, "result") | (false, "result_pgn") => {
                if result != want {
                    bad.push(format!("result: kyphu {result}, expected {want}"));
                }
                continue;
            }
            (true, "setup_type") => {
                let got = raw
                    .tag("XqfType")
                    .map_or("full game".to_owned(), |t| t.into_owned());
                if got != want {
                    bad.push(format!("setup_type: kyphu {got}, expected {want}"));
                }
                continue;
            }
            (true, k) => match k {
                "title" => "Title",
                "event" => "Event",
                "date" => "Date",
                "site" => "Site",
                "red" => "Red",
                "black" => "Black",
                "time_rule" => "TimeControl",
                "red_time" => "RedTime",
                "black_time" => "BlackTime",
                "annotator" => "Annotator",
                "author" => "Author",
                other => panic!("unknown XQF header field {other}"),
            }
            .to_owned(),
            (false, k) => kyphu::archive::dhtmlxq::TAG_NAMES
                .iter()
                .find(|(d, _)| *d == k)
                .map_or_else(|| format!("DhtmlXQ_{k}"), |(_, p)| (*p).to_owned()),
        };
        let got = raw.tag(&tag).map(|t| t.into_owned());
        let got = if key == "refer" {
            got.map(|g| percent_decoded(&g).replace(['\r', '\n'], " "))
        } else {
            got
        };
        // a tag is one line: line breaks of the value are spaces
        let want = want.replace(['\r', '\n'], " ");
        if got.as_deref() != Some(want.as_str()) {
            bad.push(format!("{key} ({tag}): kyphu {got:?}, expected {want:?}"));
        }
    }
    bad
}

fn expected_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            expected_files(&p, out);
        } else {
            let n = p.to_string_lossy();
            if n.ends_with(".json") || n.ends_with(".json.bz2") {
                out.push(p);
            }
        }
    }
}

fn read_json(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap();
    let text = if path.to_string_lossy().ends_with(".bz2") {
        let mut s = String::new();
        bzip2::read::MultiBzDecoder::new(&bytes[..])
            .read_to_string(&mut s)
            .unwrap();
        s
    } else {
        String::from_utf8(bytes).unwrap()
    };
    serde_json::from_str(&text).unwrap()
}

/// The games kyphu reads from `bytes`, junk left out.
fn read_games(bytes: &[u8], name: &str) -> (Format, Vec<RawGame>) {
    let format = formats::sniff(bytes, name);
    let reader: Box<dyn std::io::BufRead + Send> = Box::new(std::io::Cursor::new(bytes.to_vec()));
    let mut games = Vec::new();
    // the opening libraries hold up to 226,491 moves: over the default budget of
    // elements (65,536), which would cut them (`game-too-long`, tested elsewhere)
    let options = ReadOptions {
        encoding: None,
        limits: Limits {
            max_elements: 1 << 22,
            max_depth: 1 << 12,
            ..Limits::default()
        },
    };
    for p in formats::pieces(format, reader, name, options).unwrap() {
        p.unwrap().parse_into(&mut games);
    }
    games.retain(|g| !g.junk);
    (format, games)
}

#[test]
fn every_corpus_file_reads_as_the_reference_reader_reads_it() {
    let root = Path::new(ROOT);
    let mut files = Vec::new();
    expected_files(&root.join("corpus/xiangqi/expected"), &mut files);
    files.sort();
    assert!(files.len() >= 40, "{} expected files", files.len());
    // the external folders: `../shared/corpus/xiangqi`, or a folder of the same layout
    // named by KYPHU_XIANGQI_EXTERNAL (copies made from the upstream commits of the
    // manifest, for the folders not yet in the shared corpus)
    let external = std::env::var_os("KYPHU_XIANGQI_EXTERNAL")
        .map_or_else(|| root.join("../shared/corpus/xiangqi"), PathBuf::from);
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    let (mut n_files, mut n_games, mut n_moves, mut n_vars, mut n_comments) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    for path in &files {
        let exp = read_json(path);
        let source = exp["source"].as_str().unwrap();
        let rel = exp["path"].as_str().unwrap();
        let data = if exp["copyable"].as_bool().unwrap() {
            root.join("corpus/xiangqi").join(source).join(rel)
        } else {
            // the named folder first, then the shared corpus
            let named = external.join(source).join(rel);
            if named.is_file() {
                named
            } else {
                root.join("../shared/corpus/xiangqi").join(source).join(rel)
            }
        };
        if !data.is_file() {
            *skipped.entry(source.to_owned()).or_default() += 1;
            continue;
        }
        let bytes = std::fs::read(&data).unwrap();
        let name = data.to_string_lossy().into_owned();
        let (format, games) = read_games(&bytes, &name);
        let xqf = exp["format"] == "xqf";
        assert_eq!(format == Format::Xqf, xqf, "{name}: format {format:?}");
        let want = exp["games"].as_array().unwrap();
        if games.len() != want.len() {
            failures.push(format!(
                "{name}: {} games, expected {}",
                games.len(),
                want.len()
            ));
            continue;
        }
        n_files += 1;
        for (k, (raw, w)) in games.iter().zip(want).enumerate() {
            let got = canon(raw);
            let exp_canon = expected_canon(w);
            let mut bad = Vec::new();
            if got.fen != exp_canon.fen {
                bad.push(format!("fen {} vs {}", got.fen, exp_canon.fen));
            }
            if got.mainline != exp_canon.mainline {
                bad.push(format!(
                    "main line of {} plies, expected {}",
                    got.mainline.len(),
                    exp_canon.mainline.len()
                ));
            }
            if got.variations != exp_canon.variations {
                let first = got
                    .variations
                    .iter()
                    .zip(&exp_canon.variations)
                    .find(|(a, b)| a != b);
                bad.push(format!(
                    "{} variations, expected {}; first difference {first:?}",
                    got.variations.len(),
                    exp_canon.variations.len()
                ));
            }
            if got.comments != exp_canon.comments {
                let first = got
                    .comments
                    .iter()
                    .zip(&exp_canon.comments)
                    .find(|(a, b)| a != b);
                bad.push(format!(
                    "{} comments, expected {}; first difference {first:?}",
                    got.comments.len(),
                    exp_canon.comments.len()
                ));
            }
            bad.extend(header_mismatches(
                raw,
                w["header"].as_object().unwrap(),
                xqf,
            ));

            // replay: legal games replay cleanly; a rejected move is reported
            let illegal = w["illegal"].as_array().unwrap();
            let game = replay(raw.clone(), &ReplayOptions::default());
            let errors: Vec<&str> = game
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| d.message.as_str())
                .collect();
            if illegal.is_empty() {
                if !errors.is_empty() {
                    bad.push(format!("replay errors: {errors:?}"));
                }
                let replayed: Vec<String> = game
                    .moves
                    .moves
                    .iter()
                    .map(|m| match m.mv {
                        kyphu::model::game::AnyMove::Xiangqi(x) => x.iccs(),
                        _ => String::new(),
                    })
                    .collect();
                if replayed != exp_canon.mainline {
                    bad.push("replayed main line differs".to_owned());
                }
            } else {
                for m in illegal {
                    let mv = m["move"].as_str().unwrap();
                    if !errors.iter().any(|e| e.contains(mv)) {
                        bad.push(format!("illegal move {mv} not reported: {errors:?}"));
                    }
                }
            }
            if bad.is_empty() {
                n_games += 1;
                n_moves += w["counts"]["nodes"].as_u64().unwrap();
                n_vars += exp_canon.variations.len();
                n_comments += exp_canon.comments.len();
            } else {
                failures.push(format!("{name} game {}: {}", k + 1, bad.join("; ")));
            }
        }
    }
    for (source, n) in &skipped {
        eprintln!(
            "note: {} is absent: its {n} corpus files are skipped",
            external.join(source).display()
        );
    }
    eprintln!(
        "xqf/dhtmlxq corpus: {n_files} files, {n_games} games, {n_moves} moves, {n_vars} variations, {n_comments} comments read as expected"
    );
    if !failures.is_empty() {
        let _ = std::fs::write(
            std::env::temp_dir().join("kyphu-xqf-failures.txt"),
            failures.join("\n"),
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(n_games >= 40, "{n_games} games compared");
}

/// An XQF file on standard input, a folder of XQF files and a DhtmlXQ page are read
/// by the command line (an XQF file used to print nothing and exit 0).
#[test]
fn cli_reads_xqf_from_stdin_folders_and_pages() {
    use std::process::{Command, Stdio};
    let bin = env!("CARGO_BIN_EXE_kyphu");
    let xqf = std::fs::read(
        Path::new(ROOT).join("corpus/xiangqi/xqf/kyphu-made/v18-encrypted-mainline.xqf"),
    )
    .unwrap();
    let mut child = Command::new(bin)
        .args(["convert", "--to", "json", "-"])
        .current_dir(ROOT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &xqf).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.contains("\"variant\":\"xiangqi\""), "{stdout}");
    assert!(stdout.contains("\"uci\":\"h2e2\""), "{stdout}");

    let out = Command::new(bin)
        .args(["check", "corpus/xiangqi/xqf/kyphu-made"])
        .current_dir(ROOT)
        .output()
        .unwrap();
    // the summary goes to standard output when that is not the converted games
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains(": 9 games: 9 clean"),
        "{:?}: {said}",
        out.status
    );

    let out = Command::new(bin)
        .args([
            "convert",
            "--to",
            "json",
            "corpus/xiangqi/dhtmlxq/kyphu-made/two-games-gbk.html",
        ])
        .current_dir(ROOT)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    // two games; the page around the blocks is kept as non-game text
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.contains("\"kind\":\"xiangqi\""))
            .count(),
        2,
        "{stdout}"
    );
    assert!(stdout.contains("junk-between-games"), "{stdout}");
}

/// The RawGames of a DhtmlXQ text, junk left out.
fn dhtmlxq_games(text: &str) -> Vec<RawGame> {
    read_games(text.as_bytes(), "page.txt").1
}

/// The DhtmlXQ blocks kyphu writes for `games`.
fn written(games: &[RawGame]) -> Vec<String> {
    games
        .iter()
        .map(|raw| {
            let game = replay(raw.clone(), &ReplayOptions::default());
            kyphu::emit::dhtmlxq::to_dhtmlxq_string(&game).unwrap()
        })
        .collect()
}

/// DhtmlXQ → kyphu → DhtmlXQ → kyphu reads the same games (start, every line, every
/// comment, every tag, the result), and writing them again gives the same text; the
/// XQF files of the corpus go through DhtmlXQ unchanged too (tree, comments, start).
#[test]
fn dhtmlxq_round_trip_is_unchanged() {
    let root = Path::new(ROOT).join("corpus/xiangqi");
    let mut files = Vec::new();
    for dir in [
        "dhtmlxq/kyphu-made",
        "dhtmlxq/wukong-xiangqi-xqdb",
        "xqf/kyphu-made",
    ] {
        for e in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            if e.file_name() != "LICENSE" {
                files.push(e.path());
            }
        }
    }
    files.sort();
    let mut games_checked = 0;
    for path in &files {
        let name = path.to_string_lossy().into_owned();
        let (format, first) = read_games(&std::fs::read(path).unwrap(), &name);
        let text1 = written(&first).concat();
        let second = dhtmlxq_games(&text1);
        assert_eq!(second.len(), first.len(), "{name}:\n{text1}");
        for (a, b) in first.iter().zip(&second) {
            let mut want = canon(a);
            if format == Format::Xqf {
                // XQF comments break lines with CR LF; DhtmlXQ's `||` is one break
                for c in &mut want.comments {
                    c.2 = c.2.replace("\r\n", "\n");
                }
            }
            assert_eq!(want, canon(b), "{name}:\n{text1}");
            assert!(
                b.diagnostics.iter().all(|d| d.severity < Severity::Warning),
                "{name}: {:?}",
                b.diagnostics
            );
            if format == Format::Dhtmlxq {
                let tags = |g: &RawGame| -> Vec<(String, String)> {
                    g.tags
                        .iter()
                        .map(|t| (g.tag_name(t).to_owned(), g.tag_value(t).into_owned()))
                        .collect()
                };
                assert_eq!(tags(a), tags(b), "{name}");
                assert_eq!(a.result.map(|r| r.0), b.result.map(|r| r.0), "{name}");
            }
            games_checked += 1;
        }
        let text2 = written(&second).concat();
        assert_eq!(text1, text2, "{name}");
    }
    assert!(games_checked >= 28, "{games_checked}");
}

/// Xiangqi PGN names its notation in a `Format` tag (ICCS, WXF), as the xiangqi PGN
/// readers expect: cchess reads no ICCS move without it.
#[test]
fn xiangqi_pgn_output_names_its_format() {
    use std::process::Command;
    let bin = env!("CARGO_BIN_EXE_kyphu");
    let input = "corpus/xiangqi/tao-hu-1999-iccs.pgn";
    for (notation, format) in [("iccs", "ICCS"), ("wxf", "WXF")] {
        let out = Command::new(bin)
            .args(["convert", "--out-xiangqi", notation, input])
            .current_dir(ROOT)
            .output()
            .unwrap();
        let pgn = String::from_utf8(out.stdout).unwrap();
        assert!(pgn.contains(&format!("[Format \"{format}\"]")), "{pgn}");
        assert_eq!(
            pgn.matches("[Format ").count(),
            pgn.matches("[Game ").count(),
            "{pgn}"
        );
    }
    // the reader the convention is for, when it is installed
    let out = Command::new(bin)
        .args(["convert", "--out-xiangqi", "iccs", input])
        .current_dir(ROOT)
        .output()
        .unwrap();
    let dir = std::env::temp_dir().join(format!("kyphu-cchess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.pgn");
    std::fs::write(&file, &out.stdout).unwrap();
    let script = "import sys, cchess\n\
                  g = cchess.read_from_pgn(sys.argv[1])\n\
                  print(len(g.dump_iccs_moves()[0]) if g.dump_iccs_moves() else 0)\n";
    match Command::new("python3")
        .args(["-c", script])
        .arg(&file)
        .output()
    {
        Ok(o) if o.status.success() => {
            let n: usize = String::from_utf8_lossy(&o.stdout).trim().parse().unwrap();
            assert_eq!(n, 29, "cchess read {n} moves of kyphu's ICCS PGN");
        }
        _ => eprintln!(
            "note: python3 with the cchess package is absent: the cchess reading is skipped"
        ),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
