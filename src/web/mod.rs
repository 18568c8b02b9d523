//! `fianchetto serve`: play and analyse in a browser, on the user's own machine.
//!
//! An axum server with a JSON API under `/api/` and a one-page app whose files are embedded
//! in the binary (`assets/`). The rules stay here: the page asks for legal moves and sends
//! moves; the engine runs on the one `Searcher` API, from a fixed pool of searchers (one per
//! core, 16 MiB of hash each), so that however many tabs ask, the machine runs at most that
//! many searches, each bounded in time. Analysis streams over server-sent events.

mod api;
mod assets;

use crate::chess::{Color, CompactGame, Game};
use crate::search::Searcher;
use crate::syzygy::Tablebases;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Games kept at most; the least recently used goes when a new one would exceed this.
pub const MAX_GAMES: usize = 1000;
/// Largest request body accepted (a long PGN fits many times over).
pub const MAX_BODY: usize = 256 * 1024;
/// Hash table of each pooled searcher, MiB.
const SEARCHER_HASH_MIB: usize = 16;
/// The longest a single search may think, milliseconds (analysis streams included).
pub const MAX_SEARCH_MS: u64 = 60_000;
/// Positions of a PGN analysed at most.
pub const MAX_ANALYSED_PLIES: usize = 600;

/// A game kept by the server.
struct StoredGame {
    /// The moves, replayed when used: a thousand stored games stay small (issue 26's soak).
    record: CompactGame,
    /// A search runs for this game (one at a time).
    busy: bool,
    last_used: Instant,
    /// The person's side; the engine plays the other.
    human: Color,
    /// The players as the PGN's `White` and `Black` tags name them.
    white: String,
    black: String,
    /// The clock as PGN's `TimeControl` tag writes it (`600+5`), when the game has one.
    time_control: Option<String>,
    /// An end the rules do not see: a flag fall (the page keeps the clocks), a resignation, a
    /// draw agreed, an abort.
    ended: Option<Ended>,
}

/// A game ended by the players rather than the rules.
struct Ended {
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
    result: &'static str,
    /// What the page shows: `White loses on time`.
    text: String,
    /// PGN's `Termination` tag: `time forfeit`, `normal` (resigned, draw agreed), `abandoned`.
    termination: &'static str,
}

impl StoredGame {
    /// The game, every position replayed.
    fn game(&self) -> Game {
        self.record.replay()
    }

    /// Keeps `game` as this game's moves.
    fn set_game(&mut self, game: &Game) {
        self.record = CompactGame::of(game);
    }

    /// Why no more moves may be played in `game` (this one's, replayed), if it is over.
    fn over(&self, game: &Game) -> Option<String> {
        match (&self.ended, game.outcome()) {
            (Some(e), _) => Some(e.text.clone()),
            (None, Some(o)) => Some(o.to_string()),
            (None, None) => None,
        }
    }
}

/// What every request shares.
pub struct AppState {
    games: Mutex<HashMap<u64, StoredGame>>,
    next_id: Mutex<u64>,
    /// Idle searchers; a search takes one with a permit and puts it back.
    searchers: Mutex<Vec<Searcher>>,
    /// One permit per pooled searcher.
    permits: Arc<Semaphore>,
    /// Endgame tables (`serve --syzygy`): the engine plays and judges by them, and the page
    /// shows them.
    tablebases: Option<Arc<Tablebases>>,
    /// Probes for the tablebase panel run one at a time: each reads the tables for every legal
    /// move on the async thread that serves it, and one at a time leaves the other worker free.
    tablebase_turn: Semaphore,
}

impl AppState {
    /// A state with `engines` searchers (at least one) and no tablebases.
    pub fn new(engines: usize) -> Arc<AppState> {
        AppState::with_tablebases(engines, None)
    }

    /// A state with `engines` searchers (at least one) that use `tablebases`.
    pub fn with_tablebases(engines: usize, tablebases: Option<Arc<Tablebases>>) -> Arc<AppState> {
        let mut state = AppState {
            games: Mutex::new(HashMap::new()),
            next_id: Mutex::new(0),
            searchers: Mutex::new(Vec::new()),
            permits: Arc::new(Semaphore::new(engines.max(1))),
            tablebases,
            tablebase_turn: Semaphore::new(1),
        };
        let pool = (0..engines.max(1)).map(|_| state.new_searcher()).collect();
        state.searchers = Mutex::new(pool);
        Arc::new(state)
    }

