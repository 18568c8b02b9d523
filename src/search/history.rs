//! What the search learns about moves and evaluations as it goes, per thread: killers, counter
//! moves, butterfly and continuation history, and the correction history of the static
//! evaluation by pawn structure.

use super::score::{Score, MAX_PLY};
use crate::chess::{Color, Move};

/// Heuristic tables kept between searches (cleared by `ucinewgame`).
pub struct Heuristics {
    /// Two killer moves per ply: quiet moves that caused a cutoff in a sibling node.
    pub killers: [[Move; 2]; MAX_PLY + 8],
    /// History score by side, from and to square.
    pub history: Box<[[[i32; 64]; 64]; 2]>,
    /// The quiet reply that refuted a move, by the refuted move's piece and to-square.
    pub counter: Box<[[Move; 64]; 12]>,
    /// Continuation history: how well a quiet move (piece, to) did after an earlier move
    /// (piece, to), one and two plies back sharing the table.
    pub continuation: Box<[[i32; PIECE_TO]]>,
    /// Correction history: by side to move and pawn structure, the running average of how far
    /// searches found the static evaluation off, in 1/`CORRECTION_GRAIN` centipawns.
    pub correction: Box<[[i32; CORRECTION_SIZE]; 2]>,
}

/// Entries per side in the correction table (indexed by the top bits of the pawn key).
pub const CORRECTION_SIZE: usize = 1 << 14;
/// Fixed-point scale of correction entries.
const CORRECTION_GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const CORRECTION_MAX: i32 = 64;

/// Number of (piece, to-square) pairs, the index space of continuation history.
pub const PIECE_TO: usize = 12 * 64;

/// The continuation-history index of a move made by `piece` (its `Piece::index`).
pub fn piece_to(piece: usize, m: Move) -> usize {
    piece * 64 + m.to().index()
}

/// The history bound: scores stay within ±HISTORY_MAX by the gravity formula.
pub const HISTORY_MAX: i32 = 16_384;

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics {
            killers: [[Move::NULL; 2]; MAX_PLY + 8],
            history: Box::new([[[0; 64]; 64]; 2]),
            counter: Box::new([[Move::NULL; 64]; 12]),
            // Built on the heap: 2.3 MB would overflow a thread's stack.
            continuation: vec![[0; PIECE_TO]; PIECE_TO].into_boxed_slice(),
            correction: Box::new([[0; CORRECTION_SIZE]; 2]),
        }
    }
}

impl Heuristics {
    /// Clears everything.
    pub fn clear(&mut self) {
        *self = Heuristics::default();
    }

    /// Moves history toward `bonus` (positive for a cutoff, negative for a failed quiet).
    pub fn update_history(&mut self, side: Color, m: Move, bonus: i32) {
        let h = &mut self.history[side.index()][m.from().index()][m.to().index()];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *h += b - *h * b.abs() / HISTORY_MAX;
    }

    /// The history score of a quiet move.
    pub fn history(&self, side: Color, m: Move) -> i32 {
        self.history[side.index()][m.from().index()][m.to().index()]
    }

    /// The combined history of a quiet move: butterfly history plus the continuation histories
    /// after the moves one and two plies back (`context`, as `piece_to` indexes), when known.
    pub fn quiet_score(&self, side: Color, m: Move, pt: usize, context: [Option<usize>; 2]) -> i32 {
        let mut s = self.history(side, m);
        for c in context.into_iter().flatten() {
            s += self.continuation[c][pt];
        }
        s
    }

    /// Rewards (positive `bonus`) or punishes a quiet move in every history table it belongs to.
    pub fn update_quiet(
        &mut self,
        side: Color,
        m: Move,
        pt: usize,
        context: [Option<usize>; 2],
        bonus: i32,
    ) {
        self.update_history(side, m, bonus);
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        for c in context.into_iter().flatten() {
            let h = &mut self.continuation[c][pt];
            *h += b - *h * b.abs() / HISTORY_MAX;
        }
    }

    fn correction_slot(side: Color, pawn_key: u64) -> (usize, usize) {
        (side.index(), (pawn_key >> 50) as usize)
    }

    /// The static evaluation `raw` corrected by what searches of positions with the same pawns
    /// found.
    pub fn corrected_eval(&self, side: Color, pawn_key: u64, raw: Score) -> Score {
        let (s, i) = Self::correction_slot(side, pawn_key);
        raw + self.correction[s][i] / CORRECTION_GRAIN
    }

    /// Moves the correction for this pawn structure toward `diff` (search result minus raw
    /// static evaluation), the more the deeper the search.
    pub fn update_correction(&mut self, side: Color, pawn_key: u64, diff: i32, depth: i32) {
        let (s, i) = Self::correction_slot(side, pawn_key);
        let weight = (depth + 1).clamp(1, 16);
        let target = diff.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
        let e = &mut self.correction[s][i];
        *e = (*e * (256 - weight) + target * weight) / 256;
    }

    /// Records a killer at `ply`.
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Board;

    #[test]
    fn continuation_history_counts_only_in_its_context() {
        let b = Board::startpos();
        let nf3 = b.parse_uci("g1f3").unwrap();
        let e4 = b.parse_uci("e2e4").unwrap();
        let white_knight = b.piece_at(nf3.from()).unwrap().index();
        let pt = piece_to(white_knight, nf3);
        let (after_e5, after_d5) = (100, 200);
        let mut h = Heuristics::default();
        for _ in 0..50 {
            h.update_quiet(Color::White, nf3, pt, [Some(after_e5), None], 400);
        }
        let in_context = h.quiet_score(Color::White, nf3, pt, [Some(after_e5), None]);
        let elsewhere = h.quiet_score(Color::White, nf3, pt, [Some(after_d5), None]);
        // Both see the butterfly part; only the right context adds the continuation part.
        assert!(in_context > elsewhere && elsewhere > 0);
        // Gravity keeps every table within its bound however often it is fed.
        assert!(in_context <= 2 * HISTORY_MAX);
        assert_eq!(
            h.quiet_score(Color::White, e4, piece_to(0, e4), [None, None]),
            0
        );
        // A failed quiet loses what it had.
        for _ in 0..200 {
            h.update_quiet(Color::White, nf3, pt, [Some(after_e5), None], -400);
        }
        assert!(h.quiet_score(Color::White, nf3, pt, [Some(after_e5), None]) < 0);
    }

    #[test]
    fn correction_learns_the_eval_error_of_one_pawn_structure() {
        let mut h = Heuristics::default();
        let a = Board::startpos();
        let b = Board::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
            .unwrap();
        assert_eq!(
            h.corrected_eval(Color::White, a.pawn_key(), Score(10)),
            Score(10)
        );
        for _ in 0..200 {
            h.update_correction(Color::White, a.pawn_key(), 40, 10);
        }
        // Converges on the observed error, for this side and these pawns only.
        let c = h.corrected_eval(Color::White, a.pawn_key(), Score(10)).0;
        assert!((45..=50).contains(&c), "{c}");
        assert_eq!(
            h.corrected_eval(Color::Black, a.pawn_key(), Score(10)),
            Score(10)
        );
        assert_eq!(
            h.corrected_eval(Color::White, b.pawn_key(), Score(10)),
            Score(10)
        );
        // A wild search result moves it by no more than the bound.
        for _ in 0..200 {
            h.update_correction(Color::White, a.pawn_key(), -5000, 10);
        }
        assert!(h.corrected_eval(Color::White, a.pawn_key(), Score(0)) >= Score(-CORRECTION_MAX));
    }
}
