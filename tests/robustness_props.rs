//! Property tests (proptest) over the whole reading pipeline:
//!
//! - random legal games of chess, chess960 (random start position) and xiangqi, written
//!   in every language table and style (FIDE SAN, PGN SAN, long algebraic, UCI; ICCS
//!   for xiangqi), read back through `archive::read_str` + `replay::replay` to the same
//!   moves, with no error;
//! - random mutations (byte flips, insertions, deletions, truncation) of valid records
//!   never panic, every span of every diagnostic and move lies within the game's text
//!   on character boundaries, a game that is not clean says why, and the reader loses
//!   no bytes between games;
//! - accounting: games in = clean + repaired + partial + failed.
//!
//! Case counts are kept small so the suite stays fast; raise them with
//! `PROPTEST_CASES=10000 cargo test --test robustness_props`.

#![allow(clippy::unwrap_used)]

use kyphu::archive::{RawGame, ReadOptions, read_bytes, read_str};
use kyphu::chess::{Move, Position};
use kyphu::model::diag::{Severity, Span};
use kyphu::model::game::{AnyMove, Game, Line, Status};
use kyphu::notation::chess::{PieceTable, SanStyle, tables, write_long, write_san, write_uci};
use kyphu::notation::xiangqi::{Dialect, Glyphs, read_play as xq_read_play, write as xq_write};
use kyphu::replay::{ReplayOptions, replay};
use kyphu::text::sniff_bom;
use kyphu::xiangqi;
use proptest::prelude::*;

mod common;
use common::*;

fn xiangqi_game(choices: &[u16]) -> Vec<xiangqi::Move> {
    let mut pos = xiangqi::Position::default();
    let mut out = Vec::new();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[usize::from(c) % moves.len()];
        out.push(m);
        pos.play_unchecked(m);
    }
    out
}

#[derive(Copy, Clone, Debug)]
enum Style {
    San(SanStyle),
    Long(SanStyle),
    Uci,
}

fn write_move(out: &mut String, pos: &Position, m: &Move, style: Style) {
    match style {
        Style::San(s) => write_san(out, pos, m, &s),
        Style::Long(s) => write_long(out, pos, m, &s),
        Style::Uci => write_uci(out, pos, m),
    }
}

