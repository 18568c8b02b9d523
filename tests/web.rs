//! The browser app's server, through its router without a network: every endpoint, and bad
//! requests answered with a 4xx and a JSON error while the server carries on.

use crate::common::games::long_game;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use fianchetto::web::MAX_SEARCH_MS;
use fianchetto::web::{router, AppState};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;
use tower::ServiceExt;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

struct App(axum::Router);

impl App {
    fn new() -> App {
        App(router(AppState::new(2)))
    }

    async fn send(&self, req: Request<Body>) -> (StatusCode, String) {
        let res = self.0.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    async fn get(&self, path: &str) -> (StatusCode, String) {
        self.send(Request::get(path).body(Body::empty()).unwrap())
            .await
    }

    async fn post_raw(&self, path: &str, body: &str) -> (StatusCode, String) {
        self.send(
            Request::post(path)
                .header("content-type", "application/json")
                .body(Body::from(body.to_string()))
                .unwrap(),
        )
        .await
    }

    /// Opens a live analysis of the start position; the response holds its engine while the
    /// stream (its body) is open.
    async fn start_analysis(&self, movetime_ms: u64) -> axum::response::Response {
        let uri = format!(
            "/api/analysis?fen={}&movetime={movetime_ms}",
            START.replace(' ', "%20")
        );
        self.0
            .clone()
            .oneshot(Request::get(uri).body(Body::empty()).unwrap())
            .await
            .unwrap()
    }

    async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let (status, text) = self.post_raw(path, &body.to_string()).await;
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }
}

/// A 4xx whose body is `{"error": "..."}` mentioning `needle`.
fn assert_error(status: StatusCode, body: &str, code: u16, needle: &str) {
    assert_eq!(status.as_u16(), code, "{body}");
    let v: Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {body}"));
    let e = v["error"].as_str().unwrap_or_default();
    assert!(e.contains(needle), "{e:?} lacks {needle:?}");
}

#[tokio::test]
async fn the_page_and_its_files_are_served_and_nothing_else() {
    let app = App::new();
    for (path, kind) in [
        ("/", "text/html"),
        ("/index.html", "text/html"),
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        let res = app
            .0
            .clone()
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let ct = res.headers()["content-type"].to_str().unwrap().to_string();
        assert!(ct.starts_with(kind), "{path}: {ct}");
    }
    let (_, page) = app.get("/").await;
    assert!(page.contains("<div id=\"board\""));
    // Paths that try to leave the assets, and unknown ones, are 404: never the page.
    for path in [
        "/../Cargo.toml",
        "/..%2f..%2fetc%2fpasswd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/assets/app.js",
        "/src/web/mod.rs",
        "/app.js/..",
        "/nope",
    ] {
        let (status, body) = app.get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(!body.contains("<!doctype"), "{path}");
    }
    let (status, body) = app.get("/api/nope").await;
    assert_error(status, &body, 404, "no such endpoint");
}

