//! Quiescence search: at the horizon, only captures and promotions (or every evasion when in
//! check) are searched, so that the static evaluation is never taken in the middle of an exchange.

use super::params::qs_delta_margin;
use super::score::Score;
use super::score::MAX_PLY;
use super::see::{see_ge, SEE_VALUE};
use super::tt::Bound;
use super::worker::Worker;
use crate::chess::{insufficient_material, Board, Move, PieceKind};

impl Worker<'_> {
    pub(super) fn qsearch(
        &mut self,
        b: &Board,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.check_stop() {
            return Score::DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = b.in_check();
        if ply >= MAX_PLY {
            return if in_check {
                Score::DRAW
            } else {
                self.evaluate(b, ply)
            };
        }
        if insufficient_material(b) {
            return Score::DRAW;
        }

        let hit = self.tt.probe(b.hash(), ply);
        if let Some(h) = hit {
            // A draw-scored entry does not cut (`TtHit::cuts` says why).
            if h.cuts(alpha, beta) {
                return h.score;
            }
        }

        // The TT keeps the raw evaluation (0 in check, where there is none).
        let (raw_eval, stand_pat) = if in_check {
            (Score::DRAW, -Score::INFINITE)
        } else {
            let raw = match hit {
                Some(h) => h.eval,
                None => self.evaluate(b, ply),
            };
            let stand = self
                .t
                .heuristics
                .corrected_eval(b.side_to_move(), b.pawn_key(), raw);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            (raw, stand)
        };
        if self.pickers[ply].init_quiescence(b, in_check) == 0 && in_check {
            return Score::mated_in(ply);
        }
        let mut best = stand_pat;
        let mut best_move = Move::NULL;
        while let Some((m, _)) = self.pickers[ply].pick() {
            if !in_check {
                if m.promotion().is_some_and(|p| p != PieceKind::Queen) {
                    continue;
                }
                // Delta pruning: even winning this piece cannot lift us to alpha.
                let gain = if m.is_en_passant() {
                    SEE_VALUE[0]
                } else {
                    b.piece_at(m.to()).map_or(0, |p| SEE_VALUE[p.kind.index()])
                };
                if !m.is_promotion() && stand_pat + gain + qs_delta_margin() <= alpha {
                    continue;
                }
                if !see_ge(b, m, 0) {
                    continue;
                }
            }
            let nb = b.make_move(m);
            self.t.eval.push(ply + 1, b, m);
            let score = -self.qsearch(&nb, -beta, -alpha, ply + 1);
            if self.stopped {
                return Score::DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.tt
            .store(b.hash(), best_move, best, raw_eval, 0, bound, ply);
        best
    }
}
