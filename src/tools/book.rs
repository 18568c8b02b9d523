//! `fianchetto book`: what a Polyglot book holds for a position.

use crate::chess::polyglot::{key, Book};
use crate::chess::Board;
use crate::command::{board_or_start, BadFen, Outcome};
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

/// The `book` command's flags.
#[derive(Debug, Clone, clap::Args)]
pub struct BookFlags {
    /// The book file.
    pub file: String,
    /// Position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
}

/// Why `book` could not list.
#[derive(Debug, thiserror::Error)]
pub enum BookListError {
    /// The book could not be read.
    #[error(transparent)]
    Book(#[from] crate::chess::polyglot::BookError),
    /// The `--fen` position is not valid.
    #[error(transparent)]
    Fen(#[from] BadFen),
}

/// The `book` command: the listing for the position, through `out`.
pub fn command(flags: BookFlags, out: &mut dyn FnMut(&str)) -> Result<Outcome, BookListError> {
    let book = Book::load(&flags.file)?;
    let board = board_or_start(flags.fen.as_deref())?;
    for line in listing(&book, &board).lines() {
        out(line);
    }
    Ok(Outcome::Success)
}
