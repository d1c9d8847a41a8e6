//! `kyphu convert`: any input to PGN, JSON Lines or scoresheet CSV.

use std::{
    io::{self, IoSlice, Read, Write},
    path::Path,
    process::ExitCode,
    sync::{Arc, Mutex},
};

use clap::ValueEnum;

use super::{
    CliError, Counts, ReadArgs,
    output::{self, Output, Target},
    pipeline,
    render::{Fens, Located},
};
use kyphu::{
    archive::{RawGame, csv::GamesTable},
    emit::{
        self, CsvOptions, JsonOptions, MoveStyle, PgnOptions, ScoresheetWriter, XiangqiNotation,
        json::{JsonBuf, JsonRenderer},
    },
    model::diag::{LineIndex, Severity},
    model::game::{Game, Status},
    notation::chess::{SanStyle, english},
    replay::replay,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// PGN export format, canonical SAN
    Pgn,
    /// JSON Lines, one object per game (docs/schema/game.schema.json)
    Json,
    /// Scoresheet CSV, one row per move number
    Csv,
    /// DhtmlXQ (UBB) blocks for the xiangqi web viewers; other text kept as it was
    Dhtmlxq,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// By file name (`.csv` is a scoresheet, `.htm`/`.html` a DhtmlXQ page) or content
    /// (a first line naming the white and black columns is a scoresheet header; the
    /// `XQ` signature an XQF file; a `[DhtmlXQ` block a DhtmlXQ page), else PGN or
    /// plain movetext. A `.zip` (by content) is read whatever this says: each of its
    /// files by its own name and content
    Auto,
    /// PGN, or plain movetext with or without tags
    Pgn,
    /// A scoresheet typed into a spreadsheet (columns move/white/black or TT/Trắng/Đen)
    Csv,
    /// XQF, the binary format of XQStudio (xiangqi)
    Xqf,
    /// DhtmlXQ (UBB) blocks in a text or HTML page (xiangqi)
    Dhtmlxq,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutNotation {
    /// Standard algebraic as PGN writes it: `O-O`, `e8=Q`
    San,
    /// The FIDE Laws' style: `0-0`, `d8Q` (with --out-lang, in that language)
    Fide,
    /// Figurine algebraic: `♘f3`
    Figurine,
    /// Long algebraic: `Ng1-f3`, `e4xd5`, `e7-e8=Q` (with --out-lang, in that language)
    Lan,
    /// UCI coordinates: `g1f3`, `e7e8q` (xiangqi: ICCS)
    Uci,
}

#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub read: ReadArgs,
    /// Write here instead of standard output: written to a temporary file beside it
    /// and put in its place when the run succeeds (see --partial-output)
    #[arg(short, long)]
    pub output: Option<String>,
    /// Output format (default: from the -o extension: .pgn, .json/.jsonl/.ndjson,
    /// .csv; pgn without -o or with no extension)
    #[arg(long, value_enum)]
    pub to: Option<OutputFormat>,
    /// Input format
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
    pub from: InputFormat,
    /// Piece letters of the output (a language code, as for --lang; default en)
    #[arg(long)]
    pub out_lang: Option<String>,
    /// Style of chess moves in the output (also --moves)
    #[arg(long, alias = "moves", value_enum, default_value_t = OutNotation::San)]
    pub out_notation: OutNotation,
    /// Notation of xiangqi moves in the output (the list comes from the notation table)
    #[arg(long, default_value = "iccs", help = out_xiangqi_help())]
    pub out_xiangqi: String,
    /// PGN: the reduced export format (Seven Tag Roster, moves, result only)
    #[arg(long)]
    pub reduced: bool,
    /// CSV output: also write the header fields of the games to this file (games.csv).
    /// With any other output: read the games' tags (names, event, round…) from this
    /// per-game table for scoresheet CSV inputs (its `game` column names the sheet's
    /// games; a sheet without one is one game, given the table's only row)
    #[arg(long)]
    pub games_csv: Option<String>,
    /// CSV: write cells that begin with = + - @ (a formula to a spreadsheet) as they
    /// are; by default they get a leading ' (read back unchanged by kyphu)
    #[arg(long)]
    pub csv_raw_cells: bool,
    /// Print nothing on standard error but the per-file summary
    #[arg(short, long)]
    pub quiet: bool,
    /// When an input fails (cannot be read to its end), still put what was converted
    /// in place of the -o and --games-csv files (by default they are left as they were)
    #[arg(long)]
    pub partial_output: bool,
    /// Write the most likely intended game of a scoresheet with slips: replay goes on
    /// after each error under the reading the whole rest of the game supports best;
    /// each move changed is flagged with what was written and a confidence (a PGN
    /// comment, a JSON `repairs` field), and the moves to look at are listed on
    /// standard error (docs/arbiter.md). Without it nothing is changed
    #[arg(long)]
    pub repair: bool,
    #[command(flatten)]
    pub select: super::select::SelectArgs,
    #[command(flatten)]
    pub shape: Box<super::shape::ShapeArgs>,
    #[command(flatten)]
    pub dedupe: super::dedupe::DedupeArgs,
}

