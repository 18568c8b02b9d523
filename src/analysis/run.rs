//! `fianchetto analyze`: reads a PGN file, analyses its games (reporting progress), and writes the
//! annotated PGN, JSON, summaries and graphs.

use super::{analyse_positions_with, annotate, graph, AnalyzeError, GameReport, Options};
use crate::chess::pgn::{read_games_bytes, PgnError, PgnGame};
use crate::chess::Color;
use crate::command::Progress;
use crate::search::SearchControl;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// What `analyze` was asked to do.
#[derive(Clone, Debug)]
pub struct RunArgs {
    /// The PGN file.
    pub pgn: PathBuf,
    /// Search options.
    pub options: Options,
    /// Where the annotated PGN goes (standard output when `None` and not `json`).
    pub out: Option<PathBuf>,
    /// Where the graph goes (`.svg` or `.png`); with several games, `-N` is added to the name.
    pub graph: Option<PathBuf>,
    /// Machine-readable output on standard output.
    pub json: bool,
    /// Only this game of the file (1-based).
    pub game: Option<usize>,
    /// Only judge this side's moves.
    pub side: Option<Color>,
}

/// The state Ctrl-C needs to stop an analysis: a flag, and the searches to interrupt.
#[derive(Default, Clone)]
pub struct Interrupt {
    /// Set once the user asked to stop.
    pub stop: Arc<AtomicBool>,
    /// The running searches.
    pub controls: Arc<Mutex<Vec<Arc<SearchControl>>>>,
}

impl Interrupt {
    /// Stops everything: no new position is started and running searches end now.
    pub fn trigger(&self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Ok(c) = self.controls.lock() {
            for s in c.iter() {
                s.stop();
            }
        }
    }
}

#[derive(Serialize)]
struct JsonError {
    game: usize,
    line: usize,
    column: usize,
    message: String,
}

#[derive(Serialize)]
struct JsonOut<'a> {
    engine: String,
    games: &'a [GameReport],
    errors: Vec<JsonError>,
}

/// Unreadable games named one by one; the rest are counted.
const SHOWN_ERRORS: usize = 5;

/// Why a file is surely not PGN text, looking at its first 64 KiB: a NUL byte (no text file has
/// one), or more than one byte in twenty being a control character other than tab, line feed,
/// carriage return and form feed. Bytes that are not UTF-8 (a Latin-1 name) do not count.
pub fn binary_evidence(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(64 * 1024)];
    if let Some(at) = head.iter().position(|&b| b == 0) {
        return Some(format!(
            "a NUL byte at offset {at}: a binary file, not PGN text"
        ));
    }
    let control = head
        .iter()
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c)) || b == 0x7f)
        .count();
    (control * 20 > head.len()).then(|| {
        format!(
            "{control} control characters in its first {} bytes: a binary file, not PGN text",
            head.len()
        )
    })
}

/// The graph file for game `n` when `count` games are drawn: `g.svg`, or `g-3.svg`.
fn graph_path(base: &Path, n: usize, count: usize) -> PathBuf {
    if count <= 1 {
        return base.to_path_buf();
    }
    let stem = base.file_stem().and_then(|s| s.to_str()).unwrap_or("graph");
    let ext = base.extension().and_then(|s| s.to_str()).unwrap_or("svg");
    base.with_file_name(format!("{stem}-{n}.{ext}"))
}

/// The analysis's label: engine and limit, e.g. `Fianchetto 0.1.0, depth 14`.
pub fn annotator(opts: &Options) -> String {
    let l = &opts.limits;
    let limit = if let Some(d) = l.depth {
        format!("depth {d}")
    } else if let Some(n) = l.nodes {
        format!("{n} nodes")
    } else if let Some(t) = l.movetime {
        format!("{t} ms")
    } else {
        "default".to_string()
    };
    format!("Fianchetto {}, {limit}", env!("CARGO_PKG_VERSION"))
}

