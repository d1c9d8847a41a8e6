//! Free text and the game told from the content (issue 25): the reading of a record
//! whose main line stops when read as PGN.
//!
//! Two questions are answered here by replay, never by the look of the text alone:
//!
//! * **Which game.** When no tag or option names the game, a token only xiangqi has
//!   (Chinese move words, `P2-5`, `C2.5`, `h9g7`) settles it before the walk
//!   ([`xiangqi_only`]); otherwise, when the chess walk stops, the record is also read as
//!   xiangqi under every notation, and the game whose reading replays further wins, with
//!   a `game-from-content` note.
//! * **Which words are moves.** A record copied from a page has headings, prose and
//!   captions around and between its moves. The candidate runs of moves are cut by
//!   [`crate::archive::text::runs`] (words that no notation reads and that are not move
//!   shaped are prose); here each run is accepted by replay: a run is the game's when its
//!   moves play on from where the game stands, a lone legal move amid prose or a run that
//!   does not play (a side line quoted in the notes) is prose. The prose is kept verbatim
//!   as a comment of the game where it stands (a `text-kept` note), never dropped. The
//!   reading kept is the one that replays most of the text: every piece-letter table and
//!   every xiangqi notation is tried.
//!
//! All of it runs only when the plain reading stops (a game read to its end never comes
//! here), so PGN costs nothing more.

use super::*;
use crate::archive::text::{Run, runs};
use crate::model::diag::Code;

/// How many runs after a failing numbered run are looked at for the same number
/// played again (a side line quoted in the notes, then the game).
const RESYNC_RUNS: usize = 64;

/// A reading of the record: the game, how its tokens are read, the movetext with its
/// prose made comments, and how far it replays.
struct Reading {
    board: Board,
    reader: Reader,
    movetext: Vec<Element>,
    prose: Vec<Span>,
    plies: usize,
}

/// What [`reread`] found better than the plain reading: the game is replayed from it.
pub(super) struct Reread {
    pub variant: Variant,
    pub start: Board,
    pub reader: Reader,
    pub movetext: Vec<Element>,
    pub notes: Vec<Diagnostic>,
    /// The `(` of variations left open that the reading read as text: their
    /// `unclosed-variation` warnings are dropped.
    pub unclosed: Vec<Span>,
}

/// A token only xiangqi writes: a Chinese move word (`平`, `进`, `進`, `退`), a piece
/// letter or two, a file digit, a xiangqi operator and a digit (`P2-5`, `M8.7`, `C2.5`,
/// `H8+7`, `P2=5`, `Tg6.1`), or an ICCS move on a rank or file chess has not (`h9g7`,
/// `h0g2`, `i0h0`).
pub fn xiangqi_only(token: &str) -> bool {
    if token
        .chars()
        .any(|c| matches!(c, '平' | '进' | '進' | '退' | '帅' | '將' | '帥'))
    {
        return true;
    }
    let b = token.as_bytes();
    let letters = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    if (1..=2).contains(&letters)
        && let [d1, op, d2, ..] = b[letters..]
        && d1.is_ascii_digit()
        && matches!(op, b'-' | b'.' | b'+' | b'=' | b'/')
        && d2.is_ascii_digit()
    {
        return true;
    }
    let iccs = match b {
        [f1, r1, f2, r2] | [f1, r1, b'-', f2, r2] => Some([*f1, *r1, *f2, *r2]),
        _ => None,
    };
    iccs.is_some_and(|[f1, r1, f2, r2]| {
        let file = |f: u8| matches!(f.to_ascii_lowercase(), b'a'..=b'i');
        file(f1)
            && file(f2)
            && r1.is_ascii_digit()
            && r2.is_ascii_digit()
            && (matches!(r1, b'0' | b'9')
                || matches!(r2, b'0' | b'9')
                || f1.eq_ignore_ascii_case(&b'i')
                || f2.eq_ignore_ascii_case(&b'i'))
    })
}

/// Does `reader` read `token` as a move (its syntax only)?
fn reads(token: &str, reader: Reader, scratch: &mut san::SanSyntax) -> bool {
    match reader {
        Reader::Chess(table) => {
            *scratch = san::SanSyntax::blank();
            san::syntax::parse_into(token, table, scratch).is_ok()
                || short_capture_files(token).is_some()
        }
        Reader::Xiangqi(dialect) => xq_notation::check_syntax(token, dialect).is_ok(),
        Reader::Descriptive(table) => san::descriptive::parse(token, table).is_ok(),
    }
}

/// One move token played on `board` under `reader`: the plies it made, or `Err(true)`
/// when no notation of the reader reads it (a word, not a move), `Err(false)` when it
/// reads but does not play here.
fn play(
    token: &str,
    reader: Reader,
    board: &mut Board,
    scratch: &mut san::SanSyntax,
) -> Result<usize, bool> {
    match (reader, board) {
        (Reader::Chess(table), Board::Chess(pos)) => {
            *scratch = san::SanSyntax::blank();
            if san::syntax::parse_into(token, table, scratch).is_err()
                && short_capture(token, table, pos, scratch).is_none()
            {
                return Err(true);
            }
            san::resolve_play(scratch, pos, token)
                .map(|_| 1)
                .map_err(|_| false)
        }
        (Reader::Xiangqi(dialect), Board::Xiangqi(pos)) => {
            if xq_notation::check_syntax(token, dialect).is_err() {
                return Err(true);
            }
            let mut after = pos.clone();
            match xq_notation::read_play_many(token, dialect, &mut after) {
                Ok(r) if !r.is_empty() => {
                    *pos = after;
                    Ok(r.len())
                }
                _ => Err(false),
            }
        }
        (Reader::Descriptive(table), Board::Chess(pos)) => {
            let m = san::descriptive::parse(token, table).map_err(|_| true)?;
            let mv = san::descriptive::resolve(&m, pos, token).map_err(|_| false)?;
            pos.play_legal(&mv);
            Ok(1)
        }
        _ => Err(true),
    }
}

