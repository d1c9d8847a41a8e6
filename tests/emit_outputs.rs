//! Writers on representative games: insta snapshots of PGN, JSON and CSV, plus the
//! invariants every output must keep (PGN lines under 80 characters and stable on a
//! second pass, JSON valid against `docs/schema/game.schema.json`, CSV read back to
//! the same move tokens).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use kyphu::{
    archive::{
        csv::{read_scoresheet, read_scoresheet_with_games},
        read_str,
    },
    chess::Position,
    emit::WriteMoves,
    emit::{
        Board, CsvOptions, JsonOptions, MoveStyle, PgnOptions, csv::to_csv_strings,
        json::to_json_string, pgn::to_pgn_string,
    },
    model::diag::Span,
    model::game::{AnyMove, Game, GameResult, MoveNode},
    notation::chess::{SanStyle, table},
    replay::{ReplayOptions, replay},
};

fn read(pgn: &str) -> Vec<Game> {
    read_str(pgn)
        .into_iter()
        .filter(|r| !r.junk)
        .map(|r| replay(r, &ReplayOptions::default()))
        .collect()
}

fn one(pgn: &str) -> Game {
    let mut g = read(pgn);
    assert_eq!(g.len(), 1, "{pgn}");
    g.remove(0)
}

struct Validator {
    schemas: boon::Schemas,
    index: boon::SchemaIndex,
}

impl Validator {
    fn new() -> Validator {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/schema/game.schema.json");
        let schema: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let id = schema["$id"].as_str().unwrap().to_owned();
        assert_eq!(id, kyphu::emit::SCHEMA_ID);
        let mut schemas = boon::Schemas::new();
        let mut compiler = boon::Compiler::new();
        compiler.add_resource(&id, schema).unwrap();
        let index = compiler.compile(&id, &mut schemas).unwrap();
        Validator { schemas, index }
    }

    fn check(&self, json_line: &str) {
        let v: serde_json::Value = serde_json::from_str(json_line).unwrap();
        if let Err(e) = self.schemas.validate(&v, self.index) {
            panic!("{e:#}\n{json_line}");
        }
    }
}

/// The main-line moves in the writers' notation.
fn main_line_tokens(g: &Game, style: &MoveStyle) -> Vec<String> {
    let mut b = Board::new(&g.start);
    g.moves
        .moves
        .iter()
        .map(|n| {
            let mut s = String::new();
            b.write_move(&mut s, &n.mv, style);
            b.play(&n.mv);
            s
        })
        .collect()
}

/// Every invariant of the three outputs for one game.
fn check_outputs(g: &Game, v: &Validator) {
    let pgn = to_pgn_string(g, &PgnOptions::default());
    for l in pgn.lines() {
        assert!(l.chars().count() < 80, "line too long: {l}");
    }
    let again = read(&pgn);
    assert_eq!(again.len(), 1, "{pgn}");
    let pgn2 = to_pgn_string(&again[0], &PgnOptions::default());
    assert_eq!(pgn, pgn2, "second pass differs");
    v.check(&to_json_string(g, &JsonOptions::default()));
    let (moves, games) = to_csv_strings(&[g], &CsvOptions::default());
    let back = read_scoresheet(&moves);
    assert_eq!(back.len(), 1, "{moves}");
    let raw = &back[0].raw;
    assert!(raw.diagnostics.is_empty(), "{:?}", raw.diagnostics);
    assert_eq!(
        raw.move_tokens().collect::<Vec<_>>(),
        main_line_tokens(g, &MoveStyle::default()),
        "{moves}"
    );
    assert_eq!(raw.result.map(|r| r.0), Some(g.result));
    // with its games file, the sheet replays to the same game: start, moves, result
    let full = read_scoresheet_with_games(&moves, &games);
    let r = replay(full[0].raw.clone(), &ReplayOptions::default());
    assert_eq!(r.start, g.start, "{games}");
    assert_eq!(r.variant, g.variant);
    let main = |g: &Game| {
        g.moves
            .moves
            .iter()
            .map(|n| (n.mv, n.draw_offer, n.clock, n.illegal))
            .collect::<Vec<_>>()
    };
    assert_eq!(main(&r), main(g), "{moves}");
    assert_eq!(r.result, g.result);
    for name in ["Event", "White", "Black", "Date"] {
        assert_eq!(r.tags.get(name), g.tags.get(name), "{name}");
    }
}

