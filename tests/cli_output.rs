//! End-to-end tests of what `kyphu convert` does to its output files and to the
//! terminal: an output is replaced only by a complete one (never truncated before the
//! inputs are read, never left cut by an error, a misspelt option or a signal), an
//! output naming an input is refused, everything converted before an input error is
//! written, a closed standard output is an error, and control characters never reach
//! the terminal raw. See docs/cli.md ("Output files").
#![allow(clippy::unwrap_used)]

use std::{
    fs,
    io::Write,
    path::PathBuf,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

struct Run {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

impl Run {
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// A fresh folder for one test, removed when the test ends.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("kyphu-out-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path(name);
        fs::write(&p, bytes).unwrap();
        p
    }

    fn read(&self, name: &str) -> Vec<u8> {
        fs::read(self.path(name)).unwrap()
    }

    /// The names in the folder, sorted (temporary files included).
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn run(&self, args: &[&str]) -> Run {
        let out = Command::new(env!("CARGO_BIN_EXE_kyphu"))
            .args(args)
            .current_dir(&self.0)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: out.stdout,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

const GAME: &str = "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
    1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n\n";

const OLD: &str = "an existing file that must survive\n";

/// `n` clean games.
fn games(n: usize) -> String {
    GAME.repeat(n)
}

/// A gzip stream of `text` cut before its end (no trailer, half the deflate data).
fn truncated_gz(text: &str) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(text.as_bytes()).unwrap();
    let mut gz = enc.finish().unwrap();
    gz.truncate(gz.len() / 2);
    gz
}

fn temp_files(dir: &Dir) -> Vec<String> {
    dir.names()
        .into_iter()
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn output_naming_an_input_is_refused() {
    let dir = Dir::new("same");
    dir.write("a.pgn", games(3));
    let before = dir.read("a.pgn");
    let r = dir.run(&["convert", "a.pgn", "-o", "a.pgn"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("is also an input"), "{}", r.stderr);
    assert_eq!(dir.read("a.pgn"), before);
    // through another spelling of the path, a symbolic link and a hard link
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.path("a.pgn"), dir.path("link.pgn")).unwrap();
        fs::hard_link(dir.path("a.pgn"), dir.path("hard.pgn")).unwrap();
        for (input, output) in [
            ("a.pgn", "./a.pgn"),
            ("a.pgn", "link.pgn"),
            ("link.pgn", "a.pgn"),
            ("a.pgn", "hard.pgn"),
            ("hard.pgn", "link.pgn"),
        ] {
            let r = dir.run(&["convert", "b.pgn", input, "-o", output]);
            assert_eq!(r.code, 2, "{input} -o {output}: {}", r.stderr);
            assert_eq!(dir.read("a.pgn"), before, "{input} -o {output}");
        }
    }
    // --games-csv naming the input, and naming the same file as -o
    let r = dir.run(&[
        "convert",
        "--to",
        "csv",
        "a.pgn",
        "-o",
        "moves.csv",
        "--games-csv",
        "a.pgn",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(dir.read("a.pgn"), before);
    dir.write("moves.csv", OLD);
    let r = dir.run(&[
        "convert",
        "a.pgn",
        "-o",
        "moves.csv",
        "--games-csv",
        "moves.csv",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(dir.read("moves.csv"), OLD.as_bytes());
    assert!(temp_files(&dir).is_empty());
}

#[test]
fn output_naming_standard_input_is_refused() {
    let dir = Dir::new("stdin");
    dir.write("a.pgn", games(3));
    let before = dir.read("a.pgn");
    let out = Command::new(env!("CARGO_BIN_EXE_kyphu"))
        .args(["convert", "-", "-o", "a.pgn"])
        .current_dir(&dir.0)
        .stdin(fs::File::open(dir.path("a.pgn")).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(dir.read("a.pgn"), before);
}

#[test]
fn misspelt_option_leaves_output_untouched() {
    let dir = Dir::new("misspelt");
    dir.write("a.pgn", games(3));
    for bad in [
        &["--rduced"][..],
        &["--lang", "xx"],
        &["--encoding", "nope"],
        &["--notation", "bogus"],
        &["--out-lang", "xx"],
        &["--out-xiangqi", "bogus"],
        &["--threads", "100000000"],
        &["--games-csv", "g.csv"],
    ] {
        dir.write("out.pgn", OLD);
        let mut args = vec!["convert", "a.pgn", "-o", "out.pgn"];
        args.extend_from_slice(bad);
        let r = dir.run(&args);
        assert_eq!(r.code, 2, "{bad:?}: {}", r.stderr);
        assert_eq!(dir.read("out.pgn"), OLD.as_bytes(), "{bad:?}");
        assert_eq!(
            dir.names(),
            ["a.pgn", "out.pgn"],
            "{bad:?}: nothing created"
        );
    }
}

#[test]
fn missing_input_leaves_output_untouched() {
    let dir = Dir::new("missing");
    dir.write("a.pgn", games(3000));
    for args in [
        &["convert", "a.pgn", "nosuch.pgn", "-o", "out.pgn"][..],
        &["convert", "nosuch.pgn", "a.pgn", "-o", "out.pgn"],
        &["convert", "a.pgn", ".", "-o", "out.pgn"],
        &[
            "convert",
            "a.pgn",
            "nosuch.pgn",
            "-o",
            "out.csv",
            "--games-csv",
            "g.csv",
        ],
    ] {
        dir.write("out.pgn", OLD);
        dir.write("out.csv", OLD);
        dir.write("g.csv", OLD);
        let r = dir.run(args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("nosuch.pgn") || r.stderr.contains("directory"),
            "{}",
            r.stderr
        );
        for name in ["out.pgn", "out.csv", "g.csv"] {
            assert_eq!(dir.read(name), OLD.as_bytes(), "{args:?}");
        }
        assert_eq!(dir.names(), ["a.pgn", "g.csv", "out.csv", "out.pgn"]);
    }
}

#[test]
fn failed_run_leaves_output_untouched() {
    let dir = Dir::new("failed");
    dir.write("a.pgn", games(3000));
    dir.write("bad.pgn.gz", truncated_gz(&games(1000)));
    for to in ["pgn", "json", "csv"] {
        dir.write("out", OLD);
        dir.write("g.csv", OLD);
        let mut args = vec![
            "convert",
            "--to",
            to,
            "a.pgn",
            "bad.pgn.gz",
            "a.pgn",
            "-o",
            "out",
        ];
        if to == "csv" {
            args.extend(["--games-csv", "g.csv"]);
        }
        let r = dir.run(&args);
        assert_eq!(r.code, 2, "{to}: {}", r.stderr);
        assert_eq!(dir.read("out"), OLD.as_bytes(), "{to}");
        assert_eq!(dir.read("g.csv"), OLD.as_bytes(), "{to}");
        assert!(temp_files(&dir).is_empty(), "{:?}", dir.names());
        // the summary says what was read, and that nothing was written
        assert!(
            r.stderr.contains("a.pgn: 3000 games: 3000 clean"),
            "{}",
            r.stderr
        );
        assert!(r.stderr.contains("bad.pgn.gz: "), "{}", r.stderr);
        assert!(r.stderr.contains("out: not replaced"), "{}", r.stderr);
    }
}

#[test]
fn partial_output_keeps_what_was_read() {
    let dir = Dir::new("partial");
    dir.write("a.pgn", games(3000));
    dir.write("bad.pgn.gz", truncated_gz(&games(1000)));
    dir.write("out.pgn", OLD);
    let r = dir.run(&[
        "convert",
        "--partial-output",
        "a.pgn",
        "bad.pgn.gz",
        "-o",
        "out.pgn",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let out = String::from_utf8(dir.read("out.pgn")).unwrap();
    let read: usize = r
        .stderr
        .lines()
        .filter_map(|l| {
            l.split(": ")
                .nth(1)?
                .strip_suffix(" games")?
                .parse::<usize>()
                .ok()
        })
        .sum();
    assert!(read > 3000, "{}", r.stderr);
    assert_eq!(out.matches("[Event ").count(), read, "{}", r.stderr);
    assert!(out.ends_with("1-0\n\n"), "a complete last game");
    assert!(temp_files(&dir).is_empty());
}

#[test]
fn input_error_flushes_converted_output_to_stdout() {
    let dir = Dir::new("flush");
    dir.write("big.pgn", games(3000));
    dir.write("bad.pgn.gz", truncated_gz(&games(1000)));
    for threads in ["1", "2"] {
        let r = dir.run(&["convert", "--threads", threads, "big.pgn", "bad.pgn.gz"]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        let read: usize = r
            .stderr
            .lines()
            .filter_map(|l| {
                l.split(": ")
                    .nth(1)?
                    .strip_suffix(" games")?
                    .parse::<usize>()
                    .ok()
            })
            .sum();
        assert!(read > 3000, "{}", r.stderr);
        assert_eq!(r.stdout().matches("[Event ").count(), read, "{}", r.stderr);
        assert!(
            r.stderr.contains("big.pgn: 3000 games: 3000 clean"),
            "{}",
            r.stderr
        );
    }
}

#[test]
fn successful_run_replaces_output() {
    let dir = Dir::new("replace");
    dir.write("a.pgn", games(2));
    dir.write("out.pgn", OLD);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir.path("out.pgn"), fs::Permissions::from_mode(0o640)).unwrap();
    }
    let r = dir.run(&["convert", "a.pgn", "-o", "out.pgn"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        String::from_utf8(dir.read("out.pgn"))
            .unwrap()
            .matches("[Event ")
            .count(),
        2
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(dir.path("out.pgn"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640);
        // a symbolic link is written through: the link stays, its target is replaced
        dir.write("target.pgn", OLD);
        std::os::unix::fs::symlink("target.pgn", dir.path("link.pgn")).unwrap();
        let r = dir.run(&["convert", "a.pgn", "-o", "link.pgn"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            fs::symlink_metadata(dir.path("link.pgn"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(dir.read("target.pgn").starts_with(b"[Event "));
    }
    // a run that found problems in games still converted them: exit 1 replaces
    dir.write("bad.pgn", "1. e4 e5 2. Ke3 Nf6 *\n");
    dir.write("out.pgn", OLD);
    let r = dir.run(&["convert", "bad.pgn", "-o", "out.pgn"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(dir.read("out.pgn").starts_with(b"[Event "));
    assert!(temp_files(&dir).is_empty());
}

#[test]
fn non_regular_output_is_written_directly() {
    let dir = Dir::new("devnull");
    dir.write("a.pgn", games(2));
    let r = dir.run(&["convert", "a.pgn", "-o", "/dev/null"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let m = fs::symlink_metadata("/dev/null").unwrap();
        assert!(m.file_type().is_char_device());
        let r = dir.run(&["convert", "a.pgn", "-o", "/dev/stdout"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(r.stdout().matches("[Event ").count(), 2);
    }
}

/// Waits until `f` holds, for at most 20 s.
fn wait_until(mut f: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

#[cfg(unix)]
#[test]
fn interrupted_run_leaves_output_untouched() {
    use std::os::unix::process::ExitStatusExt;
    let dir = Dir::new("signal");
    // long enough to be stopped in the middle of writing
    dir.write("big.pgn", games(200_000));
    for (signal, number, to) in [("TERM", 15, "pgn"), ("INT", 2, "csv")] {
        dir.write("out", OLD);
        dir.write("g.csv", OLD);
        let mut args = vec![
            "convert",
            "--threads",
            "1",
            "--to",
            to,
            "big.pgn",
            "-o",
            "out",
        ];
        if to == "csv" {
            args.extend(["--games-csv", "g.csv"]);
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_kyphu"))
            .args(&args)
            .current_dir(&dir.0)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // until the output is being written (to its temporary file, or, before the
        // fix, to `out` itself)
        let writing = wait_until(|| {
            temp_files(&dir)
                .iter()
                .any(|t| fs::metadata(dir.path(t)).is_ok_and(|m| m.len() > 0))
                || dir.read("out") != OLD.as_bytes()
        });
        assert!(writing, "{:?}", dir.names());
        let killed = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        assert!(
            status.signal() == Some(number) || status.code().is_some_and(|c| c != 0),
            "{signal}: stopped before the end ({status:?})"
        );
        assert_eq!(dir.read("out"), OLD.as_bytes(), "{signal}");
        assert_eq!(dir.read("g.csv"), OLD.as_bytes(), "{signal}");
        assert!(temp_files(&dir).is_empty(), "{signal}: {:?}", dir.names());
    }
}

#[cfg(unix)]
#[test]
fn closed_stdout_exits_2() {
    let dir = Dir::new("closed");
    dir.write("a.pgn", games(2));
    let exe = env!("CARGO_BIN_EXE_kyphu");
    for cmd in ["convert a.pgn", "check a.pgn", "perft 1"] {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" {cmd} >&-"))
            .arg(exe)
            .current_dir(&dir.0)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {stderr}");
        assert!(stderr.contains("standard output is closed"), "{stderr}");
    }
    // with -o, standard output is not needed
    let out = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" convert a.pgn -o out.pgn >&-")
        .arg(exe)
        .current_dir(&dir.0)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(dir.read("out.pgn").starts_with(b"[Event "));
}

#[test]
fn huge_thread_count_is_a_usage_error() {
    let dir = Dir::new("threads");
    dir.write("a.pgn", games(2));
    for n in ["100000000", "18446744073709551615", "257", "-1"] {
        let r = dir.run(&["convert", &format!("--threads={n}"), "a.pgn"]);
        assert_eq!(r.code, 2, "{n}: {}", r.stderr);
        assert!(r.stderr.contains("--threads"), "{}", r.stderr);
    }
    let r = dir.run(&["check", "--threads", "100000000", "a.pgn"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = dir.run(&["convert", "--threads", "256", "a.pgn"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn output_format_follows_the_extension() {
    let dir = Dir::new("ext");
    dir.write("a.pgn", games(2));
    let r = dir.run(&["convert", "a.pgn", "-o", "out.xlsx"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("out.xlsx"), "{}", r.stderr);
    assert!(!dir.path("out.xlsx").exists());
    // --to and a known extension that disagree
    let r = dir.run(&["convert", "--to", "pgn", "a.pgn", "-o", "out.json"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(!dir.path("out.json").exists());
    // --to names the format of an unknown extension
    let r = dir.run(&["convert", "--to", "json", "a.pgn", "-o", "out.txt"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(dir.read("out.txt").starts_with(b"{"));
    for (name, start) in [
        ("out.jsonl", &b"{"[..]),
        ("out.JSON", b"{"),
        ("out.csv", b"game,"),
        ("out.pgn", b"[Event "),
        ("out", b"[Event "),
    ] {
        let r = dir.run(&["convert", "a.pgn", "-o", name]);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        let got = dir.read(name);
        assert!(
            got.starts_with(start),
            "{name}: {}",
            String::from_utf8_lossy(&got)
        );
    }
}

#[test]
fn control_characters_in_diagnostics_are_escaped() {
    let dir = Dir::new("escape");
    let text = "[White \"\x1b[31mEvil\u{202e}\"]\n[Black \"B\x07\"]\n\n\
        1. e4 {\x1b[2J} e5 2. Ke3 *\n";
    let name = if cfg!(unix) { "e\x1b[31m.pgn" } else { "e.pgn" };
    dir.write(name, text);
    let r = dir.run(&["convert", name]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let check = dir.run(&["check", name]);
    assert_eq!(check.code, 1, "{}", check.stderr);
    for shown in [r.stderr.as_str(), &check.stdout(), &check.stderr] {
        assert!(
            !shown.contains('\x1b') && !shown.contains('\x07') && !shown.contains('\u{202e}'),
            "{shown:?}"
        );
    }
    let shown = format!("{}{}", r.stderr, check.stdout());
    assert!(shown.contains("\\x1b[31mEvil\\u{202e} – B\\x07"), "{shown}");
    if cfg!(unix) {
        assert!(shown.contains("--> e\\x1b[31m.pgn:4:"), "{shown}");
        assert!(shown.contains("e\\x1b[31m.pgn: 1 game"), "{shown}");
    }
    // the source line escaped, and the caret still under the move
    let lines: Vec<&str> = r.stderr.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("4 | "))
        .unwrap_or_else(|| panic!("{}", r.stderr));
    assert_eq!(lines[at], "4 | 1. e4 {\\x1b[2J} e5 2. Ke3 *");
    let caret = lines[at + 1];
    let col = caret.find('^').unwrap();
    assert_eq!(&lines[at][col..col + 3], "Ke3", "{caret}");
}