/// Reads `raw` under `reader` from `start`: its runs of moves accepted by replay, the
/// rest prose. The walk stops at a run that is the game's (numbered as the game goes
/// on) but does not play: the record's own error, left for the plain walk to report.
fn read(raw: &RawGame, start: &Board, reader: Reader) -> Reading {
    let text = raw.text.as_str();
    let mut scratch = san::SanSyntax::blank();
    // prose only in a record without tags: a PGN game's stray word is its error
    let free = raw.tags.is_empty();
    let found = runs(raw, |t| {
        !free || reads(t, reader, &mut scratch) || reads(stem(t), reader, &mut scratch)
    });
    let mut board = start.clone();
    let mut plies = 0usize;
    let mut prose: Vec<(usize, usize)> = Vec::new(); // element ranges made prose
    let mut last_end = 0usize; // elements before this are decided
    let mut stopped = false;
    // a move with a full stop or a comma after it (`Nf6.`, `1. e4, e5`) is read
    // without it, in a record without tags
    let mut glued = vec![false; raw.movetext.len()];
    if free {
        for (i, e) in raw.movetext.iter().enumerate() {
            if let Element::Move { span, .. } = e {
                let t = span.slice(text);
                glued[i] = stem(t).len() < t.len()
                    && !reads(t, reader, &mut scratch)
                    && reads(stem(t), reader, &mut scratch);
            }
        }
    }
    let word = |i: usize| match raw.movetext[i] {
        Element::Move { span, .. } if glued[i] => stem(span.slice(text)),
        Element::Move { span, .. } => span.slice(text),
        _ => "",
    };
    // runs that a prose word leads into on their line (`If 2. PxP, Black …`, `by 2.
    // P-K3 or`): a chess game's moves in a book start their line or follow moves
    let chessy = !matches!(reader, Reader::Xiangqi(_));
    let line_prose: Vec<bool> = found
        .iter()
        .map(|run| {
            free && raw.movetext.get(run.elements.start).is_some_and(|e| {
                let before = &text[..e.span().start as usize];
                let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
                line.split_whitespace().next_back().is_some_and(|w| {
                    w.chars().any(char::is_alphabetic)
                        && !w.chars().any(|c| c.is_ascii_digit())
                        && !reads(w, reader, &mut scratch)
                        && !reads(stem(w), reader, &mut scratch)
                })
            })
        })
        .collect();
    let mid_prose: Vec<bool> = line_prose.iter().map(|&p| p && chessy).collect();
    // runs that a `;` glued to a word put back into a sentence
    // ([`crate::archive::text::unfold_prose_semicolons`]): the game's only after the
    // end of a sentence (`… importance. 4... exd4`), not in its middle (`resigned;
    // 18...Neg4`, `… mossa; il bianco risponde bene con 4.Cd5!`)
    let in_sentence: Vec<bool> = found
        .iter()
        .map(|run| {
            free && raw.movetext.get(run.elements.start).is_some_and(|e| {
                let before = &text[..e.span().start as usize];
                let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
                let glued = line
                    .char_indices()
                    .any(|(i, c)| c == ';' && line[..i].ends_with(char::is_alphabetic));
                glued
                    && line.split_whitespace().next_back().is_some_and(|w| {
                        w.chars().any(char::is_alphabetic)
                            && !w.chars().any(|c| c.is_ascii_digit())
                            && !w.ends_with(['.', '!', '?'])
                            && !reads(w, reader, &mut scratch)
                    })
            })
        })
        .collect();
    // runs on a bulleted line that opens on Black's move without its number (`- ..g6
    // seconda scelta 5.e5 Cg4`, `- ..Cd4 5.e5! Cxb5`): an alternative to the game's
    // move, listed under it, and the whole line is that alternative's
    let alternative_line = |i: usize| {
        free && chessy
            && raw.movetext.get(i).is_some_and(|e| {
                let before = &text[..e.span().start as usize];
                let line = text[before.rfind('\n').map_or(0, |i| i + 1)..].trim_start();
                line.strip_prefix(['-', '–', '•', '*']).is_some_and(|r| {
                    r.trim_start()
                        .strip_prefix("..")
                        .is_some_and(|m| m.starts_with(char::is_alphabetic))
                })
            })
    };
    // the game ended by a word after its last move (`20.Sxe6 Aufgabe!!`): what follows
    // is notes, whatever it replays
    let mut ended = false;
    let mut prose_from: Option<usize> = None;
    // the number a side line read as prose goes on with (`第二种下法:炮2退1 11. 炮2退1
    // 12. 车四退三 … 14. 车四退二 炮7进1`): a run so numbered that does not play is that
    // side line's, not the record's error
    let mut side_next: Option<u32> = None;
    // where the last run read as a side line ended
    let mut side_end: Option<usize> = None;
    // the board before the game's last ply
    let mut before_last: Option<Board> = None;
    // a run of the game so far was numbered
    let mut numbered_game = false;
    for (k, run) in found.iter().enumerate() {
        let Run {
            elements,
            moves,
            numbered,
            ..
        } = run;
        // the words before the run that no reader reads are prose in any case
        if stopped || ended {
            break;
        }
        // White's last move written again with its number before Black's (`7.Ba1` /
        // `(...)` / `7.Ba1 f6`): the repeated move is text, the run goes on from Black's
        let repeated = free
            && plies % 2 == 1
            && moves.len() > 1
            && numbered.is_some_and(|(n, black)| !black && n as usize == plies / 2 + 1)
            && before_last.as_ref().is_some_and(|b| {
                let mut again = b.clone();
                play(word(moves[0]), reader, &mut again, &mut scratch).is_ok()
                    && match (&again, &board) {
                        (Board::Chess(a), Board::Chess(b)) => a == b,
                        (Board::Xiangqi(a), Board::Xiangqi(b)) => a == b,
                        _ => false,
                    }
            });
        let moves = if repeated { &moves[1..] } else { &moves[..] };
        let numbered = &if repeated {
            numbered.map(|(n, _)| (n, true))
        } else {
            *numbered
        };
        // a move closing a sentence that does not play here, then the game's reply (`…
        // sacrificare il pedone b6. Ng5 25.Rh4`): the sentence's
        let sentence_end = free
            && chessy
            && !repeated
            && numbered.is_none()
            && moves.len() > 1
            && raw.movetext[moves[0]].span().slice(text).ends_with('.')
            && play(word(moves[0]), reader, &mut board.clone(), &mut scratch).is_err();
        let moves = if sentence_end { &moves[1..] } else { moves };
        let lone = moves.len() == 1;
        // the run's last move opens a line that goes on in prose (`17. Rf1 Dg5?!` /
        // `Ff6 limitait la casse.`): the subject of a note, not the game's move
        // (when the game's move of that ply comes later with its number: `18. Fxc4`)
        let tail_note = free
            && chessy
            && moves.last().is_some_and(|&i| {
                note_line(raw, moves, i, run.prose_after)
                    && raw.movetext.get(i + 1).is_some_and(|next| {
                        text.get(raw.movetext[i].span().end as usize..next.span().start as usize)
                            .is_some_and(|gap| !gap.contains('\n'))
                    })
            })
            && {
                let head = &moves[..moves.len() - 1];
                let mut b = board.clone();
                let p = plies + head.len();
                let number = Some(((p / 2 + 1) as u32, p % 2 == 1));
                head.iter()
                    .all(|&i| play(word(i), reader, &mut b, &mut scratch).is_ok())
                    && found[k + 1..].iter().take(RESYNC_RUNS).any(|later| {
                        later.numbered == number
                            && later.moves.first().is_some_and(|&i| {
                                play(word(i), reader, &mut b.clone(), &mut scratch).is_ok()
                            })
                    })
            };
        // the run runs into a bulleted alternative line (`5.0–0 Cd4` / `- ..e6 6.Te1`):
        // the run is the moves before it, or none when it starts there
        let alternative_from = moves.iter().position(|&i| alternative_line(i));
        let alternative = alternative_from == Some(0) || alternative_line(elements.start);
        // where the run's own part ends, when not at its end
        let cut_at = match alternative_from {
            Some(c) if c > 0 => Some(moves[c]),
            _ if tail_note => moves.last().copied(),
            _ => None,
        };
        let moves = match alternative_from {
            Some(c) => &moves[..c],
            None if tail_note => &moves[..moves.len() - 1],
            None => moves,
        };
        if moves.is_empty() && !alternative {
            continue;
        }
        let mut trial = board.clone();
        let mut made = 0usize;
        let mut played = 0usize;
        let mut failed_at = None;
        let mut trial_before = before_last.clone();
        for &i in moves {
            let before = trial.clone();
            match play(word(i), reader, &mut trial, &mut scratch) {
                Ok(n) => {
                    made += n;
                    played += 1;
                    trial_before = Some(before);
                }
                Err(_) => {
                    failed_at = Some(i);
                    break;
                }
            }
        }
        let between_prose = k > 0 || elements.start > 0;
        // Black's last move written again alone with its number after a side line
        // (`19. ... Df2+ 20. Rd3 Cc5 mat.` / `19. ... Df2+ 20. Rh3`): text, not a side line
        let restated = free
            && plies > 0
            && plies.is_multiple_of(2)
            && moves.len() == 1
            && *numbered == Some(((plies / 2) as u32, true))
            && before_last.as_ref().is_some_and(|b| {
                let mut again = b.clone();
                play(word(moves[0]), reader, &mut again, &mut scratch).is_ok()
                    && match (&again, &board) {
                        (Board::Chess(a), Board::Chess(b)) => a == b,
                        _ => false,
                    }
            });
        let expected = (plies / 2 + 1) as u32;
        let numbered_here = numbered.is_some_and(|(n, black)| {
            n == expected && black == (plies % 2 == 1) || plies == 0 && n == 1
        });
        // a run numbered as another move than the game's next one, once the game has
        // begun: a side line going back (`9.…………车2平6` after move 18, the notes'
        // `(16. ... Dxd1+`), or a plan ahead (`после 4.Cb5:c6 d7:c6 5. Kf3:e5`) when the
        // game's own move comes later with its number
        let elsewhere = free
            && plies > 0
            && !restated
            && numbered.is_some_and(|(n, _)| {
                n < expected
                    || n > expected
                        && found[k + 1..].iter().take(RESYNC_RUNS).any(|later| {
                            later.numbered.is_some_and(|(m, _)| m == expected)
                                && later.moves.first().is_some_and(|&i| {
                                    play(word(i), reader, &mut board.clone(), &mut scratch).is_ok()
                                })
                        })
            });
        // a side line read as prose goes on right after it with its next number, no
        // full stop between (`Avevo pensato a 11… e5 12. åc5 ™e8 13. exd5`): its own,
        // even where it plays (not after `Meglio di 5...d6. 6.d4`)
        let goes_on = free
            && chessy
            && side_end == Some(elements.start)
            && elements.start > 0
            && !raw.movetext[elements.start - 1]
                .span()
                .slice(text)
                .ends_with(['.', '!', '?', ')']);
        let side_line = numbered.is_some_and(|(n, _)| {
            side_next.is_some_and(|s| n == s || n + 1 == s)
                && (elsewhere || failed_at.is_some() || goes_on && n == side_next.unwrap_or(0))
        });
        let accepted =
            match failed_at {
                // a PGN game (with tags) is read by replay alone: its words are not prose
                _ if !free => true,
                _ if elsewhere
                    || side_line
                    || in_sentence[k] && !sentence_end
                    || alternative
                    || restated =>
                {
                    false
                }
                // xiangqi moves quoted in a sentence, without a number, once the game has
                // gone on by numbered runs (`… tránh đường biến quen thuộc p8-7 m3.2 ,
                // x2.6`, `… thì Hậu có Xe 6 tấn 5, Mã 7 tấn 5`): a side line in the notes
                _ if !chessy && numbered_game && numbered.is_none() && line_prose[k] => false,
                // a plan or a side line in the notes, numbered as another move (`Coupled with
                // 4. P-K4`), or as this one when the game's move comes on a line of its own
                // later (`If 2. PxP, …` before `2. P-Q5 P-Q3`)
                None if mid_prose[k]
                    && !sentence_end
                    && numbered.is_some_and(|(n, _)| {
                        n != expected
                            || found[k + 1..].iter().enumerate().take(RESYNC_RUNS).any(
                                |(j, later)| {
                                    // not the run right after it: both moves of a pair
                                    // numbered (`1. P. to K's 4th. 1. P. to K's 4th.`)
                                    !(j == 0 && pair_on_line(raw, elements.end, later))
                                        && later.numbered.is_some_and(|(m, _)| m == n)
                                        && !mid_prose[k + 1 + j]
                                        && later.moves.first().is_some_and(|&i| {
                                            play(word(i), reader, &mut board.clone(), &mut scratch)
                                                .is_ok()
                                        })
                                },
                            )
                    }) =>
                {
                    false
                }
                // a lone move amid words: prose after it, or before it on its line
                // (`с подготовкой d2-d4.`)
                None => {
                    !(lone
                        && numbered.is_none()
                        && between_prose
                        && (run.prose_after || mid_prose[k] && !sentence_end))
                }
                Some(_) if played > 0 => true,
                // the record's error, unless a later run numbered the same plays from here
                // (the failing one is a side line in the notes: `[6.Lh4 … 6…Dxh4!]` before
                // the game's `6…Lxf2#`)
                Some(_) => {
                    numbered_here
                        && !found[k + 1..].iter().take(RESYNC_RUNS).any(|later| {
                            later.numbered == *numbered
                                && later.moves.first().is_some_and(|&i| {
                                    play(word(i), reader, &mut board.clone(), &mut scratch).is_ok()
                                })
                        })
                }
            };
        side_next = match (accepted, numbered) {
            (false, Some((n, _))) if elsewhere || side_line => Some(n + 1),
            (false, _) => side_next,
            (true, _) => None,
        };
        side_end = match (accepted, numbered) {
            (false, Some(_)) if elsewhere || side_line => Some(elements.end),
            _ => None,
        };
        if !accepted {
            // prose: from where the prose began (or this run) to the run's end
            prose_from.get_or_insert(last_end);
            last_end = elements.end;
            continue;
        }
        let from = prose_from.take().unwrap_or(last_end);
        // the repeated move, with its number, is text before the run
        let start = match moves.first() {
            Some(&first) if repeated || sentence_end => first,
            _ => elements.start,
        };
        if has_text(&raw.movetext[from..start]) {
            prose.push((from, start));
        }
        plies += made;
        numbered_game |= numbered.is_some();
        board = trial;
        before_last = trial_before;
        last_end = elements.end;
        if let Some(i) = cut_at {
            last_end = i;
        }
        ended = failed_at.is_none()
            && cut_at.is_none()
            && matches!(raw.movetext.get(elements.end), Some(Element::Move { span, .. })
                if resignation(span.slice(text)));
        match failed_at {
            // the run's last move starts a line of prose (`7. KKt-K2` / `Kt-B3 would
            // have been better`): a note, not the record's error
            Some(i) if free && chessy && note_line(raw, moves, i, run.prose_after) => {
                last_end = i;
            }
            Some(_) => stopped = true,
            None => {}
        }
    }
    if !stopped {
        let end = raw.movetext.len();
        let from = prose_from.unwrap_or(last_end);
        if has_text(&raw.movetext[from..end]) {
            prose.push((from, end));
        }
    }
    // the movetext with every prose range one comment over its text, verbatim
    let mut movetext = Vec::with_capacity(raw.movetext.len());
    let mut spans = Vec::new();
    let mut i = 0;
    for &(from, to) in prose.iter().filter(|(f, t)| t > f) {
        movetext.extend_from_slice(&raw.movetext[i..from]);
        let span = Span::new(
            raw.movetext[from].span().start,
            raw.movetext[to - 1].span().end,
        );
        movetext.push(Element::Comment {
            kind: crate::archive::CommentKind::Brace,
            closed: false,
            body: span,
        });
        spans.push(span);
        i = to;
    }
    movetext.extend_from_slice(&raw.movetext[i..]);
    if glued.contains(&true) {
        // the moves read without their full stop or comma: the mark, punctuation of
        // the sentence, is left out of the move's span (the source keeps it)
        let cut: std::collections::HashMap<u32, u32> = raw
            .movetext
            .iter()
            .zip(&glued)
            .filter_map(|(e, &g)| match e {
                Element::Move { span, .. } if g => {
                    Some((span.start, span.start + stem(span.slice(text)).len() as u32))
                }
                _ => None,
            })
            .collect();
        for e in &mut movetext {
            if let Element::Move { span, ep: None } = e
                && let Some(&end) = cut.get(&span.start)
            {
                *span = Span::new(span.start, end);
            }
        }
    }
    Reading {
        board: start.clone(),
        reader,
        movetext,
        prose: spans,
        plies,
    }
}

