//! Output shaping on `convert` (issue 28): what is stripped from the games
//! (`--strip comments,nags,variations,clocks,tags`), what is added (`--add-plycount`,
//! `--fen-each`), results fixed from the game (`--fix-results`), the line width
//! (`--width`), the output's encoding (`--out-encoding`) and the output split into
//! files (`--split-by TAG`, `--split-every N`). See docs/cli.md, "Shaping the output".
//!
//! Stripping, tags and results change the [`Game`] before it is written, so every
//! writer shows them; with no shaping option nothing here runs and the writers take
//! the path they take without it.

use std::{
    collections::HashMap,
    fs::File,
    io::{self, BufWriter, Write},
};

use clap::ValueEnum;
use kyphu::{
    model::board::Board,
    model::game::{Game, GameResult, Line, Status},
};

use super::{
    CliError,
    output::{self, Output, Parked, Target},
};

/// What `--strip` removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Strip {
    /// Comments (before and after moves; clocks and kyphu's own notes stay)
    Comments,
    /// Numeric annotation glyphs ($1, and !, ? as read)
    Nags,
    /// Variations (the main line stays)
    Variations,
    /// Clock and elapsed-time commands ([%clk …], [%emt …], [%egt …])
    Clocks,
    /// Tags that are not in the PGN standard (Seven Tag Roster and §9; Variant, Game
    /// and Red kept)
    Tags,
    /// All of the above
    All,
}

/// The options that shape the output.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ShapeArgs {
    /// Remove from every game (comma-separated or repeated): comments, nags,
    /// variations, clocks, tags (those not in the PGN standard), all. --reduced is all
    /// of them and every tag but the Seven Tag Roster
    #[arg(long, value_enum, value_delimiter = ',', value_name = "WHAT")]
    pub strip: Vec<Strip>,
    /// PGN: longest movetext line, in characters (default 79)
    #[arg(long, value_name = "N")]
    pub width: Option<usize>,
    /// After every move, the position it leads to: a PGN comment {[%fen FEN]}, a JSON
    /// `fen` field in each move object
    #[arg(long)]
    pub fen_each: bool,
    /// Add (or replace) a PlyCount tag: the number of half-moves of the main line
    #[arg(long)]
    pub add_plycount: bool,
    /// Fix the result when the game contradicts it: checkmate or stalemate on the
    /// board, or a Result tag unlike the movetext's result; each fix is reported
    #[arg(long)]
    pub fix_results: bool,
    /// Write the games to one file per value of TAG: -o names the files, `{}` standing
    /// for the value (`-o 'by-event/{}.pgn'`; without `{}`, `-VALUE` before the
    /// extension)
    #[arg(
        long,
        value_name = "TAG",
        requires = "output",
        conflicts_with = "split_every"
    )]
    pub split_by: Option<String>,
    /// Write the games N to a file: -o names the files, `{}` standing for the file's
    /// number from 1 (without `{}`, `-NUMBER` before the extension)
    #[arg(long, value_name = "N", requires = "output")]
    pub split_every: Option<u64>,
    /// Encoding of the output: utf-8 (default), windows-1252, latin-1 (ISO-8859-1), or
    /// another single-byte encoding by its WHATWG name (windows-1250, koi8-r…); a
    /// character it cannot hold is an error naming the game and the tag
    #[arg(long, value_name = "ENCODING")]
    pub out_encoding: Option<String>,
}

/// The changes made to each game before it is written.
#[derive(Debug, Clone, Copy, Default)]
pub struct Shape {
    comments: bool,
    nags: bool,
    variations: bool,
    clocks: bool,
    tags: bool,
    plycount: bool,
    fix_results: bool,
}

/// The tags of the PGN standard (§8.1.1 and §9), kept by `--strip tags`, and those
/// kyphu's writers need to write a game back (`Variant`, xiangqi's `Game` and `Red`).
const STANDARD_TAGS: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteTitle",
    "BlackTitle",
    "WhiteElo",
    "BlackElo",
    "WhiteUSCF",
    "BlackUSCF",
    "WhiteNA",
    "BlackNA",
    "WhiteType",
    "BlackType",
    "EventDate",
    "EventSponsor",
    "Section",
    "Stage",
    "Board",
    "Opening",
    "Variation",
    "SubVariation",
    "ECO",
    "NIC",
    "Time",
    "UTCTime",
    "UTCDate",
    "TimeControl",
    "SetUp",
    "FEN",
    "Termination",
    "Annotator",
    "Mode",
    "PlyCount",
    "Variant",
    "Game",
    "Red",
];

