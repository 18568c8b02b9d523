//! The 16-bit `Move`, move lists, and UCI long algebraic notation.

use super::piece::PieceKind;
use super::square::Square;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A move packed into 16 bits: from (6), to (6), and 4 flag bits.
///
/// Castling is encoded as the king's move (`e1g1`), as UCI writes it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

/// What kind of move a `Move` is, beyond its squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum MoveFlag {
    /// A move to an empty square.
    Quiet = 0,
    /// A pawn's two-square advance.
    DoublePush = 1,
    /// Castling on the king's side.
    CastleKing = 2,
    /// Castling on the queen's side.
    CastleQueen = 3,
    /// A capture (not en passant).
    Capture = 4,
    /// An en-passant capture.
    EnPassant = 5,
    /// Promotion to a knight.
    PromoKnight = 8,
    /// Promotion to a bishop.
    PromoBishop = 9,
    /// Promotion to a rook.
    PromoRook = 10,
    /// Promotion to a queen.
    PromoQueen = 11,
    /// Capture promoting to a knight.
    PromoCaptureKnight = 12,
    /// Capture promoting to a bishop.
    PromoCaptureBishop = 13,
    /// Capture promoting to a rook.
    PromoCaptureRook = 14,
    /// Capture promoting to a queen.
    PromoCaptureQueen = 15,
}

impl MoveFlag {
    const fn from_bits(b: u16) -> MoveFlag {
        match b & 15 {
            1 => MoveFlag::DoublePush,
            2 => MoveFlag::CastleKing,
            3 => MoveFlag::CastleQueen,
            4 => MoveFlag::Capture,
            5 => MoveFlag::EnPassant,
            8 => MoveFlag::PromoKnight,
            9 => MoveFlag::PromoBishop,
            10 => MoveFlag::PromoRook,
            11 => MoveFlag::PromoQueen,
            12 => MoveFlag::PromoCaptureKnight,
            13 => MoveFlag::PromoCaptureBishop,
            14 => MoveFlag::PromoCaptureRook,
            15 => MoveFlag::PromoCaptureQueen,
            _ => MoveFlag::Quiet,
        }
    }

    /// The promotion flag for `kind` (knight..queen), with or without a capture. A pawn or
    /// king is no promotion piece: every caller passes one of the four (the move generator's
    /// list, SAN/UCI readers that have checked the letter), and a debug build stops otherwise.
    pub const fn promotion(kind: PieceKind, capture: bool) -> MoveFlag {
        let base = match kind {
            PieceKind::Knight => 8,
            PieceKind::Bishop => 9,
            PieceKind::Rook => 10,
            PieceKind::Queen => 11,
            PieceKind::Pawn | PieceKind::King => {
                debug_assert!(false, "a pawn or king is no promotion piece");
                11
            }
        };
        MoveFlag::from_bits(base + if capture { 4 } else { 0 })
    }
}

impl Move {
    /// The all-zero move (a1a1), used as "no move" and as the null move in search.
    pub const NULL: Move = Move(0);

    /// A move from `from` to `to` of the given kind.
    #[inline]
    pub const fn new(from: Square, to: Square, flag: MoveFlag) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | (flag as u16) << 12)
    }

    /// The raw 16 bits, for storing in a transposition table.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move with these raw bits; it may be nonsense, so check it with `Board::is_legal`.
    #[inline]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// The square the piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index_masked(self.0 as u32)
    }

    /// The square the piece goes to (the king's destination when castling).
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_masked((self.0 >> 6) as u32)
    }

    /// The kind of move.
    #[inline]
    pub const fn flag(self) -> MoveFlag {
        MoveFlag::from_bits(self.0 >> 12)
    }

    /// Whether this move takes a piece (en passant included).
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.0 >> 12 & 4 != 0
    }

    /// Whether this move promotes a pawn.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 >> 12 & 8 != 0
    }

    /// Whether this move is a capture or a promotion (what quiescence search looks at).
    #[inline]
    pub const fn is_noisy(self) -> bool {
        self.0 >> 12 & 12 != 0
    }

    /// Whether this move is castling.
    #[inline]
    pub const fn is_castle(self) -> bool {
        matches!(self.flag(), MoveFlag::CastleKing | MoveFlag::CastleQueen)
    }

    /// Whether this move is an en-passant capture.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        matches!(self.flag(), MoveFlag::EnPassant)
    }

    /// The piece a pawn promotes to, if this is a promotion.
    #[inline]
    pub const fn promotion(self) -> Option<PieceKind> {
        if self.is_promotion() {
            PieceKind::from_index(((self.0 >> 12) & 3) as usize + 1)
        } else {
            None
        }
    }

    /// The move in UCI notation (`e2e4`, `e7e8q`, `e1g1`); `0000` for the null move.
    pub fn to_uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Move::NULL {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.lower_char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}({:?})", self.flag())
    }
}