/// Words printed after a game's last move that end it: a resignation
/// (`20.Sxe6 Aufgabe!!`, `Abandonan.`, `resigns`), with the marks after it.
fn resignation(word: &str) -> bool {
    let w = word.trim_end_matches(['!', '?', '.', ',', ')']);
    RESIGNATION_WORDS
        .iter()
        .any(|r| w.eq_ignore_ascii_case(r) || w == *r)
}

/// The words of [`resignation`]: German, English, Spanish, French, Italian, Russian.
const RESIGNATION_WORDS: &[&str] = &[
    "Aufgabe",
    "aufgegeben",
    "resigns",
    "resigned",
    "abandonan",
    "abandona",
    "abandonne",
    "abandon",
    "abbandona",
    "сдались",
];

/// Does `later` start right where a run ending at element `end` ends, on the same line
/// (`1. P. to K's 4th. 1. P. to K's 4th.`: both moves of a pair numbered)?
fn pair_on_line(raw: &RawGame, end: usize, later: &Run) -> bool {
    later.elements.start == end
        && end > 0
        && raw.movetext.get(end).is_some_and(|next| {
            raw.text
                .get(raw.movetext[end - 1].span().end as usize..next.span().start as usize)
                .is_some_and(|gap| !gap.contains('\n'))
        })
}

