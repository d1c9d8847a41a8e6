//! The arbiter's repair of a chess scoresheet: every slip of a game found in one run,
//! the changes chosen together by the whole rest of the game.
//!
//! A sheet's main line is a list of *cells* (the moves as written, and the cells marked
//! illegible: `?`). A plan reads them from the start; where a cell cannot be read, or
//! where reading on fails a few plies later, it tries the changes a writer's slips
//! explain, each with a cost:
//!
//! - the cell **replaced** by a legal move close to what was written (the cost grows with
//!   the distance of [`super::suggest`]: handwriting confusions, a mirrored rank, another
//!   piece letter …); an illegible cell by any legal move at one cost;
//! - a move **left out** before the cell (every later move sits in the other column);
//! - two moves of one side **swapped** (the cell and the one two plies later);
//! - a cell that read as a legal move a few plies before the failure replaced (the
//!   slip showed only later: `c4` written for `e4`).
//!
//! The search is best-first over partial plans, scored by their changes' costs plus a
//! cost for every cell not yet read: the plan that reads the most of the sheet with the
//! fewest and likeliest changes wins, its changes weighed together (a candidate that
//! alone lets the rest replay beats one that only reads the next few moves). Then each
//! change's alternatives are scored with the rest of the plan kept: their spread gives
//! the change's confidence and whether a person should look at it.
//!
//! Only games whose replay fails come here: a clean game costs nothing.

use std::collections::{BinaryHeap, HashMap};

use crate::{
    chess::{Move, Position, Role},
    notation::chess::{PieceTable, ResolveError, SanSyntax, parse, resolve, resolve_play},
    replay::suggest::closeness,
};

/// What a change did to the sheet.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// The cell could not be read or played: another move read in its place.
    Replaced,
    /// The cell was marked illegible (`?`): a move read in its place.
    Illegible,
    /// A move left out before the cell: inserted.
    Missing,
    /// The cell and the one two plies later were written in each other's place.
    Swapped,
    /// The cell read as a legal move, but the rest of the game replays only with another.
    Suspect,
}

/// One change of a plan, with its alternatives.
#[derive(Clone, Debug)]
pub struct Change {
    /// The cell (index among the main line's cells); a [`ChangeKind::Missing`] move is
    /// inserted before it.
    pub cell: usize,
    pub kind: ChangeKind,
    /// The move played.
    pub mv: Move,
    /// The moves that could stand here, best first (the move played first), at most 3.
    pub candidates: Vec<Move>,
    /// How sure the choice is against its alternatives (0 to 1).
    pub confidence: f32,
    /// The best and the second reading are close: a person should look at it.
    pub review: bool,
}

/// The changes that make a sheet replay.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// In cell order (a missing move before a change on the same cell).
    pub changes: Vec<Change>,
    /// The cells read to the end with them.
    pub complete: bool,
}

/// A cell not read costs this: more than any one change, so that a change that lets
/// the rest be read is always worth it.
const UNREAD: f32 = 2.0;
/// The cost of a replacement beyond its distance.
const REPLACE: f32 = 0.3;
/// A move an ambiguous cell fits (beyond [`REPLACE`]).
const AMBIGUOUS: f32 = 0.1;
/// Any legal move for an illegible cell.
const ILLEGIBLE: f32 = 1.0;
/// A move left out.
const MISSING: f32 = 1.8;
/// Two moves swapped.
const SWAP: f32 = 1.4;
/// A cell that read as a legal move, replaced (beyond its replacement's cost).
const SUSPECT: f32 = 0.5;
/// How fast the confidence falls with a reading's cost above the best one's.
const SHARPNESS: f32 = 3.0;
/// A second reading within this of the best one's cost is close: to review.
const CLOSE: f32 = 0.6;
/// A cell that read is replaced only by moves at most this far from it.
const SUSPECT_DISTANCE: f32 = 1.5;
/// Replacements farther than this are not tried (an illegible cell excepted).
const MAX_DISTANCE: f32 = 3.0;
/// The closest replacements tried per cell.
const REPLACEMENTS: usize = 10;
/// The least a change in the look-back costs: a suspected cell replaced by a move
/// of the least distance (a case slip, another table's letter), the prior's most
/// favourable reading taken off. A swap there costs more ([`SWAP`]).
const LOOK_BACK_LEAST: f32 = SUSPECT + REPLACE + 0.3 - WINS * MATERIAL_CAP;
/// How far back from a failure a legal cell is suspected.
const LOOK_BACK: usize = 10;
/// A reading whose piece its side moves on within this many plies …
const MOVES_ON_PLIES: usize = 12;
/// … is this much likelier (a tie-breaker among readings the rest replays after).
const MOVES_ON: f32 = 0.25;
/// Partial plans expanded at most, and cells read at most, per game.
const MAX_EXPANSIONS: usize = 3000;
const MAX_READS: usize = 1_500_000;
/// What each pawn's worth of material a reading seems to give away costs (at a glance:
/// the piece moved left where the opponent takes it for less), up to [`MATERIAL_CAP`]
/// pawns: players seldom blunder, so a reading that hangs a piece is less likely.
const LOSES: f32 = 0.06;
/// What each pawn's worth a reading seems to win takes off (a capture the opponent
/// cannot answer in kind, a recapture).
const WINS: f32 = 0.03;
const MATERIAL_CAP: f32 = 5.0;
/// A reading that takes back on the square the opponent has just taken on.
const RECAPTURE: f32 = 0.3;
/// A later cell's mark that disagrees with the position a reading leads to (see
/// `marks_disagree`), within this many plies of the reading.
const MARK: f32 = 0.1;
const MARKS_PLIES: usize = 12;
/// A reading that does not give check where the cell has a check mark (`+`, `#`).
const CHECK_MARK: f32 = 0.3;
/// What each pawn's worth of a better square for the piece moved takes off a reading
/// the writing tells nothing of (an illegible cell, a move left out), up to
/// [`PLACEMENT_CAP`]: players put their pieces where they stand well.
const PLACEMENT: f32 = 0.3;
const PLACEMENT_CAP: f32 = 0.15;
/// A reading the writing tells nothing of (an illegible cell, a move left out) that
/// gives check: the reply written after it had to answer the check, and does, which a
/// reply written after a quiet move seldom would by chance.
const FORCED: f32 = 0.15;
/// A reading whose piece its side moves on, within [`MOVES_ON_PLIES`], to a square it
/// could have gone to at once: a detour players seldom make (the piece moving on no
/// longer makes the reading likelier; this is added instead).
const DETOUR: f32 = 0.25;

