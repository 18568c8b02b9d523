//! The `fianchetto` command: parses the command line and hands over to a front end or tool.

use clap::{Parser, Subcommand};
use fianchetto::tools;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "fianchetto",
    version,
    about = "A chess engine: play in the terminal, or speak UCI to a GUI"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the move tree (move-generator check and speed test).
    Perft {
        /// Depth; without it, run the start-position self-check (depths 1-6).
        depth: Option<u32>,
        /// Position to count from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print each root move with its count.
        #[arg(long)]
        divide: bool,
        /// Recompute the hash after every move and fail on a mismatch.
        #[arg(long)]
        check_hash: bool,
        /// Run an EPD or shakmaty-style perft suite.
        #[arg(long)]
        suite: Option<String>,
        /// With --suite: skip depths whose expected count exceeds N (default 10,000,000).
        #[arg(long)]
        max_nodes: Option<u64>,
        /// Threads splitting the root moves.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft {
            depth,
            fen,
            divide,
            check_hash,
            suite,
            max_nodes,
            threads,
        }) => {
            let args = tools::perft::PerftArgs {
                depth,
                fen,
                divide,
                check_hash,
                suite,
                max_nodes,
                threads: threads.max(1),
            };
            match tools::perft::run(&args) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(1),
                Err(msg) => {
                    eprintln!("error: {msg}");
                    ExitCode::from(2)
                }
            }
        }
        None => ExitCode::SUCCESS,
    }
}
