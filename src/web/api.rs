//! The JSON API under `/api/`: the rules of any position, games kept by id, the engine's
//! moves, live analysis over server-sent events, and whole-game analysis of a PGN.

use super::{color_name, AppState, StoredGame};
use crate::chess::pgn::{read_games, PgnGame};
use crate::chess::{Board, Game};
use crate::search::{skill, Limits, Report, Searcher};
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::StreamExt;

type Shared = State<Arc<AppState>>;

/// An error answered as `{"error": "..."}` with a status.
pub struct ApiError(StatusCode, String);

impl ApiError {
    /// A 500 with this message.
    pub fn internal(msg: &str) -> ApiError {
        ApiError(StatusCode::INTERNAL_SERVER_ERROR, msg.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

fn bad(msg: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, msg.into())
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        ApiError(r.status(), r.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> ApiError {
        ApiError(r.status(), r.body_text())
    }
}

type ApiResult<T> = Result<Json<T>, ApiError>;

/// The routes of the API.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/position", post(position))
        .route("/api/move", post(play_move))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/move", post(game_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/bot", post(bot_move))
        .route("/api/games/{id}/pgn", get(game_pgn))
        .route("/api/analysis", get(analysis))
        .route("/api/pgn", post(read_pgn))
        .route("/api/analyse-pgn", post(analyse_pgn))
}

/// A legal move as the page needs it.
#[derive(Serialize)]
struct LegalMove {
    uci: String,
    san: String,
    from: String,
    to: String,
    promotion: Option<char>,
}

/// A position: whose turn, its legal moves, check, and whether the game is over.
#[derive(Serialize)]
struct PositionView {
    fen: String,
    turn: &'static str,
    check: bool,
    legal: Vec<LegalMove>,
    /// `checkmate, white wins`, `stalemate, draw`…, or `null` while the game goes on.
    status: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*`.
    result: &'static str,
}

fn position_view(game: &Game) -> PositionView {
    let b = game.board();
    let outcome = game.outcome();
    let legal = if outcome.is_some() {
        Vec::new()
    } else {
        b.legal_moves()
            .iter()
            .map(|&m| LegalMove {
                uci: b.uci_move(m, false),
                san: b.san(m),
                from: m.from().to_string(),
                to: m.to().to_string(),
                promotion: m.promotion().map(|k| {
                    crate::chess::Piece {
                        color: crate::chess::Color::Black,
                        kind: k,
                    }
                    .fen_char()
                }),
            })
            .collect()
    };
    PositionView {
        fen: b.to_fen(),
        turn: color_name(b.side_to_move()),
        check: b.in_check(),
        legal,
        status: outcome.map(|o| o.to_string()),
        result: outcome.map_or("*", |o| o.result()),
    }
}

fn parse_fen(fen: &str) -> Result<Board, ApiError> {
    Board::from_fen(fen.trim()).map_err(|e| bad(format!("bad FEN: {e}")))
}

#[derive(Deserialize)]
struct PositionRequest {
    fen: String,
}

/// `POST /api/position {fen}`: the position's legal moves and status.
async fn position(body: Result<Json<PositionRequest>, JsonRejection>) -> ApiResult<PositionView> {
    let Json(req) = body?;
    Ok(Json(position_view(&Game::new(parse_fen(&req.fen)?))))
}

#[derive(Deserialize)]
struct MoveRequest {
    fen: String,
    #[serde(rename = "move")]
    mv: String,
}

/// A move just played, and the position after it.
#[derive(Serialize)]
struct MoveView {
    san: String,
    uci: String,
    #[serde(flatten)]
    position: PositionView,
}

/// `POST /api/move {fen, move}` (UCI or SAN): the position after the move.
async fn play_move(body: Result<Json<MoveRequest>, JsonRejection>) -> ApiResult<MoveView> {
    let Json(req) = body?;
    let board = parse_fen(&req.fen)?;
    let m = board
        .parse_move(req.mv.trim())
        .map_err(|e| bad(format!("illegal move {:?}: {e}", req.mv)))?;
    let mut game = Game::new(board);
    // `parse_move` returns only legal moves.
    let san = board.san(m);
    game.push(m).map_err(|e| bad(e.to_string()))?;
    Ok(Json(MoveView {
        san,
        uci: board.uci_move(m, false),
        position: position_view(&game),
    }))
}

/// A game kept by the server.
#[derive(Serialize)]
struct GameView {
    id: u64,
    start_fen: String,
    moves: Vec<String>,
    uci_moves: Vec<String>,
    #[serde(flatten)]
    position: PositionView,
}

fn game_view(id: u64, game: &Game) -> GameView {
    let start = *game.start();
    GameView {
        id,
        start_fen: start.to_fen(),
        moves: start.san_line(game.moves()),
        uci_moves: game
            .positions()
            .iter()
            .zip(game.moves())
            .map(|(b, &m)| b.uci_move(m, false))
            .collect(),
        position: position_view(game),
    }
}

#[derive(Deserialize, Default)]
struct NewGameRequest {
    fen: Option<String>,
}

/// `POST /api/games {fen?}`: a new game from the start position or `fen`.
async fn new_game(
    State(state): Shared,
    body: Option<Json<NewGameRequest>>,
) -> Result<Json<GameView>, ApiError> {
    let req = body.map(|Json(r)| r).unwrap_or_default();
    let board = match req.fen.as_deref() {
        Some(f) if !f.trim().is_empty() => parse_fen(f)?,
        _ => Board::startpos(),
    };
    let game = Game::new(board);
    let id = {
        let mut next = state.next_id.lock().map_err(|_| internal())?;
        *next += 1;
        *next
    };
    let view = game_view(id, &game);
    let mut games = state.games.lock().map_err(|_| internal())?;
    if games.len() >= super::MAX_GAMES {
        // The least recently used game makes room.
        if let Some(oldest) = games
            .iter()
            .filter(|(_, g)| !g.busy)
            .min_by_key(|(_, g)| g.last_used)
            .map(|(&k, _)| k)
        {
            games.remove(&oldest);
        }
    }
    games.insert(
        id,
        StoredGame {
            game,
            busy: false,
            last_used: Instant::now(),
        },
    );
    Ok(Json(view))
}

fn internal() -> ApiError {
    ApiError(StatusCode::INTERNAL_SERVER_ERROR, "internal error".into())
}

fn unknown(id: u64) -> ApiError {
    ApiError(StatusCode::NOT_FOUND, format!("no game {id}"))
}

/// Runs `f` on game `id` (refused while the engine thinks for it).
fn with_game<T>(
    state: &AppState,
    id: u64,
    f: impl FnOnce(&mut Game) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let mut games = state.games.lock().map_err(|_| internal())?;
    let g = games.get_mut(&id).ok_or_else(|| unknown(id))?;
    if g.busy {
        return Err(ApiError(
            StatusCode::CONFLICT,
            "the engine is thinking in this game".into(),
        ));
    }
    g.last_used = Instant::now();
    f(&mut g.game)
}

/// `GET /api/games/{id}`.
async fn get_game(State(state): Shared, Path(id): Path<u64>) -> ApiResult<GameView> {
    let mut games = state.games.lock().map_err(|_| internal())?;
    let g = games.get_mut(&id).ok_or_else(|| unknown(id))?;
    g.last_used = Instant::now();
    Ok(Json(game_view(id, &g.game)))
}

#[derive(Deserialize)]
struct GameMoveRequest {
    #[serde(rename = "move")]
    mv: String,
}

/// `POST /api/games/{id}/move {move}`.
async fn game_move(
    State(state): Shared,
    Path(id): Path<u64>,
    body: Result<Json<GameMoveRequest>, JsonRejection>,
) -> ApiResult<GameView> {
    let Json(req) = body?;
    with_game(&state, id, |game| {
        if let Some(o) = game.outcome() {
            return Err(bad(format!("the game is over: {o}")));
        }
        game.push_text(req.mv.trim())
            .map_err(|e| bad(format!("illegal move {:?}: {e}", req.mv)))?;
        Ok(Json(game_view(id, game)))
    })
}

#[derive(Deserialize, Default)]
struct UndoRequest {
    plies: Option<usize>,
}

/// `POST /api/games/{id}/undo {plies?}`: takes back one ply, or `plies`.
async fn undo(
    State(state): Shared,
    Path(id): Path<u64>,
    body: Option<Json<UndoRequest>>,
) -> ApiResult<GameView> {
    let plies = body.and_then(|Json(r)| r.plies).unwrap_or(1).min(10_000);
    with_game(&state, id, |game| {
        for _ in 0..plies {
            if game.pop().is_none() {
                break;
            }
        }
        Ok(Json(game_view(id, game)))
    })
}

#[derive(Deserialize, Default)]
struct BotRequest {
    /// Play like a player of this rating (`skill::ELO_MIN..=ELO_MAX`).
    elo: Option<u32>,
    /// Think this long, milliseconds (default 1000).
    movetime: Option<u64>,
}

/// The engine's move and what it thought of it.
#[derive(Serialize)]
struct BotView {
    bot: BotMove,
    #[serde(flatten)]
    game: GameView,
}

#[derive(Serialize)]
struct BotMove {
    uci: String,
    san: String,
    /// `cp 35` or `mate 3`, the engine's view.
    score: String,
    depth: u32,
}

/// Every pooled searcher is busy, answered with `status`.
fn all_busy(status: StatusCode) -> ApiError {
    ApiError(status, "every engine is busy; try again".into())
}

/// Takes a pooled searcher (waiting up to `wait` for a free one).
async fn acquire(
    state: &Arc<AppState>,
    wait: Duration,
) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    match tokio::time::timeout(wait, Arc::clone(&state.permits).acquire_owned()).await {
        Ok(Ok(p)) => Ok(p),
        _ => Err(all_busy(StatusCode::SERVICE_UNAVAILABLE)),
    }
}

/// Takes a pooled searcher if one is free now: analysis never queues, so a flood of requests
/// is refused at once.
fn try_acquire(state: &Arc<AppState>) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    Arc::clone(&state.permits)
        .try_acquire_owned()
        .map_err(|_| all_busy(StatusCode::TOO_MANY_REQUESTS))
}

/// Runs a closure when dropped, unless disarmed: a request's future owns one, so that when the
/// client goes away (hyper drops the future) the work done for it is cancelled at once.
struct OnDrop(Option<Box<dyn FnOnce() + Send>>);

impl OnDrop {
    fn new(f: impl FnOnce() + Send + 'static) -> OnDrop {
        OnDrop(Some(Box::new(f)))
    }
    /// The work finished: nothing to cancel.
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for OnDrop {
    fn drop(&mut self) {
        if let Some(f) = self.0.take() {
            f();
        }
    }
}

/// A pooled searcher, ready for a new job: its flags are cleared (`SearchControl::reset`),
/// since the last job may have been stopped by a closed stream.
fn take_searcher(state: &AppState) -> Searcher {
    // A permit guarantees a pooled searcher; one is made if a panic ever lost one.
    let searcher = state
        .searchers
        .lock()
        .ok()
        .and_then(|mut s| s.pop())
        .unwrap_or_else(|| Searcher::new(super::SEARCHER_HASH_MIB));
    searcher.control().reset();
    searcher
}

/// Runs `f` with `searcher` on a blocking thread, then puts the searcher back in the pool and
/// frees the permit, on that thread: whether or not anyone still awaits the result. A panic
/// in `f` loses the searcher (it is remade on demand) and answers 500.
async fn run_searcher<T: Send + 'static>(
    state: Arc<AppState>,
    permit: tokio::sync::OwnedSemaphorePermit,
    mut searcher: Searcher,
    f: impl FnOnce(&mut Searcher) -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(move || {
        let out = f(&mut searcher);
        if let Ok(mut s) = state.searchers.lock() {
            s.push(searcher);
        }
        drop(permit);
        out
    })
    .await
    .map_err(|_| internal())
}

/// Clears a game's `busy` mark when dropped, however the search for it ends (a panic
/// included), unless it was cleared already through a held lock ([`BusyGuard::clear`]).
struct BusyGuard {
    state: Arc<AppState>,
    id: u64,
    armed: bool,
}

impl BusyGuard {
    /// Clears the mark through the games' lock that the caller holds.
    fn clear(mut self, games: &mut std::collections::HashMap<u64, StoredGame>) {
        if let Some(g) = games.get_mut(&self.id) {
            g.busy = false;
        }
        self.armed = false;
    }
}

impl Drop for BusyGuard {
    fn drop(&mut self) {
        if self.armed {
            // The game may have been evicted meanwhile: nothing left to clear then.
            let _ = set_busy(&self.state, self.id, false);
        }
    }
}

/// `POST /api/games/{id}/bot {elo?, movetime?}`: the engine plays the side to move. If the
/// client goes away while the engine thinks, the search stops and no move is played.
async fn bot_move(
    State(state): Shared,
    Path(id): Path<u64>,
    body: Option<Json<BotRequest>>,
) -> Result<Json<BotView>, ApiError> {
    let req = body.map(|Json(r)| r).unwrap_or_default();
    if let Some(elo) = req.elo {
        if !(skill::ELO_MIN..=skill::ELO_MAX).contains(&elo) {
            return Err(bad(format!(
                "elo {elo} out of range {}-{}",
                skill::ELO_MIN,
                skill::ELO_MAX
            )));
        }
    }
    let game = with_game(&state, id, |game| {
        if let Some(o) = game.outcome() {
            return Err(bad(format!("the game is over: {o}")));
        }
        Ok(game.clone())
    })?;
    set_busy(&state, id, true)?;
    let busy = BusyGuard {
        state: Arc::clone(&state),
        id,
        armed: true,
    };
    let permit = acquire(&state, Duration::from_secs(10)).await?;
    // A rating sets its own thinking time, the one its level was measured at.
    let limits = match req.elo {
        Some(elo) => skill::rated_limits(elo, None, crate::rand::clock_random()),
        None => Limits {
            movetime: Some(req.movetime.unwrap_or(1000).clamp(10, super::MAX_SEARCH_MS)),
            multipv: 1,
            ..Limits::default()
        },
    };
    let searcher = take_searcher(&state);
    let control = searcher.control();
    let cancel = OnDrop::new(move || control.stop());
    let games = Arc::clone(&state);
    let played = run_searcher(Arc::clone(&state), permit, searcher, move |s| {
        let result = s.search(&game, &limits, &mut |_: &Report| {});
        // The move is played here, not after the await: a client that left must not leave the
        // game marked busy, and a search it cut short must not play a hurried move.
        let cancelled = s.control().stopped();
        let mut games = games.games.lock().map_err(|_| internal())?;
        busy.clear(&mut games);
        if cancelled {
            return Err(ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                "the search was cancelled".into(),
            ));
        }
        let g = games.get_mut(&id).ok_or_else(|| unknown(id))?;
        g.last_used = Instant::now();
        let best = result
            .best
            .ok_or_else(|| bad("no legal move".to_string()))?;
        let before = *g.game.board();
        g.game.push(best).map_err(|e| bad(e.to_string()))?;
        Ok(BotView {
            bot: BotMove {
                uci: before.uci_move(best, false),
                san: before.san(best),
                score: result.score.to_string(),
                depth: result.depth,
            },
            game: game_view(id, &g.game),
        })
    })
    .await;
    cancel.disarm();
    Ok(Json(played??))
}

fn set_busy(state: &AppState, id: u64, busy: bool) -> Result<(), ApiError> {
    let mut games = state.games.lock().map_err(|_| internal())?;
    let g = games.get_mut(&id).ok_or_else(|| unknown(id))?;
    g.busy = busy;
    Ok(())
}

/// `GET /api/games/{id}/pgn`: the game as a PGN file.
async fn game_pgn(State(state): Shared, Path(id): Path<u64>) -> Result<Response, ApiError> {
    let games = state.games.lock().map_err(|_| internal())?;
    let g = games.get(&id).ok_or_else(|| unknown(id))?;
    let mut pgn = PgnGame::from_game(&g.game);
    pgn.set_tag("Event", "Fianchetto in the browser");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    pgn.set_tag("Date", &crate::chess::pgn::date_tag(now));
    if let Some(o) = g.game.outcome() {
        pgn.set_tag("Result", o.result());
    }
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-chess-pgn"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"fianchetto.pgn\"",
            ),
        ],
        pgn.to_pgn(),
    )
        .into_response())
}

#[derive(Deserialize)]
struct AnalysisQuery {
    fen: String,
    multipv: Option<usize>,
    movetime: Option<u64>,
}

/// One line of live analysis, White's view.
#[derive(Serialize)]
struct AnalysisLine {
    depth: u32,
    multipv: usize,
    /// Centipawns from White's view (mates as ±100,000 less the distance).
    cp: Option<i32>,
    /// Mate in n moves from White's view (negative: Black mates).
    mate: Option<i32>,
    nodes: u64,
    nps: u64,
    time_ms: u64,
    pv: Vec<String>,
    pv_uci: Vec<String>,
}

/// `GET /api/analysis?fen=…&multipv=…&movetime=…`: live engine lines as server-sent events
/// (`info` events with an `AnalysisLine`, then one `done`). Closing the stream stops the
/// search; it stops by itself after `movetime` (default 10 s, at most a minute).
async fn analysis(
    State(state): Shared,
    query: Result<Query<AnalysisQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query?;
    let board = parse_fen(&q.fen)?;
    let multipv = q.multipv.unwrap_or(1).clamp(1, 8);
    let movetime = q.movetime.unwrap_or(10_000).clamp(50, super::MAX_SEARCH_MS);
    let permit = try_acquire(&state)?;
    let (tx, rx) = tokio::sync::mpsc::channel::<(&'static str, String)>(64);
    let game = Game::new(board);
    let white = board.side_to_move() == crate::chess::Color::White;
    let searcher = take_searcher(&state);
    let control = searcher.control();
    // The stream owns this: when the page closes it, the search stops at once, not at its next
    // report (which a deep iteration may take seconds to send).
    let cancel = OnDrop::new(move || control.stop());
    let job = run_searcher(Arc::clone(&state), permit, searcher, move |s| {
        let control = s.control();
        let limits = Limits {
            movetime: Some(movetime),
            multipv,
            ..Limits::default()
        };
        let result = s.search(&game, &limits, &mut |r| {
            if let Report::Iteration(info) = r {
                if info.bound.is_some() {
                    return;
                }
                let sign = if white { 1 } else { -1 };
                let line = AnalysisLine {
                    depth: info.depth,
                    multipv: info.multipv,
                    cp: (!info.score.is_mate()).then_some(info.score.0 * sign),
                    mate: info.score.mate_moves().map(|n| n * sign),
                    nodes: info.nodes,
                    nps: info.nps,
                    time_ms: info.time_ms,
                    pv: board.san_line(&info.pv),
                    pv_uci: info.pv.iter().map(|&m| board.uci_move(m, false)).collect(),
                };
                let json = serde_json::to_string(&line).unwrap_or_default();
                // The page went away: stop thinking for it.
                if tx.blocking_send(("info", json)).is_err() {
                    control.stop();
                }
            }
        });
        let best = result.best.map(|m| board.uci_move(m, false));
        let _ = tx.blocking_send(("done", serde_json::json!({ "bestmove": best }).to_string()));
        // Handed back so that the stream ends only after the searcher is back in the pool: a
        // page that starts the next analysis the moment this one ends must find it free.
        tx
    });
    tokio::spawn(job);
    let stream = ReceiverStream::new(rx).map(move |(kind, data)| {
        let _owned_by_the_stream = &cancel;
        Ok::<Event, std::convert::Infallible>(Event::default().event(kind).data(data))
    });
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

#[derive(Deserialize)]
struct PgnRequest {
    pgn: String,
    /// Milliseconds per position for `analyse-pgn` (default 100, at most 2000).
    movetime: Option<u64>,
}

/// A game read from PGN: its positions and moves, for the page to step through.
#[derive(Serialize)]
struct PgnView {
    tags: Vec<(String, String)>,
    start_fen: String,
    fens: Vec<String>,
    moves: Vec<String>,
    uci_moves: Vec<String>,
    result: String,
}

fn first_game(text: &str) -> Result<PgnGame, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(bad("empty PGN"));
    }
    // A bare FEN is a game of no moves from that position.
    if let Ok(board) = Board::from_fen(text) {
        return Ok(PgnGame::from_game(&Game::new(board)));
    }
    match read_games(text).into_iter().next() {
        // The board plays moves; a pass (`--`) has no place on it.
        Some(Ok(g)) if g.has_null_move() => Err(bad(
            "the game holds a null move (--), which the board cannot show; \
             `fianchetto analyze` reads such games",
        )),
        Some(Ok(g)) => Ok(g),
        Some(Err(e)) => Err(bad(format!("bad PGN: {e}"))),
        None => Err(bad("no game in the PGN")),
    }
}

fn pgn_view(pgn: &PgnGame) -> PgnView {
    let game = pgn.main_line();
    let boards = game.positions();
    PgnView {
        tags: pgn.tags.clone(),
        start_fen: game.start().to_fen(),
        fens: boards.iter().map(|b| b.to_fen()).collect(),
        moves: game.start().san_line(game.moves()),
        uci_moves: boards
            .iter()
            .zip(game.moves())
            .map(|(b, &m)| b.uci_move(m, false))
            .collect(),
        result: pgn.result.clone(),
    }
}

/// `POST /api/pgn {pgn}`: a PGN (or a FEN) read into positions and moves.
async fn read_pgn(body: Result<Json<PgnRequest>, JsonRejection>) -> ApiResult<PgnView> {
    let Json(req) = body?;
    Ok(Json(pgn_view(&first_game(&req.pgn)?)))
}

#[derive(Serialize)]
struct AnalysedView {
    #[serde(flatten)]
    game: PgnView,
    report: crate::analysis::GameReport,
}

/// `POST /api/analyse-pgn {pgn, movetime?}`: every position searched and every move judged
/// as lichess does (`fianchetto analyze`'s engine work).
async fn analyse_pgn(
    State(state): Shared,
    body: Result<Json<PgnRequest>, JsonRejection>,
) -> ApiResult<AnalysedView> {
    let Json(req) = body?;
    let pgn = first_game(&req.pgn)?;
    let plies = pgn.main_line().moves().len();
    if plies > super::MAX_ANALYSED_PLIES {
        return Err(bad(format!(
            "{plies} plies: at most {} are analysed",
            super::MAX_ANALYSED_PLIES
        )));
    }
    let movetime = req.movetime.unwrap_or(100).clamp(10, 2000);
    let permit = try_acquire(&state)?;
    let view = pgn_view(&pgn);
    let interrupt = crate::analysis::run::Interrupt::default();
    // A client that leaves cancels the whole analysis: its searchers stop now and the permit
    // comes back, rather than after up to 600 positions.
    let cancel = {
        let interrupt = interrupt.clone();
        OnDrop::new(move || interrupt.trigger())
    };
    // The pooled searcher the permit stands for: making a new one per request (16 MiB of hash
    // each) left the allocator holding hundreds of MiB after a soak.
    let searcher = take_searcher(&state);
    let report = tokio::task::spawn_blocking(move || {
        let opts = crate::analysis::Options {
            limits: Limits {
                movetime: Some(movetime),
                multipv: 1,
                ..Limits::default()
            },
            threads: 1,
            hash_mib: super::SEARCHER_HASH_MIB,
            net: Some(crate::eval::nnue::default_net()),
            tablebases: None,
        };
        let mut searchers = vec![searcher];
        let infos = crate::analysis::analyse_positions_with(
            &pgn,
            &opts,
            &mut searchers,
            &interrupt.stop,
            &interrupt.controls,
            &|_| {},
        );
        if let Ok(mut pool) = state.searchers.lock() {
            pool.extend(searchers);
        }
        drop(permit);
        crate::analysis::GameReport::new(1, &pgn, &infos, None)
    })
    .await
    .map_err(|_| internal());
    cancel.disarm();
    Ok(Json(AnalysedView {
        game: view,
        report: report?,
    }))
}
