//! `fianchetto syzygy`: probe tablebases from the command line, one line per position, for
//! checking the reader against other probers.

use crate::chess::Board;
use crate::command::Outcome;
use crate::syzygy::Tablebases;
use std::io::BufRead;

/// One output line: `FEN | wdl | dtz`, `-` for what the tables do not answer, or the FEN
/// error; and whether it was a position.
pub fn probe(tb: &Tablebases, fen: &str) -> (String, bool) {
    let line = match Board::from_fen(fen) {
        Ok(board) => {
            let wdl = tb
                .probe_wdl(&board)
                .map_or("-".to_string(), |w| (w as i32).to_string());
            let dtz = tb
                .probe_dtz(&board)
                .map_or("-".to_string(), |d| d.to_string());
            format!("{fen} | {wdl} | {dtz}")
        }
        Err(e) => return (format!("{fen} | error: {e}"), false),
    };
    (line, true)
}

/// What a run of the prober saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Positions probed.
    pub probed: usize,
    /// Lines that were not a position (a bad FEN, bytes that are not text): each has its own
    /// output line saying why.
    pub bad: usize,
}

/// Why the prober stopped.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// Reading the input failed.
    #[error("reading the positions: {0}")]
    Input(#[from] std::io::Error),
}

/// Probes `fen`, or else every line of `input`, writing one line each through `out` (which
/// returns false when no one reads any more). Problems found in the tables go to `warn`.
pub fn run(
    tb: &Tablebases,
    fen: Option<&str>,
    input: &mut dyn BufRead,
    out: &mut dyn FnMut(&str) -> bool,
    warn: &mut dyn FnMut(&str),
) -> Result<Summary, ProbeError> {
    let mut summary = Summary::default();
    let mut emit = |line: String, ok: bool, summary: &mut Summary| {
        for p in tb.take_problems() {
            warn(&p);
        }
        if ok {
            summary.probed += 1;
        } else {
            summary.bad += 1;
        }
        out(&line)
    };
    if let Some(f) = fen {
        let (line, ok) = probe(tb, f.trim());
        emit(line, ok, &mut summary);
        return Ok(summary);
    }
    let mut buf = Vec::new();
    let mut number = 0;
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        number += 1;
        let (line, ok) = match std::str::from_utf8(&buf) {
            Ok(text) => {
                let fen = text.trim();
                if fen.is_empty() {
                    continue;
                }
                probe(tb, fen)
            }
            // Answered in place, so that answers stay aligned with the input's lines.
            Err(_) => (
                format!("line {number} | error: not UTF-8 text, so not a FEN"),
                false,
            ),
        };
        if !emit(line, ok, &mut summary) {
            break;
        }
    }
    Ok(summary)
}

/// The `syzygy` command's flags.
#[derive(Debug, Clone, clap::Args)]
pub struct SyzygyFlags {
    /// Folders holding the tables, separated by `:` (`;` on Windows).
    #[arg(long)]
    pub path: String,
    /// Position to probe (default: read FENs from standard input).
    #[arg(long)]
    pub fen: Option<String>,
}

/// Why the `syzygy` command could not run.
#[derive(Debug, thiserror::Error)]
pub enum SyzygyCommandError {
    /// The tables could not be opened.
    #[error(transparent)]
    Path(#[from] crate::syzygy::PathError),
    /// Reading the positions failed.
    #[error(transparent)]
    Probe(#[from] ProbeError),
}

/// The `syzygy` command: answers every line of `input` (or `--fen`) through `out`; warnings
/// and the closing complaint go to `err`. `Failure` when any line was not a position.
pub fn command(
    flags: SyzygyFlags,
    input: &mut dyn BufRead,
    out: &mut dyn FnMut(&str) -> bool,
    err: &mut dyn FnMut(&str),
) -> Result<Outcome, SyzygyCommandError> {
    let (tb, warnings) = Tablebases::open(&flags.path)?;
    for w in warnings {
        err(&format!("warning: {w}"));
    }
    let s = run(&tb, flags.fen.as_deref(), input, out, &mut |w| {
        err(&format!("warning: {w}"))
    })?;
    if s.bad > 0 {
        err(&format!(
            "error: {} of {} lines were not positions (each is answered with its error)",
            s.bad,
            s.bad + s.probed
        ));
    }
    Ok(Outcome::from_passed(s.bad == 0))
}
