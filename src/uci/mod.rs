//! The UCI protocol: how chess GUIs, python-chess, cutechess/fastchess and lichess-bot drive us.
//!
//! Standard input is read on its own thread so that `isready`, `stop`, `ponderhit` and `quit`
//! are answered while a search runs on a third thread. End of input acts as `quit`.

pub mod command;
pub mod options;

use crate::chess::{Board, Game};
use crate::search::{Bound, Limits, Report, SearchControl, SearchInfo, Searcher};
use command::{parse, Command, GoArgs};
use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The engine's name and version, as `id name` reports it.
pub const NAME: &str = concat!("Fianchetto ", env!("CARGO_PKG_VERSION"));

/// Writes one whole line to stdout and flushes it, so a GUI never sees a partial line.
pub fn send(line: &str) {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    // A closed stdout means the GUI has gone; there is no one left to tell.
    let _ = writeln!(lock, "{line}");
    let _ = lock.flush();
}

/// How `info` lines are written, from the UCI options.
#[derive(Clone, Copy, Debug, Default)]
pub struct LineStyle {
    /// `UCI_Chess960`: castling as king-takes-rook.
    pub chess960: bool,
    /// `UCI_ShowWDL`: `wdl W D L` after the score.
    pub show_wdl: bool,
}

/// Formats a search report as a UCI `info` line; moves are written for the game that starts at
/// `root`.
pub fn info_line(info: &SearchInfo, root: &Board, style: LineStyle) -> String {
    let bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    // A fail-low report may come before any move has a score: then there is no `pv` field at
    // all, since an empty one confuses GUIs and python-chess.
    let pv: String = info
        .pv
        .iter()
        .map(|&m| format!(" {}", root.uci_move(m, style.chess960)))
        .collect();
    let wdl = if style.show_wdl {
        let w = crate::search::wdl::wdl(info.score, crate::search::wdl::material(root));
        format!(" wdl {} {} {}", w.win, w.draw, w.loss)
    } else {
        String::new()
    };
    let pv = if pv.is_empty() {
        pv
    } else {
        format!(" pv{pv}")
    };
    format!(
        "info depth {} seldepth {} multipv {} score {}{wdl}{bound} nodes {} nps {} hashfull {} tbhits {} time {}{pv}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score.uci(),
        info.nodes,
        info.nps,
        info.hashfull,
        info.tbhits,
        info.time_ms,
    )
}

struct Options {
    hash_mib: usize,
    multipv: usize,
    ponder: bool,
    overhead_ms: u64,
    /// The network loaded by `EvalFile` (the embedded one by default).
    net: Arc<crate::eval::nnue::Network>,
    /// Whether the search evaluates with `net` (else the hand-crafted evaluation).
    use_nnue: bool,
    /// `UCI_Chess960`: castling moves are written (and expected) as king-takes-rook.
    chess960: bool,
    /// `UCI_ShowWDL`: info lines carry win/draw/loss chances.
    show_wdl: bool,
    /// `OwnBook`: play from `book` while it has a move.
    own_book: bool,
    /// The Polyglot book of `BookFile`.
    book: Option<crate::chess::polyglot::Book>,
    /// `BookBestMove`: the heaviest book move, not one drawn by weight.
    book_best: bool,
    /// `Skill Level`: 0..=20, 20 being full strength.
    skill: u8,
    /// `UCI_LimitStrength`: play at `elo` (overrides `skill`).
    limit_strength: bool,
    /// `UCI_Elo`.
    elo: u32,
    /// The state of the generator that draws book moves and weakened moves.
    random: u64,
    /// `SyzygyPath`'s tables, if any were found.
    tables: Option<Arc<crate::syzygy::Tablebases>>,
    /// `SyzygyProbeDepth`.
    tb_probe_depth: i32,
    /// `SyzygyProbeLimit`.
    tb_probe_limit: usize,
    /// `Syzygy50MoveRule`.
    tb_rule50: bool,
}

