//! Descriptive notation (issue 25), English and Spanish, as a notation of its own: read
//! and resolved against a position, never written.
//!
//! A descriptive move names a piece and a *set* of squares seen from the mover's side:
//! `P-K4` is a pawn to the king's file, fourth rank (e4 for White, e5 for Black);
//! `N-B3` a knight to either bishop's file, third rank (c3 or f3, c6 or f6 for Black);
//! `PxP` a pawn taking a pawn, anywhere. Replay picks the one legal move the set
//! allows; several are an ambiguous move, reported as SAN's are (every candidate
//! listed), none an illegal one. The letters are data, `grammars/descriptive.tsv`:
//!
//! | form | English | Spanish |
//! |---|---|---|
//! | pieces | K Q R B N (Kt) P | R D T A C P |
//! | a square | `KB3`, `Q4`, `N5` (file, then rank) | `3AR`, `4D`, `5C` (rank, then file) |
//! | a move | `P-K4`, `Kt-KB3`, `R(1)-Q1`, `N/3-Q4`, `KR-Q1` | `P4R`, `C3AR`, `TD1R` |
//! | a capture | `PxP`, `BxN`, `B×KtP`, `KtxP`, `PxP e.p.` | `PxP`, `AxC`, `CxC` |
//! | promotion | `P-K8(Q)`, `P-K8=Q`, `P-K8Q` | `P8R(D)`, `P8R=D` |
//! | castling | `O-O`, `O-O-O`, `Castles`, `Castles(QR)` | `O-O`, `O-O-O` |
//!
//! Check and end marks glued to a move are read and dropped (`Q-R5ch`, `D5T+`,
//! `AxP++`, `P-K4!`); the walk reports a check that is wrong as it does for SAN, since
//! the move is handed on as SAN. A qualifier naming a piece's side (`KR`, `QKt`,
//! `TD`) picks among the candidates the one standing on that side of the board when
//! several can go (the rook that started there usually still does), and is ignored
//! when it would leave none; a pawn's file (`KBP`, `QP`, `KtP`) is a hard condition.
//!
//! ```
//! use kyphu::chess::Position;
//! use kyphu::notation::chess::descriptive::{self, english};
//!
//! let mut pos = Position::default();
//! let mut sans = Vec::new();
//! for token in ["P-K4", "P-K4", "Kt-KB3", "N-QB3", "B-N5"] {
//!     let mv = descriptive::read_move(token, english(), &pos).unwrap();
//!     sans.push(kyphu::notation::chess::pgn_san(&pos, &mv));
//!     pos.play_legal(&mv);
//! }
//! assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
//! ```

use crate::chess::{CastlingSide, Move, Position, Role};
use crate::color::Color;
use crate::model::diag::{Code, Diagnostic};
use std::sync::OnceLock;

/// `grammars/descriptive.tsv`, as compiled in.
pub const DESCRIPTIVE_TSV: &str = include_str!("../../../grammars/descriptive.tsv");

/// How a square is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// English: the file (named by a piece), then the rank: `KB3`.
    FileRank,
    /// Spanish: the rank, then the file: `3AR`.
    RankFile,
}

/// Which castling a word names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Castle {
    King,
    Queen,
    Either,
}

/// The letters of one language's descriptive notation.
#[derive(Debug)]
pub struct Descriptive {
    /// `en`, `es`.
    pub code: &'static str,
    /// `English`, `Spanish`.
    pub name: &'static str,
    pub order: Order,
    /// Piece letters, longest first (`Kt` before `K`).
    pieces: Vec<(&'static str, Role)>,
    /// Wing letters: `true` for the king's side.
    wings: Vec<(&'static str, bool)>,
    moves: Vec<&'static str>,
    captures: Vec<&'static str>,
    /// Castling forms, longest first.
    castles: Vec<(&'static str, Castle)>,
    first: Vec<&'static str>,
    /// The long form in words: a word and the short form it stands for (`to` `-`,
    /// `takes` `x`, `4th` `4`; empty: left out).
    words: Vec<(&'static str, &'static str)>,
    /// Endings left out of every word of the long form (`'s`), longest first.
    suffixes: Vec<&'static str>,
}

/// The descriptive notations of `grammars/descriptive.tsv`, in file order.
pub fn tables() -> &'static [Descriptive] {
    static TABLES: OnceLock<Vec<Descriptive>> = OnceLock::new();
    TABLES.get_or_init(|| build(DESCRIPTIVE_TSV).0)
}

/// English descriptive notation.
pub fn english() -> &'static Descriptive {
    table("en").unwrap_or(&tables()[0])
}

/// The descriptive notation of language `code`.
pub fn table(code: &str) -> Option<&'static Descriptive> {
    tables().iter().find(|t| t.code == code)
}

