//! A game: its start, its moves, the history of hashes, and how it ended.

use super::bitboard::Bitboard;
use super::board::Board;
use super::moves::Move;
use super::piece::PieceKind;
use super::san::SanError;
use super::square::Color;
use std::fmt;

/// How a game ended (or why it is drawn by rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move is mated; `winner` gave the mate.
    Checkmate {
        /// Who won.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// 100 half-moves without a capture or pawn move.
    FiftyMoveRule,
    /// The same position for the third time.
    ThreefoldRepetition,
    /// Neither side can possibly mate.
    InsufficientMaterial,
}

impl Outcome {
    /// The PGN result string: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Checkmate {
                winner: Color::White,
            } => "1-0",
            Outcome::Checkmate {
                winner: Color::Black,
            } => "0-1",
            _ => "1/2-1/2",
        }
    }

    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } => Some(winner),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Checkmate { winner } => write!(f, "checkmate, {winner} wins"),
            Outcome::Stalemate => f.write_str("stalemate, draw"),
            Outcome::FiftyMoveRule => f.write_str("draw by the fifty-move rule"),
            Outcome::ThreefoldRepetition => f.write_str("draw by threefold repetition"),
            Outcome::InsufficientMaterial => f.write_str("draw by insufficient material"),
        }
    }
}

/// Whether `color` has mating material left (for a flag fall: without it the game is drawn).
/// A lone king, or king and one minor piece, cannot mate by any series of legal moves.
pub fn can_mate(board: &Board, color: Color) -> bool {
    use PieceKind::{Bishop, Knight, Pawn, Queen, Rook};
    let heavy = [Pawn, Rook, Queen]
        .iter()
        .any(|&k| board.pieces_of(color, k).any());
    let minors = board.pieces_of(color, Knight).count() + board.pieces_of(color, Bishop).count();
    heavy || minors >= 2
}

/// Whether neither side has mating material: K v K, K+minor v K, or only bishops on one colour.
pub fn insufficient_material(board: &Board) -> bool {
    let heavy = board.pieces(PieceKind::Pawn)
        | board.pieces(PieceKind::Rook)
        | board.pieces(PieceKind::Queen);
    if heavy.any() {
        return false;
    }
    let knights = board.pieces(PieceKind::Knight);
    let bishops = board.pieces(PieceKind::Bishop);
    let minors = knights | bishops;
    if minors.count() <= 1 {
        return true;
    }
    knights.is_empty()
        && ((bishops & Bitboard::LIGHT).is_empty() || (bishops & !Bitboard::LIGHT).is_empty())
}

/// A game from a start position: the moves played and every position reached.
#[derive(Clone, Debug)]
pub struct Game {
    boards: Vec<Board>,
    moves: Vec<Move>,
}

/// A game kept small: its start and its moves, a move's few bytes instead of a whole position
/// a move, for a store of many games that are replayed when used (the web server keeps up to
/// a thousand: 300 stored games of 40 plies grew its memory by 5.1 MiB as [`Game`]s, 2.3 MiB
/// as records, all requests included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactGame {
    start: Board,
    moves: Vec<Move>,
}

impl CompactGame {
    /// The record of `game`.
    pub fn of(game: &Game) -> CompactGame {
        CompactGame {
            start: *game.start(),
            moves: game.moves().to_vec(),
        }
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The game again, every position replayed from the start.
    pub fn replay(&self) -> Game {
        let mut game = Game::new(self.start);
        for &m in &self.moves {
            // A record is only made from a game, whose moves were checked when played.
            let played = game.push_or_pass(m);
            debug_assert!(played.is_ok(), "a recorded move is legal: {played:?}");
            if played.is_err() {
                break;
            }
        }
        game
    }
}

/// Two games are equal when they start from the same position and have the same moves.
impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.start() == other.start() && self.moves == other.moves
    }
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Board::startpos())
    }
}

impl Game {
    /// A game starting from `start`.
    pub fn new(start: Board) -> Game {
        Game {
            boards: vec![start],
            moves: Vec::new(),
        }
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        // The list starts with the start position and only pop() shrinks it, never below one.
        self.boards.last().unwrap_or(&self.boards[0])
    }

    /// The position the game started from.
    pub fn start(&self) -> &Board {
        &self.boards[0]
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, the start first and the current one last.
    pub fn positions(&self) -> &[Board] {
        &self.boards
    }

    /// Plays `m` if it is legal; otherwise leaves the game unchanged.
    pub fn push(&mut self, m: Move) -> Result<(), super::moves::MoveError> {
        if !self.board().is_legal(m) {
            return Err(super::moves::MoveError::Illegal(m.to_string()));
        }
        self.play_legal(m);
        Ok(())
    }

    /// Plays `m`, or passes when `m` is `Move::NULL` (a null move read from PGN): the side to
    /// move changes and nothing else. Passing in check is refused like an illegal move.
    pub fn push_or_pass(&mut self, m: Move) -> Result<(), super::moves::MoveError> {
        if m != Move::NULL {
            return self.push(m);
        }
        if self.board().in_check() {
            return Err(super::moves::MoveError::Illegal(
                "a null move in check".to_string(),
            ));
        }
        self.play_legal(m);
        Ok(())
    }

    /// Appends a move already known to be legal (or a pass not in check).
    fn play_legal(&mut self, m: Move) {
        let next = self.board().after(m);
        self.boards.push(next);
        self.moves.push(m);
    }

    /// Plays a move given in UCI or SAN form.
    pub fn push_text(&mut self, text: &str) -> Result<Move, SanError> {
        // parse_move only returns legal moves.
        let m = self.board().parse_move(text)?;
        self.play_legal(m);
        Ok(m)
    }

    /// Takes back the last move.
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.boards.pop();
        Some(m)
    }

