//! The xiangqi position: board, side to move, counters, move generation and the
//! end-of-game test (Vietnamese law 1409/2004, Art. 4–7).

use std::fmt;

use arrayvec::ArrayVec;

use super::{
    tables::{DOWN, TABLES, UP},
    types::{Move, Piece, Role, Square},
};
use crate::color::Color;

/// The standard start position, in the common xiangqi FEN form.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// More than the most pseudo-legal moves any reachable position has (at most 117:
/// chariots and cannons 17 each, horses 8, elephants 4, advisors 4 + 2, general 4,
/// soldiers 3).
pub const MAX_MOVES: usize = 128;

/// A move buffer that never allocates, for [`Position::legal_moves_into`].
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// A xiangqi position: a mailbox of 90 points, the side to move and the move counters.
///
/// A `Position` made by [`Position::from_fen`], [`Position::default`] or by playing legal
/// moves is always valid: one general per side, every piece on a point it can reach,
/// the generals not facing, the side not to move not in check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(super) board: [Option<Piece>; Square::COUNT],
    pub(super) turn: Color,
    pub(super) halfmoves: u32,
    pub(super) fullmoves: u32,
    /// The generals' points, by [`Color::index`].
    pub(super) generals: [Square; 2],
    /// Zobrist hash of board and side to move.
    pub(super) hash: u64,
}

/// Why the game is over when the side to move has no legal move (Art. 7, "thắng cờ").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OutcomeReason {
    /// Art. 7.a/c: the general is in check and nothing parries it.
    Checkmate,
    /// Art. 7.b: not in check, but no piece can move; a loss, not a draw.
    NoLegalMove,
}

/// The result decided on the board: the side to move has no legal move and loses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Color,
    pub reason: OutcomeReason,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.winner.fold("red", "black");
        match self.reason {
            OutcomeReason::Checkmate => write!(f, "{side} wins by checkmate"),
            OutcomeReason::NoLegalMove => {
                write!(f, "{side} wins: the opponent has no legal move")
            }
        }
    }
}

/// Why a move is not legal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IllegalReason {
    /// No piece stands on the origin point.
    EmptyOrigin,
    /// The piece on the origin point belongs to the side not to move.
    NotYourPiece,
    /// The piece cannot go there (wrong shape, blocked, own piece on the target, cannon
    /// without exactly one screen).
    CannotReach,
    /// After the move the mover's general would be attacked.
    LeavesGeneralInCheck,
    /// After the move the two generals would face each other on an open file.
    GeneralsFacing,
}

/// A move that [`Position::play`] refused, and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct IllegalMove {
    pub mv: Move,
    pub reason: IllegalReason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.mv;
        match self.reason {
            IllegalReason::EmptyOrigin => {
                write!(f, "illegal move {}: no piece on {}", m.iccs(), m.from)
            }
            IllegalReason::NotYourPiece => {
                write!(
                    f,
                    "illegal move {}: the piece on {} is the opponent's",
                    m.iccs(),
                    m.from
                )
            }
            IllegalReason::CannotReach => {
                write!(
                    f,
                    "illegal move {}: the piece on {} cannot reach {}",
                    m.iccs(),
                    m.from,
                    m.to
                )
            }
            IllegalReason::LeavesGeneralInCheck => {
                write!(
                    f,
                    "illegal move {}: it leaves the general in check",
                    m.iccs()
                )
            }
            IllegalReason::GeneralsFacing => {
                write!(
                    f,
                    "illegal move {}: the generals would face each other",
                    m.iccs()
                )
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// [`Position::play_null`] refused: the side to move is in check.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NullMoveInCheck;

impl fmt::Display for NullMoveInCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("null move: expected the side to move not in check, found it in check")
    }
}

impl std::error::Error for NullMoveInCheck {}

#[inline]
fn zkey(p: Piece, sq: usize) -> u64 {
    TABLES.zobrist[p.color.index() * 7 + p.role.index()][sq]
}

