//! End to end over `../shared/corpus/chess/**`: every file converts to PGN, JSON and
//! CSV without panic; PGN movetext lines stay under 80 characters; JSON validates against the
//! schema; PGN → read → PGN is byte-identical on the second pass.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use kyphu::{
    archive::{ReadOptions, csv::read_scoresheet_with_games, read_bytes, read_str},
    emit::{CsvOptions, JsonOptions, JsonWriter, PgnOptions, PgnWriter, ScoresheetWriter},
    model::game::Game,
    replay::{ReplayOptions, replay},
};

fn corpus() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/chess");
    p.is_dir().then_some(p)
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Appends (name, text) for every file under `dir`, read as UTF-8 (lossy).
fn push_texts(dir: &Path, texts: &mut Vec<(String, String)>) {
    let mut list = Vec::new();
    files(dir, &mut list);
    for p in list {
        let bytes = std::fs::read(&p).unwrap();
        texts.push((
            p.display().to_string(),
            String::from_utf8_lossy(&bytes).into_owned(),
        ));
    }
}

fn games_of(raws: Vec<kyphu::archive::RawGame>) -> Vec<Game> {
    raws.into_iter()
        .filter(|r| !r.junk)
        .map(|r| replay(r, &ReplayOptions::default()))
        .collect()
}

fn to_pgn(games: &[Game]) -> String {
    let mut w = PgnWriter::new(Vec::new(), PgnOptions::default());
    for g in games {
        w.write_game(g).unwrap();
    }
    String::from_utf8(w.into_inner()).unwrap()
}

#[test]
fn corpus_converts_and_round_trips() {
    let Some(dir) = corpus() else {
        println!("skipping: ../shared/corpus absent");
        return;
    };
    let schema_path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/schema/game.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource(kyphu::emit::SCHEMA_ID, schema)
        .unwrap();
    let index = compiler
        .compile(kyphu::emit::SCHEMA_ID, &mut schemas)
        .unwrap();

    let mut list = Vec::new();
    files(&dir, &mut list);
    assert!(!list.is_empty());
    let (mut n_files, mut n_games) = (0, 0);
    let mut failures = Vec::new();
    let mut csv_failures = Vec::new();
    for path in &list {
        let bytes = std::fs::read(path).unwrap();
        let games = games_of(read_bytes(&bytes, ReadOptions::default()));
        n_files += 1;
        n_games += games.len();
        let pgn = to_pgn(&games);
        // movetext lines (tag pairs are one line each whatever their length, §8.1)
        for l in pgn
            .lines()
            .filter(|l| !(l.starts_with('[') && l.ends_with("\"]")))
        {
            assert!(l.chars().count() < 80, "{}: {l}", path.display());
        }
        let mut json = JsonWriter::new(Vec::new(), JsonOptions::default());
        let mut csv = ScoresheetWriter::new(Vec::new(), Some(Vec::new()), CsvOptions::default());
        for g in &games {
            json.write_game(g).unwrap();
            csv.write_game(g).unwrap();
        }
        csv.flush().unwrap();
        // the scoresheet with its games file replays to the same main lines
        let (moves_csv, games_csv) = csv.into_inner().unwrap();
        let sheet = read_scoresheet_with_games(
            &String::from_utf8(moves_csv).unwrap(),
            &String::from_utf8(games_csv.unwrap_or_default()).unwrap(),
        );
        assert_eq!(sheet.len(), games.len(), "{}", path.display());
        for (g, s) in games.iter().zip(&sheet) {
            let r = replay(s.raw.clone(), &ReplayOptions::default());
            let main = |g: &Game| g.moves.moves.iter().map(|n| n.mv).collect::<Vec<_>>();
            if main(&r) != main(g) || r.result != g.result {
                csv_failures.push(format!("{} game {}", path.display(), g.source.game_index));
            }
        }
        let json = String::from_utf8(json.into_inner()).unwrap();
        assert_eq!(json.lines().count(), games.len());
        for line in json.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            if let Err(e) = schemas.validate(&v, index) {
                panic!("{}: {e:#}\n{line}", path.display());
            }
        }
        let again = games_of(read_str(&pgn));
        let pgn2 = to_pgn(&again);
        if pgn != pgn2 {
            let first = pgn
                .lines()
                .zip(pgn2.lines())
                .find(|(a, b)| a != b)
                .map(|(a, b)| format!("{a}\n  vs\n{b}"))
                .unwrap_or_else(|| format!("{} vs {} games", games.len(), again.len()));
            // both passes, for a look with diff
            let stem = path.file_name().unwrap().to_string_lossy();
            let tmp = std::env::temp_dir();
            std::fs::write(tmp.join(format!("kyphu-{stem}.1.pgn")), &pgn).unwrap();
            std::fs::write(tmp.join(format!("kyphu-{stem}.2.pgn")), &pgn2).unwrap();
            failures.push(format!("{}: {first}", path.display()));
        }
    }
    println!("{n_files} files, {n_games} games");
    assert!(
        csv_failures.is_empty(),
        "csv round trip differs:\n{}",
        csv_failures.join("\n")
    );
    assert!(
        failures.is_empty(),
        "second pass differs:\n{}",
        failures.join("\n\n")
    );
}

