//! The records of `corpus/text/` and texts as the command line reads them: the loader
//! shared by `tests/real_text.rs`, `tests/free_text.rs` and `tests/descriptive.rs`.

use std::path::{Path, PathBuf};

use kyphu::{
    archive::{ReadOptions, read_bytes, text::join_headings},
    model::game::{AnyMove, Game},
    replay::{ReplayOptions, replay},
};

/// `corpus/text/`, the real-text corpus.
pub fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/text")
}

/// The games of `bytes` read as the command line reads them: headings joined to the
/// game after them, junk left out, each game replayed under `options`.
pub fn games_with(bytes: &[u8], options: &ReplayOptions) -> Vec<Game> {
    let mut raws = read_bytes(bytes, ReadOptions::default());
    join_headings(&mut raws);
    raws.into_iter()
        .filter(|r| !r.junk)
        .map(|r| replay(r, options))
        .collect()
}

/// The game of `bytes` with the longest main line ([`games_with`]): what a record is
/// read as.
pub fn longest_game(bytes: &[u8], options: &ReplayOptions) -> Option<Game> {
    games_with(bytes, options)
        .into_iter()
        .max_by_key(|g| g.moves.moves.len())
}

/// The main line in UCI (chess) or ICCS (xiangqi), `--` for a null move.
pub fn main_line(g: &Game) -> Vec<String> {
    g.moves
        .moves
        .iter()
        .map(|n| match n.mv {
            AnyMove::Chess(m) => m.uci(false),
            AnyMove::Xiangqi(m) => m.iccs(),
            AnyMove::Null => "--".into(),
        })
        .collect()
}

/// The bytes of the record `name` (`en/eudesign-1`) of the corpus.
pub fn record_bytes(name: &str) -> Vec<u8> {
    std::fs::read(corpus_root().join(format!("{name}.txt"))).expect("record")
}

/// The sidecar (`.expect`) of the record `name`.
pub fn sidecar_text(name: &str) -> String {
    std::fs::read_to_string(corpus_root().join(format!("{name}.expect"))).expect("sidecar")
}
