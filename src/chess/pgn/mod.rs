//! Portable Game Notation: reading files of many games (tags, comments, NAGs, variations) and
//! writing them back, wrapped at 80 columns.
//!
//! The reader is forgiving where people are sloppy (missing results, `1.e4` without a space,
//! `0-0`, suffix annotations glued to moves, a BOM, CRLF) and strict where a mistake would change
//! the game: an illegal or ambiguous move is an error that names the game, the line and column,
//! the move number and the position. A bad game does not stop the games after it from being read.
//!
//! `lex` splits the text into tokens, `read` turns them into games, `write` writes games back.

mod lex;
mod read;
mod write;

pub use read::{read_games, read_games_bytes};

use super::board::Board;
use super::fen::FenError;
use super::game::Game;
use super::moves::Move;
use super::san::SanError;
use super::square::Color;
use thiserror::Error;

/// A game as read from PGN: tags, start position, the main line with its annotations, result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in the order they were read.
    pub tags: Vec<(String, String)>,
    /// The start position (from the `FEN` tag, else the standard one).
    pub start: Board,
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The main line.
    pub moves: Vec<PgnMove>,
    /// The termination marker: `1-0`, `0-1`, `1/2-1/2` or `*` (also when the file had none).
    pub result: String,
}

/// One move of a line, with what was written after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnMove {
    /// The move.
    pub mv: Move,
    /// Numeric annotation glyphs (`$2`, or `?` read as 2).
    pub nags: Vec<u8>,
    /// Comments after the move, whitespace runs collapsed to one space.
    pub comments: Vec<String>,
    /// Alternatives to this move, each starting from the position before it.
    pub variations: Vec<Variation>,
}

/// A recursive annotation variation: another line from the position before a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variation {
    /// Comments before the variation's first move.
    pub comments: Vec<String>,
    /// The variation's moves.
    pub moves: Vec<PgnMove>,
}

