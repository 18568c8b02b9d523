//! The JSON API under `/api/`: the rules of any position, games kept by id (`games`), the
//! engine's moves, live analysis over server-sent events and whole-game analysis of a PGN
//! (`analysis`). This file holds what they share: errors, views, the searcher pool's guards.

mod analysis;
mod games;
mod tablebase;

use analysis::{analyse_pgn, analyse_pgn_stream, analysis, read_pgn};
use games::{
    abort, bot_move, flag, game_move, game_pgn, get_game, new_game, offer_draw, resign, undo,
};

use super::{color_name, AppState, Ended, StoredGame};
use crate::chess::pgn::{read_games, PgnGame};
use crate::chess::{Board, CompactGame, Game};
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

pub(super) type Shared = State<Arc<AppState>>;

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

pub(super) fn bad(msg: impl Into<String>) -> ApiError {
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

pub(super) type ApiResult<T> = Result<Json<T>, ApiError>;

/// The routes of the API.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/position", post(position))
        .route("/api/position/check", post(check_position))
        .route("/api/move", post(play_move))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/move", post(game_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/bot", post(bot_move))
        .route("/api/games/{id}/pgn", get(game_pgn))
        .route("/api/games/{id}/flag", post(flag))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/abort", post(abort))
        .route("/api/games/{id}/draw", post(offer_draw))
        .route("/api/analysis", get(analysis))
        .route("/api/pgn", post(read_pgn))
        .route("/api/analyse-pgn", post(analyse_pgn))
        .route("/api/analyse-pgn/stream", post(analyse_pgn_stream))
        .route("/api/tablebase", get(tablebase::tablebase))
}

/// A legal move as the page needs it.
#[derive(Serialize)]
pub(super) struct LegalMove {
    uci: String,
    san: String,
    from: String,
    to: String,
    promotion: Option<char>,
}

/// A position: whose turn, its legal moves, check, and whether the game is over.
#[derive(Serialize)]
pub(super) struct PositionView {
    fen: String,
    turn: &'static str,
    check: bool,
    legal: Vec<LegalMove>,
    /// `checkmate, white wins`, `stalemate, draw`…, or `null` while the game goes on.
    status: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*`.
    result: &'static str,
}

pub(super) fn position_view(game: &Game) -> PositionView {
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

pub(super) fn parse_fen(fen: &str) -> Result<Board, ApiError> {
    Board::from_fen(fen.trim()).map_err(|e| bad(format!("bad FEN: {e}")))
}

#[derive(Deserialize)]
pub(super) struct PositionRequest {
    fen: String,
}

/// `POST /api/position {fen}`: the position's legal moves and status.
pub(super) async fn position(
    body: Result<Json<PositionRequest>, JsonRejection>,
) -> ApiResult<PositionView> {
    let Json(req) = body?;
    Ok(Json(position_view(&Game::new(parse_fen(&req.fen)?))))
}

/// Whether a position set up in the board editor is legal, and why not.
#[derive(Serialize)]
pub(super) struct PositionCheck {
    legal: bool,
    /// Why the position is not one the rules allow (`White has 2 kings; expected exactly 1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<PositionView>,
}

/// `POST /api/position/check {fen}`: like `/api/position`, but an illegal position is an answer
/// (200, `legal: false` and the reason), not an error: the board editor asks after every change,
/// and most positions on the way to the one wanted are illegal.
pub(super) async fn check_position(
    body: Result<Json<PositionRequest>, JsonRejection>,
) -> ApiResult<PositionCheck> {
    let Json(req) = body?;
    Ok(Json(match Board::from_fen(req.fen.trim()) {
        Ok(b) => PositionCheck {
            legal: true,
            error: None,
            position: Some(position_view(&Game::new(b))),
        },
        Err(e) => PositionCheck {
            legal: false,
            error: Some(e.to_string()),
            position: None,
        },
    }))
}

#[derive(Deserialize)]
pub(super) struct MoveRequest {
    fen: String,
    #[serde(rename = "move")]
    mv: String,
}

/// A move just played, and the position after it.
#[derive(Serialize)]
pub(super) struct MoveView {
    san: String,
    uci: String,
    #[serde(flatten)]
    position: PositionView,
}

/// `POST /api/move {fen, move}` (UCI or SAN): the position after the move.
pub(super) async fn play_move(
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> ApiResult<MoveView> {
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

pub(super) fn internal() -> ApiError {
    ApiError(StatusCode::INTERNAL_SERVER_ERROR, "internal error".into())
}

pub(super) fn unknown(id: u64) -> ApiError {
    ApiError(StatusCode::NOT_FOUND, format!("no game {id}"))
}

/// Every pooled searcher is busy, answered with `status`.
pub(super) fn all_busy(status: StatusCode) -> ApiError {
    ApiError(status, "every engine is busy; try again".into())
}

/// Takes a pooled searcher (waiting up to `wait` for a free one).
pub(super) async fn acquire(
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
pub(super) fn try_acquire(
    state: &Arc<AppState>,
) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    Arc::clone(&state.permits)
        .try_acquire_owned()
        .map_err(|_| all_busy(StatusCode::TOO_MANY_REQUESTS))
}

/// Runs a closure when dropped, unless disarmed: a request's future owns one, so that when the
/// client goes away (hyper drops the future) the work done for it is cancelled at once.
pub(super) struct OnDrop(Option<Box<dyn FnOnce() + Send>>);

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
pub(super) fn take_searcher(state: &AppState) -> Searcher {
    // A permit guarantees a pooled searcher; one is made if a panic ever lost one.
    let searcher = state
        .searchers
        .lock()
        .ok()
        .and_then(|mut s| s.pop())
        .unwrap_or_else(|| state.new_searcher());
    searcher.control().reset();
    searcher
}

/// Runs `f` with `searcher` on a blocking thread, then puts the searcher back in the pool and
/// frees the permit, on that thread: whether or not anyone still awaits the result. A panic
/// in `f` loses the searcher (it is remade on demand) and answers 500.
pub(super) async fn run_searcher<T: Send + 'static>(
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