/// A piece's worth in pawns (the king's is not at stake in a capture).
fn worth(role: Role) -> f32 {
    match role {
        Role::Pawn => 1.0,
        Role::Knight | Role::Bishop => 3.0,
        Role::Rook => 5.0,
        Role::Queen => 9.0,
        Role::King => 0.0,
    }
}

/// What a move wins at a glance, in pawns (negative: what it loses): what it takes
/// (and a promotion's gain), less what the opponent can then win on its square (the
/// piece moved, taken for nothing or by a lesser piece). No deeper look: a tie-breaker
/// among readings the rest of the sheet replays after equally, not an engine.
fn material(pos: &Position, mv: &Move, after: &Position) -> f32 {
    let gain = mv.capture().map_or(0.0, worth) + mv.promotion().map_or(0.0, |r| worth(r) - 1.0);
    let us = pos.turn();
    let them = us.other();
    let to = mv.to();
    let occupied = after.occupied();
    let attackers = after.attackers_to(to, them, occupied);
    let moved = after.role_at(to).map_or(0.0, worth);
    let risk = if attackers.is_empty() || moved == 0.0 {
        0.0
    } else if !after.attackers_to(to, us, occupied).any() {
        moved
    } else {
        // defended: the least attacker takes, and is taken back (a king cannot take a
        // defended piece)
        let least = attackers
            .filter_map(|sq| after.role_at(sq))
            .filter(|r| *r != Role::King)
            .map(worth)
            .fold(f32::INFINITY, f32::min);
        (moved - least).max(0.0)
    };
    gain - risk
}

/// What the side to move of `pos` can win at once at a glance, in pawns: the best of
/// its captures (what it takes, less the taker when the square is defended), the square
/// `skip` left out. 0 when nothing is left en prise.
fn en_prise(pos: &Position, skip: crate::chess::Square) -> f32 {
    let them = pos.turn().other();
    let mut best = 0.0f32;
    for m in pos.legal_moves() {
        let Some(victim) = m.capture() else { continue };
        if m.to() == skip {
            continue;
        }
        let mut after = pos.clone();
        after.play_unchecked(&m);
        let defended = after.attackers_to(m.to(), them, after.occupied()).any();
        let taker = if defended { worth(m.role()) } else { 0.0 };
        best = best.max(worth(victim) - taker);
    }
    best
}

/// What a move seems to give away at a glance, as a cost ([`LOSES`] a pawn): the piece
/// moved left where it is lost ([`material`]), or another left en prise ([`en_prise`]).
fn blunder(pos: &Position, mv: &Move) -> f32 {
    let mut after = pos.clone();
    after.play_unchecked(mv);
    let lost = (-material(pos, mv, &after)).max(0.0) + en_prise(&after, mv.to());
    lost.min(MATERIAL_CAP) * LOSES
}

/// How well the reply written after a reading the writing tells nothing of fits it
/// (`after`: the position the reading leads to; negative: a better fit): a reading
/// that gives check makes the reply forced ([`FORCED`]); a reply after which the
/// reading's side wins material at a glance (the reply leaves a piece en prise, or
/// moves one where it is lost) is a blunder under that reading ([`LOSES`] a pawn), and
/// players seldom blunder: `6... e5` before `7. Be3` leaves the knight on d4 to the
/// pawn, `6... e6` does not; a reading that leaves its piece undefended where the
/// opponent takes it, and a reply that does not, is a second such thing.
fn reply_fit(after: &Position, mv: &Move, reply: Option<Move>) -> f32 {
    let Some(r) = reply else { return 0.0 };
    let forced = if after.is_check() { FORCED } else { 0.0 };
    // a reading that leaves its piece where it is lost, and a reply that does not take
    // it: the opponent missing the gain is a second unlikely thing
    let left = after
        .attackers_to(mv.to(), after.turn(), after.occupied())
        .any()
        && r.to() != mv.to();
    let unpunished = if left {
        let piece = after.role_at(mv.to()).map_or(0.0, worth);
        let defended = after
            .attackers_to(mv.to(), after.turn().other(), after.occupied())
            .any();
        if defended {
            0.0
        } else {
            piece.min(MATERIAL_CAP) * LOSES
        }
    } else {
        0.0
    };
    blunder(after, &r) - forced + unpunished
}

