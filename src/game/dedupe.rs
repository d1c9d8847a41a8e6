//! Duplicate games (issue 28, `convert --dedupe`): exact duplicates (the same start, the
//! same main line) and prefix duplicates (a main line that another game's main line
//! continues, as relay feeds and corrections produce), found in two passes over the
//! games' fingerprints in a table of a few dozen bytes per distinct main line.
//!
//! A game is fingerprinted by the hashes of its main line ([`line_hashes`]): a 64-bit
//! hash of the start (the variant, the start position, and by [`DedupeBy`] the two
//! players' names, folded and in any word order, and the date and round), then one
//! after each ply, each computed from the one before and the move. The last is the
//! game's key; the others are the keys its prefixes would have.
//!
//! The first pass ([`Duplicates::learn`], every game in input order, as it is read)
//! records each distinct key once (an `Entry`, 24 bytes, in chunks that never move,
//! plus a 4-byte slot and a 2-byte check of an open-addressing index kept at most three
//! quarters full) with the game kept for it, and tells the caller the entry. The
//! second ([`Duplicates::mark_entry`], entry by entry, with the prefix hashes of one
//! game of each line: `convert` keeps those of the first in a spool file beside its
//! converted output; [`Duplicates::mark`] takes any game's) looks each prefix up among
//! all the keys: a hit is a shorter line that this one continues, which notes the
//! longest line continuing it. The third ([`Duplicates::verdict_of`], in input order,
//! as the games are written) gives each game its verdict from its entry, with no
//! lookup ([`Duplicates::verdict`] finds the entry from the hashes).
//!
//! Memory is bounded: at most [`LINES_MAX`] distinct lines (32 MB). A game of a new
//! line met when the table is full is not recorded: written, never compared, and
//! counted ([`Duplicates::unrecorded`]); the games of lines recorded are still compared
//! in full.
//!
//! The kept game of a set of duplicates: the longest main line (a prefix is merged into
//! the longest game that continues it; between two of equal length, the first); among
//! exact duplicates, the one with more tags, then the first. Games that were not read
//! to their end (partial, failed), games without a move and games of more than 65,535
//! plies take no part: always kept, never a reason to leave another out.
//!
//! A hash collision (two different lines with one key, about one chance in 10^8 per
//! lookup pair for a million lines) would merge two games; the ply count is checked
//! too, which makes a false prefix hit need a collision at the same length.

use crate::model::game::{AnyMove, Game, StartPosition, Status};

/// What two games must share, besides the start and the moves, to be duplicates.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DedupeBy {
    /// The same players (below), and the same `Date` and `Round` as written: one game
    /// of one event (a relay snapshot and the finished game, two copies of a game),
    /// not two games the same players began alike.
    Game,
    /// The same `White` and `Black` (folded: case, accents, word order).
    Players,
    /// The moves alone (pgn-extract `-D`'s rule): two different pairs of players who
    /// played the same short game are duplicates.
    Moves,
}

/// Where a game is: its number among the games of the whole run (the first pass and
/// the second number them alike), its first line, its number of tags.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameRef {
    pub seq: u32,
    pub line: u32,
    pub tags: u16,
}

/// What the second pass says of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Written: no duplicate of it, or it is the one kept.
    Kept,
    /// Not fingerprinted (not read to its end, no move, too long): written, never
    /// compared.
    Ignored,
    /// Left out: the same main line as the kept game `kept` (its `seq` and `line`).
    Exact { kept: GameRef },
    /// Left out: its main line begins the longer main line of `kept`, of `plies` plies.
    Prefix { kept: GameRef, plies: u16 },
    /// Not met in the first pass (the input changed between the passes): written.
    Unknown,
}

/// One distinct main line: its key, the game kept for it, its length, and the longest
/// line found to continue it.
#[derive(Copy, Clone, Debug)]
struct Entry {
    key: u64,
    /// The kept game of the lines of this key (more tags, then the first).
    seq: u32,
    line: u32,
    plies: u16,
    tags: u16,
    /// The entry of the longest line that continues this one, plus one (0: none).
    longer: u32,
}

