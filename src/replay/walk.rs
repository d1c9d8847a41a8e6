//! The one walk over a game's movetext elements: the main line and its variations,
//! with an explicit stack for variations (no recursion a hostile file can drive);
//! comments, NAGs, clocks and what cannot be read kept.

use super::*;
use crate::model::diag::Code;
use crate::model::game::Repair;
use crate::notation::chess::SanStyle;
use crate::notation::error::TokenError;

/// A comment that is a draw offer: the FIDE mark `(=)` in braces, as kyphu writes it
/// (`emit::DrawOffers::Comment`) so that other PGN readers take it without a warning.
pub const DRAW_OFFER_COMMENT: &str = "(=)";

/// One open line of the move tree: the main line or a variation being read.
pub(super) struct Frame {
    pub(super) line: Line,
    /// The position after the line's last move.
    pub(super) pos: Board,
    /// The position before the line's last move (where a variation on it starts).
    pub(super) before_last: Board,
    /// Ply of the line's next move (1 = the game's first move).
    pub(super) next_ply: u32,
    /// `before_last` is kept up to date: a variation may follow. Off for the main line
    /// of a game without variations, which spares a copy of the position per move.
    pub(super) keep_before: bool,
    /// No illegal move was kept on the way to `pos` (`--keep-illegal`): the position
    /// is sound and moves are played with [`san::resolve_play_sound`].
    pub(super) sound: bool,
}

impl Frame {
    pub(super) fn new(pos: Board, next_ply: u32, line: Line) -> Frame {
        Frame {
            line,
            before_last: pos.clone(),
            pos,
            next_ply,
            keep_before: true,
            sound: true,
        }
    }
}

