//! The piece-letter table of a chess game (the language choice): the table given, or
//! chosen from the game's main-line tokens; and its `language` note.

use super::*;

/// The note that the game's letters are read under `table`, unless it is English.
pub(super) fn language_note(table: &PieceTable) -> Option<Diagnostic> {
    (table.code != "en")
        .then(|| Diagnostic::note("language", format!("piece letters read as {}", table.name)))
}

/// The piece-letter table of a chess game, and how the walk reads its main line: the
/// table given; English for a game in plain English letters; the table a game's
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
    let plain = match raw.plain_english {
        Some(plain) => plain,
        None => raw.main_line().all(san::lang::plain_english),
    };
    if plain {
        // English letters only: read as English (the preferred table); the other
        // tables that share these letters are not tried (docs/notation/chess.md).
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
    if inference.failure.is_some() {
        // The failing move is reported as an error by the walk itself; say only which
        // table was chosen.
        if inference.table.code != "en" {
            diagnostics.push(Diagnostic::note(
                "language",
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
            "language",
            format!("piece letters read as {}", inference.table.name),
        ));
    }
    (inference.table, MainReading::Parse)
}