/// Runs the analysis. `out` receives standard output (PGN or JSON), `info` the summaries and
/// the reports of unreadable games. Returns whether every selected game was read and analysed.
pub fn run(
    args: &RunArgs,
    interrupt: &Interrupt,
    out: &mut dyn FnMut(&str),
    info: &mut dyn FnMut(&str),
    progress: &dyn Progress,
) -> Result<bool, AnalyzeError> {
    if let Some(g) = &args.graph {
        if graph::Format::of(g).is_none() {
            return Err(AnalyzeError::Usage(format!(
                "--graph {}: the file must end in .svg or .png",
                g.display()
            )));
        }
    }
    let games = read_selected(args)?;
    let total: u64 = games
        .iter()
        .filter_map(|(_, g)| g.as_ref().ok())
        .map(|g| g.moves.len() as u64 + 1)
        .sum();
    // Positions are what the search spends its time on, so they drive the progress and its
    // estimate.
    progress.start("", total);
    let started = std::time::Instant::now();
    let readable = games.iter().filter(|(_, g)| g.is_ok()).count();
    let mut all_ok = true;
    let mut reports = Vec::new();
    let mut annotated = String::new();
    let mut errors = Vec::new();
    let mut searchers = Vec::new();
    let label = annotator(&args.options);
    for (number, game) in &games {
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                all_ok = false;
                // A few errors name their places; the rest are counted at the end (all of them
                // are in --json), so that a file that is mostly not PGN does not drown the user.
                if errors.len() < SHOWN_ERRORS {
                    info(&format!("{}: {e}", args.pgn.display()));
                }
                errors.push(JsonError {
                    game: e.game,
                    line: e.line,
                    column: e.column,
                    message: e.kind.to_string(),
                });
                continue;
            }
        };
        if interrupt.stop.load(Ordering::Relaxed) {
            break;
        }
        let who = format!(
            "game {}/{readable} (#{number}) {} – {}",
            reports.len() + 1,
            game.tag("White").unwrap_or("?"),
            game.tag("Black").unwrap_or("?")
        );
        progress.note(&who);
        let infos = analyse_positions_with(
            game,
            &args.options,
            &mut searchers,
            &interrupt.stop,
            &interrupt.controls,
            &|_, _| progress.advance(1),
        );
        if let Ok(mut c) = interrupt.controls.lock() {
            c.clear();
        }
        let report = GameReport::new(*number, game, &infos, args.side);
        all_ok &= report.complete;
        if !annotated.is_empty() {
            annotated.push('\n');
        }
        annotated.push_str(&annotate(game, &report, &label).to_pgn());
        reports.push(report);
    }
    progress.finish();
    let analysed: usize = reports.iter().map(|r| r.moves.len()).sum();
    let seconds = started.elapsed().as_secs_f64();
    let incomplete = reports.iter().filter(|r| !r.complete).count();
    info(&format!(
        "analysed {} game{}{}, {analysed} moves in {seconds:.1} s ({:.1} moves/s, {})",
        reports.len(),
        if reports.len() == 1 { "" } else { "s" },
        if incomplete > 0 {
            format!(" ({incomplete} incomplete)")
        } else {
            String::new()
        },
        analysed as f64 / seconds.max(1e-3),
        label
    ));
    if errors.len() > SHOWN_ERRORS {
        info(&format!(
            "{}: {} more games could not be read ({} of {} in all; --json lists every one)",
            args.pgn.display(),
            errors.len() - SHOWN_ERRORS,
            errors.len(),
            games.len()
        ));
    }
    write_outputs(args, &reports, &annotated, errors, label, out, info)?;
    if interrupt.stop.load(Ordering::Relaxed) {
        info("interrupted: what was analysed so far is written");
    }
    Ok(all_ok)
}

/// The games of the file that `--game` selects (all without it), numbered from 1, each read
/// or with the error that stopped it.
#[allow(clippy::type_complexity)]
fn read_selected(args: &RunArgs) -> Result<Vec<(usize, Result<PgnGame, PgnError>)>, AnalyzeError> {
    let bytes = crate::files::read_bounded(&args.pgn, crate::files::TEXT_LIMIT, "PGN file")?;
    if let Some(why) = binary_evidence(&bytes) {
        return Err(AnalyzeError::NotPgn {
            path: args.pgn.display().to_string(),
            why,
        });
    }
    let mut games: Vec<(usize, Result<PgnGame, PgnError>)> = read_games_bytes(&bytes)
        .into_iter()
        .enumerate()
        .map(|(i, g)| (i + 1, g))
        .collect();
    if games.is_empty() {
        return Err(AnalyzeError::NoGames(args.pgn.display().to_string()));
    }
    if let Some(n) = args.game {
        let count = games.len();
        if n == 0 || n > count {
            return Err(AnalyzeError::NoSuchGame { n, count });
        }
        games = vec![games.swap_remove(n - 1)];
    }
    Ok(games)
}

