//! `convert --dedupe` (issue 28): duplicate games left out, the input read once. As
//! the games are converted, their output goes to a spool file instead of the output,
//! and each game's fingerprint ([`kyphu::game::dedupe`]) is learned by the table; a
//! record of each piece of output (its length in the spool, and for a game compared
//! its table entry) goes to a second spool file, and the hashes of the prefixes of
//! each distinct line (of the first game of the line only) to a third
//! ([`Dedupe::record`]). When every input is read, [`Dedupe::finish`] looks the
//! prefixes up, entry by entry, then reads the records back in order, gives each game
//! its verdict, and copies the spool to the output leaving the duplicates out (by
//! `copy_file_range` where the system has it); a game left out is reported: a line on
//! standard error (or in the `--log`), or a row of the `--dedupe-report` CSV file,
//! and in the per-file summary's counts.
//!
//! Memory: the table (at most 36 MB, `LINES_MAX` distinct lines) and a line's hashes
//! at a time; the spools are files in the temporary folder (`TMPDIR`), removed when
//! the run ends, as large as the converted output, plus 21 bytes per game and 8 per
//! ply of each distinct line.

use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use clap::ValueEnum;

use super::{
    CliError, Counts, Log,
    output::{Output, Target},
    render,
};
use kyphu::{
    game::dedupe::{DedupeBy, Duplicates, GameRef, LINES_MAX, Verdict, line_hashes},
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
    /// same White and Black; by moves: whoever played, whenever. Each game left out is
    /// reported (standard error, or --dedupe-report). The output is spooled to the
    /// temporary folder first. docs/cli.md, "Removing duplicates"
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true,
        default_missing_value = "game", value_name = "BY")]
    pub dedupe: Option<By>,
    /// With --dedupe: write one CSV row per game left out (file, game, line, plies,
    /// duplicate: exact or prefix, and the kept game's file, game, line, plies) to FILE
    /// instead of a line each on standard error
    #[arg(long, value_name = "FILE")]
    pub dedupe_report: Option<String>,
}

/// A temporary file, removed when dropped (on Unix, as soon as it is open: a run that
/// is killed leaves nothing behind).
struct Spool {
    file: File,
    path: Option<PathBuf>,
}

impl Spool {
    fn new(what: &str) -> io::Result<Spool> {
        let dir = std::env::temp_dir();
        let mut n = 0u32;
        loop {
            let path = dir.join(format!(
                "kyphu-dedupe-{}-{what}-{n}.tmp",
                std::process::id()
            ));
            match OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(file) => {
                    let path = if cfg!(unix) && std::fs::remove_file(&path).is_ok() {
                        None
                    } else {
                        Some(path)
                    };
                    return Ok(Spool { file, path });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 100 => n += 1,
                Err(e) => {
                    return Err(io::Error::new(
                        e.kind(),
                        format!(
                            "--dedupe: cannot create a temporary file in {}: {e} (set TMPDIR to another folder)",
                            dir.display()
                        ),
                    ));
                }
            }
        }
    }

