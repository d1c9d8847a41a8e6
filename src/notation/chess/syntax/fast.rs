//! The fast paths of the SAN syntax ([`super::parse_ok`], [`super::parse_into`],
//! [`super::common_shape`]): clean ASCII SAN, and moves with one piece letter of any
//! script, read by hand from the bytes under a table of single letters. Each gives,
//! for every token it reads, what the nom grammar of [`super`] gives; the tests beside
//! them compare the two on every short token over a move alphabet, on random text and
//! under every table.

use super::*;

/// The fast path: `L?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?[+#]?`, `O-O(-O)?[+#]?` and
/// `0-0(-0)?[+#]?`, where `L` is a table letter in its table case (any script); the
/// rest plain ASCII. `None` sends the token to the full grammar, which gives the same
/// result for every token this accepts. Inlined: for trying many tables on one token
/// ([`parse_ok`]), where the move stays in registers.
#[inline(always)]
pub fn fast(token: &str, table: &PieceTable) -> Option<SanSyntax> {
    let mut san = SanSyntax::blank();
    fast_read(token, table, &mut san).then_some(san)
}

/// [`fast_read`] out of line, for [`parse_into`]: the move is written in the caller's
/// memory, and the function keeps few values live.
#[inline(never)]
pub(super) fn fast_into(token: &str, table: &PieceTable, san: &mut SanSyntax) -> bool {
    fast_read(token, table, san)
}

/// The first step of [`parse_into`] on a token's bytes alone, for a caller that holds
/// the bytes and not yet the text (the replay slices a move's `&str`, checking its
/// character boundaries, only when it needs it): `true` when the token starts and
/// ends with an ASCII byte and is one of the common shapes ([`common`]), read into
/// `san` ([`SanSyntax::blank`] on entry) as [`parse_into`] reads it (whose fast path
/// takes the same step first, [`fast_read`]); `false` leaves the token to
/// [`parse_into`], with `san` made blank again. (A slice of a `&str` that starts and
/// ends with an ASCII byte starts and ends on character boundaries: the same text.)
#[inline(never)]
pub(crate) fn common_into(token: &[u8], table: &PieceTable, san: &mut SanSyntax) -> bool {
    token.first().is_some_and(u8::is_ascii)
        && token.last().is_some_and(u8::is_ascii)
        && table.fast_path_ok()
        && common(token, table, san) == Verdict::Read
}

/// [`fast`], writing the move into `san`, which is [`SanSyntax::blank`] on entry (and
/// anything on `false`): the common shapes ([`common`]) write only the fields they set.
#[inline(always)]
fn fast_read(token: &str, table: &PieceTable, san: &mut SanSyntax) -> bool {
    if !table.fast_path_ok() {
        return false;
    }
    // a letter in another script first: none of the ASCII common shapes
    if token.as_bytes().first().is_some_and(|&c| c >= 0x80) {
        return fast_lettered(token, table, san);
    }
    let general = match common(token.as_bytes(), table, san) {
        Verdict::Read => return true,
        Verdict::Invalid => return false,
        Verdict::Other => fast_general(token, table),
    };
    match general {
        Some(read) => {
            *san = read;
            true
        }
        None => false,
    }
}

/// [`fast_read`] for a token that starts outside ASCII: [`common_lettered`], then
/// [`fast_general`]; the move is written into `san` as there. Not inlined, so that the
/// ASCII path of [`fast`] stays small.
#[inline(never)]
fn fast_lettered(token: &str, table: &PieceTable, san: &mut SanSyntax) -> bool {
    if common_lettered(token, table, san) == Verdict::Read {
        return true;
    }
    match fast_general(token, table) {
        Some(read) => {
            *san = read;
            true
        }
        None => false,
    }
}

/// What [`common`] makes of a token (the move it read is in its `san`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// The syntax [`fast_general`] reads.
    Read,
    /// [`fast_general`] reads nothing.
    Invalid,
    /// Not one of the common shapes: ask [`fast_general`].
    Other,
}

