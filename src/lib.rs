//! kyphu reads chess and xiangqi game records written the way people really write
//! them, checks them by replaying every move, and writes them out as PGN, JSON or a
//! scoresheet CSV.
//!
//! Bytes go through one stage after another, each a module of its own:
//!
//! | stage | module | what it does |
//! |---|---|---|
//! | bytes | [`bytes`] | open a file or standard input, undo gzip, zstd, bzip2 |
//! | text | [`text`] | decode (BOM, UTF-8, UTF-16, legacy encodings), fold look-alikes |
//! | archive | [`archive`] | cut the text into games: tags, movetext, comments, variations ([`RawGame`]) |
//! | notation | [`notation`] | read and write moves: SAN in 17 letter sets, every xiangqi notation |
//! | replay | [`replay`] | play every move on the board: the checked [`Game`], did-you-mean, diff |
//! | game | [`game`] | what is done with replayed games: opening classification |
//! | emit | [`emit`] | write PGN, JSON Lines, scoresheet CSV |
//!
//! beside the shared [`model`] (the game, the board of either game, [`Diagnostic`]s) and
//! the two engines, [`chess`] and [`xiangqi`]. Every stage imports only the stages
//! before it (`tests/layout.rs`).
//!
//! # Example
//!
//! Read games from any [`BufRead`](std::io::BufRead), here a Vietnamese scoresheet
//! with one slip, and write each as a JSON line with its diagnostics:
//!
//! ```
//! use kyphu::{Code, Item, JsonOptions, Severity, read_games, emit::json::to_json_string};
//!
//! let sheet = "[White \"Lê Quang Liêm\"]\n\n1. e4 e5 2. Mf3 Mc6 3. Tb5 a6 4. Ta4 Mf6 *\n";
//! let mut seen = 0;
//! for item in read_games(sheet.as_bytes(), &Default::default()) {
//!     // an I/O error ends the reading; text that is not a game comes as an item too
//!     let Item::Game(game) = item? else { continue };
//!     let line = to_json_string(&game, &JsonOptions::default());
//!     assert!(line.contains("\"san\":\"Nf3\""));
//!     // `Tb5` is a bishop (tượng) in Vietnamese: the game replays as English SAN
//!     assert_eq!(game.moves.moves.len(), 8);
//!     assert!(game.diagnostics.iter().all(|d| d.severity < Severity::Error));
//!     seen += 1;
//! }
//! assert_eq!(seen, 1);
//!
//! // a slip is a diagnostic with its place, code and the likely intended moves
//! let mut games = read_games("1. e4 e5 2. Nf6 *".as_bytes(), &Default::default());
//! let Some(Item::Game(game)) = games.next().transpose()? else { panic!("a game") };
//! let slip = &game.diagnostics[0];
//! assert_eq!((slip.code, slip.ply), (Code::IllegalMove, Some(3)));
//! assert!(slip.candidates.iter().any(|c| c == "Nf3"));
//! # Ok::<_, std::io::Error>(())
//! ```
//!
//! The command line (`kyphu check|convert|diff|show`) is the binary built on this
//! library: `docs/cli.md`.

pub mod archive;
pub mod bytes;
pub mod chess;
pub mod color;
pub mod emit;
pub mod game;
pub mod model;
pub mod notation;
pub mod replay;
#[cfg(test)]
mod testing;
pub mod text;
pub mod xiangqi;

use std::io::BufRead;

pub use archive::{ArchiveReader, Limits, RawGame, ReadOptions};
pub use color::{ByColor, Color};
pub use emit::{
    CsvOptions, GameWriter, JsonOptions, JsonWriter, PgnOptions, PgnWriter, ScoresheetWriter,
};
pub use model::{
    board::Board,
    diag::{Code, Diagnostic, LineCol, LineIndex, Severity, Span},
    game::{AnyMove, Game, GameResult, Line, MoveNode, StartPosition, Status, Tags, Variant},
};
pub use replay::{ReplayOptions, replay};

/// Reads every game of `input` (PGN, plain movetext or a scoresheet text, in any
/// encoding kyphu recognises) and replays it: one [`Game`] per game of the input, in
/// input order, each with its [`Diagnostic`]s; text that is not a game comes as an
/// [`Item::NonGame`], so nothing is dropped. Memory stays bounded whatever
/// the input ([`Limits`]). Decompress first with [`bytes::open`] for `.gz`, `.zst`,
/// `.bz2`; read a scoresheet CSV with [`archive::csv`].
pub fn read_games<R: BufRead>(input: R, options: &ReplayOptions) -> Games<R> {
    read_games_with(input, ReadOptions::default(), options)
}

/// [`read_games`] with the reading options too (a forced encoding, the limits).
pub fn read_games_with<R: BufRead>(
    input: R,
    read: ReadOptions,
    options: &ReplayOptions,
) -> Games<R> {
    Games {
        reader: ArchiveReader::new(input, read),
        options: options.clone(),
    }
}

/// One item of an input: a game, or text between games that is not one.
#[derive(Clone, Debug)]
pub enum Item {
    /// A game, replayed.
    Game(Game),
    /// Text that is not a game, kept verbatim in the game's source text
    /// ([`Game::source`]) with a diagnostic saying why (`junk-between-games`…); the
    /// writers keep it too ([`emit::json::non_game_json`], [`emit::pgn::non_game_bytes`]).
    NonGame(Game),
}

/// The games of an input, read and replayed one at a time: see [`read_games`].
pub struct Games<R> {
    reader: ArchiveReader<R>,
    options: ReplayOptions,
}

impl<R: BufRead> Iterator for Games<R> {
    type Item = std::io::Result<Item>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.reader.next()?.map(|raw| {
            let junk = raw.junk;
            let game = replay(raw, &self.options);
            if junk {
                Item::NonGame(game)
            } else {
                Item::Game(game)
            }
        }))
    }
}

/// The README's Rust example, run as a test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
