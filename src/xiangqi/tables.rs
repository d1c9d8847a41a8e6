//! Precomputed move and attack tables over the 90 points, built at compile time.
//!
//! Every table is indexed by a point's index (`rank × 9 + file`) and, where the
//! movement depends on the side, by [`Color::index`](crate::color::Color::index).
//! Entries are point indices (`u8`); the `*_len` arrays give how many are valid.

/// Up, down, left, right as (file, rank) deltas; index into [`Tables::ray`].
pub(crate) const DIRS: [(i8, i8); 4] = [(0, 1), (0, -1), (-1, 0), (1, 0)];
/// Indices of the vertical directions in [`DIRS`] (the ones the generals face along).
pub(crate) const UP: usize = 0;
pub(crate) const DOWN: usize = 1;

/// A step and the point that must be empty for it (horse leg, elephant eye).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Gated {
    pub to: u8,
    pub gate: u8,
}

pub(crate) struct Tables {
    /// Points along each of the four directions, nearest first.
    pub ray: [[[u8; 9]; 4]; 90],
    pub ray_len: [[u8; 4]; 90],
    /// Horse moves from a point, with the leg point.
    pub horse: [[Gated; 8]; 90],
    pub horse_len: [u8; 90],
    /// Points a horse can attack this point from (`to` = the horse's point), with the
    /// leg point, which is the diagonal neighbour of the target.
    pub horse_from: [[Gated; 8]; 90],
    pub horse_from_len: [u8; 90],
    /// Elephant moves per side (never across the river), with the eye point.
    pub elephant: [[[Gated; 4]; 90]; 2],
    pub elephant_len: [[u8; 90]; 2],
    /// Advisor moves per side (diagonal, inside the palace).
    pub advisor: [[[u8; 4]; 90]; 2],
    pub advisor_len: [[u8; 90]; 2],
    /// General moves per side (orthogonal, inside the palace).
    pub general: [[[u8; 4]; 90]; 2],
    pub general_len: [[u8; 90]; 2],
    /// Soldier moves per side (forward; sideways too once across the river).
    pub soldier: [[[u8; 3]; 90]; 2],
    pub soldier_len: [[u8; 90]; 2],
    /// Zobrist keys per piece (`color × 7 + role`) and point.
    pub zobrist: [[u64; 90]; 14],
    /// Zobrist key xored in when Black is to move.
    pub zobrist_black: u64,
}

const fn off(sq: usize, df: i8, dr: i8) -> Option<u8> {
    let f = (sq % 9) as i8 + df;
    let r = (sq / 9) as i8 + dr;
    if f >= 0 && f < 9 && r >= 0 && r < 10 {
        Some((r * 9 + f) as u8)
    } else {
        None
    }
}

const fn in_palace(sq: u8, color: usize) -> bool {
    let f = sq % 9;
    let r = sq / 9;
    f >= 3 && f <= 5 && if color == 0 { r <= 2 } else { r >= 7 }
}

