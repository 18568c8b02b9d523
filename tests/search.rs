//! Whole-search behaviour: mates with exact scores, draws scored 0, limits, no-move positions,
//! and evaluation symmetry on every position of the test suites.

use fianchetto::chess::{parse_epd, Board, Game};
use fianchetto::eval::evaluate;
use fianchetto::search::{Clock, Limits, Score, Searcher};
use std::time::{Duration, Instant};

fn search(fen: &str, limits: Limits) -> fianchetto::search::SearchResult {
    let game = Game::new(Board::from_fen(fen).unwrap());
    Searcher::new(16).search(&game, &limits, &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        multipv: 1,
        ..Limits::default()
    }
}

/// How long a test waits for something that must happen (a search that must end): long
/// enough that a loaded 2-core machine never trips it, far shorter than a search that would
/// not end.
const LIVENESS: Duration = Duration::from_secs(30);

#[test]
fn mate_in_one_two_three_with_exact_scores() {
    // The moves and distances are the oracle's, not ours: python-chess finds Ra8 the only mate
    // in one; Stockfish 15.1 (depth 20, MultiPV) finds Qc4+ the only mate in two (next best
    // Qxd6, 0.00) and a mate in three in the third position (Rxb6+, next best +2.04).
    let r = search("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", depth(6));
    assert_eq!(r.score, Score::mate_in(1));
    assert_eq!(r.best.unwrap().to_string(), "a1a8");
    let r = search(
        "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
        depth(8),
    );
    assert_eq!(r.score, Score::mate_in(3));
    assert_eq!(r.score.mate_moves(), Some(2));
    assert_eq!(r.best.unwrap().to_string(), "c6c4");
    let r = search(
        "k4r2/1R4pb/1pQp1n1p/3P4/5p1P/3P2P1/r1q1R2K/8 w - - 0 1",
        depth(10),
    );
    assert_eq!(r.score.mate_moves(), Some(3));
}

#[test]
fn being_mated_is_negative_mate() {
    // Black to move is mated next move whatever it does.
    let r = search("7k/8/5QK1/8/8/8/8/r7 b - - 0 1", depth(6));
    assert_eq!(r.score.mate_moves(), Some(-1));
}

#[test]
fn draws_score_zero() {
    // Perpetual check by the side a queen and a rook down. Qh5+ is the only drawing move by
    // Stockfish 15.1 (depth 24, MultiPV 8: Qh5+ 0.00, next Qd8+ -15.67, the rest worse).
    let r = search("7k/q5p1/8/8/8/7K/1r6/3Q4 w - - 0 1", depth(12));
    assert_eq!(r.score, Score::DRAW);
    assert_eq!(r.best.unwrap().to_string(), "d1h5");
    // Stalemate traps: the losing side forces stalemate.
    assert_eq!(
        search("k7/p7/8/8/8/8/5q2/1Q5K w - - 0 1", depth(8)).score,
        Score::DRAW
    );
    assert_eq!(
        search("7k/5Q2/5K2/8/8/8/8/6r1 b - - 0 1", depth(10)).score,
        Score::DRAW
    );
    // Fifty-move rule: every move reaches the 100th half-move and none mates.
    assert_eq!(
        search("8/8/8/4k3/8/8/8/R3K3 w - - 99 80", depth(8)).score,
        Score::DRAW
    );
    // Insufficient material.
    assert_eq!(
        search("8/8/8/4k3/8/8/8/3NK3 w - - 0 1", depth(8)).score,
        Score::DRAW
    );
}

