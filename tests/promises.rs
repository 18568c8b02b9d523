//! What README.md promises and no other test checked: UCI options and `go` limits observed
//! through the real binary's pipes, and command-line flags observed in what they print.
//! Each test asserts a property that breaks if the feature does (a limit ignored, an option
//! not applied, a flag not read), never a latency.

use crate::common::cli::{bench_nodes, run, stdout};
use crate::common::engine::{Engine, LIVENESS};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

/// The `N` of `info string searched N nodes to depth D`, which `debug on` adds after a search.
fn searched_nodes(lines: &[String]) -> u64 {
    let line = lines
        .iter()
        .find(|l| l.starts_with("info string searched "))
        .unwrap_or_else(|| panic!("no debug node count in {lines:?}"));
    line.split_whitespace()
        .nth(3)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number in {line:?}"))
}

/// A Polyglot book of one entry: from the start position, only `from`-`to` (squares numbered
/// 8·row + file, as the format numbers them).
fn one_move_book(path: &Path, from: u16, to: u16) {
    use fianchetto::chess::{polyglot, Board};
    let mut entry = polyglot::key(&Board::startpos()).to_be_bytes().to_vec();
    entry.extend((to | from << 6).to_be_bytes());
    entry.extend(7u16.to_be_bytes());
    entry.extend([0u8; 4]);
    std::fs::write(path, entry).unwrap();
}

fn tmp_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("fianchetto-promises-")
        .tempdir()
        .expect("the temporary folder is writable")
}

/// Runs `args`, asserts success, returns standard output.
fn run_ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(
        o.status.success(),
        "{args:?}: {}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    stdout(&o)
}

// ---------------------------------------------------------------------------------------------
// UCI

#[test]
fn debug_on_reports_the_search_and_debug_off_stops_it() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("debug on");
    assert!(e.sync().is_empty(), "debug on is accepted in silence");
    let (_, lines) = e.go("go depth 3");
    assert!(
        lines.iter().any(|l| l.starts_with("info string searched ")),
        "{lines:?}"
    );
    e.send("debug off");
    assert!(e.sync().is_empty(), "debug off is accepted in silence");
    let (_, lines) = e.go("go depth 3");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn clear_hash_empties_the_table() {
    // One thread: a search from empty tables is deterministic. A repeated search finds its
    // results in the table and is cheaper; after Clear Hash it costs what the first one did.
    let mut e = Engine::start();
    e.send("debug on");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    let first = searched_nodes(&e.go("go depth 8").1);
    let warm = searched_nodes(&e.go("go depth 8").1);
    e.send("setoption name Clear Hash");
    assert!(e.sync().is_empty(), "Clear Hash is accepted in silence");
    let cleared = searched_nodes(&e.go("go depth 8").1);
    assert!(warm < first, "fresh {first}, warm {warm}");
    assert_eq!(cleared, first, "after Clear Hash (warm: {warm})");
    e.quit();
}

#[test]
fn move_overhead_is_kept_from_the_clock() {
    // With 5010 ms on the clock, an overhead of 0 leaves the search about 200 ms (a 25th of the
    // clock, search/time.rs); the largest overhead, 5000, leaves 10 ms, so it stops right after
    // its first iterations.
    let mut e = Engine::start();
    e.send("debug on");
    let nodes_with = |e: &mut Engine, overhead: u32| {
        e.send(&format!("setoption name Move Overhead value {overhead}"));
        e.send("ucinewgame");
        e.send("position startpos moves d2d4 g8f6 c2c4 e7e6");
        let (mv, lines) = e.go("go wtime 5010 btime 5010");
        assert!(!mv.is_empty() && mv != "(none)", "{lines:?}");
        assert!(
            !lines.iter().any(|l| l.contains("out of range")),
            "{lines:?}"
        );
        searched_nodes(&lines)
    };
    let small = nodes_with(&mut e, 0);
    let large = nodes_with(&mut e, 5000);
    assert!(
        large * 10 < small,
        "overhead 0: {small} nodes, overhead 5000: {large} nodes"
    );
    // Above the option's maximum: clamped with a word, not ignored.
    e.send("setoption name Move Overhead value 9999");
    let said = e.sync();
    assert!(said.iter().any(|l| l.contains("out of range")), "{said:?}");
    e.quit();
}

