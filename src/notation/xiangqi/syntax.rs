//! The grammars: one nom function per production, each turning text into a syntactic
//! move that [`super::resolve`] matches against a position.
//!
//! Every reader works on text already folded by [`fold`], the fold chess tokens get too
//! (full-width ASCII to ASCII, ideographic space to space, dash look-alikes to `-`).

use nom::{
    IResult, Parser,
    branch::alt,
    character::complete::{char, one_of},
    combinator::{all_consuming, eof, map, opt},
    multi::many0,
    sequence::preceded,
};

pub use crate::notation::lexicon::xiangqi::{Dir, Mark, Roles};
use crate::xiangqi::{Move, Role, Square};

use super::grammar::{Grammar, Terminals};

/// Where the moving piece stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// Its file, 1..9 from the mover's own right.
    File(u8),
    /// A tandem mark, with the file when pieces stand tandem on several files.
    Tandem { mark: Mark, file: Option<u8> },
}

/// A move in the traditional form: piece, origin, direction, target.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Trad {
    pub roles: Roles,
    pub origin: Origin,
    pub dir: Dir,
    /// Steps for a straight move of a chariot, cannon, soldier or general; a file
    /// (1..9 from the mover's right) otherwise.
    pub target: u8,
}

/// A move in the new Vietnamese coordinate notation: `Phe2`, `Xc8`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    pub role: Role,
    pub from_file: Option<u8>,
    pub from_rank: Option<u8>,
    pub to: Square,
}

/// The one fold of move tokens both games share ([`crate::text::fold::move_token`]):
/// full-width ASCII to ASCII, U+3000 and other spaces to a space, dash look-alikes to
/// `-`; CJK and Vietnamese letters kept.
pub use crate::text::fold::move_token as fold;

type Res<'a, T> = IResult<&'a str, T>;

fn fail<T>(i: &str) -> Res<'_, T> {
    Err(nom::Err::Error(nom::error::Error::new(
        i,
        nom::error::ErrorKind::Tag,
    )))
}

/// The terminal of `t` the input begins with (longest form first).
fn term<'g, T: Copy>(t: &'g Terminals<T>) -> impl Fn(&str) -> Res<'_, T> + 'g {
    move |i| match t.prefix(i) {
        Some((rest, v)) => Ok((rest, v)),
        None => fail(i),
    }
}

/// [`term`] among the forms whose meaning `keep` accepts.
fn term_where<'g, T: Copy + 'g>(
    t: &'g Terminals<T>,
    keep: impl Fn(T) -> bool + Copy + 'g,
) -> impl Fn(&str) -> Res<'_, T> + 'g {
    move |i| match t.prefix_where(i, keep) {
        Some((rest, v)) => Ok((rest, v)),
        None => fail(i),
    }
}

fn digit(i: &str) -> Res<'_, u8> {
    map(one_of("123456789"), |c| c as u8 - b'0').parse(i)
}

// ---------------------------------------------------------------- Chinese

/// A number: a digit (ASCII after folding) or a number word of the lexicon (一..九) —
/// the side is not inferred from the digit style.
fn cn_number(g: &Grammar) -> impl Fn(&str) -> Res<'_, u8> + Copy + '_ {
    move |i| alt((digit, term(&g.numbers))).parse(i)
}

/// The plain form of every traditional notation: piece, file, direction, target —
/// `炮二平五` (numbers as digits or words), `C2.5` (WXF), `P2-5` (old Vietnamese).
fn plain<'g, N>(g: &'g Grammar, number: N) -> impl Fn(&str) -> Res<'_, Trad> + 'g
where
    N: for<'a> Fn(&'a str) -> Res<'a, u8> + Copy + 'g,
{
    move |i| {
        map(
            (term(&g.pieces), number, term(&g.dirs), number),
            |(roles, file, dir, target)| Trad {
                roles,
                origin: Origin::File(file),
                dir,
                target,
            },
        )
        .parse(i)
    }
}

/// `前炮退二`, `前兵九平八`: mark, piece, optional file, direction, target.
fn cn_tandem(g: &Grammar) -> impl Fn(&str) -> Res<'_, Trad> + '_ {
    move |i| {
        map(
            (
                term(&g.tandem),
                term(&g.pieces),
                opt(cn_number(g)),
                term(&g.dirs),
                cn_number(g),
            ),
            |(mark, roles, file, dir, target)| Trad {
                roles,
                origin: Origin::Tandem { mark, file },
                dir,
                target,
            },
        )
        .parse(i)
    }
}