/// The shapes nearly every game is written in, ASCII only, one `match` on the bytes:
/// `e4`, `exd5` (`bxc3` with its [`SanSyntax::alt_role`]), `Nf3`, `Nxf3`, `Nbd2`,
/// `R1e2`, `Nbxd2`, `e8=Q`, `exd8=Q`, `O-O`, `O-O-O`, each with `+` or `#` or
/// neither, written into `san` ([`SanSyntax::blank`] on entry; anything unless
/// [`Verdict::Read`]). Gives what [`fast_general`] gives for them (the test
/// `common_shapes_agree_with_fast_general` compares), under a table that passes
/// [`PieceTable::fast_path_ok`].
#[inline(always)]
pub(super) fn common(b: &[u8], table: &PieceTable, san: &mut SanSyntax) -> Verdict {
    let (check, body) = match b {
        [body @ .., b'+'] => (CheckMark::Check, body),
        [body @ .., b'#'] => (CheckMark::Mate, body),
        _ => (CheckMark::None, b),
    };
    san.check = check;
    // A piece letter: an upper-case ASCII letter of the table, but `O` (castling).
    let piece = |p: u8| -> Option<Role> {
        if p.is_ascii_uppercase() && p != b'O' {
            table.ascii_role(p)
        } else {
            None
        }
    };
    let (head, f, r) = match *body {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => (&[][..], f, r),
        [ref head @ .., f @ b'a'..=b'h', r @ b'1'..=b'8'] => (head, f, r),
        [b'O', b'-', b'O'] => {
            san.castle = Some(CastlingSide::KingSide);
            return Verdict::Read;
        }
        [b'O', b'-', b'O', b'-', b'O'] => {
            san.castle = Some(CastlingSide::QueenSide);
            return Verdict::Read;
        }
        [ref rest @ .., f @ b'a'..=b'h', r @ b'1'..=b'8', b'=', p] => {
            // a pawn promoting: `e8=Q`, `exd8=Q`
            match *rest {
                [] => {}
                // no alternative role: a promotion is a pawn move
                [c @ b'a'..=b'h', b'x'] => {
                    san.capture = true;
                    san.from_file = File::from_char(char::from(c));
                }
                _ => return Verdict::Other,
            }
            // no other promotion piece, whatever comes before `=`
            san.promotion = match table.ascii_role(p) {
                Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => Some(r),
                _ => return Verdict::Invalid,
            };
            san.to = ascii_square(f, r);
            return Verdict::Read;
        }
        _ => return Verdict::Other,
    };
    san.to = ascii_square(f, r);
    match *head {
        [] => {}
        [c @ b'a'..=b'h', b'x'] => {
            san.capture = true;
            san.from_file = File::from_char(char::from(c));
            san.alt_role = table.file_letter_role(c);
        }
        [p] => match piece(p) {
            Some(Role::Pawn) | None => return Verdict::Other,
            Some(role) => san.role = role,
        },
        [p, b'x'] => match piece(p) {
            Some(Role::Pawn) | None => return Verdict::Other,
            Some(role) => {
                san.role = role;
                san.capture = true;
            }
        },
        [p, d] | [p, d, b'x'] => match piece(p) {
            Some(Role::Pawn) | None => return Verdict::Other,
            Some(role) => {
                san.role = role;
                san.capture = head.len() == 3;
                match d {
                    b'a'..=b'h' => san.from_file = File::from_char(char::from(d)),
                    b'1'..=b'8' => san.from_rank = Rank::from_char(char::from(d)),
                    _ => return Verdict::Other,
                }
            }
        },
        _ => return Verdict::Other,
    }
    Verdict::Read
}

/// [`common`] for a move that starts with a piece letter outside ASCII (Chinese,
/// Persian, Russian, figurine …): the letter, in its table case and not the pawn's,
/// then `f3`, `xf3`, `bd2`, `1e2`, `bxd2` or `1xe2`, each with `+` or `#` or neither.
/// Gives what [`fast_general`] gives for them (the test
/// `lettered_shapes_agree_with_fast_general` compares); any other token is `Other`.
/// Like [`common`], the move is written into `san`, which is [`SanSyntax::blank`] on
/// entry, one field at a time (and is anything on `Other`).
#[inline(always)]
pub(super) fn common_lettered(token: &str, table: &PieceTable, san: &mut SanSyntax) -> Verdict {
    lettered_after(token.as_bytes(), table.match_letter_non_ascii(token), san)
}

