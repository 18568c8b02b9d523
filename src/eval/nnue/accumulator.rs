//! Accumulators: the first layer's output for each side, kept up to date along the search path.
//!
//! The stack holds one accumulator per ply. Making a move only records what changed (at most two
//! pieces added and two removed); the arithmetic is done when a node is evaluated, from the
//! nearest ply above it that is up to date. Nodes cut off before their evaluation (by the
//! transposition table, say) never pay for an update.

use super::{feature, simd, Network};
use crate::chess::{Board, Color, File, Move, MoveFlag, Piece, PieceKind, Square};
use std::sync::Arc;

/// Both sides' accumulators for one position: White's view first, then Black's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    hidden: usize,
    vals: Vec<i16>,
}

impl Accumulator {
    /// Computes both accumulators of `board` from scratch.
    pub fn refresh(net: &Network, board: &Board) -> Accumulator {
        Self::refresh_filtered(net, board, None)
    }

    /// As `refresh`, as if the piece on `skip` were not there.
    pub fn refresh_without(net: &Network, board: &Board, skip: Square) -> Accumulator {
        Self::refresh_filtered(net, board, Some(skip))
    }

    fn refresh_filtered(net: &Network, board: &Board, skip: Option<Square>) -> Accumulator {
        let h = net.hidden();
        let mut vals = Vec::with_capacity(2 * h);
        vals.extend_from_slice(net.bias());
        vals.extend_from_slice(net.bias());
        for sq in board.occupied() {
            if Some(sq) == skip {
                continue;
            }
            let Some(p) = board.piece_at(sq) else {
                debug_assert!(false, "occupied square {sq} without a piece");
                continue;
            };
            for (view, half) in Color::ALL.into_iter().zip(vals.chunks_mut(h)) {
                for (a, &w) in half.iter_mut().zip(net.row(feature(view, p, sq))) {
                    *a = a.wrapping_add(w);
                }
            }
        }
        Accumulator { hidden: h, vals }
    }

    /// The accumulator seen from `view`'s side.
    #[inline]
    pub fn side(&self, view: Color) -> &[i16] {
        let h = self.hidden;
        &self.vals[view.index() * h..(view.index() + 1) * h]
    }
}

/// The features a move adds and removes, as (White's view, Black's view) indices.
#[derive(Clone, Copy, Debug, Default)]
struct Delta {
    add: [[u16; 2]; 2],
    sub: [[u16; 2]; 2],
    n_add: u8,
    n_sub: u8,
}

fn features(p: Piece, sq: Square) -> [u16; 2] {
    // Features are below 768.
    [
        feature(Color::White, p, sq) as u16,
        feature(Color::Black, p, sq) as u16,
    ]
}

impl Delta {
    // A move adds and removes at most two pieces each (castling: king and rook).
    fn add(&mut self, p: Piece, sq: Square) {
        self.add[self.n_add as usize] = features(p, sq);
        self.n_add += 1;
    }
    fn sub(&mut self, p: Piece, sq: Square) {
        self.sub[self.n_sub as usize] = features(p, sq);
        self.n_sub += 1;
    }

    /// What `m` changes on `board` (before the move). `m` must be legal there.
    fn of(board: &Board, m: Move) -> Delta {
        let mut d = Delta::default();
        let (from, to) = (m.from(), m.to());
        let Some(piece) = board.piece_at(from) else {
            debug_assert!(false, "move {m} from an empty square");
            return d;
        };
        let us = piece.color;
        d.sub(piece, from);
        match m.flag() {
            MoveFlag::CastleKing | MoveFlag::CastleQueen => {
                let short = m.flag() == MoveFlag::CastleKing;
                let rook_to = if short { File::F } else { File::D };
                let rook = Piece::new(us, PieceKind::Rook);
                d.add(piece, to);
                d.sub(rook, board.castle_rook(us, short));
                d.add(rook, Square::from_coords(rook_to, from.rank()));
            }
            MoveFlag::EnPassant => {
                d.add(piece, to);
                let cap = Square::from_coords(to.file(), from.rank());
                d.sub(Piece::new(!us, PieceKind::Pawn), cap);
            }
            _ => {
                if m.is_capture() {
                    match board.piece_at(to) {
                        Some(c) => d.sub(c, to),
                        None => debug_assert!(false, "capture {m} of an empty square"),
                    }
                }
                let placed = m.promotion().map_or(piece, |k| Piece::new(us, k));
                d.add(placed, to);
            }
        }
        d
    }
}

/// Which state a ply's accumulator is in.
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// Up to date.
    Fresh,
    /// The parent's accumulator plus this change, not yet applied.
    Pending(Delta),
}

/// One accumulator per ply of the search path, updated lazily.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    net: Arc<Network>,
    hidden: usize,
    vals: Vec<i16>,
    slots: Vec<Slot>,
}

impl AccumulatorStack {
    /// A stack for plies `0..=max_ply` of searches with `net`.
    pub fn new(net: Arc<Network>, max_ply: usize) -> AccumulatorStack {
        let hidden = net.hidden();
        AccumulatorStack {
            vals: vec![0; (max_ply + 1) * 2 * hidden],
            slots: vec![Slot::Fresh; max_ply + 1],
            hidden,
            net,
        }
    }

    /// The network in use.
    pub fn net(&self) -> &Arc<Network> {
        &self.net
    }