/// `前九平八`, `二7平6`: a soldier's mark and file with the piece name left out.
fn cn_tandem_bare(g: &Grammar) -> impl Fn(&str) -> Res<'_, Trad> + '_ {
    move |i| {
        map(
            (term(&g.tandem), cn_number(g), term(&g.dirs), cn_number(g)),
            |(mark, file, dir, target)| Trad {
                roles: Roles::one(Role::Soldier),
                origin: Origin::Tandem {
                    mark,
                    file: Some(file),
                },
                dir,
                target,
            },
        )
        .parse(i)
    }
}

/// One Chinese move.
pub fn cn_move<'a>(g: &Grammar, i: &'a str) -> Res<'a, Trad> {
    alt((plain(g, cn_number(g)), cn_tandem(g), cn_tandem_bare(g))).parse(i)
}

/// One or more Chinese moves written together (`炮二平五马８进７`), spaces allowed between.
pub fn cn_moves<'a>(g: &Grammar, i: &'a str) -> Res<'a, Vec<Trad>> {
    let sep = many0(one_of(" \t"));
    let one = |i| cn_move(g, i);
    all_consuming(map(
        (one, many0(preceded(sep, one))),
        |(first, mut rest)| {
            rest.insert(0, first);
            rest
        },
    ))
    .parse(i)
}

// ---------------------------------------------------------------- WXF

/// The one-character tandem signs `+` and `-` (not `++`, `--`).
fn wxf_sign(g: &Grammar) -> impl Fn(&str) -> Res<'_, Mark> + '_ {
    move |i| {
        let c = i.chars().next();
        match c.and_then(|c| g.tandem.char(c)) {
            Some(m @ (Mark::Plus | Mark::Minus)) => {
                Ok((i.get(c.map_or(0, char::len_utf8)..).unwrap_or(""), m))
            }
            _ => fail(i),
        }
    }
}

/// `R+.3`, `C--1`: letter, tandem sign, operator, target.
fn wxf_tandem(g: &Grammar) -> impl Fn(&str) -> Res<'_, Trad> + '_ {
    move |i| {
        map(
            (term(&g.pieces), wxf_sign(g), term(&g.dirs), digit),
            |(roles, mark, dir, target)| Trad {
                roles,
                origin: Origin::Tandem { mark, file: None },
                dir,
                target,
            },
        )
        .parse(i)
    }
}

/// `Pb.5`: xqbase's multi-soldier letters `a`..`e` (一兵..五兵) after the letter.
fn wxf_lettered(g: &Grammar) -> impl Fn(&str) -> Res<'_, Trad> + '_ {
    move |i| {
        map(
            (
                term(&g.pieces),
                term_where(&g.tandem, |m| matches!(m, Mark::Index(_))),
                term(&g.dirs),
                digit,
            ),
            |(roles, mark, dir, target)| Trad {
                roles,
                origin: Origin::Tandem { mark, file: None },
                dir,
                target,
            },
        )
        .parse(i)
    }
}

/// `+P+1`, `-R.4`: the sign before the letter (wukong xqdb, some web sites).
fn wxf_prefix(g: &Grammar) -> impl Fn(&str) -> Res<'_, Trad> + '_ {
    move |i| {
        map(
            (wxf_sign(g), term(&g.pieces), term(&g.dirs), digit),
            |(mark, roles, dir, target)| Trad {
                roles,
                origin: Origin::Tandem { mark, file: None },
                dir,
                target,
            },
        )
        .parse(i)
    }
}

/// `++.4`, `--.4`: front and rear soldier of four or five on one file.
fn wxf_double(g: &Grammar) -> impl Fn(&str) -> Res<'_, Trad> + '_ {
    move |i| {
        map(
            (
                term_where(&g.tandem, |m| {
                    matches!(m, Mark::PlusPlus | Mark::MinusMinus)
                }),
                term(&g.dirs),
                digit,
            ),
            |(mark, dir, target)| Trad {
                roles: Roles::one(Role::Soldier),
                origin: Origin::Tandem { mark, file: None },
                dir,
                target,
            },
        )
        .parse(i)
    }
}

