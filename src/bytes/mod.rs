//! Opening inputs: files or standard input, decompressed on the fly by their magic
//! bytes (gzip, zstd, bzip2), never read whole.
//!
//! Every member of a multi-member gzip file, every stream of a multi-stream bzip2 file
//! and every frame of a zstd file (concatenated `zstd` outputs, `pzstd` archives with
//! their skippable frames) is read; zstd checksums are verified; a zstd frame whose
//! window is over [`ZSTD_WINDOW_MAX`] is refused before it is decoded (the window is
//! memory the decoder must hold). A compressed input cut short, with trailing bytes
//! that are not another member (zeros), or corrupt, is an input error naming the file.

use std::{
    fs::File,
    io::{self, BufRead, BufReader, Read},
    path::Path,
};

mod head;

pub use head::Head;

/// An input as the user named it.
pub struct Input {
    /// The name for messages: the path, or `-` for standard input.
    pub name: String,
    pub reader: Box<dyn BufRead + Send>,
}

const GZIP: &[u8] = &[0x1f, 0x8b];
const ZSTD: &[u8] = &[0x28, 0xb5, 0x2f, 0xfd];
const BZIP2: &[u8] = b"BZh";
/// The longest magic (zstd's 4 bytes, `BZh` and its level digit).
const MAGIC_LEN: usize = 4;

/// Whether `head` starts with the magic of a zstd skippable frame (`0x184D2A5?`, little
/// endian), as a `pzstd` archive does.
fn is_skippable_frame(head: &[u8]) -> bool {
    matches!(head, [b, 0x2a, 0x4d, 0x18, ..] if b & 0xf0 == 0x50)
}

/// The largest zstd window read: 32 MiB (window log 25). The decoder holds the window,
/// so this bounds its memory; `zstd` levels 1–19 use at most 8 MiB, `--long` 128 MiB
/// unless given a smaller log (`--long=25`), `--ultra -22` 128 MiB.
pub const ZSTD_WINDOW_LOG_MAX: u32 = 25;
/// [`ZSTD_WINDOW_LOG_MAX`] in bytes.
pub const ZSTD_WINDOW_MAX: u64 = 1 << ZSTD_WINDOW_LOG_MAX;

/// Opens `name` (`-` = standard input), decompressing gzip, zstd and bzip2 by content.
pub fn open(name: &str) -> io::Result<Input> {
    open_wrapped(name, |file| Box::new(file))
}

/// [`open`], with the file (not standard input) read through `wrap` before anything
/// else: the command line counts the compressed bytes there for its progress line.
pub fn open_wrapped(
    name: &str,
    wrap: impl FnOnce(File) -> Box<dyn Read + Send>,
) -> io::Result<Input> {
    let named = |e: io::Error| io::Error::new(e.kind(), format!("cannot open {name}: {e}"));
    let raw: Box<dyn Read + Send> = if name == "-" {
        Box::new(io::stdin())
    } else {
        let path = Path::new(name);
        let file = File::open(path).map_err(named)?;
        if file.metadata().map_err(named)?.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("cannot read {name}: it is a directory"),
            ));
        }
        wrap(file)
    };
    let read_err = |e: io::Error| io::Error::new(e.kind(), format!("cannot read {name}: {e}"));
    let mut buffered = Head::new(BufReader::with_capacity(1 << 16, raw));
    let head = buffered.fill_to(MAGIC_LEN).map_err(read_err)?;
    let reader: Box<dyn BufRead + Send> = if head.starts_with(GZIP) {
        Box::new(BufReader::with_capacity(
            1 << 16,
            Labelled::new(flate2::bufread::MultiGzDecoder::new(buffered), "gzip"),
        ))
    } else if head.starts_with(ZSTD) || is_skippable_frame(head) {
        let mut decoder = zstd::stream::read::Decoder::with_buffer(BufReader::with_capacity(
            1 << 16,
            ZstdFrames::new(buffered),
        ))
        .map_err(read_err)?;
        // a safety net behind ZstdFrames' own check, which names the window
        decoder
            .window_log_max(ZSTD_WINDOW_LOG_MAX)
            .map_err(read_err)?;
        Box::new(BufReader::with_capacity(
            1 << 16,
            Labelled::new(decoder, "zstd"),
        ))
    } else if head.starts_with(BZIP2) && head.get(3).is_some_and(u8::is_ascii_digit) {
        Box::new(BufReader::with_capacity(
            1 << 16,
            Labelled::new(bzip2::bufread::MultiBzDecoder::new(buffered), "bzip2"),
        ))
    } else {
        Box::new(buffered)
    };
    Ok(Input {
        name: name.to_owned(),
        reader,
    })
}

