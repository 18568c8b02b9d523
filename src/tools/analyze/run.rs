//! `fianchetto analyze`: reads a PGN file, analyses its games with a progress bar, and writes the
//! annotated PGN, JSON, summaries and graphs.

use super::{analyse_positions_with, annotate, graph, AnalyzeError, GameReport, Options};
use crate::chess::pgn::{read_games_bytes, PgnError};
use crate::chess::Color;
use crate::search::SearchControl;
use indicatif::{ProgressBar, ProgressStyle};
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
    /// Show a progress bar on standard error.
    pub progress: bool,
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
) -> Result<bool, AnalyzeError> {
    if let Some(g) = &args.graph {
        if graph::Format::of(g).is_none() {
            return Err(AnalyzeError::Usage(format!(
                "--graph {}: the file must end in .svg or .png",
                g.display()
            )));
        }
    }
    let bytes = crate::files::read_bounded(&args.pgn, crate::files::TEXT_LIMIT, "PGN file")?;
    if let Some(why) = binary_evidence(&bytes) {
        return Err(AnalyzeError::NotPgn {
            path: args.pgn.display().to_string(),
            why,
        });
    }
    let mut games: Vec<(usize, Result<_, PgnError>)> = read_games_bytes(&bytes)
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
    let total: u64 = games
        .iter()
        .filter_map(|(_, g)| g.as_ref().ok())
        .map(|g| g.moves.len() as u64 + 1)
        .sum();
    let bar = if args.progress {
        ProgressBar::new(total)
    } else {
        ProgressBar::hidden()
    };
    // Positions are what the search spends its time on, so they drive the bar and its estimate.
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{bar:30}] {pos}/{len} positions · {rate} · {elapsed} elapsed · ETA {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1}/s", s.per_sec());
            },
        )
        .progress_chars("=> "),
    );
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
        bar.set_message(who);
        let infos = analyse_positions_with(
            game,
            &args.options,
            &mut searchers,
            &interrupt.stop,
            &interrupt.controls,
            &|n| bar.inc(n as u64),
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
    bar.finish_and_clear();
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
    let stdout_busy = args.json || args.out.is_none();
    let mut summaries = Vec::new();
    for r in &reports {
        summaries.push(r.summary());
    }
    if let Some(path) = &args.out {
        std::fs::write(path, &annotated).map_err(|e| AnalyzeError::Write {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
    }
    if args.json {
        let doc = JsonOut {
            engine: label.clone(),
            games: &reports,
            errors,
        };
        // Serialising plain structs of strings and numbers cannot fail.
        let text = serde_json::to_string_pretty(&doc).expect("reports serialise");
        out(&text);
    } else if args.out.is_none() {
        out(annotated.trim_end());
    }
    if let Some(base) = &args.graph {
        for r in &reports {
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
    if interrupt.stop.load(Ordering::Relaxed) {
        info("interrupted: what was analysed so far is written");
    }
    Ok(all_ok)
}