const fn own_side(sq: u8, color: usize) -> bool {
    if color == 0 { sq / 9 <= 4 } else { sq / 9 >= 5 }
}

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const HORSE_STEPS: [(i8, i8, i8, i8); 8] = [
    // (df, dr, leg df, leg dr)
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

const fn sign(x: i8) -> i8 {
    if x > 0 {
        1
    } else if x < 0 {
        -1
    } else {
        0
    }
}

impl Tables {
    const fn new() -> Tables {
        let empty = Gated { to: 0, gate: 0 };
        let mut t = Tables {
            ray: [[[0; 9]; 4]; 90],
            ray_len: [[0; 4]; 90],
            horse: [[empty; 8]; 90],
            horse_len: [0; 90],
            horse_from: [[empty; 8]; 90],
            horse_from_len: [0; 90],
            elephant: [[[empty; 4]; 90]; 2],
            elephant_len: [[0; 90]; 2],
            advisor: [[[0; 4]; 90]; 2],
            advisor_len: [[0; 90]; 2],
            general: [[[0; 4]; 90]; 2],
            general_len: [[0; 90]; 2],
            soldier: [[[0; 3]; 90]; 2],
            soldier_len: [[0; 90]; 2],
            zobrist: [[0; 90]; 14],
            zobrist_black: 0,
        };
        let mut sq = 0;
        while sq < 90 {
            // Rays.
            let mut d = 0;
            while d < 4 {
                let (df, dr) = DIRS[d];
                let mut n = 0;
                let mut cur = sq;
                while let Some(next) = off(cur, df, dr) {
                    t.ray[sq][d][n] = next;
                    n += 1;
                    cur = next as usize;
                }
                t.ray_len[sq][d] = n as u8;
                d += 1;
            }
            // Horse, both ways.
            let mut i = 0;
            while i < 8 {
                let (df, dr, lf, lr) = HORSE_STEPS[i];
                if let (Some(to), Some(leg)) = (off(sq, df, dr), off(sq, lf, lr)) {
                    let n = t.horse_len[sq] as usize;
                    t.horse[sq][n] = Gated { to, gate: leg };
                    t.horse_len[sq] = n as u8 + 1;
                }
                // A horse on `sq + (df, dr)` reaches `sq` through the leg next to it,
                // which is the diagonal neighbour of `sq` toward the horse.
                if let (Some(from), Some(leg)) = (off(sq, df, dr), off(sq, sign(df), sign(dr))) {
                    let n = t.horse_from_len[sq] as usize;
                    t.horse_from[sq][n] = Gated {
                        to: from,
                        gate: leg,
                    };
                    t.horse_from_len[sq] = n as u8 + 1;
                }
                i += 1;
            }
            let mut c = 0;
            while c < 2 {
                let s8 = sq as u8;
                // Elephant: two points diagonally, on its own side.
                if own_side(s8, c) {
                    let mut k = 0;
                    while k < 4 {
                        let df = if k & 1 == 0 { 1 } else { -1 };
                        let dr = if k & 2 == 0 { 1 } else { -1 };
                        if let (Some(to), Some(eye)) = (off(sq, 2 * df, 2 * dr), off(sq, df, dr))
                            && own_side(to, c)
                        {
                            let n = t.elephant_len[c][sq] as usize;
                            t.elephant[c][sq][n] = Gated { to, gate: eye };
                            t.elephant_len[c][sq] = n as u8 + 1;
                        }
                        k += 1;
                    }
                }
                if in_palace(s8, c) {
                    // Advisor: one point diagonally inside the palace.
                    let mut k = 0;
                    while k < 4 {
                        let df = if k & 1 == 0 { 1 } else { -1 };
                        let dr = if k & 2 == 0 { 1 } else { -1 };
                        if let Some(to) = off(sq, df, dr)
                            && in_palace(to, c)
                        {
                            let n = t.advisor_len[c][sq] as usize;
                            t.advisor[c][sq][n] = to;
                            t.advisor_len[c][sq] = n as u8 + 1;
                        }
                        k += 1;
                    }
                    // General: one point orthogonally inside the palace.
                    let mut k = 0;
                    while k < 4 {
                        let (df, dr) = DIRS[k];
                        if let Some(to) = off(sq, df, dr)
                            && in_palace(to, c)
                        {
                            let n = t.general_len[c][sq] as usize;
                            t.general[c][sq][n] = to;
                            t.general_len[c][sq] = n as u8 + 1;
                        }
                        k += 1;
                    }
                }
                // Soldier: forward, and sideways once across the river.
                let fwd = if c == 0 { 1 } else { -1 };
                let mut n = 0;
                if let Some(to) = off(sq, 0, fwd) {
                    t.soldier[c][sq][n] = to;
                    n += 1;
                }
                if !own_side(s8, c) {
                    if let Some(to) = off(sq, -1, 0) {
                        t.soldier[c][sq][n] = to;
                        n += 1;
                    }
                    if let Some(to) = off(sq, 1, 0) {
                        t.soldier[c][sq][n] = to;
                        n += 1;
                    }
                }
                t.soldier_len[c][sq] = n as u8;
                c += 1;
            }
            sq += 1;
        }
        let mut state = 0x6B79_7068_7578_7131; // "kyphuxq1"
        let mut p = 0;
        while p < 14 {
            let mut s = 0;
            while s < 90 {
                t.zobrist[p][s] = splitmix(&mut state);
                s += 1;
            }
            p += 1;
        }
        t.zobrist_black = splitmix(&mut state);
        t
    }
}

pub(crate) static TABLES: Tables = Tables::new();

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap
mod tests {
    use super::*;

    #[test]
    fn table_sizes() {
        // Horse in the middle has 8 moves, in a corner 2.
        assert_eq!(TABLES.horse_len[4 * 9 + 4], 8);
        assert_eq!(TABLES.horse_len[0], 2);
        // Red elephant on c0 reaches a2 and e2; Black's elephant on c0 has none.
        assert_eq!(TABLES.elephant_len[0][2], 2);
        assert_eq!(TABLES.elephant_len[1][2], 0);
        // Red elephant on e2 cannot cross: c4, g4, c0, g0.
        assert_eq!(TABLES.elephant_len[0][2 * 9 + 4], 4);
        // Red elephant on c4 only goes back.
        assert_eq!(TABLES.elephant_len[0][4 * 9 + 2], 2);
        // Advisor in the palace centre has 4 moves, in a corner 1.
        assert_eq!(TABLES.advisor_len[0][9 + 4], 4);
        assert_eq!(TABLES.advisor_len[0][3], 1);
        assert_eq!(TABLES.general_len[1][8 * 9 + 4], 4);
        // Soldiers: one move before the river, three after (two at the edge).
        assert_eq!(TABLES.soldier_len[0][3 * 9], 1);
        assert_eq!(TABLES.soldier_len[0][5 * 9], 2);
        assert_eq!(TABLES.soldier_len[0][5 * 9 + 4], 3);
        assert_eq!(TABLES.soldier_len[1][9 * 4 + 4], 3);
        assert_eq!(TABLES.soldier_len[0][9 * 9 + 4], 2);
        assert_eq!(TABLES.ray_len[0][0], 9);
        assert_eq!(TABLES.ray_len[0][3], 8);
        assert_ne!(TABLES.zobrist[0][0], TABLES.zobrist[13][89]);
    }
}
