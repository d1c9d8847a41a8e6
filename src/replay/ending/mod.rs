//! The facts of a game checked against the rules at its end (issue 27): the result
//! against the final position, and the draws a player could have claimed.
//!
//! Chess (FIDE Laws): a checkmate (5.1.1), a stalemate (5.2.1) or a dead position by
//! material (5.2.2) ends the game, so a result that says otherwise is a warning (a
//! note when the result is `*`); fifty moves by each side without a capture or pawn
//! move (9.3) and a position occurring for the third time (9.2) are claims, reported
//! as notes with the move from which the claim was available; seventy-five moves
//! (9.6.2) with a decisive result is a warning.
//!
//! Xiangqi (Vietnamese law 1409/2004): a side with no legal move loses, checkmated or
//! not (Art. 7.b); repetition, perpetual check and the no-capture counts come from
//! [`RuleTracker`]; a perpetual chase (Art. 23 point 3) is found over the same
//! repeated stretch.
//!
//! Cost: one look at the final position per game (its legal moves, its material, its
//! halfmove clock). Only a chess game recorded as drawn or unfinished whose last
//! stretch without capture or pawn move is eight plies or more is played again (its
//! resolved moves, no notation) to hash the positions of that stretch; a xiangqi game
//! is played again whole for the tracker. (The chess positions of the stretch are
//! mostly told from the moves alone, without playing again: [`fast`].)

mod fast;

use crate::model::diag::Code;
use crate::{
    chess,
    color::Color,
    model::board::Board,
    model::diag::{Diagnostic, Span},
    model::game::{AnyMove, Game, GameResult, StartPosition},
    replay::xiangqi_rules::RuleTracker,
    xiangqi,
};

/// The shortest stretch without capture or pawn move in which a position can occur
/// three times.
const REPETITION_MIN_PLIES: u32 = 8;

/// Checks the end of `game` (its main line replayed to the end, `end` the position
/// reached), adding the findings to `out`. `text` is the game's source text (for the
/// moves as written), `result_span` where the result token stands, if written.
pub fn check(
    game: &Game,
    end: &Board,
    text: &str,
    result_span: Option<Span>,
    out: &mut Vec<Diagnostic>,
) {
    let at = At {
        game,
        text,
        result_span,
    };
    match (end, &game.start) {
        (Board::Chess(p), StartPosition::Chess(start)) => chess_end(&at, start, p, out),
        (Board::Xiangqi(p), StartPosition::Xiangqi(start)) => xiangqi_end(&at, start, p, out),
        _ => {}
    }
}

/// What the messages need of a game.
struct At<'a> {
    game: &'a Game,
    text: &'a str,
    result_span: Option<Span>,
}

impl At<'_> {
    fn plies(&self) -> u32 {
        u32::try_from(self.game.moves.moves.len()).unwrap_or(u32::MAX)
    }

    /// `34. Kg2` / `34... Kg2` for ply `ply` (1 = the first move recorded), as written.
    fn label(&self, ply: u32) -> String {
        let (turn, number) = match &self.game.start {
            StartPosition::Chess(p) => (p.turn(), p.fullmoves()),
            StartPosition::Xiangqi(p) => (p.turn(), p.fullmoves()),
        };
        let index = ply.saturating_sub(1) + u32::from(turn == Color::Black);
        let number = number.saturating_add(index / 2);
        let dots = if index.is_multiple_of(2) { "." } else { "..." };
        let written = self
            .game
            .moves
            .moves
            .get(ply.saturating_sub(1) as usize)
            .map_or("", |n| n.span.slice(self.text));
        format!("{number}{dots} {written}")
    }

    fn span_of(&self, ply: u32) -> Option<Span> {
        self.game
            .moves
            .moves
            .get(ply.checked_sub(1)? as usize)
            .map(|n| n.span)
            .filter(|s| s.end > s.start)
    }

    /// A finding about the result: at the result token when written, else at the
    /// last move.
    fn about_result(&self, d: Diagnostic) -> Diagnostic {
        let last = self.plies();
        let d = if last > 0 { d.with_ply(last) } else { d };
        match self.result_span.or_else(|| self.span_of(last)) {
            Some(s) => d.with_span(s),
            None => d,
        }
    }

    /// A finding about a move.
    fn about_move(&self, d: Diagnostic, ply: u32) -> Diagnostic {
        let d = if ply > 0 { d.with_ply(ply) } else { d };
        match self.span_of(ply) {
            Some(s) => d.with_span(s),
            None => d,
        }
    }
}

