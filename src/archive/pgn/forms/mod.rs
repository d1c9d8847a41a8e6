//! Typed and printed forms around moves, read after the movetext is cut into elements
//! ([`typed_forms`]): words and signs that are not moves (`mate`, `ch`, `TN`, `红胜`,
//! `(draw)`, `1 – 0`: [`super::marks`]), moves written in parts (`D x d3`, `Db1 +`,
//! `e2 - e4`), moves glued to their numbers or to each other (`1.d4Nf62.c4b6`,
//! `炮2平32.`, `P9.1-Tg6.1`, `2.马二进三…………`), a prefix NAG before a variation's
//! first move (`($142 2. f4)`), and a comment in parentheses glued to a Chinese move
//! (`马二进三(进马。)`). Nothing is dropped: every byte an element covered is covered
//! by the elements that replace it.
//!
//! A first look at each element ([`candidate`]) costs a few byte tests; a game with no
//! candidate (nearly every PGN game) is left as it is. Plain moves (`Nf3`, `马f3`,
//! `e8=后`) are no candidates and are copied without a look (the fast path, [`fast`]).

mod fast;

use super::marks::{self, Mark};
use crate::archive::{CommentKind, Element};
use crate::model::{diag::Span, game::GameResult};

/// The bytes of `span` in `s`.
fn bytes(s: &str, span: Span) -> &[u8] {
    s.as_bytes()
        .get(span.start as usize..span.end as usize)
        .unwrap_or(&[])
}

fn is_square(b: &[u8]) -> bool {
    matches!(b, [b'a'..=b'h', b'1'..=b'8'])
}

/// Could the element at `i` be one of the forms? (Cheap: a few byte tests.)
fn candidate(text: &str, mt: &[Element], i: usize) -> bool {
    match mt.get(i) {
        Some(Element::Move { span, .. }) => fast::move_candidate(bytes(text, *span)),
        Some(Element::Annotation { .. }) => true,
        Some(Element::StartVariation { span }) => {
            let next_is_nag = matches!(mt.get(i + 1), Some(Element::Nag { .. }));
            let glued = span.start > 0
                && matches!(mt.get(i.wrapping_sub(1)), Some(Element::Move { span: m, .. }) if m.end == span.start);
            let short = matches!(mt.get(i + 2), Some(Element::EndVariation { .. }));
            next_is_nag || glued || short
        }
        _ => false,
    }
}

/// [`candidate`] for a move token of ASCII bytes (not empty): one or two bytes but a
/// square, six or more, or three to five that end in a small letter or a sign other
/// than a check or annotation mark, or hold a `.` (a glued number: `Q12.3`).
fn ascii_candidate(b: &[u8]) -> bool {
    match b {
        [] => false,
        _ if b.len() <= 2 => !is_square(b),
        _ if b.len() >= 6 => true,
        [.., last] => {
            last.is_ascii_lowercase()
                || !last.is_ascii_alphanumeric() && !matches!(last, b'+' | b'#' | b'!' | b'?')
                || b.contains(&b'.')
        }
    }
}

/// Might a game whose move tokens have the letters `letters` ([`move_letters`] bits)
/// hold one of the words of `grammars/marks.tsv` (`mate`, `TN`, `dbl ch`) that have a
/// letter no English move has? (All the ASCII letters of one are among `letters`.)
///
/// [`move_letters`]: crate::archive::move_letters
pub(super) fn words_may_be_in(letters: u64) -> bool {
    fast::word_letters().iter().any(|&w| w & !letters == 0)
}

/// A move token (its bytes) that is a plain move ([`fast::plain_move`]), never one of
/// the forms: for the reader's fast run, which reads the moves of other letters.
pub(super) fn plain(b: &[u8]) -> bool {
    fast::plain_move(b) && fast::marks_allow()
}

/// The end (exclusive) of the variation opened at `i` (the index after its
/// `EndVariation`).
fn variation_end(mt: &[Element], i: usize) -> usize {
    let mut depth = 0usize;
    for (k, e) in mt.iter().enumerate().skip(i) {
        match e {
            Element::StartVariation { .. } => depth += 1,
            Element::EndVariation { .. } => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    mt.len()
}

/// Only comments (or nothing) after index `i` up to the end of the main line.
fn only_comments_after(mt: &[Element], i: usize) -> bool {
    mt.iter()
        .skip(i)
        .all(|e| matches!(e, Element::Comment { .. } | Element::Escape { .. }))
}

/// Chinese punctuation that marks a parenthesis as prose, not a variation.
fn cjk_prose(t: &str) -> bool {
    t.contains(['。', '，', '！', '？', '；', '：', '、'])
}

/// Xiangqi's direction words in the Chinese notation.
fn cjk_direction(c: char) -> bool {
    matches!(c, '进' | '退' | '平' | '進')
}

/// A lone piece letter: one ASCII capital or one letter outside ASCII (not a dash).
fn lone_letter(t: &str) -> bool {
    let mut cs = t.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) => c.is_ascii_uppercase() || (!c.is_ascii() && c.is_alphabetic()),
        _ => false,
    }
}

