//! Helpers shared by the robustness tests: random games, byte mutations, proptest
//! configuration.
#![allow(dead_code, clippy::unwrap_used)]

use std::{
    io::Write,
    path::PathBuf,
    process::{Command, Stdio},
};

use kyphu::chess::{Move, Position};
use kyphu::model::diag::Severity;
use kyphu::model::game::Game;
use proptest::prelude::*;

pub mod forms;
pub mod records;

/// A random legal game: at each ply the `choice`-th legal move (mod their number).
pub fn chess_game(start: &Position, choices: &[u16]) -> Vec<(Position, Move)> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[usize::from(c) % moves.len()];
        out.push((pos.clone(), m));
        pos.play_unchecked(&m);
    }
    out
}

pub fn errors(game: &Game) -> Vec<String> {
    game.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect()
}

pub fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(cases),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

#[derive(Copy, Clone, Debug)]
pub enum Mutation {
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize, usize),
    Truncate(usize),
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1..=255u8).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        (any::<usize>(), 1..40usize).prop_map(|(i, n)| Mutation::Delete(i, n)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

/// Bytes that matter to the grammar, inserted more often than chance would.
pub const SPECIAL: &[u8] = b"{}()[]\";%$\\\n\r*-/.01 \x00\xff\xc3\xe1";

pub fn apply(bytes: &mut Vec<u8>, m: Mutation) {
    let len = bytes.len();
    match m {
        Mutation::Flip(i, b) if len > 0 => bytes[i % len] ^= b,
        Mutation::Insert(i, b) => {
            let byte = if b < 128 {
                SPECIAL[usize::from(b) % SPECIAL.len()]
            } else {
                b
            };
            bytes.insert(i % (len + 1), byte);
        }
        Mutation::Delete(i, n) if len > 0 => {
            let start = i % len;
            bytes.drain(start..(start + n).min(len));
        }
        Mutation::Truncate(i) if len > 0 => bytes.truncate(i % len),
        _ => {}
    }
}

/// The chess960 start position number `n` (0..960, Scharnagl numbering; 518 is the
/// standard position) as a FEN with Shredder castling.
pub fn chess960_fen(n: usize) -> String {
    let mut rank = [' '; 8];
    let mut n = n % 960;
    rank[2 * (n % 4) + 1] = 'B';
    n /= 4;
    rank[2 * (n % 4)] = 'B';
    n /= 4;
    let place_nth_empty = |rank: &mut [char; 8], k: usize, c: char| {
        let i = (0..8).filter(|&i| rank[i] == ' ').nth(k).unwrap();
        rank[i] = c;
    };
    place_nth_empty(&mut rank, n % 6, 'Q');
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n];
    // the second knight goes on the b-th empty square counted before the first is placed
    place_nth_empty(&mut rank, b, 'N');
    place_nth_empty(&mut rank, a, 'N');
    for c in ['R', 'K', 'R'] {
        place_nth_empty(&mut rank, 0, c);
    }
    let white: String = rank.iter().collect();
    let black = white.to_ascii_lowercase();
    let rooks: Vec<char> = (0..8)
        .filter(|&i| rank[i] == 'R')
        .map(|i| (b'a' + i as u8) as char)
        .collect();
    let castling = format!(
        "{}{}{}{}",
        rooks[1].to_ascii_uppercase(),
        rooks[0].to_ascii_uppercase(),
        rooks[1],
        rooks[0]
    );
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1")
}

/// The `.pgn` files under `dir` and its subdirectories, sorted.
pub fn pgn_files(dir: PathBuf) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "pgn") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// What a run of the `kyphu` binary gave.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Exit code, standard output and standard error, for a snapshot.
    pub fn render(&self) -> String {
        format!(
            "exit code: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Runs the `kyphu` binary in the repository's folder with `stdin` as its input.
pub fn kyphu(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kyphu"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // written on a thread of its own while the output is read (a large input and a
    // large output would otherwise wait on each other's full pipes); a kyphu that
    // exits without reading all of it (its input named as a file) closes the pipe,
    // which is not the test's failure
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.as_bytes().to_vec();
    let writer = std::thread::spawn(move || match pipe.write_all(&input) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}
