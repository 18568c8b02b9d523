//! `fianchetto analyze` and the PGN reader on awkward files: errors with their places, JSON that
//! parses, graphs of the stated size, Ctrl-C that keeps what was done.

use fianchetto::chess::pgn::{read_games, PgnErrorKind};
use std::path::Path;
use std::process::{Command, Output, Stdio};

const AWKWARD: &str = include_str!("data/awkward.pgn");
/// Engine games with repeated moves: shuffles put in, as players repeat moves to gain time.
const LADDER: &str = include_str!("data/repetitions.pgn");
/// How many of them the order test analyses.
const ORDER_GAMES: usize = 4;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fianchetto"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// A fresh folder for one test's files, removed when the test ends (pass or fail).
fn tmp_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("fianchetto-analyze-")
        .tempdir()
        .expect("the temporary folder is writable")
}

#[test]
fn the_reader_survives_awkward_pgn() {
    let games = read_games(AWKWARD);
    assert_eq!(games.len(), 6, "{games:?}");
    let g1 = games[0].as_ref().unwrap();
    assert_eq!(g1.tag("White"), Some("Alpha"));
    // Main line: 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7; the escape line is skipped.
    assert_eq!(g1.moves.len(), 10);
    assert_eq!(g1.result, "1-0");
    assert_eq!(
        g1.moves[0].comments[0],
        "[%clk 0:03:00] a comment (not a variation) with [brackets]"
    );
    assert_eq!(g1.moves[1].nags, vec![1]);
    assert_eq!(g1.moves[3].nags, vec![5]);
    assert_eq!(g1.moves[8].nags, vec![14]);
    let sicilian = &g1.moves[1].variations[0];
    assert_eq!(sicilian.moves.len(), 3);
    assert_eq!(
        sicilian.moves[1].variations[0].moves[1].variations[0]
            .moves
            .len(),
        2
    );
    assert_eq!(
        g1.main_line().board().to_fen(),
        "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6"
    );

    let g2 = games[1].as_ref().unwrap();
    assert_eq!(g2.start.fullmove_number(), 40);
    assert_eq!(g2.moves.len(), 5);
    assert_eq!(
        g2.main_line().board().to_fen(),
        "8/8/8/4k3/8/4K3/4P3/8 w - - 5 43"
    );

    let g3 = games[2].as_ref().unwrap();
    assert_eq!((g3.moves.len(), g3.result.as_str()), (8, "*"));
    let g4 = games[3].as_ref().unwrap();
    assert_eq!(g4.moves.len(), 13);
    assert_eq!(g4.moves[7].nags, vec![6]);

    let e = games[4].as_ref().unwrap_err();
    assert_eq!((e.game, e.line, e.column), (5, 35, 23));
    match &e.kind {
        PgnErrorKind::IllegalMove {
            number, san, fen, ..
        } => {
            assert_eq!((number.as_str(), san.as_str()), ("3. ", "Qg4"));
            assert_eq!(
                fen,
                "rnbqkbnr/ppp2ppp/3p4/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3"
            );
        }
        k => panic!("{k:?}"),
    }
    assert_eq!(games[5].as_ref().unwrap().moves.len(), 6);
}

#[test]
fn written_pgn_reads_back_the_same() {
    for g in read_games(AWKWARD).into_iter().flatten() {
        let text = g.to_pgn();
        assert!(text.lines().all(|l| l.chars().count() < 80), "{text}");
        let again = read_games(&text).remove(0).unwrap();
        assert_eq!(again, g);
    }
}

