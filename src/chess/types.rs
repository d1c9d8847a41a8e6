//! Chess vocabulary: files, ranks, squares, roles, pieces and moves.

use std::fmt;

use crate::color::Color;

/// A file, `a` (0) to `h` (7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    pub const A: File = File(0);
    pub const B: File = File(1);
    pub const C: File = File(2);
    pub const D: File = File(3);
    pub const E: File = File(4);
    pub const F: File = File(5);
    pub const G: File = File(6);
    pub const H: File = File(7);

    /// `None` unless `index < 8`.
    pub const fn new(index: u8) -> Option<File> {
        if index < 8 { Some(File(index)) } else { None }
    }

    /// `a`..`h` (ASCII lowercase only; normalize text before).
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File(c as u8 - b'a')),
            _ => None,
        }
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    pub fn all() -> impl Iterator<Item = File> {
        (0..8).map(File)
    }
}

/// A rank, `1` (0) to `8` (7), counted from White's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    pub const FIRST: Rank = Rank(0);
    pub const SECOND: Rank = Rank(1);
    pub const THIRD: Rank = Rank(2);
    pub const FOURTH: Rank = Rank(3);
    pub const FIFTH: Rank = Rank(4);
    pub const SIXTH: Rank = Rank(5);
    pub const SEVENTH: Rank = Rank(6);
    pub const EIGHTH: Rank = Rank(7);

    pub const fn new(index: u8) -> Option<Rank> {
        if index < 8 { Some(Rank(index)) } else { None }
    }

    /// `1`..`8` (ASCII digits only; normalize text before).
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }

    /// The same rank seen from `color`'s side (rank 1 for White is rank 8 for Black).
    pub const fn relative(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }
}

/// A square, `a1` (0), `b1` (1) … `h8` (63).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const E8: Square = Square(60);
    pub const H8: Square = Square(63);

    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// # Safety-free contract
    /// `index` is masked to 0..64; callers pass values they computed on the board.
    #[inline]
    pub(crate) const fn from_index_masked(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The square `delta` steps away in index order, if on the board.
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let i = self.0 as i16 + delta as i16;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Mirror top to bottom (a1 ↔ a8).
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// `true` for the light squares (h1, a8 …).
    pub const fn is_light(self) -> bool {
        (self.0 >> 3 ^ self.0) & 1 == 1
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Parses exactly two ASCII characters such as `e4`.
    pub fn parse(s: &str) -> Option<Square> {
        let mut c = s.chars();
        let f = File::from_char(c.next()?)?;
        let r = Rank::from_char(c.next()?)?;
        c.next().is_none().then_some(Square::from_coords(f, r))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

/// A kind of chess piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// Roles a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The English upper-case letter (`P` for the pawn), as in FEN and PGN.
    pub const fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// The English lower-case letter, as in UCI promotions.
    pub const fn lower_char(self) -> char {
        self.upper_char().to_ascii_lowercase()
    }

    /// From an English letter of either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'P' => Some(Role::Pawn),
            'N' => Some(Role::Knight),
            'B' => Some(Role::Bishop),
            'R' => Some(Role::Rook),
            'Q' => Some(Role::Queen),
            'K' => Some(Role::King),
            _ => None,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        })
    }
}

/// A coloured piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for White.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.lower_char(),
        }
    }

    /// From a FEN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match Role::from_char(c) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }
}

/// A chess move, as played on a position. Castling is encoded as the king taking its
/// own rook (`king`, `rook` squares), which covers chess960 uniformly; use
/// [`Move::to`] and the writers for the conventional king destination.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Normal {
        role: Role,
        from: Square,
        capture: Option<Role>,
        to: Square,
        promotion: Option<Role>,
    },
    EnPassant {
        from: Square,
        to: Square,
    },
    Castle {
        king: Square,
        rook: Square,
    },
}

impl Default for Move {
    fn default() -> Move {
        Move::Normal {
            role: Role::Pawn,
            from: Square::A1,
            capture: None,
            to: Square::A1,
            promotion: None,
        }
    }
}

/// Which side a castling move goes to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// `O-O`: king to the g-file, rook to the f-file.
    KingSide,
    /// `O-O-O`: king to the c-file, rook to the d-file.
    QueenSide,
}

impl CastlingSide {
    pub const fn index(self) -> usize {
        match self {
            CastlingSide::KingSide => 0,
            CastlingSide::QueenSide => 1,
        }
    }

    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }
}

impl Move {
    /// The role of the moving piece.
    pub const fn role(&self) -> Role {
        match *self {
            Move::Normal { role, .. } => role,
            Move::EnPassant { .. } => Role::Pawn,
            Move::Castle { .. } => Role::King,
        }
    }

