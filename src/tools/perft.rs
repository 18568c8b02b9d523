//! The `perft` command: node counts per depth, divide, hash checking and suites.

use crate::chess::perft::{perft_check_hash, perft_parallel, perft_until};
use crate::chess::{Board, FenError};
use crate::command::Outcome;
use crate::format::{nps, thousands};
use std::time::Instant;
use thiserror::Error;

/// Why `perft` could not run (a wrong count is not an error: `run` returns `Ok(false)`).
#[derive(Debug, Error)]
pub enum PerftError {
    /// The `--fen` position is not valid.
    #[error("bad FEN: {0}")]
    BadFen(FenError),
    /// `--fen` without a depth.
    #[error("give a depth with --fen (e.g. perft 5 --fen ...)")]
    NoDepth,
    /// A depth of 0 or beyond what perft can finish.
    #[error("depth {0} is out of range for perft (1 to 20)")]
    Depth(u32),
    /// The suite file could not be read.
    #[error(transparent)]
    Read(#[from] crate::files::FileError),
    /// The suite file is malformed.
    #[error("{path}: {source}")]
    Suite {
        /// The file.
        path: String,
        /// What is wrong.
        source: SuiteError,
    },
    /// A suite line's FEN is not valid.
    #[error("{path}: line {line}: bad FEN: {source}")]
    SuiteFen {
        /// The file.
        path: String,
        /// The line.
        line: usize,
        /// What is wrong.
        source: FenError,
    },
    /// Stopped before the count was complete.
    #[error("perft stopped")]
    Stopped,
}

/// Counts per root move, then the total, as Stockfish prints them (`e2e4: 600`, a blank line,
/// `Nodes searched: 8902`, a blank line). The one implementation behind the command's
/// `--divide` and UCI's `go perft`; gives up with `Stopped` soon after `stopped` says so.
pub fn divide_report(
    board: &Board,
    depth: u32,
    stopped: &dyn Fn() -> bool,
    out: &mut dyn FnMut(&str),
) -> Result<u64, PerftError> {
    let mut total = 0;
    for &m in board.legal_moves().iter() {
        let n = perft_until(&board.make_move(m), depth.saturating_sub(1), stopped)
            .ok_or(PerftError::Stopped)?;
        total += n;
        out(&format!("{m}: {n}"));
    }
    out("");
    out(&format!("Nodes searched: {total}"));
    out("");
    Ok(total)
}

/// The `perft` command's flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PerftArgs {
    /// Depth; without it, run the start-position self-check (depths 1-6).
    pub depth: Option<u32>,
    /// Position to count from (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print each root move with its count.
    #[arg(long)]
    pub divide: bool,
    /// Recompute the hash after every move and fail on a mismatch.
    #[arg(long)]
    pub check_hash: bool,
    /// Run an EPD or shakmaty-style perft suite.
    #[arg(long)]
    pub suite: Option<String>,
    /// With --suite: skip depths whose expected count exceeds N (default 10,000,000).
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Threads splitting the root moves (0 counts as 1).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// The `perft` command: `run`, its verdict an `Outcome`.
pub fn command(mut args: PerftArgs, out: &mut dyn FnMut(&str)) -> Result<Outcome, PerftError> {
    args.threads = args.threads.max(1);
    run(&args, out).map(Outcome::from_passed)
}

/// Runs the command, writing through `out`; `Err` is bad input (exit status 2), and
/// `Ok(false)` means a count did not match (exit status 1).
pub fn run(args: &PerftArgs, out: &mut dyn FnMut(&str)) -> Result<bool, PerftError> {
    if let Some(path) = &args.suite {
        return run_suite(
            path,
            args.max_nodes.unwrap_or(10_000_000),
            args.threads,
            out,
        );
    }
    let board = match &args.fen {
        Some(f) => Board::from_fen(f).map_err(PerftError::BadFen)?,
        None => Board::startpos(),
    };
    let Some(depth) = args.depth else {
        if args.fen.is_some() {
            return Err(PerftError::NoDepth);
        }
        return Ok(self_check(args.threads, out));
    };
    if depth == 0 || depth > 20 {
        return Err(PerftError::Depth(depth));
    }
    if args.divide {
        divide_report(&board, depth, &|| false, out)?;
        return Ok(true);
    }
    for d in 1..=depth {
        let start = Instant::now();
        let nodes = if args.check_hash {
            match perft_check_hash(&board, d) {
                Ok(n) => n,
                Err(e) => {
                    out(&format!("HASH MISMATCH at depth {d}: {e}"));
                    return Ok(false);
                }
            }
        } else {
            perft_parallel(&board, d, args.threads)
        };
        let secs = start.elapsed().as_secs_f64();
        out(&format!(
            "Depth {d}: {} nodes {:.3}s ({:.1} Mnps){}",
            nodes,
            secs,
            nps(nodes, secs) / 1e6,
            if args.check_hash { " [hash ok]" } else { "" }
        ));
    }
    Ok(true)
}

const START_COUNTS: [u64; 6] = [20, 400, 8902, 197_281, 4_865_609, 119_060_324];

fn self_check(threads: usize, out: &mut dyn FnMut(&str)) -> bool {
    let board = Board::startpos();
    let mut all = true;
    for (i, &expected) in START_COUNTS.iter().enumerate() {
        let d = i as u32 + 1;
        let start = Instant::now();
        let nodes = perft_parallel(&board, d, threads);
        let secs = start.elapsed().as_secs_f64();
        let ok = nodes == expected;
        all &= ok;
        out(&format!(
            "Depth {d}: {nodes} nodes (expected {expected}) [{}] {secs:.2}s ({} nps)",
            if ok { "PASS" } else { "FAIL" },
            thousands(nps(nodes, secs) as u64)
        ));
    }
    all
}

fn run_suite(
    path: &str,
    max_nodes: u64,
    threads: usize,
    out: &mut dyn FnMut(&str),
) -> Result<bool, PerftError> {
    let bytes = crate::files::read_bounded(
        std::path::Path::new(path),
        crate::files::TEXT_LIMIT,
        "perft suite",
    )?;
    let text = String::from_utf8_lossy(&bytes);
    let entries = parse_suite(&text).map_err(|source| PerftError::Suite {
        path: path.to_string(),
        source,
    })?;
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let (mut total_nodes, total_start) = (0u64, Instant::now());
    for e in &entries {
        let board = match Board::from_fen(&e.fen) {
            Ok(b) => b,
            Err(err) if matches!(err, crate::chess::FenError::TooManyPieces { .. }) => {
                out(&format!("skip {:<28} unreachable material: {err}", e.name));
                skipped += 1;
                continue;
            }
            Err(source) => {
                return Err(PerftError::SuiteFen {
                    path: path.to_string(),
                    line: e.line,
                    source,
                })
            }
        };
        let start = Instant::now();
        let mut nodes = 0;
        let mut bad = None;
        let mut depths = Vec::new();
        for &(d, expected) in &e.counts {
            if expected > max_nodes {
                continue;
            }
            let got = perft_parallel(&board, d, threads);
            nodes += got;
            depths.push(d);
            if got != expected {
                bad = Some((d, got, expected));
                break;
            }
        }
        total_nodes += nodes;
        let secs = start.elapsed().as_secs_f64();
        let span = match (depths.first(), depths.last()) {
            (Some(a), Some(b)) => format!("D{a}-D{b}"),
            _ => "none".to_string(),
        };
        match bad {
            None => {
                passed += 1;
                out(&format!(
                    "ok   {:<28} {span:<7} {nodes:>12} nodes {secs:>7.3}s  {}",
                    e.name, e.fen
                ));
            }
            Some((d, got, expected)) => {
                failed += 1;
                out(&format!(
                    "FAIL {:<28} depth {d}: {got} nodes, expected {expected}  {}",
                    e.name, e.fen
                ));
            }
        }
    }
    let secs = total_start.elapsed().as_secs_f64();
    out(&format!(
        "{passed} passed, {failed} failed, {skipped} skipped; {} nodes in {secs:.2}s ({:.1} Mnps)",
        thousands(total_nodes),
        nps(total_nodes, secs) / 1e6
    ));
    Ok(failed == 0)
}

// The perft-suite file formats: test data for the move generator, read here rather than in
// the rules core.

/// One position of a perft suite with its expected counts.
#[derive(Debug, Clone)]
pub struct SuiteEntry {
    /// The line (1-based) where the record starts.
    pub line: usize,
    /// A name: the `id` of a block record, or the line number.
    pub name: String,
    /// The position as written in the file.
    pub fen: String,
    /// (depth, expected nodes), in file order.
    pub counts: Vec<(u32, u64)>,
}

/// A perft suite line that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct SuiteError {
    /// The line (1-based).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn parse_count(line: usize, depth: &str, count: &str) -> Result<(u32, u64), SuiteError> {
    let err = |m: String| SuiteError { line, message: m };
    let d = depth
        .parse::<u32>()
        .map_err(|_| err(format!("depth {depth:?} is not a number")))?;
    let n = count
        .parse::<u64>()
        .map_err(|_| err(format!("count {count:?} is not a number")))?;
    Ok((d, n))
}