fn role_named(s: &str) -> Option<Role> {
    crate::notation::lexicon::chess::role_from_name(s)
}

/// The tables of a TSV text, and the lines that could not be read.
fn build(tsv: &'static str) -> (Vec<Descriptive>, Vec<usize>) {
    let mut out: Vec<Descriptive> = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in tsv.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&'static str> = line.split('\t').collect();
        let [code, name, what, form, meaning, ..] = cols[..] else {
            bad.push(i + 1);
            continue;
        };
        let k = match out.iter().position(|t| t.code == code) {
            Some(k) => k,
            None => {
                out.push(Descriptive {
                    code,
                    name,
                    order: Order::FileRank,
                    pieces: Vec::new(),
                    wings: Vec::new(),
                    moves: Vec::new(),
                    captures: Vec::new(),
                    castles: Vec::new(),
                    first: Vec::new(),
                    words: Vec::new(),
                    suffixes: Vec::new(),
                });
                out.len() - 1
            }
        };
        let t = &mut out[k];
        let ok = match (what, role_named(meaning)) {
            ("order", _) => match form {
                "file-rank" => {
                    t.order = Order::FileRank;
                    true
                }
                "rank-file" => {
                    t.order = Order::RankFile;
                    true
                }
                _ => false,
            },
            ("piece", Some(role)) => {
                t.pieces.push((form, role));
                true
            }
            ("wing", Some(Role::King | Role::Queen)) => {
                t.wings.push((form, meaning == "king"));
                true
            }
            ("move", _) => {
                t.moves.push(form);
                true
            }
            ("capture", _) => {
                t.captures.push(form);
                true
            }
            ("castle", _) => {
                let side = match meaning {
                    "king" => Some(Castle::King),
                    "queen" => Some(Castle::Queen),
                    "either" => Some(Castle::Either),
                    _ => None,
                };
                side.map(|s| t.castles.push((form, s))).is_some()
            }
            ("first", _) => {
                t.first.push(form);
                true
            }
            ("word", _) => {
                t.words
                    .push((form, if meaning == "none" { "" } else { meaning }));
                true
            }
            ("suffix", _) => {
                t.suffixes.push(form);
                true
            }
            _ => false,
        };
        if !ok {
            bad.push(i + 1);
        }
    }
    for t in &mut out {
        t.pieces.sort_by_key(|(f, _)| std::cmp::Reverse(f.len()));
        t.castles.sort_by_key(|(f, _)| std::cmp::Reverse(f.len()));
        t.suffixes.sort_by_key(|f| std::cmp::Reverse(f.len()));
    }
    (out, bad)
}

/// Files as a bit mask: bit 0 the a-file.
type Files = u8;
const ALL_FILES: Files = 0xff;
const KING_SIDE: Files = 0xf0;
const QUEEN_SIDE: Files = 0x0f;

/// The files a piece names at the start: king e, queen d, rook a and h, …
fn role_files(role: Role) -> Files {
    match role {
        Role::King => 1 << 4,
        Role::Queen => 1 << 3,
        Role::Rook => 1 | 1 << 7,
        Role::Knight => 1 << 1 | 1 << 6,
        Role::Bishop => 1 << 2 | 1 << 5,
        Role::Pawn => 0,
    }
}

fn wing_files(king: bool) -> Files {
    if king { KING_SIDE } else { QUEEN_SIDE }
}

