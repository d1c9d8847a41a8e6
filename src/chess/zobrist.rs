//! Zobrist keys, generated at compile time from a fixed seed (splitmix64).

use super::types::{File, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix(state);
        state = s;
        out[i] = k;
        i += 1;
    }
    out
}

static PIECES: [u64; 12 * 64] = keys(1);
static CASTLING: [u64; 64] = keys(2);
static EN_PASSANT: [u64; 8] = keys(3);
pub const BLACK_TO_MOVE: u64 = keys::<1>(4)[0];

#[inline]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    let p = piece.color.index() * 6 + piece.role.index();
    PIECES[p * 64 + sq.index() as usize]
}

/// Key of the castling right whose rook stands on `rook`.
#[inline]
pub fn castling(rook: Square) -> u64 {
    CASTLING[rook.index() as usize]
}

#[inline]
pub fn en_passant(file: File) -> u64 {
    EN_PASSANT[file.index() as usize]
}
