//! SAN put together in a machine word ([`SanWords::san`]): the first eight bytes and
//! the length, from templates made once per style, for the JSON writer, which
//! compares the word with the move's text at once and copies it in one piece.

use super::{San, SanOut, SanStyle};
use crate::{
    chess::{CastlingSide, Move, Role, Square},
    model::game::SanHint,
};

/// SAN put together in a word: its first eight bytes
/// (little-endian) and its length, which may be more (the bytes past the eighth are
/// then lost).
#[derive(Default)]
pub(crate) struct SanWord {
    /// The first eight bytes, little-endian.
    pub(crate) word: u64,
    /// The length, which may be more than 8.
    pub(crate) len: usize,
}

impl SanWord {
    /// Appends the first `len` bytes of `word` (little-endian, up to eight: no more are
    /// kept).
    #[inline(always)]
    fn push_word(&mut self, (word, len): (u64, usize)) {
        // once past the eighth byte the shift wraps around: those bytes are not used
        self.word |= word.wrapping_shl(8 * self.len as u32);
        self.len += len;
    }

    /// Appends an ASCII character.
    #[inline(always)]
    fn push_ascii(&mut self, c: u8) {
        self.push_word((u64::from(c), 1));
    }
}

/// The pieces of SAN in one style as words ([`SanWord`]), for [`SanWords::san`].
#[derive(Debug)]
pub(crate) struct SanWords {
    /// The letter of each role, by [`Role::index`].
    letters: [(u64, usize); 6],
    /// The letter written before a move of each role: none for a pawn.
    pieces: [(u64, usize); 6],
    /// King-side and queen-side castling.
    castles: [(u64, usize); 2],
    promotion_eq: bool,
    check_marks: bool,
    /// The SAN of a move without promotion for each role and choice of what it
    /// writes before the destination ([`template_index`]).
    templates: [SanTemplate; 64],
}

/// The SAN of the moves of one role without promotion or check mark, for one choice
/// of what is written before the destination (the origin's file, its rank, a capture's
/// `x`): its fixed bytes in place, and where the bytes of the move go. The origin's
/// file letter, its rank's digit and the destination's name are each put in place by
/// one multiplication, by `1 << 8 * offset` (`0`: not written, or from the eighth
/// byte on), so that [`SanWords::san`] puts a usual move together without a branch
/// per piece.
#[derive(Copy, Clone, Debug, Default)]
struct SanTemplate {
    word: u64,
    file: u64,
    rank: u64,
    square: u64,
    /// The length (more than 8: the word holds the first eight bytes).
    len: usize,
}

/// The index in [`SanWords::templates`] of a move of `role` that writes its origin's
/// file (`file`), its rank (`rank`) and a capture's `x` (`capture`).
#[inline(always)]
fn template_index(role: Role, file: bool, rank: bool, capture: bool) -> usize {
    role.index() << 3 | usize::from(file) << 2 | usize::from(rank) << 1 | usize::from(capture)
}

impl SanWords {
    /// The words of `style`.
    pub(crate) fn new(style: &SanStyle) -> SanWords {
        // what `San::write` writes of each piece
        let word = |write: &dyn Fn(&mut SanWord)| {
            let mut w = SanWord::default();
            write(&mut w);
            (w.word, w.len)
        };
        let letters = Role::ALL.map(|r| word(&|w| w.push_text(style.table.letter(r))));
        let mut pieces = letters;
        pieces[Role::Pawn.index()] = (0, 0);
        let castle = |side| {
            word(&|w| {
                let (king, rook) = match side {
                    CastlingSide::KingSide => (Square::E1, Square::H1),
                    CastlingSide::QueenSide => (Square::E1, Square::A1),
                };
                let hint = SanHint {
                    file: false,
                    rank: false,
                    check: false,
                    mate: false,
                };
                San::from_hint(Move::Castle { king, rook }, hint).write(w, style);
            })
        };
        let mut templates = [SanTemplate::default(); 64];
        for role in Role::ALL {
            for bits in 0..8 {
                let (file, rank, capture) = (bits & 4 != 0, bits & 2 != 0, bits & 1 != 0);
                // where the next byte goes, as a multiplier (0 past the eighth byte)
                let at = |s: &SanWord| 1u64.checked_shl(8 * s.len as u32).unwrap_or(0);
                let mut s = SanWord::default();
                let mut t = SanTemplate::default();
                s.push_word(pieces[role.index()]);
                if file {
                    t.file = at(&s);
                    s.len += 1;
                }
                if rank {
                    t.rank = at(&s);
                    s.len += 1;
                }
                if capture {
                    s.push_ascii(b'x');
                }
                t.square = at(&s);
                s.len += 2;
                (t.word, t.len) = (s.word, s.len);
                templates[template_index(role, file, rank, capture)] = t;
            }
        }
        SanWords {
            letters,
            pieces,
            castles: [
                castle(CastlingSide::KingSide),
                castle(CastlingSide::QueenSide),
            ],
            promotion_eq: style.promotion_eq,
            check_marks: style.check_marks,
            templates,
        }
    }

    /// The SAN of `m`, what [`San::write`] writes from `hint` in the style,
    /// put together from words without a loop: a move without promotion from its
    /// template ([`SanTemplate`]).
    #[inline(always)]
    pub(crate) fn san(&self, m: &Move, hint: SanHint) -> SanWord {
        let Some((role, from, to, capture, None)) = m.san_parts() else {
            return self.san_by_pieces(m, hint);
        };
        // the index is below 48: the mask only spares a check
        let i = template_index(role, hint.file, hint.rank, capture) & 63;
        let t = self.templates.get(i).copied().unwrap_or_default();
        // a byte placed past the eighth is lost (the word holds the first eight)
        let word = t.word
            | u64::from(b'a' + from.file().index()).wrapping_mul(t.file)
            | u64::from(b'1' + from.rank().index()).wrapping_mul(t.rank)
            | square_word(to).wrapping_mul(t.square);
        self.check_mark(SanWord { word, len: t.len }, hint)
    }

