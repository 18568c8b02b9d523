//! `Searcher`: the engine's thinking state kept between moves (the transposition table, one
//! `ThreadData` per Lazy SMP thread, the stop flags) and the entry point of every search.

use super::params::smp_vote;
use super::root::{filter_by_tablebases, info, iterate};
use super::score::{Score, MAX_PLY};
use super::time::TimeManager;
use super::tt::TransTable;
use super::types::{Limits, Report, SearchControl, SearchResult, TablebaseConfig, MAX_THREADS};
use super::worker::ThreadData;
use super::worker::{DepthReached, Worker};
use super::{skill, tt};
use crate::chess::{Game, Move};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Why the transposition table could not be resized.
#[derive(Debug, thiserror::Error)]
#[error("cannot allocate {asked} MiB for the hash table{}; using {kept} MiB", .free.map_or(String::new(), |f| format!(" (about {f} MiB are free)")))]
pub struct HashSizeError {
    /// The size asked for, MiB.
    pub asked: usize,
    /// The size of the table kept instead, MiB.
    pub kept: usize,
    /// About how much memory the system had free, MiB, when it says.
    pub free: Option<usize>,
}

/// The engine's thinking state, kept between moves.
pub struct Searcher {
    pub(super) tt: tt::TransTable,
    /// One per search thread; the first is the main thread, which owns time and output.
    pub(super) threads: Vec<ThreadData>,
    pub(super) control: Arc<SearchControl>,
    /// Milliseconds kept in reserve per move for communication lag.
    pub move_overhead_ms: u64,
    /// Endgame tablebases, if any are set.
    pub tablebases: Option<TablebaseConfig>,
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mib` MiB, evaluating with the embedded net.
    pub fn new(hash_mib: usize) -> Searcher {
        Searcher {
            tt: tt::TransTable::new(hash_mib),
            // The engine plays with the embedded net unless told otherwise (`set_net`).
            threads: vec![ThreadData::new(crate::eval::SearchEval::network(
                crate::eval::nnue::default_net(),
            ))],
            control: Arc::new(SearchControl::default()),
            move_overhead_ms: 10,
            tablebases: None,
        }
    }

    /// Sets the number of search threads (clamped to 1..=`MAX_THREADS`). New helpers start with
    /// empty history; the ones kept keep theirs.
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, MAX_THREADS);
        self.threads.truncate(n);
        while self.threads.len() < n {
            let eval = self.threads[0].eval.clone();
            self.threads.push(ThreadData::new(eval));
        }
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// A searcher that obeys an existing set of stop flags (for tools that run many searches
    /// under one `stop`).
    pub fn with_control(hash_mib: usize, control: Arc<SearchControl>) -> Searcher {
        Searcher {
            control,
            ..Searcher::new(hash_mib)
        }
    }

    /// The flags another thread uses to stop this searcher.
    pub fn control(&self) -> Arc<SearchControl> {
        Arc::clone(&self.control)
    }

    /// Resizes the transposition table (its contents are lost). When the memory cannot be had,
    /// the old table stays and the error says so.
    pub fn set_hash_size(&mut self, mib: usize) -> Result<(), HashSizeError> {
        // Free the old table first so that its memory can be reused for the new one.
        self.tt = tt::TransTable::new(1);
        match tt::TransTable::try_new(mib) {
            Some(t) => {
                self.tt = t;
                Ok(())
            }
            None => {
                let kept = 16.min(mib);
                self.tt = tt::TransTable::new(kept);
                Err(HashSizeError {
                    asked: mib,
                    kept,
                    free: tt::available_mib(),
                })
            }
        }
    }

    /// Chooses the evaluation: a network, or `None` for the hand-crafted one. The table is
    /// cleared, since it keeps static evaluations.
    pub fn set_net(&mut self, net: Option<Arc<crate::eval::nnue::Network>>) {
        let eval = match net {
            Some(n) => crate::eval::SearchEval::network(n),
            None => crate::eval::SearchEval::hand_crafted(),
        };
        for t in &mut self.threads {
            t.eval = eval.clone();
        }
        self.tt.clear();
    }

    /// The network in use (`None`: the hand-crafted evaluation).
    pub fn net(&self) -> Option<&Arc<crate::eval::nnue::Network>> {
        self.threads[0].eval.net()
    }

    /// The static evaluation of `board` as this searcher sees it (side to move's view).
    pub fn static_eval(&self, board: &crate::chess::Board) -> i32 {
        self.threads[0].eval.evaluate_once(board)
    }

    /// Forgets everything learnt: transposition table and move-ordering history.
    pub fn clear(&mut self) {
        self.tt.clear();
        for t in &mut self.threads {
            t.heuristics.clear();
        }
    }

    /// Searches the current position of `game` within `limits`, calling `report` after each
    /// iteration. Returns the best move (none if the game is over by mate or stalemate).
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        match limits.skill.filter(|&l| l < f64::from(skill::MAX_LEVEL)) {
            Some(level) => {
                let weakened = skill::limits(limits, level);
                let mut result = run(self, game, &weakened, report);
                skill::choose(&mut result, level, limits.random);
                result
            }
            None => run(self, game, limits, report),
        }
    }
}

/// One search: the root moves (less what `searchmoves` and the tablebases rule out), then
/// the main thread and its Lazy SMP helpers, which search the same root on their own data and
/// share the table; the main thread keeps the time and reports.
///
/// Slightly long: the threads are started in one scope that borrows the searcher's parts (the
/// table, each thread's data, the tablebases) for the search's length, and the tablebase
/// verdicts that wrap the reports are closures over the same borrows.
fn run(
    s: &mut Searcher,
    game: &Game,
    limits: &Limits,
    report: &mut dyn FnMut(&Report),
) -> SearchResult {
    let board = *game.board();
    let start = Instant::now();
    let mut root_moves = root_moves(&board, limits);
    if root_moves.is_empty() {
        return SearchResult {
            score: if board.in_check() {
                Score::mated_in(0)
            } else {
                Score::DRAW
            },
            checkmated: board.in_check(),
            ..SearchResult::default()
        };
    }
    let tb_start = s.tablebases.as_ref().map(|c| c.tables.hits());
    let (tb_scores, cardinality) = match &s.tablebases {
        Some(config) => filter_by_tablebases(config, game, &mut root_moves),
        None => (Vec::new(), 0),
    };
    s.tt.new_search();
    let time = TimeManager::new(limits, s.move_overhead_ms, start);
    let max_depth = limits.depth.map_or(MAX_PLY as i32 - 1, |d| {
        d.clamp(1, MAX_PLY as u32 - 1) as i32
    });
    let multipv = limits.multipv.clamp(1, root_moves.len());
    let searchmoves = if limits.searchmoves.is_empty() && tb_scores.is_empty() {
        Vec::new()
    } else {
        root_moves.clone()
    };
    let limits = Limits {
        searchmoves,
        multipv,
        ..limits.clone()
    };

    let mut path: Vec<u64> = game.reversible_hashes();
    // The root itself is not "before" the root.
    path.pop();
    // Helpers search the same tree to fill the shared table; they take no time limit of their
    // own (the main thread stops them) and report nothing. They do keep the node limit, which
    // they check against every thread's count: the main thread cannot stop anyone before its
    // depth 1 is done, and on a loaded machine a helper used to run on meanwhile, 6,000 nodes
    // past a `go nodes 20000` (one run in five under a match on both cores).
    let helper_limits = Limits {
        mate: None,
        multipv: 1,
        ..limits.clone()
    };
    let Searcher {
        tt,
        threads,
        control,
        tablebases,
        ..
    } = s;
    let tb = tablebases
        .as_ref()
        .filter(|_| cardinality > 0)
        .map(|c| (c, cardinality));
    let tb_hits_start = tablebases
        .as_ref()
        .zip(tb_start)
        .map(|(c, h)| (&*c.tables, h));
    // The tables' verdict replaces a searched score that is not a mate.
    let tb_verdict = |score: Score, pv: &[Move]| -> Score {
        match pv
            .first()
            .and_then(|m| tb_scores.iter().find(|(mv, _)| mv == m))
        {
            Some(&(_, verdict)) if !score.is_mate() => verdict,
            _ => score,
        }
    };
    let mut tb_report = |r: &Report| match r {
        Report::Iteration(info) if !tb_scores.is_empty() => {
            let mut info = info.clone();
            info.score = tb_verdict(info.score, &info.pv);
            report(&Report::Iteration(info))
        }
        _ => report(r),
    };
    let tt: &TransTable = tt;
    let counters: Vec<AtomicU64> = (0..threads.len()).map(|_| AtomicU64::new(0)).collect();
    let helper_control = SearchControl::default();
    let depth_reached = DepthReached::default();
    // With one line asked for, a helper that completes the last depth first ends the search
    // (with several, the main thread's lines are the answer and it must finish them itself).
    let depth_reached = (multipv == 1).then_some(&depth_reached);
    // `Searcher` always holds its main thread's data first.
    let (main, helpers) = threads
        .split_first_mut()
        .expect("a searcher has a main thread");
    let mut result = std::thread::scope(|scope| {
        let mut helper_handles = Vec::new();
        for (i, t) in helpers.iter_mut().enumerate() {
            let (path, counters) = (path.clone(), &counters[..]);
            let (helper_limits, helper_control, root_moves) =
                (&helper_limits, &helper_control, &root_moves[..]);
            // A helper the system cannot start is done without: the search stays correct with
            // any number of them.
            let helper = std::thread::Builder::new().spawn_scoped(scope, move || {
                let mut silent = |_: &Report| {};
                let mut w = Worker::new(t, tt, helper_control, counters, i + 1, &mut silent);
                w.tb = tb;
                w.depth_reached = depth_reached;
                w.begin(helper_limits, TimeManager::unlimited(start), path, &board);
                iterate(&mut w, &board, root_moves, 1, max_depth)
            });
            helper_handles.extend(helper.ok());
        }
        let mut w = Worker::new(main, tt, control, &counters, 0, &mut tb_report);
        w.tb = tb;
        w.tb_hits_start = tb_hits_start;
        w.depth_reached = depth_reached;
        w.begin(&limits, time, path, &board);
        let mut result = iterate(&mut w, &board, &root_moves, multipv, max_depth);
        helper_control.stop();
        let first_to_depth = depth_reached
            .filter(|_| w.stopped)
            .and_then(DepthReached::take);
        if let Some(helper) = first_to_depth {
            result = helper;
        } else if multipv == 1
            && limits.depth.is_none()
            && smp_vote() != 0
            && !helper_handles.is_empty()
        {
            let mut results = vec![std::mem::take(&mut result)];
            // A helper that panicked takes the search down with it, as the scope's own join
            // would have.
            results.extend(
                helper_handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))),
            );
            result = take_voted(results);
        }
        if result.thread != 0 {
            // A helper's line is the answer: say so last, as the line `bestmove` plays.
            let r = Report::Iteration(info(
                &w,
                result.depth as i32,
                1,
                result.score,
                None,
                result.pv.clone(),
            ));
            (w.report)(&r);
        }
        result
    });
    result.thread_nodes = counters.iter().map(|c| c.load(Ordering::Relaxed)).collect();
    result.nodes = result.thread_nodes.iter().sum();
    result.score = tb_verdict(result.score, &result.pv);
    for (score, pv) in &mut result.lines {
        *score = tb_verdict(*score, pv);
    }
    if result.ponder.is_none() {
        if let Some(best) = result.best {
            let after = board.make_move(best);
            result.ponder = tt
                .probe(after.hash(), 1)
                .map(|h| h.mv)
                .filter(|&m| m != Move::NULL && after.is_legal(m));
        }
    }
    result
}

/// Lazy SMP's choice among the threads' results, the main thread's first, in the form of
/// Stockfish's voting: each thread's move gets `(score - lowest score + 14) · depth` votes (in
/// centipawns here), and the first thread whose move has the most plays. A proven result (mate
/// or tablebase) is settled by score instead: the quickest win, the longest defence. A helper
/// that did not complete depth 1 has no vote. Returns an index into `results`.
fn vote(results: &[SearchResult]) -> usize {
    let votes_at = |i: usize, r: &SearchResult| r.best.is_some() && (i == 0 || r.depth > 1);
    let voters = || {
        results
            .iter()
            .enumerate()
            .filter(|&(i, r)| votes_at(i, r))
            .map(|(_, r)| r)
    };
    let Some(lowest) = voters().map(|r| r.score).min() else {
        return 0;
    };
    let votes = |m: Option<Move>| -> i64 {
        voters()
            .filter(|r| r.best == m)
            .map(|r| (i64::from(r.score.0 - lowest.0) + 14) * i64::from(r.depth))
            .sum()
    };
    let mut chosen = 0;
    for (i, r) in results.iter().enumerate().skip(1) {
        if !votes_at(i, r) {
            continue;
        }
        let c = &results[chosen];
        let better = if c.score.is_decisive() {
            r.score > c.score
        } else {
            (r.score.is_decisive() && r.score > Score::DRAW)
                || (!r.score.is_decisive() && votes(r.best) > votes(c.best))
        };
        if better {
            chosen = i;
        }
    }
    chosen
}

/// The result the threads vote for (see `vote`), taken out of `results` (the main thread's
/// first; not empty).
fn take_voted(mut results: Vec<SearchResult>) -> SearchResult {
    let chosen = vote(&results);
    results.swap_remove(chosen)
}

/// The legal moves of the root, or those of them that `searchmoves` names (all of them when it
/// names none that is legal).
fn root_moves(board: &crate::chess::Board, limits: &Limits) -> Vec<Move> {
    let all: Vec<Move> = board.legal_moves().iter().copied().collect();
    if limits.searchmoves.is_empty() {
        return all;
    }
    let filtered: Vec<Move> = all
        .iter()
        .copied()
        .filter(|m| limits.searchmoves.contains(m))
        .collect();
    if filtered.is_empty() {
        all
    } else {
        filtered
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Board;

    /// A thread's result: `mv` (UCI, from the start position) at `depth` scoring `cp`.
    fn line(mv: &str, cp: i32, depth: u32) -> SearchResult {
        let m = Board::default().parse_uci(mv).expect("a legal move");
        SearchResult {
            best: Some(m),
            score: Score(cp),
            depth,
            pv: vec![m],
            ..SearchResult::default()
        }
    }

    #[test]
    fn threads_vote_for_the_move_they_play() {
        // Agreement keeps the main thread's line.
        assert_eq!(vote(&[line("e2e4", 30, 12), line("e2e4", 35, 13)]), 0);
        // A deeper helper that scores its own move higher outvotes the main thread:
        // (25 - 20 + 14) · 13 = 247 against (0 + 14) · 12 = 168.
        assert_eq!(vote(&[line("e2e4", 20, 12), line("d2d4", 25, 13)]), 1);
        // Two threads on one move outvote a third on another; the first of them plays.
        let three = [
            line("e2e4", 30, 12),
            line("d2d4", 28, 12),
            line("d2d4", 27, 12),
        ];
        assert_eq!(vote(&three), 1);
        // A helper that did not complete depth 1 has no vote, even with a mate in hand.
        let unfinished = [line("e2e4", 20, 12), line("d2d4", Score::mate_in(3).0, 1)];
        assert_eq!(vote(&unfinished), 0);
        assert_eq!(vote(&[]), 0);
    }

    #[test]
    fn the_voted_thread_is_the_one_taken() {
        // Four threads: the third and fourth agree on d2d4 and outvote the others, so the
        // third (thread 2) plays, whatever the order the results are kept in.
        let mut results = vec![
            line("e2e4", 30, 12),
            line("g1f3", 20, 13),
            line("d2d4", 28, 13),
            line("d2d4", 27, 12),
        ];
        for (i, r) in results.iter_mut().enumerate() {
            r.thread = i;
        }
        assert_eq!(vote(&results), 2);
        let taken = take_voted(results);
        assert_eq!(taken.thread, 2);
        assert_eq!(taken.best, Board::default().parse_uci("d2d4").ok());
    }

    #[test]
    fn a_proven_result_is_settled_by_score() {
        let mate_in = |plies: usize| Score::mate_in(plies).0;
        // The quicker mate plays, whatever the votes.
        let mates = [line("e2e4", mate_in(9), 20), line("d2d4", mate_in(5), 14)];
        assert_eq!(vote(&mates), 1);
        // A found mate is not given up for a better-looking evaluation…
        assert_eq!(
            vote(&[line("e2e4", mate_in(9), 12), line("d2d4", 800, 30)]),
            0
        );
        // …and a helper that found one is played.
        assert_eq!(
            vote(&[line("e2e4", 800, 30), line("d2d4", mate_in(9), 12)]),
            1
        );
        // Facing mate, the longest defence (or a thread that sees a way out) plays.
        // (The votes alone would keep the main thread: 14 · 12 = 168 against 18 · 8 = 144.)
        let mated = [line("e2e4", -mate_in(4), 12), line("d2d4", -mate_in(8), 8)];
        assert_eq!(vote(&mated), 1);
        assert_eq!(
            vote(&[line("e2e4", -mate_in(4), 12), line("d2d4", -50, 11)]),
            1
        );
    }
}
