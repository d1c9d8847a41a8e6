//! The grammars: one nom function per production, each turning text into a syntactic
//! move that [`super::resolve`] matches against a position.
//!
//! Every reader works on text already folded by [`fold`] (full-width ASCII to ASCII,
//! ideographic space to space).

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::tag,
    character::complete::{char, one_of, satisfy},
    combinator::{all_consuming, eof, map, opt, value},
    multi::many0,
    sequence::preceded,
};

use crate::xiangqi::{Move, Role, Square};

/// The direction of a traditional move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Toward the opponent: 进, tiến `.` (old Vietnamese), `+` (WXF, Asian).
    Advance,
    /// Back toward one's own side: 退, thoái `/`, `-` (WXF), `.` (Asian).
    Retreat,
    /// Along the rank: 平, bình `-`, `.`/`=` (WXF), `=` (Asian).
    Sideways,
}

/// Which of several identical pieces on one file moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// 前, `t` (trước), WXF `+` when at most three stand on the file.
    Front,
    /// 中, `g` (giữa): the middle one of three.
    Middle,
    /// 后/後, `s` (sau), WXF `-` when at most three stand on the file.
    Rear,
    /// 一..五 (Chinese) or `a`..`e` (kyphu's old-Vietnamese extension): the n-th from the
    /// front, 1-based.
    Index(u8),
    /// WXF `++`: the front one of four or five.
    PlusPlus,
    /// WXF `P+`: the front one of two or three, the second of four or five.
    Plus,
    /// WXF `P-`: the rear one of two or three, the fourth of five (third of four).
    Minus,
    /// WXF `--`: the rear one of four or five.
    MinusMinus,
}

/// Where the moving piece stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// Its file, 1..9 from the mover's own right.
    File(u8),
    /// A tandem mark, with the file when pieces stand tandem on several files.
    Tandem { mark: Mark, file: Option<u8> },
}

/// A set of roles: a letter or word may name more than one (`tuong` without diacritics
/// is both Tướng and Tượng; WXF `G` is general or guard).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Roles(u8);

impl Roles {
    pub const fn one(r: Role) -> Roles {
        Roles(1 << r as u8)
    }
    pub const fn two(a: Role, b: Role) -> Roles {
        Roles((1 << a as u8) | (1 << b as u8))
    }
    pub const fn contains(self, r: Role) -> bool {
        self.0 & (1 << r as u8) != 0
    }
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

/// The three marks of a Vietnamese-letter dialect: advance, retreat, sideways.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    pub advance: char,
    pub retreat: char,
    pub sideways: char,
}

/// Old Vietnamese marks (Art. 11.2): `.` advance, `/` retreat, `-` sideways.
pub const VIETNAM: Marks = Marks {
    advance: '.',
    retreat: '/',
    sideways: '-',
};

/// Asian / world-event marks per the same article: `+` advance, `.` retreat, `=` sideways.
pub const ASIAN: Marks = Marks {
    advance: '+',
    retreat: '.',
    sideways: '=',
};

/// Full-width ASCII (U+FF01..U+FF5E) to ASCII, U+3000 to a space; everything else kept.
pub fn fold(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            _ => c,
        })
        .collect()
}

type Res<'a, T> = IResult<&'a str, T>;

fn digit(i: &str) -> Res<'_, u8> {
    map(one_of("123456789"), |c| c as u8 - b'0').parse(i)
}

// ---------------------------------------------------------------- Chinese

/// A Chinese numeral 一..九, or a digit (ASCII after folding) — the side is not
/// inferred from the digit style.
fn cn_number(i: &str) -> Res<'_, u8> {
    alt((
        digit,
        map(one_of("一二三四五六七八九"), |c| {
            "一二三四五六七八九"
                .chars()
                .position(|d| d == c)
                .map_or(0, |p| p as u8 + 1)
        }),
    ))
    .parse(i)
}

/// A piece character, simplified, traditional or variant, of either side.
fn cn_piece(i: &str) -> Res<'_, Role> {
    map(satisfy(|c| cn_role(c).is_some()), |c| {
        cn_role(c).unwrap_or(Role::Soldier)
    })
    .parse(i)
}