    /// [`SanWords::san`] piece by piece: for castling and promotions (and the test
    /// comparing the templates with it).
    #[inline(never)]
    fn san_by_pieces(&self, m: &Move, hint: SanHint) -> SanWord {
        let word = |t: &[(u64, usize)], i: usize| t.get(i).copied().unwrap_or((0, 0));
        let mut s = SanWord::default();
        let Some((role, from, to, capture, promotion)) = m.san_parts() else {
            let queen_side = m.castling_side() == Some(CastlingSide::QueenSide);
            s.push_word(word(&self.castles, usize::from(queen_side)));
            return self.check_mark(s, hint);
        };
        s.push_word(word(&self.pieces, role.index()));
        if hint.file {
            s.push_ascii(b'a' + from.file().index());
        }
        if hint.rank {
            s.push_ascii(b'1' + from.rank().index());
        }
        if capture {
            s.push_ascii(b'x');
        }
        s.push_word((square_word(to), 2));
        if let Some(p) = promotion {
            if self.promotion_eq {
                s.push_ascii(b'=');
            }
            s.push_word(word(&self.letters, p.index()));
        }
        self.check_mark(s, hint)
    }

    /// `s` with the check mark of `hint` in the style.
    #[inline(always)]
    fn check_mark(&self, mut s: SanWord, hint: SanHint) -> SanWord {
        if self.check_marks && hint.check {
            s.push_ascii(if hint.mate { b'#' } else { b'+' });
        }
        s
    }
}

impl SanOut for SanWord {
    #[inline(always)]
    fn push_ascii(&mut self, c: u8) {
        SanWord::push_ascii(self, c);
    }
    fn push_text(&mut self, s: &str) {
        for &c in s.as_bytes() {
            SanWord::push_ascii(self, c);
        }
    }
}

/// The name of `sq` (`e4`) in the low two bytes of a word, little-endian.
#[inline(always)]
pub(crate) fn square_word(sq: Square) -> u64 {
    // a square's index is below 64: the mask only spares a check
    let [file, rank] = SQUARE_NAMES
        .get(usize::from(sq.index()) & 63)
        .copied()
        .unwrap_or_default();
    u64::from(file) | u64::from(rank) << 8
}

/// The names of the 64 squares, `a1` to `h8`, by [`Square::index`].
const SQUARE_NAMES: [[u8; 2]; 64] = {
    let mut t = [[0; 2]; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = [b'a' + (i % 8) as u8, b'1' + (i / 8) as u8];
        i += 1;
    }
    t
};

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// PGN, figurine, Vietnamese letters, and PGN without check marks.
    fn four_styles() -> [SanStyle; 4] {
        use crate::notation::chess::table;
        [
            SanStyle::pgn(),
            SanStyle::figurine(),
            SanStyle::fide(table("vi").unwrap()),
            SanStyle {
                check_marks: false,
                ..SanStyle::pgn()
            },
        ]
    }

    /// [`SanWords::san`] is what [`San::write`] writes, for every legal move
    /// of a few positions (castling both ways, chess960 too, promotions, en passant)
    /// and of positions along random games (captures by every role), with every hint,
    /// in every style: its eight bytes and its length.
    #[test]
    fn san_words_agree_with_write_san() {
        use crate::notation::chess::table;
        let positions = [
            crate::chess::Position::from_fen("r3k2r/1P4P1/8/3N1N2/8/8/1p4p1/R3K2R w KQkq - 0 1"),
            crate::chess::Position::from_fen("r3k2r/1P4P1/8/3N1N2/8/8/1p4p1/R3K2R b KQkq - 0 1"),
            crate::chess::Position::from_fen(
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            ),
            crate::chess::Position::from_fen_chess960(
                "1rk3r1/pppppppp/8/8/8/8/PPPPPPPP/1RK3R1 w GBgb - 0 1",
            ),
            crate::chess::Position::from_fen_chess960("4k3/8/8/8/8/8/8/RK4R1 w GA - 0 1"),
        ];
        let mut styles = four_styles().to_vec();
        styles.push(SanStyle::fide(table("fa").unwrap()));
        styles.push(SanStyle {
            promotion_eq: false,
            castle_zeros: true,
            ..SanStyle::pgn()
        });
        let mut positions: Vec<_> = positions.into_iter().map(Result::unwrap).collect();
        let mut rng = crate::testing::XorShift::new(7);
        for _ in 0..8 {
            let mut pos = crate::chess::Position::default();
            for ply in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if ply % 15 == 14 {
                    positions.push(pos.clone());
                }
                pos.play_unchecked(&moves[rng.below(moves.len())]);
            }
        }
        let mut checked = 0;
        for pos in positions {
            for m in &pos.legal_moves() {
                for bits in 0..16u8 {
                    let hint = SanHint {
                        file: bits & 1 != 0,
                        rank: bits & 2 != 0,
                        check: bits & 4 != 0,
                        mate: bits & 8 != 0,
                    };
                    for style in &styles {
                        let mut want = String::new();
                        San::from_hint(*m, hint).write(&mut want, style);
                        let got = SanWords::new(style).san(m, hint);
                        assert_eq!(got.len, want.len(), "{want} {m:?}");
                        let mut eight = want.as_bytes().to_vec();
                        eight.resize(8, 0);
                        if got.len <= 8 {
                            let bytes = got.word.to_le_bytes();
                            assert_eq!(bytes[..], eight[..], "{want} {m:?}");
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 5_000, "{checked}");
    }
}