fn snapshot_all(name: &str, g: &Game) {
    let v = Validator::new();
    check_outputs(g, &v);
    insta::assert_snapshot!(
        format!("{name}.pgn"),
        to_pgn_string(g, &PgnOptions::default())
    );
    let json: serde_json::Value =
        serde_json::from_str(&to_json_string(g, &JsonOptions::default())).unwrap();
    insta::assert_snapshot!(
        format!("{name}.json"),
        serde_json::to_string_pretty(&json).unwrap()
    );
    let (moves, games) = to_csv_strings(&[g], &CsvOptions::default());
    insta::assert_snapshot!(format!("{name}.csv"), format!("{moves}\n{games}"));
}

const ANNOTATED: &str = r#"[Event "Giải vô địch \"quốc gia\""]
[Site "Hà Nội"]
[Date "2024.03.01"]
[Round "5"]
[White "Lê Quang Liêm"]
[Black "Nguyễn Ngọc Trường Sơn"]
[Result "1-0"]
[WhiteElo "2700"]
[ECO "C65"]

{Opening comment} 1. e4 {[%clk 1:30:00]} e5 {[%clk 1:29:58]} 2. Nf3 $1 Nc6 3. Bb5
(3. Bc4 Bc5 (3... Nf6 4. -- d5) 4. O-O) 3... Nf6 $2 {Berlin} 4. O-O (=) Nxe4
5. Re1 Nd6 6. Nxe5 Be7 7. Bf1 Nxe5 8. Rxe5 O-O 9. d4 Bf6 10. Re1 Re8 11. c3 Rxe1
12. Qxe1 Ne8 13. Bf4 d5 14. Nd2 Bf5 15. Qe2 c6 16. Re1 Nd6 17. Nf3 h6 18. h3 Qd7
19. Ne5 Bxe5 20. Bxe5 Re8 21. Qf3 f6 22. Bxd6 Rxe1 23. Bc5 Re8 24. g4 Bg6
25. Qf4 b6 26. Ba3 c5 27. dxc5 bxc5 28. Bxc5 Qc7 29. Qxc7 1-0
"#;

#[test]
fn annotated_chess_game() {
    snapshot_all("annotated", &one(ANNOTATED));
}

#[test]
fn promotion_and_mate() {
    let g = one(
        "[Event \"promo\"]\n[SetUp \"1\"]\n[FEN \"8/P5k1/8/8/8/8/6K1/8 w - - 0 60\"]\n\n\
         60. a8=Q Kf6 61. Qf8+ Ke5 62. Kg3 Kd5 63. Qf5+ Kd4 64. Kf3 Kc3 65. Qc5+ Kd3 66. Qd5+ Kc3 67. Ke3 Kb4 68. Kd3 Ka3 69. Qb5 Ka2 70. Kc2 Ka1 71. Qa4# 1-0\n",
    );
    assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
    snapshot_all("promotion_from_fen", &g);
}

#[test]
fn black_to_move_from_fen() {
    let g = one(
        "[Event \"fen\"]\n[FEN \"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\"]\n\n\
         3. Bb5 a6 4. Ba4 Nf6 (4... b5 5. Bb3) 5. O-O *\n",
    );
    snapshot_all("from_fen", &g);
}