/// Writes what the analysis found: the annotated PGN (to `--out`, else standard output), the
/// JSON, the graphs, and each game's summary (to standard output when it is free).
fn write_outputs(
    args: &RunArgs,
    reports: &[GameReport],
    annotated: &str,
    errors: Vec<JsonError>,
    label: String,
    out: &mut dyn FnMut(&str),
    info: &mut dyn FnMut(&str),
) -> Result<(), AnalyzeError> {
    let stdout_busy = args.json || args.out.is_none();
    let mut summaries = Vec::new();
    for r in reports {
        summaries.push(r.summary());
    }
    if let Some(path) = &args.out {
        std::fs::write(path, annotated).map_err(|e| AnalyzeError::Write {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
    }
    if args.json {
        let doc = JsonOut {
            engine: label,
            games: reports,
            errors,
        };
        // Serialising plain structs of strings and numbers cannot fail.
        let text = serde_json::to_string_pretty(&doc).expect("reports serialise");
        out(&text);
    } else if args.out.is_none() {
        out(annotated.trim_end());
    }
    if let Some(base) = &args.graph {
        for r in reports {
            let path = graph_path(base, r.game, reports.len());
            graph::draw(r, &path).map_err(|reason| AnalyzeError::Write {
                path: path.display().to_string(),
                reason,
            })?;
            info(&format!("graph of game {}: {}", r.game, path.display()));
        }
    }
    for s in summaries {
        if stdout_busy {
            info(&s);
        } else {
            out(&s);
        }
    }
    Ok(())
}

/// The `analyze` command's flags.
#[derive(Debug, Clone, clap::Args)]
pub struct AnalyzeFlags {
    /// The PGN file (any number of games).
    pub pgn: PathBuf,
    /// Think this long per position, milliseconds.
    #[arg(long, conflicts_with_all = ["depth", "nodes"], value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub movetime: Option<u64>,
    /// Search each position to this depth.
    #[arg(long, conflicts_with = "nodes", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Search each position this many nodes (1,000,000 when no limit is given).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=u64::MAX))]
    pub nodes: Option<u64>,
    /// Positions analysed at once, each searcher on its own stretch of the game (default: one
    /// per core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// Lines per position (the extra ones appear in --json).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=16))]
    pub multipv: u64,
    /// Hash table per searcher, MiB.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
    /// Write the annotated PGN here instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Draw the evaluation graph into FILE.svg or FILE.png.
    #[arg(long)]
    pub graph: Option<PathBuf>,
    /// Write per-move results as JSON on standard output.
    #[arg(long)]
    pub json: bool,
    /// Analyse only the N-th game of the file.
    #[arg(long)]
    pub game: Option<usize>,
    /// Judge only this side's moves.
    #[arg(long, value_parser = ["white", "black"])]
    pub side: Option<String>,
    /// The evaluation: `embedded` (the default net), `hce` (hand-crafted) or a net file.
    #[arg(long, default_value = "embedded")]
    pub net: String,
    /// Syzygy tablebase folders (`:`-separated): positions in the tables are judged by them.
    #[arg(long)]
    pub syzygy: Option<String>,
}

/// Why the `analyze` command could not run.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeCommandError {
    /// `--net` names no usable network.
    #[error(transparent)]
    Net(#[from] crate::command::BadNet),
    /// `--syzygy` could not be opened.
    #[error("--syzygy: {0}")]
    Tables(#[from] crate::syzygy::PathError),
    /// `--syzygy` names folders without a table.
    #[error("--syzygy {0}: no tables found")]
    NoTables(String),
    /// The analysis itself failed.
    #[error(transparent)]
    Analyze(#[from] AnalyzeError),
}

/// The `analyze` command: the flags made into `RunArgs`, then `run`. Warnings, summaries and
/// unreadable games go to `info`.
pub fn command(
    flags: AnalyzeFlags,
    interrupt: &Interrupt,
    out: &mut dyn FnMut(&str),
    info: &mut dyn FnMut(&str),
    progress: &dyn Progress,
) -> Result<crate::command::Outcome, AnalyzeCommandError> {
    let net = crate::command::choose_net(&flags.net)?;
    let tablebases = match flags.syzygy {
        None => None,
        Some(path) => {
            let (tables, warnings) = crate::syzygy::Tablebases::open(&path)?;
            for w in warnings {
                info(&format!("warning: {w}"));
            }
            if tables.is_empty() {
                return Err(AnalyzeCommandError::NoTables(path));
            }
            Some(crate::search::TablebaseConfig::new(Arc::new(tables)))
        }
    };
    // Without a limit, each position gets DEFAULT_NODES: chosen from the agreement table
    // (docs/measurements.md; Stockfish's judgements matched at precision and recall 0.85, a
    // 90-move game in about a minute on two cores).
    let nodes = flags
        .nodes
        .or(if flags.movetime.is_none() && flags.depth.is_none() {
            Some(super::DEFAULT_NODES)
        } else {
            None
        });
    let limits = crate::search::Limits {
        depth: flags.depth,
        nodes,
        movetime: flags.movetime,
        multipv: flags.multipv as usize,
        ..Default::default()
    };
    let args = RunArgs {
        pgn: flags.pgn,
        options: Options {
            limits,
            threads: flags
                .threads
                .map_or_else(super::default_threads, |t| t as usize),
            hash_mib: flags.hash as usize,
            net,
            tablebases,
        },
        out: flags.out,
        graph: flags.graph,
        json: flags.json,
        game: flags.game,
        side: flags.side.map(|s| {
            if s == "white" {
                Color::White
            } else {
                Color::Black
            }
        }),
    };
    let complete = run(&args, interrupt, out, info, progress)?;
    Ok(crate::command::Outcome::from_passed(complete))
}
