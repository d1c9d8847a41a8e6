//! Matching a syntactic move against a position: geometry of the traditional
//! notations (files from the mover's right, steps, tandem order) and the legality
//! checks that decide omitted front/rear marks.

use crate::model::diag::Code;
use crate::{
    color::Color,
    model::diag::Diagnostic,
    xiangqi::{IllegalMove, IllegalReason, Move, Piece, Position, Role, Square},
};

use super::syntax::{Coord, Dir, Mark, Origin, Trad};

/// The file number 1..9 of `sq` counted from `color`'s own right.
pub fn file_no(sq: Square, color: Color) -> u8 {
    match color {
        Color::White => 9 - sq.file(),
        Color::Black => sq.file() + 1,
    }
}

/// The board file (0 = `a`) of file number `no` counted from `color`'s right.
pub fn board_file(no: u8, color: Color) -> Option<u8> {
    if !(1..=9).contains(&no) {
        return None;
    }
    Some(match color {
        Color::White => 9 - no,
        Color::Black => no - 1,
    })
}

fn forward(color: Color) -> i8 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// Does a straight move of this role count steps (chariot, cannon, soldier, general)?
pub fn counts_steps(role: Role) -> bool {
    matches!(
        role,
        Role::General | Role::Chariot | Role::Cannon | Role::Soldier
    )
}

/// The pieces like the one on `sq` standing on its file, front (nearest the opponent)
/// to back.
pub fn column(pos: &Position, sq: Square, piece: Piece) -> Vec<Square> {
    let mut v: Vec<Square> = (0..10u8)
        .filter_map(|r| Square::new(sq.file(), r))
        .filter(|s| pos.piece_at(*s) == Some(piece))
        .collect();
    v.sort_by_key(|s| s.rank());
    if piece.color == Color::White {
        v.reverse();
    }
    v
}

/// Every file holding two or more of `piece`, ordered by file number from the mover's
/// right, each front to back.
pub fn tandem_columns(pos: &Position, piece: Piece) -> Vec<Vec<Square>> {
    let mut cols: Vec<Vec<Square>> = (0..9u8)
        .filter_map(|f| Square::new(f, 0))
        .map(|s| column(pos, s, piece))
        .filter(|c| c.len() >= 2)
        .collect();
    cols.sort_by_key(|c| c.first().map_or(0, |s| file_no(*s, piece.color)));
    cols
}

/// The destination of `role` on `from` moving in `dir` to `target`, by geometry only.
pub fn destination(from: Square, role: Role, color: Color, dir: Dir, target: u8) -> Option<Square> {
    let fw = forward(color);
    let t = i8::try_from(target).ok()?;
    if counts_steps(role) {
        return match dir {
            Dir::Advance => from.offset(0, fw * t),
            Dir::Retreat => from.offset(0, -fw * t),
            Dir::Sideways => {
                let f = board_file(target, color)?;
                (f != from.file()).then_some(())?;
                Square::new(f, from.rank())
            }
        };
    }
    let f = board_file(target, color)?;
    let df = f as i8 - from.file() as i8;
    let dr = match (role, df.abs()) {
        (Role::Horse, 1) => 2,
        (Role::Horse, 2) => 1,
        (Role::Elephant, 2) => 2,
        (Role::Advisor, 1) => 1,
        _ => return None,
    };
    match dir {
        Dir::Advance => from.offset(df, fw * dr),
        Dir::Retreat => from.offset(df, -fw * dr),
        Dir::Sideways => None,
    }
}

/// The direction and target that describe `mv` for the piece on its origin.
pub fn describe(piece: Piece, mv: Move) -> (Dir, u8) {
    let dr = (mv.to.rank() as i8 - mv.from.rank() as i8) * forward(piece.color);
    let dir = match dr {
        0 => Dir::Sideways,
        d if d > 0 => Dir::Advance,
        _ => Dir::Retreat,
    };
    let target = if dir != Dir::Sideways && counts_steps(piece.role) {
        dr.unsigned_abs()
    } else {
        file_no(mv.to, piece.color)
    };
    (dir, target)
}

