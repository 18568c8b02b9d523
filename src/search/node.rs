//! The node search: principal-variation alpha-beta with its pruning, reduction and extension
//! steps, each named where it happens.

use super::history::piece_to;
use super::picker::MovePicker;
use super::score::{Score, INFINITY, MATE, MATE_BOUND};
use super::see::see_ge;
use super::tt::Bound;
use super::worker::Worker;
use super::{history::MAX_PLY, Report};
use crate::chess::{insufficient_material, Board, Move};
use std::time::Duration;

impl Worker<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        b: &Board,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
        null_ok: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        // Quiescence handles the horizon, check evasions included; extending checks here instead
        // would let a chain of checks keep the depth from ever falling.
        if depth <= 0 {
            return self.qsearch(b, alpha, beta, ply);
        }
        let in_check = b.in_check();
        self.nodes += 1;
        if self.check_stop() {
            return 0;
        }
        let root = ply == 0;
        self.seldepth = self.seldepth.max(ply);

        if !root {
            if self.is_repetition(b) || insufficient_material(b) {
                return 0;
            }
            // The fifty-move rule, unless this move mated (mate takes precedence).
            if b.halfmove_clock() >= 100 && (!in_check || b.has_legal_move()) {
                return 0;
            }
            if ply >= MAX_PLY {
                return if in_check { 0 } else { self.evaluate(b, ply) };
            }
            // Mate-distance pruning: no score here can beat a shorter mate already found.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Check extension: a side in check is searched one ply deeper.
        if in_check && !root {
            depth += 1;
        }

        // A singular-extension search must not take (or leave) the answer of the full node.
        let skip = self.singular[ply];
        let hit = if skip == Move::NULL {
            self.tt.probe(b.hash(), ply)
        } else {
            None
        };
        let mut tt_move = Move::NULL;
        if let Some(h) = hit {
            // No legality check needed: the move only orders the generated legal moves, and an
            // entry matches on the full 64-bit key.
            tt_move = h.mv;
            if !pv_node && h.depth >= depth && h.cuts(alpha, beta) {
                return h.score.0;
            }
        }

        // The TT keeps the raw evaluation; the correction is applied fresh each time.
        let pawn_key = b.pawn_key();
        let (raw_eval, static_eval) = if in_check {
            (-INFINITY, -INFINITY)
        } else {
            let raw = match hit {
                Some(h) => h.eval,
                None => self.evaluate(b, ply),
            };
            let corrected = self
                .t
                .heuristics
                .corrected_eval(b.side_to_move(), pawn_key, raw);
            (raw, corrected)
        };
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];

        if !pv_node && !in_check && skip == Move::NULL && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta at low depth, assume it holds.
            let margin = 75 * depth - if improving { 50 } else { 0 };
            if depth <= 7 && static_eval - margin >= beta {
                return static_eval;
            }
            // Null move: if passing still beats beta, a real move will too.
            if null_ok
                && depth >= 3
                && static_eval >= beta
                && b.has_non_pawn_material(b.side_to_move())
            {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                let nb = b.make_null_move();
                self.t.eval.push_null(ply + 1);
                self.path.push(b.hash());
                self.prev[ply] = None;
                let score = -self.negamax(
                    &nb,
                    depth - r,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                    !cut_node,
                    false,
                );
                self.path.pop();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Internal iterative reduction: a PV or expected cut node without a hash move is searched
        // a little shallower (an all-node gains nothing from it: every move must be refuted).
        if depth >= 4 && tt_move == Move::NULL && skip == Move::NULL && (pv_node || cut_node) {
            depth -= 1;
        }

        // Singular extension: when the hash move beats every alternative by a margin (a search
        // without it fails low), it is the only move here and is searched one ply deeper. When even
        // the alternatives beat beta, several moves refute the parent: cut at once (multi-cut).
        let mut singular_move = Move::NULL;
        if let Some(h) = hit {
            // Not in check (that node is already extended), and not so deep in an extended line
            // that extensions could feed on each other without end.
            if !root
                && !in_check
                && depth >= 8
                && (ply as i32) < 2 * self.root_depth
                && h.mv != Move::NULL
                && h.depth >= depth - 3
                && h.bound != Bound::Upper
                && h.score.0.abs() < MATE_BOUND
                && b.is_legal(h.mv)
            {
                let s_beta = h.score.0 - 2 * depth;
                self.singular[ply] = h.mv;
                let score = self.negamax(
                    b,
                    (depth - 1) / 2,
                    s_beta - 1,
                    s_beta,
                    ply,
                    false,
                    cut_node,
                    false,
                );
                self.singular[ply] = Move::NULL;
                if self.stopped {
                    return 0;
                }
                if score < s_beta {
                    singular_move = h.mv;
                } else if s_beta >= beta {
                    return s_beta;
                }
            }
        }

        let prev = if ply > 0 { self.prev[ply - 1] } else { None };
        let context = self.context(ply);
        if !self.pickers[ply].init(b, tt_move, ply, prev, context, &self.t.heuristics) {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }

        let side = b.side_to_move();
        let orig_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        let mut quiets: [(Move, usize); 64] = [(Move::NULL, 0); 64];
        let mut n_quiets = 0usize;

        while let Some((m, order)) = self.pickers[ply].next_move(b, &self.t.heuristics) {
            if m == skip
                || root
                    && (self.excluded.contains(&m)
                        || (!self.limits.searchmoves.is_empty()
                            && !self.limits.searchmoves.contains(&m)))
            {
                continue;
            }
            let quiet = !m.is_noisy();
            // A generated move always starts on one of the mover's pieces.
            let pt = b.piece_at(m.from()).map_or(0, |p| piece_to(p.index(), m));
            let nb = b.make_move(m);
            self.t.eval.push(ply + 1, b, m);
            let gives_check = nb.in_check();
            // Prune hopeless moves at low depth, but never a check: sacrifices that check are
            // where tactics live.
            if !root && best > -MATE_BOUND && !in_check && !gives_check {
                if quiet && !pv_node && depth <= 8 {
                    let lmp = (3 + depth * depth) as usize / if improving { 1 } else { 2 };
                    if searched >= lmp {
                        continue;
                    }
                    if static_eval + 100 + 90 * depth <= alpha {
                        continue;
                    }
                }
                if depth <= 8 {
                    let margin = if quiet { -40 * depth } else { -90 * depth };
                    if !see_ge(b, m, margin) {
                        continue;
                    }
                }
            }
            if root && self.elapsed() > Duration::from_millis(3000) {
                let r = Report::CurrMove {
                    depth: self.root_depth as u32,
                    mv: m,
                    number: searched + 1,
                };
                (self.report)(&r);
            }
            self.path.push(b.hash());
            self.prev[ply] = nb.piece_at(m.to()).map(|p| (p.index(), m));
            let new_depth = depth - 1 + i32::from(m == singular_move);
            let mut score;
            if searched == 0 {
                score = -self.negamax(
                    &nb,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    pv_node,
                    !pv_node && !cut_node,
                    true,
                );
            } else {
                let mut r = 0;
                if depth >= 3
                    && searched >= 2
                    && !(pv_node && gives_check)
                    && (quiet || (!pv_node && MovePicker::is_bad_capture(order)))
                {
                    r = self.lmr[(depth as usize).min(63)][searched.min(63)];
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if cut_node {
                        r += 1;
                    }
                    if gives_check {
                        r -= 1;
                    }
                    if quiet {
                        r -= self.t.heuristics.quiet_score(side, m, pt, context) / 8000;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.negamax(
                    &nb,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    true,
                    true,
                );
                if score > alpha && r > 0 {
                    score = -self.negamax(
                        &nb,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                        !cut_node,
                        true,
                    );
                }
                if score > alpha && score < beta && pv_node {
                    score =
                        -self.negamax(&nb, new_depth, -beta, -alpha, ply + 1, true, false, true);
                }
            }
            self.path.pop();
            if self.stopped {
                return 0;
            }
            searched += 1;

            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    // Once the root has a move, limits may stop even the first iteration.
                    if root {
                        self.can_stop = true;
                        self.root_score = score;
                    }
                    if alpha >= beta {
                        if quiet {
                            let h = &mut self.t.heuristics;
                            h.add_killer(ply, m);
                            let bonus = (depth * depth * 8).min(1600);
                            h.update_quiet(side, m, pt, context, bonus);
                            for &(q, qpt) in &quiets[..n_quiets] {
                                h.update_quiet(side, q, qpt, context, -bonus);
                            }
                            if let Some((piece, pm)) = prev {
                                h.counter[piece][pm.to().index()] = m;
                            }
                        }
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets.len() {
                quiets[n_quiets] = (m, pt);
                n_quiets += 1;
            }
        }

        if searched == 0 {
            // Every move was pruned (or excluded at the root): fail low with what we know.
            return if root { -INFINITY } else { alpha };
        }
        if skip != Move::NULL {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // Learn how far off the static evaluation was, from quiet results whose bound says on
        // which side of it the truth lies.
        if !in_check
            && !best_move.is_noisy()
            && best.abs() < MATE_BOUND
            && (bound != Bound::Lower || best > static_eval)
            && (bound != Bound::Upper || best < static_eval)
        {
            self.t
                .heuristics
                .update_correction(side, pawn_key, best - raw_eval, depth);
        }
        self.tt.store(
            b.hash(),
            best_move,
            Score(best),
            raw_eval,
            depth,
            bound,
            ply,
        );
        best
    }
}
