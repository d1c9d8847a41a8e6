//! Scoresheet writer round trip on any input: the games read (and replayed) from the
//! bytes are written by `emit::csv::to_csv_strings` (moves file and games file) and
//! read back by `archive::csv::read_scoresheet_with_games`: as many games come back,
//! each replays to the same variant, start position, main line and result.
#![no_main]

use kyphu::archive::csv::read_scoresheet_with_games;
use kyphu::archive::{ReadOptions, read_bytes};
use kyphu::emit::{CsvOptions, csv::to_csv_strings};
use kyphu::model::game::{AnyMove, Game};
use kyphu::replay::{ReplayOptions, replay};
use libfuzzer_sys::fuzz_target;

fn main_line(g: &Game) -> Vec<AnyMove> {
    g.moves.moves.iter().map(|n| n.mv).collect()
}

fuzz_target!(|data: &[u8]| {
    let options = ReplayOptions::default();
    let games: Vec<Game> = read_bytes(data, ReadOptions::default())
        .into_iter()
        .filter(|raw| !raw.junk)
        .map(|raw| replay(raw, &options))
        .collect();
    if games.is_empty() {
        return;
    }
    let refs: Vec<&Game> = games.iter().collect();
    let (moves, header) = to_csv_strings(&refs, &CsvOptions::default());
    let back = read_scoresheet_with_games(&moves, &header);
    assert_eq!(back.len(), games.len(), "{moves}\n{header}");
    for (g, b) in games.iter().zip(back) {
        let again = replay(b.raw, &options);
        assert_eq!(again.variant, g.variant, "{moves}\n{header}");
        assert_eq!(again.start, g.start, "{moves}\n{header}");
        assert_eq!(main_line(&again), main_line(g), "{moves}\n{header}");
        assert_eq!(again.result, g.result, "{moves}\n{header}");
    }
});