    /// The origin square (the king's, for castling).
    pub const fn from(&self) -> Square {
        match *self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => from,
            Move::Castle { king, .. } => king,
        }
    }

    /// The destination square; for castling the king's destination (g- or c-file).
    pub fn to(&self) -> Square {
        match *self {
            Move::Normal { to, .. } | Move::EnPassant { to, .. } => to,
            Move::Castle { king, rook } => Square::from_coords(
                self.castling_side_of(king, rook).king_to_file(),
                king.rank(),
            ),
        }
    }

    /// The captured role, if any (a pawn for en passant).
    pub const fn capture(&self) -> Option<Role> {
        match *self {
            Move::Normal { capture, .. } => capture,
            Move::EnPassant { .. } => Some(Role::Pawn),
            Move::Castle { .. } => None,
        }
    }

    pub const fn is_capture(&self) -> bool {
        self.capture().is_some()
    }

    pub const fn promotion(&self) -> Option<Role> {
        match *self {
            Move::Normal { promotion, .. } => promotion,
            _ => None,
        }
    }

    /// What SAN writes of a move that is not castling, read in one match: the moving
    /// role, the origin, the destination, whether it captures (en passant too) and the
    /// promotion. `None` for castling.
    #[inline(always)]
    pub fn san_parts(&self) -> Option<(Role, Square, Square, bool, Option<Role>)> {
        match *self {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => Some((role, from, to, capture.is_some(), promotion)),
            Move::EnPassant { from, to } => Some((Role::Pawn, from, to, true, None)),
            Move::Castle { .. } => None,
        }
    }

    /// For castling moves, which side.
    pub fn castling_side(&self) -> Option<CastlingSide> {
        match *self {
            Move::Castle { king, rook } => Some(self.castling_side_of(king, rook)),
            _ => None,
        }
    }

    fn castling_side_of(&self, king: Square, rook: Square) -> CastlingSide {
        if rook.file() > king.file() {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }

    /// UCI notation. Standard chess writes castling as the king's two-step move
    /// (`e1g1`); with `chess960` it is king-takes-rook (`e1h1`).
    pub fn uci(&self, chess960: bool) -> String {
        let mut s = String::with_capacity(5);
        self.write_uci(&mut s, chess960);
        s
    }

    /// Appends the UCI notation to `out` (no allocation beyond `out`'s growth).
    pub fn write_uci(&self, out: &mut String, chess960: bool) {
        let to = match *self {
            Move::Castle { rook, .. } if chess960 => rook,
            _ => self.to(),
        };
        let from = self.from();
        for c in [
            from.file().char(),
            from.rank().char(),
            to.file().char(),
            to.rank().char(),
        ] {
            out.push(c);
        }
        if let Some(p) = self.promotion() {
            out.push(p.lower_char());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares() {
        let e4 = Square::parse("e4").unwrap();
        assert_eq!(e4.index(), 28);
        assert_eq!(e4.file(), File::E);
        assert_eq!(e4.rank(), Rank::FOURTH);
        assert_eq!(e4.to_string(), "e4");
        assert_eq!(e4.flip_vertical().to_string(), "e5");
        assert!(Square::parse("i1").is_none());
        assert!(Square::parse("e9").is_none());
        assert!(Square::parse("e44").is_none());
        assert!(Square::A1.offset(-1).is_none());
        assert!(!Square::A1.is_light());
        assert!(Square::H1.is_light());
        assert_eq!(Rank::FIRST.relative(Color::Black), Rank::EIGHTH);
    }

    #[test]
    fn pieces_and_roles() {
        for role in Role::ALL {
            assert_eq!(Role::from_char(role.upper_char()), Some(role));
            assert_eq!(Role::from_char(role.lower_char()), Some(role));
        }
        assert_eq!(
            Piece::from_char('n'),
            Some(Piece {
                color: Color::Black,
                role: Role::Knight
            })
        );
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(
            Piece {
                color: Color::White,
                role: Role::Queen
            }
            .char(),
            'Q'
        );
    }

    #[test]
    fn move_uci() {
        let castle = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        assert_eq!(castle.uci(false), "e1g1");
        assert_eq!(castle.uci(true), "e1h1");
        assert_eq!(castle.to(), Square::G1);
        assert_eq!(castle.castling_side(), Some(CastlingSide::KingSide));
        let promo = Move::Normal {
            role: Role::Pawn,
            from: Square::parse("e7").unwrap(),
            capture: Some(Role::Rook),
            to: Square::parse("d8").unwrap(),
            promotion: Some(Role::Knight),
        };
        assert_eq!(promo.uci(false), "e7d8n");
        assert!(promo.is_capture());
    }
}
