//! `kyphu show`: the position after a move, as a text diagram with its FEN.

use std::{
    io::{self, Write},
    process::ExitCode,
};

use super::{CliError, ReadArgs, render::move_of_ply};
use kyphu::{
    chess,
    color::Color,
    emit::Board,
    model::diag::{LineIndex, Severity},
    model::game::{Game, Status},
    replay::replay,
    xiangqi,
};

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The file holding the game
    pub file: String,
    /// Piece-letter language: auto (inferred per game) or a code
    #[arg(long, default_value = "auto")]
    pub lang: String,
    /// Text encoding: auto or a label
    #[arg(long, default_value = "auto")]
    pub encoding: String,
    /// Notation of xiangqi moves: auto (inferred per game) or a name, as for convert
    #[arg(long, default_value = "auto")]
    pub notation: String,
    /// Which game the record is of: auto (from the tags), chess, chess960 or xiangqi.
    /// (A number, the old spelling of --number, still selects the Nth game.)
    #[arg(long, default_value = "auto", value_parser = super::parse_game_or_number)]
    pub game: super::GameOrNumber,
    /// Which game of the file (1 = first)
    #[arg(short = 'n', long)]
    pub number: Option<u64>,
    /// Show the position after this many plies of the main line (default: the last)
    #[arg(long)]
    pub ply: Option<u32>,
    /// Print only the diagram: no note on standard error about moves not read
    #[arg(short, long)]
    pub quiet: bool,
    /// Draw the board as an SVG picture (the last move marked) instead of the diagram
    #[arg(long)]
    pub svg: bool,
}