impl ConvertArgs {
    /// The output format: `--to`, else the one `-o`'s extension names, else PGN. An
    /// extension that names no format is refused without `--to`, and one that names
    /// another format than `--to` is refused.
    fn format(&self) -> Result<OutputFormat, CliError> {
        let Some(output) = self.output.as_deref() else {
            return Ok(self.to.unwrap_or(OutputFormat::Pgn));
        };
        let ext = Path::new(output)
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let named = match ext.as_deref() {
            None => None,
            Some("pgn") => Some(OutputFormat::Pgn),
            Some("json" | "jsonl" | "ndjson") => Some(OutputFormat::Json),
            Some("csv") => Some(OutputFormat::Csv),
            Some(other) => {
                return self.to.ok_or_else(|| {
                    CliError::Usage(format!(
                        "-o {output}: expected an extension .pgn, .json, .jsonl, .ndjson or .csv, found .{other}; name the format with --to pgn, --to json or --to csv"
                    ))
                });
            }
        };
        match (self.to, named) {
            (Some(to), Some(named)) if to != named => Err(CliError::Usage(format!(
                "--to {} and -o {output} disagree: the extension names {}; drop --to or change the extension",
                format_name(to),
                format_name(named)
            ))),
            (to, named) => Ok(to.or(named).unwrap_or(OutputFormat::Pgn)),
        }
    }

    fn style(&self) -> Result<MoveStyle, CliError> {
        let table = match &self.out_lang {
            None => english(),
            Some(code) => kyphu::notation::chess::table(code)
                .ok_or_else(|| CliError::Usage(format!("unknown output language `{code}`")))?,
        };
        let chess = match self.out_notation {
            OutNotation::San | OutNotation::Lan | OutNotation::Uci => SanStyle {
                table,
                ..SanStyle::pgn()
            },
            OutNotation::Fide => SanStyle::fide(table),
            OutNotation::Figurine => SanStyle::figurine(),
        };
        let xiangqi = match self.out_xiangqi.as_str() {
            "iccs" => XiangqiNotation::Iccs,
            other => XiangqiNotation::Dialect(super::notation_named(other).ok_or_else(|| {
                CliError::Usage(format!(
                    "unknown xiangqi notation `{other}`; expected one of: {}",
                    super::notation_names(", ")
                ))
            })?),
        };
        Ok(MoveStyle { chess, xiangqi })
    }
}

/// The `--out-xiangqi` help, with the names of the xiangqi notations.
fn out_xiangqi_help() -> String {
    format!(
        "Notation of xiangqi moves in the output: {} (default iccs)",
        super::notation_names(", ")
    )
}

fn format_name(f: OutputFormat) -> String {
    f.to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_owned())
}

/// The output: each game's bytes as rendered, written together with vectored writes
/// once about [`Gather::BYTES`] are pending, instead of copied into a buffer; the
/// buffers written are handed back to `spare` when there is one (JSON: see
/// [`Spare`]).
struct Gather<'a, W: Write> {
    out: W,
    /// Each game's buffer and how many of its first bytes are its output.
    pending: Vec<(Vec<u8>, usize)>,
    bytes: usize,
    spare: Option<&'a Spare>,
}

impl<'a, W: Write> Gather<'a, W> {
    /// Bytes pending before they are written.
    const BYTES: usize = 1 << 16;
    /// Games pending before they are written (well under any `IOV_MAX`).
    const GAMES: usize = 256;