/// A set of squares seen from the mover's side: files, and a rank counted from the
/// mover's first rank (0-7), or any rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Squares {
    files: Files,
    rank: Option<u8>,
}

/// Which pieces a designation names: a role; files its piece must stand on (a pawn's
/// file: `KBP`), hard; a wing it is told by (`KR`), soft.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    role: Role,
    files: Files,
    wing: Files,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    To(Squares),
    Takes(Piece, Option<Squares>),
    Castle(Castle),
}

/// One descriptive move, read without a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DescMove {
    claim: Claim,
    piece: Piece,
    from: Option<Squares>,
    kind: Kind,
    promotion: Option<Role>,
}

/// The token without what does not name the move: dots (`K.Sq.`, `e.p.`), spaces,
/// check and end marks, glyphs, a trailing comma; and the check or mate the marks
/// claim (`ch`, `+`: check; `++`, `#`, `mate`: mate), which picks among several
/// candidates.
fn normalize_marked(token: &str) -> (String, Claim) {
    let mut s: String = token
        .chars()
        .filter(|c| *c != '.' && !c.is_whitespace())
        .collect();
    let mut claim = Claim::None;
    for (mark, c) in [
        ("++", Claim::Mate),
        ("#", Claim::Mate),
        ("mate", Claim::Mate),
        ("+", Claim::Check),
        ("ch", Claim::Check),
    ] {
        if s.contains(mark) && claim == Claim::None {
            claim = c;
        }
    }
    loop {
        let before = s.len();
        for suffix in [
            "dblch", "disch", "(ch)", "ch", "mate", "(ep)", "ep", "++", "+", "#", "†", "‡", "!",
            "?", ",", ";",
        ] {
            if s.len() > suffix.len() && s.ends_with(suffix) {
                s.truncate(s.len() - suffix.len());
            }
        }
        if s.len() == before {
            return (s, claim);
        }
    }
}

/// What a move's marks say it does to the other king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claim {
    None,
    Check,
    Mate,
}

/// A cursor over the token.
struct Cursor<'a> {
    s: &'a str,
}

impl<'a> Cursor<'a> {
    fn eat(&mut self, prefix: &str) -> bool {
        match self.s.strip_prefix(prefix) {
            Some(rest) if !prefix.is_empty() => {
                self.s = rest;
                true
            }
            _ => false,
        }
    }

    fn peek(&self, prefix: &str) -> bool {
        !prefix.is_empty() && self.s.starts_with(prefix)
    }

    fn digit(&mut self) -> Option<u8> {
        let b = *self.s.as_bytes().first()?;
        if (b'1'..=b'8').contains(&b) {
            self.s = &self.s[1..];
            Some(b - b'1')
        } else {
            None
        }
    }

    fn next_is_digit(&self) -> bool {
        self.s
            .as_bytes()
            .first()
            .is_some_and(|b| (b'1'..=b'8').contains(b))
    }
}

impl Descriptive {
    fn piece_at(&self, c: &Cursor<'_>) -> Option<(&'static str, Role)> {
        self.pieces.iter().copied().find(|(f, _)| c.peek(f))
    }

    fn wing_at(&self, c: &Cursor<'_>) -> Option<(&'static str, bool)> {
        self.wings.iter().copied().find(|(f, _)| c.peek(f))
    }

    /// A piece letter naming a file pair (rook, knight, bishop).
    fn file_piece_at(&self, c: &Cursor<'_>) -> Option<(&'static str, Role)> {
        self.piece_at(c)
            .filter(|(_, r)| matches!(r, Role::Rook | Role::Knight | Role::Bishop))
    }

    /// A piece (the mover or the piece taken).
    fn piece(&self, c: &mut Cursor<'_>) -> Option<Piece> {
        match self.order {
            Order::FileRank => self.piece_en(c),
            Order::RankFile => self.piece_es(c),
        }
    }

