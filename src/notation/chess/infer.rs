//! The language of a whole game, inferred by legality.
//!
//! Letters collide: `R` is a rook in English, a king in French, a knight in Finnish;
//! `T` is a rook in most languages and a bishop in Vietnamese. So the language is
//! chosen per game: among the tables whose letters appear in the moves, keep those
//! under which every move replays legally. Several survivors: the most preferred one
//! (the order of `grammars/chess-pieces.tsv`: English first), and the tie is reported:
//! a warning naming the readings when they are different games, a note when they are
//! the same game (none when it is read as English). None: the one that replays
//! furthest (of equals, the preferred one), and where it failed.
//!
//! [`english_alone`] tells from the letters of a game alone when no table but English
//! can read it differently, so that the replay need not try the others.

use crate::model::diag::Code;
use std::sync::OnceLock;

use super::lang::{PieceTable, english, tables, utf8_key};
use super::resolve::{ReadError, read_play};
use super::san::write_pgn_san;
use super::syntax::{
    SanSyntax, accepts, common_into, common_lettered_alone, parse_ok, parse_ok_rest,
};
#[cfg(doc)]
use super::syntax::{Shape, common_shape};
use crate::archive::letter_bit;
use crate::chess::{Move, Position};

/// Where the chosen table stopped replaying.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InferenceFailure {
    /// 0-based index of the failing token.
    pub index: usize,
    pub token: String,
    pub error: ReadError,
}

/// The result of [`infer_language`].
#[derive(Clone, Debug)]
pub struct Inference {
    /// The table chosen.
    pub table: &'static PieceTable,
    /// Every table under which the whole list replays, in preference order (empty
    /// when none does). More than one is a tie, decided by preference.
    pub survivors: Vec<&'static PieceTable>,
    /// Tokens replayed under `table` before the end or the failure.
    pub replayed: usize,
    /// Set when no table replays the whole list: where `table` failed.
    pub failure: Option<InferenceFailure>,
    /// The survivors that read a different game than `table` does, in preference
    /// order: where their reading first differs.
    pub other_readings: Vec<OtherReading>,
}

/// A table that replays the whole game as another game than the chosen table does.
#[derive(Clone, Debug)]
pub struct OtherReading {
    pub table: &'static PieceTable,
    /// 0-based index of the first token the two tables read as different moves.
    pub index: usize,
    /// That token, as written.
    pub token: String,
    /// The move number and side of that token (`2.`, `2...`).
    pub number: String,
    /// The move in SAN (English letters) as the chosen table reads it.
    pub chosen_san: String,
    /// The move in SAN as this table reads it.
    pub san: String,
}

impl Inference {
    /// Did several tables replay the whole game?
    pub fn is_tie(&self) -> bool {
        self.survivors.len() > 1
    }

    /// A note for a tie, a warning for a failure, nothing otherwise.
    pub fn diagnostic(&self) -> Option<crate::model::diag::Diagnostic> {
        use crate::model::diag::Diagnostic;
        if let Some(f) = &self.failure {
            return Some(Diagnostic::warning(
                Code::LanguageUnknown,
                format!(
                    "no piece-letter table replays the whole game; {} replays furthest, failing at move text {}: {}",
                    self.table.name, f.token, f.error
                ),
            ));
        }
        if !self.other_readings.is_empty() {
            let mut names = vec![self.table.name];
            let mut moves = Vec::new();
            for o in &self.other_readings {
                names.push(o.table.name);
                moves.push(format!(
                    "move {} {} is {} as {} and {} as {}",
                    o.number, o.token, o.chosen_san, self.table.name, o.san, o.table.name
                ));
            }
            return Some(Diagnostic::warning(
                Code::LanguageTie,
                format!(
                    "the game replays as {}, as different games: {}; chose {}, the first in preference order",
                    names.join(", "),
                    moves.join("; "),
                    self.table.name
                ),
            ));
        }
        if self.is_tie() && self.table.code != "en" {
            let names: Vec<_> = self.survivors.iter().map(|t| t.name).collect();
            return Some(Diagnostic::note(
                Code::LanguageTie,
                format!(
                    "the game replays as {}; chose {}",
                    names.join(", "),
                    self.table.name
                ),
            ));
        }
        None
    }
}

/// Where a piece letter may stand in a token: at its start, and after a rank digit as a
/// promotion piece (`d8H`, `exf8=M`, `e8(Q)`, `e8/Q`). Empty heads are left out.
fn heads_of(token: &str) -> impl Iterator<Item = &str> {
    let t = token.trim_start();
    let after_digits = t.bytes().enumerate().filter_map(move |(i, b)| {
        if !(b'1'..=b'8').contains(&b) {
            return None;
        }
        let r = t.get(i + 1..)?;
        (!r.is_empty()).then(|| r.trim_start_matches(['=', '(', '/']))
    });
    std::iter::once(t)
        .chain(after_digits)
        .filter(|h| !h.is_empty())
}

/// Does `letter` start one of the heads ([`heads_of`]) of `tokens`?
fn any_head_starts_with(tokens: &[&str], letter: &str) -> bool {
    tokens
        .iter()
        .any(|t| heads_of(t).any(|h| h.starts_with(letter)))
}

/// Can `token` start with white space? Not when its first byte is printable ASCII or
/// the lead byte of a character outside U+0080..U+00BF and U+1000..U+3FFF (the lead
/// bytes of every non-ASCII white space character): Chinese and Persian letters are
/// decided by their first byte. (`true` before a control character: the caller trims.)
fn may_start_with_space(token: &str) -> bool {
    match token.as_bytes().first() {
        Some(&b) if b > b' ' && b < 0x80 => false,
        // the second byte of U+0085, U+00A0, U+1680, U+2000..U+207F and U+3000: a
        // figurine (U+2654..) is decided without decoding
        Some(0xC2 | 0xE1..=0xE3) => {
            matches!(
                token.as_bytes().get(1),
                Some(0x80 | 0x81 | 0x85 | 0x9A | 0xA0)
            ) && token.chars().next().is_some_and(char::is_whitespace)
        }
        Some(&b) => b <= b' ',
        None => false,
    }
}

/// The first characters of the heads of a game's tokens ([`heads_of`]), computed once
/// for all the tables: ASCII as bits, other characters by their [`utf8_key`], listed
/// without repeats (compared without decoding the text).
#[derive(Clone)]
struct Heads {
    ascii: u128,
    other_keys: Vec<u32>,
    /// The first key of `other_keys` with each value of the low six bits (0 for none):
    /// a key found in its slot is listed without a scan, and one whose slot is empty
    /// is surely not listed; only a key whose slot holds another is looked for in
    /// `other_keys` (a branch that goes one way, where a scan ends at a different
    /// place for each letter).
    other_slots: [u32; 64],
    /// One bit per low six bits of the keys of `other_keys`.
    other_low: u64,
}

