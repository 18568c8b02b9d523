//! Games kept by id: new, read, move, take back, the engine's move, and the PGN.

use super::*;

/// A game kept by the server.
#[derive(Serialize)]
pub(super) struct GameView {
    id: u64,
    start_fen: String,
    moves: Vec<String>,
    uci_moves: Vec<String>,
    /// The position before each move and after the last, for stepping through the game.
    fens: Vec<String>,
    white: String,
    black: String,
    time_control: Option<String>,
    #[serde(flatten)]
    position: PositionView,
}

/// The view of stored game `g` (id `id`), whose moves replayed are `game`.
pub(super) fn game_view(id: u64, g: &StoredGame, game: &Game) -> GameView {
    let start = *game.start();
    let mut position = position_view(game);
    if let Some(e) = &g.ended {
        position.legal.clear();
        position.status = Some(e.text.clone());
        position.result = e.result;
    }
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
        fens: game.positions().iter().map(|b| b.to_fen()).collect(),
        white: g.white.clone(),
        black: g.black.clone(),
        time_control: g.time_control.clone(),
        position,
    }
}

#[derive(Deserialize, Default)]
pub(super) struct NewGameRequest {
    fen: Option<String>,
    /// The person's side, `white` (the default) or `black`; the engine has the other.
    human: Option<String>,
    /// The engine's rating, for its name in the PGN (`None`: full strength).
    elo: Option<u32>,
    /// The clock, `SECONDS+INCREMENT` as PGN's `TimeControl` tag (`600+5`).
    time_control: Option<String>,
}

/// A clock as PGN's `TimeControl` writes it: whole seconds, 1 s to 3 h, and an increment of
/// at most 3 minutes.
fn parse_time_control(text: &str) -> Result<String, ApiError> {
    let refuse = || {
        bad(format!(
            "time control {text:?}: write SECONDS+INCREMENT, like 600+5"
        ))
    };
    let (base, inc) = text.trim().split_once('+').ok_or_else(refuse)?;
    let base: u32 = base.parse().map_err(|_| refuse())?;
    let inc: u32 = inc.parse().map_err(|_| refuse())?;
    if !(1..=10_800).contains(&base) || inc > 180 {
        return Err(refuse());
    }
    Ok(format!("{base}+{inc}"))
}

