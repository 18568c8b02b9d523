//! Colours, files, ranks and squares.

use std::fmt;
use std::ops::Not;
use std::str::FromStr;
use thiserror::Error;

/// A side in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black: an index into per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank on which this side's pieces start (1 for White, 8 for Black).
    #[inline]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::R1,
            Color::Black => Rank::R8,
        }
    }

    /// `w` or `b`, as in FEN.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// "White" or "Black".
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A column of the board, a to h.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    /// File a.
    pub const A: File = File(0);
    /// File c.
    pub const C: File = File(2);
    /// File d.
    pub const D: File = File(3);
    /// File e.
    pub const E: File = File(4);
    /// File f.
    pub const F: File = File(5);
    /// File g.
    pub const G: File = File(6);
    /// File h.
    pub const H: File = File(7);

    /// The file with index 0..8, if in range.
    pub const fn new(i: u8) -> Option<File> {
        if i < 8 {
            Some(File(i))
        } else {
            None
        }
    }

    /// Index 0 (a) to 7 (h).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Parses `a`..`h`.
    pub fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File(c as u8 - b'a')),
            _ => None,
        }
    }

    /// The letter `a`..`h`.
    pub const fn to_char(self) -> char {
        (b'a' + self.0) as char
    }

    /// All eight files, a first.
    pub fn all() -> impl DoubleEndedIterator<Item = File> {
        (0..8).map(File)
    }
}

/// A row of the board, 1 to 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// The first rank.
    pub const R1: Rank = Rank(0);
    /// The second rank.
    pub const R2: Rank = Rank(1);
    /// The third rank.
    pub const R3: Rank = Rank(2);
    /// The fourth rank.
    pub const R4: Rank = Rank(3);
    /// The fifth rank.
    pub const R5: Rank = Rank(4);
    /// The sixth rank.
    pub const R6: Rank = Rank(5);
    /// The seventh rank.
    pub const R7: Rank = Rank(6);
    /// The eighth rank.
    pub const R8: Rank = Rank(7);

    /// The rank with index 0..8, if in range.
    pub const fn new(i: u8) -> Option<Rank> {
        if i < 8 {
            Some(Rank(i))
        } else {
            None
        }
    }

    /// Index 0 (rank 1) to 7 (rank 8).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Parses `1`..`8`.
    pub fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }

    /// The digit `1`..`8`.
    pub const fn to_char(self) -> char {
        (b'1' + self.0) as char
    }

    /// The same rank seen from the other side (rank 1 ↔ rank 8).
    pub const fn flip(self) -> Rank {
        Rank(7 - self.0)
    }

    /// This rank as seen by `color` (rank 2 is Black's relative rank 7).
    pub const fn relative(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }

    /// All eight ranks, rank 1 first.
    pub fn all() -> impl DoubleEndedIterator<Item = Rank> {
        (0..8).map(Rank)
    }
}

/// One of the 64 squares: a1 = 0, b1 = 1, …, h8 = 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Why a square name could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0:?} is not a square (expected a file a-h and a rank 1-8, e.g. e4)")]
pub struct SquareParseError(pub String);

#[allow(missing_docs)]
impl Square {
    pub const A1: Square = Square(0);
    pub const B1: Square = Square(1);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const B8: Square = Square(57);
    pub const C8: Square = Square(58);
    pub const D8: Square = Square(59);
    pub const E8: Square = Square(60);
    pub const F8: Square = Square(61);
    pub const G8: Square = Square(62);
    pub const H8: Square = Square(63);
}

impl Square {
    /// The square with index 0..64, if in range.
    #[inline]
    pub const fn new(i: u8) -> Option<Square> {
        if i < 64 {
            Some(Square(i))
        } else {
            None
        }
    }

    /// The square with index `i & 63`: for callers that already know `i < 64`.
    #[inline]
    pub(crate) const fn from_index_masked(i: u32) -> Square {
        Square((i & 63) as u8)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// Index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file of this square.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// The rank of this square.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The square mirrored top-to-bottom (e2 ↔ e7).
    #[inline]
    pub const fn flip(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// This square as seen from `color`'s side (flipped for Black).
    #[inline]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }

    /// The square `delta` steps away in index terms; the caller guarantees it stays on the board.
    #[inline]
    pub(crate) const fn offset(self, delta: i8) -> Square {
        Square((self.0 as i8 + delta) as u8 & 63)
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

impl FromStr for Square {
    type Err = SquareParseError;
    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => match (File::from_char(f), Rank::from_char(r)) {
                (Some(f), Some(r)) => Ok(Square::from_coords(f, r)),
                _ => Err(SquareParseError(s.to_string())),
            },
            _ => Err(SquareParseError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("h8".parse::<Square>().unwrap().index(), 63);
        assert!("e9".parse::<Square>().is_err());
        assert!("i1".parse::<Square>().is_err());
        assert!("e".parse::<Square>().is_err());
        assert!("e44".parse::<Square>().is_err());
    }

    #[test]
    fn flips() {
        assert_eq!(Square::E1.flip(), Square::E8);
        assert_eq!(Rank::R2.relative(Color::Black), Rank::R7);
        assert_eq!(!Color::White, Color::Black);
    }
}
