//! The marks of `grammars/marks.tsv`: words and signs printed around moves that are not
//! moves (end words, evaluations, results as printed, null-move spellings, look-alike
//! dashes), read once. The PGN reader turns a token that is one of them into what it
//! means ([`super::Parser_::forms`]); the SAN grammar reads the check words glued to a
//! move through [`suffix_word`].

use std::sync::OnceLock;

use crate::model::game::GameResult;

/// `grammars/marks.tsv`, as compiled in.
pub const MARKS_TSV: &str = include_str!("../../../grammars/marks.tsv");

/// What a mark means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A check, mate or double check written as a word (`ch`, `mate`, `dbl ch`).
    Check,
    Mate,
    DoubleCheck,
    /// An annotation read as this NAG (`TN`: 146).
    Nag(u8),
    /// A result as printed (`红胜`, `(draw)`).
    Result(GameResult),
    /// A null move (`<>`, `pass`).
    Null,
    /// Read as `-` in a result (`&ndash;`, `–`).
    Dash,
    /// Between moves (`,`).
    Separator,
}

/// One row: the form and its meaning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkRow {
    pub form: &'static str,
    pub mark: Mark,
}

fn meaning(s: &str) -> Option<Mark> {
    Some(match s {
        "check" => Mark::Check,
        "mate" => Mark::Mate,
        "double-check" => Mark::DoubleCheck,
        "white-wins" => Mark::Result(GameResult::WhiteWins),
        "black-wins" => Mark::Result(GameResult::BlackWins),
        "draw" => Mark::Result(GameResult::Draw),
        "null" => Mark::Null,
        "dash" => Mark::Dash,
        "separator" => Mark::Separator,
        _ => Mark::Nag(s.strip_prefix("nag-")?.parse().ok()?),
    })
}

/// The rows of a marks TSV text, or the 1-based line of the first that is not a row.
pub fn mark_rows(tsv: &'static str) -> Result<Vec<MarkRow>, usize> {
    let mut rows = Vec::new();
    for (i, line) in tsv.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut cols = line.split('\t');
        match (cols.next(), cols.next().and_then(meaning)) {
            (Some(form), Some(mark)) if !form.is_empty() => rows.push(MarkRow { form, mark }),
            _ => return Err(i + 1),
        }
    }
    Ok(rows)
}

/// The rows of `grammars/marks.tsv` (its test checks that every row reads).
pub fn rows() -> &'static [MarkRow] {
    static ROWS: OnceLock<Vec<MarkRow>> = OnceLock::new();
    ROWS.get_or_init(|| mark_rows(MARKS_TSV).unwrap_or_default())
}

/// The mark `token` is, if any (matched exactly).
pub fn lookup(token: &str) -> Option<Mark> {
    rows().iter().find(|r| r.form == token).map(|r| r.mark)
}

/// The check or mate word (`ch`, `mate`, `matt`, `dbl ch` …) that `text` starts with
/// (after optional spaces), the longest first, and its length in bytes: for a grammar
/// reading a move's suffix.
pub fn suffix_word(text: &str) -> Option<(Mark, usize)> {
    let trimmed = text.trim_start_matches(' ');
    let skipped = text.len() - trimmed.len();
    rows()
        .iter()
        .filter(|r| matches!(r.mark, Mark::Check | Mark::Mate | Mark::DoubleCheck))
        .filter(|r| trimmed.starts_with(r.form) && r.form.is_ascii())
        .max_by_key(|r| r.form.len())
        .map(|r| (r.mark, skipped + r.form.len()))
}

/// `text` with the dash marks (`&ndash;`, `–` …) made `-`, when it holds one.
pub fn dashes_folded(text: &str) -> Option<String> {
    let mut out: Option<String> = None;
    for r in rows().iter().filter(|r| r.mark == Mark::Dash) {
        let cur = out.as_deref().unwrap_or(text);
        if cur.contains(r.form) {
            out = Some(cur.replace(r.form, "-"));
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn every_row_of_the_file_reads() {
        let rows = mark_rows(MARKS_TSV).unwrap();
        assert!(rows.len() > 20, "{}", rows.len());
        assert_eq!(lookup("matt"), Some(Mark::Mate));
        assert_eq!(lookup("TN"), Some(Mark::Nag(146)));
        assert_eq!(lookup("红胜"), Some(Mark::Result(GameResult::WhiteWins)));
        assert_eq!(lookup("e4"), None);
    }

    #[test]
    fn a_bad_row_names_its_line() {
        assert_eq!(mark_rows("# c\nmate\tmate\tx\nfoo\tbar\n"), Err(3));
    }

    #[test]
    fn suffix_words() {
        assert_eq!(suffix_word("ch"), Some((Mark::Check, 2)));
        assert_eq!(suffix_word(" dbl ch"), Some((Mark::DoubleCheck, 7)));
        assert_eq!(suffix_word("mate"), Some((Mark::Mate, 4)));
        assert_eq!(suffix_word("x"), None);
        assert_eq!(dashes_folded("1&ndash;0").as_deref(), Some("1-0"));
    }
}