#[test]
fn repetition_against_game_history() {
    // White, a queen down, has two moves, Kh1 and Kf1. The position after Kh1 has occurred
    // twice already: a third time is a draw by rule (python-chess: only Kh1 makes
    // `is_repetition(3)` true), which White takes; Kf1 loses.
    let mut game = Game::new(Board::from_fen("k7/8/8/8/8/8/q7/7K w - - 0 1").unwrap());
    let shuffle = ["Kg1", "Qb2", "Kh1", "Qa2"];
    for m in shuffle.iter().chain(&shuffle).chain(&shuffle[..2]) {
        game.push_text(m).unwrap();
    }
    let r = Searcher::new(16).search(&game, &depth(6), &mut |_| {});
    assert_eq!(r.best.unwrap().to_string(), "g1h1");
    assert_eq!(r.score, Score::DRAW);
    // Once before is not enough: Black, a queen up, need not repeat again (Stockfish counts the
    // same way), so the search sees White lost, not a draw.
    let mut game = Game::new(Board::from_fen("k7/8/8/8/8/8/q7/7K w - - 0 1").unwrap());
    for m in shuffle.iter().chain(&shuffle[..2]) {
        game.push_text(m).unwrap();
    }
    let r = Searcher::new(16).search(&game, &depth(6), &mut |_| {});
    assert!(r.score < Score(-500), "{:?}", r.score);
}

#[test]
fn mate_takes_precedence_over_fifty_moves() {
    let r = search("7k/8/6K1/8/8/8/8/R7 w - - 99 80", depth(4));
    assert_eq!(r.score, Score::mate_in(1));
}

#[test]
fn no_legal_moves() {
    let mate = search(
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        depth(5),
    );
    assert!(mate.best.is_none() && mate.checkmated);
    let stale = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth(5));
    assert!(stale.best.is_none() && !stale.checkmated);
}

#[test]
fn absurd_limits_are_clamped() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    assert!(search(fen, depth(0)).best.is_some());
    let nodes0 = Limits {
        nodes: Some(0),
        multipv: 1,
        ..Limits::default()
    };
    assert!(search(fen, nodes0).best.is_some());
    let negative = Limits {
        clock: Some(Clock {
            time_ms: -500,
            inc_ms: -10,
            moves_to_go: Some(0),
        }),
        multipv: 1,
        ..Limits::default()
    };
    // Liveness, not speed: unclamped, these clocks meant a budget of years (the budgets
    // themselves are checked without a wall clock in search::time's tests).
    let t = Instant::now();
    assert!(search(fen, negative).best.is_some());
    assert!(t.elapsed() < LIVENESS);
    let huge_movetime = Limits {
        movetime: Some(200),
        clock: Some(Clock {
            time_ms: 100,
            inc_ms: 0,
            moves_to_go: None,
        }),
        multipv: 1,
        ..Limits::default()
    };
    let t = Instant::now();
    assert!(search(fen, huge_movetime).best.is_some());
    assert!(t.elapsed() < LIVENESS);
    // A very deep request on a trivial position still ends (depth is capped below MAX_PLY).
    let deep = Limits {
        depth: Some(10_000),
        nodes: Some(200_000),
        multipv: 1,
        ..Limits::default()
    };
    assert!(search("8/8/8/4k3/8/8/8/3NK3 w - - 0 1", deep)
        .best
        .is_some());
}

#[test]
fn stop_flag_ends_an_infinite_search() {
    let mut s = Searcher::new(16);
    let control = s.control();
    let game = Game::default();
    let handle = std::thread::spawn(move || {
        let limits = Limits {
            infinite: true,
            multipv: 1,
            ..Limits::default()
        };
        s.search(&game, &limits, &mut |_| {})
    });
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    control.stop();
    let r = handle.join().unwrap();
    // Liveness: an infinite search never ends by itself, so ending at all proves the stop.
    // How fast it ends is measured by scripts/uci_latency.py, not asserted here.
    assert!(t.elapsed() < LIVENESS);
    assert!(r.best.is_some());
}