/// A PGN game text: tags, then numbered movetext.
fn pgn_text(tags: &[(&str, &str)], tokens: &[String]) -> String {
    let mut s = String::new();
    for (n, v) in tags {
        s.push_str(&format!("[{n} \"{v}\"]\n"));
    }
    s.push('\n');
    for (i, t) in tokens.iter().enumerate() {
        if i.is_multiple_of(2) {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(t);
        s.push(' ');
    }
    s.push_str("*\n");
    s
}

fn main_line(game: &Game) -> Vec<AnyMove> {
    game.moves.moves.iter().map(|n| n.mv).collect()
}

/// Reads `text` (one game) with the language `table` and returns the game.
fn read_one(text: &str, table: Option<&'static PieceTable>) -> Game {
    let mut raws = read_str(text);
    raws.retain(|r| !r.junk);
    assert_eq!(raws.len(), 1, "expected one game in {text:?}");
    replay(
        raws.pop().unwrap(),
        &ReplayOptions {
            lang: table,
            ..ReplayOptions::default()
        },
    )
}

fn styles(table: &'static PieceTable) -> Vec<(String, Style)> {
    let mut v = vec![
        (
            format!("fide san {}", table.code),
            Style::San(SanStyle::fide(table)),
        ),
        (
            format!("fide long {}", table.code),
            Style::Long(SanStyle::fide(table)),
        ),
        (
            format!("pgn-like san {}", table.code),
            Style::San(SanStyle {
                table,
                ..SanStyle::pgn()
            }),
        ),
        (format!("uci {}", table.code), Style::Uci),
    ];
    if table.code == "en" {
        v.push(("pgn san".into(), Style::San(SanStyle::pgn())));
        v.push(("pgn long".into(), Style::Long(SanStyle::pgn())));
    }
    v
}

/// A plain king move (not castling) to the square castling would also take the king
/// to: possible only in chess960 (king f1, rook h1, `Kf1-g1`).
fn king_step_to_castling_square(pos: &Position, m: &Move) -> bool {
    m.castling_side().is_none()
        && m.role() == kyphu::chess::Role::King
        && pos
            .legal_moves()
            .iter()
            .any(|c| c.castling_side().is_some() && c.to() == m.to())
}

/// Writes `game` in every table and style and checks it reads back to the same moves.
fn round_trip_chess(tags: &[(&str, &str)], game: &[(Position, Move)]) -> Result<(), TestCaseError> {
    let expected: Vec<AnyMove> = game.iter().map(|(_, m)| AnyMove::Chess(*m)).collect();
    let long_ok = !game
        .iter()
        .any(|(pos, m)| king_step_to_castling_square(pos, m));
    for table in tables() {
        for (name, style) in styles(table) {
            if matches!(style, Style::Long(_) | Style::Uci) && !long_ok {
                // known bug, see `chess960_long_king_step_to_castling_square_reads_back`
                // and `chess960_uci_king_step_to_castling_square_reads_back`
                continue;
            }
            let tokens: Vec<String> = game
                .iter()
                .map(|(pos, m)| {
                    let mut s = String::new();
                    write_move(&mut s, pos, m, style);
                    s
                })
                .collect();
            let text = pgn_text(tags, &tokens);
            let read = read_one(&text, Some(table));
            prop_assert_eq!(errors(&read), Vec::<String>::new(), "{}: {}", name, text);
            prop_assert_eq!(main_line(&read), expected.clone(), "{}: {}", name, text);
        }
    }
    Ok(())
}

/// A chess record with tags, comments, a NAG, a variation and a result: the valid
/// input the mutation properties start from.
fn rich_record(game: &[(Position, Move)], variation_at: usize) -> String {
    let mut s = String::from(
        "[Event \"Giải vô địch — ♔\"]\n[White \"Nguyễn\"]\n[Black \"Müller\"]\n[Result \"*\"]\n\n{Mở đầu} ",
    );
    let at = if game.is_empty() {
        0
    } else {
        variation_at % game.len()
    };
    for (i, (pos, m)) in game.iter().enumerate() {
        if i.is_multiple_of(2) {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        write_san(&mut s, pos, m, &SanStyle::pgn());
        s.push(' ');
        if i == at {
            s.push_str("$1 {một ghi chú [%clk 1:30:00]} ");
            let alt = pos.legal_moves().into_iter().find(|a| a != m);
            if let Some(a) = alt {
                s.push_str(
                    if i.is_multiple_of(2) {
                        format!("({}. ", i / 2 + 1)
                    } else {
                        format!("({}... ", i / 2 + 1)
                    }
                    .as_str(),
                );
                write_san(&mut s, pos, &a, &SanStyle::pgn());
                s.push_str(" {biến} ) ");
            }
        }
    }
    s.push_str("*\n\n");
    s
}

fn within(text: &str, s: Span) -> bool {
    s.start <= s.end && text.get(s.start as usize..s.end as usize).is_some()
}

fn check_spans(game: &Game) -> Result<(), TestCaseError> {
    let text = &game.source.text;
    for d in &game.diagnostics {
        if let Some(s) = d.span {
            prop_assert!(
                within(text, s),
                "diagnostic {} span {:?} in {:?}",
                d.code,
                s,
                text
            );
        }
    }
    let mut stack: Vec<&Line> = vec![&game.moves];
    while let Some(line) = stack.pop() {
        for m in &line.moves {
            prop_assert!(within(text, m.span), "move span {:?} in {:?}", m.span, text);
            stack.extend(m.variations().iter());
        }
    }
    Ok(())
}

/// A game that is not clean carries a diagnostic that says why: an error when replay
/// stopped, a warning or an illegal move kept when it was repaired.
fn check_status_explained(game: &Game) -> Result<(), TestCaseError> {
    let has = |sev: Severity| game.diagnostics.iter().any(|d| d.severity >= sev);
    match game.status() {
        Status::Clean => {}
        Status::Repaired => prop_assert!(
            has(Severity::Warning) || game.moves.moves.iter().any(|m| m.illegal),
            "repaired without a warning: {:?}",
            game.source.text
        ),
        Status::Partial | Status::Failed => prop_assert!(
            has(Severity::Error),
            "{:?} without an error diagnostic: {:?} (unparsed {:?})",
            game.status(),
            game.source.text,
            game.unparsed
        ),
    }
    Ok(())
}

/// The reader's games (junk included) tile the input: in order, no overlap, and what
/// lies between two of them is only whitespace. Parts of one chunk split after a result
/// may all carry the chunk's range (`docs/archive-reading.md`); input with a BOM is
/// measured after the BOM or in a transcoded stream, so it is not checked here.
fn check_tiling(input: &[u8], raws: &[RawGame]) -> Result<(), TestCaseError> {
    if sniff_bom(input).is_some() {
        return Ok(());
    }
    let mut at = 0u64;
    let mut prev = None;
    for r in raws {
        prop_assert!(
            r.byte_start <= r.byte_end,
            "{}..{}",
            r.byte_start,
            r.byte_end
        );
        if prev == Some((r.byte_start, r.byte_end)) {
            continue;
        }
        prop_assert!(r.byte_start >= at, "games overlap at {}", r.byte_start);
        let gap = input.get(at as usize..r.byte_start as usize).unwrap_or(&[]);
        prop_assert!(
            gap.iter().all(u8::is_ascii_whitespace),
            "bytes {at}..{} dropped between games: {:?}",
            r.byte_start,
            String::from_utf8_lossy(gap)
        );
        at = r.byte_end;
        prev = Some((r.byte_start, r.byte_end));
    }
    let tail = input.get(at as usize..).unwrap_or(&[]);
    prop_assert!(
        tail.iter().all(u8::is_ascii_whitespace),
        "bytes after the last game dropped: {:?}",
        String::from_utf8_lossy(tail)
    );
    Ok(())
}

/// Reads and replays `input`, checks every invariant, and returns the statuses of
/// the games (junk excluded).
fn read_and_check(input: &[u8]) -> Result<Vec<Status>, TestCaseError> {
    let raws = read_bytes(input, ReadOptions::default());
    check_tiling(input, &raws)?;
    let mut statuses = Vec::new();
    for raw in raws {
        let junk = raw.junk;
        let game = replay(raw, &ReplayOptions::default());
        check_spans(&game)?;
        if junk {
            prop_assert!(
                game.diagnostics
                    .iter()
                    .any(|d| d.code == "junk-between-games")
            );
        } else {
            check_status_explained(&game)?;
            statuses.push(game.status());
        }
    }
    Ok(statuses)
}

/// How many games of `input` are repaired only by a `language-tie` warning: no other
/// diagnostic above a note.
fn language_ties(input: &[u8]) -> usize {
    read_bytes(input, ReadOptions::default())
        .into_iter()
        .filter(|raw| !raw.junk)
        .map(|raw| replay(raw, &ReplayOptions::default()))
        .filter(|game| {
            game.status() == Status::Repaired
                && game
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity != Severity::Note)
                    .all(|d| d.code == "language-tie")
        })
        .count()
}

fn count(statuses: &[Status]) -> [usize; 4] {
    let mut c = [0; 4];
    for s in statuses {
        c[match s {
            Status::Clean => 0,
            Status::Repaired => 1,
            Status::Partial => 2,
            Status::Failed => 3,
        }] += 1;
    }
    c
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn chess_games_round_trip_in_every_table(choices in prop::collection::vec(any::<u16>(), 0..80)) {
        let game = chess_game(&Position::default(), &choices);
        round_trip_chess(&[("Event", "prop")], &game)?;
    }

    #[test]
    fn chess960_games_round_trip_in_every_table(
        n in 0..960usize,
        choices in prop::collection::vec(any::<u16>(), 0..60),
    ) {
        let fen = chess960_fen(n);
        let start = Position::from_fen_chess960(&fen).unwrap();
        let game = chess_game(&start, &choices);
        round_trip_chess(&[("Variant", "Chess960"), ("SetUp", "1"), ("FEN", &fen)], &game)?;
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn xiangqi_games_round_trip_in_iccs(
        choices in prop::collection::vec(any::<u16>(), 0..120),
        upper in any::<bool>(),
    ) {
        let moves = xiangqi_game(&choices);
        let tokens: Vec<String> = moves
            .iter()
            .map(|m| {
                let s = m.iccs();
                if upper {
                    let (a, b) = s.split_at(2);
                    format!("{}-{}", a.to_ascii_uppercase(), b.to_ascii_uppercase())
                } else {
                    s
                }
            })
            .collect();
        let text = pgn_text(&[("Game", "Chinese Chess")], &tokens);
        let read = read_one(&text, None);
        prop_assert_eq!(errors(&read), Vec::<String>::new(), "{}", text);
        let expected: Vec<AnyMove> = moves.iter().map(|m| AnyMove::Xiangqi(*m)).collect();
        prop_assert_eq!(main_line(&read), expected, "{}", text);
    }
}

/// Every xiangqi dialect the notation layer writes, both Chinese glyph sets.
fn dialects() -> Vec<Dialect> {
    let mut v = Dialect::ALL.to_vec();
    v.push(Dialect::Chinese(Glyphs::Traditional));
    v
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn xiangqi_games_round_trip_in_every_dialect(
        choices in prop::collection::vec(any::<u16>(), 0..100),
    ) {
        let moves = xiangqi_game(&choices);
        for dialect in dialects() {
            // token by token
            let mut pos = xiangqi::Position::default();
            let mut tokens = Vec::new();
            for &m in &moves {
                let mut t = String::new();
                xq_write(&mut t, &pos, m, dialect);
                let r = xq_read_play(&t, dialect, &mut pos);
                prop_assert_eq!(r.map(|r| r.mv), Ok(m), "{} {}", dialect, t);
                tokens.push(t);
            }
            // through the pipeline, the dialect inferred from the whole game
            let text = pgn_text(&[("Game", "Chinese Chess")], &tokens);
            let read = read_one(&text, None);
            prop_assert_eq!(errors(&read), Vec::<String>::new(), "{}: {}", dialect, text);
            let expected: Vec<AnyMove> = moves.iter().map(|m| AnyMove::Xiangqi(*m)).collect();
            if main_line(&read) != expected {
                // a short game can be another legal game in a notation preferred to
                // this one (`B3+1`: WXF elephant, Asian-marks pawn); never silently
                let warned = read.diagnostics.iter().any(|d| {
                    d.code == "notation-tie"
                        && d.severity == Severity::Warning
                        && d.message.contains(&dialect.to_string())
                });
                prop_assert!(warned, "{}: {} read as another game without a warning", dialect, text);
            }
        }
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn mutated_records_never_panic_and_keep_spans_valid(
        games in prop::collection::vec(
            (prop::collection::vec(any::<u16>(), 0..40), any::<usize>()),
            1..4,
        ),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let mut bytes = Vec::new();
        for (choices, at) in &games {
            let g = chess_game(&Position::default(), choices);
            bytes.extend_from_slice(rich_record(&g, *at).as_bytes());
        }
        // unmutated: exactly one game per record, clean, or repaired only by a
        // `language-tie` warning (a short English game that another letter table, such
        // as Finnish `R` for the knight, replays as another game)
        let statuses = read_and_check(&bytes)?;
        let ties = language_ties(&bytes);
        prop_assert_eq!(count(&statuses), [games.len() - ties, ties, 0, 0]);
        for m in mutations {
            apply(&mut bytes, m);
        }
        let statuses = read_and_check(&bytes)?;
        let [clean, repaired, partial, failed] = count(&statuses);
        prop_assert_eq!(statuses.len(), clean + repaired + partial + failed);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        read_and_check(&bytes)?;
    }
}

#[test]
fn chess960_numbering() {
    assert_eq!(
        chess960_fen(518),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    assert_eq!(
        chess960_fen(0),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    );
    for n in 0..960 {
        Position::from_fen_chess960(&chess960_fen(n)).unwrap();
    }
}

/// Found by `chess960_games_round_trip_in_every_table`: in chess960 a plain king step
/// to the square castling also takes the king to is written `Kf1-g1` by
/// `notation::chess::write_long`, and the reader reports it as `ambiguous-move` (it
/// fits Kg1 and O-O), although SAN `Kg1` of the same move reads back as the king step.
/// Either the long reader should take `K<from>-<to>` as the plain king move when that
/// move is legal (castling is written `O-O`), or the writer should write something
/// unambiguous. Location: `src/notation/chess/resolve.rs` (long-form king moves).
#[test]
fn chess960_long_king_step_to_castling_square_reads_back() {
    let text = "[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
                [FEN \"nbbnrkqr/pppppppp/8/8/8/8/PPPPPPPP/NBBNRKQR w HEhe - 0 1\"]\n\n\
                1. b2-b4 e7-e6 2. e2-e4 a7-a5 3. f2-f4 h7-h6 4. Qg1-f2 b7-b5 \
                5. Qf2-g3 Qg8-h7 6. Kf1-g1 *\n";
    let game = read_one(text, Some(kyphu::notation::chess::english()));
    assert_eq!(errors(&game), Vec::<String>::new());
    assert_eq!(game.moves.moves.len(), 11);
    let last = game.moves.moves.last().unwrap().mv;
    let AnyMove::Chess(m) = last else {
        panic!("not a chess move: {last:?}")
    };
    assert_eq!(m.castling_side(), None, "read as castling: {m:?}");
}

/// The same bug in UCI: in chess960 UCI writes castling as king-takes-rook (`d1a1`),
/// so `d1c1` can only be the plain king step, but it is read as `ambiguous-move` (it
/// fits Kc1 and O-O-O). Location: `src/notation/chess/resolve.rs`.
#[test]
fn chess960_uci_king_step_to_castling_square_reads_back() {
    let text = "[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
                [FEN \"rbnkbrnq/pppppppp/8/8/8/8/PPPPPPPP/RBNKBRNQ w FAfa - 0 1\"]\n\n\
                1. e2e4 b7b5 2. c2c4 g7g6 3. b1d3 a7a6 4. a2a4 h8g7 5. b2b4 g7f6 \
                6. a4b5 g8h6 7. h2h3 c7c6 8. b5a6 b8a7 9. c1b3 e7e5 10. d1c1 *\n";
    let game = read_one(text, Some(kyphu::notation::chess::english()));
    assert_eq!(errors(&game), Vec::<String>::new());
    assert_eq!(game.moves.moves.len(), 19);
    let last = game.moves.moves.last().unwrap().mv;
    let AnyMove::Chess(m) = last else {
        panic!("not a chess move: {last:?}")
    };
    assert_eq!(m.castling_side(), None, "read as castling: {m:?}");
}

/// Characters move tokens and FENs are made of, plus some that should not be there.
const TOKEN_CHARS: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', '1', '2', '3', '4', '5', '6', '7', '8', '9', '0',
    'K', 'Q', 'R', 'B', 'N', 'P', 'O', 'o', 'x', ':', '-', '=', '+', '#', '!', '?', '/', '(', ')',
    '.', ' ', 'e', 'p', 'M', 'T', 'X', 'H', 'S', 'L', 'D', 'C', 'A', 'V', 'F', 'k', 'q', 'r', 'n',
    'w', '♘', '♕', '†', '½', 'ệ', '炮', '二', '平', '五', '进', '退', '马', '８', 'á', 'à', 'đ',
    'Ð', '０', '－', '\u{300}', '\u{FFFD}', '\t', '\n',
];

fn token() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKEN_CHARS), 0..12)
        .prop_map(|v| v.into_iter().collect())
}

fn fen_like() -> impl Strategy<Value = String> {
    let field = prop::collection::vec(
        prop::sample::select(
            &[
                "r",
                "n",
                "b",
                "q",
                "k",
                "p",
                "R",
                "N",
                "B",
                "Q",
                "K",
                "P",
                "a",
                "c",
                "A",
                "C",
                "1",
                "2",
                "3",
                "4",
                "8",
                "9",
                "/",
                " ",
                "w",
                "b",
                "-",
                "KQkq",
                "HAha",
                "e3",
                "0",
                "1",
                "rnbakabnr",
                "9",
                "ppppppp",
                "PPPPPPPP",
                "RNBQKBNR",
            ][..],
        ),
        0..40,
    );
    field.prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(config(512))]

    /// Any token in any table: parsing and resolving never panic, and a move that
    /// resolves is legal (the stable fallback for the `chess_move` fuzz target).
    #[test]
    fn random_chess_tokens_resolve_to_legal_moves_or_errors(
        tok in token(),
        table_index in any::<usize>(),
        plies in prop::collection::vec(any::<u16>(), 0..30),
    ) {
        let table = &tables()[table_index % tables().len()];
        let game = chess_game(&Position::default(), &plies);
        let mut pos = Position::default();
        for (_, m) in &game {
            pos.play_unchecked(m);
        }
        if let Ok(r) = kyphu::notation::chess::read(&tok, table, &pos)
            && let Some(m) = r.mv
        {
            prop_assert!(pos.is_legal(&m), "{:?} resolved to illegal {:?}", tok, m);
        }
    }

    /// Any token in any xiangqi dialect: a move read is legal and the position is
    /// unchanged on error (the stable fallback for `xiangqi_move`).
    #[test]
    fn random_xiangqi_tokens_read_to_legal_moves_or_errors(
        tok in token(),
        dialect_index in any::<usize>(),
        plies in prop::collection::vec(any::<u16>(), 0..30),
    ) {
        let dialect = dialects()[dialect_index % dialects().len()];
        let mut start = xiangqi::Position::default();
        for m in xiangqi_game(&plies) {
            start.play_unchecked(m);
        }
        let mut pos = start.clone();
        match xq_read_play(&tok, dialect, &mut pos) {
            Ok(r) => prop_assert!(start.is_legal(r.mv), "{:?} read as illegal {:?}", tok, r.mv),
            Err(_) => prop_assert_eq!(pos, start),
        }
    }

    /// FEN-like strings: parsing never panics, and a position that parses writes a FEN
    /// that parses back to it (the stable fallback for `chess_fen` and `xiangqi_fen`).
    #[test]
    fn random_fens_round_trip_or_fail(
        junk in fen_like(),
        plies in prop::collection::vec(any::<u16>(), 0..40),
        edits in prop::collection::vec((any::<usize>(), prop::sample::select(TOKEN_CHARS)), 0..3),
        which in 0..3u8,
    ) {
        // junk, or the FEN of a position reached in a random game with a few edits
        let fen = match which {
            0 => junk,
            1 => {
                let g = chess_game(&Position::default(), &plies);
                let mut pos = Position::default();
                for (_, m) in &g {
                    pos.play_unchecked(m);
                }
                edit(&pos.fen(), &edits)
            }
            _ => {
                let mut pos = xiangqi::Position::default();
                for m in xiangqi_game(&plies) {
                    pos.play_unchecked(m);
                }
                edit(&pos.fen(), &edits)
            }
        };
        for parse in [Position::from_fen, Position::from_fen_chess960] {
            if let Ok(p) = parse(&fen) {
                prop_assert_eq!(parse(&p.fen()).ok(), Some(p));
            }
        }
        if let Ok(p) = xiangqi::Position::from_fen(&fen) {
            prop_assert_eq!(xiangqi::Position::from_fen(&p.fen()).ok(), Some(p));
        }
    }
}

/// Replaces the characters at the given positions (mod the length).
fn edit(s: &str, edits: &[(usize, char)]) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for &(i, c) in edits {
        if !chars.is_empty() {
            let n = chars.len();
            chars[i % n] = c;
        }
    }
    chars.into_iter().collect()
}

