//! Standard algebraic notation (SAN): writing, and reading what people type.

use super::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use super::bitboard::Bitboard;
use super::board::Board;
use super::moves::{Move, MoveFlag, UciMove};
use super::piece::PieceKind;
use super::square::{File, Rank, Square};
use thiserror::Error;

/// Why a SAN move could not be matched to a legal move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SanError {
    /// The text is not shaped like a move at all.
    #[error("{0:?} is not a move (try e4, Nf3, exd5, O-O, e8=Q or e2e4)")]
    Syntax(String),
    /// The destination is not a square of the board.
    #[error("{0} is not a square")]
    NotASquare(String),
    /// The move is well formed but no legal move matches it.
    #[error("{san} is not legal here: {reason}")]
    Illegal {
        /// The move as typed.
        san: String,
        /// Why it is not legal.
        reason: String,
    },
    /// More than one legal move matches.
    #[error("{san} is ambiguous: {}", candidates.join(" or "))]
    Ambiguous {
        /// The move as typed.
        san: String,
        /// The legal moves it could mean, in SAN.
        candidates: Vec<String>,
    },
}

fn piece_reach(kind: PieceKind, from: Square, board: &Board) -> Bitboard {
    let occ = board.occupied();
    match kind {
        PieceKind::Pawn => Bitboard::EMPTY,
        PieceKind::Knight => knight_attacks(from),
        PieceKind::Bishop => bishop_attacks(from, occ),
        PieceKind::Rook => rook_attacks(from, occ),
        PieceKind::Queen => bishop_attacks(from, occ) | rook_attacks(from, occ),
        PieceKind::King => king_attacks(from),
    }
}

impl Board {
    /// The SAN of a line of moves played from this position, up to its first illegal move.
    pub fn san_line(&self, moves: &[Move]) -> Vec<String> {
        let mut b = *self;
        let mut out = Vec::with_capacity(moves.len());
        for &m in moves {
            // A pass (a game read from PGN may hold one) is legal wherever the king is not
            // attacked; `san` writes it `--`.
            let legal = if m == Move::NULL {
                !b.in_check()
            } else {
                b.is_legal(m)
            };
            if !legal {
                break;
            }
            out.push(b.san(m));
            b = b.after(m);
        }
        out
    }

    /// The move in SAN, with `+` or `#` when it gives check or mate. `m` must be legal.
    pub fn san(&self, m: Move) -> String {
        if m == Move::NULL {
            return "--".to_string();
        }
        let mut s = self.san_without_suffix(m);
        let after = self.make_move(m);
        if after.in_check() {
            s.push(if after.has_legal_move() { '+' } else { '#' });
        }
        s
    }