    fn new(out: W, spare: Option<&'a Spare>) -> Gather<'a, W> {
        Gather {
            out,
            pending: Vec::new(),
            bytes: 0,
            spare,
        }
    }

    /// Takes one game's output: the first `len` bytes of `b`.
    fn push(&mut self, b: Vec<u8>, len: usize) -> io::Result<()> {
        if len == 0 {
            return Ok(());
        }
        self.bytes += len;
        self.pending.push((b, len));
        if self.bytes >= Self::BYTES || self.pending.len() >= Self::GAMES {
            self.write_pending()?;
        }
        Ok(())
    }

    /// Writes what is pending, then `b`.
    fn write_all(&mut self, b: &[u8]) -> io::Result<()> {
        self.write_pending()?;
        self.out.write_all(b)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.write_pending()?;
        self.out.flush()
    }

    fn write_pending(&mut self) -> io::Result<()> {
        // the first pending buffer not written completely, and how much of it is
        let (mut first, mut done) = (0, 0);
        while first < self.pending.len() {
            let rest = self.pending.get(first + 1..).unwrap_or(&[]);
            let head = self
                .pending
                .get(first)
                .and_then(|(b, len)| b.get(done..*len))
                .unwrap_or(&[]);
            let slices: Vec<IoSlice<'_>> = std::iter::once(head)
                .chain(rest.iter().map(|(b, len)| b.get(..*len).unwrap_or(b)))
                .map(IoSlice::new)
                .collect();
            let mut n = match self.out.write_vectored(&slices) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            while let Some((_, len)) = self.pending.get(first) {
                let left = len - done;
                if n < left {
                    done += n;
                    break;
                }
                n -= left;
                first += 1;
                done = 0;
            }
        }
        match self.spare {
            Some(spare) => spare.put(self.pending.drain(..).map(|(b, _)| b)),
            None => self.pending.clear(),
        }
        self.bytes = 0;
        Ok(())
    }
}

/// Buffers of JSON lines written out, handed back to the workers: a buffer is kept
/// at its full length ([`emit::json::JsonBuf`]), so a game rendered into one neither
/// allocates nor zeroes the room it writes into (zeroing it was a store of every
/// output byte more, 24 of them for each byte read).
///
/// The buffers are kept by size, in classes of [`Spare::STEP`] bytes, and a game
/// takes one of the class of its size hint ([`emit::json::JsonRenderer::size_hint`]):
/// a buffer handed to a game is at most one step longer than the game asks for, as a
/// fresh one would be. Taken from one pile of any sizes, each buffer would soon be as
/// long as the longest line it ever held, and the lines waiting in the window of
/// batches would hold that much each: on two threads peak RSS rose from about 32 to
/// 44-66 MB on the 102 MB bench file (with classes: as before). At most
/// [`Spare::BYTES`] are kept, in buffers of at most [`Spare::LARGEST`] bytes: the
/// memory they hold stays bounded whatever the games.
#[derive(Default)]
struct Spare(Mutex<SparePiles>);

#[derive(Default)]
struct SparePiles {
    /// `piles[c]`: buffers at least `c * STEP` bytes long and shorter than `(c + 1) *
    /// STEP`.
    piles: Vec<Vec<Vec<u8>>>,
    /// Bytes held in the piles.
    bytes: usize,
}

impl Spare {
    /// The size classes' width.
    const STEP: usize = 1 << 12;
    /// The longest buffer kept (the line of a game of a few hundred moves).
    const LARGEST: usize = 1 << 17;
    /// Bytes kept at most (a few batches' lines on each of two threads; a buffer
    /// past them is dropped).
    const BYTES: usize = 8 << 20;

    /// A buffer for a line of about `hint` bytes: a spare one of its class, else a
    /// new one as long as the class's longest hint (allocated zeroed: memory fresh
    /// from the system is not zeroed again).
    fn take(&self, hint: usize) -> Vec<u8> {
        let class = hint.div_ceil(Self::STEP);
        if class * Self::STEP > Self::LARGEST {
            return Vec::new();
        }
        let spare = self.0.lock().ok().and_then(|mut s| {
            let b = s.piles.get_mut(class)?.pop()?;
            s.bytes -= b.len();
            Some(b)
        });
        spare.unwrap_or_else(|| vec![0; class * Self::STEP])
    }