/// `3+.4`, `33.4`, `3-.4`: soldiers tandem on two files, file first, then the sign (or
/// the file again for the middle one of three).
fn wxf_two_files<'a>(g: &Grammar, i: &'a str) -> Res<'a, Trad> {
    let (rest, file) = digit(i)?;
    let middle = |i| map(char((b'0' + file) as char), |_| Mark::Middle).parse(i);
    let (rest, mark) = alt((wxf_sign(g), middle)).parse(rest)?;
    let (rest, (dir, target)) = (term(&g.dirs), digit).parse(rest)?;
    Ok((
        rest,
        Trad {
            roles: Roles::one(Role::Soldier),
            origin: Origin::Tandem {
                mark,
                file: Some(file),
            },
            dir,
            target,
        },
    ))
}

/// `17+1`, `28=9`: Fairy-Stockfish's soldier of three or more on one file, its place
/// from the front (1 = the front one) in place of the letter, then the file.
fn wxf_indexed<'a>(g: &Grammar, i: &'a str) -> Res<'a, Trad> {
    let (rest, index) = digit(i)?;
    let (rest, file) = digit(rest)?;
    if !(1..=5).contains(&index) {
        return fail(i);
    }
    let (rest, (dir, target)) = (term(&g.dirs), digit).parse(rest)?;
    Ok((
        rest,
        Trad {
            roles: Roles::one(Role::Soldier),
            origin: Origin::Tandem {
                mark: Mark::Index(index),
                file: Some(file),
            },
            dir,
            target,
        },
    ))
}

/// One WXF move.
pub fn wxf_move<'a>(g: &Grammar, i: &'a str) -> Res<'a, Trad> {
    all_consuming(alt((
        plain(g, digit),
        wxf_tandem(g),
        wxf_lettered(g),
        wxf_prefix(g),
        wxf_double(g),
        |i| wxf_two_files(g, i),
        |i| wxf_indexed(g, i),
    )))
    .parse(i)
}

// ---------------------------------------------------------------- Vietnamese (old)

/// `Pt/1`, `Bg.1`, `Bt7.1`: letter, tandem mark, optional file, mark, target.
fn vn_tandem(g: &Grammar) -> impl Fn(&str) -> Res<'_, Trad> + '_ {
    move |i| {
        map(
            (
                term(&g.pieces),
                term(&g.tandem),
                opt(digit),
                term(&g.dirs),
                digit,
            ),
            |(roles, mark, file, dir, target)| Trad {
                roles,
                origin: Origin::Tandem { mark, file },
                dir,
                target,
            },
        )
        .parse(i)
    }
}

/// One old-Vietnamese or Asian move in marks (the grammar's letters and marks).
pub fn vn_move<'a>(g: &Grammar, i: &'a str) -> Res<'a, Trad> {
    all_consuming(alt((plain(g, digit), vn_tandem(g)))).parse(i)
}

// ---------------------------------------------------------------- Vietnamese words

fn vw_origin(g: &Grammar) -> impl Fn(&str) -> Res<'_, Origin> + '_ {
    move |i| {
        alt((
            map(digit, Origin::File),
            map(term(&g.word_marks), |mark| Origin::Tandem {
                mark,
                file: None,
            }),
        ))
        .parse(i)
    }
}

/// `Pháo2 bình 5`, `Mã 2 tiến 3`, `Xe sau bình 2` (after [`vn_fold`]): the words of the
/// grammar's word set.
pub fn vw_move<'a>(g: &Grammar, i: &'a str) -> Res<'a, Trad> {
    all_consuming(map(
        (term(&g.words), vw_origin(g), term(&g.word_dirs), digit, eof),
        |(roles, origin, dir, target, _)| Trad {
            roles,
            origin,
            dir,
            target,
        },
    ))
    .parse(i)
}

/// Lowercases, drops spaces and Vietnamese diacritics; `tướng` (general) becomes
/// `tuong@` and `tượng` (elephant) `tuong#` so the diacritic still tells them apart.
pub fn vn_fold(s: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let lower = s.nfc().collect::<String>().to_lowercase();
    let lower = lower.replace("tướng", "tuong@").replace("tượng", "tuong#");
    lower
        .nfd()
        .filter(|c| !('\u{0300}'..='\u{036F}').contains(c) && !c.is_whitespace())
        .map(|c| if c == 'đ' { 'd' } else { c })
        .collect()
}

