//! `kyphu index`: one record per game (file, byte offset and length of the game in the
//! file, tags, ply count, status), as CSV or JSON Lines, so that an archive can be
//! searched and sliced without a database (issue 28). Every game is replayed (the ply
//! count and status are the replay's); nothing else is written.

use std::{
    io::{self, Write},
    process::ExitCode,
};

use clap::ValueEnum;
use serde::Serialize;

use super::{
    CliError, Counts, ReadArgs,
    convert::{self, InputFormat},
    pipeline,
};
use kyphu::{model::game::Status, replay::replay};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IndexFormat {
    /// Comma-separated values with a header row: the Seven Tag Roster and ECO as columns
    Csv,
    /// One JSON object per game, every tag in `tags`
    Jsonl,
}

#[derive(Debug, clap::Args)]
pub struct IndexArgs {
    #[command(flatten)]
    pub read: ReadArgs,
    /// Record format
    #[arg(long = "to", value_enum, default_value_t = IndexFormat::Csv)]
    pub to: IndexFormat,
    /// Input format: auto (by file name and content), pgn, csv, xqf or dhtmlxq
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
    pub from: InputFormat,
}

/// The tags CSV gives a column each, in this order.
const CSV_TAGS: [&str; 8] = [
    "Event", "Site", "Date", "Round", "White", "Black", "Result", "ECO",
];

/// One game's record.
#[derive(Debug, Serialize)]
struct Record<'a> {
    file: &'a str,
    /// 0-based index of the game in its file.
    game: u64,
    /// Byte offset of the game's first byte in the file, and its length in bytes.
    offset: u64,
    length: u64,
    /// 1-based line of the game's first line.
    line: u64,
    /// Half-moves of the main line that were replayed.
    plies: usize,
    status: Status,
    /// The encoding the game's text was decoded with.
    encoding: &'static str,
    /// Every tag, by name (a repeated name: its first value).
    tags: serde_json::Map<String, serde_json::Value>,
}

pub fn run(a: &IndexArgs) -> Result<ExitCode, CliError> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let files = a.read.files();
    a.read.validate(&files)?;
    if a.to == IndexFormat::Csv {
        let mut header = csv_row(
            [
                "file", "game", "offset", "length", "line", "plies", "status", "encoding",
            ]
            .into_iter()
            .chain(CSV_TAGS.iter().copied()),
        );
        header.push('\n');
        out.write_all(header.as_bytes())?;
    }
    let mut problems = false;
    for file in files {
        let options = a.read.replay_options(&file)?;
        let (reader, _) = convert::source_named(&a.read, a.from, &file, None)?;
        let mut counts = Counts::default();
        let to = a.to;
        let file_name = file.as_str();
        let mut progress = super::progress::Progress::new(&file);
        pipeline::run(
            reader,
            a.read.threads(),
            |raw| {
                if raw.junk {
                    return (None, raw.byte_end, String::new());
                }
                let game = replay(raw, &options);
                let mut tags = serde_json::Map::new();
                for (name, value) in game.tags.iter() {
                    if !tags.contains_key(name) {
                        tags.insert(name.to_owned(), value.into());
                    }
                }
                let record = Record {
                    file: file_name,
                    game: game.source.game_index,
                    offset: game.source.byte_start,
                    length: game.source.byte_end - game.source.byte_start,
                    line: game.source.first_line,
                    plies: game.moves.moves.len(),
                    status: game.status(),
                    encoding: game.source.encoding.unwrap_or("UTF-8"),
                    tags,
                };
                let mut text = match to {
                    IndexFormat::Jsonl => serde_json::to_string(&record).unwrap_or_default(),
                    IndexFormat::Csv => csv_line(&record),
                };
                text.push('\n');
                let tally = (record.status, Counts::encoding_of(&game));
                (Some(tally), game.source.byte_end, text)
            },
            |(tally, byte_end, text)| {
                progress.update(&counts, byte_end);
                match tally {
                    Some((status, encoding)) => {
                        problems |= matches!(status, Status::Partial | Status::Failed);
                        counts.add(status, encoding);
                    }
                    None => counts.junk += 1,
                }
                out.write_all(text.as_bytes())
            },
        )
        .map_err(|e| CliError::from_pipeline(&file, e))?;
        progress.finish();
        out.flush()?;
        eprintln!("{}", counts.summary(&file));
    }
    out.flush()?;
    Ok(if problems {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The CSV line of a record (without its line end).
fn csv_line(r: &Record) -> String {
    let status = match r.status {
        Status::Clean => "clean",
        Status::Repaired => "repaired",
        Status::Partial => "partial",
        Status::Failed => "failed",
    };
    let numbers = [r.game, r.offset, r.length, r.line, r.plies as u64].map(|n| n.to_string());
    let tag = |name: &str| r.tags.get(name).and_then(|v| v.as_str()).unwrap_or("");
    csv_row(
        std::iter::once(r.file)
            .chain(numbers.iter().map(String::as_str))
            .chain([status, r.encoding])
            .chain(CSV_TAGS.iter().map(|t| tag(t))),
    )
}

/// Fields joined by commas, each quoted when it holds a comma, a quote or a line end
/// (RFC 4180).
fn csv_row<'a>(fields: impl Iterator<Item = &'a str>) -> String {
    let mut line = String::new();
    for (i, f) in fields.enumerate() {
        if i > 0 {
            line.push(',');
        }
        if f.contains([',', '"', '\n', '\r']) {
            line.push('"');
            line.push_str(&f.replace('"', "\"\""));
            line.push('"');
        } else {
            line.push_str(f);
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::csv_row;

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(
            csv_row(["a", "Carlsen, Magnus", "say \"hi\"", ""].into_iter()),
            "a,\"Carlsen, Magnus\",\"say \"\"hi\"\"\","
        );
    }
}
