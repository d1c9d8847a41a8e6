//! Attack tables: leapers precomputed at compile time, sliders by magic bitboards
//! whose magic numbers were found by a fixed-seed search (kept as a test that redoes it)
//! and whose tables are computed at compile time; `between` and `line` are found from
//! the empty-board rays.

use super::{
    bitboard::Bitboard,
    types::{Role, Square},
};
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
    Bitboard(KNIGHT[sq.index() as usize & 63])
}

#[inline]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index() as usize & 63])
}

/// The squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    match color {
        Color::White => Bitboard(WHITE_PAWN[sq.index() as usize & 63]),
        Color::Black => Bitboard(BLACK_PAWN[sq.index() as usize & 63]),
    }
}

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Slow reference ray attacks, used to build the tables (at compile time).
const fn sliding(sq: usize, occupied: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += df;
            r += dr;
            if f < 0 || f >= 8 || r < 0 || r >= 8 {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
        }
        d += 1;
    }
    attacks
}

/// The relevant-occupancy mask: rays without their last square.
const fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += df;
            r += dr;
            let (nf, nr) = (f + df, r + dr);
            if nf < 0 || nf >= 8 || nr < 0 || nr >= 8 {
                break;
            }
            mask |= 1u64 << (r * 8 + f);
        }
        d += 1;
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

/// Magic numbers found by [`find_magics`] with the fixed seed [`MAGIC_SEED`]; the test
/// `embedded_magics_are_the_seeded_search` re-runs the search and compares.
const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002c03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000a001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021d00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000a0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000a00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040a00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xc100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000a0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040a00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04c1002414824001,
    0x020020000b001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084c0007,
    0x0888221800813004,
    0x4000002840840112,
];

const BISHOP_MAGICS: [u64; 64] = [
    0xa010041108003100,
    0x006082020a002900,
    0x6810010619200000,
    0x08281a0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040a0210245280,
    0x000200210808a402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202c0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208b0542109008a2,
    0x0080084a08040204,
    0x0040e2a80811244c,
    0x2505022008008108,
    0x0430220100420040,
    0x010a040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000a62048043004,
    0x280120048a015004,
    0x006090002a020814,
    0x44042000240800d0,
    0x01102800040a4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500c05021,
    0x0088611002080200,
    0x0116080a00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002e00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221c0400,
    0x0422014022009020,
    0x0210046102100c00,
    0xc004008082029102,
    0x00aa461801101200,
    0x0404080080201108,
    0x020542108c205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400c0,
    0x0200100410a42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800c262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012a02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

#[cfg(test)]
const MAGIC_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

#[cfg(test)]
struct Rng(u64);

#[cfg(test)]
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

#[cfg(test)]
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

/// The magic of every square for `dirs`, its table placed from `offset` on.
const fn magics(dirs: &[(i8, i8); 4], numbers: &[u64; 64], mut offset: usize) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, dirs);
        out[sq] = Magic {
            mask,
            magic: numbers[sq],
            shift: 64 - mask.count_ones(),
            offset,
        };
        offset += 1 << mask.count_ones();
        sq += 1;
    }
    out
}

const fn table_size(dirs: &[(i8, i8); 4]) -> usize {
    let mut size = 0;
    let mut sq = 0;
    while sq < 64 {
        size += 1 << relevant_mask(sq, dirs).count_ones();
        sq += 1;
    }
    size
}

const ROOK_SIZE: usize = table_size(&ROOK_DIRS);
const SLIDER_SIZE: usize = ROOK_SIZE + table_size(&BISHOP_DIRS);
static ROOK: [Magic; 64] = magics(&ROOK_DIRS, &ROOK_MAGICS, 0);
static BISHOP: [Magic; 64] = magics(&BISHOP_DIRS, &BISHOP_MAGICS, ROOK_SIZE);

