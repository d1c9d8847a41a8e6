//! Xiangqi moves: the Vietnamese word form joined into one token, and a move read
//! and played.

use super::*;
use crate::model::diag::Code;

/// Joins the Vietnamese word form of xiangqi moves, which the PGN layer cuts at spaces
/// (`Pháo2 bình 5`, `Mã 2 tiến 3`: words and bare numbers), into one move element: a
/// token that is no move on its own is joined with the next one to three tokens when
/// together they read as one.
pub(super) fn join_word_forms(raw: &mut RawGame) {
    let dialect = xq_notation::Dialect::OldVietnamese;
    let text = &raw.text;
    let is_word = |e: &Element| matches!(e, Element::Move { .. } | Element::MoveNumber { .. });
    let old = std::mem::take(&mut raw.movetext);
    let mut out = Vec::with_capacity(old.len());
    let mut i = 0;
    while i < old.len() {
        let e = old[i];
        if let Element::Move { span, .. } = e
            && may_start_word_form(span.slice(text))
            && xq_notation::check_syntax(span.slice(text), dialect).is_err()
        {
            let joined = (1..=3).find_map(|n| {
                let group = old.get(i..=i + n)?;
                if !group[1..].iter().all(is_word) {
                    return None;
                }
                let whole = Span::new(span.start, group[n].span().end);
                xq_notation::check_syntax(whole.slice(text), dialect)
                    .is_ok()
                    .then_some((n, whole))
            });
            if let Some((n, whole)) = joined {
                out.push(Element::Move {
                    span: whole,
                    ep: None,
                });
                i += n + 1;
                continue;
            }
        }
        out.push(e);
        i += 1;
    }
    raw.movetext = out;
    raw.counts = None;
}

/// Can `token` begin a move in the Vietnamese word form (`Pháo2 bình 5`)? Such a move
/// begins with a piece word in Latin letters; a Chinese move or an ICCS move
/// (`h2e2`, `h2-e2`) cannot, and is not tried (trying costs several parses per move).
pub(super) fn may_start_word_form(token: &str) -> bool {
    let latin = token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() && u32::from(c) < 0x2000);
    let iccs = match token.as_bytes() {
        [f1, r1, f2, r2] | [f1, r1, b'-', f2, r2] => {
            [f1, f2]
                .iter()
                .all(|f| matches!(f, b'a'..=b'i' | b'A'..=b'I'))
                && [r1, r2].iter().all(|r| r.is_ascii_digit())
        }
        _ => false,
    };
    latin && !iccs
}

/// [`read_move`] for a xiangqi move; one token may hold several moves (Chinese
/// written without spaces).
pub(super) fn read_xiangqi_move(
    token: &str,
    dialect: xq_notation::Dialect,
    frame: &mut Frame,
    span: Span,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(), Box<Diagnostic>> {
    let ply = frame.next_ply;
    let first_remark = diagnostics.len();
    let Board::Xiangqi(pos) = &mut frame.pos else {
        return Err(kind_mismatch(span, ply));
    };
    let mut after = pos.clone();
    let mut resolved = xq_notation::read_play_many(token, dialect, &mut after)
        .map_err(|d| move_error(d, span, ply))?;
    let Some(last) = resolved.pop() else {
        return Err(move_error(
            Diagnostic::error(Code::InvalidMove, format!("no move in `{token}`")),
            span,
            ply,
        ));
    };
    for r in resolved {
        let mut prev = pos.clone();
        prev.play_unchecked(r.mv);
        diagnostics.extend(r.remarks);
        frame
            .line
            .moves
            .push(MoveNode::new(AnyMove::Xiangqi(r.mv), span));
        frame.next_ply += 1;
        *pos = prev;
    }
    let before_last = Board::Xiangqi(pos.clone());
    *pos = after;
    diagnostics.extend(last.remarks);
    frame.before_last = before_last;
    frame
        .line
        .moves
        .push(MoveNode::new(AnyMove::Xiangqi(last.mv), span));
    frame.next_ply += 1;
    place_remarks(diagnostics, first_remark, span, ply);
    Ok(())
}