// ---------------------------------------------------------------- new Vietnamese

/// A letter of the grammar naming one role (upper case only in the new notation:
/// lower-case `b` is a file).
fn nv_piece(g: &Grammar) -> impl Fn(&str) -> Res<'_, Role> + '_ {
    move |i| {
        let (rest, roles) = term(&g.pieces)(i)?;
        match Role::ALL.into_iter().find(|r| roles.contains(*r)) {
            Some(r) => Ok((rest, r)),
            None => fail(i),
        }
    }
}

fn nv_file(i: &str) -> Res<'_, u8> {
    map(one_of("abcdefghi"), |c| c as u8 - b'a').parse(i)
}

fn nv_rank(i: &str) -> Res<'_, u8> {
    map(one_of("0123456789"), |c| c as u8 - b'0').parse(i)
}

fn nv_square(i: &str) -> Res<'_, Square> {
    let (rest, (f, r)) = (nv_file, nv_rank).parse(i)?;
    match Square::new(f, r) {
        Some(sq) => Ok((rest, sq)),
        None => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        ))),
    }
}

/// `Phe2`, `Mg7`, `Xc8`, `Pb0e2`: piece, optional origin file and/or rank, optional
/// `x` or `-`, destination, optional `+`/`#`.
pub fn nv_move<'a>(g: &Grammar, i: &'a str) -> Res<'a, Coord> {
    let sep = || opt(one_of("x:-"));
    let check = || opt(one_of("+#"));
    all_consuming(alt((
        map(
            (nv_piece(g), nv_square, sep(), nv_square, check()),
            |(role, from, _, to, _)| Coord {
                role,
                from_file: Some(from.file()),
                from_rank: Some(from.rank()),
                to,
            },
        ),
        map(
            (nv_piece(g), nv_file, sep(), nv_square, check()),
            |(role, f, _, to, _)| Coord {
                role,
                from_file: Some(f),
                from_rank: None,
                to,
            },
        ),
        map(
            (nv_piece(g), nv_rank, sep(), nv_square, check()),
            |(role, r, _, to, _)| Coord {
                role,
                from_file: None,
                from_rank: Some(r),
                to,
            },
        ),
        map(
            (nv_piece(g), sep(), nv_square, check()),
            |(role, _, to, _)| Coord {
                role,
                from_file: None,
                from_rank: None,
                to,
            },
        ),
    )))
    .parse(i)
}

// ---------------------------------------------------------------- ICCS