impl PgnMove {
    /// A move with no annotation.
    pub fn new(mv: Move) -> PgnMove {
        PgnMove {
            mv,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// Where a PGN went wrong: which game (1-based), line and column (1-based), and what.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("game {game}, line {line}, column {column}: {kind}")]
pub struct PgnError {
    /// The game's number in the file, counting from 1.
    pub game: usize,
    /// The line of the offending token.
    pub line: usize,
    /// The column (in characters) of the offending token.
    pub column: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// The kinds of PGN error.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PgnErrorKind {
    /// A move that is not legal (or not a move) in its position.
    #[error("move {number}{san}: {reason} (position {fen})")]
    IllegalMove {
        /// The move number as PGN writes it (`12.` or `12...`).
        number: String,
        /// The move as written.
        san: String,
        /// Why it was refused.
        reason: SanError,
        /// The position it was played in.
        fen: String,
    },
    /// The `FEN` tag does not hold a valid position.
    #[error("the FEN tag is not a valid position: {0}")]
    BadFen(FenError),
    /// A character or token that has no place where it stands.
    #[error("unexpected {0}")]
    Unexpected(String),
    /// A comment, string or tag that the file ends inside.
    #[error("the file ends inside {0}")]
    Unterminated(&'static str),
    /// A variation that opens before any move of its line.
    #[error("a variation '(' must follow a move")]
    VariationWithoutMove,
    /// A NAG whose number is not 0–255.
    #[error("{0} is not a NAG (they run from $0 to $255)")]
    BadNag(String),
    /// A null move (`--`, `Z0`) where the side to move is in check: passing would leave the king
    /// to be taken.
    #[error("null move {0} while in check")]
    NullMove(String),
    /// Variations inside variations deeper than [`MAX_VARIATION_DEPTH`]: every walk over a
    /// game's tree (writing, cloning, dropping) recurses once per level, so the depth is bounded
    /// where the tree is made.
    #[error("variations nested deeper than {MAX_VARIATION_DEPTH}")]
    TooDeep,
}

/// The deepest nesting of variations the reader accepts. Annotated master games rarely nest
/// beyond ten levels; a hundred keeps every recursive walk over the tree (the writer, `Clone`,
/// `Drop`) far inside the smallest thread stack it runs on (2 MiB for the web server's workers),
/// where a crafted file nesting 20,000 levels overflowed it.
pub const MAX_VARIATION_DEPTH: usize = 100;

/// A PGN `Date` tag's value (YYYY.MM.DD) for `unix_secs` seconds after 1970-01-01 UTC.
pub fn date_tag(unix_secs: u64) -> String {
    let (y, m, d) = civil_from_days((unix_secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a calendar date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The suffix annotation that writes a NAG, for the six that have one.
pub fn nag_suffix(nag: u8) -> Option<&'static str> {
    Some(match nag {
        1 => "!",
        2 => "?",
        3 => "!!",
        4 => "??",
        5 => "!?",
        6 => "?!",
        _ => return None,
    })
}

impl PgnGame {
    /// A game of the given start and main-line moves, with no tags.
    pub fn from_game(game: &Game) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            start: *game.start(),
            comments: Vec::new(),
            moves: game.moves().iter().map(|&m| PgnMove::new(m)).collect(),
            result: game.outcome().map_or("*", |o| o.result()).to_string(),
        }
    }

    /// The value of a tag (names compared without case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing any of the same name.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self
            .tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Whether the main line holds a null move (`--`), which only analysis can step over.
    pub fn has_null_move(&self) -> bool {
        self.moves.iter().any(|m| m.mv == Move::NULL)
    }

    /// The main line as a `Game` (history, outcome).
    pub fn main_line(&self) -> Game {
        let mut g = Game::new(self.start);
        for m in &self.moves {
            // The reader only stores moves legal in their position and null moves where the side
            // to move is not in check, so this cannot fail.
            g.push_or_pass(m.mv)
                .expect("PGN moves were checked when read");
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_as_pgn_writes_them() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_424), (2025, 12, 2));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(date_tag(0), "1970.01.01");
        assert_eq!(date_tag(951_782_400), "2000.02.29");
    }

    fn one(text: &str) -> PgnGame {
        let mut g = read_games(text);
        assert_eq!(g.len(), 1, "{g:?}");
        g.remove(0).unwrap()
    }

    #[test]
    fn tags_moves_comments_and_result() {
        let g = one("[Event \"Test \\\"quoted\\\"\"]\n[White \"A\"]\n\n1. e4 {best by test} e5 2. Nf3 $1 Nc6! 1-0\n");
        assert_eq!(g.tag("event"), Some("Test \"quoted\""));
        assert_eq!(g.moves.len(), 4);
        assert_eq!(g.moves[0].comments, vec!["best by test".to_string()]);
        assert_eq!(g.moves[2].nags, vec![1]);
        assert_eq!(g.moves[3].nags, vec![1]);
        assert_eq!(g.result, "1-0");
    }

    #[test]
    fn sloppy_forms() {
        let g = one("1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6 4.0-0 Nxe4?!");
        assert_eq!(g.moves.len(), 8);
        assert_eq!(g.result, "*");
        assert_eq!(g.moves[7].nags, vec![6]);
        assert_eq!(g.main_line().board().fullmove_number(), 5);
    }

    #[test]
    fn null_moves_are_passes_and_round_trip() {
        // "--" and "Z0" both read as a pass; the side to move changes and the game goes on.
        let g = one("1. e4 -- 2. d4 Z0 3. Nf3 e5 *");
        assert_eq!(g.moves.len(), 6);
        assert!(g.has_null_move());
        assert_eq!(g.moves[1].mv, Move::NULL);
        assert_eq!(g.moves[3].mv, Move::NULL);
        let line = g.main_line();
        assert_eq!(
            line.board().to_fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 4"
        );
        let text = g.to_pgn();
        assert!(text.contains("1. e4 -- 2. d4 -- 3. Nf3 e5"), "{text}");
        let again = one(&text);
        assert_eq!(again.main_line().moves(), line.moves());
        assert!(!one("1. e4 e5 *").has_null_move());
    }

    #[test]
    fn a_null_move_in_check_is_refused_where_it_stands() {
        let e = read_games("1. e4 f5 2. Qh5+ -- 3. Qxf5 *")
            .remove(0)
            .unwrap_err();
        assert_eq!(e.kind, PgnErrorKind::NullMove("--".to_string()));
        assert_eq!((e.line, e.column), (1, 18));
    }

    #[test]
    fn variations_are_not_main_line() {
        let g = one("1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... c5 (1... e5 2. Nf3) 2. Nf3 *");
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.moves[0].variations.len(), 1);
        assert_eq!(g.moves[0].variations[0].moves.len(), 3);
        assert_eq!(
            g.moves[0].variations[0].moves[1].variations[0].moves.len(),
            2
        );
        assert_eq!(g.moves[1].variations[0].moves.len(), 2);
        assert_eq!(
            g.main_line().board().to_fen(),
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
    }

    #[test]
    fn round_trip() {
        let text = "[Event \"x\"]\n\n{start} 1. e4 $14 {a long comment that goes on and on and on so that it needs to be wrapped somewhere} (1. d4 {queen} d5) 1... e5!! 2. Nf3 ; rest of line\n Nc6 $200 1/2-1/2";
        let g = one(text);
        let out = g.to_pgn();
        assert!(out.lines().all(|l| l.chars().count() <= 79), "{out}");
        assert_eq!(one(&out), g);
    }

    #[test]
    fn a_rest_of_line_comment_with_braces_round_trips() {
        // Found by fuzzing: written as a brace comment, its '}' ended it early.
        let g = one("1. e4 ; a {braced} remark\n e5 *");
        assert_eq!(g.moves[0].comments, vec!["a {braced} remark".to_string()]);
        assert_eq!(one(&g.to_pgn()), g);
    }

    #[test]
    fn line_comments_in_variations_and_percent_words_round_trip() {
        // Found by fuzzing: a variation's `;` comment got the variation's parentheses glued on.
        let g = one("1. e4 (; a {b} c\n 1. d4 ; end of it}\n) (; only}\n) e5 *");
        assert_eq!(g.moves[0].variations.len(), 2);
        assert_eq!(one(&g.to_pgn()), g);
        let long = format!("1. e4 {{ {} %not-an-escape }} e5 *", "word ".repeat(15));
        let g = one(&long);
        let text = g.to_pgn();
        assert!(text.lines().all(|l| !l.starts_with('%')), "{text}");
        assert_eq!(one(&text), g);
    }

    #[test]
    fn errors_name_the_place_and_later_games_still_read() {
        let text = "[Event \"a\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n";
        let games = read_games(text);
        assert_eq!(games.len(), 2);
        let e = games[0].as_ref().unwrap_err();
        assert_eq!((e.game, e.line, e.column), (1, 3, 13));
        let msg = e.to_string();
        assert!(
            msg.contains("2. Ke3")
                && msg.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
            "{msg}"
        );
        assert_eq!(games[1].as_ref().unwrap().moves.len(), 2);
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "",
            "\u{feff}",
            "((((",
            "}{",
            "[",
            "[Event",
            "[Event \"x",
            "1. e4 (",
            "$999",
            "?? e4",
            "\0\u{1}\u{2}",
            "1-0 1-0",
            "e4 )",
        ] {
            let _ = read_games(text);
        }
        assert!(read_games("").is_empty());
        assert!(read_games("hello world").iter().all(|g| g.is_err()));
    }

    fn nested(depth: usize) -> String {
        format!(
            "1. e4 {}{} e5 *",
            "(1. d4 ".repeat(depth),
            ")".repeat(depth)
        )
    }

    #[test]
    fn nesting_is_bounded_with_a_typed_error() {
        // The deepest accepted tree round-trips through the (recursive) writer.
        let game = one(&nested(MAX_VARIATION_DEPTH));
        let mut depth = 0;
        let mut moves = &game.moves;
        while let Some(v) = moves[0].variations.first() {
            depth += 1;
            moves = &v.moves;
        }
        assert_eq!(depth, MAX_VARIATION_DEPTH);
        assert_eq!(one(&game.to_pgn()), game);
        // One level more is refused by name, and the game after it is still read.
        for depth in [MAX_VARIATION_DEPTH + 1, 20_000] {
            let text = format!("{}\n\n[Event \"next\"]\n\n1. d4 *", nested(depth));
            let games = read_games(&text);
            assert_eq!(games.len(), 2, "depth {depth}");
            let e = games[0].as_ref().unwrap_err();
            assert_eq!(e.kind, PgnErrorKind::TooDeep, "depth {depth}");
            assert_eq!(
                e.column,
                7 + 7 * MAX_VARIATION_DEPTH,
                "the first '(' too many"
            );
            assert!(e.to_string().contains("nested deeper than 100"), "{e}");
            assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("next"));
        }
        // The lexer keeps the too-deep part out: 20,000 levels cost the tokens of 100, so a
        // hostile request leaves no megabytes behind in the allocator.
        let shallow = lex::lex(&nested(MAX_VARIATION_DEPTH)).len();
        assert!(lex::lex(&nested(20_000)).len() <= shallow + 1);
        // Variations never closed end at the next tag section; the game there is read.
        let text = format!(
            "1. e4 {}\n[Event \"next\"]\n\n1. d4 *",
            "(1. d4 ".repeat(20_000)
        );
        let games = read_games(&text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].as_ref().unwrap_err().kind, PgnErrorKind::TooDeep);
        assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("next"));
    }
}
