//! The chess position: board, side to move, castling rights, en passant, clocks; legal
//! move generation and making moves.
//!
//! Move generation is fully legal (pins and check evasions computed up front, as in
//! shakmaty and Stockfish), so that resolving a written move against the position is a
//! filter over [`Position::legal_moves_to`], which generates only moves reaching one
//! square.

use arrayvec::ArrayVec;

use super::{
    attacks,
    bitboard::Bitboard,
    types::{CastlingSide, File, Move, Piece, Rank, Role, Square},
    zobrist,
};
use crate::color::Color;

/// A list of moves, no heap allocation (no position has more than 218 legal moves).
pub type MoveList = ArrayVec<Move, 256>;

/// Castling rights: for each side and wing, the square of the rook that may castle.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Castles {
    rooks: [[Option<Square>; 2]; 2],
    /// The squares in `rooks`, kept with them: one test tells whether a move touches a
    /// rook with a right (most moves do not).
    squares: Bitboard,
}

impl Castles {
    /// The rook square for `color` castling to `side`, if the right exists.
    #[inline]
    pub fn rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        self.rooks[color.index()][side.index()]
    }

    pub fn set(&mut self, color: Color, side: CastlingSide, rook: Option<Square>) {
        self.rooks[color.index()][side.index()] = rook;
        self.refresh_squares();
    }

    pub fn has(&self, color: Color, side: CastlingSide) -> bool {
        self.rook(color, side).is_some()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// Recomputes `squares` from `rooks` (after a change, which is rare).
    fn refresh_squares(&mut self) {
        self.squares = self
            .rooks
            .iter()
            .flatten()
            .flatten()
            .fold(Bitboard::EMPTY, |b, &sq| b.with(sq));
    }

    /// Drops the rights of `color` (its king moved).
    #[inline]
    fn discard_color(&mut self, color: Color) {
        if self.rooks[color.index()] != [None, None] {
            self.rooks[color.index()] = [None, None];
            self.refresh_squares();
        }
    }

    /// Drops the rights of the rooks standing on `squares` (a rook moved or taken).
    #[inline]
    fn discard_rooks(&mut self, squares: Bitboard) {
        if (self.squares & squares).any() {
            self.discard_rooks_on(squares);
        }
    }

    /// [`Castles::discard_rooks`] once a rook with a right is known to stand on
    /// `squares`.
    #[cold]
    #[inline(never)]
    fn discard_rooks_on(&mut self, squares: Bitboard) {
        for r in self.rooks.iter_mut().flatten() {
            if r.is_some_and(|sq| squares.contains(sq)) {
                *r = None;
            }
        }
        self.refresh_squares();
    }
}

/// A legal chess position (the FEN reader and [`Position::play_unchecked`] keep it so:
/// one king each, side not to move not in check).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(super) by_color: [Bitboard; 2],
    pub(super) by_role: [Bitboard; 6],
    pub(super) turn: Color,
    pub(super) castles: Castles,
    /// The square behind a pawn that just advanced two squares, as FEN records it
    /// (whether or not a capture there is possible).
    pub(super) ep_square: Option<Square>,
    pub(super) halfmoves: u32,
    pub(super) fullmoves: u32,
    pub(super) chess960: bool,
    /// The pieces giving check to the side to move, kept up to date by every way of
    /// making a position (`Default`, the FEN reader, playing a move).
    pub(super) checkers: Bitboard,
}

impl Default for Position {
    /// The standard initial position.
    fn default() -> Position {
        static START: std::sync::LazyLock<Position> = std::sync::LazyLock::new(Position::initial);
        START.clone()
    }
}

impl Position {
    fn initial() -> Position {
        let mut pos = Position::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in File::all().zip(back) {
            pos.put(
                Square::from_coords(file, Rank::FIRST),
                Piece {
                    color: Color::White,
                    role,
                },
            );
            pos.put(
                Square::from_coords(file, Rank::SECOND),
                Piece {
                    color: Color::White,
                    role: Role::Pawn,
                },
            );
            pos.put(
                Square::from_coords(file, Rank::SEVENTH),
                Piece {
                    color: Color::Black,
                    role: Role::Pawn,
                },
            );
            pos.put(
                Square::from_coords(file, Rank::EIGHTH),
                Piece {
                    color: Color::Black,
                    role,
                },
            );
        }
        for color in Color::ALL {
            let rank = Rank::FIRST.relative(color);
            pos.castles.set(
                color,
                CastlingSide::KingSide,
                Some(Square::from_coords(File::H, rank)),
            );
            pos.castles.set(
                color,
                CastlingSide::QueenSide,
                Some(Square::from_coords(File::A, rank)),
            );
        }
        pos.refresh_checkers();
        pos
    }
}