/// [`common_shape`] for a token that starts outside ASCII, read from its bytes
/// (`token`, those of a text; or of a span of one, when the answer is `Some`: a span
/// of a text that starts with a character's first byte and ends with an ASCII byte
/// starts and ends on character boundaries), telling whether its letter names no other
/// table where it stands
/// ([`PieceTable::match_letter_alone`](super::lang::PieceTable::match_letter_alone)):
/// `Some` when the token is in one of the lettered shapes ([`Shape::Lettered`], `san`
/// as there), `None` otherwise ([`Shape::Other`]). For reading a game under one table
/// while noting the heads of its tokens, which need not note such a letter.
#[inline(always)]
pub(crate) fn common_lettered_alone(
    token: &[u8],
    table: &PieceTable,
    san: &mut SanSyntax,
) -> Option<bool> {
    if !table.fast_path_ok() {
        return None;
    }
    let (found, alone) = table.match_letter_alone(token)?;
    (lettered_after(token, Some(found), san) == Verdict::Read).then_some(alone)
}

/// [`common_lettered`] once the letter at the start of `token` is `found`
/// ([`PieceTable::match_letter`](super::lang::PieceTable::match_letter)'s answer).
#[inline(always)]
fn lettered_after(
    token: &[u8],
    found: Option<(Role, LetterCase, usize)>,
    san: &mut SanSyntax,
) -> Verdict {
    let (role, b) = match found {
        Some((role, LetterCase::Table, len)) if role != Role::Pawn => match token.get(len..) {
            Some(rest) => (role, rest),
            None => return Verdict::Other,
        },
        _ => return Verdict::Other,
    };
    let (check, body) = match b {
        [body @ .., b'+'] => (CheckMark::Check, body),
        [body @ .., b'#'] => (CheckMark::Mate, body),
        _ => (CheckMark::None, b),
    };
    let [ref head @ .., f @ b'a'..=b'h', r @ b'1'..=b'8'] = *body else {
        return Verdict::Other;
    };
    san.role = role;
    san.check = check;
    san.to = ascii_square(f, r);
    let head = match *head {
        [ref rest @ .., b'x'] => {
            san.capture = true;
            rest
        }
        _ => head,
    };
    match *head {
        [] => {}
        [d @ b'a'..=b'h'] => san.from_file = File::from_char(char::from(d)),
        [d @ b'1'..=b'8'] => san.from_rank = Rank::from_char(char::from(d)),
        _ => return Verdict::Other,
    }
    Verdict::Read
}

/// The square of an ASCII file letter `a`…`h` and rank digit `1`…`8`.
#[inline(always)]
fn ascii_square(f: u8, r: u8) -> Square {
    Square::from_index_masked(u32::from(
        (r.wrapping_sub(b'1') << 3) | (f.wrapping_sub(b'a') & 7),
    ))
}

