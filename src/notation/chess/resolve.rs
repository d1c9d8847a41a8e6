//! [`SanSyntax`] + [`Position`] → exactly one legal [`Move`], or why not.
//!
//! Three error families, never merged: *invalid* ([`SyntaxError`], from the grammar),
//! *illegal* (no legal move fits: [`ResolveError::Illegal`] says why) and *ambiguous*
//! (several fit: [`ResolveError::Ambiguous`] lists them all in canonical SAN).
//! Accepted moves may carry [`Remark`]s: notes for non-canonical forms, warnings for
//! repairs (lower-case piece letters, wrong check marks).

use crate::model::diag::Code;
use std::fmt;

use super::lang::PieceTable;
use super::san::{San, SanStyle, disambiguation, origin_among, pgn_san, write_san_hinted};
use super::syntax::{CheckMark, Form, SanSyntax, SyntaxError, parse};
use crate::chess::{
    Bitboard, CastlingSide, File, Move, MoveList, Piece, Position, Rank, Role, Square, attacks,
};
use crate::color::Color;
use crate::model::diag::{Diagnostic, Severity};
use crate::model::game::SanHint;

/// Something to tell about an accepted move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Remark {
    /// Warning `lowercase-piece`: `nf3`, or `bxc3` read as a bishop move.
    LowercasePiece = 0,
    /// Note `non-canonical`: more origin than needed (`Nge2` when `Ne2` suffices).
    OverDisambiguated,
    /// Note `non-canonical`: long algebraic (`Ng1f3`, `e2-e4`, `g1f3`).
    LongForm,
    /// Note `non-canonical`: a capture without `x` (`ed5`, `Hd4`).
    CaptureUnmarked,
    /// Note `non-canonical`: a pawn letter (`Pe4`).
    PawnLetter,
    /// Note `non-canonical`: `e:d5`, `e8(Q)`, `e8/Q`, `o-o`, `00`, `Z0`, `e7e8q`.
    OddForm,
    /// Warning `capture-mark`: `x` on a move that captures nothing.
    CaptureMarkWrong,
    /// Warning `ep-mark`: `e.p.` on a move that is not an en passant capture.
    EpMarkWrong,
    /// Warning `check-mark`: the written check/mate mark does not match the position.
    CheckMark,
    /// Note `non-canonical`: a form of the FIDE Laws' text that PGN SAN does not write:
    /// castling with zeros (`0-0`, `0-0-0`), a promotion without `=` (`d8Q`, `d8H`),
    /// `e.p.` after an en passant capture.
    FideForm,
}

impl Remark {
    const ALL: [Remark; 10] = [
        Remark::LowercasePiece,
        Remark::OverDisambiguated,
        Remark::LongForm,
        Remark::CaptureUnmarked,
        Remark::PawnLetter,
        Remark::OddForm,
        Remark::CaptureMarkWrong,
        Remark::EpMarkWrong,
        Remark::CheckMark,
        Remark::FideForm,
    ];

    /// The stable diagnostic code.
    pub fn code(self) -> Code {
        match self {
            Remark::LowercasePiece => Code::LowercasePiece,
            Remark::OverDisambiguated
            | Remark::LongForm
            | Remark::CaptureUnmarked
            | Remark::PawnLetter
            | Remark::OddForm
            | Remark::FideForm => Code::NonCanonical,
            Remark::CaptureMarkWrong => Code::CaptureMark,
            Remark::EpMarkWrong => Code::EpMark,
            Remark::CheckMark => Code::CheckMark,
        }
    }

    pub fn severity(self) -> Severity {
        match self {
            Remark::OverDisambiguated
            | Remark::LongForm
            | Remark::CaptureUnmarked
            | Remark::PawnLetter
            | Remark::OddForm
            | Remark::FideForm => Severity::Note,
            Remark::LowercasePiece
            | Remark::CaptureMarkWrong
            | Remark::EpMarkWrong
            | Remark::CheckMark => Severity::Warning,
        }
    }
}

/// A set of [`Remark`]s (a bit set: no allocation).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Remarks(u16);

impl Remarks {
    pub fn insert(&mut self, r: Remark) {
        self.0 |= 1 << (r as u8);
    }

    pub fn contains(self, r: Remark) -> bool {
        self.0 & (1 << (r as u8)) != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Remark> {
        Remark::ALL.into_iter().filter(move |&r| self.contains(r))
    }
}

/// A move read and resolved.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The move; `None` for a null move (`--`).
    pub mv: Option<Move>,
    pub remarks: Remarks,
    /// What the move gives: `None`, `Check`, `DoubleCheck` (two checkers) or `Mate`.
    pub gives: CheckMark,
    /// The mark that was written.
    pub written: CheckMark,
    /// The origin coordinates canonical SAN writes, `(file, rank)`
    /// ([`super::san::disambiguation`] in the position before the move).
    pub origin: (bool, bool),
}

impl Resolved {
    /// What canonical SAN needs besides the move: the origin coordinates and the check
    /// or mate it gives.
    pub fn hint(&self) -> SanHint {
        SanHint {
            file: self.origin.0,
            rank: self.origin.1,
            check: self.gives != CheckMark::None,
            mate: self.gives == CheckMark::Mate,
        }
    }

    /// The move as [`San`], `None` for a null move.
    pub fn san(&self) -> Option<San> {
        self.mv.map(|mv| San::from_hint(mv, self.hint()))
    }

    /// The remarks as diagnostics (no span or ply: the caller adds them); `token` is the
    /// text as written. The canonical SAN they quote is written from the move and its
    /// [`Resolved::hint`], without the position.
    pub fn diagnostics(&self, token: &str, out: &mut Vec<Diagnostic>) {
        if self.remarks.is_empty() {
            return;
        }
        let canonical = match &self.mv {
            Some(m) => {
                let mut s = String::with_capacity(8);
                write_san_hinted(&mut s, m, self.hint(), &SanStyle::pgn());
                s
            }
            None => "--".to_owned(),
        };
        for r in self.remarks.iter() {
            let message = match r {
                Remark::LowercasePiece => {
                    format!("lower-case piece letter in {token}, read as {canonical}")
                }
                Remark::OverDisambiguated => {
                    format!("{token} is over-disambiguated, canonical {canonical}")
                }
                Remark::LongForm => format!("{token} is long algebraic, canonical {canonical}"),
                Remark::CaptureUnmarked => {
                    format!("{token} captures without x, canonical {canonical}")
                }
                Remark::PawnLetter => format!("{token} names the pawn, canonical {canonical}"),
                Remark::OddForm => format!("{token} is non-canonical, canonical {canonical}"),
                Remark::FideForm => {
                    format!("{token} is the FIDE Laws' form, canonical (PGN) {canonical}")
                }
                Remark::CaptureMarkWrong => {
                    format!("{token} marks a capture but captures nothing")
                }
                Remark::EpMarkWrong => {
                    format!("{token} marks en passant but is not an en passant capture")
                }
                Remark::CheckMark => format!(
                    "wrong check mark on {token}: expected {}, found {}",
                    mark_name(expected_mark(self.gives)),
                    mark_name(self.written)
                ),
            };
            out.push(Diagnostic::new(r.severity(), r.code(), message));
        }
    }
}

