//! Reading a `.zip` of game files as one stream of games, in entry-name order, the way
//! a folder is read ([`super::formats::folder`]).
//!
//! The archive's central directory is read with the `zip` crate; each entry is then
//! streamed on its own (stored or deflate), its size and CRC-32 checked as it is read,
//! and its games read in the format its name and first bytes say
//! ([`super::formats::sniff`]). Memory stays bounded whatever the archive: the
//! directory is refused over [`MAX_ENTRIES`] entries, an entry is never held whole, and
//! an entry whose declared inflated size is absurd for its compressed size (a zip bomb,
//! [`MAX_RATIO`]) or that inflates past its declared size is not read.
//!
//! Nothing is dropped silently: an entry that is not read (encrypted, a zip bomb, a
//! compression method other than stored and deflate, a zip inside the zip, corrupt) is
//! an error game naming `archive.zip:entry` and why; a file that is not a game file (by
//! its extension, as in a folder) is a non-game item with a warning naming it; entries
//! with a name used twice are told in one warning. [`Origins`] tells which entry each
//! game came from, for messages (`archive.zip:entry/name.xqf:12:3`).

use std::{
    collections::VecDeque,
    fs::File,
    io::{self, BufRead, BufReader, Read, Seek, SeekFrom},
    path::PathBuf,
    sync::{Arc, Mutex},
};

use zip::{CompressionMethod, ZipArchive};

use super::{
    Piece, RawGame, ReadOptions,
    formats::{self, Format},
};
use crate::{
    model::diag::{Code, Diagnostic},
    text::{DecodeReport, EncodingSource},
};

/// The most entries read from one archive: the directory is held in memory while the
/// archive is read (a few hundred bytes an entry), so this bounds that memory (about
/// 30 MB at most). A larger archive is refused as a whole, with a message saying so.
pub const MAX_ENTRIES: u64 = 100_000;

/// The largest inflated / compressed size ratio read for an entry over
/// [`RATIO_FLOOR`] bytes: game files compress about 4 to 10 times, and deflate cannot
/// do better than about 1 000; an entry over this is taken for a zip bomb and not read.
pub const MAX_RATIO: u64 = 200;

/// Entries up to this inflated size (1 MiB) are read whatever their ratio (a small
/// file of repeated text compresses very well, and costs nothing to read).
pub const RATIO_FLOOR: u64 = 1 << 20;

/// Whether `head` starts like a zip archive: a local file header (`PK\3\4`), or the
/// end record of an empty archive (`PK\5\6`).
pub fn is_zip(head: &[u8]) -> bool {
    head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06")
}

/// A seekable source of an archive's bytes.
pub trait ReadSeek: Read + Seek + Send {}

impl<T: Read + Seek + Send> ReadSeek for T {}

/// Which entry of an archive each game came from: the name for messages
/// (`archive.zip:entry/name.xqf`) of an item, by its index in the stream
/// ([`RawGame::index`], as [`super::number_games`] numbers them from 0) and whether it
/// is a non-game item.
#[derive(Clone, Debug, Default)]
pub struct Origins(Arc<Mutex<Table>>);

#[derive(Debug, Default)]
struct Table {
    /// (index of the entry's first game, entry), one row where the entry changes.
    games: Vec<(u64, Arc<str>)>,
    /// (index, entry) of non-game items: they take the index of the next game, so
    /// items of two entries can share one (`None`: not told apart).
    junk: Vec<(u64, Option<Arc<str>>)>,
}

impl Origins {
    /// The name of the entry the item numbered `index` came from (`junk`: a non-game
    /// item); `None` when not known (then the archive's name is the right one).
    pub fn name_of(&self, index: u64, junk: bool) -> Option<Arc<str>> {
        let table = self.0.lock().ok()?;
        if junk {
            let at = table.junk.partition_point(|(start, _)| *start < index);
            return match table.junk.get(at) {
                Some((i, name)) if *i == index => name.clone(),
                _ => None,
            };
        }
        let at = table.games.partition_point(|(start, _)| *start <= index);
        at.checked_sub(1).map(|i| Arc::clone(&table.games[i].1))
    }

