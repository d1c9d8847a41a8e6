//! The command line: argument definitions (clap derive) and the subcommands.
//!
//! Exit codes: 0 success (clean), 1 problems found in the input, 2 usage, position or
//! I/O error. A closed output pipe ends the run quietly with 0.

mod check;
mod convert;
mod diff;
pub mod input;
mod perft;
pub mod pipeline;
mod progress;
pub mod render;
mod show;

use std::{io, process::ExitCode, sync::Arc};

use clap::{Parser, Subcommand, ValueEnum};

use crate::{
    archive::{ArchiveReader, ReadOptions},
    game::{Game, Status, Variant},
    notation::chess::{PieceTable, table, tables},
    notation::xiangqi::{Dialect, Glyphs},
    replay::ReplayOptions,
};

/// Read chess and xiangqi game records in many languages and notations, check them by
/// replaying every move, and write them as PGN, JSON or scoresheet CSV.
#[derive(Debug, Parser)]
#[command(name = "kyphu", version, about, long_about = None)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Convert game records to PGN, JSON Lines or scoresheet CSV, checking every move
    #[command(
        after_help = "Exit status: 0 every game read completely, 1 some game partial or failed \
        or some text not read as a game (it is still written, with its unread rest kept; the \
        text as a non-game record), 2 usage or I/O error.\n\n\
        Examples:\n  \
        kyphu convert corpus/chess/scoresheet-vi.pgn\n  \
        kyphu convert --to json games.pgn.zst -o games.jsonl\n  \
        kyphu convert --out-lang vi --out-notation fide games.pgn\n  \
        kyphu convert --to csv --games-csv games.csv -o moves.csv games.pgn\n  \
        kyphu convert sheet.csv -o sheet.pgn"
    )]
    Convert(convert::ConvertArgs),
    /// Check game records: every invalid, illegal or ambiguous move, every repair
    #[command(
        after_help = "Exit status: 0 clean, 1 problems found, 2 usage or I/O error.\n\n\
        Examples:\n  \
        kyphu check corpus/chess/scoresheet-vi.pgn\n  \
        kyphu check --strict --format json games.pgn.zst > findings.jsonl\n  \
        cat book.txt | kyphu check --lang de -"
    )]
    Check(check::CheckArgs),
    /// Compare two records of the same game: first divergence, missing moves, common part
    #[command(
        after_help = "Exit status: 0 the same game, 1 the records differ, 2 usage or I/O error.\n\n\
        Examples:\n  \
        kyphu diff white-sheet.pgn black-sheet.pgn\n  \
        kyphu diff --game 3 edition1.pgn edition2.pgn"
    )]
    Diff(diff::DiffArgs),
    /// Show the position after a move as a diagram with its FEN
    #[command(after_help = "Examples:\n  \
        kyphu show games.pgn --game 3 --ply 20\n  \
        kyphu show corpus/chess/scoresheet-vi.pgn")]
    Show(show::ShowArgs),
    /// Count the leaf nodes of the legal move tree (move generator self-test)
    #[command(after_help = "Examples:\n  \
        kyphu perft 5\n  \
        kyphu perft --divide --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' 3\n  \
        kyphu perft --variant chess960 --fen 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9' 3\n  \
        kyphu perft --variant xiangqi 4")]
    Perft(perft::PerftArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    Chess,
    Chess960,
    Xiangqi,
}