/// Clears the SAN hints replay recorded, so that the writer works SAN out from the
/// positions again.
fn without_hints(line: &mut kyphu::model::game::Line) {
    for n in &mut line.moves {
        n.san = None;
        for v in n.variations_mut() {
            without_hints(v);
        }
    }
}

fn pgn_in(games: &[Game], moves: kyphu::emit::MoveStyle) -> String {
    let mut w = PgnWriter::new(
        Vec::new(),
        PgnOptions {
            moves,
            ..PgnOptions::default()
        },
    );
    for g in games {
        w.write_game(g).unwrap();
    }
    String::from_utf8(w.into_inner()).unwrap()
}

fn json_in(games: &[Game], moves: kyphu::emit::MoveStyle) -> String {
    let mut w = JsonWriter::new(Vec::new(), JsonOptions { moves });
    for g in games {
        w.write_game(g).unwrap();
    }
    String::from_utf8(w.into_inner()).unwrap()
}

/// SAN written from the hints replay recorded is the SAN worked out from the
/// positions, in PGN and JSON, in every style, on every game of the corpus (variations, promotions,
/// castling, chess960, checks and mates, null moves, ambiguous piece moves).
#[test]
fn san_from_hints_is_san_from_positions() {
    use kyphu::{
        emit::MoveStyle,
        notation::chess::{SanStyle, figurine, table},
    };
    let mut texts = vec![(
        "inline".to_owned(),
        concat!(
            "[FEN \"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1\"]\n\n",
            "1. O-O-O Kd7 2. Rdd1 Ke6 3. Rh2 (3. Rhf1 Kf5 4. Rf2+) 3... Ke5 4. Rhh1 *\n\n",
            "[FEN \"k7/4P3/8/8/8/8/8/K1N1N3 w - - 0 1\"]\n\n",
            "1. e8=Q+ Ka7 2. Ncd3 -- 3. Qe5 Kb7 4. Nb4 Ka8 5. Qa5# 1-0\n\n",
            "1. e4 d5 2. e5 f5 3. exf6 e.p. Nc6 4. fxg7 Nf6 5. gxh8=N *\n\n",
            // ambiguous knights, rooks on one file, a queen needing its whole square
            "[FEN \"4k3/8/8/R7/1N3N2/8/8/R3K3 w Q - 0 1\"]\n\n",
            "1. Nbd5 Kd7 2. R1a3 Ke6 3. Nfe2 Kxd5 4. R5a4 *\n\n",
            "[FEN \"7k/8/8/8/8/Q7/8/Q1Q4K w - - 0 1\"]\n\n",
            "1. Qa1b2+ Kg8 2. Qcc8# 1-0\n\n",
            // castling with check, a promotion to a knight with check, mate by a pawn
            "[FEN \"5k2/6P1/8/8/8/8/8/4K2R w K - 0 1\"]\n\n",
            "1. O-O+ Kxg7 2. Kh2 Kg6 *\n\n",
            "[FEN \"8/1P6/8/8/8/8/k7/4K3 w - - 0 1\"]\n\n",
            "1. b8=N Ka3 2. Nc6 *\n\n",
            "[FEN \"7k/3N2pp/8/8/8/8/2p5/K7 b - - 0 1\"]\n\n",
            "1... c1=Q+ 2. Ka2 Qc4+ 3. Ka1 Qc3+ 4. Kb1 Qb3+ 5. Kc1 *\n"
        )
        .to_owned(),
    )];
    if let Some(dir) = corpus() {
        push_texts(&dir, &mut texts);
    } else {
        println!("note: ../shared/corpus absent; only the inline games are compared");
    }
    let styles = [
        SanStyle::pgn(),
        SanStyle::fide(table("vi").unwrap()),
        SanStyle::fide(table("zh").unwrap()),
        SanStyle::fide(table("fa").unwrap()),
        SanStyle::figurine(),
        SanStyle {
            table: figurine(),
            check_marks: false,
            ..SanStyle::pgn()
        },
    ];
    let mut hinted_games = 0;
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/chess");
    if own.is_dir() {
        push_texts(&own, &mut texts);
    }
    for (name, text) in &texts {
        let games = games_of(read_str(text));
        hinted_games += games
            .iter()
            .filter(|g| g.moves.moves.iter().any(|n| n.san.is_some()))
            .count();
        let mut plain = games.clone();
        for g in &mut plain {
            without_hints(&mut g.moves);
        }
        for style in styles {
            let moves = MoveStyle {
                chess: style,
                ..MoveStyle::default()
            };
            assert_eq!(
                pgn_in(&games, moves),
                pgn_in(&plain, moves),
                "{name}, style {style:?}"
            );
            let (hinted, worked_out) = (json_in(&games, moves), json_in(&plain, moves));
            if hinted != worked_out {
                let (a, b) = hinted
                    .lines()
                    .zip(worked_out.lines())
                    .find(|(a, b)| a != b)
                    .unwrap_or_default();
                panic!("{name}, style {style:?}: JSON differs\n{a}\n{b}");
            }
        }
    }
    assert!(hinted_games >= 8, "the inline games carry hints");
}