impl ShapeArgs {
    /// The changes to the games the options ask for.
    pub fn shape(&self) -> Shape {
        let has = |s: Strip| self.strip.iter().any(|&x| x == s || x == Strip::All);
        Shape {
            comments: has(Strip::Comments),
            nags: has(Strip::Nags),
            variations: has(Strip::Variations),
            clocks: has(Strip::Clocks),
            tags: has(Strip::Tags),
            plycount: self.add_plycount,
            fix_results: self.fix_results,
        }
    }

    /// The line width, checked.
    pub fn max_line(&self) -> Result<Option<usize>, CliError> {
        match self.width {
            Some(0) => Err(CliError::Usage(
                "--width: expected a width of at least 1 character, found 0".into(),
            )),
            w => Ok(w),
        }
    }
}

impl Shape {
    /// Whether any change is asked for.
    pub fn any(&self) -> bool {
        self.comments
            || self.nags
            || self.variations
            || self.clocks
            || self.tags
            || self.plycount
            || self.fix_results
    }

    /// Makes the changes to `game`; returns the result fix made, if any (`--fix-results`),
    /// as a sentence.
    pub fn apply(&self, game: &mut Game) -> Option<String> {
        if self.comments || self.nags || self.variations || self.clocks {
            strip_line(&mut game.moves, self);
        }
        if self.tags {
            let kept: kyphu::model::game::Tags = game
                .tags
                .iter()
                .filter(|(n, _)| STANDARD_TAGS.contains(n))
                .collect();
            game.tags = kept;
        }
        let fixed = if self.fix_results {
            fix_result(game)
        } else {
            None
        };
        if self.plycount {
            game.tags
                .set("PlyCount", game.moves.moves.len().to_string());
        }
        fixed
    }
}

/// Strips what `shape` asks for from `line` and every line below it (on a heap
/// stack: variations nest as deep as the reader's budget lets them).
fn strip_line(line: &mut Line, shape: &Shape) {
    let mut stack: Vec<&mut Line> = vec![line];
    while let Some(line) = stack.pop() {
        if shape.comments {
            line.comments.clear();
        } else if shape.clocks {
            strip_clock_commands(&mut line.comments);
        }
        for node in &mut line.moves {
            if shape.clocks {
                node.clock = None;
            }
            if !node.has_extras() {
                continue;
            }
            if shape.variations {
                drop(node.take_variations());
            }
            let extras = node.extras_mut();
            if shape.comments {
                extras.comments.clear();
            } else if shape.clocks {
                strip_clock_commands(&mut extras.comments);
            }
            if shape.nags {
                extras.nags.clear();
            }
            if shape.clocks {
                extras.emt = None;
            }
            stack.extend(extras.variations.iter_mut());
        }
    }
}

