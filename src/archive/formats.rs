//! Which reader an input goes to, and inputs of many files.
//!
//! The format of an input is found from its name and its first bytes ([`sniff`]): the
//! `XQ` signature of an XQF file, a `[DhtmlXQ` block (or an `.htm`/`.html` name), a
//! scoresheet CSV header (or a `.csv` name), else PGN or plain movetext. [`pieces`]
//! streams the games of one input in the pipeline's pieces; [`folder`] those of every
//! game file of a folder (and its subfolders), in name order, as one stream.

use std::{
    io::{self, BufRead, Read},
    path::{Path, PathBuf},
};

use super::{ArchiveReader, Piece, ReadOptions, csv, dhtmlxq, xqf, zipfile};
use crate::model::diag::{Code, Diagnostic};

/// An input format kyphu reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// PGN or plain movetext (with or without tags).
    Pgn,
    /// A scoresheet CSV.
    Csv,
    /// An XQF file (XQStudio).
    Xqf,
    /// A text or HTML page with DhtmlXQ (UBB) blocks.
    Dhtmlxq,
    /// A `.zip` of game files ([`zipfile`]): its entries read as one stream, in name
    /// order, like a folder.
    Zip,
}

/// The opening of a DhtmlXQ block (`[DhtmlXQ]`, `[DhtmlXQiFrame]`, `[DhtmlXQ_…`).
const DHTMLXQ: &[u8] = b"[DhtmlXQ";

/// The format of an input named `name` whose first bytes are `head` (what
/// [`crate::bytes::Input::peek`] gives: a whole first read). The XQF signature, a
/// `.csv` name or a scoresheet header, a DhtmlXQ block in the head or an `.htm`/`.html`
/// name; else PGN. Costs a look at the first bytes, and a search of the head for
/// `[DhtmlXQ` only when it holds a `[DhtmlXQ`-like `[D`: nothing measurable on PGN.
pub fn sniff(head: &[u8], name: &str) -> Format {
    if zipfile::is_zip(head) {
        return Format::Zip;
    }
    if xqf::is_xqf(head) {
        return Format::Xqf;
    }
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".csv") || csv::looks_like_scoresheet(head) {
        return Format::Csv;
    }
    if lower.ends_with(".html")
        || lower.ends_with(".htm")
        || memchr::memmem::find(head, DHTMLXQ).is_some()
    {
        return Format::Dhtmlxq;
    }
    Format::Pgn
}

/// The games of one input in `format`, as the pipeline takes them; `name` names the
/// input in messages.
pub fn pieces(
    format: Format,
    reader: Box<dyn BufRead + Send>,
    name: &str,
    options: ReadOptions,
) -> io::Result<Box<dyn Iterator<Item = io::Result<Piece>> + Send>> {
    pieces_named(format, reader, name, options).map(|(pieces, _)| pieces)
}

/// The games of an input as the pipeline takes them.
pub type Pieces = Box<dyn Iterator<Item = io::Result<Piece>> + Send>;

/// [`pieces`], and for a zip archive which entry each game came from
/// ([`zipfile::Origins`]), for messages that name `archive.zip:entry`.
pub fn pieces_named(
    format: Format,
    reader: Box<dyn BufRead + Send>,
    name: &str,
    options: ReadOptions,
) -> io::Result<(Pieces, Option<zipfile::Origins>)> {
    if format == Format::Zip {
        let (games, origins) = zipfile::read(zipfile::source(reader, name)?, name, options)?;
        return Ok((Box::new(games), Some(origins)));
    }
    let pieces: Box<dyn Iterator<Item = io::Result<Piece>> + Send> = match format {
        Format::Pgn => Box::new(ArchiveReader::new(reader, options).pieces()),
        Format::Csv => {
            let name = name.to_owned();
            let sheet = csv::ScoresheetReader::new(reader, options.encoding)
                .map_err(|e| io::Error::new(e.kind(), format!("{name}: {e}")))?;
            Box::new(sheet.map(|g| g.map(|g| Piece::from(g.raw))))
        }
        Format::Xqf => Box::new(std::iter::once(read_xqf(reader, name, &options))),
        Format::Dhtmlxq => Box::new(dhtmlxq::DhtmlxqReader::new(reader, options)),
        Format::Zip => Box::new(std::iter::empty()),
    };
    Ok((pieces, None))
}