/// `Ng1`, `e2`, `Кg1`: a piece letter or none, then a square; a piece written without a
/// square (`N`) is not one.
fn from_square(t: &str) -> bool {
    let b = t.as_bytes();
    if b.len() < 2 {
        return false;
    }
    let Some(sq) = b.get(b.len() - 2..) else {
        return false;
    };
    is_square(sq) && (b.len() == 2 || lone_letter(t.get(..t.len() - 2).unwrap_or("")))
}

fn starts_square(t: &str) -> bool {
    t.as_bytes().get(..2).is_some_and(is_square)
}

/// A separator of a spaced long move (`e2 - e4`, `e5 : d4`, `e7 — e6`).
fn long_separator(t: &str) -> bool {
    matches!(t, "-" | ":" | "x" | "–" | "—") || marks::lookup(t) == Some(Mark::Dash)
}

/// How `typed_forms` changed the game's result, if it did.
pub(super) type FoundResult = Option<(GameResult, Span)>;

/// Reads the forms of the module docs in `mt` (the movetext elements of `text`), in
/// place. Returns whether anything changed, and a result read from a printed form
/// (`红胜`, `1 – 0`) when the game has none. `FAST`: plain moves are no candidates and
/// are copied as they are ([`fast`]); the tests hold it to the pass without.
pub(super) fn typed_forms<const FAST: bool>(
    text: &str,
    mt: &mut Vec<Element>,
    has_result: bool,
) -> (bool, FoundResult) {
    let any = if FAST {
        (0..mt.len()).any(|i| fast::fast_candidate(text, mt, i))
    } else {
        (0..mt.len()).any(|i| candidate(text, mt, i))
    };
    if !any {
        return (false, None);
    }
    let long_style = spaced_long_style(text, mt);
    // a long move written with spaces starts with a plain move (`e2 - e4`)
    let pairs = pair_style(text, mt);
    let skip_plain = FAST && !long_style && !pairs && fast::marks_allow();
    let old = std::mem::take(mt);
    let mut out: Vec<Element> = Vec::with_capacity(old.len() + 4);
    let mut result: FoundResult = None;
    let mut changed = false;
    let mut depth = 0usize;
    let mut i = 0;
    let tok = |e: &Element| e.span().slice(text);
    while let Some(&e) = old.get(i) {
        match e {
            Element::Move { span, .. } if skip_plain && fast::plain_move(bytes(text, span)) => {
                out.push(e);
            }
            Element::StartVariation { span } => {
                let end = variation_end(&old, i);
                let close = old.get(end.wrapping_sub(1)).map_or(span, Element::span);
                let whole = Span::new(span.start, close.end);
                let inner = Span::new(span.end, close.start);
                // `(draw)`, `(将死)`: a mark in parentheses
                if let Some(mark) = marks::lookup(whole.slice(text)) {
                    match mark {
                        Mark::Result(r)
                            if depth == 0
                                && !has_result
                                && result.is_none()
                                && only_comments_after(&old, end) =>
                        {
                            result = Some((r, whole));
                        }
                        _ => out.push(Element::Annotation { span: whole }),
                    }
                    changed = true;
                    i = end;
                    continue;
                }
                // `马二进三(进马。)`: prose in parentheses glued to a move
                let glued = matches!(out.last(), Some(Element::Move { span: m, .. }) if m.end == span.start);
                if glued && cjk_prose(inner.slice(text)) {
                    out.push(Element::Comment {
                        kind: CommentKind::Brace,
                        closed: true,
                        body: inner,
                    });
                    changed = true;
                    i = end;
                    continue;
                }
                // `($142 2. f4)`: the NAGs before the variation's first move go after it
                let nags = old
                    .get(i + 1..)
                    .unwrap_or(&[])
                    .iter()
                    .take_while(|e| matches!(e, Element::Nag { .. }))
                    .count();
                if nags > 0 {
                    let after = i + 1 + nags;
                    let numbered = matches!(old.get(after), Some(Element::MoveNumber { .. }));
                    let m = after + usize::from(numbered);
                    if let Some(Element::Move { .. }) = old.get(m) {
                        out.push(e);
                        out.extend(old.get(after..=m).unwrap_or(&[]).iter().copied());
                        out.extend(old.get(i + 1..after).unwrap_or(&[]).iter().copied());
                        depth += 1;
                        changed = true;
                        i = m + 1;
                        continue;
                    }
                }
                depth += 1;
                out.push(e);
            }
            Element::EndVariation { .. } => {
                depth = depth.saturating_sub(1);
                out.push(e);
            }
            Element::Move { span, .. } | Element::Annotation { span } => {
                let t = span.slice(text);
                let next = old.get(i + 1).copied();
                let next_t = next.map_or("", |n| tok(&n));
                let is_move = matches!(e, Element::Move { .. });
                // `Db1 +`, `D x f7 #`: a check mark after a space is the move's
                if !is_move
                    && t.starts_with(['+', '#', '†', '‡'])
                    && t.chars()
                        .all(|c| matches!(c, '+' | '#' | '†' | '‡' | '!' | '?'))
                    && let Some(Element::Move { span: m, .. }) = out.last_mut()
                    && text
                        .get(m.end as usize..span.start as usize)
                        .is_some_and(|gap| gap.bytes().all(|b| b == b' '))
                {
                    *m = Span::new(m.start, span.end);
                    changed = true;
                    i += 1;
                    continue;
                }
                // `1 – 0`, `0 - 1`: a result printed with spaces
                if let (
                    Some(Element::MoveNumber {
                        number: a,
                        span: sa,
                        ..
                    }),
                    Some(Element::MoveNumber {
                        number: b,
                        span: sb,
                        ..
                    }),
                ) = (out.last().copied(), next)
                    && long_separator(t)
                    && matches!((a, b), (1, 0) | (0, 1))
                    && depth == 0
                    && !has_result
                    && only_comments_after(&old, i + 2)
                {
                    out.pop();
                    let r = if a == 1 {
                        GameResult::WhiteWins
                    } else {
                        GameResult::BlackWins
                    };
                    result = Some((r, Span::new(sa.start, sb.end)));
                    changed = true;
                    i += 2;
                    continue;
                }
                // `D x d3`, `N f3`: a lone piece letter and the rest of its move
                if is_move && lone_letter(t) {
                    let sep = matches!(next_t, "x" | ":" | "-");
                    let to = if sep { old.get(i + 2).copied() } else { next };
                    if let Some(Element::Move { span: to, .. }) = to {
                        let to_t = to.slice(text);
                        let rest = to_t.trim_start_matches(['x', ':']);
                        if starts_square(rest) {
                            out.push(Element::Move {
                                span: Span::new(span.start, to.end),
                                ep: None,
                            });
                            changed = true;
                            i += if sep { 3 } else { 2 };
                            continue;
                        }
                    }
                }
                // `dx e4`, `Cx e4`, `Dx b2`: a capture sign typed before the space (a
                // pawn's file, a piece letter or a from-square before it)
                if is_move
                    && let Some(head) = t.strip_suffix(['x', ':'])
                    && (lone_letter(head)
                        || matches!(head.as_bytes(), [b'a'..=b'h'])
                        || from_square(head))
                    && let Some(Element::Move { span: to, .. }) = next
                    && starts_square(to.slice(text))
                    && text
                        .get(span.end as usize..to.start as usize)
                        .is_some_and(|gap| gap.bytes().all(|b| b == b' '))
                {
                    out.push(Element::Move {
                        span: Span::new(span.start, to.end),
                        ep: None,
                    });
                    changed = true;
                    i += 2;
                    continue;
                }
                // `.Ff5`: a stray full stop typed before a move (an annotation of its
                // own, the move read without it)
                if is_move
                    && let Some(rest) = t.strip_prefix('.')
                    && !rest.starts_with('.')
                    && fast::plain_move(rest.as_bytes())
                {
                    out.push(Element::Annotation {
                        span: Span::new(span.start, span.start + 1),
                    });
                    out.push(Element::Move {
                        span: Span::new(span.start + 1, span.end),
                        ep: None,
                    });
                    changed = true;
                    i += 1;
                    continue;
                }
                // one move written in three tokens: `e x d4` (a pawn's file, a capture
                // sign between spaces, the square) and `e2 - e4`, `e5 : d4` (a long move
                // written with spaces)
                if is_move
                    && ((matches!(t.as_bytes(), [b'a'..=b'h']) && matches!(next_t, "x" | ":"))
                        || (long_style && from_square(t) && long_separator(next_t)))
                    && let Some(Element::Move { span: to, .. }) = old.get(i + 2).copied()
                    && starts_square(to.slice(text))
                {
                    out.push(Element::Move {
                        span: Span::new(span.start, to.end),
                        ep: None,
                    });
                    changed = true;
                    i += 3;
                    continue;
                }
                // a mark: one token, or two read together (`dbl ch`)
                let two = next
                    .filter(|n| matches!(n, Element::Move { .. }))
                    .and_then(|n| {
                        let both = text.get(span.start as usize..n.span().end as usize)?;
                        Some((marks::lookup(both)?, n.span().end))
                    });
                let one = if is_move {
                    marks::lookup(t).map(|m| (m, span.end))
                } else {
                    None
                };
                if let Some((mark, end)) = two.or(one) {
                    let words = Span::new(span.start, end);
                    let after = if two.is_some() { i + 2 } else { i + 1 };
                    match mark {
                        Mark::Null => out.push(e),
                        Mark::Result(r)
                            if depth == 0
                                && !has_result
                                && result.is_none()
                                && only_comments_after(&old, after) =>
                        {
                            result = Some((r, words));
                        }
                        Mark::Check | Mark::Mate | Mark::DoubleCheck
                            if matches!(out.last(), Some(Element::Move { .. })) =>
                        {
                            // `Qh5 mate`, `N-B7 dbl ch`: the word is the move's check mark
                            if let Some(Element::Move { span: m, .. }) = out.last_mut() {
                                *m = Span::new(m.start, end);
                            }
                        }
                        Mark::Nag(value) => out.push(Element::Nag { value, span: words }),
                        _ => out.push(Element::Annotation { span: words }),
                    }
                    changed |= mark != Mark::Null;
                    i = after;
                    continue;
                }
                // `1: e4-e5`, `2: Nf3-Nc6`: White's and Black's moves joined by a dash
                if is_move
                    && pairs
                    && depth == 0
                    && let Some(k) = pair_dash(t)
                {
                    let at = span.start + k as u32;
                    out.push(Element::Move {
                        span: Span::new(span.start, at),
                        ep: None,
                    });
                    out.push(Element::Annotation {
                        span: Span::new(at, at + 1),
                    });
                    out.push(Element::Move {
                        span: Span::new(at + 1, span.end),
                        ep: None,
                    });
                    changed = true;
                    i += 1;
                    continue;
                }
                if is_move && split_glued(text, span, &mut out) {
                    changed = true;
                    i += 1;
                    continue;
                }
                out.push(e);
            }
            _ => out.push(e),
        }
        i += 1;
    }
    *mt = out;
    (changed, result)
}