    /// Hashes of the positions since the last capture or pawn move, oldest first, the current
    /// one last: what repetition detection needs.
    pub fn reversible_hashes(&self) -> Vec<u64> {
        let n = (self.board().halfmove_clock() as usize + 1).min(self.boards.len());
        self.boards[self.boards.len() - n..]
            .iter()
            .map(Board::hash)
            .collect()
    }

    /// How many times the current position has occurred (1 when it is new).
    pub fn repetitions(&self) -> usize {
        let h = self.board().hash();
        self.reversible_hashes().iter().filter(|&&x| x == h).count()
    }

    /// The outcome, if the game is over by rule. Mate takes precedence over the fifty-move rule.
    pub fn outcome(&self) -> Option<Outcome> {
        let b = self.board();
        if !b.has_legal_move() {
            return Some(if b.in_check() {
                Outcome::Checkmate {
                    winner: !b.side_to_move(),
                }
            } else {
                Outcome::Stalemate
            });
        }
        if insufficient_material(b) {
            return Some(Outcome::InsufficientMaterial);
        }
        if b.halfmove_clock() >= 100 {
            return Some(Outcome::FiftyMoveRule);
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::ThreefoldRepetition);
        }
        None
    }

    /// The moves in SAN with move numbers, e.g. `1. e4 e5 2. Nf3`.
    pub fn san_moves(&self) -> String {
        let mut out = String::new();
        for (i, (m, b)) in self.moves.iter().zip(&self.boards).enumerate() {
            if b.side_to_move() == Color::White {
                out.push_str(&format!("{}. ", b.fullmove_number()));
            } else if i == 0 {
                out.push_str(&format!("{}... ", b.fullmove_number()));
            }
            out.push_str(&b.san(*m));
            out.push(' ');
        }
        out.trim_end().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_of(moves: &str) -> Game {
        let mut g = Game::default();
        for m in moves.split_whitespace() {
            g.push_text(m).unwrap();
        }
        g
    }

    #[test]
    fn a_compact_game_replays_the_same_game() {
        // A threefold repetition and a pass: the replayed game sees both as the original does.
        let mut g = game_of("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
        assert_eq!(g.outcome(), Some(Outcome::ThreefoldRepetition));
        g.push_or_pass(Move::NULL).unwrap();
        let again = CompactGame::of(&g).replay();
        assert_eq!(again, g);
        assert_eq!(again.positions(), g.positions());
        assert_eq!(again.outcome(), g.outcome());
        assert_eq!(CompactGame::of(&g).moves().len(), 9);
    }

    #[test]
    fn fools_mate() {
        let g = game_of("f3 e5 g4 Qh4#");
        assert_eq!(
            g.outcome(),
            Some(Outcome::Checkmate {
                winner: Color::Black
            })
        );
        assert!(super::super::pgn::PgnGame::from_game(&g)
            .to_pgn()
            .contains("1. f3 e5 2. g4 Qh4# 0-1"));
    }

    #[test]
    fn threefold() {
        let g = game_of("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
        assert_eq!(g.repetitions(), 3);
        assert_eq!(g.outcome(), Some(Outcome::ThreefoldRepetition));
        let g2 = game_of("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        assert_eq!(g2.outcome(), None);
    }

    #[test]
    fn stalemate_and_material() {
        let g = Game::new(Board::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap());
        assert_eq!(g.outcome(), Some(Outcome::Stalemate));
        for (fen, draw) in [
            ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", true),
            ("8/8/8/4k3/8/8/8/4KN2 w - - 0 1", true),
            ("8/8/8/4k3/8/8/8/4KB2 w - - 0 1", true),
            ("8/8/8/1b2k3/8/8/8/4KB2 w - - 0 1", true),
            ("8/8/8/2b1k3/8/8/8/4KB2 w - - 0 1", false),
            ("8/8/8/4k3/8/8/8/3NKN2 w - - 0 1", false),
            ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", false),
        ] {
            assert_eq!(
                insufficient_material(&Board::from_fen(fen).unwrap()),
                draw,
                "{fen}"
            );
        }
    }

    #[test]
    fn fifty_moves_but_mate_first() {
        let g = Game::new(Board::from_fen("7k/8/8/8/8/8/8/K5R1 w - - 100 80").unwrap());
        assert_eq!(g.outcome(), Some(Outcome::FiftyMoveRule));
        // Mated on the 100th half-move: the mate stands.
        let mut m = Game::new(Board::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 99 80").unwrap());
        m.push_text("Ra8#").unwrap();
        assert_eq!(m.board().halfmove_clock(), 100);
        assert_eq!(
            m.outcome(),
            Some(Outcome::Checkmate {
                winner: Color::White
            })
        );
    }

    #[test]
    fn pop_restores() {
        let mut g = game_of("e4 e5");
        g.pop();
        assert_eq!(
            g.board().to_fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert!(g.push_text("Ke3").is_err());
        assert_eq!(g.moves().len(), 1);
    }
}
