//! `bench`: a fixed-depth search of 50 embedded positions, the signature of search behaviour.

use crate::chess::{Board, Game};
use crate::command::{choose_net, BadNet, Outcome};
use crate::eval::nnue::Network;
use crate::search::{Limits, Searcher};
use std::sync::Arc;
use std::time::Instant;

/// The bench positions: openings, middlegames, tactics and endgames.
pub const POSITIONS: &str = include_str!("bench_positions.txt");

/// The default bench depth.
pub const DEFAULT_DEPTH: u32 = 11;

/// How a bench runs.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Search depth per position.
    pub depth: u32,
    /// Search threads: 1 gives the deterministic signature, more the parallel speed.
    pub threads: usize,
    /// The network to evaluate with; `None`: the hand-crafted evaluation.
    pub net: Option<Arc<Network>>,
}

impl Default for BenchConfig {
    /// The engine as it plays by default: the embedded net, one thread.
    fn default() -> BenchConfig {
        BenchConfig {
            depth: DEFAULT_DEPTH,
            threads: 1,
            net: Some(crate::eval::nnue::default_net()),
        }
    }
}

/// Searches every position to the configured depth with an emptied 16 MiB table and history;
/// prints per position and a final `N nodes M nps` line. Returns (nodes, nps).
pub fn run(config: &BenchConfig, out: &mut dyn FnMut(&str)) -> (u64, u64) {
    run_until(config, None, out)
}

/// `run` that a controller can interrupt: its searches use `control`, and no new position is
/// started once it says stop. The totals so far are printed and returned.
pub fn run_until(
    config: &BenchConfig,
    control: Option<Arc<crate::search::SearchControl>>,
    out: &mut dyn FnMut(&str),
) -> (u64, u64) {
    let depth = config.depth.clamp(1, 64);
    let mut searcher = match &control {
        Some(c) => Searcher::with_control(16, c.clone()),
        None => Searcher::new(16),
    };
    searcher.set_net(config.net.clone());
    searcher.set_threads(config.threads);
    let mut total = 0u64;
    let start = Instant::now();
    for (i, fen) in POSITIONS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
    {
        // The list is embedded at compile time and covered by a test that parses every line.
        let board = Board::from_fen(fen).expect("bench FEN is valid");
        if control.as_ref().is_some_and(|c| c.stopped()) {
            break;
        }
        // Each position starts from nothing learnt, as with a new searcher, without allocating
        // and filling a new table inside the timed loop.
        searcher.clear();
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        let r = searcher.search(&Game::new(board), &limits, &mut |_| {});
        total += r.nodes;
        let best = r.best.map_or("(none)".to_string(), |m| m.to_string());
        out(&format!(
            "{:>2} {:>10} nodes  best {best:<6} score {}  {fen}",
            i + 1,
            r.nodes,
            r.score.uci()
        ));
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let nps = (total as f64 / secs) as u64;
    out(&format!("{total} nodes {nps} nps"));
    (total, nps)
}

/// The `bench` command's flags.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchFlags {
    /// Search depth (default 11).
    pub depth: Option<u32>,
    /// Search threads (default 1: the deterministic node count; more: the parallel speed).
    pub threads: Option<usize>,
    /// The evaluation: `embedded` (the default net), `hce` (hand-crafted) or a net file.
    #[arg(long, default_value = "embedded")]
    pub net: String,
}

/// The `bench` command.
pub fn command(flags: BenchFlags, out: &mut dyn FnMut(&str)) -> Result<Outcome, BadNet> {
    let config = BenchConfig {
        depth: flags.depth.unwrap_or(DEFAULT_DEPTH),
        // `Searcher::set_threads` clamps it.
        threads: flags.threads.unwrap_or(1),
        net: choose_net(&flags.net)?,
    };
    run(&config, out);
    Ok(Outcome::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_parse_and_bench_is_deterministic() {
        assert_eq!(POSITIONS.lines().count(), 50);
        for fen in POSITIONS.lines() {
            Board::from_fen(fen).unwrap();
        }
        let config = BenchConfig {
            depth: 4,
            net: None,
            ..BenchConfig::default()
        };
        let (a, _) = run(&config, &mut |_| {});
        let (b, _) = run(&config, &mut |_| {});
        assert_eq!(a, b);
        assert!(a > 0);
        // The network searches a different tree, and as deterministically.
        let nnue = BenchConfig {
            depth: 4,
            ..BenchConfig::default()
        };
        let (c, _) = run(&nnue, &mut |_| {});
        let (d, _) = run(&nnue, &mut |_| {});
        assert_eq!(c, d);
        assert_ne!(a, c);
        // Two threads bench too (their node count varies from run to run).
        let (p, _) = run(
            &BenchConfig {
                threads: 2,
                ..config
            },
            &mut |_| {},
        );
        assert!(p > 0);
    }
}
