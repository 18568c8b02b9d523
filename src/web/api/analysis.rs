//! Analysis: live engine lines over server-sent events, reading a PGN, and whole-game analysis.

use super::*;

#[derive(Deserialize)]
pub(super) struct AnalysisQuery {
    fen: String,
    multipv: Option<usize>,
    movetime: Option<u64>,
}

/// One line of live analysis, White's view.
#[derive(Serialize)]
pub(super) struct AnalysisLine {
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
pub(super) async fn analysis(
    State(state): Shared,
    query: Result<Query<AnalysisQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query?;
    let board = parse_fen(&q.fen)?;
    let multipv = q.multipv.unwrap_or(1).clamp(1, 8);
    let movetime = q
        .movetime
        .unwrap_or(10_000)
        .clamp(50, crate::web::MAX_SEARCH_MS);
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
pub(super) struct PgnRequest {
    pgn: String,
    /// Milliseconds per position for `analyse-pgn` (default 100, at most 2000).
    movetime: Option<u64>,
    /// A depth per position instead (1 to [`MAX_ANALYSIS_DEPTH`]), each search still bounded
    /// by [`crate::web::MAX_SEARCH_MS`].
    depth: Option<u32>,
    /// Which game of the text, from 1 (default 1).
    game: Option<usize>,
}

/// One game of a PGN text, as the page lists them to choose from.
#[derive(Serialize, Clone)]
pub(super) struct GameChoice {
    white: String,
    black: String,
    result: String,
    date: String,
    event: String,
    /// Why the game cannot be read, if it cannot.
    error: Option<String>,
}

/// The most games a text lists to choose from (the rest are counted).
const MAX_CHOICES: usize = 1000;

/// A game read from PGN: its positions and moves, for the page to step through.
#[derive(Serialize)]
pub(super) struct PgnView {
    tags: Vec<(String, String)>,
    start_fen: String,
    fens: Vec<String>,
    moves: Vec<String>,
    uci_moves: Vec<String>,
    result: String,
    /// Every game of the text (up to `MAX_CHOICES`), to choose from when there are several.
    games: Vec<GameChoice>,
    /// How many games the text holds in all.
    game_count: usize,
    /// Which of them this is, from 1.
    game: usize,
}

/// The games of a PGN text (or a bare FEN, a game of no moves) and which one was asked for.
pub(super) struct Chosen {
    game: PgnGame,
    choices: Vec<GameChoice>,
    count: usize,
    number: usize,
}

/// Game `number` (from 1) of `text`, with the list of all its games.
pub(super) fn choose_game(text: &str, number: Option<usize>) -> Result<Chosen, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(bad("empty PGN"));
    }
    // A bare FEN is a game of no moves from that position.
    if let Ok(board) = Board::from_fen(text) {
        return Ok(Chosen {
            game: PgnGame::from_game(&Game::new(board)),
            choices: Vec::new(),
            count: 1,
            number: 1,
        });
    }
    let mut games = read_games(text);
    let count = games.len();
    if count == 0 {
        return Err(bad("no game in the PGN"));
    }
    let number = number.unwrap_or(1);
    if number == 0 || number > count {
        return Err(bad(format!("game {number}: the PGN has {count} games")));
    }
    let choices = games
        .iter()
        .take(MAX_CHOICES)
        .map(|g| match g {
            Ok(g) => {
                let tag = |name| g.tag(name).unwrap_or("?").to_string();
                GameChoice {
                    white: tag("White"),
                    black: tag("Black"),
                    result: g.result.clone(),
                    date: tag("Date"),
                    event: tag("Event"),
                    error: None,
                }
            }
            Err(e) => GameChoice {
                white: "?".into(),
                black: "?".into(),
                result: "*".into(),
                date: "?".into(),
                event: "?".into(),
                error: Some(e.to_string()),
            },
        })
        .collect();
    let game = match games.swap_remove(number - 1) {
        // The board plays moves; a pass (`--`) has no place on it.
        Ok(g) if g.has_null_move() => {
            return Err(bad(
                "the game holds a null move (--), which the board cannot show; \
                 `fianchetto analyze` reads such games",
            ))
        }
        Ok(g) => g,
        Err(e) => return Err(bad(format!("bad PGN: {e}"))),
    };
    Ok(Chosen {
        game,
        choices,
        count,
        number,
    })
}