/// Is the move element `i`, the last of a run's `moves` and not its first, the first
/// word of a line that goes on in prose (`prose_after`)?
fn note_line(raw: &RawGame, moves: &[usize], i: usize, prose_after: bool) -> bool {
    let (Some(&last), true) = (moves.last(), moves.len() > 1 && prose_after) else {
        return false;
    };
    last == i
        && i > 0
        && raw
            .text
            .get(raw.movetext[i - 1].span().end as usize..raw.movetext[i].span().start as usize)
            .is_some_and(|gap| gap.contains('\n'))
}

/// A move token without what is typed after it and is not the move: the full stop,
/// comma or semicolon of the sentence (`Nf6.`, `e4,`), the placeholder of Black's
/// move glued to Red's or White's (`车九平八…………`), and an evaluation glued to the move
/// (`Nc5=+`, `Bg7+–`, `Nb4-/+`, `cd5=`), a capital `X` typed as the mate sign
/// (`Hh4X`) or a caption mark (`马2进3(图)`), which the text keeps.
fn stem(token: &str) -> &str {
    let mut s = token;
    // a caption mark glued after the move: `马2进3(图)` ("diagram")
    if let Some(t) = s.strip_suffix(')')
        && let Some((move_, mark)) = t.rsplit_once('(')
        && !move_.is_empty()
        && !mark.is_empty()
        && !mark.is_ascii()
    {
        s = move_;
    }
    let bare = s.trim_end_matches('…');
    if !bare.is_empty() {
        s = bare;
    }
    if let Some(t) = s.strip_suffix(['.', ',', ';'])
        && !t.is_empty()
        && !t.ends_with('.')
    {
        s = t;
    }
    // `Hh4X`: a capital X after the square, the mate sign of some Polish texts
    if let Some(t) = s.strip_suffix('X')
        && t.ends_with(|c: char| c.is_ascii_digit())
    {
        s = t;
    }
    let bare = s.trim_end_matches(['=', '+', '-', '–', '—', '/', '±', '∓', '⩲', '⩱', '∞']);
    if bare.len() >= 2 && bare.len() < s.len() {
        s = bare;
    }
    s
}

