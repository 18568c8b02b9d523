//! Time management: a soft bound (don't start another iteration) and a hard bound (stop now).

use std::time::Duration;

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
        let overhead = overhead_ms as i64;
        let left = (clock.time_ms - overhead).max(1);
        let inc = clock.inc_ms.max(0);
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
        let t = Duration::from_millis(movetime_ms.saturating_sub(overhead_ms).max(1));
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
}
