//! DhtmlXQ (UBB) output: a xiangqi game as one `[DhtmlXQ]…[/DhtmlXQ]` block, as the
//! web viewers that read the 东萍象棋 (dpxq.com) format take it (layout in
//! `docs/formats.md`). kyphu's DhtmlXQ reader reads it back to the same game: the
//! metadata tags (`DhtmlXQ_name` tags of the input under their own name), `binit`
//! (or `fen` when the start cannot be written as 32 slots, or Black is to move with no
//! move to show it), `movelist`, every variation as a branch `move_a_b_c` numbered in
//! the order a PGN writer meets them (a branch's parent always has a lower number),
//! and the comments (`||` for a line break).

use crate::{
    archive::dhtmlxq::TAG_NAMES,
    model::game::{AnyMove, Game, GameResult, Line, StartPosition},
};

/// The slots of `binit`, in order: Red's pieces then Black's.
const SLOTS: &[u8; 16] = b"RNBAKABNRCCPPPPP";

/// The `binit` of a FEN board (rows from Black's side), or `None` when its pieces do
/// not fit the 32 slots (more pieces of a kind than a side starts with).
fn binit(fen: &str) -> Option<String> {
    let board = fen.split_ascii_whitespace().next()?;
    let mut slots: [Option<(u8, u8)>; 32] = [None; 32];
    for (y, row) in board.split('/').enumerate() {
        let mut x = 0u8;
        for c in row.bytes() {
            if c.is_ascii_digit() {
                x += c - b'0';
                continue;
            }
            let (base, letter) = if c.is_ascii_uppercase() {
                (0, c)
            } else {
                (16, c.to_ascii_uppercase())
            };
            let slot = (0..16).find(|&i| SLOTS[i] == letter && slots[base + i].is_none())?;
            slots[base + slot] = Some((x, u8::try_from(y).ok()?));
            x += 1;
        }
    }
    let mut out = String::with_capacity(64);
    for s in slots {
        match s {
            Some((x, y)) => {
                out.push(char::from(b'0' + x));
                out.push(char::from(b'0' + y));
            }
            None => out.push_str("99"),
        }
    }
    Some(out)
}

/// The four digits of an ICCS move (`h2e2` → `7747`).
fn digits(iccs: &str, out: &mut String) {
    let b = iccs.as_bytes();
    if b.len() != 4 {
        return;
    }
    for sq in [&b[0..2], &b[2..4]] {
        out.push(char::from(b'0' + (sq[0] - b'a')));
        out.push(char::from(b'0' + (b'9' - sq[1])));
    }
}

fn iccs(mv: &AnyMove) -> String {
    match mv {
        AnyMove::Xiangqi(m) => m.iccs(),
        _ => String::new(),
    }
}

/// Writes `[DhtmlXQ_name]value[/DhtmlXQ_name]`. The format has no escapes: a value
/// that holds a bracket before `DhtmlXQ` (`[/DhtmlXQ]` in a title) would end the tag or
/// the block where a reader looks, so such a value's `[` is written as the full-width
/// `［` (the block then reads back as one game with that value).
fn tag(out: &mut String, name: &str, value: &str) {
    out.push_str("[DhtmlXQ_");
    out.push_str(name);
    out.push(']');
    if value.to_ascii_lowercase().contains("dhtmlxq") && value.contains('[') {
        out.push_str(&value.replace('[', "［"));
    } else {
        out.push_str(value);
    }
    out.push_str("[/DhtmlXQ_");
    out.push_str(name);
    out.push_str("]\n");
}

/// A comment as DhtmlXQ writes it: line breaks as `||`.
fn comment_value(parts: &[String]) -> String {
    parts
        .join("\n")
        .replace("\r\n", "\n")
        .replace(['\r', '\n'], "||")
}

/// A xiangqi game as a DhtmlXQ block (with a final line break); `None` for a chess
/// game, which DhtmlXQ cannot hold.
pub fn to_dhtmlxq_string(game: &Game) -> Option<String> {
    let StartPosition::Xiangqi(start) = &game.start else {
        return None;
    };
    let mut out = String::with_capacity(1024);
    out.push_str("[DhtmlXQ]\n");
    let has_red = game.tags.get("Red").is_some();
    let mut wrote_result = false;
    for (name, value) in game.tags.iter() {
        let dname: String = match name {
            "Game" | "FEN" | "SetUp" | "Result" | "Format" => continue,
            "White" if !has_red => "red".to_owned(),
            _ => match TAG_NAMES.iter().find(|(_, p)| *p == name) {
                Some((d, _)) => (*d).to_owned(),
                None => match name.strip_prefix("DhtmlXQ_") {
                    Some(d) => d.to_owned(),
                    None => name.to_ascii_lowercase(),
                },
            },
        };
        wrote_result |= dname == "result";
        tag(&mut out, &dname, value);
    }
    if !wrote_result {
        let r = match game.result {
            GameResult::WhiteWins => "红胜",
            GameResult::BlackWins => "黑胜",
            GameResult::Draw => "和棋",
            GameResult::Unknown => "未知",
        };
        tag(&mut out, "result", r);
    }
    let fen = start.fen();
    let black = fen.split_ascii_whitespace().nth(1) == Some("b");
    match binit(&fen) {
        Some(b) if !(black && game.moves.moves.is_empty()) => tag(&mut out, "binit", &b),
        _ => tag(&mut out, "fen", &fen),
    }

    // lines in the order a PGN writer meets them: (line, parent, first ply, line)
    let mut moves = String::new();
    let mut comments: Vec<(usize, u32, String)> = Vec::new();
    if !game.moves.comments.is_empty() {
        comments.push((0, 0, comment_value(&game.moves.comments)));
    }
    let mut branches = String::new();
    let mut next_id = 1usize;
    // (line id, parent id, ply of its first move, the line)
    let mut stack: Vec<(usize, usize, u32, &Line)> = vec![(0, 0, 1, &game.moves)];
    while let Some((mut id, parent, ply0, line)) = stack.pop() {
        if id == usize::MAX {
            id = next_id;
            next_id += 1;
        }
        let mut digits_of_line = String::with_capacity(line.moves.len() * 4);
        let mut children = Vec::new();
        for (k, node) in line.moves.iter().enumerate() {
            let ply = ply0 + k as u32;
            digits(&iccs(&node.mv), &mut digits_of_line);
            let mut parts: Vec<String> = Vec::new();
            if k == 0 && id != 0 {
                // a comment before a variation's first move has no place of its own
                parts.extend(line.comments.iter().cloned());
            }
            parts.extend(node.comments().iter().cloned());
            if !parts.is_empty() {
                comments.push((id, ply, comment_value(&parts)));
            }
            for v in node.variations() {
                children.push((ply, v));
            }
        }
        if id == 0 {
            moves = digits_of_line;
        } else {
            tag(
                &mut branches,
                &format!("move_{parent}_{ply0}_{id}"),
                &digits_of_line,
            );
        }
        // visited depth first, numbered when visited: the order a PGN writer meets them
        for (ply, v) in children.into_iter().rev() {
            stack.push((usize::MAX, id, ply, v));
        }
    }
    tag(&mut out, "movelist", &moves);
    out.push_str(&branches);
    for (line, ply, text) in comments {
        let name = if line == 0 {
            format!("comment{ply}")
        } else {
            format!("comment{line}_{ply}")
        };
        tag(&mut out, &name, &text);
    }
    out.push_str("[/DhtmlXQ]\n");
    Some(out)
}