impl Heads {
    /// No heads yet.
    fn new() -> Heads {
        Heads {
            ascii: 0,
            other_keys: Vec::new(),
            other_slots: [0; 64],
            other_low: 0,
        }
    }

    /// The heads of every token of `tokens`.
    fn of(tokens: &[&str]) -> Heads {
        let mut heads = Heads::new();
        for t in tokens {
            heads.add_token(t);
        }
        heads
    }

    /// Notes the heads of `t`: those of [`heads_of`] in one pass over the bytes, white
    /// space trimmed only where it may stand; then after every rank digit, past `=`,
    /// `(`, `/`, the next byte starts a head (a digit there starts another).
    #[inline(always)]
    fn add_token(&mut self, t: &str) {
        let t = if may_start_with_space(t) {
            t.trim_start()
        } else {
            t
        };
        let b = t.as_bytes();
        let mut i = self.add(b, 0);
        while let Some(&c) = b.get(i) {
            i += 1;
            if c.wrapping_sub(b'1') < 8 {
                let mut j = i;
                while matches!(b.get(j), Some(b'=' | b'(' | b'/')) {
                    j += 1;
                }
                self.add(b, j);
            }
        }
    }

    /// [`add_token`](Self::add_token) out of line: for the few tokens of a game that
    /// need it.
    #[inline(never)]
    fn add_token_apart(&mut self, t: &str) {
        self.add_token(t);
    }

    /// Notes the first character of the head at byte `at` of `b` (none past the end);
    /// returns how many bytes from `at` surely hold no digit: the length of a character
    /// outside ASCII (whose bytes are all above 127), else 0.
    #[inline]
    fn add(&mut self, b: &[u8], at: usize) -> usize {
        match b.get(at) {
            Some(&c) if c >= 128 => self.add_other(b, at),
            Some(&c) => {
                self.ascii |= 1u128 << c;
                0
            }
            None => 0,
        }
    }

    /// [`add`](Self::add) for a character outside ASCII.
    #[inline]
    fn add_other(&mut self, b: &[u8], at: usize) -> usize {
        let Some((key, len)) = b.get(at..).and_then(utf8_key) else {
            return 0;
        };
        self.add_key(key);
        len
    }

    /// Notes a head that starts with the character of [`utf8_key`] `key`.
    #[inline(always)]
    fn add_key(&mut self, key: u32) {
        self.other_low |= 1 << (key & 63);
        let slot = &mut self.other_slots[(key & 63) as usize];
        if *slot == key {
            return;
        }
        if *slot == 0 {
            *slot = key;
        } else if self.other_keys.contains(&key) {
            return;
        }
        self.other_keys.push(key);
    }

    /// Does a head start with the character of [`char_key`](super::lang::char_key)
    /// `key`?
    #[inline]
    fn has_first(&self, key: u32) -> bool {
        if key < 128 {
            self.ascii & (1u128 << key) != 0
        } else {
            let slot = self.other_slots[(key & 63) as usize];
            slot == key || (slot != 0 && self.other_keys.contains(&key))
        }
    }

    /// Does one of the table's own letters stand at a head of `tokens` (whose heads
    /// these are)? A single ASCII letter is one bit of the table's mask; another letter
    /// of one character stands at a head when a head starts with that character; a
    /// longer one is looked for in the heads only when its first character starts one.
    fn has_letter_of(&self, table: &PieceTable, tokens: &[&str]) -> bool {
        self.has_letter_in(table, |l| any_head_starts_with(tokens, l))
    }

    /// [`has_letter_of`](Self::has_letter_of), with `starts_head(l)` telling whether
    /// the letter `l` (of several characters) starts a head of the tokens: asked only
    /// when a head starts with its first character.
    #[inline]
    fn has_letter_in(&self, table: &PieceTable, mut starts_head: impl FnMut(&str) -> bool) -> bool {
        let (ascii_firsts, low_firsts) = table.first_masks();
        if self.ascii & ascii_firsts == 0 && self.other_low & low_firsts == 0 {
            // no head starts with the first character of a letter of the table
            return false;
        }
        let (ascii, others) = table.letter_heads();
        self.ascii & ascii != 0
            || table
                .other_firsts()
                .iter()
                .zip(others)
                .any(|(&(first, whole), l)| self.has_first(first) && (whole || starts_head(l)))
    }

    /// The tables with a letter at a head of `tokens` (whose heads these are), in
    /// preference order.
    fn tables<'s>(&'s self, tokens: &'s [&str]) -> impl Iterator<Item = &'static PieceTable> + 's {
        tables()
            .iter()
            .filter(move |t| self.has_letter_of(t, tokens))
    }
}

/// Replays `tokens` under `table` from `start`: how far, the failure if any, and the
/// moves read (`None` for a null move).
fn replay(
    start: &Position,
    tokens: &[&str],
    table: &PieceTable,
) -> (usize, Option<InferenceFailure>, Vec<Option<Move>>) {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(tokens.len());
    for (i, tok) in tokens.iter().enumerate() {
        match read_play(tok, table, &mut pos) {
            Ok(r) => moves.push(r.mv),
            Err(error) => {
                let failure = InferenceFailure {
                    index: i,
                    token: (*tok).to_owned(),
                    error,
                };
                return (i, Some(failure), moves);
            }
        }
    }
    (tokens.len(), None, moves)
}

/// Where the moves `other` part from `chosen` (both read from `start`, of the same
/// length): the [`OtherReading`] of `table`, or `None` when they are the same game.
fn other_reading(
    start: &Position,
    tokens: &[&str],
    chosen: &[Option<Move>],
    other: &[Option<Move>],
    table: &'static PieceTable,
) -> Option<OtherReading> {
    let index = chosen.iter().zip(other).position(|(a, b)| a != b)?;
    let mut pos = start.clone();
    for mv in chosen.iter().take(index) {
        match mv {
            Some(mv) => pos.play_unchecked(mv),
            None => pos.play_null(),
        }
    }
    let san = |mv: &Option<Move>| {
        let mut out = String::new();
        match mv {
            Some(mv) => write_pgn_san(&mut out, &pos, mv),
            None => out.push_str("--"),
        }
        out
    };
    let dots = if pos.turn() == crate::color::Color::White {
        "."
    } else {
        "..."
    };
    Some(OtherReading {
        table,
        index,
        token: tokens
            .get(index)
            .map_or_else(String::new, |t| (*t).to_owned()),
        number: format!("{}{dots}", pos.fullmoves()),
        chosen_san: san(chosen.get(index)?),
        san: san(other.get(index)?),
    })
}

