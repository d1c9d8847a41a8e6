//! A set of squares as a 64-bit mask (bit `i` = square index `i`, a1 = 0).

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::types::{File, Rank, Square};

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    #[inline]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xff << (8 * rank.index()))
    }

    #[inline]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file.index())
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_masked(self.0.trailing_zeros()))
        }
    }

    /// The only square, if exactly one.
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.more_than_one() {
            None
        } else {
            self.first()
        }
    }

    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq.index();
    }

    /// Shifted one rank toward the 8th (`White`'s pawn pushes).
    #[inline]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    #[inline]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterate_and_count() {
        let bb = Bitboard::from_square(Square::A1) | Bitboard::from_square(Square::H8);
        assert_eq!(bb.count(), 2);
        assert!(bb.more_than_one());
        assert_eq!(bb.collect::<Vec<_>>(), vec![Square::A1, Square::H8]);
        assert_eq!(bb.single(), None);
        assert_eq!(Bitboard::from_square(Square::E1).single(), Some(Square::E1));
        assert_eq!(Bitboard::EMPTY.first(), None);
        assert_eq!(Bitboard::rank(Rank::SECOND).count(), 8);
        assert!(Bitboard::file(File::E).contains(Square::E8));
        assert!(!Bitboard::DARK_SQUARES.contains(Square::H1));
        assert!(Bitboard::DARK_SQUARES.contains(Square::A1));
    }
}