#[test]
fn chess960_game() {
    let g = one("[Event \"960\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
         [FEN \"bnrkrqnb/pppppppp/8/8/8/8/PPPPPPPP/BNRKRQNB w KQkq - 0 1\"]\n\n\
         1. Nf3 Nf6 2. Nc3 Nc6 3. O-O-O O-O-O 4. e4 e5 *\n");
    assert!(
        g.diagnostics
            .iter()
            .all(|d| d.severity != kyphu::model::diag::Severity::Error),
        "{:?}",
        g.diagnostics
    );
    snapshot_all("chess960", &g);
}

#[test]
fn partial_game_keeps_unparsed() {
    let g = one("[Event \"broken\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Ke3 4. O-O } Nf6 *\n");
    assert!(g.unparsed.is_some());
    let pgn = to_pgn_string(&g, &PgnOptions::default());
    assert!(pgn.contains("{kyphu: unparsed: Ke3"), "{pgn}");
    snapshot_all("partial", &g);
}

#[test]
fn xiangqi_game() {
    let g = one(
        "[Game \"Chinese Chess\"]\n[Event \"Cờ tướng\"]\n[Red \"Lại Lý Huynh\"]\n\n\
         1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 1/2-1/2\n",
    );
    assert_eq!(g.kind(), kyphu::model::game::GameKind::Xiangqi);
    assert_eq!(g.moves.moves.len(), 6, "{:?}", g.diagnostics);
    snapshot_all("xiangqi", &g);
}

#[test]
fn kept_illegal_move_and_reduced_export() {
    // built by hand: 1. e4 e5 2. Ke3?? (illegal, kept) Nc6
    let mut g = Game::new_chess();
    let mut pos = Position::default();
    for uci in ["e2e4", "e7e5", "e1e3", "b8c6"] {
        let m = match pos.legal_moves().iter().find(|m| m.uci(false) == uci) {
            Some(m) => *m,
            None => kyphu::chess::Move::Normal {
                role: kyphu::chess::Role::King,
                from: kyphu::chess::Square::E1,
                capture: None,
                to: kyphu::chess::Square::parse("e3").unwrap(),
                promotion: None,
            },
        };
        let mut n = MoveNode::new(AnyMove::Chess(m), Span::default());
        n.illegal = uci == "e1e3";
        pos.play_unchecked(&m);
        g.moves.moves.push(n);
    }
    g.moves.moves[1]
        .extras_mut()
        .comments
        .push("a comment".into());
    g.moves.moves[1].extras_mut().nags.push(3);
    g.result = GameResult::BlackWins;
    g.tags.set("White", "Ann");
    g.tags.set("Annotator", "kyphu");
    let full = to_pgn_string(&g, &PgnOptions::default());
    assert!(full.contains("2. Ke3 {kyphu: illegal move}"), "{full}");
    let reduced = to_pgn_string(
        &g,
        &PgnOptions {
            reduced: true,
            ..PgnOptions::default()
        },
    );
    let vi = to_pgn_string(
        &g,
        &PgnOptions {
            moves: MoveStyle {
                chess: SanStyle::fide(table("vi").unwrap()),
                ..MoveStyle::default()
            },
            ..PgnOptions::default()
        },
    );
    let (moves, _) = to_csv_strings(&[&g], &CsvOptions::default());
    Validator::new().check(&to_json_string(&g, &JsonOptions::default()));
    insta::assert_snapshot!("illegal_kept", format!("{full}{reduced}{vi}{moves}"));
}

#[test]
fn several_games_to_csv() {
    let games = read(&format!(
        "{ANNOTATED}\n[Event \"second\"]\n[White \"B\"]\n\n1. d4 d5 2. c4 (=) e6 1/2-1/2\n"
    ));
    assert_eq!(games.len(), 2);
    let refs: Vec<&Game> = games.iter().collect();
    let (moves, header) = to_csv_strings(&refs, &CsvOptions::default());
    let back = read_scoresheet(&moves);
    assert_eq!(back.len(), 2);
    for (g, b) in games.iter().zip(&back) {
        assert_eq!(
            b.raw.move_tokens().collect::<Vec<_>>(),
            main_line_tokens(g, &MoveStyle::default())
        );
        // the read-back sheet replays to the same moves and draw offers
        let r = replay(b.raw.clone(), &ReplayOptions::default());
        let mvs = |g: &Game| {
            g.moves
                .moves
                .iter()
                .map(|n| (n.mv, n.draw_offer, n.clock))
                .collect::<Vec<_>>()
        };
        assert_eq!(mvs(&r), mvs(g));
        assert_eq!(r.result, g.result);
    }
    assert_eq!(header.lines().count(), 3, "{header}");
}

#[test]
fn vietnamese_scoresheet_replays_with_csv_lines() {
    let sheet = "TT,Trắng,Đen,Đồng hồ trắng\n1,e4,e5,1:29:00\n2,Mf3,Mc6,\n3,Tb5,Me3,\n4,,1-0,\n";
    let games = read_scoresheet(sheet);
    assert_eq!(games.len(), 1);
    let g = replay(games[0].raw.clone(), &ReplayOptions::default());
    let sans = main_line_tokens(&g, &MoveStyle::default());
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    assert_eq!(g.moves.moves[0].clock.map(|c| c.millis), Some(5_340_000));
    assert_eq!(g.result, GameResult::WhiteWins);
    // the illegal `Me3` (no black knight reaches e3) is reported on CSV line 4
    let json: serde_json::Value =
        serde_json::from_str(&to_json_string(&g, &JsonOptions::default())).unwrap();
    let d = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["severity"] == "error")
        .unwrap();
    assert_eq!(d["line"], 4, "{d}");
    let span = g
        .diagnostics
        .iter()
        .find(|d| d.severity == kyphu::model::diag::Severity::Error)
        .and_then(|d| d.span)
        .unwrap();
    let cell = games[0].cell_at(span).unwrap();
    assert_eq!((cell.line, cell.field), (4, 2));
    Validator::new().check(&to_json_string(&g, &JsonOptions::default()));
}