/// May a game whose main-line move tokens hold the letters `letters` (one bit each, as
/// [`move_letters`](crate::archive::move_letters) records them) be read as English
/// without trying another table? Yes when every other table with one of these letters
/// as written (the others are never tried: [`infer_language`]) either cannot read them
/// all (it lacks one of the upper-case letters, which in a move is a piece letter or
/// castling's `O` or the null move's `Z`), or reads each of them as English does (the
/// same game). Then, when the game replays whole as English, [`infer_language`] chooses
/// English and reports nothing; when it does not, the caller must ask
/// [`infer_language`] (another table may replay further). Not for letters outside ASCII
/// (bit 63), nor when a table has letters of several ASCII bytes.
pub fn english_alone(letters: u64) -> bool {
    static OTHERS: OnceLock<Option<Vec<(u64, u64)>>> = OnceLock::new();
    let Some(others) = OTHERS.get_or_init(|| {
        let en = english();
        let mut others = Vec::new();
        for t in tables() {
            if !t.fast_path_ok() {
                return None;
            }
            if std::ptr::eq(t, en) {
                continue;
            }
            let (mut upper, mut differ) = (0u64, 0u64);
            for b in (b'A'..=b'Z').chain(b'a'..=b'z') {
                let reading = t.ascii_reading(b);
                if reading.0.is_some() {
                    upper |= letter_bit(b);
                }
                if reading != en.ascii_reading(b) {
                    differ |= letter_bit(b);
                }
            }
            others.push((upper, differ));
        }
        Some(others)
    }) else {
        return false;
    };
    const UPPER: u64 = (1 << 26) - 1;
    let neutral = letter_bit(b'O') | letter_bit(b'Z');
    letters & letter_bit(0x80) == 0
        && others.iter().all(|&(upper, differ)| {
            letters & upper == 0
                || letters & UPPER & !(upper | neutral) != 0
                || letters & differ == 0
        })
}

/// The tables whose letters appear in `tokens` and under which every token is at least
/// syntactically a move: a cheap first cut (no replay). When it leaves a single table,
/// that table is the only one that can replay the whole game.
pub fn readable_by(tokens: &[&str]) -> Vec<&'static PieceTable> {
    Heads::of(tokens)
        .tables(tokens)
        .filter(|t| tokens.iter().all(|tok| accepts(tok, t)))
        .collect()
}

/// What [`read_tokens`] finds.
#[derive(Clone, Debug, Default)]
pub struct Readings {
    /// The tables [`readable_by`] gives, in preference order.
    pub tables: Vec<&'static PieceTable>,
    /// When `tables` holds exactly one table: the syntax of every token under it, in
    /// order, as [`parse`](super::syntax::parse) reads it. Empty otherwise.
    pub syntax: Vec<SanSyntax>,
}

/// [`readable_by`], keeping the syntax of the tokens when a single table reads them all,
/// so that a replay under that table need not parse them again.
pub fn read_tokens(tokens: &[&str]) -> Readings {
    read_lettered(tokens).unwrap_or_else(|| read_by_heads(tokens))
}

/// [`read_tokens`] for any game: the tables with a letter at a head, each reading every
/// token, the first to read them all keeping their syntax.
fn read_by_heads(tokens: &[&str]) -> Readings {
    let mut readings = Readings::default();
    let mut syntax = Vec::new();
    // the token that stopped the last table is tried first on the next: tables that
    // share letters tend to stop at the same one (the answer is the same in any order)
    let mut stopped = None;
    for t in Heads::of(tokens).tables(tokens) {
        if stopped.is_some_and(|i: usize| tokens.get(i).is_some_and(|tok| !accepts(tok, t))) {
            continue;
        }
        if readings.tables.is_empty() {
            syntax.clear();
            syntax.reserve(tokens.len());
            let all = tokens
                .iter()
                .enumerate()
                .all(|(i, tok)| match parse_ok(tok, t) {
                    Some(s) => {
                        syntax.push(s);
                        true
                    }
                    None => {
                        stopped = Some(i);
                        false
                    }
                });
            if all {
                readings.tables.push(t);
                readings.syntax = std::mem::take(&mut syntax);
            }
        } else {
            match tokens.iter().position(|tok| !accepts(tok, t)) {
                None => readings.tables.push(t),
                Some(i) => stopped = Some(i),
            }
        }
    }
    if readings.tables.len() != 1 {
        readings.syntax.clear();
    }
    readings
}

/// How far into a game [`read_tokens`] looks for a token that starts with a letter
/// outside ASCII: a game in such letters names a piece within its first moves.
const LETTERED_WITHIN: usize = 24;

/// [`read_tokens`] for a game with a token among its first [`LETTERED_WITHIN`] that
/// starts with a letter outside ASCII of some table's own (Chinese, Persian, figurine
/// …): the tokens are read once, under that table, each token's heads noted as it is
/// read (only its letter, for a token in one of the common shapes:
/// [`shaped_heads_name_no_letter`]), and the other tables are tried only when a letter
/// of theirs stands at a head. `None` for any other game, or when that table does not
/// read every token: [`read_tokens`] reads it the general way.
fn read_lettered(tokens: &[&str]) -> Option<Readings> {
    // the lettered table only (a game read by `read_by_heads` otherwise)
    let first = tokens
        .iter()
        .take(LETTERED_WITHIN)
        .find(|tok| tok.as_bytes().first().is_some_and(|&b| b >= 0x80))?;
    let table = lettered_table(first.as_bytes())?;
    if !shaped_heads_name_no_letter() {
        return None;
    }
    let mut reading = LetteredReading::under(table);
    let mut syntax = Vec::with_capacity(tokens.len());
    for tok in tokens {
        // the move is read where it is kept
        syntax.push(SanSyntax::blank());
        let san = syntax.last_mut()?;
        if !reading.read(tok, san) {
            return None;
        }
    }
    let mut readings = Readings::default();
    for t in tables() {
        // `table` is among them (its letter stands at the head of `first`), and it
        // reads every token
        if reading.names(t, |l| any_head_starts_with(tokens, l))
            && (std::ptr::eq(t, table) || tokens.iter().all(|tok| accepts(tok, t)))
        {
            readings.tables.push(t);
        }
    }
    if let [only] = readings.tables.as_slice()
        && std::ptr::eq(*only, table)
    {
        readings.syntax = syntax;
    }
    Some(readings)
}