fn expected_mark(gives: CheckMark) -> CheckMark {
    match gives {
        CheckMark::DoubleCheck => CheckMark::Check,
        g => g,
    }
}

fn mark_name(m: CheckMark) -> &'static str {
    match m {
        CheckMark::None => "no mark",
        CheckMark::Check => "+",
        CheckMark::Mate => "#",
        CheckMark::DoubleCheck => "++",
    }
}

/// Why no legal move fits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// No piece of that kind (and origin, if written) can go there.
    NoPieceReaches {
        color: Color,
        role: Role,
        from_file: Option<File>,
        from_rank: Option<Rank>,
        to: Square,
        capture: bool,
    },
    /// The origin square written holds no such piece.
    NoPieceOn {
        color: Color,
        role: Role,
        from: Square,
    },
    /// The piece could go there but its own piece stands on the square.
    OwnPiece {
        color: Color,
        role: Role,
        to: Square,
        occupant: Role,
    },
    /// The piece could go there but its king would be in check.
    KingInCheck {
        color: Color,
        role: Role,
        from: Square,
        to: Square,
    },
    /// Castling is not possible, and why.
    CannotCastle {
        king: Square,
        side: CastlingSide,
        why: CastleWhy,
    },
    /// A promotion piece on a move that does not reach the last rank.
    NotPromotionSquare { to: Square },
    /// A pawn reaching the last rank without a promotion piece.
    PromotionMissing { to: Square },
    /// Promotion to a king or a pawn.
    BadPromotion { role: Role },
    /// A promotion piece after a move of a piece that is not a pawn.
    NotAPawn { role: Role },
    /// A null move while in check.
    NullInCheck,
}

/// Why castling is not possible.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CastleWhy {
    NoRight,
    InCheck,
    Occupied(Square),
    Attacked(Square),
    NoKing,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::NoPieceReaches {
                color,
                role,
                from_file,
                from_rank,
                to,
                capture,
            } => {
                write!(f, "no {color} {role}")?;
                match (from_file, from_rank) {
                    (Some(fl), Some(r)) => write!(f, " on {}{}", fl.char(), r.char())?,
                    (Some(fl), None) => write!(f, " on the {}-file", fl.char())?,
                    (None, Some(r)) => write!(f, " on rank {}", r.char())?,
                    (None, None) => {}
                }
                if *capture {
                    write!(f, " can capture on {to}")
                } else {
                    write!(f, " can reach {to}")
                }
            }
            Illegal::NoPieceOn { color, role, from } => {
                write!(f, "there is no {color} {role} on {from}")
            }
            Illegal::OwnPiece {
                color,
                role,
                to,
                occupant,
            } => write!(
                f,
                "the {color} {role} cannot move to {to}: a {color} {occupant} stands there"
            ),
            Illegal::KingInCheck {
                color,
                role,
                from,
                to,
            } => write!(
                f,
                "the {color} {role} on {from} cannot move to {to}: the {color} king would be in check"
            ),
            Illegal::CannotCastle { king, side, why } => {
                let side = match side {
                    CastlingSide::KingSide => "king side",
                    CastlingSide::QueenSide => "queen side",
                };
                write!(f, "the king on {king} cannot castle {side}: ")?;
                match why {
                    CastleWhy::NoRight => f.write_str("it has no castling right there"),
                    CastleWhy::InCheck => f.write_str("it is in check"),
                    CastleWhy::Occupied(s) => write!(f, "{s} is occupied"),
                    CastleWhy::Attacked(s) => write!(f, "{s} is attacked"),
                    CastleWhy::NoKing => f.write_str("there is no king"),
                }
            }
            Illegal::NotPromotionSquare { to } => write!(f, "{to} is not a promotion square"),
            Illegal::PromotionMissing { to } => {
                write!(
                    f,
                    "a pawn reaching {to} must promote: expected a piece letter after {to}"
                )
            }
            Illegal::BadPromotion { role } => write!(f, "cannot promote to a {role}"),
            Illegal::NotAPawn { role } => write!(f, "only a pawn can promote, not a {role}"),
            Illegal::NullInCheck => f.write_str("a null move is not possible while in check"),
        }
    }
}

/// Why a move could not be resolved: the shared shape ([`crate::notation::error`]) with
/// chess moves and [`Illegal`] reasons; ambiguous moves list their canonical SAN.
pub type ResolveError = crate::notation::error::ResolveError<Move, Illegal>;

/// Either family of failure when reading a token against a position.
pub type ReadError = crate::notation::error::ReadError<SyntaxError, Move, Illegal>;

/// Parses `token` under `table` and resolves it on `pos`, which is left unchanged.
pub fn read(token: &str, table: &PieceTable, pos: &Position) -> Result<Resolved, ReadError> {
    let san = parse(token, table).map_err(ReadError::Syntax)?;
    resolve(&san, pos, token).map_err(|e| ReadError::Resolve(*e))
}

/// Parses `token`, resolves it on `pos` and plays it there (the position is left
/// unchanged on error).
pub fn read_play(
    token: &str,
    table: &PieceTable,
    pos: &mut Position,
) -> Result<Resolved, ReadError> {
    let san = parse(token, table).map_err(ReadError::Syntax)?;
    resolve_play(&san, pos, token).map_err(|e| ReadError::Resolve(*e))
}

/// Resolves `san` on `pos`. `token` is the text as written, for messages.
///
/// The error is boxed: it holds text and lists and is rare, while the [`Resolved`] of
/// every move then comes back in registers.
pub fn resolve(
    san: &SanSyntax,
    pos: &Position,
    token: &str,
) -> Result<Resolved, Box<ResolveError>> {
    let mut after = pos.clone();
    resolve_play(san, &mut after, token)
}