#[test]
fn option_names_are_case_insensitive() {
    let mut e = Engine::start();
    e.send("setoption name multipv value 2");
    e.send("setoption name CLEAR HASH");
    e.send("setoption name move overhead value 20");
    let said = e.sync();
    assert!(said.is_empty(), "all three were understood: {said:?}");
    e.send("position startpos");
    let (_, lines) = e.go("go depth 4");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 4 ") && l.contains(" multipv 2 ")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn own_book_is_never_used_under_go_infinite_or_go_ponder() {
    let dir = tmp_dir();
    let book = dir.path().join("a3.bin");
    // From the start only a2a3, a move no search of ours plays.
    one_move_book(&book, 8, 16);
    let mut e = Engine::start();
    e.send(&format!("setoption name BookFile value {}", book.display()));
    e.expect("info string BookFile", LIVENESS);
    e.send("setoption name OwnBook value true");
    e.send("setoption name Ponder value true");
    e.send("position startpos");
    // The book is in use for an ordinary go.
    let (mv, lines) = e.go("go depth 5");
    assert_eq!(mv, "a2a3", "{lines:?}");
    assert!(lines.iter().any(|l| l == "info string book move a3"));
    for go in ["go infinite", "go ponder wtime 60000 btime 60000"] {
        let before = e.seen.len();
        e.send(go);
        // It searches: iterations come, and no bestmove until stop.
        e.expect("info depth 3", LIVENESS);
        let said = e.sync();
        assert!(!said.iter().any(|l| l.starts_with("bestmove")), "{go}");
        e.send("stop");
        e.expect("bestmove", LIVENESS);
        let during = &e.seen[before..];
        assert!(
            !during.iter().any(|l| l.contains("book move")),
            "{go}: {during:?}"
        );
    }
    e.quit();
}

