//! FEN and EPD: parsing with precise errors, and writing.

use super::bitboard::Bitboard;
use super::board::{Board, CastlingNotation, CastlingRights, STANDARD_CASTLE_ROOKS};
use super::piece::{Piece, PieceKind};
use super::square::{Color, File, Rank, Square};
use std::fmt::Write as _;
use thiserror::Error;

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Board {
    /// The standard starting position.
    pub fn startpos() -> Board {
        // The start position is a constant valid FEN, so parsing cannot fail.
        Board::from_fen(START_FEN).expect("start FEN is valid")
    }
}

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
    /// The castling field is not `-` or at most one right per side and colour, written as
    /// `KQkq` or as rook files (`A`-`H` for White, `a`-`h` for Black; X-FEN and Shredder-FEN).
    #[error("castling field {0:?} is not '-' or rights written as KQkq or rook files (HAha), at most one per side of each king")]
    Castling(String),
    /// A castling right is given but the king is not on its back rank, or no rook of that colour
    /// stands where the right says (on that file, or anywhere on that side of the king).
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

/// The castling field, in standard, X-FEN or Shredder-FEN form: `KQkq` name the outermost rook
/// on that side of the king, a file letter (`A`-`H` for White, `a`-`h` for Black) names the
/// rook's file. Returns the rights, the rook square of each, and the form to write back.
fn parse_castling(
    field: &str,
    board: &Board,
) -> Result<(CastlingRights, [Square; 4], CastlingNotation), FenError> {
    let mut rights = CastlingRights::NONE;
    let mut rooks = STANDARD_CASTLE_ROOKS;
    if field == "-" {
        return Ok((rights, rooks, CastlingNotation::Kqkq));
    }
    let letter = |c: char| matches!(c.to_ascii_lowercase(), 'k' | 'q' | 'a'..='h');
    let repeated = field
        .chars()
        .enumerate()
        .any(|(i, c)| field.chars().skip(i + 1).any(|d| d == c));
    if field.is_empty() || field.chars().count() > 4 || !field.chars().all(letter) || repeated {
        return Err(FenError::Castling(field.to_string()));
    }
    let mut all_files = true;
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = color.back_rank();
        let file_letter = File::from_char(c.to_ascii_lowercase());
        all_files &= file_letter.is_some();
        let king = board.king_square(color);
        if king.rank() != rank {
            return Err(FenError::CastlingPieces {
                right: c,
                missing: "king",
                square: Square::from_coords(File::E, rank),
            });
        }
        let own_rooks = board.pieces_of(color, PieceKind::Rook) & Bitboard::rank(rank);
        let rook = match file_letter {
            Some(file) => {
                let sq = Square::from_coords(file, rank);
                if !own_rooks.has(sq) {
                    return Err(FenError::CastlingPieces {
                        right: c,
                        missing: "rook",
                        square: sq,
                    });
                }
                sq
            }
            None => {
                // K and Q: the outermost rook on that side of the king.
                let short = c.eq_ignore_ascii_case(&'k');
                let side = own_rooks & files_beyond(king.file(), short);
                let found = if short { side.last() } else { side.first() };
                found.ok_or(FenError::CastlingPieces {
                    right: c,
                    missing: "rook",
                    square: Square::from_coords(if short { File::H } else { File::A }, rank),
                })?
            }
        };
        if rook.file() == king.file() {
            return Err(FenError::Castling(field.to_string()));
        }
        let short = rook.file() > king.file();
        if rights.has(color, short) {
            // Two rights for one side (`KH`, `AQ`, or a letter twice).
            return Err(FenError::Castling(field.to_string()));
        }
        rights = rights.with(color, short);
        rooks[CastlingRights::index(color, short)] = rook;
    }
    let notation = if all_files {
        CastlingNotation::Files
    } else {
        CastlingNotation::Kqkq
    };
    Ok((rights, rooks, notation))
}

/// The files east of `file` (towards h) when `east`, else west of it.
fn files_beyond(file: File, east: bool) -> Bitboard {
    File::all()
        .filter(|&f| if east { f > file } else { f < file })
        .fold(Bitboard::EMPTY, |bb, f| bb | Bitboard::file(f))
}

/// The castling field as FEN writes it: in the form it was read (`Board::castling_notation`),
/// with X-FEN's file letter where `K`/`Q` would name another rook.
fn castling_field(board: &Board) -> String {
    let rights = board.castling();
    if rights == CastlingRights::NONE {
        return "-".to_string();
    }
    let mut out = String::with_capacity(4);
    for color in Color::ALL {
        let rank = color.back_rank();
        // Not `king_square`: Debug output of a broken board (no king) comes through here.
        let king = board.pieces_of(color, PieceKind::King).first();
        for short in [true, false] {
            if !rights.has(color, short) {
                continue;
            }
            let rook = board.castle_rook(color, short);
            // Is there another rook of ours further out on the same side?
            let outer = board.pieces_of(color, PieceKind::Rook)
                & Bitboard::rank(rank)
                & files_beyond(rook.file(), short);
            let letter = if board.castling_notation() == CastlingNotation::Files
                || outer.any()
                || king.is_some_and(|k| k.file() == rook.file())
            {
                rook.file().to_char()
            } else if short {
                'k'
            } else {
                'q'
            };
            out.push(if color == Color::White {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
    }
    out
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
        let (castling, rooks, notation) = parse_castling(fields[2], &board)?;
        board.set_castling_setup(rooks, notation);
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

    /// FEN's castling field (`KQkq`, `HAha`, a subset, or `-`), in the form it was read.
    pub fn castling_fen(&self) -> String {
        castling_field(self)
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
            self.castling_fen(),
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
    fn chess960_castling_fields_round_trip_in_the_form_read() {
        for fen in [
            // Shredder-FEN stays files; X-FEN stays KQkq.
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
            "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1",
            // X-FEN needs a file where another rook stands further out on that side.
            "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w HA - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            assert_eq!(board.to_fen(), fen);
        }
        let b =
            Board::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9")
                .unwrap();
        assert_eq!(b.castle_rook(Color::White, true), Square::H1);
        assert_eq!(b.castle_rook(Color::White, false), Square::F1);
        assert_eq!(b.castle_rook(Color::Black, false), Square::F8);
        assert!(b.is_chess960());
        assert!(!Board::startpos().is_chess960());
        // The same rights in both forms are the same position.
        assert_eq!(
            b,
            Board::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
                .unwrap()
        );
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
            err("8/8/8/8/8/8/K7/7k w K - 0 1"),
            FenError::CastlingPieces {
                right: 'K',
                missing: "king",
                ..
            }
        ));
        // A king in the corner has no rook beyond it.
        assert!(matches!(
            err("8/8/8/8/8/8/8/K6k w K - 0 1"),
            FenError::CastlingPieces {
                right: 'K',
                missing: "rook",
                ..
            }
        ));
        // Chess960: no rook on the named file; two rights on one side of the king; a file
        // letter on the king's own file.
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/1R2K2R w G - 0 1"),
            FenError::CastlingPieces {
                right: 'G',
                missing: "rook",
                ..
            }
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/1R2K1RR w HG - 0 1"),
            FenError::Castling(_)
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/1R2K1RR w KH - 0 1"),
            FenError::Castling(_)
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/1R2K1RR w E - 0 1"),
            FenError::CastlingPieces { right: 'E', .. }
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
