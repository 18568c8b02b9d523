//! `fianchetto book`: what a Polyglot book holds for a position.

use crate::chess::polyglot::{key, Book};
use crate::chess::Board;
use std::fmt::Write as _;

/// The book moves of `board`, heaviest first: SAN, UCI (castling as the king's move), weight and
/// share of the position's total weight; then the key and the count.
pub fn listing(book: &Book, board: &Board) -> String {
    let moves = book.moves(board);
    let total: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
    let mut out = String::new();
    for b in &moves {
        let share = 100.0 * f64::from(b.weight) / total.max(1) as f64;
        let _ = writeln!(
            out,
            "{:<8} {:<6} weight {:>5}  {share:5.1} %",
            board.san(b.mv),
            b.mv,
            b.weight
        );
    }
    let _ = writeln!(out, "{} book moves; key {:016x}", moves.len(), key(board));
    out
}
