//! The contract between `main.rs` and the commands it dispatches to: each command module
//! declares its own clap flags (`Flags`) and a `command` function that takes them parsed,
//! writes through callbacks, and returns an `Outcome` or its own typed error.

use crate::chess::{Board, FenError};

/// How a command that ran to its end came out; an error is the other way it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Everything it did or checked was right (exit status 0).
    Success,
    /// It ran, but something it checked was wrong: a count that did not match, a line that was
    /// not a position, an interrupted analysis (exit status 1).
    Failure,
}

impl Outcome {
    /// `Success` when `passed`, else `Failure`.
    pub fn from_passed(passed: bool) -> Outcome {
        if passed {
            Outcome::Success
        } else {
            Outcome::Failure
        }
    }
}

/// A `--fen` flag that is not a position.
#[derive(Debug, thiserror::Error)]
#[error("bad FEN: {0}")]
pub struct BadFen(#[from] pub FenError);

/// The position of a `--fen` flag, or the start position without one.
pub fn board_or_start(fen: Option<&str>) -> Result<Board, BadFen> {
    fen.map_or(Ok(Board::startpos()), |f| Ok(Board::from_fen(f)?))
}

/// A `--net` flag that names no usable network.
#[derive(Debug, thiserror::Error)]
#[error("{spec}: {source}")]
pub struct BadNet {
    /// What the flag said.
    pub spec: String,
    /// Why it cannot be used.
    pub source: crate::eval::nnue::NetError,
}

/// The evaluation a `--net` flag chooses: `hce` (the hand-crafted one, `None`), `embedded`
/// (the default net), or a net file that `train` wrote.
pub fn choose_net(
    spec: &str,
) -> Result<Option<std::sync::Arc<crate::eval::nnue::Network>>, BadNet> {
    use crate::eval::nnue::{default_net, Network};
    match spec {
        "hce" => Ok(None),
        "embedded" => Ok(Some(default_net())),
        path => match Network::load(path) {
            Ok(n) => Ok(Some(std::sync::Arc::new(n))),
            Err(source) => Err(BadNet {
                spec: spec.to_string(),
                source,
            }),
        },
    }
}

/// Where a long job reports how far it has got; a front end shows it (a bar in a terminal) or
/// not at all (`NoProgress`). Worker threads call it too, hence `Sync`.
pub trait Progress: Sync {
    /// A stage of `total` steps begins, named `label` (`3/20` for an epoch; may be empty).
    fn start(&self, label: &str, total: u64);
    /// `n` more steps are done.
    fn advance(&self, n: u64);
    /// A short note on the stage: a rate, the game being analysed.
    fn note(&self, text: &str);
    /// The stage is over; whatever showed it goes.
    fn finish(&self);
}

/// Progress that nobody watches (tests, pipes, the browser's analysis).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
    fn note(&self, _: &str) {}
    fn finish(&self) {}
}
