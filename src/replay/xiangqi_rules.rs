//! Informational rule checks over a game: repetition, perpetual check (Art. 23 point 1)
//! and the no-capture move counts (Art. 7.e and Art. 12). They never block a replay:
//! they report [`Diagnostic`]s for a reader to judge, as an arbiter would on a claim.
//!
//! The tracker keeps one [`PlyRecord`] per ply since the last capture (a capture makes
//! every earlier position unreachable). The chase rules of Art. 23 (points 2–10) fit the
//! same shape: add to `PlyRecord` what the mover newly attacks (and whether it is
//! protected), computed in [`RuleTracker::record`], and a detector that scans the same
//! repetition window as the perpetual-check one.

use crate::model::diag::Code;
use crate::{color::Color, model::diag::Diagnostic};

use crate::xiangqi::Position;

/// One ply as the tracker saw it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct PlyRecord {
    /// The ply number (1 = the first move recorded).
    ply: u32,
    /// Who made the move.
    mover: Color,
    /// Did the move give check?
    check: bool,
}

/// Plies of no capture after which Art. 7.e applies: 60 moves each.
const NO_CAPTURE_60_PLIES: u32 = 120;
/// Art. 12: 50 consecutive moves (taken as 50 by each side) without a capture.
const NO_CAPTURE_50_PLIES: u32 = 100;
/// Art. 12.c: legal checks count for at most 5 moves (taken as 5 per side).
const ART12_MAX_CHECKS: u32 = 5;

/// Follows a game position by position and reports rule findings as diagnostics.
///
/// Codes: `xq-repetition` (note), `xq-perpetual-check` (warning), `xq-no-capture-60`
/// (note), `xq-no-capture-50` (note).
#[derive(Clone, Debug)]
pub struct RuleTracker {
    /// Hashes of the positions since the last capture: `hashes[0]` is where the stretch
    /// starts, `hashes[i]` the position after `records[i - 1]`.
    hashes: Vec<u64>,
    records: Vec<PlyRecord>,
    /// The number of the last ply recorded.
    ply: u32,
    repetition_threshold: usize,
    /// Plies without capture before the tracker started (from the FEN's clock).
    carried_plies: u32,
    /// Art. 12 counters since the last capture, per side: quiet moves and checks.
    quiet: [u32; 2],
    checks: [u32; 2],
    reported_60: bool,
    reported_50: bool,
}

impl RuleTracker {
    /// Starts tracking from the game's start position.
    pub fn new(start: &Position) -> RuleTracker {
        RuleTracker {
            hashes: vec![start.zobrist()],
            records: Vec::new(),
            // plies are counted from the first recorded move, as the replay counts them,
            // whatever the start position's move number and side to move
            ply: 0,
            repetition_threshold: 3,
            carried_plies: start.halfmoves(),
            quiet: [0; 2],
            checks: [0; 2],
            reported_60: start.halfmoves() >= NO_CAPTURE_60_PLIES,
            reported_50: start.halfmoves() >= NO_CAPTURE_50_PLIES,
        }
    }

    /// Reports a repetition when a position occurs for the `n`th time (default 3, at
    /// least 2). Perpetual check is judged at the same moment.
    #[must_use]
    pub fn with_repetition_threshold(mut self, n: usize) -> RuleTracker {
        self.repetition_threshold = n.max(2);
        self
    }

