//! Writers: pure renderers over a [`Game`](crate::model::game::Game).
//!
//! - [`pgn`]: PGN export format (1994 standard §8.1, §16), streaming to any
//!   [`std::io::Write`], with options for a reduced export and SAN in other languages.
//! - [`json`]: JSON Lines, one object per game, schema `docs/schema/game.schema.json`.
//! - [`csv`]: scoresheet CSV, one row per move number, plus a `games.csv` of headers.
//! - [`svg`]: a board as an SVG picture (`kyphu show --svg`, the page of `kyphu serve`).
//!
//! Writers never see source text except through [`Game::written`](crate::model::game::Game::written)
//! (the JSON `written` field). They replay the move tree from the game's start to render
//! notation; a [`Board`] carries what each game kind needs for that. User documentation:
//! `docs/formats.md`.

pub mod csv;
pub mod dhtmlxq;
pub mod json;
pub mod pgn;
pub mod svg;

pub use self::csv::{CsvOptions, ScoresheetWriter};
pub use json::{JsonOptions, JsonWriter, SCHEMA_ID, SCHEMA_VERSION};
pub use pgn::{DrawOffers, PgnOptions, PgnWriter};

use std::fmt::Write as _;

use crate::{
    chess,
    model::game::{AnyMove, StartPosition},
    notation::chess::{SanOut, SanStyle, write_and_play, write_san, write_uci},
};

/// What the three writers have in common, for callers choosing the format at run
/// time (`Box<dyn GameWriter>`).
pub trait GameWriter {
    /// Writes one game.
    fn write_game(&mut self, game: &crate::model::game::Game) -> std::io::Result<()>;
    /// Flushes what was written to the underlying writer(s).
    fn flush(&mut self) -> std::io::Result<()>;
}

impl<W: std::io::Write> GameWriter for PgnWriter<W> {
    fn write_game(&mut self, game: &crate::model::game::Game) -> std::io::Result<()> {
        PgnWriter::write_game(self, game)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        PgnWriter::flush(self)
    }
}

impl<W: std::io::Write> GameWriter for JsonWriter<W> {
    fn write_game(&mut self, game: &crate::model::game::Game) -> std::io::Result<()> {
        JsonWriter::write_game(self, game)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        JsonWriter::flush(self)
    }
}

impl<W: std::io::Write, G: std::io::Write> GameWriter for ScoresheetWriter<W, G> {
    fn write_game(&mut self, game: &crate::model::game::Game) -> std::io::Result<()> {
        ScoresheetWriter::write_game(self, game)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        ScoresheetWriter::flush(self)
    }
}

/// How moves are written.
#[derive(Copy, Clone, Debug)]
pub struct MoveStyle {
    /// Chess moves: SAN in this style (default: canonical English PGN SAN).
    pub chess: SanStyle,
    /// Xiangqi moves.
    pub xiangqi: XiangqiNotation,
}

impl Default for MoveStyle {
    fn default() -> Self {
        MoveStyle {
            chess: SanStyle::pgn(),
            xiangqi: XiangqiNotation::Iccs,
        }
    }
}

/// How chess moves are written (`convert --out-notation`, issue 28): SAN in the
/// [`MoveStyle`]'s style, long algebraic (`Ng1-f3`, `e4xd5`, `O-O`, `e7-e8=Q`, with
/// the style's piece letters and check marks) or UCI (`g1f3`, `e7e8q`; a null move
/// `0000`). Xiangqi moves are written in their [`XiangqiNotation`] for SAN and long
/// algebraic, in ICCS for UCI.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ChessMoves {
    #[default]
    San,
    Long,
    Uci,
}

/// Appends `mv` as `form` writes it and plays it on `board`: SAN as
/// [`WriteMoves::write_and_play`] writes it, long algebraic, or the coordinates
/// ([`WriteMoves::write_coords`]) for UCI.
pub fn write_and_play_as(
    board: &mut Board,
    out: &mut String,
    mv: &AnyMove,
    style: &MoveStyle,
    form: ChessMoves,
) {
    match (form, &mut *board, mv) {
        (ChessMoves::Long, Board::Chess(p), AnyMove::Chess(m)) => {
            crate::notation::chess::write_long(out, p, m, &style.chess);
            board.play(mv);
        }
        (ChessMoves::Uci, _, _) => {
            board.write_coords(out, mv);
            board.play(mv);
        }
        _ => board.write_and_play(out, mv, style),
    }
}

/// How xiangqi moves are written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum XiangqiNotation {
    /// ICCS coordinates, `h2e2`.
    #[default]
    Iccs,
    /// One of the notations of [`crate::notation::xiangqi`] (Chinese, WXF, Vietnamese…),
    /// each in its canonical form.
    Dialect(crate::notation::xiangqi::Dialect),
}

pub use crate::model::board::Board;

