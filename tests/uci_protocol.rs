//! A property of the UCI protocol as GUIs rely on it: whatever the sequence of commands, every
//! `go` (other than `go perft`) is answered by exactly one `bestmove`. Random sessions mixing
//! positions (legal, illegal, finished), `go` with random and malformed parameters, `stop`,
//! `isready`, `ponderhit`, `ucinewgame`, options and garbage are piped into the real binary.

use proptest::prelude::*;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Commands other than `go`.
const OTHERS: [&str; 16] = [
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3",
    "position startpos moves e2e4 zz99 e7e5",
    // Fool's mate, then a move after it: mate stays, `go` answers `bestmove (none)`.
    "position startpos moves f2f3 e7e5 g2g4 d8h4 a2a3",
    // Stalemate.
    "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "position fen 8/8/8 w - -",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "stop",
    "isready",
    "ponderhit",
    "ucinewgame",
    "setoption name MultiPV value 3",
    "setoption name MultiPV value 1",
    "xyzzy",
    "go perft 2",
    "",
];

/// Parameters of `go`, good and bad, in any number and order.
const GO_PARTS: [&str; 20] = [
    "depth 3",
    "depth 1",
    "nodes 2000",
    "movetime 20",
    "wtime 300 btime 300",
    "winc 5 binc 5",
    "movestogo 2",
    "wtime 1",
    "infinite",
    "ponder",
    "mate 2",
    "searchmoves e2e4 d2d4",
    "searchmoves e2e5 g1f3 xx",
    "searchmoves a1a1",
    "depth banana",
    "nodes",
    "fast",
    "wtime -50",
    "depth 99999999999999999999",
    "movetime 0",
];

/// One command of a session: an index into `OTHERS`, or a `go` with these parts.
#[derive(Clone, Debug)]
enum Step {
    Other(usize),
    Go(Vec<usize>),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (0..OTHERS.len()).prop_map(Step::Other),
        prop::collection::vec(0..GO_PARTS.len(), 0..4).prop_map(Step::Go),
    ]
}

/// Runs a session through the binary (ending with `quit`) and returns its output.
fn run(script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fianchetto"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("piped");
    stdin
        .write_all(script.as_bytes())
        .expect("the engine reads");
    drop(stdin);
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        let _ = stdout.read_to_string(&mut out);
        out
    });
    // Generous: every search here is short, but the machine may be busy.
    let start = Instant::now();
    while child.try_wait().expect("waitable").is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("the engine did not finish the session:\n{script}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    reader.join().expect("the reader ends")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_go_gets_exactly_one_bestmove(steps in prop::collection::vec(step(), 1..16)) {
        let mut script = String::new();
        let mut gos = 0;
        for s in &steps {
            match s {
                Step::Other(i) => script.push_str(OTHERS[*i]),
                Step::Go(parts) => {
                    gos += 1;
                    script.push_str("go");
                    for &p in parts {
                        script.push(' ');
                        script.push_str(GO_PARTS[p]);
                    }
                }
            }
            script.push('\n');
        }
        script.push_str("quit\n");
        let out = run(&script);
        let bestmoves = out.lines().filter(|l| l.starts_with("bestmove")).count();
        prop_assert_eq!(bestmoves, gos, "session:\n{}\noutput:\n{}", script, out);
        // Each answer is a move or `(none)`, never garbage.
        for l in out.lines().filter(|l| l.starts_with("bestmove")) {
            let mv = l.split_whitespace().nth(1).unwrap_or("");
            prop_assert!(mv == "(none)" || (4..=5).contains(&mv.len()), "{}", l);
        }
    }
}
