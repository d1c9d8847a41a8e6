//! Xiangqi FEN, in the common (UCCI / WXF / Fairy-Stockfish) form:
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! Ranks are listed from Black's side (rank 9) down to Red's (rank 0); Red is upper
//! case. Reading accepts `e`/`h` for elephant/horse, `r` for Red to move, and tolerates
//! missing trailing fields (side, the two `-` placeholders, the counters).

use std::fmt;

use super::{
    position::{Attack, Position, attack_on},
    types::{Piece, Role, Square},
};
use crate::color::Color;

/// Which field of a FEN an error concerns, for messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FenField {
    Board,
    Side,
    Placeholder,
    Halfmoves,
    Fullmoves,
    /// After the last field.
    End,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Board => "board",
            FenField::Side => "side to move",
            FenField::Placeholder => "placeholder",
            FenField::Halfmoves => "halfmove clock",
            FenField::Fullmoves => "move number",
            FenField::End => "end",
        })
    }
}

/// Why a FEN was refused. Ranks are board ranks, 0 (Red's side) to 9 (Black's side);
/// in the FEN text rank 9 is the first segment.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// The board field does not have 10 ranks separated by `/`.
    RankCount { found: usize },
    /// A rank does not describe exactly 9 points.
    RankWidth { rank: u8, found: u32 },
    /// A character that is neither a piece letter nor a digit 1–9.
    BadChar { rank: u8, found: char },
    /// A side has no general.
    MissingGeneral { color: Color },
    /// A side has two generals (or more; the first two are given).
    DuplicateGeneral {
        color: Color,
        first: Square,
        second: Square,
    },
    /// More pieces of a kind than a side starts with.
    TooManyPieces { piece: Piece, max: u8, found: u8 },
    /// A piece on a point it can never reach (general or advisor outside its palace
    /// points, elephant off its 7 points, soldier behind its start rank or on a point
    /// beside its start points before the river).
    PieceOutsidePoints { piece: Piece, square: Square },
    /// The two generals face each other on an open file.
    GeneralsFacing { file: u8 },
    /// The side not to move is in check (it would have been captured).
    OpponentInCheck { color: Color },
    /// The side to move is not `w`, `r` or `b`.
    BadSide { found: String },
    /// A placeholder field (castling, en passant in chess) is not `-`.
    BadPlaceholder { found: String },
    /// The halfmove clock is not a non-negative integer.
    BadHalfmoves { found: String },
    /// The move number is not a positive integer.
    BadFullmoves { found: String },
    /// Text after the last field.
    TrailingFields { found: String },
}

impl FenError {
    /// The field the error concerns.
    pub fn field(&self) -> FenField {
        match self {
            FenError::BadSide { .. } => FenField::Side,
            FenError::BadPlaceholder { .. } => FenField::Placeholder,
            FenError::TrailingFields { .. } => FenField::End,
            FenError::BadHalfmoves { .. } => FenField::Halfmoves,
            FenError::BadFullmoves { .. } => FenField::Fullmoves,
            _ => FenField::Board,
        }
    }
}

