//! Time management: a soft bound (don't start another iteration) and a hard bound (stop now).

use std::time::Duration;

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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(TimeBudget::fixed(100, 10).hard, Duration::from_millis(90));
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
