//! The move picker: hands out a node's moves in order of promise, in stages: the hash move
//! (before anything is generated), good captures and queen promotions by MVV-LVA, the two
//! killers, the counter move, quiet moves by history, and last the losing captures and
//! under-promotions. Scores are given once and picked lazily (selection sort).

use super::history::{piece_to, Heuristics};
use super::score::MAX_PLY;
use super::see::{see_ge, SEE_VALUE};
use crate::chess::{Board, Move, PieceKind, MAX_MOVES};

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