/// Resolves `san` on `pos` and plays the move (one position copy saved over
/// [`resolve`]); `pos` is unchanged on error. Any position will do, even one left by an
/// illegal move played with [`Position::play_unchecked`].
// One copy of the resolver here, for every caller but the replay of sound games
// (`resolve_play_sound`, which has its own in the replay's loop).
#[inline(never)]
pub fn resolve_play(
    san: &SanSyntax,
    pos: &mut Position,
    token: &str,
) -> Result<Resolved, Box<ResolveError>> {
    resolve_play_in(san, pos, || token, false)
}

/// [`resolve_play`] on a *sound* position: one reached by legal moves from a valid
/// start (the FEN reader refuses a side not to move in check), so that the pieces
/// giving check after the move can be found from the move alone
/// ([`Position::play_legal`]). The replay uses it until a game keeps an illegal move
/// (`--keep-illegal`), after which the side not to move may stand in check.
///
/// `token` gives the text as written, for messages: asked for only when the move is
/// not settled by [`quick`] (the replay slices it from the game text only then).
/// Always inlined: the replay's walk is compiled once for each way of reading the main
/// line, and each copy keeps the resolver's quick path in its loop.
#[inline(always)]
pub(crate) fn resolve_play_sound<'t>(
    san: &SanSyntax,
    pos: &mut Position,
    token: impl FnOnce() -> &'t str,
) -> Result<Resolved, Box<ResolveError>> {
    resolve_play_in(san, pos, token, true)
}

/// [`resolve_play`], with `sound` telling whether `pos` is sound (see
/// [`resolve_play_sound`]).
///
/// The usual SAN of a piece or pawn move (`Nf3`, `exd5`, `Rad1`, `e8=Q`) is settled by
/// [`quick`] alone when it finds the move ([`usual_form`] tells why the answer is the
/// same): that move is played right where it was built, so that the compiler sees
/// which kind of move it is; every other move takes [`find_move_in_full`]. Both end in
/// the same [`finish`]. Inlined in its two callers, so that the [`Resolved`] of a
/// move stays in registers.
#[inline(always)]
fn resolve_play_in<'t>(
    san: &SanSyntax,
    pos: &mut Position,
    token: impl FnOnce() -> &'t str,
    sound: bool,
) -> Result<Resolved, Box<ResolveError>> {
    if usual_form(san)
        && let Some((m, origin)) = quick(san, pos)
    {
        let remarks = describe(san, san.role, m, origin, Remarks::default());
        return Ok(finish(san, pos, Some(m), remarks, origin, sound));
    }
    let (mv, remarks, origin) = find_move_in_full(san, pos, token())?;
    Ok(finish(san, pos, mv, remarks, origin, sound))
}

/// Plays the move found for `san` (`None`: a null move) on `pos` and tells what it
/// gives: check, double check or mate, against the mark written.
#[inline(always)]
fn finish(
    san: &SanSyntax,
    pos: &mut Position,
    mv: Option<Move>,
    mut remarks: Remarks,
    origin: (bool, bool),
    sound: bool,
) -> Resolved {
    match &mv {
        // every move found is legal (it comes from the legal origins or
        // the legal moves of the position); on a sound position that is enough to find
        // the checkers from the move
        Some(m) if sound => pos.play_legal(m),
        Some(m) => pos.play_unchecked(m),
        None => pos.play_null(),
    }
    let gives = if pos.is_check() {
        if !pos.has_legal_moves() {
            CheckMark::Mate
        } else if pos.checkers().more_than_one() {
            CheckMark::DoubleCheck
        } else {
            CheckMark::Check
        }
    } else {
        CheckMark::None
    };
    let ok = match san.check {
        CheckMark::None => gives == CheckMark::None,
        CheckMark::Check => matches!(gives, CheckMark::Check | CheckMark::DoubleCheck),
        CheckMark::Mate => gives == CheckMark::Mate,
        CheckMark::DoubleCheck => matches!(gives, CheckMark::Mate | CheckMark::DoubleCheck),
    };
    if !ok {
        remarks.insert(Remark::CheckMark);
    }
    Resolved {
        mv,
        remarks,
        gives,
        written: san.check,
        origin,
    }
}

/// The boxed error for an illegal move.
fn illegal(token: &str, reason: Illegal) -> Box<ResolveError> {
    Box::new(ResolveError::Illegal {
        token: token.to_owned(),
        reason,
    })
}

fn odd_form(san: &SanSyntax) -> bool {
    san.form.contains(Form::ODD_CASTLE)
        || san.form.contains(Form::ODD_PROMOTION)
        || san.form.contains(Form::LOWER_PROMOTION)
        || san.form.contains(Form::COLON_CAPTURE)
        || san.form.contains(Form::ODD_NULL)
}

/// The move `san` describes, the remarks on how it was written, and the origin
/// coordinates canonical SAN writes for it.
type Found = (Option<Move>, Remarks, (bool, bool));

/// Written forms that [`find_move_in_full`] remarks on or reads in a way of its own:
/// a move written without any of them and without an origin square (`Nf3`, `exd5`,
/// `Rad1`, `e8=Q`) is read by [`quick`] alone when it settles it.
const UNUSUAL_FORMS: u16 = Form::LOWERCASE_PIECE.bits()
    | Form::PAWN_LETTER.bits()
    | Form::ODD_CASTLE.bits()
    | Form::ODD_PROMOTION.bits()
    | Form::LOWER_PROMOTION.bits()
    | Form::COLON_CAPTURE.bits()
    | Form::ODD_NULL.bits();

/// Is `san` written in the usual SAN of a piece or pawn move, without an origin square
/// (`Nf3`, `exd5`, `Rad1`, `e8=Q`)? For such a move every step of
/// [`find_move_in_full`] before [`quick`] is a no-op (no remark on the form, no null
/// move, no castling, no origin square for a long or king-takes-rook move), so that
/// [`quick`] alone, when it settles the move, gives the same answer.
#[inline(always)]
fn usual_form(san: &SanSyntax) -> bool {
    san.form.bits() & UNUSUAL_FORMS == 0
        && !san.null
        && san.castle.is_none()
        && san.from_square().is_none()
}