/// Whether the game writes its long moves with spaces (`1. e2 - e4 e7 - e5`): some
/// move-number group of the main line holds two such moves. (One per number is also
/// `1. e4 - e5`, White's and Black's moves with a dash between: not joined.)
fn spaced_long_style(text: &str, mt: &[Element]) -> bool {
    let mut in_group = 0;
    let mut depth = 0usize;
    let mut k = 0;
    while k < mt.len() {
        match mt.get(k) {
            Some(Element::StartVariation { .. }) => depth += 1,
            Some(Element::EndVariation { .. }) => depth = depth.saturating_sub(1),
            Some(Element::MoveNumber { .. }) if depth == 0 => in_group = 0,
            Some(Element::Move { span, .. }) if depth == 0 => {
                if from_square(span.slice(text))
                    && let (Some(sep), Some(Element::Move { span: to, .. })) =
                        (mt.get(k + 1), mt.get(k + 2))
                    && long_separator(sep.span().slice(text))
                    && starts_square(to.slice(text))
                {
                    in_group += 1;
                    if in_group >= 2 {
                        return true;
                    }
                    k += 3;
                    continue;
                }
            }
            _ => {}
        }
        k += 1;
    }
    false
}

/// The dash of a token that is White's and Black's moves joined by a dash (`e4-e5`,
/// `Nf3-Nc6`, `N×f7-0-0`, `0-0-0-Rd8`, `B×b5+-Nbd7`): the first dash after a square
/// (and its marks) or after castling, with a move of two characters or more after it.
fn pair_dash(t: &str) -> Option<usize> {
    let b = t.as_bytes();
    // castling, the longer first: `O-O-O+` is no pair, `0-0-0-Rd8` is
    let castling = ["0-0-0", "O-O-O", "0-0", "O-O"]
        .iter()
        .find(|c| t.starts_with(*c))
        .map(|c| c.len());
    let k = match castling {
        Some(c) => (b.get(c) == Some(&b'-')).then_some(c),
        None => {
            let k = b.iter().position(|&c| c == b'-')?;
            let left = t.get(..k)?.trim_end_matches(['+', '#', '!', '?']);
            left.as_bytes()
                .get(left.len().checked_sub(2)?..)
                .is_some_and(is_square)
                .then_some(k)
        }
    }?;
    let right = t.get(k + 1..)?;
    (right.len() >= 2 && !right.starts_with('-')).then_some(k)
}