/// Where a piece stands well, in centipawns, from White's side (rank 8 first): the
/// classical piece-square tables of Tomasz Michniewski's "simplified evaluation
/// function" (knights and bishops towards the centre, rooks on the seventh, the king
/// behind his pawns in the middle game and in the centre in the ending).
#[rustfmt::skip]
const SQUARE_WORTH: [[i8; 64]; 7] = [
    // pawn
    [0, 0, 0, 0, 0, 0, 0, 0, 50, 50, 50, 50, 50, 50, 50, 50, 10, 10, 20, 30, 30, 20, 10, 10,
     5, 5, 10, 25, 25, 10, 5, 5, 0, 0, 0, 20, 20, 0, 0, 0, 5, -5, -10, 0, 0, -10, -5, 5,
     5, 10, 10, -20, -20, 10, 10, 5, 0, 0, 0, 0, 0, 0, 0, 0],
    // knight
    [-50, -40, -30, -30, -30, -30, -40, -50, -40, -20, 0, 0, 0, 0, -20, -40,
     -30, 0, 10, 15, 15, 10, 0, -30, -30, 5, 15, 20, 20, 15, 5, -30,
     -30, 0, 15, 20, 20, 15, 0, -30, -30, 5, 10, 15, 15, 10, 5, -30,
     -40, -20, 0, 5, 5, 0, -20, -40, -50, -40, -30, -30, -30, -30, -40, -50],
    // bishop
    [-20, -10, -10, -10, -10, -10, -10, -20, -10, 0, 0, 0, 0, 0, 0, -10,
     -10, 0, 5, 10, 10, 5, 0, -10, -10, 5, 5, 10, 10, 5, 5, -10,
     -10, 0, 10, 10, 10, 10, 0, -10, -10, 10, 10, 10, 10, 10, 10, -10,
     -10, 5, 0, 0, 0, 0, 5, -10, -20, -10, -10, -10, -10, -10, -10, -20],
    // rook
    [0, 0, 0, 0, 0, 0, 0, 0, 5, 10, 10, 10, 10, 10, 10, 5, -5, 0, 0, 0, 0, 0, 0, -5,
     -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5,
     -5, 0, 0, 0, 0, 0, 0, -5, 0, 0, 0, 5, 5, 0, 0, 0],
    // queen
    [-20, -10, -10, -5, -5, -10, -10, -20, -10, 0, 0, 0, 0, 0, 0, -10,
     -10, 0, 5, 5, 5, 5, 0, -10, -5, 0, 5, 5, 5, 5, 0, -5, 0, 0, 5, 5, 5, 5, 0, -5,
     -10, 5, 5, 5, 5, 5, 0, -10, -10, 0, 5, 0, 0, 0, 0, -10, -20, -10, -10, -5, -5, -10, -10, -20],
    // king, middle game
    [-30, -40, -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50, -40, -40, -30,
     -30, -40, -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50, -40, -40, -30,
     -20, -30, -30, -40, -40, -30, -30, -20, -10, -20, -20, -20, -20, -20, -20, -10,
     20, 20, 0, 0, 0, 0, 20, 20, 20, 30, 10, 0, 0, 10, 30, 20],
    // king, ending
    [-50, -40, -30, -20, -20, -30, -40, -50, -30, -20, -10, 0, 0, -10, -20, -30,
     -30, -10, 20, 30, 30, 20, -10, -30, -30, -10, 30, 40, 40, 30, -10, -30,
     -30, -10, 30, 40, 40, 30, -10, -30, -30, -10, 20, 30, 30, 20, -10, -30,
     -30, -30, 0, 0, 0, 0, -30, -30, -50, -30, -30, -30, -30, -30, -30, -50],
];

/// What standing on `sq` is worth to a `role` of the side to move of `pos`, in pawns
/// ([`SQUARE_WORTH`]; the king's ending table once no queen is left or little else).
fn square_worth(pos: &Position, role: Role, sq: crate::chess::Square) -> f32 {
    let table = match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => {
            let heavy = pos.by_role(Role::Queen).count() * 9 + pos.by_role(Role::Rook).count() * 5;
            let minor = (pos.by_role(Role::Knight).count() + pos.by_role(Role::Bishop).count()) * 3;
            if pos.by_role(Role::Queen).is_empty() || heavy + minor <= 26 {
                6
            } else {
                5
            }
        }
    };
    // the table is drawn from White's side, rank 8 first
    let rank = sq.index() / 8;
    let file = sq.index() % 8;
    let row = match pos.turn() {
        crate::color::Color::White => 7 - rank,
        crate::color::Color::Black => rank,
    };
    f32::from(SQUARE_WORTH[table][usize::from(row * 8 + file)]) / 100.0
}

/// How much better the moved piece stands after `mv` ([`square_worth`]), in pawns.
fn placement(pos: &Position, mv: &Move) -> f32 {
    let role = mv.role();
    let to = match mv.promotion() {
        Some(r) => square_worth(pos, r, mv.to()),
        None => square_worth(pos, role, mv.to()),
    };
    to - square_worth(pos, role, mv.from())
}

/// What a reading's likelihood as a chess move adds to its cost: [`material`] (a
/// blunder is unlikely), a check mark written on a cell whose reading gives no check
/// ([`CHECK_MARK`]), and where the writing tells nothing of the move (an illegible cell,
/// a move left out) the [`placement`] of the piece moved ([`PLACEMENT`]).
fn prior(pos: &Position, mv: &Move, cell: &str) -> f32 {
    let mut after = pos.clone();
    after.play_unchecked(mv);
    let net = material(pos, mv, &after).clamp(-MATERIAL_CAP, MATERIAL_CAP);
    let mut cost = if net < 0.0 { -net * LOSES } else { -net * WINS };
    if cell.is_empty() || is_illegible(cell) {
        cost -= (placement(pos, mv) * PLACEMENT).clamp(-PLACEMENT_CAP, PLACEMENT_CAP);
    }
    if check_marked(cell) && !after.is_check() {
        cost += CHECK_MARK;
    }
    cost
}

/// Whether a cell is written with a check or mate mark (annotation glyphs aside).
fn check_marked(cell: &str) -> bool {
    cell.trim()
        .trim_end_matches(['!', '?'])
        .ends_with(['+', '#', '†', '‡'])
}