    /// A searcher for the pool, using the server's tablebases.
    fn new_searcher(&self) -> Searcher {
        let mut s = Searcher::new(SEARCHER_HASH_MIB);
        s.tablebases = self.tablebase_config();
        s
    }

    /// The tablebases as a search uses them (the UCI options' defaults).
    fn tablebase_config(&self) -> Option<crate::search::TablebaseConfig> {
        self.tablebases
            .as_ref()
            .map(|t| crate::search::TablebaseConfig::new(Arc::clone(t)))
    }
}

/// Whose turn, as the page writes it.
fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The longest a client may take to send a request's headers; a connection that sends none
/// for this long (idle keep-alive included) is closed, so slow sockets cannot pile up.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections served at once; more wait in the kernel's accept queue.
const MAX_CONNECTIONS: usize = 512;

/// The app's router, with its state (exposed for tests that call it without a network).
pub fn router(state: Arc<AppState>) -> axum::Router {
    hardened(
        api::routes()
            .merge(assets::routes())
            .fallback(assets::not_found)
            .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
            .layer(axum::middleware::from_fn(large_bodies_in_turn))
            .with_state(state),
    )
}

/// A body larger than this is a large one (a PGN of a few long games; a move is 30 bytes).
const LARGE_BODY: u64 = 32 * 1024;
/// Requests with a large body handled at once; more wait their turn. Fifty clients sending
/// 160 KB PGNs at once held 25-40 MB in buffers and copies, which glibc's allocator then kept
/// (+18 MiB resident after 40 s of it); four at a time keep that to a few MB. Two searchers
/// can hold a turn for a whole-game analysis and two more are left for reading PGNs.
const LARGE_BODIES_AT_ONCE: usize = 4;

/// Lets a request with a large body (or one of unknown length) through when one of
/// [`LARGE_BODIES_AT_ONCE`] turns is free, and holds its turn until its answer is made.
async fn large_bodies_in_turn(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    static TURNS: Semaphore = Semaphore::const_new(LARGE_BODIES_AT_ONCE);
    let length = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    let large = match length {
        Some(n) => n > LARGE_BODY,
        None => req.headers().contains_key(header::TRANSFER_ENCODING),
    };
    if !large {
        return next.run(req).await;
    }
    // `expect`: the semaphore is never closed.
    let _turn = TURNS.acquire().await.expect("the turns are never closed");
    next.run(req).await
}

/// The layers every response goes through: an error of any origin (a handler, an extractor's
/// rejection, a method not allowed) is answered as `{"error": …}`, and a panic in a handler
/// becomes a 500 with a JSON error while the server goes on serving. The release build unwinds
/// on panic (`Cargo.toml`) so that this layer can catch one; public so that tests can put a
/// panicking route behind the same layers.
pub fn hardened(router: axum::Router) -> axum::Router {
    router
        .layer(axum::middleware::map_response(errors_as_json))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            |_: Box<dyn std::any::Any + Send>| {
                api::ApiError::internal("internal error (the request was abandoned)")
                    .into_response()
            },
        ))
}

/// Rewrites an error response that is not JSON (extractors and the router answer plain text)
/// as `{"error": "<its text>"}`, keeping its status and headers (`Allow` for a 405).
async fn errors_as_json(res: Response) -> Response {
    let status = res.status();
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return res;
    }
    let (parts, body) = res.into_parts();
    // Rejection texts are a line or two; anything longer is cut.
    let text = axum::body::to_bytes(body, 4096)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status
            .canonical_reason()
            .unwrap_or("error")
            .to_ascii_lowercase()
    } else {
        text
    };
    let mut out = (status, axum::Json(serde_json::json!({ "error": message }))).into_response();
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.headers_mut().insert(name.clone(), value.clone());
        }
    }
    out
}

