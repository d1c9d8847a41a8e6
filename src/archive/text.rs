//! Free text: the candidate runs of moves in a record that is not plain PGN (issue 25).
//!
//! A page, a book or a forum post has headings, players, prose, captions and page
//! furniture around and between its moves. The PGN reader cuts all of it into tokens as
//! it cuts movetext; here the tokens of the main line are sorted into *words* (prose:
//! a token the notation does not read and that is not shaped as a move) and the rest,
//! and the runs between the words are handed to the replay, which accepts a run only
//! when its moves replay (`replay::text`). Nothing is decided here about a position,
//! and nothing is dropped: what is not a run stays in the movetext, and the replay makes
//! it a comment, verbatim.

use std::ops::Range;

use super::{CommentKind, Element, RawGame};
use crate::model::diag::{Code, Diagnostic, Span};

/// Is `raw` a heading of the record after it: text with no tag and no result whose words
/// are prose (a title, the players, an event and a year on lines of their own, the
/// first line of a page), which the PGN reader sets apart as text between games or as a
/// game of words?
fn heading(raw: &RawGame) -> bool {
    let text = raw.text.as_str();
    raw.tags.is_empty()
        && raw.result.is_none()
        && text
            .split_whitespace()
            .any(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
        && raw.movetext.iter().all(|e| match e {
            Element::Move { span, .. } => !move_shaped(span.slice(text)),
            Element::StartVariation { .. } | Element::EndVariation { .. } => false,
            _ => true,
        })
        && (raw.junk
            || raw
                .movetext
                .iter()
                .any(|e| matches!(e, Element::Move { .. })))
}

/// Does `raw` continue the record before it: no tags, and it opens on Black's first
/// move (`1. … d5`, each half-move a paragraph of its own, which the reader takes for a
/// new game at the `1.` after a blank line)?
fn continues(raw: &RawGame) -> bool {
    raw.tags.is_empty()
        && !raw.junk
        && matches!(
            raw.movetext.first(),
            Some(Element::MoveNumber {
                number: 1,
                black: true,
                ..
            })
        )
}

/// `game` appended to `to`: the texts joined, the spans of `game` moved.
fn append(to: &mut RawGame, game: RawGame) {
    let shift = to.text.len() as u32;
    to.movetext.extend(shifted(&game.movetext, shift));
    let moved = |s: Span| Span::new(s.start + shift, s.end + shift);
    to.diagnostics
        .extend(game.diagnostics.into_iter().map(|mut d| {
            d.span = d.span.map(moved);
            d
        }));
    to.result = game.result.map(|(r, s)| (r, moved(s))).or(to.result);
    to.text.push_str(&game.text);
    to.byte_end = game.byte_end;
    to.move_letters = None;
    to.counts = None;
}

/// Joins each heading (a title, players and event on lines of their own: [`heading`])
/// to the tagless record right after it in the input, as that record's first comment,
/// verbatim, with a `text-kept` note: the reader had set it apart as text between games
/// (a `junk-between-games` warning) or as a game of words that does not replay. Records
/// with tags are PGN games, and text before them stays text between games.
pub fn join_headings(games: &mut Vec<RawGame>) {
    for g in games.iter_mut() {
        unwrap_markup(g);
    }
    rejoin_split_comments(games);
    if games.len() < 2 || !games.iter().any(|g| heading(g) || continues(g)) {
        return;
    }
    let old = std::mem::take(games);
    let mut held: Option<RawGame> = None;
    for g in old {
        if continues(&g)
            && let Some(prev) = games.last_mut()
            && prev.tags.is_empty()
            && !prev.junk
            && prev.byte_end == g.byte_start
            && prev.decoding == g.decoding
        {
            let prev = std::mem::replace(prev, g);
            if let Some(last) = games.last_mut() {
                let g = std::mem::replace(last, prev);
                append(last, g);
            }
            continue;
        }
        if let Some(h) = held.take() {
            let adjacent = h.byte_end == g.byte_start
                || h.byte_start == g.byte_start && h.byte_end == g.byte_end;
            if adjacent && g.tags.is_empty() && !g.junk && !heading(&g) && h.decoding == g.decoding
            {
                games.push(joined(h, g));
                continue;
            }
            games.push(h);
        }
        if heading(&g) {
            held = Some(g);
        } else {
            games.push(g);
        }
    }
    games.extend(held);
}

/// Does `g`, read right after `prev`, hold the rest of a brace comment of `prev` that the
/// reader cut at a line of the comment starting with `[` and a letter (`{difesa
/// moderna: … il centro` / `[modern defence: the fianchettoed bishop …]} 3. e5`: a
/// bilingual note with the translation in square brackets on its own line), which it
/// takes for a tag? Only for a record without tags, whose last element is a brace
/// comment left open, and when that line is not a tag (`[Name "`).
fn split_in_comment(prev: &RawGame, g: &RawGame) -> bool {
    // the cheap questions first: a PGN game (tags) answers the first
    if !prev.tags.is_empty()
        || prev.junk
        || prev.byte_end != g.byte_start
        || !matches!(
            prev.movetext.last(),
            Some(Element::Comment {
                kind: CommentKind::Brace,
                closed: false,
                ..
            })
        )
        || prev.decoding != g.decoding
    {
        return false;
    }
    let first_line = g.text.trim_start().lines().next().unwrap_or("");
    let tag_line = first_line.strip_prefix('[').is_some_and(|rest| {
        let name = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        name > 0 && rest[name..].trim_start().starts_with('"')
    });
    first_line.starts_with('[') && !tag_line
}

/// Each record the reader cut inside a brace comment ([`split_in_comment`]) joined to
/// the record before it and parsed again as one: the comment goes on to its `}`, and
/// the moves after it are the record's. One look at each pair of neighbours otherwise.
fn rejoin_split_comments(games: &mut Vec<RawGame>) {
    if !games.windows(2).any(|w| split_in_comment(&w[0], &w[1])) {
        return;
    }
    let old = std::mem::take(games);
    for g in old {
        if let Some(prev) = games.last_mut()
            && split_in_comment(prev, &g)
        {
            let mut text = prev.text.clone();
            text.push_str(&g.text);
            let syntax = super::parse_game(&text, &super::Limits::default());
            if syntax.rest.is_none() && syntax.tags.is_empty() {
                prev.text = text;
                prev.byte_end = g.byte_end;
                reparsed(prev, syntax);
                continue;
            }
        }
        games.push(g);
    }
}

/// Forum markup around a game: `[pgn]…[/pgn]`, and the BBCode `[game]…[/game]` block of
/// xiangqi forums with its moves in `START{…}END`, a diagram `DIAG{…}` and comments in
/// `/* … */`, and the HTML tags of a page PGN was pasted from (`<br />`, `<p …>`,
/// `</p>`). The PGN reader takes `[pgn]` for a tag and `START{` for a comment that
/// holds every move; here the markup is masked (spaces of the same length, `/* */` as
/// `{ }`) and the record parsed again, so that its spans still index its text, which is
/// kept as written. A record with none of the markup is left as it is (one search of its
/// text).
pub fn unwrap_markup(raw: &mut RawGame) {
    // the markup is a record of its own (no tags) or was read as tags (`[pgn]`,
    // `[game]`, `[b]`): a PGN game's text is not searched
    let markup_tag =
        |t: &super::RawTag| matches!(raw.tag_name(t), "pgn" | "PGN" | "game" | "GAME" | "b" | "B");
    if !raw.tags.is_empty() && !raw.tags.iter().any(markup_tag) {
        return;
    }
    let text = raw.text.as_bytes();
    let pgn = memchr::memmem::find(text, b"[/pgn]").is_some();
    let block = memchr::memmem::find(text, b"START{").is_some();
    let html = memchr::memmem::find(text, b"<br").is_some()
        || memchr::memmem::find(text, b"</p>").is_some();
    if !pgn && !block && !html {
        return;
    }
    let mut masked = raw.text.clone().into_bytes();
    let blank = |m: &mut [u8], from: usize, len: usize| {
        for b in m.iter_mut().skip(from).take(len) {
            *b = b' ';
        }
    };
    for word in [
        &b"[pgn]"[..],
        b"[/pgn]",
        b"[PGN]",
        b"[/PGN]",
        b"[game]",
        b"[/game]",
        b"START{",
        b"}END",
        b"[b]",
        b"[/b]",
    ] {
        let found: Vec<usize> = memchr::memmem::find_iter(text, word).collect();
        for k in found {
            blank(&mut masked, k, word.len());
        }
    }
    // HTML tags of a page the PGN was pasted from (`<br />`, `<p style="…">`, `</p>`):
    // `<`, a letter or `/`, to the `>` on the same line
    if html {
        let mut k = 0;
        while let Some(d) = memchr::memchr(b'<', &text[k..]) {
            let from = k + d;
            let tag = text
                .get(from + 1)
                .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'/');
            let close = text[from..]
                .iter()
                .take(512)
                .position(|&b| b == b'>' || b == b'\n');
            match close {
                Some(e) if tag && text[from + e] == b'>' => {
                    blank(&mut masked, from, e + 1);
                    k = from + e + 1;
                }
                _ => k = from + 1,
            }
        }
    }
    // DIAG{ … } and /* … */ (to the end when not closed)
    let mut k = 0;
    while let Some(d) = memchr::memmem::find(&text[k..], b"DIAG{") {
        let from = k + d;
        let to = memchr::memchr(b'}', &text[from..]).map_or(text.len(), |e| from + e + 1);
        blank(&mut masked, from, to - from);
        k = to;
    }
    let mut k = 0;
    while let Some(d) = memchr::memmem::find(&text[k..], b"/*") {
        let from = k + d;
        let close = memchr::memmem::find(&text[from + 2..], b"*/").map(|e| from + 2 + e);
        // braces inside the comment would end it early: masked too
        let end = close.map_or(text.len(), |c| c + 2);
        for b in masked.iter_mut().take(end).skip(from) {
            if matches!(*b, b'{' | b'}') {
                *b = b' ';
            }
        }
        masked[from] = b'{';
        masked[from + 1] = b' ';
        if let Some(c) = close {
            masked[c] = b' ';
            masked[c + 1] = b'}';
        }
        k = end;
    }
    let Ok(masked) = String::from_utf8(masked) else {
        return;
    };
    let syntax = super::parse_game(&masked, &super::Limits::default());
    if syntax.rest.is_some() {
        return;
    }
    raw.junk = false;
    reparsed(raw, syntax);
}