#[inline]
fn sq(i: u8) -> Square {
    // Table entries are point indices below 90 by construction.
    Square::from_index(i).unwrap_or_default()
}

/// What attacks a point, if anything (see [`attack_on`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Attack {
    None,
    Facing,
    Piece,
}

/// Is point `k` (where `us`'s general stands) attacked by `them` on `board`, or do the
/// generals face each other along its file?
pub(super) fn attack_on(board: &[Option<Piece>; Square::COUNT], k: usize, us: Color) -> Attack {
    let them = us.other();
    let t = &TABLES;
    // Rays: chariot (first piece), cannon (second piece), facing general (first piece,
    // vertical).
    let mut facing = false;
    for d in 0..4 {
        let ray = &t.ray[k][d];
        let len = t.ray_len[k][d] as usize;
        let mut i = 0;
        let mut screen = false;
        while i < len {
            if let Some(p) = board[ray[i] as usize] {
                if !screen {
                    if p.color == them {
                        match p.role {
                            Role::Chariot => return Attack::Piece,
                            Role::General if d == UP || d == DOWN => facing = true,
                            _ => {}
                        }
                    }
                    screen = true;
                } else {
                    if p.color == them && p.role == Role::Cannon {
                        return Attack::Piece;
                    }
                    break;
                }
            }
            i += 1;
        }
    }
    // Horses, through an empty leg next to the target.
    for g in &t.horse_from[k][..t.horse_from_len[k] as usize] {
        if board[g.to as usize]
            == Some(Piece {
                color: them,
                role: Role::Horse,
            })
            && board[g.gate as usize].is_none()
        {
            return Attack::Piece;
        }
    }
    // Soldiers: from the point in front of the general (seen from `us`), and from the
    // sides once they have crossed the river (always so next to a palace).
    let soldier = Some(Piece {
        color: them,
        role: Role::Soldier,
    });
    let (f, r) = ((k % 9) as i8, (k / 9) as i8);
    let fwd = if us == Color::White { 1 } else { -1 };
    for (df, dr) in [(0, fwd), (-1, 0), (1, 0)] {
        let (nf, nr) = (f + df, r + dr);
        if (0..9).contains(&nf) && (0..10).contains(&nr) {
            let n = (nr * 9 + nf) as usize;
            let crossed = dr != 0
                || (if them == Color::White {
                    nr >= 5
                } else {
                    nr <= 4
                });
            if crossed && board[n] == soldier {
                return Attack::Piece;
            }
        }
    }
    if facing { Attack::Facing } else { Attack::None }
}

impl Default for Position {
    /// The standard start position ([`START_FEN`]).
    fn default() -> Position {
        let mut board = [None; Square::COUNT];
        let back = [
            Role::Chariot,
            Role::Horse,
            Role::Elephant,
            Role::Advisor,
            Role::General,
            Role::Advisor,
            Role::Elephant,
            Role::Horse,
            Role::Chariot,
        ];
        for (file, role) in back.into_iter().enumerate() {
            board[file] = Some(Piece {
                color: Color::White,
                role,
            });
            board[81 + file] = Some(Piece {
                color: Color::Black,
                role,
            });
        }
        for file in [1, 7] {
            board[2 * 9 + file] = Some(Piece {
                color: Color::White,
                role: Role::Cannon,
            });
            board[7 * 9 + file] = Some(Piece {
                color: Color::Black,
                role: Role::Cannon,
            });
        }
        for file in [0, 2, 4, 6, 8] {
            board[3 * 9 + file] = Some(Piece {
                color: Color::White,
                role: Role::Soldier,
            });
            board[6 * 9 + file] = Some(Piece {
                color: Color::Black,
                role: Role::Soldier,
            });
        }
        Position::from_board(board, Color::White, 0, 1)
    }
}

