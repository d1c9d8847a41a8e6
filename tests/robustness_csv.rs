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
use kyphu::diag::Span;
use kyphu::emit::{CsvOptions, csv::to_csv_strings};
use kyphu::game::{AnyMove, Game, StartPosition, Variant};
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
/// (`src/replay.rs`).
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
