//! The game's variant and start position, from its tags.

use super::*;
use crate::chess::FenError;
use crate::model::diag::Code;

/// A tag value with its white space runs made single spaces and its ends trimmed, in
/// ASCII lower case: `Chinese\tChess ` and `chinese chess` name the same variant (the
/// PGN writer turns tabs and line breaks in tag values into spaces, so a file read
/// again after writing must come out the same).
pub(super) fn tag_words(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for w in value.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out.make_ascii_lowercase();
    out
}

pub(super) fn detect_variant(tags: &Tags) -> Result<Variant, Diagnostic> {
    if tags
        .get("Game")
        .is_some_and(|g| matches!(tag_words(g).as_str(), "chinese chess" | "xiangqi"))
    {
        return Ok(Variant::Xiangqi);
    }
    // Xiangqi files without a Game tag: a Red player, or a xiangqi notation named.
    if tags.get("Red").is_some()
        || tags
            .get("Format")
            .is_some_and(|f| matches!(tag_words(f).as_str(), "wxf" | "iccs" | "chinese"))
    {
        return Ok(Variant::Xiangqi);
    }
    let Some(v) = tags.get("Variant") else {
        return Ok(Variant::Chess);
    };
    let lower = tag_words(v);
    match lower.as_str() {
        "" | "standard" | "chess" | "normal" | "from position" | "from_position" => {
            Ok(Variant::Chess)
        }
        "xiangqi" | "chinese chess" => Ok(Variant::Xiangqi),
        _ if lower.contains("960") || lower.contains("fischer") => Ok(Variant::Chess960),
        _ => Err(Diagnostic::error(
            Code::UnsupportedVariant,
            format!("variant `{v}` is not supported (kyphu reads chess, chess960 and xiangqi)"),
        )),
    }
}

/// Does a tag name the game (`Game`, `Red`, `Format`, `Variant`)? When none does, the
/// game is told from the content ([`content_variant`], `replay::text`).
pub(super) fn variant_named(tags: &Tags) -> bool {
    // one pass over the tags (every game asks)
    tags.iter().any(|(name, value)| {
        matches!(name, "Game" | "Red" | "Format" | "Variant") && !value.trim().is_empty()
    })
}

/// The game of a record no tag names, told before its walk: xiangqi when a xiangqi
/// notation is given (`--notation`), the FEN tag has ten ranks, or the first move tokens
/// are ones only xiangqi writes ([`xiangqi_first_moves`]); chess otherwise (a chess walk
/// that stops tries xiangqi too: `replay::text::reread`).
pub(super) fn content_variant(tags: &Tags, raw: &RawGame, options: &ReplayOptions) -> Variant {
    let ten_ranks = tags.get("FEN").is_some_and(|fen| {
        fen.split_whitespace()
            .next()
            .is_some_and(|board| board.matches('/').count() == 9)
    });
    if options.xiangqi.is_some() || ten_ranks || xiangqi_first_moves(raw) {
        Variant::Xiangqi
    } else {
        Variant::Chess
    }
}

/// Is Red's first move token one only xiangqi writes, or Black's when Red's has no
/// square or coordinate in it (`C25 H8+7`: WXF without its operator, not `h2e2 h9g7`,
/// which chess reads too and the replay settles)?
fn xiangqi_first_moves(raw: &RawGame) -> bool {
    let mut tokens = raw.main_line();
    let first = tokens.next();
    first.is_some_and(super::xiangqi_only)
        || first.is_some_and(|t| !t.bytes().any(|b| b.is_ascii_lowercase()))
            && tokens.next().is_some_and(super::xiangqi_only)
}

pub(super) fn xiangqi_start(tags: &Tags) -> Result<xiangqi::Position, Diagnostic> {
    let Some(fen) = tags.get("FEN") else {
        return Ok(xiangqi::Position::default());
    };
    xiangqi::Position::from_fen(fen)
        .map_err(|e| Diagnostic::error(Code::BadFen, format!("in the FEN tag: {e}")))
}

pub(super) fn chess_start(
    tags: &Tags,
    chess960: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Position, Diagnostic> {
    let Some(fen) = tags.get("FEN") else {
        return Ok(Position::default());
    };
    let read = |fen: &str| {
        if chess960 {
            Position::from_fen_chess960(fen)
        } else {
            // Some files set up chess960 positions without a Variant tag.
            Position::from_fen(fen).or_else(|e| Position::from_fen_chess960(fen).map_err(|_| e))
        }
    };
    let first = match read(fen) {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    // Castling rights that cannot exist (no king or rook for them) are dropped, with a
    // warning, and the game is played on, as python-chess and lichess do.
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_owned).collect();
    let mut dropped = String::new();
    let mut error = first.clone();
    while let FenError::CastlingRight { right, .. } = error
        && let Some(castling) = fields.get_mut(2)
        && castling.contains(right)
    {
        castling.retain(|c| c != right);
        dropped.push(right);
        if castling.is_empty() {
            castling.push('-');
        }
        match read(&fields.join(" ")) {
            Ok(p) => {
                diagnostics.push(Diagnostic::warning(
                    Code::FenCastlingDropped,
                    format!(
                        "in the FEN tag: castling rights `{dropped}` cannot exist ({first}); dropped, the game is played from `{}`",
                        fields.join(" ")
                    ),
                ));
                return Ok(p);
            }
            Err(e) => error = e,
        }
    }
    Err(Diagnostic::error(
        Code::BadFen,
        format!("in the FEN tag: {first}"),
    ))
}