#[test]
fn json_output_parses_and_bad_games_are_reported() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/awkward.pgn");
    let o = run(&[
        "analyze",
        path.to_str().unwrap(),
        "--depth",
        "3",
        "--json",
        "--threads",
        "2",
    ]);
    // One game could not be read: status 1, but every good game was analysed.
    assert_eq!(o.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("game 5, line 35, column 23"), "{stderr}");
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let games = doc["games"].as_array().unwrap();
    assert_eq!(games.len(), 5);
    assert_eq!(doc["errors"][0]["game"], 5);
    let last = &games[4];
    assert_eq!(last["game"], 6);
    let moves = last["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    assert_eq!(moves[2]["san"], "Qg4");
    assert_eq!(moves[2]["judgement"], "blunder");
    assert!(moves[2]["comment"]
        .as_str()
        .unwrap()
        .starts_with("Blunder."));
    let (w, b) = (
        last["white"]["accuracy"].as_f64().unwrap(),
        last["black"]["accuracy"].as_f64().unwrap(),
    );
    assert!(b > w, "white {w} black {b}");
    for m in moves {
        assert!(m["eval_before"].is_string() && m["eval_after"].is_string());
        let a = m["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&a));
    }
}

#[test]
fn graphs_are_valid_svg_and_png_of_the_stated_size() {
    let dir = tmp_dir();
    let tmp = |name| dir.path().join(name);
    let pgn = tmp("hang.pgn");
    std::fs::write(&pgn, "1. e4 d6 2. Qg4 Bxg4 3. d4 Nf6 0-1\n").unwrap();
    let svg = tmp("graph.svg");
    let png = tmp("graph.png");
    let annotated = tmp("annotated.pgn");
    for g in [&svg, &png] {
        let o = run(&[
            "analyze",
            pgn.to_str().unwrap(),
            "--nodes",
            "3000",
            "--graph",
            g.to_str().unwrap(),
            "--out",
            annotated.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        // The summary goes to standard output when the PGN goes to a file.
        assert!(String::from_utf8_lossy(&o.stdout).contains("accuracy"));
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.starts_with("<svg width=\"960\" height=\"400\""),
        "{}",
        &text[..80]
    );
    assert!(text.trim_end().ends_with("</svg>"));
    assert_eq!(
        text.matches("<text").count(),
        text.matches("</text>").count()
    );
    let decoder = png::Decoder::new(std::fs::File::open(&png).unwrap());
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut buf).expect("PNG data decodes");
    assert_eq!((frame.width, frame.height), (960, 400));
    // Not a blank picture: many colours.
    let mut colours: Vec<&[u8]> = buf[..frame.buffer_size()].chunks(3).collect();
    colours.sort();
    colours.dedup();
    assert!(colours.len() > 10);
    let annotated = std::fs::read_to_string(&annotated).unwrap();
    assert!(annotated.contains("2. Qg4??"), "{annotated}");
    assert!(annotated.contains("[%eval "), "{annotated}");
}

#[test]
fn bad_files_get_clear_errors() {
    let dir = tmp_dir();
    let tmp = |name| dir.path().join(name);
    let empty = tmp("empty.pgn");
    std::fs::write(&empty, "").unwrap();
    let o = run(&["analyze", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no game found"));

    let binary = tmp("binary.pgn");
    let bytes: Vec<u8> = (0..2000u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    std::fs::write(&binary, bytes).unwrap();
    // Recognised as binary at once: one line, status 2, nothing analysed.
    let o = run(&["analyze", binary.to_str().unwrap(), "--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("is not a PGN file: a NUL byte"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    let o = run(&["analyze", "/nonexistent/x.pgn"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["analyze", empty.to_str().unwrap(), "--graph", "x.jpg"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains(".svg or .png"));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/awkward.pgn");
    let o = run(&["analyze", path.to_str().unwrap(), "--game", "9"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("--game 9: the file has 6 games"));
}

#[test]
fn ctrl_c_writes_what_is_done() {
    let dir = tmp_dir();
    let pgn = dir.path().join("long.pgn");
    std::fs::write(
        &pgn,
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *\n",
    )
    .unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_fianchetto"))
        .args(["analyze", pgn.to_str().unwrap(), "--movetime", "400"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "an interrupted analysis is incomplete"
    );
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("interrupted"), "{err}");
    assert!(err.contains("(incomplete)"), "{err}");
    // Analysed from the end backwards: the last moves carry evaluations, the first do not.
    assert!(out.contains("8. c3"), "{out}");
    assert!(out.contains("[%eval "), "{out}");
    assert!(!out.contains("1. e4 { [%eval"), "{out}");
}

/// A whole game is analysed from its end with one hash table kept (`analyze`'s way); each
/// position's evaluation must not read as a draw (0.00) where a fresh search of the game cut at
/// that move, under the same limit, sees a clear edge. Draw scores that depended on the game's
/// history used to travel through the hash table into other positions' searches.
#[test]
fn evaluations_do_not_depend_on_the_order_of_analysis() {
    use fianchetto::analysis::{analyse_position, analyse_positions, Options};
    use fianchetto::chess::Game;
    use fianchetto::search::{Limits, Searcher};
    use std::sync::atomic::AtomicBool;
    use std::sync::Mutex;
    let limits = Limits {
        depth: Some(10),
        ..Limits::default()
    };
    let opts = Options {
        limits: limits.clone(),
        threads: 1,
        hash_mib: 32,
        net: Some(fianchetto::eval::nnue::default_net()),
        tablebases: None,
    };
    let mut fresh = Searcher::new(32);
    let mut checked = 0;
    for game in read_games(LADDER)
        .into_iter()
        .map(Result::unwrap)
        .take(ORDER_GAMES)
    {
        let whole = analyse_positions(
            &game,
            &opts,
            &AtomicBool::new(false),
            &Mutex::new(Vec::new()),
            &|_| {},
        );
        let line = game.main_line();
        for (ply, info) in whole.iter().enumerate() {
            let mut cut = Game::new(*line.start());
            for &m in &line.moves()[..ply] {
                cut.push_or_pass(m).unwrap();
            }
            fresh.clear();
            let alone = analyse_position(&mut fresh, &cut, &limits).eval.ceiled_cp();
            let kept = info.as_ref().unwrap().eval.ceiled_cp();
            checked += 1;
            assert!(
                !(kept.abs() <= 5 && alone.abs() >= 80),
                "game {}, ply {ply} ({}): {kept} cp in the whole game, {alone} cp alone",
                game.tag("Round").unwrap_or("?"),
                cut.board().to_fen()
            );
        }
    }
    assert!(checked > 300, "{checked} positions");
}

/// Games that are not plain: a null move (`--`, skipped over for judgement), a start from a FEN,
/// a Chess960 game with castling, an unfinished game, and an unreadable one between them, which
/// is reported once with its place while the rest are analysed.
#[test]
fn null_moves_fen_starts_chess960_and_unfinished_games_are_analysed() {
    let dir = tmp_dir();
    let path = dir.path().join("mixed.pgn");
    std::fs::write(
        &path,
        "[White \"Passer\"]\n\n1. e4 e5 2. Nf3 -- 3. Nxe5 d6 4. Nf3 Nf6 *\n\n\
         [FEN \"8/8/8/4k3/8/4K3/4P3/8 w - - 0 40\"]\n[SetUp \"1\"]\n\n\
         40. Kd3 Kd5 41. e4+ Ke5 1/2-1/2\n\n\
         [White \"Broken\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n\
         [FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n[SetUp \"1\"]\n\
         [Variant \"Chess960\"]\n\n1. h4 g5 2. Rh2 f6 3. g4 f5 4. h5 Nc6 5. d3 Nd4 6. c3 Nd6 \
         7. gxf5 Qd8 8. Ne3 Ne8 9. b3 Rf6 10. Qd1 O-O 11. f4 Ne6 *\n\n\
         1. d4 d5 2. c4\n",
    )
    .unwrap();
    let o = run(&["analyze", path.to_str().unwrap(), "--depth", "4", "--json"]);
    assert_eq!(o.status.code(), Some(1), "one game is unreadable");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        stderr.lines().filter(|l| l.contains("Ke3")).count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("game 3, line 12, column 13"), "{stderr}");
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let games = doc["games"].as_array().unwrap();
    assert_eq!(
        games
            .iter()
            .map(|g| g["game"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [1, 2, 4, 5]
    );
    for g in games {
        assert_eq!(g["complete"], true, "{g}");
    }
    // The pass is shown, evaluated around, and neither judged nor counted.
    let pass = &games[0]["moves"][3];
    assert_eq!(
        (pass["san"].as_str(), pass["uci"].as_str()),
        (Some("--"), Some("0000"))
    );
    assert!(pass["judgement"].is_null() && pass["accuracy"].is_null() && pass["cp_loss"].is_null());
    assert!(pass["eval_after"].is_string());
    // White's free move wins a pawn: the evaluation after it favours White.
    let after: f64 = games[0]["moves"][4]["eval_after"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(after > 0.5, "{after}");
    assert_eq!(games[1]["moves"][0]["san"], "Kd3");
    let castles = &games[2]["moves"][19];
    assert_eq!(castles["san"], "O-O");
    assert_eq!(games[3]["result"], "*");
    assert_eq!(games[3]["moves"].as_array().unwrap().len(), 3);
}