const fn fill(table: &mut [u64; SLIDER_SIZE], dirs: &[(i8, i8); 4], magics: &[Magic; 64]) {
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        // every subset of the mask (carry-rippler)
        let mut subset = 0u64;
        loop {
            let idx = (subset.wrapping_mul(m.magic) >> m.shift) as usize;
            table[m.offset + idx] = sliding(sq, subset, dirs);
            subset = subset.wrapping_sub(m.mask) & m.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
}

/// The slider attack table, computed at compile time (no initialization at run time,
/// no check of it per lookup).
#[allow(long_running_const_eval)]
static SLIDERS: [u64; SLIDER_SIZE] = {
    let mut table = [0u64; SLIDER_SIZE];
    fill(&mut table, &ROOK_DIRS, &ROOK);
    fill(&mut table, &BISHOP_DIRS, &BISHOP);
    table
};

/// The squares a piece of each colour and role attacks from each square on an empty
/// board (6 KB: small enough to stay in the L1 cache, where the slider tables do not).
static REACH: [[[u64; 64]; 6]; 2] = {
    let mut t = [[[0u64; 64]; 6]; 2];
    let mut sq = 0;
    while sq < 64 {
        let rook = sliding(sq, 0, &ROOK_DIRS);
        let bishop = sliding(sq, 0, &BISHOP_DIRS);
        let mut c = 0;
        while c < 2 {
            t[c][0][sq] = if c == 0 {
                WHITE_PAWN[sq]
            } else {
                BLACK_PAWN[sq]
            };
            t[c][1][sq] = KNIGHT[sq];
            t[c][2][sq] = bishop;
            t[c][3][sq] = rook;
            t[c][4][sq] = rook | bishop;
            t[c][5][sq] = KING[sq];
            c += 1;
        }
        sq += 1;
    }
    t
};

/// The squares a `role` piece of `color` on `sq` attacks on an empty board: its
/// attacks when nothing stands in the way (a slider is stopped by the pieces
/// [`between`] it and its target).
#[inline]
pub fn reach(color: Color, role: Role, sq: Square) -> Bitboard {
    Bitboard(REACH[color.index()][role.index()][sq.index() as usize & 63])
}

#[inline]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    Bitboard(SLIDERS.get(m.offset + idx).copied().unwrap_or(0))
}

#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK[sq.index() as usize & 63], occupied)
}

#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP[sq.index() as usize & 63], occupied)
}

#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// The squares that the lines from `a` and from `b` share, `a` and `b` left out, when
/// the two squares are aligned (empty if not): found from the 1 KB of empty-board rook
/// and bishop rays in [`REACH`] rather than from a table of every pair (32 KB, which
/// would crowd the first-level cache).
///
/// Two squares on one rank or file share, of their rook rays, the rest of that rank or
/// file and nothing else: their other lines are parallel (two files, two ranks) or meet
/// on `a` or `b` themselves, which their own rays leave out. The same holds for two
/// squares on one diagonal and their bishop rays. Two squares not aligned are in
/// neither's rays.
#[inline]
pub fn shared_line(a: Square, b: Square) -> Bitboard {
    Bitboard(shared_line_bits(a.index() as u32, b.index() as u32))
}

/// [`shared_line`] on square indices.
#[inline]
fn shared_line_bits(a: u32, b: u32) -> u64 {
    let (a, b) = (a as usize & 63, b as usize & 63);
    let rook = &REACH[0][Role::Rook as usize];
    let bishop = &REACH[0][Role::Bishop as usize];
    if rook[a] & 1 << b != 0 {
        rook[a] & rook[b]
    } else if bishop[a] & 1 << b != 0 {
        bishop[a] & bishop[b]
    } else {
        0
    }
}

/// The squares strictly between two aligned squares (empty if not aligned): the part
/// of their [`line`] from the lower square up to the higher one, both left out.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    let (a, b) = (a.index() as u32 & 63, b.index() as u32 & 63);
    // the squares from the lower of the two (included) to the higher (excluded); the
    // shared line leaves out both
    let span = (!0u64 << a) ^ (!0u64 << b);
    Bitboard(shared_line_bits(a, b) & span)
}