/// [`fast`] for every shape: the piece letter in any script, disambiguation, long
/// forms, zero castling.
#[inline(never)]
fn fast_general(token: &str, table: &PieceTable) -> Option<SanSyntax> {
    let mut san = SanSyntax::blank();
    let mut b = token.as_bytes();
    let mut lettered = false;
    if b.first().is_some_and(|&c| c >= 0x80) {
        match table.match_letter_non_ascii(token)? {
            (Role::Pawn, _, _) | (_, LetterCase::Lower, _) => return None,
            (role, LetterCase::Table, len) => {
                san.role = role;
                b = b.get(len..)?;
                lettered = true;
            }
        }
    }
    let mut end = b.len();
    match b.last()? {
        b'+' => {
            san.check = CheckMark::Check;
            end -= 1;
        }
        b'#' => {
            san.check = CheckMark::Mate;
            end -= 1;
        }
        _ => {}
    }
    let body = b.get(..end)?;
    if !lettered && matches!(body.first(), Some(b'O' | b'0')) {
        san.castle = Some(match body {
            b"O-O" | b"0-0" => CastlingSide::KingSide,
            b"O-O-O" | b"0-0-0" => CastlingSide::QueenSide,
            _ => return None,
        });
        if body.first() == Some(&b'0') {
            san.form.insert(Form::ZERO_CASTLE);
        }
        return Some(san);
    }
    let body = if let [rest @ .., b'=', p] = body {
        match table.ascii_role(*p) {
            Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => {
                san.promotion = Some(r);
                rest
            }
            _ => return None,
        }
    } else {
        body
    };
    let [head @ .., f, r] = body else {
        return None;
    };
    san.to = Square::from_coords(file_of(*f)?, rank_of(*r)?);
    let head = match head {
        [p, rest @ ..] if !lettered && p.is_ascii_uppercase() => {
            match table.ascii_role(*p) {
                Some(Role::Pawn) | None => return None,
                Some(role) => san.role = role,
            }
            rest
        }
        _ => head,
    };
    let head = match head {
        [rest @ .., b'x'] => {
            san.capture = true;
            rest
        }
        _ => head,
    };
    match head {
        [] => {}
        [c] => match (file_of(*c), rank_of(*c)) {
            (Some(f), _) => san.from_file = Some(f),
            (_, Some(r)) => san.from_rank = Some(r),
            _ => return None,
        },
        [c, d] => {
            san.from_file = Some(file_of(*c)?);
            san.from_rank = Some(rank_of(*d)?);
        }
        _ => return None,
    }
    if san.role == Role::Pawn {
        // plain pawn SAN is `e4` or `exd5`
        if san.from_rank.is_some() || san.capture != san.from_file.is_some() {
            return None;
        }
        // `bxc3` may be a bishop move; a promotion is a pawn's
        if san.promotion.is_none()
            && let Some(&c) = head.first()
        {
            san.alt_role = table.file_letter_role(c);
        }
    } else if san.promotion.is_some() {
        return None;
    }
    Some(san)
}

fn file_of(b: u8) -> Option<File> {
    File::from_char(char::from(b))
}

fn rank_of(b: u8) -> Option<Rank> {
    Rank::from_char(char::from(b))
}

impl PieceTable {
    /// The [`SanSyntax::alt_role`] of a pawn capture that starts with the ASCII file
    /// letter `c` (`b` in `bxc3`): the piece, not the pawn, that `c` names as a
    /// lower-case letter in this table (the bishop in English). The rule of
    /// [`lenient`], for the fast paths (under a table that passes
    /// [`PieceTable::fast_path_ok`], where [`PieceTable::match_letter`] sees the ASCII
    /// letters from the first byte).
    #[inline]
    fn file_letter_role(&self, c: u8) -> Option<Role> {
        self.match_letter_lower_ascii(c)
            .filter(|&r| r != Role::Pawn)
    }

    /// The role a lower-case ASCII letter names in this table, if any (as `b` names
    /// the bishop in English, so that `bxc3` may be a bishop move).
    #[inline]
    fn match_letter_lower_ascii(&self, b: u8) -> Option<Role> {
        if !b.is_ascii() {
            return None;
        }
        let mut buf = [0; 4];
        match self.match_letter(char::from(b).encode_utf8(&mut buf)) {
            Some((r, LetterCase::Lower, _)) => Some(r),
            _ => None,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::type_complexity)]
mod tests {
    use super::*;
    use crate::notation::chess::lang::{english, table};
    use crate::testing::{XorShift, all_words, random_word};

    use super::super::tests::tables_for_fast;

