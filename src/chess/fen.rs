//! FEN (Forsyth–Edwards Notation) reading and writing, with X-FEN and Shredder-FEN
//! castling rights for chess960.

use std::fmt;

use super::{
    bitboard::Bitboard,
    position::{Castles, Position},
    types::{CastlingSide, File, Piece, Rank, Role, Square},
};
use crate::color::Color;

/// The initial position of standard chess.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A FEN field, numbered as in the PGN standard (16.1.3).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FenField {
    Placement = 1,
    Turn = 2,
    Castling = 3,
    EnPassant = 4,
    HalfMoves = 5,
    FullMoves = 6,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            FenField::Placement => "piece placement",
            FenField::Turn => "side to move",
            FenField::Castling => "castling rights",
            FenField::EnPassant => "en passant square",
            FenField::HalfMoves => "halfmove clock",
            FenField::FullMoves => "fullmove number",
        };
        write!(f, "field {} ({name})", *self as u8)
    }
}

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// A required field is missing.
    MissingField(FenField),
    /// More than six fields.
    TrailingInput { found: String },
    /// The placement has a number of ranks other than 8.
    RankCount { found: usize },
    /// A rank (8 = first written) covers a number of squares other than 8.
    RankLength { rank: char, squares: usize },
    /// A character that is neither a piece letter nor a digit 1–8.
    PlacementChar { rank: char, found: char },
    /// The side to move is not `w` or `b`.
    Turn { found: String },
    /// A castling character is not one of `KQkqA-Ha-h` or `-`.
    CastlingChar { found: char },
    /// A castling right names no rook, or the king is not on its first rank.
    CastlingRight { right: char, reason: &'static str },
    /// The en passant field is not `-` or a square on the right rank.
    EnPassant { found: String, reason: &'static str },
    /// A clock is not a number (or the fullmove number is 0).
    Number { field: FenField, found: String },
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings(Color),
    /// A pawn stands on the first or eighth rank.
    PawnOnBackRank(Square),
    /// A side has more than 16 pieces or more than 8 pawns.
    TooMuchMaterial(Color),
    /// The side that is not to move is in check.
    OppositeCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenField::*;
        match self {
            FenError::Empty => write!(f, "empty fen, expected six fields such as `{START_FEN}`"),
            FenError::MissingField(field) => write!(f, "fen {field} is missing"),
            FenError::TrailingInput { found } => {
                write!(f, "fen has unexpected text after field 6: `{found}`")
            }
            FenError::RankCount { found } => write!(
                f,
                "fen {Placement}: expected 8 ranks separated by `/`, found {found}"
            ),
            FenError::RankLength { rank, squares } => write!(
                f,
                "fen {Placement}: rank {rank} covers {squares} squares, expected 8"
            ),
            FenError::PlacementChar { rank, found } => write!(
                f,
                "fen {Placement}: rank {rank}: expected a piece letter (KQRBNP, kqrbnp) or a digit 1-8, found `{found}`"
            ),
            FenError::Turn { found } => {
                write!(f, "fen {Turn}: expected `w` or `b`, found `{found}`")
            }
            FenError::CastlingChar { found } => write!(
                f,
                "fen {Castling}: expected `-` or letters from KQkq and A-H/a-h, found `{found}`"
            ),
            FenError::CastlingRight { right, reason } => {
                write!(f, "fen {Castling}: right `{right}`: {reason}")
            }
            FenError::EnPassant { found, reason } => {
                write!(f, "fen {EnPassant}: `{found}`: {reason}")
            }
            FenError::Number { field, found } => {
                let expected = if *field == FullMoves {
                    "a whole number from 1"
                } else {
                    "a whole number"
                };
                write!(f, "fen {field}: expected {expected}, found `{found}`")
            }
            FenError::MissingKing(c) => write!(f, "fen {Placement}: {c} has no king"),
            FenError::TooManyKings(c) => write!(f, "fen {Placement}: {c} has more than one king"),
            FenError::PawnOnBackRank(sq) => write!(
                f,
                "fen {Placement}: pawn on {sq}, but pawns cannot stand on the first or last rank"
            ),
            FenError::TooMuchMaterial(c) => write!(
                f,
                "fen {Placement}: {c} has more than 16 pieces or more than 8 pawns"
            ),
            FenError::OppositeCheck => write!(
                f,
                "fen {Turn}: the side not to move is in check, so this position cannot arise"
            ),
        }
    }
}

