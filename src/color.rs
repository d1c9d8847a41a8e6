//! The side to move, shared by chess (White/Black) and xiangqi (Red/Black).

use std::fmt;

/// A side. In xiangqi, [`Color::White`] is Red (the Vietnamese law calls it *Trắng*,
/// White) and moves first, exactly as White does in chess.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// Both sides, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The opponent.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `white` for White, `black` for Black.
    #[inline]
    pub fn fold<T>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN side-to-move letter (`w` or `b`).
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.fold("white", "black"))
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.other()
    }
}

/// A pair of values, one per side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    pub white: T,
    pub black: T,
}

impl<T> ByColor<T> {
    pub fn get(&self, color: Color) -> &T {
        color.fold(&self.white, &self.black)
    }

    pub fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_and_not() {
        assert_eq!(Color::White.other(), Color::Black);
        assert_eq!(!Color::Black, Color::White);
        assert_eq!(Color::Black.char(), 'b');
        assert_eq!(Color::White.to_string(), "white");
    }

    #[test]
    fn by_color() {
        let mut b = ByColor { white: 1, black: 2 };
        *b.get_mut(Color::Black) += 10;
        assert_eq!(*b.get(Color::Black), 12);
        assert_eq!(*b.get(Color::White), 1);
    }
}