/// Writing moves from a [`Board`]: the writers' side of the board, kept here so that the
/// model knows nothing of notation.
pub trait WriteMoves {
    /// Appends `mv` in `style` (SAN with check marks for chess, `--` for a null move).
    fn write_move(&self, out: &mut String, mv: &AnyMove, style: &MoveStyle);
    /// Appends `mv` as [`WriteMoves::write_move`] does and plays it, playing a chess
    /// move only once (for the check mark and the board both).
    fn write_and_play(&mut self, out: &mut String, mv: &AnyMove, style: &MoveStyle);
    /// Appends the coordinate form: UCI for chess (`e2e4`, `e7e8q`; chess960 castling
    /// as king-takes-rook), ICCS for xiangqi (`h2e2`), `0000` for a null move (UCI).
    fn write_coords(&self, out: &mut String, mv: &AnyMove);
}

impl WriteMoves for Board {
    /// Appends `mv` in `style` (SAN with check marks for chess, `--` for a null move).
    fn write_move(&self, out: &mut String, mv: &AnyMove, style: &MoveStyle) {
        match (self, mv) {
            (_, AnyMove::Null) => out.push_str("--"),
            (Board::Chess(p), AnyMove::Chess(m)) => write_san(out, p, m, &style.chess),
            (_, AnyMove::Chess(m)) => m.write_uci(out, false),
            (Board::Xiangqi(p), AnyMove::Xiangqi(m)) => match style.xiangqi {
                XiangqiNotation::Iccs => write_iccs(out, m),
                XiangqiNotation::Dialect(d) => crate::notation::xiangqi::write(out, p, *m, d),
            },
            (_, AnyMove::Xiangqi(m)) => write_iccs(out, m),
        }
    }

    /// Appends `mv` as [`WriteMoves::write_move`] does and plays it, playing a chess move
    /// only once (for the check mark and the board both).
    fn write_and_play(&mut self, out: &mut String, mv: &AnyMove, style: &MoveStyle) {
        match (&mut *self, mv) {
            (Board::Chess(p), AnyMove::Chess(m)) => write_and_play(out, p, m, &style.chess),
            _ => {
                self.write_move(out, mv, style);
                self.play(mv);
            }
        }
    }

    /// Appends the coordinate form: UCI for chess (`e2e4`, `e7e8q`; chess960 castling
    /// as king-takes-rook), ICCS for xiangqi (`h2e2`), `0000` for a null move (UCI).
    fn write_coords(&self, out: &mut String, mv: &AnyMove) {
        match (self, mv) {
            (_, AnyMove::Null) => out.push_str("0000"),
            (Board::Chess(p), AnyMove::Chess(m)) => write_uci(out, p, m),
            (_, AnyMove::Chess(m)) => m.write_uci(out, false),
            (_, AnyMove::Xiangqi(m)) => write_iccs(out, m),
        }
    }
}

fn write_iccs(out: &mut String, m: &crate::xiangqi::Move) {
    // Writing to a String cannot fail.
    let _ = write!(out, "{}{}", m.from, m.to);
}

/// The tag names of the Seven Tag Roster, in export order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Whether `start` is the standard initial position of its game.
pub fn is_initial(start: &StartPosition) -> bool {
    match start {
        StartPosition::Chess(p) => **p == chess::Position::default(),
        StartPosition::Xiangqi(p) => **p == crate::xiangqi::Position::default(),
    }
}

/// Appends a decimal number without going through `fmt`, to a `String` or any other
/// [`SanOut`].
pub(crate) fn push_u64<O: SanOut + ?Sized>(b: &mut O, v: u64) {
    // move numbers and NAGs are mostly one or two digits: pushed as bytes
    let digit = |d: u64| b'0' + (d % 10) as u8;
    if v < 10 {
        b.push_ascii(digit(v));
    } else if v < 100 {
        b.push_ascii(digit(v / 10));
        b.push_ascii(digit(v));
    } else {
        b.push_text(itoa::Buffer::new().format(v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;

    #[test]
    fn push_u64_writes_decimal() {
        for v in (0..=1200).chain([9_999, 65_535, u64::from(u32::MAX), u64::MAX]) {
            let mut s = String::from("x");
            push_u64(&mut s, v);
            assert_eq!(s, format!("x{v}"));
        }
    }

    #[test]
    fn writers_behind_one_trait() {
        let g = crate::model::game::Game::new_chess();
        let mut writers: Vec<Box<dyn GameWriter>> = vec![
            Box::new(PgnWriter::new(Vec::new(), PgnOptions::default())),
            Box::new(JsonWriter::new(Vec::new(), JsonOptions::default())),
            Box::new(ScoresheetWriter::new(
                Vec::new(),
                None::<Vec<u8>>,
                CsvOptions::default(),
            )),
        ];
        for w in &mut writers {
            assert!(w.write_game(&g).is_ok());
            assert!(w.flush().is_ok());
        }
    }

    #[test]
    fn ply_counts_from_move_one() {
        let mut b = Board::new(&StartPosition::Chess(Box::default()));
        assert_eq!(b.ply(), 1);
        b.play(&AnyMove::Null);
        assert_eq!(b.ply(), 2);
        b.play(&AnyMove::Null);
        assert_eq!((b.ply(), b.fullmoves()), (3, 2));
        let mut x = Board::new(&StartPosition::Xiangqi(Box::default()));
        x.play(&AnyMove::Null);
        x.play(&AnyMove::Null);
        assert_eq!((x.ply(), x.turn()), (3, Color::White));
    }
}
