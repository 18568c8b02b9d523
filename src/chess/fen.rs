//! FEN and EPD: parsing with precise errors, and writing.

use super::bitboard::Bitboard;
use super::board::{Board, CastlingRights};
use super::piece::{Piece, PieceKind};
use super::square::{Color, File, Rank, Square};
use std::fmt::Write as _;
use thiserror::Error;

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// What is wrong with a FEN, and where.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    /// Not 4 or 6 space-separated fields.
    #[error("FEN has {found} fields; expected 6 (placement, side, castling, en passant, halfmove clock, fullmove number) or the first 4")]
    FieldCount {
        /// How many fields there were.
        found: usize,
    },
    /// The placement field does not have 8 ranks separated by '/'.
    #[error("piece placement has {found} ranks; expected 8 separated by '/'")]
    RankCount {
        /// How many ranks there were.
        found: usize,
    },
    /// A rank does not describe exactly 8 squares.
    #[error("rank {rank} describes {squares} squares; expected 8")]
    RankLength {
        /// The rank, 1..8.
        rank: char,
        /// How many squares it described.
        squares: usize,
    },
    /// A character in the placement is neither a piece letter nor a digit 1-8.
    #[error("unknown piece letter {found:?} in rank {rank}")]
    UnknownPiece {
        /// The character.
        found: char,
        /// The rank, 1..8.
        rank: char,
    },
    /// The side-to-move field is not `w` or `b`.
    #[error("side to move {0:?} is not 'w' or 'b'")]
    SideToMove(String),
    /// The castling field is not `-` or a subset of `KQkq` in that form.
    #[error("castling field {0:?} is not '-' or letters from KQkq, each at most once")]
    Castling(String),
    /// A castling right is given but the king or rook is not on its home square.
    #[error("castling right '{right}' given, but the {missing} is not on {square}")]
    CastlingPieces {
        /// The right's letter.
        right: char,
        /// "king" or "rook".
        missing: &'static str,
        /// Where it should be.
        square: Square,
    },
    /// The en-passant field is not `-` or a square.
    #[error("en-passant field {0:?} is not '-' or a square")]
    EnPassantSyntax(String),
    /// The en-passant square cannot follow a double pawn push in this position.
    #[error("en-passant square {square} is impossible: {reason}")]
    EnPassantImpossible {
        /// The square given.
        square: Square,
        /// Why it cannot be.
        reason: &'static str,
    },
    /// The halfmove clock is not a non-negative number.
    #[error("halfmove clock {0:?} is not a non-negative number")]
    Halfmove(String),
    /// The fullmove number is not a positive number.
    #[error("fullmove number {0:?} is not a positive number")]
    Fullmove(String),
    /// A side has no king or more than one.
    #[error("{color} has {count} kings; expected exactly 1")]
    KingCount {
        /// Whose kings.
        color: Color,
        /// How many.
        count: u32,
    },
    /// A side has more than 16 pieces, which no game can reach.
    #[error("{color} has {count} pieces; at most 16 are possible")]
    TooManyPieces {
        /// Whose pieces.
        color: Color,
        /// How many.
        count: u32,
    },
    /// A pawn stands on the first or last rank.
    #[error("pawn on {0}: pawns cannot stand on the first or last rank")]
    PawnOnBackRank(Square),
    /// The side that is not to move is in check, so the last move was illegal.
    #[error("{0} is not to move but is in check")]
    OpponentInCheck(Color),
}

fn parse_placement(field: &str, board: &mut Board) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount { found: ranks.len() });
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u8).unwrap_or(Rank::R1);
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
            } else if let Some(p) = Piece::from_fen_char(c) {
                if let Some(f) = File::new(file as u8) {
                    board.put(Square::from_coords(f, rank), p);
                }
                file += 1;
            } else {
                return Err(FenError::UnknownPiece {
                    found: c,
                    rank: rank.to_char(),
                });
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank.to_char(),
                squares: file,
            });
        }
    }
    Ok(())
}

fn parse_castling(field: &str, board: &Board) -> Result<CastlingRights, FenError> {
    let mut rights = CastlingRights::NONE;
    if field == "-" {
        return Ok(rights);
    }
    if field.is_empty() {
        return Err(FenError::Castling(field.to_string()));
    }
    let mut seen = CastlingRights::NONE;
    let mut wanted = Vec::with_capacity(4);
    for c in field.chars() {
        let (color, short) = match c {
            'K' => (Color::White, true),
            'Q' => (Color::White, false),
            'k' => (Color::Black, true),
            'q' => (Color::Black, false),
            _ => return Err(FenError::Castling(field.to_string())),
        };
        if seen.has(color, short) {
            return Err(FenError::Castling(field.to_string()));
        }
        seen = seen.with(color, short);
        wanted.push((c, color, short));
    }
    for (c, color, short) in wanted {
        let rank = color.back_rank();
        let king_sq = Square::from_coords(File::new(4).unwrap_or(File::A), rank);
        let rook_sq = Square::from_coords(if short { File::H } else { File::A }, rank);
        if board.piece_at(king_sq) != Some(Piece::new(color, PieceKind::King)) {
            return Err(FenError::CastlingPieces {
                right: c,
                missing: "king",
                square: king_sq,
            });
        }
        if board.piece_at(rook_sq) != Some(Piece::new(color, PieceKind::Rook)) {
            return Err(FenError::CastlingPieces {
                right: c,
                missing: "rook",
                square: rook_sq,
            });
        }
        rights = rights.with(color, short);
    }
    Ok(rights)
}