/// `raw` read again as `syntax` (its text parsed anew): its tags, movetext, result and
/// the reader's diagnostics are the new parse's; the decoder's notes on its bytes stay.
fn reparsed(raw: &mut RawGame, syntax: super::GameSyntax) {
    raw.tags = syntax.tags;
    raw.movetext = syntax.movetext;
    raw.result = syntax.result;
    raw.diagnostics
        .retain(|d| matches!(d.code, Code::EncodingGuessed | Code::EncodingReplaced));
    raw.diagnostics.extend(syntax.diagnostics);
    raw.move_letters = Some(syntax.move_letters);
    raw.counts = Some(syntax.counts);
}

/// `elements` with every span moved `shift` bytes on.
fn shifted(elements: &[Element], shift: u32) -> impl Iterator<Item = Element> + '_ {
    let moved = move |s: Span| Span::new(s.start + shift, s.end + shift);
    elements.iter().map(move |e| match *e {
        Element::MoveNumber {
            number,
            black,
            span,
        } => Element::MoveNumber {
            number,
            black,
            span: moved(span),
        },
        Element::Move { span, ep } => Element::Move {
            span: moved(span),
            ep: ep.and_then(|p| std::num::NonZeroU32::new(p.get() + shift)),
        },
        Element::Annotation { span } => Element::Annotation { span: moved(span) },
        Element::Comment { kind, closed, body } => Element::Comment {
            kind,
            closed,
            body: moved(body),
        },
        Element::Nag { value, span } => Element::Nag {
            value,
            span: moved(span),
        },
        Element::DrawOffer { span } => Element::DrawOffer { span: moved(span) },
        Element::StartVariation { span } => Element::StartVariation { span: moved(span) },
        Element::EndVariation { span } => Element::EndVariation { span: moved(span) },
        Element::Escape { span } => Element::Escape { span: moved(span) },
    })
}

