//! The root: iterative deepening with aspiration windows and MultiPV on one thread, and what
//! the root decides before it (tablebase filtering) and reports after each iteration.

use super::params::*;
use super::score::Score;
use super::tt::Bound;
use super::types::{Report, SearchInfo, SearchResult, TablebaseConfig};
use super::worker::Worker;
use crate::chess::{Board, Game, Move};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Tablebases at the root: only the moves that keep the best result the tables promise (a win
/// within the 50-move rule, else a draw) stay in `root_moves`, and each move's verdict is
/// returned to be shown in place of its searched score; with the number of pieces at which the
/// search itself still probes (0: never, when the root has decided the conversion).
pub(super) fn filter_by_tablebases(
    config: &TablebaseConfig,
    game: &Game,
    root_moves: &mut Vec<Move>,
) -> (Vec<(Move, Score)>, usize) {
    let board = game.board();
    let mut tb_scores: Vec<(Move, Score)> = Vec::new();
    let mut cardinality = config.tables.max_pieces().min(config.probe_limit);
    if board.occupied().count() as usize <= cardinality {
        let hashes = game.reversible_hashes();
        let repeated = (1..hashes.len()).any(|i| hashes[..i].contains(&hashes[i]));
        if let Some(ranking) = config
            .tables
            .rank_root_moves(board, config.rule50, repeated)
        {
            let ranked: Vec<_> = ranking
                .moves
                .into_iter()
                .filter(|r| root_moves.contains(&r.mv))
                .collect();
            if let Some(best) = ranked.iter().map(|r| r.rank).max() {
                root_moves.retain(|&m| ranked.iter().any(|r| r.mv == m && r.rank == best));
                tb_scores = ranked
                    .iter()
                    .map(|r| (r.mv, tb_rank_score(r.rank, config.rule50)))
                    .collect();
                // With DTZ the root decides conversion; the search needs the tables only
                // to find a win that WDL alone cannot steer.
                if ranking.by_dtz || best <= 0 {
                    cardinality = 0;
                }
            }
        }
    }
    (tb_scores, cardinality)
}

/// Iterative deepening on one thread, with aspiration windows and MultiPV; returns what this
/// thread would play.
///
/// Slightly long: the aspiration loop, the MultiPV lines and the stopping rules share the
/// iteration's state (window, scores of the lines, the result so far).
pub(super) fn iterate(
    w: &mut Worker<'_>,
    board: &Board,
    root_moves: &[Move],
    multipv: usize,
    max_depth: i32,
) -> SearchResult {
    let mut result = SearchResult::default();
    let mut prev_scores = vec![Score::DRAW; multipv];

    'deepening: for depth in 1..=max_depth {
        // Odd helpers run one ply ahead of the others, so that the threads do not all search
        // the same iteration at once. Every thread on the same depths reached depth 18 sooner
        // with two threads (scripts/ttd.py: 1.60x against 1.36x at 64 MiB) but played worse
        // (2 threads each at 5+0.05: see docs/measurements.md#threads), so this stays.
        let depth = if w.id % 2 == 1 {
            (depth + 1).min(max_depth)
        } else {
            depth
        };
        w.excluded.clear();
        w.root_depth = depth;
        let mut iteration: Vec<(Score, Vec<Move>)> = Vec::new();
        for (pv_idx, prev_score) in prev_scores.iter_mut().enumerate() {
            w.seldepth = 0;
            let mut delta = aspiration_delta();
            let (mut alpha, mut beta) =
                if depth >= aspiration_min_depth() && !prev_score.is_decisive() {
                    (*prev_score - delta, *prev_score + delta)
                } else {
                    (-Score::INFINITE, Score::INFINITE)
                };
            let score = loop {
                let score = w.negamax(board, depth, alpha, beta, 0, true, false, false);
                if w.stopped {
                    break score;
                }
                let bound = if score <= alpha {
                    beta = Score((alpha.0 + beta.0) / 2);
                    alpha = (score - delta).max(-Score::INFINITE);
                    Some(Bound::Upper)
                } else if score >= beta {
                    beta = (score + delta).min(Score::INFINITE);
                    Some(Bound::Lower)
                } else {
                    None
                };
                let Some(bound) = bound else { break score };
                if w.elapsed() > Duration::from_millis(1000) {
                    let pv = w.pv[0][..w.pv_len[0]].to_vec();
                    let r = Report::Iteration(info(w, depth, pv_idx + 1, score, Some(bound), pv));
                    (w.report)(&r);
                }
                delta += delta;
            };
            if w.stopped && (depth > 1 || w.pv_len[0] == 0) {
                // A move that beat the best so far of an unfinished iteration was searched to
                // this depth and is the better choice: tactics are often found this way.
                if multipv == 1 && depth > 1 && w.pv_len[0] > 0 {
                    let pv = w.pv[0][..w.pv_len[0]].to_vec();
                    let score = w.root_score;
                    let bound = (score >= beta).then_some(Bound::Lower);
                    let r = Report::Iteration(info(w, depth, 1, score, bound, pv.clone()));
                    (w.report)(&r);
                    adopt(&mut result, score, depth, pv);
                }
                break 'deepening;
            }
            // Stopped in depth 1 with a move (the search returns a draw score once stopped):
            // the line's score is that of its move, searched with the window still open.
            let score = if w.stopped { w.root_score } else { score };
            let pv = w.pv[0][..w.pv_len[0]].to_vec();
            if let Some(&first) = pv.first() {
                w.excluded.push(first);
            }
            *prev_score = score;
            if multipv == 1 {
                let r = Report::Iteration(info(w, depth, 1, score, None, pv.clone()));
                (w.report)(&r);
            }
            iteration.push((score, pv));
            if w.stopped {
                break;
            }
        }
        if multipv > 1 {
            // Each line was searched with the better ones excluded, but search instability can
            // still leave a later line scoring higher: report them best first.
            iteration.sort_by_key(|line| std::cmp::Reverse(line.0));
            for (k, (score, pv)) in iteration.iter().enumerate() {
                prev_scores[k] = *score;
                let r = Report::Iteration(info(w, depth, k + 1, *score, None, pv.clone()));
                (w.report)(&r);
            }
        }
        // Depth 1 is done: from now on limits may stop the search.
        w.can_stop = true;
        if iteration.len() == multipv {
            result.lines = iteration.clone();
        }
        if let Some((score, pv)) = iteration.into_iter().next() {
            if let Some(&best) = pv.first() {
                let share = w.root_share(best);
                w.time
                    .iteration_done(depth, best, score, result.score, share);
                adopt(&mut result, score, depth, pv);
            }
        }
        if w.stopped {
            break;
        }
        if depth == max_depth && w.id != 0 {
            if let Some(reached) = w.depth_reached {
                reached.offer(w.id, &result);
            }
            break;
        }
        if let Some(m) = w.limits.mate {
            if result
                .score
                .mate_moves()
                .is_some_and(|n| n > 0 && n <= m as i32)
            {
                break;
            }
        }
        if !w.control.pondering() && w.time.stop_iterating(depth, root_moves.len()) {
            break;
        }
    }

    if result.best.is_none() {
        // Stopped before depth 1 finished (cannot happen with can_stop, but stay safe).
        result.best = root_moves.first().copied();
    }
    w.counters[w.id].store(w.nodes, Ordering::Relaxed);
    result.nodes = w.nodes;
    result.thread = w.id;
    result
}

