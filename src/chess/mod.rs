//! The rules of chess: a self-contained library that knows nothing of search or interfaces.

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod chess960;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod pgn;
pub mod piece;
pub mod polyglot;
mod polyglot_random;
pub mod san;
pub mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, CastlingRights};
pub use fen::{parse_epd, Epd, FenError, START_FEN};
pub use game::{can_mate, insufficient_material, CompactGame, Game, Outcome};
pub use moves::{Move, MoveError, MoveFlag, MoveList, UciMove, MAX_MOVES};
pub use piece::{Piece, PieceKind};
pub use san::SanError;
pub use square::{Color, File, Rank, Square, SquareParseError};
