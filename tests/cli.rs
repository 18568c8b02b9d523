//! The command-line tools: perft (self-check, divide, hash check, suites), bench, eval, epd,
//! and one clear error line with exit status 2 for bad input.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fianchetto"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

#[test]
fn perft_self_check_format() {
    let o = run(&["perft"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6);
    assert!(
        lines[2].starts_with("Depth 3: 8902 nodes (expected 8902) [PASS] "),
        "{}",
        lines[2]
    );
    assert!(lines[2].ends_with(" nps)"));
    assert!(lines[5].starts_with("Depth 6: 119060324 nodes (expected 119060324) [PASS]"));
}

#[test]
fn perft_divide_like_stockfish() {
    let o = run(&[
        "perft",
        "2",
        "--divide",
        "--fen",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.lines().any(|l| l == "e1g1: 43"), "{text}");
    assert!(text.ends_with("\nNodes searched: 2039\n\n"), "{text:?}");
    assert_eq!(
        text.lines()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .count(),
        48
    );
}

#[test]
fn perft_check_hash() {
    let o = run(&[
        "perft",
        "3",
        "--check-hash",
        "--fen",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("Depth 3: 97862 nodes"));
}

#[test]
fn perft_suites() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let o = run(&[
        "perft",
        "--suite",
        &format!("{dir}/tests/data/tricky.perft"),
        "--max-nodes",
        "100000",
    ]);
    assert!(o.status.success(), "{}", stdout(&o));
    let text = stdout(&o);
    // Chess960 lines pass; only the position no game can reach is skipped.
    assert!(text.contains("ok   xfen-00"), "{text}");
    assert!(text.contains("skip max-legals-too-much-material"), "{text}");
    assert!(text
        .lines()
        .last()
        .unwrap()
        .starts_with("25 passed, 0 failed, 1 skipped"));

    let tmp = std::env::temp_dir().join(format!("fianchetto-suite-{}.epd", std::process::id()));
    std::fs::write(
        &tmp,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n",
    )
    .unwrap();
    let o = run(&["perft", "--suite", tmp.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("FAIL"));
    std::fs::write(
        &tmp,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 twenty\n",
    )
    .unwrap();
    let o = run(&["perft", "--suite", tmp.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_file(tmp);
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    for args in [
        &["perft", "abc"][..],
        &["perft", "0"],
        &["perft", "99"],
        &["perft", "3", "--fen", "8/8/8/8 w - - 0 1"],
        &["perft", "--suite", "/no/such/file"],
        &["bench", "deep"],
        &["eval", "--fen", "x"],
        &["epd", "/no/such/file"],
        &["play", "--as", "green"],
        &["frobnicate"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
fn eval_and_epd() {
    let o = run(&[
        "eval",
        "--fen",
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("Material") && text.contains("King safety"));
    assert!(text.contains("Total (side to move, White): "));
    let tmp = std::env::temp_dir().join(format!("fianchetto-epd-{}.epd", std::process::id()));
    std::fs::write(&tmp, "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate\";\n6k1/5ppp/8/8/8/8/8/R5K1 w - - am Ra8; id \"avoid\";\n").unwrap();
    let o = run(&["epd", tmp.to_str().unwrap(), "--depth", "3"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.lines().last().unwrap() == "solved 1/2", "{text}");
    let _ = std::fs::remove_file(tmp);
}
