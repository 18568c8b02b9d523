//! Differential test against cozy-chess, an independent move generator (dev-dependency only).
//!
//! Thousands of random games from real opening positions; after every move we compare the legal
//! move sets, check / mate / stalemate status, the FEN, and that equal positions hash equal.
//! SAN of every legal move must be unique and read back to the same move.

use fianchetto::chess::{chess960, Board, Color, Game};
use std::collections::HashMap;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// cozy-chess writes castling as king-takes-rook; convert to the UCI king move.
fn cozy_uci(board: &cozy_chess::Board, mv: cozy_chess::Move) -> String {
    let is_king = board.piece_on(mv.from) == Some(cozy_chess::Piece::King);
    let own_rook = board.colors(board.side_to_move()).has(mv.to)
        && board.piece_on(mv.to) == Some(cozy_chess::Piece::Rook);
    if is_king && own_rook {
        let file = if mv.to.file() > mv.from.file() {
            'g'
        } else {
            'c'
        };
        let rank = mv.from.to_string().chars().nth(1).unwrap();
        return format!("{}{file}{rank}", mv.from);
    }
    mv.to_string()
}

fn cozy_moves(board: &cozy_chess::Board) -> Vec<(String, cozy_chess::Move)> {
    let mut out = Vec::new();
    board.generate_moves(|set| {
        for mv in set {
            out.push((cozy_uci(board, mv), mv));
        }
        false
    });
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// A description of the position that identifies it for repetition: placement, side, castling,
/// and the legal en-passant captures (as cozy-chess generates them).
fn identity(board: &cozy_chess::Board, moves: &[(String, cozy_chess::Move)]) -> String {
    let fen = board.to_string();
    let fields: Vec<&str> = fen.split(' ').collect();
    let ep: Vec<&String> = moves
        .iter()
        .filter(|(_, m)| {
            board.piece_on(m.from) == Some(cozy_chess::Piece::Pawn)
                && m.from.file() != m.to.file()
                && board.piece_on(m.to).is_none()
        })
        .map(|(s, _)| s)
        .collect();
    format!("{} {} {} {:?}", fields[0], fields[1], fields[2], ep)
}

fn fen_without_ep(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    format!("{} {} {} {} {}", f[0], f[1], f[2], f[4], f[5])
}

/// The rules of one game: standard chess (castling written as the king's move, FEN in
/// `KQkq`) or Chess960 (king-takes-rook, Shredder-FEN on both sides).
#[derive(Clone, Copy, PartialEq)]
enum Variant {
    Standard,
    Chess960,
}

fn check_position(
    board: &Board,
    cozy: &cozy_chess::Board,
    variant: Variant,
    seen: &mut HashMap<u64, String>,
    back: &mut HashMap<String, u64>,
) -> Vec<(String, cozy_chess::Move)> {
    let chess960 = variant == Variant::Chess960;
    let theirs = if chess960 {
        let mut out = Vec::new();
        cozy.generate_moves(|set| {
            out.extend(set.into_iter().map(|mv| (mv.to_string(), mv)));
            false
        });
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    } else {
        cozy_moves(cozy)
    };
    let mut ours: Vec<String> = board
        .legal_moves()
        .iter()
        .map(|&m| board.uci_move(m, chess960))
        .collect();
    ours.sort();
    let their_names: Vec<String> = theirs.iter().map(|(s, _)| s.clone()).collect();
    assert_eq!(
        ours,
        their_names,
        "legal moves differ in {}",
        board.to_fen()
    );
    assert_eq!(board.count_legal_moves() as usize, ours.len());
    assert_eq!(
        board.in_check(),
        !cozy.checkers().is_empty(),
        "{}",
        board.to_fen()
    );
    let status = cozy.status();
    assert_eq!(
        board.is_checkmate(),
        status == cozy_chess::GameStatus::Won,
        "{}",
        board.to_fen()
    );
    assert_eq!(
        board.is_stalemate(),
        status == cozy_chess::GameStatus::Drawn && theirs.is_empty(),
        "{}",
        board.to_fen()
    );
    let cozy_fen = if chess960 {
        format!("{cozy:#}")
    } else {
        cozy.to_string()
    };
    assert_eq!(fen_without_ep(&board.to_fen()), fen_without_ep(&cozy_fen));
    assert_eq!(board.hash(), board.compute_hash());

    let id = identity(cozy, &theirs);
    if let Some(prev) = seen.insert(board.hash(), id.clone()) {
        assert_eq!(prev, id, "hash collision or missed equality");
    }
    if let Some(prev) = back.insert(id, board.hash()) {
        assert_eq!(
            prev,
            board.hash(),
            "equal positions hash differently: {}",
            board.to_fen()
        );
    }

    let mut sans: Vec<String> = Vec::new();
    for &m in board.legal_moves().iter() {
        let san = board.san(m);
        assert_eq!(
            board.parse_san(&san),
            Ok(m),
            "SAN {san} in {}",
            board.to_fen()
        );
        sans.push(san);
    }
    let n = sans.len();
    sans.sort();
    sans.dedup();
    assert_eq!(sans.len(), n, "duplicate SAN in {}", board.to_fen());
    theirs
}

fn random_games(openings: &str, games: usize, seed: u64) -> usize {
    let fens: Vec<String> = openings
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(String::from)
        .collect();
    play_random_games(&fens, Variant::Standard, games, seed)
}

fn play_random_games(fens: &[String], variant: Variant, games: usize, seed: u64) -> usize {
    let mut rng = Rng(seed);
    let mut seen = HashMap::new();
    let mut back = HashMap::new();
    let mut positions = 0;
    for _ in 0..games {
        let fen = &fens[rng.below(fens.len())];
        let mut game = Game::new(Board::from_fen(fen).expect("opening FEN"));
        let mut cozy: cozy_chess::Board =
            cozy_chess::Board::from_fen(fen, variant == Variant::Chess960).expect("cozy FEN");
        for _ in 0..160 {
            let theirs = check_position(game.board(), &cozy, variant, &mut seen, &mut back);
            positions += 1;
            if theirs.is_empty() || game.outcome().is_some() {
                break;
            }
            let (uci, mv) = &theirs[rng.below(theirs.len())];
            game.push_text(uci).expect("cozy's move is legal for us");
            cozy.play(*mv);
        }
    }
    positions
}

#[test]
fn random_games_from_8_move_openings() {
    let n = random_games(
        include_str!("data/openings-8mvs.epd"),
        1500,
        0x1234_5678_9abc_def1,
    );
    assert!(n > 50_000, "only {n} positions");
}

#[test]
fn random_games_from_2_move_openings() {
    let n = random_games(
        include_str!("data/openings-2moves.epd"),
        1000,
        0x0fed_cba9_8765_4321,
    );
    assert!(n > 30_000, "only {n} positions");
}

/// The FEN of Chess960 start position `n` with Shredder-FEN castling, which cozy-chess reads.
fn shredder_start(n: u16) -> String {
    let board = chess960::start_position(n).expect("0..960");
    let mut rights = String::new();
    for color in [Color::White, Color::Black] {
        for short in [true, false] {
            let file = board.castle_rook(color, short).file().to_char();
            rights.push(if color == Color::White {
                file.to_ascii_uppercase()
            } else {
                file
            });
        }
    }
    board.to_fen().replace(" KQkq ", &format!(" {rights} "))
}

#[test]
fn random_chess960_games_from_all_start_positions_and_the_perft_suite() {
    let mut fens: Vec<String> = (0..chess960::POSITIONS).map(shredder_start).collect();
    // The perft suite's positions are 960 games a few moves in, with rights partly lost.
    fens.extend(
        include_str!("data/fischer.epd")
            .lines()
            .filter_map(|l| l.split(';').next())
            .map(|f| f.trim().to_string())
            .filter(|f| !f.is_empty()),
    );
    let n = play_random_games(&fens, Variant::Chess960, 2000, 0x9600_0960_1234_5678);
    assert!(n > 60_000, "only {n} positions");
}