// ---------------------------------------------------------------------------------
// Issue 22, case 8: the accounting identity and no byte of a broken game lost, through
// `kyphu convert`, on random mixes of good games, broken games and non-game text.

/// What breaks a game, put among its moves: bad moves, comments holding braces, an
/// unclosed variation, a variation with a bad move.
const BREAKS: [&str; 8] = [
    "Qxz9",
    "Ke9",
    "{a note}",
    "{x {y} z}",
    "(1... c5 2. Nf3",
    "(2... Qxz9 Nc6)",
    "Nf9 {after}",
    "wobble",
];

/// Non-game text put between games.
const PROSE: [&str; 3] = [
    "downloaded from somewhere",
    "lunch {then} more games",
    "Nf3 is good, they say",
];

/// One piece of the mix: a good game (`None`) or a broken one (`Some(break, at)`), or
/// non-game text.
#[derive(Clone, Debug)]
enum MixPiece {
    Game(Vec<u16>, Option<(usize, usize)>),
    Prose(usize),
}

fn piece() -> impl Strategy<Value = MixPiece> {
    prop_oneof![
        3 => (prop::collection::vec(any::<u16>(), 0..30), prop::option::of((0..BREAKS.len(), any::<usize>())))
            .prop_map(|(c, b)| MixPiece::Game(c, b)),
        1 => (0..PROSE.len()).prop_map(MixPiece::Prose),
    ]
}