impl std::error::Error for FenError {}

/// How castling rights are written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum CastlingNotation {
    /// `KQkq`, with a file letter only where the rook is not the outermost one (X-FEN).
    #[default]
    XFen,
    /// Always the rook's file letter (`HAha`), as Shredder writes chess960.
    Shredder,
}

impl Position {
    /// Reads a standard-chess FEN. Fields 3 to 6 may be missing (`-`, `-`, `0`, `1`).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Self::parse_fen(fen, false)
    }

    /// Reads a chess960 FEN, with X-FEN (`KQkq`, outer rook) or Shredder-FEN (`HAha`)
    /// castling rights.
    pub fn from_fen_chess960(fen: &str) -> Result<Position, FenError> {
        Self::parse_fen(fen, true)
    }

    fn parse_fen(fen: &str, chess960: bool) -> Result<Position, FenError> {
        let mut fields = fen.split_ascii_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let mut pos = Position::empty();
        pos.chess960 = chess960;
        parse_placement(&mut pos, placement)?;
        let turn = fields
            .next()
            .ok_or(FenError::MissingField(FenField::Turn))?;
        pos.turn = match turn {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            _ => {
                return Err(FenError::Turn {
                    found: turn.to_owned(),
                });
            }
        };
        validate_material(&pos)?;
        if let Some(castling) = fields.next() {
            parse_castling(&mut pos, castling)?;
        }
        if let Some(ep) = fields.next() {
            parse_ep(&mut pos, ep)?;
        }
        if let Some(half) = fields.next() {
            pos.halfmoves = parse_number(FenField::HalfMoves, half)?;
        }
        if let Some(full) = fields.next() {
            pos.fullmoves = parse_number(FenField::FullMoves, full)?;
            if pos.fullmoves == 0 {
                return Err(FenError::Number {
                    field: FenField::FullMoves,
                    found: full.to_owned(),
                });
            }
        }
        let rest: Vec<&str> = fields.collect();
        if !rest.is_empty() {
            return Err(FenError::TrailingInput {
                found: rest.join(" "),
            });
        }
        let them = pos.turn.other();
        if let Some(k) = pos.king_of(them)
            && pos.attackers_to(k, pos.turn, pos.occupied()).any()
        {
            return Err(FenError::OppositeCheck);
        }
        pos.refresh_checkers();
        Ok(pos)
    }

    /// The FEN, castling rights in X-FEN form.
    pub fn fen(&self) -> String {
        self.fen_with(CastlingNotation::XFen)
    }

    /// The FEN with the chosen castling notation (only matters for chess960).
    pub fn fen_with(&self, notation: CastlingNotation) -> String {
        let mut s = String::with_capacity(90);
        self.write_placement(&mut s);
        s.push(' ');
        s.push(self.turn.char());
        s.push(' ');
        let len = s.len();
        for color in Color::ALL {
            for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                if let Some(rook) = self.castles.rook(color, side) {
                    let c = self.castling_char(color, side, rook, notation);
                    s.push(color.fold(c.to_ascii_uppercase(), c));
                }
            }
        }
        if s.len() == len {
            s.push('-');
        }
        s.push(' ');
        match self.ep_square {
            Some(ep) => {
                s.push(ep.file().char());
                s.push(ep.rank().char());
            }
            None => s.push('-'),
        }
        s.push(' ');
        s.push_str(itoa::Buffer::new().format(self.halfmoves));
        s.push(' ');
        s.push_str(itoa::Buffer::new().format(self.fullmoves));
        s
    }

    /// The piece placement field only (also used as a board key).
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(72);
        self.write_placement(&mut s);
        s
    }

    /// Appends the piece placement field: the letter of each square's piece taken from
    /// the twelve bitboards into a table at once (as [`Position::piece_at`] finds it:
    /// White before Black, the first role), then the ranks written from the table
    /// into a fixed array appended with one copy.
    fn write_placement(&self, s: &mut String) {
        let mut letters = [0u8; 64];
        // later pieces written over earlier ones: Black, then White; the roles last
        // to first
        for color in [Color::Black, Color::White] {
            for &role in Role::ALL.iter().rev() {
                // ASCII: a FEN letter
                let c = u8::try_from(Piece { color, role }.char()).unwrap_or(b'?');
                for sq in self.by_color[color.index()] & self.by_role[role.index()] {
                    if let Some(l) = letters.get_mut(usize::from(sq.index())) {
                        *l = c;
                    }
                }
            }
        }
        // the squares with a letter, rank by rank: the letters, and the number of
        // empty squares before each and after the last
        let roles = self.by_role.iter().fold(Bitboard::EMPTY, |a, &r| a | r);
        let lettered = (self.occupied() & roles).0;
        // eight letters a rank and seven `/` at most
        let mut out = [0u8; 71];
        let mut n = 0;
        let mut put = |c: u8| {
            if let Some(o) = out.get_mut(n) {
                *o = c;
            }
            n += 1;
        };
        for (i, rank) in letters.chunks_exact(8).enumerate().rev() {
            if i < 7 {
                put(b'/');
            }
            let mut squares = (lettered >> (8 * i)) & 0xFF;
            // the file after the last letter written
            let mut next = 0;
            while squares != 0 {
                let file = squares.trailing_zeros() as usize;
                squares &= squares - 1;
                if file > next {
                    put(b'0' + (file - next) as u8);
                }
                put(rank.get(file).copied().unwrap_or_default());
                next = file + 1;
            }
            if next < 8 {
                put(b'0' + (8 - next) as u8);
            }
        }
        // the bytes written are ASCII
        s.push_str(std::str::from_utf8(out.get(..n).unwrap_or(&[])).unwrap_or_default());
    }

    fn castling_char(
        &self,
        color: Color,
        side: CastlingSide,
        rook: Square,
        notation: CastlingNotation,
    ) -> char {
        let outer = self.outermost_rook(color, side);
        let standard_letter = match side {
            CastlingSide::KingSide => 'k',
            CastlingSide::QueenSide => 'q',
        };
        if !self.chess960 || (notation == CastlingNotation::XFen && outer == Some(rook)) {
            standard_letter
        } else {
            rook.file().char()
        }
    }

    /// The rook of `color` furthest from its king toward `side` on the first rank.
    fn outermost_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        let king = self.king_of(color)?;
        let rank = Rank::FIRST.relative(color);
        if king.rank() != rank {
            return None;
        }
        let rooks = self.by_piece(Piece {
            color,
            role: Role::Rook,
        }) & Bitboard::rank(rank);
        match side {
            CastlingSide::KingSide => rooks.filter(|r| r.file() > king.file()).last(),
            CastlingSide::QueenSide => rooks.into_iter().find(|r| r.file() < king.file()),
        }
    }
}

