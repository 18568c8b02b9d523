//! `datagen`: self-play games for training the evaluation, written a whole game at a time.
//!
//! Game `i` of a run with seed `s` is fully determined by `(s, i)`: its opening comes from a
//! random generator seeded with both, and every search starts from a cleared searcher with a
//! fixed node limit. Games are written in index order, and a run on a file that already holds
//! `k` games starts at game `k`, so an interrupted run resumed with the same flags produces the
//! same file as one that was never interrupted.

use super::data::{decode_games, is_text, GameRecord, Sample, WhiteResult};
use crate::chess::{Board, Color, Game, Outcome};
use crate::rand::SplitMix;
use crate::search::score::MATE;
use crate::search::{Limits, Searcher};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

/// What a datagen run does.
#[derive(Clone, Debug)]
pub struct DatagenArgs {
    /// The file games are appended to (`.txt`: the text form, else binary).
    pub out: String,
    /// Worker threads, each with its own searcher.
    pub threads: usize,
    /// Node limit per move.
    pub nodes: u64,
    /// Stop after this many new positions (kept ones).
    pub positions: Option<u64>,
    /// Stop after this many new games.
    pub games: Option<u64>,
    /// The run's seed.
    pub seed: u64,
    /// Random legal plies played before the game proper (default 8 without a book, 0 with one).
    pub random_plies: u32,
    /// Start positions to draw openings from (empty: the standard start position).
    pub openings: Vec<Board>,
    /// A Polyglot book followed from the start position, moves drawn by weight, until it has
    /// no move; the random plies come after it.
    pub book: Option<std::sync::Arc<crate::chess::polyglot::Book>>,
    /// Transposition table per thread, MiB.
    pub hash_mib: usize,
    /// The network the games are played with; `None`: the hand-crafted evaluation.
    pub net: Option<std::sync::Arc<crate::eval::nnue::Network>>,
}

/// The adjudication and opening rules (from the issue and `../shared/data/tuning/README.md`).
pub mod rules {
    /// An opening whose first search scores beyond this is unbalanced and dropped.
    pub const OPENING_MAX_SCORE: i32 = 400;
    /// A win is adjudicated once |score| stays at least this high...
    pub const WIN_SCORE: i32 = 2000;
    /// ...for this many plies in a row.
    pub const WIN_PLIES: u32 = 4;
    /// A draw is adjudicated once |score| stays at most this...
    pub const DRAW_SCORE: i32 = 10;
    /// ...for this many plies in a row...
    pub const DRAW_PLIES: u32 = 12;
    /// ...after this ply of the game.
    pub const DRAW_FROM_PLY: u32 = 80;
    /// A game this long is scored a draw.
    pub const MAX_PLIES: u32 = 400;
}

fn game_ply(b: &Board) -> u32 {
    2 * (b.fullmove_number() as u32).saturating_sub(1) + (b.side_to_move() == Color::Black) as u32
}

/// What became of one game.
#[derive(Debug)]
pub enum Played {
    /// The game, finished.
    Game(GameRecord),
    /// No balanced opening in 1000 tries (deterministic for the index).
    NoOpening,
    /// Stopped before the end: nothing after it may be written, or the order would change.
    Interrupted,
}

