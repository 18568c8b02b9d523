//! The real binary driven through pipes, as a GUI drives it.

use crate::common::cli::{bench_nodes, run_with_input};
use crate::common::engine::{Engine, LIVENESS};
use std::io::Write;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn scripted_session() {
    let mut e = Engine::start();
    e.send("uci");
    let (_, _) = e.expect("uciok", LIVENESS);
    assert!(e.seen.iter().any(|l| l.starts_with("id name Fianchetto")));
    assert!(e
        .seen
        .iter()
        .any(|l| l == "option name Hash type spin default 16 min 1 max 65536"));
    assert!(e.seen.iter().any(|l| l.starts_with("option name MultiPV")));
    e.send("setoption name Hash value 32");
    e.send("isready");
    e.expect("readyok", LIVENESS);
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 6");
    let (best, _) = e.expect("bestmove", LIVENESS);
    let mv = best.split_whitespace().nth(1).unwrap().to_string();
    assert!(e
        .seen
        .iter()
        .any(|l| l.starts_with("info depth 6 ") && l.contains(" pv ")));
    assert!(e
        .seen
        .iter()
        .all(|l| !l.starts_with("info depth") || l.contains(" score ") || l.contains("currmove")));
    // The move must be legal for Black there: feed it back.
    e.send(&format!("position startpos moves e2e4 e7e5 g1f3 {mv}"));
    e.send("go movetime 100");
    e.expect("bestmove", LIVENESS);
    e.send("go wtime 1000 btime 1000 winc 10 binc 10");
    e.expect("bestmove", LIVENESS);
    e.quit();
}

#[test]
fn infinite_search_isready_and_stop() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    e.expect("readyok", LIVENESS);
    // No bestmove before stop in infinite mode: readyok is answered while it searches.
    assert!(!e.seen.iter().any(|l| l.starts_with("bestmove")));
    e.send("stop");
    e.expect("bestmove", LIVENESS);
    // Exactly one bestmove: a second would come before the readyok that follows it.
    e.send("isready");
    e.expect("readyok", LIVENESS);
    let bestmoves = e.seen.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, 1, "{:?}", e.seen);
    e.quit();
}

#[test]
fn infinite_search_that_finishes_still_waits_for_stop() {
    let mut e = Engine::start();
    // Only one legal move and a forced line: the search ends fast, bestmove must still wait.
    e.send("position fen 7k/8/5QK1/8/8/8/8/r7 b - - 0 1");
    e.send("go infinite depth 3");
    // The search is done once depth 3 is reported; a bestmove printed at its end would come
    // before the readyok asked for after it.
    e.expect("info depth 3", LIVENESS);
    e.send("isready");
    e.expect("readyok", LIVENESS);
    assert!(
        !e.seen.iter().any(|l| l.starts_with("bestmove")),
        "{:?}",
        e.seen
    );
    e.send("stop");
    e.expect("bestmove", LIVENESS);
    e.quit();
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 2000 btime 2000");
    // Pondering outlives the move's budget (a fraction of the 2 s clock): wait until the
    // engine reports having thought for longer than the whole clock, with no bestmove.
    loop {
        let (line, _) = e.expect("info", LIVENESS);
        assert!(!e.seen.iter().any(|l| l.starts_with("bestmove")));
        let time = line
            .split_whitespace()
            .skip_while(|w| *w != "time")
            .nth(1)
            .and_then(|t| t.parse::<u64>().ok());
        if time.is_some_and(|t| t > 2_000) {
            break;
        }
    }
    assert!(!e.seen.iter().any(|l| l.starts_with("bestmove")));
    e.send("ponderhit");
    e.expect("bestmove", LIVENESS);
    e.quit();
}

#[test]
fn multipv_lines() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 5");
    e.expect("bestmove", LIVENESS);
    for k in 1..=3 {
        assert!(
            e.seen
                .iter()
                .any(|l| l.starts_with("info depth 5 ") && l.contains(&format!(" multipv {k} "))),
            "multipv {k}"
        );
    }
    e.quit();
}

#[test]
fn no_legal_moves() {
    let mut e = Engine::start();
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go depth 5");
    let (best, _) = e.expect("bestmove", LIVENESS);
    assert_eq!(best, "bestmove (none)");
    assert!(e.seen.iter().any(|l| l == "info depth 0 score mate 0"));
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go depth 5");
    e.expect("bestmove (none)", LIVENESS);
    assert!(e.seen.iter().any(|l| l == "info depth 0 score cp 0"));
    e.quit();
}

