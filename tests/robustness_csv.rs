//! The scoresheet CSV reader on hostile input, outside the fuzzer: the invariants of
//! the `csv_sheet` fuzz target (every span the reader makes lies on character
//! boundaries of the synthesized text; every game replays, and its spans do too)
//! checked on the target's committed seeds and regressions; the `csv_roundtrip`
//! target's round trip (games read from PGN, written by the scoresheet writer, read
//! back) on its seeds and regressions; and each crash the targets found as a
//! regression test named after it.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use kyphu::archive::csv::{CsvGame, read_scoresheet, read_scoresheet_with_games};
use kyphu::archive::{Element, RawGame, ReadOptions, read_bytes};
use kyphu::emit::{CsvOptions, csv::to_csv_strings};
use kyphu::model::diag::Span;
use kyphu::model::game::{AnyMove, Game, StartPosition, Variant};
use kyphu::replay::{ReplayOptions, replay};

fn on_boundaries(text: &str, s: Span) -> bool {
    s.start <= s.end && text.get(s.start as usize..s.end as usize).is_some()
}

fn check_raw(raw: &RawGame) {
    let text = &raw.text;
    for e in &raw.movetext {
        assert!(on_boundaries(text, e.span()), "element {e:?} in {text:?}");
        if let Element::Comment { body, .. } = e {
            assert!(
                on_boundaries(text, *body),
                "comment body {body:?} in {text:?}"
            );
        }
    }
    for t in &raw.tags {
        for s in [t.span, t.name, t.value] {
            assert!(on_boundaries(text, s), "tag span {s:?} in {text:?}");
        }
    }
    if let Some((_, s)) = raw.result {
        assert!(on_boundaries(text, s), "result span {s:?} in {text:?}");
    }
    for d in &raw.diagnostics {
        if let Some(s) = d.span {
            assert!(on_boundaries(text, s), "{} span {s:?} in {text:?}", d.code);
        }
    }
}

/// What the `csv_sheet` fuzz target does with one input.
fn check_input(data: &[u8]) -> Vec<CsvGame> {
    let [flags, rest @ ..] = data else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(rest);
    let games = if flags & 1 == 0 {
        read_scoresheet(&text)
    } else {
        let (moves, games) = text.split_once('\0').unwrap_or((&text, ""));
        read_scoresheet_with_games(moves, games)
    };
    for g in &games {
        check_raw(&g.raw);
        for c in &g.cells {
            assert!(on_boundaries(&g.raw.text, c.span), "cell {c:?}");
        }
        let game = replay(g.raw.clone(), &ReplayOptions::default());
        for d in &game.diagnostics {
            if let Some(s) = d.span {
                assert!(on_boundaries(&game.source.text, s), "{} span {s:?}", d.code);
            }
        }
        let _ = game.status();
    }
    games
}

fn files_in(dir: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    out.sort();
    out.into_iter().map(|p| std::fs::read(p).unwrap()).collect()
}

#[test]
fn seeds_and_regressions_keep_the_invariants() {
    let seeds = files_in("fuzz/seeds/csv_sheet");
    assert!(seeds.len() >= 8);
    for s in &seeds {
        let games = check_input(s);
        // every seed is a readable sheet with moves
        assert!(!games.is_empty(), "{}", String::from_utf8_lossy(s));
        assert!(games.iter().any(|g| g.raw.move_tokens().next().is_some()));
    }
    for r in files_in("fuzz/regressions/csv_sheet") {
        check_input(&r);
    }
}

/// Found by the `csv_sheet` fuzz target (input kept in
/// `fuzz/regressions/csv_sheet/crash-5f9e5c4d3adec96b32357874238d7d7f93d9eafb`): a
/// header cell quoted over two lines (`"2. c4 {never read} e5_clock,…\n1,2,…"`) is an
/// unknown column whose text is not on the header's first line, the only header line
/// copied into the game's text; its `csv-unknown-column` span was `0..cell length`,
/// past the end of the text. The span now covers the header line then, and the header
/// line copied is the one the header record starts on (blank lines before it kept).
#[test]
fn csv_sheet_crash_5f9e5c4d() {
    let input = include_bytes!(
        "../fuzz/regressions/csv_sheet/crash-5f9e5c4d3adec96b32357874238d7d7f93d9eafb"
    );
    let games = check_input(input);
    assert!(!games.is_empty());
    let g = &games[0].raw;
    let d = g
        .diagnostics
        .iter()
        .find(|d| d.code == "csv-unknown-column" && d.message.contains("never read"))
        .unwrap();
    assert_eq!(
        g.slice(d.span.unwrap()),
        g.text.lines().next().unwrap(),
        "{:?}",
        g.text
    );
}