fn selects(mark: Mark, idx: usize, n: usize) -> bool {
    match mark {
        Mark::Front => n >= 2 && idx == 0,
        Mark::Rear => n >= 2 && idx + 1 == n,
        Mark::Middle => n >= 3 && n % 2 == 1 && idx == n / 2,
        Mark::Index(k) => n >= 2 && idx + 1 == k as usize,
        Mark::PlusPlus => n >= 4 && idx == 0,
        Mark::MinusMinus => n >= 4 && idx + 1 == n,
        Mark::Plus => n >= 2 && idx == usize::from(n >= 4),
        Mark::Minus => n >= 2 && idx + 1 + usize::from(n >= 4) == n,
    }
}

/// The pieces of the side to move that `origin` may designate.
fn origin_pieces(pos: &Position, piece: Piece, origin: Origin) -> Vec<Square> {
    let color = piece.color;
    let mine: Vec<Square> = Square::all()
        .filter(|s| pos.piece_at(*s) == Some(piece))
        .collect();
    match origin {
        Origin::File(f) => mine
            .into_iter()
            .filter(|s| file_no(*s, color) == f)
            .collect(),
        Origin::Tandem { mark, file } => {
            let cols = tandem_columns(pos, piece);
            if let (Mark::Index(k), None, true) = (mark, file, cols.len() >= 2) {
                // xqbase: soldiers tandem on several files are numbered right to left,
                // then front to back
                return cols
                    .iter()
                    .flatten()
                    .nth(usize::from(k).saturating_sub(1))
                    .copied()
                    .into_iter()
                    .collect();
            }
            cols.iter()
                .filter(|c| file.is_none_or(|f| c.first().is_some_and(|s| file_no(*s, color) == f)))
                .flat_map(|c| {
                    let n = c.len();
                    c.iter()
                        .enumerate()
                        .filter(move |(i, _)| selects(mark, *i, n))
                        .map(|(_, s)| *s)
                })
                .collect()
        }
    }
}

/// Why nothing matched, as an error.
pub enum Failure {
    /// No piece stands where the origin says.
    NoPiece(String),
    /// Pieces stand there, but none can make the move; the message says why.
    Illegal(String),
    /// Several legal moves fit.
    Ambiguous(Vec<Move>),
}

fn side(color: Color) -> &'static str {
    match color {
        Color::White => "red",
        Color::Black => "black",
    }
}

fn origin_text(origin: Origin) -> String {
    match origin {
        Origin::File(f) => format!("on file {f}"),
        Origin::Tandem { mark, file } => {
            let m = match mark {
                Mark::Front => "front".to_string(),
                Mark::Middle => "middle".to_string(),
                Mark::Rear => "rear".to_string(),
                Mark::Index(k) => format!("number {k} from the front"),
                Mark::PlusPlus => "front (++)".to_string(),
                Mark::Plus => "front (+)".to_string(),
                Mark::Minus => "rear (-)".to_string(),
                Mark::MinusMinus => "rear (--)".to_string(),
            };
            match file {
                Some(f) => format!("({m}) on file {f}"),
                None => format!("({m})"),
            }
        }
    }
}

/// Why the engine refused a move, in the words of the chess messages: `the red cannon
/// on e2 cannot move to e7`, `…: the red general would be in check`.
pub fn illegal_reason(pos: &Position, e: IllegalMove) -> String {
    let m = e.mv;
    let Some(p) = pos.piece_at(m.from) else {
        return format!("there is no piece on {}", m.from);
    };
    let color = side(p.color);
    let who = format!("the {color} {} on {}", p.role, m.from);
    match e.reason {
        IllegalReason::EmptyOrigin => format!("there is no piece on {}", m.from),
        IllegalReason::NotYourPiece => format!("{who} is the opponent's"),
        IllegalReason::CannotReach => format!("{who} cannot move to {}", m.to),
        IllegalReason::LeavesGeneralInCheck => format!(
            "{who} cannot move to {}: the {color} general would be in check",
            m.to
        ),
        IllegalReason::GeneralsFacing => format!(
            "{who} cannot move to {}: the generals would face each other",
            m.to
        ),
    }
}