    /// English: `K`, `Q`, `R`, `KR`, `QKt`, `P`, `KP`, `QBP`, `KtP`.
    fn piece_en(&self, c: &mut Cursor<'_>) -> Option<Piece> {
        // a wing, when a file piece or a pawn follows it (`KR`, `QKt`, `KP`)
        let mut wing = None;
        if let Some((w, king)) = self.wing_at(c) {
            let after = Cursor { s: &c.s[w.len()..] };
            let pawn_after = self.piece_at(&after).is_some_and(|(_, r)| r == Role::Pawn);
            // `Kt` is a knight, not the king's wing
            let knight_here = self
                .piece_at(c)
                .is_some_and(|(f, r)| r == Role::Knight && f.len() > w.len());
            if !knight_here && (self.file_piece_at(&after).is_some() || pawn_after) {
                wing = Some(king);
                c.s = after.s;
            }
        }
        let (letter, role) = self.piece_at(c)?;
        c.eat(letter);
        let pawn_next = self.piece_at(c).is_some_and(|(_, r)| r == Role::Pawn);
        match (wing, role) {
            (Some(king), Role::Pawn) => Some(Piece {
                role: Role::Pawn,
                files: role_files(if king { Role::King } else { Role::Queen }),
                wing: ALL_FILES,
            }),
            (w, Role::Rook | Role::Knight | Role::Bishop) if pawn_next => {
                let pawn = self.piece_at(c).map_or("", |(f, _)| f);
                c.eat(pawn);
                Some(Piece {
                    role: Role::Pawn,
                    files: role_files(role) & w.map_or(ALL_FILES, wing_files),
                    wing: ALL_FILES,
                })
            }
            (Some(king), _) => Some(Piece {
                role,
                files: ALL_FILES,
                wing: wing_files(king),
            }),
            (None, _) => Some(Piece {
                role,
                files: ALL_FILES,
                wing: ALL_FILES,
            }),
        }
    }

    /// Spanish: `T`, `TR`, `CD`, `P`, `PAR`.
    fn piece_es(&self, c: &mut Cursor<'_>) -> Option<Piece> {
        let (letter, role) = self.piece_at(c)?;
        c.eat(letter);
        let mut piece = Piece {
            role,
            files: ALL_FILES,
            wing: ALL_FILES,
        };
        if role == Role::Pawn
            && let Some((f, r)) = self.piece_at(c)
            && r != Role::Pawn
        {
            // the pawn's file: `PAR` (f), `PR` (e), `PD` (d)
            c.eat(f);
            piece.files = role_files(r);
            if let Some((w, king)) = self.wing_at(c)
                && matches!(r, Role::Rook | Role::Knight | Role::Bishop)
            {
                c.eat(w);
                piece.files &= wing_files(king);
            }
        } else if matches!(role, Role::Rook | Role::Knight | Role::Bishop)
            && let Some((w, king)) = self.wing_at(c)
        {
            c.eat(w);
            piece.wing = wing_files(king);
        }
        Some(piece)
    }

    /// A square set: `KB3`, `Q4`, `N5`, `KSq` (English); `3AR`, `4D`, `5C` (Spanish).
    fn squares(&self, c: &mut Cursor<'_>) -> Option<Squares> {
        match self.order {
            Order::FileRank => {
                let files = self.files_en(c)?;
                let rank = match c.digit() {
                    Some(r) => r,
                    None => {
                        let f = self.first.iter().find(|f| c.peek(f))?;
                        c.eat(f);
                        0
                    }
                };
                Some(Squares {
                    files,
                    rank: Some(rank),
                })
            }
            Order::RankFile => {
                let rank = c.digit()?;
                let files = self.files_es(c)?;
                Some(Squares {
                    files,
                    rank: Some(rank),
                })
            }
        }
    }

    /// English files: `KB` (f), `QKt` (b), `B` (c, f), `K` (e), `Q` (d).
    fn files_en(&self, c: &mut Cursor<'_>) -> Option<Files> {
        if let Some((f, r)) = self.file_piece_at(c) {
            c.eat(f);
            return Some(role_files(r));
        }
        let (w, king) = self.wing_at(c)?;
        let after = Cursor { s: &c.s[w.len()..] };
        if let Some((f, r)) = self.file_piece_at(&after) {
            c.eat(w);
            c.eat(f);
            return Some(role_files(r) & wing_files(king));
        }
        c.eat(w);
        Some(role_files(if king { Role::King } else { Role::Queen }))
    }