pub(super) fn pgn_view(chosen: &Chosen) -> PgnView {
    let pgn = &chosen.game;
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
        games: chosen.choices.clone(),
        game_count: chosen.count,
        game: chosen.number,
    }
}

/// `POST /api/pgn {pgn, game?}`: a PGN (or a FEN) read into positions and moves: its game
/// `game` (the first without), with the list of all its games.
pub(super) async fn read_pgn(body: Result<Json<PgnRequest>, JsonRejection>) -> ApiResult<PgnView> {
    let Json(req) = body?;
    Ok(Json(pgn_view(&choose_game(&req.pgn, req.game)?)))
}

#[derive(Serialize)]
pub(super) struct AnalysedView {
    #[serde(flatten)]
    game: PgnView,
    report: crate::analysis::GameReport,
    /// The game as PGN with the analysis in it: evaluations, judgements and the better moves
    /// as comments, NAGs and variations (what `fianchetto analyze` writes).
    annotated_pgn: String,
}

/// Starts the whole-game analysis `req` asks for on a pooled searcher (refused with 429 when
/// none is free): the game's view, the task that ends with the report and the annotated PGN,
/// and a guard whose drop cancels it (its searchers stop and the permit comes back at once).
/// `progress` hears of each position analysed, from the searching thread.
fn start_analysis(
    state: Arc<AppState>,
    req: &PgnRequest,
    progress: Box<dyn Fn(Progress) + Send + Sync>,
) -> Result<Started, ApiError> {
    let chosen = choose_game(&req.pgn, req.game)?;
    let number = chosen.number;
    let pgn = chosen.game.clone();
    let plies = pgn.main_line().moves().len();
    if plies > crate::web::MAX_ANALYSED_PLIES {
        return Err(bad(format!(
            "{plies} plies: at most {} are analysed",
            crate::web::MAX_ANALYSED_PLIES
        )));
    }
    let budget = match req.depth {
        Some(d) if (1..=MAX_ANALYSIS_DEPTH).contains(&d) => Budget::Depth(d),
        Some(d) => {
            return Err(bad(format!(
                "depth {d}: between 1 and {MAX_ANALYSIS_DEPTH}"
            )))
        }
        None => Budget::Movetime(req.movetime.unwrap_or(100).clamp(10, 2000)),
    };
    let permit = try_acquire(&state)?;
    let view = pgn_view(&chosen);
    let interrupt = crate::analysis::run::Interrupt::default();
    let cancel = {
        let interrupt = interrupt.clone();
        OnDrop::new(move || interrupt.trigger())
    };
    // The pooled searcher the permit stands for: making a new one per request (16 MiB of hash
    // each) left the allocator holding hundreds of MiB after a soak.
    let searcher = take_searcher(&state);
    let tablebases = state.tablebase_config();
    let task = tokio::task::spawn_blocking(move || {
        let opts = crate::analysis::Options {
            limits: match budget {
                Budget::Movetime(ms) => Limits {
                    movetime: Some(ms),
                    multipv: 1,
                    ..Limits::default()
                },
                Budget::Depth(d) => Limits {
                    depth: Some(d),
                    movetime: Some(crate::web::MAX_SEARCH_MS),
                    multipv: 1,
                    ..Limits::default()
                },
            },
            threads: 1,
            hash_mib: crate::web::SEARCHER_HASH_MIB,
            net: Some(crate::eval::nnue::default_net()),
            tablebases,
        };
        let total = plies + 1;
        let done = std::sync::atomic::AtomicUsize::new(0);
        let mut searchers = vec![searcher];
        let infos = crate::analysis::analyse_positions_with(
            &pgn,
            &opts,
            &mut searchers,
            &interrupt.stop,
            &interrupt.controls,
            &|ply, info| {
                let now = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress(Progress {
                    done: now,
                    total,
                    ply,
                    cp: info.eval.ceiled_cp(),
                });
            },
        );
        if let Ok(mut pool) = state.searchers.lock() {
            pool.extend(searchers);
        }
        drop(permit);
        let report = crate::analysis::GameReport::new(number, &pgn, &infos, None);
        let label = format!("Fianchetto {} ({budget})", env!("CARGO_PKG_VERSION"));
        let annotated = crate::analysis::annotate(&pgn, &report, &label).to_pgn();
        (report, annotated)
    });
    Ok(Started { view, task, cancel })
}