/// A game's main line read under the one table its letters name (Chinese, Persian,
/// figurine …, or Vietnamese by its `M`: [`of`](Self::of)) token by token, as a caller
/// walks it (the replay parses each main-line move once, as it plays it, rather than
/// the whole line ahead and again), with what is needed to settle afterwards that this
/// table is the only one that reads the whole line: the heads of the tokens read
/// ([`read_bytes`](Self::read_bytes)), and whether one was not read.
///
/// The answer of [`settle`](Self::settle) after every main-line token was given to
/// [`read`](Self::read) is the answer of [`read_tokens`]: `true` when [`read_tokens`]
/// gives this table alone (through [`read_lettered`], which reads this way, or
/// [`read_by_heads`]), whose syntax is then what was read; `false` otherwise (another
/// table reads every token too, or this one does not), and the caller then asks
/// [`read_tokens`] or [`infer_language`].
#[derive(Clone)]
pub(crate) struct LetteredReading {
    table: &'static PieceTable,
    heads: Heads,
    /// A head starts with a letter of the table's own that no other table has (not
    /// noted in `heads`: it names the table alone).
    own: bool,
    /// A token was not read under `table`.
    failed: bool,
}

impl LetteredReading {
    /// The reading of a game whose main-line tokens are `tokens` (only the first
    /// [`LETTERED_WITHIN`] are looked at), under the table its letters name: the first
    /// table, in preference order, one of whose own letters is the first character of
    /// the first token that starts outside ASCII, as [`read_lettered`] chooses it (its
    /// game is read ahead by [`read_lettered`]); when there is no such table, the
    /// table of the first token that starts with an ASCII letter of a single table's
    /// own (`M`, Vietnamese; the guess is settled after the walk like any other: such
    /// a game is read ahead by [`read_by_heads`]). `None` for a game with neither, or
    /// when the common shapes' heads may name letters (never with the current tables:
    /// [`shaped_heads_name_no_letter`]): the game is read ahead by [`read_tokens`].
    ///
    /// `tokens` gives each token's bytes; those of a token that starts outside ASCII
    /// must be the bytes of its text.
    pub fn of<'a>(tokens: impl IntoIterator<Item = &'a [u8]>) -> Option<LetteredReading> {
        if !shaped_heads_name_no_letter() {
            return None;
        }
        let mut ascii = None;
        let mut lettered = None;
        for tok in tokens.into_iter().take(LETTERED_WITHIN) {
            match tok.first() {
                Some(&b) if b >= 0x80 => {
                    lettered = Some(tok);
                    break;
                }
                Some(&b) if ascii.is_none() => ascii = ascii_owner(b),
                _ => {}
            }
        }
        let table = match lettered.and_then(lettered_table) {
            Some(table) => table,
            None => ascii?,
        };
        Some(LetteredReading::under(table))
    }

    /// A reading under `table` with no token read yet.
    fn under(table: &'static PieceTable) -> LetteredReading {
        LetteredReading {
            table,
            heads: Heads::new(),
            own: false,
            failed: false,
        }
    }

    /// The table the game is read under.
    pub fn table(&self) -> &'static PieceTable {
        self.table
    }

    /// Reads the next main-line token into `san` ([`SanSyntax::blank`] on entry): `true`
    /// with the syntax [`parse`](super::syntax::parse) gives under the table, `false`
    /// (`san` anything) when the table does not read it, which
    /// [`settle`](Self::settle) remembers.
    #[inline(always)]
    pub fn read(&mut self, token: &str, san: &mut SanSyntax) -> bool {
        self.read_bytes(token.as_bytes(), || token, san)
    }

    /// [`parse_ok`] under the table, for a token in none of the common shapes, writing
    /// the move into `san` (anything on `false`) and noting all the heads of `token`.
    #[inline(never)]
    fn read_other(&mut self, token: &str, san: &mut SanSyntax) -> bool {
        self.heads.add_token(token);
        match parse_ok_rest(token, self.table) {
            Some(read) => {
                *san = read;
                true
            }
            None => false,
        }
    }

    /// Does a letter of `t` stand at a head of the tokens read (`tokens`, drawn only
    /// when needed, for a letter of several characters)?
    fn names(&self, t: &PieceTable, tokens: impl FnMut(&str) -> bool) -> bool {
        (self.own && std::ptr::eq(t, self.table)) || self.heads.has_letter_in(t, tokens)
    }

    /// [`read`](Self::read) for a caller that holds the token's bytes and can slice its
    /// text (`token`, called only when needed: checking character boundaries costs;
    /// `bytes` are those of the text `token` gives, or those of its span when that is
    /// not on character boundaries, a text `token` gives as `""`). [`parse_ok`] under
    /// the table, noting the heads of the token: for a token in one of the common
    /// shapes, whose other heads name no letter ([`shaped_heads_name_no_letter`]), only
    /// its letter ([`Shape::Lettered`]: and not even that when the letter names no
    /// other table, which only `own` remembers) or its first byte and its promotion
    /// ([`Shape::Ascii`]: [`note_ascii_shape`]); all of them otherwise. A token in a
    /// common shape is read from its bytes ([`common_into`], [`common_lettered_alone`]:
    /// those of a span that start with a character's first byte and end with an ASCII
    /// byte are those of its text).
    #[inline(always)]
    pub fn read_bytes<'t>(
        &mut self,
        bytes: &[u8],
        token: impl FnOnce() -> &'t str,
        san: &mut SanSyntax,
    ) -> bool {
        let read = match bytes.first() {
            Some(&b) if b < 0x80 && common_into(bytes, self.table, san) => {
                note_ascii_shape(b, san, token, &mut self.heads);
                true
            }
            Some(&b) if b >= 0x80 => match common_lettered_alone(bytes, self.table, san) {
                Some(alone) => {
                    if alone {
                        self.own = true;
                    } else if let Some((key, _)) = utf8_key(bytes) {
                        self.heads.add_key(key);
                    }
                    true
                }
                None => self.read_other(token(), san),
            },
            // (`common_into` finds the shapes `common_shape` finds in ASCII)
            _ => self.read_other(token(), san),
        };
        self.failed |= !read;
        read
    }

    /// After every main-line token was [`read`](Self::read): is the table the only
    /// one that reads them all, as [`read_tokens`] decides (the only one with a letter
    /// at a head of the tokens that reads every one of them)? `tokens` gives the
    /// main-line tokens, in order: they are drawn only as far as needed to turn down
    /// the other tables with a letter at a head (none, in a game in Chinese letters;
    /// in one in Vietnamese letters, those that share `T` or `H`, each turned down at
    /// the first token it does not read, most often the first knight's move).
    pub fn settle<'a>(&self, tokens: impl Iterator<Item = &'a str>) -> bool {
        if self.failed {
            return false;
        }
        let mut drawn = Drawn {
            rest: tokens,
            tokens: Vec::new(),
        };
        // the token that turned down the last table, tried first on the next: tables
        // that share letters tend to stop at the same one
        let mut stopped = None;
        for t in tables() {
            let named = self.names(t, |l| any_head_starts_with(drawn.all(), l));
            if std::ptr::eq(t, self.table) {
                if !named {
                    return false;
                }
                continue;
            }
            if !named || stopped.is_some_and(|i| drawn.get(i).is_some_and(|tok| !accepts(tok, t))) {
                continue;
            }
            let mut i = 0;
            loop {
                match drawn.get(i) {
                    // `t` reads every token too
                    None => return false,
                    Some(tok) if !accepts(tok, t) => break,
                    Some(_) => i += 1,
                }
            }
            stopped = Some(i);
        }
        true
    }
}