    /// Keeps `buffers` for later games (within the bounds).
    fn put(&self, buffers: impl Iterator<Item = Vec<u8>>) {
        let Ok(mut s) = self.0.lock() else {
            return;
        };
        for b in buffers {
            let len = b.len();
            if len > Self::LARGEST || s.bytes + len > Self::BYTES {
                continue;
            }
            let class = len / Self::STEP;
            if s.piles.len() <= class {
                s.piles.resize_with(class + 1, Vec::new);
            }
            if let Some(pile) = s.piles.get_mut(class) {
                pile.push(b);
                s.bytes += len;
            }
        }
    }
}

/// What a worker hands to the writer for one input item.
struct Item {
    junk: bool,
    byte_end: u64,
    status: Status,
    encoding: Option<(&'static str, &'static str)>,
    /// Illegible cells and assumed moves ([`Counts::slips_of`]).
    slips: (u64, u64),
    /// The game meets the selection (`--where`…); one that does not is counted only.
    selected: bool,
    /// `--add-eco` classified the game.
    classified: bool,
    /// `--fix-results` fixed the game's result.
    fixed: bool,
    /// `--split-by`: the value of the tag; `--out-encoding`: a character the
    /// encoding cannot hold (the run stops there).
    split_value: Option<String>,
    shape_error: Option<String>,
    game: Option<Game>,
    /// `--dedupe`: the game's line hashes (empty when it takes no part), first line and
    /// number of tags.
    hashes: Vec<u64>,
    line: u64,
    tags: usize,
    /// The output of the game: the first `rendered_len` bytes of `rendered`.
    rendered: Vec<u8>,
    rendered_len: usize,
    messages: String,
}

/// `--repair`: each move replay assumed gets a comment saying what was written and how
/// sure the choice is (`kyphu: repaired: written "Md4", played Nd5, confidence 0.93`),
/// and the moves to look at (where the best and the second reading are close) are
/// listed in `messages`.
fn flag_repairs(game: &mut Game, messages: Option<&mut String>, file: &str) {
    let mut review = Vec::new();
    for r in &game.repairs {
        let Some(node) = (r.ply as usize)
            .checked_sub(1)
            .and_then(|i| game.moves.moves.get_mut(i))
        else {
            continue;
        };
        let confidence = f32::from(r.confidence_milli) / 1000.0;
        let written = if r.written.is_empty() {
            "nothing (a move left out)".to_owned()
        } else {
            format!("\"{}\"", r.written)
        };
        node.extras_mut().comments.push(format!(
            "kyphu: repaired: written {written}, played {} ({}), confidence {confidence:.2}{}",
            r.san,
            r.kind,
            if r.review { ", to review" } else { "" }
        ));
        if r.review {
            let number = format!(
                "{}{}",
                r.ply.div_ceil(2),
                if r.ply % 2 == 1 { "." } else { "..." }
            );
            let others = r.candidates.get(1..).unwrap_or_default().join(" or ");
            review.push(format!(
                "{number} {} (written {written}, confidence {confidence:.2}; or {others})",
                r.san
            ));
        }
    }
    if let Some(messages) = messages
        && !review.is_empty()
    {
        messages.push_str(&format!(
            "{}: game {}: moves to look at: {}\n",
            super::render::escape(file),
            game.source.game_index + 1,
            review.join("; ")
        ));
    }
}

/// A game read as `convert` writes it: replayed, then selected (`--where`…; text that
/// is not a game is kept) and classified (`--add-eco`): whether it is junk, the game,
/// whether it is selected and whether it was classified.
fn prepare(
    raw: RawGame,
    options: &kyphu::ReplayOptions,
    selection: &kyphu::game::select::Selection,
    add_eco: bool,
) -> (bool, Game, bool, bool) {
    let junk = raw.junk;
    let mut game = replay(raw, options);
    // the selection: a game left out is counted, never written (issue 28)
    let selected = junk || selection.keeps(&game);
    let classified = selected && !junk && add_eco && super::select::add_eco(&mut game);
    (junk, game, selected, classified)
}

pub fn run(a: &ConvertArgs) -> Result<ExitCode, CliError> {
    // Everything asked for is checked before any file is touched: the options, that
    // every input can be opened, that no output is an input.
    let format = a.format()?;
    let style = a.style()?;
    // with CSV output --games-csv is written; with any other it is read (issue 27)
    let games_in = match &a.games_csv {
        Some(g) if format != OutputFormat::Csv => Some(read_games_table(g)?),
        _ => None,
    };
    let selection = a.select.selection().map_err(CliError::Usage)?;
    let add_eco = a.select.add_eco;
    let files = a.read.files();
    a.read.validate(&files)?;
    // output shaping (issue 28): nothing of it runs when no option asks for it
    let shape = a.shape.shape();
    let shaping = shape.any();
    let encoding = match super::shape::OutEncoding::parse(a.shape.out_encoding.as_deref())? {
        super::shape::OutEncoding::Utf8 => None,
        e => Some(e),
    };
    if format == OutputFormat::Csv && (a.shape.split_by.is_some() || a.shape.split_every.is_some())
    {
        return Err(CliError::Usage(
            "--split-by and --split-every write PGN, JSON or DhtmlXQ output, not CSV".into(),
        ));
    }
    if encoding.is_some() && matches!(format, OutputFormat::Csv | OutputFormat::Json) {
        return Err(CliError::Usage(
            "--out-encoding writes PGN or DhtmlXQ output; JSON is UTF-8 (RFC 8259), and CSV too"
                .into(),
        ));
    }
    let mut split = super::shape::Split::new(&a.shape, a.output.as_deref(), &files)?;
    let split_tag = split.as_ref().and_then(|s| s.tag().map(str::to_owned));
    let split_tag = split_tag.as_deref();
    let output = a
        .output
        .as_deref()
        .filter(|_| split.is_none())
        .map(|o| Target::new("-o", o))
        .transpose()?;
    let games_csv = a
        .games_csv
        .as_deref()
        .filter(|_| games_in.is_none())
        .map(|g| Target::new("--games-csv", g))
        .transpose()?;
    let targets: Vec<&Target> = output.iter().chain(&games_csv).collect();
    output::refuse_inputs(&targets, output.is_none(), &files)?;
    // a folder is read file by file: one that holds an output would read it
    for f in files.iter().filter(|f| *f != "-" && Path::new(f).is_dir()) {
        let Ok(dir) = Path::new(f).canonicalize() else {
            continue;
        };
        for t in [
            a.output.as_deref(),
            a.games_csv.as_deref().filter(|_| games_in.is_none()),
        ]
        .into_iter()
        .flatten()
        {
            let parent = Path::new(t)
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            if parent.canonicalize().is_ok_and(|p| p.starts_with(&dir)) {
                return Err(CliError::Input(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "cannot read {f}: it is a directory holding the output {t}; write the output elsewhere or name the files to read"
                    ),
                )));
            }
        }
    }
    // --dedupe: each file of a folder is an input of its own, for the report to name
    // the file a game is in (issue 28); those files are read in the format they show
    let (files, in_folders) = super::dedupe::DedupeArgs::inputs(a.dedupe.dedupe.is_some(), files)?;
    let output = output.map(Target::open).transpose()?;
    let games_csv = games_csv.map(Target::open).transpose()?;
    // --dedupe: the output is spooled, and copied without the duplicates at the end
    // (issue 28)
    let mut dedupe = a
        .dedupe
        .start(&files, format == OutputFormat::Csv, split.is_some())?;
    // with --dedupe, the summaries wait for the duplicates' counts
    let mut summaries: Vec<(String, Counts, u64)> = Vec::new();
    let dedupe_by = dedupe.as_ref().map(super::dedupe::Dedupe::by);

    let sink: Box<dyn Write + Send> = match (&output, &dedupe) {
        (_, Some(d)) => Box::new(d.sink()?),
        (Some(o), None) => Box::new(o.writer()?),
        (None, None) if split.is_some() => Box::new(io::sink()),
        (None, None) => Box::new(io::stdout()),
    };
    let spare = Spare::default();
    let mut out = Gather::new(sink, (format == OutputFormat::Json).then_some(&spare));
    let mut csv = match format {
        OutputFormat::Csv => {
            let games = games_csv.as_ref().map(Output::writer).transpose()?;
            Some(ScoresheetWriter::new(
                Vec::new(),
                games,
                CsvOptions {
                    moves: style,
                    raw_cells: a.csv_raw_cells,
                },
            ))
        }
        _ => None,
    };
    let chess_moves = match a.out_notation {
        OutNotation::Lan => emit::ChessMoves::Long,
        OutNotation::Uci => emit::ChessMoves::Uci,
        _ => emit::ChessMoves::San,
    };
    let pgn_options = PgnOptions {
        reduced: a.reduced,
        moves: style,
        max_line: a
            .shape
            .max_line()?
            .unwrap_or(PgnOptions::default().max_line),
        chess_moves,
        fen_each: a.shape.fen_each,
        ..PgnOptions::default()
    };
    let json_renderer =
        JsonRenderer::new(&JsonOptions { moves: style }).shaped(chess_moves, a.shape.fen_each);
    let mut incomplete = false;
    // the first error that stopped the run (an input that failed, or the output)
    let mut failure = None;
    let mut output_failed = false;
    let mut log = super::Log::open(a.read.log.as_deref(), &files)?;
    for file in &files {
        let options = kyphu::ReplayOptions {
            go_on: a.repair,
            repair: a.repair,
            ..a.read.replay_options(file)?
        };
        let from = if in_folders.contains(file) {
            InputFormat::Auto
        } else {
            a.from
        };
        let (source, origins) = match source_named(&a.read, from, file, games_in.as_ref()) {
            Ok(source) => source,
            Err(e) => {
                failure = Some(e);
                break;
            }
        };
        let mut counts = Counts::default();
        let mut fixed = 0u64;
        let quiet = a.quiet;
        if let Some(d) = dedupe.as_mut() {
            d.begin_file(file);
        }
        let file_name = file.as_str();
        let mut progress = super::progress::Progress::new(file);
        let process = |raw: RawGame| {
            // a game of a zip entry is named `archive.zip:entry` in messages
            let origin = origins
                .as_ref()
                .and_then(|o| o.name_of(raw.index, raw.junk));
            let file_name = origin.as_deref().unwrap_or(file_name);
            let byte_end = raw.byte_end;
            let (junk, mut game, selected, classified) =
                prepare(raw, &options, &selection, add_eco);
            let hashes = match dedupe_by {
                Some(by) if selected && !junk => super::dedupe::hashes(by, &game),
                _ => Vec::new(),
            };
            let mut messages = String::new();
            let mut fixed = false;
            if shaping
                && selected
                && !junk
                && let Some(fix) = shape.apply(&mut game)
            {
                fixed = true;
                if !quiet {
                    messages.push_str(&format!(
                        "{}: game {}: {fix}\n",
                        super::render::escape(file_name),
                        game.source.game_index + 1
                    ));
                }
            }
            if !game.repairs.is_empty() {
                flag_repairs(&mut game, (!quiet).then_some(&mut messages), file_name);
            }
            if !quiet {
                let mut locating = None;
                for d in game.diagnostics.iter().filter(|d| {
                    d.severity == Severity::Error || (junk && d.severity >= Severity::Warning)
                }) {
                    let (index, fens) = locating.get_or_insert_with(|| {
                        let index = LineIndex::new(&game.source.text, game.source.first_line);
                        (index, Fens::new(&game))
                    });
                    Located::new(file_name, &game, d, index, fens).human(&mut messages);
                }
            }
            let status = game.status();
            let encoding = Counts::encoding_of(&game);
            let slips = Counts::slips_of(&game);
            Item {
                junk,
                byte_end,
                status,
                encoding,
                slips,
                selected,
                classified,
                fixed,
                split_value: None,
                shape_error: None,
                line: game.source.first_line,
                tags: game.tags.len(),
                hashes,
                // text that is not a game is kept too, as a non-game record
                game: selected.then_some(game),
                rendered: Vec::new(),
                rendered_len: 0,
                messages,
            }
        };
        // written in a stage of its own (the replay of the whole batch first), and the
        // game dropped there, on the worker that built it (the CSV writer, which keeps
        // state from game to game, takes it on the calling thread)
        let write = |item: &mut Item| {
            // the split tag's value and the game's name, read before the game goes
            let named = match &item.game {
                Some(g) if encoding.is_some() || split_tag.is_some() => {
                    item.split_value = split_tag.and_then(|t| g.tags.get(t)).map(str::to_owned);
                    Some(g.source.game_index + 1)
                }
                _ => None,
            };
            if let Some(game) = &item.game
                && item.junk
            {
                match format {
                    OutputFormat::Pgn => {
                        item.rendered = emit::pgn::non_game_bytes(&game.source.text);
                        item.rendered_len = item.rendered.len();
                        item.game = None;
                    }
                    OutputFormat::Json => {
                        item.rendered = emit::json::non_game_json(game);
                        item.rendered_len = item.rendered.len();
                        item.game = None;
                    }
                    OutputFormat::Dhtmlxq => {
                        // the page around the blocks, as it was
                        item.rendered = game.source.text.clone().into_bytes();
                        item.rendered_len = item.rendered.len();
                        item.game = None;
                    }
                    OutputFormat::Csv => {}
                }
            } else if let Some(game) = &item.game {
                match format {
                    OutputFormat::Pgn => {
                        item.rendered = emit::pgn::to_pgn_bytes(game, &pgn_options);
                        item.rendered_len = item.rendered.len();
                        item.game = None;
                    }
                    OutputFormat::Json => {
                        let mut b = JsonBuf::from_vec(spare.take(json_renderer.size_hint(game)));
                        json_renderer.render(&mut b, game);
                        (item.rendered, item.rendered_len) = b.into_parts();
                        item.game = None;
                    }
                    OutputFormat::Dhtmlxq => {
                        // a chess game has no DhtmlXQ form: written as PGN
                        item.rendered = emit::dhtmlxq::to_dhtmlxq_string(game).map_or_else(
                            || emit::pgn::to_pgn_bytes(game, &pgn_options),
                            String::into_bytes,
                        );
                        item.rendered_len = item.rendered.len();
                        item.game = None;
                    }
                    OutputFormat::Csv => {}
                }
            }
            if let Some(e) = encoding {
                let text = item.rendered.get(..item.rendered_len).unwrap_or(&[]);
                match e.encode(text) {
                    Ok(None) => {}
                    Ok(Some(b)) => {
                        item.rendered_len = b.len();
                        item.rendered = b;
                    }
                    Err(c) => {
                        let what = match named {
                            Some(n) if !item.junk => format!("game {n}"),
                            _ => "text between games".to_owned(),
                        };
                        item.shape_error = Some(format!(
                            "{}: {what}: {} holds '{c}' (U+{:04X}), which {} cannot hold; write UTF-8, or change the text",
                            super::render::escape(file_name),
                            super::shape::where_is(text, c),
                            u32::from(c),
                            e.name()
                        ));
                    }
                }
            }
        };
        let result =
            pipeline::run_in_two_stages(source, a.read.threads(), process, write, |item| {
                progress.update(&counts, item.byte_end);
                if !item.messages.is_empty() {
                    progress.finish();
                    if let Err(e) = log.write(&item.messages) {
                        output_failed = true;
                        return Err(e);
                    }
                }
                // non-game text is kept in the output too, counted, and the exit
                // status is 1
                if item.junk {
                    counts.junk += 1;
                } else {
                    counts.add(item.status, item.encoding);
                    counts.add_slips(item.slips);
                    counts.left_out += u64::from(!item.selected);
                    counts.classified += u64::from(item.classified);
                    fixed += u64::from(item.fixed);
                }
                if let Some(e) = item.shape_error {
                    output_failed = true;
                    return Err(io::Error::other(e));
                }
                if let Some(split) = split.as_mut() {
                    let bytes = item.rendered.get(..item.rendered_len).unwrap_or(&[]);
                    let wrote = split.write(!item.junk, item.split_value.as_deref(), bytes);
                    output_failed |= wrote.is_err();
                    return wrote;
                }
                // --dedupe: the piece's length and fingerprint, for the copy at the end
                if let Some(d) = dedupe.as_mut() {
                    let recorded = d.record(
                        item.rendered_len,
                        item.junk,
                        &item.hashes,
                        item.line,
                        item.tags,
                    );
                    output_failed |= recorded.is_err();
                    recorded?;
                }
                let wrote = out.push(item.rendered, item.rendered_len).and_then(|()| {
                    match (csv.as_mut(), item.game.as_ref()) {
                        (Some(w), Some(g)) => {
                            if item.junk {
                                w.write_non_game(&g.source.text)?;
                            } else {
                                w.write_game(g)?;
                            }
                            // written on game by game, never held whole
                            let rows = w.take_moves()?;
                            let len = rows.len();
                            out.push(rows, len)
                        }
                        _ => Ok(()),
                    }
                });
                output_failed |= wrote.is_err();
                wrote
            });
        progress.finish();
        if let Err(e) = result {
            if output_failed {
                failure = Some(match (&split, a.output.as_deref()) {
                    // the files of --split-by / --split-every, named by -o
                    (Some(_), Some(pattern)) => CliError::Io(io::Error::new(
                        e.kind(),
                        format!("cannot write {}: {e}", super::render::escape(pattern)),
                    )),
                    _ => write_error(output.as_ref(), e)?,
                });
            } else {
                // what was read is reported, and written below, before the error
                if dedupe.is_some() {
                    summaries.push((file.clone(), counts, fixed));
                } else {
                    log.summary(&(counts.summary(file) + &fixed_note(fixed)))?;
                }
                failure = Some(CliError::from_pipeline(file, e));
            }
            break;
        }
        incomplete |= counts.partial + counts.failed + counts.junk > 0;
        if dedupe.is_some() {
            summaries.push((file.clone(), counts, fixed));
        } else {
            log.summary(&(counts.summary(file) + &fixed_note(fixed)))?;
        }
    }
    // --dedupe: the spool copied to the output without the duplicates
    let mut report = None;
    if let Some(d) = dedupe.take().filter(|_| !output_failed) {
        let mut counts: Vec<Counts> = summaries.iter().map(|(_, c, _)| c.clone()).collect();
        let copied = (|| {
            out.flush()?;
            // the output itself, not a `dyn Write`: the copy can then be the system's
            match &output {
                Some(o) => d.finish(&mut o.writer()?, &mut log, a.quiet, &mut counts),
                None => d.finish(&mut io::stdout().lock(), &mut log, a.quiet, &mut counts),
            }
        })();
        match copied {
            Ok((r, note)) => {
                report = r;
                for ((file, _, fixed), counts) in summaries.iter().zip(&counts) {
                    log.summary(&(counts.summary(file) + &fixed_note(*fixed)))?;
                }
                if let Some(note) = note {
                    log.summary(&note)?;
                }
            }
            Err(e) => {
                output_failed = true;
                let e = write_error(output.as_ref(), e)?;
                if failure.is_none() {
                    failure = Some(e);
                }
            }
        }
    }
    log.flush()?;
    // everything converted is written out, also after an input error
    let written = (|| {
        if let Some(w) = csv {
            let (moves, games) = w.into_inner()?;
            out.write_all(&moves)?;
            if let Some(mut g) = games {
                g.flush()?;
            }
        }
        if let Some(s) = split.as_mut() {
            s.flush()?;
        }
        out.flush()
    })();
    if let Err(e) = written {
        output_failed = true;
        let e = write_error(output.as_ref(), e)?;
        match (&failure, e) {
            (None, e) => failure = Some(e),
            (Some(_), CliError::Io(e) | CliError::Input(e)) => {
                eprintln!("kyphu: error: {}", super::render::escape(&e.to_string()));
            }
            (Some(_), CliError::Usage(_)) => {}
        }
    }
    // the output files are put in place only by a run that read every input to its
    // end (or with --partial-output, when an input failed but not the output)
    let keep = !output_failed && (failure.is_none() || a.partial_output);
    if let Some(s) = split {
        let n = s.finish(keep, a.partial_output)?;
        if keep && !a.quiet {
            eprintln!("kyphu: {n} file{} written", if n == 1 { "" } else { "s" });
        }
    }
    for o in [output, games_csv, report].into_iter().flatten() {
        if keep {
            o.commit()?;
        } else if o.replaces() {
            eprintln!(
                "kyphu: {}: not replaced, left as it was (the run failed{})",
                super::render::escape(o.name()),
                if a.partial_output {
                    ""
                } else {
                    "; --partial-output keeps what was read"
                }
            );
        }
    }
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(if incomplete {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `; N results fixed` for the summary of a file (`--fix-results`), or nothing.
fn fixed_note(fixed: u64) -> String {
    match fixed {
        0 => String::new(),
        1 => "; 1 result fixed".into(),
        n => format!("; {n} results fixed"),
    }
}

/// An error writing the output, named with it; a closed pipe on standard output ends
/// the run quietly (returned as the error).
fn write_error(output: Option<&Output>, e: io::Error) -> Result<CliError, CliError> {
    if e.kind() == io::ErrorKind::BrokenPipe && output.is_none() {
        return Err(CliError::Io(e));
    }
    let name = output.map_or("standard output", Output::name);
    Ok(CliError::Io(io::Error::new(
        e.kind(),
        format!("cannot write {name}: {e}"),
    )))
}

/// The games of a `.zip` input name their entry (`archive.zip:entry`) in messages.
type Origins = Option<kyphu::archive::zipfile::Origins>;

/// The games of `file` as the pipeline takes them, streamed: a scoresheet CSV
/// (`--from csv`, a `.csv` name, or a first line that is a scoresheet header), an XQF
/// file (its `XQ` signature), a DhtmlXQ page (a `[DhtmlXQ` block in its first bytes,
/// or an `.htm`/`.html` name), else PGN or movetext; a folder: every game file in it,
/// in name order (`kyphu::archive::formats`); a `.zip` (by content: `PK\3\4`): every
/// game file in it, in name order, and which entry each game came from.
pub(super) fn source_named(
    read: &ReadArgs,
    from: InputFormat,
    file: &str,
    games: Option<&Arc<GamesTable>>,
) -> Result<(kyphu::archive::formats::Pieces, Origins), CliError> {
    use kyphu::archive::formats::{self, Format};
    let options = read.read_options()?;
    if file != "-" && Path::new(file).is_dir() {
        return formats::folder(Path::new(file), options)
            .map(|f| (f, None))
            .map_err(CliError::Input);
    }
    let mut input =
        kyphu::bytes::open_wrapped(file, super::progress::counted).map_err(CliError::Input)?;
    let format = match from {
        // a zip is read as one, whatever `--from` says of the files in it
        _ if kyphu::archive::zipfile::is_zip(input.peek(4).map_err(CliError::Input)?) => {
            Format::Zip
        }
        InputFormat::Csv => Format::Csv,
        InputFormat::Pgn => Format::Pgn,
        InputFormat::Xqf => Format::Xqf,
        InputFormat::Dhtmlxq => Format::Dhtmlxq,
        InputFormat::Auto => formats::sniff(input.peek(4096).map_err(CliError::Input)?, file),
    };
    match games {
        Some(table) if format == Format::Csv => {
            let pieces = kyphu::archive::csv::pieces_with_games(
                input.reader,
                options.encoding,
                Arc::clone(table),
            )
            .map_err(|e| CliError::Input(io::Error::new(e.kind(), format!("{file}: {e}"))))?;
            Ok((Box::new(pieces), None))
        }
        Some(_) => Err(CliError::Usage(format!(
            "--games-csv: expected scoresheet CSV inputs, found {file} read as {format:?}; the per-game table gives tags to scoresheets only"
        ))),
        None => formats::pieces_named(format, input.reader, file, options).map_err(CliError::Input),
    }
}

/// Reads a per-game table (`--games-csv` on input), at most
/// [`kyphu::archive::csv::MAX_GAMES_FILE_BYTES`], decoded as any input (a BOM, UTF-8,
/// else a guessed legacy encoding).
pub(super) fn read_games_table(file: &str) -> Result<Arc<GamesTable>, CliError> {
    use kyphu::archive::csv::MAX_GAMES_FILE_BYTES;
    let named = |e: io::Error| {
        CliError::Input(io::Error::new(
            e.kind(),
            format!("--games-csv: cannot read {file}: {e}"),
        ))
    };
    let input = kyphu::bytes::open(file).map_err(named)?;
    let mut data = Vec::new();
    input
        .reader
        .take(MAX_GAMES_FILE_BYTES as u64 + 1)
        .read_to_end(&mut data)
        .map_err(named)?;
    if data.len() > MAX_GAMES_FILE_BYTES {
        return Err(CliError::Input(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "--games-csv: expected a games table of at most {MAX_GAMES_FILE_BYTES} bytes, found a longer {file}"
            ),
        )));
    }
    let (text, _) = kyphu::text::decode_chunk(&data, None, None);
    Ok(Arc::new(GamesTable::read(&text)))
}

