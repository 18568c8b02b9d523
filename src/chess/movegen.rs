//! Fully legal move generation with check and pin masks (no make-and-test).
//!
//! The generator hands out moves as *sets* (one origin and a bitboard of targets, or a whole
//! shifted set of pawn moves) to a `MoveSink`. A list sink expands them into `Move`s; the
//! counting sink only adds population counts, which is what makes bulk-counted perft fast.

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks,
};
use super::bitboard::Bitboard;
use super::board::{Board, CastlingRights};
use super::moves::{Move, MoveFlag, MoveList};
use super::piece::PieceKind;
use super::square::{Color, File, Rank, Square};

/// Receives generated moves in bulk.
pub(crate) trait MoveSink {
    /// Moves of one piece from `from`: quiet targets and capture targets.
    fn piece_moves(&mut self, from: Square, quiets: Bitboard, captures: Bitboard);
    /// Pawn moves of one kind for a whole set of targets; each came from `to - delta`.
    /// Promotion kinds stand for four moves each.
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, kind: PawnMoves);
    /// A single move (castling, en passant, pinned pawns).
    fn single(&mut self, m: Move);
}

/// A group of pawn moves that share a flag.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum PawnMoves {
    Push,
    Double,
    Capture,
    Promotion,
    PromotionCapture,
}

const PROMOS: [PieceKind; 4] = [
    PieceKind::Queen,
    PieceKind::Knight,
    PieceKind::Rook,
    PieceKind::Bishop,
];

/// Expands move sets into single moves and hands each to a closure.
struct Expand<F: FnMut(Move)>(F);

impl<F: FnMut(Move)> MoveSink for Expand<F> {
    #[inline]
    fn piece_moves(&mut self, from: Square, quiets: Bitboard, captures: Bitboard) {
        for to in captures {
            (self.0)(Move::new(from, to, MoveFlag::Capture));
        }
        for to in quiets {
            (self.0)(Move::new(from, to, MoveFlag::Quiet));
        }
    }

    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, kind: PawnMoves) {
        for to in targets {
            let from = to.offset(-delta);
            match kind {
                PawnMoves::Push => (self.0)(Move::new(from, to, MoveFlag::Quiet)),
                PawnMoves::Double => (self.0)(Move::new(from, to, MoveFlag::DoublePush)),
                PawnMoves::Capture => (self.0)(Move::new(from, to, MoveFlag::Capture)),
                PawnMoves::Promotion | PawnMoves::PromotionCapture => {
                    let cap = kind == PawnMoves::PromotionCapture;
                    for p in PROMOS {
                        (self.0)(Move::new(from, to, MoveFlag::promotion(p, cap)));
                    }
                }
            }
        }
    }

    #[inline]
    fn single(&mut self, m: Move) {
        (self.0)(m);
    }
}

/// Counts moves without building them.
struct Counter(u64);

impl MoveSink for Counter {
    #[inline]
    fn piece_moves(&mut self, _from: Square, quiets: Bitboard, captures: Bitboard) {
        self.0 += u64::from(quiets.count() + captures.count());
    }
    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, _delta: i8, kind: PawnMoves) {
        let n = u64::from(targets.count());
        self.0 += match kind {
            PawnMoves::Promotion | PawnMoves::PromotionCapture => 4 * n,
            _ => n,
        };
    }
    #[inline]
    fn single(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// Looks for one move among the generated sets without expanding them: an exact legality test
/// at the cost of a bulk count.
struct Contains {
    wanted: Move,
    found: bool,
}

impl MoveSink for Contains {
    #[inline]
    fn piece_moves(&mut self, from: Square, quiets: Bitboard, captures: Bitboard) {
        let to = self.wanted.to();
        if from == self.wanted.from() {
            let flag = if captures.has(to) {
                MoveFlag::Capture
            } else if quiets.has(to) {
                MoveFlag::Quiet
            } else {
                return;
            };
            self.found |= Move::new(from, to, flag) == self.wanted;
        }
    }

    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, kind: PawnMoves) {
        let to = self.wanted.to();
        if !targets.has(to) {
            return;
        }
        // `to` is a generated target, so `to - delta` is the real origin square.
        let from = to.offset(-delta);
        if from != self.wanted.from() {
            return;
        }
        let flag = match kind {
            PawnMoves::Push => MoveFlag::Quiet,
            PawnMoves::Double => MoveFlag::DoublePush,
            PawnMoves::Capture => MoveFlag::Capture,
            PawnMoves::Promotion | PawnMoves::PromotionCapture => match self.wanted.promotion() {
                Some(p) => MoveFlag::promotion(p, kind == PawnMoves::PromotionCapture),
                None => return,
            },
        };
        self.found |= Move::new(from, to, flag) == self.wanted;
    }

    #[inline]
    fn single(&mut self, m: Move) {
        self.found |= m == self.wanted;
    }
}