#[test]
fn pv_is_legal_and_multipv_differs() {
    let game = Game::new(
        Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap(),
    );
    let mut lines = Vec::new();
    let limits = Limits {
        depth: Some(7),
        multipv: 3,
        ..Limits::default()
    };
    let r = Searcher::new(16).search(&game, &limits, &mut |rep| {
        if let fianchetto::search::Report::Iteration(i) = rep {
            lines.push(i.clone());
        }
    });
    let last: Vec<_> = lines.iter().filter(|i| i.depth == 7).collect();
    assert_eq!(last.len(), 3);
    let firsts: Vec<_> = last.iter().map(|i| i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert!(last[0].score >= last[1].score && last[1].score >= last[2].score);
    for info in &lines {
        let mut b = *game.board();
        for &m in &info.pv {
            assert!(b.is_legal(m), "illegal PV move {m} in {:?}", info.pv);
            b = b.make_move(m);
        }
    }
    assert_eq!(r.best, Some(last[0].pv[0]));
}

#[test]
fn a_tiny_node_limit_still_gives_every_line_asked_for() {
    // `go nodes 30` with MultiPV 3 stopped during depth 1 after its first line and returned
    // one line (2026-12-06): depth 1 now completes every line before a limit may stop it.
    // Each line's score is its move's, not the draw score a stopped search returns: White,
    // a queen up, is far ahead in every line.
    for (fen, nodes) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            1,
        ),
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            30,
        ),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 1),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 30),
    ] {
        let r = search(
            fen,
            Limits {
                nodes: Some(nodes),
                multipv: 3,
                ..Limits::default()
            },
        );
        assert_eq!(r.lines.len(), 3, "{fen} at {nodes} nodes");
        assert_eq!(r.best, r.lines[0].1.first().copied());
        let firsts: Vec<_> = r.lines.iter().map(|(_, pv)| pv[0]).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        if fen.starts_with("4k3") {
            assert!(r.lines.iter().all(|(s, _)| s.0 > 300), "{:?}", r.lines);
        }
    }
}

fn symmetric_on(text: &str) -> usize {
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fen = line.split(';').next().unwrap().trim();
        let board = match Board::from_fen(fen) {
            Ok(b) => b,
            Err(_) => match parse_epd(line) {
                Ok(e) => e.board,
                Err(_) => continue, // Chess960 or unreachable-material lines
            },
        };
        assert_eq!(evaluate(&board), evaluate(&board.mirrored()), "{fen}");
        n += 1;
    }
    n
}

#[test]
fn evaluation_is_colour_symmetric() {
    let mut n = 0;
    n += symmetric_on(include_str!("data/perftsuite.epd"));
    n += symmetric_on(include_str!("data/cpw_positions.epd"));
    n += symmetric_on(include_str!("data/wacnew.epd"));
    n += symmetric_on(include_str!("data/bk.epd"));
    n += symmetric_on(include_str!("data/openings-8mvs.epd"));
    n += symmetric_on(include_str!("data/openings-2moves.epd"));
    let tricky: String = include_str!("data/tricky.perft")
        .lines()
        .filter_map(|l| l.strip_prefix("epd "))
        .map(|l| format!("{l}\n"))
        .collect();
    n += symmetric_on(&tricky);
    assert!(n > 1400, "{n}");
}

#[test]
fn a_forced_move_saves_clock_time_but_not_a_fixed_move_time() {
    // Black's only legal move is Kb8.
    let fen = "k7/2R5/8/8/8/8/R7/7K b - - 0 1";
    assert_eq!(Board::from_fen(fen).unwrap().legal_moves().len(), 1);
    let on_clock = Limits {
        clock: Some(Clock {
            time_ms: 60_000,
            inc_ms: 0,
            moves_to_go: None,
        }),
        multipv: 1,
        ..Limits::default()
    };
    let r = search(fen, on_clock);
    assert_eq!(r.best.map(|m| m.to_string()), Some("a8b8".to_string()));
    let fixed = Limits {
        movetime: Some(150),
        multipv: 1,
        ..Limits::default()
    };
    let f = search(fen, fixed);
    // Compared with each other, not with a depth copied from the code: a minute's clock would
    // allow seconds here, so without the short look the clock search goes deeper than the
    // fixed 150 ms; with it, it stops first.
    assert!(
        r.depth < f.depth && r.nodes < f.nodes,
        "a forced move on the clock is played after a short look ({} plies, {} nodes), a fixed \
         move time is used whole ({} plies, {} nodes)",
        r.depth,
        r.nodes,
        f.depth,
        f.nodes
    );
}