pub fn run(a: &ShowArgs) -> Result<ExitCode, CliError> {
    let (variant, number) = super::game_and_number(&a.game, a.number);
    let read = ReadArgs {
        files: vec![a.file.clone()],
        lang: a.lang.clone(),
        encoding: a.encoding.clone(),
        notation: a.notation.clone(),
        threads: 1,
        game: variant,
        keep_illegal: false,
        log: None,
    };
    let file = &a.file;
    if file == "-" {
        super::stdin_hint();
    }
    let options = read.replay_options(file)?;
    let wanted = number.max(1) - 1;
    let mut found = None;
    for raw in read.open(file)? {
        let raw = raw.map_err(CliError::Input)?;
        if raw.junk || raw.index != wanted {
            continue;
        }
        found = Some(replay(raw, &options));
        break;
    }
    let game = found.ok_or_else(|| {
        CliError::Usage(format!(
            "{file} has no game {number} (games are numbered from 1)"
        ))
    })?;
    let plies = game.moves.moves.len() as u32;
    let unread = not_read(&game, file, number);
    let ply = a.ply.unwrap_or(plies);
    if ply > plies {
        let why = if unread.is_some() {
            " (the rest of the game was not read)"
        } else {
            ""
        };
        return Err(CliError::Usage(format!(
            "game {number} has {plies} plies on its main line{why}; --ply {ply} is beyond it"
        )));
    }
    let text = if a.svg {
        kyphu::emit::svg::game_svg(&game, ply, false) + "\n"
    } else {
        diagram(&game, ply)
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(match unread {
        Some(note) => {
            if !a.quiet {
                eprint!("{note}");
            }
            ExitCode::from(1)
        }
        None => ExitCode::SUCCESS,
    })
}

/// For a partial or failed game: what was not read and where (the first error, with
/// its location), and which position the diagram shows instead of the game's end.
fn not_read(game: &Game, file: &str, number: u64) -> Option<String> {
    let status = game.status();
    if !matches!(status, Status::Partial | Status::Failed) {
        return None;
    }
    let index = LineIndex::new(&game.source.text, game.source.first_line);
    let mut s = format!(
        "kyphu: game {number} of {file} was not read to its end ({})",
        if status == Status::Failed {
            "failed"
        } else {
            "partial"
        }
    );
    if let Some(rest) = &game.unparsed {
        let rest: String = rest.split_whitespace().collect::<Vec<_>>().join(" ");
        let shown: String = rest.chars().take(60).collect();
        let shown = shown.trim_end();
        let more = if shown.len() < rest.len() { " …" } else { "" };
        s.push_str(&format!("; kept unread: `{shown}{more}`"));
    }
    s.push('\n');
    if let Some(d) = game
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
    {
        let at = d
            .span
            .map(|sp| {
                let lc = index.locate(&game.source.text, sp.start as usize);
                format!("{file}:{}:{}: ", lc.line, lc.column)
            })
            .unwrap_or_else(|| format!("{file}: "));
        s.push_str(&format!("  {at}error[{}]: {}\n", d.code, d.message));
    }
    let plies = game.moves.moves.len() as u32;
    if plies == 0 {
        s.push_str("  no move was read: the start position is the last one reached\n");
    } else {
        let (n, side) = move_of_ply(game, plies);
        let dots = if side == Color::White { "." } else { "..." };
        let last = game.written(&game.moves.moves[plies as usize - 1]);
        s.push_str(&format!(
            "  the last position reached is after {n}{dots} {last} (ply {plies})\n"
        ));
    }
    Some(s)
}

/// The diagram after `ply` plies of the main line, with a heading and the FEN.
pub fn diagram(game: &Game, ply: u32) -> String {
    let mut s = String::new();
    let tags = &game.tags;
    let white = tags.get("White").or_else(|| tags.get("Red")).unwrap_or("?");
    let black = tags.get("Black").unwrap_or("?");
    s.push_str(&format!("{white} – {black}"));
    if ply > 0 {
        let (n, side) = move_of_ply(game, ply);
        let node = &game.moves.moves[ply as usize - 1];
        let dots = if side == Color::White { "." } else { "..." };
        s.push_str(&format!(", after {n}{dots} {}", game.written(node)));
    } else {
        s.push_str(", start position");
    }
    s.push_str("\n\n");
    let mut board = Board::new(&game.start);
    for n in &game.moves.moves[..ply as usize] {
        board.play(&n.mv);
    }
    match &board {
        Board::Chess(pos) => chess_diagram(pos, &mut s),
        Board::Xiangqi(pos) => xiangqi_diagram(pos, &mut s),
    }
    s.push_str(&format!("\nFEN: {}\n", board.fen()));
    s
}

fn chess_diagram(pos: &chess::Position, s: &mut String) {
    for rank in (0..8u8).rev() {
        s.push_str(&format!("{} ", rank + 1));
        for file in 0..8u8 {
            let sq = chess::Square::new(rank * 8 + file).unwrap_or(chess::Square::A1);
            let c = pos.piece_at(sq).map_or('.', |p| p.char());
            s.push(' ');
            s.push(c);
        }
        s.push('\n');
    }
    s.push_str("   a b c d e f g h\n");
}

fn xiangqi_diagram(pos: &xiangqi::Position, s: &mut String) {
    for rank in (0..10u8).rev() {
        s.push_str(&format!("{rank} "));
        for file in 0..9u8 {
            let c = xiangqi::Square::new(file, rank)
                .and_then(|sq| pos.piece_at(sq))
                .map_or('.', |p| p.fen_char());
            s.push(' ');
            s.push(c);
        }
        s.push('\n');
        if rank == 5 {
            s.push_str("   ~~~~~~~~~~~~~~~~~\n");
        }
    }
    s.push_str("   a b c d e f g h i\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use kyphu::{archive::read_str, replay::ReplayOptions};

    #[test]
    fn chess_diagram_after_two_plies() {
        let game = replay(
            read_str("[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 *").remove(0),
            &ReplayOptions::default(),
        );
        let d = diagram(&game, 2);
        assert!(
            d.starts_with("A – B, after 1... e5\n\n8  r n b q k b n r\n"),
            "{d}"
        );
        assert!(
            d.contains("5  . . . . p . . .\n4  . . . . P . . .\n"),
            "{d}"
        );
        assert!(
            d.ends_with("FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\n")
        );
    }

    #[test]
    fn xiangqi_diagram() {
        let game = replay(
            read_str("[Game \"Chinese Chess\"]\n\n1. h2e2 *").remove(0),
            &ReplayOptions::default(),
        );
        let d = diagram(&game, 1);
        assert!(d.contains("2  . C . . C . . . .\n"), "{d}");
        assert!(d.contains("~~~~"));
    }
}
