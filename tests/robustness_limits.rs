//! Bounded work on hostile input: the per-game budgets of `archive::Limits` turn
//! pathological games into a diagnostic and reading resynchronizes at the next game;
//! deep nesting, very long games, comments that never close, binary junk and invalid
//! UTF-8 go through the whole pipeline (split, decode, parse, replay) without a stack
//! overflow, a hang or a lost game.
//!
//! The deep tests run on a thread with a small stack (256 KiB, an eighth of a test
//! thread's default), so any recursion driven by the input would overflow there.

#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use kyphu::archive::{ArchiveReader, Limits, RawGame, ReadOptions, read_bytes};
use kyphu::emit::{JsonOptions, PgnOptions, json::to_json_string, pgn::to_pgn_string};
use kyphu::model::game::{Game, Line, Status};
use kyphu::replay::{ReplayOptions, replay};

const SMALL_STACK: usize = 256 * 1024;

/// Runs `f` on a thread with a small stack and returns its result.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

fn read_all(text: &[u8], limits: Limits) -> Vec<(bool, Game)> {
    read_bytes(
        text,
        ReadOptions {
            encoding: None,
            limits,
        },
    )
    .into_iter()
    .map(|raw: RawGame| {
        let junk = raw.junk;
        (junk, replay(raw, &ReplayOptions::default()))
    })
    .collect()
}

fn codes(game: &Game) -> Vec<&'static str> {
    game.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

/// The games (junk dropped) with their codes and statuses.
fn summary(games: &[(bool, Game)]) -> Vec<(Vec<&'static str>, Status, usize)> {
    games
        .iter()
        .filter(|(junk, _)| !junk)
        .map(|(_, g)| (codes(g), g.status(), g.moves.moves.len()))
        .collect()
}

const NEXT: &str = "[Event \"next\"]\n\n1. d4 d5 2. c4 *\n";

/// The 100 000-ply game: knights out and back, never a capture, always legal.
pub fn long_game(plies: usize) -> String {
    const CYCLE: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut s = String::with_capacity(plies * 6 + 64);
    s.push_str("[Event \"long\"]\n\n");
    for i in 0..plies {
        if i.is_multiple_of(2) {
            s.push_str(&(i / 2 + 1).to_string());
            s.push_str(". ");
        }
        s.push_str(CYCLE[i % 4]);
        s.push(if i % 16 == 15 { '\n' } else { ' ' });
    }
    s.push_str("*\n\n");
    s
}

/// `depth` nested variations, each an alternative first move, closed or not.
pub fn nested_variations(depth: usize, closed: bool) -> String {
    let mut s = String::from("[Event \"nested\"]\n\n1. e4 ");
    for i in 0..depth {
        s.push_str(if i.is_multiple_of(2) {
            "(1. d4 "
        } else {
            "(1. c4 "
        });
        if i % 32 == 31 {
            s.push('\n');
        }
    }
    if closed {
        for i in 0..depth {
            s.push(')');
            if i % 64 == 63 {
                s.push('\n');
            }
        }
        s.push_str(" e5 ");
    }
    s.push_str("*\n\n");
    s
}

fn depth_of(line: &Line) -> usize {
    let mut max = 0;
    let mut stack = vec![(line, 0usize)];
    while let Some((l, d)) = stack.pop() {
        max = max.max(d);
        for m in &l.moves {
            for v in m.variations() {
                stack.push((v, d + 1));
            }
        }
    }
    max
}

#[test]
fn element_budget_cuts_the_game_and_the_next_game_is_read() {
    let text = format!("{}{NEXT}", long_game(400));
    let limits = Limits {
        max_elements: 100,
        ..Limits::default()
    };
    let games = read_all(text.as_bytes(), limits);
    let s = summary(&games);
    assert_eq!(s.len(), 2, "{s:?}");
    assert!(s[0].0.contains(&"game-too-long"), "{s:?}");
    assert_ne!(s[0].1, Status::Clean);
    assert_eq!(s[1], (vec![], Status::Clean, 3));
}

