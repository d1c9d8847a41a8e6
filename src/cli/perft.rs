//! `kyphu perft`.

use std::{
    io::{self, Write},
    process::ExitCode,
    time::Instant,
};

use super::{CliError, VariantArg};
use kyphu::{chess, xiangqi};

#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// Rules to generate moves under
    #[arg(long, value_enum, default_value_t = VariantArg::Chess)]
    pub variant: VariantArg,
    /// Start position (default: the variant's initial position)
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the node count below each legal move, sorted by move
    #[arg(long)]
    pub divide: bool,
    /// Number of plies to search
    pub depth: u32,
}

pub fn run(a: &PerftArgs) -> Result<ExitCode, CliError> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let start = Instant::now();
    let nodes = match a.variant {
        VariantArg::Chess | VariantArg::Chess960 => chess_perft(a, &mut out)?,
        VariantArg::Xiangqi => xiangqi_perft(a, &mut out)?,
    };
    writeln!(out, "nodes {nodes}")?;
    out.flush()?;
    let secs = start.elapsed().as_secs_f64();
    if secs > 0.5 {
        eprintln!("{:.2} s, {:.1} M nodes/s", secs, nodes as f64 / secs / 1e6);
    }
    Ok(ExitCode::SUCCESS)
}

fn chess_perft(a: &PerftArgs, out: &mut impl Write) -> Result<u64, CliError> {
    let pos = match (&a.fen, a.variant) {
        (None, _) => chess::Position::default(),
        (Some(f), VariantArg::Chess960) => {
            chess::Position::from_fen_chess960(f).map_err(|e| CliError::Usage(e.to_string()))?
        }
        (Some(f), _) => chess::Position::from_fen(f).map_err(|e| CliError::Usage(e.to_string()))?,
    };
    if !a.divide {
        return Ok(chess::perft(&pos, a.depth));
    }
    let split = chess::perft_divide(&pos, a.depth);
    for (m, n) in &split {
        writeln!(out, "{} {n}", m.uci(pos.chess960()))?;
    }
    Ok(split.iter().map(|(_, n)| n).sum())
}

fn xiangqi_perft(a: &PerftArgs, out: &mut impl Write) -> Result<u64, CliError> {
    let pos = match &a.fen {
        None => xiangqi::Position::default(),
        Some(f) => xiangqi::Position::from_fen(f).map_err(|e| CliError::Usage(e.to_string()))?,
    };
    if !a.divide {
        return Ok(xiangqi::perft(&pos, a.depth));
    }
    let mut lines: Vec<(String, u64)> = xiangqi::perft_divide(&pos, a.depth)
        .iter()
        .map(|(m, n)| (m.iccs(), *n))
        .collect();
    lines.sort();
    for (m, n) in &lines {
        writeln!(out, "{m} {n}")?;
    }
    Ok(lines.iter().map(|(_, n)| n).sum())
}