fn parse_en_passant(field: &str, board: &Board, side: Color) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let sq: Square = field
        .parse()
        .map_err(|_| FenError::EnPassantSyntax(field.to_string()))?;
    let impossible = |reason| Err(FenError::EnPassantImpossible { square: sq, reason });
    if sq.rank() != Rank::R6.relative(side) {
        return impossible("it must be on the 6th rank of the side to move (rank 6 with White to move, rank 3 with Black)");
    }
    let forward = if side == Color::White { -8 } else { 8 };
    let pawn_sq = sq.offset(forward);
    let origin = sq.offset(-forward);
    if board.piece_at(pawn_sq) != Some(Piece::new(!side, PieceKind::Pawn)) {
        return impossible("no pawn of the side that just moved stands in front of it");
    }
    if board.piece_at(sq).is_some() || board.piece_at(origin).is_some() {
        return impossible("the square it passed or the square it came from is occupied");
    }
    Ok(Some(sq))
}

fn parse_number(field: &str) -> Option<u16> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Clocks beyond u16 are absurd; saturate rather than reject a long game's count.
    Some(
        field
            .parse::<u32>()
            .map_or(u16::MAX, |v| v.min(u16::MAX as u32) as u16),
    )
}

fn validate(board: &Board) -> Result<(), FenError> {
    for color in Color::ALL {
        let count = board.pieces_of(color, PieceKind::King).count();
        if count != 1 {
            return Err(FenError::KingCount { color, count });
        }
    }
    for color in Color::ALL {
        let count = board.color(color).count();
        if count > 16 {
            return Err(FenError::TooManyPieces { color, count });
        }
    }
    let back = Bitboard::RANK_1 | Bitboard::RANK_8;
    if let Some(sq) = (board.pieces(PieceKind::Pawn) & back).first() {
        return Err(FenError::PawnOnBackRank(sq));
    }
    Ok(())
}

impl Board {
    /// Parses a FEN (6 fields, or 4 with the clocks defaulting to `0 1`).
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 6 && fields.len() != 4 {
            return Err(FenError::FieldCount {
                found: fields.len(),
            });
        }
        let mut board = Board::empty();
        parse_placement(fields[0], &mut board)?;
        validate(&board)?;
        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::SideToMove(other.to_string())),
        };
        let castling = parse_castling(fields[2], &board)?;
        let ep = parse_en_passant(fields[3], &board, side)?;
        let (halfmove, fullmove) = if fields.len() == 6 {
            let h =
                parse_number(fields[4]).ok_or_else(|| FenError::Halfmove(fields[4].to_string()))?;
            let f = parse_number(fields[5])
                .filter(|&f| f > 0)
                .ok_or_else(|| FenError::Fullmove(fields[5].to_string()))?;
            (h, f)
        } else {
            (0, 1)
        };
        let them = !side;
        if board.is_attacked(board.king_square(them), side, board.occupied()) {
            return Err(FenError::OpponentInCheck(them));
        }
        board.finish(side, castling, ep, halfmove, fullmove);
        Ok(board)
    }

    /// The position as a FEN (the en-passant square as recorded).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in Rank::all().rev() {
            let mut empty = 0;
            for file in File::all() {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(s, "{empty}");
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                let _ = write!(s, "{empty}");
            }
            if rank != Rank::R1 {
                s.push('/');
            }
        }
        let ep = self
            .en_passant()
            .map_or("-".to_string(), |sq| sq.to_string());
        let _ = write!(
            s,
            " {} {} {} {} {}",
            self.side_to_move().fen_char(),
            self.castling(),
            ep,
            self.halfmove_clock(),
            self.fullmove_number()
        );
        s
    }
}

/// One EPD record: a position and its operations (`bm Nf3; id "WAC.001";`).
#[derive(Debug, Clone)]
pub struct Epd {
    /// The position (clocks from the record if it had them, else `0 1`).
    pub board: Board,
    /// The operations in order: opcode and its operands (quotes removed).
    pub ops: Vec<(String, Vec<String>)>,
}

impl Epd {
    /// The operands of the first operation named `opcode`.
    pub fn op(&self, opcode: &str) -> Option<&[String]> {
        self.ops
            .iter()
            .find(|(o, _)| o == opcode)
            .map(|(_, v)| v.as_slice())
    }
}