/// Whether a cell is written with a capture mark.
fn capture_marked(cell: &str) -> bool {
    cell.contains(['x', ':', '×'])
}

/// Whether a cell is written as illegible: `?` or `??` alone.
pub fn is_illegible(cell: &str) -> bool {
    matches!(cell.trim(), "?" | "??")
}

/// The piece letters to plan a sheet's `cells` in: `inferred` (the table whose replay
/// went furthest), unless another table reads more of the cells as moves. A replay
/// that fails at once (an illegible or left-out first move) tells nothing of the
/// letters, and its tie goes to English; the letters the cells are written in still
/// tell (`Sf3`, `Lb5`: German). A tie keeps `inferred`.
pub fn letters_of(cells: &[&str], inferred: &'static PieceTable) -> &'static PieceTable {
    let count = |t: &PieceTable| cells.iter().filter(|c| parse(c, t).is_ok()).count();
    // a table that reads none of the cells `inferred` does not read reads no more than
    // it: only the others are counted
    let unread: Vec<&str> = cells
        .iter()
        .copied()
        .filter(|c| parse(c, inferred).is_err())
        .collect();
    let mut best = (cells.len() - unread.len(), inferred);
    for t in crate::notation::chess::tables() {
        if !unread.iter().any(|c| parse(c, t).is_ok()) {
            continue;
        }
        let n = count(t);
        if n > best.0 {
            best = (n, t);
        }
    }
    best.1
}

struct Search<'a> {
    start: &'a Position,
    cells: &'a [&'a str],
    syntax: Vec<Option<SanSyntax>>,
    table: &'static PieceTable,
    reads: usize,
    /// Some cell has a check mark: the writer marks checks, so a check not marked
    /// counts against a reading too.
    marks_checks: bool,
}

#[derive(Clone)]
struct Node {
    pos: Position,
    next: usize,
    cost: f32,
    changes: Vec<Step>,
}

/// A change as the search makes it (alternatives come after).
#[derive(Copy, Clone, Debug)]
struct Step {
    cell: usize,
    kind: ChangeKind,
    mv: Move,
    cost: f32,
}

impl Node {
    fn priority(&self, cells: usize) -> f32 {
        self.cost + UNREAD * (cells - self.next) as f32
    }
}

/// Entries of the search's heap: the lowest priority first (ties: the furthest read);
/// the node, and whether the entry is its look-back ([`Search::expand_back`]).
struct Queued(u32, usize, usize, bool);

impl PartialEq for Queued {
    fn eq(&self, o: &Queued) -> bool {
        (self.0, self.1) == (o.0, o.1)
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, o: &Queued) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Queued {
    fn cmp(&self, o: &Queued) -> std::cmp::Ordering {
        o.0.cmp(&self.0).then(self.1.cmp(&o.1))
    }
}

impl Search<'_> {
    /// Reads cell `i` on `pos` as written; the move read, or `None` (nothing played).
    fn read(&mut self, pos: &mut Position, i: usize) -> Option<Option<Move>> {
        self.reads += 1;
        let syntax = self.syntax.get(i)?.as_ref()?;
        let cell = self.cells.get(i)?;
        resolve_play(syntax, pos, cell).ok().map(|r| r.mv)
    }

    /// Reads on from `node.next` while the cells read.
    fn advance(&mut self, node: &mut Node) {
        while node.next < self.cells.len() && self.read(&mut node.pos, node.next).is_some() {
            node.next += 1;
        }
    }

    /// The position before cell `j` under `steps` (all before `j`, or a missing move
    /// at `j` not applied).
    fn before(&mut self, j: usize, steps: &[Step]) -> Option<Position> {
        self.before_last(j, steps).map(|(pos, _)| pos)
    }

    /// [`Self::before`], with the last move played to reach it.
    fn before_last(&mut self, j: usize, steps: &[Step]) -> Option<(Position, Option<Move>)> {
        let mut pos = self.start.clone();
        let mut last = None;
        let mut k = 0;
        for i in 0..j {
            let mut replaced = false;
            while let Some(s) = steps.get(k).filter(|s| s.cell == i) {
                pos.play_unchecked(&s.mv);
                last = Some(s.mv);
                replaced |= s.kind != ChangeKind::Missing;
                k += 1;
            }
            if !replaced {
                last = self.read(&mut pos, i)?;
            }
        }
        Some((pos, last))
    }

    /// The replacements of cell `i` on `pos`, with their costs: the closest legal moves
    /// to what was written, or any legal move for an illegible cell.
    fn replacements(&self, pos: &Position, i: usize) -> Vec<(Move, f32)> {
        let cell = self.cells.get(i).copied().unwrap_or("");
        if is_illegible(cell) {
            return pos
                .legal_moves()
                .into_iter()
                .map(|m| (m, ILLEGIBLE + prior(pos, &m, cell)))
                .collect();
        }
        let Some(mut scored) = closeness(pos, cell, self.table) else {
            return Vec::new();
        };
        // an ambiguous cell names its moves: each is read at a small cost (the moves
        // after it choose)
        let fits: Vec<Move> = match self.syntax.get(i).and_then(Option::as_ref) {
            Some(syntax) => match resolve(syntax, pos, cell) {
                Err(e) => match *e {
                    ResolveError::Ambiguous { candidates, .. } => candidates,
                    ResolveError::Illegal { .. } => Vec::new(),
                },
                Ok(_) => Vec::new(),
            },
            None => Vec::new(),
        };
        for s in &mut scored {
            if fits.contains(&s.mv) {
                s.distance = AMBIGUOUS;
            }
        }
        scored.sort_by(|a, b| a.distance.total_cmp(&b.distance));
        scored
            .into_iter()
            .filter(|s| s.distance <= MAX_DISTANCE)
            .take(REPLACEMENTS)
            .map(|s| (s.mv, REPLACE + s.distance + prior(pos, &s.mv, cell)))
            .collect()
    }