/// `head` as the first comment of `game`: the texts joined, the spans of `game` moved.
fn joined(head: RawGame, mut game: RawGame) -> RawGame {
    let shift = head.text.len() as u32;
    let moved = |s: Span| Span::new(s.start + shift, s.end + shift);
    let body = Span::new(0, head.text.trim_end().len() as u32);
    let mut movetext = Vec::with_capacity(game.movetext.len() + 1);
    movetext.push(Element::Comment {
        kind: CommentKind::Brace,
        closed: false,
        body,
    });
    movetext.extend(shifted(&game.movetext, shift));
    let mut diagnostics = vec![
        Diagnostic::note(
            Code::TextKept,
            "text before the moves (a heading, the players, the event) kept as a comment",
        )
        .with_span(body),
    ];
    diagnostics.extend(game.diagnostics.drain(..).map(|mut d| {
        d.span = d.span.map(moved);
        d
    }));
    let mut text = head.text;
    text.push_str(&game.text);
    RawGame {
        index: game.index,
        junk: false,
        tags: Vec::new(),
        movetext,
        result: game.result.map(|(r, s)| (r, moved(s))),
        text,
        byte_start: head.byte_start,
        byte_end: game.byte_end,
        first_line: head.first_line,
        decoding: game.decoding,
        diagnostics,
        move_letters: game.move_letters,
        counts: game.counts,
        sheet: game.sheet,
    }
}