    /// From the start, for reading.
    fn rewind(&mut self) -> io::Result<&mut File> {
        self.file.rewind()?;
        Ok(&mut self.file)
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        if let Some(p) = self.path.take() {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// The state of `--dedupe` during the run.
pub struct Dedupe {
    by: DedupeBy,
    table: Duplicates,
    /// The files of the run, each with the number of its first game.
    files: Vec<(String, u32)>,
    /// Whether each file's name is that of another input of the run too (set when the
    /// reading is done).
    repeated: Vec<bool>,
    /// The number of the next game of the run (text that is not a game not counted).
    next: u32,
    /// The converted output, every game of it, in input order.
    spool: Spool,
    /// A record per piece of output ([`Dedupe::record`]), in the same order.
    records: Spool,
    records_out: BufWriter<File>,
    /// The prefix hashes of each distinct line, in the order of its entry.
    prefixes: Spool,
    prefixes_out: BufWriter<File>,
    report: Option<(Output, BufWriter<File>)>,
}

/// A record's kind: text that is not a game, a game not compared, a game compared.
const JUNK: u8 = 0;
const GAME: u8 = 1;
const COMPARED: u8 = 2;

impl DedupeArgs {
    /// The inputs of the run: with `--dedupe` (`on`), each folder replaced by its game
    /// files ([`kyphu::archive::formats::folder_files`], in the order the folder is
    /// read in), so that each game is named by its file and its number in that file;
    /// and the files that came from a folder. A folder without a game file stays, for
    /// the reading to refuse it as it does without `--dedupe`.
    pub fn inputs(
        on: bool,
        files: Vec<String>,
    ) -> Result<(Vec<String>, std::collections::HashSet<String>), CliError> {
        let mut from_folders = std::collections::HashSet::new();
        if !on {
            return Ok((files, from_folders));
        }
        let mut out = Vec::with_capacity(files.len());
        for f in files {
            let path = std::path::Path::new(&f);
            if f == "-" || !path.is_dir() {
                out.push(f);
                continue;
            }
            let inside = kyphu::archive::formats::folder_files(path).map_err(CliError::Input)?;
            if inside.is_empty() {
                out.push(f);
                continue;
            }
            for p in inside {
                let name = p.to_string_lossy().into_owned();
                from_folders.insert(name.clone());
                out.push(name);
            }
        }
        Ok((out, from_folders))
    }

    /// The state for the run, or `None` without `--dedupe`; checks the options and
    /// opens the report (it replaces its file only when the run succeeds).
    pub fn start(
        &self,
        files: &[String],
        csv: bool,
        split: bool,
    ) -> Result<Option<Dedupe>, CliError> {
        let Some(by) = self.dedupe else {
            if self.dedupe_report.is_some() {
                return Err(CliError::Usage(
                    "--dedupe-report is written with --dedupe only: add --dedupe".into(),
                ));
            }
            return Ok(None);
        };
        if csv {
            return Err(CliError::Usage(
                "--dedupe writes PGN, JSON or DhtmlXQ output, not scoresheet CSV: convert to PGN with --dedupe first".into(),
            ));
        }
        if split {
            return Err(CliError::Usage(
                "--dedupe and --split-by / --split-every cannot be combined: write one file with --dedupe, then split it".into(),
            ));
        }
        let report = match &self.dedupe_report {
            None => None,
            Some(name) => {
                let target = Target::new("--dedupe-report", name)?;
                super::output::refuse_inputs(&[&target], false, files)?;
                let out = target.open()?;
                let mut w = BufWriter::new(out.writer()?);
                w.write_all(
                    b"file,game,line,plies,duplicate,kept_file,kept_game,kept_line,kept_plies,input,kept_input\n",
                )?;
                Some((out, w))
            }
        };
        let spool = Spool::new("output")?;
        let records = Spool::new("records")?;
        let records_out = BufWriter::with_capacity(1 << 16, records.file.try_clone()?);
        let prefixes = Spool::new("prefixes")?;
        let prefixes_out = BufWriter::with_capacity(1 << 16, prefixes.file.try_clone()?);
        Ok(Some(Dedupe {
            by: match by {
                By::Game => DedupeBy::Game,
                By::Players => DedupeBy::Players,
                By::Moves => DedupeBy::Moves,
            },
            table: Duplicates::new(),
            files: Vec::new(),
            repeated: Vec::new(),
            next: 0,
            spool,
            records,
            records_out,
            prefixes,
            prefixes_out,
            report,
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

fn read_u8(r: &mut impl Read) -> io::Result<u8> {
    let mut b = [0u8; 1];
    r.read_exact(&mut b)?;
    Ok(b[0])
}

fn read_u64(r: &mut impl Read) -> io::Result<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

/// A record read back: the piece's length, its kind, and for a compared game its
/// entry in the table, first line, number of tags and plies.
struct Record {
    len: u64,
    kind: u8,
    entry: u32,
    line: u32,
    tags: u16,
    plies: u16,
}

/// The next record of [`Dedupe::record`]; `None` at the end.
fn read_record(r: &mut impl Read) -> io::Result<Option<Record>> {
    let len = match read_u64(r) {
        Ok(len) => len,
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    };
    let kind = read_u8(r)?;
    let mut record = Record {
        len,
        kind,
        entry: 0,
        line: 0,
        tags: 0,
        plies: 0,
    };
    if kind == COMPARED {
        let mut b = [0u8; 12];
        r.read_exact(&mut b)?;
        let [e0, e1, e2, e3, l0, l1, l2, l3, t0, t1, p0, p1] = b;
        record.entry = u32::from_le_bytes([e0, e1, e2, e3]);
        record.line = u32::from_le_bytes([l0, l1, l2, l3]);
        record.tags = u16::from_le_bytes([t0, t1]);
        record.plies = u16::from_le_bytes([p0, p1]);
    }
    Ok(Some(record))
}

impl Dedupe {
    /// What duplicates share, for [`hashes`].
    pub fn by(&self) -> DedupeBy {
        self.by
    }

    /// Where the converted output goes (instead of the output).
    pub fn sink(&self) -> io::Result<File> {
        self.spool.file.try_clone()
    }

    /// The next input's games follow.
    pub fn begin_file(&mut self, name: &str) {
        self.files.push((name.to_owned(), self.next));
    }

    /// One piece of the output, in input order, as it goes to [`Dedupe::sink`]: its
    /// length there, whether it is text that is not a game, and for a game its
    /// [`hashes`] (empty: not compared), first line and number of tags.
    pub fn record(
        &mut self,
        len: usize,
        junk: bool,
        hashes: &[u64],
        line: u64,
        tags: usize,
    ) -> io::Result<()> {
        let w = &mut self.records_out;
        w.write_all(&(len as u64).to_le_bytes())?;
        if junk {
            return w.write_all(&[JUNK]);
        }
        let game = GameRef {
            seq: self.next,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            tags: u16::try_from(tags).unwrap_or(u16::MAX),
        };
        self.next = self.next.saturating_add(1);
        let Some((entry, new)) = self.table.learn(hashes, game) else {
            return w.write_all(&[GAME]);
        };
        let plies = u16::try_from(hashes.len() - 1).unwrap_or(u16::MAX);
        let mut b = [0u8; 13];
        b[0] = COMPARED;
        b[1..5].copy_from_slice(&entry.to_le_bytes());
        b[5..9].copy_from_slice(&game.line.to_le_bytes());
        b[9..11].copy_from_slice(&game.tags.to_le_bytes());
        b[11..13].copy_from_slice(&plies.to_le_bytes());
        w.write_all(&b)?;
        if new {
            // the line's prefixes, for the lookups at the end (its first and last
            // hashes are not: the start is no line, the last is the line's key)
            let p = &mut self.prefixes_out;
            for h in hashes.get(1..hashes.len() - 1).unwrap_or_default() {
                p.write_all(&h.to_le_bytes())?;
            }
        }
        Ok(())
    }

    /// The file and 1-based game number of game `seq`.
    fn place(&self, seq: u32) -> (usize, u32) {
        let i = self.files.partition_point(|&(_, first)| first <= seq);
        match i
            .checked_sub(1)
            .and_then(|i| self.files.get(i).map(|f| (i, f)))
        {
            Some((i, (_, first))) => (i, seq - first + 1),
            None => (0, seq + 1),
        }
    }

    fn name(&self, file: usize) -> &str {
        self.files.get(file).map_or("?", |(n, _)| n)
    }

    /// A game as messages name it: `game N`, and `of input K` (the input's place in
    /// the run, from 1) when the run reads a file of the same name more than once.
    fn game_words(&self, file: usize, number: u32) -> String {
        if self.repeated.get(file).copied().unwrap_or(false) {
            format!("game {number} of input {}", file + 1)
        } else {
            format!("game {number}")
        }
    }

    /// The second pass, when every input is read: the spool copied to `out` without
    /// the duplicates, each reported (in `log`, unless `quiet`, or in the report file)
    /// and counted in its file's `counts` (one per [`Dedupe::begin_file`]). Returns the
    /// report file to put in place with the other outputs, and a note on games the full
    /// table could not compare. An error is the output's (or the temporary files').
    pub fn finish<W: Write>(
        mut self,
        out: &mut W,
        log: &mut Log,
        quiet: bool,
        counts: &mut [Counts],
    ) -> io::Result<(Option<Output>, Option<String>)> {
        self.records_out.flush()?;
        self.prefixes_out.flush()?;
        let mut times = std::collections::HashMap::new();
        for (n, _) in &self.files {
            *times.entry(n.as_str()).or_insert(0u32) += 1;
        }
        self.repeated = self
            .files
            .iter()
            .map(|(n, _)| times.get(n.as_str()).is_some_and(|&t| t > 1))
            .collect();
        // each distinct line's prefixes looked up, entry by entry
        let mut prefixes = BufReader::with_capacity(1 << 16, self.prefixes.rewind()?.try_clone()?);
        let (mut bytes, mut hashes) = (Vec::new(), Vec::new());
        for e in 0..u32::try_from(self.table.lines()).unwrap_or(u32::MAX) {
            let n = usize::from(self.table.plies(e)).saturating_sub(1);
            bytes.resize(n * 8, 0);
            prefixes.read_exact(&mut bytes)?;
            hashes.clear();
            hashes.extend(bytes.chunks_exact(8).map(|c| {
                let mut w = [0u8; 8];
                w.copy_from_slice(c);
                u64::from_le_bytes(w)
            }));
            self.table.mark_entry(e, &hashes);
        }
        drop(prefixes);
        // then each game's verdict, in input order, and the spool copied without the
        // games left out: runs of pieces kept copied at once (by the system where it
        // can), the others passed over
        let mut records = BufReader::with_capacity(1 << 16, self.records.rewind()?.try_clone()?);
        let spool = self.spool.rewind()?.try_clone()?;
        let mut seq = 0u32;
        let mut said = String::new();
        let mut run = 0u64;
        let copy = |run: &mut u64, out: &mut W| -> io::Result<()> {
            if *run > 0 {
                let copied = io::copy(&mut (&spool).take(*run), out)?;
                if copied != *run {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "--dedupe: the temporary file of the output ended early",
                    ));
                }
                *run = 0;
            }
            Ok(())
        };
        while let Some(r) = read_record(&mut records)? {
            let mut keep = true;
            if r.kind != JUNK {
                let this = seq;
                seq = seq.saturating_add(1);
                if r.kind == COMPARED {
                    let game = GameRef {
                        seq: this,
                        line: r.line,
                        tags: r.tags,
                    };
                    keep = !self.judge(r.entry, r.plies, game, quiet, counts, &mut said)?;
                    if !said.is_empty() {
                        log.write(&said)?;
                        said.clear();
                    }
                }
            }
            if keep {
                run += r.len;
            } else {
                copy(&mut run, out)?;
                (&spool).seek(SeekFrom::Current(i64::try_from(r.len).unwrap_or(i64::MAX)))?;
            }
        }
        copy(&mut run, out)?;
        out.flush()?;
        let unrecorded = self.table.unrecorded();
        let note = (unrecorded > 0).then(|| {
            format!(
                "kyphu: --dedupe: {unrecorded} game{} of a new line came after {LINES_MAX} distinct lines (its memory bound): written without being compared",
                if unrecorded == 1 { "" } else { "s" }
            )
        });
        let report = match self.report.take() {
            None => None,
            Some((o, mut w)) => {
                w.flush().map_err(|e| {
                    io::Error::new(e.kind(), format!("cannot write {}: {e}", o.name()))
                })?;
                Some(o)
            }
        };
        Ok((report, note))
    }

    /// A compared game's verdict: whether it is left out (reported in `said` or the
    /// report, and counted).
    fn judge(
        &mut self,
        entry: u32,
        plies: u16,
        game: GameRef,
        quiet: bool,
        counts: &mut [Counts],
        said: &mut String,
    ) -> io::Result<bool> {
        let plies = usize::from(plies);
        let (prefix, kept, kept_plies) = match self.table.verdict_of(entry, game) {
            Verdict::Kept | Verdict::Ignored | Verdict::Unknown => return Ok(false),
            Verdict::Exact { kept } => (false, kept, plies),
            Verdict::Prefix { kept, plies } => (true, kept, usize::from(plies)),
        };
        let (file, number) = self.place(game.seq);
        let (kept_file, kept_number) = self.place(kept.seq);
        if let Some(c) = counts.get_mut(file) {
            c.duplicates += 1;
            c.prefixes += u64::from(prefix);
        }
        let line = game.line;
        if let Some((_, w)) = &mut self.report {
            let (name, kept_name) = (
                self.files.get(file).map_or("?", |(n, _)| n),
                self.files.get(kept_file).map_or("?", |(n, _)| n),
            );
            writeln!(
                w,
                "{},{number},{line},{plies},{},{},{kept_number},{},{kept_plies},{},{}",
                csv_field(name),
                if prefix { "prefix" } else { "exact" },
                csv_field(kept_name),
                kept.line,
                file + 1,
                kept_file + 1,
            )?;
        } else if !quiet {
            let what = if prefix {
                format!("its {plies} plies begin the {kept_plies} of")
            } else {
                "the same moves as".to_owned()
            };
            said.push_str(&format!(
                "{}:{line}: {} left out by --dedupe: {what} {} ({}:{}), kept\n",
                render::escape(self.name(file)),
                self.game_words(file, number),
                self.game_words(kept_file, kept_number),
                render::escape(self.name(kept_file)),
                kept.line
            ));
        }
        Ok(true)
    }
}