/// Removes the clock commands (`[%clk …]`, `[%emt …]`, `[%egt …]`) the reader left in
/// comments, and the comments they leave empty.
fn strip_clock_commands(comments: &mut Vec<String>) {
    for c in comments.iter_mut() {
        if !c.contains("[%") {
            continue;
        }
        let mut out = String::with_capacity(c.len());
        let mut rest = c.as_str();
        while let Some(i) = rest.find("[%") {
            let (before, at) = rest.split_at(i);
            out.push_str(before);
            let command = at
                .get(2..)
                .unwrap_or("")
                .split(|ch: char| ch.is_whitespace() || ch == ']')
                .next()
                .unwrap_or("");
            match (matches!(command, "clk" | "emt" | "egt"), at.find(']')) {
                (true, Some(end)) => rest = at.get(end + 1..).unwrap_or(""),
                _ => {
                    out.push_str("[%");
                    rest = at.get(2..).unwrap_or("");
                }
            }
        }
        out.push_str(rest);
        *c = out.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    comments.retain(|c| !c.is_empty());
}

/// `--fix-results`: the result the game shows when it contradicts the one written —
/// checkmate on the board (chess: the mated side lost; xiangqi: the side to move,
/// mated or stalemated, lost), stalemate in chess (a draw), or a Result tag unlike the
/// result the movetext ends with (the movetext's wins, as kyphu writes it) — put in
/// the game's result and its Result tag; returns what was fixed. A game whose main line
/// was not read to its end is left as it is.
fn fix_result(game: &mut Game) -> Option<String> {
    let tag = game.tags.get("Result").map(str::to_owned);
    let mut why = None;
    if matches!(game.status(), Status::Clean | Status::Repaired) {
        let board = game.end_position();
        let (mate, stalemate) = match &board {
            Board::Chess(p) => (p.is_checkmate(), p.is_stalemate()),
            Board::Xiangqi(p) => (p.is_checkmate(), p.is_stalemate()),
        };
        let loser = board.turn();
        let shown = match (&board, mate, stalemate) {
            (_, true, _) | (Board::Xiangqi(_), _, true) => {
                Some(if loser == kyphu::color::Color::White {
                    GameResult::BlackWins
                } else {
                    GameResult::WhiteWins
                })
            }
            (Board::Chess(_), false, true) => Some(GameResult::Draw),
            _ => None,
        };
        if let Some(shown) = shown
            && shown != game.result
        {
            why = Some(format!(
                "{} on the board",
                if mate { "checkmate" } else { "stalemate" }
            ));
            game.result = shown;
        }
    }
    let now = game.result.as_str();
    let tag_differs = tag.as_deref().is_some_and(|t| t != now);
    if why.is_none() && !tag_differs {
        return None;
    }
    let why = why.unwrap_or_else(|| format!("the movetext ends with {now}"));
    game.tags.set("Result", now);
    Some(format!(
        "result {} fixed to {now} ({why})",
        tag.as_deref().unwrap_or("(no Result tag)")
    ))
}

/// The output's encoding (`--out-encoding`).
#[derive(Debug, Clone, Copy, Default)]
pub enum OutEncoding {
    #[default]
    Utf8,
    /// ISO-8859-1 proper: U+0000 to U+00FF as one byte each (encoding_rs takes the
    /// label for windows-1252, as web browsers do).
    Latin1,
    Other(&'static encoding_rs::Encoding),
}

impl OutEncoding {
    pub fn parse(name: Option<&str>) -> Result<OutEncoding, CliError> {
        let Some(name) = name else {
            return Ok(OutEncoding::Utf8);
        };
        let folded = name.trim().to_ascii_lowercase().replace('_', "-");
        if matches!(
            folded.as_str(),
            "latin-1" | "latin1" | "iso-8859-1" | "iso8859-1" | "l1"
        ) {
            return Ok(OutEncoding::Latin1);
        }
        match encoding_rs::Encoding::for_label(folded.as_bytes()) {
            Some(e) if e == encoding_rs::UTF_8 => Ok(OutEncoding::Utf8),
            // UTF-16 and the replacement encoding have no encoder of their own
            Some(e) if e.output_encoding() == e => Ok(OutEncoding::Other(e)),
            _ => Err(CliError::Usage(format!(
                "--out-encoding {name}: expected utf-8, windows-1252, latin-1 or another encoding's WHATWG name, found an encoding kyphu cannot write"
            ))),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            OutEncoding::Utf8 => "UTF-8",
            OutEncoding::Latin1 => "ISO-8859-1",
            OutEncoding::Other(e) => e.name(),
        }
    }

    /// `text` (UTF-8) in this encoding, or the first character it cannot hold.
    pub fn encode(&self, text: &[u8]) -> Result<Option<Vec<u8>>, char> {
        if text.is_ascii() {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(text);
        match self {
            OutEncoding::Utf8 => Ok(None),
            OutEncoding::Latin1 => text
                .chars()
                .map(|c| u8::try_from(u32::from(c)).map_err(|_| c))
                .collect::<Result<Vec<u8>, char>>()
                .map(Some),
            OutEncoding::Other(e) => {
                let mut encoder = e.new_encoder();
                let mut out = Vec::with_capacity(text.len());
                let mut rest: &str = &text;
                loop {
                    out.reserve(rest.len() + 16);
                    let (result, read) =
                        encoder.encode_from_utf8_to_vec_without_replacement(rest, &mut out, true);
                    rest = rest.get(read..).unwrap_or("");
                    match result {
                        encoding_rs::EncoderResult::InputEmpty => return Ok(Some(out)),
                        encoding_rs::EncoderResult::OutputFull => {}
                        encoding_rs::EncoderResult::Unmappable(c) => return Err(c),
                    }
                }
            }
        }
    }
}

/// Where `c` stands in the rendered `text` of a game: `the White tag`, or `a move or
/// comment` (PGN: after the tags; JSON: told by the key before it when it can be).
pub fn where_is(text: &[u8], c: char) -> String {
    let text = String::from_utf8_lossy(text);
    let Some(at) = text.find(c) else {
        return "the text".into();
    };
    let line_start = text
        .get(..at)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1);
    let line = text.get(line_start..at).unwrap_or("");
    if let Some(name) = line.strip_prefix('[').and_then(|l| l.split(' ').next()) {
        return format!("the {name} tag");
    }
    // JSON: a character inside the `tags` object is in the value of its last key
    let before = text.get(..at).unwrap_or("");
    if text.starts_with('{')
        && !before.contains("},\"tag_list\"")
        && let Some(tags) = before.find("\"tags\":{")
    {
        let inner = before.get(tags + 8..).unwrap_or("");
        if let Some(k) = inner.rfind("\":\"") {
            let key_start = inner
                .get(..k)
                .and_then(|s| s.rfind('"'))
                .map_or(0, |i| i + 1);
            return format!("the {} tag", inner.get(key_start..k).unwrap_or("?"));
        }
    }
    "a move or comment".into()
}

/// How `--split-by` / `--split-every` choose the file.
#[derive(Debug, Clone)]
enum Rule {
    Tag(String),
    Every(u64),
}

/// The output split into files: see [`ShapeArgs::split_by`]. Each file is written to
/// a temporary file beside it and put in place when the run succeeds
/// ([`super::output`]); at most [`Split::OPEN`] are open at a time, the others parked
/// (closed, their temporary files kept).
pub struct Split {
    rule: Rule,
    /// The file names, `{}` standing for the value or number.
    pattern: String,
    inputs: Vec<String>,
    slots: Vec<Slot>,
    by_name: HashMap<String, usize>,
    open: usize,
    tick: u64,
    /// The file of the last game written, and how many games it holds.
    current: Option<usize>,
    /// Non-game text read before the first game, written before it.
    pending: Vec<u8>,
}

struct Slot {
    state: Option<State>,
    used: u64,
    games: u64,
}

enum State {
    Open(Output, BufWriter<File>),
    Parked(Parked),
}

impl Split {
    /// Files open at a time.
    const OPEN: usize = 64;

    /// The split `args` ask for, writing to files named after `output`; `None` when
    /// none is asked for.
    pub fn new(
        args: &ShapeArgs,
        output: Option<&str>,
        inputs: &[String],
    ) -> Result<Option<Split>, CliError> {
        let rule = match (&args.split_by, args.split_every) {
            (Some(tag), _) => Rule::Tag(tag.clone()),
            (None, Some(0)) => {
                return Err(CliError::Usage(
                    "--split-every: expected a number of games of at least 1, found 0".into(),
                ));
            }
            (None, Some(n)) => Rule::Every(n),
            (None, None) => return Ok(None),
        };
        let Some(output) = output else {
            return Err(CliError::Usage(
                "--split-by and --split-every write files: name them with -o (`{}` stands for the tag value or the file number)".into(),
            ));
        };
        let pattern = if output.contains("{}") {
            output.to_owned()
        } else {
            let path = std::path::Path::new(output);
            let name = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let (stem, ext) = match name.rfind('.') {
                Some(i) if i > 0 => name.split_at(i),
                _ => (name.as_str(), ""),
            };
            let file = format!("{stem}-{{}}{ext}");
            let dir = output.get(..output.len() - name.len()).unwrap_or("");
            format!("{dir}{file}")
        };
        Ok(Some(Split {
            rule,
            pattern,
            inputs: inputs.to_vec(),
            slots: Vec::new(),
            by_name: HashMap::new(),
            open: 0,
            tick: 0,
            current: None,
            pending: Vec::new(),
        }))
    }

    /// The tag whose value names the file of a game (`--split-by`).
    pub fn tag(&self) -> Option<&str> {
        match &self.rule {
            Rule::Tag(t) => Some(t),
            Rule::Every(_) => None,
        }
    }

    /// Writes the output of one item: a game (`game`, with the value of the split tag
    /// when there is one) or non-game text (written with the game before it).
    pub fn write(&mut self, game: bool, value: Option<&str>, bytes: &[u8]) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        let slot = match (&self.rule, game, self.current) {
            (_, false, None) => {
                self.pending.extend_from_slice(bytes);
                return Ok(());
            }
            (_, false, Some(slot)) => slot,
            (Rule::Every(n), true, Some(slot))
                if self.slots.get(slot).is_some_and(|s| s.games < *n) =>
            {
                slot
            }
            (Rule::Every(_), true, _) => {
                let name = self
                    .pattern
                    .replace("{}", &(self.slots.len() + 1).to_string());
                self.slot(&name)?
            }
            (Rule::Tag(_), true, _) => {
                let name = self.pattern.replace("{}", &file_word(value));
                self.slot(&name)?
            }
        };
        self.current = Some(slot);
        let pending = std::mem::take(&mut self.pending);
        let w = self.writer(slot)?;
        w.write_all(&pending)?;
        w.write_all(bytes)?;
        if game && let Some(s) = self.slots.get_mut(slot) {
            s.games += 1;
        }
        Ok(())
    }

    /// The slot of the file `name`, made (its target checked and opened) the first
    /// time.
    fn slot(&mut self, name: &str) -> io::Result<usize> {
        if let Some(&i) = self.by_name.get(name) {
            return Ok(i);
        }
        let usage = to_io;
        let target = Target::new("-o", name).map_err(usage)?;
        output::refuse_inputs(&[&target], false, &self.inputs).map_err(usage)?;
        self.make_room()?;
        let out = target.open().map_err(usage)?;
        let w = BufWriter::with_capacity(1 << 15, out.writer()?);
        self.open += 1;
        self.slots.push(Slot {
            state: Some(State::Open(out, w)),
            used: 0,
            games: 0,
        });
        let i = self.slots.len() - 1;
        self.by_name.insert(name.to_owned(), i);
        Ok(i)
    }

    /// Parks the file used longest ago when [`Split::OPEN`] are open.
    fn make_room(&mut self) -> io::Result<()> {
        if self.open < Self::OPEN {
            return Ok(());
        }
        let oldest = self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.state, Some(State::Open(..))))
            .min_by_key(|(_, s)| s.used)
            .map(|(i, _)| i);
        let Some(slot) = oldest.and_then(|i| self.slots.get_mut(i)) else {
            return Ok(());
        };
        if let Some(State::Open(out, mut w)) = slot.state.take() {
            w.flush()?;
            drop(w);
            match out.park() {
                Ok(p) => {
                    slot.state = Some(State::Parked(p));
                    self.open -= 1;
                }
                // written directly (a device): stays open
                Err(out) => {
                    let w = BufWriter::with_capacity(1 << 15, out.writer()?);
                    slot.state = Some(State::Open(out, w));
                }
            }
        }
        Ok(())
    }

    /// The writer of `slot`, its file reopened if it was parked.
    fn writer(&mut self, slot: usize) -> io::Result<&mut BufWriter<File>> {
        self.tick += 1;
        let parked = matches!(
            self.slots.get(slot).and_then(|s| s.state.as_ref()),
            Some(State::Parked(_))
        );
        if parked {
            self.make_room()?;
            if let Some(s) = self.slots.get_mut(slot)
                && let Some(State::Parked(p)) = s.state.take()
            {
                let out = p.resume().map_err(to_io)?;
                let w = BufWriter::with_capacity(1 << 15, out.writer()?);
                s.state = Some(State::Open(out, w));
                self.open += 1;
            }
        }
        let tick = self.tick;
        match self.slots.get_mut(slot) {
            Some(Slot {
                state: Some(State::Open(_, w)),
                used,
                ..
            }) => {
                *used = tick;
                Ok(w)
            }
            _ => Err(io::Error::other("a split output was lost")),
        }
    }

    /// Flushes every file.
    pub fn flush(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            // only non-game text was read: it has a file of its own
            let pending = std::mem::take(&mut self.pending);
            let name = self.pattern.replace("{}", "1");
            let slot = self.slot(&name)?;
            self.writer(slot)?.write_all(&pending)?;
        }
        for s in &mut self.slots {
            if let Some(State::Open(_, w)) = &mut s.state {
                w.flush()?;
            }
        }
        Ok(())
    }

    /// Puts every file in place (`keep`), or leaves the files as they were and says so.
    /// Returns how many files were written.
    pub fn finish(self, keep: bool, partial_output: bool) -> Result<usize, CliError> {
        let n = self.slots.len();
        for s in self.slots {
            let out = match s.state {
                Some(State::Open(out, w)) => {
                    drop(w);
                    out
                }
                Some(State::Parked(p)) => {
                    if !keep {
                        eprintln!("{}", not_replaced(p.name(), partial_output));
                        continue;
                    }
                    p.resume()?
                }
                None => continue,
            };
            if keep {
                out.commit()?;
            } else if out.replaces() {
                eprintln!("{}", not_replaced(out.name(), partial_output));
            }
        }
        Ok(n)
    }
}