#[inline]
fn shift(bb: Bitboard, delta: i8) -> Bitboard {
    if delta >= 0 {
        Bitboard(bb.0 << delta)
    } else {
        Bitboard(bb.0 >> -delta)
    }
}

/// Generates the legal moves of `board` into `sink`. `QUIETS` selects non-captures
/// (castling included, promotions excluded); `NOISY` selects captures and all promotions.
#[inline(always)]
pub(crate) fn generate<S: MoveSink, const QUIETS: bool, const NOISY: bool>(
    board: &Board,
    sink: &mut S,
) {
    let us = board.side_to_move();
    let them = !us;
    let own = board.color(us);
    let enemy = board.color(them);
    let occ = own | enemy;
    let king = board.king_square(us);
    let checkers = board.checkers();
    let pinned = board.pinned();

    // King: every target not attacked once the king has left its square (so sliders see through it).
    let occ_no_king = occ.without(king);
    let mut kq = Bitboard::EMPTY;
    let mut kc = Bitboard::EMPTY;
    let mut targets = king_attacks(king) & !own;
    if !QUIETS {
        targets &= enemy;
    }
    if !NOISY {
        targets &= !enemy;
    }
    for to in targets {
        if !board.is_attacked(to, them, occ_no_king) {
            if enemy.has(to) {
                kc = kc.with(to);
            } else {
                kq = kq.with(to);
            }
        }
    }
    sink.piece_moves(king, kq, kc);

    if checkers.more_than_one() {
        return;
    }
    let check_mask = match checkers.first() {
        Some(c) => between(king, c).with(c),
        None => Bitboard::FULL,
    };
    let mut target_mask = !own & check_mask;
    if !QUIETS {
        target_mask &= enemy;
    }
    if !NOISY {
        target_mask &= !enemy;
    }

    if QUIETS && checkers.is_empty() {
        castling(board, us, occ, sink);
    }

    for from in board.pieces_of(us, PieceKind::Knight) & !pinned {
        let t = knight_attacks(from) & target_mask;
        sink.piece_moves(from, t & !enemy, t & enemy);
    }
    let queens = board.pieces_of(us, PieceKind::Queen);
    for from in (board.pieces_of(us, PieceKind::Bishop) | queens) & !pinned {
        let t = bishop_attacks(from, occ) & target_mask;
        sink.piece_moves(from, t & !enemy, t & enemy);
    }
    for from in (board.pieces_of(us, PieceKind::Rook) | queens) & !pinned {
        let t = rook_attacks(from, occ) & target_mask;
        sink.piece_moves(from, t & !enemy, t & enemy);
    }
    // A pinned piece can only move along its pin line, which never blocks or captures a checker.
    if checkers.is_empty() {
        for from in (board.pieces_of(us, PieceKind::Bishop) | queens) & pinned {
            let t = bishop_attacks(from, occ) & target_mask & line(king, from);
            sink.piece_moves(from, t & !enemy, t & enemy);
        }
        for from in (board.pieces_of(us, PieceKind::Rook) | queens) & pinned {
            let t = rook_attacks(from, occ) & target_mask & line(king, from);
            sink.piece_moves(from, t & !enemy, t & enemy);
        }
    }

    pawn_moves::<S, QUIETS, NOISY>(board, us, occ, enemy, king, check_mask, sink);
}

