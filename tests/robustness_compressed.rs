//! Compressed inputs and input sniffing, end to end through the binary: every zstd
//! frame read (concatenated `zstd` outputs, `pzstd` archives with skippable frames),
//! checksums verified, a window over the limit refused naming it; every gzip member
//! and bzip2 stream read, a cut or zero-padded one an input error naming the file;
//! magic bytes over short reads of standard input; a CSV on standard input sniffed by
//! content; a directory named. Files are made by the real tools when they are
//! installed (`zstd`, `pzstd`, `gzip`, `bzip2`), by the crates otherwise (with a note).
//!
//! `KYPHU_BIN=/path/to/kyphu` runs the tests against another build (an old one, to see
//! them fail).

#![allow(clippy::unwrap_used)]

use std::{
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::Duration,
};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn bin() -> String {
    std::env::var("KYPHU_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_kyphu").to_owned())
}

/// Runs kyphu, feeding `stdin` in the given pieces with a pause between them.
fn kyphu(args: &[&str], stdin: &[&[u8]]) -> Run {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let pieces: Vec<Vec<u8>> = stdin.iter().map(|p| p.to_vec()).collect();
    let feeder = std::thread::spawn(move || {
        for p in pieces {
            if input.write_all(&p).is_err() {
                return;
            }
            let _ = input.flush();
            std::thread::sleep(Duration::from_millis(150));
        }
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn check(path: &Path) -> Run {
    kyphu(&["check", "--threads", "1", path.to_str().unwrap()], &[])
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kyphu-compressed-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `n` short games, one after another.
fn games(n: usize, from: usize) -> String {
    (from..from + n)
        .map(|i| format!("[Event \"g{i}\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n"))
        .collect()
}

fn has_tool(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("note: `{tool}` is not installed; made with the crates instead");
    }
    ok
}

/// Runs `tool args` with `input` on standard input, returning its output.
fn tool(tool: &str, args: &[&str], input: &[u8]) -> Vec<u8> {
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let t = std::thread::spawn(move || stdin.write_all(&data).unwrap());
    let out = child.wait_with_output().unwrap();
    t.join().unwrap();
    assert!(out.status.success(), "{tool} {args:?}");
    out.stdout
}

fn zstd_bytes(text: &str) -> Vec<u8> {
    if has_tool("zstd") {
        tool("zstd", &["-q", "-c"], text.as_bytes())
    } else {
        let mut enc = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
        enc.include_checksum(true).unwrap();
        enc.write_all(text.as_bytes()).unwrap();
        enc.finish().unwrap()
    }
}

fn assert_games(r: &Run, n: usize) {
    assert_eq!(r.code, 0, "{}", r.stderr);
    let all = format!("{}{}", r.stdout, r.stderr);
    let plural = if n == 1 { "" } else { "s" };
    assert!(
        all.contains(&format!(": {n} game{plural}: {n} clean")),
        "expected {n} clean games: {all}"
    );
}

#[test]
fn zst_of_several_frames_reads_every_frame() {
    let d = dir("frames");
    let mut bytes = zstd_bytes(&games(3, 0));
    bytes.extend(zstd_bytes(&games(4, 3)));
    bytes.extend(zstd_bytes(&games(5, 7)));
    let f = d.join("three.pgn.zst");
    std::fs::write(&f, bytes).unwrap();
    assert_games(&check(&f), 12);
}

/// A `pzstd` archive: a skippable frame before each frame (the old reader read the
/// skippable frame only: 0 games, exit 0).
#[test]
fn pzstd_archive_reads_every_frame() {
    let d = dir("pzstd");
    let text = games(2000, 0);
    let bytes = if has_tool("pzstd") {
        tool("pzstd", &["-q", "-p", "2", "-c"], text.as_bytes())
    } else {
        // the layout pzstd writes: a skippable frame (size of the next frame) then
        // the frame, for each chunk
        let mut out = Vec::new();
        for chunk in text.as_bytes().chunks(text.len() / 3 + 1) {
            let frame = zstd::encode_all(chunk, 3).unwrap();
            out.extend([0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0]);
            out.extend(u32::try_from(frame.len()).unwrap().to_le_bytes());
            out.extend(frame);
        }
        out
    };
    // the archive starts with a skippable frame
    assert_eq!(bytes[1..4], [0x2a, 0x4d, 0x18]);
    let f = d.join("p.pgn.zst");
    std::fs::write(&f, bytes).unwrap();
    assert_games(&check(&f), 2000);
}

/// A flipped bit in the checksum, or in the data, of a zstd frame: an input error
/// naming the file, never games counted clean.
#[test]
fn zst_flipped_bit_is_an_input_error() {
    let d = dir("flip");
    let text = games(300, 0);
    let good = zstd_bytes(&text);
    for at in [good.len() - 2, good.len() / 2] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        let f = d.join(format!("flip{at}.pgn.zst"));
        std::fs::write(&f, &bad).unwrap();
        let r = check(&f);
        assert_eq!(r.code, 2, "byte {at}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("flip{at}.pgn.zst: zstd")),
            "byte {at}: {}",
            r.stderr
        );
    }
}

/// `zstd --long=27` on a small file declares a 128 MiB window: refused before it is
/// allocated, naming the window and the limit.
#[test]
fn zst_window_over_the_limit_is_refused() {
    let d = dir("window");
    let text = games(100, 0);
    let bytes = if has_tool("zstd") {
        tool("zstd", &["-q", "-c", "--long=27"], text.as_bytes())
    } else {
        let mut enc = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
        enc.long_distance_matching(true).unwrap();
        enc.window_log(27).unwrap();
        enc.write_all(text.as_bytes()).unwrap();
        enc.finish().unwrap()
    };
    let f = d.join("long.pgn.zst");
    std::fs::write(&f, bytes).unwrap();
    let r = check(&f);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("long.pgn.zst: "), "{}", r.stderr);
    assert!(
        r.stderr.contains("window of 128 MiB") && r.stderr.contains("limit of 32 MiB"),
        "{}",
        r.stderr
    );
    // the same window within the limit is read
    let ok = if has_tool("zstd") {
        tool("zstd", &["-q", "-c", "--long=25"], text.as_bytes())
    } else {
        zstd::encode_all(text.as_bytes(), 19).unwrap()
    };
    let f = d.join("ok.pgn.zst");
    std::fs::write(&f, ok).unwrap();
    assert_games(&check(&f), 100);
}

/// The magic bytes of compressed standard input split over reads (a pipe): they are
/// gathered until there are enough (the old reader took the input as text).
#[test]
fn compressed_stdin_with_a_short_first_read() {
    let text = games(5, 0);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let zst = zstd::encode_all(text.as_bytes(), 3).unwrap();
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    bz.write_all(text.as_bytes()).unwrap();
    let bz = bz.finish().unwrap();
    for bytes in [gz, zst, bz] {
        let r = kyphu(
            &["check", "--threads", "1", "-"],
            &[&bytes[..1], &bytes[1..3], &bytes[3..]],
        );
        assert_games(&r, 5);
    }
}

/// A gzip file without its trailer, or padded with zeros: an input error naming the
/// file and saying it is gzip data cut short or followed by something that is not.
#[test]
fn gz_without_trailer_or_padded_is_an_input_error() {
    let d = dir("gz");
    let text = games(50, 0);
    let good = if has_tool("gzip") {
        tool("gzip", &["-c"], text.as_bytes())
    } else {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text.as_bytes()).unwrap();
        gz.finish().unwrap()
    };
    let cut = good[..good.len() - 8].to_vec();
    let mut padded = good.clone();
    padded.extend([0u8; 512]);
    for (name, bytes, says) in [
        ("cut.pgn.gz", cut, "the gzip data is cut short"),
        ("padded.pgn.gz", padded, "gzip: invalid gzip header"),
    ] {
        let f = d.join(name);
        std::fs::write(&f, bytes).unwrap();
        let r = check(&f);
        assert_eq!(r.code, 2, "{name}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("{name}: {says}")),
            "{name}: {}",
            r.stderr
        );
    }
}