    /// The item numbered `index` (`junk`: a non-game item) comes from `name`.
    fn add(&self, index: u64, junk: bool, name: &Arc<str>) {
        let Ok(mut table) = self.0.lock() else { return };
        if junk {
            match table.junk.last_mut() {
                Some((i, last)) if *i == index => {
                    if last.as_ref().is_some_and(|l| !Arc::ptr_eq(l, name)) {
                        *last = None;
                    }
                }
                _ => table.junk.push((index, Some(Arc::clone(name)))),
            }
        } else if !table
            .games
            .last()
            .is_some_and(|(_, last)| Arc::ptr_eq(last, name))
        {
            table.games.push((index, Arc::clone(name)));
        }
    }
}

/// The archive's bytes as a seekable source: the file itself when `name` is a file that
/// is a zip as it is (not compressed), else `reader` (standard input, a decompressed
/// `.zip.gz`) copied to a temporary file, removed when the archive is closed.
pub fn source(reader: Box<dyn BufRead + Send>, name: &str) -> io::Result<Box<dyn ReadSeek>> {
    if name != "-"
        && let Ok(mut file) = File::open(name)
    {
        let mut head = [0u8; 4];
        if file.read_exact(&mut head).is_ok() && is_zip(&head) {
            file.seek(SeekFrom::Start(0))?;
            return Ok(Box::new(file));
        }
    }
    spool(reader, name)
}

/// A temporary file, removed when dropped.
struct Spool {
    file: File,
    path: PathBuf,
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Read for Spool {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.file.read(buf)
    }
}

impl Seek for Spool {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.file.seek(pos)
    }
}