/// Whether the game writes White's and Black's moves as pairs joined by a dash
/// (`1: e4-e5 2: Nf3-Nc6`): two main-line tokens at least are pairs whose second move
/// is no bare square (`Nf3-Nc6`, `d4-Bg4`, `N×f7-0-0`), which no long move is.
fn pair_style(text: &str, mt: &[Element]) -> bool {
    let mut depth = 0usize;
    let mut found = 0;
    for e in mt {
        match e {
            Element::StartVariation { .. } => depth += 1,
            Element::EndVariation { .. } => depth = depth.saturating_sub(1),
            Element::Move { span, .. } if depth == 0 => {
                let t = span.slice(text);
                if let Some(k) = pair_dash(t)
                    && !t.get(k + 1..).is_some_and(starts_square)
                {
                    found += 1;
                    if found >= 2 {
                        return true;
                    }
                }
            }
            _ => {}
        }
    }
    false
}

/// Splits a move token that holds several moves or move numbers glued together
/// (`d4Nf62.c4b6`, `炮2平32.`, `炮二平五马8进7`, `P9.1-Tg6.1`, `马二进三…………`),
/// pushing the parts onto `out`; `false` (nothing pushed) when the token is not one.
fn split_glued(text: &str, span: Span, out: &mut Vec<Element>) -> bool {
    let t = span.slice(text);
    let base = span.start;
    let mut parts: Vec<Element> = Vec::new();
    let sp = |a: usize, b: usize| Span::new(base + a as u32, base + b as u32);
    // `4,車一平二`: a move number typed with a comma for its dot, glued to a Chinese move
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0
        && let Some(rest) = t[digits..].strip_prefix(',')
        && rest.starts_with(|c: char| !c.is_ascii())
        && let Ok(number) = t[..digits].parse()
    {
        out.push(Element::MoveNumber {
            number,
            black: false,
            span: sp(0, digits + 1),
        });
        let rest = sp(digits + 1, t.len());
        if !split_glued(text, rest, out) {
            out.push(Element::Move {
                span: rest,
                ep: None,
            });
        }
        return true;
    }
    if t.starts_with(|c: char| !c.is_ascii()) {
        // Chinese: moves of four characters, numbers, and a placeholder `……`
        let chars: Vec<(usize, char)> = t.char_indices().collect();
        let mut k = 0;
        while let Some(&(at, c)) = chars.get(k) {
            if c.is_ascii_digit() {
                let mut j = k;
                while chars.get(j).is_some_and(|&(_, d)| d.is_ascii_digit()) {
                    j += 1;
                }
                let dots = chars
                    .get(j..)
                    .unwrap_or(&[])
                    .iter()
                    .take_while(|&&(_, d)| d == '.')
                    .count();
                if dots == 0 {
                    return false;
                }
                let end = chars.get(j + dots).map_or(t.len(), |&(a, _)| a);
                let number = t
                    .get(at..chars.get(j).map_or(t.len(), |&(a, _)| a))
                    .and_then(|n| n.parse().ok());
                let Some(number) = number else { return false };
                parts.push(Element::MoveNumber {
                    number,
                    black: dots >= 2,
                    span: sp(at, end),
                });
                k = j + dots;
            } else if c == '…' || c == '.' {
                let mut j = k;
                while chars.get(j).is_some_and(|&(_, d)| d == '…' || d == '.') {
                    j += 1;
                }
                let end = chars.get(j).map_or(t.len(), |&(a, _)| a);
                parts.push(Element::Annotation { span: sp(at, end) });
                k = j;
            } else if chars.get(k + 2).is_some_and(|&(_, d)| cjk_direction(d))
                && chars.len() >= k + 4
            {
                let end = chars.get(k + 4).map_or(t.len(), |&(a, _)| a);
                parts.push(Element::Move {
                    span: sp(at, end),
                    ep: None,
                });
                k += 4;
            } else {
                return false;
            }
        }
    } else if let Some((a, b)) = vietnamese_pair(t) {
        parts.push(Element::Move {
            span: sp(0, a),
            ep: None,
        });
        parts.push(Element::Annotation { span: sp(a, b) });
        parts.push(Element::Move {
            span: sp(b, t.len()),
            ep: None,
        });
    } else {
        if !glued_number(t) {
            return false;
        }
        let b = t.as_bytes();
        let mut k = 0;
        let mut start = 0;
        while k < b.len() {
            // a number: digits then dots, not the rank of a square
            let square_rank = k > 0 && b.get(k - 1).is_some_and(|c| (b'a'..=b'h').contains(c));
            if b.get(k).is_some_and(u8::is_ascii_digit) && !square_rank {
                let mut j = k;
                while b.get(j).is_some_and(u8::is_ascii_digit) {
                    j += 1;
                }
                let dots = b
                    .get(j..)
                    .unwrap_or(&[])
                    .iter()
                    .take_while(|&&c| c == b'.')
                    .count();
                if dots > 0 {
                    push_moves(t, base, start, k, &mut parts);
                    let Some(number) = t.get(k..j).and_then(|n| n.parse().ok()) else {
                        return false;
                    };
                    parts.push(Element::MoveNumber {
                        number,
                        black: dots >= 2,
                        span: sp(k, j + dots),
                    });
                    k = j + dots;
                    start = k;
                    continue;
                }
            }
            k += 1;
        }
        push_moves(t, base, start, b.len(), &mut parts);
    }
    if parts.len() < 2 {
        return false;
    }
    out.extend(parts);
    true
}

