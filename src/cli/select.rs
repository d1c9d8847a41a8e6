//! The archivist's options on `convert` (issue 28): which games to write
//! (`--where`, `--player`, `--white`, `--black`, `--result`) and what to add to them
//! (`--add-eco`). The criteria are the library's ([`kyphu::game::select`]); this file
//! only reads them from the command line.

use kyphu::game::eco;
use kyphu::game::select::{Criterion, Selection};
use kyphu::model::game::Game;

/// Options that select and classify games.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SelectArgs {
    /// Keep only the games that meet CRITERION (repeatable; all must hold): TAG=VALUE,
    /// TAG!=VALUE, TAG~TEXT (contains, folded), TAG=~REGEX, TAG>=N (> <= <; numbers or
    /// PGN dates), player:NAME, white:NAME, black:NAME, result:1-0, moves:MIN..MAX,
    /// plies:MIN..MAX, ends:checkmate|stalemate, reaches:FEN, variant:chess|xiangqi
    /// (docs/cli.md, "Selecting games")
    #[arg(long = "where", value_name = "CRITERION")]
    pub criteria: Vec<String>,
    /// Keep only the games NAME played, on either side (folded: case, accents, word
    /// order; `Magnus Carlsen` finds `Carlsen, Magnus`); short for --where player:NAME
    #[arg(long, value_name = "NAME")]
    pub player: Vec<String>,
    /// Keep only the games with this result (1-0, 0-1, 1/2-1/2, *)
    #[arg(long, value_name = "RESULT")]
    pub result: Option<String>,
    /// Add `ECO` and `Opening` tags classified by position from the bundled lichess
    /// table (replacing tags of those names; the deepest named position of the main
    /// line wins)
    #[arg(long)]
    pub add_eco: bool,
}

impl SelectArgs {
    /// The selection the options ask for (empty: every game).
    pub fn selection(&self) -> Result<Selection, String> {
        let texts = self
            .criteria
            .iter()
            .cloned()
            .chain(self.player.iter().map(|p| format!("player:{p}")))
            .chain(self.result.iter().map(|r| format!("result:{r}")));
        let mut out = Vec::new();
        for t in texts {
            out.push(Criterion::parse(&t).map_err(|e| e.to_string())?);
        }
        Ok(Selection(out))
    }
}

/// Adds the `ECO` and `Opening` tags when `--add-eco` asked for them and the game is
/// classified; returns whether it was.
pub fn add_eco(game: &mut Game) -> bool {
    match eco::classify(game) {
        Some(c) => {
            game.tags.set("ECO", c.opening.eco);
            game.tags.set("Opening", c.opening.name);
            true
        }
        None => false,
    }
}
