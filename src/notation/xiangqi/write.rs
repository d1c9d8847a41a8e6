//! Writers: one canonical form per dialect (docs/notation/xiangqi.md, "Canonical forms").

use std::fmt::Write as _;

use crate::{
    color::Color,
    xiangqi::{Move, Piece, Position, Role, Square},
};

use super::{
    Dialect, Glyphs,
    resolve::{column, describe, file_no, tandem_columns},
    syntax::{Dir, Mark},
};

/// The canonical traditional description of `mv`: piece, origin, direction, target.
struct Described {
    piece: Piece,
    /// `None`: the plain file; `Some`: a tandem mark and, with tandem soldiers on
    /// several files, the file.
    tandem: Option<(Mark, Option<u8>)>,
    file: u8,
    dir: Dir,
    target: u8,
    /// How many like pieces stand on the origin file.
    n: usize,
}

fn described(pos: &Position, mv: Move) -> Option<Described> {
    let piece = pos.piece_at(mv.from)?;
    let (dir, target) = describe(piece, mv);
    let file = file_no(mv.from, piece.color);
    let col = column(pos, mv.from, piece);
    let n = col.len();
    let tandem = if n < 2 || matches!(piece.role, Role::Advisor | Role::Elephant) {
        None
    } else {
        let idx = col.iter().position(|s| *s == mv.from)?;
        let mark = match (n, idx) {
            (_, 0) if n <= 3 => Mark::Front,
            (3, 1) => Mark::Middle,
            (_, i) if n <= 3 && i + 1 == n => Mark::Rear,
            (_, i) => Mark::Index(u8::try_from(i + 1).ok()?),
        };
        let several = tandem_columns(pos, piece).len() >= 2;
        Some((mark, several.then_some(file)))
    };
    Some(Described {
        piece,
        tandem,
        file,
        dir,
        target,
        n,
    })
}

/// Writes `mv` (legal in `pos`) in `dialect`. A move whose origin is empty is written
/// in ICCS.
pub fn write(out: &mut String, pos: &Position, mv: Move, dialect: Dialect) {
    let Some(d) = described(pos, mv) else {
        out.push_str(&mv.iccs());
        return;
    };
    match dialect {
        Dialect::Iccs => out.push_str(&mv.iccs()),
        Dialect::Chinese(g) => chinese(out, &d, g),
        Dialect::Wxf => wxf(out, &d),
        Dialect::OldVietnamese => vietnamese(out, &d, ['.', '/', '-']),
        Dialect::Asian => vietnamese(out, &d, ['+', '.', '=']),
        Dialect::NewVietnamese => new_vietnamese(out, pos, mv, d.piece),
    }
}

/// Writes a line of moves from `start` in `dialect`, one string per move; stops at
/// the first move that is not legal, returning the moves written so far with it.
pub fn write_line(
    start: &Position,
    moves: &[Move],
    dialect: Dialect,
) -> Result<Vec<String>, (Vec<String>, crate::xiangqi::IllegalMove)> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        let mut s = String::new();
        write(&mut s, &pos, *mv, dialect);
        if let Err(e) = pos.play(*mv) {
            return Err((out, e));
        }
        out.push(s);
    }
    Ok(out)
}

fn cn_numeral(n: u8, color: Color) -> char {
    let (red, black) = ("一二三四五六七八九", "１２３４５６７８９");
    let set = match color {
        Color::White => red,
        Color::Black => black,
    };
    set.chars()
        .nth(usize::from(n).saturating_sub(1))
        .unwrap_or('?')
}

fn cn_piece(p: Piece, g: Glyphs) -> char {
    let i = p.role.index();
    let s = match (p.color, g) {
        (Color::White, Glyphs::Simplified) => "帅仕相马车炮兵",
        (Color::Black, Glyphs::Simplified) => "将士象马车炮卒",
        (Color::White, Glyphs::Traditional) => "帥仕相馬車炮兵",
        (Color::Black, Glyphs::Traditional) => "將士象馬車砲卒",
    };
    s.chars().nth(i).unwrap_or('?')
}

fn chinese(out: &mut String, d: &Described, g: Glyphs) {
    let c = d.piece.color;
    let dir = match (d.dir, g) {
        (Dir::Advance, Glyphs::Simplified) => '进',
        (Dir::Advance, Glyphs::Traditional) => '進',
        (Dir::Retreat, _) => '退',
        (Dir::Sideways, _) => '平',
    };
    match d.tandem {
        None => {
            out.push(cn_piece(d.piece, g));
            out.push(cn_numeral(d.file, c));
        }
        Some((mark, file)) => {
            out.push(match (mark, g) {
                (Mark::Front, _) => '前',
                (Mark::Middle, _) => '中',
                (Mark::Rear, Glyphs::Simplified) => '后',
                (Mark::Rear, Glyphs::Traditional) => '後',
                (Mark::Index(k), _) => "一二三四五"
                    .chars()
                    .nth(usize::from(k).saturating_sub(1))
                    .unwrap_or('?'),
                _ => '?',
            });
            out.push(cn_piece(d.piece, g));
            if let Some(f) = file {
                out.push(cn_numeral(f, c));
            }
        }
    }
    out.push(dir);
    out.push(cn_numeral(d.target, c));
}