/// Reads a whole XQF input (at most the game budget) into one game.
fn read_xqf(
    reader: Box<dyn BufRead + Send>,
    name: &str,
    options: &ReadOptions,
) -> io::Result<Piece> {
    let max = options.limits.max_game_bytes;
    let mut data = Vec::new();
    reader
        .take(max as u64 + 1)
        .read_to_end(&mut data)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot read {name}: {e}")))?;
    if data.len() > max {
        // a tree that large is not read: an error game, not silence
        let mut g = xqf::read_tree(&data[..0], options.encoding);
        g.diagnostics = vec![Diagnostic::error(
            Code::GameTooLarge,
            format!("the XQF file is over the game budget of {max} bytes: not read"),
        )];
        return Ok(Piece::from(g.into_raw(&options.limits)));
    }
    Ok(Piece::from(xqf::read(
        &data,
        options.encoding,
        &options.limits,
    )))
}

/// File names a folder (and a zip archive) is read for (the extension, lower case,
/// without a compression suffix `.gz`/`.zst`/`.bz2`); a folder also reads the `.zip`
/// archives in it.
pub const GAME_FILES: &[&str] = &["xqf", "pgn", "csv", "htm", "html", "txt"];

/// The game files of `dir` and its subfolders, sorted by their path (byte order of the
/// path, the same on every system); hidden files and folders (`.name`) are left out.
pub fn folder_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let entries = std::fs::read_dir(&d)
            .map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", d.display())))?;
        for entry in entries {
            let entry = entry?;
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().to_ascii_lowercase();
            if name.starts_with('.') {
                continue;
            }
            let ty = entry.file_type()?;
            let ty = if ty.is_symlink() {
                std::fs::metadata(&path)?.file_type()
            } else {
                ty
            };
            if ty.is_dir() {
                todo.push(path);
            } else if ty.is_file() {
                let base = ["gz", "zst", "bz2"]
                    .iter()
                    .find_map(|c| name.strip_suffix(&format!(".{c}")))
                    .unwrap_or(&name);
                let ext = base.rsplit_once('.').map_or("", |(_, e)| e);
                if GAME_FILES.contains(&ext) || ext == "zip" {
                    out.push(path);
                }
            }
        }
    }
    out.sort_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
    Ok(out)
}

/// The games of every game file of a folder ([`folder_files`]), one file after the
/// other, each read in the format [`sniff`] finds for it.
pub fn folder(
    dir: &Path,
    options: ReadOptions,
) -> io::Result<Box<dyn Iterator<Item = io::Result<Piece>> + Send>> {
    let files = folder_files(dir)?;
    let mut files = files.into_iter();
    let mut current: Option<Box<dyn Iterator<Item = io::Result<Piece>> + Send>> = None;
    Ok(Box::new(std::iter::from_fn(move || {
        loop {
            if let Some(it) = current.as_mut() {
                if let Some(p) = it.next() {
                    return Some(p);
                }
                current = None;
            }
            let path = files.next()?;
            let name = path.to_string_lossy().into_owned();
            match open_one(&name, options) {
                Ok(it) => current = Some(it),
                Err(e) => return Some(Err(e)),
            }
        }
    })))
}

/// Opens one file (decompressed by content) and streams its games.
fn open_one(
    name: &str,
    options: ReadOptions,
) -> io::Result<Box<dyn Iterator<Item = io::Result<Piece>> + Send>> {
    let mut input = crate::bytes::open(name)?;
    let format = sniff(input.peek(4096)?, name);
    pieces(format, input.reader, name, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_content_and_name() {
        assert_eq!(sniff(b"XQ\x12\0\0\0\0\0", "a.pgn"), Format::Xqf);
        assert_eq!(sniff(b"[Event \"x\"]\n", "a.pgn"), Format::Pgn);
        assert_eq!(
            sniff(b"<p>[DhtmlXQ][DhtmlXQ_movelist]", "-"),
            Format::Dhtmlxq
        );
        assert_eq!(sniff(b"<html>", "page.HTML"), Format::Dhtmlxq);
        assert_eq!(sniff(b"1. e4 e5", "a.csv"), Format::Csv);
    }
}
