//! `epd`: run a best-move test suite (`bm` / `am` operations in SAN or UCI).

use crate::chess::{parse_epd, FenError, Game, Move, SanError};
use crate::command::Outcome;
use crate::search::{Limits, Searcher};
use thiserror::Error;

/// A suite record that cannot be run, with its line (1-based).
#[derive(Debug, Error)]
pub enum EpdError {
    /// The position is not valid.
    #[error("line {line}: {source}")]
    Fen {
        /// The line.
        line: usize,
        /// What is wrong.
        source: FenError,
    },
    /// A `bm` or `am` move is not legal there.
    #[error("line {line}: {op} {text}: {source}")]
    Move {
        /// The line.
        line: usize,
        /// `bm` or `am`.
        op: String,
        /// The move as written.
        text: String,
        /// Why it was refused.
        source: SanError,
    },
    /// Neither `bm` nor `am`: nothing to test.
    #[error("line {0}: no bm or am operation")]
    NoTarget(usize),
}

/// How much to search per position.
#[derive(Clone, Copy, Debug)]
pub enum EpdLimit {
    /// Milliseconds per position.
    Movetime(u64),
    /// Fixed depth.
    Depth(u32),
    /// Fixed node count.
    Nodes(u64),
}

/// Runs every position of `text`; prints a line per position and `solved N/M`.
/// Returns (solved, total), or the first malformed record.
pub fn run(
    text: &str,
    limit: EpdLimit,
    hash_mib: usize,
    out: &mut dyn FnMut(&str),
) -> Result<(usize, usize), EpdError> {
    let mut searcher = Searcher::new(hash_mib);
    let (mut solved, mut total) = (0, 0);
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let epd = parse_epd(line).map_err(|source| EpdError::Fen {
            line: i + 1,
            source,
        })?;
        let board = epd.board;
        let parse_list = |op: &str| -> Result<Vec<Move>, EpdError> {
            epd.op(op)
                .unwrap_or(&[])
                .iter()
                .map(|t| {
                    board.parse_move(t).map_err(|source| EpdError::Move {
                        line: i + 1,
                        op: op.to_string(),
                        text: t.clone(),
                        source,
                    })
                })
                .collect()
        };
        let bm = parse_list("bm")?;
        let am = parse_list("am")?;
        if bm.is_empty() && am.is_empty() {
            return Err(EpdError::NoTarget(i + 1));
        }
        let id = epd
            .op("id")
            .and_then(|v| v.first().cloned())
            .unwrap_or_else(|| format!("#{}", i + 1));
        let mut limits = Limits {
            multipv: 1,
            ..Limits::default()
        };
        match limit {
            EpdLimit::Movetime(ms) => limits.movetime = Some(ms),
            EpdLimit::Depth(d) => limits.depth = Some(d),
            EpdLimit::Nodes(n) => limits.nodes = Some(n),
        }
        searcher.clear();
        let r = searcher.search(&Game::new(board), &limits, &mut |_| {});
        let ok = r
            .best
            .is_some_and(|m| (bm.is_empty() || bm.contains(&m)) && !am.contains(&m));
        total += 1;
        if ok {
            solved += 1;
        }
        let played = r.best.map_or("(none)".to_string(), |m| board.san(m));
        let want: Vec<String> = bm.iter().map(|&m| board.san(m)).collect();
        let avoid: Vec<String> = am.iter().map(|&m| board.san(m)).collect();
        out(&format!(
            "{} {id:<16} played {played:<8} {}{} depth {} score {}",
            if ok { "ok  " } else { "MISS" },
            if want.is_empty() {
                String::new()
            } else {
                format!("bm {} ", want.join(","))
            },
            if avoid.is_empty() {
                String::new()
            } else {
                format!("am {} ", avoid.join(","))
            },
            r.depth,
            r.score.uci()
        ));
    }
    out(&format!("solved {solved}/{total}"));
    Ok((solved, total))
}

/// The `epd` command's flags.
#[derive(Debug, Clone, clap::Args)]
pub struct EpdFlags {
    /// The EPD file.
    pub file: String,
    /// Milliseconds per position (default 1000).
    #[arg(long, conflicts_with_all = ["depth", "nodes"])]
    pub movetime: Option<u64>,
    /// Fixed depth per position.
    #[arg(long, conflicts_with = "nodes")]
    pub depth: Option<u32>,
    /// Fixed nodes per position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

/// Why the `epd` command could not run its suite.
#[derive(Debug, Error)]
pub enum EpdCommandError {
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] crate::files::FileError),
    /// A record is malformed.
    #[error("{file}: {source}")]
    Record {
        /// The file.
        file: String,
        /// What is wrong (boxed: it is large, and rare).
        source: Box<EpdError>,
    },
}

/// The `epd` command: runs the suite in `--file` within the flags' limit (1 s a position
/// without one).
pub fn command(flags: EpdFlags, out: &mut dyn FnMut(&str)) -> Result<Outcome, EpdCommandError> {
    let limit = match (flags.movetime, flags.depth, flags.nodes) {
        (_, Some(d), _) => EpdLimit::Depth(d.clamp(1, 100)),
        (_, _, Some(n)) => EpdLimit::Nodes(n.max(1)),
        (Some(ms), _, _) => EpdLimit::Movetime(ms.max(1)),
        _ => EpdLimit::Movetime(1000),
    };
    let text = crate::files::read_text(&flags.file)?;
    run(&text, limit, flags.hash.clamp(1, 65536), out).map_err(|source| {
        EpdCommandError::Record {
            file: flags.file,
            source: Box::new(source),
        }
    })?;
    Ok(Outcome::Success)
}