    /// Spanish files: `R` (e), `D` (d), `A` (c, f), `AR` (f), `TD` (a).
    fn files_es(&self, c: &mut Cursor<'_>) -> Option<Files> {
        let (f, r) = self.piece_at(c)?;
        if r == Role::Pawn {
            return None;
        }
        c.eat(f);
        let mut files = role_files(r);
        if matches!(r, Role::Rook | Role::Knight | Role::Bishop)
            && let Some((w, king)) = self.wing_at(c)
        {
            c.eat(w);
            files &= wing_files(king);
        }
        Some(files)
    }

    /// An origin written after the piece: `(1)`, `/3`, `(R5)`, `/Q2`.
    fn origin(&self, c: &mut Cursor<'_>) -> Option<Option<Squares>> {
        let close = if c.eat("(") {
            Some(")")
        } else if c.eat("/") {
            None
        } else {
            return Some(None);
        };
        let sq = if c.next_is_digit() && self.order == Order::FileRank {
            Squares {
                files: ALL_FILES,
                rank: c.digit(),
            }
        } else if let Some(sq) = self.squares(c) {
            sq
        } else {
            Squares {
                files: ALL_FILES,
                rank: Some(c.digit()?),
            }
        };
        if let Some(close) = close
            && !c.eat(close)
        {
            return None;
        }
        Some(Some(sq))
    }

    /// A promotion after the square: `(Q)`, `=Q`, `/Q`, `Q`.
    fn promotion(&self, c: &mut Cursor<'_>) -> Option<Option<Role>> {
        if c.s.is_empty() {
            return Some(None);
        }
        let paren = c.eat("(");
        if !paren {
            let _ = c.eat("=") || c.eat("/");
        }
        let (f, role) = self.piece_at(c)?;
        if matches!(role, Role::Pawn | Role::King) {
            return None;
        }
        c.eat(f);
        if paren && !c.eat(")") {
            return None;
        }
        Some(Some(role))
    }

    fn castle(&self, s: &str) -> Option<Castle> {
        let (form, side) = self
            .castles
            .iter()
            .copied()
            .find(|(f, _)| s.starts_with(f))?;
        let rest = s[form.len()..].trim_matches(|c| matches!(c, '(' | ')' | ' '));
        match (side, rest) {
            (side, "") => Some(side),
            (Castle::Either, r) => {
                // `Castles(K)`, `Castles QR`: the side named by its wing
                let mut c = Cursor { s: r };
                let (w, king) = self.wing_at(&c)?;
                c.eat(w);
                if let Some((f, Role::Rook)) = self.piece_at(&c) {
                    c.eat(f);
                }
                c.s.is_empty()
                    .then_some(if king { Castle::King } else { Castle::Queen })
            }
            _ => None,
        }
    }
}

/// The long form in words (`P. to K's 4th.`, `K. Kt. to B's 3d.`, `B. takes Kt.`) in
/// the short form (`P-K4`, `KKt-B3`, `BxKt`): each word without its dots and endings
/// (`'s`), as the table's words say; `None` for a token of one word, or when the table
/// has no words.
fn short_form(token: &str, table: &Descriptive) -> Option<String> {
    if table.words.is_empty() || !token.trim().contains(char::is_whitespace) {
        return None;
    }
    let mut out = String::with_capacity(token.len());
    for w in token.split_whitespace() {
        let mut w: String = w.chars().filter(|&c| c != '.').collect();
        while let Some(sfx) = table.suffixes.iter().find(|x| w.ends_with(**x)) {
            w.truncate(w.len() - sfx.len());
        }
        match table.words.iter().find(|(f, _)| *f == w) {
            Some((_, short)) => out.push_str(short),
            None => out.push_str(&w),
        }
    }
    Some(out)
}

