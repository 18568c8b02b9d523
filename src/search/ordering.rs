//! Move ordering: TT move, good captures (SEE), promotions, killers, counter-move, history,
//! and losing captures last. Moves are scored once and picked lazily (selection sort).

use super::see::{see_ge, SEE_VALUE};
use crate::chess::{Board, Color, Move, PieceKind, MAX_MOVES};

/// Killer moves per ply: quiet moves that caused a cutoff in a sibling node.
pub const MAX_PLY: usize = 128;

/// Heuristic tables kept between searches (cleared by `ucinewgame`).
pub struct Heuristics {
    /// Two killers per ply.
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
    pub fn corrected_eval(&self, side: Color, pawn_key: u64, raw: i32) -> i32 {
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

/// Hands out moves in order of promise. One lives per ply in the searcher and is refilled at
/// every node, so that no node pays for zeroing or copying a full-capacity array.
pub struct MovePicker {
    moves: [Move; MAX_MOVES],
    scores: [i32; MAX_MOVES],
    len: usize,
    next: usize,
    /// A legal hash move handed out before any generation (a cutoff by it saves the rest).
    tt_move: Move,
    /// Whether the remaining moves are still to be generated and scored.
    pending: bool,
    killers: [Move; 2],
    counter: Move,
    context: [Option<usize>; 2],
}

impl Default for MovePicker {
    fn default() -> Self {
        MovePicker {
            moves: [Move::NULL; MAX_MOVES],
            scores: [0; MAX_MOVES],
            len: 0,
            next: 0,
            tt_move: Move::NULL,
            pending: false,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            context: [None; 2],
        }
    }
}

const TT_SCORE: i32 = 2_000_000_000;
const GOOD_CAPTURE: i32 = 1_000_000_000;
const KILLER_1: i32 = 900_000_000;
const KILLER_2: i32 = 899_000_000;
const COUNTER: i32 = 898_000_000;
const BAD_CAPTURE: i32 = -1_000_000_000;

fn mvv_lva(board: &Board, m: Move) -> i32 {
    let victim = if m.is_en_passant() {
        SEE_VALUE[0]
    } else {
        board
            .piece_at(m.to())
            .map_or(0, |p| SEE_VALUE[p.kind.index()])
    };
    let attacker = board
        .piece_at(m.from())
        .map_or(0, |p| p.kind.index() as i32);
    victim * 8 - attacker + m.promotion().map_or(0, |p| SEE_VALUE[p.index()])
}

impl MovePicker {
    /// Fills with every legal move of `board` (captures and promotions only when `noisy_only`).
    fn fill(&mut self, board: &Board, noisy_only: bool) {
        let mut n = 0;
        let moves = &mut self.moves;
        let mut push = |m: Move| {
            // No position has more than MAX_MOVES legal moves (see its proof).
            debug_assert!(n < MAX_MOVES);
            moves[n] = m;
            n += 1;
        };
        if noisy_only {
            board.for_each_noisy_move(&mut push);
        } else {
            board.for_each_legal_move(&mut push);
        }
        self.len = n;
        self.next = 0;
    }

    /// Prepares to hand out the legal moves of `board` at `ply`, given the TT move and the
    /// previous move: a legal TT move comes first, and only then are the others generated.
    /// Returns whether there is any legal move.
    pub fn init(
        &mut self,
        board: &Board,
        tt_move: Move,
        ply: usize,
        prev: Option<(usize, Move)>,
        context: [Option<usize>; 2],
        h: &Heuristics,
    ) -> bool {
        self.killers = h.killers[ply.min(MAX_PLY)];
        self.counter = prev.map_or(Move::NULL, |(piece, pm)| h.counter[piece][pm.to().index()]);
        self.context = context;
        self.len = 0;
        self.next = 0;
        if tt_move != Move::NULL && board.is_legal(tt_move) {
            self.tt_move = tt_move;
            self.pending = true;
            true
        } else {
            self.tt_move = Move::NULL;
            self.generate(board, h);
            self.len > 0
        }
    }

    /// Generates and scores every legal move but the TT move already handed out.
    fn generate(&mut self, board: &Board, h: &Heuristics) {
        self.pending = false;
        self.fill(board, false);
        let side = board.side_to_move();
        for i in 0..self.len {
            let m = self.moves[i];
            if m == self.tt_move {
                // Handed out already: park it at the front and start after it (the order of the
                // rest is then the same as if it had been picked from the full list).
                self.moves.swap(0, i);
                self.scores[i] = self.scores[0];
                self.next = 1;
                continue;
            }
            self.scores[i] = if m.is_noisy() {
                let base = mvv_lva(board, m);
                if m.promotion().is_some_and(|p| p != PieceKind::Queen) {
                    BAD_CAPTURE + base
                } else if see_ge(board, m, 0) {
                    GOOD_CAPTURE + base
                } else {
                    BAD_CAPTURE + base
                }
            } else if m == self.killers[0] {
                KILLER_1
            } else if m == self.killers[1] {
                KILLER_2
            } else if m == self.counter {
                COUNTER
            } else {
                // Every generated move starts on a piece of the side to move.
                let pt = board
                    .piece_at(m.from())
                    .map_or(0, |p| piece_to(p.index(), m));
                h.quiet_score(side, m, pt, self.context)
            };
        }
    }

    /// The next move of a main-search node and its ordering score.
    pub fn next_move(&mut self, board: &Board, h: &Heuristics) -> Option<(Move, i32)> {
        if self.pending {
            if self.next == 0 {
                // Marks the hash move as handed out; generation happens on the next call.
                self.next = 1;
                return Some((self.tt_move, TT_SCORE));
            }
            self.generate(board, h);
        }
        self.pick()
    }

    /// Loads the moves quiescence search plays: every evasion in check, else captures and
    /// promotions, ordered by MVV-LVA. Returns the number of moves.
    pub fn init_quiescence(&mut self, board: &Board, in_check: bool) -> usize {
        self.pending = false;
        self.fill(board, !in_check);
        for i in 0..self.len {
            self.scores[i] = mvv_lva(board, self.moves[i]);
        }
        self.len
    }

    /// The next best move and its ordering score.
    pub fn pick(&mut self) -> Option<(Move, i32)> {
        let n = self.len;
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let r = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(r)
    }

    /// Whether a score marks a losing capture.
    pub fn is_bad_capture(score: i32) -> bool {
        score < -500_000_000
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(h.corrected_eval(Color::White, a.pawn_key(), 10), 10);
        for _ in 0..200 {
            h.update_correction(Color::White, a.pawn_key(), 40, 10);
        }
        // Converges on the observed error, for this side and these pawns only.
        let c = h.corrected_eval(Color::White, a.pawn_key(), 10);
        assert!((45..=50).contains(&c), "{c}");
        assert_eq!(h.corrected_eval(Color::Black, a.pawn_key(), 10), 10);
        assert_eq!(h.corrected_eval(Color::White, b.pawn_key(), 10), 10);
        // A wild search result moves it by no more than the bound.
        for _ in 0..200 {
            h.update_correction(Color::White, a.pawn_key(), -5000, 10);
        }
        assert!(h.corrected_eval(Color::White, a.pawn_key(), 0) >= -CORRECTION_MAX);
    }
}
