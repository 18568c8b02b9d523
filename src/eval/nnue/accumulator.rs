//! Accumulators: the first layer's output for each side, kept up to date along the search path.
//!
//! The stack holds one accumulator per ply. Making a move only records what changed (at most two
//! pieces added and two removed); the arithmetic is done when a node is evaluated, from the
//! nearest ply above it that is up to date. Nodes cut off before their evaluation (by the
//! transposition table, say) never pay for an update. The one exception is a king-mirrored
//! net's king crossing between the d and e files: every feature of its side changes, so that
//! side's half is rebuilt from the new position at once, when the move is pushed.

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
        let mut vals = vec![0; 2 * h];
        for (view, half) in Color::ALL.into_iter().zip(vals.chunks_mut(h)) {
            refresh_half(net, board, view, skip, half);
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

/// One side's half of the accumulator of `board` from scratch (without the piece on `skip`).
fn refresh_half(net: &Network, board: &Board, view: Color, skip: Option<Square>, out: &mut [i16]) {
    out.copy_from_slice(net.bias());
    let flip = net.flips(board.king_square(view));
    for sq in board.occupied() {
        if Some(sq) == skip {
            continue;
        }
        let Some(p) = board.piece_at(sq) else {
            debug_assert!(false, "occupied square {sq} without a piece");
            continue;
        };
        for (a, &w) in out.iter_mut().zip(net.row(feature(view, p, sq, flip))) {
            *a = a.wrapping_add(w);
        }
    }
}

/// The features a move adds and removes, as (White's view, Black's view) indices, and which
/// views were rebuilt when the move was pushed (and so take no update).
#[derive(Clone, Copy, Debug, Default)]
struct Delta {
    add: [[u16; 2]; 2],
    sub: [[u16; 2]; 2],
    n_add: u8,
    n_sub: u8,
    rebuilt: [bool; 2],
}

impl Delta {
    // A move adds and removes at most two pieces each (castling: king and rook).
    fn add(&mut self, p: Piece, sq: Square, flips: [bool; 2]) {
        self.add[self.n_add as usize] = features(p, sq, flips);
        self.n_add += 1;
    }
    fn sub(&mut self, p: Piece, sq: Square, flips: [bool; 2]) {
        self.sub[self.n_sub as usize] = features(p, sq, flips);
        self.n_sub += 1;
    }

    /// What `m` changes on `board` (before the move) for `net`. `m` must be legal there. A
    /// view whose mirroring the move changes is marked in `rebuilt` (its features here are
    /// meaningless; the caller rebuilds that half).
    fn of(net: &Network, board: &Board, m: Move) -> Delta {
        let mut d = Delta::default();
        let (from, to) = (m.from(), m.to());
        let Some(piece) = board.piece_at(from) else {
            debug_assert!(false, "move {m} from an empty square");
            return d;
        };
        let us = piece.color;
        // A plain net never mirrors: skip the king lookups on this hot path.
        let flips = if net.king_mirrored() {
            Color::ALL.map(|c| net.flips(board.king_square(c)))
        } else {
            [false; 2]
        };
        // Every move that changes a king's square names its destination in `to`, castling too.
        if piece.kind == PieceKind::King && net.flips(to) != flips[us.index()] {
            d.rebuilt[us.index()] = true;
        }
        let (add, sub) = (
            |d: &mut Delta, p, sq| d.add(p, sq, flips),
            |d: &mut Delta, p, sq| d.sub(p, sq, flips),
        );
        sub(&mut d, piece, from);
        match m.flag() {
            MoveFlag::CastleKing | MoveFlag::CastleQueen => {
                let short = m.flag() == MoveFlag::CastleKing;
                let rook_to = if short { File::F } else { File::D };
                let rook = Piece::new(us, PieceKind::Rook);
                add(&mut d, piece, to);
                sub(&mut d, rook, board.castle_rook(us, short));
                add(&mut d, rook, Square::from_coords(rook_to, from.rank()));
            }
            MoveFlag::EnPassant => {
                add(&mut d, piece, to);
                let cap = Square::from_coords(to.file(), from.rank());
                sub(&mut d, Piece::new(!us, PieceKind::Pawn), cap);
            }
            _ => {
                if m.is_capture() {
                    match board.piece_at(to) {
                        Some(c) => sub(&mut d, c, to),
                        None => debug_assert!(false, "capture {m} of an empty square"),
                    }
                }
                let placed = m.promotion().map_or(piece, |k| Piece::new(us, k));
                add(&mut d, placed, to);
            }
        }
        d
    }
}

/// The features of `p` on `sq` from both views, each mirrored as `flips` says.
fn features(p: Piece, sq: Square, flips: [bool; 2]) -> [u16; 2] {
    // Features are below 768.
    [
        feature(Color::White, p, sq, flips[0]) as u16,
        feature(Color::Black, p, sq, flips[1]) as u16,
    ]
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
        if ply >= self.slots.len() {
            return;
        }
        let d = Delta::of(&self.net, parent, m);
        if d.rebuilt != [false; 2] {
            // Rare (a king-mirrored net's king crossing the board's middle): rebuild that
            // half now, while the position is at hand; `materialise` leaves it alone.
            let child = parent.make_move(m);
            let h = self.hidden;
            let acc = &mut self.vals[ply * 2 * h..(ply + 1) * 2 * h];
            for (view, half) in Color::ALL.into_iter().zip(acc.chunks_mut(h)) {
                if d.rebuilt[view.index()] {
                    refresh_half(&self.net, &child, view, None, half);
                }
            }
        }
        self.slots[ply] = Slot::Pending(d);
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
                if d.rebuilt[view.index()] {
                    continue;
                }
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
    use crate::rand::SplitMix;

    /// Random games (with forced castling, en passant and promotions by preferring them):
    /// after every move, the incremental accumulator equals a fresh one.
    #[test]
    fn incremental_equals_refresh_over_random_games() {
        // The embedded net's weights read both ways: as a plain net, and as a king-mirrored
        // one, where kings crossing the middle (castling long included) rebuild one half.
        for mirrored in [false, true] {
            let net = (*super::super::default_net()).clone();
            incremental_equals_refresh(Arc::new(net.with_king_mirror(mirrored)));
        }
    }

    fn incremental_equals_refresh(net: Arc<Network>) {
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

    /// A king-mirrored net cannot tell a position from its mirror image (castling rights,
    /// which it does not see, aside), and the rebuilds on a king's crossing keep it so.
    #[test]
    fn a_king_mirrored_net_scores_mirror_images_alike() {
        let net = Arc::new(
            (*super::super::default_net())
                .clone()
                .with_king_mirror(true),
        );
        let mirror = |fen: &str| {
            let mut parts = fen.split(' ');
            let placement: Vec<String> = parts
                .next()
                .unwrap_or_default()
                .split('/')
                .map(|rank| rank.chars().rev().collect())
                .collect();
            let rest: Vec<&str> = parts.collect();
            Board::from_fen(&format!("{} {}", placement.join("/"), rest.join(" "))).unwrap()
        };
        let fens = [
            "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/2KR1B1R b - - 4 9",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/3p4/4P3/8/PP6/4K3 w - - 0 1",
            "6k1/5ppp/8/8/8/8/PPP5/1K6 w - - 0 1",
        ];
        for fen in fens {
            let b = Board::from_fen(fen).unwrap();
            assert_eq!(net.evaluate(&b), net.evaluate(&mirror(fen)), "{fen}");
        }
        // The same weights read as a plain net do see the difference.
        let plain = (*super::super::default_net())
            .clone()
            .with_king_mirror(false);
        assert!(fens
            .iter()
            .any(|&f| plain.evaluate(&Board::from_fen(f).unwrap()) != plain.evaluate(&mirror(f))));
        // Walking a king across the middle: e1-d1 and back, incrementally.
        let mut b = Board::from_fen("4k3/8/8/3p4/4P3/8/PP6/4K3 w - - 0 1").unwrap();
        let mut stack = AccumulatorStack::new(net.clone(), 8);
        stack.reset(&b);
        for (ply, mv) in ["e1d1", "e8f8", "d1e1", "f8e8"].iter().enumerate() {
            let m = b.parse_uci(mv).unwrap();
            stack.push(ply + 1, &b, m);
            b.play(m);
            assert_eq!(stack.evaluate(&b, ply + 1), net.evaluate(&b), "after {mv}");
        }
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
