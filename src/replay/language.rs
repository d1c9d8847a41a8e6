//! The piece-letter table of a chess game (the language choice): the table given, or
//! chosen from the game's main-line tokens, and checked after a walk that fails
//! ([`rechoose`]); and its `language` notes.

use super::*;
use crate::model::diag::Code;

/// The note that the game's letters are read under `table`, unless it is English.
pub(super) fn language_note(table: &PieceTable) -> Option<Diagnostic> {
    (table.code != "en").then(|| {
        Diagnostic::note(
            Code::Language,
            format!("piece letters read as {}", table.name),
        )
    })
}

/// The piece-letter table of a chess game, and how the walk reads its main line: the
/// table given; English for a game whose letters no other table reads as another game
/// ([`san::english_alone`], checked after a failed walk: [`rechoose`]); the table a game's
/// letters name, read in the walk and settled after it (`one_pass`,
/// [`walk_reading`]); any other game by [`choose_table_by_reading`].
pub(super) fn choose_table<'a>(
    raw: &'a RawGame,
    start: &Position,
    options: &ReplayOptions,
    one_pass: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> (&'static PieceTable, MainReading<'a>) {
    if let Some(t) = options.lang {
        return (t, MainReading::Parse);
    }
    let letters = match raw.move_letters {
        Some(letters) => letters,
        None => raw
            .main_line()
            .fold(0, |m, t| m | crate::archive::move_letters(t.as_bytes())),
    };
    if san::english_alone(letters) {
        // no other table reads these letters as another game: English, unless the
        // walk fails and another table replays further (`rechoose`)
        return (san::english(), MainReading::Parse);
    }
    if one_pass && let Some(lettered) = san::LetteredReading::of(main_line_bytes(raw)) {
        // settled after the walk (`walk_reading`)
        return (
            lettered.table(),
            MainReading::Lettered(Box::new((lettered, start.clone()))),
        );
    }
    choose_table_by_reading(raw, start, diagnostics)
}

/// [`choose_table`] for a game in other letters: the main line read ahead under every
/// table with a letter at a head; the one table that reads every token, else the
/// inference by legality ([`san::infer_language`]).
pub(super) fn choose_table_by_reading<'a>(
    raw: &'a RawGame,
    start: &Position,
    diagnostics: &mut Vec<Diagnostic>,
) -> (&'static PieceTable, MainReading<'a>) {
    let tokens: Vec<&str> = raw.main_line().collect();
    // One table reads every token: it is the only one that can replay the game, so no
    // trial replays are needed (a failing move is reported by the walk itself), and
    // the syntax read here is the walk's.
    let readings = san::read_tokens(&tokens);
    if let [only] = readings.tables.as_slice() {
        diagnostics.extend(language_note(only));
        let ahead = ReadAhead {
            tokens,
            syntax: readings.syntax,
        };
        return (only, MainReading::Ahead(ahead));
    }
    let inference = san::infer_language(start, &tokens);
    inference_notes(&inference, diagnostics);
    (inference.table, MainReading::Parse)
}

/// The diagnostics of a table chosen by [`san::infer_language`]: which, and the tie.
pub(super) fn inference_notes(inference: &san::Inference, diagnostics: &mut Vec<Diagnostic>) {
    if inference.failure.is_some() {
        // The failing move is reported as an error by the walk itself; say only which
        // table was chosen.
        if inference.table.code != "en" {
            diagnostics.push(Diagnostic::note(
                Code::Language,
                format!(
                    "piece letters read as {} (no table replays the whole game; it replays furthest)",
                    inference.table.name
                ),
            ));
        }
    } else if let Some(d) = inference.diagnostic() {
        diagnostics.push(d);
    } else if inference.table.code != "en" {
        diagnostics.push(Diagnostic::note(
            Code::Language,
            format!("piece letters read as {}", inference.table.name),
        ));
    }
}

/// After a walk under a table chosen without replaying the game under the others
/// (English by its letters, or the one table that reads every token), `walked`: when
/// it stopped on the main line (`check` holds the start position for a table not
/// given by the user), the table that replays furthest ([`san::infer_language`]) is
/// asked for, and the game is walked again under it when it is another (its
/// diagnostics from `walk_from` and the notes on the language replaced).
#[allow(clippy::too_many_arguments)]
pub(super) fn rechoose(
    raw: &RawGame,
    check: Option<&Position>,
    reader: Reader,
    walk_from: usize,
    walked: (Line, Option<String>, Board),
    movetext_end: usize,
    keep_illegal: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Line, Option<String>, Board) {
    let (Some(start), Reader::Chess(used), Some(_)) = (check, reader, &walked.1) else {
        return walked;
    };
    let tokens: Vec<&str> = raw.main_line().collect();
    let inference = san::infer_language(start, &tokens);
    if std::ptr::eq(inference.table, used) {
        return walked;
    }
    diagnostics.truncate(walk_from);
    diagnostics.retain(|d| {
        !matches!(
            d.code,
            Code::Language | Code::LanguageTie | Code::LanguageUnknown
        )
    });
    inference_notes(&inference, diagnostics);
    walk(
        raw,
        Board::Chess(start.clone()),
        Reader::Chess(inference.table),
        &mut ParseEach,
        movetext_end,
        keep_illegal,
        diagnostics,
    )
}