/// The move `san` describes, every written form and failure considered: the fast
/// [`quick`] when it settles the move, else the full [`search`].
#[inline(never)]
fn find_move_in_full(
    san: &SanSyntax,
    pos: &Position,
    token: &str,
) -> Result<Found, Box<ResolveError>> {
    let mut remarks = Remarks::default();
    if odd_form(san) {
        remarks.insert(Remark::OddForm);
    }
    if san.null {
        if pos.is_check() {
            return Err(illegal(token, Illegal::NullInCheck));
        }
        return Ok((None, remarks, (false, false)));
    }
    if let Some(side) = san.castle {
        if san.form.contains(Form::ZERO_CASTLE) {
            remarks.insert(Remark::FideForm);
        }
        return match pos.castling_move(side) {
            Some(m) => Ok((Some(m), remarks, (false, false))),
            None => Err(illegal(token, castle_failure(pos, side))),
        };
    }
    if san.form.contains(Form::LOWERCASE_PIECE) {
        remarks.insert(Remark::LowercasePiece);
    }
    if san.form.contains(Form::PAWN_LETTER) {
        remarks.insert(Remark::PawnLetter);
    }
    // chess960 king-takes-rook, written as a long move (`e1h1`, `Ke1h1`)
    if let Some(m) = king_takes_rook(san, pos) {
        remarks.insert(Remark::LongForm);
        return Ok((Some(m), remarks, (false, false)));
    }
    // Fast path: the origins of the written piece's legal moves onto the written
    // square alone. One fitting origin is the answer the full search below would give
    // (it filters the same moves by the same rules); anything else takes the full
    // search and its explanations.
    let uci_like = uci_like(san);
    let king_from = san.role == Role::King && san.from_square().is_some();
    if !uci_like
        && !king_from
        && let Some((m, origin)) = quick(san, pos)
    {
        return Ok((Some(m), describe(san, san.role, m, origin, remarks), origin));
    }
    search(san, pos, token, remarks)
}

/// The full search: every legal move onto the written square, filtered by what was
/// written, with the lower-case reading of `bxc3` and the reasons when none or
/// several fit.
fn search(
    san: &SanSyntax,
    pos: &Position,
    token: &str,
    mut remarks: Remarks,
) -> Result<Found, Box<ResolveError>> {
    let mut list = MoveList::new();
    pos.legal_moves_to(san.to, &mut list);
    let first = matching(san, san.role, &list);
    let (role, found) = match (first.len(), san.alt_role) {
        (0, Some(alt)) => {
            let second = matching(san, alt, &list);
            if !second.is_empty() {
                remarks.insert(Remark::LowercasePiece);
                (alt, second)
            } else {
                (san.role, first)
            }
        }
        _ => (san.role, first),
    };
    let mv = match found.as_slice() {
        [m] => *m,
        [] => return Err(illegal(token, explain(san, role, pos, &list))),
        many => {
            if many.iter().all(|m| m.promotion().is_some()) && san.promotion.is_none() {
                return Err(illegal(token, Illegal::PromotionMissing { to: san.to }));
            }
            return Err(Box::new(ResolveError::Ambiguous {
                token: token.to_owned(),
                candidates: many.to_vec(),
                forms: many.iter().map(|m| pgn_san(pos, m)).collect(),
            }));
        }
    };
    let origin = disambiguation(pos, &mv);
    Ok((Some(mv), describe(san, role, mv, origin, remarks), origin))
}

/// The one legal move of `san.role` onto `san.to` that fits the origin and promotion
/// written in `san` (as [`fits`] tells), with the origin coordinates canonical SAN
/// writes for it ([`origin_among`] over the other legal origins of that role onto that
/// square); `None` when no move or several fit.
#[inline(always)]
fn quick(san: &SanSyntax, pos: &Position) -> Option<(Move, (bool, bool))> {
    let (role, to) = (san.role, san.to);
    let promotes = role == Role::Pawn && to.rank() == Rank::EIGHTH.relative(pos.turn());
    // A pawn reaching the last rank makes one move per promotion piece: only the
    // written one fits (none written: all four fit). No other move promotes.
    let promotion = match (promotes, san.promotion) {
        (false, None) => None,
        (true, Some(p @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight))) => Some(p),
        _ => return None,
    };
    let froms = pos.legal_origins(role, to);
    let mut fit = froms;
    if let Some(f) = san.from_file {
        fit &= Bitboard::file(f);
    } else if role == Role::Pawn {
        // a pawn move without origin file goes straight ahead (`d5` is no capture)
        fit &= Bitboard::file(to.file());
    }
    if let Some(r) = san.from_rank {
        fit &= Bitboard::rank(r);
    }
    let from = fit.single()?;
    if role == Role::Pawn {
        let m = pos.pawn_move(from, to, promotion);
        return Some((m, (from.file() != to.file(), false)));
    }
    let m = Move::Normal {
        role,
        from,
        capture: pos.role_at(to),
        to,
        promotion: None,
    };
    Some((m, origin_among(froms.without(from), from)))
}

/// The remarks on how `mv` (read with `role` as the moving piece) was written,
/// against its canonical form (whose origin coordinates are `origin`).
fn describe(
    san: &SanSyntax,
    role: Role,
    mv: Move,
    origin: (bool, bool),
    mut remarks: Remarks,
) -> Remarks {
    // in the lower-case reading of `bxc3` the `b` was the piece, not a file
    let from_file = if role == san.role {
        san.from_file
    } else {
        None
    };
    let written_from = from_file.is_some() || san.from_rank.is_some();
    if written_from || matches!(mv, Move::Castle { .. }) {
        let (need_file, need_rank) = origin;
        let extra_file = from_file.is_some() && !need_file;
        let extra_rank = san.from_rank.is_some() && !need_rank;
        if from_file.is_some() && san.from_rank.is_some() && (extra_file || extra_rank) {
            remarks.insert(Remark::LongForm);
        } else if extra_file || extra_rank {
            remarks.insert(Remark::OverDisambiguated);
        }
    }
    if mv.is_capture() && !san.capture {
        remarks.insert(Remark::CaptureUnmarked);
    }
    if !mv.is_capture() && san.capture {
        remarks.insert(Remark::CaptureMarkWrong);
    }
    if san.ep && !matches!(mv, Move::EnPassant { .. }) {
        remarks.insert(Remark::EpMarkWrong);
    }
    // the FIDE Laws' own forms, which PGN SAN writes otherwise (`d8Q`, `exd6 e.p.`)
    if san.form.contains(Form::BARE_PROMOTION) || (san.ep && matches!(mv, Move::EnPassant { .. })) {
        remarks.insert(Remark::FideForm);
    }
    remarks
}