fn parse_placement(pos: &mut Position, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount { found: ranks.len() });
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank_index = 7 - i as u8;
        let rank_char = char::from(b'1' + rank_index);
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
            } else if c == '~' {
                // X-FEN promoted-piece marker (crazyhouse): no meaning here.
            } else if let Some(piece) = Piece::from_char(c).filter(|_| c.is_ascii_alphabetic()) {
                if file < 8 {
                    let sq = Square::from_coords(
                        File::new(file as u8).unwrap_or(File::A),
                        Rank::new(rank_index).unwrap_or(Rank::FIRST),
                    );
                    pos.put(sq, piece);
                }
                file += 1;
            } else {
                return Err(FenError::PlacementChar {
                    rank: rank_char,
                    found: c,
                });
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank_char,
                squares: file,
            });
        }
    }
    Ok(())
}

fn validate_material(pos: &Position) -> Result<(), FenError> {
    for color in Color::ALL {
        let kings = pos
            .by_piece(Piece {
                color,
                role: Role::King,
            })
            .count();
        if kings == 0 {
            return Err(FenError::MissingKing(color));
        }
        if kings > 1 {
            return Err(FenError::TooManyKings(color));
        }
        let pawns = pos
            .by_piece(Piece {
                color,
                role: Role::Pawn,
            })
            .count();
        if pos.by_color(color).count() > 16 || pawns > 8 {
            return Err(FenError::TooMuchMaterial(color));
        }
    }
    let back_ranks = Bitboard::rank(Rank::FIRST) | Bitboard::rank(Rank::EIGHTH);
    if let Some(sq) = (pos.by_role(Role::Pawn) & back_ranks).first() {
        return Err(FenError::PawnOnBackRank(sq));
    }
    Ok(())
}

