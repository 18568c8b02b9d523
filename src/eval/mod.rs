//! Static evaluation, from the side to move's view: which evaluation scores a position (the
//! network or the hand-crafted one) and the state a search keeps for it along its path.

pub mod hce;
pub mod nnue;
pub mod params;

pub use hce::{
    breakdown, evaluate, evaluate_cached, placement, taper, Breakdown, PawnCache, PawnEntry,
};

use crate::chess::Board;

/// The evaluation a search uses: the network with its accumulators along the search path, or
/// the hand-crafted evaluation with its pawn cache.
#[derive(Clone, Debug)]
pub struct SearchEval {
    nnue: Option<nnue::AccumulatorStack>,
}

/// Plies of search path the accumulator stack covers (the search's `MAX_PLY` with room).
const STACK_PLIES: usize = 160;

impl SearchEval {
    /// The hand-crafted evaluation.
    pub fn hand_crafted() -> SearchEval {
        SearchEval { nnue: None }
    }

    /// The network `net`.
    pub fn network(net: std::sync::Arc<nnue::Network>) -> SearchEval {
        SearchEval {
            nnue: Some(nnue::AccumulatorStack::new(net, STACK_PLIES)),
        }
    }

    /// The network in use, if any.
    pub fn net(&self) -> Option<&std::sync::Arc<nnue::Network>> {
        self.nnue.as_ref().map(|s| s.net())
    }

    /// Starts a search from `board` (ply 0).
    #[inline]
    pub fn reset(&mut self, board: &Board) {
        if let Some(s) = &mut self.nnue {
            s.reset(board);
        }
    }

    /// The node at `ply` is `parent` after `m`.
    #[inline]
    pub fn push(&mut self, ply: usize, parent: &Board, m: crate::chess::Move) {
        if let Some(s) = &mut self.nnue {
            s.push(ply, parent, m);
        }
    }

    /// The node at `ply` is the node above it after a null move.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        if let Some(s) = &mut self.nnue {
            s.push_null(ply);
        }
    }

    /// The evaluation of `board`, the node at `ply`, from the side to move's view.
    #[inline]
    pub fn evaluate(&mut self, board: &Board, ply: usize, pawns: &mut PawnCache) -> i32 {
        match &mut self.nnue {
            Some(s) => s.evaluate(board, ply),
            None => evaluate_cached(board, pawns),
        }
    }

    /// The evaluation of a lone position (no search path), side to move's view.
    pub fn evaluate_once(&self, board: &Board) -> i32 {
        match &self.nnue {
            Some(s) => s.net().evaluate(board),
            None => evaluate(board),
        }
    }
}
