//! The search's public types: what limits it, what it reports, what it decides, and how it
//! uses tablebases. Kept apart from `Searcher` so that the search's own files import them
//! from here rather than from their folder's root.

use super::score::Score;
use super::tt::Bound;
use crate::chess::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What limits a search. Everything `None` and `infinite == false` means "depth 128".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many plies.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Think exactly this long (milliseconds).
    pub movetime: Option<u64>,
    /// The side to move's clock.
    pub clock: Option<Clock>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<u32>,
    /// Only consider these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Play at this `skill` level (`skill::MIN_LEVEL`..`skill::MAX_LEVEL`, fractions allowed;
    /// `None` or the top level: full strength).
    pub skill: Option<f64>,
    /// Random bits for a weakened search's choice (any number; the clock will do).
    pub random: u64,
    /// How many principal variations to report (1 = normal play).
    pub multipv: usize,
}

/// Clock information for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left, milliseconds (may be negative from a GUI: treated as almost nothing).
    pub time_ms: i64,
    /// Increment per move, milliseconds.
    pub inc_ms: i64,
    /// Moves to the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// Shared flags through which another thread stops a search or ends pondering.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl SearchControl {
    /// Asks the running search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    /// Whether a stop was requested.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// Clears the stop and ponder flags before a new job: a job that was stopped (a closed
    /// analysis stream, Ctrl-C) must not end the next one at once.
    pub fn reset(&self) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
    }
    /// Sets whether the search is pondering (time limits do not apply while it is).
    pub fn set_pondering(&self, on: bool) {
        self.pondering.store(on, Ordering::SeqCst);
    }
    /// Whether the search is pondering.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

/// One report from the search, sent after every iteration (and aspiration failure).
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which PV this is (1-based).
    pub multipv: usize,
    /// The score from the side to move's view.
    pub score: Score,
    /// `Some` when the score is only a bound (aspiration failure).
    pub bound: Option<Bound>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// Tablebase reads so far in this search.
    pub tbhits: u64,
    /// The principal variation: a legal sequence from the root.
    pub pv: Vec<Move>,
}

/// A report from a running search.
#[derive(Clone, Debug)]
pub enum Report {
    /// An iteration (or aspiration failure) finished.
    Iteration(SearchInfo),
    /// The root move now being searched, sent only in long searches.
    CurrMove {
        /// The iteration's depth.
        depth: u32,
        /// The move.
        mv: Move,
        /// Its 1-based position in the root move order.
        number: usize,
    },
}

/// What the search decided.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play; `None` when the side to move has no legal move.
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// The score of the best move.
    pub score: Score,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes searched by each thread, the main thread first (they add up to `nodes`).
    pub thread_nodes: Vec<u64>,
    /// The principal variation of the best move.
    pub pv: Vec<Move>,
    /// Every line of the last completed iteration (several with MultiPV), best first.
    pub lines: Vec<(Score, Vec<Move>)>,
    /// With no legal move: whether it is checkmate (else stalemate).
    pub checkmated: bool,
    /// The thread whose line this is: 0, the main thread, unless a helper completed the depth
    /// limit first and ended the search, or the threads voted for a helper's move (`smp_vote`).
    pub thread: usize,
}

/// How the search uses Syzygy tablebases (UCI `SyzygyPath` and its companions).
#[derive(Clone)]
pub struct TablebaseConfig {
    /// The tables.
    pub tables: Arc<crate::syzygy::Tablebases>,
    /// The least remaining depth at which a node with exactly the largest tables' piece count
    /// is probed (`SyzygyProbeDepth`; nodes with fewer pieces are probed at any depth).
    pub probe_depth: i32,
    /// Positions with more pieces than this are never probed (`SyzygyProbeLimit`).
    pub probe_limit: usize,
    /// Whether the 50-move rule counts: cursed wins and blessed losses are draws
    /// (`Syzygy50MoveRule`).
    pub rule50: bool,
}

impl TablebaseConfig {
    /// `SyzygyProbeDepth`'s default: probe at any remaining depth (Stockfish's).
    pub const DEFAULT_PROBE_DEPTH: i32 = 1;
    /// `SyzygyProbeLimit`'s default: every table size there is.
    pub const DEFAULT_PROBE_LIMIT: usize = 7;

    /// The tables with the UCI options' defaults (probe at any depth, every size, the 50-move
    /// rule counting).
    pub fn new(tables: Arc<crate::syzygy::Tablebases>) -> TablebaseConfig {
        TablebaseConfig {
            tables,
            probe_depth: Self::DEFAULT_PROBE_DEPTH,
            probe_limit: Self::DEFAULT_PROBE_LIMIT,
            rule50: true,
        }
    }
}

impl std::fmt::Debug for TablebaseConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TablebaseConfig")
            .field("tables", &self.tables.len())
            .field("max_pieces", &self.tables.max_pieces())
            .field("probe_depth", &self.probe_depth)
            .field("probe_limit", &self.probe_limit)
            .field("rule50", &self.rule50)
            .finish()
    }
}

/// The most search threads (UCI `Threads`), as Stockfish allows.
pub const MAX_THREADS: usize = 1024;