    /// The plans one change away from `node`, stopped at its cell `node.next`: a change
    /// there ([`Self::expand_back`] tries the cells before it).
    fn expand(&mut self, node: &Node, out: &mut Vec<Node>) {
        self.changes_at(node, &node.pos, node.next, 0.0, out);
    }

    /// The plans one change away from `node` at one of the few cells before its cell
    /// `node.next` that read (since its last change): a slip that showed only later.
    /// Each costs at least [`LOOK_BACK_LEAST`] more than `node`.
    fn expand_back(&mut self, node: &Node, out: &mut Vec<Node>) {
        let i = node.next;
        let floor = node.changes.last().map_or(0, |s| s.cell + 1);
        let lo = i.saturating_sub(LOOK_BACK).max(floor);
        // the cells from `lo` to `i` read as written (no change since `floor`): the
        // position before each is the one before `lo` read on, one replay for all
        let Some(mut pos) = self.before(lo, &node.changes) else {
            return;
        };
        for j in lo..i {
            self.changes_at(node, &pos, j, SUSPECT, out);
            if self.read(&mut pos, j).is_none() {
                break;
            }
        }
    }

    /// Changes at cell `i` (position `pos` before it) of `node`'s plan; `extra` is added
    /// to each cost (a cell that read is suspected).
    fn changes_at(
        &mut self,
        node: &Node,
        pos: &Position,
        i: usize,
        extra: f32,
        out: &mut Vec<Node>,
    ) {
        let n = self.cells.len();
        if i >= n {
            return;
        }
        let written = {
            let mut p = pos.clone();
            self.read(&mut p, i).flatten()
        };
        let suspect = extra > 0.0;
        let base = |kind, mv, cost| Step {
            cell: i,
            kind,
            mv,
            cost,
        };
        let grow = |s: &mut Self, steps: &[Step], pos: Position, next: usize, cost: f32| {
            let mut child = Node {
                pos,
                next,
                cost: node.cost + cost,
                changes: node.changes.clone(),
            };
            child.changes.extend_from_slice(steps);
            s.advance(&mut child);
            child
        };
        // replaced
        let kind = if suspect {
            ChangeKind::Suspect
        } else if is_illegible(self.cells.get(i).copied().unwrap_or("")) {
            ChangeKind::Illegible
        } else {
            ChangeKind::Replaced
        };
        for (mv, cost) in self.replacements(pos, i) {
            // a cell that read is suspected of a close slip only
            if Some(mv) == written || (suspect && cost > REPLACE + SUSPECT_DISTANCE) {
                continue;
            }
            let mut p = pos.clone();
            p.play_unchecked(&mv);
            let cost = cost + extra;
            out.push(grow(self, &[base(kind, mv, cost)], p, i + 1, cost));
        }
        // a move left out before it
        for mv in pos.legal_moves() {
            let mut p = pos.clone();
            p.play_unchecked(&mv);
            if self.read(&mut p, i).is_some() {
                let cost = MISSING + extra / 2.0 + prior(pos, &mv, "");
                out.push(grow(
                    self,
                    &[base(ChangeKind::Missing, mv, cost)],
                    p,
                    i + 1,
                    cost,
                ));
            }
        }
        // swapped with the cell two plies later
        if i + 2 < n {
            let mut p = pos.clone();
            // the three moves in the order the swap plays them: a blunder among them
            // makes that order less likely (two swaps that reach the same position
            // differ by it: `Bg5 h6 cxd5 exd5` or `cxd5 exd5 Bg5 h6`)
            let mut lost = 0.0;
            let mut weigh = |p: &Position, m: Option<Option<Move>>| {
                if let Some(Some(mv)) = m {
                    lost += blunder(p, &mv);
                }
                m
            };
            let before_a = p.clone();
            if let Some(Some(a)) = weigh(&before_a, self.read(&mut p, i + 2))
                && {
                    let q = p.clone();
                    weigh(&q, self.read(&mut p, i + 1)).is_some()
                }
                && let Some(Some(b)) = {
                    let q = p.clone();
                    weigh(&q, self.read(&mut p, i))
                }
            {
                let half = (SWAP + lost) / 2.0;
                let steps = [
                    base(ChangeKind::Swapped, a, half),
                    Step {
                        cell: i + 2,
                        kind: ChangeKind::Swapped,
                        mv: b,
                        cost: half,
                    },
                ];
                out.push(grow(self, &steps, p, i + 3, SWAP + lost));
            }
        }
    }

    /// What the marks of cell `i`, read as `mv` into `after`, cost the reading that led
    /// there: a check mark where the move gives no check, a check not marked by a
    /// writer who marks checks, a capture mark on a move that takes nothing
    /// ([`MARK`] each). A cell's marks are the writer's own record of the position: a
    /// reading of an earlier slip under which they hold is likelier.
    fn marks_disagree(&self, i: usize, mv: Option<Move>, after: &Position) -> f32 {
        let Some(mv) = mv else { return 0.0 };
        let cell = self.cells.get(i).copied().unwrap_or("");
        let checked = check_marked(cell);
        let mut cost = 0.0;
        if checked != after.is_check() && (checked || self.marks_checks) {
            cost += MARK;
        }
        if capture_marked(cell) && !mv.is_capture() {
            cost += MARK;
        }
        cost
    }