/// Castling, by the Chess960 rules that include standard chess: the king goes to the g- or
/// c-file and its rook beside it on the inner side; every square either crosses or lands on
/// must be empty but for the two pieces themselves, and no square the king crosses or lands on
/// may be attacked. Called only when the king is not in check.
#[inline(always)]
fn castling<S: MoveSink>(board: &Board, us: Color, occ: Bitboard, sink: &mut S) {
    let rights: CastlingRights = board.castling();
    let rank = us.back_rank();
    let king = board.king_square(us);
    for (short, flag) in [(true, MoveFlag::CastleKing), (false, MoveFlag::CastleQueen)] {
        if !rights.has(us, short) {
            continue;
        }
        let rook = board.castle_rook(us, short);
        let (king_to, rook_to) = if short {
            (
                Square::from_coords(File::G, rank),
                Square::from_coords(File::F, rank),
            )
        } else {
            (
                Square::from_coords(File::C, rank),
                Square::from_coords(File::D, rank),
            )
        };
        let king_path = between(king, king_to).with(king_to);
        let pieces = Bitboard::from_square(king).with(rook);
        let crossed = king_path | between(rook, rook_to).with(rook_to);
        if (crossed & occ & !pieces).any() {
            continue;
        }
        // Attacks are seen without our king and rook: in Chess960 the castling rook may be
        // what shields the king's target square from a rook or queen on the back rank.
        let without = occ & !pieces;
        let mut path = king_path;
        if Iterator::any(&mut path, |sq| board.is_attacked(sq, !us, without)) {
            continue;
        }
        sink.single(Move::new(king, king_to, flag));
    }
}

#[inline(always)]
fn pawn_moves<S: MoveSink, const QUIETS: bool, const NOISY: bool>(
    board: &Board,
    us: Color,
    occ: Bitboard,
    enemy: Bitboard,
    king: Square,
    check_mask: Bitboard,
    sink: &mut S,
) {
    let pawns = board.pieces_of(us, PieceKind::Pawn);
    let pinned = board.pinned();
    let empty = !occ;
    let (up, left, right) = match us {
        Color::White => (8i8, 7i8, 9i8),
        Color::Black => (-8, -9, -7),
    };
    let promo_rank = Bitboard::rank(Rank::R8.relative(us));
    let third_rank = Bitboard::rank(Rank::R3.relative(us));
    // Pawns that capture "left" must not be on the a-file (from White's view) and vice versa.
    let (not_left_edge, not_right_edge) = (!Bitboard::FILE_A, !Bitboard::FILE_H);

    // Unpinned pawns as whole sets.
    let free = pawns & !pinned;
    let push1 = shift(free, up) & empty;
    if QUIETS {
        let push2 = shift(push1 & third_rank, up) & empty & check_mask;
        sink.pawn_moves(push1 & check_mask & !promo_rank, up, PawnMoves::Push);
        sink.pawn_moves(push2, 2 * up, PawnMoves::Double);
    }
    if NOISY {
        sink.pawn_moves(push1 & check_mask & promo_rank, up, PawnMoves::Promotion);
        let cap_l = shift(free & not_left_edge, left) & enemy & check_mask;
        let cap_r = shift(free & not_right_edge, right) & enemy & check_mask;
        sink.pawn_moves(cap_l & !promo_rank, left, PawnMoves::Capture);
        sink.pawn_moves(cap_r & !promo_rank, right, PawnMoves::Capture);
        sink.pawn_moves(cap_l & promo_rank, left, PawnMoves::PromotionCapture);
        sink.pawn_moves(cap_r & promo_rank, right, PawnMoves::PromotionCapture);
    }

    // Pinned pawns one by one, along their pin line; never when in check (see above).
    if board.checkers().is_empty() {
        for from in pawns & pinned {
            let pin = line(king, from);
            let fb = Bitboard::from_square(from);
            let one = shift(fb, up) & empty & pin;
            let caps = pawn_attacks(us, from) & enemy & pin;
            if QUIETS {
                let two = shift(one & third_rank, up) & empty;
                sink.pawn_moves(one & !promo_rank, up, PawnMoves::Push);
                sink.pawn_moves(two, 2 * up, PawnMoves::Double);
            }
            if NOISY {
                sink.pawn_moves(one & promo_rank, up, PawnMoves::Promotion);
                for to in caps {
                    let delta = to.index() as i8 - from.index() as i8;
                    let kind = if promo_rank.has(to) {
                        PawnMoves::PromotionCapture
                    } else {
                        PawnMoves::Capture
                    };
                    sink.pawn_moves(Bitboard::from_square(to), delta, kind);
                }
            }
        }
    }

    if NOISY {
        if let Some(ep) = board.en_passant() {
            for from in pawn_attacks(!us, ep) & pawns {
                if board.ep_is_legal(from, ep) {
                    sink.single(Move::new(from, ep, MoveFlag::EnPassant));
                }
            }
        }
    }
}