/// A move in UCI form before it is matched against a position: squares and promotion only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UciMove {
    /// The square the piece leaves.
    pub from: Square,
    /// The square it goes to.
    pub to: Square,
    /// The promotion piece, if any.
    pub promotion: Option<PieceKind>,
}

/// Why a move could not be read or played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move in UCI form.
    #[error("{0:?} is not a move in UCI form (e.g. e2e4, e7e8q)")]
    Syntax(String),
    /// The move is well formed but not legal in the position.
    #[error("{0} is not legal here")]
    Illegal(String),
}

impl FromStr for UciMove {
    type Err = MoveError;
    fn from_str(s: &str) -> Result<UciMove, MoveError> {
        let err = || MoveError::Syntax(s.to_string());
        if !s.is_ascii() || !(4..=5).contains(&s.len()) {
            return Err(err());
        }
        let from: Square = s[0..2].parse().map_err(|_| err())?;
        let to: Square = s[2..4].parse().map_err(|_| err())?;
        let promotion = match s.as_bytes().get(4) {
            None => None,
            Some(&c) => match PieceKind::from_char(c as char) {
                Some(
                    k
                    @ (PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen),
                ) => Some(k),
                _ => return Err(err()),
            },
        };
        Ok(UciMove {
            from,
            to,
            promotion,
        })
    }
}

/// The most legal moves any position that `Board` admits can have, with room to spare.
///
/// Why it holds: FEN parsing admits at most 16 pieces a side (and moves never add one), so the
/// side to move has a king (at most 8 moves) and at most 15 other pieces, none of which can
/// have more than a queen's 27 moves (a pawn has at most 12: three targets, four promotions
/// each). 8 + 15 × 27 = 413. The most found by search with 16 pieces a side is 237
/// (`kn2QQ2/ppQ4Q/Q4Q2/3Q4/Q5Q1/2Q1Q3/Q6Q/1Q3Q1K w - - 0 1`); reachable positions have at most 218.
pub const MAX_MOVES: usize = 416;

/// A fixed-capacity list of moves on the stack, large enough for any position (`MAX_MOVES`).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. No position has more than `MAX_MOVES` (see there why), so the list
    /// cannot overflow.
    #[inline]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES, "more than MAX_MOVES legal moves");
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use crate::chess::Board;

    #[test]
    fn a_position_with_more_moves_than_the_old_capacity_allows_keeps_them_all() {
        // 237 legal moves (python-chess agrees); 15 queens and a king, each side at 16 pieces.
        let b = Board::from_fen("kn2QQ2/ppQ4Q/Q4Q2/3Q4/Q5Q1/2Q1Q3/Q6Q/1Q3Q1K w - - 0 1").unwrap();
        assert_eq!(b.count_legal_moves(), 237);
        assert_eq!(b.legal_moves().len(), 237);
        let mut n = 0;
        b.for_each_legal_move(|_| n += 1);
        assert_eq!(n, 237);
    }

    #[test]
    fn the_halfmove_clock_saturates_instead_of_overflowing() {
        let b = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99999 1").unwrap();
        assert_eq!(b.halfmove_clock(), u16::MAX);
        let m = b.parse_san("Ra2").unwrap();
        assert_eq!(b.make_move(m).halfmove_clock(), u16::MAX);
        assert_eq!(b.make_null_move().halfmove_clock(), u16::MAX);
    }
    use super::*;

    #[test]
    fn packs_and_unpacks() {
        let m = Move::new(Square::E1, Square::G1, MoveFlag::CastleKing);
        assert_eq!(m.from(), Square::E1);
        assert_eq!(m.to(), Square::G1);
        assert!(m.is_castle() && !m.is_capture());
        let p = Move::new(
            "b7".parse().unwrap(),
            Square::A8,
            MoveFlag::promotion(PieceKind::Knight, true),
        );
        assert_eq!(p.promotion(), Some(PieceKind::Knight));
        assert!(p.is_capture() && p.is_noisy());
        assert_eq!(p.to_string(), "b7a8n");
        assert_eq!(Move::from_bits(p.bits()), p);
    }

    #[test]
    fn parses_uci_syntax() {
        let m: UciMove = "e7e8q".parse().unwrap();
        assert_eq!(m.promotion, Some(PieceKind::Queen));
        for bad in ["", "e2", "e2e9", "e2e4k", "e2e4qq", "xxxx", "é2e4"] {
            assert!(
                matches!(bad.parse::<UciMove>(), Err(MoveError::Syntax(_))),
                "{bad}"
            );
        }
    }
}
