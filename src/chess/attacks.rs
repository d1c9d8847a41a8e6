//! Attack tables: leapers precomputed at compile time, sliders by magic bitboards
//! whose magic numbers are searched once at start-up with a fixed-seed generator
//! (deterministic, a few milliseconds), plus `between` and `line` tables.

use std::sync::OnceLock;

use super::{bitboard::Bitboard, types::Square};
use crate::color::Color;

const fn leaper_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i8;
        let r = (sq / 8) as i8;
        let mut i = 0;
        while i < deltas.len() {
            let (df, dr) = deltas[i];
            let (nf, nr) = (f + df, r + dr);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static WHITE_PAWN: [u64; 64] = leaper_table(&[(-1, 1), (1, 1)]);
static BLACK_PAWN: [u64; 64] = leaper_table(&[(-1, -1), (1, -1)]);

#[inline]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index() as usize])
}

#[inline]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index() as usize])
}

/// The squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    match color {
        Color::White => Bitboard(WHITE_PAWN[sq.index() as usize]),
        Color::Black => Bitboard(BLACK_PAWN[sq.index() as usize]),
    }
}

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Slow reference ray attacks, used to build the tables.
fn sliding(sq: usize, occupied: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
        }
    }
    attacks
}

/// The relevant-occupancy mask: rays without their last square.
fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += df;
            r += dr;
            let (nf, nr) = (f + df, r + dr);
            if !(0..8).contains(&nf) || !(0..8).contains(&nr) {
                break;
            }
            mask |= 1u64 << (r * 8 + f);
        }
    }
    mask
}

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

struct Tables {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    attacks: Vec<u64>,
    between: Vec<u64>,
    line: Vec<u64>,
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn find_magics(dirs: &[(i8, i8); 4], attacks: &mut Vec<u64>, rng: &mut Rng) -> [Magic; 64] {
    let mut magics = [Magic::default(); 64];
    let mut occupancies = Vec::with_capacity(4096);
    let mut references = Vec::with_capacity(4096);
    let mut used = Vec::with_capacity(4096);
    for (sq, slot) in magics.iter_mut().enumerate() {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        occupancies.clear();
        references.clear();
        let mut subset = 0u64;
        loop {
            occupancies.push(subset);
            references.push(sliding(sq, subset, dirs));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        loop {
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            used.clear();
            used.resize(size, 0u64);
            let mut ok = true;
            for (&occ, &reference) in occupancies.iter().zip(&references) {
                let idx = (occ.wrapping_mul(magic) >> shift) as usize;
                if used[idx] == 0 {
                    used[idx] = reference;
                } else if used[idx] != reference {
                    ok = false;
                    break;
                }
            }
            if ok {
                *slot = Magic {
                    mask,
                    magic,
                    shift,
                    offset: attacks.len(),
                };
                attacks.extend_from_slice(&used);
                break;
            }
        }
    }
    magics
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut attacks = Vec::with_capacity(110_000);
        let rook = find_magics(&ROOK_DIRS, &mut attacks, &mut rng);
        let bishop = find_magics(&BISHOP_DIRS, &mut attacks, &mut rng);
        let mut between = vec![0u64; 64 * 64];
        let mut line = vec![0u64; 64 * 64];
        for a in 0..64usize {
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                for &(df, dr) in dirs {
                    // Walk from `a` in one direction; every square met is aligned with
                    // `a`, on the line through `a` in this direction.
                    let full_line =
                        sliding(a, 0, &[(df, dr), (-df, -dr), (df, dr), (df, dr)]) | 1u64 << a;
                    let (mut f, mut r) = ((a % 8) as i8, (a / 8) as i8);
                    let mut passed = 0u64;
                    loop {
                        f += df;
                        r += dr;
                        if !(0..8).contains(&f) || !(0..8).contains(&r) {
                            break;
                        }
                        let b = (r * 8 + f) as usize;
                        between[a * 64 + b] = passed;
                        line[a * 64 + b] = full_line;
                        passed |= 1 << b;
                    }
                }
            }
        }
        Tables {
            rook,
            bishop,
            attacks,
            between,
            line,
        }
    })
}

#[inline]
fn magic_lookup(t: &Tables, m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    Bitboard(t.attacks[m.offset + idx])
}

#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = tables();
    magic_lookup(t, &t.rook[sq.index() as usize], occupied)
}

#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = tables();
    magic_lookup(t, &t.bishop[sq.index() as usize], occupied)
}

#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// The squares strictly between two aligned squares (empty if not aligned).
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(tables().between[a.index() as usize * 64 + b.index() as usize])
}

/// The whole line (rank, file or diagonal) through two aligned squares, edge to edge
/// (empty if not aligned).
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(tables().line[a.index() as usize * 64 + b.index() as usize])
}

/// Are the three squares on one line?
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn bb(squares: &[&str]) -> Bitboard {
        squares.iter().fold(Bitboard::EMPTY, |b, s| b.with(sq(s)))
    }

    #[test]
    fn magics_agree_with_reference_rays() {
        let mut rng = Rng(42);
        for _ in 0..2000 {
            let occ = rng.next() & rng.next();
            for s in 0..64u8 {
                let square = Square::new(s).unwrap();
                assert_eq!(
                    rook(square, Bitboard(occ)).0,
                    sliding(s as usize, occ, &ROOK_DIRS)
                );
                assert_eq!(
                    bishop(square, Bitboard(occ)).0,
                    sliding(s as usize, occ, &BISHOP_DIRS)
                );
            }
        }
    }

    #[test]
    fn leapers() {
        assert_eq!(knight(sq("a1")), bb(&["b3", "c2"]));
        assert_eq!(king(sq("h8")), bb(&["g8", "g7", "h7"]));
        assert_eq!(pawn(Color::White, sq("e4")), bb(&["d5", "f5"]));
        assert_eq!(pawn(Color::Black, sq("a7")), bb(&["b6"]));
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("a1"), sq("a4")), bb(&["a2", "a3"]));
        assert_eq!(between(sq("c1"), sq("f4")), bb(&["d2", "e3"]));
        assert_eq!(between(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(between(sq("a1"), sq("a2")), Bitboard::EMPTY);
        assert_eq!(line(sq("b2"), sq("c3")).count(), 8);
        assert!(line(sq("b2"), sq("c3")).contains(sq("a1")));
        assert!(line(sq("e1"), sq("e5")).contains(sq("e8")));
        assert_eq!(line(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert!(aligned(sq("e1"), sq("e4"), sq("e8")));
        assert!(!aligned(sq("e1"), sq("e4"), sq("d8")));
    }
}