fn side_name(c: Color) -> &'static str {
    c.fold("red", "black")
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "fen: expected a board, found nothing"),
            FenError::RankCount { found } => {
                write!(
                    f,
                    "fen board: expected 10 ranks separated by `/`, found {found}"
                )
            }
            FenError::RankWidth { rank, found } => {
                write!(
                    f,
                    "fen board, rank {rank}: expected 9 points, found {found}"
                )
            }
            FenError::BadChar { rank, found } => write!(
                f,
                "fen board, rank {rank}: expected a piece letter (kabnrcp, eh) or a digit 1-9, found `{found}`"
            ),
            FenError::MissingGeneral { color } => {
                write!(
                    f,
                    "fen board: expected one {} general, found none",
                    side_name(*color)
                )
            }
            FenError::DuplicateGeneral {
                color,
                first,
                second,
            } => write!(
                f,
                "fen board: expected one {} general, found two ({first} and {second})",
                side_name(*color)
            ),
            FenError::TooManyPieces { piece, max, found } => write!(
                f,
                "fen board: expected at most {max} {} {}, found {found}",
                side_name(piece.color),
                piece.role
            ),
            FenError::PieceOutsidePoints { piece, square } => write!(
                f,
                "fen board: a {} {} can never stand on {square}",
                side_name(piece.color),
                piece.role
            ),
            FenError::GeneralsFacing { file } => write!(
                f,
                "fen board: the generals face each other on the open {} file",
                char::from(b'a' + file)
            ),
            FenError::OpponentInCheck { color } => write!(
                f,
                "fen: the {} general is in check but it is not {} to move",
                side_name(*color),
                side_name(*color)
            ),
            FenError::BadSide { found } => {
                write!(
                    f,
                    "fen side to move: expected `w`, `r` or `b`, found `{found}`"
                )
            }
            FenError::BadPlaceholder { found } => {
                write!(f, "fen placeholder field: expected `-`, found `{found}`")
            }
            FenError::BadHalfmoves { found } => {
                write!(f, "fen halfmove clock: expected a number, found `{found}`")
            }
            FenError::BadFullmoves { found } => {
                write!(
                    f,
                    "fen move number: expected a number from 1, found `{found}`"
                )
            }
            FenError::TrailingFields { found } => {
                write!(
                    f,
                    "fen: expected the end after the move number, found `{found}`"
                )
            }
        }
    }
}

impl std::error::Error for FenError {}

/// The most pieces of each role a side has at the start.
const fn max_count(role: Role) -> u8 {
    match role {
        Role::General => 1,
        Role::Soldier => 5,
        _ => 2,
    }
}

/// Can `piece` ever stand on `sq`?
pub(super) fn point_allowed(piece: Piece, sq: Square) -> bool {
    let c = piece.color;
    let (f, r) = (sq.file(), sq.rank());
    // Ranks counted from the piece's own side.
    let own_r = c.fold(r, 9 - r);
    match piece.role {
        Role::General => sq.in_palace(c),
        Role::Advisor => sq.in_palace(c) && (f + own_r) % 2 == 1,
        Role::Elephant => {
            sq.on_own_side(c)
                && own_r.is_multiple_of(2)
                && f.is_multiple_of(2)
                && (f + own_r) % 4 == 2
        }
        Role::Soldier => own_r >= 5 || (own_r >= 3 && f.is_multiple_of(2)),
        Role::Horse | Role::Chariot | Role::Cannon => true,
    }
}

fn parse_board(field: &str) -> Result<[Option<Piece>; Square::COUNT], FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 10 {
        return Err(FenError::RankCount { found: ranks.len() });
    }
    let mut board = [None; Square::COUNT];
    for (i, text) in ranks.iter().enumerate() {
        let rank = 9 - i as u8;
        let mut file: u32 = 0;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                file = file.saturating_add(d);
            } else if let Some(p) = Piece::from_fen_char(ch) {
                if let Some(sq) = u8::try_from(file).ok().and_then(|f| Square::new(f, rank)) {
                    board[sq.index() as usize] = Some(p);
                }
                file = file.saturating_add(1);
            } else {
                return Err(FenError::BadChar { rank, found: ch });
            }
        }
        if file != 9 {
            return Err(FenError::RankWidth { rank, found: file });
        }
    }
    Ok(board)
}