/// A candidate run of moves: main-line elements with no prose word among them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The run's elements in [`RawGame::movetext`]: from the move number just before its
    /// first move (or that move) to its last element that is not a move number.
    pub elements: Range<usize>,
    /// The indices of its main-line move elements, in order.
    pub moves: Vec<usize>,
    /// The move number written just before its first move: number, and `true` for
    /// Black's (`12...`).
    pub numbered: Option<(u32, bool)>,
    /// A prose word follows the run (it does not end the text).
    pub prose_after: bool,
}

/// Is `token` shaped as a move whatever the notation: it holds a digit (squares,
/// xiangqi files, move numbers glued), a Chinese xiangqi move word, or is castling or a
/// null move written with letters or zeros (`O-O`, `0-0-0`, `--`).
pub fn move_shaped(token: &str) -> bool {
    if token.contains(['。', '，', '？', '！', '《', '“', '；']) {
        // a sentence: moves do not hold the full stop or comma of Chinese prose
        return false;
    }
    if !token.is_ascii() && chinese_prose(token) {
        return false;
    }
    if let Some((word, after)) = token.split_once(':')
        && word.chars().filter(|c| c.is_alphabetic()).count() >= 2
        && word.chars().all(char::is_alphabetic)
        // `Kpel:f2`: a capture onto a square (an OCR `l` for the `1` of `Kpe1`)
        && !matches!(after.as_bytes(), [b'a'..=b'h', b'1'..=b'8', ..])
    {
        // a word and its colon glued to what follows (`line:1.`): the moves, if any,
        // come after it
        return false;
    }
    // `exd`, `e×d+`: a pawn capture written with its files only
    let short = token.trim_end_matches(['+', '#', '!', '?']);
    if let [f, 'x' | ':' | '×', t] = short.chars().collect::<Vec<_>>()[..]
        && ('a'..='h').contains(&f)
        && ('a'..='h').contains(&t)
    {
        return true;
    }
    token.bytes().any(|b| b.is_ascii_digit())
        || token.chars().any(|c| {
            matches!(
                c,
                '平' | '进'
                    | '進'
                    | '退'
                    | '一'
                    | '二'
                    | '三'
                    | '四'
                    | '五'
                    | '六'
                    | '七'
                    | '八'
                    | '九'
                    | '０'..='９'
                    | '♔'..='♟'
            )
        })
        || {
            let castling = token.trim_end_matches(['+', '#', '!', '?']);
            // `O-O`, `--`: two marks at least (`o` is a word: Spanish "or")
            castling.len() >= 2
                && castling
                    .bytes()
                    .all(|b| matches!(b, b'O' | b'o' | b'0' | b'-'))
        }
}

