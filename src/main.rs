//! The `kyphu` command line: see `kyphu --help`.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    kyphu::cli::run(kyphu::cli::Args::parse())
}
