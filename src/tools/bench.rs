//! `bench`: a fixed-depth search of 50 embedded positions, the signature of search behaviour.

use crate::chess::{Board, Game};
use crate::eval::nnue::Network;
use crate::search::{Limits, Searcher};
use std::sync::Arc;
use std::time::Instant;

/// The bench positions: openings, middlegames, tactics and endgames.
pub const POSITIONS: &str = include_str!("bench_positions.txt");

/// The default bench depth.
pub const DEFAULT_DEPTH: u32 = 11;

/// Searches every position to `depth` with a fresh 16 MiB table and the hand-crafted evaluation
/// (`net` None) or that network; prints per position and a final `N nodes M nps` line. Returns
/// (nodes, nps).
pub fn run(depth: u32, net: Option<Arc<Network>>, out: &mut dyn FnMut(&str)) -> (u64, u64) {
    run_until(depth, net, None, out)
}

/// `run` that a controller can interrupt: its searches use `control`, and no new position is
/// started once it says stop. The totals so far are printed and returned.
pub fn run_until(
    depth: u32,
    net: Option<Arc<Network>>,
    control: Option<Arc<crate::search::SearchControl>>,
    out: &mut dyn FnMut(&str),
) -> (u64, u64) {
    let depth = depth.clamp(1, 64);
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
        let mut searcher = match &control {
            Some(c) => Searcher::with_control(16, c.clone()),
            None => Searcher::new(16),
        };
        searcher.set_net(net.clone());
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
            r.score
        ));
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let nps = (total as f64 / secs) as u64;
    out(&format!("{total} nodes {nps} nps"));
    (total, nps)
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
        let (a, _) = run(4, None, &mut |_| {});
        let (b, _) = run(4, None, &mut |_| {});
        assert_eq!(a, b);
        assert!(a > 0);
        // The network searches a different tree, and as deterministically.
        let net = crate::eval::nnue::default_net();
        let (c, _) = run(4, Some(net.clone()), &mut |_| {});
        let (d, _) = run(4, Some(net), &mut |_| {});
        assert_eq!(c, d);
        assert_ne!(a, c);
    }
}
