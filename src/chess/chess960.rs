//! Chess960 start positions by their standard (Scharnagl) number, 0–959; 518 is chess's own.

use super::board::Board;
use thiserror::Error;

/// The number of Chess960 start positions.
pub const POSITIONS: u16 = 960;

/// The Scharnagl number of the standard start position.
pub const STANDARD: u16 = 518;

/// A start-position number outside 0–959.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("Chess960 start position {0} does not exist; they are numbered 0 to 959")]
pub struct StartPositionError(pub u32);

/// Where the two knights go among the five files left after the bishops and the queen, for
/// each of the ten values of the number's last digit (the Scharnagl table).
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// The back rank of start position `n`, from the a-file, in upper-case piece letters.
pub fn back_rank(n: u16) -> Result<[char; 8], StartPositionError> {
    if n >= POSITIONS {
        return Err(StartPositionError(n.into()));
    }
    let mut rank = [' '; 8];
    let n = n as usize;
    // Light-squared bishop on b, d, f or h; dark-squared on a, c, e or g.
    rank[2 * (n % 4) + 1] = 'B';
    rank[2 * (n / 4 % 4)] = 'B';
    let rest = n / 16;
    let mut put_on_empty = |index: usize, piece: char| {
        // Every index is below the count of files still empty (6, then 5 for the knights),
        // so a file is always found.
        if let Some(file) = (0..8).filter(|&f| rank[f] == ' ').nth(index) {
            rank[file] = piece;
        }
    };
    put_on_empty(rest % 6, 'Q');
    let (n1, n2) = KNIGHTS[rest / 6];
    // The second knight's index counts the empty files after the first is placed.
    put_on_empty(n1, 'N');
    put_on_empty(n2 - 1, 'N');
    // Rook, king, rook on the three files left, in that order: the king between the rooks.
    for piece in ['R', 'K', 'R'] {
        put_on_empty(0, piece);
    }
    Ok(rank)
}

/// The FEN of start position `n`, castling rights in X-FEN (`KQkq`).
pub fn start_fen(n: u16) -> Result<String, StartPositionError> {
    let white: String = back_rank(n)?.iter().collect();
    let black = white.to_ascii_lowercase();
    Ok(format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1"
    ))
}

/// Start position `n` as a board.
pub fn start_position(n: u16) -> Result<Board, StartPositionError> {
    let fen = start_fen(n)?;
    // Every start position has one king between two rooks on each back rank and nothing in
    // check, so its FEN is valid; the tests parse all 960.
    Ok(Board::from_fen(&fen).expect("Chess960 start FEN is valid"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Color, Square};
    use std::collections::HashSet;

    #[test]
    fn known_numbers() {
        let rank = |n| back_rank(n).unwrap().iter().collect::<String>();
        assert_eq!(rank(STANDARD), "RNBQKBNR");
        assert_eq!(rank(0), "BBQNNRKR");
        assert_eq!(rank(959), "RKRNNQBB");
        assert_eq!(start_position(STANDARD).unwrap(), Board::startpos());
        assert_eq!(back_rank(960), Err(StartPositionError(960)));
    }

    #[test]
    fn all_960_are_distinct_legal_chess960_starts() {
        let mut seen = HashSet::new();
        for n in 0..POSITIONS {
            let rank = back_rank(n).unwrap();
            assert!(seen.insert(rank), "{n} repeats");
            let b = start_position(n).unwrap();
            let king = b.king_square(Color::White);
            let (short, long) = (
                b.castle_rook(Color::White, true),
                b.castle_rook(Color::White, false),
            );
            assert!(
                long.file() < king.file() && king.file() < short.file(),
                "{n}"
            );
            let bishops: Vec<Square> = b
                .pieces_of(Color::White, crate::chess::PieceKind::Bishop)
                .collect();
            assert_ne!(
                bishops[0].index() % 2,
                bishops[1].index() % 2,
                "{n}: bishops on one colour"
            );
            let plain = b.legal_moves().iter().filter(|m| !m.is_castle()).count();
            assert_eq!(plain, 20 - count_blocked_knight_moves(&b), "{n}");
            assert_eq!(b.to_fen(), start_fen(n).unwrap());
        }
    }

    /// Knights in the corner have one move, others two (pawns have their 16).
    fn count_blocked_knight_moves(b: &Board) -> usize {
        b.pieces_of(Color::White, crate::chess::PieceKind::Knight)
            .filter(|sq| sq.file().index() == 0 || sq.file().index() == 7)
            .count()
    }
}
