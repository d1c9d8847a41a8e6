//! Hot paths of reading and writing one game, one at a time (`cargo bench --bench
//! hotpaths`): the PGN syntax layer, SAN parsing per piece-letter table, SAN resolution
//! against a position, replaying a whole game, and writing it back as PGN.
//!
//! Input: `corpus/chess/scoresheet-vi.pgn` (a real game, 33 plies, Vietnamese letters).
//! Every bench is short (10 samples, 1 s of measurement) so that the whole file runs in
//! well under two minutes; the figures go to `docs/performance.md`.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use kyphu::archive::{Limits, parse_game, read_str};
use kyphu::chess::{Position, Role};
use kyphu::emit::PgnOptions;
use kyphu::emit::pgn::to_pgn_string;
use kyphu::notation::chess::{PieceTable, english, figurine, parse, resolve, table};
use kyphu::replay::{ReplayOptions, replay};

const GAME: &str = include_str!("../corpus/chess/scoresheet-vi.pgn");

/// A middlegame with two rooks that can reach d1 (`Rad1`/`Rfd1`, `Rd1` ambiguous) and
/// two knights, a bishop check and a pawn capture to choose from.
const MIDDLEGAME: &str = "r4rk1/pp2qppp/2nbpn2/3p4/3P4/2NBPN2/PP2QPPP/R4RK1 w - - 0 12";

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    g
}

/// Tokenizing the game's text: tags and movetext elements (`archive::parse_game`), and
/// the whole archive path for one game (split, decode, parse: `archive::read_str`).
fn bench_syntax(c: &mut Criterion) {
    let mut g = group(c, "syntax");
    g.throughput(Throughput::Bytes(GAME.len() as u64));
    let limits = Limits::default();
    g.bench_function("parse_game", |b| {
        b.iter(|| parse_game(black_box(GAME), &limits))
    });
    g.bench_function("read_str", |b| b.iter(|| read_str(black_box(GAME))));
    g.finish();
}

/// The same six moves written with each table's letters: a pawn push, a pawn capture,
/// a piece move, a disambiguated piece capture with check, castling and a promotion.
fn tokens(t: &PieceTable) -> Vec<String> {
    let n = t.letter(Role::Knight);
    let r = t.letter(Role::Rook);
    let q = t.letter(Role::Queen);
    vec![
        "e4".to_string(),
        "exd5".to_string(),
        format!("{n}f3"),
        format!("{r}axd7+"),
        "O-O".to_string(),
        format!("e8={q}"),
    ]
}

/// One SAN token → syntax, per piece-letter table (no position).
fn bench_parse(c: &mut Criterion) {
    let mut g = group(c, "san-parse");
    let tables: Vec<&PieceTable> = ["vi", "zh", "fa"]
        .into_iter()
        .map(|code| table(code).expect("table in grammars/chess-pieces.tsv"))
        .chain([english(), figurine()])
        .collect();
    for t in tables {
        let toks = tokens(t);
        for tok in &toks {
            parse(tok, t).expect("every token parses under its own table");
        }
        g.throughput(Throughput::Elements(toks.len() as u64));
        g.bench_function(t.code, |b| {
            b.iter(|| {
                for tok in &toks {
                    let _ = black_box(parse(black_box(tok), t));
                }
            })
        });
    }
    g.finish();
}

/// Parsed SAN → one legal move, on the start position and a middlegame.
fn bench_resolve(c: &mut Criterion) {
    let mut g = group(c, "san-resolve");
    g.throughput(Throughput::Elements(1));
    let start = Position::default();
    let middle = Position::from_fen(MIDDLEGAME).expect("valid fen");
    for (name, pos, tok) in [
        ("start-e4", &start, "e4"),
        ("start-Nf3", &start, "Nf3"),
        ("middle-Rad1", &middle, "Rad1"),
        ("middle-Rd1-ambiguous", &middle, "Rd1"),
        ("middle-Nb5", &middle, "Nb5"),
        ("middle-Bxh7+", &middle, "Bxh7+"),
        ("middle-dxe5-illegal", &middle, "dxe5"),
    ] {
        let san = parse(tok, english()).expect("valid SAN");
        g.bench_function(name, |b| {
            b.iter(|| resolve(black_box(&san), black_box(pos), tok))
        });
    }
    g.finish();
}

/// Replaying the whole game (every token parsed, resolved and played, the move tree
/// built, diagnostics collected), with the language given and inferred.
fn bench_replay(c: &mut Criterion) {
    let mut g = group(c, "replay");
    let raw = read_str(GAME).into_iter().next().expect("one game");
    let given = ReplayOptions {
        lang: table("vi"),
        ..ReplayOptions::default()
    };
    let plies = replay(raw.clone(), &given).moves.moves.len();
    assert_eq!(plies, 33, "the whole game replays");
    g.throughput(Throughput::Elements(plies as u64));
    g.bench_function("game-lang-vi", |b| {
        b.iter(|| replay(black_box(raw.clone()), &given))
    });
    let auto = ReplayOptions::default();
    g.bench_function("game-lang-auto", |b| {
        b.iter(|| replay(black_box(raw.clone()), &auto))
    });
    g.finish();
}

/// Writing the replayed game as PGN (export format, English SAN).
fn bench_write(c: &mut Criterion) {
    let mut g = group(c, "pgn-write");
    let raw = read_str(GAME).into_iter().next().expect("one game");
    let game = replay(
        raw,
        &ReplayOptions {
            lang: table("vi"),
            ..ReplayOptions::default()
        },
    );
    g.throughput(Throughput::Elements(game.moves.moves.len() as u64));
    let opts = PgnOptions::default();
    g.bench_function("game", |b| {
        b.iter(|| to_pgn_string(black_box(&game), &opts))
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_syntax,
    bench_parse,
    bench_resolve,
    bench_replay,
    bench_write
);
criterion_main!(benches);
