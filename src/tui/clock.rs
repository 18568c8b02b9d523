//! Chess clocks for the full-screen game: both sides' time, the running side, increments and
//! flag falls. As on lichess, nothing runs before the first move.

use super::game::TimeControl;
use crate::chess::Color;
use std::time::Instant;

/// Both players' clocks.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// The settings: time for the game and increment per move.
    pub control: TimeControl,
    /// Time left when each clock last stopped, milliseconds (White, Black); may go below 0.
    left_ms: [i64; 2],
    /// The clock that is running, and since when.
    running: Option<(Color, Instant)>,
    /// Moves pressed so far: the clocks start after each side's first move.
    presses: u32,
}

impl Clocks {
    /// Fresh clocks, both at the control's full time, neither running.
    pub fn new(control: TimeControl) -> Clocks {
        let full = control.base_ms as i64;
        Clocks::with_left(control, full, full)
    }

    /// Clocks with the given time left (a resumed game), neither running.
    pub fn with_left(control: TimeControl, white_ms: i64, black_ms: i64) -> Clocks {
        Clocks {
            control,
            left_ms: [white_ms, black_ms],
            running: None,
            presses: 0,
        }
    }

    /// Time left on `color`'s clock at `now`, milliseconds (negative after a flag fall).
    pub fn left_ms(&self, color: Color, now: Instant) -> i64 {
        let stored = self.left_ms[color.index()];
        match self.running {
            Some((c, since)) if c == color => {
                stored - now.saturating_duration_since(since).as_millis() as i64
            }
            _ => stored,
        }
    }

    /// Whose clock runs, if any.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// `mover` has moved at `now`: their clock stops (with the increment added) and the other
    /// side's starts. As on lichess, neither side's first move is timed: the clocks start when
    /// both have moved once.
    pub fn press(&mut self, mover: Color, now: Instant) {
        self.presses += 1;
        if let Some((c, _)) = self.running {
            if c == mover {
                self.left_ms[c.index()] = self.left_ms(c, now) + self.control.inc_ms as i64;
            }
        }
        self.running = (self.presses >= 2).then_some((!mover, now));
    }

    /// A game resumed or taken back to `plies` half-moves: the clocks count as started once
    /// both sides have moved.
    pub fn set_presses(&mut self, plies: usize) {
        self.presses = plies.min(2) as u32;
    }

    /// Stops whichever clock runs (game over, or leaving), charging its time.
    pub fn stop(&mut self, now: Instant) {
        if let Some((c, _)) = self.running {
            self.left_ms[c.index()] = self.left_ms(c, now);
        }
        self.running = None;
    }

    /// Starts `color`'s clock at `now` if none runs (after an undo, or on resuming a game).
    pub fn resume(&mut self, color: Color, now: Instant) {
        if self.running.is_none() {
            self.running = Some((color, now));
        }
    }

    /// The side whose time has run out at `now`, if any.
    pub fn flagged(&self, now: Instant) -> Option<Color> {
        self.running().filter(|&c| self.left_ms(c, now) <= 0)
    }

    /// Both clocks' time left at `now`, clamped at zero, for the saved game.
    pub fn snapshot_ms(&self, now: Instant) -> (u64, u64) {
        let w = self.left_ms(Color::White, now).max(0) as u64;
        let b = self.left_ms(Color::Black, now).max(0) as u64;
        (w, b)
    }
}

/// A clock for people: `4:59`, `0:09.4` under ten seconds, `1:02:03` over an hour.
pub fn format_clock(ms: i64) -> String {
    let ms = ms.max(0);
    let total_s = ms / 1000;
    let (h, m, s) = (total_s / 3600, (total_s / 60) % 60, total_s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else if ms < 10_000 {
        format!("0:{s:02}.{}", (ms % 1000) / 100)
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn tc(base_s: u64, inc_s: u64) -> TimeControl {
        TimeControl {
            base_ms: base_s * 1000,
            inc_ms: inc_s * 1000,
        }
    }

    #[test]
    fn clocks_start_after_both_first_moves_and_increments_follow_moves() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let mut c = Clocks::new(tc(60, 2));
        assert_eq!(c.running(), None);
        // Neither first move is timed (White thinks 5 s, Black 4 s).
        c.press(Color::White, at(5_000));
        assert_eq!(c.running(), None);
        c.press(Color::Black, at(9_000));
        assert_eq!(c.left_ms(Color::Black, at(9_000)), 60_000);
        assert_eq!(c.running(), Some(Color::White));
        // White takes 3 s, gets 2 s back.
        assert_eq!(c.left_ms(Color::White, at(12_000)), 57_000);
        c.press(Color::White, at(12_000));
        assert_eq!(c.left_ms(Color::White, at(20_000)), 59_000);
        // Black's runs now: 60 s from 12 s on runs out at 72 s.
        assert_eq!(c.flagged(at(71_999)), None);
        assert_eq!(c.flagged(at(72_000)), Some(Color::Black));
        c.stop(at(72_000));
        assert_eq!(c.running(), None);
        assert_eq!(c.snapshot_ms(at(99_000)), (59_000, 0));
    }

    #[test]
    fn clocks_read_as_people_read_them() {
        assert_eq!(format_clock(300_000), "5:00");
        assert_eq!(format_clock(59_999), "0:59");
        assert_eq!(format_clock(9_450), "0:09.4");
        assert_eq!(format_clock(-5), "0:00.0");
        assert_eq!(format_clock(3_723_000), "1:02:03");
    }
}