    /// Scores every alternative of change `k` of `best` (the rest of the plan kept where
    /// it still applies): its candidates, confidence and whether to look at it.
    fn weigh(&mut self, best: &[Step], k: usize, budget: Budget) -> Change {
        let step = best[k];
        let n = self.cells.len();
        let (pos, last) = match self.before_last(step.cell, &best[..k]) {
            Some((pos, last)) => (Some(pos), last),
            None => (None, None),
        };
        let mut alternatives: Vec<(Move, f32)> = Vec::new();
        if let Some(pos) = &pos {
            match step.kind {
                ChangeKind::Missing => {
                    for mv in pos.legal_moves() {
                        alternatives.push((mv, MISSING + prior(pos, &mv, "")));
                    }
                }
                ChangeKind::Swapped => {}
                ChangeKind::Suspect => {
                    for (mv, cost) in self.replacements(pos, step.cell) {
                        alternatives.push((mv, cost + SUSPECT));
                    }
                }
                ChangeKind::Replaced | ChangeKind::Illegible => {
                    alternatives = self.replacements(pos, step.cell);
                }
            }
        }
        if !alternatives.iter().any(|(m, _)| *m == step.mv) {
            alternatives.push((step.mv, step.cost));
        }
        let later = &best[k + 1..];
        // the writing tells nothing of the move: the reply after it weighs it
        let blind = matches!(step.kind, ChangeKind::Missing | ChangeKind::Illegible);
        let mut scored: Vec<(Move, f32)> = Vec::with_capacity(alternatives.len());
        for (mv, cost) in alternatives {
            let Some(mut p) = pos.clone() else { break };
            let total = if self.reads > budget.reads && mv != step.mv {
                continue;
            } else {
                // the squares the piece could have gone to at once (a reading that
                // takes or gives check did something on the way: no detour)
                let direct: Vec<crate::chess::Square> = p
                    .legal_moves()
                    .into_iter()
                    .filter(|m| m.from() == mv.from() && m.role() == mv.role())
                    .map(|m| m.to())
                    .collect();
                p.play_unchecked(&mv);
                let direct = if mv.is_capture() || p.is_check() {
                    Vec::new()
                } else {
                    direct
                };
                let after_mv = blind.then(|| p.clone());
                // the piece moved on later by its side: the move fits the game, unless
                // the piece goes on to a square it could have gone to at once
                let mut moves_on = false;
                let mut detour = false;
                let mut first: Option<Move> = None;
                let mut ply = 0usize;
                let mut note = |m: Option<Move>, ply: &mut usize| {
                    *ply += 1;
                    if *ply == 1 {
                        first = m;
                    }
                    if let Some(m) = m
                        && (*ply).is_multiple_of(2)
                        && *ply <= MOVES_ON_PLIES
                        && m.from() == mv.to()
                        && m.role() == mv.role()
                    {
                        if !moves_on {
                            detour = direct.contains(&m.to());
                        }
                        moves_on = true;
                    }
                };
                let mut next = step.cell + 1;
                let mut missing_reply = None;
                if step.kind == ChangeKind::Missing {
                    match self.read(&mut p, step.cell) {
                        // the cell after a missing move must read
                        None => next = step.cell,
                        Some(m) => missing_reply = m,
                    }
                }
                let mut total = cost;
                // a recapture on the square the opponent just took on: the likeliest
                // of replies (a swap keeps its own moves)
                if step.kind != ChangeKind::Swapped
                    && mv.is_capture()
                    && last.is_some_and(|l| l.is_capture() && l.to() == mv.to())
                {
                    total -= RECAPTURE;
                }
                let mut kk = 0;
                if step.kind == ChangeKind::Swapped {
                    // the cell between and the second half, as planned
                    kk = 1;
                }
                let mut stuck = false;
                while next < n && !stuck {
                    let mut replaced = false;
                    while let Some(s) = later.get(kk).filter(|s| s.cell == next) {
                        kk += 1;
                        if p.legal_moves().contains(&s.mv) {
                            p.play_unchecked(&s.mv);
                            note(Some(s.mv), &mut ply);
                            total += s.cost;
                            replaced |= s.kind != ChangeKind::Missing;
                        } else if s.kind != ChangeKind::Missing {
                            stuck = true;
                        }
                    }
                    if stuck {
                        break;
                    }
                    if !replaced {
                        match self.read(&mut p, next) {
                            Some(m) => {
                                if ply < MARKS_PLIES {
                                    total += self.marks_disagree(next, m, &p);
                                }
                                note(m, &mut ply);
                            }
                            None => break,
                        }
                    }
                    next += 1;
                }
                if let Some(after_mv) = &after_mv {
                    let reply = if step.kind == ChangeKind::Missing {
                        missing_reply
                    } else {
                        first
                    };
                    total += reply_fit(after_mv, &mv, reply);
                }
                // changes skipped past the end of the reading count as not made
                total
                    + UNREAD * (n - next) as f32
                    + if detour {
                        DETOUR
                    } else if moves_on {
                        -MOVES_ON
                    } else {
                        0.0
                    }
            };
            scored.push((mv, total));
        }
        scored.sort_by(|a, b| a.1.total_cmp(&b.1));
        // the rescoring chooses: a reading that replays as far with a lower cost (the
        // piece moved on later) replaces the search's (`plan` plays the first)
        let best_total = scored.first().map_or(0.0, |s| s.1);
        let weight: f32 = scored
            .iter()
            .map(|(_, t)| (-(t - best_total).max(0.0) * SHARPNESS).exp())
            .sum();
        let second = scored.get(1).map(|s| s.1 - best_total);
        let mv = match scored.first() {
            // a swap's halves go together; a missing move's alternatives must let the
            // cell after it read (they do when they score as well)
            Some(&(m, _)) if step.kind != ChangeKind::Swapped => m,
            _ => step.mv,
        };
        Change {
            cell: step.cell,
            kind: step.kind,
            mv,
            candidates: scored.iter().take(3).map(|s| s.0).collect(),
            confidence: if weight > 0.0 { 1.0 / weight } else { 1.0 },
            review: second.is_some_and(|d| d < CLOSE),
        }
    }
}