/// The protocol state between commands.
pub struct Engine {
    searcher: Arc<Mutex<Searcher>>,
    control: Arc<SearchControl>,
    game: Game,
    options: Options,
    search: Option<JoinHandle<()>>,
    /// Set by the search thread just before it prints `bestmove`: from then on the GUI may
    /// send the next `go`, even though the thread has not quite finished.
    done: Arc<std::sync::atomic::AtomicBool>,
    /// Whether the running job is `go perft` or `bench` rather than a search.
    tool: bool,
    debug: bool,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// A fresh engine at the start position with default options.
    pub fn new() -> Engine {
        let searcher = Searcher::new(16);
        let control = searcher.control();
        Engine {
            searcher: Arc::new(Mutex::new(searcher)),
            control,
            game: Game::default(),
            options: Options {
                hash_mib: 16,
                multipv: 1,
                ponder: false,
                overhead_ms: 10,
                net: crate::eval::nnue::default_net(),
                use_nnue: true,
                chess960: false,
                show_wdl: false,
                own_book: false,
                book: None,
                book_best: false,
                skill: crate::search::skill::MAX_LEVEL,
                limit_strength: false,
                elo: crate::search::skill::ELO_MAX,
                // Seeded by the clock: games should not all follow the same book line. Odd, so
                // that the xorshift state is never the zero it cannot leave.
                random: crate::rand::clock_random() | 1,
                tables: None,
                tb_probe_depth: crate::search::TablebaseConfig::DEFAULT_PROBE_DEPTH,
                tb_probe_limit: crate::search::TablebaseConfig::DEFAULT_PROBE_LIMIT,
                tb_rule50: true,
            },
            search: None,
            done: Arc::new(std::sync::atomic::AtomicBool::new(true)),
            tool: false,
            debug: false,
        }
    }