/// The whole line (rank, file or diagonal) through two aligned squares, edge to edge
/// (empty if not aligned).
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    let (a, b) = (a.index() as u32 & 63, b.index() as u32 & 63);
    // (a short diagonal, `a7`-`b8`, has no other square to share)
    if REACH[0][Role::Queen as usize][a as usize] & 1 << b == 0 {
        return Bitboard::EMPTY;
    }
    Bitboard(shared_line_bits(a, b) | 1 << a | 1 << b)
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
    fn embedded_magics_are_the_seeded_search() {
        let mut rng = Rng(MAGIC_SEED);
        let mut attacks = Vec::new();
        let rook = find_magics(&ROOK_DIRS, &mut attacks, &mut rng);
        let bishop = find_magics(&BISHOP_DIRS, &mut attacks, &mut rng);
        assert!(rook.iter().zip(ROOK_MAGICS).all(|(m, k)| m.magic == k));
        assert!(bishop.iter().zip(BISHOP_MAGICS).all(|(m, k)| m.magic == k));
    }

    #[test]
    fn leapers() {
        assert_eq!(knight(sq("a1")), bb(&["b3", "c2"]));
        assert_eq!(king(sq("h8")), bb(&["g8", "g7", "h7"]));
        assert_eq!(pawn(Color::White, sq("e4")), bb(&["d5", "f5"]));
        assert_eq!(pawn(Color::Black, sq("a7")), bb(&["b6"]));
    }

    /// `between`, `line`, `shared_line` and `reach` agree with rays walked
    /// square by square, for every pair of squares.
    #[test]
    fn between_and_reach_agree_with_walked_rays() {
        for a in 0..64u8 {
            let sa = Square::new(a).unwrap();
            for (color, pawn) in [(Color::White, &WHITE_PAWN), (Color::Black, &BLACK_PAWN)] {
                let want = [
                    pawn[a as usize],
                    KNIGHT[a as usize],
                    sliding(a as usize, 0, &BISHOP_DIRS),
                    sliding(a as usize, 0, &ROOK_DIRS),
                    sliding(a as usize, 0, &BISHOP_DIRS) | sliding(a as usize, 0, &ROOK_DIRS),
                    KING[a as usize],
                ];
                for role in Role::ALL {
                    assert_eq!(reach(color, role, sa).0, want[role.index()], "{role:?} {a}");
                }
            }
            for b in 0..64u8 {
                let sb = Square::new(b).unwrap();
                // walk from a towards b one square at a time, if they are aligned
                let (df, dr) = ((b % 8) as i8 - (a % 8) as i8, (b / 8) as i8 - (a / 8) as i8);
                let aligned = a != b && (df == 0 || dr == 0 || df.abs() == dr.abs());
                let mut want = 0u64;
                if aligned {
                    let (sf, sr) = (df.signum(), dr.signum());
                    let (mut f, mut r) = ((a % 8) as i8 + sf, (a / 8) as i8 + sr);
                    while (f, r) != ((b % 8) as i8, (b / 8) as i8) {
                        want |= 1 << (r * 8 + f);
                        f += sf;
                        r += sr;
                    }
                }
                assert_eq!(between(sa, sb).0, want, "{a} {b}");
                assert_eq!(line(sa, sb).any(), aligned, "{a} {b}");
                // the whole line: the walked squares and on past both ends to the edge
                let mut whole = 0u64;
                if aligned {
                    let (sf, sr) = (df.signum(), dr.signum());
                    for dir in [1i8, -1] {
                        let (mut f, mut r) = ((a % 8) as i8, (a / 8) as i8);
                        while (0..8).contains(&f) && (0..8).contains(&r) {
                            whole |= 1 << (r * 8 + f);
                            f += sf * dir;
                            r += sr * dir;
                        }
                    }
                }
                assert_eq!(line(sa, sb).0, whole, "{a} {b}");
                let ends = 1u64 << a | 1u64 << b;
                assert_eq!(shared_line(sa, sb).0, whole & !ends, "{a} {b}");
            }
        }
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