/// Does `token` hold a Chinese character that no xiangqi move word has (a sentence
/// with moves quoted in it: `如图形势,黑方主要有车2进5和车2平6两种着法`)?
fn chinese_prose(token: &str) -> bool {
    token.chars().any(|c| {
        ('\u{4e00}'..='\u{9fff}').contains(&c)
            && !"车車俥马馬傌炮砲包相象仕士兵卒帅帥将將进進退平前后後中一二三四五六七八九"
                .contains(c)
    })
}

/// Is there a line break between elements `a` and `b`?
fn line_break(text: &str, a: &Element, b: &Element) -> bool {
    text.get(a.span().end as usize..b.span().start as usize)
        .is_some_and(|gap| gap.contains('\n'))
}

/// Is `e` the placeholder of a half move left for later (`…………`, `……`, `…`)?
fn placeholder(text: &str, e: &Element) -> bool {
    matches!(e, Element::Annotation { span }
        if !span.is_empty() && span.slice(text).chars().all(|c| c == '…'))
}

/// Is there a blank line between elements `a` and `b`?
fn paragraph(text: &str, a: &Element, b: &Element) -> bool {
    text.get(a.span().end as usize..b.span().start as usize)
        .is_some_and(|gap| match (gap.find('\n'), gap.rfind('\n')) {
            (Some(first), Some(last)) => first < last && gap[first..last].trim().is_empty(),
            _ => false,
        })
}