/// `POST /api/games {fen?, human?, elo?, time_control?}`: a new game from the start position
/// or `fen`.
pub(super) async fn new_game(
    State(state): Shared,
    body: Option<Json<NewGameRequest>>,
) -> Result<Json<GameView>, ApiError> {
    let req = body.map(|Json(r)| r).unwrap_or_default();
    let board = match req.fen.as_deref() {
        Some(f) if !f.trim().is_empty() => parse_fen(f)?,
        _ => Board::startpos(),
    };
    let time_control = req
        .time_control
        .as_deref()
        .map(parse_time_control)
        .transpose()?;
    let engine = match req.elo {
        Some(elo) if (skill::ELO_MIN..=skill::ELO_MAX).contains(&elo) => {
            format!("Fianchetto ({elo})")
        }
        Some(elo) => {
            return Err(bad(format!(
                "elo {elo} out of range {}-{}",
                skill::ELO_MIN,
                skill::ELO_MAX
            )))
        }
        None => "Fianchetto".to_string(),
    };
    let (human, white, black) = match req.human.as_deref() {
        None | Some("white") => (crate::chess::Color::White, "You".to_string(), engine),
        Some("black") => (crate::chess::Color::Black, engine, "You".to_string()),
        Some(other) => return Err(bad(format!("human {other:?}: white or black"))),
    };
    let game = Game::new(board);
    let id = {
        let mut next = state.next_id.lock().map_err(|_| internal())?;
        *next += 1;
        *next
    };
    let stored = StoredGame {
        record: CompactGame::of(&game),
        busy: false,
        last_used: Instant::now(),
        human,
        white,
        black,
        time_control,
        ended: None,
    };
    let view = game_view(id, &stored, &game);
    let mut games = state.games.lock().map_err(|_| internal())?;
    if games.len() >= crate::web::MAX_GAMES {
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
    games.insert(id, stored);
    Ok(Json(view))
}

/// Runs `f` on game `id` (refused while the engine thinks for it).
pub(super) fn with_game<T>(
    state: &AppState,
    id: u64,
    f: impl FnOnce(&mut StoredGame) -> Result<T, ApiError>,
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
    f(g)
}

/// `GET /api/games/{id}`.
pub(super) async fn get_game(State(state): Shared, Path(id): Path<u64>) -> ApiResult<GameView> {
    let mut games = state.games.lock().map_err(|_| internal())?;
    let g = games.get_mut(&id).ok_or_else(|| unknown(id))?;
    g.last_used = Instant::now();
    Ok(Json(game_view(id, g, &g.game())))
}

#[derive(Deserialize)]
pub(super) struct GameMoveRequest {
    #[serde(rename = "move")]
    mv: String,
}

/// `POST /api/games/{id}/move {move}`.
pub(super) async fn game_move(
    State(state): Shared,
    Path(id): Path<u64>,
    body: Result<Json<GameMoveRequest>, JsonRejection>,
) -> ApiResult<GameView> {
    let Json(req) = body?;
    with_game(&state, id, |g| {
        let mut game = g.game();
        if let Some(why) = g.over(&game) {
            return Err(bad(format!("the game is over: {why}")));
        }
        game.push_text(req.mv.trim())
            .map_err(|e| bad(format!("illegal move {:?}: {e}", req.mv)))?;
        g.set_game(&game);
        Ok(Json(game_view(id, g, &game)))
    })
}

#[derive(Deserialize, Default)]
pub(super) struct UndoRequest {
    plies: Option<usize>,
}

/// `POST /api/games/{id}/undo {plies?}`: takes back one ply, or `plies`.
pub(super) async fn undo(
    State(state): Shared,
    Path(id): Path<u64>,
    body: Option<Json<UndoRequest>>,
) -> ApiResult<GameView> {
    let plies = body.and_then(|Json(r)| r.plies).unwrap_or(1).min(10_000);
    with_game(&state, id, |g| {
        // A game lost on time stays lost: the clock has spoken.
        if let Some(e) = &g.ended {
            return Err(bad(format!("the game is over: {}", e.text)));
        }
        let mut game = g.game();
        for _ in 0..plies {
            if game.pop().is_none() {
                break;
            }
        }
        g.set_game(&game);
        Ok(Json(game_view(id, g, &game)))
    })
}

#[derive(Deserialize, Default)]
pub(super) struct BotRequest {
    /// Play like a player of this rating (`skill::ELO_MIN..=ELO_MAX`).
    elo: Option<u32>,
    /// Think this long, milliseconds (default 1000).
    movetime: Option<u64>,
}

/// The engine's move and what it thought of it.
#[derive(Serialize)]
pub(super) struct BotView {
    bot: BotMove,
    #[serde(flatten)]
    game: GameView,
}

#[derive(Serialize)]
pub(super) struct BotMove {
    uci: String,
    san: String,
    /// The engine's view, as people read it: `+0.35`, `#3`.
    score: String,
    depth: u32,
}

/// Clears a game's `busy` mark when dropped, however the search for it ends (a panic
/// included), unless it was cleared already through a held lock ([`BusyGuard::clear`]).
pub(super) struct BusyGuard {
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
pub(super) async fn bot_move(
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
    // Checked and marked busy under one lock, so that two requests cannot both start a search.
    let game = with_game(&state, id, |g| {
        let game = g.game();
        if let Some(why) = g.over(&game) {
            return Err(bad(format!("the game is over: {why}")));
        }
        g.busy = true;
        Ok(game)
    })?;
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
            movetime: Some(
                req.movetime
                    .unwrap_or(1000)
                    .clamp(10, crate::web::MAX_SEARCH_MS),
            ),
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
        // The engine's flag may have fallen while it thought: then its move comes too late.
        if let Some(why) = &g.ended {
            return Err(bad(format!("the game is over: {}", why.text)));
        }
        let best = result
            .best
            .ok_or_else(|| bad("no legal move".to_string()))?;
        let mut game = g.game();
        let before = *game.board();
        game.push(best).map_err(|e| bad(e.to_string()))?;
        g.set_game(&game);
        Ok(BotView {
            bot: BotMove {
                uci: before.uci_move(best, false),
                san: before.san(best),
                score: result.score.to_string(),
                depth: result.depth,
            },
            game: game_view(id, g, &game),
        })
    })
    .await;
    cancel.disarm();
    Ok(Json(played??))
}

