//! The `kyphu` command line: see `kyphu --help`. The library (`kyphu::…`) does the
//! reading and writing; this binary adds the arguments, the parallel pipeline, output
//! files and progress.

use std::process::ExitCode;

use clap::Parser;

mod cli;

/// mimalloc: faster small allocations, and frees from another thread (a game is read on
/// one thread and dropped on a worker) without the lock contention of the system one.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    cli::run(cli::Args::parse())
}
