//! Polyglot opening books: the format's position key, and reading a `.bin` book's moves.
//!
//! A book is a file of 16-byte big-endian entries sorted by key: the position's Polyglot key
//! (u64), a move (u16: to-file, to-row, from-file, from-row, promotion, 3 bits each), a weight
//! (u16) and a learn field (u32). Castling is written as king-takes-rook (`e1h1`).

use super::attacks::pawn_attacks;
use super::board::Board;
use super::moves::Move;
use super::piece::PieceKind;
use super::polyglot_random::RANDOM64;
use super::square::Color;
use std::path::Path;
use thiserror::Error;

/// Why a book could not be read.
#[derive(Debug, Error)]
pub enum BookError {
    /// The file could not be read (missing, not a regular file, too large).
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// The size is not a whole number of 16-byte entries, or zero.
    #[error("{path} is not a Polyglot book: {len} bytes is not a whole, non-zero number of 16-byte entries")]
    Size {
        /// The file.
        path: String,
        /// Its length.
        len: usize,
    },
    /// The entries are not sorted by key, as every Polyglot book is.
    #[error("{path} is not a Polyglot book: entry {index} is out of key order")]
    Unsorted {
        /// The file.
        path: String,
        /// The first entry whose key is below the one before it.
        index: usize,
    },
}

/// The Polyglot key of a position (the format's own Zobrist hash, not ours).
///
/// The en-passant file counts when a pawn of the side to move stands beside the pawn that just
/// moved two squares, whether or not the capture is legal. `Board` keeps the en-passant square
/// only where a capture is legal (as Stockfish does), so in the rare position where the only
/// capturer is pinned, the key here leaves the file out and the book is not found there.
pub fn key(board: &Board) -> u64 {
    let mut k = 0;
    for sq in board.occupied() {
        if let Some(p) = board.piece_at(sq) {
            let kind = 2 * p.kind.index() + usize::from(p.color == Color::White);
            k ^= RANDOM64[64 * kind + sq.index()];
        }
    }
    let rights = board.castling();
    for (i, (color, short)) in [
        (Color::White, true),
        (Color::White, false),
        (Color::Black, true),
        (Color::Black, false),
    ]
    .into_iter()
    .enumerate()
    {
        if rights.has(color, short) {
            k ^= RANDOM64[768 + i];
        }
    }
    if let Some(ep) = board.en_passant() {
        // Our pawns beside the pushed pawn are those a pawn of the mover on `ep` would attack.
        let us = board.side_to_move();
        if (pawn_attacks(!us, ep) & board.pieces_of(us, PieceKind::Pawn)).any() {
            k ^= RANDOM64[772 + ep.file().index()];
        }
    }
    if board.side_to_move() == Color::White {
        k ^= RANDOM64[780];
    }
    k
}

/// One book move, as read and matched against the position's legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move (legal in the position it was looked up for).
    pub mv: Move,
    /// Its weight (2·wins + draws in books Polyglot makes, scaled to 16 bits).
    pub weight: u16,
}

/// A Polyglot book held in memory.
#[derive(Clone, Debug)]
pub struct Book {
    /// (key, move, weight), sorted by key.
    entries: Vec<(u64, u16, u16)>,
}

/// The largest book read: 64 M entries of 16 bytes (the biggest public books hold a few
/// million), so that a device or a huge file is refused before it is read into memory.
pub const MAX_BOOK_BYTES: u64 = 1 << 30;

impl Book {
    /// Reads a book file.
    pub fn load(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let bytes = crate::files::read_bounded(path, MAX_BOOK_BYTES, "Polyglot book")?;
        Book::from_bytes(&bytes, &path.display().to_string())
    }

    /// Reads a book from its bytes; `name` is used in errors.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Book, BookError> {
        if bytes.is_empty() || !bytes.len().is_multiple_of(16) {
            return Err(BookError::Size {
                path: name.to_string(),
                len: bytes.len(),
            });
        }
        let mut entries = Vec::with_capacity(bytes.len() / 16);
        for (index, e) in bytes.chunks_exact(16).enumerate() {
            let be64 = |s: &[u8]| s.iter().fold(0u64, |a, &b| (a << 8) | u64::from(b));
            let key = be64(&e[0..8]);
            let mv = be64(&e[8..10]) as u16;
            let weight = be64(&e[10..12]) as u16;
            if entries.last().is_some_and(|&(prev, _, _)| prev > key) {
                return Err(BookError::Unsorted {
                    path: name.to_string(),
                    index,
                });
            }
            entries.push((key, mv, weight));
        }
        Ok(Book { entries })
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entries (never true for a book that loaded).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The legal book moves of `board` with a non-zero weight, heaviest first (ties in file
    /// order). Entries that name no legal move are left out.
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        let k = key(board);
        let start = self.entries.partition_point(|e| e.0 < k);
        let mut out: Vec<BookMove> = Vec::new();
        for &(_, raw, weight) in self.entries[start..].iter().take_while(|e| e.0 == k) {
            if weight == 0 {
                continue;
            }
            if let Some(mv) = decode(board, raw) {
                if !out.iter().any(|b| b.mv == mv) {
                    out.push(BookMove { mv, weight });
                }
            }
        }
        out.sort_by_key(|b| std::cmp::Reverse(b.weight));
        out
    }

    /// A book move for `board`: the heaviest with `best_only`, else one drawn with probability
    /// proportional to its weight using `random` (any 64-bit number, e.g. from a clock).
    pub fn pick(&self, board: &Board, best_only: bool, random: u64) -> Option<Move> {
        let moves = self.moves(board);
        if best_only {
            return moves.first().map(|b| b.mv);
        }
        let total: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
        if total == 0 {
            return None;
        }
        let mut r = random % total;
        for b in &moves {
            let w = u64::from(b.weight);
            if r < w {
                return Some(b.mv);
            }
            r -= w;
        }
        None
    }
}