/// A command-line error as the error of a write.
fn to_io(e: CliError) -> io::Error {
    match e {
        CliError::Usage(s) => io::Error::other(s),
        CliError::Io(e) | CliError::Input(e) => e,
    }
}

fn not_replaced(name: &str, partial_output: bool) -> String {
    format!(
        "kyphu: {}: not replaced, left as it was (the run failed{})",
        super::render::escape(name),
        if partial_output {
            ""
        } else {
            "; --partial-output keeps what was read"
        }
    )
}

/// A tag value as a file name: letters, digits and `-_.+` kept, anything else `_`, no
/// leading dot, at most 100 characters; `none` for a missing or empty value.
fn file_word(value: Option<&str>) -> String {
    let v = value.map(str::trim).unwrap_or("");
    let mut w: String = v
        .chars()
        .take(100)
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '+') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if w.starts_with('.') {
        w.replace_range(..1, "_");
    }
    if w.is_empty() { "none".into() } else { w }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_commands_go_and_the_rest_stays() {
        let mut c = vec![
            "[%eval 0.17] [%clk 0:00:30]".to_owned(),
            "[%clk 1:00:00]".to_owned(),
            "good [%emt 0:00:05] move [%csl Ga4]".to_owned(),
        ];
        strip_clock_commands(&mut c);
        assert_eq!(c, ["[%eval 0.17]", "good move [%csl Ga4]"]);
    }

    #[test]
    fn file_words() {
        assert_eq!(
            file_word(Some("Wch 1985/86 (Moscow)")),
            "Wch_1985_86__Moscow_"
        );
        assert_eq!(file_word(Some("..")), "_.");
        assert_eq!(file_word(None), "none");
        assert_eq!(file_word(Some("Hà Nội")), "Hà_Nội");
    }

    #[test]
    fn encodings() {
        let e = OutEncoding::parse(Some("latin-1")).ok();
        assert!(matches!(e, Some(OutEncoding::Latin1)));
        let Some(e) = e else { return };
        assert_eq!(
            e.encode("Müller".as_bytes()),
            Ok(Some(b"M\xfcller".to_vec()))
        );
        assert_eq!(e.encode("Đ".as_bytes()), Err('Đ'));
        let w = OutEncoding::parse(Some("windows-1252")).ok();
        let Some(w) = w else { panic!("windows-1252") };
        assert_eq!(w.encode("€".as_bytes()), Ok(Some(vec![0x80])));
        assert!(OutEncoding::parse(Some("utf-16le")).is_err());
        assert_eq!(
            where_is("[Event \"x\"]\n[White \"Đinh\"]\n\n1. e4 *".as_bytes(), 'Đ'),
            "the White tag"
        );
    }
}