#[test]
fn go_perft_divide() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 3");
    let (total, _) = e.expect("Nodes searched", LIVENESS);
    assert_eq!(total, "Nodes searched: 8902");
    assert!(e.seen.iter().any(|l| l == "e2e4: 600"));
    e.quit();
}

#[test]
fn helpers_d_eval_bench() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("d");
    e.expect(
        "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        LIVENESS,
    );
    e.expect("Key: ", LIVENESS);
    e.expect("Checkers:", LIVENESS);
    e.send("eval");
    e.expect("Total (side to move", LIVENESS);
    e.send("bench 3");
    let (line, _) = e.expect("", LIVENESS);
    let _ = line;
    let mut found = false;
    for _ in 0..60 {
        let (l, _) = e.expect("", LIVENESS);
        let w: Vec<&str> = l.split_whitespace().collect();
        if w.len() == 4 && w[1] == "nodes" && w[3] == "nps" {
            found = true;
            break;
        }
    }
    assert!(found);
    e.quit();
}

#[test]
fn bad_input_keeps_the_engine_usable() {
    let mut e = Engine::start();
    // Each bad line and whether it deserves a word: blank lines, and `stop` or `ponderhit`
    // with nothing running, are ignored in silence (as Stockfish does); the rest are explained.
    let bad = [
        ("xyzzy", true),
        ("", false),
        ("   \t  ", false),
        ("position fen 8/8/8 w - - 0 1", true),
        ("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5 e1e3", true),
        ("position startpos moves e2e4 zz99", true),
        ("position", true),
        ("setoption name NoSuchOption value 3", true),
        ("setoption name Hash value 999999999", true),
        ("setoption name Hash value -5", true),
        ("setoption name MultiPV value 0", true),
        ("setoption", true),
        ("stop", false),
        ("ponderhit", false),
        ("debug maybe", true),
        ("go perft banana", true),
    ];
    for (b, explained) in bad {
        let before = e.seen.len();
        e.send(b);
        // Everything the line made the engine say comes before the readyok asked after it.
        e.send("isready");
        e.expect("readyok", LIVENESS);
        let said = &e.seen[before..];
        assert_eq!(
            said.iter().any(|l| l.starts_with("info string")),
            explained,
            "{b:?}: {said:?}"
        );
    }
    assert!(e.seen.iter().any(|l| l.contains("unknown command: xyzzy")));
    assert!(e.seen.iter().any(|l| l.contains("illegal move e1e3")
        && l.contains("the moves before it were played, the rest ignored")));
    // The legal prefix of the last position with moves is in force (e2e4 before zz99); the
    // bare `position` after it changed nothing.
    e.send("d");
    e.expect(
        "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        LIVENESS,
    );
    // A go with parameters that cannot be read still searches, says what it ignored, and
    // answers: with no limit left it is infinite, so `stop` ends it.
    e.send("go depth banana");
    e.expect(
        "info string go depth needs a number, not \"banana\"; ignored",
        LIVENESS,
    );
    e.send("stop");
    let (best, _) = e.expect("bestmove", LIVENESS);
    assert_ne!(best, "bestmove (none)");
    e.send("go fast depth 2");
    e.expect(
        "info string unknown go parameter \"fast\"; ignored",
        LIVENESS,
    );
    e.expect("bestmove", LIVENESS);
    // A go during a search: the running one answers first, then the new one.
    e.send("go infinite");
    e.send("position startpos moves d2d4");
    e.send("go depth 1");
    e.expect(
        "info string a new go stops the search (or perft or bench) that was running",
        LIVENESS,
    );
    let (first, _) = e.expect("bestmove", LIVENESS);
    // The first answer is for the old position (Black to move after e2e4).
    let mv = first.split_whitespace().nth(1).unwrap();
    assert!(mv.ends_with('6') || mv.ends_with('5'), "{mv}");
    let (second, _) = e.expect("bestmove", LIVENESS);
    let mv = second.split_whitespace().nth(1).unwrap();
    assert!(mv.ends_with('6') || mv.ends_with('5'), "{mv}");
    // Nothing more: exactly one bestmove per go.
    e.send("isready");
    e.expect("readyok", LIVENESS);
    let bestmoves = e.seen.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, 4, "{:?}", e.seen);
    e.quit();
}