#[tokio::test]
async fn rules_of_any_position() {
    let app = App::new();
    let (status, v) = app.post("/api/position", json!({ "fen": START })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["legal"].as_array().unwrap().len(), 20);
    assert_eq!(v["turn"], "white");
    assert_eq!(v["status"], Value::Null);
    // SAN or UCI.
    for mv in ["e4", "e2e4"] {
        let (status, v) = app
            .post("/api/move", json!({ "fen": START, "move": mv }))
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(v["san"], "e4");
        assert_eq!(v["uci"], "e2e4");
        assert_eq!(
            v["fen"],
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(v["legal"].as_array().unwrap().len(), 20);
    }
    // Mate: the status says so and there are no legal moves.
    let (_, v) = app
        .post(
            "/api/move",
            json!({ "fen": "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "move": "Ra8" }),
        )
        .await;
    assert_eq!(v["san"], "Ra8#");
    assert_eq!(v["status"], "checkmate, White wins");
    assert_eq!(v["result"], "1-0");
    assert!(v["legal"].as_array().unwrap().is_empty());
    // Promotion moves carry their piece.
    let (_, v) = app
        .post(
            "/api/position",
            json!({ "fen": "8/P7/8/8/8/8/8/k6K w - - 0 1" }),
        )
        .await;
    let promos: Vec<&str> = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["promotion"].as_str())
        .collect();
    assert_eq!(promos.len(), 4, "{v}");
    // The board editor's check: an illegal position is an answer with its reason, not an error.
    let (status, v) = app
        .post("/api/position/check", json!({ "fen": START }))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["legal"], true);
    assert_eq!(v["position"]["legal"].as_array().unwrap().len(), 20);
    for (fen, why) in [
        ("8/8/8/8/8/8/8/8 w - - 0 1", "White has 0 kings"),
        ("k6P/8/8/8/8/8/8/K7 w - - 0 1", "pawn on h8"),
        (
            "k6R/8/8/8/8/8/8/K7 w - - 0 1",
            "Black is not to move but is in check",
        ),
        ("k7/8/8/8/8/8/8/K7 w K - 0 1", "castling right 'K'"),
    ] {
        let (status, v) = app.post("/api/position/check", json!({ "fen": fen })).await;
        assert_eq!(status, StatusCode::OK, "{fen}");
        assert_eq!(v["legal"], false, "{fen}");
        assert!(v["error"].as_str().unwrap().contains(why), "{fen}: {v}");
        assert!(v.get("position").is_none(), "{v}");
    }
    // A body that is not the request is still an error.
    let (status, _) = app.post_raw("/api/position/check", "{not json").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn bad_requests_are_4xx_with_a_json_error_and_the_server_carries_on() {
    let app = App::new();
    let (s, b) = app.post_raw("/api/move", "{not json").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{b}");
    let (s, b) = app.post_raw("/api/move", r#"{"fen": 5}"#).await;
    assert!(s.is_client_error(), "{s} {b}");
    let (s, b) = app
        .send(
            Request::post("/api/move")
                .body(Body::from(r#"{"fen":"x","move":"e4"}"#))
                .unwrap(),
        )
        .await;
    assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{b}");
    let (s, v) = app
        .post("/api/move", json!({ "fen": START, "move": "e5" }))
        .await;
    assert_error(s, &v.to_string(), 400, "illegal move");
    let (s, v) = app
        .post("/api/move", json!({ "fen": "8/8/8 w - -", "move": "e4" }))
        .await;
    assert_error(s, &v.to_string(), 400, "bad FEN");
    let (s, v) = app
        .post("/api/position", json!({ "fen": "\u{0}\u{ffff}" }))
        .await;
    assert_error(s, &v.to_string(), 400, "bad FEN");
    let (s, b) = app.get("/api/games/999999").await;
    assert_error(s, &b, 404, "no game");
    let (s, v) = app
        .post("/api/games/424242/move", json!({ "move": "e4" }))
        .await;
    assert_error(s, &v.to_string(), 404, "no game");
    let (s, b) = app.get("/api/games/abc").await;
    assert!(s.is_client_error(), "{s} {b}");
    // A body beyond the limit.
    let huge = format!(
        r#"{{"pgn": "{}"}}"#,
        "1. e4 ".repeat(fianchetto::web::MAX_BODY / 4)
    );
    let (s, _) = app.post_raw("/api/pgn", &huge).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    let (s, v) = app
        .post("/api/pgn", json!({ "pgn": "1. e4 e5 2. Ke3" }))
        .await;
    assert_error(s, &v.to_string(), 400, "bad PGN");
    // A pass (`--`) reads, but the board cannot show it: a clear refusal, not a broken board.
    let (s, v) = app
        .post("/api/pgn", json!({ "pgn": "1. e4 -- 2. d4 *" }))
        .await;
    assert_error(s, &v.to_string(), 400, "null move");
    let (s, b) = app.get("/api/analysis?fen=nonsense").await;
    assert_error(s, &b, 400, "bad FEN");
    let (s, b) = app.get("/api/analysis").await;
    assert!(s.is_client_error(), "{s} {b}");
    let (s, v) = app.post("/api/games", json!({ "fen": "garbage" })).await;
    assert_error(s, &v.to_string(), 400, "bad FEN");
    // Unharmed.
    let (s, v) = app.post("/api/position", json!({ "fen": START })).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["legal"].as_array().unwrap().len(), 20);
}

#[tokio::test]
async fn a_game_is_played_taken_back_and_downloaded() {
    let app = App::new();
    let (s, g) = app.post("/api/games", json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let id = g["id"].as_u64().unwrap();
    let (s, g) = app
        .post(&format!("/api/games/{id}/move"), json!({ "move": "e4" }))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["moves"], json!(["e4"]));
    // The engine answers, at a rating and at a time.
    let (s, g) = app
        .post(&format!("/api/games/{id}/bot"), json!({ "elo": 1500 }))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["moves"].as_array().unwrap().len(), 2);
    assert_eq!(g["bot"]["san"], g["moves"][1]);
    let (s, g) = app
        .post(
            &format!("/api/games/{id}/move"),
            json!({ "move": g["legal"][0]["uci"] }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let (s, g) = app
        .post(&format!("/api/games/{id}/bot"), json!({ "movetime": 50 }))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["moves"].as_array().unwrap().len(), 4);
    let (s, v) = app
        .post(&format!("/api/games/{id}/bot"), json!({ "elo": 50 }))
        .await;
    assert_error(s, &v.to_string(), 400, "out of range");
    let (s, v) = app
        .post(&format!("/api/games/{id}/move"), json!({ "move": "Ke8" }))
        .await;
    assert_error(s, &v.to_string(), 400, "illegal move");
    let (s, g) = app
        .post(&format!("/api/games/{id}/undo"), json!({ "plies": 2 }))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["moves"].as_array().unwrap().len(), 2);
    let (s, g2) = app.get(&format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::OK);
    assert!(g2.contains("\"moves\":[\"e4\","), "{g2}");
    let (s, pgn) = app.get(&format!("/api/games/{id}/pgn")).await;
    assert_eq!(s, StatusCode::OK);
    assert!(pgn.contains("1. e4 "), "{pgn}");
    // A game that is over refuses moves and the engine.
    let (_, g) = app
        .post(
            "/api/games",
            json!({ "fen": "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1" }),
        )
        .await;
    let id = g["id"].as_u64().unwrap();
    let (_, g) = app
        .post(&format!("/api/games/{id}/move"), json!({ "move": "Ra8" }))
        .await;
    assert_eq!(g["status"], "checkmate, White wins");
    let (s, v) = app.post(&format!("/api/games/{id}/bot"), json!({})).await;
    assert_error(s, &v.to_string(), 400, "over");
}

#[tokio::test]
async fn pgn_is_read_and_analysed_and_live_analysis_streams() {
    let app = App::new();
    let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0";
    let (s, v) = app.post("/api/pgn", json!({ "pgn": pgn })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"].as_array().unwrap().len(), 7);
    assert_eq!(v["fens"].as_array().unwrap().len(), 8);
    assert_eq!(v["result"], "1-0");
    // A FEN alone is a game without moves.
    let (s, v) = app.post("/api/pgn", json!({ "pgn": START })).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["fens"], json!([START]));
    let (s, v) = app
        .post("/api/analyse-pgn", json!({ "pgn": pgn, "movetime": 20 }))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let moves = v["report"]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7);
    // Black's 3...Nf6?? allows mate in one: a blunder.
    assert_eq!(moves[5]["judgement"], "blunder", "{}", moves[5]);
    // Live analysis: info events, then done.
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1%20w%20-%20-%200%201";
    let (s, body) = app
        .get(&format!("/api/analysis?fen={fen}&movetime=200&multipv=2"))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(body.contains("event: info"), "{body}");
    assert!(body.contains("\"mate\":1"), "{body}");
    assert!(body.contains("event: done"), "{body}");
    assert!(body.contains("a1a8"), "{body}");
}

#[tokio::test]
async fn a_flood_of_analyses_is_refused_not_queued() {
    let app = App::new();
    // Two engines: start analyses until one is refused; each request holds its engine while
    // its stream is open. They would think for the longest time allowed if nothing stopped them.
    let started = Instant::now();
    let mut held = Vec::new();
    let mut refused = 0;
    for _ in 0..6 {
        let res = app.start_analysis(MAX_SEARCH_MS).await;
        if res.status() == StatusCode::TOO_MANY_REQUESTS {
            refused += 1;
        } else {
            assert_eq!(res.status(), StatusCode::OK);
            held.push(res);
        }
    }
    assert_eq!(held.len(), 2);
    assert_eq!(refused, 4);
    // The rules need no engine: they are answered while every engine is busy.
    let (s, _) = app.post("/api/position", json!({ "fen": START })).await;
    assert_eq!(s, StatusCode::OK);
    // Closing the streams frees the engines: both are back before the searches could have
    // ended by themselves (MAX_SEARCH_MS after they started), with a generous 50 s allowed.
    drop(held);
    let deadline = started + Duration::from_millis(MAX_SEARCH_MS) - Duration::from_secs(10);
    engines_come_back(&app, 2, deadline).await;
}

/// A PGN whose variations nest `depth` levels.
fn nested_pgn(depth: usize) -> String {
    format!(
        "1. e4 {}{} e5 *",
        "(1. d4 ".repeat(depth),
        ")".repeat(depth)
    )
}

#[tokio::test]
async fn deeply_nested_variations_are_refused_by_name() {
    let app = App::new();
    // 20,000 levels (about 160 KB, inside the body limit) overflowed the stack before.
    let pgn = nested_pgn(20_000);
    assert!(pgn.len() < fianchetto::web::MAX_BODY);
    for path in ["/api/pgn", "/api/analyse-pgn"] {
        let (s, v) = app.post(path, json!({ "pgn": pgn, "movetime": 10 })).await;
        assert_error(s, &v.to_string(), 400, "nested deeper than");
    }
    // The deepest accepted nesting is read, and the main line is what the page gets.
    let (s, v) = app
        .post(
            "/api/pgn",
            json!({ "pgn": nested_pgn(fianchetto::chess::pgn::MAX_VARIATION_DEPTH) }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!(["e4", "e5"]));
}

#[tokio::test]
async fn every_error_is_json_whatever_rejects_the_request() {
    let app = App::new();
    // Path extractor rejections: a negative id, a word, a number too large for u64.
    for path in [
        "/api/games/-1",
        "/api/games/abc",
        "/api/games/99999999999999999999999",
    ] {
        let (s, b) = app.get(path).await;
        assert_error(s, &b, 400, "");
    }
    // Wrong content type, wrong method, a bad query, an unknown endpoint.
    let (s, b) = app
        .send(
            Request::post("/api/pgn")
                .header("content-type", "text/plain")
                .body(Body::from("1. e4"))
                .unwrap(),
        )
        .await;
    assert_error(s, &b, 415, "Content-Type");
    let res = app
        .0
        .clone()
        .oneshot(Request::get("/api/move").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert!(res.headers().contains_key("allow"), "Allow is kept");
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    assert_error(
        StatusCode::METHOD_NOT_ALLOWED,
        &String::from_utf8_lossy(&bytes),
        405,
        "",
    );
    let (s, b) = app.get("/api/analysis?fen=x&multipv=many").await;
    assert_error(s, &b, 400, "multipv");
    // Bodies that the optional extractors reject.
    let (s, _) = app.post("/api/games", json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, b) = app.post_raw("/api/games/1/undo", "{\"plies\": -3}").await;
    assert_error(s, &b, 422, "plies");
    let (s, b) = app.post_raw("/api/games", "[").await;
    assert_error(s, &b, 400, "");
}

#[tokio::test]
async fn a_panicking_handler_answers_500_in_json_and_the_server_goes_on() {
    use axum::routing::get;
    let app = App(fianchetto::web::hardened(
        axum::Router::new()
            .route(
                "/boom",
                get(|| async {
                    if std::hint::black_box(true) {
                        panic!("a handler's bug");
                    }
                    "unreachable"
                }),
            )
            .route("/fine", get(|| async { "fine" })),
    ));
    for _ in 0..3 {
        let (s, b) = app.get("/boom").await;
        assert_error(s, &b, 500, "internal error");
        let (s, b) = app.get("/fine").await;
        assert_eq!((s, b.as_str()), (StatusCode::OK, "fine"));
    }
}

/// Opens a live analysis and waits for its first event, then drops it (the page closed it).
async fn open_and_close_analysis(app: &App) {
    let res = app.start_analysis(30_000).await;
    assert_eq!(res.status(), StatusCode::OK);
    let mut body = res.into_body();
    let first = body.frame().await.expect("an event").unwrap();
    assert!(first.is_data());
    drop(body);
}

#[tokio::test]
async fn a_closed_analysis_stream_leaves_the_engine_whole() {
    // One engine, so that the next jobs get the very searcher the stream stopped.
    let app = App(router(AppState::new(1)));
    open_and_close_analysis(&app).await;
    let (_, g) = app.post("/api/games", json!({})).await;
    let id = g["id"].as_u64().unwrap();
    // The bot thinks for its whole movetime (it returned at once, at depth 7-8, before).
    let movetime = 600;
    let t = std::time::Instant::now();
    let (s, g) = app
        .post(
            &format!("/api/games/{id}/bot"),
            json!({ "movetime": movetime }),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let took = t.elapsed().as_millis() as u64;
    assert!(
        took >= movetime * 9 / 10,
        "the search ended after {took} ms"
    );
    // And a later analysis runs for its own time too.
    open_and_close_analysis(&app).await;
    engine_comes_back(&app).await;
    let t = std::time::Instant::now();
    let res = app.start_analysis(500).await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = res.into_body().collect().await.unwrap().to_bytes();
    let took = t.elapsed().as_millis();
    assert!(took >= 450, "the analysis ended after {took} ms");
    assert!(String::from_utf8_lossy(&body).contains("event: done"));
}

/// Waits (up to a generous minute: the machine may be busy) until an analysis is accepted.
async fn engine_comes_back(app: &App) {
    engines_come_back(app, 1, Instant::now() + Duration::from_secs(60)).await;
}

/// Waits until `engines` analyses are accepted at once (so that many engines are free), and
/// fails if that has not happened by `deadline`.
async fn engines_come_back(app: &App, engines: usize, deadline: Instant) {
    loop {
        let mut accepted = Vec::new();
        for _ in 0..engines {
            let res = app.start_analysis(50).await;
            if res.status() == StatusCode::OK {
                accepted.push(res);
            }
        }
        let all = accepted.len() == engines;
        // Run to their end (50 ms): their engines are back in the pool when the streams end.
        for res in accepted {
            let _ = res.into_body().collect().await;
        }
        if all {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the engines never came back (wanted {engines})"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

impl App {
    /// Sends a POST from a client of its own (a task): aborting the task is the client going
    /// away, which drops the request's future as hyper does when a connection closes.
    fn spawn_post(&self, path: &str, body: &Value) -> JoinHandle<(StatusCode, String)> {
        let app = App(self.0.clone());
        let (path, body) = (path.to_string(), body.to_string());
        tokio::spawn(async move { app.post_raw(&path, &body).await })
    }
}

/// Sends `body` to `path` from a client of its own and waits (up to a generous minute) until
/// that request holds the app's only engine: until a probe analysis is refused with 429. A
/// probe that finds the engine free took it before the request did: the probe runs to its end
/// (its engine is back then), and the request is sent again if that got it refused.
async fn request_holding_the_engine(
    app: &App,
    path: &str,
    body: &Value,
) -> JoinHandle<(StatusCode, String)> {
    let t = Instant::now();
    let mut request = app.spawn_post(path, body);
    loop {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "{path} never took the engine"
        );
        // The request's task runs meanwhile.
        tokio::time::sleep(Duration::from_millis(20)).await;
        if request.is_finished() {
            let (s, b) = request.await.unwrap();
            assert!(
                [
                    StatusCode::TOO_MANY_REQUESTS,
                    StatusCode::SERVICE_UNAVAILABLE
                ]
                .contains(&s),
                "{path} ended before it was seen holding the engine: {s} {b}"
            );
            request = app.spawn_post(path, body);
            continue;
        }
        let probe = app.start_analysis(50).await;
        if probe.status() == StatusCode::TOO_MANY_REQUESTS {
            return request;
        }
        assert_eq!(probe.status(), StatusCode::OK);
        let _ = probe.into_body().collect().await;
    }
}

/// The client of `request` goes away; the request must not have been answered before.
async fn client_leaves(request: JoinHandle<(StatusCode, String)>) {
    request.abort();
    let left = request.await;
    assert!(
        left.as_ref().is_err_and(|e| e.is_cancelled()),
        "answered before its client left: {left:?}"
    );
}

#[tokio::test]
async fn work_for_a_client_that_left_is_cancelled() {
    let app = App(router(AppState::new(1)));
    // A whole-game analysis at the longest movetime a position may have (2 s): 101 positions,
    // each searched for its whole movetime, would keep the engine over 3 minutes, three times
    // the minute that `engine_comes_back` waits. Its client leaves once it holds the engine.
    let plies = 100;
    let analysis = json!({ "pgn": long_game(plies), "movetime": 2000 });
    let (s, v) = app
        .post("/api/pgn", json!({ "pgn": analysis["pgn"] }))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(plies));
    let request = request_holding_the_engine(&app, "/api/analyse-pgn", &analysis).await;
    client_leaves(request).await;
    engine_comes_back(&app).await;
    // A bot move whose client leaves: the search stops, no move is played, the game is free.
    // Had the search gone on, it would either still hold the engine when `engine_comes_back`
    // gives up (it thinks for MAX_SEARCH_MS, as long as that waits) or have played its move.
    let (_, g) = app.post("/api/games", json!({})).await;
    let id = g["id"].as_u64().unwrap();
    let bot = format!("/api/games/{id}/bot");
    let request =
        request_holding_the_engine(&app, &bot, &json!({ "movetime": MAX_SEARCH_MS })).await;
    client_leaves(request).await;
    engine_comes_back(&app).await;
    let (s, g) = app.get(&format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        g.contains("\"moves\":[]"),
        "no hurried move was played: {g}"
    );
    let (s, g) = app
        .post(&format!("/api/games/{id}/move"), json!({ "move": "e4" }))
        .await;
    assert_eq!(s, StatusCode::OK, "the game is not left busy: {g}");
}

#[tokio::test]
async fn a_flag_fall_ends_the_game_on_the_server_with_the_reason_in_the_pgn() {
    let app = App::new();
    let (status, g) = app
        .post(
            "/api/games",
            json!({"human": "white", "elo": 1300, "time_control": "180+2"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(
        (g["white"].as_str(), g["black"].as_str()),
        (Some("You"), Some("Fianchetto (1300)"))
    );
    let id = g["id"].as_u64().unwrap();
    let (status, _) = app
        .post(&format!("/api/games/{id}/move"), json!({"move": "e4"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    // Only the side to move can run out of time, and only a side that exists.
    let (status, text) = app
        .post_raw(&format!("/api/games/{id}/flag"), r#"{"loser": "white"}"#)
        .await;
    assert_error(status, &text, 400, "only the side to move");
    let (status, text) = app
        .post_raw(&format!("/api/games/{id}/flag"), r#"{"loser": "green"}"#)
        .await;
    assert_error(status, &text, 400, "white or black");
    let (status, view) = app
        .post(&format!("/api/games/{id}/flag"), json!({"loser": "black"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["status"], "Black loses on time");
    assert_eq!(view["result"], "1-0");
    assert!(view["legal"].as_array().unwrap().is_empty());
    // Over: no move, no engine move, no take-back, no second flag.
    let (status, text) = app
        .post_raw(&format!("/api/games/{id}/move"), r#"{"move": "e5"}"#)
        .await;
    assert_error(status, &text, 400, "the game is over");
    let (status, text) = app
        .post_raw(&format!("/api/games/{id}/bot"), r#"{"movetime": 50}"#)
        .await;
    assert_error(status, &text, 400, "the game is over");
    let (status, text) = app.post_raw(&format!("/api/games/{id}/undo"), "{}").await;
    assert_error(status, &text, 400, "the game is over");
    let (status, text) = app
        .post_raw(&format!("/api/games/{id}/flag"), r#"{"loser": "black"}"#)
        .await;
    assert_error(status, &text, 409, "the game is over");
    let (status, pgn) = app.get(&format!("/api/games/{id}/pgn")).await;
    assert_eq!(status, StatusCode::OK);
    for tag in [
        r#"[White "You"]"#,
        r#"[Black "Fianchetto (1300)"]"#,
        r#"[Result "1-0"]"#,
        r#"[TimeControl "180+2"]"#,
        r#"[Termination "time forfeit"]"#,
    ] {
        assert!(pgn.contains(tag), "{tag} missing:\n{pgn}");
    }
    assert!(pgn.trim_end().ends_with("1-0"), "{pgn}");
}

#[tokio::test]
async fn a_flag_against_a_side_that_cannot_be_mated_is_a_draw_and_clocks_are_checked() {
    let app = App::new();
    // White, to move, has a king and a rook; Black has a lone king: White's flag falls, and
    // Black cannot mate by any series of moves (FIDE 6.9).
    let (_, g) = app
        .post(
            "/api/games",
            json!({"fen": "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "time_control": "60+0"}),
        )
        .await;
    let id = g["id"].as_u64().unwrap();
    let (status, view) = app
        .post(&format!("/api/games/{id}/flag"), json!({"loser": "white"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["result"], "1/2-1/2");
    assert!(
        view["status"].as_str().unwrap().contains("cannot mate"),
        "{view}"
    );
    // A game without a clock has no flag; bad clocks and sides are refused by name.
    let (_, g) = app.post("/api/games", json!({})).await;
    let id = g["id"].as_u64().unwrap();
    let (status, text) = app
        .post_raw(&format!("/api/games/{id}/flag"), r#"{"loser": "white"}"#)
        .await;
    assert_error(status, &text, 400, "no clock");
    for (body, needle) in [
        (r#"{"time_control": "10 minutes"}"#, "SECONDS+INCREMENT"),
        (r#"{"time_control": "0+5"}"#, "SECONDS+INCREMENT"),
        (r#"{"time_control": "600+999"}"#, "SECONDS+INCREMENT"),
        (r#"{"human": "purple"}"#, "white or black"),
        (r#"{"elo": 99999}"#, "out of range"),
    ] {
        let (status, text) = app.post_raw("/api/games", body).await;
        assert_error(status, &text, 400, needle);
    }
}

#[tokio::test]
async fn a_pgn_of_several_games_lists_them_and_reads_the_one_asked_for() {
    let app = App::new();
    let pgn = "[White \"A\"]\n[Black \"B\"]\n[Date \"2024.01.02\"]\n\n1. e4 e5 1-0\n\n\
               [White \"C\"]\n[Black \"D\"]\n\n1. d4 d5 2. c4 0-1\n\n\
               [White \"E\"]\n[Black \"F\"]\n\n1. e4 Ke7?? Kd5 *\n";
    let (status, first) = app.post("/api/pgn", json!({"pgn": pgn})).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(first["game_count"], 3);
    assert_eq!(first["game"], 1);
    assert_eq!(first["moves"], json!(["e4", "e5"]));
    let games = first["games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(
        (games[0]["white"].as_str(), games[0]["date"].as_str()),
        (Some("A"), Some("2024.01.02"))
    );
    assert_eq!(games[1]["result"], "0-1");
    assert!(games[2]["error"].as_str().is_some(), "{}", games[2]);
    let (status, second) = app.post("/api/pgn", json!({"pgn": pgn, "game": 2})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(second["moves"], json!(["d4", "d5", "c4"]));
    for n in [0, 4] {
        let (status, text) = app
            .post_raw("/api/pgn", &json!({"pgn": pgn, "game": n}).to_string())
            .await;
        assert_error(status, &text, 400, "the PGN has 3 games");
    }
    let (status, text) = app
        .post_raw("/api/pgn", &json!({"pgn": pgn, "game": 3}).to_string())
        .await;
    assert_error(status, &text, 400, "bad PGN");
}

#[tokio::test]
async fn resigning_aborting_and_draw_offers_end_the_game_as_the_players_decide() {
    let app = App::new();
    // Resign: the person (Black here) loses, the PGN says so.
    let (_, g) = app.post("/api/games", json!({"human": "black"})).await;
    let id = g["id"].as_u64().unwrap();
    let (status, view) = app
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(
        (view["status"].as_str(), view["result"].as_str()),
        (Some("Black resigns"), Some("1-0"))
    );
    let (_, pgn) = app.get(&format!("/api/games/{id}/pgn")).await;
    assert!(
        pgn.contains(r#"[Termination "normal"]"#) && pgn.contains(r#"[Result "1-0"]"#),
        "{pgn}"
    );
    let (status, text) = app.post_raw(&format!("/api/games/{id}/resign"), "{}").await;
    assert_error(status, &text, 409, "the game is over");

    // Abort: only before each side has moved once; no result.
    let (_, g) = app.post("/api/games", json!({})).await;
    let id = g["id"].as_u64().unwrap();
    app.post(&format!("/api/games/{id}/move"), json!({"move": "e4"}))
        .await;
    let (status, view) = app.post(&format!("/api/games/{id}/abort"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(
        (view["status"].as_str(), view["result"].as_str()),
        (Some("Game aborted"), Some("*"))
    );
    let (_, pgn) = app.get(&format!("/api/games/{id}/pgn")).await;
    assert!(pgn.contains(r#"[Termination "abandoned"]"#), "{pgn}");
    let (_, g) = app.post("/api/games", json!({})).await;
    let id = g["id"].as_u64().unwrap();
    for m in ["e4", "e5"] {
        app.post(&format!("/api/games/{id}/move"), json!({"move": m}))
            .await;
    }
    let (status, text) = app.post_raw(&format!("/api/games/{id}/abort"), "{}").await;
    assert_error(status, &text, 400, "resign instead");

    // A draw offer in a level opening is declined (play on); the engine, a queen and a rook
    // down, takes one at once.
    let (status, view) = app.post(&format!("/api/games/{id}/draw"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["accepted"], false);
    assert!(view["status"].is_null(), "{view}");
    let (_, g) = app
        .post(
            "/api/games",
            json!({"fen": "k7/8/8/8/8/8/8/1Q4RK w - - 0 1"}),
        )
        .await;
    let id = g["id"].as_u64().unwrap();
    let (status, view) = app.post(&format!("/api/games/{id}/draw"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["accepted"], true);
    assert_eq!(
        (view["status"].as_str(), view["result"].as_str()),
        (Some("Draw agreed"), Some("1/2-1/2"))
    );
    let (status, text) = app.post_raw(&format!("/api/games/{id}/draw"), "{}").await;
    assert_error(status, &text, 409, "the game is over");
    let (status, text) = app.post_raw("/api/games/999999/resign", "{}").await;
    assert_error(status, &text, 404, "no game");
}

#[tokio::test]
async fn a_streamed_analysis_reports_progress_then_the_result() {
    let app = App::new();
    let body = json!({"pgn": "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0", "movetime": 10});
    let (status, text) = app
        .post_raw("/api/analyse-pgn/stream", &body.to_string())
        .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let mut progress = Vec::new();
    let mut done = None;
    for block in text.split("\n\n") {
        let event = block
            .lines()
            .find_map(|l| l.strip_prefix("event: "))
            .unwrap_or("");
        let data: String = block
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .collect();
        match event {
            "progress" => progress.push(serde_json::from_str::<Value>(&data).unwrap()),
            "done" => done = Some(serde_json::from_str::<Value>(&data).unwrap()),
            _ => {}
        }
    }
    assert!(!progress.is_empty(), "{text}");
    let last = progress.last().unwrap();
    assert_eq!(
        (last["done"].as_u64(), last["total"].as_u64()),
        (Some(8), Some(8)),
        "{text}"
    );
    let done = done.unwrap_or_else(|| panic!("no done event: {text}"));
    assert_eq!(done["report"]["moves"].as_array().map(Vec::len), Some(7));
    assert!(done["annotated_pgn"]
        .as_str()
        .unwrap()
        .contains("[Annotator"));
    // Bad input is refused before any stream starts.
    let (status, text) = app
        .post_raw("/api/analyse-pgn/stream", r#"{"pgn": "1. e4 e4"}"#)
        .await;
    assert_error(status, &text, 400, "bad PGN");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_bodies_are_served_in_turn_and_all_answered() {
    // Twelve PGNs of about 100 KB at once (a 60-move game padded with a long comment): more
    // than the four handled at a time, so most wait their turn; every one must be answered.
    let app = App::new();
    let pgn = format!("{{{}}} {}", "x".repeat(100_000), long_game(60));
    let body = json!({ "pgn": pgn }).to_string();
    let mut requests = Vec::new();
    for _ in 0..12 {
        let router = app.0.clone();
        let body = body.clone();
        requests.push(tokio::spawn(async move {
            let req = Request::post("/api/pgn")
                .header("content-type", "application/json")
                .header("content-length", body.len())
                .body(Body::from(body))
                .unwrap();
            let res = router.oneshot(req).await.unwrap();
            let status = res.status();
            let bytes = res.into_body().collect().await.unwrap().to_bytes();
            (
                status,
                serde_json::from_slice::<Value>(&bytes).unwrap_or(Value::Null),
            )
        }));
    }
    let deadline = Duration::from_secs(60);
    for r in requests {
        let (status, v) = tokio::time::timeout(deadline, r)
            .await
            .expect("every large request is answered")
            .unwrap();
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["moves"].as_array().map(Vec::len), Some(60), "{v}");
    }
}
