//! Perft: counting the leaf nodes of the legal move tree, the standard move-generator check.

use super::board::Board;
use super::moves::Move;
use thiserror::Error;

/// Leaf nodes at `depth`, bulk-counted at the last ply.
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_legal_moves(),
        _ => {
            // Visiting moves as they are generated saves building a list at every inner node.
            let mut total = 0;
            board.for_each_legal_move(|m| total += perft(&board.make_move(m), depth - 1));
            total
        }
    }
}

/// Perft that gives up (`None`) soon after `stopped` says so; it is asked at nodes three or
/// more plies from the leaves, often enough to stop within milliseconds and rarely enough to
/// cost nothing measurable.
pub fn perft_until(board: &Board, depth: u32, stopped: &dyn Fn() -> bool) -> Option<u64> {
    if depth < 3 {
        return Some(perft(board, depth));
    }
    if stopped() {
        return None;
    }
    let mut total = Some(0u64);
    board.for_each_legal_move(|m| {
        if let Some(t) = total {
            total = perft_until(&board.make_move(m), depth - 1, stopped).map(|n| t + n);
        }
    });
    total
}

/// Perft per root move, in generation order.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    board
        .legal_moves()
        .iter()
        .map(|&m| (m, perft(&board.make_move(m), depth.saturating_sub(1))))
        .collect()
}

/// Perft that splits the root moves over `threads` threads.
pub fn perft_parallel(board: &Board, depth: u32, threads: usize) -> u64 {
    if depth < 2 || threads <= 1 {
        return perft(board, depth);
    }
    let moves: Vec<Move> = board.legal_moves().iter().copied().collect();
    let chunk = moves.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = moves
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|&m| perft(&board.make_move(m), depth - 1))
                        .sum::<u64>()
                })
            })
            .collect();
        // A perft thread only counts; it cannot panic unless the generator has a bug, which
        // we would rather surface loudly than hide as a wrong count.
        handles
            .into_iter()
            .map(|h| h.join().expect("perft thread"))
            .sum()
    })
}

/// The incremental hash disagreed with a full recomputation.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("hash mismatch after {mv} from {fen}: incremental {incremental:016x}, recomputed {recomputed:016x}")]
pub struct HashMismatch {
    /// The position before the move.
    pub fen: String,
    /// The move played.
    pub mv: Move,
    /// The hash `make_move` produced.
    pub incremental: u64,
    /// The hash computed from scratch.
    pub recomputed: u64,
}

/// Perft that recomputes the hash after every move and fails on the first mismatch.
pub fn perft_check_hash(board: &Board, depth: u32) -> Result<u64, HashMismatch> {
    if depth == 0 {
        return Ok(1);
    }
    let mut total = 0;
    for &m in board.legal_moves().iter() {
        let next = board.make_move(m);
        let recomputed = next.compute_hash();
        if next.hash() != recomputed {
            return Err(HashMismatch {
                fen: board.to_fen(),
                mv: m,
                incremental: next.hash(),
                recomputed,
            });
        }
        total += perft_check_hash(&next, depth - 1)?;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_shallow() {
        let b = Board::startpos();
        assert_eq!(perft(&b, 1), 20);
        assert_eq!(perft(&b, 3), 8902);
        assert_eq!(perft_check_hash(&b, 3), Ok(8902));
        assert_eq!(perft_parallel(&b, 4, 2), 197_281);
        assert_eq!(divide(&b, 2).iter().map(|d| d.1).sum::<u64>(), 400);
    }
}

/// One position of a perft suite with its expected counts.
#[derive(Debug, Clone)]
pub struct SuiteEntry {
    /// The line (1-based) where the record starts.
    pub line: usize,
    /// A name: the `id` of a block record, or the line number.
    pub name: String,
    /// The position as written in the file.
    pub fen: String,
    /// (depth, expected nodes), in file order.
    pub counts: Vec<(u32, u64)>,
}

/// A perft suite line that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct SuiteError {
    /// The line (1-based).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn parse_count(line: usize, depth: &str, count: &str) -> Result<(u32, u64), SuiteError> {
    let err = |m: String| SuiteError { line, message: m };
    let d = depth
        .parse::<u32>()
        .map_err(|_| err(format!("depth {depth:?} is not a number")))?;
    let n = count
        .parse::<u64>()
        .map_err(|_| err(format!("count {count:?} is not a number")))?;
    Ok((d, n))
}

/// Reads a perft suite in either common format: EPD lines (`FEN ;D1 20 ;D2 400`) or shakmaty's
/// blocks (`id NAME` / `epd FEN` / `perft DEPTH COUNT`, `#` comments).
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut out: Vec<SuiteEntry> = Vec::new();
    let mut pending_id: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let err = |m: &str| SuiteError {
            line,
            message: m.to_string(),
        };
        if let Some(rest) = l.strip_prefix("id ") {
            pending_id = Some(rest.trim().to_string());
        } else if let Some(rest) = l.strip_prefix("epd ") {
            let name = pending_id.take().unwrap_or_else(|| format!("line {line}"));
            out.push(SuiteEntry {
                line,
                name,
                fen: rest.trim().to_string(),
                counts: Vec::new(),
            });
        } else if let Some(rest) = l.strip_prefix("perft ") {
            let entry = out
                .last_mut()
                .ok_or_else(|| err("'perft' line before any 'epd' line"))?;
            let parts: Vec<&str> = rest.split_whitespace().collect();
            let [d, n] = parts.as_slice() else {
                return Err(err("expected 'perft DEPTH COUNT'"));
            };
            entry.counts.push(parse_count(line, d, n)?);
        } else if l.contains(';') {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap_or("").trim().to_string();
            let mut counts = Vec::new();
            for p in parts {
                let p = p.trim();
                if p.is_empty() {
                    continue;
                }
                let words: Vec<&str> = p.split_whitespace().collect();
                match words.as_slice() {
                    [d, n] if d.starts_with('D') => counts.push(parse_count(line, &d[1..], n)?),
                    _ => return Err(err(&format!("expected ';Dn COUNT', found {p:?}"))),
                }
            }
            if counts.is_empty() {
                return Err(err("no ';Dn COUNT' entries"));
            }
            out.push(SuiteEntry {
                line,
                name: format!("line {line}"),
                fen,
                counts,
            });
        } else {
            return Err(err(&format!("unrecognised line {l:?}")));
        }
    }
    if let Some(e) = out.iter().find(|e| e.counts.is_empty()) {
        return Err(SuiteError {
            line: e.line,
            message: "position without any perft counts".to_string(),
        });
    }
    Ok(out)
}
