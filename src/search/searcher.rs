//! `Searcher`: the engine's thinking state kept between moves (the transposition table, one
//! `ThreadData` per Lazy SMP thread, the stop flags) and the entry point of every search.

use super::types::{Limits, Report, SearchControl, SearchResult, TablebaseConfig, MAX_THREADS};
use super::worker::ThreadData;
use super::{root, skill, tt};
use crate::chess::Game;
use std::sync::Arc;

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
                let mut result = root::run(self, game, &weakened, report);
                skill::choose(&mut result, level, limits.random);
                result
            }
            None => root::run(self, game, limits, report),
        }
    }
}
