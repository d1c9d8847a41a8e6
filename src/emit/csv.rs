//! Scoresheet CSV writer: one row per move number, as on a paper scoresheet (FIDE
//! Laws Art. 8; the Vietnamese BIÊN BẢN form), plus an optional `games.csv` of header
//! fields. The reader of the same format is [`crate::archive::csv`].
//!
//! Moves file columns: `game, move, white, black, white_clock, black_clock, draw_offer,
//! flags`. Only the main line is written (comments, NAGs and variations are not part of
//! a scoresheet). After the moves, a row with the `unparsed` flag holds the verbatim
//! unread text (if any) in the `white` cell, and a last row with the `result` flag holds
//! the result token. See `docs/formats.md`.

use std::{borrow::Cow, io};

use super::{Board, MoveStyle, SEVEN_TAG_ROSTER, is_initial};
use crate::{
    color::Color,
    emit::WriteMoves,
    model::game::{Game, MoveNode, Variant},
};

/// Header of the moves file.
pub const MOVES_HEADER: [&str; 8] = [
    "game",
    "move",
    "white",
    "black",
    "white_clock",
    "black_clock",
    "draw_offer",
    "flags",
];

/// Header of `games.csv`: `game`, the Seven Tag Roster, then these tags, then the
/// start FEN (empty for the initial position), the status and the source.
pub const GAMES_EXTRA_TAGS: [&str; 5] = ["WhiteElo", "BlackElo", "ECO", "TimeControl", "Variant"];

/// Options of the scoresheet writer.
#[derive(Copy, Clone, Debug, Default)]
pub struct CsvOptions {
    /// Notation of the move cells (default canonical English SAN; FIDE style or another
    /// language through [`crate::notation::chess::SanStyle`]).
    pub moves: MoveStyle,
    /// Write cells as they are, also those a spreadsheet would run as a formula (by
    /// default they are [`neutralise`]d).
    pub raw_cells: bool,
}

/// A cell made safe to open in a spreadsheet (the OWASP rule against CSV injection):
/// a cell whose text after its leading `'`s begins with `=`, `+`, `-`, `@`, tab or
/// carriage return gets a leading `'`, which a spreadsheet shows as text and does not
/// run; a negative number (`-12`, `-0.5`) stays as it is. The scoresheet reader takes
/// the `'` off again ([`crate::archive::csv::unneutralise`]), so a sheet kyphu wrote
/// reads back unchanged. No SAN move, clock or result begins so; a null move (`--`)
/// does, and is written `'--`.
pub fn neutralise(cell: &str) -> Cow<'_, str> {
    if crate::archive::csv::starts_formula(cell.trim_start_matches('\''))
        && !is_negative_number(cell)
    {
        Cow::Owned(format!("'{cell}"))
    } else {
        Cow::Borrowed(cell)
    }
}