/// Makes a searched line (non-empty) the result: its first move is played, its second pondered.
fn adopt(result: &mut SearchResult, score: Score, depth: i32, pv: Vec<Move>) {
    result.best = pv.first().copied();
    result.ponder = pv.get(1).copied();
    result.score = score;
    result.depth = depth as u32;
    result.pv = pv;
}

/// The report of one line of an iteration at `depth`, with this thread's clock and every thread's nodes.
pub(super) fn info(
    w: &Worker<'_>,
    depth: i32,
    multipv: usize,
    score: Score,
    bound: Option<Bound>,
    pv: Vec<Move>,
) -> SearchInfo {
    let ms = w.elapsed().as_millis() as u64;
    let nodes = w.total_nodes();
    SearchInfo {
        depth: depth as u32,
        seldepth: w.seldepth.max(depth as usize) as u32,
        multipv,
        score,
        bound,
        nodes,
        nps: nodes * 1000 / ms.max(1),
        time_ms: ms,
        hashfull: w.tt.hashfull(),
        tbhits: w
            .tb_hits_start
            .map_or(0, |(tables, start)| tables.hits().saturating_sub(start)),
        pv,
    }
}

/// The score shown for a root move the tables ranked `rank` (see `syzygy::RootMove`): a
/// tablebase win or loss, a draw, or for wins and losses the 50-move rule may spoil a small
/// score that grows as the outcome nears certainty (as Stockfish shows them).
fn tb_rank_score(rank: i32, rule50: bool) -> Score {
    let bound = if rule50 { 900 } else { 1 };
    if rank >= bound {
        Score::tb_win_in(1)
    } else if rank > 0 {
        Score((rank - 800).max(3) / 2)
    } else if rank == 0 {
        Score::DRAW
    } else if rank > -bound {
        Score((rank + 800).min(-3) / 2)
    } else {
        Score::tb_loss_in(1)
    }
}