/// The entries, in chunks of a fixed size: the table grows without ever copying what
/// it holds (a `Vec` doubling would hold the old and the new block at once).
#[derive(Debug, Default)]
struct Chunks {
    chunks: Vec<Vec<Entry>>,
    len: usize,
}

/// Entries per chunk (1.5 MB).
const CHUNK: usize = 1 << 16;

impl Chunks {
    fn get(&self, i: usize) -> Option<&Entry> {
        self.chunks.get(i / CHUNK).and_then(|c| c.get(i % CHUNK))
    }

    fn get_mut(&mut self, i: usize) -> Option<&mut Entry> {
        self.chunks
            .get_mut(i / CHUNK)
            .and_then(|c| c.get_mut(i % CHUNK))
    }

    fn push(&mut self, e: Entry) {
        match self.chunks.last_mut() {
            Some(c) if c.len() < CHUNK => c.push(e),
            _ => {
                let mut c = Vec::with_capacity(CHUNK);
                c.push(e);
                self.chunks.push(c);
            }
        }
        self.len += 1;
    }

    fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.chunks.iter().flatten()
    }

    fn bytes(&self) -> usize {
        self.chunks.len() * CHUNK * std::mem::size_of::<Entry>()
    }
}

/// The table of distinct main lines: see the module docs.
#[derive(Debug, Default)]
pub struct Duplicates {
    entries: Chunks,
    /// Open addressing, linear probing: an entry's index plus one, or 0 for an empty
    /// slot; a power of two long, at most three quarters full.
    slots: Vec<u32>,
    /// Beside each slot, 16 bits of its entry's key (never 0; 0: an empty slot), so that
    /// a lookup that misses reads this array alone, not the entries.
    checks: Vec<u16>,
    /// Games fingerprinted by each pass.
    learned: u64,
    judged: u64,
    /// Games of a new line met when the table was full ([`LINES_MAX`]): written,
    /// never compared.
    unrecorded: u64,
}

/// The distinct main lines the table holds, its memory bound: 24 bytes each plus a
/// 4-byte slot and a 2-byte check (2^21 of them at most), 36 MB in all.
pub const LINES_MAX: usize = 1_000_000;

/// A 64-bit finalizer (MurmurHash3's `fmix64`): a bijection whose output bits each
/// depend on every input bit.
fn fmix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// A key's 16-bit check (never 0, which marks an empty slot).
fn check(key: u64) -> u16 {
    ((key >> 48) as u16).max(1)
}

/// Bytes folded into a hash, eight at a time.
fn hash_bytes(mut h: u64, bytes: &[u8]) -> u64 {
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word.get_mut(..chunk.len())
            .unwrap_or(&mut [])
            .copy_from_slice(chunk);
        h = fmix(h ^ u64::from_le_bytes(word));
    }
    fmix(h ^ bytes.len() as u64)
}

/// A move as a number: the squares and the promotion (a move is fully told by them
/// and the position it is played in, which the hash chain stands for).
fn move_code(m: &AnyMove) -> u64 {
    use crate::chess::Move as M;
    match m {
        AnyMove::Chess(c) => {
            let (kind, a, b, p) = match *c {
                M::Normal {
                    from,
                    to,
                    promotion,
                    ..
                } => (
                    1u64,
                    from.index(),
                    to.index(),
                    promotion.map_or(0, |r| r as u64 + 1),
                ),
                M::EnPassant { from, to } => (2, from.index(), to.index(), 0),
                M::Castle { king, rook } => (3, king.index(), rook.index(), 0),
            };
            let (a, b) = (u64::from(a), u64::from(b));
            kind | a << 8 | b << 16 | p << 24
        }
        AnyMove::Xiangqi(x) => 5 | u64::from(x.from.index()) << 8 | u64::from(x.to.index()) << 16,
        AnyMove::Null => 6,
    }
}

