//! The lists a user reads are the lists kyphu has: every chess letter table of
//! `grammars/chess-pieces.tsv` is named by the `--lang` help, the README, `docs/cli.md`
//! and `docs/notation/chess.md`; every xiangqi notation by the `--notation` help and
//! `docs/notation/xiangqi.md`; every diagnostic code is in a table of `docs/errors.md`,
//! and that file names no code kyphu does not have.
#![allow(clippy::unwrap_used)]

mod common;

use std::{collections::BTreeSet, fs, path::Path};

use common::kyphu;

fn read(path: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// The language codes of the chess letter tables, from the data itself.
fn language_codes() -> BTreeSet<String> {
    read("grammars/chess-pieces.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split('\t').next())
        .map(str::to_owned)
        .collect()
}

/// Does `text` name `word` as a word of its own (not inside another word)?
fn names(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        let apart = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '-');
        apart(before) && apart(after)
    })
}

#[test]
fn every_language_is_named_in_the_help_and_the_docs() {
    let codes = language_codes();
    assert!(codes.len() >= 17, "{codes:?}");
    let help = kyphu(&["check", "--help"], "").stdout;
    for (what, text) in [
        ("kyphu check --help", help),
        ("README.md", read("README.md")),
        ("docs/cli.md", read("docs/cli.md")),
        ("docs/notation/chess.md", read("docs/notation/chess.md")),
    ] {
        let missing: Vec<_> = codes.iter().filter(|c| !names(&text, c)).collect();
        assert!(missing.is_empty(), "{what} does not name {missing:?}");
    }
}

#[test]
fn every_xiangqi_notation_is_named_in_the_help_and_the_docs() {
    let names: Vec<&str> = kyphu::notation::xiangqi::notations()
        .iter()
        .flat_map(|n| std::iter::once(n.name).chain(n.aliases.iter().copied()))
        .collect();
    assert!(names.len() >= 7, "{names:?}");
    let check = kyphu(&["check", "--help"], "").stdout;
    let convert = kyphu(&["convert", "--help"], "").stdout;
    for (what, text) in [
        ("kyphu check --help", check),
        ("kyphu convert --help", convert),
        ("docs/cli.md", read("docs/cli.md")),
        ("docs/notation/xiangqi.md", read("docs/notation/xiangqi.md")),
    ] {
        let missing: Vec<_> = names.iter().filter(|c| !names_in(&text, c)).collect();
        assert!(missing.is_empty(), "{what} does not name {missing:?}");
    }
}

fn names_in(text: &str, word: &str) -> bool {
    names(text, word)
}

/// The codes `docs/errors.md` lists in its tables (the first column of every table
/// headed `code`).
fn documented_codes() -> BTreeSet<String> {
    let doc = read("docs/errors.md");
    let mut out = BTreeSet::new();
    let mut in_code_table = false;
    for line in doc.lines() {
        if line.starts_with("| code |") {
            in_code_table = true;
        } else if !line.starts_with('|') {
            in_code_table = false;
        } else if in_code_table && !line.starts_with("|---") {
            let first = line.split('|').nth(1).unwrap_or("");
            for part in first.split('`').skip(1).step_by(2) {
                out.insert(part.to_owned());
            }
        }
    }
    out
}

#[test]
fn errors_md_lists_exactly_the_codes() {
    let codes: BTreeSet<String> = kyphu::Code::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .collect();
    let documented = documented_codes();
    let undocumented: Vec<_> = codes.difference(&documented).collect();
    let unknown: Vec<_> = documented.difference(&codes).collect();
    assert!(
        undocumented.is_empty(),
        "codes not in docs/errors.md: {undocumented:?}"
    );
    assert!(
        unknown.is_empty(),
        "docs/errors.md names codes kyphu does not have: {unknown:?}"
    );
    for c in kyphu::Code::ALL {
        assert_eq!(kyphu::Code::from_name(c.as_str()), Some(*c));
    }
}