#[test]
fn searchmoves_restricts_the_search_even_to_bad_moves() {
    // 1. e4 e5 2. Qh5 Nc6: Qxh7 and Qxf7+ each give the queen away; Bc4 and others do not.
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 e7e5 d1h5 b8c6");
    let (free, _) = e.go("go depth 6");
    assert!(free != "h5h7" && free != "h5f7", "{free}");
    let (mv, lines) = e.go("go depth 6 searchmoves h5h7 h5f7");
    assert!(mv == "h5h7" || mv == "h5f7", "{mv}");
    // Every reported line starts with an allowed move, and the score admits the loss.
    for l in lines.iter().filter(|l| l.contains(" pv ")) {
        let first = l.split(" pv ").nth(1).unwrap().split_whitespace().next();
        assert!(matches!(first, Some("h5h7" | "h5f7")), "{l}");
    }
    let last = lines
        .iter()
        .rev()
        .find(|l| l.contains(" score cp "))
        .expect("a scored line");
    let cp: i64 = last
        .split(" score cp ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap();
    assert!(cp < -300, "{last}");
    e.quit();
}

#[test]
fn go_mate_finds_a_mate_in_two() {
    // Stockfish 15.1 finds Qc4+ the only mate in two here (tests/search.rs uses it through the
    // library; this is `go mate` through the protocol).
    let mut e = Engine::start();
    e.send("position fen 5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1");
    let (mv, lines) = e.go("go mate 2");
    assert_eq!(mv, "c6c4", "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" score mate 2 ") && l.contains(" pv c6c4")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn go_nodes_stops_at_the_node_count() {
    // With one thread the limit is checked at every node once depth 1 has given a move
    // (search/worker.rs `check_stop`): the search ends at N exactly, give or take the node
    // that noticed it. With more threads the helpers publish their counts every 1024 nodes and
    // look at the stop flag as often, so each may overshoot by up to about 2 × 1024; they also
    // check the node limit at every node, so a main thread held up in depth 1 (which cannot
    // stop anyone yet) does not let them run on.
    let mut e = Engine::start();
    e.send("debug on");
    e.send("position startpos moves e2e4 c7c5 g1f3 d7d6");
    for n in [3_000u64, 20_000] {
        let (_, lines) = e.go(&format!("go nodes {n}"));
        let searched = searched_nodes(&lines);
        assert!(
            (n..=n + 16).contains(&searched),
            "go nodes {n}: searched {searched}"
        );
    }
    e.send("setoption name Threads value 2");
    e.sync();
    let n = 20_000u64;
    let (mv, lines) = e.go(&format!("go nodes {n}"));
    assert!(!mv.is_empty());
    let searched = searched_nodes(&lines);
    assert!(
        searched >= n && searched <= n + 2 * 2048,
        "2 threads, go nodes {n}: searched {searched}"
    );
    e.quit();
}

// ---------------------------------------------------------------------------------------------
// The command line

#[test]
fn perft_threads_count_the_same_nodes() {
    for threads in ["1", "2", "3"] {
        let out = run_ok(&["perft", "4", "--threads", threads]);
        assert!(
            out.lines().any(|l| l.starts_with("Depth 4: 197281 nodes")),
            "--threads {threads}: {out}"
        );
    }
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let out = run_ok(&["perft", "3", "--fen", kiwipete, "--threads", "2"]);
    assert!(out.contains("Depth 3: 97862 nodes"), "{out}");
}

#[test]
fn bench_takes_depth_and_threads() {
    // One thread: deterministic, and a deeper bench searches more.
    let d2 = bench_nodes(&run_ok(&["bench", "2"]));
    let d3 = bench_nodes(&run_ok(&["bench", "3", "1"]));
    assert_eq!(
        d3,
        bench_nodes(&run_ok(&["bench", "3"])),
        "THREADS 1 is the default"
    );
    assert!(d2 < d3, "depth 2: {d2}, depth 3: {d3}");
    // Two threads: still 50 positions at that depth, with a node total.
    let out = run_ok(&["bench", "3", "2"]);
    let positions = out.lines().filter(|l| l.contains(" nodes  best ")).count();
    assert_eq!(positions, 50, "{out}");
    assert!(bench_nodes(&out) > 0);
}

#[test]
fn bench_net_chooses_the_evaluation() {
    let dir = tmp_dir();
    let embedded = bench_nodes(&run_ok(&["bench", "3"]));
    let hce = bench_nodes(&run_ok(&["bench", "3", "--net", "hce"]));
    assert_ne!(hce, embedded, "--net hce searched as the embedded net does");
    // A file holding the embedded net searches exactly as the embedded net.
    let copy = dir.path().join("copy.fnn");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/default.fnn"),
        &copy,
    )
    .unwrap();
    let same = bench_nodes(&run_ok(&["bench", "3", "--net", copy.to_str().unwrap()]));
    assert_eq!(same, embedded, "nets/default.fnn is the embedded net");
    // Another net searches differently.
    let other = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/n5b.fnn");
    let other = bench_nodes(&run_ok(&["bench", "3", "--net", other.to_str().unwrap()]));
    assert_ne!(other, embedded);
    // A file that is not a net is refused.
    let o = run(&["bench", "3", "--net", "/no/such/net.fnn"]);
    assert!(!o.status.success());
}

/// `epd` lines: `ok|MISS id played X bm/am Y depth D score S`.
fn epd_depths(out: &str) -> Vec<u64> {
    out.lines()
        .filter(|l| l.contains(" depth "))
        .map(|l| {
            l.split(" depth ")
                .nth(1)
                .and_then(|s| s.split_whitespace().next())
                .and_then(|d| d.parse().ok())
                .unwrap_or_else(|| panic!("no depth in {l:?}"))
        })
        .collect()
}

#[test]
fn epd_movetime_and_nodes_bound_each_position() {
    let dir = tmp_dir();
    let file = dir.path().join("quiet.epd");
    // Two quiet positions no search finishes: only the limit ends them.
    std::fs::write(
        &file,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"start\";\n\
         r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"ruy\";\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    // --nodes: one thread, deterministic; more nodes reach deeper.
    let few = run_ok(&["epd", f, "--nodes", "300"]);
    assert_eq!(few, run_ok(&["epd", f, "--nodes", "300"]));
    let many = run_ok(&["epd", f, "--nodes", "100000"]);
    for out in [&few, &many] {
        assert!(out.lines().last().unwrap().starts_with("solved "), "{out}");
    }
    let (few_d, many_d) = (epd_depths(&few), epd_depths(&many));
    assert_eq!(few_d.len(), 2);
    assert_eq!(many_d.len(), 2);
    for (a, b) in few_d.iter().zip(&many_d) {
        assert!(a < b, "--nodes 300: {few}\n--nodes 100000: {many}");
    }
    // --movetime: each position is searched for its whole time (a lower bound, which load
    // cannot break), and deeper than with 1 ms.
    let start = Instant::now();
    let long = run_ok(&["epd", f, "--movetime", "400"]);
    assert!(
        start.elapsed() >= Duration::from_millis(2 * 400 - 50),
        "two positions at 400 ms took {:?}",
        start.elapsed()
    );
    let short = run_ok(&["epd", f, "--movetime", "1"]);
    let (long_d, short_d) = (epd_depths(&long), epd_depths(&short));
    assert_eq!(long_d.len(), 2);
    for (s, l) in short_d.iter().zip(&long_d) {
        assert!(s < l, "--movetime 1: {short}\n--movetime 400: {long}");
    }
}

const TWO_GAMES: &str = r#"[Event "One"]
[White "A"]
[Black "B"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 *

[Event "Two"]
[White "C"]
[Black "D"]
[Result "*"]

1. d4 d5 2. c4 e6 3. Nc3 Qg5 4. Bxg5 f6 *
"#;

#[test]
fn analyze_game_side_and_multipv() {
    let dir = tmp_dir();
    let pgn = dir.path().join("two.pgn");
    std::fs::write(&pgn, TWO_GAMES).unwrap();
    let p = pgn.to_str().unwrap();
    let json = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["analyze", p, "--depth", "4", "--threads", "1", "--json"];
        args.extend(extra);
        serde_json::from_str(&run_ok(&args)).expect("valid JSON")
    };

    // --game 2: only the second game; Black's 3... Qg5 hangs the queen.
    let both = json(&["--game", "2"]);
    let games = both["games"].as_array().unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["game"], 2);
    let moves = games[0]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 8);
    assert_eq!(moves[0]["san"], "d4");
    assert_eq!(moves[5]["san"], "Qg5");
    assert_eq!(moves[5]["judgement"], "blunder");
    assert_eq!(games[0]["black"]["blunders"], 1);
    assert!(games[0]["black"]["accuracy"].is_number());
    // Without --multipv, no other lines.
    assert!(moves
        .iter()
        .all(|m| m["other_lines"].as_array().is_none_or(|o| o.is_empty())));

    // --side white: Black's moves are not judged, and Black gets no accuracy.
    let white = json(&["--game", "2", "--side", "white"]);
    let g = &white["games"][0];
    assert!(g["white"]["accuracy"].is_number(), "{g}");
    assert!(g["black"]["accuracy"].is_null(), "{g}");
    assert_eq!(g["black"]["blunders"], 0);
    for m in g["moves"].as_array().unwrap() {
        if m["color"] == "black" {
            assert!(m["judgement"].is_null(), "{m}");
        }
    }
    // The annotated PGN says the same in its tags.
    let pgn_out = run_ok(&[
        "analyze",
        p,
        "--depth",
        "4",
        "--threads",
        "1",
        "--game",
        "2",
        "--side",
        "white",
    ]);
    assert!(pgn_out.contains("[WhiteAccuracy \""), "{pgn_out}");
    assert!(!pgn_out.contains("[BlackAccuracy"), "{pgn_out}");
    assert!(!pgn_out.contains("Qg5??"), "{pgn_out}");
    assert!(!pgn_out.contains("[Event \"One\"]"), "{pgn_out}");
    let full = run_ok(&["analyze", p, "--depth", "4", "--threads", "1"]);
    assert!(full.contains("[Event \"One\"]") && full.contains("[Event \"Two\"]"));
    assert!(
        full.contains("[BlackAccuracy \"") && full.contains("Qg5??"),
        "{full}"
    );

    // --multipv 2: a second line for every position with more than one legal move.
    let two = json(&["--game", "1", "--multipv", "2"]);
    let g = &two["games"][0];
    assert_eq!(g["game"], 1);
    for m in g["moves"].as_array().unwrap() {
        let others = m["other_lines"].as_array().expect("other_lines");
        assert_eq!(others.len(), 1, "{m}");
    }
}

