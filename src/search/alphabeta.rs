//! Iterative deepening, aspiration windows, principal-variation search and quiescence search.

use super::ordering::{piece_to, MovePicker, MAX_PLY};
use super::score::{Score, INFINITY, MATE, MATE_BOUND};
use super::see::see_ge;
use super::time::TimeBudget;
use super::tt::Bound;
use super::tt::TransTable;
use super::{Limits, Report, SearchControl, SearchInfo, SearchResult, Searcher, ThreadData};
use crate::chess::{insufficient_material, Board, Game, Move};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Late-move reduction table: ln(depth)·ln(moves)/2.2, a common shape.
fn lmr_table() -> Box<[[i32; 64]; 64]> {
    let mut t = Box::new([[0i32; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.8 + (d as f64).ln() * (m as f64).ln() / 2.2) as i32;
        }
    }
    t
}

/// One thread's state during a search: its tables, the shared table and flags, counters, the
/// path, and the PV table.
pub(super) struct Worker<'a> {
    pub(super) t: &'a mut ThreadData,
    pub(super) tt: &'a TransTable,
    /// The flags this thread obeys: the user's for the main thread, the main thread's for helpers.
    pub(super) control: &'a SearchControl,
    /// Every thread's node count, published every 1024 nodes; this thread's is `counters[id]`.
    pub(super) counters: &'a [AtomicU64],
    /// 0 for the main thread.
    pub(super) id: usize,
    pub(super) report: &'a mut dyn FnMut(&Report),
    pub(super) root_depth: i32,
    pub(super) limits: &'a Limits,
    pub(super) start: Instant,
    pub(super) budget: Option<TimeBudget>,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    /// Time and node limits only apply once depth 1 has given us a move.
    pub(super) can_stop: bool,
    pub(super) was_pondering: bool,
    /// Hashes of the positions before the current node: game history, then the search path.
    pub(super) path: Vec<u64>,
    pub(super) pv: Vec<[Move; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 2],
    pub(super) evals: [i32; MAX_PLY + 2],
    pub(super) prev: [Option<(usize, Move)>; MAX_PLY + 2],
    pub(super) excluded: Vec<Move>,
    /// The move a singular-extension search leaves out at each ply (`Move::NULL`: none).
    pub(super) singular: [Move; MAX_PLY + 2],
    pub(super) lmr: Box<[[i32; 64]; 64]>,
    /// One move picker per ply, reused from node to node.
    pub(super) pickers: Vec<MovePicker>,
    /// The score of the last root move that raised alpha (its line is `pv[0]`).
    pub(super) root_score: i32,
}