/// `-` then digits, with at most one `.` or `,` between digits.
fn is_negative_number(cell: &str) -> bool {
    let Some(digits) = cell.strip_prefix('-') else {
        return false;
    };
    let (int, frac) = digits.split_once(['.', ',']).unwrap_or((digits, "0"));
    [int, frac]
        .iter()
        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Writes games as scoresheet rows to one writer and, optionally, their header fields
/// to a second (`games.csv`). Games are numbered 1, 2, … in the order written.
#[derive(Debug)]
pub struct ScoresheetWriter<W: io::Write, G: io::Write> {
    moves: ::csv::Writer<W>,
    games: Option<::csv::Writer<G>>,
    opts: CsvOptions,
    count: u64,
    row: Row,
    /// The header rows are written.
    started: bool,
}

#[derive(Debug, Default)]
struct Row {
    open: bool,
    number: u32,
    white: String,
    black: String,
    white_clock: String,
    black_clock: String,
    draw: &'static str,
    flags: String,
}

impl Row {
    fn reset(&mut self, number: u32) {
        self.open = true;
        self.number = number;
        for s in [
            &mut self.white,
            &mut self.black,
            &mut self.white_clock,
            &mut self.black_clock,
            &mut self.flags,
        ] {
            s.clear();
        }
        self.draw = "";
    }

    fn flag(&mut self, f: &str) {
        if !self.flags.is_empty() {
            self.flags.push(';');
        }
        self.flags.push_str(f);
    }
}

impl<W: io::Write, G: io::Write> ScoresheetWriter<W, G> {
    /// `moves` receives the scoresheet rows, `games` (if any) one row of header fields
    /// per game. Both get their header row before the first game.
    pub fn new(moves: W, games: Option<G>, opts: CsvOptions) -> ScoresheetWriter<W, G> {
        ScoresheetWriter {
            moves: ::csv::Writer::from_writer(moves),
            games: games.map(::csv::Writer::from_writer),
            opts,
            count: 0,
            row: Row::default(),
            started: false,
        }
    }

    /// Writes one game.
    pub fn write_game(&mut self, game: &Game) -> io::Result<()> {
        self.start()?;
        self.count += 1;
        let no = self.count.to_string();
        if let Some(g) = &mut self.games {
            write_header_row(g, &no, game, self.opts.raw_cells)?;
        }
        self.write_moves(&no, game)
    }

    /// Writes text that is not a game (read between games, or not read as a game at
    /// all) as one row of the moves file: no game number, the text verbatim in the
    /// `white` cell, the flag `non-game`. See `docs/formats.md`.
    pub fn write_non_game(&mut self, text: &str) -> io::Result<()> {
        self.start()?;
        let text = self.cell(text.trim_end()).into_owned();
        self.moves
            .write_record(["", "", &text, "", "", "", "", "non-game"])?;
        Ok(())
    }

    /// The header rows, before the first row of either file.
    fn start(&mut self) -> io::Result<()> {
        if !self.started {
            self.started = true;
            self.moves.write_record(MOVES_HEADER)?;
            if let Some(g) = &mut self.games {
                let mut h: Vec<&str> = vec!["game"];
                h.extend(SEVEN_TAG_ROSTER);
                h.extend(GAMES_EXTRA_TAGS);
                h.extend(["start_fen", "status", "source_file", "source_game_index"]);
                g.write_record(&h)?;
            }
        }
        Ok(())
    }

    /// The rows of `game` in the moves file.
    fn write_moves(&mut self, no: &str, game: &Game) -> io::Result<()> {
        let no = no.to_owned();
        let mut board = Board::new(&game.start);
        self.row.open = false;
        for node in &game.moves.moves {
            self.add_move(&no, &mut board, node)?;
        }
        if self.row.open {
            self.flush_row(&no)?;
        }
        if let Some(u) = &game.unparsed {
            let u = self.cell(u);
            self.moves
                .write_record([no.as_str(), "", &u, "", "", "", "", "unparsed"])?;
        }
        self.moves.write_record([
            no.as_str(),
            "",
            game.result.as_str(),
            "",
            "",
            "",
            "",
            "result",
        ])?;
        Ok(())
    }

    /// A cell as written: [`neutralise`]d unless the options say raw.
    fn cell<'c>(&self, cell: &'c str) -> Cow<'c, str> {
        if self.opts.raw_cells {
            Cow::Borrowed(cell)
        } else {
            neutralise(cell)
        }
    }

    /// Flushes both writers.
    pub fn flush(&mut self) -> io::Result<()> {
        self.moves.flush()?;
        if let Some(g) = &mut self.games {
            g.flush()?;
        }
        Ok(())
    }

    /// Flushes and returns the moves writer and the games writer.
    ///
    /// (See [`ScoresheetWriter::take_moves`] to stream the rows of a writer into a
    /// `Vec` on, game by game.)
    pub fn into_inner(self) -> io::Result<(W, Option<G>)> {
        let moves = self.moves.into_inner().map_err(|e| e.into_error())?;
        let games = match self.games {
            Some(g) => Some(g.into_inner().map_err(|e| e.into_error())?),
            None => None,
        };
        Ok((moves, games))
    }

    fn add_move(&mut self, no: &str, board: &mut Board, node: &MoveNode) -> io::Result<()> {
        let white = board.turn() == Color::White;
        if white || !self.row.open {
            if self.row.open {
                self.flush_row(no)?;
            }
            self.row.reset(board.fullmoves());
            if !white {
                self.row.white.push_str("...");
            }
        }
        let (cell, clock) = if white {
            (&mut self.row.white, &mut self.row.white_clock)
        } else {
            (&mut self.row.black, &mut self.row.black_clock)
        };
        board.write_and_play(cell, &node.mv, &self.opts.moves);
        if let Some(c) = node.clock {
            use std::fmt::Write as _;
            let _ = write!(clock, "{c}");
        }
        if node.draw_offer {
            self.row.draw = if white { "white" } else { "black" };
        }
        if node.illegal {
            self.row.flag(if white {
                "illegal-white"
            } else {
                "illegal-black"
            });
        }
        if !white {
            self.flush_row(no)?;
        }
        Ok(())
    }

    fn flush_row(&mut self, no: &str) -> io::Result<()> {
        self.row.open = false;
        let r = &self.row;
        let num = itoa_buf(r.number);
        let raw = self.opts.raw_cells;
        let (white, black) = if raw {
            (
                Cow::Borrowed(r.white.as_str()),
                Cow::Borrowed(r.black.as_str()),
            )
        } else {
            (neutralise(&r.white), neutralise(&r.black))
        };
        self.moves.write_record([
            no.as_bytes(),
            num.as_bytes(),
            white.as_bytes(),
            black.as_bytes(),
            r.white_clock.as_bytes(),
            r.black_clock.as_bytes(),
            r.draw.as_bytes(),
            r.flags.as_bytes(),
        ])?;
        Ok(())
    }
}

impl<G: io::Write> ScoresheetWriter<Vec<u8>, G> {
    /// The rows written into the moves `Vec` since the last call, taken out of it: a
    /// caller writes them on after each game, so the output is never held whole.
    pub fn take_moves(&mut self) -> io::Result<Vec<u8>> {
        self.moves.flush()?;
        let done = std::mem::replace(
            &mut self.moves,
            ::csv::Writer::from_writer(Vec::with_capacity(4096)),
        );
        done.into_inner().map_err(|e| e.into_error())
    }
}

