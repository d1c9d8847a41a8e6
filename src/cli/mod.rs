//! The command line: argument definitions (clap derive) and the subcommands.
//!
//! Exit codes: 0 success (clean), 1 problems found in the input, 2 usage, position or
//! I/O error. A closed output pipe ends the run quietly with 0.

mod check;
mod convert;
mod dedupe;
mod diff;
mod index;
pub mod output;
mod perft;
pub mod pipeline;
mod progress;
pub mod render;
mod select;
mod serve;
mod shape;
mod show;

use kyphu::model::diag::Code;
use std::{io, process::ExitCode, sync::Arc};

use clap::{Parser, Subcommand, ValueEnum};

use kyphu::{
    archive::ReadOptions,
    model::game::{Game, Status, Variant},
    notation::chess::{PieceTable, table, tables},
    notation::xiangqi::{Dialect, notations},
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
        kyphu convert --to json corpus/chess/games-latin1.pgn.zst -o games.jsonl\n  \
        kyphu convert --out-lang vi --out-notation fide corpus/chess/games.pgn\n  \
        kyphu convert --to csv --games-csv games.csv -o moves.csv corpus/chess/games.pgn\n  \
        kyphu convert corpus/csv/scoresheet-vi.csv -o sheet.pgn\n  \
        kyphu convert --out-xiangqi chinese corpus/xiangqi/tao-hu-1999-wxf.pgn"
    )]
    Convert(convert::ConvertArgs),
    /// Check game records: every invalid, illegal or ambiguous move, every repair
    #[command(
        after_help = "Exit status: 0 clean, 1 problems found, 2 usage or I/O error.\n\n\
        Examples:\n  \
        kyphu check corpus/chess/scoresheet-vi.pgn\n  \
        kyphu check --strict --format json corpus/text/fide-forms.txt > findings.jsonl\n  \
        cat corpus/text/manuscript-de.txt | kyphu check --lang de -\n  \
        kyphu check -q --log report.txt corpus/chess/scoresheet-vi-slips.pgn"
    )]
    Check(check::CheckArgs),
    /// Compare two records of the same game: first divergence, missing moves, common part
    #[command(
        after_help = "Exit status: 0 the same game, 1 the records differ, 2 usage or I/O error.\n\n\
        Examples:\n  \
        kyphu diff corpus/chess/diff/sheet-white.pgn corpus/chess/diff/sheet-black.pgn\n  \
        kyphu diff --number 1 corpus/chess/diff/seed-sample-short.pgn corpus/chess/diff/seed-sample-long.pgn\n  \
        kyphu diff --game xiangqi corpus/xiangqi/tao-hu-1999-wxf.pgn corpus/xiangqi/tao-hu-1999-vi-new.pgn"
    )]
    Diff(diff::DiffArgs),
    /// Show the position after a move as a diagram with its FEN
    #[command(
        after_help = "Exit status: 0 done, 1 the game was not read to its end (the \
        diagram shows the last position reached), 2 usage or I/O error.\n\n\
        Examples:\n  \
        kyphu show --number 3 --ply 20 corpus/chess/games.pgn\n  \
        kyphu show corpus/chess/scoresheet-vi.pgn\n  \
        kyphu show --game xiangqi corpus/xiangqi/tao-hu-1999-chinese.pgn"
    )]
    Show(show::ShowArgs),
    /// Count the leaf nodes of the legal move tree (move generator self-test)
    #[command(after_help = "Examples:\n  \
        kyphu perft 5\n  \
        kyphu perft --divide --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' 3\n  \
        kyphu perft --variant chess960 --fen 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9' 3\n  \
        kyphu perft --variant xiangqi 4")]
    Perft(perft::PerftArgs),
    /// Serve a page (and its HTTP API) to check, fix, compare and export records in a
    /// browser, on this machine
    #[command(after_help = "Exit status: 0 stopped, 2 cannot listen.\n\n\
        Examples:\n  \
        kyphu serve                      (then open http://127.0.0.1:8080/)\n  \
        kyphu serve --port 9000\n  \
        kyphu serve --bind 0.0.0.0       (share it on an office network)")]
    Serve(serve::ServeArgs),
    /// Index an archive: one record per game (file, byte offset and length, tags, ply
    /// count, status) as CSV or JSON Lines
    #[command(
        after_help = "Exit status: 0 every game read completely, 1 some game partial \
        or failed (it is still indexed), 2 usage or I/O error.\n\n\
        Examples:\n  \
        kyphu index corpus/chess/games.pgn > games.csv\n  \
        kyphu index --to jsonl corpus/chess/games-latin1.pgn.zst > games.jsonl"
    )]
    Index(index::IndexArgs),
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
    /// code (the list comes from `grammars/chess-pieces.tsv`)
    #[arg(long, default_value = "auto", help = lang_help())]
    pub lang: String,
    /// Text encoding: auto (BOM, UTF-8, else a guess per game) or a label such as
    /// windows-1252, windows-1258, gbk, big5, or the Vietnamese vni, tcvn3, viscii, viqr
    #[arg(long, default_value = "auto")]
    pub encoding: String,
    /// Threads that parse, replay and write (0: one per core; at most 256); output
    /// order is input order
    #[arg(long, default_value_t = 0,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_THREADS))]
    pub threads: usize,
    /// Which game the records are of: auto (from the tags: `Game`, `Variant`, `Red`)
    /// or chess, chess960, xiangqi for every game
    #[arg(long, value_enum, default_value_t = GameArg::Auto)]
    pub game: GameArg,
    /// Notation of xiangqi moves: auto or a name (the list comes from the notation table)
    #[arg(long, default_value = "auto", help = notation_help())]
    pub notation: String,
    /// Keep an illegal move that only one piece can make (FIDE Laws 7.5: an illegal
    /// move not claimed stands), flagged, and replay on from it
    #[arg(long)]
    pub keep_illegal: bool,
    /// Write the diagnostics and summaries to FILE instead (the progress line stays on
    /// the terminal, the summaries also go to standard error)
    #[arg(long, value_name = "FILE")]
    pub log: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GameArg {
    Auto,
    Chess,
    Chess960,
    Xiangqi,
}

