//! The position: bitboards, mailbox, state, Zobrist hash, and `make_move`.

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use super::bitboard::Bitboard;
use super::moves::{Move, MoveFlag};
use super::piece::{Piece, PieceKind};
use super::square::{Color, File, Square};
use super::zobrist;
use std::fmt;

/// Which castling moves are still allowed, as 4 bits (White short, White long, Black short, Black long).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No castling at all.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights.
    pub const ALL: CastlingRights = CastlingRights(15);

    /// The bit for `color` castling on the king's side (`short`) or queen's side.
    pub const fn bit(color: Color, short: bool) -> u8 {
        1 << (color as u8 * 2 + if short { 0 } else { 1 })
    }

    /// Whether `color` may still castle on that side.
    #[inline]
    pub const fn has(self, color: Color, short: bool) -> bool {
        self.0 & Self::bit(color, short) != 0
    }

    /// The rights with one more right added.
    pub const fn with(self, color: Color, short: bool) -> CastlingRights {
        CastlingRights(self.0 | Self::bit(color, short))
    }

    /// The raw 4-bit mask.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The rights with both colours swapped.
    pub const fn flip(self) -> CastlingRights {
        CastlingRights((self.0 >> 2) | ((self.0 & 3) << 2))
    }

    /// The index of one right (0..4, in the order of `bits`), for tables kept per right.
    #[inline]
    pub const fn index(color: Color, short: bool) -> usize {
        color as usize * 2 + if short { 0 } else { 1 }
    }

    /// The rights without `color`'s two.
    #[inline]
    const fn without_color(self, color: Color) -> CastlingRights {
        CastlingRights(self.0 & !(3 << (color as u8 * 2)))
    }
}

/// The rook squares of the four castling rights in standard chess (White short, White long,
/// Black short, Black long); Chess960 positions keep their own.
pub const STANDARD_CASTLE_ROOKS: [Square; 4] = [Square::H1, Square::A1, Square::H8, Square::A8];

/// How a FEN names castling rights, so that a position is written back the way it was read.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum CastlingNotation {
    /// `KQkq` (X-FEN: a rook file letter only where `K`/`Q` would be ambiguous).
    #[default]
    Kqkq,
    /// Shredder-FEN: always the rook's file (`HAha`).
    Files,
}