/// [`illegal_reason`] in the words of the traditional notations (Chinese, WXF, the
/// Vietnamese marks), which name files counted from the mover's right and no board
/// coordinates: `the black cannon on file 9 cannot move there: a black soldier stands
/// there`, `…: the red general would be in check`.
pub fn illegal_reason_by_file(pos: &Position, e: IllegalMove) -> String {
    let m = e.mv;
    let Some(p) = pos.piece_at(m.from) else {
        return "there is no piece there".to_owned();
    };
    let color = side(p.color);
    let who = format!(
        "the {color} {} on file {}",
        p.role,
        file_no(m.from, p.color)
    );
    match e.reason {
        IllegalReason::EmptyOrigin => "there is no piece there".to_owned(),
        IllegalReason::NotYourPiece => format!(
            "the {color} {} on file {} is the opponent's",
            p.role,
            file_no(m.from, p.color.other())
        ),
        IllegalReason::CannotReach => match pos.piece_at(m.to) {
            Some(q) if q.color == p.color => {
                format!("{who} cannot move there: a {color} {} stands there", q.role)
            }
            _ => format!("{who} cannot move there"),
        },
        IllegalReason::LeavesGeneralInCheck => {
            format!("{who} cannot move there: the {color} general would be in check")
        }
        IllegalReason::GeneralsFacing => {
            format!("{who} cannot move there: the generals would face each other")
        }
    }
}

/// Resolves a traditional move. `wxf_middle`: a file digit on a file holding three or
/// five soldiers names the middle one (WXF `P3.4`). On success, the move and an
/// optional note (front/rear left out).
pub fn resolve_trad(
    t: &Trad,
    pos: &Position,
    wxf_middle: bool,
) -> Result<(Move, Option<Diagnostic>), Failure> {
    let color = pos.turn();
    let mut any_piece = false;
    let mut geometric: Vec<(Move, Role)> = Vec::new();
    for role in Role::ALL.into_iter().filter(|r| t.roles.contains(*r)) {
        let piece = Piece { color, role };
        for from in origin_pieces(pos, piece, t.origin) {
            any_piece = true;
            if let Some(to) = destination(from, role, color, t.dir, t.target) {
                geometric.push((Move { from, to }, role));
            }
        }
    }
    let legal: Vec<(Move, Role)> = geometric
        .iter()
        .copied()
        .filter(|(m, _)| pos.is_legal(*m))
        .collect();
    let chosen = match legal.as_slice() {
        [one] => *one,
        [] => {
            let roles: Vec<String> = Role::ALL
                .into_iter()
                .filter(|r| t.roles.contains(*r))
                .map(|r| r.to_string())
                .collect();
            let who = format!("{} {}", side(color), roles.join(" or "));
            if !any_piece {
                return Err(Failure::NoPiece(format!(
                    "expected a {who} {}, found none",
                    origin_text(t.origin)
                )));
            }
            return Err(Failure::Illegal(match geometric.first() {
                None => format!(
                    "the {who} {} cannot move that way (no such point)",
                    origin_text(t.origin)
                ),
                Some((m, _)) => match pos.check_move(*m) {
                    Err(e) => illegal_reason_by_file(pos, e),
                    Ok(()) => "that move is not legal".to_owned(),
                },
            }));
        }
        several => {
            let middle = several.iter().copied().find(|(m, role)| {
                let col = column(pos, m.from, Piece { color, role: *role });
                let n = col.len();
                wxf_middle
                    && *role == Role::Soldier
                    && matches!(t.origin, Origin::File(_))
                    && n % 2 == 1
                    && col.get(n / 2) == Some(&m.from)
            });
            match middle {
                Some(m) => m,
                None => {
                    return Err(Failure::Ambiguous(
                        several.iter().map(|(m, _)| *m).collect(),
                    ));
                }
            }
        }
    };
    let (mv, role) = chosen;
    let col = column(pos, mv.from, Piece { color, role });
    let wxf_mid = wxf_middle && col.len() % 2 == 1 && col.get(col.len() / 2) == Some(&mv.from);
    let note = (matches!(t.origin, Origin::File(_))
        && col.len() >= 2
        && !matches!(role, Role::Advisor | Role::Elephant)
        && !wxf_mid)
        .then(|| {
            let which = match col.iter().position(|s| *s == mv.from) {
                Some(0) => "front".to_string(),
                Some(i) if i + 1 == col.len() => "rear".to_string(),
                Some(i) => format!("number {} from the front", i + 1),
                None => "one".to_string(),
            };
            Diagnostic::note(
                Code::TandemMarkOmitted,
                format!(
                    "{} {}s stand on file {}; only the {which} one can make this move, so the front/rear mark was left out",
                    col.len(),
                    role,
                    file_no(mv.from, color),
                ),
            )
        });
    Ok((mv, note))
}

