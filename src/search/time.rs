//! Time management, every decision about time in one place: the budget a search gets from
//! its limits (a soft bound: don't start another iteration; a hard bound: stop now), how the
//! soft bound stretches with the stability of the best move, a forced move played at once, and
//! the clock restarting at a ponderhit.

use super::params::{
    hundredths, node_tm, node_tm_base, node_tm_min_depth, node_tm_scale, score_drop,
    score_drop_factor, stability_change, stability_keep, stability_max, stability_min,
};
use super::score::Score;
use super::types::{Clock, Limits};
use crate::chess::Move;
use std::time::{Duration, Instant};

/// The longest clock or increment taken at its word, in milliseconds (about 34 years): more is
/// read as this much, so that budget arithmetic on any input stays far from overflow.
pub const MAX_CLOCK_MS: i64 = 1 << 40;

/// How long a search may take, derived from the clock or a fixed time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Don't start a new iteration after this (scaled by instability).
    pub soft: Duration,
    /// Stop the search at once after this.
    pub hard: Duration,
}

impl TimeBudget {
    /// A budget from the clock, keeping `overhead_ms` in reserve for communication lag.
    pub fn from_clock(clock: Clock, overhead_ms: u64) -> TimeBudget {
        // Any i64 may arrive from a GUI; within these bounds nothing below can overflow.
        let overhead = overhead_ms.min(MAX_CLOCK_MS as u64) as i64;
        let left = (clock.time_ms.clamp(-MAX_CLOCK_MS, MAX_CLOCK_MS) - overhead).max(1);
        let inc = clock.inc_ms.clamp(0, MAX_CLOCK_MS);
        let mtg = i64::from(clock.moves_to_go.unwrap_or(0));
        let (soft, hard) = if mtg > 0 {
            let mtg = mtg.min(50);
            let base = left / (mtg + 1) + inc * 3 / 4;
            (base, (base * 4).min(left * 3 / 4))
        } else {
            let base = left / 25 + inc * 3 / 4;
            (base, (base * 5).min(left / 3 + inc / 2))
        };
        // Never plan on more than what is on the clock.
        let soft = soft.clamp(1, left * 4 / 5 + 1);
        let hard = hard.clamp(soft, left * 4 / 5 + 1);
        TimeBudget {
            soft: Duration::from_millis(soft as u64),
            hard: Duration::from_millis(hard as u64),
        }
    }

    /// A fixed time per move (hard and soft equal), less the overhead.
    pub fn fixed(movetime_ms: u64, overhead_ms: u64) -> TimeBudget {
        let t = movetime_ms.min(MAX_CLOCK_MS as u64);
        let t = Duration::from_millis(t.saturating_sub(overhead_ms).max(1));
        TimeBudget { soft: t, hard: t }
    }
}

/// The time decisions of one search (the main thread's; helpers get an unlimited one and are
/// stopped by the main thread).
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    budget: Option<TimeBudget>,
    /// A fixed move time is the user's to spend whole (UCI `movetime`: "search exactly"): it
    /// neither stretches nor shrinks, and a forced move still takes it.
    fixed: bool,
    /// How far the soft bound is stretched (above 1) or shrunk (below): grows when the best
    /// move changes or the score drops, shrinks while it holds.
    stability: f64,
    /// How far the soft bound is scaled by the share of the root's nodes the best move took
    /// (1 until `node_tm` is on and the search deep enough).
    effort: f64,
    last_best: Move,
}

impl TimeManager {
    /// The time decisions for `limits`, the search having started at `start`; `overhead_ms`
    /// is kept in reserve per move for communication lag.
    pub fn new(limits: &Limits, overhead_ms: u64, start: Instant) -> TimeManager {
        let budget = if limits.infinite {
            None
        } else if let Some(mt) = limits.movetime {
            Some(TimeBudget::fixed(mt, overhead_ms))
        } else {
            limits.clock.map(|c| TimeBudget::from_clock(c, overhead_ms))
        };
        TimeManager {
            start,
            budget,
            fixed: limits.movetime.is_some(),
            stability: 1.0,
            effort: 1.0,
            last_best: Move::NULL,
        }
    }

    /// No time limit at all (helper threads, infinite analysis).
    pub fn unlimited(start: Instant) -> TimeManager {
        TimeManager {
            start,
            budget: None,
            fixed: false,
            stability: 1.0,
            effort: 1.0,
            last_best: Move::NULL,
        }
    }

    /// Time since the search (or the ponderhit) started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// A ponderhit: the clock starts now for us.
    pub fn ponderhit(&mut self) {
        self.start = Instant::now();
    }

    /// Whether the hard bound has passed: stop at once.
    pub fn hard_limit_reached(&self) -> bool {
        self.budget.is_some_and(|b| self.elapsed() >= b.hard)
    }