fn wins(c: Color) -> GameResult {
    c.fold(GameResult::WhiteWins, GameResult::BlackWins)
}

fn decisive(r: GameResult) -> bool {
    matches!(r, GameResult::WhiteWins | GameResult::BlackWins)
}

fn chess_end(
    at: &At<'_>,
    start: &chess::Position,
    end: &chess::Position,
    out: &mut Vec<Diagnostic>,
) {
    let r = at.game.result;
    let side = |c: Color| c.fold("white", "black");
    if !end.has_legal_moves() {
        if end.is_check() {
            let want = wins(end.turn().other());
            if r != want {
                let msg = format!(
                    "{} is checkmated in the final position, so the game ended {want} \
                     (5.1.1); the result says {r}",
                    side(end.turn())
                );
                at_result(at, r, Code::CheckmateResult, msg, out);
            }
        } else if r != GameResult::Draw {
            let msg = format!(
                "the final position is stalemate ({} to move has no legal move and is not \
                 in check), so the game ended 1/2-1/2 (5.2.1); the result says {r}",
                side(end.turn())
            );
            at_result(at, r, Code::StalemateResult, msg, out);
        }
        // the game ended there: no claim to look for
        return;
    }
    if end.is_insufficient_material() && decisive(r) {
        out.push(at.about_result(Diagnostic::warning(
            Code::DeadPositionResult,
            format!(
                "the final position is dead (neither side has the material to checkmate), \
                 so the game ended 1/2-1/2 (5.2.2); the result says {r}"
            ),
        )));
    }
    let plies = at.plies();
    let h = end.halfmoves();
    if h >= 100 {
        // the ply on which the count reached 100 (0: the start position already had)
        let from = plies.saturating_sub(h - 100);
        let when = if from == 0 {
            "from the start position".to_owned()
        } else {
            format!("from {} on", at.label(from))
        };
        out.push(at.about_move(
            Diagnostic::note(
                Code::FiftyMoveClaim,
                format!(
                    "fifty moves by each side without a capture or a pawn move: a draw \
                     could be claimed (9.3) {when}"
                ),
            ),
            from,
        ));
        if h >= 150 && decisive(r) {
            let from = plies.saturating_sub(h - 150);
            out.push(at.about_result(Diagnostic::warning(
                Code::FiftyMoveClaim,
                format!(
                    "seventy-five moves by each side without a capture or a pawn move \
                     ({}): the game was drawn there (9.6.2); the result says {r}",
                    if from == 0 {
                        "at the start position".to_owned()
                    } else {
                        format!("after {}", at.label(from))
                    }
                ),
            )));
        }
    }
    if h >= REPETITION_MIN_PLIES && !decisive(r) {
        chess_repetition(at, start, h, out);
    }
}

/// A finding about the result: a warning, or a note when the result is `*`.
fn at_result(at: &At<'_>, r: GameResult, code: Code, msg: String, out: &mut Vec<Diagnostic>) {
    let d = if r == GameResult::Unknown {
        Diagnostic::note(code, msg)
    } else {
        Diagnostic::warning(code, msg)
    };
    out.push(at.about_result(d));
}

/// Finds the positions of the main line's last `h` plies (the stretch without capture
/// or pawn move), by their keys from the moves ([`fast::stretch_keys`]) or else by
/// playing the game again and hashing them: the first position in it that occurs for
/// the third time is a claim (9.2.2), reported at the move that made it.
fn chess_repetition(at: &At<'_>, start: &chess::Position, h: u32, out: &mut Vec<Diagnostic>) {
    let moves = &at.game.moves.moves;
    let n = moves.len();
    let stretch = (h as usize).min(n);
    let first = n - stretch;
    if !placement_may_repeat(&moves[first..]) {
        return;
    }
    let Some(hashes) =
        fast::stretch_keys(start, moves, first).or_else(|| replayed_hashes(start, moves, first))
    else {
        return;
    };
    // hashes[i]: the position after ply first + i (hashes[0]: before the stretch)
    for (len, &hash) in hashes.iter().enumerate().skip(1).map(|(i, h)| (i + 1, h)) {
        // counted without a list: most plies repeat nothing
        let seen = &hashes[..len];
        if seen.iter().filter(|&&x| x == hash).count() == 3 {
            let seen: Vec<usize> = seen
                .iter()
                .enumerate()
                .filter(|&(_, &x)| x == hash)
                .map(|(i, _)| i)
                .collect();
            let ply_of = |i: usize| u32::try_from(first + i).unwrap_or(u32::MAX);
            let now = ply_of(len - 1);
            let earlier: Vec<String> = seen[..2]
                .iter()
                .map(|&i| match ply_of(i) {
                    0 => "the start".to_owned(),
                    p => at.label(p),
                })
                .collect();
            let tail = if now == ply_of(stretch) {
                String::new()
            } else {
                // the claim came before the last move: the game went on
                String::from("; play went on")
            };
            out.push(at.about_move(
                Diagnostic::note(
                    Code::RepetitionClaim,
                    format!(
                        "the position after {} occurs for the third time (after {} and {}): \
                         a draw could be claimed (9.2) from that move{tail}",
                        at.label(now),
                        earlier[0],
                        earlier[1]
                    ),
                ),
                now,
            ));
            return;
        }
    }
}

