// The properties each fuzz target checks, one function a target. The targets in
// `fuzz_targets/` and the engine's own test `tests/fuzz_seeds.rs` both `include!` this file, so
// that every committed seed (crash inputs among them) is re-checked by `cargo test`.

#[allow(unused_imports)]
use fianchetto::chess::pgn::{read_games, read_games_bytes};
#[allow(unused_imports)]
use fianchetto::chess::{parse_epd, Board, Game, Move};
#[allow(unused_imports)]
use fianchetto::eval::nnue::{fnv1a, Network};
#[allow(unused_imports)]
use fianchetto::uci::command::{parse, Command};

/// FEN and EPD parsing: any bytes give a board or an error, and a board writes a FEN that reads
/// back to the same board.
#[allow(dead_code)]
pub fn fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(b) = Board::from_fen(&text) {
        let fen = b.to_fen();
        let again = Board::from_fen(&fen).expect("a written FEN reads back");
        assert_eq!(again.to_fen(), fen);
        assert_eq!(again.hash(), b.compute_hash());
    }
    let _ = parse_epd(&text);
}

#[allow(dead_code)]
const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2P5/8/8/8/8/2p4k/K7 b - - 0 1",
    "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 4",
];

/// SAN and UCI move parsing on a few positions: any text gives a legal move or an error, and a
/// move found writes SAN that reads back to it.
#[allow(dead_code)]
pub fn san(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else { return };
    // `expect`: the four positions above are valid FENs.
    let board = Board::from_fen(FENS[usize::from(which) % FENS.len()]).expect("valid FEN");
    let text = String::from_utf8_lossy(rest);
    let parsed = [board.parse_san(&text).ok(), board.parse_move(&text).ok()];
    for m in parsed.into_iter().flatten() {
        assert!(board.legal_moves().contains(m));
        assert_eq!(board.parse_san(&board.san(m)), Ok(m));
    }
}

/// UCI command lines: any bytes parse into a command or an error, and the numbers of any `go`
/// give limits and a time budget without overflow.
#[allow(dead_code)]
pub fn uci(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        if let Ok(Command::Go(g)) = parse(line) {
            // Limits from any numbers, for either side to move.
            for fen in [fianchetto::chess::START_FEN, "4k3/8/8/8/8/8/8/4K3 b - - 0 1"] {
                let b = fianchetto::chess::Board::from_fen(fen).expect("valid FEN");
                let limits = g.limits(&b, 1);
                if let Some(c) = limits.clock {
                    let budget = fianchetto::search::TimeBudget::from_clock(c, 10);
                    assert!(budget.soft <= budget.hard);
                }
            }
        }
    }
}

/// PGN reading: any bytes give games or located errors; every game read writes PGN that reads
/// back to the same game.
#[allow(dead_code)]
pub fn pgn(data: &[u8]) {
    let round_trip = |game: fianchetto::chess::pgn::PgnGame| {
        let text = game.to_pgn();
        let mut again = read_games(&text);
        assert_eq!(again.len(), 1, "{text}");
        let again = again.remove(0).expect("written PGN reads back");
        assert_eq!(again, game, "{text}");
    };
    for game in read_games_bytes(data).into_iter().flatten() {
        round_trip(game);
    }
    // The input again inside variations nested up to 2 × its first byte deep (past the reader's
    // bound of 100): never a stack overflow, and whatever is read still round-trips.
    if let Some((&k, rest)) = data.split_first() {
        let depth = 2 * k as usize;
        let text = format!(
            "1. e4 {}{}{} *",
            "(1. d4 ".repeat(depth),
            String::from_utf8_lossy(rest),
            ")".repeat(depth)
        );
        for game in read_games(&text).into_iter().flatten() {
            round_trip(game);
        }
    }
}

/// Net files: any bytes are a net or an error, and a net that loads evaluates without panicking.
/// Each input is tried as it is and with a correct checksum appended, so that the fuzzer gets
/// past the checksum to the header and size checks behind it.
#[allow(dead_code)]
pub fn net(data: &[u8]) {
    let mut sealed = data.to_vec();
    sealed.extend_from_slice(&fnv1a(data).to_le_bytes());
    for bytes in [data, &sealed] {
        if let Ok(net) = Network::from_bytes(bytes) {
            let b = fianchetto::chess::Board::startpos();
            let _ = net.evaluate(&b);
            assert_eq!(Network::from_bytes(&net.to_bytes()).map(|n| n.to_bytes()), Ok(net.to_bytes()));
        }
    }
}

