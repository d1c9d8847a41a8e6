//! Writers: one canonical form per dialect (docs/notation/xiangqi.md, "Canonical forms").

use std::fmt::Write as _;

use crate::{
    color::Color,
    xiangqi::{Move, Piece, Position, Role, Square},
};

use super::{
    Dialect,
    grammar::Grammar,
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
    write_in(out, pos, mv, &d, Grammar::of(dialect));
}

/// Writes the described move in the shape of `g`'s dialect with `g`'s forms.
fn write_in(out: &mut String, pos: &Position, mv: Move, d: &Described, g: &Grammar) {
    match g.dialect {
        Dialect::Iccs => out.push_str(&mv.iccs()),
        Dialect::Chinese(_) => chinese(out, d, g),
        Dialect::Wxf => wxf(out, d, g),
        Dialect::OldVietnamese | Dialect::Asian => vietnamese(out, d, g),
        Dialect::NewVietnamese => new_vietnamese(out, pos, mv, d.piece, g),
    }
}

/// Writes `mv` (legal in `pos`) with the forms of grammar `g` (for a lexicon with
/// extra rows, [`Grammar::new`]).
pub fn write_with(out: &mut String, pos: &Position, mv: Move, g: &Grammar) {
    match described(pos, mv) {
        Some(d) => write_in(out, pos, mv, &d, g),
        None => out.push_str(&mv.iccs()),
    }
}

fn letter(g: &Grammar, p: Piece) -> &str {
    let side = usize::from(p.color == Color::Black);
    &g.written.pieces[side][p.role.index()]
}

fn dir_form(g: &Grammar, d: Dir) -> &str {
    &g.written.dirs[match d {
        Dir::Advance => 0,
        Dir::Retreat => 1,
        Dir::Sideways => 2,
    }]
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

fn cn_number(out: &mut String, g: &Grammar, n: u8, color: Color) {
    out.push_str(g.written.number(n, color).unwrap_or("?"));
}

fn chinese(out: &mut String, d: &Described, g: &Grammar) {
    let c = d.piece.color;
    match d.tandem {
        None => {
            out.push_str(letter(g, d.piece));
            cn_number(out, g, d.file, c);
        }
        Some((mark, file)) => {
            out.push_str(g.written.tandem(mark));
            out.push_str(letter(g, d.piece));
            if let Some(f) = file {
                cn_number(out, g, f, c);
            }
        }
    }
    out.push_str(dir_form(g, d.dir));
    cn_number(out, g, d.target, c);
}

fn wxf(out: &mut String, d: &Described, g: &Grammar) {
    let l = letter(g, d.piece);
    let n = d.n;
    match d.tandem {
        None => {
            let _ = write!(out, "{l}{}", d.file);
        }
        Some((mark, Some(f))) => {
            // soldiers tandem on two files: 3+ 33 3-
            let _ = write!(out, "{f}");
            match mark {
                Mark::Front => out.push_str(g.written.tandem(Mark::Plus)),
                Mark::Rear => out.push_str(g.written.tandem(Mark::Minus)),
                _ => out.push(char::from(b'0' + f)),
            }
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
                out.push_str(g.written.tandem(Mark::PlusPlus));
            } else if n >= 4 && idx + 1 == n {
                out.push_str(g.written.tandem(Mark::MinusMinus));
            } else if idx == usize::from(n >= 4) {
                out.push_str(l);
                out.push_str(g.written.tandem(Mark::Plus));
            } else if idx + 1 + usize::from(n >= 4) == n {
                out.push_str(l);
                out.push_str(g.written.tandem(Mark::Minus));
            } else {
                // the middle one of three or five keeps its file digit
                let _ = write!(out, "{l}{}", d.file);
            }
        }
    }
    out.push_str(dir_form(g, d.dir));
    let _ = write!(out, "{}", d.target);
}

/// Old Vietnamese and Asian: the letters and tandem marks of Art. 11.2, the dialect's
/// direction marks.
fn vietnamese(out: &mut String, d: &Described, g: &Grammar) {
    out.push_str(letter(g, d.piece));
    match d.tandem {
        None => {
            let _ = write!(out, "{}", d.file);
        }
        Some((mark, file)) => {
            out.push_str(g.written.tandem(mark));
            if let Some(f) = file {
                let _ = write!(out, "{f}");
            }
        }
    }
    out.push_str(dir_form(g, d.dir));
    let _ = write!(out, "{}", d.target);
}

fn new_vietnamese(out: &mut String, pos: &Position, mv: Move, piece: Piece, g: &Grammar) {
    out.push_str(letter(g, piece));
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
    use crate::notation::lexicon::xiangqi::lexicon;
    use crate::notation::xiangqi::Glyphs;

    /// Every letter a writer emits is a `write` row of its dialect's letter set, and
    /// every role has one.
    #[test]
    fn writers_use_the_piece_table() {
        let sets = [
            (Dialect::Chinese(Glyphs::Simplified), "chinese"),
            (Dialect::Chinese(Glyphs::Traditional), "chinese"),
            (Dialect::Wxf, "wxf"),
            (Dialect::OldVietnamese, "vietnamese-old"),
            (Dialect::Asian, "vietnamese-old"),
            (Dialect::NewVietnamese, "vietnamese-new"),
        ];
        for (d, set) in sets {
            let g = Grammar::of(d);
            for color in [Color::White, Color::Black] {
                for role in Role::ALL {
                    let l = letter(g, Piece { color, role });
                    assert!(
                        lexicon()
                            .pieces_of(set)
                            .any(|r| &*r.form == l && r.value.contains(role) && r.write.is_some()),
                        "{d} {color:?} {role}: {l}"
                    );
                }
            }
        }
        let g = Grammar::of(Dialect::Chinese(Glyphs::Traditional));
        let black = |role| {
            letter(
                g,
                Piece {
                    color: Color::Black,
                    role,
                },
            )
            .to_string()
        };
        assert_eq!(black(Role::Cannon), "砲");
        assert_eq!(black(Role::General), "將");
        let g = Grammar::of(Dialect::Chinese(Glyphs::Simplified));
        let red = |role| {
            letter(
                g,
                Piece {
                    color: Color::White,
                    role,
                },
            )
            .to_string()
        };
        assert_eq!(red(Role::Cannon), "炮");
        assert_eq!(red(Role::Horse), "马");
    }
}
