//! The command-line tools: perft (self-check, divide, hash check, suites), bench, eval, epd,
//! and one clear error line with exit status 2 for bad input.

use crate::common::cli::{run, run_with_input, stdout};

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

/// A Polyglot book of a few entries, written the way the format says (big-endian, sorted).
fn write_test_book(path: &std::path::Path) {
    use fianchetto::chess::{polyglot, Board};
    let start = Board::startpos();
    let after_e4 = start.make_move(start.parse_uci("e2e4").unwrap());
    let entry = |board: &Board, from: u16, to: u16, weight: u16| {
        let mut e = polyglot::key(board).to_be_bytes().to_vec();
        e.extend((to | from << 6).to_be_bytes());
        e.extend(weight.to_be_bytes());
        e.extend([0u8; 4]);
        e
    };
    // Squares as the format numbers them: 8·row + file.
    let (e2, e4, d2, d4, c7, c5) = (12, 28, 11, 27, 50, 34);
    let mut entries = [
        entry(&start, e2, e4, 20),
        entry(&start, d2, d4, 5),
        entry(&after_e4, c7, c5, 9),
    ];
    entries.sort();
    std::fs::write(path, entries.concat()).unwrap();
}

#[test]
fn book_lists_moves_and_refuses_a_file_that_is_not_a_book() {
    let tmp = std::env::temp_dir().join(format!("fianchetto-book-{}.bin", std::process::id()));
    write_test_book(&tmp);
    let o = run(&["book", tmp.to_str().unwrap()]);
    assert!(o.status.success());
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("e4 ") && lines[0].contains("weight    20"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("d4 ") && lines[1].contains("20.0 %"),
        "{text}"
    );
    assert_eq!(lines[2], "2 book moves; key 463b96181691fc9c");
    let o = run(&[
        "book",
        tmp.to_str().unwrap(),
        "--fen",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    ]);
    assert!(stdout(&o).starts_with("c5 "), "{}", stdout(&o));
    let o = run(&[
        "book",
        tmp.to_str().unwrap(),
        "--fen",
        "8/8/8/8/8/8/8/K6k w - - 0 1",
    ]);
    assert!(stdout(&o).starts_with("0 book moves"), "{}", stdout(&o));
    let _ = std::fs::remove_file(&tmp);
    let o = run(&[
        "book",
        &format!("{}/Cargo.toml", env!("CARGO_MANIFEST_DIR")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not a Polyglot book"));
}

#[test]
fn special_files_are_refused_before_reading() {
    // /dev/zero never ends: reading it ran out of memory before.
    for args in [
        &["analyze", "/dev/zero"][..],
        &["epd", "/dev/zero"],
        &["perft", "--suite", "/dev/zero"],
        &["datagen", "--stats", "/dev/zero"],
        &["analyze", "/"],
    ] {
        let o = run(args);
        assert!(!o.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
    }
    let o = run_with_input(
        &["uci"],
        b"setoption name EvalFile value /dev/zero\nsetoption name BookFile value /dev/zero\nisready\nquit\n",
    );
    let out = stdout(&o);
    assert!(
        out.contains("EvalFile /dev/zero not loaded: /dev/zero is a character device"),
        "{out}"
    );
    assert!(
        out.contains("BookFile not loaded: /dev/zero is a character device"),
        "{out}"
    );
    assert!(out.contains("readyok"));
}

#[test]
fn syzygy_answers_every_line_and_fails_on_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    let o = run(&["syzygy", "--path", path, "--fen", "garbage"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).starts_with("garbage | error: "),
        "{}",
        stdout(&o)
    );
    // A line that is not UTF-8 is answered in place (it stopped the prober silently before),
    // and the lines after it are still probed.
    let o = run_with_input(
        &["syzygy", "--path", path],
        b"8/8/8/8/8/8/8/K1k5 w - - 0 1\n\xff\xfe\n8/8/8/8/8/8/8/K1k5 b - - 0 1\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[1].starts_with("line 2 | error: not UTF-8"), "{out}");
    assert!(lines[2].starts_with("8/8/8/8/8/8/8/K1k5 b"), "{out}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("1 of 3 lines were not positions"), "{err}");
    // Good input only: success.
    let o = run_with_input(
        &["syzygy", "--path", path],
        b"8/8/8/8/8/8/8/K1k5 w - - 0 1\n",
    );
    assert!(o.status.success());
}

#[test]
fn analyze_recognises_a_binary_file_and_counts_what_it_cannot_read() {
    let exe = env!("CARGO_BIN_EXE_fianchetto");
    let o = run(&["analyze", exe]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("is not a PGN file: a NUL byte at offset"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // 200 unreadable games and one good one: five errors named, the rest counted, the good
    // game analysed, and the exit status says not everything was read.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.pgn");
    let mut text = "1. e4 e5 *\n\n".to_string();
    for i in 0..200 {
        text.push_str(&format!("[Event \"bad {i}\"]\n\n1. e5 *\n\n"));
    }
    std::fs::write(&file, text).unwrap();
    let o = run(&["analyze", file.to_str().unwrap(), "--depth", "2"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    let named = err.lines().filter(|l| l.contains(": game ")).count();
    assert_eq!(named, 5, "{err}");
    assert!(
        err.contains(
            "195 more games could not be read (200 of 201 in all; --json lists every one)"
        ),
        "{err}"
    );
    assert!(stdout(&o).contains("1. e4 "), "{}", stdout(&o));
}

/// The `bench` node count is the search's signature: docs/measurements.md states it, and any
/// change to what the search does (pruning, ordering, evaluation) moves it. A change must update
/// docs/measurements.md on purpose, never slip through.
#[test]
fn bench_matches_the_node_count_readme_states() {
    let readme = include_str!("../docs/measurements.md");
    let row = readme
        .lines()
        .find(|l| l.starts_with("| `bench`"))
        .expect("docs/measurements.md has the bench row");
    let stated: u64 = row
        .split('|')
        .nth(2)
        .and_then(|cell| cell.trim().strip_suffix(" nodes"))
        .map(|n| n.replace(',', ""))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {row:?}"));
    let o = run(&["bench"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let last = out.lines().last().unwrap_or_default();
    let nodes: u64 = last
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no total in {last:?}"));
    assert_eq!(
        nodes, stated,
        "bench says {nodes} nodes, docs/measurements.md {stated}"
    );
}

/// OpenBench's data-generation call: one argument holds the request, then `quit`; N lines of
/// `info string genfens FEN`, each a legal position with moves, the same for the same seed.
/// A bad request or a missing book is one error line and a failing exit, not a panic.
#[test]
fn genfens_answers_openbench() {
    let o = run(&["genfens 5 seed 77 book None", "quit"]);
    assert!(o.status.success(), "{o:?}");
    let lines: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    for line in &lines {
        let fen = line
            .strip_prefix("info string genfens ")
            .unwrap_or_else(|| panic!("{line}"));
        let board = fianchetto::chess::Board::from_fen(fen).unwrap();
        assert!(!board.legal_moves().is_empty(), "{fen}");
    }
    assert_eq!(
        stdout(&run(&["genfens 5 seed 77 book None", "quit"])),
        stdout(&o)
    );
    // From a book of FEN lines: positions two random plies after one of its lines.
    let dir = std::env::temp_dir().join(format!("fianchetto-genfens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.epd");
    std::fs::write(
        &book,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n",
    )
    .unwrap();
    let o = run(&[&format!("genfens 3 seed 1 book {}", book.display()), "quit"]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(stdout(&o).lines().count(), 3, "{o:?}");
    for line in stdout(&o).lines() {
        let fen = line.strip_prefix("info string genfens ").unwrap();
        let board = fianchetto::chess::Board::from_fen(fen).unwrap();
        assert_eq!(board.fullmove_number(), 4, "two plies after move 3: {fen}");
        assert_eq!(
            board.side_to_move(),
            fianchetto::chess::Color::White,
            "{fen}"
        );
    }
    for bad in [
        vec!["genfens ten seed 1 book None", "quit"],
        vec!["genfens 2 seed 1 book /no/such/book.epd", "quit"],
        vec!["genfens 1 seed 1 book None", "go"],
    ] {
        let o = run(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {o:?}");
        assert!(o.stdout.is_empty(), "{bad:?}: nothing but the error: {o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.starts_with("error: ") && err.lines().count() == 1,
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
