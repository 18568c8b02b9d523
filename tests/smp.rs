//! Lazy SMP: many short searches with several threads sharing one table, stopped at random
//! moments, must always give one legal move and a legal principal variation.

use fianchetto::chess::{Board, Game};
use fianchetto::search::{Limits, Report, Searcher};
use std::time::Duration;

/// A small deterministic generator, so that a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A position after up to 40 random legal plies (never one without a legal move).
fn random_game(rng: &mut Rng) -> Game {
    let mut game = Game::new(Board::startpos());
    for _ in 0..rng.below(40) {
        let moves = game.board().legal_moves();
        let m = moves.as_slice()[rng.below(moves.len() as u64) as usize];
        let mut next = game.clone();
        if next.push(m).is_err() || next.board().legal_moves().is_empty() {
            break;
        }
        game = next;
    }
    game
}

fn assert_legal_line(board: &Board, line: &[fianchetto::chess::Move]) {
    let mut b = *board;
    for &m in line {
        assert!(
            b.is_legal(m),
            "illegal {m} in {line:?} from {}",
            board.to_fen()
        );
        b.play(m);
    }
}

#[test]
fn threaded_searches_stopped_at_random_give_legal_moves() {
    let mut rng = Rng(7);
    // A small table fills fast, so threads overwrite each other's entries all the time.
    let mut searcher = Searcher::new(1);
    for round in 0..60 {
        searcher.set_threads(1 + rng.below(4) as usize);
        let game = random_game(&mut rng);
        let control = searcher.control();
        control.reset();
        let delay = Duration::from_micros(rng.below(20_000));
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(delay);
            control.stop();
        });
        let limits = Limits {
            infinite: true,
            multipv: 1,
            ..Limits::default()
        };
        let board = *game.board();
        let mut reports = 0;
        let r = searcher.search(&game, &limits, &mut |rep| {
            if let Report::Iteration(info) = rep {
                assert_legal_line(&board, &info.pv);
                reports += 1;
            }
        });
        stopper.join().unwrap();
        let best = r.best.unwrap_or_else(|| panic!("round {round}: no move"));
        assert!(board.is_legal(best), "round {round}: {best} illegal");
        assert_legal_line(&board, &r.pv);
        assert!(
            reports > 0,
            "round {round}: the main thread reported nothing"
        );
        if round % 7 == 0 {
            searcher.clear();
        }
    }
}

#[test]
fn threads_share_the_work_and_count_every_node() {
    let game = Game::new(
        Board::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9")
            .unwrap(),
    );
    let limits = Limits {
        depth: Some(9),
        multipv: 1,
        ..Limits::default()
    };
    let mut one = Searcher::new(16);
    let single = one.search(&game, &limits, &mut |_| {});
    let mut four = Searcher::new(16);
    four.set_threads(4);
    assert_eq!(four.threads(), 4);
    let mut last_nodes = 0;
    let parallel = four.search(&game, &limits, &mut |rep| {
        if let Report::Iteration(info) = rep {
            last_nodes = info.nodes;
        }
    });
    assert!(game.board().is_legal(parallel.best.unwrap()));
    // The result counts the helpers' nodes too, which the reports sampled along the way.
    assert!(parallel.nodes >= last_nodes);
    // Every helper really searched (idle or stillborn helpers would count nothing), and the
    // shares add up to the total. How large a share each gets depends on the machine's
    // scheduler (four threads on two loaded cores), so it is measured in `bench`'s thread
    // figures, not bounded here.
    assert_eq!(parallel.thread_nodes.len(), 4);
    assert_eq!(parallel.thread_nodes.iter().sum::<u64>(), parallel.nodes);
    for (i, &n) in parallel.thread_nodes.iter().enumerate().skip(1) {
        assert!(n > 0, "helper {i} searched nothing");
    }
    assert!(parallel.nodes > 0 && single.nodes > 0);
    // Setting one thread again gives back the single-threaded, deterministic search.
    four.set_threads(1);
    four.clear();
    let again = four.search(&game, &limits, &mut |_| {});
    assert_eq!(again.nodes, single.nodes);
    assert_eq!(again.best, single.best);
}

#[test]
fn a_depth_limit_ends_at_that_depth_whichever_thread_gets_there() {
    // With `go depth N` a helper (one ply ahead, or faster) that completes depth N first ends
    // the search: the result and the last report must then be that helper's complete depth-N
    // line, never a shallower or an unfinished one. With several lines asked for (MultiPV, skill
    // levels) the main thread's lines stand even when a node limit stops it after a helper got
    // there.
    let mut rng = Rng(31);
    let mut searcher = Searcher::new(4);
    let mut helper_lines = 0;
    for round in 0..40 {
        searcher.set_threads(2 + rng.below(2) as usize);
        let game = random_game(&mut rng);
        let board = *game.board();
        let depth = 5 + rng.below(5) as u32;
        if round % 5 == 4 {
            let want = board.legal_moves().len().min(3);
            let limits = Limits {
                depth: Some(depth),
                nodes: Some(200_000),
                multipv: 3,
                ..Limits::default()
            };
            let r = searcher.search(&game, &limits, &mut |_| {});
            assert_eq!(r.thread, 0, "round {round}: a helper's line with MultiPV");
            assert_eq!(r.lines.len(), want, "round {round}: {}", board.to_fen());
            continue;
        }
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        let mut last = None;
        let r = searcher.search(&game, &limits, &mut |rep| {
            if let Report::Iteration(info) = rep {
                last = Some((info.depth, info.score, info.pv.clone(), info.bound));
            }
        });
        let best = r.best.unwrap_or_else(|| panic!("round {round}: no move"));
        assert!(board.is_legal(best), "round {round}: {best} illegal");
        assert_legal_line(&board, &r.pv);
        assert_eq!(r.depth, depth, "round {round}: {}", board.to_fen());
        assert_eq!(r.pv.first(), Some(&best), "round {round}");
        let (d, score, pv, bound) = last.expect("reports");
        assert_eq!(
            (d, score, &pv, bound),
            (depth, r.score, &r.pv, None),
            "round {round}: the last report is not the result"
        );
        assert!(r.thread < searcher.threads(), "round {round}");
        helper_lines += usize::from(r.thread != 0);
    }
    // Each race is a coin toss weighted by the scheduler; in 32 of them a helper wins some.
    assert!(helper_lines > 0, "no helper ever completed the depth first");
}