fn wxf_letter(r: Role) -> char {
    match r {
        Role::General => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Chariot => 'R',
        Role::Cannon => 'C',
        Role::Soldier => 'P',
    }
}

fn wxf(out: &mut String, d: &Described) {
    let l = wxf_letter(d.piece.role);
    let n = d.n;
    match d.tandem {
        None => {
            let _ = write!(out, "{l}{}", d.file);
        }
        Some((mark, Some(f))) => {
            // soldiers tandem on two files: 3+ 33 3-
            let m = match mark {
                Mark::Front => '+',
                Mark::Rear => '-',
                _ => char::from(b'0' + f),
            };
            let _ = write!(out, "{f}{m}");
        }
        Some((mark, None)) => {
            let idx = match mark {
                Mark::Front => 0,
                Mark::Middle => 1,
                Mark::Rear => n - 1,
                Mark::Index(k) => usize::from(k) - 1,
                _ => 0,
            };
            if n >= 4 && idx == 0 {
                out.push_str("++");
            } else if n >= 4 && idx + 1 == n {
                out.push_str("--");
            } else if idx == usize::from(n >= 4) {
                let _ = write!(out, "{l}+");
            } else if idx + 1 + usize::from(n >= 4) == n {
                let _ = write!(out, "{l}-");
            } else {
                // the middle one of three or five keeps its file digit
                let _ = write!(out, "{l}{}", d.file);
            }
        }
    }
    out.push(match d.dir {
        Dir::Advance => '+',
        Dir::Retreat => '-',
        Dir::Sideways => '.',
    });
    let _ = write!(out, "{}", d.target);
}

fn vn_letter(r: Role) -> &'static str {
    match r {
        Role::General => "Tg",
        Role::Advisor => "S",
        Role::Elephant => "T",
        Role::Horse => "M",
        Role::Chariot => "X",
        Role::Cannon => "P",
        Role::Soldier => "B",
    }
}

/// Old Vietnamese and Asian: `[advance, retreat, sideways]` marks.
fn vietnamese(out: &mut String, d: &Described, marks: [char; 3]) {
    out.push_str(vn_letter(d.piece.role));
    match d.tandem {
        None => {
            let _ = write!(out, "{}", d.file);
        }
        Some((mark, file)) => {
            out.push(match mark {
                Mark::Front => 't',
                Mark::Middle => 'g',
                Mark::Rear => 's',
                Mark::Index(k) => char::from(b'a' + k.saturating_sub(1)),
                _ => '?',
            });
            if let Some(f) = file {
                let _ = write!(out, "{f}");
            }
        }
    }
    let [a, r, s] = marks;
    out.push(match d.dir {
        Dir::Advance => a,
        Dir::Retreat => r,
        Dir::Sideways => s,
    });
    let _ = write!(out, "{}", d.target);
}

fn nv_letter(r: Role) -> char {
    match r {
        Role::General => 'T',
        Role::Advisor => 'S',
        Role::Elephant => 'V',
        Role::Horse => 'M',
        Role::Chariot => 'X',
        Role::Cannon => 'P',
        Role::Soldier => 'B',
    }
}

fn new_vietnamese(out: &mut String, pos: &Position, mv: Move, piece: Piece) {
    out.push(nv_letter(piece.role));
    let others: Vec<Square> = Square::all()
        .filter(|s| *s != mv.from && pos.piece_at(*s) == Some(piece))
        .filter(|s| {
            pos.is_legal(Move {
                from: *s,
                to: mv.to,
            })
        })
        .collect();
    let file = char::from(b'a' + mv.from.file());
    let rank = char::from(b'0' + mv.from.rank());
    if !others.is_empty() {
        if others.iter().all(|s| s.file() != mv.from.file()) {
            out.push(file);
        } else if others.iter().all(|s| s.rank() != mv.from.rank()) {
            out.push(rank);
        } else {
            out.push(file);
            out.push(rank);
        }
    }
    let _ = write!(out, "{}", mv.to);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The writers use the `read+write` rows of grammars/xiangqi-pieces.tsv.
    #[test]
    fn writers_use_the_piece_table() {
        let tsv = include_str!("../../../grammars/xiangqi-pieces.tsv");
        let mut checked = 0;
        for line in tsv.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
            let cols: Vec<&str> = line.split('\t').collect();
            let [dialect, role, form, usage, _] = cols[..] else {
                panic!("bad row {line}");
            };
            if !usage.starts_with("read+write") || dialect == "chinese" {
                continue;
            }
            let role = Role::ALL
                .into_iter()
                .find(|r| r.to_string() == role)
                .unwrap();
            let written = match dialect {
                "vietnamese-old" | "asian" => vn_letter(role).to_string(),
                "vietnamese-new" => nv_letter(role).to_string(),
                "wxf" => wxf_letter(role).to_string(),
                _ => continue,
            };
            assert_eq!(written, form, "{line}");
            checked += 1;
        }
        assert_eq!(checked, 28);
        // Chinese: each written glyph is listed for its role
        for color in [Color::White, Color::Black] {
            for g in [Glyphs::Simplified, Glyphs::Traditional] {
                for role in Role::ALL {
                    let c = cn_piece(Piece { color, role }, g).to_string();
                    let row = format!("chinese\t{role}\t{c}\tread+write");
                    assert!(tsv.contains(&row), "{row}");
                }
            }
        }
    }
}
