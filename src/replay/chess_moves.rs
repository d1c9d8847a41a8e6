//! A chess move read and played, with its remarks.

use super::*;
use crate::model::diag::Code;
use crate::notation::error::TokenError;

/// The remarks on a resolved chess move (a repair, a missing check mark …) as
/// diagnostics at the move's span and ply; few moves have any.
#[cold]
pub(super) fn chess_remarks(
    resolved: san::Resolved,
    token: &str,
    span: Span,
    ply: u32,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let first = diagnostics.len();
    resolved.diagnostics(token, diagnostics);
    // FIDE Laws (appendix C): the check sign is optional, so a check or mate sign
    // left out is only a note (shown with `check --strict`), not a repair; a sign
    // where there is no check stays a warning
    let left_out = matches!(
        (resolved.written, resolved.gives),
        (san::CheckMark::None, _)
            | (
                san::CheckMark::Check | san::CheckMark::DoubleCheck,
                san::CheckMark::Mate
            )
    );
    if left_out {
        for d in diagnostics.iter_mut().skip(first) {
            if d.code == Code::CheckMark {
                d.severity = Severity::Note;
            }
        }
    }
    place_remarks(diagnostics, first, span, ply);
}

/// [`read_move`] for a chess move: every move of a chess game comes this way, so it
/// does only what each move needs (remarks, NAG and draw offer when there are some).
/// `bytes` are those of the move's span in `text`; its text is sliced (checking
/// character boundaries) only when the move is not in one of the common shapes
/// ([`san::syntax::common_into`]) or not settled by the resolver's quick path, or has
/// remarks.
#[inline(always)]
pub(super) fn read_chess_move(
    text: &str,
    table: &'static PieceTable,
    syntax: MoveSyntax<'_>,
    scratch: &mut san::SanSyntax,
    frame: &mut Frame,
    span: Span,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(), Box<Diagnostic>> {
    let ply = frame.next_ply;
    let Board::Chess(pos) = &mut frame.pos else {
        return Err(kind_mismatch(span, ply));
    };
    // The syntax and the resolution are used where they were built, by reference: no
    // copies of them per move.
    let token = || span.slice(text);
    let syntax = match syntax {
        MoveSyntax::Given(s) => s,
        MoveSyntax::Scratch => &*scratch,
        MoveSyntax::Parse if san::syntax::common_into(span_bytes(text, span), table, scratch) => {
            &*scratch
        }
        MoveSyntax::Parse => {
            *scratch = san::SanSyntax::blank();
            match san::syntax::parse_into(token(), table, scratch) {
                Ok(()) => &*scratch,
                // `ed`, `exd`: a pawn capture written with its files only
                Err(e) => match super::text::short_capture(token(), table, pos, scratch) {
                    Some(mv) => {
                        let first = diagnostics.len();
                        diagnostics.push(super::text::short_capture_note(token(), pos, &mv));
                        place_remarks(diagnostics, first, span, ply);
                        &*scratch
                    }
                    None => return Err(move_error(e.to_diagnostic(), span, ply)),
                },
            }
        }
    };
    // The position before the move, where a variation on it starts. Set before the
    // move is read: after an error the line is cut or the game ends, and this
    // position is not used again.
    if frame.keep_before {
        match &mut frame.before_last {
            Board::Chess(b) => b.clone_from(pos),
            other => *other = Board::Chess(pos.clone()),
        }
    }
    let played = if frame.sound {
        san::resolve_play_sound(syntax, pos, token)
    } else {
        san::resolve_play(syntax, pos, token())
    };
    // taken by value (it is `Copy`): no reference to it leaves the hot path, so that
    // it stays in registers
    let resolved = match played {
        Ok(r) => r,
        Err(e) => return Err(move_error(e.to_diagnostic(), span, ply)),
    };
    if !resolved.remarks.is_empty() {
        chess_remarks(resolved, token(), span, ply, diagnostics);
    }
    // built whole and pushed: the node's bytes go straight to the line
    let mut node = MoveNode::new(resolved.mv.map_or(AnyMove::Null, AnyMove::Chess), span);
    node.draw_offer = syntax.draw_offer;
    node.san = Some(resolved.hint());
    frame.line.moves.push(node);
    if let Some(nag) = syntax.nag {
        add_nag(&mut frame.line, nag);
    }
    frame.next_ply += 1;
    Ok(())
}