pub(crate) fn cn_role(c: char) -> Option<Role> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => Role::General,
        '仕' | '士' => Role::Advisor,
        '相' | '象' => Role::Elephant,
        '马' | '馬' | '傌' | '䭾' => Role::Horse,
        '车' | '車' | '俥' | '伡' => Role::Chariot,
        '炮' | '砲' | '包' => Role::Cannon,
        '兵' | '卒' => Role::Soldier,
        _ => return None,
    })
}

/// 进/進/上 advance, 退/下 retreat, 平 sideways.
fn cn_dir(i: &str) -> Res<'_, Dir> {
    alt((
        value(Dir::Advance, one_of("进進上")),
        value(Dir::Retreat, one_of("退下")),
        value(Dir::Sideways, char('平')),
    ))
    .parse(i)
}

/// 前 中 后/後, or 一..五 counted from the front.
fn cn_mark(i: &str) -> Res<'_, Mark> {
    alt((
        value(Mark::Front, char('前')),
        value(Mark::Middle, char('中')),
        value(Mark::Rear, one_of("后後")),
        map(one_of("一二三四五"), |c| {
            Mark::Index(
                "一二三四五"
                    .chars()
                    .position(|d| d == c)
                    .map_or(1, |p| p as u8 + 1),
            )
        }),
    ))
    .parse(i)
}

/// `炮二平五`: piece, file, direction, target.
fn cn_plain(i: &str) -> Res<'_, Trad> {
    map(
        (cn_piece, cn_number, cn_dir, cn_number),
        |(role, file, dir, target)| Trad {
            roles: Roles::one(role),
            origin: Origin::File(file),
            dir,
            target,
        },
    )
    .parse(i)
}

/// `前炮退二`, `前兵九平八`: mark, piece, optional file, direction, target.
fn cn_tandem(i: &str) -> Res<'_, Trad> {
    map(
        (cn_mark, cn_piece, opt(cn_number), cn_dir, cn_number),
        |(mark, role, file, dir, target)| Trad {
            roles: Roles::one(role),
            origin: Origin::Tandem { mark, file },
            dir,
            target,
        },
    )
    .parse(i)
}

/// `前九平八`, `二7平6`: a soldier's mark and file with the piece name left out.
fn cn_tandem_bare(i: &str) -> Res<'_, Trad> {
    map(
        (cn_mark, cn_number, cn_dir, cn_number),
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

/// One Chinese move.
pub fn cn_move(i: &str) -> Res<'_, Trad> {
    alt((cn_plain, cn_tandem, cn_tandem_bare)).parse(i)
}

/// One or more Chinese moves written together (`炮二平五马８进７`), spaces allowed between.
pub fn cn_moves(i: &str) -> Res<'_, Vec<Trad>> {
    let sep = many0(one_of(" \t"));
    all_consuming(map(
        (cn_move, many0(preceded(sep, cn_move))),
        |(first, mut rest)| {
            rest.insert(0, first);
            rest
        },
    ))
    .parse(i)
}

// ---------------------------------------------------------------- WXF

/// A WXF letter (either case): K A E H R C P, and the aliases found in the wild:
/// N horse, B M elephant, S soldier, G general or guard.
fn wxf_piece(i: &str) -> Res<'_, Roles> {
    map(satisfy(|c| wxf_roles(c).is_some()), |c| {
        wxf_roles(c).unwrap_or(Roles::one(Role::Soldier))
    })
    .parse(i)
}

fn wxf_roles(c: char) -> Option<Roles> {
    Some(match c.to_ascii_uppercase() {
        'K' => Roles::one(Role::General),
        'G' => Roles::two(Role::General, Role::Advisor),
        'A' => Roles::one(Role::Advisor),
        'E' | 'B' | 'M' => Roles::one(Role::Elephant),
        'H' | 'N' => Roles::one(Role::Horse),
        'R' => Roles::one(Role::Chariot),
        'C' => Roles::one(Role::Cannon),
        'P' | 'S' => Roles::one(Role::Soldier),
        _ => return None,
    })
}

/// `+` advance, `-` retreat, `.` or `=` sideways.
fn wxf_op(i: &str) -> Res<'_, Dir> {
    alt((
        value(Dir::Advance, char('+')),
        value(Dir::Retreat, char('-')),
        value(Dir::Sideways, one_of(".=")),
    ))
    .parse(i)
}