/// `d4Nf62.`: a move number glued after a move (digits and a dot after a square).
fn glued_number(t: &str) -> bool {
    let b = t.as_bytes();
    b.windows(3)
        .any(|w| matches!(w, [r, d, b'.'] if (b'1'..=b'8').contains(r) && d.is_ascii_digit()))
}

/// The moves of `t[a..b]` (ASCII SAN glued together: `d4Nf6`, `c4b6`), cut before a
/// piece letter or a file letter that follows a rank digit (but a promotion piece after
/// the last rank), pushed as moves at `base`.
fn push_moves(t: &str, base: u32, a: usize, b: usize, parts: &mut Vec<Element>) {
    let bytes = t.as_bytes();
    let mut start = a;
    for k in a + 1..b {
        let prev = bytes.get(k - 1).copied().unwrap_or(0);
        let c = bytes.get(k).copied().unwrap_or(0);
        let promotion = matches!(prev, b'1' | b'8') && matches!(c, b'Q' | b'R' | b'B' | b'N');
        if prev.is_ascii_digit()
            && (c.is_ascii_uppercase() || (b'a'..=b'h').contains(&c))
            && !promotion
        {
            parts.push(Element::Move {
                span: Span::new(base + start as u32, base + k as u32),
                ep: None,
            });
            start = k;
        }
    }
    if b > start {
        parts.push(Element::Move {
            span: Span::new(base + start as u32, base + b as u32),
            ep: None,
        });
    }
}

/// `P9.1-Tg6.1`: two Vietnamese moves (letter, optional mark, file, operator, number)
/// glued with a dash; the offsets of the dash and of the second move.
fn vietnamese_pair(t: &str) -> Option<(usize, usize)> {
    fn vi_move(s: &str) -> bool {
        let b = s.as_bytes();
        let b = match b {
            [p, m, rest @ ..] if p.is_ascii_uppercase() && m.is_ascii_lowercase() => rest,
            [p, rest @ ..] if p.is_ascii_uppercase() => rest,
            _ => return false,
        };
        matches!(b, [f, op, n] if f.is_ascii_digit() && matches!(op, b'.' | b'/' | b'-') && n.is_ascii_digit())
    }
    let b = t.as_bytes();
    (1..b.len()).find_map(|k| {
        let (l, r) = (t.get(..k)?, t.get(k + 1..)?);
        (b.get(k) == Some(&b'-') && vi_move(l) && vi_move(r)).then_some((k, k + 1))
    })
}