/// The legal move a book entry's 16-bit move stands for, if any. Castling is king-takes-rook,
/// which `parse_uci` reads.
fn decode(board: &Board, raw: u16) -> Option<Move> {
    let square = |file: u16, row: u16| {
        let f = (b'a' + (file & 7) as u8) as char;
        let r = (b'1' + (row & 7) as u8) as char;
        format!("{f}{r}")
    };
    let to = square(raw, raw >> 3);
    let from = square(raw >> 6, raw >> 9);
    if raw & 0x0fff == 0 {
        // a1a1: the format's empty move.
        return None;
    }
    let promo = match (raw >> 12) & 7 {
        0 => "",
        1 => "n",
        2 => "b",
        3 => "r",
        4 => "q",
        _ => return None,
    };
    board.parse_uci(&format!("{from}{to}{promo}")).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test keys of the format document (computed there with Toga II).
    #[test]
    fn keys_match_the_published_test_vectors() {
        for (fen, k) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                0x463b96181691fc9c,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                0x823c9b50fd114196,
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
                0x0756b94461c50fb0,
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
                0x662fafb965db29d4,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                0x22a48b5a8e47ff78,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
                0x652a607ca3f242c1,
            ),
            (
                "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
                0x00fdd303c946bdd9,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
                0x3c8123ea7b067637,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
                0x5c3f9b829b279560,
            ),
        ] {
            let b = Board::from_fen(fen).unwrap();
            assert_eq!(key(&b), k, "{fen}");
        }
        // The same keys arise by playing the moves.
        let mut b = Board::startpos();
        for (uci, k) in [
            ("e2e4", 0x823c9b50fd114196),
            ("d7d5", 0x0756b94461c50fb0),
            ("e4e5", 0x662fafb965db29d4),
            ("f7f5", 0x22a48b5a8e47ff78),
            ("e1e2", 0x652a607ca3f242c1),
            ("e8f7", 0x00fdd303c946bdd9),
        ] {
            b = b.make_move(b.parse_uci(uci).unwrap());
            assert_eq!(key(&b), k, "after {uci}");
        }
    }

    fn entry(key: u64, mv: &str, weight: u16) -> [u8; 16] {
        let sq = |s: &[u8]| (u16::from(s[0] - b'a'), u16::from(s[1] - b'1'));
        let b = mv.as_bytes();
        let (ff, fr) = sq(&b[0..2]);
        let (tf, tr) = sq(&b[2..4]);
        let promo = match b.get(4) {
            Some(b'q') => 4,
            Some(b'n') => 1,
            _ => 0,
        };
        let raw = tf | tr << 3 | ff << 6 | fr << 9 | promo << 12;
        let mut e = [0u8; 16];
        e[0..8].copy_from_slice(&key.to_be_bytes());
        e[8..10].copy_from_slice(&raw.to_be_bytes());
        e[10..12].copy_from_slice(&weight.to_be_bytes());
        e
    }

    #[test]
    fn reads_moves_castling_and_weights() {
        let start = Board::startpos();
        let castle = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let promo = Board::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let mut entries = [
            entry(key(&start), "e2e4", 30),
            entry(key(&start), "d2d4", 10),
            entry(key(&start), "e2e5", 99), // not a legal move: left out
            entry(key(&start), "g1f3", 0),  // weight 0: left out
            entry(key(&castle), "e1h1", 5),
            entry(key(&castle), "e1a1", 7),
            entry(key(&promo), "a7a8q", 3),
        ];
        entries.sort_by_key(|e| u64::from_be_bytes(e[0..8].try_into().unwrap()));
        let bytes: Vec<u8> = entries.concat();
        let book = Book::from_bytes(&bytes, "test").unwrap();
        assert_eq!(book.len(), 7);
        let moves = book.moves(&start);
        let names: Vec<String> = moves.iter().map(|b| b.mv.to_string()).collect();
        assert_eq!(names, ["e2e4", "d2d4"]);
        assert_eq!(moves[0].weight, 30);
        let castles: Vec<String> = book
            .moves(&castle)
            .iter()
            .map(|b| castle.san(b.mv))
            .collect();
        assert_eq!(castles, ["O-O-O", "O-O"]);
        assert_eq!(book.moves(&promo)[0].mv.to_string(), "a7a8q");
        assert_eq!(book.pick(&start, true, 12345).unwrap().to_string(), "e2e4");
        // Weighted choice: r in 0..30 picks e2e4, 30..40 d2d4.
        assert_eq!(book.pick(&start, false, 29).unwrap().to_string(), "e2e4");
        assert_eq!(book.pick(&start, false, 35).unwrap().to_string(), "d2d4");
        let empty = Board::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1").unwrap();
        assert_eq!(book.pick(&empty, false, 1), None);
    }

    #[test]
    fn a_file_that_is_not_a_book_is_an_error() {
        assert!(matches!(
            Book::from_bytes(&[0u8; 15], "x"),
            Err(BookError::Size { len: 15, .. })
        ));
        assert!(matches!(
            Book::from_bytes(&[], "x"),
            Err(BookError::Size { len: 0, .. })
        ));
        let mut bytes = entry(9, "e2e4", 1).to_vec();
        bytes.extend(entry(3, "e2e4", 1));
        assert!(matches!(
            Book::from_bytes(&bytes, "x"),
            Err(BookError::Unsorted { index: 1, .. })
        ));
        assert!(matches!(
            Book::load("/nonexistent/book.bin"),
            Err(BookError::File(crate::files::FileError::Io { .. }))
        ));
    }
}