#[test]
fn deep_searches_keep_legal_pvs() {
    // Deep enough for singular extensions and multi-cut (nodes of depth 8 and more), on quiet,
    // tactical and endgame positions: every reported PV must be a legal line from the root, and
    // the move played must head the last one.
    let positions = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PPPBBPPP/R3K2R w KQkq - 0 1",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    for fen in positions {
        let game = Game::new(Board::from_fen(fen).unwrap());
        let mut pvs = Vec::new();
        let limits = Limits {
            depth: Some(12),
            multipv: 1,
            ..Limits::default()
        };
        let r = Searcher::new(16).search(&game, &limits, &mut |rep| {
            if let fianchetto::search::Report::Iteration(i) = rep {
                pvs.push(i.pv.clone());
            }
        });
        assert_eq!(r.depth, 12, "{fen}");
        for pv in &pvs {
            let mut b = *game.board();
            for &m in pv {
                assert!(b.is_legal(m), "illegal PV move {m} in {pv:?} from {fen}");
                b = b.make_move(m);
            }
        }
        assert_eq!(
            r.best,
            pvs.last().and_then(|pv| pv.first().copied()),
            "{fen}"
        );
    }
    // WAC.003: the one winning move, found well inside depth 12.
    let wac = "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1";
    let r = search(wac, depth(12));
    assert_eq!(r.best.map(|m| m.to_string()), Some("e3g3".to_string()));
}

/// A search cut off by a node limit mid-iteration keeps the move that beat the others so far at
/// that depth, ends with a best move that is the first move of the last line it reported, and
/// every reported line is legal (a GUI shows that line).
#[test]
fn an_interrupted_iteration_reports_the_move_it_plays() {
    let fens = [
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - 0 1",
        "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
        "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 1",
    ];
    let mut from_unfinished = 0;
    for fen in fens {
        let game = Game::new(Board::from_fen(fen).unwrap());
        for d in 5..=9 {
            // Searches are deterministic: one node short of finishing depth `d`, the same search
            // is deep in that iteration, its first root move long done.
            let full = Searcher::new(16).search(&game, &depth(d), &mut |_| {});
            let limits = Limits {
                nodes: Some(full.nodes - 1),
                multipv: 1,
                ..Limits::default()
            };
            let mut last = None;
            let r = Searcher::new(16).search(&game, &limits, &mut |rep| {
                if let fianchetto::search::Report::Iteration(i) = rep {
                    last = Some(i.clone());
                }
            });
            let last = last.expect("a search reports at least one iteration");
            assert_eq!(r.best, last.pv.first().copied(), "{fen} at depth {d}");
            assert_eq!(r.pv, last.pv);
            let mut b = *game.board();
            for &m in &last.pv {
                assert!(b.is_legal(m), "illegal PV move {m} in {:?}", last.pv);
                b = b.make_move(m);
            }
            if r.depth == d {
                from_unfinished += 1;
            }
        }
    }
    // Not every cut-off iteration has a root move that raised alpha yet; the test is only
    // worth its name if some did (the case it is about), whatever their number.
    assert!(
        from_unfinished >= 1,
        "no cut-off iteration had a move to play"
    );
}

/// A search on a clock ends before that clock runs out (its flag), whatever the mix of time,
/// increment and moves to go. Wall time is the point here, but the bound is the hard one, which
/// a loaded machine cannot break: the search checks the time as it goes. (That a 40-move
/// control is not spent on one move is a property of the budget, checked without a wall clock
/// in search::time's tests.)
#[test]
fn clock_searches_end_within_their_budget() {
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9";
    let game = Game::new(Board::from_fen(fen).unwrap());
    for (time_ms, inc_ms, moves_to_go) in [
        (1_000, 0, None),
        (300, 50, None),
        (2_000, 0, Some(1)),
        (4_000, 0, Some(40)),
        (8_000, 100, Some(40)),
    ] {
        let limits = Limits {
            clock: Some(Clock {
                time_ms,
                inc_ms,
                moves_to_go,
            }),
            multipv: 1,
            ..Limits::default()
        };
        // The searcher (its hash table cleared) is made before the clock starts, as a GUI's
        // engine is.
        let mut searcher = Searcher::new(16);
        let t = Instant::now();
        let r = searcher.search(&game, &limits, &mut |_| {});
        let spent = t.elapsed();
        assert!(r.best.is_some());
        assert!(
            spent < Duration::from_millis(time_ms as u64),
            "wtime {time_ms} winc {inc_ms} movestogo {moves_to_go:?}: {spent:?}"
        );
    }
}