fn wxf_sign(i: &str) -> Res<'_, Mark> {
    alt((value(Mark::Plus, char('+')), value(Mark::Minus, char('-')))).parse(i)
}

/// `C2.5`: letter, file, operator, target.
fn wxf_plain(i: &str) -> Res<'_, Trad> {
    map(
        (wxf_piece, digit, wxf_op, digit),
        |(roles, f, dir, target)| Trad {
            roles,
            origin: Origin::File(f),
            dir,
            target,
        },
    )
    .parse(i)
}

/// `R+.3`, `C--1`: letter, tandem sign, operator, target.
fn wxf_tandem(i: &str) -> Res<'_, Trad> {
    map(
        (wxf_piece, wxf_sign, wxf_op, digit),
        |(roles, mark, dir, target)| Trad {
            roles,
            origin: Origin::Tandem { mark, file: None },
            dir,
            target,
        },
    )
    .parse(i)
}

/// `Pb.5`: xqbase's multi-soldier letters `a`..`e` (一兵..五兵) after the letter.
fn wxf_lettered(i: &str) -> Res<'_, Trad> {
    map(
        (wxf_piece, one_of("abcde"), wxf_op, digit),
        |(roles, c, dir, target)| Trad {
            roles,
            origin: Origin::Tandem {
                mark: Mark::Index(c as u8 - b'a' + 1),
                file: None,
            },
            dir,
            target,
        },
    )
    .parse(i)
}

/// `+P+1`, `-R.4`: the sign before the letter (wukong xqdb, some web sites).
fn wxf_prefix(i: &str) -> Res<'_, Trad> {
    map(
        (wxf_sign, wxf_piece, wxf_op, digit),
        |(mark, roles, dir, target)| Trad {
            roles,
            origin: Origin::Tandem { mark, file: None },
            dir,
            target,
        },
    )
    .parse(i)
}

/// `++.4`, `--.4`: front and rear soldier of four or five on one file.
fn wxf_double(i: &str) -> Res<'_, Trad> {
    map(
        (
            alt((
                value(Mark::PlusPlus, tag("++")),
                value(Mark::MinusMinus, tag("--")),
            )),
            wxf_op,
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

/// `3+.4`, `33.4`, `3-.4`: soldiers tandem on two files, file first, then the sign (or
/// the file again for the middle one of three).
fn wxf_two_files(i: &str) -> Res<'_, Trad> {
    let (rest, file) = digit(i)?;
    let (rest, mark) =
        alt((wxf_sign, value(Mark::Middle, char((b'0' + file) as char)))).parse(rest)?;
    let (rest, (dir, target)) = (wxf_op, digit).parse(rest)?;
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

/// One WXF move.
pub fn wxf_move(i: &str) -> Res<'_, Trad> {
    all_consuming(alt((
        wxf_plain,
        wxf_tandem,
        wxf_lettered,
        wxf_prefix,
        wxf_double,
        wxf_two_files,
    )))
    .parse(i)
}

// ---------------------------------------------------------------- Vietnamese (old)

/// `Tg` general, `T` elephant, `S` advisor, `X` chariot, `P` cannon, `M` horse, `B` or
/// `C` soldier (either case).
fn vn_piece(i: &str) -> Res<'_, Role> {
    alt((
        value(Role::General, alt((tag("Tg"), tag("TG"), tag("tg")))),
        map(satisfy(|c| vn_role(c).is_some()), |c| {
            vn_role(c).unwrap_or(Role::Soldier)
        }),
    ))
    .parse(i)
}

fn vn_role(c: char) -> Option<Role> {
    Some(match c.to_ascii_uppercase() {
        'T' => Role::Elephant,
        'S' => Role::Advisor,
        'X' => Role::Chariot,
        'P' => Role::Cannon,
        'M' => Role::Horse,
        'B' | 'C' => Role::Soldier,
        _ => return None,
    })
}

/// `t` front, `g` middle, `s` rear; `a`..`e` the n-th from the front (kyphu extension
/// for four or five soldiers on one file).
fn vn_mark(i: &str) -> Res<'_, Mark> {
    alt((
        value(Mark::Front, one_of("tT")),
        value(Mark::Middle, one_of("gG")),
        value(Mark::Rear, one_of("sS")),
        map(one_of("abcde"), |c| Mark::Index(c as u8 - b'a' + 1)),
    ))
    .parse(i)
}