fn validate(board: &[Option<Piece>; Square::COUNT], turn: Color) -> Result<(), FenError> {
    let mut counts = [[0u8; 7]; 2];
    let mut generals: [Option<Square>; 2] = [None; 2];
    for s in Square::all() {
        let Some(p) = board[s.index() as usize] else {
            continue;
        };
        if p.role == Role::General {
            if let Some(first) = generals[p.color.index()] {
                return Err(FenError::DuplicateGeneral {
                    color: p.color,
                    first,
                    second: s,
                });
            }
            generals[p.color.index()] = Some(s);
        }
        let n = &mut counts[p.color.index()][p.role.index()];
        *n += 1;
        if *n > max_count(p.role) {
            // Count them all for the message.
            let found = board.iter().filter(|q| **q == Some(p)).count();
            return Err(FenError::TooManyPieces {
                piece: p,
                max: max_count(p.role),
                found: u8::try_from(found).unwrap_or(u8::MAX),
            });
        }
    }
    let mut gs = [Square::default(); 2];
    for c in Color::ALL {
        match generals[c.index()] {
            Some(s) => gs[c.index()] = s,
            None => return Err(FenError::MissingGeneral { color: c }),
        }
    }
    for s in Square::all() {
        if let Some(p) = board[s.index() as usize]
            && !point_allowed(p, s)
        {
            return Err(FenError::PieceOutsidePoints {
                piece: p,
                square: s,
            });
        }
    }
    let them = turn.other();
    match attack_on(board, gs[them.index()].index() as usize, them) {
        Attack::None => Ok(()),
        Attack::Facing => Err(FenError::GeneralsFacing { file: gs[0].file() }),
        Attack::Piece => Err(FenError::OpponentInCheck { color: them }),
    }
}

impl Position {
    /// Reads a FEN in the common form (Red upper case, ranks from Black's side;
    /// `e`/`h` letters, `r` for Red and missing trailing fields accepted), validating
    /// the position.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_ascii_whitespace().peekable();
        let board = parse_board(fields.next().ok_or(FenError::Empty)?)?;
        let turn = match fields.next() {
            None | Some("w" | "W" | "r" | "R") => Color::White,
            Some("b" | "B") => Color::Black,
            Some(s) => {
                return Err(FenError::BadSide {
                    found: s.to_owned(),
                });
            }
        };
        // Up to two `-` placeholders (castling, en passant), which some writers omit.
        for _ in 0..2 {
            match fields.peek() {
                Some(&"-") => {
                    fields.next();
                }
                Some(s) if s.parse::<u32>().is_err() => {
                    return Err(FenError::BadPlaceholder {
                        found: (*s).to_owned(),
                    });
                }
                _ => break,
            }
        }
        let halfmoves = match fields.next() {
            None => 0,
            Some(s) => s.parse::<u32>().map_err(|_| FenError::BadHalfmoves {
                found: s.to_owned(),
            })?,
        };
        let fullmoves = match fields.next() {
            None => 1,
            Some(s) => match s.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => {
                    return Err(FenError::BadFullmoves {
                        found: s.to_owned(),
                    });
                }
            },
        };
        if let Some(s) = fields.next() {
            return Err(FenError::TrailingFields {
                found: s.to_owned(),
            });
        }
        validate(&board, turn)?;
        Ok(Position::from_board(board, turn, halfmoves, fullmoves))
    }

    /// The FEN: ranks from Black's side (rank 9) down, Red upper case, with the
    /// common letters (`kabnrcp`) and `w`/`b` for the side to move.
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match Square::new(file, rank).and_then(|sq| self.piece_at(sq)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.turn.char());
        s.push_str(&format!(" - - {} {}", self.halfmoves, self.fullmoves));
        s
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap
mod tests {
    use super::*;
    use crate::xiangqi::START_FEN;

    fn sq(s: &str) -> Square {
        Square::parse_iccs(s).unwrap()
    }

    const R: Color = Color::White;
    const B: Color = Color::Black;