/// The `serve` command's flags.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeFlags {
    /// Address to listen on; the default keeps the page on this machine.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port (0: any free one).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Syzygy tablebase folders (`:`-separated): the engine plays and judges endgames by them,
    /// and the analysis board shows each move's result.
    #[arg(long)]
    pub syzygy: Option<String>,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The async runtime could not be built.
    #[error("cannot start the server runtime: {0}")]
    Runtime(std::io::Error),
    /// The address could not be listened on (taken, not ours, not an address).
    #[error("cannot listen on {host}:{port}: {source}")]
    Listen {
        /// The host asked for.
        host: String,
        /// The port asked for.
        port: u16,
        /// The system's error.
        source: std::io::Error,
    },
    /// The bound address could not be read back.
    #[error("cannot read the bound address: {0}")]
    Address(std::io::Error),
    /// `--syzygy` could not be opened.
    #[error("--syzygy: {0}")]
    Tables(#[from] crate::syzygy::PathError),
    /// `--syzygy` names folders without a table.
    #[error("--syzygy {0}: no tables found")]
    NoTables(String),
}

/// The `serve` command: serves until the process ends; the URL and notices go to `out`.
pub fn command(
    flags: ServeFlags,
    out: &mut dyn FnMut(&str),
) -> Result<crate::command::Outcome, ServeError> {
    serve(&flags, out)?;
    Ok(crate::command::Outcome::Success)
}

/// Serves the app on `flags.host:flags.port` until the process ends; says the URL and
/// warnings through `out`, and opens it in a browser when `flags.open` is set.
pub fn serve(flags: &ServeFlags, out: &mut dyn FnMut(&str)) -> Result<(), ServeError> {
    let (host, port) = (flags.host.as_str(), flags.port);
    let tablebases = match &flags.syzygy {
        None => None,
        Some(path) => {
            let (tables, warnings) = Tablebases::open(path)?;
            for w in warnings {
                out(&format!("warning: {w}"));
            }
            if tables.is_empty() {
                return Err(ServeError::NoTables(path.clone()));
            }
            out(&format!(
                "Tablebases: {} tables, up to {} pieces",
                tables.len(),
                tables.max_pieces()
            ));
            Some(Arc::new(tables))
        }
    };
    let engines = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Blocking threads run searches, and each search holds one of `engines` permits; one more
    // covers the moment a finished search's thread has not yet returned. Without a cap tokio
    // keeps up to 512 such threads, and each gives glibc another arena that keeps its peak:
    // the 10-minute soak's resident memory grew by a quarter.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(engines + 1)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((host, port))
            .await
            .map_err(|source| ServeError::Listen {
                host: host.to_string(),
                port,
                source,
            })?;
        let addr = listener.local_addr().map_err(ServeError::Address)?;
        let url = format!("http://{addr}/");
        out(&format!("Fianchetto is at {url} (Ctrl-C stops it)"));
        if !addr.ip().is_loopback() {
            out(&format!("warning: listening beyond this machine ({host}); anyone who can reach it can use the engine"));
        }
        if flags.open && !open_browser(&url) {
            out("(could not open a browser: open the address above yourself)");
        }
        let app = router(AppState::with_tablebases(engines, tablebases));
        accept_loop(listener, app).await;
        Ok(())
    })
}

/// Serves connections until the process ends. Each connection is HTTP/1.1 with a deadline for
/// its headers ([`HEADER_TIMEOUT`]); at most [`MAX_CONNECTIONS`] are served at once. When a
/// client goes away, hyper drops its request's future, which cancels the work done for it.
async fn accept_loop(listener: tokio::net::TcpListener, app: axum::Router) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            return;
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of file descriptors or a connection reset before it was accepted: the
                // listener itself is fine; wait a moment rather than spin.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT);
            // An error here is one connection's (a reset, a timeout): nothing to report.
            let _ = http
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
            drop(slot);
        });
    }
}

/// Asks the desktop to open `url`; whether it could (failing to is not an error: the URL has
/// been said).
fn open_browser(url: &str) -> bool {
    let cmd = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    std::process::Command::new(cmd).arg(url).spawn().is_ok()
}
