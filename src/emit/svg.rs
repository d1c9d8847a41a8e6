//! A board as an SVG picture: the chess board (8 × 8 squares) or the xiangqi board
//! (9 × 10 points, the river and the palaces), with the pieces, file and rank labels
//! and, optionally, the squares of the last move marked. Used by `kyphu show --svg`
//! and by the page of `kyphu serve`.
//!
//! The picture is self-contained text (no external file, no script): chess pieces are
//! the Unicode chess symbols, xiangqi pieces discs with their Chinese character, drawn
//! in the reader's fonts. Everything written comes from the position, never from the
//! input text, so nothing needs escaping but the FEN in the title.

use std::fmt::Write as _;

use crate::{
    chess,
    color::Color,
    model::{
        board::Board,
        game::{AnyMove, Game},
    },
    xiangqi,
};

/// How the board is drawn.
#[derive(Clone, Copy, Debug, Default)]
pub struct SvgOptions {
    /// Seen from Black's side (rank 8, or the black palace, at the bottom).
    pub flipped: bool,
    /// The move that led to the position: its origin and destination are marked.
    pub last: Option<LastMove>,
}

/// The two points of a move, as (file, rank) from 0: a1 = (0, 0); for xiangqi
/// a0 = (0, 0), i9 = (8, 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastMove {
    pub from: (u8, u8),
    pub to: (u8, u8),
}

impl LastMove {
    /// The points of `mv` (none for a null move).
    pub fn of(mv: &AnyMove) -> Option<LastMove> {
        match mv {
            AnyMove::Chess(m) => {
                let (f, t) = (m.from(), m.to());
                Some(LastMove {
                    from: (f.file().index(), f.rank().index()),
                    to: (t.file().index(), t.rank().index()),
                })
            }
            AnyMove::Xiangqi(m) => Some(LastMove {
                from: (m.from.file(), m.from.rank()),
                to: (m.to.file(), m.to.rank()),
            }),
            AnyMove::Null => None,
        }
    }

    /// Reads coordinates as the JSON `uci` field writes them: `e2e4` (chess, ranks 1
    /// to 8, a promotion letter after them ignored) or `h2e2` (xiangqi ICCS, ranks 0
    /// to 9). `None` for anything else (`0000`, castling written otherwise).
    pub fn parse(coords: &str, xiangqi: bool) -> Option<LastMove> {
        let b = coords.as_bytes();
        if b.len() < 4 {
            return None;
        }
        let (files, base, ranks) = if xiangqi { (9, b'0', 10) } else { (8, b'1', 8) };
        let point = |f: u8, r: u8| {
            let f = f.to_ascii_lowercase().checked_sub(b'a')?;
            let r = r.checked_sub(base)?;
            (f < files && r < ranks).then_some((f, r))
        };
        Some(LastMove {
            from: point(b[0], b[1])?,
            to: point(b[2], b[3])?,
        })
    }
}

/// The picture of `board`.
pub fn board_svg(board: &Board, opts: &SvgOptions) -> String {
    match board {
        Board::Chess(p) => chess_svg(p, opts, &board.fen()),
        Board::Xiangqi(p) => xiangqi_svg(p, opts, &board.fen()),
    }
}

/// The picture of `game` after `ply` plies of its main line (all of them when the
/// main line is shorter), the last of them marked.
pub fn game_svg(game: &Game, ply: u32, flipped: bool) -> String {
    let mut board = Board::new(&game.start);
    let moves = game
        .moves
        .moves
        .get(..ply as usize)
        .unwrap_or(&game.moves.moves);
    for node in moves {
        board.play(&node.mv);
    }
    let last = moves.last().and_then(|n| LastMove::of(&n.mv));
    board_svg(&board, &SvgOptions { flipped, last })
}

/// Escapes the five XML special characters.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

const CHESS_SQUARE: u32 = 45;
const CHESS_MARGIN: u32 = 18;