#[test]
fn byte_budget_skips_the_game_and_the_next_game_is_read() {
    let text = format!("{}{NEXT}", long_game(4000));
    let limits = Limits {
        max_game_bytes: 4096,
        ..Limits::default()
    };
    let games = read_all(text.as_bytes(), limits);
    let all: Vec<_> = games.iter().flat_map(|(_, g)| codes(g)).collect();
    assert!(all.contains(&"game-too-large"), "{all:?}");
    let s = summary(&games);
    assert_eq!(s.last().unwrap(), &(vec![], Status::Clean, 3), "{s:?}");
    // the skipped game is accounted for, not silently dropped
    assert!(s.len() >= 2, "{s:?}");
    assert_ne!(s[0].1, Status::Clean);
}

#[test]
fn byte_budget_holds_while_streaming_through_a_small_buffer() {
    let text = format!("{}{NEXT}", long_game(20_000));
    let limits = Limits {
        max_game_bytes: 8192,
        ..Limits::default()
    };
    let reader = ArchiveReader::new(
        std::io::BufReader::with_capacity(64, text.as_bytes()),
        ReadOptions {
            encoding: None,
            limits,
        },
    );
    let raws: Vec<RawGame> = reader.map(Result::unwrap).collect();
    assert!(
        raws.iter().all(|r| r.text.len() <= 8192 + 4),
        "a chunk over budget"
    );
    let last = raws.last().unwrap();
    assert_eq!(last.move_tokens().collect::<Vec<_>>(), ["d4", "d5", "c4"]);
}

#[test]
fn depth_budget_stops_the_game_and_the_next_game_is_read() {
    let text = format!("{}{NEXT}", nested_variations(50, true));
    let limits = Limits {
        max_depth: 8,
        ..Limits::default()
    };
    let games = read_all(text.as_bytes(), limits);
    let s = summary(&games);
    assert_eq!(s.len(), 2, "{s:?}");
    assert!(s[0].0.contains(&"variation-too-deep"), "{s:?}");
    assert_eq!(s[1], (vec![], Status::Clean, 3));
}

#[test]
fn comment_budget_warns_and_keeps_the_game() {
    let text = format!(
        "[Event \"c\"]\n\n1. e4 {{{}}} e5 *\n\n{NEXT}",
        "x".repeat(5000)
    );
    let limits = Limits {
        max_comment_bytes: 1000,
        ..Limits::default()
    };
    let s = summary(&read_all(text.as_bytes(), limits));
    assert_eq!(s.len(), 2, "{s:?}");
    assert_eq!(s[0], (vec!["comment-too-long"], Status::Repaired, 2));
    assert_eq!(s[1], (vec![], Status::Clean, 3));
}

#[test]
fn ten_thousand_nested_variations_through_the_pipeline() {
    let (s, elapsed) = on_small_stack(|| {
        let t = Instant::now();
        let text = format!("{}{NEXT}", nested_variations(10_000, true));
        let games = read_all(text.as_bytes(), Limits::default());
        let s = summary(&games);
        drop(games);
        (s, t.elapsed())
    });
    assert_eq!(s.len(), 2, "{s:?}");
    // the default depth budget (256) stops the game with a diagnostic
    assert!(s[0].0.contains(&"variation-too-deep"), "{s:?}");
    assert_eq!(s[1], (vec![], Status::Clean, 3));
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
}

#[test]
fn ten_thousand_unclosed_variations_through_the_pipeline() {
    let s = on_small_stack(|| {
        let text = format!("{}{NEXT}", nested_variations(10_000, false));
        summary(&read_all(text.as_bytes(), Limits::default()))
    });
    assert_eq!(s.len(), 2, "{s:?}");
    assert!(s[0].0.contains(&"variation-too-deep"), "{s:?}");
    assert_eq!(s[1], (vec![], Status::Clean, 3));
}