#[test]
fn illegal_searchmoves_are_skipped_and_moves_after_the_end_refused() {
    let mut e = Engine::start();
    // Stockfish answers g1f3 here: the illegal e2e5 and the word xx are skipped.
    e.send("go depth 6 searchmoves e2e5 g1f3 xx");
    e.expect(
        "info string searchmoves e2e5 is not a legal move here; skipped",
        LIVENESS,
    );
    e.expect(
        "info string searchmoves xx is not a legal move here; skipped",
        LIVENESS,
    );
    let (best, _) = e.expect("bestmove", LIVENESS);
    assert!(best.starts_with("bestmove g1f3"), "{best}");
    // Fool's mate, then a move: the game is over, so the move is refused, the mate kept, and
    // the answer is `bestmove (none)`, as Stockfish gives.
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4 a2a3");
    e.expect(
        "info string illegal move a2a3 (move 5 of the list)",
        LIVENESS,
    );
    e.send("go depth 3");
    let (best, _) = e.expect("bestmove", LIVENESS);
    assert_eq!(best, "bestmove (none)");
    e.quit();
}

#[test]
fn long_move_list() {
    // 300 half-moves of knights shuffling (the engine must accept long lists).
    let mut moves = Vec::new();
    for _ in 0..75 {
        moves.extend(["g1f3", "g8f6", "f3g1", "f6g8"]);
    }
    let mut e = Engine::start();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("d");
    e.expect(
        "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 300 151",
        LIVENESS,
    );
    e.quit();
}

#[test]
fn end_of_input_is_quit() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    drop(e.stdin);
    let start = Instant::now();
    loop {
        if let Ok(Some(status)) = e.child.try_wait() {
            assert!(status.success());
            break;
        }
        assert!(start.elapsed() < LIVENESS, "engine did not exit on EOF");
        std::thread::sleep(Duration::from_millis(10));
    }
    // The reader thread may still be passing on the last lines: read until it hangs up.
    let mut out = Vec::new();
    while let Ok(l) = e.lines.recv_timeout(Duration::from_secs(5)) {
        out.push(l);
    }
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
}