/// Moves `[%clk …]` and `[%emt …]` out of a comment; returns the rest (trimmed).
pub(super) fn take_clock_commands(body: &str, node: Option<&mut MoveNode>) -> String {
    if !body.contains("[%") {
        return body.trim().to_owned();
    }
    let mut rest = String::with_capacity(body.len());
    let mut clock = None;
    let mut emt = None;
    let mut s = body;
    while let Some(i) = s.find("[%") {
        let Some(j) = s[i..].find(']') else { break };
        let command = &s[i + 2..i + j];
        let mut parts = command.split_whitespace();
        let name = parts.next().unwrap_or("");
        let value = parts.next().and_then(Clock::parse);
        let taken = match (name, value, parts.next()) {
            ("clk", Some(v), None) => clock.replace(v).is_none(),
            ("emt", Some(v), None) => emt.replace(v).is_none(),
            _ => false,
        };
        rest.push_str(&s[..i]);
        if !taken {
            rest.push_str(&s[i..i + j + 1]);
        }
        s = &s[i + j + 1..];
    }
    rest.push_str(s);
    match node {
        Some(n) => {
            n.clock = clock.or(n.clock);
            if emt.is_some() {
                n.extras_mut().emt = emt;
            }
        }
        None => {
            // Before the first move a clock has no move to belong to: keep it written.
            return body.trim().to_owned();
        }
    }
    rest.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The NAG of a standalone annotation token (`!?`, `+-`, `±` …), if it has one.
pub(super) fn annotation_nag(token: &str) -> Option<u8> {
    Some(match token {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        "□" => 7,
        "=" => 10,
        "∞" => 13,
        "⩲" | "+=" | "+/=" => 14,
        "⩱" | "=+" | "=/+" => 15,
        "±" | "+/-" => 16,
        "∓" | "-/+" => 17,
        "+-" | "+ -" => 18,
        "-+" => 19,
        _ => return None,
    })
}

/// Reads the movetext elements into the main line and its variations. The line being
/// read is `frame`; the lines the open variations branch from wait in `parents`,
/// innermost last (a stack on the heap: no recursion a hostile file can drive).
pub(super) fn walk(
    raw: &RawGame,
    start: Board,
    reader: Reader,
    main_line: &mut impl ReadMain,
    movetext_end: usize,
    keep_illegal: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Line, Option<String>, Board) {
    // counted by the PGN reader, or else here
    let counts = raw
        .counts
        .unwrap_or_else(|| MovetextCounts::of(&raw.movetext));
    let mut frame = Frame::new(start, 1, Line::with_room(counts.moves));
    frame.keep_before = counts.variations;
    let mut parents: Vec<Frame> = Vec::new();
    let mut unparsed = None;
    let mut number_checked = false;
    let mut main_moves = 0;
    let mut elements = raw.movetext.iter();
    while let Some(e) = elements.next() {
        let main = parents.is_empty();
        // Moves and move numbers, nearly all the elements, are told apart by two tests
        // (branches a processor predicts well); the rest goes to `read_other`, whose
        // `match` is a jump table of its own.
        let span = match *e {
            Element::Move { span, .. } => span,
            Element::MoveNumber {
                number,
                black,
                span,
            } => {
                if !number_checked && main {
                    number_checked = true;
                    let expected = frame.pos.fullmoves();
                    if number != expected {
                        diagnostics.push(move_number_note(number, black, expected, span));
                    }
                }
                continue;
            }
            Element::Annotation { span } if main && illegible_cell(raw, elements.len()) => {
                if let Some(plan) = main_line.plan()
                    && plan.apply(raw, span, &mut frame, diagnostics)
                {
                    continue;
                }
                let d = Diagnostic::error(
                    Code::IllegibleMove,
                    format!(
                        "illegible move `{}` (a cell marked unreadable); replay cannot go on",
                        raw.slice(span)
                    ),
                )
                .with_span(span)
                .with_ply(frame.next_ply);
                stop_main(raw, d, span, movetext_end, &mut unparsed, diagnostics);
                main_line.stopped(raw, elements);
                break;
            }
            _ => {
                read_other(
                    e,
                    raw,
                    reader,
                    &mut frame,
                    &mut parents,
                    &mut elements,
                    &mut unparsed,
                    diagnostics,
                );
                continue;
            }
        };
        // the move's bytes: its text (`raw.slice`, which checks character
        // boundaries) is sliced only when it is needed, seldom for a usual move
        let bytes = span_bytes(&raw.text, span);
        if main
            && let Some(plan) = main_line.plan()
            && plan.apply(raw, span, &mut frame, diagnostics)
        {
            main_moves += 1;
            continue;
        }
        let mut scratch = san::SanSyntax::blank();
        let syntax = if main {
            main_moves += 1;
            match main_line.read(main_moves - 1, raw, span, bytes, &mut scratch) {
                Some(syntax) => syntax,
                // this walk's line is thrown away (`walk_reading`)
                None => break,
            }
        } else {
            MoveSyntax::Parse
        };
        let Err(mut d) = read_move(
            &raw.text,
            reader,
            syntax,
            &mut scratch,
            &mut frame,
            span,
            diagnostics,
        ) else {
            continue;
        };
        let token = raw.slice(span);
        if !main {
            // the variation is cut at this move: its rest is quoted, not read
            let close = skip_variation(&mut elements);
            let end = close.map_or(raw.text.len(), |s| s.start as usize);
            let rest = raw.text.get(span.start as usize..end).unwrap_or("").trim();
            d.message = format!(
                "{}; the variation is cut here, its rest not read: {rest}",
                d.message
            );
            diagnostics.push(*d);
            // the rest is kept, as the rest of a broken main line is, in a comment
            keep_in_line(&mut frame.line, format!("{UNPARSED_PREFIX} {rest}"));
            if close.is_some() {
                close_variation(&mut frame, &mut parents);
            }
            continue;
        }
        if keep_illegal
            && d.code == Code::IllegalMove
            && keep_illegal_move(token, reader, &mut frame, span)
        {
            d.severity = Severity::Warning;
            d.code = Code::IllegalMoveKept;
            d.message = format!(
                "{}; kept as played (--keep-illegal, FIDE Laws 7.5)",
                d.message
            );
            diagnostics.push(*d);
            continue;
        }
        if repair::is_illegible(token) {
            // a scoresheet cell marked unreadable (`?` in a CSV cell)
            d.code = Code::IllegibleMove;
            d.message =
                format!("illegible move `{token}` (a cell marked unreadable); replay cannot go on");
        } else if let (Reader::Chess(table), Board::Chess(pos)) = (reader, &frame.pos)
            && d.candidates.is_empty()
        {
            let following: Vec<&str> = crate::archive::MainLine::of(&raw.text, elements.clone())
                .take(8)
                .collect();
            d.candidates = suggest(pos, token, &following, table, 3)
                .into_iter()
                .map(|s| s.san)
                .collect();
        }
        if let (Reader::Xiangqi(dialect), Board::Xiangqi(pos)) = (reader, &frame.pos)
            && d.candidates.is_empty()
        {
            let following: Vec<&str> = crate::archive::MainLine::of(&raw.text, elements.clone())
                .take(8)
                .collect();
            d.candidates = super::xiangqi_suggest::suggest(pos, token, &following, dialect, 3)
                .into_iter()
                .map(|s| s.text)
                .collect();
        }
        stop_main(raw, *d, span, movetext_end, &mut unparsed, diagnostics);
        main_line.stopped(raw, elements);
        break;
    }
    while !parents.is_empty() {
        close_variation(&mut frame, &mut parents);
    }
    (frame.line, unparsed, frame.pos)
}

/// The main line stops at the move at `span` with the error `d`: its rest is kept
/// verbatim in `unparsed`.
#[cold]
fn stop_main(
    raw: &RawGame,
    d: Diagnostic,
    span: Span,
    movetext_end: usize,
    unparsed: &mut Option<String>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    diagnostics.push(d);
    let rest = movetext_text(raw, span.start as usize, movetext_end);
    // text an earlier pass kept (a `kyphu: unparsed` comment) stays before it
    *unparsed = match (unparsed.take(), rest) {
        (Some(kept), Some(rest)) => Some(format!("{kept} {rest}")),
        (kept, rest) => kept.or(rest),
    };
}

/// Whether the annotation element before the `rest_len` elements left of the movetext
/// is an illegible move cell of a scoresheet: `?` or `??` standing where a move is due
/// by the move numbers, right after one (`3. ? a6`, `3... ?`), or between White's move
/// and the next move number (`3. e4 ? 4. d4`) or the result (`47. Tb7 ? 0-1`). Anywhere
/// else `?` is an annotation of the move before, as PGN reads it.
#[cold]
pub(super) fn illegible_cell(raw: &RawGame, rest_len: usize) -> bool {
    let m = &raw.movetext;
    let Some(i) = m.len().checked_sub(rest_len + 1) else {
        return false;
    };
    let Some(Element::Annotation { span }) = m.get(i) else {
        return false;
    };
    if !repair::is_illegible(raw.slice(*span)) {
        return false;
    }
    let before = |k: usize| i.checked_sub(k).and_then(|j| m.get(j));
    match before(1) {
        Some(Element::MoveNumber { .. }) => true,
        Some(Element::Move { .. }) => match (before(2), m.get(i + 1)) {
            (
                Some(Element::MoveNumber {
                    number: a,
                    black: false,
                    ..
                }),
                Some(Element::MoveNumber {
                    number: b,
                    black: false,
                    ..
                }),
            ) => *b == a + 1,
            // `47. Tb7 ? 0-1`: Black's cell, the last before the result
            (Some(Element::MoveNumber { black: false, .. }), None) => raw.result.is_some(),
            _ => false,
        },
        _ => false,
    }
}

/// The main line's cells in order, with their spans: every move token and every
/// illegible cell ([`illegible_cell`]), variations left out.
pub(super) fn main_cells(raw: &RawGame) -> Vec<(Span, &str)> {
    let mut cells = Vec::new();
    let mut depth = 0usize;
    let n = raw.movetext.len();
    for (i, e) in raw.movetext.iter().enumerate() {
        match *e {
            Element::StartVariation { .. } => depth += 1,
            Element::EndVariation { .. } => depth = depth.saturating_sub(1),
            Element::Move { span, .. } if depth == 0 => cells.push((span, raw.slice(span))),
            Element::Annotation { span } if depth == 0 && illegible_cell(raw, n - i - 1) => {
                cells.push((span, raw.slice(span)));
            }
            _ => {}
        }
    }
    cells
}

/// A repair plan ([`repair::plan`]) for the walk: its changes keyed by where their
/// cell starts in the game text, applied as the walk reaches them, each played as an
/// assumption with its diagnostic and [`Repair`] record.
pub(super) struct Planned {
    /// The changes, in text order, with the start of their cell.
    changes: Vec<(u32, repair::Change)>,
    next: usize,
    table: &'static PieceTable,
    /// `convert --repair`: the assumptions are warnings (the game repaired), not errors.
    repair: bool,
    /// The moves assumed so far.
    pub(super) repairs: Vec<Repair>,
}

impl ReadMain for Planned {
    fn plan(&mut self) -> Option<&mut Planned> {
        Some(self)
    }
}

impl Planned {
    /// Plays the plan's changes at the cell at `span`, on `frame`: a missing move
    /// before it, the move assumed in its place. `true` when the cell itself is taken
    /// (the walk does not read it); `false` when it is read as written (after a missing
    /// move, or when the plan has nothing here).
    fn apply(
        &mut self,
        raw: &RawGame,
        span: Span,
        frame: &mut Frame,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> bool {
        let mut taken = false;
        while let Some((at, change)) = self.changes.get(self.next) {
            if *at != span.start {
                break;
            }
            let change = change.clone();
            self.next += 1;
            let Board::Chess(pos) = &mut frame.pos else {
                return taken;
            };
            let token = raw.slice(span);
            let style = SanStyle::fide(self.table);
            let san_of = |pos: &Position, mv: &crate::chess::Move| {
                let mut s = String::new();
                crate::notation::chess::write_san(&mut s, pos, mv, &style);
                s
            };
            let played = san_of(pos, &change.mv);
            let candidates: Vec<String> =
                change.candidates.iter().map(|m| san_of(pos, m)).collect();
            let (code, what) = match change.kind {
                repair::ChangeKind::Missing => (
                    Code::MissingMove,
                    format!(
                        "a move seems left out before {token} (the later moves stand in the other column)"
                    ),
                ),
                repair::ChangeKind::Illegible => (
                    Code::IllegibleMove,
                    format!("illegible move `{token}` (a cell marked unreadable)"),
                ),
                repair::ChangeKind::Swapped => (
                    Code::SwappedMoves,
                    format!(
                        "{token} seems written in the place of a move of the same side two plies away"
                    ),
                ),
                repair::ChangeKind::Suspect => (
                    Code::SuspectMove,
                    format!("{token} is legal, but the rest of the game does not replay after it"),
                ),
                repair::ChangeKind::Replaced => {
                    let d = match san::parse(token, self.table) {
                        Err(e) => e.to_diagnostic(),
                        Ok(s) => match san::resolve(&s, pos, token) {
                            Err(e) => e.to_diagnostic(),
                            Ok(_) => {
                                Diagnostic::error(Code::SuspectMove, format!("{token} is legal"))
                            }
                        },
                    };
                    (d.code, d.message)
                }
            };
            let missing = change.kind == repair::ChangeKind::Missing;
            // a missing move stands before the cell: its node and diagnostic at an
            // empty span there
            let at = if missing {
                Span::new(span.start, span.start)
            } else {
                span
            };
            let confidence = (change.confidence.clamp(0.0, 1.0) * 1000.0).round() as u16;
            let mut d = short_message(Diagnostic::new(
                if self.repair {
                    Severity::Warning
                } else {
                    Severity::Error
                },
                code,
                format!(
                    "{what}; assumed {played} (confidence {:.2}{}), replay goes on",
                    f32::from(confidence) / 1000.0,
                    if change.review { ", to review" } else { "" }
                ),
            ))
            .with_span(at)
            .with_ply(frame.next_ply);
            d.candidates = candidates.clone();
            diagnostics.push(d);
            self.repairs.push(Repair {
                ply: frame.next_ply,
                kind: match change.kind {
                    repair::ChangeKind::Replaced => "replaced",
                    repair::ChangeKind::Illegible => "illegible",
                    repair::ChangeKind::Missing => "missing",
                    repair::ChangeKind::Swapped => "swapped",
                    repair::ChangeKind::Suspect => "suspect",
                },
                written: if missing {
                    String::new()
                } else {
                    token.to_owned()
                },
                san: played,
                uci: change.mv.uci(pos.chess960()),
                confidence_milli: confidence,
                review: change.review,
                candidates,
            });
            // played as PGN SAN reads it, for the node's hint
            if frame.keep_before {
                frame.before_last = Board::Chess(pos.clone());
            }
            let mut pgn = String::new();
            crate::notation::chess::write_san(&mut pgn, pos, &change.mv, &SanStyle::pgn());
            let hint = match san::read_play(&pgn, san::english(), pos) {
                Ok(r) => Some(r.hint()),
                Err(_) => {
                    pos.play_unchecked(&change.mv);
                    None
                }
            };
            let mut node = MoveNode::new(AnyMove::Chess(change.mv), at);
            node.san = hint;
            frame.line.moves.push(node);
            frame.next_ply += 1;
            taken |= !missing;
        }
        taken
    }
}

/// What a walk gives: the line, its unread rest, the position it reached.
pub(super) type Walked = (Line, Option<String>, Board);

/// Replay that goes on after an error (issue 27): the game's main-line cells are
/// planned from `start` under `table` ([`repair::plan`]), and the game walked again
/// with the plan, every change an assumption with its diagnostic. `None` when the
/// cells replay as written (the error was elsewhere).
#[allow(clippy::too_many_arguments)]
pub(super) fn walk_planned(
    raw: &RawGame,
    start: &Position,
    table: &'static PieceTable,
    movetext_end: usize,
    repair: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(Walked, Vec<Repair>)> {
    let cells = main_cells(raw);
    let texts: Vec<&str> = cells.iter().map(|c| c.1).collect();
    // `check` only shows the slips: a smaller search than `convert --repair`'s
    let budget = if repair {
        repair::Budget::REPAIR
    } else {
        repair::Budget::CHECK
    };
    let plan = repair::plan_within(start, &texts, table, budget)?;
    let changes = plan
        .changes
        .into_iter()
        .filter_map(|c| Some((cells.get(c.cell)?.0.start, c)))
        .collect();
    let mut planned = Planned {
        changes,
        next: 0,
        table,
        repair,
        repairs: Vec::new(),
    };
    let walked = walk(
        raw,
        Board::Chess(start.clone()),
        Reader::Chess(table),
        &mut planned,
        movetext_end,
        false,
        diagnostics,
    );
    Some((walked, planned.repairs))
}

/// A move-number note: the first move number of the main line does not match the
/// start position.
#[cold]
pub(super) fn move_number_note(number: u32, black: bool, expected: u32, span: Span) -> Diagnostic {
    Diagnostic::note(
        Code::MoveNumber,
        format!(
            "move number {number}{} where the position is at move {expected}",
            if black { "..." } else { "." }
        ),
    )
    .with_span(span)
}

/// The walk's work on an element that is neither a move nor a move number: comments,
/// NAGs, annotations, draw offers, variations opened and closed, escape lines.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(super) fn read_other(
    e: &Element,
    raw: &RawGame,
    reader: Reader,
    frame: &mut Frame,
    parents: &mut Vec<Frame>,
    elements: &mut std::slice::Iter<'_, Element>,
    unparsed: &mut Option<String>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    // A kept `kyphu: unparsed:` comment is the game's unread rest only when nothing
    // follows it; anything that does puts it back among the comments, in its place, so
    // that a second pass writes what the first wrote, in the same order.
    if let Some(held) = unparsed.take() {
        keep_in_line(&mut frame.line, format!("{UNPARSED_PREFIX} {held}"));
    }
    match *e {
        Element::Comment { body, .. } => {
            let text = unescape_comment(raw.slice(body));
            if let Some(kept) = kept_unparsed(&text) {
                diagnostics.push(
                    Diagnostic::error(
                        Code::UnparsedKept,
                        "text not read as moves, kept in a `kyphu: unparsed:` comment by an earlier run",
                    )
                    .with_span(body),
                );
                // after the main line's last move: the game's unread rest again
                if parents.is_empty()
                    && crate::archive::MainLine::of(&raw.text, elements.clone())
                        .next()
                        .is_none()
                {
                    *unparsed = Some(kept.to_owned());
                    return;
                }
            }
            let node = frame.line.moves.last_mut();
            let comment = take_clock_commands(&text, node);
            // `{(=)}`: a draw offer as kyphu writes it for other PGN readers (issue 27)
            if comment.trim() == DRAW_OFFER_COMMENT
                && let Some(n) = frame.line.moves.last_mut()
            {
                n.draw_offer = true;
                return;
            }
            if !comment.is_empty() {
                match frame.line.moves.last_mut() {
                    Some(n) => n.extras_mut().comments.push(comment),
                    None => frame.line.comments.push(comment),
                }
            }
        }
        Element::Nag { value, span } => match frame.line.moves.last_mut() {
            Some(n) => n.extras_mut().nags.push(value),
            None => diagnostics.push(
                Diagnostic::warning(
                    Code::StrayNag,
                    format!("${value} before any move is ignored"),
                )
                .with_span(span),
            ),
        },
        Element::Annotation { span } => {
            let token = raw.slice(span);
            if matches!(reader, Reader::Xiangqi(_)) && matches!(token, "-" | "–" | "—") {
                // The dash between Red's and Black's move on a scoresheet line.
                return;
            }
            match (annotation_nag(token), frame.line.moves.last_mut()) {
                (Some(nag), Some(n)) => n.extras_mut().nags.push(nag),
                (None, Some(n)) => n.extras_mut().comments.push(token.to_owned()),
                (_, None) => frame.line.comments.push(token.to_owned()),
            }
        }
        Element::DrawOffer { span } => match frame.line.moves.last_mut() {
            Some(n) => n.draw_offer = true,
            None => diagnostics.push(
                Diagnostic::warning(
                    Code::StrayDrawOffer,
                    "draw offer (=) before any move is ignored",
                )
                .with_span(span),
            ),
        },
        Element::StartVariation { span } => {
            if frame.line.moves.is_empty() {
                diagnostics.push(
                    Diagnostic::error(
                        Code::VariationWithoutMove,
                        "a variation must follow the move it replaces; this one is not read",
                    )
                    .with_span(span),
                );
                // not read, but kept: its text in a comment, as a cut variation's rest
                let close = skip_variation(elements);
                let end = close.map_or(raw.text.len(), |s| s.end as usize);
                let text = raw.text.get(span.start as usize..end).unwrap_or("").trim();
                keep_in_line(&mut frame.line, format!("{UNPARSED_PREFIX} {text}"));
            } else {
                let mut child = Frame::new(
                    frame.before_last.clone(),
                    frame.next_ply - 1,
                    Line::default(),
                );
                child.sound = frame.sound;
                parents.push(std::mem::replace(frame, child));
            }
        }
        Element::EndVariation { .. } => close_variation(frame, parents),
        Element::Escape { span } => {
            let line = raw.slice(span).trim_end();
            // (a `[` line whose tag name cannot be read comes here too, its warning
            // given by the reader)
            if line.starts_with('%') {
                diagnostics.push(
                    Diagnostic::note(
                        Code::EscapeLine,
                        "a % escape line is not read (as the PGN standard says); kept as a comment",
                    )
                    .with_span(span),
                );
            }
            if !line.is_empty() {
                keep_in_line(&mut frame.line, line.to_owned());
            }
        }
        Element::Move { .. } | Element::MoveNumber { .. } => {} // read by the walk
    }
}

/// How the unread rest of a line starts in the comment that keeps it.
pub(super) const UNPARSED_PREFIX: &str = "kyphu: unparsed:";

/// The text a comment written by kyphu keeps unread (`kyphu: unparsed: TEXT`), if it is
/// one.
pub(super) fn kept_unparsed(comment: &str) -> Option<&str> {
    let t = comment.trim_start().strip_prefix("kyphu:")?;
    Some(t.trim_start().strip_prefix("unparsed:")?.trim())
}

/// Appends `comment` after the last move of `line`, or before its moves when it has
/// none.
pub(super) fn keep_in_line(line: &mut Line, comment: String) {
    match line.moves.last_mut() {
        Some(n) => n.extras_mut().comments.push(comment),
        None => line.comments.push(comment),
    }
}

/// Consumes the rest of the variation holding the current element, through the `)`
/// that closes it (variations nested in it included); returns that `)`'s span, or
/// `None` when the movetext ends first.
pub(super) fn skip_variation(rest: &mut std::slice::Iter<'_, Element>) -> Option<Span> {
    let mut depth = 0usize;
    for e in rest {
        match e {
            Element::StartVariation { .. } => depth += 1,
            Element::EndVariation { span } if depth == 0 => return Some(*span),
            Element::EndVariation { .. } => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Closes the variation being read (`frame`): its parent line becomes `frame` again,
/// and the variation, unless empty, is attached to the parent's last move. Nothing
/// happens on the main line (a `)` without its `(`).
pub(super) fn close_variation(frame: &mut Frame, parents: &mut Vec<Frame>) {
    let Some(parent) = parents.pop() else {
        return;
    };
    let child = std::mem::replace(frame, parent);
    if let Some(node) = frame.line.moves.last_mut()
        && !(child.line.moves.is_empty() && child.line.comments.is_empty())
    {
        node.extras_mut().variations.push(child.line);
    }
}

/// Plays an illegal chess move that only one piece can make by its movement, flagged;
/// `false` (nothing changed) when there is no such move.
pub(super) fn keep_illegal_move(
    token: &str,
    reader: Reader,
    frame: &mut Frame,
    span: Span,
) -> bool {
    let (Reader::Chess(table), Board::Chess(pos)) = (reader, &mut frame.pos) else {
        return false;
    };
    let Ok(syntax) = san::parse(token, table) else {
        return false;
    };
    let Some(mv) = san::resolve_by_movement(&syntax, pos) else {
        return false;
    };
    let before = Board::Chess(pos.clone());
    pos.play_unchecked(&mv);
    let mut node = MoveNode::new(AnyMove::Chess(mv), span);
    node.illegal = true;
    frame.sound = false;
    if let Some(nag) = syntax.nag {
        node.extras_mut().nags.push(nag);
    }
    node.draw_offer = syntax.draw_offer;
    frame.before_last = before;
    frame.line.moves.push(node);
    frame.next_ply += 1;
    true
}

/// Messages quote the token as written; a hostile token may be megabytes long.
pub(super) fn short_message(mut d: Diagnostic) -> Diagnostic {
    const MAX: usize = 240;
    if d.message.len() > MAX {
        let mut end = MAX;
        while !d.message.is_char_boundary(end) {
            end -= 1;
        }
        d.message.truncate(end);
        d.message.push_str("… (message cut)");
    }
    d
}

/// Reads one move token on the frame's position and appends it to the frame's line;
/// `syntax` says where its syntax is, or that it is to be parsed (into `scratch`,
/// [`san::SanSyntax::blank`] then). The error is boxed: the walk tests a pointer for
/// each move, not a whole diagnostic. Inlined into each [`walk`] (one for each
/// [`ReadMain`]).
#[inline(always)]
pub(super) fn read_move(
    text: &str,
    reader: Reader,
    syntax: MoveSyntax<'_>,
    scratch: &mut san::SanSyntax,
    frame: &mut Frame,
    span: Span,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(), Box<Diagnostic>> {
    match reader {
        Reader::Chess(table) => {
            read_chess_move(text, table, syntax, scratch, frame, span, diagnostics)
        }
        Reader::Xiangqi(dialect) => {
            read_xiangqi_move(span.slice(text), dialect, frame, span, diagnostics)
        }
        Reader::Descriptive(table) => {
            super::text::read_descriptive_move(span.slice(text), table, frame, span, diagnostics)
        }
    }
}

/// The bytes of `text` that `span` covers (none when out of range): what
/// [`Span::slice`] gives, as bytes, without its checks of character boundaries.
#[inline]
pub(super) fn span_bytes(text: &str, span: Span) -> &[u8] {
    text.as_bytes()
        .get(span.start as usize..span.end as usize)
        .unwrap_or_default()
}

/// The error of the move at `span`, ply `ply`.
#[cold]
pub(super) fn move_error(d: Diagnostic, span: Span, ply: u32) -> Box<Diagnostic> {
    Box::new(short_message(d).with_span(span).with_ply(ply))
}

/// The frame's position is not of the reader's game kind (never, by construction).
#[cold]
pub(super) fn kind_mismatch(span: Span, ply: u32) -> Box<Diagnostic> {
    move_error(
        Diagnostic::error(
            Code::Internal,
            "the move reader does not match the game kind",
        ),
        span,
        ply,
    )
}

/// Places the remarks pushed from `first` on at the move's span and ply.
pub(super) fn place_remarks(diagnostics: &mut [Diagnostic], first: usize, span: Span, ply: u32) {
    for d in diagnostics.iter_mut().skip(first) {
        d.span = Some(span);
        d.ply = Some(ply);
    }
}

/// Adds a NAG to the line's last move (a move glyph written on the token, `Nf3!?`).
#[cold]
pub(super) fn add_nag(line: &mut Line, nag: u8) {
    if let Some(node) = line.moves.last_mut() {
        node.extras_mut().nags.push(nag);
    }
}