fn vn_op(marks: Marks) -> impl Fn(&str) -> Res<'_, Dir> {
    move |i| {
        alt((
            value(Dir::Advance, char(marks.advance)),
            value(Dir::Retreat, char(marks.retreat)),
            value(Dir::Sideways, char(marks.sideways)),
        ))
        .parse(i)
    }
}

/// `P2-5`: letter, file, mark, target.
fn vn_plain(marks: Marks) -> impl Fn(&str) -> Res<'_, Trad> {
    move |i| {
        map(
            (vn_piece, digit, vn_op(marks), digit),
            |(role, f, dir, target)| Trad {
                roles: Roles::one(role),
                origin: Origin::File(f),
                dir,
                target,
            },
        )
        .parse(i)
    }
}

/// `Pt/1`, `Bg.1`, `Bt7.1`: letter, tandem mark, optional file, mark, target.
fn vn_tandem(marks: Marks) -> impl Fn(&str) -> Res<'_, Trad> {
    move |i| {
        map(
            (vn_piece, vn_mark, opt(digit), vn_op(marks), digit),
            |(role, mark, file, dir, target)| Trad {
                roles: Roles::one(role),
                origin: Origin::Tandem { mark, file },
                dir,
                target,
            },
        )
        .parse(i)
    }
}

/// One old-Vietnamese or Asian move in marks.
pub fn vn_move(marks: Marks) -> impl Fn(&str) -> Res<'_, Trad> {
    move |i| all_consuming(alt((vn_plain(marks), vn_tandem(marks)))).parse(i)
}

// ---------------------------------------------------------------- Vietnamese words

/// Vietnamese words folded by [`vn_fold`]: lowercase, no diacritics, no spaces.
/// `phao2binh5`, `ma2tien3`, `xesaubinh2`, `binhgiuabinh6`.
fn vw_piece(i: &str) -> Res<'_, Roles> {
    alt((
        value(Roles::one(Role::General), tag("tuong@")),
        value(Roles::one(Role::Elephant), tag("tuong#")),
        value(Roles::two(Role::General, Role::Elephant), tag("tuong")),
        value(Roles::one(Role::General), tag("soai")),
        value(Roles::one(Role::Advisor), tag("si")),
        value(Roles::one(Role::Elephant), tag("voi")),
        value(Roles::one(Role::Chariot), tag("xe")),
        value(Roles::one(Role::Cannon), tag("phao")),
        value(Roles::one(Role::Horse), tag("ma")),
        value(Roles::one(Role::Soldier), alt((tag("tot"), tag("binh")))),
    ))
    .parse(i)
}

fn vw_dir(i: &str) -> Res<'_, Dir> {
    alt((
        value(Dir::Advance, alt((tag("tien"), tag("tan")))),
        value(Dir::Retreat, alt((tag("thoai"), tag("lui")))),
        value(Dir::Sideways, tag("binh")),
    ))
    .parse(i)
}

fn vw_origin(i: &str) -> Res<'_, Origin> {
    alt((
        map(digit, Origin::File),
        map(
            alt((
                value(Mark::Front, tag("truoc")),
                value(Mark::Rear, tag("sau")),
                value(Mark::Middle, tag("giua")),
            )),
            |mark| Origin::Tandem { mark, file: None },
        ),
    ))
    .parse(i)
}

