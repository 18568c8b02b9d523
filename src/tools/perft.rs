//! The `perft` command: node counts per depth, divide, hash checking and suites.

use crate::chess::perft::{
    divide, is_chess960_castling, parse_suite, perft_check_hash, perft_parallel,
};
use crate::chess::Board;
use std::time::Instant;

/// Options of the `perft` command.
#[derive(Debug, Clone, Default)]
pub struct PerftArgs {
    /// Depth to count; `None` runs the start-position self-check (or the suite).
    pub depth: Option<u32>,
    /// Position (start position when `None`).
    pub fen: Option<String>,
    /// Print each root move's count.
    pub divide: bool,
    /// Recompute the hash after every move.
    pub check_hash: bool,
    /// Run a suite file.
    pub suite: Option<String>,
    /// Only depths whose expected count is at most this.
    pub max_nodes: Option<u64>,
    /// Threads splitting the root moves.
    pub threads: usize,
}

fn nps(nodes: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        nodes as f64 / secs
    } else {
        0.0
    }
}

/// Groups digits in threes: 445100 → "445,100".
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Runs the command; `Err` is a one-line message for bad input (exit status 2), and
/// `Ok(false)` means a count did not match (exit status 1).
pub fn run(args: &PerftArgs) -> Result<bool, String> {
    if let Some(path) = &args.suite {
        return run_suite(path, args.max_nodes.unwrap_or(10_000_000), args.threads);
    }
    let board = match &args.fen {
        Some(f) => Board::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
        None => Board::startpos(),
    };
    let Some(depth) = args.depth else {
        if args.fen.is_some() {
            return Err("give a depth with --fen (e.g. perft 5 --fen ...)".to_string());
        }
        return Ok(self_check(args.threads));
    };
    if depth == 0 {
        return Err("depth must be at least 1".to_string());
    }
    if depth > 20 {
        return Err(format!("depth {depth} is too deep for perft (at most 20)"));
    }
    if args.divide {
        let start = Instant::now();
        let mut total = 0;
        for (m, n) in divide(&board, depth) {
            println!("{m}: {n}");
            total += n;
        }
        println!();
        println!("Nodes searched: {total}");
        eprintln!("time {:.3}s", start.elapsed().as_secs_f64());
        return Ok(true);
    }
    for d in 1..=depth {
        let start = Instant::now();
        let nodes = if args.check_hash {
            match perft_check_hash(&board, d) {
                Ok(n) => n,
                Err(e) => {
                    println!("HASH MISMATCH at depth {d}: {e}");
                    return Ok(false);
                }
            }
        } else {
            perft_parallel(&board, d, args.threads)
        };
        let secs = start.elapsed().as_secs_f64();
        println!(
            "Depth {d}: {} nodes {:.3}s ({:.1} Mnps){}",
            nodes,
            secs,
            nps(nodes, secs) / 1e6,
            if args.check_hash { " [hash ok]" } else { "" }
        );
    }
    Ok(true)
}

const START_COUNTS: [u64; 6] = [20, 400, 8902, 197_281, 4_865_609, 119_060_324];

fn self_check(threads: usize) -> bool {
    let board = Board::startpos();
    let mut all = true;
    for (i, &expected) in START_COUNTS.iter().enumerate() {
        let d = i as u32 + 1;
        let start = Instant::now();
        let nodes = perft_parallel(&board, d, threads);
        let secs = start.elapsed().as_secs_f64();
        let ok = nodes == expected;
        all &= ok;
        println!(
            "Depth {d}: {nodes} nodes (expected {expected}) [{}] {secs:.2}s ({} nps)",
            if ok { "PASS" } else { "FAIL" },
            thousands(nps(nodes, secs) as u64)
        );
    }
    all
}

fn run_suite(path: &str, max_nodes: u64, threads: usize) -> Result<bool, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let entries = parse_suite(&text).map_err(|e| format!("{path}: {e}"))?;
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let (mut total_nodes, total_start) = (0u64, Instant::now());
    for e in &entries {
        let board = match Board::from_fen(&e.fen) {
            Ok(b) => b,
            Err(err) if is_chess960_castling(&e.fen, &err) => {
                println!(
                    "skip {:<28} Chess960 castling is not supported yet ({err})",
                    e.name
                );
                skipped += 1;
                continue;
            }
            Err(err) if matches!(err, crate::chess::FenError::TooManyPieces { .. }) => {
                println!("skip {:<28} unreachable material: {err}", e.name);
                skipped += 1;
                continue;
            }
            Err(err) => return Err(format!("{path}: line {}: bad FEN: {err}", e.line)),
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
                println!(
                    "ok   {:<28} {span:<7} {nodes:>12} nodes {secs:>7.3}s  {}",
                    e.name, e.fen
                );
            }
            Some((d, got, expected)) => {
                failed += 1;
                println!(
                    "FAIL {:<28} depth {d}: {got} nodes, expected {expected}  {}",
                    e.name, e.fen
                );
            }
        }
    }
    let secs = total_start.elapsed().as_secs_f64();
    println!(
        "{passed} passed, {failed} failed, {skipped} skipped; {} nodes in {secs:.2}s ({:.1} Mnps)",
        thousands(total_nodes),
        nps(total_nodes, secs) / 1e6
    );
    Ok(failed == 0)
}