impl Position {
    /// Builds a position from a board without validating it (callers validate), finding
    /// the generals and computing the hash.
    pub(super) fn from_board(
        board: [Option<Piece>; Square::COUNT],
        turn: Color,
        halfmoves: u32,
        fullmoves: u32,
    ) -> Position {
        let mut generals = [Square::default(); 2];
        let mut hash = if turn == Color::Black {
            TABLES.zobrist_black
        } else {
            0
        };
        for (i, p) in board.iter().enumerate() {
            if let Some(p) = *p {
                hash ^= zkey(p, i);
                if p.role == Role::General {
                    generals[p.color.index()] = sq(i as u8);
                }
            }
        }
        Position {
            board,
            turn,
            halfmoves,
            fullmoves,
            generals,
            hash,
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The piece on a point.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index() as usize]
    }

    /// Plies since the last capture (the FEN's halfmove field).
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number, starting at 1 and incremented after Black's move.
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The point of `color`'s general.
    pub fn general(&self, color: Color) -> Square {
        self.generals[color.index()]
    }

    /// A Zobrist hash of the board and the side to move (not the counters): equal
    /// positions in the sense of the repetition rules have equal hashes.
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// Is the side to move in check?
    pub fn is_check(&self) -> bool {
        let us = self.turn;
        attack_on(&self.board, self.generals[us.index()].index() as usize, us) != Attack::None
    }

    /// The enemy pieces giving check to the side to move (empty when not in check).
    pub fn checkers(&self) -> Vec<Square> {
        let us = self.turn;
        let k = self.generals[us.index()];
        let mut out = Vec::new();
        for s in Square::all() {
            if let Some(p) = self.piece_at(s)
                && p.color != us
                && self.piece_attacks(s, p, k)
            {
                out.push(s);
            }
        }
        out
    }

    /// Does piece `p` on `from` attack point `to` in this position (pseudo-legally)?
    fn piece_attacks(&self, from: Square, p: Piece, to: Square) -> bool {
        let mut list = MoveList::new();
        self.gen_piece(from.index() as usize, p, &mut list);
        if p.role == Role::General && from.file() == to.file() {
            // Flying general: it "attacks" the other along an open file.
            let (lo, hi) = (from.rank().min(to.rank()), from.rank().max(to.rank()));
            return (lo + 1..hi)
                .all(|r| Square::new(from.file(), r).is_none_or(|s| self.piece_at(s).is_none()));
        }
        list.iter().any(|m| m.to == to)
    }

    /// Pseudo-legal moves of the piece `p` on point `s`.
    fn gen_piece(&self, s: usize, p: Piece, out: &mut MoveList) {
        let t = &TABLES;
        let b = &self.board;
        let c = p.color.index();
        let from = sq(s as u8);
        let mut push = |to: u8| {
            if b[to as usize].is_none_or(|q| q.color != p.color) {
                out.push(Move { from, to: sq(to) });
            }
        };
        match p.role {
            Role::Chariot => {
                for d in 0..4 {
                    for &to in &t.ray[s][d][..t.ray_len[s][d] as usize] {
                        match b[to as usize] {
                            None => push(to),
                            Some(q) => {
                                if q.color != p.color {
                                    push(to);
                                }
                                break;
                            }
                        }
                    }
                }
            }
            Role::Cannon => {
                for d in 0..4 {
                    let mut screen = false;
                    for &to in &t.ray[s][d][..t.ray_len[s][d] as usize] {
                        match (b[to as usize], screen) {
                            (None, false) => push(to),
                            (None, true) => {}
                            (Some(_), false) => screen = true,
                            (Some(q), true) => {
                                if q.color != p.color {
                                    push(to);
                                }
                                break;
                            }
                        }
                    }
                }
            }
            Role::Horse => {
                for g in &t.horse[s][..t.horse_len[s] as usize] {
                    if b[g.gate as usize].is_none() {
                        push(g.to);
                    }
                }
            }
            Role::Elephant => {
                for g in &t.elephant[c][s][..t.elephant_len[c][s] as usize] {
                    if b[g.gate as usize].is_none() {
                        push(g.to);
                    }
                }
            }
            Role::Advisor => {
                for &to in &t.advisor[c][s][..t.advisor_len[c][s] as usize] {
                    push(to);
                }
            }
            Role::General => {
                for &to in &t.general[c][s][..t.general_len[c][s] as usize] {
                    push(to);
                }
            }
            Role::Soldier => {
                for &to in &t.soldier[c][s][..t.soldier_len[c][s] as usize] {
                    push(to);
                }
            }
        }
    }