/// `h2e2`, `H2-E2`.
pub fn iccs_move(i: &str) -> Res<'_, Move> {
    let sq = |i| {
        let (rest, (f, r)) = (
            map(one_of("abcdefghiABCDEFGHI"), |c: char| {
                c.to_ascii_lowercase() as u8 - b'a'
            }),
            nv_rank,
        )
            .parse(i)?;
        match Square::new(f, r) {
            Some(s) => Ok((rest, s)),
            None => Err(nom::Err::Error(nom::error::Error::new(
                i,
                nom::error::ErrorKind::Verify,
            ))),
        }
    };
    all_consuming(map((sq, opt(char('-')), sq), |(from, _, to)| Move {
        from,
        to,
    }))
    .parse(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::xiangqi::{Dialect, Glyphs};

    fn gr(d: Dialect) -> &'static Grammar {
        Grammar::of(d)
    }
    const VIETNAM: Dialect = Dialect::OldVietnamese;
    const ASIAN: Dialect = Dialect::Asian;
    const CN: Dialect = Dialect::Chinese(Glyphs::Simplified);

    fn t(roles: Roles, origin: Origin, dir: Dir, target: u8) -> Trad {
        Trad {
            roles,
            origin,
            dir,
            target,
        }
    }
    const C: Roles = Roles::one(Role::Cannon);
    const P: Roles = Roles::one(Role::Soldier);
    const R: Roles = Roles::one(Role::Chariot);
    const H: Roles = Roles::one(Role::Horse);

    #[test]
    fn chinese() {
        let cases = [
            ("炮二平五", t(C, Origin::File(2), Dir::Sideways, 5)),
            ("馬8進7", t(H, Origin::File(8), Dir::Advance, 7)),
            ("砲八退一", t(C, Origin::File(8), Dir::Retreat, 1)),
            (
                "後車平4",
                t(
                    R,
                    Origin::Tandem {
                        mark: Mark::Rear,
                        file: None,
                    },
                    Dir::Sideways,
                    4,
                ),
            ),
            (
                "前兵九平八",
                t(
                    P,
                    Origin::Tandem {
                        mark: Mark::Front,
                        file: Some(9),
                    },
                    Dir::Sideways,
                    8,
                ),
            ),
            (
                "二7平6",
                t(
                    P,
                    Origin::Tandem {
                        mark: Mark::Index(2),
                        file: Some(7),
                    },
                    Dir::Sideways,
                    6,
                ),
            ),
        ];
        for (s, want) in cases {
            let f = fold(s);
            assert_eq!(cn_moves(gr(CN), &f).map(|(_, v)| v), Ok(vec![want]), "{s}");
        }
        assert_eq!(
            cn_moves(gr(CN), &fold("炮二平五马８进７")).map(|(_, v)| v.len()),
            Ok(2)
        );
        assert!(cn_moves(gr(CN), "炮二平").is_err());
    }

    #[test]
    fn wxf() {
        let tand = |mark, file| Origin::Tandem { mark, file };
        let cases = [
            ("C2.5", t(C, Origin::File(2), Dir::Sideways, 5)),
            ("c2=5", t(C, Origin::File(2), Dir::Sideways, 5)),
            ("R+.3", t(R, tand(Mark::Plus, None), Dir::Sideways, 3)),
            ("C--1", t(C, tand(Mark::Minus, None), Dir::Retreat, 1)),
            ("+P+1", t(P, tand(Mark::Plus, None), Dir::Advance, 1)),
            ("++.4", t(P, tand(Mark::PlusPlus, None), Dir::Sideways, 4)),
            ("3+.4", t(P, tand(Mark::Plus, Some(3)), Dir::Sideways, 4)),
            ("33.4", t(P, tand(Mark::Middle, Some(3)), Dir::Sideways, 4)),
            ("Pb.5", t(P, tand(Mark::Index(2), None), Dir::Sideways, 5)),
            // Fairy-Stockfish: the soldier's place from the front, then its file
            (
                "34.4",
                t(P, tand(Mark::Index(3), Some(4)), Dir::Sideways, 4),
            ),
            ("17+1", t(P, tand(Mark::Index(1), Some(7)), Dir::Advance, 1)),
        ];
        for (s, want) in cases {
            assert_eq!(
                wxf_move(gr(Dialect::Wxf), s).map(|(_, v)| v),
                Ok(want),
                "{s}"
            );
        }
        for bad in ["C2", "X2.5", "C2.55", "64.4"] {
            assert!(wxf_move(gr(Dialect::Wxf), bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn vietnamese() {
        let tand = |mark, file| Origin::Tandem { mark, file };
        let g = Roles::one(Role::General);
        let cases = [
            ("P2-5", VIETNAM, t(C, Origin::File(2), Dir::Sideways, 5)),
            ("M2.3", VIETNAM, t(H, Origin::File(2), Dir::Advance, 3)),
            ("Tg6.1", VIETNAM, t(g, Origin::File(6), Dir::Advance, 1)),
            (
                "Pt/1",
                VIETNAM,
                t(C, tand(Mark::Front, None), Dir::Retreat, 1),
            ),
            (
                "Bg.1",
                VIETNAM,
                t(P, tand(Mark::Middle, None), Dir::Advance, 1),
            ),
            (
                "Xs.2",
                VIETNAM,
                t(R, tand(Mark::Rear, None), Dir::Advance, 2),
            ),
            (
                "Bt7-6",
                VIETNAM,
                t(P, tand(Mark::Front, Some(7)), Dir::Sideways, 6),
            ),
            ("M2.3", ASIAN, t(H, Origin::File(2), Dir::Retreat, 3)),
            ("P2=5", ASIAN, t(C, Origin::File(2), Dir::Sideways, 5)),
        ];
        for (s, marks, want) in cases {
            assert_eq!(vn_move(gr(marks), s).map(|(_, v)| v), Ok(want), "{s}");
        }
        assert!(vn_move(gr(VIETNAM), "P2=5").is_err());
    }

    #[test]
    fn vietnamese_words() {
        let cases = [
            ("Pháo2 bình 5", t(C, Origin::File(2), Dir::Sideways, 5)),
            ("Mã 2 tiến 3", t(H, Origin::File(2), Dir::Advance, 3)),
            ("Ma 8 tan 7", t(H, Origin::File(8), Dir::Advance, 7)),
            (
                "Xe sau bình 2",
                t(
                    R,
                    Origin::Tandem {
                        mark: Mark::Rear,
                        file: None,
                    },
                    Dir::Sideways,
                    2,
                ),
            ),
            (
                "Binh giữa bình 6",
                t(
                    P,
                    Origin::Tandem {
                        mark: Mark::Middle,
                        file: None,
                    },
                    Dir::Sideways,
                    6,
                ),
            ),
            (
                "Tướng 5 tiến 1",
                t(Roles::one(Role::General), Origin::File(5), Dir::Advance, 1),
            ),
            (
                "Tượng 3 tiến 5",
                t(Roles::one(Role::Elephant), Origin::File(3), Dir::Advance, 5),
            ),
            (
                "tuong 3 tien 5",
                t(
                    Roles::two(Role::General, Role::Elephant),
                    Origin::File(3),
                    Dir::Advance,
                    5,
                ),
            ),
        ];
        for (s, want) in cases {
            let f = vn_fold(s);
            assert_eq!(vw_move(gr(VIETNAM), &f).map(|(_, v)| v), Ok(want), "{s}");
        }
    }

    #[test]
    fn new_vietnamese_and_iccs() {
        let sq = |s| Square::parse_iccs(s).unwrap();
        let c = |role, from_file, from_rank, to| Coord {
            role,
            from_file,
            from_rank,
            to,
        };
        let cases = [
            ("Phe2", c(Role::Cannon, Some(7), None, sq("e2"))),
            ("Mg7", c(Role::Horse, None, None, sq("g7"))),
            ("X0a1", c(Role::Chariot, None, Some(0), sq("a1"))),
            ("Bb4xb5", c(Role::Soldier, Some(1), Some(4), sq("b5"))),
        ];
        for (s, want) in cases {
            assert_eq!(
                nv_move(gr(Dialect::NewVietnamese), s).map(|(_, v)| v),
                Ok(want),
                "{s}"
            );
        }
        assert!(nv_move(gr(Dialect::NewVietnamese), "Pj2").is_err());
        assert_eq!(
            iccs_move("H2-E2").map(|(_, m)| m.iccs()),
            Ok("h2e2".to_string())
        );
        assert!(iccs_move("h2e").is_err());
    }

    /// Every row of grammars/xiangqi-pieces.tsv reads as its role(s) in a dialect
    /// using its set, and every letter a dialect reads is a row of its set.
    #[test]
    fn piece_table_matches_the_grammar() {
        use crate::notation::lexicon::xiangqi::lexicon;
        let mut rows = 0;
        for r in &lexicon().pieces {
            let (d, form) = match &*r.set {
                "vietnamese-old" => (VIETNAM, r.form.to_string()),
                "vietnamese-old-words" => (VIETNAM, vn_fold(&r.form)),
                "vietnamese-new" => (Dialect::NewVietnamese, r.form.to_string()),
                "wxf" => (Dialect::Wxf, r.form.to_string()),
                "chinese" => (CN, r.form.to_string()),
                other => panic!("unknown set {other}"),
            };
            let g = gr(d);
            let t = if &*r.set == "vietnamese-old-words" {
                &g.words
            } else {
                &g.pieces
            };
            assert_eq!(t.prefix(&form), Some(("", r.value)), "{r:?}");
            rows += 1;
        }
        assert!(rows > 55, "{rows}");
        // the Asian dialect reads the letters of Art. 11.2
        assert_eq!(
            gr(ASIAN).pieces.forms().collect::<Vec<_>>(),
            gr(VIETNAM).pieces.forms().collect::<Vec<_>>()
        );
    }
}