    fn san_without_suffix(&self, m: Move) -> String {
        match m.flag() {
            MoveFlag::CastleKing => return "O-O".to_string(),
            MoveFlag::CastleQueen => return "O-O-O".to_string(),
            _ => {}
        }
        let (from, to) = (m.from(), m.to());
        let kind = self.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
        let mut s = String::with_capacity(8);
        if kind == PieceKind::Pawn {
            if m.is_capture() {
                s.push(from.file().to_char());
                s.push('x');
            }
            s.push_str(&to.to_string());
            if let Some(p) = m.promotion() {
                s.push('=');
                s.push(p.upper_char());
            }
            return s;
        }
        s.push(kind.upper_char());
        let rivals: Vec<Square> = self
            .legal_moves()
            .iter()
            .filter(|o| {
                o.to() == to
                    && o.from() != from
                    && self.piece_at(o.from()).map(|p| p.kind) == Some(kind)
            })
            .map(|o| o.from())
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|r| r.file() == from.file());
            let same_rank = rivals.iter().any(|r| r.rank() == from.rank());
            if !same_file {
                s.push(from.file().to_char());
            } else if !same_rank {
                s.push(from.rank().to_char());
            } else {
                s.push_str(&from.to_string());
            }
        }
        if m.is_capture() {
            s.push('x');
        }
        s.push_str(&to.to_string());
        s
    }

    /// Reads a move in SAN, accepting common variants: `0-0`, `e8Q`, `e8=Q`, missing or extra
    /// `+`/`#`, annotations (`!?`), and an omitted `x`.
    ///
    /// Long on purpose: it reads the text left to right (castling, piece, disambiguation,
    /// capture, square, promotion, check marks) and then matches the legal moves, each step
    /// with its own precise error; the steps share the partly read move.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let san = text.trim();
        let core = san.trim_end_matches(['+', '#', '!', '?']);
        let syntax = || SanError::Syntax(san.to_string());
        if core.is_empty() || !core.is_ascii() {
            return Err(syntax());
        }
        let legal = self.legal_moves();

        let castle = match core {
            "O-O" | "0-0" | "o-o" => Some(MoveFlag::CastleKing),
            "O-O-O" | "0-0-0" | "o-o-o" => Some(MoveFlag::CastleQueen),
            _ => None,
        };
        if let Some(flag) = castle {
            return legal
                .iter()
                .copied()
                .find(|m| m.flag() == flag)
                .ok_or_else(|| SanError::Illegal {
                    san: san.to_string(),
                    reason: if self.in_check() {
                        "you cannot castle out of check".to_string()
                    } else {
                        "castling on that side is not possible now".to_string()
                    },
                });
        }

        let bytes = core.as_bytes();
        let (kind, mut body) = match bytes[0] {
            b'N' | b'n' => (PieceKind::Knight, &core[1..]),
            b'B' => (PieceKind::Bishop, &core[1..]),
            b'R' | b'r' => (PieceKind::Rook, &core[1..]),
            b'Q' | b'q' => (PieceKind::Queen, &core[1..]),
            b'K' | b'k' => (PieceKind::King, &core[1..]),
            b'a'..=b'h' => (PieceKind::Pawn, core),
            _ => return Err(syntax()),
        };

        // Promotion at the end: "=Q", "Q" or "q" after the destination.
        let mut promotion = None;
        if kind == PieceKind::Pawn {
            let b = body.as_bytes();
            if b.len() >= 3 {
                if let Some(p) = PieceKind::from_char(b[b.len() - 1] as char) {
                    if b[b.len() - 2].is_ascii_digit() || b[b.len() - 2] == b'=' {
                        if !matches!(
                            p,
                            PieceKind::Knight
                                | PieceKind::Bishop
                                | PieceKind::Rook
                                | PieceKind::Queen
                        ) {
                            return Err(SanError::Illegal {
                                san: san.to_string(),
                                reason: format!("a pawn cannot promote to a {}", p.name()),
                            });
                        }
                        promotion = Some(p);
                        body = body[..b.len() - 1].trim_end_matches('=');
                    }
                }
            }
        }
        if body.len() < 2 {
            return Err(syntax());
        }
        let (head, dest) = body.split_at(body.len() - 2);
        let to: Square = match dest.parse() {
            Ok(sq) => sq,
            Err(_) => {
                let d = dest.as_bytes();
                if d[0].is_ascii_lowercase() && d[1].is_ascii_digit() {
                    return Err(SanError::NotASquare(dest.to_string()));
                }
                return Err(syntax());
            }
        };
        let (head, capture) = match head.strip_suffix(['x', ':']) {
            Some(h) => (h, true),
            None => (head, false),
        };
        let mut from_file = None;
        let mut from_rank = None;
        for c in head.chars() {
            if let (Some(f), None, None) = (File::from_char(c), from_file, from_rank) {
                from_file = Some(f);
            } else if let (Some(r), None) = (Rank::from_char(c), from_rank) {
                from_rank = Some(r);
            } else {
                return Err(syntax());
            }
        }
        if kind == PieceKind::Pawn && capture && from_file.is_none() {
            return Err(syntax());
        }

        let matches: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                m.to() == to
                    && !m.is_castle()
                    && self.piece_at(m.from()).map(|p| p.kind) == Some(kind)
                    && from_file.is_none_or(|f| m.from().file() == f)
                    && from_rank.is_none_or(|r| m.from().rank() == r)
                    && (kind != PieceKind::Pawn || from_file.is_some() || !m.is_capture())
            })
            .collect();
        let promos: Vec<Move> = matches
            .iter()
            .copied()
            .filter(|m| {
                m.promotion() == promotion || (promotion.is_none() && m.promotion().is_none())
            })
            .collect();

        let illegal = |reason: String| SanError::Illegal {
            san: san.to_string(),
            reason,
        };
        match promos.as_slice() {
            [m] => {
                if capture && !m.is_capture() {
                    return Err(illegal(format!("there is nothing to capture on {to}")));
                }
                Ok(*m)
            }
            [] if !matches.is_empty() && promotion.is_none() => Err(illegal(format!(
                "a pawn reaching {to} must promote: add the piece, e.g. {san}=Q"
            ))),
            [] if !matches.is_empty() => Err(illegal(
                "a pawn can only promote on the last rank".to_string(),
            )),
            [] => {
                // Only the pieces the text can mean: its from-file and from-rank, and for a
                // pawn without one a push, not a capture.
                let ours = self
                    .pieces_of(self.side_to_move(), kind)
                    .into_iter()
                    .filter(|f| from_file.is_none_or(|x| f.file() == x))
                    .filter(|f| from_rank.is_none_or(|x| f.rank() == x))
                    .filter(|f| {
                        kind != PieceKind::Pawn || from_file.is_some() || f.file() == to.file()
                    })
                    .fold(Bitboard::EMPTY, |b, f| b | Bitboard::from_square(f));
                Err(illegal(self.why_unreachable(kind, ours, to, promotion)))
            }
            many => Err(SanError::Ambiguous {
                san: san.to_string(),
                candidates: many.iter().map(|m| self.san(*m)).collect(),
            }),
        }
    }

    /// A human explanation of why no `kind` can legally go to `to`.
    fn why_unreachable(
        &self,
        kind: PieceKind,
        ours: Bitboard,
        to: Square,
        promotion: Option<PieceKind>,
    ) -> String {
        let us = self.side_to_move();
        let name = kind.name();
        if promotion.is_some() && to.rank() != Rank::R8.relative(us) {
            return "a pawn can only promote on the last rank".to_string();
        }
        if self.pieces_of(us, kind).is_empty() {
            return format!("you have no {name}");
        }
        if self.color(us).has(to) {
            return format!("{to} is occupied by your own piece");
        }
        // A piece that could go there but for its own king's safety says so; else a pawn
        // whose way is blocked; else nothing reaches.
        if let Some(from) = ours.into_iter().find(|&f| self.reach(f).has(to)) {
            return self.why_not(from, to);
        }
        if let Some(from) = ours.into_iter().find(|&f| self.blocker(f, to).is_some()) {
            return self.why_not(from, to);
        }
        format!("no {name} can reach {to}")
    }

    /// The squares the piece on `from` attacks or moves to, ignoring whether its king is left
    /// in check (castling aside): a pawn pushes onto empty squares and captures onto enemy
    /// pieces or the en-passant square.
    fn reach(&self, from: Square) -> Bitboard {
        let Some(piece) = self.piece_at(from) else {
            return Bitboard::EMPTY;
        };
        let us = piece.color;
        let occ = self.occupied();
        let reach = match piece.kind {
            PieceKind::Pawn => {
                let fwd = if us == super::square::Color::White {
                    8
                } else {
                    -8
                };
                let mut r = pawn_attacks(us, from) & self.color(!us);
                if let Some(ep) = self.en_passant() {
                    r |= pawn_attacks(us, from) & Bitboard::from_square(ep);
                }
                let one = from.offset(fwd);
                if !occ.has(one) {
                    r |= Bitboard::from_square(one);
                    let two = one.offset(fwd);
                    if from.rank() == Rank::R2.relative(us) && !occ.has(two) {
                        r |= Bitboard::from_square(two);
                    }
                }
                r
            }
            PieceKind::King => king_attacks(from),
            kind => piece_reach(kind, from, self),
        };
        reach & !self.color(us)
    }

    /// For a pawn on `from` whose push to `to` is in the way of a piece, that piece's square.
    fn blocker(&self, from: Square, to: Square) -> Option<Square> {
        let piece = self.piece_at(from)?;
        if piece.kind != PieceKind::Pawn || from.file() != to.file() {
            return None;
        }
        let fwd: i8 = if piece.color == super::square::Color::White {
            8
        } else {
            -8
        };
        let one = from.offset(fwd);
        let double = from.rank() == Rank::R2.relative(piece.color) && to == one.offset(fwd);
        if to != one && !double {
            return None;
        }
        let occ = self.occupied();
        [one, to].into_iter().find(|&s| occ.has(s))
    }

    /// Why the piece on `from` (the mover's) cannot go to `to`.
    fn why_not(&self, from: Square, to: Square) -> String {
        let Some(piece) = self.piece_at(from) else {
            return format!("there is no piece on {from}");
        };
        let name = piece.kind.name();
        if let Some(b) = self.blocker(from, to) {
            let what = self.piece_at(b).map_or("piece", |p| p.kind.name());
            return format!("the {name} on {from} is blocked by the {what} on {b}");
        }
        if !self.reach(from).has(to) {
            return format!("the {name} on {from} cannot go to {to}");
        }
        if self.in_check() {
            format!("you are in check, and the {name} on {from} moving to {to} does not end it")
        } else {
            format!("the {name} on {from} cannot go to {to}: it would leave your king in check")
        }
    }

    /// Reads a move in UCI form and matches it against the legal moves. Castling is accepted
    /// both as the king's move (`e1g1`) and as king-takes-rook (`e1h1`, Chess960's form); where
    /// a king step and castling share the squares, the plain king step is meant.
    pub fn parse_uci(&self, text: &str) -> Result<Move, super::moves::MoveError> {
        let u: UciMove = text.trim().parse()?;
        let legal = self.legal_moves();
        let matches = |m: &&Move| m.from() == u.from && m.promotion() == u.promotion;
        let plain = legal
            .iter()
            .filter(matches)
            .find(|m| !m.is_castle() && m.to() == u.to);
        let takes_rook = || {
            legal.iter().filter(matches).find(|m| {
                m.is_castle()
                    && self.castle_rook(self.side_to_move(), m.flag() == MoveFlag::CastleKing)
                        == u.to
            })
        };
        let king_move = || {
            legal
                .iter()
                .filter(matches)
                .find(|m| m.is_castle() && m.to() == u.to)
        };
        plain
            .or_else(takes_rook)
            .or_else(king_move)
            .copied()
            .ok_or_else(|| super::moves::MoveError::Illegal(text.trim().to_string()))
    }

    /// `m` in UCI form: castling as the king's move (`e1g1`), or with `chess960` as
    /// king-takes-rook (`e1h1`), as `UCI_Chess960` asks. `m` may come from any position of a
    /// game that starts here (a principal variation): castling rooks never change in a game.
    pub fn uci_move(&self, m: Move, chess960: bool) -> String {
        if chess960 && m.is_castle() {
            let color = if m.from().rank() == super::square::Rank::R1 {
                super::square::Color::White
            } else {
                super::square::Color::Black
            };
            let rook = self.castle_rook(color, m.flag() == MoveFlag::CastleKing);
            format!("{}{}", m.from(), rook)
        } else {
            m.to_string()
        }
    }

    /// Reads a move in either UCI or SAN form (UCI first, since `e2e4` is not SAN).
    pub fn parse_move(&self, text: &str) -> Result<Move, SanError> {
        let t = text.trim();
        if let Ok(u) = t.parse::<UciMove>() {
            if let Ok(m) = self.parse_uci(t) {
                return Ok(m);
            }
            // A move from a square without a piece of ours: say so, rather than what the SAN
            // reading would find wrong with the destination.
            let reason = match self.piece_at(u.from) {
                None => Some(format!("there is no piece on {}", u.from)),
                Some(p) if p.color != self.side_to_move() => Some(format!(
                    "the {} on {} is {}'s, and {} is to move",
                    p.kind.name(),
                    u.from,
                    p.color,
                    self.side_to_move()
                )),
                // A king's two-square move that is not a legal castling (the legal one matched
                // above).
                Some(p)
                    if p.kind == PieceKind::King
                        && u.from.file().index().abs_diff(u.to.file().index()) > 1 =>
                {
                    Some("the king cannot castle that way now".to_string())
                }
                // A promotion letter missing or out of place: the SAN reader says which.
                Some(p)
                    if u.promotion.is_some()
                        || (p.kind == PieceKind::Pawn
                            && u.to.rank() == Rank::R8.relative(p.color)) =>
                {
                    None
                }
                Some(_) => Some(self.why_not(u.from, u.to)),
            };
            if let Some(reason) = reason {
                return Err(SanError::Illegal {
                    san: t.to_string(),
                    reason,
                });
            }
        }
        self.parse_san(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    #[test]
    fn writes_san() {
        let start = Board::startpos();
        let m = start.parse_uci("g1f3").unwrap();
        assert_eq!(start.san(m), "Nf3");
        let kiwi = b("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        assert_eq!(kiwi.san(kiwi.parse_uci("e1g1").unwrap()), "O-O");
        assert_eq!(kiwi.san(kiwi.parse_uci("e1c1").unwrap()), "O-O-O");
        assert_eq!(kiwi.san(kiwi.parse_uci("e5f7").unwrap()), "Nxf7");
        assert_eq!(kiwi.san(kiwi.parse_uci("d5e6").unwrap()), "dxe6");
        // Two knights that can reach d2 from different files.
        let p = b("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        assert_eq!(p.san(p.parse_uci("b1d2").unwrap()), "Nbd2");
        // Two rooks on one file.
        let r = b("4k3/8/8/8/R7/8/8/R3K3 w - - 0 1");
        assert_eq!(r.san(r.parse_uci("a1a2").unwrap()), "R1a2");
        let ep = b("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(ep.san(ep.parse_uci("e5d6").unwrap()), "exd6");
        let promo = b("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(promo.san(promo.parse_uci("b7b8q").unwrap()), "b8=Q+");
        let mate = b("6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1");
        assert_eq!(mate.san(mate.parse_uci("a1a8").unwrap()), "Ra8#");
        let castle_mate = b("8/8/8/8/8/8/R7/R3K2k w Q - 0 1");
        assert_eq!(
            castle_mate.san(castle_mate.parse_uci("e1c1").unwrap()),
            "O-O-O#"
        );
    }

    #[test]
    fn a_move_from_an_empty_square_names_the_square() {
        let mut g = crate::chess::Game::default();
        g.push_text("e4").unwrap();
        g.push_text("e5").unwrap();
        let err = g.board().parse_move("e2e4").unwrap_err().to_string();
        assert_eq!(err, "e2e4 is not legal here: there is no piece on e2");
        let err = g.board().parse_move("d7d5").unwrap_err().to_string();
        assert!(err.contains("the pawn on d7 is Black's"), "{err}");
        // A piece of ours that cannot go there gets its own reason.
        let err = g.board().parse_move("g1g3").unwrap_err().to_string();
        assert_eq!(
            err,
            "g1g3 is not legal here: the knight on g1 cannot go to g3"
        );
        // A blocked pawn is blocked, in SAN and in UCI (it was "would leave your king in check").
        let mut g = crate::chess::Game::default();
        g.push_text("Nf3").unwrap();
        g.push_text("e6").unwrap();
        let err = g.board().parse_move("f4").unwrap_err().to_string();
        assert_eq!(
            err,
            "f4 is not legal here: the pawn on f2 is blocked by the knight on f3"
        );
        let err = g.board().parse_move("f2f3").unwrap_err().to_string();
        assert!(
            err.ends_with("the pawn on f2 is blocked by the knight on f3"),
            "{err}"
        );
        // A castling that is not possible now, typed as the king's move.
        let err = Board::startpos()
            .parse_move("e1g1")
            .unwrap_err()
            .to_string();
        assert!(
            err.ends_with("the king cannot castle that way now"),
            "{err}"
        );
        // Promotion letters: missing, or where none is possible.
        let promo = Board::from_fen("7k/4P3/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let err = promo.parse_move("e7e8").unwrap_err().to_string();
        assert!(err.contains("must promote"), "{err}");
        let err = Board::startpos()
            .parse_move("e2e4q")
            .unwrap_err()
            .to_string();
        assert!(err.contains("only promote on the last rank"), "{err}");
        // The typed from-file counts: Nfd2 with the f3 knight pinned speaks of that knight.
        let pinned = Board::from_fen("4k3/8/8/7b/8/5N2/8/1N1K4 w - - 0 1").unwrap();
        assert!(pinned.parse_move("Nbd2").is_ok());
        let err = pinned.parse_move("Nfd2").unwrap_err().to_string();
        assert!(err.contains("the knight on f3"), "{err}");
        // A pawn push blames the pawn on its file, not one that could only capture there.
        let push = Board::from_fen("4k3/8/8/8/4p3/3PN3/4P3/4K3 w - - 0 1").unwrap();
        let err = push.parse_move("e4").unwrap_err().to_string();
        assert!(
            err.contains("the pawn on e2 is blocked by the knight on e3"),
            "{err}"
        );
        // A pin still reads as a pin.
        let pinned = Board::from_fen("4k3/8/8/8/8/8/4r3/4K2N w - - 0 1").unwrap();
        assert!(pinned.parse_move("e1e2").is_ok());
        let pin = Board::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
        let err = pin.parse_move("Nc3").unwrap_err().to_string();
        assert!(
            err.ends_with("the knight on e2 cannot go to c3: it would leave your king in check"),
            "{err}"
        );
    }

    #[test]
    fn reads_variants() {
        let kiwi = b("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        for (text, uci) in [
            ("O-O", "e1g1"),
            ("0-0", "e1g1"),
            ("0-0-0", "e1c1"),
            ("Nxf7", "e5f7"),
            ("Nf7", "e5f7"),
            ("Nxf7+", "e5f7"),
            ("Nxf7!?", "e5f7"),
            ("dxe6", "d5e6"),
            ("gxh3", "g2h3"),
            ("a4", "a2a4"),
        ] {
            assert_eq!(kiwi.parse_san(text).unwrap().to_string(), uci, "{text}");
        }
        let promo = b("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        for text in ["b8=Q", "b8Q", "b8q", "b8=Q+"] {
            assert_eq!(promo.parse_san(text).unwrap().to_string(), "b7b8q");
        }
        assert_eq!(promo.parse_san("b8=N").unwrap().to_string(), "b7b8n");
    }

    #[test]
    fn errors_say_why() {
        let start = Board::startpos();
        assert!(matches!(
            start.parse_san("Nf4"),
            Err(SanError::Illegal { .. })
        ));
        assert_eq!(
            start.parse_san("Nf4").unwrap_err().to_string(),
            "Nf4 is not legal here: no knight can reach f4"
        );
        assert!(matches!(
            start.parse_san("e9"),
            Err(SanError::NotASquare(_))
        ));
        assert!(matches!(start.parse_san("hello"), Err(SanError::Syntax(_))));
        assert!(matches!(start.parse_san(""), Err(SanError::Syntax(_))));
        assert!(matches!(
            start.parse_san("O-O"),
            Err(SanError::Illegal { .. })
        ));
        let two = b("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        match two.parse_san("Nd2") {
            Err(SanError::Ambiguous { candidates, .. }) => assert_eq!(candidates, ["Nbd2", "Nfd2"]),
            other => panic!("{other:?}"),
        }
        let promo = b("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        assert!(matches!(
            promo.parse_san("b8"),
            Err(SanError::Illegal { .. })
        ));
        assert!(matches!(
            promo.parse_san("b8=K"),
            Err(SanError::Illegal { .. })
        ));
        let pinned = b("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
        assert!(pinned
            .parse_san("Nc3")
            .unwrap_err()
            .to_string()
            .contains("leave your king in check"));
        assert!(start
            .parse_san("Nxf3")
            .unwrap_err()
            .to_string()
            .contains("nothing to capture"));
    }
}