fn main_line(g: &Game) -> Vec<AnyMove> {
    g.moves.moves.iter().map(|n| n.mv).collect()
}

/// What the `csv_roundtrip` fuzz target does with one input; returns the games read.
fn round_trip(data: &[u8]) -> Vec<Game> {
    let options = ReplayOptions::default();
    let games: Vec<Game> = read_bytes(data, ReadOptions::default())
        .into_iter()
        .filter(|raw| !raw.junk)
        .map(|raw| replay(raw, &options))
        .collect();
    if games.is_empty() {
        return games;
    }
    let refs: Vec<&Game> = games.iter().collect();
    let (moves, header) = to_csv_strings(&refs, &CsvOptions::default());
    let back = read_scoresheet_with_games(&moves, &header);
    assert_eq!(back.len(), games.len(), "{moves}\n{header}");
    for (g, b) in games.iter().zip(back) {
        let again = replay(b.raw, &options);
        assert_eq!(again.variant, g.variant, "{moves}\n{header}");
        assert_eq!(again.start, g.start, "{moves}\n{header}");
        assert_eq!(main_line(&again), main_line(g), "{moves}\n{header}");
        assert_eq!(again.result, g.result, "{moves}\n{header}");
    }
    games
}

#[test]
fn scoresheet_round_trip_of_the_seeds_and_regressions() {
    let seeds = files_in("fuzz/seeds/csv_roundtrip");
    assert!(seeds.len() >= 30);
    let mut moves = 0;
    for s in &seeds {
        moves += round_trip(s)
            .iter()
            .map(|g| g.moves.moves.len())
            .sum::<usize>();
    }
    assert!(moves > 100, "{moves}");
    for r in files_in("fuzz/regressions/csv_roundtrip") {
        round_trip(&r);
    }
}

/// Found by the `csv_roundtrip` fuzz target (input kept in
/// `fuzz/regressions/csv_roundtrip/crash-a48a4bd77296ee50e0e62112b5db9e57856bdf65`): a
/// xiangqi record (`[Game "Chinese Chess"]`) whose `FEN` tag cannot be read fails with
/// `bad-fen`, and replay left the game's start at the chess initial position, a
/// placeholder of the wrong variant. The scoresheet's games file says `Variant
/// xiangqi` with no start FEN (the chess initial position is not written), so the
/// sheet read back started from the xiangqi initial position. Replay now leaves a
/// game whose start cannot be read at its variant's initial position
/// (`src/replay/`).
#[test]
fn csv_roundtrip_crash_a48a4bd7() {
    let input = include_bytes!(
        "../fuzz/regressions/csv_roundtrip/crash-a48a4bd77296ee50e0e62112b5db9e57856bdf65"
    );
    let games = round_trip(input);
    let g = &games[0];
    assert_eq!(g.variant, Variant::Xiangqi);
    assert!(g.diagnostics.iter().any(|d| d.code == "bad-fen"));
    assert!(
        matches!(g.start, StartPosition::Xiangqi(_)),
        "{:?}",
        g.start
    );
}

