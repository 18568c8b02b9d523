//! `epd`: run a best-move test suite (`bm` / `am` operations in SAN or UCI).

use crate::chess::{parse_epd, FenError, Game, Move, SanError};
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
            r.score
        ));
    }
    out(&format!("solved {solved}/{total}"));
    Ok((solved, total))
}