/// `fianchetto play` in line mode, through pipes (not a terminal): sends `input` line by line.
fn play_plain(data: &Path, args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fianchetto"))
        .arg("play")
        .arg("--plain")
        .args(args)
        .env("XDG_DATA_HOME", data)
        .env("HOME", data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    // Written from a thread, so a full pipe cannot block the reading of the output.
    let writer = std::thread::spawn(move || {
        for line in input.lines() {
            let _ = writeln!(stdin, "{line}");
            let _ = stdin.flush();
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = rx
        .recv_timeout(LIVENESS)
        .expect("play --plain ended within the time allowed")
        .expect("output");
    writer.join().unwrap();
    assert!(out.status.success(), "{out:?}");
    stdout(&out)
}

#[test]
fn play_flags_960_book_and_movetime_in_line_mode() {
    let dir = tmp_dir();
    // --960 0: start position 0 of the standard numbering is BBQNNRKR; 518 is chess's own.
    let out = play_plain(
        dir.path(),
        &["--as", "white", "--depth", "1", "--ascii", "--960", "0"],
        "fen\nquit\n",
    );
    assert!(
        out.contains("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"),
        "{out}"
    );
    let out = play_plain(
        dir.path(),
        &["--as", "white", "--depth", "1", "--ascii", "--960", "518"],
        "fen\nquit\n",
    );
    assert!(
        out.contains("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "{out}"
    );
    // --book: the bot, as White, plays the book's only move, a3, which it never plays itself.
    let book = dir.path().join("a3.bin");
    one_move_book(&book, 8, 16);
    let out = play_plain(
        dir.path(),
        &[
            "--as",
            "black",
            "--depth",
            "2",
            "--ascii",
            "--book",
            book.to_str().unwrap(),
        ],
        "pgn\nquit\n",
    );
    assert!(out.contains("1. a3 "), "{out}");
    // --movetime: the bot moves, and the saved game records the strength.
    let out = play_plain(
        dir.path(),
        &["--as", "black", "--movetime", "100", "--ascii"],
        "pgn\nquit\n",
    );
    assert!(
        out.contains("[FianchettoStrength \"movetime 100\"]"),
        "{out}"
    );
    assert!(out.contains("\n1. "), "{out}");
}

// ---------------------------------------------------------------------------------------------
// datagen → train → EvalFile

#[test]
fn datagen_then_train_gives_a_net_the_engine_loads() {
    let dir = tmp_dir();
    let data = dir.path().join("games.bin");
    let net: PathBuf = dir.path().join("tiny.fnn");
    let out = run_ok(&[
        "datagen",
        "--out",
        data.to_str().unwrap(),
        "--games",
        "4",
        "--nodes",
        "200",
        "--seed",
        "3",
    ]);
    let _ = out;
    assert!(std::fs::metadata(&data).unwrap().len() > 0);
    run_ok(&[
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        net.to_str().unwrap(),
        "--hidden",
        "8",
        "--epochs",
        "1",
        "--batch",
        "32",
    ]);
    assert!(std::fs::metadata(&net).unwrap().len() > 0);

    // UCI: the net loads and the engine searches with it.
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("eval");
    let embedded = e.expect("NNUE evaluation:", LIVENESS).0;
    e.send(&format!("setoption name EvalFile value {}", net.display()));
    let loaded = e.expect("info string EvalFile", LIVENESS).0;
    assert!(loaded.contains(" loaded"), "{loaded}");
    assert!(!loaded.contains("not loaded"), "{loaded}");
    e.send("eval");
    let tiny = e.expect("NNUE evaluation:", LIVENESS).0;
    assert_ne!(tiny, embedded, "the new net evaluates differently");
    let (mv, lines) = e.go("go depth 3");
    assert!(!mv.is_empty() && mv != "(none)", "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")));
    e.quit();

    // bench --net with it: runs, and searches differently from the embedded net.
    let with_net = bench_nodes(&run_ok(&["bench", "2", "--net", net.to_str().unwrap()]));
    let embedded = bench_nodes(&run_ok(&["bench", "2"]));
    assert_ne!(with_net, embedded);
}
