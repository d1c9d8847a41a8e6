//! `kyphu diff`: compare two records of the same game.

use std::{
    fmt::Write as _,
    io::{self, Write},
    process::ExitCode,
};

use super::{CliError, ReadArgs, render::move_of_ply};
use crate::{
    color::Color,
    diag::LineIndex,
    diff::{Divergence, agreed_fen, compare, table_of},
    emit::{PgnOptions, pgn::to_pgn_string},
    game::Game,
    replay::replay,
};

#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The first record (for instance White's scoresheet)
    pub a: String,
    /// The second record (for instance Black's scoresheet)
    pub b: String,
    /// Which game of each file to compare (1 = first)
    #[arg(long, default_value_t = 1)]
    pub game: u64,
    /// Piece-letter language: auto (inferred per record) or a code
    #[arg(long, default_value = "auto")]
    pub lang: String,
    /// Text encoding: auto or a label
    #[arg(long, default_value = "auto")]
    pub encoding: String,
    /// Notation of xiangqi moves: auto (inferred per record) or a name, as for convert
    #[arg(long, default_value = "auto")]
    pub notation: String,
}

fn load(a: &DiffArgs, file: &str) -> Result<Game, CliError> {
    let read = ReadArgs {
        files: vec![file.to_owned()],
        lang: a.lang.clone(),
        encoding: a.encoding.clone(),
        notation: a.notation.clone(),
        threads: 1,
        game: super::GameArg::Auto,
        keep_illegal: false,
    };
    let options = read.replay_options(file)?;
    let wanted = a.game.max(1) - 1;
    for raw in read.open(file)? {
        let raw = raw.map_err(CliError::Input)?;
        if !raw.junk && raw.index == wanted {
            return Ok(replay(raw, &options));
        }
    }
    Err(CliError::Usage(format!(
        "{file} has no game {} (games are numbered from 1)",
        a.game
    )))
}

/// `12.`/`12...` and the side, for ply `ply` of `game`.
fn move_label(game: &Game, ply: u32) -> String {
    let (n, side) = move_of_ply(game, ply);
    format!(
        "move {n} {}",
        if side == Color::White {
            "white"
        } else {
            "black"
        }
    )
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

pub fn run(a: &DiffArgs) -> Result<ExitCode, CliError> {
    let ga = load(a, &a.a)?;
    let gb = load(a, &a.b)?;
    let (ta, tb) = (table_of(&ga), table_of(&gb));
    let c = compare(&ga, &gb, ta, tb);
    let mut s = String::new();
    let _ = writeln!(s, "A: {} (game {}), piece letters {}", a.a, a.game, ta.name);
    let _ = writeln!(s, "B: {} (game {}), piece letters {}", a.b, a.game, tb.name);
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
            let _ = writeln!(
                s,
                "At {} (ply {at}), {in_record} has {} which {other} does not: {what}. After it, {agree_after} more of {other}'s moves agree with {in_record}.",
                move_label(&ga, *at),
                missing.join(" "),
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
        common.result = crate::game::GameResult::Unknown;
        let _ = writeln!(s, "\nThe game up to the point both records agree:\n");
        s.push_str(&to_pgn_string(
            &common,
            &PgnOptions {
                reduced: true,
                ..PgnOptions::default()
            },
        ));
        if let Some(fen) = agreed_fen(&ga, c.agreed) {
            let _ = writeln!(s, "\nPosition there: {fen}");
        }
    }
    let mut out = io::stdout().lock();
    out.write_all(s.as_bytes())?;
    Ok(if differs {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