pub(super) fn set_busy(state: &AppState, id: u64, busy: bool) -> Result<(), ApiError> {
    let mut games = state.games.lock().map_err(|_| internal())?;
    let g = games.get_mut(&id).ok_or_else(|| unknown(id))?;
    g.busy = busy;
    Ok(())
}

#[derive(Deserialize)]
pub(super) struct FlagRequest {
    /// The side whose time ran out: `white` or `black`.
    loser: String,
}

/// `POST /api/games/{id}/flag {loser}`: the page's clock ran out for the side to move. The
/// game ends: a loss, or a draw when the other side cannot mate by any series of legal moves
/// (FIDE 6.9); the PGN then says `[Termination "time forfeit"]`.
pub(super) async fn flag(
    State(state): Shared,
    Path(id): Path<u64>,
    body: Result<Json<FlagRequest>, JsonRejection>,
) -> ApiResult<GameView> {
    let Json(req) = body?;
    let loser = match req.loser.as_str() {
        "white" => crate::chess::Color::White,
        "black" => crate::chess::Color::Black,
        other => return Err(bad(format!("loser {other:?}: white or black"))),
    };
    let mut games = state.games.lock().map_err(|_| internal())?;
    let g = games.get_mut(&id).ok_or_else(|| unknown(id))?;
    g.last_used = Instant::now();
    if g.time_control.is_none() {
        return Err(bad("this game has no clock"));
    }
    let game = g.game();
    if let Some(why) = g.over(&game) {
        return Err(ApiError(
            StatusCode::CONFLICT,
            format!("the game is over: {why}"),
        ));
    }
    let board = *game.board();
    if board.side_to_move() != loser {
        return Err(bad(format!(
            "only the side to move can run out of time ({} is to move)",
            color_name(board.side_to_move())
        )));
    }
    let winner = !loser;
    g.ended = Some(if crate::chess::can_mate(&board, winner) {
        Ended {
            result: win_for(winner),
            text: format!("{} loses on time", loser.name()),
            termination: "time forfeit",
        }
    } else {
        Ended {
            result: "1/2-1/2",
            text: format!(
                "{} ran out of time, but {} cannot mate: draw",
                loser.name(),
                winner.name()
            ),
            termination: "time forfeit",
        }
    });
    // A search still running for this game will find it over and drop its move.
    Ok(Json(game_view(id, g, &game)))
}

/// The result of a win for `winner`.
fn win_for(winner: crate::chess::Color) -> &'static str {
    match winner {
        crate::chess::Color::White => "1-0",
        crate::chess::Color::Black => "0-1",
    }
}

/// The game `id` while it goes on and the engine is not thinking for it, for an end the
/// players decide.
fn open_game(
    games: &mut std::collections::HashMap<u64, StoredGame>,
    id: u64,
) -> Result<(&mut StoredGame, Game), ApiError> {
    let g = games.get_mut(&id).ok_or_else(|| unknown(id))?;
    g.last_used = Instant::now();
    let game = g.game();
    if let Some(why) = g.over(&game) {
        return Err(ApiError(
            StatusCode::CONFLICT,
            format!("the game is over: {why}"),
        ));
    }
    Ok((g, game))
}

/// `POST /api/games/{id}/resign`: the person resigns.
pub(super) async fn resign(State(state): Shared, Path(id): Path<u64>) -> ApiResult<GameView> {
    let mut games = state.games.lock().map_err(|_| internal())?;
    let (g, game) = open_game(&mut games, id)?;
    let human = g.human;
    g.ended = Some(Ended {
        result: win_for(!human),
        text: format!("{} resigns", human.name()),
        termination: "normal",
    });
    Ok(Json(game_view(id, g, &game)))
}

