//! The search's tunable constants, in one place beside `eval/params.rs`.
//!
//! Where the values come from: they were set by hand when each technique was added, inside
//! the ranges that open engines of this strength use (Ethereal, Viridithas, Carp and
//! Stockfish's older releases); none has been tuned by SPSA or a parameter search yet, which
//! is what collecting them here prepares. Margins are in centipawns, depths in plies.

/// Reverse futility pruning: at most this depth…
pub const RFP_MAX_DEPTH: i32 = 7;
/// …a node whose static evaluation beats beta by this much per ply is assumed to hold.
pub const RFP_MARGIN: i32 = 75;
/// The margin is this much smaller when the evaluation is improving (the node is likelier to
/// hold than its margin says).
pub const RFP_IMPROVING: i32 = 50;

/// Null-move pruning from this depth on.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null-move reduction: this base…
pub const NMP_BASE: i32 = 3;
/// …plus one ply per this many plies of depth…
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// …plus one ply per this many centipawns the evaluation beats beta by…
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// …of which at most this many.
pub const NMP_EVAL_MAX: i32 = 3;

/// Internal iterative reduction: from this depth on, a PV or cut node without a hash move is
/// searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Singular extensions from this depth on…
pub const SE_MIN_DEPTH: i32 = 8;
/// …when the hash entry was searched to at most this much less than the node's depth…
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// …and every other move fails below the hash score less this much per ply of depth.
pub const SE_MARGIN_PER_PLY: i32 = 2;

/// Move-count, futility and SEE pruning of moves up to this depth.
pub const PRUNE_MAX_DEPTH: i32 = 8;
/// Late-move pruning: quiet moves after the first `LMP_BASE + depth²` (half that when the
/// evaluation is not improving) are skipped.
pub const LMP_BASE: i32 = 3;
/// Futility pruning: a quiet move is skipped when the static evaluation plus this…
pub const FUTILITY_BASE: i32 = 100;
/// …plus this per ply cannot reach alpha.
pub const FUTILITY_PER_PLY: i32 = 90;
/// SEE pruning: a quiet move that loses more than this per ply of depth in exchanges is skipped…
pub const SEE_QUIET_PER_PLY: i32 = 40;
/// …and a capture that loses more than this per ply.
pub const SEE_NOISY_PER_PLY: i32 = 90;

/// Late-move reductions from this depth on…
pub const LMR_MIN_DEPTH: i32 = 3;
/// …for moves after this many have been searched.
pub const LMR_MIN_MOVES: usize = 2;
/// The reduction table is `LMR_BASE + ln(depth)·ln(move number) / LMR_DIVISOR`, the shape
/// most engines use.
pub const LMR_BASE: f64 = 0.8;
/// See `LMR_BASE`.
pub const LMR_DIVISOR: f64 = 2.2;
/// One ply less reduction per this much history a quiet move has (more for a bad one).
pub const LMR_HISTORY_DIVISOR: i32 = 8000;

/// History bonus of a quiet move that cut off: `HISTORY_BONUS_SCALE · depth²`…
pub const HISTORY_BONUS_SCALE: i32 = 8;
/// …at most this.
pub const HISTORY_BONUS_MAX: i32 = 1600;

/// Quiescence delta pruning: a capture that cannot lift the stand-pat score to alpha even with
/// this much to spare is skipped.
pub const QS_DELTA_MARGIN: i32 = 200;

/// Aspiration windows from this depth on…
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// …starting this wide on each side of the last score, doubling on every failure.
pub const ASPIRATION_DELTA: i32 = 18;

/// Soft time limit scaling: when the best move changes, the budget grows by this factor…
pub const STABILITY_CHANGE: f64 = 1.5;
/// …up to this multiple of the soft limit…
pub const STABILITY_MAX: f64 = 2.5;
/// …and while it stays, shrinks by this factor…
pub const STABILITY_KEEP: f64 = 0.9;
/// …down to this multiple.
pub const STABILITY_MIN: f64 = 0.6;
/// A score this much below the last iteration's…
pub const SCORE_DROP: i32 = 30;
/// …buys at least this multiple of the soft limit, to look for a way out.
pub const SCORE_DROP_FACTOR: f64 = 1.4;

/// Plies added to a tablebase result's depth in the hash table, so that no search replaces an
/// exact verdict with a guess (Stockfish stores them 6 plies deeper).
pub const TB_DEPTH_BONUS: i32 = 6;