/// How much search a plan may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Partial plans expanded at most.
    pub expansions: usize,
    /// Cells read at most (the search, then the weighing of alternatives).
    pub reads: usize,
    /// The search stops at the first complete plan it reaches (the cheapest by the
    /// search's estimate), rather than going on while a partial plan costs less.
    pub first_complete: bool,
    /// A sheet that reads to its last cell and fails there is planned: with no move
    /// after it to weigh a reading by, the plan adds nothing to the walk's own
    /// candidates for it but its cost (a game cut in its last move).
    pub last_cell: bool,
}

impl Budget {
    /// `convert --repair`: the whole search, the cheapest complete plan proven.
    pub const REPAIR: Budget = Budget {
        expansions: MAX_EXPANSIONS,
        reads: MAX_READS,
        first_complete: false,
        last_cell: true,
    };
    /// `check`: the whole search as for `convert --repair` (a third of it gave a worse
    /// plan on the page's three-slip sheet, `tests/browser`: `Mg3` assumed `Mc3` and two
    /// spurious slips after it); a sheet that fails only in its last cell is left to
    /// the walk's own candidates.
    pub const CHECK: Budget = Budget {
        expansions: MAX_EXPANSIONS,
        reads: MAX_READS,
        first_complete: false,
        last_cell: false,
    };
}

/// The most likely changes that make the chess `cells` replay from `start`, read in
/// `table`'s letters; a cell `?` or `??` is illegible. `None` when the cells replay as
/// written. The whole search ([`Budget::REPAIR`]).
pub fn plan(start: &Position, cells: &[&str], table: &'static PieceTable) -> Option<Plan> {
    plan_within(start, cells, table, Budget::REPAIR)
}

/// [`plan`] within `budget`; also `None` when only the last cell fails and the budget
/// leaves it to the walk ([`Budget::last_cell`]).
pub fn plan_within(
    start: &Position,
    cells: &[&str],
    table: &'static PieceTable,
    budget: Budget,
) -> Option<Plan> {
    plan_effort(start, cells, table, budget).0
}

/// What a plan's search took: its cost in work, not in time.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// Partial plans expanded (at most the budget's).
    pub expansions: usize,
    /// Cells read (the search, then the weighing of alternatives).
    pub reads: usize,
}

