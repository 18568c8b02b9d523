//! The browser app's server, through its router without a network: every endpoint, and bad
//! requests answered with a 4xx and a JSON error while the server carries on.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use fianchetto::web::{router, AppState};
use http_body_util::BodyExt;
use serde_json::{json, Value};
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
    // its stream is open.
    let mut held = Vec::new();
    let mut refused = 0;
    for _ in 0..6 {
        let res = app.start_analysis(3000).await;
        if res.status() == StatusCode::TOO_MANY_REQUESTS {
            refused += 1;
        } else {
            assert_eq!(res.status(), StatusCode::OK);
            held.push(res);
        }
    }
    assert_eq!(held.len(), 2);
    assert_eq!(refused, 4);
    // Closing the streams frees the engines.
    drop(held);
    let mut ok = false;
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        let (s, _) = app.post("/api/position", json!({ "fen": START })).await;
        assert_eq!(s, StatusCode::OK);
        let res = app.start_analysis(100).await;
        if res.status() == StatusCode::OK {
            ok = true;
            break;
        }
    }
    assert!(ok, "the engines were never freed");
}
