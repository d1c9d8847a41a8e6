//! Texts read as the library reads them, for the tests of typed forms
//! (`tests/typed_forms.rs`, `tests/real_forms.rs`, `tests/real_xiangqi.rs`).

use kyphu::emit::pgn::{PgnOptions, to_pgn_string};
use kyphu::{Game, Item, Severity, Status, read_games};

/// The games of `text` (non-games left out), replayed with the default options.
pub fn games(text: &str) -> Vec<Game> {
    read_games(text.as_bytes(), &Default::default())
        .filter_map(|i| match i.unwrap() {
            Item::Game(g) => Some(g),
            Item::NonGame(_) => None,
        })
        .collect()
}

/// The one game of `text`.
pub fn game(text: &str) -> Game {
    let mut g = games(text);
    assert_eq!(g.len(), 1, "expected one game in {text:?}");
    g.remove(0)
}

/// The movetext of `g` as kyphu writes it (SAN, comments, result), on one line.
pub fn movetext(g: &Game) -> String {
    let pgn = to_pgn_string(g, &PgnOptions::default());
    let body: Vec<&str> = pgn
        .lines()
        .filter(|l| !l.starts_with('[') && !l.trim().is_empty())
        .collect();
    body.join(" ")
}

/// The errors and warnings of `g`, as `code: message`.
pub fn problems(g: &Game) -> Vec<String> {
    g.diagnostics
        .iter()
        .filter(|d| d.severity >= Severity::Warning)
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect()
}

/// `text` reads as one game whose main line written in SAN is `expected` (with its
/// result), with no error or warning.
pub fn reads_clean(text: &str, expected: &str) {
    let g = game(text);
    assert_eq!(movetext(&g), expected, "{text:?}: {:?}", g.diagnostics);
    assert_eq!(g.status(), Status::Clean, "{text:?}: {:?}", problems(&g));
}
