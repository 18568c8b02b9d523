//! The node search: principal-variation alpha-beta. Its steps before the move loop (draws,
//! mate distance, the hash table, reverse futility, null move, singular extension) and in it
//! (move pruning, late-move reductions, the history update on a cutoff) are named helpers.

use super::history::piece_to;
use super::params::*;
use super::picker::MovePicker;
use super::score::Score;
use super::score::MAX_PLY;
use super::see::see_ge;
use super::tt::{Bound, TtHit};
use super::types::Report;
use super::worker::Worker;
use crate::chess::{insufficient_material, Board, Move};
use std::time::Duration;

/// What the table probe decided.
enum Probe {
    /// The node ends with this score.
    Cut(Score),
    /// Search on, with the table's entry if it had one.
    Go(Option<TtHit>),
}

/// What a node knows about itself once it has probed the table and evaluated.
struct NodeState {
    in_check: bool,
    pv_node: bool,
    cut_node: bool,
    /// The static evaluation before correction (what the table keeps).
    raw_eval: Score,
    /// The corrected static evaluation (`-INFINITE` in check, where there is none).
    static_eval: Score,
    /// Whether the static evaluation is better than two plies ago.
    improving: bool,
}

impl Worker<'_> {
    /// Searches `b` at `ply` to `depth` within (`alpha`, `beta`). `cut_node`: expected to fail
    /// high; `null_ok`: a null move may be tried (not twice in a row).
    ///
    /// Longer than the other functions on purpose: the move loop stays whole, since each step
    /// of it reads and updates the node's running state (alpha, the best move, the quiet moves
    /// tried, the moves searched), which helpers would have to pass back and forth. The steps
    /// before the loop and the re-search ladder inside it are helpers.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        b: &Board,
        mut depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
        null_ok: bool,
    ) -> Score {
        self.pv_len[ply] = ply;
        // Quiescence handles the horizon, check evasions included; extending checks here instead
        // would let a chain of checks keep the depth from ever falling.
        if depth <= 0 {
            return self.qsearch(b, alpha, beta, ply);
        }
        let in_check = b.in_check();
        self.nodes += 1;
        if self.check_stop() {
            return Score::DRAW;
        }
        let root = ply == 0;
        self.seldepth = self.seldepth.max(ply);

        if !root {
            if let Some(score) = self.draw_or_horizon(b, ply, in_check) {
                return score;
            }
            // Mate-distance pruning: no score here can beat a shorter mate already found.
            alpha = alpha.max(Score::mated_in(ply));
            beta = beta.min(Score::mate_in(ply + 1));
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
        let hit = match self.probe_tables(b, depth, alpha, beta, ply, pv_node, skip) {
            Probe::Cut(score) => return score,
            Probe::Go(hit) => hit,
        };
        // No legality check needed: the move only orders the generated legal moves, and an
        // entry matches on the full 64-bit key.
        let tt_move = hit.map_or(Move::NULL, |h| h.mv);

        let node = self.node_state(b, ply, hit, in_check, pv_node, cut_node);

        let singular_move = match self.before_moves(b, &node, hit, &mut depth, beta, ply, null_ok) {
            Ok(m) => m,
            Err(score) => return score,
        };

        let prev = if ply > 0 { self.prev[ply - 1] } else { None };
        let context = self.context(ply);
        if !self.pickers[ply].init(b, tt_move, ply, prev, context, &self.t.heuristics) {
            return if in_check {
                Score::mated_in(ply)
            } else {
                Score::DRAW
            };
        }

        let side = b.side_to_move();
        let orig_alpha = alpha;
        let mut best = -Score::INFINITE;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        let mut quiets: [(Move, usize); 64] = [(Move::NULL, 0); 64];
        let mut n_quiets = 0usize;

        while let Some((m, order)) = self.pickers[ply].next_move(b, &self.t.heuristics) {
            if m == skip || root && self.not_searched_at_root(m) {
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
            if !root
                && best > -Score::MATE_BOUND
                && !in_check
                && !gives_check
                && self.prune_move(b, m, &node, depth, alpha, searched)
            {
                continue;
            }
            if root && self.elapsed() > Duration::from_millis(3000) {
                self.report_current_move(m, searched + 1);
            }
            self.path.push(b.hash());
            self.prev[ply] = nb.piece_at(m.to()).map(|p| (p.index(), m));
            let new_depth = depth - 1 + i32::from(m == singular_move);
            let r = if searched > 0
                && depth >= lmr_min_depth()
                && searched >= lmr_min_moves() as usize
                && !(pv_node && gives_check)
                && (quiet || (!pv_node && MovePicker::is_bad_capture(order)))
            {
                let history = if quiet {
                    self.t.heuristics.quiet_score(side, m, pt, context)
                } else {
                    0
                };
                self.reduction(&node, depth, new_depth, searched, gives_check, history)
            } else {
                0
            };
            let nodes_before = self.nodes;
            let score = self.search_move(&nb, new_depth, r, alpha, beta, ply, &node, searched == 0);
            self.path.pop();
            if root {
                self.add_root_nodes(m, self.nodes - nodes_before);
            }
            if self.stopped {
                return Score::DRAW;
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
                    // Once the root has a move in every line asked for, limits may stop even
                    // the first iteration (before that, they would cut the MultiPV lines short).
                    if root {
                        self.can_stop |= self.excluded.len() + 1 >= self.limits.multipv;
                        self.root_score = score;
                    }
                    if alpha >= beta {
                        if quiet {
                            self.reward_cutoff(side, ply, depth, (m, pt), &quiets[..n_quiets]);
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
            return if root { -Score::INFINITE } else { alpha };
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
        self.learn_and_store(b, &node, best, best_move, bound, depth, ply);
        best
    }

    /// The node's steps between the table and the move loop, at nodes that may take them:
    /// reverse futility and null-move pruning (not at PV nodes, in check, in a singular search
    /// or with a decisive beta), internal iterative reduction of `depth`, and the singular
    /// extension test. `Ok` with the move to extend (or `Move::NULL`), `Err` with the score
    /// that ends the node.
    #[allow(clippy::too_many_arguments)]
    fn before_moves(
        &mut self,
        b: &Board,
        node: &NodeState,
        hit: Option<TtHit>,
        depth: &mut i32,
        beta: Score,
        ply: usize,
        null_ok: bool,
    ) -> Result<Move, Score> {
        let skip = self.singular[ply];
        if !node.pv_node && !node.in_check && skip == Move::NULL && !beta.is_decisive() {
            if let Some(score) = self.reverse_futility(node, *depth, beta) {
                return Err(score);
            }
            if null_ok {
                if let Some(score) = self.null_move(b, node, *depth, beta, ply) {
                    return Err(score);
                }
                if self.stopped {
                    return Err(Score::DRAW);
                }
            }
        }

        // Internal iterative reduction: a PV or expected cut node without a hash move is searched
        // a little shallower (an all-node gains nothing from it: every move must be refuted).
        if *depth >= iir_min_depth()
            && hit.is_none_or(|h| h.mv == Move::NULL)
            && skip == Move::NULL
            && (node.pv_node || node.cut_node)
        {
            *depth -= 1;
        }

        let mut singular_move = Move::NULL;
        if let Some(h) = hit {
            match self.singular_extension(b, &h, *depth, beta, ply, node.cut_node) {
                Singular::Extend => singular_move = h.mv,
                Singular::MultiCut(score) => return Err(score),
                Singular::No => {}
            }
            if self.stopped {
                return Err(Score::DRAW);
            }
        }
        Ok(singular_move)
    }

    /// Whether the root leaves `m` out: an earlier MultiPV line's move, or one not among
    /// `searchmoves`.
    fn not_searched_at_root(&self, m: Move) -> bool {
        self.excluded.contains(&m)
            || (!self.limits.searchmoves.is_empty() && !self.limits.searchmoves.contains(&m))
    }

    /// Tells the front end which root move is being searched (`info currmove`).
    fn report_current_move(&mut self, m: Move, number: usize) {
        let r = Report::CurrMove {
            depth: self.root_depth as u32,
            mv: m,
            number,
        };
        (self.report)(&r);
    }

    /// What a node ends the line with before its own search: a table entry whose bound cuts
    /// (not at PV nodes, which need their line, nor one scored exactly a draw), or the
    /// tablebases' verdict when it cuts (kept in the table deeper than any search reaches: the
    /// tables are exact; a drawn verdict is probed again, since its entry does not cut). Neither
    /// inside a singular-extension search (`skip`), which must not take or leave the full
    /// node's answer.
    #[allow(clippy::too_many_arguments)]
    fn probe_tables(
        &mut self,
        b: &Board,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        pv_node: bool,
        skip: Move,
    ) -> Probe {
        let hit = if skip == Move::NULL {
            self.tt.probe(b.hash(), ply)
        } else {
            None
        };
        if let Some(h) = hit {
            // A draw-scored entry does not cut (`TtHit::cuts` says why).
            if !pv_node && h.depth >= depth && h.cuts(alpha, beta) {
                return Probe::Cut(h.score);
            }
        }
        if ply > 0 && skip == Move::NULL {
            if let Some((score, bound)) = self.probe_tablebase(b, depth, ply) {
                let cuts = match bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cuts {
                    let stored_depth = (depth + tb_depth_bonus()).min(MAX_PLY as i32 - 1);
                    let eval = self.evaluate(b, ply);
                    self.tt
                        .store(b.hash(), Move::NULL, score, eval, stored_depth, bound, ply);
                    return Probe::Cut(score);
                }
            }
        }
        Probe::Go(hit)
    }

    /// One move's search, the re-search ladder of a principal-variation search: the first move
    /// gets the full window; a later one a null window at its depth less the late-move
    /// reduction `r`, again at full depth if it beats alpha while reduced, and with the full
    /// window if it lands inside it at a PV node. The score is from this node's side.
    #[allow(clippy::too_many_arguments)]
    fn search_move(
        &mut self,
        nb: &Board,
        new_depth: i32,
        r: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        node: &NodeState,
        first: bool,
    ) -> Score {
        let (pv_node, cut_node) = (node.pv_node, node.cut_node);
        if first {
            return -self.negamax(
                nb,
                new_depth,
                -beta,
                -alpha,
                ply + 1,
                pv_node,
                !pv_node && !cut_node,
                true,
            );
        }
        let mut score = -self.negamax(
            nb,
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
                nb,
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
            score = -self.negamax(nb, new_depth, -beta, -alpha, ply + 1, true, false, true);
        }
        score
    }

    /// Ends a searched node: the correction history learns how far off the static evaluation
    /// was (from quiet results whose bound says on which side of it the truth lies), and the
    /// table keeps the result.
    #[allow(clippy::too_many_arguments)]
    fn learn_and_store(
        &mut self,
        b: &Board,
        node: &NodeState,
        best: Score,
        best_move: Move,
        bound: Bound,
        depth: i32,
        ply: usize,
    ) {
        if !node.in_check
            && !best_move.is_noisy()
            && !best.is_decisive()
            && (bound != Bound::Lower || best > node.static_eval)
            && (bound != Bound::Upper || best < node.static_eval)
        {
            self.t.heuristics.update_correction(
                b.side_to_move(),
                b.pawn_key(),
                best - node.raw_eval,
                depth,
            );
        }
        self.tt
            .store(b.hash(), best_move, best, node.raw_eval, depth, bound, ply);
    }

    /// The score of a node that ends the line before any search: a repetition, insufficient
    /// material, the fifty-move rule, or the ply limit.
    /// The tablebases' verdict on `b` as a score and the bound it is (a win is at least a
    /// tablebase win, a loss at most a tablebase loss, a draw exact), when `b` is in the
    /// tables: few enough pieces, no castling rights, and a position just after a capture or
    /// pawn move (a table's value assumes the 50-move counter at zero).
    fn probe_tablebase(&mut self, b: &Board, depth: i32, ply: usize) -> Option<(Score, Bound)> {
        let (config, cardinality) = self.tb?;
        let pieces = b.occupied().count() as usize;
        if pieces > cardinality
            || (pieces == cardinality && depth < config.probe_depth)
            || b.halfmove_clock() != 0
        {
            return None;
        }
        let wdl = config.tables.probe_wdl(b)? as i32;
        // With the 50-move rule, cursed wins and blessed losses are draws, nudged by a
        // centipawn or two toward the side that would win without the rule.
        let draw_band = i32::from(config.rule50);
        Some(if wdl > draw_band {
            (Score::tb_win_in(ply), Bound::Lower)
        } else if wdl < -draw_band {
            (Score::tb_loss_in(ply), Bound::Upper)
        } else {
            (Score(2 * wdl * draw_band), Bound::Exact)
        })
    }

    fn draw_or_horizon(&mut self, b: &Board, ply: usize, in_check: bool) -> Option<Score> {
        if self.is_repetition(b) || insufficient_material(b) {
            return Some(Score::DRAW);
        }
        // The fifty-move rule, unless this move mated (mate takes precedence).
        if b.halfmove_clock() >= 100 && (!in_check || b.has_legal_move()) {
            return Some(Score::DRAW);
        }
        if ply >= MAX_PLY {
            return Some(if in_check {
                Score::DRAW
            } else {
                self.evaluate(b, ply)
            });
        }
        None
    }

    /// The static evaluation (from the table's entry when there is one) and what follows from
    /// it. The table keeps the raw evaluation; the correction is applied fresh each time.
    fn node_state(
        &mut self,
        b: &Board,
        ply: usize,
        hit: Option<TtHit>,
        in_check: bool,
        pv_node: bool,
        cut_node: bool,
    ) -> NodeState {
        let (raw_eval, static_eval) = if in_check {
            (-Score::INFINITE, -Score::INFINITE)
        } else {
            let raw = match hit {
                Some(h) => h.eval,
                None => self.evaluate(b, ply),
            };
            let corrected = self
                .t
                .heuristics
                .corrected_eval(b.side_to_move(), b.pawn_key(), raw);
            (raw, corrected)
        };
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        NodeState {
            in_check,
            pv_node,
            cut_node,
            raw_eval,
            static_eval,
            improving,
        }
    }

    /// Reverse futility pruning: far above beta at low depth, assume the node holds.
    fn reverse_futility(&self, node: &NodeState, depth: i32, beta: Score) -> Option<Score> {
        let margin = rfp_margin() * depth - if node.improving { rfp_improving() } else { 0 };
        (depth <= rfp_max_depth() && node.static_eval - margin >= beta).then_some(node.static_eval)
    }

    /// Null-move pruning: if passing still beats beta in a reduced search, a real move will too.
    fn null_move(
        &mut self,
        b: &Board,
        node: &NodeState,
        depth: i32,
        beta: Score,
        ply: usize,
    ) -> Option<Score> {
        if depth < nmp_min_depth()
            || node.static_eval < beta
            || !b.has_non_pawn_material(b.side_to_move())
        {
            return None;
        }
        let r = nmp_base()
            + depth / nmp_depth_divisor()
            + ((node.static_eval - beta) / nmp_eval_divisor()).min(nmp_eval_max());
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
            !node.cut_node,
            false,
        );
        self.path.pop();
        if self.stopped || score < beta {
            return None;
        }
        // A mate (or tablebase win) found after passing proves nothing: the side to move may
        // have a threat.
        Some(if score.is_decisive() { beta } else { score })
    }

    /// Singular extension: when the hash move beats every alternative by a margin (a search
    /// without it fails low), it is the only move here and is searched one ply deeper. When even
    /// the alternatives beat beta, several moves refute the parent: cut at once (multi-cut).
    fn singular_extension(
        &mut self,
        b: &Board,
        h: &TtHit,
        depth: i32,
        beta: Score,
        ply: usize,
        cut_node: bool,
    ) -> Singular {
        // Not at the root or in check (that node is already extended), and not so deep in an
        // extended line that extensions could feed on each other without end.
        if ply == 0
            || b.in_check()
            || depth < se_min_depth()
            || ply as i32 >= 2 * self.root_depth
            || h.mv == Move::NULL
            || h.depth < depth - se_tt_depth_margin()
            || h.bound == Bound::Upper
            || h.score.is_decisive()
            || !b.is_legal(h.mv)
        {
            return Singular::No;
        }
        let s_beta = h.score - se_margin_per_ply() * depth;
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
            Singular::No
        } else if score < s_beta {
            Singular::Extend
        } else if s_beta >= beta {
            Singular::MultiCut(s_beta)
        } else {
            Singular::No
        }
    }

    /// Whether the quiet or losing move `m` is skipped at low depth: late-move pruning,
    /// futility pruning, and SEE pruning. The caller has excluded checks, in-check nodes and
    /// the root.
    fn prune_move(
        &self,
        b: &Board,
        m: Move,
        node: &NodeState,
        depth: i32,
        alpha: Score,
        searched: usize,
    ) -> bool {
        if depth > prune_max_depth() {
            return false;
        }
        let quiet = !m.is_noisy();
        if quiet && !node.pv_node {
            let lmp = (lmp_base() + depth * depth) as usize / if node.improving { 1 } else { 2 };
            if searched >= lmp {
                return true;
            }
            if node.static_eval + futility_base() + futility_per_ply() * depth <= alpha {
                return true;
            }
        }
        let margin = if quiet {
            -see_quiet_per_ply() * depth
        } else {
            -see_noisy_per_ply() * depth
        };
        !see_ge(b, m, margin)
    }

    /// The late-move reduction of a move searched after the first ones: from the table by depth
    /// and move number, less in PV nodes, for checks and for moves with good history; more
    /// when the evaluation is not improving and at expected cut nodes.
    fn reduction(
        &self,
        node: &NodeState,
        depth: i32,
        new_depth: i32,
        searched: usize,
        gives_check: bool,
        history: i32,
    ) -> i32 {
        let mut r = self.lmr[(depth as usize).min(63)][searched.min(63)];
        if node.pv_node {
            r -= 1;
        }
        if !node.improving {
            r += 1;
        }
        if node.cut_node {
            r += 1;
        }
        if gives_check {
            r -= 1;
        }
        r -= history / lmr_history_divisor();
        r.clamp(0, new_depth - 1)
    }

    /// A quiet move cut off: it becomes a killer and the counter move of the previous move, and
    /// gains history, while the quiet moves tried before it lose as much.
    fn reward_cutoff(
        &mut self,
        side: crate::chess::Color,
        ply: usize,
        depth: i32,
        (m, pt): (Move, usize),
        failed: &[(Move, usize)],
    ) {
        let prev = if ply > 0 { self.prev[ply - 1] } else { None };
        let context = self.context(ply);
        let h = &mut self.t.heuristics;
        h.add_killer(ply, m);
        let bonus = (depth * depth * history_bonus_scale() + depth * history_bonus_linear())
            .min(history_bonus_max());
        h.update_quiet(side, m, pt, context, bonus);
        for &(q, qpt) in failed {
            h.update_quiet(side, q, qpt, context, -bonus);
        }
        if let Some((piece, pm)) = prev {
            h.counter[piece][pm.to().index()] = m;
        }
    }
}

/// What the singular-extension search found.
enum Singular {
    /// Not tried, or nothing special.
    No,
    /// The hash move is singular: extend it.
    Extend,
    /// Even without the hash move the node beats beta: return this score.
    MultiCut(Score),
}