/// `POST /api/games/{id}/abort`: ends a game before each side has moved once, with no result
/// (as lichess aborts); later it must be resigned.
pub(super) async fn abort(State(state): Shared, Path(id): Path<u64>) -> ApiResult<GameView> {
    let mut games = state.games.lock().map_err(|_| internal())?;
    let (g, game) = open_game(&mut games, id)?;
    if game.moves().len() >= 2 {
        return Err(bad(
            "a game can be aborted only before each side has moved; resign instead",
        ));
    }
    g.ended = Some(Ended {
        result: "*",
        text: "Game aborted".to_string(),
        termination: "abandoned",
    });
    Ok(Json(game_view(id, g, &game)))
}

/// A draw offer's answer.
#[derive(Serialize)]
pub(super) struct DrawView {
    accepted: bool,
    #[serde(flatten)]
    game: GameView,
}

/// `POST /api/games/{id}/draw`: the person offers a draw; the engine judges the position with
/// a full-strength search of a fixed budget (`skill::accepts_draw`: it accepts when it is worse
/// by half a pawn, or level after move 30), the same judgement as the terminal game's.
pub(super) async fn offer_draw(
    State(state): Shared,
    Path(id): Path<u64>,
) -> Result<Json<DrawView>, ApiError> {
    let (game, engine) = {
        let mut games = state.games.lock().map_err(|_| internal())?;
        let (g, game) = open_game(&mut games, id)?;
        if g.busy {
            return Err(ApiError(
                StatusCode::CONFLICT,
                "the engine is thinking in this game".into(),
            ));
        }
        // Busy while the engine weighs the offer: no move may change the position it judges.
        g.busy = true;
        (game, !g.human)
    };
    let busy = BusyGuard {
        state: Arc::clone(&state),
        id,
        armed: true,
    };
    let permit = acquire(&state, Duration::from_secs(10)).await?;
    let mut searcher = take_searcher(&state);
    let control = searcher.control();
    let cancel = OnDrop::new(move || control.stop());
    searcher.clear();
    let side_to_move = game.board().side_to_move();
    let plies = game.moves().len();
    let score = run_searcher(Arc::clone(&state), permit, searcher, move |s| {
        s.search(&game, &skill::hint_limits(), &mut |_: &Report| {})
            .score
    })
    .await?;
    cancel.disarm();
    let engine_view = if side_to_move == engine {
        score
    } else {
        -score
    };
    let accepted = skill::accepts_draw(engine_view, plies);
    let mut games = state.games.lock().map_err(|_| internal())?;
    busy.clear(&mut games);
    let (g, game) = open_game(&mut games, id)?;
    if accepted {
        g.ended = Some(Ended {
            result: "1/2-1/2",
            text: "Draw agreed".to_string(),
            termination: "normal",
        });
    }
    Ok(Json(DrawView {
        accepted,
        game: game_view(id, g, &game),
    }))
}

/// `GET /api/games/{id}/pgn`: the game as a PGN file, with the players, the clock, the result
/// and how the game ended.
pub(super) async fn game_pgn(
    State(state): Shared,
    Path(id): Path<u64>,
) -> Result<Response, ApiError> {
    let games = state.games.lock().map_err(|_| internal())?;
    let g = games.get(&id).ok_or_else(|| unknown(id))?;
    let game = g.game();
    let mut pgn = PgnGame::from_game(&game);
    pgn.set_tag("Event", "Fianchetto in the browser");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    pgn.set_tag("Date", &crate::chess::pgn::date_tag(now));
    pgn.set_tag("White", &g.white);
    pgn.set_tag("Black", &g.black);
    let (result, termination) = match (&g.ended, game.outcome()) {
        (Some(e), _) => (e.result, Some(e.termination)),
        (None, Some(o)) => (o.result(), Some("normal")),
        (None, None) => ("*", None),
    };
    pgn.set_tag("Result", result);
    pgn.result = result.to_string();
    pgn.set_tag("TimeControl", g.time_control.as_deref().unwrap_or("-"));
    if let Some(t) = termination {
        pgn.set_tag("Termination", t);
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