fn itoa_buf(n: u32) -> arrayvec::ArrayString<10> {
    use std::fmt::Write as _;
    let mut s = arrayvec::ArrayString::new();
    let _ = write!(s, "{n}");
    s
}

fn write_header_row<G: io::Write>(
    g: &mut ::csv::Writer<G>,
    no: &str,
    game: &Game,
    raw: bool,
) -> io::Result<()> {
    let mut rec: Vec<String> = vec![no.to_owned()];
    for name in SEVEN_TAG_ROSTER {
        rec.push(match name {
            "Result" => game.result.as_str().to_owned(),
            _ => game.tags.get(name).unwrap_or("").to_owned(),
        });
    }
    for name in GAMES_EXTRA_TAGS {
        rec.push(match (name, game.tags.get(name)) {
            // the variant replay settled on when the tag does not name it (it may be
            // empty, or the variant came from another tag such as `Game "Chinese
            // Chess"`)
            ("Variant", v)
                if game.variant != Variant::Chess
                    && !v.is_some_and(|v| names_variant(v, game.variant)) =>
            {
                game.variant.name().to_owned()
            }
            (_, Some(v)) => v.to_owned(),
            _ => String::new(),
        });
    }
    rec.push(if is_initial(&game.start) {
        String::new()
    } else {
        game.start.fen()
    });
    rec.push(format!("{:?}", game.status()).to_lowercase());
    rec.push(game.source.file.as_deref().unwrap_or("").to_owned());
    rec.push(game.source.game_index.to_string());
    if !raw {
        for cell in &mut rec {
            if let Cow::Owned(safe) = neutralise(cell) {
                *cell = safe;
            }
        }
    }
    g.write_record(&rec)?;
    Ok(())
}

/// Whether a `Variant` tag value names `variant` (as replay reads the tag).
fn names_variant(tag: &str, variant: Variant) -> bool {
    let lower = tag.trim().to_ascii_lowercase();
    match variant {
        Variant::Chess => false,
        Variant::Chess960 => lower.contains("960") || lower.contains("fischer"),
        Variant::Xiangqi => matches!(lower.as_str(), "xiangqi" | "chinese chess"),
    }
}

/// Renders games as a scoresheet (moves file, games file) pair of strings
/// (convenience for tests and small jobs).
pub fn to_csv_strings(games: &[&Game], opts: &CsvOptions) -> (String, String) {
    let mut m = Vec::new();
    let mut h = Vec::new();
    {
        let mut w = ScoresheetWriter::new(&mut m, Some(&mut h), *opts);
        for g in games {
            // Writing into a Vec cannot fail.
            let _ = w.write_game(g);
        }
        let _ = w.flush();
    }
    (
        String::from_utf8(m).unwrap_or_default(),
        String::from_utf8(h).unwrap_or_default(),
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::{
        chess::Position,
        model::diag::Span,
        model::game::{AnyMove, Clock, GameResult},
    };

    #[test]
    fn variant_tag_names() {
        let cases = [
            ("Chess960", Variant::Chess960, true),
            ("Fischerandom", Variant::Chess960, true),
            ("", Variant::Chess960, false),
            (" Xiangqi ", Variant::Xiangqi, true),
            ("Chinese Chess", Variant::Xiangqi, true),
            ("", Variant::Xiangqi, false),
            ("Standard", Variant::Xiangqi, false),
        ];
        for (tag, variant, want) in cases {
            assert_eq!(names_variant(tag, variant), want, "{tag:?} {variant:?}");
        }
    }

    #[test]
    fn rows_per_move_number() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 10";
        let pos = Position::from_fen(fen).unwrap();
        let mut g = crate::model::game::Game::new(
            crate::model::game::Variant::Chess,
            crate::model::game::StartPosition::Chess(Box::new(pos.clone())),
        );
        let mut p = pos;
        for (uci, clock, draw) in [("e8d7", Some(60_000), true), ("e2e4", None, false)] {
            let m = *p
                .legal_moves()
                .iter()
                .find(|m| m.uci(false) == uci)
                .unwrap();
            let mut n = MoveNode::new(AnyMove::Chess(m), Span::default());
            n.clock = clock.map(|millis| Clock { millis });
            n.draw_offer = draw;
            p.play_unchecked(&m);
            g.moves.moves.push(n);
        }
        g.result = GameResult::Draw;
        let (moves, games) = to_csv_strings(&[&g], &CsvOptions::default());
        assert_eq!(
            moves,
            "game,move,white,black,white_clock,black_clock,draw_offer,flags\n\
             1,10,...,Kd7,,0:01:00,black,\n1,11,e4,,,,,\n1,,1/2-1/2,,,,,result\n"
        );
        assert!(games.lines().nth(1).unwrap().contains(fen), "{games}");
    }
}