/// Tokens drawn from an iterator as far as they are needed.
struct Drawn<'a, I> {
    rest: I,
    tokens: Vec<&'a str>,
}

impl<'a, I: Iterator<Item = &'a str>> Drawn<'a, I> {
    /// The `i`-th token, if there is one.
    fn get(&mut self, i: usize) -> Option<&'a str> {
        while self.tokens.len() <= i {
            self.tokens.push(self.rest.next()?);
        }
        self.tokens.get(i).copied()
    }

    /// Every token.
    fn all(&mut self) -> &[&'a str] {
        self.tokens.extend(&mut self.rest);
        &self.tokens
    }
}

/// Notes in `heads` what [`LetteredReading::read_bytes`] notes for a token in an ASCII
/// common shape ([`Shape::Ascii`]) whose first byte is
/// `first` and whose move is `san`: its first byte (a piece letter, a file or `O`),
/// and all its heads when it promotes (its other heads are files, `x`, `+` or `#`,
/// which start no letter: [`shaped_heads_name_no_letter`]).
#[inline(always)]
fn note_ascii_shape<'t>(
    first: u8,
    san: &SanSyntax,
    token: impl FnOnce() -> &'t str,
    heads: &mut Heads,
) {
    if san.promotion.is_some() {
        heads.add_token_apart(token());
    } else {
        heads.ascii |= 1u128 << (first & 0x7F);
    }
}

/// The first table, in preference order, one of whose own letters is the first
/// character of `token` (outside ASCII).
fn lettered_table(token: &[u8]) -> Option<&'static PieceTable> {
    let (key, _) = utf8_key(token)?;
    tables()
        .iter()
        .find(|t| t.other_firsts().contains(&(key, true)))
}

/// The one table, if only one, with a letter that starts with the ASCII byte `b`
/// (`M`: Vietnamese; `T`: none, several have it).
fn ascii_owner(b: u8) -> Option<&'static PieceTable> {
    static OWNERS: OnceLock<[Option<u8>; 128]> = OnceLock::new();
    let owners = OWNERS.get_or_init(|| {
        let mut owners = [None; 128];
        for (c, owner) in owners.iter_mut().enumerate() {
            let mut having = tables().iter().enumerate().filter(|(_, t)| {
                t.letters()
                    .any(|(l, _)| l.as_bytes().first() == Some(&(c as u8)))
            });
            if let (Some((i, _)), None) = (having.next(), having.next()) {
                *owner = u8::try_from(i).ok();
            }
        }
        owners
    });
    let i = (*owners.get(usize::from(b))?)?;
    tables().get(usize::from(i))
}

/// Does no table have a letter that starts with `a`…`h`, `O`, `x`, `+` or `#`? Then
/// the heads of a token in the common shapes ([`Shape::Lettered`]: its letter, then
/// heads among `a`…`h`, `x`, `+`, `#`; [`Shape::Ascii`] starting with a file or `O`,
/// no promotion: heads among `a`…`h`, `O`, `x`, `+`, `#`) name no letter but the
/// lettered one's own, and [`read_lettered`] need not note them.
fn shaped_heads_name_no_letter() -> bool {
    static NONE: OnceLock<bool> = OnceLock::new();
    *NONE.get_or_init(|| {
        tables().iter().all(|t| {
            t.letters().all(|(l, _)| {
                !matches!(
                    l.as_bytes().first(),
                    Some(b'a'..=b'h' | b'O' | b'x' | b'+' | b'#')
                )
            })
        })
    })
}