impl Position {
    /// An empty board, White to move (not a legal position: for building).
    pub(super) fn empty() -> Position {
        Position {
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 6],
            turn: Color::White,
            castles: Castles::default(),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            chess960: false,
            checkers: Bitboard::EMPTY,
        }
    }

    /// Recomputes the cached [`Position::checkers`] after the board was set up.
    pub(super) fn refresh_checkers(&mut self) {
        self.checkers = match self.king_of(self.turn) {
            Some(k) => self.attackers_to(k, self.turn.other(), self.occupied()),
            None => Bitboard::EMPTY,
        };
    }

    pub(super) fn put(&mut self, sq: Square, piece: Piece) {
        self.remove(sq);
        self.by_color[piece.color.index()].toggle(sq);
        self.by_role[piece.role.index()].toggle(sq);
    }

    pub(super) fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.by_color[piece.color.index()].toggle(sq);
        self.by_role[piece.role.index()].toggle(sq);
        Some(piece)
    }

    // ---- queries -------------------------------------------------------------------

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// The en passant square as FEN records it (behind a pawn that just moved two).
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The en passant square only if an en passant capture is legal now.
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let mut moves = MoveList::new();
        self.gen_en_passant(ep, &mut moves);
        (!moves.is_empty()).then_some(ep)
    }

    #[inline]
    pub fn castles(&self) -> &Castles {
        &self.castles
    }

    /// Plies since the last capture or pawn move (the 50- and 75-move rules).
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number, starting at 1 and incremented after Black's move.
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_color(piece.color) & self.by_role(piece.role)
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else if self.by_color[1].contains(sq) {
            Color::Black
        } else {
            return None;
        };
        let role = self.role_at(sq)?;
        Some(Piece { color, role })
    }

    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        // most squares asked about (a move's destination) are empty
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|r| self.by_role[r.index()].contains(sq))
    }

    /// The king of `color` (a legal position has exactly one).
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.by_role(Role::King) & self.by_color(color)).first()
    }

    /// Pieces of `attacker` that attack `sq`, given the occupancy `occupied`.
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color(attacker);
        let queens = self.by_role(Role::Queen);
        (attacks::rook(sq, occupied) & (self.by_role(Role::Rook) | queens)
            | attacks::bishop(sq, occupied) & (self.by_role(Role::Bishop) | queens)
            | attacks::knight(sq) & self.by_role(Role::Knight)
            | attacks::king(sq) & self.by_role(Role::King)
            | attacks::pawn(attacker.other(), sq) & self.by_role(Role::Pawn))
            & them
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    pub fn has_legal_moves(&self) -> bool {
        // A king step is the usual answer and needs no pin test: try those first.
        if let Some(king) = self.king_of(self.turn) {
            let them = self.turn.other();
            let occupied = self.occupied().without(king);
            for to in attacks::king(king) & !self.by_color(self.turn) {
                if self.attackers_to(to, them, occupied).is_empty() {
                    return true;
                }
            }
        }
        !self.legal_moves().is_empty()
    }

    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// A dead position by material alone (FIDE 5.2.2, the cases every arbiter knows):
    /// king against king, king and one minor piece against king, and kings with
    /// bishops all on squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.by_role(Role::Knight);
        let bishops = self.by_role(Role::Bishop);
        let minors = knights | bishops;
        if minors.count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & !Bitboard::DARK_SQUARES).is_empty())
    }

    /// The Zobrist hash of the position as it counts for repetition (FIDE 9.2.3):
    /// pieces, side to move, castling rights, and the en passant square only when an
    /// en passant capture is legal.
    pub fn zobrist(&self) -> u64 {
        let mut h = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in self.by_color(color) & self.by_role(role) {
                    h ^= zobrist::piece(Piece { color, role }, sq);
                }
            }
        }
        if self.turn == Color::Black {
            h ^= zobrist::BLACK_TO_MOVE;
        }
        for color in Color::ALL {
            for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                if let Some(rook) = self.castles.rook(color, side) {
                    h ^= zobrist::castling(rook);
                }
            }
        }
        if let Some(ep) = self.legal_ep_square() {
            h ^= zobrist::en_passant(ep.file());
        }
        h
    }

    // ---- move generation ------------------------------------------------------------

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.gen_legal(Bitboard::FULL, &mut moves);
        moves
    }

    /// Appends the legal moves whose destination ([`Move::to`]; for castling the
    /// king's destination on the g- or c-file) is `to`.
    pub fn legal_moves_to(&self, to: Square, out: &mut MoveList) {
        self.gen_legal(Bitboard::from_square(to), out);
    }

    /// Appends the legal moves of a `role` piece onto `to`, castling excepted (every
    /// promotion piece for a pawn reaching the last rank). This is what a written move
    /// (`Nf3`, `exd5`) can mean, found from the attack sets of `to` alone: no other
    /// move is generated, and legality is tested for the few candidates only.
    pub fn legal_moves_of_role_to(&self, role: Role, to: Square, out: &mut MoveList) {
        let froms = self.legal_origins(role, to);
        if froms.is_empty() {
            return;
        }
        if role != Role::Pawn {
            let capture = self.role_at(to);
            for from in froms {
                out.push(Move::Normal {
                    role,
                    from,
                    capture,
                    to,
                    promotion: None,
                });
            }
            return;
        }
        if to.rank() == Rank::EIGHTH.relative(self.turn) {
            for from in froms {
                for promotion in Role::PROMOTIONS {
                    out.push(self.pawn_move(from, to, Some(promotion)));
                }
            }
        } else {
            for from in froms {
                out.push(self.pawn_move(from, to, None));
            }
        }
    }

    /// The move of the pawn of the side to move on `from` onto `to`, a square it has a
    /// legal move to ([`Position::legal_origins`]): en passant when it changes file onto
    /// an empty square, else a push or a capture, promoting to `promotion` (which must
    /// be given exactly when `to` is on the last rank).
    #[inline]
    pub fn pawn_move(&self, from: Square, to: Square, promotion: Option<Role>) -> Move {
        let capture = self.role_at(to);
        if capture.is_none() && from.file() != to.file() {
            Move::EnPassant { from, to }
        } else {
            Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion,
            }
        }
    }

    /// The origins of [`Position::legal_moves_of_role_to`]: the squares from which a
    /// `role` piece of the side to move has a legal move onto `to`, castling excepted.
    /// For a pawn, an origin on another file than `to` is a capture, en passant when
    /// `to` is empty.
    #[inline]
    pub fn legal_origins(&self, role: Role, to: Square) -> Bitboard {
        let color = self.turn;
        let them = color.other();
        let us = self.by_color(color);
        if us.contains(to) {
            return Bitboard::EMPTY;
        }
        let Some(king) = self.king_of(color) else {
            return Bitboard::EMPTY;
        };
        let occupied = self.occupied();
        let ours = self.by_role(role) & us;
        let mut legal = Bitboard::EMPTY;
        let froms = match role {
            Role::King => {
                if attacks::king(to).contains(king)
                    && self
                        .attackers_to(to, them, occupied.without(king))
                        .is_empty()
                {
                    return Bitboard::from_square(king);
                }
                return Bitboard::EMPTY;
            }
            Role::Pawn => {
                if occupied.contains(to) {
                    attacks::pawn(them, to) & ours
                } else {
                    if self.ep_square == Some(to) {
                        legal = self.en_passant_origins(to);
                    }
                    let back = color.fold(-8, 8);
                    match to.offset(back) {
                        Some(one) if ours.contains(one) => Bitboard::from_square(one),
                        Some(one)
                            if to.rank() == Rank::FOURTH.relative(color)
                                && !occupied.contains(one) =>
                        {
                            one.offset(back)
                                .map_or(Bitboard::EMPTY, |two| Bitboard::from_square(two) & ours)
                        }
                        _ => Bitboard::EMPTY,
                    }
                }
            }
            // A knight or a slider: the pieces that reach `to` on an empty board
            // (a small table, one look-up for every role), kept when nothing stands
            // between (never anything for a knight).
            _ => {
                let mut froms = Bitboard::EMPTY;
                for from in attacks::reach(color, role, to) & ours {
                    if (attacks::between(from, to) & occupied).is_empty() {
                        froms = froms.with(from);
                    }
                }
                froms
            }
        };
        // Legal when no piece of theirs (the one taken on `to` aside) attacks the king
        // once the piece has left `from` for `to`: this covers pins and answers to a
        // check alike.
        let to_bb = Bitboard::from_square(to);
        if self.checkers.any() {
            for from in froms {
                let after = occupied.without(from).with(to);
                if (self.attackers_to(king, them, after) & !to_bb).is_empty() {
                    legal = legal.with(from);
                }
            }
            return legal;
        }
        // Out of check, only a piece on a line with its king can uncover an attack on
        // it, and only along that line, from a slider of theirs that moves along such
        // lines: the others are legal as they stand. With no such slider on any line
        // of that kind from the king (rook or bishop lines), no piece on those lines
        // needs a look. Most moves start off every line from the king (one look-up
        // tells): those are all legal, and the sliders need no look either.
        if (froms & attacks::reach(color, Role::Queen, king)).is_empty() {
            return legal | froms;
        }
        let them_bb = self.by_color(them);
        let queens = self.by_role(Role::Queen);
        let straight = (self.by_role(Role::Rook) | queens) & them_bb;
        let diagonal = (self.by_role(Role::Bishop) | queens) & them_bb;
        let rook_lines = attacks::reach(color, Role::Rook, king);
        let bishop_lines = attacks::reach(color, Role::Bishop, king);
        let mut king_lines = Bitboard::EMPTY;
        if (rook_lines & straight).any() {
            king_lines |= rook_lines;
        }
        if (bishop_lines & diagonal).any() {
            king_lines |= bishop_lines;
        }
        legal |= froms & !king_lines;
        for from in froms & king_lines {
            let after = occupied.without(from).with(to);
            // the line through the king and `from`, both left out (neither is theirs)
            let line = attacks::shared_line(king, from);
            let exposed = if king.rank() == from.rank() || king.file() == from.file() {
                if (line & straight).any() {
                    attacks::rook(king, after) & straight
                } else {
                    Bitboard::EMPTY
                }
            } else if (line & diagonal).any() {
                attacks::bishop(king, after) & diagonal
            } else {
                Bitboard::EMPTY
            };
            if (exposed & !to_bb).is_empty() {
                legal = legal.with(from);
            }
        }
        legal
    }

    /// The legal castling move to `side`, if there is one.
    pub fn castling_move(&self, side: CastlingSide) -> Option<Move> {
        let king = self.king_of(self.turn)?;
        if self.is_check() {
            return None;
        }
        let mut moves = MoveList::new();
        self.gen_castling(king, side, Bitboard::FULL, &mut moves);
        moves.first().copied()
    }

    /// Is `m` one of the legal moves?
    pub fn is_legal(&self, m: &Move) -> bool {
        let mut moves = MoveList::new();
        self.legal_moves_to(m.to(), &mut moves);
        moves.contains(m)
    }

    /// Pieces of the side to move pinned to their own king.
    fn pinned(&self, king: Square) -> Bitboard {
        let us = self.by_color(self.turn);
        let them = self.by_color(self.turn.other());
        let queens = self.by_role(Role::Queen);
        let snipers = (attacks::rook(king, Bitboard::EMPTY) & (self.by_role(Role::Rook) | queens)
            | attacks::bishop(king, Bitboard::EMPTY) & (self.by_role(Role::Bishop) | queens))
            & them;
        let occupied = self.occupied();
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let b = attacks::between(king, sniper) & occupied;
            if !b.more_than_one() {
                pinned |= b & us;
            }
        }
        pinned
    }

    fn gen_legal(&self, filter: Bitboard, out: &mut MoveList) {
        let Some(king) = self.king_of(self.turn) else {
            return;
        };
        let us = self.by_color(self.turn);
        let checkers = self.checkers;
        let start = out.len();
        if checkers.is_empty() {
            self.gen_non_king(!us & filter, out);
            self.gen_safe_king(king, !us & filter, out);
            for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                self.gen_castling(king, side, filter, out);
            }
        } else {
            self.gen_evasions(king, checkers, filter, out);
        }
        let pinned = self.pinned(king);
        if pinned.any() || self.ep_square.is_some() {
            let mut i = start;
            while i < out.len() {
                let m = out[i];
                let keep = match m {
                    Move::EnPassant { .. } => true, // checked fully in gen_en_passant
                    _ => !pinned.contains(m.from()) || attacks::aligned(m.from(), m.to(), king),
                };
                if keep {
                    i += 1;
                } else {
                    out.swap_remove(i);
                }
            }
        }
    }

    fn gen_evasions(&self, king: Square, checkers: Bitboard, filter: Bitboard, out: &mut MoveList) {
        let us = self.by_color(self.turn);
        // Squares attacked through the king along the checking lines stay attacked
        // after the king steps back: compute king moves with the king removed.
        self.gen_safe_king(king, !us & filter, out);
        if let Some(checker) = checkers.single() {
            let target =
                (attacks::between(king, checker) | Bitboard::from_square(checker)) & filter;
            self.gen_non_king(target, out);
            // An en passant capture may remove a checking pawn.
            if let Some(ep) = self.ep_square
                && filter.contains(ep)
                && !target.contains(ep)
                && self.role_at(checker) == Some(Role::Pawn)
            {
                self.gen_en_passant(ep, out);
            }
        }
    }

    fn gen_safe_king(&self, king: Square, target: Bitboard, out: &mut MoveList) {
        let them = self.turn.other();
        let occupied = self.occupied().without(king);
        for to in attacks::king(king) & target {
            if self.attackers_to(to, them, occupied).is_empty() {
                out.push(Move::Normal {
                    role: Role::King,
                    from: king,
                    capture: self.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }
    }

    /// Pseudo-legal moves of every piece but the king onto `target` (pins are filtered
    /// afterwards); en passant is generated fully legal.
    fn gen_non_king(&self, target: Bitboard, out: &mut MoveList) {
        let us = self.by_color(self.turn);
        let occupied = self.occupied();
        // For one target square (resolving a written move), only the pieces that
        // attack it need their moves generated.
        let (knights, diagonal, straight) = match target.single() {
            Some(t) => (
                attacks::knight(t),
                attacks::bishop(t, occupied),
                attacks::rook(t, occupied),
            ),
            None => (Bitboard::FULL, Bitboard::FULL, Bitboard::FULL),
        };
        for from in self.by_role(Role::Knight) & us & knights {
            for to in attacks::knight(from) & target {
                self.push_normal(Role::Knight, from, to, out);
            }
        }
        for from in self.by_role(Role::Bishop) & us & diagonal {
            for to in attacks::bishop(from, occupied) & target {
                self.push_normal(Role::Bishop, from, to, out);
            }
        }
        for from in self.by_role(Role::Rook) & us & straight {
            for to in attacks::rook(from, occupied) & target {
                self.push_normal(Role::Rook, from, to, out);
            }
        }
        for from in self.by_role(Role::Queen) & us & (diagonal | straight) {
            for to in attacks::queen(from, occupied) & target {
                self.push_normal(Role::Queen, from, to, out);
            }
        }
        self.gen_pawns(target, out);
    }

    #[inline]
    fn push_normal(&self, role: Role, from: Square, to: Square, out: &mut MoveList) {
        out.push(Move::Normal {
            role,
            from,
            capture: self.role_at(to),
            to,
            promotion: None,
        });
    }

    fn gen_pawns(&self, target: Bitboard, out: &mut MoveList) {
        let color = self.turn;
        let pawns = self.by_role(Role::Pawn) & self.by_color(color);
        let them = self.by_color(color.other());
        let empty = !self.occupied();
        let last_rank = Bitboard::rank(Rank::EIGHTH.relative(color));
        let third_rank = Bitboard::rank(Rank::THIRD.relative(color));
        let (push, back): (fn(Bitboard) -> Bitboard, i8) = match color {
            Color::White => (Bitboard::north, -8),
            Color::Black => (Bitboard::south, 8),
        };
        // Captures; for one target square only the pawns that attack it.
        let capturers = match target.single() {
            Some(t) => pawns & attacks::pawn(color.other(), t),
            None => pawns,
        };
        for from in capturers {
            for to in attacks::pawn(color, from) & them & target {
                self.push_pawn(from, to, self.role_at(to), last_rank.contains(to), out);
            }
        }
        // Pushes.
        let single = push(pawns) & empty;
        let double = push(single & third_rank) & empty;
        for to in single & target {
            if let Some(from) = to.offset(back) {
                self.push_pawn(from, to, None, last_rank.contains(to), out);
            }
        }
        for to in double & target {
            if let Some(from) = to.offset(2 * back) {
                self.push_pawn(from, to, None, false, out);
            }
        }
        if let Some(ep) = self.ep_square
            && target.contains(ep)
        {
            self.gen_en_passant(ep, out);
        }
    }

    #[inline]
    fn push_pawn(
        &self,
        from: Square,
        to: Square,
        capture: Option<Role>,
        promotes: bool,
        out: &mut MoveList,
    ) {
        if promotes {
            for promotion in Role::PROMOTIONS {
                out.push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: Some(promotion),
                });
            }
        } else {
            out.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion: None,
            });
        }
    }

    /// Legal en passant captures onto `ep` (checked by making them on the occupancy).
    fn gen_en_passant(&self, ep: Square, out: &mut MoveList) {
        for from in self.en_passant_origins(ep) {
            out.push(Move::EnPassant { from, to: ep });
        }
    }

    /// The origins of the legal en passant captures onto `ep`.
    fn en_passant_origins(&self, ep: Square) -> Bitboard {
        let color = self.turn;
        if ep.rank() != Rank::SIXTH.relative(color) || self.occupied().contains(ep) {
            return Bitboard::EMPTY;
        }
        let Some(captured) = ep.offset(color.fold(-8, 8)) else {
            return Bitboard::EMPTY;
        };
        let them = color.other();
        if !(self.by_role(Role::Pawn) & self.by_color(them)).contains(captured) {
            return Bitboard::EMPTY;
        }
        let Some(king) = self.king_of(color) else {
            return Bitboard::EMPTY;
        };
        let candidates = attacks::pawn(them, ep) & self.by_role(Role::Pawn) & self.by_color(color);
        let mut legal = Bitboard::EMPTY;
        for from in candidates {
            let occupied = (self.occupied().without(from).without(captured)).with(ep);
            let attackers = self.attackers_to(king, them, occupied).without(captured);
            if attackers.is_empty() {
                legal = legal.with(from);
            }
        }
        legal
    }

    fn gen_castling(&self, king: Square, side: CastlingSide, filter: Bitboard, out: &mut MoveList) {
        let color = self.turn;
        let Some(rook) = self.castles.rook(color, side) else {
            return;
        };
        let rank = king.rank();
        let king_to = Square::from_coords(side.king_to_file(), rank);
        let rook_to = Square::from_coords(side.rook_to_file(), rank);
        if !filter.contains(king_to) {
            return;
        }
        let king_bb = Bitboard::from_square(king);
        let rook_bb = Bitboard::from_square(rook);
        let path = attacks::between(king, king_to).with(king_to)
            | attacks::between(rook, rook_to).with(rook_to);
        if (path & self.occupied() & !king_bb & !rook_bb).any() {
            return;
        }
        let them = color.other();
        let without_king = self.occupied() ^ king_bb;
        for sq in attacks::between(king, king_to).with(king_to) {
            if self.attackers_to(sq, them, without_king).any() {
                return;
            }
        }
        let after = ((self.occupied() ^ king_bb ^ rook_bb).with(king_to)).with(rook_to);
        if self.attackers_to(king_to, them, after).any() {
            return;
        }
        out.push(Move::Castle { king, rook });
    }

    // ---- making moves ---------------------------------------------------------------

    /// Plays `m`, which must be legal in this position (take it from
    /// [`Position::legal_moves`] or check with [`Position::is_legal`]); an illegal move
    /// leaves a position that may break the invariants, but never panics.
    pub fn play_unchecked(&mut self, m: &Move) {
        self.play_pieces(m);
        self.refresh_checkers();
    }

    /// Plays `m`, which must be legal here (from [`Position::legal_origins`], the move
    /// generator or [`Position::is_legal`]), as [`Position::play_unchecked`] does but
    /// finds the pieces giving check from the move alone ([`Position::checks_by_move`])
    /// instead of from every piece, and moves the pieces without checking that they
    /// stand where the move says: the legality of `m` is what makes that enough. An
    /// illegal move may leave wrong checkers or a broken board (never a panic): play
    /// such a move with [`Position::play_unchecked`].
    #[inline]
    pub fn play_legal(&mut self, m: &Move) {
        let mover = self.turn;
        self.play_pieces_of::<true>(m);
        match *m {
            Move::Normal {
                role,
                from,
                to,
                promotion,
                ..
            } => self.checkers = self.checks_by_move(mover, promotion.unwrap_or(role), from, to),
            // Two pieces move or one is taken off another square: rare, count in full.
            Move::EnPassant { .. } | Move::Castle { .. } => self.refresh_checkers(),
        }
        debug_assert_eq!(
            self.checkers,
            self.king_of(self.turn)
                .map_or(Bitboard::EMPTY, |k| self.attackers_to(
                    k,
                    mover,
                    self.occupied()
                )),
            "play_legal: checkers after {m:?}"
        );
    }

    /// The pieces of `mover` giving check after `mover` played a legal normal move of a
    /// piece from `from` to `to`, where it now stands as a `role` (its promotion piece
    /// for a promotion). Before a legal move the side not to move is not in check, so
    /// only two kinds of piece can give check after it: the moved piece itself, from
    /// `to`, and a slider of `mover` uncovered on the line from the king through `from`
    /// (the square that was emptied; `to` holds the moved piece, so no line opens
    /// there).
    #[inline]
    fn checks_by_move(&self, mover: Color, role: Role, from: Square, to: Square) -> Bitboard {
        let Some(king) = self.king_of(mover.other()) else {
            return Bitboard::EMPTY;
        };
        let occupied = self.occupied();
        // The moved piece checks when the king is in its reach on an empty board (a
        // small table, one look-up for every role) and nothing stands between (never
        // anything for a pawn or a knight; a king never reaches the other king after
        // a legal move).
        let mut checkers = Bitboard::EMPTY;
        if attacks::reach(mover, role, to).contains(king)
            && (attacks::between(to, king) & occupied).is_empty()
        {
            checkers = Bitboard::from_square(to);
        }
        // a line from the king through `from` (looked up only when there is one)
        if attacks::reach(mover, Role::Queen, king).contains(from) {
            // the line through the king and `from`, both left out (neither is `mover`'s)
            let line = attacks::shared_line(king, from);
            let queens = self.by_role(Role::Queen);
            let ours = self.by_color(mover);
            if king.rank() == from.rank() || king.file() == from.file() {
                let sliders = (self.by_role(Role::Rook) | queens) & ours;
                if (line & sliders).any() {
                    checkers |= attacks::rook(king, occupied) & sliders;
                }
            } else {
                let sliders = (self.by_role(Role::Bishop) | queens) & ours;
                if (line & sliders).any() {
                    checkers |= attacks::bishop(king, occupied) & sliders;
                }
            }
        }
        checkers
    }

    /// Plays `m` as [`Position::play_unchecked`] does but leaves the pieces giving
    /// check as they were: only for a caller that asks nothing of the position that
    /// depends on them (legal moves, `is_check`) until [`Position::end_pieces_only`].
    /// A writer that knows each move's SAN already (from
    /// [`crate::model::game::SanHint`]) plays a game this way for its final FEN.
    #[inline(always)]
    pub(crate) fn play_pieces(&mut self, m: &Move) {
        self.play_pieces_of::<false>(m);
    }

    /// [`Position::play_pieces`]; with `LEGAL` the move is known to be legal (as
    /// [`Position::play_legal`] requires), so that the moving piece stands on its
    /// origin and the piece it takes on its destination as the move says, and the
    /// bits are toggled without looking.
    #[inline(always)]
    fn play_pieces_of<const LEGAL: bool>(&mut self, m: &Move) {
        let color = self.turn;
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                // a capture or a pawn move resets the clock (a mask, not a branch: which
                // it is changes from move to move and cannot be predicted)
                let keep = !(capture.is_some() | (role == Role::Pawn));
                self.halfmoves &= u32::from(keep).wrapping_neg();
                if role == Role::Pawn && from.index().abs_diff(to.index()) == 16 {
                    self.ep_square = from.offset(color.fold(8, -8));
                }
                let from_to = Bitboard::from_square(from) | Bitboard::from_square(to);
                if role == Role::King {
                    self.castles.discard_color(color);
                }
                self.castles.discard_rooks(from_to);
                let us = self.by_color[color.index()];
                if LEGAL || us.contains(from) && self.by_role[role.index()].contains(from) {
                    // The usual case, a move as generated: toggle the bits directly.
                    if self.occupied().contains(to) {
                        let them = &mut self.by_color[color.other().index()];
                        match capture {
                            Some(taken)
                                if LEGAL
                                    || them.contains(to)
                                        && self.by_role[taken.index()].contains(to) =>
                            {
                                them.toggle(to);
                                self.by_role[taken.index()].toggle(to);
                            }
                            _ => {
                                self.remove(to);
                            }
                        }
                    }
                    self.by_color[color.index()] ^= from_to;
                    self.by_role[role.index()] ^= Bitboard::from_square(from);
                    self.by_role[promotion.unwrap_or(role).index()] ^= Bitboard::from_square(to);
                } else {
                    self.remove(from);
                    self.put(
                        to,
                        Piece {
                            color,
                            role: promotion.unwrap_or(role),
                        },
                    );
                }
            }
            Move::EnPassant { from, to } => {
                self.halfmoves = 0;
                if let Some(captured) = to.offset(color.fold(-8, 8)) {
                    self.remove(captured);
                }
                self.remove(from);
                self.put(
                    to,
                    Piece {
                        color,
                        role: Role::Pawn,
                    },
                );
            }
            Move::Castle { king, rook } => {
                let side = if rook.file() > king.file() {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                let rank = king.rank();
                self.remove(king);
                self.remove(rook);
                self.put(
                    Square::from_coords(side.king_to_file(), rank),
                    Piece {
                        color,
                        role: Role::King,
                    },
                );
                self.put(
                    Square::from_coords(side.rook_to_file(), rank),
                    Piece {
                        color,
                        role: Role::Rook,
                    },
                );
                self.castles.discard_color(color);
            }
        }
        // one more after Black's move (added, not branched on: the sides alternate)
        self.fullmoves = self.fullmoves.saturating_add(color.index() as u32);
        self.turn = color.other();
    }

    /// Brings the pieces giving check up to date after moves played with
    /// [`Position::play_pieces`].
    pub(crate) fn end_pieces_only(&mut self) {
        self.refresh_checkers();
    }

    /// Passes the turn (a null move, `--` in analysis); not legal in a real game.
    pub fn play_null(&mut self) {
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = self.turn.other();
        self.refresh_checkers();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Castles::squares` is always the set of the rook squares with a right, whatever
    /// the order of the changes: set, a king move, rooks moved or taken.
    #[test]
    fn castles_keep_their_rook_squares() {
        let held = |c: &Castles| {
            c.rooks
                .iter()
                .flatten()
                .flatten()
                .fold(Bitboard::EMPTY, |b, &sq| b.with(sq))
        };
        let mut c = Castles::default();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for step in 0..2_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let color = if seed & 1 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let side = if seed & 2 == 0 {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            };
            let sq = Square::from_index_masked((seed >> 8) as u32);
            match (seed >> 4) % 4 {
                0 => c.set(color, side, Some(sq)),
                1 => c.set(color, side, None),
                2 => c.discard_color(color),
                _ => {
                    let other = Square::from_index_masked((seed >> 20) as u32);
                    c.discard_rooks(Bitboard::EMPTY.with(sq).with(other))
                }
            }
            assert_eq!(c.squares, held(&c), "step {step}");
            assert_eq!(c.is_empty(), held(&c).is_empty(), "step {step}");
        }
    }

    fn uci_list(pos: &Position) -> Vec<String> {
        let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.uci(false)).collect();
        v.sort();
        v
    }

    /// `legal_moves_of_role_to` gives exactly the non-castling legal moves of that
    /// role onto that square, on tricky positions and along pseudo-random games
    /// from them (pins, checks, double checks, en passant, promotions).
    #[test]
    fn role_targeted_generation_matches_full_generation() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/2k5/3Pp3/8/8/4K2R b K d3 0 1",
            "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            "r6r/1b2k1bq/8/8/7B/8/8/R3K2R b KQ - 3 2",
        ];
        let mut checked = 0;
        for fen in fens {
            let mut pos = Position::from_fen(fen).unwrap();
            for ply in 0..120usize {
                let all = pos.legal_moves();
                for role in Role::ALL {
                    for to in Square::all() {
                        let mut want: Vec<Move> = all
                            .iter()
                            .filter(|m| {
                                m.role() == role
                                    && m.to() == to
                                    && !matches!(m, Move::Castle { .. })
                            })
                            .copied()
                            .collect();
                        let mut got = MoveList::new();
                        pos.legal_moves_of_role_to(role, to, &mut got);
                        let mut got: Vec<Move> = got.to_vec();
                        want.sort_by_key(|m| m.uci(false));
                        got.sort_by_key(|m| m.uci(false));
                        assert_eq!(got, want, "{fen} ply {ply} {role:?} to {to:?}");
                        checked += 1;
                    }
                }
                let mut fresh = pos.clone();
                fresh.refresh_checkers();
                assert_eq!(pos.checkers(), fresh.checkers(), "{fen} ply {ply}");
                if all.is_empty() {
                    break;
                }
                let m = all[(ply * 7 + 3) % all.len()];
                pos.play_unchecked(&m);
            }
        }
        assert!(checked > 10_000);
    }

    #[test]
    fn start_position_moves() {
        let pos = Position::default();
        assert_eq!(pos.legal_moves().len(), 20);
        assert!(!pos.is_check());
        assert_eq!(pos.king_of(Color::White), Some(Square::E1));
    }

    #[test]
    fn legal_moves_to_filters_by_destination() {
        let pos = Position::default();
        let mut moves = MoveList::new();
        pos.legal_moves_to(Square::parse("f3").unwrap(), &mut moves);
        let mut got: Vec<String> = moves.iter().map(|m| m.uci(false)).collect();
        got.sort();
        assert_eq!(got, ["f2f3", "g1f3"]);
    }

    #[test]
    fn pinned_piece_stays_on_line() {
        // White bishop d2 pinned by the rook... by the black bishop on a5 against e1.
        let pos = Position::from_fen("4k3/8/8/b7/8/8/3B4/4K3 w - - 0 1").unwrap();
        let moves = uci_list(&pos);
        assert!(moves.contains(&"d2c3".to_owned()));
        assert!(moves.contains(&"d2a5".to_owned()));
        assert!(!moves.iter().any(|m| m == "d2e3"));
    }

    #[test]
    fn en_passant_discovering_check_is_illegal() {
        // Capturing e.p. would open the fifth rank to the rook on h5.
        let pos = Position::from_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 2").unwrap();
        assert!(!uci_list(&pos).contains(&"e5d6".to_owned()));
        assert_eq!(pos.legal_ep_square(), None);
        assert_eq!(pos.ep_square(), Square::parse("d6"));
        let ok = Position::from_fen("8/8/8/3pP2r/8/8/8/K6k w - d6 0 2").unwrap();
        assert!(uci_list(&ok).contains(&"e5d6".to_owned()));
    }

    #[test]
    fn en_passant_can_remove_a_checking_pawn() {
        let pos = Position::from_fen("8/8/8/3pP3/4K3/8/8/7k w - d6 0 2").unwrap();
        assert!(pos.is_check());
        assert!(uci_list(&pos).contains(&"e5d6".to_owned()));
    }

    #[test]
    fn castling_through_check_is_illegal() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        assert!(pos.castling_move(CastlingSide::KingSide).is_some());
        assert!(pos.castling_move(CastlingSide::QueenSide).is_some());
        let attacked = Position::from_fen("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        assert!(attacked.castling_move(CastlingSide::KingSide).is_none());
        assert!(attacked.castling_move(CastlingSide::QueenSide).is_some());
        // b1 may be attacked when castling queen side: only the king's path counts.
        let b1 = Position::from_fen("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        assert!(b1.castling_move(CastlingSide::QueenSide).is_some());
    }

    #[test]
    fn play_updates_rights_and_clocks() {
        let mut pos = Position::default();
        for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"] {
            let m = *pos
                .legal_moves()
                .iter()
                .find(|m| m.uci(false) == uci)
                .unwrap();
            pos.play_unchecked(&m);
        }
        assert_eq!(
            pos.fen(),
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
        );
    }

    #[test]
    fn mate_and_stalemate() {
        let mate = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap();
        assert!(mate.is_checkmate());
        let stale = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert!(stale.is_stalemate());
        assert!(!stale.is_checkmate());
    }

    #[test]
    fn insufficient_material() {
        for (fen, dead) in [
            ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", true),
            ("8/8/4k3/8/8/3KN3/8/8 w - - 0 1", true),
            ("8/8/4kb2/8/8/3KB3/8/8 w - - 0 1", true),
            ("8/8/4k1b1/8/8/3KB3/8/8 w - - 0 1", false),
            ("8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", false),
            ("8/8/4k3/8/8/3KP3/8/8 w - - 0 1", false),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(pos.is_insufficient_material(), dead, "{fen}");
        }
    }

    #[test]
    fn zobrist_ignores_impossible_en_passant() {
        let with_ep = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").unwrap();
        let without = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(with_ep.zobrist(), without.zobrist());
        assert_ne!(Position::default().zobrist(), without.zobrist());
    }
}