/// A start position drawn with `rng`: one of `openings` (none: the standard start position),
/// then `book`'s moves drawn by weight while it has one, then `random_plies` random legal
/// moves; `None` when a random ply found no legal move (the caller draws again).
pub fn pick_opening(
    openings: &[Board],
    book: Option<&crate::chess::polyglot::Book>,
    random_plies: u32,
    rng: &mut SplitMix,
) -> Option<Board> {
    let mut board = if openings.is_empty() {
        Board::startpos()
    } else {
        openings[rng.below(openings.len() as u64) as usize]
    };
    if let Some(book) = book {
        // A book line ends at the book's last move for it; `MAX_PLIES` only guards a book
        // that cycles.
        for _ in 0..rules::MAX_PLIES {
            match book.pick(&board, false, rng.next_u64()) {
                Some(m) => board.play(m),
                None => break,
            }
        }
    }
    for _ in 0..random_plies {
        let moves = board.legal_moves();
        if moves.is_empty() {
            return None;
        }
        board.play(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
    }
    Some(board)
}

/// Plays game number `index` of the run.
pub fn play_game(
    searcher: &mut Searcher,
    args: &DatagenArgs,
    index: u64,
    stop: &AtomicBool,
) -> Played {
    let mut rng = SplitMix::new(args.seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let limits = Limits {
        nodes: Some(args.nodes.max(1)),
        multipv: 1,
        ..Limits::default()
    };
    'opening: for _attempt in 0..1000 {
        if stop.load(Ordering::Relaxed) {
            return Played::Interrupted;
        }
        let Some(board) = pick_opening(
            &args.openings,
            args.book.as_deref(),
            args.random_plies,
            &mut rng,
        ) else {
            continue 'opening;
        };
        let mut game = Game::new(board);
        if game.outcome().is_some() {
            continue;
        }
        searcher.clear();
        let mut plies = Vec::new();
        let (mut wins, mut losses, mut draws) = (0u32, 0u32, 0u32);
        let result = loop {
            if stop.load(Ordering::Relaxed) {
                return Played::Interrupted;
            }
            if let Some(outcome) = game.outcome() {
                break match outcome {
                    Outcome::Checkmate {
                        winner: Color::White,
                    } => WhiteResult::Win,
                    Outcome::Checkmate {
                        winner: Color::Black,
                    } => WhiteResult::Loss,
                    _ => WhiteResult::Draw,
                };
            }
            let b = *game.board();
            if game_ply(&b) >= rules::MAX_PLIES {
                break WhiteResult::Draw;
            }
            let r = searcher.search(&game, &limits, &mut |_| {});
            // The position has a legal move (no outcome above), so the search returns one
            // unless it was stopped.
            let Some(best) = r.best else {
                return Played::Interrupted;
            };
            let stm_score = r.score.0.clamp(-MATE, MATE);
            let white = if b.side_to_move() == Color::White {
                stm_score
            } else {
                -stm_score
            };
            if plies.is_empty() && white.abs() > rules::OPENING_MAX_SCORE {
                continue 'opening;
            }
            // |MATE| = 32000 fits in an i16.
            plies.push((best, white as i16));
            if white >= rules::WIN_SCORE {
                wins += 1;
                losses = 0;
            } else if white <= -rules::WIN_SCORE {
                losses += 1;
                wins = 0;
            } else {
                wins = 0;
                losses = 0;
            }
            if game_ply(&b) >= rules::DRAW_FROM_PLY && white.abs() <= rules::DRAW_SCORE {
                draws += 1;
            } else {
                draws = 0;
            }
            if game.push(best).is_err() {
                // The search's move is legal in the position it searched.
                debug_assert!(false, "search returned an illegal move");
                return Played::Interrupted;
            }
            if wins >= rules::WIN_PLIES {
                break WhiteResult::Win;
            }
            if losses >= rules::WIN_PLIES {
                break WhiteResult::Loss;
            }
            if draws >= rules::DRAW_PLIES {
                break WhiteResult::Draw;
            }
        };
        return Played::Game(GameRecord {
            start: board,
            plies,
            result,
        });
    }
    Played::NoOpening
}

/// Why a datagen run stopped short.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// The output file could not be read, written or repaired.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The output file could not be read.
    #[error(transparent)]
    Read(#[from] crate::files::FileError),
    /// The output file holds something that is not game records.
    #[error(transparent)]
    Data(#[from] super::data::DataError),
    /// The text form cannot be continued.
    #[error("{0} already holds text data; text output does not resume (write binary and convert)")]
    TextResume(String),
}

impl DatagenError {
    fn io(path: &str, source: std::io::Error) -> DatagenError {
        DatagenError::Io {
            path: path.to_string(),
            source,
        }
    }
}

/// Counts the whole games already in `path`, cutting off a torn last record (a run killed while
/// writing); returns the count.
fn prepare_output(path: &str, out: &mut dyn FnMut(&str)) -> Result<u64, DatagenError> {
    let bytes = match crate::files::read_bounded(std::path::Path::new(path), u64::MAX, "data file")
    {
        Ok(b) => b,
        Err(crate::files::FileError::Io { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            return Ok(0)
        }
        Err(e) => return Err(e.into()),
    };
    if is_text(path) {
        // The text form has no game boundaries: a resumed text run starts after the last game
        // whose positions it finds, which it cannot know, so text output never resumes.
        if !bytes.is_empty() {
            return Err(DatagenError::TextResume(path.to_string()));
        }
        return Ok(0);
    }
    let (games, bad) = decode_games(&bytes, path, true)?;
    if bad > 0 {
        let mut good = Vec::new();
        for g in &games {
            g.encode(&mut good);
        }
        out(&format!(
            "{path}: dropping a torn record after {} games ({} bytes)",
            games.len(),
            bytes.len() - good.len()
        ));
        std::fs::write(path, &good).map_err(|e| DatagenError::io(path, e))?;
    }
    Ok(games.len() as u64)
}

/// What a run produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatagenSummary {
    /// Games written by this run.
    pub games: u64,
    /// Positions (as the trainer filters them) in those games.
    pub positions: u64,
    /// Games in the file before this run.
    pub resumed_from: u64,
}

/// Runs datagen until the target is reached or `stop` is set; lines go to `out`, and a status
/// line (games, positions, rate, ETA) to `progress` about once a second and once at the end.
pub fn run(
    args: &DatagenArgs,
    stop: Arc<AtomicBool>,
    out: &mut dyn FnMut(&str),
    progress: &mut dyn FnMut(&str),
) -> Result<DatagenSummary, DatagenError> {
    let first = prepare_output(&args.out, out)?;
    if first > 0 {
        out(&format!(
            "{}: {first} games already there; continuing from game {first}",
            args.out
        ));
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| DatagenError::io(&args.out, e))?;
    let text = is_text(&args.out);
    let next = Arc::new(AtomicU64::new(first));
    let last = args.games.map(|g| first.saturating_add(g));
    let (tx, rx) = mpsc::channel::<(u64, Played)>();
    let threads = args.threads.clamp(1, 256);
    let mut handles = Vec::new();
    for _ in 0..threads {
        let (tx, next, stop, args) = (tx.clone(), next.clone(), stop.clone(), args.clone());
        handles.push(std::thread::spawn(move || {
            let mut searcher = Searcher::new(args.hash_mib.clamp(1, 4096));
            searcher.set_net(args.net.clone());
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if stop.load(Ordering::Relaxed) || last.is_some_and(|l| i >= l) {
                    break;
                }
                let g = play_game(&mut searcher, &args, i, &stop);
                if tx.send((i, g)).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);

    let start = Instant::now();
    let mut summary = DatagenSummary {
        resumed_from: first,
        ..DatagenSummary::default()
    };
    let mut pending: BTreeMap<u64, Played> = BTreeMap::new();
    let mut want = first;
    let mut last_print = Instant::now();
    let mut result = Ok(());
    let mut writing = true;
    for (i, g) in rx {
        pending.insert(i, g);
        while let Some(g) = pending.remove(&want).filter(|_| writing) {
            want += 1;
            let g = match g {
                Played::Game(g) => g,
                Played::NoOpening => continue,
                Played::Interrupted => {
                    writing = false;
                    break;
                }
            };
            let samples: Vec<Sample> = g.samples();
            let mut bytes = Vec::new();
            if text {
                for s in &samples {
                    bytes.extend_from_slice(s.to_text().as_bytes());
                    bytes.push(b'\n');
                }
            } else {
                g.encode(&mut bytes);
            }
            // One write a game, so that a kill loses at most the games in flight.
            if let Err(e) = file.write_all(&bytes).and_then(|()| file.flush()) {
                result = Err(DatagenError::io(&args.out, e));
                stop.store(true, Ordering::Relaxed);
                writing = false;
                break;
            }
            summary.games += 1;
            summary.positions += samples.len() as u64;
            if args.positions.is_some_and(|p| summary.positions >= p) {
                stop.store(true, Ordering::Relaxed);
                writing = false;
            }
        }
        if last_print.elapsed().as_secs_f64() >= 1.0 {
            last_print = Instant::now();
            progress(&progress_line(args, &summary, start));
        }
    }
    for h in handles {
        let _ = h.join();
    }
    progress(&progress_line(args, &summary, start));
    result?;
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    out(&format!(
        "{} games, {} positions in {:.0} s: {:.0} positions/s ({:.0} per thread)",
        summary.games,
        summary.positions,
        secs,
        summary.positions as f64 / secs,
        summary.positions as f64 / secs / threads as f64
    ));
    Ok(summary)
}

fn progress_line(args: &DatagenArgs, s: &DatagenSummary, start: Instant) -> String {
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let rate = s.positions as f64 / secs;
    let eta = match (args.positions, args.games) {
        (Some(p), _) if rate > 0.0 => Some(p.saturating_sub(s.positions) as f64 / rate),
        (_, Some(g)) if s.games > 0 => {
            Some(g.saturating_sub(s.games) as f64 * secs / s.games as f64)
        }
        _ => None,
    };
    let eta = eta.map_or("-".to_string(), |e| {
        format!(
            "{}:{:02}:{:02}",
            e as u64 / 3600,
            e as u64 / 60 % 60,
            e as u64 % 60
        )
    });
    format!(
        "games {}  positions {}  {:.0} pos/s  ETA {eta}   ",
        s.games, s.positions, rate
    )
}

/// The `datagen` command's flags.
#[derive(Debug, Clone, clap::Args)]
pub struct DatagenFlags {
    /// The output file: binary game records, or the text form if it ends in `.txt`.
    #[arg(long, required_unless_present = "stats")]
    pub out: Option<String>,
    /// Worker threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub nodes: u64,
    /// Stop after this many new positions.
    #[arg(long, conflicts_with = "games")]
    pub positions: Option<u64>,
    /// Stop after this many new games.
    #[arg(long)]
    pub games: Option<u64>,
    /// Seed: game i of a run is determined by the seed and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random legal plies before the game (default 8; 0 with --openings; 4 after --book).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: Option<u32>,
    /// EPD/FEN file of start positions to draw openings from.
    #[arg(long)]
    pub openings: Option<String>,
    /// A Polyglot book (.bin): each game follows it, moves drawn by weight, until it ends.
    #[arg(long)]
    pub book: Option<String>,
    /// Transposition table per thread, MiB.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
    /// The evaluation the games are played with: `embedded` (the default net), `hce`
    /// (hand-crafted) or a net file.
    #[arg(long, default_value = "embedded")]
    pub net: String,
    /// Print counts, the result mix and a score histogram of a data file instead.
    #[arg(long, conflicts_with_all = ["convert"])]
    pub stats: Option<String>,
    /// Convert a data file (binary or text) to the text form in --out.
    #[arg(long)]
    pub convert: Option<String>,
    /// Skip malformed lines or a torn record instead of failing.
    #[arg(long)]
    pub skip_bad: bool,
}

/// Why the `datagen` command could not run.
#[derive(Debug, thiserror::Error)]
pub enum DatagenCommandError {
    /// Neither `--out` nor `--stats` (clap asks for one; a caller building flags may not).
    #[error("--out is required")]
    NoOutput,
    /// The openings file could not be read.
    #[error(transparent)]
    Openings(#[from] crate::files::FileError),
    /// An openings line is not a position.
    #[error("{path}: line {line}: {source}")]
    OpeningLine {
        /// The file.
        path: String,
        /// The line (1-based).
        line: usize,
        /// What is wrong.
        source: crate::chess::FenError,
    },
    /// The openings file holds no position.
    #[error("{0}: no positions")]
    NoOpenings(String),
    /// `--net` names no usable network.
    #[error(transparent)]
    Net(#[from] crate::command::BadNet),
    /// The book could not be read.
    #[error(transparent)]
    Book(#[from] crate::chess::polyglot::BookError),
    /// Reading, converting or summarising a data file failed.
    #[error(transparent)]
    Data(#[from] super::data::DataError),
    /// The run itself failed.
    #[error(transparent)]
    Run(#[from] DatagenError),
}

/// Reads start positions, one FEN or EPD record a line (blank lines and `#` comments skipped).
pub fn read_openings(path: &str) -> Result<Vec<Board>, DatagenCommandError> {
    let text = crate::files::read_text(path)?;
    let mut boards = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let epd =
            crate::chess::parse_epd(line).map_err(|source| DatagenCommandError::OpeningLine {
                path: path.to_string(),
                line: i + 1,
                source,
            })?;
        boards.push(epd.board);
    }
    if boards.is_empty() {
        return Err(DatagenCommandError::NoOpenings(path.to_string()));
    }
    Ok(boards)
}

/// The `datagen` command: `--stats`, `--convert`, or a run until its target or `stop`.
pub fn command(
    flags: DatagenFlags,
    stop: Arc<AtomicBool>,
    out: &mut dyn FnMut(&str),
    progress: &mut dyn FnMut(&str),
) -> Result<crate::command::Outcome, DatagenCommandError> {
    use super::data;
    if let Some(path) = flags.stats {
        for line in data::stats(&path, flags.skip_bad)?.lines() {
            out(line);
        }
        return Ok(crate::command::Outcome::Success);
    }
    let out_path = flags.out.ok_or(DatagenCommandError::NoOutput)?;
    if let Some(input) = flags.convert {
        let n = data::convert_to_text(&input, &out_path, flags.skip_bad)?;
        out(&format!("{n} positions written to {out_path}"));
        return Ok(crate::command::Outcome::Success);
    }
    let openings = match flags.openings.as_deref() {
        Some(path) => read_openings(path)?,
        None => Vec::new(),
    };
    let net = crate::command::choose_net(&flags.net)?;
    let book = match flags.book.as_deref() {
        Some(path) => Some(Arc::new(crate::chess::polyglot::Book::load(path)?)),
        None => None,
    };
    let default_plies = match (&book, openings.is_empty()) {
        (Some(_), _) => 4,
        (None, true) => 8,
        (None, false) => 0,
    };
    let args = DatagenArgs {
        out: out_path,
        threads: flags.threads as usize,
        nodes: flags.nodes,
        positions: flags.positions,
        games: flags.games,
        seed: flags.seed,
        random_plies: flags.random_plies.unwrap_or(default_plies),
        openings,
        book,
        hash_mib: flags.hash as usize,
        net,
    };
    run(&args, stop, out, progress)?;
    Ok(crate::command::Outcome::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(out: &str, seed: u64) -> DatagenArgs {
        DatagenArgs {
            out: out.to_string(),
            threads: 2,
            nodes: 300,
            positions: None,
            games: Some(3),
            seed,
            random_plies: 8,
            openings: Vec::new(),
            book: None,
            hash_mib: 1,
            net: None,
        }
    }

    #[test]
    fn runs_are_reproducible_and_resume() {
        let dir = std::env::temp_dir().join(format!("fian-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a.fgd").to_string_lossy().to_string();
        let b = dir.join("b.fgd").to_string_lossy().to_string();
        let _ = std::fs::remove_file(&a);
        let _ = std::fs::remove_file(&b);
        let stop = || Arc::new(AtomicBool::new(false));
        // One run of 4 games against 3 then 1 (resumed): the same bytes.
        let mut four = args(&a, 7);
        four.games = Some(4);
        run(&four, stop(), &mut |_| {}, &mut |_| {}).unwrap();
        run(&args(&b, 7), stop(), &mut |_| {}, &mut |_| {}).unwrap();
        let mut one = args(&b, 7);
        one.games = Some(1);
        let s = run(&one, stop(), &mut |_| {}, &mut |_| {}).unwrap();
        assert_eq!(s.resumed_from, 3);
        let (ba, bb) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
        assert_eq!(ba, bb);
        let (games, bad) = decode_games(&ba, &a, false).unwrap();
        assert_eq!((games.len(), bad), (4, 0));
        for g in &games {
            // The opening rule: the first search was balanced.
            assert!(g.plies[0].1.abs() <= rules::OPENING_MAX_SCORE as i16);
            assert_eq!(game_ply(&g.start), 8);
        }
        // A torn tail is cut off and the run continues after the last whole game.
        let torn = ba.len() - 5;
        std::fs::write(&b, &ba[..torn]).unwrap();
        let s = run(&one, stop(), &mut |_| {}, &mut |_| {}).unwrap();
        assert_eq!(s.resumed_from, 3);
        assert_eq!(std::fs::read(&b).unwrap(), ba);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
