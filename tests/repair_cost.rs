//! Issue 27, the slip search's cost: a sheet that is not a game with slips from its
//! start position (a fragment without its first moves and without a FEN) is not
//! planned: its first error is reported with its candidates, as before the search
//! existed, instead of a plan that spends the whole budget changing every move. The
//! cost is counted in partial plans expanded (`repair::Effort`), not timed.
#![allow(clippy::unwrap_used)]

use kyphu::{
    ReplayOptions,
    archive::read_str,
    chess::Position,
    model::diag::Severity,
    notation::chess::english,
    replay::{
        repair::{Budget, plan_effort},
        replay,
    },
};

/// Abdusattorov–Alikulov, ch-UZB 1st League 2014, round 1 (the first game of the
/// benchmark slice `c2.pgn`), from move 30 on: typed without its first 29 moves and
/// without a FEN, every cell fails from the start position.
const FROM_MOVE_30: &str = "30.Qf1 Nxd5 31.Rxb7 Qd4+ 32.Kh1 Rf8 33.Qg1 Ne3 34.Re7 a5 \
    35.c6 a4 36.Qxe3 Qxe3 37.Nf6+ Rxf6 38.Rxe3 Rd6 39.h4 Rd1+ 40.Kh2 b4 41.c7";

fn cells(text: &str) -> Vec<&str> {
    text.split_whitespace()
        .map(|t| t.rsplit_once('.').map_or(t, |(_, m)| m))
        .filter(|t| !t.is_empty())
        .collect()
}

/// The fragment's first error is reported with its candidates, and nothing is assumed
/// (before: 22 moves assumed, a plan that changed every one).
#[test]
fn fragment_from_move_30_reports_its_first_error() {
    for repair in [false, true] {
        let mut raws = read_str(&format!("{FROM_MOVE_30} *\n"));
        let g = replay(
            raws.remove(0),
            &ReplayOptions {
                go_on: true,
                repair,
                ..ReplayOptions::default()
            },
        );
        let errors: Vec<_> = g
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert_eq!(errors.len(), 1, "{:?}", g.diagnostics);
        assert!(errors[0].message.contains("Qf1"), "{:?}", errors[0]);
        assert!(g.repairs.is_empty(), "{:?}", g.repairs);
        assert!(g.moves.moves.is_empty());
    }
}

/// The search never expands more partial plans than its budget, counted.
#[test]
fn plan_search_stays_within_its_budget() {
    let c = cells(FROM_MOVE_30);
    for budget in [Budget::CHECK, Budget::REPAIR] {
        let (_, effort) = plan_effort(&Position::default(), &c, english(), budget);
        assert!(effort.expansions <= budget.expansions, "{effort:?}");
        assert!(effort.expansions > 0, "{effort:?}");
    }
}