    /// An iteration of `depth` finished with `best` scoring `score`; `previous` is the score
    /// of the iteration before, `best_share` the fraction (0 to 1) of the search's root nodes
    /// so far that went to `best`. Updates the stability of the best move and, with `node_tm`
    /// on, the scale the best move's share of the nodes gives the soft bound.
    pub fn iteration_done(
        &mut self,
        depth: i32,
        best: Move,
        score: Score,
        previous: Score,
        best_share: f64,
    ) {
        self.effort = if node_tm() != 0 && depth >= node_tm_min_depth() {
            effort_scale(
                best_share,
                hundredths(node_tm_base()),
                hundredths(node_tm_scale()),
            )
        } else {
            1.0
        };
        if best != self.last_best && depth > 1 {
            self.stability =
                (self.stability * hundredths(stability_change())).min(hundredths(stability_max()));
        } else {
            self.stability =
                (self.stability * hundredths(stability_keep())).max(hundredths(stability_min()));
        }
        if depth > 4 && score < previous - score_drop() {
            self.stability = self.stability.max(hundredths(score_drop_factor()));
        }
        self.last_best = best;
    }

    /// Whether to stop after the iteration of `depth` rather than start another: the soft
    /// bound (stretched by stability and the best move's share of the nodes unless the time is
    /// fixed) has passed, or there is only one legal move (`root_moves`) and the clock's time
    /// is better saved.
    pub fn stop_iterating(&self, depth: i32, root_moves: usize) -> bool {
        let Some(b) = self.budget else {
            return false;
        };
        let soft = if self.fixed {
            b.soft.as_secs_f64()
        } else {
            b.soft.as_secs_f64() * self.stability * self.effort
        };
        if root_moves == 1 && depth >= 4 && !self.fixed {
            return true;
        }
        self.elapsed().as_secs_f64() >= soft.min(b.hard.as_secs_f64())
    }
}

/// The soft bound's scale when the best move took `share` (0 to 1) of the root's nodes:
/// `(base - share) · scale`, never below a tenth (whatever the tuning options say).
fn effort_scale(share: f64, base: f64, scale: f64) -> f64 {
    ((base - share.clamp(0.0, 1.0)) * scale).max(0.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    #[test]
    fn budgets_are_sane() {
        let b = TimeBudget::from_clock(
            Clock {
                time_ms: 60_000,
                inc_ms: 1000,
                moves_to_go: None,
            },
            10,
        );
        assert!(b.soft < b.hard && b.hard < Duration::from_secs(25));
        let tiny = TimeBudget::from_clock(
            Clock {
                time_ms: -50,
                inc_ms: 0,
                moves_to_go: None,
            },
            10,
        );
        assert!(tiny.hard <= Duration::from_millis(2));
        let mtg = TimeBudget::from_clock(
            Clock {
                time_ms: 10_000,
                inc_ms: 0,
                moves_to_go: Some(1),
            },
            0,
        );
        assert!(mtg.hard <= Duration::from_millis(7500));
        // A 40-move control is not spent on one move: at most a quarter of the clock.
        for (time_ms, inc_ms) in [(4_000, 0), (8_000, 100), (60_000, 0)] {
            let b = TimeBudget::from_clock(
                Clock {
                    time_ms,
                    inc_ms,
                    moves_to_go: Some(40),
                },
                10,
            );
            assert!(
                b.hard <= Duration::from_millis(time_ms as u64 / 4),
                "{time_ms}"
            );
        }
        assert_eq!(TimeBudget::fixed(100, 10).hard, Duration::from_millis(90));
    }

    #[test]
    fn a_contested_best_move_gets_more_time() {
        // Defaults 150 and 135 hundredths: a best move with all the nodes stops at about
        // two thirds of the soft bound, one with half of them runs a third longer.
        assert!((effort_scale(1.0, 1.5, 1.35) - 0.675).abs() < 1e-9);
        assert!((effort_scale(0.5, 1.5, 1.35) - 1.35).abs() < 1e-9);
        assert!(effort_scale(0.3, 1.5, 1.35) > effort_scale(0.9, 1.5, 1.35));
        // Out-of-range shares and options stay usable.
        assert!((effort_scale(7.0, 1.5, 1.35) - effort_scale(1.0, 1.5, 1.35)).abs() < 1e-9);
        assert!((effort_scale(0.9, 1.0, 0.5) - 0.1).abs() < 1e-9);
    }

    #[test]
    fn any_clock_gives_a_budget() {
        // These panicked (overflow, then clamp with min > max) on the build of 2026-12-03.
        let extremes = [
            i64::MIN,
            -1,
            0,
            1,
            1000,
            3_000_000_000_000_000_000,
            i64::MAX,
        ];
        for &time_ms in &extremes {
            for &inc_ms in &extremes {
                for moves_to_go in [None, Some(1), Some(u32::MAX)] {
                    for overhead in [0, 10, u64::MAX] {
                        let clock = Clock {
                            time_ms,
                            inc_ms,
                            moves_to_go,
                        };
                        let b = TimeBudget::from_clock(clock, overhead);
                        assert!(b.soft <= b.hard, "{clock:?}");
                        assert!(b.hard <= Duration::from_millis(MAX_CLOCK_MS as u64));
                    }
                }
            }
        }
        assert!(TimeBudget::fixed(u64::MAX, 0).hard <= Duration::from_millis(MAX_CLOCK_MS as u64));
    }
}