/// Every member of a multi-member gzip file and every stream of a multi-stream bzip2
/// file is read; a bzip2 file cut short is an input error naming it.
#[test]
fn multi_member_gzip_and_bzip2_read_every_member() {
    let d = dir("multi");
    let (a, b) = (games(3, 0), games(4, 3));
    let mut gz = Vec::new();
    let mut bz = Vec::new();
    for t in [&a, &b] {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(t.as_bytes()).unwrap();
        gz.extend(e.finish().unwrap());
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        e.write_all(t.as_bytes()).unwrap();
        bz.extend(e.finish().unwrap());
    }
    for (name, bytes) in [("m.pgn.gz", &gz), ("m.pgn.bz2", &bz)] {
        let f = d.join(name);
        std::fs::write(&f, bytes).unwrap();
        assert_games(&check(&f), 7);
    }
    let f = d.join("cut.pgn.bz2");
    std::fs::write(&f, &bz[..bz.len() - 10]).unwrap();
    let r = check(&f);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("cut.pgn.bz2: "), "{}", r.stderr);
    assert!(r.stderr.contains("bzip2"), "{}", r.stderr);
}

/// A scoresheet CSV on standard input is read as one (it was read as movetext:
/// `invalid move TT`), also compressed; PGN on standard input still is PGN.
#[test]
fn csv_on_stdin_is_sniffed() {
    let sheet = "TT,Trắng,Đen\n1,e4,e5\n2,Nf3,Nc6\n3,Bb5,a6\n";
    let r = kyphu(&["check", "--threads", "1", "-"], &[sheet.as_bytes()]);
    assert_games(&r, 1);
    let zst = zstd::encode_all(sheet.as_bytes(), 3).unwrap();
    let r = kyphu(&["convert", "--threads", "1", "-"], &[&zst[..2], &zst[2..]]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"),
        "{}",
        r.stdout
    );
    let r = kyphu(&["check", "--threads", "1", "-"], &[games(2, 0).as_bytes()]);
    assert_games(&r, 2);
}

/// A directory with no game file given as input: an error naming its path (a folder
/// of game files is read: `tests/xqf_dhtmlxq.rs`).
#[test]
fn directory_input_is_named() {
    let d = dir("isdir");
    let r = check(&d);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains(&format!("{}: it is a directory", d.display())),
        "{}",
        r.stderr
    );
}