/// With the depth budget lifted, reading and replay themselves must not recurse: the
/// whole tree of 2 000 nested variations is built, and dropped, on a 256 KiB stack.
/// (Cloning or comparing the resulting `Game` is recursive in `game.rs`'s derived
/// impls; that is bounded by the default depth budget, see
/// `default_depth_budget_bounds_the_game_tree`.)
#[test]
fn reading_and_replay_do_not_recurse() {
    let depth = on_small_stack(|| {
        let text = nested_variations(2_000, true);
        let limits = Limits {
            max_depth: 1 << 20,
            ..Limits::default()
        };
        let mut games = read_all(text.as_bytes(), limits);
        let (_, game) = games.pop().unwrap();
        assert_eq!(codes(&game), Vec::<&str>::new());
        depth_of(&game.moves)
    });
    assert_eq!(depth, 2_000);
}

/// The tree of a game at the default depth budget (256) can be dropped, cloned,
/// compared and written as PGN and JSON on a small stack.
#[test]
fn default_depth_budget_bounds_the_game_tree() {
    on_small_stack(|| {
        let text = nested_variations(Limits::default().max_depth, true);
        let mut games = read_all(text.as_bytes(), Limits::default());
        let (_, game) = games.pop().unwrap();
        assert_eq!(codes(&game), Vec::<&str>::new());
        assert_eq!(depth_of(&game.moves), Limits::default().max_depth);
        let copy = game.clone();
        assert!(copy == game);
        // the writers recurse once per variation level too
        let pgn = to_pgn_string(&game, &PgnOptions::default());
        assert_eq!(pgn.matches('(').count(), Limits::default().max_depth);
        let json = to_json_string(&game, &JsonOptions::default());
        assert!(json.contains("\"variations\":["), "{json}");
    });
}

/// Found while writing `reading_and_replay_do_not_recurse`: `Game`'s derived `Drop`
/// recursed once per nesting level of variations (`MoveNode::variations: Vec<Line>`),
/// so a game built with a lifted depth budget overflowed a small stack when dropped.
/// Fixed: `Line` has an iterative `Drop` (`src/model/game.rs`). `Clone`, `PartialEq` and the
/// PGN and JSON writers still recurse per level, bounded by the depth budget (see
/// `default_depth_budget_bounds_the_game_tree`).
#[test]
fn deep_game_tree_drops_on_a_small_stack() {
    on_small_stack(|| {
        let text = nested_variations(20_000, true);
        let limits = Limits {
            max_depth: 1 << 20,
            ..Limits::default()
        };
        drop(read_all(text.as_bytes(), limits));
    });
}

#[test]
fn hundred_thousand_plies_replay_quickly() {
    let (s, elapsed) = on_small_stack(|| {
        let text = long_game(100_000);
        let t = Instant::now();
        // (150 000 elements: over the default budget, which bounds memory)
        let limits = Limits {
            max_elements: 1 << 20,
            ..Limits::default()
        };
        let games = read_all(text.as_bytes(), limits);
        (summary(&games), t.elapsed())
    });
    // a shuffle of pieces: the end-of-game facts (notes) say a draw could be claimed
    assert_eq!(
        s,
        vec![(
            vec!["repetition-claim", "fifty-move-claim"],
            Status::Clean,
            100_000
        )]
    );
    // about 0.1 s in the test profile; generous for a loaded 2-core machine
    assert!(elapsed < Duration::from_secs(15), "{elapsed:?}");
}

#[test]
fn comment_that_never_closes_is_reported_and_the_next_game_is_read() {
    let text = format!(
        "[Event \"open\"]\n\n1. e4 {{ never closed 2. d4 d5 {}\n\n{NEXT}",
        "word ".repeat(2000)
    );
    let s = summary(&read_all(text.as_bytes(), Limits::default()));
    assert_eq!(s.len(), 2, "{s:?}");
    assert!(s[0].0.contains(&"unterminated-comment"), "{s:?}");
    assert_eq!(s[1], (vec![], Status::Clean, 3));
}

#[test]
fn comment_that_never_closes_to_the_end_of_a_huge_file() {
    let mut text = String::from("[Event \"open\"]\n\n1. e4 {");
    // one clause per line: a single 3 MB line would be over the line budget instead
    text.push_str(&"no closing brace, no tag section;\n".repeat(100_000));
    let s = summary(&read_all(text.as_bytes(), Limits::default()));
    assert_eq!(s.len(), 1, "{s:?}");
    assert!(s[0].0.contains(&"unterminated-comment"), "{s:?}");
    assert!(s[0].0.contains(&"comment-too-long"), "{s:?}");
    assert_eq!(s[0].2, 1);
}