#[test]
fn evalfile_and_use_nnue() {
    let dir = std::env::temp_dir().join(format!("fian-uci-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("copy.fnn");
    std::fs::copy("nets/default.fnn", &good).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let truncated = dir.join("truncated.fnn");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let mut e = Engine::start();
    e.send("uci");
    e.expect("option name EvalFile type string", LIVENESS);
    e.expect("uciok", LIVENESS);
    e.send("position fen 4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    e.send("eval");
    let (nnue, _) = e.expect("NNUE evaluation:", LIVENESS);
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    e.expect(
        &format!("info string EvalFile {} loaded", good.display()),
        LIVENESS,
    );
    // A net with output buckets (file version 2) loads too, and evaluates differently.
    e.send("setoption name EvalFile value tests/data/n5b.fnn");
    let (loaded, _) = e.expect("info string EvalFile tests/data/n5b.fnn loaded", LIVENESS);
    assert!(loaded.contains("8 output buckets"), "{loaded}");
    e.send("eval");
    let (bucketed, _) = e.expect("NNUE evaluation:", LIVENESS);
    assert_ne!(bucketed, nnue);
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    e.expect(
        &format!("info string EvalFile {} loaded", good.display()),
        LIVENESS,
    );
    e.send("setoption name EvalFile value /nonexistent/net.fnn");
    let (err, _) = e.expect(
        "info string EvalFile /nonexistent/net.fnn not loaded",
        LIVENESS,
    );
    assert!(err.contains("previous net stays"), "{err}");
    e.send(&format!(
        "setoption name EvalFile value {}",
        truncated.display()
    ));
    let (err, _) = e.expect("info string EvalFile", LIVENESS);
    assert!(err.contains("not loaded") && err.contains("bytes"), "{err}");
    // The net in use is still the good one: same evaluation as before.
    e.send("eval");
    let (again, _) = e.expect("NNUE evaluation:", LIVENESS);
    assert_eq!(again, nnue);
    // Searching with and without the network both work and find a legal move.
    e.send("go depth 6");
    e.expect("bestmove", LIVENESS);
    e.send("setoption name Use NNUE value false");
    e.send("go depth 6");
    e.expect("bestmove", LIVENESS);
    e.send("setoption name Use NNUE value maybe");
    e.expect("info string option Use NNUE needs true or false", LIVENESS);
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Defects found on the build of 2026-12-03: each killed the engine or left it deaf.
#[test]
fn absurd_clocks_and_non_utf8_lines_do_not_end_the_session() {
    let mut e = Engine::start();
    for go in [
        "go wtime 3000000000000000000 btime 1000",
        "go wtime -9223372036854775808 btime -9223372036854775808",
        "go wtime 99999999999999999999999 winc 99999999999999999999 movestogo 4294967296",
        "go movetime 9223372036854775807 nodes 20000",
    ] {
        e.send("position startpos");
        e.send(go);
        // A clock of 34 years is thought on for a long time: stop ends it.
        std::thread::sleep(Duration::from_millis(100));
        e.send("stop");
        e.expect("bestmove", LIVENESS);
        e.send("isready");
        e.expect("readyok", LIVENESS);
    }
    e.stdin.write_all(b"go \xff\xfe wtime\n").unwrap();
    e.stdin.write_all(b"\x80\x81\x82\n").unwrap();
    e.stdin.flush().unwrap();
    let (err, _) = e.expect("info string", LIVENESS);
    assert!(err.contains("unknown") || err.contains("go"), "{err}");
    e.send("isready");
    e.expect("readyok", LIVENESS);
    e.quit();
}

#[test]
fn perft_and_bench_leave_the_input_thread_free() {
    // perft 8 and bench at depth 30 take minutes: `isready` must be answered meanwhile (the
    // latency itself is measured in the note, not asserted here) and `stop` must end them.
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 8");
    std::thread::sleep(Duration::from_millis(200));
    e.send("isready");
    e.expect("readyok", LIVENESS);
    // A go stops the perft (every go is answered, so it cannot be refused) and searches.
    e.send("go depth 3");
    e.expect(
        "info string a new go stops the search (or perft or bench) that was running",
        LIVENESS,
    );
    e.expect("info string perft stopped", LIVENESS);
    e.expect("bestmove", LIVENESS);
    assert!(!e.seen.iter().any(|l| l.starts_with("Nodes searched")));
    e.send("bench 30");
    std::thread::sleep(Duration::from_millis(200));
    e.send("isready");
    e.expect("readyok", LIVENESS);
    e.send("stop");
    // bench's summary (`… nodes … nps`) comes once it has stopped.
    e.expect_line(|l| l.ends_with(" nps") && !l.contains("best"), LIVENESS);
    e.send("isready");
    e.expect("readyok", LIVENESS);
    e.quit();
}

#[test]
fn end_of_input_lets_perft_and_bench_finish_and_stops_a_search() {
    // `echo bench | fianchetto` is how a shell runs bench: the pipe closes at once, and the
    // result must still come. A search is stopped by the end of input, as in Stockfish.
    let run = |input: &str| -> String {
        let out = run_with_input(&["uci"], input.as_bytes());
        assert!(out.status.success(), "{input:?}: {}", out.status);
        String::from_utf8(out.stdout).unwrap()
    };
    let perft = run("position startpos\ngo perft 4\n");
    assert!(
        perft.lines().any(|l| l == "Nodes searched: 197281"),
        "{perft}"
    );
    // bench's summary, its last line, counts the nodes it searched: none if it was stopped.
    assert!(bench_nodes(&run("bench 4\n")) > 0);
    let search = run("position startpos\ngo infinite\n");
    assert_eq!(
        search.lines().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{search}"
    );
}

#[test]
fn a_hash_larger_than_the_machine_is_refused() {
    // What the engine checks a request against: memory the system can give (MemAvailable).
    let free_mib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let l = m
                .lines()
                .find(|l| l.starts_with("MemAvailable:"))?
                .to_string();
            l.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map(|kib| kib / 1024)
        .expect("MemAvailable is readable on the Linux test machines");
    // Where less than the option's maximum (64 GiB) is free, ask for more than that. Where more
    // is free (the 128 GiB device machines), no request can exceed it: there the engine runs
    // under a 4 GiB address-space limit (util-linux's prlimit) and asks for 8 GiB, which the
    // allocation then refuses. Either way the refusal is tested, never skipped.
    let (mut e, hash) = if free_mib + 1024 <= 65_536 {
        (Engine::start(), free_mib + 1024)
    } else {
        let mut command = Command::new("prlimit");
        command
            .arg(format!("--as={}", 4u64 << 30))
            .arg(env!("CARGO_BIN_EXE_fianchetto"))
            .arg("uci");
        (Engine::start_as(command), 8_192)
    };
    e.send(&format!("setoption name Hash value {hash}"));
    let (msg, _) = e.expect("info string", LIVENESS);
    assert!(msg.contains("cannot allocate"), "{msg}");
    e.send("position startpos");
    e.send("go depth 6");
    e.expect("bestmove", LIVENESS);
    e.quit();
}

#[test]
fn threads_one_bestmove_per_go_and_no_resize_during_a_search() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.send("position startpos moves e2e4 c7c5");
    for i in 0..12u64 {
        e.send("go infinite");
        if i == 0 {
            e.send("setoption name Threads value 3");
            e.expect(
                "info string cannot change Threads during a search",
                LIVENESS,
            );
        }
        std::thread::sleep(Duration::from_millis(i % 5 * 7));
        e.send("stop");
        let (line, _) = e.expect("bestmove", LIVENESS);
        assert!(line.len() > "bestmove ".len(), "{line}");
    }
    for _ in 0..6 {
        e.send("go movetime 20");
        e.expect("bestmove", LIVENESS);
    }
    // A late second bestmove to any go would come before this readyok.
    e.send("isready");
    e.expect("readyok", LIVENESS);
    let bestmoves = e.seen.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, 18);
    e.send("setoption name Threads value 5000");
    e.expect(
        "info string Threads 5000 out of range, using 1024",
        LIVENESS,
    );
    // No test machine runs 1024 threads at once: the engine says so and uses what it has.
    let (clamped, _) = e.expect("info string Threads 1024 is more than the ", LIVENESS);
    assert!(
        clamped.contains("this machine runs at once; using "),
        "{clamped}"
    );
    e.send("setoption name Threads value 1");
    e.send("go depth 6");
    e.expect("bestmove", LIVENESS);
    e.quit();
}

#[test]
fn chess960_castling_is_king_takes_rook_with_uci_chess960() {
    // Black's king is boxed in on d8: only the long castling, b1-c1 with the rook a1-d1, mates.
    let fen = "2rkr3/2p1p3/8/8/8/8/PPP5/RK6 w A - 0 1";
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok", LIVENESS);
    assert!(e
        .seen
        .iter()
        .any(|l| l == "option name UCI_Chess960 type check default false"));
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {fen}"));
    e.send("go depth 4");
    let (best, _) = e.expect("bestmove", LIVENESS);
    assert_eq!(best, "bestmove b1a1");
    assert!(e
        .seen
        .iter()
        .any(|l| l.contains("score mate 1") && l.ends_with(" pv b1a1")));
    // The GUI plays it back in the same form; the position after it has the rook on d1.
    e.send(&format!("position fen {fen} moves b1a1"));
    e.send("d");
    let (fen_line, _) = e.expect("Fen:", LIVENESS);
    assert_eq!(fen_line, "Fen: 2rkr3/2p1p3/8/8/8/8/PPP5/2KR4 b - - 1 1");
    // A Shredder-FEN start position with all four rights; the engine answers a legal move.
    e.send("position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    e.send("go depth 5");
    e.expect("bestmove", LIVENESS);
    // Without the option, castling is written as the king's own move, as in standard chess.
    e.send("setoption name UCI_Chess960 value false");
    e.send(&format!("position fen {fen}"));
    e.send("go depth 4");
    let (best, _) = e.expect("bestmove", LIVENESS);
    assert_eq!(best, "bestmove b1c1");
    // An impossible Chess960 castling right is a FEN error, and the engine carries on.
    e.send("position fen 2rkr3/2p1p3/8/8/8/8/PPP5/RK6 w C - 0 1");
    e.expect("info string", LIVENESS);
    e.send("isready");
    e.expect("readyok", LIVENESS);
    e.quit();
}

#[test]
fn own_book_plays_book_moves_and_a_bad_book_file_is_refused() {
    use fianchetto::chess::{polyglot, Board};
    // A one-position book: from the start, only d2d4 (squares numbered 8·row + file).
    let start = Board::startpos();
    let mut entry = polyglot::key(&start).to_be_bytes().to_vec();
    entry.extend((27u16 | 11 << 6).to_be_bytes());
    entry.extend(7u16.to_be_bytes());
    entry.extend([0u8; 4]);
    let path = std::env::temp_dir().join(format!("fianchetto-uci-book-{}.bin", std::process::id()));
    std::fs::write(&path, &entry).unwrap();

    let mut e = Engine::start();
    e.handshake_declaring(&[
        "OwnBook type check",
        "BookFile type string",
        "BookBestMove type check",
    ]);
    e.send(&format!("setoption name BookFile value {}", path.display()));
    e.expect("info string BookFile", LIVENESS);
    // Off by default: the engine searches.
    e.send("position startpos");
    e.send("go depth 2");
    e.expect("info depth 2", LIVENESS);
    e.expect("bestmove", LIVENESS);
    e.send("setoption name OwnBook value true");
    e.send("go wtime 10000 btime 10000");
    let (best, _) = e.expect("bestmove", LIVENESS);
    assert_eq!(best, "bestmove d2d4");
    assert!(e.seen.iter().any(|l| l == "info string book move d4"));
    // Out of book: a search.
    e.send("position startpos moves d2d4");
    e.send("go depth 3");
    e.expect("info depth 3", LIVENESS);
    e.expect("bestmove", LIVENESS);
    // A file that is not a book: refused with a reason, the old book stays.
    e.send(&format!(
        "setoption name BookFile value {}/Cargo.toml",
        env!("CARGO_MANIFEST_DIR")
    ));
    let (refused, _) = e.expect("info string BookFile not loaded", LIVENESS);
    assert!(refused.contains("not a Polyglot book"), "{refused}");
    e.send("position startpos");
    e.send("go depth 5");
    let (best, _) = e.expect("bestmove", LIVENESS);
    assert_eq!(best, "bestmove d2d4");
    e.quit();
    let _ = std::fs::remove_file(&path);
}

#[test]
fn skill_level_weakens_with_legal_moves_from_its_lines() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok", LIVENESS);
    assert!(e
        .seen
        .iter()
        .any(|l| l == "option name Skill Level type spin default 20 min 0 max 20"));
    e.send("setoption name Skill Level value 0");
    e.send("position startpos moves e2e4 e7e5");
    let mut moves = std::collections::HashSet::new();
    for _ in 0..6 {
        e.send("go wtime 10000 btime 10000");
        let (best, _) = e.expect("bestmove", LIVENESS);
        moves.insert(best.split_whitespace().nth(1).unwrap().to_string());
    }
    // A weakened search looks at four lines, and every move it plays is one of them.
    let lines: Vec<&String> = e
        .seen
        .iter()
        .filter(|l| l.contains(" multipv 4 "))
        .collect();
    assert!(!lines.is_empty());
    for m in &moves {
        assert!(
            e.seen.iter().any(|l| l.contains(&format!(" pv {m}"))),
            "{m} was never a searched line"
        );
    }
    e.send("setoption name Skill Level value 99");
    e.expect(
        "info string Skill Level 99 out of range, using 20",
        LIVENESS,
    );
    e.send("go depth 4");
    e.expect("bestmove", LIVENESS);
    assert!(!e
        .seen
        .iter()
        .rev()
        .take(5)
        .any(|l| l.contains(" multipv 2 ")));
    e.quit();
}

#[test]
fn syzygy_options_refuse_bad_paths_and_survive_broken_tables() {
    let mut e = Engine::start();
    e.handshake_declaring(&[
        "SyzygyPath type string default <empty>",
        "SyzygyProbeDepth type spin default 1 min 1 max 100",
        "SyzygyProbeLimit type spin default 7 min 0 max 7",
        "Syzygy50MoveRule type check default true",
    ]);
    e.send("setoption name SyzygyPath value /no/such/folder");
    let (refused, _) = e.expect("info string SyzygyPath not used", LIVENESS);
    assert!(refused.contains("/no/such/folder"), "{refused}");
    e.send("setoption name SyzygyProbeLimit value 99");
    e.expect("info string", LIVENESS);
    // A table of the right name and size but garbage inside: found, then reported once when
    // a search reads it, and the search goes on without it.
    let dir = std::env::temp_dir().join(format!("fianchetto-uci-tb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("KRvK.rtbw"), vec![0x5au8; 16 + 64 * 4]).unwrap();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    let (found, _) = e.expect("info string SyzygyPath", LIVENESS);
    assert!(found.contains("1 tables found"), "{found}");
    e.send("position fen 8/8/8/8/8/2k5/8/KR6 w - - 0 1");
    e.send("go depth 6");
    let table = format!("info string {}", dir.join("KRvK.rtbw").display());
    let (broken, _) = e.expect(&table, LIVENESS);
    assert!(broken.contains("corrupt"), "{broken}");
    let (best, _) = e.expect("bestmove", LIVENESS);
    assert!(best.len() > "bestmove ".len(), "{best}");
    e.send("go depth 6");
    e.expect("bestmove", LIVENESS);
    e.send("isready");
    e.expect("readyok", LIVENESS);
    assert_eq!(
        e.seen.iter().filter(|l| l.starts_with(&table)).count(),
        1,
        "reported once"
    );
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn uci_elo_limits_strength_and_refuses_out_of_range_ratings() {
    let mut e = Engine::start();
    e.handshake_declaring(&[
        "UCI_LimitStrength type check default false",
        "UCI_Elo type spin default 2800 min 1300 max 2800",
    ]);
    e.send("setoption name UCI_Elo value 100");
    let (clamped, _) = e.expect("info string UCI_Elo", LIVENESS);
    assert!(clamped.contains("out of range, using 1300"), "{clamped}");
    e.send("setoption name UCI_Elo value many");
    e.expect("info string option UCI_Elo needs a number", LIVENESS);
    e.send("setoption name UCI_LimitStrength value true");
    e.send("position startpos");
    // At 1300 the search stops at its small node budget even when given all the time, and a
    // stronger rating searches more: a property of the ratings, not a count copied from the
    // code (the budgets themselves are search::skill's, calibrated by scripts/calibrate_skill.sh).
    let nodes_at = |e: &mut Engine, elo: u32| {
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        e.send("position startpos");
        e.send("go wtime 600000 btime 600000");
        let (best, _) = e.expect("bestmove", LIVENESS);
        assert!(best.starts_with("bestmove "), "{best}");
        let last = e
            .seen
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .cloned()
            .unwrap_or_default();
        last.split_whitespace()
            .skip_while(|w| *w != "nodes")
            .nth(1)
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("no node count in {last:?}"))
    };
    let weak = nodes_at(&mut e, 1300);
    let strong = nodes_at(&mut e, 2000);
    assert!(weak < strong, "1300: {weak} nodes, 2000: {strong} nodes");
    // Ten minutes on the clock would allow millions of nodes: the rating's budget held.
    assert!(strong < 1_000_000, "2000: {strong} nodes");
    e.quit();
}

/// `spsa` lists the search constants in OpenBench's SPSA input format; a normal build says first
/// that it cannot set them, and offers none of them as an option.
#[test]
fn spsa_lists_the_search_constants() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok", LIVENESS);
    let tuning = e
        .seen
        .iter()
        .any(|l| l.starts_with("option name rfp_margin "));
    assert_eq!(tuning, cfg!(feature = "tune"));
    e.send("spsa");
    e.send("isready");
    e.expect("readyok", LIVENESS);
    let lines: Vec<&String> = e.seen.iter().filter(|l| l.contains(", int, ")).collect();
    assert!(lines.len() >= 20, "{lines:?}");
    for l in &lines {
        let f: Vec<&str> = l.split(", ").collect();
        assert_eq!(f.len(), 7, "{l}");
        let [default, min, max]: [i64; 3] = [f[2], f[3], f[4]].map(|x| x.parse().unwrap());
        assert!(min <= default && default <= max, "{l}");
        assert!(
            f[5].parse::<f64>().unwrap() >= 0.5 && f[6] == "0.002",
            "{l}"
        );
    }
    assert!(lines.iter().any(|l| l.starts_with("lmr_base, int, 80, ")));
    assert_eq!(
        e.seen.iter().any(|l| l.contains("build with make TUNE=1")),
        !cfg!(feature = "tune")
    );
    if cfg!(feature = "tune") {
        // Out of range is clamped, with a word to say so.
        e.send("setoption name rfp_margin value 9999");
        e.send("isready");
        e.expect("readyok", LIVENESS);
        assert!(e
            .seen
            .iter()
            .any(|l| l == "info string rfp_margin 9999 out of range, using 150"));
    }
    e.quit();
}