/// Whether a game takes part in deduplication: read to its end, with a move, and at
/// most 65,535 plies.
pub fn eligible(game: &Game) -> bool {
    matches!(game.status(), Status::Clean | Status::Repaired)
        && !game.moves.moves.is_empty()
        && game.moves.moves.len() <= usize::from(u16::MAX)
}

/// A name folded ([`super::select::fold`]) into `out` (cleared first): an ASCII name
/// (most of them) in lower case, which is what the fold makes of it, without its
/// Unicode passes.
fn fold_into(name: &str, out: &mut String) {
    out.clear();
    if name.is_ascii() {
        out.push_str(name);
        out.make_ascii_lowercase();
    } else {
        out.push_str(&super::select::fold(name));
    }
}

/// The players of a game as compared: each name folded, its words sorted.
fn players_text(game: &Game) -> String {
    let mut folded = String::new();
    let mut side = |tag: &str, out: &mut String| {
        fold_into(game.tags.get(tag).unwrap_or(""), &mut folded);
        let mut words: Vec<&str> = folded
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        words.sort_unstable();
        for (i, w) in words.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(w);
        }
    };
    let mut text = String::new();
    let white = if game.variant.kind() == crate::model::game::GameKind::Xiangqi
        && game.tags.get("White").is_none()
    {
        "Red"
    } else {
        "White"
    };
    side(white, &mut text);
    text.push('\u{0}');
    side("Black", &mut text);
    text
}

/// The standard start and its FEN, formatted once (most games start there).
static START: std::sync::LazyLock<(crate::chess::Position, String)> =
    std::sync::LazyLock::new(|| {
        let p = crate::chess::Position::default();
        let fen = p.fen();
        (p, fen)
    });

