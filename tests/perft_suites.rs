//! Every position of the perft suites, to the deepest depth with at most ~5M nodes.

use fianchetto::chess::perft::{perft, perft_check_hash};
use fianchetto::chess::{Board, FenError};
use fianchetto::tools::perft::parse_suite;

const LIMIT: u64 = 5_000_000;

fn run_suite(text: &str, expect_skips: &[&str]) -> (usize, u64) {
    let entries = parse_suite(text).expect("suite parses");
    let (mut checked, mut nodes) = (0, 0);
    for e in &entries {
        let board = match Board::from_fen(&e.fen) {
            Ok(b) => b,
            Err(err) => {
                let too_much = matches!(err, FenError::TooManyPieces { .. });
                assert!(too_much, "{}: {err}", e.name);
                assert!(
                    expect_skips.contains(&e.name.as_str()),
                    "unexpected skip {}",
                    e.name
                );
                continue;
            }
        };
        let deepest = e
            .counts
            .iter()
            .filter(|(_, n)| *n <= LIMIT)
            .max_by_key(|(d, _)| *d)
            .copied();
        let Some((depth, expected)) = deepest else {
            continue;
        };
        assert_eq!(perft(&board, depth), expected, "{} depth {depth}", e.fen);
        checked += 1;
        nodes += expected;
    }
    (checked, nodes)
}

#[test]
fn perftsuite_epd() {
    let (checked, _) = run_suite(include_str!("data/perftsuite.epd"), &[]);
    assert_eq!(checked, 126);
}

#[test]
fn all_960_chess960_positions() {
    let (checked, nodes) = run_suite(include_str!("data/fischer.epd"), &[]);
    assert_eq!(checked, 960);
    assert!(
        nodes > 100_000_000,
        "{nodes} nodes: too shallow to test much"
    );
}

#[test]
fn cpw_positions() {
    let (checked, _) = run_suite(include_str!("data/cpw_positions.epd"), &[]);
    assert_eq!(checked, 7);
}

#[test]
fn tricky_perft_with_its_chess960_lines() {
    // Only the position with 28 white pieces, which no game reaches, is refused.
    let skips = ["max-legals-too-much-material"];
    let (checked, _) = run_suite(include_str!("data/tricky.perft"), &skips);
    assert_eq!(checked, 26 - skips.len());
}

#[test]
fn hash_matches_recomputation_in_perft() {
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ] {
        let b = Board::from_fen(fen).unwrap();
        assert_eq!(perft_check_hash(&b, 3).map(|n| n > 0), Ok(true), "{fen}");
    }
}