/// The legal moves in `list` that `san` describes, with `role` as the moving piece.
fn matching(san: &SanSyntax, role: Role, list: &MoveList) -> Matches {
    let alt = role != san.role;
    let uci_like = uci_like(san);
    let mut out = Matches::new();
    for m in list {
        let role_ok = m.role() == role || uci_like;
        if !role_ok {
            continue;
        }
        if let Move::Castle { .. } = m {
            // `Kg1` is no castling; `e1g1`/`Ke1g1` is
            if san.from_square() != Some(m.from()) {
                continue;
            }
        }
        if alt && san.from_rank.is_some() {
            continue;
        }
        if fits(san, !alt, m) {
            // more than fit are reported as ambiguous all the same
            let _ = out.try_push(*m);
        }
    }
    // In chess960 a king step can reach the square castling takes the king to
    // (`Kf1g1`, `d1c1`): written with its origin it is the step, castling being
    // written `O-O` or king-takes-rook.
    if out.iter().any(|m| {
        matches!(
            m,
            Move::Normal {
                role: Role::King,
                ..
            }
        )
    }) {
        out.retain(|m| !matches!(m, Move::Castle { .. }));
    }
    out
}

/// `g1f3`, `e1g1`: a long move without a letter, which may move any piece (UCI).
fn uci_like(san: &SanSyntax) -> bool {
    san.role == Role::Pawn && !san.form.contains(Form::PAWN_LETTER) && san.from_square().is_some()
}

/// Does `m` agree with the origin and promotion written in `san` (the origin only when
/// `with_origin`)?
#[inline]
fn fits(san: &SanSyntax, with_origin: bool, m: &Move) -> bool {
    if with_origin {
        if san.from_file.is_some_and(|f| f != m.from().file()) {
            return false;
        }
        if san.from_rank.is_some_and(|r| r != m.from().rank()) {
            return false;
        }
    }
    // a pawn move without origin file goes straight ahead (`d5` is no capture)
    if m.role() == Role::Pawn && san.from_file.is_none() && m.from().file() != m.to().file() {
        return false;
    }
    !(san.promotion.is_some() && m.promotion() != san.promotion)
}

/// The moves a written move may mean: few, so a small inline list (copied cheaply).
type Matches = arrayvec::ArrayVec<Move, 24>;

fn king_takes_rook(san: &SanSyntax, pos: &Position) -> Option<Move> {
    let from = san.from_square()?;
    if !matches!(san.role, Role::King | Role::Pawn) || san.promotion.is_some() {
        return None;
    }
    let us = pos.turn();
    let king = pos.piece_at(from)?;
    let rook = pos.piece_at(san.to)?;
    if king
        != (Piece {
            color: us,
            role: Role::King,
        })
        || rook
            != (Piece {
                color: us,
                role: Role::Rook,
            })
    {
        return None;
    }
    let side = if san.to.file() > from.file() {
        CastlingSide::KingSide
    } else {
        CastlingSide::QueenSide
    };
    match pos.castling_move(side)? {
        m @ Move::Castle { king, rook } if king == from && rook == san.to => Some(m),
        _ => None,
    }
}

fn castle_failure(pos: &Position, side: CastlingSide) -> Illegal {
    let us = pos.turn();
    let Some(king) = pos.king_of(us) else {
        return Illegal::CannotCastle {
            king: Square::E1,
            side,
            why: CastleWhy::NoKing,
        };
    };
    let fail = |why| Illegal::CannotCastle { king, side, why };
    let Some(rook) = pos.castles().rook(us, side) else {
        return fail(CastleWhy::NoRight);
    };
    if pos.is_check() {
        return fail(CastleWhy::InCheck);
    }
    let rank = king.rank();
    let king_to = Square::from_coords(side.king_to_file(), rank);
    let rook_to = Square::from_coords(side.rook_to_file(), rank);
    let must_be_empty = (attacks::between(king, king_to)
        | attacks::between(rook, rook_to)
        | Bitboard::from_square(king_to)
        | Bitboard::from_square(rook_to))
        & !Bitboard::from_square(king)
        & !Bitboard::from_square(rook);
    // report squares in the king's direction of travel, nearest first
    let ordered = |bb: Bitboard| -> Option<Square> {
        let mut v: Vec<Square> = bb.collect();
        v.sort_by_key(|s| (s.file().index() as i8 - king.file().index() as i8).abs());
        v.first().copied()
    };
    if let Some(s) = ordered(must_be_empty & pos.occupied()) {
        return fail(CastleWhy::Occupied(s));
    }
    let occupied = pos.occupied() & !Bitboard::from_square(king) & !Bitboard::from_square(rook);
    let path = attacks::between(king, king_to) | Bitboard::from_square(king_to);
    let attacked = path
        .filter(|&s| pos.attackers_to(s, us.other(), occupied).any())
        .fold(Bitboard::EMPTY, |bb, s| bb | Bitboard::from_square(s));
    if let Some(s) = ordered(attacked) {
        return fail(CastleWhy::Attacked(s));
    }
    fail(CastleWhy::NoRight)
}

/// Why no legal move fits `san` (with `role` moving).
fn explain(san: &SanSyntax, role: Role, pos: &Position, list: &MoveList) -> Illegal {
    let us = pos.turn();
    let to = san.to;
    let last = Rank::EIGHTH.relative(us);
    if let Some(p) = san.promotion {
        if role != Role::Pawn {
            return Illegal::NotAPawn { role };
        }
        if matches!(p, Role::King | Role::Pawn) {
            return Illegal::BadPromotion { role: p };
        }
        if to.rank() != last {
            return Illegal::NotPromotionSquare { to };
        }
    }
    if role == Role::Pawn && san.promotion.is_none() && to.rank() == last {
        let promos = matching_ignoring_promotion(san, list);
        if promos {
            return Illegal::PromotionMissing { to };
        }
    }
    let from_file = if role == san.role {
        san.from_file
    } else {
        None
    };
    let from_rank = san.from_rank;
    if let Some(from) = san.from_square()
        && role == san.role
        && pos.piece_at(from) != Some(Piece { color: us, role })
    {
        return Illegal::NoPieceOn {
            color: us,
            role,
            from,
        };
    }
    let ours = pos.by_piece(Piece { color: us, role });
    let occupied = pos.occupied();
    let mut reaching = ours.filter(|&from| {
        from_file.is_none_or(|f| from.file() == f)
            && from_rank.is_none_or(|r| from.rank() == r)
            && reaches(pos, us, role, from, to, occupied, san.from_file.is_some())
    });
    if let Some(from) = reaching.next() {
        if let Some(occ) = pos.piece_at(to).filter(|p| p.color == us) {
            return Illegal::OwnPiece {
                color: us,
                role,
                to,
                occupant: occ.role,
            };
        }
        return Illegal::KingInCheck {
            color: us,
            role,
            from,
            to,
        };
    }
    Illegal::NoPieceReaches {
        color: us,
        role,
        from_file,
        from_rank,
        to,
        capture: san.capture,
    }
}