/// Options shared by the commands that read game records.
#[derive(Debug, Clone, clap::Args)]
pub struct ReadArgs {
    /// Input files (`-` or none: standard input); .gz, .zst and .bz2 are decompressed
    pub files: Vec<String>,
    /// Piece-letter language of chess moves: auto (inferred per game by legality) or a
    /// code: en vi zh fa de fr es it pt nl ru pl cs hu sv fi figurine
    #[arg(long, default_value = "auto")]
    pub lang: String,
    /// Text encoding: auto (BOM, UTF-8, else a guess per game) or a label such as
    /// windows-1252, windows-1258, gbk, big5
    #[arg(long, default_value = "auto")]
    pub encoding: String,
    /// Threads that parse, replay and write (0: one per core); output order is input order
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Which game the records are of: auto (from the tags: `Game`, `Variant`, `Red`)
    /// or chess, chess960, xiangqi for every game
    #[arg(long, value_enum, default_value_t = GameArg::Auto)]
    pub game: GameArg,
    /// Notation of xiangqi moves: auto (inferred per game from the whole main line) or
    /// iccs, chinese, chinese-traditional, wxf, vietnamese-old (vi-old), asian,
    /// vietnamese-new (vi-new). Chess moves are read in every style (SAN, long
    /// algebraic, UCI) without it
    #[arg(long, default_value = "auto")]
    pub notation: String,
    /// Keep an illegal move that only one piece can make (FIDE Laws 7.5: an illegal
    /// move not claimed stands), flagged, and replay on from it
    #[arg(long)]
    pub keep_illegal: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GameArg {
    Auto,
    Chess,
    Chess960,
    Xiangqi,
}

impl ReadArgs {
    fn files(&self) -> Vec<String> {
        if self.files.is_empty() {
            vec!["-".to_owned()]
        } else {
            self.files.clone()
        }
    }

    fn lang(&self) -> Result<Option<&'static PieceTable>, CliError> {
        if self.lang == "auto" {
            return Ok(None);
        }
        table(&self.lang).map(Some).ok_or_else(|| {
            let codes: Vec<&str> = tables().iter().map(|t| t.code).collect();
            CliError::Usage(format!(
                "unknown language `{}`; expected auto or one of: {}",
                self.lang,
                codes.join(" ")
            ))
        })
    }

    fn read_options(&self) -> Result<ReadOptions, CliError> {
        let mut options = ReadOptions::default();
        if self.encoding != "auto" {
            options.encoding = Some(
                encoding_rs::Encoding::for_label(self.encoding.as_bytes()).ok_or_else(|| {
                    CliError::Usage(format!(
                        "unknown encoding `{}`; expected auto or a label such as utf-8, windows-1252, windows-1258, windows-1256, gbk, big5",
                        self.encoding
                    ))
                })?,
            );
        }
        Ok(options)
    }

    fn threads(&self) -> usize {
        if self.threads > 0 {
            self.threads
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
    }

    fn notation(&self) -> Result<Option<Dialect>, CliError> {
        let name = self.notation.trim().to_ascii_lowercase();
        match name.as_str() {
            "auto" => Ok(None),
            "vi-old" => Ok(Some(Dialect::OldVietnamese)),
            "vi-new" => Ok(Some(Dialect::NewVietnamese)),
            "zh" => Ok(Some(Dialect::Chinese(Glyphs::Simplified))),
            "zh-tw" => Ok(Some(Dialect::Chinese(Glyphs::Traditional))),
            "san" | "lan" | "uci" | "fide" | "figurine" => Err(CliError::Usage(format!(
                "--notation {name}: chess moves are read in every style without it; --notation names a xiangqi notation (auto, iccs, chinese, chinese-traditional, wxf, vietnamese-old, asian, vietnamese-new)"
            ))),
            _ => name
                .parse::<Dialect>()
                .map(Some)
                .map_err(|e| CliError::Usage(format!("--notation: {e}, or auto"))),
        }
    }

    fn replay_options(&self, file: &str) -> Result<ReplayOptions, CliError> {
        Ok(ReplayOptions {
            xiangqi: self.notation()?,
            lang: self.lang()?,
            file: Some(Arc::from(file)),
            keep_illegal: self.keep_illegal,
            variant: match self.game {
                GameArg::Auto => None,
                GameArg::Chess => Some(Variant::Chess),
                GameArg::Chess960 => Some(Variant::Chess960),
                GameArg::Xiangqi => Some(Variant::Xiangqi),
            },
        })
    }

    /// Opens `file` and streams its raw games.
    fn open(&self, file: &str) -> Result<ArchiveReader<Box<dyn io::BufRead + Send>>, CliError> {
        let input = input::open(file).map_err(CliError::Input)?;
        Ok(ArchiveReader::new(input.reader, self.read_options()?))
    }
}

/// Per-file accounting: every game read lands in exactly one category.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Counts {
    pub read: u64,
    pub clean: u64,
    pub repaired: u64,
    pub partial: u64,
    pub failed: u64,
    /// Text between games that was not a game (reported, not counted as a game).
    pub junk: u64,
    /// Games decoded from something other than plain UTF-8: (encoding, how) → games.
    pub encodings: std::collections::BTreeMap<(&'static str, &'static str), u64>,
}