#[test]
fn binary_junk_between_games_is_reported_and_both_games_read() {
    let mut bytes = b"[Event \"a\"]\n\n1. e4 e5 1-0\n\n".to_vec();
    bytes.extend((0..=255u8).cycle().take(3000).map(|b| b.wrapping_mul(151)));
    bytes.extend_from_slice(b"\n\n");
    bytes.extend_from_slice(NEXT.as_bytes());
    let games = read_all(&bytes, Limits::default());
    let junk: Vec<_> = games
        .iter()
        .filter(|(junk, _)| *junk)
        .flat_map(|(_, g)| codes(g))
        .collect();
    assert!(junk.contains(&"junk-between-games"), "{junk:?}");
    let s = summary(&games);
    assert_eq!(s.len(), 2, "{s:?}");
    assert_eq!(s[0], (vec![], Status::Clean, 2), "{s:?}");
    assert_eq!(s[1], (vec![], Status::Clean, 3), "{s:?}");
}

/// Found with `corpus/bad/binary-junk.pgn`: binary junk right after a game's result
/// shared that game's chunk, the chunk was decoded as a whole, and the game, pure
/// ASCII itself, got the junk's `encoding-guessed` warning and counted as repaired.
/// The valid UTF-8 games before the first invalid byte are now decoded on their own.
#[test]
fn binary_junk_right_after_a_result_is_its_own_item() {
    for sep in ["\n\n", "\n", " ", ""] {
        let mut bytes =
            format!("[Event \"a\"]\n[White \"Nguyễn\"]\n\n1. e4 e5 1-0{sep}").into_bytes();
        let junk_start = bytes.len();
        bytes.extend_from_slice(b"\x00\x01\xff\xfe\x89PNG\r\n\x1a\n\x00\x9c}\xe5\n\n");
        bytes.extend_from_slice(NEXT.as_bytes());
        let raws = read_bytes(&bytes, ReadOptions::default());
        let kinds: Vec<_> = raws
            .iter()
            .map(|r| {
                (
                    r.junk,
                    r.diagnostics
                        .iter()
                        .map(|d| d.code.as_str())
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        assert_eq!(raws.len(), 3, "{sep:?}: {kinds:?}");
        let (game, junk) = (&raws[0], &raws[1]);
        assert_eq!(game.tag("White").as_deref(), Some("Nguyễn"), "{sep:?}");
        assert!(game.diagnostics.is_empty(), "{sep:?}: {kinds:?}");
        assert_eq!(game.byte_end, junk.byte_start, "{sep:?}");
        assert!(junk.junk, "{sep:?}: {kinds:?}");
        assert!(
            junk.diagnostics
                .iter()
                .any(|d| d.code == "junk-between-games"),
            "{sep:?}: {kinds:?}"
        );
        // the junk item starts at the first byte after the result's whitespace
        assert_eq!(junk.byte_start as usize, junk_start, "{sep:?}");
        assert_eq!(
            junk.first_line,
            if sep == "\n\n" {
                6
            } else if sep == "\n" {
                5
            } else {
                4
            }
        );
        let s = summary(&read_all(&bytes, Limits::default()));
        assert_eq!(
            s,
            vec![(vec![], Status::Clean, 2), (vec![], Status::Clean, 3)],
            "{sep:?}"
        );
    }
}

const LONG: usize = 100;

fn line_limits() -> Limits {
    Limits {
        max_line_bytes: LONG,
        ..Limits::default()
    }
}

/// A line over the line budget: where it stands decides what is reported; reading
/// resynchronizes at the next tag section in every case, also through a small buffer.
#[test]
fn line_budget_reports_the_long_line_and_the_next_game_is_read() {
    let long = format!("{{{}}}", "x".repeat(LONG));
    let at_limit = format!("{{{}}}", "x".repeat(LONG - 2));
    // (text before NEXT, expected games: (codes, status, moves), junk items' codes)
    type Case = (
        String,
        Vec<(Vec<&'static str>, Status, usize)>,
        Vec<Vec<&'static str>>,
    );
    let cases: Vec<Case> = vec![
        // at the limit: nothing to report
        (
            format!("[Event \"a\"]\n\n1. e4\n{at_limit}\ne5 *\n\n"),
            vec![(vec![], Status::Clean, 2), (vec![], Status::Clean, 3)],
            vec![],
        ),
        // the game's only movetext line: the game is not read, its text kept (failed)
        (
            format!("[Event \"a\"]\n\n1. e4 {long} e5 *\n2. d4 *\n\n"),
            vec![
                (vec!["line-too-long"], Status::Failed, 0),
                (vec![], Status::Clean, 3),
            ],
            vec![vec!["line-too-long"]],
        ),
        // a long tag line: the game is not read, its text kept verbatim (failed)
        (
            format!("[Event \"{}\"]\n\n1. e4 e5 *\n\n", "x".repeat(LONG)),
            vec![
                (vec!["line-too-long"], Status::Failed, 0),
                (vec![], Status::Clean, 3),
            ],
            vec![vec!["line-too-long"]],
        ),
        // in the middle of a game's movetext: the moves before it are kept
        (
            format!("[Event \"a\"]\n\n1. e4 e5\n2. Nf3 {long} Nc6\n3. Bb5 *\n\n"),
            vec![
                (vec!["line-too-long"], Status::Partial, 2),
                (vec![], Status::Clean, 3),
            ],
            vec![vec!["line-too-long"]],
        ),
        // after a finished game: the game is clean, the line is skipped as junk
        (
            format!(
                "[Event \"a\"]\n\n1. e4 e5 1-0\n{}\nmore junk\n\n",
                "z".repeat(3 * LONG)
            ),
            vec![(vec![], Status::Clean, 2), (vec![], Status::Clean, 3)],
            vec![vec!["line-too-long"]],
        ),
        // at the start of the file, before any game
        (
            format!("{}\n\n", "z".repeat(3 * LONG)),
            vec![
                (vec!["line-too-long"], Status::Failed, 0),
                (vec![], Status::Clean, 3),
            ],
            vec![vec!["line-too-long"]],
        ),
    ];
    for (before, games, junk) in cases {
        let text = format!("{before}{NEXT}");
        let all = read_all(text.as_bytes(), line_limits());
        let s = summary(&all);
        assert_eq!(s, games, "{text}");
        let junk_codes: Vec<_> = all
            .iter()
            .filter(|(j, _)| *j)
            .map(|(_, g)| codes(g))
            .collect();
        // the text over the budget is kept verbatim, in junk items of at most the
        // budget after the first part (issue 22: it was dropped)
        assert!(
            junk_codes.iter().all(|c| c == &["line-too-long"]),
            "{junk_codes:?}: {text}"
        );
        assert_eq!(junk_codes.is_empty(), junk.is_empty(), "{text}");
        let raws = read_bytes(
            text.as_bytes(),
            ReadOptions {
                encoding: None,
                limits: line_limits(),
            },
        );
        let kept: String = raws.iter().map(|r| r.text.as_str()).collect();
        let no_space = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        assert_eq!(no_space(&kept), no_space(&text));
        assert!(raws.iter().filter(|r| r.junk).all(|r| r.text.len() <= LONG));
        // the same through an 8-byte buffer
        let reader = ArchiveReader::new(
            std::io::BufReader::with_capacity(8, text.as_bytes()),
            ReadOptions {
                encoding: None,
                limits: line_limits(),
            },
        );
        let raws: Vec<RawGame> = reader.map(Result::unwrap).collect();
        let again: Vec<_> = raws
            .into_iter()
            .map(|r| (r.junk, replay(r, &ReplayOptions::default())))
            .collect();
        assert_eq!(summary(&again), games, "buffered: {text}");
    }
}

#[test]
fn invalid_utf8_in_the_middle_of_a_game_is_reported_and_the_game_kept() {
    let bytes = b"[Event \"u\"]\n\n1. e4 e5 2. Nf3 { \xff\xfe\xc3( } Nc6 *\n\n[Event \"next\"]\n\n1. d4 d5 2. c4 *\n";
    let s = summary(&read_all(bytes, Limits::default()));
    assert_eq!(s.len(), 2, "{s:?}");
    // decoded with a guessed legacy encoding: every move kept, with a warning
    assert_eq!(s[0].2, 4, "{s:?}");
    assert!(s[0].0.iter().any(|c| c.starts_with("encoding-")), "{s:?}");
    assert_eq!(s[1], (vec![], Status::Clean, 3));
}

#[test]
fn truncated_tags_are_reported_and_the_next_game_is_read() {
    let text =
        format!("[Event \"cut\n[Site \"x\"\n[Date 2024]\n\n1. e4 e5 *\n\n{NEXT}[Event \"end");
    let s = summary(&read_all(text.as_bytes(), Limits::default()));
    assert!(s.len() >= 2, "{s:?}");
    assert!(s[0].0.iter().any(|c| c.contains("tag")), "{s:?}");
    assert_eq!(s[0].2, 2, "{s:?}");
    assert_eq!(s[1], (vec![], Status::Clean, 3));
    // the cut-off tag at the end of the file is not dropped silently
    assert!(s.len() == 3 || !s.last().unwrap().0.is_empty(), "{s:?}");
}

#[test]
fn defaults_are_documented() {
    // docs/robustness.md states these numbers: keep them in step
    assert_eq!(
        Limits::default(),
        Limits {
            max_game_bytes: 4 << 20,
            max_elements: 1 << 16,
            max_depth: 256,
            max_comment_bytes: 1 << 20,
            max_line_bytes: 1 << 20,
        }
    );
}

/// Found with `corpus/bad/invalid-utf8.pgn`: a chunk that is valid UTF-8 except for a
/// few stray bytes is decoded whole with a guessed legacy encoding, so its valid UTF-8
/// text (`Nguyễn` in a tag) turns into mojibake, and the game's moves can break
/// (`B\x80b5`). UTF-8 with replacement (`encoding-replaced`) would keep the text; a
/// candidate for `text::decode::decode_chunk` when most non-ASCII runs are valid UTF-8.
#[test]
fn mostly_utf8_chunk_with_stray_bytes_keeps_its_utf8_text() {
    let bytes = "[Event \"u\"]\n[White \"Nguyễn Văn Đức\"]\n\n1. e4 e5 2. Nf3 { \u{FFFD} } Nc6 *\n"
        .replace('\u{FFFD}', "\u{1}")
        .into_bytes()
        .into_iter()
        .map(|b| if b == 1 { 0xff } else { b })
        .collect::<Vec<u8>>();
    let games = read_all(&bytes, Limits::default());
    let (_, game) = games.last().unwrap();
    assert_eq!(game.tags.get("White"), Some("Nguyễn Văn Đức"));
}

/// Found by the `archive_bytes` fuzz target (profiled: 75 % of the time in
/// `suggest::distance`): the did-you-mean search computes an edit distance between the
/// whole failing token and every candidate, allocating a `len × len` matrix, for the
/// whole token however long, so one long garbage move token costs seconds: in the
/// release CLI a 20 kB token takes 5.7 s and a 200 kB one 93 s (a game may be 16 MiB).
/// The diagnostic message also quotes the whole token. Locations: `src/replay/suggest.rs`
/// (`suggest`/`distance`: skip or cut tokens longer than any move, ~16 characters) and
/// the message in `src/replay/` / `src/notation/chess/syntax.rs` (truncate the
/// quoted token).
#[test]
fn long_garbage_move_token_is_rejected_quickly() {
    let text = format!("[Event \"t\"]\n\n1. e4 e5 2. N{}3 *\n", "f".repeat(50_000));
    let t = Instant::now();
    let s = summary(&read_all(text.as_bytes(), Limits::default()));
    let elapsed = t.elapsed();
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].2, 2, "{s:?}");
    assert!(elapsed < Duration::from_secs(1), "{elapsed:?}");
}