/// The Zobrist hashes of the positions before `moves[first]` and after each move from
/// it on, the game played again from `start`; up to a xiangqi move (none at all if one
/// comes before `first`).
fn replayed_hashes(
    start: &chess::Position,
    moves: &[crate::model::game::MoveNode],
    first: usize,
) -> Option<Vec<u64>> {
    let mut pos = start.clone();
    let play = |pos: &mut chess::Position, node: &crate::model::game::MoveNode| {
        match &node.mv {
            // the moves replayed: legal, but for one kept illegal (`--keep-illegal`)
            AnyMove::Chess(m) if !node.illegal => pos.play_legal(m),
            AnyMove::Chess(m) => pos.play_unchecked(m),
            AnyMove::Null => pos.play_null(),
            AnyMove::Xiangqi(_) => return false,
        }
        true
    };
    let (before, stretch) = moves.split_at_checked(first)?;
    for node in before {
        if !play(&mut pos, node) {
            return None;
        }
    }
    let mut hashes = Vec::with_capacity(stretch.len() + 1);
    hashes.push(pos.zobrist());
    for node in stretch {
        if !play(&mut pos, node) {
            break;
        }
        hashes.push(pos.zobrist());
    }
    Some(hashes)
}

/// Whether some placement of the pieces may occur three times with the same side to
/// move in `stretch` (plies without capture or pawn move), told from the moves alone:
/// each ply's key is the XOR of its moves' changes (a piece off one square, onto
/// another: the Zobrist idea without a board), so two positions with the same pieces
/// on the same squares have the same key. No triple key, no repetition: the game is
/// not played again (the replay is for the few games where a key repeats, and it
/// compares the whole position). A castling changes the rights, so no position before
/// it equals one after: any change works for it.
fn placement_may_repeat(stretch: &[crate::model::game::MoveNode]) -> bool {
    // a square's and a role's key (splitmix64 of the pair)
    fn key(role: chess::Role, square: chess::Square) -> u64 {
        let mut z = ((role.index() as u64) << 6 | square.index() as u64)
            .wrapping_add(1)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    const SIDE: u64 = 0x5555_5555_5555_5555;
    let mut keys = Vec::with_capacity(stretch.len() + 1);
    let mut k = 0u64;
    keys.push(k);
    for node in stretch {
        k ^= SIDE;
        match node.mv {
            AnyMove::Chess(chess::Move::Normal { role, from, to, .. }) => {
                k ^= key(role, from) ^ key(role, to);
            }
            AnyMove::Chess(chess::Move::Castle { king, rook }) => {
                k ^= key(chess::Role::King, king) ^ key(chess::Role::Rook, rook) ^ 1;
            }
            AnyMove::Chess(chess::Move::EnPassant { from, to }) => {
                k ^= key(chess::Role::Pawn, from) ^ key(chess::Role::Pawn, to) ^ 2;
            }
            AnyMove::Null => {}
            AnyMove::Xiangqi(_) => return false,
        }
        keys.push(k);
    }
    keys.sort_unstable();
    keys.windows(3).any(|w| w[0] == w[2])
}

fn xiangqi_end(
    at: &At<'_>,
    start: &xiangqi::Position,
    end: &xiangqi::Position,
    out: &mut Vec<Diagnostic>,
) {
    let r = at.game.result;
    let side = |c: Color| c.fold("red", "black");
    if !end.has_legal_moves() {
        let want = wins(end.turn().other());
        if r != want {
            let how = if end.is_check() {
                "is checkmated"
            } else {
                "has no legal move (not in check)"
            };
            let msg = format!(
                "{} {how} in the final position and so has lost (art. 7.b: a side with no \
                 legal move loses), so the result is {want}; the result says {r}",
                side(end.turn())
            );
            at_result(at, r, Code::XqNoLegalMove, msg, out);
        }
    }
    xiangqi_rules(at, start, out);
}

/// Plays a xiangqi main line again through the [`RuleTracker`] (repetition, perpetual
/// check, no-capture counts) and looks for a perpetual chase in every stretch the
/// tracker finds repeated.
fn xiangqi_rules(at: &At<'_>, start: &xiangqi::Position, out: &mut Vec<Diagnostic>) {
    let mut pos = start.clone();
    let mut tracker = RuleTracker::new(&pos);
    // the stretch since the last capture: hashes[i] before moves[i]
    let mut hashes = vec![pos.zobrist()];
    let mut stretch: Vec<(xiangqi::Position, xiangqi::Move, u32)> = Vec::new();
    for (i, node) in at.game.moves.moves.iter().enumerate() {
        let ply = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let before = pos.clone();
        let m = match node.mv {
            AnyMove::Xiangqi(m) => {
                pos.play_unchecked(m);
                Some(m)
            }
            AnyMove::Null => {
                let _ = pos.play_null();
                None
            }
            AnyMove::Chess(_) => return,
        };
        for mut d in tracker.record(&pos) {
            debug_assert_eq!(d.ply, Some(ply), "the tracker counts plies as the replay");
            d.span = Some(node.span).filter(|s| s.end > s.start);
            out.push(d);
        }
        if pos.halfmoves() == 0 {
            hashes.clear();
            stretch.clear();
            hashes.push(pos.zobrist());
            continue;
        }
        let Some(m) = m else {
            // a null move breaks the stretch for the chase (no move to judge)
            hashes.clear();
            stretch.clear();
            hashes.push(pos.zobrist());
            continue;
        };
        stretch.push((before, m, ply));
        let hash = pos.zobrist();
        hashes.push(hash);
        let seen: Vec<usize> = hashes
            .iter()
            .enumerate()
            .filter(|&(_, &x)| x == hash)
            .map(|(i, _)| i)
            .collect();
        if seen.len() == 3
            && let Some(&from) = seen.first()
        {
            for color in Color::ALL {
                if let Some(d) = perpetual_chase(at, &stretch[from..], color, ply) {
                    out.push(d);
                }
            }
        }
    }
}

/// Every capture `color` could make in `pos` as if it were to move: (attacker square,
/// target square), whatever the pieces and their protection.
fn captures(pos: &xiangqi::Position, color: Color) -> Vec<(xiangqi::Square, xiangqi::Square)> {
    let mut p = pos.clone();
    if p.turn() != color && p.play_null().is_err() {
        return Vec::new();
    }
    p.legal_moves()
        .into_iter()
        .filter(|m| p.piece_at(m.to).is_some())
        .map(|m| (m.from, m.to))
        .collect()
}

/// The pieces of `color` that can capture an enemy piece in `pos` as if `color` were
/// to move: (attacker square, target square), the targets those the law counts as
/// chased (Art. 23): not the general (that is a check), not a soldier that has not
/// crossed the river, the attacker neither a general nor a soldier (point 9), and not a
/// piece of the attacker's own kind that can take the attacker back at once (a chariot
/// facing a chariot, a cannon a cannon: an offer to exchange, point 10 and Art. 22.5;
/// a horse that is hobbled or pinned and cannot take back is chased, point 7).
fn threats(pos: &xiangqi::Position, color: Color) -> Vec<(xiangqi::Square, xiangqi::Square)> {
    let mut p = pos.clone();
    if p.turn() != color && p.play_null().is_err() {
        return Vec::new();
    }
    p.legal_moves()
        .into_iter()
        .filter_map(|m| {
            let a = p.piece_at(m.from)?;
            let t = p.piece_at(m.to)?;
            // generals and soldiers do not chase; a general, a soldier on its own side
            // of the river, a truly protected piece, or one that takes back first (an
            // offered exchange) is not chased
            let chaser_excluded = matches!(a.role, xiangqi::Role::General | xiangqi::Role::Soldier);
            let target_excluded = t.role == xiangqi::Role::General
                || (t.role == xiangqi::Role::Soldier && m.to.on_own_side(t.color));
            let answered =
                truly_protected(&p, m, a.role, t.role) || (a.role == t.role && takes_back(&p, m));
            let chases = !(chaser_excluded || target_excluded || answered);
            chases.then_some((m.from, m.to))
        })
        .collect()
}

/// Whether the piece `m` would capture could capture the attacker first (the other side
/// to move in `p`): the threat is mutual.
fn takes_back(p: &xiangqi::Position, m: xiangqi::Move) -> bool {
    let mut q = p.clone();
    if q.play_null().is_err() {
        return false;
    }
    q.legal_moves()
        .iter()
        .any(|r| r.from == m.to && r.to == m.from)
}

/// Art. 23 point 6: a target with a real protector (one that can take back at once) is
/// not chased, except a chariot chased by a horse or a cannon.
fn truly_protected(
    p: &xiangqi::Position,
    m: xiangqi::Move,
    attacker: xiangqi::Role,
    target: xiangqi::Role,
) -> bool {
    if target == xiangqi::Role::Chariot
        && matches!(attacker, xiangqi::Role::Horse | xiangqi::Role::Cannon)
    {
        return false;
    }
    let mut after = p.clone();
    after.play_unchecked(m);
    after.legal_moves().iter().any(|r| r.to == m.to)
}

/// Whether `color` chases one and the same enemy piece with every one of its moves of
/// `window` (a stretch that ends on a position seen for the third time), none of them a
/// check: Art. 23 point 3, a perpetual chase loses.
fn perpetual_chase(
    at: &At<'_>,
    window: &[(xiangqi::Position, xiangqi::Move, u32)],
    color: Color,
    repeated_at: u32,
) -> Option<Diagnostic> {
    // identities of the pieces through the window (no capture in it): the square each
    // stood on at its start
    let first = window.first()?;
    let mut id_at: Vec<Option<u8>> = (0..90u8)
        .map(|i| {
            xiangqi::Square::from_index(i)
                .filter(|&s| first.0.piece_at(s).is_some())
                .map(|_| i)
        })
        .collect();
    let mut common: Option<Vec<u8>> = None;
    let mut plies = Vec::new();
    for (before, m, ply) in window {
        let mover = before.turn();
        let mut after = before.clone();
        after.play_unchecked(*m);
        let from = usize::from(m.from.index());
        let to = usize::from(m.to.index());
        let id = id_at.get(from).copied().flatten();
        if let Some(slot) = id_at.get_mut(from) {
            *slot = None;
        }
        if let Some(slot) = id_at.get_mut(to) {
            *slot = id;
        }
        if mover != color {
            continue;
        }
        if after.is_check() {
            return None;
        }
        // what the move newly threatens (the moved piece's threats are new if it did
        // not threaten the same target from where it stood). A capture that was there
        // before the move is not new even if the target was protected then: a move
        // that only blocks the protector's path is a block (Art. 22.6; point 10: a
        // perpetual block is allowed, a draw if not changed), not a chase
        let old = captures(before, color);
        let new: Vec<u8> = threats(&after, color)
            .into_iter()
            .filter(|&(a, t)| {
                let was = if a == m.to { m.from } else { a };
                !old.contains(&(was, t))
            })
            .filter_map(|(_, t)| id_at.get(usize::from(t.index())).copied().flatten())
            .collect();
        common = Some(match common {
            None => new,
            Some(c) => c.into_iter().filter(|i| new.contains(i)).collect(),
        });
        if common.as_ref().is_some_and(Vec::is_empty) {
            return None;
        }
        plies.push(*ply);
    }
    let target = *common?.first()?;
    if plies.len() < 2 {
        return None;
    }
    let last = window.last()?;
    let mut end = last.0.clone();
    end.play_unchecked(last.1);
    let now = id_at
        .iter()
        .position(|&i| i == Some(target))
        .and_then(|i| xiangqi::Square::from_index(u8::try_from(i).ok()?))?;
    let piece = end.piece_at(now)?;
    let moves: Vec<String> = plies.iter().map(|&p| at.label(p)).collect();
    // at the move that repeats the position, as a perpetual check is: one finding per
    // repetition (at the chaser's last move, two repetitions in a row told the same
    // chase twice at the same ply)
    let ply = repeated_at;
    Some(at.about_move(
        Diagnostic::warning(
            Code::XqPerpetualChase,
            format!(
                "{} chases the {} {} (now on {}) with every move of the repeated stretch \
                 ({}); art. 23 point 3: a perpetual chase loses",
                color.fold("red", "black"),
                piece.color.fold("red", "black"),
                piece.role,
                now.iccs(),
                moves.join(", ")
            ),
        ),
        ply,
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::{
        archive::read_str,
        model::game::Game,
        replay::{ReplayOptions, replay},
    };

    fn games(pgn: &str) -> Vec<Game> {
        read_str(pgn)
            .into_iter()
            .map(|g| replay(g, &ReplayOptions::default()))
            .collect()
    }

    fn codes(g: &Game) -> Vec<(&'static str, String)> {
        g.diagnostics
            .iter()
            .map(|d| (d.code.as_str(), d.severity.as_str().to_owned()))
            .collect()
    }

    #[test]
    fn checkmate_with_a_draw_result_is_a_warning() {
        let g = &games("1. f3 e5 2. g4 Qh4# 1/2-1/2\n")[0];
        assert_eq!(
            codes(g),
            [("checkmate-result", "warning".to_owned())],
            "{:?}",
            g.diagnostics
        );
        let g = &games("1. f3 e5 2. g4 Qh4# 0-1\n")[0];
        assert!(codes(g).is_empty(), "{:?}", g.diagnostics);
        let g = &games("1. f3 e5 2. g4 Qh4# *\n")[0];
        assert_eq!(codes(g), [("checkmate-result", "note".to_owned())]);
        // the wrong winner
        let g = &games("1. f3 e5 2. g4 Qh4# 1-0\n")[0];
        assert_eq!(codes(g), [("checkmate-result", "warning".to_owned())]);
    }

    #[test]
    fn stalemate_and_dead_position_with_a_decisive_result() {
        let stalemate = "[FEN \"7k/5Q2/6K1/8/8/8/8/8 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kh6 1-0\n";
        let g = &games(stalemate)[0];
        assert_eq!(codes(g), [("stalemate-result", "warning".to_owned())]);
        let dead = "[FEN \"7k/8/6K1/8/8/8/8/6N1 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Nf3 1-0\n";
        let g = &games(dead)[0];
        assert_eq!(codes(g), [("dead-position-result", "warning".to_owned())]);
        let g = &games(&dead.replace("1-0", "1/2-1/2"))[0];
        assert!(codes(g).is_empty(), "{:?}", g.diagnostics);
    }

    #[test]
    fn threefold_repetition_names_the_move() {
        let g = &games("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n")[0];
        let d: Vec<_> = g
            .diagnostics
            .iter()
            .filter(|d| d.code == "repetition-claim")
            .collect();
        assert_eq!(d.len(), 1, "{:?}", g.diagnostics);
        // the start position (before 1. Nf3) occurs again after 2... Ng8 and 4... Ng8
        assert_eq!(d[0].ply, Some(8));
        assert!(d[0].message.contains("4... Ng8"), "{}", d[0].message);
        // a decisive result: no repetition looked for
        let g = &games("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1-0\n")[0];
        assert!(g.diagnostics.iter().all(|d| d.code != "repetition-claim"));
    }

    #[test]
    fn threefold_repetition_by_triangulation() {
        // White's king goes round a triangle (e1 d1 d2), Black's back and forth: the
        // start position comes back after 6... Ke8 and 12... Ke8 (the moves alone
        // tell it may repeat; the replay confirms)
        let pgn = "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n\
                   1. Kd1 Kd8 2. Kd2 Ke8 3. Ke1 Kd8 4. Kd1 Ke8 5. Kd2 Kd8 6. Ke1 Ke8 \
                   7. Kd1 Kd8 8. Kd2 Ke8 9. Ke1 Kd8 10. Kd1 Ke8 11. Kd2 Kd8 12. Ke1 Ke8 \
                   1/2-1/2\n";
        let g = &games(pgn)[0];
        assert!(
            codes(g).contains(&("repetition-claim", "note".to_owned())),
            "{:?}",
            g.diagnostics
        );
        // the same moves but for the last: no position three times
        let g = &games(&pgn.replace("12. Ke1 Ke8", "12. Ke3 Ke7"))[0];
        assert!(
            !codes(g).contains(&("repetition-claim", "note".to_owned())),
            "{:?}",
            g.diagnostics
        );
    }

    #[test]
    fn fifty_moves_names_the_move_from_which_a_claim_was_available() {
        let pgn = "[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 98 60\"]\n[SetUp \"1\"]\n\n\
                   60. Ra2 Kd8 61. Ra3 Ke8 1/2-1/2\n";
        let g = &games(pgn)[0];
        let d: Vec<_> = g
            .diagnostics
            .iter()
            .filter(|d| d.code == "fifty-move-claim")
            .collect();
        assert_eq!(d.len(), 1, "{:?}", g.diagnostics);
        // 98 + 2 = 100 after 60... Kd8
        assert_eq!(d[0].ply, Some(2));
        assert!(d[0].message.contains("60... Kd8"), "{}", d[0].message);
    }

    fn xiangqi(fen: &str, moves: &str, result: &str) -> Game {
        let pgn = format!(
            "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n[FEN \"{fen}\"]\n[Result \"{result}\"]\n\n{moves} {result}\n"
        );
        let g = games(&pgn).remove(0);
        assert!(g.unparsed.is_none(), "{:?}", g.diagnostics);
        g
    }

    #[test]
    fn xiangqi_no_legal_move_loses() {
        // checkmate: the chariot on b9 checks along rank 9, the one on a8 holds rank
        // 8, the red general on d0 holds the d file (the generals may not face)
        let mate = "4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1";
        let g = xiangqi(mate, "1. b1b9", "1/2-1/2");
        assert_eq!(codes(&g), [("xq-no-legal-move", "warning".to_owned())]);
        assert!(g.diagnostics[0].message.contains("checkmated"));
        assert!(codes(&xiangqi(mate, "1. b1b9", "1-0")).is_empty());
        // no legal move and not in check: a loss as well (Art. 7.b), unlike chess
        let stalemate = "4k4/9/R8/9/9/9/9/9/5R3/3K5 w - - 0 1";
        let g = xiangqi(stalemate, "1. a7a8", "1/2-1/2");
        assert_eq!(codes(&g), [("xq-no-legal-move", "warning".to_owned())]);
        assert!(g.diagnostics[0].message.contains("not in check"));
        assert!(codes(&xiangqi(stalemate, "1. a7a8", "1-0")).is_empty());
        let g = xiangqi(stalemate, "1. a7a8", "*");
        assert_eq!(codes(&g), [("xq-no-legal-move", "note".to_owned())]);
    }

    /// A red chariot follows a black cannon that shuttles between b7 and c7: every red
    /// move threatens the same unprotected cannon.
    #[test]
    fn xiangqi_perpetual_chase() {
        let fen = "4k4/9/1c7/9/9/9/9/1R7/9/3K5 b - - 0 1";
        let moves = "1... b7c7 2. b2c2 c7b7 3. c2b2 b7c7 4. b2c2 c7b7 5. c2b2";
        let g = xiangqi(fen, moves, "*");
        let chase: Vec<_> = g
            .diagnostics
            .iter()
            .filter(|d| d.code == "xq-perpetual-chase")
            .collect();
        assert_eq!(chase.len(), 1, "{:?}", g.diagnostics);
        let d = chase[0];
        assert_eq!(d.ply, Some(8));
        assert!(
            d.message.starts_with("red chases the black cannon"),
            "{}",
            d.message
        );
        for m in ["2. b2c2", "3. c2b2", "4. b2c2", "5. c2b2"] {
            assert!(d.message.contains(m), "{m}: {}", d.message);
        }
        assert!(g.diagnostics.iter().any(|d| d.code == "xq-repetition"));
        // the cannon protected by a black chariot on b9 (it takes back on b7): the
        // chariot's threat is not a chase (point 6)... but it is once the cannon is
        // on c7 and unprotected there: not every move chases a protected piece
        let protected = "1r2k4/9/1c7/9/9/9/9/1R7/9/3K5 b - - 0 1";
        let g = xiangqi(protected, moves, "*");
        assert!(
            g.diagnostics.iter().all(|d| d.code != "xq-perpetual-chase"),
            "{:?}",
            g.diagnostics
        );
    }

    /// Movetext from ICCS moves: `number` the first move's number, Black first or not.
    fn movetext(mut number: u32, black_first: bool, moves: &[&str]) -> String {
        let mut out = String::new();
        let mut black = black_first;
        if black {
            out.push_str(&format!("{number}... "));
        }
        for m in moves {
            if !black {
                out.push_str(&format!("{number}. "));
            }
            out.push_str(m);
            out.push(' ');
            if black {
                number += 1;
            }
            black = !black;
        }
        out.trim_end().to_owned()
    }

    fn chases(g: &Game) -> Vec<(u32, String)> {
        g.diagnostics
            .iter()
            .filter(|d| d.code == "xq-perpetual-chase")
            .map(|d| (d.ply.unwrap(), d.message.clone()))
            .collect()
    }

    /// Real game (corpus xiangqi, 2011 LIU DaHua - Lv Qin, moves 26-29): the red chariot
    /// goes g7-h7-g7 and the black chariot h9-g9-h9, each time facing the other on a
    /// file: each threatens the other and can take first, an offer to exchange (Art.
    /// 22.5, point 10), not a chase. pyffish agrees (a draw).
    #[test]
    fn xiangqi_chariot_facing_chariot_is_no_chase() {
        let fen = "2bak2r1/4a4/4b1R2/4CR2p/2p6/4P4/8P/8B/4A4/1crA1K3 w - - 2 26";
        assert_repetition_without_chase(fen, 26, ["g7h7", "h9g9", "h7g7", "g9h9"], 8);
    }

    /// The cycle of four plies played `plies` plies long from `fen` (White/Red to move,
    /// move `number`) repeats the position, and no chase is found.
    fn assert_repetition_without_chase(fen: &str, number: u32, cycle: [&str; 4], plies: usize) {
        let moves: Vec<&str> = cycle.iter().cycle().take(plies).copied().collect();
        let g = xiangqi(fen, &movetext(number, false, &moves), "*");
        assert!(
            g.diagnostics.iter().any(|d| d.code == "xq-repetition"),
            "{:?}",
            g.diagnostics
        );
        assert_eq!(chases(&g), vec![], "{:?}", g.diagnostics);
    }

    /// Real game (corpus xiangqi, 南方棋院黃海林 - 江蘇徐天紅, moves 19-24): the red cannon
    /// goes h4-g4-h4 and stands each time between the black cannon g3 and one of its
    /// protectors (the cannon on g8 over the horse, then the horse on h5 by its leg):
    /// the red chariot on f3 attacked g3 all along. A block (Art. 22.6; point 10: a
    /// perpetual block is a draw), not a chase; pyffish agrees.
    #[test]
    fn xiangqi_blocking_a_protector_is_no_chase() {
        let fen = "2baka1r1/6c2/2n1b1n2/p1p1p3p/9/2P4C1/P3PRc1P/2N1BCN2/9/2BAKA3 w - - 8 19";
        assert_repetition_without_chase(fen, 19, ["h4g4", "g7h5", "g4h4", "h5g7"], 12);
    }

    /// Real game (corpus xiangqi, 美國譚少逸 - 香港梁達民, moves 14-20): the black horse
    /// goes g7-h5-g7 and threatens the red chariot each time (a horse chasing a
    /// chariot is a chase even if the chariot is protected, point 6). Each repetition
    /// gives one chase finding at the move that repeats, as a perpetual check is told:
    /// at the chaser's last move, two repetitions in a row told the same chase twice.
    #[test]
    fn xiangqi_chase_is_told_once_at_each_repetition() {
        let fen = "r2nkab2/4a1c2/1c2b1n2/p1p1pR2p/2PNP4/9/P5p1P/1C7/R3C2r1/1NBAKAB2 b - - 5 14";
        let cycle = ["g7h5", "f6g6", "h5g7", "g6f6"];
        let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
        let g = xiangqi(fen, &movetext(14, true, &moves), "*");
        let reps: Vec<u32> = g
            .diagnostics
            .iter()
            .filter(|d| d.code == "xq-repetition")
            .map(|d| d.ply.unwrap())
            .collect();
        let chase = chases(&g);
        assert!(!chase.is_empty(), "{:?}", g.diagnostics);
        for (ply, message) in &chase {
            assert!(
                reps.contains(ply),
                "chase at {ply} not at a repetition {reps:?}"
            );
            assert!(
                message.starts_with("black chases the red chariot"),
                "{message}"
            );
        }
        let mut unique = chase.clone();
        unique.dedup();
        assert_eq!(unique, chase, "a chase told twice");
    }

    /// Perpetual check (Art. 23 point 1) through replay: the tracker is wired in.
    #[test]
    fn xiangqi_perpetual_check_through_replay() {
        let fen = "3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1";
        let moves = "1. i0i9 d9d8 2. i9i8 d8d9 3. i8i9 d9d8 4. i9i8 d8d9 5. i8i9";
        let g = xiangqi(fen, moves, "*");
        let d: Vec<_> = g
            .diagnostics
            .iter()
            .filter(|d| d.code == "xq-perpetual-check")
            .collect();
        assert_eq!(d.len(), 1, "{:?}", g.diagnostics);
        assert_eq!(d[0].ply, Some(9));
    }
}