fn chess_svg(pos: &chess::Position, opts: &SvgOptions, fen: &str) -> String {
    let size = 8 * CHESS_SQUARE + 2 * CHESS_MARGIN;
    let mut s = String::with_capacity(8 << 10);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"kyphu-board chess\" viewBox=\"0 0 {size} {size}\" role=\"img\" aria-label=\"{fen}\"><title>{fen}</title>",
        fen = xml(fen)
    );
    let _ = write!(
        s,
        "<rect width=\"{size}\" height=\"{size}\" fill=\"#6d4c33\"/>"
    );
    // (file, rank) to the top-left corner of its square on the picture
    let at = |file: u8, rank: u8| {
        let (col, row) = if opts.flipped {
            (7 - u32::from(file), u32::from(rank))
        } else {
            (u32::from(file), 7 - u32::from(rank))
        };
        (
            CHESS_MARGIN + col * CHESS_SQUARE,
            CHESS_MARGIN + row * CHESS_SQUARE,
        )
    };
    for rank in 0..8u8 {
        for file in 0..8u8 {
            let (x, y) = at(file, rank);
            let light = (file + rank) % 2 == 1;
            let fill = if light { "#f0d9b5" } else { "#b58863" };
            let _ = write!(
                s,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{CHESS_SQUARE}\" height=\"{CHESS_SQUARE}\" fill=\"{fill}\"/>"
            );
        }
    }
    if let Some(last) = opts.last {
        for (file, rank) in [last.from, last.to] {
            if file < 8 && rank < 8 {
                let (x, y) = at(file, rank);
                let _ = write!(
                    s,
                    "<rect class=\"last\" x=\"{x}\" y=\"{y}\" width=\"{CHESS_SQUARE}\" height=\"{CHESS_SQUARE}\" fill=\"#cdd26a\" fill-opacity=\"0.75\"/>"
                );
            }
        }
    }
    s.push_str("<g font-family=\"'DejaVu Sans','Noto Sans Symbols 2','Segoe UI Symbol',sans-serif\" font-size=\"11\" fill=\"#f0d9b5\" text-anchor=\"middle\">");
    for i in 0..8u8 {
        let (x, _) = at(i, 0);
        let (_, y) = at(0, i);
        let file = char::from(b'a' + i);
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\">{file}</text><text x=\"{}\" y=\"{}\">{}</text>",
            x + CHESS_SQUARE / 2,
            size - 5,
            CHESS_MARGIN / 2,
            y + CHESS_SQUARE / 2 + 4,
            i + 1
        );
    }
    s.push_str("</g><g font-family=\"'DejaVu Sans','Noto Sans Symbols 2','Segoe UI Symbol',sans-serif\" font-size=\"38\" text-anchor=\"middle\">");
    for rank in 0..8u8 {
        for file in 0..8u8 {
            let Some(sq) = chess::Square::new(rank * 8 + file) else {
                continue;
            };
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            let c = piece.char();
            // the filled symbols for both sides, white ones filled white and outlined
            let glyph = match c.to_ascii_lowercase() {
                'k' => '\u{265A}',
                'q' => '\u{265B}',
                'r' => '\u{265C}',
                'b' => '\u{265D}',
                'n' => '\u{265E}',
                _ => '\u{265F}',
            };
            let (fill, stroke) = if c.is_ascii_uppercase() {
                ("#ffffff", "#000000")
            } else {
                ("#000000", "#000000")
            };
            let (x, y) = at(file, rank);
            let _ = write!(
                s,
                "<text class=\"piece\" data-piece=\"{c}\" x=\"{}\" y=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.2\">{glyph}\u{FE0E}</text>",
                x + CHESS_SQUARE / 2,
                y + CHESS_SQUARE - 8
            );
        }
    }
    s.push_str("</g></svg>");
    s
}

const XQ_STEP: u32 = 40;
const XQ_MARGIN: u32 = 36;