/// Found by the `csv_roundtrip` fuzz target (input kept in
/// `fuzz/regressions/csv_roundtrip/crash-7c916022539499bfc98d172cdf84d43385513236`): a
/// record read as xiangqi because of its `Game "Chinese Chess"` tag also had an empty
/// `Variant ""` tag; the games file took the `Variant` column from the tag (empty, so
/// not written) and the sheet read back as chess. The column now holds the variant
/// replay settled on whenever it is not standard chess (`src/emit/csv.rs`).
#[test]
fn csv_roundtrip_crash_7c916022() {
    let input = include_bytes!(
        "../fuzz/regressions/csv_roundtrip/crash-7c916022539499bfc98d172cdf84d43385513236"
    );
    let games = round_trip(input);
    assert!(games.iter().any(|g| g.variant == Variant::Xiangqi));
    let cases: [(&str, Variant); 4] = [
        (
            "[Game \"Chinese Chess\"]\n[Variant \"\"]\n\n1. h2e2 h9g7 *\n",
            Variant::Xiangqi,
        ),
        ("[Game \"Chinese Chess\"]\n\n1. h2e2 *\n", Variant::Xiangqi),
        (
            "[Variant \"Fischerandom\"]\n[FEN \"nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1\"]\n\n1. e4 *\n",
            Variant::Chess960,
        ),
        ("[Variant \"Standard\"]\n\n1. e4 *\n", Variant::Chess),
    ];
    for (pgn, variant) in cases {
        let games = round_trip(pgn.as_bytes());
        assert_eq!(games[0].variant, variant, "{pgn}");
        assert!(!games[0].moves.moves.is_empty(), "{pgn}");
    }
}

/// Cells a spreadsheet would run (`=`, `+`, `-`, `@`, tab, carriage return at the
/// start: player names, events, the unparsed rest) are written with a leading `'`;
/// numbers stay numbers, and kyphu reads its own sheet back unchanged. With
/// `raw_cells` they are written as they are.
#[test]
fn csv_formula_cells_are_neutralised_and_read_back() {
    let pgn = "[Event \"=HYPERLINK(\\\"http://x\\\",\\\"y\\\")\"]\n[Site \"+1\"]\n\
               [White \"@SUM(A1)\"]\n[Black \"-2+3\"]\n[Round \"-5\"]\n\
               [Annotator \"'=quoted\"]\n\n1. e4 e5 2. Nf3 -- 3. Bb5 Ke7 4. Zz9 =cmd 1-0\n";
    let options = ReplayOptions::default();
    let games: Vec<Game> = read_bytes(pgn.as_bytes(), ReadOptions::default())
        .into_iter()
        .filter(|raw| !raw.junk)
        .map(|raw| replay(raw, &options))
        .collect();
    assert_eq!(games.len(), 1);
    let refs: Vec<&Game> = games.iter().collect();
    let (moves, header) = to_csv_strings(&refs, &CsvOptions::default());
    for text in [&moves, &header] {
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes());
        for rec in rdr.records() {
            for cell in rec.unwrap().iter() {
                let negative = cell
                    .strip_prefix('-')
                    .is_some_and(|d| d.parse::<u32>().is_ok());
                assert!(
                    !cell.starts_with(['=', '+', '-', '@', '\t', '\r']) || negative,
                    "cell `{cell}` in\n{text}"
                );
            }
        }
    }
    assert!(header.contains("\"'=HYPERLINK("), "{header}");
    assert!(header.contains(",-5,"), "{header}");
    assert!(moves.contains(",'--,"), "{moves}");
    // read back: the same tags, moves and unparsed text
    let back = read_scoresheet_with_games(&moves, &header);
    assert_eq!(back.len(), 1);
    let again = replay(back[0].raw.clone(), &options);
    for cell in [
        "'=quoted", "''+x", "-5", "--", "\t=x", "e4", "'plain", "-", "@",
    ] {
        let written = kyphu::emit::csv::neutralise(cell);
        assert_eq!(kyphu::archive::csv::unneutralise(&written), cell, "{cell}");
    }
    for name in ["Event", "Site", "White", "Black", "Round"] {
        assert_eq!(again.tags.get(name), games[0].tags.get(name), "{name}");
    }
    assert_eq!(main_line(&again), main_line(&games[0]));
    // the unparsed rest comes back as a comment holding it
    let rest = games[0].unparsed.as_deref().unwrap();
    assert!(back[0].raw.text.contains(rest), "{}", back[0].raw.text);
    // raw: as they are
    let raw = CsvOptions {
        raw_cells: true,
        ..CsvOptions::default()
    };
    let (moves, header) = to_csv_strings(&refs, &raw);
    assert!(header.contains("\"=HYPERLINK("), "{header}");
    assert!(moves.contains(",--,"), "{moves}");
}

