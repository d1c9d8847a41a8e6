//! Opening inputs: files or standard input, decompressed on the fly by their magic
//! bytes (gzip, zstd, bzip2), never read whole.

use std::{
    fs::File,
    io::{self, BufRead, BufReader, Read},
    path::Path,
};

/// An input as the user named it.
pub struct Input {
    /// The name for messages: the path, or `-` for standard input.
    pub name: String,
    pub reader: Box<dyn BufRead + Send>,
}

const GZIP: &[u8] = &[0x1f, 0x8b];
const ZSTD: &[u8] = &[0x28, 0xb5, 0x2f, 0xfd];
const BZIP2: &[u8] = b"BZh";

/// Opens `name` (`-` = standard input), decompressing gzip, zstd and bzip2 by content.
pub fn open(name: &str) -> io::Result<Input> {
    let raw: Box<dyn Read + Send> = if name == "-" {
        Box::new(io::stdin())
    } else {
        // counted for the progress line's ETA on a compressed file (h23)
        Box::new(super::progress::Counted::new(
            File::open(Path::new(name))
                .map_err(|e| io::Error::new(e.kind(), format!("cannot open {name}: {e}")))?,
        ))
    };
    let mut buffered = BufReader::with_capacity(1 << 16, raw);
    let head = buffered.fill_buf()?.to_vec();
    let reader: Box<dyn BufRead + Send> = if head.starts_with(GZIP) {
        Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(buffered),
        ))
    } else if head.starts_with(ZSTD) {
        let decoder = ruzstd::decoding::StreamingDecoder::new(buffered).map_err(|e| {
            io::Error::new(io::ErrorKind::InvalidData, format!("{name}: zstd: {e}"))
        })?;
        Box::new(BufReader::with_capacity(1 << 16, decoder))
    } else if head.starts_with(BZIP2) && head.get(3).is_some_and(u8::is_ascii_digit) {
        Box::new(BufReader::with_capacity(
            1 << 16,
            bzip2::bufread::MultiBzDecoder::new(buffered),
        ))
    } else {
        Box::new(buffered)
    };
    Ok(Input {
        name: name.to_owned(),
        reader,
    })
}

#[cfg(test)]
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
        let compressed = ruzstd::encoding::compress_to_vec(
            text.as_bytes(),
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        std::fs::write(&zst, compressed).unwrap();
        assert_eq!(read_all(&zst), text);

        assert!(open(dir.join("missing.pgn").to_str().unwrap()).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
