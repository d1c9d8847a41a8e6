//! The `kyphu` command line: see `kyphu --help`.

use std::process::ExitCode;

use clap::Parser;

/// mimalloc: faster small allocations, and frees from another thread (a game is read on
/// one thread and dropped on a worker) without the lock contention of the system one.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    kyphu::cli::run(kyphu::cli::Args::parse())
}