/// Infers the piece-letter language of a game's move tokens (main line, in order)
/// played from `start`. See the module docs for the rule.
pub fn infer_language(start: &Position, tokens: &[&str]) -> Inference {
    let mut candidates: Vec<&'static PieceTable> = Heads::of(tokens).tables(tokens).collect();
    if candidates.is_empty() {
        candidates.push(english());
    }
    let mut survivors = Vec::new();
    let mut readings = Vec::new();
    let mut best: Option<(&'static PieceTable, usize, Option<InferenceFailure>)> = None;
    for t in candidates {
        let (n, failure, moves) = replay(start, tokens, t);
        if failure.is_none() {
            survivors.push(t);
            readings.push(moves);
        }
        let better = match &best {
            None => true,
            Some((_, bn, bf)) => {
                // a full replay beats any failure; otherwise further wins; ties keep
                // the earlier (preferred) table
                (failure.is_none() && bf.is_some())
                    || (failure.is_some() == bf.is_some() && n > *bn)
            }
        };
        if better {
            best = Some((t, n, failure));
        }
    }
    let (table, replayed, failure) = best.unwrap_or((english(), 0, None));
    // the first survivor is the chosen table
    let mut other_readings = Vec::new();
    if let Some((chosen, rest)) = readings.split_first() {
        for (t, moves) in survivors.iter().skip(1).zip(rest) {
            other_readings.extend(other_reading(start, tokens, chosen, moves, t));
        }
    }
    Inference {
        table,
        survivors,
        replayed,
        failure,
        other_readings,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::type_complexity)]
mod tests {
    use super::*;
    use crate::notation::chess::lang::char_key;

    fn toks(s: &str) -> Vec<&str> {
        s.split_whitespace()
            .filter(|t| !t.ends_with('.') && !t.chars().all(|c| c.is_ascii_digit()))
            .collect()
    }

    #[test]
    fn morphy_in_each_language() {
        let cases: &[(&str, &str)] = &[
            (
                "en",
                "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#",
            ),
            (
                "vi",
                "e4 e5 Mf3 d6 d4 Tg4 dxe5 Txf3 Hxf3 dxe5 Tc4 Mf6 Hb3 He7 Mc3 c6 Tg5 b5 Mxb5 cxb5 Txb5+ Mbd7 O-O-O Xd8 Xxd7 Xxd7 Xd1 He6 Txd7+ Mxd7 Hb8+ Mxb8 Xd8#",
            ),
            (
                "fr",
                "e4 e5 Cf3 d6 d4 Fg4 dxe5 Fxf3 Dxf3 dxe5 Fc4 Cf6 Db3 De7 Cc3 c6 Fg5 b5 Cxb5 cxb5 Fxb5+ Cbd7 O-O-O Td8 Txd7 Txd7 Td1 De6 Fxd7+ Cxd7 Db8+ Cxb8 Td8#",
            ),
            (
                "de",
                "e4 e5 Sf3 d6 d4 Lg4 dxe5 Lxf3 Dxf3 dxe5 Lc4 Sf6 Db3 De7 Sc3 c6 Lg5 b5 Sxb5 cxb5 Lxb5+ Sbd7 O-O-O Td8 Txd7 Txd7 Td1 De6 Lxd7+ Sxd7 Db8+ Sxb8 Td8#",
            ),
            (
                "es",
                "e4 e5 Cf3 d6 d4 Ag4 dxe5 Axf3 Dxf3 dxe5 Ac4 Cf6 Db3 De7 Cc3 c6 Ag5 b5 Cxb5 cxb5 Axb5+ Cbd7 O-O-O Td8 Txd7 Txd7 Td1 De6 Axd7+ Cxd7 Db8+ Cxb8 Td8#",
            ),
            (
                "nl",
                "e4 e5 Pf3 d6 d4 Lg4 dxe5 Lxf3 Dxf3 dxe5 Lc4 Pf6 Db3 De7 Pc3 c6 Lg5 b5 Pxb5 cxb5 Lxb5+ Pbd7 O-O-O Td8 Txd7 Txd7 Td1 De6 Lxd7+ Pxd7 Db8+ Pxb8 Td8#",
            ),
            (
                "ru",
                "e4 e5 Кf3 d6 d4 Сg4 dxe5 Сxf3 Фxf3 dxe5 Сc4 Кf6 Фb3 Фe7 Кc3 c6 Сg5 b5 Кxb5 cxb5 Сxb5+ Кbd7 O-O-O Лd8 Лxd7 Лxd7 Лd1 Фe6 Сxd7+ Кxd7 Фb8+ Кxb8 Лd8#",
            ),
            (
                "zh",
                "e4 e5 马f3 d6 d4 象g4 dxe5 象xf3 后xf3 dxe5 象c4 马f6 后b3 后e7 马c3 c6 象g5 b5 马xb5 cxb5 象xb5+ 马bd7 O-O-O 车d8 车xd7 车xd7 车d1 后e6 象xd7+ 马xd7 后b8+ 马xb8 车d8#",
            ),
            (
                "fa",
                "e4 e5 اf3 d6 d4 فg4 dxe5 فxf3 وxf3 dxe5 فc4 اf6 وb3 وe7 اc3 c6 فg5 b5 اxb5 cxb5 فxb5+ اbd7 O-O-O رd8 رxd7 رxd7 رd1 وe6 فxd7+ اxd7 وb8+ اxb8 رd8#",
            ),
            (
                "figurine",
                "e4 e5 ♘f3 d6 d4 ♗g4 dxe5 ♗xf3 ♕xf3 dxe5 ♗c4 ♘f6 ♕b3 ♕e7 ♘c3 c6 ♗g5 b5 ♘xb5 cxb5 ♗xb5+ ♘bd7 O-O-O ♖d8 ♖xd7 ♖xd7 ♖d1 ♕e6 ♗xd7+ ♘xd7 ♕b8+ ♘xb8 ♖d8#",
            ),
        ];
        for &(code, game) in cases {
            let t = toks(game);
            let inf = infer_language(&Position::default(), &t);
            assert!(inf.failure.is_none(), "{code}: {:?}", inf.failure);
            assert_eq!(inf.replayed, t.len());
            // es and it share every letter: es is preferred and the tie reported
            let want = code;
            assert_eq!(
                inf.table.code,
                want,
                "{code}: survivors {:?}",
                inf.survivors.iter().map(|t| t.code).collect::<Vec<_>>()
            );
            if code == "es" {
                assert!(inf.survivors.iter().any(|t| t.code == "it"));
                assert!(inf.is_tie());
                assert!(inf.diagnostic().is_some_and(|d| d.code == "language-tie"));
            }
        }
    }

    #[test]
    fn readable_by_cuts_by_syntax() {
        let vi =
            toks("e4 e5 Mf3 Mc6 Tb5 a6 Ta4 Mf6 0-0 Te7 Xe1 b5 Tb3 d6 c3 0-0 h3 Mb8 d4 Mbd7 Hd1");
        let codes: Vec<_> = readable_by(&vi).iter().map(|t| t.code).collect();
        assert_eq!(codes, ["vi"]);
        let en = toks("e4 e5 Nf3 Nc6");
        assert!(readable_by(&en).iter().any(|t| t.code == "en"));
        assert!(readable_by(&toks("e4 Zz9")).is_empty());
    }

    #[test]
    fn heads_of_tokens() {
        let cases: &[(&str, &[&str])] = &[
            ("e4", &["e4"]),
            ("Nf3", &["Nf3"]),
            ("d8H", &["d8H", "H"]),
            ("exf8=M+", &["exf8=M+", "M+"]),
            ("e8(Q)", &["e8(Q)", "Q)"]),
            ("e8/Q", &["e8/Q", "Q"]),
            ("e8=", &["e8="]),
            ("Ng1f3", &["Ng1f3", "f3"]),
            (" 马f3", &["马f3"]),
            ("", &[]),
            ("b8=♕", &["b8=♕", "♕"]),
            ("a9", &["a9"]),
        ];
        for &(token, want) in cases {
            let got: Vec<_> = heads_of(token).collect();
            assert_eq!(got, want, "{token}");
        }
    }

    #[test]
    fn may_start_with_space_agrees_with_trim() {
        // never `false` before white space; `false` before every printable ASCII
        // byte and every Chinese, Persian and figurine letter
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let t = format!("{c}f3");
            let may = may_start_with_space(&t);
            assert!(may || !c.is_whitespace(), "U+{:04X}", u32::from(c));
            let decided = ('!'..='~').contains(&c)
                || ('\u{4E00}'..='\u{9FFF}').contains(&c)
                || ('\u{0600}'..='\u{06FF}').contains(&c)
                || ('\u{2654}'..='\u{265F}').contains(&c);
            assert!(!(decided && may), "U+{:04X}", u32::from(c));
        }
        let cases: &[(&str, bool)] = &[
            ("", false),
            (" e4", true),
            ("\te4", true),
            ("\u{3000}马f3", true),
            ("\u{a0}e4", true),
            ("马f3", false),
            ("♘f3", false),
            ("اf3", false),
            ("e4", false),
        ];
        for &(t, want) in cases {
            assert_eq!(may_start_with_space(t), want, "{t:?}");
        }
    }

    #[test]
    fn heads_note_the_first_character_of_every_head() {
        let tokens: &[&str] = &[
            "e4",
            "Nf3",
            "d8H",
            "exf8=M+",
            "e8(Q)",
            "e8/Q",
            "e8=",
            " 马f3",
            "",
            "b8=♕",
            "a9",
            "\u{3000}♘f3",
            "e8=(/♛",
            "اسبf3",
            "Крe2",
            "1234",
            "9x",
            // 丬 (U+4E2C) and 马 (U+9A6C) share their low six bits: one slot
            "丬f3",
            "马f3",
        ];
        for n in 0..=tokens.len() {
            let some = tokens.get(..n).unwrap();
            let heads = Heads::of(some);
            let mut want_ascii = 0u128;
            let mut want_other = Vec::new();
            for h in some.iter().flat_map(|t| heads_of(t)) {
                let c = h.chars().next().unwrap();
                match u8::try_from(c) {
                    Ok(b) if b < 128 => want_ascii |= 1 << b,
                    _ if want_other.contains(&char_key(c)) => {}
                    _ => want_other.push(char_key(c)),
                }
            }
            assert_eq!(heads.ascii, want_ascii, "{some:?}");
            assert_eq!(heads.other_keys, want_other, "{some:?}");
        }
    }

    #[test]
    fn heads_find_the_letters_of_each_table() {
        // the test before the first-character sets: a letter starts one of the heads
        let naive = |tokens: &[&str], t: &PieceTable| {
            t.letters().any(|(l, _)| {
                tokens
                    .iter()
                    .any(|tok| heads_of(tok).any(|h| h.starts_with(l)))
            })
        };
        let games: &[&[&str]] = &[
            &["e4", "e5", "Nf3"],
            &["e4", "Mf3", "Tb5"],
            &["Крe2", "Кf3"],
            &["Кf3"],
            &["Кe2"],
            &["اسبf3"],
            &["اسf3"],
            &["اf3", "شe2"],
            &["车d1", "馬f3"],
            // 丬 takes the slot 马 would have: 马 is found past it
            &["丬f3", "马f3"],
            &["丬f3"],
            &["♘f3", "♞f6"],
            &["b8H"],
            &["b8=D", "0-0"],
            &["e8(Q)"],
            &["e8/♕"],
            &[],
            &[""],
            &["O-O", "--"],
        ];
        for &tokens in games {
            let heads = Heads::of(tokens);
            for t in tables() {
                assert_eq!(
                    heads.has_letter_of(t, tokens),
                    naive(tokens, t),
                    "{tokens:?} {}",
                    t.code
                );
            }
        }
    }

    /// `read_tokens` keeps the syntax of every token under the one table left (as
    /// [`crate::notation::chess::parse`] reads it), and none when several or no tables
    /// are left.
    fn assert_syntax_of_a_sole_table(r: &Readings, tokens: &[&str], what: &str) {
        match r.tables.as_slice() {
            [only] => {
                let want: Vec<_> = tokens
                    .iter()
                    .map(|tok| crate::notation::chess::parse(tok, only).unwrap())
                    .collect();
                assert_eq!(r.syntax, want, "{what}");
            }
            _ => assert!(r.syntax.is_empty(), "{what}"),
        }
    }

    #[test]
    fn read_tokens_keeps_the_syntax_of_a_sole_table() {
        let games: &[(&str, &[&str])] = &[
            ("马f3 d6 车xd7 后b8+ e8=后 O-O-O", &["zh"]),
            ("اf3 d6 رxd7 وb8+ اسبxf3", &["fa"]),
            ("♘f3 d6 ♖xd7 ♕b8+ b8=♕", &["figurine"]),
            ("e4 e5 Mf3 Mc6 Tb5 a6 Xe1 Hd1", &["vi"]),
            ("Кf3 Крe2 Лd1", &["ru"]),
            ("e4 e5 Nf3 Nc6", &["en"]),
            ("e4 e5 Sf3 Sc6 Lb5", &["de", "sv"]),
            ("e4 Zz9", &[]),
            ("e4 e5", &[]),
            ("马f3 Zz9", &[]),
        ];
        for &(game, codes) in games {
            let t = toks(game);
            let r = read_tokens(&t);
            let got: Vec<_> = r.tables.iter().map(|t| t.code).collect();
            assert_eq!(got, codes, "{game}");
            let readable: Vec<_> = readable_by(&t).iter().map(|t| t.code).collect();
            assert_eq!(got, readable, "{game}");
            assert_syntax_of_a_sole_table(&r, &t, game);
        }
    }

    /// `read_tokens` (first-character sets, the lettered fast path, the token that
    /// stopped the last table tried first) finds what `readable_by` and `parse` find,
    /// on games mixed from the letters of every table, odd forms and non-moves.
    #[test]
    fn read_tokens_agrees_with_readable_by_on_mixed_games() {
        let pool = [
            "e4",
            "e5",
            "exd5",
            "O-O",
            "0-0-0",
            "e8=Q",
            "d8H",
            "e2e4",
            "--",
            "Zz9",
            "e9",
            "Nf3",
            "N1f3",
            "Nbd7",
            "Mf3",
            "Sf3",
            "Cf3",
            "Pf3",
            "Jf3",
            "Rd1",
            "Tb5",
            "Lb5",
            "Ab5",
            "Fc4",
            "Hd1",
            "Dd1",
            "Vb1",
            "Xe1",
            "Wd1",
            "Gb5",
            "Кf3",
            "Крe2",
            "Лd1",
            "Фd1",
            "Сb5",
            "马f3",
            "車d1",
            "车xd7",
            "后b8+",
            "兵e4",
            "e8=后",
            "王e2",
            "象1b5",
            "اf3",
            "اسبf3",
            "شe2",
            "وd1",
            "رxd7",
            "فb5",
            "♘f3",
            "♞f6",
            "♚e7",
            "b8=♕",
            "♖1e1#",
            "\u{3000}马f3",
            "ｅ４",
            "x",
            "",
        ];
        let mut rng = crate::testing::XorShift::new(0x2545_F491_4F6C_DD1D);
        for _ in 0..3_000 {
            let len = 1 + rng.below(8);
            let game: Vec<&str> = (0..len).map(|_| pool[rng.below(pool.len())]).collect();
            let r = read_tokens(&game);
            let want = readable_by(&game);
            let codes = |ts: &[&'static PieceTable]| ts.iter().map(|t| t.code).collect::<Vec<_>>();
            assert_eq!(codes(&r.tables), codes(&want), "{game:?}");
            assert_syntax_of_a_sole_table(&r, &game, &format!("{game:?}"));
        }
    }

    /// `read_lettered` (one pass under the table of the first letter outside ASCII, the
    /// heads noted as the tokens are read) finds what the general path finds, on games
    /// in one script with tokens of every other kind mixed in.
    #[test]
    fn lettered_reading_agrees_with_the_general_path() {
        let scripts: [&[&str]; 7] = [
            &[
                "马f3", "車d1", "车xd7", "后b8+", "兵e4", "王e2", "象1b5", "马bd7", "象xf3#",
                "后e7", "e8=后", "马1xd2", "王xe2",
            ],
            &[
                "اf3", "اسبf3", "شe2", "وd1", "رxd7", "فb5", "ف1b5", "وxe7+", "اbxd7", "e8=و",
            ],
            &[
                "♘f3", "♞f6", "♚e7", "♖1e1#", "♕xd8+", "♗bd2", "b8=♕", "♙e4", "♘gxe2",
            ],
            &["Кf3", "Крe2", "Лd1", "Фd1", "Сb5", "крe2", "Кbd7", "e8=Ф"],
            // letters in ASCII, some of a single table's own (`M`, `X`; `W`, `G`; `J`)
            &[
                "Mf3", "Tb5", "Xe1", "Hd1", "Vb1", "Mbd7", "Txf3", "Hxd8+", "d8H", "exd8=M",
                "Xa1e1", "e4", "exd5", "O-O",
            ],
            &["Wd1", "Gb5", "Sf3", "Hd1", "Kg1", "e8=W", "d4", "Gxf7+"],
            &["Jf3", "Vb5", "Sd1", "Dd1", "Kf1", "e8=D", "c4"],
        ];
        let others = [
            "e4",
            "e5",
            "exd5",
            "bxc3",
            "O-O",
            "O-O-O+",
            "0-0",
            "e8=Q",
            "exd8=Q#",
            "d8H",
            "Nf3",
            "Mf3",
            "Tb5",
            "Rd1",
            "--",
            "Zz9",
            "e9",
            "",
            "x",
            "e2e4",
            "ｅ４",
            "b8=♕",
            "e8=后",
            "♘f3",
            "马f3",
            "اسبf3",
            "Крe2",
            "Кр",
            "\u{3000}马f3",
            "a8=D",
            "Ωf3",
            "é",
            "马",
            "马f9",
            "e4e5",
            "马f3!?",
            "ex",
        ];
        let codes = |ts: &[&'static PieceTable]| ts.iter().map(|t| t.code).collect::<Vec<_>>();
        let mut rng = crate::testing::XorShift::new(0x9E37_79B9_7F4A_7C15);
        let mut lettered = 0;
        let mut other_named = 0;
        let mut settled = [0; 2];
        for _ in 0..10_000 {
            let script = scripts[rng.below(scripts.len())];
            let len = 1 + rng.below(40);
            let mixed = rng.below(4);
            let game: Vec<&str> = (0..len)
                .map(|_| {
                    if rng.below(16) < mixed {
                        others[rng.below(others.len())]
                    } else {
                        script[rng.below(script.len())]
                    }
                })
                .collect();
            let general = read_by_heads(&game);
            if let Some(mut reading) = LetteredReading::of(game.iter().map(|t| t.as_bytes())) {
                // read as the replay reads it: token by token until one is not read
                let mut san = SanSyntax::blank();
                let read = game.iter().all(|tok| {
                    san = SanSyntax::blank();
                    reading.read(tok, &mut san)
                });
                let only =
                    matches!(general.tables.as_slice(), [t] if std::ptr::eq(*t, reading.table));
                assert_eq!(reading.settle(game.iter().copied()), only, "{game:?}");
                settled[usize::from(only)] += 1;
                if read {
                    // the heads noted name every table the heads of all tokens name
                    // (but the reading's own, which they name)
                    let heads = Heads::of(&game);
                    for t in tables().iter().filter(|t| !std::ptr::eq(*t, reading.table)) {
                        other_named += usize::from(heads.has_letter_of(t, &game));
                        assert_eq!(
                            reading.heads.has_letter_of(t, &game),
                            heads.has_letter_of(t, &game),
                            "{} {game:?}",
                            t.code
                        );
                    }
                }
            }
            if let Some(r) = read_lettered(&game) {
                lettered += 1;
                assert_eq!(codes(&r.tables), codes(&general.tables), "{game:?}");
                assert_eq!(r.syntax, general.syntax, "{game:?}");
            }
            let r = read_tokens(&game);
            assert_eq!(codes(&r.tables), codes(&general.tables), "{game:?}");
            assert_eq!(r.syntax, general.syntax, "{game:?}");
        }
        assert!(lettered > 2_000, "{lettered}");
        // games read whole by the lettered table where another table's letter stands
        // at a head (a figurine under Chinese …)
        assert!(other_named > 50, "{other_named}");
        // both answers of `settle`, many times
        assert!(settled.iter().all(|&n| n > 1_000), "{settled:?}");
    }

    #[test]
    fn promotion_letters_count() {
        let start = Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let inf = infer_language(&start, &["b8H"]);
        assert_eq!(inf.table.code, "vi");
        let inf = infer_language(&start, &["b8=D"]);
        assert_eq!(inf.table.code, "de");
        assert!(inf.is_tie());
        let d = inf.diagnostic().unwrap();
        assert_eq!(
            (d.code.as_str(), d.severity, d.message.as_str()),
            (
                "language-tie",
                crate::model::diag::Severity::Note,
                "the game replays as German, French, Spanish, Italian, Portuguese, Dutch, Czech, Swedish, Finnish; chose German"
            )
        );
    }

    #[test]
    fn failure_reports_furthest() {
        let t = toks("e4 e5 Nf3 Nc6 Bb5 Qq5");
        let inf = infer_language(&Position::default(), &t);
        assert_eq!(inf.table.code, "en");
        assert_eq!(inf.replayed, 5);
        let d = inf.diagnostic().unwrap();
        assert_eq!(
            (d.code.as_str(), d.severity, d.message.as_str()),
            (
                "language-unknown",
                crate::model::diag::Severity::Warning,
                "no piece-letter table replays the whole game; English replays furthest, failing at move text Qq5: invalid move Qq5: expected a square, a piece letter, castling or --, found Qq5"
            )
        );
        let f = inf.failure.unwrap();
        assert_eq!((f.index, f.token.as_str()), (5, "Qq5"));
    }
}