    #[test]
    fn fast_path_agrees_with_grammar() {
        let toks = [
            "e4", "exd5", "Nf3", "Кbd7", "Крe1", "马xf3+", "♘f3", "اf3", "0-0", "0-0-0#", "ed5",
            "Pe4", "Nbd7", "N5f3", "Ng1f3", "Nxe5", "Qh4+", "Qxf7#", "O-O", "O-O-O+", "e8=Q",
            "exf8=N+", "bxc3", "axb8=R#", "Rd8#", "Kxe2", "Bb5+", "Rae1", "R1e2",
        ];
        for t in tables_for_fast() {
            for tok in toks {
                let f = fast(tok, t);
                let slow = parse_lenient(tok, t).ok();
                if let Some(f) = f {
                    assert_eq!(Some(f), slow, "{} {tok}", t.code);
                }
            }
        }
        assert!(fast("Nf3", english()).is_some());
        assert!(fast("exd5", english()).is_some());
        let bxc3 = fast("bxc3", english()).unwrap();
        assert_eq!((bxc3.role, bxc3.alt_role), (Role::Pawn, Some(Role::Bishop)));
        assert_eq!(fast("bxc8=Q", english()).unwrap().alt_role, None);
        assert!(fast("0-0-0", english()).is_some());
        let ru = table("ru").unwrap();
        for tok in ["Крe2", "Кbd7", "Фxf3+", "Лd8#", "e4", "0-0"] {
            let f = fast(tok, ru);
            assert!(f.is_some(), "{tok}");
            assert_eq!(f.ok_or(()), parse_lenient(tok, ru).map_err(|_| ()), "{tok}");
        }
        assert!(fast("крe2", ru).is_none());
    }

    /// Every token of up to five bytes over an alphabet of SAN bytes (and random
    /// longer ones) that the fast path reads, under every table, the full grammar
    /// reads the same.
    #[test]
    fn fast_path_agrees_with_grammar_on_short_tokens() {
        let alphabet = b"ab18xNBKOPD0=-+#";
        let mut tokens = all_words(alphabet, 5);
        let mut rng = XorShift::new(0x853C_49E6_748F_EA9B);
        for _ in 0..20_000 {
            tokens.push(random_word(&mut rng, alphabet, 5));
        }
        let mut read = 0;
        for t in tables_for_fast() {
            for tok in &tokens {
                let Ok(tok) = std::str::from_utf8(tok) else {
                    continue;
                };
                if let Some(f) = fast(tok, t) {
                    read += 1;
                    assert_eq!(Ok(f), parse_lenient(tok, t), "{} {tok}", t.code);
                    assert_eq!(Ok(f), parse(tok, t), "{} {tok}", t.code);
                }
            }
        }
        assert!(read > 2_000, "{read}");
    }

    #[test]
    fn random_text_never_panics_and_fast_agrees() {
        let alphabet: Vec<char> = "abcdefgh12345678xX:-=+#!?() /.epOo0NBRQKPSDTLCAFHVMWJГКрЛФС王后车马象兵اسبشورف♘♞♔ｅ４×–\u{200F}\u{00A0}"
            .chars()
            .collect();
        let mut rng = crate::testing::XorShift::new(0x9E37_79B9_7F4A_7C15);
        let tables = tables_for_fast();
        for _ in 0..20_000 {
            let len = rng.below(9);
            let tok: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            for t in &tables {
                let slow = parse(&tok, t);
                if let Some(f) = fast(&tok, t) {
                    assert_eq!(Ok(f), parse_lenient(&tok, t), "{} {tok:?}", t.code);
                }
                if let Err(e) = slow {
                    assert!(!e.to_string().is_empty());
                }
            }
        }
    }

    /// The shortcut for the common shapes gives what the general fast path gives,
    /// on every token of up to four characters over an alphabet of their bytes and on
    /// random longer ones, under every table the fast path serves.
    #[test]
    fn common_shapes_agree_with_fast_general() {
        let alphabet = b"abeh1458xNBRQKOPSDnb0=-+#\xc3";
        let tables: Vec<_> = tables_for_fast()
            .into_iter()
            .filter(|t| t.fast_path_ok())
            .collect();
        let mut tokens = all_words(alphabet, 4);
        let mut rng = XorShift::new(0x2545_F491_4F6C_DD1D);
        for _ in 0..50_000 {
            tokens.push(random_word(&mut rng, alphabet, 5));
        }
        for extra in [
            "exd8=Q+", "bxa8=N#", "Nbxd2+", "R1xe2#", "O-O-O#", "e8=K", "axb1=P",
        ] {
            tokens.push(extra.as_bytes().to_vec());
        }
        let mut read = 0;
        for tok in &tokens {
            let Ok(tok) = std::str::from_utf8(tok) else {
                continue;
            };
            for t in &tables {
                let mut san = SanSyntax::blank();
                let got = common(tok.as_bytes(), t, &mut san);
                read += agrees_with_fast_general(got, san, tok, t);
            }
        }
        assert!(read > 10_000, "{read}");
    }