/// Move sequences: two bytes a move, tried with `is_legal` on any 16 bits; legal ones are made.
/// At every step the incremental hash equals a recomputation, the FEN round-trips, and undoing
/// (replaying from the start) gives the same position.
#[allow(dead_code)]
pub fn moves(data: &[u8]) {
    let mut game = Game::default();
    for pair in data.chunks_exact(2) {
        let m = Move::from_bits(u16::from_le_bytes([pair[0], pair[1]]));
        let board = *game.board();
        let legal = board.legal_moves();
        assert_eq!(board.is_legal(m), legal.contains(m), "{m:?} on {}", board.to_fen());
        // An illegal word picks a legal move instead, so that games get long.
        let m = if board.is_legal(m) {
            m
        } else if legal.is_empty() {
            break;
        } else {
            legal.as_slice()[usize::from(pair[0]) % legal.len()]
        };
        game.push(m).expect("a legal move is accepted");
        let after = *game.board();
        assert_eq!(after.hash(), after.compute_hash(), "{}", after.to_fen());
        let fen = after.to_fen();
        assert_eq!(Board::from_fen(&fen).expect("FEN reads back").to_fen(), fen);
        if game.outcome().is_some() {
            break;
        }
    }
    // Undo everything: popping returns to the start position.
    let moves = game.moves().len();
    for _ in 0..moves {
        game.pop();
    }
    assert_eq!(game.board().to_fen(), Board::startpos().to_fen());
}


/// The web API: any method, path (one of the endpoints with fuzzed suffixes, or fuzzed bytes),
/// content type and body through the router, without a network. No request may panic (a
/// handler's panic becomes a 500, which is refused here) and every error is JSON. Each request
/// gets 50 ms; one still running then is dropped, as a client that leaves.
#[allow(dead_code)]
pub fn web(data: &[u8]) {
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use std::time::Duration;
    use tower::ServiceExt;
    static APP: std::sync::OnceLock<(tokio::runtime::Runtime, axum::Router)> =
        std::sync::OnceLock::new();
    const METHODS: [&str; 7] = ["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"];
    const PATHS: [&str; 14] = [
        "/api/position",
        "/api/move",
        "/api/games",
        "/api/games/1",
        "/api/games/1/move",
        "/api/games/1/undo",
        "/api/games/1/bot",
        "/api/games/1/pgn",
        "/api/analysis?fen=",
        "/api/pgn",
        "/api/analyse-pgn",
        "/",
        "/app.js",
        "",
    ];
    const TYPES: [Option<&str>; 3] = [Some("application/json"), None, Some("text/plain")];
    if data.len() < 3 {
        return;
    }
    let (app_rt, app) = APP.get_or_init(|| {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime");
        (rt, fianchetto::web::router(fianchetto::web::AppState::new(1)))
    });
    let method = METHODS[data[0] as usize % METHODS.len()];
    let text = String::from_utf8_lossy(&data[3..]);
    let (suffix, body) = text.split_once('\n').unwrap_or(("", &text));
    let uri = format!("{}{suffix}", PATHS[data[1] as usize % PATHS.len()]);
    let mut req = Request::builder().method(method).uri(uri.as_str());
    if let Some(t) = TYPES[data[2] as usize % TYPES.len()] {
        req = req.header("content-type", t);
    }
    // A URI that HTTP cannot carry never reaches the router.
    let Ok(req) = req.body(Body::from(body.to_string())) else {
        return;
    };
    app_rt.block_on(async {
        let answer = tokio::time::timeout(Duration::from_millis(50), app.clone().oneshot(req));
        let Ok(Ok(res)) = answer.await else {
            return;
        };
        let status = res.status();
        assert_ne!(status.as_u16(), 500, "{method} {uri}: a handler failed");
        let json = res
            .headers()
            .get("content-type")
            .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
        // A HEAD answer has its headers and no body, as HTTP says.
        if (status.is_client_error() || status.is_server_error()) && method != "HEAD" {
            assert!(json, "{method} {uri}: {status} is not JSON");
            let bytes = res.into_body().collect().await.expect("a body").to_bytes();
            let v: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
            assert!(v["error"].is_string(), "{method} {uri}: {v}");
        }
    });
}