/// Copies `reader` to a new temporary file (a zip is read from its end: standard input
/// cannot be).
fn spool(mut reader: Box<dyn BufRead + Send>, name: &str) -> io::Result<Box<dyn ReadSeek>> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir();
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let path = dir.join(format!(
        "kyphu-zip-{}-{}-{stamp}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let named = |e: io::Error| {
        io::Error::new(
            e.kind(),
            format!(
                "cannot copy the zip {name} to a temporary file in {}: {e}",
                dir.display()
            ),
        )
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(named)?;
    // on Unix the name goes at once (the open file stays): nothing is left behind even
    // when the run is killed; elsewhere when the archive is closed
    #[cfg(unix)]
    let _ = std::fs::remove_file(&path);
    let mut spool = Spool { file, path };
    io::copy(&mut reader, &mut spool.file)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot read the zip {name}: {e}")))?;
    spool.file.seek(SeekFrom::Start(0)).map_err(named)?;
    Ok(Box::new(spool))
}

/// One source shared by the archive's directory reader and the entry being read (one
/// at a time), each with its own position.
#[derive(Clone)]
struct Shared {
    inner: Arc<Mutex<Box<dyn ReadSeek>>>,
    pos: u64,
    len: u64,
}

impl Read for Shared {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut inner = self
            .inner
            .lock()
            .map_err(|_| io::Error::other("the zip reader failed earlier"))?;
        inner.seek(SeekFrom::Start(self.pos))?;
        let n = inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for Shared {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        let to = match pos {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos =
            to.ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start"))?;
        Ok(self.pos)
    }
}

/// The number of entries and the directory size the archive's end record declares
/// (the zip64 one when there is one); `None` when there is no end record (the `zip`
/// crate then says what is wrong).
fn declared_entries(src: &mut dyn ReadSeek, len: u64) -> io::Result<Option<(u64, u64)>> {
    let tail_len = len.min(22 + (1 << 16));
    src.seek(SeekFrom::Start(len - tail_len))?;
    let mut tail = vec![0u8; tail_len as usize];
    src.read_exact(&mut tail)?;
    let Some(at) = memchr::memmem::rfind(&tail, b"PK\x05\x06") else {
        return Ok(None);
    };
    let u16_at = |b: &[u8], i: usize| b.get(i..i + 2).map(|s| u16::from_le_bytes([s[0], s[1]]));
    let u32_at = |b: &[u8], i: usize| {
        b.get(i..i + 4)
            .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    };
    let u64_at = |b: &[u8], i: usize| {
        b.get(i..i + 8)
            .and_then(|s| <[u8; 8]>::try_from(s).ok())
            .map(u64::from_le_bytes)
    };
    let (Some(entries), Some(size)) = (u16_at(&tail, at + 10), u32_at(&tail, at + 12)) else {
        return Ok(None);
    };
    if entries != 0xffff && size != 0xffff_ffff {
        return Ok(Some((u64::from(entries), u64::from(size))));
    }
    // zip64: the locator just before the end record points to the zip64 end record
    let Some(locator) = at.checked_sub(20) else {
        return Ok(Some((u64::from(entries), u64::from(size))));
    };
    if tail.get(locator..locator + 4) != Some(b"PK\x06\x07")
        || u64_at(&tail, locator + 8).is_none_or(|o| o > len.saturating_sub(56))
    {
        return Ok(Some((u64::from(entries), u64::from(size))));
    }
    let offset = u64_at(&tail, locator + 8).unwrap_or(0);
    src.seek(SeekFrom::Start(offset))?;
    let mut record = [0u8; 56];
    src.read_exact(&mut record)?;
    if !record.starts_with(b"PK\x06\x06") {
        return Ok(Some((u64::from(entries), u64::from(size))));
    }
    Ok(Some((
        u64_at(&record, 32).unwrap_or(0),
        u64_at(&record, 40).unwrap_or(0),
    )))
}

/// The games of the archive `name` read from `src`, entry after entry in name order;
/// [`Origins`] names the entry of each game.
pub fn read(
    mut src: Box<dyn ReadSeek>,
    name: &str,
    options: ReadOptions,
) -> io::Result<(ZipGames, Origins)> {
    let named = |e: io::Error| io::Error::new(e.kind(), format!("cannot read {name}: {e}"));
    let len = src.seek(SeekFrom::End(0)).map_err(named)?;
    let declared = declared_entries(&mut *src, len).map_err(named)?;
    if let Some((entries, size)) = declared
        && entries > MAX_ENTRIES
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "cannot read {name}: the zip lists {entries} entries ({size} bytes of \
                 directory), more than the {MAX_ENTRIES} read from one archive (its \
                 directory is held in memory): not read; unzip it into a folder, or split it"
            ),
        ));
    }
    let shared = Shared {
        inner: Arc::new(Mutex::new(src)),
        pos: 0,
        len,
    };
    let archive = ZipArchive::new(shared.clone()).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("cannot read {name}: not a readable zip archive ({e})"),
        )
    })?;
    if archive.is_empty() && declared.is_none_or(|(n, _)| n == 0) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("cannot read {name}: the zip archive is empty (no file in it)"),
        ));
    }
    // name order: the raw bytes of the names, as a folder's paths are sorted
    let mut order: Vec<usize> = (0..archive.len()).collect();
    let names: Vec<&[u8]> = archive.file_names_raw().collect();
    order.sort_by(|&a, &b| names.get(a).cmp(&names.get(b)));
    drop(names);
    let origins = Origins::default();
    let mut games = ZipGames {
        archive,
        shared,
        name: name.to_owned(),
        order: order.into_iter(),
        options,
        current: None,
        label: Arc::from(name),
        ready: VecDeque::new(),
        next_index: 0,
        origins: origins.clone(),
    };
    let shared_names = declared
        .map_or(0, |(n, _)| n)
        .saturating_sub(games.archive.len() as u64);
    if shared_names > 0 {
        // the crate keeps one entry of each name: tell the others
        let message = format!(
            "{name}: {shared_names} entr{} of the zip share a name with another entry: \
             only the last of each name was read",
            if shared_names == 1 { "y" } else { "ies" }
        );
        games.push(not_read(
            true,
            Diagnostic::warning(Code::ArchiveEntryNotRead, message),
            name,
        ));
    }
    Ok((games, origins))
}

/// The games of a zip archive, one entry after the other ([`read`]).
pub struct ZipGames {
    archive: ZipArchive<Shared>,
    shared: Shared,
    name: String,
    order: std::vec::IntoIter<usize>,
    options: ReadOptions,
    /// The pieces of the entry being read.
    current: Option<Box<dyn Iterator<Item = io::Result<Piece>> + Send>>,
    /// `archive.zip:entry` of the entry being read.
    label: Arc<str>,
    /// Games read and not yet handed out.
    ready: VecDeque<RawGame>,
    /// The index the next game (not a non-game item) will have.
    next_index: u64,
    origins: Origins,
}