fn matching_ignoring_promotion(san: &SanSyntax, list: &MoveList) -> bool {
    let mut s = *san;
    s.promotion = None;
    matching(&s, Role::Pawn, list)
        .iter()
        .any(|m| m.promotion().is_some())
}

/// Can the piece on `from` go to `to` by its movement alone (ignoring checks and,
/// for non-pawns, what stands on `to`)?
fn reaches(
    pos: &Position,
    us: Color,
    role: Role,
    from: Square,
    to: Square,
    occupied: Bitboard,
    pawn_capture_written: bool,
) -> bool {
    match role {
        Role::Knight => attacks::knight(from).contains(to),
        Role::King => attacks::king(from).contains(to),
        Role::Bishop => attacks::bishop(from, occupied).contains(to),
        Role::Rook => attacks::rook(from, occupied).contains(to),
        Role::Queen => attacks::queen(from, occupied).contains(to),
        Role::Pawn => {
            if from.file() != to.file() {
                let target =
                    pos.piece_at(to).is_some_and(|p| p.color != us) || pos.ep_square() == Some(to);
                pawn_capture_written && attacks::pawn(us, from).contains(to) && target
            } else {
                let step: i8 = if us == Color::White { 8 } else { -8 };
                let one = from.offset(step);
                let two = one.and_then(|s| s.offset(step));
                let start = Rank::SECOND.relative(us);
                if one == Some(to) {
                    !occupied.contains(to)
                } else {
                    two == Some(to)
                        && from.rank() == start
                        && one.is_some_and(|s| !occupied.contains(s))
                        && !occupied.contains(to)
                }
            }
        }
    }
}