/// A game of more rows than the budget: an error, the game cut and its later rows read as a
/// game of their own (nothing dropped); never a game held whatever its size (the old
/// reader took every row).
#[test]
fn csv_game_over_the_row_budget_is_an_error() {
    use kyphu::archive::csv::MAX_GAME_ROWS;
    let mut sheet = String::from("move,white,black\n");
    let moves = [("Nf3", "Nf6"), ("Ng1", "Ng8")];
    for i in 0..MAX_GAME_ROWS + 10 {
        let (w, b) = moves[i % 2];
        sheet.push_str(&format!("{},{w},{b}\n", i + 1));
    }
    let games = read_scoresheet(&sheet);
    // cut at the budget: the rows past it are a game of their own, not dropped
    assert_eq!(games.len(), 2);
    let d = games[0]
        .raw
        .diagnostics
        .iter()
        .find(|d| d.code == "csv-game-too-long")
        .expect("csv-game-too-long");
    let first = MAX_GAME_ROWS + 2;
    assert!(
        d.message.contains(&format!("cut before line {first}")),
        "{}",
        d.message
    );
    assert_eq!(games[1].raw.move_tokens().count(), 2 * 10);
    assert!(
        games[1]
            .raw
            .diagnostics
            .iter()
            .any(|d| d.code == "csv-game-too-long")
    );
    assert_eq!(games[0].raw.move_tokens().count(), 2 * MAX_GAME_ROWS);
}

/// A record longer than the record budget ends the reading with an error, in bounded
/// memory (the old reader held it).
#[test]
fn csv_record_over_the_budget_is_an_error() {
    use kyphu::archive::csv::MAX_RECORD_BYTES;
    let sheet = format!(
        "move,white,black,note\n1,e4,e5,\"{}\"\n2,Nf3,Nc6,x\n",
        "a".repeat(MAX_RECORD_BYTES + 200_000)
    );
    let games = read_scoresheet(&sheet);
    assert!(
        games
            .iter()
            .flat_map(|g| &g.raw.diagnostics)
            .any(|d| d.code == "csv-record-too-long"),
        "{:?}",
        games
            .iter()
            .flat_map(|g| &g.raw.diagnostics)
            .collect::<Vec<_>>()
    );
}

/// A sheet of 40,000 columns reads in time linear in its size (the old reader looked
/// for each unknown header cell from the start of the line: quadratic, seconds).
#[test]
fn wide_csv_is_linear_in_its_columns() {
    let n = 40_000;
    let mut sheet = String::from("move,white,black");
    for i in 0..n {
        sheet.push_str(&format!(",extra{i}"));
    }
    sheet.push_str("\n1,e4,e5");
    for _ in 0..n {
        sheet.push_str(",x");
    }
    sheet.push('\n');
    let t = std::time::Instant::now();
    let games = read_scoresheet(&sheet);
    let took = t.elapsed();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].raw.move_tokens().collect::<Vec<_>>(), ["e4", "e5"]);
    // the first unknown columns one by one, the rest in one warning
    let unknown: Vec<&str> = games[0]
        .raw
        .diagnostics
        .iter()
        .filter(|d| d.code == "csv-unknown-column")
        .map(|d| d.message.as_str())
        .collect();
    let shown = kyphu::archive::csv::MAX_UNKNOWN_COLUMN_WARNINGS;
    assert_eq!(unknown.len(), shown + 1);
    assert_eq!(
        unknown[shown],
        format!(
            "{} more unknown columns: their cells are kept as comments ({n} in all)",
            n - shown
        )
    );
    assert!(took.as_secs_f64() < 1.5, "{took:?} for {n} columns");
}