/// Reads a perft suite in either common format: EPD lines (`FEN ;D1 20 ;D2 400`) or shakmaty's
/// blocks (`id NAME` / `epd FEN` / `perft DEPTH COUNT`, `#` comments).
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut out: Vec<SuiteEntry> = Vec::new();
    let mut pending_id: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let err = |m: &str| SuiteError {
            line,
            message: m.to_string(),
        };
        if let Some(rest) = l.strip_prefix("id ") {
            pending_id = Some(rest.trim().to_string());
        } else if let Some(rest) = l.strip_prefix("epd ") {
            let name = pending_id.take().unwrap_or_else(|| format!("line {line}"));
            out.push(SuiteEntry {
                line,
                name,
                fen: rest.trim().to_string(),
                counts: Vec::new(),
            });
        } else if let Some(rest) = l.strip_prefix("perft ") {
            let entry = out
                .last_mut()
                .ok_or_else(|| err("'perft' line before any 'epd' line"))?;
            let parts: Vec<&str> = rest.split_whitespace().collect();
            let [d, n] = parts.as_slice() else {
                return Err(err("expected 'perft DEPTH COUNT'"));
            };
            entry.counts.push(parse_count(line, d, n)?);
        } else if l.contains(';') {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap_or("").trim().to_string();
            let mut counts = Vec::new();
            for p in parts {
                let p = p.trim();
                if p.is_empty() {
                    continue;
                }
                let words: Vec<&str> = p.split_whitespace().collect();
                match words.as_slice() {
                    [d, n] if d.starts_with('D') => counts.push(parse_count(line, &d[1..], n)?),
                    _ => return Err(err(&format!("expected ';Dn COUNT', found {p:?}"))),
                }
            }
            if counts.is_empty() {
                return Err(err("no ';Dn COUNT' entries"));
            }
            out.push(SuiteEntry {
                line,
                name: format!("line {line}"),
                fen,
                counts,
            });
        } else {
            return Err(err(&format!("unrecognised line {l:?}")));
        }
    }
    if let Some(e) = out.iter().find(|e| e.counts.is_empty()) {
        return Err(SuiteError {
            line: e.line,
            message: "position without any perft counts".to_string(),
        });
    }
    Ok(out)
}