/// Do `elements` hold text that is not already a comment, a NAG or an annotation (a
/// word, a number, a variation)? Only such a stretch is made a comment.
fn has_text(elements: &[Element]) -> bool {
    elements.iter().any(|e| {
        !matches!(
            e,
            Element::Comment { .. }
                | Element::Nag { .. }
                | Element::Annotation { .. }
                | Element::Escape { .. }
        )
    })
}

/// A variation left open (closed by the reader at the end of the text) that opens on
/// prose: a word, or a number written `1851)` (`(1851)`, `(1-0, 28).`), which in
/// movetext is a move number. A record without tags that has one is read as free text
/// too.
pub(super) fn prose_parenthesis(raw: &RawGame) -> bool {
    let m = &raw.movetext;
    let mut open = Vec::new();
    for (i, e) in m.iter().enumerate() {
        match e {
            Element::StartVariation { .. } => open.push(i),
            Element::EndVariation { span } => {
                if let Some(o) = open.pop()
                    && span.is_empty()
                {
                    let prose = match m.get(o + 1) {
                        Some(Element::MoveNumber { span, .. }) => {
                            span.slice(&raw.text).ends_with(')')
                        }
                        Some(Element::Move { span, .. }) => {
                            !crate::archive::text::move_shaped(span.slice(&raw.text))
                        }
                        _ => false,
                    };
                    if prose {
                        return true;
                    }
                }
            }
            _ => {}
        }
    }
    false
}

