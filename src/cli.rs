//! The command line: argument definitions (clap derive) and the subcommands.
//!
//! Exit codes: 0 success, 1 problems found in the input, 2 usage, position or I/O error.

use std::{
    io::{self, Write},
    process::ExitCode,
    time::Instant,
};

use clap::{Parser, Subcommand, ValueEnum};

use crate::{chess, xiangqi};

/// Read chess and xiangqi game records in many languages and notations, check them by
/// replaying every move, and write them as PGN, JSON or scoresheet CSV.
#[derive(Debug, Parser)]
#[command(name = "kyphu", version, about, long_about = None)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaf nodes of the legal move tree (move generator self-test)
    #[command(after_help = "Examples:\n  \
        kyphu perft 5\n  \
        kyphu perft --divide --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' 3\n  \
        kyphu perft --variant chess960 --fen 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9' 3\n  \
        kyphu perft --variant xiangqi 4")]
    Perft(PerftArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    Chess,
    Chess960,
    Xiangqi,
}

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

/// Runs the parsed command line and returns the process exit code.
pub fn run(args: Args) -> ExitCode {
    let result = match args.command {
        Command::Perft(a) => perft(&a),
    };
    match result {
        Ok(code) => code,
        Err(CliError::Usage(msg)) => {
            eprintln!("kyphu: error: {msg}");
            ExitCode::from(2)
        }
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(CliError::Io(e)) => {
            eprintln!("kyphu: error: {e}");
            ExitCode::from(2)
        }
    }
}

#[derive(Debug)]
enum CliError {
    /// A problem with what the user asked for (bad FEN, bad option): exit 2.
    Usage(String),
    Io(io::Error),
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Io(e)
    }
}

fn perft(a: &PerftArgs) -> Result<ExitCode, CliError> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let start = Instant::now();
    let nodes = match a.variant {
        VariantArg::Chess | VariantArg::Chess960 => {
            let pos = match (&a.fen, a.variant) {
                (None, _) => chess::Position::default(),
                (Some(f), VariantArg::Chess960) => chess::Position::from_fen_chess960(f)
                    .map_err(|e| CliError::Usage(e.to_string()))?,
                (Some(f), _) => {
                    chess::Position::from_fen(f).map_err(|e| CliError::Usage(e.to_string()))?
                }
            };
            if a.divide {
                let split = chess::perft_divide(&pos, a.depth);
                for (m, n) in &split {
                    writeln!(out, "{} {n}", m.uci(pos.chess960()))?;
                }
                split.iter().map(|(_, n)| n).sum()
            } else {
                chess::perft(&pos, a.depth)
            }
        }
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

fn xiangqi_perft(a: &PerftArgs, out: &mut impl Write) -> Result<u64, CliError> {
    let pos = match &a.fen {
        None => xiangqi::Position::default(),
        Some(f) => xiangqi::Position::from_fen(f).map_err(|e| CliError::Usage(e.to_string()))?,
    };
    if a.divide {
        let split = xiangqi::perft_divide(&pos, a.depth);
        let mut lines: Vec<(String, u64)> = split.iter().map(|(m, n)| (m.iccs(), *n)).collect();
        lines.sort();
        for (m, n) in &lines {
            writeln!(out, "{m} {n}")?;
        }
        Ok(lines.iter().map(|(_, n)| n).sum())
    } else {
        Ok(xiangqi::perft(&pos, a.depth))
    }
}
