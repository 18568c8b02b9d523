//! Choosing moves: iterative deepening over a principal-variation alpha-beta search.
//!
//! `Searcher` owns the long-lived state (transposition table, history tables); each call to
//! `search` takes a `Game` and `Limits` and reports every finished iteration through a callback.
//! Nothing here prints: front ends format the reports.

pub mod history;
mod node;
pub mod params;
pub mod picker;
mod qsearch;
mod root;
pub mod score;
mod searcher;
pub mod see;
pub mod skill;
pub mod time;
pub mod tt;
mod types;
pub mod wdl;
mod worker;

pub use score::Score;
pub use searcher::{HashSizeError, Searcher};
pub use time::{TimeBudget, TimeManager};
pub use tt::Bound;
pub use types::{
    Clock, Limits, Report, SearchControl, SearchInfo, SearchResult, TablebaseConfig, MAX_THREADS,
};
