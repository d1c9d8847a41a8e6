//! `kyphu check`: the linter.

use kyphu::model::diag::Code;
use std::{
    io::{self, Write},
    process::ExitCode,
};

use clap::ValueEnum;

use super::{
    CliError, Counts, ReadArgs,
    convert::{self, InputFormat},
    pipeline,
    render::{Fens, Located},
};
use kyphu::{
    model::diag::{LineIndex, Severity},
    replay::replay,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Compiler-style messages with the source line and a caret
    Human,
    /// One JSON object per diagnostic (JSON Lines)
    Json,
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub read: ReadArgs,
    /// Also report, as notes, every move written otherwise than PGN SAN writes it
    /// (piece letters of another language and figurines are a language, not a form):
    /// as in corpus/text/fide-forms.txt, the FIDE Laws' `0-0`, `0-0-0`, `gxh8Q` and
    /// `exf6 e.p.`, the colon capture `f:g7`, long algebraic `Ng1f3`, `Bc2` for a capture
    #[arg(long)]
    pub strict: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Input format: auto (by file name: `.csv` is a scoresheet), pgn or csv
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
    pub from: InputFormat,
    /// Print only the per-file summaries; the exit status still says whether there
    /// were problems
    #[arg(short, long)]
    pub quiet: bool,
    /// Read the games' tags (names, event, round…) of scoresheet CSV inputs from this
    /// per-game table (`games.csv`: its `game` column names the sheet's games; a sheet
    /// without one is one game, given the table's only row)
    #[arg(long, value_name = "FILE")]
    pub games_csv: Option<String>,
}

pub fn run(a: &CheckArgs) -> Result<ExitCode, CliError> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let min = if a.strict {
        Severity::Note
    } else {
        Severity::Warning
    };
    let mut problems = false;
    let files = a.read.files();
    a.read.validate(&files)?;
    let games = a
        .games_csv
        .as_deref()
        .map(convert::read_games_table)
        .transpose()?;
    let mut log = super::Log::open(a.read.log.as_deref(), &files)?;
    for file in files {
        let options = kyphu::ReplayOptions {
            // every slip of a game in one run (issue 27)
            go_on: true,
            ..a.read.replay_options(&file)?
        };
        let (reader, origins) = convert::source_named(&a.read, a.from, &file, games.as_ref())?;
        let mut counts = Counts::default();
        let format = a.format;
        let quiet = a.quiet;
        let file_name = file.as_str();
        let mut progress = super::progress::Progress::new(&file);
        pipeline::run(
            reader,
            a.read.threads(),
            |raw| {
                // a game of a zip entry is named `archive.zip:entry` in messages
                let origin = origins
                    .as_ref()
                    .and_then(|o| o.name_of(raw.index, raw.junk));
                let file_name = origin.as_deref().unwrap_or(file_name);
                let junk = raw.junk;
                let byte_end = raw.byte_end;
                let game = replay(raw, &options);
                let mut text = String::new();
                let mut locating = None;
                let mut found = false;
                // a guessed encoding is told once per file, in the summary
                for d in game
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity >= min && d.code != Code::EncodingGuessed)
                {
                    found = true;
                    if quiet {
                        continue;
                    }
                    let (index, fens) = locating.get_or_insert_with(|| {
                        let index = LineIndex::new(&game.source.text, game.source.first_line);
                        (index, Fens::new(&game))
                    });
                    let located = Located::new(file_name, &game, d, index, fens);
                    match format {
                        Format::Human => located.human(&mut text),
                        Format::Json => {
                            if let Ok(s) = serde_json::to_string(&located) {
                                text.push_str(&s);
                                text.push('\n');
                            }
                        }
                    }
                }
                // what the counts need, so that the game is dropped here, on the
                // worker that built it, not on the thread that writes
                let tally = (
                    game.status(),
                    Counts::encoding_of(&game),
                    Counts::slips_of(&game),
                );
                (junk, tally, text, found, byte_end)
            },
            |(junk, (status, encoding, slips), text, found, byte_end)| {
                progress.update(&counts, byte_end);
                if junk {
                    counts.junk += 1;
                } else {
                    counts.add(status, encoding);
                    counts.add_slips(slips);
                }
                problems |= found;
                if text.is_empty() {
                    Ok(())
                } else if log.is_file() {
                    log.write(&text)
                } else {
                    progress.finish();
                    out.write_all(text.as_bytes())
                }
            },
        )
        .map_err(|e| CliError::from_pipeline(&file, e))?;
        progress.finish();
        if a.format == Format::Human && !log.is_file() {
            writeln!(out, "{}", counts.summary(&file))?;
        } else {
            out.flush()?;
            log.summary(&counts.summary(&file))?;
        }
    }
    out.flush()?;
    log.flush()?;
    Ok(if problems {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