    /// Makes `board` the position at ply 0 (a full refresh).
    pub fn reset(&mut self, board: &Board) {
        let acc = Accumulator::refresh(&self.net, board);
        self.vals[..2 * self.hidden].copy_from_slice(&acc.vals);
        self.slots[0] = Slot::Fresh;
    }

    /// Records that the position at `ply` is `parent` (the position at `ply - 1`) after `m`.
    #[inline]
    pub fn push(&mut self, ply: usize, parent: &Board, m: Move) {
        debug_assert!(ply >= 1 && ply < self.slots.len());
        if let Some(s) = self.slots.get_mut(ply) {
            *s = Slot::Pending(Delta::of(parent, m));
        }
    }

    /// Records a null move to `ply`: the same pieces as the ply before.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        if let Some(s) = self.slots.get_mut(ply) {
            *s = Slot::Pending(Delta::default());
        }
    }

    /// Brings ply `ply` up to date (from the nearest fresh ply above it).
    fn materialise(&mut self, ply: usize) {
        let ply = ply.min(self.slots.len() - 1);
        let mut base = ply;
        while base > 0 && matches!(self.slots[base], Slot::Pending(_)) {
            base -= 1;
        }
        let h2 = 2 * self.hidden;
        let h = self.hidden;
        for p in base + 1..=ply {
            let Slot::Pending(d) = self.slots[p] else {
                continue;
            };
            let (before, after) = self.vals.split_at_mut(p * h2);
            let input = &before[(p - 1) * h2..];
            let out = &mut after[..h2];
            for view in Color::ALL {
                let off = view.index() * h;
                let row = |f: [u16; 2]| self.net.row(f[view.index()] as usize);
                let adds: [&[i16]; 2] = [row(d.add[0]), row(d.add[1])];
                let subs: [&[i16]; 2] = [row(d.sub[0]), row(d.sub[1])];
                simd::update(
                    &mut out[off..off + h],
                    &input[off..off + h],
                    &adds[..d.n_add as usize],
                    &subs[..d.n_sub as usize],
                );
            }
            self.slots[p] = Slot::Fresh;
        }
    }

    /// The evaluation of `board`, the position at `ply`, in centipawns from the side to move's view.
    #[inline]
    pub fn evaluate(&mut self, board: &Board, ply: usize) -> i32 {
        self.materialise(ply);
        let ply = ply.min(self.slots.len() - 1);
        let h = self.hidden;
        let acc = &self.vals[ply * 2 * h..(ply + 1) * 2 * h];
        let (white, black) = acc.split_at(h);
        let bucket = self.net.bucket_of(board);
        let v = match board.side_to_move() {
            Color::White => self.net.output(white, black, bucket),
            Color::Black => self.net.output(black, white, bucket),
        };
        // The incremental path must agree with a refresh: a search that pushed a move without
        // a matching position (or skipped a push) would otherwise evaluate another position.
        debug_assert_eq!(
            v,
            self.net.evaluate(board),
            "stale accumulator at ply {ply}"
        );
        v
    }

    /// The accumulator at `ply` after bringing it up to date (for tests).
    pub fn accumulator(&mut self, ply: usize) -> Accumulator {
        self.materialise(ply);
        let h2 = 2 * self.hidden;
        Accumulator {
            hidden: self.hidden,
            vals: self.vals[ply * h2..(ply + 1) * h2].to_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::datagen::SplitMix;

    /// Random games (with forced castling, en passant and promotions by preferring them):
    /// after every move, the incremental accumulator equals a fresh one.
    #[test]
    fn incremental_equals_refresh_over_random_games() {
        let net = super::super::default_net();
        let mut rng = SplitMix::new(99);
        let starts = [
            crate::chess::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1",
        ];
        let mut seen = [false; 4]; // castle, en passant, promotion, capture
        for game in 0..60 {
            let mut board = Board::from_fen(starts[game % starts.len()]).unwrap();
            let mut stack = AccumulatorStack::new(net.clone(), 64);
            stack.reset(&board);
            for ply in 1..64 {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let special: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
                    .collect();
                let m = if !special.is_empty() && rng.below(2) == 0 {
                    special[rng.below(special.len() as u64) as usize]
                } else {
                    moves.as_slice()[rng.below(moves.len() as u64) as usize]
                };
                seen[0] |= m.is_castle();
                seen[1] |= m.is_en_passant();
                seen[2] |= m.is_promotion();
                seen[3] |= m.is_capture();
                stack.push(ply, &board, m);
                board.play(m);
                // Evaluate only some plies, so that several pending updates are applied at once.
                if rng.below(3) == 0 || ply == 63 {
                    assert_eq!(
                        stack.accumulator(ply),
                        Accumulator::refresh(&net, &board),
                        "after {m} in {}",
                        board.to_fen()
                    );
                    assert_eq!(stack.evaluate(&board, ply), net.evaluate(&board));
                }
            }
        }
        assert_eq!(seen, [true; 4]);
    }

    #[test]
    fn null_moves_keep_the_pieces_and_swap_the_view() {
        let net = super::super::default_net();
        let board =
            Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .unwrap();
        let mut stack = AccumulatorStack::new(net.clone(), 8);
        stack.reset(&board);
        stack.push_null(1);
        let nb = board.make_null_move();
        assert_eq!(stack.evaluate(&nb, 1), net.evaluate(&nb));
    }
}