fn parse_castling(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let mut castles = Castles::default();
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = Rank::FIRST.relative(color);
        let king =
            pos.king_of(color)
                .filter(|k| k.rank() == rank)
                .ok_or(FenError::CastlingRight {
                    right: c,
                    reason: "the king is not on its first rank",
                })?;
        let lower = c.to_ascii_lowercase();
        let (side, rook) = match lower {
            'k' | 'q' => {
                let side = if lower == 'k' {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                let rook = pos
                    .outermost_rook(color, side)
                    .ok_or(FenError::CastlingRight {
                        right: c,
                        reason: "there is no rook on that side of the king",
                    })?;
                (side, rook)
            }
            'a'..='h' => {
                let file = File::from_char(lower).unwrap_or(File::A);
                let rook = Square::from_coords(file, rank);
                if pos.piece_at(rook)
                    != Some(Piece {
                        color,
                        role: Role::Rook,
                    })
                {
                    return Err(FenError::CastlingRight {
                        right: c,
                        reason: "there is no rook of that colour on that file's first-rank square",
                    });
                }
                if file == king.file() {
                    return Err(FenError::CastlingRight {
                        right: c,
                        reason: "the rook cannot stand on the king's file",
                    });
                }
                let side = if file > king.file() {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                (side, rook)
            }
            _ => return Err(FenError::CastlingChar { found: c }),
        };
        if castles.has(color, side) {
            return Err(FenError::CastlingRight {
                right: c,
                reason: "a right for that side is given twice",
            });
        }
        if !pos.chess960 {
            let corner = match side {
                CastlingSide::KingSide => File::H,
                CastlingSide::QueenSide => File::A,
            };
            if king.file() != File::E || rook.file() != corner {
                return Err(FenError::CastlingRight {
                    right: c,
                    reason: "standard chess needs the king on the e-file and the rook in the corner (read it as chess960 otherwise)",
                });
            }
        }
        castles.set(color, side, Some(rook));
    }
    pos.castles = castles;
    Ok(())
}

fn parse_ep(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let err = |reason| FenError::EnPassant {
        found: field.to_owned(),
        reason,
    };
    let sq = Square::parse(field).ok_or(err("expected `-` or a square such as e3"))?;
    let color = pos.turn;
    if sq.rank() != Rank::SIXTH.relative(color) {
        return Err(err(if color == Color::White {
            "with white to move the square must be on rank 6"
        } else {
            "with black to move the square must be on rank 3"
        }));
    }
    let pawn_sq = sq.offset(color.fold(-8, 8));
    let origin = sq.offset(color.fold(8, -8));
    let them = color.other();
    let pawn_ok = pawn_sq.is_some_and(|p| {
        pos.piece_at(p)
            == Some(Piece {
                color: them,
                role: Role::Pawn,
            })
    });
    let empty_ok = pos.piece_at(sq).is_none() && origin.is_some_and(|o| pos.piece_at(o).is_none());
    if !pawn_ok || !empty_ok {
        return Err(err("no pawn can have just advanced two squares past it"));
    }
    pos.ep_square = Some(sq);
    Ok(())
}

fn parse_number(field: FenField, text: &str) -> Result<u32, FenError> {
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenError::Number {
            field,
            found: text.to_owned(),
        });
    }
    text.parse().map_err(|_| FenError::Number {
        field,
        found: text.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The placement written from the bitboards at once ([`Position::board_fen`]) is
    /// the one read square by square with [`Position::piece_at`]: on positions
    /// reached by random legal moves, and on random bitboards (squares of both
    /// colours, of several roles, of a colour and no role, of a role and no colour).
    #[test]
    fn placement_agrees_with_piece_at() {
        let by_squares = |p: &Position| {
            let mut s = String::new();
            for rank in (0..8).rev() {
                let mut empty = 0u8;
                for file in 0..8 {
                    let sq =
                        Square::from_coords(File::new(file).unwrap(), Rank::new(rank).unwrap());
                    match p.piece_at(sq) {
                        Some(piece) => {
                            if empty > 0 {
                                s.push(char::from(b'0' + empty));
                                empty = 0;
                            }
                            s.push(piece.char());
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
            s
        };
        let mut rng = crate::testing::XorShift::new(7);
        let mut positions = 0;
        for fen in [
            START_FEN,
            "r3k2r/1P4P1/8/3N1N2/8/8/1p4p1/R3K2R w KQkq - 0 1",
            "8/1p6/8/k2pP3/1pP5/8/P7/K7 w - d6 0 1",
        ] {
            for _ in 0..20 {
                let mut pos = Position::from_fen(fen).unwrap();
                for _ in 0..300 {
                    assert_eq!(pos.board_fen(), by_squares(&pos));
                    assert!(pos.fen().starts_with(&by_squares(&pos)));
                    positions += 1;
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.next() as usize % moves.len()];
                    pos.play_unchecked(&m);
                }
            }
        }
        for _ in 0..2000 {
            let mut pos = Position::empty();
            // sparse, dense and overlapping boards
            let board = |rng: &mut crate::testing::XorShift| match rng.next() % 3 {
                0 => Bitboard(rng.next() & rng.next()),
                1 => Bitboard(rng.next()),
                _ => Bitboard(rng.next() & rng.next() & rng.next()),
            };
            for b in &mut pos.by_color {
                *b = board(&mut rng);
            }
            for b in &mut pos.by_role {
                *b = board(&mut rng);
            }
            assert_eq!(pos.board_fen(), by_squares(&pos));
            positions += 1;
        }
        assert!(positions > 10_000, "{positions}");
    }

    #[test]
    fn start_round_trip() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos, Position::default());
        assert_eq!(pos.fen(), START_FEN);
    }

    #[test]
    fn round_trips_keep_rights_ep_and_clocks() {
        for fen in [
            "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b Kq e3 0 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 37 112",
            "rnbqkbnr/pppp1ppp/8/4pP2/8/8/PPPPP1PP/RNBQKBNR w Qk e6 0 3",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(pos.fen(), fen);
        }
    }

    #[test]
    fn chess960_castling_notations() {
        // X-FEN and Shredder-FEN for the same position.
        let shredder = "bbqnnrkr/ppppp2p/8/5pp1/6PP/8/PPPPPP1R/BBQNNRK1 w Fhf - 0 4";
        let pos = Position::from_fen_chess960(shredder).unwrap();
        assert_eq!(pos.fen_with(CastlingNotation::Shredder), shredder);
        // White's F rook is the outermost queen-side rook: X-FEN writes Q.
        assert_eq!(
            pos.fen(),
            "bbqnnrkr/ppppp2p/8/5pp1/6PP/8/PPPPPP1R/BBQNNRK1 w Qkq - 0 4"
        );
        let again = Position::from_fen_chess960(&pos.fen()).unwrap();
        assert_eq!(again, pos);
        // An inner rook needs its file letter in X-FEN too.
        let inner = Position::from_fen_chess960("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1").unwrap();
        assert_eq!(inner.fen(), "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
    }

    #[test]
    fn error_paths() {
        let cases: &[(&str, FenError)] = &[
            ("", FenError::Empty),
            ("8/8/8/8/8/8/8/8 w", FenError::MissingKing(Color::White)),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
                FenError::RankCount { found: 7 },
            ),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenError::PlacementChar {
                    rank: '6',
                    found: '9',
                },
            ),
            (
                "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenError::RankLength {
                    rank: '7',
                    squares: 9,
                },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
                FenError::RankLength {
                    rank: '1',
                    squares: 7,
                },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                FenError::Turn { found: "x".into() },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                FenError::MissingField(FenField::Turn),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",
                FenError::CastlingChar { found: 'z' },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1",
                FenError::CastlingRight {
                    right: 'K',
                    reason: "a right for that side is given twice",
                },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBR1 w K - 0 1",
                FenError::CastlingRight {
                    right: 'K',
                    reason: "standard chess needs the king on the e-file and the rook in the corner (read it as chess960 otherwise)",
                },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w K - 0 1",
                FenError::MissingKing(Color::White),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
                FenError::CastlingRight {
                    right: 'K',
                    reason: "there is no rook on that side of the king",
                },
            ),
            (
                "4k3/8/8/8/8/8/4K3/7R w K - 0 1",
                FenError::CastlingRight {
                    right: 'K',
                    reason: "the king is not on its first rank",
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - e4 0 1",
                FenError::EnPassant {
                    found: "e4".into(),
                    reason: "with white to move the square must be on rank 6",
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
                FenError::EnPassant {
                    found: "e6".into(),
                    reason: "no pawn can have just advanced two squares past it",
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - z9 0 1",
                FenError::EnPassant {
                    found: "z9".into(),
                    reason: "expected `-` or a square such as e3",
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - x 1",
                FenError::Number {
                    field: FenField::HalfMoves,
                    found: "x".into(),
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
                FenError::Number {
                    field: FenField::FullMoves,
                    found: "0".into(),
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
                FenError::TrailingInput {
                    found: "extra".into(),
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4KK2 w - - 0 1",
                FenError::TooManyKings(Color::White),
            ),
            (
                "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
                FenError::PawnOnBackRank(Square::A1),
            ),
            (
                "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1",
                FenError::TooMuchMaterial(Color::Black),
            ),
            ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", FenError::OppositeCheck),
        ];
        for (fen, expected) in cases {
            assert_eq!(Position::from_fen(fen).as_ref(), Err(expected), "{fen}");
            // Every error renders to a lowercase message naming the field.
            let msg = expected.to_string();
            assert!(msg.starts_with("fen") || msg.starts_with("empty"), "{msg}");
        }
    }

    #[test]
    fn error_messages() {
        assert_eq!(
            FenError::RankLength {
                rank: '7',
                squares: 9
            }
            .to_string(),
            "fen field 1 (piece placement): rank 7 covers 9 squares, expected 8"
        );
        assert_eq!(
            FenError::Turn { found: "x".into() }.to_string(),
            "fen field 2 (side to move): expected `w` or `b`, found `x`"
        );
    }

    #[test]
    fn optional_trailing_fields() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b").unwrap();
        assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    }
}