/// `Pháo2 bình 5`, `Mã 2 tiến 3`, `Xe sau bình 2` (after [`vn_fold`]).
pub fn vw_move(i: &str) -> Res<'_, Trad> {
    all_consuming(map(
        (vw_piece, vw_origin, vw_dir, digit, eof),
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

/// `T` general, `S` advisor, `V` elephant, `X` chariot, `P` cannon, `M` horse, `B`
/// soldier (upper case: lower-case `b` is a file).
fn nv_piece(i: &str) -> Res<'_, Role> {
    alt((
        value(Role::General, char('T')),
        value(Role::Advisor, char('S')),
        value(Role::Elephant, char('V')),
        value(Role::Chariot, char('X')),
        value(Role::Cannon, char('P')),
        value(Role::Horse, char('M')),
        value(Role::Soldier, char('B')),
    ))
    .parse(i)
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
pub fn nv_move(i: &str) -> Res<'_, Coord> {
    let sep = || opt(one_of("x:-"));
    let check = || opt(one_of("+#"));
    all_consuming(alt((
        map(
            (nv_piece, nv_square, sep(), nv_square, check()),
            |(role, from, _, to, _)| Coord {
                role,
                from_file: Some(from.file()),
                from_rank: Some(from.rank()),
                to,
            },
        ),
        map(
            (nv_piece, nv_file, sep(), nv_square, check()),
            |(role, f, _, to, _)| Coord {
                role,
                from_file: Some(f),
                from_rank: None,
                to,
            },
        ),
        map(
            (nv_piece, nv_rank, sep(), nv_square, check()),
            |(role, r, _, to, _)| Coord {
                role,
                from_file: None,
                from_rank: Some(r),
                to,
            },
        ),
        map((nv_piece, sep(), nv_square, check()), |(role, _, to, _)| {
            Coord {
                role,
                from_file: None,
                from_rank: None,
                to,
            }
        }),
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
            assert_eq!(cn_moves(&f).map(|(_, v)| v), Ok(vec![want]), "{s}");
        }
        assert_eq!(
            cn_moves(&fold("炮二平五马８进７")).map(|(_, v)| v.len()),
            Ok(2)
        );
        assert!(cn_moves("炮二平").is_err());
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
        ];
        for (s, want) in cases {
            assert_eq!(wxf_move(s).map(|(_, v)| v), Ok(want), "{s}");
        }
        for bad in ["C2", "X2.5", "C2.55", "34.4"] {
            assert!(wxf_move(bad).is_err(), "{bad}");
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
            assert_eq!(vn_move(marks)(s).map(|(_, v)| v), Ok(want), "{s}");
        }
        assert!(vn_move(VIETNAM)("P2=5").is_err());
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
            assert_eq!(vw_move(&f).map(|(_, v)| v), Ok(want), "{s}");
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
            assert_eq!(nv_move(s).map(|(_, v)| v), Ok(want), "{s}");
        }
        assert!(nv_move("Pj2").is_err());
        assert_eq!(
            iccs_move("H2-E2").map(|(_, m)| m.iccs()),
            Ok("h2e2".to_string())
        );
        assert!(iccs_move("h2e").is_err());
    }

    fn role_named(name: &str) -> Role {
        Role::ALL
            .into_iter()
            .find(|r| r.to_string() == name)
            .unwrap()
    }

    /// Every row of grammars/xiangqi-pieces.tsv reads as its role(s) in its dialect.
    #[test]
    fn piece_table_matches_the_grammar() {
        let tsv = include_str!("../../../grammars/xiangqi-pieces.tsv");
        let mut rows = 0;
        for line in tsv.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
            let cols: Vec<&str> = line.split('\t').collect();
            let [dialect, roles, form, _use, _source] = cols[..] else {
                panic!("bad row {line}");
            };
            let want: Vec<Role> = roles.split('|').map(role_named).collect();
            let got: Vec<Role> = match dialect {
                "vietnamese-old" | "asian" => {
                    let (rest, r) = vn_piece(form).unwrap();
                    assert_eq!(rest, "", "{line}");
                    vec![r]
                }
                "vietnamese-new" => vec![all_consuming(nv_piece).parse(form).unwrap().1],
                "chinese" => vec![all_consuming(cn_piece).parse(form).unwrap().1],
                "wxf" => {
                    let r = all_consuming(wxf_piece).parse(form).unwrap().1;
                    Role::ALL.into_iter().filter(|x| r.contains(*x)).collect()
                }
                "vietnamese-old-words" => {
                    let f = vn_fold(form);
                    let r = all_consuming(vw_piece).parse(&f).unwrap().1;
                    Role::ALL.into_iter().filter(|x| r.contains(*x)).collect()
                }
                other => panic!("unknown dialect {other}"),
            };
            assert_eq!(got, want, "{line}");
            rows += 1;
        }
        assert!(rows > 60, "{rows}");
    }
}