/// The `--lang` help, with the codes of the letter tables.
fn lang_help() -> String {
    format!(
        "Piece-letter language of chess moves: auto (inferred per game by legality) or a \
         code: {}",
        language_codes()
    )
}

/// The codes of the chess letter tables, in file order, space separated.
pub(crate) fn language_codes() -> String {
    tables()
        .iter()
        .map(|t| t.code)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `--notation` help, with the names of the xiangqi notations.
fn notation_help() -> String {
    format!(
        "Notation of xiangqi moves: auto (inferred per game from the whole main line) or \
         {}. Chess moves are read in every style (SAN, long algebraic, UCI) without it; \
         descriptive reads chess moves as descriptive notation (P-K4, P4R), which is \
         otherwise told from the content",
        notation_names(", ")
    )
}

/// The names of the xiangqi notations, each with its shorter names in parentheses.
pub(crate) fn notation_names(sep: &str) -> String {
    notations()
        .iter()
        .map(|n| match n.aliases {
            [] => n.name.to_owned(),
            a => format!("{} ({})", n.name, a.join(", ")),
        })
        .collect::<Vec<_>>()
        .join(sep)
}

/// The xiangqi notation called `name` or one of its shorter names.
pub(crate) fn notation_named(name: &str) -> Option<Dialect> {
    notations()
        .iter()
        .find(|n| n.name == name || n.aliases.contains(&name))
        .map(|n| n.dialect)
}

/// The most `--threads` a command takes (each thread holds a window of batches).
pub const MAX_THREADS: u64 = 256;

impl ReadArgs {
    /// Checks every reading option, and that every input file can be opened (a folder:
    /// that it holds a game file), before any output is touched (an input that fails later, while it is
    /// read, is an input error of the run).
    fn validate(&self, files: &[String]) -> Result<(), CliError> {
        self.lang()?;
        self.read_options()?;
        self.notation()?;
        for file in files.iter().filter(|f| *f != "-") {
            let named = |e: io::Error| {
                CliError::Input(io::Error::new(e.kind(), format!("cannot open {file}: {e}")))
            };
            let opened = std::fs::File::open(file).map_err(named)?;
            // a folder is read file by file (`archive::formats::folder`): one with no
            // game file is an error, not an empty run
            if opened.metadata().map_err(named)?.is_dir()
                && kyphu::archive::formats::folder_files(std::path::Path::new(file))
                    .map_err(CliError::Input)?
                    .is_empty()
            {
                return Err(CliError::Input(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    format!(
                        "cannot read {file}: it is a directory with no game file (.xqf, .pgn, .csv, .htm, .html, .txt)"
                    ),
                )));
            }
        }
        Ok(())
    }

    /// The inputs (`-` when none was named). When one of them is standard input and
    /// that is a terminal, says so on standard error: the run waits for typed text.
    fn files(&self) -> Vec<String> {
        let files = if self.files.is_empty() {
            vec!["-".to_owned()]
        } else {
            self.files.clone()
        };
        if files.iter().any(|f| f == "-") {
            stdin_hint();
        }
        files
    }

    fn lang(&self) -> Result<Option<&'static PieceTable>, CliError> {
        if self.lang == "auto" {
            return Ok(None);
        }
        table(&self.lang).map(Some).ok_or_else(|| {
            CliError::Usage(format!(
                "unknown language `{}`; expected auto or one of: {}",
                self.lang,
                language_codes()
            ))
        })
    }

    fn read_options(&self) -> Result<ReadOptions, CliError> {
        let mut options = ReadOptions::default();
        if self.encoding != "auto" {
            options.encoding = Some(
                kyphu::text::TextEncoding::for_label(&self.encoding).ok_or_else(|| {
                    CliError::Usage(format!(
                        "unknown encoding `{}`; expected auto or a label such as utf-8, windows-1252, windows-1258, windows-1256, gbk, big5, vni, tcvn3, viscii, viqr",
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
            // chess descriptive notation: `descriptive()`
            "auto" | "descriptive" => Ok(None),
            "san" | "lan" | "uci" | "fide" | "figurine" => Err(CliError::Usage(format!(
                "--notation {name}: chess moves are read in every style without it; --notation names a xiangqi notation (auto, {})",
                notation_names(", ")
            ))),
            _ => notation_named(&name).map(Some).ok_or_else(|| {
                CliError::Usage(format!(
                    "--notation: unknown xiangqi notation `{name}`; expected auto or one of: {}",
                    notation_names(", ")
                ))
            }),
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
            go_on: false,
            repair: false,
            descriptive: self.descriptive(),
        })
    }

    /// `--notation descriptive`: chess moves read as descriptive notation (`P-K4`).
    fn descriptive(&self) -> bool {
        self.notation.trim().eq_ignore_ascii_case("descriptive")
    }

    /// Opens `file` and streams its raw games (junk items included), numbered, in the
    /// format its name and first bytes say (PGN, CSV, XQF, DhtmlXQ:
    /// `archive::formats::sniff`).
    fn open(
        &self,
        file: &str,
    ) -> Result<Box<dyn Iterator<Item = io::Result<kyphu::archive::RawGame>> + Send>, CliError>
    {
        use kyphu::archive::{formats, number_games};
        let options = self.read_options()?;
        let mut input =
            kyphu::bytes::open_wrapped(file, progress::counted).map_err(CliError::Input)?;
        let format = formats::sniff(input.peek(4096).map_err(CliError::Input)?, file);
        let pieces =
            formats::pieces(format, input.reader, file, options).map_err(CliError::Input)?;
        let mut next = 0u64;
        Ok(Box::new(pieces.flat_map(move |piece| match piece {
            Ok(piece) => {
                let mut games = Vec::new();
                piece.parse_into(&mut games);
                number_games(&mut games, &mut next);
                games.into_iter().map(Ok).collect::<Vec<_>>()
            }
            Err(e) => vec![Err(e)],
        })))
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
    /// Move cells marked illegible (`?`), and main-line moves replay assumed in place
    /// of what was written (issue 27: [`Counts::slips_of`]).
    pub illegible: u64,
    pub assumed: u64,
    /// Games read but left out by the selection (`convert --where`…, issue 28).
    pub left_out: u64,
    /// Games given `ECO`/`Opening` tags by `--add-eco`.
    pub classified: u64,
    /// Games read but left out as duplicates by `convert --dedupe`, and how many of
    /// them as prefixes of a longer game (the others: exact duplicates).
    pub duplicates: u64,
    pub prefixes: u64,
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
        let how = if has(Code::EncodingGuessed) {
            "guessed"
        } else if has(Code::EncodingReplaced) {
            "with replacements"
        } else {
            match game.source.encoding {
                Some("UTF-8") | None => return None,
                Some(_) => "from a BOM or --encoding",
            }
        };
        Some((game.source.encoding.unwrap_or("?"), how))
    }

    /// The illegible cells of a game and the moves replay assumed in it.
    pub fn slips_of(game: &Game) -> (u64, u64) {
        let illegible = game
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::IllegibleMove)
            .count();
        (illegible as u64, game.repairs.len() as u64)
    }

    /// Counts what [`Counts::slips_of`] found in a game.
    pub fn add_slips(&mut self, (illegible, assumed): (u64, u64)) {
        self.illegible += illegible;
        self.assumed += assumed;
    }

    fn add_encoding(&mut self, key: Option<(&'static str, &'static str)>) {
        if let Some(key) = key {
            *self.encodings.entry(key).or_default() += 1;
        }
    }

    pub fn summary(&self, file: &str) -> String {
        let plural = if self.read == 1 { "" } else { "s" };
        let mut s = format!(
            "{}: {} game{plural}: {} clean, {} repaired, {} partial, {} failed",
            render::escape(file),
            self.read,
            self.clean,
            self.repaired,
            self.partial,
            self.failed
        );
        if self.junk > 0 {
            // h23: "1 stretch", not "1 stretches"
            let plural = if self.junk == 1 { "" } else { "es" };
            s.push_str(&format!(
                "; {} stretch{plural} of non-game text reported",
                self.junk
            ));
        }
        let plural = |n: u64| if n == 1 { "" } else { "s" };
        if self.illegible > 0 {
            s.push_str(&format!(
                "; {} illegible move{}",
                self.illegible,
                plural(self.illegible)
            ));
        }
        if self.assumed > 0 {
            s.push_str(&format!(
                "; {} move{} assumed",
                self.assumed,
                plural(self.assumed)
            ));
        }
        if self.left_out > 0 {
            s.push_str(&format!(
                "; {} written, {} left out by the selection",
                self.read - self.left_out - self.duplicates,
                self.left_out
            ));
        }
        if self.duplicates > 0 {
            s.push_str(&format!(
                "; {} duplicate{} left out ({} exact, {} prefix{} of a longer game)",
                self.duplicates,
                plural(self.duplicates),
                self.duplicates - self.prefixes,
                self.prefixes,
                if self.prefixes == 1 { "" } else { "es" }
            ));
        }
        if self.classified > 0 {
            s.push_str(&format!(
                "; {} game{} classified (ECO)",
                self.classified,
                plural(self.classified)
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

// ---- h23: first-contact helpers (stdin hint, --log, --game/--number) ----

/// One line on standard error when a command is about to read standard input from a
/// terminal, so that a bare `kyphu check` does not wait silently.
pub(crate) fn stdin_hint() {
    use std::io::IsTerminal;
    if io::stdin().is_terminal() {
        eprintln!(
            "kyphu: reading game records from standard input; end with Ctrl-D (Ctrl-Z on Windows), or name a file"
        );
    }
}

/// Where diagnostics go: standard error (or standard output, for `check`), or the file
/// given with `--log`.
pub struct Log {
    file: Option<io::BufWriter<std::fs::File>>,
}

impl Log {
    /// `--log FILE`: created (truncated) now, so that a bad path is a usage error
    /// before any work.
    /// A log that names an input (any path, link or hard link to it) is refused before
    /// anything is created: `--log` would empty it.
    pub fn open(path: Option<&str>, inputs: &[String]) -> Result<Log, CliError> {
        if let Some(p) = path {
            let target = output::Target::new("--log", p)?;
            output::refuse_inputs(&[&target], false, inputs)?;
        }
        let file = path
            .map(|p| {
                std::fs::File::create(p)
                    .map(io::BufWriter::new)
                    .map_err(|e| {
                        CliError::Io(io::Error::new(
                            e.kind(),
                            format!("cannot create log {p}: {e}"),
                        ))
                    })
            })
            .transpose()?;
        Ok(Log { file })
    }

    pub fn is_file(&self) -> bool {
        self.file.is_some()
    }

    /// Writes `text` to the log file, or to standard error without one.
    pub fn write(&mut self, text: &str) -> io::Result<()> {
        use io::Write;
        match &mut self.file {
            Some(f) => f.write_all(text.as_bytes()),
            None => io::stderr().lock().write_all(text.as_bytes()),
        }
    }

    /// A per-file summary: to the log file and to standard error (with a log file the
    /// terminal still learns how the run went), or to standard error alone.
    pub fn summary(&mut self, line: &str) -> io::Result<()> {
        if self.file.is_some() {
            self.write(&format!("{line}\n"))?;
        }
        eprintln!("{line}");
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        use io::Write;
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

/// `--game` of `show` and `diff`: the variant, as everywhere; an old-style number
/// (`--game 3`, which used to mean the third game) still selects the Nth game when
/// `--number` is not given, with a note saying so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameOrNumber {
    Variant(GameArg),
    Number(u64),
}

pub(crate) fn parse_game_or_number(s: &str) -> Result<GameOrNumber, String> {
    if let Ok(n) = s.trim().parse::<u64>() {
        return Ok(GameOrNumber::Number(n));
    }
    GameArg::from_str(s, true)
        .map(GameOrNumber::Variant)
        .map_err(|_| format!("expected auto, chess, chess960 or xiangqi, found `{s}`"))
}

/// The variant and the 1-based game number that `--game` and `--number` ask for.
pub(crate) fn game_and_number(game: &GameOrNumber, number: Option<u64>) -> (GameArg, u64) {
    match (game, number) {
        (GameOrNumber::Variant(v), n) => (*v, n.unwrap_or(1)),
        (GameOrNumber::Number(old), None) => {
            eprintln!(
                "kyphu: note: --game {old} read as --number {old} (the game number); --game names the variant (auto, chess, chess960, xiangqi)"
            );
            (GameArg::Auto, *old)
        }
        (GameOrNumber::Number(old), Some(n)) => {
            eprintln!(
                "kyphu: note: --game {old} ignored: --number {n} gives the game number; --game names the variant (auto, chess, chess960, xiangqi)"
            );
            (GameArg::Auto, n)
        }
    }
}

/// Runs the parsed command line and returns the process exit code.
pub fn run(args: Args) -> ExitCode {
    // A closed standard output (`>&-`) would take every write for a success and throw
    // the output away: an error, unless the output goes to a file.
    let to_stdout = !matches!(&args.command, Command::Convert(a) if a.output.is_some());
    if to_stdout && output::stdout_closed() {
        eprintln!("kyphu: error: standard output is closed; redirect it to a file or use -o");
        return ExitCode::from(2);
    }
    let result = match args.command {
        Command::Convert(a) => convert::run(&a),
        Command::Check(a) => check::run(&a),
        Command::Diff(a) => diff::run(&a),
        Command::Show(a) => show::run(&a),
        Command::Perft(a) => perft::run(&a),
        Command::Serve(a) => serve::run(&a),
        Command::Index(a) => index::run(&a),
    };
    match result {
        Ok(code) => code,
        Err(CliError::Usage(msg)) => {
            eprintln!("kyphu: error: {}", render::escape(&msg));
            ExitCode::from(2)
        }
        Err(CliError::Io(e) | CliError::Input(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(CliError::Io(e) | CliError::Input(e)) => {
            eprintln!("kyphu: error: {}", render::escape(&e.to_string()));
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