/// The move `san` describes under the pieces' movement alone, ignoring checks and pins:
/// for keeping an illegal move that stood in a real game (FIDE Laws 7.5: an illegal
/// move not claimed stands). `None` unless exactly one piece fits, or for castling.
pub fn resolve_by_movement(san: &SanSyntax, pos: &Position) -> Option<Move> {
    if san.castle.is_some() || san.null {
        return None;
    }
    let us = pos.turn();
    let occupied = pos.occupied();
    if pos.by_color(us).contains(san.to) {
        return None;
    }
    let mut found = None;
    for from in pos.by_piece(Piece {
        color: us,
        role: san.role,
    }) {
        if san.from_file.is_some_and(|f| f != from.file())
            || san.from_rank.is_some_and(|r| r != from.rank())
            || !reaches(pos, us, san.role, from, san.to, occupied, true)
        {
            continue;
        }
        if found.is_some() {
            return None;
        }
        found = Some(from);
    }
    let from = found?;
    if san.role == Role::Pawn && from.file() != san.to.file() && pos.piece_at(san.to).is_none() {
        return Some(Move::EnPassant { from, to: san.to });
    }
    let last = Rank::EIGHTH.relative(us);
    let promotion = match (san.role, san.promotion) {
        (Role::Pawn, Some(p)) if san.to.rank() == last => Some(p),
        (Role::Pawn, None) if san.to.rank() == last => Some(Role::Queen),
        _ => None,
    };
    Some(Move::Normal {
        role: san.role,
        from,
        capture: pos.role_at(san.to),
        to: san.to,
        promotion,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::type_complexity)]
mod tests {
    use super::*;
    use crate::notation::chess::lang::{english, table};

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn ok(fen: &str, token: &str) -> (String, Resolved) {
        let p = pos(fen);
        let r = read(token, english(), &p).unwrap_or_else(|e| panic!("{token}: {e}"));
        (pgn_san(&p, &r.mv.unwrap()), r)
    }

    fn err(fen: &str, token: &str) -> ReadError {
        read(token, english(), &pos(fen)).expect_err(token)
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// The fast path (`quick`) answers exactly as the full search does whenever it
    /// answers: the same move and origin coordinates, on positions with pins, checks,
    /// double checks, en passant (also discovering check), promotions and castling
    /// through check, for every piece letter onto every square with every origin
    /// hint, and along pseudo-random games from them. It must also answer the usual
    /// SAN of every legal move.
    #[test]
    fn quick_agrees_with_full_search() {
        let fens = [
            START,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/2k5/3Pp3/8/8/4K2R b K d3 0 1",
            "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
            "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",
            "8/8/8/3pP3/4K3/8/8/7k w - d6 0 2",
            "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            "r6r/1b2k1bq/8/8/7B/8/8/R3K2R b KQ - 3 2",
            "1k6/8/8/8/8/8/8/N1N1K1N1 w - - 0 1",
            "7k/8/8/3Q1Q2/8/3Q1Q2/8/K7 w - - 0 1",
            "4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1",
        ];
        let files: Vec<Option<File>> = std::iter::once(None).chain(File::all().map(Some)).collect();
        let ranks: Vec<Option<Rank>> = std::iter::once(None)
            .chain((0..8u8).map(|i| Rank::from_char(char::from(b'1' + i))))
            .collect();
        let pawn_promotions = [
            None,
            Some(Role::Queen),
            Some(Role::Knight),
            Some(Role::King),
        ];
        let (mut answered, mut usual) = (0, 0);
        for fen in fens {
            let mut p = pos(fen);
            for ply in 0..20usize {
                let all = p.legal_moves();
                for role in Role::ALL {
                    let promotions: &[Option<Role>] = if role == Role::Pawn {
                        &pawn_promotions
                    } else {
                        &pawn_promotions[..2]
                    };
                    for to in Square::all() {
                        for &from_file in &files {
                            for &from_rank in &ranks {
                                for &promotion in promotions {
                                    if from_file.is_some() && from_rank.is_some() {
                                        continue; // long forms never take the fast path
                                    }
                                    let mut san = SanSyntax::blank();
                                    san.role = role;
                                    san.to = to;
                                    san.from_file = from_file;
                                    san.from_rank = from_rank;
                                    san.promotion = promotion;
                                    let Some((m, origin)) = quick(&san, &p) else {
                                        continue;
                                    };
                                    answered += 1;
                                    let (full, _, full_origin) =
                                        search(&san, &p, "t", Remarks::default())
                                            .unwrap_or_else(|e| panic!("{fen} ply {ply}: {e}"));
                                    assert_eq!(full, Some(m), "{fen} ply {ply} {san:?}");
                                    assert_eq!(origin, full_origin, "{fen} ply {ply} {san:?}");
                                    assert_eq!(origin, disambiguation(&p, &m));
                                }
                            }
                        }
                    }
                }
                for m in &all {
                    if matches!(m, Move::Castle { .. }) {
                        continue;
                    }
                    let text = pgn_san(&p, m);
                    let san = parse(&text, english()).unwrap();
                    assert_eq!(quick(&san, &p).map(|q| q.0), Some(*m), "{fen} {text}");
                    usual += 1;
                }
                if all.is_empty() {
                    break;
                }
                let m = all[(ply * 7 + 3) % all.len()];
                p.play_unchecked(&m);
            }
        }
        assert!(answered > 5_000 && usual > 1_000, "{answered} {usual}");
    }

    #[test]
    fn accepted_forms() {
        // (fen, token, canonical, remarks)
        let after_e4_d5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        let cases: &[(&str, &str, &str, &[Remark])] = &[
            (START, "Nf3", "Nf3", &[]),
            (START, "Ng1f3", "Nf3", &[Remark::LongForm]),
            (START, "Ng1-f3", "Nf3", &[Remark::LongForm]),
            (START, "g1f3", "Nf3", &[Remark::LongForm]),
            (START, "Ngf3", "Nf3", &[Remark::OverDisambiguated]),
            (START, "N1f3", "Nf3", &[Remark::OverDisambiguated]),
            (START, "nf3", "Nf3", &[Remark::LowercasePiece]),
            (START, "e4", "e4", &[]),
            (START, "e2e4", "e4", &[Remark::LongForm]),
            (START, "e2-e4", "e4", &[Remark::LongForm]),
            (START, "Pe4", "e4", &[Remark::PawnLetter]),
            (START, "Nxf3", "Nf3", &[Remark::CaptureMarkWrong]),
            (START, "Nf3+", "Nf3", &[Remark::CheckMark]),
            (after_e4_d5, "exd5", "exd5", &[]),
            (after_e4_d5, "ed5", "exd5", &[Remark::CaptureUnmarked]),
            (after_e4_d5, "e:d5", "exd5", &[Remark::OddForm]),
            (after_e4_d5, "e4xd5", "exd5", &[Remark::LongForm]),
            (after_e4_d5, "exd5 e.p.", "exd5", &[Remark::EpMarkWrong]),
        ];
        for &(fen, tok, canon, want) in cases {
            let (san, r) = ok(fen, tok);
            assert_eq!(san, canon, "{tok}");
            let got: Vec<_> = r.remarks.iter().collect();
            assert_eq!(got, want, "{tok}");
        }
    }

    #[test]
    fn lowercase_b() {
        // bxc3 is the pawn capture when it exists
        let both = "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1";
        let (san, r) = ok(both, "bxc3");
        assert_eq!((san.as_str(), r.remarks.is_empty()), ("bxc3", true));
        // only the bishop can: read as Bxc3 with a warning
        let bishop = "4k3/8/8/8/8/2p5/3B4/4K3 w - - 0 1";
        let (san, r) = ok(bishop, "bxc3");
        assert_eq!(san, "Bxc3");
        assert!(r.remarks.contains(Remark::LowercasePiece));
    }

    #[test]
    fn castling_and_en_passant() {
        let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        for (tok, want) in [
            ("O-O", "O-O"),
            ("0-0", "O-O"),
            ("0-0-0", "O-O-O"),
            ("e1g1", "O-O"),
            ("Ke1g1", "O-O"),
        ] {
            assert_eq!(ok(fen, tok).0, want, "{tok}");
        }
        assert!(ok(fen, "o-o").1.remarks.contains(Remark::OddForm));
        // Kg1 is not castling
        assert_eq!(err(fen, "Kg1").code(), "illegal-move");
        let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        for tok in [
            "exf6",
            "exf6 e.p.",
            "exf6e.p.",
            "e5xf6 e. p.",
            "ef6",
            "exf6ep",
        ] {
            let (san, r) = ok(ep, tok);
            assert_eq!(san, "exf6", "{tok}");
            assert!(!r.remarks.contains(Remark::EpMarkWrong), "{tok}");
        }
        // chess960 king takes rook
        let p = Position::from_fen_chess960("4k3/8/8/8/8/8/8/1R1K1R2 w FB - 0 1").unwrap();
        let r = read("d1f1", english(), &p).unwrap();
        assert_eq!(
            r.mv.and_then(|m| m.castling_side()),
            Some(CastlingSide::KingSide)
        );
    }

    #[test]
    fn check_marks() {
        let mate = "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1";
        let cases: &[(&str, &str, CheckMark, bool)] = &[
            (mate, "Ra8#", CheckMark::Mate, false),
            (mate, "Ra8++", CheckMark::Mate, false),
            (mate, "Ra8‡", CheckMark::Mate, false),
            (mate, "Ra8", CheckMark::Mate, true),
            (mate, "Ra8+", CheckMark::Mate, true),
            (mate, "Ra7", CheckMark::None, false),
            (mate, "Ra7+", CheckMark::None, true),
            // double check by discovery: Nf6 with the rook on e1 behind
            (
                "4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1",
                "Nf6++",
                CheckMark::DoubleCheck,
                false,
            ),
            (
                "4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1",
                "Nf6+",
                CheckMark::DoubleCheck,
                false,
            ),
            (
                "4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1",
                "Nc5++",
                CheckMark::Check,
                true,
            ),
        ];
        for &(fen, tok, gives, warned) in cases {
            let (_, r) = ok(fen, tok);
            assert_eq!(r.gives, gives, "{tok}");
            assert_eq!(r.remarks.contains(Remark::CheckMark), warned, "{tok}");
        }
    }

    #[test]
    fn diagnostics_exact() {
        // every code with its exact message
        let after_e4_d5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        let mate = "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1";
        let cases: &[(&str, &str, Severity, &str, &str)] = &[
            (
                START,
                "nf3",
                Severity::Warning,
                "lowercase-piece",
                "lower-case piece letter in nf3, read as Nf3",
            ),
            (
                START,
                "Ngf3",
                Severity::Note,
                "non-canonical",
                "Ngf3 is over-disambiguated, canonical Nf3",
            ),
            (
                START,
                "Ng1f3",
                Severity::Note,
                "non-canonical",
                "Ng1f3 is long algebraic, canonical Nf3",
            ),
            (
                after_e4_d5,
                "ed5",
                Severity::Note,
                "non-canonical",
                "ed5 captures without x, canonical exd5",
            ),
            (
                START,
                "Pe4",
                Severity::Note,
                "non-canonical",
                "Pe4 names the pawn, canonical e4",
            ),
            (
                after_e4_d5,
                "e:d5",
                Severity::Note,
                "non-canonical",
                "e:d5 is non-canonical, canonical exd5",
            ),
            (
                START,
                "Nxf3",
                Severity::Warning,
                "capture-mark",
                "Nxf3 marks a capture but captures nothing",
            ),
            (
                after_e4_d5,
                "exd5 e.p.",
                Severity::Warning,
                "ep-mark",
                "exd5 e.p. marks en passant but is not an en passant capture",
            ),
            (
                mate,
                "Ra8",
                Severity::Warning,
                "check-mark",
                "wrong check mark on Ra8: expected #, found no mark",
            ),
            (
                mate,
                "Ra8+",
                Severity::Warning,
                "check-mark",
                "wrong check mark on Ra8+: expected #, found +",
            ),
            (
                mate,
                "Ra7+",
                Severity::Warning,
                "check-mark",
                "wrong check mark on Ra7+: expected no mark, found +",
            ),
        ];
        for &(fen, tok, sev, code, msg) in cases {
            let p = pos(fen);
            let r = read(tok, english(), &p).unwrap();
            let mut d = Vec::new();
            r.diagnostics(tok, &mut d);
            assert_eq!(d.len(), 1, "{tok}: {d:?}");
            assert_eq!(
                (d[0].severity, d[0].code.as_str(), d[0].message.as_str()),
                (sev, code, msg)
            );
        }
    }

    #[test]
    fn errors_exact() {
        let two_knights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        let castle = "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1";
        let castle_blocked = "4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1";
        let pinned = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1";
        let promo = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        let cases: &[(&str, &str, &str, &str)] = &[
            (
                START,
                "Nf6",
                "illegal-move",
                "illegal move Nf6: no white knight can reach f6",
            ),
            (
                START,
                "Ngd2",
                "illegal-move",
                "illegal move Ngd2: no white knight on the g-file can reach d2",
            ),
            (
                START,
                "Nd4",
                "illegal-move",
                "illegal move Nd4: no white knight can reach d4",
            ),
            (
                START,
                "Nh1f3",
                "illegal-move",
                "illegal move Nh1f3: there is no white knight on h1",
            ),
            (
                START,
                "e5",
                "illegal-move",
                "illegal move e5: no white pawn can reach e5",
            ),
            (
                START,
                "exd3",
                "illegal-move",
                "illegal move exd3: no white pawn on the e-file can capture on d3",
            ),
            (
                START,
                "Bd2",
                "illegal-move",
                "illegal move Bd2: the white bishop cannot move to d2: a white pawn stands there",
            ),
            (
                pinned,
                "Nc3",
                "illegal-move",
                "illegal move Nc3: the white knight on e2 cannot move to c3: the white king would be in check",
            ),
            (
                START,
                "O-O",
                "illegal-move",
                "illegal move O-O: the king on e1 cannot castle king side: f1 is occupied",
            ),
            (
                castle,
                "O-O",
                "illegal-move",
                "illegal move O-O: the king on e1 cannot castle king side: it is in check",
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
                "O-O-O",
                "illegal-move",
                "illegal move O-O-O: the king on e1 cannot castle queen side: it has no castling right there",
            ),
            (
                "5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1",
                "O-O",
                "illegal-move",
                "illegal move O-O: the king on e1 cannot castle king side: f1 is attacked",
            ),
            (
                castle_blocked,
                "O-O-O",
                "illegal-move",
                "illegal move O-O-O: the king on e1 cannot castle queen side: b1 is occupied",
            ),
            (
                START,
                "e3=Q",
                "illegal-move",
                "illegal move e3=Q: e3 is not a promotion square",
            ),
            (
                promo,
                "a8",
                "illegal-move",
                "illegal move a8: a pawn reaching a8 must promote: expected a piece letter after a8",
            ),
            (
                promo,
                "a8=K",
                "illegal-move",
                "illegal move a8=K: cannot promote to a king",
            ),
            (
                promo,
                "Kd1=Q",
                "illegal-move",
                "illegal move Kd1=Q: only a pawn can promote, not a king",
            ),
            (
                "4k3/8/8/8/8/2p5/1B1B4/4K3 w - - 0 1",
                "bxc3",
                "ambiguous-move",
                "ambiguous move bxc3: it fits Bbxc3 and Bdxc3",
            ),
            (
                two_knights,
                "Nd2",
                "ambiguous-move",
                "ambiguous move Nd2: it fits Nbd2 and Nfd2",
            ),
            (
                START,
                "Sf3",
                "unknown-piece",
                "unknown piece letter S in Sf3: English pieces are K Q R B N",
            ),
            (
                START,
                "Nf9",
                "invalid-move",
                "invalid move Nf9: expected a square, a piece letter, castling or --, found Nf9",
            ),
        ];
        for &(fen, tok, code, msg) in cases {
            let e = err(fen, tok);
            assert_eq!(
                (e.code().as_str(), e.to_string().as_str()),
                (code, msg),
                "{tok}"
            );
        }
        let d = err(two_knights, "Nd2").to_diagnostic();
        assert_eq!(d.candidates, vec!["Nbd2".to_owned(), "Nfd2".to_owned()]);
        assert_eq!(d.severity, Severity::Error);
    }

    #[test]
    fn other_languages_resolve() {
        let cases: &[(&str, &str, &str)] = &[
            ("vi", "Mf3", "Nf3"),
            ("de", "Sf3", "Nf3"),
            ("fr", "Cf3", "Nf3"),
            ("ru", "Кf3", "Nf3"),
            ("zh", "马f3", "Nf3"),
            ("fa", "اسبf3", "Nf3"),
            ("fi", "Rf3", "Nf3"),
            ("nl", "Pf3", "Nf3"),
            ("cs", "Jf3", "Nf3"),
            ("hu", "Hf3", "Nf3"),
            ("pl", "Sf3", "Nf3"),
        ];
        let p = Position::default();
        for &(code, tok, want) in cases {
            let r =
                read(tok, table(code).unwrap(), &p).unwrap_or_else(|e| panic!("{code} {tok}: {e}"));
            assert_eq!(pgn_san(&p, &r.mv.unwrap()), want, "{code} {tok}");
        }
    }
}
