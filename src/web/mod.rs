//! `fianchetto serve`: play and analyse in a browser, on the user's own machine.
//!
//! An axum server with a JSON API under `/api/` and a one-page app whose files are embedded
//! in the binary (`assets/`). The rules stay here: the page asks for legal moves and sends
//! moves; the engine runs on the one `Searcher` API, from a fixed pool of searchers (one per
//! core, 16 MiB of hash each), so that however many tabs ask, the machine runs at most that
//! many searches, each bounded in time. Analysis streams over server-sent events.

mod api;
mod assets;

use crate::chess::{Color, Game};
use crate::search::Searcher;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;
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
    game: Game,
    /// A search runs for this game (one at a time).
    busy: bool,
    last_used: Instant,
}

/// What every request shares.
pub struct AppState {
    games: Mutex<HashMap<u64, StoredGame>>,
    next_id: Mutex<u64>,
    /// Idle searchers; a search takes one with a permit and puts it back.
    searchers: Mutex<Vec<Searcher>>,
    /// One permit per pooled searcher.
    permits: Arc<Semaphore>,
}

impl AppState {
    /// A state with `engines` searchers (at least one).
    pub fn new(engines: usize) -> Arc<AppState> {
        let engines = engines.max(1);
        Arc::new(AppState {
            games: Mutex::new(HashMap::new()),
            next_id: Mutex::new(0),
            searchers: Mutex::new(
                (0..engines)
                    .map(|_| Searcher::new(SEARCHER_HASH_MIB))
                    .collect(),
            ),
            permits: Arc::new(Semaphore::new(engines)),
        })
    }
}

/// Whose turn, as the page writes it.
fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The app's router, with its state (exposed for tests that call it without a network).
pub fn router(state: Arc<AppState>) -> axum::Router {
    api::routes()
        .merge(assets::routes())
        .fallback(assets::not_found)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// Serves the app on `host:port` until the process ends; prints the URL, and opens it in a
/// browser when `open` is set.
pub fn serve(host: &str, port: u16, open: bool) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server runtime: {e}"))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((host, port))
            .await
            .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot read the bound address: {e}"))?;
        let url = format!("http://{addr}/");
        println!("Fianchetto is at {url} (Ctrl-C stops it)");
        if !addr.ip().is_loopback() {
            println!("warning: listening beyond this machine ({host}); anyone who can reach it can use the engine");
        }
        if open {
            open_browser(&url);
        }
        let engines = std::thread::available_parallelism().map_or(1, |n| n.get());
        let app = router(AppState::new(engines));
        axum::serve(listener, app)
            .await
            .map_err(|e| format!("server error: {e}"))
    })
}

/// Asks the desktop to open `url`; failing to is not an error (the URL is printed).
fn open_browser(url: &str) {
    let cmd = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if std::process::Command::new(cmd).arg(url).spawn().is_err() {
        println!("(could not open a browser: open the address above yourself)");
    }
}
