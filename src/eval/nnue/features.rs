//! The network's inputs: which feature a piece on a square is from each side's view (with king
//! mirroring), and which output bucket a position's piece count chooses. The engine's
//! accumulators and the trainer both ask these functions, so their features cannot disagree.

use super::MAX_BUCKETS;
use crate::chess::{Color, Piece, Square};

/// Number of input features: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;

/// Whether a king-mirrored net mirrors a side's view while that side's king is on `king`: on
/// the e–h files, so every view sees its king on the a–d files. The engine and the trainer
/// both ask this one function, so their features cannot disagree.
#[inline]
pub const fn king_mirrors(king: Square) -> bool {
    king.file().index() >= 4
}

/// The input feature of `piece` on `sq` seen from `view`'s side, mirrored left to right when
/// `flip` (a king-mirrored net whose `view` king is on the e–h files).
#[inline]
pub fn feature(view: Color, piece: Piece, sq: Square, flip: bool) -> usize {
    let (rel, sq) = match view {
        Color::White => (piece.color.index(), sq.index()),
        Color::Black => (1 - piece.color.index(), sq.index() ^ 56),
    };
    rel * 384 + piece.kind.index() * 64 + (sq ^ if flip { 7 } else { 0 })
}

/// The output bucket of a position with `pieces` pieces (kings included) in a net of `buckets`:
/// the piece counts 2..=32 cut into equal runs, as Stockfish's and bullet's material buckets.
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    debug_assert!((1..=MAX_BUCKETS).contains(&buckets));
    let per = 32usize.div_ceil(buckets);
    (pieces.saturating_sub(2) as usize / per).min(buckets - 1)
}