/// The deepest search per position a whole-game analysis may ask for: depth 22 takes seconds
/// a position on one core, a long game most of an hour.
const MAX_ANALYSIS_DEPTH: u32 = 22;

/// What each position of a whole-game analysis is given.
#[derive(Clone, Copy)]
enum Budget {
    Movetime(u64),
    Depth(u32),
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Budget::Movetime(ms) => write!(f, "{ms} ms a position"),
            Budget::Depth(d) => write!(f, "depth {d}"),
        }
    }
}

/// One position of a whole-game analysis done: a `progress` event of the stream.
#[derive(Serialize)]
struct Progress {
    /// Positions analysed so far, of `total`.
    done: usize,
    total: usize,
    /// The position just analysed: its ply (0 the start) and its evaluation in centipawns,
    /// White's view, capped at ±1000 as the graph draws it (a mate is ±1000).
    ply: usize,
    cp: i32,
}

/// A whole-game analysis under way (see `start_analysis`).
pub(super) struct Started {
    view: PgnView,
    task: tokio::task::JoinHandle<(crate::analysis::GameReport, String)>,
    cancel: OnDrop,
}

/// `POST /api/analyse-pgn {pgn, game?, movetime? | depth?}`: every position searched and every move
/// judged as lichess does (`fianchetto analyze`'s engine work), answered at the end.
pub(super) async fn analyse_pgn(
    State(state): Shared,
    body: Result<Json<PgnRequest>, JsonRejection>,
) -> ApiResult<AnalysedView> {
    let Json(req) = body?;
    // A client that leaves cancels the whole analysis (the guard drops with this future).
    let Started { view, task, cancel } = start_analysis(state, &req, Box::new(|_| {}))?;
    let analysed = task.await.map_err(|_| internal());
    cancel.disarm();
    let (report, annotated_pgn) = analysed?;
    Ok(Json(AnalysedView {
        game: view,
        report,
        annotated_pgn,
    }))
}

/// `POST /api/analyse-pgn/stream {pgn, game?, movetime? | depth?}`: the same analysis as server-sent
/// events: `progress` `{done, total, ply, cp}` as positions are analysed, then one `done` with what
/// `/api/analyse-pgn` answers (or `error`). Closing the stream cancels the analysis.
pub(super) async fn analyse_pgn_stream(
    State(state): Shared,
    body: Result<Json<PgnRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(req) = body?;
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(64);
    let progress_tx = tx.clone();
    let Started { view, task, cancel } = start_analysis(
        state,
        &req,
        Box::new(move |p| {
            // A full channel (a slow reader) skips a progress step: its point of the graph
            // comes with the final report.
            if let Ok(data) = serde_json::to_string(&p) {
                let _ = progress_tx.try_send(Event::default().event("progress").data(data));
            }
        }),
    )?;
    tokio::spawn(async move {
        let event = match task.await {
            Ok((report, annotated_pgn)) => serde_json::to_string(&AnalysedView {
                game: view,
                report,
                annotated_pgn,
            })
            .map_or_else(
                |_| Event::default().event("error").data("internal error"),
                |json| Event::default().event("done").data(json),
            ),
            Err(_) => Event::default().event("error").data("internal error"),
        };
        let _ = tx.send(event).await;
    });
    // The guard lives as long as the stream: a client that goes away cancels the analysis.
    let stream = ReceiverStream::new(rx).map(move |event| {
        let _ = &cancel;
        Ok::<_, std::convert::Infallible>(event)
    });
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}
