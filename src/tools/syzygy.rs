//! `fianchetto syzygy`: probe tablebases from the command line, one line per position, for
//! checking the reader against other probers.

use crate::chess::Board;
use crate::syzygy::Tablebases;
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// One output line: `FEN | wdl | dtz`, `-` for what the tables do not answer, or the FEN error.
pub fn probe_line(tb: &Tablebases, fen: &str) -> String {
    match Board::from_fen(fen) {
        Ok(board) => {
            let wdl = tb
                .probe_wdl(&board)
                .map_or("-".to_string(), |w| (w as i32).to_string());
            let dtz = tb
                .probe_dtz(&board)
                .map_or("-".to_string(), |d| d.to_string());
            format!("{fen} | {wdl} | {dtz}")
        }
        Err(e) => format!("{fen} | error: {e}"),
    }
}

/// Probes `fen`, or every line of standard input, in the tables of `path`.
pub fn run(path: &str, fen: Option<&str>) -> ExitCode {
    let tb = match Tablebases::open(path) {
        Ok((tb, warnings)) => {
            for w in warnings {
                eprintln!("warning: {w}");
            }
            tb
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    let mut emit = |line: String| {
        for p in tb.take_problems() {
            eprintln!("warning: {p}");
        }
        writeln!(out, "{line}").is_ok()
    };
    match fen {
        Some(f) => {
            emit(probe_line(&tb, f));
        }
        None => {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                let fen = line.trim();
                if fen.is_empty() {
                    continue;
                }
                if !emit(probe_line(&tb, fen)) {
                    break;
                }
            }
        }
    }
    ExitCode::SUCCESS
}