#[cfg(test)]
mod tests {
    use super::Spare;

    /// A buffer taken for a hint is long enough for it and shorter than the end of the
    /// class after the hint's,
    /// whatever buffers were handed back before; the piles stay within their bytes.
    #[test]
    fn spare_buffers_fit_their_hints() {
        let spare = Spare::default();
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % n as u64).unwrap_or(0)
        };
        let mut held = Vec::new();
        for _ in 0..20_000 {
            let hint = next(Spare::LARGEST + 4 * Spare::STEP);
            let b = spare.take(hint);
            let class_end = hint.div_ceil(Spare::STEP) * Spare::STEP;
            if class_end <= Spare::LARGEST {
                assert!(b.len() >= hint, "{} for a hint of {hint}", b.len());
                assert!(b.len() < class_end + Spare::STEP, "{} for {hint}", b.len());
            } else {
                assert!(b.is_empty());
            }
            // some buffers grow as a game writes past its hint
            let mut b = b;
            if next(4) == 0 {
                b.resize(b.len() + next(3 * Spare::STEP), 0);
            }
            held.push(b);
            if held.len() > next(300) {
                spare.put(held.drain(..));
                let bytes = spare.0.lock().map(|s| s.bytes).unwrap_or(usize::MAX);
                assert!(bytes <= Spare::BYTES);
            }
        }
    }
}