/// A non-game item (`junk`) or an error game with one diagnostic, for an entry that is
/// not read; its text is the entry's name (what convert keeps of it, and what makes an
/// error game a failed one: text not read).
fn not_read(junk: bool, diagnostic: Diagnostic, name: &str) -> RawGame {
    RawGame {
        index: 0,
        junk,
        tags: Vec::new(),
        movetext: Vec::new(),
        result: None,
        text: format!("{name}\n"),
        byte_start: 0,
        byte_end: 0,
        first_line: 1,
        decoding: DecodeReport {
            encoding: crate::text::TextEncoding::Std(encoding_rs::UTF_8),
            source: EncodingSource::Utf8,
            had_replacements: false,
        },
        diagnostics: vec![diagnostic],
        sheet: None,
        move_letters: None,
        counts: None,
    }
}

/// The name of an entry as text: UTF-8 when it is, else GB18030 (the Chinese
/// collections are zipped on systems that write names in the local code page).
fn entry_name(raw: &[u8]) -> String {
    match std::str::from_utf8(raw) {
        Ok(s) => s.to_owned(),
        Err(_) => encoding_rs::GB18030.decode(raw).0.into_owned(),
    }
}

/// Why an entry is not read before it is opened, from its directory record.
enum Skip {
    /// Not a game file: a non-game item with a warning.
    NotGame(String),
    /// An error game.
    Unreadable(String),
}

impl ZipGames {
    /// Queues `game` under the current label.
    fn push(&mut self, game: RawGame) {
        self.origins.add(self.next_index, game.junk, &self.label);
        if !game.junk {
            self.next_index += 1;
        }
        self.ready.push_back(game);
    }

    /// An error game for the current entry.
    fn fail(&mut self, message: String) {
        let label = Arc::clone(&self.label);
        self.push(not_read(
            false,
            Diagnostic::error(Code::ArchiveEntryNotRead, format!("{label}: {message}")),
            &label,
        ));
    }

    /// Opens the entry `index` (or queues what says why it is not read).
    fn open(&mut self, index: usize) {
        let (name, skip, start) = {
            let Ok(entry) = self.archive.by_index_data(index) else {
                return;
            };
            if entry.is_dir() {
                // a folder of the archive holds nothing of its own
                return;
            }
            let name = entry_name(entry.name_raw());
            let lower = name.to_ascii_lowercase();
            let ext = lower
                .rsplit_once('/')
                .map_or(lower.as_str(), |(_, b)| b)
                .rsplit_once('.')
                .map_or("", |(_, e)| e);
            let (size, packed) = (entry.size(), entry.compressed_size());
            let method = entry.compression();
            let skip = if entry.encrypted() {
                Some(Skip::Unreadable(
                    "the entry is encrypted (a password-protected zip): not read; unzip it \
                     with its password first"
                        .to_owned(),
                ))
            } else if ext == "zip" {
                Some(Skip::Unreadable(
                    "a zip inside the zip: not read; unzip the outer one first".to_owned(),
                ))
            } else if ["gz", "zst", "bz2"].contains(&ext) {
                Some(Skip::Unreadable(format!(
                    "a compressed file (.{ext}) inside the zip: not read; unzip it first"
                )))
            } else if !formats::GAME_FILES.contains(&ext) {
                Some(Skip::NotGame(format!(
                    "not a game file (.xqf, .pgn, .csv, .htm, .html, .txt): not read ({size} bytes)"
                )))
            } else if !matches!(
                method,
                CompressionMethod::Stored | CompressionMethod::Deflated
            ) {
                Some(Skip::Unreadable(format!(
                    "compression method {method:?} is not read (only stored and deflate): \
                     not read; unzip it and read the files"
                )))
            } else if method == CompressionMethod::Stored && size != packed {
                Some(Skip::Unreadable(format!(
                    "a stored entry of {size} bytes takes {packed} bytes in the zip: the \
                     entry is corrupt, not read"
                )))
            } else if size > RATIO_FLOOR && size / packed.max(1) > MAX_RATIO {
                Some(Skip::Unreadable(format!(
                    "{packed} bytes inflate to {size} bytes ({} times): a zip bomb? \
                     not read (game files compress at most about 10 times)",
                    size / packed.max(1)
                )))
            } else {
                None
            };
            (name, skip, (size, entry.crc32(), method))
        };
        self.label = Arc::from(format!("{}:{name}", self.name));
        match skip {
            Some(Skip::NotGame(message)) => {
                let label = Arc::clone(&self.label);
                self.push(not_read(
                    true,
                    Diagnostic::warning(Code::ArchiveEntryNotRead, format!("{label}: {message}")),
                    &label,
                ));
                return;
            }
            Some(Skip::Unreadable(message)) => return self.fail(message),
            None => {}
        }
        let (size, crc, method) = start;
        // the local header: where the data starts
        let found = match self.archive.by_index_raw(index) {
            Ok(f) => Ok((f.data_start(), f.compressed_size())),
            Err(e) => Err(format!("the entry cannot be found in the zip ({e})")),
        };
        let (data_start, packed) = match found {
            Ok(found) => found,
            Err(message) => return self.fail(message),
        };
        let Some(data_start) = data_start else {
            return self.fail("the entry cannot be found in the zip".to_owned());
        };
        let mut raw = self.shared.clone();
        raw.pos = data_start;
        let raw = raw.take(packed);
        let inflated: Box<dyn Read + Send> = match method {
            CompressionMethod::Deflated => Box::new(flate2::read::DeflateDecoder::new(raw)),
            _ => Box::new(raw),
        };
        let checked = Checked {
            inner: inflated,
            crc: flate2::Crc::new(),
            read: 0,
            size,
            expected: crc,
        };
        let mut input = crate::bytes::Input {
            name: self.label.to_string(),
            reader: Box::new(BufReader::with_capacity(1 << 16, checked)),
        };
        let format = match input.peek(4096) {
            Ok(head) => formats::sniff(head, &self.label),
            Err(e) => return self.fail(format!("{e}: not read")),
        };
        if format == Format::Zip {
            return self
                .fail("a zip inside the zip: not read; unzip the outer one first".to_owned());
        }
        match formats::pieces(format, input.reader, &self.label, self.options) {
            Ok(pieces) => self.current = Some(pieces),
            Err(e) => self.fail(format!("{e}: not read")),
        }
    }
}