    fn piece(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    #[test]
    fn round_trips_and_aliases() {
        let cases: &[(&str, &str)] = &[
            (START_FEN, START_FEN),
            // Aliases: e/h letters, r for Red, missing fields.
            (
                "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r",
                START_FEN,
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
                START_FEN,
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 0 1",
                START_FEN,
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7",
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 1",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 b - - 12 40",
                "3k5/9/9/9/9/9/9/9/9/4K4 b - - 12 40",
            ),
        ];
        for (input, want) in cases {
            let p = Position::from_fen(input).unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(p.fen(), *want, "{input}");
            assert_eq!(Position::from_fen(&p.fen()).unwrap(), p);
        }
        let p: Position = START_FEN.parse().unwrap();
        assert_eq!(p.piece_at(sq("b2")), Some(piece(R, Role::Cannon)));
        assert_eq!(p.piece_at(sq("e9")), Some(piece(B, Role::General)));
        assert_eq!(p.general(B), sq("e9"));
    }

    #[test]
    fn every_error() {
        let start_board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        let with = |tail: &str| format!("{start_board} {tail}");
        let cases: Vec<(String, FenError, &str)> = vec![
            (
                "".into(),
                FenError::Empty,
                "fen: expected a board, found nothing",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w".into(),
                FenError::RankCount { found: 9 },
                "fen board: expected 10 ranks separated by `/`, found 9",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR".into(),
                FenError::RankWidth { rank: 0, found: 10 },
                "fen board, rank 0: expected 9 points, found 10",
            ),
            (
                "rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR".into(),
                FenError::RankWidth { rank: 8, found: 8 },
                "fen board, rank 8: expected 9 points, found 8",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKQBNR".into(),
                FenError::BadChar {
                    rank: 0,
                    found: 'Q',
                },
                "fen board, rank 0: expected a piece letter (kabnrcp, eh) or a digit 1-9, found `Q`",
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA0ABNR".into(),
                FenError::BadChar {
                    rank: 0,
                    found: '0',
                },
                "fen board, rank 0: expected a piece letter (kabnrcp, eh) or a digit 1-9, found `0`",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/9".into(),
                FenError::MissingGeneral { color: R },
                "fen board: expected one red general, found none",
            ),
            (
                "9/9/9/9/9/9/9/9/9/4K4".into(),
                FenError::MissingGeneral { color: B },
                "fen board: expected one black general, found none",
            ),
            (
                "3k5/9/9/9/9/9/9/9/4K4/3K5".into(),
                FenError::DuplicateGeneral {
                    color: R,
                    first: sq("d0"),
                    second: sq("e1"),
                },
                "fen board: expected one red general, found two (d0 and e1)",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/RRR1K4".into(),
                FenError::TooManyPieces {
                    piece: piece(R, Role::Chariot),
                    max: 2,
                    found: 3,
                },
                "fen board: expected at most 2 red chariot, found 3",
            ),
            (
                "3k5/9/9/pppppp3/9/9/9/9/9/4K4".into(),
                FenError::TooManyPieces {
                    piece: piece(B, Role::Soldier),
                    max: 5,
                    found: 6,
                },
                "fen board: expected at most 5 black soldier, found 6",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/3KA4".into(),
                FenError::PieceOutsidePoints {
                    piece: piece(R, Role::Advisor),
                    square: sq("e0"),
                },
                "fen board: a red advisor can never stand on e0",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/2A1K4".into(),
                FenError::PieceOutsidePoints {
                    piece: piece(R, Role::Advisor),
                    square: sq("c0"),
                },
                "fen board: a red advisor can never stand on c0",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/1B2K4".into(),
                FenError::PieceOutsidePoints {
                    piece: piece(R, Role::Elephant),
                    square: sq("b0"),
                },
                "fen board: a red elephant can never stand on b0",
            ),
            (
                "3k5/9/9/9/2B6/9/9/9/9/4K4".into(),
                FenError::PieceOutsidePoints {
                    piece: piece(R, Role::Elephant),
                    square: sq("c5"),
                },
                "fen board: a red elephant can never stand on c5",
            ),
            (
                "3k5/9/9/9/9/9/9/9/P8/4K4".into(),
                FenError::PieceOutsidePoints {
                    piece: piece(R, Role::Soldier),
                    square: sq("a1"),
                },
                "fen board: a red soldier can never stand on a1",
            ),
            (
                "3k5/9/9/9/9/9/1P7/9/9/4K4".into(),
                FenError::PieceOutsidePoints {
                    piece: piece(R, Role::Soldier),
                    square: sq("b3"),
                },
                "fen board: a red soldier can never stand on b3",
            ),
            (
                "3k5/p8/9/9/9/9/9/9/9/4K4".into(),
                FenError::PieceOutsidePoints {
                    piece: piece(B, Role::Soldier),
                    square: sq("a8"),
                },
                "fen board: a black soldier can never stand on a8",
            ),
            (
                "3k4K/9/9/9/9/9/9/9/9/9".into(),
                FenError::PieceOutsidePoints {
                    piece: piece(R, Role::General),
                    square: sq("i9"),
                },
                "fen board: a red general can never stand on i9",
            ),
            (
                "9/9/9/9/9/9/9/4k4/9/4K4".into(),
                FenError::PieceOutsidePoints {
                    piece: piece(B, Role::General),
                    square: sq("e2"),
                },
                "fen board: a black general can never stand on e2",
            ),
            (
                "4k4/9/9/9/9/9/9/9/9/4K4".into(),
                FenError::GeneralsFacing { file: 4 },
                "fen board: the generals face each other on the open e file",
            ),
            (
                "4k4/9/9/9/9/9/9/9/9/4K3R b".into(),
                FenError::GeneralsFacing { file: 4 },
                "fen board: the generals face each other on the open e file",
            ),
            (
                "4k3R/9/9/9/9/9/9/9/9/3K5 w".into(),
                FenError::OpponentInCheck { color: B },
                "fen: the black general is in check but it is not black to move",
            ),
            (
                with("x"),
                FenError::BadSide { found: "x".into() },
                "fen side to move: expected `w`, `r` or `b`, found `x`",
            ),
            (
                with("w KQ - 0 1"),
                FenError::BadPlaceholder { found: "KQ".into() },
                "fen placeholder field: expected `-`, found `KQ`",
            ),
            (
                with("w - - -1 1"),
                FenError::BadHalfmoves { found: "-1".into() },
                "fen halfmove clock: expected a number, found `-1`",
            ),
            (
                with("w x 5 1"),
                FenError::BadPlaceholder { found: "x".into() },
                "fen placeholder field: expected `-`, found `x`",
            ),
            (
                with("w - - 5 x"),
                FenError::BadFullmoves { found: "x".into() },
                "fen move number: expected a number from 1, found `x`",
            ),
            (
                with("w - - 5 0"),
                FenError::BadFullmoves { found: "0".into() },
                "fen move number: expected a number from 1, found `0`",
            ),
            (
                with("w - - 5 1 extra"),
                FenError::TrailingFields {
                    found: "extra".into(),
                },
                "fen: expected the end after the move number, found `extra`",
            ),
        ];
        for (fen, err, msg) in cases {
            let got = Position::from_fen(&fen).unwrap_err();
            assert_eq!(got, err, "{fen}");
            assert_eq!(got.to_string(), msg, "{fen}");
        }
        // The halfmove clock must be a number once both placeholders are given.
        let got = Position::from_fen(&with("w - - 99999999999 1")).unwrap_err();
        assert_eq!(
            got,
            FenError::BadHalfmoves {
                found: "99999999999".into()
            }
        );
        assert_eq!(got.field(), FenField::Halfmoves);
        assert_eq!(
            FenError::BadSide {
                found: String::new()
            }
            .field(),
            FenField::Side
        );
    }

    #[test]
    fn allowed_points() {
        let count = |c: Color, role: Role| {
            Square::all()
                .filter(|&s| point_allowed(piece(c, role), s))
                .count()
        };
        for c in Color::ALL {
            assert_eq!(count(c, Role::General), 9);
            assert_eq!(count(c, Role::Advisor), 5);
            assert_eq!(count(c, Role::Elephant), 7);
            assert_eq!(count(c, Role::Soldier), 55);
            assert_eq!(count(c, Role::Chariot), 90);
        }
        for s in ["c0", "g0", "a2", "e2", "i2", "c4", "g4"] {
            assert!(point_allowed(piece(R, Role::Elephant), sq(s)), "{s}");
        }
        for s in ["c9", "g9", "a7", "e7", "i7", "c5", "g5"] {
            assert!(point_allowed(piece(B, Role::Elephant), sq(s)), "{s}");
        }
        for s in ["d9", "f9", "e8", "d7", "f7"] {
            assert!(point_allowed(piece(B, Role::Advisor), sq(s)), "{s}");
        }
    }
}