fn xiangqi_svg(pos: &xiangqi::Position, opts: &SvgOptions, fen: &str) -> String {
    let (w, h) = (8 * XQ_STEP + 2 * XQ_MARGIN, 9 * XQ_STEP + 2 * XQ_MARGIN);
    let mut s = String::with_capacity(10 << 10);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"kyphu-board xiangqi\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{fen}\"><title>{fen}</title>",
        fen = xml(fen)
    );
    let _ = write!(s, "<rect width=\"{w}\" height=\"{h}\" fill=\"#eecf98\"/>");
    // (file, rank) to its point on the picture
    let at = |file: u8, rank: u8| {
        let (col, row) = if opts.flipped {
            (8 - u32::from(file), u32::from(rank))
        } else {
            (u32::from(file), 9 - u32::from(rank))
        };
        (XQ_MARGIN + col * XQ_STEP, XQ_MARGIN + row * XQ_STEP)
    };
    s.push_str("<g stroke=\"#5a3a1a\" stroke-width=\"1.2\">");
    let line = |s: &mut String, a: (u32, u32), b: (u32, u32)| {
        let _ = write!(
            s,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
            a.0, a.1, b.0, b.1
        );
    };
    for rank in 0..10u8 {
        line(&mut s, at(0, rank), at(8, rank));
    }
    for file in 0..9u8 {
        if file == 0 || file == 8 {
            line(&mut s, at(file, 0), at(file, 9));
        } else {
            // the river cuts the inner files
            line(&mut s, at(file, 0), at(file, 4));
            line(&mut s, at(file, 5), at(file, 9));
        }
    }
    for (r0, r1) in [(0u8, 2u8), (7, 9)] {
        line(&mut s, at(3, r0), at(5, r1));
        line(&mut s, at(5, r0), at(3, r1));
    }
    s.push_str("</g>");
    let (rx, ry) = at(0, 5);
    let _ = write!(
        s,
        "<text x=\"{}\" y=\"{}\" font-size=\"20\" fill=\"#5a3a1a\" text-anchor=\"middle\" font-family=\"'Noto Serif CJK SC','WenQuanYi Zen Hei','Noto Sans CJK SC',serif\">楚 河　　　　漢 界</text>",
        w / 2,
        ry + XQ_STEP / 2 + 7
    );
    let _ = rx;
    s.push_str("<g font-family=\"'DejaVu Sans',sans-serif\" font-size=\"11\" fill=\"#5a3a1a\" text-anchor=\"middle\">");
    for file in 0..9u8 {
        let (x, _) = at(file, 0);
        let _ = write!(
            s,
            "<text x=\"{x}\" y=\"{}\">{}</text>",
            h - 8,
            char::from(b'a' + file)
        );
    }
    for rank in 0..10u8 {
        let (_, y) = at(0, rank);
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\">{rank}</text>",
            XQ_MARGIN / 2 - 8,
            y + 4
        );
    }
    s.push_str("</g>");
    if let Some(last) = opts.last {
        for (file, rank) in [last.from, last.to] {
            if file < 9 && rank < 10 {
                let (x, y) = at(file, rank);
                let _ = write!(
                    s,
                    "<rect class=\"last\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#2a7de1\" stroke-width=\"2.5\"/>",
                    x - XQ_STEP / 2 + 1,
                    y - XQ_STEP / 2 + 1,
                    XQ_STEP - 2,
                    XQ_STEP - 2
                );
            }
        }
    }
    s.push_str("<g font-family=\"'Noto Serif CJK SC','WenQuanYi Zen Hei','Noto Sans CJK SC','AR PL UKai CN',serif\" font-size=\"21\" text-anchor=\"middle\">");
    for rank in 0..10u8 {
        for file in 0..9u8 {
            let Some(piece) = xiangqi::Square::new(file, rank).and_then(|sq| pos.piece_at(sq))
            else {
                continue;
            };
            let red = piece.color == Color::White;
            let name = match (piece.fen_char().to_ascii_lowercase(), red) {
                ('k', true) => '帥',
                ('k', false) => '將',
                ('a', true) => '仕',
                ('a', false) => '士',
                ('b', true) => '相',
                ('b', false) => '象',
                ('n', true) => '傌',
                ('n', false) => '馬',
                ('r', true) => '俥',
                ('r', false) => '車',
                ('c', true) => '炮',
                ('c', false) => '砲',
                (_, true) => '兵',
                (_, false) => '卒',
            };
            let color = if red { "#c0201a" } else { "#1a1a1a" };
            let (x, y) = at(file, rank);
            let _ = write!(
                s,
                "<g class=\"piece\" data-piece=\"{}\"><circle cx=\"{x}\" cy=\"{y}\" r=\"17\" fill=\"#fbe9c6\" stroke=\"{color}\" stroke-width=\"2\"/><text x=\"{x}\" y=\"{}\" fill=\"{color}\">{name}</text></g>",
                piece.fen_char(),
                y + 7
            );
        }
    }
    s.push_str("</g></svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::StartPosition;

    fn count(s: &str, what: &str) -> usize {
        s.matches(what).count()
    }

    #[test]
    fn chess_start_has_32_pieces_and_64_squares() {
        let board = Board::new(&StartPosition::Chess(Box::default()));
        let svg = board_svg(&board, &SvgOptions::default());
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>"));
        assert_eq!(count(&svg, "class=\"piece\""), 32);
        assert_eq!(count(&svg, "data-piece=\"P\""), 8);
        assert_eq!(count(&svg, "data-piece=\"k\""), 1);
        assert_eq!(count(&svg, "width=\"45\""), 64);
        assert!(
            svg.contains("<title>rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1</title>")
        );
        assert_eq!(count(&svg, "class=\"last\""), 0);
    }

    #[test]
    fn chess_last_move_and_flip() {
        let mut board = Board::new(&StartPosition::Chess(Box::default()));
        let square = |i| chess::Square::new(i).unwrap_or(chess::Square::A1);
        let mv = chess::Move::Normal {
            role: chess::Role::Pawn,
            from: square(12),
            capture: None,
            to: square(28),
            promotion: None,
        };
        board.play(&AnyMove::Chess(mv));
        let last = LastMove::of(&AnyMove::Chess(mv));
        assert_eq!(
            last,
            Some(LastMove {
                from: (4, 1),
                to: (4, 3)
            })
        );
        let svg = board_svg(
            &board,
            &SvgOptions {
                flipped: false,
                last,
            },
        );
        assert_eq!(count(&svg, "class=\"last\""), 2);
        // e4 unflipped: column 4, row 4 from the top
        assert!(
            svg.contains("<rect class=\"last\" x=\"198\" y=\"198\""),
            "{svg}"
        );
        let flipped = board_svg(
            &board,
            &SvgOptions {
                flipped: true,
                last,
            },
        );
        // e4 flipped: column 3, row 3
        assert!(flipped.contains("<rect class=\"last\" x=\"153\" y=\"153\""));
    }

    #[test]
    fn xiangqi_start_has_32_discs() {
        let board = Board::new(&StartPosition::Xiangqi(Box::default()));
        let svg = board_svg(&board, &SvgOptions::default());
        assert_eq!(count(&svg, "<circle"), 32);
        assert_eq!(count(&svg, "帥"), 1);
        assert_eq!(count(&svg, "卒"), 5);
        assert_eq!(count(&svg, "data-piece=\"C\""), 2);
        // ten ranks, two edge files, seven inner files cut by the river, four diagonals
        assert_eq!(count(&svg, "<line "), 10 + 2 + 14 + 4);
    }

    #[test]
    fn coordinates_parse_for_either_game() {
        assert_eq!(
            LastMove::parse("h2e2", true),
            Some(LastMove {
                from: (7, 2),
                to: (4, 2)
            })
        );
        assert_eq!(
            LastMove::parse("e7e8q", false),
            Some(LastMove {
                from: (4, 6),
                to: (4, 7)
            })
        );
        assert_eq!(LastMove::parse("0000", false), None);
        assert_eq!(LastMove::parse("e9e8", false), None);
        assert_eq!(LastMove::parse("i9i0", true).map(|m| m.from), Some((8, 9)));
        assert_eq!(LastMove::parse("ж", true), None);
    }

    #[test]
    fn game_after_a_ply() {
        let game = crate::replay::replay(
            crate::archive::read_str("1. e4 e5 2. Nf3 *").remove(0),
            &crate::replay::ReplayOptions::default(),
        );
        let svg = game_svg(&game, 2, false);
        assert!(svg.contains(
            "<title>rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2</title>"
        ));
        // e7 and e5 marked
        assert_eq!(count(&svg, "class=\"last\""), 2);
        assert!(game_svg(&game, 99, false).contains(
            "<title>rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2</title>"
        ));
    }

    #[test]
    fn title_is_escaped() {
        assert_eq!(xml("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
