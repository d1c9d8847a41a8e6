//! `kyphu diff`: compare two records of the same game.

use std::{
    fmt::Write as _,
    io::{self, Write},
    process::ExitCode,
};

use super::{CliError, GameArg, ReadArgs, render::move_of_ply};
use kyphu::{
    color::Color,
    emit::{MoveStyle, XiangqiNotation},
    emit::{PgnOptions, pgn::to_pgn_string},
    model::diag::LineIndex,
    model::game::{Game, StartPosition},
    notation::xiangqi::Dialect,
    replay::diff::{Divergence, Reading, agreed_fen, compare_as},
    replay::replay,
};

#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The first record (for instance White's scoresheet)
    pub a: String,
    /// The second record (for instance Black's scoresheet)
    pub b: String,
    /// Which game the records are of: auto (from the tags), chess, chess960 or
    /// xiangqi. (A number, the old spelling of --number, still selects the Nth game.)
    #[arg(long, default_value = "auto", value_parser = super::parse_game_or_number)]
    pub game: super::GameOrNumber,
    /// Which game of each file to compare (1 = first)
    #[arg(short = 'n', long)]
    pub number: Option<u64>,
    /// Piece-letter language: auto (inferred per record) or a code
    #[arg(long, default_value = "auto")]
    pub lang: String,
    /// Text encoding: auto or a label
    #[arg(long, default_value = "auto")]
    pub encoding: String,
    /// Notation of xiangqi moves: auto (inferred per record) or a name, as for convert
    #[arg(long, default_value = "auto")]
    pub notation: String,
    /// Print nothing: the exit status alone says whether the records are the same game
    #[arg(short, long)]
    pub quiet: bool,
}

/// Game `number` of `file`, and how its moves are read and named: the notation
/// `--notation` gives, else the one the record is written in.
fn load(
    a: &DiffArgs,
    file: &str,
    variant: GameArg,
    number: u64,
) -> Result<(Game, Reading), CliError> {
    if file == "-" {
        super::stdin_hint();
    }
    let read = ReadArgs {
        files: vec![file.to_owned()],
        lang: a.lang.clone(),
        encoding: a.encoding.clone(),
        notation: a.notation.clone(),
        threads: 1,
        game: variant,
        keep_illegal: false,
        log: None,
    };
    let options = read.replay_options(file)?;
    let wanted = number.max(1) - 1;
    for raw in read.open(file)? {
        let raw = raw.map_err(CliError::Input)?;
        if !raw.junk && raw.index == wanted {
            let game = replay(raw, &options);
            let reading = match (&game.start, options.xiangqi) {
                (StartPosition::Xiangqi(_), Some(d)) => Reading::Xiangqi(d),
                _ => Reading::of(&game),
            };
            return Ok((game, reading));
        }
    }
    Err(CliError::Usage(format!(
        "{file} has no game {number} (games are numbered from 1)"
    )))
}

/// `12.`/`12...` and the side, for ply `ply` of `game`.
fn move_label(game: &Game, ply: u32) -> String {
    let (n, side) = move_of_ply(game, ply);
    let xiangqi = game.kind() == kyphu::model::game::GameKind::Xiangqi;
    let side = match (side, xiangqi) {
        (Color::White, false) => "white",
        (Color::White, true) => "red",
        (Color::Black, _) => "black",
    };
    format!("move {n} {side}")
}

/// Where main-line ply `ply` of `game` was written, if it was read.
fn written_at(game: &Game, file: &str, ply: u32) -> Option<String> {
    let node = game.moves.moves.get(ply.checked_sub(1)? as usize)?;
    let index = LineIndex::new(&game.source.text, game.source.first_line);
    let at = index.locate(&game.source.text, node.span.start as usize);
    Some(format!(
        "written `{}` at {file}:{}:{}",
        game.written(node),
        at.line,
        at.column
    ))
}