/// Reads `token` as a descriptive move of `table`, without a position.
pub fn parse(token: &str, table: &Descriptive) -> Result<DescMove, Diagnostic> {
    if let Some(short) = short_form(token, table) {
        return parse_short(&short, table).map_err(|_| invalid_move(token, table));
    }
    parse_short(token, table)
}

fn invalid_move(token: &str, table: &Descriptive) -> Diagnostic {
    Diagnostic::error(
        Code::InvalidMove,
        format!(
            "invalid move `{token}`: expected a move in {} descriptive notation ({}) found something else",
            table.name,
            match table.order {
                Order::FileRank => "P-K4, Kt-KB3, PxP, O-O",
                Order::RankFile => "P4R, C3AR, PxP, O-O",
            }
        ),
    )
}

/// [`parse`] for a move in the short form.
fn parse_short(token: &str, table: &Descriptive) -> Result<DescMove, Diagnostic> {
    let (s, claim) = normalize_marked(token.trim());
    if let Some(side) = table.castle(&s) {
        return Ok(DescMove {
            claim,
            piece: Piece {
                role: Role::King,
                files: ALL_FILES,
                wing: ALL_FILES,
            },
            from: None,
            kind: Kind::Castle(side),
            promotion: None,
        });
    }
    let invalid = || invalid_move(token, table);
    let mut c = Cursor { s: &s };
    let piece = table.piece(&mut c).ok_or_else(invalid)?;
    let from = table.origin(&mut c).ok_or_else(invalid)?;
    let kind = if let Some(x) = table.captures.iter().find(|x| c.peek(x)) {
        c.eat(x);
        let target = table.piece(&mut c).ok_or_else(invalid)?;
        // where, when written: `PxP/4`, `BxP(Q4)`
        let at = table.origin(&mut c).ok_or_else(invalid)?;
        Kind::Takes(target, at)
    } else {
        let sign = table.moves.iter().find(|m| c.peek(m));
        match sign {
            Some(m) => {
                c.eat(m);
            }
            // English writes the sign; Spanish seldom does
            None if table.order == Order::FileRank => return Err(invalid()),
            None => {}
        }
        Kind::To(table.squares(&mut c).ok_or_else(invalid)?)
    };
    let promotion = table.promotion(&mut c).ok_or_else(invalid)?;
    if !c.s.is_empty() {
        return Err(invalid());
    }
    if promotion.is_some() && piece.role != Role::Pawn {
        return Err(invalid());
    }
    Ok(DescMove {
        claim,
        piece,
        from,
        kind,
        promotion,
    })
}

/// Is `token` a descriptive move (not castling, which every notation writes) of some
/// table: a `P-K4`, `PxP`, `P4R` that settles the notation of a record?
pub fn settles(token: &str) -> bool {
    // cheap first: an upper-case letter first, no lower-case file-and-rank square
    let b = token.as_bytes();
    if !b.first().is_some_and(u8::is_ascii_uppercase) || b.len() > 24 {
        return false;
    }
    tables()
        .iter()
        .any(|t| parse(token, t).is_ok_and(|m| !matches!(m.kind, Kind::Castle(_))))
}

/// The rank seen from `color`'s side as a board rank index.
fn board_rank(rank: u8, color: Color) -> u8 {
    match color {
        Color::White => rank,
        Color::Black => 7 - rank,
    }
}

fn in_squares(sq: crate::chess::Square, set: &Squares, color: Color) -> bool {
    set.files & (1 << sq.file().index()) != 0
        && set
            .rank
            .is_none_or(|r| board_rank(r, color) == sq.rank().index())
}