impl Counts {
    /// Counts one game read (not junk) by what a worker found of it: its status and
    /// [`Counts::encoding_of`], so that the game itself need not reach the writer.
    pub fn add(&mut self, status: Status, encoding: Option<(&'static str, &'static str)>) {
        self.read += 1;
        self.add_status(status);
        self.add_encoding(encoding);
    }

    fn add_status(&mut self, status: Status) {
        match status {
            Status::Clean => self.clean += 1,
            Status::Repaired => self.repaired += 1,
            Status::Partial => self.partial += 1,
            Status::Failed => self.failed += 1,
        }
    }

    /// The encoding of a game and how it was chosen, when it was not plain UTF-8
    /// (or had replacements).
    pub fn encoding_of(game: &Game) -> Option<(&'static str, &'static str)> {
        let has = |code| game.diagnostics.iter().any(|d| d.code == code);
        let how = if has("encoding-guessed") {
            "guessed"
        } else if has("encoding-replaced") {
            "with replacements"
        } else {
            match game.source.encoding {
                Some("UTF-8") | None => return None,
                Some(_) => "from a BOM or --encoding",
            }
        };
        Some((game.source.encoding.unwrap_or("?"), how))
    }

    fn add_encoding(&mut self, key: Option<(&'static str, &'static str)>) {
        if let Some(key) = key {
            *self.encodings.entry(key).or_default() += 1;
        }
    }

    pub fn summary(&self, file: &str) -> String {
        let plural = if self.read == 1 { "" } else { "s" };
        let mut s = format!(
            "{file}: {} game{plural}: {} clean, {} repaired, {} partial, {} failed",
            self.read, self.clean, self.repaired, self.partial, self.failed
        );
        if self.junk > 0 {
            s.push_str(&format!(
                "; {} stretches of non-game text reported",
                self.junk
            ));
        }
        if !self.encodings.is_empty() {
            let parts: Vec<String> = self
                .encodings
                .iter()
                .map(|((name, how), n)| {
                    format!(
                        "{name} ({how}) in {n} game{}",
                        if *n == 1 { "" } else { "s" }
                    )
                })
                .collect();
            s.push_str(&format!("; encodings: {}", parts.join(", ")));
        }
        s
    }
}

/// Runs the parsed command line and returns the process exit code.
pub fn run(args: Args) -> ExitCode {
    let result = match args.command {
        Command::Convert(a) => convert::run(&a),
        Command::Check(a) => check::run(&a),
        Command::Diff(a) => diff::run(&a),
        Command::Show(a) => show::run(&a),
        Command::Perft(a) => perft::run(&a),
    };
    match result {
        Ok(code) => code,
        Err(CliError::Usage(msg)) => {
            eprintln!("kyphu: error: {msg}");
            ExitCode::from(2)
        }
        Err(CliError::Io(e) | CliError::Input(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(CliError::Io(e) | CliError::Input(e)) => {
            eprintln!("kyphu: error: {e}");
            ExitCode::from(2)
        }
    }
}

#[derive(Debug)]
pub enum CliError {
    /// A problem with what the user asked for (bad FEN, bad option): exit 2.
    Usage(String),
    /// An input that cannot be opened or read.
    Input(io::Error),
    /// Writing the output failed.
    Io(io::Error),
}

impl CliError {
    /// An error from [`pipeline::run`] over `file`: a closed output pipe stays an
    /// output error (it ends the run quietly); anything else is named with the file.
    fn from_pipeline(file: &str, e: io::Error) -> CliError {
        match e.kind() {
            io::ErrorKind::BrokenPipe => CliError::Io(e),
            _ => CliError::Input(io::Error::new(e.kind(), format!("{file}: {e}"))),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Io(e)
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn argument_definitions_are_consistent() {
        super::Args::command().debug_assert();
    }
}
