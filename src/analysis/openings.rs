//! Opening names: the ECO code and lichess's name of the deepest named position a game passes
//! through, from lichess's public-domain opening table (vendored as `openings.tsv`; its source
//! and licences are in `OPENINGS.md`).

use crate::chess::Board;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::OnceLock;

/// `EPD <tab> ECO <tab> name`, one named position a line (3,608 of them).
const TABLE: &str = include_str!("openings.tsv");

/// An opening: its ECO code and name, as lichess names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Opening {
    /// The Encyclopaedia of Chess Openings code, `C41`.
    pub eco: &'static str,
    /// lichess's name, `Philidor Defense: Lion Variation`.
    pub name: &'static str,
}

fn index() -> &'static HashMap<&'static str, Opening> {
    static INDEX: OnceLock<HashMap<&'static str, Opening>> = OnceLock::new();
    INDEX.get_or_init(|| {
        TABLE
            .lines()
            .filter_map(|line| {
                let mut f = line.split('\t');
                let (epd, eco, name) = (f.next()?, f.next()?, f.next()?);
                Some((epd, Opening { eco, name }))
            })
            .collect()
    })
}

/// The table's key for a position: placement, side, castling, and the en-passant square only
/// when a capture there is legal (as lichess and python-chess write EPD).
fn key(board: &Board) -> String {
    let fen = board.to_fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    let ep_legal = board.legal_moves().iter().any(|m| m.is_en_passant());
    let ep = if ep_legal { fields[3] } else { "-" };
    format!("{} {} {} {ep}", fields[0], fields[1], fields[2])
}

/// The opening named for this very position, if the table has it.
pub fn lookup(board: &Board) -> Option<Opening> {
    index().get(key(board).as_str()).cloned()
}

/// The opening of a game given its positions (start first): the deepest one the table names.
/// Chess960 games have none (the table is of standard chess).
pub fn of_game(positions: &[Board]) -> Option<Opening> {
    if positions.first().is_none_or(Board::is_chess960) {
        return None;
    }
    positions.iter().rev().find_map(lookup)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Game;

    fn game(moves: &str) -> Game {
        let mut g = Game::default();
        for m in moves.split_whitespace() {
            g.push_text(m).unwrap();
        }
        g
    }

    #[test]
    fn the_table_reads_whole() {
        assert_eq!(index().len(), TABLE.lines().count());
        assert!(index().len() > 3000);
    }

    #[test]
    fn famous_openings_are_named_by_their_deepest_position() {
        // Names and codes as lichess shows them for these move orders.
        let cases = [
            ("e4 c5", "B20", "Sicilian Defense"),
            ("e4 e5 Nf3 Nc6 Bb5 a6", "C70", "Ruy Lopez: Morphy Defense"),
            ("e4 e5 Nf3 d6 d4 Bg4", "C41", "Philidor Defense"),
            (
                "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6",
                "E70",
                "King's Indian Defense: Normal Variation",
            ),
        ];
        for (moves, eco, name) in cases {
            let g = game(moves);
            let o = of_game(g.positions()).unwrap();
            assert_eq!((o.eco, o.name), (eco, name), "{moves}");
        }
        // Moves beyond the table keep the last name reached.
        let g = game("e4 c5 a3 a6 h3 h6");
        assert!(of_game(g.positions()).is_some());
        assert_eq!(of_game(Game::default().positions()), None);
    }

    #[test]
    fn an_en_passant_square_counts_only_when_the_capture_is_legal() {
        // After 1. e4 no black pawn can take on e3: the key has "-".
        let g = game("e4");
        assert_eq!(
            key(g.board()),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
        );
        assert_eq!(lookup(g.board()).unwrap().eco, "B00");
    }
}