impl Iterator for ZipGames {
    type Item = io::Result<Piece>;

    fn next(&mut self) -> Option<io::Result<Piece>> {
        loop {
            if let Some(game) = self.ready.pop_front() {
                return Some(Ok(Piece::from(game)));
            }
            if let Some(pieces) = self.current.as_mut() {
                match pieces.next() {
                    Some(Ok(piece)) => {
                        let mut games = Vec::new();
                        piece.parse_into(&mut games);
                        for g in games {
                            self.push(g);
                        }
                    }
                    Some(Err(e)) => {
                        // the games before were read; the rest of the entry is not
                        self.current = None;
                        self.fail(format!(
                            "{e}: the entry is not read past this point (its games before \
                             it were)"
                        ));
                    }
                    None => self.current = None,
                }
                continue;
            }
            let index = self.order.next()?;
            self.open(index);
        }
    }
}

/// An entry's bytes as they are inflated, checked against the size and CRC-32 its
/// directory record declares: an entry cut short, corrupt, or that inflates past its
/// declared size (a zip bomb that lies about its size) is an error, not a short read.
struct Checked {
    inner: Box<dyn Read + Send>,
    crc: flate2::Crc,
    read: u64,
    size: u64,
    expected: u32,
}

impl Read for Checked {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // a byte more than declared is enough to know it lies
        let room = usize::try_from(self.size.saturating_sub(self.read).saturating_add(1))
            .unwrap_or(usize::MAX);
        let want = buf.len().min(room);
        let n = self.inner.read(&mut buf[..want]).map_err(|e| {
            let kind = e.kind();
            io::Error::new(kind, format!("the entry's data is corrupt ({e})"))
        })?;
        if n == 0 && want > 0 {
            if self.read < self.size {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!(
                        "the entry is cut short: {} of its {} bytes",
                        self.read, self.size
                    ),
                ));
            }
            if self.crc.sum() != self.expected {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "the entry is corrupt: its CRC-32 is {:08x}, the zip says {:08x}",
                        self.crc.sum(),
                        self.expected
                    ),
                ));
            }
            return Ok(0);
        }
        self.read += n as u64;
        if self.read > self.size {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "the entry inflates past the {} bytes the zip says it holds (a zip bomb?)",
                    self.size
                ),
            ));
        }
        self.crc.update(&buf[..n]);
        Ok(n)
    }
}