/// Resolves `m` on `pos`: the one legal move it names.
pub fn resolve(m: &DescMove, pos: &Position, token: &str) -> Result<Move, Diagnostic> {
    let color = pos.turn();
    let legal = pos.legal_moves();
    let mut found: Vec<Move> = Vec::new();
    for mv in legal.iter() {
        let ok = match m.kind {
            Kind::Castle(side) => mv.castling_side().is_some_and(|s| match side {
                Castle::King => s == CastlingSide::KingSide,
                Castle::Queen => s == CastlingSide::QueenSide,
                Castle::Either => true,
            }),
            _ if mv.castling_side().is_some() => false,
            Kind::To(to) => !mv.is_capture() && in_squares(mv.to(), &to, color),
            Kind::Takes(target, at) => {
                // the captured piece stands on the destination (en passant: its file)
                mv.capture() == Some(target.role)
                    && target.files & (1 << mv.to().file().index()) != 0
                    && at.is_none_or(|at| in_squares(mv.to(), &at, color))
            }
        };
        let ok = ok
            && (matches!(m.kind, Kind::Castle(_))
                || mv.role() == m.piece.role
                    && m.piece.files & (1 << mv.from().file().index()) != 0
                    && m.from.is_none_or(|f| in_squares(mv.from(), &f, color))
                    && match (m.promotion, mv.promotion()) {
                        (Some(p), Some(q)) => p == q,
                        (None, q) => q.is_none_or(|q| q == Role::Queen),
                        (Some(_), None) => false,
                    });
        if ok {
            found.push(*mv);
        }
    }
    // soft: the wing a piece is told by (`KR`), that of the piece taken (`BxQN`)
    if found.len() > 1 {
        let on_wing = |mv: &Move| {
            m.piece.wing & (1 << mv.from().file().index()) != 0
                && match m.kind {
                    Kind::Takes(t, _) => t.wing & (1 << mv.to().file().index()) != 0,
                    _ => true,
                }
        };
        if found.iter().any(on_wing) {
            found.retain(on_wing);
        }
    }
    // soft: the check or mate the marks claim (`DxP++`: the capture that mates)
    if found.len() > 1 && m.claim != Claim::None {
        let claimed = |mv: &Move| {
            let mut after = pos.clone();
            after.play_legal(mv);
            match m.claim {
                Claim::Mate => after.is_checkmate(),
                _ => after.is_check(),
            }
        };
        if found.iter().any(claimed) {
            found.retain(claimed);
        }
    }
    match found[..] {
        [mv] => Ok(mv),
        [] => Err(Diagnostic::error(
            Code::IllegalMove,
            format!(
                "illegal move {token}: no legal move fits it, read as {} descriptive notation ({})",
                english_role(m.piece.role),
                describe(m, color)
            ),
        )),
        _ => {
            let sans: Vec<String> = found
                .iter()
                .map(|mv| crate::notation::chess::pgn_san(pos, mv))
                .collect();
            Err(crate::notation::chess::ResolveError::Ambiguous {
                token: token.to_owned(),
                candidates: found,
                forms: sans,
            }
            .to_diagnostic())
        }
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    }
}

fn english_role(role: Role) -> &'static str {
    match role {
        Role::King => "a king move in",
        Role::Queen => "a queen move in",
        Role::Rook => "a rook move in",
        Role::Bishop => "a bishop move in",
        Role::Knight => "a knight move in",
        Role::Pawn => "a pawn move in",
    }
}

/// The squares a move names, in algebraic: `e4`, `c3 or f3`, `takes a pawn`.
fn describe(m: &DescMove, color: Color) -> String {
    let list = |s: &Squares| {
        let mut out = Vec::new();
        for f in 0..8u8 {
            if s.files & (1 << f) == 0 {
                continue;
            }
            let file = char::from(b'a' + f);
            match s.rank {
                Some(r) => out.push(format!("{file}{}", board_rank(r, color) + 1)),
                None => out.push(format!("the {file}-file")),
            }
        }
        out.join(" or ")
    };
    match m.kind {
        Kind::To(s) => format!("to {}", list(&s)),
        Kind::Takes(t, _) => format!("taking a {}", role_name(t.role)),
        Kind::Castle(_) => "castling".to_owned(),
    }
}