/// The words of `text` as the property compares them: `%` at a line start (a
/// non-game line), braces and the escapes of kyphu's comments removed, parentheses
/// made words of their own, move numbers left out.
fn words(text: &str) -> Vec<String> {
    let mut s = String::new();
    for line in text.lines() {
        s.push_str(line.strip_prefix('%').unwrap_or(line));
        s.push('\n');
    }
    let s = s
        .replace("\\x7b", "")
        .replace("\\x7d", "")
        .replace(['{', '}'], " ")
        .replace('(', " ( ")
        .replace(')', " ) ");
    // move numbers are the writer's own (the one just before the first unread move is
    // not repeated in the kept text)
    let number = |w: &&str| {
        let digits = w.trim_end_matches('.');
        digits.len() < w.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    s.split_whitespace()
        .filter(|w| !number(w))
        .map(str::to_owned)
        .collect()
}

/// `want` is a subsequence of `have`.
fn in_order(want: &[String], have: &[String]) -> bool {
    let mut it = have.iter();
    want.iter().all(|w| it.any(|h| h == w))
}

proptest! {
    #![proptest_config(config(32))]

    #[test]
    fn every_game_is_accounted_for_and_no_broken_byte_is_lost(
        pieces in prop::collection::vec(piece(), 1..8),
    ) {
        let mut input = String::new();
        let mut kept: Vec<String> = Vec::new();
        for (k, p) in pieces.iter().enumerate() {
            match p {
                MixPiece::Game(choices, broken) => {
                    let game = chess_game(&Position::default(), choices);
                    let mut tokens: Vec<String> = game
                        .iter()
                        .map(|(pos, m)| {
                            let mut s = String::new();
                            write_san(&mut s, pos, m, &SanStyle::pgn());
                            s
                        })
                        .collect();
                    if let Some((b, at)) = broken {
                        tokens.insert(at % (tokens.len() + 1), BREAKS[*b].to_owned());
                    }
                    let text = pgn_text(&[("Event", &format!("g{k}"))], &tokens);
                    if broken.is_some() {
                        kept.push(text.split_once("\n\n").map_or("", |(_, m)| m).trim_end_matches("*\n").to_owned());
                    }
                    input.push_str(&text);
                }
                MixPiece::Prose(i) => {
                    kept.push(PROSE[*i].to_owned());
                    input.push_str(PROSE[*i]);
                    input.push('\n');
                }
            }
            input.push('\n');
        }
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("accounting-prop");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("in.pgn"), &input).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kyphu"))
            .args(["convert", "--threads", "1", "in.pgn", "-o", "out.pgn"])
            .current_dir(&dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let summary = err.lines().find(|l| l.starts_with("in.pgn: ")).unwrap_or("");
        let nums: Vec<u64> = summary
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|s| s.parse().ok())
            .collect();
        prop_assert!(nums.len() >= 5, "{}", err);
        let (games, clean, repaired, partial, failed) = (nums[0], nums[1], nums[2], nums[3], nums[4]);
        prop_assert_eq!(games, clean + repaired + partial + failed, "{}", err);
        let non_game = nums.get(5).copied().unwrap_or(0);
        let code = out.status.code().unwrap_or(-1);
        prop_assert_eq!(code, if partial + failed + non_game == 0 { 0 } else { 1 }, "{}", err);
        let output = std::fs::read_to_string(dir.join("out.pgn")).unwrap();
        let have = words(&output);
        for k in &kept {
            prop_assert!(in_order(&words(k), &have), "{:?} not in\n{}\nfrom\n{}", k, output, input);
        }
    }
}

/// The case proptest found after the language choice by replay (hlang): `4. Rh3` with
/// no `N` on the main line is Finnish `Nh3` too, a tie warned about; the record is
/// repaired by that warning alone, which `mutated_records_never_panic_and_keep_spans_valid`
/// accepts.
#[test]
fn english_record_tied_with_finnish_is_repaired_by_the_tie_alone() {
    let choices = [
        3634u16, 20354, 4766, 53086, 53807, 30496, 60285, 21056, 395, 12618, 6385,
    ];
    let g = chess_game(&Position::default(), &choices);
    let bytes = rich_record(&g, 0).into_bytes();
    let statuses = read_and_check(&bytes).unwrap();
    assert_eq!(count(&statuses), [0, 1, 0, 0]);
    assert_eq!(language_ties(&bytes), 1);
}