/// A sheet saved as UTF-16 without a BOM (little- and big-endian) reads as the UTF-8
/// sheet does, its encoding reported as guessed.
#[test]
fn utf16_sheet_without_bom() {
    use kyphu::archive::csv::ScoresheetReader;
    let sheet = "No,Trắng,Đen\n1,e4,e5\n2,Mf3,Mc6\n";
    let want: Vec<String> = read_scoresheet(sheet)
        .iter()
        .flat_map(|g| g.raw.move_tokens().map(str::to_owned).collect::<Vec<_>>())
        .collect();
    assert_eq!(want, ["e4", "e5", "Mf3", "Mc6"]);
    for (le, enc) in [
        (true, encoding_rs::UTF_16LE),
        (false, encoding_rs::UTF_16BE),
    ] {
        let bytes: Vec<u8> = sheet
            .encode_utf16()
            .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
            .collect();
        let games: Vec<CsvGame> = ScoresheetReader::new(&bytes[..], None)
            .unwrap()
            .flatten()
            .collect();
        assert_eq!(games.len(), 1);
        let got: Vec<&str> = games[0].raw.move_tokens().collect();
        assert_eq!(got, want);
        assert_eq!(games[0].raw.decoding.encoding, enc);
        assert_eq!(
            games[0].raw.decoding.source,
            kyphu::text::EncodingSource::Guessed
        );
    }
}

/// A record over the budget ends the sheet's reading, but nothing after it is lost:
/// the rest of the input comes back verbatim as unread items of at most 1 MiB each.
#[test]
fn the_text_after_a_record_over_the_budget_is_kept_verbatim() {
    use kyphu::archive::csv::{MAX_RECORD_BYTES, ScoresheetReader};
    let long = "é".repeat(MAX_RECORD_BYTES); // 2 MiB: two-byte characters, cut between
    let rest = format!("2,{long}\n3,Nf3,Nc6,ok\n");
    let sheet = format!("No,White,Black,Notes\n1,e4,e5,fine\n{rest}");
    let items: Vec<CsvGame> = ScoresheetReader::new(sheet.as_bytes(), None)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(!items[0].raw.junk);
    assert!(
        items[0]
            .raw
            .diagnostics
            .iter()
            .any(|d| d.code.as_str() == "csv-record-too-long")
    );
    let unread: Vec<&CsvGame> = items[1..].iter().collect();
    assert!(unread.len() >= 2, "{} unread items", unread.len());
    assert!(
        unread
            .iter()
            .all(|g| g.raw.junk && g.raw.text.len() <= MAX_RECORD_BYTES)
    );
    let kept: String = unread.iter().map(|g| g.raw.text.as_str()).collect();
    assert!(kept == rest, "{} bytes kept of {}", kept.len(), rest.len());
    assert_eq!(unread[0].raw.first_line, 3);
}

/// A sheet without a usable header longer than the first 64 KiB: the first item holds
/// its start, the unread items the rest, so the whole file is kept.
#[test]
fn a_long_sheet_without_a_header_is_kept_whole() {
    use kyphu::archive::csv::ScoresheetReader;
    let mut sheet = String::from("foo,bar,baz\n");
    for i in 0..3000 {
        sheet.push_str(&format!("{i},{},{}\n", "x".repeat(50), "y".repeat(50)));
    }
    let items: Vec<CsvGame> = ScoresheetReader::new(sheet.as_bytes(), None)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(items.len() >= 2);
    let all: String = items.iter().map(|g| g.raw.text.as_str()).collect();
    let first_difference = all.bytes().zip(sheet.bytes()).position(|(a, b)| a != b);
    assert!(
        all == sheet,
        "{} bytes kept of {}, first difference at {first_difference:?}, first item {} bytes",
        all.len(),
        sheet.len(),
        items[0].raw.text.len()
    );
}

/// A header of one line longer than the first 64 KiB, in two-byte characters: the head
/// ends inside a character, and still every byte is kept once.
#[test]
fn a_header_longer_than_the_head_is_kept_whole() {
    use kyphu::archive::csv::ScoresheetReader;
    let sheet = format!("{}\n1,e4,e5\n", "é".repeat(40_000));
    let items: Vec<CsvGame> = ScoresheetReader::new(sheet.as_bytes(), None)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let all: String = items.iter().map(|g| g.raw.text.as_str()).collect();
    assert!(all == sheet, "{} bytes kept of {}", all.len(), sheet.len());
}