impl Board {
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate::<_, true, true>(self, &mut Expand(|m| list.push(m)));
        list
    }

    /// Calls `f` with every legal move, without building a list.
    #[inline]
    pub fn for_each_legal_move(&self, f: impl FnMut(Move)) {
        generate::<_, true, true>(self, &mut Expand(f));
    }

    /// Calls `f` with every legal capture (en passant included) and promotion.
    #[inline]
    pub fn for_each_noisy_move(&self, f: impl FnMut(Move)) {
        generate::<_, false, true>(self, &mut Expand(f));
    }

    /// Legal captures (en passant included) and promotions: what quiescence search plays.
    pub fn noisy_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate::<_, false, true>(self, &mut Expand(|m| list.push(m)));
        list
    }

    /// Legal non-captures that are not promotions (castling included).
    pub fn quiet_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate::<_, true, false>(self, &mut Expand(|m| list.push(m)));
        list
    }

    /// The number of legal moves, counted in bulk without building a list.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = Counter(0);
        generate::<_, true, true>(self, &mut c);
        c.0
    }

    /// Whether the side to move has any legal move (false means mate or stalemate).
    pub fn has_legal_move(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// Whether `m` is a legal move here. Safe on any 16 bits, e.g. a move from a corrupt
    /// hash entry or typed by a user.
    pub fn is_legal(&self, m: Move) -> bool {
        match self.piece_at(m.from()) {
            Some(p) if p.color == self.side_to_move() => {
                if let Some(legal) = self.is_legal_simple(m, p.kind) {
                    return legal;
                }
                let mut sink = Contains {
                    wanted: m,
                    found: false,
                };
                generate::<_, true, true>(self, &mut sink);
                sink.found
            }
            _ => false,
        }
    }

    /// Decides legality directly for the common case, a plain move or capture by a piece other
    /// than the king; `None` for king moves, castling, en passant and promotions, which the
    /// generator settles.
    fn is_legal_simple(&self, m: Move, kind: PieceKind) -> Option<bool> {
        let flag = m.flag();
        if kind == PieceKind::King
            || !matches!(
                flag,
                MoveFlag::Quiet | MoveFlag::Capture | MoveFlag::DoublePush
            )
        {
            return None;
        }
        let us = self.side_to_move();
        let (from, to) = (m.from(), m.to());
        // Unused flag bits read as a quiet move; only the canonical encoding is a move.
        if Move::new(from, to, flag) != m {
            return Some(false);
        }
        let occ = self.occupied();
        let enemy = self.color(!us);
        // The flag must say exactly whether a piece is taken.
        if occ.has(to) != (flag == MoveFlag::Capture)
            || (flag == MoveFlag::Capture && !enemy.has(to))
        {
            return Some(false);
        }
        // Only a pawn makes a double push.
        if flag == MoveFlag::DoublePush && kind != PieceKind::Pawn {
            return Some(false);
        }
        let reaches = match kind {
            PieceKind::Knight => knight_attacks(from).has(to),
            PieceKind::Bishop => bishop_attacks(from, occ).has(to),
            PieceKind::Rook => rook_attacks(from, occ).has(to),
            PieceKind::Queen => queen_attacks(from, occ).has(to),
            _ => {
                let up: i8 = if us == Color::White { 8 } else { -8 };
                let rel = |sq: Square| sq.relative(us).rank();
                // A pawn reaching the last rank must promote: the generator's business.
                if rel(to) == Rank::R8 {
                    return Some(false);
                }
                let step = to.index() as i8 - from.index() as i8;
                match flag {
                    MoveFlag::Quiet => step == up,
                    MoveFlag::DoublePush => {
                        step == 2 * up && rel(from) == Rank::R2 && !occ.has(from.offset(up))
                    }
                    _ => pawn_attacks(us, from).has(to),
                }
            }
        };
        if !reaches {
            return Some(false);
        }
        let king = self.king_square(us);
        let checkers = self.checkers();
        if checkers.more_than_one() {
            return Some(false);
        }
        if let Some(c) = checkers.first() {
            if !between(king, c).with(c).has(to) {
                return Some(false);
            }
        }
        // A pinned piece stays on its pin line (and so never answers a check).
        if self.pinned().has(from) && (!checkers.is_empty() || !line(king, from).has(to)) {
            return Some(false);
        }
        Some(true)
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// Whether the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_move()
    }
}
