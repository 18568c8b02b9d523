//! Piece kinds and coloured pieces.

use super::square::Color;
use std::fmt;

/// What a piece is, without its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// A pawn.
    Pawn = 0,
    /// A knight.
    Knight = 1,
    /// A bishop.
    Bishop = 2,
    /// A rook.
    Rook = 3,
    /// A queen.
    Queen = 4,
    /// A king.
    King = 5,
}

impl PieceKind {
    /// All six kinds, pawn first.
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];

    /// 0 (pawn) to 5 (king).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with index 0..6.
    #[inline]
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        match i {
            0 => Some(PieceKind::Pawn),
            1 => Some(PieceKind::Knight),
            2 => Some(PieceKind::Bishop),
            3 => Some(PieceKind::Rook),
            4 => Some(PieceKind::Queen),
            5 => Some(PieceKind::King),
            _ => None,
        }
    }

    /// The upper-case letter used in SAN and for White in FEN (`P` for pawns).
    pub const fn upper_char(self) -> char {
        match self {
            PieceKind::Pawn => 'P',
            PieceKind::Knight => 'N',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Queen => 'Q',
            PieceKind::King => 'K',
        }
    }

    /// The lower-case letter used in UCI promotions and for Black in FEN.
    pub const fn lower_char(self) -> char {
        self.upper_char().to_ascii_lowercase()
    }

    /// Parses a piece letter of either case.
    pub fn from_char(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'P' => Some(PieceKind::Pawn),
            'N' => Some(PieceKind::Knight),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'Q' => Some(PieceKind::Queen),
            'K' => Some(PieceKind::King),
            _ => None,
        }
    }

    /// The English name, e.g. "knight".
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::Pawn => "pawn",
            PieceKind::Knight => "knight",
            PieceKind::Bishop => "bishop",
            PieceKind::Rook => "rook",
            PieceKind::Queen => "queen",
            PieceKind::King => "king",
        }
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What piece it is.
    pub kind: PieceKind,
}

impl Piece {
    /// The piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// Index 0..12: White's six kinds, then Black's.
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.kind.index()
    }

    /// The FEN letter: upper case for White, lower case for Black.
    pub const fn fen_char(self) -> char {
        match self.color {
            Color::White => self.kind.upper_char(),
            Color::Black => self.kind.lower_char(),
        }
    }

    /// Parses a FEN letter.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = PieceKind::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }

    /// The Unicode chess glyph (♔ … ♟).
    pub const fn glyph(self) -> char {
        match (self.color, self.kind) {
            (Color::White, PieceKind::King) => '♔',
            (Color::White, PieceKind::Queen) => '♕',
            (Color::White, PieceKind::Rook) => '♖',
            (Color::White, PieceKind::Bishop) => '♗',
            (Color::White, PieceKind::Knight) => '♘',
            (Color::White, PieceKind::Pawn) => '♙',
            (Color::Black, PieceKind::King) => '♚',
            (Color::Black, PieceKind::Queen) => '♛',
            (Color::Black, PieceKind::Rook) => '♜',
            (Color::Black, PieceKind::Bishop) => '♝',
            (Color::Black, PieceKind::Knight) => '♞',
            (Color::Black, PieceKind::Pawn) => '♟',
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}
