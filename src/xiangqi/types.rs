//! Xiangqi vocabulary: points (squares), roles, pieces and moves.
//!
//! Files `a`..`i` run left to right and ranks `0`..`9` bottom to top, both seen from
//! Red (White), as in the ICCS and the new Vietnamese notation (law 1409/2004,
//! Appendix 3). Index = rank × 9 + file.

use std::fmt;

use crate::color::Color;

/// A point of the 9 × 10 board. The default is `a0`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 90;

    /// `None` unless `file < 9` and `rank < 10`.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < Self::COUNT {
            Some(Square(index))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// 0 (`a`) to 8 (`i`), from Red's left.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// 0 to 9, from Red's side.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The point `df` files and `dr` ranks away, if on the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < 9 && r >= 0 && r < 10 {
            Some(Square((r * 9 + f) as u8))
        } else {
            None
        }
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::COUNT as u8).map(Square)
    }

    /// ICCS coordinates (`h2`): file letter and rank 0–9.
    pub fn iccs(self) -> String {
        format!("{}{}", (b'a' + self.file()) as char, self.rank())
    }

    /// Parses ICCS coordinates, `a0`..`i9`, either case.
    pub fn parse_iccs(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].to_ascii_lowercase().checked_sub(b'a')?;
        let r = b[1].checked_sub(b'0')?;
        Square::new(f, r)
    }

    /// Is the point inside `color`'s palace (files d–f, ranks 0–2 for Red, 7–9 for Black)?
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.file();
        let r = self.rank();
        f >= 3
            && f <= 5
            && match color {
                Color::White => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// Is the point on `color`'s own side of the river (ranks 0–4 for Red)?
    pub const fn on_own_side(self, color: Color) -> bool {
        match color {
            Color::White => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// A kind of xiangqi piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// 帅/将, Tướng.
    General = 0,
    /// 仕/士, Sĩ.
    Advisor = 1,
    /// 相/象, Tượng (old notation) or Voi (new).
    Elephant = 2,
    /// 马/馬, Mã.
    Horse = 3,
    /// 车/車, Xe.
    Chariot = 4,
    /// 炮/砲, Pháo.
    Cannon = 5,
    /// 兵/卒, Tốt/Binh.
    Soldier = 6,
}

impl Role {
    pub const ALL: [Role; 7] = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Soldier,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter in the common (ICCS/UCCI) set: `k a b n r c p`.
    pub const fn fen_char(self) -> char {
        match self {
            Role::General => 'k',
            Role::Advisor => 'a',
            Role::Elephant => 'b',
            Role::Horse => 'n',
            Role::Chariot => 'r',
            Role::Cannon => 'c',
            Role::Soldier => 'p',
        }
    }

    /// From a FEN letter of either case, accepting the WXF aliases `e` (elephant) and
    /// `h` (horse).
    pub const fn from_fen_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'k' => Some(Role::General),
            'a' => Some(Role::Advisor),
            'b' | 'e' => Some(Role::Elephant),
            'n' | 'h' => Some(Role::Horse),
            'r' => Some(Role::Chariot),
            'c' => Some(Role::Cannon),
            'p' => Some(Role::Soldier),
            _ => None,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::General => "general",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Chariot => "chariot",
            Role::Cannon => "cannon",
            Role::Soldier => "soldier",
        })
    }
}

/// A coloured xiangqi piece; [`Color::White`] is Red.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for Red.
    pub const fn fen_char(self) -> char {
        let c = self.role.fen_char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    pub const fn from_fen_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match Role::from_fen_char(c) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }
}

/// A xiangqi move: from one point to another (captures are implied by the board).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    /// ICCS form, `h2e2`.
    pub fn iccs(self) -> String {
        format!("{}{}", self.from, self.to)
    }

    /// Parses the ICCS form, `h2e2` (either case, optional `-` between: `h2-e2`).
    pub fn parse_iccs(s: &str) -> Option<Move> {
        let (from, to) = match s.len() {
            4 => (s.get(..2)?, s.get(2..)?),
            5 if s.get(2..3) == Some("-") => (s.get(..2)?, s.get(3..)?),
            _ => return None,
        };
        Some(Move {
            from: Square::parse_iccs(from)?,
            to: Square::parse_iccs(to)?,
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap
mod tests {
    use super::*;

    #[test]
    fn squares() {
        let h2 = Square::parse_iccs("h2").unwrap();
        assert_eq!((h2.file(), h2.rank()), (7, 2));
        assert_eq!(h2.iccs(), "h2");
        assert_eq!(Square::parse_iccs("E9").unwrap().iccs(), "e9");
        assert!(Square::parse_iccs("j0").is_none());
        assert!(Square::parse_iccs("a").is_none());
        assert!(Square::new(4, 1).unwrap().in_palace(Color::White));
        assert!(!Square::new(4, 3).unwrap().in_palace(Color::White));
        assert!(Square::new(3, 9).unwrap().in_palace(Color::Black));
        assert!(Square::new(0, 4).unwrap().on_own_side(Color::White));
        assert!(!Square::new(0, 5).unwrap().on_own_side(Color::White));
        assert_eq!(Square::new(0, 0).unwrap().offset(-1, 0), None);
        assert_eq!(Square::new(8, 9).unwrap().offset(0, 1), None);
    }

    #[test]
    fn fen_letters() {
        for role in Role::ALL {
            assert_eq!(Role::from_fen_char(role.fen_char()), Some(role));
        }
        assert_eq!(Role::from_fen_char('e'), Some(Role::Elephant));
        assert_eq!(Role::from_fen_char('H'), Some(Role::Horse));
        let p = Piece::from_fen_char('C').unwrap();
        assert_eq!((p.color, p.role), (Color::White, Role::Cannon));
        assert_eq!(p.fen_char(), 'C');
    }

    #[test]
    fn iccs_moves() {
        let cases: &[(&str, Option<&str>)] = &[
            ("h2e2", Some("h2e2")),
            ("H2-E2", Some("h2e2")),
            ("h2e", None),
            ("h2xe2", None),
            ("j2e2", None),
            ("h2é2", None),
        ];
        for (s, want) in cases {
            assert_eq!(Move::parse_iccs(s).map(Move::iccs).as_deref(), *want, "{s}");
        }
    }
}
