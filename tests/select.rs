//! `convert --where` / `--player` / `--result` (issue 28) on real archives, counted
//! against python-chess reading the same files with the same rule written in Python.
//! Skips with a note when ../shared/corpus or python-chess is absent.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;

mod common;

const PY: &str = r#"
import sys, chess.pgn
path, crit = sys.argv[1], sys.argv[2]
n = 0
with open(path, encoding="utf-8", errors="replace") as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        h = g.headers
        plies = sum(1 for _ in g.mainline_moves())
        b = g.end()
        if crit == "white-wins":
            ok = h.get("Result") == "1-0"
        elif crit == "short":
            ok = plies <= 40
        elif crit == "mate":
            ok = b.board().is_checkmate()
        elif crit == "kasparov-black":
            ok = "kasparov" in h.get("Black", "").lower()
        elif crit == "year":
            d = h.get("Date", "????")[:4]
            ok = d.isdigit() and 1985 <= int(d) <= 1990
        n += ok
print(n)
"#;

fn python_count(file: &Path, crit: &str) -> Option<u64> {
    let out = Command::new("python3")
        .args(["-c", PY, file.to_str()?, crit])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8(out.stdout).ok()?.trim().parse().ok()
}

fn kyphu_count(file: &Path, args: &[&str]) -> u64 {
    let mut all = vec!["convert", file.to_str().unwrap(), "--to", "pgn", "-q"];
    all.extend_from_slice(args);
    let run = common::kyphu(&all, "");
    run.stdout.matches("[Event ").count() as u64
}

#[test]
fn selections_count_as_python_chess_counts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/chess/pgnmentor");
    let file = root.join("Kasparov.pgn");
    if !file.exists() {
        eprintln!("note: ../shared/corpus absent: selections_count_as_python_chess_counts skipped");
        return;
    }
    if python_count(&file, "short").is_none() {
        eprintln!(
            "note: python-chess not installed: selections_count_as_python_chess_counts skipped"
        );
        return;
    }
    let cases: [(&str, &[&str]); 5] = [
        ("white-wins", &["--result", "1-0"]),
        ("short", &["--where", "plies:..40"]),
        ("mate", &["--where", "ends:checkmate"]),
        ("kasparov-black", &["--where", "black:Kasparov"]),
        ("year", &["--where", "Date>=1985", "--where", "Date<=1990"]),
    ];
    for (crit, args) in cases {
        let want = python_count(&file, crit).unwrap();
        let got = kyphu_count(&file, args);
        eprintln!("{crit}: python-chess {want}, kyphu {got}");
        assert_eq!(got, want, "{crit} {args:?}");
        assert!(want > 0, "{crit}: the case selects something");
    }
}
