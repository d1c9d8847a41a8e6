//! `convert --dedupe` (issue 28): duplicate games left out, in two passes over the
//! inputs. The first pass ([`Dedupe::learn_file`]) reads every input and records each
//! game's fingerprint ([`kyphu::game::dedupe`]); the second is the conversion itself,
//! in which each game's verdict ([`Dedupe::judge`]) says whether it is written, and a
//! game left out is reported: a line on standard error (or in the `--log`), or a row of
//! the `--dedupe-report` CSV file, and in the per-file summary's counts.

use std::io::{self, Write};

use clap::ValueEnum;

use super::{
    CliError,
    output::{Output, Target},
    pipeline, render,
};
use kyphu::{
    archive::{Piece, RawGame},
    game::dedupe::{DedupeBy, Duplicates, GameRef, Verdict, line_hashes},
    model::game::Game,
};

/// What duplicates must share besides the start and the moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum By {
    /// One game of one event: the same players, and the same Date and Round as written
    Game,
    /// The same players (White and Black, folded: case, accents, word order)
    Players,
    /// The moves alone, whoever played them (pgn-extract -D's rule)
    Moves,
}

/// The options of `convert` that leave duplicates out.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct DedupeArgs {
    /// Leave out duplicate games: the same start and main line (exact), or a main line
    /// that a longer game continues (a prefix: relay snapshots, corrections). Kept: the
    /// longest; of equal ones, the one with more tags, then the first. By game
    /// (default): the same White, Black (folded), Date and Round too; by players: the
    /// same White and Black; by moves: whoever played, whenever. Each game
    /// left out is reported (standard error, or --dedupe-report); the inputs are read
    /// twice (files, not standard input). docs/cli.md, "Removing duplicates"
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true,
        default_missing_value = "game", value_name = "BY")]
    pub dedupe: Option<By>,
    /// With --dedupe: write one CSV row per game left out (file, game, line, plies,
    /// duplicate: exact or prefix, and the kept game's file, game, line, plies) to FILE
    /// instead of a line each on standard error
    #[arg(long, value_name = "FILE")]
    pub dedupe_report: Option<String>,
}

/// The state of `--dedupe` across the two passes.
pub struct Dedupe {
    by: DedupeBy,
    table: Duplicates,
    /// The files of the run, each with the number of its first game (from the first
    /// pass, which numbers the games as the second does).
    files: Vec<(String, u32)>,
    /// The number of the next game (counted alike in both passes).
    next: u32,
    report: Option<(Output, io::BufWriter<std::fs::File>)>,
    /// Games of the second pass the first did not meet.
    unknown: u64,
}

/// What a game left out was, for the counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dropped {
    Exact,
    Prefix,
}

impl DedupeArgs {
    /// The state for the run, or `None` without `--dedupe`; checks the options and
    /// opens the report (it replaces its file only when the run succeeds).
    pub fn start(&self, files: &[String]) -> Result<Option<Dedupe>, CliError> {
        let Some(by) = self.dedupe else {
            if self.dedupe_report.is_some() {
                return Err(CliError::Usage(
                    "--dedupe-report is written with --dedupe only: add --dedupe".into(),
                ));
            }
            return Ok(None);
        };
        if files.iter().any(|f| f == "-") {
            return Err(CliError::Usage(
                "--dedupe reads its inputs twice (the first pass finds the duplicates, the second writes): name files, not standard input (save it to a file first)".into(),
            ));
        }
        let report = match &self.dedupe_report {
            None => None,
            Some(name) => {
                let target = Target::new("--dedupe-report", name)?;
                super::output::refuse_inputs(&[&target], false, files)?;
                let out = target.open()?;
                let mut w = io::BufWriter::new(out.writer()?);
                w.write_all(
                    b"file,game,line,plies,duplicate,kept_file,kept_game,kept_line,kept_plies\n",
                )?;
                Some((out, w))
            }
        };
        Ok(Some(Dedupe {
            by: match by {
                By::Game => DedupeBy::Game,
                By::Players => DedupeBy::Players,
                By::Moves => DedupeBy::Moves,
            },
            table: Duplicates::new(),
            files: Vec::new(),
            next: 0,
            report,
            unknown: 0,
        }))
    }
}

/// The line hashes of a game (empty when it takes no part).
pub fn hashes(by: DedupeBy, game: &Game) -> Vec<u64> {
    let mut h = Vec::new();
    line_hashes(game, by, &mut h);
    h
}

/// A CSV field, quoted when it must be.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

impl Dedupe {
    /// What duplicates share, for [`hashes`].
    pub fn by(&self) -> DedupeBy {
        self.by
    }

    fn game_ref(&self, line: u64, tags: usize) -> GameRef {
        GameRef {
            seq: self.next,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            tags: u16::try_from(tags).unwrap_or(u16::MAX),
        }
    }