/// The plies `at ..` (`count` of them) of `game` as written, with where the first
/// was written: "`0-0 Te7` at FILE:9:30". Plies beyond the main line (in the unread
/// rest) have no position of their own: `fallback` (the tokens) is shown for them.
fn written_run(game: &Game, file: &str, at: u32, count: usize, fallback: &[String]) -> String {
    let nodes: Option<Vec<_>> = (0..count)
        .map(|i| game.moves.moves.get(at as usize - 1 + i))
        .collect();
    match nodes {
        Some(nodes) if !nodes.is_empty() => {
            let text: Vec<&str> = nodes.iter().map(|n| game.written(n)).collect();
            let index = LineIndex::new(&game.source.text, game.source.first_line);
            let lc = index.locate(&game.source.text, nodes[0].span.start as usize);
            format!("`{}` at {file}:{}:{}", text.join(" "), lc.line, lc.column)
        }
        _ => format!("`{}`", fallback.join(" ")),
    }
}

pub fn run(a: &DiffArgs) -> Result<ExitCode, CliError> {
    let (variant, number) = super::game_and_number(&a.game, a.number);
    let (ga, ra) = load(a, &a.a, variant, number)?;
    let (gb, rb) = load(a, &a.b, variant, number)?;
    let c = compare_as(&ga, &gb, ra, rb);
    let mut s = String::new();
    let reading = |r: Reading| match r {
        Reading::Xiangqi(d) => format!("xiangqi, notation {d}"),
        Reading::Chess(table) => format!("piece letters {}", table.name),
    };
    let _ = writeln!(s, "A: {} (game {number}), {}", a.a, reading(ra));
    let _ = writeln!(s, "B: {} (game {number}), {}", a.b, reading(rb));
    let differs = c.divergence != Divergence::Identical;
    match &c.divergence {
        Divergence::Identical => {
            let _ = writeln!(s, "The records are the same game ({} plies).", c.agreed);
        }
        Divergence::Prefix { a_plies, b_plies } => {
            let _ = writeln!(
                s,
                "The records agree on {} plies; A has {a_plies} plies, B has {b_plies}: the shorter one stops early.",
                c.agreed
            );
        }
        Divergence::Different { at, a: ma, b: mb } => {
            let _ = writeln!(s, "The records agree on the first {} plies.", c.agreed);
            let _ = writeln!(
                s,
                "First divergence at {} (ply {at}): A has {ma}{}, B has {mb}{}.",
                move_label(&ga, *at),
                written_at(&ga, &a.a, *at)
                    .map(|w| format!(" ({w})"))
                    .unwrap_or_default(),
                written_at(&gb, &a.b, *at)
                    .map(|w| format!(" ({w})"))
                    .unwrap_or_default(),
            );
        }
        Divergence::Missing {
            at,
            in_record,
            missing,
            agree_after,
        } => {
            let other = if *in_record == 'A' { 'B' } else { 'A' };
            let _ = writeln!(s, "The records agree on the first {} plies.", c.agreed);
            let what = if missing.len() == 2 {
                "a missing move pair".to_owned()
            } else {
                format!(
                    "a missing half-move: from here on {other} has each move in the other colour's column"
                )
            };
            let (game, file) = if *in_record == 'A' {
                (&ga, &a.a)
            } else {
                (&gb, &a.b)
            };
            let _ = writeln!(
                s,
                "At {} (ply {at}), {in_record} has {} which {other} does not: {what}. After it, {agree_after} more of {other}'s moves agree with {in_record}.",
                move_label(&ga, *at),
                written_run(game, file, *at, missing.len(), missing),
            );
        }
    }
    if differs {
        let mut common = ga.clone();
        common.moves.moves.truncate(c.agreed);
        for node in &mut common.moves.moves {
            node.take_variations();
        }
        common.unparsed = None;
        common.result = kyphu::model::game::GameResult::Unknown;
        let _ = writeln!(s, "\nThe game up to the point both records agree:\n");
        s.push_str(&to_pgn_string(
            &common,
            &PgnOptions {
                reduced: true,
                // a xiangqi record's common part in A's own notation
                moves: match ra {
                    Reading::Xiangqi(Dialect::Iccs) | Reading::Chess(_) => MoveStyle::default(),
                    Reading::Xiangqi(d) => MoveStyle {
                        xiangqi: XiangqiNotation::Dialect(d),
                        ..MoveStyle::default()
                    },
                },
                ..PgnOptions::default()
            },
        ));
        if let Some(fen) = agreed_fen(&ga, c.agreed) {
            let _ = writeln!(s, "\nPosition there: {fen}");
        }
    }
    if !a.quiet {
        let mut out = io::stdout().lock();
        out.write_all(s.as_bytes())?;
    }
    Ok(if differs {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