impl Worker<'_> {
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Polls the stop flag, the node limit and the hard time bound.
    #[inline]
    pub(super) fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if !self.can_stop {
            return false;
        }
        if let Some(n) = self.limits.nodes {
            if self.total_nodes() >= n {
                self.stopped = true;
                return true;
            }
        }
        if self.nodes & 1023 == 0 {
            self.counters[self.id].store(self.nodes, Ordering::Relaxed);
            let control = self.control;
            if control.stopped() {
                self.stopped = true;
            } else if control.pondering() {
                self.was_pondering = true;
            } else {
                if self.was_pondering {
                    // Ponderhit: the clock starts now for us.
                    self.was_pondering = false;
                    self.start = Instant::now();
                }
                if let Some(b) = self.budget {
                    if self.elapsed() >= b.hard {
                        self.stopped = true;
                    }
                }
            }
        }
        self.stopped
    }

    /// Nodes searched by all threads: this one's exact count plus the others' last published.
    fn total_nodes(&self) -> u64 {
        if self.counters.len() == 1 {
            return self.nodes;
        }
        let others: u64 = (self.counters.iter().enumerate())
            .filter(|&(i, _)| i != self.id)
            .map(|(_, c)| c.load(Ordering::Relaxed))
            .sum();
        self.nodes + others
    }

    fn is_repetition(&self, b: &Board) -> bool {
        let h = b.hash();
        let window = b.halfmove_clock() as usize;
        self.path
            .iter()
            .rev()
            .take(window)
            .skip(1)
            .step_by(2)
            .any(|&x| x == h)
    }

    /// The continuation-history context of a node at `ply`: the moves one and two plies back.
    fn context(&self, ply: usize) -> [Option<usize>; 2] {
        let back = |k: usize| {
            ply.checked_sub(k)
                .and_then(|i| self.prev[i])
                .map(|(piece, m)| piece_to(piece, m))
        };
        [back(1), back(2)]
    }

    /// The static evaluation of `b`, the node at `ply` (NNUE or hand-crafted, as configured).
    #[inline]
    pub(super) fn evaluate(&mut self, b: &Board, ply: usize) -> i32 {
        let t = &mut *self.t;
        t.eval.evaluate(b, ply, &mut t.pawns)
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
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

/// The root: iterative deepening with aspiration windows and MultiPV.
pub(super) fn run(
    s: &mut Searcher,
    game: &Game,
    limits: &Limits,
    report: &mut dyn FnMut(&Report),
) -> SearchResult {
    let board = *game.board();
    let start = Instant::now();
    let mut root_moves: Vec<Move> = board.legal_moves().iter().copied().collect();
    if !limits.searchmoves.is_empty() {
        let filtered: Vec<Move> = root_moves
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.contains(m))
            .collect();
        if !filtered.is_empty() {
            root_moves = filtered;
        }
    }
    if root_moves.is_empty() {
        return SearchResult {
            best: None,
            ponder: None,
            score: if board.in_check() {
                Score::mated_in(0)
            } else {
                Score::DRAW
            },
            checkmated: board.in_check(),
            ..SearchResult::default()
        };
    }
    s.tt.new_search();
    let budget = if limits.infinite {
        None
    } else if let Some(mt) = limits.movetime {
        Some(TimeBudget::fixed(mt, s.move_overhead_ms))
    } else {
        limits
            .clock
            .map(|c| TimeBudget::from_clock(c, s.move_overhead_ms))
    };
    let max_depth = limits.depth.map_or(MAX_PLY as i32 - 1, |d| {
        d.clamp(1, MAX_PLY as u32 - 1) as i32
    });
    let multipv = limits.multipv.clamp(1, root_moves.len());
    let searchmoves = if limits.searchmoves.is_empty() {
        Vec::new()
    } else {
        root_moves.clone()
    };
    let limits = Limits {
        searchmoves,
        ..limits.clone()
    };

    let mut path: Vec<u64> = game.reversible_hashes();
    path.pop(); // the root itself is not "before" the root
                // Helpers search the same tree to fill the shared table; they take no time or node limit of
                // their own (the main thread stops them) and report nothing.
    let helper_limits = Limits {
        nodes: None,
        mate: None,
        multipv: 1,
        ..limits.clone()
    };
    let Searcher {
        tt,
        threads,
        control,
        ..
    } = s;
    let tt: &TransTable = tt;
    let counters: Vec<AtomicU64> = (0..threads.len()).map(|_| AtomicU64::new(0)).collect();
    let helper_control = SearchControl::default();
    // `Searcher` always holds its main thread's data first.
    let (main, helpers) = threads
        .split_first_mut()
        .expect("a searcher has a main thread");
    let mut result = std::thread::scope(|scope| {
        for (i, t) in helpers.iter_mut().enumerate() {
            let (path, counters) = (path.clone(), &counters[..]);
            let (helper_limits, helper_control, root_moves) =
                (&helper_limits, &helper_control, &root_moves[..]);
            // A helper the system cannot start is done without: the search stays correct with
            // any number of them.
            let _ = std::thread::Builder::new().spawn_scoped(scope, move || {
                let mut silent = |_: &Report| {};
                let mut w = Worker::new(t, tt, helper_control, counters, i + 1, &mut silent);
                w.begin(helper_limits, start, None, path, &board);
                iterate(&mut w, &board, root_moves, 1, max_depth);
            });
        }
        let mut w = Worker::new(main, tt, control, &counters, 0, report);
        w.begin(&limits, start, budget, path, &board);
        let result = iterate(&mut w, &board, &root_moves, multipv, max_depth);
        helper_control.stop();
        result
    });
    result.nodes = counters.iter().map(|c| c.load(Ordering::Relaxed)).sum();
    if result.ponder.is_none() {
        if let Some(best) = result.best {
            let after = board.make_move(best);
            result.ponder = tt
                .probe(after.hash(), 1)
                .map(|h| h.mv)
                .filter(|&m| m != Move::NULL && after.is_legal(m));
        }
    }
    result
}