/// The hashes of a game's main line into `out` (cleared first): the start's, then one
/// after each ply (`out.len()` is the number of plies plus one). False, with `out`
/// empty, when the game takes no part ([`eligible`]).
pub fn line_hashes(game: &Game, by: DedupeBy, out: &mut Vec<u64>) -> bool {
    out.clear();
    if !eligible(game) {
        return false;
    }
    let mut h = hash_bytes(0x6b79_7068_755f_6464, game.variant.name().as_bytes());
    h = match &game.start {
        StartPosition::Chess(p) if **p == START.0 => hash_bytes(h, START.1.as_bytes()),
        StartPosition::Chess(p) => hash_bytes(h, p.fen().as_bytes()),
        StartPosition::Xiangqi(p) => hash_bytes(h, p.fen().as_bytes()),
    };
    if by != DedupeBy::Moves {
        h = hash_bytes(h, players_text(game).as_bytes());
    }
    if by == DedupeBy::Game {
        for tag in ["Date", "Round"] {
            h = hash_bytes(h, game.tags.get(tag).unwrap_or("").trim().as_bytes());
        }
    }
    out.reserve(game.moves.moves.len() + 1);
    out.push(h);
    for node in &game.moves.moves {
        // the move's code spread over the word by an odd multiplier, then mixed in
        h = fmix(h ^ move_code(&node.mv).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        out.push(h);
    }
    true
}

impl Duplicates {
    pub fn new() -> Duplicates {
        Duplicates::default()
    }

    /// Bytes the table holds (its entries and index, as allocated).
    pub fn bytes(&self) -> usize {
        self.entries.bytes()
            + self.slots.capacity() * std::mem::size_of::<u32>()
            + self.checks.capacity() * std::mem::size_of::<u16>()
    }

    /// Distinct main lines recorded.
    pub fn lines(&self) -> usize {
        self.entries.len
    }

    /// Games whose line was not recorded, the table being full ([`LINES_MAX`]).
    pub fn unrecorded(&self) -> u64 {
        self.unrecorded
    }

    /// Games fingerprinted in the first pass and in the second.
    pub fn games(&self) -> (u64, u64) {
        (self.learned, self.judged)
    }

    /// The slot of `key` of `plies` plies: `Ok` with the entry's index when there,
    /// else `Err` with the empty slot where it would go.
    fn find(&self, key: u64, plies: u16) -> Result<usize, usize> {
        let mask = self.slots.len().wrapping_sub(1);
        if self.slots.is_empty() {
            return Err(0);
        }
        let mut i = (fmix(key) as usize) & mask;
        let want = check(key);
        loop {
            match self.checks.get(i).copied().unwrap_or(0) {
                0 => return Err(i),
                c if c == want => {
                    let e = self.slots.get(i).map_or(0, |&s| s as usize).wrapping_sub(1);
                    if let Some(entry) = self.entries.get(e)
                        && entry.key == key
                        && entry.plies == plies
                    {
                        return Ok(e);
                    }
                }
                _ => {}
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the index (or makes the first), putting every entry back.
    fn grow(&mut self) {
        let len = (self.slots.len() * 2).max(1 << 10);
        self.slots = Vec::new();
        self.checks = Vec::new();
        self.slots = vec![0; len];
        self.checks = vec![0; len];
        let mask = len - 1;
        for (e, entry) in self.entries.iter().enumerate() {
            let mut i = (fmix(entry.key) as usize) & mask;
            while self.checks.get(i).is_some_and(|&c| c != 0) {
                i = (i + 1) & mask;
            }
            if let (Some(s), Some(c)) = (self.slots.get_mut(i), self.checks.get_mut(i)) {
                (*s, *c) = (e as u32 + 1, check(entry.key));
            }
        }
    }

    /// Records that entry `longer` continues each prefix of its line that is a
    /// recorded line, when it is longer than what continued it so far (on equal
    /// length, the entry recorded first). `prefixes[i]`: the hash after `i + 1` plies.
    fn mark_prefixes(&mut self, prefixes: &[u64], longer: usize) {
        let plies = self.entries.get(longer).map_or(0, |e| e.plies);
        for (i, &h) in prefixes.iter().enumerate() {
            let Ok(p) = u16::try_from(i + 1) else { break };
            if p >= plies {
                break;
            }
            if let Ok(e) = self.find(h, p) {
                let current = self
                    .entries
                    .get(e)
                    .and_then(|x| (x.longer as usize).checked_sub(1));
                let better = match current.and_then(|c| self.entries.get(c).map(|x| (c, x))) {
                    None => true,
                    Some((c, x)) => {
                        (plies, std::cmp::Reverse(longer)) > (x.plies, std::cmp::Reverse(c))
                    }
                };
                if better && let Some(entry) = self.entries.get_mut(e) {
                    entry.longer = longer as u32 + 1;
                }
            }
        }
    }

    /// The first pass: one game's [`line_hashes`], games in input order. A game whose
    /// hashes are empty takes no part. Returns the entry of the game's line and whether
    /// this game made it (the first of its line: entries are numbered from 0 in the
    /// order they are made, which is the order [`Duplicates::mark_entry`] wants them);
    /// `None` when the game takes no part or its new line finds the table full.
    pub fn learn(&mut self, hashes: &[u64], game: GameRef) -> Option<(u32, bool)> {
        let (Some(&key), Ok(plies)) =
            (hashes.last(), u16::try_from(hashes.len().saturating_sub(1)))
        else {
            return None;
        };
        if plies == 0 {
            return None;
        }
        self.learned += 1;
        match self.find(key, plies) {
            Ok(e) => {
                if let Some(entry) = self.entries.get_mut(e)
                    && game.tags > entry.tags
                {
                    (entry.seq, entry.line, entry.tags) = (game.seq, game.line, game.tags);
                }
                Some((e as u32, false))
            }
            Err(_) if self.entries.len >= LINES_MAX => {
                // a new line when the table is full: written, never compared (the
                // games of a line recorded are still compared in full)
                self.unrecorded += 1;
                None
            }
            Err(slot) => {
                let e = self.entries.len;
                self.entries.push(Entry {
                    key,
                    seq: game.seq,
                    line: game.line,
                    plies,
                    tags: game.tags,
                    longer: 0,
                });
                if self.entries.len * 4 > self.slots.len() * 3 {
                    self.grow();
                } else if let (Some(s), Some(c)) =
                    (self.slots.get_mut(slot), self.checks.get_mut(slot))
                {
                    (*s, *c) = (e as u32 + 1, check(key));
                }
                Some((e as u32, true))
            }
        }
    }

    /// The plies of entry `e`'s line (0: no such entry).
    pub fn plies(&self, e: u32) -> u16 {
        self.entries.get(e as usize).map_or(0, |x| x.plies)
    }

    /// The second pass, entry by entry: the hashes of entry `e`'s line after 1, 2, …
    /// up to its plies less one ([`Duplicates::plies`]; the line's own key is not
    /// needed): each shorter line it continues learns that it is continued. One game
    /// of each line is enough, which is why `convert` keeps these of the first only.
    pub fn mark_entry(&mut self, e: u32, prefixes: &[u64]) {
        self.mark_prefixes(prefixes, e as usize);
    }

    /// The second pass: one game's [`line_hashes`] again (every game learned, in any
    /// order): each shorter line it continues learns that it is continued.
    pub fn mark(&mut self, hashes: &[u64]) {
        let (Some(&key), Ok(plies)) =
            (hashes.last(), u16::try_from(hashes.len().saturating_sub(1)))
        else {
            return;
        };
        if plies == 0 {
            return;
        }
        if let Ok(e) = self.find(key, plies) {
            self.mark_prefixes(hashes.get(1..).unwrap_or_default(), e);
        }
    }

    /// The third pass: one game's [`line_hashes`] again (after [`Duplicates::mark`] of
    /// every game); whether it is written, and if not, which game is kept instead.
    pub fn verdict(&mut self, hashes: &[u64], game: GameRef) -> Verdict {
        let (Some(&key), Ok(plies)) =
            (hashes.last(), u16::try_from(hashes.len().saturating_sub(1)))
        else {
            return Verdict::Ignored;
        };
        if plies == 0 {
            return Verdict::Ignored;
        }
        let Ok(e) = self.find(key, plies) else {
            self.judged += 1;
            return Verdict::Unknown;
        };
        self.verdict_of(e as u32, game)
    }

    /// [`Duplicates::verdict`] of a game whose entry [`Duplicates::learn`] gave.
    pub fn verdict_of(&mut self, e: u32, game: GameRef) -> Verdict {
        self.judged += 1;
        let Some(&entry) = self.entries.get(e as usize) else {
            return Verdict::Unknown;
        };
        // the longest line that continues this one is not continued itself (a line
        // continuing it would continue this one, and be longer)
        if let Some(l) = (entry.longer as usize)
            .checked_sub(1)
            .and_then(|l| self.entries.get(l))
        {
            return Verdict::Prefix {
                kept: GameRef {
                    seq: l.seq,
                    line: l.line,
                    tags: l.tags,
                },
                plies: l.plies,
            };
        }
        if entry.seq != game.seq {
            return Verdict::Exact {
                kept: GameRef {
                    seq: entry.seq,
                    line: entry.line,
                    tags: entry.tags,
                },
            };
        }
        Verdict::Kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::read_str;
    use crate::replay::{ReplayOptions, replay};

    fn hashes(text: &str, by: DedupeBy) -> Vec<Vec<u64>> {
        read_str(text)
            .into_iter()
            .filter(|g| !g.junk)
            .map(|raw| {
                let game = replay(raw, &ReplayOptions::default());
                let mut h = Vec::new();
                line_hashes(&game, by, &mut h);
                h
            })
            .collect()
    }

    /// Both passes over the games of `text`: each game's verdict.
    fn verdicts(text: &str, by: DedupeBy, tags: &[u16]) -> Vec<Verdict> {
        let all = hashes(text, by);
        let r = |i: usize| GameRef {
            seq: i as u32,
            line: 10 * i as u32,
            tags: tags.get(i).copied().unwrap_or(0),
        };
        let mut d = Duplicates::new();
        for (i, h) in all.iter().enumerate() {
            d.learn(h, r(i));
        }
        for h in &all {
            d.mark(h);
        }
        let v: Vec<Verdict> = all
            .iter()
            .enumerate()
            .map(|(i, h)| d.verdict(h, r(i)))
            .collect();
        // as `convert` runs it: the prefixes of the first game of each line only, by
        // entry, and each verdict by the entry the first pass gave
        let mut d = Duplicates::new();
        let mut entries = Vec::new();
        let mut first = Vec::new();
        for (i, h) in all.iter().enumerate() {
            let learned = d.learn(h, r(i));
            if let Some((e, true)) = learned {
                first.push((e, h.get(1..h.len().saturating_sub(1)).unwrap_or_default()));
            }
            entries.push(learned);
        }
        for (e, prefixes) in first {
            assert_eq!(prefixes.len() + 1, usize::from(d.plies(e)));
            d.mark_entry(e, prefixes);
        }
        let by_entry: Vec<Verdict> = entries
            .iter()
            .enumerate()
            .map(|(i, l)| l.map_or(Verdict::Ignored, |(e, _)| d.verdict_of(e, r(i))))
            .collect();
        assert_eq!(by_entry, v);
        v
    }

    fn kept(seq: u32, tags: u16) -> GameRef {
        GameRef {
            seq,
            line: 10 * seq,
            tags,
        }
    }

    const G: &str = "[White \"Anna\"]\n[Black \"Ben\"]\n\n";

    #[test]
    fn exact_duplicates_keep_the_one_with_more_tags_then_the_first() {
        let text =
            format!("{G}1. e4 e5 2. Nf3 *\n\n{G}1. e4 e5 2. Nf3 *\n\n{G}1. e4 e5 2. Nf3 *\n\n");
        let v = verdicts(&text, DedupeBy::Players, &[2, 3, 3]);
        assert_eq!(
            v,
            [
                Verdict::Exact { kept: kept(1, 3) },
                Verdict::Kept,
                Verdict::Exact { kept: kept(1, 3) }
            ]
        );
    }

    #[test]
    fn a_prefix_is_merged_into_the_longest_game_before_or_after_it() {
        // game 1 continues game 0; game 3 continues both; game 2 is another line
        let text = format!(
            "{G}1. e4 e5 *\n\n{G}1. e4 e5 2. Nf3 *\n\n{G}1. d4 *\n\n{G}1. e4 e5 2. Nf3 Nc6 *\n\n{G}1. e4 *\n\n"
        );
        let v = verdicts(&text, DedupeBy::Players, &[]);
        let longest = Verdict::Prefix {
            kept: kept(3, 0),
            plies: 4,
        };
        assert_eq!(v, [longest, longest, Verdict::Kept, Verdict::Kept, longest]);
    }

    #[test]
    fn other_players_or_another_start_are_not_duplicates_unless_by_moves() {
        let text = format!(
            "{G}1. e4 e5 *\n\n[White \"Carl\"]\n[Black \"Ben\"]\n\n1. e4 e5 *\n\n\
             [White \"Anna\"]\n[Black \"Ben\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kq - 0 1\"]\n\n1. e4 e5 *\n\n\
             [White \"ben\"]\n[Black \"ANNA\"]\n\n1. e4 e5 *\n\n"
        );
        let v = verdicts(&text, DedupeBy::Players, &[]);
        assert_eq!(v, [Verdict::Kept; 4]);
        let v = verdicts(&text, DedupeBy::Moves, &[]);
        let first = Verdict::Exact { kept: kept(0, 0) };
        assert_eq!(v, [Verdict::Kept, first, Verdict::Kept, first]);
    }

    #[test]
    fn by_game_another_round_is_another_game() {
        // the same players began two games alike in two rounds: by players the short
        // one is a prefix of the other, by game it is not
        let text = "[White \"Anna\"]\n[Black \"Ben\"]\n[Round \"1\"]\n\n1. e4 1-0\n\n\
                    [White \"Anna\"]\n[Black \"Ben\"]\n[Round \"2\"]\n\n1. e4 e5 2. Nf3 *\n\n\
                    [White \"Anna\"]\n[Black \"Ben\"]\n[Round \"2\"]\n\n1. e4 e5 *\n\n";
        let v = verdicts(text, DedupeBy::Game, &[]);
        let second = Verdict::Prefix {
            kept: kept(1, 0),
            plies: 3,
        };
        assert_eq!(v, [Verdict::Kept, Verdict::Kept, second]);
        let v = verdicts(text, DedupeBy::Players, &[]);
        assert_eq!(v, [second, Verdict::Kept, second]);
    }

    #[test]
    fn names_compare_folded_in_any_word_order() {
        let text = "[White \"Carlsen, Magnus\"]\n[Black \"Đào Thiên Hải\"]\n\n1. e4 *\n\n\
                    [White \"magnus CARLSEN\"]\n[Black \"Dao Thien Hai\"]\n\n1. e4 *\n\n";
        let v = verdicts(text, DedupeBy::Players, &[]);
        assert_eq!(v, [Verdict::Kept, Verdict::Exact { kept: kept(0, 0) }]);
    }

    #[test]
    fn unfinished_and_empty_games_take_no_part() {
        let text = format!(
            "{G}*\n\n{G}*\n\n{G}1. e4 e5 2. Qx9 *\n\n{G}1. e4 e5 2. Qx9 *\n\n{G}1. e4 e5 2. Nf3 *\n\n"
        );
        let v = verdicts(&text, DedupeBy::Players, &[]);
        assert_eq!(
            v,
            [
                Verdict::Ignored,
                Verdict::Ignored,
                Verdict::Ignored,
                Verdict::Ignored,
                Verdict::Kept
            ]
        );
    }

    #[test]
    fn many_lines_grow_the_index_and_are_all_found() {
        // 3,000 distinct lines of a few plies, each twice: the second copy of each
        // is an exact duplicate of the first, across several regrowths
        let mut d = Duplicates::new();
        let line =
            |i: u64| -> Vec<u64> { (0..=(i % 7 + 1)).map(|p| fmix(i * 131 + p + 1)).collect() };
        for round in 0..2u32 {
            for i in 0..3000u64 {
                d.learn(
                    &line(i),
                    GameRef {
                        seq: round * 3000 + i as u32,
                        line: 0,
                        tags: 0,
                    },
                );
            }
        }
        assert_eq!(d.lines(), 3000);
        for _ in 0..2 {
            for i in 0..3000u64 {
                d.mark(&line(i));
            }
        }
        for round in 0..2u32 {
            for i in 0..3000u64 {
                let v = d.verdict(
                    &line(i),
                    GameRef {
                        seq: round * 3000 + i as u32,
                        line: 0,
                        tags: 0,
                    },
                );
                if round == 0 {
                    assert_eq!(v, Verdict::Kept, "{i}");
                } else {
                    assert!(
                        matches!(v, Verdict::Exact { kept } if kept.seq == i as u32),
                        "{i}: {v:?}"
                    );
                }
            }
        }
        // one chunk of entries, and an index of at most four slots (6 bytes) a line
        let most = CHUNK * std::mem::size_of::<Entry>() + 4 * 3000 * 6;
        assert!(d.bytes() <= most, "{} bytes", d.bytes());
    }
}