/// [`plan_within`], with what the search took.
pub fn plan_effort(
    start: &Position,
    cells: &[&str],
    table: &'static PieceTable,
    budget: Budget,
) -> (Option<Plan>, Effort) {
    let mut effort = Effort::default();
    let mut search = Search {
        start,
        cells,
        syntax: cells.iter().map(|c| parse(c, table).ok()).collect(),
        table,
        reads: 0,
        marks_checks: cells.iter().any(|c| check_marked(c)),
    };
    let n = cells.len();
    let mut root = Node {
        pos: start.clone(),
        next: 0,
        cost: 0.0,
        changes: Vec::new(),
    };
    search.advance(&mut root);
    // (an illegible last cell has no candidates of the walk's: it is planned)
    let last_illegible = cells.last().is_some_and(|c| is_illegible(c));
    if root.next == n || (!budget.last_cell && root.next + 1 == n && !last_illegible) {
        effort.reads = search.reads;
        return (None, effort);
    }
    let mut nodes = vec![root];
    let mut heap = BinaryHeap::new();
    heap.push(Queued(0, 0, 0, false));
    let mut seen: HashMap<(usize, u64), f32> = HashMap::new();
    let mut best_partial = 0usize;
    let mut done = None;
    let mut expansions = 0;
    let mut children = Vec::new();
    // the cheapest complete plan so far: the search goes on while a partial plan
    // costs less (costs only grow), within its budget
    let mut done_cost = f32::INFINITY;
    // a complete plan was found: `cheap` orders the partial plans by cost alone
    let mut proving = false;
    let mut cheap = BinaryHeap::new();
    let mut taken: std::collections::HashSet<(usize, bool)> = std::collections::HashSet::new();
    let mut turn = 0usize;
    loop {
        // once a complete plan is found, the cheapest partial plan and the one that
        // reads furthest take turns
        turn += 1;
        let popped = if proving && turn.is_multiple_of(2) {
            cheap.pop().or_else(|| heap.pop())
        } else {
            heap.pop().or_else(|| cheap.pop())
        };
        let Some(Queued(_, _, id, back)) = popped else {
            break;
        };
        if !taken.insert((id, back)) {
            continue;
        }
        let node = nodes[id].clone();
        let least = if back { LOOK_BACK_LEAST } else { 0.0 };
        if node.cost + least >= done_cost {
            continue;
        }
        children.clear();
        if back {
            // the look-back of a node expanded before: its changes cost at least
            // `LOOK_BACK_LEAST` more, so it waits until then (a plan found meanwhile
            // that costs less spares it)
            if search.reads > budget.reads {
                break;
            }
            search.expand_back(&node, &mut children);
        }
        if node.next == n {
            done = Some(id);
            done_cost = node.cost;
            if budget.first_complete {
                break;
            }
            if !proving {
                // from now on the cheapest partial plan takes every other turn: the
                // plan that reads furthest led here, and a cheaper one that reads
                // less far so far would wait behind every costlier one that reads
                // further
                proving = true;
                for &Queued(_, next, id, back) in heap.iter() {
                    let least = if back { LOOK_BACK_LEAST } else { 0.0 };
                    cheap.push(Queued(
                        ((nodes[id].cost + least) * 1000.0) as u32,
                        next,
                        id,
                        back,
                    ));
                }
            }
            continue;
        }
        let b = &nodes[best_partial];
        if (node.next, -node.cost) > (b.next, -b.cost) {
            best_partial = id;
        }
        if !back {
            if expansions >= budget.expansions || search.reads > budget.reads {
                break;
            }
            expansions += 1;
            search.expand(&node, &mut children);
            // the look-back waits as long as its cheapest change could (a child's
            // priority is at least its cost)
            let least = node.cost + LOOK_BACK_LEAST;
            heap.push(Queued((least * 1000.0) as u32, node.next, id, true));
            if proving {
                cheap.push(Queued((least * 1000.0) as u32, node.next, id, true));
            }
        }
        for child in children.drain(..) {
            if child.cost >= done_cost {
                continue;
            }
            let key = (child.next, child.pos.zobrist());
            match seen.get(&key) {
                Some(&c) if c <= child.cost => continue,
                _ => {
                    seen.insert(key, child.cost);
                }
            }
            let priority = (child.priority(n) * 1000.0) as u32;
            heap.push(Queued(priority, child.next, nodes.len(), false));
            if proving {
                cheap.push(Queued(
                    (child.cost * 1000.0) as u32,
                    child.next,
                    nodes.len(),
                    false,
                ));
            }
            nodes.push(child);
        }
    }
    effort.expansions = expansions;
    let complete = done.is_some();
    let mut chosen = nodes[done.unwrap_or(best_partial)].changes.clone();
    let mut changes = Vec::with_capacity(chosen.len());
    for k in 0..chosen.len() {
        let change = search.weigh(&chosen, k, budget);
        // the later changes are weighed after the one chosen here
        chosen[k].mv = change.mv;
        changes.push(change);
    }
    effort.reads = search.reads;
    (Some(Plan { changes, complete }), effort)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::chess::{SanStyle, english, write_san};

    fn sans(start: &Position, cells: &[&str], plan: &Plan) -> Vec<(usize, ChangeKind, String)> {
        let mut out = Vec::new();
        for c in &plan.changes {
            let mut pos = start.clone();
            // the position before the change: replay the cells as the plan says
            let mut k = 0;
            for (i, cell) in cells.iter().enumerate().take(c.cell) {
                let mut replaced = false;
                while let Some(s) = plan.changes.get(k).filter(|s| s.cell == i) {
                    pos.play_unchecked(&s.mv);
                    replaced |= s.kind != ChangeKind::Missing;
                    k += 1;
                }
                if !replaced {
                    crate::notation::chess::read_play(cell, english(), &mut pos).unwrap();
                }
            }
            while let Some(s) = plan
                .changes
                .get(k)
                .filter(|s| s.cell == c.cell && !std::ptr::eq(*s, c))
            {
                pos.play_unchecked(&s.mv);
                k += 1;
            }
            let mut s = String::new();
            write_san(&mut s, &pos, &c.mv, &SanStyle::pgn());
            out.push((c.cell, c.kind, s));
        }
        out
    }

    fn cells(text: &str) -> Vec<&str> {
        text.split_whitespace()
            .filter(|t| !t.ends_with('.'))
            .collect()
    }

    #[test]
    fn clean_cells_need_no_plan() {
        let c = cells("1. e4 e5 2. Nf3 Nc6");
        assert!(plan(&Position::default(), &c, english()).is_none());
    }

    /// Issue 27: `4. Nd2` is ambiguous; only `Nbd2` lets `5. Nh4` replay.
    #[test]
    fn ambiguity_settled_by_the_moves_after() {
        let c = cells("1. e4 e5 2. Nf3 Nc6 3. d3 Nf6 4. Nd2 Be7 5. Nh4 O-O");
        let start = Position::default();
        let p = plan(&start, &c, english()).unwrap();
        assert!(p.complete);
        let s = sans(&start, &c, &p);
        assert_eq!(s, [(6, ChangeKind::Replaced, "Nbd2".to_owned())]);
    }

    #[test]
    fn four_slips_one_plan() {
        // Bb6 for Bb5, an illegible cell, Nf3 mirrored by Black (Nf6), Ke1 for O-O
        let c = cells(
            "1. e4 e5 2. Nf3 Nc6 3. Bb6 a6 4. Ba4 ? 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7",
        );
        let start = Position::default();
        let p = plan(&start, &c, english()).unwrap();
        assert!(p.complete, "{p:?}");
        let s = sans(&start, &c, &p);
        assert_eq!(s[0], (4, ChangeKind::Replaced, "Bb5".to_owned()));
        assert_eq!(s[1].0, 7);
        assert_eq!(s[1].1, ChangeKind::Illegible);
    }

    #[test]
    fn a_move_left_out() {
        // 2... Nc6 left out: every later move in the other column
        let c = cells("1. e4 e5 2. Nf3 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5");
        let start = Position::default();
        let p = plan(&start, &c, english()).unwrap();
        assert!(p.complete);
        let s = sans(&start, &c, &p);
        assert_eq!(s, [(3, ChangeKind::Missing, "Nc6".to_owned())]);
    }

    #[test]
    fn two_moves_swapped() {
        // 3. Bb5 and 4. Ba4 written in each other's place
        let w = cells("1. e4 e5 2. Nf3 Nc6 3. Ba4 a6 4. Bb5 Nf6 5. O-O Be7 6. Re1 b5");
        let start = Position::default();
        let p = plan(&start, &w, english()).unwrap();
        assert!(p.complete, "{p:?}");
        let s = sans(&start, &w, &p);
        assert_eq!(
            s,
            [
                (4, ChangeKind::Swapped, "Bb5".to_owned()),
                (6, ChangeKind::Swapped, "Ba4".to_owned())
            ]
        );
    }
}