    /// [`common_into`], the replay's first step on a move's bytes, reads a token only
    /// as [`parse_into`] reads its text, under every table: every byte string of up to
    /// four bytes over an alphabet of the common shapes' bytes, a space and the bytes
    /// of `é` (so that some strings cut a character), and random longer ones. A string
    /// that is no whole text (a cut character) is never read.
    #[test]
    fn common_into_agrees_with_parse_into() {
        let alphabet = b"abeh1458xNBRQKOPSDnb0=-+# \xc3\xa9";
        let mut tokens = all_words(alphabet, 4);
        let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..50_000 {
            tokens.push(random_word(&mut rng, alphabet, 5));
        }
        for extra in [
            "exd8=Q+", "bxa8=N#", "Nbxd2+", "R1xe2#", "O-O-O#", "O-O+", "e4",
        ] {
            tokens.push(extra.as_bytes().to_vec());
        }
        let mut read = 0;
        for tok in &tokens {
            for t in tables_for_fast() {
                let mut san = SanSyntax::blank();
                if !common_into(tok, t, &mut san) {
                    continue;
                }
                let Ok(text) = std::str::from_utf8(tok) else {
                    panic!("{} {tok:?}: read, but not a whole text", t.code);
                };
                let mut want = SanSyntax::blank();
                assert!(parse_into(text, t, &mut want).is_ok(), "{} {text}", t.code);
                assert_eq!(san, want, "{} {text}", t.code);
                read += 1;
            }
        }
        assert!(read > 10_000, "{read}");
    }

    /// Asserts that a shortcut's answer `got` for `tok` under `t` is what
    /// [`fast_general`] gives (the move `san` it read, or no move for `Invalid`; `Other`
    /// leaves it to the general path); 1 when the shortcut read a move, for the
    /// callers' counts.
    fn agrees_with_fast_general(got: Verdict, san: SanSyntax, tok: &str, t: &PieceTable) -> usize {
        let general = fast_general(tok, t);
        match got {
            Verdict::Read => {
                assert_eq!(Some(san), general, "{} {tok}", t.code);
                1
            }
            Verdict::Invalid => {
                assert_eq!(None, general, "{} {tok}", t.code);
                0
            }
            Verdict::Other => 0,
        }
    }

    /// The shortcut for a piece letter outside ASCII gives what the general fast path
    /// gives: every such letter of every table (its lower-case form too, and a few
    /// characters that are no letter) before every text of up to three bytes over an
    /// alphabet of the common shapes' bytes and before random longer ones, under every
    /// table.
    #[test]
    fn lettered_shapes_agree_with_fast_general() {
        let mut letters: Vec<String> = ["é", "Ω", "ｅ", "\u{a0}", "ا\u{200F}", "马马"]
            .iter()
            .map(|l| (*l).to_owned())
            .collect();
        for t in tables_for_fast() {
            for (l, _) in t.letters().filter(|(l, _)| !l.is_ascii()) {
                letters.push(l.to_owned());
                letters.push(l.to_lowercase());
            }
        }
        letters.sort();
        letters.dedup();
        let alphabet = b"abeh1458x+#=Q-O";
        let mut rests = all_words(alphabet, 3);
        let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..5_000 {
            rests.push(random_word(&mut rng, alphabet, 4));
        }
        let mut tokens: Vec<String> = Vec::new();
        for l in &letters {
            for r in &rests {
                if let Ok(r) = std::str::from_utf8(r) {
                    tokens.push(format!("{l}{r}"));
                }
            }
        }
        for extra in [
            "马g1f3",
            "اسبxf3+",
            "Крe2",
            "♘bd7",
            "馬1xe2#",
            "车xxd7",
            "♖8e1+",
        ] {
            tokens.push(extra.to_owned());
        }
        let mut read = 0;
        for tok in &tokens {
            for t in tables_for_fast() {
                let mut san = SanSyntax::blank();
                let got = common_lettered(tok, t, &mut san);
                if got != Verdict::Read {
                    san = SanSyntax::blank();
                }
                read += agrees_with_fast_general(got, san, tok, t);
            }
        }
        assert!(read > 10_000, "{read}");
    }
}
