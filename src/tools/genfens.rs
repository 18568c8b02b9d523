//! `genfens`: OpenBench's entry point for distributed data generation. OpenBench starts the
//! engine as `fianchetto "genfens N seed S book <None|FILE>" "quit"` and reads `N` lines
//! `info string genfens FEN`: start positions for self-play games, drawn the way `datagen`
//! draws its own (random plies after the start position or a book position), and kept only
//! when a short search finds them balanced.

use super::datagen::{pick_opening, read_openings, rules, DatagenCommandError};
use crate::chess::{Board, Game};
use crate::rand::SplitMix;
use crate::search::{Limits, Searcher};

/// Random plies after the standard start position (as `datagen` plays without a book).
pub const PLIES_FROM_START: u32 = 8;
/// Random plies after a position drawn from the book, so that many positions drawn from a
/// small book still differ.
pub const PLIES_FROM_BOOK: u32 = 2;
/// Nodes of the search that judges whether a position is balanced.
pub const CHECK_NODES: u64 = 5_000;
/// Draws at most this many candidates per position before giving up.
const ATTEMPTS: u32 = 1_000;

/// A parsed `genfens` request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenfensRequest {
    /// Positions wanted.
    pub count: u64,
    /// The seed: the same request prints the same positions.
    pub seed: u64,
    /// A file of FEN or EPD lines to start from (`None`: the standard start position).
    pub book: Option<String>,
}

/// Why `genfens` could not run.
#[derive(Debug, thiserror::Error)]
pub enum GenfensError {
    /// The request is not `genfens N seed S book <None|FILE>`.
    #[error("expected `genfens N seed S book <None|FILE>`, got `{0}`")]
    Request(String),
    /// The book could not be read.
    #[error(transparent)]
    Book(#[from] DatagenCommandError),
    /// No balanced position came out of the draws.
    #[error("no balanced position in {ATTEMPTS} draws for position {0}")]
    NoPosition(u64),
}

impl GenfensRequest {
    /// Parses `genfens N seed S book <None|FILE>`; tokens after these (OpenBench may add its
    /// own) are ignored.
    pub fn parse(line: &str) -> Result<GenfensRequest, GenfensError> {
        let bad = || GenfensError::Request(line.chars().take(200).collect());
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.len() < 6 || t[0] != "genfens" || t[2] != "seed" || t[4] != "book" {
            return Err(bad());
        }
        let count = t[1].parse().map_err(|_| bad())?;
        let seed = t[3].parse().map_err(|_| bad())?;
        let book = (!t[5].eq_ignore_ascii_case("none")).then(|| t[5].to_string());
        Ok(GenfensRequest { count, seed, book })
    }
}

/// Writes `request.count` lines `info string genfens FEN` through `out`, each a position with
/// legal moves that a `CHECK_NODES` search scores within `OPENING_MAX_SCORE` of level.
pub fn run(request: &GenfensRequest, out: &mut dyn FnMut(&str)) -> Result<(), GenfensError> {
    let openings: Vec<Board> = match &request.book {
        Some(path) => read_openings(path)?,
        None => Vec::new(),
    };
    let plies = if openings.is_empty() {
        PLIES_FROM_START
    } else {
        PLIES_FROM_BOOK
    };
    let mut searcher = Searcher::new(16);
    let limits = Limits {
        nodes: Some(CHECK_NODES),
        multipv: 1,
        ..Limits::default()
    };
    for index in 0..request.count {
        let mut rng = SplitMix::new(request.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut found = None;
        for _ in 0..ATTEMPTS {
            let Some(board) = pick_opening(&openings, None, plies, &mut rng) else {
                continue;
            };
            let game = Game::new(board);
            if game.outcome().is_some() {
                continue;
            }
            searcher.clear();
            let r = searcher.search(&game, &limits, &mut |_| {});
            if r.best.is_some() && r.score.0.abs() <= rules::OPENING_MAX_SCORE {
                found = Some(board);
                break;
            }
        }
        let board = found.ok_or(GenfensError::NoPosition(index))?;
        out(&format!("info string genfens {}", board.to_fen()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_openbench_requests_and_refuses_others() {
        assert_eq!(
            GenfensRequest::parse("genfens 10 seed 42 book None").unwrap(),
            GenfensRequest {
                count: 10,
                seed: 42,
                book: None
            }
        );
        let r = GenfensRequest::parse("genfens 3 seed 7 book books/UHO.epd ?").unwrap();
        assert_eq!(r.book.as_deref(), Some("books/UHO.epd"));
        for bad in [
            "genfens",
            "genfens x seed 1 book None",
            "genfens 1 sead 1 book None",
            "genfens 1 seed -1 book None",
            "genfens 1 seed 1 None",
        ] {
            assert!(GenfensRequest::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn positions_are_reproducible_legal_and_balanced() {
        let request = GenfensRequest {
            count: 4,
            seed: 9,
            book: None,
        };
        let mut first = Vec::new();
        run(&request, &mut |l| first.push(l.to_string())).unwrap();
        let mut again = Vec::new();
        run(&request, &mut |l| again.push(l.to_string())).unwrap();
        assert_eq!(first, again, "the same seed gives the same positions");
        assert_eq!(first.len(), 4);
        let mut other = Vec::new();
        run(
            &GenfensRequest {
                seed: 10,
                ..request
            },
            &mut |l| other.push(l.to_string()),
        )
        .unwrap();
        assert_ne!(first, other, "another seed, other positions");
        for line in &first {
            let fen = line.strip_prefix("info string genfens ").expect(line);
            let board = Board::from_fen(fen).expect(fen);
            assert!(!board.legal_moves().is_empty(), "{fen}");
            // Eight random plies from the start: move 5, White to move.
            assert_eq!(board.fullmove_number(), 5, "{fen}");
        }
    }
}