/// Writes the rights as in FEN: `KQkq`, a subset of it, or `-`.
impl fmt::Display for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("-");
        }
        for (c, short, ch) in [
            (Color::White, true, 'K'),
            (Color::White, false, 'Q'),
            (Color::Black, true, 'k'),
            (Color::Black, false, 'q'),
        ] {
            if self.has(c, short) {
                write!(f, "{ch}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

const DECODE: [Option<Piece>; 13] = {
    let mut t = [None; 13];
    let mut i = 0;
    while i < 12 {
        let color = if i < 6 { Color::White } else { Color::Black };
        if let Some(kind) = PieceKind::from_index(i % 6) {
            t[i + 1] = Some(Piece::new(color, kind));
        }
        i += 1;
    }
    t
};

/// The piece a mailbox byte stands for.
#[inline]
fn decode(v: u8) -> Option<Piece> {
    DECODE[(v as usize).min(12)]
}

/// A chess position. Small and `Copy`: search copies it to make a move.
#[derive(Clone, Copy)]
pub struct Board {
    pieces: [Bitboard; 6],
    colors: [Bitboard; 2],
    /// One byte a square: 0 when empty, else 1 + `Piece::index()`, which keeps the board small to copy.
    mailbox: [u8; 64],
    side: Color,
    castling: CastlingRights,
    /// The rook square of each castling right (index `CastlingRights::index`): fixed for a
    /// game, and the corners unless the game is Chess960.
    castle_rooks: [Square; 4],
    /// How the FEN this came from wrote the castling field.
    notation: CastlingNotation,
    ep: Option<Square>,
    ep_in_hash: bool,
    halfmove: u16,
    fullmove: u16,
    hash: u64,
    checkers: Bitboard,
    pinned: Bitboard,
}

impl PartialEq for Board {
    /// Two boards are equal when they are the same position with the same clocks;
    /// an en-passant square that allows no capture does not count.
    fn eq(&self, other: &Board) -> bool {
        self.pieces == other.pieces
            && self.colors == other.colors
            && self.side == other.side
            && self.castling == other.castling
            && (0..4).all(|i| {
                self.castling.0 & (1 << i) == 0 || self.castle_rooks[i] == other.castle_rooks[i]
            })
            && self.ep_in_hash == other.ep_in_hash
            && (!self.ep_in_hash || self.ep == other.ep)
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}
impl Eq for Board {}

impl Default for Board {
    fn default() -> Self {
        Board::startpos()
    }
}

impl Board {
    /// An empty board with White to move: the start of building a position piece by piece.
    pub(crate) fn empty() -> Board {
        Board {
            pieces: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            mailbox: [0; 64],
            side: Color::White,
            castling: CastlingRights::NONE,
            castle_rooks: STANDARD_CASTLE_ROOKS,
            notation: CastlingNotation::Kqkq,
            ep: None,
            ep_in_hash: false,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        }
    }

    /// Sets the state fields, then derives hash, checkers and pins: the last step of building a board.
    pub(crate) fn finish(
        &mut self,
        side: Color,
        castling: CastlingRights,
        ep: Option<Square>,
        halfmove: u16,
        fullmove: u16,
    ) {
        self.side = side;
        self.castling = castling;
        self.ep = ep;
        self.halfmove = halfmove;
        self.fullmove = fullmove;
        self.update_checks_and_pins();
        self.ep_in_hash = ep.is_some_and(|sq| self.ep_capture_possible(sq));
        self.hash = self.compute_hash();
    }

    /// All pieces of one kind, both colours.
    #[inline]
    pub fn pieces(&self, kind: PieceKind) -> Bitboard {
        self.pieces[kind.index()]
    }

    /// All pieces of one colour.
    #[inline]
    pub fn color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// The pieces of `color` and `kind`.
    #[inline]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces[kind.index()] & self.colors[color.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.mailbox[sq.index()])
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The castling rights.
    #[inline]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The square of the rook that `color` castles with on that side (meaningful while the
    /// right is held; the corner in standard chess).
    #[inline]
    pub fn castle_rook(&self, color: Color, short: bool) -> Square {
        self.castle_rooks[CastlingRights::index(color, short)]
    }

    /// Sets the castling rooks and how the FEN wrote them (FEN parsing, before `finish`).
    pub(crate) fn set_castling_setup(&mut self, rooks: [Square; 4], notation: CastlingNotation) {
        self.castle_rooks = rooks;
        self.notation = notation;
    }

    /// How the castling field is written in FEN.
    #[inline]
    pub fn castling_notation(&self) -> CastlingNotation {
        self.notation
    }

    /// Whether a castling right held here needs Chess960 rules: the king is not on the e-file
    /// or its rook not in the corner.
    pub fn is_chess960(&self) -> bool {
        Color::ALL.into_iter().any(|c| {
            [true, false].into_iter().any(|short| {
                self.castling.has(c, short)
                    && (self.king_square(c).file() != File::E
                        || self.castle_rook(c, short)
                            != STANDARD_CASTLE_ROOKS[CastlingRights::index(c, short)])
            })
        })
    }

    /// The en-passant square as the position records it (FEN's fourth field).
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    /// The en-passant square only if an en-passant capture is legal now.
    #[inline]
    pub fn legal_en_passant(&self) -> Option<Square> {
        if self.ep_in_hash {
            self.ep
        } else {
            None
        }
    }

    /// Half-moves since the last capture or pawn move (for the fifty-move rule).
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The move number, starting at 1 and incremented after Black moves.
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The Zobrist hash of the position (pieces, side, castling, capturable en passant).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// The side to move's pieces pinned to its king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// The square of `color`'s king. Every valid board has exactly one king per side.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        // FEN parsing rejects boards without a king, and moves never remove one, so the set is
        // non-empty; a debug build stops here if that ever breaks.
        let king = self.pieces_of(color, PieceKind::King).first();
        debug_assert!(king.is_some(), "no {color:?} king on {self:?}");
        king.unwrap_or(Square::A1)
    }

    /// All pieces (of both colours) attacking `sq`, with `occupied` as the blockers.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let rq = self.pieces[PieceKind::Rook.index()] | self.pieces[PieceKind::Queen.index()];
        let bq = self.pieces[PieceKind::Bishop.index()] | self.pieces[PieceKind::Queen.index()];
        (knight_attacks(sq) & self.pieces[PieceKind::Knight.index()])
            | (king_attacks(sq) & self.pieces[PieceKind::King.index()])
            | (rook_attacks(sq, occupied) & rq)
            | (bishop_attacks(sq, occupied) & bq)
            | (pawn_attacks(Color::White, sq) & self.pieces_of(Color::Black, PieceKind::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces_of(Color::White, PieceKind::Pawn))
    }

    /// Whether `by` attacks `sq`, with `occupied` as the blockers.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.colors[by.index()];
        let rq =
            (self.pieces[PieceKind::Rook.index()] | self.pieces[PieceKind::Queen.index()]) & them;
        let bq =
            (self.pieces[PieceKind::Bishop.index()] | self.pieces[PieceKind::Queen.index()]) & them;
        (knight_attacks(sq) & self.pieces[PieceKind::Knight.index()] & them).any()
            || (pawn_attacks(!by, sq) & self.pieces[PieceKind::Pawn.index()] & them).any()
            || (king_attacks(sq) & self.pieces[PieceKind::King.index()] & them).any()
            || (rook_attacks(sq, occupied) & rq).any()
            || (bishop_attacks(sq, occupied) & bq).any()
    }

    /// The hash computed from scratch; `make_move` keeps `hash()` equal to this incrementally.
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                h ^= zobrist::piece(p, sq);
            }
        }
        if self.side == Color::Black {
            h ^= zobrist::side();
        }
        h ^= zobrist::castling(self.castling.bits());
        if let Some(ep) = self.legal_en_passant() {
            h ^= zobrist::en_passant(ep.file());
        }
        h
    }

    /// Places `piece` on the empty square `sq`.
    #[inline]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.pieces[piece.kind.index()] |= bb;
        self.colors[piece.color.index()] |= bb;
        self.mailbox[sq.index()] = 1 + piece.index() as u8;
        self.hash ^= zobrist::piece(piece, sq);
    }

    /// Removes `piece` from `sq`.
    #[inline]
    fn remove(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.pieces[piece.kind.index()] ^= bb;
        self.colors[piece.color.index()] ^= bb;
        self.mailbox[sq.index()] = 0;
        self.hash ^= zobrist::piece(piece, sq);
    }

    /// Moves `piece` from `from` to the empty square `to`.
    #[inline]
    fn shift(&mut self, from: Square, to: Square, piece: Piece) {
        let bb = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.pieces[piece.kind.index()] ^= bb;
        self.colors[piece.color.index()] ^= bb;
        self.mailbox[from.index()] = 0;
        self.mailbox[to.index()] = 1 + piece.index() as u8;
        self.hash ^= zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
    }

    /// The position after the legal move `m` (copy-make).
    ///
    /// `m` must be legal here (from the generator, or checked with `is_legal`); anything else
    /// leaves a board that breaks the invariants.
    #[inline]
    pub fn make_move(&self, m: Move) -> Board {
        let mut b = *self;
        b.play(m);
        b
    }

    /// Plays the legal move `m` on this board in place.
    pub fn play(&mut self, m: Move) {
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            // A legal move always starts on one of our pieces; an illegal one is a caller bug
            // that we refuse to turn into a corrupt board.
            debug_assert!(false, "make_move({m}) from an empty square");
            return;
        };

        if self.ep_in_hash {
            if let Some(ep) = self.ep {
                self.hash ^= zobrist::en_passant(ep.file());
            }
        }
        self.ep = None;
        self.ep_in_hash = false;
        self.hash ^= zobrist::castling(self.castling.bits());
        self.halfmove = self.halfmove.saturating_add(1);

        match m.flag() {
            MoveFlag::Quiet | MoveFlag::DoublePush => self.shift(from, to, piece),
            MoveFlag::Capture => {
                if let Some(victim) = self.piece_at(to) {
                    self.remove(to, victim);
                }
                self.shift(from, to, piece);
                self.halfmove = 0;
            }
            MoveFlag::EnPassant => {
                let victim_sq = Square::from_coords(to.file(), from.rank());
                self.remove(victim_sq, Piece::new(!us, PieceKind::Pawn));
                self.shift(from, to, piece);
            }
            MoveFlag::CastleKing | MoveFlag::CastleQueen => {
                // The king goes to the g- or c-file and the rook beside it, on the inner side.
                // In Chess960 either may already stand on the other's target square (or on
                // its own), so both leave the board before either lands.
                let short = m.flag() == MoveFlag::CastleKing;
                let rank = us.back_rank();
                let rook = Piece::new(us, PieceKind::Rook);
                let rook_from = self.castle_rook(us, short);
                let rook_to = Square::from_coords(if short { File::F } else { File::D }, rank);
                self.remove(from, piece);
                self.remove(rook_from, rook);
                self.put(to, piece);
                self.put(rook_to, rook);
            }
            _ => {
                // Promotions, with or without a capture.
                if m.is_capture() {
                    if let Some(victim) = self.piece_at(to) {
                        self.remove(to, victim);
                    }
                }
                self.remove(from, piece);
                // The move's flag says promotion, so it names a piece; checked in debug builds.
                let promo = m.promotion();
                debug_assert!(promo.is_some(), "promotion flag without a piece: {m:?}");
                let promo = promo.unwrap_or(PieceKind::Queen);
                self.put(to, Piece::new(us, promo));
            }
        }
        if piece.kind == PieceKind::Pawn {
            self.halfmove = 0;
        }

        if self.castling.0 != 0 {
            // A right ends when its king moves, or when anything leaves or lands on its rook's
            // square (the rook moving or being captured).
            if piece.kind == PieceKind::King {
                self.castling = self.castling.without_color(us);
            }
            for i in 0..4 {
                let rook = self.castle_rooks[i];
                if rook == from || rook == to {
                    self.castling.0 &= !(1 << i);
                }
            }
        }
        self.hash ^= zobrist::castling(self.castling.bits());

        self.side = !us;
        self.hash ^= zobrist::side();
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.update_checks_and_pins();

        if m.flag() == MoveFlag::DoublePush {
            let ep = Square::from_coords(
                from.file(),
                if us == Color::White {
                    super::square::Rank::R3
                } else {
                    super::square::Rank::R6
                },
            );
            self.ep = Some(ep);
            if self.ep_capture_possible(ep) {
                self.ep_in_hash = true;
                self.hash ^= zobrist::en_passant(ep.file());
            } else {
                // Keep the square only when a capture is possible, as Stockfish and
                // python-chess do, so that equal positions compare and print equal.
                self.ep = None;
            }
        }
    }

    /// The position after `m`, or after a pass when `m` is `Move::NULL` (a null move read from
    /// PGN). For reading and writing games; the search calls `make_move` directly.
    pub fn after(&self, m: Move) -> Board {
        if m == Move::NULL {
            self.make_null_move()
        } else {
            self.make_move(m)
        }
    }

    /// The position with the side to move passing (for null-move pruning). Not legal in check.
    pub fn make_null_move(&self) -> Board {
        let mut b = *self;
        if b.ep_in_hash {
            if let Some(ep) = b.ep {
                b.hash ^= zobrist::en_passant(ep.file());
            }
        }
        b.ep = None;
        b.ep_in_hash = false;
        b.halfmove = b.halfmove.saturating_add(1);
        // A pass by Black ends the move as Black's moves do (PGN numbers the moves after it).
        if b.side == Color::Black {
            b.fullmove = b.fullmove.saturating_add(1);
        }
        b.side = !b.side;
        b.hash ^= zobrist::side();
        b.update_checks_and_pins();
        b
    }

    /// Whether the side to move has a legal en-passant capture onto `ep`.
    pub(crate) fn ep_capture_possible(&self, ep: Square) -> bool {
        let us = self.side;
        let capturers = pawn_attacks(!us, ep) & self.pieces_of(us, PieceKind::Pawn);
        let mut it = capturers;
        Iterator::any(&mut it, |from| self.ep_is_legal(from, ep))
    }

    /// Whether the en-passant capture `from`×`ep` leaves our king safe.
    #[inline]
    pub(crate) fn ep_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.side;
        let victim = Square::from_coords(ep.file(), from.rank());
        if self.piece_at(victim) != Some(Piece::new(!us, PieceKind::Pawn))
            || self.piece_at(ep).is_some()
        {
            return false;
        }
        let occ = (self.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(victim))
            | Bitboard::from_square(ep);
        let king = self.king_square(us);
        let attackers =
            self.attackers_to(king, occ) & self.color(!us) & !Bitboard::from_square(victim);
        attackers.is_empty()
    }

    /// Recomputes `checkers` and `pinned` for the side to move.
    fn update_checks_and_pins(&mut self) {
        let us = self.side;
        let them = !us;
        let king = self.king_square(us);
        let enemy = self.color(them);
        let occ = self.occupied();
        let mut checkers = (knight_attacks(king) & self.pieces_of(them, PieceKind::Knight))
            | (pawn_attacks(us, king) & self.pieces_of(them, PieceKind::Pawn));
        let queens = self.pieces(PieceKind::Queen);
        let snipers = ((rook_attacks(king, Bitboard::EMPTY)
            & (self.pieces(PieceKind::Rook) | queens))
            | (bishop_attacks(king, Bitboard::EMPTY) & (self.pieces(PieceKind::Bishop) | queens)))
            & enemy;
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let blockers = between(king, s) & occ;
            if blockers.is_empty() {
                checkers |= Bitboard::from_square(s);
            } else if !blockers.more_than_one() {
                pinned |= blockers & self.color(us);
            }
        }
        self.checkers = checkers;
        self.pinned = pinned;
    }

    /// A hash of the pawn structure alone (both colours' pawns), for tables keyed by it.
    #[inline]
    pub fn pawn_key(&self) -> u64 {
        let w = self.pieces_of(Color::White, PieceKind::Pawn);
        let b = self.pieces_of(Color::Black, PieceKind::Pawn);
        (w.0 ^ b.0.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// The non-pawn, non-king material of `color` exists (null-move pruning needs it).
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        (self.color(color) & !(self.pieces(PieceKind::Pawn) | self.pieces(PieceKind::King))).any()
    }

    /// The same position with colours swapped and the board mirrored (for symmetry tests).
    pub fn mirrored(&self) -> Board {
        let mut b = Board::empty();
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                b.put(sq.flip(), Piece::new(!p.color, p.kind));
            }
        }
        let r = self.castle_rooks;
        b.castle_rooks = [r[2].flip(), r[3].flip(), r[0].flip(), r[1].flip()];
        b.notation = self.notation;
        b.finish(
            !self.side,
            self.castling.flip(),
            self.ep.map(Square::flip),
            self.halfmove,
            self.fullmove,
        );
        b
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_fen())
    }
}

/// Draws the board as text, rank 8 on top, with the FEN below.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in super::square::Rank::all().rev() {
            write!(f, "{} ", rank.to_char())?;
            for file in File::all() {
                let c = self
                    .piece_at(Square::from_coords(file, rank))
                    .map_or('.', Piece::fen_char);
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h")?;
        write!(f, "Fen: {}", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A broken invariant stops a debug build (CI runs these in one); release builds keep going.
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "king")]
    fn a_missing_king_is_caught_in_debug_builds() {
        let mut b = Board::startpos();
        b.remove(Square::E1, Piece::new(Color::White, PieceKind::King));
        let _ = b.king_square(Color::White);
    }

    #[test]
    fn king_square_finds_the_king() {
        let b = Board::from_fen("8/8/8/8/8/8/8/k5K1 w - - 0 1").unwrap();
        assert_eq!(b.king_square(Color::White), Square::G1);
        assert_eq!(b.king_square(Color::Black), Square::A1);
    }
}