impl<'a> Worker<'a> {
    /// A worker for thread `id` (0: the main thread), not yet set up for a search.
    fn new(
        t: &'a mut ThreadData,
        tt: &'a TransTable,
        control: &'a SearchControl,
        counters: &'a [AtomicU64],
        id: usize,
        report: &'a mut dyn FnMut(&Report),
    ) -> Worker<'a> {
        Worker {
            t,
            tt,
            control,
            counters,
            id,
            report,
            root_depth: 1,
            limits: &NO_LIMITS,
            start: Instant::now(),
            budget: None,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            // Helpers may stop at once: only the main thread must finish depth 1.
            can_stop: id != 0,
            was_pondering: false,
            path: Vec::new(),
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            evals: [0; MAX_PLY + 2],
            prev: [None; MAX_PLY + 2],
            excluded: Vec::new(),
            singular: [Move::NULL; MAX_PLY + 2],
            lmr: lmr_table(),
            pickers: (0..MAX_PLY + 2).map(|_| MovePicker::default()).collect(),
            root_score: 0,
        }
    }

    /// Sets the worker up to search from `board`, whose predecessors' hashes are `path`.
    fn begin(
        &mut self,
        limits: &'a Limits,
        start: Instant,
        budget: Option<TimeBudget>,
        path: Vec<u64>,
        board: &Board,
    ) {
        self.limits = limits;
        self.start = start;
        self.budget = budget;
        self.path = path;
        self.t.eval.reset(board);
    }
}

/// Limits that a worker holds before `begin` gives it the search's.
static NO_LIMITS: Limits = Limits {
    depth: None,
    nodes: None,
    movetime: None,
    clock: None,
    infinite: false,
    mate: None,
    searchmoves: Vec::new(),
    multipv: 1,
};