    /// The number of the last ply recorded (1 = the first move recorded, Red's or Black's).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Records the position after the next move and returns the findings it triggers.
    pub fn record(&mut self, after: &Position) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        self.ply = self.ply.saturating_add(1);
        let ply = self.ply;
        let mover = after.turn().other();
        let check = after.is_check();
        let hash = after.zobrist();
        if after.halfmoves() == 0 {
            // A capture: nothing before can repeat, and the counts start again.
            self.hashes.clear();
            self.records.clear();
            self.hashes.push(hash);
            self.carried_plies = 0;
            self.quiet = [0; 2];
            self.checks = [0; 2];
            self.reported_60 = false;
            self.reported_50 = false;
            return out;
        }
        self.hashes.push(hash);
        self.records.push(PlyRecord { ply, mover, check });
        let side = mover.index();
        if check {
            self.checks[side] = self.checks[side].saturating_add(1);
        } else {
            self.quiet[side] = self.quiet[side].saturating_add(1);
        }
        self.repetition(ply, &mut out);
        self.no_capture(after, ply, &mut out);
        out
    }

    fn repetition(&self, ply: u32, out: &mut Vec<Diagnostic>) {
        let Some(&hash) = self.hashes.last() else {
            return;
        };
        let at: Vec<usize> = (0..self.hashes.len())
            .filter(|&i| self.hashes[i] == hash)
            .collect();
        if at.len() != self.repetition_threshold {
            return;
        }
        // The ply after which hashes[i] arose (0 for the stretch's start: the position
        // before the next recorded ply).
        let ply_of = |i: usize| match i {
            0 => ply.saturating_sub(self.records.len() as u32),
            _ => self.records.get(i - 1).map_or(0, |r| r.ply),
        };
        let plies: Vec<String> = at.iter().map(|&i| ply_of(i).to_string()).collect();
        out.push(
            Diagnostic::note(
                Code::XqRepetition,
                format!(
                    "the same position occurs for the {} time (after plies {})",
                    ordinal(at.len()),
                    plies.join(", ")
                ),
            )
            .with_ply(ply),
        );
        // Art. 23 point 1: a side that gave check with every one of its moves across
        // the repeated stretch checks perpetually.
        let first = at.first().copied().unwrap_or(0);
        let window = self.records.get(first..).unwrap_or(&[]);
        for color in Color::ALL {
            let mut moves = window.iter().filter(|r| r.mover == color).peekable();
            if moves.peek().is_some() && moves.all(|r| r.check) {
                out.push(
                    Diagnostic::warning(
                        Code::XqPerpetualCheck,
                        format!(
                            "{} gives perpetual check (every move from ply {} checks); \
                             art. 23 point 1: perpetual check loses",
                            color.fold("red", "black"),
                            ply_of(first) + 1
                        ),
                    )
                    .with_ply(ply),
                );
            }
        }
    }

    fn no_capture(&mut self, after: &Position, ply: u32, out: &mut Vec<Diagnostic>) {
        if !self.reported_60 && after.halfmoves() >= NO_CAPTURE_60_PLIES {
            self.reported_60 = true;
            out.push(
                Diagnostic::note(
                    Code::XqNoCapture60,
                    "each side has made 60 moves without a capture; \
                     art. 7.e: a draw may be claimed",
                )
                .with_ply(ply),
            );
        }
        let counted: u32 = (0..2)
            .map(|s| self.quiet[s].saturating_add(self.checks[s].min(ART12_MAX_CHECKS)))
            .fold(self.carried_plies, u32::saturating_add);
        if !self.reported_50 && counted >= NO_CAPTURE_50_PLIES {
            self.reported_50 = true;
            out.push(
                Diagnostic::note(
                    Code::XqNoCapture50,
                    "50 moves without a capture (checks counted at most 5 per side); \
                     art. 12: a draw may be claimed",
                )
                .with_ply(ply),
            );
        }
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap
mod tests {
    use super::*;
    use crate::{
        model::diag::Severity,
        xiangqi::{Move, Square},
    };

    fn mv(s: &str) -> Move {
        Move {
            from: Square::parse_iccs(&s[..2]).unwrap(),
            to: Square::parse_iccs(&s[2..]).unwrap(),
        }
    }

    /// Plays the moves, returning every diagnostic's (ply, code).
    fn run(fen: &str, moves: &[&str], threshold: usize) -> Vec<(u32, &'static str)> {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut t = RuleTracker::new(&pos).with_repetition_threshold(threshold);
        let mut out = Vec::new();
        for m in moves {
            pos.play(mv(m)).unwrap_or_else(|e| panic!("{e}"));
            for d in t.record(&pos) {
                out.push((d.ply.unwrap(), d.code.as_str()));
            }
        }
        out
    }

    #[test]
    fn repetition_and_perpetual_check() {
        // Red chariot checks from e-file alternately: a1e1 is not check (K e0 blocks?)
        // Setup: black general e9 (palace), red chariots; red checks on the d- and f-files
        // while the black general shuffles between e8/e9... simpler: red chariot checks
        // along the rank of the black general, which steps up and down.
        let fen = "3k5/9/9/9/9/9/9/9/9/4K3R w";
        // Black general d9. Red: i0 -> i9 check (rank 9), black d9 -> d8, red i9 -> i8
        // check, black d8 -> d9, red i8 -> i9 check, ...
        let cycle = [
            "i0i9", "d9d8", "i9i8", "d8d9", "i8i9", "d9d8", "i9i8", "d8d9", "i8i9",
        ];
        let got = run(fen, &cycle, 3);
        // The position after i0i9 (ply 1) recurs after plies 5 and 9.
        assert_eq!(got, vec![(9, "xq-repetition"), (9, "xq-perpetual-check")]);
        // With a threshold of 2 the first recurrence is reported.
        let got = run(fen, &cycle[..5], 2);
        assert_eq!(got, vec![(5, "xq-repetition"), (5, "xq-perpetual-check")]);
        // Without checks: repetition only.
        let quiet = [
            "i0i1", "d9d8", "i1i0", "d8d9", "i0i1", "d9d8", "i1i0", "d8d9",
        ];
        let got = run(fen, &quiet, 3);
        assert_eq!(got, vec![(8, "xq-repetition")]);
        // A capture clears the history: the black chariot on a5 is taken on ply 1,
        // then the same 4-ply cycle runs; only later recurrences count.
        let got = run(
            "3k5/9/9/9/r8/9/9/9/9/R3K4 w",
            &["a0a5", "d9d8", "a5a6", "d8d9", "a6a5"],
            2,
        );
        assert_eq!(got, vec![(5, "xq-repetition")]);
    }

    /// Plies count from the first recorded move, whoever moves first: a game set up
    /// with Black to move has Black's first move as ply 1, as the replay numbers it.
    #[test]
    fn plies_count_from_the_first_move_when_black_starts() {
        let fen = "r3k4/9/9/9/9/9/9/9/9/5K3 b";
        let cycle = ["a9a0", "f0f1", "a0a1", "f1f0", "a1a0"];
        assert_eq!(
            run(fen, &cycle, 2),
            vec![(5, "xq-repetition"), (5, "xq-perpetual-check")]
        );
        let mut pos = Position::from_fen(fen).unwrap();
        let mut t = RuleTracker::new(&pos).with_repetition_threshold(2);
        let mut all = Vec::new();
        for m in cycle {
            pos.play(mv(m)).unwrap();
            all.extend(t.record(&pos));
        }
        assert_eq!(
            all[0].message,
            "the same position occurs for the 2nd time (after plies 1, 5)"
        );
        assert!(
            all[1]
                .message
                .starts_with("black gives perpetual check (every move from ply 2"),
            "{}",
            all[1].message
        );
    }

    #[test]
    fn perpetual_check_message() {
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K3R w").unwrap();
        let mut t = RuleTracker::new(&pos).with_repetition_threshold(2);
        let mut all = Vec::new();
        for m in ["i0i9", "d9d8", "i9i8", "d8d9", "i8i9"] {
            pos.play(mv(m)).unwrap();
            all.extend(t.record(&pos));
        }
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].severity, Severity::Note);
        assert_eq!(
            all[0].message,
            "the same position occurs for the 2nd time (after plies 1, 5)"
        );
        assert_eq!(all[1].severity, Severity::Warning);
        assert_eq!(
            all[1].message,
            "red gives perpetual check (every move from ply 2 checks); \
             art. 23 point 1: perpetual check loses"
        );
        assert_eq!(t.ply(), 5);
    }

    #[test]
    fn no_capture_counts() {
        // Two chariots each shuffle without capture; no repetition threshold is hit
        // (threshold far away) so only the counts fire.
        let fen = "3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1";
        let mut pos = Position::from_fen(fen).unwrap();
        let mut t = RuleTracker::new(&pos).with_repetition_threshold(1000);
        let red = ["i0i1", "i1i0"];
        let black = ["d9d8", "d8d9"];
        let mut got = Vec::new();
        for i in 0..130 {
            let m = if i % 2 == 0 {
                red[(i / 2) % 2]
            } else {
                black[(i / 2) % 2]
            };
            pos.play(mv(m)).unwrap();
            got.extend(
                t.record(&pos)
                    .into_iter()
                    .map(|d| (d.ply.unwrap(), d.code.as_str())),
            );
        }
        assert_eq!(
            got,
            vec![(100, "xq-no-capture-50"), (120, "xq-no-capture-60")]
        );
        // Checks beyond 5 per side do not count for Art. 12: with red checking on
        // every move, 100 plies are not enough.
        let mut pos = Position::from_fen(fen).unwrap();
        let mut t = RuleTracker::new(&pos).with_repetition_threshold(1000);
        let red = ["i0i9", "i9i8", "i8i9"];
        let mut got = Vec::new();
        for i in 0..110 {
            let m = if i == 0 {
                red[0]
            } else if i % 2 == 0 {
                red[1 + (i / 2 + 1) % 2]
            } else {
                black[(i / 2) % 2]
            };
            pos.play(mv(m))
                .unwrap_or_else(|e| panic!("ply {}: {e}", i + 1));
            got.extend(
                t.record(&pos)
                    .into_iter()
                    .map(|d| (d.ply.unwrap(), d.code.as_str())),
            );
        }
        assert_eq!(got, Vec::<(u32, &str)>::new());
        // The FEN's clock carries over: 118 plies without a capture at the start, so the
        // second recorded move (ply 2, whatever the FEN's move number) makes 120.
        let got = run(
            "3k5/9/9/9/9/9/9/9/9/4K3R w - - 118 60",
            &["i0i1", "d9d8"],
            3,
        );
        assert_eq!(got, vec![(2, "xq-no-capture-60")]);
    }

    #[test]
    fn ordinals() {
        let cases = [
            (1, "1st"),
            (2, "2nd"),
            (3, "3rd"),
            (4, "4th"),
            (11, "11th"),
            (22, "22nd"),
        ];
        for (n, s) in cases {
            assert_eq!(ordinal(n), s);
        }
    }
}