/// Resolves a new-Vietnamese coordinate move.
pub fn resolve_coord(c: &Coord, pos: &Position) -> Result<Move, Failure> {
    let color = pos.turn();
    let piece = Piece {
        color,
        role: c.role,
    };
    let froms: Vec<Square> = Square::all()
        .filter(|s| pos.piece_at(*s) == Some(piece))
        .filter(|s| c.from_file.is_none_or(|f| s.file() == f))
        .filter(|s| c.from_rank.is_none_or(|r| s.rank() == r))
        .collect();
    let legal: Vec<Move> = froms
        .iter()
        .map(|from| Move {
            from: *from,
            to: c.to,
        })
        .filter(|m| pos.is_legal(*m))
        .collect();
    match legal.as_slice() {
        [one] => Ok(*one),
        [] if froms.is_empty() => Err(Failure::NoPiece(format!(
            "expected a {} {} to move to {}, found none",
            side(color),
            c.role,
            c.to
        ))),
        [] => Err(Failure::Illegal(
            // the piece nearest the point, whose reason says most
            froms
                .iter()
                .min_by_key(|f| f.file().abs_diff(c.to.file()) + f.rank().abs_diff(c.to.rank()))
                .and_then(|from| {
                    pos.check_move(Move {
                        from: *from,
                        to: c.to,
                    })
                    .err()
                })
                .map_or_else(
                    || format!("no {} {} can move to {}", side(color), c.role, c.to),
                    |e| illegal_reason(pos, e),
                ),
        )),
        several => Err(Failure::Ambiguous(several.to_vec())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_from_each_side() {
        let h2 = Square::parse_iccs("h2").unwrap();
        assert_eq!(file_no(h2, Color::White), 2);
        assert_eq!(file_no(h2, Color::Black), 8);
        assert_eq!(board_file(2, Color::White), Some(7));
        assert_eq!(board_file(2, Color::Black), Some(1));
        assert_eq!(board_file(0, Color::Black), None);
    }

    #[test]
    fn marks_by_count() {
        // (mark, n, the index it selects)
        let cases = [
            (Mark::Front, 2, Some(0)),
            (Mark::Rear, 2, Some(1)),
            (Mark::Middle, 2, None),
            (Mark::Middle, 3, Some(1)),
            (Mark::Plus, 3, Some(0)),
            (Mark::Plus, 4, Some(1)),
            (Mark::Minus, 4, Some(2)),
            (Mark::Minus, 5, Some(3)),
            (Mark::PlusPlus, 3, None),
            (Mark::MinusMinus, 5, Some(4)),
            (Mark::Index(4), 5, Some(3)),
        ];
        for (mark, n, want) in cases {
            let got = (0..n).find(|i| selects(mark, *i, n));
            assert_eq!(got, want, "{mark:?} of {n}");
        }
    }

    #[test]
    fn geometry() {
        let sq = |s| Square::parse_iccs(s).unwrap();
        let cases = [
            (
                "h2",
                Role::Cannon,
                Color::White,
                Dir::Sideways,
                5,
                Some("e2"),
            ),
            ("h0", Role::Horse, Color::White, Dir::Advance, 3, Some("g2")),
            ("b9", Role::Horse, Color::Black, Dir::Advance, 3, Some("c7")),
            (
                "c0",
                Role::Elephant,
                Color::White,
                Dir::Advance,
                5,
                Some("e2"),
            ),
            ("c0", Role::Elephant, Color::White, Dir::Advance, 6, None),
            (
                "a0",
                Role::Chariot,
                Color::White,
                Dir::Advance,
                9,
                Some("a9"),
            ),
            (
                "a9",
                Role::Chariot,
                Color::Black,
                Dir::Advance,
                1,
                Some("a8"),
            ),
            ("e1", Role::Chariot, Color::White, Dir::Sideways, 5, None),
        ];
        for (from, role, color, dir, target, want) in cases {
            assert_eq!(
                destination(sq(from), role, color, dir, target),
                want.map(sq),
                "{from} {role} {dir:?} {target}"
            );
        }
    }
}
