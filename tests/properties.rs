//! Property tests: FEN round-trip, incremental hash, SAN round-trip, `is_legal` vs generation.

use fianchetto::chess::{Board, Move};
use proptest::prelude::*;

const SEEDS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
];

/// Plays the moves chosen by `picks` (each an index modulo the legal move count) from a seed.
fn walk(seed: usize, picks: &[u16]) -> Vec<Board> {
    let mut b = Board::from_fen(SEEDS[seed % SEEDS.len()]).unwrap();
    let mut out = vec![b];
    for &p in picks {
        let moves = b.legal_moves();
        if moves.is_empty() {
            break;
        }
        b = b.make_move(moves[p as usize % moves.len()]);
        out.push(b);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn fen_round_trips(seed in 0usize..4, picks in prop::collection::vec(any::<u16>(), 0..80)) {
        for b in walk(seed, &picks) {
            let fen = b.to_fen();
            let again = Board::from_fen(&fen).unwrap();
            prop_assert_eq!(again.to_fen(), fen);
            prop_assert_eq!(again, b);
            prop_assert_eq!(again.hash(), b.hash());
        }
    }

    #[test]
    fn incremental_hash_equals_recomputed(seed in 0usize..4, picks in prop::collection::vec(any::<u16>(), 0..80)) {
        for b in walk(seed, &picks) {
            prop_assert_eq!(b.hash(), b.compute_hash());
            if !b.in_check() {
                let n = b.make_null_move();
                prop_assert_eq!(n.hash(), n.compute_hash());
            }
        }
    }

    #[test]
    fn san_round_trips(seed in 0usize..4, picks in prop::collection::vec(any::<u16>(), 0..60)) {
        for b in walk(seed, &picks) {
            for &m in b.legal_moves().iter() {
                prop_assert_eq!(b.parse_san(&b.san(m)), Ok(m));
                prop_assert_eq!(b.parse_uci(&m.to_string()), Ok(m));
            }
        }
    }

    #[test]
    fn is_legal_agrees_with_generation(seed in 0usize..4, picks in prop::collection::vec(any::<u16>(), 0..60), raw in prop::collection::vec(any::<u16>(), 50)) {
        for b in walk(seed, &picks) {
            let legal = b.legal_moves();
            for &bits in &raw {
                let m = Move::from_bits(bits);
                prop_assert_eq!(b.is_legal(m), legal.contains(m));
            }
            for &m in legal.iter() {
                prop_assert!(b.is_legal(m));
            }
        }
    }
}

/// Every one of the 65,536 move encodings, on every position of the perft suite and a few plies
/// beyond each: `is_legal` (decided directly for plain moves, by searching the generated move
/// sets otherwise) must agree with the list.
#[test]
fn is_legal_is_exact_on_every_encoding() {
    let suite = include_str!("data/perftsuite.epd");
    let mut positions = 0;
    for line in suite.lines().filter(|l| !l.trim().is_empty()) {
        let fen = line.split(';').next().unwrap_or("").trim();
        let mut b = Board::from_fen(fen).unwrap();
        for ply in 0..6 {
            let legal = b.legal_moves();
            for bits in 0..=u16::MAX {
                let m = Move::from_bits(bits);
                assert_eq!(
                    b.is_legal(m),
                    legal.contains(m),
                    "{m} ({bits}) in {}",
                    b.to_fen()
                );
            }
            positions += 1;
            if legal.is_empty() {
                break;
            }
            b = b.make_move(legal[(ply * 7 + 3) % legal.len()]);
        }
    }
    assert!(positions > 600);
}
