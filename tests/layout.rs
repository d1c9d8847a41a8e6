//! The layout of the library, checked: every `crate::` path in a module's code (not its
//! comments, not its `#[cfg(test)]` module) names a stage at or below its own in the
//! flow, so that no import runs against the flow and no cycle between stages exists.
//!
//! The flow, from the bottom (`docs/architecture.md`):
//! `color` → the engines `chess`, `xiangqi` → `model` → `bytes` → `text` → `archive` →
//! `notation` → `replay` → `game` → `emit`. The command line (`src/cli/`) is the binary's and
//! may use any of them.

use std::{fs, path::Path};

/// The stages, lowest first; a stage may use its own rank and the ranks below.
const STAGES: &[(&str, u32)] = &[
    ("color", 0),
    ("chess", 1),
    ("xiangqi", 1),
    ("model", 2),
    ("bytes", 3),
    ("text", 4),
    ("archive", 5),
    ("notation", 6),
    ("replay", 7),
    ("game", 8),
    ("emit", 9),
];

fn rank(stage: &str) -> Option<u32> {
    STAGES.iter().find(|(s, _)| *s == stage).map(|&(_, r)| r)
}

/// The code of a file without comments and without its test module.
fn code_of(text: &str) -> String {
    let cut = text
        .find("#[cfg(test)]\nmod tests")
        .or_else(|| text.find("#[cfg(test)]\n#[allow(clippy::unwrap_used)]\nmod tests"))
        .or_else(|| text.find("#[cfg(test)]\n#[allow"))
        .unwrap_or(text.len());
    text[..cut]
        .lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The stages a piece of code names: `crate::x`, and `x::` inside `use crate::{…}`.
fn stages_named(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while let Some(j) = code[i..].find("crate::") {
        let at = i + j + "crate::".len();
        if code[at..].starts_with('{') {
            // a use group: the first segment of each path at depth 1
            let mut depth = 0;
            let mut k = at;
            let mut start = true;
            while k < bytes.len() {
                let c = bytes[k];
                match c {
                    b'{' => {
                        depth += 1;
                        start = true;
                    }
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    b',' => start = depth == 1,
                    _ if start && depth == 1 && c.is_ascii_alphabetic() => {
                        let end = code[k..]
                            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                            .map_or(code.len(), |e| k + e);
                        out.push(code[k..end].to_owned());
                        start = false;
                        k = end;
                        continue;
                    }
                    _ if !c.is_ascii_whitespace() => start = false,
                    _ => {}
                }
                k += 1;
            }
            i = k.max(at);
        } else {
            let end = code[at..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(code.len(), |e| at + e);
            out.push(code[at..end].to_owned());
            i = end;
        }
    }
    out
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_import_points_down_the_flow() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    all.sort();
    let mut wrong = Vec::new();
    for path in &all {
        let rel = path.strip_prefix(&src).expect("under src");
        let first = rel
            .iter()
            .next()
            .and_then(|s| s.to_str())
            .map(|s| s.trim_end_matches(".rs"))
            .unwrap_or_default();
        if matches!(first, "lib" | "main" | "cli" | "testing") {
            continue;
        }
        let own = rank(first).unwrap_or_else(|| panic!("{}: a stage not in STAGES", rel.display()));
        let text = fs::read_to_string(path).expect("read");
        for stage in stages_named(&code_of(&text)) {
            if matches!(stage.as_str(), "self" | "super" | "testing") {
                continue;
            }
            match rank(&stage) {
                Some(r) if r <= own => {}
                Some(_) => wrong.push(format!(
                    "{}: uses {stage}, later in the flow",
                    rel.display()
                )),
                None => wrong.push(format!("{}: uses {stage}, not a stage", rel.display())),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the flow:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_library_does_not_hold_the_command_line() {
    let lib = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("lib.rs");
    assert!(!lib.contains("mod cli"), "the CLI belongs to the binary");
}

#[test]
fn the_checker_sees_groups_and_paths() {
    let code = "use crate::{\n    emit::Board,\n    model::{game::X, diag},\n};\nfn f() { crate::replay::go(); }";
    assert_eq!(stages_named(code), ["emit", "model", "replay"]);
}