/// The readings to try: chess under every piece-letter table, xiangqi under every
/// notation (the games and readers `variant` and the options allow).
fn candidates(
    raw: &RawGame,
    tags: &Tags,
    variant: Option<Variant>,
    options: &ReplayOptions,
    phrased: bool,
) -> Vec<(Variant, Board, Reader)> {
    let mut out = Vec::new();
    if matches!(variant, None | Some(Variant::Chess | Variant::Chess960)) {
        let v = variant.unwrap_or(Variant::Chess);
        if let Ok(p) = chess_start(tags, v == Variant::Chess960, &mut Vec::new()) {
            let tables: Vec<&'static PieceTable> = match options.lang {
                Some(t) => vec![t],
                None => san::tables().iter().collect(),
            };
            if !options.descriptive {
                for t in tables {
                    out.push((v, Board::Chess(p.clone()), Reader::Chess(t)));
                }
            }
            // Latin look-alikes of Cyrillic letters (`Kf3` for `Кf3`), only in a record
            // with Cyrillic piece letters elsewhere
            if options.lang.is_none() && !options.descriptive {
                for t in lookalike_tables(raw) {
                    out.push((v, Board::Chess(p.clone()), Reader::Chess(t)));
                }
            }
            // descriptive notation, when a token settles it (`P-K4`, `PxP`, `P4R`)
            if options.descriptive || phrased || raw.main_line().any(san::descriptive::settles) {
                for t in san::descriptive::tables() {
                    out.push((v, Board::Chess(p.clone()), Reader::Descriptive(t)));
                }
            }
        }
    }
    if matches!(variant, None | Some(Variant::Xiangqi))
        && let Ok(p) = xiangqi_start(tags)
    {
        let dialects: Vec<xq_notation::Dialect> = match options.xiangqi {
            Some(d) => vec![d],
            None => xq_notation::notations().iter().map(|n| n.dialect).collect(),
        };
        for d in dialects {
            out.push((
                Variant::Xiangqi,
                Board::Xiangqi(p.clone()),
                Reader::Xiangqi(d),
            ));
        }
    }
    out
}

/// `grammars/chess-lookalikes.tsv`: Latin letters typed for the Cyrillic ones.
const LOOKALIKES: &str = include_str!("../../grammars/chess-lookalikes.tsv");

/// The tables of `grammars/chess-lookalikes.tsv` (the Russian table with the Latin
/// look-alikes of its letters added: `K`, `C`, `Kp`; a German machine translation's
/// mix of them with `D` and `T`), for a record whose main line has Cyrillic piece
/// letters (`Кc6`, `Сc5`, `Лe1`) or the Latin `Kp` of the Russian king before a square
/// (`Kpe1-f1`): a record typed partly on a Latin keyboard, or transliterated. None for
/// any other record: there `K` is a king.
fn lookalike_tables(raw: &RawGame) -> &'static [&'static PieceTable] {
    static TABLES: std::sync::OnceLock<Vec<&'static PieceTable>> = std::sync::OnceLock::new();
    let russian = |t: &str| {
        t.chars()
            .next()
            .is_some_and(|c| matches!(c, 'К' | 'С' | 'Л' | 'Ф'))
            || t.strip_prefix("Kp")
                .is_some_and(|r| r.starts_with(|c: char| ('a'..='h').contains(&c)))
    };
    if !raw.main_line().any(russian) {
        return &[];
    }
    TABLES.get_or_init(|| {
        let codes: Vec<&str> = LOOKALIKES
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split('\t').next())
            .collect();
        san::with_extra_tables(LOOKALIKES)
            .map(|all| all.iter().filter(|t| codes.contains(&t.code)).collect())
            .unwrap_or_default()
    })
}

/// The descriptive notation whose letters replay furthest along `raw`'s main line from
/// `start` (`--notation descriptive`); English on a tie.
pub(super) fn choose_descriptive(
    raw: &RawGame,
    start: &Position,
) -> &'static san::descriptive::Descriptive {
    let tokens: Vec<&str> = raw.main_line().collect();
    let mut best = (san::descriptive::english(), 0usize);
    for table in san::descriptive::tables() {
        let mut pos = start.clone();
        let mut plies = 0;
        for t in &tokens {
            let Ok(mv) = san::descriptive::read_move(t, table, &pos) else {
                break;
            };
            pos.play_legal(&mv);
            plies += 1;
        }
        if plies > best.1 {
            best = (table, plies);
        }
    }
    best.0
}

/// The note that the game's moves are read as descriptive notation.
pub(super) fn descriptive_note(table: &san::descriptive::Descriptive) -> Option<Diagnostic> {
    Some(Diagnostic::note(
        Code::Language,
        format!("moves read as {} descriptive notation", table.name),
    ))
}