/// Iterative deepening on one thread, with aspiration windows and MultiPV; returns what this
/// thread would play.
fn iterate(
    w: &mut Worker<'_>,
    board: &Board,
    root_moves: &[Move],
    multipv: usize,
    max_depth: i32,
) -> SearchResult {
    let mut result = SearchResult::default();
    let mut prev_scores = vec![0i32; multipv];
    let mut stability_factor = 1.0f64;
    let mut last_best = Move::NULL;

    'deepening: for depth in 1..=max_depth {
        // Odd helpers run one ply ahead of the others, so that the threads do not all search
        // the same iteration at once.
        let depth = if w.id % 2 == 1 {
            (depth + 1).min(max_depth)
        } else {
            depth
        };
        w.excluded.clear();
        w.root_depth = depth;
        let mut iteration: Vec<(i32, Vec<Move>)> = Vec::new();
        for (pv_idx, prev_score) in prev_scores.iter_mut().enumerate() {
            w.seldepth = 0;
            let mut delta = 18;
            let (mut alpha, mut beta) = if depth >= 5 && prev_score.abs() < MATE_BOUND {
                (*prev_score - delta, *prev_score + delta)
            } else {
                (-INFINITY, INFINITY)
            };
            let score = loop {
                let score = w.negamax(board, depth, alpha, beta, 0, true, false, false);
                if w.stopped {
                    break score;
                }
                let bound = if score <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITY);
                    Some(Bound::Upper)
                } else if score >= beta {
                    beta = (score + delta).min(INFINITY);
                    Some(Bound::Lower)
                } else {
                    None
                };
                let Some(bound) = bound else { break score };
                if w.elapsed() > Duration::from_millis(1000) {
                    let pv = w.pv[0][..w.pv_len[0]].to_vec();
                    let r = Report::Iteration(info(w, depth, pv_idx + 1, score, Some(bound), pv));
                    (w.report)(&r);
                }
                delta += delta;
            };
            if w.stopped && (depth > 1 || w.pv_len[0] == 0) {
                // A move that beat the best so far of an unfinished iteration was searched to
                // this depth and is the better choice: tactics are often found this way.
                if multipv == 1 && depth > 1 && w.pv_len[0] > 0 {
                    let pv = w.pv[0][..w.pv_len[0]].to_vec();
                    let score = w.root_score;
                    let bound = (score >= beta).then_some(Bound::Lower);
                    let r = Report::Iteration(info(w, depth, 1, score, bound, pv.clone()));
                    (w.report)(&r);
                    adopt(&mut result, score, depth, pv);
                }
                break 'deepening;
            }
            let pv = w.pv[0][..w.pv_len[0]].to_vec();
            if let Some(&first) = pv.first() {
                w.excluded.push(first);
            }
            *prev_score = score;
            if multipv == 1 {
                let r = Report::Iteration(info(w, depth, 1, score, None, pv.clone()));
                (w.report)(&r);
            }
            iteration.push((score, pv));
            if w.stopped {
                break;
            }
        }
        if multipv > 1 {
            // Each line was searched with the better ones excluded, but search instability can
            // still leave a later line scoring higher: report them best first.
            iteration.sort_by_key(|line| std::cmp::Reverse(line.0));
            for (k, (score, pv)) in iteration.iter().enumerate() {
                prev_scores[k] = *score;
                let r = Report::Iteration(info(w, depth, k + 1, *score, None, pv.clone()));
                (w.report)(&r);
            }
        }
        // Depth 1 is done: from now on limits may stop the search.
        w.can_stop = true;
        if let Some((score, pv)) = iteration.into_iter().next() {
            if let Some(&best) = pv.first() {
                if best != last_best && depth > 1 {
                    stability_factor = (stability_factor * 1.5).min(2.5);
                } else {
                    stability_factor = (stability_factor * 0.9).max(0.6);
                }
                if depth > 4 && score < result.score.0 - 30 {
                    stability_factor = stability_factor.max(1.4);
                }
                last_best = best;
                adopt(&mut result, score, depth, pv);
            }
        }
        if w.stopped {
            break;
        }
        if let Some(m) = w.limits.mate {
            if result
                .score
                .mate_moves()
                .is_some_and(|n| n > 0 && n <= m as i32)
            {
                break;
            }
        }
        if !w.control.pondering() {
            if let Some(b) = w.budget {
                let soft = b.soft.as_secs_f64() * stability_factor;
                // A forced move saves clock time; a fixed move time is the user's to spend.
                if root_moves.len() == 1 && depth >= 4 && w.limits.movetime.is_none() {
                    break;
                }
                if w.elapsed().as_secs_f64() >= soft.min(b.hard.as_secs_f64()) {
                    break;
                }
            }
        }
    }

    if result.best.is_none() {
        // Stopped before depth 1 finished (cannot happen with can_stop, but stay safe).
        result.best = root_moves.first().copied();
    }
    w.counters[w.id].store(w.nodes, Ordering::Relaxed);
    result.nodes = w.nodes;
    result
}

/// Makes a searched line (non-empty) the result: its first move is played, its second pondered.
fn adopt(result: &mut SearchResult, score: i32, depth: i32, pv: Vec<Move>) {
    result.best = pv.first().copied();
    result.ponder = pv.get(1).copied();
    result.score = Score(score);
    result.depth = depth as u32;
    result.pv = pv;
}

fn info(
    w: &Worker<'_>,
    depth: i32,
    multipv: usize,
    score: i32,
    bound: Option<Bound>,
    pv: Vec<Move>,
) -> SearchInfo {
    let ms = w.elapsed().as_millis() as u64;
    let nodes = w.total_nodes();
    SearchInfo {
        depth: depth as u32,
        seldepth: w.seldepth.max(depth as usize) as u32,
        multipv,
        score: Score(score),
        bound,
        nodes,
        nps: nodes * 1000 / ms.max(1),
        time_ms: ms,
        hashfull: w.tt.hashfull(),
        pv,
    }
}