/// The candidate runs of moves of `raw`'s main line, in order. A main-line move token is
/// a prose word when `reads` (the notation's syntax) does not read it and it is not
/// [`move_shaped`]; a variation whose first move is a prose word (`(see the diagram)`)
/// is prose as a whole. Runs are what lies between the prose; a run holds at least one
/// move.
pub fn runs(raw: &RawGame, mut reads: impl FnMut(&str) -> bool) -> Vec<Run> {
    let text = raw.text.as_str();
    let elements = &raw.movetext;
    let mut prose = vec![false; elements.len()];
    // a note in square brackets (`[ 6.Lh4?? scheitert an 6…Dxh4! … beginnt.]`): prose as
    // a whole, as a variation that opens on a word, when its `]` comes
    let token = |e: &Element| match e {
        Element::Move { span, .. } => span.slice(text),
        _ => "",
    };
    let mut i = 0;
    while i < elements.len() {
        if token(&elements[i]).starts_with('[')
            && let Some(close) = elements[i..].iter().position(|e| token(e).contains(']'))
        {
            prose[i..=i + close].fill(true);
            i += close;
        }
        i += 1;
    }
    let mut i = 0;
    while i < elements.len() {
        match elements[i] {
            Element::Move { span, .. } => {
                let t = span.slice(text);
                prose[i] |= !reads(t) && !move_shaped(t);
                i += 1;
            }
            Element::StartVariation { .. } => {
                // the whole variation, to its matching end
                let mut depth = 0usize;
                let mut end = i;
                let mut first_word = None;
                for (k, e) in elements.iter().enumerate().skip(i) {
                    match e {
                        Element::StartVariation { .. } => depth += 1,
                        Element::EndVariation { .. } => depth = depth.saturating_sub(1),
                        Element::Move { span, .. } if first_word.is_none() => {
                            let t = span.slice(text);
                            first_word = Some(!reads(t) && !move_shaped(t));
                        }
                        _ => {}
                    }
                    end = k;
                    if depth == 0 {
                        break;
                    }
                }
                if first_word == Some(true) {
                    prose[i..=end].fill(true);
                }
                i = end + 1;
            }
            _ => i += 1,
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < elements.len() {
        if prose[i] {
            i += 1;
            continue;
        }
        // to the next prose word, or to a move number after a move (each numbered
        // move pair its own run: a run that does not play is then only that pair)
        let from = i;
        let mut seen_move = false;
        let mut depth = 0usize;
        // the moves the run's number is still due (2 after White's or Red's, 1 after
        // Black's): a numbered pair is whole at 0
        let mut due: Option<usize> = None;
        while i < elements.len() && !prose[i] {
            // a paragraph ends the run (`9.Jbd2.` / blank line / `Dg6`), and so does
            // the end of the line of a whole numbered pair (`4. C2=4 H8+9` / `H8+9 is
            // rare too;`) or the placeholder of a half left for later (`3. A4+5 …………`)
            if seen_move
                && depth == 0
                && (paragraph(text, &elements[i - 1], &elements[i])
                    || due == Some(0) && line_break(text, &elements[i - 1], &elements[i])
                    || placeholder(text, &elements[i - 1]))
            {
                break;
            }
            match elements[i] {
                Element::MoveNumber { black, .. } if !seen_move => {
                    due = Some(if black { 1 } else { 2 });
                }
                Element::Move { .. } if depth == 0 => {
                    seen_move = true;
                    due = due.map(|d| d.saturating_sub(1));
                }
                Element::Move { .. } => seen_move = true,
                Element::StartVariation { .. } => depth += 1,
                Element::EndVariation { .. } => depth = depth.saturating_sub(1),
                Element::MoveNumber { .. } if seen_move && depth == 0 => break,
                _ => {}
            }
            i += 1;
        }
        let to = i;
        // the main-line moves of elements[from..to]
        let mut moves = Vec::new();
        let mut depth = 0usize;
        for (k, e) in elements.iter().enumerate().take(to).skip(from) {
            match e {
                Element::Move { .. } if depth == 0 => moves.push(k),
                Element::StartVariation { .. } => depth += 1,
                Element::EndVariation { .. } => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        let (Some(&first), Some(&last)) = (moves.first(), moves.last()) else {
            continue;
        };
        // the number, before a comma typed after its dots (`7. … , Xe 6 tấn 5`)
        let mut head = first;
        while head > from
            && matches!(elements[head - 1], Element::Annotation { span } if span.slice(text) == ",")
        {
            head -= 1;
        }
        let numbered = head
            .checked_sub(1)
            .filter(|&k| k >= from)
            .and_then(|k| match elements[k] {
                Element::MoveNumber { number, black, .. } => Some((number, black)),
                _ => None,
            });
        let start = if numbered.is_some() { head - 1 } else { first };
        // trailing move numbers (`12` before a word) are not the run's
        let mut end = to;
        while end > last + 1 && matches!(elements[end - 1], Element::MoveNumber { .. }) {
            end -= 1;
        }
        out.push(Run {
            elements: start..end,
            moves,
            numbered,
            prose_after: prose.get(to).copied().unwrap_or(false),
        });
    }
    out
}

/// `raw` (a record without tags) with the `;` typed inside a sentence read as the
/// sentence's punctuation, not as PGN's line comment (`… au centre du jeu; ce qui est
/// d'une grande importance. 4... exd4 5. cxd4 …`): a `;` glued to a prose word that ends
/// a line comment no PGN writer puts there, and the rest of the line, which the comment
/// hid, is read as movetext again (its moves and words, each `;` so glued too). `None`
/// when there is no such `;`. A `;` after a move, a number or a space stays a comment.
pub fn unfold_prose_semicolons(raw: &RawGame) -> Option<RawGame> {
    if !raw.tags.is_empty() {
        return None;
    }
    let text = raw.text.as_str();
    // the line comment at `i` opened by a `;` glued to the prose word before it
    let prose_semicolon = |m: &[Element], i: usize| {
        let (
            Some(Element::Comment {
                kind: CommentKind::Line,
                body,
                ..
            }),
            Some(Element::Move { span, .. }),
        ) = (m.get(i), i.checked_sub(1).and_then(|p| m.get(p)))
        else {
            return false;
        };
        // a word, with the full stop or comma of its sentence (`peón.;`)
        let word = span.slice(text).trim_end_matches(['.', ',', '!', '?']);
        span.end + 1 == body.start
            && word.chars().filter(|c| c.is_alphabetic()).count() >= 2
            && word
                .chars()
                .all(|c| c.is_alphabetic() || c == '\'' || c == '’')
            && !move_shaped(word)
    };
    let mut movetext = raw.movetext.clone();
    let mut changed = false;
    // the `;` so found: the text is parsed again with each of them a comma, so that a
    // parenthesis opened before one and closed after it on its line (`(Selten, aber
    // korrekt; üblich sind Sdb5 oder Sxc6) 6...Le7`) is one note, as written
    let mut semicolons = Vec::new();
    // each unfolding removes one comment: at most as many rounds as there are
    let mut rounds = movetext.len();
    while rounds > 0 {
        rounds -= 1;
        let Some(i) = (0..movetext.len()).find(|&i| prose_semicolon(&movetext, i)) else {
            break;
        };
        let Element::Comment { body, .. } = movetext[i] else {
            break;
        };
        let Some(rest) = text.get(body.start as usize..body.end as usize) else {
            break;
        };
        let syntax = super::parse_game(rest, &super::Limits::default());
        if syntax.rest.is_some() || !syntax.tags.is_empty() {
            break;
        }
        let inner: Vec<Element> = shifted(&syntax.movetext, body.start).collect();
        // the `;` is the word's punctuation: kept with it
        if let Some(Element::Move { span, .. }) = movetext.get_mut(i - 1) {
            *span = Span::new(span.start, body.start);
        }
        movetext.splice(i..=i, inner);
        semicolons.push(body.start as usize - 1);
        changed = true;
    }
    if !changed {
        return None;
    }
    let mut masked = raw.text.clone().into_bytes();
    for &k in &semicolons {
        if masked.get(k) == Some(&b';') {
            masked[k] = b',';
        }
    }
    // a heading joined before the record ([`join_headings`]) stays its comment
    let skip = match raw.movetext.first() {
        Some(Element::Comment {
            kind: CommentKind::Brace,
            closed: false,
            body,
        }) if body.start == 0 && !text.starts_with('{') => 1,
        _ => 0,
    };
    let from = raw
        .movetext
        .get(skip)
        .map_or(0, |e| e.span().start as usize);
    if let Ok(masked) = String::from_utf8(masked)
        && let Some(rest) = masked.get(from..)
    {
        let syntax = super::parse_game(rest, &super::Limits::default());
        if syntax.rest.is_none() && syntax.tags.is_empty() {
            movetext = raw.movetext[..skip].to_vec();
            movetext.extend(shifted(&syntax.movetext, from as u32));
        }
    }
    changed.then(|| {
        let mut out = raw.clone();
        out.movetext = movetext;
        out.counts = None;
        out.move_letters = None;
        out
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::archive::read_str;

    fn words(raw: &RawGame, run: &Run) -> Vec<String> {
        run.moves
            .iter()
            .map(|&k| raw.slice(raw.movetext[k].span()).to_owned())
            .collect()
    }

    /// A heading on its own line and prose after the moves are not runs; the runs are
    /// the moves between, with their numbers.
    #[test]
    fn runs_between_prose() {
        let raw = read_str("1.e4 e5 2.f4 exf4 Hier beginnt es\n3.Lc4 Dh4+\n").remove(0);
        let runs = runs(&raw, |_| false);
        assert_eq!(runs.len(), 3, "{runs:?}");
        assert_eq!(words(&raw, &runs[0]), ["e4", "e5"]);
        assert_eq!(runs[0].numbered, Some((1, false)));
        assert!(!runs[0].prose_after);
        assert_eq!(words(&raw, &runs[1]), ["f4", "exf4"]);
        assert!(runs[1].prose_after);
        assert_eq!(words(&raw, &runs[2]), ["Lc4", "Dh4+"]);
        assert_eq!(runs[2].numbered, Some((3, false)));
        assert!(!runs[2].prose_after);
    }

    #[test]
    fn shapes() {
        for (t, m) in [
            ("e4", true),
            ("O-O", true),
            ("0-0-0+", true),
            ("炮二平五", true),
            ("Partie", false),
            ("Hier", false),
            ("--", true),
            ("o", false),
            ("line:1.", false),
            ("Kf3:e5", true),
            ("如图形势,黑方主要有车2进5", false),
            ("马七退八卒1进1", true),
        ] {
            assert_eq!(move_shaped(t), m, "{t}");
        }
    }
}