impl Input {
    /// The first bytes of the (decompressed) input without consuming them: at least
    /// `want` bytes or a whole first line, whichever comes first, unless the input is
    /// shorter. Reads more than one chunk only when the first is short (a pipe).
    pub fn peek(&mut self, want: usize) -> io::Result<&[u8]> {
        let enough = |b: &[u8]| b.len() >= want || memchr::memchr(b'\n', b).is_some();
        let name = &self.name;
        let named = |e: io::Error| io::Error::new(e.kind(), format!("{name}: {e}"));
        let first = self.reader.fill_buf().map_err(named)?;
        if !first.is_empty() && !enough(first) {
            let mut head = Head::new(std::mem::replace(&mut self.reader, Box::new(io::empty())));
            head.fill_while(|b| !enough(b)).map_err(named)?;
            self.reader = Box::new(head);
        }
        self.reader.fill_buf().map_err(named)
    }
}

/// A decompressor whose errors say which format they come from (`gzip: …`), and an
/// input that ends inside a member says it is cut short.
struct Labelled<R> {
    inner: R,
    format: &'static str,
}

impl<R> Labelled<R> {
    fn new(inner: R, format: &'static str) -> Labelled<R> {
        Labelled { inner, format }
    }
}

impl<R: Read> Read for Labelled<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            let text = e.to_string();
            let what = if e.kind() == io::ErrorKind::UnexpectedEof {
                format!("the {} data is cut short ({text})", self.format)
            } else if text.starts_with(self.format) {
                text
            } else {
                format!("{}: {text}", self.format)
            };
            io::Error::new(e.kind(), what)
        })
    }
}

/// What [`ZstdFrames`] is in the middle of.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum ZstdState {
    /// The magic number of the next frame: 4 bytes.
    Magic,
    /// A frame header after its magic: the descriptor, then `n` more bytes in all.
    Header,
    /// A block header: 3 bytes.
    Block,
    /// Skipping the rest of a block, a skippable frame or a checksum.
    Skip,
}

/// Follows the frames of a zstd stream as it passes through (without decoding), to
/// refuse a frame whose window is over [`ZSTD_WINDOW_MAX`] before libzstd allocates
/// it, naming the window and the frame. The stream is checked for structure only:
/// libzstd does the decoding and checks everything else (checksums included).
pub struct ZstdFrames<R> {
    inner: R,
    state: ZstdState,
    /// Bytes gathered for the current magic or header.
    header: arrayvec::ArrayVec<u8, 18>,
    /// The header length once the descriptor is known.
    header_len: usize,
    skip: u64,
    last_block: bool,
    checksum: bool,
    frame: u64,
    offset: u64,
    frame_start: u64,
}

impl<R> ZstdFrames<R> {
    pub fn new(inner: R) -> ZstdFrames<R> {
        ZstdFrames {
            inner,
            state: ZstdState::Magic,
            header: arrayvec::ArrayVec::new(),
            header_len: 0,
            skip: 0,
            last_block: false,
            checksum: false,
            frame: 0,
            offset: 0,
            frame_start: 0,
        }
    }