/// Parses `token` and resolves it on `pos`.
pub fn read_move(token: &str, table: &Descriptive, pos: &Position) -> Result<Move, Diagnostic> {
    let m = parse(token, table)?;
    resolve(&m, pos, token)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(table: &Descriptive, tokens: &[&str]) -> Vec<String> {
        let mut pos = Position::default();
        let mut out = Vec::new();
        for t in tokens {
            let mv = read_move(t, table, &pos).unwrap_or_else(|d| panic!("{t}: {}", d.message));
            out.push(crate::notation::chess::pgn_san(&pos, &mv));
            pos.play_legal(&mv);
        }
        out
    }

    #[test]
    fn every_row_of_the_grammar_is_read() {
        let (tables, bad) = build(DESCRIPTIVE_TSV);
        assert!(bad.is_empty(), "unread lines {bad:?}");
        assert_eq!(
            tables.iter().map(|t| t.code).collect::<Vec<_>>(),
            ["en", "es"]
        );
    }

    #[test]
    fn english_forms() {
        let en = english();
        assert_eq!(
            line(
                en,
                &[
                    "P-K4", "P-K4", "Kt-KB3", "N-QB3", "B-B4", "B-B4", "P-QKt4", "BxKtP", "P-B3",
                    "B-R4", "P-Q4", "PxP", "O-O", "P-Q6", "Q-Kt3", "Q-B3", "P-K5", "Q-Kt3",
                    "R-K.Sq.", "KKt-K2"
                ]
            ),
            [
                "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "b4", "Bxb4", "c3", "Ba5", "d4", "exd4",
                "O-O", "d3", "Qb3", "Qf6", "e5", "Qg6", "Re1", "Nge7"
            ]
        );
    }

    #[test]
    fn spanish_forms() {
        let es = table("es").unwrap();
        assert_eq!(
            line(
                es,
                &[
                    "P4R", "P4R", "C3AR", "C3AD", "A4A", "C3A", "C5C", "C2R??", "AxP++"
                ]
            ),
            [
                "e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Ng5", "Ne7", "Bxf7#"
            ]
        );
    }

    #[test]
    fn origin_qualifiers_and_ambiguity() {
        let en = english();
        let read = |fen: &str, t: &str| {
            let pos = Position::from_fen(fen).unwrap();
            read_move(t, en, &pos)
                .map(|mv| crate::notation::chess::pgn_san(&pos, &mv))
                .map_err(|d| d.code)
        };
        let rooks = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
        assert_eq!(read(rooks, "R-Q1"), Err(Code::AmbiguousMove));
        assert_eq!(read(rooks, "QR-Q1").as_deref(), Ok("Rad1"));
        assert_eq!(read(rooks, "KR-KB1").as_deref(), Ok("Rhf1"));
        assert_eq!(read(rooks, "R(QR1)-Q1").as_deref(), Ok("Rad1"));
        assert_eq!(read(rooks, "R/KR1-Q1").as_deref(), Ok("Rhd1"));
        assert_eq!(read(rooks, "P-K4"), Err(Code::IllegalMove));
        assert_eq!(read(rooks, "e4"), Err(Code::InvalidMove));
        let castles = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(read(castles, "Castles(QR)").as_deref(), Ok("O-O-O"));
        assert_eq!(read(castles, "Castles"), Err(Code::AmbiguousMove));
        assert_eq!(read(castles, "O-O").as_deref(), Ok("O-O"));
        let knights = "4k3/8/8/8/8/2N5/5N2/4K3 w - - 0 1";
        assert_eq!(read(knights, "N-Q5").as_deref(), Ok("Nd5"));
        assert_eq!(read(knights, "N-K4"), Err(Code::AmbiguousMove));
        assert_eq!(read(knights, "N/3-K4").as_deref(), Ok("Nce4"));
        assert_eq!(read(knights, "Kt(B2)-K4").as_deref(), Ok("Nfe4"));
        assert_eq!(read(knights, "N-KR8"), Err(Code::IllegalMove));
        let promote = "8/4P3/8/8/k7/8/8/4K3 w - - 0 1";
        assert_eq!(read(promote, "P-K8(Q)").as_deref(), Ok("e8=Q+"));
        assert_eq!(read(promote, "P-K8=N").as_deref(), Ok("e8=N"));
        assert_eq!(read(promote, "P-K8").as_deref(), Ok("e8=Q+"));
    }
}