    /// All pseudo-legal moves of the side to move (ignoring checks and facing generals).
    fn pseudo_legal_into(&self, out: &mut MoveList) {
        for (s, p) in self.board.iter().enumerate() {
            if let Some(p) = *p
                && p.color == self.turn
            {
                self.gen_piece(s, p, out);
            }
        }
    }

    /// What the move would expose the mover's general to (the move must be
    /// pseudo-legal).
    fn exposure(&self, m: Move) -> Attack {
        let mut board = self.board;
        let (f, t) = (m.from.index() as usize, m.to.index() as usize);
        let moving = board[f];
        board[t] = moving;
        board[f] = None;
        let us = self.turn;
        let k = match moving {
            Some(p) if p.role == Role::General => t,
            _ => self.generals[us.index()].index() as usize,
        };
        attack_on(&board, k, us)
    }

    /// The legal moves, appended to a caller's buffer (no allocation).
    pub fn legal_moves_into(&self, out: &mut MoveList) {
        let start = out.len();
        self.pseudo_legal_into(out);
        let us = self.turn;
        let k = self.generals[us.index()].index() as usize;
        // Out of check, a move can only expose the general through the lines it stands
        // on (chariot, cannon, facing general: origin or target on its file or rank) or
        // by unblocking a horse's leg (origin diagonally next to it); soldiers cannot be
        // unblocked. Other moves need no test.
        let in_check = attack_on(&self.board, k, us) != Attack::None;
        let (kf, kr) = (k % 9, k / 9);
        let risky = |f: usize, t: usize| {
            in_check
                || f == k
                || f % 9 == kf
                || f / 9 == kr
                || t % 9 == kf
                || t / 9 == kr
                || ((f % 9).abs_diff(kf) == 1 && (f / 9).abs_diff(kr) == 1)
        };
        let mut board = self.board;
        let mut i = start;
        while i < out.len() {
            let m = out[i];
            let (f, t) = (m.from.index() as usize, m.to.index() as usize);
            if !risky(f, t) {
                i += 1;
                continue;
            }
            let moving = board[f];
            let captured = board[t];
            board[t] = moving;
            board[f] = None;
            let kk = if f == k { t } else { k };
            let ok = attack_on(&board, kk, us) == Attack::None;
            board[f] = moving;
            board[t] = captured;
            if ok {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list.to_vec()
    }

    /// Does the side to move have any legal move?
    pub fn has_legal_moves(&self) -> bool {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        !list.is_empty()
    }

    /// Checks a move, saying why it is not legal.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        let err = |reason| Err(IllegalMove { mv: m, reason });
        let Some(p) = self.piece_at(m.from) else {
            return err(IllegalReason::EmptyOrigin);
        };
        if p.color != self.turn {
            return err(IllegalReason::NotYourPiece);
        }
        let mut list = MoveList::new();
        self.gen_piece(m.from.index() as usize, p, &mut list);
        if !list.contains(&m) {
            return err(IllegalReason::CannotReach);
        }
        match self.exposure(m) {
            Attack::None => Ok(()),
            Attack::Facing => err(IllegalReason::GeneralsFacing),
            Attack::Piece => err(IllegalReason::LeavesGeneralInCheck),
        }
    }

    /// Is the move legal?
    pub fn is_legal(&self, m: Move) -> bool {
        self.check_move(m).is_ok()
    }

    /// Plays a move after checking it; the position is unchanged on error.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        self.check_move(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move without checking it. The move must be legal (from
    /// [`Position::legal_moves`] or checked with [`Position::is_legal`]); an illegal one
    /// leaves an unspecified (but memory-safe) position. A move from an empty point
    /// changes nothing.
    pub fn play_unchecked(&mut self, m: Move) {
        let (f, t) = (m.from.index() as usize, m.to.index() as usize);
        let Some(moving) = self.board[f] else {
            return;
        };
        let captured = self.board[t];
        self.board[f] = None;
        self.board[t] = Some(moving);
        self.hash ^= zkey(moving, f) ^ zkey(moving, t) ^ TABLES.zobrist_black;
        if let Some(c) = captured {
            self.hash ^= zkey(c, t);
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        if moving.role == Role::General {
            self.generals[moving.color.index()] = m.to;
        }
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = self.turn.other();
    }

    /// Passes the turn (a null move, `--` in analysis records): the side to move
    /// changes, the counters advance as for a quiet move. Refused when in check, since
    /// the opponent could then take the general.
    pub fn play_null(&mut self) -> Result<(), NullMoveInCheck> {
        if self.is_check() {
            return Err(NullMoveInCheck);
        }
        self.hash ^= TABLES.zobrist_black;
        self.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = self.turn.other();
        Ok(())
    }

    /// Is the side to move checkmated (in check with no legal move)?
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Has the side to move no legal move without being in check? In xiangqi this
    /// loses (Art. 7.b), unlike chess stalemate.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// The board result: `Some` when the side to move has no legal move, which loses
    /// whether in check or not (Art. 7.a–c). Draws and rule decisions (repetition,
    /// perpetual check, move counts) are not decided here: see
    /// `replay::xiangqi_rules::RuleTracker`.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_moves() {
            return None;
        }
        let reason = if self.is_check() {
            OutcomeReason::Checkmate
        } else {
            OutcomeReason::NoLegalMove
        };
        Some(Outcome {
            winner: self.turn.other(),
            reason,
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn mv(s: &str) -> Move {
        Move {
            from: Square::parse_iccs(&s[..2]).unwrap(),
            to: Square::parse_iccs(&s[2..]).unwrap(),
        }
    }

    /// Sorted ICCS targets of the piece on `from`, among the legal moves.
    fn targets(p: &Position, from: &str) -> Vec<String> {
        let from = Square::parse_iccs(from).unwrap();
        let mut v: Vec<String> = p
            .legal_moves()
            .into_iter()
            .filter(|m| m.from == from)
            .map(|m| m.to.iccs())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn default_is_start_fen() {
        assert_eq!(Position::default().fen(), START_FEN);
        assert_eq!(Position::default(), pos(START_FEN));
        assert_eq!(Position::default().legal_moves().len(), 44);
    }

    #[test]
    fn piece_moves_table() {
        // (fen, piece point, expected legal targets sorted)
        let cases: &[(&str, &str, &str, &str)] = &[
            // (fen, piece point, legal targets sorted, what)
            (
                "4k4/9/9/9/9/4p4/9/9/9/4K4 w",
                "e0",
                "d0 e1 f0",
                "general, palace edge",
            ),
            (
                "5k3/9/9/9/9/9/9/9/9/3K5 w",
                "d0",
                "d1 e0",
                "general cannot leave the palace",
            ),
            (
                "3k5/9/9/9/9/9/9/9/4A4/5K3 w",
                "e1",
                "d0 d2 f2",
                "advisor in the centre",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/3AK4 w",
                "d0",
                "e1",
                "advisor in a corner",
            ),
            (
                "3k5/9/9/9/9/9/9/4B4/9/4K4 w",
                "e2",
                "c0 c4 g0 g4",
                "elephant free",
            ),
            (
                "3k5/9/9/9/9/9/9/4B4/5N3/4K4 w",
                "e2",
                "c0 c4 g4",
                "elephant eye f1 blocked",
            ),
            (
                "3k5/9/9/9/9/2B6/9/9/9/4K4 w",
                "c4",
                "a2 e2",
                "elephant cannot cross the river",
            ),
            (
                "3k5/9/9/9/9/4N4/9/9/9/4K4 w",
                "e4",
                "c3 c5 d2 d6 f2 f6 g3 g5",
                "horse free",
            ),
            (
                "3k5/9/9/9/9/4N4/4P4/9/9/4K4 w",
                "e4",
                "c3 c5 d6 f6 g3 g5",
                "horse leg e3 blocked",
            ),
            (
                "3k5/9/9/9/9/3CNC3/9/9/9/4K4 w",
                "e4",
                "d2 d6 f2 f6",
                "horse legs d4 f4 blocked",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/N3K4 w",
                "a0",
                "b2 c1",
                "horse in a corner",
            ),
            (
                "3k5/9/9/9/9/9/p8/9/9/R3K4 w",
                "a0",
                "a1 a2 a3 b0 c0 d0",
                "chariot captures a3",
            ),
            (
                "3k5/9/9/9/n8/9/P8/9/9/C3K4 w",
                "a0",
                "a1 a2 a5 b0 c0 d0",
                "cannon jumps a3",
            ),
            (
                "5k3/9/9/9/9/9/4P4/9/9/3K5 w",
                "e3",
                "e4",
                "soldier before the river",
            ),
            (
                "5k3/9/9/9/4P4/9/9/9/9/3K5 w",
                "e5",
                "d5 e6 f5",
                "soldier across the river",
            ),
            (
                "3k5/P8/9/9/9/9/9/9/9/4K4 w",
                "a8",
                "a9 b8",
                "soldier at the edge",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/p3K4 b",
                "a0",
                "b0",
                "black soldier on the last rank",
            ),
            (
                "4k4/9/9/4p4/9/9/9/9/9/3K5 b",
                "e6",
                "e5",
                "black soldier before the river",
            ),
            (
                "4k4/9/9/9/4N4/9/9/9/9/4K4 w",
                "e5",
                "",
                "horse pinned by the facing rule",
            ),
        ];
        for (fen, from, want, what) in cases {
            let p = pos(fen);
            assert_eq!(targets(&p, from).join(" "), *want, "{what}: {fen}");
        }
    }

    #[test]
    fn cannon_needs_exactly_one_screen() {
        // Red cannon a0, black horse a6; screens on a3 and a5 as given.
        // (fen, can a0 take the black horse on a6, what)
        let cases: &[(&str, bool, &str)] = &[
            ("3k5/9/9/n8/9/9/9/9/9/C3K4 w", false, "no screen"),
            ("3k5/9/9/n8/9/9/P8/9/9/C3K4 w", true, "one screen"),
            ("3k5/9/9/n8/P8/9/P8/9/9/C3K4 w", false, "two screens"),
            (
                "3k5/9/9/n8/p8/9/9/9/9/C3K4 w",
                true,
                "an enemy piece is a screen too",
            ),
        ];
        for (fen, can, what) in cases {
            let p = pos(fen);
            assert_eq!(p.is_legal(mv("a0a6")), *can, "{what}");
        }
        // Without a screen the cannon cannot take the soldier on a5.
        let p = pos("3k5/9/9/n8/p8/9/9/9/9/C3K4 w");
        assert_eq!(
            p.check_move(mv("a0a5")).unwrap_err().reason,
            IllegalReason::CannotReach
        );
        // A cannon cannot capture the adjacent piece directly.
        let p = pos("3k5/9/9/9/9/9/9/9/n8/C3K4 w");
        assert_eq!(
            p.check_move(mv("a0a1")).unwrap_err().reason,
            IllegalReason::CannotReach
        );
        // Cannon check over one screen.
        let p = pos("4k4/9/9/9/9/4P4/9/9/9/3K1C3 b");
        assert!(!p.is_check());
        let p = pos("4k4/9/9/9/9/4P4/9/9/9/3KC4 b");
        assert!(p.is_check());
        assert_eq!(p.checkers(), vec![Square::parse_iccs("e0").unwrap()]);
    }

    #[test]
    fn flying_general() {
        // Moving the only blocker off the file is illegal.
        let p = pos("4k4/9/9/9/4N4/9/9/9/9/4K4 w");
        assert_eq!(
            p.check_move(mv("e5c6")).unwrap_err().reason,
            IllegalReason::GeneralsFacing
        );
        // The general may not step onto the open file of the other.
        let p = pos("4k4/9/9/9/9/9/9/9/9/3K5 w");
        assert_eq!(
            p.check_move(mv("d0e0")).unwrap_err().reason,
            IllegalReason::GeneralsFacing
        );
        assert_eq!(targets(&p, "d0"), vec!["d1"]);
        // A capture that opens the file: the red horse on e5, the only blocker, takes
        // the chariot on d7.
        let p = pos("4k4/9/3r5/9/4N4/9/9/9/9/4K4 w");
        assert_eq!(
            p.check_move(mv("e5d7")).unwrap_err().reason,
            IllegalReason::GeneralsFacing
        );
        // The same capture with a second blocker (black advisor e8) is legal.
        let p = pos("4k4/4a4/3r5/9/4N4/9/9/9/9/4K4 w");
        assert!(p.is_legal(mv("e5d7")));
        // Black too: its only blocker, the horse on e8, cannot take the chariot on d6.
        let p = pos("4k4/4n4/9/3R5/9/9/9/9/9/4K4 b");
        assert_eq!(
            p.check_move(mv("e8d6")).unwrap_err().reason,
            IllegalReason::GeneralsFacing
        );
        assert_eq!(targets(&p, "e8"), Vec::<String>::new());
    }

    #[test]
    fn check_and_pins() {
        // Horse check, parried by blocking its leg.
        let p = pos("3k5/9/9/9/9/9/9/3n5/9/4K4 w");
        assert!(p.is_check());
        assert_eq!(p.checkers(), vec![Square::parse_iccs("d2").unwrap()]);
        assert_eq!(targets(&p, "e0"), vec!["d0", "e1", "f0"]);
        // The same horse with its leg (d1) blocked gives no check.
        let p = pos("3k5/9/9/9/9/9/9/3n5/3N5/4K4 w");
        assert!(!p.is_check());
        assert!(p.checkers().is_empty());
        // Soldier checks from the side.
        let p = pos("3k5/9/9/9/9/9/9/9/9/3pK4 w");
        assert!(p.is_check());
        let p = pos("3Pk4/9/9/9/9/9/9/9/9/3K5 b");
        assert!(p.is_check());
        // A soldier never attacks backwards: red soldier e8 behind the general on e7.
        let p = pos("9/4P4/4k4/9/9/9/9/9/9/3K5 b");
        assert!(!p.is_check());
        // Leaving the general in check.
        let p = pos("4k4/9/9/9/9/9/9/9/4r4/3K1A3 w");
        assert_eq!(
            p.check_move(mv("d0e0")).unwrap_err().reason,
            IllegalReason::LeavesGeneralInCheck
        );
        // Errors for the wrong piece.
        let p = Position::default();
        assert_eq!(
            p.check_move(mv("e5e6")).unwrap_err().reason,
            IllegalReason::EmptyOrigin
        );
        assert_eq!(
            p.check_move(mv("a9a8")).unwrap_err().reason,
            IllegalReason::NotYourPiece
        );
        assert_eq!(
            p.check_move(mv("b0b1")).unwrap_err().reason,
            IllegalReason::CannotReach
        );
        assert_eq!(
            p.check_move(mv("a9a8")).unwrap_err().to_string(),
            "illegal move a9a8: the piece on a9 is the opponent's"
        );
    }

    #[test]
    fn no_legal_move_is_a_loss() {
        // Black general on d9: e9 would face the red general, d8 is covered by the
        // chariot on f8; not in check, no legal move: Black loses (Art. 7.b).
        let p = pos("3k5/5R3/9/9/9/9/9/9/9/4K4 b");
        assert!(!p.is_check());
        assert!(p.legal_moves().is_empty());
        assert!(p.is_stalemate());
        assert!(!p.is_checkmate());
        assert_eq!(
            p.outcome(),
            Some(Outcome {
                winner: Color::White,
                reason: OutcomeReason::NoLegalMove
            })
        );
        // Checkmate: a second chariot on d2 gives check along the d-file.
        let p = pos("3k5/5R3/9/9/9/9/9/3R5/9/4K4 b");
        assert!(p.is_checkmate());
        assert_eq!(
            p.outcome().map(|o| o.reason),
            Some(OutcomeReason::Checkmate)
        );
        assert_eq!(Position::default().outcome(), None);
    }

    #[test]
    fn play_updates_counters_and_hash() {
        let mut p = Position::default();
        p.play(mv("h2e2")).unwrap();
        assert_eq!(p.turn(), Color::Black);
        assert_eq!((p.halfmoves(), p.fullmoves()), (1, 1));
        p.play(mv("h9g7")).unwrap();
        assert_eq!((p.halfmoves(), p.fullmoves()), (2, 2));
        // Cannon takes the central soldier: e2 over e3 screen to e6.
        p.play(mv("e2e6")).unwrap();
        assert_eq!(p.halfmoves(), 0);
        assert_eq!(
            p.fen(),
            "rnbakab1r/9/1c4nc1/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2"
        );
        let fresh = pos(&p.fen());
        assert_eq!(fresh.zobrist(), p.zobrist());
        assert_eq!(fresh, p);
        let before = p.clone();
        assert!(p.play(mv("a0a5")).is_err());
        assert_eq!(p, before);
        // A null move passes the turn; refused in check.
        let mut n = before.clone();
        n.play_null().unwrap();
        assert_eq!(
            n.fen(),
            "rnbakab1r/9/1c4nc1/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR w - - 1 3"
        );
        assert_eq!(n.zobrist(), pos(&n.fen()).zobrist());
        let mut c = pos("4k4/9/9/9/9/4P4/9/9/9/3KC4 b");
        assert_eq!(c.play_null(), Err(NullMoveInCheck));
        assert_eq!(
            NullMoveInCheck.to_string(),
            "null move: expected the side to move not in check, found it in check"
        );
        // play_unchecked from an empty point changes nothing.
        p.play_unchecked(mv("e5e4"));
        assert_eq!(p, before);
    }

    /// Random games: `legal_moves` (with its shortcut) agrees with `is_legal` (full
    /// test) on every origin/target pair, the incremental hash with a fresh one, and
    /// the FEN round-trips.
    #[test]
    fn random_games_are_consistent() {
        let mut rng = crate::testing::XorShift::new(0x2545_F491_4F6C_DD1D);
        let suite = [
            START_FEN,
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        ];
        for fen in suite {
            for _ in 0..8 {
                let mut p = pos(fen);
                for _ in 0..60 {
                    let legal = p.legal_moves();
                    let mut count = 0;
                    for from in Square::all() {
                        for to in Square::all() {
                            let m = Move { from, to };
                            let is = p.is_legal(m);
                            assert_eq!(is, legal.contains(&m), "{} {}", p.fen(), m.iccs());
                            count += usize::from(is);
                        }
                    }
                    assert_eq!(count, legal.len());
                    let fresh = pos(&p.fen());
                    assert_eq!(fresh, p);
                    if legal.is_empty() {
                        assert!(p.outcome().is_some());
                        break;
                    }
                    let m = legal[rng.below(legal.len())];
                    p.play(m).unwrap();
                }
            }
        }
    }
}
