//! One search thread's state: its tables, the shared table and flags, its counters, the path
//! from the root, and the principal-variation table; plus what every node asks of it (stop
//! checks, repetition, evaluation).

use super::history::{piece_to, Heuristics};
use super::params::{hundredths, lmr_base, lmr_divisor};
use super::picker::MovePicker;
use super::score::Score;
use super::score::MAX_PLY;
use super::time::TimeManager;
use super::tt::TransTable;
use super::types::{Limits, Report, SearchControl, SearchResult};
use crate::chess::{Board, Move};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What one search thread keeps from search to search: its move-ordering history and its
/// evaluation state. Threads share only the transposition table.
pub(super) struct ThreadData {
    pub(super) heuristics: Heuristics,
    pub(super) pawns: crate::eval::PawnCache,
    pub(super) eval: crate::eval::SearchEval,
    /// The PV table and move pickers of the last search (about 240 KB), handed to the next
    /// one instead of allocated anew: a server searching thousands of times would otherwise
    /// leave its allocator holding freed copies in every thread's arena (issue 26's soak).
    pv: Vec<[Move; MAX_PLY + 1]>,
    pickers: Vec<MovePicker>,
    /// The root moves' node counts, kept for the same reason.
    root_nodes: Vec<(Move, u64)>,
}

impl ThreadData {
    /// Fresh tables for a thread evaluating with `eval`.
    pub(super) fn new(eval: crate::eval::SearchEval) -> ThreadData {
        ThreadData {
            heuristics: Heuristics::default(),
            pawns: crate::eval::PawnCache::new(),
            eval,
            pv: Vec::new(),
            pickers: Vec::new(),
            root_nodes: Vec::new(),
        }
    }
}

/// A late-move reduction table by depth and move number (see `params::lmr_base`).
type LmrTable = [[i32; 64]; 64];

/// Computes the reduction table from `lmr_base` and `lmr_divisor` (in hundredths).
fn compute_lmr_table((base, divisor): (i32, i32)) -> LmrTable {
    let (base, divisor) = (hundredths(base), hundredths(divisor));
    let mut t = [[0i32; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
        }
    }
    t
}

/// The late-move reduction table, computed once.
#[cfg(not(feature = "tune"))]
pub(super) fn lmr_table() -> &'static LmrTable {
    static TABLE: std::sync::OnceLock<LmrTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| compute_lmr_table((lmr_base(), lmr_divisor())))
}

/// The late-move reduction table of a tuning build: computed again when `setoption` has
/// changed its two constants since the last search. Each new table is leaked on purpose (a
/// tuning run sets its options once per engine process, so a handful at most).
#[cfg(feature = "tune")]
pub(super) fn lmr_table() -> &'static LmrTable {
    static TABLE: std::sync::Mutex<Option<((i32, i32), &'static LmrTable)>> =
        std::sync::Mutex::new(None);
    let key = (lmr_base(), lmr_divisor());
    let mut slot = TABLE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match *slot {
        Some((k, t)) if k == key => t,
        _ => {
            let t: &'static LmrTable = Box::leak(Box::new(compute_lmr_table(key)));
            *slot = Some((key, t));
            t
        }
    }
}

/// The result of the first helper thread that completes the search's last depth. With a depth
/// limit, the main thread stops as soon as one has and plays the helper's move (odd helpers
/// run one ply ahead, so one often gets there first): waiting for the main thread to complete
/// the same depth alone would leave the other cores idle for the rest of its last iteration.
#[derive(Default)]
pub(super) struct DepthReached {
    reached: AtomicBool,
    result: Mutex<Option<SearchResult>>,
}