    /// Follows `bytes`, the next bytes of the stream. An error for a frame over the
    /// window limit; anything else malformed is left to libzstd (which fails on it),
    /// and following stops.
    pub fn follow(&mut self, mut bytes: &[u8]) -> io::Result<()> {
        while let Some((&b, rest)) = bytes.split_first() {
            match self.state {
                ZstdState::Skip => {
                    let n = usize::try_from(self.skip)
                        .unwrap_or(usize::MAX)
                        .min(bytes.len());
                    bytes = &bytes[n..];
                    self.offset += n as u64;
                    self.skip -= n as u64;
                    if self.skip == 0 {
                        self.state = self.after_skip();
                    }
                    continue;
                }
                _ => {
                    bytes = rest;
                    self.offset += 1;
                    if self.header.try_push(b).is_err() {
                        return Ok(());
                    }
                }
            }
            match self.state {
                ZstdState::Magic if self.header.len() == 8 => {
                    // a skippable frame: magic 0x184D2A5?, then its 4-byte size
                    let size = u32::from_le_bytes([
                        self.header[4],
                        self.header[5],
                        self.header[6],
                        self.header[7],
                    ]);
                    self.header.clear();
                    self.skip = u64::from(size);
                    self.last_block = true;
                    self.checksum = false;
                    self.state = if size == 0 {
                        ZstdState::Magic
                    } else {
                        ZstdState::Skip
                    };
                }
                ZstdState::Magic if self.header.len() == 4 => {
                    let magic = u32::from_le_bytes([
                        self.header[0],
                        self.header[1],
                        self.header[2],
                        self.header[3],
                    ]);
                    if magic == 0xFD2F_B528 {
                        self.frame += 1;
                        self.frame_start = self.offset - 4;
                        self.header.clear();
                        self.state = ZstdState::Header;
                    } else if magic & 0xFFFF_FFF0 != 0x184D_2A50 {
                        // not a frame: libzstd reports it
                        self.header.clear();
                        self.state = ZstdState::Skip;
                        self.skip = u64::MAX;
                        self.last_block = true;
                    }
                }
                ZstdState::Magic => {}
                ZstdState::Header => {
                    let fhd = self.header[0];
                    if self.header.len() == 1 {
                        let single = fhd & 0x20 != 0;
                        let fcs = match fhd >> 6 {
                            0 => usize::from(single),
                            1 => 2,
                            2 => 4,
                            _ => 8,
                        };
                        let dict = [0, 1, 2, 4][usize::from(fhd & 3)];
                        self.header_len = 1 + usize::from(!single) + dict + fcs;
                        self.checksum = fhd & 4 != 0;
                    }
                    if self.header.len() == self.header_len {
                        let window = zstd_window(&self.header);
                        if window > ZSTD_WINDOW_MAX {
                            return Err(io::Error::new(
                                io::ErrorKind::InvalidData,
                                format!(
                                    "zstd frame {} (at byte {}) needs a window of {}, more than \
                                     the limit of {} (kyphu reads windows up to {} to keep its \
                                     memory bounded; recompress with a smaller window, e.g. \
                                     `zstd --long={}` or without --long)",
                                    self.frame,
                                    self.frame_start,
                                    size_text(window),
                                    size_text(ZSTD_WINDOW_MAX),
                                    size_text(ZSTD_WINDOW_MAX),
                                    ZSTD_WINDOW_LOG_MAX,
                                ),
                            ));
                        }
                        self.header.clear();
                        self.last_block = false;
                        self.state = ZstdState::Block;
                    }
                }
                ZstdState::Block if self.header.len() == 3 => {
                    let h = u32::from(self.header[0])
                        | u32::from(self.header[1]) << 8
                        | u32::from(self.header[2]) << 16;
                    self.header.clear();
                    self.last_block = h & 1 != 0;
                    let size = h >> 3;
                    // an RLE block holds one byte whatever its size
                    self.skip = if (h >> 1) & 3 == 1 {
                        1
                    } else {
                        u64::from(size)
                    };
                    if self.skip == 0 {
                        self.state = self.after_skip();
                    } else {
                        self.state = ZstdState::Skip;
                    }
                }
                ZstdState::Block | ZstdState::Skip => {}
            }
        }
        Ok(())
    }

    /// The state after a block's content, a checksum or a skippable frame.
    fn after_skip(&mut self) -> ZstdState {
        if !self.last_block {
            ZstdState::Block
        } else if self.checksum {
            self.checksum = false;
            self.skip = 4;
            ZstdState::Skip
        } else {
            ZstdState::Magic
        }
    }
}

impl<R: Read> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.follow(&buf[..n])?;
        Ok(n)
    }
}

/// The window size a zstd frame header (after the magic) declares: from the window
/// descriptor, or the content size of a single-segment frame.
fn zstd_window(header: &[u8]) -> u64 {
    let Some((&fhd, rest)) = header.split_first() else {
        return 0;
    };
    if fhd & 0x20 == 0 {
        let Some(&wd) = rest.first() else { return 0 };
        let log = 10 + u32::from(wd >> 3);
        let base = 1u64 << log;
        return base + (base / 8) * u64::from(wd & 7);
    }
    let dict = [0, 1, 2, 4][usize::from(fhd & 3)];
    let fcs = rest.get(dict..).unwrap_or(&[]);
    let mut bytes = [0u8; 8];
    for (d, s) in bytes.iter_mut().zip(fcs) {
        *d = *s;
    }
    let v = u64::from_le_bytes(bytes);
    if fhd >> 6 == 1 { v + 256 } else { v }
}