    fn searching(&self) -> bool {
        self.search.is_some() && !self.done.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Stops a running search and waits until it has printed its `bestmove`.
    fn stop_and_wait(&mut self) {
        if let Some(h) = self.search.take() {
            self.control.set_pondering(false);
            self.control.stop();
            let _ = h.join();
        }
    }

    /// End of input: a running `go perft` or `bench` finishes and prints its result, because
    /// piping one in (`echo bench | fianchetto`) is how a shell runs it; then it is `quit`,
    /// which stops a search at once, as Stockfish does.
    pub fn end_of_input(&mut self) {
        if self.tool {
            if let Some(h) = self.search.take() {
                let _ = h.join();
            }
        }
        self.handle("quit");
    }

    /// Handles one input line; returns false on `quit`.
    ///
    /// Slightly long: one arm per UCI command, none of them longer than about twenty lines
    /// (`setoption` is a method of its own).
    pub fn handle(&mut self, line: &str) -> bool {
        let cmd = match parse(line) {
            Ok(c) => c,
            Err(e) => {
                send(&format!("info string {e}"));
                return true;
            }
        };
        if self.search.is_some() && !self.searching() {
            // The last search has answered; wait the moment it needs to release the searcher.
            if let Some(h) = self.search.take() {
                let _ = h.join();
            }
        }
        match cmd {
            Command::Empty => {}
            Command::Uci => {
                send(&format!("id name {NAME}"));
                send("id author The Fianchetto developers");
                for option in options::OPTIONS {
                    send(&option.declaration());
                }
                // A tuning build offers every search constant as an option of its own.
                #[cfg(feature = "tune")]
                for t in crate::search::params::TUNABLES {
                    send(&format!(
                        "option name {} type spin default {} min {} max {}",
                        t.name, t.default, t.min, t.max
                    ));
                }
                send("uciok");
            }
            Command::IsReady => send("readyok"),
            Command::Debug(on) => self.debug = on,
            Command::NewGame => {
                self.stop_and_wait();
                self.game = Game::default();
                if let Ok(mut s) = self.searcher.lock() {
                    s.clear();
                }
            }
            Command::Position(game, problem) => {
                if let Some(p) = problem {
                    send(&format!("info string {p}"));
                }
                // A running search has its own copy; the new position is for the next `go`.
                self.game = *game;
            }
            Command::Go(args) => {
                if self.searching() {
                    // Every `go` gets one `bestmove`: the running search gives its own now.
                    send("info string a new go stops the search (or perft or bench) that was running");
                    self.stop_and_wait();
                }
                for what in &args.ignored {
                    send(&format!("info string {what}; ignored"));
                }
                let (legal, bad) = args.legal_searchmoves(self.game.board());
                for m in &bad {
                    send(&format!(
                        "info string searchmoves {m} is not a legal move here; skipped"
                    ));
                }
                if legal.is_empty() && !bad.is_empty() {
                    send("info string no legal move in searchmoves; searching every move");
                }
                self.go(&args);
            }
            Command::Perft(depth) => {
                if self.searching() {
                    send("info string cannot run perft during a search");
                } else {
                    let board = *self.game.board();
                    self.background(move |control| {
                        let stopped = || control.stopped();
                        if crate::tools::perft::divide_report(&board, depth, &stopped, &mut |l| {
                            send(l)
                        })
                        .is_err()
                        {
                            send("info string perft stopped");
                        }
                    });
                }
            }
            Command::Stop => {
                if self.searching() {
                    self.control.set_pondering(false);
                    self.control.stop();
                    if let Some(h) = self.search.take() {
                        let _ = h.join();
                    }
                }
            }
            Command::PonderHit => self.control.set_pondering(false),
            Command::Quit => {
                self.stop_and_wait();
                return false;
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Display => {
                let b = self.game.board();
                send(&format!("{b}"));
                send(&format!("Key: {:016X}", b.hash()));
                let checkers: Vec<String> = b.checkers().map(|s| s.to_string()).collect();
                send(&format!("Checkers: {}", checkers.join(" ")));
            }
            Command::Eval => {
                // The loaded net is shown whether or not the search uses it.
                let net = self.options.net.clone();
                for l in crate::tools::eval::report(self.game.board(), Some(&net)).lines() {
                    send(l);
                }
            }
            Command::Bench(depth, threads) => {
                if self.searching() {
                    send("info string cannot bench during a search");
                } else {
                    // Bench measures the evaluation the search would use now.
                    let config = crate::tools::bench::BenchConfig {
                        depth: depth.unwrap_or(crate::tools::bench::DEFAULT_DEPTH),
                        // `Searcher::set_threads` clamps it.
                        threads: threads.unwrap_or(1),
                        net: self.options.use_nnue.then(|| self.options.net.clone()),
                    };
                    self.background(move |control| {
                        crate::tools::bench::run_until(&config, Some(control), &mut |l| send(l));
                    });
                }
            }
            Command::Spsa => {
                if !cfg!(feature = "tune") {
                    send("info string this build cannot set these; build with make TUNE=1");
                }
                for t in crate::search::params::TUNABLES {
                    send(&t.openbench_line());
                }
            }
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        use options::{Id, Value};
        let Some(option) = options::find(name) else {
            #[cfg(feature = "tune")]
            if set_tunable(name, value) {
                return;
            }
            send(&format!("info string unknown option {name:?}"));
            return;
        };
        if option.not_while_searching && self.searching() {
            send(&format!("info string cannot change {name} during a search"));
            return;
        }
        let value = match option.read(name, value) {
            Ok((value, note)) => {
                if let Some(note) = note {
                    send(&format!("info string {note}"));
                }
                value
            }
            Err(e) => {
                send(&format!("info string {e}"));
                return;
            }
        };
        let result = match (option.id, value) {
            (Id::Hash, Value::Number(v)) => {
                self.options.hash_mib = v as usize;
                match self.searcher.lock() {
                    Ok(mut s) => s.set_hash_size(v as usize).map_err(|e| e.to_string()),
                    Err(_) => Ok(()),
                }
            }
            (Id::ClearHash, _) => {
                if let Ok(mut s) = self.searcher.lock() {
                    s.clear();
                }
                Ok(())
            }
            (Id::Threads, Value::Number(v)) => {
                self.set_threads(v as usize);
                Ok(())
            }
            (Id::EvalFile, Value::Text(path)) => self.set_eval_file(&path),
            (Id::UseNnue, Value::Flag(on)) => {
                self.options.use_nnue = on;
                if let Ok(mut s) = self.searcher.lock() {
                    s.set_net(on.then(|| self.options.net.clone()));
                }
                Ok(())
            }
            (Id::LimitStrength, Value::Flag(on)) => {
                self.options.limit_strength = on;
                Ok(())
            }
            (Id::Elo, Value::Number(v)) => {
                self.options.elo = v as u32;
                Ok(())
            }
            (Id::SkillLevel, Value::Number(v)) => {
                self.options.skill = v as u8;
                Ok(())
            }
            (Id::MultiPv, Value::Number(v)) => {
                self.options.multipv = v as usize;
                Ok(())
            }
            (Id::MoveOverhead, Value::Number(v)) => {
                self.options.overhead_ms = v as u64;
                Ok(())
            }
            (Id::Ponder, Value::Flag(on)) => {
                self.options.ponder = on;
                Ok(())
            }
            // The rules need no switch for Chess960: any FEN's castling rights are read as
            // Chess960 ones where they must be. The option only changes how castling is written.
            (Id::Chess960, Value::Flag(on)) => {
                self.options.chess960 = on;
                Ok(())
            }
            (Id::ShowWdl, Value::Flag(on)) => {
                self.options.show_wdl = on;
                Ok(())
            }
            (Id::OwnBook, Value::Flag(on)) => {
                self.options.own_book = on;
                Ok(())
            }
            (Id::BookBestMove, Value::Flag(on)) => {
                self.options.book_best = on;
                Ok(())
            }
            (Id::SyzygyPath, Value::Text(path)) => self.set_syzygy_path(&path),
            (Id::SyzygyProbeDepth, Value::Number(v)) => {
                self.options.tb_probe_depth = v as i32;
                self.apply_tablebases();
                Ok(())
            }
            (Id::SyzygyProbeLimit, Value::Number(v)) => {
                self.options.tb_probe_limit = v as usize;
                self.apply_tablebases();
                Ok(())
            }
            (Id::Syzygy50MoveRule, Value::Flag(on)) => {
                self.options.tb_rule50 = on;
                self.apply_tablebases();
                Ok(())
            }
            (Id::BookFile, Value::Text(path)) => self.set_book_file(&path),
            (id, value) => {
                // `read` returns the value of the option's own type, which the arms above take.
                debug_assert!(false, "{id:?} read as {value:?}");
                Ok(())
            }
        };
        if let Err(e) = result {
            send(&format!("info string {e}"));
        }
    }

    /// `Threads`: at most what the machine runs at once. More threads than that starve the
    /// main thread, which keeps the time: 1024 threads on 2 cores took 52 s over a 1 s movetime.
    fn set_threads(&mut self, mut n: usize) {
        if let Ok(hw) = std::thread::available_parallelism() {
            if n > hw.get() {
                send(&format!(
                    "info string Threads {n} is more than the {hw} this machine runs at once; using {hw}"
                ));
                n = hw.get();
            }
        }
        if let Ok(mut s) = self.searcher.lock() {
            s.set_threads(n);
        }
    }

    /// `EvalFile`: the embedded net for an empty value or `<embedded>`; a file that cannot be
    /// loaded leaves the net in use.
    fn set_eval_file(&mut self, path: &str) -> Result<(), String> {
        let loaded = if path.is_empty() || path == "<embedded>" {
            Ok(crate::eval::nnue::default_net())
        } else {
            crate::eval::nnue::Network::load(path)
                .map(Arc::new)
                .map_err(|e| format!("EvalFile {path} not loaded: {e}; the previous net stays"))
        };
        loaded.map(|net| {
            let shape = net.describe();
            self.options.net = net;
            if self.options.use_nnue {
                if let Ok(mut s) = self.searcher.lock() {
                    s.set_net(Some(self.options.net.clone()));
                }
            }
            let shown = if path.is_empty() { "<embedded>" } else { path };
            send(&format!("info string EvalFile {shown} loaded ({shape})"));
        })
    }

    /// `SyzygyPath`: no tables for an empty value or `<empty>`; the tables found are said.
    fn set_syzygy_path(&mut self, path: &str) -> Result<(), String> {
        let result = if path.is_empty() || path == "<empty>" {
            self.options.tables = None;
            Ok(())
        } else {
            match crate::syzygy::Tablebases::open(path) {
                Ok((tables, warnings)) => {
                    for w in warnings {
                        send(&format!("info string {w}"));
                    }
                    send(&format!(
                        "info string SyzygyPath {path}: {} tables found, up to {} pieces",
                        tables.len(),
                        tables.max_pieces()
                    ));
                    self.options.tables = (!tables.is_empty()).then(|| Arc::new(tables));
                    Ok(())
                }
                Err(e) => {
                    self.options.tables = None;
                    Err(format!("SyzygyPath not used: {e}"))
                }
            }
        };
        result.map(|()| self.apply_tablebases())
    }

    /// `BookFile`: no book for an empty value or `<empty>`; a file that cannot be read leaves
    /// the book in use.
    fn set_book_file(&mut self, path: &str) -> Result<(), String> {
        if path.is_empty() || path == "<empty>" {
            self.options.book = None;
            Ok(())
        } else {
            match crate::chess::polyglot::Book::load(path) {
                Ok(b) => {
                    send(&format!(
                        "info string BookFile {path} loaded ({} entries)",
                        b.len()
                    ));
                    self.options.book = Some(b);
                    Ok(())
                }
                Err(e) => Err(format!("BookFile not loaded: {e}; the book in use stays")),
            }
        }
    }

    /// Hands the tablebase options to the searcher.
    fn apply_tablebases(&mut self) {
        let config = self
            .options
            .tables
            .as_ref()
            .map(|tables| crate::search::TablebaseConfig {
                tables: Arc::clone(tables),
                probe_depth: self.options.tb_probe_depth,
                probe_limit: self.options.tb_probe_limit,
                rule50: self.options.tb_rule50,
            });
        if let Ok(mut s) = self.searcher.lock() {
            s.tablebases = config;
        }
    }

    /// Runs a long command (perft, bench) off the input thread, so that `isready` is answered
    /// at once and `stop` or `quit` end it; it counts as a search while it runs.
    fn background(&mut self, job: impl FnOnce(Arc<SearchControl>) + Send + 'static) {
        self.tool = true;
        self.control.reset();
        let control = Arc::clone(&self.control);
        let done = Arc::clone(&self.done);
        done.store(false, std::sync::atomic::Ordering::SeqCst);
        self.search = Some(std::thread::spawn(move || {
            job(control);
            done.store(true, std::sync::atomic::Ordering::SeqCst);
        }));
    }

    /// A move from the book for the current position, if `OwnBook` is on and the book has one
    /// that the `go` allows.
    fn book_move(&mut self, args: &GoArgs) -> Option<crate::chess::Move> {
        if !self.options.own_book || args.infinite || args.ponder {
            return None;
        }
        let book = self.options.book.as_ref()?;
        let r = next_random(&mut self.options.random);
        let m = book.pick(self.game.board(), self.options.book_best, r)?;
        let allowed = args.searchmoves.is_empty()
            || args
                .searchmoves
                .iter()
                .any(|s| self.game.board().parse_uci(s).ok() == Some(m));
        allowed.then_some(m)
    }

    fn go(&mut self, args: &GoArgs) {
        if let Some(m) = self.book_move(args) {
            send(&format!(
                "info string book move {}",
                self.game.board().san(m)
            ));
            send(&format!(
                "bestmove {}",
                self.game.board().uci_move(m, self.options.chess960)
            ));
            return;
        }
        let game = self.game.clone();
        let mut limits: Limits = args.limits(game.board(), self.options.multipv);
        if self.options.limit_strength {
            limits.skill = Some(crate::search::skill::level_for_elo(self.options.elo));
            limits.random = next_random(&mut self.options.random);
        } else if self.options.skill < crate::search::skill::MAX_LEVEL {
            limits.skill = Some(f64::from(self.options.skill));
            limits.random = next_random(&mut self.options.random);
        }
        let wait_for_stop = limits.infinite || args.ponder;
        self.tool = false;
        self.control.reset();
        self.control.set_pondering(args.ponder);
        let searcher = Arc::clone(&self.searcher);
        let control = Arc::clone(&self.control);
        let overhead = self.options.overhead_ms;
        let debug = self.debug;
        let chess960 = self.options.chess960;
        let style = LineStyle {
            chess960,
            show_wdl: self.options.show_wdl,
        };
        let root = *game.board();
        let uci = move |m: crate::chess::Move| root.uci_move(m, chess960);
        let done = Arc::clone(&self.done);
        done.store(false, std::sync::atomic::Ordering::SeqCst);
        self.search = Some(std::thread::spawn(move || {
            // A poisoned lock means an earlier search panicked; its tables are still usable.
            let mut s = searcher.lock().unwrap_or_else(|p| p.into_inner());
            s.move_overhead_ms = overhead;
            let result = s.search(&game, &limits, &mut |r| match r {
                Report::Iteration(info) => send(&info_line(info, &root, style)),
                Report::CurrMove { depth, mv, number } => send(&format!(
                    "info depth {depth} currmove {} currmovenumber {number}",
                    uci(*mv)
                )),
            });
            let tables = s.tablebases.as_ref().map(|c| Arc::clone(&c.tables));
            drop(s);
            for problem in tables.map(|t| t.take_problems()).unwrap_or_default() {
                send(&format!("info string {problem}"));
            }
            if result.best.is_none() {
                let score = if result.checkmated { "mate 0" } else { "cp 0" };
                send(&format!("info depth 0 score {score}"));
            } else if debug {
                send(&format!(
                    "info string searched {} nodes to depth {}",
                    result.nodes, result.depth
                ));
            }
            // In infinite and ponder mode bestmove waits for stop (or ponderhit).
            if wait_for_stop {
                while !control.stopped() && (control.pondering() || limits.infinite) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            done.store(true, std::sync::atomic::Ordering::SeqCst);
            match result.best {
                Some(m) => match result.ponder {
                    Some(p) => send(&format!("bestmove {} ponder {}", uci(m), uci(p))),
                    None => send(&format!("bestmove {}", uci(m))),
                },
                None => send("bestmove (none)"),
            }
        }));
    }
}

/// `setoption` for a search constant of a tuning build: sets it (clamped into its range, with
/// an `info string` when it was out) and says `true`, or `false` when `name` is no constant.
#[cfg(feature = "tune")]
fn set_tunable(name: &str, value: Option<&str>) -> bool {
    use crate::search::params::{find, tuned, TUNABLES};
    let Some(i) = find(name) else {
        return false;
    };
    let t = TUNABLES[i];
    match options::read_spin(name, value, t.min.into(), t.max.into()) {
        Ok((v, note)) => {
            tuned::set(i, v);
            if let Some(note) = note {
                send(&format!("info string {note}"));
            }
        }
        Err(e) => send(&format!("info string {e}")),
    }
    true
}

/// The next number of a xorshift64 generator: book and weakened-move draws need no more than
/// a fresh number per move.
fn next_random(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Runs the UCI loop on standard input until `quit` or end of input.
pub fn run() {
    let (tx, rx) = mpsc::channel::<Option<String>>();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    // Bytes that are not UTF-8 make a line the parser refuses with an
                    // `info string`; they must not end the session.
                    let line = String::from_utf8_lossy(&buf);
                    let line = line.trim_end_matches(['\n', '\r']).to_string();
                    if tx.send(Some(line)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = tx.send(None);
    });
    let mut engine = Engine::new();
    while let Ok(msg) = rx.recv() {
        match msg {
            Some(line) => {
                if !engine.handle(&line) {
                    return;
                }
            }
            None => {
                engine.end_of_input();
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Move;
    use crate::search::Score;

    fn report(pv: Vec<Move>, bound: Option<Bound>) -> SearchInfo {
        SearchInfo {
            depth: 7,
            seldepth: 9,
            multipv: 1,
            score: Score(-35),
            bound,
            nodes: 1000,
            nps: 50_000,
            time_ms: 20,
            hashfull: 3,
            tbhits: 0,
            pv,
        }
    }

    #[test]
    fn info_line_has_a_pv_field_only_with_moves() {
        let b = Board::startpos();
        let e4 = b.parse_uci("e2e4").unwrap();
        let e5 = b.make_move(e4).parse_uci("e7e5").unwrap();
        let line = info_line(&report(vec![e4, e5], None), &b, LineStyle::default());
        assert!(line.ends_with(" time 20 pv e2e4 e7e5"), "{line}");
        assert!(line.contains(" score cp -35 "), "{line}");
        let line = info_line(
            &report(Vec::new(), Some(Bound::Upper)),
            &b,
            LineStyle::default(),
        );
        assert!(
            line.ends_with(" upperbound nodes 1000 nps 50000 hashfull 3 tbhits 0 time 20"),
            "{line}"
        );
        assert!(!line.contains(" pv"), "{line}");
        let style = LineStyle {
            show_wdl: true,
            ..LineStyle::default()
        };
        let line = info_line(&report(vec![e4], Some(Bound::Lower)), &b, style);
        // Worked by hand from the model's row for the full board (material 78: a = 147.2,
        // b = 145.7), v = −35: win = 1000 / (1 + e^((147.2 + 35) / 145.7)) = 1000 / (1 +
        // e^1.25051) = 1000 / 4.49214 = 222.6 → 223; loss = 1000 / (1 + e^((147.2 − 35) /
        // 145.7)) = 1000 / (1 + e^0.77008) = 1000 / 3.15993 = 316.5 → 316; draw = 461.
        assert!(
            line.contains(" score cp -35 wdl 223 461 316 lowerbound "),
            "{line}"
        );
    }
}