impl DepthReached {
    /// Keeps helper `thread`'s `result` if no other helper's came first, and asks the main
    /// thread to stop.
    pub(super) fn offer(&self, thread: usize, result: &SearchResult) {
        let mut slot = self.result.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(SearchResult {
                thread,
                ..result.clone()
            });
        }
        self.reached.store(true, Ordering::SeqCst);
    }

    /// Whether a helper has completed the last depth.
    pub(super) fn reached(&self) -> bool {
        self.reached.load(Ordering::Relaxed)
    }

    /// The helper's result, if one has completed the last depth.
    pub(super) fn take(&self) -> Option<SearchResult> {
        self.result.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// One thread's state during a search: its tables, the shared table and flags, counters, the
/// path, and the PV table.
pub(super) struct Worker<'a> {
    pub(super) t: &'a mut ThreadData,
    pub(super) tt: &'a TransTable,
    /// The flags this thread obeys: the user's for the main thread, the main thread's for helpers.
    pub(super) control: &'a SearchControl,
    /// Every thread's node count, published every 1024 nodes; this thread's is `counters[id]`.
    pub(super) counters: &'a [AtomicU64],
    /// 0 for the main thread.
    pub(super) id: usize,
    pub(super) report: &'a mut dyn FnMut(&Report),
    pub(super) root_depth: i32,
    pub(super) limits: &'a Limits,
    pub(super) time: TimeManager,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    /// Time and node limits only apply once depth 1 has given every MultiPV line a move.
    pub(super) can_stop: bool,
    pub(super) was_pondering: bool,
    /// Hashes of the positions before the current node: game history, then the search path.
    pub(super) path: Vec<u64>,
    /// Where the root's hash sits in `path` (the length of the game history before it).
    pub(super) root_index: usize,
    pub(super) pv: Vec<[Move; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 2],
    pub(super) evals: [Score; MAX_PLY + 2],
    pub(super) prev: [Option<(usize, Move)>; MAX_PLY + 2],
    pub(super) excluded: Vec<Move>,
    /// The move a singular-extension search leaves out at each ply (`Move::NULL`: none).
    pub(super) singular: [Move; MAX_PLY + 2],
    pub(super) lmr: &'static LmrTable,
    /// One move picker per ply, reused from node to node.
    pub(super) pickers: Vec<MovePicker>,
    /// The score of the last root move that raised alpha (its line is `pv[0]`).
    pub(super) root_score: Score,
    /// The nodes searched under each root move in this search so far (for time management).
    pub(super) root_nodes: Vec<(Move, u64)>,
    /// Tablebases probed in the search, with the most pieces probed.
    pub(super) tb: Option<(&'a super::types::TablebaseConfig, usize)>,
    /// The tables' read count when the search began (for `tbhits`).
    pub(super) tb_hits_start: Option<(&'a crate::syzygy::Tablebases, u64)>,
    /// Where a helper leaves a completed last depth, and the main thread looks for one.
    pub(super) depth_reached: Option<&'a DepthReached>,
}

impl Drop for Worker<'_> {
    /// Hands the tables back to the thread's data for its next search.
    fn drop(&mut self) {
        self.t.pv = std::mem::take(&mut self.pv);
        self.t.pickers = std::mem::take(&mut self.pickers);
        self.t.root_nodes = std::mem::take(&mut self.root_nodes);
    }
}

impl Worker<'_> {
    pub(super) fn elapsed(&self) -> Duration {
        self.time.elapsed()
    }

    /// Polls the stop flag, the node limit and the hard time bound.
    #[inline]
    pub(super) fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if !self.can_stop {
            return false;
        }
        if let Some(n) = self.limits.nodes {
            if self.total_nodes() >= n {
                self.stopped = true;
                return true;
            }
        }
        if self.nodes & 1023 == 0 {
            self.counters[self.id].store(self.nodes, Ordering::Relaxed);
            let control = self.control;
            if control.stopped() || self.depth_reached.is_some_and(DepthReached::reached) {
                self.stopped = true;
            } else if control.pondering() {
                self.was_pondering = true;
            } else {
                if self.was_pondering {
                    self.was_pondering = false;
                    self.time.ponderhit();
                }
                if self.time.hard_limit_reached() {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// Nodes searched by all threads: this one's exact count plus the others' last published.
    pub(super) fn total_nodes(&self) -> u64 {
        if self.counters.len() == 1 {
            return self.nodes;
        }
        let others: u64 = (self.counters.iter().enumerate())
            .filter(|&(i, _)| i != self.id)
            .map(|(_, c)| c.load(Ordering::Relaxed))
            .sum();
        self.nodes + others
    }

    /// Whether `b` is a draw by repetition: it repeats a position of the search path (after the
    /// root) once, or a position of the game (the root or before it) twice. Stockfish counts the
    /// same way. A single repeat of a game position is not a draw (the opponent need not repeat
    /// once more), and scoring it 0 made scores depend on the game's history, which the hash table
    /// then carried into searches with another history: analysing a game from its end read 0.00
    /// where a fresh search of the same position saw a clear edge.
    pub(super) fn is_repetition(&self, b: &Board) -> bool {
        let h = b.hash();
        // Only positions since the last capture or pawn move can repeat; `path[len - 1]` is the
        // parent (the other side to move), so the same side moves at `len - 2`, `len - 4`, …
        let window = (b.halfmove_clock() as usize).min(self.path.len());
        let mut in_game = 0;
        for back in (2..=window).step_by(2) {
            let at = self.path.len() - back;
            if self.path[at] == h {
                if at > self.root_index {
                    return true;
                }
                in_game += 1;
                if in_game == 2 {
                    return true;
                }
            }
        }
        false
    }

    /// The continuation-history context of a node at `ply`: the moves one and two plies back.
    pub(super) fn context(&self, ply: usize) -> [Option<usize>; 2] {
        let back = |k: usize| {
            ply.checked_sub(k)
                .and_then(|i| self.prev[i])
                .map(|(piece, m)| piece_to(piece, m))
        };
        [back(1), back(2)]
    }

    /// The static evaluation of `b`, the node at `ply` (NNUE or hand-crafted, as configured).
    #[inline]
    pub(super) fn evaluate(&mut self, b: &Board, ply: usize) -> Score {
        let t = &mut *self.t;
        Score(t.eval.evaluate(b, ply, &mut t.pawns))
    }

    /// Counts `nodes` more searched under the root move `m`.
    pub(super) fn add_root_nodes(&mut self, m: Move, nodes: u64) {
        match self.root_nodes.iter_mut().find(|(rm, _)| *rm == m) {
            Some((_, n)) => *n += nodes,
            None => self.root_nodes.push((m, nodes)),
        }
    }

    /// The fraction of the root's nodes so far that went to the root move `m` (0 to 1).
    pub(super) fn root_share(&self, m: Move) -> f64 {
        let total: u64 = self.root_nodes.iter().map(|&(_, n)| n).sum();
        let mine = self
            .root_nodes
            .iter()
            .find(|&&(rm, _)| rm == m)
            .map_or(0, |&(_, n)| n);
        mine as f64 / total.max(1) as f64
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}

impl<'a> Worker<'a> {
    /// A worker for thread `id` (0: the main thread), not yet set up for a search.
    pub(super) fn new(
        t: &'a mut ThreadData,
        tt: &'a TransTable,
        control: &'a SearchControl,
        counters: &'a [AtomicU64],
        id: usize,
        report: &'a mut dyn FnMut(&Report),
    ) -> Worker<'a> {
        // The last search's tables, set back to what a new one starts from (the same values as
        // fresh ones, so that a search does not depend on the one before).
        let mut pv = std::mem::take(&mut t.pv);
        pv.clear();
        pv.resize(MAX_PLY + 2, [Move::NULL; MAX_PLY + 1]);
        let mut pickers = std::mem::take(&mut t.pickers);
        pickers.clear();
        pickers.resize_with(MAX_PLY + 2, MovePicker::default);
        let mut root_nodes = std::mem::take(&mut t.root_nodes);
        root_nodes.clear();
        Worker {
            t,
            tt,
            control,
            counters,
            id,
            report,
            root_depth: 1,
            limits: &NO_LIMITS,
            time: TimeManager::unlimited(Instant::now()),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            // Helpers may stop at once: only the main thread must finish depth 1.
            can_stop: id != 0,
            was_pondering: false,
            path: Vec::new(),
            root_index: 0,
            pv,
            pv_len: [0; MAX_PLY + 2],
            evals: [Score::DRAW; MAX_PLY + 2],
            prev: [None; MAX_PLY + 2],
            excluded: Vec::new(),
            singular: [Move::NULL; MAX_PLY + 2],
            lmr: lmr_table(),
            pickers,
            root_score: Score::DRAW,
            root_nodes,
            tb: None,
            tb_hits_start: None,
            depth_reached: None,
        }
    }

    /// Sets the worker up to search from `board`, whose predecessors' hashes are `path`.
    pub(super) fn begin(
        &mut self,
        limits: &'a Limits,
        time: TimeManager,
        path: Vec<u64>,
        board: &Board,
    ) {
        self.limits = limits;
        self.time = time;
        self.root_index = path.len();
        self.path = path;
        self.t.eval.reset(board);
    }
}

/// Limits that a worker holds before `begin` gives it the search's.
static NO_LIMITS: Limits = Limits {
    depth: None,
    nodes: None,
    movetime: None,
    clock: None,
    infinite: false,
    mate: None,
    searchmoves: Vec::new(),
    skill: None,
    random: 0,
    multipv: 1,
};