/// [`read_move`] for a descriptive move: resolved by
/// [`san::descriptive`] to the one legal move it names, then read as that move's SAN, so
/// that the node, its remarks (a check mark left out) and its [`SanHint`] are those of
/// any chess move. Not on the PGN path: only a game read as descriptive comes here.
#[cold]
pub(super) fn read_descriptive_move(
    token: &str,
    table: &'static san::descriptive::Descriptive,
    frame: &mut Frame,
    span: Span,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(), Box<Diagnostic>> {
    let ply = frame.next_ply;
    let Board::Chess(pos) = &mut frame.pos else {
        return Err(kind_mismatch(span, ply));
    };
    let mv =
        san::descriptive::read_move(token, table, pos).map_err(|d| move_error(d, span, ply))?;
    let mut written = String::new();
    san::write_pgn_san(&mut written, pos, &mv);
    let mut syntax = san::SanSyntax::blank();
    if san::syntax::parse_into(&written, san::english(), &mut syntax).is_err() {
        return Err(move_error(
            Diagnostic::error(Code::Internal, format!("SAN {written} of {token} not read")),
            span,
            ply,
        ));
    }
    if frame.keep_before {
        frame.before_last = Board::Chess(pos.clone());
    }
    let resolved = san::resolve_play(&syntax, pos, &written)
        .map_err(|e| move_error(e.to_diagnostic(), span, ply))?;
    let mut node = MoveNode::new(resolved.mv.map_or(AnyMove::Null, AnyMove::Chess), span);
    node.san = Some(resolved.hint());
    frame.line.moves.push(node);
    frame.next_ply += 1;
    let _ = diagnostics;
    Ok(())
}

/// `raw` without the variations the reader closed itself at the end of the text (an
/// opening parenthesis in prose, `(1851)` without its `)`, swallows the rest as a
/// variation): their markers are dropped, so that what they held is read as the rest of
/// the text is; the spans of the dropped `(` are returned (their `unclosed-variation`
/// warnings are the prose's).
fn unwrap_unclosed(raw: &RawGame) -> Option<(RawGame, Vec<Span>)> {
    let m = &raw.movetext;
    let closers = m
        .iter()
        .filter(|e| matches!(e, Element::EndVariation { span } if span.is_empty()))
        .count();
    if closers == 0 {
        return None;
    }
    // the openers of the synthetic closers: match them with a stack
    let mut drop = vec![false; m.len()];
    let mut open = Vec::new();
    for (i, e) in m.iter().enumerate() {
        match e {
            Element::StartVariation { .. } => open.push(i),
            Element::EndVariation { span } => {
                if let Some(o) = open.pop()
                    && span.is_empty()
                {
                    drop[o] = true;
                    drop[i] = true;
                }
            }
            _ => {}
        }
    }
    let mut flat = raw.clone();
    let mut spans = Vec::new();
    flat.movetext = m
        .iter()
        .zip(&drop)
        .filter_map(|(e, &d)| {
            if d && let Element::StartVariation { span } = e {
                spans.push(*span);
            }
            (!d).then_some(*e)
        })
        .collect();
    flat.counts = None;
    flat.move_letters = None;
    Some((flat, spans))
}

/// A better reading of a record whose plain walk stopped after `plies` main-line
/// plies: the game (only when `variant` is `None`: no tag or option named it), the
/// reader and the prose, chosen by how much of the text replays. `None` when no reading
/// replays more than the plain one (or as much, with prose that the plain one stopped at).
pub(super) fn reread(
    raw: &RawGame,
    tags: &Tags,
    variant: Option<Variant>,
    plain: (Variant, usize),
    options: &ReplayOptions,
) -> Option<Reread> {
    let unfolded = crate::archive::text::unfold_prose_semicolons(raw);
    let raw = unfolded.as_ref().unwrap_or(raw);
    let unwrapped = unwrap_unclosed(raw);
    let (raw, unclosed) = match &unwrapped {
        Some((flat, spans)) => (flat, spans.as_slice()),
        None => (raw, &[][..]),
    };
    let mut xiangqi_raw: Option<RawGame> = None;
    // descriptive moves in words (`P. to K's 4th.`), each made one token
    // (with tags only the origins in brackets: `R(R5)-QR5`)
    let phrased = if !matches!(variant, Some(Variant::Xiangqi)) {
        join_descriptive_phrases(raw, raw.tags.is_empty())
    } else {
        None
    };
    let mut best: Option<(Variant, Reading)> = None;
    let mut plies_of = [0usize; 2]; // best chess, best xiangqi
    for (v, board, reader) in candidates(raw, tags, variant, options, phrased.is_some()) {
        let source = match (reader, &phrased) {
            (Reader::Xiangqi(_), _) => &*xiangqi_raw.get_or_insert_with(|| {
                let mut joined = raw.clone();
                join_word_forms(&mut joined);
                joined
            }),
            (Reader::Descriptive(_), Some(p)) => p,
            _ => raw,
        };
        let reading = read(source, &board, reader);
        let slot = usize::from(v == Variant::Xiangqi);
        plies_of[slot] = plies_of[slot].max(reading.plies);
        let better = best.as_ref().is_none_or(|(_, b)| reading.plies > b.plies);
        if better {
            best = Some((v, reading));
        }
    }
    let (v, reading) = best.filter(|(_, r)| r.plies > 0)?;
    let (plain_variant, plain_plies) = plain;
    if reading.plies < plain_plies
        || reading.plies == plain_plies && (reading.prose.is_empty() || v != plain_variant)
    {
        return None;
    }
    let mut notes = Vec::new();
    if v != plain_variant {
        notes.push(Diagnostic::note(
            Code::GameFromContent,
            format!(
                "read as {}: no tag names the game, and its moves replay {} plies as xiangqi, {} as chess",
                if v == Variant::Xiangqi { "xiangqi" } else { "chess" },
                plies_of[1],
                plies_of[0],
            ),
        ));
    }
    for span in &reading.prose {
        notes.push(
            Diagnostic::note(
                Code::TextKept,
                "text that is not moves of the game (a heading, prose, a side line) kept as a comment",
            )
            .with_span(*span),
        );
    }
    let movetext = reading.movetext;
    Some(Reread {
        variant: v,
        start: reading.board,
        reader: reading.reader,
        movetext,
        notes,
        unclosed: unclosed.to_vec(),
    })
}

/// A pawn capture written with its two files only (`ed`, `exd`, `e:d`, `e×d`, as Russian and
/// older books print `exd5`), with any check or glyph marks after it: the files and the
/// marks, when `token` is one. The files are neighbours.
fn short_capture_files(token: &str) -> Option<(u8, u8, &str)> {
    let b = token.as_bytes();
    let (from, to, rest) = match b {
        [f, b'x' | b':', t, rest @ ..] | [f, 0xC3, 0x97, t, rest @ ..] | [f, t, rest @ ..] => {
            (*f, *t, rest)
        }
        _ => return None,
    };
    let file = |c: u8| (b'a'..=b'h').contains(&c);
    (file(from)
        && file(to)
        && from.abs_diff(to) == 1
        && rest.iter().all(|c| matches!(c, b'+' | b'#' | b'!' | b'?')))
    .then(|| {
        (
            from,
            to,
            token.get(token.len() - rest.len()..).unwrap_or(""),
        )
    })
}

/// A short pawn capture ([`short_capture_files`]) read on `pos`: when exactly one pawn
/// capture goes from the first file to the second, `scratch` holds its SAN (`exd5`) and
/// the move is returned.
pub(super) fn short_capture(
    token: &str,
    table: &'static PieceTable,
    pos: &Position,
    scratch: &mut san::SanSyntax,
) -> Option<crate::chess::Move> {
    let (from, to, marks) = short_capture_files(token)?;
    let mut found = None;
    for m in pos.legal_moves() {
        let (f, t) = (m.from(), m.to());
        if m.role() == crate::chess::Role::Pawn
            && m.capture().is_some()
            && f.file().index() == from - b'a'
            && t.file().index() == to - b'a'
        {
            match found {
                // a capture that promotes is one move for each piece: not settled
                Some(_) => return None,
                None => found = Some(m),
            }
        }
    }
    let m = found?;
    let written = format!("{}x{}{marks}", char::from(from), m.to());
    *scratch = san::SanSyntax::blank();
    san::syntax::parse_into(&written, table, scratch).ok()?;
    Some(m)
}

/// The note on a short pawn capture read as its SAN.
#[cold]
pub(super) fn short_capture_note(
    token: &str,
    pos: &Position,
    mv: &crate::chess::Move,
) -> Diagnostic {
    let mut san = String::new();
    san::write_pgn_san(&mut san, pos, mv);
    Diagnostic::note(
        Code::NonCanonical,
        format!("the pawn capture {token} written with its files only, read as {san}"),
    )
}

/// The index of the last element of an origin in brackets glued to its move from `i`:
/// a move, a bracket, an origin, its closing bracket and the rest of the move (`R`,
/// `(`, `R5`, `)`, `-QR5`), each touching the next; or, for a bare rank (`R(1)-Q1`),
/// the move, the number `1)` and the rest, the opening bracket's variation having been
/// dropped as unclosed ([`unwrap_unclosed`]).
fn glued_origin(text: &str, m: &[Element], i: usize) -> Option<usize> {
    let touching = |n: usize| {
        m.get(i..i + n)
            .is_some_and(|w| w.windows(2).all(|w| w[0].span().end == w[1].span().start))
    };
    // the move, then its bracket (no longer an element), then the number
    let bracketed = || {
        let end = m[i].span().end;
        text.as_bytes().get(end as usize) == Some(&b'(') && m[i + 1].span().start == end + 1
    };
    match m.get(i..)? {
        [
            Element::Move { .. },
            Element::StartVariation { .. },
            Element::Move { .. },
            Element::EndVariation { .. },
            Element::Move { .. },
            ..,
        ] if touching(5) => Some(i + 4),
        [
            Element::Move { .. },
            Element::MoveNumber { black: false, .. },
            Element::Move { .. },
            ..,
        ] if bracketed() && m[i + 1].span().end == m[i + 2].span().start => Some(i + 2),
        _ => None,
    }
}

/// The longest run of words read as one descriptive move in words (`P. to K's 4th.`).
const PHRASE_WORDS: usize = 8;

/// `raw` with each descriptive move written in words (`P. to K's 4th.`, `K. Kt. to B's
/// 3d.`, `Q. takes P.`: several move tokens in a row on one line) made one move token,
/// the longest that reads as a move of a descriptive table, and each origin in brackets
/// glued to its move (`R(R5)-QR5`) made one token; `words`: the moves in words too (a
/// record without tags). `None` when there is nothing to join.
fn join_descriptive_phrases(raw: &RawGame, words: bool) -> Option<RawGame> {
    let text = raw.text.as_str();
    let m = &raw.movetext;
    let reads = |from: usize, to: usize| {
        let phrase = text
            .get(m[from].span().start as usize..m[to].span().end as usize)
            .unwrap_or("");
        !phrase.contains('\n')
            && san::descriptive::tables()
                .iter()
                .any(|t| san::descriptive::parse(phrase, t).is_ok())
    };
    let mut out: Vec<Element> = Vec::with_capacity(m.len());
    let mut joined = false;
    let mut i = 0;
    while i < m.len() {
        // an origin in brackets glued to the piece (`R(R5)-QR5`, `Kt(1)-B3`), which
        // the movetext reader took for a variation: one move when the five pieces
        // touch and read as one
        if let Some(j) = glued_origin(text, m, i).filter(|&j| reads(i, j)) {
            out.push(Element::Move {
                span: Span::new(m[i].span().start, m[j].span().end),
                ep: None,
            });
            joined = true;
            i = j + 1;
            continue;
        }
        let run = m[i..]
            .iter()
            .take(if words { PHRASE_WORDS } else { 0 })
            .take_while(|e| matches!(e, Element::Move { .. }))
            .count();
        let end = (1..run).rev().map(|k| i + k).find(|&j| reads(i, j));
        match end {
            Some(j) => {
                out.push(Element::Move {
                    span: Span::new(m[i].span().start, m[j].span().end),
                    ep: None,
                });
                joined = true;
                i = j + 1;
            }
            None => {
                out.push(m[i]);
                i += 1;
            }
        }
    }
    joined.then(|| {
        let mut p = raw.clone();
        p.movetext = out;
        p.counts = None;
        p.move_letters = None;
        p
    })
}