/// Splits operands on spaces, keeping quoted strings whole.
fn split_operands(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                if !quoted {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Parses an EPD line: 4 FEN fields (optionally the 2 clocks) followed by `;`-terminated operations.
pub fn parse_epd(line: &str) -> Result<Epd, FenError> {
    let line = line.trim();
    let mut fields = Vec::new();
    let mut rest = line;
    // Take up to six whitespace-separated fields, stopping at the first that starts an operation.
    for _ in 0..6 {
        let r = rest.trim_start();
        if r.is_empty() || r.starts_with(';') {
            break;
        }
        let end = r.find(char::is_whitespace).unwrap_or(r.len());
        let tok = &r[..end];
        let is_number = tok.bytes().all(|b| b.is_ascii_digit());
        if fields.len() >= 4 && !is_number {
            break;
        }
        fields.push(tok.trim_end_matches(';'));
        rest = &r[end..];
        if tok.ends_with(';') {
            break;
        }
    }
    if fields.len() == 5 {
        // A lone number after the 4 fields is an operand-less opcode in some files; treat it as
        // the halfmove clock only when followed by the fullmove number.
        return Err(FenError::FieldCount { found: 5 });
    }
    let board = Board::from_fen(&fields.join(" "))?;
    let mut ops = Vec::new();
    for part in rest.split(';') {
        let mut words = split_operands(part.trim());
        if words.is_empty() {
            continue;
        }
        let opcode = words.remove(0);
        ops.push((opcode, words));
    }
    Ok(Epd { board, ops })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(fen: &str) -> FenError {
        Board::from_fen(fen).expect_err(fen)
    }

    #[test]
    fn round_trips() {
        for fen in [
            START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/8/8/8/8/K6k b - - 99 200",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        ] {
            assert_eq!(Board::from_fen(fen).unwrap().to_fen(), fen);
        }
    }

    #[test]
    fn four_fields_default_clocks() {
        let b = Board::from_fen("8/8/8/8/8/8/8/K6k w - -").unwrap();
        assert_eq!(b.to_fen(), "8/8/8/8/8/8/8/K6k w - - 0 1");
    }

    #[test]
    fn each_error_kind() {
        assert!(matches!(err(""), FenError::FieldCount { found: 0 }));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K6k w - - 0"),
            FenError::FieldCount { found: 5 }
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K6k w - - 0 1 x"),
            FenError::FieldCount { found: 7 }
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/K6k w - - 0 1"),
            FenError::RankCount { found: 7 }
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K5k w - - 0 1"),
            FenError::RankLength {
                rank: '1',
                squares: 7
            }
        ));
        assert!(matches!(
            err("9/8/8/8/8/8/8/K6k w - - 0 1"),
            FenError::UnknownPiece { found: '9', .. }
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K5xk w - - 0 1"),
            FenError::UnknownPiece {
                found: 'x',
                rank: '1'
            }
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K6k x - - 0 1"),
            FenError::SideToMove(_)
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K6k w KX - 0 1"),
            FenError::Castling(_)
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K6k w KK - 0 1"),
            FenError::Castling(_)
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K6k w K - 0 1"),
            FenError::CastlingPieces {
                right: 'K',
                missing: "king",
                ..
            }
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
            FenError::CastlingPieces {
                right: 'K',
                missing: "rook",
                ..
            }
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K6k w - z9 0 1"),
            FenError::EnPassantSyntax(_)
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K6k w - e3 0 1"),
            FenError::EnPassantImpossible { .. }
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K6k w - e6 0 1"),
            FenError::EnPassantImpossible { .. }
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K6k w - - -1 1"),
            FenError::Halfmove(_)
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K6k w - - x 1"),
            FenError::Halfmove(_)
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K6k w - - 0 0"),
            FenError::Fullmove(_)
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K6k w - - 0 -3"),
            FenError::Fullmove(_)
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K7 w - - 0 1"),
            FenError::KingCount {
                color: Color::Black,
                count: 0
            }
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/KK5k w - - 0 1"),
            FenError::KingCount {
                color: Color::White,
                count: 2
            }
        ));
        assert!(matches!(
            err("P7/8/8/8/8/8/8/K6k w - - 0 1"),
            FenError::PawnOnBackRank(_)
        ));
        assert!(matches!(
            err("kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1"),
            FenError::TooManyPieces {
                color: Color::White,
                ..
            }
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/Kp5k w - - 0 1"),
            FenError::PawnOnBackRank(_)
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K5Rk w - - 0 1"),
            FenError::OpponentInCheck(Color::Black)
        ));
    }

    #[test]
    fn epd_operations() {
        let e = parse_epd(r#"r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - bm Nxc6; id "test, one";"#).unwrap();
        assert_eq!(e.op("bm").unwrap(), ["Nxc6"]);
        assert_eq!(e.op("id").unwrap(), ["test, one"]);
        let p = parse_epd("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66").unwrap();
        assert_eq!(p.op("D2").unwrap(), ["66"]);
        assert_eq!(p.board.to_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    }
}