    /// The first pass over one input: `prepare` turns each game read into the game as
    /// the second pass will write it (`None`: not written, or not a game), and its
    /// fingerprint is recorded.
    pub fn learn_file<I, P>(
        &mut self,
        file: &str,
        source: I,
        threads: usize,
        prepare: P,
    ) -> io::Result<()>
    where
        I: Iterator<Item = io::Result<Piece>> + Send,
        P: Fn(RawGame) -> (bool, Option<Game>) + Sync,
    {
        self.files.push((file.to_owned(), self.next));
        let mut progress = super::progress::Progress::new(file);
        let counts = super::Counts::default();
        let by = self.by;
        let result = pipeline::run(
            source,
            threads,
            |raw| {
                let byte_end = raw.byte_end;
                let (junk, game) = prepare(raw);
                let mut hashes = Vec::new();
                let at = game.map(|g| {
                    line_hashes(&g, by, &mut hashes);
                    (g.source.first_line, g.tags.len())
                });
                (junk, hashes, at, byte_end)
            },
            |(junk, hashes, at, byte_end)| {
                progress.update(&counts, byte_end);
                if !junk {
                    let (line, tags) = at.unwrap_or((0, 0));
                    let game = self.game_ref(line, tags);
                    self.table.learn(&hashes, game);
                    self.next = self.next.saturating_add(1);
                }
                Ok(())
            },
        );
        progress.finish();
        result
    }

    /// The second pass begins (after [`Dedupe::learn_file`] over every input).
    pub fn second_pass(&mut self) {
        self.next = 0;
    }

    /// The file and 1-based game number of game `seq`.
    fn place(&self, seq: u32) -> (&str, u32) {
        let i = self.files.partition_point(|&(_, first)| first <= seq);
        match i.checked_sub(1).and_then(|i| self.files.get(i)) {
            Some((name, first)) => (name, seq - first + 1),
            None => ("?", seq + 1),
        }
    }

    /// The second pass: one game (not junk), in input order, with its [`Dedupe::hashes`],
    /// first line and number of tags. `None`: write it; else it is left out, and
    /// reported in `messages` (or the report file).
    pub fn judge(
        &mut self,
        hashes: &[u64],
        line: u64,
        tags: usize,
        messages: &mut String,
    ) -> io::Result<Option<Dropped>> {
        let game = self.game_ref(line, tags);
        self.next = self.next.saturating_add(1);
        let (kind, kept, kept_plies) = match self.table.verdict(hashes, game) {
            Verdict::Kept | Verdict::Ignored => return Ok(None),
            Verdict::Unknown => {
                self.unknown += 1;
                return Ok(None);
            }
            Verdict::Exact { kept } => (Dropped::Exact, kept, hashes.len() - 1),
            Verdict::Prefix { kept, plies } => (Dropped::Prefix, kept, usize::from(plies)),
        };
        let plies = hashes.len() - 1;
        let (file, number) = self.place(game.seq);
        let file = file.to_owned();
        let (kept_file, kept_number) = self.place(kept.seq);
        let kept_file = kept_file.to_owned();
        if let Some((_, w)) = &mut self.report {
            writeln!(
                w,
                "{},{number},{line},{plies},{},{},{kept_number},{},{kept_plies}",
                csv_field(&file),
                match kind {
                    Dropped::Exact => "exact",
                    Dropped::Prefix => "prefix",
                },
                csv_field(&kept_file),
                kept.line,
            )?;
        } else {
            let what = match kind {
                Dropped::Exact => "the same moves as".to_owned(),
                Dropped::Prefix => format!("its {plies} plies begin the {kept_plies} of"),
            };
            messages.push_str(&format!(
                "{}:{line}: game {number} left out by --dedupe: {what} game {kept_number} ({}:{}), kept\n",
                render::escape(&file),
                render::escape(&kept_file),
                kept.line
            ));
        }
        Ok(Some(kind))
    }

    /// Whether the second pass met the games of the first (an input changed between
    /// the passes otherwise).
    pub fn check_passes(&self) -> Result<(), CliError> {
        let (first, second) = self.table.games();
        if first == second && self.unknown == 0 {
            Ok(())
        } else {
            Err(CliError::Input(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "--dedupe: the inputs changed between the two passes ({first} games compared in the first, {second} in the second); run again on files that do not change"
                ),
            )))
        }
    }

    /// The report file, flushed, to put in place with the other outputs.
    pub fn finish(self) -> Result<Option<Output>, CliError> {
        match self.report {
            None => Ok(None),
            Some((out, mut w)) => {
                w.flush().map_err(|e| {
                    CliError::Io(io::Error::new(
                        e.kind(),
                        format!("cannot write {}: {e}", out.name()),
                    ))
                })?;
                Ok(Some(out))
            }
        }
    }
}
