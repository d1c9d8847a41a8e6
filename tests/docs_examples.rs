//! Every `kyphu …` command of README.md and docs/cli.md, run exactly as written, so that
//! the documentation cannot drift from the program (issue 23).
//!
//! The rules, which the documents follow:
//!
//! * In a ```` ```console ```` block every `$ ` line is a shell command; the lines after
//!   it, up to the next `$ ` line, are the first lines of what it prints (standard
//!   output and standard error as a terminal shows them). In those lines `…` elides: a
//!   line that is only `…` stands for any number of lines, and inside a line for any
//!   text. `$ echo $?` followed by a number gives the exit status of the command before
//!   it; without one that status must be 0.
//! * In a ```` ```sh ```` block every line whose first word is `kyphu` is a command; it
//!   must exit with 0, or with N when its comment says `exit N`.
//!
//! Commands run through `sh -c` with the built binary first on `PATH`, in a fresh
//! directory holding a link to the repository's `corpus/`: relative input paths
//! resolve as from the repository root, and the files the examples write (`-o
//! games.jsonl`, `2> report.txt`) land in that directory, not in the checkout.
#![cfg(unix)]
#![allow(clippy::unwrap_used)]

use std::{
    path::{Path, PathBuf},
    process::Command,
};

#[derive(Debug)]
struct Example {
    /// `README.md:57`
    at: String,
    command: String,
    /// Expected first lines (console blocks); `None` for sh blocks.
    output: Option<Vec<String>>,
    status: i32,
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The examples of one Markdown document.
fn examples(doc: &str) -> Vec<Example> {
    let text = std::fs::read_to_string(repo().join(doc)).unwrap();
    let mut out: Vec<Example> = Vec::new();
    let mut block: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let at = format!("{doc}:{}", i + 1);
        if let Some(rest) = line.strip_prefix("```") {
            block = match block {
                None => Some(rest.trim().to_owned()),
                Some(_) => None,
            };
            continue;
        }
        match block.as_deref() {
            Some("console") => {
                if let Some(cmd) = line.strip_prefix("$ ") {
                    if cmd.trim() == "echo $?" {
                        // the status line follows; read it below
                        if let Some(last) = out.last_mut() {
                            last.status = -1;
                        }
                        continue;
                    }
                    out.push(Example {
                        at,
                        command: cmd.to_owned(),
                        output: Some(Vec::new()),
                        status: 0,
                    });
                } else if let Some(last) = out.last_mut() {
                    if last.status == -1 {
                        last.status = line
                            .trim()
                            .parse()
                            .unwrap_or_else(|_| panic!("{at}: expected an exit status"));
                    } else if let Some(lines) = &mut last.output {
                        lines.push(line.to_owned());
                    }
                }
            }
            Some("sh") if line.split_whitespace().next() == Some("kyphu") => {
                let (command, comment) = match line.find(" #") {
                    Some(k) => (line[..k].trim_end(), &line[k..]),
                    None => (line, ""),
                };
                let status = comment
                    .split("exit ")
                    .nth(1)
                    .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                out.push(Example {
                    at,
                    command: command.to_owned(),
                    output: None,
                    status,
                });
            }
            _ => {}
        }
    }
    // trailing empty lines of an output are layout, not output
    for e in &mut out {
        if let Some(lines) = &mut e.output {
            while lines.last().is_some_and(|l| l.trim().is_empty()) {
                lines.pop();
            }
        }
    }
    out
}

/// Does `actual` match `expected`, where `…` stands for any text?
fn line_matches(expected: &str, actual: &str) -> bool {
    let parts: Vec<&str> = expected.split('…').collect();
    if parts.len() == 1 {
        return expected.trim_end() == actual.trim_end();
    }
    let actual = actual.trim_end();
    let (first, last) = (parts[0], parts[parts.len() - 1].trim_end());
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..];
    for p in &parts[1..parts.len() - 1] {
        match rest.find(p) {
            Some(k) => rest = &rest[k + p.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Do the first lines of `actual` match `expected` (with `…` lines skipping)?
fn output_matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => true,
        Some((e, rest)) if e.trim() == "…" => {
            (0..=actual.len()).any(|k| output_matches(rest, &actual[k..]))
        }
        Some((e, rest)) => match actual.split_first() {
            Some((a, more)) => line_matches(e, a) && output_matches(rest, more),
            None => false,
        },
    }
}

/// A fresh directory with `corpus` linking to the repository's.
fn workdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kyphu-docs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(repo().join("corpus"), dir.join("corpus")).unwrap();
    dir
}

fn run(dir: &Path, command: &str) -> (i32, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_kyphu")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1; {command}"))
        .current_dir(dir)
        .env("PATH", path)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn check_document(doc: &str, name: &str) {
    let examples = examples(doc);
    assert!(
        examples.iter().any(|e| e.command.contains("kyphu")),
        "{doc}: no kyphu command found"
    );
    let dir = workdir(name);
    let mut failures = Vec::new();
    for e in &examples {
        let (status, output) = run(&dir, &e.command);
        let lines: Vec<&str> = output.lines().collect();
        if status != e.status {
            failures.push(format!(
                "{}: `{}` exited with {status}, the document says {}\n{output}",
                e.at, e.command, e.status
            ));
        } else if let Some(expected) = &e.output
            && !output_matches(expected, &lines)
        {
            failures.push(format!(
                "{}: `{}` printed\n{output}\nwhere the document shows\n{}",
                e.at,
                e.command,
                expected.join("\n")
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn readme_examples_run_as_written() {
    check_document("README.md", "readme");
}

#[test]
fn cli_doc_examples_run_as_written() {
    check_document("docs/cli.md", "cli");
}

/// The examples of `kyphu COMMAND --help` name files of the repository and run too
/// (they are listed under "Examples:"; each must exit with 0 or 1, its documented
/// statuses for findings).
#[test]
fn help_examples_run_as_written() {
    let dir = workdir("help");
    let mut failures = Vec::new();
    for sub in ["convert", "check", "diff", "show", "perft"] {
        let (_, help) = run(&dir, &format!("kyphu {sub} --help"));
        // clap wraps long lines at 100 columns: a line that does not start a command
        // (`kyphu …`, `cat … | kyphu …`) continues the one before
        let mut examples: Vec<String> = Vec::new();
        for line in help
            .lines()
            .skip_while(|l| !l.starts_with("Examples:"))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .map(str::trim)
        {
            match examples.last_mut() {
                Some(last) if !(line.starts_with("kyphu ") || line.starts_with("cat ")) => {
                    last.push(' ');
                    last.push_str(line);
                }
                _ => examples.push(line.to_owned()),
            }
        }
        assert!(!examples.is_empty(), "kyphu {sub} --help has no examples");
        for e in &examples {
            let (status, output) = run(&dir, e);
            if status != 0 && status != 1 {
                failures.push(format!("`{e}` exited with {status}\n{output}"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn elisions_match() {
    assert!(line_matches("a … c", "a b c"));
    assert!(line_matches(
        "written `He3+` at …:3:85)",
        "written `He3+` at x.pgn:3:85)"
    ));
    assert!(!line_matches("a … c", "a b d"));
    let actual = ["one", "two", "three", "four"];
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(output_matches(&e(&["one", "…", "four"]), &actual));
    assert!(output_matches(&e(&["one", "two"]), &actual));
    assert!(!output_matches(&e(&["two"]), &actual));
    assert!(!output_matches(&e(&["one", "…", "five"]), &actual));
}
