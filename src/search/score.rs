//! `Score`: centipawns, with mate scores encoded by distance in plies.

use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub};

/// A search score in centipawns from the side to move's view. Scores beyond
/// `MATE_BOUND` encode a forced mate: `MATE - n` is mate in `n` plies from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

/// The deepest ply the search reaches (iterative deepening stops below it, the quiescence
/// search returns the static evaluation at it); the per-ply tables are sized by it.
pub const MAX_PLY: usize = 128;

/// The score of delivering mate now.
pub const MATE: i32 = 32_000;
/// Scores at or above this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// A tablebase win at the root: beyond every evaluation, below every mate (as Stockfish's
/// tablebase scores are); `TB_WIN - n` is a tablebase win reached `n` plies from the root.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at or above this (in absolute value) are tablebase wins or mates: decided.
pub const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// Larger than any real score: the initial window bound.
pub const INFINITY: i32 = MATE + 1;

impl Score {
    /// A draw.
    pub const DRAW: Score = Score(0);
    /// Beyond every real score: the bounds of a full window.
    pub const INFINITE: Score = Score(INFINITY);
    /// The smallest score that is a win by mate (its negation the largest loss by mate).
    pub const MATE_BOUND: Score = Score(MATE_BOUND);

    /// The score of mating in `ply` plies (from the root).
    pub const fn mate_in(ply: usize) -> Score {
        Score(MATE - ply as i32)
    }

    /// The score of being mated in `ply` plies.
    pub const fn mated_in(ply: usize) -> Score {
        Score(-MATE + ply as i32)
    }

    /// A tablebase win reached `ply` plies from the root.
    pub const fn tb_win_in(ply: usize) -> Score {
        Score(TB_WIN - ply as i32)
    }

    /// A tablebase loss reached `ply` plies from the root.
    pub const fn tb_loss_in(ply: usize) -> Score {
        Score(-TB_WIN + ply as i32)
    }

    /// Whether the game is decided: a forced mate or a tablebase win or loss, for either side.
    pub const fn is_decisive(self) -> bool {
        self.0.abs() >= TB_BOUND
    }

    /// Whether this is a forced mate for either side.
    pub const fn is_mate(self) -> bool {
        self.0.abs() >= MATE_BOUND
    }

    /// Mate in N full moves (positive: we mate; negative: we are mated), if a mate score.
    pub const fn mate_moves(self) -> Option<i32> {
        if !self.is_mate() {
            None
        } else if self.0 > 0 {
            Some((MATE - self.0 + 1) / 2)
        } else {
            Some(-(MATE + self.0) / 2)
        }
    }

    /// Converts a root-relative mate or tablebase score to one relative to the node at `ply`,
    /// for storing.
    pub const fn to_tt(self, ply: usize) -> Score {
        if self.0 >= TB_BOUND {
            Score(self.0 + ply as i32)
        } else if self.0 <= -TB_BOUND {
            Score(self.0 - ply as i32)
        } else {
            self
        }
    }

    /// Converts a node-relative stored score back to root-relative at `ply`.
    pub const fn from_tt(self, ply: usize) -> Score {
        if self.0 >= TB_BOUND {
            Score(self.0 - ply as i32)
        } else if self.0 <= -TB_BOUND {
            Score(self.0 + ply as i32)
        } else {
            self
        }
    }
}

/// Negamax: the score of the same position from the other side's view.
impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

/// A score moved by a margin in centipawns.
impl Add<i32> for Score {
    type Output = Score;
    #[inline]
    fn add(self, margin: i32) -> Score {
        Score(self.0 + margin)
    }
}

/// A score moved down by a margin in centipawns.
impl Sub<i32> for Score {
    type Output = Score;
    #[inline]
    fn sub(self, margin: i32) -> Score {
        Score(self.0 - margin)
    }
}

/// How far apart two scores are, in centipawns.
impl Sub<Score> for Score {
    type Output = i32;
    #[inline]
    fn sub(self, other: Score) -> i32 {
        self.0 - other.0
    }
}

impl AddAssign<i32> for Score {
    #[inline]
    fn add_assign(&mut self, margin: i32) {
        self.0 += margin;
    }
}

/// The score in UCI's syntax (`cp 34`, `mate 3`, `mate -2`): `score.uci()`.
#[derive(Clone, Copy, Debug)]
pub struct Uci(Score);

impl Score {
    /// The score written as UCI's `info score` wants it: `cp 34`, `mate 3` or `mate -2`.
    pub fn uci(self) -> Uci {
        Uci(self)
    }
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.mate_moves() {
            Some(n) => write!(f, "mate {n}"),
            None => write!(f, "cp {}", self.0 .0),
        }
    }
}

/// Writes the score as people read it (lichess's form), from the side to move's view: pawns
/// with two decimals and a sign (`+0.34`, `-1.50`), or `#3` / `#-2` for a mate in moves.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_moves() {
            Some(n) => write!(f, "#{n}"),
            None => f.write_str(&crate::format::pawns(self.0)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_encoding() {
        assert_eq!(Score::mate_in(1).mate_moves(), Some(1));
        assert_eq!(Score::mate_in(3).mate_moves(), Some(2));
        assert_eq!(Score::mated_in(2).mate_moves(), Some(-1));
        assert_eq!(Score::mated_in(0).mate_moves(), Some(0));
        assert_eq!(Score(35).mate_moves(), None);
        let s = Score::mate_in(7);
        assert_eq!(s.to_tt(3).from_tt(3), s);
        assert_eq!(s.uci().to_string(), "mate 4");
        assert_eq!(Score(-12).uci().to_string(), "cp -12");
        assert_eq!(Score::mated_in(2).uci().to_string(), "mate -1");
        // People read pawns and lichess's mate sign, not UCI's syntax.
        assert_eq!(s.to_string(), "#4");
        assert_eq!(Score::mated_in(2).to_string(), "#-1");
        assert_eq!(Score(-12).to_string(), "-0.12");
        assert_eq!(Score(150).to_string(), "+1.50");
        // Tablebase wins are decided, not mates, and keep their distance through the table.
        let tb = Score::tb_win_in(9);
        assert!(tb.is_decisive() && !tb.is_mate() && tb < Score::mate_in(100));
        assert_eq!(tb.to_tt(4).from_tt(6), Score::tb_win_in(11));
        assert!(!Score(20_000).is_decisive());
    }
}