/// `32 MiB`, `242 MiB`, `1.5 MiB`, `900 KiB`.
fn size_text(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    if bytes >= MIB {
        if bytes.is_multiple_of(MIB) {
            format!("{} MiB", bytes / MIB)
        } else {
            format!("{:.1} MiB", bytes as f64 / MIB as f64)
        }
    } else {
        format!("{} KiB", bytes.div_ceil(1024))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::io::Write;

    use super::*;

    fn read_all(path: &Path) -> String {
        let mut s = String::new();
        open(path.to_str().unwrap())
            .unwrap()
            .reader
            .read_to_string(&mut s)
            .unwrap();
        s
    }

    #[test]
    fn decompresses_by_content() {
        let dir = std::env::temp_dir().join(format!("kyphu-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = "[Event \"x\"]\n\n1. e4 e5 *\n";
        let plain = dir.join("a.pgn");
        std::fs::write(&plain, text).unwrap();
        assert_eq!(read_all(&plain), text);

        let gz = dir.join("a.pgn.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(text.as_bytes()).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        assert_eq!(read_all(&gz), text);

        let bz = dir.join("a.pgn.bz2");
        let mut enc = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        enc.write_all(text.as_bytes()).unwrap();
        std::fs::write(&bz, enc.finish().unwrap()).unwrap();
        assert_eq!(read_all(&bz), text);

        let zst = dir.join("a.pgn.zst");
        std::fs::write(&zst, zstd::encode_all(text.as_bytes(), 3).unwrap()).unwrap();
        assert_eq!(read_all(&zst), text);

        assert!(open(dir.join("missing.pgn").to_str().unwrap()).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The frame follower finds the end of every frame, whatever the reads it is given:
    /// after frames of all block kinds, with and without checksums and skippable
    /// frames between them, it waits for a magic number again.
    #[test]
    fn zstd_frames_are_followed_to_their_end() {
        let text: Vec<u8> = (0..200_000u64)
            .map(|i| {
                if i % 7 == 0 {
                    b'\n'
                } else {
                    b"abcde"[(i * i % 5) as usize]
                }
            })
            .collect();
        let zeros = vec![0u8; 100_000];
        let mut stream = Vec::new();
        for (data, level, checksum) in [
            (&text[..], 1, true),
            (&zeros[..], 3, false),
            (&b""[..], 1, true),
            (&text[..5000], 19, false),
        ] {
            let mut enc = zstd::stream::write::Encoder::new(Vec::new(), level).unwrap();
            enc.include_checksum(checksum).unwrap();
            enc.write_all(data).unwrap();
            stream.extend(enc.finish().unwrap());
            // a skippable frame
            stream.extend([0x5a, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3]);
        }
        for step in [1, 2, 3, 7, 1000, stream.len()] {
            let mut f = ZstdFrames::new(io::empty());
            for chunk in stream.chunks(step) {
                f.follow(chunk).unwrap();
            }
            assert_eq!(f.state, ZstdState::Magic, "step {step}");
            assert!(f.header.is_empty(), "step {step}");
            assert_eq!(f.frame, 4);
        }
    }

    #[test]
    fn zstd_window_sizes() {
        // window descriptor: exponent 17 (log 27), mantissa 0 → 128 MiB
        assert_eq!(zstd_window(&[0x00, 17 << 3]), 128 << 20);
        // log 10 with mantissa 7: 1 KiB + 7/8 KiB
        assert_eq!(zstd_window(&[0x00, 7]), 1024 + 7 * 128);
        // single segment, 1-byte content size
        assert_eq!(zstd_window(&[0x20, 200]), 200);
        // single segment, 2-byte content size (+256)
        assert_eq!(zstd_window(&[0x60, 0, 1]), 512);
        assert_eq!(size_text(242 << 20), "242 MiB");
        assert_eq!(size_text(1536 * 1024), "1.5 MiB");
    }

    /// Short reads before the magic bytes (a pipe): they are gathered.
    #[test]
    fn magic_over_short_reads_is_seen() {
        struct Dribble(Vec<u8>, usize);
        impl Read for Dribble {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = 1.min(buf.len()).min(self.0.len() - self.1);
                buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
                self.1 += n;
                Ok(n)
            }
        }
        let data = zstd::encode_all(&b"hello"[..], 1).unwrap();
        let mut h = Head::new(BufReader::new(Dribble(data.clone(), 0)));
        assert!(h.fill_to(4).unwrap().starts_with(ZSTD));
        let mut back = Vec::new();
        h.read_to_end(&mut back).unwrap();
        assert_eq!(back, data);
    }
}
